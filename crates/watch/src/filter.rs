//! Which file-system events are a change worth a rebuild.
//!
//! A path is relevant when it is inside the project, outside build output and version-control
//! folders, is not an editor's temporary file, and is something a build reads in any language
//! botlens builds (`botlens_bots::toolchain::watched`: each language's sources and what else
//! its build reads — `.h` headers, TOML such as `Cargo.toml` and `.cargo/config.toml` —, a bot
//! folder's `botlens.toml`, a `.wasm` opponent). `Cargo.lock` is not: cargo itself rewrites it
//! during a build, which would loop.
//!
//! An event is a change when it creates, removes or modifies a file; opening, reading and
//! closing a file without writing it are not (cargo reads every source on each build).

use std::path::Path;

use notify::EventKind;
use notify::event::{AccessKind, AccessMode, MetadataKind, ModifyKind};

/// Folders never watched: build output, version control, editor settings.
pub const IGNORED_DIRS: [&str; 7] =
    ["target", ".git", ".hg", ".svn", ".idea", ".vscode", "node_modules"];

/// Whether a change to `path` (absolute, under `root`) should trigger a rebuild.
pub fn is_relevant(root: &Path, path: &Path) -> bool {
    let Ok(relative) = path.strip_prefix(root) else { return false };
    let mut components = relative.components().peekable();
    while let Some(component) = components.next() {
        let name = component.as_os_str().to_string_lossy();
        if components.peek().is_some() {
            if is_ignored_dir(&name) {
                return false;
            }
        } else {
            return is_source_file(&name);
        }
    }
    false
}

/// Whether a directory of this name is skipped, with everything below it.
pub fn is_ignored_dir(name: &str) -> bool {
    IGNORED_DIRS.contains(&name)
}

/// Whether a file of this name is one the build reads (and not an editor's temporary file).
fn is_source_file(name: &str) -> bool {
    if is_editor_temporary(name) || name == "Cargo.lock" {
        return false;
    }
    botlens_bots::toolchain::is_watched(name)
}

/// Swap, backup and lock files editors write next to the file being saved: vim's `*.swp`,
/// `*.swo`, `*~` and `4913` probe, emacs's `.#*` lock and `#*#` autosave, and generic `*.tmp`,
/// `*.bak`.
fn is_editor_temporary(name: &str) -> bool {
    name == "4913"
        || name.starts_with(".#")
        || (name.len() > 1 && name.starts_with('#') && name.ends_with('#'))
        || [".swp", ".swo", ".swx", "~", ".tmp", ".bak"].iter().any(|ext| name.ends_with(ext))
}

/// Whether an event of this kind changes a file (rather than only reading it).
pub fn is_change(kind: &EventKind) -> bool {
    match kind {
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) => false,
        EventKind::Modify(ModifyKind::Metadata(MetadataKind::AccessTime)) => false,
        EventKind::Create(_) | EventKind::Modify(_) | EventKind::Remove(_) => true,
        EventKind::Any | EventKind::Other => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use notify::event::{CreateKind, DataChange, RemoveKind};

    fn relevant(relative: &str) -> bool {
        is_relevant(Path::new("/bot"), &Path::new("/bot").join(relative))
    }

    #[test]
    fn sources_manifests_and_opponent_modules_are_relevant() {
        for path in [
            "src/lib.rs",
            "src/game/board.rs",
            "build.rs",
            "Cargo.toml",
            ".cargo/config.toml",
            "opponents/old.wasm",
            "bot.c",
            "board.h",
            "bot.js",
            "bot.zig",
            "bot.ts",
            "botlens.toml",
        ] {
            assert!(relevant(path), "{path} should trigger a rebuild");
        }
    }

    #[test]
    fn build_output_and_version_control_are_ignored() {
        for path in [
            "target/wasm32-wasip1/release/bot.wasm",
            "target/botlens/baselines/main.json",
            "sub/target/x.rs",
            ".git/index",
            ".git/hooks/x.rs",
            "Cargo.lock",
            "README.md",
        ] {
            assert!(!relevant(path), "{path} should not trigger a rebuild");
        }
        assert!(!is_relevant(Path::new("/bot"), Path::new("/elsewhere/src/lib.rs")));
        assert!(!is_relevant(Path::new("/bot"), Path::new("/bot")));
    }

    #[test]
    fn editor_temporary_files_are_ignored() {
        for path in [
            "src/.lib.rs.swp",
            "src/.lib.rs.swo",
            "src/lib.rs~",
            "src/4913",
            "src/.#lib.rs",
            "src/#lib.rs#",
            "src/lib.rs.tmp",
            "Cargo.toml.bak",
        ] {
            assert!(!relevant(path), "{path} is an editor's temporary file");
        }
    }

    #[test]
    fn reading_a_file_is_not_a_change_but_writing_one_is() {
        assert!(!is_change(&EventKind::Access(AccessKind::Open(AccessMode::Any))));
        assert!(!is_change(&EventKind::Access(AccessKind::Close(AccessMode::Read))));
        assert!(!is_change(&EventKind::Modify(ModifyKind::Metadata(MetadataKind::AccessTime))));
        assert!(is_change(&EventKind::Access(AccessKind::Close(AccessMode::Write))));
        assert!(is_change(&EventKind::Modify(ModifyKind::Data(DataChange::Content))));
        assert!(is_change(&EventKind::Create(CreateKind::File)));
        assert!(is_change(&EventKind::Remove(RemoveKind::File)));
    }
}
