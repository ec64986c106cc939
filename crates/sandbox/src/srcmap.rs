//! Source maps as a bot's line tables, for modules that have no DWARF: AssemblyScript (through
//! Binaryen) writes only a source map, and botlens's build puts it in the module's
//! `botlens_source_map` custom section (docs/abi.md).
//!
//! A WebAssembly source map is a version 3 source map whose generated positions are all on the
//! first line, each generated column being a byte offset into the module: the offset of the
//! instruction the mapping starts at, which is what wasmtime's `FrameInfo::module_offset` gives
//! for a frame. [`SourceMap`] keeps the mappings as rows sorted by code-section address (the
//! module offset minus where the code section's contents start: DWARF's address space, so the
//! locator treats both alike), with the `sourceRoot` applied to every source.
//!
//! Not for: deciding which files are the bot's (see [`crate::locate`]).

use std::ops::Range;

use botlens_engine::SourceLocation;

use crate::abi::SOURCE_MAP_SECTION;
use crate::sections::Sections;
use crate::text;

/// One mapping: from `address` up to the next row's, the code is `file`'s `line`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Row {
    /// The code-section address the mapping starts at.
    address: u64,
    /// The source, an index into [`SourceMap::files`]; `None` for code with no source.
    file: Option<u32>,
    /// 1-based line.
    line: u32,
    /// 1-based column.
    column: u32,
}

/// A module's source map, read from its `botlens_source_map` section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SourceMap {
    /// The sources, `sourceRoot` applied, each kept to [`text::MAX_FILE_BYTES`].
    files: Vec<String>,
    /// The mappings, by address.
    rows: Vec<Row>,
}

impl SourceMap {
    /// The source map of the module whose sections are `sections`: `None` without a
    /// `botlens_source_map` section, an error when the section is not one source map.
    pub fn read(sections: &Sections<'_>) -> Result<Option<SourceMap>, String> {
        let mut found = sections.custom(SOURCE_MAP_SECTION);
        let Some(contents) = found.next() else { return Ok(None) };
        if found.next().is_some() {
            return Err(format!("the module has several `{SOURCE_MAP_SECTION}` sections"));
        }
        let map = sourcemap::SourceMap::from_slice(contents).map_err(|error| {
            format!("the `{SOURCE_MAP_SECTION}` section is not a source map: {error}")
        })?;
        let files = (0..map.get_source_count())
            .map(|index| {
                text::bounded_str(map.get_source(index).unwrap_or(""), text::MAX_FILE_BYTES)
            })
            .collect();
        let mut rows: Vec<Row> = map
            .tokens()
            .filter(|token| token.get_dst_line() == 0)
            .filter_map(|token| {
                let address = u64::from(token.get_dst_col()).checked_sub(sections.code_offset)?;
                let file = token.get_source().is_some().then(|| token.get_src_id());
                // A mapping without a source has no line either (the crate says `!0`).
                let line = token.get_src_line().saturating_add(1);
                let column = token.get_src_col().saturating_add(1);
                Some(Row { address, file, line, column })
            })
            .collect();
        // Binaryen follows a mapping with one of no source at the same offset (the code of an
        // expression's children that has no location of its own); the mapped one is the line.
        rows.sort_by_key(|row| (row.address, row.file.is_none()));
        rows.dedup_by_key(|row| row.address);
        Ok(Some(SourceMap { files, rows }))
    }

    /// Where the code at `address` of the function whose body spans `body` came from: the
    /// mapping that starts at or before it, if that starts inside the body and has a source.
    pub fn location(&self, body: &Range<u64>, address: u64) -> Option<SourceLocation> {
        let before = self.rows.partition_point(|row| row.address <= address);
        let row = self.rows[..before].last().filter(|row| row.address >= body.start)?;
        self.located(row)
    }

    /// The line of the bot's code nearest to `address` within `body`: the first mapping at or
    /// after it, else the last one before it.
    pub fn nearest_line(
        &self,
        body: &Range<u64>,
        address: u64,
        is_bot: &dyn Fn(&str) -> bool,
    ) -> Option<SourceLocation> {
        let rows = self.in_body(body);
        let split = rows.partition_point(|row| row.address < address);
        // None of the bot's at or after `address`: the last one before it.
        rows[split..]
            .iter()
            .find_map(|row| self.bot_location(row, is_bot))
            .or_else(|| self.line_before(body, address, is_bot))
    }

