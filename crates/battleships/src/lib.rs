//! The Battleships game for botlens: rules, setup from a seed, rendering and reference opponents.
//!
//! [`Battleships`] implements [`botlens_engine::Game`]; its messages are the protocol crate's
//! [`Attack`], [`Shot`] and [`BattleshipsView`]. Like every game crate this one does no I/O and
//! knows nothing of WebAssembly or editors.
//!
//! # Rules
//!
//! - Each player has a 10×10 grid, `x` the column and `y` the row, both 0–9, with the fleet of
//!   [`FLEET`]: carrier 5, warship 4, submarine 3, two cruisers of 2 and two patrols of 1 (18
//!   squares). The engine places both fleets from the seed's [`Stream::Setup`] stream (seat 0's
//!   fleet first), uniformly over legal configurations: horizontal or vertical, no overlapping,
//!   no touching, not even diagonally (method below).
//! - Who moves first comes from the seed's [`Stream::FirstMover`] stream.
//! - A turn is exactly one `attack(x, y)` on the opponent's grid. A miss passes the turn; a hit or
//!   a sink gives the same player another turn. Attacking a square attacked before is legal but
//!   wasted: the answer is [`Shot::AlreadyAttacked`], the turn passes, nothing is counted towards
//!   sinking, and [`Game::is_wasteful`] flags it. It still counts as a shot fired.
//! - `x` or `y` outside 0–9 is an illegal move (`x out of range 0..=9`), as is moving out of turn
//!   or after the end; the state is then unchanged.
//! - Sinking the whole enemy fleet wins (`sank the whole fleet in 61 shots`, counting every shot
//!   fired). [`Battleships::DEFAULT_TURN_CAP`] is 400 turns, after which the game is a draw.
//!
//! # Fleet placement
//!
//! Rejection sampling of whole fleets: every ship gets a placement drawn uniformly from all its
//! placements on the empty grid, and the whole fleet is redrawn if any two ships overlap or
//! touch. All tuples of placements are equally likely, so the accepted ones are uniform over
//! legal fleets. About 1 attempt in 112 succeeds; an attempt stops at its first clash and a
//! check is one `u128` AND, so a fleet costs a few microseconds. The tests compare the sampler
//! with a full enumeration on a small grid and check the symmetry of square occupancy on the
//! real one.
//!
//! # State JSON
//!
//! The state in a trace (`initial_state`) is
//! `{"to_move": 0, "players": [{"fleet": [ship, …], "attacked": "…", "shots": 0}, {…}]}`, per
//! seat: its own fleet (ships as in the protocol, e.g.
//! `{"kind": "carrier", "size": 5, "x": 0, "y": 2, "direction": "vertical"}`), the squares of its
//! grid the opponent has attacked (100 characters row-major, `*` attacked, `.` not) and the
//! shots it has fired. Loading checks the fleet and the grid and reports what is wrong.

mod board;
mod fleet;
mod opponents;
pub mod oracle;
mod picture;
mod render;
#[cfg(test)]
mod testing;

use std::fmt;

use botlens_engine::picture::{Picture, Spot, TextCell};
use botlens_engine::{Ending, Game, IllegalMove, ReferencePlayer, Seat, SeedRng, Status, Stream};
use botlens_protocol::Encoding;
use botlens_protocol::battleships::{
    Attack, BOARD_SIZE, BattleshipsView, FLEET, Ship, ShipKind, Shot, Target,
};
use botlens_protocol::wire::Wire;
use serde::{Deserialize, Serialize};

use crate::board::{CELLS, Mask, bit};
pub use crate::fleet::SetupError;

/// A game of Battleships: both fleets, every shot so far, and whose turn it is.
///
/// Set up from a seed with [`Game::new`] or from chosen fleets with [`Battleships::with_fleets`].
/// Cheap to clone (a few small vectors) and to move (the sides are on the heap: the state moves
/// into and out of every turn); the default value is an empty placeholder with no ships, used
/// only while a turn is taken apart, never played.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "StateJson", into = "StateJson")]
pub struct Battleships {
    next: Seat,
    sides: Box<[Side; 2]>,
}

/// One seat's grid: its fleet and the opponent's shots on it, plus the shots the seat fired.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Side {
    fleet: Vec<Ship>,
    /// The squares of each ship of `fleet`, in the same order.
    masks: Vec<Mask>,
    /// All squares of the fleet.
    ships: Mask,
    /// The squares of this grid the opponent has attacked.
    attacked: Mask,
    /// Shots this seat has fired, re-attacks included.
    shots: u32,
    /// This grid as the opponent knows it (the opponent's view's `targets`), kept up to date
    /// shot by shot, since a wasm bot is handed a view on every turn.
    known: Board,
    /// This grid as its owner sees it (the owner's view's `own`), kept up to date likewise.
    seen: Board,
    /// The kinds of the ships still afloat, kept up to date as ships sink (the opponent's
    /// view's `enemy_ships_left`), so that a view does not test every ship.
    afloat: Afloat,
}

