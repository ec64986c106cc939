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
//! as the module `bot` of the root `root.zig` (beside this file, which declares `panic` below as
//! the bot's panic handler) and this file as the module `botlens`, then appends the custom
//! sections of docs/abi.md (Zig has no syntax for them): the ABI version, the compact encoding,
//! and this file's and Zig's `lib/std/` paths in `botlens_sdk`, so failures skip their frames and
//! point at the bot's line (an index out of bounds, `unreachable`, an overflow: ReleaseSafe
//! checks them all). docs/zig.md is the manual.

const std = @import("std");

extern "botlens" fn view(out: [*]u8, cap: i32) i32;
extern "botlens" fn act(msg: [*]const u8, len: i32, out: [*]u8, cap: i32) i32;
extern "botlens" fn log(text: [*]const u8, len: i32) void;
/// The host's `botlens.panic` (imported under another name: `panic` is the bot's panic handler).
const host_panic = @extern(*const fn (msg: [*]const u8, msg_len: i32, file: [*]const u8, file_len: i32, line: i32, column: i32) callconv(.c) noreturn, .{ .name = "panic", .library_name = "botlens" });
/// The host's `botlens.draw` (imported under another name: `draw` is the drawing API below).
const host_draw = @extern(*const fn (kind: i32, x: i32, y: i32, to_x: i32, to_y: i32, colour: u32, data: ?[*]const u8, len: i32) callconv(.c) void, .{ .name = "draw", .library_name = "botlens" });
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

/// Zig's panic handler for a bot (`root.zig` declares it unless the bot declares its own
/// `panic`): `@panic("…")`, an index out of bounds, an overflow, `unreachable` and the other
/// safety checks lose the game with `panic` and Zig's message ("index out of bounds: index 18,
/// len 9"), located at the bot's line from the module's DWARF (this file's and the standard
/// library's frames are skipped).
pub const panic = std.debug.FullPanic(panicWithMessage);

fn panicWithMessage(message: []const u8, _: ?usize) noreturn {
    host_panic(message.ptr, @intCast(message.len), "", 0, 0, 0);
}

/// Loses the game with `panic` and `message`, at the caller's line: `botlens.fail(@src(), "…")`.
pub fn fail(src: std.builtin.SourceLocation, message: []const u8) noreturn {
    host_panic(message.ptr, @intCast(message.len), src.file.ptr, @intCast(src.file.len), @intCast(src.line), @intCast(src.column));
}

/// A random number drawn from the game's seed (a replay draws the same ones).
pub fn random() u32 {
    var bytes: [4]u8 = undefined;
    _ = random_get(&bytes, 4);
    return std.mem.readInt(u32, &bytes, .little);
}

