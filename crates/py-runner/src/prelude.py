# The botlens Python prelude: the module `botlens`, run once when the runner starts (before any
# bot's source), and the turn objects a bot's `play(turn)` is given. `_botlens` holds the
# runner's native functions (view, act, log, seed, draw). docs/python.md is the manual.

import _botlens as _host
import builtins as _builtins
import sys as _sys

# What a bot in the sandbox cannot have: files, sockets, threads, processes, the host's
# environment. Each is refused with the reason rather than failing somewhere inside the standard
# library.
_REFUSED = (
    'the sandbox gives a bot no files, sockets, threads, processes or host environment'
)


# `os` is the sandbox's: what the standard library needs of it to import (the path functions,
# an empty environment, `urandom` from the game's bot stream, so that it replays), and a clear
# error for the rest (`os.system`, `os.listdir`, ...). RustPython is built without the host's.
def _urandom(size):
    out = bytearray()
    while len(out) < size:
        out += _host.seed().to_bytes(8, 'little')
    return bytes(out[:size])


def _fspath(path):
    if isinstance(path, (str, bytes)):
        return path
    return type(path).__fspath__(path)


class _PathLike:
    def __fspath__(self):
        raise NotImplementedError


def _os_refused(name):
    raise AttributeError(f"os.{name} is not in botlens: {_REFUSED}", name=name)


_os = type(_sys)('os')
_os.__dict__.update({
    'name': 'posix', 'sep': '/', 'altsep': None, 'curdir': '.', 'pardir': '..', 'extsep': '.',
    'pathsep': ':', 'linesep': '\n', 'defpath': '/bin', 'devnull': '/dev/null', 'environ': {},
    'getenv': lambda key, default=None: default, 'urandom': _urandom, 'fspath': _fspath,
    'PathLike': _PathLike, 'error': OSError, '__getattr__': _os_refused,
})
_sys.modules['os'] = _os
# `importlib`'s path finders (which `inspect` imports) take the same functions from `posix`, while
# the prelude imports; it is dropped from the modules below, and a bot's `import posix` refused.
_sys.modules['posix'] = _os
import posixpath as _posixpath  # noqa: E402
_os.path = _posixpath
_sys.modules['os.path'] = _posixpath


# `io` (and what imports it: `tokenize`, `inspect`, `dataclasses`) needs `_io.FileIO`, which the
# interpreter has only with the host's files: here it is a file that cannot be opened.
import _io  # noqa: E402


class _FileIO(_io._RawIOBase):
    def __init__(self, *args, **kwargs):
        raise PermissionError(f"io.FileIO: {_REFUSED}; a bot keeps what it needs in memory")


_FileIO.__name__ = _FileIO.__qualname__ = 'FileIO'
_io.FileIO = _FileIO

# The standard library a bot plausibly imports, imported once here so that no game pays for it.
import random as _random  # noqa: E402
import math, itertools, collections, functools, heapq, json, bisect, string, re, time  # noqa
import typing, dataclasses, enum  # noqa

_json_loads = json.loads


# `print` (and anything written to sys.stdout or sys.stderr) goes to the turn's log, a line each.
class _Log:
    def __init__(self):
        self._partial = ''

    def write(self, text):
        text = str(text)
        lines = (self._partial + text).split('\n')
        self._partial = lines.pop()
        for line in lines:
            _host.log(line)
        return len(text)

    def flush(self):
        if self._partial:
            _host.log(self._partial)
            self._partial = ''

    def isatty(self):
        return False

    @property
    def encoding(self):
        return 'utf-8'


_log = _Log()
_sys.stdout = _log
_sys.stderr = _log


# The modules the sandbox cannot give at all.
_REFUSED_MODULES = frozenset({
    'posix', 'nt', 'socket', '_socket', 'ssl', 'select', 'selectors', 'subprocess',
    '_posixsubprocess', 'threading', 'multiprocessing', 'ctypes', '_ctypes', 'signal', 'mmap',
    'fcntl', 'pty', 'tty', 'urllib', 'http', 'ftplib', 'smtplib', 'sqlite3', 'webbrowser',
})


