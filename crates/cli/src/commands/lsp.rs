//! `botlens lsp`: the language server over standard input and output, for editors.
//!
//! Standard output carries the protocol, so nothing else may print there; the server reports
//! through the client (`window/logMessage`, `window/showMessage`).

use std::process::ExitCode;

use anyhow::Context as _;
use clap::Args;

/// Arguments of `botlens lsp` (none: editors pass settings as `initializationOptions`).
#[derive(Debug, Args)]
pub struct LspArgs {}

/// Serves one editor over stdio until it exits.
pub fn run(_args: LspArgs) -> anyhow::Result<ExitCode> {
    botlens_lsp::serve_stdio().context("cannot start the language server")?;
    Ok(ExitCode::SUCCESS)
}
