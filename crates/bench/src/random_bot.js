// A Battlescripts-style random Battleships bot, in the old arena's format: it fires at a random
// square it has not fired at before (it keeps the squares it has not tried), nothing clever.

function Bot() {
  this.untried = [];
  for (var i = 0; i < 100; i++) this.untried.push(i);
}

Bot.prototype.play = function (turn) {
  var pick = Math.floor(Math.random() * this.untried.length);
  var square = this.untried[pick];
  this.untried[pick] = this.untried[this.untried.length - 1];
  this.untried.pop();
  turn.attack(square % 10, Math.floor(square / 10));
};
