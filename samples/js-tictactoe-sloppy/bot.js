// A rule-based Tic-tac-toe bot in the arena's format, with one planted bug: see README.md.

var LINES = [
  [[0, 0], [1, 0], [2, 0]], [[0, 1], [1, 1], [2, 1]], [[0, 2], [1, 2], [2, 2]],
  [[0, 0], [0, 1], [0, 2]], [[1, 0], [1, 1], [1, 2]], [[2, 0], [2, 1], [2, 2]],
  [[0, 0], [1, 1], [2, 2]], [[2, 0], [1, 1], [0, 2]],
];
var CORNERS = [[0, 0], [2, 0], [0, 2], [2, 2]];
var EDGES = [[1, 0], [0, 1], [2, 1], [1, 2]];

function Bot() {
  this.turns = 0;
}

// The free square that completes a line of two `mark`s, if there is one.
Bot.prototype.completing = function (grid, mark) {
  for (var i = 0; i < LINES.length; i++) {
    var line = LINES[i];
    var mine = 0;
    var free = null;
    for (var j = 0; j < 3; j++) {
      var x = line[j][0];
      var y = line[j][1];
      if (grid[y][x] === mark) mine++;
      else if (grid[y][x] === '') free = line[j];
    }
    if (mine === 2 && free) return free;
  }
  return null;
};

Bot.prototype.play = function (turn) {
  this.turns++;
  var grid = turn.grid;
  var other = turn.you === 'X' ? 'O' : 'X';
  var square = this.completing(grid, turn.you) || this.completing(grid, other);
  if (!square && grid[1][1] === '') square = [1, 1];
  if (!square) {
    // A corner the opponent does not hold... but one of ours is not free either.
    for (var i = 0; i < CORNERS.length && !square; i++) {
      if (grid[CORNERS[i][1]][CORNERS[i][0]] !== other) square = CORNERS[i];
    }
  }
  for (var k = 0; k < EDGES.length && !square; k++) {
    if (grid[EDGES[k][1]][EDGES[k][0]] === '') square = EDGES[k];
  }
  console.log('turn ' + this.turns + ': ' + turn.you + ' at ' + square);
  // botlens reports the illegal_move on the next line
  turn.mark(square[0], square[1]);
};
