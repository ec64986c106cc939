// botlens/index.ts: the botlens SDK for bots written in AssemblyScript.
//
// A bot imports it as the package `botlens`, re-exports its entry points and says which of its
// functions play:
//
//     import { exportBot, tictactoe, mark } from "botlens";
//     export { botlens_new, botlens_play } from "botlens";
//
//     function play(): void {
//       const view = tictactoe();
//       const free = view.board.indexOf(".");
//       mark(free % 3, free / 3);
//     }
//
//     exportBot(play);
//
// `botlens run <dir>` builds the folder's `bot.ts` with the AssemblyScript compiler (`asc`,
// which botlens installs with npm into its cache directory), this directory on the package
// path, `--use abort=~lib/botlens/index/abort` (so a failed `assert`, an index out of range or
// a `throw` reach `botlens.panic` instead of importing `env.abort`), `--exportStart
// _initialize` (the bot's top-level code, `exportBot` included, runs in the ABI's
// `_initialize`), `--debug --sourceMap`; then it appends the custom sections of docs/abi.md:
// the ABI version, the compact encoding and the source map (`botlens_source_map`), through
// which failures are located at the bot's line. AssemblyScript names this file
// `~lib/botlens/index.ts`, so its frames are skipped as its standard library's are.
// docs/assemblyscript.md is the manual.

@external("botlens", "view")
declare function hostView(out: usize, cap: i32): i32;
@external("botlens", "act")
declare function hostAct(msg: usize, len: i32, out: usize, cap: i32): i32;
@external("botlens", "log")
declare function hostLog(text: usize, len: i32): void;
@external("botlens", "panic")
declare function hostPanic(msg: usize, msgLen: i32, file: usize, fileLen: i32, line: i32, column: i32): void;
@external("botlens", "draw")
declare function hostDraw(kind: i32, x: i32, y: i32, toX: i32, toY: i32, colour: u32, data: usize, len: i32): void;
@external("wasi_snapshot_preview1", "random_get")
declare function randomGet(buf: usize, len: i32): i32;

/** Room for any view or answer of the games below (a Klotski view of 64 pieces). */
const BUFFER_SIZE: i32 = 8192;
/** The view or answer last read. */
const BUFFER: usize = memory.data(BUFFER_SIZE);
/** A move: x and y, `i32` each. */
const MOVE: usize = memory.data(8);

/** What `exportBot` was given. */
let playTurn: () => void = (): void => {};
let newGame: (seat: i32) => void = (seat: i32): void => {};

/**
 * Makes `play` the bot's turn (called once per turn: exactly one move) and `start`, if given, its
 * start of a game (called once per game with its seat, 0 or 1, before its first turn). Call it
 * at the top level of the bot's file.
 */
export function exportBot(play: () => void, start: ((seat: i32) => void) | null = null): void {
  playTurn = play;
  if (start !== null) newGame = start;
}

/** The ABI's `botlens_new`: re-export it from the bot's file. */
export function botlens_new(seat: i32): void {
  newGame(seat);
}

/** The ABI's `botlens_play`: re-export it from the bot's file. */
export function botlens_play(): void {
  playTurn();
}

/** Adds a line to this turn's log (`botlens replay` shows it). */
export function print(line: string): void {
  const bytes = String.UTF8.encode(line);
  hostLog(changetype<usize>(bytes), bytes.byteLength);
}

/** Loses the game with `panic` and `message`, located at the caller's line. */
export function fail(message: string): void {
  abort(message, null, 0, 0);
}

/** A random number drawn from the game's seed (a replay draws the same ones). */
export function random(): u32 {
  randomGet(MOVE, 4);
  return load<u32>(MOVE);
}

/**
 * What `assert`, an index out of range and `throw` call (through `--use abort=…`): loses the
 * game with `panic`, AssemblyScript's message, file and line. botlens locates the failure at
 * the bot's frame from the source map; the file and line given here serve a build without one.
 */
export function abort(message: string | null, fileName: string | null, line: u32, column: u32): void {
  const text = String.UTF8.encode(message !== null ? message : "abort");
  const file = String.UTF8.encode(fileName !== null ? fileName : "");
  hostPanic(changetype<usize>(text), text.byteLength, changetype<usize>(file), file.byteLength, line, column);
  unreachable();
}

/** What `Math.random` is seeded with (through `--use seed=…`): drawn from the game's seed. */
export function seed(): f64 {
  return <f64>random();
}

