//! A deterministic WASI preview 1 (`wasi_snapshot_preview1`) for bots.
//!
//! Hand-written rather than `wasmtime-wasi`: its preview 1 is built on the component-model
//! preview 2 implementation (pulling in the component model, async and tokio, with a `block_on`
//! per call and a `WasiCtx` plus resource table per game), and every ambient capability would
//! have to be switched off one by one. A bot needs a dozen functions with real behaviour; the
//! rest answer with a fixed error. Deterministic by construction:
//!
//! - `random_get`: bytes from `SeedRng::new(seed, Stream::BotRandom(seat))`;
//! - clocks: one nanosecond per unit of fuel burnt in the game so far, the realtime clock
//!   starting at 2024-01-01T00:00:00Z (so a bot that budgets time by the clock stops, and does so
//!   identically on every run); `poll_oneoff` clock waits return at once;
//! - stdout and stderr: captured per turn into the trace (capped); stdin: empty;
//! - no arguments, no environment, no preopened directories (every path call fails with
//!   `EBADF`), no sockets;
//! - `proc_exit` stops the bot (a `trap` failure of the game);
//! - every call costs fuel, stubs and failing calls too, plus fuel for the guest memory it
//!   touches, like the `botlens` imports.

use botlens_engine::Game;
use wasmtime::{Caller, FuncType, Linker, Val};

use crate::host::{Host, Stop, charge, charge_bytes, memory_of, region};
use crate::output::Stream;
use crate::sig::{Sig, Ty};

/// The import module name of WASI preview 1.
pub(crate) const MODULE: &str = "wasi_snapshot_preview1";

const I: Ty = Ty::I32;
const L: Ty = Ty::I64;
const ERRNO: &[Ty] = &[I];

const fn sig(params: &'static [Ty]) -> Sig {
    Sig { params, results: ERRNO }
}

/// WASI errno values used here.
mod errno {
    pub const SUCCESS: i32 = 0;
    pub const BADF: i32 = 8;
    pub const FAULT: i32 = 21;
    pub const INVAL: i32 = 28;
    pub const NOSYS: i32 = 52;
    pub const NOTSUP: i32 = 58;
}

/// How a function behaves: implemented below, or a fixed errno.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Behaviour {
    Implemented,
    Errno(i32),
}

use Behaviour::{Errno, Implemented};

