//! Text drawings of a board: pieces as boxes labelled with their names (or codes), aligned in a
//! terminal where CJK characters take two columns.
//!
//! ```text
//! +----+---------+----+
//! |张飞|  曹操   |黄忠|
//! |    |         |    |
//! |    |         |    |
//! +----+---------+----+
//! |赵云|  关羽   |马超|
//! |    +----+----+    |
//! |    | 士 | 佐 |    |
//! +----+----+----+----+
//! | 兵 |  .    . | 卒 |
//! +----+         +----+
//! ```
//!
//! Lines are plain ASCII (`+ - |`) so the drawing stays aligned where box-drawing characters are
//! of ambiguous width. A gap in the bottom border marks the exit when the goal target touches the
//! bottom edge. Not for the messages around the board (see [`crate::game`] and
//! [`crate::session`]).

use botlens_engine::picture::{Spot, TextCell};
use botlens_protocol::klotski::KlotskiView;

use crate::layout::{Labels, MAX_SIDE};
use crate::{Layout, Piece};

/// The terminal width of one character: 2 for East Asian wide and fullwidth characters (CJK
/// ideographs, kana, hangul, fullwidth forms), 0 for control characters, otherwise 1.
pub fn char_width(c: char) -> usize {
    let wide = matches!(c as u32,
        0x1100..=0x115F
        | 0x2E80..=0x303E
        | 0x3041..=0x33FF
        | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF
        | 0xA000..=0xA4CF
        | 0xAC00..=0xD7A3
        | 0xF900..=0xFAFF
        | 0xFE30..=0xFE4F
        | 0xFF00..=0xFF60
        | 0xFFE0..=0xFFE6
        | 0x1F300..=0x1F64F
        | 0x1F900..=0x1F9FF
        | 0x20000..=0x2FFFD
        | 0x30000..=0x3FFFD);
    if wide {
        2
    } else if c.is_control() {
        0
    } else {
        1
    }
}

/// The terminal width of a string (see [`char_width`]).
pub fn text_width(text: &str) -> usize {
    text.chars().map(char_width).sum()
}

/// A rectangle to draw and its label.
struct Block<'a> {
    label: &'a str,
    x: u32,
    y: u32,
    width: u32,
    height: u32,
}

/// Draws a layout, labelling pieces by name or code.
pub fn board(layout: &Layout, labels: Labels) -> String {
    let blocks: Vec<Block> = layout.pieces().iter().map(|p| block(p, labels)).collect();
    draw(layout.width(), layout.height(), &blocks, exit(layout.goal_piece(), layout))
}

/// Where cell `spot` of the picture shows in [`board`]'s text: the inside of its square, on
/// the line between the borders above and below it; `None` off the board or where the board
/// cannot be drawn.
pub(crate) fn cell(layout: &Layout, labels: Labels, spot: Spot) -> Option<TextCell> {
    let (width, height) = (layout.width(), layout.height());
    let drawn = (1..=MAX_SIDE).contains(&width) && (1..=MAX_SIDE).contains(&height);
    let inside = spot.grid == 0 && spot.x < width as usize && spot.y < height as usize;
    if !(drawn && inside) {
        return None;
    }
    let blocks: Vec<Block> = layout.pieces().iter().map(|p| block(p, labels)).collect();
    let cell = cell_width(width, height, &blocks);
    Some(TextCell { line: 1 + 2 * spot.y, column: spot.x * (cell + 1) + 1, width: cell })
}

/// Draws what a player sees. Views come from outside too, so anything inconsistent is drawn as
/// well as it can be, never refused.
pub fn view(view: &KlotskiView, labels: Labels) -> String {
    let blocks: Vec<Block> = view
        .pieces
        .iter()
        .map(|p| Block {
            label: labels.pick(&p.name, &p.code),
            x: p.x,
            y: p.y,
            width: p.width,
            height: p.height,
        })
        .collect();
    let goal = view.pieces.iter().find(|p| p.code == view.goal.piece);
    let exit = goal.and_then(|p| {
        let touches = view.goal.y.checked_add(p.height) == Some(view.height);
        touches.then_some((view.goal.x, p.width))
    });
    draw(view.width, view.height, &blocks, exit)
}

fn block(piece: &Piece, labels: Labels) -> Block<'_> {
    Block {
        label: labels.pick(&piece.name, &piece.code),
        x: piece.x,
        y: piece.y,
        width: piece.width,
        height: piece.height,
    }
}

/// The exit in the bottom border (first column, width) when the goal target touches the bottom.
fn exit(goal_piece: &Piece, layout: &Layout) -> Option<(u32, u32)> {
    let goal = layout.goal();
    (goal.y + goal_piece.height == layout.height()).then_some((goal.x, goal_piece.width))
}

/// One display column of a line being drawn.
#[derive(Clone, Copy)]
enum Column {
    Char(char),
    /// The right half of a wide character.
    Continued,
}

/// A line of display columns.
struct Line(Vec<Column>);

