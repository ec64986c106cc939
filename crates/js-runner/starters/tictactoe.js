// {{name}}: a Tic-tac-toe bot for botlens, in JavaScript (the old arena's format).
//
// It marks the first free square, row by row: legal, but easy to beat. Ideas: win when you
// can, block the opponent's line, take the centre, or search every continuation (minimax).
//
// `botlens run` plays it in botlens's JavaScript runner against the reference players; the
// seed decides who plays X (X moves first).

// Made afresh for every game: fields hold what the bot learns in one game.
function Bot() {
  this.turns = 0;
}

// Called once per turn: look at the turn, then make exactly one move. Making none, or a second
// one, loses the game, as does an exception; botlens reports the line.
Bot.prototype.play = function (turn) {
  this.turns++;
  // `turn.grid[y][x]` is '', 'X' or 'O'; `turn.you` is your mark.
  for (var y = 0; y < 3; y++) {
    for (var x = 0; x < 3; x++) {
      if (turn.grid[y][x] === '') {
        // console.log lines are kept with the turn: `botlens replay` shows them.
        console.log('turn ' + this.turns + ': ' + turn.you + ' marks ' + x + ',' + y);
        // The move: a taken square is an illegal move and loses the game here.
        turn.mark(x, y);
        return;
      }
    }
  }
};
