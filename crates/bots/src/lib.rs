//! Bots as their authors write them, up to a loaded module: where a bot is, what its settings
//! say, how its language builds it (confined), and new bots.
//!
//! - [`toolchain`]: the languages botlens builds bots in (Rust, JavaScript, C, Zig,
//!   AssemblyScript), one module each, and the one table that lists them: detecting, naming,
//!   loading, building, starting and debugging a bot in each;
//! - [`target`]: what the user names as the bot — a bot in one of those languages, a module file
//!   or a reference player — resolved once;
//! - [`project`]: a bot project is a Cargo package with `[package.metadata.botlens]`;
//! - [`folder`]: what bot folders share in every folder language, and their `botlens.toml`;
//! - [`settings`]: the suite a bot's settings ask for (opponents, seeds, turn cap, limits);
//! - [`build`]: cargo builds a project for `wasm32-wasip1`, compiler errors come back as data;
//! - [`caps`]: the caps the user sets on the limits a bot may ask for;
//! - [`scaffold`]: new bots (`botlens new`), in every language;
//! - [`revision`]: a bot at a git revision, checked out in a temporary worktree;
//! - [`bundled`]: the SDK and the bench's samples, carried in the binary and unpacked on demand;
//! - [`own_files`]: a bot's own files as botlens reads them: inside it, regular, bounded;
//! - [`shown`]: what of a compiler's messages is shown: nothing of files outside the project;
//! - `compiled`: built modules cached by the hash of what built them;
//! - `tools`: every program botlens starts (rustup, cargo, clang, zig, node, npm, git), each
//!   confined by `botlens-confine`.
//!
//! Playing what is built is `botlens-harness`'s. This crate knows nothing of games' rules, the
//! terminal or LSP; it reaches games only through `botlens-games`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

pub mod build;
pub mod bundled;
pub mod caps;
mod compiled;
pub mod folder;
pub mod own_files;
pub mod project;
pub mod revision;
pub mod scaffold;
mod seeds;
pub mod settings;
pub mod shown;
pub mod target;
pub mod toolchain;
mod tools;

pub use project::{BotConfig, BotProject, ProjectError};
pub use seeds::{MAX_SHARDS, SeedRange, SeedRangeError, Shard, ShardError};
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
