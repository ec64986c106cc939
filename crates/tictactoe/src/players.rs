//! The reference opponents: `random` (any empty square) and `perfect` (minimax).
//!
//! `perfect` looks moves up in the oracle's table of minimax values of every board
//! ([`crate::oracle`]); among equally good moves it picks with its seeded rng. Both players see only their [`TicTacToeView`], like a bot.

use botlens_engine::{Failure, Player, SeedRng, Turn};
use botlens_protocol::tictactoe::{Mark, TicTacToeView};

use crate::TicTacToe;
use crate::board::{Board, SIZE};
use crate::oracle::values;

/// Creates the `random` reference player.
pub(crate) fn random(rng: SeedRng) -> Box<dyn Player<TicTacToe>> {
    Box::new(Chooser { rng, strategy: |board| board.empty_squares().collect() })
}

/// Creates the `perfect` reference player.
pub(crate) fn perfect(rng: SeedRng) -> Box<dyn Player<TicTacToe>> {
    Box::new(Chooser { rng, strategy: best_moves })
}

/// A player that marks a square drawn uniformly from the candidates its strategy offers.
struct Chooser {
    rng: SeedRng,
    strategy: fn(&Board) -> Vec<usize>,
}

impl Player<TicTacToe> for Chooser {
    fn play(&mut self, turn: &mut Turn<TicTacToe>) -> Result<(), Failure> {
        let view: TicTacToeView = turn.view();
        let candidates = (self.strategy)(&Board::from_view(&view));
        // A full board has no candidates; the runner never asks for a move then.
        if !candidates.is_empty() {
            let square = candidates[self.rng.index(candidates.len())];
            turn.act(Mark { x: (square % SIZE) as i32, y: (square / SIZE) as i32 })?;
        }
        Ok(())
    }
}

