//! Lifecycle and configuration: `initialize` (capabilities, position encoding, settings, finding
//! the bot projects of the workspace), `initialized` (file watchers), `shutdown` and
//! `workspace/didChangeConfiguration`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use botlens_bots::toolchain;
use botlens_harness::BotProject;
use serde_json::Value;
use tower_lsp_server::jsonrpc;
use tower_lsp_server::ls_types::{
    CodeActionProviderCapability, CodeLensOptions, DidChangeConfigurationParams,
    DidChangeWatchedFilesRegistrationOptions, ExecuteCommandOptions, FileSystemWatcher,
    GlobPattern, HoverProviderCapability, InitializeParams, InitializeResult, InitializedParams,
    MessageType, Registration, SaveOptions, ServerCapabilities, ServerInfo,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions,
};

use super::answered;
use super::lens::COMMANDS;
use super::run::schedule;
use crate::position::PositionEncoding;
use crate::session::{ClientSupport, ServerSession, canonical, uri_path};
use crate::settings::Settings;

/// Folders never searched for projects.
const SKIPPED: [&str; 3] = ["target", "node_modules", ".git"];

/// `initialize`: negotiates, reads settings, finds projects and announces the capabilities.
pub async fn initialize(
    session: Arc<ServerSession>,
    params: InitializeParams,
) -> jsonrpc::Result<InitializeResult> {
    let capabilities = &params.capabilities;
    let encoding = PositionEncoding::negotiate(
        capabilities.general.as_ref().and_then(|g| g.position_encodings.as_deref()),
    );
    let workspace = capabilities.workspace.as_ref();
    let support = ClientSupport {
        progress: capabilities.window.as_ref().and_then(|w| w.work_done_progress) == Some(true),
        code_lens_refresh: workspace
            .and_then(|w| w.code_lens.as_ref())
            .and_then(|c| c.refresh_support)
            == Some(true),
        watch_files: workspace
            .and_then(|w| w.did_change_watched_files.as_ref())
            .and_then(|d| d.dynamic_registration)
            == Some(true),
    };
    let settings =
        params.initialization_options.as_ref().map_or(Ok(Settings::default()), Settings::from_json);
    let roots = workspace_roots(&params);
    let projects: Vec<BotProject> = roots.iter().flat_map(|root| find_projects(root)).collect();
    {
        let mut state = session.state();
        state.encoding = encoding;
        state.client = support;
        state.roots = roots;
        for project in projects {
            state.add_project(project);
        }
        if let Ok(settings) = &settings {
            state.settings = settings.clone();
        }
    }
    if let Err(problem) = settings {
        session
            .client
            .show_message(MessageType::WARNING, format!("{problem}; using the defaults"))
            .await;
    }
    Ok(InitializeResult {
        capabilities: ServerCapabilities {
            position_encoding: Some(encoding.kind()),
            text_document_sync: Some(TextDocumentSyncCapability::Options(
                TextDocumentSyncOptions {
                    open_close: Some(true),
                    change: Some(TextDocumentSyncKind::NONE),
                    save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                        include_text: Some(false),
                    })),
                    ..TextDocumentSyncOptions::default()
                },
            )),
            hover_provider: Some(HoverProviderCapability::Simple(true)),
            code_lens_provider: Some(CodeLensOptions { resolve_provider: Some(false) }),
            code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
            execute_command_provider: Some(ExecuteCommandOptions {
                commands: COMMANDS.iter().map(|c| (*c).to_owned()).collect(),
                ..ExecuteCommandOptions::default()
            }),
            ..ServerCapabilities::default()
        },
        server_info: Some(ServerInfo {
            name: "botlens".into(),
            version: Some(env!("CARGO_PKG_VERSION").into()),
        }),
        offset_encoding: None,
    })
}

/// The workspace folders, else the deprecated root URI.
fn workspace_roots(params: &InitializeParams) -> Vec<PathBuf> {
    if let Some(folders) = &params.workspace_folders {
        return folders.iter().filter_map(|f| uri_path(&f.uri)).collect();
    }
    #[allow(deprecated)]
    let root = params.root_uri.as_ref().and_then(uri_path);
    root.into_iter().collect()
}

/// The bot projects at `root`, in its subdirectories and theirs (`samples/*`), in path order.
pub fn find_projects(root: &Path) -> Vec<BotProject> {
    let mut found = Vec::new();
    visit(&canonical(root), 2, &mut found);
    found
}

fn visit(dir: &Path, depth: u32, found: &mut Vec<BotProject>) {
    if let Ok(project) = toolchain::load_project(dir) {
        found.push(project);
        return;
    }
    if depth == 0 {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            !name.starts_with('.') && !SKIPPED.contains(&name.as_ref())
        })
        .map(|e| e.path())
        .collect();
    dirs.sort();
    for dir in dirs {
        visit(&dir, depth - 1, found);
    }
}

