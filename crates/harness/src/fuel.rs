//! Fuel profiles summarised: fuel per call stack (sandbox profiles merged), by function and by
//! line of the bot's own source, the turn that lost a game by running out of fuel, and the
//! lines that grew the memory of a game lost by reaching its memory limit.
//!
//! Below [`crate::profile`] (`botlens profile`) and [`crate::report`] (whose `out_of_fuel`
//! groups carry their failing turn's lines, [`failing_turns`], and whose `memory_limit` groups
//! the lines that grew the memory, [`memory_growth`]); knows no pipeline and no report.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use botlens_engine::text::printable;
use botlens_engine::{FailureKind, SourceLocation};
use botlens_games::{GameVisitor, Scored};
use botlens_sandbox::{FuelProfile, ProfileFrame};
use serde::{Deserialize, Serialize};

use crate::suite::{self, Contender, Suite, SuiteResults, WasmBot};
use crate::tally::{FailureTally, Position};

/// Epoch checks between two samples unless asked otherwise.
pub const DEFAULT_INTERVAL: u64 = 1000;

/// Lines kept per game that ran out of fuel.
pub const FAILING_TURN_LINES: usize = 5;

/// What the stack-less fuel of a turn is called (burnt where no wasm frame could be seen).
pub(crate) const NO_FRAME: &str = "(no wasm frame)";

/// Fuel of one function, over every game.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FunctionCost {
    /// The function's name, demangled without its hash.
    pub function: String,
    /// Whether it is the bot's own code.
    pub bot: bool,
    /// Its source file, when known.
    pub file: Option<String>,
    /// Fuel burnt in it.
    pub self_fuel: u64,
    /// Fuel burnt in it and in what it called.
    pub total_fuel: u64,
    /// For the bot's own functions: fuel whose innermost frame of the bot's code is this
    /// function (its self fuel plus that of the std, crate and SDK code it called); else 0.
    pub own_fuel: u64,
    /// `self_fuel` as a percentage of all the fuel.
    pub self_percent: f64,
    /// `total_fuel` as a percentage of all the fuel.
    pub total_percent: f64,
    /// `own_fuel` as a percentage of all the fuel.
    pub own_percent: f64,
}

/// Fuel of one line of the bot's source.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LineCost {
    /// The source file, as the debug information names it.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// The function the line is in.
    pub function: String,
    /// Fuel whose innermost frame of the bot's own code was on this line.
    pub self_fuel: u64,
    /// Fuel with this line anywhere on the stack.
    pub total_fuel: u64,
    /// `self_fuel` as a percentage of the fuel profiled.
    pub self_percent: f64,
    /// `total_fuel` as a percentage of the fuel profiled.
    pub total_percent: f64,
}

/// One line of the bot's source that grew its memory over a game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GrowthSite {
    /// The source file, as the debug information names it.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// The function the line is in.
    pub function: String,
    /// Bytes the memory grew by while this line was the innermost of the bot's own code on the
    /// stack (the allocation it made, or the std or SDK code it called).
    pub bytes: u64,
    /// `bytes` as a percentage of the game's growth.
    pub percent: f64,
    /// The bot's own functions on the stack that grew the most there, outermost first.
    pub callers: Vec<String>,
}

impl Eq for GrowthSite {}

impl GrowthSite {
    /// `file:line` with the file relative to `base`, printable (the file is the bot's text).
    pub fn place(&self, base: &Path) -> String {
        place(&self.file, self.line, base)
    }
}

/// Growth sites as text, one each: `93.8 %  +1,024 KiB  src/lib.rs:14  in hoard ← play`. Names
/// and files come from the bot's debug info or source map, so each is [`printable`].
pub fn render_growth(sites: &[GrowthSite], base: &Path) -> Vec<String> {
    sites
        .iter()
        .map(|site| {
            let kib = botlens_engine::stack::thousands(site.bytes / 1024);
            let callers = site.callers.iter().rev().map(|caller| printable(caller));
            let chain = callers.collect::<Vec<_>>().join(" ← ");
            format!("{:5.1} %  +{kib} KiB  {}  in {chain}", site.percent, site.place(base))
        })
        .collect()
}

