//! Confined runs of real programs (`bash`, `cat`, `sleep` from the system): what they can
//! reach, and that nothing they start outlives them.

use super::*;

/// A `bash -c script` run, allowed to read and write `dir`.
fn bash(script: &str, dir: &Path) -> Confined {
    let mut run = Confined::new("bash");
    run.args(["-c", script]).current_dir(dir).write(dir);
    run
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).trim().to_owned()
}

/// Whether a process whose command line holds `marker` is running (zombies are not).
fn running(marker: &str) -> bool {
    let Ok(entries) = std::fs::read_dir("/proc") else { return false };
    entries.filter_map(Result::ok).any(|entry| {
        let dir = entry.path();
        let cmdline = std::fs::read(dir.join("cmdline")).unwrap_or_default();
        let stat = std::fs::read_to_string(dir.join("stat")).unwrap_or_default();
        let zombie = stat.rsplit(')').next().is_some_and(|rest| rest.trim_start().starts_with('Z'));
        !zombie && String::from_utf8_lossy(&cmdline).replace('\0', " ").contains(marker)
    })
}

/// Waits up to two seconds for no process with `marker` to run.
fn gone(marker: &str) -> bool {
    let deadline = Instant::now() + Duration::from_secs(2);
    while running(marker) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    !running(marker)
}

/// A `sleep` argument no other process has: seconds, made of this process's id and `n`.
fn marker(n: u32) -> String {
    format!("{}{n}.5", 90_000 + std::process::id() % 10_000)
}

#[test]
fn it_reads_and_writes_what_it_is_given_and_nothing_else() {
    if support().landlock.is_none() {
        return;
    }
    let given = tempfile::tempdir().unwrap();
    let other = tempfile::tempdir().unwrap();
    std::fs::write(other.path().join("secret"), "do not read").unwrap();
    let script = format!(
        "echo made > made; cat {0}/secret; echo $? ; echo x > {0}/planted; echo $?; ls /root >/dev/null; echo $?",
        other.path().display()
    );
    let finished = bash(&script, given.path()).run(&|| false).unwrap();
    assert_eq!(text(&finished.stdout), "1\n1\n2", "{}", finished.text());
    assert_eq!(std::fs::read_to_string(given.path().join("made")).unwrap(), "made\n");
    assert!(!other.path().join("planted").exists());
    let shadow = bash("cat /etc/shadow; echo $?", given.path()).run(&|| false).unwrap();
    assert_eq!(text(&shadow.stdout), "1", "{}", shadow.text());
}

#[test]
fn it_gets_a_cleared_environment_with_a_private_home() {
    let dir = tempfile::tempdir().unwrap();
    let finished = bash("env | sort", dir.path()).env("GIVEN", "yes").run(&|| false).unwrap();
    let names: Vec<String> = text(&finished.stdout)
        .lines()
        .filter_map(|line| Some(line.split_once('=')?.0.to_owned()))
        .filter(|name| !["PWD", "SHLVL", "_", "OLDPWD"].contains(&name.as_str()))
        .collect();
    assert_eq!(names, ["GIVEN", "HOME", "PATH", "TMPDIR"]);
    let home = bash("stat -c %a $HOME; echo $HOME", dir.path()).run(&|| false).unwrap();
    let home = text(&home.stdout);
    let (mode, home) = home.split_once('\n').unwrap();
    assert_eq!(mode, "700", "only this user may enter it");
    assert!(home.contains("botlens-run-"), "{home}");
    assert!(!Path::new(&home).exists(), "the private directory is removed after the run");
}

#[test]
fn a_nul_byte_in_an_argument_or_a_variable_is_refused_and_nothing_starts() {
    let dir = tempfile::tempdir().unwrap();
    let witness = dir.path().join("started");
    let script = format!("touch {}", witness.display());
    let mut argument = bash(&script, dir.path());
    argument.arg("a\0b");
    let mut variable = bash(&script, dir.path());
    variable.env("GIVEN", "a\0b");
    for run in [argument, variable] {
        match run.run(&|| false) {
            Err(RunError::Spawn { source, .. }) => {
                assert_eq!(source.kind(), io::ErrorKind::InvalidInput, "{source}");
            }
            other => panic!("started: {other:?}"),
        }
    }
    assert!(!witness.exists());
}

