//! The measurements themselves: each builds what it needs, times it, and returns figures.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use botlens_battleships::Battleships;
use botlens_bots::bundled;
use botlens_games::GameKind;
use botlens_harness::pipeline::{self, RunOptions};
use botlens_harness::{CancelToken, Contender, Target, WasmBot, run_suite};
use botlens_sandbox::{Sandbox, SandboxConfig, SandboxFloor, SandboxLimits};

use crate::load::LoadWatch;
use crate::report::{
    BenchReport, CompileTimes, GameSpeed, LoopLatency, ScriptLatency, SuiteScaling, WasmCostSplit,
};
use crate::shared::{
    ROUNDS, against_hunter, copy_changed, median, ms, one_core_suite, timed_edits,
};

/// What to measure.
#[derive(Debug, Clone)]
pub struct BenchOptions {
    /// Games per games-per-second figure (Klotski plays a tenth of them: each game solves).
    pub games: u64,
    /// The directory holding the sample bots (`battleships-hunter`, `tictactoe-minimax`,
    /// `klotski-solver`).
    pub samples: PathBuf,
    /// The SDK the template and scratch projects depend on.
    pub sdk: PathBuf,
    /// Whether to measure the save-to-report loop (builds a scratch copy of a sample).
    pub latency: bool,
    /// Where scratch projects live between runs (their builds are reused).
    pub scratch: PathBuf,
}

impl BenchOptions {
    /// How the measured Rust bots are built: into one cargo target directory under `scratch`,
    /// so the SDK's dependencies compile once for the templates and samples, not once each.
    fn build_options(&self) -> RunOptions {
        RunOptions { cargo_target_dir: Some(self.scratch.join("target")), ..RunOptions::default() }
    }
}

/// Where a measured wasm bot comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum WasmSource {
    /// A project in `samples/`.
    Sample(&'static str),
    /// The bot `botlens new <game>` scaffolds (a random or first-free mover: it measures the
    /// sandbox more than the bot).
    Template,
    /// [`FLOOR_BOT`], a Battleships bot in WAT that does next to nothing: the sandbox's floor.
    Floor,
}

/// A Battleships bot written against the raw ABI, firing at the first unknown square.
pub(crate) const FLOOR_BOT: &str = include_str!("floor_bot.wat");

/// A wasm bot and the native players it is compared with: the same opponent, and a native bot
/// of about the same strategy.
struct Pairing {
    game: GameKind,
    wasm: WasmSource,
    native_bot: &'static str,
    opponent: &'static str,
}

const PAIRINGS: [Pairing; 6] = [
    Pairing {
        game: GameKind::Battleships,
        wasm: WasmSource::Template,
        native_bot: "random",
        opponent: "random",
    },
    Pairing {
        game: GameKind::Battleships,
        wasm: WasmSource::Floor,
        native_bot: "random",
        opponent: "random",
    },
    Pairing {
        game: GameKind::Battleships,
        wasm: WasmSource::Sample("battleships-hunter"),
        native_bot: "density",
        opponent: "hunter",
    },
    Pairing {
        game: GameKind::TicTacToe,
        wasm: WasmSource::Template,
        native_bot: "random",
        opponent: "random",
    },
    Pairing {
        game: GameKind::TicTacToe,
        wasm: WasmSource::Sample("tictactoe-minimax"),
        native_bot: "perfect",
        opponent: "random",
    },
    Pairing {
        game: GameKind::Klotski,
        wasm: WasmSource::Sample("klotski-solver"),
        native_bot: "optimal",
        opponent: "hengdaolima",
    },
];

impl Pairing {
    fn label(&self) -> String {
        match self.wasm {
            WasmSource::Sample(name) => name.to_owned(),
            WasmSource::Template => format!("`botlens new {}`", self.game),
            WasmSource::Floor => "raw-ABI floor bot (WAT)".to_owned(),
        }
    }

