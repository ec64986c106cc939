//! Traces are untrusted input (a user replays a file somebody sent them): whatever a trace file
//! holds, reading and decoding it returns a trace or an error, never a panic. Real traces of
//! each game are mutated at random — any value replaced by an extreme one, keys dropped,
//! arrays cut or doubled — and fed to `Trace::from_json` and `Trace::decode`.

use botlens_battleships::Battleships;
use botlens_engine::{Game, MatchLimits, PlayerInfo, SeedRng, Stream, Trace, runner};
use botlens_klotski::Klotski;
use botlens_tictactoe::TicTacToe;
use std::sync::LazyLock;

use proptest::prelude::*;
use serde_json::{Value, json};

/// The JSON trace of a game between the first reference players of `G`.
fn trace_of<G: Game>(seed: u64) -> Value {
    let players = G::reference_players();
    let mut seats: Vec<Box<dyn botlens_engine::Player<G>>> =
        (0..G::new(&G::Config::default(), seed).seats())
            .map(|seat| (players[0].create)(SeedRng::new(seed, Stream::Player(seat))))
            .collect();
    let mut refs: Vec<&mut dyn botlens_engine::Player<G>> =
        seats.iter_mut().map(|p| p.as_mut() as &mut dyn botlens_engine::Player<G>).collect();
    let record =
        runner::play_match::<G>(&G::Config::default(), seed, &mut refs, &MatchLimits::default());
    let infos = (0..refs.len()).map(|_| PlayerInfo::reference(players[0].name)).collect();
    let trace = record.to_trace(infos, json!({}));
    serde_json::from_str(&trace.to_json()).expect("a trace is JSON")
}

/// How many values a JSON tree holds (every node counted once).
fn size(value: &Value) -> usize {
    1 + match value {
        Value::Array(items) => items.iter().map(size).sum(),
        Value::Object(map) => map.values().map(size).sum(),
        _ => 0,
    }
}

/// The replacements a hostile file might hold where any value was.
fn extreme(choice: u8) -> Value {
    match choice % 12 {
        0 => Value::Null,
        1 => json!(-1),
        2 => json!(0),
        3 => json!(u32::MAX),
        4 => json!(u64::MAX),
        5 => json!(1e308),
        6 => json!(""),
        7 => json!("x".repeat(10_000)),
        8 => json!([]),
        9 => json!({}),
        10 => json!(true),
        _ => json!(i64::MIN),
    }
}

/// Applies mutation `choice` at node `target` (counted depth first); returns whether it did.
fn mutate(value: &mut Value, target: &mut usize, choice: u8) -> bool {
    if *target == 0 {
        match (choice / 12, &mut *value) {
            (1, Value::Object(map)) if !map.is_empty() => {
                let key = map.keys().nth(usize::from(choice) % map.len()).cloned();
                map.remove(&key.expect("a key"));
            }
            (2, Value::Array(items)) if !items.is_empty() => {
                items.truncate(usize::from(choice) % items.len());
            }
            (3, Value::Array(items)) if !items.is_empty() => {
                let copy = items.clone();
                items.extend(copy);
            }
            _ => *value = extreme(choice),
        }
        return true;
    }
    *target -= 1;
    match value {
        Value::Array(items) => items.iter_mut().any(|item| mutate(item, target, choice)),
        Value::Object(map) => map.values_mut().any(|item| mutate(item, target, choice)),
        _ => false,
    }
}

fn survives<G: Game>(original: &Value, mutations: &[(usize, u8)]) {
    let mut value = original.clone();
    for &(at, choice) in mutations {
        let mut target = at % size(&value);
        mutate(&mut value, &mut target, choice);
    }
    if let Ok(trace) = Trace::from_json(&value.to_string()) {
        let _ = trace.decode::<G>();
    }
}

static BATTLESHIPS: LazyLock<Value> = LazyLock::new(|| trace_of::<Battleships>(3));
static TICTACTOE: LazyLock<Value> = LazyLock::new(|| trace_of::<TicTacToe>(1));
static KLOTSKI: LazyLock<Value> = LazyLock::new(|| trace_of::<Klotski>(0));

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn mutated_battleships_traces_never_panic(mutations in prop::collection::vec((any::<usize>(), 0u8..48), 1..4)) {
        survives::<Battleships>(&BATTLESHIPS, &mutations);
    }

    #[test]
    fn mutated_tictactoe_traces_never_panic(mutations in prop::collection::vec((any::<usize>(), 0u8..48), 1..4)) {
        survives::<TicTacToe>(&TICTACTOE, &mutations);
    }

    #[test]
    fn mutated_klotski_traces_never_panic(mutations in prop::collection::vec((any::<usize>(), 0u8..48), 1..4)) {
        survives::<Klotski>(&KLOTSKI, &mutations);
    }

    #[test]
    fn arbitrary_text_is_never_a_panic(text in ".{0,200}") {
        let _ = Trace::from_json(&text);
    }
}
