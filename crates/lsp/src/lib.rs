//! The botlens language server: suite results inline in the editor, refreshed on save.
//!
//! On every save in a bot project the server debounces, builds the bot, plays its suite (through
//! `botlens-harness`, on a blocking thread) and publishes what came out:
//!
//! - a diagnostic per failure group at the bot's source line, its first line short
//!   (`illegal move attack(10, 3): x out of range`) and the games on the next (`lost 3/50 vs
//!   hunter (seeds 4, 17, 31); first at move 23 (the bot's turn 12)`), and compiler errors when
//!   the build fails;
//! - a code lens above `impl Bot for …` with the latest scores and the commands `botlens.rerun`,
//!   `botlens.replay` and `botlens.debug` (the last two answer a command line, for the worst
//!   game or the one a diagnostic's data names);
//! - a hover on a failing line: the board at the failing move and the bot's log lines of that
//!   turn;
//! - `$/progress` while building and playing, `window/logMessage` with timings.
//!
//! # Example
//!
//! ```no_run
//! // What `botlens lsp` does: serve the editor over standard input and output.
//! // Exit 0 after `shutdown`, else 1, as the protocol asks.
//! let caps = botlens_bots::caps::LimitCaps::default();
//! let ending = botlens_lsp::serve_stdio(caps)?;
//! std::process::exit(if ending == botlens_lsp::Ending::ShutDown { 0 } else { 1 });
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! Layout: `framing` guards the wire (no message the client sends can stop the server reading);
//! [`server`] implements the protocol trait with one-line delegations; [`session`] holds
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

use std::time::Duration;

use botlens_bots::caps::LimitCaps;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::mpsc;
use tower_lsp_server::{LspService, Server};

pub use server::Backend;

/// How long the server may still finish what it was doing once the client's input is over (at
/// its end or after `exit`): a handler waiting for an answer from the client would wait forever.
const LINGER: Duration = Duration::from_secs(1);

/// Bytes in flight between the guards and the framework.
const PIPE: usize = 1 << 16;

/// Whole frames waiting for the client's output.
const QUEUE: usize = 64;

/// How a connection ended, which decides the exit status of `botlens lsp`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The client asked for `shutdown` and was answered before it left (status 0).
    ShutDown,
    /// The client sent `exit` or closed its side without a `shutdown` first (status 1).
    Abandoned,
}

/// Serves one client over `input` and `output` until it sends `exit` or closes `input` (used
/// by tests over pipes), the projects' limits within the user's `caps`.
///
/// Malformed messages are answered with an error and skipped; they never end the connection
/// (see `framing`). Once the input is over the server gets a second to finish before it is
/// dropped, requests of its own the client never answered included.
pub async fn serve<I, O>(input: I, output: O, caps: LimitCaps) -> Ending
where
    I: AsyncRead + Unpin + Send + 'static,
    O: AsyncWrite + Unpin + Send + 'static,
{
    let (service, socket) = LspService::build(move |client| Backend::new(client, caps))
        .custom_method(framing::MALFORMED, Backend::malformed_message)
        .finish();
    let session = service.inner().session();
    let (checked, server_input) = tokio::io::duplex(PIPE);
    let (server_output, written) = tokio::io::duplex(PIPE);
    let (outgoing, frames) = mpsc::channel(QUEUE);
    let writer = tokio::spawn(framing::write(frames, output));
    tokio::spawn(framing::tap(written, outgoing.clone()));
    let mut guard = tokio::spawn(framing::guard(input, checked, outgoing, framing::CLIENT));
    let mut server = Box::pin(Server::new(server_input, server_output, socket).serve(service));
    tokio::select! {
        () = &mut server => guard.abort(),
        _ = &mut guard => {
            let _ = tokio::time::timeout(LINGER, &mut server).await;
        }
    }
    // Dropping the server ends its output, so the writer finishes once the rest is written.
    drop(server);
    let _ = tokio::time::timeout(LINGER, writer).await;
    if session.state().shut_down { Ending::ShutDown } else { Ending::Abandoned }
}

/// Serves one client over standard input and output on a fresh runtime, until it exits, the
/// projects' limits within the user's `caps`.
///
/// On exit the runtime is dropped without waiting: a read of standard input blocks a thread
/// until the client closes it, and a cancelled build may still be winding down.
pub fn serve_stdio(caps: LimitCaps) -> std::io::Result<Ending> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let ending = runtime.block_on(serve(tokio::io::stdin(), tokio::io::stdout(), caps));
    runtime.shutdown_background();
    Ok(ending)
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::*;

    fn frame(message: &Value) -> Vec<u8> {
        let body = message.to_string();
        format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
    }

    /// Serves `messages` (then the end of input), each request once the one before is
    /// answered, and returns how it ended and what it wrote.
    async fn session(messages: &[Value]) -> (Ending, String) {
        let (mut client, server_input) = tokio::io::duplex(PIPE);
        let (server_output, mut written) = tokio::io::duplex(PIPE);
        let serving = tokio::spawn(serve(server_input, server_output, LimitCaps::default()));
        let mut output = Vec::new();
        for message in messages {
            client.write_all(&frame(message)).await.unwrap();
            if let Some(id) = message.get("id") {
                let answer = format!(r#""id":{id}}}"#);
                while !String::from_utf8_lossy(&output).contains(&answer) {
                    assert_ne!(written.read_buf(&mut output).await.unwrap(), 0, "no answer");
                }
            }
        }
        drop(client);
        let ending = serving.await.unwrap();
        written.read_to_end(&mut output).await.unwrap();
        (ending, String::from_utf8(output).unwrap())
    }

    #[tokio::test]
    async fn the_ending_says_whether_shutdown_came_first() {
        let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}});
        let shutdown = json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"});
        let exit = json!({"jsonrpc": "2.0", "method": "exit"});
        let (ending, output) = session(&[initialize.clone(), json!([]), exit.clone()]).await;
        assert_eq!(ending, Ending::Abandoned, "{output}");
        assert!(
            output.contains(r#""error":{"code":-32600,"#) && output.contains(r#""id":null"#),
            "{output}"
        );
        let (ending, output) = session(&[initialize, shutdown]).await;
        assert_eq!(ending, Ending::ShutDown, "{output}");
        assert!(output.contains(r#"{"jsonrpc":"2.0","result":null,"id":2}"#), "{output}");
    }
}
