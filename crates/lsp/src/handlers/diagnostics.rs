//! Pure conversions from harness results to LSP values: failure groups to diagnostics with their
//! messages, compiler errors to diagnostics, hover text, and the scores of the code lens.
//!
//! Nothing here talks to the client; the only I/O is reading a source file to convert columns.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use botlens_bots::build::CompilerMessage;
use botlens_engine::SourceLocation;
use botlens_engine::stack::{CallStack, frame_text, thousands};
use botlens_harness::baseline::Comparison;
use botlens_harness::report::{
    FailureGroup, SEEDS_SHOWN, SuiteReport, WastefulSummary, seeds_phrase,
};
use botlens_harness::waste::WasteSite;
use serde_json::json;
use tower_lsp_server::ls_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Uri,
};

use crate::position::{self, PositionEncoding};
use crate::session::canonical;

/// The `source` of every botlens diagnostic.
pub const SOURCE: &str = "botlens";

/// One opponent's share of a failure group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Share {
    /// The opponent's name.
    pub opponent: String,
    /// Games lost this way against it.
    pub lost: u32,
    /// Games played against it.
    pub played: u32,
    /// The seeds lost, in order.
    pub seeds: Vec<u64>,
}

/// Each opponent's share of `group` (as the report split its seeds), in the report's
/// opponent order.
pub fn shares(group: &FailureGroup, report: &SuiteReport) -> Vec<Share> {
    group
        .opponents
        .iter()
        .zip(&group.seeds_by_opponent)
        .map(|(opponent, seeds)| Share {
            opponent: opponent.clone(),
            lost: seeds.len() as u32,
            played: report.opponents.iter().find(|o| o.name == *opponent).map_or(0, |o| o.games),
            seeds: seeds.clone(),
        })
        .collect()
}

/// The diagnostic message of a group: a short first line saying what failed (editors show it
/// in the gutter and in lists), then the games it lost on the next.
///
/// ```text
/// illegal move attack(10, 3): x out of range
/// lost 3/50 vs hunter (seeds 4, 17, 31); first at move 23 (the bot's turn 12)
/// ```
pub fn message(group: &FailureGroup, shares: &[Share]) -> String {
    let words = group.kind.as_str().replace('_', " ");
    let first_line = group.message.lines().next().unwrap_or_default();
    let mut out = if first_line.to_lowercase().starts_with(&words) {
        first_line.to_owned()
    } else {
        format!("{words}: {first_line}")
    };
    // Whatever else the bot's message said stays, after the first line.
    for line in group.message.lines().skip(1) {
        let _ = write!(out, "\n{line}");
    }
    out.push_str("\nlost ");
    let parts: Vec<String> = shares
        .iter()
        .map(|s| format!("{}/{} vs {} ({})", s.lost, s.played, s.opponent, seeds_phrase(&s.seeds)))
        .collect();
    out.push_str(&parts.join(", "));
    let _ = write!(out, "; first at {}", group.first_move());
    out
}

/// Where a recorded source path is: absolute paths as they are, relative ones under the
/// project root; canonical when the file exists.
pub fn resolve(root: &Path, file: impl AsRef<Path>) -> PathBuf {
    let path = file.as_ref();
    canonical(&if path.is_absolute() { path.to_path_buf() } else { root.join(path) })
}

/// Where a recorded source path is ([`resolve`]), if that is inside the project at `root`: a
/// diagnostic is never published to, nor a file read for one from, anywhere else (a library's
/// file, or whatever a hostile module's debug information names).
/// `..` is taken lexically and links are followed, so neither climbs out; a file that does not
/// exist (any more) is taken where its path says.
pub fn in_project(root: &Path, file: impl AsRef<Path>) -> Option<PathBuf> {
    let joined = root.join(file);
    match botlens_files::inside(root, &joined) {
        Ok(real) => Some(real),
        Err(botlens_files::ReadError::Io(_)) => {
            let lexical =
                |path: &Path| std::path::absolute(path).ok().map(|p| botlens_files::lexical(&p));
            let (path, root) = (lexical(&joined)?, lexical(root)?);
            path.starts_with(&root).then_some(path)
        }
        Err(_) => None,
    }
}

