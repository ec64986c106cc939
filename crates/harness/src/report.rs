//! Suite reports: per-opponent scores and failures grouped by kind and source location, as a
//! table for people and as JSON for machines.
//!
//! # JSON (`botlens run --json`)
//!
//! One object:
//!
//! | field | meaning |
//! |---|---|
//! | `game` | game name |
//! | `bot` | the bot's name |
//! | `seeds` | the seed range, e.g. `0..=99` |
//! | `games` | games played |
//! | `duration_ms` | wall-clock time of the suite |
//! | `opponents[]` | per opponent (or board): `name`, `games`, `wins`, `losses`, `draws`, `mean_moves` (shots, marks or steps), `par` (puzzles: mean optimal steps of the boards played, else null), `faults` (games lost by a bot fault); in a paired run (`--paired`) also `pairs`: `pentanomial` (the pairs by the bot's points in the pair, 0, ½, 1, 1½, 2), `elo` (the bot's logistic Elo over the opponent, fishtest's: `kind` `estimate` with `elo`, `lower`, `upper` (null when unbounded) and `margin` (fishtest's ±), `too_few_games` with `games` and `needed` (fewer than 20 pairs), or `no_games`, `all_won`, `all_lost` with `games`) and `los` (the likelihood that the bot is the stronger, null with too few games); `outcomes`: the result on each seed, `first_seed`, `seat0` and (paired) `seat1`, one character per seed, `W`, `L`, `D` or `-` (not played), for the first 100,000 seeds (see `botlens_harness::outcomes`) |
//! | `failures[]` | per (kind, file, line): `kind`, `message` (of the first occurrence: the smallest opponent, then seed), `file`, `line`, `column` (null when unknown), `count`, `seeds` (at most 1,000 per opponent, the smallest), `opponents` (names), `seeds_by_opponent` (the seeds lost against each of `opponents`, in order), `first_seed`, `first_opponent`, `first_seat` (the bot's seat in that game: 1 only in a paired run), `first_turn` (its move number, every seat's moves counted: the name is kept from older reports), `first_bot_turn` (which of the bot's own turns that was; see `botlens_engine::words`), `replay` (the command that steps through the first game), `replays` (the command that steps through the first game lost against each of `opponents`, in order), `identity` (the first game's failure identity: 16 hex digits that stay when lines move; absent in old reports), `stack` (the first game's call stack: `frames[]` innermost first, each `function`, `location`, `folded` std/SDK frames and a `cycle` of `frames` × `times`; `dropped`; absent when unknown), `fuel_profile` (`out_of_fuel` groups: the failing turn's top lines by total fuel, the loop that never ended first, each `file`, `line`, `function`, `self_fuel`, `total_fuel`, `self_percent`, `total_percent` of the turn's fuel, as in `botlens_harness::profile`; absent otherwise), `memory_growth` (`memory_limit` groups: the lines that grew the memory most over the first game, each `file`, `line`, `function`, `bytes`, `percent` of the game's growth and `callers` (the bot's functions on that stack, outermost first); absent otherwise). Beyond 256 distinct locations, the failures elsewhere are counted in one group per kind, without a location |
//! | `wasteful[]` | per opponent with wasted moves (legal moves that achieved nothing: Battleships re-attacks, Klotski slides straight back): `opponent`, `games`, `moves`, `first_seed` and `first_seat` (the first game with one), `replay` (the command that steps through it), `sites` (the lines that made that game's wasted moves, most first, at most 8: `file`, `line`, `column`, `function`, `moves`, `first_turn`, `action` (the first, e.g. `attack(3, 7)`), `stack` (its call stack, as in `failures[]`); absent for reference bots) |
//! | `cancelled` | true when the suite stopped early |

use std::fmt::Write as _;
use std::path::Path;

use botlens_engine::stack::thousands;
use botlens_engine::text::printable_lines;
use botlens_engine::{CallStack, FailureKind, Seat, SourceLocation};
use botlens_games::GameKind;
use botlens_stats::{EloEstimate, Los, Pentanomial, Tally as _};
use serde::{Deserialize, Serialize};

use crate::fuel::{GrowthSite, LineCost};
use crate::outcomes::Outcomes;
use crate::suite::{Suite, SuiteResults};
use crate::tally::{FailureTally, MAX_GROUPS, Tally};
use crate::waste::{Located, WasteSite};
use botlens_bots::target::{Target, replay_command};

/// Scores against one opponent (or one board).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OpponentSummary {
    /// Opponent or board name.
    pub name: String,
    /// Games played.
    pub games: u32,
    /// Games won (puzzles: solved).
    pub wins: u32,
    /// Games lost (puzzles: not solved).
    pub losses: u32,
    /// Games drawn.
    pub draws: u32,
    /// Mean of the bot's moves per game (shots, marks or steps).
    pub mean_moves: f64,
    /// Mean optimal steps of the boards played (puzzles), else null.
    pub par: Option<f64>,
    /// Games lost by a bot fault.
    pub faults: u32,
    /// A paired run's pairs and what they say; absent from unpaired runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pairs: Option<PairScore>,
    /// The result on each seed (the first [`OUTCOMES_KEPT`](crate::outcomes::OUTCOMES_KEPT)),
    /// for comparing runs seed by seed; empty in baselines saved before this field existed.
    #[serde(default, skip_serializing_if = "Outcomes::is_empty")]
    pub outcomes: Outcomes,
}

/// A paired run against one opponent: its pairs (one seed, the bot in each seat) and the Elo
/// and LOS of the bot over the opponent they give.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PairScore {
    /// The pairs by the bot's points in the pair, 0, ½, 1, 1½, 2.
    pub pentanomial: Pentanomial,
    /// The bot's logistic Elo over the opponent, with its 95 % interval.
    pub elo: EloEstimate,
    /// The likelihood that the bot is the stronger.
    pub los: Los,
}

