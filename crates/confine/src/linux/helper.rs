//! The helper a confined run starts first: botlens itself, started again (`/proc/self/exe`)
//! with [`ARG`] as its only argument, which confines itself as the request botlens sends it
//! says and becomes the program (or the supervisor of the program's namespaces).
//!
//! Why not confine a `fork` of botlens, as `Command::pre_exec` does: a fork copies the page
//! tables of all the memory botlens holds (about 20 ms a start at 500 MiB resident, more for a
//! language server that grew), while a process started without a `pre_exec` closure is started
//! by `posix_spawn`, which shares botlens's memory until `exec` and copies nothing. The helper
//! is a new process of a few MiB, and it may allocate and read freely, which a fork of a
//! threaded process may not.
//!
//! The road between them is a UNIX stream socket, the helper's standard input until it has
//! read the request: botlens sends the request (the program's arguments, variables and
//! bounds) with the program's standard input and the Landlock ruleset as descriptors, and
//! reads back the helper's report ([`Isolation`]'s byte, or `E` and an `errno`) until the
//! socket closes, which it does when the program starts (the socket is closed on `exec`).
//!
//! The helper is entered from an `.init_array` constructor rather than from `main`, so that
//! every binary that links this crate (botlens, and the test binaries that start confined
//! runs) is its own helper; a process not started with [`ARG`] returns from it at once.

use std::ffi::{CStr, CString};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::process::Command;
use std::time::Duration;

use super::{Exec, FIRST_STACK_BYTES, ISOLATED, Isolation, NOT_ISOLATED, Plan, Policy, SUPERVISED};
use crate::Limits;

/// The program botlens starts as the helper: itself.
pub(super) const EXE: &str = "/proc/self/exe";

/// The helper's only argument, which makes the constructor serve instead of returning.
pub(super) const ARG: &CStr = c"--botlens-confine-helper";

/// The first bytes of a request (and its layout's version).
const MAGIC: u32 = u32::from_le_bytes(*b"BLC1");

/// The longest request the helper reads: more than `execve` accepts.
const MAX_REQUEST_BYTES: usize = 16 << 20;

/// What the report says when the helper failed: this byte, then the `errno` (4 bytes, LE).
const FAILED: u8 = b'E';

/// The fixed part of a request, before the strings: magic, length, parent, flags, CPU
/// seconds, memory, file size, processes, argument count, variable count.
const HEADER_BYTES: usize = 4 + 4 + 4 + 4 + 8 * 4 + 4 + 4;

/// Whether the program gets a network namespace of its own.
const NEW_NETWORK: u32 = 1;
/// Whether it gets a PID namespace of its own (with the helper as its supervisor).
const NEW_PIDS: u32 = 2;
/// Whether a Landlock ruleset comes with the request (the second descriptor).
const HAS_RULESET: u32 = 4;

/// The request for `command` confined by `policy`, as botlens sends it. (A NUL byte in the
/// program, an argument or a variable has been refused before: `Command` hides it.)
pub(super) fn request(
    command: &Command,
    policy: &Policy,
    has_ruleset: bool,
    parent: libc::pid_t,
) -> io::Result<Vec<u8>> {
    let mut strings: Vec<&[u8]> = vec![command.get_program().as_bytes()];
    strings.extend(command.get_args().map(OsStrExt::as_bytes));
    let arguments = strings.len();
    let variables: Vec<Vec<u8>> = command
        .get_envs()
        .filter_map(|(key, value)| Some([key.as_bytes(), b"=", value?.as_bytes()].concat()))
        .collect();
    strings.extend(variables.iter().map(Vec::as_slice));
    let flags = [
        (!policy.network, NEW_NETWORK),
        (policy.pid_namespace, NEW_PIDS),
        (has_ruleset, HAS_RULESET),
    ]
    .into_iter()
    .filter(|(on, _)| *on)
    .fold(0, |flags, (_, flag)| flags | flag);
    let length = HEADER_BYTES + strings.iter().map(|text| text.len() + 1).sum::<usize>();
    if length > MAX_REQUEST_BYTES {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "a command too long to start"));
    }
    let mut bytes = Vec::with_capacity(length);
    bytes.extend(MAGIC.to_le_bytes());
    bytes.extend((length as u32).to_le_bytes());
    bytes.extend(parent.to_le_bytes());
    bytes.extend(flags.to_le_bytes());
    let limits = policy.limits;
    for value in [limits.cpu.as_secs().max(1), limits.memory, limits.file_size, limits.processes] {
        bytes.extend(value.to_le_bytes());
    }
    bytes.extend((arguments as u32).to_le_bytes());
    bytes.extend(((strings.len() - arguments) as u32).to_le_bytes());
    for text in strings {
        bytes.extend(text);
        bytes.push(0);
    }
    Ok(bytes)
}

