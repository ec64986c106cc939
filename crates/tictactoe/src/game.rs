//! The rules: [`TicTacToe`], its state, and its [`Game`] implementation.
//!
//! Text (rendering boards, parsing typed moves) lives in `text`, the board as a picture in
//! `picture`, the reference opponents in `players`; this module only decides what is legal and
//! how a game ends.

use botlens_engine::picture::{Picture, Spot, TextCell};
use botlens_engine::{Ending, Game, IllegalMove, ReferencePlayer, Seat, SeedRng, Status, Stream};
use botlens_protocol::tictactoe::{Mark, Marked, Side, TicTacToeView};
use serde::{Deserialize, Serialize};

use crate::board::{Board, square_of};
use crate::{picture, players, text};

/// A game of Tic-tac-toe: the board and which seat plays X.
///
/// X moves first; the seed decides which seat plays X (stream
/// [`Stream::FirstMover`]), so a suite over many seeds plays both sides. A move is
/// `mark(x, y)` with 0-based column `x` and row `y`. Three in a row wins; a full board without
/// a line is a draw.
///
/// As JSON (the trace's `initial_state`): `{"board": "X...O....", "x_seat": 1}`, the board
/// row-major with `X`, `O` and `.`. Only positions that legal play can reach deserialize.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "StoredGame", into = "StoredGame")]
pub struct TicTacToe {
    board: Board,
    x_seat: Seat,
}

/// The JSON shape of [`TicTacToe`], checked on the way in.
#[derive(Serialize, Deserialize)]
struct StoredGame {
    board: String,
    x_seat: Seat,
}

impl From<TicTacToe> for StoredGame {
    fn from(game: TicTacToe) -> Self {
        StoredGame { board: game.board.text(), x_seat: game.x_seat }
    }
}

impl TryFrom<StoredGame> for TicTacToe {
    type Error = String;

    fn try_from(stored: StoredGame) -> Result<Self, String> {
        if stored.x_seat > 1 {
            return Err(format!("x_seat must be 0 or 1, not {}", stored.x_seat));
        }
        Ok(TicTacToe { board: Board::parse(&stored.board)?, x_seat: stored.x_seat })
    }
}

impl TicTacToe {
    /// The seat that plays X (and so moves first).
    pub fn x_seat(&self) -> Seat {
        self.x_seat
    }

    /// The side `seat` plays.
    pub fn side_of(&self, seat: Seat) -> Side {
        if seat == self.x_seat { Side::X } else { Side::O }
    }

    /// The seat that plays `side`.
    fn seat_of(&self, side: Side) -> Seat {
        match side {
            Side::X => self.x_seat,
            Side::O => 1 - self.x_seat,
        }
    }

    /// The board string: 9 characters, row-major, `X`, `O` or `.`.
    pub fn board(&self) -> String {
        self.board.text()
    }

    /// `seat 0 plays X, seat 1 plays O`.
    fn sides_line(&self) -> String {
        format!("seat {} plays X, seat {} plays O", self.x_seat, 1 - self.x_seat)
    }

    /// The board itself, for the oracle and tests that walk positions.
    pub(crate) fn squares(&self) -> &Board {
        &self.board
    }
}

static REFERENCE_PLAYERS: [ReferencePlayer<TicTacToe>; 2] = [
    ReferencePlayer {
        name: "random",
        summary: "marks a uniformly random empty square",
        create: players::random,
    },
    ReferencePlayer {
        name: "perfect",
        summary: "minimax: never loses, wins as fast as it can, varies among equal moves",
        create: players::perfect,
    },
];

#[cfg(test)]
impl TicTacToe {
    /// The game at `board`, seat 0 playing X.
    pub(crate) fn with_board(board: Board) -> TicTacToe {
        TicTacToe { board, x_seat: 0 }
    }
}

impl Game for TicTacToe {
    const NAME: &'static str = "tictactoe";
    const DEFAULT_TURN_CAP: u32 = 9;
    type Config = ();
    type Action = Mark;
    type Response = Marked;
    type View = TicTacToeView;

    fn new(_config: &(), seed: u64) -> Self {
        let x_seat = SeedRng::new(seed, Stream::FirstMover).index(2);
        TicTacToe { board: Board::default(), x_seat }
    }

    fn seats(&self) -> usize {
        2
    }

    fn to_move(&self) -> Seat {
        self.seat_of(self.board.side_to_move())
    }