impl Line {
    fn blank(width: usize) -> Line {
        Line(vec![Column::Char(' '); width])
    }

    /// Writes `text` from display column `at`, clipped to the line.
    fn put(&mut self, at: usize, text: &str) {
        let mut col = at;
        for c in text.chars() {
            let width = char_width(c);
            if width == 0 {
                continue;
            }
            if col + width > self.0.len() {
                break;
            }
            self.0[col] = Column::Char(c);
            if width == 2 {
                self.0[col + 1] = Column::Continued;
            }
            col += width;
        }
    }

    fn finish(self) -> String {
        let text: String = self
            .0
            .into_iter()
            .filter_map(|c| match c {
                Column::Char(c) => Some(c),
                Column::Continued => None,
            })
            .collect();
        text.trim_end().to_string()
    }
}

/// The columns, rows and then the rows' end, the block covers on a `width` × `height` board.
fn clip(b: &Block, width: u32, height: u32) -> (usize, usize, usize, usize) {
    let x_end = b.x.saturating_add(b.width).min(width) as usize;
    let y_end = b.y.saturating_add(b.height).min(height) as usize;
    (b.x as usize, x_end, b.y as usize, y_end)
}

/// The columns inside one cell: the narrowest that fits every label across its piece, at
/// least 3.
fn cell_width(width: u32, height: u32, blocks: &[Block]) -> usize {
    blocks
        .iter()
        .map(|b| {
            let (x0, x1, ..) = clip(b, width, height);
            let span = x1.saturating_sub(x0).max(1);
            (text_width(b.label) + 1).saturating_sub(span).div_ceil(span)
        })
        .fold(3, usize::max)
}