impl PairScore {
    /// The figures of `pentanomial`.
    pub fn of(pentanomial: Pentanomial) -> PairScore {
        PairScore { pentanomial, elo: pentanomial.elo(), los: pentanomial.los() }
    }
}

/// Identical failures (same kind, same file and line) across games; the column is the first
/// one's.
///
/// Groups are keyed by location, not by [`identity`](FailureGroup::identity), on purpose: a
/// report answers "which lines lose games", one group per line the author must look at (the
/// editor puts one diagnostic on each), and two calls on different lines of one function that
/// fail alike (`attack(#, #): x out of range`) have one identity but are two places to fix.
/// Identity is for comparing two reports of different builds
/// ([`Comparison`](crate::baseline::Comparison)), where lines move and locations cannot say
/// that two failures are the same bug.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailureGroup {
    /// Failure kind.
    pub kind: FailureKind,
    /// The first occurrence's message.
    pub message: String,
    /// Where in the bot's source, when located (the first occurrence's column). In JSON three
    /// fields, `file`, `line` and `column`, null when not located.
    #[serde(flatten, with = "flat_location")]
    pub location: Option<SourceLocation>,
    /// Games lost this way.
    pub count: u32,
    /// Their seeds, opponent by opponent, in order (at most
    /// [`SEEDS_LISTED`](crate::tally::SEEDS_LISTED) per opponent, the smallest; `count` counts
    /// them all).
    pub seeds: Vec<u64>,
    /// Opponents they were lost against (distinct, in suite order).
    pub opponents: Vec<String>,
    /// The seeds lost against each of `opponents`, in the same order (empty in baselines saved
    /// before this field existed).
    #[serde(default)]
    pub seeds_by_opponent: Vec<Vec<u64>>,
    /// Seed of the first occurrence.
    pub first_seed: u64,
    /// Opponent of the first occurrence.
    pub first_opponent: String,
    /// The bot's seat in the first occurrence (1 only in a paired run; 0 in reports saved
    /// before this field existed).
    #[serde(default)]
    pub first_seat: Seat,
    /// The move number of the first occurrence (every seat's moves counted; named `turn` as a
    /// trace names it, see [`botlens_engine::words`]).
    pub first_turn: u32,
    /// Which of the bot's own turns that was (0 in baselines saved before this field existed).
    #[serde(default)]
    pub first_bot_turn: u32,
    /// The command that steps through the first occurrence.
    pub replay: String,
    /// The command that steps through the first game lost against each of `opponents`, in the
    /// same order (empty in reports saved before this field existed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replays: Vec<String>,
    /// The first occurrence's identity ([`Failure::identity`](botlens_engine::Failure::identity):
    /// kind, bot functions on the stack, shape of the message); `None` for the group of
    /// failures beyond the location bound, and in baselines saved before identities existed
    /// (they are then compared by location alone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub identity: Option<String>,
    /// The first occurrence's call stack, innermost first (absent when the failure was not
    /// located, and in baselines saved before stacks existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stack: Option<CallStack>,
    /// For an `out_of_fuel` group: the top lines of the failing turn's fuel, from its first game
    /// played again with profiling ([`crate::fuel::failing_turns`]); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fuel_profile: Option<Vec<LineCost>>,
    /// For a `memory_limit` group: the lines that grew the memory most over its first game,
    /// played again with profiling ([`crate::fuel::memory_growth`]); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_growth: Option<Vec<GrowthSite>>,
}

/// A location as the report's JSON has always written it: `file`, `line` and `column` beside
/// the other fields, each null when there is no location.
mod flat_location {
    use botlens_engine::SourceLocation;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    struct Flat {
        #[serde(default)]
        file: Option<String>,
        #[serde(default)]
        line: Option<u32>,
        #[serde(default)]
        column: Option<u32>,
    }

    pub fn serialize<S: Serializer>(
        location: &Option<SourceLocation>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let flat = Flat {
            file: location.as_ref().map(|l| l.file.clone()),
            line: location.as_ref().map(|l| l.line),
            column: location.as_ref().map(|l| l.column),
        };
        flat.serialize(serializer)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<SourceLocation>, D::Error> {
        let Flat { file, line, column } = Flat::deserialize(deserializer)?;
        Ok(file.zip(line).map(|(file, line)| SourceLocation {
            file,
            line,
            column: column.unwrap_or(0),
        }))
    }
}

impl FailureGroup {
    /// The group a tally counted; `folded` when it stands for failures at locations beyond the
    /// tally's bound ([`crate::tally::MAX_GROUPS`]), which are then not named.
    fn of(
        group: &FailureTally,
        folded: bool,
        name: &dyn Fn(usize) -> String,
        replay: &dyn Fn(usize, u64, Seat) -> String,
    ) -> FailureGroup {
        let (first_opponent, first_seed, first_seat) = group.first_at;
        let opponents: Vec<String> = group.seeds.keys().map(|&index| name(index)).collect();
        let replays =
            group.firsts.iter().map(|(&index, &(seed, seat))| replay(index, seed, seat)).collect();
        let seeds_by_opponent: Vec<Vec<u64>> =
            group.seeds.values().map(|seeds| seeds.iter().copied().collect()).collect();
        let mut message = group.first.failure.message.clone();
        if folded {
            message.push_str(&format!(
                " (and failures at more than {MAX_GROUPS} other locations, counted together)"
            ));
        }
        FailureGroup {
            kind: group.first.failure.kind,
            message,
            location: if folded { None } else { group.first.failure.location.clone() },
            count: group.count,
            seeds: seeds_by_opponent.concat(),
            opponents,
            seeds_by_opponent,
            first_seed,
            first_opponent: name(first_opponent),
            first_seat,
            first_turn: group.first.turn,
            first_bot_turn: group.first_bot_turn,
            replay: replay(first_opponent, first_seed, first_seat),
            replays,
            identity: (!folded).then(|| group.first.failure.identity()),
            stack: if folded { None } else { group.first.failure.stack.clone() },
            fuel_profile: None,
            memory_growth: None,
        }
    }

