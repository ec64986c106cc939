# {{name}}: a Klotski (Huarong Dao) bot for botlens, in Python.
#
# It makes a random legal slide every turn, never straight back where its last slide came from
# (unless nothing else can move), which almost never solves the puzzle within the turn cap.
# Ideas: search the board breadth first on your first turn and play the solution; count
# *steps* (consecutive slides of one piece are one step) to match the board's par.
#
# `botlens run` plays it in botlens's Python runner on the bundled boards (or `generated`, a
# new board per seed), comparing its steps with the optimal number.

import random

DIRS = {'up': (0, -1), 'down': (0, 1), 'left': (-1, 0), 'right': (1, 0)}
BACK = {'up': 'down', 'down': 'up', 'left': 'right', 'right': 'left'}


def can_slide(turn, piece, dir):
    """Whether `piece` can slide one cell towards `dir`: the cells it moves into are on the
    board and no other piece covers them."""
    dx, dy = DIRS[dir]
    x, y = piece['x'] + dx, piece['y'] + dy
    if x < 0 or y < 0 or x + piece['width'] > turn.width or y + piece['height'] > turn.height:
        return False
    return all(
        other['code'] == piece['code']
        or x >= other['x'] + other['width'] or other['x'] >= x + piece['width']
        or y >= other['y'] + other['height'] or other['y'] >= y + piece['height']
        for other in turn.pieces)


class Bot:
    # Made afresh for every game: fields hold what the bot learns in one game.
    def __init__(self):
        self.last = None

    # Called once per turn: look at the turn, then make exactly one move. Making none, or a
    # second one, loses the game, as does an exception; botlens reports the line.
    def play(self, turn):
        # The turn is the whole board: `turn.pieces` ({code, name, x, y, width, height}: the
        # top-left cell and size of each), `turn.width` by `turn.height` cells, and `turn.goal`
        # ({piece, x, y}: the piece that must reach that cell with its top-left corner).
        slides, back = [], None
        for piece in turn.pieces:
            for dir in DIRS:
                if not can_slide(turn, piece, dir):
                    continue
                slide = (piece['code'], dir)
                if self.last and self.last[0] == piece['code'] and BACK[self.last[1]] == dir:
                    back = slide
                else:
                    slides.append(slide)
        if not slides and back:
            slides.append(back)  # only the slide back is left
        # `random` is seeded from the game's seed: a replay makes the same choices.
        self.last = random.choice(slides)
        # The move: a blocked slide is an illegal move and loses the game here.
        slid = turn.move(*self.last)
        print(f'slid {self.last[0]} {self.last[1]}: {slid["steps"]} steps so far')
