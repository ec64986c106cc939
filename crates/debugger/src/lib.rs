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
