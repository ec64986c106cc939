// The botlens JavaScript prelude: the arena's bot format on top of the botlens ABI. Evaluated
// once per game before the bot's source; `__botlens_host` holds the runner's native functions
// (view, act, log, random), which this file hides again.
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
  const print = (...values) => host.log(values.map(show).join(' '));
  globalThis.console = { log: print, info: print, warn: print, error: print, debug: print };
  Math.random = host.random;

  // Every game's turn, made from the view as the host writes it (canonical JSON, docs/abi.md):
  // the fields a bot reads every turn are cut out of it at their fixed places, the rest parsed
  // only when asked for (parsing the whole view would cost more than a simple bot's move). A
  // losing move never comes back (the runner locates it at the caller's line and the host ends
  // the game).
  const act = (action) => host.act(JSON.stringify(action));
  const lazy = (raw) => {
    let parsed = null;
    return () => parsed || (parsed = JSON.parse(raw));
  };
  const cut = (raw, prefix, at, length, full, field) =>
    raw.startsWith(prefix) ? raw.substr(at, length) : full()[field];
  let sunk = 0;
  const turns = {
    battleships(raw) {
      const full = lazy(raw);
      let targets = null;
      let own = null;
      return {
        get targets() { return targets || (targets = cut(raw, '{"targets":"', 12, 100, full, 'targets')); },
        get own() { return own || (own = cut(raw, '{"targets":"', 121, 100, full, 'own')); },
        get enemyShipsLeft() { return full().enemy_ships_left; },
        get shots() { return full().shots; },
        attack(x, y) {
          const answer = act({ x, y });
          if (answer === '{"result":"miss"}') return false;
          if (answer === '{"result":"hit"}') return true;
          const parsed = JSON.parse(answer);
          if (parsed.result !== 'sunk') return parsed.result === 'hit';
          sunk += 1;
          const ship = parsed.ship;
          return { no: sunk, kind: ship.kind, size: ship.size, x: ship.x, y: ship.y, direction: ship.direction };
        },
      };
    },
    tictactoe(raw) {
      const full = lazy(raw);
      const board = cut(raw, '{"board":"', 10, 9, full, 'board');
      const grid = [0, 1, 2].map((y) =>
        [0, 1, 2].map((x) => { const c = board[y * 3 + x]; return c === '.' ? '' : c; }));
      return {
        grid,
        get you() { return full().you; },
        mark(x, y) { act({ x, y }); },
      };
    },
    klotski(raw) {
      const view = JSON.parse(raw);
      return {
        width: view.width,
        height: view.height,
        pieces: view.pieces,
        goal: view.goal,
        moves: view.moves,
        steps: view.steps,
        move(piece, dir) { return JSON.parse(act({ piece, dir })); },
      };
    },
  };

  let bot = null;
  globalThis.__botlens_start = function () {
    if (typeof globalThis.Bot !== 'function') {
      throw new TypeError('the bot does not define `function Bot() {…}` (the arena\'s format: `function Bot() {…}` and `Bot.prototype.play = function (turn) {…}`)');
    }
    bot = new globalThis.Bot();
    if (bot === null || typeof bot.play !== 'function') {
      throw new TypeError('`Bot.prototype.play` is not a function (the arena\'s format: `Bot.prototype.play = function (turn) {…}`)');
    }
  };
  globalThis.__botlens_play = function (game) {
    bot.play(turns[game](host.view()));
    return bot.play;
  };
})(globalThis.__botlens_host);
delete globalThis.__botlens_host;
