//! `botlens.profile`: the fuel profile of a project's suite (as `botlens profile` makes it), kept
//! for code lenses that put "18.0 % of fuel" above the bot's hottest lines.
//!
//! Profiling plays the whole suite with the bot profiled, so it runs only when asked (the
//! command), never on save; its lenses stay until the next profile of that project.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use botlens_harness::profile::{self, DEFAULT_INTERVAL, LineCost, ProfileOptions};
use botlens_harness::{CancelToken, Target, pipeline};
use serde_json::{Value, json};
use tower_lsp_server::jsonrpc;
use tower_lsp_server::ls_types::{CodeLens, Command, Position, Range};

use crate::session::{ServerSession, canonical};

/// Profiles a project's suite: arguments `[project dir]`; answers the top lines.
pub const PROFILE: &str = "botlens.profile";

/// Lines of a profile that get a lens.
pub const HOT_LINES: usize = 10;

/// Profiles the project at `root` on a blocking thread, keeps its [`HOT_LINES`] hottest lines
/// for the lenses, asks the client to refresh them, and answers `{fuel, games, lines}` (lines
/// as in `botlens profile --json`).
pub async fn run(session: Arc<ServerSession>, root: PathBuf) -> jsonrpc::Result<Option<Value>> {
    let (settings, refresh) = {
        let state = session.state();
        (state.settings.clone(), state.client.code_lens_refresh)
    };
    let target = Target::of_dir(&root);
    let run = settings.run_options(&session.caps);
    let options = ProfileOptions { run, interval: DEFAULT_INTERVAL };
    let profile = super::on_blocking_thread(PROFILE, move || {
        let sandbox = pipeline::sandbox().map_err(|e| e.to_string())?;
        profile::profile(&sandbox, &target, &options, &|_| {}, &CancelToken::new())
            .map_err(|e| e.to_string())
    })
    .await?;
    let hot: Vec<LineCost> = profile.lines.iter().take(HOT_LINES).cloned().collect();
    let answer = json!({ "fuel": profile.fuel, "games": profile.games, "lines": hot });
    if let Some(project) = session.state().projects.get_mut(&root) {
        project.profile = Some(hot);
    }
    if refresh {
        let _ = super::answered(session.client.code_lens_refresh()).await;
    }
    Ok(Some(answer))
}

/// The lenses of a profile's `lines` that are in `file` (canonical), one above each line:
/// `botlens: 18.0 % of fuel (96.1 % with its calls)`; clicking profiles `root` again.
pub fn lenses(lines: &[LineCost], file: &Path, root: &Path) -> Vec<CodeLens> {
    lines
        .iter()
        .filter(|line| canonical(Path::new(&line.file)) == file)
        .map(|line| {
            let at = Position::new(line.line.saturating_sub(1), 0);
            CodeLens {
                range: Range::new(at, at),
                command: Some(Command {
                    title: format!(
                        "botlens: {:.1} % of fuel ({:.1} % with its calls)",
                        line.self_percent, line.total_percent
                    ),
                    command: PROFILE.to_owned(),
                    arguments: Some(vec![json!(root)]),
                }),
                data: None,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_hot_line_of_the_file_gets_a_lens_with_its_share_of_fuel() {
        let dir = tempfile::tempdir().unwrap();
        let lib = dir.path().join("lib.rs");
        std::fs::write(&lib, "fn a() {}\n").unwrap();
        let line = |file: &Path, line: u32, self_percent: f64| LineCost {
            file: file.display().to_string(),
            line,
            function: "bot::a".into(),
            self_fuel: 1,
            total_fuel: 1,
            self_percent,
            total_percent: 96.1,
        };
        let lines = [line(&lib, 7, 18.0), line(Path::new("/elsewhere.rs"), 3, 80.0)];
        let lenses = lenses(&lines, &canonical(&lib), dir.path());
        let [lens] = &lenses[..] else { panic!("{lenses:?}") };
        assert_eq!(lens.range.start, Position::new(6, 0));
        let command = lens.command.as_ref().unwrap();
        assert_eq!(command.title, "botlens: 18.0 % of fuel (96.1 % with its calls)");
        assert_eq!(command.command, PROFILE);
    }
}
