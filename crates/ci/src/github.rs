//! A suite report as GitHub Actions workflow commands: `::error` for each failure group and
//! `::warning` for each line that made wasted moves, which the runner turns into annotations on
//! those lines (and on a pull request's changed lines).
//!
//! ```text
//! ::error file=bots/offbyone/src/lib.rs,line=40,col=25,title=botlens%3A illegal_move%2C 3 of 30 games lost::attack(10, 3): x out of range 0..=9%0Alost 3 of 30 games: …
//! ```
//!
//! A command is one line that starts with `::`, so what a bot chose must never end a line or
//! start one: every untrusted piece is first made one printable line ([`crate::one_line`]: a
//! newline in it becomes the visible `\u{a}`), and then escaped as GitHub's runner reads it
//! back (`%` `\r` `\n` in the message as `%25` `%0D` `%0A`; also `:` and `,` in a property), so a
//! panic message holding `\n::error::…` or `%0A` is text in the annotation, never a second
//! command. The file is named only when it is inside the repository (the runner matches it
//! against the checkout); the message says where the others are.
//!
//! The runner reads every line of a step's output for commands: a line that starts with `::`
//! once its leading spaces are trimmed, and a line holding `##[` anywhere (the older form). So
//! text that quotes a bot and is printed beside the annotations (the table of `botlens run`)
//! goes between the two lines of [`stop_commands`], which make the runner read no command in
//! it.

use botlens_harness::report::{FailureGroup, SuiteReport};

use crate::{
    Place, Sources, failure_lines, one_line, unlocated_wasted_lines, wasted_line_lines,
    wasted_lines,
};

/// The workflow commands of `report`, one per line.
pub fn annotations(report: &SuiteReport, sources: &Sources) -> String {
    let what = report.wasted_moves();
    let mut out = String::new();
    for group in &report.failures {
        out.push_str(&failure(group, report, sources));
    }
    let title = format!("botlens: wasted moves ({what})");
    let (lines, unlocated) = wasted_lines(report);
    for line in &lines {
        let site = line.site;
        let at = Some((sources.place(&site.file), site.line, site.column));
        out.push_str(&command("warning", at, &title, &wasted_line_lines(line, what)));
    }
    for summary in unlocated {
        out.push_str(&command("warning", None, &title, &unlocated_wasted_lines(summary, what)));
    }
    out
}

/// The lines that stop the runner reading workflow commands and resume it, in that order:
/// `::stop-commands::{token}` and `::{token}::`. Whatever is printed between them is only
/// text, whatever it holds, unless it holds the resume line itself: `token` must be one the
/// text's author cannot guess (random, chosen anew for each run).
pub fn stop_commands(token: &str) -> (String, String) {
    (format!("::stop-commands::{token}\n"), format!("::{token}::\n"))
}

/// The `::error` of one failure group.
fn failure(group: &FailureGroup, report: &SuiteReport, sources: &Sources) -> String {
    let title = format!("botlens: {}, {} of {} games lost", group.kind, group.count, report.games);
    let at = group.location.as_ref().map(|l| (sources.place(&l.file), l.line, l.column));
    command("error", at, &title, &failure_lines(group, report))
}

/// One workflow command, `::{name} {properties}::{message}` and a newline: the file, line and
/// column when the file is inside the repository (else the message's first line says where),
/// and the title.
fn command(name: &str, at: Option<(Place, u32, u32)>, title: &str, lines: &[String]) -> String {
    let mut properties = Vec::new();
    let mut lines = lines.to_vec();
    match at {
        Some((Place::Inside(file), line, column)) => {
            properties.push(format!("file={}", property(&file)));
            if line > 0 {
                properties.push(format!("line={line}"));
            }
            if column > 0 {
                properties.push(format!("col={column}"));
            }
        }
        Some((Place::Outside(path), line, _)) => {
            lines.insert(0, one_line(&format!("at {}:{line}", path.display())));
        }
        None => lines.insert(0, "(no source location)".to_owned()),
    }
    properties.push(format!("title={}", property(title)));
    format!("::{name} {}::{}\n", properties.join(","), data(&lines.join("\n")))
}

