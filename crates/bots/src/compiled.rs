//! What the builds of bot folders botlens compiles itself (C, Zig, AssemblyScript) share: the
//! hash of everything a build depends on, the cache of built modules (each beside its
//! compiler's output, whose warnings a cached build reports again), running the compiler, and
//! appending custom sections to a built module for toolchains that cannot declare them.
//!
//! Not for: any one language's flags or diagnostics (see [`crate::toolchain::c`], [`crate::toolchain::zig`] and
//! [`crate::toolchain::assemblyscript`]).

use std::path::{Path, PathBuf};
use std::time::Duration;

use botlens_confine::{Confined, RunError};

use crate::CancelToken;
use crate::build::CompilerMessage;
use crate::folder::FolderError;

/// A built bot module.
#[derive(Debug, Clone)]
pub struct Built {
    /// The module, in botlens's cache.
    pub wasm: PathBuf,
    /// The compiler's warnings.
    pub warnings: Vec<CompilerMessage>,
    /// How long the compiler took (zero when the module was cached).
    pub duration: Duration,
}

/// A compiler's diagnostics read from its `stderr`.
pub(crate) type Diagnostics = fn(&str) -> Vec<CompilerMessage>;

/// The module built before at `wasm` (in `cache`, created if missing), with the warnings of its
/// build (`diagnostics` of its compiler's output); `None` when there is none.
pub(crate) fn cached(
    wasm: &Path,
    cache: &Path,
    diagnostics: Diagnostics,
) -> Result<Option<Built>, FolderError> {
    std::fs::create_dir_all(cache)
        .map_err(|source| FolderError::Read { path: cache.to_owned(), source })?;
    if !wasm.is_file() {
        return Ok(None);
    }
    let stderr = std::fs::read_to_string(wasm.with_extension("stderr")).unwrap_or_default();
    let warnings = diagnostics(&stderr);
    Ok(Some(Built { wasm: wasm.to_owned(), warnings, duration: Duration::ZERO }))
}

/// Moves the module built at `partial` to `wasm`, its compiler's `stderr` beside it for
/// [`cached`].
pub(crate) fn store(
    partial: &Path,
    wasm: PathBuf,
    stderr: &str,
    duration: Duration,
    diagnostics: Diagnostics,
) -> Result<Built, FolderError> {
    let io = |source| FolderError::Read { path: wasm.clone(), source };
    std::fs::write(wasm.with_extension("stderr"), stderr).map_err(io)?;
    std::fs::rename(partial, &wasm).map_err(io)?;
    Ok(Built { warnings: diagnostics(stderr), wasm, duration })
}

/// A compiler's run: its output and how long it took.
pub(crate) struct Compiled {
    /// What it wrote to stderr (and, for compilers that report there, stdout).
    pub stderr: String,
    /// Whether it succeeded.
    pub success: bool,
    /// How long it ran.
    pub duration: Duration,
}

/// Runs `compiler` (confined, `tools`) until it ends or `cancel` is cancelled; a
/// compiler that does not start is [`FolderError::Toolchain`] with `building`, what is
/// missing (`missing`, with the error) and `install`.
pub(crate) fn run(
    compiler: &Confined,
    building: &'static str,
    missing: &str,
    install: &str,
    cancel: &CancelToken,
) -> Result<Compiled, FolderError> {
    let finished = crate::tools::run(compiler, cancel).map_err(|error| match error {
        RunError::Cancelled { .. } => FolderError::Cancelled,
        RunError::TimedOut { limit, .. } => FolderError::Timeout(limit.as_secs()),
        other => FolderError::Toolchain {
            building,
            missing: format!("{missing} that runs ({other})"),
            install: install.to_owned(),
        },
    })?;
    Ok(Compiled {
        stderr: finished.text(),
        success: finished.status.success(),
        duration: finished.duration,
    })
}

/// The bounds of a compiler's run: [`crate::build::DEFAULT_BUILD_TIMEOUT`] by the wall clock.
pub(crate) fn limits() -> botlens_confine::Limits {
    crate::tools::build_limits(crate::build::DEFAULT_BUILD_TIMEOUT)
}

