//! A failure's call stack as the bot's author reads it: the bot's own frames, innermost first,
//! with the frames of other code (std, core, alloc, the SDK, other crates) folded into counts
//! and recursion folded into cycles, and the lines that print it.
//!
//! The sandbox builds stacks (it alone sees wasm frames); traces, reports, the replayer and the
//! language server only read them. A stack is bounded however deep the bot recursed: cycles are
//! folded while the frames are walked and what is kept is capped, with the number dropped said.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::SourceLocation;
use crate::text::printable;

/// The most frames a stack keeps (the sandbox's cap while walking, and the readers' cap on
/// stacks from traces, which anyone can write).
pub const MAX_FRAMES: usize = 64;

/// One of the bot's own frames (a function, possibly inlined into its caller).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StackFrame {
    /// The function, demangled without its hash (`my_bot::region_size`); `#12` when the
    /// module names none.
    pub function: String,
    /// Where in it execution was (the call to the next inner frame); `None` without DWARF.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<SourceLocation>,
    /// Frames of other code between this frame and the next inner kept one (for the innermost
    /// frame: the frames it had called into, e.g. the panic machinery).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub folded: u32,
    /// When this frame opens a folded recursion: the frames it spans (this one and the ones
    /// after it) and how many times they repeated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cycle: Option<Cycle>,
}

/// A run of frames that repeated: `frames` frames, `times` times in a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cycle {
    /// Frames in one round of the cycle.
    pub frames: u32,
    /// Rounds.
    pub times: u32,
}

/// The bot's frames of a failure, innermost first; see the module docs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallStack {
    /// The kept frames, innermost first, each round of a cycle kept once.
    pub frames: Vec<StackFrame>,
    /// Outer frames not kept (the stack was deeper than the sandbox keeps).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub dropped: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// The recursion of a stack: which frames repeat and how often.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Recursion<'a> {
    /// One round, innermost first.
    pub frames: &'a [StackFrame],
    /// Rounds.
    pub times: u32,
    /// Which frame of the round is the outermost of the recursion (the function its caller
    /// entered it through): a round is folded where the innermost frames first repeat, which
    /// need not be where the recursion was entered.
    entry: usize,
}

impl Recursion<'_> {
    /// The cycle in call order, from the function the recursion was entered through and back
    /// to it: `my_bot::a → my_bot::b → my_bot::a`.
    pub fn call_order(&self) -> String {
        let period = self.frames.len();
        let mut names: Vec<&str> = (0..period)
            .map(|k| short(&self.frames[(self.entry + period - k) % period].function))
            .collect();
        names.push(names[0]);
        names.join(" → ")
    }

    /// The recursive call the author must change: the frame of the round that calls back into
    /// the function the recursion was entered through (a frame's location is its call to the
    /// next inner frame).
    pub fn call(&self) -> &StackFrame {
        &self.frames[(self.entry + 1) % self.frames.len()]
    }
}

impl CallStack {
    /// The stack cut to its innermost [`MAX_FRAMES`] frames, the rest counted as dropped: what
    /// a reader keeps of a stack it did not build.
    pub fn bounded(mut self) -> CallStack {
        if self.frames.len() > MAX_FRAMES {
            let cut = u32::try_from(self.frames.len() - MAX_FRAMES).unwrap_or(u32::MAX);
            self.frames.truncate(MAX_FRAMES);
            self.dropped = self.dropped.saturating_add(cut);
        }
        self
    }

    /// The innermost bot frame.
    pub fn innermost(&self) -> Option<&StackFrame> {
        self.frames.first()
    }

