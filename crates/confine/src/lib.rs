//! The one road every external program botlens starts takes: cargo, rustup, clang, zig, node
//! and npm, git, gdb and lldb alike.
//!
//! A [`Confined`] program sees the files it is given and nothing else, has no network unless
//! it is given one, is bounded in time, memory, processes and output, runs in its own process
//! group (an [interactive](Confined::interactive) one, a debugger, shares botlens's terminal
//! instead), and ends with the run: when it is cancelled, when its wall-clock limit passes,
//! when the [`Confined::run`] call returns, and when botlens itself dies, even by `SIGKILL`.
//!
//! ```no_run
//! use std::time::Duration;
//! use botlens_confine::{Confined, Limits};
//!
//! let project = std::path::Path::new("/home/me/bots/mine");
//! let finished = Confined::new("clang")
//!     .args(["--target=wasm32-wasi", "-c", "bot.c", "-o"])
//!     .arg(project.join("out/bot.o"))
//!     .current_dir(project)
//!     .read(project)
//!     .write(project.join("out"))
//!     .limits(Limits { wall: Duration::from_secs(60), ..Limits::default() })
//!     .run(&|| false)?;
//! assert!(finished.status.success());
//! # Ok::<(), botlens_confine::RunError>(())
//! ```
//!
//! # What confines it, on Linux
//!
//! - **Files:** Landlock (the kernel's unprivileged access control, [`support`] reports its
//!   ABI version): read and execute beneath the system's program and library directories
//!   ([`SYSTEM_READ`]) and the paths given with [`Confined::read`]; read, write and execute
//!   beneath [`Confined::write`] and a private temporary directory (`TMPDIR` and `HOME`, made
//!   for the run, 0700, removed after it, or by a later botlens if this one was killed:
//!   [`PrivateDir`]); nothing else. Symbolic links are followed to what
//!   they name, and it is that file's place that counts.
//! - **Network:** a network namespace of its own with no interface up, and Landlock's TCP rules
//!   (ABI 4 and later) refusing every `bind` and `connect`; [`Confined::network`] lifts both.
//!   Landlock also keeps it from signalling processes or reaching abstract UNIX sockets outside
//!   its own (ABI 6 and later).
//! - **Processes:** a PID namespace of its own (in a user namespace of its own when the user is
//!   not privileged; none for an interactive run), whose first process is the program: when it ends, or is killed, the kernel
//!   kills every process left in the namespace, even one that left the process group. A
//!   supervisor between botlens and the namespace dies with botlens (the kernel's parent-death
//!   signal) and takes the namespace with it.
//! - **Resources:** `setrlimit` bounds each process's CPU time, data memory, the size of the
//!   files it writes and core dumps (none), and the number of processes of the run (counted in
//!   its user namespace); the wall-clock limit and the output bound are kept by the caller's
//!   side.
//! - **Environment:** cleared: the program gets `PATH`, `HOME` and `TMPDIR` (the private
//!   directory), the proxy variables when it may reach the network, and what is given with
//!   [`Confined::env`], nothing else of botlens's own.
//!
//! Where the kernel lacks a part (no Landlock, no user namespaces), the rest still holds and
//! [`Support::warning`] says, in one sentence, what is missing and what is still enforced: a
//! front end prints it, never a silent downgrade. On other systems only the process group, the
//! limits kept on the caller's side and the cleared environment hold.
//!
//! The thread that calls [`Confined::run`] must live until the call returns (it does: the call
//! blocks it), because the kernel's parent-death signal follows the thread that started the
//! child.
//!
//! Not for: deciding what a toolchain needs (the harness's toolchains say which paths to give)
//! or running bots (they are WebAssembly, in `botlens-sandbox`).

#[cfg(target_os = "linux")]
mod linux;
mod output;

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
#[cfg(not(target_os = "linux"))]
use std::process::Stdio;
use std::process::{Child, Command, ExitStatus};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The system's directories and files every confined program may read (and execute): programs,
/// shared libraries, the dynamic loader's and OpenSSL's configuration, the kernel's views of itself
/// (`/proc`, the CPU and cgroup limits in `/sys`) and the harmless devices. Those missing on a
/// machine are skipped. `/dev/null` is also writable.
pub const SYSTEM_READ: &[&str] = &[
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/localtime",
    "/etc/ssl/openssl.cnf",
    "/proc",
    "/sys/devices/system/cpu",
    "/sys/fs/cgroup",
    "/dev/null",
    "/dev/zero",
    "/dev/urandom",
    "/dev/random",
];

