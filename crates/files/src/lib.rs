//! Reading a file botlens did not write — a trace, a layout, a bot's source or header, a
//! project's `Cargo.toml` or `botlens.toml`, a source location a bot or a trace names — without
//! hanging, running out of memory or reading past the project it belongs to:
//!
//! - only regular files are read: a FIFO, a device or a directory is refused, opening never
//!   blocks on a FIFO (`O_NONBLOCK`), and the check is made on the opened descriptor, so nothing
//!   can swap a FIFO in between;
//! - never more than a stated number of bytes ([`read_bytes`], [`read_text`], [`read_prefix`]):
//!   a 4 GB sparse file or `/dev/zero` costs nothing;
//! - [`inside`] says whether a path stays inside a directory, its `..` taken lexically and then
//!   its symlinks resolved, for files that must be a project's own.
//!
//! Not for: deciding which directory a caller's files must stay in (the replayer's source root,
//! the harness's bot folder), or how many bytes each kind of file may have: the callers say.

use std::fs::{File, FileType};
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};

/// Why a file was not read.
///
/// Each message is complete on its own (no `source()`), to follow a path in a longer message:
/// `cannot read trace x.json: not a regular file (it is a named pipe)`.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file could not be opened or read.
    #[error("{0}")]
    Io(io::Error),
    /// The path names something other than a regular file.
    #[error("not a regular file (it is {0})")]
    NotRegular(&'static str),
    /// The file holds more than the reader takes.
    #[error("larger than {}, the most botlens reads of it", size(*.limit))]
    TooLarge {
        /// The most bytes read, in bytes.
        limit: u64,
    },
    /// The file is not UTF-8 text.
    #[error("not UTF-8 text")]
    NotText,
    /// The path leads out of the directory its files must stay in (by `..`, or by a symlink).
    #[error(
        "it leads outside {} (by `..` or a symbolic link), and botlens reads only the files inside",
        .root.display()
    )]
    Outside {
        /// The directory.
        root: PathBuf,
    },
}

/// `bytes` for messages: `4 MiB`, `512 KiB`, `100 bytes` (whole units only, else the next
/// smaller one).
pub fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 && b % (1 << 30) == 0 => format!("{} GiB", b >> 30),
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

/// The start of a file: at most the bytes asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prefix {
    /// The bytes read.
    pub bytes: Vec<u8>,
    /// Whether they are the whole file.
    pub complete: bool,
}

/// Reads at most `limit` bytes of the regular file at `path`.
pub fn read_prefix(path: &Path, limit: u64) -> Result<Prefix, ReadError> {
    read_start(open_regular(path)?, limit)
}

/// Reads the whole regular file at `path`, refusing files of more than `limit` bytes (before
/// reading any of it) and non-regular files.
pub fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let file = open_regular(path)?;
    if file.metadata().map_err(ReadError::Io)?.len() > limit {
        return Err(ReadError::TooLarge { limit });
    }
    // The size can grow after the check, and some files (in `/proc`) report none: the read
    // itself is bounded too.
    let prefix = read_start(file, limit)?;
    if !prefix.complete {
        return Err(ReadError::TooLarge { limit });
    }
    Ok(prefix.bytes)
}

/// Reads the whole regular file at `path` as UTF-8 text, as [`read_bytes`] does, refusing
/// anything that is not UTF-8.
///
/// A byte-order mark stays at the start of the text: the parser of its format skips it.
pub fn read_text(path: &Path, limit: u64) -> Result<String, ReadError> {
    String::from_utf8(read_bytes(path, limit)?).map_err(|_| ReadError::NotText)
}

