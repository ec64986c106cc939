//! `botlens watch`: rebuild a bot project and replay its suite on every save, and say what
//! changed since the run before.
//!
//! ```no_run
//! use botlens_watch::{Watch, WatchOptions};
//!
//! let watch = Watch::new("samples/tictactoe-panicky".as_ref(), WatchOptions::default())?;
//! watch.stop_on_ctrl_c()?;
//! watch.run(&mut std::io::stdout())?;
//! # Ok::<(), botlens_watch::WatchError>(())
//! ```
//!
//! # How it works
//!
//! - The project directory is watched with `notify`, events debounced by
//!   `notify-debouncer-full` ([`WatchOptions::debounce`]); only changes to sources, manifests
//!   and opponent modules count, not `target/` nor editors' temporary files ([`filter`]).
//! - Runs (`botlens_harness::pipeline::run`: build, load, play) happen on one worker thread. A
//!   change during a run cancels it through its `CancelToken` (cargo is killed, the suite
//!   stops) and a fresh run starts once the stale one has wound down.
//! - Each run opens with a header line `── run N (what changed) ──`; a finished run prints the
//!   summary table and the [`Comparison`](botlens_harness::baseline::Comparison) with the last
//!   successful run; a failed build prints its first errors, and watching goes on.
//! - Ctrl-C (or SIGTERM) cancels the run in flight and returns.
//!
//! Not for: building or playing (`botlens-harness`), argument parsing (the CLI).

pub mod filter;
pub mod session;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

use botlens_bots::build::BuildError;
use botlens_bots::toolchain::LoadError;
use botlens_engine::text::printable_lines;
use botlens_harness::baseline;
use botlens_harness::pipeline::{self, RunError, RunOptions, SuiteRun};
use botlens_harness::{ProjectError, Target};
use notify::RecursiveMode;
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};

use crate::session::{Job, RunOutcome, WatchSession};

/// How to watch.
#[derive(Debug, Clone)]
pub struct WatchOptions {
    /// Overrides of the project's configuration, as for `botlens run`.
    pub run: RunOptions,
    /// How long the files must be quiet before a change counts. By default 200 ms: long enough
    /// to see an editor's save (write, rename, delete the swap file) as one change.
    pub debounce: Duration,
    /// Told of every run as it starts and ends (the live view), on the thread that runs them.
    pub observer: Option<RunObserver>,
}

impl Default for WatchOptions {
    fn default() -> Self {
        WatchOptions {
            run: RunOptions::default(),
            debounce: Duration::from_millis(200),
            observer: None,
        }
    }
}

/// What a watch tells its [`RunObserver`] about a run (a cancelled run's end is not told: a
/// newer run starts at once).
#[derive(Debug)]
pub enum RunEvent<'a> {
    /// Run `number` started, because of `reason` (`start`, or the files that changed).
    Started {
        /// Runs are numbered from 1.
        number: u32,
        /// What started it.
        reason: &'a str,
    },
    /// Run `number` was played.
    Played {
        /// Its number.
        number: u32,
        /// What started it.
        reason: &'a str,
        /// The run: its report and the games it kept.
        run: &'a SuiteRun,
        /// The project's root (source lines are read under it only).
        root: &'a Path,
    },
    /// Run `number` produced no report: the build failed, or the bot did not load.
    Failed {
        /// Its number.
        number: u32,
        /// What started it.
        reason: &'a str,
        /// Why, as the terminal shows it.
        message: &'a str,
    },
}

/// Hears of every run of a watch ([`WatchOptions::observer`]).
#[derive(Clone)]
pub struct RunObserver(pub Arc<dyn Fn(RunEvent<'_>) + Send + Sync>);

impl std::fmt::Debug for RunObserver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RunObserver")
    }
}

