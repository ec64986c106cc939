//! The Klotski model: a W×H board, rectangular pieces with a short code and a display name, and a
//! goal (a named piece must reach a target top-left cell); validation, and one-cell slides.
//!
//! Not for text (the layout file format lives in [`crate::format`]), drawing
//! ([`crate::render`]) or search ([`crate::solver`]). All coordinates are 0-based, `x` the
//! column and `y` the row, as in the bot protocol.

use std::fmt;

use botlens_engine::text::{clipped, printable};
use botlens_protocol::klotski::{Dir, KlotskiView, PieceView};
use serde::{Deserialize, Serialize};
use unicode_segmentation::UnicodeSegmentation as _;

/// The largest board side, in cells (so a board has at most 256 cells).
pub const MAX_SIDE: u32 = 16;
/// The longest piece code, in characters.
pub const MAX_CODE_LEN: usize = 8;
/// The longest display name, in characters as a person sees them (`é` is one, written as one
/// code point or as `e` and a combining accent).
pub const MAX_NAME_CHARS: usize = 16;
/// The longest layout name, in characters as a person sees them.
pub const MAX_LAYOUT_NAME_CHARS: usize = 64;
/// The most code points a name may spend on each character it may have (a letter and its
/// accents): a name of 16 characters has at most 64.
pub const CODE_POINTS_PER_CHAR: usize = 4;
/// The most characters of a name or code a message repeats (a layout file may hold a name of
/// 100 KB).
pub(crate) const ECHOED_CHARS: usize = 80;

/// Words a piece code may not be, because `botlens play klotski` reads them as commands or
/// directions.
pub const RESERVED_CODES: [&str; 18] = [
    "w", "a", "s", "d", "up", "down", "left", "right", "help", "h", "show", "reset", "quit", "q",
    "exit", "undo", "u", "hint",
];

/// A rectangular piece and where it is.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Piece {
    /// Short code typed to move it: 1–8 characters of `a-z`, `0-9`, `-`, `_` (`cc`, `zf`, `1`).
    pub code: String,
    /// Display name (`曹操`): 1–16 characters, no control characters.
    pub name: String,
    /// Column of the top-left cell.
    pub x: u32,
    /// Row of the top-left cell.
    pub y: u32,
    /// Width in cells.
    pub width: u32,
    /// Height in cells.
    pub height: u32,
}

impl Piece {
    /// Whether the piece covers cell `(x, y)`.
    pub fn covers(&self, x: u32, y: u32) -> bool {
        (self.x..self.x + self.width).contains(&x) && (self.y..self.y + self.height).contains(&y)
    }

    /// `name (code)`, the way messages name a piece: `曹操 (cc)`.
    pub fn label(&self) -> String {
        format!("{} ({})", self.name, self.code)
    }
}

/// Where the goal piece must go.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Goal {
    /// The goal piece's code.
    pub piece: String,
    /// Target column of its top-left cell.
    pub x: u32,
    /// Target row of its top-left cell.
    pub y: u32,
}

/// Why a layout is not valid. Parse errors carry the 1-based line and column they refer to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LayoutError {
    /// Where in the layout text, for parse errors.
    pub at: Option<TextPos>,
    /// What is wrong, and what was expected. Printable: whatever it quotes from the layout has
    /// its control characters escaped (`botlens_engine::text::printable`), so a name in a
    /// layout file cannot send escape sequences to the terminal that shows the error.
    pub message: String,
}

impl LayoutError {
    /// The error `message` (made printable) at `at`.
    pub(crate) fn new(at: Option<TextPos>, message: &str) -> LayoutError {
        LayoutError { at, message: printable(message).into_owned() }
    }
}

/// A 1-based line and column (in characters) of a layout text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextPos {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, counted in characters.
    pub column: usize,
}

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.at {
            Some(at) => write!(f, "{}:{}: {}", at.line, at.column, self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for LayoutError {}

/// Which part of a layout a validation failure is about (the parser turns it into a position).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Subject {
    /// The layout's name.
    Name,
    /// The board as a whole.
    Board,
    /// Piece `i`'s code.
    Code(usize),
    /// Piece `i`'s display name.
    PieceName(usize),
    /// Piece `i`'s place on the board.
    Place(usize),
    /// The goal line.
    Goal,
}

/// Why a one-cell slide is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Blocked {
    /// The piece would leave the board.
    Edge,
    /// These pieces (indices) are in the way.
    By(Vec<usize>),
}

