//! The perfect oracle: the game-theoretic value of every board, from perfect play.
//!
//! The table of minimax values covers every board (indexed by its base-3 code) and is built once
//! per process from the fullest boards down (each child has one mark more than its parent, so it
//! is always solved first). Values favour faster wins and slower losses, which is how the
//! `perfect` player and the oracle's best move choose among moves of one outcome.
//!
//! [`Perfect`] judges a move by the outcome it throws away: a won position played to a draw
//! costs 1 outcome, to a loss 2; a drawn one played to a loss 1. Every such move is a
//! *blunder*.

use std::sync::OnceLock;

use botlens_engine::{Judgement, Oracle, Seat};
use botlens_protocol::tictactoe::Mark;

use crate::TicTacToe;
use crate::board::{Board, CODES, SIZE, square_of};

/// The minimax value of every board (indexed by [`Board::code`]) for the side to move: `n + 1`
/// for a win with `n` squares still empty, minus that for a loss, 0 for a draw.
pub(crate) fn values() -> &'static [i8] {
    static VALUES: OnceLock<Vec<i8>> = OnceLock::new();
    VALUES.get_or_init(|| {
        let mut values = vec![0; CODES];
        let mut order: Vec<Board> = (0..CODES).map(Board::from_code).collect();
        order.sort_by_key(|board| board.empty_squares().count());
        for board in order {
            values[board.code()] = value(&board, &values);
        }
        values
    })
}

/// The value of `board` given the values of every board with one more mark.
fn value(board: &Board, values: &[i8]) -> i8 {
    let mover = board.side_to_move();
    if let Some((side, _)) = board.completed_line() {
        let score = board.empty_squares().count() as i8 + 1;
        return if side == mover { score } else { -score };
    }
    board.empty_squares().map(|square| -values[board.code_with(square, mover)]).max().unwrap_or(0)
}

/// A position's outcome under perfect play, for the side it is valued for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Lost,
    Drawn,
    Won,
}

impl Outcome {
    fn of(value: i8) -> Outcome {
        match value.signum() {
            1 => Outcome::Won,
            -1 => Outcome::Lost,
            _ => Outcome::Drawn,
        }
    }

    fn word(self) -> &'static str {
        match self {
            Outcome::Lost => "lost",
            Outcome::Drawn => "drawn",
            Outcome::Won => "won",
        }
    }
}

/// Tic-tac-toe's oracle: perfect play (see the module's documentation).
#[derive(Debug, Clone, Copy, Default)]
pub struct Perfect;

impl Perfect {
    /// The value of `board` for the side to move, in the table's terms (`n + 1` for a win with
    /// `n` squares still empty, minus that for a loss, 0 for a draw).
    fn value(board: &Board) -> i8 {
        values()[board.code()]
    }

    /// The value for the mover of marking `square` (empty) on `board`.
    fn value_of_move(board: &Board, square: usize) -> i8 {
        -values()[board.code_with(square, board.side_to_move())]
    }
}

impl Oracle<TicTacToe> for Perfect {
    fn unit(&self) -> &'static str {
        "outcome"
    }

    fn mistake(&self) -> &'static str {
        "blunder"
    }

    fn judge(&self, before: &TicTacToe, _seat: Seat, mark: &Mark) -> Judgement<Mark> {
        let board = before.squares();
        let square = square_of(mark).expect("a legal mark is on the board");
        let then = Outcome::of(Self::value(board));
        let now = Outcome::of(Self::value_of_move(board, square));
        // The first best square in row-major order: faster wins and slower losses first.
        let best = board
            .empty_squares()
            .max_by_key(|&s| (Self::value_of_move(board, s), std::cmp::Reverse(s)))
            .expect("an ongoing game has an empty square");
        Judgement {
            cost: f64::from(then as u8 - now as u8),
            best: Mark { x: (best % SIZE) as i32, y: (best / SIZE) as i32 },
            before: then.word().into(),
            after: now.word().into(),
            loses: now == Outcome::Lost && then != Outcome::Lost,
        }
    }
}

