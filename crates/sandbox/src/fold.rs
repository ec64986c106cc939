//! Folding a walk of call-stack frames into a bounded [`CallStack`]: the bot's frames kept,
//! other code's frames counted, recursion folded into cycles as the frames arrive.
//!
//! A stack overflow can leave tens of thousands of frames; what is kept never grows past
//! [`MAX_KEPT`] frames, and each frame costs a bounded amount of work (cycles of up to
//! [`MAX_PERIOD`] frames are recognised), so a 100,000-frame recursion folds in one pass into a
//! handful of frames with its count.

// The most bot frames a stack keeps; outer frames past them are counted as dropped.
use botlens_engine::stack::MAX_FRAMES as MAX_KEPT;
use botlens_engine::{CallStack, Cycle, SourceLocation, StackFrame};

/// The longest cycle (in frames per round) that is folded.
pub(crate) const MAX_PERIOD: usize = 8;

/// A cycle at the end of the kept frames that the next frames may repeat again.
#[derive(Debug, Clone, Copy)]
struct Open {
    /// Its first frame's index.
    start: usize,
    /// Frames per round.
    period: usize,
    /// Frames of the next round seen so far (kept after the cycle until the round completes).
    matched: usize,
}

/// Builds a [`CallStack`] from frames given innermost first.
#[derive(Debug, Default)]
pub(crate) struct Folder {
    stack: CallStack,
    /// Other code's frames since the last bot frame.
    foreign: u32,
    open: Option<Open>,
    /// Frames before this index are never folded again (they belong to a closed cycle).
    frozen: usize,
}

/// Whether two frames are the same place in the same function (their folded counts aside).
fn same(a: &StackFrame, b: &StackFrame) -> bool {
    a.function == b.function && a.location == b.location
}

impl Folder {
    /// A frame of code that is not the bot's.
    pub fn foreign(&mut self) {
        self.foreign = self.foreign.saturating_add(1);
    }

    /// The bot's next (outer) frame.
    pub fn bot(&mut self, function: String, location: Option<SourceLocation>) {
        let frame = StackFrame {
            function,
            location,
            folded: std::mem::take(&mut self.foreign),
            cycle: None,
        };
        let frames = &mut self.stack.frames;
        if let Some(open) = &mut self.open {
            if same(&frame, &frames[open.start + open.matched]) {
                frames.push(frame);
                open.matched += 1;
                if open.matched == open.period {
                    frames.truncate(open.start + open.period);
                    if let Some(cycle) = &mut frames[open.start].cycle {
                        cycle.times = cycle.times.saturating_add(1);
                    }
                    open.matched = 0;
                }
                return;
            }
            self.frozen = open.start + open.period;
            self.open = None;
        }
        if frames.len() >= MAX_KEPT {
            self.stack.dropped = self.stack.dropped.saturating_add(1);
            return;
        }
        frames.push(frame);
        self.fold_tail();
    }

    /// Folds the newest frames into a cycle when they repeat the ones before them.
    fn fold_tail(&mut self) {
        let frames = &mut self.stack.frames;
        let n = frames.len();
        for period in 1..=MAX_PERIOD {
            let Some(start) = n.checked_sub(2 * period).filter(|&s| s >= self.frozen) else {
                return;
            };
            let (first, second) = frames[start..].split_at(period);
            let repeats = first.iter().zip(second).all(|(a, b)| same(a, b));
            if repeats && frames[start..].iter().all(|f| f.cycle.is_none()) {
                frames.truncate(start + period);
                frames[start].cycle = Some(Cycle { frames: period as u32, times: 2 });
                self.open = Some(Open { start, period, matched: 0 });
                return;
            }
        }
    }

    /// The stack; a round of a cycle left half-seen stays as plain frames.
    pub fn finish(self) -> CallStack {
        self.stack
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: u32) -> Option<SourceLocation> {
        Some(SourceLocation { file: "src/lib.rs".into(), line, column: 5 })
    }

    fn walk(frames: impl IntoIterator<Item = (&'static str, u32)>) -> CallStack {
        let mut folder = Folder::default();
        for (function, line) in frames {
            if function == "std" {
                folder.foreign();
            } else {
                folder.bot(function.into(), at(line));
            }
        }
        folder.finish()
    }

    #[test]
    fn recursion_through_two_functions_folds_into_one_cycle_a_hundred_thousand_frames_deep() {
        let inner = [("helper", 3), ("std", 0), ("a", 10)];
        let rounds = std::iter::repeat_n([("b", 20), ("a", 11)], 50_000).flatten();
        let outer = [("b", 20), ("play", 30), ("std", 0)];
        let stack = walk(inner.into_iter().chain(rounds).chain(outer));
        let names: Vec<&str> = stack.frames.iter().map(|f| f.function.as_str()).collect();
        assert_eq!(names, ["helper", "a", "b", "a", "b", "play"]);
        assert_eq!(stack.frames[1].folded, 1, "the std frame between helper and a");
        assert_eq!(stack.frames[2].cycle, Some(Cycle { frames: 2, times: 50_000 }));
        let recursion = stack.recursion().unwrap();
        // `play` entered the recursion through `b`, so the call to change is `a`'s call back.
        assert_eq!(recursion.call_order(), "b → a → b");
        assert_eq!(recursion.call().location, at(11));
        assert_eq!(stack.dropped, 0);
    }

    #[test]
    fn a_self_recursion_is_counted_and_what_does_not_repeat_is_capped() {
        let stack = walk(std::iter::repeat_n(("region_size", 7), 1942));
        assert_eq!(stack.frames.len(), 1);
        assert_eq!(stack.frames[0].cycle, Some(Cycle { frames: 1, times: 1942 }));
        let distinct: Vec<(&'static str, u32)> = (0..100_000).map(|line| ("f", line)).collect();
        let stack = walk(distinct);
        assert_eq!((stack.frames.len(), stack.dropped), (MAX_KEPT, 100_000 - MAX_KEPT as u32));
    }

    #[test]
    fn a_cycle_longer_than_the_longest_folded_is_kept_as_it_is_up_to_the_cap() {
        let round: Vec<(&'static str, u32)> =
            (0..MAX_PERIOD as u32 + 1).map(|l| ("g", l)).collect();
        let stack = walk(std::iter::repeat_n(round, 1000).flatten());
        assert!(stack.frames.iter().all(|f| f.cycle.is_none()));
        assert_eq!(stack.frames.len(), MAX_KEPT);
    }

    #[test]
    fn two_cycles_one_after_the_other_stay_apart() {
        let first = std::iter::repeat_n(("a", 1), 5);
        let second = std::iter::repeat_n([("b", 2), ("c", 3)], 4).flatten();
        let stack = walk(first.chain(second));
        let cycles: Vec<_> = stack.frames.iter().map(|f| f.cycle.map(|c| c.times)).collect();
        assert_eq!(cycles, [Some(5), Some(4), None]);
        assert_eq!(stack.recursion().unwrap().times, 5);
    }
}
