//! Source locations of failures: which frame of a WebAssembly call stack is the bot's own code,
//! and which line it was on.
//!
//! A failure is reported at the innermost frame that belongs to the bot's crate. Frames of the
//! Rust standard library (`/rustc/…`, `library/std|core|alloc`), of other crates (Cargo's
//! registry and git checkouts), of wasi-libc and of the botlens SDK (the directory named by the
//! module's `botlens_sdk` section) are skipped. Frames come from wasmtime's `WasmBacktrace` and are
//! symbolized with the module's DWARF (see [`crate::dwarf`]). Where the instruction itself has no
//! line (compiler-made code such as a loop's fuel check), the nearest line of the bot's code in
//! the same function is used. Modules without DWARF get no location, only the function's name in
//! the message.

use std::sync::{Arc, OnceLock};

use botlens_engine::{Failure, SourceLocation};
use wasmtime::WasmBacktrace;

use crate::abi::SDK_SECTION;
use crate::dwarf::DebugInfo;
use crate::sections::Sections;
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
];

/// The botlens protocol crate's sources next to an SDK used by path (`…/crates/sdk/src/` →
/// `…/crates/protocol/`): the SDK calls into it, so its frames are not the bot's either.
fn protocol_dir(sdk_dir: &str) -> Option<String> {
    sdk_dir.strip_suffix("sdk/src/").map(|crates| format!("{crates}protocol/"))
}

/// Finds the bot's own source lines in one module's call stacks and debug information.
#[derive(Debug, Default)]
pub(crate) struct Locator {
    /// The SDK's source directory, with `/` separators and a trailing `/`.
    sdk_dir: Option<String>,
    /// The binary module, for DWARF lookups.
    binary: Arc<[u8]>,
    imported_functions: u32,
    /// Names of exported functions, for messages about modules without a name section.
    exports: Vec<(u32, String)>,
    /// The first line of the bot's `play`, once looked up.
    play: OnceLock<Option<SourceLocation>>,
}

impl Locator {
    /// The locator for a module: `sections` read from `binary`, whose first `imported_functions`
    /// function indices are imports.
    pub fn new(binary: Arc<[u8]>, sections: &Sections<'_>, imported_functions: u32) -> Self {
        let sdk_dir = sections.custom(SDK_SECTION).next().and_then(|contents| {
            let file = normalize(std::str::from_utf8(contents).ok()?.trim_end_matches('\0'));
            let dir = &file[..file.rfind('/')? + 1];
            (!dir.is_empty()).then(|| dir.to_owned())
        });
        let exports = sections
            .exported_functions
            .iter()
            .map(|(i, n)| (*i, text::bounded_str(n, text::MAX_NAME_BYTES)))
            .collect();
        Locator { sdk_dir, binary, imported_functions, exports, play: OnceLock::new() }
    }

    /// Whether `file` is the bot's own code.
    pub fn is_bot_file(&self, file: &str) -> bool {
        let file = normalize(file);
        !(file.starts_with("/rustc/")
            || FOREIGN.iter().any(|part| file.contains(part))
            || self.sdk_dir.as_ref().is_some_and(|dir| {
                file.starts_with(dir.as_str())
                    || protocol_dir(dir).is_some_and(|p| file.starts_with(&p))
            }))
    }

    /// `failure` located at the bot's innermost frame on `backtrace`, or, when there is none,
    /// with the innermost function's name added to its message.
    pub fn place(&self, backtrace: &WasmBacktrace, failure: Failure) -> Failure {
        match self.locate(backtrace) {
            Some(location) => failure.at(Some(location)),
            None => {
                let hint = self.function_hint(backtrace);
                Failure { message: failure.message + &hint, ..failure }
            }
        }
    }

    /// The innermost location in the bot's own code on `backtrace`.
    pub fn locate(&self, backtrace: &WasmBacktrace) -> Option<SourceLocation> {
        let debug = DebugInfo::new(&self.binary)?;
        let is_bot = |file: &str| self.is_bot_file(file);
        backtrace.frames().iter().find_map(|frame| {
            let address = debug.address(frame.module_offset()?)?;
            debug.symbols(address).into_iter().find_map(|symbol| {
                let file = symbol.file.filter(|file| is_bot(file))?;
                match symbol.line {
                    Some(line) => Some(SourceLocation { file, line, column: symbol.column }),
                    None => {
                        let body = frame.func_index().checked_sub(self.imported_functions)?;
                        debug.nearest_line(body as usize, address, &is_bot)
                    }
                }
            })
        })
    }

    /// Where execution was, for messages about modules without a source location: the innermost
    /// function's name, e.g. `` in wasm function `spin` ``. Empty when there is no frame.
    pub fn function_hint(&self, backtrace: &WasmBacktrace) -> String {
        let Some(frame) = backtrace.frames().first() else { return String::new() };
        let name = match frame.func_name() {
            Some(name) => text::function_name(name),
            None => match self.exports.iter().find(|(index, _)| *index == frame.func_index()) {
                Some((_, name)) => name.clone(),
                None => format!("#{}", frame.func_index()),
            },
        };
        format!(" in wasm function `{name}`")
    }

    /// The first line of the bot's `play`, from its DWARF (looked up once).
    pub fn play_location(&self) -> Option<SourceLocation> {
        self.play
            .get_or_init(|| {
                let debug = DebugInfo::new(&self.binary)?;
                debug.find_play(self.imported_functions, &|file| self.is_bot_file(file))
            })
            .clone()
    }
}

fn normalize(path: &str) -> String {
    path.replace('\\', "/")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn locator_with_sdk(path: &str) -> Locator {
        let wat = format!(r#"(module (@custom "botlens_sdk" "{path}"))"#);
        let bytes: Arc<[u8]> = wat::parse_str(wat).unwrap().into();
        let sections = Sections::read(&bytes).unwrap();
        Locator::new(bytes.clone(), &sections, 0)
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
    fn without_an_sdk_section_only_toolchain_files_are_skipped() {
        let locator = locator_with_sdk("");
        assert!(locator.is_bot_file("/home/me/botlens/crates/sdk/src/turn.rs"));
        assert!(!locator.is_bot_file("/rustc/abc/library/std/src/rt.rs"));
    }
}