/// `initialized`: says which projects were found and asks for file events when it may; once
/// (a client sending it again asks for nothing more).
pub async fn initialized(session: Arc<ServerSession>, _params: InitializedParams) {
    let (names, watch) = {
        let mut state = session.state();
        if std::mem::replace(&mut state.initialized, true) {
            return;
        }
        let names: Vec<String> = state
            .projects
            .values()
            .map(|p| format!("{} ({})", p.project.name, p.project.root.display()))
            .collect();
        (names, state.client.watch_files)
    };
    let text = if names.is_empty() {
        "botlens: no bot project in the workspace yet (a Cargo package with [package.metadata.botlens])".to_owned()
    } else {
        format!("botlens: watching {}", names.join(", "))
    };
    session.client.log_message(MessageType::INFO, text).await;
    if let Some(warning) = botlens_bots::confinement_warning() {
        session.client.show_message(MessageType::WARNING, format!("botlens: {warning}")).await;
    }
    if watch {
        let watchers = file_watchers();
        let options = DidChangeWatchedFilesRegistrationOptions { watchers };
        let registration = Registration {
            id: "botlens-watch".into(),
            method: "workspace/didChangeWatchedFiles".into(),
            register_options: serde_json::to_value(options).ok(),
        };
        if let Err(error) = answered(session.client.register_capability(vec![registration])).await {
            let text = format!("botlens: could not watch files ({error}); runs follow saves only");
            session.client.log_message(MessageType::WARNING, text).await;
        }
    }
}

/// The files the client watches for the server: what a bot's build reads in any language
/// ([`toolchain::watched`]), anywhere in the workspace.
fn file_watchers() -> Vec<FileSystemWatcher> {
    toolchain::watched()
        .into_iter()
        .map(|glob| FileSystemWatcher {
            glob_pattern: GlobPattern::String(format!("**/{glob}")),
            kind: None,
        })
        .collect()
}

/// `shutdown`: cancels runs in flight and notes that the client asked, for the exit status.
pub async fn shutdown(session: Arc<ServerSession>) -> jsonrpc::Result<()> {
    let mut state = session.state();
    for project in state.projects.values() {
        project.cancel.cancel();
    }
    state.shut_down = true;
    Ok(())
}

/// `workspace/didChangeConfiguration`: takes the new settings and reruns the projects that have
/// results; bad settings are reported and the old ones kept.
pub async fn did_change_configuration(
    session: Arc<ServerSession>,
    params: DidChangeConfigurationParams,
) {
    match Settings::from_json(&params.settings) {
        Ok(settings) => {
            let rerun: Vec<PathBuf> = {
                let mut state = session.state();
                state.settings = settings;
                state
                    .projects
                    .iter()
                    .filter(|(_, p)| p.generation > 0)
                    .map(|(root, _)| root.clone())
                    .collect()
            };
            for root in rerun {
                schedule(&session, &root);
            }
        }
        Err(problem) => {
            session
                .client
                .show_message(
                    MessageType::WARNING,
                    format!("{problem}; keeping the previous settings"),
                )
                .await;
        }
    }
}

/// A malformed message from the client: logged as an error; the server reads on.
pub async fn malformed_message(session: Arc<ServerSession>, params: Value) {
    let error = params.get("error").and_then(Value::as_str).unwrap_or("unreadable message");
    let text = format!("botlens: ignored a malformed message from the client: {error}");
    session.client.log_message(MessageType::ERROR, text).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bot(dir: &Path, name: &str) {
        std::fs::create_dir_all(dir).unwrap();
        let manifest = format!(
            "[package]\nname = \"{name}\"\n[package.metadata.botlens]\ngame = \"tictactoe\"\n"
        );
        std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    }

    #[test]
    fn projects_are_found_at_the_root_and_two_levels_down_but_not_in_target() {
        let dir = tempfile::tempdir().unwrap();
        bot(&dir.path().join("samples/a"), "a");
        bot(&dir.path().join("b"), "b");
        bot(&dir.path().join("target/c"), "c");
        bot(&dir.path().join("x/y/z"), "too-deep");
        std::fs::write(dir.path().join("Cargo.toml"), "[workspace]\n").unwrap();
        let names: Vec<String> = find_projects(dir.path()).into_iter().map(|p| p.name).collect();
        assert_eq!(names, ["b", "a"]);
        let single = tempfile::tempdir().unwrap();
        bot(single.path(), "solo");
        let names: Vec<String> = find_projects(single.path()).into_iter().map(|p| p.name).collect();
        assert_eq!(names, ["solo"]);
        // A bot folder of any language is a project too.
        let folder = single.path().join("in-c");
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(folder.join("botlens.toml"), "game = \"tictactoe\"\n").unwrap();
        std::fs::write(folder.join("bot.c"), "").unwrap();
        let names: Vec<String> = find_projects(&folder).into_iter().map(|p| p.name).collect();
        assert_eq!(names, ["in-c"]);
    }

    #[test]
    fn the_client_watches_every_languages_files_anywhere() {
        let globs: Vec<String> = file_watchers()
            .into_iter()
            .map(|watcher| match watcher.glob_pattern {
                GlobPattern::String(glob) => glob,
                other => panic!("{other:?}"),
            })
            .collect();
        for glob in
            ["**/*.rs", "**/Cargo.toml", "**/*.c", "**/*.h", "**/*.js", "**/*.zig", "**/*.ts"]
        {
            assert!(globs.iter().any(|g| g == glob), "{glob} in {globs:?}");
        }
        assert!(globs.iter().any(|g| g == "**/botlens.toml"), "{globs:?}");
    }
}
