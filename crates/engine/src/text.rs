//! Untrusted text made safe to show: a bot's panic message, log lines, file and player names,
//! anything read from a trace or a layout file may hold terminal escape sequences
//! (`ESC]0;…` retitles a terminal, `ESC[2J` clears it) or bidirectional overrides that make a
//! line read differently from what it is. Every front end prints such text through
//! [`printable`] (one line) or [`printable_lines`] (several lines).
//!
//! Not for: HTML (the replay page escapes its own markup) or JSON (serde escapes strings).

use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether `c` must not reach a terminal as it is: control characters (C0, DEL, C1) and the
/// Unicode bidirectional controls.
fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

fn escape(text: &str, keep: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !text.chars().any(|c| is_unsafe(c) && !keep(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_unsafe(c) && !keep(c) {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `text` as one printable line: every control character (newlines and tabs too) and every
/// bidirectional control is written as a visible `\u{…}` escape.
///
/// ```
/// use botlens_engine::text::printable;
///
/// assert_eq!(printable("hit at (3, 4)"), "hit at (3, 4)");
/// assert_eq!(printable("\u{1b}]0;owned\u{7}x\ny"), "\\u{1b}]0;owned\\u{7}x\\u{a}y");
/// ```
pub fn printable(text: &str) -> Cow<'_, str> {
    escape(text, |_| false)
}

/// `text` as printable lines: like [`printable`], but newlines and tabs stay as they are.
///
/// ```
/// use botlens_engine::text::printable_lines;
///
/// assert_eq!(printable_lines("a\n\tb\u{1b}[2J"), "a\n\tb\\u{1b}[2J");
/// ```
pub fn printable_lines(text: &str) -> Cow<'_, str> {
    escape(text, |c| c == '\n' || c == '\t')
}

/// At most `max` characters of `text` as one printable line ([`printable`]), with `…` after
/// them when there were more: for echoing a name or a token someone else chose (a 100 KB layout
/// name, a path) in a message.
///
/// ```
/// use botlens_engine::text::clipped;
///
/// assert_eq!(clipped("hengdaolima", 24), "hengdaolima");
/// assert_eq!(clipped("\u{1b}[2Jabcdef", 4), "\\u{1b}[2J…");
/// ```
pub fn clipped(text: &str, max: usize) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(max).collect();
    let head = printable(&head).into_owned();
    if chars.next().is_some() { format!("{head}…") } else { head }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_and_bidi_overrides_become_visible_and_plain_text_is_not_copied() {
        assert!(matches!(printable("plain 华容道 text"), Cow::Borrowed(_)));
        assert_eq!(printable("\u{1b}[2Jcleared"), "\\u{1b}[2Jcleared");
        assert_eq!(printable("a\rb"), "a\\u{d}b", "a carriage return cannot overwrite the line");
        assert_eq!(printable("\u{9b}31m"), "\\u{9b}31m", "C1 controls too");
        assert_eq!(printable("abc\u{202e}fed"), "abc\\u{202e}fed");
        assert_eq!(printable("\u{7f}"), "\\u{7f}");
        assert_eq!(printable_lines("one\ntwo\r\n"), "one\ntwo\\u{d}\n");
    }

    #[test]
    fn a_clipped_text_keeps_its_first_characters_escaped_and_says_there_was_more() {
        assert_eq!(clipped(&"é".repeat(100_000), 3), "ééé…");
        assert_eq!(clipped("ab\ncd", 4), "ab\\u{a}c…");
        assert_eq!(clipped("abc", 3), "abc");
    }
}
