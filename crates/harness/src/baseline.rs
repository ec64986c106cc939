//! Baselines: saved suite reports, and what changed between two reports.
//!
//! `botlens run --save-baseline NAME` stores a report as
//! `<project>/target/botlens/baselines/<NAME>.json` (written atomically); `--baseline NAME`
//! loads it and prints a [`Comparison`] with the new run. `botlens watch` compares each run with
//! the one before it the same way.
//!
//! Every `botlens run` of a project also keeps its report as the project's last run
//! (`<project>/target/botlens/last-run.json`, [`save_last_run`]): `botlens replay PROJECT`
//! opens its worst failure and `botlens run --failed` plays its failed games again
//! ([`failed_games`]).
//!
//! A failure is "the same" in two reports when its kind and source location (file, line,
//! column) are, or else when its identity is
//! ([`Failure::identity`](botlens_engine::Failure::identity): its kind, the bot functions on
//! its stack and the shape of its message): then it *moved* (lines above it were added or
//! deleted) and is neither new nor fixed. Reports saved before identities existed have none,
//! and their failures are matched by location alone. Not for: running suites or rendering the
//! report itself (see [`crate::report`]).
//!
//! # JSON (`"comparison"` in `botlens run --baseline NAME --json`)
//!
//! | field | meaning |
//! |---|---|
//! | `before_seeds`, `after_seeds` | the seed ranges of the two reports |
//! | `new_failures[]` | failure groups (as in the report's `failures[]`) of the new report whose kind and location the old one did not have, nor (moved) its identity |
//! | `fixed_failures[]` | failure groups of the old report whose kind and location the new one does not have |
//! | `moved_failures[]` | failures of both reports at different locations with one identity: `from` (the old location: `file`, `line`, `column`) and `failure` (the new report's group) |
//! | `opponents[]` | per opponent in either report: `name`, `before` and `after` (the report's rows, null when the opponent was not played), `wins`, `losses`, `draws`, `faults` (integer differences, after minus before) and `mean_moves` (difference) |
//! | `elo` | the Elo verdict on the seeds both reports played ([`EloVerdict`]): `kind` `too_few_games` with `games`, or `estimate` with `games`, `differences` (units by the new run's points minus the old one's: `games_per_unit` and `counts`), `elo` (as in `botlens compare --json`) and `los` |
//!
//! # The Elo verdict
//!
//! Reports keep the result of every seed (`outcomes`), so two runs of a bot are compared seed by
//! seed, against each opponent both played, on the seeds both played: each (opponent, seed) is a
//! unit, the new run's points minus the old one's (both runs paired: the pair's points, else
//! the seat-0 game's), read as `botlens compare` reads a gauntlet
//! ([`botlens_stats::Differences`]). Below [`MIN_VERDICT_GAMES`] compared games the verdict says
//! there are too few to tell.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use botlens_engine::text::printable_lines;
use botlens_engine::{FailureKind, Seat, SourceLocation};
use botlens_stats::{Differences, EloEstimate, Los, Tally as _};
use serde::{Deserialize, Serialize};

use crate::SuiteReport;
use crate::outcomes::Outcomes;
use crate::report::{FailureGroup, OpponentSummary};
use crate::tally::points;

/// Why a baseline could not be saved or loaded.
#[derive(Debug, thiserror::Error)]
pub enum BaselineError {
    /// The name is empty or has characters other than letters, digits, `-`, `_` and `.`.
    #[error(
        "bad baseline name `{0}`: use letters, digits, `-`, `_` and `.` (not starting with `.`)"
    )]
    BadName(String),
    /// No baseline of that name was saved.
    #[error("no baseline named `{name}` in {}; {}", .dir.display(), saved_list(.saved))]
    Unknown {
        /// The name asked for.
        name: String,
        /// The baselines directory.
        dir: PathBuf,
        /// The names that are saved.
        saved: Vec<String>,
    },
    /// Reading or writing the file failed.
    #[error("{}: {source}", .path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is a link out of the project, not a regular file, or too large
    /// ([`botlens_bots::own_files`]).
    #[error(transparent)]
    File(#[from] botlens_bots::own_files::FileError),
    /// The file is not a saved report.
    #[error("{}: not a botlens baseline: {message}", .path.display())]
    Malformed {
        /// The file.
        path: PathBuf,
        /// What the JSON parser said.
        message: String,
    },
}

fn saved_list(saved: &[String]) -> String {
    if saved.is_empty() {
        "none is saved yet (save one with `botlens run --save-baseline NAME`)".to_owned()
    } else {
        format!("saved: {}", saved.join(", "))
    }
}

/// The directory baselines of the project in `project_root` are kept in.
pub fn dir(project_root: &Path) -> PathBuf {
    project_root.join("target").join("botlens").join("baselines")
}

