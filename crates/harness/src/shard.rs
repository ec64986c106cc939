//! A suite played in shards, apart (on the nodes of a cluster, as the tasks of a Slurm job array
//! or a Kubernetes Indexed Job), and merged into the report one run would have made.
//!
//! Shard `I/N` (`I` from 0) plays the `I`-th of `N` consecutive blocks of the suite's seeds,
//! against every opponent, each seed in both seats when paired: [`Shard::block`]. Its *part*
//! ([`Part`]) says which suite it is of — botlens's version, the game, the bot's and the
//! opponents' names and module hashes, the seeds, the limits, pairing — and holds the shard's
//! tally ([`Tally`], whose figures are sums, minima and "smallest N"; its outcomes only its own
//! seeds') and its own report, for
//! what was found out about the first games of its failure groups (fuel profiles, memory
//! growth, the lines of wasted moves). [`merge`] checks that the parts are of one suite and are
//! each of its shards exactly once, merges the tallies and makes the report from them as one
//! run makes it from its tally: the same report, to the byte in JSON, but for `duration_ms`
//! (the parts' wall-clock times summed).
//!
//! # JSON (a part, `botlens run --shard I/N --part FILE`)
//!
//! One object: `format` (`"botlens-part"`), `format_version` (1), `botlens` (the version that
//! played it), `kind` (`run`), `shard` (`{"index": I, "count": N}`), `suite` (`game`, `bot` and
//! `opponents`, each
//! `name` and `sha256` of its module, or null for a reference player, and `payload_sha256` of the
//! source a language runner ran; `target`, the bot as replay commands name it; `seeds`,
//! `paired`, `limits` with `engine` and `sandbox`), `played`, `tally` (see
//! [`crate::tally`]) and `report` (the shard's own, as `botlens run --json` writes it).
//!
//! Not for: scheduling shards (a scheduler's job) or playing them ([`crate::suite`]).

use std::path::{Path, PathBuf};

pub use botlens_bots::{MAX_SHARDS, SeedRange, Shard, ShardError};
use botlens_engine::MatchLimits;
use botlens_sandbox::SandboxLimits;
use serde::{Deserialize, Serialize};

use crate::report::{Heading, SuiteReport};
use crate::suite::{Contender, Suite};
use crate::tally::{Misfit, Tally};

/// What a part file says it is (`format`).
pub const PART_FORMAT: &str = "botlens-part";

/// The version of the part format this botlens writes and reads (`format_version`).
pub const PART_FORMAT_VERSION: u32 = 1;

/// A player as a part names it: its name and, for a module, what it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The name reports give it.
    pub name: String,
    /// The SHA-256 of its module; null for a reference player.
    pub sha256: Option<String>,
    /// The SHA-256 of the source a language runner ran; null otherwise.
    pub payload_sha256: Option<String>,
}

impl Player {
    /// The player `contender` is.
    pub fn of(contender: &Contender) -> Player {
        match contender {
            Contender::Reference(name) => {
                Player { name: name.clone(), sha256: None, payload_sha256: None }
            }
            Contender::Wasm(bot) => Player {
                name: bot.name.clone(),
                sha256: Some(bot.module.sha256().to_owned()),
                payload_sha256: bot.module.payload().map(|payload| sha256_hex(payload)),
            },
        }
    }
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    sha2::Sha256::digest(bytes).iter().map(|byte| format!("{byte:02x}")).collect()
}

/// The limits a suite's games were played under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// The engine's (turn cap).
    pub engine: MatchLimits,
    /// The sandbox's (fuel, memory, …).
    pub sandbox: SandboxLimits,
}

/// Which suite a part is of: what must be the same in every part merged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SuiteId {
    /// The game's name.
    pub game: String,
    /// The bot under test.
    pub bot: Player,
    /// The bot as replay commands name it (`samples/bot`, `bot.wasm --game tictactoe`).
    pub target: String,
    /// The opponents (boards), in suite order.
    pub opponents: Vec<Player>,
    /// All the suite's seeds (the shards' together).
    pub seeds: SeedRange,
    /// Whether each seed is played in both seats.
    pub paired: bool,
    /// The limits.
    pub limits: Limits,
}

