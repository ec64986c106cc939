//! `botlens bench`: measured speed, side by side, as a table or JSON.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use botlens_bench::BenchOptions;
use botlens_bots::bundled;
use clap::Args;

/// Arguments of `botlens bench`.
#[derive(Debug, Args)]
#[command(after_help = "Builds the sample bots, then measures games per second (native reference
players and wasm bots against the same opponents, on one core, each figure the best of 10
rounds; the wasm bots include a raw-ABI floor bot in WAT, which shows what the sandbox itself
costs), the cost split of a wasm game, module compile times, the README's main job on one core
and on all, what `botlens analyze` costs against `botlens run` on a sample of each game (one
worker, best of 3), the save → report loop after edits, and peak memory. It also builds, in its
scratch directory, the starter bots of `botlens new --lang c|zig|assemblyscript|js|python` and a
random JavaScript and Python bot, and measures them against `random`: with clang for C;
botlens's JavaScript runner, built once with cargo and clang if not yet (a minute or two); its
Python runner, built once with cargo (several minutes); zig if installed; and the AssemblyScript
compiler, which botlens installs once with npm into its cache if Node.js is there. A language
whose toolchain is missing is a skipped row, never a failed bench. Then the save → diagnostics
loop of the JavaScript and the Python bot after edits. Run it in release for meaningful figures
(a release build, e.g. `cargo install --path crates/cli`):

  botlens bench
  botlens bench --json --games 5000
  botlens bench --no-latency --samples samples/

The method and the latest figures: docs/performance.md.")]
pub struct BenchArgs {
    /// Games per games-per-second figure (Klotski plays a tenth: every game solves).
    #[arg(long, default_value_t = 2000)]
    games: u64,
    /// Skip the save → report measurement (it edits and rebuilds a scratch copy of a sample).
    #[arg(long)]
    no_latency: bool,
    /// The directory of sample bots [default: the samples bundled with this botlens, unpacked
    /// into botlens's cache directory].
    #[arg(long)]
    samples: Option<PathBuf>,
    /// Print one JSON object (fields documented in `botlens_bench::BenchReport`).
    #[arg(long)]
    json: bool,
}

/// Runs `botlens bench`.
pub fn run(args: BenchArgs) -> anyhow::Result<ExitCode> {
    if args.games == 0 {
        anyhow::bail!("--games must be at least 1");
    }
    // Scratch projects and the bundled samples live in botlens's cache directory (their builds
    // are reused by the next run), or in a temporary one without it.
    let temporary;
    let bench = match bundled::cache_root() {
        Some(root) => root.join("bench"),
        None => {
            temporary = tempfile::tempdir()?;
            temporary.path().to_path_buf()
        }
    };
    let sdk = bundled::sdk()?;
    let samples = match args.samples {
        Some(samples) if samples.is_dir() => samples,
        Some(samples) => anyhow::bail!(
            "no sample bots at {}: --samples takes a directory holding {}",
            samples.display(),
            bundled::samples().join(", ")
        ),
        None => {
            let dir = bench.join("samples");
            for name in bundled::samples() {
                bundled::sample(name, &dir.join(name), &sdk)?;
            }
            dir
        }
    };
    let options = BenchOptions {
        games: args.games,
        samples,
        sdk,
        latency: !args.no_latency,
        scratch: bench.join("scratch"),
    };
    let chatty = !args.json && std::io::stderr().is_terminal();
    let report = botlens_bench::run(&options, &mut |line| {
        if chatty {
            eprintln!("botlens: {line}");
        }
    })?;
    let mut stdout = std::io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut stdout, &report)?;
        writeln!(stdout)?;
    } else {
        write!(stdout, "{}", report.render())?;
    }
    Ok(ExitCode::SUCCESS)
}
