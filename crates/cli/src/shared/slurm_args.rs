//! The Slurm flags of the commands that run their games as a job array (`compare --sprt
//! --slurm`, `tournament --slurm`), and how their progress is shown.

use std::path::PathBuf;

use botlens_experiments::slurm::{SlurmEvent, SlurmOptions};
use clap::Args;

use crate::shared::progress::show;

/// Where and how the job array runs.
#[derive(Debug, Args)]
pub struct SlurmArgs {
    /// Run the games as a Slurm job array (docs/scale.md): the nodes must share this directory,
    /// the bots and their builds, and --slurm-dir.
    #[arg(long)]
    pub slurm: bool,
    /// The work directory the nodes share: the job's script, its tasks' logs and parts.
    #[arg(long, value_name = "DIR", default_value = "botlens-slurm", requires = "slurm")]
    slurm_dir: PathBuf,
    /// The partition to submit to [default: Slurm's].
    #[arg(long, value_name = "NAME", requires = "slurm")]
    slurm_partition: Option<String>,
    /// Each task's time limit, in minutes [default: the partition's].
    #[arg(long, value_name = "MINUTES", requires = "slurm")]
    slurm_time: Option<u32>,
    /// Tasks running at once.
    #[arg(long, value_name = "N", default_value_t = 8, requires = "slurm")]
    slurm_tasks: u32,
    /// Games each task plays (a whole number of seeds): the larger, the less Slurm's start-up
    /// weighs (docs/scale.md); for an SPRT, the later the test may stop.
    #[arg(long, value_name = "GAMES", default_value_t = 40_000, requires = "slurm")]
    slurm_task_games: u64,
}

impl SlurmArgs {
    /// The options of the job array, its tasks running this botlens.
    pub fn options(&self) -> anyhow::Result<SlurmOptions> {
        Ok(SlurmOptions {
            botlens: std::env::current_exe()?,
            dir: self.slurm_dir.clone(),
            partition: self.slurm_partition.clone(),
            time_limit_minutes: self.slurm_time,
            in_flight: self.slurm_tasks,
            games_per_task: self.slurm_task_games,
            poll: std::time::Duration::from_secs(1),
        })
    }
}

/// Shows a job array's progress on stderr.
pub fn show_slurm(event: SlurmEvent<'_>) {
    match event {
        SlurmEvent::Compare(event) => show(event),
        SlurmEvent::Submitted { job, tasks } => {
            eprintln!("botlens: submitted job {job}: {tasks} tasks");
        }
        SlurmEvent::Progress { merged, tasks, running, pending, games, sprt } => {
            let llr = sprt.map_or_else(String::new, |sprt| {
                format!(", LLR {:.2} ({:.2}, {:.2})", sprt.llr, sprt.lower_bound, sprt.upper_bound)
            });
            eprintln!(
                "botlens: {merged}/{tasks} tasks merged ({games} games), {running} running, {pending} waiting{llr}"
            );
        }
        SlurmEvent::Retried { task } => {
            eprintln!("botlens: task {task} failed: running it once more");
        }
    }
}
