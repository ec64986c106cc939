# A Battlescripts-style random Battleships bot in Python: it fires at a random square it has not
# fired at before (it keeps the squares it has not tried), nothing clever.

import random


class Bot:
    def __init__(self):
        self.untried = list(range(100))

    def play(self, turn):
        pick = random.randrange(len(self.untried))
        square = self.untried[pick]
        self.untried[pick] = self.untried[-1]
        self.untried.pop()
        turn.attack(square % 10, square // 10)