    /// The cycle that repeated most, if any frames repeated.
    pub fn recursion(&self) -> Option<Recursion<'_>> {
        let mut best: Option<Recursion<'_>> = None;
        for (index, frame) in self.frames.iter().enumerate() {
            let Some(cycle) = frame.cycle else { continue };
            let end = index.saturating_add(cycle.frames as usize).min(self.frames.len());
            let round = &self.frames[index..end];
            if round.is_empty() || best.is_some_and(|b| cycle.times <= b.times) {
                continue;
            }
            // Frames after the folded rounds that begin one more round, left unfolded because
            // the recursion was entered part-way through a round.
            let partial = self.frames[end..]
                .iter()
                .zip(round)
                .take_while(|(outer, inner)| {
                    outer.function == inner.function && outer.location == inner.location
                })
                .count();
            let entry = (partial + round.len() - 1) % round.len();
            best = Some(Recursion { frames: round, times: cycle.times, entry });
        }
        best
    }

    /// The distinct bot functions on the stack, innermost first (for failure identities).
    pub fn functions(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        for frame in &self.frames {
            if !names.contains(&frame.function.as_str()) {
                names.push(&frame.function);
            }
        }
        names
    }

    /// A stack of the bot's functions alone, without locations, from `functions` innermost
    /// first (a memory growth site's callers, which name no lines).
    pub fn of_functions<S: Into<String>>(functions: impl IntoIterator<Item = S>) -> CallStack {
        let frames = functions
            .into_iter()
            .map(|function| StackFrame {
                function: function.into(),
                location: None,
                folded: 0,
                cycle: None,
            })
            .collect();
        CallStack { frames, dropped: 0 }
    }

    /// The stack as one line, innermost first: the one way every report names the bot's call
    /// chain (failures of every kind, wasted moves, memory growth, the replayer's status line):
    ///
    /// ```text
    /// my_bot::helper ← [×1,942 my_bot::b ← my_bot::a] ← my_bot::play ← … 12 outer frames
    /// ```
    ///
    /// At most [`MAX_FRAMES`] frames; every name [`printable`] (a name is the bot's text); a
    /// frame without a name (a place a runner stated alone) is left out.
    pub fn chain(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        let mut left_in_cycle = 0;
        for frame in self.frames.iter().take(MAX_FRAMES) {
            let opens = frame.cycle.filter(|_| left_in_cycle == 0);
            if frame.function.is_empty() && opens.is_none() && left_in_cycle == 0 {
                continue;
            }
            let mut part = printable(&frame.function).into_owned();
            if let Some(cycle) = opens {
                part = format!("[×{} {part}", thousands(u64::from(cycle.times)));
                left_in_cycle = cycle.frames.max(1);
            }
            if left_in_cycle > 0 {
                left_in_cycle -= 1;
                if left_in_cycle == 0 {
                    part.push(']');
                }
            }
            parts.push(part);
        }
        let cut = self.frames.len().saturating_sub(MAX_FRAMES) as u64;
        let dropped = u64::from(self.dropped) + cut;
        if dropped > 0 {
            parts.push(format!("… {} outer frames", thousands(dropped)));
        }
        parts.join(" ← ")
    }

    /// The stack as lines of text, innermost first, for terminals and hovers:
    ///
    /// ```text
    /// my_bot::helper  src/lib.rs:8:5  (+3 std/SDK frames)
    /// ┌ ×1,942
    /// │ my_bot::b  src/lib.rs:20:5
    /// └ my_bot::a  src/lib.rs:15:5
    /// my_bot::play  src/lib.rs:30:9
    /// … 12 outer frames not kept
    /// ```
    pub fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        let mut open: Option<usize> = None;
        for (index, frame) in self.frames.iter().enumerate() {
            if let Some(cycle) = frame.cycle.filter(|_| open.is_none()) {
                lines.push(format!("┌ ×{}", thousands(u64::from(cycle.times))));
                open = Some(index + cycle.frames.max(1) as usize - 1);
            }
            let prefix = match open {
                Some(last) if last == index => {
                    open = None;
                    "└ "
                }
                Some(_) => "│ ",
                None => "",
            };
            lines.push(format!("{prefix}{}", frame_text(frame)));
        }
        if self.dropped > 0 {
            lines.push(format!("… {} outer frames not kept", thousands(u64::from(self.dropped))));
        }
        lines
    }
}

/// One frame as a line: `function  file:line:column  (+3 std/SDK frames)`.
pub fn frame_text(frame: &StackFrame) -> String {
    let mut text = frame.function.clone();
    match &frame.location {
        Some(location) => {
            let _ = write!(text, "  {location}");
        }
        None => text.push_str("  (no line: the module has no DWARF)"),
    }
    match frame.folded {
        0 => {}
        1 => text.push_str("  (+1 std/SDK frame)"),
        n => {
            let _ = write!(text, "  (+{} std/SDK frames)", thousands(u64::from(n)));
        }
    }
    text
}

/// A function's name without its module path when that is long: `a::b::c::f` → `c::f`.
fn short(function: &str) -> &str {
    let mut cut = function.len();
    for _ in 0..2 {
        match function[..cut].rfind("::") {
            Some(at) => cut = at,
            None => return function,
        }
    }
    &function[cut + 2..]
}

