//! Linux: the Landlock ruleset a run gets (made in botlens), and what the child botlens starts,
//! the helper ([`helper`]), does before it becomes the program — die with botlens, bound
//! itself, enter namespaces of its own, and restrict itself to the ruleset.
//!
//! What the namespace's first process does between `clone` and `exec` is a plain system call on
//! values prepared in advance: it shares the helper's memory meanwhile.
//!
//! Not for: the caller's side of a run (time, output, stopping: `lib.rs`).

use std::ffi::{CString, OsStr};
use std::io;
use std::os::fd::{AsFd, AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicI32, Ordering};

use landlock::{
    ABI, Access, AccessFs, AccessNet, BitFlags, Ruleset, RulesetAttr, RulesetCreatedAttr, Scope,
    path_beneath_rules,
};

use crate::{Limits, SYSTEM_READ, Support};

mod helper;

/// The newest Landlock ABI whose rights botlens asks for; an older kernel gets what it has
/// (the crate's best-effort mode), which [`support`] reports.
const ABI_ASKED: ABI = ABI::V7;

/// What a run may reach.
pub(crate) struct Policy {
    /// Read and execute beneath these (besides [`SYSTEM_READ`]).
    pub read: Vec<PathBuf>,
    /// Read, write and execute beneath these.
    pub write: Vec<PathBuf>,
    /// Whether it may reach the network.
    pub network: bool,
    /// Whether it gets a PID namespace of its own, with a supervisor ([`spawn`]).
    pub pid_namespace: bool,
    /// Its bounds.
    pub limits: Limits,
}

/// How the child ended up isolated, as it reports it to botlens (one byte on a pipe): in
/// namespaces of its own, which it supervises.
const SUPERVISED: u8 = b'n';
/// In namespaces of its own, the program itself (no PID namespace was asked for).
const ISOLATED: u8 = b'u';
/// The child got no namespaces of its own.
const NOT_ISOLATED: u8 = b'-';

/// How a started child is isolated ([`spawn`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Isolation {
    /// In namespaces of its own, PID namespace included: the child is their supervisor, which
    /// `SIGTERM` asks to end them and wait for them.
    Supervised,
    /// In user and network namespaces of its own: the child is the program.
    Namespaces,
    /// In no namespace of its own.
    None,
}

/// Starts `command` confined by `policy`, through the helper ([`helper`]); also says how the
/// child is isolated. The child is the helper, which becomes the program or, with a PID
/// namespace, stays as its supervisor. `command`'s program, arguments, variables (its
/// environment must be cleared, `env_clear`: the program gets the variables set on it and no
/// others) and working directory are taken; an `interactive` program shares botlens's standard
/// streams and process group, any other gets pipes for its output (the child's), no input and
/// a process group of its own.
pub(crate) fn spawn(
    command: &Command,
    policy: &Policy,
    interactive: bool,
) -> io::Result<(Child, Isolation)> {
    let ruleset = ruleset(policy)?;
    // SAFETY: takes no arguments and cannot fail.
    let parent = unsafe { libc::getpid() };
    let request = helper::request(command, policy, ruleset.is_some(), parent)?;
    let (ours, theirs) = socket_pair()?;
    // An interactive program's input is botlens's (nothing if botlens has none open).
    let stdin = interactive.then(|| io::stdin().as_fd().try_clone_to_owned().ok()).flatten();
    let stdin = match stdin {
        Some(stdin) => stdin,
        None => std::fs::File::open("/dev/null")?.into(),
    };
    let mut start = Command::new(helper::EXE);
    start.arg(OsStr::from_bytes(helper::ARG.to_bytes())).env_clear().stdin(Stdio::from(theirs));
    if let Some(dir) = command.get_current_dir() {
        start.current_dir(dir);
    }
    if !interactive {
        start.stdout(Stdio::piped()).stderr(Stdio::piped()).process_group(0);
    }
    let mut child = start.spawn()?;
    // Our copy of the helper's end goes, so that the report ends when the helper's copies do.
    drop(start);
    let mut descriptors = vec![stdin.as_raw_fd()];
    descriptors.extend(ruleset.as_ref().map(AsRawFd::as_raw_fd));
    let started = helper::hand_over(&ours, &request, &descriptors)
        .map_err(|error| {
            io::Error::new(error.kind(), format!("the confinement's helper did not start: {error}"))
        })
        .and_then(|()| helper::read_report(ours));
    match started {
        Ok(isolation) => Ok((child, isolation)),
        Err(error) => {
            let _ = child.kill();
            let _ = child.wait();
            Err(error)
        }
    }
}

