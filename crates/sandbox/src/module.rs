//! Loading bots: [`Sandbox`] checks and compiles modules (once per module hash, cached in memory
//! and on disk) into [`BotModule`]s, which make a fresh [`WasmPlayer`](crate::WasmPlayer) for every game.

use std::any::{Any, TypeId};
use std::collections::VecDeque;
use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{RecvTimeoutError, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use botlens_engine::{Failure, FailureKind, Game, Seat};
use botlens_protocol::Encoding;
use wasmtime::{Engine, ExternType, InstancePre, Linker, Module, ModuleExport};

use crate::snapshot::{PrepareExports, Snapshot};

use crate::cache::{DiskCache, hex, sha256};
use crate::config::{SandboxConfig, SandboxLimits};
use crate::engines::{self, ModuleCache};
use crate::error::{LoadError, SandboxError};
use crate::host::{self, Host};
use crate::locate::Locator;
use crate::sections::Sections;
use crate::{abi, draw, imports, shape, text, wasi};

/// The host for WebAssembly bots: module caches over the process's engines.
///
/// Create one per process and share it (it is cheap to clone, `Send` and `Sync`). The first
/// sandbox of a process starts one background thread, the wall-clock ticker, which lives as
/// long as the process.
///
/// ```no_run
/// use botlens_sandbox::{Sandbox, SandboxConfig};
///
/// let sandbox = Sandbox::new(SandboxConfig::default())?;
/// let bot = sandbox.load_file("target/wasm32-wasip1/release/my_bot.wasm")?;
/// println!("loaded {}", bot.sha256());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Sandbox {
    shared: Arc<Shared>,
}

struct Shared {
    /// Whether modules compile for a native debugger ([`Sandbox::for_debugger`]).
    debugger: bool,
    modules: ModuleCache,
    disk: Option<DiskCache>,
    /// Why the configured cache directory is not used.
    disk_note: Option<String>,
    /// The last modules loaded, newest last: loading the same bytes again (a language runner
    /// with every edit of its bot's source, a bot rebuilt unchanged) takes the module as it was,
    /// with the state `botlens_prepare` left and its payloads' states, instead of preparing
    /// again.
    loaded: Mutex<VecDeque<Arc<Inner>>>,
}

/// How many loaded modules a sandbox keeps whole ([`Shared::loaded`]): the bots of a session
/// and the runners their sources run on.
const KEPT_LOADED_MODULES: usize = 4;

impl std::fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sandbox").field("disk_cache", &self.shared.disk).finish_non_exhaustive()
    }
}

impl Sandbox {
    /// Sets up the sandbox: opens the cache directory if one is configured (kept under
    /// [`SandboxConfig::DEFAULT_CACHE_BYTES`]), and the engine and the ticker thread if this is
    /// the process's first sandbox. A cache directory that cannot be created or trusted is not
    /// an error: the sandbox caches in memory only, and [`Sandbox::disk_cache_note`] says why.
    pub fn new(config: SandboxConfig) -> Result<Sandbox, SandboxError> {
        Sandbox::with_cache_bound(config, SandboxConfig::DEFAULT_CACHE_BYTES)
    }