/// Drawing on the board (docs/zig.md, "Drawing on the board"): marks that show what the bot was
/// thinking, drawn over its board by the replayers and the editor's hover. Each mark keeps the
/// bot's line that drew it (this file's frames are skipped). Drawing never changes a game: a
/// call costs the same fuel whether botlens keeps the mark or not, and a mark past a turn's
/// bounds (256 marks, 16 KiB of text and values) is dropped and counted, never a failure.
/// Coordinates are the game's: `x` the column, `y` the row, from 0 (a Battleships bot draws on
/// the board it fires at).
///
///     var density: [100]f32 = @splat(0);
///     density[45] = 7;
///     botlens.draw.heat(10, &density);
///     botlens.draw.cell(5, 4, .red);
///     botlens.draw.label(5, 4, "7", .white);
///     botlens.draw.arrow(5, 4, 5, 5, botlens.draw.Colour.intensity(0.8));
///     botlens.draw.status("hunting through (5, 4)");
pub const draw = struct {
    /// The kinds of mark, as `botlens.draw` numbers them (docs/abi.md).
    const Kind = enum(i32) { cell, heat, arrow, label, status };

    /// A mark's colour: red, green and blue (`.red`, `Colour.rgb(255, 136, 0)`, `Colour.hex(0xff8800)`),
    /// or an intensity on the heat maps' palette (`Colour.intensity(0.8)`).
    pub const Colour = enum(u32) {
        red = 0xe03c31,
        green = 0x2ea043,
        blue = 0x1f6feb,
        yellow = 0xf2c20f,
        white = 0xffffff,
        black = 0x000000,
        _,

        /// A colour from its red, green and blue parts.
        pub fn rgb(red_part: u8, green_part: u8, blue_part: u8) Colour {
            return @enumFromInt(@as(u32, red_part) << 16 | @as(u32, green_part) << 8 | blue_part);
        }

        /// A colour written `0xRRGGBB`.
        pub fn hex(value: u32) Colour {
            return @enumFromInt(value & 0xffffff);
        }

        /// An intensity from 0.0 (cold) to 1.0 (hot), shaded on the heat maps' palette; values
        /// outside are clamped (NaN is 0).
        pub fn intensity(level: f32) Colour {
            const clamped = if (std.math.isNan(level)) 0 else std.math.clamp(level, 0, 1);
            return @enumFromInt(0x01000000 | @as(u32, @intFromFloat(@round(clamped * 255))));
        }
    };

    fn drawMark(kind: Kind, x: i32, y: i32, to_x: i32, to_y: i32, colour: Colour, data: []const u8) void {
        // More bytes than any mark may have: a length the host drops unread.
        const len = std.math.cast(i32, data.len) orelse std.math.maxInt(i32);
        host_draw(@intFromEnum(kind), x, y, to_x, to_y, @intFromEnum(colour), data.ptr, len);
    }

    /// Fills the cell at column `x`, row `y` with `colour`.
    pub fn cell(x: i32, y: i32, colour: Colour) void {
        drawMark(.cell, x, y, 0, 0, colour, &.{});
    }

    /// A heat map: one value per cell of a board `width` columns wide (1–64), row by row from
    /// the top left (a Battleships board: width 10, 100 values). The replayers shade each cell
    /// from the lowest value to the highest; a value that is not a finite number leaves its
    /// cell unshaded. At most 4,096 values: a larger map is dropped.
    pub fn heat(width: i32, values: []const f32) void {
        drawMark(.heat, width, 0, 0, 0, .black, std.mem.sliceAsBytes(values));
    }

    /// An arrow from the cell (`x`, `y`) to the cell (`to_x`, `to_y`).
    pub fn arrow(x: i32, y: i32, to_x: i32, to_y: i32, colour: Colour) void {
        drawMark(.arrow, x, y, to_x, to_y, colour, &.{});
    }

    /// A short text (UTF-8) on the cell at column `x`, row `y`: 32 bytes are kept, longer text
    /// is cut.
    pub fn label(x: i32, y: i32, text: []const u8, colour: Colour) void {
        drawMark(.label, x, y, 0, 0, colour, text);
    }

    /// The turn's status line (UTF-8), shown under the board: 200 bytes are kept, and the last
    /// one drawn in a turn is the one shown.
    pub fn status(text: []const u8) void {
        drawMark(.status, 0, 0, 0, 0, .black, text);
    }
};

/// Room for any view or answer of the games below (a Klotski view of `max_pieces` pieces).
const buffer_size = 8192;

fn readView(buffer: *[buffer_size]u8) []const u8 {
    const n = view(buffer, buffer_size);
    if (n > buffer_size) @panic("botlens.zig: the view is larger than its buffer");
    return buffer[0..@intCast(n)];
}

fn u32At(bytes: []const u8, at: usize) u32 {
    return std.mem.readInt(u32, bytes[at..][0..4], .little);
}