/// Sends `request` on `socket`, with `descriptors` (the program's standard input, then the
/// ruleset if any) attached to its first byte.
pub(super) fn hand_over(socket: &OwnedFd, request: &[u8], descriptors: &[RawFd]) -> io::Result<()> {
    let mut control = [0u8; 64];
    let fds_bytes = std::mem::size_of_val(descriptors);
    // SAFETY: CMSG_SPACE computes a size from an integer.
    let space = unsafe { libc::CMSG_SPACE(fds_bytes as u32) } as usize;
    assert!(space <= control.len(), "room for the descriptors");
    let mut iov =
        libc::iovec { iov_base: request.as_ptr().cast_mut().cast(), iov_len: request.len() };
    // SAFETY: an all-zero `msghdr` is a valid empty one.
    let mut message: libc::msghdr = unsafe { std::mem::zeroed() };
    message.msg_iov = &mut iov;
    message.msg_iovlen = 1;
    message.msg_control = control.as_mut_ptr().cast();
    message.msg_controllen = space as _;
    // SAFETY: `message` points at `control`, which has room for one header and the
    // descriptors (`space`); the header and its data are written within it.
    let sent = unsafe {
        let header = libc::CMSG_FIRSTHDR(&message);
        (*header).cmsg_level = libc::SOL_SOCKET;
        (*header).cmsg_type = libc::SCM_RIGHTS;
        (*header).cmsg_len = libc::CMSG_LEN(fds_bytes as u32) as _;
        std::ptr::copy_nonoverlapping(
            descriptors.as_ptr(),
            libc::CMSG_DATA(header).cast::<RawFd>(),
            descriptors.len(),
        );
        libc::sendmsg(socket.as_raw_fd(), &message, libc::MSG_NOSIGNAL)
    };
    let sent = usize::try_from(sent).map_err(|_| io::Error::last_os_error())?;
    io::Write::write_all(&mut *borrowed_file(socket.as_raw_fd()), &request[sent..])
}

/// Reads the helper's report to its end (the socket closes when the program starts, or the
/// helper ends): how the program is isolated, or why it was not started.
pub(super) fn read_report(socket: OwnedFd) -> io::Result<Isolation> {
    let mut report = Vec::new();
    io::Read::read_to_end(&mut std::fs::File::from(socket), &mut report)?;
    let failed = report.iter().position(|byte| *byte == FAILED);
    if let Some(at) = failed
        && let Some(errno) = report.get(at + 1..at + 5)
    {
        let errno = i32::from_le_bytes(errno.try_into().expect("four bytes"));
        return Err(io::Error::from_raw_os_error(errno));
    }
    match report.first() {
        Some(&SUPERVISED) => Ok(Isolation::Supervised),
        Some(&ISOLATED) => Ok(Isolation::Namespaces),
        Some(&NOT_ISOLATED) => Ok(Isolation::None),
        _ => Err(io::Error::other("the confinement's helper ended before it started the program")),
    }
}

