//! Source locations of failures: which frame of a WebAssembly call stack is the bot's own code,
//! and which line it was on.
//!
//! A failure carries the bot's call stack (see [`crate::fold`]) and is reported at the innermost
//! frame that belongs to the bot's crate, or, for a stack overflow, at the recursive call of the
//! cycle that used the stack up. Frames of the
//! Rust standard library (`/rustc/…`, `library/std|core|alloc`), of other crates (Cargo's
//! registry and git checkouts), of wasi-libc (also Debian's build of it, which records its
//! sources as `./libc-bottom-half/…`, `./libc-top-half/…` and `./dlmalloc/…`, also under `./build/`) and of the
//! botlens SDKs (the directory of every file the module's `botlens_sdk` sections name, one per
//! line) are skipped, as
//! are AssemblyScript's standard library and packages (`~lib/…`). Frames come from wasmtime's
//! `WasmBacktrace` and are symbolized with the module's DWARF (see [`crate::dwarf`]), or, for
//! the addresses it has none for, with the source map of its `botlens_source_map` section
//! ([`crate::srcmap`]). Where the instruction itself has no line (compiler-made code such as a
//! loop's fuel check), the nearest line of the bot's code in the same function is used. Modules
//! with neither get no location, only the function's name in the message.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::{Arc, Mutex, OnceLock};

use botlens_engine::stack::thousands;
use botlens_engine::{CallStack, Failure, FailureKind, SourceLocation, StackFrame};
use wasmtime::{FrameInfo, WasmBacktrace};

use crate::abi::SDK_SECTION;
use crate::dwarf::DebugInfo;
use crate::fold::Folder;
use crate::sections::Sections;
use crate::srcmap::SourceMap;
use crate::text;

/// Path fragments of code that is not the bot's own (compared with `/` separators).
const FOREIGN: &[&str] = &[
    "/library/std/",
    "/library/core/",
    "/library/alloc/",
    "/library/panic_abort/",
    "/.cargo/registry/",
    "/.cargo/git/",
    "/.rustup/toolchains/",
    "/rust/deps/",
    "wasi-libc",
    "/wasi-sdk",
    // AssemblyScript's standard library and packages, under a source map's `sourceRoot`.
    "/~lib/",
];

/// Directories of relative paths of code that is not the bot's own, at the path's start (after
/// any leading `./`) or further in: Debian's wasi-libc records its sources relative to its build
/// directory (`./libc-top-half/…`, `./build/./libc-bottom-half/crt/crt1-reactor.c`, its
/// allocators `././dlmalloc/src/malloc.c` and `./emmalloc/emmalloc.c`), AssemblyScript names
/// its standard library and packages `~lib/…`.
const FOREIGN_RELATIVE: &[&str] =
    &["libc-bottom-half/", "libc-top-half/", "dlmalloc/", "emmalloc/", "~lib/"];

/// The botlens protocol crate's sources next to an SDK used by path (`…/crates/sdk/src/` →
/// `…/crates/protocol/`): the SDK calls into it, so its frames are not the bot's either.
fn protocol_dir(sdk_dir: &str) -> Option<String> {
    sdk_dir.strip_suffix("sdk/src/").map(|crates| format!("{crates}protocol/"))
}

/// For a stack overflow whose `stack` folded into a recursion: the recursion named at the end
/// of `message`, and the place of its recursive call, where the fix goes. `None` otherwise.
/// `whole`: the stack is every frame there was (one the host walked); else the guest stated it
/// and may have cut it, so the count is a least.
pub(crate) fn recursion_site(
    stack: &CallStack,
    kind: FailureKind,
    message: &mut String,
    whole: bool,
) -> Option<SourceLocation> {
    let recursion = stack.recursion().filter(|_| kind == FailureKind::StackOverflow)?;
    let _ = write!(
        message,
        "; the recursion {} repeated {}{} times",
        recursion.call_order(),
        if whole { "" } else { "at least " },
        thousands(u64::from(recursion.times))
    );
    recursion.call().location.clone()
}

/// One logical frame of a code address (an inlined call is one too), the bot's or not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LogicalFrame {
    /// The function's name, demangled without its hash.
    pub function: String,
    /// Where in it, when the debug information says (for the bot's code: the nearest line).
    pub location: Option<SourceLocation>,
    /// Whether it is the bot's own code.
    pub bot: bool,
}

