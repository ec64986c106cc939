//! What `botlens analyze` costs against `botlens run`: for each game, a sample whose mistakes
//! its oracle judges, its suite played once as `run` plays it and once as `analyze` does (every
//! move's stack captured, every move judged), on one worker, each figure its best round.

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Context;
use botlens_harness::analyze::analyze_suite;
use botlens_harness::pipeline::{self, RunOptions};
use botlens_harness::{CancelToken, SeedRange, Target, run_suite};
use botlens_sandbox::Sandbox;

use crate::report::AnalysisCost;

/// Rounds of each figure: an analysis of the Battleships suite takes seconds, so fewer than
/// the games-per-second figures' rounds.
const ROUNDS: usize = 3;

/// The suites measured: a sample, its opponent (`None`: the project's own boards) and the
/// share of the bench's games per figure it plays (`None`: the project's seeds).
const CASES: [(&str, Option<&str>, Option<u64>); 3] = [
    ("tictactoe-forkblind", Some("perfect"), Some(1)),
    ("klotski-solver", None, None),
    ("battleships-hunter", Some("hunter"), Some(10)),
];

/// Each case's `run` and `analyze` times: Tic-tac-toe plays `games` games, Battleships a tenth
/// (each of its shots is an estimate), Klotski its project's suite; `options` builds the
/// samples (in `samples`).
pub(crate) fn measure(
    sandbox: &Sandbox,
    samples: &Path,
    options: &RunOptions,
    games: u64,
) -> anyhow::Result<Vec<AnalysisCost>> {
    CASES
        .iter()
        .map(|&(sample, opponent, share)| {
            let seeds = share.map(|divisor| (games / divisor).max(10));
            let options = RunOptions {
                opponents: opponent.map(|name| vec![name.to_owned()]),
                seeds: seeds.map(|n| SeedRange::new(0, n - 1).expect("at least one seed")),
                jobs: 1,
                ..options.clone()
            };
            let target = Target::of_dir(samples.join(sample));
            let cancel = CancelToken::new();
            let prepared = pipeline::prepare(sandbox, &target, &options, &|_| {}, &cancel)
                .with_context(|| format!("preparing samples/{sample}"))?;
            let suite = &prepared.suite;
            let (mut run, mut analyze) = (Duration::MAX, Duration::MAX);
            let mut games = 0;
            for _ in 0..ROUNDS {
                let started = Instant::now();
                let results = run_suite(suite, &|_, _| {}, &cancel)?;
                run = run.min(started.elapsed());
                games = results.played;
                let started = Instant::now();
                analyze_suite(suite, &|_| {}, &cancel)
                    .with_context(|| format!("analysing samples/{sample}"))?;
                analyze = analyze.min(started.elapsed());
            }
            let ms = |d: Duration| d.as_secs_f64() * 1e3;
            Ok(AnalysisCost {
                game: suite.game.to_string(),
                description: format!(
                    "samples/{sample} vs {}, {games} games",
                    opponent.unwrap_or("its boards")
                ),
                run_ms: ms(run),
                analyze_ms: ms(analyze),
                ratio: analyze.as_secs_f64() / run.as_secs_f64(),
            })
        })
        .collect()
}
