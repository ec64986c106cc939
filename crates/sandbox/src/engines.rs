//! wasmtime engines, the in-memory module cache and the wall-clock ticker.
//!
//! wasmtime fixes the wasm stack cap per engine, so there is one engine per distinct
//! [`SandboxLimits::stack_bytes`](crate::SandboxLimits::stack_bytes) in use (in practice one). Engines are
//! shared by every sandbox of the process: each holds a pool of instance slots, address space
//! reserved once, and one ticker thread advances all their epochs. Every engine is configured
//! for determinism: fuel (each instruction priced by `crate::pricing`), NaN canonicalization,
//! deterministic relaxed SIMD, no threads.
//!
//! A sandbox made for a debugger ([`Sandbox::for_debugger`](crate::Sandbox::for_debugger)) has
//! engines of its own, another key: they emit native DWARF for gdb and lldb, allocate instances
//! on demand, and have no epoch checks (the wall-clock backstop is off while a debugger holds
//! the process). Their compiled code differs, and so does wasmtime's compatibility hash that
//! the disk cache's entries are keyed by.

use std::borrow::Cow;
use std::collections::HashMap;
use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::Duration;

use wasmtime::{
    CacheStore, Config, Enabled, Engine, InstanceAllocationStrategy, Module,
    PoolingAllocationConfig, ProfilingStrategy, WasmBacktraceDetails,
};

use crate::SandboxLimits;
use crate::error::SandboxError;

/// How often the ticker advances every engine's epoch; the backstop of
/// [`SandboxLimits::wall_clock_ms_per_turn`](crate::SandboxLimits::wall_clock_ms_per_turn) is
/// first checked after that many milliseconds of these ticks (`crate::backstop`).
pub(crate) const EPOCH_TICK: Duration = Duration::from_millis(10);

/// Compiled modules kept in memory per engine; older ones are dropped first (loaded
/// [`BotModule`](crate::BotModule)s keep their own).
const MEMORY_CACHE_MODULES: usize = 16;

/// Frames captured in a backtrace: every frame the deepest stack allowed can hold (a wasm frame
/// takes at least 16 bytes), so a failure's whole call stack is seen, its outermost frames
/// (which function entered a runaway recursion) included. wasmtime walks the whole stack of a
/// trap anyway; only failures pay for this, and `crate::fold` keeps what it makes bounded.
const BACKTRACE_FRAMES: usize = (SandboxLimits::MAX_STACK_BYTES / 16) as usize;

/// Set to `1`, compiled bot code is listed in `/tmp/perf-<pid>.map`, so that `perf` names the
/// bot's functions in its profiles (see docs/performance.md).
const PERFMAP_VAR: &str = "BOTLENS_PERFMAP";

/// Instances alive at once per engine: each game in progress holds one per wasm seat. The
/// slots are address space reserved up front (4 GiB and guards each, not memory), so there are
/// far more than any number of worker threads needs.
const POOL_SLOTS: u32 = 1000;

/// Tables a bot module may define (compilers emit one).
const MAX_TABLES: u32 = 4;

/// Elements a bot's table may hold: more than any compiler emits for a bot (a C# module in
/// debug mode has been seen with 10,000+).
pub(crate) const TABLE_ELEMENTS: usize = 1 << 16;

/// Bytes of dirtied memory reset in place after a game instead of being unmapped: enough for a
/// prepared runner's heap (the Python runner writes about 20 MiB into every game), which would
/// otherwise be unmapped after each game and faulted in again, a page at a time, by the next
/// (at 4 MiB, Python bots played 150 games/s on one core here; at 64 MiB, 250).
const KEEP_RESIDENT: usize = 64 << 20;

/// What an engine is made for: its stack cap, and whether a debugger reads its code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Key {
    /// The wasm stack cap in bytes.
    pub stack_bytes: u64,
    /// Native debug info, no pool, no epoch checks ([`crate::Sandbox::for_debugger`]).
    pub debugger: bool,
}

/// The engines of the process, one per key.
static ENGINES: Mutex<Vec<(Key, Engine)>> = Mutex::new(Vec::new());

/// Whether the ticker thread started (once per process).
static TICKER: OnceLock<Result<(), String>> = OnceLock::new();

