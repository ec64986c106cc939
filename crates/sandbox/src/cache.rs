//! The on-disk cache of compiled modules, so a bot compiles once per build, not once per run.
//!
//! A compiled module is native code that `Module::deserialize` runs without checking it, so the
//! cache trusts nothing it did not write itself:
//!
//! - the directory is used only if it is the current user's and nobody else may write to it
//!   (on Unix: owned by the effective user, no group or other write bit; created 0700);
//! - a random 256-bit key, made once per cache directory in [`KEY_FILE`] (0600, checked like the
//!   directory), authenticates every entry: the file is `tag ‖ serialized module`, with
//!   `tag = HMAC-SHA256(key, CACHE_FORMAT ‖ sha256(module bytes) ‖ engine fingerprint ‖
//!   serialized module)`. The engine fingerprint hashes wasmtime's precompile-compatibility hash
//!   (wasmtime version, target, every compilation setting). An entry whose tag does not verify
//!   — planted, copied from another module's key, truncated, or written by another botlens
//!   with other checks — is deleted and compiled again;
//! - entries are named `<hex>.cwasm` with `hex = sha256(CACHE_FORMAT ‖ module hash ‖ engine
//!   fingerprint)`: predictable, which is harmless now that names are not what is trusted;
//! - writes are atomic (a private temporary file renamed into place); the directory is kept
//!   under a size bound, least recently used entries (by modification time, touched on every
//!   hit) deleted first.
//!
//! The cache is an optimisation: a missing, unreadable or rejected entry, or a directory that
//! cannot be trusted, means compiling again, never an error.

use std::hash::{Hash, Hasher};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};
use wasmtime::{Engine, Module};

/// What the tags and names of this version's entries start with; a new version (a change of
/// entry layout or of what loading checks before compiling) changes it, so no entry written
/// under other rules is ever accepted.
const CACHE_FORMAT: &[u8] = b"botlens-sandbox cache 2";

/// The key file in the cache directory.
pub(crate) const KEY_FILE: &str = "cache-key";

/// Bytes of the key and of a tag.
const TAG_BYTES: usize = 32;

/// The extension of entries.
const ENTRY_EXTENSION: &str = "cwasm";

/// A temporary file older than this is left over from a writer that died, and is deleted when
/// the cache is trimmed.
const STALE_TEMPORARY: Duration = Duration::from_secs(3600);

type HmacSha256 = Hmac<Sha256>;

/// A trusted directory of compiled modules.
pub(crate) struct DiskCache {
    dir: PathBuf,
    key: [u8; TAG_BYTES],
    max_bytes: u64,
}

impl std::fmt::Debug for DiskCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the key.
        f.debug_struct("DiskCache")
            .field("dir", &self.dir)
            .field("max_bytes", &self.max_bytes)
            .finish()
    }
}

/// Feeds `Hash` output into SHA-256, so the engine fingerprint is stable across processes (the
/// standard library's hashers are not).
struct ShaHasher(Sha256);

impl Hasher for ShaHasher {
    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    fn finish(&self) -> u64 {
        let digest = self.0.clone().finalize();
        u64::from_le_bytes(digest[..8].try_into().expect("a SHA-256 digest has 32 bytes"))
    }
}

/// The SHA-256 of `bytes`.
pub(crate) fn sha256(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// Lower-case hex.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The engine's compilation fingerprint: the SHA-256 of wasmtime's precompile-compatibility
/// hash.
fn engine_fingerprint(engine: &Engine) -> [u8; 32] {
    let mut hasher = ShaHasher(Sha256::new());
    engine.precompile_compatibility_hash().hash(&mut hasher);
    hasher.0.finalize().into()
}

/// Where an entry lives and what its tag must cover.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    path: PathBuf,
    /// `CACHE_FORMAT ‖ module hash ‖ engine fingerprint`: the tag's input before the bytes.
    context: Vec<u8>,
}

impl DiskCache {
    /// Opens (creating it if needed) the cache directory, kept under `max_bytes`; the error says
    /// why the directory cannot be trusted or used.
    pub fn open(dir: &Path, max_bytes: u64) -> Result<Self, String> {
        trust::prepare_dir(dir)?;
        let key = trust::key(&dir.join(KEY_FILE))?;
        Ok(DiskCache { dir: dir.to_owned(), key, max_bytes })
    }

