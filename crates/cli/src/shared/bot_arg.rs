//! The bot argument of `run`, `replay`, `profile`, `debug` and `watch`: a name the user gives
//! means exactly that; left out, the bot the current directory is in, found upward as cargo
//! finds its manifest (`botlens_harness::Target::enclosing`), so that `botlens run` works from
//! a project's `src/` as `cargo build` does.

use std::path::PathBuf;

/// The bot `named` (as typed), or, when none is named, the bot the current directory is in
/// ([`enclosing`]).
pub fn named_or_enclosing(named: Option<String>) -> anyhow::Result<String> {
    match named {
        Some(named) => Ok(named),
        None => Ok(enclosing()?.display().to_string()),
    }
}

/// The bot the current directory is in, relative to it (`.`, `..`).
pub fn enclosing() -> anyhow::Result<PathBuf> {
    let cwd = std::env::current_dir()
        .map_err(|error| anyhow::anyhow!("cannot read the current directory: {error}"))?;
    Ok(botlens_harness::Target::enclosing(&cwd)?)
}