    /// [`Sandbox::new`] with the disk cache kept under `max_bytes` instead of the default.
    ///
    /// ```
    /// use botlens_sandbox::{Sandbox, SandboxConfig};
    ///
    /// let dir = tempfile::tempdir()?;
    /// let config = SandboxConfig { cache_dir: Some(dir.path().join("modules")) };
    /// let sandbox = Sandbox::with_cache_bound(config, 64 << 20)?;
    /// assert_eq!(sandbox.disk_cache_note(), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_cache_bound(
        config: SandboxConfig,
        max_bytes: u64,
    ) -> Result<Sandbox, SandboxError> {
        let opened = config.cache_dir.as_deref().map(|dir| DiskCache::open(dir, max_bytes));
        let (disk, disk_note) = match opened {
            None => (None, None),
            Some(Ok(disk)) => (Some(disk), None),
            Some(Err(why)) => (None, Some(format!("the module cache is off: {why}"))),
        };
        Sandbox::open(false, disk, disk_note)
    }

    /// A sandbox for playing under a native debugger (gdb, lldb): its modules compile with
    /// native DWARF translated from the module's own and registered with the debugger's JIT
    /// interface, so breakpoints on the bot's source lines, backtraces and locals work. Fuel and
    /// every other limit stay as they are, so a game plays out exactly as in any other sandbox;
    /// only the wall-clock backstop is off, as a debugger stops the clock's meaning. Nothing is
    /// cached on disk, and its modules are never served to another sandbox.
    ///
    /// ```
    /// use botlens_sandbox::Sandbox;
    ///
    /// let sandbox = Sandbox::for_debugger().unwrap();
    /// assert_eq!(sandbox.disk_cache_note(), None);
    /// ```
    pub fn for_debugger() -> Result<Sandbox, SandboxError> {
        Sandbox::open(true, None, None)
    }

    fn open(
        debugger: bool,
        disk: Option<DiskCache>,
        disk_note: Option<String>,
    ) -> Result<Sandbox, SandboxError> {
        let shared = Shared {
            debugger,
            modules: ModuleCache::default(),
            disk,
            disk_note,
            loaded: Mutex::new(VecDeque::new()),
        };
        let sandbox = Sandbox { shared: Arc::new(shared) };
        sandbox.engine(SandboxLimits::default().stack_bytes)?;
        Ok(sandbox)
    }

    /// This sandbox's engine for a stack cap.
    fn engine(&self, stack_bytes: u64) -> Result<Engine, SandboxError> {
        engines::engine(engines::Key { stack_bytes, debugger: self.shared.debugger })
    }

    /// Why the configured cache directory is not used (it could not be created, or someone
    /// other than this user could write to it or its key), in one sentence; `None` when it is
    /// used or none was configured.
    pub fn disk_cache_note(&self) -> Option<&str> {
        self.shared.disk_note.as_deref()
    }

    /// Loads a bot from the bytes of a `.wasm` file (or WebAssembly text).
    ///
    /// Checks everything `docs/abi.md` requires that can be checked before a game: a core
    /// module (not a component) within the limits on size and compile work, the `botlens_abi`
    /// version, the exports and their signatures, that every import is a `botlens` or WASI
    /// preview 1 function with the right signature. Compiles the module (on a helper thread,
    /// within the compile deadline), or takes it from the memory or disk cache.
    ///
    /// ```
    /// use botlens_sandbox::{LoadError, Sandbox, SandboxConfig};
    ///
    /// let sandbox = Sandbox::new(SandboxConfig::default()).unwrap();
    /// let error = sandbox.load(b"#!/bin/sh\necho hello").unwrap_err();
    /// assert!(matches!(error, LoadError::NotWasm { .. }));
    /// ```
    pub fn load(&self, bytes: &[u8]) -> Result<BotModule, LoadError> {
        shape::check_size(bytes.len() as u64)?;
        let sha = sha256(bytes);
        if let Some(inner) = self.loaded(&sha) {
            return Ok(BotModule { sandbox: self.clone(), inner, payload: None, stop_at: None });
        }
        let binary: Arc<[u8]> = to_binary(bytes)?.into();
        let sections = Sections::read(&binary).map_err(|message| LoadError::Invalid { message })?;
        abi::check_version(&sections)?;
        let encoding = abi::encoding(&sections)?;
        let stack = SandboxLimits::default().stack_bytes;
        let engine = self
            .engine(stack)
            .map_err(|error| LoadError::Invalid { message: error.to_string() })?;
        let module = self.compile(&engine, &sha, &binary)?;
        abi::check_exports(&module)?;
        imports::check_imports(&module)?;
        let imported_functions =
            module.imports().filter(|i| matches!(i.ty(), ExternType::Func(_))).count() as u32;
        let runner = abi::is_runner(&sections);
        let samples_script = runner && module.get_export(abi::SAMPLE.0).is_some();
        let draws = module.imports().any(|i| i.module() == abi::HOST_MODULE && i.name() == "draw");
        // A runner's DWARF describes the runner, not the bot: it locates nothing.
        let debug = if runner { Arc::from(&[][..]) } else { Arc::clone(&binary) };
        let locator = Locator::new(debug, &sections, imported_functions)
            .map_err(|message| LoadError::Invalid { message })?;
        let locator = Arc::new(locator);
        let inner = Arc::new(Inner {
            runner,
            draws,
            samples_script,
            sha,
            sha_hex: hex(&sha),
            binary,
            encoding,
            locator,
            compiled: Mutex::new(vec![Compiled {
                stack_bytes: stack,
                module,
                recipes: Vec::new(),
            }]),
            payload_snapshots: Mutex::new(VecDeque::new()),
            prepare_failed: AtomicBool::new(false),
        });
        self.remember_loaded(&inner);
        Ok(BotModule { sandbox: self.clone(), inner, payload: None, stop_at: None })
    }

    /// The module loaded before from the bytes of SHA-256 `sha`, if it is still kept.
    fn loaded(&self, sha: &[u8; 32]) -> Option<Arc<Inner>> {
        let mut loaded = self.shared.loaded.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let at = loaded.iter().position(|inner| inner.sha == *sha)?;
        let inner = loaded.remove(at)?;
        // A failed `botlens_prepare` may have been the wall-clock backstop's doing: loading
        // again prepares again.
        if inner.prepare_failed.load(Ordering::Relaxed) {
            return None;
        }
        loaded.push_back(Arc::clone(&inner));
        Some(inner)
    }

    /// Keeps `inner` as the newest loaded module, forgetting the oldest past
    /// [`KEPT_LOADED_MODULES`].
    fn remember_loaded(&self, inner: &Arc<Inner>) {
        let mut loaded = self.shared.loaded.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if loaded.len() == KEPT_LOADED_MODULES {
            loaded.pop_front();
        }
        loaded.push_back(Arc::clone(inner));
    }

    /// Loads a bot from a `.wasm` (or `.wat`) file; see [`Sandbox::load`].
    pub fn load_file(&self, path: impl AsRef<Path>) -> Result<BotModule, LoadError> {
        let path = path.as_ref();
        let read = |source| LoadError::Read { path: path.to_owned(), source };
        let mut bytes = Vec::new();
        // One byte past the limit is enough to refuse a file that is too large.
        let file = std::fs::File::open(path).map_err(read)?;
        file.take(shape::MAX_MODULE_BYTES + 1).read_to_end(&mut bytes).map_err(read)?;
        self.load(&bytes)
    }

    /// The module compiled by `engine`: from memory, from disk, or checked against the limits
    /// on its shape and compiled now (and cached).
    fn compile(
        &self,
        engine: &Engine,
        sha: &[u8; 32],
        binary: &Arc<[u8]>,
    ) -> Result<Module, LoadError> {
        let modules = &self.shared.modules;
        if let Some(module) = modules.cached(engine, sha) {
            return Ok(module);
        }
        let disk_entry = self.shared.disk.as_ref().map(|disk| (disk, disk.entry(sha, engine)));
        let from_disk = disk_entry.as_ref().and_then(|(disk, entry)| disk.load(entry, engine));
        let module = match from_disk {
            Some(module) => module,
            None => {
                shape::check(binary)?;
                let module = compile_within(engine, binary, shape::COMPILE_DEADLINE)?;
                if let Some((disk, entry)) = &disk_entry {
                    disk.store(entry, &module);
                }
                module
            }
        };
        modules.remember(*sha, &module);
        Ok(module)
    }
}

