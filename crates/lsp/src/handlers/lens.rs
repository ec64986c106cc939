//! Code lenses above the bot's entry point, in every language (`impl Bot for …`, `function
//! Bot()`, `void bot_play(void)`…: the table of languages says, `toolchain::entry_line`) and
//! the commands they run: `botlens.rerun` (play the suite again), `botlens.replay` (the
//! terminal command line that steps through the worst game) and `botlens.debug` (the one that
//! opens it in a debugger, stopped at the failing turn; offered for languages a debugger
//! stops in), and `botlens.live` (opens the live view in a browser, `super::live`).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use botlens_bots::toolchain::{self, Debugging, Lang};
use botlens_harness::SuiteReport;
use botlens_harness::Target;
use botlens_harness::baseline::EloVerdict;
use serde_json::{Value, json};
use tower_lsp_server::jsonrpc;
use tower_lsp_server::ls_types::{
    CodeLens, CodeLensParams, Command, ExecuteCommandParams, Position, Range,
};

use super::analyze::{self, ANALYZE};
use super::diagnostics::scores;
use super::profile::{self, PROFILE};
use super::run::schedule;
use crate::session::{LatestRun, ServerSession, canonical, uri_path};

/// Reruns a project: arguments `[project dir]`, or none for every project.
pub const RERUN: &str = "botlens.rerun";
/// Answers the command line replaying a game: arguments `[project dir]` (its worst game) or
/// `[project dir, opponent, seed]`.
pub const REPLAY: &str = "botlens.replay";
/// Answers the command line debugging a game (`botlens debug …`): arguments as [`REPLAY`]'s,
/// so an editor can offer "debug this failure" on a diagnostic from its data.
pub const DEBUG: &str = "botlens.debug";
/// Opens the live view of a project in a browser (`window/showDocument`) and answers its
/// address: arguments `[project dir]`.
pub const LIVE: &str = "botlens.live";
/// The commands the server executes.
pub const COMMANDS: [&str; 6] = [RERUN, REPLAY, DEBUG, PROFILE, ANALYZE, LIVE];

/// `textDocument/codeLens`: scores and commands above the bot's entry point (in a source of
/// the project's language), and the share of fuel above the hottest lines of its latest fuel
/// profile in any of its files.
pub async fn code_lens(
    session: Arc<ServerSession>,
    params: CodeLensParams,
) -> jsonrpc::Result<Option<Vec<CodeLens>>> {
    let Some(path) = uri_path(&params.text_document.uri) else { return Ok(None) };
    let (root, latest, verdict, running, hot) = {
        let state = session.state();
        let Some(root) = state.project_of(&path) else { return Ok(None) };
        let project = &state.projects[&root];
        let running = project.generation > 0 && project.latest.is_none();
        let verdict = match (project.latest.as_deref(), &project.previous) {
            (Some(LatestRun::Played { report, .. }), Some(previous)) => {
                Some(verdict_title(previous, report))
            }
            _ => None,
        };
        let mut hot = project
            .profile
            .as_deref()
            .map_or_else(Vec::new, |lines| profile::lenses(lines, &path, &root));
        if let Some(decisions) = &project.decisions {
            hot.extend(analyze::lenses(decisions, &path, &root));
        }
        (root, project.latest.clone(), verdict, running, hot)
    };
    let lang = Lang::detect(&root);
    let entry = lang.filter(|lang| path.extension().is_some_and(|ext| ext == lang.extension()));
    let entry = entry.and_then(|lang| {
        let limit = botlens_bots::own_files::MAX_SOURCE_BYTES;
        let text = botlens_bots::own_files::read_text(&root, &path, limit).ok()?;
        toolchain::entry_line(lang, &text)
    });
    let debuggable = lang.is_some_and(|lang| matches!(lang.debugging(), Debugging::Debugger));
    let Some(line) = entry else {
        return Ok((!hot.is_empty()).then_some(hot));
    };
    let range = Range::new(Position::new(line, 0), Position::new(line, 0));
    let argument = vec![json!(root)];
    let lens = |title: String, command: &str| CodeLens {
        range,
        command: Some(Command {
            title,
            command: command.to_owned(),
            arguments: Some(argument.clone()),
        }),
        data: None,
    };
    let mut lenses = Vec::new();
    match latest.as_deref() {
        Some(LatestRun::Played { report, .. }) => {
            lenses.push(lens(format!("botlens: {}", scores(report)), RERUN));
            if let Some(title) = verdict.clone() {
                lenses.push(lens(title, RERUN));
            }
            lenses.push(lens("◉ live view".into(), LIVE));
            if let Some(worst) = report.failures.first() {
                let title = format!(
                    "▶ replay worst game (seed {} vs {})",
                    worst.first_seed, worst.first_opponent
                );
                lenses.push(lens(title, REPLAY));
                if debuggable {
                    lenses.push(lens("⏸ debug it".into(), DEBUG));
                }
            }
        }
        Some(LatestRun::Failed(why)) => lenses.push(lens(format!("botlens: {why} — rerun"), RERUN)),
        None if running => lenses.push(lens("botlens: running…".into(), RERUN)),
        None => lenses.push(lens("botlens: not run yet — run the suite".into(), RERUN)),
    }
    lenses.extend(hot);
    Ok(Some(lenses))
}

/// The lens title of the latest report's Elo against the previous one's:
/// `vs previous save: +18 ± 9 Elo, LOS 99%`.
pub fn verdict_title(previous: &SuiteReport, latest: &SuiteReport) -> String {
    format!("vs previous save: {}", EloVerdict::between(previous, latest).short())
}

