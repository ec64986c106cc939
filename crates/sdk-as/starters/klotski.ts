// {{name}}: a Klotski (Huarong Dao) bot for botlens, in AssemblyScript.
//
// It makes a random legal slide every turn, never straight back where its last slide came from
// (unless nothing else can move), which almost never solves the puzzle within the turn cap.
// Ideas: search the board breadth first on your first turn and play the solution; count
// *steps* (consecutive slides of one piece are one step) to match the board's par.
//
// `botlens run` builds this file with the AssemblyScript compiler (botlens installs it, and the
// `botlens` package comes with botlens) and plays it on the bundled boards (or `generated`, a
// new board per seed), comparing its steps with the optimal number.
import { DIRS, Dir, dirName, exportBot, klotski, move, opposite, print, random } from "botlens";

// The entry points botlens calls; `exportBot` at the end says what they run.
export { botlens_new, botlens_play } from "botlens";

// The last slide: the piece's index in `view.pieces` (-1 before the first) and the direction
// (every game is a fresh instance: globals start afresh).
let lastPiece = -1;
let lastDir = Dir.Up;

// Called once per turn: look at the view, then make exactly one move. Making none, or a
// second one, loses the game, as does a failed `assert` or an index out of range; botlens
// reports the line.
function play(): void {
  // The view is the whole board: `view.pieces` (code, name, top-left x and y, width and height
  // of each), `view.width` by `view.height` cells, and `view.goal`: the piece that must reach
  // the cell `goal.x`, `goal.y` with its top-left corner.
  const view = klotski();
  const pieces: i32[] = [];
  const dirs: Dir[] = [];
  let back = -1;
  for (let i = 0; i < view.pieces.length; i++) {
    for (let d = 0; d < DIRS.length; d++) {
      if (!view.canSlide(i, DIRS[d])) continue;
      if (i == lastPiece && DIRS[d] == opposite(lastDir)) {
        back = i;
        continue;
      }
      pieces.push(i);
      dirs.push(DIRS[d]);
    }
  }
  if (pieces.length == 0) {
    // Only the slide back is left (a board with a free cell has a slide).
    assert(back >= 0, "no piece can slide");
    pieces.push(back);
    dirs.push(opposite(lastDir));
  }
  // `random()` draws from the game's seed: a replay makes the same choices.
  const pick = <i32>(random() % <u32>pieces.length);
  lastPiece = pieces[pick];
  lastDir = dirs[pick];
  const code = view.pieces[lastPiece].code;
  // The move: it returns only if it was legal (a blocked slide loses the game here).
  const slid = move(code, lastDir);
  // Log lines are kept with the turn: `botlens replay` shows them next to the board.
  print("slid " + code + " " + dirName(lastDir) + ": " + slid.steps.toString() + " steps so far");
}

exportBot(play);