    fn view(&self, seat: Seat) -> TicTacToeView {
        TicTacToeView { board: self.board(), you: self.side_of(seat) }
    }

    fn apply(&mut self, seat: Seat, mark: &Mark) -> Result<Marked, IllegalMove> {
        if self.status() != Status::Ongoing {
            return Err(IllegalMove("the game is over".into()));
        }
        let to_move = self.to_move();
        if seat != to_move {
            return Err(IllegalMove(format!("it is seat {to_move}'s turn, not seat {seat}'s")));
        }
        let square = square_of(mark)?;
        if let Some(side) = self.board.get(square) {
            let taken = side.to_char();
            return Err(IllegalMove(format!(
                "square ({}, {}) is taken by {taken}",
                mark.x, mark.y
            )));
        }
        self.board.set(square, self.side_of(seat));
        Ok(Marked { board: self.board() })
    }

    fn status(&self) -> Status {
        if let Some((side, line)) = self.board.completed_line() {
            let reason = format!("three in a row: {}", line.name);
            return Status::Over(Ending { winner: Some(self.seat_of(side)), reason });
        }
        if self.board.is_full() {
            return Status::Over(Ending {
                winner: None,
                reason: "board full, no three in a row".into(),
            });
        }
        Status::Ongoing
    }

    fn render(&self) -> String {
        format!("{}{}\n", text::board(&self.board), self.sides_line())
    }

    fn render_view(view: &TicTacToeView) -> String {
        format!("{}you play {}\n", text::board(&Board::from_view(view)), view.you.to_char())
    }

    fn picture(&self) -> Option<Picture> {
        Some(picture::picture(&self.board, self.sides_line()))
    }

    fn action_cells(&self, _seat: Seat, mark: &Mark) -> Vec<Spot> {
        picture::marked(mark).into_iter().collect()
    }

    fn text_cell(&self, spot: Spot) -> Option<TextCell> {
        text::cell(spot)
    }

    fn parse_action(input: &str) -> Result<Mark, String> {
        text::parse_mark(input)
    }

    // A hint is the perfect player: a move that keeps the best result.
    const HINT_PLAYER: Option<&'static str> = Some("perfect");

    fn reference_players() -> &'static [ReferencePlayer<Self>] {
        &REFERENCE_PLAYERS
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::collections::HashSet;

    use botlens_engine::{MatchLimits, PlayerInfo, runner::play_match};

    use super::*;

    /// A game in progress with `x_seat` playing X and `moves` (x, y) made alternately from X.
    pub(crate) fn position(x_seat: Seat, moves: &[(i32, i32)]) -> TicTacToe {
        let mut game = TicTacToe { board: Board::default(), x_seat };
        for &(x, y) in moves {
            let seat = game.to_move();
            game.apply(seat, &Mark { x, y }).expect("scripted moves are legal");
        }
        game
    }

    fn mark(x: i32, y: i32) -> Mark {
        Mark { x, y }
    }

    fn ending(game: &TicTacToe) -> Ending {
        match game.status() {
            Status::Over(ending) => ending,
            Status::Ongoing => panic!("game still going:\n{}", game.render()),
        }
    }

    #[test]
    fn a_new_game_is_empty_and_the_seed_decides_who_plays_x() {
        let mut sides = HashSet::new();
        for seed in 0..32 {
            let game = TicTacToe::new(&(), seed);
            assert_eq!(game.board(), ".........");
            assert_eq!(game.x_seat(), SeedRng::new(seed, Stream::FirstMover).index(2));
            assert_eq!(game.to_move(), game.x_seat(), "X moves first");
            assert_eq!(game.status(), Status::Ongoing);
            sides.insert(game.x_seat());
        }
        assert_eq!(sides, HashSet::from([0, 1]), "both seats play X across seeds");
    }

    #[test]
    fn sides_alternate_and_the_response_is_the_board_after_the_mark() {
        let mut game = position(1, &[]);
        assert_eq!(game.apply(1, &mark(1, 1)), Ok(Marked { board: "....X....".into() }));
        assert_eq!(game.to_move(), 0);
        assert_eq!(game.apply(0, &mark(2, 0)), Ok(Marked { board: "..O.X....".into() }));
        assert_eq!(game.to_move(), 1);
        assert_eq!((game.side_of(0), game.side_of(1)), (Side::O, Side::X));
    }

