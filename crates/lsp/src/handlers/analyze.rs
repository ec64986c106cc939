//! `botlens.analyze`: every move of a project's suite judged by the game's oracle (as
//! `botlens analyze` does), kept for information diagnostics and code lenses at the lines whose
//! moves lost the most: `botlens: 3 of 3 losses turned here (8 blunders)`.
//!
//! Analysing plays the whole suite again with every move located, so it runs only when asked
//! (the command), never on save. Its diagnostics and lenses stay, merged with each run's, until
//! the next analysis of that project.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use botlens_harness::analyze::{self, DecisionSite};
use botlens_harness::{CancelToken, Target, pipeline};
use serde_json::{Value, json};
use tower_lsp_server::jsonrpc;
use tower_lsp_server::ls_types::{
    CodeLens, Command, Diagnostic, DiagnosticSeverity, NumberOrString, Position, Range,
};

use super::diagnostics::{SOURCE, in_project};
use crate::position::{self, PositionEncoding};
#[cfg(test)]
use crate::session::canonical;
use crate::session::{Decisions, ProjectState, ServerSession};

/// Analyses a project's suite: arguments `[project dir]`; answers the decision profile.
pub const ANALYZE: &str = "botlens.analyze";

/// `8 blunders`, `1 detour`.
fn mistakes(decisions: &Decisions, site: &DecisionSite) -> String {
    let s = if site.mistakes == 1 { "" } else { "s" };
    format!("{} {}{s}", site.mistakes, decisions.mistake)
}

/// `; 3 of 3 losses turned here`, or nothing.
fn losses(decisions: &Decisions, site: &DecisionSite) -> String {
    match site.losses {
        0 => String::new(),
        n => format!("; {n} of {} losses turned here", decisions.lost),
    }
}

/// The information diagnostics of `decisions`' sites in the project at `root`, by file.
pub fn diagnostics(
    decisions: &Decisions,
    root: &Path,
    encoding: PositionEncoding,
) -> BTreeMap<PathBuf, Vec<Diagnostic>> {
    let mut files: BTreeMap<PathBuf, Vec<Diagnostic>> = BTreeMap::new();
    for site in &decisions.sites {
        let Some(path) = in_project(root, &site.file) else { continue };
        let text = position::read(&path);
        let range = encoding.line_range(text.as_deref(), site.line, site.column);
        let message = format!(
            "{} chosen here lost {} ({:.0} % of what the bot's moves lost){}\n{} in {} moves through this line in games with a {}; the first vs {}, seed {}, move {}",
            mistakes(decisions, site),
            analyze::amount(site.cost, &decisions.unit),
            site.percent,
            losses(decisions, site),
            mistakes(decisions, site),
            site.moves,
            decisions.mistake,
            site.first.opponent,
            site.first.seed,
            site.first.turn,
        );
        files.entry(path).or_default().push(Diagnostic {
            range,
            severity: Some(DiagnosticSeverity::INFORMATION),
            code: Some(NumberOrString::String("decision".to_owned())),
            source: Some(SOURCE.to_owned()),
            message,
            data: Some(json!({
                "project": root,
                "opponent": site.first.opponent,
                "seed": site.first.seed,
                "turn": site.first.turn,
            })),
            ..Diagnostic::default()
        });
    }
    files
}

/// The lenses of `decisions`' sites in `file` (canonical), one above each line; clicking
/// analyses `root` again.
pub fn lenses(decisions: &Decisions, file: &Path, root: &Path) -> Vec<CodeLens> {
    decisions
        .sites
        .iter()
        .filter(|site| in_project(root, &site.file).is_some_and(|path| path == file))
        .map(|site| {
            let at = Position::new(site.line.saturating_sub(1), 0);
            let title = match site.losses {
                0 => format!(
                    "botlens: {} ({:.0} % of what was lost)",
                    mistakes(decisions, site),
                    site.percent
                ),
                n => format!(
                    "botlens: {n} of {} losses turned here ({})",
                    decisions.lost,
                    mistakes(decisions, site)
                ),
            };
            CodeLens {
                range: Range::new(at, at),
                command: Some(Command {
                    title,
                    command: ANALYZE.to_owned(),
                    arguments: Some(vec![json!(root)]),
                }),
                data: None,
            }
        })
        .collect()
}

