//! `botlens bisect PROJECT GOOD BAD`: which commit made the bot weaker? A binary search over
//! the commits after GOOD up to BAD (`git rev-list --first-parent GOOD..BAD`), each revision
//! judged by a `botlens compare` SPRT against GOOD.
//!
//! Each revision is built in a temporary worktree ([`botlens_bots::revision`]) and played against
//! GOOD's build (head to head, or through opponents: the [`CompareOptions`] say), and the SPRT
//! asks whether GOOD is stronger than it by the test's `elo1` rather than `elo0`:
//!
//! - H1 accepted: the revision is **bad** (weaker than GOOD);
//! - H0 accepted, or the revision's module is byte for byte GOOD's: **good**;
//! - the revision does not build, or the test reaches no verdict within its games: **skip**.
//!
//! BAD is judged first: a BAD that is not shown weaker leaves nothing to look for. Then, as
//! `git bisect` does, the revision nearest the middle of the commits still in doubt is judged,
//! until no commit between the last good one and the first bad one is left untested. Skipped
//! commits there make the answer a short list of candidates rather than one commit.
//! Every judgement is kept with its evidence (the SPRT's verdict and the Elo, or the build
//! error).

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use botlens_engine::text::printable_lines;
use botlens_sandbox::Sandbox;
use botlens_stats::{EloModel, Sprt, Verdict};

use crate::compare::{self, CompareError, CompareOptions, Event, PreparedSide, Side, SideKind};
use botlens_bots::revision::{Repository, RevisionError};
use botlens_harness::CancelToken;
use botlens_harness::pipeline::RunOptions;

/// Why a bisection could not be made.
#[derive(Debug, thiserror::Error)]
pub enum BisectError {
    /// GOOD or BAD is not a revision, or git failed.
    #[error(transparent)]
    Revision(#[from] RevisionError),
    /// GOOD could not be built, the sides could not be compared, or the games failed.
    #[error(transparent)]
    Compare(#[from] CompareError),
    /// No commit lies after GOOD up to BAD.
    #[error("no commit after {good} up to {bad}: nothing to bisect (is GOOD an ancestor of BAD?)")]
    NothingToBisect {
        /// GOOD as given.
        good: String,
        /// BAD as given.
        bad: String,
    },
}

/// A commit of the range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Commit {
    /// The full hash.
    pub hash: String,
    /// Its subject line.
    pub subject: String,
}

impl Commit {
    /// The first twelve hex digits.
    pub fn short(&self) -> &str {
        &self.hash[..self.hash.len().min(12)]
    }
}

/// What a revision was judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Judgement {
    /// Not weaker than GOOD.
    Good,
    /// Weaker than GOOD.
    Bad,
    /// Not testable: it does not build, or the test reached no verdict.
    Skip,
}

impl Judgement {
    /// `good`, `bad` or `skip`.
    pub fn word(self) -> &'static str {
        match self {
            Judgement::Good => "good",
            Judgement::Bad => "bad",
            Judgement::Skip => "skip",
        }
    }
}

/// One revision judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// Index into [`BisectReport::commits`].
    pub commit: usize,
    /// The judgement.
    pub judgement: Judgement,
    /// Why: the SPRT's verdict and the Elo, or the build error.
    pub evidence: String,
}

/// What the bisection found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finding {
    /// The first weaker commit (an index into [`BisectReport::commits`]).
    FirstBad(usize),
    /// One of these commits is the first weaker one; all but the last could not be tested.
    OneOf(Vec<usize>),
    /// BAD is not shown weaker than GOOD (its step says why).
    BadIsNotWeaker,
}

/// A finished bisection.
#[derive(Debug, Clone)]
pub struct BisectReport {
    /// The project, as given.
    pub project: String,
    /// GOOD's commit.
    pub good: Commit,
    /// The commits after GOOD up to BAD, oldest first; BAD is the last.
    pub commits: Vec<Commit>,
    /// The SPRT each revision was judged by.
    pub sprt: Sprt,
    /// The judgements, in the order they were made.
    pub steps: Vec<Step>,
    /// What they add up to.
    pub finding: Finding,
}

/// What a bisection reports on the way.
#[derive(Debug, Clone, Copy)]
pub enum BisectEvent<'a> {
    /// A comparison's builds and batches.
    Compare(Event<'a>),
    /// A revision is about to be judged.
    Judging {
        /// The revision.
        commit: &'a Commit,
        /// Commits still in doubt, this one included.
        in_doubt: usize,
    },
    /// A revision was judged.
    Judged {
        /// The revision.
        commit: &'a Commit,
        /// The judgement and its evidence.
        step: &'a Step,
    },
}

