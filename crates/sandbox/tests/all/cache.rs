//! The disk cache trusts only what it wrote: a planted entry is never run, a directory others
//! may write to is not used, and the directory stays under its size bound.

#![cfg(unix)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use botlens_sandbox::{BotModule, Sandbox, SandboxConfig, SandboxLimits};

use crate::support::{play, wat_bot};

/// A bot that logs `name` every turn, so which module ran is visible in the game.
fn named_bot(name: &str) -> Vec<u8> {
    let log = format!("(call $log (i32.const 4000) (i32.const {}))", name.len());
    wat::parse_str(wat_bot(&log, &format!(r#"(data (i32.const 4000) "{name}")"#))).unwrap()
}

/// The cache's entries (not its key), in name order.
fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cwasm"))
        .collect();
    entries.sort();
    entries
}

fn config(dir: &Path) -> SandboxConfig {
    SandboxConfig { cache_dir: Some(dir.to_owned()) }
}

/// Loads `bytes` with a new sandbox on `dir` (so nothing comes from a memory cache).
fn load(dir: &Path, bytes: &[u8]) -> BotModule {
    let sandbox = Sandbox::new(config(dir)).unwrap();
    assert_eq!(sandbox.disk_cache_note(), None);
    sandbox.load(bytes).unwrap()
}

/// What the bot logged on its first turn.
fn first_log(bot: &BotModule) -> String {
    let record = play(bot, 2, &SandboxLimits::default());
    assert!(record.outcome.fault.is_none(), "{}", record.outcome.reason);
    record.moves.iter().find(|m| m.seat == 0).unwrap().logs.join("\n")
}

/// The file name module `bytes` is cached under (the same in every cache directory).
fn entry_name(bytes: &[u8]) -> PathBuf {
    let scratch = tempfile::tempdir().unwrap();
    load(scratch.path(), bytes);
    let [entry] = entries(scratch.path()).try_into().expect("one entry");
    PathBuf::from(entry.file_name().unwrap())
}

#[test]
fn an_entry_planted_under_a_victims_name_is_not_run_and_is_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("modules");
    let (a, b) = (named_bot("I am A"), named_bot("I am B"));
    let victim = cache.join(entry_name(&b));

    // A real compilation of A, renamed to B's entry: a valid wasmtime artefact, wrong module.
    assert_eq!(first_log(&load(&cache, &a)), "I am A");
    let [compiled_a] = entries(&cache).try_into().expect("A's entry");
    std::fs::rename(&compiled_a, &victim).unwrap();
    let planted = std::fs::read(&victim).unwrap();
    let bot = load(&cache, &b);
    assert_eq!(first_log(&bot), "I am B", "B was compiled and behaves as B");
    assert_ne!(std::fs::read(&victim).unwrap(), planted, "the planted file is gone");

    // Random bytes under B's name: the same.
    let noise: Vec<u8> =
        (0..100_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    std::fs::write(&victim, &noise).unwrap();
    assert_eq!(first_log(&load(&cache, &b)), "I am B");
    assert_ne!(std::fs::read(&victim).unwrap(), noise);

    // A's own entry, copied from another user's cache (another key), is refused too.
    let theirs = tempfile::tempdir().unwrap();
    load(theirs.path(), &a);
    let [their_a] = entries(theirs.path()).try_into().unwrap();
    std::fs::copy(&their_a, cache.join(their_a.file_name().unwrap())).unwrap();
    let copied = std::fs::read(&their_a).unwrap();
    assert_eq!(first_log(&load(&cache, &a)), "I am A");
    assert_ne!(std::fs::read(cache.join(their_a.file_name().unwrap())).unwrap(), copied);
}

#[test]
fn the_directory_and_its_key_are_private_to_the_user() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("new/modules");
    load(&cache, &named_bot("private"));
    let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&cache), 0o700);
    assert_eq!(mode(&dir.path().join("new")), 0o700, "parents made for the cache too");
    assert_eq!(mode(&cache.join("cache-key")), 0o600);
}