/**
 * Drawing on the board (docs/assemblyscript.md, "Drawing on the board"): marks that show what the
 * bot was thinking, drawn over its board by the replayers and the editor's hover. Each mark keeps
 * the bot's line that drew it (this package's frames are skipped). Drawing never changes a game:
 * a call costs the same fuel whether botlens keeps the mark or not, and a mark past a turn's
 * bounds (256 marks, 16 KiB of text and values) is dropped and counted, never a failure.
 * Coordinates are the game's: `x` the column, `y` the row, from 0 (a Battleships bot draws on the
 * board it fires at). Colours are `0xRRGGBB` numbers: `draw.RED`, `draw.rgb(255, 136, 0)`, or an
 * intensity on the heat maps' palette, `draw.intensity(0.8)`.
 *
 *     draw.heat(10, density);
 *     draw.cell(5, 4, draw.RED);
 *     draw.label(5, 4, "7", draw.WHITE);
 *     draw.arrow(5, 4, 5, 5, draw.intensity(0.8));
 *     draw.status("hunting through (5, 4)");
 */
/** The kinds of mark, as `botlens.draw` numbers them (docs/abi.md). */
const enum MarkKind {
  Cell,
  Heat,
  Arrow,
  Label,
  Status,
}

export namespace draw {
  /** Red. */
  export const RED: u32 = 0xe03c31;
  /** Green. */
  export const GREEN: u32 = 0x2ea043;
  /** Blue. */
  export const BLUE: u32 = 0x1f6feb;
  /** Yellow. */
  export const YELLOW: u32 = 0xf2c20f;
  /** White. */
  export const WHITE: u32 = 0xffffff;
  /** Black. */
  export const BLACK: u32 = 0x000000;

  /** The colour of red, green and blue parts (0-255 each). */
  export function rgb(red: u8, green: u8, blue: u8): u32 {
    return (<u32>red << 16) | (<u32>green << 8) | <u32>blue;
  }

  /** An intensity from 0.0 (cold) to 1.0 (hot), shaded on the heat maps' palette; values outside are clamped (NaN is 0). */
  export function intensity(level: f32): u32 {
    const clamped: f32 = isNaN(level) ? 0 : Mathf.min(Mathf.max(level, 0), 1);
    return 0x01000000 | <u32>Mathf.round(clamped * 255);
  }

  /** Fills the cell at column `x`, row `y` with `colour`. */
  export function cell(x: i32, y: i32, colour: u32): void {
    hostDraw(MarkKind.Cell, x, y, 0, 0, colour, 0, 0);
  }

  /**
   * A heat map: one value per cell of a board `width` columns wide (1-64), row by row from the
   * top left (a Battleships board: width 10, 100 values). The replayers shade each cell from the
   * lowest value to the highest; a value that is not a finite number leaves its cell unshaded.
   * At most 4,096 values: a larger map is dropped.
   */
  export function heat(width: i32, values: f32[]): void {
    hostDraw(MarkKind.Heat, width, 0, 0, 0, 0, values.dataStart, values.length << 2);
  }

  /** An arrow from the cell (`x`, `y`) to the cell (`toX`, `toY`). */
  export function arrow(x: i32, y: i32, toX: i32, toY: i32, colour: u32): void {
    hostDraw(MarkKind.Arrow, x, y, toX, toY, colour, 0, 0);
  }

  /** A short text on the cell at column `x`, row `y`: 32 bytes (UTF-8) are kept, longer text is cut. */
  export function label(x: i32, y: i32, text: string, colour: u32): void {
    const bytes = String.UTF8.encode(text);
    hostDraw(MarkKind.Label, x, y, 0, 0, colour, changetype<usize>(bytes), bytes.byteLength);
  }

  /** The turn's status line, shown under the board: 200 bytes (UTF-8) are kept, and the last one drawn in a turn is the one shown. */
  export function status(text: string): void {
    const bytes = String.UTF8.encode(text);
    hostDraw(MarkKind.Status, 0, 0, 0, 0, 0, changetype<usize>(bytes), bytes.byteLength);
  }
}

function readView(): i32 {
  const length = hostView(BUFFER, BUFFER_SIZE);
  assert(length <= BUFFER_SIZE, "botlens: the view is larger than its buffer");
  return length;
}

function byteAt(at: i32): u8 {
  return load<u8>(BUFFER + <usize>at);
}

function u32At(at: i32): u32 {
  return load<u32>(BUFFER + <usize>at);
}

function text(at: i32, length: i32): string {
  return String.UTF8.decodeUnsafe(BUFFER + <usize>at, <usize>length);
}

/**
 * The board square `code` as a one-character string: the boards' own characters are literals
 * made once, so reading a square allocates nothing (a bot reads hundreds a turn).
 */
function square(code: i32): string {
  switch (code) {
    case 0x2e: return ".";
    case 0x6f: return "o";
    case 0x78: return "x";
    case 0x23: return "#";
    case 0x53: return "S";
    case 0x58: return "X";
    case 0x4f: return "O";
    default: return String.fromCharCode(code);
  }
}

