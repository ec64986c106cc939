//! Runs on save: debounce, build, play the suite on a blocking thread, publish.
//!
//! Every scheduled run bumps its project's generation and cancels the run in flight, and builds
//! only once that run has stopped (its build's processes ended: one build per project at a
//! time, however fast the saves come); a run publishes only if its generation is still current when it finishes, under the session's
//! publish lock, so stale results never replace newer ones. Progress goes to the client as
//! `$/progress` (when it supports work-done progress), timings as `window/logMessage`, and a
//! failed build or a crashed run as `window/showMessage`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use botlens_bots::build::BuildError;
use botlens_bots::toolchain;
use botlens_harness::report::FailureGroup;
use botlens_harness::{
    BotProject, CancelToken, RunError, RunOptions, Stage, SuiteRun, Target, pipeline,
};
use botlens_replay::Replay;
use tokio::sync::mpsc;
use tower_lsp_server::ls_types::notification::Progress;
use tower_lsp_server::ls_types::{
    Diagnostic, DidChangeWatchedFilesParams, DidOpenTextDocumentParams, DidSaveTextDocumentParams,
    MessageType, NumberOrString, ProgressParams, ProgressParamsValue, WorkDoneProgress,
    WorkDoneProgressBegin, WorkDoneProgressEnd, WorkDoneProgressReport,
};

use super::{analyze, diagnostics, live};
use crate::position::PositionEncoding;
use crate::session::{LatestRun, ServerSession, uri_path};

/// How long a save waits for more saves before the run starts.
pub const DEBOUNCE: Duration = Duration::from_millis(150);

/// `textDocument/didOpen`: remembers the client's URI; the first open in a project that never
/// ran starts a run, so results show without a save.
pub async fn did_open(session: Arc<ServerSession>, params: DidOpenTextDocumentParams) {
    let Some(path) = uri_path(&params.text_document.uri) else { return };
    let root = {
        let mut state = session.state();
        state.remember_uri(path.clone(), params.text_document.uri);
        state.project_of(&path).filter(|root| state.projects[root].generation == 0)
    };
    if let Some(root) = root {
        schedule(&session, &root);
    }
}

/// `textDocument/didSave`: reruns the project of the saved file.
pub async fn did_save(session: Arc<ServerSession>, params: DidSaveTextDocumentParams) {
    let Some(path) = uri_path(&params.text_document.uri) else { return };
    changed(&session, std::slice::from_ref(&path)).await;
    // After `changed`, which may have found the file's project; the run reads it later.
    session.state().remember_uri(path, params.text_document.uri);
}

/// `workspace/didChangeWatchedFiles`: reruns the projects of the changed files.
pub async fn did_change_watched_files(
    session: Arc<ServerSession>,
    params: DidChangeWatchedFilesParams,
) {
    let paths: Vec<PathBuf> = params.changes.iter().filter_map(|c| uri_path(&c.uri)).collect();
    changed(&session, &paths).await;
}

/// Schedules a run of every project containing one of `paths` (build output under `target/`
/// does not count), finding projects not seen before.
async fn changed(session: &Arc<ServerSession>, paths: &[PathBuf]) {
    let mut roots = BTreeSet::new();
    let mut outside = Vec::new();
    for path in paths {
        let known = session.state().project_of(path);
        let root = match known {
            Some(root) => Some(root),
            None => match toolchain::find_project(path) {
                Ok(Some(project)) => Some(session.state().add_project(project)),
                Ok(None) => None,
                Err(error) => {
                    let text = format!("botlens: {error}");
                    session.client.show_message(MessageType::ERROR, text).await;
                    continue;
                }
            },
        };
        match root {
            Some(root) if !path.starts_with(root.join("target")) => {
                roots.insert(root);
            }
            Some(_) => {}
            None => outside.push(path.display().to_string()),
        }
    }
    if !outside.is_empty() {
        let text = format!("botlens: not in a bot project, nothing to run: {}", outside.join(", "));
        session.client.log_message(MessageType::LOG, text).await;
    }
    for root in roots {
        schedule(session, &root);
    }
}

