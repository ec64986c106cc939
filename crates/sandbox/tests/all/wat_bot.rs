//! The hand-written Tic-tac-toe bot of `docs/abi.md`, taken from the document itself, loads and
//! plays whole games.

use botlens_engine::Game;
use botlens_sandbox::SandboxLimits;

use crate::support::{play, wat};

fn documented_bot() -> String {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/abi.md"))
        .expect("docs/abi.md");
    let start = doc.find("```wat\n").expect("a wat block") + "```wat\n".len();
    let len = doc[start..].find("```").expect("the end of the wat block");
    doc[start..start + len].to_owned()
}

#[test]
fn the_documented_wat_bot_plays_whole_games_and_logs_every_turn() {
    let bot = wat(&documented_bot());
    for seed in 0..20 {
        let record = play(&bot, seed, &SandboxLimits::default());
        assert!(record.outcome.fault.is_none(), "seed {seed}: {}", record.outcome.reason);
        for turn in record.moves.iter().filter(|m| m.seat == 0) {
            assert_eq!(turn.logs, ["marking the first free square"]);
            let (mark, board) = (turn.action.unwrap(), &turn.response.as_ref().unwrap().board);
            let before = record.state_after(turn.turn as usize - 1);
            let first_free =
                (0..9).find(|&i| before.view(0).board.as_bytes()[i] == b'.').unwrap() as i32;
            assert_eq!((mark.x, mark.y), (first_free % 3, first_free / 3));
            assert_ne!(board.as_bytes()[first_free as usize], b'.');
        }
    }
}

#[test]
fn a_view_too_long_for_the_buffer_is_not_written_and_can_be_read_again_with_reply() {
    use crate::support::wat_bot;
    let checked = r#"
    (if (i32.ne (call $reply (i32.const 0) (i32.const 256)) (i32.const -1)) (then unreachable))
    (if (i32.ne (call $view (i32.const 2048) (i32.const 4)) (i32.const 31)) (then unreachable))
    (if (i32.ne (i32.load (i32.const 2048)) (i32.const 0x5a5a5a5a)) (then unreachable))
    (if (i32.ne (call $reply (i32.const 0) (i32.const 256)) (i32.const 31)) (then unreachable))"#;
    let extra = r#"(import "botlens" "reply" (func $reply (param i32 i32) (result i32)))
                   (data (i32.const 2048) "ZZZZ")"#;
    let bot = wat(&wat_bot(checked, extra));
    for seed in 0..5 {
        let record = play(&bot, seed, &SandboxLimits::default());
        assert!(record.outcome.fault.is_none(), "seed {seed}: {}", record.outcome.reason);
    }
}
