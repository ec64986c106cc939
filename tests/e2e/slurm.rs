//! Sharded runs on a real Slurm: a cluster of two one-core nodes on this host (munge, slurmctld
//! and two slurmd, started and stopped by the test), a run and a round robin submitted as job
//! arrays of shards with `--shard auto`, and the parts merged.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::{
    Tool, botlens, botlens_building, botlens_with_env, repo_root, require, shared_target,
};

/// A Slurm cluster of `nodes` one-core nodes on this host, its state under a temporary
/// directory; stopped (every daemon killed) when dropped.
struct LocalSlurm {
    dir: tempfile::TempDir,
    nodes: usize,
}

impl LocalSlurm {
    /// Starts munge, slurmctld and the nodes' slurmd, and waits until every node is idle.
    fn start(nodes: usize) -> LocalSlurm {
        let dir = tempfile::tempdir().unwrap();
        let slurm = LocalSlurm { dir, nodes };
        let d = slurm.dir.path();
        for sub in ["munge", "state", "log"] {
            std::fs::create_dir_all(d.join(sub)).unwrap();
        }
        // munged refuses a socket directory others cannot read.
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::set_permissions(d.join("munge"), std::fs::Permissions::from_mode(0o755)).unwrap();
        let key = d.join("munge/munge.key");
        run("mungekey", &["--create", &format!("--keyfile={}", key.display())], &[]);
        let munge = |name: &str| d.join("munge").join(name).display().to_string();
        run(
            "munged",
            &[
                "--force",
                &format!("--key-file={}", key.display()),
                &format!("--socket={}", munge("sock")),
                &format!("--pid-file={}", munge("munged.pid")),
                &format!("--log-file={}", munge("munged.log")),
                &format!("--seed-file={}", munge("seed")),
            ],
            &[],
        );
        std::fs::write(slurm.conf(), slurm.config()).unwrap();
        slurm.run("slurmctld", &["-i"]);
        for node in 1..=nodes {
            slurm.run("slurmd", &["-N", &format!("w{node}")]);
        }
        let started = Instant::now();
        while slurm.output("sinfo", &["-h", "-t", "idle", "-o", "%D"]).trim() != nodes.to_string() {
            assert!(started.elapsed() < Duration::from_secs(60), "the nodes never became idle");
            std::thread::sleep(Duration::from_millis(250));
        }
        slurm
    }

    fn conf(&self) -> PathBuf {
        self.dir.path().join("slurm.conf")
    }

    /// The cluster's configuration: the working one of `slurm.conf` for a single host, no
    /// accounting, every node a one-core machine on its own port.
    fn config(&self) -> String {
        let d = self.dir.path().display();
        let host = String::from_utf8(Command::new("hostname").arg("-s").output().unwrap().stdout)
            .unwrap()
            .trim()
            .to_owned();
        let mut config = format!(
            "ClusterName=botlens\nSlurmctldHost={host}(127.0.0.1)\nSlurmUser=root\n\
             AuthType=auth/munge\nCredType=cred/munge\nAuthInfo=socket={d}/munge/sock\n\
             MpiDefault=none\nMailProg=/bin/true\nProctrackType=proctrack/linuxproc\n\
             TaskPlugin=task/none\nJobAcctGatherType=jobacct_gather/none\n\
             AccountingStorageType=accounting_storage/none\nSchedulerType=sched/builtin\n\
             SelectType=select/cons_tres\nSelectTypeParameters=CR_Core\nReturnToService=2\n\
             StateSaveLocation={d}/state\nSlurmdSpoolDir={d}/spool-%n\n\
             SlurmctldPidFile={d}/slurmctld.pid\nSlurmdPidFile={d}/slurmd-%n.pid\n\
             SlurmctldLogFile={d}/log/slurmctld.log\nSlurmdLogFile={d}/log/slurmd-%n.log\n\
             SlurmctldPort=16817\n"
        );
        for node in 1..=self.nodes {
            config.push_str(&format!(
                "NodeName=w{node} NodeHostname={host} NodeAddr=127.0.0.1 Port={} CPUs=1 RealMemory=500\n",
                17000 + node
            ));
        }
        config.push_str(&format!(
            "PartitionName=botlens Nodes=w[1-{}] Default=YES MaxTime=INFINITE State=UP\n",
            self.nodes
        ));
        config
    }