/// The kinds of a fleet's ships still afloat, in fleet order, inline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Afloat {
    kinds: [ShipKind; FLEET.len()],
    len: usize,
}

impl Default for Afloat {
    fn default() -> Self {
        Afloat { kinds: FLEET, len: 0 }
    }
}

impl Afloat {
    /// The kinds of the ships of `fleet` (at most [`FLEET`]'s length) whose squares, `masks`,
    /// are not all in `attacked`.
    fn of(fleet: &[Ship], masks: &[Mask], attacked: Mask) -> Afloat {
        let mut afloat = Afloat::default();
        for (ship, &mask) in fleet.iter().zip(masks) {
            if mask & !attacked != 0 {
                afloat.kinds[afloat.len] = ship.kind;
                afloat.len += 1;
            }
        }
        afloat
    }

    fn kinds(&self) -> &[ShipKind] {
        &self.kinds[..self.len]
    }
}

/// The character of a square of a seat's own grid (the view's `own`): `.` water, `S` ship, `X`
/// ship cell hit by the opponent, `o` water the opponent shot at.
fn own_square(ship: bool, attacked: bool) -> char {
    match (ship, attacked) {
        (false, false) => '.',
        (true, false) => 'S',
        (true, true) => 'X',
        (false, true) => 'o',
    }
}

/// The longest view in the compact encoding: both boards, each after its length, the kinds of
/// the ships left after their count, and the shot count.
const COMPACT_VIEW_MAX: usize = 2 * (4 + CELLS) + 4 + FLEET.len() + 4;

/// A grid as a view shows it: one ASCII character per square, row-major. On the heap, so that
/// the game state the engine moves around every turn stays small; the default (of the
/// placeholder state, never played) holds no squares, allocates nothing, and reads as all
/// unknown.
#[derive(Clone, Default, PartialEq, Eq)]
struct Board(Vec<u8>);

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Board {
    /// Nothing known: every square `.`.
    fn unknown() -> Board {
        Board(vec![b'.'; CELLS])
    }

    fn set(&mut self, cell: usize, c: char) {
        self.0[cell] = u8::try_from(c).expect("board characters are ASCII");
    }

    /// Puts `c` on every square of `squares`.
    fn set_all(&mut self, mut squares: Mask, c: char) {
        while squares != 0 {
            self.set(squares.trailing_zeros() as usize, c);
            squares &= squares - 1;
        }
    }

    /// Its squares; all unknown for the placeholder's, which holds none and is never played.
    fn squares(&self) -> &[u8; CELLS] {
        const UNKNOWN: &[u8; CELLS] = &[b'.'; CELLS];
        self.0.as_slice().try_into().unwrap_or(UNKNOWN)
    }

    fn as_str(&self) -> &str {
        std::str::from_utf8(self.squares()).expect("board characters are ASCII")
    }
}

impl Side {
    fn new(fleet: Vec<Ship>, masks: Vec<Mask>) -> Side {
        let ships = masks.iter().fold(0, |all, mask| all | mask);
        let (known, seen) = (Board::default(), Board::default());
        let afloat = Afloat::default();
        let mut side = Side { fleet, masks, ships, attacked: 0, shots: 0, known, seen, afloat };
        side.set_attacked(0);
        side
    }

    /// Sets the squares attacked so far (none for a new game, or a state read back from JSON),
    /// and both boards from them.
    fn set_attacked(&mut self, attacked: Mask) {
        self.attacked = attacked;
        let (hit, missed) = (attacked & self.ships, attacked & !self.ships);
        self.known = Board::unknown();
        self.known.set_all(missed, Target::Miss.to_char());
        self.known.set_all(hit, Target::Hit.to_char());
        self.known.set_all(self.sunk(), Target::Sunk.to_char());
        self.seen = Board::unknown();
        self.seen.set_all(self.ships & !attacked, own_square(true, false));
        self.seen.set_all(missed, own_square(false, true));
        self.seen.set_all(hit, own_square(true, true));
        self.afloat = Afloat::of(&self.fleet, &self.masks, attacked);
    }

    /// Records a new shot at `square` (not attacked before) and what it did, on both boards.
    fn record(&mut self, square: Mask, shot: &Shot) {
        let cell = square.trailing_zeros() as usize;
        let (known, ship) = match shot {
            Shot::Miss => (Target::Miss, false),
            Shot::Hit | Shot::Sunk { .. } => (Target::Hit, true),
            Shot::AlreadyAttacked => return,
        };
        self.known.set(cell, known.to_char());
        self.seen.set(cell, own_square(ship, true));
        if let Shot::Sunk { .. } = shot {
            let ship = self.masks.iter().find(|&&mask| mask & square != 0).copied().unwrap_or(0);
            self.known.set_all(ship, Target::Sunk.to_char());
            self.afloat = Afloat::of(&self.fleet, &self.masks, self.attacked);
        }
    }

    /// The squares of ships that are sunk.
    fn sunk(&self) -> Mask {
        self.masks.iter().filter(|&&mask| mask & !self.attacked == 0).fold(0, |all, m| all | m)
    }

