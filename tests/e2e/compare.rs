//! "Is the new build better?": paired runs (`run --paired`), `compare`, the verdict of
//! `run --baseline`, `diff` and `bisect`, driven through the real binary.

use crate::support::{Tool, botlens, botlens_building, require, shared_target};

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

/// A Tic-tac-toe bot that completes its own line, else blocks the opponent's, else plays
/// `FALLBACK` (an expression over `board`, `free` and `self.rng`).
const BOT: &str = r#"//! A Tic-tac-toe bot of the compare tests.

use botlens_sdk::tictactoe::Side;
use botlens_sdk::{Bot, Rng, Start, TicTacToe, Turn, export};

/// The eight lines of three (squares `y * 3 + x`).
const LINES: [[usize; 3]; 8] =
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

/// The bot.
pub struct Tester {
    rng: Rng,
}

impl Bot for Tester {
    type Game = TicTacToe;

    fn new(start: Start) -> Self {
        Tester { rng: start.rng() }
    }

    fn play(&mut self, turn: &mut Turn<TicTacToe>) {
        let view = turn.view();
        let me = view.you;
        let board: [Option<Side>; 9] = std::array::from_fn(|i| view.at(i % 3, i / 3));
        let free: Vec<usize> = (0..9).filter(|&i| board[i].is_none()).collect();
        let completes = |side: Side| {
            free.iter().copied().find(|&square| {
                let mut after = board;
                after[square] = Some(side);
                LINES.iter().any(|line| line.iter().all(|&i| after[i] == Some(side)))
            })
        };
        let square = completes(me).or_else(|| completes(me.other())).unwrap_or_else(|| FALLBACK);
        turn.mark((square % 3) as i32, (square / 3) as i32);
    }
}

export!(Tester);
"#;

/// The fallback of the good bot: the centre, else the first free square.
const CENTRE: &str = "if board[4].is_none() { 4 } else { free[0] }";
/// The fallback of the weaker bot: any free square.
const ANYWHERE: &str = "*self.rng.choose(&free).expect(\"a free square\")";

/// A git repository with a bot project `name` made by `botlens new`, committed once per
/// fallback of `history` (each commit's message its index); the repository's directory.
fn bot_history(name: &str, history: &[&str]) -> tempfile::TempDir {
    let repo = tempfile::tempdir().expect("temp dir");
    let bot = repo.path().join(name);
    let made = botlens_building(&["new", "tictactoe", bot.to_str().unwrap()]);
    assert_eq!(made.code, Some(0), "{}", made.stderr);
    std::fs::write(repo.path().join(".gitignore"), "target/\n").unwrap();
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
            .args(args)
            .current_dir(repo.path())
            .output()
            .expect("git runs");
        assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    };
    git(&["init", "--quiet"]);
    for (index, fallback) in history.iter().enumerate() {
        std::fs::write(bot.join("src/lib.rs"), BOT.replace("FALLBACK", fallback)).unwrap();
        git(&["add", "."]);
        git(&["commit", "--quiet", "-m", &format!("commit {index}")]);
    }
    repo
}