    #[test]
    fn a_taken_square_is_illegal_and_changes_nothing() {
        let mut game = position(0, &[(1, 1)]);
        let before = game.clone();
        let err = game.apply(1, &mark(1, 1)).unwrap_err();
        assert_eq!(err.0, "square (1, 1) is taken by X");
        assert_eq!(game, before);
        let mut game = position(0, &[(1, 1), (0, 2)]);
        assert_eq!(game.apply(0, &mark(0, 2)).unwrap_err().0, "square (0, 2) is taken by O");
    }

    #[test]
    fn out_of_range_squares_are_illegal_and_change_nothing() {
        let cases = [
            (mark(-1, 0), "x out of range 0..=2"),
            (mark(3, 1), "x out of range 0..=2"),
            (mark(0, 3), "y out of range 0..=2"),
            (mark(2, -7), "y out of range 0..=2"),
            (mark(i32::MIN, i32::MAX), "x out of range 0..=2"),
        ];
        for (action, rule) in cases {
            let mut game = position(0, &[(0, 0)]);
            let before = game.clone();
            assert_eq!(game.apply(1, &action).unwrap_err().0, rule, "{action}");
            assert_eq!(game, before);
        }
    }

    #[test]
    fn moving_out_of_turn_or_after_the_end_is_illegal() {
        let mut game = position(0, &[]);
        assert_eq!(game.apply(1, &mark(0, 0)).unwrap_err().0, "it is seat 0's turn, not seat 1's");
        let mut over = position(0, &[(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)]);
        let before = over.clone();
        assert_eq!(over.apply(1, &mark(2, 2)).unwrap_err().0, "the game is over");
        assert_eq!(over, before);
    }

    #[test]
    fn each_of_the_eight_lines_wins_and_is_named() {
        // X takes the line; O answers on squares off it (the first two free ones).
        let lines: [(&[(i32, i32); 3], &str); 8] = [
            (&[(0, 0), (1, 0), (2, 0)], "row 0"),
            (&[(0, 1), (1, 1), (2, 1)], "row 1"),
            (&[(0, 2), (1, 2), (2, 2)], "row 2"),
            (&[(0, 0), (0, 1), (0, 2)], "column 0"),
            (&[(1, 0), (1, 1), (1, 2)], "column 1"),
            (&[(2, 0), (2, 1), (2, 2)], "column 2"),
            (&[(0, 0), (1, 1), (2, 2)], "diagonal (0, 0)-(2, 2)"),
            (&[(2, 0), (1, 1), (0, 2)], "diagonal (2, 0)-(0, 2)"),
        ];
        for (squares, name) in lines {
            let mut off = (0..9).map(|i| (i % 3, i / 3)).filter(|sq| !squares.contains(sq));
            let (o1, o2) = (off.next().unwrap(), off.next().unwrap());
            let game = position(1, &[squares[0], o1, squares[1], o2, squares[2]]);
            let ending = ending(&game);
            assert_eq!(ending.reason, format!("three in a row: {name}"));
            assert_eq!(ending.winner, Some(1), "seat 1 plays X here");
        }
    }

    #[test]
    fn o_wins_with_a_line_too() {
        let game = position(0, &[(0, 0), (2, 0), (1, 0), (1, 1), (2, 2), (0, 2)]);
        assert_eq!(
            ending(&game),
            Ending { winner: Some(1), reason: "three in a row: diagonal (2, 0)-(0, 2)".into() }
        );
    }

    #[test]
    fn a_full_board_without_a_line_is_a_draw() {
        // X O X / X O O / O X X
        let game =
            position(0, &[(0, 0), (1, 0), (2, 0), (1, 1), (0, 1), (2, 1), (1, 2), (0, 2), (2, 2)]);
        assert_eq!(game.board(), "XOXXOOOXX");
        assert_eq!(
            ending(&game),
            Ending { winner: None, reason: "board full, no three in a row".into() }
        );
    }

    #[test]
    fn a_line_on_the_ninth_move_wins_rather_than_draws() {
        // X O X / O X O / O X X: the ninth mark, X at (2, 2), completes the diagonal.
        let game =
            position(0, &[(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1), (1, 2), (0, 2), (2, 2)]);
        assert!(game.squares().is_full());
        assert_eq!(ending(&game).winner, Some(0));
        assert_eq!(ending(&game).reason, "three in a row: diagonal (0, 0)-(2, 2)");
    }

    #[test]
    fn each_seat_sees_the_board_and_its_own_side() {
        let game = position(1, &[(2, 2)]);
        assert_eq!(game.view(0), TicTacToeView { board: "........X".into(), you: Side::O });
        assert_eq!(game.view(1), TicTacToeView { board: "........X".into(), you: Side::X });
    }