    /// What the terminal report says of the stack, for every kind of failure alike: the bot's
    /// call chain, innermost first ([`CallStack::chain`]: `in smallest_ship ← hunt ← play`),
    /// and, when frames repeated, the recursion with its count and the call that closes it.
    /// Empty without a stack.
    pub fn stack_summary(&self) -> Vec<String> {
        let Some(stack) = &self.stack else { return Vec::new() };
        let chain = stack.chain();
        let mut lines: Vec<String> =
            (!chain.is_empty()).then(|| format!("in {chain}")).into_iter().collect();
        if let Some(recursion) = stack.recursion() {
            let at =
                recursion.call().location.as_ref().map_or_else(String::new, |location| {
                    format!(", the recursive call at {location}")
                });
            lines.push(format!(
                "recursion {} ×{}{at}",
                recursion.call_order(),
                thousands(u64::from(recursion.times))
            ));
        }
        lines
    }

    /// Where the failures happened, `file:line:column`, with the file relative to `base` when
    /// it lies inside it (as printed for a terminal run from `base`).
    pub fn location_text(&self, base: &Path) -> String {
        let Some(location) = &self.location else {
            return "(no source location)".to_owned();
        };
        let file = Path::new(&location.file)
            .strip_prefix(base)
            .map_or_else(|_| location.file.clone(), |relative| relative.display().to_string());
        SourceLocation { file, ..location.clone() }.to_string()
    }

    /// When the first game was lost: `move 119 (the bot's turn 62)`, or `move 23` when the bot
    /// played every move (a puzzle) or the bot's turn is not known (an old baseline).
    pub fn first_move(&self) -> String {
        botlens_engine::words::move_and_turn(self.first_turn, self.first_bot_turn)
    }

    /// Each opponent with the seeds lost against it: `random (seeds 8, 10), hunter (seed 8)`
    /// (for an old baseline without the split: `random, hunter (seeds 8, 10, 8)`).
    pub fn opponents_and_seeds(&self) -> String {
        if self.seeds_by_opponent.len() != self.opponents.len() {
            return format!("{} ({})", self.opponents.join(", "), seeds_phrase(&self.seeds));
        }
        let each = self
            .opponents
            .iter()
            .zip(&self.seeds_by_opponent)
            .map(|(opponent, seeds)| format!("{opponent} ({})", seeds_phrase(seeds)));
        each.collect::<Vec<_>>().join(", ")
    }
}

/// Wasted moves (legal, reported as warnings) against one opponent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WastefulSummary {
    /// Opponent name.
    pub opponent: String,
    /// Games with at least one wasted move.
    pub games: u32,
    /// Wasted moves in all.
    pub moves: u32,
    /// The first game with a wasted move: its seed (absent in reports saved before it was
    /// kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_seed: Option<u64>,
    /// The bot's seat in that game.
    #[serde(default)]
    pub first_seat: Seat,
    /// The command that steps through that game.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub replay: String,
    /// The lines that made that game's wasted moves, most first
    /// ([`crate::waste::locate`]); empty when they were not located (a reference
    /// bot, an old report).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sites: Vec<WasteSite>,
}

impl WastefulSummary {
    /// `warning: 9 wasted moves (re-attacks) in 3 games vs random`, with what the game's
    /// wasted moves are (`what`, [`botlens_games::GameInfo::wasted_moves`]).
    pub fn headline(&self, what: &str) -> String {
        let what = if what == "wasted moves" { String::new() } else { format!(" ({what})") };
        let games =
            if self.games == 1 { "1 game".to_owned() } else { format!("{} games", self.games) };
        let moves = if self.moves == 1 { "1 wasted move" } else { "wasted moves" };
        let count = if self.moves == 1 { String::new() } else { format!("{} ", self.moves) };
        format!("warning: {count}{moves}{what} in {games} vs {}", self.opponent)
    }
}

/// A suite's report; see the module docs for the JSON fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SuiteReport {
    /// Game name.
    pub game: String,
    /// Bot name.
    pub bot: String,
    /// Seed range.
    pub seeds: String,
    /// Games played.
    pub games: u32,
    /// Wall-clock time.
    pub duration_ms: u64,
    /// Per opponent.
    pub opponents: Vec<OpponentSummary>,
    /// Grouped failures, most frequent first.
    pub failures: Vec<FailureGroup>,
    /// Wasted moves per opponent.
    pub wasteful: Vec<WastefulSummary>,
    /// Whether the suite stopped early.
    pub cancelled: bool,
}

/// What heads a suite's report: the names it gives the game, the bot, the seeds and the
/// opponents, and the bot as replay commands name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heading {
    /// The game's name.
    pub game: String,
    /// The bot's name.
    pub bot: String,
    /// The seeds, as a range (`0..=99`).
    pub seeds: String,
    /// The opponents' (boards') names, in suite order.
    pub opponents: Vec<String>,
    /// The bot as replay commands name it ([`Target`]'s `Display`).
    pub target: String,
}

impl Heading {
    /// The heading of `suite`'s report, its bot named `target` in replays.
    pub fn of(suite: &Suite, target: &str) -> Heading {
        Heading {
            game: suite.game.name().to_owned(),
            bot: suite.bot.name().to_owned(),
            seeds: suite.seeds.to_string(),
            opponents: suite.opponents.iter().map(|opponent| opponent.name().to_owned()).collect(),
            target: target.to_owned(),
        }
    }
}