/// Finds the bot's own source lines in one module's call stacks and debug information.
#[derive(Debug, Default)]
pub(crate) struct Locator {
    /// The SDKs' source directories, with `/` separators and a trailing `/`.
    sdk_dirs: Vec<String>,
    /// The binary module, for DWARF lookups.
    binary: Arc<[u8]>,
    /// Its source map, read once.
    source_map: Option<SourceMap>,
    imported_functions: u32,
    /// Names of exported functions, for messages about modules without a name section.
    exports: Vec<(u32, String)>,
    /// The first line of the bot's `play`, once looked up.
    play: OnceLock<Option<SourceLocation>>,
    /// The bot's innermost line at each code address a mark was drawn from (`None`: not the
    /// bot's code), so that recording marks symbolizes each call site once per module.
    drawn_at: Mutex<HashMap<(u32, usize), Option<SourceLocation>>>,
    /// The logical frames at each code address a stack was read at, symbolized once: a player
    /// that locates every move reads a stack at each of them.
    frames_at: Mutex<HashMap<CodeAddress, Vec<Option<StackFrame>>>>,
    /// Whether the module has DWARF or a source map, once looked up.
    has_debug_info: OnceLock<bool>,
}

/// A code address: a wasm function's index and an offset in the module.
type CodeAddress = (u32, usize);

impl Locator {
    /// The locator for a module: `sections` read from `binary`, whose first `imported_functions`
    /// function indices are imports. Every `botlens_sdk` section, and every line of one, names
    /// a file whose directory is skipped. A `botlens_source_map` section that is not one source
    /// map is an error.
    pub fn new(
        binary: Arc<[u8]>,
        sections: &Sections<'_>,
        imported_functions: u32,
    ) -> Result<Self, String> {
        let sdk_dirs = sections
            .custom(SDK_SECTION)
            .filter_map(|contents| std::str::from_utf8(contents).ok())
            .flat_map(|text| text.split(['\n', '\0']))
            .filter_map(|file| {
                let file = normalize(file.trim());
                let dir = &file[..file.rfind('/')? + 1];
                (!dir.is_empty()).then(|| dir.to_owned())
            })
            .collect();
        let exports = sections
            .exported_functions
            .iter()
            .map(|(i, n)| (*i, text::bounded_str(n, text::MAX_NAME_BYTES)))
            .collect();
        let source_map = SourceMap::read(sections)?;
        let play = OnceLock::new();
        Ok(Locator {
            sdk_dirs,
            binary,
            source_map,
            imported_functions,
            exports,
            play,
            drawn_at: Mutex::default(),
            frames_at: Mutex::default(),
            has_debug_info: OnceLock::new(),
        })
    }

    /// Whether `file` is the bot's own code.
    pub fn is_bot_file(&self, file: &str) -> bool {
        let file = normalize(file);
        let relative = file.trim_start_matches("./");
        !(file.starts_with("/rustc/")
            || FOREIGN.iter().any(|part| file.contains(part))
            || FOREIGN_RELATIVE.iter().any(|dir| {
                relative.starts_with(dir)
                    || (!file.starts_with('/') && relative.contains(&format!("/{dir}")))
            })
            || self.sdk_dirs.iter().any(|dir| {
                file.starts_with(dir.as_str())
                    || protocol_dir(dir).is_some_and(|p| file.starts_with(&p))
            }))
    }

    /// `failure` with the bot's call stack on `backtrace`, located at the bot's innermost frame
    /// (for a stack overflow that folded into a recursion: at the recursive call, with the
    /// cycle named in the message), or, when no frame has a line, with the innermost
    /// function's name added to its message.
    pub fn place(&self, backtrace: &WasmBacktrace, failure: Failure) -> Failure {
        let stack = self.stack(backtrace);
        let mut message = failure.message;
        let location = recursion_site(&stack, failure.kind, &mut message, true);
        let location = location.or_else(|| stack.frames.iter().find_map(|f| f.location.clone()));
        if location.is_none() {
            message += &self.function_hint(backtrace);
        }
        let stack = (!stack.frames.is_empty()).then_some(stack);
        Failure { message, ..failure }.at(location).with_stack(stack)
    }

    /// The bot's frames on `backtrace`, innermost first: every frame (inlined ones included)
    /// in the bot's own files, with other code's frames counted between them. Without DWARF,
    /// every wasm frame is taken as the bot's, named from the module, without a line (and so
    /// without a source map). Each
    /// distinct code address is symbolized once, however often recursion repeats it.
    pub fn stack(&self, backtrace: &WasmBacktrace) -> CallStack {
        let mut folder = Folder::default();
        if !self.has_debug_info() {
            for frame in backtrace.frames() {
                folder.bot(self.function_name(frame), None);
            }
            return folder.finish();
        }
        let mut known = self.frames_at.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let mut debug = None;
        for frame in backtrace.frames() {
            let Some(offset) = frame.module_offset() else {
                folder.foreign();
                continue;
            };
            let symbols = known.entry((frame.func_index(), offset)).or_insert_with(|| match debug
                .get_or_insert_with(|| self.debug_info())
            {
                Some(debug) => self.symbolize(debug, frame, offset),
                None => Vec::new(),
            });
            if symbols.is_empty() {
                folder.foreign();
            }
            for symbol in symbols.iter() {
                match symbol {
                    Some(f) => folder.bot(f.function.clone(), f.location.clone()),
                    None => folder.foreign(),
                }
            }
        }
        folder.finish()
    }

