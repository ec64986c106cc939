//! The watch loop's state and what it prints, without threads or file systems.
//!
//! A [`WatchSession`] hears about changed files, finished runs and stop requests, and answers each
//! with a [`Step`]: text for the terminal, perhaps a run to start, perhaps "done". At most one
//! run is in flight: a change during a run cancels it, and the next run starts once the stale
//! one has wound down (so two cargo builds never race for the same target directory).
//!
//! Not for: watching files ([`crate::Watch`]) or running suites (`botlens_harness::pipeline`).

use std::collections::BTreeSet;
use std::fmt::Write as _;

use botlens_bots::build::CompilerMessage;
use botlens_harness::baseline::Comparison;
use botlens_harness::{CancelToken, SuiteReport};

/// Compile errors shown in full after a failed build; the rest are counted.
const ERRORS_SHOWN: usize = 3;

/// Changed files named in a run's header; the rest are counted.
const FILES_NAMED: usize = 3;

/// How a run ended.
#[derive(Debug)]
pub enum RunOutcome {
    /// The suite was played.
    Report {
        /// Its report.
        report: Box<SuiteReport>,
        /// Compiler warnings of the build.
        warnings: usize,
    },
    /// The bot does not compile.
    CompileErrors(Vec<CompilerMessage>),
    /// The run was cancelled.
    Cancelled,
    /// Any other failure (a malformed `Cargo.toml`, a module that does not load, …).
    Failed(String),
}

/// A run for the worker to do: its number and the token that cancels it.
#[derive(Debug, Clone)]
pub struct Job {
    /// Runs are numbered from 1.
    pub number: u32,
    /// Cancelled when a newer change makes this run stale.
    pub cancel: CancelToken,
    /// What started it: `start`, or the files that changed.
    pub reason: String,
}

/// The answer to one input.
#[derive(Debug, Default)]
pub struct Step {
    /// What to print (whole lines).
    pub text: String,
    /// A run to start.
    pub start: Option<Job>,
    /// Whether the watch is over.
    pub done: bool,
}

/// The watch loop's state.
#[derive(Debug, Default)]
pub struct WatchSession {
    started: u32,
    running: Option<Job>,
    pending: Option<BTreeSet<String>>,
    last: Option<(u32, SuiteReport)>,
    stopping: bool,
}

impl WatchSession {
    /// A session that has run nothing.
    pub fn new() -> WatchSession {
        WatchSession::default()
    }

    /// The first run, when the watch starts.
    pub fn begin(&mut self) -> Step {
        self.start("start".to_owned())
    }

    /// Files (relative paths) changed.
    pub fn changed(&mut self, files: impl IntoIterator<Item = String>) -> Step {
        let files: BTreeSet<String> = files.into_iter().collect();
        if files.is_empty() || self.stopping {
            return Step::default();
        }
        let Some(job) = &self.running else { return self.start(reason(&files)) };
        let mut step = Step::default();
        match &mut self.pending {
            Some(pending) => pending.extend(files),
            None => {
                job.cancel.cancel();
                let _ = writeln!(step.text, "run {} cancelled: {}", job.number, reason(&files));
                self.pending = Some(files);
            }
        }
        step
    }

    /// Run `number` ended with `outcome`.
    pub fn finished(&mut self, number: u32, outcome: RunOutcome) -> Step {
        let Some(job) = self.running.take_if(|job| job.number == number) else {
            return Step::default();
        };
        if self.stopping {
            return Step { done: true, ..Step::default() };
        }
        let mut step = Step::default();
        // A run cancelled by a change was announced as such; whatever it produced is stale.
        if !job.cancel.is_cancelled() {
            step.text = self.describe(number, outcome);
        }
        match self.pending.take() {
            Some(files) => {
                let next = self.start(reason(&files));
                step.text.push_str(&next.text);
                step.start = next.start;
            }
            None => step.text.push_str("watching for changes (Ctrl-C to stop)\n"),
        }
        step
    }

    /// Stop was asked for (Ctrl-C). A run in flight is cancelled and waited for; a second stop
    /// does not wait.
    pub fn stop(&mut self) -> Step {
        match &self.running {
            Some(job) if !self.stopping => {
                job.cancel.cancel();
                self.stopping = true;
                Step {
                    text: format!("stopping: cancelling run {}\n", job.number),
                    ..Step::default()
                }
            }
            _ => Step { done: true, ..Step::default() },
        }
    }

