//! A bot's DWARF (or, without it, its source map, [`crate::srcmap`]): symbolizing call-stack
//! addresses, the nearest line to an instruction that has none, and the first line of the bot's
//! `play`.
//!
//! wasmtime can symbolize backtraces itself (`WasmBacktraceDetails::Enable`), but it builds a new
//! DWARF context for every frame of every backtrace, which made each located failure of a Rust
//! bot cost tens of milliseconds. The sandbox therefore asks wasmtime only for each frame's
//! module offset and symbolizes here, with one context per lookup, using the same `addr2line`.
//!
//! When a turn ends without a move there is no call stack left to look at, so the location of
//! `play` comes from the debug information alone: the functions that hold the bot's
//! `<Bot as botlens_sdk::Bot>::play` (its own out-of-line copy, or the SDK closure it was inlined
//! into) are found by name in the `name` section, and every line-table row of those functions is
//! symbolized; the frames named `play` in the bot's own files give lines of `play`'s body, and the
//! first of them is the answer. Built with `debug = "line-tables-only"` this is the first line of
//! the body that has code. A source map names no functions, so there the functions named `play`
//! (`bot/play`, `bot/MyBot#play` in AssemblyScript's `name` section) or `botlens_play` give the
//! first line of the bot's code they were compiled from.

use std::ops::Range;

use botlens_engine::SourceLocation;
use gimli::{EndianSlice, LittleEndian, SectionId};

use crate::sections::Sections;
use crate::srcmap::SourceMap;
use crate::text;

type Slice<'a> = EndianSlice<'a, LittleEndian>;

/// Whether a source file is the bot's own code.
pub(crate) type IsBotFile<'f> = dyn Fn(&str) -> bool + 'f;

/// One frame of a symbolized address: a function (possibly inlined) and where in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Symbol {
    /// The function's name, demangled without its hash.
    pub function: Option<String>,
    /// The source file.
    pub file: Option<String>,
    /// 1-based line; `None` for compiler-made code.
    pub line: Option<u32>,
    /// 1-based column; 0 when unknown.
    pub column: u32,
}

/// The DWARF sections of a module; `None` when it has none (or they are unreadable).
fn load<'a>(sections: &Sections<'a>) -> Option<gimli::Dwarf<Slice<'a>>> {
    sections.custom(".debug_info").next()?;
    gimli::Dwarf::load(|id: SectionId| -> Result<Slice<'a>, gimli::Error> {
        let contents = sections.custom(id.name()).next().unwrap_or(&[]);
        Ok(EndianSlice::new(contents, LittleEndian))
    })
    .ok()
}

/// Whether the module's DWARF describes a function's parameters or locals anywhere (what a
/// debugger needs to print them), beyond the line tables and function names that locating
/// failures needs.
pub(crate) fn has_variables(binary: &[u8]) -> bool {
    let Some(dwarf) = Sections::read(binary).ok().as_ref().and_then(load) else {
        return false;
    };
    let mut units = dwarf.units();
    while let Ok(Some(header)) = units.next() {
        let Ok(abbreviations) = dwarf.abbreviations(&header) else { continue };
        let mut entries = header.entries(&abbreviations);
        while let Ok(Some(entry)) = entries.next_dfs() {
            if matches!(entry.tag(), gimli::DW_TAG_variable | gimli::DW_TAG_formal_parameter) {
                return true;
            }
        }
    }
    false
}

/// The debug information of one module, parsed for a batch of lookups: its DWARF, its source
/// map, or both (the source map then answers for the addresses the DWARF knows nothing of).
pub(crate) struct DebugInfo<'a> {
    sections: Sections<'a>,
    context: Option<addr2line::Context<Slice<'a>>>,
    source_map: Option<&'a SourceMap>,
}