    /// The wasm bot, built (a project: the template is scaffolded into `scratch`) and loaded;
    /// also the built module's path.
    fn load(
        &self,
        sandbox: &Sandbox,
        options: &BenchOptions,
    ) -> anyhow::Result<(WasmBot, Option<PathBuf>)> {
        let dir = match self.wasm {
            WasmSource::Sample(name) => options.samples.join(name),
            WasmSource::Template => {
                let dir = options.scratch.join(format!("template-{}", self.game));
                refresh_template(self.game, &dir, &options.sdk)?;
                dir
            }
            WasmSource::Floor => {
                let module = sandbox.load(FLOOR_BOT.as_bytes())?;
                let bot = WasmBot { name: self.label(), module, source: "floor_bot.wat".into() };
                return Ok((bot, None));
            }
        };
        let prepared = pipeline::prepare(
            sandbox,
            &Target::of_dir(dir),
            &options.build_options(),
            &|_| {},
            &CancelToken::new(),
        )?;
        let Contender::Wasm(bot) = prepared.suite.bot else {
            bail!("{} is a project, so its bot is a module", self.label());
        };
        Ok((WasmBot { name: self.label(), source: self.label(), ..bot }, prepared.wasm))
    }
}

/// Makes `dir` the project `botlens new <game>` makes today. Only files that differ are
/// written, so the bot's build from an earlier run is reused unless the template changed.
fn refresh_template(game: GameKind, dir: &Path, sdk: &Path) -> anyhow::Result<()> {
    let staging = tempfile::tempdir()?;
    let fresh = staging.path().join(dir.file_name().context("the template directory has a name")?);
    botlens_bots::scaffold::scaffold(game, &fresh, Some(sdk))?;
    copy_changed(&fresh, dir)
}

/// Runs every measurement; `say` hears what is going on (for a progress line).
pub fn run(options: &BenchOptions, say: &mut dyn FnMut(&str)) -> anyhow::Result<BenchReport> {
    let load = LoadWatch::start();
    pipeline::ensure_wasm_target(&mut || say("installing the wasm32-wasip1 target (once)…"))?;
    let cache = tempfile::tempdir()?;
    let sandbox = Sandbox::new(SandboxConfig { cache_dir: Some(cache.path().to_path_buf()) })?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());

    say("measuring the sandbox's own steps…");
    let sandbox_floor = SandboxFloor::measure()?;
    let mut speeds = Vec::new();
    let (mut light_bot, mut floor_bot, mut sample_module, mut sample_bot) =
        (None, None, None, None);
    for pairing in &PAIRINGS {
        let label = pairing.label();
        say(&format!("building {label}…"));
        let (bot, wasm) = pairing.load(&sandbox, options)?;
        let games = if pairing.game == GameKind::Klotski {
            (options.games / 10).max(10)
        } else {
            options.games
        };
        say(&format!("playing {games} {} games, native then wasm…", pairing.game));
        speeds.push(game_speed(pairing, &bot, games, &sandbox_floor)?);
        match (pairing.game, pairing.wasm) {
            (GameKind::Battleships, WasmSource::Template) => light_bot = Some(bot),
            (GameKind::Battleships, WasmSource::Floor) => floor_bot = Some(bot),
            (GameKind::Battleships, WasmSource::Sample(_)) => {
                sample_module = wasm;
                sample_bot = Some(bot);
            }
            _ => {}
        }
    }
    let rust = |game: GameKind| {
        let pairing = PAIRINGS
            .iter()
            .zip(&speeds)
            .find(|(p, _)| p.game == game && p.wasm == WasmSource::Template);
        pairing.map(|(_, speed)| speed.wasm_games_per_s)
    };
    let languages = crate::languages::speeds(&sandbox, &options.scratch, options.games, &rust, say);
    let light_bot = light_bot.context("the Battleships template was measured")?;
    let floor_bot = floor_bot.context("the floor bot was measured")?;
    let sample_module = sample_module.context("the Battleships sample was measured")?;

    say("splitting the cost of a wasm game…");
    let wasm_cost = cost_split(&light_bot, &floor_bot, options.games.min(1000));
    say("playing the sample drawing its map every turn, recorded and not…");
    let sample_bot = sample_bot.context("the Battleships sample was measured")?;
    let drawing = drawing_bot(&sandbox, options)?;
    let drawing = crate::drawing::measure(&sample_bot, &drawing, options.games.min(1000))?;
    say("analysing the samples' suites, and playing them as run does…");
    let analysis = crate::analysis::measure(
        &sandbox,
        &options.samples,
        &options.build_options(),
        options.games,
    )?;
    say("timing module compiles…");
    let compile = compile_times(&sample_module)?;
    say("playing the README's main job on one core and on all…");
    let suite = suite_scaling(&options.samples.join("battleships-hunter"), options, cores)?;
    let save_to_report = if options.latency {
        say("measuring save → report after edits…");
        let sample = options.samples.join("battleships-hunter");
        Some(loop_latency(&sample, &options.scratch, &options.sdk)?)
    } else {
        None
    };
    let mut script_latency = |lang, title| -> Option<ScriptLatency> {
        if !options.latency {
            return None;
        }
        say(&format!("measuring save → diagnostics of a {title} bot after edits…"));
        Some(crate::languages::save_to_diagnostics_or_skipped(&sandbox, &options.scratch, lang))
    };
    let js_save_to_diagnostics = script_latency("js", "JavaScript");
    let py_save_to_diagnostics = script_latency("python", "Python");
    Ok(BenchReport {
        cores,
        games_per_measurement: options.games,
        speeds,
        languages,
        sandbox_floor,
        wasm_cost,
        compile,
        suite,
        drawing,
        analysis,
        save_to_report,
        js_save_to_diagnostics,
        py_save_to_diagnostics,
        peak_rss_mib: peak_rss_mib(),
        machine_load: load.finish(),
    })
}

