//! What a bot draws on its board during a turn: marks on cells, a heat map, arrows, labels and a
//! status line (ABI `botlens.draw`, `docs/abi.md`), kept with the turn in the trace and drawn as a
//! layer by the replayers and the editor's hover.
//!
//! Drawing never changes a game: the host charges the same fuel for a call whether it records the
//! mark or not, and a mark past the per-turn bounds ([`MAX_MARKS_PER_TURN`],
//! [`MAX_DRAWN_BYTES_PER_TURN`]) is dropped and counted in [`Drawing::dropped`], never a failure.
//! Coordinates are the bot's own, as it passed them: a viewer draws what lies on its board and
//! leaves out the rest.

use serde::{Deserialize, Serialize};

use crate::SourceLocation;

/// The most marks a turn keeps; later ones are dropped and counted.
pub const MAX_MARKS_PER_TURN: usize = 256;

/// The most bytes of text and heat-map values a turn's marks keep (each value counts 4 bytes);
/// a mark that would pass it is dropped and counted.
pub const MAX_DRAWN_BYTES_PER_TURN: usize = 16 * 1024;

/// The most cells a heat map may have (a 64 × 64 board); a larger one is dropped and counted.
pub const MAX_HEAT_CELLS: usize = 64 * 64;

/// The most bytes of a label's text that are kept; longer text is cut and ends with `…`.
pub const MAX_LABEL_BYTES: usize = 32;

/// The most bytes of a status line that are kept; longer text is cut and ends with `…`.
pub const MAX_STATUS_BYTES: usize = 200;

/// A colour of a mark: a red-green-blue colour, or an intensity drawn on the heat maps' palette.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    /// `0xRRGGBB`.
    Rgb(u32),
    /// 0 (cold) to 255 (hot), on the palette heat maps use.
    Intensity(u8),
}

impl Colour {
    /// The colour an ABI argument means: `0x00RRGGBB` is a colour, `0x01000000 | n` the intensity
    /// `n` (0–255); any other top byte is read as a colour, its top byte ignored.
    pub fn from_abi(value: u32) -> Colour {
        match value >> 24 {
            1 => Colour::Intensity((value & 0xff) as u8),
            _ => Colour::Rgb(value & 0x00ff_ffff),
        }
    }

    /// The colour as `0xRRGGBB` (an intensity on the heat palette, [`heat_rgb`]).
    pub fn rgb(self) -> u32 {
        match self {
            Colour::Rgb(rgb) => rgb,
            Colour::Intensity(level) => heat_rgb(f32::from(level) / 255.0),
        }
    }

    /// The colour as CSS: `#rrggbb` (an intensity on the heat palette, [`heat_rgb`]).
    pub fn css(self) -> String {
        format!("#{:06x}", self.rgb())
    }
}

/// The heat palette at `t` in `0..=1` (clamped): dark blue through teal and yellow to red, as
/// `0xRRGGBB`. Every viewer shades heat maps and intensities with it.
pub fn heat_rgb(t: f32) -> u32 {
    const STOPS: [(f32, [f32; 3]); 5] = [
        (0.0, [33.0, 45.0, 110.0]),
        (0.25, [32.0, 120.0, 160.0]),
        (0.5, [70.0, 170.0, 110.0]),
        (0.75, [240.0, 200.0, 60.0]),
        (1.0, [215.0, 50.0, 40.0]),
    ];
    let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
    let upper = STOPS.iter().position(|&(at, _)| at >= t).unwrap_or(STOPS.len() - 1).max(1);
    let ((a, from), (b, to)) = (STOPS[upper - 1], STOPS[upper]);
    let f = if b > a { (t - a) / (b - a) } else { 0.0 };
    let channel = |i: usize| (from[i] + (to[i] - from[i]) * f).round() as u32;
    (channel(0) << 16) | (channel(1) << 8) | channel(2)
}

