//! {{name}}: a Battleships bot for botlens, in Zig.
//!
//! It fires at every other square (a checkerboard: every ship covers one of them), and after a
//! hit at the unknown squares next to it. Ideas: follow a line of hits, count where each ship
//! left could still lie (probability density), remember that ships never touch.
//!
//! `botlens run` builds this file with zig (botlens.zig comes with botlens) and plays it against
//! the reference players. A hit or a sink gives you another turn.

const botlens = @import("botlens");

// Makes `play` below the module's entry point.
comptime {
    botlens.exportBot(@This());
}

/// The squares next to one: right, left, down, up.
const steps = [_][2]i32{ .{ 1, 0 }, .{ -1, 0 }, .{ 0, 1 }, .{ 0, -1 } };

/// Whether (x, y) is on the board and not fired at yet.
fn unknown(view: *const botlens.BattleshipsView, x: i32, y: i32) bool {
    if (x < 0 or x > 9 or y < 0 or y > 9) return false;
    return view.target(@intCast(x), @intCast(y)) == '.';
}

/// Where to fire: next to a hit that is not sunk yet, else the checkerboard, else any unknown
/// square.
fn aim(view: *const botlens.BattleshipsView) [2]i32 {
    for (0..100) |i| {
        if (view.targets[i] != 'x') continue;
        const x: i32 = @intCast(i % 10);
        const y: i32 = @intCast(i / 10);
        for (steps) |step| {
            if (unknown(view, x + step[0], y + step[1])) return .{ x + step[0], y + step[1] };
        }
    }
    for ([_]bool{ true, false }) |checkerboard| {
        for (0..100) |i| {
            const x: i32 = @intCast(i % 10);
            const y: i32 = @intCast(i / 10);
            if ((!checkerboard or @mod(x + y, 2) == 0) and unknown(view, x, y)) return .{ x, y };
        }
    }
    unreachable; // botlens asks for a shot only while a square is unknown
}

/// Called once per turn: look at the view, then make exactly one move. Making none, or a
/// second one, loses the game, as does a panic; botlens reports the line.
pub fn play() void {
    // `view.targets`: the opponent's board as you know it, 100 squares row by row: '.'
    // unknown, 'o' miss, 'x' hit, '#' sunk; `view.target(x, y)` reads column x, row y.
    const view = botlens.battleships();
    const square = aim(&view);
    // The move: it returns only if it was legal (off the board loses here).
    switch (botlens.attack(square[0], square[1])) {
        // Log lines are kept with the turn: `botlens replay` shows them.
        .sunk => |ship| botlens.print("sank a {s} of {d} at {d},{d}", .{ @tagName(ship.kind), ship.size, ship.x, ship.y }),
        else => {},
    }
}
