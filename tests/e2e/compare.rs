//! "Is the new build better?": paired runs (`run --paired`), `compare`, the verdict of
//! `run --baseline`, `diff` and `bisect`, driven through the real binary.

use crate::support::botlens;

#[test]
fn a_paired_run_scores_pairs_and_its_seat_1_failures_replay() {
    let out = botlens(&["run", "samples/battleships-offbyone", "--paired", "--json"]);
    assert_eq!(out.code, Some(1), "the sample loses games by a fault: {}", out.stderr);
    let report: serde_json::Value = serde_json::from_str(&out.stdout).expect("one JSON object");
    for row in report["opponents"].as_array().unwrap() {
        assert_eq!(row["games"], 40, "20 seeds, both seats: {row}");
        let pentanomial: Vec<u64> = row["pairs"]["pentanomial"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_u64().unwrap())
            .collect();
        assert_eq!(pentanomial.iter().sum::<u64>(), 20, "{row}");
        let points: u64 = pentanomial.iter().enumerate().map(|(i, n)| i as u64 * n).sum();
        let wins = row["wins"].as_u64().unwrap();
        assert_eq!(points, 2 * wins, "no draws in Battleships: half points are twice the wins");
    }
    let replays: Vec<&str> = report["failures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["replay"].as_str().unwrap())
        .collect();
    let seat1 = replays.iter().find(|r| r.ends_with("--seat 1")).expect("a failure in seat 1");
    let words: Vec<&str> = seat1.split_whitespace().skip(1).collect();
    let mut args = words.clone();
    args.push("--plain");
    let replayed = botlens(&args);
    assert_eq!(replayed.code, Some(0), "{}", replayed.stderr);
    assert!(
        replayed.stdout.contains("seat 1 (battleships-offbyone) · illegal_move"),
        "{}",
        replayed.stdout
    );
}

#[test]
fn an_unpaired_run_is_unchanged_and_a_puzzle_cannot_be_paired() {
    let args = ["run", "--game", "tictactoe", "random", "--vs", "perfect", "--seeds", "0..10"];
    let plain = botlens(&args);
    assert_eq!(plain.code, Some(0), "{}", plain.stderr);
    assert!(
        !plain.stdout.contains("Ptnml") && !plain.stdout.contains("paired"),
        "{}",
        plain.stdout
    );
    let paired = botlens(&[&args[..], &["--paired"]].concat());
    assert!(
        paired.stdout.contains("20 games (paired: each seed in both seats)"),
        "{}",
        paired.stdout
    );
    assert!(paired.stdout.contains("Ptnml(0-2): ["), "{}", paired.stdout);
    let puzzle = botlens(&["run", "--game", "klotski", "optimal", "--paired"]);
    assert_eq!(puzzle.code, Some(2));
    assert!(
        puzzle.stderr.contains("one-player puzzle: there are no seats to swap"),
        "{}",
        puzzle.stderr
    );
}