/// Compiles `binary` on a helper thread, giving up after `deadline` (the thread then finishes
/// its work in the background and its result is dropped: Cranelift cannot be interrupted).
fn compile_within(
    engine: &Engine,
    binary: &Arc<[u8]>,
    deadline: Duration,
) -> Result<Module, LoadError> {
    let (send, receive) = sync_channel(1);
    let (engine, binary) = (engine.clone(), Arc::clone(binary));
    std::thread::Builder::new()
        .name("botlens-compile".into())
        .spawn(move || {
            let _ = send.send(Module::new(&engine, &*binary));
        })
        .map_err(|error| LoadError::Invalid {
            message: format!("cannot start the compiler thread: {error}"),
        })?;
    match receive.recv_timeout(deadline) {
        Ok(compiled) => {
            // A validation error may quote the module's names (a duplicate export's).
            compiled.map_err(|error| LoadError::Invalid {
                message: text::shown(&format!("{error:#}"), text::MAX_MESSAGE_BYTES),
            })
        }
        Err(RecvTimeoutError::Timeout) => {
            Err(LoadError::CompileDeadline { seconds: deadline.as_secs_f64().ceil() as u64 })
        }
        Err(RecvTimeoutError::Disconnected) => {
            Err(LoadError::Invalid { message: "the compiler stopped without a result".into() })
        }
    }
}