/// The Landlock ruleset of `policy`, as a descriptor the child restricts itself with; `None`
/// when the kernel has no Landlock.
fn ruleset(policy: &Policy) -> io::Result<Option<OwnedFd>> {
    let landlock = |error: landlock::RulesetError| io::Error::other(format!("Landlock: {error}"));
    let read = AccessFs::from_read(ABI_ASKED);
    let all = AccessFs::from_all(ABI_ASKED);
    let mut ruleset = Ruleset::default().handle_access(all).map_err(landlock)?;
    if !policy.network {
        ruleset = ruleset.handle_access(AccessNet::from_all(ABI_ASKED)).map_err(landlock)?;
    }
    let scopes: BitFlags<Scope> = Scope::from_all(ABI_ASKED);
    ruleset = ruleset.scope(scopes).map_err(landlock)?;
    let system = SYSTEM_READ.iter().map(PathBuf::from);
    let readable: Vec<PathBuf> =
        system.chain(policy.read.iter().cloned()).filter(|p| exists(p)).collect();
    let mut writable: Vec<PathBuf> = policy.write.iter().filter(|p| exists(p)).cloned().collect();
    writable.push("/dev/null".into());
    let created = ruleset
        .create()
        .map_err(landlock)?
        .add_rules(path_beneath_rules(readable, read))
        .map_err(landlock)?
        .add_rules(path_beneath_rules(writable, all))
        .map_err(landlock)?;
    Ok(created.into())
}

fn exists(path: &Path) -> bool {
    std::fs::metadata(path).is_ok()
}