/// The diagnostics of a played suite, by file: an error per failure group located in the
/// project (other groups have no line of the project to sit on and are left to the code lens
/// and the log) and a warning per line of the project that made wasted moves.
pub fn failure_diagnostics(
    root: &Path,
    report: &SuiteReport,
    encoding: PositionEncoding,
    uri_for: &dyn Fn(&Path) -> Option<Uri>,
) -> BTreeMap<PathBuf, Vec<Diagnostic>> {
    let mut files: BTreeMap<PathBuf, Vec<Diagnostic>> = BTreeMap::new();
    let mut texts: BTreeMap<PathBuf, Option<String>> = BTreeMap::new();
    for group in &report.failures {
        let Some(location) = &group.location else { continue };
        let Some(path) = in_project(root, &location.file) else { continue };
        let text = texts.entry(path.clone()).or_insert_with(|| position::read(&path));
        let range = encoding.line_range(text.as_deref(), location.line, location.column);
        let shares = shares(group, report);
        let mut related = group.stack.as_ref().map_or_else(Vec::new, |stack| {
            stack_related(stack, group.location.as_ref(), root, encoding, uri_for, &mut texts)
        });
        if let Some(uri) = uri_for(&path) {
            related.extend(
                shares
                    .iter()
                    .flat_map(|s| s.seeds.iter().map(move |seed| (s.opponent.as_str(), *seed)))
                    .take(SEEDS_SHOWN * 2)
                    .map(|(opponent, seed)| DiagnosticRelatedInformation {
                        location: Location::new(uri.clone(), range),
                        message: format!("lost seed {seed} vs {opponent}"),
                    }),
            );
        }
        let related = (!related.is_empty()).then_some(related);
        files.entry(path).or_default().push(Diagnostic {
            range,
            severity: Some(DiagnosticSeverity::ERROR),
            code: Some(NumberOrString::String(group.kind.as_str().to_owned())),
            source: Some(SOURCE.to_owned()),
            message: message(group, &shares),
            related_information: related,
            data: Some(json!({
                "project": root,
                "opponent": group.first_opponent,
                "seed": group.first_seed,
                "turn": group.first_turn,
                "replay": group.replay,
                "identity": group.identity,
            })),
            ..Diagnostic::default()
        });
    }
    let what = report.wasted_moves();
    for summary in &report.wasteful {
        for site in &summary.sites {
            let location = site.location();
            let Some(path) = in_project(root, &location.file) else { continue };
            let text = texts.entry(path.clone()).or_insert_with(|| position::read(&path));
            let range = encoding.line_range(text.as_deref(), location.line, location.column);
            let related =
                stack_related(&site.stack, Some(&location), root, encoding, uri_for, &mut texts);
            files.entry(path).or_default().push(Diagnostic {
                range,
                severity: Some(DiagnosticSeverity::WARNING),
                code: Some(NumberOrString::String("wasted_move".to_owned())),
                source: Some(SOURCE.to_owned()),
                message: waste_message(summary, site, what),
                related_information: (!related.is_empty()).then_some(related),
                data: Some(json!({
                    "project": root,
                    "opponent": summary.opponent,
                    "seed": summary.first_seed,
                    "turn": site.first_turn,
                    "replay": summary.replay,
                })),
                ..Diagnostic::default()
            });
        }
    }
    files
}

/// The diagnostic message of a line that wasted moves: what the move was, then how many it
/// wasted in the game played again and how many were wasted against that opponent in all.
///
/// ```text
/// wasted move attack(4, 0) (re-attacks): legal, but it achieved nothing
/// 6 made here in seed 3 vs random, first at move 8; 9 in 3 games vs random in all
/// ```
pub fn waste_message(summary: &WastefulSummary, site: &WasteSite, what: &str) -> String {
    let what = if what == "wasted moves" { String::new() } else { format!(" ({what})") };
    let seed = summary.first_seed.map_or_else(String::new, |seed| format!(" in seed {seed}"));
    format!(
        "wasted move {}{what}: legal, but it achieved nothing\n{} made here{seed} vs {}, first at move {}; {} in {} vs {} in all",
        site.action,
        site.moves,
        summary.opponent,
        site.first_turn,
        summary.moves,
        if summary.games == 1 { "1 game".to_owned() } else { format!("{} games", summary.games) },
        summary.opponent,
    )
}