/// The file the baseline `name` is kept in, after checking the name is a plain file name.
pub fn path(project_root: &Path, name: &str) -> Result<PathBuf, BaselineError> {
    let plain = name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
    if name.is_empty() || name.starts_with('.') || !plain {
        return Err(BaselineError::BadName(name.to_owned()));
    }
    Ok(dir(project_root).join(format!("{name}.json")))
}

/// Saves `report` as the baseline `name`, replacing any of that name; returns the file written.
/// The file is written to a temporary name and renamed, so a reader never sees half of it.
pub fn save(
    project_root: &Path,
    name: &str,
    report: &SuiteReport,
) -> Result<PathBuf, BaselineError> {
    let path = path(project_root, name)?;
    write_report(&path, report)?;
    Ok(path)
}

/// Writes `report` to `path` atomically: to a temporary name beside it, then renamed.
fn write_report(path: &Path, report: &SuiteReport) -> Result<(), BaselineError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| BaselineError::Io { path, source }
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let name = path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
    let temp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let json = serde_json::to_vec_pretty(report).expect("a report always serialises");
    let written = (|| {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(&json)?;
        file.sync_all()?;
        std::fs::rename(&temp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written.map_err(io(path))
}

/// Reads a saved report: a regular file of at most
/// [`MAX_REPORT_BYTES`](botlens_bots::own_files::MAX_REPORT_BYTES), inside the project's directory
/// `root` (a project may be anyone's: its `target/botlens/last-run.json` may be a link to
/// `/dev/zero`).
fn read_report(root: &Path, path: &Path) -> Result<SuiteReport, BaselineError> {
    let text =
        botlens_bots::own_files::read_text(root, path, botlens_bots::own_files::MAX_REPORT_BYTES)?;
    serde_json::from_str(&text)
        .map_err(|e| BaselineError::Malformed { path: path.to_path_buf(), message: e.to_string() })
}

/// The file the last run's report of the project in `project_root` is kept in:
/// `<project>/target/botlens/last-run.json`.
pub fn last_run_path(project_root: &Path) -> PathBuf {
    project_root.join("target").join("botlens").join("last-run.json")
}

/// Keeps `report` as the project's last run (what `botlens replay PROJECT` and
/// `botlens run --failed` read), replacing the one before.
pub fn save_last_run(project_root: &Path, report: &SuiteReport) -> Result<PathBuf, BaselineError> {
    let path = last_run_path(project_root);
    write_report(&path, report)?;
    Ok(path)
}

/// The project's last run, or `None` when none was kept.
pub fn load_last_run(project_root: &Path) -> Result<Option<SuiteReport>, BaselineError> {
    let path = last_run_path(project_root);
    if !path.exists() {
        return Ok(None);
    }
    read_report(project_root, &path).map(Some)
}

/// The games a report lost by a bot fault, as a suite plays them again (`botlens run --failed`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailedGames {
    /// The opponents that won a game by the bot's fault, in the report's order.
    pub opponents: Vec<String>,
    /// The report's seeds.
    pub seeds: crate::SeedRange,
    /// The failed (opponent index in `opponents`, seed) units, in order.
    pub units: Vec<(usize, u64)>,
    /// Whether some failed games are not listed in the report (it lists at most
    /// [`SEEDS_LISTED`](crate::tally::SEEDS_LISTED) seeds per failure and opponent) and so are
    /// not among `units`.
    pub truncated: bool,
}

/// The games `report` lost by a bot fault; `None` when it lost none.
pub fn failed_games(report: &SuiteReport) -> Result<Option<FailedGames>, String> {
    let seeds: crate::SeedRange = report
        .seeds
        .parse()
        .map_err(|error| format!("the saved report's seeds `{}`: {error}", report.seeds))?;
    let mut failed: BTreeSet<(usize, u64)> = BTreeSet::new();
    let mut truncated = false;
    let index_of = |name: &str| report.opponents.iter().position(|row| row.name == name);
    for group in &report.failures {
        for (name, lost) in group.opponents.iter().zip(&group.seeds_by_opponent) {
            let index = index_of(name)
                .ok_or_else(|| format!("the saved report has no opponent `{name}`"))?;
            truncated |= lost.len() >= crate::tally::SEEDS_LISTED;
            failed.extend(lost.iter().map(|&seed| (index, seed)));
        }
    }
    if failed.is_empty() {
        return Ok(None);
    }
    // Re-indexed over the opponents that failed, in the report's order.
    let kept: Vec<usize> =
        failed.iter().map(|&(index, _)| index).collect::<BTreeSet<_>>().into_iter().collect();
    let units = failed
        .iter()
        .map(|&(index, seed)| (kept.binary_search(&index).expect("kept lists every index"), seed))
        .collect();
    let opponents = kept.iter().map(|&index| report.opponents[index].name.clone()).collect();
    Ok(Some(FailedGames { opponents, seeds, units, truncated }))
}

/// Loads the baseline `name`; an unknown name is an error listing the saved ones.
pub fn load(project_root: &Path, name: &str) -> Result<SuiteReport, BaselineError> {
    let path = path(project_root, name)?;
    if !path.exists() {
        return Err(BaselineError::Unknown {
            name: name.to_owned(),
            dir: dir(project_root),
            saved: list(project_root),
        });
    }
    read_report(project_root, &path)
}

/// The names of the saved baselines, sorted.
pub fn list(project_root: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir(project_root)) else { return Vec::new() };
    let mut names: Vec<String> = entries
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let stem = name.strip_suffix(".json")?;
            (!stem.starts_with('.')).then(|| stem.to_owned())
        })
        .collect();
    names.sort();
    names
}