impl SuiteId {
    /// The suite `suite` is, its bot named `target` in replay commands.
    pub fn of(suite: &Suite, target: &str) -> SuiteId {
        SuiteId {
            game: suite.game.name().to_owned(),
            bot: Player::of(&suite.bot),
            target: target.to_owned(),
            opponents: suite.opponents.iter().map(Player::of).collect(),
            seeds: suite.seeds,
            paired: suite.paired,
            limits: Limits { engine: suite.limits, sandbox: suite.sandbox_limits },
        }
    }

    /// The heading of the suite's reports.
    fn heading(&self) -> Heading {
        Heading {
            game: self.game.clone(),
            bot: self.bot.name.clone(),
            seeds: self.seeds.to_string(),
            opponents: self.opponents.iter().map(|player| player.name.clone()).collect(),
            target: self.target.clone(),
        }
    }

    /// The first field in which `other` is of another suite, by name.
    fn differs_from(&self, other: &SuiteId) -> Option<&'static str> {
        [
            ("game", self.game == other.game),
            ("bot", self.bot == other.bot),
            ("bot as replays name it", self.target == other.target),
            ("opponents", self.opponents == other.opponents),
            ("seeds", self.seeds == other.seeds),
            ("pairing", self.paired == other.paired),
            ("limits", self.limits == other.limits),
        ]
        .into_iter()
        .find_map(|(field, same)| (!same).then_some(field))
    }
}

/// A shard's result, of any kind of run (see the module docs): what every part says of itself,
/// and the kind's `contents` ([`Contents`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Part<T> {
    /// [`PART_FORMAT`].
    pub format: String,
    /// [`PART_FORMAT_VERSION`].
    pub format_version: u32,
    /// The version of botlens that played it.
    pub botlens: String,
    /// What kind of run it is a shard of ([`Contents::KIND`]: `run`, `compare`).
    pub kind: String,
    /// Which shard.
    pub shard: Shard,
    /// What the shard found.
    #[serde(flatten)]
    pub contents: T,
}

/// What a kind of run's parts hold.
pub trait Contents: Serialize + serde::de::DeserializeOwned {
    /// The kind's name in a part (`kind`).
    const KIND: &'static str;

    /// The first thing, named in the plural or as a mass noun ("seeds", "limits"), in which
    /// `other` is a part of another run than this one; `None` when it is of the same.
    fn differs_from(&self, other: &Self) -> Option<&'static str>;

    /// Checks a part read from a file: its figures name only its own run's games.
    fn check(&self) -> Result<(), Misfit>;
}

impl<T: Contents> Part<T> {
    /// The part of `shard` holding `contents`, written by this botlens.
    pub fn of(shard: Shard, contents: T) -> Part<T> {
        Part {
            format: PART_FORMAT.to_owned(),
            format_version: PART_FORMAT_VERSION,
            botlens: env!("CARGO_PKG_VERSION").to_owned(),
            kind: T::KIND.to_owned(),
            shard,
            contents,
        }
    }

    /// The part `value` (read by [`read`]) holds, named `path` in errors.
    pub fn from_value(path: &Path, value: serde_json::Value) -> Result<Part<T>, PartError> {
        serde_json::from_value(value).map_err(|error| PartError::NotAPart {
            path: path.to_owned(),
            reason: botlens_engine::text::clipped(&error.to_string(), 200),
        })
    }

    /// Writes the part as the file `path` atomically (its directory made if missing).
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        let json = serde_json::to_vec(self).map_err(std::io::Error::other)?;
        let (dir, name) = match (path.parent(), path.file_name()) {
            (Some(dir), Some(name)) => (dir, name.to_string_lossy()),
            _ => return Err(std::io::Error::other(format!("{}: not a file name", path.display()))),
        };
        let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
        crate::traces::write_file_atomically(dir, &name, &json).map(drop)
    }
}

/// A part of `botlens run`: which suite, and what its shard's games counted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunPart {
    /// Which suite.
    pub suite: SuiteId,
    /// Games played.
    pub played: u64,
    /// What its games counted.
    pub tally: Tally,
    /// The shard's own report (its `duration_ms` the shard's wall-clock time).
    pub report: SuiteReport,
}