/// `path` with its symlinks resolved, when it stays inside the directory `root` (also
/// resolved); else [`ReadError::Outside`], or [`ReadError::Io`] when it does not exist. Both
/// are paths as the system takes them (a relative one from the current directory: a file
/// named relative to `root` is `root.join(name)`). `..` is taken lexically first, so a path
/// that climbs out is refused without looking whether it exists.
///
/// ```
/// let dir = std::env::temp_dir();
/// let outside = botlens_files::inside(&dir, &dir.join("../etc/passwd"));
/// assert!(matches!(outside, Err(botlens_files::ReadError::Outside { .. })));
/// ```
pub fn inside(root: &Path, path: &Path) -> Result<PathBuf, ReadError> {
    let outside = || ReadError::Outside { root: root.to_owned() };
    let absolute = |path: &Path| std::path::absolute(path).map(|path| lexical(&path));
    let (lexical_root, lexical_path) = (absolute(root), absolute(path));
    if !lexical_path.map_err(ReadError::Io)?.starts_with(lexical_root.map_err(ReadError::Io)?) {
        return Err(outside());
    }
    let real_root = root.canonicalize().map_err(ReadError::Io)?;
    let real = path.canonicalize().map_err(ReadError::Io)?;
    if real.starts_with(&real_root) { Ok(real) } else { Err(outside()) }
}

/// `path` with `.` dropped and `..` taken lexically (a `..` at the top stays at the top).
pub fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Opens `path` if it is a regular file.
///
/// The file is opened without blocking (`O_NONBLOCK` on Unix, so a FIFO opens at once instead of
/// waiting for a writer) and checked through the opened descriptor, not the path, so nothing
/// can swap a FIFO in between the check and the read.
fn open_regular(path: &Path) -> Result<File, ReadError> {
    let file = open(path).map_err(ReadError::Io)?;
    let kind = file.metadata().map_err(ReadError::Io)?.file_type();
    if kind.is_file() { Ok(file) } else { Err(ReadError::NotRegular(describe(kind))) }
}

/// The first `limit` bytes of `file`.
fn read_start(file: File, limit: u64) -> Result<Prefix, ReadError> {
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes).map_err(ReadError::Io)?;
    let complete = bytes.len() as u64 <= limit;
    bytes.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
    Ok(Prefix { bytes, complete })
}

#[cfg(unix)]
fn open(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    // O_NOCTTY: a terminal device named here must not become the controlling terminal.
    File::options().read(true).custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY).open(path)
}

#[cfg(not(unix))]
fn open(path: &Path) -> io::Result<File> {
    File::open(path)
}

/// What a non-regular file is, for messages: `a directory`, `a named pipe`, …
fn describe(kind: FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a named pipe";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() { "a directory" } else { "something else" }
}

/// What the tests of crates that read hostile files share (the `testing` feature).
#[cfg(any(test, feature = "testing"))]
pub mod testing {
    use std::path::{Path, PathBuf};

    /// A named pipe at `dir/name`, made with the system's `mkfifo`.
    pub fn fifo(dir: &Path, name: &str) -> PathBuf {
        let path = dir.join(name);
        let made = std::process::Command::new("mkfifo").arg(&path).status().expect("mkfifo runs");
        assert!(made.success(), "mkfifo {}", path.display());
        path
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::testing::fifo;
    use super::*;

    #[test]
    fn a_small_file_is_read_whole_and_a_large_one_only_to_the_limit() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("f");
        std::fs::write(&path, "0123456789").expect("write");
        let whole = read_prefix(&path, 10).expect("reads");
        assert_eq!(whole, Prefix { bytes: b"0123456789".to_vec(), complete: true });
        let start = read_prefix(&path, 4).expect("reads");
        assert_eq!(start, Prefix { bytes: b"0123".to_vec(), complete: false });
        assert_eq!(read_text(&path, 10).expect("text"), "0123456789");
        let err = read_text(&path, 9).unwrap_err();
        assert!(matches!(err, ReadError::TooLarge { limit: 9 }), "{err}");
        // A huge (sparse) file is refused by its size, before any of it is read.
        let huge = dir.path().join("huge");
        File::create(&huge).and_then(|file| file.set_len(1 << 30)).expect("sparse file");
        let started = Instant::now();
        assert!(matches!(read_text(&huge, 1 << 20), Err(ReadError::TooLarge { .. })));
        assert!(started.elapsed() < Duration::from_secs(1), "took {:?}", started.elapsed());
        assert_eq!(
            ReadError::TooLarge { limit: 256 << 20 }.to_string(),
            "larger than 256 MiB, the most botlens reads of it"
        );
    }