function act(x: i32, y: i32): i32 {
  store<i32>(MOVE, x);
  store<i32>(MOVE, y, 4);
  return hostAct(MOVE, 8, BUFFER, BUFFER_SIZE);
}

/** What a Tic-tac-toe bot sees on its turn. */
export class TicTacToeView {
  /** The board row by row (index y * 3 + x): "X", "O" or "." (free). */
  board: string = "";
  /** Your side: "X" (who moves first) or "O". */
  you: string = "X";

  /** The square on column `x`, row `y` (0-2); off the board fails an `assert`. */
  at(x: i32, y: i32): string {
    assert(x >= 0 && x < 3 && y >= 0 && y < 3, "the square is off the 3x3 board");
    return square(this.board.charCodeAt(y * 3 + x));
  }
}

/** The Tic-tac-toe view of this turn. */
export function tictactoe(): TicTacToeView {
  const length = readView();
  assert(length == 14, "botlens: this is not a Tic-tac-toe view (does botlens.toml say the game?)");
  const view = new TicTacToeView();
  view.board = text(4, 9);
  view.you = byteAt(13) == 0 ? "X" : "O";
  return view;
}

/**
 * Marks column `x`, row `y` (0-2) and returns the board after it. A taken square or one off the
 * board is an illegal move: the game is lost at this call.
 */
export function mark(x: i32, y: i32): string {
  const length = act(x, y);
  return length == 13 ? text(4, 9) : ".........";
}

/** Ship kinds, as `enemyShipsLeft` lists them. */
export enum ShipKind {
  Carrier,
  Warship,
  Submarine,
  Cruiser,
  Patrol,
}

/** What a Battleships bot sees on its turn. */
export class BattleshipsView {
  /** The opponent's board as you know it, row by row (index y * 10 + x): "." unknown, "o" miss, "x" hit, "#" sunk. */
  targets: string = "";
  /** Your own board: "." water, "S" ship, "X" ship hit, "o" water shot at. */
  own: string = "";
  /** The opponent's ships still afloat. */
  enemyShipsLeft: ShipKind[] = [];
  /** Shots you have fired. */
  shots: u32 = 0;

  /** The square on column `x`, row `y` (0-9) of `targets`; off the board fails an `assert`. */
  target(x: i32, y: i32): string {
    assert(x >= 0 && x < 10 && y >= 0 && y < 10, "the square is off the 10x10 board");
    return square(this.targets.charCodeAt(y * 10 + x));
  }
}

/** The Battleships view of this turn. */
export function battleships(): BattleshipsView {
  const length = readView();
  assert(length >= 212 && u32At(0) == 100, "botlens: this is not a Battleships view (does botlens.toml say the game?)");
  const view = new BattleshipsView();
  view.targets = text(4, 100);
  view.own = text(108, 100);
  const left = <i32>u32At(208);
  for (let i = 0; i < left; i++) view.enemyShipsLeft.push(<ShipKind>byteAt(212 + i));
  view.shots = u32At(212 + left);
  return view;
}

/** A ship, as a sinking reveals it. */
export class Ship {
  kind: ShipKind = ShipKind.Patrol;
  size: u8 = 0;
  x: u8 = 0;
  y: u8 = 0;
  vertical: bool = false;
}

/** What an attack did. */
export enum ShotResult {
  Miss,
  Hit,
  Sunk,
  AlreadyAttacked,
}

/** An attack's answer: what it did and, for `Sunk`, the ship. */
export class Shot {
  result: ShotResult = ShotResult.Miss;
  ship: Ship | null = null;
}

/**
 * Fires at column `x`, row `y` (0-9). A hit or a sink gives you another turn; a miss or a square
 * attacked before passes it. Off the board is an illegal move, lost at this call.
 */
export function attack(x: i32, y: i32): Shot {
  const length = act(x, y);
  const shot = new Shot();
  if (length == 0) return shot;
  const tag = byteAt(0);
  if (tag == 1) shot.result = ShotResult.Hit;
  else if (tag == 3) shot.result = ShotResult.AlreadyAttacked;
  else if (tag == 2) {
    shot.result = ShotResult.Sunk;
    const ship = new Ship();
    ship.kind = <ShipKind>byteAt(1);
    ship.size = byteAt(2);
    ship.x = byteAt(3);
    ship.y = byteAt(4);
    ship.vertical = byteAt(5) == 1;
    shot.ship = ship;
  }
  return shot;
}

/** Directions to slide in: towards row 0, the last row, column 0, the last column. */
export enum Dir {
  Up,
  Down,
  Left,
  Right,
}

