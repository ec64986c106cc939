//! The server's state: the client handle, what was negotiated, the bot projects of the workspace
//! and, per project, its run generation and latest results.
//!
//! All state sits behind one mutex that is never held across an `.await`: handlers lock, copy
//! what they need, unlock, then talk to the client. Not for: protocol plumbing (see
//! [`crate::server`]) or the work itself (the handlers).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use botlens_bots::caps::LimitCaps;
use botlens_harness::analyze::{Analysis, DecisionSite};
use botlens_harness::profile::LineCost;
use botlens_harness::report::SuiteReport;
use botlens_harness::{BotProject, CancelToken, SuiteRun};
use botlens_live::LiveView;
use tower_lsp_server::Client;
use tower_lsp_server::ls_types::{Diagnostic, Uri};

use crate::position::PositionEncoding;
use crate::settings::Settings;

/// One server's state, shared by every handler.
pub struct ServerSession {
    /// Sends notifications and requests to the client.
    pub client: Client,
    /// The user's caps on the limits a project may ask for (`botlens lsp`'s flags and the
    /// user's config file; never the client's settings, which a workspace may carry).
    pub caps: LimitCaps,
    /// Held while a run publishes, so two runs' diagnostics never interleave.
    pub publishing: tokio::sync::Mutex<()>,
    state: Mutex<State>,
}

/// Everything the session knows; see [`ServerSession::state`].
#[derive(Default)]
pub struct State {
    /// The negotiated position encoding.
    pub encoding: PositionEncoding,
    /// The client's settings.
    pub settings: Settings,
    /// What the client can do.
    pub client: ClientSupport,
    /// The workspace folders, as paths.
    pub roots: Vec<PathBuf>,
    /// The bot projects found so far, by root directory.
    pub projects: BTreeMap<PathBuf, ProjectState>,
    /// Whether `initialized` came (it is handled once).
    pub initialized: bool,
    /// Whether the client asked for `shutdown` (and was answered): the exit status is 0 only
    /// then.
    pub shut_down: bool,
    /// The URI the client uses for a file, by canonical path (learned from open and save), so
    /// diagnostics go to the document the editor has open even through symlinks. Only files
    /// that exist in a known project (see [`State::remember_uri`]): a client naming endless
    /// made-up files costs nothing.
    pub uris: BTreeMap<PathBuf, Uri>,
}

/// Optional client features the server uses only when announced.
#[derive(Debug, Clone, Copy, Default)]
pub struct ClientSupport {
    /// `window.workDoneProgress`: the server may create progress tokens.
    pub progress: bool,
    /// `workspace.codeLens.refreshSupport`: lenses can be refreshed after a run.
    pub code_lens_refresh: bool,
    /// `workspace.didChangeWatchedFiles.dynamicRegistration`: the server may ask for file events.
    pub watch_files: bool,
}

/// One bot project and its runs.
pub struct ProjectState {
    /// The project as last loaded.
    pub project: BotProject,
    /// Bumped on every scheduled run; a run publishes only while its generation is current, so
    /// stale results never replace newer ones.
    pub generation: u64,
    /// Cancels the run in flight (replaced on every new run).
    pub cancel: CancelToken,
    /// Held by the run that is building or playing: a newer run waits for the one it cancelled
    /// to have stopped (its build's processes ended), so a project has one build at a time.
    pub building: Arc<Mutex<()>>,
    /// What the latest finished run left.
    pub latest: Option<Arc<LatestRun>>,
    /// The report of the last played run before `latest` (a run that did not build is skipped),
    /// which the code lens compares the latest one with.
    pub previous: Option<SuiteReport>,
    /// The latest run's diagnostics, by file (the files that have them on the client, to
    /// clear later), without the kept decisions' ([`ProjectState::decisions`]).
    pub published: BTreeMap<PathBuf, Vec<Diagnostic>>,
    /// The hottest lines of the project's latest fuel profile (`botlens.profile`), for lenses.
    pub profile: Option<Vec<LineCost>>,
    /// The costliest lines of the project's latest analysis (`botlens.analyze`), for
    /// information diagnostics and lenses.
    pub decisions: Option<Decisions>,
    /// The latest played run, whole: what the live view shows when it is opened.
    pub last_run: Option<Arc<SuiteRun>>,
    /// The live view, once asked for (`botlens.live`): told of every run from then on.
    pub live: Option<Arc<LiveView>>,
}

/// Lines of a decision profile that get a diagnostic and a lens (`botlens.analyze`).
pub const DECISION_LINES: usize = 5;

/// What an analysis leaves for diagnostics and lenses: its costliest lines and what they are
/// measured in.
#[derive(Debug, Clone)]
pub struct Decisions {
    /// The decision profile's first [`DECISION_LINES`] lines.
    pub sites: Vec<DecisionSite>,
    /// The games the bot lost.
    pub lost: u64,
    /// The oracle's unit, singular: `outcome`.
    pub unit: String,
    /// What a costly move is called: `blunder`.
    pub mistake: String,
}

impl Decisions {
    /// The part of `analysis` the editor shows.
    pub fn of(analysis: &Analysis) -> Decisions {
        Decisions {
            sites: analysis.sites.iter().take(DECISION_LINES).cloned().collect(),
            lost: analysis.lost,
            unit: analysis.unit.clone(),
            mistake: analysis.mistake.clone(),
        }
    }
}