    /// The bot's innermost line on `backtrace` (where a mark was drawn), each code address
    /// looked up once per module; `None` without debug information.
    pub fn innermost_line(&self, backtrace: &WasmBacktrace) -> Option<SourceLocation> {
        let mut known = self.drawn_at.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let mut debug = None;
        for frame in backtrace.frames() {
            let Some(offset) = frame.module_offset() else { continue };
            let line = known.entry((frame.func_index(), offset)).or_insert_with(|| {
                let debug = debug.get_or_insert_with(|| self.debug_info()).as_ref()?;
                let name = self.function_name(frame);
                self.logical_frames(debug, frame.func_index(), &name, offset)
                    .into_iter()
                    .find_map(|f| f.bot.then_some(f.location).flatten())
            });
            if line.is_some() {
                return line.clone();
            }
        }
        None
    }

    /// The logical frames (inlined ones first) at one wasm frame: the bot's as frames, other
    /// code's as `None`.
    fn symbolize(
        &self,
        debug: &DebugInfo<'_>,
        frame: &FrameInfo,
        offset: usize,
    ) -> Vec<Option<StackFrame>> {
        let name = self.function_name(frame);
        self.logical_frames(debug, frame.func_index(), &name, offset)
            .into_iter()
            .map(|f| {
                f.bot.then_some(StackFrame {
                    function: f.function,
                    location: f.location,
                    folded: 0,
                    cycle: None,
                })
            })
            .collect()
    }

    /// Every logical frame (inlined ones first) at `offset` in wasm function `func_index`,
    /// named `wasm_name`: the bot's with their lines, other code's with theirs when known.
    pub fn logical_frames(
        &self,
        debug: &DebugInfo<'_>,
        func_index: u32,
        wasm_name: &str,
        offset: usize,
    ) -> Vec<LogicalFrame> {
        let is_bot = |file: &str| self.is_bot_file(file);
        let Some(address) = debug.address(offset) else { return Vec::new() };
        let symbols = debug.symbols(address);
        let outermost = symbols.len().saturating_sub(1);
        let mut frames = symbols
            .into_iter()
            .enumerate()
            .map(|(index, symbol)| {
                let bot = symbol.file.as_deref().is_some_and(is_bot);
                let location = match (symbol.file, symbol.line) {
                    (Some(file), Some(line)) => {
                        Some(SourceLocation { file, line, column: symbol.column })
                    }
                    _ if bot => func_index
                        .checked_sub(self.imported_functions)
                        .and_then(|body| debug.nearest_line(body as usize, address, &is_bot)),
                    _ => None,
                };
                let function = match symbol.function {
                    // Line tables name a function without its path (`region_size`); the
                    // wasm function itself is named in full (`my_bot::grid::region_size`).
                    Some(short) if index == outermost => {
                        if wasm_name == short || wasm_name.ends_with(&format!("::{short}")) {
                            wasm_name.to_owned()
                        } else {
                            short
                        }
                    }
                    Some(name) => name,
                    None => wasm_name.to_owned(),
                };
                LogicalFrame { function, location, bot }
            })
            .collect::<Vec<_>>();
        // Code inlined into the bot's function from the SDK or `~lib` is mapped to those files
        // by a source map: the bot was at the call before it.
        if !frames.iter().any(|frame| frame.bot)
            && let Some(location) = func_index
                .checked_sub(self.imported_functions)
                .and_then(|body| debug.inlined_call_site(body as usize, address, &is_bot))
        {
            frames.push(LogicalFrame {
                function: wasm_name.to_owned(),
                location: Some(location),
                bot: true,
            });
        }
        frames
    }

    /// Where execution was, for messages about modules without a source location: the innermost
    /// function's name, e.g. `` in wasm function `spin` ``. Empty when there is no frame.
    pub fn function_hint(&self, backtrace: &WasmBacktrace) -> String {
        let Some(frame) = backtrace.frames().first() else { return String::new() };
        format!(" in wasm function `{}`", self.function_name(frame))
    }

    /// A wasm function's name: from the `name` section, else an export's, else `#index`.
    pub fn function_name(&self, frame: &FrameInfo) -> String {
        match frame.func_name() {
            Some(name) => text::function_name(name),
            None => match self.exports.iter().find(|(index, _)| *index == frame.func_index()) {
                Some((_, name)) => name.clone(),
                None => format!("#{}", frame.func_index()),
            },
        }
    }

