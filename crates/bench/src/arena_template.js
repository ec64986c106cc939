// The old arena's new-bot template, as most arena authors started from it, with its one slip
// fixed: its constructor wrote to a global `grid` where it meant `this.grid`. Each turn it lists
// the squares not tried yet, looking each of the 100 up by an `x + ',' + y` key, and fires at one
// picked with `Math.random`.

function Bot() {
  this.grid = {};
  for (var y = 0; y < 10; ++y) {
    for (var x = 0; x < 10; ++x) {
      this.grid[x + ',' + y] = false;
    }
  }
}

Bot.prototype.play = function (turn) {
  var sqs = [];
  for (var y = 0; y < 10; ++y) {
    for (var x = 0; x < 10; ++x) {
      if (!this.grid[x + ',' + y]) {
        sqs.push([x, y]);
      }
    }
  }
  var sq = sqs[Math.floor(Math.random() * sqs.length)];
  turn.attack(sq[0], sq[1]);
  this.grid[sq[0] + ',' + sq[1]] = true;
};