/// The binary search over `count` commits (oldest first; the last one is BAD), `judge`
/// judging the commit of an index; see the module docs. Returns the judgements in order and the
/// finding.
pub fn search<E>(
    count: usize,
    mut judge: impl FnMut(usize, usize) -> Result<Step, E>,
) -> Result<(Vec<Step>, Finding), E> {
    let last = count - 1;
    let first = judge(last, count)?;
    let judged_bad = first.judgement == Judgement::Bad;
    let mut steps = vec![first];
    if !judged_bad {
        return Ok((steps, Finding::BadIsNotWeaker));
    }
    // Commits up to `good` (GOOD itself is -1) are good; `bad` and after are bad.
    let (mut good, mut bad) = (-1_isize, last as isize);
    let mut skipped = BTreeSet::new();
    loop {
        let doubt: Vec<isize> = (good + 1..bad).filter(|i| !skipped.contains(i)).collect();
        let middle = (good + bad).div_euclid(2);
        let Some(&next) = doubt.iter().min_by_key(|&&i| ((i - middle).abs(), i)) else { break };
        let step = judge(next as usize, doubt.len())?;
        match step.judgement {
            Judgement::Good => good = next,
            Judgement::Bad => bad = next,
            Judgement::Skip => {
                skipped.insert(next);
            }
        }
        steps.push(step);
    }
    let finding = if good + 1 == bad {
        Finding::FirstBad(bad as usize)
    } else {
        Finding::OneOf((good + 1..=bad).map(|i| i as usize).collect())
    };
    Ok((steps, finding))
}

