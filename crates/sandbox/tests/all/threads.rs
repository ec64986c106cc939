//! Sharing: one sandbox and one loaded module play games on several threads at once, with the
//! same results as one after the other.

use botlens_sandbox::{BotModule, Sandbox, SandboxLimits, WasmPlayer};
use botlens_tictactoe::TicTacToe;

use crate::support::{guest, play};

fn shareable<T: Send + Sync>() {}
fn sendable<T: Send>() {}

#[test]
fn games_on_several_threads_match_games_played_one_after_the_other() {
    shareable::<Sandbox>();
    shareable::<BotModule>();
    sendable::<WasmPlayer<TicTacToe>>();

    let bot = guest("chatty");
    let seeds: Vec<u64> = (0..16).collect();
    let alone: Vec<String> = seeds
        .iter()
        .map(|&seed| format!("{:?}", play(&bot, seed, &SandboxLimits::default()).moves))
        .collect();
    let together: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = seeds
            .iter()
            .map(|&seed| {
                let bot = bot.clone();
                scope.spawn(move || {
                    format!("{:?}", play(&bot, seed, &SandboxLimits::default()).moves)
                })
            })
            .collect();
        handles.into_iter().map(|handle| handle.join().expect("a game thread")).collect()
    });
    assert_eq!(alone, together);
}