/// The lines that grew the memory of `profile`'s game most (at most [`FAILING_TURN_LINES`]).
pub fn growth_sites(profile: &FuelProfile) -> Vec<GrowthSite> {
    let mut stacks = Stacks::default();
    for sample in &profile.growth {
        let stack = sample.stack.iter().map(|&i| profile.frames[i as usize].clone()).collect();
        *stacks.0.entry(stack).or_default() += sample.bytes;
    }
    let (lines, _) = stacks.lines();
    // A line that only called the code that grew the memory is on the callers of another.
    lines
        .into_iter()
        .filter(|line| line.self_fuel > 0)
        .take(FAILING_TURN_LINES)
        .map(|line| {
            // The heaviest stack whose innermost line of the bot's code is this one.
            let innermost_here = |stack: &Vec<ProfileFrame>| {
                let own = stack.iter().rev().find(|f| f.bot && f.location.is_some());
                own.and_then(|f| f.location.as_ref())
                    .is_some_and(|l| l.file == line.file && l.line == line.line)
            };
            let heaviest = stacks
                .0
                .iter()
                .filter(|(stack, _)| innermost_here(stack))
                .max_by_key(|(_, bytes)| **bytes)
                .map(|(stack, _)| stack);
            let mut callers: Vec<String> = heaviest
                .into_iter()
                .flatten()
                .filter(|f| f.bot)
                .map(|f| f.function.clone())
                .collect();
            callers.dedup();
            GrowthSite {
                file: line.file,
                line: line.line,
                function: line.function,
                bytes: line.self_fuel,
                percent: line.self_percent,
                callers,
            }
        })
        .collect()
}

// The percentages are never NaN (`percent` of nothing is 0), so equality is an equivalence, as
// reports (which compare whole failure groups) need.
impl Eq for LineCost {}

/// One profiled game.
pub(crate) struct Played {
    /// The opponent's index in the suite.
    pub opponent: usize,
    /// The game's seed.
    pub seed: u64,
    /// The bot's profile.
    pub profile: FuelProfile,
    /// The bot ran out of fuel.
    pub out_of_fuel: bool,
}

/// One game of a validated suite at `position`, `bot` profiled in its seat.
pub(crate) fn play_profiled<G: Scored>(
    suite: &Suite,
    bot: &WasmBot,
    interval: u64,
    (opponent, seed, seat): Position,
) -> Played {
    let limits = &suite.sandbox_limits;
    let mut wasm = bot.module.player::<G>(seed, seat, limits).profiled(interval);
    let (_, record) = suite::play_match(suite, opponent, seed, seat, &mut wasm);
    let fault = record.outcome.fault.as_ref().filter(|fault| fault.seat == seat);
    Played {
        opponent,
        seed,
        profile: wasm.profile().unwrap_or_default(),
        out_of_fuel: fault.is_some_and(|f| f.failure.kind == FailureKind::OutOfFuel),
    }
}

/// Out-of-fuel groups whose failing turn [`failing_turns`] profiles, and memory-limit groups
/// whose growth [`memory_growth`] finds, per run.
pub const MAX_PROFILED_GROUPS: usize = 3;

/// Plays the first game of each `out_of_fuel` group of `results` again (the first
/// [`MAX_PROFILED_GROUPS`]) with the bot profiled: each group with its failing turn's top lines.
/// Nothing for other kinds, reference bots and JavaScript bots (whose frames are the
/// interpreter's); a run without such a failure costs nothing.
pub fn failing_turns<'r>(
    suite: &Suite,
    results: &'r SuiteResults,
) -> Vec<(&'r FailureTally, Vec<LineCost>)> {
    profiled_groups(suite, results, FailureKind::OutOfFuel)
        .into_iter()
        // A replay that did not run out of fuel (cut short) would show lines of another turn.
        .filter(|(_, played)| played.out_of_fuel)
        .filter_map(|(group, played)| Some((group, failing_turn(&played.profile)?.2)))
        .collect()
}

