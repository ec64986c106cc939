//! `botlens compare A B --sprt … --slurm`: an SPRT whose games are the tasks of a Slurm job
//! array, stopped (and what is still queued cancelled) at its verdict; and `botlens tournament
//! … --slurm`, a round robin's games as such an array, merged once every task has finished.
//!
//! The comparison is built once, here, as `compare` builds it; the seeds the test may use (its
//! games cap) are split into shards ([`botlens_harness::shard`]) and each shard is a task of one
//! job array, at most [`SlurmOptions::in_flight`] running at once (`--array=0-(N-1)%K`). A task
//! runs this same botlens, `compare A B … --shard I/N --part DIR/parts/I.json`, on the same
//! sides as named here, from this directory, with this process's `PATH`, `HOME`, toolchain and
//! cache variables (the script sets them): the nodes must share it (the bots, their build
//! directories, so a task's build is an up-to-date check, and the work directory). As parts
//! appear, the finished shards from the first on are merged in order and the SPRT is looked at
//! after each: the verdict is the one a local SPRT looking at those same boundaries reaches,
//! whatever order the tasks finish in. At the verdict the job is cancelled (`scancel`) and the
//! report is the comparison of the shards merged. A task that ends without its part is
//! submitted once more on its own; a second failure ends the test with the task's log named.
//!
//! Every Slurm command is run through `botlens-confine`, given the network (to reach
//! `slurmctld`), the Slurm configuration (`SLURM_CONF`'s directory, `/etc/slurm`) and munge's
//! socket directories to read, and nothing else of botlens's.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use botlens_bots::target::shell_word;
use botlens_confine::{Confined, Limits};
use botlens_harness::CancelToken;
use botlens_harness::shard::{self, Part};
use botlens_sandbox::Sandbox;
use botlens_stats::{SprtResult, Verdict};

use crate::compare::{
    self, CompareError, CompareOptions, ComparePart, CompareReport, Event, Merged, Side,
};
use crate::tournament::{
    self, TournamentError, TournamentOptions, TournamentPart, TournamentReport,
};
use botlens_bots::caps::LimitCaps;
use botlens_harness::SeedRange;

/// How an SPRT is run on Slurm.
#[derive(Debug, Clone)]
pub struct SlurmOptions {
    /// The botlens the tasks run (this one, where the nodes find it).
    pub botlens: PathBuf,
    /// The work directory the nodes share: the job's script, its tasks' logs and parts.
    pub dir: PathBuf,
    /// The partition to submit to (`--partition`); Slurm's default when `None`.
    pub partition: Option<String>,
    /// Each task's time limit in minutes (`--time`); the partition's when `None`.
    pub time_limit_minutes: Option<u32>,
    /// Tasks running at once (`%K` of `--array`).
    pub in_flight: u32,
    /// Games each task plays (rounded to whole seeds).
    pub games_per_task: u64,
    /// How often the queue and the parts are looked at.
    pub poll: Duration,
}

/// What an SPRT on Slurm reports on the way.
#[derive(Debug, Clone, Copy)]
pub enum SlurmEvent<'a> {
    /// The sides are being built, as `compare` reports it.
    Compare(Event<'a>),
    /// The job array was submitted.
    Submitted {
        /// Slurm's job id.
        job: &'a str,
        /// Its tasks.
        tasks: u64,
    },
    /// The state of the test after a look at the queue that found it changed.
    Progress {
        /// Tasks merged, from the first on.
        merged: u64,
        /// Tasks in all.
        tasks: u64,
        /// Tasks running.
        running: u64,
        /// Tasks waiting.
        pending: u64,
        /// Games merged.
        games: u64,
        /// The SPRT on the games merged.
        sprt: Option<SprtResult>,
    },
    /// A task ended without its part and was submitted again.
    Retried {
        /// The task (shard) index.
        task: u64,
    },
}