/// What a finished run left for lenses and hovers.
pub enum LatestRun {
    /// The suite was played.
    Played {
        /// The report.
        report: SuiteReport,
        /// Hover texts by (canonical file, 0-based line).
        hovers: BTreeMap<(PathBuf, u32), String>,
    },
    /// The bot did not build or load: why, in one line.
    Failed(String),
}

impl ServerSession {
    /// A fresh session talking to `client`, within the user's `caps`.
    pub fn new(client: Client, caps: LimitCaps) -> Arc<ServerSession> {
        Arc::new(ServerSession {
            client,
            caps,
            publishing: tokio::sync::Mutex::new(()),
            state: Mutex::new(State::default()),
        })
    }

    /// Locks the state. A handler that panicked while holding the lock leaves it poisoned; the
    /// state is still consistent field by field, so the poison is ignored rather than killing
    /// every later request.
    pub fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl ProjectState {
    /// Makes `outcome` the latest run; the run it replaces becomes the previous one if it was
    /// played (else the previous one stays).
    pub fn finish(&mut self, outcome: LatestRun) {
        if let Some(LatestRun::Played { report, .. }) = self.latest.as_deref() {
            self.previous = Some(report.clone());
        }
        self.latest = Some(Arc::new(outcome));
    }
}

impl State {
    /// The root of the known project that contains `path` (the innermost one).
    pub fn project_of(&self, path: &Path) -> Option<PathBuf> {
        self.projects
            .keys()
            .filter(|root| path.starts_with(root))
            .max_by_key(|r| r.as_os_str().len())
            .cloned()
    }

    /// Remembers the client's URI for `path` if it is a file of a known project.
    pub fn remember_uri(&mut self, path: PathBuf, uri: Uri) {
        if self.project_of(&path).is_some() && path.is_file() {
            self.uris.insert(path, uri);
        }
    }

    /// The client's URI for `path`: the one it used, else a `file://` URI.
    pub fn uri_for(&self, path: &Path) -> Option<Uri> {
        self.uris.get(path).cloned().or_else(|| Uri::from_file_path(path))
    }

    /// Diagnostics by file, addressed to the client's URIs (a path without one left out).
    pub fn addressed(
        &self,
        files: BTreeMap<PathBuf, Vec<Diagnostic>>,
    ) -> Vec<(Uri, Vec<Diagnostic>)> {
        files.into_iter().filter_map(|(path, found)| Some((self.uri_for(&path)?, found))).collect()
    }

    /// Adds `project` unless known; returns its root.
    pub fn add_project(&mut self, project: BotProject) -> PathBuf {
        let root = canonical(&project.root);
        self.projects.entry(root.clone()).or_insert_with(|| ProjectState {
            project: BotProject { root: root.clone(), ..project },
            generation: 0,
            cancel: CancelToken::new(),
            building: Arc::default(),
            latest: None,
            previous: None,
            published: BTreeMap::new(),
            profile: None,
            decisions: None,
            last_run: None,
            live: None,
        });
        root
    }
}

/// `path` made absolute and free of symlinks when it exists, else as given.
pub fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

/// The canonical path of a `file://` URI; `None` for other schemes.
pub fn uri_path(uri: &Uri) -> Option<PathBuf> {
    uri.to_file_path().map(|p| canonical(&p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_files_of_known_projects_have_their_uris_remembered() {
        let dir = tempfile::tempdir().unwrap();
        let manifest =
            "[package]\nname = \"a\"\n[package.metadata.botlens]\ngame = \"tictactoe\"\n";
        std::fs::write(dir.path().join("Cargo.toml"), manifest).unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/lib.rs"), "").unwrap();
        let mut state = State::default();
        let root = state.add_project(BotProject::load(dir.path()).unwrap());
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("notes.rs"), "").unwrap();
        for path in [
            root.join("src/lib.rs"),
            root.join("src/made-up.rs"),
            canonical(&outside.path().join("notes.rs")),
        ] {
            let uri = Uri::from_file_path(&path).unwrap();
            state.remember_uri(path, uri);
        }
        let remembered: Vec<&PathBuf> = state.uris.keys().collect();
        assert_eq!(remembered, [&root.join("src/lib.rs")]);
    }

    #[test]
    fn the_previous_report_is_the_last_played_run_before_the_latest() {
        let dir = tempfile::tempdir().unwrap();
        let manifest =
            "[package]\nname = \"a\"\n[package.metadata.botlens]\ngame = \"tictactoe\"\n";
        std::fs::write(dir.path().join("Cargo.toml"), manifest).unwrap();
        let mut state = State::default();
        let root = state.add_project(BotProject::load(dir.path()).unwrap());
        let report = |games: u32| SuiteReport {
            game: "tictactoe".into(),
            bot: "a".into(),
            seeds: "0..=9".into(),
            games,
            duration_ms: 1,
            opponents: Vec::new(),
            failures: Vec::new(),
            wasteful: Vec::new(),
            cancelled: false,
        };
        let played = |games| LatestRun::Played { report: report(games), hovers: BTreeMap::new() };
        let project = state.projects.get_mut(&root).unwrap();
        project.finish(played(1));
        assert!(project.previous.is_none());
        project.finish(LatestRun::Failed("does not compile".into()));
        project.finish(played(3));
        assert_eq!(
            project.previous.as_ref().map(|r| r.games),
            Some(1),
            "the failed run is skipped"
        );
        project.finish(played(4));
        assert_eq!(project.previous.as_ref().map(|r| r.games), Some(3));
    }
}