    /// The entry for a module (by the SHA-256 of its bytes) compiled by `engine`.
    pub fn entry(&self, module_sha256: &[u8; 32], engine: &Engine) -> Entry {
        let mut context = CACHE_FORMAT.to_vec();
        context.extend_from_slice(module_sha256);
        context.extend_from_slice(&engine_fingerprint(engine));
        let path = self.dir.join(format!("{}.{ENTRY_EXTENSION}", hex(&sha256(&context))));
        Entry { path, context }
    }

    fn mac(&self, entry: &Entry, serialized: &[u8]) -> HmacSha256 {
        let mut mac = HmacSha256::new_from_slice(&self.key).expect("HMAC takes a key of any size");
        mac.update(&entry.context);
        mac.update(serialized);
        mac
    }

    /// The cached compilation, if there is one whose tag verifies; an entry that does not
    /// verify is deleted. A hit marks the entry as just used.
    ///
    /// The file is read into memory rather than mapped (`Module::deserialize_file`): the bytes
    /// verified are then the bytes deserialized, and a file truncated by someone else while in
    /// use cannot crash the process with `SIGBUS`.
    pub fn load(&self, entry: &Entry, engine: &Engine) -> Option<Module> {
        let mut file = std::fs::File::open(&entry.path).ok()?;
        let mut bytes = Vec::new();
        // Never more than the cache may hold, whatever the file's size.
        Read::by_ref(&mut file)
            .take(self.max_bytes.saturating_add(1))
            .read_to_end(&mut bytes)
            .ok()?;
        let verified = bytes.len() > TAG_BYTES
            && bytes.len() as u64 <= self.max_bytes
            && self.mac(entry, &bytes[TAG_BYTES..]).verify_slice(&bytes[..TAG_BYTES]).is_ok();
        if !verified {
            drop(file);
            let _ = std::fs::remove_file(&entry.path);
            return None;
        }
        let _ = file.set_modified(SystemTime::now());
        // SAFETY: `deserialize` requires bytes that wasmtime's `Module::serialize` produced, for
        // an engine configured like this one. These are: they carry an HMAC-SHA256 tag, verified
        // just above over these very bytes in memory (no file is read twice), under a 256-bit
        // random key that only this user can read (a 0600 file in a directory that this user
        // owns and nobody else may write to, both checked when the cache was opened). Only
        // `store` below computes such tags, over the output of `Module::serialize` of the module
        // with this SHA-256, compiled by an engine with this compatibility fingerprint, after the
        // module passed loading's checks. Whoever does not hold the key cannot make a tag that
        // verifies, so a planted, copied or corrupted file is refused above and never reaches
        // this call; wasmtime still checks the header (version, settings) on top.
        unsafe { Module::deserialize(engine, &bytes[TAG_BYTES..]) }.ok()
    }

    /// Writes a compilation, then trims the directory to its bound; failures (full disk,
    /// read-only directory) are ignored because the cache is only an optimisation.
    pub fn store(&self, entry: &Entry, module: &Module) {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let Ok(serialized) = module.serialize() else { return };
        if (serialized.len() + TAG_BYTES) as u64 > self.max_bytes {
            return;
        }
        let tag = self.mac(entry, &serialized).finalize().into_bytes();
        let unique = COUNTER.fetch_add(1, Ordering::Relaxed);
        let tmp = entry.path.with_extension(format!("tmp.{}.{unique}", std::process::id()));
        let written = trust::create_private(&tmp).and_then(|mut file| {
            file.write_all(&tag)?;
            file.write_all(&serialized)
        });
        if written.is_err() || std::fs::rename(&tmp, &entry.path).is_err() {
            let _ = std::fs::remove_file(&tmp);
            return;
        }
        self.trim();
    }

