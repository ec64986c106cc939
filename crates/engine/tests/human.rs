//! A person at the keyboard ([`botlens_engine::human`]) against the real games' reference
//! opponents, on scripted input: what `botlens play tictactoe|battleships` does, without a
//! terminal. The engine's own unit tests cover the same player on its toy game.

use botlens_battleships::Battleships;
use botlens_engine::human::{self, OPPONENT, PERSON};
use botlens_engine::{Game, MatchLimits, MatchRecord, ReferencePlayer, runner};
use botlens_klotski::Klotski;
use botlens_tictactoe::TicTacToe;

/// Plays `G` against the reference opponent `vs` on `seed` with scripted `input`: the record and
/// the transcript.
fn run<G: Game>(vs: &str, seed: u64, input: &[u8]) -> (MatchRecord<G>, String) {
    let opponent = ReferencePlayer::<G>::find(vs).expect("a reference opponent");
    let config = G::Config::default();
    let mut out = Vec::new();
    let record =
        human::play::<G>(&config, seed, Some(opponent), input, &mut out).expect("in-memory I/O");
    (record, String::from_utf8(out).expect("UTF-8 transcript"))
}

/// Whether the person left the game (quit or end of input) rather than playing it out.
fn left<G: Game>(record: &MatchRecord<G>) -> bool {
    record.outcome.fault.as_ref().is_some_and(|fault| fault.seat == PERSON)
}

/// A seed where the person (seat 0) plays X and moves first, or O and moves second.
fn seed_where_the_person_moves_first(first: bool) -> u64 {
    (0..).find(|&seed| (TicTacToe::new(&(), seed).to_move() == PERSON) == first).unwrap()
}

/// Every square in reading order: a script that always finishes a game, whatever the opponent
/// takes, because taken squares are refused and the next line is tried.
const EVERY_SQUARE: &str = "0 0\n1 0\n2 0\n0 1\n1 1\n2 1\n0 2\n1 2\n2 2\n";

#[test]
fn a_scripted_game_is_played_to_the_end_and_announced() {
    for first in [true, false] {
        let seed = seed_where_the_person_moves_first(first);
        let (record, transcript) = run::<TicTacToe>("perfect", seed, EVERY_SQUARE.as_bytes());
        assert!(!left(&record), "unfinished:\n{transcript}");
        let outcome = &record.outcome;
        assert_ne!(outcome.winner, Some(PERSON), "nobody beats perfect in reading order");
        let expected_start = if first { "you move first" } else { "perfect first" };
        assert!(transcript.contains(expected_start), "{transcript}");
        assert!(transcript.contains("perfect: mark("), "{transcript}");
        assert!(transcript.contains("you: mark(0, 0) -> Marked"), "{transcript}");
        let side = if first { "you play X" } else { "you play O" };
        assert!(transcript.contains(side), "{transcript}");
        let last = transcript.lines().last().unwrap();
        assert!(
            last == format!("perfect won: {}", outcome.reason)
                || last == format!("Draw: {}", outcome.reason),
            "{last}"
        );
        assert!(transcript.contains("seat 0 plays"), "the final board is shown:\n{transcript}");
    }
}

#[test]
fn the_person_can_win_and_is_told_so() {
    // Against `random`, reading order wins some seed; the announcement names the line.
    let won = (0..50).find_map(|seed| {
        let (record, transcript) = run::<TicTacToe>("random", seed, EVERY_SQUARE.as_bytes());
        (record.outcome.winner == Some(PERSON)).then_some(transcript)
    });
    let transcript = won.expect("some seed lets reading order win against random");
    assert!(transcript.lines().last().unwrap().starts_with("You won: three in a row: "));
}

#[test]
fn garbage_and_illegal_input_leave_the_game_unchanged() {
    let seed = seed_where_the_person_moves_first(true);
    let script = "hello\n\n9 9\n1 -1\nd4\n\u{fffd}\u{0}\n";
    let (record, transcript) = run::<TicTacToe>("perfect", seed, script.as_bytes());
    assert!(left(&record), "the input ran out:\n{transcript}");
    assert_eq!(record.last, TicTacToe::new(&(), seed), "nothing was played");
    assert_eq!(record.actions_by(PERSON), 0);
    assert_eq!(transcript.matches("not a move: expected a square").count(), 2, "{transcript}");
    assert!(transcript.contains("illegal move mark(9, 9): x out of range 0..=2"));
    assert!(transcript.contains("illegal move mark(1, -1): y out of range 0..=2"));
    assert!(transcript.contains("not a move: no square `d4`"));
    assert_eq!(transcript.matches("your move> ").count(), 7, "one prompt per line, then EOF");
    assert!(transcript.ends_with("end of input: you left the game\n"), "{transcript}");
}