/// Says on each diagnostic whose failure moved since `previous` (the project's last run, by
/// [`Comparison`]: the same identity at another line) where it was — `moved from line 141 to
/// 139 since the last run` — so that an edit above a bug reads as the same failure, not as a
/// new one.
pub fn note_moves(
    files: &mut BTreeMap<PathBuf, Vec<Diagnostic>>,
    previous: &SuiteReport,
    report: &SuiteReport,
) {
    let comparison = Comparison::between(previous, report);
    for diagnostic in files.values_mut().flatten() {
        let identity = diagnostic.data.as_ref().and_then(|data| data["identity"].as_str());
        let line = diagnostic.range.start.line + 1;
        let moved = comparison.moved_failures.iter().find(|moved| {
            identity.is_some()
                && moved.failure.identity.as_deref() == identity
                && moved.failure.location.as_ref().is_some_and(|l| l.line == line)
        });
        if let Some(moved) = moved {
            let _ = write!(diagnostic.message, "\n{} since the last run", moved.phrase());
        }
    }
}

/// The frames of a call stack other than the one the diagnostic sits on (`at`), innermost
/// first (numbered from `#0`), each at its own line: `#1 my_bot::main  src/lib.rs:3:5`,
/// `#2 my_bot::a  src/lib.rs:9:5 (in the recursion ×1,942)`. Frames without a line or in
/// files the client cannot name are left out.
fn stack_related(
    stack: &CallStack,
    at: Option<&SourceLocation>,
    root: &Path,
    encoding: PositionEncoding,
    uri_for: &dyn Fn(&Path) -> Option<Uri>,
    texts: &mut BTreeMap<PathBuf, Option<String>>,
) -> Vec<DiagnosticRelatedInformation> {
    let mut related = Vec::new();
    let mut in_cycle: Option<(u32, u32)> = None;
    for (index, frame) in stack.frames.iter().enumerate() {
        if let Some(cycle) = frame.cycle {
            in_cycle = Some((cycle.frames, cycle.times));
        }
        let message = match in_cycle {
            Some((_, times)) => format!(
                "#{index} {} (in the recursion ×{})",
                frame_text(frame),
                thousands(u64::from(times))
            ),
            None => format!("#{index} {}", frame_text(frame)),
        };
        in_cycle = in_cycle.and_then(|(left, times)| (left > 1).then(|| (left - 1, times)));
        let Some(location) = frame.location.as_ref().filter(|l| Some(*l) != at) else {
            continue;
        };
        let Some(path) = in_project(root, &location.file) else { continue };
        let Some(uri) = uri_for(&path) else { continue };
        let text = texts.entry(path.clone()).or_insert_with(|| position::read(&path));
        let range = encoding.line_range(text.as_deref(), location.line, location.column);
        related.push(DiagnosticRelatedInformation { location: Location::new(uri, range), message });
    }
    related
}

/// Compiler errors in the project at `root` as diagnostics, by file (warnings are
/// rust-analyzer's business; errors elsewhere, in a dependency, are left to the log).
pub fn build_diagnostics(
    root: &Path,
    messages: &[CompilerMessage],
    encoding: PositionEncoding,
) -> BTreeMap<PathBuf, Vec<Diagnostic>> {
    let mut files: BTreeMap<PathBuf, Vec<Diagnostic>> = BTreeMap::new();
    for m in messages.iter().filter(|m| m.level == "error") {
        let Some(file) = &m.file else { continue };
        let Some(path) = in_project(root, file) else { continue };
        let text = position::read(&path);
        let range = encoding.span_range(
            text.as_deref(),
            (m.line.max(1), m.column.max(1)),
            (m.end_line, m.end_column.max(1)),
        );
        files.entry(path).or_default().push(Diagnostic {
            range,
            severity: Some(DiagnosticSeverity::ERROR),
            code: m.code.clone().map(NumberOrString::String),
            source: Some(SOURCE.to_owned()),
            message: format!("build failed: {}", m.message),
            ..Diagnostic::default()
        });
    }
    files
}