#[test]
fn it_cannot_reach_the_network() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let dir = tempfile::tempdir().unwrap();
    let script = format!("echo hello > /dev/tcp/127.0.0.1/{port}; echo $?");
    let finished = bash(&script, dir.path()).run(&|| false).unwrap();
    assert_eq!(text(&finished.stdout), "1", "{}", finished.text());
    assert!(listener.accept().is_err(), "a connection arrived");
    let mut allowed = bash(&script, dir.path());
    let finished = allowed.network(true).run(&|| false).unwrap();
    assert_eq!(text(&finished.stdout), "0", "{}", finished.text());
}

#[test]
fn what_it_starts_ends_with_it_even_outside_its_process_group() {
    if !support().namespaces {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (stays, escapes) = (marker(1), marker(2));
    let script = format!("sleep {stays} & setsid sleep {escapes} & echo started");
    let finished = bash(&script, dir.path()).run(&|| false).unwrap();
    assert_eq!(text(&finished.stdout), "started");
    assert!(gone(&stays) && gone(&escapes), "a process outlived the run");
}

#[test]
fn a_cancelled_or_timed_out_run_is_stopped_with_everything_it_started() {
    let dir = tempfile::tempdir().unwrap();
    let (first, second) = (marker(3), marker(4));
    let started = Instant::now();
    let script = format!("sleep {first} & sleep {first}");
    let cancel_after = |seconds: f32| move || started.elapsed().as_secs_f32() > seconds;
    let error = bash(&script, dir.path()).run(&cancel_after(0.3)).unwrap_err();
    assert!(matches!(error, RunError::Cancelled { .. }), "{error}");
    // Ended by the time `run` returns, not some time after.
    assert!(!running(&first) || !support().namespaces, "a process outlived the cancelled run");
    assert!(gone(&first));
    let mut timed = bash(&format!("sleep {second}"), dir.path());
    timed.limits(Limits { wall: Duration::from_millis(300), ..Limits::default() });
    let error = timed.run(&|| false).unwrap_err();
    assert_eq!(
        error.to_string(),
        "bash took longer than 0 s and was stopped with everything it started"
    );
    assert!(gone(&second));
}

#[test]
fn memory_and_output_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let mut hungry = bash("x=$(head -c 300000000 /dev/zero | tr '\\0' a); echo ${#x}", dir.path());
    hungry.limits(Limits { memory: 100 << 20, ..Limits::default() });
    let finished = hungry.run(&|| false).unwrap();
    assert_ne!(text(&finished.stdout), "300000000", "{}", finished.text());
    let mut chatty = bash("head -c 100000 /dev/zero", dir.path());
    chatty.limits(Limits { output: 1000, ..Limits::default() });
    let finished = chatty.run(&|| false).unwrap();
    assert_eq!((finished.stdout.len(), finished.truncated), (1000, true));
}

#[test]
fn a_missing_program_is_named() {
    let error = Confined::new("no-such-tool-here").run(&|| false).unwrap_err();
    assert_eq!(error.to_string(), "no-such-tool-here is not installed (not found on PATH)");
}

/// The environment variable that makes [`a_run_ends_when_botlens_is_killed`]'s child process
/// the botlens that gets killed.
const KILLED_PARENT: &str = "BOTLENS_CONFINE_TEST_KILLED_PARENT";