    /// `row`'s location, when it is in one of the bot's files.
    fn bot_location(&self, row: &Row, is_bot: &dyn Fn(&str) -> bool) -> Option<SourceLocation> {
        self.located(row).filter(|location| is_bot(&location.file))
    }

    /// The last line of the bot's code at or before `address` within `body`: where the bot was
    /// when it entered code inlined from a skipped file (a source map has no inlined frames, so
    /// the SDK's code inlined into the bot's function maps to the SDK): the call's line.
    pub fn line_before(
        &self,
        body: &Range<u64>,
        address: u64,
        is_bot: &dyn Fn(&str) -> bool,
    ) -> Option<SourceLocation> {
        let rows = self.in_body(body);
        let split = rows.partition_point(|row| row.address <= address);
        rows[..split].iter().rev().find_map(|row| self.bot_location(row, is_bot))
    }

    /// The first line (and column) of the bot's code that `body` was compiled from.
    pub fn first_line(
        &self,
        body: &Range<u64>,
        is_bot: &dyn Fn(&str) -> bool,
    ) -> Option<SourceLocation> {
        self.in_body(body)
            .iter()
            .filter_map(|row| self.bot_location(row, is_bot))
            .min_by_key(|location| (location.line, location.column))
    }

    /// The rows that start inside `body`.
    fn in_body(&self, body: &Range<u64>) -> &[Row] {
        let start = self.rows.partition_point(|row| row.address < body.start);
        let end = self.rows.partition_point(|row| row.address < body.end);
        &self.rows[start..end.max(start)]
    }

