//! A suite report as JUnit XML, the test report format GitLab, Jenkins and most CI systems read.
//!
//! ```xml
//! <testsuites name="offbyone (battleships), seeds 0..=9" tests="4" failures="3" errors="0" skipped="0" time="1.234">
//!   <testsuite name="random" tests="1" failures="1" errors="0" skipped="0">
//!     <properties>…games, wins, losses, draws, faults, wasted moves…</properties>
//!     <testcase name="illegal_move at bots/offbyone/src/lib.rs:40" classname="offbyone vs random" file="bots/offbyone/src/lib.rs" line="40">
//!       <failure type="illegal_move" message="attack(10, 3): x out of range 0..=9">…</failure>
//!     </testcase>
//!   </testsuite>
//! </testsuites>
//! ```
//!
//! An opponent (or a board) is a test suite; each failure group that lost games against it is
//! a failing test case there, whose failure names the kind, the bot's message, where it
//! failed and its call stack, the seeds lost against that opponent and the command that
//! replays the first of them; an opponent against which no game was lost by a bot fault has
//! one passing case, `no game lost by a bot fault`. A failure group that lost against two
//! opponents is a failing case in each of their suites. Counts are the test cases'; the time
//! is the suite's wall-clock time, on the root element alone (games against all opponents are
//! played at once, so no opponent has a time of its own).
//!
//! What a bot chose is printable and bounded ([`crate::bounded`]), escaped as XML, and has no
//! character XML 1.0 forbids.

use std::io;

use botlens_harness::report::{FailureGroup, OpponentSummary, SuiteReport, seeds_phrase};
use quick_xml::Writer;
use quick_xml::escape::partial_escape;
use quick_xml::events::{BytesDecl, BytesText, Event};

use crate::{Sources, bounded, one_line};

/// The name of the passing case of an opponent no game was lost to by a fault.
pub const PASSED: &str = "no game lost by a bot fault";

/// The report as a JUnit XML document.
pub fn write(report: &SuiteReport, sources: &Sources) -> String {
    let mut writer = Writer::new_with_indent(Vec::new(), b' ', 2);
    document(&mut writer, report, sources).expect("writing to memory does not fail");
    let mut xml = String::from_utf8(writer.into_inner()).expect("the writer writes UTF-8");
    xml.push('\n');
    xml
}

/// One opponent's failing cases: the failure groups that lost games against it, each with the
/// seeds lost against it and the command that replays the first of those games.
fn cases<'r>(
    report: &'r SuiteReport,
    opponent: &OpponentSummary,
) -> Vec<(&'r FailureGroup, &'r [u64], &'r str)> {
    report
        .failures
        .iter()
        .filter_map(|group| {
            let at = group.opponents.iter().position(|name| *name == opponent.name)?;
            let seeds = group.seeds_by_opponent.get(at).map_or(&[][..], Vec::as_slice);
            let replay = group.replays.get(at).unwrap_or(&group.replay);
            Some((group, seeds, replay.as_str()))
        })
        .collect()
}

fn document(
    writer: &mut Writer<Vec<u8>>,
    report: &SuiteReport,
    sources: &Sources,
) -> io::Result<()> {
    writer.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    let suites: Vec<_> = report.opponents.iter().map(|o| (o, cases(report, o))).collect();
    let tests: usize = suites.iter().map(|(_, cases)| cases.len().max(1)).sum();
    let failures: usize = suites.iter().map(|(_, cases)| cases.len()).sum();
    let name = format!("{} ({}), seeds {}", report.bot, report.game, report.seeds);
    writer
        .create_element("testsuites")
        .with_attributes([
            ("name", attribute(&name).as_str()),
            ("tests", &tests.to_string()),
            ("failures", &failures.to_string()),
            ("errors", "0"),
            ("skipped", "0"),
            ("time", &format!("{:.3}", report.duration_ms as f64 / 1000.0)),
        ])
        .write_inner_content(|writer| {
            for (opponent, cases) in &suites {
                suite(writer, report, sources, opponent, cases)?;
            }
            Ok(())
        })?;
    Ok(())
}

