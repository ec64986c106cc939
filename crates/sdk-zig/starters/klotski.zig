//! {{name}}: a Klotski (Huarong Dao) bot for botlens, in Zig.
//!
//! It makes a random legal slide every turn, never straight back where its last slide came from
//! (unless nothing else can move), which almost never solves the puzzle within the turn cap.
//! Ideas: search the board breadth first on your first turn and play the solution; count
//! *steps* (consecutive slides of one piece are one step) to match the board's par.
//!
//! `botlens run` builds this file with zig (botlens.zig comes with botlens) and plays it on the
//! bundled boards (or `generated`, a new board per seed), comparing its steps with the optimal
//! number.

const botlens = @import("botlens");

// Makes `play` below the module's entry point.
comptime {
    botlens.exportBot(@This());
}

/// A slide: the piece's index in `view.pieces()` and the direction.
const Slide = struct { piece: usize, dir: botlens.Dir };

/// The last slide (every game is a fresh instance: globals start afresh).
var last: ?Slide = null;

/// Called once per turn: look at the view, then make exactly one move. Making none, or a
/// second one, loses the game, as does a panic; botlens reports the line.
pub fn play() void {
    // The view is the whole board: `view.pieces()` (`.code.get()`, `.name.get()`, top-left `.x`
    // and `.y`, `.width` and `.height` of each), `view.width` by `view.height` cells, and the
    // goal: the piece `view.goal.get()` must reach the cell `view.goal_x`, `view.goal_y` with
    // its top-left corner.
    const view = botlens.klotski();
    var slides: [botlens.max_pieces * 4]Slide = undefined;
    var count: usize = 0;
    var back: ?Slide = null;
    for (0..view.pieces().len) |i| {
        for (botlens.Dir.all) |dir| {
            if (!view.canSlide(i, dir)) continue;
            const slide: Slide = .{ .piece = i, .dir = dir };
            if (last) |l| {
                if (l.piece == i and l.dir.opposite() == dir) {
                    back = slide;
                    continue;
                }
            }
            slides[count] = slide;
            count += 1;
        }
    }
    if (count == 0) {
        // Only the slide back is left (a board with a free cell has a slide).
        slides[0] = back orelse @panic("no piece can slide");
        count = 1;
    }
    // `botlens.random()` draws from the game's seed: a replay makes the same choices.
    const slide = slides[botlens.random() % count];
    last = slide;
    const code = view.pieces()[slide.piece].code.get();
    // The move: it returns only if it was legal (a blocked slide loses the game here).
    const slid = botlens.move(code, slide.dir);
    // Log lines are kept with the turn: `botlens replay` shows them next to the board.
    botlens.print("slid {s} {s}: {d} steps so far", .{ code, @tagName(slide.dir), slid.steps });
}