impl<'a> DebugInfo<'a> {
    /// Parses the module's DWARF, with its `source_map` (read when it was loaded); `None` when
    /// it has neither (or its DWARF is unreadable and it has no source map).
    pub fn new(binary: &'a [u8], source_map: Option<&'a SourceMap>) -> Option<Self> {
        let sections = Sections::read(binary).ok()?;
        let context = load(&sections).and_then(|dwarf| addr2line::Context::from_dwarf(dwarf).ok());
        if context.is_none() && source_map.is_none() {
            return None;
        }
        Some(DebugInfo { sections, context, source_map })
    }

    /// The body (code-section range) of the function that holds `address`.
    fn body_at(&self, address: u64) -> Option<&Range<u64>> {
        let bodies = &self.sections.bodies;
        let after = bodies.partition_point(|body| body.start <= address);
        bodies[..after].last().filter(|body| address < body.end)
    }

    /// The code-section address (DWARF's address space) of a module file offset.
    pub fn address(&self, module_offset: usize) -> Option<u64> {
        (module_offset as u64).checked_sub(self.sections.code_offset)
    }

    /// The frames at `address`, innermost (inlined) first: from the DWARF, else the source
    /// map's one frame (which names no function).
    pub fn symbols(&self, address: u64) -> Vec<Symbol> {
        let symbols = self.dwarf_symbols(address);
        if !symbols.is_empty() {
            return symbols;
        }
        let mapped = self.source_map.zip(self.body_at(address));
        let Some(location) = mapped.and_then(|(map, body)| map.location(body, address)) else {
            return symbols;
        };
        vec![Symbol {
            function: None,
            file: Some(location.file),
            line: Some(location.line),
            column: location.column,
        }]
    }

    /// The DWARF's frames at `address`, innermost (inlined) first.
    fn dwarf_symbols(&self, address: u64) -> Vec<Symbol> {
        let mut symbols = Vec::new();
        let Some(context) = &self.context else { return symbols };
        let Ok(mut frames) = context.find_frames(address).skip_all_loads() else {
            return symbols;
        };
        while let Ok(Some(frame)) = frames.next() {
            let function = frame
                .function
                .as_ref()
                .and_then(|f| f.raw_name().ok())
                .map(|name| text::function_name(&name));
            let location = frame.location.as_ref();
            symbols.push(Symbol {
                function,
                file: location.and_then(|l| l.file).map(bot_file),
                line: location.and_then(|l| l.line).filter(|&line| line > 0),
                column: location.and_then(|l| l.column).unwrap_or(0),
            });
        }
        symbols
    }