/// Host calls a bot turn makes at the least: its view and its move.
const HOST_CALLS_PER_TURN: f64 = 2.0;

fn game_speed(
    pairing: &Pairing,
    bot: &WasmBot,
    games: u64,
    floor: &SandboxFloor,
) -> anyhow::Result<GameSpeed> {
    let per_round = games.div_ceil(ROUNDS);
    let native = one_core_suite(
        pairing.game,
        Contender::Reference(pairing.native_bot.to_owned()),
        pairing.opponent,
        per_round,
    );
    let wasm =
        one_core_suite(pairing.game, Contender::Wasm(bot.clone()), pairing.opponent, per_round);
    let per_s = |d: Duration| per_round as f64 / d.as_secs_f64();
    let (mut native_games_per_s, mut wasm_games_per_s) = (0f64, 0f64);
    let (mut turns, mut bot_turns) = (0, 0);
    for _ in 0..ROUNDS {
        let native_results = run_suite(&native, &|_, _| {}, &CancelToken::new())?;
        let wasm_results = run_suite(&wasm, &|_, _| {}, &CancelToken::new())?;
        if let Some(fault) = wasm_results.kept.iter().find_map(|g| g.fault.as_ref()) {
            bail!(
                "{} lost a game by a fault while benchmarking: {}",
                pairing.label(),
                fault.failure
            );
        }
        native_games_per_s = native_games_per_s.max(per_s(native_results.duration));
        wasm_games_per_s = wasm_games_per_s.max(per_s(wasm_results.duration));
        turns = wasm_results.tally.opponents.iter().map(|o| o.turns).sum::<u64>();
        bot_turns = wasm_results.tally.opponents.iter().map(|o| o.moves).sum::<u64>();
    }
    let bot_turns_per_game = bot_turns as f64 / per_round as f64;
    // Where the native side is two copies of one player, the least ratio counts: its floor
    // takes the instance as this bot's own games have it, not an instance nothing ran in.
    let symmetric = pairing.native_bot == pairing.opponent;
    let instance_us_per_game = if symmetric {
        Some(crate::instance::instance_us_per_game(pairing.game, bot, pairing.opponent, per_round)?)
    } else {
        None
    };
    let floor =
        SandboxFloor { instance_us: instance_us_per_game.unwrap_or(floor.instance_us), ..*floor };
    let sandbox_floor_us_per_game = floor.per_game_us(bot_turns_per_game, HOST_CALLS_PER_TURN);
    Ok(GameSpeed {
        game: pairing.game.name().to_owned(),
        native: format!("{} vs {}", pairing.native_bot, pairing.opponent),
        wasm: format!("{} (wasm) vs {}", pairing.label(), pairing.opponent),
        native_games_per_s,
        wasm_games_per_s,
        native_over_wasm: native_games_per_s / wasm_games_per_s,
        mean_turns_per_game: turns as f64 / per_round as f64,
        bot_turns_per_game,
        instance_us_per_game,
        sandbox_floor_us_per_game,
        least_native_over_wasm: symmetric
            .then(|| GameSpeed::least_ratio(native_games_per_s, sandbox_floor_us_per_game)),
    })
}