/// What a run given the network ([`Confined::network`]) may also read: name resolution's and
/// TLS's configuration and certificates.
pub const NETWORK_READ: &[&str] = &[
    "/etc/resolv.conf",
    "/etc/hosts",
    "/etc/host.conf",
    "/etc/nsswitch.conf",
    "/etc/gai.conf",
    "/etc/services",
    "/etc/protocols",
    "/etc/ssl/certs",
    "/etc/ca-certificates",
    "/etc/pki",
];

/// The variables of botlens's environment a run given the network keeps: the certificates to
/// trust (a run may also read the file or directory each names) and the proxy to reach it
/// through.
pub const NETWORK_ENV: &[&str] = &[
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "NODE_EXTRA_CA_CERTS",
    "CURL_CA_BUNDLE",
    "CARGO_HTTP_CAINFO",
    "GIT_SSL_CAINFO",
    "REQUESTS_CA_BUNDLE",
    "http_proxy",
    "https_proxy",
    "no_proxy",
    "all_proxy",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
    "ALL_PROXY",
];

/// The bounds of a run. Each has a default fit for building a bot; the caller may lower or
/// raise them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// How long the whole run may take, by the wall clock; by default ten minutes.
    pub wall: Duration,
    /// CPU time of each process; by default ten minutes.
    pub cpu: Duration,
    /// Data memory of each process (heap and private writable mappings, `RLIMIT_DATA`); by
    /// default 4 GiB.
    pub memory: u64,
    /// Processes and threads of the run at once; by default 512.
    pub processes: u64,
    /// The largest file a process may write; by default 1 GiB.
    pub file_size: u64,
    /// Bytes kept of each of standard output and standard error (the rest is read and
    /// dropped, [`Finished::truncated`]); by default 16 MiB.
    pub output: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            wall: Duration::from_secs(600),
            cpu: Duration::from_secs(600),
            memory: 4 << 30,
            processes: 512,
            file_size: 1 << 30,
            output: 16 << 20,
        }
    }
}

/// A program to run confined: what it is given, then [`Confined::run`].
#[derive(Debug, Clone)]
pub struct Confined {
    program: OsString,
    args: Vec<OsString>,
    env: Vec<(OsString, OsString)>,
    path: Option<OsString>,
    dir: Option<PathBuf>,
    read: Vec<PathBuf>,
    write: Vec<PathBuf>,
    network: bool,
    interactive: bool,
    limits: Limits,
}

/// A run that ended by itself.
#[derive(Debug, Clone)]
pub struct Finished {
    /// How it ended.
    pub status: ExitStatus,
    /// What it wrote to standard output, up to [`Limits::output`].
    pub stdout: Vec<u8>,
    /// What it wrote to standard error, up to [`Limits::output`].
    pub stderr: Vec<u8>,
    /// Whether either stream was longer than [`Limits::output`].
    pub truncated: bool,
    /// How long it took.
    pub duration: Duration,
}

impl Finished {
    /// Standard error then standard output, as text (invalid UTF-8 replaced).
    pub fn text(&self) -> String {
        let mut text = String::from_utf8_lossy(&self.stderr).into_owned();
        text.push_str(&String::from_utf8_lossy(&self.stdout));
        text
    }
}

/// Why a run did not end by itself.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The program is not on `PATH` (or the path given names no file).
    #[error("{program} is not installed (not found on PATH)")]
    NotFound {
        /// The program as named.
        program: String,
    },
    /// The program could not be started, or its confinement could not be set up.
    #[error("cannot start {program}: {source}")]
    Spawn {
        /// The program as named.
        program: String,
        /// What the system said.
        source: io::Error,
    },
    /// The run took longer than [`Limits::wall`]; it and everything it started were stopped.
    #[error("{program} took longer than {} s and was stopped with everything it started", .limit.as_secs())]
    TimedOut {
        /// The program as named.
        program: String,
        /// The limit.
        limit: Duration,
    },
    /// The caller cancelled the run; it and everything it started were stopped.
    #[error("{program} was stopped: the run was cancelled")]
    Cancelled {
        /// The program as named.
        program: String,
    },
}