/// A count with thousands separators: `1,942`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(function: &str, line: u32) -> StackFrame {
        StackFrame {
            function: function.into(),
            location: Some(SourceLocation { file: "src/lib.rs".into(), line, column: 5 }),
            folded: 0,
            cycle: None,
        }
    }

    #[test]
    fn a_stack_prints_innermost_first_with_its_cycle_and_what_was_dropped() {
        let mut helper = frame("bot::helper", 8);
        helper.folded = 3;
        let mut b = frame("bot::b", 20);
        b.cycle = Some(Cycle { frames: 2, times: 1942 });
        let stack = CallStack {
            frames: vec![helper, b, frame("bot::a", 15), frame("bot::play", 30)],
            dropped: 12,
        };
        assert_eq!(
            stack.lines(),
            [
                "bot::helper  src/lib.rs:8:5  (+3 std/SDK frames)",
                "┌ ×1,942",
                "│ bot::b  src/lib.rs:20:5",
                "└ bot::a  src/lib.rs:15:5",
                "bot::play  src/lib.rs:30:5",
                "… 12 outer frames not kept",
            ]
        );
        let recursion = stack.recursion().expect("a cycle");
        assert_eq!(recursion.call_order(), "bot::a → bot::b → bot::a");
        assert_eq!((recursion.times, recursion.call().location.as_ref().unwrap().line), (1942, 20));
        assert_eq!(stack.functions(), ["bot::helper", "bot::b", "bot::a", "bot::play"]);
    }

    #[test]
    fn a_stack_is_one_chain_with_its_cycle_bracketed_and_names_made_printable() {
        let mut b = frame("bot::b", 20);
        b.cycle = Some(Cycle { frames: 2, times: 1942 });
        let stack = CallStack {
            frames: vec![frame("bot::helper", 8), b, frame("bot::a", 15), frame("bot::play", 30)],
            dropped: 12,
        };
        assert_eq!(
            stack.chain(),
            "bot::helper ← [×1,942 bot::b ← bot::a] ← bot::play ← … 12 outer frames"
        );
        let evil = CallStack::of_functions(["hoard\u{1b}[2J\nx", "play"]);
        assert_eq!(evil.chain(), "hoard\\u{1b}[2J\\u{a}x ← play");
        let deep = CallStack::of_functions((0..100).map(|n| format!("f{n}")));
        assert!(deep.chain().ends_with("← f63 ← … 36 outer frames"), "{}", deep.chain());
        assert_eq!(CallStack::default().chain(), "");
        assert_eq!(CallStack::of_functions(["", "play"]).chain(), "play");
    }

    #[test]
    fn a_recursion_entered_part_way_through_a_round_names_the_call_back_into_its_entry() {
        // play → b → a → b → … → b → helper: the rounds fold as (b, a) from the inside, but
        // the recursion was entered through `b`, so `a`'s call back into `b` is the one to change.
        let mut b = frame("bot::b", 20);
        b.cycle = Some(Cycle { frames: 2, times: 300 });
        let stack = CallStack {
            frames: vec![
                frame("bot::helper", 8),
                b,
                frame("bot::a", 15),
                frame("bot::b", 20),
                frame("bot::play", 30),
            ],
            dropped: 0,
        };
        let recursion = stack.recursion().unwrap();
        assert_eq!(recursion.call_order(), "bot::b → bot::a → bot::b");
        assert_eq!(recursion.call().function, "bot::a");
        let entered_through_a = CallStack { frames: stack.frames[..3].to_vec(), dropped: 0 };
        let recursion = entered_through_a.recursion().unwrap();
        assert_eq!(recursion.call_order(), "bot::a → bot::b → bot::a");
        assert_eq!(recursion.call().function, "bot::b");
    }

    #[test]
    fn a_self_recursion_is_one_frame_cycle_and_long_paths_are_shortened() {
        let mut f = frame("my_bot::grid::region_size", 12);
        f.cycle = Some(Cycle { frames: 1, times: 7 });
        let stack = CallStack { frames: vec![f], dropped: 0 };
        assert_eq!(stack.lines(), ["┌ ×7", "└ my_bot::grid::region_size  src/lib.rs:12:5"]);
        assert_eq!(
            stack.recursion().unwrap().call_order(),
            "grid::region_size → grid::region_size"
        );
        assert!(CallStack::default().recursion().is_none());
    }

    #[test]
    fn a_cycle_longer_than_the_frames_kept_does_not_panic() {
        let mut f = frame("f", 1);
        f.cycle = Some(Cycle { frames: 40, times: 2 });
        let stack = CallStack { frames: vec![f], dropped: 0 };
        assert_eq!(stack.recursion().unwrap().frames.len(), 1);
        assert_eq!(stack.lines().len(), 2);
    }

    #[test]
    fn a_stack_read_from_anywhere_is_bounded() {
        let frames: Vec<StackFrame> = (0..1000).map(|line| frame("f", line)).collect();
        let stack = CallStack { frames, dropped: 5 }.bounded();
        assert_eq!((stack.frames.len(), stack.dropped), (MAX_FRAMES, 1000 - MAX_FRAMES as u32 + 5));
        assert_eq!(stack.lines().len(), MAX_FRAMES + 1);
    }

    #[test]
    fn counts_have_thousands_separators() {
        assert_eq!(thousands(7), "7");
        assert_eq!(thousands(1942), "1,942");
        assert_eq!(thousands(100_000), "100,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
