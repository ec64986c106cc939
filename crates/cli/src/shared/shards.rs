//! What the commands that play in shards (`run`, `compare`, `tournament` with `--shard I/N
//! --part FILE`) share: the shard a command line names, and writing its part.

use std::path::Path;

use botlens_harness::shard::{Contents, Part, Shard};

/// The shard `spec` names (`I/N`, `auto`, `auto/N`), a scheduler's variables read from this
/// process's environment.
pub fn shard(spec: &str) -> anyhow::Result<Shard> {
    Ok(Shard::parse(spec, &|name| std::env::var(name).ok())?)
}

/// Writes `part` as `path` and says so on stderr, with what the shard played (`seeds 0..=99`).
pub fn write_part<T: Contents>(part: &Part<T>, path: &Path, played: &str) -> anyhow::Result<()> {
    part.write(path)
        .map_err(|error| anyhow::anyhow!("writing the part {}: {error}", path.display()))?;
    eprintln!("botlens: shard {} ({played}): part written to {}", part.shard, path.display());
    Ok(())
}

/// `count` seeds, in words (`1 seed`, `16 seeds`).
pub fn seeds(count: u64) -> String {
    format!("{count} seed{}", if count == 1 { "" } else { "s" })
}
