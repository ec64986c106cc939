//! `textDocument/hover`: on a failing line, the board at the failing move and the bot's log lines
//! of that turn (prepared when the run finished; see [`super::run`]).

use std::sync::Arc;

use tower_lsp_server::jsonrpc;
use tower_lsp_server::ls_types::{Hover, HoverContents, HoverParams, MarkupContent, MarkupKind};

use crate::session::{LatestRun, ServerSession, uri_path};

/// The hover at a position: `None` off failure lines, for unknown files, or before a run.
pub async fn hover(
    session: Arc<ServerSession>,
    params: HoverParams,
) -> jsonrpc::Result<Option<Hover>> {
    let place = params.text_document_position_params;
    let Some(path) = uri_path(&place.text_document.uri) else { return Ok(None) };
    let state = session.state();
    let Some(root) = state.project_of(&path) else { return Ok(None) };
    let Some(latest) = state.projects[&root].latest.clone() else { return Ok(None) };
    let LatestRun::Played { hovers, .. } = latest.as_ref() else { return Ok(None) };
    Ok(hovers.get(&(path, place.position.line)).map(|text| Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: text.clone(),
        }),
        range: None,
    }))
}
