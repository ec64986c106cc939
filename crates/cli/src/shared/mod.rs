//! What several commands share, so that no command borrows from another: the arguments
//! several take (`*_arg`, `*_args`), the words and progress shown while they build and play
//! (`progress`), how they write results (`output`) and shards' parts (`shards`), Klotski
//! layouts named on the command line (`layout`), and the process's sandbox.

pub mod bot_arg;
pub mod caps_args;
pub mod game_arg;
pub mod games_args;
pub mod lang_arg;
pub mod layout;
pub mod output;
pub mod progress;
pub mod shards;
pub mod slurm_args;
pub mod suite_args;

/// The process's sandbox ([`botlens_harness::pipeline::sandbox`]), saying once on stderr why its
/// disk cache is not used when it is not (a directory others may write to, say), and what of
/// the builds' confinement this machine lacks, if anything.
pub fn sandbox() -> anyhow::Result<botlens_sandbox::Sandbox> {
    let sandbox = botlens_harness::pipeline::sandbox()?;
    if let Some(note) = sandbox.disk_cache_note() {
        eprintln!("botlens: note: {note}");
    }
    if let Some(warning) = botlens_bots::confinement_warning() {
        eprintln!("botlens: {warning}");
    }
    Ok(sandbox)
}