    fn located(&self, row: &Row) -> Option<SourceLocation> {
        let file = self.files.get(row.file? as usize)?;
        Some(SourceLocation { file: file.clone(), line: row.line, column: row.column })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module with two functions and `map` (JSON) in its `botlens_source_map` section.
    fn module_with_map(map: &str) -> Vec<u8> {
        let escaped = map.replace('\\', "\\\\").replace('"', "\\\"");
        let wat = format!(
            r#"(module (func $a nop nop nop) (func $b nop nop) (@custom "botlens_source_map" "{escaped}"))"#
        );
        wat::parse_str(wat).unwrap()
    }

    /// The source map of [`module_with_map`]'s module whose mappings are `(module offset,
    /// source (`None`: no source), line, column)`, all 0-based, written as VLQ by the
    /// `sourcemap` crate's builder.
    fn map_json(
        root: Option<&str>,
        sources: &[&str],
        rows: &[(u32, Option<u32>, u32, u32)],
    ) -> String {
        let mut builder = sourcemap::SourceMapBuilder::new(None);
        if let Some(root) = root {
            builder.set_source_root(Some(root));
        }
        for source in sources {
            builder.add_source(source);
        }
        for &(offset, source, line, column) in rows {
            builder.add_raw(0, offset, line, column, source, None, false);
        }
        let mut out = Vec::new();
        builder.into_sourcemap().to_writer(&mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn mappings_are_found_by_module_offset_within_their_function() {
        // Find the bodies first, then map their instructions.
        let bytes = module_with_map(&map_json(None, &[], &[]));
        let sections = Sections::read(&bytes).unwrap();
        let code = sections.code_offset as u32;
        let (a, b) = (sections.bodies[0].clone(), sections.bodies[1].clone());
        // $a's second `nop` is bot.ts line 3, column 5; $b's first `nop` lib.ts line 10.
        let a_nop = code + a.start as u32 + 2;
        let b_nop = code + b.start as u32 + 1;
        let json = map_json(
            Some("/bots/mine"),
            &["bot.ts", "~lib/array.ts"],
            // After $b's first `nop`, a mapping with no source: code of no line.
            // At $a's, one of no source as Binaryen writes them, which the mapping outranks.
            &[
                (a_nop, Some(0), 2, 4),
                (a_nop, None, 0, 0),
                (b_nop, Some(1), 9, 0),
                (b_nop + 1, None, 0, 0),
            ],
        );
        let bytes = module_with_map(&json);
        let sections = Sections::read(&bytes).unwrap();
        let map = SourceMap::read(&sections).unwrap().unwrap();
        let at = |body: &Range<u64>, offset: u32| {
            map.location(body, u64::from(offset) - sections.code_offset)
                .map(|l| (l.file, l.line, l.column))
        };
        let bot = ("/bots/mine/bot.ts".to_owned(), 3, 5);
        assert_eq!(at(&a, a_nop), Some(bot.clone()));
        assert_eq!(at(&a, a_nop + 1), Some(bot.clone()), "the mapping runs on");
        assert_eq!(at(&a, a_nop - 1), None, "before the function's first mapping");
        assert_eq!(at(&b, b_nop), Some(("/bots/mine/~lib/array.ts".to_owned(), 10, 1)));
        assert_eq!(at(&b, b_nop - 1), None, "$a's mapping does not run into $b");
        assert_eq!(at(&b, b_nop + 1), None, "a mapping without a source ends the one before");
        let is_bot = |file: &str| !file.contains("~lib/");
        let nearest = |body: &Range<u64>, offset: u32| {
            map.nearest_line(body, u64::from(offset) - sections.code_offset, &is_bot)
                .map(|l| l.line)
        };
        assert_eq!(nearest(&a, a_nop - 1), Some(3), "the first after it");
        assert_eq!(nearest(&a, a_nop + 1), Some(3), "else the last before it");
        assert_eq!(nearest(&b, b_nop), None, "no line of the bot's in $b");
        assert_eq!(map.first_line(&a, &is_bot).map(|l| l.line), Some(3));
    }

    #[test]
    fn code_inlined_from_a_skipped_file_is_placed_at_the_bots_line_before_it() {
        let bytes = module_with_map(&map_json(None, &[], &[]));
        let sections = Sections::read(&bytes).unwrap();
        let code = sections.code_offset as u32;
        let a = sections.bodies[0].clone();
        let call = code + a.start as u32 + 1;
        // The bot's call at the first nop, then the SDK's `mark` inlined at the next two.
        let json = map_json(
            None,
            &["bot.ts", "~lib/botlens/index.ts"],
            &[(call, Some(0), 6, 2), (call + 1, Some(1), 40, 0), (call + 2, None, 0, 0)],
        );
        let bytes = module_with_map(&json);
        let sections = Sections::read(&bytes).unwrap();
        let map = SourceMap::read(&sections).unwrap().unwrap();
        let is_bot = |file: &str| !file.contains("~lib/");
        let before = |offset: u32| {
            map.line_before(&a, u64::from(offset) - sections.code_offset, &is_bot)
                .map(|l| (l.file, l.line))
        };
        let bot = Some(("bot.ts".to_owned(), 7));
        assert_eq!(before(call + 1), bot, "inside the SDK's code: the call before it");
        assert_eq!(before(call + 2), bot, "past it, in code mapped to no source");
        assert_eq!(before(call), bot, "at the call itself");
        assert_eq!(before(call - 1), None, "nothing of the bot's before the call");
    }

    #[test]
    fn a_section_that_is_no_source_map_is_refused_and_none_is_none() {
        let none = wat::parse_str("(module)").unwrap();
        assert_eq!(SourceMap::read(&Sections::read(&none).unwrap()), Ok(None));
        let bytes = module_with_map("{\"version\":3,\"mappings\":");
        let error = SourceMap::read(&Sections::read(&bytes).unwrap()).unwrap_err();
        assert!(
            error.starts_with("the `botlens_source_map` section is not a source map: "),
            "{error}"
        );
        let wat =
            r#"(module (@custom "botlens_source_map" "{}") (@custom "botlens_source_map" "{}"))"#;
        let twice = wat::parse_str(wat).unwrap();
        let error = SourceMap::read(&Sections::read(&twice).unwrap()).unwrap_err();
        assert_eq!(error, "the module has several `botlens_source_map` sections");
    }
}