#[test]
fn head_to_head_prints_cutechess_lines_and_json_with_every_documented_field() {
    let args = ["compare", "--game", "tictactoe", "perfect", "random", "--seeds", "0..40"];
    let text = botlens(&args);
    assert_eq!(text.code, Some(0), "{}", text.stderr);
    let lines: Vec<&str> = text.stdout.lines().collect();
    let score = lines.iter().find(|l| l.starts_with("Score of perfect vs random: ")).unwrap();
    let numbers: Vec<u64> = score
        .trim_start_matches("Score of perfect vs random: ")
        .split(|c: char| !c.is_ascii_digit() && c != '.')
        .filter_map(|n| n.parse().ok())
        .collect();
    assert_eq!(numbers.len(), 4, "W - L - D [score] N: {score}");
    assert_eq!(numbers[0] + numbers[1] + numbers[2], 80, "{score}");
    assert_eq!(numbers[3], 80, "{score}");
    assert!(lines.iter().any(|l| l.starts_with("Ptnml(0-2): [")), "{}", text.stdout);
    let json = botlens(&[&args[..], &["--json"]].concat());
    let report: serde_json::Value = serde_json::from_str(&json.stdout).expect("one object");
    // cutechess-cli's line, to the character, first; botlens's own lines after it.
    let figures = &report["figures"];
    let one_decimal = |x: &serde_json::Value| format!("{:.1}", x.as_f64().unwrap());
    let draws = figures["score"]["draws"].as_u64().unwrap() as f64;
    let cutechess = format!(
        "Elo difference: {} +/- {}, LOS: {:.1} %, DrawRatio: {:.1} %",
        one_decimal(&figures["elo"]["elo"]),
        one_decimal(&figures["elo"]["margin"]),
        100.0 * figures["los"].as_f64().unwrap(),
        100.0 * (draws / 80.0)
    );
    let at = |line: &str| lines.iter().position(|l| *l == line);
    let own = lines.iter().position(|l| l.starts_with("Elo difference: ") && l.ends_with("(95%)"));
    assert!(at(&cutechess).unwrap() < own.unwrap(), "{cutechess}\n{}", text.stdout);
    assert!(lines.iter().any(|l| l.starts_with("nElo: ") && l.ends_with("(95%)")));
    assert!(lines.iter().any(|l| l.starts_with("LOS: ") && l.ends_with(" %")));
    assert_eq!(figures["normalized_elo"]["kind"], "estimate", "{report}");
    assert_eq!(report["sprt_estimate"], serde_json::Value::Null);
    // A few seeds: no figures, and cutechess-cli's `nan` where a figure would be.
    let few = botlens(&["compare", "--game", "tictactoe", "perfect", "random", "--seeds", "0..3"]);
    assert_eq!(few.code, Some(0), "{}", few.stderr);
    for line in [
        "Elo difference: none (too few games: 6, at least 40 needed)",
        "nElo: none (too few games: 6, at least 40 needed)",
        "LOS: none (too few games)",
    ] {
        assert!(few.stdout.lines().any(|l| l == line), "{line}: {}", few.stdout);
    }
    assert!(
        few.stdout
            .lines()
            .any(|l| l.starts_with("Elo difference: nan +/- nan, LOS: nan %, DrawRatio: ")),
        "{}",
        few.stdout
    );
    for field in [
        "game",
        "a",
        "b",
        "a_commit",
        "b_commit",
        "opponents",
        "seeds",
        "games",
        "figures",
        "sprt",
        "sprt_estimate",
        "stopped",
    ] {
        assert!(report.get(field).is_some(), "{field} missing: {report}");
    }
    assert_eq!(report["figures"]["mode"], "head_to_head");
    assert_eq!(report["figures"]["score"]["losses"], 0, "perfect never loses");
    assert_eq!(report["games"], 80);
    assert_eq!(report["stopped"], "seeds");
}