fn draw(width: u32, height: u32, blocks: &[Block], exit: Option<(u32, u32)>) -> String {
    if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) {
        return format!("(a {width}×{height} board cannot be drawn)\n");
    }
    let (w, h) = (width as usize, height as usize);
    // Which block owns each cell; later blocks win where a malformed view overlaps.
    let mut owner = vec![None::<usize>; w * h];
    let clip = |b: &Block| clip(b, width, height);
    for (i, b) in blocks.iter().enumerate() {
        let (x0, x1, y0, y1) = clip(b);
        for y in y0..y1 {
            for x in x0..x1 {
                owner[y * w + x] = Some(i);
            }
        }
    }
    let cell = cell_width(width, height, blocks);

    // Regions: a block, an empty cell (all empty cells are one region), or outside the board.
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum Region {
        Block(usize),
        Empty,
        Outside,
    }
    let exit_cols = exit.map(|(x, ew)| x as usize..(x as usize).saturating_add(ew as usize).min(w));
    let region = |x: isize, y: isize| -> Region {
        let in_columns = (0..w as isize).contains(&x);
        // The exit: the cells below the target's bottom row count as part of the board above.
        let at_exit = y == h as isize
            && in_columns
            && exit_cols.as_ref().is_some_and(|r| r.contains(&(x as usize)));
        let y = if at_exit { y - 1 } else { y };
        if in_columns && (0..h as isize).contains(&y) {
            owner[y as usize * w + x as usize].map_or(Region::Empty, Region::Block)
        } else {
            Region::Outside
        }
    };
    let line_width = w * (cell + 1) + 1;
    let mut out = String::new();
    for y in 0..=h as isize {
        // The border above row y.
        let mut border = Line::blank(line_width);
        for x in 0..=w as isize {
            let col = x as usize * (cell + 1);
            let left = x > 0 && region(x - 1, y - 1) != region(x - 1, y);
            let right = x < w as isize && region(x, y - 1) != region(x, y);
            let up = region(x - 1, y - 1) != region(x, y - 1);
            let down = region(x - 1, y) != region(x, y);
            // Inside the exit there is no border for a separator to meet: leave it open.
            let inside_exit = y == h as isize
                && exit_cols.as_ref().is_some_and(|r| r.start < x as usize && (x as usize) < r.end);
            let corner = match (left || right, (up || down) && !inside_exit) {
                (true, true) => '+',
                (true, false) => '-',
                (false, true) => '|',
                (false, false) => ' ',
            };
            border.0[col] = Column::Char(corner);
            if right {
                for c in 1..=cell {
                    border.0[col + c] = Column::Char('-');
                }
            }
        }
        out.push_str(&border.finish());
        out.push('\n');
        if y == h as isize {
            break;
        }
        // Row y: separators, empty-cell dots, labels.
        let mut row = Line::blank(line_width);
        for x in 0..=w as isize {
            if region(x - 1, y) != region(x, y) {
                row.0[x as usize * (cell + 1)] = Column::Char('|');
            }
            if x < w as isize && region(x, y) == Region::Empty {
                row.0[x as usize * (cell + 1) + 1 + cell / 2] = Column::Char('.');
            }
        }
        for b in blocks {
            let (x0, x1, y0, y1) = clip(b);
            if x0 >= x1 || y0 >= y1 || y as usize != y0 + (y1 - y0 - 1) / 2 {
                continue;
            }
            let span = (x1 - x0) * (cell + 1) - 1;
            let pad = span.saturating_sub(text_width(b.label)) / 2;
            row.put(x0 * (cell + 1) + 1 + pad, b.label);
        }
        out.push_str(&row.finish());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundled;

    #[test]
    fn cjk_characters_are_two_columns_wide() {
        assert_eq!(text_width("曹操"), 4);
        assert_eq!(text_width("cc"), 2);
        assert_eq!(text_width("兵 1"), 4);
        assert_eq!(text_width("ｃ"), 2);
    }

    /// The characters of `line` from display column `from`, `width` columns wide, padded
    /// with spaces past the line's end.
    fn columns(line: &str, from: usize, width: usize) -> String {
        let mut at = 0;
        let mut out = String::new();
        for c in line.chars() {
            if (from..from + width).contains(&at) {
                out.push(c);
            }
            at += char_width(c);
        }
        let short = (from + width).saturating_sub(at.max(from));
        out + &" ".repeat(short)
    }

    #[test]
    fn each_cell_of_the_picture_shows_inside_its_square() {
        let layout = Layout::default();
        let text = board(&layout, Labels::Names);
        let lines: Vec<&str> = text.lines().collect();
        let spot = |x, y| Spot { grid: 0, x, y };
        for y in 0..5 {
            for x in 0..4 {
                let cell = cell(&layout, Labels::Names, spot(x, y)).expect("on the board");
                let inside = columns(lines[cell.line], cell.column, cell.width);
                assert!(!inside.contains(['|', '+', '-']), "({x}, {y}): `{inside}` in\n{text}");
                let above = columns(lines[cell.line - 1], cell.column, cell.width);
                let border_or_gap = ["----", "    "].contains(&above.as_str());
                assert!(border_or_gap, "({x}, {y}): `{above}` above");
            }
        }
        let label = |x, y| {
            let cell = cell(&layout, Labels::Names, spot(x, y)).expect("on the board");
            columns(lines[cell.line], cell.column, cell.width)
        };
        assert_eq!(
            (label(0, 4), label(1, 4), label(3, 4)),
            (" 兵 ".into(), "  . ".into(), " 卒 ".into())
        );
        assert_eq!(label(0, 0), "张飞");
        assert_eq!(cell(&layout, Labels::Names, spot(4, 0)), None);
        assert_eq!(cell(&layout, Labels::Names, spot(0, 5)), None);
        assert_eq!(cell(&layout, Labels::Names, Spot { grid: 1, x: 0, y: 0 }), None);
    }

    #[test]
    fn the_classic_is_drawn_with_full_names_and_the_exit() {
        let expected = "\
+----+---------+----+
|张飞|  曹操   |黄忠|
|    |         |    |
|    |         |    |
+----+---------+----+
|赵云|  关羽   |马超|
|    +----+----+    |
|    | 士 | 佐 |    |
+----+----+----+----+
| 兵 |  .    . | 卒 |
+----+         +----+
";
        assert_eq!(board(&Layout::default(), Labels::Names), expected);
    }

    #[test]
    fn the_exit_stays_open_under_pieces_standing_in_it() {
        let mut layout = Layout::default();
        let soldier = layout.find("1").unwrap();
        layout.slide(soldier, botlens_protocol::klotski::Dir::Right).unwrap();
        let text = board(&layout, Labels::Names);
        assert!(text.ends_with("|  . | 兵 |  . | 卒 |\n+----+         +----+\n"), "{text}");
    }

    #[test]
    fn every_line_of_a_drawing_has_the_same_display_width() {
        for layout in bundled::all() {
            for labels in [Labels::Names, Labels::Codes] {
                let text = board(&layout, labels);
                let widths: Vec<usize> =
                    text.lines().filter(|l| l.ends_with(['|', '+'])).map(text_width).collect();
                assert!(widths.iter().all(|&w| w == widths[0]), "{text}");
            }
        }
    }

    #[test]
    fn codes_make_a_pure_ascii_drawing() {
        let text = board(&Layout::default(), Labels::Codes);
        assert!(text.is_ascii(), "{text}");
        assert!(text.starts_with("+---+-------+---+\n|zf |  cc   |hz |\n"), "{text}");
    }

    #[test]
    fn a_view_draws_like_its_layout_and_broken_views_do_not_panic() {
        let layout = Layout::default();
        let v = layout.view(0, 0);
        assert_eq!(view(&v, Labels::Names), board(&layout, Labels::Names));
        let mut broken = v.clone();
        broken.pieces[0].x = u32::MAX;
        broken.pieces[1].width = u32::MAX;
        broken.pieces[2].name = "a very long name indeed, longer than any".into();
        broken.goal.y = u32::MAX;
        assert!(!view(&broken, Labels::Names).is_empty());
        broken.width = 100_000;
        assert_eq!(view(&broken, Labels::Codes), "(a 100000×5 board cannot be drawn)\n");
    }
}