/// A connected pair of UNIX stream sockets whose ends close on `exec`.
fn socket_pair() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    let kind = libc::SOCK_STREAM | libc::SOCK_CLOEXEC;
    // SAFETY: `socketpair` writes two descriptors into the array it is given, which has room.
    if unsafe { libc::socketpair(libc::AF_UNIX, kind, 0, fds.as_mut_ptr()) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `socketpair` succeeded, so both are open descriptors that nothing else owns.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// The bytes of the stack the namespace's first process starts on ([`Plan::enter`]): it makes
/// a handful of system calls before `execve`.
const FIRST_STACK_BYTES: usize = 128 << 10;

/// The program's `execve` arguments, as the helper received them.
struct Exec {
    /// The program's path, then its arguments and a null pointer, pointing into `_strings`.
    argv: Vec<*const libc::c_char>,
    /// `KEY=VALUE` of each variable and a null pointer, pointing into `_strings`.
    envp: Vec<*const libc::c_char>,
    /// What the pointers point to, kept while they are used.
    _strings: Vec<CString>,
}

impl Exec {
    /// The program's path and arguments (the first `arguments` of `texts`), then its variables.
    fn of_texts(texts: Vec<CString>, arguments: usize) -> Exec {
        let pointers = |texts: &[CString]| {
            texts.iter().map(|text| text.as_ptr()).chain([std::ptr::null()]).collect::<Vec<_>>()
        };
        let argv = pointers(&texts[..arguments]);
        let envp = pointers(&texts[arguments..]);
        Exec { argv, envp, _strings: texts }
    }
}

/// What the helper does to confine itself, from botlens's request.
#[derive(Clone, Copy)]
struct Plan {
    /// The program's arguments, for the namespace's first process, which starts it itself.
    exec: *const Exec,
    /// The top of the stack that process starts on.
    stack_top: *mut u8,
    ruleset: Option<RawFd>,
    report: RawFd,
    parent: libc::pid_t,
    uid: libc::uid_t,
    gid: libc::gid_t,
    new_network: bool,
    new_pids: bool,
    limits: Limits,
}

impl Plan {
    /// Runs in the helper before `exec`: dies with botlens, bounds itself, enters
    /// namespaces of its own (starting a PID namespace's first process, which goes on to start
    /// the program, while this one stays to supervise it), takes the terminal's signals back
    /// from botlens (which ignores them while an interactive program runs), and restricts
    /// itself to the ruleset.
    ///
    /// The first process shares the helper's memory until it starts the program
    /// (`CLONE_VM | CLONE_VFORK`, on a stack of its own), so it makes only async-signal-safe
    /// calls.
    ///
    /// # Safety
    /// Only in the helper, before `exec`: it may end the process.
    unsafe fn enter(&self) -> io::Result<()> {
        // SAFETY (for the block): every call is a system call on plain integers or on buffers
        // that live on this stack for the call's length.
        unsafe {
            die_with_parent(self.parent)?;
            let seconds = self.limits.cpu.as_secs().max(1);
            set_limit(libc::RLIMIT_CPU, seconds)?;
            set_limit(libc::RLIMIT_DATA, self.limits.memory)?;
            set_limit(libc::RLIMIT_FSIZE, self.limits.file_size)?;
            set_limit(libc::RLIMIT_CORE, 0)?;
            let isolated = self.isolate();
            if isolated {
                // Counted in the new user namespace: the run's processes only.
                set_limit(libc::RLIMIT_NPROC, self.limits.processes)?;
            }
            if isolated && self.new_pids {
                let flags = libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD;
                let plan = std::ptr::from_ref(self).cast_mut().cast();
                match libc::clone(first_process, self.stack_top.cast(), flags, plan) {
                    -1 => return Err(io::Error::last_os_error()),
                    first => supervise(first),
                }
            }
            self.restrict(if isolated { ISOLATED } else { NOT_ISOLATED })
        }
    }

    /// The end of the confinement, in the process that goes on to be the program: the
    /// terminal's signals back, no new privileges, the ruleset; then `byte` is reported.
    ///
    /// # Safety
    /// Only before `exec` in a child botlens started: it makes only async-signal-safe calls.
    unsafe fn restrict(&self, byte: u8) -> io::Result<()> {
        // SAFETY (for the block): system calls on plain integers and on a byte on this stack.
        unsafe {
            for signal in TERMINAL_SIGNALS {
                libc::signal(signal, libc::SIG_DFL);
            }
            if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
                return Err(io::Error::last_os_error());
            }
            if let Some(fd) = self.ruleset
                && libc::syscall(libc::SYS_landlock_restrict_self, fd, 0) != 0
            {
                return Err(io::Error::last_os_error());
            }
            libc::write(self.report, (&raw const byte).cast(), 1);
            Ok(())
        }
    }

    /// Enters a user namespace (mapping this user to itself), a PID namespace when asked and,
    /// unless the run may reach the network, a network namespace; else, for a privileged user
    /// without user namespaces, the PID and network namespaces alone. Whether it did.
    unsafe fn isolate(&self) -> bool {
        let network = if self.new_network { libc::CLONE_NEWNET } else { 0 };
        let pids = if self.new_pids { libc::CLONE_NEWPID } else { 0 };
        // SAFETY: plain system calls; `map` writes from buffers on this stack.
        unsafe {
            if libc::unshare(libc::CLONE_NEWUSER | pids | network) == 0 {
                map(b"/proc/self/setgroups\0", b"deny", None);
                map(b"/proc/self/uid_map\0", b"", Some(self.uid));
                map(b"/proc/self/gid_map\0", b"", Some(self.gid));
                return true;
            }
            (pids | network) != 0 && libc::unshare(pids | network) == 0
        }
    }
}