/// Analyses the project at `root` on a blocking thread, keeps its costliest lines, publishes
/// their diagnostics with the latest run's, asks the client to refresh its lenses, and answers
/// `{games, lost, judged, mistakes, cost, unit, mistake, sites}` (as `botlens analyze --json`,
/// without the games).
pub async fn run(session: Arc<ServerSession>, root: PathBuf) -> jsonrpc::Result<Option<Value>> {
    let (settings, refresh, encoding) = {
        let state = session.state();
        (state.settings.clone(), state.client.code_lens_refresh, state.encoding)
    };
    let target = Target::of_dir(&root);
    let options = settings.run_options(&session.caps);
    let analysis = super::on_blocking_thread(ANALYZE, move || {
        let sandbox = pipeline::sandbox().map_err(|e| e.to_string())?;
        analyze::analyze(&sandbox, &target, &options, &|_| {}, &CancelToken::new())
            .map_err(|e| e.to_string())
    })
    .await?;
    let decisions = Decisions::of(&analysis);
    let answer = json!({
        "games": analysis.games,
        "lost": analysis.lost,
        "judged": analysis.judged,
        "mistakes": analysis.mistakes,
        "cost": analysis.cost,
        "unit": analysis.unit,
        "mistake": analysis.mistake,
        "sites": decisions.sites,
    });
    let order = session.publishing.lock().await;
    let sends = {
        let mut state = session.state();
        let Some(project) = state.projects.get_mut(&root) else { return Ok(Some(answer)) };
        let before = project.decisions.replace(decisions);
        let files = merged(project, before.as_ref(), &root, encoding);
        state.addressed(files)
    };
    for (uri, diagnostics) in sends {
        session.client.publish_diagnostics(uri, diagnostics, None).await;
    }
    drop(order);
    if refresh {
        let _ = super::answered(session.client.code_lens_refresh()).await;
    }
    Ok(Some(answer))
}

/// What to publish for `project`: for every file with diagnostics of its latest run, of its
/// kept decisions, or of the decisions `before` (cleared), the run's and the decisions'
/// together.
pub fn merged(
    project: &ProjectState,
    before: Option<&Decisions>,
    root: &Path,
    encoding: PositionEncoding,
) -> BTreeMap<PathBuf, Vec<Diagnostic>> {
    let mut files: BTreeMap<PathBuf, Vec<Diagnostic>> = project.published.clone();
    if let Some(before) = before {
        for path in diagnostics(before, root, encoding).into_keys() {
            files.entry(path).or_default();
        }
    }
    if let Some(decisions) = &project.decisions {
        for (path, found) in diagnostics(decisions, root, encoding) {
            files.entry(path).or_default().extend(found);
        }
    }
    files
}

#[cfg(test)]
mod tests {
    use botlens_harness::analyze::FirstMistake;

    use super::*;

    fn decisions(file: &Path) -> Decisions {
        let site = |line: u32, losses: u32, mistakes: u32, cost: f64, percent: f64| DecisionSite {
            file: file.display().to_string(),
            line,
            column: 9,
            function: "play".into(),
            chain: "play".into(),
            cost,
            percent,
            mistakes,
            moves: 82,
            losses,
            first: FirstMistake { opponent: "perfect".into(), seed: 25, turn: 4 },
        };
        Decisions {
            sites: vec![site(63, 3, 8, 8.0, 100.0), site(40, 0, 1, 1.0, 12.5)],
            lost: 3,
            unit: "outcome".into(),
            mistake: "blunder".into(),
        }
    }

    #[test]
    fn each_costly_line_gets_an_information_diagnostic_and_a_lens() {
        let dir = tempfile::tempdir().unwrap();
        let lib = dir.path().join("lib.rs");
        std::fs::write(&lib, "fn a() {}\n".repeat(70)).unwrap();
        let root = canonical(dir.path());
        let decisions = decisions(&canonical(&lib));
        let files = diagnostics(&decisions, &root, PositionEncoding::Utf16);
        let [(path, diagnostics)] = &files.into_iter().collect::<Vec<_>>()[..] else {
            panic!("one file")
        };
        assert_eq!(path, &canonical(&lib));
        assert_eq!(diagnostics.len(), 2);
        let first = &diagnostics[0];
        assert_eq!(first.severity, Some(DiagnosticSeverity::INFORMATION));
        assert_eq!(first.range.start.line, 62);
        assert_eq!(
            first.message,
            "8 blunders chosen here lost 8 outcomes (100 % of what the bot's moves lost); 3 of 3 losses turned here\n8 blunders in 82 moves through this line in games with a blunder; the first vs perfect, seed 25, move 4"
        );
        assert_eq!(
            diagnostics[1].message.lines().next(),
            Some("1 blunder chosen here lost 1 outcome (12 % of what the bot's moves lost)")
        );
        let lenses = lenses(&decisions, &canonical(&lib), &root);
        let titles: Vec<&str> =
            lenses.iter().map(|l| l.command.as_ref().unwrap().title.as_str()).collect();
        assert_eq!(
            titles,
            [
                "botlens: 3 of 3 losses turned here (8 blunders)",
                "botlens: 1 blunder (12 % of what was lost)"
            ]
        );
        assert_eq!(lenses[0].range.start, Position::new(62, 0));
    }

    #[test]
    fn a_site_outside_the_project_gets_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let decisions = decisions(Path::new("/etc/passwd"));
        assert!(diagnostics(&decisions, dir.path(), PositionEncoding::Utf16).is_empty());
        assert!(lenses(&decisions, Path::new("/etc/passwd"), dir.path()).is_empty());
    }
}
