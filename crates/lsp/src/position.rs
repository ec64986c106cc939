//! Positions: compilers and DWARF count 1-based lines and 1-based *character* columns; LSP
//! counts 0-based lines and columns in the negotiated encoding (UTF-8 bytes or UTF-16 units).
//!
//! Converting a column needs the line's text, read from disk (the server never holds documents:
//! results are for the saved file). Not for: ranges in unsaved buffers.

use std::path::Path;

use tower_lsp_server::ls_types::{Position, PositionEncodingKind, Range};

/// The position encoding agreed with the client.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PositionEncoding {
    /// Columns count UTF-8 bytes (offered when the client supports it).
    Utf8,
    /// Columns count UTF-16 code units (the protocol's default).
    #[default]
    Utf16,
}

impl PositionEncoding {
    /// UTF-8 when the client lists it among its `general.positionEncodings`, else UTF-16.
    pub fn negotiate(offered: Option<&[PositionEncodingKind]>) -> PositionEncoding {
        match offered {
            Some(kinds) if kinds.contains(&PositionEncodingKind::UTF8) => PositionEncoding::Utf8,
            _ => PositionEncoding::Utf16,
        }
    }

    /// The kind to announce in the server capabilities.
    pub fn kind(self) -> PositionEncodingKind {
        match self {
            PositionEncoding::Utf8 => PositionEncodingKind::UTF8,
            PositionEncoding::Utf16 => PositionEncodingKind::UTF16,
        }
    }

    /// The column, in this encoding, of the character at 0-based `chars` in `line`; past the end
    /// of the line it is the line's length.
    pub fn column(self, line: &str, chars: u32) -> u32 {
        line.chars()
            .take(chars as usize)
            .map(|c| match self {
                PositionEncoding::Utf8 => c.len_utf8(),
                PositionEncoding::Utf16 => c.len_utf16(),
            })
            .sum::<usize>() as u32
    }

    /// The range on 1-based `line` from 1-based character `column` (0: unknown, the first
    /// non-blank character) to the end of the line's text, with `text` the file's contents.
    pub fn line_range(self, text: Option<&str>, line: u32, column: u32) -> Range {
        let row = line.saturating_sub(1);
        let Some(content) = text.and_then(|t| t.lines().nth(row as usize)) else {
            let start = column.saturating_sub(1);
            return Range::new(Position::new(row, start), Position::new(row, start));
        };
        let content = content.trim_end();
        let start = if column == 0 {
            (content.chars().count() - content.trim_start().chars().count()) as u32
        } else {
            column - 1
        };
        let end = content.chars().count() as u32;
        Range::new(
            Position::new(row, self.column(content, start)),
            Position::new(row, self.column(content, end.max(start))),
        )
    }

    /// The range of a compiler span (1-based lines, 1-based character columns, end exclusive).
    pub fn span_range(
        self,
        text: Option<&str>,
        (line, column): (u32, u32),
        (end_line, end_column): (u32, u32),
    ) -> Range {
        let point = |line: u32, column: u32| {
            let row = line.saturating_sub(1);
            let chars = column.saturating_sub(1);
            let content = text.and_then(|t| t.lines().nth(row as usize));
            Position::new(row, content.map_or(chars, |c| self.column(c, chars)))
        };
        Range::new(point(line, column), point(end_line.max(line), end_column))
    }
}

/// The file's text, when it can be read (a missing file gives positions without conversion).
/// The path comes from a compiler's or a bot's message, so only a regular file of at most
/// [`MAX_SOURCE_BYTES`](botlens_bots::own_files::MAX_SOURCE_BYTES) is read: a device or a
/// FIFO is not, and neither is a huge file.
pub fn read(path: &Path) -> Option<String> {
    botlens_files::read_text(path, botlens_bots::own_files::MAX_SOURCE_BYTES).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_is_chosen_only_when_offered() {
        let both = [PositionEncodingKind::UTF16, PositionEncodingKind::UTF8];
        assert_eq!(PositionEncoding::negotiate(Some(&both)), PositionEncoding::Utf8);
        assert_eq!(
            PositionEncoding::negotiate(Some(&[PositionEncodingKind::UTF32])),
            PositionEncoding::Utf16
        );
        assert_eq!(PositionEncoding::negotiate(None), PositionEncoding::Utf16);
    }

    #[test]
    fn columns_after_non_ascii_text_differ_by_encoding() {
        // `é` is 2 UTF-8 bytes and 1 UTF-16 unit; `🎯` is 4 bytes and 2 units.
        let line = r#"    log!("é🎯"); turn.attack(x, y);"#;
        let turn = line.find("turn").unwrap();
        let chars = line[..turn].chars().count() as u32;
        assert_eq!(chars, 16);
        assert_eq!(PositionEncoding::Utf8.column(line, chars), 20);
        assert_eq!(PositionEncoding::Utf16.column(line, chars), 17);
    }

    #[test]
    fn a_failure_range_covers_the_rest_of_its_line() {
        let text = "fn a() {}\n    let x = «é»;   \n";
        let range = PositionEncoding::Utf16.line_range(Some(text), 2, 13);
        assert_eq!(range, Range::new(Position::new(1, 12), Position::new(1, 16)));
        let range = PositionEncoding::Utf8.line_range(Some(text), 2, 13);
        assert_eq!(range, Range::new(Position::new(1, 12), Position::new(1, 19)));
        // Unknown column: from the first non-blank character.
        let range = PositionEncoding::Utf8.line_range(Some(text), 2, 0);
        assert_eq!(range.start, Position::new(1, 4));
    }

    #[test]
    fn positions_in_unreadable_files_are_kept_as_given() {
        let range = PositionEncoding::Utf16.line_range(None, 23, 5);
        assert_eq!(range, Range::new(Position::new(22, 4), Position::new(22, 4)));
        let span = PositionEncoding::Utf8.span_range(None, (3, 2), (3, 7));
        assert_eq!(span, Range::new(Position::new(2, 1), Position::new(2, 6)));
    }

    #[test]
    fn compiler_spans_convert_both_ends() {
        let text = "let ü = nope;\n";
        let span = PositionEncoding::Utf8.span_range(Some(text), (1, 9), (1, 13));
        assert_eq!(span, Range::new(Position::new(0, 9), Position::new(0, 13)));
        let span = PositionEncoding::Utf16.span_range(Some(text), (1, 9), (1, 13));
        assert_eq!(span, Range::new(Position::new(0, 8), Position::new(0, 12)));
    }
}