/// Where the time of `games` Battleships games of `bot` against native `hunter` goes.
struct Timings {
    total: Duration,
    instantiate: Duration,
    guest: Duration,
    turns: u64,
    bot_turns: u64,
    fuel: u64,
}

impl Timings {
    fn measure(bot: &WasmBot, games: u64) -> Timings {
        let limits = SandboxLimits::default();
        let mut t = Timings {
            total: Duration::ZERO,
            instantiate: Duration::ZERO,
            guest: Duration::ZERO,
            turns: 0,
            bot_turns: 0,
            fuel: 0,
        };
        for seed in 0..games {
            let started = Instant::now();
            let mut wasm = bot.module.player::<Battleships>(seed, 0, &limits).timed();
            let record = against_hunter(&mut wasm, seed);
            t.total += started.elapsed();
            let stats = wasm.stats();
            t.instantiate += stats.instantiate;
            t.guest += stats.in_guest;
            t.turns += record.moves.len() as u64;
            t.bot_turns += record.moves.iter().filter(|m| m.seat == 0).count() as u64;
            t.fuel += record.moves.iter().filter_map(|m| m.cost.fuel).sum::<u64>();
        }
        t
    }

    /// Microseconds inside the bot per bot turn, instantiation left out.
    fn guest_us_per_turn(&self) -> f64 {
        self.guest.saturating_sub(self.instantiate).as_secs_f64() * 1e6
            / self.bot_turns.max(1) as f64
    }

    fn fuel_per_turn(&self) -> f64 {
        self.fuel as f64 / self.bot_turns.max(1) as f64
    }
}

fn cost_split(bot: &WasmBot, floor: &WasmBot, games: u64) -> WasmCostSplit {
    let t = Timings::measure(bot, games);
    let floor = Timings::measure(floor, games);
    WasmCostSplit {
        instantiate_us_per_game: t.instantiate.as_secs_f64() * 1e6 / games as f64,
        guest_us_per_turn: t.guest_us_per_turn(),
        host_us_per_turn: t.total.saturating_sub(t.guest).as_secs_f64() * 1e6
            / t.turns.max(1) as f64,
        fuel_per_turn: t.fuel_per_turn(),
        floor_guest_us_per_turn: floor.guest_us_per_turn(),
        floor_fuel_per_turn: floor.fuel_per_turn(),
        turns_per_game: t.turns as f64 / games as f64,
    }
}

