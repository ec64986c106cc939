# A rule-based Tic-tac-toe bot in Python, with one planted bug: see README.md.

LINES = [[(x, y) for x in range(3)] for y in range(3)] + \
    [[(x, y) for y in range(3)] for x in range(3)] + \
    [[(0, 0), (1, 1), (2, 2)], [(2, 0), (1, 1), (0, 2)]]
CORNERS = [(0, 0), (2, 0), (0, 2), (2, 2)]


def completing(grid, mark):
    """The free square that completes a line of two `mark`s, if there is one."""
    for line in LINES:
        marks = [grid[y][x] for x, y in line]
        if marks.count(mark) == 2 and '' in marks:
            return line[marks.index('')]
    return None


class Bot:
    def __init__(self):
        self.turns = 0

    def choose(self, grid, you):
        other = 'O' if you == 'X' else 'X'
        square = completing(grid, you) or completing(grid, other)
        if square is None and grid[1][1] == '':
            square = (1, 1)
        for x, y in CORNERS:
            # A corner of theirs is answered with the opposite one... free or not.
            if square is None and grid[y][x] == other:
                square = (2 - x, 2 - y)
        free = [(x, y) for y in range(3) for x in range(3) if grid[y][x] == '']
        return square or free[0]

    def play(self, turn):
        self.turns += 1
        square = self.choose(turn.grid, turn.you)
        print(f'turn {self.turns}: {turn.you} at {square}')
        # botlens reports the illegal_move on the next line
        turn.mark(*square)