/// A property's value as the runner reads it back: one printable line, with `%`, `\r`, `\n`,
/// `:` and `,` escaped.
fn property(text: &str) -> String {
    escaped(&one_line(text), true)
}

/// A message as the runner reads it back: `%`, `\r` and `\n` escaped (the lines it is made of
/// are printable already: the only newlines are those that join them).
fn data(text: &str) -> String {
    escaped(text, false)
}

/// `text` with the characters workflow commands give a meaning percent-encoded: `%`, `\r`,
/// `\n`, and in a property also `:` and `,`.
fn escaped(text: &str, property: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            ':' if property => out.push_str("%3A"),
            ',' if property => out.push_str("%2C"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::{report, sources};
    use botlens_engine::FailureKind;

    #[test]
    fn a_report_is_a_list_of_workflow_commands() {
        insta::assert_snapshot!(annotations(&report(), &sources()));
    }

    #[test]
    fn a_bots_text_cannot_start_a_second_command() {
        let mut report = report();
        report.failures[0].message = "boom\n::error::injected\r::warning::x%0A::error::y".into();
        report.failures[0].location.as_mut().unwrap().file =
            "/repo/a,line=1::error::b\n::error::c.rs".into();
        report.failures[0].opponents[0] = "random\n::error::z".into();
        report.failures[0].replay = "botlens replay x --vs '\n::error::w'".into();
        let out = annotations(&report, &sources());
        let lines: Vec<&str> = out.lines().collect();
        // One command per failure group and per line of wasted moves (and the unlocated
        // ones), each on a line of its own: nothing the bot wrote started another.
        assert_eq!(lines.len(), 5, "{out}");
        assert!(out.ends_with('\n') && !out.contains('\r'));
        let starts: Vec<&str> = lines.iter().map(|line| &line[..line.find(' ').unwrap()]).collect();
        assert_eq!(starts, ["::error", "::error", "::error", "::warning", "::warning"]);
        assert_eq!(
            lines[0],
            "::error file=a%2Cline=1%3A%3Aerror%3A%3Ab\\u{a}%3A%3Aerror%3A%3Ac.rs,line=40,col=25,title=botlens%3A illegal_move%2C 3 of 30 games lost::boom%0A::error::injected\\u{d}::warning::x%250A::error::y%0Alost 3 of 30 games: vs random\\u{a}::error::z (seeds 4, 7), hunter (seed 8); the first at move 23 (the bot's turn 12)%0Areplay: botlens replay x --vs '\\u{a}::error::w'"
        );
    }

    #[test]
    fn commands_stop_and_resume_with_the_token() {
        let (stop, resume) = stop_commands("0f1e");
        assert_eq!((stop.as_str(), resume.as_str()), ("::stop-commands::0f1e\n", "::0f1e::\n"));
    }

    #[test]
    fn properties_and_messages_are_escaped_as_the_runner_reads_them() {
        assert_eq!(property("a:b,c%d\ne"), "a%3Ab%2Cc%25d\\u{a}e");
        assert_eq!(data("a:b,c%d\ne\rf"), "a:b,c%25d%0Ae%0Df");
    }

    #[test]
    fn a_file_outside_the_repository_is_named_in_the_message() {
        let mut report = report();
        report.failures.truncate(1);
        report.wasteful.clear();
        report.failures[0].location.as_mut().unwrap().file = "/elsewhere/lib.rs".into();
        let out = annotations(&report, &sources());
        assert!(out.starts_with("::error title=botlens%3A illegal_move%2C 3 of 30 games lost::at /elsewhere/lib.rs:40%0Aattack"), "{out}");
        for kind in FailureKind::ALL {
            report.failures[0].kind = kind;
            assert!(annotations(&report, &sources()).contains(&format!("{kind}%2C 3 of 30")));
        }
    }
}