/// Every WASI preview 1 function, with its signature and behaviour.
pub(crate) const TABLE: &[(&str, Sig, Behaviour)] = &[
    ("args_get", sig(&[I, I]), Errno(errno::SUCCESS)),
    ("args_sizes_get", sig(&[I, I]), Implemented),
    ("environ_get", sig(&[I, I]), Errno(errno::SUCCESS)),
    ("environ_sizes_get", sig(&[I, I]), Implemented),
    ("clock_res_get", sig(&[I, I]), Implemented),
    ("clock_time_get", sig(&[I, L, I]), Implemented),
    ("fd_advise", sig(&[I, L, L, I]), Errno(errno::BADF)),
    ("fd_allocate", sig(&[I, L, L]), Errno(errno::BADF)),
    ("fd_close", sig(&[I]), Errno(errno::BADF)),
    ("fd_datasync", sig(&[I]), Errno(errno::BADF)),
    ("fd_fdstat_get", sig(&[I, I]), Implemented),
    ("fd_fdstat_set_flags", sig(&[I, I]), Errno(errno::BADF)),
    ("fd_fdstat_set_rights", sig(&[I, L, L]), Errno(errno::BADF)),
    ("fd_filestat_get", sig(&[I, I]), Errno(errno::BADF)),
    ("fd_filestat_set_size", sig(&[I, L]), Errno(errno::BADF)),
    ("fd_filestat_set_times", sig(&[I, L, L, I]), Errno(errno::BADF)),
    ("fd_pread", sig(&[I, I, I, L, I]), Errno(errno::BADF)),
    ("fd_prestat_get", sig(&[I, I]), Errno(errno::BADF)),
    ("fd_prestat_dir_name", sig(&[I, I, I]), Errno(errno::BADF)),
    ("fd_pwrite", sig(&[I, I, I, L, I]), Errno(errno::BADF)),
    ("fd_read", sig(&[I, I, I, I]), Implemented),
    ("fd_readdir", sig(&[I, I, I, L, I]), Errno(errno::BADF)),
    ("fd_renumber", sig(&[I, I]), Errno(errno::BADF)),
    ("fd_seek", sig(&[I, L, I, I]), Errno(errno::BADF)),
    ("fd_sync", sig(&[I]), Errno(errno::BADF)),
    ("fd_tell", sig(&[I, I]), Errno(errno::BADF)),
    ("fd_write", sig(&[I, I, I, I]), Implemented),
    ("path_create_directory", sig(&[I, I, I]), Errno(errno::BADF)),
    ("path_filestat_get", sig(&[I, I, I, I, I]), Errno(errno::BADF)),
    ("path_filestat_set_times", sig(&[I, I, I, I, L, L, I]), Errno(errno::BADF)),
    ("path_link", sig(&[I, I, I, I, I, I, I]), Errno(errno::BADF)),
    ("path_open", sig(&[I, I, I, I, I, L, L, I, I]), Errno(errno::BADF)),
    ("path_readlink", sig(&[I, I, I, I, I, I]), Errno(errno::BADF)),
    ("path_remove_directory", sig(&[I, I, I]), Errno(errno::BADF)),
    ("path_rename", sig(&[I, I, I, I, I, I]), Errno(errno::BADF)),
    ("path_symlink", sig(&[I, I, I, I, I]), Errno(errno::BADF)),
    ("path_unlink_file", sig(&[I, I, I]), Errno(errno::BADF)),
    ("poll_oneoff", sig(&[I, I, I, I]), Implemented),
    ("proc_exit", Sig { params: &[I], results: &[] }, Implemented),
    ("proc_raise", sig(&[I]), Errno(errno::NOSYS)),
    ("sched_yield", sig(&[]), Errno(errno::SUCCESS)),
    ("random_get", sig(&[I, I]), Implemented),
    ("sock_accept", sig(&[I, I, I]), Errno(errno::NOTSUP)),
    ("sock_recv", sig(&[I, I, I, I, I, I]), Errno(errno::NOTSUP)),
    ("sock_send", sig(&[I, I, I, I, I]), Errno(errno::NOTSUP)),
    ("sock_shutdown", sig(&[I, I]), Errno(errno::NOTSUP)),
];

/// The signature of WASI function `name`, if it is one.
pub(crate) fn signature(name: &str) -> Option<Sig> {
    TABLE.iter().find(|(n, _, _)| *n == name).map(|(_, sig, _)| *sig)
}

/// Seconds from the Unix epoch to 2024-01-01T00:00:00Z, where the realtime clock starts.
const REALTIME_START_S: u64 = 1_704_067_200;

/// Writes `bytes` at guest address `ptr`; `false` if it does not fit in memory.
fn put(mem: &mut [u8], ptr: i32, bytes: &[u8]) -> bool {
    match region(mem.len(), ptr, bytes.len() as i32) {
        Some(range) => {
            mem[range].copy_from_slice(bytes);
            true
        }
        None => false,
    }
}

/// Reads a little-endian `u32` at `ptr`.
fn get_u32(mem: &[u8], ptr: i32) -> Option<u32> {
    let range = region(mem.len(), ptr, 4)?;
    Some(u32::from_le_bytes(mem[range].try_into().ok()?))
}

/// Runs `f` on the bot's memory and host state; `EFAULT` when `f` finds a bad pointer.
fn with_memory<G: Game>(
    caller: &mut Caller<'_, Host<G>>,
    f: impl FnOnce(&mut [u8], &mut Host<G>) -> Option<i32>,
) -> wasmtime::Result<i32> {
    let memory = memory_of(caller)?;
    let (mem, host) = memory.data_and_store_mut(caller);
    Ok(f(mem, host).unwrap_or(errno::FAULT))
}