/// One opponent's test suite.
fn suite(
    writer: &mut Writer<Vec<u8>>,
    report: &SuiteReport,
    sources: &Sources,
    opponent: &OpponentSummary,
    cases: &[(&FailureGroup, &[u64], &str)],
) -> io::Result<()> {
    let classname = attribute(&format!("{} vs {}", report.bot, opponent.name));
    let wasted = report.wasteful.iter().find(|w| w.opponent == opponent.name);
    let properties = [
        ("games", opponent.games),
        ("wins", opponent.wins),
        ("losses", opponent.losses),
        ("draws", opponent.draws),
        ("faults", opponent.faults),
        ("wasted_moves", wasted.map_or(0, |w| w.moves)),
    ];
    writer
        .create_element("testsuite")
        .with_attributes([
            ("name", attribute(&opponent.name).as_str()),
            ("tests", &cases.len().max(1).to_string()),
            ("failures", &cases.len().to_string()),
            ("errors", "0"),
            ("skipped", "0"),
        ])
        .write_inner_content(|writer| {
            writer.create_element("properties").write_inner_content(|writer| {
                for (name, value) in properties {
                    writer
                        .create_element("property")
                        .with_attributes([("name", name), ("value", &value.to_string())])
                        .write_empty()?;
                }
                Ok(())
            })?;
            if cases.is_empty() {
                writer
                    .create_element("testcase")
                    .with_attributes([("name", PASSED), ("classname", &classname)])
                    .write_empty()?;
            }
            for &(group, seeds, replay) in cases {
                failing(writer, sources, opponent, &classname, (group, seeds, replay))?;
            }
            Ok(())
        })?;
    Ok(())
}

/// A failure group's failing case in an opponent's suite.
fn failing(
    writer: &mut Writer<Vec<u8>>,
    sources: &Sources,
    opponent: &OpponentSummary,
    classname: &str,
    (group, seeds, replay): (&FailureGroup, &[u64], &str),
) -> io::Result<()> {
    let place = match &group.location {
        Some(location) => Some((sources.place(&location.file), Some(location.line))),
        None => sources.bot_place().map(|place| (place, None)),
    };
    let at = match (&place, &group.location) {
        (Some((place, Some(line))), Some(location)) if location.column > 0 => {
            format!("{}:{line}:{}", place.text(), location.column)
        }
        (Some((place, Some(line))), _) => format!("{}:{line}", place.text()),
        _ => "(no source location)".to_owned(),
    };
    let name = match (&place, &group.location) {
        (Some((place, Some(line))), Some(_)) => {
            format!("{} at {}:{line}", group.kind, place.text())
        }
        _ => format!("{} (no source location)", group.kind),
    };
    let mut body = vec![format!("{} at {at}", group.kind)];
    body.extend(bounded(&group.message));
    if let Some(stack) = &group.stack {
        body.push("call stack, outermost first:".to_owned());
        for frame in stack.frames.iter().rev() {
            let line = frame.location.as_ref().map_or_else(
                || "(no line)".to_owned(),
                |l| format!("{}:{}", sources.place(&l.file).text(), l.line),
            );
            body.push(one_line(&format!("  {}  {line}", frame.function)));
        }
        if stack.dropped > 0 {
            body.push(format!("  … {} outer frames not kept", stack.dropped));
        }
    }
    body.push(one_line(&format!(
        "lost vs {} on {}, of {} games played",
        opponent.name,
        seeds_phrase(seeds),
        opponent.games
    )));
    if group.first_opponent == opponent.name {
        body.push(format!("the first at {}", group.first_move()));
    }
    if !replay.is_empty() {
        body.push(one_line(&format!("replay: {replay}")));
    }
    let message = bounded(&group.message).into_iter().next().unwrap_or_default();
    let mut attributes = vec![("name", attribute(&name)), ("classname", classname.to_owned())];
    if let Some((place, line)) = &place {
        attributes.push(("file", attribute(&place.text())));
        if let Some(line) = line {
            attributes.push(("line", line.to_string()));
        }
    }
    writer
        .create_element("testcase")
        .with_attributes(attributes.iter().map(|(key, value)| (*key, value.as_str())))
        .write_inner_content(|writer| {
            writer
                .create_element("failure")
                .with_attributes([("type", group.kind.as_str()), ("message", &xml_safe(&message))])
                .write_text_content(BytesText::from_escaped(partial_escape(xml_safe(
                    &(body.join("\n") + "\n"),
                ))))?;
            Ok(())
        })?;
    Ok(())
}