    fn env(&self) -> [(&'static str, String); 1] {
        [("SLURM_CONF", self.conf().display().to_string())]
    }

    /// Runs a Slurm program against this cluster, failing the test if it fails.
    fn run(&self, program: &str, args: &[&str]) {
        let env = self.env();
        run(program, args, &env.iter().map(|(k, v)| (*k, v.as_str())).collect::<Vec<_>>());
    }

    /// What a Slurm program prints, run against this cluster.
    fn output(&self, program: &str, args: &[&str]) -> String {
        let out = Command::new(program).args(args).envs(self.env()).output().unwrap();
        assert!(
            out.status.success(),
            "{program} {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    /// Submits `script` as a job array of `tasks` tasks (each task's output in `dir`) and waits
    /// until none of them is queued or running.
    fn run_array(&self, script: &Path, tasks: u64, dir: &Path) {
        let array = format!("--array=0-{}", tasks - 1);
        let output = format!("--output={}/task-%a.out", dir.display());
        let job = self.output("sbatch", &["--parsable", &array, &output, script.to_str().unwrap()]);
        let job = job.trim().to_owned();
        // `sbatch --wait` notices the end late: squeue is polled instead.
        let started = Instant::now();
        while !self.output("squeue", &["-h", "-j", &job]).trim().is_empty() {
            assert!(started.elapsed() < Duration::from_secs(600), "job {job} never ended");
            std::thread::sleep(Duration::from_millis(250));
        }
    }
}

impl Drop for LocalSlurm {
    fn drop(&mut self) {
        let d = self.dir.path();
        let mut pids: Vec<PathBuf> =
            (1..=self.nodes).map(|node| d.join(format!("slurmd-w{node}.pid"))).collect();
        pids.push(d.join("slurmctld.pid"));
        pids.push(d.join("munge/munged.pid"));
        for pid in pids {
            if let Some(pid) =
                std::fs::read_to_string(&pid).ok().and_then(|pid| pid.trim().parse::<i32>().ok())
            {
                // SAFETY: kill has no memory preconditions; the pid is a daemon this test started.
                unsafe { libc::kill(pid, libc::SIGTERM) };
            }
        }
    }
}

/// Runs `program args…` with `env`, failing the test if it fails.
fn run(program: &str, args: &[&str], env: &[(&str, &str)]) {
    let status = Command::new(program)
        .args(args)
        .envs(env.iter().copied())
        .stdout(Stdio::null())
        .status()
        .unwrap_or_else(|e| panic!("{program}: {e}"));
    assert!(status.success(), "{program} {args:?}: {status}");
}

#[test]
fn a_run_and_a_round_robin_sharded_into_slurm_job_arrays_merge_into_those_played_here() {
    if !require(&[Tool::Slurm]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let sample = repo_root().join("samples/battleships-spinner");
    let args =
        ["run", sample.to_str().unwrap(), "--vs", "hunter,random", "--seeds", "0..24", "--paired"];
    let whole = botlens_building(&[&args[..], &["--json"]].concat());
    assert_eq!(whole.code, Some(1), "the spinner runs out of fuel: {}", whole.stderr);

    // Each task names its shard from Slurm's variables; the bot is built already (the tasks
    // share the build directory, as a cluster's nodes share a file system).
    let parts = dir.path().join("parts");
    let script = dir.path().join("shard.sh");
    let command: Vec<String> = args.iter().map(|arg| format!("'{arg}'")).collect();
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nexport CARGO_TARGET_DIR='{}'\nexec '{}' {} --jobs 1 --shard auto --part '{}'/$SLURM_ARRAY_TASK_ID.json\n",
            shared_target(),
            env!("CARGO_BIN_EXE_botlens"),
            command.join(" "),
            parts.display()
        ),
    )
    .unwrap();
    let slurm = LocalSlurm::start(2);
    slurm.run_array(&script, 4, dir.path());
    for task in 0..4 {
        let out = std::fs::read_to_string(dir.path().join(format!("task-{task}.out"))).unwrap();
        assert!(out.contains(&format!("botlens: shard {task}/4 (seeds ")), "task {task}:\n{out}");
    }
    let merged = botlens(&["merge", parts.to_str().unwrap(), "--json"]);
    assert_eq!(merged.code, whole.code, "{}", merged.stderr);
    let report = |text: &str| {
        let mut json: serde_json::Value = serde_json::from_str(text).unwrap();
        json.as_object_mut().unwrap().remove("duration_ms");
        json
    };
    assert_eq!(report(&merged.stdout), report(&whole.stdout));

    // A round robin as a job array of three shards: the same ratings and crosstable, to the
    // byte.
    let args =
        ["tournament", "--game", "battleships", "random", "hunter", "density", "--seeds", "0..30"];
    let whole = botlens(&[&args[..], &["--json"]].concat());
    assert_eq!(whole.code, Some(0), "{}", whole.stderr);
    let parts = dir.path().join("tournament");
    let command: Vec<String> = args.iter().map(|arg| format!("'{arg}'")).collect();
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nexec '{}' {} --jobs 1 --shard auto --part '{}'/$SLURM_ARRAY_TASK_ID.json\n",
            env!("CARGO_BIN_EXE_botlens"),
            command.join(" "),
            parts.display()
        ),
    )
    .unwrap();
    slurm.run_array(&script, 3, dir.path());
    let merged = botlens(&["merge", parts.to_str().unwrap(), "--json"]);
    assert_eq!(merged.code, Some(0), "{}", merged.stderr);
    assert_eq!(merged.stdout, whole.stdout);

    coordinated_on_slurm(&slurm, dir.path());
}