/// How messages and boards name pieces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Labels {
    /// Display names (`曹操`, CJK in the classic layouts); messages say `曹操 (cc)`.
    #[default]
    Names,
    /// Codes only (`cc`): plain ASCII for terminals without CJK fonts.
    Codes,
}

impl Labels {
    /// The label to show for a piece with this `name` and `code`.
    pub fn pick<'a>(self, name: &'a str, code: &'a str) -> &'a str {
        match self {
            Labels::Names => name,
            Labels::Codes => code,
        }
    }
}

/// A validated board: its size, its pieces where they stand now, and the goal.
///
/// Invariants (checked by [`Layout::new`], [`Layout::parse`] and deserialization): 1–16 cells a
/// side; pieces inside the board, not overlapping, with unique valid codes; the goal names a
/// piece and a target on the board for it. Slides keep them.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "LayoutData", into = "LayoutData")]
pub struct Layout {
    name: Option<String>,
    width: u32,
    height: u32,
    pieces: Vec<Piece>,
    goal: Goal,
    goal_index: usize,
}

/// The serialized shape of a [`Layout`]: `{"name": "横刀立马", "width": 4, "height": 5,
/// "pieces": [{"code": "cc", "name": "曹操", "x": 1, "y": 0, "width": 2, "height": 2}, …],
/// "goal": {"piece": "cc", "x": 1, "y": 3}}` (`name` omitted when there is none).
#[derive(Serialize, Deserialize)]
struct LayoutData {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    width: u32,
    height: u32,
    pieces: Vec<Piece>,
    goal: Goal,
}

impl TryFrom<LayoutData> for Layout {
    type Error = LayoutError;

    fn try_from(data: LayoutData) -> Result<Layout, LayoutError> {
        Layout::new(data.name, data.width, data.height, data.pieces, data.goal)
    }
}

impl From<Layout> for LayoutData {
    fn from(layout: Layout) -> LayoutData {
        LayoutData {
            name: layout.name,
            width: layout.width,
            height: layout.height,
            pieces: layout.pieces,
            goal: layout.goal,
        }
    }
}

impl Default for Layout {
    /// The classic 横刀立马.
    fn default() -> Layout {
        crate::bundled::classic()
    }
}

impl Layout {
    /// A layout from its parts, validated (see the type's invariants).
    pub fn new(
        name: Option<String>,
        width: u32,
        height: u32,
        pieces: Vec<Piece>,
        goal: Goal,
    ) -> Result<Layout, LayoutError> {
        Layout::checked(name, width, height, pieces, goal)
            .map_err(|(_, message)| LayoutError::new(None, &message))
    }

