//! botlens.zig: the botlens SDK for bots written in Zig.
//!
//! A bot imports it as the module `botlens`, exports its entry points with `exportBot` and
//! defines `play` (and, if it wants, `new`):
//!
//!     const botlens = @import("botlens");
//!
//!     comptime {
//!         botlens.exportBot(@This());
//!     }
//!
//!     pub fn play() void {
//!         const view = botlens.tictactoe();
//!         for (view.board, 0..) |square, i| {
//!             if (square == '.') {
//!                 _ = botlens.mark(@intCast(i % 3), @intCast(i / 3));
//!                 return;
//!             }
//!         }
//!     }
//!
//! `botlens run <dir>` builds the folder's `bot.zig` with
//! `zig build-exe -target wasm32-freestanding -O ReleaseSafe -fno-strip -fno-entry -rdynamic`
//! and this file as the module `botlens`, then appends the custom sections of docs/abi.md (Zig
//! has no syntax for them): the ABI version, the compact encoding, and this file's and Zig's
//! `lib/std/` paths in `botlens_sdk`, so failures skip their frames and point at the bot's line
//! (an index out of bounds, `unreachable`, an overflow: ReleaseSafe checks them all). docs/zig.md
//! is the manual.

const std = @import("std");

extern "botlens" fn view(out: [*]u8, cap: i32) i32;
extern "botlens" fn act(msg: [*]const u8, len: i32, out: [*]u8, cap: i32) i32;
extern "botlens" fn log(text: [*]const u8, len: i32) void;
extern "botlens" fn panic(msg: [*]const u8, msg_len: i32, file: [*]const u8, file_len: i32, line: i32, column: i32) noreturn;
extern "wasi_snapshot_preview1" fn random_get(buf: [*]u8, len: i32) i32;

/// Exports the module's entry points for the bot `Bot` (the bot's file: `@This()`), which
/// defines `pub fn play() void` (once per turn: exactly one move) and may define
/// `pub fn new(seat: i32) void` (once per game, before its first turn).
pub fn exportBot(comptime Bot: type) void {
    const entry = struct {
        fn new(seat: i32) callconv(.c) void {
            if (@hasDecl(Bot, "new")) Bot.new(seat);
        }
        fn play() callconv(.c) void {
            Bot.play();
        }
    };
    @export(&entry.new, .{ .name = "botlens_new" });
    @export(&entry.play, .{ .name = "botlens_play" });
}

/// Adds a line to this turn's log, formatted as `std.fmt` does (`botlens replay` shows it).
pub fn print(comptime format: []const u8, args: anytype) void {
    var line: [1024]u8 = undefined;
    const text = std.fmt.bufPrint(&line, format, args) catch line[0..];
    log(text.ptr, @intCast(text.len));
}

/// Loses the game with `panic` and `message`, at the caller's line: `botlens.fail(@src(), "…")`.
pub fn fail(src: std.builtin.SourceLocation, message: []const u8) noreturn {
    panic(message.ptr, @intCast(message.len), src.file.ptr, @intCast(src.file.len), @intCast(src.line), @intCast(src.column));
}

/// A random number drawn from the game's seed (a replay draws the same ones).
pub fn random() u32 {
    var bytes: [4]u8 = undefined;
    _ = random_get(&bytes, 4);
    return std.mem.readInt(u32, &bytes, .little);
}

/// Room for any view or answer of the games below.
const buffer_size = 1024;

fn readView(buffer: *[buffer_size]u8) []const u8 {
    const n = view(buffer, buffer_size);
    return buffer[0..@intCast(n)];
}

fn u32At(bytes: []const u8, at: usize) u32 {
    return std.mem.readInt(u32, bytes[at..][0..4], .little);
}

fn actXy(x: i32, y: i32, answer: *[buffer_size]u8) []const u8 {
    var move: [8]u8 = undefined;
    std.mem.writeInt(i32, move[0..4], x, .little);
    std.mem.writeInt(i32, move[4..8], y, .little);
    const n = act(&move, 8, answer, buffer_size);
    return answer[0..@intCast(n)];
}