fn compile_times(wasm: &Path) -> anyhow::Result<CompileTimes> {
    let cache = tempfile::tempdir()?;
    let config = SandboxConfig { cache_dir: Some(cache.path().to_path_buf()) };
    let limits = SandboxLimits::default();
    let load = |sandbox: &Sandbox| -> anyhow::Result<Duration> {
        let started = Instant::now();
        let module = sandbox.load_file(wasm)?;
        // Compiling happens when the first player is made.
        drop(module.player::<Battleships>(0, 0, &limits));
        Ok(started.elapsed())
    };
    let cold_sandbox = Sandbox::new(config.clone())?;
    // Cold as in a new process: no function compiled before serves.
    botlens_sandbox::forget_compiled_functions();
    let cold = load(&cold_sandbox)?;
    let memory = load(&cold_sandbox)?;
    let disk = load(&Sandbox::new(config)?)?;
    Ok(CompileTimes {
        module_kib: std::fs::metadata(wasm)?.len() as f64 / 1024.0,
        cold_ms: cold.as_secs_f64() * 1e3,
        disk_cache_ms: disk.as_secs_f64() * 1e3,
        memory_cache_us: memory.as_secs_f64() * 1e6,
    })
}

fn suite_scaling(
    project_dir: &Path,
    bench: &BenchOptions,
    cores: usize,
) -> anyhow::Result<SuiteScaling> {
    let sandbox = pipeline::sandbox()?;
    let target = Target::of_dir(project_dir);
    let run = |jobs: usize| {
        let options = RunOptions { jobs, ..bench.build_options() };
        pipeline::run(&sandbox, &target, &options, &|_| {}, &CancelToken::new())
    };
    run(0)?; // Warm up: the no-op build, the module cache and the instantiation recipe.
    let started = Instant::now();
    let all = run(0)?;
    let end_to_end = started.elapsed();
    let one = run(1)?;
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    Ok(SuiteScaling {
        description: format!(
            "samples/battleships-hunter vs {}, seeds {}",
            all.report.opponents.iter().map(|o| o.name.as_str()).collect::<Vec<_>>().join(", "),
            all.report.seeds
        ),
        games: u64::from(all.report.games),
        one_core_ms: ms(one.timings.games),
        all_cores_ms: ms(all.timings.games),
        cores,
        speedup: one.timings.games.as_secs_f64() / all.timings.games.as_secs_f64(),
        end_to_end_ms: ms(end_to_end),
    })
}

/// Edits a scratch copy of a sample three times and times each rebuild-and-run.
fn loop_latency(sample: &Path, scratch: &Path, sdk: &Path) -> anyhow::Result<LoopLatency> {
    let project_dir = scratch_copy(sample, scratch, sdk)?;
    let target = Target::of_dir(&project_dir);
    // A cache of this run's own: every edit below makes a module no earlier run has compiled.
    let cache = tempfile::tempdir()?;
    let sandbox = Sandbox::new(SandboxConfig { cache_dir: Some(cache.path().to_path_buf()) })?;
    let samples = timed_edits(&sandbox, &target, &project_dir.join("src").join("lib.rs"), "//")?;
    let cargo = median(samples.iter().map(|(t, _)| ms(t.build)).collect());
    let total = median(samples.iter().map(|(_, total)| ms(*total)).collect());
    Ok(LoopLatency {
        edits: samples.len(),
        cargo_build_ms: cargo,
        module_load_ms: median(samples.iter().map(|(t, _)| ms(t.load)).collect()),
        games_ms: median(samples.iter().map(|(t, _)| ms(t.games)).collect()),
        total_ms: total,
        not_cargo_ms: median(samples.iter().map(|(t, total)| ms(*total - t.build)).collect()),
    })
}