/// How the scores against one opponent changed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OpponentDelta {
    /// Opponent (or board) name.
    pub name: String,
    /// The old report's row; `None` when the old report did not play this opponent.
    pub before: Option<OpponentSummary>,
    /// The new report's row; `None` when the new report did not play this opponent.
    pub after: Option<OpponentSummary>,
    /// Wins, after minus before.
    pub wins: i64,
    /// Losses, after minus before.
    pub losses: i64,
    /// Draws, after minus before.
    pub draws: i64,
    /// Games lost by a bot fault, after minus before.
    pub faults: i64,
    /// Mean moves per game, after minus before.
    pub mean_moves: f64,
}

impl OpponentDelta {
    fn between(
        name: &str,
        before: Option<&OpponentSummary>,
        after: Option<&OpponentSummary>,
    ) -> Self {
        let diff = |field: fn(&OpponentSummary) -> u32| {
            i64::from(after.map_or(0, field)) - i64::from(before.map_or(0, field))
        };
        OpponentDelta {
            name: name.to_owned(),
            before: before.cloned(),
            after: after.cloned(),
            wins: diff(|o| o.wins),
            losses: diff(|o| o.losses),
            draws: diff(|o| o.draws),
            faults: diff(|o| o.faults),
            mean_moves: after.map_or(0.0, |o| o.mean_moves) - before.map_or(0.0, |o| o.mean_moves),
        }
    }

    /// Whether the scores are the same in both reports.
    pub fn is_unchanged(&self) -> bool {
        self.before.is_some()
            && self.after.is_some()
            && (self.wins, self.losses, self.draws, self.faults) == (0, 0, 0, 0)
            && self.mean_moves.abs() < 0.05
    }
}

/// What changed from one report (`before`) to another (`after`); see the module docs for JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// The old report's seed range.
    pub before_seeds: String,
    /// The new report's seed range.
    pub after_seeds: String,
    /// Failures of the new report at a kind and location the old one did not have.
    pub new_failures: Vec<FailureGroup>,
    /// Failures of the old report at a kind and location the new one does not have.
    pub fixed_failures: Vec<FailureGroup>,
    /// Failures of both reports with one identity at different locations (empty in
    /// comparisons saved before moves were told apart).
    #[serde(default)]
    pub moved_failures: Vec<MovedFailure>,
    /// Per opponent of either report, in the new report's order, then the old one's.
    pub opponents: Vec<OpponentDelta>,
    /// The Elo verdict on the seeds both reports played.
    pub elo: EloVerdict,
}

/// A failure of both reports at a new place: the same identity, another location.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MovedFailure {
    /// Where it was in the old report.
    pub from: Option<SourceLocation>,
    /// The new report's group.
    pub failure: FailureGroup,
}

impl MovedFailure {
    /// `moved from line 141 to 139`, naming the files when it changed file.
    pub fn phrase(&self) -> String {
        match (&self.from, &self.failure.location) {
            (Some(from), Some(to)) if from.file == to.file => {
                format!("moved from line {} to {}", from.line, to.line)
            }
            (Some(from), Some(to)) => {
                format!("moved from {}:{} to {}:{}", from.file, from.line, to.file, to.line)
            }
            (None, Some(to)) => format!("now located at {}:{}", to.file, to.line),
            (_, None) => "no longer located".to_owned(),
        }
    }
}

type FailureKey = (FailureKind, Option<SourceLocation>);

fn key(group: &FailureGroup) -> FailureKey {
    (group.kind, group.location.clone())
}

/// The failures of `before` and `after` matched up: by location first, then what is left by
/// identity. Returns (only in `after`, only in `before`, moved).
fn match_failures(
    before: &[FailureGroup],
    after: &[FailureGroup],
) -> (Vec<FailureGroup>, Vec<FailureGroup>, Vec<MovedFailure>) {
    let after_keys: BTreeSet<FailureKey> = after.iter().map(key).collect();
    let before_keys: BTreeSet<FailureKey> = before.iter().map(key).collect();
    let mut gone: Vec<&FailureGroup> =
        before.iter().filter(|g| !after_keys.contains(&key(g))).collect();
    let mut new = Vec::new();
    let mut moved = Vec::new();
    for group in after.iter().filter(|g| !before_keys.contains(&key(g))) {
        let same = group.identity.as_ref().and_then(|identity| {
            gone.iter().position(|old| old.identity.as_ref() == Some(identity))
        });
        match same {
            Some(index) => {
                let old = gone.remove(index);
                moved.push(MovedFailure { from: old.location.clone(), failure: group.clone() });
            }
            None => new.push(group.clone()),
        }
    }
    (new, gone.into_iter().cloned().collect(), moved)
}

