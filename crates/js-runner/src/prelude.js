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

  // Every game's turn: the view parsed, the move made through `act`; a losing move never comes
  // back (the runner locates it at the caller's line and the host ends the game).
  const act = (action) => JSON.parse(host.act(JSON.stringify(action)));
  let sunk = 0;
  const turns = {
    battleships(view) {
      return {
        targets: view.targets,
        own: view.own,
        enemyShipsLeft: view.enemy_ships_left,
        shots: view.shots,
        attack(x, y) {
          const answer = act({ x, y });
          switch (answer.result) {
            case 'hit': return true;
            case 'sunk': {
              sunk += 1;
              const ship = answer.ship;
              return { no: sunk, kind: ship.kind, size: ship.size, x: ship.x, y: ship.y, direction: ship.direction };
            }
            default: return false;
          }
        },
      };
    },
    tictactoe(view) {
      const grid = [0, 1, 2].map((y) =>
        [0, 1, 2].map((x) => { const c = view.board[y * 3 + x]; return c === '.' ? '' : c; }));
      return {
        grid,
        you: view.you,
        mark(x, y) { act({ x, y }); },
      };
    },
    klotski(view) {
      return {
        width: view.width,
        height: view.height,
        pieces: view.pieces,
        goal: view.goal,
        moves: view.moves,
        steps: view.steps,
        move(piece, dir) { return act({ piece, dir }); },
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
    bot.play(turns[game](JSON.parse(host.view())));
  };
})(globalThis.__botlens_host);
delete globalThis.__botlens_host;
