//! How busy the machine was while the bench ran, so that a noisy run shows: the load averages
//! before and after, and the share of the machine's CPU time that other processes took while
//! the bench measured (from Linux's `/proc/stat` and `/proc/self/stat`; elsewhere the figures
//! are absent).

use std::time::Instant;

use serde::{Deserialize, Serialize};

/// The machine's load over one bench run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MachineLoad {
    /// The 1-, 5- and 15-minute load averages as the bench started.
    pub load_average_before: Option<[f64; 3]>,
    /// The same as it ended.
    pub load_average_after: Option<[f64; 3]>,
    /// The share of all cores' time, 0 to 1, that processes other than the bench (and the
    /// builds it waited for) spent running while it ran: near 0 on an idle machine.
    pub others_cpu_share: Option<f64>,
}

impl MachineLoad {
    /// One line for the bench's table: the load averages and the others' share, or why they
    /// are missing.
    pub fn render(&self) -> String {
        let averages = |load: Option<[f64; 3]>| {
            load.map_or_else(
                || "unknown".to_owned(),
                |[one, five, fifteen]| format!("{one:.2} {five:.2} {fifteen:.2}"),
            )
        };
        let others = self.others_cpu_share.map_or_else(
            || "unknown".to_owned(),
            |share| {
                let busy =
                    if share >= NOISY_SHARE { " (a busy machine: figures are noisy)" } else { "" };
                format!("{:.1}% of the CPU{busy}", share * 100.0)
            },
        );
        format!(
            "machine load: load averages (1, 5, 15 min) {} before, {} after; other processes took {others}",
            averages(self.load_average_before),
            averages(self.load_average_after),
        )
    }
}

/// The others' share of the CPU from which a run is called noisy: a tenth of the machine.
const NOISY_SHARE: f64 = 0.1;

/// What is read as a run starts, to be compared as it ends.
#[derive(Debug)]
pub(crate) struct LoadWatch {
    load_average: Option<[f64; 3]>,
    ticks: Option<Ticks>,
    started: Instant,
}

/// CPU time in clock ticks: every core's busy time, and the bench's own (its waited-for
/// children included).
#[derive(Debug, Clone, Copy)]
struct Ticks {
    busy: u64,
    own: u64,
    cores: u64,
}

impl LoadWatch {
    /// Reads the machine's state now.
    pub(crate) fn start() -> LoadWatch {
        LoadWatch { load_average: load_average(), ticks: ticks(), started: Instant::now() }
    }

    /// The load over the run since [`LoadWatch::start`].
    pub(crate) fn finish(self) -> MachineLoad {
        let seconds = self.started.elapsed().as_secs_f64();
        let others = match (self.ticks, ticks()) {
            (Some(before), Some(after)) => others_share(before, after, seconds, TICKS_PER_SECOND),
            _ => None,
        };
        MachineLoad {
            load_average_before: self.load_average,
            load_average_after: load_average(),
            others_cpu_share: others,
        }
    }
}

/// The share of all cores' time that others took between two readings `seconds` apart.
fn others_share(before: Ticks, after: Ticks, seconds: f64, per_second: f64) -> Option<f64> {
    let busy = after.busy.checked_sub(before.busy)?;
    let own = after.own.checked_sub(before.own)?;
    let capacity = seconds * per_second * after.cores as f64;
    (capacity > 0.0).then(|| (busy.saturating_sub(own) as f64 / capacity).clamp(0.0, 1.0))
}

/// Clock ticks per second of `/proc`'s figures (`USER_HZ`, 100 on Linux's common builds).
const TICKS_PER_SECOND: f64 = 100.0;

fn load_average() -> Option<[f64; 3]> {
    parse_load_average(&std::fs::read_to_string("/proc/loadavg").ok()?)
}

fn parse_load_average(text: &str) -> Option<[f64; 3]> {
    let mut fields = text.split_whitespace().map(|field| field.parse::<f64>().ok());
    Some([fields.next()??, fields.next()??, fields.next()??])
}

fn ticks() -> Option<Ticks> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let own = std::fs::read_to_string("/proc/self/stat").ok()?;
    parse_ticks(&stat, &own)
}