#[test]
fn a_directory_others_may_write_to_is_not_used_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("modules");
    std::fs::create_dir(&cache).unwrap();
    std::fs::set_permissions(&cache, std::fs::Permissions::from_mode(0o777)).unwrap();
    let sandbox = Sandbox::new(config(&cache)).expect("never an error that stops a run");
    let note = sandbox.disk_cache_note().expect("a note says why");
    assert_eq!(
        note,
        format!(
            "the module cache is off: the directory {} has mode 777: others than its owner may \
             change it",
            cache.display()
        )
    );
    let bot = sandbox.load(&named_bot("uncached")).unwrap();
    assert_eq!(first_log(&bot), "uncached");
    assert_eq!(std::fs::read_dir(&cache).unwrap().count(), 0, "nothing written, no key either");

    // A directory of another user (when this test may make one: it runs as root).
    std::fs::set_permissions(&cache, std::fs::Permissions::from_mode(0o700)).unwrap();
    if std::os::unix::fs::chown(&cache, Some(12345), None).is_ok() {
        let sandbox = Sandbox::new(config(&cache)).unwrap();
        let note = sandbox.disk_cache_note().expect("another user's directory is refused");
        assert!(note.contains("belongs to user 12345, not to this user"), "{note}");
    }
}

#[test]
fn a_key_others_may_read_turns_the_cache_off_with_a_note_naming_the_key_file() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("modules");
    drop(Sandbox::new(config(&cache)).unwrap());
    let key = cache.join("cache-key");
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).unwrap();
    let sandbox = Sandbox::new(config(&cache)).expect("never an error that stops a run");
    assert_eq!(
        sandbox.disk_cache_note(),
        Some(
            format!(
                "the module cache is off: the key {} has mode 644: others may read it",
                key.display()
            )
            .as_str()
        )
    );
}

#[test]
fn the_least_recently_used_entries_are_deleted_to_keep_the_directory_under_its_bound() {
    let bots: Vec<Vec<u8>> = (0..6).map(|n| named_bot(&format!("bot {n}"))).collect();
    let size = |dir: &Path| -> u64 {
        entries(dir).iter().map(|e| std::fs::metadata(e).unwrap().len()).sum()
    };
    let one = tempfile::tempdir().unwrap();
    load(one.path(), &bots[0]);
    let entry_bytes = size(one.path());
    let bound = 3 * entry_bytes + entry_bytes / 2;

    let dir = tempfile::tempdir().unwrap();
    let load_bounded = |bytes: &[u8]| {
        // Use is told by modification times, which the kernel advances in ticks of a few
        // milliseconds: uses closer than that tie. Apart by more, the order is exact.
        std::thread::sleep(std::time::Duration::from_millis(25));
        let sandbox = Sandbox::with_cache_bound(config(dir.path()), bound).unwrap();
        sandbox.load(bytes).unwrap();
        assert!(size(dir.path()) <= bound, "{} > {bound}", size(dir.path()));
    };
    for bot in &bots[..3] {
        load_bounded(bot);
    }
    assert_eq!(entries(dir.path()).len(), 3, "three entries fit");
    // Bot 0 is used again (a hit marks it as used), so bot 1 is now the least recently used.
    load_bounded(&bots[0]);
    load_bounded(&bots[3]);
    let names = |indices: &[usize]| -> Vec<PathBuf> {
        let mut names: Vec<PathBuf> =
            indices.iter().map(|&i| dir.path().join(entry_name(&bots[i]))).collect();
        names.sort();
        names
    };
    assert_eq!(entries(dir.path()), names(&[0, 2, 3]));
    load_bounded(&bots[4]);
    load_bounded(&bots[5]);
    assert_eq!(entries(dir.path()), names(&[3, 4, 5]));
}
