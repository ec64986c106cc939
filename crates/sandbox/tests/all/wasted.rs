//! Wasted moves located at the bot's call site, only for players that ask.

use botlens_battleships::Battleships;
use botlens_sandbox::{BotModule, SandboxLimits, WasmPlayer};

use crate::support::{guest, marker_line, play_battleships as play};

fn player(bot: &BotModule, seed: u64) -> WasmPlayer<Battleships> {
    bot.player::<Battleships>(seed, 0, &SandboxLimits::default())
}

#[test]
fn every_wasted_move_is_located_at_the_call_that_made_it() {
    let bot = guest("reattacker");
    let mut wasm = player(&bot, 3).locating_wasted();
    let record = play(&mut wasm, 3);
    assert!(record.outcome.fault.is_none(), "{}", record.outcome.reason);
    let wasted = wasm.wasted_moves();
    let turns: Vec<u32> = wasted.iter().map(|w| w.turn).collect();
    assert!(turns.len() >= 5, "{turns:?}");
    assert_eq!(turns, record.wasteful_turns(0), "the game's wasted turns, each located");
    let line = marker_line("reattacker", "AGAIN");
    for w in &wasted {
        let location = w.location().unwrap_or_else(|| panic!("not located: {w:?}"));
        assert!(location.file.ends_with("guests/reattacker/src/lib.rs"), "{w:?}");
        assert_eq!(location.line, line, "{w:?}");
        let functions = w.stack.functions();
        assert!(functions[0].ends_with("again"), "{functions:?}");
        assert!(functions.iter().any(|f| f.ends_with("play")), "the caller too: {functions:?}");
        assert!(w.action.starts_with("attack("), "{}", w.action);
    }
    let mut again = player(&bot, 3).locating_wasted();
    play(&mut again, 3);
    assert_eq!(again.wasted_moves(), wasted, "deterministic");
}

#[test]
fn players_that_do_not_ask_locate_nothing() {
    let bot = guest("reattacker");
    let mut wasm = player(&bot, 3);
    let record = play(&mut wasm, 3);
    assert!(!record.wasteful_turns(0).is_empty(), "the game still counts them");
    assert!(wasm.wasted_moves().is_empty());
}

#[test]
fn a_player_locating_every_move_locates_each_legal_move_and_plays_the_same_game() {
    let bot = guest("reattacker");
    let mut every = player(&bot, 3).locating_moves();
    let record = play(&mut every, 3);
    let located = every.located_moves();
    let legal: Vec<u32> = record
        .moves
        .iter()
        .filter(|m| m.seat == 0 && m.response.is_some())
        .map(|m| m.turn)
        .collect();
    assert_eq!(located.iter().map(|m| m.turn).collect::<Vec<_>>(), legal, "every move");
    assert!(located.iter().all(|m| m.location().is_some()), "each at a line");
    let wasted: Vec<u32> = located.iter().filter(|m| m.wasted).map(|m| m.turn).collect();
    assert_eq!(wasted, record.wasteful_turns(0), "the wasted ones marked");
    let mut plain = player(&bot, 3);
    let trace = |record: botlens_engine::MatchRecord<Battleships>| {
        record.to_trace(Vec::new(), serde_json::Value::Null).to_json()
    };
    assert_eq!(trace(play(&mut plain, 3)), trace(record), "the same game, fuel and all");
}