/// Untrusted text for an attribute: one printable, bounded line with no character XML
/// forbids.
fn attribute(text: &str) -> String {
    xml_safe(&one_line(text))
}

/// `text` without the characters XML 1.0 forbids even escaped that printable text may still
/// hold (U+FFFE and U+FFFF), each written as a visible `\u{…}` escape.
fn xml_safe(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\u{fffe}' | '\u{ffff}' => format!("\\u{{{:x}}}", u32::from(c)),
            c => c.to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::{report, sources};
    use quick_xml::{Reader, XmlVersion};

    #[test]
    fn a_report_is_a_junit_document() {
        insta::assert_snapshot!(write(&report(), &sources()));
    }

    /// Every element of `xml`, with its attributes, in document order; fails unless the
    /// document is well-formed.
    fn elements(xml: &str) -> Vec<(String, Vec<(String, String)>)> {
        let mut reader = Reader::from_str(xml);
        reader.config_mut().check_end_names = true;
        let mut found = Vec::new();
        loop {
            match reader.read_event().expect("well-formed XML") {
                Event::Start(element) | Event::Empty(element) => {
                    let attributes = element
                        .attributes()
                        .map(|a| {
                            let a = a.expect("an attribute");
                            let value = a.normalized_value(XmlVersion::Explicit1_0);
                            let value = value.expect("an escaped value").into_owned();
                            (a.key.as_ref().to_owned(), value)
                        })
                        .collect();
                    found.push((element.name().as_ref().to_owned(), attributes));
                }
                Event::Eof => return found,
                _ => {}
            }
        }
    }

    #[test]
    fn hostile_text_stays_text_and_the_document_well_formed() {
        let mut report = report();
        report.failures[0].message = "</failure><injected/>&amp;\u{1}\u{ffff}\"'".into();
        report.opponents[0].name = "<x a=\"1\">\n".into();
        report.failures[0].opponents[0] = report.opponents[0].name.clone();
        let xml = write(&report, &sources());
        let found = elements(&xml);
        assert!(found.iter().all(|(name, _)| name != "injected"), "{xml}");
        let failure = found.iter().find(|(name, _)| name == "failure").expect("a failure");
        let message = &failure.1.iter().find(|(key, _)| key == "message").unwrap().1;
        assert_eq!(message, "</failure><injected/>&amp;\\u{1}\\u{ffff}\"'");
        let suite = found.iter().find(|(name, _)| name == "testsuite").expect("a suite");
        assert_eq!(suite.1[0], ("name".to_owned(), "<x a=\"1\">\\u{a}".to_owned()));
    }

    #[test]
    fn counts_are_the_cases_of_each_suite_and_their_sum() {
        let xml = write(&report(), &sources());
        let found = elements(&xml);
        let attribute = |element: &(String, Vec<(String, String)>), key: &str| {
            element.1.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone()).unwrap_or_default()
        };
        let root = &found[0];
        assert_eq!(
            (attribute(root, "tests"), attribute(root, "failures")),
            ("5".into(), "4".into())
        );
        assert_eq!(attribute(root, "time"), "1.234");
        let suites: Vec<(String, String, String)> = found
            .iter()
            .filter(|e| e.0 == "testsuite")
            .map(|e| (attribute(e, "name"), attribute(e, "tests"), attribute(e, "failures")))
            .collect();
        let expected = [("random", "1", "1"), ("hunter", "3", "3"), ("density", "1", "0")];
        assert_eq!(suites, expected.map(|(a, b, c)| (a.into(), b.into(), c.into())));
        let passed: Vec<String> = found
            .iter()
            .filter(|e| e.0 == "testcase" && attribute(e, "name") == PASSED)
            .map(|e| attribute(e, "classname"))
            .collect();
        assert_eq!(passed, ["offbyone vs density"]);
        // The unlocated group's case names the bot's file, without a line.
        let timeout = found.iter().find(|e| attribute(e, "name").starts_with("timeout")).unwrap();
        assert_eq!(attribute(timeout, "file"), "bots/offbyone/Cargo.toml");
        assert_eq!(attribute(timeout, "line"), "");
    }
}