impl Comparison {
    /// Compares `before` with `after`.
    pub fn between(before: &SuiteReport, after: &SuiteReport) -> Comparison {
        let (new_failures, fixed_failures, moved_failures) =
            match_failures(&before.failures, &after.failures);
        let mut names: Vec<&str> = after.opponents.iter().map(|o| o.name.as_str()).collect();
        for o in &before.opponents {
            if !names.contains(&o.name.as_str()) {
                names.push(&o.name);
            }
        }
        let row = |report: &'_ SuiteReport, name: &str| {
            report.opponents.iter().find(|o| o.name == name).cloned()
        };
        let opponents = names
            .into_iter()
            .map(|name| {
                OpponentDelta::between(name, row(before, name).as_ref(), row(after, name).as_ref())
            })
            .collect();
        Comparison {
            before_seeds: before.seeds.clone(),
            after_seeds: after.seeds.clone(),
            new_failures,
            fixed_failures,
            moved_failures,
            opponents,
            elo: EloVerdict::between(before, after),
        }
    }

    /// Whether nothing changed: no new, fixed or moved failure, the same scores everywhere.
    pub fn is_unchanged(&self) -> bool {
        self.new_failures.is_empty()
            && self.fixed_failures.is_empty()
            && self.moved_failures.is_empty()
            && self.opponents.iter().all(OpponentDelta::is_unchanged)
    }

    /// The comparison for a terminal; `since` names the old report (`baseline \`main\``,
    /// `run 3`); file paths inside `base` (the working directory) are shown relative to it.
    /// Control characters from bots' names and messages are escaped.
    pub fn render(&self, since: &str, base: &Path) -> String {
        let mut out = String::new();
        if self.is_unchanged() {
            let _ = writeln!(out, "since {since}: no change");
            let _ = writeln!(out, "{}", self.elo.render(since));
            return printable_lines(&out).into_owned();
        }
        let _ = writeln!(out, "since {since}:");
        if self.before_seeds != self.after_seeds {
            let _ = writeln!(
                out,
                "  note: seeds differ ({} before, {} now)",
                self.before_seeds, self.after_seeds
            );
        }
        for (title, groups) in
            [("new failures", &self.new_failures), ("fixed failures", &self.fixed_failures)]
        {
            if groups.is_empty() {
                continue;
            }
            let _ = writeln!(out, "  {title}");
            for g in groups {
                let _ = writeln!(out, "    {} ×{}  {}", g.kind, g.count, g.location_text(base));
                let _ = writeln!(out, "      {}", g.message);
            }
        }
        if !self.moved_failures.is_empty() {
            let _ = writeln!(out, "  moved failures (the same failure at another line)");
            for m in &self.moved_failures {
                let g = &m.failure;
                let _ = writeln!(
                    out,
                    "    {} ×{}  {}  {}",
                    g.kind,
                    g.count,
                    g.location_text(base),
                    m.phrase()
                );
                let _ = writeln!(out, "      {}", g.message);
            }
        }
        let changed: Vec<&OpponentDelta> =
            self.opponents.iter().filter(|o| !o.is_unchanged()).collect();
        if !changed.is_empty() {
            let width = changed.iter().map(|o| o.name.chars().count()).max().unwrap_or(0);
            let _ = writeln!(out, "  scores");
            for o in changed {
                let detail = match (&o.before, &o.after) {
                    (None, _) => "new opponent".to_owned(),
                    (_, None) => "no longer played".to_owned(),
                    _ => format!(
                        "wins {}  losses {}  draws {}  mean moves {:+.1}",
                        signed(o.wins),
                        signed(o.losses),
                        signed(o.draws),
                        o.mean_moves
                    ),
                };
                let _ = writeln!(out, "    {:width$}  {detail}", o.name);
            }
        }
        let _ = writeln!(out, "{}", self.elo.render(since));
        printable_lines(&out).into_owned()
    }
}

/// The fewest games, on seeds both runs played, that an Elo verdict is given for: below 100,
/// even two bots whose results on a seed mostly agree have a 95 % interval of ±100 Elo or
/// more, which says nothing.
pub const MIN_VERDICT_GAMES: u64 = 100;

/// What two reports of a bot say about its change in strength, seed by seed (see the module
/// docs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EloVerdict {
    /// Fewer than [`MIN_VERDICT_GAMES`] games to compare.
    TooFewGames {
        /// The games compared (of the new run).
        games: u64,
    },
    /// The Elo of the new run over the old one.
    Estimate {
        /// The games compared (of the new run).
        games: u64,
        /// Units by the new run's points minus the old one's.
        differences: Differences,
        /// The Elo of the new run over the old, with its 95 % interval.
        elo: EloEstimate,
        /// The likelihood that the new run's bot is the stronger.
        los: Los,
    },
}