impl RunPart {
    /// The part of `shard` of `suite` (its bot named `target` in replays): its `tally`, `played`
    /// games, and its `report`.
    pub fn new(
        shard: Shard,
        suite: &Suite,
        target: &str,
        tally: Tally,
        played: u64,
        report: SuiteReport,
    ) -> Part<RunPart> {
        // Only the shard's seeds have outcomes: a part's size does not grow with the suite's.
        let (offset, seeds) = shard.block(suite.seeds);
        let first = suite.seeds.first() + offset;
        let block = first..first + seeds;
        let mut tally = tally;
        for row in &mut tally.opponents {
            row.outcomes = row.outcomes.within(block.clone());
        }
        let mut report = report;
        for row in &mut report.opponents {
            row.outcomes = row.outcomes.within(block.clone());
        }
        let suite = SuiteId::of(suite, target);
        Part::of(shard, RunPart { suite, played, tally, report })
    }
}

impl Contents for RunPart {
    const KIND: &'static str = "run";

    fn differs_from(&self, other: &RunPart) -> Option<&'static str> {
        self.suite.differs_from(&other.suite)
    }

    fn check(&self) -> Result<(), Misfit> {
        let suite = &self.suite;
        // The replay commands a report prints are made with it.
        if !botlens_bots::target::is_displayed_target(&suite.target) {
            return Err(Misfit::new("its bot is not named as a command line names one"));
        }
        self.tally.check(suite.opponents.len(), suite.seeds, suite.paired)
    }
}

/// The largest part file read: a part holds per opponent its outcomes (a character per seed
/// and seat, for the first 100,000 seeds) twice, and bounded failure groups.
pub const MAX_PART_BYTES: u64 = 256 << 20;

/// Why a part file cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum PartError {
    /// Reading it failed (missing, too large, not a regular file, not UTF-8).
    #[error("{}: {reason}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why (said in the message, so not a source: the chain says it once).
        reason: botlens_files::ReadError,
    },
    /// Not the JSON of a part.
    #[error("{}: not a botlens part ({reason})", .path.display())]
    NotAPart {
        /// The file.
        path: PathBuf,
        /// What the JSON reader said, clipped.
        reason: String,
    },
}

/// Reads the part file `path` (at most [`MAX_PART_BYTES`]) as JSON; [`kind`] says what kind
/// of part it is, [`Part::from_value`] reads it as one.
pub fn read(path: &Path) -> Result<serde_json::Value, PartError> {
    let text = botlens_files::read_text(path, MAX_PART_BYTES)
        .map_err(|reason| PartError::Read { path: path.to_owned(), reason })?;
    serde_json::from_str(&text).map_err(|error| PartError::NotAPart {
        path: path.to_owned(),
        reason: botlens_engine::text::clipped(&error.to_string(), 200),
    })
}

/// The kind a part read by [`read`] says it is (`run`, `compare`), if it says.
pub fn kind(part: &serde_json::Value) -> Option<&str> {
    part.get("kind")?.as_str()
}

/// Why parts do not merge.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    /// No part given.
    #[error("no part to merge")]
    NoParts,
    /// A part of another format or version.
    #[error(
        "{part}: not a part this botlens reads (format `{format}` version {version}; expected `{PART_FORMAT}` version {PART_FORMAT_VERSION})"
    )]
    Format {
        /// The part, as the caller names it.
        part: String,
        /// Its format.
        format: String,
        /// Its version.
        version: u32,
    },
    /// Parts of different suites, or played by different versions of botlens.
    #[error("{part} is of another run than {first}: its {field} differ{s}", s = if field.ends_with('s') { "" } else { "s" })]
    Differ {
        /// The first part.
        first: String,
        /// The part that differs.
        part: String,
        /// What differs.
        field: &'static str,
    },
    /// A shard given twice.
    #[error("shard {shard} is given twice: {first} and {part}")]
    Doubled {
        /// The shard.
        shard: Shard,
        /// Its first part.
        first: String,
        /// Its second part.
        part: String,
    },
    /// Shards missing.
    #[error("{} of {count} shards missing: {}", missing.len(), listed(missing))]
    Missing {
        /// How many shards the suite has.
        count: u64,
        /// The missing indices.
        missing: Vec<u64>,
    },
    /// A part whose figures do not fit its suite.
    #[error("{part}: {misfit}")]
    Misfit {
        /// The part.
        part: String,
        /// What does not fit.
        misfit: Misfit,
    },
}

