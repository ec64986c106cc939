//! `botlens compare A B`: is A stronger than B? Two bots (anything a run takes, or a project
//! at a git revision) played on the same seeds, the results read as chess-engine testers read
//! them (the statistics are `botlens-stats`').
//!
//! Three modes, by the game and whether opponents are named:
//!
//! - **Head to head** (a two-player game, no opponents): A against B, paired — each seed
//!   twice, A in seat 0 then in seat 1 — scored as W/L/D and as a pentanomial of pairs, with
//!   the Elo of A over B, its 95 % interval and the LOS.
//! - **Gauntlet** (a two-player game with opponents): A and B each play every opponent on the
//!   same seeds, paired; the unit is (opponent, seed), and counts A's pair points minus B's
//!   ([`botlens_stats::Differences`]: the Elo difference of A over B, through the opponents).
//! - **Steps** (a puzzle, Klotski): A and B solve the same boards on the same seeds; each
//!   (board, seed) counts A's steps minus B's, compared with the sign test and the Wilcoxon
//!   signed-rank test (fewer steps is better).
//!
//! In shards ([`play_shard`], `--shard I/N`), a comparison plays one block of its seeds (no
//! SPRT) into a part (`botlens_harness::shard`: `kind` `compare`, `run` naming the game, the
//! mode, both sides — label, commit, module hashes, limits —, the opponents and all the seeds;
//! `seeds_played`; `tally`, the mode's sums); [`merge`] adds the parts into the comparison of
//! every seed, the same report as one run's.
//!
//! Games are played in batches of [`BATCH_GAMES`] (each on every core). With an SPRT the test
//! is looked at after every batch and stops at its verdict, at the games cap or when the seeds
//! run out; without one, every seed is played. Batch boundaries depend only on the games, so
//! the same bots, seeds and options give the same figures in any process with any number of
//! worker threads.
//!
//! # JSON (`botlens compare --json`)
//!
//! One object, [`CompareReport`]:
//!
//! | field | meaning |
//! |---|---|
//! | `game` | game name |
//! | `a`, `b` | the two sides as named on the command line |
//! | `a_commit`, `b_commit` | for `PROJECT@REV`, the commit built (full hash); else null |
//! | `opponents` | gauntlet: the opponents; steps: the boards; head to head: empty |
//! | `seeds` | the seeds played, e.g. `0..=99` |
//! | `games` | games played in all (both sides) |
//! | `figures` | by `mode`: `head_to_head` with `score` (A's `wins`, `losses`, `draws` against B), `pentanomial` (pairs by A's points, 0 to 2), `elo`, `normalized_elo` and `los`; `gauntlet` with `sides` (per side: `name` and `scores`, per opponent `opponent`, `wins`, `losses`, `draws`), `differences` (`games_per_unit` 2 and `counts`, units by A's pair points minus B's from −2 to +2 by halves), `elo`, `normalized_elo` and `los`; `steps` with `layouts` (board and seed units), `a` and `b` (`solved`, `mean_steps`), `sign_test` and `wilcoxon` (of A's steps minus B's: `n`, `positive`, `negative`, `zeros`, `p_value`, `median_difference`, and for Wilcoxon `w_plus`, `w_minus`, `method`) |
//! | `elo` (in `figures`) | the logistic Elo of A over B, fishtest's: `kind` `estimate` with `elo`, `lower`, `upper` (null when unbounded) and `margin` (fishtest's ±, an unbounded end at its cap of ±1199.9), or `no_games`; `too_few_games` with `games` and `needed` (fewer than 20 pairs or units: no figure); `all_won`, `all_lost` with `games` |
//! | `normalized_elo` (in `figures`) | the normalized Elo of A over B, fishtest's: `kind` `estimate` with `nelo` and `plus_minus`, or the other kinds of `elo` |
//! | `los` (in `figures`) | the likelihood that A is the stronger; null with too few games |
//! | `sprt` | with `--sprt`: `llr`, `lower_bound`, `upper_bound`, `elo0`, `elo1`, `elo_model` (`logistic` or `normalized`: the scale of `elo0` and `elo1`), `verdict` (`continue`, `h0_accepted`, `h1_accepted`); else null |
//! | `sprt_estimate` | once the SPRT stopped at a verdict: fishtest's bias-corrected estimate in logistic Elo, `elo`, `lower`, `upper` (95 %) and `los`; else null (and null where the plain estimate has no figure) |
//! | `stopped` | why the games ended: `verdict` (the SPRT's), `max_games`, or `seeds` (all played) |
//! | `regression` | whether A is worse than B by a regression test ([`CompareReport::regression`]): `true` or `false` for a non-regression SPRT (`elo1` ≤ 0) and for steps; null for other comparisons |

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Mutex;

use botlens_engine::text::printable_lines;
use botlens_engine::{Seat, SeatResult};
use botlens_games::GameKind;
use botlens_sandbox::Sandbox;
use botlens_stats::{
    CutechessElo, CutechessSprt, Differences, EloEstimate, EloModel, Los, NormalizedElo,
    Pentanomial, SignTest, Sprt, SprtEstimate, SprtResult, StatsError, Tally as _, Trinomial,
    Verdict, Wilcoxon, sign_test, wilcoxon_signed_rank,
};
use serde::{Deserialize, Serialize};

use botlens_bots::caps::LimitCaps;
use botlens_bots::folder::FolderError;
use botlens_bots::revision::{self, Checkout, RevisionError};
use botlens_bots::target::{Target, TargetError};
use botlens_bots::toolchain::LoadError;
use botlens_harness::pipeline::{self, RunError, RunOptions, Stage};
use botlens_harness::shard::{self, Contents, Limits, MergeError, Part, PartError, Player, Shard};
use botlens_harness::suite::{self, Contender, GameResult, KeepTraces, Suite, SuiteError};
use botlens_harness::tally::{Misfit, Position, points};
use botlens_harness::{CancelToken, ProjectError, SeedRange};

/// Games per batch: the SPRT is looked at after each, and a progress line printed. Fixed, so a
/// test stops at the same game whatever the number of worker threads.
pub const BATCH_GAMES: u64 = 200;

/// The games cap of an SPRT when `--max-games` is not given.
pub const DEFAULT_SPRT_MAX_GAMES: u64 = 20_000;

/// The SPRT a `--sprt` spec asks for, its bounds in `model`'s Elo: `elo0=0 elo1=10 alpha=0.05
/// beta=0.05`, any subset in any order (items separated by spaces or commas), the rest by
/// default: `elo0` 0, `elo1` 10 and α = β = [`botlens_stats::DEFAULT_ERROR_RATE`].
///
/// ```
/// use botlens_experiments::compare::parse_sprt;
/// use botlens_stats::EloModel;
///
/// let items = ["elo1=5".to_owned(), "alpha=0.1".to_owned()];
/// let sprt = parse_sprt(&items, EloModel::Logistic).unwrap();
/// assert_eq!((sprt.elo0(), sprt.elo1(), sprt.alpha(), sprt.beta()), (0.0, 5.0, 0.1, 0.05));
/// assert_eq!(parse_sprt(&items, EloModel::Normalized).unwrap().model(), EloModel::Normalized);
/// let error = parse_sprt(&["elo0=10".to_owned()], EloModel::Logistic).unwrap_err();
/// assert!(error.contains("elo0 below elo1"));
/// ```
pub fn parse_sprt(items: &[String], model: EloModel) -> Result<Sprt, String> {
    const KEYS: [&str; 4] = ["elo0", "elo1", "alpha", "beta"];
    let mut values: [Option<f64>; 4] = [None; 4];
    for item in items.iter().flat_map(|i| i.split([',', ' '])).filter(|i| !i.is_empty()) {
        let expected = "expected KEY=VALUE with KEY one of elo0, elo1, alpha, beta";
        let (key, value) =
            item.split_once('=').ok_or_else(|| format!("bad --sprt item `{item}`: {expected}"))?;
        let index = KEYS
            .iter()
            .position(|k| *k == key.trim())
            .ok_or_else(|| format!("bad --sprt item `{item}`: unknown key `{key}`; {expected}"))?;
        let number: f64 = value
            .trim()
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite())
            .ok_or_else(|| format!("bad --sprt item `{item}`: `{value}` is not a number"))?;
        if values[index].replace(number).is_some() {
            return Err(format!("bad --sprt spec: `{key}` is given twice"));
        }
    }
    let [elo0, elo1, alpha, beta] = values;
    let rate = botlens_stats::DEFAULT_ERROR_RATE;
    Sprt::new(model, elo0.unwrap_or(0.0), elo1.unwrap_or(10.0))
        .and_then(|sprt| sprt.with_error_rates(alpha.unwrap_or(rate), beta.unwrap_or(rate)))
        .map_err(|error| format!("bad --sprt spec: {error}"))
}

