//! The programs botlens starts — rustup and cargo, clang, zig, node and npm, git — each as a
//! [`Confined`] run (`botlens-confine`) that may read its own installation and nothing else of
//! the user's: the one place that knows where a toolchain lives and what of it a run needs.
//! Callers add the project's files (read) and the run's output (write).
//!
//! Not for: any language's flags or diagnostics (see [`crate::build`], [`crate::toolchain::c`],
//! [`crate::toolchain::zig`], [`crate::toolchain::assemblyscript`], [`crate::toolchain::js`]).

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::time::Duration;

use botlens_confine::{Confined, Finished, Limits, RunError};

use crate::CancelToken;

/// rustup's and cargo's directories: `RUSTUP_HOME` and `CARGO_HOME`, else `~/.rustup` and
/// `~/.cargo`.
#[derive(Debug, Clone)]
pub(crate) struct RustHomes {
    /// rustup's toolchains and settings.
    pub rustup: PathBuf,
    /// cargo's programs, registry and configuration.
    pub cargo: PathBuf,
}

impl RustHomes {
    /// The homes of this user, from the environment.
    pub(crate) fn of_user() -> RustHomes {
        let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_default();
        let var = |name: &str, default: &str| {
            std::env::var_os(name)
                .filter(|value| !value.is_empty())
                .map_or_else(|| home.join(default), PathBuf::from)
        };
        RustHomes { rustup: var("RUSTUP_HOME", ".rustup"), cargo: var("CARGO_HOME", ".cargo") }
    }

    /// The directories of cargo's home a build reads: its programs, the registry's and git's
    /// downloaded sources and cargo's configuration — not `credentials.toml`.
    fn cargo_readable(&self) -> [PathBuf; 5] {
        ["bin", "registry", "git", "config.toml", "config"].map(|part| self.cargo.join(part))
    }
}

/// rustup or cargo with the user's toolchain: reading rustup's home and the parts of cargo's a
/// build reads ([`RustHomes::cargo_readable`]), with the variables that name them.
fn rust_tool(program: impl AsRef<OsStr>, homes: &RustHomes) -> Confined {
    let mut tool = Confined::new(program);
    tool.env("RUSTUP_HOME", &homes.rustup).env("CARGO_HOME", &homes.cargo).read(&homes.rustup);
    for part in homes.cargo_readable() {
        tool.read(part);
    }
    // The toolchain botlens itself was started with (`cargo run`, `cargo test`), if any.
    if let Some(toolchain) = std::env::var_os("RUSTUP_TOOLCHAIN") {
        tool.env("RUSTUP_TOOLCHAIN", toolchain);
    }
    tool
}

/// cargo: the one that started botlens (`CARGO`, under `cargo run` and `cargo test`), else the
/// one on `PATH`; it runs in a private directory, so a project's `.cargo/config.toml` and
/// `rust-toolchain.toml` are not read (bots build with botlens's settings).
pub(crate) fn cargo(homes: &RustHomes) -> Confined {
    let program = std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"));
    rust_tool(program, homes)
}

/// rustup.
pub(crate) fn rustup(homes: &RustHomes) -> Confined {
    rust_tool("rustup", homes)
}

/// A program of the system found on `path` (clang, node, npm, git), reading its own file and
/// the system's directories ([`botlens_confine::SYSTEM_READ`]).
pub(crate) fn system(program: &str, path: &OsStr) -> Confined {
    let mut tool = Confined::new(program);
    tool.search_path(path);
    tool
}

/// Runs `tool` until it ends, or until `cancel` is cancelled.
pub(crate) fn run(tool: &Confined, cancel: &CancelToken) -> Result<Finished, RunError> {
    tool.run(&|| cancel.is_cancelled())
}

/// The bounds of a build that may take `wall` by the wall clock (each process as much CPU
/// time), the rest as [`Limits::default`].
pub(crate) fn build_limits(wall: Duration) -> Limits {
    Limits { wall, cpu: wall, ..Limits::default() }
}

/// A private directory for a build's output inside `dir` (created if missing): 0700, an
/// unpredictable name, removed when dropped. The build may write there and nowhere else in
/// `dir`, so it cannot touch what other builds left in `dir`; the caller moves the result.
pub(crate) fn output_dir(dir: &Path) -> std::io::Result<tempfile::TempDir> {
    std::fs::create_dir_all(dir)?;
    botlens_confine::private_dir(".build-", Some(dir))
}

/// The directories of an installed program's own files, for runs that need more of it than
/// its executable: the directory above the one `program` is in (`/usr` for `/usr/bin/node`,
/// a virtual environment's root for its `bin/python3`), and the same for where a symbolic link
/// `program` leads.
pub(crate) fn installation(program: &Path) -> Vec<PathBuf> {
    let above = |file: &Path| file.parent().and_then(Path::parent).map(Path::to_owned);
    let mut dirs: Vec<PathBuf> = above(program).into_iter().collect();
    if let Ok(real) = program.canonicalize() {
        dirs.extend(above(&real));
    }
    dirs.retain(|dir| dir != Path::new("/") && !dir.as_os_str().is_empty());
    dirs.dedup();
    dirs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cargo_reads_its_toolchain_but_not_the_users_credentials() {
        let homes = RustHomes { rustup: "/h/.rustup".into(), cargo: "/h/.cargo".into() };
        let readable = homes.cargo_readable();
        assert!(readable.contains(&PathBuf::from("/h/.cargo/registry")));
        assert!(!readable.iter().any(|p| p.ends_with("credentials.toml") || p == &homes.cargo));
    }

    #[test]
    fn an_installation_is_the_directory_above_the_programs() {
        assert_eq!(installation(Path::new("/opt/venv/bin/python3")), [PathBuf::from("/opt/venv")]);
        assert_eq!(installation(Path::new("/zig")), Vec::<PathBuf>::new());
    }
}