/// The hover of a failure line: what failed, the board at the failing move, what the bots drew
/// on their boards by then (`marks`, `botlens_replay::Replay::marks_text`) and the bot's log
/// lines of that turn (`board` is `None` when the game could not be replayed).
pub fn hover_text(
    group: &FailureGroup,
    board: Option<&str>,
    logs: &[String],
    marks: Option<&str>,
) -> String {
    let mut out = format!(
        "**botlens: {}** ×{} — {}\n\nseed {} vs {}, {}\n",
        group.kind,
        group.count,
        group.message,
        group.first_seed,
        group.first_opponent,
        group.first_move()
    );
    match board {
        Some(board) => {
            let _ =
                write!(out, "\nBoard at the failing move:\n\n```text\n{}\n```\n", board.trim_end());
        }
        None => out.push_str("\n(the game could not be replayed)\n"),
    }
    if let Some(marks) = marks {
        let _ = write!(out, "\nWhat the bots drew:\n\n```text\n{}\n```\n", marks.trim_end());
    }
    if logs.is_empty() {
        out.push_str("\nThe bot logged nothing that turn.\n");
    } else {
        let _ = write!(out, "\nThe bot's log that turn:\n\n```text\n{}\n```\n", logs.join("\n"));
    }
    if let Some(stack) = &group.stack {
        let _ = write!(
            out,
            "\nCall stack, innermost first:\n\n```text\n{}\n```\n",
            stack.clone().bounded().lines().join("\n")
        );
    }
    if let Some(lines) = &group.fuel_profile {
        let lines = botlens_harness::profile::render_lines(lines, Path::new(""));
        let _ =
            write!(out, "\nWhere that turn's fuel went:\n\n```text\n{}\n```\n", lines.join("\n"));
    }
    if let Some(sites) = &group.memory_growth {
        let lines = botlens_harness::fuel::render_growth(sites, Path::new(""));
        let _ = write!(
            out,
            "\nWhat grew the memory over that game:\n\n```text\n{}\n```\n",
            lines.join("\n")
        );
    }
    let _ = write!(out, "\nStep through it: `{}`", group.replay);
    out
}

/// The scores for the code lens: `vs random 48-2-0 · vs hunter 30-20-0` (wins-losses-draws),
/// or for a puzzle `solved 5/5, steps 81 (par 81)`.
pub fn scores(report: &SuiteReport) -> String {
    if report.opponents.iter().any(|o| o.par.is_some()) {
        let games: u32 = report.opponents.iter().map(|o| o.games).sum();
        let solved: u32 = report.opponents.iter().map(|o| o.wins).sum();
        let weighted = |value: &dyn Fn(&botlens_harness::report::OpponentSummary) -> f64| {
            let total: f64 = report.opponents.iter().map(|o| value(o) * f64::from(o.games)).sum();
            if games == 0 { 0.0 } else { total / f64::from(games) }
        };
        let steps = weighted(&|o| o.mean_moves);
        let par = weighted(&|o| o.par.unwrap_or(0.0));
        return format!("solved {solved}/{games}, steps {steps:.0} (par {par:.0})");
    }
    let parts: Vec<String> = report
        .opponents
        .iter()
        .map(|o| format!("vs {} {}-{}-{}", o.name, o.wins, o.losses, o.draws))
        .collect();
    parts.join(" · ")
}

#[cfg(test)]
mod tests {
    use botlens_engine::{CallStack, Cycle, FailureKind, SourceLocation, StackFrame};
    use botlens_harness::report::OpponentSummary;

    use super::*;

