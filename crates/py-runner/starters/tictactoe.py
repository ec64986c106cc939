# {{name}}: a Tic-tac-toe bot for botlens, in Python.
#
# It wins when it can, blocks when it must, and otherwise takes a random free square. Ideas:
# take the centre, then the corners; search every game to the end (minimax).
#
# `botlens run` plays it in botlens's Python runner against the reference players.

import random

LINES = [[(x, y) for x in range(3)] for y in range(3)] + \
    [[(x, y) for y in range(3)] for x in range(3)] + \
    [[(0, 0), (1, 1), (2, 2)], [(2, 0), (1, 1), (0, 2)]]


def completing(grid, mark):
    """A free square that completes a line of `mark`, if there is one."""
    for line in LINES:
        marks = [grid[y][x] for x, y in line]
        if marks.count(mark) == 2 and marks.count('') == 1:
            return line[marks.index('')]
    return None


class Bot:
    # Called once per turn: look at the turn, then make exactly one move. Making none, or a
    # second one, loses the game, as does an exception; botlens reports the line.
    def play(self, turn):
        # `turn.grid[y][x]`: '' free, 'X' or 'O'; `turn.you`: your mark.
        other = 'O' if turn.you == 'X' else 'X'
        square = completing(turn.grid, turn.you) or completing(turn.grid, other)
        if square is None:
            free = [(x, y) for y in range(3) for x in range(3) if turn.grid[y][x] == '']
            # `random` is seeded from the game's seed: a replay makes the same choices.
            square = random.choice(free)
        # The move: a taken square is an illegal move and loses the game here.
        turn.mark(*square)