/// The binary module: the bytes themselves, or the compiled form of WebAssembly text.
/// Whether `text` starts like WebAssembly text: a `(` after any whitespace and comments.
fn looks_like_wat(mut text: &str) -> bool {
    loop {
        text = text.trim_start();
        if let Some(comment) = text.strip_prefix(";;") {
            text = comment.split_once('\n').map_or("", |(_, rest)| rest);
        } else if let Some(comment) = text.strip_prefix("(;") {
            text = comment.split_once(";)").map_or("", |(_, rest)| rest);
        } else {
            return text.starts_with('(');
        }
    }
}

fn to_binary(bytes: &[u8]) -> Result<Vec<u8>, LoadError> {
    if bytes.starts_with(b"\0asm") {
        // The version field's upper half is the layer: 0 for core modules, 1 for components.
        if bytes.get(6..8) == Some(&[1, 0]) {
            return Err(LoadError::Component);
        }
        return Ok(bytes.to_vec());
    }
    let reason = match std::str::from_utf8(bytes) {
        _ if bytes.is_empty() => "the file is empty".to_string(),
        Ok(text) if looks_like_wat(text) => match wat::parse_str(text) {
            Ok(binary) => return Ok(binary),
            // The parser's message quotes names and the line it refused, however long.
            Err(error) => text::shown_lines(
                &format!("WebAssembly text that does not parse: {error}"),
                text::MAX_MESSAGE_BYTES,
            ),
        },
        _ => {
            let start = String::from_utf8_lossy(&bytes[..bytes.len().min(16)]).into_owned();
            format!(
                "it starts with {start:?}, not with the `\\0asm` header of a WebAssembly binary"
            )
        }
    };
    Err(LoadError::NotWasm { reason })
}

/// A loaded, checked and compiled bot.
///
/// Cheap to clone (a reference count), `Send` and `Sync`: share it between the threads that play
/// games. Each game gets its own [`WasmPlayer`](crate::WasmPlayer) from [`BotModule::player`], with a fresh
/// instance, so nothing survives from one game to the next.
#[derive(Clone)]
pub struct BotModule {
    /// The sandbox that loaded it, which compiles it for other stack caps.
    sandbox: Sandbox,
    inner: Arc<Inner>,
    /// What a language runner is given to run (`botlens.source`), with its SHA-256, which
    /// names the state `botlens_prepare_payload` left for it.
    payload: Option<(Arc<[u8]>, [u8; 32])>,
    /// The turn, and the bot's seat, of the games at which the debugger hook is called
    /// ([`BotModule::stopping_at`]).
    stop_at: Option<(u32, Seat)>,
}

/// What a module's bytes make, whichever load asked for it: shared by every load of the same
/// bytes in one sandbox ([`Shared::loaded`]).
struct Inner {
    sha: [u8; 32],
    /// `sha` in hex, made once: every game's trace records it.
    sha_hex: String,
    binary: Arc<[u8]>,
    encoding: Encoding,
    locator: Arc<Locator>,
    /// Whether the module is a language runner (a `botlens_runner` section).
    runner: bool,
    /// Whether the module imports `botlens.draw`.
    draws: bool,
    /// Whether the module is a runner that states its script's frames at a profile's samples
    /// (exports `botlens_sample`).
    samples_script: bool,
    compiled: Mutex<Vec<Compiled>>,
    /// The states `botlens_prepare_payload` left for the last payloads, newest last.
    payload_snapshots: Mutex<VecDeque<PayloadSnapshot>>,
    /// Whether `botlens_prepare` failed for a game type: the module is then not taken again by
    /// a later load ([`Sandbox::loaded`]).
    prepare_failed: AtomicBool,
}

