//! The module's entry points behind [`export!`](crate::export): keeps the bot of the current game
//! and reports panics to the host.
//!
//! botlens makes a fresh instance for every game, so the bot lives in a plain per-instance slot.

use std::cell::RefCell;

use crate::{Bot, Start, Turn};

/// Plays one turn of the current game's bot.
type PlayFn = Box<dyn FnMut()>;

thread_local! {
    static BOT: RefCell<Option<PlayFn>> = const { RefCell::new(None) };
}

/// `botlens_new`: installs the panic reporter and makes the game's bot.
pub fn start<B: Bot>(seat: i32) {
    std::panic::set_hook(Box::new(report_panic));
    let seat =
        u32::try_from(seat).unwrap_or_else(|_| panic!("botlens gave a negative seat {seat}"));
    let mut bot = B::new(Start { seat });
    let mut turn: Option<Turn<B::Game>> = None;
    let play: PlayFn = Box::new(move || {
        let turn = match &mut turn {
            Some(turn) => {
                turn.next();
                turn
            }
            None => turn.insert(Turn::begin()),
        };
        bot.play(turn);
    });
    BOT.with(|slot| *slot.borrow_mut() = Some(play));
}

/// `botlens_play`: plays one turn.
pub fn play() {
    BOT.with_borrow_mut(|bot| bot.as_mut().expect("botlens_play was called before botlens_new")());
}

/// The panic hook: hands message and location to the host, which ends the game there.
fn report_panic(info: &std::panic::PanicHookInfo<'_>) {
    let message = info.payload_as_str().unwrap_or("(a panic without a message)");
    let (file, line, column) =
        info.location().map_or(("", 0, 0), |l| (l.file(), l.line(), l.column()));
    crate::abi::panic(message, file, line, column);
}