    fn opponent(
        name: &str,
        games: u32,
        wins: u32,
        losses: u32,
        par: Option<f64>,
    ) -> OpponentSummary {
        OpponentSummary {
            name: name.into(),
            games,
            wins,
            losses,
            draws: games - wins - losses,
            mean_moves: 81.0,
            par,
            faults: losses,
            pairs: None,
            outcomes: Default::default(),
        }
    }

    fn group(kind: FailureKind, message: &str, file: &str, line: u32, column: u32) -> FailureGroup {
        FailureGroup {
            kind,
            message: message.into(),
            location: Some(SourceLocation { file: file.into(), line, column }),
            count: 3,
            seeds: vec![4, 17, 31],
            opponents: vec!["hunter".into()],
            seeds_by_opponent: vec![vec![4, 17, 31]],
            first_seed: 4,
            first_opponent: "hunter".into(),
            first_seat: 0,
            first_turn: 23,
            first_bot_turn: 11,
            replay: "botlens replay /bot --vs hunter --seed 4".into(),
            replays: Vec::new(),
            identity: None,
            stack: None,
            fuel_profile: None,
            memory_growth: None,
        }
    }

    fn report(failures: Vec<FailureGroup>) -> SuiteReport {
        SuiteReport {
            game: "battleships".into(),
            bot: "bot".into(),
            seeds: "0..=49".into(),
            games: 100,
            duration_ms: 10,
            opponents: vec![
                opponent("random", 50, 48, 2, None),
                opponent("hunter", 50, 30, 20, None),
            ],
            failures,
            wasteful: Vec::new(),
            cancelled: false,
        }
    }

    #[test]
    fn the_message_says_what_failed_and_which_games_it_lost() {
        let g = group(
            FailureKind::IllegalMove,
            "illegal move attack(10, 3): x out of range",
            "src/lib.rs",
            7,
            9,
        );
        let shares = shares(&g, &report(vec![g.clone()]));
        assert_eq!(
            message(&g, &shares),
            "illegal move attack(10, 3): x out of range\nlost 3/50 vs hunter (seeds 4, 17, 31); first at move 23 (the bot's turn 11)"
        );
    }

    #[test]
    fn kinds_are_named_once_and_opponents_get_their_own_seeds() {
        // The report's grouping is the editor's: games lost at two columns of one line are one
        // group, and the diagnostic counts all of them, as the terminal does.
        let g = FailureGroup {
            opponents: vec!["random".into(), "hunter".into()],
            seeds_by_opponent: vec![vec![47], vec![51, 57]],
            seeds: vec![47, 51, 57],
            ..group(FailureKind::Panic, "X opens on a corner or an edge", "src/lib.rs", 7, 9)
        };
        let shares = shares(&g, &report(vec![g.clone()]));
        assert_eq!(shares.iter().map(|s| s.lost).sum::<u32>(), g.count);
        assert_eq!(
            message(&g, &shares),
            "panic: X opens on a corner or an edge\nlost 1/50 vs random (seed 47), 2/50 vs hunter (seeds 51, 57); first at move 23 (the bot's turn 11)"
        );
    }