fn zero_sizes<G: Game>(
    mut caller: Caller<'_, Host<G>>,
    count: i32,
    size: i32,
) -> wasmtime::Result<i32> {
    charge(&mut caller, 8)?;
    with_memory(&mut caller, |mem, _| {
        (put(mem, count, &[0; 4]) && put(mem, size, &[0; 4])).then_some(errno::SUCCESS)
    })
}

fn clock_res_get<G: Game>(
    mut caller: Caller<'_, Host<G>>,
    id: i32,
    out: i32,
) -> wasmtime::Result<i32> {
    charge(&mut caller, 8)?;
    if !(0..=3).contains(&id) {
        return Ok(errno::INVAL);
    }
    with_memory(&mut caller, |mem, _| put(mem, out, &1u64.to_le_bytes()).then_some(errno::SUCCESS))
}

fn clock_time_get<G: Game>(
    mut caller: Caller<'_, Host<G>>,
    id: i32,
    _precision: i64,
    out: i32,
) -> wasmtime::Result<i32> {
    charge(&mut caller, 8)?;
    let elapsed = caller.data().clock.now(&caller);
    let time = match id {
        0 => (REALTIME_START_S * 1_000_000_000).saturating_add(elapsed),
        1..=3 => elapsed,
        _ => return Ok(errno::INVAL),
    };
    with_memory(&mut caller, |mem, _| put(mem, out, &time.to_le_bytes()).then_some(errno::SUCCESS))
}

fn fd_fdstat_get<G: Game>(
    mut caller: Caller<'_, Host<G>>,
    fd: i32,
    out: i32,
) -> wasmtime::Result<i32> {
    charge(&mut caller, 24)?;
    const FD_READ: u64 = 1 << 1;
    const FD_WRITE: u64 = 1 << 6;
    const CHARACTER_DEVICE: u8 = 2;
    let rights = match fd {
        0 => FD_READ,
        1 | 2 => FD_WRITE,
        _ => return Ok(errno::BADF),
    };
    let mut stat = [0u8; 24];
    stat[0] = CHARACTER_DEVICE;
    stat[8..16].copy_from_slice(&rights.to_le_bytes());
    with_memory(&mut caller, |mem, _| put(mem, out, &stat).then_some(errno::SUCCESS))
}

fn fd_read<G: Game>(
    mut caller: Caller<'_, Host<G>>,
    fd: i32,
    _iovs: i32,
    _len: i32,
    nread: i32,
) -> wasmtime::Result<i32> {
    charge(&mut caller, 4)?;
    if fd != 0 {
        return Ok(errno::BADF);
    }
    // Standard input is empty: end of file at once.
    with_memory(&mut caller, |mem, _| put(mem, nread, &[0; 4]).then_some(errno::SUCCESS))
}

fn fd_write<G: Game>(
    mut caller: Caller<'_, Host<G>>,
    fd: i32,
    iovs: i32,
    iovs_len: i32,
    nwritten: i32,
) -> wasmtime::Result<i32> {
    charge(&mut caller, u64::from(iovs_len as u32) * 8)?;
    let stream = match fd {
        1 => Stream::Stdout,
        2 => Stream::Stderr,
        _ => return Ok(errno::BADF),
    };
    let mut written = 0;
    let errno = with_memory(&mut caller, |mem, host| {
        let mut total: u32 = 0;
        for i in 0..iovs_len as u32 {
            let entry = iovs.wrapping_add((i * 8) as i32);
            let (ptr, len) = (get_u32(mem, entry)?, get_u32(mem, entry.wrapping_add(4))?);
            let range = region(mem.len(), ptr as i32, len as i32)?;
            host.output.write(stream, &mem[range]);
            total = total.checked_add(len)?;
        }
        written = total;
        put(mem, nwritten, &total.to_le_bytes()).then_some(errno::SUCCESS)
    })?;
    charge_bytes(&mut caller, u64::from(written))?;
    Ok(errno)
}

