//! The backstop of a turn (and of `botlens_prepare`): what ends guest code that fuel did not
//! stop, counted in the CPU time of the thread that runs it, so that a loaded machine, which
//! slows the wall clock's view of a turn and not its CPU time, does not change a game's verdict.
//!
//! Fuel decides first for every instruction (`crate::pricing`); the backstop is for what fuel
//! cannot count, loads that wait on memory, which take about as much CPU time on a busy machine
//! as on an idle one. The ticker's epoch deadline fires when the backstop has passed by the wall
//! clock; the callback then reads the thread's CPU time and lets the turn go on until that too
//! has passed, or until the wall clock has passed [`WALL_FACTOR`] times the backstop (a host
//! so starved of CPU that the turn barely runs).
//!
//! The thread's CPU clock is a system call (about 1.5 µs on the VM of `docs/performance.md`,
//! more than a light bot's whole turn), so a turn's backstop starts from the thread's last
//! reading when that is under [`FRESH_FOR`] old by the wall clock ([`CpuReading`]): the turn's
//! CPU time is then counted from at most that much earlier (and the coarse clock's resolution),
//! and the backstop fires at most that much sooner, never later.
//!
//! The wall clock a turn reads as it starts is the kernel's coarse monotonic clock
//! ([`coarse_now`]): it moves at the kernel's tick (4 ms on that VM) and is read in 3 ns where the
//! precise clock takes 20 ns on a VM, which was a twentieth of a light bot's turn. A backstop
//! is checked at the epoch ticks (10 ms apart) anyway, so it loses nothing it had.
//!
//! Not for: the profiler's sampling callback, which keeps a backstop of its own in the same
//! clock (`crate::profile`).

use std::cell::Cell;
use std::time::Duration;
#[cfg(any(test, not(target_os = "linux")))]
use std::time::Instant;

use wasmtime::{Store, UpdateDeadline};

use crate::engines::EPOCH_TICK;

/// How many times its backstop a turn may last by the wall clock, however little CPU time it
/// was given.
pub(crate) const WALL_FACTOR: u32 = 10;

/// How long by the wall clock a reading of the thread's CPU time serves as a turn's start.
pub(crate) const FRESH_FOR: Duration = Duration::from_millis(1);

/// The calling thread's last reading of its CPU clock: when it was read, by the coarse wall
/// clock, and what it said.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CpuReading {
    at: Duration,
    cpu: Duration,
}

impl CpuReading {
    /// The thread's CPU time at `now` (by [`coarse_now`]) or at most [`FRESH_FOR`] before it:
    /// `last` if it is that fresh, else a new reading by `read` (which replaces `last`).
    fn at_most_fresh(
        last: &Cell<Option<CpuReading>>,
        now: Duration,
        read: impl Fn() -> Duration,
    ) -> Duration {
        match last.get() {
            Some(reading) if now.saturating_sub(reading.at) < FRESH_FOR => reading.cpu,
            _ => {
                let cpu = read();
                last.set(Some(CpuReading { at: now, cpu }));
                cpu
            }
        }
    }
}

thread_local! {
    /// This thread's last reading ([`CpuReading`]).
    static LAST_READING: Cell<Option<CpuReading>> = const { Cell::new(None) };
}

/// A running turn's backstop.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Backstop {
    /// The thread's CPU time at which the turn ends.
    cpu_deadline: Duration,
    /// The time ([`coarse_now`]) at which it ends however little it ran.
    wall_deadline: Duration,
}

impl Backstop {
    /// A backstop of `limit` from now, on the calling thread (the one that runs the guest),
    /// its CPU time counted from the thread's last reading if that is fresh ([`CpuReading`]).
    pub(crate) fn start(limit: Duration) -> Backstop {
        let now = coarse_now();
        let cpu = LAST_READING.with(|last| CpuReading::at_most_fresh(last, now, thread_time));
        Backstop {
            cpu_deadline: cpu.saturating_add(limit),
            wall_deadline: now.saturating_add(limit.saturating_mul(WALL_FACTOR)),
        }
    }

    /// Epoch ticks until it may have passed, or `None` if it has passed.
    fn ticks_left(&self) -> Option<u64> {
        let cpu = self.cpu_deadline.saturating_sub(thread_time());
        let wall = self.wall_deadline.saturating_sub(coarse_now());
        if cpu.is_zero() || wall.is_zero() {
            return None;
        }
        let left = cpu.min(wall).as_nanos().div_ceil(EPOCH_TICK.as_nanos().max(1));
        Some(u64::try_from(left).unwrap_or(u64::MAX).max(1))
    }
}

/// Makes `store` end guest code at the backstop its data keeps (`backstop` finds it), checked
/// each time the epoch deadline (which the caller sets to the backstop by the wall clock)
/// passes; no backstop set ends it at once.
pub(crate) fn install<T: 'static>(store: &mut Store<T>, backstop: fn(&T) -> Option<&Backstop>) {
    store.epoch_deadline_callback(move |context| {
        let left = backstop(context.data()).and_then(Backstop::ticks_left);
        Ok(left.map_or(UpdateDeadline::Interrupt, UpdateDeadline::Continue))
    });
}

/// Epoch ticks of `limit` by the wall clock (one more than it needs, since the current tick is
/// already under way): the deadline at which a store first checks its backstop.
pub(crate) fn deadline_ticks(limit: Duration) -> u64 {
    let ticks = limit.as_nanos().div_ceil(EPOCH_TICK.as_nanos().max(1));
    u64::try_from(ticks).unwrap_or(u64::MAX - 1).saturating_add(1)
}