/// One side of a comparison, as the user named it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Side {
    /// The name as typed, which the output uses.
    pub label: String,
    /// What it is.
    pub kind: SideKind,
}

/// What a side is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SideKind {
    /// Anything `botlens run` takes.
    Target(Target),
    /// A bot at a git revision, `DIR@REV`: a project or a bot folder in any language.
    Revision {
        /// The bot's directory.
        project: PathBuf,
        /// The revision.
        rev: String,
    },
}

impl Side {
    /// The side `text` names, with the game of `--game` if given: `PROJECT@REV` when the part
    /// before the last `@` is a directory, else a target as [`Target::parse`] reads it.
    pub fn parse(text: &str, game: Option<&str>) -> Result<Side, CompareError> {
        let kind = match revision::split(text) {
            Some((project, rev)) => {
                SideKind::Revision { project: project.into(), rev: rev.to_owned() }
            }
            None => SideKind::Target(Target::parse(text, game)?),
        };
        Ok(Side { label: text.to_owned(), kind })
    }

    /// The game the side plays, known before anything is built (a revision's, from the bot in
    /// the working tree: a project, or a folder in any language botlens builds).
    pub fn game(&self) -> Result<GameKind, CompareError> {
        let revision;
        let target = match &self.kind {
            SideKind::Target(target) => target,
            SideKind::Revision { project, .. } => {
                revision = Target::of_dir(project);
                &revision
            }
        };
        Ok(target.game()?)
    }
}

/// A side built (or loaded) and ready to play.
#[derive(Debug, Clone)]
pub struct PreparedSide {
    /// The name as typed.
    pub label: String,
    /// The side's own suite: its bot, its opponents, seeds and limits.
    pub suite: Suite,
    /// For a revision, the commit built.
    pub commit: Option<String>,
}

/// What a comparison is asked to do.
#[derive(Debug, Clone, Default)]
pub struct CompareOptions {
    /// Opponents for a gauntlet (two-player games) or boards (puzzles); `None`: head to head,
    /// or a puzzle's default boards.
    pub opponents: Option<Vec<String>>,
    /// Seeds instead of A's project's (with an SPRT: where they start, and where they end).
    pub seeds: Option<SeedRange>,
    /// Turn cap instead of the projects'.
    pub max_turns: Option<u32>,
    /// Worker threads; 0 means one per core.
    pub jobs: usize,
    /// The SPRT to stop at; `None`: play every seed.
    pub sprt: Option<Sprt>,
    /// The most games to play in all ([`DEFAULT_SPRT_MAX_GAMES`] with an SPRT).
    pub max_games: Option<u64>,
    /// The user's caps on the limits the sides' projects may ask for.
    pub caps: LimitCaps,
}

impl CompareOptions {
    /// The options each side is prepared with: its opponents and the turn cap, paired for a
    /// gauntlet.
    pub fn run_options(&self, game: GameKind) -> RunOptions {
        RunOptions {
            opponents: self.opponents.clone(),
            seeds: self.seeds,
            max_turns: self.max_turns,
            jobs: self.jobs,
            paired: self.opponents.is_some() && !game.is_puzzle(),
            caps: self.caps.clone(),
            ..RunOptions::default()
        }
    }
}

/// What a comparison reports on the way.
#[derive(Debug, Clone, Copy)]
pub enum Event<'a> {
    /// A side is being built or loaded.
    Preparing {
        /// The side's label.
        side: &'a str,
        /// Where it is.
        stage: Stage,
    },
    /// A batch of games finished.
    Batch {
        /// Games played so far, both sides.
        games: u64,
        /// The Elo estimate so far.
        elo: EloEstimate,
        /// The SPRT so far, when there is one.
        sprt: Option<SprtResult>,
    },
}

/// Why a comparison could not be made.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    /// A side is not a bot.
    #[error(transparent)]
    Target(#[from] TargetError),
    /// A side's project is not usable.
    #[error(transparent)]
    Project(#[from] ProjectError),
    /// A side's bot folder (JavaScript, C) is not usable.
    #[error(transparent)]
    Script(#[from] FolderError),
    /// A revision could not be checked out.
    #[error(transparent)]
    Revision(#[from] RevisionError),
    /// A side could not be built or loaded.
    #[error("{label}: {error}")]
    Run {
        /// The side's label.
        label: String,
        /// Why.
        error: RunError,
    },
    /// A revision does not build.
    #[error("{label}: revision {commit} does not build: {error}")]
    RevisionBuild {
        /// The side's label.
        label: String,
        /// The commit.
        commit: String,
        /// Why.
        error: RunError,
    },
    /// A and B play different games.
    #[error("{a} plays {game_a} and {b} plays {game_b}: only bots of one game can be compared")]
    DifferentGames {
        /// A's label.
        a: String,
        /// A's game.
        game_a: GameKind,
        /// B's label.
        b: String,
        /// B's game.
        game_b: GameKind,
    },
    /// A and B are the same bot.
    #[error("{a} and {b} are the same bot ({what}): a bot compared with itself says nothing")]
    Identical {
        /// A's label.
        a: String,
        /// B's label.
        b: String,
        /// What they both are.
        what: String,
    },
    /// The games of the two sides' suites are not the same (different opponents).
    #[error("{a} and {b} would play different opponents: {detail}")]
    DifferentOpponents {
        /// A's label.
        a: String,
        /// B's label.
        b: String,
        /// The two lists.
        detail: String,
    },
    /// An SPRT asked of a puzzle, which has steps, not results.
    #[error(
        "--sprt tests game results; {0} compares steps per layout (sign and Wilcoxon tests): leave --sprt out"
    )]
    SprtOfSteps(&'static str),
    /// `--fail-on-regression` asked of a comparison that cannot tell a regression
    /// ([`check_regression_test`]): why not, and what to ask instead.
    #[error("--fail-on-regression {0}")]
    NotARegressionTest(String),
    /// A games cap below what one seed takes.
    #[error(
        "--max-games {max} is fewer games than the test can use: one seed takes {per_seed} games here"
    )]
    TooFewGames {
        /// The cap.
        max: u64,
        /// Games per seed.
        per_seed: u64,
    },
    /// `--shard` with an SPRT or a games cap.
    #[error(
        "--shard plays a fixed block of the seeds: give --seeds, not --sprt or --max-games (an SPRT stops at a verdict, which one shard cannot reach)"
    )]
    ShardOfSprt,
    /// Parts that do not merge.
    #[error(transparent)]
    Merge(#[from] MergeError),
    /// A part that cannot be read.
    #[error(transparent)]
    Part(#[from] PartError),
    /// A suite failed.
    #[error(transparent)]
    Suite(#[from] SuiteError),
    /// The statistics refused their input.
    #[error(transparent)]
    Stats(#[from] StatsError),
    /// Cancelled.
    #[error("comparison cancelled")]
    Cancelled,
}

impl From<LoadError> for CompareError {
    fn from(error: LoadError) -> CompareError {
        match error {
            LoadError::Project(error) => CompareError::Project(error),
            LoadError::Folder(error) => CompareError::Script(error),
        }
    }
}

/// How a comparison was played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// A against B.
    HeadToHead,
    /// A and B against the same opponents.
    Gauntlet,
    /// A and B on the same puzzles.
    Steps,
}

/// Why the games ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stop {
    /// The SPRT reached its verdict.
    Verdict,
    /// The games cap was reached.
    MaxGames,
    /// Every seed was played.
    Seeds,
}

/// A comparison's result; see the module docs for its JSON.
#[derive(Debug, Clone, Serialize)]
pub struct CompareReport {
    /// Game name.
    pub game: String,
    /// A, as named.
    pub a: String,
    /// B, as named.
    pub b: String,
    /// The commit A was built from, for a revision.
    pub a_commit: Option<String>,
    /// The commit B was built from, for a revision.
    pub b_commit: Option<String>,
    /// Gauntlet: the opponents; steps: the boards; head to head: none.
    pub opponents: Vec<String>,
    /// The seeds played.
    pub seeds: String,
    /// Games played, both sides.
    pub games: u64,
    /// The figures of the mode.
    pub figures: Figures,
    /// The SPRT, when one was asked for.
    pub sprt: Option<SprtResult>,
    /// fishtest's bias-corrected Elo estimate, once the SPRT stopped at a verdict.
    pub sprt_estimate: Option<SprtEstimate>,
    /// Why the games ended.
    pub stopped: Stop,
    /// Whether A is worse than B, for a comparison that tests it ([`CompareReport::regression`]).
    pub regression: Option<bool>,
}

/// The p-value below which a puzzle's sign test calls a difference in steps real: the usual 5 %.
pub const STEPS_SIGNIFICANCE: f64 = 0.05;

/// Whether a comparison of `game` with `sprt` can tell a regression, as `--fail-on-regression`
/// needs: a non-regression SPRT (`elo0 < elo1 ≤ 0`, fishtest's test of a change that must not
/// lose strength: H0 accepted means A is `elo0` or worse than B), or a puzzle's steps (no SPRT:
/// the sign test says whether A takes more steps). A test for a gain (`elo1` above 0) or no
/// test at all cannot: its error says what to ask for instead.
pub fn check_regression_test(game: GameKind, sprt: Option<&Sprt>) -> Result<(), CompareError> {
    let why = match sprt {
        _ if game.is_puzzle() => return Ok(()),
        Some(sprt) if sprt.elo1() <= 0.0 => return Ok(()),
        Some(sprt) => format!(
            "needs a non-regression test, elo1 at most 0 (H0 accepted then means A is worse than B); elo1 is {}: for example `--sprt elo0=-10 elo1=0`",
            sprt.elo1()
        ),
        None => {
            "needs --sprt with a non-regression test's bounds, for example `--sprt elo0=-10 elo1=0`"
                .to_owned()
        }
    };
    Err(CompareError::NotARegressionTest(why))
}

/// The figures of a comparison, by mode.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "mode", rename_all = "snake_case")]
pub enum Figures {
    /// A against B.
    HeadToHead {
        /// A's wins, losses and draws against B.
        score: Trinomial,
        /// The pairs by A's points.
        pentanomial: Pentanomial,
        /// A's Elo over B (from the pairs).
        elo: EloEstimate,
        /// A's normalized Elo over B (from the pairs).
        normalized_elo: NormalizedElo,
        /// The likelihood that A is the stronger.
        los: Los,
    },
    /// A and B against the same opponents.
    Gauntlet {
        /// Each side's scores per opponent, A first.
        sides: Vec<SideScores>,
        /// Units (opponent, seed) by A's pair points minus B's.
        differences: Differences,
        /// A's Elo over B (from the differences).
        elo: EloEstimate,
        /// A's normalized Elo over B (from the differences).
        normalized_elo: NormalizedElo,
        /// The likelihood that A is the stronger.
        los: Los,
    },
    /// A and B on the same puzzles.
    Steps {
        /// Units (board, seed) compared.
        layouts: u64,
        /// A's figures.
        a: StepsSide,
        /// B's figures.
        b: StepsSide,
        /// The sign test of A's steps minus B's.
        sign_test: SignTest,
        /// The Wilcoxon signed-rank test of A's steps minus B's.
        wilcoxon: Wilcoxon,
    },
}

impl Figures {
    /// The Elo estimate, when the mode has one.
    pub fn elo(&self) -> Option<EloEstimate> {
        match self {
            Figures::HeadToHead { elo, .. } | Figures::Gauntlet { elo, .. } => Some(*elo),
            Figures::Steps { .. } => None,
        }
    }
}

/// One side's scores in a gauntlet.
#[derive(Debug, Clone, Serialize)]
pub struct SideScores {
    /// The side, as named.
    pub name: String,
    /// Per opponent, in order.
    pub scores: Vec<OpponentScore>,
}

/// A side's wins, losses and draws against one opponent.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct OpponentScore {
    /// Index into [`CompareReport::opponents`].
    pub opponent: usize,
    /// The games.
    #[serde(flatten)]
    pub score: Trinomial,
}