/// The first indices of `missing`, then how many more.
fn listed(missing: &[u64]) -> String {
    let shown: Vec<String> = missing.iter().take(10).map(u64::to_string).collect();
    match missing.len() {
        n if n > 10 => format!("{} and {} more", shown.join(", "), n - 10),
        _ => shown.join(", "),
    }
}

/// Checks that `parts`, each named (for errors) as the caller names it, are of one run and
/// hold each of its shards once: each is like the first ([`check_against`]), no shard is given
/// twice and none is missing.
pub fn check_parts<T: Contents>(parts: &[(String, Part<T>)]) -> Result<(), MergeError> {
    let Some((first_name, first)) = parts.first() else { return Err(MergeError::NoParts) };
    let mut seen: Vec<Option<&str>> = vec![None; first.shard.count.min(MAX_SHARDS) as usize];
    for (name, part) in parts {
        let shard = check_against(name, part, first_name, first)?;
        let slot = &mut seen[shard.index as usize];
        if let Some(earlier) = slot {
            return Err(MergeError::Doubled {
                shard,
                first: (*earlier).to_owned(),
                part: name.clone(),
            });
        }
        *slot = Some(name);
    }
    let missing: Vec<u64> =
        (0..seen.len() as u64).filter(|&index| seen[index as usize].is_none()).collect();
    if !missing.is_empty() {
        return Err(MergeError::Missing { count: first.shard.count, missing });
    }
    Ok(())
}

/// Checks that the part `part` (named `name` in errors) is of the run `first` (named
/// `first_name`) is of: the same format, kind, botlens and shard count, the same run
/// ([`Contents::differs_from`]), and figures that fit it ([`Contents::check`]); its shard.
pub fn check_against<T: Contents>(
    name: &str,
    part: &Part<T>,
    first_name: &str,
    first: &Part<T>,
) -> Result<Shard, MergeError> {
    if part.format != PART_FORMAT || part.format_version != PART_FORMAT_VERSION {
        return Err(MergeError::Format {
            part: name.to_owned(),
            format: botlens_engine::text::clipped(&part.format, 40),
            version: part.format_version,
        });
    }
    let differ =
        |field| MergeError::Differ { first: first_name.to_owned(), part: name.to_owned(), field };
    if part.kind != T::KIND {
        return Err(differ("kinds of run"));
    }
    if part.botlens != first.botlens {
        return Err(differ("botlens versions"));
    }
    if part.shard.count != first.shard.count {
        return Err(differ("shard counts"));
    }
    if let Some(field) = first.contents.differs_from(&part.contents) {
        return Err(differ(field));
    }
    let shard =
        Shard::new(part.shard.index, part.shard.count).map_err(|_| differ("shard counts"))?;
    part.contents.check().map_err(|misfit| MergeError::Misfit { part: name.to_owned(), misfit })?;
    Ok(shard)
}