impl Confined {
    /// The program `program`: a name looked up on `PATH` (the one given with
    /// [`Confined::search_path`], else botlens's), or a path.
    pub fn new(program: impl AsRef<OsStr>) -> Confined {
        Confined {
            program: program.as_ref().to_owned(),
            args: Vec::new(),
            env: Vec::new(),
            path: None,
            dir: None,
            read: Vec::new(),
            write: Vec::new(),
            network: false,
            interactive: false,
            limits: Limits::default(),
        }
    }

    /// Adds an argument.
    pub fn arg(&mut self, arg: impl AsRef<OsStr>) -> &mut Confined {
        self.args.push(arg.as_ref().to_owned());
        self
    }

    /// Adds arguments.
    pub fn args<I, S>(&mut self, args: I) -> &mut Confined
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.args.extend(args.into_iter().map(|arg| arg.as_ref().to_owned()));
        self
    }

    /// Sets an environment variable of the program (nothing of botlens's own environment
    /// passes but `PATH`).
    pub fn env(&mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> &mut Confined {
        self.env.push((key.as_ref().to_owned(), value.as_ref().to_owned()));
        self
    }

    /// The `PATH` the program is looked up on and runs with; by default botlens's.
    pub fn search_path(&mut self, path: impl AsRef<OsStr>) -> &mut Confined {
        self.path = Some(path.as_ref().to_owned());
        self
    }

    /// The directory it runs in (which it may read only if given with [`Confined::read`] or
    /// [`Confined::write`]); by default its private temporary directory.
    pub fn current_dir(&mut self, dir: impl AsRef<Path>) -> &mut Confined {
        self.dir = Some(absolute(dir.as_ref()));
        self
    }

    /// Lets it read (and execute) the file or directory tree `path` (a relative path is
    /// botlens's, not the program's: it runs elsewhere).
    pub fn read(&mut self, path: impl AsRef<Path>) -> &mut Confined {
        self.read.push(absolute(path.as_ref()));
        self
    }

    /// Lets it read, write, create, remove and execute beneath `path` (created if missing; a
    /// relative path is botlens's).
    pub fn write(&mut self, path: impl AsRef<Path>) -> &mut Confined {
        self.write.push(absolute(path.as_ref()));
        self
    }

    /// Lets it reach the network (fetching dependencies), read [`NETWORK_READ`] and keep the
    /// proxy variables of [`NETWORK_ENV`]; by default it cannot.
    pub fn network(&mut self, allowed: bool) -> &mut Confined {
        self.network = allowed;
        self
    }

    /// Makes it a program the user talks with at botlens's terminal (a debugger): it gets
    /// botlens's standard input, output and error (nothing is captured: [`Finished`]'s streams
    /// are empty), stays in botlens's process group so that it may read the terminal, and has
    /// no PID namespace of its own, because a debugger reads `/proc/PID` of the process it
    /// debugs and the system's `/proc` knows processes by their PIDs outside such a namespace.
    /// While it runs, botlens ignores `SIGINT` and `SIGQUIT` (Ctrl-C at the terminal is the
    /// program's: a debugger interrupts what it debugs with it). What it starts ends with it as
    /// the program ends it; a botlens process it starts ends with it by [`die_with_parent`].
    pub fn interactive(&mut self, interactive: bool) -> &mut Confined {
        self.interactive = interactive;
        self
    }

    /// Its bounds.
    pub fn limits(&mut self, limits: Limits) -> &mut Confined {
        self.limits = limits;
        self
    }

    /// Whether the program, an argument or a variable holds a NUL byte, which no program can be
    /// given (`Command` would pass a placeholder instead).
    fn has_nul(&self) -> bool {
        let variables = self.env.iter().flat_map(|(key, value)| [key, value]);
        let mut texts = [&self.program].into_iter().chain(&self.args).chain(variables);
        texts.any(|text| text.as_encoded_bytes().contains(&0))
    }

    /// The program's name, for messages.
    fn name(&self) -> String {
        Path::new(&self.program)
            .file_name()
            .map_or_else(|| self.program.to_string_lossy(), OsStr::to_string_lossy)
            .into_owned()
    }

    /// Runs it to its end, confined, stopping it (and everything it started) when `cancelled`
    /// says so or its wall-clock limit passes. Blocks the calling thread meanwhile.
    pub fn run(&self, cancelled: &dyn Fn() -> bool) -> Result<Finished, RunError> {
        let name = self.name();
        let spawn_error = |source| RunError::Spawn { program: name.clone(), source };
        if self.has_nul() {
            let nul = io::Error::new(io::ErrorKind::InvalidInput, "a NUL byte in a command");
            return Err(spawn_error(nul));
        }
        let path = self.path.clone().or_else(|| std::env::var_os("PATH")).unwrap_or_default();
        let program = find_program(&self.program, &path)
            .ok_or_else(|| RunError::NotFound { program: name.clone() })?;
        let private = private_dir("botlens-run-", None).map_err(spawn_error)?;
        for dir in self.write.iter().filter(|path| !path.exists()) {
            std::fs::create_dir_all(dir).map_err(spawn_error)?;
        }
        let mut command = Command::new(&program);
        command
            .args(&self.args)
            .env_clear()
            .env("PATH", &path)
            .env("HOME", private.path())
            .env("TMPDIR", private.path())
            .envs(network_env().filter(|_| self.network))
            .envs(self.env.iter().map(|(key, value)| (key, value)))
            .current_dir(self.dir.as_deref().unwrap_or(private.path()));
        #[cfg(not(target_os = "linux"))]
        if !self.interactive {
            command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
            #[cfg(unix)]
            std::os::unix::process::CommandExt::process_group(&mut command, 0);
        }
        // The terminal's Ctrl-C is an interactive program's own, for as long as it runs.
        #[cfg(target_os = "linux")]
        let _terminal = self.interactive.then(linux::TerminalSignals::ignore);
        let started = Instant::now();
        #[cfg(target_os = "linux")]
        let child = {
            let mut read = self.read.clone();
            read.push(program.clone());
            if self.network {
                read.extend(NETWORK_READ.iter().map(PathBuf::from));
                read.extend(network_env().map(|(_, value)| PathBuf::from(value)));
            }
            let mut write = self.write.clone();
            write.push(private.path().to_owned());
            let policy = linux::Policy {
                read,
                write,
                network: self.network,
                pid_namespace: !self.interactive,
                limits: self.limits,
            };
            linux::spawn(&command, &policy, self.interactive).map_err(spawn_error)?
        };
        #[cfg(target_os = "linux")]
        let (mut child, supervised) = (child.0, child.1 == linux::Isolation::Supervised);
        #[cfg(not(target_os = "linux"))]
        let (mut child, supervised) = (command.spawn().map_err(spawn_error)?, false);
        #[cfg(target_os = "linux")]
        let exit = linux::ExitWatch::of(&child);
        let mut group = Group { child: &mut child, supervised, grouped: !self.interactive };
        let streams = output::Streams::read(group.child, self.limits.output);
        let status = loop {
            if cancelled() {
                group.stop();
                return Err(RunError::Cancelled { program: name });
            }
            if started.elapsed() > self.limits.wall {
                group.stop();
                return Err(RunError::TimedOut { program: name, limit: self.limits.wall });
            }
            match group.child.try_wait() {
                Ok(Some(status)) => break status,
                #[cfg(target_os = "linux")]
                Ok(None) => exit.wait(CHECK_EVERY),
                #[cfg(not(target_os = "linux"))]
                Ok(None) => std::thread::sleep(CHECK_EVERY),
                Err(source) => return Err(spawn_error(source)),
            }
        };
        // Whatever it left in its process group ends with it.
        group.stop();
        let (stdout, stderr, truncated) = streams.finish();
        Ok(Finished { status, stdout, stderr, truncated, duration: started.elapsed() })
    }
}