fn config(key: Key) -> Config {
    let mut config = Config::new();
    config
        .consume_fuel(true)
        .operator_cost(crate::pricing::operator_cost())
        .epoch_interruption(!key.debugger)
        .max_wasm_stack(key.stack_bytes as usize)
        // Frames are symbolized by `crate::dwarf`, once per backtrace instead of once per frame.
        .wasm_backtrace_details(WasmBacktraceDetails::Disable)
        .wasm_backtrace_max_frames(NonZeroUsize::new(BACKTRACE_FRAMES))
        .cranelift_nan_canonicalization(true)
        .relaxed_simd_deterministic(true)
        .parallel_compilation(true);
    if key.debugger {
        config
            .debug_info(true)
            .cranelift_opt_level(wasmtime::OptLevel::None)
            .allocation_strategy(InstanceAllocationStrategy::OnDemand);
    } else {
        config.allocation_strategy(InstanceAllocationStrategy::Pooling(pooling()));
        let functions: Arc<dyn CacheStore> = COMPILED_FUNCTIONS.clone();
        if let Err(error) = config.enable_incremental_compilation(functions) {
            // Only a build without Cranelift refuses, and then nothing compiles at all.
            debug_assert!(false, "{error:#}");
        }
    }
    if std::env::var_os(PERFMAP_VAR).is_some_and(|v| v == "1") {
        config.profiler(ProfilingStrategy::PerfMap);
    }
    config
}

/// Instances come from a pool of pre-reserved slots: a slot is reused game after game, its
/// memory reset to the module's initial image (copy-on-write) rather than mapped anew. Where
/// Linux can list the pages a game dirtied (`PAGEMAP_SCAN`), only those are reset, by `memset`,
/// up to [`KEEP_RESIDENT`] bytes, so the next game takes no page faults on them.
fn pooling() -> PoolingAllocationConfig {
    let mut pooling = PoolingAllocationConfig::new();
    pooling
        .total_core_instances(POOL_SLOTS)
        .total_memories(POOL_SLOTS)
        .total_tables(POOL_SLOTS)
        .max_tables_per_module(MAX_TABLES)
        .table_elements(TABLE_ELEMENTS)
        .pagemap_scan(Enabled::Auto)
        .linear_memory_keep_resident(KEEP_RESIDENT)
        .table_keep_resident(KEEP_RESIDENT);
    pooling
}

/// The most bytes of compiled functions [`CompiledFunctions`] keeps: a few bot modules' worth
/// (the `battleships-hunter` sample's functions take about 4 MiB).
const COMPILED_FUNCTIONS_BYTES: usize = 64 << 20;

/// The functions Cranelift compiled in this process, for every engine of it
/// ([`Config::enable_incremental_compilation`]): a module compiled again after an edit of the
/// bot (the language server's and `botlens watch`'s every save) compiles only the functions
/// whose code changed. Keyed by Cranelift's own hash of a function and of what compiles it, so
/// an entry serves only the same compile; emptied whole when it would pass
/// [`COMPILED_FUNCTIONS_BYTES`].
static COMPILED_FUNCTIONS: std::sync::LazyLock<Arc<CompiledFunctions>> =
    std::sync::LazyLock::new(|| Arc::new(CompiledFunctions::up_to(COMPILED_FUNCTIONS_BYTES)));

/// Empties the process's cache of compiled functions, so that the next module compiles from
/// nothing, as in a new process: for measuring a first compile (`botlens bench`).
pub fn forget_compiled_functions() {
    *lock(&COMPILED_FUNCTIONS.entries) = Entries::default();
}

/// The store behind [`COMPILED_FUNCTIONS`].
#[derive(Debug)]
struct CompiledFunctions {
    /// The most bytes (keys and values) it keeps.
    limit: usize,
    /// Each function's compiled bytes by key, and their total size.
    entries: Mutex<Entries>,
}

/// The entries of [`CompiledFunctions`].
#[derive(Debug, Default)]
struct Entries {
    /// Compiled bytes by key.
    map: HashMap<Vec<u8>, Vec<u8>>,
    /// The keys' and values' bytes together.
    bytes: usize,
}

impl CompiledFunctions {
    fn up_to(limit: usize) -> CompiledFunctions {
        CompiledFunctions { limit, entries: Mutex::new(Entries::default()) }
    }
}