/// How many payloads' prepared states a module keeps: a language server's bot changes payload
/// with every edit, and each state holds what preparing the payload changed.
const KEPT_PAYLOAD_SNAPSHOTS: usize = 8;

/// The state `botlens_prepare_payload` left for one payload, game type and stack cap, or `None`
/// when it failed (the games then start from `botlens_prepare`'s state).
struct PayloadSnapshot {
    game: TypeId,
    stack_bytes: u64,
    payload_sha: [u8; 32],
    snapshot: Option<Arc<Snapshot>>,
}

/// The module compiled for one stack cap, with its instantiation recipe per game type.
struct Compiled {
    stack_bytes: u64,
    module: Module,
    /// A [`Recipe<G>`] (or why there is none) per game type `G`.
    recipes: Vec<(TypeId, Box<dyn Any + Send + Sync>)>,
}

impl std::fmt::Debug for BotModule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BotModule").field("sha256", &self.sha256()).finish_non_exhaustive()
    }
}

impl BotModule {
    /// The SHA-256 of the bytes the module was loaded from, in lower-case hex (recorded in
    /// traces as `module_sha256`).
    pub fn sha256(&self) -> &str {
        &self.inner.sha_hex
    }

    /// The encoding of the bot's messages, as its module declares (`docs/abi.md`).
    pub fn encoding(&self) -> Encoding {
        self.inner.encoding
    }

    /// Whether the module is a language runner: it declares a `botlens_runner` section, and
    /// the bot is the source it is given with [`BotModule::with_payload`] (`docs/abi.md`).
    pub fn is_runner(&self) -> bool {
        self.inner.runner
    }

    /// Whether the module is a language runner whose profile is of its script: at each sample it
    /// states the script's frames (`botlens_sample`, docs/abi.md), so
    /// [`WasmPlayer::profiled`](crate::WasmPlayer::profiled) gives the script's functions and
    /// lines, not the interpreter's. The Python runner does; the JavaScript runner does not.
    pub fn profiles_script(&self) -> bool {
        self.inner.samples_script
    }

    /// Whether the module imports `botlens.draw`: only such a bot draws marks, so only its games
    /// are worth playing again to record them ([`WasmPlayer::drawing`](crate::WasmPlayer::drawing)).
    pub fn draws(&self) -> bool {
        self.inner.draws
    }

    /// The same compiled module, given `payload` to run: the bytes `botlens.source` copies into
    /// every game's instance (a JavaScript bot's source for the JavaScript runner). Cheap: the
    /// module is compiled once and shared by every payload.
    pub fn with_payload(&self, payload: impl Into<Arc<[u8]>>) -> BotModule {
        let payload: Arc<[u8]> = payload.into();
        let sha = sha256(&payload);
        BotModule { payload: Some((payload, sha)), ..self.clone() }
    }

    /// The same module, calling the debugger hook `botlens_turn_begins` (an `extern "C"`
    /// function of the host process, never inlined) as the `turn`-th turn of this bot begins
    /// (the first turn is 1) in each game it plays in `seat`, so a debugger that breaks there
    /// stops the process at that turn; a game the debugger asks to be played again ([`crate::replay_asked`]) ends at the
    /// next turn. Meant for a [`Sandbox::for_debugger`] module; the hook does nothing by
    /// itself.
    pub fn stopping_at(&self, turn: u32, seat: Seat) -> BotModule {
        BotModule { stop_at: Some((turn, seat)), ..self.clone() }
    }

    /// Whether the module's DWARF describes variables (built with `debug = true` or
    /// `debug = "full"`), so a debugger can print the bot's locals; line tables alone (botlens's
    /// default build) say where code is but not what is in it.
    pub fn has_variable_info(&self) -> bool {
        crate::dwarf::has_variables(&self.inner.binary)
    }

