//! A suite report as SARIF 2.1.0 (OASIS's Static Analysis Results Interchange Format), for code
//! scanning: GitHub's `upload-sarif` shows each result on its line, and on a pull request's
//! changed lines.
//!
//! One run, its tool `botlens` with a rule per failure kind and one for wasted moves (each with
//! help text), and these results:
//!
//! - a failure group: an `error` at its source line, its message the bot's, the games it lost and
//!   the command that replays the first; its code flow is the first game's call stack, one
//!   thread-flow location per bot frame in the order they were entered (outermost first,
//!   nesting level 0, each a `call`; the innermost, where it failed, last);
//! - a line of the bot that made wasted moves: a `warning` there, with each opponent's share and
//!   the call stack of the first;
//! - what has no line (a failure without a location, wasted moves not located): at the bot's
//!   own file ([`Sources::bot_file`]) with no region, since code scanning refuses a file
//!   holding a result without a location; with no such file either, a notification of the
//!   run's invocation instead.
//!
//! Paths are relative to the `%SRCROOT%` base (the repository's root, [`Sources::root`],
//! given as an absolute `file:` URI in `originalUriBaseIds`); files outside it are absolute
//! `file:` URIs. Columns count characters (`unicodeCodePoints`), as DWARF's do.
//!
//! Each result has a partial fingerprint, `botlens/v1`, that stays while lines move so code
//! scanning follows an alert from run to run: a failure's is its kind, its file and its
//! identity (the bot functions on its stack and the shape of its message), a wasted-move line's
//! its file and the functions on its stack; results alike on both counts are told apart by
//! their order in the file.

use std::collections::BTreeMap;

use botlens_engine::failure::digest;
use botlens_engine::{CallStack, FailureKind, SourceLocation};
use botlens_harness::report::SuiteReport;
use serde::Serialize;

use crate::{
    Place, Sources, failure_lines, one_line, unlocated_wasted_lines, wasted_line_lines,
    wasted_lines,
};

/// The schema a log names itself with (`$schema`).
pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The base every path inside the repository is relative to.
pub const SRCROOT: &str = "%SRCROOT%";

/// The rule of wasted moves.
pub const WASTED_MOVE: &str = "wasted_move";

/// The key of botlens's partial fingerprint.
pub const FINGERPRINT: &str = "botlens/v1";

/// The report as a SARIF log, pretty-printed JSON.
pub fn write(report: &SuiteReport, sources: &Sources) -> String {
    let log = log(report, sources);
    serde_json::to_string_pretty(&log).expect("a SARIF log is plain data") + "\n"
}

