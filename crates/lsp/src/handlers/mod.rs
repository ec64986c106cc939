//! Handlers: free functions over the [`ServerSession`], one module per feature.
//!
//! Every handler runs on its own task through [`guard`] (requests) or [`guard_notification`]
//! (notifications), so a panic in one becomes an LSP error or a logged message and the server
//! keeps serving; a request of the server's own waits for the client's answer through
//! [`answered`], so a client that never answers cannot hold anything up.

pub mod actions;
pub mod analyze;
pub mod diagnostics;
pub mod hover;
pub mod lens;
pub mod lifecycle;
pub mod live;
pub mod profile;
pub mod run;

use std::any::Any;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tower_lsp_server::jsonrpc;
use tower_lsp_server::ls_types::MessageType;

use crate::session::ServerSession;

/// How long the server waits for the client to answer a request of its own.
pub const CLIENT_ANSWER: Duration = Duration::from_secs(5);

/// The client's answer to a request of the server's, or an error once [`CLIENT_ANSWER`] has
/// passed without one.
pub async fn answered<T>(request: impl Future<Output = jsonrpc::Result<T>>) -> jsonrpc::Result<T> {
    tokio::time::timeout(CLIENT_ANSWER, request).await.unwrap_or_else(|_| {
        let mut silent = jsonrpc::Error::internal_error();
        silent.message = format!("no answer from the client within {CLIENT_ANSWER:?}").into();
        Err(silent)
    })
}

/// Runs a request handler on its own task; a panic becomes an internal error naming `method`.
pub async fn guard<T, F>(method: &str, work: F) -> jsonrpc::Result<T>
where
    T: Send + 'static,
    F: Future<Output = jsonrpc::Result<T>> + Send + 'static,
{
    tokio::spawn(work).await.unwrap_or_else(|error| {
        let mut failure = jsonrpc::Error::internal_error();
        failure.message = format!("botlens: {method} failed: {}", panic_message(error)).into();
        Err(failure)
    })
}

/// Runs a notification handler on its own task; a panic is logged to the client.
pub async fn guard_notification<F>(session: &Arc<ServerSession>, method: &str, work: F)
where
    F: Future<Output = ()> + Send + 'static,
{
    if let Err(error) = tokio::spawn(work).await {
        let text = format!("botlens: {method} failed: {}", panic_message(error));
        session.client.log_message(MessageType::ERROR, text).await;
    }
}

/// Runs a command's long `work` (it plays a suite) on a blocking thread: its error as invalid
/// params, a panic as an internal error, each message led by the command's `name`.
pub async fn on_blocking_thread<T: Send + 'static>(
    name: &str,
    work: impl FnOnce() -> Result<T, String> + Send + 'static,
) -> jsonrpc::Result<T> {
    match tokio::task::spawn_blocking(work).await {
        Ok(Ok(done)) => Ok(done),
        Ok(Err(message)) => Err(jsonrpc::Error::invalid_params(format!("{name}: {message}"))),
        Err(error) => {
            let mut failure = jsonrpc::Error::internal_error();
            failure.message = format!("{name} crashed: {}", panic_message(error)).into();
            Err(failure)
        }
    }
}

/// What a task that did not finish said: its panic message, or that it was cancelled.
pub fn panic_message(error: tokio::task::JoinError) -> String {
    match error.try_into_panic() {
        Ok(payload) => payload_text(payload.as_ref()),
        Err(_) => "the task was cancelled".to_owned(),
    }
}

fn payload_text(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        format!("internal error: {text}")
    } else if let Some(text) = payload.downcast_ref::<String>() {
        format!("internal error: {text}")
    } else {
        "internal error".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_panicking_handler_becomes_an_internal_error() {
        let answer: jsonrpc::Result<()> =
            guard("textDocument/hover", async { panic!("bad index 7") }).await;
        let error = answer.unwrap_err();
        assert_eq!(error.code, jsonrpc::ErrorCode::InternalError);
        assert_eq!(
            error.message,
            "botlens: textDocument/hover failed: internal error: bad index 7"
        );
        let fine = guard("textDocument/hover", async { Ok(3) }).await;
        assert_eq!(fine, Ok(3));
    }
}