/// What a mark is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Shape {
    /// A cell filled with a colour.
    Cell {
        /// Column.
        x: i32,
        /// Row.
        y: i32,
        /// Its colour.
        colour: Colour,
    },
    /// A value for every cell of a grid `width` columns wide, row by row from the top left
    /// (`None`: a value that was not a finite number); shaded from the lowest to the highest.
    Heat {
        /// Columns.
        width: u32,
        /// The values, row-major.
        values: Vec<Option<f32>>,
    },
    /// An arrow from one cell to another.
    Arrow {
        /// Column it starts at.
        x: i32,
        /// Row it starts at.
        y: i32,
        /// Column it points at.
        to_x: i32,
        /// Row it points at.
        to_y: i32,
        /// Its colour.
        colour: Colour,
    },
    /// A short text on a cell.
    Label {
        /// Column.
        x: i32,
        /// Row.
        y: i32,
        /// The text, printable, at most [`MAX_LABEL_BYTES`].
        text: String,
        /// Its colour.
        colour: Colour,
    },
    /// A line about the turn, shown under the board.
    Status {
        /// The text, printable, at most [`MAX_STATUS_BYTES`].
        text: String,
    },
}

impl Shape {
    /// The bytes this shape counts against [`MAX_DRAWN_BYTES_PER_TURN`].
    pub fn weight(&self) -> usize {
        match self {
            Shape::Cell { .. } | Shape::Arrow { .. } => 0,
            Shape::Heat { values, .. } => values.len() * 4,
            Shape::Label { text, .. } | Shape::Status { text } => text.len(),
        }
    }
}

/// One mark a bot drew, and the line of its source that drew it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Mark {
    /// What it is.
    #[serde(flatten)]
    pub shape: Shape,
    /// The bot's own line that drew it, when the bot has debug information (or, for a language
    /// runner, stated it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<SourceLocation>,
}

/// The marks of one turn, bounded.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Drawing {
    /// The marks kept, in the order they were drawn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub marks: Vec<Mark>,
    /// Marks dropped: past the bounds, unreadable (outside the bot's memory, an unknown kind), or
    /// a heat map larger than [`MAX_HEAT_CELLS`].
    #[serde(default, skip_serializing_if = "is_zero")]
    pub dropped: u32,
    /// Bytes the kept marks count ([`Shape::weight`]).
    #[serde(skip)]
    bytes: usize,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Drawing {
    /// Whether nothing was drawn (or dropped).
    pub fn is_empty(&self) -> bool {
        self.marks.is_empty() && self.dropped == 0
    }

    /// Keeps `mark`, or counts it dropped when it would pass a bound.
    pub fn push(&mut self, mark: Mark) {
        let weight = mark.shape.weight();
        if self.marks.len() >= MAX_MARKS_PER_TURN || self.bytes + weight > MAX_DRAWN_BYTES_PER_TURN
        {
            self.drop_one();
            return;
        }
        self.bytes += weight;
        self.marks.push(mark);
    }

    /// Counts a mark that could not be kept.
    pub fn drop_one(&mut self) {
        self.dropped = self.dropped.saturating_add(1);
    }

    /// Whether one more mark would be dropped whatever it is (the count bound is reached): a
    /// host need not read it.
    pub fn is_full(&self) -> bool {
        self.marks.len() >= MAX_MARKS_PER_TURN
    }

    /// The status line: the last one drawn.
    pub fn status(&self) -> Option<&str> {
        self.marks.iter().rev().find_map(|mark| match &mark.shape {
            Shape::Status { text } => Some(text.as_str()),
            _ => None,
        })
    }

    /// The heat map: the last one drawn (a mark whose shape is [`Shape::Heat`]).
    pub fn heat(&self) -> Option<&Mark> {
        self.marks.iter().rev().find(|mark| matches!(mark.shape, Shape::Heat { .. }))
    }
}

