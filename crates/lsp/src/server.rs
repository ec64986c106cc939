//! The protocol surface: [`Backend`] implements `LanguageServer` by delegating every method, in
//! one line, to a handler run under a panic guard. No logic lives here.

use std::sync::Arc;

use serde_json::Value;
use tower_lsp_server::ls_types::{
    CodeActionParams, CodeActionResponse, CodeLens, CodeLensParams, DidChangeConfigurationParams,
    DidChangeWatchedFilesParams, DidOpenTextDocumentParams, DidSaveTextDocumentParams,
    ExecuteCommandParams, Hover, HoverParams, InitializeParams, InitializeResult,
    InitializedParams,
};
use tower_lsp_server::{Client, LanguageServer, jsonrpc};

use botlens_bots::caps::LimitCaps;

use crate::handlers::{actions, guard, guard_notification, hover, lens, lifecycle, run};
use crate::session::ServerSession;

/// The botlens language server, one per client connection.
pub struct Backend {
    session: Arc<ServerSession>,
}

impl Backend {
    /// A server talking to `client`, within the user's `caps`.
    pub fn new(client: Client, caps: LimitCaps) -> Backend {
        Backend { session: ServerSession::new(client, caps) }
    }

    /// The session this server serves (to read how the connection ended).
    pub fn session(&self) -> Arc<ServerSession> {
        self.session.clone()
    }

    /// `botlens/malformedMessage`: a frame the client sent could not be read (see `framing`).
    pub async fn malformed_message(&self, params: Value) {
        guard_notification(
            &self.session,
            "malformedMessage",
            lifecycle::malformed_message(self.session.clone(), params),
        )
        .await;
    }
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> jsonrpc::Result<InitializeResult> {
        guard("initialize", lifecycle::initialize(self.session.clone(), params)).await
    }

    async fn initialized(&self, params: InitializedParams) {
        guard_notification(
            &self.session,
            "initialized",
            lifecycle::initialized(self.session.clone(), params),
        )
        .await;
    }

    async fn shutdown(&self) -> jsonrpc::Result<()> {
        guard("shutdown", lifecycle::shutdown(self.session.clone())).await
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        guard_notification(&self.session, "didOpen", run::did_open(self.session.clone(), params))
            .await;
    }

    async fn did_save(&self, params: DidSaveTextDocumentParams) {
        guard_notification(&self.session, "didSave", run::did_save(self.session.clone(), params))
            .await;
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        guard_notification(
            &self.session,
            "didChangeWatchedFiles",
            run::did_change_watched_files(self.session.clone(), params),
        )
        .await;
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        guard_notification(
            &self.session,
            "didChangeConfiguration",
            lifecycle::did_change_configuration(self.session.clone(), params),
        )
        .await;
    }

    async fn hover(&self, params: HoverParams) -> jsonrpc::Result<Option<Hover>> {
        guard("hover", hover::hover(self.session.clone(), params)).await
    }

    async fn code_lens(&self, params: CodeLensParams) -> jsonrpc::Result<Option<Vec<CodeLens>>> {
        guard("codeLens", lens::code_lens(self.session.clone(), params)).await
    }

    async fn code_action(
        &self,
        params: CodeActionParams,
    ) -> jsonrpc::Result<Option<CodeActionResponse>> {
        guard("codeAction", actions::code_action(self.session.clone(), params)).await
    }

    async fn execute_command(
        &self,
        params: ExecuteCommandParams,
    ) -> jsonrpc::Result<Option<Value>> {
        guard("executeCommand", lens::execute_command(self.session.clone(), params)).await
    }
}
