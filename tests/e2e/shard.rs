//! `botlens run --shard I/N --part FILE` and `botlens merge`: a run played in shards, merged,
//! is the run played whole.

use std::path::Path;
use std::time::Duration;

use crate::support::{botlens, botlens_building, botlens_with_env, repo_root};

/// The report of `run ARGS --json`, its exit code, and the report of the same run played in
/// `shards` shards (the parts written into `parts`) and merged with `merge --json`, each
/// without its `duration_ms` (wall-clock time, which differs from run to run).
fn whole_and_merged(
    args: &[&str],
    shards: u64,
    parts: &Path,
) -> ((Option<i32>, serde_json::Value), (Option<i32>, serde_json::Value)) {
    let report = |out: &crate::support::Output| {
        let mut json: serde_json::Value = serde_json::from_str(&out.stdout)
            .unwrap_or_else(|e| panic!("no JSON report ({e}):\n{}\n{}", out.stdout, out.stderr));
        json.as_object_mut().unwrap().remove("duration_ms").expect("a duration");
        (out.code, json)
    };
    let whole = botlens_building(&[args, &["--json"]].concat());
    for index in 0..shards {
        let shard = format!("{index}/{shards}");
        let part = parts.join(format!("{index}.json"));
        let part = part.to_str().unwrap();
        let out = botlens_building(&[args, &["--shard", &shard, "--part", part]].concat());
        assert!(matches!(out.code, Some(0 | 1)), "shard {shard}: {}", out.stderr);
        assert!(out.stderr.contains(&format!("shard {shard} (")), "{}", out.stderr);
    }
    let merged = botlens(&["merge", parts.to_str().unwrap(), "--json"]);
    (report(&whole), report(&merged))
}

#[test]
fn a_run_in_shards_merges_into_the_report_of_the_run_played_whole() {
    // Out of fuel in an endless loop (each group's first game profiled), paired, two opponents;
    // the shards split the pairs' seeds unevenly and one has none.
    let dir = tempfile::tempdir().unwrap();
    let sample = repo_root().join("samples/battleships-spinner");
    let sample = sample.to_str().unwrap();
    let args = ["run", sample, "--vs", "hunter,random", "--seeds", "10..16", "--paired"];
    let (whole, merged) = whole_and_merged(&args, 7, dir.path());
    assert_eq!(merged, whole, "merged:\n{:#}\nwhole:\n{:#}", merged.1, whole.1);
    assert_eq!(whole.0, Some(1), "the spinner runs out of fuel");
    let failures = whole.1["failures"].as_array().unwrap();
    assert!(failures.iter().any(|f| f["fuel_profile"].is_array()), "{failures:#?}");
    assert_eq!(whole.1["games"], 2 * 6 * 2);

    // Wasted moves, located at their line in the first wasteful game of each opponent.
    let dir = tempfile::tempdir().unwrap();
    let (bot, _) = crate::support::reattacking_bot(dir.path(), "shardreattacker");
    let args = ["run", bot.to_str().unwrap(), "--vs", "random,hunter", "--seeds", "0..9"];
    let parts = dir.path().join("parts");
    let (whole, merged) = whole_and_merged(&args, 3, &parts);
    assert_eq!(merged, whole, "merged:\n{:#}\nwhole:\n{:#}", merged.1, whole.1);
    let wasteful = whole.1["wasteful"].as_array().unwrap();
    assert!(
        !wasteful.is_empty() && wasteful.iter().all(|w| !w["sites"].as_array().unwrap().is_empty())
    );

    // The text report is the same table too.
    let text = botlens(&["merge", parts.to_str().unwrap()]);
    let played = botlens(&args);
    assert_eq!(text.code, played.code);
    assert_eq!(without_times(&text.stdout), without_times(&played.stdout));
}

/// A text report without its wall-clock time (`, in 0.41 s` on its first line).
fn without_times(report: &str) -> String {
    let (heading, rest) = report.split_once('\n').unwrap_or((report, ""));
    let heading = heading.split_once(", in ").map_or(heading, |(before, _)| before);
    format!("{heading}\n{rest}")
}