    /// Whether every ship is sunk.
    fn defeated(&self) -> bool {
        self.ships & !self.attacked == 0
    }

    /// This side's own grid as its owner sees it, as a string.
    pub(crate) fn own_grid(&self) -> &str {
        self.seen.as_str()
    }

    /// The kinds of the ships still afloat, in fleet order.
    fn ships_left(&self) -> impl Iterator<Item = ShipKind> + '_ {
        self.afloat.kinds().iter().copied()
    }
}

/// Checks one coordinate of an attack.
fn coordinate(name: &str, value: i32) -> Result<usize, IllegalMove> {
    usize::try_from(value)
        .ok()
        .filter(|&v| v < BOARD_SIZE)
        .ok_or_else(|| IllegalMove(format!("{name} out of range 0..={}", BOARD_SIZE - 1)))
}

impl Battleships {
    /// A game with the given fleets (seat 0's, seat 1's) and first mover, before any shot.
    ///
    /// Each fleet must be exactly [`FLEET`] (in any order), inside the grid, with no ships
    /// overlapping or touching.
    pub fn with_fleets(fleets: [Vec<Ship>; 2], first: Seat) -> Result<Self, SetupError> {
        if first > 1 {
            return Err(SetupError::State(format!("seat {first} cannot move: seats are 0 and 1")));
        }
        let [a, b] = fleets;
        let (masks_a, masks_b) = (fleet::validate(&a)?, fleet::validate(&b)?);
        Ok(Battleships {
            next: first,
            sides: Box::new([Side::new(a, masks_a), Side::new(b, masks_b)]),
        })
    }

    /// `seat`'s fleet, in the order it was placed (the order of [`FLEET`] for seeded games).
    ///
    /// # Panics
    ///
    /// If `seat` is not 0 or 1.
    pub fn fleet(&self, seat: Seat) -> &[Ship] {
        &self.sides[seat].fleet
    }

    /// The shots `seat` has fired so far, re-attacks included.
    ///
    /// # Panics
    ///
    /// If `seat` is not 0 or 1.
    pub fn shots_fired(&self, seat: Seat) -> u32 {
        self.sides[seat].shots
    }

    /// The seat whose fleet is sunk, if one is.
    fn loser(&self) -> Option<Seat> {
        (0..2).find(|&seat| self.sides[seat].defeated())
    }
}

impl Game for Battleships {
    const NAME: &'static str = "battleships";
    const DEFAULT_TURN_CAP: u32 = 400;
    type Config = ();
    type Action = Attack;
    type Response = Shot;
    type View = BattleshipsView;

    fn new(_config: &(), seed: u64) -> Self {
        let mut setup = SeedRng::new(seed, Stream::Setup);
        let sides = [(); 2].map(|()| {
            let (ships, masks, _) = fleet::random_fleet(&mut setup);
            Side::new(ships, masks)
        });
        let next = SeedRng::new(seed, Stream::FirstMover).below(2) as Seat;
        Battleships { next, sides: Box::new(sides) }
    }

    fn seats(&self) -> usize {
        2
    }

    fn to_move(&self) -> Seat {
        self.next
    }

    fn view(&self, seat: Seat) -> BattleshipsView {
        let (own, enemy) = (&self.sides[seat], &self.sides[1 - seat]);
        BattleshipsView {
            targets: enemy.known.as_str().to_owned(),
            own: own.seen.as_str().to_owned(),
            enemy_ships_left: enemy.ships_left().collect(),
            shots: own.shots,
        }
    }