/// Every board legal play reaches from the empty one, finished ones included.
#[cfg(test)]
fn reachable() -> Vec<Board> {
    let mut seen = vec![false; CODES];
    let mut boards = vec![Board::default()];
    seen[0] = true;
    let mut next = 0;
    while next < boards.len() {
        let board = boards[next];
        next += 1;
        if board.completed_line().is_some() {
            continue;
        }
        for square in board.empty_squares() {
            let code = board.code_with(square, board.side_to_move());
            if !std::mem::replace(&mut seen[code], true) {
                boards.push(Board::from_code(code));
            }
        }
    }
    boards
}

#[cfg(test)]
mod tests {
    use botlens_engine::{Game, Status};

    use super::*;
    use crate::game::tests::position;

    /// The outcome of `board` for the side to move by full search, without the table.
    fn searched(board: &Board) -> Outcome {
        let mover = board.side_to_move();
        if let Some((side, _)) = board.completed_line() {
            return if side == mover { Outcome::Won } else { Outcome::Lost };
        }
        let children = board.empty_squares().map(|square| {
            let mut child = *board;
            child.set(square, mover);
            match searched(&child) {
                Outcome::Won => Outcome::Lost,
                Outcome::Lost => Outcome::Won,
                Outcome::Drawn => Outcome::Drawn,
            }
        });
        children.max().unwrap_or(Outcome::Drawn)
    }

    #[test]
    fn legal_play_reaches_5478_positions_and_the_table_agrees_with_a_full_search_on_each() {
        let boards = reachable();
        assert_eq!(boards.len(), 5_478, "the known count of tic-tac-toe positions");
        for board in &boards {
            assert_eq!(Outcome::of(Perfect::value(board)), searched(board), "{board}");
        }
    }

    #[test]
    fn perfect_play_draws() {
        assert_eq!(Outcome::of(Perfect::value(&Board::default())), Outcome::Drawn);
    }

    #[test]
    fn every_reachable_moves_judgement_is_the_outcome_it_gives_up() {
        let mut blunders = 0;
        for board in reachable().into_iter().filter(|b| b.completed_line().is_none()) {
            for square in board.empty_squares() {
                let game = TicTacToe::with_board(board);
                let mark = Mark { x: (square % SIZE) as i32, y: (square / SIZE) as i32 };
                let judged = Perfect.judge(&game, game.to_move(), &mark);
                let mut after = board;
                after.set(square, board.side_to_move());
                let now = match searched(&after) {
                    Outcome::Won => Outcome::Lost,
                    Outcome::Lost => Outcome::Won,
                    Outcome::Drawn => Outcome::Drawn,
                };
                let then = searched(&board);
                assert_eq!(judged.cost, f64::from(then as u8 - now as u8), "{board} {mark:?}");
                let best = square_of(&judged.best).unwrap();
                assert_eq!(Perfect::value_of_move(&board, best), Perfect::value(&board));
                blunders += usize::from(judged.is_mistake());
            }
        }
        assert!(blunders > 1000, "{blunders}: most positions allow a blunder");
    }

    #[test]
    fn missing_a_fork_block_is_the_blunder_that_loses_and_the_oracle_names_the_block() {
        // X took two opposite corners, O the centre: O must take an edge; a corner lets X fork.
        let game = position(0, &[(0, 0), (1, 1), (2, 2)]);
        assert_eq!(game.status(), Status::Ongoing);
        let judged = Perfect.judge(&game, 1, &Mark { x: 2, y: 0 });
        assert_eq!((judged.before.as_str(), judged.after.as_str()), ("drawn", "lost"));
        assert!(judged.loses);
        assert_eq!(judged.cost, 1.0);
        assert_eq!(judged.best, Mark { x: 1, y: 0 }, "the first edge");
        let fine = Perfect.judge(&game, 1, &Mark { x: 0, y: 1 });
        assert_eq!((fine.cost, fine.loses), (0.0, false));
    }

    #[test]
    fn taking_a_win_is_best_and_missing_it_costs_one_outcome() {
        // X to move with two in row 0 and O unable to stop it next turn anyway.
        let game = position(0, &[(0, 0), (0, 1), (1, 0), (1, 1)]);
        let win = Perfect.judge(&game, 0, &Mark { x: 2, y: 0 });
        assert_eq!((win.cost, win.before.as_str()), (0.0, "won"));
        let block = Perfect.judge(&game, 0, &Mark { x: 2, y: 1 });
        assert_eq!(block.best, Mark { x: 2, y: 0 }, "the fastest win");
    }
}
