//! botlens in a bot's CI: a suite report ([`SuiteReport`]) in the formats CI systems read, so
//! that a pull request says where its bot lost games.
//!
//! - [`sarif`]: SARIF 2.1.0 for code scanning (GitHub's `upload-sarif`): each failure group a
//!   result at its line with the bot's call stack as a code flow, wasted moves as warnings.
//! - [`junit`]: JUnit XML for test reports (GitLab, Jenkins): an opponent a test suite, a
//!   failure group a failing test case with its replay command.
//! - [`github`]: GitHub Actions workflow commands (`::error file=…,line=…::…`), which put
//!   annotations on the lines of a pull request.
//!
//! Every path is written relative to the repository's root ([`Sources`]), as these tools match
//! them against the checkout. What a bot chose (its messages, its files' and functions' names)
//! is untrusted: each writer keeps it printable and bounded ([`bounded`]) and escapes it for its
//! format, so it can never become markup, a second workflow command or a terminal escape.
//!
//! Not for: the table and the JSON (`botlens_harness::report`), or choosing where the output
//! goes (the CLI's `run --format`).

pub mod github;
pub mod junit;
pub mod sarif;

use std::path::{Path, PathBuf};

use botlens_engine::text::printable_lines;
use botlens_harness::report::{FailureGroup, SuiteReport, WastefulSummary};
use botlens_harness::waste::WasteSite;

/// Where a report's files are, for writing them as a repository names them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sources {
    /// The repository's root (absolute): paths inside it are written relative to it.
    pub root: PathBuf,
    /// The directory a report's relative paths are relative to (absolute): the working
    /// directory of the run.
    pub cwd: PathBuf,
    /// The file that stands for the bot where a result has no line
    /// ([`botlens_harness::Target::home_file`]), as named on the command line.
    pub bot_file: Option<PathBuf>,
}

/// A file as the output names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// Inside the repository: its path relative to the root, `/`-separated, never empty and
    /// without `.` or `..` segments.
    Inside(String),
    /// Outside it: its absolute path.
    Outside(PathBuf),
}

impl Place {
    /// The path as text: relative inside the repository, absolute outside it.
    pub fn text(&self) -> String {
        match self {
            Place::Inside(relative) => relative.clone(),
            Place::Outside(path) => path.display().to_string(),
        }
    }
}

impl Sources {
    /// Where `file` (absolute, or relative to [`Sources::cwd`]) is: the path is resolved
    /// lexically (`a/../b` is `b`; symbolic links are not followed: debug information names
    /// files as the compiler saw them).
    pub fn place(&self, file: impl AsRef<Path>) -> Place {
        let path = botlens_files::lexical(&self.cwd.join(file));
        match path.strip_prefix(botlens_files::lexical(&self.root)) {
            Ok(relative) if relative.components().next().is_some() => {
                let parts: Vec<String> = relative
                    .components()
                    .map(|part| part.as_os_str().to_string_lossy().into_owned())
                    .collect();
                Place::Inside(parts.join("/"))
            }
            _ => Place::Outside(path),
        }
    }

    /// The place of the bot's stand-in file, if it has one.
    fn bot_place(&self) -> Option<Place> {
        self.bot_file.as_ref().map(|file| self.place(file))
    }
}

/// The most characters of untrusted text one line of any format carries ([`bounded`]).
pub const MAX_LINE: usize = 500;

/// The most lines of a bot's message the formats carry.
pub const MAX_LINES: usize = 12;

/// Untrusted text as lines fit for any of the formats: control characters and bidirectional
/// controls escaped (`\u{1b}`, [`printable_lines`]), tabs as spaces, at most [`MAX_LINES`]
/// lines of at most [`MAX_LINE`] characters, each cut one ending in `…`.
///
/// ```
/// use botlens_ci::bounded;
///
/// assert_eq!(bounded("boom\n\u{1b}[2Jagain"), ["boom", "\\u{1b}[2Jagain"]);
/// assert_eq!(bounded(&"x".repeat(600))[0].chars().count(), 501);
/// ```
pub fn bounded(text: &str) -> Vec<String> {
    let text = printable_lines(text).replace('\t', " ");
    let mut lines: Vec<String> = text.lines().take(MAX_LINES).map(clip).collect();
    if text.lines().count() > MAX_LINES {
        lines.push("…".to_owned());
    }
    lines
}

/// One line of untrusted text, printable and bounded as [`bounded`] bounds each.
pub fn one_line(text: &str) -> String {
    botlens_engine::text::clipped(text, MAX_LINE)
}

/// At most [`MAX_LINE`] characters of `line`, with `…` after them when there were more.
fn clip(line: &str) -> String {
    let mut chars = line.chars();
    let head: String = chars.by_ref().take(MAX_LINE).collect();
    if chars.next().is_some() { format!("{head}…") } else { head }
}