/// Busy ticks of the `cpu` line of `/proc/stat` (all but idle and iowait; guest time is already
/// in user time), the number of `cpuN` lines, and the bench's utime, stime, cutime and cstime
/// from `/proc/self/stat` (fields 14 to 17, counted after the command's closing parenthesis,
/// which a command name may itself contain).
fn parse_ticks(stat: &str, own: &str) -> Option<Ticks> {
    let all = stat.lines().find(|line| line.starts_with("cpu "))?;
    let fields: Vec<u64> =
        all.split_whitespace().skip(1).map(|f| f.parse().ok()).collect::<Option<_>>()?;
    let (user, nice, system, irq, softirq, steal) = (
        *fields.first()?,
        *fields.get(1)?,
        *fields.get(2)?,
        *fields.get(5)?,
        *fields.get(6)?,
        fields.get(7).copied().unwrap_or(0),
    );
    let cores =
        stat.lines().filter(|line| line.starts_with("cpu") && !line.starts_with("cpu ")).count();
    let after_name = &own[own.rfind(')')? + 1..];
    // After the name: field 3 (state) is the first, so fields 14 to 17 are the 12th to 15th.
    let times: Vec<u64> = after_name
        .split_whitespace()
        .skip(11)
        .take(4)
        .map(|f| f.parse().ok())
        .collect::<Option<_>>()?;
    Some(Ticks {
        busy: user + nice + system + irq + softirq + steal,
        own: times.iter().sum(),
        cores: cores.max(1) as u64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const STAT: &str = "cpu  1000 10 500 9000 40 0 20 5 0 0\ncpu0 500 5 250 4500 20 0 10 2 0 0\ncpu1 500 5 250 4500 20 0 10 3 0 0\nintr 1\n";

    #[test]
    fn the_load_averages_are_the_first_three_fields() {
        assert_eq!(parse_load_average("0.52 1.87 2.08 1/230 4242\n"), Some([0.52, 1.87, 2.08]));
        assert_eq!(parse_load_average("0.52 x"), None);
    }

    #[test]
    fn busy_ticks_leave_out_idle_and_iowait_and_own_ticks_are_fields_14_to_17() {
        // A command name with a space and a parenthesis in it.
        let own = "42 (bot lens) x) R 1 2 3 4 5 6 7 8 9 10 70 30 15 5 20 0 1 0";
        let ticks = parse_ticks(STAT, own).unwrap();
        assert_eq!(ticks.busy, 1000 + 10 + 500 + 20 + 5);
        assert_eq!(ticks.own, 70 + 30 + 15 + 5);
        assert_eq!(ticks.cores, 2);
    }

    #[test]
    fn others_take_what_the_machine_was_busy_with_beyond_the_bench() {
        let before = Ticks { busy: 1000, own: 100, cores: 2 };
        let after = Ticks { busy: 1250, own: 300, cores: 2 };
        // 10 s on 2 cores at 100 ticks a second: 2,000 ticks; others took 250 − 200 = 50.
        assert_eq!(others_share(before, after, 10.0, 100.0), Some(0.025));
        // A counter that went back (a reading from elsewhere) gives no figure.
        assert_eq!(others_share(after, before, 10.0, 100.0), None);
    }

    #[test]
    fn the_line_says_the_load_and_calls_a_busy_machine_noisy() {
        let load = |share| MachineLoad {
            load_average_before: Some([0.05, 0.5, 1.25]),
            load_average_after: None,
            others_cpu_share: share,
        };
        assert_eq!(
            load(Some(0.004)).render(),
            "machine load: load averages (1, 5, 15 min) 0.05 0.50 1.25 before, unknown after; \
             other processes took 0.4% of the CPU"
        );
        assert!(
            load(Some(0.25))
                .render()
                .ends_with("25.0% of the CPU (a busy machine: figures are noisy)")
        );
        assert!(load(None).render().ends_with("other processes took unknown"));
    }

    #[test]
    fn a_reading_on_this_machine_is_in_range() {
        let watch = LoadWatch::start();
        let load = watch.finish();
        if cfg!(target_os = "linux") {
            assert!(load.load_average_after.is_some());
            let share = load.others_cpu_share.unwrap_or(0.0);
            assert!((0.0..=1.0).contains(&share), "{share}");
        }
    }
}