/// Plays the first game of each `memory_limit` group of `results` again (the first
/// [`MAX_PROFILED_GROUPS`]) with the bot profiled: each group with the lines that grew the
/// memory most over that game (not only the allocation that hit the limit). Nothing for other
/// kinds, reference bots and JavaScript bots.
pub fn memory_growth<'r>(
    suite: &Suite,
    results: &'r SuiteResults,
) -> Vec<(&'r FailureTally, Vec<GrowthSite>)> {
    profiled_groups(suite, results, FailureKind::MemoryLimit)
        .into_iter()
        .map(|(group, played)| (group, growth_sites(&played.profile)))
        .filter(|(_, sites)| !sites.is_empty())
        .collect()
}

/// The first game of each group of `kind` (the first [`MAX_PROFILED_GROUPS`]) played again
/// with the bot profiled; none for a reference bot or a runner's (JavaScript) bot.
fn profiled_groups<'r>(
    suite: &Suite,
    results: &'r SuiteResults,
    kind: FailureKind,
) -> Vec<(&'r FailureTally, Played)> {
    let Contender::Wasm(bot) = &suite.bot else { return Vec::new() };
    if bot.module.is_runner() {
        return Vec::new();
    }
    let groups = results.tally.groups.values();
    groups
        .filter(|g| g.first.failure.kind == kind)
        .take(MAX_PROFILED_GROUPS)
        .map(|group| {
            let position = group.first_at;
            (group, suite.game.visit(Replay { suite, bot, position }))
        })
        .collect()
}

/// One game played again, profiled.
struct Replay<'a> {
    suite: &'a Suite,
    bot: &'a WasmBot,
    position: Position,
}

impl GameVisitor for Replay<'_> {
    type Output = Played;

    fn visit<G: Scored>(self) -> Played {
        play_profiled::<G>(self.suite, self.bot, DEFAULT_INTERVAL, self.position)
    }
}

/// A profile's last turn (the one that lost the game): the bot's turn from 1, its fuel, and its
/// top lines (percentages of the turn's fuel).
pub(crate) fn failing_turn(profile: &FuelProfile) -> Option<(u32, u64, Vec<LineCost>)> {
    let last = profile.turns.len().checked_sub(1)?;
    let mut turn = Stacks::default();
    turn.add(profile, |index| index == last);
    let mut lines = turn.lines().0;
    lines.truncate(FAILING_TURN_LINES);
    Some((last as u32 + 1, turn.fuel(), lines))
}

/// Fuel per call stack, summed over samples.
#[derive(Default)]
pub(crate) struct Stacks(pub(crate) BTreeMap<Vec<ProfileFrame>, u64>);

impl Stacks {
    /// Adds the samples of `profile`'s turns that `keep` accepts (by index).
    pub(crate) fn add(&mut self, profile: &FuelProfile, keep: impl Fn(usize) -> bool) {
        let turns = profile.turns.iter().enumerate().filter(|(index, _)| keep(*index));
        for sample in turns.flat_map(|(_, turn)| &turn.samples) {
            let stack = sample.stack.iter().map(|&i| profile.frames[i as usize].clone()).collect();
            *self.0.entry(stack).or_default() += sample.fuel;
        }
    }

    pub(crate) fn fuel(&self) -> u64 {
        self.0.values().sum()
    }

