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
# `importlib`'s path finders (which `inspect`, and so `dataclasses`, import) take the same
# functions from `posix`: it is the same module, for a game's `import dataclasses` too.
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
# `dataclasses` is not among them: with `inspect` and the rest it imports, it would make the
# memory every game starts from half as large again, and every game starts by copying it. It is
# imported once per source, for a bot whose source names it (`_import_dataclasses`).
import math, itertools, collections, functools, heapq, json, bisect, string, re, time  # noqa
import typing, enum  # noqa

_json_loads = json.loads

# The functions of `random` a bot calls most, in the runner: each draws exactly what random.py
# draws (the same `getrandbits` calls on the same generator), so games replay as before, for a
# fifth of the fuel; any call the runner does not take (a float, a step, a keyword, another
# sequence) is random.py's own.
import types as _types  # noqa: E402
for _name in ('randrange', 'randint', 'choice', 'shuffle'):
    setattr(_random, _name, _types.MethodType(getattr(_host, _name), _random._inst))


# `print` (and anything written to sys.stdout or sys.stderr) goes to the turn's log, a line each
# (the runner's `Log`, which the runner flushes after every turn).
_log = _host.Log()
_sys.stdout = _log
_sys.stderr = _log


# The modules the sandbox cannot give at all.
_REFUSED_MODULES = frozenset({
    'nt', 'socket', '_socket', 'ssl', 'select', 'selectors', 'subprocess',
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


# Every game's turn, made by the runner from the view as the host writes it (canonical JSON,
# docs/abi.md): the Battleships and Tic-tac-toe turns are the runner's own classes (their fields
# and moves written in Rust, so that a turn runs no Python but the bot's), with what is left
# here. A losing move never comes back (the runner locates it at the caller's line and the host
# ends the game).
def _act(action):
    return _host.act(json.dumps(action, separators=(',', ':')))


def _act_xy(x, y):
    """A move whose coordinates are not both `int`s: `json.dumps` writes them as they are."""
    return _act({'x': x, 'y': y})


_sunk = 0


def _shot(answer):
    """What `turn.attack` returns for an answer other than a plain miss or hit."""
    global _sunk
    shot = _json_loads(answer)
    if shot.get('result') != 'sunk':
        return shot.get('result') == 'hit'
    _sunk += 1
    ship = shot['ship']
    return {'no': _sunk, 'kind': ship['kind'], 'size': ship['size'], 'x': ship['x'],
            'y': ship['y'], 'direction': ship['direction']}


class BattleshipsTurn(_host.BattleshipsTurnBase):
    """A Battleships turn: `targets`, `own`, `enemy_ships_left`, `shots`, `attack(x, y)`."""

    __slots__ = ()

    def __repr__(self):
        return f'BattleshipsTurn(targets={self.targets!r}, shots={self.shots})'


class TicTacToeTurn(_host.TicTacToeTurnBase):
    """A Tic-tac-toe turn: `grid[y][x]` (`''`, `'X'` or `'O'`), `you`, `mark(x, y)`."""

    __slots__ = ()

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

    def __getattr__(self, name):
        raise AttributeError(_missing('klotski', name))


# A bot written for another game (a lone file run with the wrong --game) calls that game's move
# or reads its fields: the AttributeError says which game the bot reads. The runner's turn
# classes ask `_missing` from a slot of theirs (a `__getattr__` in a subclass would make every
# attribute of the turn a call of Python's `__getattribute__`).
_MEMBERS = {
    'battleships': ('Battleships', ('targets', 'own', 'enemy_ships_left', 'shots', 'attack')),
    'tictactoe': ('Tic-tac-toe', ('grid', 'you', 'mark')),
    'klotski': ('Klotski', ('width', 'height', 'pieces', 'goal', 'moves', 'steps', 'move')),
}


def _missing(game, name):
    """The message of the AttributeError for `turn.<name>` that a turn of `game` does not have."""
    for other, (title, members) in _MEMBERS.items():
        if other != game and name in members:
            return (f"turn.{name} is a {title} turn's, and this game is {_MEMBERS[game][0]}: is "
                    f"the bot written for {other}? Run it with --game {other}, or name its game "
                    "in a botlens.toml beside it")
    return f"a {_MEMBERS[game][0]} turn has no attribute '{name}'"


_bot = None
# Kept here: a bot may replace `random.seed` (or anything else of its modules) in its own game.
_seed = _random.seed


def _start(game, names):
    """Starts a game: seeds `random` from the game's bot stream and makes `Bot()` from the bot's
    module namespace `names`, which it returns."""
    global _bot, _sunk
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
    return _bot


# Everything made so far lives as long as the interpreter: frozen out of the cycle collector's
# generations, so that a game's collections walk only what the game made.
import gc as _gc  # noqa: E402
_gc.collect()
_gc.freeze()


# `dataclasses`, imported before the games of a bot whose source names it: the runner's
# `botlens_prepare_payload` calls this once per source. A game would import it the same way, at a
# cost of 2.9·10⁸ units of fuel.
def _import_dataclasses():
    try:
        import dataclasses  # noqa: F401
    except Exception:  # noqa: BLE001 -- the game imports it again and meets the error
        return
    _gc.collect()
    _gc.freeze()
