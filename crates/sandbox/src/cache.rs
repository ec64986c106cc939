//! The on-disk cache of compiled modules, so a bot compiles once per build, not once per run.
//!
//! An entry is `<dir>/<key>.cwasm` with `key = sha256("botlens-sandbox cache 1" ‖ sha256(module
//! bytes) ‖ wasmtime's precompile-compatibility hash)`. The compatibility hash covers the
//! wasmtime version, the target and every compilation setting, so an entry is only ever read by
//! an engine that could have written it. The cache is an optimisation: a missing, unreadable or
//! rejected entry means compiling again, never an error.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use sha2::{Digest, Sha256};
use wasmtime::{Engine, Module};

use crate::error::SandboxError;

/// A directory of compiled modules.
#[derive(Debug)]
pub(crate) struct DiskCache {
    dir: PathBuf,
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

impl DiskCache {
    /// Opens (creating it if needed) the cache directory.
    pub fn new(dir: &Path) -> Result<Self, SandboxError> {
        std::fs::create_dir_all(dir)
            .map_err(|source| SandboxError::CacheDir { path: dir.to_owned(), source })?;
        Ok(DiskCache { dir: dir.to_owned() })
    }

    /// The entry's file for a module compiled by `engine`.
    pub fn path(&self, module_sha256: &[u8; 32], engine: &Engine) -> PathBuf {
        let mut hasher = ShaHasher(Sha256::new());
        hasher.write(b"botlens-sandbox cache 1");
        hasher.write(module_sha256);
        engine.precompile_compatibility_hash().hash(&mut hasher);
        self.dir.join(format!("{}.cwasm", hex(&hasher.0.finalize())))
    }

    /// The cached compilation, if there is a usable one.
    ///
    /// The file is read into memory rather than mapped (`Module::deserialize_file`): a mapped
    /// file truncated by someone else while in use would crash the process with `SIGBUS`.
    pub fn load(&self, path: &Path, engine: &Engine) -> Option<Module> {
        let bytes = std::fs::read(path).ok()?;
        // SAFETY: `deserialize` trusts the bytes to be wasmtime's own output. Files in this
        // directory are written only by `store` below, from `Module::serialize`, under a name
        // that is the hash of the module bytes and of this engine's compatibility fingerprint,
        // and renamed into place only once complete. wasmtime itself checks the header (format,
        // wasmtime version, compilation settings) and refuses mismatches, which we treat as a
        // miss. The directory has the same trust as the bot's build output beside it.
        unsafe { Module::deserialize(engine, bytes) }.ok()
    }

    /// Writes a compilation; failures (full disk, read-only directory) are ignored because the
    /// cache is only an optimisation.
    pub fn store(&self, path: &Path, module: &Module) {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let Ok(bytes) = module.serialize() else { return };
        let unique = COUNTER.fetch_add(1, Ordering::Relaxed);
        let tmp = path.with_extension(format!("tmp.{}.{unique}", std::process::id()));
        if std::fs::write(&tmp, bytes).is_ok() && std::fs::rename(&tmp, path).is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
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
    fn entries_round_trip_and_garbage_entries_are_misses() {
        let dir = tempfile::tempdir().unwrap();
        let cache = DiskCache::new(&dir.path().join("nested/cache")).unwrap();
        let engine = Engine::default();
        let module = Module::new(&engine, "(module (func (export \"f\")))").unwrap();
        let path = cache.path(&[7; 32], &engine);
        assert!(cache.load(&path, &engine).is_none());
        cache.store(&path, &module);
        let loaded = cache.load(&path, &engine).expect("a stored entry loads");
        assert!(loaded.get_export("f").is_some());
        std::fs::write(&path, b"not a compiled module").unwrap();
        assert!(cache.load(&path, &engine).is_none());
        assert_ne!(path, cache.path(&[8; 32], &engine));
    }
}
