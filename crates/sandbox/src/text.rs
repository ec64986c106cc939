//! Bounded copies of the strings a bot hands the host (panic messages and file names, function
//! names from its `name` section or DWARF): at most a fixed number of bytes is ever copied, and
//! a cut string ends with a visible marker saying how long it was, `… (truncated, 60 MB)`; and
//! messages that quote a bot's bytes (a parser's error, a module's section or import name), kept
//! printable and bounded the same way.

use botlens_engine::text::{printable, printable_lines};

/// The most bytes kept of a panic message (and of any other message quoting a bot's bytes).
pub(crate) const MAX_MESSAGE_BYTES: usize = 4096;

/// The most bytes kept of a file name (a panic's, or one from DWARF).
pub(crate) const MAX_FILE_BYTES: usize = 1024;

/// The most bytes kept of a function name in a failure message.
pub(crate) const MAX_NAME_BYTES: usize = 256;

/// The text of `prefix`, the first bytes of a string of `full_len` bytes, kept to at most
/// `max` bytes (invalid UTF-8 replaced); if anything was cut, a marker with the full length
/// follows. Only `prefix[..max]` is read.
pub(crate) fn bounded(prefix: &[u8], full_len: u64, max: usize) -> String {
    let kept = &prefix[..prefix.len().min(max)];
    let mut text = String::from_utf8_lossy(kept).into_owned();
    if full_len > kept.len() as u64 {
        // A cut through a multi-byte character leaves a replacement character at the end.
        if let Some(boundary) =
            text.strip_suffix('\u{fffd}').filter(|_| !kept.ends_with(&[0xef, 0xbf, 0xbd]))
        {
            text.truncate(boundary.len());
        }
        text.push_str(&format!("… (truncated, {})", size(full_len)));
    }
    text
}

/// `text` kept to at most `max` bytes, as [`bounded`] does.
pub(crate) fn bounded_str(text: &str, max: usize) -> String {
    bounded(text.as_bytes(), text.len() as u64, max)
}

/// Text made from a bot's bytes (a parser's or a validator's message quoting them, a name it
/// chose), as a message shows it: printable on one line (control characters and bidirectional
/// controls escaped, as [`printable`] does) and kept to at most `max` bytes, as [`bounded`]
/// does.
pub(crate) fn shown(text: &str, max: usize) -> String {
    bounded_str(&printable(text), max)
}

/// [`shown`] for a message of several lines (a compiler's, quoting the line it refused):
/// newlines and tabs stay.
pub(crate) fn shown_lines(text: &str, max: usize) -> String {
    bounded_str(&printable_lines(text), max)
}

/// The bytes a bot gave as a quoted, escaped string for messages: printable ASCII as it is,
/// anything else (control characters, bytes of UTF-8 or not) as `\xNN`, quotes and backslashes
/// escaped; at most `max` bytes are shown, and a cut string is followed by its size:
/// `"\xc2\xa01"`, `"aaaa"… (60 MB)`.
pub(crate) fn quoted(bytes: &[u8], max: usize) -> String {
    let shown: String = bytes[..bytes.len().min(max)]
        .iter()
        .flat_map(|&byte| std::ascii::escape_default(byte))
        .map(char::from)
        .collect();
    if bytes.len() > max {
        format!("\"{shown}\"… ({})", size(bytes.len() as u64))
    } else {
        format!("\"{shown}\"")
    }
}

/// A function's name for messages: demangled (without the hash) and kept to
/// [`MAX_NAME_BYTES`]; a name too long to be a real one is not demangled at all.
pub(crate) fn function_name(mangled: &str) -> String {
    if mangled.len() > 4 * MAX_NAME_BYTES {
        return bounded_str(mangled, MAX_NAME_BYTES);
    }
    bounded_str(&format!("{:#}", rustc_demangle::demangle(mangled)), MAX_NAME_BYTES)
}

/// A byte count the way a person reads it: `812 bytes`, `64 KB`, `60 MB`.
pub(crate) fn size(bytes: u64) -> String {
    match bytes {
        0..10_000 => format!("{bytes} bytes"),
        10_000..10_000_000 => format!("{} KB", bytes.div_ceil(1000)),
        _ => format!("{} MB", bytes.div_ceil(1_000_000)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_strings_are_kept_whole_and_long_ones_cut_with_their_length() {
        assert_eq!(bounded(b"out of ideas", 12, 100), "out of ideas");
        assert_eq!(bounded(&[b'a'; 100], 60_000_000, 5), "aaaaa… (truncated, 60 MB)");
        assert_eq!(bounded(&[b'a'; 100], 100, 10), "aaaaaaaaaa… (truncated, 100 bytes)");
        // A cut inside `é` (two bytes) drops the half character instead of showing U+FFFD.
        assert_eq!(bounded("aé".as_bytes(), 3, 2), "a… (truncated, 3 bytes)");
        assert_eq!(bounded(b"\xff", 1, 10), "\u{fffd}", "whole strings keep their replacements");
    }

    #[test]
    fn shown_text_is_printable_and_bounded_after_escaping() {
        assert_eq!(shown("unknown field `\u{1b}[2J`", 100), "unknown field `\\u{1b}[2J`");
        assert_eq!(shown("a\nb", 100), "a\\u{a}b");
        assert_eq!(shown_lines("a\nb\u{202e}", 100), "a\nb\\u{202e}");
        assert_eq!(
            shown(&format!("invalid type: string \"{}\"", "A".repeat(59_000_000)), 30),
            "invalid type: string \"AAAAAAAA… (truncated, 60 MB)"
        );
    }

    #[test]
    fn bytes_are_quoted_escaped_and_cut_with_their_size() {
        assert_eq!(quoted(b"compact", 40), "\"compact\"");
        assert_eq!(quoted(" 1".as_bytes(), 40), "\" 1\"");
        assert_eq!(quoted("\u{a0}1\0".as_bytes(), 40), "\"\\xc2\\xa01\\x00\"");
        assert_eq!(quoted(b"\x1b[2J\"\\", 40), "\"\\x1b[2J\\\"\\\\\"");
        assert_eq!(quoted(&[b'7'; 20_000], 4), "\"7777\"… (20 KB)");
    }

    #[test]
    fn function_names_are_demangled_within_their_bound() {
        let mangled = "_ZN7panicky4play17h0123456789abcdefE";
        assert_eq!(function_name(mangled), "panicky::play");
        let huge = "f".repeat(10_000_000);
        assert_eq!(function_name(&huge), format!("{}… (truncated, 10 MB)", "f".repeat(256)));
    }

    #[test]
    fn sizes_read_like_a_person_writes_them() {
        assert_eq!(size(812), "812 bytes");
        assert_eq!(size(65_536), "66 KB");
        assert_eq!(size(60_000_000), "60 MB");
    }
}