impl SuiteReport {
    /// Summarises results; replay command lines name `target` (as the user named it).
    pub fn new(suite: &Suite, results: &SuiteResults, target: &Target) -> SuiteReport {
        SuiteReport::of_tally(
            &Heading::of(suite, &target.to_string()),
            &results.tally,
            results.played,
            results.duration.as_millis() as u64,
            results.cancelled,
        )
    }

    /// The report of a suite headed `heading` whose games `tally` counted: `played` games in
    /// `duration_ms`, `cancelled` when it stopped early. Without what is found out by playing
    /// games again (fuel profiles, memory growth, the lines of wasted moves), which the
    /// `add_…` methods put in.
    pub fn of_tally(
        heading: &Heading,
        tally: &Tally,
        played: u64,
        duration_ms: u64,
        cancelled: bool,
    ) -> SuiteReport {
        let name = |index: usize| heading.opponents[index].clone();
        let replay = |opponent: usize, seed: u64, seat: Seat| {
            replay_command(&heading.target, &name(opponent), seed, seat)
        };
        let opponents = tally
            .opponents
            .iter()
            .enumerate()
            .map(|(index, row)| OpponentSummary {
                name: name(index),
                games: row.games,
                wins: row.wins,
                losses: row.losses,
                draws: row.draws,
                mean_moves: if row.games == 0 {
                    0.0
                } else {
                    row.moves as f64 / f64::from(row.games)
                },
                par: (row.par.1 > 0).then(|| row.par.0 as f64 / f64::from(row.par.1)),
                faults: row.faults,
                pairs: tally.paired.then(|| PairScore::of(row.pairs)),
                outcomes: row.outcomes.clone(),
            })
            .collect();
        let located = tally.groups.values().map(|group| (group, false));
        let folded = tally.overflow.values().map(|group| (group, true));
        let mut failures: Vec<FailureGroup> = located
            .chain(folded)
            .map(|(group, folded)| FailureGroup::of(group, folded, &name, &replay))
            .collect();
        failures.sort_by_key(|g| std::cmp::Reverse(g.count));
        let wasteful = tally
            .opponents
            .iter()
            .enumerate()
            .filter(|(_, row)| row.wasteful.0 > 0)
            .map(|(index, row)| WastefulSummary {
                opponent: name(index),
                games: row.wasteful.0,
                moves: row.wasteful.1,
                first_seed: row.first_wasteful.map(|(_, seed, _)| seed),
                first_seat: row.first_wasteful.map_or(0, |(_, _, seat)| seat),
                replay: row
                    .first_wasteful
                    .map_or_else(String::new, |(_, seed, seat)| replay(index, seed, seat)),
                sites: Vec::new(),
            })
            .collect();
        SuiteReport {
            game: heading.game.clone(),
            bot: heading.bot.clone(),
            seeds: heading.seeds.clone(),
            games: played as u32,
            duration_ms,
            opponents,
            failures,
            wasteful,
            cancelled,
        }
    }

    /// Takes what other reports of the same suite's games found out about the first games of
    /// this one's failure groups and wasted moves (a shard's report of the games it played:
    /// [`crate::shard`]): a group's fuel profile and memory growth from the report whose group
    /// has the same kind and first game, the lines of an opponent's wasted moves from the one
    /// whose first wasteful game against it is the same.
    pub fn add_findings_of(&mut self, others: &[SuiteReport]) {
        for group in &mut self.failures {
            let same = |other: &&FailureGroup| {
                (other.kind, other.first_seed, other.first_seat, &other.first_opponent)
                    == (group.kind, group.first_seed, group.first_seat, &group.first_opponent)
            };
            if let Some(found) = others.iter().flat_map(|report| &report.failures).find(same) {
                group.fuel_profile.clone_from(&found.fuel_profile);
                group.memory_growth.clone_from(&found.memory_growth);
            }
        }
        for summary in &mut self.wasteful {
            let same = |other: &&WastefulSummary| {
                (&other.opponent, other.first_seed, other.first_seat)
                    == (&summary.opponent, summary.first_seed, summary.first_seat)
            };
            if let Some(found) = others.iter().flat_map(|report| &report.wasteful).find(same) {
                summary.sites.clone_from(&found.sites);
            }
        }
    }

    /// Puts each profiled failing turn ([`crate::fuel::failing_turns`]) on its failure group.
    pub fn add_fuel_profiles(
        &mut self,
        suite: &Suite,
        profiled: Vec<(&FailureTally, Vec<LineCost>)>,
    ) {
        for (group, lines) in profiled {
            if let Some(reported) = self.group_of(suite, group) {
                reported.fuel_profile = Some(lines);
            }
        }
    }

    /// Puts the lines that grew each memory-limit game's memory ([`crate::fuel::memory_growth`])
    /// on its failure group.
    pub fn add_memory_growth(
        &mut self,
        suite: &Suite,
        grown: Vec<(&FailureTally, Vec<GrowthSite>)>,
    ) {
        for (group, sites) in grown {
            if let Some(reported) = self.group_of(suite, group) {
                reported.memory_growth = Some(sites);
            }
        }
    }

    /// Puts the lines that made each opponent's first wasteful game's wasted moves
    /// ([`crate::waste::locate`]) on its warning.
    pub fn add_wasted_sites(&mut self, suite: &Suite, located: Vec<Located>) {
        for game in located {
            let (opponent, seed, _) = game.at;
            let opponent = suite.opponents[opponent].name();
            let summary = self
                .wasteful
                .iter_mut()
                .find(|w| w.opponent == opponent && w.first_seed == Some(seed));
            if let Some(summary) = summary {
                summary.sites = game.sites();
            }
        }
    }

    /// The reported group of a tally's group: same kind, location and first game.
    fn group_of(&mut self, suite: &Suite, group: &FailureTally) -> Option<&mut FailureGroup> {
        let (opponent, seed, _) = group.first_at;
        let opponent = suite.opponents[opponent].name();
        let failure = &group.first.failure;
        self.failures.iter_mut().find(|f| {
            f.kind == failure.kind
                && f.first_seed == seed
                && f.first_opponent == opponent
                && f.location == failure.location
        })
    }