    /// As the bot's turn `number` (1 for its first) begins in `seat`, `turn` its game: at the
    /// turn and seat it stops at ([`BotModule::stopping_at`]), the debugger hook, with the board and view kept
    /// for the debugger's `board` command. A game the debugger asked to be played again
    /// ([`crate::replay_asked`]) ends here, failed, so the next can begin.
    pub(crate) fn turn_begins<G: Game>(
        &self,
        number: u32,
        seat: Seat,
        turn: &botlens_engine::Turn<G>,
    ) -> Result<(), Failure> {
        let Some(stop_at) = self.stop_at else { return Ok(()) };
        if (number, seat) == stop_at && !crate::debugger::replay_pending() {
            let mut message = Vec::new();
            turn.write_view(Encoding::Json, &mut message);
            crate::debugger::stop(number, &G::render_view(&turn.view()), &message);
        }
        if crate::debugger::replay_pending() {
            return Err(Failure::new(
                FailureKind::Timeout,
                "stopped by the debugger, to be played again to another turn",
            ));
        }
        Ok(())
    }

    /// The payload given with [`BotModule::with_payload`].
    pub fn payload(&self) -> Option<&Arc<[u8]>> {
        self.payload.as_ref().map(|(payload, _)| payload)
    }

    /// Finds the bot's source lines.
    pub(crate) fn locator(&self) -> &Arc<Locator> {
        &self.inner.locator
    }

    /// The instantiation recipe for game `G` with a stack cap, made once.
    pub(crate) fn recipe<G: Game>(&self, stack_bytes: u64) -> Result<Recipe<G>, Failure> {
        let bad = |message: String| Failure::new(FailureKind::BadModule, message);
        let inner = &self.inner;
        let mut compiled = inner.compiled.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let at = match compiled.iter().position(|c| c.stack_bytes == stack_bytes) {
            Some(at) => at,
            None => {
                let engine =
                    self.sandbox.engine(stack_bytes).map_err(|error| bad(error.to_string()))?;
                let module = self
                    .sandbox
                    .compile(&engine, &inner.sha, &inner.binary)
                    .map_err(|error| bad(error.to_string()))?;
                compiled.push(Compiled { stack_bytes, module, recipes: Vec::new() });
                compiled.len() - 1
            }
        };
        let entry = &mut compiled[at];
        let key = TypeId::of::<G>();
        if let Some((_, recipe)) = entry.recipes.iter().find(|(id, _)| *id == key) {
            let recipe = recipe
                .downcast_ref::<Result<Recipe<G>, Failure>>()
                .expect("stored under its own TypeId");
            return recipe.clone();
        }
        let pre = linker::<G>(entry.module.engine())
            .and_then(|linker| linker.instantiate_pre(&entry.module))
            .map_err(|error| bad(format!("cannot link the module: {error:#}")))?;
        let exports = Exports::of(&entry.module)
            .ok_or_else(|| bad("a required export is missing (see docs/abi.md)".into()))?;
        // Once per module and game type, and kept either way: a module that fails to prepare
        // fails every game without preparing again.
        let snapshot = exports
            .prepare
            .map(|prepare| {
                let calls = PrepareExports {
                    memory: exports.memory,
                    initialize: exports.initialize,
                    prepare,
                };
                crate::snapshot::prepare(&pre, &calls, inner.encoding, &inner.locator, inner.runner)
            })
            .transpose();
        if snapshot.is_err() {
            inner.prepare_failed.store(true, Ordering::Relaxed);
        }
        let recipe =
            snapshot.map(|snapshot| Recipe { pre, exports, snapshot, payload_snapshot: None });
        entry.recipes.push((key, Box::new(recipe.clone())));
        recipe
    }