    /// Like [`Layout::new`], saying which part is wrong so the parser can point at it.
    pub(crate) fn checked(
        name: Option<String>,
        width: u32,
        height: u32,
        pieces: Vec<Piece>,
        goal: Goal,
    ) -> Result<Layout, (Subject, String)> {
        if let Some(name) = &name {
            check_layout_name(name).map_err(|message| (Subject::Name, message))?;
        }
        if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) {
            return Err((
                Subject::Board,
                format!("the board is {width}×{height}; each side must be 1 to {MAX_SIDE} cells"),
            ));
        }
        let mut owner = vec![None::<usize>; (width * height) as usize];
        for (i, piece) in pieces.iter().enumerate() {
            check_code(&piece.code).map_err(|message| (Subject::Code(i), message))?;
            if let Some(first) = pieces[..i].iter().position(|p| p.code == piece.code) {
                return Err((
                    Subject::Code(i),
                    format!("code `{}` is already used by piece {}", piece.code, first + 1),
                ));
            }
            check_piece_name(&piece.name).map_err(|message| (Subject::PieceName(i), message))?;
            if piece.width == 0 || piece.height == 0 {
                return Err((Subject::Place(i), format!("{} has no cells", piece.label())));
            }
            let fits_x = piece.x.checked_add(piece.width).is_some_and(|end| end <= width);
            let fits_y = piece.y.checked_add(piece.height).is_some_and(|end| end <= height);
            if !fits_x || !fits_y {
                return Err((
                    Subject::Place(i),
                    format!(
                        "{} ({}×{} at x={}, y={}) does not fit on the {width}×{height} board",
                        piece.label(),
                        piece.width,
                        piece.height,
                        piece.x,
                        piece.y
                    ),
                ));
            }
            for y in piece.y..piece.y + piece.height {
                for x in piece.x..piece.x + piece.width {
                    let cell = &mut owner[(y * width + x) as usize];
                    if let Some(other) = *cell {
                        return Err((
                            Subject::Place(i),
                            format!(
                                "{} overlaps {} at x={x}, y={y}",
                                piece.label(),
                                pieces[other].label()
                            ),
                        ));
                    }
                    *cell = Some(i);
                }
            }
        }
        let Some(goal_index) = pieces.iter().position(|p| p.code == goal.piece) else {
            return Err((
                Subject::Goal,
                format!("the goal names `{}`, which is no piece", goal.piece),
            ));
        };
        let target = &pieces[goal_index];
        let fits = goal.x.checked_add(target.width).is_some_and(|end| end <= width)
            && goal.y.checked_add(target.height).is_some_and(|end| end <= height);
        if !fits {
            return Err((
                Subject::Goal,
                format!(
                    "{} is {}×{}: at x={}, y={} it would not fit on the {width}×{height} board",
                    target.label(),
                    target.width,
                    target.height,
                    goal.x,
                    goal.y
                ),
            ));
        }
        Ok(Layout { name, width, height, pieces, goal, goal_index })
    }

    /// The layout's name, if it has one (`横刀立马`).
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The same layout under another name.
    pub fn renamed(mut self, name: Option<String>) -> Result<Layout, LayoutError> {
        if let Some(name) = &name {
            check_layout_name(name).map_err(|message| LayoutError::new(None, &message))?;
        }
        self.name = name;
        Ok(self)
    }

    /// Board width in cells.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Board height in cells.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The pieces, in the order the layout lists them.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// The goal.
    pub fn goal(&self) -> &Goal {
        &self.goal
    }

    /// The index of the goal piece in [`Layout::pieces`].
    pub fn goal_index(&self) -> usize {
        self.goal_index
    }

    /// The goal piece.
    pub fn goal_piece(&self) -> &Piece {
        &self.pieces[self.goal_index]
    }

    /// Whether the goal piece stands on its target.
    pub fn is_solved(&self) -> bool {
        let piece = self.goal_piece();
        (piece.x, piece.y) == (self.goal.x, self.goal.y)
    }

    /// The index of the piece with this code (codes are matched exactly; they are lower case).
    pub fn find(&self, code: &str) -> Option<usize> {
        self.pieces.iter().position(|p| p.code == code)
    }

    /// The piece covering cell `(x, y)`, if any.
    pub fn occupant(&self, x: u32, y: u32) -> Option<usize> {
        self.pieces.iter().position(|p| p.covers(x, y))
    }

    /// How to name piece `index` where a name alone might be ambiguous: its display name, with
    /// the code added when another piece has the same name (`兵`, or `兵 (1)`).
    pub fn short_label(&self, index: usize) -> String {
        let piece = &self.pieces[index];
        if self.pieces.iter().filter(|p| p.name == piece.name).count() > 1 {
            piece.label()
        } else {
            piece.name.clone()
        }
    }

    /// How `labels` names piece `index` in a message: `曹操 (cc)` or `cc`.
    pub fn message_label(&self, index: usize, labels: Labels) -> String {
        match labels {
            Labels::Names => self.pieces[index].label(),
            Labels::Codes => self.pieces[index].code.clone(),
        }
    }

    /// Checks whether piece `index` can slide one cell towards `dir`, returning where its
    /// top-left cell would go. `index` must be a piece index (from [`Layout::find`]).
    pub fn check_slide(&self, index: usize, dir: Dir) -> Result<(u32, u32), Blocked> {
        let piece = &self.pieces[index];
        let (dx, dy) = dir.delta();
        let x = piece.x.checked_add_signed(dx).filter(|&x| x + piece.width <= self.width);
        let y = piece.y.checked_add_signed(dy).filter(|&y| y + piece.height <= self.height);
        let (Some(x), Some(y)) = (x, y) else {
            return Err(Blocked::Edge);
        };
        let mut blockers = Vec::new();
        for cy in y..y + piece.height {
            for cx in x..x + piece.width {
                if let Some(other) = self.occupant(cx, cy)
                    && other != index
                    && !blockers.contains(&other)
                {
                    blockers.push(other);
                }
            }
        }
        if blockers.is_empty() { Ok((x, y)) } else { Err(Blocked::By(blockers)) }
    }

    /// Slides piece `index` (a piece index) one cell towards `dir`, or says why not (the layout
    /// is then unchanged).
    pub fn slide(&mut self, index: usize, dir: Dir) -> Result<(), Blocked> {
        let (x, y) = self.check_slide(index, dir)?;
        let piece = &mut self.pieces[index];
        piece.x = x;
        piece.y = y;
        Ok(())
    }

    /// Says why piece `index` cannot slide towards `dir`: `曹操 (cc) cannot move down: blocked
    /// by 关羽 (gy)`.
    pub fn explain_blocked(
        &self,
        index: usize,
        dir: Dir,
        blocked: &Blocked,
        labels: Labels,
    ) -> String {
        let who = self.message_label(index, labels);
        let why = match blocked {
            Blocked::Edge => "the edge of the board is in the way".to_string(),
            Blocked::By(others) => {
                let names: Vec<String> =
                    others.iter().map(|&other| self.message_label(other, labels)).collect();
                format!("blocked by {}", names.join(" and "))
            }
        };
        format!("{who} cannot move {}: {why}", dir.name())
    }

    /// The pieces and goal as the bot protocol shows them (move counters are the game's).
    pub fn view(&self, moves: u32, steps: u32) -> KlotskiView {
        KlotskiView {
            width: self.width,
            height: self.height,
            pieces: self
                .pieces
                .iter()
                .map(|p| PieceView {
                    code: p.code.clone(),
                    name: p.name.clone(),
                    x: p.x,
                    y: p.y,
                    width: p.width,
                    height: p.height,
                })
                .collect(),
            goal: botlens_protocol::klotski::Goal {
                piece: self.goal.piece.clone(),
                x: self.goal.x,
                y: self.goal.y,
            },
            moves,
            steps,
        }
    }

    /// The layout a view shows (unnamed), validated: a view from another source may be
    /// inconsistent.
    pub fn from_view(view: &KlotskiView) -> Result<Layout, LayoutError> {
        let pieces = view
            .pieces
            .iter()
            .map(|p| Piece {
                code: p.code.clone(),
                name: p.name.clone(),
                x: p.x,
                y: p.y,
                width: p.width,
                height: p.height,
            })
            .collect();
        let goal = Goal { piece: view.goal.piece.clone(), x: view.goal.x, y: view.goal.y };
        Layout::new(None, view.width, view.height, pieces, goal)
    }
}