    /// The line of the bot's code nearest to `address` within function body number `body`:
    /// the first one at or after it, else the last one before it.
    pub fn nearest_line(
        &self,
        body: usize,
        address: u64,
        is_bot: &IsBotFile<'_>,
    ) -> Option<SourceLocation> {
        let body = self.sections.bodies.get(body)?;
        let Some(context) = &self.context else {
            return self.source_map?.nearest_line(body, address, is_bot);
        };
        let bot_line = |location: &addr2line::Location<'_>| {
            let file = location.file.filter(|file| is_bot(file))?;
            let line = location.line.filter(|&line| line > 0)?;
            Some(SourceLocation {
                file: bot_file(file),
                line,
                column: location.column.unwrap_or(0),
            })
        };
        let mut after = context.find_location_range(address, body.end).ok()?;
        after.find_map(|(_, _, l)| bot_line(&l)).or_else(|| {
            let before = context.find_location_range(body.start, address).ok()?;
            before.filter_map(|(_, _, l)| bot_line(&l)).last()
        })
    }

    /// For an address the source map (not DWARF) describes: the bot's line before it in function
    /// body number `body`, the call site of code inlined there from a skipped file.
    pub fn inlined_call_site(
        &self,
        body: usize,
        address: u64,
        is_bot: &IsBotFile<'_>,
    ) -> Option<SourceLocation> {
        if !self.dwarf_symbols(address).is_empty() {
            return None;
        }
        self.source_map?.line_before(self.sections.bodies.get(body)?, address, is_bot)
    }

    /// The first line of the bot's `play`.
    pub fn find_play(
        &self,
        imported_functions: u32,
        is_bot: &IsBotFile<'_>,
    ) -> Option<SourceLocation> {
        let bodies: Vec<Range<u64>> = self
            .sections
            .function_names()
            .into_iter()
            .filter(|(_, name)| holds_play(name))
            .filter_map(|(index, _)| {
                let body = index.checked_sub(imported_functions)?;
                self.sections.bodies.get(body as usize).cloned()
            })
            .collect();
        let Some(context) = &self.context else {
            let map = self.source_map?;
            let firsts = bodies.iter().filter_map(|body| map.first_line(body, is_bot));
            return firsts.min_by_key(|location| (location.line, location.column));
        };
        let mut best: Option<SourceLocation> = None;
        for body in bodies {
            let Ok(rows) = context.find_location_range(body.start, body.end) else { continue };
            for (address, _, _) in rows {
                let Some(location) = self.play_frame_location(address, is_bot) else { continue };
                if best
                    .as_ref()
                    .is_none_or(|b| (location.line, location.column) < (b.line, b.column))
                {
                    best = Some(location);
                }
            }
        }
        best
    }

    /// The location in the outermost frame at `address` that is a `play` in the bot's own files.
    fn play_frame_location(&self, address: u64, is_bot: &IsBotFile<'_>) -> Option<SourceLocation> {
        self.symbols(address)
            .into_iter()
            .filter(|s| s.function.as_deref().is_some_and(|f| f == "play" || f.ends_with("::play")))
            .filter_map(|s| {
                let file = s.file.filter(|file| is_bot(file))?;
                Some(SourceLocation { file, line: s.line?, column: s.column })
            })
            .last()
    }
}

/// A file name from the DWARF, kept to [`text::MAX_FILE_BYTES`].
fn bot_file(file: &str) -> String {
    text::bounded_str(file, text::MAX_FILE_BYTES)
}

/// Whether a function (by its mangled name) is, or may have inlined, the bot's `play`: the
/// bot's impl itself, the SDK closure that calls it, or (should the optimizer see through the
/// closure) the SDK's entry point and the export; in AssemblyScript, a function or method
/// `play` (`bot/play`, `bot/MyBot#play`) and the SDK's `botlens_play`.
fn holds_play(mangled: &str) -> bool {
    let name = text::function_name(mangled);
    let closure = name.contains("{{closure}}") || name.contains("{closure#");
    let last = name.rsplit(['/', '#']).next().unwrap_or_default();
    (name.starts_with('<') && name.ends_with(" as botlens_sdk::Bot>::play"))
        || (name.starts_with("botlens_sdk::runtime::start") && closure)
        || name == "botlens_sdk::runtime::play"
        || name == "botlens_play"
        || (name.contains('/') && ["play", "botlens_play"].contains(&last))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_is_looked_for_in_the_bot_impl_and_the_sdk_closure_only() {
        assert!(holds_play(
            "_ZN53_$LT$panicky..Panicky$u20$as$u20$botlens_sdk..Bot$GT$4play17h0123456789abcdefE"
        ));
        assert!(holds_play(
            "_ZN11botlens_sdk7runtime5start28_$u7b$$u7b$closure$u7d$$u7d$17h0123456789abcdefE"
        ));
        assert!(holds_play("botlens_play"));
        assert!(!holds_play("_ZN11botlens_sdk4turn4Turn6attack17h0123456789abcdefE"));
        assert!(!holds_play("play"));
        for assemblyscript in ["bot/play", "bot/MyBot#play", "~lib/botlens/index/botlens_play"] {
            assert!(holds_play(assemblyscript), "{assemblyscript}");
        }
        assert!(!holds_play("bot/replay") && !holds_play("bot/MyBot#plays"));
    }

    #[test]
    fn a_module_without_dwarf_has_no_debug_info() {
        let bytes = wat::parse_str("(module (func (export \"botlens_play\")))").unwrap();
        assert!(DebugInfo::new(&bytes, None).is_none());
    }
}
