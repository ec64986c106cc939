//! Rust guest bots that fail: each failure has its exact kind and the file:line of the guest's
//! own source, past the SDK and the standard library; the next game runs normally.

use botlens_engine::FailureKind;
use botlens_sandbox::SandboxLimits;

use crate::support::{assert_at, assert_next_game_runs, fault, guest, marker_line, play};

#[test]
fn an_illegal_move_in_a_rare_branch_is_located_in_exactly_the_games_it_happens() {
    let bot = guest("rare_illegal");
    let records: Vec<_> = (0..30).map(|seed| play(&bot, seed, &SandboxLimits::default())).collect();
    let failed: Vec<_> = records.iter().filter(|r| r.outcome.fault.is_some()).collect();
    assert!(!failed.is_empty() && failed.len() < records.len(), "{} of 30 failed", failed.len());
    for record in failed {
        let failure = fault(record);
        assert_eq!(failure.kind, FailureKind::IllegalMove);
        assert!(failure.message.starts_with("illegal move mark(3, "), "{failure}");
        assert_at(failure, "rare_illegal", "ILLEGAL");
    }
    assert_next_game_runs();
}

#[test]
fn a_panic_reports_its_message_at_the_panicking_line() {
    let record = play(&guest("panicky"), 1, &SandboxLimits::default());
    let failure = fault(&record);
    assert_eq!(
        (failure.kind, failure.message.as_str()),
        (FailureKind::Panic, "no favourite square")
    );
    assert_at(failure, "panicky", "PANIC");
    assert_next_game_runs();
}

#[test]
fn an_endless_loop_runs_out_of_fuel_inside_the_loop() {
    let limits = SandboxLimits { fuel_per_turn: 20_000_000, ..SandboxLimits::default() };
    let record = play(&guest("spinner"), 1, &limits);
    let failure = fault(&record);
    assert_eq!(failure.kind, FailureKind::OutOfFuel);
    assert_eq!(failure.message, "out of fuel: the turn budget of 20000000 is used up");
    assert_at(failure, "spinner", "SPIN");
    let last = record.moves.last().unwrap();
    assert_eq!(last.cost.fuel, Some(20_000_000), "the whole turn budget was burnt");
    assert_next_game_runs();
}

#[test]
fn a_forgotten_move_points_at_play() {
    let record = play(&guest("forgetful"), 1, &SandboxLimits::default());
    let failure = fault(&record);
    assert_eq!(failure.kind, FailureKind::NoMove);
    assert_eq!(failure.message, "`play` returned without making a move");
    assert_at(failure, "forgetful", "PLAY");
    assert_next_game_runs();
}

#[test]
fn a_second_move_is_located_at_the_second_call() {
    let record = play(&guest("double"), 1, &SandboxLimits::default());
    let failure = fault(&record);
    assert_eq!(failure.kind, FailureKind::SecondMove);
    assert!(failure.message.starts_with("second action mark("), "{failure}");
    assert_at(failure, "double", "SECOND");
    let last = record.moves.last().unwrap();
    assert!(last.action.is_some() && last.response.is_some(), "the first move of the turn stands");
    assert_next_game_runs();
}

#[test]
fn a_recursion_through_two_functions_is_located_at_the_call_that_closes_the_cycle() {
    let record = play(&guest("recursive"), 1, &SandboxLimits::default());
    let failure = fault(&record);
    assert_eq!(failure.kind, FailureKind::StackOverflow);
    assert!(
        failure.message.contains(
            "the recursion recursive::region_size → recursive::neighbours → recursive::region_size repeated "
        ),
        "{failure}"
    );
    assert_at(failure, "recursive", "BACK_TO_REGION_SIZE");
    let stack = failure.stack.as_ref().expect("a stack");
    let recursion = stack.recursion().expect("the recursion is folded");
    assert!(recursion.times > 1000, "{} rounds", recursion.times);
    let names: Vec<&str> = recursion.frames.iter().map(|f| f.function.as_str()).collect();
    assert!(names.contains(&"recursive::neighbours") && names.len() == 2, "{names:?}");
    // The frames outside the cycle are kept: `play` entered it at the marked line.
    let play = stack.frames.iter().find(|f| is_play(&f.function)).expect("play kept");
    let line = |marker| Some(marker_line("recursive", marker));
    assert_eq!(play.location.as_ref().map(|l| l.line), line("ENTER"), "{stack:?}");
    let region = stack.frames.iter().find(|f| f.function == "recursive::region_size");
    assert_eq!(region.and_then(|f| f.location.as_ref()).map(|l| l.line), line("TO_NEIGHBOURS"));
    assert!(stack.frames.len() <= botlens_engine::stack::MAX_FRAMES, "{stack:?}");
    assert_next_game_runs();
}

#[test]
fn every_located_failure_carries_the_bots_frames_innermost_first() {
    let record = play(&guest("panicky"), 1, &SandboxLimits::default());
    let failure = fault(&record);
    let stack = failure.stack.as_ref().expect("a stack");
    let names: Vec<&str> = stack.frames.iter().map(|f| f.function.as_str()).collect();
    assert!(is_play(names[0]), "{names:?}");
    assert_eq!(stack.innermost().and_then(|f| f.location.as_ref()), failure.location.as_ref());
    assert!(stack.frames[0].folded > 0, "the panic machinery is folded: {stack:?}");
    assert!(
        names.iter().all(|n| !n.contains("botlens_sdk") && !n.starts_with("core::")),
        "{names:?}"
    );
    assert!(stack.recursion().is_none(), "{stack:?}");
}

/// Whether a frame is the bot's `play` (inlined into the export, line tables name it without
/// its path).
fn is_play(function: &str) -> bool {
    function == "play" || function.ends_with("::play")
}