/// The open descriptor `fd` as a file, for std's reading and writing, left open when dropped.
fn borrowed_file(fd: RawFd) -> std::mem::ManuallyDrop<std::fs::File> {
    // SAFETY: `fd` is open for the caller's use; `ManuallyDrop` keeps it from being closed here.
    std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(fd) })
}

/// The constructor that makes every binary linking this crate the helper when started with
/// [`ARG`]. Written out rather than taken from a crate of constructors: it is one static.
#[used]
#[unsafe(link_section = ".init_array")]
static ENTER: extern "C" fn(libc::c_int, *const *const libc::c_char, *const *const libc::c_char) =
    enter;

/// Serves the request on standard input if started as the helper (`argv` is `[_, ARG]`), and
/// then never returns; otherwise returns at once.
extern "C" fn enter(
    argc: libc::c_int,
    argv: *const *const libc::c_char,
    _envp: *const *const libc::c_char,
) {
    // SAFETY: glibc calls `.init_array` functions with the process's `argc` and `argv`, which
    // has `argc` valid strings.
    let helper = argc == 2 && unsafe { CStr::from_ptr(*argv.add(1)) } == ARG;
    if !helper {
        return;
    }
    let mut socket = 0;
    let error = serve(&mut socket);
    let errno = error.raw_os_error().unwrap_or(libc::EINVAL);
    let mut report = [FAILED, 0, 0, 0, 0];
    report[1..].copy_from_slice(&errno.to_le_bytes());
    let _ = io::Write::write_all(&mut *borrowed_file(socket), &report);
    // SAFETY: ends this process, which has nothing of its own to flush.
    unsafe { libc::_exit(127) }
}

/// Reads the request, confines this process as it says and starts the program; returns only
/// why it could not. `socket` is where the report goes (moved off standard input on the way).
fn serve(socket: &mut RawFd) -> io::Error {
    let (request, mut descriptors) = match receive(*socket) {
        Ok(received) => received,
        Err(error) => return error,
    };
    let Some(stdin) = (!descriptors.is_empty()).then(|| descriptors.remove(0)) else {
        return io::Error::other("the request came without the program's standard input");
    };
    // SAFETY: `fcntl` and `dup2` on descriptors this process holds.
    unsafe {
        let moved = libc::fcntl(*socket, libc::F_DUPFD_CLOEXEC, 3);
        if moved < 0 || libc::dup2(stdin.as_raw_fd(), 0) < 0 {
            return io::Error::last_os_error();
        }
        *socket = moved;
    }
    drop(stdin);
    let parsed = match Parsed::of(&request) {
        Some(parsed) => parsed,
        None => return io::Error::new(io::ErrorKind::InvalidData, "a malformed request"),
    };
    let ruleset = (parsed.flags & HAS_RULESET != 0).then(|| descriptors.first()).flatten();
    let exec = parsed.exec;
    let mut stack = vec![0u8; FIRST_STACK_BYTES];
    let plan = Plan {
        exec: &raw const exec,
        // The stack grows down from its end, which `clone` wants 16-byte aligned.
        stack_top: stack.as_mut_ptr().wrapping_add(FIRST_STACK_BYTES).map_addr(|end| end & !15),
        ruleset: ruleset.map(AsRawFd::as_raw_fd),
        report: *socket,
        parent: parsed.parent,
        // SAFETY: these two take no arguments and cannot fail.
        uid: unsafe { libc::geteuid() },
        gid: unsafe { libc::getegid() },
        new_network: parsed.flags & NEW_NETWORK != 0,
        new_pids: parsed.flags & NEW_PIDS != 0,
        limits: parsed.limits,
    };
    // SAFETY: `enter` makes system calls on values this process owns for its life.
    if let Err(error) = unsafe { plan.enter() } {
        return error;
    }
    // SAFETY: `argv` and `envp` are null-terminated arrays of strings `exec` owns.
    unsafe {
        libc::execve(exec.argv[0], exec.argv.as_ptr(), exec.envp.as_ptr());
    }
    io::Error::last_os_error()
}

