//! wasmtime engines, the in-memory module cache and the wall-clock ticker.
//!
//! wasmtime fixes the wasm stack cap per engine, so there is one engine per distinct
//! [`Limits::stack_bytes`](crate::Limits::stack_bytes) in use (in practice one). Every engine is
//! configured for determinism: fuel, NaN canonicalization, deterministic relaxed SIMD, no
//! threads. One ticker thread per sandbox advances the epoch of all its engines; it ends when
//! the sandbox and every module loaded from it are gone.

use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use wasmtime::{Config, Engine, Module, WasmBacktraceDetails};

use crate::error::SandboxError;

/// Compiled modules kept in memory per engine; older ones are dropped first (loaded
/// [`BotModule`](crate::BotModule)s keep their own).
const MEMORY_CACHE_MODULES: usize = 16;

/// Frames captured in a backtrace: enough to get past the SDK and std into the bot's code.
const BACKTRACE_FRAMES: usize = 64;

struct EngineEntry {
    stack_bytes: u64,
    engine: Engine,
    /// Most recently used last.
    modules: Vec<([u8; 32], Module)>,
}

/// The engines of one sandbox.
pub(crate) struct Engines {
    entries: Mutex<Vec<EngineEntry>>,
    tick: Duration,
}

fn config(stack_bytes: u64) -> Config {
    let mut config = Config::new();
    config
        .consume_fuel(true)
        .epoch_interruption(true)
        .max_wasm_stack(stack_bytes as usize)
        // Frames are symbolized by `crate::dwarf`, once per backtrace instead of once per frame.
        .wasm_backtrace_details(WasmBacktraceDetails::Disable)
        .wasm_backtrace_max_frames(NonZeroUsize::new(BACKTRACE_FRAMES))
        .cranelift_nan_canonicalization(true)
        .relaxed_simd_deterministic(true)
        .parallel_compilation(true);
    config
}

impl Engines {
    /// The engines, and the ticker thread that drives their epochs every `tick`.
    pub fn start(tick: Duration) -> Result<Arc<Engines>, SandboxError> {
        let engines = Arc::new(Engines { entries: Mutex::new(Vec::new()), tick });
        let weak = Arc::downgrade(&engines);
        std::thread::Builder::new()
            .name("botlens-epoch".into())
            .spawn(move || tick_until_dropped(&weak, tick))
            .map_err(SandboxError::Ticker)?;
        Ok(engines)
    }

    /// How often epochs advance.
    pub fn tick(&self) -> Duration {
        self.tick
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<EngineEntry>> {
        // A panic while holding the lock cannot leave the list inconsistent (every update is a
        // single push or reorder), so a poisoned lock is still usable.
        self.entries.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The engine for a stack cap, created on first use.
    pub fn engine(&self, stack_bytes: u64) -> Result<Engine, String> {
        let mut entries = self.lock();
        if let Some(entry) = entries.iter().find(|e| e.stack_bytes == stack_bytes) {
            return Ok(entry.engine.clone());
        }
        let engine = Engine::new(&config(stack_bytes)).map_err(|e| format!("{e:#}"))?;
        entries.push(EngineEntry { stack_bytes, engine: engine.clone(), modules: Vec::new() });
        Ok(engine)
    }

    /// A module compiled by `engine` from the memory cache.
    pub fn cached(&self, engine: &Engine, sha256: &[u8; 32]) -> Option<Module> {
        let mut entries = self.lock();
        let entry = entries.iter_mut().find(|e| Engine::same(&e.engine, engine))?;
        let at = entry.modules.iter().position(|(sha, _)| sha == sha256)?;
        let hit = entry.modules.remove(at);
        let module = hit.1.clone();
        entry.modules.push(hit);
        Some(module)
    }

    /// Remembers a compiled module.
    pub fn remember(&self, engine: &Engine, sha256: [u8; 32], module: &Module) {
        let mut entries = self.lock();
        if let Some(entry) = entries.iter_mut().find(|e| Engine::same(&e.engine, engine)) {
            entry.modules.retain(|(sha, _)| *sha != sha256);
            if entry.modules.len() >= MEMORY_CACHE_MODULES {
                entry.modules.remove(0);
            }
            entry.modules.push((sha256, module.clone()));
        }
    }
}

fn tick_until_dropped(engines: &Weak<Engines>, tick: Duration) {
    loop {
        std::thread::sleep(tick);
        let Some(engines) = engines.upgrade() else { return };
        for entry in engines.lock().iter() {
            entry.engine.increment_epoch();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_engine_per_stack_cap_and_the_memory_cache_is_bounded() {
        let engines = Engines::start(Duration::from_millis(5)).unwrap();
        let a = engines.engine(512 << 10).unwrap();
        let b = engines.engine(256 << 10).unwrap();
        assert!(Engine::same(&a, &engines.engine(512 << 10).unwrap()));
        assert!(!Engine::same(&a, &b));

        let module = Module::new(&a, "(module)").unwrap();
        for i in 0..=MEMORY_CACHE_MODULES as u8 {
            engines.remember(&a, [i; 32], &module);
        }
        assert!(engines.cached(&a, &[0; 32]).is_none(), "the oldest entry was dropped");
        assert!(engines.cached(&a, &[1; 32]).is_some());
        assert!(engines.cached(&b, &[1; 32]).is_none());
    }
}
