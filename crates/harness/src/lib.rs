//! Bot projects and suites: everything between a saved file and a report.
//!
//! - [`toolchain`]: the languages botlens builds bots in (Rust, JavaScript, C, Zig,
//!   AssemblyScript), one module each, and the one table that lists them: detecting, naming,
//!   loading, building, starting and debugging a bot in each;
//! - [`target`]: what the user names as the bot — a bot in one of those languages, a module file
//!   or a reference player — resolved once;
//! - [`pipeline`]: the one road from a target to a report: build or load, play, report, stage
//!   by stage, cancellable;
//! - [`profile`]: where a bot's fuel goes, by function and line, over a suite's games
//!   ([`fuel`]: the profiles merged and summed up);
//! - [`project`]: a bot project is a Cargo package with `[package.metadata.botlens]`;
//! - [`build`]: cargo builds it for `wasm32-wasip1`, compiler errors come back as data;
//! - [`caps`]: the caps the user sets on the limits a project may ask for;
//! - [`suite`]: the bot plays its opponents over a range of seeds, in parallel (paired: each
//!   seed with the bot in both seats);
//! - [`tally`]: what the games add up to, counted as they finish;
//! - [`outcomes`]: the result on each seed, a byte per seed, for comparing runs seed by seed;
//! - [`report`]: scores per opponent and failures grouped by kind and source location;
//! - [`revision`]: a project at a git revision, checked out in a temporary worktree;
//! - [`traces`]: traces written atomically for `botlens replay`;
//! - [`bundled`]: the SDK and the bench's samples, carried in the binary and unpacked on demand;
//! - [`folder`]: what bot folders share in every folder language, and their `botlens.toml`;
//! - [`own_files`]: a project's own files as botlens reads them: inside it, regular, bounded;
//! - [`shown`]: what of a compiler's messages is shown: nothing of files outside the project;
//! - `tools`: every program botlens starts (rustup, cargo, clang, zig, node, npm, git), each
//!   confined by `botlens-confine`.
//!
//! What is played over these (two bots compared, where two builds part, bisecting, round
//! robins, a stored game played on) is `botlens-experiments`'.
//!
//! This crate knows nothing of the terminal or of LSP: the CLI and the language server present
//! what it returns. It reaches games only through `botlens-games`.

pub mod baseline;
pub mod build;
pub mod bundled;
pub mod caps;
mod compiled;
pub mod folder;
pub mod fuel;
pub mod outcomes;
pub mod own_files;
pub mod pipeline;
pub mod profile;
pub mod project;
pub mod report;
pub mod revision;
pub mod scaffold;
mod seeds;
pub mod settings;
pub mod shown;
pub mod suite;
pub mod tally;
pub mod target;
pub mod toolchain;
mod tools;
pub mod traces;
pub mod waste;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

pub use pipeline::{RunError, RunOptions, Stage, SuiteRun};
pub use project::{BotConfig, BotProject, ProjectError};
pub use report::SuiteReport;
pub use seeds::{SeedRange, SeedRangeError};
pub use suite::{Contender, KeepTraces, PlayOn, Suite, WasmBot, run_suite};
pub use target::Target;
pub use tools::debugger_session;

/// What of the confinement of builds this machine lacks, in one sentence naming what is still
/// enforced (see `botlens-confine`); `None` when builds are fully confined. Front ends say it
/// once, before building.
pub fn confinement_warning() -> Option<String> {
    botlens_confine::support().warning()
}

/// A flag that asks long work (a build, a suite) to stop; cheap to clone and share.
#[derive(Debug, Clone, Default)]
pub struct CancelToken(Arc<AtomicBool>);

impl CancelToken {
    /// A token that is not cancelled.
    pub fn new() -> Self {
        CancelToken::default()
    }

    /// Asks the work to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether [`CancelToken::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}