/// Appends `sections` (name, contents) to the module at `partial`, as custom sections.
pub(crate) fn append_sections(
    partial: &Path,
    sections: &[(&str, &[u8])],
) -> Result<(), FolderError> {
    let io = |source| FolderError::Read { path: partial.to_owned(), source };
    let mut module = std::fs::read(partial).map_err(io)?;
    for (name, contents) in sections {
        module.extend_from_slice(&custom_section(name, contents));
    }
    std::fs::write(partial, module).map_err(io)
}

/// A WebAssembly custom section: id 0, its size, the name (length-prefixed), the contents.
fn custom_section(name: &str, contents: &[u8]) -> Vec<u8> {
    let mut body = leb128(name.len());
    body.extend_from_slice(name.as_bytes());
    body.extend_from_slice(contents);
    let mut section = vec![0];
    section.extend(leb128(body.len()));
    section.extend(body);
    section
}

/// `n` as unsigned LEB128.
fn leb128(mut n: usize) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let byte = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(byte);
            return out;
        }
        out.push(byte | 0x80);
    }
}

/// FNV-1a, 64 bits, over every part added (each followed by a 0 byte).
#[derive(Debug)]
pub(crate) struct Fnv(pub(crate) u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    /// Adds `bytes`.
    pub(crate) fn add(&mut self, bytes: &[u8]) {
        for byte in bytes.iter().chain([&0]) {
            self.0 = (self.0 ^ u64::from(*byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// A compiler message with no place in a file (a tool's complaint, a line that names none):
/// `rendered` is shown as it is.
pub(crate) fn unlocated(level: &str, message: &str, rendered: &str) -> CompilerMessage {
    CompilerMessage {
        level: level.into(),
        message: message.to_owned(),
        code: None,
        rendered: format!("{}\n", rendered.trim_end()),
        file: None,
        line: 0,
        column: 0,
        end_line: 0,
        end_column: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_sections_are_encoded_as_the_binary_format_says() {
        assert_eq!(leb128(0), [0]);
        assert_eq!(leb128(127), [127]);
        assert_eq!(leb128(300), [0xac, 0x02]);
        let section = custom_section("botlens_abi", b"1");
        assert_eq!(section[..2], [0, 13]);
        assert_eq!(&section[2..], b"\x0bbotlens_abi1");
        let long = custom_section("x", &[7; 200]);
        assert_eq!(long[..3], [0, 0xca, 0x01], "202 bytes of body");
    }

    #[test]
    fn a_stored_build_is_found_again_with_its_warnings() {
        let cache = tempfile::tempdir().unwrap();
        let wasm = cache.path().join("bot-1.wasm");
        let warnings: Diagnostics = |stderr| {
            stderr
                .lines()
                .map(|line| CompilerMessage {
                    level: "warning".into(),
                    message: line.into(),
                    code: None,
                    rendered: line.into(),
                    file: None,
                    line: 0,
                    column: 0,
                    end_line: 0,
                    end_column: 0,
                })
                .collect()
        };
        assert!(cached(&wasm, cache.path(), warnings).unwrap().is_none());
        let partial = cache.path().join("bot-1.wasm.tmp");
        std::fs::write(&partial, b"\0asm\x01\0\0\0").unwrap();
        append_sections(&partial, &[("botlens_abi", b"1")]).unwrap();
        let built = store(&partial, wasm.clone(), "unused x\n", Duration::from_secs(1), warnings);
        assert_eq!(built.unwrap().warnings.len(), 1);
        assert_eq!(std::fs::read(&wasm).unwrap(), b"\0asm\x01\0\0\0\0\x0d\x0bbotlens_abi1");
        let again = cached(&wasm, cache.path(), warnings).unwrap().unwrap();
        assert_eq!(
            (again.warnings[0].message.as_str(), again.duration),
            ("unused x", Duration::ZERO)
        );
    }
}