/// The squares the side to move should mark: all those of the best value (none on a full
/// board).
fn best_moves(board: &Board) -> Vec<usize> {
    let values = values();
    let mover = board.side_to_move();
    let scored: Vec<(usize, i8)> = board
        .empty_squares()
        .map(|square| (square, -values[board.code_with(square, mover)]))
        .collect();
    let best = scored.iter().map(|&(_, score)| score).max();
    scored.into_iter().filter(|&(_, score)| Some(score) == best).map(|(square, _)| square).collect()
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use botlens_engine::{
        Game, MatchLimits, ReferencePlayer, Seat, SeatResult, Status, Stream, runner::play_match,
    };
    use botlens_protocol::tictactoe::Side;

    use super::*;
    use crate::board::CODES;
    use crate::game::tests::position;

    fn reference(name: &str) -> &'static ReferencePlayer<TicTacToe> {
        TicTacToe::reference_players().iter().find(|p| p.name == name).expect("known player")
    }

    fn mark_of(square: usize) -> Mark {
        Mark { x: (square % SIZE) as i32, y: (square / SIZE) as i32 }
    }

    /// Lets `player` make one move in `game`, which must be its turn.
    fn one_move(player: &mut dyn Player<TicTacToe>, game: TicTacToe) -> TicTacToe {
        let seat = game.to_move();
        let mut turn = botlens_engine::Turn::new(game, seat, 1);
        player.play(&mut turn).expect("reference players do not fault");
        assert!(turn.response().is_some(), "a legal move was made: {:?}", turn.failure());
        turn.into_game()
    }

    #[test]
    fn random_marks_each_empty_square_about_equally_often() {
        let game = position(0, &[(0, 0), (1, 1), (2, 2), (0, 1), (2, 1)]);
        let mut counts = [0u32; 9];
        for seed in 0..4000 {
            let mut player = random(SeedRng::new(seed, Stream::Player(1)));
            let after = one_move(&mut *player, game.clone());
            let square = (0..9).find(|&i| after.squares().get(i) != game.squares().get(i)).unwrap();
            counts[square] += 1;
        }
        for square in 0..9 {
            if game.squares().get(square).is_some() {
                assert_eq!(counts[square], 0, "never a taken square");
            } else {
                assert!((900..1100).contains(&counts[square]), "{counts:?}");
            }
        }
    }

    #[test]
    fn random_never_makes_an_illegal_move() {
        let random = reference("random");
        for seed in 0..300 {
            let mut a = (random.create)(SeedRng::new(seed, Stream::Player(0)));
            let mut b = (random.create)(SeedRng::new(seed, Stream::Player(1)));
            let record = play_match::<TicTacToe>(
                &(),
                seed,
                &mut [&mut *a, &mut *b],
                &MatchLimits::default(),
            );
            assert_eq!(record.outcome.fault, None, "seed {seed}");
        }
    }

    #[test]
    fn the_empty_board_is_a_draw_and_every_opening_is_as_good() {
        let empty = Board::default();
        assert_eq!(values()[empty.code()], 0);
        assert_eq!(best_moves(&empty), (0..9).collect::<Vec<_>>());
    }

    /// Squares where `side` would complete a line now.
    fn winning_squares(board: &Board, side: Side) -> HashSet<usize> {
        board
            .empty_squares()
            .filter(|&square| {
                let mut after = *board;
                after.set(square, side);
                after.completed_line().is_some()
            })
            .collect()
    }

    fn reachable_ongoing_boards() -> Vec<Board> {
        (0..CODES)
            .map(Board::from_code)
            .filter(|b| b.check_reachable().is_ok() && b.completed_line().is_none() && !b.is_full())
            .collect()
    }

    #[test]
    fn perfect_wins_at_once_when_it_can() {
        let mut checked = 0;
        for board in reachable_ongoing_boards() {
            let wins = winning_squares(&board, board.side_to_move());
            if !wins.is_empty() {
                let best: HashSet<usize> = best_moves(&board).into_iter().collect();
                assert!(best.is_subset(&wins), "{board}: plays {best:?}, wins at {wins:?}");
                checked += 1;
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn perfect_blocks_a_single_threat_even_in_a_lost_position() {
        let mut lost_positions = 0;
        for board in reachable_ongoing_boards() {
            let mover = board.side_to_move();
            let threats = winning_squares(&board, mover.other());
            if winning_squares(&board, mover).is_empty() && threats.len() == 1 {
                let best: HashSet<usize> = best_moves(&board).into_iter().collect();
                assert_eq!(best, threats, "{board}");
                lost_positions += usize::from(values()[board.code()] < 0);
            }
        }
        assert!(lost_positions > 0, "some blocks only delay a loss: slower losses are preferred");
    }

    /// Plays `reference` in `seat` (X is `x_seat`) against every sequence of opponent moves,
    /// replaying each line from a fresh player so its rng runs exactly as in a real game.
    fn results_over_all_lines(
        reference: &ReferencePlayer<TicTacToe>,
        rng_seed: u64,
        x_seat: Seat,
        seat: Seat,
    ) -> Vec<SeatResult> {
        fn explore(
            replay: &dyn Fn(&[Mark]) -> TicTacToe,
            line: &mut Vec<Mark>,
            seat: Seat,
            results: &mut Vec<SeatResult>,
        ) {
            let game = replay(line);
            match game.status() {
                Status::Over(ending) => results.push(match ending.winner {
                    None => SeatResult::Draw,
                    Some(winner) if winner == seat => SeatResult::Win,
                    Some(_) => SeatResult::Loss,
                }),
                Status::Ongoing => {
                    for square in game.squares().empty_squares() {
                        line.push(mark_of(square));
                        explore(replay, line, seat, results);
                        line.pop();
                    }
                }
            }
        }
        // The game after the opponent's `line`, with the reference player moving in between.
        let replay = |line: &[Mark]| {
            let mut player = (reference.create)(SeedRng::new(rng_seed, Stream::Player(seat)));
            let mut game = position(x_seat, &[]);
            let mut opponent_moves = line.iter();
            while game.status() == Status::Ongoing {
                if game.to_move() == seat {
                    game = one_move(&mut *player, game);
                } else if let Some(mark) = opponent_moves.next() {
                    game.apply(1 - seat, mark).expect("lines mark empty squares of ongoing games");
                } else {
                    break;
                }
            }
            game
        };
        let mut results = Vec::new();
        explore(&replay, &mut Vec::new(), seat, &mut results);
        results
    }

    #[test]
    fn perfect_never_loses_against_any_line_as_x_or_o() {
        for rng_seed in [0, 1, 7, 42] {
            for (x_seat, seat) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let results = results_over_all_lines(reference("perfect"), rng_seed, x_seat, seat);
                let side = if seat == x_seat { "X" } else { "O" };
                let lost = results.iter().filter(|&&r| r == SeatResult::Loss).count();
                let won = results.iter().filter(|&&r| r == SeatResult::Win).count();
                assert_eq!(lost, 0, "perfect as {side} lost (rng seed {rng_seed})");
                let lines = results.len();
                assert!(won * 2 > lines, "as {side} it wins most lines: {won} of {lines}");
            }
        }
    }

    #[test]
    fn random_loses_some_lines_so_the_search_can_see_a_loss() {
        let results = results_over_all_lines(reference("random"), 3, 0, 1);
        assert!(results.contains(&SeatResult::Loss));
    }

    #[test]
    fn perfect_against_perfect_is_always_a_draw() {
        // Over every choice among equally good moves ...
        fn walk(board: Board, draws: &mut u32) {
            if board.completed_line().is_some() {
                panic!("perfect play reached a win: {board}");
            }
            if board.is_full() {
                *draws += 1;
                return;
            }
            for square in best_moves(&board) {
                let mut next = board;
                next.set(square, board.side_to_move());
                walk(next, draws);
            }
        }
        let mut draws = 0;
        walk(Board::default(), &mut draws);
        assert!(draws > 1000, "{draws} perfect lines");
        // ... and as the runner plays it, seed by seed.
        let perfect = reference("perfect");
        for seed in 0..64 {
            let mut a = (perfect.create)(SeedRng::new(seed, Stream::Player(0)));
            let mut b = (perfect.create)(SeedRng::new(seed, Stream::Player(1)));
            let record = play_match::<TicTacToe>(
                &(),
                seed,
                &mut [&mut *a, &mut *b],
                &MatchLimits::default(),
            );
            assert_eq!(
                record.result_for(0),
                SeatResult::Draw,
                "seed {seed}: {}",
                record.outcome.reason
            );
            assert_eq!(record.outcome.turns, 9);
        }
    }

    #[test]
    fn perfect_varies_its_opening_with_its_rng() {
        let openings: HashSet<String> = (0..200)
            .map(|seed| {
                let mut player = perfect(SeedRng::new(seed, Stream::Player(0)));
                one_move(&mut *player, position(0, &[])).board()
            })
            .collect();
        assert_eq!(openings.len(), 9);
    }

    #[test]
    fn a_player_asked_to_move_on_a_full_board_makes_no_move() {
        let full =
            position(0, &[(0, 0), (1, 0), (2, 0), (1, 1), (0, 1), (2, 1), (1, 2), (0, 2), (2, 2)]);
        for name in ["random", "perfect"] {
            let mut player = (reference(name).create)(SeedRng::new(0, Stream::Player(1)));
            let mut turn = botlens_engine::Turn::new(full.clone(), 1, 10);
            assert_eq!(player.play(&mut turn), Ok(()));
            assert!(!turn.has_acted(), "{name}");
        }
    }
}