    /// The view's JSON written from the state, without building the view.
    fn write_view(&self, seat: Seat, encoding: Encoding, out: &mut Vec<u8>) {
        let (own, enemy) = (&self.sides[seat], &self.sides[1 - seat]);
        match encoding {
            Encoding::Json => {
                out.extend_from_slice(br#"{"targets":""#);
                out.extend_from_slice(enemy.known.squares());
                out.extend_from_slice(br#"","own":""#);
                out.extend_from_slice(own.seen.squares());
                out.extend_from_slice(br#"","enemy_ships_left":["#);
                for (i, kind) in enemy.ships_left().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    kind.write(out);
                }
                out.extend_from_slice(br#"],"shots":"#);
                own.shots.write(out);
                out.push(b'}');
            }
            Encoding::Compact => {
                // The whole view gathered here, its boards copied at their fixed size, and
                // written at once: a copy per part (five) cost a light bot's turn more than the
                // bytes themselves.
                let len = |n: usize| {
                    u32::try_from(n).expect("a fleet or board of billions").to_le_bytes()
                };
                let mut view = [0u8; COMPACT_VIEW_MAX];
                let mut end = 0;
                for board in [enemy.known.squares(), own.seen.squares()] {
                    view[end..end + 4].copy_from_slice(&len(CELLS));
                    view[end + 4..end + 4 + CELLS].copy_from_slice(board);
                    end += 4 + CELLS;
                }
                let left = enemy.afloat.kinds();
                view[end..end + 4].copy_from_slice(&len(left.len()));
                end += 4;
                for (byte, &kind) in view[end..].iter_mut().zip(left) {
                    // A kind's compact form is its tag byte (`Compact for ShipKind`).
                    *byte = kind as u8;
                }
                end += left.len();
                view[end..end + 4].copy_from_slice(&own.shots.to_le_bytes());
                out.extend_from_slice(&view[..end + 4]);
            }
        }
    }

    fn apply(&mut self, seat: Seat, action: &Attack) -> Result<Shot, IllegalMove> {
        if self.loser().is_some() {
            return Err(IllegalMove("the game is over".into()));
        }
        if seat != self.next {
            return Err(IllegalMove(format!("it is seat {}'s turn, not seat {seat}'s", self.next)));
        }
        let x = coordinate("x", action.x)?;
        let y = coordinate("y", action.y)?;
        self.sides[seat].shots = self.sides[seat].shots.saturating_add(1);
        let square = bit(x, y);
        let target = &mut self.sides[1 - seat];
        let shot = if target.attacked & square != 0 {
            Shot::AlreadyAttacked
        } else {
            target.attacked |= square;
            match target.masks.iter().position(|&mask| mask & square != 0) {
                None => Shot::Miss,
                Some(i) if target.masks[i] & !target.attacked == 0 => {
                    Shot::Sunk { ship: target.fleet[i] }
                }
                Some(_) => Shot::Hit,
            }
        };
        target.record(square, &shot);
        if matches!(shot, Shot::Miss | Shot::AlreadyAttacked) {
            self.next = 1 - seat;
        }
        Ok(shot)
    }

    fn status(&self) -> Status {
        match self.loser() {
            None => Status::Ongoing,
            Some(loser) => {
                let winner = 1 - loser;
                let shots = self.sides[winner].shots;
                Status::Over(Ending {
                    winner: Some(winner),
                    reason: format!("sank the whole fleet in {shots} shots"),
                })
            }
        }
    }

    fn is_wasteful(&self, response: &Shot) -> bool {
        *response == Shot::AlreadyAttacked
    }

    fn render(&self) -> String {
        render::game(self)
    }

    fn render_view(view: &BattleshipsView) -> String {
        render::view(view)
    }

    fn picture(&self) -> Option<Picture> {
        Some(picture::picture(self))
    }

    fn action_cells(&self, seat: Seat, action: &Attack) -> Vec<Spot> {
        picture::attacked(seat, action).into_iter().collect()
    }

    fn text_cell(&self, spot: Spot) -> Option<TextCell> {
        render::cell(self, spot)
    }

    // A bot draws on the fleet it fires at: its `targets` view.
    fn drawing_grid(seat: Seat) -> usize {
        picture::target_grid(seat).unwrap_or(0)
    }

    fn parse_action(text: &str) -> Result<Attack, String> {
        parse_attack(text)
    }

    // A hint is the density player: the square most placements of the ships left cover.
    const HINT_PLAYER: Option<&'static str> = Some("density");

    fn reference_players() -> &'static [ReferencePlayer<Self>] {
        &opponents::REFERENCE_PLAYERS
    }
}

/// What `parse_action` accepts, for its error message.
const ACCEPTED_FORMS: &str = "expected `x y` or `x,y` with x and y in 0–9 (e.g. `3 7`, `attack(3, 7)`), \
     or a square like `d8` (column a–j, row 1–10)";

/// Parses `3 7`, `3,7`, `(3, 7)`, `attack(3, 7)` or `d8` (= `3 7`).
fn parse_attack(text: &str) -> Result<Attack, String> {
    let trimmed = text.trim();
    // Nothing typed is quoted as nothing: the forms alone (what `help` shows).
    let refuse = || match trimmed {
        "" => ACCEPTED_FORMS.to_owned(),
        _ => format!("{ACCEPTED_FORMS}; got `{trimmed}`"),
    };
    if let Some(attack) = parse_square(trimmed) {
        return attack.map_err(|problem| format!("{problem}: {ACCEPTED_FORMS}"));
    }
    let inner = trimmed.strip_prefix("attack").unwrap_or(trimmed).trim_start();
    let inner = inner.strip_prefix('(').and_then(|rest| rest.strip_suffix(')')).unwrap_or(inner);
    let parts: Vec<&str> = if inner.contains(',') {
        inner.split(',').map(str::trim).collect()
    } else {
        inner.split_whitespace().collect()
    };
    let [x, y] = parts.as_slice() else { return Err(refuse()) };
    let (Ok(x), Ok(y)) = (x.parse::<i32>(), y.parse::<i32>()) else { return Err(refuse()) };
    for (name, value) in [("x", x), ("y", y)] {
        coordinate(name, value).map_err(|illegal| format!("{illegal}: got {value}"))?;
    }
    Ok(Attack { x, y })
}

/// Parses a chess-like square (`d8`); `None` when `text` is not shaped like one, `Some(Err)`
/// when it is but names no square.
fn parse_square(text: &str) -> Option<Result<Attack, String>> {
    let mut chars = text.chars();
    let column = chars.next()?.to_ascii_lowercase();
    let row = chars.as_str();
    if !column.is_ascii_alphabetic() || row.is_empty() || !row.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let x = i32::from(column as u8) - i32::from(b'a');
    let y = row.parse::<i32>().map_or(-1, |row| row - 1);
    Some(if !(0..BOARD_SIZE as i32).contains(&x) {
        Err(format!("column `{column}` is not a–j"))
    } else if !(0..BOARD_SIZE as i32).contains(&y) {
        Err(format!("row {row} is not 1–10"))
    } else {
        Ok(Attack { x, y })
    })
}

/// The JSON shape of a game state (see the crate docs).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StateJson {
    to_move: Seat,
    players: Vec<SideJson>,
}

/// One seat in [`StateJson`].
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SideJson {
    fleet: Vec<Ship>,
    attacked: String,
    shots: u32,
}

impl From<Battleships> for StateJson {
    fn from(game: Battleships) -> StateJson {
        StateJson {
            to_move: game.next,
            players: game
                .sides
                .into_iter()
                .map(|side| SideJson {
                    attacked: (0..CELLS)
                        .map(|cell| if side.attacked >> cell & 1 == 1 { '*' } else { '.' })
                        .collect(),
                    fleet: side.fleet,
                    shots: side.shots,
                })
                .collect(),
        }
    }
}

impl TryFrom<StateJson> for Battleships {
    type Error = SetupError;

