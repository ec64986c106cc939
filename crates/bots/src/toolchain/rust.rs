//! Rust bots: a Cargo package with a `[package.metadata.botlens]` table ([`crate::project`]) on
//! the botlens SDK (`crates/sdk`, bundled, [`crate::bundled::sdk`]), built with cargo for
//! `wasm32-wasip1` ([`crate::build`]: confined, compiler errors as data), the target installed
//! with rustup when a build fails for want of it ([`build::build_installing_target`]). `botlens new` writes one with
//! [`crate::scaffold::scaffold`]. The SDK names its files in the module's `botlens_sdk` section
//! itself (`link_section`), and rustc's and cargo's own paths (the standard library, the
//! registry) are the locator's to skip.
//!
//! Not for: playing (see `botlens-harness`'s `pipeline`).

use std::path::Path;

use botlens_games::GameKind;
use botlens_sandbox::Sandbox;

use super::Toolchain;
use super::{Bot, BuildFailure, BuildRequest, Built, Debugging, LoadError, Ready, Settings, Stage};
use crate::CancelToken;
use crate::build::{self, Stopped};
use crate::project::BotProject;
use crate::scaffold::{Scaffold, ScaffoldError};

/// The program that builds Rust bots.
const CARGO: &str = "cargo";

/// Rust: a row of [`super::TOOLCHAINS`].
#[derive(Debug)]
pub struct Rust;

impl Toolchain for Rust {
    fn name(&self) -> &'static str {
        "rust"
    }

    fn title(&self) -> &'static str {
        "Rust"
    }

    fn about(&self) -> &'static str {
        "A Cargo package with the Rust SDK"
    }

    fn extension(&self) -> &'static str {
        "rs"
    }

    fn is_entry(&self, line: &str) -> bool {
        line.starts_with("impl") && line.contains("Bot for ")
    }

    fn manifest(&self) -> Option<&'static str> {
        Some("Cargo.toml")
    }

    /// Cargo's manifest and settings (`Cargo.toml`, `.cargo/config.toml`,
    /// `rust-toolchain.toml`); not `Cargo.lock`, which cargo itself rewrites while it builds.
    fn also_watched(&self) -> &'static [&'static str] {
        &["*.toml"]
    }

    fn sdk(&self) -> &'static str {
        "sdk"
    }

    fn builder(&self) -> Option<&'static str> {
        Some(CARGO)
    }

    fn debugging(&self) -> Debugging {
        Debugging::Debugger
    }

    fn load(&self, path: &Path, _game: Option<GameKind>) -> Result<Box<dyn Bot>, LoadError> {
        Ok(Box::new(RustBot(BotProject::load(path)?)))
    }

    fn scaffold(
        &self,
        game: GameKind,
        dir: &Path,
        sdk: Option<&Path>,
    ) -> Result<Scaffold, ScaffoldError> {
        crate::scaffold::scaffold(game, dir, sdk)
    }

    fn example_file(&self, _path: &Path) -> String {
        "src/lib.rs".into()
    }
}

/// A Rust bot: its project.
#[derive(Debug)]
struct RustBot(BotProject);

impl Bot for RustBot {
    fn name(&self) -> &str {
        &self.0.name
    }

    fn settings(&self) -> Settings<'_> {
        Settings::Project(&self.0)
    }

    fn source(&self) -> &Path {
        &self.0.root
    }

    fn build(
        &self,
        sandbox: &Sandbox,
        request: &BuildRequest<'_>,
        progress: &(dyn Fn(Stage) + Sync),
        cancel: &CancelToken,
    ) -> Result<Ready, BuildFailure> {
        progress(Stage::Building { tool: CARGO });
        let mut project = self.0.clone();
        if let Some(seconds) = request.timeout_secs {
            project.config.build_timeout_secs = Some(seconds);
        }
        let build = || build::build_with(&project, request.target_dir, request.debug_info, cancel);
        let install = || {
            super::ensure_wasm_target(&mut || progress(Stage::InstallingTarget))?;
            progress(Stage::Building { tool: CARGO });
            Ok(())
        };
        let built =
            build::build_installing_target(build, install).map_err(|stopped| match stopped {
                Stopped::Cancelled => BuildFailure::Cancelled,
                Stopped::Failed(error) => BuildFailure::Build(error),
            })?;
        let built = Built { wasm: built.wasm, warnings: built.warnings, duration: built.duration };
        Ready::load(sandbox, built, progress)
    }
}
