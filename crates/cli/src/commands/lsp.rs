//! `botlens lsp`: the language server over standard input and output, for editors.
//!
//! Standard output carries the protocol, so nothing else may print there; the server reports
//! through the client (`window/logMessage`, `window/showMessage`).

use std::process::ExitCode;

use anyhow::Context as _;
use clap::Args;

use crate::shared::caps_args::CapArgs;

/// Arguments of `botlens lsp`: the caps on the projects' limits (editors pass their settings as
/// `initializationOptions`; caps are not among them, a workspace may carry its editor's settings).
#[derive(Debug, Args)]
#[command(after_help = format!("{}

Examples (editors start it themselves: editors/ has VS Code, Neovim and Helix set-ups):
  botlens lsp                              serve the editor that started it
  botlens lsp < requests.txt > answers.txt Content-Length-framed JSON-RPC, as an editor sends

Exit status: 0 after the client's shutdown, 1 when it exits or hangs up without one.",
    botlens_lsp::settings::SETTINGS_HELP))]
pub struct LspArgs {
    #[command(flatten)]
    caps: CapArgs,
}

/// Serves one editor over stdio until it exits: status 0 after `shutdown`, else 1 (as the
/// protocol asks of `exit` without `shutdown`; the same when the editor just goes away).
pub fn run(args: LspArgs) -> anyhow::Result<ExitCode> {
    let caps = args.caps.caps()?;
    let ending = botlens_lsp::serve_stdio(caps).context("cannot start the language server")?;
    Ok(match ending {
        botlens_lsp::Ending::ShutDown => ExitCode::SUCCESS,
        botlens_lsp::Ending::Abandoned => ExitCode::FAILURE,
    })
}