/// Merges the parts of one suite, each named (for errors) as the caller names it, into the
/// report one run of the whole suite makes (see the module docs).
pub fn merge(parts: Vec<(String, Part<RunPart>)>) -> Result<SuiteReport, MergeError> {
    check_parts(&parts)?;
    let suite = parts[0].1.contents.suite.clone();
    let mut tally = Tally::new(suite.opponents.len(), suite.seeds, suite.paired);
    let (mut played, mut duration_ms) = (0, 0);
    let mut reports = Vec::with_capacity(parts.len());
    for (name, part) in parts {
        let part = part.contents;
        played += part.played;
        duration_ms += part.report.duration_ms;
        tally.merge(part.tally).map_err(|misfit| MergeError::Misfit { part: name, misfit })?;
        reports.push(part.report);
    }
    let mut report = SuiteReport::of_tally(&suite.heading(), &tally, played, duration_ms, false);
    report.add_findings_of(&reports);
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CancelToken;

    /// The report of `suite` played whole and its parts played shard by shard, each read back
    /// from its JSON.
    fn played(suite: &Suite, count: u64) -> (SuiteReport, Vec<(String, Part<RunPart>)>) {
        let target = "random --game tictactoe";
        let play = |suite: &Suite| {
            let results = crate::suite::run_suite(suite, &|_, _| {}, &CancelToken::new()).unwrap();
            let report = SuiteReport::of_tally(
                &Heading::of(suite, target),
                &results.tally,
                results.played,
                results.duration.as_millis() as u64,
                results.cancelled,
            );
            (results, report)
        };
        let parts = (0..count)
            .map(|index| {
                let shard = Shard::new(index, count).unwrap();
                let suite = Suite { shard: Some(shard), ..suite.clone() };
                let (results, report) = play(&suite);
                let part =
                    RunPart::new(shard, &suite, target, results.tally, results.played, report);
                let json = serde_json::to_string(&part).unwrap();
                (format!("part {index}"), serde_json::from_str::<Part<RunPart>>(&json).unwrap())
            })
            .collect();
        (play(suite).1, parts)
    }

    fn without_duration(report: &SuiteReport) -> String {
        serde_json::to_string(&SuiteReport { duration_ms: 0, ..report.clone() }).unwrap()
    }

    fn paired_suite() -> Suite {
        let mut suite = crate::suite::tests::suite(
            botlens_games::GameKind::TicTacToe,
            "random",
            &["perfect", "random"],
            "3..40",
        );
        suite.paired = true;
        suite
    }

    #[test]
    fn shards_played_apart_merge_into_the_report_of_one_run() {
        let suite = paired_suite();
        for count in [1, 3, 50] {
            let (whole, mut parts) = played(&suite, count);
            assert_eq!(parts.iter().map(|(_, part)| part.contents.played).sum::<u64>(), 2 * 2 * 37);
            parts.reverse();
            let merged = merge(parts).unwrap();
            assert_eq!(without_duration(&merged), without_duration(&whole), "{count} shards");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

        /// Any seed range in any number of shards, paired or not: the merged report is the
        /// whole run's.
        #[test]
        fn any_seeds_in_any_shards_merge_into_the_whole_run(
            first in 0u64..1_000,
            seeds in 1u64..40,
            count in 1u64..12,
            paired: bool,
        ) {
            let mut suite = paired_suite();
            suite.seeds = SeedRange::new(first, first + seeds - 1).unwrap();
            suite.paired = paired;
            let (whole, parts) = played(&suite, count);
            let merged = merge(parts).unwrap();
            proptest::prop_assert_eq!(without_duration(&merged), without_duration(&whole));
        }
    }

    #[test]
    fn parts_of_other_runs_and_missing_or_doubled_shards_are_refused() {
        let suite = paired_suite();
        let (_, parts) = played(&suite, 3);
        let error = |parts: Vec<(String, Part<RunPart>)>| merge(parts).unwrap_err().to_string();
        assert_eq!(error(parts[..2].to_vec()), "1 of 3 shards missing: 2");
        let doubled = vec![parts[0].clone(), parts[1].clone(), parts[1].clone()];
        assert_eq!(error(doubled), "shard 1/3 is given twice: part 1 and part 1");
        let mut other = parts.clone();
        other[2].1.contents.suite.seeds = SeedRange::new(0, 99).unwrap();
        assert_eq!(error(other), "part 2 is of another run than part 0: its seeds differ");
        let mut other = parts.clone();
        other[1].1.contents.suite.limits.engine.max_turns = Some(3);
        assert_eq!(error(other), "part 1 is of another run than part 0: its limits differ");
        let mut other = parts.clone();
        other[1].1.botlens = "0.0.1".into();
        assert_eq!(
            error(other),
            "part 1 is of another run than part 0: its botlens versions differ"
        );
        let mut hostile = parts.clone();
        for part in &mut hostile {
            part.1.contents.suite.target = "random; rm -rf ~ --game tictactoe".into();
        }
        assert_eq!(
            error(hostile),
            "part 0: the tally does not fit the suite: its bot is not named as a command line names one"
        );
        let mut hostile = parts.clone();
        hostile[1].1.contents.tally.opponents.pop();
        assert!(error(hostile).starts_with("part 1: the tally does not fit the suite"));
        assert_eq!(error(Vec::new()), "no part to merge");
    }
}