/// The signals a terminal sends its foreground process group, which botlens ignores while an
/// interactive program has the terminal ([`TerminalSignals`]).
const TERMINAL_SIGNALS: [libc::c_int; 2] = [libc::SIGINT, libc::SIGQUIT];

/// botlens's own handling of [`TERMINAL_SIGNALS`], set aside while an interactive program runs
/// (they are ignored meanwhile) and put back when dropped.
pub(crate) struct TerminalSignals {
    saved: [libc::sigaction; 2],
}

impl TerminalSignals {
    /// Ignores the terminal's signals until the value is dropped.
    pub(crate) fn ignore() -> TerminalSignals {
        // SAFETY: `sigaction` reads `ignore` and writes `saved`, both on this stack.
        unsafe {
            let mut saved: [libc::sigaction; 2] = std::mem::zeroed();
            let mut ignore: libc::sigaction = std::mem::zeroed();
            ignore.sa_sigaction = libc::SIG_IGN;
            for (signal, old) in TERMINAL_SIGNALS.into_iter().zip(&mut saved) {
                libc::sigaction(signal, &ignore, old);
            }
            TerminalSignals { saved }
        }
    }
}

impl Drop for TerminalSignals {
    fn drop(&mut self) {
        for (signal, old) in TERMINAL_SIGNALS.into_iter().zip(&self.saved) {
            // SAFETY: `old` is what `sigaction` gave back for this signal.
            unsafe {
                libc::sigaction(signal, old, std::ptr::null_mut());
            }
        }
    }
}

/// A started child's end, waited for without polling: a pidfd, which the kernel makes readable
/// when the process ends (Linux 5.3 and later; without one, waiting is sleeping).
pub(crate) struct ExitWatch {
    pidfd: Option<OwnedFd>,
}

impl ExitWatch {
    /// Watches `child`, which must not have been reaped.
    pub(crate) fn of(child: &Child) -> ExitWatch {
        let pid = child.id() as libc::pid_t;
        // SAFETY: a plain system call on integers; the pid names our unreaped child, so it
        // cannot have been reused for another process. (A pidfd is always closed on `exec`.)
        let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
        let pidfd = i32::try_from(fd).ok().filter(|fd| *fd >= 0).map(|fd| {
            // SAFETY: `pidfd_open` returned a descriptor that nothing else owns.
            unsafe { OwnedFd::from_raw_fd(fd) }
        });
        ExitWatch { pidfd }
    }

    /// Returns when the child has ended or `timeout` has passed, whichever comes first.
    pub(crate) fn wait(&self, timeout: std::time::Duration) {
        let Some(pidfd) = &self.pidfd else {
            std::thread::sleep(timeout);
            return;
        };
        let mut poll = libc::pollfd { fd: pidfd.as_raw_fd(), events: libc::POLLIN, revents: 0 };
        let millis = libc::c_int::try_from(timeout.as_millis().max(1)).unwrap_or(libc::c_int::MAX);
        // SAFETY: `poll` reads and writes the one structure it is given, on this stack. An
        // interrupted or failed call only returns early: the caller checks the child again.
        unsafe {
            libc::poll(&mut poll, 1, millis);
        }
    }
}

/// Ends this process when the process that started it ends ([`crate::die_with_parent`]).
pub(crate) fn die_with_starter() {
    // SAFETY: a plain system call on integers.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
    }
}

/// Asks the kernel to kill this process when the thread that started it ends, and makes sure
/// that thread has not already ended (`parent` is the process expected as parent; 0 skips the
/// check, for a namespace's first process, whose parent is in another PID namespace).
unsafe fn die_with_parent(parent: libc::pid_t) -> io::Result<()> {
    // SAFETY: plain system calls on integers.
    unsafe {
        if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0 {
            return Err(io::Error::last_os_error());
        }
        if parent != 0 && libc::getppid() != parent {
            libc::_exit(127);
        }
    }
    Ok(())
}