/// One side's figures on puzzles.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct StepsSide {
    /// Layouts solved.
    pub solved: u64,
    /// Mean steps per layout (unsolved ones count the steps taken until the turn cap).
    pub mean_steps: f64,
}

/// Compares `a` with `b`: checks that they play one game, prepares both (A first; B on A's
/// seeds) and plays them ([`play`]). `events` hears about builds and batches.
pub fn compare(
    sandbox: &Sandbox,
    a: &Side,
    b: &Side,
    options: &CompareOptions,
    events: &(dyn Fn(Event<'_>) + Sync),
    cancel: &CancelToken,
) -> Result<CompareReport, CompareError> {
    let game_a = common_game(a, b)?;
    if options.sprt.is_some() && game_a.is_puzzle() {
        return Err(CompareError::SprtOfSteps(game_a.name()));
    }
    let (prepared_a, prepared_b) = prepare_pair(sandbox, a, b, options, events, cancel)?;
    play(&prepared_a, &prepared_b, options, events, cancel)
}

/// Builds or loads both sides as [`compare`] does (B on A's seeds), ready for [`play`] or
/// [`play_shard`].
pub fn prepare_pair(
    sandbox: &Sandbox,
    a: &Side,
    b: &Side,
    options: &CompareOptions,
    events: &(dyn Fn(Event<'_>) + Sync),
    cancel: &CancelToken,
) -> Result<(PreparedSide, PreparedSide), CompareError> {
    let run = options.run_options(common_game(a, b)?);
    let prepared_a = prepare_side(sandbox, a, &run, events, cancel)?;
    let run = RunOptions { seeds: Some(prepared_a.suite.seeds), ..run };
    let prepared_b = prepare_side(sandbox, b, &run, events, cancel)?;
    Ok((prepared_a, prepared_b))
}

/// The game `a` and `b` both play, known before anything is built; two games are an error.
pub fn common_game(a: &Side, b: &Side) -> Result<GameKind, CompareError> {
    let (game_a, game_b) = (a.game()?, b.game()?);
    if game_a != game_b {
        return Err(CompareError::DifferentGames {
            a: a.label.clone(),
            game_a,
            b: b.label.clone(),
            game_b,
        });
    }
    Ok(game_a)
}

/// Builds or loads one side with `options`; a revision is checked out, built (a Cargo project in
/// its project's shared revisions target directory) and loaded, and its checkout removed.
pub fn prepare_side(
    sandbox: &Sandbox,
    side: &Side,
    options: &RunOptions,
    events: &(dyn Fn(Event<'_>) + Sync),
    cancel: &CancelToken,
) -> Result<PreparedSide, CompareError> {
    let label = side.label.clone();
    let progress = |stage| events(Event::Preparing { side: &side.label, stage });
    match &side.kind {
        SideKind::Target(target) => {
            let prepared = pipeline::prepare(sandbox, target, options, &progress, cancel)
                .map_err(|error| CompareError::Run { label: label.clone(), error })?;
            Ok(PreparedSide { label, suite: prepared.suite, commit: None })
        }
        SideKind::Revision { project, rev } => {
            let checkout = Checkout::new(project, rev)?;
            // The revision's own files say what it is, whatever the working tree holds now.
            let target = Target::of_dir(&checkout.project);
            // A Cargo build of a revision shares a target directory with the project's other
            // revisions (other toolchains cache their builds themselves).
            let root = project.canonicalize().unwrap_or_else(|_| project.clone());
            let target_dir = Some(revision::target_dir(&root));
            let options = RunOptions { cargo_target_dir: target_dir, ..options.clone() };
            let prepared = pipeline::prepare(sandbox, &target, &options, &progress, cancel)
                .map_err(|error| match error {
                    RunError::Cancelled => CompareError::Cancelled,
                    error => CompareError::RevisionBuild {
                        label: label.clone(),
                        commit: checkout.short().to_owned(),
                        error,
                    },
                })?;
            Ok(PreparedSide { label, suite: prepared.suite, commit: Some(checkout.commit.clone()) })
        }
    }
}

/// The game of two prepared sides, when they are two different bots of one game.
pub fn check_pair(a: &PreparedSide, b: &PreparedSide) -> Result<GameKind, CompareError> {
    let game = a.suite.game;
    if b.suite.game != game {
        return Err(CompareError::DifferentGames {
            a: a.label.clone(),
            game_a: game,
            b: b.label.clone(),
            game_b: b.suite.game,
        });
    }
    if let Some(what) = same_bot(&a.suite.bot, &b.suite.bot) {
        return Err(CompareError::Identical { a: a.label.clone(), b: b.label.clone(), what });
    }
    Ok(game)
}

/// What A and B both are, when they are the same bot.
fn same_bot(a: &Contender, b: &Contender) -> Option<String> {
    match (a, b) {
        (Contender::Reference(x), Contender::Reference(y)) if x == y => {
            Some(format!("the reference player `{x}`"))
        }
        // A JavaScript bot is the runner's module and its source, the payload.
        (Contender::Wasm(x), Contender::Wasm(y))
            if x.module.sha256() == y.module.sha256()
                && x.module.payload() == y.module.payload() =>
        {
            let sha = x.module.sha256();
            Some(format!("one module, sha256 {}…", &sha[..sha.len().min(16)]))
        }
        _ => None,
    }
}

/// Plays the comparison of two prepared sides (both sides' suites must have the same game and,
/// for a gauntlet or puzzles, the same opponents, as [`compare`] prepares them): batch after
/// batch of seeds, until the SPRT's verdict, the games cap or the last seed. One shard of it
/// is [`play_shard`]'s.
pub fn play(
    a: &PreparedSide,
    b: &PreparedSide,
    options: &CompareOptions,
    events: &(dyn Fn(Event<'_>) + Sync),
    cancel: &CancelToken,
) -> Result<CompareReport, CompareError> {
    let plan = Plan::new(a, b, options)?;
    let played = plan.play(a, b, options, events, cancel)?;
    let run = RunId::of(&plan, a, b);
    let test = options.sprt.as_ref();
    plan.report(&run, played.tally, played.seeds, test.zip(played.sprt), played.stopped)
}

/// Plays shard `shard` of the comparison (a block of its seeds, as `botlens run --shard` plays
/// a block of a suite's; no SPRT, no games cap) and returns its part, for [`merge`].
pub fn play_shard(
    a: &PreparedSide,
    b: &PreparedSide,
    options: &CompareOptions,
    shard: Shard,
    events: &(dyn Fn(Event<'_>) + Sync),
    cancel: &CancelToken,
) -> Result<Part<ComparePart>, CompareError> {
    if options.sprt.is_some() || options.max_games.is_some() {
        return Err(CompareError::ShardOfSprt);
    }
    let plan = Plan::new(a, b, options)?;
    let (offset, seeds) = shard.block(plan.base);
    let plan = Plan { offset, seed_count: seeds, ..plan };
    let played = plan.play(a, b, options, events, cancel)?;
    let run = RunId::of(&plan, a, b);
    Ok(Part::of(shard, ComparePart { run, seeds_played: played.seeds, tally: played.tally }))
}

/// Merges the parts of one comparison played in shards ([`play_shard`]), each named (for
/// errors) as the caller names it, into the report the comparison played whole makes.
pub fn merge(parts: Vec<(String, Part<ComparePart>)>) -> Result<CompareReport, CompareError> {
    shard::check_parts(&parts)?;
    let (first, part) = &parts[0];
    let mut merged = Merged::of(first, part.contents.run.clone(), Stop::Seeds)?;
    for (name, part) in parts {
        merged.absorb(&name, part.contents)?;
    }
    merged.report(None)
}

/// The seeds a comparison uses at most (an SPRT's: as many as its games cap allows) and the
/// games one of them takes: what dividing it into shards needs.
#[derive(Debug, Clone)]
pub struct Planned {
    /// The seeds.
    pub seeds: SeedRange,
    /// Games per seed.
    pub per_seed: u64,
    /// The comparison, as its shards' parts name it when they play `seeds`.
    run: RunId,
    /// Why it ends when the seeds run out.
    stopped: Stop,
}

/// What the comparison of `a` and `b` with `options` plays at most ([`Planned`]).
pub fn planned(
    a: &PreparedSide,
    b: &PreparedSide,
    options: &CompareOptions,
) -> Result<Planned, CompareError> {
    let plan = Plan::new(a, b, options)?;
    let first = plan.base.first();
    let seeds = SeedRange::new(first, first + plan.seed_count.max(1) - 1)
        .ok_or(CompareError::TooFewGames { max: plan.seed_count, per_seed: plan.per_seed })?;
    let run = RunId { seeds, ..RunId::of(&plan, a, b) };
    Ok(Planned { seeds, per_seed: plan.per_seed, run, stopped: plan.stopped })
}

/// A comparison merged part by part: all of them ([`merge`]), or an SPRT's shards from the
/// first on as they finish, the test looked at after each (`--slurm`).
#[derive(Debug)]
pub struct Merged {
    expected: Part<ComparePart>,
    plan: Plan,
    tally: Accumulated,
    seeds: u64,
    stopped: Stop,
}

impl Merged {
    /// Nothing merged yet of the comparison `planned`, in `shards` shards.
    pub fn new(planned: &Planned, shards: u64) -> Result<Merged, CompareError> {
        let mut merged = Merged::of("this comparison", planned.run.clone(), planned.stopped)?;
        merged.expected.shard.count = shards;
        Ok(merged)
    }

    fn of(name: &str, run: RunId, stopped: Stop) -> Result<Merged, CompareError> {
        let plan = Plan::of_run(&run)
            .map_err(|misfit| MergeError::Misfit { part: name.to_owned(), misfit })?;
        let tally = Accumulated::new(run.mode, run.opponents.len());
        let empty = Accumulated::new(run.mode, run.opponents.len());
        let contents = ComparePart { run, seeds_played: 0, tally: empty };
        let expected = Part::of(Shard { index: 0, count: 1 }, contents);
        Ok(Merged { expected, plan, tally, seeds: 0, stopped })
    }

    /// Merges `part` (named `name` in errors), which must be shard `index` of this comparison:
    /// played by this botlens with the same sides, modules, opponents, seeds and limits.
    pub fn add(
        &mut self,
        name: &str,
        part: Part<ComparePart>,
        index: u64,
    ) -> Result<(), CompareError> {
        let shard = shard::check_against(name, &part, "this comparison", &self.expected)?;
        if shard.index != index {
            let field = "shard indices";
            let first = "this comparison".to_owned();
            return Err(MergeError::Differ { first, part: name.to_owned(), field }.into());
        }
        self.absorb(name, part.contents)
    }

    fn absorb(&mut self, name: &str, part: ComparePart) -> Result<(), CompareError> {
        self.seeds += part.seeds_played;
        self.tally
            .merge(part.tally)
            .map_err(|misfit| MergeError::Misfit { part: name.to_owned(), misfit }.into())
    }

    /// Games merged.
    pub fn games(&self) -> u64 {
        self.seeds * self.plan.per_seed
    }

    /// The SPRT `sprt` on what is merged; `None` for steps.
    pub fn sprt(&self, sprt: &Sprt) -> Option<SprtResult> {
        self.tally.sprt(sprt)
    }

    /// The comparison of what is merged, with the SPRT asked for and its result, if any.
    pub fn report(self, sprt: Option<(&Sprt, SprtResult)>) -> Result<CompareReport, CompareError> {
        let decided = sprt.is_some_and(|(_, result)| result.verdict != Verdict::Continue);
        let stopped = if decided { Stop::Verdict } else { self.stopped };
        let run = &self.expected.contents.run;
        self.plan.report(run, self.tally, self.seeds, sprt, stopped)
    }
}

/// What a comparison plays: its mode, its opponents, the games per seed, the seeds (from
/// `offset` in `base`, `seed_count` of them) and why it ends when they run out.
#[derive(Debug, Clone)]
struct Plan {
    game: GameKind,
    mode: Mode,
    opponents: Vec<String>,
    per_seed: u64,
    base: SeedRange,
    offset: u64,
    seed_count: u64,
    stopped: Stop,
}

/// What a plan's games gave.
struct PlayedPlan {
    tally: Accumulated,
    seeds: u64,
    sprt: Option<SprtResult>,
    stopped: Stop,
}

impl Plan {
    fn new(
        a: &PreparedSide,
        b: &PreparedSide,
        options: &CompareOptions,
    ) -> Result<Plan, CompareError> {
        let game = check_pair(a, b)?;
        let mode = if game.is_puzzle() {
            Mode::Steps
        } else if options.opponents.is_some() {
            Mode::Gauntlet
        } else {
            Mode::HeadToHead
        };
        if mode == Mode::Steps && options.sprt.is_some() {
            return Err(CompareError::SprtOfSteps(game.name()));
        }
        let names = |side: &PreparedSide| -> Vec<String> {
            side.suite.opponents.iter().map(|o| o.name().to_owned()).collect()
        };
        let opponents = if mode == Mode::HeadToHead { Vec::new() } else { names(a) };
        if mode != Mode::HeadToHead && names(b) != opponents {
            return Err(CompareError::DifferentOpponents {
                a: a.label.clone(),
                b: b.label.clone(),
                detail: format!("{} against {}", opponents.join(", "), names(b).join(", ")),
            });
        }
        let per_seed = per_seed(mode, opponents.len());
        let max_games = options.max_games.or(options.sprt.map(|_| DEFAULT_SPRT_MAX_GAMES));
        if let Some(max) = max_games.filter(|&max| max < per_seed) {
            return Err(CompareError::TooFewGames { max, per_seed });
        }
        let base = options.seeds.unwrap_or(a.suite.seeds);
        let available = match (options.sprt, options.seeds) {
            (Some(_), None) => u64::MAX,
            _ => base.len(),
        };
        let capped = max_games.map_or(u64::MAX, |max| max / per_seed);
        let stopped = if capped < available { Stop::MaxGames } else { Stop::Seeds };
        let seed_count = available.min(capped);
        Ok(Plan { game, mode, opponents, per_seed, base, offset: 0, seed_count, stopped })
    }

    /// The plan of a comparison as its part describes it, every seed played.
    fn of_run(run: &RunId) -> Result<Plan, Misfit> {
        let game = GameKind::from_name(&run.game)
            .filter(|game| game.is_puzzle() == (run.mode == Mode::Steps))
            .ok_or_else(|| Misfit::new("its game is not one this botlens compares so"))?;
        Ok(Plan {
            game,
            mode: run.mode,
            opponents: run.opponents.iter().map(|player| player.name.clone()).collect(),
            per_seed: per_seed(run.mode, run.opponents.len()),
            base: run.seeds,
            offset: 0,
            seed_count: run.seeds.len(),
            stopped: Stop::Seeds,
        })
    }

    fn play(
        &self,
        a: &PreparedSide,
        b: &PreparedSide,
        options: &CompareOptions,
        events: &(dyn Fn(Event<'_>) + Sync),
        cancel: &CancelToken,
    ) -> Result<PlayedPlan, CompareError> {
        let batch = (BATCH_GAMES / self.per_seed).max(1);
        let mut tally = Accumulated::new(self.mode, self.opponents.len());
        let mut played = 0u64;
        let mut sprt = None;
        let mut stopped = self.stopped;
        while played < self.seed_count {
            let count = batch.min(self.seed_count - played);
            let first = self.base.first() + self.offset + played;
            let seeds = SeedRange::new(first, first + count - 1).expect("a batch is a short range");
            tally.play(a, b, seeds, options.jobs, cancel)?;
            played += count;
            sprt = options.sprt.and_then(|test| tally.sprt(&test));
            let games = played * self.per_seed;
            events(Event::Batch { games, elo: tally.elo(), sprt });
            if sprt.is_some_and(|r| r.verdict != Verdict::Continue) {
                stopped = Stop::Verdict;
                break;
            }
        }
        Ok(PlayedPlan { tally, seeds: played, sprt, stopped })
    }

    /// The report of `seeds` seeds played from the first of the plan's, which `tally` added up,
    /// and of the SPRT asked for with its result, if one was.
    fn report(
        &self,
        run: &RunId,
        tally: Accumulated,
        seeds: u64,
        sprt: Option<(&Sprt, SprtResult)>,
        stopped: Stop,
    ) -> Result<CompareReport, CompareError> {
        let sprt_estimate = match sprt {
            Some((test, result)) if result.verdict != Verdict::Continue => tally.estimate(test),
            _ => None,
        };
        let sprt = sprt.map(|(_, result)| result);
        let first = self.base.first() + self.offset;
        let last = first + seeds.max(1) - 1;
        let figures = tally.figures(&run.a.label, &run.b.label)?;
        let regression = CompareReport::regression(&figures, sprt.as_ref());
        Ok(CompareReport {
            game: self.game.name().to_owned(),
            a: run.a.label.clone(),
            b: run.b.label.clone(),
            a_commit: run.a.commit.clone(),
            b_commit: run.b.commit.clone(),
            seeds: SeedRange::new(first, last).expect("at least one seed").to_string(),
            games: seeds * self.per_seed,
            figures,
            opponents: self.opponents.clone(),
            sprt,
            sprt_estimate,
            stopped,
            regression,
        })
    }
}

/// Games per seed of a comparison in `mode` with `opponents` opponents (boards).
fn per_seed(mode: Mode, opponents: usize) -> u64 {
    match mode {
        Mode::HeadToHead => 2,
        Mode::Gauntlet => 4 * opponents as u64,
        Mode::Steps => 2 * opponents as u64,
    }
}

/// One side of a comparison as a part names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideId {
    /// As named on the command line.
    pub label: String,
    /// For a revision, the commit built.
    pub commit: Option<String>,
    /// Its bot.
    pub bot: Player,
    /// The limits its games were played under.
    pub limits: Limits,
}

impl SideId {
    /// The side `side` is.
    pub fn of(side: &PreparedSide) -> SideId {
        let suite = &side.suite;
        SideId {
            label: side.label.clone(),
            commit: side.commit.clone(),
            bot: Player::of(&suite.bot),
            limits: Limits { engine: suite.limits, sandbox: suite.sandbox_limits },
        }
    }
}

/// Which comparison a part is of: what must be the same in every part merged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunId {
    /// The game's name.
    pub game: String,
    /// How it is played.
    pub mode: Mode,
    /// A.
    pub a: SideId,
    /// B.
    pub b: SideId,
    /// Gauntlet: the opponents; steps: the boards; head to head: none.
    pub opponents: Vec<Player>,
    /// All the comparison's seeds (the shards' together).
    pub seeds: SeedRange,
}

impl RunId {
    fn of(plan: &Plan, a: &PreparedSide, b: &PreparedSide) -> RunId {
        let opponents = match plan.mode {
            Mode::HeadToHead => Vec::new(),
            _ => a.suite.opponents.iter().map(Player::of).collect(),
        };
        RunId {
            game: plan.game.name().to_owned(),
            mode: plan.mode,
            a: SideId::of(a),
            b: SideId::of(b),
            opponents,
            seeds: plan.base,
        }
    }
}

/// A part of `botlens compare`: which comparison, how many seeds its shard played, and what
/// they added up to.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ComparePart {
    /// Which comparison.
    pub run: RunId,
    /// The seeds the shard played.
    pub seeds_played: u64,
    /// What they added up to, by mode.
    tally: Accumulated,
}

impl ComparePart {
    /// A head-to-head comparison's figures: A's wins, losses and draws against B, and the pairs
    /// by A's points; `None` for a gauntlet or steps.
    pub fn head_to_head(&self) -> Option<(Trinomial, Pentanomial)> {
        match self.tally {
            Accumulated::HeadToHead { score, pairs } => Some((score, pairs)),
            _ => None,
        }
    }
}

impl Contents for ComparePart {
    const KIND: &'static str = "compare";

    fn differs_from(&self, other: &ComparePart) -> Option<&'static str> {
        let (mine, theirs) = (&self.run, &other.run);
        [
            ("game", mine.game == theirs.game && mine.mode == theirs.mode),
            ("A", mine.a == theirs.a),
            ("B", mine.b == theirs.b),
            ("opponents", mine.opponents == theirs.opponents),
            ("seeds", mine.seeds == theirs.seeds),
        ]
        .into_iter()
        .find_map(|(field, same)| (!same).then_some(field))
    }

    fn check(&self) -> Result<(), Misfit> {
        self.tally.check(self.run.mode, self.run.opponents.len(), self.seeds_played)
    }
}

/// What the batches add up to, by mode; a part's `tally` (`{"mode": …}` and its figures).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "mode", rename_all = "snake_case")]
enum Accumulated {
    HeadToHead { score: Trinomial, pairs: Pentanomial },
    Gauntlet { units: Differences, sides: [Vec<Trinomial>; 2] },
    Steps { differences: Vec<f64>, solved: [u64; 2], steps: [u64; 2] },
}

/// Every game of one batch of one side, by position: the bot's result and moves.
type Played = BTreeMap<Position, (SeatResult, u32)>;

impl Accumulated {
    fn new(mode: Mode, opponents: usize) -> Accumulated {
        match mode {
            Mode::HeadToHead => Accumulated::HeadToHead {
                score: Trinomial::default(),
                pairs: Pentanomial::default(),
            },
            Mode::Gauntlet => Accumulated::Gauntlet {
                units: Differences::of_pairs(),
                sides: [
                    vec![Trinomial::default(); opponents],
                    vec![Trinomial::default(); opponents],
                ],
            },
            Mode::Steps => {
                Accumulated::Steps { differences: Vec::new(), solved: [0; 2], steps: [0; 2] }
            }
        }
    }

    /// Plays one batch of `seeds` and adds it up.
    fn play(
        &mut self,
        a: &PreparedSide,
        b: &PreparedSide,
        seeds: SeedRange,
        jobs: usize,
        cancel: &CancelToken,
    ) -> Result<(), CompareError> {
        match self {
            Accumulated::HeadToHead { score, pairs } => {
                let suite = Suite {
                    opponents: vec![b.suite.bot.clone()],
                    paired: true,
                    ..batch_suite(a, seeds, jobs)
                };
                let results = suite::run_suite(&suite, &|_, _| {}, cancel)?;
                if results.cancelled {
                    return Err(CompareError::Cancelled);
                }
                let row = &results.tally.opponents[0];
                let games = Trinomial::new(row.wins.into(), row.losses.into(), row.draws.into());
                *score = add_trinomials(score, &games);
                *pairs = Pentanomial::new(std::array::from_fn(|i| {
                    pairs.counts[i] + row.pairs.counts[i]
                }));
            }
            Accumulated::Gauntlet { units, sides } => {
                let played =
                    [play_side(a, seeds, jobs, cancel)?, play_side(b, seeds, jobs, cancel)?];
                for (side, games) in sides.iter_mut().zip(&played) {
                    for (&(opponent, _, _), &(result, _)) in games {
                        side[opponent].record(points(result));
                    }
                }
                for opponent in 0..sides[0].len() {
                    for seed in seeds.iter() {
                        let pair = |games: &Played| {
                            [0, 1].map(|seat: Seat| points(games[&(opponent, seed, seat)].0))
                        };
                        units.record(&pair(&played[0]), &pair(&played[1]));
                    }
                }
            }
            Accumulated::Steps { differences, solved, steps } => {
                let played =
                    [play_side(a, seeds, jobs, cancel)?, play_side(b, seeds, jobs, cancel)?];
                for (at, &(result_a, steps_a)) in &played[0] {
                    let (result_b, steps_b) = played[1][at];
                    differences.push(f64::from(steps_a) - f64::from(steps_b));
                    for (side, (result, taken)) in
                        [(result_a, steps_a), (result_b, steps_b)].into_iter().enumerate()
                    {
                        solved[side] += u64::from(result == SeatResult::Win);
                        steps[side] += u64::from(taken);
                    }
                }
            }
        }
        Ok(())
    }

    /// Adds what `other` (other seeds of the same comparison: a shard's) added up.
    fn merge(&mut self, other: Accumulated) -> Result<(), Misfit> {
        match (self, other) {
            (
                Accumulated::HeadToHead { score, pairs },
                Accumulated::HeadToHead { score: their_score, pairs: their_pairs },
            ) => {
                *score = add_trinomials(score, &their_score);
                *pairs = Pentanomial::new(std::array::from_fn(|i| {
                    pairs.counts[i] + their_pairs.counts[i]
                }));
            }
            (
                Accumulated::Gauntlet { units, sides },
                Accumulated::Gauntlet { units: their_units, sides: their_sides },
            ) if units.games_per_unit == their_units.games_per_unit
                && units.counts.len() == their_units.counts.len()
                && sides
                    .iter()
                    .zip(&their_sides)
                    .all(|(mine, theirs)| mine.len() == theirs.len()) =>
            {
                for (count, theirs) in units.counts.iter_mut().zip(their_units.counts) {
                    *count += theirs;
                }
                for (mine, theirs) in sides.iter_mut().zip(their_sides) {
                    for (score, their) in mine.iter_mut().zip(theirs) {
                        *score = add_trinomials(score, &their);
                    }
                }
            }
            (
                Accumulated::Steps { differences, solved, steps },
                Accumulated::Steps {
                    differences: theirs,
                    solved: their_solved,
                    steps: their_steps,
                },
            ) => {
                differences.extend(theirs);
                for side in 0..2 {
                    solved[side] += their_solved[side];
                    steps[side] += their_steps[side];
                }
            }
            _ => return Err(Misfit::new("its figures are of another kind of comparison")),
        }
        Ok(())
    }

    /// Checks figures read from a part: of `mode`, with `opponents` opponents, from `seeds`
    /// seeds.
    fn check(&self, mode: Mode, opponents: usize, seeds: u64) -> Result<(), Misfit> {
        let units = seeds * opponents.max(1) as u64;
        let fits = match self {
            Accumulated::HeadToHead { score, pairs } => {
                mode == Mode::HeadToHead && pairs.pairs() <= seeds && score.games() <= 2 * seeds
            }
            Accumulated::Gauntlet { units: differences, sides } => {
                let pairs = Differences::of_pairs();
                mode == Mode::Gauntlet
                    && differences.games_per_unit == pairs.games_per_unit
                    && differences.counts.len() == pairs.counts.len()
                    && sides.iter().all(|side| side.len() == opponents)
                    && differences.units() <= units
            }
            Accumulated::Steps { differences, .. } => {
                mode == Mode::Steps
                    && differences.len() as u64 <= units
                    && differences.iter().all(|d| d.is_finite())
            }
        };
        if fits { Ok(()) } else { Err(Misfit::new("its figures do not fit its comparison")) }
    }

    /// The SPRT of the results so far; `None` for steps, which have no results to test.
    fn sprt(&self, sprt: &Sprt) -> Option<SprtResult> {
        match self {
            Accumulated::HeadToHead { pairs, .. } => Some(sprt.test(pairs)),
            Accumulated::Gauntlet { units, .. } => Some(sprt.test(units)),
            Accumulated::Steps { .. } => None,
        }
    }

    /// fishtest's bias-corrected estimate of `sprt` on the results so far.
    fn estimate(&self, sprt: &Sprt) -> Option<SprtEstimate> {
        match self {
            Accumulated::HeadToHead { pairs, .. } => sprt.estimate(pairs),
            Accumulated::Gauntlet { units, .. } => sprt.estimate(units),
            Accumulated::Steps { .. } => None,
        }
    }

    fn elo(&self) -> EloEstimate {
        match self {
            Accumulated::HeadToHead { pairs, .. } => pairs.elo(),
            Accumulated::Gauntlet { units, .. } => units.elo(),
            Accumulated::Steps { .. } => EloEstimate::NoGames,
        }
    }

    fn figures(self, a: &str, b: &str) -> Result<Figures, CompareError> {
        Ok(match self {
            Accumulated::HeadToHead { score, pairs } => Figures::HeadToHead {
                score,
                pentanomial: pairs,
                elo: pairs.elo(),
                normalized_elo: pairs.normalized_elo(),
                los: pairs.los(),
            },
            Accumulated::Gauntlet { units, sides } => {
                let [scores_a, scores_b] = sides;
                let side = |name: &str, scores: Vec<Trinomial>| SideScores {
                    name: name.to_owned(),
                    scores: scores
                        .into_iter()
                        .enumerate()
                        .map(|(opponent, score)| OpponentScore { opponent, score })
                        .collect(),
                };
                Figures::Gauntlet {
                    sides: vec![side(a, scores_a), side(b, scores_b)],
                    elo: units.elo(),
                    normalized_elo: units.normalized_elo(),
                    los: units.los(),
                    differences: units,
                }
            }
            Accumulated::Steps { differences, solved, steps } => {
                let layouts = differences.len() as u64;
                let side = |i: usize| StepsSide {
                    solved: solved[i],
                    mean_steps: if layouts == 0 { 0.0 } else { steps[i] as f64 / layouts as f64 },
                };
                Figures::Steps {
                    layouts,
                    a: side(0),
                    b: side(1),
                    sign_test: sign_test(&differences)?,
                    wilcoxon: wilcoxon_signed_rank(&differences)?,
                }
            }
        })
    }
}

/// The sum of two trinomial tallies.
fn add_trinomials(a: &Trinomial, b: &Trinomial) -> Trinomial {
    Trinomial::new(a.wins + b.wins, a.losses + b.losses, a.draws + b.draws)
}

/// A side's suite for one batch: its own, on `seeds`, keeping no traces but failures'.
fn batch_suite(side: &PreparedSide, seeds: SeedRange, jobs: usize) -> Suite {
    Suite { seeds, jobs, keep_traces: KeepTraces::Failures, trace_dir: None, ..side.suite.clone() }
}

/// Plays one batch of a side's own suite and returns every game by position.
fn play_side(
    side: &PreparedSide,
    seeds: SeedRange,
    jobs: usize,
    cancel: &CancelToken,
) -> Result<Played, CompareError> {
    let games = Mutex::new(Played::new());
    let observe = |game: &GameResult| {
        let mut games = games.lock().unwrap_or_else(|p| p.into_inner());
        games.insert(game.position(), (game.result, game.moves));
    };
    let suite = batch_suite(side, seeds, jobs);
    let results = suite::run_suite_observed(&suite, &|_, _| {}, &observe, cancel)?;
    if results.cancelled {
        return Err(CompareError::Cancelled);
    }
    Ok(games.into_inner().unwrap_or_else(|p| p.into_inner()))
}

impl CompareReport {
    /// The comparison for a terminal. First the lines cutechess-cli prints, in its exact form
    /// (botlens-stats' `CutechessElo` and `CutechessSprt`), for the tools that read them: the
    /// score lines, the Elo line and the SPRT line; then botlens's own: the pentanomial (or the
    /// differences), the logistic and normalized Elo with their intervals, the LOS, fastchess's
    /// LLR line, the verdict and, once the SPRT stopped, fishtest's bias-corrected estimate. Names come from the user and bots;
    /// control characters are escaped.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for (label, commit) in [(&self.a, &self.a_commit), (&self.b, &self.b_commit)] {
            if let Some(commit) = commit {
                let _ = writeln!(out, "{label} is commit {}", &commit[..commit.len().min(12)]);
            }
        }
        let _ = writeln!(out, "{} games ({}), seeds {}", self.games, self.game, self.seeds);
        let cutechess_sprt = self.sprt.map(CutechessSprt);
        match &self.figures {
            Figures::HeadToHead { score, pentanomial, elo, normalized_elo, los } => {
                let _ = writeln!(out, "{}", score.score_line(&self.a, &self.b));
                let _ = writeln!(out, "{}", CutechessElo::new(*elo, *los, score.draw_ratio()));
                if let Some(line) = cutechess_sprt {
                    let _ = writeln!(out, "{line}");
                }
                let _ = writeln!(out, "{pentanomial}\n{elo}\n{normalized_elo}\n{los}");
            }
            Figures::Gauntlet { sides, differences, elo, normalized_elo, los } => {
                for side in sides {
                    for score in &side.scores {
                        let opponent = &self.opponents[score.opponent];
                        let _ = writeln!(out, "{}", score.score.score_line(&side.name, opponent));
                    }
                }
                let draws = differences.draw_ratio();
                let _ = writeln!(out, "{}", CutechessElo::new(*elo, *los, draws));
                if let Some(line) = cutechess_sprt {
                    let _ = writeln!(out, "{line}");
                }
                let _ = writeln!(
                    out,
                    "{differences}  ({} pairs minus {} pairs, per opponent and seed)",
                    self.a, self.b
                );
                let _ = writeln!(out, "{elo}\n{normalized_elo}\n{los}");
            }
            Figures::Steps { layouts, a, b, sign_test, wilcoxon } => {
                let _ = writeln!(
                    out,
                    "Steps of {} vs {} on {layouts} layouts ({} over seeds {}): {} fewer, {} more, {} equal",
                    self.a,
                    self.b,
                    self.opponents.join(", "),
                    self.seeds,
                    sign_test.negative,
                    sign_test.positive,
                    sign_test.zeros
                );
                for (name, side) in [(&self.a, a), (&self.b, b)] {
                    let _ = writeln!(
                        out,
                        "{name}: solved {}/{layouts}, mean {:.1} steps",
                        side.solved, side.mean_steps
                    );
                }
                let _ = writeln!(out, "{sign_test}");
                let _ = writeln!(out, "{wilcoxon}");
                let _ = writeln!(
                    out,
                    "(differences are {}'s steps minus {}'s: below 0, {} took fewer)",
                    self.a, self.b, self.a
                );
            }
        }
        if let Some(sprt) = &self.sprt {
            let _ = writeln!(out, "{sprt}");
            let _ = writeln!(out, "{}", self.verdict_line(sprt));
        }
        if let Some(estimate) = &self.sprt_estimate {
            let _ = writeln!(
                out,
                "{estimate} (the plain estimate above is biased: an SPRT stops early when the \
                 results run high or low)"
            );
        }
        printable_lines(&out).into_owned()
    }

    /// Whether a comparison with these `figures` and SPRT `result` found A worse than B: for a
    /// non-regression SPRT (`elo1` ≤ 0), whether it accepted H0 (no verdict is no regression
    /// found); for steps, whether the sign test is significant ([`STEPS_SIGNIFICANCE`]) with A
    /// taking more steps more often. `None` for a comparison that tests no regression
    /// ([`check_regression_test`]).
    pub fn regression(figures: &Figures, result: Option<&SprtResult>) -> Option<bool> {
        match (figures, result) {
            (Figures::Steps { sign_test, .. }, _) => Some(
                sign_test.p_value < STEPS_SIGNIFICANCE && sign_test.positive > sign_test.negative,
            ),
            (_, Some(result)) if result.elo1 <= 0.0 => Some(result.verdict == Verdict::H0Accepted),
            _ => None,
        }
    }

    /// `SPRT: H1 accepted after 400 games: …`, saying what the verdict means for A and B.
    pub fn verdict_line(&self, sprt: &SprtResult) -> String {
        let (a, b, elo0, elo1) = (&self.a, &self.b, sprt.elo0, sprt.elo1);
        let games = self.games;
        let unit = match sprt.elo_model {
            EloModel::Logistic => "Elo",
            EloModel::Normalized => "normalized Elo",
        };
        match sprt.verdict {
            Verdict::H1Accepted => format!(
                "SPRT: H1 accepted after {games} games: {a} is stronger than {b} by {elo1} {unit} rather than {elo0}"
            ),
            Verdict::H0Accepted => format!(
                "SPRT: H0 accepted after {games} games: {a} is not {elo1} {unit} stronger than {b} (rather {elo0} or less)"
            ),
            Verdict::Continue => {
                let why = match self.stopped {
                    Stop::MaxGames => "the games cap (--max-games) was reached",
                    _ => "the seeds ran out",
                };
                let elo = self.figures.elo().map_or(String::new(), |e| format!("; {e}"));
                format!("SPRT: no verdict after {games} games: {why}{elo}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(text: &str, game: &str) -> Side {
        Side::parse(text, Some(game)).unwrap()
    }

    fn run(a: &Side, b: &Side, options: &CompareOptions) -> Result<CompareReport, CompareError> {
        let sandbox = pipeline::sandbox().unwrap();
        compare(&sandbox, a, b, options, &|_| {}, &CancelToken::new())
    }

    fn seeds(text: &str) -> Option<SeedRange> {
        Some(text.parse().unwrap())
    }

    #[test]
    fn head_to_head_pairs_each_seed_and_reads_as_cutechess_does() {
        let options = CompareOptions { seeds: seeds("0..30"), ..CompareOptions::default() };
        let report =
            run(&side("perfect", "tictactoe"), &side("random", "tictactoe"), &options).unwrap();
        let Figures::HeadToHead { score, pentanomial, elo, los, .. } = &report.figures else {
            panic!("{:?}", report.figures)
        };
        assert_eq!((report.games, score.games(), pentanomial.pairs()), (60, 60, 30));
        assert_eq!(score.losses, 0, "perfect never loses");
        assert_eq!(*elo, pentanomial.elo());
        assert_eq!(*los, pentanomial.los());
        assert_eq!(report.stopped, Stop::Seeds);
        let text = report.render();
        assert!(text.contains(&score.score_line("perfect", "random").to_string()), "{text}");
        assert!(text.contains("Ptnml(0-2): ["), "{text}");
        // B against A is the mirror image.
        let mirror =
            run(&side("random", "tictactoe"), &side("perfect", "tictactoe"), &options).unwrap();
        let Figures::HeadToHead { score: back, pentanomial: pairs, .. } = mirror.figures else {
            panic!()
        };
        assert_eq!(back, score.swapped());
        assert_eq!(pairs, pentanomial.swapped());
    }

    #[test]
    fn a_gauntlet_compares_unit_by_unit_and_stops_at_the_sprt_verdict() {
        let options = CompareOptions {
            opponents: Some(vec!["random".into()]),
            sprt: Some(Sprt::logistic(0.0, 50.0).unwrap()),
            jobs: 2,
            ..CompareOptions::default()
        };
        let (a, b) = (side("hunter", "battleships"), side("random", "battleships"));
        let report = run(&a, &b, &options).unwrap();
        let sprt = report.sprt.expect("an SPRT");
        assert_eq!((sprt.verdict, report.stopped), (Verdict::H1Accepted, Stop::Verdict));
        assert_eq!(report.games % BATCH_GAMES, 0, "stopped after a whole batch");
        let Figures::Gauntlet { differences, sides, .. } = &report.figures else { panic!() };
        assert_eq!(differences.games() * 2, report.games, "both sides' games are units");
        assert_eq!(sides[0].scores[0].score.games() * 2, report.games);
        let text = report.render();
        assert!(text.contains("SPRT: H1 accepted after"), "{text}");
        assert!(text.contains(&format!("{}\n", CutechessSprt(sprt))), "{text}");
        let estimate = report.sprt_estimate.expect("a bias-corrected estimate after the verdict");
        assert!(text.contains(&format!("{estimate} (the plain estimate above is biased")));
        // The same figures with one thread.
        let one = run(&a, &b, &CompareOptions { jobs: 1, ..options }).unwrap();
        assert_eq!(serde_json::to_value(&one).unwrap(), serde_json::to_value(&report).unwrap());
    }

    /// A head-to-head report of 500 pairs, `[10, 90, 200, 150, 50]`, with an SPRT between 0 and
    /// 10 Elo that accepted H1.
    fn finished_report() -> CompareReport {
        let pairs = Pentanomial::new([10, 90, 200, 150, 50]);
        let sprt = Sprt::logistic(0.0, 10.0).unwrap();
        CompareReport {
            game: "tictactoe".into(),
            a: "new".into(),
            b: "old".into(),
            a_commit: None,
            b_commit: None,
            opponents: Vec::new(),
            seeds: "0..=499".into(),
            games: 1000,
            figures: Figures::HeadToHead {
                score: Trinomial::new(420, 280, 300),
                pentanomial: pairs,
                elo: pairs.elo(),
                normalized_elo: pairs.normalized_elo(),
                los: pairs.los(),
            },
            sprt: Some(sprt.test(&pairs)),
            sprt_estimate: sprt.estimate(&pairs),
            stopped: Stop::Verdict,
            regression: None,
        }
    }

    #[test]
    fn the_report_prints_cutechess_lines_first_then_its_own() {
        // fishtest's figures of these pairs: Elo 48.96 ± 14.59, LOS 0.99999999999, nElo
        // 73.26 ± 21.91, LLR 7.809 (logistic, 0 to 10), bias-corrected 47.24 (22.86 to 72.02).
        assert_eq!(
            finished_report().render(),
            "1000 games (tictactoe), seeds 0..=499\n\
             Score of new vs old: 420 - 280 - 300  [0.570] 1000\n\
             Elo difference: 49.0 +/- 14.6, LOS: 100.0 %, DrawRatio: 30.0 %\n\
             SPRT: llr 7.81 (265.2%), lbound -2.94, ubound 2.94 - H1 was accepted\n\
             Ptnml(0-2): [10, 90, 200, 150, 50]\n\
             Elo difference: 49.0 ± 14.6 (95%)\n\
             nElo: 73.3 ± 21.9 (95%)\n\
             LOS: 100.0 %\n\
             LLR: 7.81 (-2.94, 2.94) [0.00, 10.00]\n\
             SPRT: H1 accepted after 1000 games: new is stronger than old by 10 Elo rather than 0\n\
             Elo (bias-corrected as fishtest does): 47.2 (95%: 22.9 to 72.0), LOS: 100.0 % (the \
             plain estimate above is biased: an SPRT stops early when the results run high or \
             low)\n"
        );
    }

    #[test]
    fn too_few_games_print_no_figures_and_cutechess_nan() {
        let pairs = Pentanomial::new([0, 0, 0, 1, 0]);
        let report = CompareReport {
            games: 2,
            seeds: "0..=0".into(),
            figures: Figures::HeadToHead {
                score: Trinomial::new(1, 0, 1),
                pentanomial: pairs,
                elo: pairs.elo(),
                normalized_elo: pairs.normalized_elo(),
                los: pairs.los(),
            },
            sprt: None,
            sprt_estimate: None,
            stopped: Stop::Seeds,
            ..finished_report()
        };
        assert_eq!(
            report.render(),
            "2 games (tictactoe), seeds 0..=0\n\
             Score of new vs old: 1 - 0 - 1  [0.750] 2\n\
             Elo difference: nan +/- nan, LOS: nan %, DrawRatio: 50.0 %\n\
             Ptnml(0-2): [0, 0, 0, 1, 0]\n\
             Elo difference: none (too few games: 2, at least 40 needed)\n\
             nElo: none (too few games: 2, at least 40 needed)\n\
             LOS: none (too few games)\n"
        );
    }

    #[test]
    fn a_regression_is_h0_of_a_non_regression_sprt_or_more_steps() {
        let game = GameKind::TicTacToe;
        let gain = Sprt::logistic(0.0, 10.0).unwrap();
        let no_loss = Sprt::logistic(-10.0, 0.0).unwrap();
        assert!(check_regression_test(game, Some(&no_loss)).is_ok());
        assert!(check_regression_test(GameKind::Klotski, None).is_ok());
        assert_eq!(
            check_regression_test(game, Some(&gain)).unwrap_err().to_string(),
            "--fail-on-regression needs a non-regression test, elo1 at most 0 (H0 accepted then \
             means A is worse than B); elo1 is 10: for example `--sprt elo0=-10 elo1=0`"
        );
        assert_eq!(
            check_regression_test(game, None).unwrap_err().to_string(),
            "--fail-on-regression needs --sprt with a non-regression test's bounds, for example \
             `--sprt elo0=-10 elo1=0`"
        );

        let figures = finished_report().figures;
        let worse = Pentanomial::new([50, 150, 200, 90, 10]);
        assert_eq!(CompareReport::regression(&figures, Some(&no_loss.test(&worse))), Some(true));
        let better = Pentanomial::new([10, 90, 200, 150, 50]);
        assert_eq!(CompareReport::regression(&figures, Some(&no_loss.test(&better))), Some(false));
        let undecided = no_loss.test(&Pentanomial::new([0, 1, 2, 1, 0]));
        assert_eq!(undecided.verdict, Verdict::Continue);
        assert_eq!(CompareReport::regression(&figures, Some(&undecided)), Some(false));
        assert_eq!(CompareReport::regression(&figures, Some(&gain.test(&worse))), None);
        assert_eq!(CompareReport::regression(&figures, None), None);

        let steps = |differences: &[f64]| Figures::Steps {
            layouts: differences.len() as u64,
            a: StepsSide { solved: 0, mean_steps: 0.0 },
            b: StepsSide { solved: 0, mean_steps: 0.0 },
            sign_test: sign_test(differences).unwrap(),
            wilcoxon: wilcoxon_signed_rank(differences).unwrap(),
        };
        // A took more steps on 10 layouts of 10: p = 2/1024.
        assert_eq!(CompareReport::regression(&steps(&[3.0; 10]), None), Some(true));
        assert_eq!(CompareReport::regression(&steps(&[-3.0; 10]), None), Some(false));
        assert_eq!(CompareReport::regression(&steps(&[3.0, 3.0, -1.0]), None), Some(false));
    }

    #[test]
    fn normalized_bounds_say_so_in_the_verdict() {
        let pairs = Pentanomial::new([10, 90, 200, 150, 50]);
        let sprt = Sprt::normalized(0.0, 10.0).unwrap().test(&pairs);
        let report = CompareReport { sprt: Some(sprt), ..finished_report() };
        assert_eq!(
            report.verdict_line(&sprt),
            "SPRT: H1 accepted after 1000 games: new is stronger than old by 10 normalized Elo \
             rather than 0"
        );
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["sprt"]["elo_model"], "normalized");
        assert_eq!(json["figures"]["normalized_elo"]["kind"], "estimate");
        assert!(json["sprt_estimate"]["elo"].as_f64().unwrap() > 40.0);
    }

    #[test]
    fn sprt_specs_take_any_subset_and_refuse_dirt() {
        let spec = |text: &str| {
            let items = text.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
            parse_sprt(&items, EloModel::Logistic)
        };
        let all = spec("elo0=-5 elo1=5 alpha=0.01 beta=0.1").unwrap();
        assert_eq!((all.elo0(), all.elo1(), all.alpha(), all.beta()), (-5.0, 5.0, 0.01, 0.1));
        let defaults = spec("").unwrap();
        assert_eq!((defaults.elo0(), defaults.elo1(), defaults.alpha()), (0.0, 10.0, 0.05));
        assert_eq!(spec("elo1=20,beta=0.2").unwrap().beta(), 0.2);
        for (dirty, says) in [
            ("elo0", "expected KEY=VALUE"),
            ("elo2=3", "unknown key `elo2`"),
            ("elo1=ten", "`ten` is not a number"),
            ("elo1=inf", "`inf` is not a number"),
            ("elo1=5 elo1=6", "`elo1` is given twice"),
            ("elo0=10 elo1=0", "with elo0 below elo1"),
            ("elo0=3 elo1=3", "with elo0 below elo1"),
            ("alpha=0.7 beta=0.5", "together below 1"),
        ] {
            let error = spec(dirty).unwrap_err();
            assert!(error.contains(says), "{dirty}: {error}");
        }
    }

    #[test]
    fn bad_comparisons_are_refused_before_playing() {
        let options = CompareOptions::default();
        let identical =
            run(&side("hunter", "battleships"), &side("hunter", "battleships"), &options)
                .unwrap_err();
        assert_eq!(
            identical.to_string(),
            "hunter and hunter are the same bot (the reference player `hunter`): a bot compared with itself says nothing"
        );
        let games = run(&side("hunter", "battleships"), &side("perfect", "tictactoe"), &options)
            .unwrap_err();
        assert!(matches!(games, CompareError::DifferentGames { .. }), "{games}");
        let few = CompareOptions { max_games: Some(1), ..options.clone() };
        let error =
            run(&side("hunter", "battleships"), &side("random", "battleships"), &few).unwrap_err();
        assert!(error.to_string().contains("fewer games than the test can use"), "{error}");
        let sprt =
            CompareOptions { sprt: Some(Sprt::logistic(0.0, 5.0).unwrap()), ..options.clone() };
        let steps =
            run(&side("optimal", "klotski"), &side("optimal", "klotski"), &sprt).unwrap_err();
        assert!(matches!(steps, CompareError::SprtOfSteps("klotski")), "{steps}");
        let unknown = run(&side("nobody", "battleships"), &side("random", "battleships"), &options)
            .unwrap_err();
        assert!(unknown.to_string().contains("no reference player `nobody`"), "{unknown}");
    }
}