/// Bisects the commits of the project at `project` after `good` up to `bad`, judging each with
/// `options` (their SPRT, by default `elo0` 0 and `elo1` 10) against GOOD.
pub fn bisect(
    sandbox: &Sandbox,
    project: &Path,
    good: &str,
    bad: &str,
    options: &CompareOptions,
    events: &(dyn Fn(BisectEvent<'_>) + Sync),
    cancel: &CancelToken,
) -> Result<BisectReport, BisectError> {
    let repository = Repository::of(project, good)?;
    let (good_hash, bad_hash) = (repository.commit(good)?, repository.commit(bad)?);
    let commit = |hash: String| -> Result<Commit, RevisionError> {
        Ok(Commit { subject: repository.subject(&hash)?, hash })
    };
    let commits = repository
        .commits_between(&good_hash, &bad_hash)?
        .into_iter()
        .map(commit)
        .collect::<Result<Vec<_>, _>>()?;
    if commits.is_empty() {
        return Err(BisectError::NothingToBisect { good: good.to_owned(), bad: bad.to_owned() });
    }
    let good_commit = commit(good_hash)?;
    let sprt = match options.sprt {
        Some(sprt) => sprt,
        None => compare::parse_sprt(&[], EloModel::Logistic).expect("the default SPRT is valid"),
    };
    let options = CompareOptions { sprt: Some(sprt), ..options.clone() };
    let side = |commit: &Commit| Side {
        label: commit.short().to_owned(),
        kind: SideKind::Revision { project: PathBuf::from(project), rev: commit.hash.clone() },
    };
    let game = side(&good_commit).game().map_err(BisectError::Compare)?;
    if game.is_puzzle() {
        return Err(CompareError::SprtOfSteps(game.name()).into());
    }
    let compare_events = |event: Event<'_>| events(BisectEvent::Compare(event));
    let run = options.run_options(game);
    let good_side =
        compare::prepare_side(sandbox, &side(&good_commit), &run, &compare_events, cancel)?;
    let run = RunOptions { seeds: Some(good_side.suite.seeds), ..run };
    let (steps, finding) = search(commits.len(), |index, in_doubt| {
        let commit = &commits[index];
        events(BisectEvent::Judging { commit, in_doubt });
        let step = judge(sandbox, &good_side, &side(commit), &run, &options, events, cancel)
            .map(|(judgement, evidence)| Step { commit: index, judgement, evidence })?;
        events(BisectEvent::Judged { commit, step: &step });
        Ok::<_, BisectError>(step)
    })?;
    Ok(BisectReport {
        project: project.display().to_string(),
        good: good_commit,
        commits,
        sprt,
        steps,
        finding,
    })
}

/// The lines of a build error kept as evidence.
const BUILD_ERROR_LINES: usize = 6;

/// Builds `side` and plays it against GOOD: the judgement and its evidence.
fn judge(
    sandbox: &Sandbox,
    good: &PreparedSide,
    side: &Side,
    run: &RunOptions,
    options: &CompareOptions,
    events: &(dyn Fn(BisectEvent<'_>) + Sync),
    cancel: &CancelToken,
) -> Result<(Judgement, String), BisectError> {
    let compare_events = |event: Event<'_>| events(BisectEvent::Compare(event));
    let prepared = match compare::prepare_side(sandbox, side, run, &compare_events, cancel) {
        Ok(prepared) => prepared,
        Err(error @ CompareError::RevisionBuild { .. }) => {
            let text = error.to_string();
            let lines: Vec<&str> = text.lines().take(BUILD_ERROR_LINES).collect();
            return Ok((Judgement::Skip, lines.join("\n")));
        }
        Err(error) => return Err(error.into()),
    };
    let report = match compare::play(good, &prepared, options, &compare_events, cancel) {
        Ok(report) => report,
        Err(CompareError::Identical { .. }) => {
            return Ok((Judgement::Good, format!("the same module as {}", good.label)));
        }
        Err(error) => return Err(error.into()),
    };
    let sprt = report.sprt.expect("bisect always runs an SPRT");
    let judgement = match sprt.verdict {
        Verdict::H1Accepted => Judgement::Bad,
        Verdict::H0Accepted => Judgement::Good,
        Verdict::Continue => Judgement::Skip,
    };
    let mut evidence = report.verdict_line(&sprt);
    if let (Some(elo), Verdict::H0Accepted | Verdict::H1Accepted) =
        (report.figures.elo(), sprt.verdict)
    {
        let _ = write!(evidence, "; {elo} for {}", good.label);
    }
    Ok((judgement, evidence))
}

impl BisectReport {
    /// The bisection for a terminal: every judgement with its evidence, then the finding.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let name = |index: usize| {
            let commit = &self.commits[index];
            format!("{} {}", commit.short(), commit.subject)
        };
        let _ = writeln!(
            out,
            "bisect of {}: {} commits after {} {}, each against it (SPRT [{}, {}], alpha {}, beta {})",
            self.project,
            self.commits.len(),
            self.good.short(),
            self.good.subject,
            self.sprt.elo0(),
            self.sprt.elo1(),
            self.sprt.alpha(),
            self.sprt.beta()
        );
        for (number, step) in self.steps.iter().enumerate() {
            let _ =
                writeln!(out, "  {}. {}: {}", number + 1, name(step.commit), step.judgement.word());
            for line in step.evidence.lines() {
                let _ = writeln!(out, "       {line}");
            }
        }
        let _ = match &self.finding {
            Finding::FirstBad(index) => {
                writeln!(out, "first weaker revision: {}", name(*index))
            }
            Finding::OneOf(indices) => {
                let _ = writeln!(
                    out,
                    "the first weaker revision is one of these (all but the last could not be tested):"
                );
                for &index in indices {
                    let _ = writeln!(out, "  {}", name(index));
                }
                Ok(())
            }
            Finding::BadIsNotWeaker => writeln!(
                out,
                "{} is not shown weaker than {}: nothing to bisect",
                name(self.commits.len() - 1),
                self.good.short()
            ),
        };
        printable_lines(&out).into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Judgement::{Bad, Good, Skip};

    /// Runs the search over `truth` (each commit's judgement), returning the commits judged in
    /// order and the finding.
    fn run(truth: &[Judgement]) -> (Vec<usize>, Finding) {
        let (steps, finding) = search(truth.len(), |index, in_doubt| {
            assert!(in_doubt >= 1 && in_doubt <= truth.len());
            Ok::<_, ()>(Step { commit: index, judgement: truth[index], evidence: String::new() })
        })
        .unwrap();
        (steps.iter().map(|s| s.commit).collect(), finding)
    }

    #[test]
    fn the_search_halves_the_commits_in_doubt_and_names_the_first_bad_one() {
        assert_eq!(run(&[Bad]), (vec![0], Finding::FirstBad(0)));
        assert_eq!(run(&[Good, Bad, Bad]), (vec![2, 0, 1], Finding::FirstBad(1)));
        let truth: Vec<Judgement> = (0..16).map(|i| if i < 11 { Good } else { Bad }).collect();
        let (judged, finding) = run(&truth);
        assert_eq!(finding, Finding::FirstBad(11));
        assert!(judged.len() <= 1 + 4, "log2(16) steps after BAD: {judged:?}");
        for first_bad in 0..16 {
            let truth: Vec<Judgement> =
                (0..16).map(|i| if i < first_bad { Good } else { Bad }).collect();
            assert_eq!(run(&truth).1, Finding::FirstBad(first_bad));
        }
    }

    #[test]
    fn skipped_commits_are_stepped_around_and_can_leave_candidates() {
        // The skipped commit is not next to the first bad one: the answer is still one commit.
        let (judged, finding) = run(&[Good, Good, Skip, Good, Bad, Bad]);
        assert_eq!(finding, Finding::FirstBad(4));
        assert!(judged.contains(&2), "the middle was tried: {judged:?}");
        // Just before the first bad one, it leaves both as candidates.
        assert_eq!(run(&[Good, Skip, Bad, Bad]).1, Finding::OneOf(vec![1, 2]));
        assert_eq!(run(&[Skip, Skip, Bad]).1, Finding::OneOf(vec![0, 1, 2]));
        // A BAD that is not shown weaker ends the search at once.
        assert_eq!(run(&[Bad, Good]), (vec![1], Finding::BadIsNotWeaker));
        assert_eq!(run(&[Bad, Skip]), (vec![1], Finding::BadIsNotWeaker));
    }
}