impl EloVerdict {
    /// Compares `after` with `before` on every (opponent, seed) both played.
    pub fn between(before: &SuiteReport, after: &SuiteReport) -> EloVerdict {
        let common: Vec<(&Outcomes, &Outcomes)> = after
            .opponents
            .iter()
            .filter_map(|new| {
                let old = before.opponents.iter().find(|old| old.name == new.name)?;
                Some((&old.outcomes, &new.outcomes))
            })
            .collect();
        let paired = !common.is_empty()
            && common.iter().all(|(old, new)| old.has_seat_1() && new.has_seat_1());
        let (mut units, seats): (Differences, &[Seat]) = if paired {
            (Differences::of_pairs(), &[0, 1])
        } else {
            (Differences::of_games(), &[0])
        };
        for (old, new) in common {
            for seed in new.seeds() {
                let results = |outcomes: &Outcomes| -> Option<Vec<_>> {
                    seats.iter().map(|&seat| outcomes.get(seed, seat).map(points)).collect()
                };
                if let (Some(new), Some(old)) = (results(new), results(old)) {
                    units.record(&new, &old);
                }
            }
        }
        let games = units.games();
        if games < MIN_VERDICT_GAMES {
            return EloVerdict::TooFewGames { games };
        }
        EloVerdict::Estimate { games, elo: units.elo(), los: units.los(), differences: units }
    }

    /// The line for a terminal: "vs baseline `main`: +18.0 ± 9.1 Elo, LOS 99.0 % (300 games)",
    /// or "vs run 3: too few games to tell (40)".
    pub fn render(&self, since: &str) -> String {
        match self {
            EloVerdict::TooFewGames { games } => {
                format!("vs {since}: too few games to tell ({games})")
            }
            EloVerdict::Estimate { games, elo, los, .. } => {
                format!("vs {since}: {}, {} ({games} games)", elo_text(elo, 1), los_text(los, 1))
            }
        }
    }

    /// The verdict in a few words, for the editor: `+18 ± 9 Elo, LOS 99%`, or
    /// `too few games to tell (40)`.
    pub fn short(&self) -> String {
        match self {
            EloVerdict::TooFewGames { games } => format!("too few games to tell ({games})"),
            EloVerdict::Estimate { elo, los, .. } => {
                format!("{}, {}", elo_text(elo, 0), los_text(los, 0).replace(" %", "%"))
            }
        }
    }
}

/// `x` with `decimals` decimals and a sign, zero as `+0`.
fn signed_fixed(x: f64, decimals: usize) -> String {
    let text = format!("{:+.decimals$}", x);
    if text.trim_start_matches(['+', '-']).chars().all(|c| c == '0' || c == '.') {
        format!("+{}", &text[1..])
    } else {
        text
    }
}

/// An Elo estimate as the verdict line shows it: `+18.0 ± 9.1 Elo`.
fn elo_text(elo: &EloEstimate, decimals: usize) -> String {
    match elo {
        EloEstimate::NoGames => "no Elo (no games)".to_owned(),
        EloEstimate::TooFewGames { games, .. } => format!("no Elo (too few games: {games})"),
        EloEstimate::AllWon { .. } => "+inf Elo (better on every seed)".to_owned(),
        EloEstimate::AllLost { .. } => "-inf Elo (worse on every seed)".to_owned(),
        EloEstimate::Estimate(interval) => match interval.plus_minus() {
            Some(pm) => {
                format!("{} ± {pm:.decimals$} Elo", signed_fixed(interval.elo, decimals))
            }
            None => {
                let end = |end: Option<f64>, infinite: &str| {
                    end.map_or(infinite.to_owned(), |e| signed_fixed(e, decimals))
                };
                format!(
                    "{} Elo (95%: {} to {})",
                    signed_fixed(interval.elo, decimals),
                    end(interval.lower, "-inf"),
                    end(interval.upper, "+inf")
                )
            }
        },
    }
}

/// A LOS as the verdict line shows it: `LOS 99.0 %`.
fn los_text(los: &Los, decimals: usize) -> String {
    match los.0 {
        Some(p) => format!("LOS {:.decimals$} %", 100.0 * p),
        None => "LOS none".to_owned(),
    }
}

