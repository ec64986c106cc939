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
//! Not for: the profiler's sampling callback, which keeps a backstop of its own in the same
//! clock (`crate::profile`).

use std::time::{Duration, Instant};

use wasmtime::{Store, UpdateDeadline};

use crate::engines::EPOCH_TICK;

/// How many times its backstop a turn may last by the wall clock, however little CPU time it
/// was given.
pub(crate) const WALL_FACTOR: u32 = 10;

/// A running turn's backstop.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Backstop {
    /// The thread's CPU time at which the turn ends.
    cpu_deadline: Duration,
    /// The time at which it ends however little it ran.
    wall_deadline: Instant,
}

impl Backstop {
    /// A backstop of `limit` from now, on the calling thread (the one that runs the guest).
    pub(crate) fn start(limit: Duration) -> Backstop {
        Backstop {
            cpu_deadline: thread_time().saturating_add(limit),
            wall_deadline: Instant::now() + limit.saturating_mul(WALL_FACTOR),
        }
    }

    /// Epoch ticks until it may have passed, or `None` if it has passed.
    fn ticks_left(&self) -> Option<u64> {
        let cpu = self.cpu_deadline.saturating_sub(thread_time());
        let wall = self.wall_deadline.saturating_duration_since(Instant::now());
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

/// The CPU time of the calling thread; where there is no such clock, the time since the first
/// call.
#[cfg(unix)]
pub(crate) fn thread_time() -> Duration {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `now` is a valid, writable `timespec`, and the clock is one every Unix has.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    if status != 0 {
        return Duration::ZERO;
    }
    Duration::new(u64::try_from(now.tv_sec).unwrap_or(0), u32::try_from(now.tv_nsec).unwrap_or(0))
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
    fn a_starved_turn_ends_by_the_wall_clock() {
        let backstop = Backstop::start(Duration::from_millis(5));
        std::thread::sleep(Duration::from_millis(5 * u64::from(WALL_FACTOR) + 10));
        assert_eq!(backstop.ticks_left(), None, "no CPU time was spent, but the wall clock ran");
    }

    #[test]
    fn the_first_deadline_is_the_backstop_by_the_wall_clock_and_a_tick() {
        assert_eq!(deadline_ticks(Duration::from_secs(10)), 1001);
        assert_eq!(deadline_ticks(Duration::from_millis(1)), 2);
        assert_eq!(deadline_ticks(Duration::MAX), u64::MAX);
    }
}