#[test]
fn an_sprt_reports_every_batch_and_its_verdict_the_same_with_any_jobs() {
    let args = [
        "compare",
        "--game",
        "battleships",
        "density",
        "random",
        "--vs",
        "hunter",
        "--sprt",
        "elo0=0",
        "elo1=50",
    ];
    let one = botlens(&[&args[..], &["--jobs", "1", "--json"]].concat());
    let two = botlens(&[&args[..], &["--jobs", "2", "--json"]].concat());
    assert_eq!(one.code, Some(0), "{}", one.stderr);
    assert_eq!(one.stdout, two.stdout, "the figures do not depend on the threads");
    let report: serde_json::Value = serde_json::from_str(&one.stdout).unwrap();
    assert_eq!(report["sprt"]["verdict"], "h1_accepted", "density beats random hands down");
    assert_eq!(report["figures"]["mode"], "gauntlet");
    let progress: Vec<&str> = one.stderr.lines().filter(|l| l.contains(" games: LLR ")).collect();
    assert!(!progress.is_empty(), "{}", one.stderr);
    assert!(progress.iter().all(|l| l.contains("(-2.94, 2.94)") && l.contains("Elo difference")));
    let games = report["games"].as_u64().unwrap();
    assert!(progress.last().unwrap().starts_with(&format!("botlens: {games} games")));
    assert_eq!(report["sprt"]["elo_model"], "logistic");
    let estimate = &report["sprt_estimate"];
    assert!(estimate["lower"].as_f64() <= estimate["elo"].as_f64(), "{report}");
    let text = botlens(&args);
    assert!(text.stdout.contains("SPRT: H1 accepted after"), "{}", text.stdout);
    assert!(text.stdout.contains("LLR: "), "{}", text.stdout);
    // cutechess-cli's SPRT line (the LLR to three digits), and fishtest's corrected Elo.
    let llr = report["sprt"]["llr"].as_f64().unwrap();
    let cutechess = text.stdout.lines().find(|l| l.starts_with("SPRT: llr ")).unwrap();
    assert!(cutechess.ends_with(", lbound -2.94, ubound 2.94 - H1 was accepted"), "{cutechess}");
    let printed: f64 = cutechess["SPRT: llr ".len()..].split(' ').next().unwrap().parse().unwrap();
    assert!((printed - llr).abs() <= 0.005 * llr.abs().max(1.0), "{cutechess}: {llr}");
    assert!(
        text.stdout.contains(&format!(
            "Elo (bias-corrected as fishtest does): {:.1} (95%: ",
            estimate["elo"].as_f64().unwrap()
        )),
        "{}",
        text.stdout
    );
    // Normalized bounds, as fishtest sets them.
    let normalized = botlens(
        &[&args[..args.len() - 2], &["elo0=0", "elo1=20", "--elo-model", "normalized", "--json"]]
            .concat(),
    );
    assert_eq!(normalized.code, Some(0), "{}", normalized.stderr);
    let report: serde_json::Value = serde_json::from_str(&normalized.stdout).unwrap();
    assert_eq!(report["sprt"]["elo_model"], "normalized", "{report}");
    assert_eq!(report["sprt"]["verdict"], "h1_accepted", "{report}");
    // A cap stops the test without a verdict.
    let capped = botlens(&[
        "compare",
        "--game",
        "battleships",
        "density",
        "parity",
        "--sprt",
        "--max-games",
        "400",
    ]);
    assert_eq!(capped.code, Some(0), "{}", capped.stderr);
    assert!(
        capped.stdout.contains("SPRT: no verdict after 400 games: the games cap"),
        "{}",
        capped.stdout
    );
}