fn actXy(x: i32, y: i32, answer: *[buffer_size]u8) []const u8 {
    var message: [8]u8 = undefined;
    std.mem.writeInt(i32, message[0..4], x, .little);
    std.mem.writeInt(i32, message[4..8], y, .little);
    const n = act(&message, 8, answer, buffer_size);
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

/// A direction to slide in: towards row 0, the last row, column 0, the last column.
pub const Dir = enum(u8) {
    up,
    down,
    left,
    right,

    /// All four, in this order.
    pub const all = [_]Dir{ .up, .down, .left, .right };

    /// The direction that undoes a slide this way.
    pub fn opposite(self: Dir) Dir {
        return @enumFromInt(@intFromEnum(self) ^ 1);
    }

    /// The cell offset of one slide: `.{ dx, dy }`, each -1, 0 or 1.
    pub fn delta(self: Dir) [2]i32 {
        return switch (self) {
            .up => .{ 0, -1 },
            .down => .{ 0, 1 },
            .left => .{ -1, 0 },
            .right => .{ 1, 0 },
        };
    }
};

/// The most pieces a Klotski view holds (a board's side is at most 16 cells; the bundled
/// boards have 10): a board with more loses with `panic` at `klotski()`.
pub const max_pieces = 64;

/// A short text of a view, kept in the view itself (so a copy of the view keeps it).
fn Text(comptime cap: usize) type {
    return struct {
        bytes: [cap]u8 = undefined,
        len: usize = 0,

        /// The text: a piece's code such as `cc`, or its UTF-8 name such as `曹操`.
        pub fn get(self: *const @This()) []const u8 {
            return self.bytes[0..self.len];
        }

        fn set(self: *@This(), text: []const u8) void {
            self.len = @min(text.len, cap);
            @memcpy(self.bytes[0..self.len], text[0..self.len]);
        }
    };
}

/// A piece on the board: `code` is what `move` takes (`cc`, `zf`, `1`, …), `name` its display
/// name; `x`, `y` its top-left cell, and its size.
pub const Piece = struct {
    code: Text(8),
    name: Text(64),
    x: i32,
    y: i32,
    width: i32,
    height: i32,
};

/// What a Klotski bot sees on its turn: the whole board.
pub const KlotskiView = struct {
    /// The board's size in cells (4 by 5 for the bundled boards).
    width: i32,
    height: i32,
    /// The pieces: `pieces()`.
    piece_buffer: [max_pieces]Piece,
    piece_count: usize,
    /// The goal: the piece (by code) that must get its top-left cell to `goal_x`, `goal_y`.
    goal: Text(8),
    goal_x: i32,
    goal_y: i32,
    /// One-cell slides made so far, and steps (consecutive slides of one piece are one step).
    moves: u32,
    steps: u32,

    /// The pieces on the board.
    pub fn pieces(self: *const KlotskiView) []const Piece {
        return self.piece_buffer[0..self.piece_count];
    }

    /// Whether `pieces()[index]` can slide one cell towards `dir`: the cells it moves into are
    /// on the board and no other piece covers them.
    pub fn canSlide(self: *const KlotskiView, index: usize, dir: Dir) bool {
        const piece = self.pieces()[index];
        const d = dir.delta();
        const x = piece.x + d[0];
        const y = piece.y + d[1];
        if (x < 0 or y < 0 or x + piece.width > self.width or y + piece.height > self.height) return false;
        for (self.pieces(), 0..) |other, i| {
            if (i != index and x < other.x + other.width and other.x < x + piece.width and
                y < other.y + other.height and other.y < y + piece.height) return false;
        }
        return true;
    }
};

/// A cursor over a compact message; reading past its end is not a Klotski view.
const Reader = struct {
    bytes: []const u8,
    at: usize = 0,

    fn take(self: *Reader, n: usize) []const u8 {
        if (n > self.bytes.len - self.at) @panic("botlens.zig: this is not a Klotski view (does botlens.toml say the game?)");
        defer self.at += n;
        return self.bytes[self.at..][0..n];
    }

    fn int(self: *Reader) u32 {
        return std.mem.readInt(u32, self.take(4)[0..4], .little);
    }

    fn signed(self: *Reader) i32 {
        return @intCast(@min(self.int(), std.math.maxInt(i32)));
    }

    fn text(self: *Reader) []const u8 {
        return self.take(self.int());
    }
};

/// The Klotski view of this turn.
pub fn klotski() KlotskiView {
    var buffer: [buffer_size]u8 = undefined;
    var reader = Reader{ .bytes = readView(&buffer) };
    var result: KlotskiView = undefined;
    result.width = reader.signed();
    result.height = reader.signed();
    result.piece_count = reader.int();
    if (result.piece_count > max_pieces) @panic("botlens.zig: the board has more pieces than botlens.max_pieces");
    for (result.piece_buffer[0..result.piece_count]) |*piece| {
        piece.code = .{};
        piece.code.set(reader.text());
        piece.name = .{};
        piece.name.set(reader.text());
        piece.x = reader.signed();
        piece.y = reader.signed();
        piece.width = reader.signed();
        piece.height = reader.signed();
    }
    result.goal = .{};
    result.goal.set(reader.text());
    result.goal_x = reader.signed();
    result.goal_y = reader.signed();
    result.moves = reader.int();
    result.steps = reader.int();
    if (reader.at != reader.bytes.len) @panic("botlens.zig: this is not a Klotski view (does botlens.toml say the game?)");
    return result;
}

/// The answer to a slide: moves and steps so far, and whether the puzzle is now solved.
pub const Slid = struct { moves: u32, steps: u32, solved: bool };

/// Slides the piece with code `code` one cell towards `dir` and returns the count after it.
/// No such piece, or a blocked slide, is an illegal move: the game is lost at this call.
pub fn move(code: []const u8, dir: Dir) Slid {
    var message: [256]u8 = undefined;
    if (code.len > message.len - 5) @panic("botlens.zig: that is no piece code (too long)");
    std.mem.writeInt(u32, message[0..4], @intCast(code.len), .little);
    @memcpy(message[4..][0..code.len], code);
    message[4 + code.len] = @intFromEnum(dir);
    var answer: [buffer_size]u8 = undefined;
    const n = act(&message, @intCast(code.len + 5), &answer, buffer_size);
    if (n != 9) return .{ .moves = 0, .steps = 0, .solved = false };
    return .{ .moves = u32At(&answer, 0), .steps = u32At(&answer, 4), .solved = answer[8] == 1 };
}
