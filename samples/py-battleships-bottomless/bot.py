# A hunting Battleships bot in Python, with one planted bug: see README.md.

import random

STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def unknown(targets, x, y):
    """Whether (x, y) is on the board and not fired at yet... but the rows are checked only at
    the top: the row under the bottom one is past the end of `targets`."""
    # botlens reports the panic on the next line
    return 0 <= x < 10 and y >= 0 and targets[y * 10 + x] == '.'


class Bot:
    def __init__(self):
        self.order = list(range(100))
        random.shuffle(self.order)

    def hunt(self, targets):
        """The unknown square next to a hit, if there is one."""
        for i, square in enumerate(targets):
            if square != 'x':
                continue
            for dx, dy in STEPS:
                x, y = i % 10 + dx, i // 10 + dy
                if unknown(targets, x, y):
                    return x, y
        return None

    def play(self, turn):
        targets = turn.targets
        square = self.hunt(targets)
        if square is None:
            i = next(i for i in self.order if targets[i] == '.')
            square = (i % 10, i // 10)
        shot = turn.attack(*square)
        if isinstance(shot, dict):
            print('sank the', shot['kind'], 'at', square)