    /// `recipe` with the state `botlens_prepare_payload` leaves for the bot's payload, when the
    /// module has it: made once per payload (the last [`KEPT_PAYLOAD_SNAPSHOTS`] kept), and left
    /// out when it fails, so that the games start from `botlens_prepare`'s state and meet there
    /// whatever is wrong with the payload.
    pub(crate) fn payload_recipe<G: Game>(
        &self,
        mut recipe: Recipe<G>,
        stack_bytes: u64,
    ) -> Recipe<G> {
        let (Some((payload, payload_sha)), Some(export), Some(base)) =
            (&self.payload, recipe.exports.prepare_payload, &recipe.snapshot)
        else {
            return recipe;
        };
        let game = TypeId::of::<G>();
        let inner = &self.inner;
        let mut kept =
            inner.payload_snapshots.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let found = kept.iter().find(|kept| {
            kept.game == game && kept.stack_bytes == stack_bytes && kept.payload_sha == *payload_sha
        });
        let snapshot = match found {
            Some(kept) => kept.snapshot.clone(),
            None => {
                let preparing = crate::snapshot::PayloadPreparing {
                    memory: recipe.exports.memory,
                    prepare_payload: export,
                    base,
                    payload,
                };
                let snapshot = crate::snapshot::prepare_payload(
                    &recipe.pre,
                    &preparing,
                    inner.encoding,
                    &inner.locator,
                    inner.runner,
                )
                .ok();
                if kept.len() == KEPT_PAYLOAD_SNAPSHOTS {
                    kept.pop_front();
                }
                kept.push_back(PayloadSnapshot {
                    game,
                    stack_bytes,
                    payload_sha: *payload_sha,
                    snapshot: snapshot.clone(),
                });
                snapshot
            }
        };
        recipe.payload_snapshot = snapshot;
        recipe
    }
}

/// How to start the bot in a game of `G`: its pre-linked instance and where its exports are.
#[derive(Clone)]
pub(crate) struct Recipe<G: Game> {
    /// The module linked to the host functions, ready to instantiate.
    pub pre: InstancePre<Host<G>>,
    /// The exports a game calls.
    pub exports: Exports,
    /// What `botlens_prepare` left, which every game starts from, if the module has it.
    pub snapshot: Option<Arc<Snapshot>>,
    /// What `botlens_prepare_payload` changed of that for the bot's payload, written over it,
    /// if the module has it and it succeeded ([`BotModule::payload_recipe`]).
    pub payload_snapshot: Option<Arc<Snapshot>>,
}

/// The exports a game uses, found by name once per module instead of once per game.
#[derive(Clone, Copy)]
pub(crate) struct Exports {
    /// `memory`.
    pub memory: ModuleExport,
    /// `_initialize`, when the module has one.
    pub initialize: Option<ModuleExport>,
    /// `botlens_new`.
    pub new: ModuleExport,
    /// `botlens_play`.
    pub play: ModuleExport,
    /// `botlens_prepare`, when the module has one.
    pub prepare: Option<ModuleExport>,
    /// `botlens_prepare_payload`, when the module has one.
    pub prepare_payload: Option<ModuleExport>,
    /// `botlens_where`, when the module (a runner) has one.
    pub whereabouts: Option<ModuleExport>,
    /// `botlens_sample`, when the module (a runner) has one.
    pub sample: Option<ModuleExport>,
}

impl Exports {
    /// The exports of `module`; `None` if a required one is missing (which loading refuses).
    pub fn of(module: &Module) -> Option<Exports> {
        Some(Exports {
            memory: module.get_export_index("memory")?,
            initialize: module.get_export_index(abi::INITIALIZE.0),
            new: module.get_export_index(abi::NEW.0)?,
            play: module.get_export_index(abi::PLAY.0)?,
            prepare: module.get_export_index(abi::PREPARE.0),
            prepare_payload: module.get_export_index(abi::PREPARE_PAYLOAD.0),
            whereabouts: module.get_export_index(abi::WHERE.0),
            sample: module.get_export_index(abi::SAMPLE.0),
        })
    }
}

