//! `botlens tournament`: a round robin of reference players rated in order with a mirrored
//! crosstable, the same with any `--jobs`, and bad fields refused with exit code 2.

use crate::support::botlens;

const FIELD: [&str; 8] =
    ["tournament", "--game", "battleships", "random", "hunter", "density", "--seeds", "0..4"];

#[test]
fn a_round_robin_rates_the_random_player_last_with_a_mirrored_crosstable() {
    let out = botlens(&[&FIELD[..], &["--json", "--jobs", "2"]].concat());
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stderr.contains("pair 3/3 done"), "{}", out.stderr);
    assert!(out.stderr.contains("24 games played"), "{}", out.stderr);
    let report: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        (report["game"].as_str(), report["games"].as_u64()),
        (Some("battleships"), Some(24))
    );
    let ratings = report["ratings"].as_array().unwrap();
    let names: Vec<&str> = ratings.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names.len(), 3);
    assert_eq!(names[2], "random", "{names:?}");
    let elos: Vec<f64> = ratings.iter().map(|r| r["elo"].as_f64().unwrap()).collect();
    assert!(elos.windows(2).all(|w| w[0] >= w[1]), "sorted best first: {elos:?}");
    assert!(elos.iter().sum::<f64>().abs() < 1e-6, "mean 0: {elos:?}");
    for rating in ratings {
        let (lower, elo, upper) = (
            rating["lower"].as_f64().unwrap(),
            rating["elo"].as_f64().unwrap(),
            rating["upper"].as_f64().unwrap(),
        );
        assert!(lower < elo && elo < upper, "{rating}");
        assert_eq!(rating["games"], 16, "two pairs of four seeds, twice each");
    }
    let crosstable = report["crosstable"].as_array().unwrap();
    assert_eq!(crosstable.len(), 6);
    for entry in crosstable {
        let back = crosstable
            .iter()
            .find(|e| e["row"] == entry["column"] && e["column"] == entry["row"])
            .expect("the mirrored entry");
        let points = |e: &serde_json::Value| {
            e["score"]["wins"].as_f64().unwrap() + e["score"]["draws"].as_f64().unwrap() / 2.0
        };
        assert_eq!(points(entry) + points(back), 8.0, "score(a, b) + score(b, a) = games");
        assert_eq!(entry["score"]["wins"], back["score"]["losses"]);
    }
    // The same figures with one thread; the text shows both tables.
    let one = botlens(&[&FIELD[..], &["--json", "--jobs", "1"]].concat());
    assert_eq!(one.stdout, out.stdout);
    let text = botlens(&FIELD);
    assert_eq!(text.code, Some(0), "{}", text.stderr);
    assert!(text.stdout.contains("Rank") && text.stdout.contains("Crosstable"), "{}", text.stdout);
    assert!(text.stdout.contains("3. random"), "{}", text.stdout);
}

#[test]
fn bad_fields_are_a_clear_error_with_exit_code_2() {
    let cases: [(&[&str], &str); 5] = [
        (&["--game", "battleships", "hunter"], "at least two bots; 1 given"),
        (&["--game", "battleships", "hunter", "random", "hunter"], "`hunter` is named twice"),
        (&["samples/battleships-hunter", "samples/tictactoe-minimax"], "only bots of one game"),
        (&["--game", "battleships", "hunter", "nobody"], "no reference player `nobody`"),
        (&["--game", "klotski", "optimal", "samples/klotski-solver"], "klotski is a puzzle"),
    ];
    for (args, says) in cases {
        let out = botlens(&[&["tournament"][..], args].concat());
        assert_eq!(out.code, Some(2), "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains(says), "{args:?}: {}", out.stderr);
    }
}