/// The `battleships-hunter` sample drawing its density map every turn
/// ([`crate::drawing::drawing_variant`]), built in `scratch` and loaded.
fn drawing_bot(sandbox: &Sandbox, options: &BenchOptions) -> anyhow::Result<WasmBot> {
    let sample = options.samples.join("battleships-hunter");
    let project = scratch_copy_as(&sample, &options.scratch, &options.sdk, "hunter-drawing")?;
    crate::drawing::make_drawing(&project)?;
    // A name of its own: built into the same target directory as the sample, it must not
    // share the sample's module file (whichever was built last would be loaded for both).
    let manifest = project.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest)?;
    let renamed = text.replacen(
        "name = \"battleships-hunter\"",
        &format!("name = \"{}\"", crate::drawing::PACKAGE),
        1,
    );
    if !renamed.contains(crate::drawing::PACKAGE) {
        bail!("the battleships-hunter sample's manifest no longer names its package");
    }
    if renamed != text {
        std::fs::write(&manifest, renamed)?;
    }
    let prepared = pipeline::prepare(
        sandbox,
        &Target::of_dir(&project),
        &options.build_options(),
        &|_| {},
        &CancelToken::new(),
    )?;
    let Contender::Wasm(bot) = prepared.suite.bot else {
        bail!("the drawing variant is a project, so its bot is a module");
    };
    Ok(WasmBot { name: "battleships-hunter drawing its map".into(), ..bot })
}

/// Copies a sample's manifest, lock file and sources into `scratch`, its SDK dependency at
/// `sdk`, and returns the copy's directory.
fn scratch_copy(sample: &Path, scratch: &Path, sdk: &Path) -> anyhow::Result<PathBuf> {
    let name = sample.file_name().context("a sample directory has a name")?;
    scratch_copy_as(sample, scratch, sdk, &name.to_string_lossy())
}

/// [`scratch_copy`] into `scratch/<name>`.
fn scratch_copy_as(
    sample: &Path,
    scratch: &Path,
    sdk: &Path,
    name: &str,
) -> anyhow::Result<PathBuf> {
    let sample = sample.canonicalize().with_context(|| format!("{}", sample.display()))?;
    let copy = scratch.join(name);
    std::fs::create_dir_all(copy.join("src"))?;
    let manifest = std::fs::read_to_string(sample.join("Cargo.toml"))?;
    std::fs::write(copy.join("Cargo.toml"), bundled::manifest_with_sdk(&manifest, sdk))?;
    if sample.join("Cargo.lock").exists() {
        std::fs::copy(sample.join("Cargo.lock"), copy.join("Cargo.lock"))?;
    }
    for entry in std::fs::read_dir(sample.join("src"))? {
        let entry = entry?;
        std::fs::copy(entry.path(), copy.join("src").join(entry.file_name()))?;
    }
    Ok(copy)
}

/// Peak resident set size of this process (Linux `VmHWM`); 0 where unknown.
fn peak_rss_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
            let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kib / 1024.0)
        })
        .unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_template_project_is_rewritten_only_where_it_changed() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path().join("template-tictactoe");
        let sdk = Path::new(env!("CARGO_MANIFEST_DIR")).join("../sdk");
        refresh_template(GameKind::TicTacToe, &dir, &sdk).unwrap();
        let lib = dir.join("src/lib.rs");
        let written = std::fs::metadata(&lib).unwrap().modified().unwrap();
        refresh_template(GameKind::TicTacToe, &dir, &sdk).unwrap();
        assert_eq!(std::fs::metadata(&lib).unwrap().modified().unwrap(), written);

        std::fs::write(&lib, "// edited\n").unwrap();
        refresh_template(GameKind::TicTacToe, &dir, &sdk).unwrap();
        assert!(std::fs::read_to_string(&lib).unwrap().contains("impl Bot for"));
    }

    #[test]
    fn peak_memory_is_read() {
        assert!(peak_rss_mib() > 0.0);
    }

    #[test]
    fn the_scratch_copy_points_at_the_sdk_by_absolute_path() {
        let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/tictactoe-minimax");
        let scratch = tempfile::tempdir().unwrap();
        let copy = scratch_copy(&samples, scratch.path(), Path::new("/abs/sdk")).unwrap();
        let manifest = std::fs::read_to_string(copy.join("Cargo.toml")).unwrap();
        assert!(!manifest.contains("\"../../crates/sdk\""), "{manifest}");
        assert!(manifest.contains("botlens-sdk = { path = \"/abs/sdk\" }"), "{manifest}");
        assert!(copy.join("src/lib.rs").is_file());
    }
}