/// Starts a new run of the project at `root`, cancelling the one in flight.
pub fn schedule(session: &Arc<ServerSession>, root: &Path) {
    let ticket = {
        let mut state = session.state();
        let Some(project) = state.projects.get_mut(root) else { return };
        project.cancel.cancel();
        project.cancel = CancelToken::new();
        project.generation += 1;
        if let Some(live) = &project.live {
            live.running(u32::try_from(project.generation).unwrap_or(u32::MAX), "save");
        }
        (project.generation, project.cancel.clone())
    };
    let (generation, cancel) = ticket;
    tokio::spawn(run(session.clone(), root.to_path_buf(), generation, cancel));
}

/// Whether `generation` is still the project's latest.
fn current(session: &ServerSession, root: &Path, generation: u64) -> bool {
    session.state().projects.get(root).is_some_and(|p| p.generation == generation)
}

/// What a run on the blocking thread hands back to publish.
struct Finished {
    files: BTreeMap<PathBuf, Vec<Diagnostic>>,
    outcome: LatestRun,
    /// The played run, whole, for the live view.
    run: Option<Arc<SuiteRun>>,
    log: String,
    problem: Option<String>,
}

async fn run(session: Arc<ServerSession>, root: PathBuf, generation: u64, cancel: CancelToken) {
    tokio::time::sleep(DEBOUNCE).await;
    if !current(&session, &root, generation) {
        return;
    }
    let project = match toolchain::load_project(&root) {
        Ok(project) => project,
        Err(error) => {
            let text = format!("botlens: {error}");
            session.client.show_message(MessageType::ERROR, text).await;
            return;
        }
    };
    let caps = session.caps.clone();
    let (settings, encoding, uris, progress_supported, previous, building) = {
        let state = session.state();
        let known = state.projects.get(&root);
        let previous = known.and_then(|p| p.latest.clone());
        let building = known.map(|p| p.building.clone()).unwrap_or_default();
        (
            state.settings.clone(),
            state.encoding,
            state.uris.clone(),
            state.client.progress,
            previous,
            building,
        )
    };
    let progress = Reporter::begin(&session, progress_supported, &project.name, generation).await;
    let (sender, mut stages) = mpsc::unbounded_channel();
    let work = tokio::task::spawn_blocking(move || {
        let report = move |stage| {
            let _ = sender.send(stage);
        };
        let _one_at_a_time = building.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if cancel.is_cancelled() {
            return None;
        }
        let asked = Asked {
            options: settings.run_options(&caps),
            publish_build_errors: settings.publish_build_errors,
        };
        play(&project, &asked, encoding, &uris, previous.as_deref(), &report, &cancel)
    });
    let mut last = None;
    while let Some(stage) = stages.recv().await {
        if last != Some(stage_percent(stage)) {
            last = Some(stage_percent(stage));
            progress.report(stage).await;
        }
    }
    let finished = match work.await {
        Ok(Some(finished)) => finished,
        Ok(None) => {
            progress.end("cancelled by a newer change").await;
            return;
        }
        Err(error) => Finished {
            files: BTreeMap::new(),
            outcome: LatestRun::Failed("the run crashed".into()),
            run: None,
            log: String::new(),
            problem: Some(format!("the run crashed: {}", super::panic_message(error))),
        },
    };
    let summary = match &finished.problem {
        Some(problem) => problem.clone(),
        None => "done".to_owned(),
    };
    publish(&session, &root, generation, finished).await;
    progress.end(&summary).await;
}

/// What a run is asked to do: the client's settings as the harness's options (within the
/// user's caps), and whether compiler errors become diagnostics.
struct Asked {
    options: RunOptions,
    publish_build_errors: bool,
}