fn signed(n: i64) -> String {
    if n == 0 { "±0".to_owned() } else { format!("{n:+}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(name: &str, wins: u32, losses: u32, faults: u32, mean_moves: f64) -> OpponentSummary {
        OpponentSummary {
            name: name.into(),
            games: 10,
            wins,
            losses,
            draws: 10 - wins - losses,
            mean_moves,
            par: None,
            faults,
            pairs: None,
            outcomes: Outcomes::default(),
        }
    }

    fn failure(kind: FailureKind, line: u32, count: u32) -> FailureGroup {
        FailureGroup {
            kind,
            message: format!("{kind} at line {line}"),
            location: Some(SourceLocation { file: "src/lib.rs".into(), line, column: 5 }),
            count,
            seeds: (0..u64::from(count)).collect(),
            opponents: vec!["random".into()],
            seeds_by_opponent: vec![(0..u64::from(count)).collect()],
            first_seed: 0,
            first_opponent: "random".into(),
            first_seat: 0,
            first_turn: 2,
            first_bot_turn: 1,
            replay: "botlens replay . --vs random --seed 0".into(),
            replays: Vec::new(),
            identity: None,
            stack: None,
            fuel_profile: None,
            memory_growth: None,
        }
    }

    fn report(opponents: Vec<OpponentSummary>, failures: Vec<FailureGroup>) -> SuiteReport {
        SuiteReport {
            game: "tictactoe".into(),
            bot: "bot".into(),
            seeds: "0..=9".into(),
            games: 10 * opponents.len() as u32,
            duration_ms: 5,
            opponents,
            failures,
            wasteful: Vec::new(),
            cancelled: false,
        }
    }

    #[test]
    fn the_failed_games_of_a_report_are_its_failing_opponent_and_seed_units() {
        let mut panic = failure(FailureKind::Panic, 10, 3);
        panic.opponents = vec!["random".into(), "perfect".into()];
        panic.seeds_by_opponent = vec![vec![4, 7], vec![2]];
        let mut illegal = failure(FailureKind::IllegalMove, 20, 2);
        illegal.seeds_by_opponent = vec![vec![1, 7]];
        let rows = vec![
            row("clean", 10, 0, 0, 4.0),
            row("random", 5, 3, 3, 4.0),
            row("perfect", 0, 9, 1, 4.0),
        ];
        let failed = failed_games(&report(rows.clone(), vec![panic, illegal])).unwrap().unwrap();
        assert_eq!(
            failed.opponents,
            ["random", "perfect"],
            "in the report's order, clean left out"
        );
        assert_eq!(failed.units, [(0, 1), (0, 4), (0, 7), (1, 2)], "each failed unit once");
        assert_eq!(failed.seeds.to_string(), "0..=9");
        assert!(!failed.truncated);
        assert_eq!(failed_games(&report(rows, Vec::new())).unwrap(), None);
    }

    #[test]
    fn the_last_run_is_kept_and_read_back() {
        let project = tempfile::tempdir().unwrap();
        assert!(load_last_run(project.path()).unwrap().is_none(), "none before the first run");
        let first =
            report(vec![row("random", 5, 3, 3, 4.0)], vec![failure(FailureKind::Panic, 10, 2)]);
        let path = save_last_run(project.path(), &first).unwrap();
        assert_eq!(path, project.path().join("target/botlens/last-run.json"));
        let second = report(vec![row("random", 8, 0, 0, 4.0)], Vec::new());
        save_last_run(project.path(), &second).unwrap();
        assert_eq!(load_last_run(project.path()).unwrap(), Some(second), "the newest replaces it");
        assert!(list(project.path()).is_empty(), "the last run is not a named baseline");
        std::fs::write(&path, "{").unwrap();
        let error = load_last_run(project.path()).unwrap_err().to_string();
        assert!(error.contains("not a botlens baseline"), "{error}");
    }

    #[test]
    fn failures_are_new_or_fixed_by_kind_and_location_not_by_count() {
        let before = report(
            vec![row("random", 5, 3, 3, 4.0)],
            vec![failure(FailureKind::Panic, 10, 2), failure(FailureKind::IllegalMove, 20, 1)],
        );
        let after = report(
            vec![row("random", 5, 3, 3, 4.0)],
            vec![failure(FailureKind::Panic, 10, 7), failure(FailureKind::Panic, 30, 1)],
        );
        let comparison = Comparison::between(&before, &after);
        let lines = |groups: &[FailureGroup]| {
            groups.iter().map(|g| g.location.as_ref().map(|l| l.line)).collect::<Vec<_>>()
        };
        assert_eq!(lines(&comparison.new_failures), [Some(30)]);
        assert_eq!(lines(&comparison.fixed_failures), [Some(20)]);
        let text = comparison.render("run 1", Path::new("/"));
        assert!(text.contains("new failures\n    panic ×1  src/lib.rs:30:5"), "{text}");
        assert!(text.contains("fixed failures\n    illegal_move ×1  src/lib.rs:20:5"), "{text}");
    }

    #[test]
    fn a_failure_whose_lines_moved_is_moved_not_new_and_fixed() {
        let with = |line, identity: Option<&str>| FailureGroup {
            identity: identity.map(str::to_owned),
            ..failure(FailureKind::Panic, line, 2)
        };
        let before = report(
            vec![row("random", 5, 3, 3, 4.0)],
            vec![with(141, Some("aa")), with(150, Some("bb"))],
        );
        let after = report(
            vec![row("random", 5, 3, 3, 4.0)],
            vec![with(139, Some("aa")), with(160, Some("cc"))],
        );
        let comparison = Comparison::between(&before, &after);
        let [moved] = &comparison.moved_failures[..] else { panic!("{comparison:?}") };
        assert_eq!(moved.phrase(), "moved from line 141 to 139");
        assert_eq!(moved.failure.location.as_ref().map(|l| l.line), Some(139));
        let lines = |groups: &[FailureGroup]| {
            groups.iter().map(|g| g.location.as_ref().map(|l| l.line)).collect::<Vec<_>>()
        };
        assert_eq!(lines(&comparison.new_failures), [Some(160)], "another identity is new");
        assert_eq!(lines(&comparison.fixed_failures), [Some(150)]);
        let text = comparison.render("run 1", Path::new("/"));
        assert!(
            text.contains("  moved failures (the same failure at another line)\n    panic ×2  src/lib.rs:139:5  moved from line 141 to 139\n"),
            "{text}"
        );
        assert!(!comparison.is_unchanged());
        // Into another file, it says both files.
        let mut elsewhere = with(12, Some("aa"));
        elsewhere.location.as_mut().unwrap().file = "src/aim.rs".into();
        let comparison = Comparison::between(&before, &report(vec![], vec![elsewhere]));
        assert_eq!(
            comparison.moved_failures[0].phrase(),
            "moved from src/lib.rs:141 to src/aim.rs:12"
        );
    }

    #[test]
    fn a_baseline_saved_without_identities_compares_by_location() {
        let before =
            report(vec![row("random", 5, 3, 3, 4.0)], vec![failure(FailureKind::Panic, 141, 2)]);
        let mut json = serde_json::to_value(&before).unwrap();
        assert!(json["failures"][0].get("identity").is_none(), "not written when absent");
        json["failures"][0].as_object_mut().unwrap().remove("stack");
        let old: SuiteReport = serde_json::from_value(json).expect("an old baseline reads");
        let moved =
            FailureGroup { identity: Some("aa".into()), ..failure(FailureKind::Panic, 139, 2) };
        let same =
            FailureGroup { identity: Some("aa".into()), ..failure(FailureKind::Panic, 141, 2) };
        let after = report(vec![row("random", 5, 3, 3, 4.0)], vec![moved]);
        let comparison = Comparison::between(&old, &after);
        assert!(comparison.moved_failures.is_empty());
        assert_eq!((comparison.new_failures.len(), comparison.fixed_failures.len()), (1, 1));
        let unchanged = report(vec![row("random", 5, 3, 3, 4.0)], vec![same]);
        assert!(
            Comparison::between(&old, &unchanged).is_unchanged(),
            "the same line is the same failure"
        );
    }

    #[test]
    fn score_deltas_are_after_minus_before_per_opponent() {
        let before =
            report(vec![row("random", 4, 4, 4, 5.0), row("perfect", 0, 5, 0, 4.0)], vec![]);
        let after = report(vec![row("random", 7, 1, 0, 4.5), row("minimax", 1, 1, 0, 3.0)], vec![]);
        let comparison = Comparison::between(&before, &after);
        let names: Vec<&str> = comparison.opponents.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(names, ["random", "minimax", "perfect"]);
        let random = &comparison.opponents[0];
        assert_eq!((random.wins, random.losses, random.draws, random.faults), (3, -3, 0, -4));
        assert!((random.mean_moves + 0.5).abs() < 1e-9);
        assert!(comparison.opponents[1].before.is_none());
        assert!(comparison.opponents[2].after.is_none());
        let text = comparison.render("baseline `main`", Path::new("/"));
        assert!(text.contains("random   wins +3  losses -3  draws ±0  mean moves -0.5"), "{text}");
        assert!(text.contains("minimax  new opponent"), "{text}");
        assert!(text.contains("perfect  no longer played"), "{text}");
    }

    #[test]
    fn identical_reports_render_as_no_change() {
        let same =
            report(vec![row("random", 5, 3, 1, 4.0)], vec![failure(FailureKind::Trap, 3, 1)]);
        let comparison = Comparison::between(&same, &same);
        assert!(comparison.is_unchanged());
        assert_eq!(
            comparison.render("run 4", Path::new("/")),
            "since run 4: no change\nvs run 4: too few games to tell (0)\n"
        );
        let json = serde_json::to_value(&comparison).unwrap();
        for field in [
            "before_seeds",
            "after_seeds",
            "new_failures",
            "fixed_failures",
            "moved_failures",
            "opponents",
            "elo",
        ] {
            assert!(json.get(field).is_some(), "missing {field}");
        }
    }

    /// The report of reference player `bot` against `random` at Tic-tac-toe on `seeds`.
    fn played(bot: &str, seeds: &str, paired: bool) -> SuiteReport {
        use crate::suite::{Suite, run_suite};
        let game = botlens_games::GameKind::TicTacToe;
        let suite = Suite { paired, ..crate::suite::tests::suite(game, bot, &["random"], seeds) };
        let results = run_suite(&suite, &|_, _| {}, &crate::CancelToken::new()).unwrap();
        let target = crate::Target::parse(bot, Some("tictactoe")).unwrap();
        SuiteReport::new(&suite, &results, &target)
    }

    #[test]
    fn the_elo_verdict_compares_the_seeds_both_runs_played() {
        let before = played("random", "0..300", false);
        let after = played("perfect", "100..400", false);
        let verdict = EloVerdict::between(&before, &after);
        let EloVerdict::Estimate { games, differences, elo, los } = &verdict else {
            panic!("{verdict:?}")
        };
        assert_eq!((*games, differences.games_per_unit), (200, 1), "seeds 100 to 299");
        assert!(elo.elo().unwrap() > 100.0, "{elo:?}");
        assert!(los.0.unwrap() > 0.99);
        let line = verdict.render("baseline `main`");
        assert!(line.starts_with("vs baseline `main`: +"), "{line}");
        assert!(
            line.contains(" ± ") && line.contains(" Elo, LOS ") && line.ends_with("% (200 games)"),
            "{line}"
        );
        let short = verdict.short();
        assert!(short.ends_with('%') && !short.contains('.'), "{short}");
        // The other way round, the mirror image.
        let back = EloVerdict::between(&after, &before);
        let EloVerdict::Estimate { elo: reverse, .. } = back else { panic!() };
        assert!((reverse.elo().unwrap() + elo.elo().unwrap()).abs() < 1e-9);
        // A run compared with itself: every seed the same. Only the 0.001 counted for each
        // empty outcome, as fishtest counts it, gives the interval a width, and the LOS is even.
        let same = EloVerdict::between(&after, &after);
        assert_eq!(same.render("run 2"), "vs run 2: +0.0 ± 0.2 Elo, LOS 50.0 % (300 games)");
        assert_eq!(same.short(), "+0 ± 0 Elo, LOS 50%");
    }

    #[test]
    fn too_few_shared_games_say_so_and_paired_runs_compare_pairs() {
        let small = played("perfect", "0..40", false);
        let verdict = EloVerdict::between(&played("random", "0..40", false), &small);
        assert_eq!(verdict, EloVerdict::TooFewGames { games: 40 });
        assert_eq!(verdict.render("run 1"), "vs run 1: too few games to tell (40)");
        assert_eq!(verdict.short(), "too few games to tell (40)");
        // A baseline saved before outcomes were kept has none: nothing to compare.
        let mut old = serde_json::to_value(played("random", "0..200", false)).unwrap();
        old["opponents"][0].as_object_mut().unwrap().remove("outcomes");
        let old: SuiteReport = serde_json::from_value(old).unwrap();
        assert!(old.opponents[0].outcomes.is_empty());
        let verdict = EloVerdict::between(&old, &played("perfect", "0..200", false));
        assert_eq!(verdict, EloVerdict::TooFewGames { games: 0 });
        let verdict = EloVerdict::between(
            &played("random", "0..60", true),
            &played("perfect", "0..60", true),
        );
        let EloVerdict::Estimate { games, differences, .. } = verdict else {
            panic!("{verdict:?}")
        };
        assert_eq!((games, differences.games_per_unit, differences.units()), (120, 2, 60));
    }

    #[test]
    fn baselines_round_trip_and_unknown_names_list_the_saved_ones() {
        let project = tempfile::tempdir().unwrap();
        let saved =
            report(vec![row("random", 5, 3, 1, 4.0)], vec![failure(FailureKind::Panic, 3, 1)]);
        let file = save(project.path(), "main", &saved).unwrap();
        assert_eq!(file, project.path().join("target/botlens/baselines/main.json"));
        save(project.path(), "v2.1", &saved).unwrap();
        assert_eq!(load(project.path(), "main").unwrap(), saved);
        assert_eq!(list(project.path()), ["main", "v2.1"]);
        let unknown = load(project.path(), "nope").unwrap_err().to_string();
        assert!(unknown.contains("no baseline named `nope`"), "{unknown}");
        assert!(unknown.contains("saved: main, v2.1"), "{unknown}");
        let empty = tempfile::tempdir().unwrap();
        let none = load(empty.path(), "main").unwrap_err().to_string();
        assert!(none.contains("none is saved yet"), "{none}");
    }

    #[test]
    fn names_that_are_not_plain_file_names_are_refused() {
        let project = Path::new("/bot");
        for bad in ["", "../x", "a/b", ".hidden", "a b"] {
            let error = path(project, bad).unwrap_err().to_string();
            assert!(error.contains("bad baseline name"), "{bad}: {error}");
        }
    }

    #[test]
    fn a_file_that_is_not_a_report_is_a_clear_error() {
        let project = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir(project.path())).unwrap();
        std::fs::write(dir(project.path()).join("junk.json"), "{\"x\": 1}").unwrap();
        let error = load(project.path(), "junk").unwrap_err().to_string();
        assert!(error.contains("not a botlens baseline"), "{error}");
    }
}