/// Reads a whole request from `socket`, and the descriptors that came with its first byte.
fn receive(socket: RawFd) -> io::Result<(Vec<u8>, Vec<OwnedFd>)> {
    let mut request = vec![0u8; HEADER_BYTES];
    let mut control = [0u8; 64];
    let mut iov = libc::iovec { iov_base: request.as_mut_ptr().cast(), iov_len: request.len() };
    // SAFETY: an all-zero `msghdr` is a valid empty one.
    let mut message: libc::msghdr = unsafe { std::mem::zeroed() };
    message.msg_iov = &mut iov;
    message.msg_iovlen = 1;
    message.msg_control = control.as_mut_ptr().cast();
    message.msg_controllen = control.len() as _;
    // SAFETY: `message` points at `request` and `control`, which live for the call.
    let read = unsafe { libc::recvmsg(socket, &mut message, libc::MSG_CMSG_CLOEXEC) };
    let read = usize::try_from(read).map_err(|_| io::Error::last_os_error())?;
    let mut descriptors = Vec::new();
    // SAFETY: the kernel filled `control` with `msg_controllen` bytes of headers; each
    // SCM_RIGHTS header's data is descriptors it opened in this process.
    unsafe {
        let mut header = libc::CMSG_FIRSTHDR(&message);
        while !header.is_null() {
            if (*header).cmsg_level == libc::SOL_SOCKET && (*header).cmsg_type == libc::SCM_RIGHTS {
                let data = libc::CMSG_DATA(header).cast::<RawFd>();
                let count = ((*header).cmsg_len as usize - libc::CMSG_LEN(0) as usize)
                    / std::mem::size_of::<RawFd>();
                for i in 0..count {
                    descriptors.push(OwnedFd::from_raw_fd(data.add(i).read_unaligned()));
                }
            }
            header = libc::CMSG_NXTHDR(&message, header);
        }
    }
    if read < 8 {
        io::Read::read_exact(&mut *borrowed_file(socket), &mut request[read..8])?;
    }
    let length = u32::from_le_bytes(request[4..8].try_into().expect("four bytes")) as usize;
    if !(HEADER_BYTES..=MAX_REQUEST_BYTES).contains(&length) || read > length {
        return Err(io::Error::new(io::ErrorKind::InvalidData, "a request of a wrong length"));
    }
    request.resize(length, 0);
    io::Read::read_exact(&mut *borrowed_file(socket), &mut request[read.max(8)..])?;
    Ok((request, descriptors))
}

/// A request, read back.
struct Parsed {
    parent: libc::pid_t,
    flags: u32,
    limits: Limits,
    exec: Exec,
}

