// A hunt-and-target Battleships bot in the arena's format that keeps its own map of the
// enemy's grid, with one planted bug: see README.md.

function Bot() {
  this.map = [];
  for (var y = 0; y < 10; y++) {
    this.map.push(['', '', '', '', '', '', '', '', '', '']);
  }
  this.queue = [];
}

Bot.prototype.unknown = function (x, y) {
  return x >= 0 && x < 10 && y >= 0 && y < 10 && this.map[y][x] === '';
};

// Queues the unknown neighbours of a hit, looking at the cell above first.
Bot.prototype.aroundHit = function (x, y) {
  // botlens reports the panic on the next line
  var above = this.map[y - 1][x];
  if (above === '') this.queue.push({ x: x, y: y - 1 });
  if (this.unknown(x, y + 1)) this.queue.push({ x: x, y: y + 1 });
  if (this.unknown(x - 1, y)) this.queue.push({ x: x - 1, y: y });
  if (this.unknown(x + 1, y)) this.queue.push({ x: x + 1, y: y });
};

Bot.prototype.next = function () {
  while (this.queue.length > 0) {
    var cell = this.queue.pop();
    if (this.unknown(cell.x, cell.y)) return cell;
  }
  for (;;) {
    var x = Math.floor(Math.random() * 10);
    var y = Math.floor(Math.random() * 10);
    if (this.unknown(x, y)) return { x: x, y: y };
  }
};

Bot.prototype.play = function (turn) {
  var cell = this.next();
  var result = turn.attack(cell.x, cell.y);
  this.map[cell.y][cell.x] = result ? 'x' : 'o';
  if (result === true) this.aroundHit(cell.x, cell.y);
  if (typeof result === 'object') this.queue = [];
};