/// The lowest and highest finite values of a heat map (`None` when it has none).
pub fn heat_range(values: &[Option<f32>]) -> Option<(f32, f32)> {
    values.iter().flatten().fold(None, |range, &v| match range {
        None => Some((v, v)),
        Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
    })
}

/// Where `value` lies between `lo` and `hi`, in `0..=1` (0.5 when they are equal).
pub fn heat_level(value: f32, (lo, hi): (f32, f32)) -> f32 {
    if hi > lo { (value - lo) / (hi - lo) } else { 0.5 }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(x: i32) -> Mark {
        Mark { shape: Shape::Cell { x, y: 0, colour: Colour::Rgb(0xff0000) }, location: None }
    }

    #[test]
    fn colours_read_from_the_abi() {
        assert_eq!(Colour::from_abi(0x00ff8800), Colour::Rgb(0xff8800));
        assert_eq!(Colour::from_abi(0x0100_0080), Colour::Intensity(0x80));
        assert_eq!(Colour::from_abi(0xff12_3456), Colour::Rgb(0x123456));
        assert_eq!(Colour::Rgb(0xff8800).css(), "#ff8800");
        assert_eq!(Colour::Intensity(255).css(), "#d73228");
        assert_eq!(Colour::Intensity(0).css(), "#212d6e");
    }

    #[test]
    fn the_palette_is_continuous_and_clamped() {
        assert_eq!(heat_rgb(-1.0), heat_rgb(0.0));
        assert_eq!(heat_rgb(2.0), heat_rgb(1.0));
        assert_eq!(heat_rgb(f32::NAN), heat_rgb(0.0));
        assert_eq!(heat_rgb(0.5), 0x46aa6e);
    }

    #[test]
    fn marks_past_the_count_bound_are_dropped_and_counted() {
        let mut drawing = Drawing::default();
        for x in 0..MAX_MARKS_PER_TURN as i32 + 10 {
            drawing.push(cell(x));
        }
        assert_eq!(drawing.marks.len(), MAX_MARKS_PER_TURN);
        assert_eq!(drawing.dropped, 10);
        assert!(drawing.is_full());
    }

    #[test]
    fn marks_past_the_byte_bound_are_dropped_and_counted() {
        let mut drawing = Drawing::default();
        let heat = |n: usize| Mark {
            shape: Shape::Heat { width: 10, values: vec![Some(1.0); n] },
            location: None,
        };
        drawing.push(heat(MAX_HEAT_CELLS)); // 16 KiB, the whole allowance
        drawing.push(heat(1));
        drawing.push(cell(1)); // weighs nothing: still kept
        assert_eq!(drawing.marks.len(), 2);
        assert_eq!(drawing.dropped, 1);
    }

    #[test]
    fn a_drawing_round_trips_as_json() {
        let mut drawing = Drawing::default();
        drawing.push(Mark {
            shape: Shape::Label { x: 1, y: 2, text: "p=0.3".into(), colour: Colour::Intensity(9) },
            location: Some(SourceLocation { file: "src/lib.rs".into(), line: 7, column: 5 }),
        });
        drawing.push(Mark {
            shape: Shape::Heat { width: 2, values: vec![Some(0.5), None] },
            location: None,
        });
        drawing.drop_one();
        let json = serde_json::to_string(&drawing).unwrap();
        assert_eq!(
            json,
            r#"{"marks":[{"kind":"label","x":1,"y":2,"text":"p=0.3","colour":{"intensity":9},"location":{"file":"src/lib.rs","line":7,"column":5}},{"kind":"heat","width":2,"values":[0.5,null]}],"dropped":1}"#
        );
        let back: Drawing = serde_json::from_str(&json).unwrap();
        assert_eq!(back.marks, drawing.marks);
        assert_eq!(heat_range(&[Some(2.0), None, Some(-1.0)]), Some((-1.0, 2.0)));
        assert_eq!(heat_level(0.5, (0.0, 2.0)), 0.25);
    }
}