    #[test]
    fn the_state_round_trips_through_json() {
        let game = position(1, &[(1, 1), (0, 0)]);
        let json = serde_json::to_string(&game).unwrap();
        assert_eq!(json, r#"{"board":"O...X....","x_seat":1}"#);
        assert_eq!(serde_json::from_str::<TicTacToe>(&json).unwrap(), game);
    }

    #[test]
    fn a_loaded_state_that_play_cannot_reach_is_refused() {
        let cases = [
            (r#"{"board":".........","x_seat":2}"#, "x_seat must be 0 or 1, not 2"),
            (r#"{"board":"XX.......","x_seat":0}"#, "X has 2 marks and O has 0"),
            (r#"{"board":"XO","x_seat":0}"#, "is not 9 characters of X, O or ."),
        ];
        for (json, message) in cases {
            let err = serde_json::from_str::<TicTacToe>(json).unwrap_err().to_string();
            assert!(err.contains(message), "{json}: {err}");
        }
    }

    /// Every position reachable from the empty board by legal play, stopping at the end.
    fn reachable_positions() -> HashSet<String> {
        fn walk(game: &TicTacToe, seen: &mut HashSet<String>) {
            if !seen.insert(game.board()) || game.status() != Status::Ongoing {
                return;
            }
            for square in game.squares().empty_squares() {
                let mut next = game.clone();
                let action = mark((square % 3) as i32, (square / 3) as i32);
                next.apply(next.to_move(), &action).expect("empty squares are legal");
                walk(&next, seen);
            }
        }
        let mut seen = HashSet::new();
        walk(&position(0, &[]), &mut seen);
        seen
    }

    #[test]
    fn legal_play_reaches_5478_positions() {
        assert_eq!(reachable_positions().len(), 5478);
    }

    #[test]
    fn a_board_loads_exactly_when_legal_play_reaches_it() {
        let reachable = reachable_positions();
        let loadable: HashSet<String> = (0..crate::board::CODES)
            .map(|code| Board::from_code(code).to_string())
            .filter(|text| Board::parse(text).is_ok())
            .collect();
        assert_eq!(loadable, reachable);
    }

    #[test]
    fn there_are_255168_possible_games() {
        fn games(game: &TicTacToe) -> u64 {
            if game.status() != Status::Ongoing {
                return 1;
            }
            (0..9)
                .filter_map(|square| {
                    let mut next = game.clone();
                    next.apply(next.to_move(), &mark(square % 3, square / 3)).ok().map(|_| next)
                })
                .map(|next| games(&next))
                .sum()
        }
        assert_eq!(games(&position(0, &[])), 255_168);
    }

    #[test]
    fn the_reference_players_are_random_and_perfect() {
        let names: Vec<&str> = TicTacToe::reference_players().iter().map(|p| p.name).collect();
        assert_eq!(names, ["random", "perfect"]);
    }

    fn trace_json(seed: u64) -> String {
        let [random, perfect] = TicTacToe::reference_players() else { panic!("two players") };
        let mut a = (random.create)(SeedRng::new(seed, Stream::Player(0)));
        let mut b = (perfect.create)(SeedRng::new(seed, Stream::Player(1)));
        let record =
            play_match::<TicTacToe>(&(), seed, &mut [&mut *a, &mut *b], &MatchLimits::default());
        let players = vec![PlayerInfo::reference("random"), PlayerInfo::reference("perfect")];
        record.to_trace(players, serde_json::json!({})).to_json()
    }

    #[test]
    fn the_same_seed_gives_a_byte_identical_trace() {
        for seed in 0..8 {
            assert_eq!(trace_json(seed), trace_json(seed), "seed {seed}");
        }
        assert_ne!(trace_json(0), trace_json(1));
    }

    #[test]
    fn a_suite_plays_both_sides() {
        let first_movers: HashSet<Seat> = (0..16)
            .map(|seed| {
                let trace = botlens_engine::Trace::from_json(&trace_json(seed)).unwrap();
                let record = trace.decode::<TicTacToe>().expect("the trace replays");
                assert_eq!(record.first_mover, record.initial.x_seat());
                assert_eq!(record.moves[0].seat, record.first_mover);
                record.first_mover
            })
            .collect();
        assert_eq!(first_movers, HashSet::from([0, 1]));
    }
}
