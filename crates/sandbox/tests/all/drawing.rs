//! `botlens.draw`: marks kept with the turn when the player records them, the same game either
//! way, and hostile drawing bounded, escaped and never a failure.

use botlens_engine::drawing::{Colour, MAX_MARKS_PER_TURN, Shape};
use botlens_engine::{MatchRecord, PlayerInfo};
use botlens_sandbox::{BotModule, SandboxLimits};
use botlens_tictactoe::TicTacToe;

use crate::support::{assert_next_game_runs, play_tictactoe, sandbox, wat, wat_bot};

/// One Tic-tac-toe game against `random`, the bot in seat 0, recording its marks or not.
fn play_drawing(bot: &BotModule, seed: u64, drawing: bool) -> MatchRecord<TicTacToe> {
    let wasm = bot.player::<TicTacToe>(seed, 0, &SandboxLimits::default());
    play_tictactoe(&mut if drawing { wasm.drawing() } else { wasm }, seed)
}

/// The worked example of `docs/abi.md` (the block fenced `wat drawing`).
fn worked_example() -> BotModule {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/abi.md"))
        .expect("docs/abi.md");
    let fence = "```wat drawing\n";
    let start = doc.find(fence).expect("the worked example") + fence.len();
    let len = doc[start..].find("```").expect("the end of the block");
    sandbox().load(&doc.as_bytes()[start..start + len]).expect("the worked example loads")
}

#[test]
fn the_worked_example_records_each_kind_of_mark_in_order() {
    let record = play_drawing(&worked_example(), 0, true);
    let first = record.moves.iter().find(|m| m.seat == 0).expect("the bot played");
    let marks: Vec<&Shape> = first.drawing.marks.iter().map(|mark| &mark.shape).collect();
    assert_eq!(
        marks,
        [
            &Shape::Cell { x: 1, y: 1, colour: Colour::Rgb(0xff0000) },
            &Shape::Label { x: 1, y: 1, text: "centre".into(), colour: Colour::Intensity(128) },
            &Shape::Arrow { x: 1, y: 1, to_x: 0, to_y: 0, colour: Colour::Rgb(0x0000ff) },
            &Shape::Heat { width: 3, values: (0..9).map(|v| Some(v as f32)).collect() },
            &Shape::Status { text: "taking a corner".into() },
        ]
    );
    assert_eq!(first.drawing.dropped, 0);
    assert_eq!(first.drawing.status(), Some("taking a corner"));
    // A module without debug information: no line to name.
    assert!(first.drawing.marks.iter().all(|mark| mark.location.is_none()));
}

#[test]
fn recording_marks_changes_nothing_but_the_marks() {
    let bot = worked_example();
    for seed in 0..4 {
        let recorded = play_drawing(&bot, seed, true);
        let plain = play_drawing(&bot, seed, false);
        assert!(recorded.moves.iter().any(|m| !m.drawing.is_empty()));
        assert!(plain.moves.iter().all(|m| m.drawing.is_empty()));
        let trace = |record: &MatchRecord<TicTacToe>| {
            record.to_trace(vec![PlayerInfo::reference("bot")], serde_json::Value::Null)
        };
        let mut stripped = trace(&recorded);
        for m in &mut stripped.moves {
            m.drawing = Default::default();
        }
        // Byte for byte, fuel included, apart from the marks.
        assert_eq!(stripped.to_json(), trace(&plain).to_json(), "seed {seed}");
    }
}

