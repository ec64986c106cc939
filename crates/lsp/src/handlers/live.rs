//! The live view from the editor (`botlens.live`): the project's latest run, its failures and
//! their replays in a browser, updated after each save (`botlens-live`). The server starts it the
//! first time it is asked for, tells it of every run from then on, and asks the client to open
//! it (`window/showDocument`, external); the command answers its address either way.

use std::path::Path;
use std::sync::Arc;

use botlens_harness::SuiteRun;
use botlens_live::LiveView;
use serde_json::{Value, json};
use tower_lsp_server::jsonrpc;
use tower_lsp_server::ls_types::{ShowDocumentParams, Uri};

use crate::session::{LatestRun, ServerSession};

/// Opens the live view of the project at `root`: answers its address.
pub async fn open(session: Arc<ServerSession>, root: &Path) -> jsonrpc::Result<Option<Value>> {
    let (live, latest, last_run, generation) = {
        let mut state = session.state();
        let Some(project) = state.projects.get_mut(root) else {
            let message = format!("botlens.live: no bot project at {}", root.display());
            return Err(jsonrpc::Error::invalid_params(message));
        };
        let started = match &project.live {
            Some(live) => Arc::clone(live),
            None => {
                let live = LiveView::start(&project.project.name, 0).map_err(|error| {
                    let mut failed = jsonrpc::Error::internal_error();
                    failed.message =
                        format!("botlens.live: cannot serve the live view: {error}").into();
                    failed
                })?;
                let live = Arc::new(live);
                project.live = Some(Arc::clone(&live));
                live
            }
        };
        (started, project.latest.clone(), project.last_run.clone(), project.generation)
    };
    let url = live.url().to_owned();
    let shown = root.to_path_buf();
    let _ = tokio::task::spawn_blocking(move || {
        tell(&live, generation, latest.as_deref(), last_run.as_deref(), &shown);
    })
    .await;
    if let Ok(uri) = url.parse::<Uri>() {
        let params = ShowDocumentParams {
            uri,
            external: Some(true),
            take_focus: Some(true),
            selection: None,
        };
        // A client that cannot open it still has the address the command answers.
        let _ = super::answered(session.client.show_document(params)).await;
    }
    Ok(Some(json!(url)))
}

/// Tells the project's live view, if it has one, of its run `generation`: played (`run`), or
/// failed (`latest`), or under way (neither).
pub fn tell(
    live: &LiveView,
    generation: u64,
    latest: Option<&LatestRun>,
    run: Option<&SuiteRun>,
    root: &Path,
) {
    let number = u32::try_from(generation).unwrap_or(u32::MAX);
    match (latest, run) {
        (Some(LatestRun::Played { .. }), Some(run)) => live.finished(number, "save", run, root),
        (Some(LatestRun::Failed(why)), _) => live.failed(number, "save", why),
        _ => live.running(number, "save"),
    }
}
