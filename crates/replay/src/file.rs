//! Reading a file whose path came from someone else — a trace file, a source location recorded
//! in a trace, a layout file — without hanging or running out of memory: only regular files are
//! read (a FIFO, a device or a directory is refused, and opening never blocks on a FIFO), and
//! never more than a stated number of bytes.
//!
//! Not for deciding *which* files may be read: that is [`crate::source`]'s containment rule.

use std::fs::{File, FileType};
use std::io::{self, Read};
use std::path::Path;

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
    #[error("larger than {} MiB, the most botlens reads of it", .limit >> 20)]
    TooLarge {
        /// The most bytes read, in bytes.
        limit: u64,
    },
    /// The file is not UTF-8 text.
    #[error("not UTF-8 text")]
    NotText,
}

/// The start of a file: at most the bytes asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Prefix {
    /// The bytes read.
    pub(crate) bytes: Vec<u8>,
    /// Whether they are the whole file.
    pub(crate) complete: bool,
}

/// Reads at most `limit` bytes of the regular file at `path`.
pub(crate) fn read_prefix(path: &Path, limit: u64) -> Result<Prefix, ReadError> {
    read_start(open_regular(path)?, limit)
}

/// Reads the whole regular file at `path` as UTF-8 text, refusing files of more than `limit`
/// bytes (before reading any of it), non-regular files and anything that is not UTF-8.
///
/// A byte-order mark stays at the start of the text: the parser of its format skips it.
pub fn read_text(path: &Path, limit: u64) -> Result<String, ReadError> {
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
    String::from_utf8(prefix.bytes).map_err(|_| ReadError::NotText)
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

#[cfg(test)]
pub(crate) mod tests {
    use std::time::{Duration, Instant};

    use super::*;

    /// A named pipe at `dir/name`, made with the system's `mkfifo`.
    pub(crate) fn fifo(dir: &Path, name: &str) -> std::path::PathBuf {
        let path = dir.join(name);
        let made = std::process::Command::new("mkfifo").arg(&path).status().expect("mkfifo runs");
        assert!(made.success(), "mkfifo {}", path.display());
        path
    }

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
}
