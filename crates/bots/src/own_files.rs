//! A project's own files, as botlens reads them itself: a bot's sources and headers (hashed for
//! the build cache, and a JavaScript bot's sent to the runner), `botlens.toml`, a Rust project's
//! `Cargo.toml`, the reports saved in it, and the source lines a profile shows. A project may be
//! anyone's (an opponent's, a revision, a folder opened in the editor), so each is read through
//! [`read`]: the file must stay inside the project's directory once `..` and symbolic links are
//! resolved (`notes.txt -> /etc/shadow` and `zero.h -> /dev/zero` are refused), be a regular
//! file (a FIFO is refused at once, never waited on), and hold at most a stated number of
//! bytes, checked before any of it is read and bounded while reading:
//!
//! | what | at most |
//! |---|---|
//! | one source or header | [`MAX_SOURCE_BYTES`], 4 MiB |
//! | all of one bot's sources and headers | [`MAX_SOURCES_BYTES`], 32 MiB ([`Budget`]) |
//! | `botlens.toml`, `Cargo.toml` | [`MAX_SETTINGS_BYTES`], 1 MiB |
//! | a saved report (`target/botlens/*.json`) | [`MAX_REPORT_BYTES`], 64 MiB |
//!
//! A bot's source files are listed with [`listed`], which leaves out what leads outside the
//! folder: such a file is neither read nor counted as a source.
//!
//! Not for: files a user names on the command line (traces and layouts go through
//! `botlens-files` with their own bounds), or what a compiler reads (the build's confinement).

use std::path::{Path, PathBuf};

use botlens_files::{ReadError, size};

/// The most bytes of one source or header of a bot botlens reads: 4 MiB, far above any bot
/// (the largest bundled sample's source is 12 KB).
pub const MAX_SOURCE_BYTES: u64 = 4 << 20;

/// The most bytes of all of one bot's sources and headers together: 32 MiB.
pub const MAX_SOURCES_BYTES: u64 = 32 << 20;

/// The most bytes of a settings file (`botlens.toml`, `Cargo.toml`): 1 MiB.
pub const MAX_SETTINGS_BYTES: u64 = 1 << 20;

/// The most bytes of a report botlens saved in a project (`target/botlens/last-run.json`, a
/// named baseline): 64 MiB (a report of 100,000 seeds is about 1 MiB).
pub const MAX_REPORT_BYTES: u64 = 64 << 20;

/// Why a project's file was not read.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The file is missing, outside the project, not a regular file or too large.
    #[error("cannot read {}: {error}", .path.display())]
    Read {
        /// The file, as named.
        path: PathBuf,
        /// Why.
        error: ReadError,
    },
    /// The bot's sources together are larger than [`MAX_SOURCES_BYTES`].
    #[error(
        "cannot read the sources of {}: together they are larger than {}, the most botlens reads of one bot (at {})",
        .root.display(), size(*.limit), .path.display()
    )]
    Total {
        /// The bot's folder.
        root: PathBuf,
        /// The bound, in bytes.
        limit: u64,
        /// The file that went past it.
        path: PathBuf,
    },
}

impl FileError {
    /// Whether the file does not exist (so that a missing optional file can mean "none").
    pub fn is_not_found(&self) -> bool {
        matches!(self, FileError::Read { error: ReadError::Io(io), .. }
            if io.kind() == std::io::ErrorKind::NotFound)
    }
}

/// The contents of `file`, one of the project's own files: inside the project's directory
/// `root` once `..` and symbolic links are resolved, a regular file, at most `limit` bytes.
/// Both are paths as the system takes them (a file of the project is `root.join(name)`).
pub fn read(root: &Path, file: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
    let failed = |error| FileError::Read { path: file.to_owned(), error };
    let real = botlens_files::inside(root, file).map_err(failed)?;
    botlens_files::read_bytes(&real, limit).map_err(failed)
}

/// [`read`] as UTF-8 text.
pub fn read_text(root: &Path, file: &Path, limit: u64) -> Result<String, FileError> {
    String::from_utf8(read(root, file, limit)?)
        .map_err(|_| FileError::Read { path: file.to_owned(), error: ReadError::NotText })
}