/// What a failure group says, line by line: the bot's message, the games it lost and where the
/// first was lost, and the command that replays that game.
fn failure_lines(group: &FailureGroup, report: &SuiteReport) -> Vec<String> {
    let mut lines = bounded(&group.message);
    lines.push(one_line(&format!(
        "lost {} of {} games: vs {}; the first at {}",
        group.count,
        report.games,
        group.opponents_and_seeds(),
        group.first_move()
    )));
    if !group.replay.is_empty() {
        lines.push(one_line(&format!("replay: {}", group.replay)));
    }
    lines
}

/// One line of the bot that made wasted moves, with each opponent whose first wasteful game
/// made some there.
struct WastedLine<'r> {
    /// The line's first site (its file, line and column, its stack).
    site: &'r WasteSite,
    /// Each opponent's summary and its site on this line.
    by: Vec<(&'r WastefulSummary, &'r WasteSite)>,
}

/// The report's wasted moves by the line that made them (in the order the report first names
/// each), and the summaries whose moves were not located.
fn wasted_lines(report: &SuiteReport) -> (Vec<WastedLine<'_>>, Vec<&WastefulSummary>) {
    let mut lines: Vec<WastedLine<'_>> = Vec::new();
    let mut unlocated = Vec::new();
    for summary in &report.wasteful {
        if summary.sites.is_empty() {
            unlocated.push(summary);
        }
        for site in &summary.sites {
            match lines.iter_mut().find(|l| (&l.site.file, l.site.line) == (&site.file, site.line))
            {
                Some(line) => line.by.push((summary, site)),
                None => lines.push(WastedLine { site, by: vec![(summary, site)] }),
            }
        }
    }
    (lines, unlocated)
}

/// What a line's wasted moves say, one line per opponent: how many, the first, and the command
/// that replays that game.
fn wasted_line_lines(line: &WastedLine<'_>, what: &str) -> Vec<String> {
    line.by
        .iter()
        .map(|(summary, site)| {
            let moves = if site.moves == 1 { "1 wasted move" } else { "wasted moves" };
            let count = if site.moves == 1 { String::new() } else { format!("{} ", site.moves) };
            let seed =
                summary.first_seed.map_or_else(String::new, |seed| format!(" in seed {seed}"));
            let replay = if summary.replay.is_empty() {
                String::new()
            } else {
                format!("; replay: {}", summary.replay)
            };
            one_line(&format!(
                "{count}{moves} ({what}) here vs {}{seed}, the first {} at move {}{replay}",
                summary.opponent, site.action, site.first_turn
            ))
        })
        .collect()
}