    fn try_from(state: StateJson) -> Result<Battleships, SetupError> {
        let Ok([a, b]) = <[SideJson; 2]>::try_from(state.players) else {
            return Err(SetupError::State("a battleships state has exactly 2 players".into()));
        };
        let attacked = [parse_attacked(0, &a.attacked)?, parse_attacked(1, &b.attacked)?];
        let shots = [a.shots, b.shots];
        let mut game = Battleships::with_fleets([a.fleet, b.fleet], state.to_move)?;
        for (side, (attacked, shots)) in game.sides.iter_mut().zip(attacked.into_iter().zip(shots))
        {
            side.set_attacked(attacked);
            side.shots = shots;
        }
        Ok(game)
    }
}

/// Reads a seat's `attacked` grid string.
fn parse_attacked(seat: Seat, grid: &str) -> Result<Mask, SetupError> {
    let bad = |what: String| SetupError::State(format!("players[{seat}].attacked: {what}"));
    if grid.chars().count() != CELLS {
        return Err(bad(format!("expected {CELLS} characters, got {}", grid.chars().count())));
    }
    grid.chars().enumerate().try_fold(0, |mask, (cell, c)| match c {
        '*' => Ok(mask | 1 << cell),
        '.' => Ok(mask),
        other => Err(bad(format!("unexpected `{other}` (use `*` attacked, `.` not)"))),
    })
}

#[cfg(test)]
mod tests {
    use botlens_engine::{
        FailureKind, MatchLimits, PlayerInfo, SeatResult, Trace, runner::play_match,
    };
    use botlens_protocol::battleships::Direction;
    use botlens_protocol::compact::Compact;

    use super::*;
    use crate::testing::{Idle, Scripted, standard_fleet, standard_game};

    fn at(x: i32, y: i32) -> Attack {
        Attack { x, y }
    }

    #[test]
    fn a_hit_keeps_the_turn_and_a_miss_passes_it() {
        let mut game = standard_game(0);
        assert_eq!(game.apply(0, &at(0, 0)), Ok(Shot::Hit));
        assert_eq!(game.to_move(), 0);
        assert_eq!(game.apply(0, &at(5, 5)), Ok(Shot::Miss));
        assert_eq!(game.to_move(), 1);
        assert_eq!(game.apply(1, &at(3, 2)), Ok(Shot::Hit));
        assert_eq!(game.to_move(), 1);
        assert_eq!((game.shots_fired(0), game.shots_fired(1)), (2, 1));
    }

    #[test]
    fn sinking_a_ship_reports_it_and_keeps_the_turn() {
        let mut game = standard_game(1);
        assert_eq!(game.apply(1, &at(0, 6)), Ok(Shot::Hit));
        let cruiser =
            Ship { kind: ShipKind::Cruiser, size: 2, x: 0, y: 6, direction: Direction::Horizontal };
        assert_eq!(game.apply(1, &at(1, 6)), Ok(Shot::Sunk { ship: cruiser }));
        assert_eq!(game.to_move(), 1);
        assert_eq!(game.apply(1, &at(9, 9)), Ok(Shot::Sunk { ship: standard_fleet()[6] }));
        let view = game.view(1);
        assert_eq!(&view.targets[60..62], "##");
        assert_eq!(
            view.enemy_ships_left,
            [
                ShipKind::Carrier,
                ShipKind::Warship,
                ShipKind::Submarine,
                ShipKind::Cruiser,
                ShipKind::Patrol
            ]
        );
    }