    /// Deletes the least recently used entries (and temporary files left by dead writers) until
    /// the directory holds at most `max_bytes` of them.
    fn trim(&self) {
        let Ok(listing) = std::fs::read_dir(&self.dir) else { return };
        let now = SystemTime::now();
        let mut entries = Vec::new();
        let mut total = 0u64;
        for item in listing.flatten() {
            let Ok(meta) = item.metadata() else { continue };
            let path = item.path();
            let name = item.file_name();
            let name = name.to_string_lossy();
            if !meta.is_file() || name == KEY_FILE {
                continue;
            }
            let used = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
            if path.extension().is_some_and(|e| e == ENTRY_EXTENSION) {
                total += meta.len();
                entries.push((used, meta.len(), path));
            } else if name.contains(".tmp.")
                && now.duration_since(used).is_ok_and(|age| age > STALE_TEMPORARY)
            {
                let _ = std::fs::remove_file(&path);
            }
        }
        entries.sort();
        for (_, len, path) in entries {
            if total <= self.max_bytes {
                break;
            }
            if std::fs::remove_file(&path).is_ok() {
                total -= len;
            }
        }
    }
}

/// Whether a directory and a key file can be trusted, and making them so.
mod trust {
    use std::io::Read;
    use std::path::Path;

    use super::TAG_BYTES;