impl fmt::Display for Confined {
    /// The command line, for messages: the program and its arguments.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())?;
        for arg in &self.args {
            write!(f, " {}", arg.to_string_lossy())?;
        }
        Ok(())
    }
}

/// How often a running program's cancellation and wall-clock limit are checked; its end is
/// seen at once (on Linux: on others, at the next check).
const CHECK_EVERY: Duration = Duration::from_millis(5);

/// The variables of [`NETWORK_ENV`] set in botlens's environment.
fn network_env() -> impl Iterator<Item = (&'static str, OsString)> {
    NETWORK_ENV.iter().filter_map(|name| Some((*name, std::env::var_os(name)?)))
}

/// A started run's process group, killed when dropped (an early return, a panic).
struct Group<'a> {
    /// The process botlens started: the namespaces' supervisor, or the program itself.
    child: &'a mut Child,
    /// Whether `child` supervises namespaces of the run's own.
    supervised: bool,
    /// Whether `child` heads a process group of its own.
    grouped: bool,
}

impl Group<'_> {
    /// How long a supervisor may take to end its namespace when asked.
    const GRACE: Duration = Duration::from_secs(2);

    /// Ends the run: a supervisor is asked to end its namespace and waited for (so that when
    /// this returns, no process of the namespace is left), then every process of the group is
    /// killed and the child reaped.
    fn stop(&mut self) {
        #[cfg(unix)]
        if self.supervised
            && matches!(self.child.try_wait(), Ok(None))
            && let Ok(pid) = i32::try_from(self.child.id())
        {
            // SAFETY: `kill` takes plain integers; `pid` is our unreaped child's.
            unsafe {
                libc::kill(pid, libc::SIGTERM);
            }
            let asked = Instant::now();
            while matches!(self.child.try_wait(), Ok(None)) && asked.elapsed() < Self::GRACE {
                std::thread::sleep(Duration::from_millis(2));
            }
        }
        #[cfg(unix)]
        if self.grouped
            && let Ok(pid) = i32::try_from(self.child.id())
        {
            // SAFETY: `kill` takes plain integers and touches no memory of ours; `-pid` names the
            // process group the child was put at the head of (`process_group(0)`), which only
            // the run's processes share.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Group<'_> {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            self.stop();
        }
    }
}