#[test]
fn a_taken_square_is_refused_and_the_next_line_is_tried() {
    let seed = seed_where_the_person_moves_first(true);
    let (record, transcript) = run::<TicTacToe>("perfect", seed, b"1 1\n1 1\n");
    assert!(transcript.contains("illegal move mark(1, 1): square (1, 1) is taken by X"));
    let board = record.last.board();
    assert_eq!((board.matches('X').count(), board.matches('O').count()), (1, 1), "{board}");
    assert_eq!(record.actions_by(PERSON) + record.actions_by(OPPONENT), 2);
}

#[test]
fn invalid_utf8_is_just_garbage() {
    let seed = seed_where_the_person_moves_first(true);
    let (record, transcript) = run::<TicTacToe>("random", seed, b"\xff\xfe 1\nquit\n");
    assert!(left(&record));
    assert_eq!(record.last, TicTacToe::new(&(), seed));
    assert!(transcript.contains("not a move: expected a square"), "{transcript}");
}

#[test]
fn quit_leaves_at_once() {
    let seed = seed_where_the_person_moves_first(false);
    let (record, transcript) = run::<TicTacToe>("random", seed, b"quit\n0 0\n");
    assert!(left(&record));
    assert!(transcript.ends_with("you left the game\n"), "{transcript}");
    assert_eq!(record.actions_by(OPPONENT), 1, "only the opponent's opening move was made");
    assert_eq!(record.actions_by(PERSON), 0);
    assert_eq!(record.outcome.winner, Some(OPPONENT), "leaving loses the game");
}

#[test]
fn an_unknown_opponent_lists_the_valid_names() {
    let error = ReferencePlayer::<TicTacToe>::find("hunter").unwrap_err();
    assert_eq!(error, "tictactoe has no reference player `hunter` (known: random, perfect)");
    let error = ReferencePlayer::<Battleships>::find("perfect").unwrap_err();
    assert!(error.starts_with("battleships has no reference player `perfect` (known: random, "));
}

#[test]
fn a_wasted_move_is_made_and_flagged() {
    let seed = (0..).find(|&seed| Battleships::new(&(), seed).to_move() == PERSON).unwrap();
    let (record, transcript) = run::<Battleships>("random", seed, b"0 0\n0 0\n0 0\n");
    assert!(transcript.contains("you: attack(0, 0) -> AlreadyAttacked (a wasted move)"));
    assert!(record.actions_by(PERSON) >= 2, "re-attacks are legal moves");
    assert!(!record.wasteful_turns(PERSON).is_empty());
}

#[test]
fn the_same_seed_and_moves_give_the_same_transcript() {
    let (_, once) = run::<TicTacToe>("perfect", 11, EVERY_SQUARE.as_bytes());
    let (_, again) = run::<TicTacToe>("perfect", 11, EVERY_SQUARE.as_bytes());
    assert_eq!(once, again);
    let (_, other_seed) = run::<TicTacToe>("perfect", 12, EVERY_SQUARE.as_bytes());
    assert_ne!(once, other_seed, "the seed is in the transcript, at least");
}

#[test]
fn battleships_plays_through_the_same_loop() {
    // Every square of the grid in reading order sinks the fleet or runs out the turns.
    let script: String = (0..100).map(|i| format!("{} {}\n", i % 10, i / 10)).collect();
    let (record, transcript) =
        run::<Battleships>("random", 5, format!("oops\n{script}").as_bytes());
    assert!(!left(&record), "{transcript}");
    assert!(transcript.contains("not a move"), "{transcript}");
    assert!(transcript.contains("random: attack("), "{transcript}");
    assert!(record.moves.iter().all(|m| m.failure.is_none()), "no one faulted");
}

#[test]
fn a_one_seat_game_is_played_alone_through_the_same_loop() {
    // The person types the moves the optimal solver makes, and so solves the board.
    let config = botlens_klotski::Layout::default();
    let optimal = ReferencePlayer::<Klotski>::find("optimal").unwrap();
    let mut solver =
        (optimal.create)(botlens_engine::SeedRng::new(0, botlens_engine::Stream::Player(0)));
    let solved =
        runner::play_match::<Klotski>(&config, 0, &mut [solver.as_mut()], &MatchLimits::default());
    let script: String =
        solved.moves.iter().filter_map(|m| m.action.as_ref()).map(|a| format!("{a}\n")).collect();
    let mut out = Vec::new();
    let record = human::play::<Klotski>(&config, 0, None, script.as_bytes(), &mut out).unwrap();
    let transcript = String::from_utf8(out).unwrap();
    assert!(transcript.starts_with("klotski, seed 0. Type a move"), "{transcript}");
    assert_eq!(record.outcome.winner, Some(PERSON), "{transcript}");
    assert_eq!(record.moves.len(), solved.moves.len());
    assert!(transcript.ends_with(&format!("You won: {}\n", solved.outcome.reason)), "{transcript}");
}