/// The files directly in `dir` whose name ends in `.extension`, sorted; a file that leads
/// outside `dir` (a symbolic link to `/etc/shadow`) or is no regular file is left out.
pub fn listed(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|entry| Some(entry.ok()?.path()))
        .filter(|path| path.extension().is_some_and(|e| e == extension))
        .filter(|path| botlens_files::inside(dir, path).is_ok_and(|real| real.is_file()))
        .collect();
    files.sort();
    files
}

/// What is left to read of one bot's sources: each file through [`read`] with
/// [`MAX_SOURCE_BYTES`], all of them within [`MAX_SOURCES_BYTES`].
#[derive(Debug)]
pub struct Budget<'a> {
    root: &'a Path,
    left: u64,
}

impl<'a> Budget<'a> {
    /// The whole budget for the bot whose folder is `root`.
    pub fn new(root: &'a Path) -> Budget<'a> {
        Budget { root, left: MAX_SOURCES_BYTES }
    }

    /// The contents of the bot's file `file`, taken from the budget.
    pub fn read(&mut self, file: &Path) -> Result<Vec<u8>, FileError> {
        let bytes = read(self.root, file, MAX_SOURCE_BYTES)?;
        self.left = self.left.checked_sub(bytes.len() as u64).ok_or_else(|| FileError::Total {
            root: self.root.to_owned(),
            limit: MAX_SOURCES_BYTES,
            path: file.to_owned(),
        })?;
        Ok(bytes)
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;

    #[test]
    fn a_projects_file_is_read_only_inside_it_regular_and_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join("bot.c"), "int x;\n").unwrap();
        assert_eq!(read(root, &root.join("bot.c"), 100).unwrap(), b"int x;\n");
        std::os::unix::fs::symlink("/dev/zero", root.join("zero.h")).unwrap();
        std::os::unix::fs::symlink("/etc/hostname", root.join("notes.txt")).unwrap();
        botlens_files::testing::fifo(root, "pipe.h");
        let sparse = root.join("bot.js");
        std::fs::File::create(&sparse).unwrap().set_len(4 << 30).unwrap();
        let started = Instant::now();
        let refusals = ["zero.h", "notes.txt", "pipe.h", "bot.js", "../x", "gone.h"]
            .map(|name| read(root, &root.join(name), MAX_SOURCE_BYTES).unwrap_err().to_string());
        assert!(started.elapsed() < Duration::from_secs(1), "took {:?}", started.elapsed());
        let at = |name: &str| format!("cannot read {}: ", root.join(name).display());
        let outside = format!(
            "it leads outside {} (by `..` or a symbolic link), and botlens reads only the files inside",
            root.display()
        );
        assert_eq!(
            refusals,
            [
                format!("{}{outside}", at("zero.h")),
                format!("{}{outside}", at("notes.txt")),
                format!("{}not a regular file (it is a named pipe)", at("pipe.h")),
                format!("{}larger than 4 MiB, the most botlens reads of it", at("bot.js")),
                format!("{}{outside}", at("../x")),
                format!("{}No such file or directory (os error 2)", at("gone.h")),
            ]
        );
        assert!(read(root, &root.join("gone.h"), 1).unwrap_err().is_not_found());
    }

    #[test]
    fn a_listing_leaves_out_links_that_lead_outside_and_a_budget_bounds_the_total() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join("a.c"), "a").unwrap();
        std::fs::write(root.join("b.c"), "b").unwrap();
        std::os::unix::fs::symlink(root.join("a.c"), root.join("also.c")).unwrap();
        std::os::unix::fs::symlink("/etc/hostname", root.join("host.c")).unwrap();
        std::fs::create_dir(root.join("dir.c")).unwrap();
        assert_eq!(listed(root, "c"), ["a.c", "also.c", "b.c"].map(|n| root.join(n)));
        let big = vec![b' '; MAX_SOURCE_BYTES as usize];
        for n in 0..8 {
            std::fs::write(root.join(format!("big{n}.h")), &big).unwrap();
        }
        let mut budget = Budget::new(root);
        for n in 0..8 {
            budget.read(&root.join(format!("big{n}.h"))).unwrap();
        }
        let error = budget.read(&root.join("a.c")).unwrap_err().to_string();
        assert_eq!(
            error,
            format!(
                "cannot read the sources of {}: together they are larger than 32 MiB, the most botlens reads of one bot (at {})",
                root.display(),
                root.join("a.c").display()
            )
        );
    }
}