/// Checks a piece code: 1–8 characters of `a-z`, `0-9`, `-`, `_`, and not a reserved word.
pub(crate) fn check_code(code: &str) -> Result<(), String> {
    let valid = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_';
    let echoed = clipped(code, ECHOED_CHARS);
    if code.is_empty() || code.chars().count() > MAX_CODE_LEN || !code.chars().all(valid) {
        return Err(format!(
            "code `{echoed}` is not valid: expected 1 to {MAX_CODE_LEN} characters of a-z, 0-9, - or _"
        ));
    }
    if RESERVED_CODES.contains(&code) {
        return Err(format!(
            "code `{echoed}` is reserved for a play command or direction; choose another"
        ));
    }
    Ok(())
}

/// Checks a piece's display name: 1–16 characters, no control or bidirectional formatting
/// characters, no surrounding spaces.
fn check_piece_name(name: &str) -> Result<(), String> {
    check_text(name, MAX_NAME_CHARS)
        .map_err(|why| format!("piece name `{}` {why}", clipped(name, ECHOED_CHARS)))
}

/// Checks a layout name: 1–64 characters, no control or bidirectional formatting characters, no
/// surrounding spaces.
fn check_layout_name(name: &str) -> Result<(), String> {
    check_text(name, MAX_LAYOUT_NAME_CHARS)
        .map_err(|why| format!("layout name `{}` {why}", clipped(name, ECHOED_CHARS)))
}