    /// Every function by self fuel (then total fuel, then name).
    pub(crate) fn functions(&self) -> Vec<FunctionCost> {
        let total = self.fuel();
        // A function is its name in its file: std has many a `new` and `try_fold`.
        let mut by_name: BTreeMap<(&str, Option<&str>), FunctionCost> = BTreeMap::new();
        for (stack, &fuel) in &self.0 {
            let mut seen = BTreeSet::new();
            let mut own_seen = false;
            for (depth, frame) in stack.iter().enumerate().rev() {
                let file = frame.location.as_ref().map(|l| l.file.as_str());
                let key = (frame.function.as_str(), file);
                let cost = by_name.entry(key).or_insert_with(|| FunctionCost {
                    function: frame.function.clone(),
                    bot: frame.bot,
                    file: frame.location.as_ref().map(|l| l.file.clone()),
                    self_fuel: 0,
                    total_fuel: 0,
                    own_fuel: 0,
                    self_percent: 0.0,
                    total_percent: 0.0,
                    own_percent: 0.0,
                });
                if depth + 1 == stack.len() {
                    cost.self_fuel += fuel;
                }
                if seen.insert(key) {
                    cost.total_fuel += fuel;
                }
                if frame.bot && !own_seen {
                    own_seen = true;
                    cost.own_fuel += fuel;
                }
            }
            if stack.is_empty() {
                let cost = by_name.entry((NO_FRAME, None)).or_insert_with(|| FunctionCost {
                    function: NO_FRAME.to_owned(),
                    bot: false,
                    file: None,
                    self_fuel: 0,
                    total_fuel: 0,
                    own_fuel: 0,
                    self_percent: 0.0,
                    total_percent: 0.0,
                    own_percent: 0.0,
                });
                cost.self_fuel += fuel;
                cost.total_fuel += fuel;
            }
        }
        let mut functions: Vec<FunctionCost> = by_name
            .into_values()
            .map(|cost| FunctionCost {
                self_percent: percent(cost.self_fuel, total),
                total_percent: percent(cost.total_fuel, total),
                own_percent: percent(cost.own_fuel, total),
                ..cost
            })
            .collect();
        functions.sort_by(|a, b| {
            (b.self_fuel, b.total_fuel)
                .cmp(&(a.self_fuel, a.total_fuel))
                .then(a.function.cmp(&b.function))
        });
        functions
    }

    /// The bot's lines by self fuel (then total fuel, then place), and the fuel with none of
    /// them on the stack.
    pub(crate) fn lines(&self) -> (Vec<LineCost>, u64) {
        let total = self.fuel();
        let mut by_line: BTreeMap<(&str, u32), LineCost> = BTreeMap::new();
        let mut outside = 0;
        for (stack, &fuel) in &self.0 {
            let own = |frame: &&ProfileFrame| frame.bot && frame.location.is_some();
            let mut seen = BTreeSet::new();
            let mut innermost = true;
            for frame in stack.iter().rev().filter(own) {
                let Some(location) = &frame.location else { continue };
                let key = (location.file.as_str(), location.line);
                let cost = by_line.entry(key).or_insert_with(|| LineCost {
                    file: location.file.clone(),
                    line: location.line,
                    function: frame.function.clone(),
                    self_fuel: 0,
                    total_fuel: 0,
                    self_percent: 0.0,
                    total_percent: 0.0,
                });
                if std::mem::take(&mut innermost) {
                    cost.self_fuel += fuel;
                }
                if seen.insert(key) {
                    cost.total_fuel += fuel;
                }
            }
            if innermost {
                outside += fuel;
            }
        }
        let mut lines: Vec<LineCost> = by_line
            .into_values()
            .map(|cost| LineCost {
                self_percent: percent(cost.self_fuel, total),
                total_percent: percent(cost.total_fuel, total),
                ..cost
            })
            .collect();
        lines.sort_by(|a, b| {
            (b.self_fuel, b.total_fuel)
                .cmp(&(a.self_fuel, a.total_fuel))
                .then((&a.file, a.line).cmp(&(&b.file, b.line)))
        });
        (lines, outside)
    }
}

/// `part` of `whole` in percent (0 when the whole is 0).
pub(crate) fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 { 0.0 } else { part as f64 * 100.0 / whole as f64 }
}

/// `file` relative to `base` when it lies inside it.
pub(crate) fn relative(file: &str, base: &Path) -> String {
    Path::new(file)
        .strip_prefix(base)
        .map_or_else(|_| file.to_owned(), |relative| relative.display().to_string())
}

/// `file:line` with the file relative to `base`, [`printable`]: a file name from a bot's debug
/// info or source map may hold a newline or a terminal escape.
fn place(file: &str, line: u32, base: &Path) -> String {
    let location = SourceLocation { file: relative(file, base), line, column: 0 };
    printable(&location.to_string()).into_owned()
}

impl LineCost {
    /// `file:line` with the file relative to `base`, printable (the file is the bot's text).
    pub fn place(&self, base: &Path) -> String {
        place(&self.file, self.line, base)
    }
}