fn poll_oneoff<G: Game>(
    mut caller: Caller<'_, Host<G>>,
    subs: i32,
    events: i32,
    count: i32,
    nevents: i32,
) -> wasmtime::Result<i32> {
    const SUBSCRIPTION: usize = 48;
    const EVENT: usize = 32;
    const CLOCK: u8 = 0;
    charge(&mut caller, u64::from(count.max(0) as u32) * (SUBSCRIPTION + EVENT) as u64)?;
    if count <= 0 {
        return Ok(errno::INVAL);
    }
    with_memory(&mut caller, |mem, _| {
        for i in 0..count as usize {
            let sub = region(
                mem.len(),
                subs.wrapping_add((i * SUBSCRIPTION) as i32),
                SUBSCRIPTION as i32,
            )?;
            let mut userdata = [0u8; 8];
            userdata.copy_from_slice(&mem[sub.start..sub.start + 8]);
            let tag = mem[sub.start + 8];
            // Clock waits are over at once (time is fuel, and waiting burns none); there are no
            // file descriptors to wait on.
            let error = if tag == CLOCK { errno::SUCCESS } else { errno::BADF } as u16;
            let mut event = [0u8; EVENT];
            event[..8].copy_from_slice(&userdata);
            event[8..10].copy_from_slice(&error.to_le_bytes());
            event[10] = tag;
            if !put(mem, events.wrapping_add((i * EVENT) as i32), &event) {
                return None;
            }
        }
        put(mem, nevents, &(count as u32).to_le_bytes()).then_some(errno::SUCCESS)
    })
}

fn proc_exit<G: Game>(mut caller: Caller<'_, Host<G>>, code: i32) -> wasmtime::Result<()> {
    charge(&mut caller, 0)?;
    Err(wasmtime::Error::new(Stop::Exit(code)))
}

fn random_get<G: Game>(
    mut caller: Caller<'_, Host<G>>,
    buf: i32,
    len: i32,
) -> wasmtime::Result<i32> {
    charge(&mut caller, u64::from(len as u32))?;
    with_memory(&mut caller, |mem, host| {
        let range = region(mem.len(), buf, len)?;
        host.rng.fill(&mut mem[range]);
        Some(errno::SUCCESS)
    })
}

/// Defines every WASI preview 1 function in `linker`.
pub(crate) fn add_to_linker<G: Game>(linker: &mut Linker<Host<G>>) -> wasmtime::Result<()> {
    linker.func_wrap(MODULE, "args_sizes_get", zero_sizes::<G>)?;
    linker.func_wrap(MODULE, "environ_sizes_get", zero_sizes::<G>)?;
    linker.func_wrap(MODULE, "clock_res_get", clock_res_get::<G>)?;
    linker.func_wrap(MODULE, "clock_time_get", clock_time_get::<G>)?;
    linker.func_wrap(MODULE, "fd_fdstat_get", fd_fdstat_get::<G>)?;
    linker.func_wrap(MODULE, "fd_read", fd_read::<G>)?;
    linker.func_wrap(MODULE, "fd_write", fd_write::<G>)?;
    linker.func_wrap(MODULE, "poll_oneoff", poll_oneoff::<G>)?;
    linker.func_wrap(MODULE, "proc_exit", proc_exit::<G>)?;
    linker.func_wrap(MODULE, "random_get", random_get::<G>)?;
    for (name, sig, behaviour) in TABLE {
        if let Errno(code) = *behaviour {
            let ty = FuncType::new(linker.engine(), sig.param_types(), sig.result_types());
            linker.func_new(
                MODULE,
                name,
                ty,
                move |mut caller, _params, results: &mut [Val]| {
                    charge(&mut caller, 0)?;
                    results[0] = Val::I32(code);
                    Ok(())
                },
            )?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_lists_each_function_once_and_every_stub_returns_an_errno() {
        let mut names: Vec<_> = TABLE.iter().map(|(n, _, _)| *n).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), TABLE.len());
        assert_eq!(TABLE.len(), 46, "WASI preview 1 has 46 functions");
        for (name, sig, behaviour) in TABLE {
            if matches!(behaviour, Errno(_)) {
                assert_eq!(sig.results, ERRNO, "{name}");
            }
        }
    }
}