/// What an opponent's unlocated wasted moves say: its headline and the replay command.
fn unlocated_wasted_lines(summary: &WastefulSummary, what: &str) -> Vec<String> {
    let headline = summary.headline(what);
    let mut lines = vec![one_line(headline.strip_prefix("warning: ").unwrap_or(&headline))];
    if !summary.replay.is_empty() {
        lines.push(one_line(&format!("replay: {}", summary.replay)));
    }
    lines
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use botlens_engine::{CallStack, FailureKind, SourceLocation, StackFrame};
    use botlens_harness::report::OpponentSummary;

    /// A report with two located failure groups (one against both opponents, with a stack), a
    /// group with no location, and wasted moves located on one line against both opponents and
    /// not located against a third: what every writer's snapshot shows.
    pub(crate) fn report() -> SuiteReport {
        let at = |line, column| SourceLocation {
            file: "/repo/bots/offbyone/src/lib.rs".into(),
            line,
            column,
        };
        let frame = |function: &str, line| StackFrame {
            function: function.into(),
            location: Some(at(line, 9)),
            folded: 0,
            cycle: None,
        };
        let stack = CallStack {
            frames: vec![
                StackFrame { folded: 2, ..frame("offbyone::follow_up", 40) },
                frame("<offbyone::OffByOne as botlens_sdk::Bot>::play", 77),
            ],
            dropped: 0,
        };
        let opponent = |name: &str, wins, losses, faults| OpponentSummary {
            name: name.into(),
            games: 10,
            wins,
            losses,
            draws: 0,
            mean_moves: 50.0,
            par: None,
            faults,
            pairs: None,
            outcomes: Default::default(),
        };
        let illegal = FailureGroup {
            kind: FailureKind::IllegalMove,
            message: "attack(10, 3): x out of range 0..=9".into(),
            location: Some(at(40, 25)),
            count: 3,
            seeds: vec![4, 7, 8],
            opponents: vec!["random".into(), "hunter".into()],
            seeds_by_opponent: vec![vec![4, 7], vec![8]],
            first_seed: 4,
            first_opponent: "random".into(),
            first_seat: 0,
            first_turn: 23,
            first_bot_turn: 12,
            replay: "botlens replay bots/offbyone --vs random --seed 4".into(),
            replays: vec![
                "botlens replay bots/offbyone --vs random --seed 4".into(),
                "botlens replay bots/offbyone --vs hunter --seed 8".into(),
            ],
            identity: Some("0123456789abcdef".into()),
            stack: Some(stack.clone()),
            fuel_profile: None,
            memory_growth: None,
        };
        let panic = FailureGroup {
            kind: FailureKind::Panic,
            message: "index out of bounds: the len is 10 but the index is 10".into(),
            location: Some(at(60, 0)),
            count: 1,
            seeds: vec![2],
            opponents: vec!["hunter".into()],
            seeds_by_opponent: vec![vec![2]],
            first_seed: 2,
            first_opponent: "hunter".into(),
            first_turn: 9,
            first_bot_turn: 5,
            replay: "botlens replay bots/offbyone --vs hunter --seed 2".into(),
            replays: vec!["botlens replay bots/offbyone --vs hunter --seed 2".into()],
            identity: Some("fedcba9876543210".into()),
            stack: None,
            ..illegal.clone()
        };
        let unlocated = FailureGroup {
            kind: FailureKind::Timeout,
            message: "the wall-clock backstop stopped the bot".into(),
            location: None,
            count: 1,
            seeds: vec![9],
            opponents: vec!["hunter".into()],
            seeds_by_opponent: vec![vec![9]],
            first_seed: 9,
            first_opponent: "hunter".into(),
            first_turn: 3,
            first_bot_turn: 2,
            replay: "botlens replay bots/offbyone --vs hunter --seed 9".into(),
            replays: vec!["botlens replay bots/offbyone --vs hunter --seed 9".into()],
            identity: None,
            stack: None,
            ..illegal.clone()
        };
        let site = WasteSite {
            file: "/repo/bots/offbyone/src/lib.rs".into(),
            line: 15,
            column: 9,
            function: "offbyone::again".into(),
            moves: 2,
            first_turn: 8,
            action: "attack(4, 0)".into(),
            stack: CallStack { frames: vec![frame("offbyone::again", 15)], dropped: 0 },
        };
        let wasted = |opponent: &str, seed, sites: Vec<WasteSite>| WastefulSummary {
            opponent: opponent.into(),
            games: 2,
            moves: 3,
            first_seed: Some(seed),
            first_seat: 0,
            replay: format!("botlens replay bots/offbyone --vs {opponent} --seed {seed}"),
            sites,
        };
        SuiteReport {
            game: "battleships".into(),
            bot: "offbyone".into(),
            seeds: "0..=9".into(),
            games: 30,
            duration_ms: 1234,
            opponents: vec![
                opponent("random", 8, 2, 2),
                opponent("hunter", 5, 5, 3),
                opponent("density", 4, 6, 0),
            ],
            failures: vec![illegal, panic, unlocated],
            wasteful: vec![
                wasted("random", 3, vec![site.clone()]),
                wasted("hunter", 5, vec![WasteSite { moves: 1, first_turn: 12, ..site }]),
                wasted("density", 6, Vec::new()),
            ],
            cancelled: false,
        }
    }

    /// Where [`report`]'s files are: the repository at `/repo`, run from it.
    pub(crate) fn sources() -> Sources {
        Sources {
            root: "/repo".into(),
            cwd: "/repo".into(),
            bot_file: Some("bots/offbyone/Cargo.toml".into()),
        }
    }

    #[test]
    fn files_inside_the_root_are_relative_and_others_absolute() {
        let sources = Sources { cwd: "/repo/bots".into(), ..sources() };
        let inside = |path: &str| Place::Inside(path.into());
        assert_eq!(sources.place("/repo/bots/x/src/lib.rs"), inside("bots/x/src/lib.rs"));
        assert_eq!(sources.place("x/src/lib.rs"), inside("bots/x/src/lib.rs"));
        assert_eq!(sources.place("./x/../y/./bot.c"), inside("bots/y/bot.c"));
        assert_eq!(sources.place("../../etc/passwd"), Place::Outside("/etc/passwd".into()));
        assert_eq!(
            sources.place("/rustc/abc/library"),
            Place::Outside("/rustc/abc/library".into())
        );
        assert_eq!(sources.place("/repo"), Place::Outside("/repo".into()), "the root is no file");
        assert_eq!(sources.place("/repository/x"), Place::Outside("/repository/x".into()));
    }

    #[test]
    fn untrusted_text_is_printable_and_bounded() {
        assert_eq!(bounded("a\tb\r\nc\u{202e}"), ["a b\\u{d}", "c\\u{202e}"]);
        let many = "line\n".repeat(MAX_LINES + 5);
        let lines = bounded(&many);
        assert_eq!(lines.len(), MAX_LINES + 1);
        assert_eq!(lines.last().map(String::as_str), Some("…"));
        assert_eq!(one_line("a\nb"), "a\\u{a}b");
        assert_eq!(one_line(&"é".repeat(MAX_LINE + 1)), format!("{}…", "é".repeat(MAX_LINE)));
    }
}