impl Parsed {
    /// The request in `bytes` (a whole one, [`receive`]); `None` if it is malformed.
    fn of(bytes: &[u8]) -> Option<Parsed> {
        let u32_at = |at: usize| Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?));
        let u64_at = |at: usize| Some(u64::from_le_bytes(bytes.get(at..at + 8)?.try_into().ok()?));
        if u32_at(0)? != MAGIC {
            return None;
        }
        let parent = u32_at(8)? as libc::pid_t;
        let flags = u32_at(12)?;
        let limits = Limits {
            cpu: Duration::from_secs(u64_at(16)?),
            memory: u64_at(24)?,
            file_size: u64_at(32)?,
            processes: u64_at(40)?,
            ..Limits::default()
        };
        let arguments = u32_at(48)? as usize;
        let variables = u32_at(52)? as usize;
        let texts: Vec<CString> = bytes[HEADER_BYTES..]
            .split_inclusive(|byte| *byte == 0)
            .map(|text| CStr::from_bytes_with_nul(text).ok().map(CStr::to_owned))
            .collect::<Option<_>>()?;
        if arguments == 0 || texts.len() != arguments + variables {
            return None;
        }
        Some(Parsed { parent, flags, limits, exec: Exec::of_texts(texts, arguments) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy() -> Policy {
        Policy {
            read: Vec::new(),
            write: Vec::new(),
            network: false,
            pid_namespace: true,
            limits: Limits { cpu: Duration::from_secs(7), ..Limits::default() },
        }
    }

    #[test]
    fn a_request_reads_back_as_it_was_made() {
        let mut command = Command::new("/usr/bin/env");
        command.args(["a b", ""]).env_clear().env("HOME", "/tmp/h").env("X", "1=2");
        let bytes = request(&command, &policy(), true, 4321).unwrap();
        let parsed = Parsed::of(&bytes).unwrap();
        assert_eq!(parsed.parent, 4321);
        assert_eq!(parsed.flags, NEW_NETWORK | NEW_PIDS | HAS_RULESET);
        assert_eq!(parsed.limits.cpu, Duration::from_secs(7));
        assert_eq!(parsed.limits.memory, Limits::default().memory);
        let text = |pointers: &[*const libc::c_char]| -> Vec<String> {
            let (last, texts) = pointers.split_last().unwrap();
            assert!(last.is_null());
            // SAFETY: the pointers point into `parsed.exec`'s strings, alive here.
            texts.iter().map(|p| unsafe { CStr::from_ptr(*p) }.to_str().unwrap().into()).collect()
        };
        assert_eq!(text(&parsed.exec.argv), ["/usr/bin/env", "a b", ""]);
        let mut variables = text(&parsed.exec.envp);
        variables.sort();
        assert_eq!(variables, ["HOME=/tmp/h", "X=1=2"]);
    }

    #[test]
    fn malformed_requests_are_refused() {
        let command = Command::new("/bin/true");
        let bytes = request(&command, &policy(), false, 1).unwrap();
        assert!(Parsed::of(&bytes).is_some());
        let mut wrong_magic = bytes.clone();
        wrong_magic[0] ^= 1;
        assert!(Parsed::of(&wrong_magic).is_none());
        let mut more_strings = bytes.clone();
        more_strings[52] = 3;
        assert!(Parsed::of(&more_strings).is_none());
        let mut unterminated = bytes.clone();
        unterminated.pop();
        assert!(Parsed::of(&unterminated).is_none());
        assert!(Parsed::of(&bytes[..HEADER_BYTES - 1]).is_none());
    }

    /// What botlens makes of a report made of `bytes`, the helper's end then closed.
    fn report_of(bytes: &[u8]) -> io::Result<Isolation> {
        let (ours, theirs) = super::super::socket_pair().unwrap();
        io::Write::write_all(&mut std::fs::File::from(theirs), bytes).unwrap();
        read_report(ours)
    }

    #[test]
    fn a_report_says_the_isolation_or_why_the_program_did_not_start() {
        assert_eq!(report_of(&[SUPERVISED]).unwrap(), Isolation::Supervised);
        assert_eq!(report_of(&[ISOLATED]).unwrap(), Isolation::Namespaces);
        assert_eq!(report_of(&[NOT_ISOLATED]).unwrap(), Isolation::None);
        let failed = |before: &[u8]| {
            let bytes = [before, &[FAILED], &libc::ENOEXEC.to_le_bytes()].concat();
            report_of(&bytes).unwrap_err().raw_os_error()
        };
        assert_eq!(failed(&[]), Some(libc::ENOEXEC), "before the confinement was done");
        assert_eq!(failed(&[ISOLATED]), Some(libc::ENOEXEC), "at `exec`, after it");
        for nothing_said in [&b""[..], b"?"] {
            let error = report_of(nothing_said).unwrap_err();
            assert!(error.to_string().contains("helper ended"), "{error}");
        }
    }
}