#[test]
fn a_run_ends_when_botlens_is_killed() {
    if let Some(marker) = std::env::var_os(KILLED_PARENT) {
        // The botlens that is killed: starts a run that would sleep for hours.
        let dir = tempfile::tempdir().unwrap();
        let script = format!("sleep {0} & setsid sleep {0}", marker.to_string_lossy());
        let _ = bash(&script, dir.path()).run(&|| false);
        return;
    }
    if !support().namespaces {
        return;
    }
    let marker = marker(5);
    let mut botlens = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "tests::a_run_ends_when_botlens_is_killed", "--test-threads=1"])
        .env(KILLED_PARENT, &marker)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while !running(&format!("sleep {marker}")) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(running(&format!("sleep {marker}")), "the run did not start");
    botlens.kill().unwrap();
    botlens.wait().unwrap();
    assert!(gone(&format!("sleep {marker}")), "the run outlived the botlens that started it");
}

/// The bits of `SIGINT` and `SIGQUIT` in a `SigIgn` mask of `/proc/PID/status`.
const TERMINAL_SIGNAL_BITS: u64 = (1 << (libc::SIGINT - 1)) | (1 << (libc::SIGQUIT - 1));

/// The `SigIgn` mask of a process's `/proc/PID/status` text.
fn ignored_signals(status: &str) -> u64 {
    let mask = status.lines().find_map(|line| line.strip_prefix("SigIgn:")).unwrap();
    u64::from_str_radix(mask.trim(), 16).unwrap()
}

/// Held by the tests of interactive runs: botlens's handling of the terminal's signals, which
/// they check, is the process's, changed for as long as an interactive run lasts.
static TERMINAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn an_interactive_run_shares_the_terminal_and_keeps_the_rest_of_its_confinement() {
    let _terminal = TERMINAL.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let script = "{ readlink /proc/self/fd/2; cut -d' ' -f5 /proc/self/stat; \
                  readlink /proc/self/ns/pid; readlink /proc/self/ns/net; \
                  cat /proc/$BOTLENS_PID/status; echo; cat /proc/self/status; echo; \
                  cat /etc/shadow >/dev/null 2>&1; echo $?; } > seen";
    let mut run = bash(script, dir.path());
    run.env("BOTLENS_PID", std::process::id().to_string()).interactive(true);
    let finished = run.run(&|| false).unwrap();
    assert!(finished.status.success());
    assert!(finished.stdout.is_empty() && finished.stderr.is_empty(), "nothing is captured");
    let seen = std::fs::read_to_string(dir.path().join("seen")).unwrap();
    let mut lines = seen.lines();
    let mut next = || lines.next().unwrap().to_owned();
    let link = |path: &str| std::fs::read_link(path).unwrap().to_string_lossy().into_owned();
    assert_eq!(next(), link("/proc/self/fd/2"), "its standard error is botlens's");
    // SAFETY: `getpgrp` takes nothing and cannot fail.
    assert_eq!(next(), unsafe { libc::getpgrp() }.to_string(), "in botlens's process group");
    assert_eq!(next(), link("/proc/self/ns/pid"), "no PID namespace of its own");
    let network = next();
    if support().namespaces {
        assert_ne!(network, link("/proc/self/ns/net"), "a network namespace of its own");
    }
    let rest: Vec<&str> = lines.collect();
    let statuses: Vec<String> = rest.join("\n").split("\n\n").map(str::to_owned).collect();
    assert_eq!(
        ignored_signals(&statuses[0]) & TERMINAL_SIGNAL_BITS,
        TERMINAL_SIGNAL_BITS,
        "botlens ignores Ctrl-C while it runs"
    );
    assert_eq!(ignored_signals(&statuses[1]) & TERMINAL_SIGNAL_BITS, 0, "the program gets it");
    let own = std::fs::read_to_string("/proc/self/status").unwrap();
    assert_eq!(ignored_signals(&own) & TERMINAL_SIGNAL_BITS, 0, "and botlens again after");
    if support().landlock.is_some() {
        assert_eq!(rest.last().copied(), Some("1"), "/etc/shadow stays unreadable");
    }
}

/// Makes `dir`'s modification time `ago` in the past, as if it had been left there that long.
fn backdate(dir: &Path, ago: Duration) {
    let file = std::fs::File::open(dir).unwrap();
    file.set_modified(std::time::SystemTime::now() - ago).unwrap();
}