/// Lines as text, one each, files relative to `base`: `97.1 %  src/lib.rs:20  in my_bot::spin`.
/// Names and files come from the bot's debug info or source map, so each is [`printable`].
pub fn render_lines(lines: &[LineCost], base: &Path) -> Vec<String> {
    lines
        .iter()
        .map(|line| {
            let function = printable(&line.function);
            format!("{:5.1} %  {}  in {function}", line.self_percent, line.place(base))
        })
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A frame of `src/lib.rs` (at `line`, if any).
    pub(crate) fn frame(function: &str, line: Option<u32>, bot: bool) -> ProfileFrame {
        let location =
            line.map(|line| SourceLocation { file: "src/lib.rs".into(), line, column: 1 });
        ProfileFrame { function: function.into(), location, bot }
    }

    /// Stacks with their fuel.
    pub(crate) fn stacks(samples: &[(&[ProfileFrame], u64)]) -> Stacks {
        Stacks(samples.iter().map(|(stack, fuel)| (stack.to_vec(), *fuel)).collect())
    }

    #[test]
    fn the_lines_that_grew_the_memory_most_come_first_with_their_callers() {
        let frames = vec![
            frame("play", Some(30), true),
            frame("hoard", Some(14), true),
            frame("alloc::raw_vec::grow", Some(500), false),
            frame("note", Some(20), true),
        ];
        let growth = |stack: Vec<u32>, bytes| botlens_sandbox::GrowthSample { stack, bytes };
        let profile = FuelProfile {
            interval: 1000,
            frames,
            turns: Vec::new(),
            growth: vec![
                growth(vec![0, 1, 2], 3 << 20),
                growth(vec![0, 3, 2], 1 << 16),
                growth(vec![2], 1 << 16),
            ],
        };
        let sites = growth_sites(&profile);
        let placed: Vec<(u32, u64, &[String])> =
            sites.iter().map(|s| (s.line, s.bytes, s.callers.as_slice())).collect();
        let chain = |names: &[&str]| names.iter().map(|n| (*n).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            placed,
            [
                (14, 3 << 20, chain(&["play", "hoard"]).as_slice()),
                (20, 1 << 16, chain(&["play", "note"]).as_slice())
            ]
        );
        let total = (3 << 20) + (2 << 16);
        assert!((sites[0].percent - percent(3 << 20, total)).abs() < 1e-9, "of the whole growth");
        let text = render_growth(&sites, Path::new(""));
        assert_eq!(text[0], " 96.0 %  +3,072 KiB  src/lib.rs:14  in hoard ← play");
        assert!(growth_sites(&FuelProfile::default()).is_empty());
    }

    #[test]
    fn self_and_total_fuel_count_each_function_and_line_once_per_stack() {
        let play = frame("play", Some(10), true);
        let walk = frame("walk", Some(20), true);
        let push = frame("alloc::vec::Vec::push", Some(900), false);
        let stacks = stacks(&[
            (&[play.clone(), walk.clone(), walk.clone(), push.clone()], 60),
            (&[play.clone(), walk.clone()], 30),
            (std::slice::from_ref(&play), 6),
            (&[frame("botlens_new", None, false)], 4),
        ]);
        let functions = stacks.functions();
        let names: Vec<(&str, u64, u64)> =
            functions.iter().map(|f| (f.function.as_str(), f.self_fuel, f.total_fuel)).collect();
        assert_eq!(
            names,
            [
                ("alloc::vec::Vec::push", 60, 60),
                ("walk", 30, 90),
                ("play", 6, 96),
                ("botlens_new", 4, 4)
            ]
        );
        let own: Vec<(&str, u64)> =
            functions.iter().filter(|f| f.bot).map(|f| (f.function.as_str(), f.own_fuel)).collect();
        // Vec::push's fuel is walk's own: the innermost of the bot's frames above it.
        assert_eq!(own, [("walk", 90), ("play", 6)]);
        let sum: f64 = functions.iter().map(|f| f.self_percent).sum();
        assert!((sum - 100.0).abs() < 1e-9, "{sum}");
        let (lines, outside) = stacks.lines();
        let rows: Vec<(u32, u64, u64)> =
            lines.iter().map(|l| (l.line, l.self_fuel, l.total_fuel)).collect();
        // Vec::push is not the bot's: its 60 fuel go to the bot's line that called it.
        assert_eq!(rows, [(20, 90, 90), (10, 6, 96)]);
        assert_eq!(outside, 4);
    }
}