#[test]
fn klotski_compares_steps_per_layout() {
    let out = botlens_building(&[
        "compare",
        "samples/klotski-solver",
        "--game",
        "klotski",
        "optimal",
        "--vs",
        "hengdaolima,generated",
        "--seeds",
        "0..3",
        "--json",
    ]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let report: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let figures = &report["figures"];
    assert_eq!((figures["mode"].as_str(), figures["layouts"].as_u64()), (Some("steps"), Some(6)));
    assert_eq!(figures["b"]["solved"], 6, "the optimal solver solves them all");
    assert!(figures["sign_test"]["p_value"].as_f64().unwrap() <= 1.0);
    assert_eq!(figures["wilcoxon"]["method"]["kind"], "exact");
    assert_eq!(figures["sign_test"]["negative"], 0, "nobody solves in fewer steps than optimal");
}

#[test]
fn bad_input_is_a_clear_error_with_exit_code_2() {
    let cases: [(&[&str], &str); 12] = [
        (&["--game", "battleships", "nobody", "random"], "no reference player `nobody`"),
        (&["--game", "battleships", "hunter", "hunter"], "are the same bot"),
        (&["samples/battleships-hunter", "samples/tictactoe-minimax"], "only bots of one game"),
        (
            &["samples/battleships-hunter@no-such-rev", "samples/battleships-hunter"],
            "is not a revision",
        ),
        (
            &["samples/battleships-hunter@--output=/tmp/x", "samples/battleships-hunter"],
            "a revision does not start with `-`",
        ),
        (
            &["--game", "battleships", "hunter", "random", "--sprt", "elo0=0", "elo1"],
            "expected KEY=VALUE",
        ),
        (
            &["--game", "battleships", "hunter", "random", "--sprt", "elo0=5", "elo1=5"],
            "elo0 below elo1",
        ),
        (&["--game", "klotski", "optimal", "optimal", "--sprt"], "compares steps per layout"),
        (
            &["--game", "battleships", "hunter", "random", "--sprt", "--elo-model", "bayes"],
            "unknown Elo model `bayes`: logistic or normalized",
        ),
        (&["--game", "battleships", "hunter", "random", "--elo-model", "normalized"], "--sprt"),
        (
            &[
                "--game",
                "battleships",
                "hunter",
                "random",
                "--sprt",
                "elo1=300",
                "--elo-model",
                "normalized",
            ],
            "within ±200 normalized Elo",
        ),
        (
            &["--game", "battleships", "hunter", "random", "--max-games", "1"],
            "fewer games than the test can use",
        ),
    ];
    for (args, says) in cases {
        let out = botlens(&[&["compare"][..], args].concat());
        assert_eq!(out.code, Some(2), "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains(says), "{args:?}: {}", out.stderr);
    }
}

#[test]
fn a_revision_is_built_in_a_worktree_that_is_removed_after() {
    let repo = bot_history("compared", &[CENTRE, ANYWHERE]);
    let bot = repo.path().join("compared");
    let (now, before) = (bot.display().to_string(), format!("{}@HEAD~1", bot.display()));
    let out = botlens_building(&[
        "compare", &before, &now, "--vs", "random", "--sprt", "elo1=40", "--json",
    ]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let report: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(report["a_commit"].as_str().map(str::len), Some(40), "{report}");
    assert_eq!(report["sprt"]["verdict"], "h1_accepted", "the centre beats any square: {report}");
    let worktrees = std::process::Command::new("git")
        .args(["worktree", "list"])
        .current_dir(repo.path())
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&worktrees.stdout).lines().count(), 1, "only the main one");
    // The tests' bots build into one target directory (`CARGO_TARGET_DIR`): revisions too.
    let revisions = std::path::Path::new(&shared_target()).join("botlens/revisions");
    assert!(revisions.is_dir(), "revisions share a target directory");
}

#[test]
fn a_revision_of_a_javascript_bot_folder_is_built_as_its_language() {
    if !require(&[Tool::Clang]) {
        return;
    }
    let repo = tempfile::tempdir().unwrap();
    let bot = repo.path().join("bot");
    std::fs::create_dir(&bot).unwrap();
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
            .args(args)
            .current_dir(repo.path())
            .output()
            .expect("git runs");
        assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    };
    git(&["init", "--quiet"]);
    for shot in ["0, 0", "9, 9"] {
        crate::support::sweeping_js_bot(&bot, shot);
        git(&["add", "."]);
        git(&["commit", "--quiet", "-m", shot]);
    }
    let (now, before) = (bot.display().to_string(), format!("{}@HEAD~1", bot.display()));
    let out = botlens_building(&["compare", &before, &now, "--seeds", "0..2", "--json"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let report: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(report["game"], "battleships", "{report}");
    assert_eq!(report["a_commit"].as_str().map(str::len), Some(40), "{report}");
    assert_eq!(report["b_commit"], serde_json::Value::Null, "{report}");
    assert_eq!(report["games"], 4, "both seeds, each in both seats: {report}");
}

#[test]
fn run_against_a_baseline_gives_the_elo_verdict_on_the_seeds_both_played() {
    let sample = "samples/tictactoe-minimax";
    let name = format!("e2e-verdict-{}", std::process::id());
    let saved = botlens_building(&["run", sample, "--seeds", "0..100", "--save-baseline", &name]);
    assert_eq!(saved.code, Some(0), "{}", saved.stderr);
    let later = botlens_building(&["run", sample, "--seeds", "50..150", "--baseline", &name]);
    let few = botlens_building(&["run", sample, "--seeds", "0..10", "--baseline", &name]);
    let json =
        botlens_building(&["run", sample, "--seeds", "50..150", "--baseline", &name, "--json"]);
    let file = crate::support::repo_root()
        .join(sample)
        .join(format!("target/botlens/baselines/{name}.json"));
    std::fs::remove_file(file).expect("the baseline was saved");
    assert_eq!(later.code, Some(0), "{}", later.stderr);
    // The same bot on the seeds 50..=99 of both runs, against two opponents: 100 games, every
    // result the same (the bot and its opponents are deterministic given the seed). Only the
    // 0.001 counted for each empty outcome, as fishtest counts it, gives the interval a width:
    // 2·(−400·log₁₀(1/s − 1)) at s = ½ + 1.96·√(σ²/N), σ² = 0.001·0.625/100.004, N = 100.004.
    let line = format!("vs baseline `{name}`: +0.0 ± 0.7 Elo, LOS 50.0 % (100 games)");
    assert!(later.stdout.lines().any(|l| l == line), "{line} in:\n{}", later.stdout);
    let line = format!("vs baseline `{name}`: too few games to tell (20)");
    assert!(few.stdout.lines().any(|l| l == line), "{line} in:\n{}", few.stdout);
    let report: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let verdict = &report["comparison"]["elo"];
    assert_eq!(
        (verdict["kind"].as_str(), verdict["games"].as_u64()),
        (Some("estimate"), Some(100))
    );
    let outcomes = report["opponents"][0]["outcomes"]["seat0"].as_str().unwrap();
    assert_eq!(outcomes.len(), 100, "one result per seed");
    assert!(outcomes.chars().all(|c| "WLD".contains(c)), "{outcomes}");
}

/// The actions of a `botlens replay --plain` game, move by move.
fn replayed_moves(project: &str, seed: &str) -> Vec<String> {
    let out = botlens_building(&["replay", project, "--vs", "random", "--seed", seed, "--plain"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    out.stdout
        .lines()
        .filter(|line| line.starts_with("── move "))
        .map(|line| line.rsplit(" · ").next().unwrap().trim_end_matches(" ──").to_owned())
        .collect()
}

#[test]
fn diff_names_the_first_move_where_two_builds_part_as_their_replays_show() {
    let (a, b) = ("samples/tictactoe-minimax", "samples/tictactoe-forgetful");
    let out = botlens_building(&["diff", a, b, "--vs", "random", "--seed", "49"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let part = out.stdout.split("the games part at move ").nth(1).expect(&out.stdout);
    let index: usize = part.split_whitespace().next().unwrap().parse().unwrap();
    let (moves_a, moves_b) = (replayed_moves(a, "49"), replayed_moves(b, "49"));
    assert_eq!(moves_a[..index - 1], moves_b[..index - 1], "the same until move {index}");
    assert_ne!(moves_a[index - 1], moves_b[index - 1]);
    for (side, moves) in [(a, &moves_a), (b, &moves_b)] {
        let line = format!("  {side}: seat 0 plays {}", moves[index - 1]);
        assert!(out.stdout.contains(&line), "{line} in:\n{}", out.stdout);
    }
    assert!(out.stdout.contains(&format!("the board before move {index}:\n")), "{}", out.stdout);
    // The minimax sample logs its choice on every move; the forgetful one does not.
    let logged = format!("{a} logged on move {index}:\n  ");
    assert!(out.stdout.contains(&logged) && out.stdout.contains("best squares"), "{}", out.stdout);
    let ended = out.stdout.split("how the games ended:\n").nth(1).unwrap();
    assert!(ended.starts_with(&format!("  {a}: won in {} moves", moves_a.len())), "{ended}");
    assert!(ended.contains(&format!("  {b}: lost in {} moves", moves_b.len())), "{ended}");
}

#[test]
fn diff_over_many_seeds_counts_divergences_and_names_the_changed_results() {
    let args = ["diff", "--game", "tictactoe", "perfect", "random", "--vs", "random"];
    let many = botlens(&[&args[..], &["--seeds", "0..200", "--jobs", "1"]].concat());
    assert_eq!(many.code, Some(0), "{}", many.stderr);
    let again = botlens(&[&args[..], &["--seeds", "0..200", "--jobs", "3"]].concat());
    assert_eq!(many.stdout, again.stdout, "the same with any --jobs");
    let text = &many.stdout;
    assert!(text.contains(": 200 games each\n"), "{text}");
    let counts = text.lines().nth(1).unwrap();
    let numbers: Vec<u64> =
        counts.split_whitespace().filter_map(|word| word.parse().ok()).collect();
    assert_eq!(numbers.iter().sum::<u64>(), 200, "identical + divergent: {counts}");
    let bars: u64 = text
        .lines()
        .filter(|line| line.starts_with("  move "))
        .map(|line| line.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(bars, numbers[1], "the histogram counts every divergent game");
    // A seed listed as won → lost is, diffed alone, won by A and lost by B.
    let flips = text.lines().find(|line| line.starts_with("  won → lost: ")).expect(text);
    let seed = flips.split("(seeds ").nth(1).unwrap().split([',', ')']).next().unwrap();
    let one = botlens(&[&args[..], &["--seed", seed]].concat());
    assert_eq!(one.code, Some(0), "{}", one.stderr);
    let ended = one.stdout.split("how the games ended:\n").nth(1).unwrap();
    assert!(
        ended.starts_with("  perfect: won in ") && ended.contains("  random: lost in "),
        "{ended}"
    );
    // --json: the same figures as the text, every documented field there.
    let json = botlens(&[&args[..], &["--seeds", "0..200", "--json"]].concat());
    assert_eq!(json.code, Some(0), "{}", json.stderr);
    let value: serde_json::Value = serde_json::from_str(&json.stdout).expect(&json.stdout);
    let divergent: u64 =
        value["histogram"].as_object().unwrap().values().map(|n| n.as_u64().unwrap()).sum();
    assert_eq!([value["identical"].as_u64().unwrap(), divergent], numbers[..2], "{value}");
    assert_eq!(value["seeds"], "0..=199");
    let won_lost =
        value["flips"].as_array().unwrap().iter().find(|f| f["a"] == "won" && f["b"] == "lost");
    let listed = won_lost.expect("won → lost listed")["seeds"][0].as_u64().unwrap();
    assert_eq!(listed.to_string(), seed);
    let one = botlens(&[&args[..], &["--seed", seed, "--json"]].concat());
    let value: serde_json::Value = serde_json::from_str(&one.stdout).expect(&one.stdout);
    assert_eq!(
        (value["a_ending"]["result"].as_str(), value["b_ending"]["result"].as_str()),
        (Some("win"), Some("loss")),
        "{value}"
    );
    let index = value["divergence"]["index"].as_u64().expect("the games part");
    assert!(index >= 1 && value["divergence"]["a"]["action"].is_string(), "{value}");
}

#[test]
fn diff_refuses_bad_input_with_exit_code_2() {
    let cases: [(&[&str], &str); 5] = [
        (&["diff", "--game", "tictactoe", "perfect", "random", "--vs", "random"], "--seed S"),
        (
            &["diff", "--game", "tictactoe", "perfect", "perfect", "--vs", "random", "--seed", "1"],
            "are the same bot",
        ),
        (
            &["diff", "--game", "tictactoe", "perfect", "random", "--vs", "nobody", "--seed", "1"],
            "no reference player `nobody`",
        ),
        (
            &[
                "diff",
                "--game",
                "tictactoe",
                "perfect",
                "random",
                "--vs",
                "random",
                "--seed",
                "1",
                "--seat",
                "2",
            ],
            "--seat 2: tictactoe has seats 0 to 1",
        ),
        (
            &[
                "diff",
                "samples/klotski-solver",
                "--game",
                "klotski",
                "optimal",
                "--vs",
                "hengdaolima",
                "--seed",
                "1",
                "--seat",
                "1",
            ],
            "--seat 1: klotski has seats 0 to 0",
        ),
    ];
    for (args, message) in cases {
        let out = botlens(args);
        assert_eq!(out.code, Some(2), "{args:?}: {}", out.stdout);
        assert!(out.stderr.contains(message), "{args:?}: {message} in {}", out.stderr);
    }
}

/// The good bot's fallback written another way: the same moves, a different module.
const CENTRE_AGAIN: &str =
    "if board[4].is_none() { 4 } else { *free.first().expect(\"a free square\") }";
/// The weaker bot's, written another way.
const ANYWHERE_AGAIN: &str = "free[self.rng.index(free.len())]";

#[test]
fn bisect_names_the_commit_that_made_the_bot_weaker_with_the_evidence() {
    let repo = bot_history("bisected", &[CENTRE, CENTRE_AGAIN, ANYWHERE, ANYWHERE_AGAIN]);
    let bot = repo.path().join("bisected");
    let project = bot.to_str().unwrap();
    let hash = |rev: &str| {
        let out = std::process::Command::new("git")
            .args(["rev-parse", "--short=12", rev])
            .current_dir(repo.path())
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap().trim().to_owned()
    };
    let out = botlens_building(&["bisect", project, "HEAD~3", "HEAD", "--sprt", "elo1=40"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let text = &out.stdout;
    assert!(
        text.contains(&format!("first weaker revision: {} commit 2\n", hash("HEAD~1"))),
        "{text}"
    );
    // BAD first, then the middle of the three, then the one left in doubt.
    let judged: Vec<&str> = text
        .lines()
        .filter(|line| line.starts_with("  ") && line.trim_start().as_bytes()[0].is_ascii_digit())
        .collect();
    assert_eq!(judged.len(), 3, "{text}");
    assert!(judged[0].ends_with(&format!("{} commit 3: bad", hash("HEAD"))), "{text}");
    assert!(judged[1].ends_with(&format!("{} commit 1: good", hash("HEAD~2"))), "{text}");
    assert!(judged[2].ends_with(&format!("{} commit 2: bad", hash("HEAD~1"))), "{text}");
    assert_eq!(text.matches("SPRT: H1 accepted after").count(), 2, "{text}");
    assert!(text.contains("SPRT: H0 accepted after"), "{text}");
    assert!(out.stderr.contains("botlens: judging "), "{}", out.stderr);
    let worktrees = std::process::Command::new("git")
        .args(["worktree", "list"])
        .current_dir(repo.path())
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&worktrees.stdout).lines().count(), 1, "all removed");
    // Bad input.
    let cases: [(&[&str], &str); 3] = [
        (&["bisect", project, "HEAD", "HEAD"], "nothing to bisect"),
        (&["bisect", project, "no-such-rev", "HEAD"], "is not a revision"),
        (&["bisect", project, "HEAD~1", "HEAD", "--sprt", "elo0=9", "elo1=1"], "elo0 below elo1"),
    ];
    for (args, says) in cases {
        let out = botlens(args);
        assert_eq!(out.code, Some(2), "{args:?}: {}", out.stdout);
        assert!(out.stderr.contains(says), "{args:?}: {}", out.stderr);
    }
}

#[test]
fn fail_on_regression_exits_1_when_a_non_regression_sprt_finds_a_weaker() {
    let check = ["--sprt", "elo0=-10", "elo1=0", "--fail-on-regression"];
    let compare = |a: &str, b: &str, extra: &[&str]| {
        botlens(&[&["compare", "--game", "tictactoe", a, b][..], extra].concat())
    };
    let weaker = compare("random", "perfect", &check);
    assert_eq!(weaker.code, Some(1), "{}{}", weaker.stdout, weaker.stderr);
    assert!(weaker.stdout.contains(" - H0 was accepted\n"), "{}", weaker.stdout);
    assert!(
        weaker.stderr.ends_with(
            "botlens: random is worse than perfect: a regression (exit status 1, --fail-on-regression)\n"
        ),
        "{}",
        weaker.stderr
    );
    let stronger = compare("perfect", "random", &[&check[..], &["--json"]].concat());
    assert_eq!(stronger.code, Some(0), "{}", stronger.stderr);
    let report: serde_json::Value = serde_json::from_str(&stronger.stdout).expect("JSON");
    assert_eq!(
        (&report["sprt"]["verdict"], &report["regression"]),
        (&"h1_accepted".into(), &false.into())
    );
    // Without the flag, the same comparison is figures only.
    let figures = compare("random", "perfect", &check[..3]);
    assert_eq!(figures.code, Some(0), "{}", figures.stderr);

    // A test that cannot tell a regression is refused before anything is played.
    for (extra, why) in [
        (&["--fail-on-regression"][..], "needs --sprt with a non-regression test's bounds"),
        (&["--sprt", "elo0=0", "elo1=10", "--fail-on-regression"][..], "elo1 is 10"),
    ] {
        let refused = compare("random", "perfect", extra);
        assert_eq!(refused.code, Some(2), "{}", refused.stderr);
        assert!(refused.stdout.is_empty(), "{}", refused.stdout);
        assert!(refused.stderr.contains(why), "{}", refused.stderr);
    }
}
