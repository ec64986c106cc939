//! `botlens.draw`: a mark on the bot's board (`botlens_engine::drawing`), recorded with the line
//! that drew it when the player records marks ([`crate::WasmPlayer::drawing`]).
//!
//! A `position` or `stack` call made right before `draw` names the mark's line (and only it:
//! what was stated before stands again), which spares reading the bot's stack, a few
//! microseconds; the Rust SDK states its caller's line (`#[track_caller]`) so.
//!
//! The call never fails and never changes the game: it charges the same fuel whether the mark is
//! recorded or not ([`DRAW_FUEL`], plus one unit per 16 bytes it may read), and whatever it cannot
//! keep (a range outside memory, an unknown kind, a heat map too big, a mark past the turn's
//! bounds) is dropped and counted in the turn's drawing.

use botlens_engine::drawing::{self, Colour, Mark, Shape};
use botlens_engine::text::printable;
use botlens_engine::{Game, SourceLocation};
use botlens_protocol::drawing as kind;
use wasmtime::{Caller, Linker, WasmBacktrace};

use crate::abi::HOST_MODULE;
use crate::host::{self, Host};

/// Fuel a `draw` call costs on top of the call itself ([`host::CALL_FUEL`]), recorded or not:
/// the host's work to record one mark with its line (a backtrace and a cached lookup, about a
/// microsecond) is paid for whether it is done or not.
pub(crate) const DRAW_FUEL: u64 = 40;

/// The most bytes a `draw` call reads (a heat map of [`drawing::MAX_HEAT_CELLS`] values); a
/// longer range is dropped unread, and charged as this many.
pub(crate) const MAX_DRAW_READ: usize = drawing::MAX_HEAT_CELLS * 4;

/// Defines `botlens.draw` in `linker`.
pub(crate) fn add_to_linker<G: Game>(linker: &mut Linker<Host<G>>) -> wasmtime::Result<()> {
    linker.func_wrap(HOST_MODULE, "draw", draw::<G>)?;
    Ok(())
}

/// `botlens.draw(kind, x, y, to_x, to_y, colour, ptr, len)`.
#[allow(clippy::too_many_arguments)] // the ABI's signature
fn draw<G: Game>(
    mut caller: Caller<'_, Host<G>>,
    kind: i32,
    x: i32,
    y: i32,
    to_x: i32,
    to_y: i32,
    colour: i32,
    ptr: i32,
    len: i32,
) -> wasmtime::Result<()> {
    let bytes = (len as u32 as usize).min(MAX_DRAW_READ) as u64;
    host::refuse_while_sampling(&caller)?;
    // Taken before the charge, which ends it; taken whether recording or not, the same game.
    let site = caller.data_mut().take_drawing_site();
    host::charge(&mut caller, 0)?;
    host::charge_bytes(&mut caller, DRAW_FUEL * 16 + bytes)?;
    if !caller.data().records_marks || caller.data().turn.drawing().is_full() {
        if caller.data().records_marks {
            caller.data_mut().turn.drop_mark();
        }
        return Ok(());
    }
    let colour = Colour::from_abi(colour as u32);
    let text = |caller: &mut Caller<'_, Host<G>>, max: usize| read_text(caller, ptr, len, max);
    let shape = match kind {
        kind::CELL => Some(Shape::Cell { x, y, colour }),
        kind::ARROW => Some(Shape::Arrow { x, y, to_x, to_y, colour }),
        kind::HEAT => read_heat(&mut caller, x, ptr, len),
        kind::LABEL => text(&mut caller, drawing::MAX_LABEL_BYTES).map(|text| Shape::Label {
            x,
            y,
            text,
            colour,
        }),
        kind::STATUS => {
            text(&mut caller, drawing::MAX_STATUS_BYTES).map(|text| Shape::Status { text })
        }
        _ => None,
    };
    let Some(shape) = shape else {
        caller.data_mut().turn.drop_mark();
        return Ok(());
    };
    let location = match site {
        Some(stated) => stated.map(|stated| stated.location),
        None => drawn_at(&caller),
    };
    caller.data_mut().turn.draw(Mark { shape, location });
    Ok(())
}

/// The bot's line that is drawing, when it stated none for the mark: the innermost of its own
/// frames, or for a language runner (whose DWARF is the interpreter's) the position it stated
/// last.
fn drawn_at<G: Game>(caller: &Caller<'_, Host<G>>) -> Option<SourceLocation> {
    let host = caller.data();
    if host.runner {
        return host.stated().map(|stated| stated.location.clone());
    }
    host.locator.innermost_line(&WasmBacktrace::capture(caller))
}

/// The bytes `ptr..ptr + len` of the bot's memory, if they lie in it and are at most
/// [`MAX_DRAW_READ`].
fn read<G: Game, T>(
    caller: &mut Caller<'_, Host<G>>,
    ptr: i32,
    len: i32,
    with: impl FnOnce(&[u8]) -> Option<T>,
) -> Option<T> {
    if len as u32 as usize > MAX_DRAW_READ {
        return None;
    }
    let memory = host::memory_of(caller).ok()?;
    let mem = memory.data(&*caller);
    with(&mem[host::region(mem.len(), ptr, len)?])
}

/// A label's or status line's text: printable (control characters escaped), at most `max`
/// bytes, a longer one cut at a character and ended with `…`.
fn read_text<G: Game>(
    caller: &mut Caller<'_, Host<G>>,
    ptr: i32,
    len: i32,
    max: usize,
) -> Option<String> {
    read(caller, ptr, len, |bytes| Some(shown(&String::from_utf8_lossy(bytes), max)))
}

/// `text` printable and cut to at most `max` bytes (the cut marked with `…`).
fn shown(text: &str, max: usize) -> String {
    let text = printable(text);
    if text.len() <= max {
        return text.into_owned();
    }
    let mut end = max - '…'.len_utf8();
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

/// A heat map `width` columns wide from `len` bytes of little-endian `f32`s; `None` for a width
/// of 0 or over 64, or a length that is not a whole number of values.
fn read_heat<G: Game>(
    caller: &mut Caller<'_, Host<G>>,
    width: i32,
    ptr: i32,
    len: i32,
) -> Option<Shape> {
    let width = u32::try_from(width).ok().filter(|w| (1..=64).contains(w))?;
    read(caller, ptr, len, |bytes| {
        (bytes.len() % 4 == 0).then(|| Shape::Heat {
            width,
            values: bytes
                .chunks_exact(4)
                .map(|b| {
                    Some(f32::from_le_bytes([b[0], b[1], b[2], b[3]])).filter(|v| v.is_finite())
                })
                .collect(),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_text_is_printable_and_cut_at_a_character() {
        assert_eq!(shown("p=0.3", 32), "p=0.3");
        assert_eq!(shown("\u{1b}[2Jgone", 32), "\\u{1b}[2Jgone");
        let cut = shown("ééééé", 6);
        assert_eq!(cut, "é…");
        assert!(cut.len() <= 6);
    }
}