    #[test]
    fn view_boards_show_every_square_as_the_protocol_defines() {
        for seed in 0..20 {
            let mut game = Battleships::new(&(), seed);
            let mut rng = SeedRng::new(seed, botlens_engine::Stream::Setup);
            while game.status() == Status::Ongoing {
                for seat in 0..2 {
                    let (view, own, enemy) =
                        (game.view(seat), &game.sides[seat], &game.sides[1 - seat]);
                    let sunk = enemy.sunk();
                    let afloat: Vec<ShipKind> = (enemy.fleet.iter().zip(&enemy.masks))
                        .filter(|&(_, &mask)| mask & !enemy.attacked != 0)
                        .map(|(ship, _)| ship.kind)
                        .collect();
                    assert_eq!(view.enemy_ships_left, afloat, "seed {seed}: the ships left");
                    for cell in 0..CELLS {
                        let square = 1u128 << cell;
                        let target =
                            match (enemy.attacked & square, sunk & square, enemy.ships & square) {
                                (0, _, _) => '.',
                                (_, 0, 0) => 'o',
                                (_, 0, _) => 'x',
                                _ => '#',
                            };
                        let mine = match (own.ships & square, own.attacked & square) {
                            (0, 0) => '.',
                            (0, _) => 'o',
                            (_, 0) => 'S',
                            _ => 'X',
                        };
                        assert_eq!(
                            view.targets.as_bytes()[cell],
                            target as u8,
                            "seed {seed} cell {cell}"
                        );
                        assert_eq!(
                            view.own.as_bytes()[cell],
                            mine as u8,
                            "seed {seed} cell {cell}"
                        );
                    }
                    for (encoding, built) in
                        [(Encoding::Json, view.to_wire()), (Encoding::Compact, view.to_compact())]
                    {
                        let mut written = Vec::new();
                        game.write_view(seat, encoding, &mut written);
                        assert_eq!(written, built, "seed {seed}: the {encoding:?} view written");
                    }
                }
                let seat = game.to_move();
                let cell =
                    board::random_square(!game.sides[1 - seat].attacked & board::FULL, &mut rng)
                        .expect("a square is left while the game goes on");
                let (x, y) = (cell as i32 % 10, cell as i32 / 10);
                game.apply(seat, &Attack { x, y }).expect("legal");
            }
        }
    }

    #[test]
    fn the_placeholders_view_written_is_its_view_encoded_all_unknown() {
        let placeholder = Battleships::default();
        let view = placeholder.view(0);
        assert_eq!(view.targets, ".".repeat(CELLS));
        assert_eq!(view.own, ".".repeat(CELLS));
        for (encoding, built) in
            [(Encoding::Json, view.to_wire()), (Encoding::Compact, view.to_compact())]
        {
            let mut written = Vec::new();
            placeholder.write_view(0, encoding, &mut written);
            assert_eq!(written, built, "the {encoding:?} view written");
        }
    }

    #[test]
    fn re_attacking_passes_the_turn_is_wasteful_and_counts_nothing() {
        let mut game = standard_game(0);
        assert_eq!(game.apply(0, &at(0, 8)), Ok(Shot::Hit));
        let before = game.view(0).targets;
        assert_eq!(game.apply(0, &at(0, 8)), Ok(Shot::AlreadyAttacked));
        assert!(game.is_wasteful(&Shot::AlreadyAttacked));
        assert!(!game.is_wasteful(&Shot::Miss));
        assert_eq!(game.to_move(), 1);
        assert_eq!(game.view(0).targets, before);
        assert_eq!(game.shots_fired(0), 2, "a re-attack is still a shot fired");
        // Hitting the same square again never sinks the two-square cruiser.
        game.apply(1, &at(5, 5)).expect("legal");
        assert_eq!(game.apply(0, &at(0, 8)), Ok(Shot::AlreadyAttacked));
        game.apply(1, &at(5, 6)).expect("legal");
        assert!(matches!(game.apply(0, &at(1, 8)), Ok(Shot::Sunk { .. })));
    }

    #[test]
    fn out_of_range_coordinates_are_illegal_and_leave_the_state() {
        let game = standard_game(0);
        for (attack, message) in [
            (at(10, 3), "x out of range 0..=9"),
            (at(-1, 3), "x out of range 0..=9"),
            (at(3, 10), "y out of range 0..=9"),
            (at(3, -1), "y out of range 0..=9"),
            (at(i32::MIN, i32::MAX), "x out of range 0..=9"),
        ] {
            let mut after = game.clone();
            assert_eq!(after.apply(0, &attack), Err(IllegalMove(message.into())), "{attack}");
            assert_eq!(after, game, "{attack} changed the state");
        }
    }

    #[test]
    fn moving_out_of_turn_or_after_the_end_is_refused() {
        let mut game = standard_game(0);
        let refused = game.apply(1, &at(0, 0));
        assert_eq!(refused, Err(IllegalMove("it is seat 0's turn, not seat 1's".into())));
        assert!(game.apply(7, &at(0, 0)).is_err());
        for ship in standard_fleet() {
            for (x, y) in ship.cells() {
                game.apply(0, &at(x as i32, y as i32)).expect("legal");
            }
        }
        assert_eq!(game.apply(0, &at(5, 5)), Err(IllegalMove("the game is over".into())));
    }

