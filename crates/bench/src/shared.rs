//! What the measurements share: one-core suites, the rounds a figure is split into, medians,
//! and scratch copies rewritten only where they changed.

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Context;
use botlens_battleships::Battleships;
use botlens_engine::{Game, MatchLimits, MatchRecord, ReferencePlayer, SeedRng, Stream, runner};
use botlens_games::GameKind;
use botlens_harness::pipeline::{self, RunOptions, Timings};
use botlens_harness::{CancelToken, Contender, KeepTraces, SeedRange, Suite, Target};
use botlens_sandbox::{Sandbox, SandboxLimits, WasmPlayer};

/// Copies every file under `from` to the same place under `to` whose contents differ there.
pub(crate) fn copy_changed(from: &Path, to: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_changed(&entry.path(), &target)?;
        } else {
            let bytes = std::fs::read(entry.path())?;
            if std::fs::read(&target).ok().as_deref() != Some(&bytes[..]) {
                std::fs::write(&target, bytes)
                    .with_context(|| format!("cannot write {}", target.display()))?;
            }
        }
    }
    Ok(())
}

/// A suite of `games` seeds of `bot` against reference `opponent`, on one worker.
pub(crate) fn one_core_suite(game: GameKind, bot: Contender, opponent: &str, games: u64) -> Suite {
    Suite {
        game,
        bot,
        opponents: vec![Contender::Reference(opponent.to_owned())],
        seeds: SeedRange::new(0, games - 1).expect("at least one game"),
        limits: MatchLimits::default(),
        sandbox_limits: SandboxLimits::default(),
        jobs: 1,
        keep_traces: KeepTraces::Failures,
        trace_dir: None,
        paired: false,
        play_on: None,
        only: None,
        shard: None,
    }
}

/// Rounds a games-per-second figure is split into, native and wasm taking turns; each figure is
/// its best round, the one least disturbed by whatever else the machine was doing (the shorter
/// native rounds slip between disturbances more easily than the wasm ones: with more rounds,
/// both get the chance of a quiet one).
pub(crate) const ROUNDS: u64 = 10;

/// The median of some measurements (the upper one of an even count).
pub(crate) fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// The save loop of `target`, whose bot's source is `source`: played once (what a first save
/// costs: builds, compiles), then after each of three edits that add lines at the top (moving
/// every line, as a real edit does, so the module is built and compiled anew), the pipeline's
/// timings and the whole time of each; the source is put back. The lines added are comments,
/// begun with `comment`.
pub(crate) fn timed_edits(
    sandbox: &Sandbox,
    target: &Target,
    source: &Path,
    comment: &str,
) -> anyhow::Result<Vec<(Timings, Duration)>> {
    let options = RunOptions::default();
    let run = || pipeline::run(sandbox, target, &options, &|_| {}, &CancelToken::new());
    run()?;
    let original = std::fs::read_to_string(source)?;
    let mut samples = Vec::new();
    for edit in 1..=3 {
        std::fs::write(
            source,
            format!("{}{original}", format!("{comment} bench edit\n").repeat(edit)),
        )?;
        let started = Instant::now();
        match run() {
            Ok(result) => samples.push((result.timings, started.elapsed())),
            Err(error) => {
                std::fs::write(source, &original)?;
                return Err(error.into());
            }
        }
    }
    std::fs::write(source, original)?;
    Ok(samples)
}

/// One Battleships game: `wasm` in seat 0 against native `hunter`.
pub(crate) fn against_hunter(
    wasm: &mut WasmPlayer<Battleships>,
    seed: u64,
) -> MatchRecord<Battleships> {
    let hunter = ReferencePlayer::find("hunter").expect("hunter is a reference player");
    against(wasm, hunter, seed)
}

/// One game of a game with opponents (not boards): `wasm` in seat 0 against the native
/// `opponent`, with the game's default options and limits.
pub(crate) fn against<G: Game>(
    wasm: &mut WasmPlayer<G>,
    opponent: ReferencePlayer<G>,
    seed: u64,
) -> MatchRecord<G> {
    let mut other = (opponent.create)(SeedRng::new(seed, Stream::Player(1)));
    runner::play_match::<G>(
        &G::Config::default(),
        seed,
        &mut [wasm, other.as_mut()],
        &MatchLimits::default(),
    )
}

/// Milliseconds.
pub(crate) fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e3
}