    fn start(&mut self, reason: String) -> Step {
        self.started += 1;
        let job = Job { number: self.started, cancel: CancelToken::new(), reason };
        self.running = Some(job.clone());
        Step {
            text: format!("── run {} ({}) ──\n", job.number, job.reason),
            start: Some(job),
            done: false,
        }
    }

    /// The text for a run that finished (not cancelled).
    fn describe(&mut self, number: u32, outcome: RunOutcome) -> String {
        let mut text = String::new();
        match outcome {
            RunOutcome::Report { report, warnings } => {
                if warnings > 0 {
                    let _ = writeln!(text, "built with {warnings} warning{}", plural(warnings));
                }
                // Paths print relative to where the watch was started from.
                let base = std::env::current_dir().unwrap_or_default();
                text.push_str(&report.render(&base));
                if let Some((previous, before)) = &self.last {
                    let since = format!("run {previous}");
                    text.push_str(&Comparison::between(before, &report).render(&since, &base));
                }
                self.last = Some((number, *report));
            }
            RunOutcome::CompileErrors(errors) => {
                let _ =
                    writeln!(text, "build failed: {} error{}", errors.len(), plural(errors.len()));
                for error in errors.iter().take(ERRORS_SHOWN) {
                    let _ = writeln!(text, "{}", error.rendered.trim_end());
                }
                if errors.len() > ERRORS_SHOWN {
                    let more = errors.len() - ERRORS_SHOWN;
                    let _ = writeln!(text, "… and {more} more error{}", plural(more));
                }
            }
            RunOutcome::Cancelled => {
                let _ = writeln!(text, "run {number} cancelled");
            }
            RunOutcome::Failed(message) => {
                let _ = writeln!(text, "run failed: {message}");
            }
        }
        text
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// `src/lib.rs changed`, `a.rs, b.rs changed`, `a.rs, b.rs, c.rs and 2 more changed`.
fn reason(files: &BTreeSet<String>) -> String {
    let named: Vec<&str> = files.iter().take(FILES_NAMED).map(String::as_str).collect();
    let more = files.len().saturating_sub(FILES_NAMED);
    if more > 0 {
        format!("{} and {more} more changed", named.join(", "))
    } else {
        format!("{} changed", named.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use botlens_engine::{FailureKind, SourceLocation};
    use botlens_harness::report::{FailureGroup, OpponentSummary};

    fn report(wins: u32, failing_line: Option<u32>) -> RunOutcome {
        let failures = failing_line
            .map(|line| FailureGroup {
                kind: FailureKind::Panic,
                message: "boom".into(),
                location: Some(SourceLocation { file: "src/lib.rs".into(), line, column: 9 }),
                count: 10 - wins,
                seeds: (0..u64::from(10 - wins)).collect(),
                opponents: vec!["random".into()],
                seeds_by_opponent: vec![(0..u64::from(10 - wins)).collect()],
                first_seed: 0,
                first_opponent: "random".into(),
                first_seat: 0,
                first_turn: 1,
                first_bot_turn: 1,
                replay: "botlens replay . --vs random --seed 0".into(),
                replays: Vec::new(),
                identity: None,
                stack: None,
                fuel_profile: None,
                memory_growth: None,
            })
            .into_iter()
            .collect();
        let report = SuiteReport {
            game: "tictactoe".into(),
            bot: "bot".into(),
            seeds: "0..=9".into(),
            games: 10,
            duration_ms: 3,
            opponents: vec![OpponentSummary {
                name: "random".into(),
                games: 10,
                wins,
                losses: 10 - wins,
                draws: 0,
                mean_moves: 3.0,
                par: None,
                faults: if failing_line.is_some() { 10 - wins } else { 0 },
                pairs: None,
                outcomes: Default::default(),
            }],
            failures,
            wasteful: Vec::new(),
            cancelled: false,
        };
        RunOutcome::Report { report: Box::new(report), warnings: 0 }
    }

    fn error(n: usize) -> CompilerMessage {
        CompilerMessage {
            level: "error".into(),
            message: format!("error number {n}"),
            code: None,
            rendered: format!("error: error number {n}\n --> src/lib.rs:{n}:1\n"),
            file: None,
            line: n as u32,
            column: 1,
            end_line: n as u32,
            end_column: 2,
        }
    }

    fn files(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn each_run_has_a_numbered_header_naming_what_changed() {
        let mut session = WatchSession::new();
        let first = session.begin();
        assert_eq!(first.text, "── run 1 (start) ──\n");
        assert_eq!(first.start.as_ref().map(|j| j.number), Some(1));
        let done = session.finished(1, report(10, None));
        assert!(done.text.contains("no game lost by a bot fault"), "{}", done.text);
        assert!(done.text.ends_with("watching for changes (Ctrl-C to stop)\n"), "{}", done.text);
        let second = session.changed(files(&["src/lib.rs", "Cargo.toml"]));
        assert_eq!(second.text, "── run 2 (Cargo.toml, src/lib.rs changed) ──\n");
        session.finished(2, report(10, None));
        let third = session.changed(files(&["a.rs", "b.rs", "c.rs", "d.rs", "e.rs"]));
        assert_eq!(third.text, "── run 3 (a.rs, b.rs, c.rs and 2 more changed) ──\n");
        assert!(session.changed(Vec::new()).start.is_none(), "no files, no run");
    }

    #[test]
    fn a_change_during_a_run_cancels_it_and_starts_one_run_after_it_winds_down() {
        let mut session = WatchSession::new();
        let first = session.begin().start.unwrap();
        let change = session.changed(files(&["src/lib.rs"]));
        assert!(first.cancel.is_cancelled());
        assert_eq!(change.text, "run 1 cancelled: src/lib.rs changed\n");
        assert!(change.start.is_none(), "the stale run is still winding down");
        let again = session.changed(files(&["src/board.rs"]));
        assert!(again.text.is_empty() && again.start.is_none());
        // The stale run happened to finish with a report: it is not shown.
        let next = session.finished(1, report(3, Some(7)));
        assert_eq!(next.text, "── run 2 (src/board.rs, src/lib.rs changed) ──\n");
        let job = next.start.unwrap();
        assert_eq!(job.number, 2);
        assert!(!job.cancel.is_cancelled());
        assert!(
            session.finished(1, RunOutcome::Cancelled).text.is_empty(),
            "run 1 is already over"
        );
    }

    #[test]
    fn every_report_says_what_changed_since_the_previous_one() {
        let mut session = WatchSession::new();
        session.begin();
        session.finished(1, report(10, None));
        session.changed(files(&["src/lib.rs"]));
        let broken = session.finished(2, report(4, Some(12))).text;
        assert!(
            broken.contains("since run 1:\n  new failures\n    panic ×6  src/lib.rs:12:9"),
            "{broken}"
        );
        assert!(broken.contains("random  wins -6  losses +6"), "{broken}");
        session.changed(files(&["src/lib.rs"]));
        let fixed = session.finished(3, report(10, None)).text;
        assert!(fixed.contains("since run 2:\n  fixed failures\n    panic ×6"), "{fixed}");
        session.changed(files(&["src/lib.rs"]));
        let same = session.finished(4, report(10, None)).text;
        assert!(same.contains("since run 3: no change"), "{same}");
        // These reports keep no results per seed: too few games to tell.
        assert!(same.contains("vs run 3: too few games to tell (0)\n"), "{same}");
    }

    #[test]
    fn a_failed_build_shows_its_first_errors_and_the_next_report_compares_with_the_last_one() {
        let mut session = WatchSession::new();
        session.begin();
        session.finished(1, report(10, None));
        session.changed(files(&["src/lib.rs"]));
        let failed =
            session.finished(2, RunOutcome::CompileErrors((1..=5).map(error).collect())).text;
        assert!(failed.starts_with("build failed: 5 errors\nerror: error number 1\n"), "{failed}");
        assert!(failed.contains("error number 3"), "{failed}");
        assert!(!failed.contains("error number 4"), "{failed}");
        assert!(failed.contains("… and 2 more errors\n"), "{failed}");
        assert!(failed.ends_with("watching for changes (Ctrl-C to stop)\n"), "{failed}");
        session.changed(files(&["src/lib.rs"]));
        let back = session.finished(3, report(10, None)).text;
        assert!(back.contains("since run 1: no change"), "{back}");
    }

    #[test]
    fn stopping_cancels_the_run_in_flight_and_waits_for_it() {
        let mut session = WatchSession::new();
        let job = session.begin().start.unwrap();
        let stop = session.stop();
        assert!(job.cancel.is_cancelled());
        assert!(!stop.done);
        assert!(session.changed(files(&["src/lib.rs"])).start.is_none(), "no runs while stopping");
        assert!(session.finished(1, RunOutcome::Cancelled).done);
        let mut idle = WatchSession::new();
        assert!(idle.stop().done);
    }
}
