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
use botlens_engine::{CallStack, FailureKind, SourceLocation};
use botlens_games::{GameVisitor, Scored};
use botlens_sandbox::{FuelProfile, ProfileFrame};
use serde::{Deserialize, Serialize};

use crate::suite::{self, Contender, Suite, SuiteResults, WasmBot};
use crate::tally::{FailureTally, Position};

/// Epoch checks between two samples unless asked otherwise.
pub const DEFAULT_INTERVAL: u64 = 1000;

/// Lines kept per game that ran out of fuel.
pub const FAILING_TURN_LINES: usize = 5;

/// What the stack-less fuel of a turn is called: burnt where no frame could be seen (no wasm
/// frame; for a runner that states its script's frames, no frame of the script).
pub(crate) const NO_FRAME: &str = "(no frame on the stack)";

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
            let chain = CallStack::of_functions(site.callers.iter().rev().cloned()).chain();
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
    let (_, record) = suite::play_match(suite, opponent, seed, seat, &mut wasm, false);
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
/// with the bot profiled; none for a reference bot or a bot of a runner that states no frames of
/// its script (JavaScript).
fn profiled_groups<'r>(
    suite: &Suite,
    results: &'r SuiteResults,
    kind: FailureKind,
) -> Vec<(&'r FailureTally, Played)> {
    let Contender::Wasm(bot) = &suite.bot else { return Vec::new() };
    if bot.module.is_runner() && !bot.module.profiles_script() {
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
/// top lines by total fuel ([`Stacks::lines_by_total`]; percentages of the turn's fuel).
pub(crate) fn failing_turn(profile: &FuelProfile) -> Option<(u32, u64, Vec<LineCost>)> {
    let last = profile.turns.len().checked_sub(1)?;
    let mut turn = Stacks::default();
    turn.add(profile, |index| index == last);
    let mut lines = turn.lines_by_total();
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

    /// Every function by self fuel (then total fuel, then name), each listed once
    /// ([`Stacks::folded_names`]).
    pub(crate) fn functions(&self) -> Vec<FunctionCost> {
        let total = self.fuel();
        let folded = self.folded_names();
        let mut by_name: BTreeMap<FunctionKey<'_>, FunctionCost> = BTreeMap::new();
        for (stack, &fuel) in &self.0 {
            let mut seen = BTreeSet::new();
            let mut own_seen = false;
            for (depth, frame) in stack.iter().enumerate().rev() {
                let key = folded[&function_key(frame)];
                let cost = by_name.entry(key).or_insert_with(|| FunctionCost {
                    function: key.0.to_owned(),
                    bot: false,
                    file: key.1.map(str::to_owned),
                    self_fuel: 0,
                    total_fuel: 0,
                    own_fuel: 0,
                    self_percent: 0.0,
                    total_percent: 0.0,
                    own_percent: 0.0,
                });
                cost.bot |= frame.bot;
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

    /// Each function as the profile lists it: a function is its name in its file (std has many
    /// a `new` and `try_fold`), but one function may be seen under two names, which are folded
    /// into one. Debug information names an inlined call by its short name (`value`) where the
    /// module names the function out of line in full (`minimax::value`): a short name goes to
    /// the one name in its file that ends in `::` and it. A frame without a line (a function's
    /// prologue) goes to the one function of its name, or whose name ends in `::` and it, that
    /// has a file. Where there are two candidates, nothing is folded: a guess would merge two
    /// functions.
    fn folded_names(&self) -> BTreeMap<FunctionKey<'_>, FunctionKey<'_>> {
        let keys: BTreeSet<FunctionKey<'_>> =
            self.0.keys().flat_map(|stack| stack.iter().map(function_key)).collect();
        keys.iter()
            .map(|&key| {
                let folded = match key.1 {
                    Some(_) => fold_in_file(&keys, key),
                    None => {
                        let located = keys.iter().filter(|(other, at)| {
                            at.is_some() && (*other == key.0 || names(other, key.0))
                        });
                        let targets: BTreeSet<FunctionKey<'_>> =
                            located.map(|&other| fold_in_file(&keys, other)).collect();
                        only(targets).unwrap_or(key)
                    }
                };
                (key, folded)
            })
            .collect()
    }

    /// The bot's lines by self fuel (then total fuel, then place), and the fuel with none of
    /// them on the stack.
    pub(crate) fn lines(&self) -> (Vec<LineCost>, u64) {
        let (lines, outside) = self.line_costs();
        let mut lines: Vec<LineCost> = lines.into_iter().map(|(cost, _)| cost).collect();
        lines.sort_by(|a, b| {
            (b.self_fuel, b.total_fuel)
                .cmp(&(a.self_fuel, a.total_fuel))
                .then((&a.file, a.line).cmp(&(&b.file, b.line)))
        });
        (lines, outside)
    }

    /// The bot's lines by total fuel, as a turn that ran out of fuel is read: the line of the
    /// loop that never ended leads, though most of its fuel burnt in the functions it called.
    /// Its callers carry as much fuel, or a little more (a call of `hunt` from `play` carries
    /// all of `hunt`'s, and `play` did something before), so lines whose totals round to the
    /// same whole percent come innermost first: the deepest such line on the stack is where the
    /// fuel went. Then self fuel, then place.
    pub(crate) fn lines_by_total(&self) -> Vec<LineCost> {
        let (mut lines, _) = self.line_costs();
        let shown = |cost: &LineCost| cost.total_percent.round() as u64;
        lines.sort_by(|(a, a_depth), (b, b_depth)| {
            (shown(b), b_depth, b.self_fuel)
                .cmp(&(shown(a), a_depth, a.self_fuel))
                .then((&a.file, a.line).cmp(&(&b.file, b.line)))
        });
        lines.into_iter().map(|(cost, _)| cost).collect()
    }

    /// Every line of the bot's own code with its fuel and its depth (the most lines of the
    /// bot's code outside it on one stack), in no order; and the fuel with none of them on the
    /// stack.
    fn line_costs(&self) -> (Vec<(LineCost, usize)>, u64) {
        let total = self.fuel();
        let folded = self.folded_names();
        let mut by_line: BTreeMap<(&str, u32), (LineCost, usize)> = BTreeMap::new();
        let mut outside = 0;
        for (stack, &fuel) in &self.0 {
            let own: Vec<(&ProfileFrame, &SourceLocation)> = stack
                .iter()
                .filter(|frame| frame.bot)
                .filter_map(|frame| Some((frame, frame.location.as_ref()?)))
                .collect();
            let mut seen = BTreeSet::new();
            for (depth, (frame, location)) in own.iter().enumerate().rev() {
                let key = (location.file.as_str(), location.line);
                let (cost, deepest) = by_line.entry(key).or_insert_with(|| {
                    let cost = LineCost {
                        file: location.file.clone(),
                        line: location.line,
                        function: folded[&function_key(frame)].0.to_owned(),
                        self_fuel: 0,
                        total_fuel: 0,
                        self_percent: 0.0,
                        total_percent: 0.0,
                    };
                    (cost, 0)
                });
                *deepest = (*deepest).max(depth);
                if depth + 1 == own.len() {
                    cost.self_fuel += fuel;
                }
                if seen.insert(key) {
                    cost.total_fuel += fuel;
                }
            }
            if own.is_empty() {
                outside += fuel;
            }
        }
        let lines = by_line
            .into_values()
            .map(|(cost, depth)| {
                let cost = LineCost {
                    self_percent: percent(cost.self_fuel, total),
                    total_percent: percent(cost.total_fuel, total),
                    ..cost
                };
                (cost, depth)
            })
            .collect();
        (lines, outside)
    }
}

/// A function as a profile tells functions apart: its name and its file.
type FunctionKey<'a> = (&'a str, Option<&'a str>);

/// The one name among `keys` in `key`'s file that is a longer name of `key`'s function
/// (`minimax::value` for `value`), else `key`.
fn fold_in_file<'a>(keys: &BTreeSet<FunctionKey<'a>>, key: FunctionKey<'a>) -> FunctionKey<'a> {
    let longer = keys.iter().filter(|(other, at)| *at == key.1 && names(other, key.0));
    only(longer.copied()).unwrap_or(key)
}

/// Whether `full` is a path that ends in the function `name`: `minimax::value` and `value`.
fn names(full: &str, name: &str) -> bool {
    full.strip_suffix(name).is_some_and(|path| path.ends_with("::"))
}

/// The one item of `items`, if there is exactly one.
fn only<T>(items: impl IntoIterator<Item = T>) -> Option<T> {
    let mut items = items.into_iter();
    let first = items.next()?;
    items.next().is_none().then_some(first)
}

/// The [`FunctionKey`] of `frame`.
fn function_key(frame: &ProfileFrame) -> FunctionKey<'_> {
    (frame.function.as_str(), frame.location.as_ref().map(|l| l.file.as_str()))
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

/// Lines as text, one each, files relative to `base`, with their total fuel (with the line on
/// the stack) and self fuel (with it innermost):
/// `100.0 % total,   2.9 % self  src/lib.rs:50  in my_bot::hunt`. Names and files come from the
/// bot's debug info or source map, so each is [`printable`].
pub fn render_lines(lines: &[LineCost], base: &Path) -> Vec<String> {
    lines
        .iter()
        .map(|line| {
            let function = printable(&line.function);
            format!(
                "{:5.1} % total, {:5.1} % self  {}  in {function}",
                line.total_percent,
                line.self_percent,
                line.place(base)
            )
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
    fn a_function_seen_under_two_names_or_without_a_line_is_listed_once() {
        let play = frame("bot::play", Some(10), true);
        let value_out_of_line = frame("bot::minimax::value", Some(20), true);
        let value_inlined = frame("value", Some(21), true);
        let value_prologue = frame("bot::minimax::value", None, false);
        // Two `new`s in one file: an inlined `new` there could be either, so it stays apart.
        let a_new = frame("bot::A::new", Some(30), true);
        let b_new = frame("bot::B::new", Some(40), true);
        let new_inlined = frame("new", Some(31), true);
        let stacks = stacks(&[
            (&[play.clone(), value_out_of_line.clone(), value_inlined.clone()], 50),
            (&[play.clone(), value_inlined], 20),
            (&[play.clone(), value_prologue], 5),
            (&[play.clone(), a_new, new_inlined], 3),
            (&[play.clone(), b_new], 2),
        ]);
        let names: Vec<(String, Option<String>, bool, u64, u64)> = stacks
            .functions()
            .into_iter()
            .map(|f| (f.function, f.file, f.bot, f.self_fuel, f.total_fuel))
            .collect();
        let lib = Some("src/lib.rs".to_owned());
        assert_eq!(
            names,
            [
                ("bot::minimax::value".to_owned(), lib.clone(), true, 75, 75),
                ("new".to_owned(), lib.clone(), true, 3, 3),
                ("bot::B::new".to_owned(), lib.clone(), true, 2, 2),
                ("bot::play".to_owned(), lib.clone(), true, 0, 80),
                ("bot::A::new".to_owned(), lib, true, 0, 3),
            ]
        );
        // The lines name the function as the table does.
        let (lines, _) = stacks.lines();
        assert_eq!((lines[0].line, lines[0].function.as_str()), (21, "bot::minimax::value"));
    }

    #[test]
    fn a_turn_that_ran_out_ranks_its_lines_by_total_fuel_the_loop_first() {
        // play (line 10) calls hunt, whose loop (line 50) calls huntable (line 20) each round:
        // most fuel burns in huntable, but the loop is what never ended.
        let play = frame("play", Some(10), true);
        let hunt = frame("hunt", Some(50), true);
        let huntable = frame("huntable", Some(20), true);
        let tied = stacks(&[
            (&[play.clone(), hunt.clone(), huntable.clone()], 700),
            (&[play.clone(), hunt.clone()], 296),
            (std::slice::from_ref(&play), 4),
        ]);
        let ranked: Vec<(u32, u64, u64)> =
            tied.lines_by_total().iter().map(|l| (l.line, l.self_fuel, l.total_fuel)).collect();
        // play's line carries 100 % and the loop's 99.6 %: alike to the percent, the loop's
        // line, deeper, leads.
        assert_eq!(ranked, [(50, 296, 996), (10, 4, 1000), (20, 700, 700)]);
        // A caller that burnt a percent more itself leads.
        let apart = stacks(&[
            (&[play.clone(), hunt.clone(), huntable], 700),
            (&[play.clone(), hunt], 280),
            (&[play], 20),
        ]);
        let ranked: Vec<u32> = apart.lines_by_total().iter().map(|l| l.line).collect();
        assert_eq!(ranked, [10, 50, 20]);
        let (by_self, _) = tied.lines();
        assert_eq!(by_self[0].line, 20, "by self fuel, the helper leads");
        assert_eq!(
            render_lines(&tied.lines_by_total()[..1], Path::new("")),
            [" 99.6 % total,  29.6 % self  src/lib.rs:50  in hunt"]
        );
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