class _Refuse:
    """A finder ahead of every other: a module the sandbox cannot give is an ImportError that
    says why."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name.partition('.')[0] in _REFUSED_MODULES:
            raise ImportError(f"No module named '{name}' in botlens: {_REFUSED}", name=name)
        return None


def _open(*args, **kwargs):
    raise PermissionError(f"open(): {_REFUSED}; a bot keeps what it needs in memory")


_builtins.open = _open
_sys.meta_path.insert(0, _Refuse)
for _name in list(_sys.modules):
    if _name.partition('.')[0] in _REFUSED_MODULES:
        del _sys.modules[_name]


# Drawing on the board (docs/python.md): each call is one `botlens.draw`, which the runner
# locates at the bot's line that called it. A coordinate or colour that is not a number, or a
# text that is not a str, int, float or bool, drops the mark (the trace counts it); heat-map
# values that are not numbers leave their cells unshaded.
def _text(value):
    if isinstance(value, str):
        return value
    if isinstance(value, (bool, int, float)):
        return str(value)
    return None


def _byte(value):
    return min(255, int(value)) if isinstance(value, (int, float)) and value > 0 else 0


def _level(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return float('nan')


class _Draw:
    """`botlens.draw`: marks over the board, kept with the turn."""

    RED = 0xE03C31
    GREEN = 0x2EA043
    BLUE = 0x1F6FEB
    YELLOW = 0xF2C20F
    WHITE = 0xFFFFFF
    BLACK = 0x000000

    @staticmethod
    def rgb(red, green, blue):
        return (_byte(red) << 16) | (_byte(green) << 8) | _byte(blue)

    @staticmethod
    def intensity(level):
        t = level if isinstance(level, (int, float)) and level == level else 0
        return 0x01000000 | round(max(0, min(t, 1)) * 255)

    @staticmethod
    def cell(x, y, colour):
        _host.draw(0, x, y, 0, 0, colour, None)

    @staticmethod
    def heat(width, values):
        if not isinstance(values, (list, tuple)):
            return _host.draw(-1, 0, 0, 0, 0, 0, None)
        if len(values) > 4096:
            return _host.draw(-1, 0, 0, 0, 0, 0, None)
        _host.draw_heat(width, [_level(value) for value in values])

    @staticmethod
    def arrow(x, y, to_x, to_y, colour):
        _host.draw(2, x, y, to_x, to_y, colour, None)

    @staticmethod
    def label(x, y, value, colour):
        text = _text(value)
        _host.draw(3 if text is not None else -1, x, y, 0, 0, colour, text)

    @staticmethod
    def status(value):
        text = _text(value)
        _host.draw(4 if text is not None else -1, 0, 0, 0, 0, 0, text)


draw = _Draw()


# Every game's turn, made from the view as the host writes it (canonical JSON, docs/abi.md).
# The fields a bot reads every turn are cut out of the view at their fixed places; the rest is
# parsed only when asked for. A losing move never comes back (the runner locates it at the
# caller's line and the host ends the game).
def _act(action):
    return _host.act(json.dumps(action, separators=(',', ':')))


def _act_at(x, y):
    if type(x) is int and type(y) is int:
        return _host.act_at(x, y)
    return _act({'x': x, 'y': y})


_sunk = 0


class BattleshipsTurn:
    """A Battleships turn: `targets`, `own`, `enemy_ships_left`, `shots`, `attack(x, y)`."""

    __slots__ = ('_raw', '_view', 'targets', 'own')

    def __init__(self, raw):
        self._raw = raw
        self._view = None
        if raw.startswith('{"targets":"'):
            self.targets = raw[12:112]
            self.own = raw[121:221]
        else:
            view = self._parsed()
            self.targets = view['targets']
            self.own = view['own']

    def _parsed(self):
        if self._view is None:
            self._view = _json_loads(self._raw)
        return self._view

    @property
    def enemy_ships_left(self):
        return self._parsed()['enemy_ships_left']

    @property
    def shots(self):
        return self._parsed()['shots']

    def attack(self, x, y):
        global _sunk
        answer = _act_at(x, y)
        if answer == '{"result":"miss"}':
            return False
        if answer == '{"result":"hit"}':
            return True
        shot = _json_loads(answer)
        if shot.get('result') != 'sunk':
            return shot.get('result') == 'hit'
        _sunk += 1
        ship = shot['ship']
        return {'no': _sunk, 'kind': ship['kind'], 'size': ship['size'], 'x': ship['x'],
                'y': ship['y'], 'direction': ship['direction']}

    def __repr__(self):
        return f'BattleshipsTurn(targets={self.targets!r}, shots={self.shots})'


class TicTacToeTurn:
    """A Tic-tac-toe turn: `grid[y][x]` (`''`, `'X'` or `'O'`), `you`, `mark(x, y)`."""

    __slots__ = ('_raw', 'grid', '_you')

    def __init__(self, raw):
        self._raw = raw
        self._you = None
        board = raw[10:19] if raw.startswith('{"board":"') else _json_loads(raw)['board']
        self.grid = [['' if c == '.' else c for c in board[row * 3:row * 3 + 3]] for row in range(3)]

    @property
    def you(self):
        if self._you is None:
            self._you = _json_loads(self._raw)['you']
        return self._you

    def mark(self, x, y):
        _act_at(x, y)

    def __repr__(self):
        return f'TicTacToeTurn(grid={self.grid!r}, you={self.you!r})'


class KlotskiTurn:
    """A Klotski turn: `width`, `height`, `pieces`, `goal`, `moves`, `steps`, `move(piece, dir)`."""

    __slots__ = ('width', 'height', 'pieces', 'goal', 'moves', 'steps')

    def __init__(self, raw):
        view = _json_loads(raw)
        self.width = view['width']
        self.height = view['height']
        self.pieces = view['pieces']
        self.goal = view['goal']
        self.moves = view['moves']
        self.steps = view['steps']

    def move(self, piece, dir):
        return _json_loads(_act({'piece': piece, 'dir': dir}))

    def __repr__(self):
        return f'KlotskiTurn(pieces={self.pieces!r}, steps={self.steps})'


_TURNS = {'battleships': BattleshipsTurn, 'tictactoe': TicTacToeTurn, 'klotski': KlotskiTurn}

# A bot written for another game (a lone file run with the wrong --game) calls that game's move
# or reads its fields: the AttributeError says which game the bot reads.
_MEMBERS = {
    'battleships': ('Battleships', ('targets', 'own', 'enemy_ships_left', 'shots', 'attack')),
    'tictactoe': ('Tic-tac-toe', ('grid', 'you', 'mark')),
    'klotski': ('Klotski', ('width', 'height', 'pieces', 'goal', 'moves', 'steps', 'move')),
}


def _other_game(turn_class, game):
    def __getattr__(self, name):
        for other, (title, members) in _MEMBERS.items():
            if other != game and name in members:
                raise AttributeError(
                    f"turn.{name} is a {title} turn's, and this game is {_MEMBERS[game][0]}: is "
                    f"the bot written for {other}? Run it with --game {other}, or name its game "
                    "in a botlens.toml beside it")
        raise AttributeError(f"a {_MEMBERS[game][0]} turn has no attribute '{name}'")
    turn_class.__getattr__ = __getattr__


for _game, _turn in _TURNS.items():
    _other_game(_turn, _game)

_bot = None
_Turn = None
# Kept here: a bot may replace `random.seed` (or anything else of its modules) in its own game.
_seed = _random.seed


def _start(game, names):
    """Starts a game: seeds `random` from the game's bot stream and makes `Bot()` from the bot's
    module namespace `names`."""
    global _bot, _Turn, _sunk
    _Turn = _TURNS[game]
    _sunk = 0
    _seed(_host.seed())
    bot_class = names.get('Bot')
    if bot_class is None:
        raise TypeError("the bot does not define `class Bot:` (botlens's Python format: `class "
                        "Bot:` with `def play(self, turn):`)")
    if not callable(bot_class):
        raise TypeError('`Bot` is not a class (botlens\'s Python format: `class Bot:` with '
                        '`def play(self, turn):`)')
    _bot = bot_class()
    if not callable(getattr(_bot, 'play', None)):
        raise TypeError('`Bot.play` is not a method (botlens\'s Python format: `class Bot:` with '
                        '`def play(self, turn):`)')


def _play():
    """One turn: `bot.play(turn)`. Returns the bot's `play`, for a turn without a move."""
    play = _bot.play
    try:
        play(_Turn(_host.view()))
    finally:
        _log.flush()
    return play