    /// The module's debug information, parsed for a batch of lookups (`None` without DWARF
    /// or a source map).
    pub fn debug_info(&self) -> Option<DebugInfo<'_>> {
        DebugInfo::new(&self.binary, self.source_map.as_ref())
    }

    /// Whether [`Locator::debug_info`] finds any (parsed once to know).
    fn has_debug_info(&self) -> bool {
        *self.has_debug_info.get_or_init(|| self.debug_info().is_some())
    }

    /// The first line of the bot's `play`, from its DWARF or source map (looked up once).
    pub fn play_location(&self) -> Option<SourceLocation> {
        self.play
            .get_or_init(|| {
                let debug = self.debug_info()?;
                debug.find_play(self.imported_functions, &|file| self.is_bot_file(file))
            })
            .clone()
    }
}

/// `path` with `/` separators and, past its start, `.` and `dir/..` components resolved
/// lexically (Zig records a module outside the build directory as `/bot/../../sdk/botlens.zig`).
fn normalize(path: &str) -> String {
    let path = path.replace('\\', "/");
    let lead = path.len() - path.trim_start_matches("./").len();
    let (start, rest) = path.split_at(lead);
    let mut parts: Vec<&str> = Vec::new();
    for part in rest.split('/') {
        match part {
            "." => {}
            ".." if parts.last().is_some_and(|last| !last.is_empty() && *last != "..") => {
                parts.pop();
            }
            _ => parts.push(part),
        }
    }
    format!("{start}{}", parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn locator_with_sdk(path: &str) -> Locator {
        let wat = format!(r#"(module (@custom "botlens_sdk" "{path}"))"#);
        let bytes: Arc<[u8]> = wat::parse_str(wat).unwrap().into();
        let sections = Sections::read(&bytes).unwrap();
        Locator::new(bytes.clone(), &sections, 0).unwrap()
    }

    #[test]
    fn std_registry_libc_and_sdk_files_are_not_the_bots() {
        let locator = locator_with_sdk("/home/me/botlens/crates/sdk/src/lib.rs");
        for foreign in [
            "/rustc/0123abcd/library/core/src/option.rs",
            "/home/me/.rustup/toolchains/stable/lib/rustlib/src/rust/library/std/src/panicking.rs",
            "/home/me/.cargo/registry/src/index.crates.io-6f17d22bba15001f/serde_json-1.0.140/src/de.rs",
            "/home/me/botlens/crates/sdk/src/turn.rs",
            "C:\\Users\\me\\.cargo\\registry\\src\\x\\itoa-1.0\\src\\lib.rs",
            "././libc-bottom-half/sources/abort.c",
            "./libc-top-half/musl/src/exit/assert.c",
            "libc-top-half/musl/src/string/memcpy.c",
            "./build/./libc-bottom-half/crt/crt1-reactor.c",
            "././dlmalloc/src/malloc.c",
            "./emmalloc/emmalloc.c",
            "build/libc-top-half/musl/src/string/memset.c",
        ] {
            assert!(!locator.is_bot_file(foreign), "{foreign}");
        }
        for own in
            ["/home/me/bots/hunter/src/lib.rs", "/home/me/botlens/crates/sdk-extras/src/a.rs"]
        {
            assert!(locator.is_bot_file(own), "{own}");
        }
    }

    #[test]
    fn several_sdk_sections_and_lines_each_name_a_directory_to_skip() {
        let wat = r#"(module (@custom "botlens_sdk" "/opt/c/botlens.h\n/opt/zig/botlens.zig")
            (@custom "botlens_sdk" "/opt/as/botlens.ts\00"))"#;
        let bytes: Arc<[u8]> = wat::parse_str(wat).unwrap().into();
        let sections = Sections::read(&bytes).unwrap();
        let locator = Locator::new(bytes.clone(), &sections, 0).unwrap();
        for foreign in [
            "/opt/c/botlens.h",
            "/opt/zig/std.zig",
            "/opt/as/botlens.ts",
            "/home/bot/../../opt/c/./botlens.h",
        ] {
            assert!(!locator.is_bot_file(foreign), "{foreign}");
        }
        for own in ["/opt/bot.c", "/home/me/bots/libc-top-half/bot.c", "/opt/cpp/bot.c"] {
            assert!(locator.is_bot_file(own), "{own}");
        }
    }

    #[test]
    fn without_an_sdk_section_only_toolchain_files_are_skipped() {
        let locator = locator_with_sdk("");
        assert!(locator.is_bot_file("/home/me/botlens/crates/sdk/src/turn.rs"));
        assert!(!locator.is_bot_file("/rustc/abc/library/std/src/rt.rs"));
    }
}