    #[test]
    fn lines_that_wasted_moves_become_warnings_with_their_callers() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("src");
        std::fs::create_dir(&src).unwrap();
        let source = "fn play() {\n    again(turn);\n}\nfn again() {\n    turn.attack(x, y);\n}\n";
        std::fs::write(src.join("lib.rs"), source).unwrap();
        let root = canonical(dir.path());
        // As a report's JSON has it.
        let frame = |function: &str, line| json!({"function": function, "location": {"file": "src/lib.rs", "line": line, "column": 5}});
        let summary: WastefulSummary = serde_json::from_value(json!({
            "opponent": "random", "games": 3, "moves": 9, "first_seed": 3,
            "replay": "botlens replay /bot --vs random --seed 3",
            "sites": [{
                "file": "src/lib.rs", "line": 5, "column": 5, "function": "bot::again",
                "moves": 6, "first_turn": 8, "action": "attack(4, 0)",
                "stack": {"frames": [frame("bot::again", 5), frame("bot::play", 2)]},
            }],
        }))
        .unwrap();
        let report = SuiteReport { wasteful: vec![summary], ..report(Vec::new()) };
        let uri_for = |p: &Path| Uri::from_file_path(p);
        let files = failure_diagnostics(&root, &report, PositionEncoding::Utf16, &uri_for);
        let [(path, diagnostics)] = files.iter().collect::<Vec<_>>()[..] else {
            panic!("{files:?}")
        };
        assert_eq!(path, &root.join("src/lib.rs"));
        let [warning] = &diagnostics[..] else { panic!("{diagnostics:?}") };
        assert_eq!(warning.severity, Some(DiagnosticSeverity::WARNING));
        assert_eq!(warning.range.start.line, 4, "the call that made the move");
        assert_eq!(warning.code, Some(NumberOrString::String("wasted_move".into())));
        assert_eq!(
            warning.message,
            "wasted move attack(4, 0) (re-attacks): legal, but it achieved nothing\n6 made here in seed 3 vs random, first at move 8; 9 in 3 games vs random in all"
        );
        let related = warning.related_information.as_ref().unwrap();
        let [caller] = &related[..] else { panic!("{related:?}") };
        assert_eq!(
            (caller.location.range.start.line, caller.message.as_str()),
            (1, "#1 bot::play  src/lib.rs:2:5")
        );
        let data = warning.data.as_ref().unwrap();
        assert_eq!((data["seed"].as_u64(), data["turn"].as_u64()), (Some(3), Some(8)));
        assert_eq!(data["replay"], "botlens replay /bot --vs random --seed 3");
    }

    #[test]
    fn groups_become_diagnostics_at_their_zero_based_lines_in_their_files() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("src");
        std::fs::create_dir(&src).unwrap();
        std::fs::write(src.join("lib.rs"), "fn a() {\n    let é = 1; turn.attack(x, y);\n}\n")
            .unwrap();
        let root = canonical(dir.path());
        let absolute = root.join("src/lib.rs").display().to_string();
        let groups = vec![
            group(
                FailureKind::IllegalMove,
                "illegal move attack(10, 3): x out of range",
                "src/lib.rs",
                2,
                16,
            ),
            group(FailureKind::Panic, "boom", &absolute, 3, 1),
            FailureGroup { location: None, ..group(FailureKind::NoMove, "no move", "", 0, 0) },
            // Outside the project (a library's file, or what a hostile module names): no
            // diagnostic there, and the file is not read.
            group(FailureKind::MemoryLimit, "grew", "/etc/passwd", 1, 1),
            group(FailureKind::Trap, "trap", "../outside.rs", 1, 1),
            group(FailureKind::Trap, "trap", "src/../../outside.rs", 1, 1),
        ];
        let uri_for = |p: &Path| Uri::from_file_path(p);
        let files = failure_diagnostics(&root, &report(groups), PositionEncoding::Utf16, &uri_for);
        let [(path, diagnostics)] = files.iter().collect::<Vec<_>>()[..] else {
            panic!("{files:?}")
        };
        assert_eq!(path, &root.join("src/lib.rs"), "relative and absolute paths meet");
        let [illegal, panic] = &diagnostics[..] else { panic!("{diagnostics:?}") };
        assert_eq!((illegal.range.start.line, illegal.range.start.character), (1, 15));
        assert_eq!(illegal.range.end.character, 33);
        assert_eq!(illegal.code, Some(NumberOrString::String("illegal_move".into())));
        assert_eq!(illegal.source.as_deref(), Some("botlens"));
        assert_eq!(illegal.severity, Some(DiagnosticSeverity::ERROR));
        let related = illegal.related_information.as_ref().unwrap();
        assert_eq!(related[0].message, "lost seed 4 vs hunter");
        let data = illegal.data.as_ref().unwrap();
        assert_eq!(data["replay"], "botlens replay /bot --vs hunter --seed 4");
        assert_eq!((data["opponent"].as_str(), data["seed"].as_u64()), (Some("hunter"), Some(4)));
        assert_eq!(panic.range.start.line, 2);
        // UTF-8 counts the two bytes of `é`.
        let files = failure_diagnostics(
            &root,
            &report(vec![group(FailureKind::IllegalMove, "m", "src/lib.rs", 2, 16)]),
            PositionEncoding::Utf8,
            &uri_for,
        );
        assert_eq!(files.values().next().unwrap()[0].range.start.character, 16);
    }

    #[test]
    fn a_failure_that_moved_since_the_last_run_says_from_where() {
        let dir = tempfile::tempdir().unwrap();
        let root = canonical(dir.path());
        let uri_for = |p: &Path| Uri::from_file_path(p);
        let at = |line, identity: &str| FailureGroup {
            identity: Some(identity.into()),
            ..group(FailureKind::Panic, "boom", "src/lib.rs", line, 5)
        };
        let before = report(vec![at(141, "aaaa"), at(200, "bbbb")]);
        let after = report(vec![at(139, "aaaa"), at(210, "cccc")]);
        let mut files = failure_diagnostics(&root, &after, PositionEncoding::Utf16, &uri_for);
        note_moves(&mut files, &before, &after);
        let diagnostics = &files[&root.join("src/lib.rs")];
        assert!(
            diagnostics[0].message.ends_with("\nmoved from line 141 to 139 since the last run"),
            "{}",
            diagnostics[0].message
        );
        assert!(
            !diagnostics[1].message.contains("moved"),
            "a new failure: {}",
            diagnostics[1].message
        );
        assert_eq!(diagnostics[0].data.as_ref().unwrap()["identity"], "aaaa");
    }

    #[test]
    fn compiler_errors_become_diagnostics_and_warnings_do_not() {
        let message = |level: &str| CompilerMessage {
            level: level.into(),
            message: "cannot find value `x` in this scope".into(),
            code: Some("E0425".into()),
            rendered: String::new(),
            file: Some("/no/such/lib.rs".into()),
            line: 5,
            column: 9,
            end_line: 5,
            end_column: 10,
        };
        let messages = [message("error"), message("warning")];
        let files = build_diagnostics(Path::new("/no/such"), &messages, PositionEncoding::Utf16);
        let diagnostics = &files[Path::new("/no/such/lib.rs")];
        assert!(
            build_diagnostics(Path::new("/elsewhere"), &messages, PositionEncoding::Utf16)
                .is_empty()
        );
        assert_eq!(diagnostics.len(), 1);
        assert_eq!(diagnostics[0].message, "build failed: cannot find value `x` in this scope");
        assert_eq!((diagnostics[0].range.start.line, diagnostics[0].range.start.character), (4, 8));
        assert_eq!(diagnostics[0].code, Some(NumberOrString::String("E0425".into())));
    }

    #[test]
    fn the_hover_of_a_turn_out_of_fuel_says_where_its_fuel_went() {
        let spin = botlens_harness::profile::LineCost {
            file: "src/lib.rs".into(),
            line: 50,
            function: "bot::hunt".into(),
            self_fuel: 970,
            total_fuel: 970,
            self_percent: 97.0,
            total_percent: 97.0,
        };
        let g = FailureGroup {
            fuel_profile: Some(vec![spin]),
            memory_growth: None,
            ..group(FailureKind::OutOfFuel, "out of fuel", "src/lib.rs", 50, 16)
        };
        let text = hover_text(&g, None, &[], None);
        let expected = "Where that turn's fuel went:\n\n```text\n 97.0 % total,  97.0 % self  src/lib.rs:50  in bot::hunt\n```";
        assert!(text.contains(expected), "{text}");
        let other =
            hover_text(&group(FailureKind::Panic, "boom", "src/lib.rs", 2, 1), None, &[], None);
        assert!(!other.contains("fuel went"), "{other}");
    }

    #[test]
    fn the_hover_shows_the_board_and_the_log_of_the_turn() {
        let g = group(FailureKind::IllegalMove, "illegal move", "src/lib.rs", 2, 1);
        let text = hover_text(&g, Some("X . .\n. O .\n"), &["aiming at 10,3".into()], None);
        assert!(text.contains("```text\nX . .\n. O .\n```"), "{text}");
        assert!(text.contains("```text\naiming at 10,3\n```"), "{text}");
        assert!(text.contains("seed 4 vs hunter, move 23 (the bot's turn 11)"), "{text}");
        assert!(text.ends_with("`botlens replay /bot --vs hunter --seed 4`"), "{text}");
        let quiet = hover_text(&g, None, &[], None);
        assert!(
            quiet.contains("could not be replayed") && quiet.contains("logged nothing"),
            "{quiet}"
        );
    }

    /// A stack overflow in `src/lib.rs`: the helper that ran out (line 1), the recursion of
    /// `b` (line 2, where the diagnostic sits) and `a` (line 3), entered from `play` in
    /// `src/play.rs` (line 1), and a frame without a line.
    fn overflow() -> FailureGroup {
        let at = |file: &str, line| Some(SourceLocation { file: file.into(), line, column: 1 });
        let frame = |function: &str, location, cycle| StackFrame {
            function: function.into(),
            location,
            folded: 0,
            cycle,
        };
        FailureGroup {
            stack: Some(CallStack {
                frames: vec![
                    frame("bot::helper", at("src/lib.rs", 1), None),
                    frame("bot::b", at("src/lib.rs", 2), Some(Cycle { frames: 2, times: 1942 })),
                    frame("bot::a", at("src/lib.rs", 3), None),
                    frame("bot::play", at("src/play.rs", 1), None),
                    frame("bot::unnamed", None, None),
                ],
                dropped: 0,
            }),
            ..group(FailureKind::StackOverflow, "stack overflow", "src/lib.rs", 2, 1)
        }
    }

    #[test]
    fn the_other_frames_of_the_stack_are_related_information_at_their_own_lines() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        std::fs::write(
            dir.path().join("src/lib.rs"),
            "fn helper() {}
b();
a();
",
        )
        .unwrap();
        let root = canonical(dir.path());
        let uri_for = |p: &Path| Uri::from_file_path(p);
        let files = failure_diagnostics(
            &root,
            &report(vec![overflow()]),
            PositionEncoding::Utf16,
            &uri_for,
        );
        let diagnostic = &files[&root.join("src/lib.rs")][0];
        assert_eq!(diagnostic.range.start.line, 1, "on the recursive call");
        let related = diagnostic.related_information.as_ref().unwrap();
        let frames: Vec<(&str, u32, &str)> = related
            .iter()
            .take(3)
            .map(|r| {
                let is = |file: &str| {
                    uri_for(&root.join("src").join(file)).as_ref() == Some(&r.location.uri)
                };
                let file = ["lib.rs", "play.rs"].into_iter().find(|f| is(f)).unwrap_or("elsewhere");
                (file, r.location.range.start.line, r.message.as_str())
            })
            .collect();
        assert_eq!(
            frames,
            [
                ("lib.rs", 0, "#0 bot::helper  src/lib.rs:1:1"),
                ("lib.rs", 2, "#2 bot::a  src/lib.rs:3:1 (in the recursion ×1,942)"),
                ("play.rs", 0, "#3 bot::play  src/play.rs:1:1"),
            ]
        );
        assert_eq!(related[3].message, "lost seed 4 vs hunter", "the seeds follow the frames");
        let text = hover_text(&overflow(), None, &[], None);
        assert!(
            text.contains("Call stack, innermost first:\n\n```text\nbot::helper  src/lib.rs:1:1\n┌ ×1,942\n│ bot::b"),
            "{text}"
        );
        assert!(
            !hover_text(&group(FailureKind::Panic, "boom", "src/lib.rs", 2, 1), None, &[], None)
                .contains("Call stack")
        );
    }

    #[test]
    fn scores_read_as_wins_losses_draws_or_solved_against_par() {
        assert_eq!(scores(&report(Vec::new())), "vs random 48-2-0 · vs hunter 30-20-0");
        let puzzle = SuiteReport {
            opponents: vec![opponent("classic", 5, 5, 0, Some(81.0))],
            ..report(Vec::new())
        };
        assert_eq!(scores(&puzzle), "solved 5/5, steps 81 (par 81)");
    }
}