    /// Creates `dir` (0700, parents too) if needed and checks that only this user can write
    /// to it.
    pub fn prepare_dir(dir: &Path) -> Result<(), String> {
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder.create(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let meta =
            std::fs::metadata(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        if !meta.is_dir() {
            return Err(format!("{} is not a directory", dir.display()));
        }
        private(&meta, 0o022, "others than its owner may change it")
            .map_err(|why| format!("the directory {} {why}", dir.display()))
    }

    /// Checks that a file or directory belongs to the effective user and has none of the
    /// permission bits in `forbidden` (which would mean `consequence`); the error completes
    /// "the directory … ".
    #[cfg(unix)]
    fn private(meta: &std::fs::Metadata, forbidden: u32, consequence: &str) -> Result<(), String> {
        use std::os::unix::fs::MetadataExt;
        // SAFETY: `geteuid` has no preconditions and cannot fail.
        let me = unsafe { libc::geteuid() };
        if meta.uid() != me {
            return Err(format!("belongs to user {}, not to this user ({me})", meta.uid()));
        }
        let mode = meta.mode() & 0o777;
        if mode & forbidden != 0 {
            return Err(format!("has mode {mode:03o}: {consequence}"));
        }
        Ok(())
    }

    /// Without Unix permissions there is nothing more to check.
    #[cfg(not(unix))]
    fn private(
        _meta: &std::fs::Metadata,
        _forbidden: u32,
        _consequence: &str,
    ) -> Result<(), String> {
        Ok(())
    }

    /// Creates a new file only this user may read or write (0600); fails if it exists.
    pub fn create_private(path: &Path) -> std::io::Result<std::fs::File> {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        options.open(path)
    }

    /// The cache's key: read from `path`, or made from fresh randomness and written there if
    /// there is none yet (by whichever process gets there first: the file appears whole or not
    /// at all).
    pub fn key(path: &Path) -> Result<[u8; TAG_BYTES], String> {
        match read_key(path) {
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            other => return named_key(path, other),
        }
        let mut key = [0u8; TAG_BYTES];
        getrandom::fill(&mut key).map_err(|e| format!("no randomness for the cache key: {e}"))?;
        let tmp = path.with_extension(format!("tmp.{}", std::process::id()));
        let made = create_private(&tmp).and_then(|mut file| {
            std::io::Write::write_all(&mut file, &key)?;
            file.sync_all()
        });
        // A hard link, unlike a rename, never replaces a key another process made meanwhile.
        let linked = made.and_then(|()| std::fs::hard_link(&tmp, path));
        let _ = std::fs::remove_file(&tmp);
        match linked {
            Ok(()) => Ok(key),
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {
                named_key(path, read_key(path))
            }
            Err(error) => Err(format!("cannot write the key {}: {error}", path.display())),
        }
    }

    /// What reading the key file at `path` gave, every error naming the file: `the key
    /// /home/me/.cache/botlens/modules/cache-key has mode 644: others may read it`.
    fn named_key(
        path: &Path,
        read: std::io::Result<Result<[u8; TAG_BYTES], String>>,
    ) -> Result<[u8; TAG_BYTES], String> {
        let named = |why: &dyn std::fmt::Display| format!("the key {} {why}", path.display());
        match read {
            Ok(Ok(key)) => Ok(key),
            Ok(Err(why)) => Err(named(&why)),
            Err(error) => Err(named(&format_args!("cannot be read: {error}"))),
        }
    }

    /// Reads a key file, checking that it is a private regular file of the right size; the
    /// inner error says why a key that exists cannot be used.
    fn read_key(path: &Path) -> std::io::Result<Result<[u8; TAG_BYTES], String>> {
        let meta = std::fs::symlink_metadata(path)?;
        if !meta.is_file() {
            return Ok(Err("is not a regular file".into()));
        }
        if let Err(why) = private(&meta, 0o077, "others may read it") {
            return Ok(Err(why));
        }
        let mut key = [0u8; TAG_BYTES];
        let mut file = std::fs::File::open(path)?;
        if meta.len() != TAG_BYTES as u64 || file.read_exact(&mut key).is_err() {
            return Ok(Err(format!("is not {TAG_BYTES} bytes long")));
        }
        Ok(Ok(key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_and_sha256_match_the_well_known_digest() {
        assert_eq!(
            hex(&sha256(b"abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn a_debugger_engines_compiled_module_is_another_entry_and_never_loads_for_playing() {
        use crate::engines::{Key, engine};
        let dir = tempfile::tempdir().unwrap();
        let cache = DiskCache::open(dir.path(), 1 << 30).unwrap();
        let stack_bytes = 512 << 10;
        let playing = engine(Key { stack_bytes, debugger: false }).unwrap();
        let debugging = engine(Key { stack_bytes, debugger: true }).unwrap();
        let debug_entry = cache.entry(&[5; 32], &debugging);
        let play_entry = cache.entry(&[5; 32], &playing);
        assert_ne!(debug_entry.path, play_entry.path, "the fingerprint covers debug info");
        cache.store(&debug_entry, &Module::new(&debugging, "(module)").unwrap());
        std::fs::copy(&debug_entry.path, &play_entry.path).unwrap();
        assert!(cache.load(&play_entry, &playing).is_none(), "the tag covers the engine too");
    }

    #[test]
    fn entries_round_trip_and_garbage_or_foreign_entries_are_deleted_misses() {
        let dir = tempfile::tempdir().unwrap();
        let cache = DiskCache::open(&dir.path().join("nested/cache"), 1 << 30).unwrap();
        let engine = Engine::default();
        let module = Module::new(&engine, "(module (func (export \"f\")))").unwrap();
        let entry = cache.entry(&[7; 32], &engine);
        assert!(cache.load(&entry, &engine).is_none());
        cache.store(&entry, &module);
        let loaded = cache.load(&entry, &engine).expect("a stored entry loads");
        assert!(loaded.get_export("f").is_some());

        // The same bytes under another module's name: the tag covers the module hash.
        let other = cache.entry(&[8; 32], &engine);
        assert_ne!(entry.path, other.path);
        std::fs::copy(&entry.path, &other.path).unwrap();
        assert!(cache.load(&other, &engine).is_none());
        assert!(!other.path.exists(), "a foreign entry is deleted");

        // A valid tag under another key (another user's cache) does not verify either.
        let elsewhere = tempfile::tempdir().unwrap();
        let theirs = DiskCache::open(elsewhere.path(), 1 << 30).unwrap();
        theirs.store(&theirs.entry(&[7; 32], &engine), &module);
        std::fs::copy(theirs.entry(&[7; 32], &engine).path, &entry.path).unwrap();
        assert!(cache.load(&entry, &engine).is_none());

        std::fs::write(&entry.path, b"not a compiled module").unwrap();
        assert!(cache.load(&entry, &engine).is_none());
        assert!(!entry.path.exists());
    }

    #[cfg(unix)]
    #[test]
    fn the_key_is_made_once_private_and_refused_when_others_may_read_it() {
        use std::os::unix::fs::PermissionsExt;

        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(KEY_FILE);
        let key = trust::key(&path).unwrap();
        assert_eq!(trust::key(&path).unwrap(), key, "the key is kept");
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let named = |why: &str| format!("the key {} {why}", path.display());
        assert_eq!(trust::key(&path).unwrap_err(), named("has mode 644: others may read it"));
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        std::fs::write(&path, b"short").unwrap();
        assert_eq!(trust::key(&path).unwrap_err(), named("is not 32 bytes long"));
        std::fs::remove_file(&path).unwrap();
        std::os::unix::fs::symlink(dir.path().join("elsewhere"), &path).unwrap();
        assert_eq!(trust::key(&path).unwrap_err(), named("is not a regular file"));
    }
}