/// Builds and plays on the blocking thread, in the process's one sandbox (so modules compiled
/// for an earlier save stay compiled); `None` when cancelled.
fn play(
    project: &BotProject,
    asked: &Asked,
    encoding: PositionEncoding,
    uris: &BTreeMap<PathBuf, tower_lsp_server::ls_types::Uri>,
    previous: Option<&LatestRun>,
    progress: &(dyn Fn(Stage) + Sync),
    cancel: &CancelToken,
) -> Option<Finished> {
    let target = Target::of_dir(&project.root);
    let result = pipeline::sandbox()
        .and_then(|sandbox| pipeline::run(&sandbox, &target, &asked.options, progress, cancel));
    let failed = |files, problem: String| {
        Some(Finished {
            files,
            outcome: LatestRun::Failed(problem.lines().next().unwrap_or_default().to_owned()),
            run: None,
            log: String::new(),
            problem: Some(format!("{}: {problem}", project.name)),
        })
    };
    match result {
        Ok(run) => Some(played(project, run, encoding, uris, previous)),
        Err(RunError::Cancelled) => None,
        Err(RunError::Build(BuildError::Compile(messages))) => {
            let errors = messages.iter().filter(|m| m.level == "error").count();
            let files = if asked.publish_build_errors {
                diagnostics::build_diagnostics(&project.root, &messages, encoding)
            } else {
                BTreeMap::new()
            };
            let first =
                messages.iter().find(|m| m.level == "error").map_or("", |m| m.message.as_str());
            let errors =
                if errors == 1 { "1 error".to_owned() } else { format!("{errors} errors") };
            failed(files, format!("does not compile ({errors}; first: {first})"))
        }
        Err(other) => failed(BTreeMap::new(), other.to_string()),
    }
}

/// Turns a finished run into diagnostics, hovers and a log line.
fn played(
    project: &BotProject,
    run: SuiteRun,
    encoding: PositionEncoding,
    uris: &BTreeMap<PathBuf, tower_lsp_server::ls_types::Uri>,
    previous: Option<&LatestRun>,
) -> Finished {
    let root = &project.root;
    let uri_for = |path: &Path| {
        uris.get(path).cloned().or_else(|| tower_lsp_server::ls_types::Uri::from_file_path(path))
    };
    let mut files = diagnostics::failure_diagnostics(root, &run.report, encoding, &uri_for);
    if let Some(LatestRun::Played { report: before, .. }) = previous {
        diagnostics::note_moves(&mut files, before, &run.report);
    }
    let mut hovers = BTreeMap::new();
    for group in &run.report.failures {
        let Some(location) = &group.location else { continue };
        let key = (diagnostics::resolve(root, &location.file), location.line.saturating_sub(1));
        hovers.entry(key).or_insert_with(|| hover_for(root, &run, group));
    }
    let t = run.timings;
    let log = format!(
        "botlens: {}: build {:.2} s, module {:.2} s, {} games {:.2} s; {}; {} failure groups",
        project.name,
        t.build.as_secs_f64(),
        t.load.as_secs_f64(),
        run.report.games,
        t.games.as_secs_f64(),
        diagnostics::scores(&run.report),
        run.report.failures.len(),
    );
    Finished {
        files,
        outcome: LatestRun::Played { report: run.report.clone(), hovers },
        run: Some(Arc::new(run)),
        log,
        problem: None,
    }
}

/// The hover of a group: its first game replayed to the failing move.
fn hover_for(root: &Path, run: &SuiteRun, group: &FailureGroup) -> String {
    let opponent = run.suite.opponents.iter().position(|o| o.name() == group.first_opponent);
    let trace = opponent
        .and_then(|opponent| run.results.kept_game(opponent, group.first_seed))
        .and_then(|game| game.trace.as_ref());
    let replay = trace.and_then(|t| Replay::from_trace(t, Some(root)).ok());
    let Some((replay, index)) = replay.as_ref().and_then(|r| Some((r, r.failure_frame()?))) else {
        return diagnostics::hover_text(group, None, &[], None);
    };
    match replay.frames.get(index) {
        Some(frame) => {
            let marks = replay.marks_text(index);
            diagnostics::hover_text(group, Some(&frame.board), &frame.logs, marks.as_deref())
        }
        None => diagnostics::hover_text(group, None, &[], None),
    }
}