    #[test]
    fn an_endless_device_is_refused_without_reading_it() {
        let err = read_prefix(Path::new("/dev/zero"), u64::MAX).unwrap_err();
        assert_eq!(err.to_string(), "not a regular file (it is a device)");
    }

    #[test]
    fn a_fifo_is_refused_at_once_instead_of_waiting_for_a_writer() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = fifo(dir.path(), "pipe");
        let started = Instant::now();
        let err = read_text(&path, 1 << 20).unwrap_err();
        assert!(started.elapsed() < Duration::from_secs(1), "took {:?}", started.elapsed());
        assert_eq!(err.to_string(), "not a regular file (it is a named pipe)");
    }

    #[test]
    fn directories_missing_files_and_binary_files_are_refused() {
        let dir = tempfile::tempdir().expect("temp dir");
        let err = read_text(dir.path(), 1 << 20).unwrap_err();
        assert_eq!(err.to_string(), "not a regular file (it is a directory)");
        let err = read_text(&dir.path().join("none"), 1 << 20).unwrap_err();
        assert!(matches!(&err, ReadError::Io(io) if io.kind() == io::ErrorKind::NotFound), "{err}");
        let binary = dir.path().join("bin");
        std::fs::write(&binary, [0xff, 0xfe, 0x00]).expect("write");
        assert!(matches!(read_text(&binary, 1 << 20), Err(ReadError::NotText)));
    }

    #[test]
    fn a_path_is_inside_its_root_only_when_it_stays_there_after_dots_and_links() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path().join("bot");
        std::fs::create_dir_all(root.join("src")).expect("dirs");
        std::fs::write(root.join("src/bot.c"), "int x;").expect("write");
        std::fs::write(dir.path().join("secret"), "s").expect("write");
        let real = |path: &str| root.join(path).canonicalize().expect("exists");
        assert_eq!(inside(&root, &root.join("src/bot.c")).expect("inside"), real("src/bot.c"));
        assert_eq!(
            inside(&root, &root.join("src/../src/bot.c")).expect("inside"),
            real("src/bot.c")
        );
        let absolute = root.join("src/bot.c");
        assert_eq!(inside(&root, &absolute).expect("inside"), real("src/bot.c"));
        for escape in ["../secret", "/etc/passwd", "src/../../secret"] {
            let err = inside(&root, &root.join(escape)).unwrap_err();
            assert!(
                matches!(&err, ReadError::Outside { root: r } if *r == root),
                "{escape}: {err}"
            );
        }
        std::os::unix::fs::symlink(dir.path().join("secret"), root.join("notes.txt"))
            .expect("link");
        std::os::unix::fs::symlink("/etc", root.join("etc")).expect("link");
        for link in ["notes.txt", "etc/passwd"] {
            let err = inside(&root, &root.join(link)).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!(
                    "it leads outside {} (by `..` or a symbolic link), and botlens reads only the files inside",
                    root.display()
                )
            );
        }
        let missing = inside(&root, &root.join("gone.c")).unwrap_err();
        assert!(matches!(&missing, ReadError::Io(io) if io.kind() == io::ErrorKind::NotFound));
    }

    #[test]
    fn bytes_are_read_whole_up_to_the_limit_and_sizes_are_named_in_whole_units() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("bot.js");
        std::fs::write(&path, [0xff, 0, 1]).expect("write");
        assert_eq!(read_bytes(&path, 3).expect("bytes"), [0xff, 0, 1]);
        assert!(matches!(read_bytes(&path, 2), Err(ReadError::TooLarge { limit: 2 })));
        assert!(matches!(
            read_bytes(Path::new("/dev/zero"), 1 << 20),
            Err(ReadError::NotRegular(_))
        ));
        let sizes = [4 << 20, 512 << 10, 100, 3 << 30, (1 << 20) + 1].map(size);
        assert_eq!(sizes, ["4 MiB", "512 KiB", "100 bytes", "3 GiB", "1048577 bytes"]);
    }
}
