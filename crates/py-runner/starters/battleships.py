# {{name}}: a Battleships bot for botlens, in Python.
#
# It fires at every other square (a checkerboard: every ship covers one of them), and after a
# hit at the unknown squares next to it. Ideas: follow a line of hits, count where each ship
# left could still lie (probability density), remember that ships never touch.
#
# `botlens run` plays it in botlens's Python runner against the reference players. A hit or a
# sink gives you another turn.

STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def unknown(turn, x, y):
    """Whether (x, y) is on the board and not fired at yet."""
    return 0 <= x < 10 and 0 <= y < 10 and turn.targets[y * 10 + x] == '.'


class Bot:
    # Made afresh for every game: fields hold what the bot learns in one game.
    def __init__(self):
        self.sunk = []

    # Called once per turn: look at the turn, then make exactly one move. Making none, or a
    # second one, loses the game, as does an exception; botlens reports the line.
    def play(self, turn):
        # `turn.targets`: the opponent's board as you know it, 100 squares row by row: '.'
        # unknown, 'o' miss, 'x' hit, '#' sunk.
        for i, square in enumerate(turn.targets):
            if square != 'x':
                continue
            for dx, dy in STEPS:
                x, y = i % 10 + dx, i // 10 + dy
                if unknown(turn, x, y):
                    turn.attack(x, y)
                    return
        for parity in (0, 1):
            for i in range(100):
                x, y = i % 10, i // 10
                if (parity == 1 or (x + y) % 2 == 0) and unknown(turn, x, y):
                    # The move: off the board is an illegal move and loses the game here.
                    shot = turn.attack(x, y)
                    if isinstance(shot, dict):
                        # print lines are kept with the turn: `botlens replay` shows them.
                        print('sank the', shot['kind'])
                        self.sunk.append(shot['kind'])
                    return
