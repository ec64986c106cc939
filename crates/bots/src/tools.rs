//! The programs botlens starts — rustup and cargo, clang, zig, node and npm, git, gdb and
//! lldb — each as a [`Confined`] run (`botlens-confine`) that may read its own installation and nothing else of
//! the user's: the one place that knows where a toolchain lives and what of it a run needs.
//! Callers add the project's files (read) and the run's output (write).
//!
//! Not for: any language's flags or diagnostics (see [`crate::build`], [`crate::toolchain::c`],
//! [`crate::toolchain::zig`], [`crate::toolchain::assemblyscript`], [`crate::toolchain::js`]).

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::ExitStatus;
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
pub(crate) fn output_dir(dir: &Path) -> std::io::Result<botlens_confine::PrivateDir> {
    std::fs::create_dir_all(dir)?;
    botlens_confine::private_dir(".build-", Some(dir))
}

/// The bounds of a debugger session: a working day at the terminal, an hour of CPU time for
/// each of its processes, the rest as [`Limits::default`].
const DEBUGGER_LIMITS: Limits = Limits {
    wall: Duration::from_secs(8 * 60 * 60),
    cpu: Duration::from_secs(60 * 60),
    memory: 4 << 30,
    processes: 512,
    file_size: 1 << 30,
    output: 16 << 20,
};

/// The variables of botlens's environment a debugger keeps: what the terminal is and which
/// characters it shows.
const TERMINAL_ENV: &[&str] =
    &["TERM", "COLORTERM", "COLUMNS", "LINES", "LANG", "LC_ALL", "LC_CTYPE"];

/// Runs the debugger `program` (gdb, lldb) with `args` at the user's terminal until the user
/// quits it: confined as every tool is, but interactive ([`Confined::interactive`]), in
/// botlens's working directory, reading its installation and settings, botlens's own
/// executable (the program it runs) and `read` (the commands botlens wrote, the bot's sources
/// and module), writing only its private directory, terminals, and the memory of the
/// processes of its run (`/proc`), and keeping the terminal's variables (`TERM`, `LANG`…).
/// Its exit status.
pub fn debugger_session(
    program: &Path,
    args: Vec<OsString>,
    read: &[PathBuf],
) -> Result<ExitStatus, RunError> {
    let mut debugger = Confined::new(program);
    debugger.args(args).interactive(true).limits(DEBUGGER_LIMITS);
    // Where botlens was started, so that relative paths in its arguments mean what they did.
    if let Ok(dir) = std::env::current_dir() {
        debugger.current_dir(dir);
    }
    for dir in installation(program).iter().chain(read) {
        debugger.read(dir);
    }
    // Its system-wide settings (`/etc/gdb/gdbinit`).
    if let Some(name) = program.file_name() {
        debugger.read(Path::new("/etc").join(name));
    }
    // A debugger writes the memory of the program it debugs through `/proc/PID/mem`; Landlock
    // keeps it from any process outside its own run.
    debugger.write("/proc");
    // The terminal, and new pseudo-terminals: lldb starts the program on one of its own.
    for device in ["/dev/tty", "/dev/ptmx", "/dev/pts"] {
        debugger.write(device);
    }
    if let Ok(botlens) = std::env::current_exe() {
        debugger.read(botlens);
    }
    for name in TERMINAL_ENV {
        if let Some(value) = std::env::var_os(name) {
            debugger.env(name, value);
        }
    }
    Ok(debugger.run(&|| false)?.status)
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