/// `compare --sprt --slurm`: the test stops at its verdict long before its games cap, cancels
/// what is queued, and a task killed while it runs is run again; `tournament --slurm` makes the
/// report of the round robin played here.
fn coordinated_on_slurm(slurm: &LocalSlurm, dir: &Path) {
    let env = slurm.env();
    let env: Vec<(&str, &str)> = env.iter().map(|(key, value)| (*key, value.as_str())).collect();
    // A project, built here; each task finds its build up to date in the shared directory.
    let work = dir.join("sprt");
    let sample = repo_root().join("samples/battleships-hunter");
    let args = [
        "compare",
        sample.to_str().unwrap(),
        "random",
        "--game",
        "battleships",
        "--sprt",
        "elo0=0",
        "elo1=10",
        "--slurm",
        "--slurm-tasks",
        "2",
        "--slurm-task-games",
        "100",
        "--slurm-dir",
    ];
    let limit = Duration::from_secs(300);
    let out = botlens_with_env(&[&args[..], &[work.to_str().unwrap()]].concat(), "", limit, &env);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains("- H1 was accepted"), "{}", out.stdout);
    assert!(out.stderr.contains("botlens: submitted job "), "{}", out.stderr);
    let parts = std::fs::read_dir(work.join("parts")).unwrap().count();
    assert!(parts < 20, "the test stopped early: {parts} of 200 tasks played");
    assert_eq!(slurm.output("squeue", &["-h"]).trim(), "", "nothing is left queued");

    // The first task killed as it runs: the coordinator runs it once more and goes on.
    let work = dir.join("retry");
    let stop = std::sync::atomic::AtomicBool::new(false);
    let killed = std::thread::scope(|scope| {
        let killer = scope.spawn(|| {
            let started = Instant::now();
            while !stop.load(std::sync::atomic::Ordering::Relaxed)
                && started.elapsed() < Duration::from_secs(240)
            {
                let queue = slurm.output("squeue", &["-h", "-r", "-o", "%i %K %t"]);
                let running = queue.lines().find_map(|line| {
                    let words: Vec<&str> = line.split_whitespace().collect();
                    (words.get(1..) == Some(&["0", "R"][..])).then(|| words[0].to_owned())
                });
                if let Some(task) = running {
                    slurm.run("scancel", &[&task]);
                    return Some(task);
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            None
        });
        let args = [
            "compare",
            "--game",
            "battleships",
            "hunter",
            "density",
            "--sprt",
            "elo0=0",
            "elo1=10",
            "--max-games",
            "3000",
            "--slurm",
            "--slurm-tasks",
            "1",
            "--slurm-task-games",
            "1000",
            "--slurm-dir",
        ];
        let out =
            botlens_with_env(&[&args[..], &[work.to_str().unwrap()]].concat(), "", limit, &env);
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        (out, killer.join().unwrap())
    });
    let (out, task) = killed;
    assert!(task.is_some(), "the first task was never seen running: {}", out.stderr);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stderr.contains("botlens: task 0 failed: running it once more"), "{}", out.stderr);
    assert!(out.stdout.contains("SPRT: llr"), "{}", out.stdout);
    assert_eq!(slurm.output("squeue", &["-h"]).trim(), "", "nothing is left queued");

    // A task that fails twice (its part cannot be written: a directory stands in its place)
    // ends the test, naming its log, and leaves nothing queued.
    let work = dir.join("failing");
    std::fs::create_dir_all(work.join("parts/0.json")).unwrap();
    let args = [
        "compare",
        "--game",
        "battleships",
        "hunter",
        "random",
        "--sprt",
        "--slurm",
        "--slurm-task-games",
        "100",
        "--slurm-dir",
    ];
    let out = botlens_with_env(&[&args[..], &[work.to_str().unwrap()]].concat(), "", limit, &env);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(out.stderr.contains("botlens: task 0 failed: running it once more"), "{}", out.stderr);
    let log = work.join("logs/task-0.out");
    assert!(
        out.stderr.contains(&format!("failed twice (its log: {})", log.display())),
        "{}",
        out.stderr
    );
    assert!(std::fs::read_to_string(&log).unwrap().contains("writing the part"));
    assert_eq!(slurm.output("squeue", &["-h"]).trim(), "", "nothing is left queued");

    // A round robin with --slurm: five tasks of six seeds, the report of the one played here.
    let args = [
        "tournament",
        "--game",
        "battleships",
        "random",
        "hunter",
        "density",
        "--seeds",
        "0..30",
        "--json",
    ];
    let whole = botlens(&args);
    assert_eq!(whole.code, Some(0), "{}", whole.stderr);
    let work = dir.join("league");
    let slurm_args = ["--slurm", "--slurm-tasks", "2", "--slurm-task-games", "36", "--slurm-dir"];
    let command = [&args[..], &slurm_args[..], &[work.to_str().unwrap()]].concat();
    let out = botlens_with_env(&command, "", limit, &env);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stderr.contains(": 5 tasks"), "{}", out.stderr);
    assert_eq!(out.stdout, whole.stdout);
    assert_eq!(slurm.output("squeue", &["-h"]).trim(), "", "nothing is left queued");
}