    /// What the game's wasted moves are, for warnings: `re-attacks`
    /// ([`botlens_games::GameInfo::wasted_moves`]; `wasted moves` for a game this botlens does
    /// not know).
    pub fn wasted_moves(&self) -> &'static str {
        GameKind::from_name(&self.game).map_or("wasted moves", |game| game.info().wasted_moves)
    }

    /// Whether any game was lost by a bot fault (the CLI's exit code 1).
    pub fn has_faults(&self) -> bool {
        !self.failures.is_empty()
    }

    /// The report as a table and grouped failures, for a terminal; file paths inside `base` (the
    /// working directory) are shown relative to it. Names, messages and paths come from bots and
    /// may hold anything: control characters are escaped
    /// ([`printable_lines`]).
    pub fn render(&self, base: &Path) -> String {
        let mut out = String::new();
        let puzzle = self.opponents.iter().any(|o| o.par.is_some());
        let paired = self.opponents.iter().any(|o| o.pairs.is_some());
        let _ = writeln!(
            out,
            "{} ({}): {} games{}, seeds {}, in {:.2} s{}",
            self.bot,
            self.game,
            self.games,
            if paired { " (paired: each seed in both seats)" } else { "" },
            self.seeds,
            self.duration_ms as f64 / 1000.0,
            if self.cancelled { " (cancelled)" } else { "" }
        );
        let width = self.opponents.iter().map(|o| o.name.chars().count()).max().unwrap_or(8).max(8);
        if puzzle {
            let _ = writeln!(
                out,
                "\n{:width$}  games  solved  unsolved  mean steps  mean par",
                "board"
            );
            for o in &self.opponents {
                let par = o.par.map_or("-".to_owned(), |p| format!("{p:.1}"));
                let _ = writeln!(
                    out,
                    "{:width$}  {:>5}  {:>6}  {:>8}  {:>10.1}  {:>8}",
                    o.name, o.games, o.wins, o.losses, o.mean_moves, par
                );
            }
        } else {
            let _ =
                writeln!(out, "\n{:width$}  games  wins  losses  draws  mean moves", "opponent");
            for o in &self.opponents {
                let _ = writeln!(
                    out,
                    "{:width$}  {:>5}  {:>4}  {:>6}  {:>5}  {:>10.1}",
                    o.name, o.games, o.wins, o.losses, o.draws, o.mean_moves
                );
            }
        }
        if paired {
            let _ = writeln!(out, "\npairs (the bot's points per seed, both seats)");
            for o in &self.opponents {
                let Some(pairs) = &o.pairs else { continue };
                let _ = writeln!(out, "{:width$}  {}", o.name, pairs.pentanomial);
                let _ = writeln!(out, "{:width$}  {}, {}", "", pairs.elo, pairs.los);
            }
        }
        if self.failures.is_empty() {
            let _ = writeln!(out, "\nno game lost by a bot fault");
        } else {
            let _ = writeln!(out, "\nfailures");
            for f in &self.failures {
                let _ = writeln!(out, "  {} ×{}  {}", f.kind, f.count, f.location_text(base));
                let _ = writeln!(out, "    {}", f.message);
                for line in f.stack_summary() {
                    let _ = writeln!(out, "    {line}");
                }
                if let Some(lines) = &f.fuel_profile {
                    let _ = writeln!(out, "    where that turn's fuel went:");
                    for line in crate::fuel::render_lines(lines, base) {
                        let _ = writeln!(out, "      {line}");
                    }
                }
                if let Some(sites) = &f.memory_growth {
                    let _ = writeln!(out, "    what grew the memory over that game:");
                    for line in crate::fuel::render_growth(sites, base) {
                        let _ = writeln!(out, "      {line}");
                    }
                }
                let _ = writeln!(
                    out,
                    "    vs {}, first at {}",
                    f.opponents_and_seeds(),
                    f.first_move()
                );
                let _ = writeln!(out, "    replay: {}", f.replay);
            }
        }
        let what = self.wasted_moves();
        for w in &self.wasteful {
            let _ = writeln!(out, "{}", w.headline(what));
            if let (Some(seed), false) = (w.first_seed, w.sites.is_empty()) {
                let _ = writeln!(out, "    made here in seed {seed}:");
                for site in &w.sites {
                    let _ = writeln!(out, "      {}", site.render(base));
                }
            }
            if !w.replay.is_empty() {
                let _ = writeln!(out, "    replay: {}", w.replay);
            }
        }
        printable_lines(&out).into_owned()
    }
}

/// How many seeds [`seeds_phrase`] lists before it says how many more there are.
pub const SEEDS_SHOWN: usize = 8;

