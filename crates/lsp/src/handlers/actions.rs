//! Code actions on botlens's diagnostics: "debug this game" (in languages a debugger stops in)
//! and "replay this game", the commands of the lenses ([`lens::DEBUG`], [`lens::REPLAY`]) with
//! the diagnostic's game (its data's opponent and seed).

use std::sync::Arc;

use botlens_bots::toolchain::{Debugging, Lang};
use serde_json::json;
use tower_lsp_server::jsonrpc;
use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CodeActionResponse, Command,
};

use super::diagnostics::SOURCE;
use super::lens;
use crate::session::{ServerSession, uri_path};

/// `textDocument/codeAction`: for each botlens diagnostic in the request's context, the
/// commands that debug and replay its game.
pub async fn code_action(
    session: Arc<ServerSession>,
    params: CodeActionParams,
) -> jsonrpc::Result<Option<CodeActionResponse>> {
    let Some(path) = uri_path(&params.text_document.uri) else { return Ok(None) };
    let Some(root) = session.state().project_of(&path) else { return Ok(None) };
    let debuggable =
        Lang::detect(&root).is_some_and(|lang| lang.debugging() == Debugging::Debugger);
    let mut actions = Vec::new();
    for diagnostic in &params.context.diagnostics {
        let data =
            diagnostic.data.as_ref().filter(|_| diagnostic.source.as_deref() == Some(SOURCE));
        let Some(data) = data else { continue };
        let (Some(opponent), Some(seed)) = (data["opponent"].as_str(), data["seed"].as_u64())
        else {
            continue;
        };
        let game = format!("seed {seed} vs {opponent}");
        let action = |title: String, command: &str| {
            CodeActionOrCommand::CodeAction(CodeAction {
                title: title.clone(),
                kind: Some(CodeActionKind::EMPTY),
                diagnostics: Some(vec![diagnostic.clone()]),
                command: Some(Command {
                    title,
                    command: command.to_owned(),
                    arguments: Some(vec![json!(root), json!(opponent), json!(seed)]),
                }),
                ..CodeAction::default()
            })
        };
        if debuggable {
            actions.push(action(format!("botlens: debug this game ({game})"), lens::DEBUG));
        }
        actions.push(action(format!("botlens: replay this game ({game})"), lens::REPLAY));
    }
    Ok((!actions.is_empty()).then_some(actions))
}