impl CacheStore for CompiledFunctions {
    fn get(&self, key: &[u8]) -> Option<Cow<'_, [u8]>> {
        lock(&self.entries).map.get(key).map(|value| Cow::Owned(value.clone()))
    }

    fn insert(&self, key: &[u8], value: Vec<u8>) -> bool {
        let size = key.len() + value.len();
        if size > self.limit {
            return false;
        }
        let mut entries = lock(&self.entries);
        if entries.bytes + size > self.limit {
            *entries = Entries::default();
        }
        entries.bytes += size;
        if let Some(old) = entries.map.insert(key.to_vec(), value) {
            entries.bytes -= key.len() + old.len();
        }
        true
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // Every update under these locks is a single push, remove or reorder, so a panic while
    // holding one cannot leave the list inconsistent: a poisoned lock is still usable.
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The engine for a key, created on first use (and the ticker with the first engine).
pub(crate) fn engine(key: Key) -> Result<Engine, SandboxError> {
    let ticker = TICKER.get_or_init(|| {
        std::thread::Builder::new()
            .name("botlens-epoch".into())
            .spawn(tick_forever)
            .map(drop)
            .map_err(|error| error.to_string())
    });
    ticker.clone().map_err(SandboxError::Ticker)?;
    let mut engines = lock(&ENGINES);
    if let Some((_, engine)) = engines.iter().find(|(made_for, _)| *made_for == key) {
        return Ok(engine.clone());
    }
    let engine = Engine::new(&config(key)).map_err(|e| SandboxError::Engine(format!("{e:#}")))?;
    engines.push((key, engine.clone()));
    Ok(engine)
}

fn tick_forever() {
    loop {
        std::thread::sleep(EPOCH_TICK);
        for (_, engine) in lock(&ENGINES).iter() {
            engine.increment_epoch();
        }
    }
}

/// Compiled modules one sandbox keeps in memory, per engine, most recently used last.
#[derive(Default)]
pub(crate) struct ModuleCache {
    entries: Mutex<Vec<([u8; 32], Module)>>,
}

impl ModuleCache {
    /// A module compiled by `engine` from the cache.
    pub fn cached(&self, engine: &Engine, sha256: &[u8; 32]) -> Option<Module> {
        let mut entries = lock(&self.entries);
        let at = entries
            .iter()
            .position(|(sha, module)| sha == sha256 && Engine::same(module.engine(), engine))?;
        let hit = entries.remove(at);
        let module = hit.1.clone();
        entries.push(hit);
        Some(module)
    }

    /// Remembers a compiled module.
    pub fn remember(&self, sha256: [u8; 32], module: &Module) {
        let mut entries = lock(&self.entries);
        entries.retain(|(sha, cached)| {
            *sha != sha256 || !Engine::same(cached.engine(), module.engine())
        });
        if entries.len() >= MEMORY_CACHE_MODULES {
            entries.remove(0);
        }
        entries.push((sha256, module.clone()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(stack_bytes: u64) -> Key {
        Key { stack_bytes, debugger: false }
    }

    #[test]
    fn compiled_functions_are_kept_until_they_would_pass_the_bound_then_dropped_whole() {
        let store = CompiledFunctions::up_to(20);
        assert!(store.insert(b"a", vec![1; 4]));
        assert!(store.insert(b"b", vec![2; 4]));
        assert_eq!(store.get(b"a").as_deref(), Some(&[1u8; 4][..]));
        assert!(store.insert(b"a", vec![3; 4]), "a key inserted again replaces its bytes");
        assert_eq!(lock(&store.entries).bytes, 10);
        assert!(store.insert(b"c", vec![4; 10]), "20 bytes would pass: the rest is dropped");
        assert_eq!(store.get(b"a"), None);
        assert_eq!(store.get(b"c").as_deref(), Some(&[4u8; 10][..]));
        assert!(!store.insert(b"d", vec![0; 20]), "bigger than the bound: refused");
        assert!(store.get(b"c").is_some(), "a refused entry drops nothing");
    }

    #[test]
    fn a_module_compiled_again_gives_the_same_code() {
        let wat = r#"(module (func (export "f") (param i32) (result i32)
            local.get 0 i32.const 7 i32.mul))"#;
        let engine = engine(play(512 << 10)).unwrap();
        let first = Module::new(&engine, wat).unwrap().serialize().unwrap();
        let again = Module::new(&engine, wat).unwrap().serialize().unwrap();
        assert_eq!(first, again, "a function taken from the cache compiles as it did");
    }

    #[test]
    fn one_engine_per_stack_cap_and_the_memory_cache_is_bounded() {
        let a = engine(play(512 << 10)).unwrap();
        let b = engine(play(256 << 10)).unwrap();
        assert!(Engine::same(&a, &engine(play(512 << 10)).unwrap()));
        assert!(!Engine::same(&a, &b));

        let cache = ModuleCache::default();
        let module = Module::new(&a, "(module)").unwrap();
        for i in 0..=MEMORY_CACHE_MODULES as u8 {
            cache.remember([i; 32], &module);
        }
        assert!(cache.cached(&a, &[0; 32]).is_none(), "the oldest entry was dropped");
        assert!(cache.cached(&a, &[1; 32]).is_some());
        assert!(cache.cached(&b, &[1; 32]).is_none());
    }

    #[test]
    fn a_debugger_engine_is_another_engine_whose_modules_are_never_served_to_a_playing_one() {
        let playing = engine(play(512 << 10)).unwrap();
        let debugging = engine(Key { stack_bytes: 512 << 10, debugger: true }).unwrap();
        assert!(!Engine::same(&playing, &debugging));
        let cache = ModuleCache::default();
        cache.remember([3; 32], &Module::new(&debugging, "(module)").unwrap());
        assert!(cache.cached(&playing, &[3; 32]).is_none());
        assert!(cache.cached(&debugging, &[3; 32]).is_some());
    }
}