/// `path` made absolute against botlens's working directory (as it is when that fails).
fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_owned())
}

/// A new directory only this user may enter (0700), of an unpredictable name starting with
/// `prefix`, created exclusively in `parent` (else the system's temporary directory); removed
/// when dropped. The directories of `prefix` in `parent` that a process left behind, because
/// it was killed or exited before dropping them, are removed first (once a process, see
/// [`PrivateDir`]).
pub fn private_dir(prefix: &str, parent: Option<&Path>) -> io::Result<PrivateDir> {
    let parent = parent.map_or_else(std::env::temp_dir, Path::to_owned);
    abandoned::sweep_once(&parent, prefix);
    let mut builder = tempfile::Builder::new();
    builder.prefix(prefix);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o700));
    }
    let dir = builder.tempdir_in(&parent)?;
    let held = std::fs::File::open(dir.path())?;
    held.try_lock().map_err(|error| match error {
        std::fs::TryLockError::Error(error) => error,
        std::fs::TryLockError::WouldBlock => io::Error::from(io::ErrorKind::WouldBlock),
    })?;
    Ok(PrivateDir { dir, _held: held })
}

/// A directory made by [`private_dir`], removed when dropped. While it lives, the process holds
/// an exclusive lock on it (`flock`), which the kernel lets go of however the process ends: a
/// later botlens removes such a directory once its lock is free, even after a `SIGKILL`. One
/// younger than a minute is left alone, as the directory of a process between making it and
/// locking it.
#[derive(Debug)]
pub struct PrivateDir {
    /// Removed first, while the lock is still held.
    dir: tempfile::TempDir,
    _held: std::fs::File,
}

impl PrivateDir {
    /// Where it is.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }
}

/// Finding and removing what dead processes left of their private directories.
mod abandoned {
    use std::collections::HashSet;
    use std::path::{Path, PathBuf};
    use std::sync::Mutex;
    use std::time::{Duration, SystemTime};

    /// Below this age a directory is never taken for abandoned.
    pub(super) const YOUNGEST: Duration = Duration::from_secs(60);

    /// [`sweep`] of `parent` and `prefix`, unless this process already swept them.
    pub(super) fn sweep_once(parent: &Path, prefix: &str) {
        static SWEPT: Mutex<Option<HashSet<(PathBuf, String)>>> = Mutex::new(None);
        let key = (parent.to_owned(), prefix.to_owned());
        let first = SWEPT
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get_or_insert_with(HashSet::new)
            .insert(key);
        if first {
            sweep(parent, prefix);
        }
    }

