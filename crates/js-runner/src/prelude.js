// The botlens JavaScript prelude: the arena's bot format on top of the botlens ABI. Evaluated
// once per game before the bot's source; `__botlens_host` holds the runner's native functions
// (view, act, log, random, draw), which this file hides again.
(function (host) {
  'use strict';
  const show = (value) => {
    if (typeof value === 'string') return value;
    if (value instanceof Error) return String(value);
    if (typeof value === 'object' && value !== null) {
      try { return JSON.stringify(value); } catch (_) { return String(value); }
    }
    return String(value);
  };
  // A lone surrogate (half of a UTF-16 pair, `'\ud800'`) has no UTF-8 form: logged as U+FFFD.
  const print = (...values) => host.log(values.map(show).join(' ').toWellFormed());
  globalThis.console = { log: print, info: print, warn: print, error: print, debug: print };
  Math.random = host.random;

  // Drawing on the board (docs/javascript.md): each call is one `botlens.draw`, which the runner
  // locates at the bot's line that called it. Arguments are read without running the bot's
  // code: a coordinate or colour that is not a finite number, or a text that is not a string,
  // number or boolean, drops the mark (the trace counts it); heat-map values that are not
  // numbers leave their cells unshaded.
  const { isArray } = Array;
  const { isView } = ArrayBuffer;
  const number = (value) => (typeof value === 'number' ? value : NaN);
  const text = (value) => {
    if (typeof value === 'string') return value.toWellFormed();
    const kind = typeof value;
    return kind === 'number' || kind === 'boolean' || kind === 'bigint' ? String(value) : null;
  };
  const byte = (value) => { const n = number(value); return n > 0 ? Math.min(255, Math.floor(n)) : 0; };
  const KIND = { cell: 0, arrow: 2, label: 3, status: 4 };
  globalThis.draw = {
    RED: 0xe03c31,
    GREEN: 0x2ea043,
    BLUE: 0x1f6feb,
    YELLOW: 0xf2c20f,
    WHITE: 0xffffff,
    BLACK: 0x000000,
    rgb(red, green, blue) { return (byte(red) << 16) | (byte(green) << 8) | byte(blue); },
    intensity(level) {
      const t = number(level);
      return 0x01000000 | Math.round((t > 0 ? Math.min(t, 1) : 0) * 255);
    },
    cell(x, y, colour) { host.draw(KIND.cell, x, y, 0, 0, colour, null); },
    heat(width, values) {
      host.drawHeat(width, isArray(values) || isView(values) ? values : null);
    },
    arrow(x, y, toX, toY, colour) { host.draw(KIND.arrow, x, y, toX, toY, colour, null); },
    label(x, y, value, colour) { host.draw(KIND.label, x, y, 0, 0, colour, text(value)); },
    status(value) { host.draw(KIND.status, 0, 0, 0, 0, 0, text(value)); },
  };

  // Every game's turn, made from the view as the host writes it (canonical JSON, docs/abi.md):
  // a new object each turn, of a class made once, holding the view's text only. The fields a bot
  // reads every turn are cut out of it at their fixed places when first asked for, the rest
  // parsed only when asked for (parsing the whole view would cost more than a simple bot's
  // move); a field asked for becomes the turn's own property, so reading it again (a bot's loop
  // over `turn.targets`) is a plain property read. A move of two integers goes to the runner as
  // numbers, anything else as JSON (the same text either way). A losing move never comes back
  // (the runner locates it at the caller's line and the host ends the game).
  const act = (action) => host.act(JSON.stringify(action));
  const actAt = (x, y) =>
    (x | 0) === x && (y | 0) === y ? host.actAt(x, y) : act({ x, y });
  const own = (turn, name, value) => {
    Object.defineProperty(turn, name, { value, enumerable: true });
    return value;
  };
  // The parsed view, for the turn it was parsed for.
  let parsedFor = null;
  let parsedView = null;
  const parsed = (turn, raw) => {
    if (parsedFor !== turn) { parsedView = JSON.parse(raw); parsedFor = turn; }
    return parsedView;
  };
  const TARGETS = '{"targets":"';
  const cut = (turn, raw, at, field) =>
    (raw.startsWith(TARGETS) ? raw.substr(at, 100) : parsed(turn, raw)[field]);
  let sunk = 0;
  class BattleshipsTurn {
    #raw;
    constructor(raw) { this.#raw = raw; }
    get targets() { return own(this, 'targets', cut(this, this.#raw, 12, 'targets')); }
    get own() { return own(this, 'own', cut(this, this.#raw, 121, 'own')); }
    get enemyShipsLeft() { return own(this, 'enemyShipsLeft', parsed(this, this.#raw).enemy_ships_left); }
    get shots() { return own(this, 'shots', parsed(this, this.#raw).shots); }
    attack(x, y) {
      const answer = actAt(x, y);
      if (answer === '{"result":"miss"}') return false;
      if (answer === '{"result":"hit"}') return true;
      const shot = JSON.parse(answer);
      if (shot.result !== 'sunk') return shot.result === 'hit';
      sunk += 1;
      const ship = shot.ship;
      return { no: sunk, kind: ship.kind, size: ship.size, x: ship.x, y: ship.y, direction: ship.direction };
    }
    toJSON() { return { targets: this.targets, own: this.own, enemyShipsLeft: this.enemyShipsLeft, shots: this.shots }; }
  }
  class TicTacToeTurn {
    #raw;
    constructor(raw) { this.#raw = raw; }
    get grid() {
      const raw = this.#raw;
      const board = raw.startsWith('{"board":"') ? raw.substr(10, 9) : parsed(this, raw).board;
      const rows = [];
      for (let y = 0; y < 3; y++) {
        const row = [];
        for (let x = 0; x < 3; x++) { const c = board[y * 3 + x]; row.push(c === '.' ? '' : c); }
        rows.push(row);
      }
      return own(this, 'grid', rows);
    }
    get you() { return own(this, 'you', parsed(this, this.#raw).you); }
    mark(x, y) { actAt(x, y); }
    toJSON() { return { grid: this.grid, you: this.you }; }
  }
  class KlotskiTurn {
    constructor(raw) {
      const view = JSON.parse(raw);
      this.width = view.width;
      this.height = view.height;
      this.pieces = view.pieces;
      this.goal = view.goal;
      this.moves = view.moves;
      this.steps = view.steps;
    }
    move(piece, dir) { return JSON.parse(act({ piece, dir })); }
  }
  const turns = { battleships: BattleshipsTurn, tictactoe: TicTacToeTurn, klotski: KlotskiTurn };

  // A bot written for another game (a lone file run with the wrong --game) reads that game's
  // fields and calls its moves: each turn class answers the other games' names, so that the
  // failure says which game the bot reads. A move throws at once; a field reads as before
  // (`undefined`, which a bot may test for) but is remembered, and the turn's TypeError says so.
  const members = {
    battleships: { title: 'Battleships', fields: ['targets', 'own', 'enemyShipsLeft', 'shots'], move: 'attack' },
    tictactoe: { title: 'Tic-tac-toe', fields: ['grid', 'you'], move: 'mark' },
    klotski: { title: 'Klotski', fields: ['width', 'height', 'pieces', 'goal', 'moves', 'steps'], move: 'move' },
  };
  let misread = null;
  const hint = (name, other, game) =>
    `turn.${name} is a ${members[other].title} turn's, and this game is ${members[game].title}: ` +
    `is the bot written for ${other}? Run it with --game ${other}, or name its game in a ` +
    'botlens.toml beside it';
  for (const game of Object.keys(turns)) {
    const own = members[game];
    for (const other of Object.keys(members)) {
      if (other === game) continue;
      const { fields, move } = members[other];
      for (const name of fields) {
        if (own.fields.includes(name) || own.move === name) continue;
        Object.defineProperty(turns[game].prototype, name, {
          get() { misread = misread || hint(name, other, game); return undefined; },
          configurable: true,
        });
      }
      if (!own.fields.includes(move) && own.move !== move) {
        Object.defineProperty(turns[game].prototype, move, {
          value: { [move]() { throw new TypeError(hint(`${move}()`, other, game)); } }[move],
          configurable: true,
          writable: true,
        });
      }
    }
  }

  // Functions assigned to a property (`Bot.prototype.pickHunt = function (turn) {…}`) have no
  // name: each is named after its property, as `{ pickHunt: function () {…} }` would name it,
  // so stacks say `at pickHunt (bot.js:…)` rather than `<anonymous>`. The bot's prototypes
  // (up to Object's), `Bot`'s own functions and the new bot's, without calling getters.
  const nameMethods = (holder) => {
    for (const key of Object.getOwnPropertyNames(holder)) {
      const value = Object.getOwnPropertyDescriptor(holder, key).value;
      if (typeof value === 'function' && value.name === '') {
        try { Object.defineProperty(value, 'name', { value: key }); } catch (_) { /* kept */ }
      }
    }
  };

  let bot = null;
  let Turn = null;
  globalThis.__botlens_start = function (game) {
    Turn = turns[game];
    if (typeof globalThis.Bot !== 'function') {
      throw new TypeError('the bot does not define `function Bot() {…}` (the arena\'s format: `function Bot() {…}` and `Bot.prototype.play = function (turn) {…}`)');
    }
    bot = new globalThis.Bot();
    if (bot === null || typeof bot.play !== 'function') {
      throw new TypeError('`Bot.prototype.play` is not a function (the arena\'s format: `Bot.prototype.play = function (turn) {…}`)');
    }
    for (let p = Object.getPrototypeOf(bot); p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
      nameMethods(p);
    }
    nameMethods(globalThis.Bot);
    nameMethods(bot);
  };
  // The runner keeps this function from the start, so a bot that replaces the global does not
  // replace the turn. It returns the bot's `play`, for a turn without a move; in an array when
  // `play` returned a promise (an `async play`), which the runner refuses if it made no move.
  globalThis.__botlens_play = function () {
    misread = null;
    let result;
    try {
      result = bot.play(new Turn(host.view()));
    } catch (error) {
      if (misread !== null && error instanceof TypeError) error.message += ` (${misread})`;
      throw error;
    }
    if (result !== undefined && result !== null && typeof result.then === 'function') return [bot.play];
    return bot.play;
  };
})(globalThis.__botlens_host);
delete globalThis.__botlens_host;