/// Why watching could not start or go on.
#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    /// The directory is not a bot project.
    #[error(transparent)]
    Project(#[from] ProjectError),
    /// The bot's settings could not be read.
    #[error(transparent)]
    Bot(#[from] LoadError),
    /// The sandbox could not be set up.
    #[error(transparent)]
    Run(#[from] RunError),
    /// The file-system watcher failed.
    #[error("cannot watch {}: {source}", .path.display())]
    Notify {
        /// What was being watched.
        path: PathBuf,
        /// notify's error.
        source: notify::Error,
    },
    /// The Ctrl-C handler could not be installed.
    #[error("cannot handle Ctrl-C: {0}")]
    CtrlC(#[from] ctrlc::Error),
    /// Writing the output failed.
    #[error("writing the output: {0}")]
    Output(#[from] std::io::Error),
}

/// What the watch loop hears.
#[derive(Debug)]
enum Input {
    /// Relevant files changed, and folders appeared at the top of the project (absolute paths).
    Changed {
        /// Changed files that count.
        files: Vec<PathBuf>,
        /// New top-level folders, to watch.
        folders: Vec<PathBuf>,
    },
    /// The watcher reported errors.
    WatchErrors(Vec<String>),
    /// A run ended.
    Finished(u32, RunOutcome),
    /// Stop was asked for.
    Stop,
}

/// Asks a [`Watch`] to stop, from any thread (a signal handler, a test).
#[derive(Debug, Clone)]
pub struct StopHandle(Sender<Input>);

impl StopHandle {
    /// Stops the watch: the run in flight is cancelled; a second call does not wait for it.
    pub fn stop(&self) {
        let _ = self.0.send(Input::Stop);
    }
}

/// A project being watched; see the crate docs.
pub struct Watch {
    root: PathBuf,
    inputs: Receiver<Input>,
    sender: Sender<Input>,
    debouncer: Debouncer<notify::RecommendedWatcher, RecommendedCache>,
    jobs: Sender<Job>,
    worker: JoinHandle<()>,
}

impl Watch {
    /// Starts watching the bot project, bot folder or lone source file ([`Target::of_path`]) at
    /// `project_dir` (nothing runs until [`Watch::run`]).
    pub fn new(project_dir: &Path, options: WatchOptions) -> Result<Watch, WatchError> {
        // A bot with a manifest (a Cargo project) loads before anything is watched, and so is a
        // directory with no bot at all refused (taken for one); a bot folder's settings are each
        // run's to check, as they may be fixed while the folder is watched.
        if let Target::Bot { lang, path, .. } = Target::of_path(project_dir)
            && lang.manifest().is_some()
        {
            lang.load(&path, None)?;
        }
        let named = project_dir
            .canonicalize()
            .map_err(|source| ProjectError::Read { path: project_dir.to_owned(), source })?;
        // A lone source file is watched with its folder.
        let target = Target::of_path(&named);
        let root = match &target {
            Target::Bot { path, .. } if path.is_file() => path.parent().unwrap_or(&named).into(),
            _ => named.clone(),
        };
        let sandbox = pipeline::sandbox()?;
        let (sender, inputs) = mpsc::channel();
        let events = sender.clone();
        let filter_root = root.clone();
        let mut debouncer = new_debouncer(options.debounce, None, move |result| {
            let _ = events.send(input_from(&filter_root, result));
        })
        .map_err(|source| notify_error(&root, source))?;
        // The root alone, then each folder but the ignored ones (target/ churns during builds).
        debouncer
            .watch(&root, RecursiveMode::NonRecursive)
            .map_err(|source| notify_error(&root, source))?;
        let folders = std::fs::read_dir(&root)
            .map_err(|source| ProjectError::Read { path: root.clone(), source })?;
        for entry in folders.flatten() {
            let path = entry.path();
            if path.is_dir() && !filter::is_ignored_dir(&entry.file_name().to_string_lossy()) {
                debouncer
                    .watch(&path, RecursiveMode::Recursive)
                    .map_err(|source| notify_error(&path, source))?;
            }
        }
        let (jobs, job_inputs) = mpsc::channel::<Job>();
        let finished = sender.clone();
        let worker_root = root.clone();
        let worker = std::thread::Builder::new()
            .name("botlens-watch-runs".into())
            .spawn(move || {
                for job in job_inputs {
                    let observer = options.observer.as_ref();
                    let outcome =
                        run_once(&sandbox, &worker_root, &target, &options.run, &job, observer);
                    if finished.send(Input::Finished(job.number, outcome)).is_err() {
                        break;
                    }
                }
            })
            .map_err(WatchError::Output)?;
        Ok(Watch { root, inputs, sender, debouncer, jobs, worker })
    }

    /// The project's root directory (canonical).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// A handle that stops [`Watch::run`] from another thread.
    pub fn stop_handle(&self) -> StopHandle {
        StopHandle(self.sender.clone())
    }

    /// Makes Ctrl-C (and SIGTERM) stop the watch. Once per process.
    pub fn stop_on_ctrl_c(&self) -> Result<(), WatchError> {
        let stop = self.stop_handle();
        ctrlc::set_handler(move || stop.stop())?;
        Ok(())
    }

    /// Runs the suite now and after every change, writing to `out`, until stopped.
    pub fn run(mut self, out: &mut dyn Write) -> Result<(), WatchError> {
        let mut session = WatchSession::new();
        let mut step = session.begin();
        loop {
            // Reports and compiler output quote the bot: no control character reaches the
            // terminal as it is.
            out.write_all(printable_lines(&step.text).as_bytes())?;
            out.flush()?;
            if let Some(job) = step.start.take() {
                // The worker lives as long as `self.jobs`; a send fails only if it panicked.
                if self.jobs.send(job).is_err() {
                    writeln!(out, "the run worker stopped unexpectedly")?;
                    break;
                }
            }
            if step.done {
                break;
            }
            let Ok(input) = self.inputs.recv() else { break };
            step = match input {
                Input::Changed { files, folders } => {
                    self.watch_new_folders(&folders, out)?;
                    session.changed(files.iter().map(|p| self.relative(p)))
                }
                Input::WatchErrors(errors) => {
                    for error in errors {
                        writeln!(out, "watch error: {error}")?;
                    }
                    session::Step::default()
                }
                Input::Finished(number, outcome) => session.finished(number, outcome),
                Input::Stop => session.stop(),
            };
        }
        drop(self.jobs);
        drop(self.debouncer);
        // The worker ends when its queue closes; a run it is in was cancelled by the session.
        let _ = self.worker.join();
        Ok(())
    }

    /// Starts watching folders created at the top of the project (the root is watched alone).
    fn watch_new_folders(
        &mut self,
        folders: &[PathBuf],
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        for path in folders {
            if let Err(e) = self.debouncer.watch(path, RecursiveMode::Recursive) {
                writeln!(out, "watch error: cannot watch {}: {e}", path.display())?;
            }
        }
        Ok(())
    }

    fn relative(&self, path: &Path) -> String {
        path.strip_prefix(&self.root).unwrap_or(path).display().to_string()
    }
}

fn notify_error(path: &Path, source: notify::Error) -> WatchError {
    WatchError::Notify { path: path.to_path_buf(), source }
}

/// The loop's input for a batch of debounced events: the relevant changed files and new
/// top-level folders, or errors.
fn input_from(root: &Path, result: DebounceEventResult) -> Input {
    match result {
        Ok(events) => {
            let mut files = Vec::new();
            let mut folders = Vec::new();
            for event in events.iter().filter(|event| filter::is_change(&event.kind)) {
                for path in &event.paths {
                    if filter::is_relevant(root, path) {
                        files.push(path.clone());
                    } else if event.kind.is_create()
                        && path.parent() == Some(root)
                        && path.is_dir()
                        && path
                            .file_name()
                            .is_some_and(|name| !filter::is_ignored_dir(&name.to_string_lossy()))
                    {
                        folders.push(path.clone());
                    }
                }
            }
            files.sort();
            files.dedup();
            folders.sort();
            folders.dedup();
            Input::Changed { files, folders }
        }
        Err(errors) => Input::WatchErrors(errors.iter().map(ToString::to_string).collect()),
    }
}

/// One run: build (the project is read afresh: its configuration may have changed) and play,
/// telling `observer` as it starts and ends.
fn run_once(
    sandbox: &botlens_sandbox::Sandbox,
    root: &Path,
    target: &Target,
    options: &RunOptions,
    job: &Job,
    observer: Option<&RunObserver>,
) -> RunOutcome {
    let tell = |event: RunEvent<'_>| {
        if let Some(observer) = observer {
            (observer.0)(event);
        }
    };
    let (number, reason) = (job.number, job.reason.as_str());
    tell(RunEvent::Started { number, reason });
    let outcome = match pipeline::run(sandbox, target, options, &|_| {}, &job.cancel) {
        Ok(run) => {
            // Kept for `botlens replay PROJECT` and `botlens run --failed`, as `run` keeps it; a
            // project whose target directory cannot be written is still watched.
            let _ = baseline::save_last_run(root, &run.report);
            tell(RunEvent::Played { number, reason, run: &run, root });
            return RunOutcome::Report {
                report: Box::new(run.report),
                warnings: run.warnings.len(),
            };
        }
        Err(RunError::Cancelled) => return RunOutcome::Cancelled,
        Err(RunError::Build(BuildError::Compile(errors))) => RunOutcome::CompileErrors(errors),
        Err(other) => RunOutcome::Failed(other.to_string()),
    };
    let message = match &outcome {
        RunOutcome::CompileErrors(errors) => {
            errors.iter().map(|error| error.rendered.as_str()).collect::<Vec<_>>().join("\n")
        }
        RunOutcome::Failed(message) => message.clone(),
        RunOutcome::Report { .. } | RunOutcome::Cancelled => String::new(),
    };
    tell(RunEvent::Failed { number, reason, message: &printable_lines(&message) });
    outcome
}