/// Seeds as people read them: `seed 47`, `seeds 4, 17, 31`, or the first [`SEEDS_SHOWN`] and
/// `… 3 more`.
///
/// ```
/// use botlens_harness::report::seeds_phrase;
///
/// assert_eq!(seeds_phrase(&[47]), "seed 47");
/// assert_eq!(seeds_phrase(&[4, 17, 31]), "seeds 4, 17, 31");
/// assert_eq!(seeds_phrase(&(0..10).collect::<Vec<_>>()), "seeds 0, 1, 2, 3, 4, 5, 6, 7, … 2 more");
/// ```
pub fn seeds_phrase(seeds: &[u64]) -> String {
    if seeds.is_empty() {
        return "no seeds".to_owned();
    }
    let noun = if seeds.len() == 1 { "seed" } else { "seeds" };
    let shown: Vec<String> = seeds.iter().take(SEEDS_SHOWN).map(u64::to_string).collect();
    match seeds.len().saturating_sub(SEEDS_SHOWN) {
        0 => format!("{noun} {}", shown.join(", ")),
        more => format!("{noun} {}, … {more} more", shown.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::run_suite;
    use crate::suite::tests::suite;
    use crate::tally::{Counted, Tally};
    use crate::{CancelToken, SeedRange};
    use botlens_engine::{Cycle, StackFrame};
    use botlens_games::GameKind;

    #[test]
    fn a_reference_suite_reports_scores_and_no_failures() {
        let suite =
            Suite { jobs: 1, ..suite(GameKind::TicTacToe, "perfect", &["random"], "0..10") };
        let results = run_suite(&suite, &|_, _| {}, &CancelToken::new()).unwrap();
        let target = Target::parse("perfect", Some("tictactoe")).unwrap();
        let report = SuiteReport::new(&suite, &results, &target);
        let [row] = report.opponents.as_slice() else { panic!() };
        assert_eq!((row.games, row.losses, row.faults), (10, 0, 0));
        assert_eq!(row.wins + row.draws, 10);
        assert!(!report.has_faults());
        let text = report.render(Path::new("/"));
        assert!(text.contains("no game lost by a bot fault"), "{text}");
        let json: serde_json::Value = serde_json::to_value(&report).unwrap();
        for field in ["game", "bot", "opponents", "failures"] {
            assert!(json.get(field).is_some(), "missing {field}");
        }
    }

    #[test]
    fn failures_show_seeds_per_opponent_and_paths_from_the_working_directory() {
        let group = FailureGroup {
            kind: FailureKind::IllegalMove,
            message: "illegal move".into(),
            location: Some(SourceLocation {
                file: "/home/me/bot/src/lib.rs".into(),
                line: 82,
                column: 25,
            }),
            count: 5,
            seeds: vec![8, 10, 8, 16, 16],
            opponents: vec!["random".into(), "hunter".into()],
            seeds_by_opponent: vec![vec![8, 10, 16], vec![8, 16]],
            first_seed: 8,
            first_opponent: "random".into(),
            first_seat: 0,
            first_turn: 35,
            first_bot_turn: 17,
            replay: String::new(),
            replays: Vec::new(),
            identity: None,
            stack: None,
            fuel_profile: None,
            memory_growth: None,
        };
        assert_eq!(group.location_text(Path::new("/home/me")), "bot/src/lib.rs:82:25");
        assert_eq!(group.location_text(Path::new("/elsewhere")), "/home/me/bot/src/lib.rs:82:25");
        // What a bot wrote reaches a terminal with its control characters escaped.
        let hostile = SuiteReport {
            game: "battleships".into(),
            bot: "bot\u{1b}]0;owned\u{7}".into(),
            seeds: "0..=9".into(),
            games: 5,
            duration_ms: 1,
            opponents: Vec::new(),
            failures: vec![FailureGroup { message: "boom\u{1b}[2J".into(), ..group.clone() }],
            wasteful: Vec::new(),
            cancelled: false,
        };
        let text = hostile.render(Path::new("/"));
        assert!(!text.contains('\u{1b}') && !text.contains('\u{7}'), "{text:?}");
        insta::assert_snapshot!("a_bots_text_is_escaped", text);
        let unlocated = FailureGroup { location: None, ..group.clone() };
        assert_eq!(unlocated.location_text(Path::new("/")), "(no source location)");
        // The JSON has the location's three fields beside the others, null when unlocated.
        let json = serde_json::to_value(&group).unwrap();
        assert_eq!(
            (&json["file"], &json["line"], &json["column"]),
            (&"/home/me/bot/src/lib.rs".into(), &82.into(), &25.into())
        );
        let json = serde_json::to_value(&unlocated).unwrap();
        assert!(json["file"].is_null() && json["line"].is_null() && json["column"].is_null());
        assert_eq!(serde_json::from_value::<FailureGroup>(json).unwrap(), unlocated);
        assert_eq!(group.opponents_and_seeds(), "random (seeds 8, 10, 16), hunter (seeds 8, 16)");
        let single = FailureGroup { seeds_by_opponent: vec![vec![3], vec![4]], ..group.clone() };
        assert_eq!(single.opponents_and_seeds(), "random (seed 3), hunter (seed 4)");
        let old = FailureGroup { seeds_by_opponent: Vec::new(), ..group };
        assert_eq!(old.opponents_and_seeds(), "random, hunter (seeds 8, 10, 8, 16, 16)");
        // A baseline saved before the split still reads.
        let mut json = serde_json::to_value(&old).unwrap();
        json.as_object_mut().unwrap().remove("seeds_by_opponent");
        assert_eq!(serde_json::from_value::<FailureGroup>(json).unwrap(), old);
    }

    #[test]
    fn the_terminal_report_names_the_innermost_frame_and_the_recursion() {
        let at = |line| Some(SourceLocation { file: "src/lib.rs".into(), line, column: 5 });
        let frame = |function: &str, line, cycle| StackFrame {
            function: function.into(),
            location: at(line),
            folded: 0,
            cycle,
        };
        let stack = CallStack {
            frames: vec![
                StackFrame { folded: 2, ..frame("bot::helper", 8, None) },
                frame("bot::b", 20, Some(Cycle { frames: 2, times: 1942 })),
                frame("bot::a", 15, None),
                frame("bot::play", 30, None),
            ],
            dropped: 0,
        };
        let group = FailureGroup {
            kind: FailureKind::StackOverflow,
            message: "stack overflow".into(),
            location: at(20),
            count: 1,
            seeds: vec![3],
            opponents: vec!["random".into()],
            seeds_by_opponent: vec![vec![3]],
            first_seed: 3,
            first_opponent: "random".into(),
            first_seat: 0,
            first_turn: 1,
            first_bot_turn: 1,
            replay: String::new(),
            replays: Vec::new(),
            identity: Some("0123456789abcdef".into()),
            stack: Some(stack),
            fuel_profile: None,
            memory_growth: None,
        };
        assert_eq!(
            group.stack_summary(),
            [
                "in bot::helper ← [×1,942 bot::b ← bot::a] ← bot::play",
                "recursion bot::a → bot::b → bot::a ×1,942, the recursive call at src/lib.rs:20:5",
            ]
        );
        let report = SuiteReport {
            game: "tictactoe".into(),
            bot: "bot".into(),
            seeds: "0..=9".into(),
            games: 1,
            duration_ms: 1,
            opponents: Vec::new(),
            failures: vec![group.clone()],
            wasteful: Vec::new(),
            cancelled: false,
        };
        insta::assert_snapshot!("a_cycle_is_folded", report.render(Path::new("/")));
        // The stack round-trips through the JSON; a report without one reads as before.
        let json = serde_json::to_value(&group).unwrap();
        assert_eq!(serde_json::from_value::<FailureGroup>(json).unwrap(), group);
        let unstacked = FailureGroup { stack: None, ..group };
        assert!(unstacked.stack_summary().is_empty());
        let json = serde_json::to_value(&unstacked).unwrap();
        assert!(json.get("stack").is_none());
    }

    #[test]
    fn every_kind_of_failure_shows_the_bots_call_chain_alike() {
        let at = |line| Some(SourceLocation { file: "/bot/src/lib.rs".into(), line, column: 9 });
        let frame = |function: &str, line, folded| StackFrame {
            function: function.into(),
            location: at(line),
            folded,
            cycle: None,
        };
        let stack = |frames: Vec<StackFrame>| Some(CallStack { frames, dropped: 0 });
        let group = |kind, message: &str, line, frames, seed| FailureGroup {
            kind,
            message: message.into(),
            location: at(line),
            count: 2,
            seeds: vec![seed, seed + 5],
            opponents: vec!["hunter".into()],
            seeds_by_opponent: vec![vec![seed, seed + 5]],
            first_seed: seed,
            first_opponent: "hunter".into(),
            first_seat: 0,
            first_turn: 23,
            first_bot_turn: 12,
            replay: format!("botlens replay bot --vs hunter --seed {seed}"),
            replays: Vec::new(),
            identity: None,
            stack: stack(frames),
            fuel_profile: None,
            memory_growth: None,
        };
        let panic = group(
            FailureKind::Panic,
            "panic: no ship is smaller than none",
            40,
            vec![
                frame("bot::smallest_ship", 40, 12),
                frame("bot::hunt", 55, 0),
                frame("<bot::Hunter as botlens_sdk::Bot>::play", 70, 1),
            ],
            1,
        );
        let illegal = group(
            FailureKind::IllegalMove,
            "illegal move attack(10, 3): x out of range",
            62,
            vec![
                frame("bot::fire", 62, 3),
                frame("<bot::Hunter as botlens_sdk::Bot>::play", 71, 1),
            ],
            2,
        );
        let line_cost = |line, function: &str, self_percent: f64, total_percent: f64| LineCost {
            file: "/bot/src/lib.rs".into(),
            line,
            function: function.into(),
            self_fuel: (self_percent * 1000.0) as u64,
            total_fuel: (total_percent * 1000.0) as u64,
            self_percent,
            total_percent,
        };
        let fuel = FailureGroup {
            fuel_profile: Some(vec![
                line_cost(50, "bot::hunt", 31.5, 100.0),
                line_cost(20, "bot::huntable", 68.5, 68.5),
            ]),
            ..group(
                FailureKind::OutOfFuel,
                "out of fuel: the turn budget of 20000000 is used up",
                20,
                vec![frame("bot::huntable", 20, 0), frame("bot::hunt", 50, 0)],
                3,
            )
        };
        let memory = FailureGroup {
            memory_growth: Some(vec![GrowthSite {
                file: "/bot/src/lib.rs".into(),
                line: 14,
                function: "bot::hoard".into(),
                bytes: 3 << 20,
                percent: 96.0,
                callers: vec!["bot::play".into(), "bot::hoard".into()],
            }]),
            ..group(
                FailureKind::MemoryLimit,
                "memory limit: growing the memory past 64 MiB",
                14,
                vec![frame("bot::hoard", 14, 9), frame("bot::play", 30, 0)],
                4,
            )
        };
        let report = SuiteReport {
            game: "battleships".into(),
            bot: "bot".into(),
            seeds: "0..=9".into(),
            games: 10,
            duration_ms: 1250,
            opponents: Vec::new(),
            failures: vec![panic, illegal, fuel, memory],
            wasteful: Vec::new(),
            cancelled: false,
        };
        insta::assert_snapshot!(report.render(Path::new("/bot")));
    }

    #[test]
    fn faults_on_one_line_are_one_group_whatever_their_columns() {
        let suite = Suite {
            jobs: 1,
            ..suite(GameKind::Battleships, "random", &["random", "hunter"], "0..10")
        };
        let fault = |column| botlens_engine::Fault {
            seat: 0,
            turn: 6,
            failure: botlens_engine::Failure::new(FailureKind::OutOfFuel, "out of fuel")
                .at(Some(SourceLocation { file: "src/lib.rs".into(), line: 12, column })),
        };
        let faults = [((0, 7, 0), fault(9)), ((1, 2, 0), fault(17)), ((0, 2, 0), fault(5))];
        let mut tally = Tally::new(2, SeedRange::new(0, 9).unwrap(), false);
        for (at, fault) in &faults {
            tally.add(Counted {
                at: *at,
                result: botlens_engine::SeatResult::Loss,
                moves: 3,
                turns: 6,
                par: None,
                fault: Some(fault),
                bot_turns: 3,
                wasted: 0,
            });
        }
        let results = SuiteResults {
            played: 3,
            tally,
            kept: Vec::new(),
            duration: std::time::Duration::ZERO,
            cancelled: false,
        };
        let report = SuiteReport::new(&suite, &results, &Target::of_dir("bots/x"));
        let [group] = report.failures.as_slice() else { panic!("{:?}", report.failures) };
        assert_eq!(group.count, 3);
        assert_eq!(group.location.as_ref().map(|l| l.column), Some(5), "the first game's column");
        assert_eq!(group.seeds_by_opponent, [vec![2, 7], vec![2]]);
        assert_eq!(group.seeds, [2, 7, 2]);
        assert_eq!(group.replay, "botlens replay bots/x --vs random --seed 2");
        assert_eq!(
            group.replays,
            [
                "botlens replay bots/x --vs random --seed 2",
                "botlens replay bots/x --vs hunter --seed 2"
            ]
        );
        assert_eq!((report.opponents[0].faults, report.opponents[1].games), (2, 1));
    }

    #[test]
    fn a_paired_report_shows_each_opponents_pairs_and_reads_back() {
        let suite =
            Suite { paired: true, ..suite(GameKind::TicTacToe, "perfect", &["random"], "0..20") };
        let results = run_suite(&suite, &|_, _| {}, &CancelToken::new()).unwrap();
        let target = Target::parse("perfect", Some("tictactoe")).unwrap();
        let report = SuiteReport::new(&suite, &results, &target);
        let [row] = report.opponents.as_slice() else { panic!() };
        let pairs = row.pairs.expect("a paired run has pairs");
        assert_eq!((row.games, pairs.pentanomial.pairs()), (40, 20));
        let [ll, ld, _, _, _] = pairs.pentanomial.counts;
        assert_eq!((ll, ld, row.losses), (0, 0, 0), "perfect never loses a game");
        assert_eq!(pairs.elo, pairs.pentanomial.elo());
        let text = report.render(Path::new("/"));
        assert!(text.contains("40 games (paired: each seed in both seats)"), "{text}");
        assert!(text.contains(&format!("random    {}", pairs.pentanomial)), "{text}");
        assert!(text.contains(&format!("{}, {}", pairs.elo, pairs.los)), "{text}");
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["opponents"][0]["pairs"]["pentanomial"].as_array().unwrap().len(), 5);
        let back: SuiteReport = serde_json::from_value(json).unwrap();
        assert_eq!(back, report);
        // An unpaired run has no pairs field at all.
        let unpaired = SuiteReport::new(
            &Suite { paired: false, ..suite.clone() },
            &run_suite(&Suite { paired: false, ..suite }, &|_, _| {}, &CancelToken::new()).unwrap(),
            &target,
        );
        let json = serde_json::to_value(&unpaired).unwrap();
        assert!(json["opponents"][0].get("pairs").is_none(), "{json}");
        assert!(!unpaired.render(Path::new("/")).contains("paired"));
    }

    #[test]
    fn wasted_moves_are_warnings_with_the_lines_that_made_them() {
        let frame = |function: &str, line| StackFrame {
            function: function.into(),
            location: Some(SourceLocation { file: "/bot/src/lib.rs".into(), line, column: 9 }),
            folded: 0,
            cycle: None,
        };
        let site = WasteSite {
            file: "/bot/src/lib.rs".into(),
            line: 15,
            column: 9,
            function: "bot::again".into(),
            moves: 6,
            first_turn: 8,
            action: "attack(4, 0)".into(),
            stack: CallStack {
                frames: vec![frame("bot::again", 15), frame("bot::play", 30)],
                dropped: 0,
            },
        };
        let summary = WastefulSummary {
            opponent: "random".into(),
            games: 3,
            moves: 9,
            first_seed: Some(3),
            first_seat: 0,
            replay: "botlens replay bot --vs random --seed 3".into(),
            sites: vec![site],
        };
        let report = |game: &str, wasteful: Vec<WastefulSummary>| SuiteReport {
            game: game.into(),
            bot: "bot".into(),
            seeds: "0..=9".into(),
            games: 10,
            duration_ms: 1,
            opponents: Vec::new(),
            failures: Vec::new(),
            wasteful,
            cancelled: false,
        };
        let text = report("battleships", vec![summary.clone()]).render(Path::new("/bot"));
        insta::assert_snapshot!("wasted_moves_located", text);
        let one = WastefulSummary { games: 1, moves: 1, ..summary.clone() };
        assert_eq!(
            one.headline("slides straight back"),
            "warning: 1 wasted move (slides straight back) in 1 game vs random"
        );
        assert_eq!(one.headline("wasted moves"), "warning: 1 wasted move in 1 game vs random");
        // Not located (a JavaScript bot): the count and the replay, no sites.
        let unlocated = WastefulSummary { sites: Vec::new(), ..summary.clone() };
        let text = report("battleships", vec![unlocated]).render(Path::new("/bot"));
        insta::assert_snapshot!("wasted_moves_unlocated", text);
        // Reports saved before sites were located still read.
        let json = serde_json::json!({"opponent": "random", "games": 3, "moves": 9});
        let old: WastefulSummary = serde_json::from_value(json).unwrap();
        assert_eq!((old.first_seed, old.sites.len(), old.replay.as_str()), (None, 0, ""));
        let json = serde_json::to_value(&summary).unwrap();
        assert_eq!(json["sites"][0]["line"], 15);
        assert_eq!(serde_json::from_value::<WastefulSummary>(json).unwrap(), summary);
    }

    #[test]
    fn seed_lists_are_abbreviated() {
        assert_eq!(seeds_phrase(&[1, 2, 3]), "seeds 1, 2, 3");
        assert_eq!(seeds_phrase(&[5; 9]), "seeds 5, 5, 5, 5, 5, 5, 5, 5, … 1 more");
        assert_eq!(seeds_phrase(&[]), "no seeds");
    }
}
