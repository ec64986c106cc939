//! `botlens merge PARTS…`: the report of a run played in shards (`run --shard I/N --part FILE`),
//! made from their parts as one run would have made it. Glue over `botlens_harness::shard`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use botlens_harness::shard::{self, Part};
use clap::Args;

/// Arguments of `botlens merge`.
#[derive(Debug, Args)]
#[command(after_help = "Each part is a file `botlens run --shard I/N --part FILE` wrote, or a
directory: then every .json file in it. The parts must be of one run (the same botlens, game,
bot and opponents — their modules' hashes —, seeds, limits and pairing) and hold each of its N
shards once; else merge says which part differs, or which shards are missing or doubled.

The report is the one `botlens run` would have printed had it played every shard itself: the
same table and failures, and with --json the same object to the byte but for `duration_ms`
(the shards' wall-clock times summed).

Examples:
  botlens run my-bot --seeds 0..10000 --shard 0/2 --part parts/0.json
  botlens run my-bot --seeds 0..10000 --shard 1/2 --part parts/1.json
  botlens merge parts/
  botlens merge parts/0.json parts/1.json --json

Exit status: 0 when no game was lost by a bot fault, 1 when one was, 2 when the parts do not
merge.")]
pub struct MergeArgs {
    /// The parts: files, or directories of them.
    #[arg(required = true, value_name = "PARTS")]
    parts: Vec<PathBuf>,
    /// Print the report as JSON (as `botlens run --json` does) instead of the table.
    #[arg(long)]
    json: bool,
}

/// Runs `botlens merge`.
pub fn run(args: MergeArgs) -> anyhow::Result<ExitCode> {
    let mut parts = Vec::new();
    for path in part_files(&args.parts)? {
        let part = Part::read(&path)?;
        parts.push((path.display().to_string(), part));
    }
    let report = shard::merge(parts)?;
    let mut stdout = std::io::stdout().lock();
    if args.json {
        serde_json::to_writer(&mut stdout, &report)?;
        writeln!(stdout)?;
    } else {
        write!(stdout, "{}", report.render(&std::env::current_dir()?))?;
    }
    Ok(if report.has_faults() { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// The part files `paths` name: each file, and the `.json` files of each directory (by name).
fn part_files(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if !path.is_dir() {
            files.push(path.clone());
            continue;
        }
        let mut found: Vec<PathBuf> = std::fs::read_dir(path)
            .with_context(|| format!("{}", path.display()))?
            .map(|entry| entry.map(|entry| entry.path()))
            .collect::<Result<_, _>>()
            .with_context(|| format!("{}", path.display()))?;
        found.retain(|file| is_part_name(file));
        found.sort();
        if found.is_empty() {
            anyhow::bail!("{}: no .json file in it to merge", path.display());
        }
        files.extend(found);
    }
    Ok(files)
}

/// Whether a file in a directory of parts is one: a `.json` file, not hidden (a part being
/// written is a hidden temporary file).
fn is_part_name(file: &Path) -> bool {
    let name = file.file_name().map(|name| name.to_string_lossy()).unwrap_or_default();
    !name.starts_with('.') && name.ends_with(".json")
}