#[test]
fn what_an_ended_process_left_of_its_private_directories_goes_with_the_next_one() {
    let parent = tempfile::tempdir().unwrap();
    let left = parent.path().join("botlens-t-left");
    std::fs::create_dir_all(left.join("deep")).unwrap();
    std::fs::write(left.join("deep/file"), "x").unwrap();
    backdate(&left, 2 * abandoned::YOUNGEST);
    let made = private_dir("botlens-t-", Some(parent.path())).unwrap();
    assert!(!left.exists(), "an old directory no process holds is removed");
    assert!(made.path().starts_with(parent.path()) && made.path().is_dir());
    let name = made.path().file_name().unwrap().to_string_lossy().into_owned();
    assert!(name.starts_with("botlens-t-") && name.len() >= "botlens-t-".len() + 6, "{name}");

    // What the sweep leaves: a directory still held (as old as you like), one just made and
    // not yet held, another prefix's, and a link (not followed to what it names).
    backdate(made.path(), 2 * abandoned::YOUNGEST);
    let young = parent.path().join("botlens-t-young");
    let other = parent.path().join("other-old");
    let aside = tempfile::tempdir().unwrap();
    let link = parent.path().join("botlens-t-link");
    for dir in [&young, &other] {
        std::fs::create_dir(dir).unwrap();
    }
    backdate(&other, 2 * abandoned::YOUNGEST);
    backdate(aside.path(), 2 * abandoned::YOUNGEST);
    std::os::unix::fs::symlink(aside.path(), &link).unwrap();
    abandoned::sweep(parent.path(), "botlens-t-");
    for kept in [made.path(), &young, &other, &link, aside.path()] {
        assert!(kept.exists(), "{} was removed", kept.display());
    }
    let path = made.path().to_owned();
    drop(made);
    assert!(!path.exists(), "dropped, it is removed");
}

#[test]
fn a_killed_process_leaves_its_private_directory_free_for_the_next() {
    let parent = tempfile::tempdir().unwrap();
    let held = parent.path().join("botlens-t-held");
    std::fs::create_dir(&held).unwrap();
    // Another process holds it as a living botlens would, and is then killed.
    let mut holder = std::process::Command::new("bash")
        .args(["-c", "exec 9<\"$0\" && flock --exclusive 9 && exec sleep 30"])
        .arg(&held)
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    while abandoned::unlocked(&held) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    backdate(&held, 2 * abandoned::YOUNGEST);
    abandoned::sweep(parent.path(), "botlens-t-");
    assert!(held.exists(), "a directory another process holds is kept");
    holder.kill().unwrap();
    holder.wait().unwrap();
    abandoned::sweep(parent.path(), "botlens-t-");
    assert!(!held.exists(), "the kernel let go of the killed process's lock");
}

#[test]
fn a_program_that_cannot_be_started_says_why_on_its_standard_error() {
    if !support().namespaces {
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("not-a-program");
    std::fs::write(&program, [0u8, 1, 2, 3]).unwrap();
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    let finished = Confined::new(&program).run(&|| false).unwrap();
    assert_eq!(finished.status.code(), Some(127), "{}", finished.text());
    let said = format!("cannot start the confined program: error {}\n", libc::ENOEXEC);
    assert!(String::from_utf8_lossy(&finished.stderr).ends_with(&said), "{}", finished.text());
}

#[test]
fn an_interactive_program_that_cannot_be_started_is_a_spawn_error() {
    use std::os::unix::fs::PermissionsExt;
    let _terminal = TERMINAL.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("not-a-program");
    std::fs::write(&program, [0u8, 1, 2, 3]).unwrap();
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    match Confined::new(&program).interactive(true).run(&|| false) {
        Err(RunError::Spawn { source, .. }) => {
            assert_eq!(source.raw_os_error(), Some(libc::ENOEXEC), "{source}");
        }
        other => panic!("not a spawn error: {other:?}"),
    }
}
