//! {{name}}: a Tic-tac-toe bot for botlens, in Zig.
//!
//! It marks the first free square, row by row: legal, but easy to beat. Ideas: win when you
//! can, block the opponent's line, take the centre, or search every continuation (minimax).
//!
//! `botlens run` builds this file with zig (botlens.zig comes with botlens) and plays it against
//! the reference players; the seed decides who plays X (X moves first).

const botlens = @import("botlens");

// Makes `new` and `play` below the module's entry points.
comptime {
    botlens.exportBot(@This());
}

/// Turns played in this game (every game is a fresh instance: globals start afresh).
var turns: u32 = 0;

/// Called once at the start of every game: `seat` is 0 or 1.
pub fn new(seat: i32) void {
    botlens.print("a new game; I sit in seat {d}", .{seat});
}

/// Called once per turn: look at the view, then make exactly one move. Making none, or a
/// second one, loses the game, as does an index out of bounds or `unreachable`; botlens reports
/// the line.
pub fn play() void {
    // `view.you` is your side ('X' or 'O'); `view.board` the 9 squares row by row ('X', 'O' or
    // '.'); `view.at(x, y)` the square on column x, row y (0-2).
    const view = botlens.tictactoe();
    turns += 1;
    for (view.board, 0..) |square, i| {
        if (square == '.') {
            // The move: it returns only if it was legal (a taken square loses here).
            const after = botlens.mark(@intCast(i % 3), @intCast(i / 3));
            // Log lines are kept with the turn: `botlens replay` shows them.
            botlens.print("turn {d}: {c} marked {d}; the board is now {s}", .{ turns, view.you, i, &after });
            return;
        }
    }
    unreachable; // botlens asks for a move only while a square is free
}