/// Why an SPRT on Slurm failed.
#[derive(Debug, thiserror::Error)]
pub enum SlurmError {
    /// The comparison could not be prepared, or its parts not merged.
    #[error(transparent)]
    Compare(#[from] CompareError),
    /// The round robin could not be prepared, or its parts not merged.
    #[error(transparent)]
    Tournament(#[from] TournamentError),
    /// A Slurm command could not be run, or failed.
    #[error("{command}: {message}")]
    Command {
        /// The command (`sbatch`, `squeue`, `scancel`).
        command: &'static str,
        /// What it said, or why it did not run.
        message: String,
    },
    /// A task failed twice.
    #[error("task {task} of job {job} failed twice (its log: {})", .log.display())]
    TaskFailed {
        /// The job.
        job: String,
        /// The task.
        task: u64,
        /// Its log.
        log: PathBuf,
    },
    /// The work directory could not be written.
    #[error("{}: {source}", .path.display())]
    Io {
        /// What was written.
        path: PathBuf,
        /// Why it failed.
        #[source]
        source: std::io::Error,
    },
    /// `--slurm` without an SPRT.
    #[error(
        "--slurm runs an SPRT's games as a job array: give --sprt (or play shards yourself with --shard)"
    )]
    NoSprt,
}

/// Runs the SPRT of `a` against `b` (`options.sprt`) on Slurm (see the module docs).
pub fn compare_on_slurm(
    sandbox: &Sandbox,
    a: &Side,
    b: &Side,
    options: &CompareOptions,
    slurm: &SlurmOptions,
    events: &(dyn Fn(SlurmEvent<'_>) + Sync),
    cancel: &CancelToken,
) -> Result<CompareReport, SlurmError> {
    let Some(sprt) = options.sprt else { return Err(SlurmError::NoSprt) };
    let compare_events = |event: Event<'_>| events(SlurmEvent::Compare(event));
    let (prepared_a, prepared_b) =
        compare::prepare_pair(sandbox, a, b, options, &compare_events, cancel)?;
    let plan = compare::planned(&prepared_a, &prepared_b, options)?;
    let tasks = plan.seeds.len().div_ceil((slurm.games_per_task / plan.per_seed).max(1));
    let mut words = vec!["compare".to_owned(), a.label.clone(), b.label.clone()];
    if let Some(opponents) = &options.opponents {
        words.extend(["--vs".into(), opponents.join(",")]);
    }
    let game = prepared_a.suite.game.name();
    words.extend(common_words(game, plan.seeds, options.max_turns, &options.caps));
    let mut merged = Merged::new(&plan, tasks)?;
    let mut sprt_result = None;
    let take = |index: u64, path: &Path| {
        let value = shard::read(path).map_err(CompareError::from)?;
        let part = Part::<ComparePart>::from_value(path, value).map_err(CompareError::from)?;
        merged.add(&path.display().to_string(), part, index)?;
        sprt_result = merged.sprt(&sprt);
        let stop = sprt_result.is_some_and(|result| result.verdict != Verdict::Continue);
        Ok(Status { games: merged.games(), sprt: sprt_result, stop })
    };
    play_array(slurm, "botlens-sprt", &words, tasks, events, cancel, take)?;
    Ok(merged.report(sprt_result.map(|result| (&sprt, result)))?)
}

/// Holds the round robin of `sides` on Slurm: every side built here, the seeds cut into a job
/// array of `tournament --shard` tasks, and their parts merged once all have finished (a
/// failed task run once more).
pub fn tournament_on_slurm(
    sandbox: &Sandbox,
    sides: &[Side],
    options: &TournamentOptions,
    slurm: &SlurmOptions,
    events: &(dyn Fn(SlurmEvent<'_>) + Sync),
    cancel: &CancelToken,
) -> Result<TournamentReport, SlurmError> {
    let field_events = |event: tournament::Event<'_>| {
        if let tournament::Event::Compare(event) = event {
            events(SlurmEvent::Compare(event));
        }
    };
    let (game, seeds) = tournament::planned(sandbox, sides, options, &field_events, cancel)?;
    let per_seed = 2 * (sides.len() * (sides.len() - 1) / 2) as u64;
    let tasks = seeds.len().div_ceil((slurm.games_per_task / per_seed).max(1));
    let mut words = vec!["tournament".to_owned()];
    words.extend(sides.iter().map(|side| side.label.clone()));
    words.extend(common_words(game.name(), seeds, options.max_turns, &options.caps));
    let mut parts = Vec::new();
    let take = |_: u64, path: &Path| {
        let value = shard::read(path).map_err(CompareError::from)?;
        let part = Part::<TournamentPart>::from_value(path, value).map_err(CompareError::from)?;
        parts.push((path.display().to_string(), part));
        let played: u64 = parts.iter().map(|(_, part)| part.contents.seeds_played).sum();
        Ok(Status { games: played * per_seed, sprt: None, stop: false })
    };
    play_array(slurm, "botlens-tournament", &words, tasks, events, cancel, take)?;
    Ok(tournament::merge(parts)?)
}

/// Where a job array stands after a finished task is taken.
struct Status {
    /// Games taken so far.
    games: u64,
    /// The SPRT on them, if there is one.
    sprt: Option<SprtResult>,
    /// Whether no more tasks are needed.
    stop: bool,
}

/// The arguments every task gets after its command and sides: the game, all the seeds, one
/// worker, the turn cap and this run's caps on the limits, explicitly.
fn common_words(
    game: &str,
    seeds: SeedRange,
    max_turns: Option<u32>,
    caps: &LimitCaps,
) -> Vec<String> {
    let mut words = vec!["--game".into(), game.to_owned(), "--seeds".into(), seeds.to_string()];
    words.extend(["--jobs".into(), "1".into()]);
    if let Some(turns) = max_turns {
        words.extend(["--max-turns".into(), turns.to_string()]);
    }
    for (flag, value) in [
        ("--max-fuel-per-turn", caps.fuel_per_turn),
        ("--max-fuel-per-game", caps.fuel_per_game),
        ("--max-memory-bytes", caps.memory_bytes),
        ("--max-wall-clock-ms-per-turn", caps.wall_clock_ms_per_turn),
        ("--max-build-timeout-secs", caps.build_timeout_secs),
    ] {
        words.extend([flag.to_owned(), value.to_string()]);
    }
    words
}

/// Submits `tasks` tasks, each this botlens run with `words` and its shard (`--shard
/// $SLURM_ARRAY_TASK_ID/tasks --part DIR/parts/ID.json`), as one job array named `name`, at most
/// [`SlurmOptions::in_flight`] at once; hands each finished task's part to `take` in order from
/// the first, until `take` says stop or every task is taken; runs a task that left the queue
/// without its part once more; and cancels what is left of the job before returning.
fn play_array(
    slurm: &SlurmOptions,
    name: &str,
    words: &[String],
    tasks: u64,
    events: &(dyn Fn(SlurmEvent<'_>) + Sync),
    cancel: &CancelToken,
    mut take: impl FnMut(u64, &Path) -> Result<Status, SlurmError>,
) -> Result<(), SlurmError> {
    let dir = std::path::absolute(&slurm.dir)
        .map_err(|source| SlurmError::Io { path: slurm.dir.clone(), source })?;
    let (parts, logs) = (dir.join("parts"), dir.join("logs"));
    for path in [&parts, &logs] {
        std::fs::create_dir_all(path)
            .map_err(|source| SlurmError::Io { path: path.clone(), source })?;
    }
    let script = dir.join("task.sh");
    let command = task_command(&slurm.botlens, words, tasks, &parts);
    std::fs::write(&script, format!("#!/bin/sh\n{}{command}\n", task_environment()))
        .map_err(|source| SlurmError::Io { path: script.clone(), source })?;
    let client = Client::new(&dir);
    let submit = |array: &str| {
        let mut args = vec![
            "--parsable".to_owned(),
            format!("--array={array}"),
            format!("--job-name={name}"),
            // sbatch runs confined, in an environment of its own: the script sets the task's.
            "--export=NONE".to_owned(),
            format!("--output={}/task-%a.out", logs.display()),
            format!("--chdir={}", std::env::current_dir().unwrap_or_default().display()),
        ];
        args.extend(slurm.partition.iter().map(|partition| format!("--partition={partition}")));
        args.extend(slurm.time_limit_minutes.map(|minutes| format!("--time={minutes}")));
        args.push(script.display().to_string());
        let out = client.run("sbatch", &args, cancel)?;
        Ok::<String, SlurmError>(out.trim().split(';').next().unwrap_or_default().to_owned())
    };
    let job = submit(&format!("0-{}%{}", tasks - 1, slurm.in_flight.max(1)))?;
    events(SlurmEvent::Submitted { job: &job, tasks });
    let mut jobs = vec![job];
    let mut retried: Vec<u64> = Vec::new();
    let mut next = 0u64;
    let mut status = Status { games: 0, sprt: None, stop: false };
    let mut last = None;
    let outcome = loop {
        if cancel.is_cancelled() {
            break Err(SlurmError::Compare(CompareError::Cancelled));
        }
        let queue = client.queue(&jobs, cancel)?;
        let mut failed = None;
        while next < tasks && !status.stop {
            let part = parts.join(format!("{next}.json"));
            if !part.is_file() || queue.has(next) {
                break;
            }
            match take(next, &part) {
                Ok(taken) => status = taken,
                Err(error) => {
                    failed = Some(error);
                    break;
                }
            }
            next += 1;
        }
        if let Some(error) = failed {
            break Err(error);
        }
        let state = (next, queue.running, queue.pending);
        if last.replace(state) != Some(state) {
            events(SlurmEvent::Progress {
                merged: next,
                tasks,
                running: queue.running,
                pending: queue.pending,
                games: status.games,
                sprt: status.sprt,
            });
        }
        if status.stop || next == tasks {
            break Ok(());
        }
        // A task gone from the queue without its part failed: once more, then the end.
        // (Parts are written atomically: a finished task's part is there before it leaves.)
        if !queue.has(next) && !parts.join(format!("{next}.json")).is_file() {
            if retried.contains(&next) {
                let log = logs.join(format!("task-{next}.out"));
                break Err(SlurmError::TaskFailed { job: jobs.join(","), task: next, log });
            }
            retried.push(next);
            jobs.push(submit(&next.to_string())?);
            events(SlurmEvent::Retried { task: next });
        }
        std::thread::sleep(slurm.poll);
    };
    client.cancel(&jobs, cancel)?;
    outcome
}

/// The variables of this process that a task's botlens and the toolchains it runs read (where
/// programs, the toolchains, the caches and the build directory are), as `export` lines for its
/// script, each value quoted for the shell.
fn task_environment() -> String {
    const PASSED: [&str; 9] = [
        "PATH",
        "HOME",
        "CARGO_HOME",
        "RUSTUP_HOME",
        "RUSTUP_TOOLCHAIN",
        "CARGO_TARGET_DIR",
        "BOTLENS_CACHE_DIR",
        "XDG_CACHE_HOME",
        "XDG_CONFIG_HOME",
    ];
    PASSED
        .iter()
        .filter_map(|name| {
            let value = std::env::var(name).ok()?;
            Some(format!("export {name}={}\n", shell_word(&value)))
        })
        .collect()
}

/// The shell command a task runs: this botlens with `words` on shard `$SLURM_ARRAY_TASK_ID` of
/// `tasks`, its part written into `parts`. Every word is quoted for the shell.
fn task_command(botlens: &Path, words: &[String], tasks: u64, parts: &Path) -> String {
    let quoted: Vec<String> = std::iter::once(botlens.display().to_string())
        .chain(words.iter().cloned())
        .map(|word| shell_word(&word))
        .collect();
    let part = shell_word(&parts.display().to_string());
    format!(
        "exec {} --shard \"$SLURM_ARRAY_TASK_ID/{tasks}\" --part {part}/\"$SLURM_ARRAY_TASK_ID\".json",
        quoted.join(" ")
    )
}

/// Slurm's commands, run confined.
struct Client {
    read: Vec<PathBuf>,
    conf: Option<std::ffi::OsString>,
}

/// What the queue holds of the jobs: the array tasks still there, running or waiting.
struct Queue {
    /// The array indices queued.
    tasks: Vec<u64>,
    /// The jobs they belong to.
    jobs: Vec<String>,
    running: u64,
    pending: u64,
}

impl Queue {
    fn has(&self, task: u64) -> bool {
        self.tasks.contains(&task)
    }
}

impl Client {
    fn new(dir: &Path) -> Client {
        let conf = std::env::var_os("SLURM_CONF");
        let mut read = vec![
            dir.to_owned(),
            PathBuf::from("/etc/slurm"),
            PathBuf::from("/etc/slurm-llnl"),
            PathBuf::from("/run/munge"),
            PathBuf::from("/var/run/munge"),
        ];
        // The configuration's directory: a cluster's own names its munge socket beside it.
        read.extend(conf.as_ref().and_then(|conf| Path::new(conf).parent().map(Path::to_owned)));
        read.retain(|path| path.exists());
        Client { read, conf }
    }

    /// Runs `program args…`, its standard output when it succeeds.
    fn run(
        &self,
        program: &'static str,
        args: &[String],
        cancel: &CancelToken,
    ) -> Result<String, SlurmError> {
        let mut confined = Confined::new(program);
        confined.args(args).network(true);
        for path in &self.read {
            confined.read(path);
        }
        if let Some(conf) = &self.conf {
            confined.env("SLURM_CONF", conf);
        }
        confined.limits(Limits { wall: Duration::from_secs(60), ..Limits::default() });
        let failed = |message: String| SlurmError::Command { command: program, message };
        let finished =
            confined.run(&|| cancel.is_cancelled()).map_err(|error| failed(error.to_string()))?;
        if !finished.status.success() {
            let said = botlens_engine::text::clipped(finished.text().trim(), 400);
            return Err(failed(format!("{} ({said})", finished.status)));
        }
        Ok(String::from_utf8_lossy(&finished.stdout).into_owned())
    }

    /// The tasks of `jobs` still queued. The user's whole queue is read (`--me`) and filtered
    /// here: asked for by id, squeue fails on a job it has already forgotten (a retry that ended
    /// minutes ago).
    fn queue(&self, jobs: &[String], cancel: &CancelToken) -> Result<Queue, SlurmError> {
        let args = ["-h", "-r", "--me", "-o", "%i %t"].map(str::to_owned);
        let out = self.run("squeue", &args, cancel)?;
        let mut queue = Queue { tasks: Vec::new(), jobs: Vec::new(), running: 0, pending: 0 };
        for line in out.lines() {
            let mut words = line.split_whitespace();
            let (Some(id), Some(state)) = (words.next(), words.next()) else { continue };
            let Some((job, task)) = id.split_once('_') else { continue };
            let (true, Ok(task)) = (jobs.iter().any(|ours| ours == job), task.parse()) else {
                continue;
            };
            queue.tasks.push(task);
            if !queue.jobs.iter().any(|queued| queued == job) {
                queue.jobs.push(job.to_owned());
            }
            match state {
                "R" | "CG" => queue.running += 1,
                _ => queue.pending += 1,
            }
        }
        Ok(queue)
    }

    /// Cancels `jobs` and waits until none of their tasks is queued.
    fn cancel(&self, jobs: &[String], cancel: &CancelToken) -> Result<(), SlurmError> {
        // Only the jobs still queued: scancel fails on one Slurm has forgotten.
        let queued = self.queue(jobs, cancel)?.jobs;
        if queued.is_empty() {
            return Ok(());
        }
        self.run("scancel", &[queued.join(",")], cancel)?;
        let started = Instant::now();
        while !self.queue(jobs, cancel)?.tasks.is_empty() {
            if started.elapsed() > Duration::from_secs(60) {
                return Err(SlurmError::Command {
                    command: "scancel",
                    message: format!("job {} is still queued a minute after", jobs.join(",")),
                });
            }
            std::thread::sleep(Duration::from_millis(250));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tasks_command_passes_every_word_as_it_is_and_runs_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        // A stand-in for botlens that prints each argument it gets on a line of its own.
        let program = dir.path().join("args");
        std::fs::write(&program, "#!/bin/sh\nfor a; do printf '[%s]\\n' \"$a\"; done\n").unwrap();
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
        let hostile = "it's $(touch pwned) `touch pwned`; touch pwned";
        let words = ["compare".to_owned(), hostile.to_owned(), "b c".to_owned()];
        let parts = dir.path().join("my parts");
        let command = task_command(&program, &words, 7, &parts);
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("SLURM_ARRAY_TASK_ID=3; {command}"))
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let expected = format!(
            "[compare]\n[{hostile}]\n[b c]\n[--shard]\n[3/7]\n[--part]\n[{}/3.json]\n",
            parts.display()
        );
        assert_eq!(String::from_utf8(out.stdout).unwrap(), expected);
        assert!(!dir.path().join("pwned").exists(), "nothing of a word was run");
    }
}
