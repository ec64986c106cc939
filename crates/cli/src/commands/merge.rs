//! `botlens merge PARTS…`: the report of a run, a comparison or a round robin played in shards
//! (`run`, `compare` or `tournament` with `--shard I/N --part FILE`), made from their parts as
//! one run would have made it. Glue over `botlens_harness::shard` and the experiments' `merge`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use botlens_experiments::compare::{self, ComparePart};
use botlens_experiments::tournament::{self, TournamentPart};
use botlens_harness::shard::{self, Contents, Part, RunPart};

use crate::shared::output::print_report;
use clap::Args;

/// Arguments of `botlens merge`.
#[derive(Debug, Args)]
#[command(after_help = "Each part is a file `botlens run`, `compare` or `tournament` wrote with
--shard I/N --part FILE, or a directory: then every .json file in it. The parts must be of one run (the
same botlens, game, bots and opponents — their modules' hashes —, seeds, limits and pairing)
and hold each of its N shards once; else merge says which part differs, or which shards are
missing or doubled.

The report is the one `botlens run` (`compare`, `tournament`) would have printed had it played every shard
itself: with --json the same object to the byte, but for a run's `duration_ms` (the shards'
wall-clock times summed).

Examples:
  botlens run my-bot --seeds 0..10000 --shard 0/2 --part parts/0.json
  botlens run my-bot --seeds 0..10000 --shard 1/2 --part parts/1.json
  botlens merge parts/
  botlens merge parts/0.json parts/1.json --json
  botlens compare my-bot my-bot@main --seeds 0..100000 --shard 3/8 --part cmp/3.json
  botlens merge cmp/

Exit status: 0 when no game was lost by a bot fault (a comparison or a round robin: 0), 1 when
one was, 2 when the parts do not merge.")]
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
        let value = shard::read(&path)?;
        parts.push((path, value));
    }
    let Some(kind) = shard::kind(&parts[0].1).map(str::to_owned) else {
        anyhow::bail!(
            "{}: not a botlens part (it says no `kind`: a part is of a `run`, a `compare` or a `tournament`)",
            parts[0].0.display()
        );
    };
    match kind.as_str() {
        RunPart::KIND => merge_runs(read_as(parts)?, args.json),
        ComparePart::KIND => {
            let report = compare::merge(read_as(parts)?)?;
            print_report(args.json, &report, |report| report.render())?;
            Ok(ExitCode::SUCCESS)
        }
        TournamentPart::KIND => {
            let report = tournament::merge(read_as(parts)?)?;
            print_report(args.json, &report, |report| report.render())?;
            Ok(ExitCode::SUCCESS)
        }
        other => anyhow::bail!(
            "{}: not a part of a run botlens merges (kind `{}`; expected `run`, `compare` or `tournament`)",
            parts[0].0.display(),
            botlens_engine::text::clipped(other, 40)
        ),
    }
}

/// The parts read as parts of one kind (those of another kind fail to read as it, or are
/// refused by the merge).
fn read_as<T: Contents>(
    parts: Vec<(PathBuf, serde_json::Value)>,
) -> anyhow::Result<Vec<(String, Part<T>)>> {
    parts
        .into_iter()
        .map(|(path, value)| Ok((path.display().to_string(), Part::from_value(&path, value)?)))
        .collect()
}

/// Merges parts of `botlens run` and prints the report as `run` does.
fn merge_runs(parts: Vec<(String, Part<RunPart>)>, json: bool) -> anyhow::Result<ExitCode> {
    let report = shard::merge(parts)?;
    let mut stdout = std::io::stdout().lock();
    if json {
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
