//! The hand-written Tic-tac-toe bot of `docs/abi.md`, taken from the document itself, loads and
//! plays whole games.

use botlens_engine::Game;
use botlens_sandbox::Limits;

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
        let record = play(&bot, seed, &Limits::default());
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
