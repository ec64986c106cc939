//! The botlens language server: suite results inline in the editor, refreshed on save.
//!
//! On every save in a bot project the server debounces, builds the bot, plays its suite (through
//! `botlens-harness`, on a blocking thread) and publishes what came out:
//!
//! - a diagnostic per failure group at the bot's source line (`illegal move attack(10, 3): x out
//!   of range — lost 3/50 vs hunter (seeds 4, 17, 31), first at turn 23`), and compiler errors
//!   when the build fails;
//! - a code lens above `impl Bot for …` with the latest scores and the commands `botlens.rerun`
//!   and `botlens.replay`;
//! - a hover on a failing line: the board at the failing move and the bot's log lines of that
//!   turn;
//! - `$/progress` while building and playing, `window/logMessage` with timings.
//!
//! # Example
//!
//! ```no_run
//! // What `botlens lsp` does: serve the editor over standard input and output.
//! botlens_lsp::serve_stdio()?;
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! Layout: [`server`] implements the protocol trait with one-line delegations; [`session`] holds
//! the state (projects, their latest results, settings); `handlers` are free functions over the
//! session, each run so that a panic becomes an LSP error instead of a dead server.
//!
//! This is the only crate that speaks JSON-RPC; it knows nothing of wasmtime or game rules.

mod framing;
mod handlers;
pub mod position;
pub mod server;
pub mod session;
pub mod settings;

use tokio::io::{AsyncRead, AsyncWrite, BufReader};
use tower_lsp_server::{LspService, Server};

pub use server::Backend;

/// Serves one client over `input` and `output` until it exits (used by tests over pipes).
///
/// Malformed messages are reported to the client and skipped; they never end the connection.
pub async fn serve<I, O>(input: I, output: O)
where
    I: AsyncRead + Unpin + Send + 'static,
    O: AsyncWrite,
{
    let (service, socket) = LspService::build(Backend::new)
        .custom_method(framing::MALFORMED, Backend::malformed_message)
        .finish();
    let (checked, reader) = tokio::io::duplex(1 << 16);
    // The guard ends when the client closes its side; the server then sees the end of input.
    tokio::spawn(framing::sanitize(BufReader::new(input), checked));
    Server::new(reader, output, socket).serve(service).await;
}

/// Serves one client over standard input and output on a fresh runtime, until it exits.
///
/// On exit the runtime is dropped without waiting: a read of standard input blocks a thread
/// until the client closes it, and a cancelled build may still be winding down.
pub fn serve_stdio() -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(serve(tokio::io::stdin(), tokio::io::stdout()));
    runtime.shutdown_background();
    Ok(())
}