/// The imports every bot of game `G` may use: `botlens.*` and WASI preview 1.
fn linker<G: Game>(engine: &Engine) -> wasmtime::Result<Linker<Host<G>>> {
    let mut linker = Linker::new(engine);
    host::add_to_linker(&mut linker)?;
    draw::add_to_linker(&mut linker)?;
    wasi::add_to_linker(&mut linker)?;
    Ok(linker)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sig::{Sig, Ty};
    use botlens_tictactoe::TicTacToe;

    fn func_wat(sig: Sig) -> String {
        let types =
            |tys: &[Ty]| tys.iter().map(|t| format!(" {t:?}").to_lowercase()).collect::<String>();
        format!("(func (param{}) (result{}))", types(sig.params), types(sig.results))
    }

    #[test]
    fn text_is_recognised_after_comments_and_whitespace() {
        assert!(looks_like_wat("(module)"));
        assert!(looks_like_wat("  ;; a bot\n;; by hand\n\n(module)"));
        assert!(looks_like_wat("(; block ;) (module)"));
        assert!(!looks_like_wat(";; only a comment"));
        assert!(!looks_like_wat("(; unterminated"));
        assert!(!looks_like_wat("#!/bin/sh"));
        assert_eq!(to_binary(b";; hi\n(module)").unwrap(), wat::parse_str("(module)").unwrap());
    }

    #[test]
    fn compiling_past_the_deadline_fails_loading_with_the_deadline_named() {
        let stack_bytes = SandboxLimits::default().stack_bytes;
        let engine = engines::engine(engines::Key { stack_bytes, debugger: false }).unwrap();
        let many: Arc<[u8]> =
            wat::parse_str(format!("(module {})", "(func)".repeat(5_000))).unwrap().into();
        let error = compile_within(&engine, &many, Duration::from_millis(1)).unwrap_err();
        assert!(matches!(error, LoadError::CompileDeadline { seconds: 1 }), "{error}");
        assert_eq!(
            error.to_string(),
            "compiling the module took longer than botlens's compile deadline of 1 s (see docs/abi.md)"
        );
        assert!(compile_within(&engine, &many, Duration::from_secs(60)).is_ok());
    }

    /// A module that loads (the exports docs/abi.md requires), `fields` added; `tag` written into
    /// its memory, so that each tag is other bytes.
    fn tagged_bot(tag: &str, fields: &str) -> Vec<u8> {
        format!(
            r#"(module
  (memory (export "memory") 1)
  (@custom "botlens_abi" "1")
  (data (i32.const 0) "{tag}")
  (func (export "botlens_new") (param i32))
  (func (export "botlens_play"))
  {fields})"#
        )
        .into_bytes()
    }

    #[test]
    fn loading_the_same_bytes_again_takes_the_module_as_it_was_until_others_pushed_it_out() {
        let sandbox = Sandbox::new(SandboxConfig { cache_dir: None }).unwrap();
        let load = |tag: &str| sandbox.load(&tagged_bot(tag, "")).unwrap();
        let first = load("first");
        assert!(Arc::ptr_eq(&first.inner, &load("first").inner));
        assert!(!Arc::ptr_eq(&first.inner, &load("second").inner));
        for other in 0..KEPT_LOADED_MODULES {
            load(&other.to_string());
        }
        assert!(!Arc::ptr_eq(&first.inner, &load("first").inner), "pushed out by as many others");
    }

    #[test]
    fn a_prepared_module_is_taken_again_and_one_whose_botlens_prepare_failed_is_prepared_anew() {
        let sandbox = Sandbox::new(SandboxConfig { cache_dir: None }).unwrap();
        let stack_bytes = SandboxLimits::default().stack_bytes;
        for (prepare, prepares) in [("nop", true), ("unreachable", false)] {
            let bot =
                tagged_bot(prepare, &format!(r#"(func (export "botlens_prepare") {prepare})"#));
            let first = sandbox.load(&bot).unwrap();
            let recipe = first.recipe::<TicTacToe>(stack_bytes);
            assert_eq!(recipe.is_ok(), prepares, "{prepare}");
            let again = sandbox.load(&bot).unwrap();
            assert_eq!(Arc::ptr_eq(&first.inner, &again.inner), prepares, "{prepare}");
        }
    }

    #[test]
    fn every_allowed_import_links_with_its_documented_signature() {
        let engine = Engine::default();
        let host = abi::HOST_FUNCTIONS.iter().map(|(name, sig)| (abi::HOST_MODULE, *name, *sig));
        let wasi = wasi::TABLE.iter().map(|(name, sig, _)| (wasi::MODULE, *name, *sig));
        let imports: String = host
            .chain(wasi)
            .map(|(module, name, sig)| {
                format!("(import \"{module}\" \"{name}\" {})\n", func_wat(sig))
            })
            .collect();
        let module = Module::new(&engine, format!("(module {imports})")).unwrap();
        assert_eq!(module.imports().len(), 10 + 46);
        imports::check_imports(&module).unwrap();
        linker::<TicTacToe>(&engine).unwrap().instantiate_pre(&module).unwrap();
    }
}