/// What a Tic-tac-toe bot sees on its turn.
pub const TicTacToeView = struct {
    /// The board row by row (index y * 3 + x): 'X', 'O' or '.' (free).
    board: [9]u8,
    /// Your side: 'X' (who moves first) or 'O'.
    you: u8,

    /// The square on column `x`, row `y` (0–2); off the board is an index out of bounds.
    pub fn at(self: TicTacToeView, x: usize, y: usize) u8 {
        if (x > 2) @panic("x is off the 3x3 board");
        return self.board[y * 3 + x];
    }
};

/// The Tic-tac-toe view of this turn.
pub fn tictactoe() TicTacToeView {
    var buffer: [buffer_size]u8 = undefined;
    const bytes = readView(&buffer);
    if (bytes.len != 14) @panic("botlens.zig: this is not a Tic-tac-toe view (does botlens.toml say the game?)");
    var result: TicTacToeView = .{ .board = undefined, .you = if (bytes[13] == 0) 'X' else 'O' };
    @memcpy(&result.board, bytes[4..13]);
    return result;
}

/// Marks column `x`, row `y` (0–2) and returns the board after it. A taken square or one off
/// the board is an illegal move: the game is lost at this call.
pub fn mark(x: i32, y: i32) [9]u8 {
    var answer: [buffer_size]u8 = undefined;
    const bytes = actXy(x, y, &answer);
    var board: [9]u8 = @splat('.');
    if (bytes.len == 13) @memcpy(&board, bytes[4..13]);
    return board;
}

/// Ship kinds, as `enemy_ships_left` lists them.
pub const ShipKind = enum(u8) { carrier, warship, submarine, cruiser, patrol };

/// What a Battleships bot sees on its turn.
pub const BattleshipsView = struct {
    /// The opponent's board as you know it, row by row (index y * 10 + x): '.' unknown,
    /// 'o' miss, 'x' hit, '#' sunk.
    targets: [100]u8,
    /// Your own board: '.' water, 'S' ship, 'X' ship hit, 'o' water shot at.
    own: [100]u8,
    /// The opponent's ships still afloat: the first `ships_left` of `enemy_ships_left`.
    enemy_ships_left: [8]ShipKind,
    ships_left: usize,
    /// Shots you have fired.
    shots: u32,

    /// The square on column `x`, row `y` (0–9) of `targets`; off the board is an index out of
    /// bounds.
    pub fn target(self: *const BattleshipsView, x: usize, y: usize) u8 {
        if (x > 9) @panic("x is off the 10x10 board");
        return self.targets[y * 10 + x];
    }
};

/// The Battleships view of this turn.
pub fn battleships() BattleshipsView {
    var buffer: [buffer_size]u8 = undefined;
    const bytes = readView(&buffer);
    if (bytes.len < 212 or u32At(bytes, 0) != 100) @panic("botlens.zig: this is not a Battleships view (does botlens.toml say the game?)");
    var result: BattleshipsView = undefined;
    @memcpy(&result.targets, bytes[4..104]);
    @memcpy(&result.own, bytes[108..208]);
    const left: usize = u32At(bytes, 208);
    result.ships_left = @min(left, 8);
    for (0..result.ships_left) |i| result.enemy_ships_left[i] = @enumFromInt(bytes[212 + i]);
    result.shots = u32At(bytes, 212 + left);
    return result;
}

/// A ship, as a sinking reveals it.
pub const Ship = struct { kind: ShipKind, size: u8, x: u8, y: u8, vertical: bool };

/// What an attack did.
pub const Shot = union(enum) { miss, hit, sunk: Ship, already_attacked };

/// Fires at column `x`, row `y` (0–9). A hit or a sink gives you another turn; a miss or a
/// square attacked before passes it. Off the board is an illegal move, lost at this call.
pub fn attack(x: i32, y: i32) Shot {
    var answer: [buffer_size]u8 = undefined;
    const bytes = actXy(x, y, &answer);
    if (bytes.len == 0) return .miss;
    return switch (bytes[0]) {
        1 => .hit,
        2 => .{ .sunk = .{ .kind = @enumFromInt(bytes[1]), .size = bytes[2], .x = bytes[3], .y = bytes[4], .vertical = bytes[5] == 1 } },
        3 => .already_attacked,
        else => .miss,
    };
}