/// Publishes a finished run if it is still the latest, clearing files that had diagnostics
/// before and have none now.
async fn publish(session: &ServerSession, root: &Path, generation: u64, finished: Finished) {
    let order = session.publishing.lock().await;
    let mut telling = None;
    let sends = {
        let mut state = session.state();
        let encoding = state.encoding;
        let Some(project) = state.projects.get_mut(root) else { return };
        if project.generation != generation {
            return;
        }
        // Every file of the last run stays in the map (empty when it has nothing now), so the
        // merge clears it.
        let mut published: BTreeMap<PathBuf, Vec<Diagnostic>> =
            project.published.keys().map(|path| (path.clone(), Vec::new())).collect();
        published.extend(finished.files);
        project.published = published;
        let sends = analyze::merged(project, None, root, encoding);
        project.published.retain(|_, diagnostics| !diagnostics.is_empty());
        project.finish(finished.outcome);
        project.last_run = finished.run.or_else(|| project.last_run.take());
        if let Some(live) = &project.live {
            let latest = project.latest.clone();
            let live = (Arc::clone(live), latest, project.last_run.clone());
            telling = Some(live);
        }
        state.addressed(sends)
    };
    for (uri, diagnostics) in sends {
        session.client.publish_diagnostics(uri, diagnostics, None).await;
    }
    if let Some((live, latest, run)) = telling {
        // Replays are rendered off the async threads, and not under the state's lock.
        let root = root.to_path_buf();
        let _ = tokio::task::spawn_blocking(move || {
            live::tell(&live, generation, latest.as_deref(), run.as_deref(), &root);
        })
        .await;
    }
    if !finished.log.is_empty() {
        session.client.log_message(MessageType::INFO, &finished.log).await;
    }
    if let Some(problem) = &finished.problem {
        session.client.show_message(MessageType::ERROR, format!("botlens: {problem}")).await;
    }
    drop(order);
    if session.state().client.code_lens_refresh {
        let _ = super::answered(session.client.code_lens_refresh()).await;
    }
}

/// The percentage shown for a stage: installing, setting up and building 0, loading 10,
/// playing 10–100.
fn stage_percent(stage: Stage) -> u32 {
    match stage {
        Stage::InstallingTarget | Stage::SettingUp { .. } | Stage::Building { .. } => 0,
        Stage::Loading => 10,
        Stage::Playing { done, total } => 10 + (90 * done / total.max(1)) as u32,
    }
}

fn stage_text(stage: Stage) -> String {
    match stage {
        Stage::InstallingTarget => "installing the wasm32-wasip1 target (once)".to_owned(),
        Stage::SettingUp { what } => what.to_owned(),
        Stage::Building { tool } => format!("building with {tool}"),
        Stage::Loading => "loading the module".to_owned(),
        Stage::Playing { done, total } => format!("playing {done}/{total} games"),
    }
}

/// Work-done progress of one run; silent when the client does not support it.
struct Reporter<'a> {
    session: &'a ServerSession,
    token: Option<NumberOrString>,
}

impl<'a> Reporter<'a> {
    async fn begin(
        session: &'a ServerSession,
        supported: bool,
        name: &str,
        generation: u64,
    ) -> Reporter<'a> {
        let token = NumberOrString::String(format!("botlens/{name}/{generation}"));
        let created = supported
            && super::answered(session.client.create_work_done_progress(token.clone()))
                .await
                .is_ok();
        let reporter = Reporter { session, token: created.then_some(token) };
        reporter
            .send(WorkDoneProgress::Begin(WorkDoneProgressBegin {
                title: format!("botlens: {name}"),
                cancellable: Some(false),
                message: Some("waiting for cargo".into()),
                percentage: Some(0),
            }))
            .await;
        reporter
    }

    async fn report(&self, stage: Stage) {
        self.send(WorkDoneProgress::Report(WorkDoneProgressReport {
            cancellable: Some(false),
            message: Some(stage_text(stage)),
            percentage: Some(stage_percent(stage)),
        }))
        .await;
    }

    async fn end(&self, message: &str) {
        self.send(WorkDoneProgress::End(WorkDoneProgressEnd { message: Some(message.to_owned()) }))
            .await;
    }

    async fn send(&self, value: WorkDoneProgress) {
        if let Some(token) = &self.token {
            let params = ProgressParams {
                token: token.clone(),
                value: ProgressParamsValue::WorkDone(value),
            };
            self.session.client.send_notification::<Progress>(params).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_climbs_from_building_to_the_last_game() {
        assert_eq!(stage_percent(Stage::Building { tool: "clang" }), 0);
        assert_eq!(stage_text(Stage::Building { tool: "clang" }), "building with clang");
        assert_eq!(stage_percent(Stage::Loading), 10);
        assert_eq!(stage_percent(Stage::Playing { done: 60, total: 120 }), 55);
        assert_eq!(stage_percent(Stage::Playing { done: 120, total: 120 }), 100);
        assert_eq!(stage_text(Stage::Playing { done: 3, total: 9 }), "playing 3/9 games");
    }
}
