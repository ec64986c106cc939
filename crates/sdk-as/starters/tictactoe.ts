// {{name}}: a Tic-tac-toe bot for botlens, in AssemblyScript.
//
// It marks the first free square, row by row: legal, but easy to beat. Ideas: win when you
// can, block the opponent's line, take the centre, or search every continuation (minimax).
//
// `botlens run` builds this file with the AssemblyScript compiler (botlens installs it, and the
// `botlens` package comes with botlens) and plays it against the reference players; the seed
// decides who plays X (X moves first).
import { exportBot, mark, print, tictactoe } from "botlens";

// The entry points botlens calls; `exportBot` at the end says what they run.
export { botlens_new, botlens_play } from "botlens";

// Turns played in this game (every game is a fresh instance: globals start afresh).
let turns = 0;

// Called once at the start of every game: `seat` is 0 or 1.
function start(seat: i32): void {
  print("a new game; I sit in seat " + seat.toString());
}

// Called once per turn: look at the view, then make exactly one move. Making none, or a
// second one, loses the game, as does a failed `assert` or an index out of range; botlens
// reports the line.
function play(): void {
  // `view.you` is your side ("X" or "O"); `view.board` the 9 squares row by row ("X", "O" or
  // "."); `view.at(x, y)` the square on column x, row y (0-2).
  const view = tictactoe();
  turns++;
  for (let y = 0; y < 3; y++) {
    for (let x = 0; x < 3; x++) {
      if (view.at(x, y) == ".") {
        // The move: it returns only if it was legal (a taken square loses here).
        const after = mark(x, y);
        // Log lines are kept with the turn: `botlens replay` shows them.
        print("turn " + turns.toString() + ": " + view.you + " marked " + x.toString() + "," + y.toString() + "; the board is now " + after);
        return;
      }
    }
  }
}

exportBot(play, start);
