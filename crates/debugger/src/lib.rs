//! `botlens debug`'s logic, below the command line: one game of a bot under gdb or lldb,
//! stopped as the bot begins its failing turn.
//!
//! - [`game`]: which game (an opponent and a seed, or a stored trace's), built with all debug
//!   info and played once to find the turn to stop at; then, in the process under the
//!   debugger, played again in a sandbox for debuggers with the module calling [`HOOK`] as
//!   that turn begins;
//! - [`script`]: where and why the debugger stops ([`Stop`]), the commands botlens hands it
//!   and its arguments: botlens's own words alone, no text of the bot's (a failure's message, a
//!   file name from its debug info) ever read as a command.
//!
//! Starting the debugger is the harness's, as every program botlens starts is
//! (`botlens_bots::debugger_session`: confined, at the user's terminal). The command line
//! (`botlens debug`) parses flags and prints.

pub mod game;
pub mod script;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::str::FromStr;

pub use game::{Build, OneGame};
pub use script::Stop;

/// The hook [`botlens_sandbox::BotModule::stopping_at`] makes a bot call as the chosen turn
/// begins, where the debugger breaks.
pub const HOOK: &str = "botlens_turn_begins";

/// A native debugger botlens can hand a game to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Debugger {
    /// GNU gdb (Debian package `gdb`).
    #[default]
    Gdb,
    /// LLVM's lldb (Debian package `lldb`).
    Lldb,
}

impl Debugger {
    /// Its program's name, also its Debian package's.
    pub fn program(self) -> &'static str {
        match self {
            Debugger::Gdb => "gdb",
            Debugger::Lldb => "lldb",
        }
    }

    /// Its command that lists the locals of the frame.
    pub fn locals_command(self) -> &'static str {
        match self {
            Debugger::Gdb => "info locals",
            Debugger::Lldb => "frame variable",
        }
    }

    /// Where it is installed: the first executable file of its name on `PATH`.
    pub fn installed(self) -> Option<PathBuf> {
        self.on_path(&std::env::var_os("PATH")?)
    }

    /// The first executable file of its name in the directories of `path` (as `PATH` lists
    /// them).
    fn on_path(self, path: &OsStr) -> Option<PathBuf> {
        std::env::split_paths(path)
            .map(|dir| dir.join(self.program()))
            .find(|file| is_executable(file))
    }
}

impl FromStr for Debugger {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        match name {
            "gdb" => Ok(Debugger::Gdb),
            "lldb" => Ok(Debugger::Lldb),
            other => Err(format!("no debugger `{other}`: gdb or lldb")),
        }
    }
}

impl std::fmt::Display for Debugger {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.program())
    }
}

/// lldb's Debug Adapter Protocol server, for an editor's debugger UI: the first of `lldb-dap`,
/// `lldb-vscode` (its name before LLVM 18), then the same names with a version (Debian's
/// `lldb-vscode-14`), newest first, on `PATH`.
pub fn dap_adapter() -> Option<PathBuf> {
    dap_adapter_on(&std::env::var_os("PATH")?)
}

/// [`dap_adapter`] in the directories of `path`.
fn dap_adapter_on(path: &OsStr) -> Option<PathBuf> {
    const NAMES: [&str; 2] = ["lldb-dap", "lldb-vscode"];
    let dirs: Vec<PathBuf> = std::env::split_paths(path).collect();
    let plain = NAMES.iter().flat_map(|name| dirs.iter().map(move |dir| dir.join(name)));
    if let Some(found) = plain.into_iter().find(|file| is_executable(file)) {
        return Some(found);
    }
    dirs.iter()
        .filter_map(|dir| std::fs::read_dir(dir).ok())
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            let version = NAMES.iter().find_map(|known| {
                name.strip_prefix(known)?.strip_prefix('-')?.parse::<u32>().ok()
            })?;
            let file = entry.path();
            is_executable(&file).then_some((version, file))
        })
        .max_by_key(|(version, _)| *version)
        .map(|(_, file)| file)
}

#[cfg(unix)]
fn is_executable(file: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    file.metadata().is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(file: &Path) -> bool {
    file.is_file()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debuggers_are_named_as_their_programs() {
        for debugger in [Debugger::Gdb, Debugger::Lldb] {
            assert_eq!(debugger.program().parse(), Ok(debugger));
            assert_eq!(debugger.to_string(), debugger.program());
        }
        assert_eq!("GDB".parse::<Debugger>(), Err("no debugger `GDB`: gdb or lldb".into()));
    }

    #[test]
    fn the_dap_adapter_is_lldb_dap_else_lldb_vscode_else_the_newest_versioned_one() {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let dir = tempfile::tempdir().unwrap();
            let put = |name: &str| {
                let file = dir.path().join(name);
                std::fs::write(&file, "").unwrap();
                std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o755)).unwrap();
                file
            };
            let path = dir.path().as_os_str();
            assert_eq!(dap_adapter_on(path), None);
            std::fs::write(dir.path().join("lldb-vscode-15"), "").unwrap();
            assert_eq!(dap_adapter_on(path), None, "not executable");
            put("lldb-vscode-14");
            let newer = put("lldb-vscode-9000");
            put("lldb-vscode-x");
            assert_eq!(dap_adapter_on(path), Some(newer));
            let plain = put("lldb-vscode");
            assert_eq!(dap_adapter_on(path), Some(plain));
            let dap = put("lldb-dap");
            assert_eq!(dap_adapter_on(path), Some(dap));
        }
    }

    #[test]
    fn a_debugger_is_installed_when_an_executable_of_its_name_is_on_the_path() {
        let dir = tempfile::tempdir().unwrap();
        let gdb = dir.path().join("gdb");
        std::fs::write(&gdb, "").unwrap();
        let found = |dir: &Path| {
            let path = std::env::join_paths([Path::new("/nonexistent"), dir]).unwrap();
            Debugger::Gdb.on_path(&path)
        };
        assert_eq!(found(dir.path()), None, "not executable");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&gdb, std::fs::Permissions::from_mode(0o755)).unwrap();
            assert_eq!(found(dir.path()), Some(gdb));
        }
    }
}