/// Sets both the soft and the hard limit of `resource`.
unsafe fn set_limit(resource: libc::__rlimit_resource_t, value: u64) -> io::Result<()> {
    let limit = libc::rlimit { rlim_cur: value, rlim_max: value };
    // SAFETY: `limit` lives on this stack for the call.
    if unsafe { libc::setrlimit(resource, &limit) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Writes `text`, or `"<id> <id> 1"` for `id`, to the file `path` (NUL-terminated). Failures
/// are left to show later (a namespace without a mapping still confines).
unsafe fn map(path: &[u8], text: &[u8], id: Option<u32>) {
    let mut line = [0u8; 32];
    let bytes = match id {
        Some(id) => {
            let mut at = 0;
            for _ in 0..2 {
                at += decimal(id, &mut line[at..]);
                line[at] = b' ';
                at += 1;
            }
            line[at] = b'1';
            &line[..=at]
        }
        None => text,
    };
    // SAFETY: `path` ends with a NUL; `bytes` lives on this stack for the write.
    unsafe {
        let fd = libc::open(path.as_ptr().cast(), libc::O_WRONLY | libc::O_CLOEXEC);
        if fd >= 0 {
            libc::write(fd, bytes.as_ptr().cast(), bytes.len());
            libc::close(fd);
        }
    }
}

/// Writes `n` in decimal at the start of `out` (which has room for ten digits); its length.
fn decimal(mut n: u32, out: &mut [u8]) -> usize {
    let mut digits = [0u8; 10];
    let mut count = 0;
    loop {
        digits[count] = b'0' + (n % 10) as u8;
        count += 1;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for i in 0..count {
        out[i] = digits[count - 1 - i];
    }
    count
}

/// The PID namespace's first process, started by [`Plan::enter`] on the stack it prepared and
/// sharing the supervisor's memory (which waits meanwhile) until `execve`: dies with the
/// supervisor, finishes the confinement and starts the program; if it cannot, says so on its
/// standard error and ends with status 127.
extern "C" fn first_process(plan: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `plan` is the supervisor's `Plan`, alive while this process runs (the supervisor
    // is suspended until it calls `execve` or ends); every call below is async-signal-safe.
    unsafe {
        let plan = &*plan.cast::<Plan>().cast_const();
        let exec = &*plan.exec;
        if die_with_parent(0).is_ok() && plan.restrict(SUPERVISED).is_ok() {
            libc::execve(exec.argv[0], exec.argv.as_ptr(), exec.envp.as_ptr());
        }
        let error = *libc::__errno_location();
        let mut line = *b"botlens: cannot start the confined program: error 0000000000\n";
        let at = line.len() - 11;
        let digits = decimal(error.unsigned_abs(), &mut line[at..]);
        line[at + digits] = b'\n';
        libc::write(2, line.as_ptr().cast(), at + digits + 1);
        libc::_exit(127)
    }
}

/// The namespace's first process, as the supervisor knows it (0: none, or already reaped). A
/// static of the supervisor's own copy of memory: its signal handler reads it.
static FIRST: AtomicI32 = AtomicI32::new(0);

/// The supervisor's `SIGTERM` handler: kills the namespace's first process, and so the whole
/// namespace, which the supervisor then waits for.
extern "C" fn stop_namespace(_: libc::c_int) {
    let first = FIRST.load(Ordering::SeqCst);
    if first > 0 {
        // SAFETY: `kill` is async-signal-safe; `first` is the supervisor's child, not yet
        // reaped (it is set to 0, with this signal blocked, before the child is reaped), so its
        // pid names no other process.
        unsafe {
            libc::kill(first, libc::SIGKILL);
        }
    }
}

/// The supervisor: lets go of every descriptor but the standard three (so botlens's `spawn`
/// returns once the namespace's first process has started the program), waits for that
/// process, and ends as it ended. Asked to stop with `SIGTERM`, it kills that process and still
/// waits, so that when it has ended, everything of the namespace has ended (the kernel ends a
/// PID namespace's other processes before its first). Never returns.
unsafe fn supervise(first: libc::pid_t) -> ! {
    // SAFETY: plain system calls on integers and on structures that live on this stack.
    unsafe {
        libc::syscall(libc::SYS_close_range, 3u32, u32::MAX, 0u32);
        FIRST.store(first, Ordering::SeqCst);
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = stop_namespace as *const () as libc::sighandler_t;
        libc::sigaction(libc::SIGTERM, &action, std::ptr::null_mut());
        let mut term: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut term);
        libc::sigaddset(&mut term, libc::SIGTERM);
        libc::sigprocmask(libc::SIG_UNBLOCK, &term, std::ptr::null_mut());
        // Wait for it to end without reaping it, then forget its pid (no signal in between),
        // then reap it.
        let mut info: libc::siginfo_t = std::mem::zeroed();
        while libc::waitid(
            libc::P_PID,
            first as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOWAIT,
        ) != 0
        {
            if *libc::__errno_location() != libc::EINTR {
                libc::_exit(127);
            }
        }
        libc::sigprocmask(libc::SIG_BLOCK, &term, std::ptr::null_mut());
        FIRST.store(0, Ordering::SeqCst);
        let mut status = 0;
        libc::waitpid(first, &mut status, 0);
        if libc::WIFEXITED(status) {
            libc::_exit(libc::WEXITSTATUS(status));
        }
        let signal = libc::WTERMSIG(status);
        libc::signal(signal, libc::SIG_DFL);
        let mut all: libc::sigset_t = std::mem::zeroed();
        libc::sigfillset(&mut all);
        libc::sigprocmask(libc::SIG_UNBLOCK, &all, std::ptr::null_mut());
        libc::kill(libc::getpid(), signal);
        libc::_exit(128 + signal)
    }
}

/// What the kernel gives: Landlock's ABI, and namespaces (tried by starting `true`).
pub(crate) fn support() -> Support {
    // SAFETY: with a null attribute and size 0, the call only returns the ABI version.
    let abi = unsafe {
        libc::syscall(libc::SYS_landlock_create_ruleset, std::ptr::null::<u8>(), 0usize, 1u32)
    };
    let landlock = u32::try_from(abi).ok().filter(|abi| *abi >= 1);
    let policy = Policy {
        read: Vec::new(),
        write: Vec::new(),
        network: false,
        pid_namespace: true,
        limits: Limits::default(),
    };
    let namespaces = crate::find_program("true".as_ref(), "/usr/bin:/bin".as_ref())
        .and_then(|program| {
            let mut command = Command::new(program);
            command.env_clear();
            let (mut child, isolation) = spawn(&command, &policy, false).ok()?;
            let _ = child.wait();
            Some(isolation == Isolation::Supervised)
        })
        .unwrap_or(false);
    Support { landlock, namespaces }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exit_watch_wakes_when_the_child_ends_and_not_before() {
        let mut running = Command::new("sleep").arg("30").spawn().unwrap();
        let watch = ExitWatch::of(&running);
        assert!(watch.pidfd.is_some(), "pidfd_open: {}", io::Error::last_os_error());
        let started = std::time::Instant::now();
        watch.wait(std::time::Duration::from_millis(50));
        assert!(started.elapsed() >= std::time::Duration::from_millis(50));
        assert!(running.try_wait().unwrap().is_none());
        running.kill().unwrap();
        // Ended (not yet reaped): the wait returns long before its minute is up.
        let started = std::time::Instant::now();
        watch.wait(std::time::Duration::from_secs(60));
        assert!(started.elapsed() < std::time::Duration::from_secs(30));
        assert!(running.wait().is_ok());
    }

    #[test]
    fn numbers_are_written_in_decimal_without_allocating() {
        let mut out = [0u8; 10];
        for n in [0, 7, 10, 65534, u32::MAX] {
            let length = decimal(n, &mut out);
            assert_eq!(std::str::from_utf8(&out[..length]).unwrap(), n.to_string());
        }
    }
}
