// {{name}}: a Battleships bot for botlens, in JavaScript (the old arena's format).
//
// It fires at every other square (a checkerboard: every ship covers one of them), and after a
// hit at the unknown squares next to it. Ideas: follow a line of hits, count where each ship
// left could still lie (probability density), remember that ships never touch.
//
// `botlens run` plays it in botlens's JavaScript runner against the reference players. A hit
// or a sink gives you another turn.

function Bot() {}

// Whether (x, y) is on the board and not fired at yet.
function unknown(turn, x, y) {
  return x >= 0 && x < 10 && y >= 0 && y < 10 && turn.targets[y * 10 + x] === '.';
}

// Called once per turn: look at the turn, then make exactly one move. Making none, or a second
// one, loses the game, as does an exception; botlens reports the line.
Bot.prototype.play = function (turn) {
  // `turn.targets`: the opponent's board as you know it, 100 squares row by row: '.' unknown,
  // 'o' miss, 'x' hit, '#' sunk.
  var steps = [[1, 0], [-1, 0], [0, 1], [0, -1]];
  for (var i = 0; i < 100; i++) {
    if (turn.targets[i] !== 'x') continue;
    for (var d = 0; d < 4; d++) {
      var nx = (i % 10) + steps[d][0];
      var ny = Math.floor(i / 10) + steps[d][1];
      if (unknown(turn, nx, ny)) {
        turn.attack(nx, ny);
        return;
      }
    }
  }
  for (var pass = 0; pass < 2; pass++) {
    for (var j = 0; j < 100; j++) {
      var x = j % 10;
      var y = Math.floor(j / 10);
      if ((pass === 1 || (x + y) % 2 === 0) && unknown(turn, x, y)) {
        // The move: off the board is an illegal move and loses the game here.
        var shot = turn.attack(x, y);
        if (shot && shot.kind) console.log('sank the ' + shot.kind);
        return;
      }
    }
  }
};
