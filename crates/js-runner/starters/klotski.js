// {{name}}: a Klotski (Huarong Dao) bot for botlens, in JavaScript (the old arena's format).
//
// It makes a random legal slide every turn, never straight back where its last slide came from
// (unless nothing else can move), which almost never solves the puzzle within the turn cap.
// Ideas: search the board breadth first on your first turn and play the solution; count
// *steps* (consecutive slides of one piece are one step) to match the board's par.
//
// `botlens run` plays it in botlens's JavaScript runner on the bundled boards (or `generated`,
// a new board per seed), comparing its steps with the optimal number.

var DIRS = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] };
var BACK = { up: 'down', down: 'up', left: 'right', right: 'left' };

// Made afresh for every game: fields hold what the bot learns in one game.
function Bot() {
  this.last = null;
}

// Whether `piece` can slide one cell towards `dir`: the cells it moves into are on the board
// and no other piece covers them.
function canSlide(turn, piece, dir) {
  var x = piece.x + DIRS[dir][0];
  var y = piece.y + DIRS[dir][1];
  if (x < 0 || y < 0 || x + piece.width > turn.width || y + piece.height > turn.height) {
    return false;
  }
  return turn.pieces.every(function (other) {
    return other.code === piece.code ||
      x >= other.x + other.width || other.x >= x + piece.width ||
      y >= other.y + other.height || other.y >= y + piece.height;
  });
}

// Called once per turn: look at the turn, then make exactly one move. Making none, or a second
// one, loses the game, as does an exception; botlens reports the line.
Bot.prototype.play = function (turn) {
  // The turn is the whole board: `turn.pieces` ({code, name, x, y, width, height}: the top-left
  // cell and size of each), `turn.width` by `turn.height` cells, and `turn.goal`
  // ({piece, x, y}: the piece that must reach that cell with its top-left corner).
  var slides = [];
  var back = null;
  turn.pieces.forEach(function (piece) {
    Object.keys(DIRS).forEach(function (dir) {
      if (!canSlide(turn, piece, dir)) return;
      var slide = { piece: piece.code, dir: dir };
      if (this.last && this.last.piece === piece.code && BACK[this.last.dir] === dir) {
        back = slide;
      } else {
        slides.push(slide);
      }
    }, this);
  }, this);
  if (slides.length === 0 && back) slides.push(back); // only the slide back is left
  // `Math.random()` comes from the game's seed: a replay makes the same choices.
  var slide = slides[Math.floor(Math.random() * slides.length)];
  this.last = slide;
  // The move: a blocked slide is an illegal move and loses the game here.
  var slid = turn.move(slide.piece, slide.dir);
  // console.log lines are kept with the turn: `botlens replay` shows them.
  console.log('slid ' + slide.piece + ' ' + slide.dir + ': ' + slid.steps + ' steps so far');
};