    /// Removes each directory of `parent` named `prefix…` that this user owns, that is older
    /// than [`YOUNGEST`] and whose lock no process holds. Errors leave a directory where it is.
    pub(super) fn sweep(parent: &Path, prefix: &str) {
        let Ok(entries) = std::fs::read_dir(parent) else { return };
        let now = SystemTime::now();
        for entry in entries.filter_map(Result::ok) {
            if !entry.file_name().to_string_lossy().starts_with(prefix) {
                continue;
            }
            let path = entry.path();
            // Not followed: a link is nobody's private directory.
            let Ok(metadata) = std::fs::symlink_metadata(&path) else { continue };
            let old = metadata
                .modified()
                .ok()
                .and_then(|modified| now.duration_since(modified).ok())
                .is_some_and(|age| age >= YOUNGEST);
            if metadata.is_dir() && owned(&metadata) && old && unlocked(&path) {
                let _ = std::fs::remove_dir_all(&path);
            }
        }
    }

    /// Whether this user owns it.
    fn owned(metadata: &std::fs::Metadata) -> bool {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            // SAFETY: `geteuid` reads the process's user id and cannot fail.
            metadata.uid() == unsafe { libc::geteuid() }
        }
        #[cfg(not(unix))]
        {
            let _ = metadata;
            true
        }
    }

    /// Whether no process holds the directory's lock (taken and let go of at once).
    pub(super) fn unlocked(dir: &Path) -> bool {
        let mut open = std::fs::OpenOptions::new();
        open.read(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            open.custom_flags(libc::O_DIRECTORY | libc::O_NOFOLLOW);
        }
        open.open(dir).is_ok_and(|file| file.try_lock().is_ok())
    }
}

/// The file `program` names: itself when it holds a `/`, else the first executable file of
/// that name in a directory of `path`.
pub fn find_program(program: &OsStr, path: &OsStr) -> Option<PathBuf> {
    let named = Path::new(program);
    if named.components().count() > 1 {
        return named.is_file().then(|| named.to_owned());
    }
    std::env::split_paths(path).map(|dir| dir.join(program)).find(|file| is_executable(file))
}

fn is_executable(file: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(file).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    file.is_file()
}

/// Ends this process when the process that started it ends (the kernel's parent-death
/// signal): for a botlens process that a
/// confined program starts (the game under an interactive debugger), which would otherwise
/// outlive a debugger that botlens stopped. Does nothing on other systems than Linux.
pub fn die_with_parent() {
    #[cfg(target_os = "linux")]
    linux::die_with_starter();
}

/// What this machine's kernel gives the confinement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Support {
    /// Landlock's ABI version, when the kernel has Landlock enabled.
    pub landlock: Option<u32>,
    /// Whether runs get PID and network namespaces of their own.
    pub namespaces: bool,
}

impl Support {
    /// One sentence for the user when a part of the confinement is missing, naming what is
    /// still enforced; `None` when everything holds.
    pub fn warning(&self) -> Option<String> {
        let mut missing = Vec::new();
        match self.landlock {
            None => missing.push("Landlock (builds can read and write every file this user can)"),
            Some(abi) if abi < 4 => missing.push("Landlock's network rules (ABI 4)"),
            Some(_) => {}
        }
        if !self.namespaces {
            missing.push(
                "PID and network namespaces (a build can reach the network, and a process it \
                 moves out of its process group can outlive a botlens killed by SIGKILL)",
            );
        }
        if missing.is_empty() {
            return None;
        }
        Some(format!(
            "warning: builds are only partly confined on this machine: it lacks {}; still \
             enforced: {}the process group, CPU, memory, process and output limits, and a \
             cleared environment",
            missing.join(" and "),
            if self.landlock.is_some() { "the file-system rules, " } else { "" },
        ))
    }
}

/// What this machine's kernel gives the confinement, found out once (the first call starts a
/// short-lived process).
pub fn support() -> &'static Support {
    static SUPPORT: OnceLock<Support> = OnceLock::new();
    SUPPORT.get_or_init(|| {
        #[cfg(target_os = "linux")]
        {
            linux::support()
        }
        #[cfg(not(target_os = "linux"))]
        {
            Support { landlock: None, namespaces: false }
        }
    })
}

#[cfg(test)]
mod tests;
