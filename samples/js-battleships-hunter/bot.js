// A hunt-and-target Battleships bot in the arena's format: it fires on a checkerboard until it
// hits, then finishes the ship along the line of its hits.

function Bot() {
  this.queue = [];
  this.hits = [];
}

Bot.prototype.free = function (turn, x, y) {
  return x >= 0 && x < 10 && y >= 0 && y < 10 && turn.targets[y * 10 + x] === '.';
};

// The cells next to the current hits, along their line once there are two.
Bot.prototype.around = function (turn) {
  var cells = [];
  var hits = this.hits;
  var horizontal = hits.length > 1 && hits[0].y === hits[1].y;
  var vertical = hits.length > 1 && hits[0].x === hits[1].x;
  for (var i = 0; i < hits.length; i++) {
    var h = hits[i];
    if (!vertical) cells.push({ x: h.x - 1, y: h.y }, { x: h.x + 1, y: h.y });
    if (!horizontal) cells.push({ x: h.x, y: h.y - 1 }, { x: h.x, y: h.y + 1 });
  }
  var self = this;
  return cells.filter(function (c) { return self.free(turn, c.x, c.y); });
};

Bot.prototype.hunt = function (turn) {
  var cells = [];
  for (var y = 0; y < 10; y++) {
    for (var x = (y % 2); x < 10; x += 2) {
      if (this.free(turn, x, y)) cells.push({ x: x, y: y });
    }
  }
  if (cells.length === 0) {
    for (var i = 0; i < 100; i++) {
      if (turn.targets[i] === '.') cells.push({ x: i % 10, y: Math.floor(i / 10) });
    }
  }
  return cells[Math.floor(Math.random() * cells.length)];
};

Bot.prototype.play = function (turn) {
  var near = this.hits.length > 0 ? this.around(turn) : [];
  var cell = near.length > 0 ? near[0] : this.hunt(turn);
  var result = turn.attack(cell.x, cell.y);
  if (result === true) {
    this.hits.push(cell);
  } else if (result) {
    console.log('sank ship ' + result.no + ', a ' + result.kind + ' of ' + result.size);
    this.hits = [];
  }
};