/// Checks a name: 1 to `max` characters as a person sees them (grapheme clusters: `é` is one,
/// however it is written), at most [`CODE_POINTS_PER_CHAR`] code points each on average, and
/// printable.
fn check_text(text: &str, max: usize) -> Result<(), String> {
    if text.is_empty() {
        return Err("is empty".into());
    }
    let shown = text.graphemes(true).count();
    if shown > max {
        return Err(format!("is longer than {max} characters (it has {shown})"));
    }
    let code_points = text.chars().count();
    if code_points > max * CODE_POINTS_PER_CHAR {
        return Err(format!(
            "has {code_points} code points, more than {} ({max} characters of at most \
             {CODE_POINTS_PER_CHAR}: a letter and its accents)",
            max * CODE_POINTS_PER_CHAR
        ));
    }
    // Whatever a terminal would not show as it is (an escape sequence, a right-to-left
    // override): names are printed on boards and in messages.
    if printable(text) != text {
        return Err("contains a control or bidirectional formatting character".into());
    }
    if text.trim() != text {
        return Err("starts or ends with a space".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(code: &str, x: u32, y: u32, width: u32, height: u32) -> Piece {
        Piece { code: code.into(), name: code.to_uppercase(), x, y, width, height }
    }

    fn goal(code: &str, x: u32, y: u32) -> Goal {
        Goal { piece: code.into(), x, y }
    }

    #[test]
    fn the_default_is_the_classic_with_cao_cao_at_2_1() {
        let layout = Layout::default();
        assert_eq!(layout.name(), Some("横刀立马"));
        assert_eq!((layout.width(), layout.height()), (4, 5));
        let cc = layout.goal_piece();
        assert_eq!((cc.code.as_str(), cc.name.as_str()), ("cc", "曹操"));
        assert_eq!((cc.x, cc.y, cc.width, cc.height), (1, 0, 2, 2));
        assert_eq!((layout.goal().x, layout.goal().y), (1, 3));
        assert!(!layout.is_solved());
    }

    #[test]
    fn overlapping_pieces_are_refused() {
        let err = Layout::new(
            None,
            3,
            3,
            vec![piece("p", 0, 0, 2, 2), piece("r", 1, 1, 1, 1)],
            goal("p", 1, 1),
        )
        .unwrap_err();
        assert_eq!(err.message, "R (r) overlaps P (p) at x=1, y=1");
    }

    #[test]
    fn pieces_off_the_board_and_bad_goals_are_refused() {
        let off = Layout::new(None, 3, 3, vec![piece("p", 2, 0, 2, 1)], goal("p", 0, 0));
        assert!(off.unwrap_err().message.contains("does not fit on the 3×3 board"));
        let far = Layout::new(None, 3, 3, vec![piece("p", u32::MAX, 0, 2, 1)], goal("p", 0, 0));
        assert!(far.unwrap_err().message.contains("does not fit"));
        let missing = Layout::new(None, 3, 3, vec![piece("p", 0, 0, 1, 1)], goal("q", 0, 0));
        assert_eq!(missing.unwrap_err().message, "the goal names `q`, which is no piece");
        let outside = Layout::new(None, 3, 3, vec![piece("p", 0, 0, 2, 2)], goal("p", 2, 0));
        assert!(outside.unwrap_err().message.contains("would not fit"));
    }

    #[test]
    fn codes_must_be_short_lowercase_unique_and_not_commands() {
        let with = |code: &str| {
            Layout::new(None, 3, 3, vec![piece(code, 0, 0, 1, 1)], goal(code, 0, 0))
                .map(|_| ())
                .map_err(|e| e.message)
        };
        assert!(with("cc").is_ok());
        assert!(with("soldier1").is_ok());
        assert!(with("CC").unwrap_err().contains("not valid"));
        assert!(with("").unwrap_err().contains("not valid"));
        assert!(with("toolongcode").unwrap_err().contains("not valid"));
        assert!(with("undo").unwrap_err().contains("reserved"));
        assert!(with("w").unwrap_err().contains("reserved"));
        let twice = Layout::new(
            None,
            3,
            3,
            vec![piece("p", 0, 0, 1, 1), piece("p", 1, 0, 1, 1)],
            goal("p", 0, 0),
        );
        assert_eq!(twice.unwrap_err().message, "code `p` is already used by piece 1");
    }

    #[test]
    fn board_sides_are_limited() {
        let big = Layout::new(None, 17, 3, vec![piece("p", 0, 0, 1, 1)], goal("p", 0, 0));
        assert!(big.unwrap_err().message.contains("1 to 16"));
        let empty = Layout::new(None, 0, 3, vec![piece("p", 0, 0, 1, 1)], goal("p", 0, 0));
        assert!(empty.is_err());
    }

    #[test]
    fn a_blocked_slide_names_the_blocker_and_changes_nothing() {
        let mut layout = Layout::default();
        let cc = layout.find("cc").unwrap();
        let before = layout.clone();
        let blocked = layout.slide(cc, Dir::Down).unwrap_err();
        assert_eq!(layout, before);
        assert_eq!(
            layout.explain_blocked(cc, Dir::Down, &blocked, Labels::Names),
            "曹操 (cc) cannot move down: blocked by 关羽 (gy)"
        );
        let up = layout.slide(cc, Dir::Up).unwrap_err();
        assert_eq!(up, Blocked::Edge);
        assert_eq!(
            layout.explain_blocked(cc, Dir::Up, &up, Labels::Codes),
            "cc cannot move up: the edge of the board is in the way"
        );
    }

    #[test]
    fn a_slide_into_empty_cells_moves_the_piece() {
        let mut layout = Layout::default();
        let soldier = layout.find("1").unwrap();
        layout.slide(soldier, Dir::Right).expect("(1,4) → (2,4) is empty");
        assert_eq!((layout.pieces()[soldier].x, layout.pieces()[soldier].y), (1, 4));
        assert_eq!(layout.occupant(0, 4), None);
    }

    #[test]
    fn a_slide_blocked_by_two_pieces_names_both() {
        let mut layout = Layout::default();
        let gy = layout.find("gy").unwrap();
        let blocked = layout.slide(gy, Dir::Down).unwrap_err();
        assert_eq!(
            layout.explain_blocked(gy, Dir::Down, &blocked, Labels::Names),
            "关羽 (gy) cannot move down: blocked by 士 (3) and 佐 (4)"
        );
    }

    #[test]
    fn views_round_trip_and_inconsistent_views_are_refused() {
        let layout = Layout::default();
        let view = layout.view(3, 2);
        assert_eq!((view.moves, view.steps), (3, 2));
        let back = Layout::from_view(&view).unwrap();
        assert_eq!(back.pieces(), layout.pieces());
        let mut bad = view.clone();
        bad.pieces[1].x = 1;
        assert!(Layout::from_view(&bad).unwrap_err().message.contains("overlaps"));
    }

    #[test]
    fn deserialization_validates() {
        let json = serde_json::to_string(&Layout::default()).unwrap();
        let back: Layout = serde_json::from_str(&json).unwrap();
        assert_eq!(back, Layout::default());
        let broken = json.replace("\"width\":4", "\"width\":40");
        let err = serde_json::from_str::<Layout>(&broken).unwrap_err();
        assert!(err.to_string().contains("each side must be 1 to 16"), "{err}");
    }

    #[test]
    fn short_labels_add_the_code_only_when_names_repeat() {
        let layout = Layout::new(
            None,
            3,
            1,
            vec![
                Piece { code: "e".into(), name: "兵".into(), x: 0, y: 0, width: 1, height: 1 },
                Piece { code: "f".into(), name: "兵".into(), x: 1, y: 0, width: 1, height: 1 },
                Piece { code: "c".into(), name: "将".into(), x: 2, y: 0, width: 1, height: 1 },
            ],
            goal("c", 2, 0),
        )
        .unwrap();
        assert_eq!(layout.short_label(0), "兵 (e)");
        assert_eq!(layout.short_label(2), "将");
    }
}