#[derive(Serialize)]
struct Log {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run {
    tool: Tool,
    automation_details: AutomationDetails,
    original_uri_base_ids: BTreeMap<&'static str, ArtifactLocation>,
    column_kind: &'static str,
    results: Vec<SarifResult>,
    invocations: [Invocation; 1],
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    version: &'static str,
    semantic_version: &'static str,
    rules: Vec<Rule>,
}

#[derive(Serialize)]
struct AutomationDetails {
    id: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Rule {
    id: &'static str,
    name: String,
    short_description: Text,
    full_description: Text,
    help: Help,
    default_configuration: Configuration,
    properties: RuleProperties,
}

#[derive(Serialize)]
struct Help {
    text: String,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
struct RuleProperties {
    tags: [&'static str; 2],
    precision: &'static str,
    #[serde(rename = "problem.severity")]
    severity: &'static str,
}

#[derive(Serialize)]
struct Text {
    text: String,
}

impl Text {
    fn of(text: impl Into<String>) -> Text {
        Text { text: text.into() }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult {
    rule_id: &'static str,
    rule_index: usize,
    level: &'static str,
    message: Text,
    locations: [Location; 1],
    #[serde(skip_serializing_if = "Vec::is_empty")]
    code_flows: Vec<CodeFlow>,
    partial_fingerprints: BTreeMap<&'static str, String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    #[serde(skip_serializing_if = "Option::is_none")]
    physical_location: Option<PhysicalLocation>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    logical_locations: Vec<LogicalLocation>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<Text>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<Region>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactLocation {
    uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    uri_base_id: Option<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    start_column: Option<u32>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LogicalLocation {
    fully_qualified_name: String,
    kind: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CodeFlow {
    message: Text,
    thread_flows: [ThreadFlow; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ThreadFlow {
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<Text>,
    locations: Vec<ThreadFlowLocation>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ThreadFlowLocation {
    location: Location,
    nesting_level: usize,
    execution_order: usize,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    kinds: Vec<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Invocation {
    execution_successful: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tool_execution_notifications: Vec<Notification>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Notification {
    level: &'static str,
    message: Text,
    associated_rule: RuleReference,
}

#[derive(Serialize)]
struct RuleReference {
    id: &'static str,
    index: usize,
}

/// What one rule is about: its short and full descriptions.
fn about(kind: FailureKind) -> (&'static str, &'static str) {
    match kind {
        FailureKind::IllegalMove => (
            "A move the rules refuse lost a game",
            "The bot made a move the game's rules refuse (off the board, an occupied square, a blocked slide).",
        ),
        FailureKind::Panic => (
            "A panic lost a game",
            "The bot panicked (an unwrap of nothing, an index out of bounds, an explicit panic or failed assertion).",
        ),
        FailureKind::Trap => (
            "A trap lost a game",
            "The bot trapped: an `unreachable`, a division by zero, an out-of-bounds memory access, or WASI's `proc_exit`.",
        ),
        FailureKind::OutOfFuel => (
            "Running out of fuel lost a game",
            "The bot used up its fuel for the turn or for the game (an endless or too slow loop); the message says which budget.",
        ),
        FailureKind::MemoryLimit => (
            "The memory cap lost a game",
            "The bot tried to grow its memory past the cap; the location is the growing allocation.",
        ),
        FailureKind::StackOverflow => (
            "A stack overflow lost a game",
            "The bot exhausted the wasm stack, usually by unbounded recursion; the location is the recursive call to change.",
        ),
        FailureKind::NoMove => {
            ("A turn without a move lost a game", "The bot's turn ended without a move.")
        }
        FailureKind::SecondMove => (
            "A second move in one turn lost a game",
            "The bot tried a second move in one turn; the location is the second call.",
        ),
        FailureKind::BadModule => (
            "The module is not a usable bot",
            "The module could not be loaded or instantiated: not WebAssembly, a missing export, a wrong signature or an ABI mismatch.",
        ),
        FailureKind::MalformedMessage => (
            "A malformed message lost a game",
            "A message from the bot could not be decoded: bytes that are not an action, or a range outside its memory.",
        ),
        FailureKind::Timeout => (
            "The wall-clock backstop lost a game",
            "The wall-clock backstop stopped the bot before its fuel ran out.",
        ),
    }
}

/// What every failure rule's help says after the rule's own sentence.
const FAILURE_HELP: &str = "botlens played the bot's suite (its games against its opponents, on its seeds) in its sandbox, and the bot lost games this way. The result sits on the line where the first of them failed; its code flow is the bot's call stack there, outermost call first; its message names the opponents and seeds of the games lost and the `botlens replay` command that steps through the first of them. `botlens debug`, with the same arguments, stops a debugger at the failing turn.";

/// The rules: one per failure kind, in [`FailureKind::ALL`]'s order, then wasted moves.
fn rules(wasted: &str) -> Vec<Rule> {
    let rule = |id, (short, full): (&str, &str), help: String, level| Rule {
        id,
        name: pascal_case(id),
        short_description: Text::of(short),
        full_description: Text::of(full),
        help: Help { text: help },
        default_configuration: Configuration { level },
        properties: RuleProperties {
            tags: ["botlens", "correctness"],
            precision: "very-high",
            severity: if level == "error" { "error" } else { "warning" },
        },
    };
    let mut rules: Vec<Rule> = FailureKind::ALL
        .iter()
        .map(|&kind| {
            let (short, full) = about(kind);
            rule(kind.as_str(), (short, full), format!("{full}\n\n{FAILURE_HELP}"), "error")
        })
        .collect();
    let full = format!(
        "The bot made legal moves that achieved nothing ({wasted}): it did not lose the game by them, but played worse."
    );
    let help = format!(
        "{full}\n\nbotlens played the first game against each opponent in which the bot wasted a move again and located each wasted move. The result sits on the line that made them; its code flow is the bot's call stack at the first, outermost call first; its message says how many each opponent's game had and the `botlens replay` command that steps through that game."
    );
    rules.push(rule(WASTED_MOVE, ("Wasted moves", &full), help, "warning"));
    rules
}

/// `illegal_move` → `IllegalMove`.
fn pascal_case(id: &str) -> String {
    id.split('_')
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
        })
        .collect()
}

/// The log of `report`.
fn log(report: &SuiteReport, sources: &Sources) -> Log {
    let what = report.wasted_moves();
    let wasted_index = FailureKind::ALL.len();
    let (lines, unlocated) = wasted_lines(report);
    // What each result's fingerprint is made of, and where the result is in its file.
    let mut parts: Vec<(Vec<String>, (u32, u32))> = Vec::new();
    for group in &report.failures {
        let file = location_file(group.location.as_ref(), sources);
        let identity = group.identity.clone().unwrap_or_default();
        let at = group.location.as_ref().map_or((0, 0), |l| (l.line, l.column));
        parts.push((vec![group.kind.as_str().to_owned(), file, identity], at));
    }
    for line in &lines {
        let site = line.site;
        let file = location_file(Some(&site.location()), sources);
        let mut named = vec![WASTED_MOVE.to_owned(), file];
        named.extend(site.stack.functions().into_iter().map(str::to_owned));
        parts.push((named, (site.line, site.column)));
    }
    for summary in &unlocated {
        let named = vec![WASTED_MOVE.to_owned(), String::new(), summary.opponent.clone()];
        parts.push((named, (0, 0)));
    }
    let mut prints = fingerprints(&parts).into_iter();

    let mut results = Vec::new();
    let mut notifications = Vec::new();
    let mut add =
        |rule: (&'static str, usize, &'static str), message: Vec<String>, location, code_flows| {
            let (rule_id, rule_index, level) = rule;
            let message = message.join("\n");
            let print = prints.next().unwrap_or_default();
            match location {
                Some(location) => results.push(SarifResult {
                    rule_id,
                    rule_index,
                    level,
                    message: Text::of(message),
                    locations: [location],
                    code_flows,
                    partial_fingerprints: BTreeMap::from([(FINGERPRINT, print)]),
                }),
                None => notifications.push(Notification {
                    level,
                    message: Text::of(format!("{rule_id}: {message}")),
                    associated_rule: RuleReference { id: rule_id, index: rule_index },
                }),
            }
        };
    for group in &report.failures {
        let index = FailureKind::ALL.iter().position(|&k| k == group.kind).unwrap_or(0);
        add(
            (group.kind.as_str(), index, "error"),
            failure_lines(group, report),
            result_location(group.location.as_ref(), sources),
            group.stack.iter().map(|stack| code_flow(stack, sources)).collect(),
        );
    }
    let wasted = (WASTED_MOVE, wasted_index, "warning");
    for line in &lines {
        let stack = &line.site.stack;
        add(
            wasted,
            wasted_line_lines(line, what),
            result_location(Some(&line.site.location()), sources),
            (!stack.frames.is_empty()).then(|| code_flow(stack, sources)).into_iter().collect(),
        );
    }
    for summary in unlocated {
        add(
            wasted,
            unlocated_wasted_lines(summary, what),
            result_location(None, sources),
            Vec::new(),
        );
    }

    let version = env!("CARGO_PKG_VERSION");
    Log {
        schema: SCHEMA,
        version: "2.1.0",
        runs: [Run {
            tool: Tool {
                driver: Driver {
                    name: "botlens",
                    version,
                    semantic_version: version,
                    rules: rules(what),
                },
            },
            automation_details: AutomationDetails {
                id: format!("botlens/{}/", one_line(&report.bot)),
            },
            original_uri_base_ids: BTreeMap::from([(
                SRCROOT,
                ArtifactLocation { uri: file_uri(&sources.root, true), uri_base_id: None },
            )]),
            column_kind: "unicodeCodePoints",
            results,
            invocations: [Invocation {
                execution_successful: !report.cancelled,
                tool_execution_notifications: notifications,
            }],
        }],
    }
}

/// The fingerprint of each result, from what it is made of and where it is in its file: the
/// digest of its parts and its rank among the results with the same parts, by position (so
/// two alike results keep theirs while lines above them move).
fn fingerprints(results: &[(Vec<String>, (u32, u32))]) -> Vec<String> {
    let mut order: Vec<usize> = (0..results.len()).collect();
    order.sort_by(|&a, &b| results[a].cmp(&results[b]).then(a.cmp(&b)));
    let mut prints = vec![String::new(); results.len()];
    let mut rank = 0;
    for (at, &index) in order.iter().enumerate() {
        let parts = &results[index].0;
        rank = if at > 0 && results[order[at - 1]].0 == *parts { rank + 1 } else { 0 };
        let rank = rank.to_string();
        prints[index] = digest(parts.iter().map(String::as_str).chain([rank.as_str()]));
    }
    prints
}

/// The file a fingerprint names for `location`: its place, or the bot's file.
fn location_file(location: Option<&SourceLocation>, sources: &Sources) -> String {
    let place = match location {
        Some(location) => Some(sources.place(&location.file)),
        None => sources.bot_place(),
    };
    place.map(|place| place.text()).unwrap_or_default()
}

/// Where a result is: its location, or (without one) the bot's file with no region; `None`
/// when neither is known.
fn result_location(location: Option<&SourceLocation>, sources: &Sources) -> Option<Location> {
    let physical = match location {
        Some(location) => physical(location, sources),
        None => {
            PhysicalLocation { artifact_location: artifact(&sources.bot_place()?), region: None }
        }
    };
    Some(Location {
        physical_location: Some(physical),
        logical_locations: Vec::new(),
        message: None,
    })
}

/// A source location as SARIF names it: the file's artifact and the line and column (a line 0
/// is no region; a column 0 is none).
fn physical(location: &SourceLocation, sources: &Sources) -> PhysicalLocation {
    PhysicalLocation {
        artifact_location: artifact(&sources.place(&location.file)),
        region: (location.line > 0).then(|| Region {
            start_line: location.line,
            start_column: (location.column > 0).then_some(location.column),
        }),
    }
}

/// A file as an artifact location: relative to `%SRCROOT%` inside the repository, an absolute
/// `file:` URI outside it.
fn artifact(place: &Place) -> ArtifactLocation {
    match place {
        Place::Inside(relative) => {
            ArtifactLocation { uri: percent_encoded(relative), uri_base_id: Some(SRCROOT) }
        }
        Place::Outside(path) => ArtifactLocation { uri: file_uri(path, false), uri_base_id: None },
    }
}

/// `path` (absolute) as a `file:` URI, ending in `/` when it is a `directory`.
fn file_uri(path: &std::path::Path, directory: bool) -> String {
    let mut text = path.to_string_lossy().into_owned();
    if directory && !text.ends_with('/') {
        text.push('/');
    }
    format!("file://{}", percent_encoded(&text))
}

/// A path as a URI's path: every byte but the unreserved characters and `/` percent-encoded
/// (RFC 3986), so a space, `%`, `#` or `?` in a file name stays part of it.
fn percent_encoded(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for byte in path.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(char::from(byte));
            }
            other => out.push_str(&format!("%{other:02X}")),
        }
    }
    out
}

/// A call stack as one code flow: its frames in the order they were entered, outermost
/// first, each at its line (a frame without one by its function alone).
fn code_flow(stack: &CallStack, sources: &Sources) -> CodeFlow {
    let count = stack.frames.len();
    let locations = stack
        .frames
        .iter()
        .rev()
        .enumerate()
        .map(|(depth, frame)| {
            let function = one_line(&frame.function);
            let mut note = function.clone();
            if frame.folded > 0 {
                note.push_str(&format!(" (+{} std/SDK frames)", frame.folded));
            }
            if let Some(cycle) = frame.cycle {
                note.push_str(&format!(
                    " (the {} frames from here inward repeated ×{})",
                    cycle.frames, cycle.times
                ));
            }
            ThreadFlowLocation {
                location: Location {
                    physical_location: frame.location.as_ref().map(|l| physical(l, sources)),
                    logical_locations: vec![LogicalLocation {
                        fully_qualified_name: function,
                        kind: "function",
                    }],
                    message: Some(Text::of(note)),
                },
                nesting_level: depth,
                execution_order: depth + 1,
                kinds: if depth + 1 < count { vec!["call"] } else { Vec::new() },
            }
        })
        .collect();
    let dropped =
        (stack.dropped > 0).then(|| Text::of(format!("{} outer frames not kept", stack.dropped)));
    CodeFlow {
        message: Text::of("the bot's call stack, outermost call first"),
        thread_flows: [ThreadFlow { message: dropped, locations }],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::{report, sources};
    use botlens_harness::report::FailureGroup;

    #[test]
    fn a_report_is_a_sarif_log() {
        insta::assert_snapshot!(write(&report(), &sources()));
    }

    #[test]
    fn paths_are_percent_encoded_and_outside_files_are_absolute_uris() {
        assert_eq!(percent_encoded("my bot/src/lib#1.rs"), "my%20bot/src/lib%231.rs");
        assert_eq!(percent_encoded("ü%"), "%C3%BC%25");
        let outside = artifact(&Place::Outside("/rustc/x y/lib.rs".into()));
        assert_eq!(
            (outside.uri.as_str(), outside.uri_base_id),
            ("file:///rustc/x%20y/lib.rs", None)
        );
        assert_eq!(file_uri(std::path::Path::new("/repo"), true), "file:///repo/");
    }

    #[test]
    fn results_without_a_file_become_notifications() {
        let report = report();
        let log = serde_json::to_value(log(&report, &Sources { bot_file: None, ..sources() }))
            .expect("JSON");
        let run = &log["runs"][0];
        let notes = run["invocations"][0]["toolExecutionNotifications"].as_array().unwrap();
        let rules: Vec<&str> =
            notes.iter().map(|n| n["associatedRule"]["id"].as_str().unwrap()).collect();
        assert_eq!(rules, ["timeout", "wasted_move"]);
        for result in run["results"].as_array().unwrap() {
            let uri = &result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
            assert_eq!(uri, "bots/offbyone/src/lib.rs", "{result:#}");
        }
    }

    #[test]
    fn fingerprints_stay_when_lines_move_and_tell_alike_results_apart() {
        let prints = |report: &SuiteReport| -> Vec<String> {
            let log = serde_json::to_value(log(report, &sources())).expect("JSON");
            log["runs"][0]["results"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["partialFingerprints"][FINGERPRINT].as_str().unwrap().to_owned())
                .collect()
        };
        let before = report();
        let mut moved = before.clone();
        for group in &mut moved.failures {
            if let Some(location) = &mut group.location {
                location.line += 7;
            }
        }
        for site in moved.wasteful.iter_mut().flat_map(|w| &mut w.sites) {
            site.line += 7;
        }
        assert_eq!(prints(&before), prints(&moved));
        let mut twin = before.clone();
        let copy = FailureGroup {
            location: twin.failures[0].location.clone().map(|l| SourceLocation { line: 90, ..l }),
            ..twin.failures[0].clone()
        };
        twin.failures.push(copy);
        let twin = prints(&twin);
        let unique: std::collections::BTreeSet<&String> = twin.iter().collect();
        assert_eq!(unique.len(), twin.len(), "{twin:?}");
        assert_eq!(twin[..before.failures.len()], prints(&before)[..before.failures.len()]);
    }

    #[test]
    fn a_bots_text_stays_printable_and_bounded() {
        let mut report = report();
        report.failures[0].message = format!("boom\u{1b}[2J{}", "x".repeat(10_000));
        report.failures[0].stack.as_mut().unwrap().frames[0].function = "f\u{7}".into();
        let text = write(&report, &sources());
        let log: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        let result = &log["runs"][0]["results"][0];
        let message = result["message"]["text"].as_str().unwrap();
        assert!(message.starts_with("boom\\u{1b}[2Jxxx"), "{message}");
        assert!(message.lines().all(|line| line.chars().count() <= crate::MAX_LINE + 1));
        let innermost = &result["codeFlows"][0]["threadFlows"][0]["locations"][1]["location"];
        assert_eq!(innermost["logicalLocations"][0]["fullyQualifiedName"], "f\\u{7}");
    }
}
