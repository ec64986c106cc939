// {{name}}: a Battleships bot for botlens, in AssemblyScript.
//
// It fires at every other square (a checkerboard: every ship covers one of them), and after a
// hit at the unknown squares next to it. Ideas: follow a line of hits, count where each ship
// left could still lie (probability density), remember that ships never touch.
//
// `botlens run` builds this file with the AssemblyScript compiler (botlens installs it, and the
// `botlens` package comes with botlens) and plays it against the reference players. A hit or a
// sink gives you another turn.
import { ShotResult, attack, battleships, exportBot, print } from "botlens";

// The entry points botlens calls; `exportBot` at the end says what they run.
export { botlens_new, botlens_play } from "botlens";

const DX: i32[] = [1, -1, 0, 0];
const DY: i32[] = [0, 0, 1, -1];

// Called once per turn: look at the view, then make exactly one move. Making none, or a
// second one, loses the game, as does a failed `assert` or an index out of range; botlens
// reports the line.
function play(): void {
  // `view.targets`: the opponent's board as you know it, 100 squares row by row: "." unknown,
  // "o" miss, "x" hit, "#" sunk; `view.target(x, y)` reads column x, row y.
  const view = battleships();
  let fireX = -1;
  let fireY = -1;
  // Next to a hit that is not sunk yet.
  for (let i = 0; i < 100 && fireX < 0; i++) {
    const x = i % 10;
    const y = i / 10;
    if (view.target(x, y) != "x") continue;
    for (let d = 0; d < 4; d++) {
      const nx = x + DX[d];
      const ny = y + DY[d];
      if (nx >= 0 && nx < 10 && ny >= 0 && ny < 10 && view.target(nx, ny) == ".") {
        fireX = nx;
        fireY = ny;
        break;
      }
    }
  }
  // Else the checkerboard, then any unknown square.
  for (let pass = 0; pass < 2 && fireX < 0; pass++) {
    for (let i = 0; i < 100; i++) {
      const x = i % 10;
      const y = i / 10;
      if ((pass == 1 || (x + y) % 2 == 0) && view.target(x, y) == ".") {
        fireX = x;
        fireY = y;
        break;
      }
    }
  }
  // The move: it returns only if it was legal (off the board loses here).
  const shot = attack(fireX, fireY);
  const ship = shot.ship;
  if (shot.result == ShotResult.Sunk && ship !== null) {
    print("sank a ship of " + ship.size.toString() + " at " + ship.x.toString() + "," + ship.y.toString());
  }
}

exportBot(play);