#[test]
fn hostile_drawing_is_bounded_escaped_and_never_a_failure() {
    let extra = r#"(import "botlens" "draw" (func $draw (param i32 i32 i32 i32 i32 i32 i32 i32)))
  (data (i32.const 1024) "\1b[2J\1b]0;owned\07label")"#;
    // 10,000 marks of every kind a turn: labels with escape sequences, ranges outside memory,
    // a length of 2 GiB, unknown kinds, heat maps of width 0 and of a partial value.
    let prelude = r#"(local $n i32)
    (loop $more
      (call $draw (i32.const 3) (i32.const -5) (i32.const 9999) (i32.const 0) (i32.const 0)
                  (i32.const -1) (i32.const 1024) (i32.const 22))
      (call $draw (i32.const 4) (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 0)
                  (i32.const 0) (i32.const 65530) (i32.const 100))
      (call $draw (i32.const 3) (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 0)
                  (i32.const 0) (i32.const 0) (i32.const 0x7fffffff))
      (call $draw (i32.const 77) (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 0)
                  (i32.const 0) (i32.const 0) (i32.const 0))
      (call $draw (i32.const 1) (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 0)
                  (i32.const 0) (i32.const 0) (i32.const 8))
      (call $draw (i32.const 1) (i32.const 3) (i32.const 0) (i32.const 0) (i32.const 0)
                  (i32.const 0) (i32.const 0) (i32.const 7))
      (local.set $n (i32.add (local.get $n) (i32.const 1)))
      (br_if $more (i32.lt_u (local.get $n) (i32.const 1700))))"#;
    let bot = wat(&wat_bot(prelude, extra));
    let record = play_drawing(&bot, 1, true);
    assert!(record.outcome.fault.is_none(), "{}", record.outcome.reason);
    let first = record.moves.iter().find(|m| m.seat == 0).expect("the bot played");
    let drawing = &first.drawing;
    assert_eq!(drawing.marks.len(), MAX_MARKS_PER_TURN);
    assert_eq!(drawing.dropped as usize, 1700 * 6 - MAX_MARKS_PER_TURN);
    let Shape::Label { x, y, text, .. } = &drawing.marks[0].shape else {
        panic!("{:?}", drawing.marks[0])
    };
    assert_eq!((*x, *y), (-5, 9999), "kept as drawn, left out by viewers");
    assert!(!text.contains('\u{1b}') && !text.contains('\u{7}'), "{text:?}");
    assert!(text.starts_with("\\u{1b}[2J"), "{text:?}");
    assert!(text.len() <= 32 && text.ends_with('…'), "{text:?}");
    // The same game without recording: the same fuel, turn by turn.
    let plain = play_drawing(&bot, 1, false);
    let fuel = |r: &MatchRecord<TicTacToe>| r.moves.iter().map(|m| m.cost.fuel).collect::<Vec<_>>();
    assert_eq!(fuel(&record), fuel(&plain));
    assert_next_game_runs();
}

#[test]
fn a_runners_marks_are_where_it_stated_it_was() {
    let extra = r#"(import "botlens" "draw" (func $draw (param i32 i32 i32 i32 i32 i32 i32 i32)))
  (import "botlens" "position" (func $position (param i32 i32 i32 i32)))
  (@custom "botlens_runner" "mylang")
  (data (i32.const 1024) "bot.js")"#;
    let prelude = r#"(call $position (i32.const 1024) (i32.const 6) (i32.const 12) (i32.const 3))
    (call $draw (i32.const 0) (i32.const 2) (i32.const 2) (i32.const 0) (i32.const 0)
                (i32.const 0x01000010) (i32.const 0) (i32.const 0))"#;
    let record = play_drawing(&wat(&wat_bot(prelude, extra)), 2, true);
    let first = record.moves.iter().find(|m| m.seat == 0).expect("the bot played");
    let location = first.drawing.marks[0].location.as_ref().expect("a location");
    assert_eq!((location.file.as_str(), location.line, location.column), ("bot.js", 12, 3));
}

#[test]
fn a_place_stated_right_before_a_mark_names_its_line_and_only_its() {
    let extra = r#"(import "botlens" "draw" (func $draw (param i32 i32 i32 i32 i32 i32 i32 i32)))
  (import "botlens" "position" (func $position (param i32 i32 i32 i32)))
  (data (i32.const 1024) "bot.c")"#;
    // The bot says where it is (line 5), states line 9 for a mark, draws it, then sends a move
    // from outside its memory (a failure located where the bot said it was).
    let prelude = r#"(call $position (i32.const 1024) (i32.const 5) (i32.const 5) (i32.const 1))
    (call $position (i32.const 1024) (i32.const 5) (i32.const 9) (i32.const 2))
    (call $draw (i32.const 0) (i32.const 1) (i32.const 1) (i32.const 0) (i32.const 0)
                (i32.const 0) (i32.const 0) (i32.const 0))
    (call $draw (i32.const 0) (i32.const 2) (i32.const 2) (i32.const 0) (i32.const 0)
                (i32.const 0) (i32.const 0) (i32.const 0))
    (drop (call $act (i32.const -1) (i32.const 5) (i32.const 0) (i32.const 0)))"#;
    let record = play_drawing(&wat(&wat_bot(prelude, extra)), 0, true);
    let turn = record.moves.iter().find(|m| m.seat == 0).expect("the bot played");
    let lines: Vec<Option<u32>> =
        turn.drawing.marks.iter().map(|m| m.location.as_ref().map(|l| l.line)).collect();
    // The second mark had no place stated right before it, and the module no debug information.
    assert_eq!(lines, [Some(9), None]);
    let failure = turn.failure.as_ref().expect("the malformed move");
    assert_eq!(failure.location.as_ref().map(|l| l.line), Some(5), "{failure}");
}