    /// A seed whose game starts with seat 0 to move.
    fn seat_0_first() -> u64 {
        (0..).find(|&seed| Battleships::new(&(), seed).to_move() == 0).expect("some seed")
    }

    #[test]
    fn a_second_attack_in_one_turn_loses_through_the_runner() {
        let mut double = Scripted::new(vec![vec![at(5, 5), at(6, 6)]]);
        let record = play_match::<Battleships>(
            &(),
            seat_0_first(),
            &mut [&mut double, &mut Idle],
            &MatchLimits::default(),
        );
        let fault = record.outcome.fault.clone().expect("a fault");
        assert_eq!((fault.seat, fault.failure.kind), (0, FailureKind::SecondMove));
        assert_eq!(record.result_for(0), SeatResult::Loss);
        assert_eq!(record.last.shots_fired(0), 1, "the second attack is not applied");
    }

    #[test]
    fn an_out_of_range_attack_loses_through_the_runner_with_the_rule() {
        let mut wild = Scripted::new(vec![vec![at(10, 3)]]);
        let record = play_match::<Battleships>(
            &(),
            seat_0_first(),
            &mut [&mut wild, &mut Idle],
            &MatchLimits::default(),
        );
        let failure = record.outcome.fault.expect("a fault").failure;
        assert_eq!(failure.kind, FailureKind::IllegalMove);
        assert_eq!(failure.message, "illegal move attack(10, 3): x out of range 0..=9");
    }

    #[test]
    fn sinking_the_whole_fleet_wins() {
        let seed = seat_0_first();
        let target = Battleships::new(&(), seed).fleet(1).to_vec();
        // One attack per turn; every one hits, so seat 0 keeps the turn to the end.
        let turns: Vec<Vec<Attack>> = target
            .iter()
            .flat_map(|ship| ship.cells().collect::<Vec<_>>())
            .map(|(x, y)| vec![at(x as i32, y as i32)])
            .collect();
        let mut sharpshooter = Scripted::new(turns);
        let record = play_match::<Battleships>(
            &(),
            seed,
            &mut [&mut sharpshooter, &mut Idle],
            &MatchLimits::default(),
        );
        assert_eq!(record.outcome.winner, Some(0));
        assert_eq!(record.outcome.reason, "sank the whole fleet in 18 shots");
        assert_eq!(record.outcome.turns, 18);
        assert!(record.moves.iter().all(|m| m.seat == 0));
        let last = record.moves.last().and_then(|m| m.response);
        assert!(matches!(last, Some(Shot::Sunk { .. })), "{last:?}");
        assert_eq!(record.last.view(0).enemy_ships_left, vec![]);
    }

    #[test]
    fn the_turn_cap_of_400_ends_in_a_draw() {
        assert_eq!(Battleships::DEFAULT_TURN_CAP, 400);
        let record =
            play_match::<Battleships>(&(), 5, &mut [&mut Idle, &mut Idle], &MatchLimits::default());
        assert_eq!(record.outcome.winner, None);
        assert_eq!(record.outcome.reason, "move cap of 400 reached");
        assert_eq!(record.outcome.turns, 400);
        assert_eq!(record.result_for(1), SeatResult::Draw);
        assert_eq!(record.wasteful_turns(0).len() + record.wasteful_turns(1).len(), 398);
    }

    #[test]
    fn setup_comes_from_the_seed_and_differs_between_seeds() {
        let a = Battleships::new(&(), 42);
        assert_eq!(a, Battleships::new(&(), 42));
        assert_ne!(a.fleet(0), a.fleet(1), "the two seats get their own fleets");
        let distinct: std::collections::HashSet<Vec<Ship>> =
            (0..200).map(|seed| Battleships::new(&(), seed).fleet(0).to_vec()).collect();
        assert_eq!(distinct.len(), 200);
        let first_seat_0 = (0..1_000).filter(|&s| Battleships::new(&(), s).to_move() == 0).count();
        assert!((430..570).contains(&first_seat_0), "seat 0 first in {first_seat_0} of 1000");
    }

    #[test]
    fn same_seed_gives_a_byte_identical_trace() {
        let trace = |seed: u64| {
            let players = Battleships::reference_players();
            let (hunter, density) = (players[1], players[3]);
            let mut a = (hunter.create)(SeedRng::new(seed, Stream::Player(0)));
            let mut b = (density.create)(SeedRng::new(seed, Stream::Player(1)));
            let record = play_match::<Battleships>(
                &(),
                seed,
                &mut [a.as_mut(), b.as_mut()],
                &MatchLimits::default(),
            );
            let info =
                vec![PlayerInfo::reference(hunter.name), PlayerInfo::reference(density.name)];
            record
                .to_trace(info, serde_json::to_value(MatchLimits::default()).expect("json"))
                .to_json()
        };
        let text = trace(17);
        assert_eq!(text, trace(17));
        assert_ne!(text, trace(18));
        // The trace reads back and every move replays to the recorded answer.
        let record =
            Trace::from_json(&text).expect("parses").decode::<Battleships>().expect("replays");
        assert_eq!(record.seed, 17);
        assert!(record.last.status() != Status::Ongoing);
    }