#[test]
fn parts_of_other_runs_and_missing_or_doubled_shards_do_not_merge() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    let shard = |seeds: &str, shard: &str, part: &str| {
        let args = ["run", "random", "--game", "tictactoe", "--seeds", seeds];
        let out = botlens(&[&args[..], &["--shard", shard, "--part", &path(part)]].concat());
        assert_eq!(out.code, Some(0), "{}", out.stderr);
    };
    shard("0..30", "0/3", "a0.json");
    shard("0..30", "1/3", "a1.json");
    shard("0..40", "2/3", "b2.json");
    let merge = |parts: &[&str]| {
        let files: Vec<String> = parts.iter().map(|part| path(part)).collect();
        let files: Vec<&str> = files.iter().map(String::as_str).collect();
        let out = botlens(&[&["merge"][..], &files].concat());
        assert_eq!(out.code, Some(2), "{}", out.stdout);
        out.stderr.trim().to_owned()
    };
    assert_eq!(merge(&["a0.json", "a1.json"]), "botlens: error: 1 of 3 shards missing: 2");
    assert_eq!(
        merge(&["a0.json", "a1.json", "b2.json"]),
        format!(
            "botlens: error: {} is of another run than {}: its seeds differ",
            path("b2.json"),
            path("a0.json")
        )
    );
    assert_eq!(
        merge(&["a0.json", "a1.json", "a1.json"]),
        format!("botlens: error: shard 1/3 is given twice: {0} and {0}", path("a1.json"))
    );
    std::fs::write(path("junk.json"), "{\"format\": \"botlens-part\"}").unwrap();
    let error = merge(&["junk.json"]);
    assert!(
        error.starts_with(&format!("botlens: error: {}: not a botlens part (", path("junk.json"))),
        "{error}"
    );
    let out = botlens(&[
        "run",
        "random",
        "--game",
        "tictactoe",
        "--shard",
        "3/3",
        "--part",
        &path("x.json"),
    ]);
    assert_eq!(out.code, Some(2));
    assert!(
        out.stderr.contains("shard 3/3: shards are counted from 0, so the last of 3 is 2/3"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_slurm_array_task_or_a_kubernetes_index_names_its_shard() {
    let dir = tempfile::tempdir().unwrap();
    let part = dir.path().join("part.json");
    let args = ["run", "random", "--game", "tictactoe", "--seeds", "0..10", "--shard"];
    let slurm = [
        ("SLURM_ARRAY_TASK_ID", "3"),
        ("SLURM_ARRAY_TASK_MIN", "1"),
        ("SLURM_ARRAY_TASK_COUNT", "4"),
    ];
    let limit = Duration::from_secs(60);
    let with_env = |shard: &str, part: &Path, env: &[(&str, &str)]| {
        let part = part.to_str().unwrap();
        botlens_with_env(&[&args[..], &[shard, "--part", part]].concat(), "", limit, env)
    };
    let out = with_env("auto", &part, &slurm);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stderr.contains("shard 2/4 (seeds 5..=6)"), "{}", out.stderr);
    let out = with_env("auto", &part, &[]);
    assert_eq!(out.code, Some(2));
    assert!(
        out.stderr.contains("--shard auto: no shard index in the environment"),
        "{}",
        out.stderr
    );

    // A Kubernetes Indexed Job's contract, without a cluster: every pod runs the same command,
    // told its index by JOB_COMPLETION_INDEX, and the parts merge into the run played whole.
    let args = [
        "run",
        "random",
        "--game",
        "battleships",
        "--vs",
        "hunter,random",
        "--seeds",
        "0..50",
        "--paired",
    ];
    let parts = dir.path().join("parts");
    for index in 0..5 {
        let index = index.to_string();
        let part = parts.join(format!("{index}.json"));
        let part = part.to_str().unwrap();
        let command = [&args[..], &["--shard", "auto/5", "--part", part]].concat();
        let out = botlens_with_env(&command, "", limit, &[("JOB_COMPLETION_INDEX", &index)]);
        assert!(out.stderr.contains(&format!("shard {index}/5 (seeds ")), "{}", out.stderr);
    }
    let merged = botlens(&["merge", parts.to_str().unwrap(), "--json"]);
    let whole = botlens(&[&args[..], &["--json"]].concat());
    let report = |text: &str| {
        let mut json: serde_json::Value = serde_json::from_str(text).unwrap();
        json.as_object_mut().unwrap().remove("duration_ms");
        json
    };
    assert_eq!((merged.code, report(&merged.stdout)), (whole.code, report(&whole.stdout)));
}

#[test]
fn a_comparison_in_shards_merges_into_the_comparison_played_whole() {
    let dir = tempfile::tempdir().unwrap();
    // Head to head, and a gauntlet: the same JSON to the byte (a comparison has no duration).
    let head_to_head = ["compare", "--game", "tictactoe", "perfect", "random", "--seeds", "0..50"];
    let gauntlet =
        ["compare", "--game", "battleships", "hunter", "random", "--vs", "density,random"];
    for (name, args, shards) in [("h2h", &head_to_head[..], 3), ("gauntlet", &gauntlet[..], 4)] {
        let whole = botlens(&[args, &["--json"]].concat());
        assert_eq!(whole.code, Some(0), "{}", whole.stderr);
        let parts = dir.path().join(name);
        for index in 0..shards {
            let part = parts.join(format!("{index}.json"));
            let shard = format!("{index}/{shards}");
            let command = [args, &["--shard", &shard, "--part", part.to_str().unwrap()]].concat();
            let out = botlens(&command);
            assert_eq!(out.code, Some(0), "{}", out.stderr);
            assert!(out.stderr.contains(&format!("botlens: shard {shard} (")), "{}", out.stderr);
        }
        let merged = botlens(&["merge", parts.to_str().unwrap(), "--json"]);
        assert_eq!(merged.code, Some(0), "{}", merged.stderr);
        assert_eq!(merged.stdout, whole.stdout, "{name}");
        // And the lines a person reads.
        let text = botlens(&["merge", parts.to_str().unwrap()]);
        assert_eq!(text.stdout, botlens(args).stdout, "{name}");
    }

    // An SPRT needs its verdict as the games come: a shard cannot stop at it.
    let part = dir.path().join("sprt.json");
    let sprt = [&head_to_head[..], &["--sprt", "elo0=0", "elo1=10", "--shard", "0/2"]].concat();
    let out = botlens(&[&sprt[..], &["--part", part.to_str().unwrap()]].concat());
    assert_eq!(out.code, Some(2));
    assert!(out.stderr.contains("--shard plays a fixed block of the seeds"), "{}", out.stderr);

    // Parts of a comparison and of a run are not one run.
    let run = dir.path().join("run.json");
    let args = ["run", "random", "--game", "tictactoe", "--seeds", "0..50", "--shard", "2/3"];
    let out = botlens(&[&args[..], &["--part", run.to_str().unwrap()]].concat());
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let compare_part = dir.path().join("h2h/0.json");
    let out = botlens(&["merge", compare_part.to_str().unwrap(), run.to_str().unwrap()]);
    assert_eq!(out.code, Some(2));
    assert!(out.stderr.contains("not a botlens part"), "{}", out.stderr);
}

#[test]
fn a_round_robin_in_shards_merges_into_the_round_robin_played_whole() {
    let dir = tempfile::tempdir().unwrap();
    let args =
        ["tournament", "--game", "battleships", "random", "hunter", "density", "--seeds", "0..30"];
    let whole = botlens(&[&args[..], &["--json"]].concat());
    assert_eq!(whole.code, Some(0), "{}", whole.stderr);
    for index in 0..4 {
        let part = dir.path().join(format!("{index}.json"));
        let shard = format!("{index}/4");
        let out =
            botlens(&[&args[..], &["--shard", &shard, "--part", part.to_str().unwrap()]].concat());
        assert!(out.stderr.contains(&format!("botlens: shard {shard} (")), "{}", out.stderr);
    }
    let merged = botlens(&["merge", dir.path().to_str().unwrap(), "--json"]);
    assert_eq!(merged.code, Some(0), "{}", merged.stderr);
    assert_eq!(merged.stdout, whole.stdout);
    let text = botlens(&["merge", dir.path().to_str().unwrap()]);
    assert_eq!(text.stdout, botlens(&args).stdout);
    // A part of another field of sides is another round robin.
    let other = dir.path().join("other");
    let three = ["tournament", "--game", "battleships", "random", "hunter", "--seeds", "0..30"];
    let part = other.join("3.json");
    let out =
        botlens(&[&three[..], &["--shard", "3/4", "--part", part.to_str().unwrap()]].concat());
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let mut files: Vec<String> = (0..3)
        .map(|index| dir.path().join(format!("{index}.json")).display().to_string())
        .collect();
    files.push(part.display().to_string());
    let files: Vec<&str> = files.iter().map(String::as_str).collect();
    let out = botlens(&[&["merge"][..], &files].concat());
    assert_eq!(out.code, Some(2));
    assert!(out.stderr.ends_with("its sides differ\n"), "{}", out.stderr);
}