/// The time since an arbitrary start by the kernel's coarse monotonic clock, which moves at
/// its tick and never backwards; where there is none, by the precise clock.
#[cfg(target_os = "linux")]
pub(crate) fn coarse_now() -> Duration {
    clock(libc::CLOCK_MONOTONIC_COARSE)
}

/// See the Linux version.
#[cfg(not(target_os = "linux"))]
pub(crate) fn coarse_now() -> Duration {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

/// The CPU time of the calling thread; where there is no such clock, the time since the first
/// call.
#[cfg(unix)]
pub(crate) fn thread_time() -> Duration {
    clock(libc::CLOCK_THREAD_CPUTIME_ID)
}

/// What clock `id` says; zero if it cannot be read.
#[cfg(unix)]
fn clock(id: libc::clockid_t) -> Duration {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `now` is a valid, writable `timespec`; an unknown clock is an error, not UB.
    let status = unsafe { libc::clock_gettime(id, &mut now) };
    if status != 0 {
        return Duration::ZERO;
    }
    timespec_duration(now)
}

/// A `timespec` as a duration (a negative one as zero).
#[cfg(unix)]
fn timespec_duration(time: libc::timespec) -> Duration {
    Duration::new(u64::try_from(time.tv_sec).unwrap_or(0), u32::try_from(time.tv_nsec).unwrap_or(0))
}

/// The CPU time of the calling thread; where there is no such clock, the time since the first
/// call.
#[cfg(not(unix))]
pub(crate) fn thread_time() -> Duration {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How far [`coarse_now`] may lag behind the time.
    #[cfg(target_os = "linux")]
    fn coarse_resolution() -> Duration {
        let mut resolution = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: `resolution` is a valid, writable `timespec`, and the clock is Linux's.
        let status = unsafe { libc::clock_getres(libc::CLOCK_MONOTONIC_COARSE, &mut resolution) };
        if status != 0 {
            return EPOCH_TICK;
        }
        timespec_duration(resolution)
    }

    /// See the Linux version.
    #[cfg(not(target_os = "linux"))]
    fn coarse_resolution() -> Duration {
        Duration::ZERO
    }

    #[test]
    fn a_backstop_waits_for_the_cpu_time_of_its_thread() {
        let backstop = Backstop::start(Duration::from_millis(30));
        // Sleeping takes no CPU time: the backstop has not passed, and says how long to wait.
        std::thread::sleep(Duration::from_millis(40));
        let left = backstop.ticks_left().expect("30 ms of CPU time are still to run");
        assert!((1..=3).contains(&left), "{left} ticks of 10 ms");
        let started = Instant::now();
        while backstop.ticks_left().is_some() {
            assert!(started.elapsed() < Duration::from_secs(5), "spinning uses CPU time");
        }
    }

    #[test]
    fn a_fresh_reading_of_the_cpu_clock_serves_again_and_a_stale_one_is_read_anew() {
        let reads = Cell::new(0u32);
        let read = || {
            reads.set(reads.get() + 1);
            Duration::from_millis(u64::from(reads.get()) * 100)
        };
        let last = Cell::new(None);
        let start = Duration::from_secs(7);
        assert_eq!(CpuReading::at_most_fresh(&last, start, read), Duration::from_millis(100));
        let soon = start + FRESH_FOR / 2;
        assert_eq!(CpuReading::at_most_fresh(&last, soon, read), Duration::from_millis(100));
        assert_eq!(reads.get(), 1, "the fresh reading served");
        let later = start + FRESH_FOR;
        assert_eq!(CpuReading::at_most_fresh(&last, later, read), Duration::from_millis(200));
        assert_eq!(reads.get(), 2);
    }

    #[test]
    fn a_backstop_from_a_served_reading_is_never_later_than_from_a_new_one() {
        let limit = Duration::from_secs(10);
        let served = Backstop::start(limit);
        let exact = thread_time().saturating_add(limit);
        assert!(served.cpu_deadline <= exact);
        let early = exact - served.cpu_deadline;
        assert!(early <= FRESH_FOR + coarse_resolution(), "{early:?}");
    }

    #[test]
    fn a_starved_turn_ends_by_the_wall_clock() {
        let backstop = Backstop::start(Duration::from_millis(5));
        std::thread::sleep(Duration::from_millis(5 * u64::from(WALL_FACTOR) + 10));
        assert_eq!(backstop.ticks_left(), None, "no CPU time was spent, but the wall clock ran");
    }

    #[test]
    fn the_coarse_clock_keeps_up_with_the_time_within_its_resolution() {
        let resolution = coarse_resolution();
        assert!(resolution <= Duration::from_millis(20), "{resolution:?}");
        let (coarse, precise) = (coarse_now(), Instant::now());
        std::thread::sleep(Duration::from_millis(30));
        let (moved, passed) = (coarse_now() - coarse, precise.elapsed());
        assert!(
            moved + resolution >= passed && moved <= passed + resolution,
            "{moved:?} {passed:?}"
        );
    }

    #[test]
    fn the_first_deadline_is_the_backstop_by_the_wall_clock_and_a_tick() {
        assert_eq!(deadline_ticks(Duration::from_secs(10)), 1001);
        assert_eq!(deadline_ticks(Duration::from_millis(1)), 2);
        assert_eq!(deadline_ticks(Duration::MAX), u64::MAX);
    }
}