/// `workspace/executeCommand`: `botlens.rerun` schedules runs and answers null;
/// `botlens.replay` answers the command line as a string; `botlens.profile` profiles a project
/// and answers its hottest lines; `botlens.analyze` analyses a project and answers its decision
/// profile.
pub async fn execute_command(
    session: Arc<ServerSession>,
    params: ExecuteCommandParams,
) -> jsonrpc::Result<Option<Value>> {
    let project =
        params.arguments.first().and_then(Value::as_str).map(|dir| canonical(Path::new(dir)));
    match params.command.as_str() {
        RERUN => {
            let roots: Vec<PathBuf> = {
                let state = session.state();
                match &project {
                    Some(dir) => state.project_of(dir).into_iter().collect(),
                    None => state.projects.keys().cloned().collect(),
                }
            };
            if roots.is_empty() {
                return Err(invalid(format!(
                    "{RERUN}: no bot project at {}",
                    describe(project.as_deref())
                )));
            }
            for root in roots {
                schedule(&session, &root);
            }
            Ok(None)
        }
        REPLAY | DEBUG => {
            let name = params.command.as_str();
            let Some(dir) = project else {
                return Err(invalid(format!(
                    "{name} needs the project directory as its first argument"
                )));
            };
            let line = |opponent: &str, seed: u64| {
                let target = Target::of_dir(&dir);
                if name == DEBUG {
                    target.debug_command(opponent, seed)
                } else {
                    target.replay_command(opponent, seed)
                }
            };
            let opponent = params.arguments.get(1).and_then(Value::as_str);
            let seed = params.arguments.get(2).and_then(Value::as_u64);
            if let (Some(opponent), Some(seed)) = (opponent, seed) {
                return Ok(Some(json!(line(opponent, seed))));
            }
            let state = session.state();
            let latest =
                state.project_of(&dir).and_then(|root| state.projects[&root].latest.clone());
            match latest.as_deref() {
                Some(LatestRun::Played { report, .. }) => match report.failures.first() {
                    // The report's replay line names the seat too.
                    Some(worst) if name == REPLAY => Ok(Some(json!(worst.replay))),
                    Some(worst) => Ok(Some(json!(line(&worst.first_opponent, worst.first_seed)))),
                    None => Err(invalid(format!(
                        "{name}: no game was lost by a fault in the latest run"
                    ))),
                },
                _ => Err(invalid(format!("{name}: {} has no finished run yet", dir.display()))),
            }
        }
        LIVE => {
            let root = project.and_then(|dir| session.state().project_of(&dir));
            let Some(root) = root else {
                return Err(invalid(format!(
                    "{LIVE} needs a bot project directory as its first argument"
                )));
            };
            super::live::open(session, &root).await
        }
        ANALYZE => analyze::run(session.clone(), project_named(&session, ANALYZE, project)?).await,
        PROFILE => profile::run(session.clone(), project_named(&session, PROFILE, project)?).await,
        other => {
            Err(invalid(format!("unknown command `{other}` (known: {})", COMMANDS.join(", "))))
        }
    }
}

/// The project a command names by a directory (or a file) of it; with none named, the only
/// project open (so an editor's command palette, which passes no arguments, works in a
/// workspace of one bot).
fn project_named(
    session: &ServerSession,
    command: &str,
    named: Option<PathBuf>,
) -> jsonrpc::Result<PathBuf> {
    let state = session.state();
    match named {
        Some(dir) => state
            .project_of(&dir)
            .ok_or_else(|| invalid(format!("{command}: no bot project at {}", dir.display()))),
        None => match state.projects.keys().collect::<Vec<_>>()[..] {
            [only] => Ok(only.clone()),
            ref open => Err(invalid(format!(
                "{command} needs a bot project directory as its first argument ({} projects \
                 are open)",
                open.len()
            ))),
        },
    }
}

fn describe(project: Option<&Path>) -> String {
    project.map_or_else(|| "(none given)".to_owned(), |p| p.display().to_string())
}

fn invalid(message: String) -> jsonrpc::Error {
    jsonrpc::Error::invalid_params(message)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A report of 150 games against `random`, won on the seeds `won` says.
    fn report(won: impl Fn(u64) -> bool) -> SuiteReport {
        let seat0: String = (0..150).map(|seed| if won(seed) { 'W' } else { 'L' }).collect();
        let wins = seat0.matches('W').count();
        serde_json::from_value(json!({
            "game": "tictactoe", "bot": "b", "seeds": "0..=149", "games": 150, "duration_ms": 1,
            "opponents": [{
                "name": "random", "games": 150, "wins": wins, "losses": 150 - wins, "draws": 0,
                "mean_moves": 4.0, "par": null, "faults": 0,
                "outcomes": {"first_seed": 0, "seat0": seat0},
            }],
            "failures": [], "wasteful": [], "cancelled": false,
        }))
        .unwrap()
    }

    #[test]
    fn the_verdict_lens_compares_the_latest_report_with_the_previous_one() {
        let before = report(|seed| seed % 2 == 0);
        let after = report(|seed| seed % 4 != 1);
        let title = verdict_title(&before, &after);
        assert!(title.starts_with("vs previous save: +"), "{title}");
        assert!(
            title.contains(" ± ") && title.contains(" Elo, LOS ") && title.ends_with('%'),
            "{title}"
        );
        let worse = verdict_title(&after, &before);
        assert!(worse.starts_with("vs previous save: -"), "{worse}");
        let mut small = before.clone();
        small.opponents[0].outcomes = Default::default();
        assert_eq!(verdict_title(&small, &after), "vs previous save: too few games to tell (0)");
    }
}