    #[test]
    fn the_state_json_has_the_documented_shape_and_round_trips() {
        let mut game = standard_game(1);
        game.apply(1, &at(2, 0)).expect("legal");
        let json = serde_json::to_value(&game).expect("serializes");
        assert_eq!(json["to_move"], 1);
        assert_eq!(
            json["players"][1]["fleet"][0],
            serde_json::json!({"kind": "carrier", "size": 5, "x": 0, "y": 0, "direction": "horizontal"})
        );
        let attacked = json["players"][0]["attacked"].as_str().expect("a string");
        assert_eq!(attacked, format!("..*{}", ".".repeat(97)));
        assert_eq!(
            (json["players"][0]["shots"].clone(), json["players"][1]["shots"].clone()),
            (0.into(), 1.into())
        );
        let back: Battleships = serde_json::from_value(json).expect("deserializes");
        assert_eq!(back, game);
    }

    #[test]
    fn a_malformed_state_is_refused_with_a_reason() {
        let json = serde_json::to_value(standard_game(0)).expect("serializes");
        let refuse = |edit: &dyn Fn(&mut serde_json::Value)| {
            let mut json = json.clone();
            edit(&mut json);
            serde_json::from_value::<Battleships>(json).expect_err("refused").to_string()
        };
        assert_eq!(refuse(&|j| j["to_move"] = 2.into()), "seat 2 cannot move: seats are 0 and 1");
        assert_eq!(
            refuse(&|j| j["players"][0]["fleet"][6]["y"] = 1.into()),
            "ships 5 and 6 touch (ships need a square of water between them)"
        );
        assert_eq!(
            refuse(&|j| j["players"][1]["fleet"][0]["y"] = 12.into()),
            "ship 0 (carrier) at (0, 12) leaves the 10×10 grid"
        );
        assert_eq!(
            refuse(&|j| j["players"][1]["attacked"] = "**".into()),
            "players[1].attacked: expected 100 characters, got 2"
        );
        assert_eq!(
            refuse(&|j| j["players"][0]["attacked"] = "x".repeat(100).into()),
            "players[0].attacked: unexpected `x` (use `*` attacked, `.` not)"
        );
        let one_player = refuse(&|j| j["players"].as_array_mut().expect("array").truncate(1));
        assert_eq!(one_player, "a battleships state has exactly 2 players");
        assert!(refuse(&|j| j["extra"] = 1.into()).contains("unknown field `extra`"));
    }

    #[test]
    fn parse_action_accepts_pairs_calls_and_squares() {
        for text in ["3 7", "3,7", " 3 , 7 ", "(3, 7)", "attack(3, 7)", "d8", "D8"] {
            assert_eq!(Battleships::parse_action(text), Ok(at(3, 7)), "{text}");
        }
        assert_eq!(Battleships::parse_action("a1"), Ok(at(0, 0)));
        assert_eq!(Battleships::parse_action("j10"), Ok(at(9, 9)));
    }

    #[test]
    fn parse_action_explains_the_accepted_forms() {
        let forms = "expected `x y` or `x,y` with x and y in 0–9 (e.g. `3 7`, `attack(3, 7)`), \
                     or a square like `d8` (column a–j, row 1–10)";
        assert_eq!(Battleships::parse_action("fire!"), Err(format!("{forms}; got `fire!`")));
        assert_eq!(Battleships::parse_action(""), Err(forms.to_owned()));
        assert_eq!(Battleships::parse_action("1 2 3"), Err(format!("{forms}; got `1 2 3`")));
        assert_eq!(
            Battleships::parse_action("99999999999 1"),
            Err(format!("{forms}; got `99999999999 1`"))
        );
        assert_eq!(Battleships::parse_action("10 3"), Err("x out of range 0..=9: got 10".into()));
        assert_eq!(Battleships::parse_action("3,-1"), Err("y out of range 0..=9: got -1".into()));
        assert_eq!(Battleships::parse_action("k5"), Err(format!("column `k` is not a–j: {forms}")));
        assert_eq!(Battleships::parse_action("d11"), Err(format!("row 11 is not 1–10: {forms}")));
        assert_eq!(Battleships::parse_action("d0"), Err(format!("row 0 is not 1–10: {forms}")));
    }

    #[test]
    fn the_view_hides_the_enemy_fleet() {
        let game = Battleships::new(&(), 3);
        let view = game.view(0);
        assert_eq!(view.targets, ".".repeat(100));
        assert_eq!(view.own.matches('S').count(), 18);
        assert_eq!(view.enemy_ships_left, FLEET);
        assert_eq!(view.shots, 0);
    }
}