/** All four directions. */
export const DIRS: Dir[] = [Dir.Up, Dir.Down, Dir.Left, Dir.Right];

/** The name of a direction: "up", "down", "left" or "right". */
export function dirName(dir: Dir): string {
  return dir == Dir.Up ? "up" : dir == Dir.Down ? "down" : dir == Dir.Left ? "left" : "right";
}

/** The direction that undoes a slide towards `dir`. */
export function opposite(dir: Dir): Dir {
  return <Dir>(<i32>dir ^ 1);
}

/** A piece on the board: `code` is what `move` takes ("cc", "zf", "1", …), `name` its display name; `x`, `y` its top-left cell. */
export class Piece {
  code: string = "";
  name: string = "";
  x: i32 = 0;
  y: i32 = 0;
  width: i32 = 0;
  height: i32 = 0;
}

/** Where the goal piece (`piece`, a code) must get its top-left cell to. */
export class Goal {
  piece: string = "";
  x: i32 = 0;
  y: i32 = 0;
}

/** What a Klotski bot sees on its turn: the whole board. */
export class KlotskiView {
  /** The board's size in cells (4 by 5 for the bundled boards). */
  width: i32 = 0;
  height: i32 = 0;
  /** The pieces and where they are. */
  pieces: Piece[] = [];
  goal: Goal = new Goal();
  /** One-cell slides made so far, and steps (consecutive slides of one piece are one step). */
  moves: u32 = 0;
  steps: u32 = 0;

  /** Whether `pieces[index]` can slide one cell towards `dir`: the cells it moves into are on the board and no other piece covers them. */
  canSlide(index: i32, dir: Dir): bool {
    const piece = this.pieces[index];
    const x = piece.x + (dir == Dir.Left ? -1 : dir == Dir.Right ? 1 : 0);
    const y = piece.y + (dir == Dir.Up ? -1 : dir == Dir.Down ? 1 : 0);
    if (x < 0 || y < 0 || x + piece.width > this.width || y + piece.height > this.height) return false;
    for (let i = 0; i < this.pieces.length; i++) {
      const other = this.pieces[i];
      if (i != index && x < other.x + other.width && other.x < x + piece.width && y < other.y + other.height && other.y < y + piece.height) {
        return false;
      }
    }
    return true;
  }
}

/** A cursor over the compact view in the buffer; reading past its end is not a Klotski view. */
class Reader {
  at: i32 = 0;
  constructor(public length: i32) {}

  take(n: i32): i32 {
    assert(n >= 0 && n <= this.length - this.at, "botlens: this is not a Klotski view (does botlens.toml say the game?)");
    const at = this.at;
    this.at += n;
    return at;
  }

  int(): i32 {
    return <i32>u32At(this.take(4));
  }

  text(): string {
    const length = this.int();
    return text(this.take(length), length);
  }
}

/** The Klotski view of this turn. */
export function klotski(): KlotskiView {
  const reader = new Reader(readView());
  const view = new KlotskiView();
  view.width = reader.int();
  view.height = reader.int();
  const count = reader.int();
  for (let i = 0; i < count; i++) {
    const piece = new Piece();
    piece.code = reader.text();
    piece.name = reader.text();
    piece.x = reader.int();
    piece.y = reader.int();
    piece.width = reader.int();
    piece.height = reader.int();
    view.pieces.push(piece);
  }
  view.goal.piece = reader.text();
  view.goal.x = reader.int();
  view.goal.y = reader.int();
  view.moves = <u32>reader.int();
  view.steps = <u32>reader.int();
  assert(reader.at == reader.length, "botlens: this is not a Klotski view (does botlens.toml say the game?)");
  return view;
}

/** The answer to a slide: moves and steps so far, and whether the puzzle is now solved. */
export class Slid {
  moves: u32 = 0;
  steps: u32 = 0;
  solved: bool = false;
}

/**
 * Slides the piece with code `code` one cell towards `dir` and returns the count after it. No
 * such piece, or a blocked slide, is an illegal move: the game is lost at this call.
 */
export function move(code: string, dir: Dir): Slid {
  const bytes = String.UTF8.encode(code);
  const length = bytes.byteLength;
  const message = new ArrayBuffer(length + 5);
  const at = changetype<usize>(message);
  store<i32>(at, length);
  memory.copy(at + 4, changetype<usize>(bytes), <usize>length);
  store<u8>(at + 4 + <usize>length, <u8>dir);
  const answer = hostAct(at, length + 5, BUFFER, BUFFER_SIZE);
  const slid = new Slid();
  if (answer == 9) {
    slid.moves = u32At(0);
    slid.steps = u32At(4);
    slid.solved = byteAt(8) == 1;
  }
  return slid;
}
