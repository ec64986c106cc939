//! `botlens run` on Python bots (`class Bot:` with `def play(self, turn):`): bad input is caught
//! before any game (a syntax or indentation error at its line and column, a file that is not
//! UTF-8), each way a bot can go wrong at run time is a located failure in the bot's own file
//! with the Python traceback, what the sandbox cannot give (files, sockets, the host's
//! environment) is a clear error, games replay exactly, and `botlens new --lang python`
//! scaffolds bots that play clean.
//!
//! The first Python run of a botlens build builds its Python runner (RustPython, several
//! minutes, with Rust alone), so the deadline is generous.

use std::path::Path;
use std::time::Duration;

use crate::support::{Output, botlens_with_input, line_after_marker, only_failure};

/// Long enough for the runner's first build on a busy machine.
const DEADLINE: Duration = Duration::from_secs(1500);

/// `botlens run <dir>/bot.py --game <game> --vs random --seeds 0..4 --json` on `source`.
fn run_py(dir: &Path, game: &str, source: &[u8]) -> Output {
    let file = dir.join("bot.py");
    std::fs::write(&file, source).expect("a temporary bot");
    let file = file.display().to_string();
    let args = ["run", &file, "--game", game, "--vs", "random", "--seeds", "0..4", "--json"];
    botlens_with_input(&args, "", DEADLINE)
}

#[test]
fn syntax_and_indentation_errors_are_reported_at_their_line_and_column_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[u8], &str, &str); 2] = [
        (
            b"class Bot:\n    def play(self, turn):\n        turn.mark(0, 0\n",
            "bot.py:3:18",
            "was never closed",
        ),
        (
            b"class Bot:\n    def play(self, turn):\n    turn.mark(0, 0)\n",
            "bot.py:3:",
            "IndentationError",
        ),
    ];
    for (source, place, says) in cases {
        let out = run_py(dir.path(), "tictactoe", source);
        assert_eq!(out.code, Some(2), "{}\n{}", out.stdout, out.stderr);
        assert!(out.stderr.contains(says), "{}", out.stderr);
        assert!(out.stderr.contains(place), "{}", out.stderr);
        assert!(!out.stdout.contains("\"games\""), "{}", out.stdout);
    }
    let out = run_py(dir.path(), "tictactoe", b"class Bot:\n    pass\n# \xff\n");
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(out.stderr.contains("bot.py:3:3: the file is not UTF-8 text"), "{}", out.stderr);
    // A 100 MB source is refused unread past the bound, before any game.
    let mut huge = b"class Bot:\n    pass\n".to_vec();
    huge.resize(100 << 20, b'#');
    let out = run_py(dir.path(), "tictactoe", &huge);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(
        out.stderr.contains("larger than 4 MiB, the most botlens reads of it"),
        "{}",
        out.stderr
    );
    assert!(!out.stdout.contains("\"games\""), "{}", out.stdout);
}

#[test]
fn a_bot_that_replaces_random_and_print_plays_on_and_replays() {
    let dir = tempfile::tempdir().unwrap();
    let source = "import builtins, random\n\n\
        random.seed = None\n\
        builtins.print = None\n\n\
        class Bot:\n\
        \x20   def play(self, turn):\n\
        \x20       free = [(x, y) for y in range(3) for x in range(3) if turn.grid[y][x] == '']\n\
        \x20       turn.mark(*random.choice(free))\n";
    let games = || {
        let out = run_py(dir.path(), "tictactoe", source.as_bytes());
        assert_eq!(out.code, Some(0), "{}\n{}", out.stdout, out.stderr);
        let report: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        report["opponents"].clone()
    };
    assert_eq!(games(), games(), "the same games");
}

/// A bad bot: its source, the failure kind, a part of the message, and the marker of its line
/// (`# botlens reports the <marker> on the next line`), or line 1.
struct Bad {
    source: &'static str,
    kind: &'static str,
    says: &'static str,
    marker: Option<&'static str>,
}

#[test]
fn bad_bots_fail_located_in_their_own_file_with_the_python_traceback() {
    let cases = [
        Bad {
            source: "class Robot:\n    pass\n",
            kind: "panic",
            says: "does not define `class Bot:`",
            marker: None,
        },
        Bad {
            source: "class Bot:\n    play = 3\n",
            kind: "panic",
            says: "`Bot.play` is not a method",
            marker: None,
        },
        Bad {
            source: "class Bot:\n    def __init__(self):\n        # botlens reports the init on the next line\n        raise ValueError('no')\n",
            kind: "panic",
            says: "uncaught ValueError: no\nTraceback (most recent call last):\n  File \"bot.py\", line 4, in __init__",
            marker: Some("init"),
        },
        Bad {
            source: "def pick(grid):\n    # botlens reports the divide on the next line\n    return 1 // 0\n\nclass Bot:\n    def play(self, turn):\n        turn.mark(*pick(turn.grid))\n",
            kind: "panic",
            says: "uncaught ZeroDivisionError: division by zero\nTraceback (most recent call last):\n  File \"bot.py\", line 7, in play\n  File \"bot.py\", line 3, in pick",
            marker: Some("divide"),
        },
        Bad {
            source: "class Bot:\n    def play(self, turn):\n        # botlens reports the illegal on the next line\n        turn.mark(1, 1)\n",
            kind: "illegal_move",
            says: "illegal move mark(1, 1)",
            marker: Some("illegal"),
        },
        // Coordinates that are not both `int`s go through `json.dumps`, as the bot wrote them.
        Bad {
            source: "class Bot:\n    def play(self, turn):\n        # botlens reports the float on the next line\n        turn.mark(1.0, 0)\n",
            kind: "malformed_message",
            says: "invalid type: floating point `1.0`",
            marker: Some("float"),
        },
        Bad {
            source: "class Bot:\n    def play(self, turn):\n        turn.mark(0, 0)\n        # botlens reports the second on the next line\n        turn.mark(0, 1)\n",
            kind: "second_move",
            says: "in one turn",
            marker: Some("second"),
        },
        Bad {
            source: "class Bot:\n    # botlens reports the none on the next line\n    def play(self, turn):\n        pass\n",
            kind: "no_move",
            says: "without making a move",
            marker: Some("none"),
        },
        Bad {
            source: "def deeper(n):\n    # botlens reports the recursion on the next line\n    return deeper(n + 1)\n\nclass Bot:\n    def play(self, turn):\n        deeper(0)\n",
            kind: "panic",
            says: "uncaught RecursionError",
            marker: Some("recursion"),
        },
        Bad {
            source: "class Bot:\n    def play(self, turn):\n        n = 0\n        # botlens reports the loop on the next line\n        while n >= 0: n = (n + 1) % 7\n",
            kind: "out_of_fuel",
            says: "budget",
            marker: Some("loop"),
        },
        Bad {
            source: "n = 0\nwhile True:\n    # botlens reports the top on the next line\n    n += 1\n",
            kind: "out_of_fuel",
            says: "budget",
            marker: Some("top"),
        },
        Bad {
            source: "class Bot:\n    def __init__(self):\n        self.kept = []\n    def play(self, turn):\n        while True:\n            # botlens reports the memory on the next line\n            self.kept.append(bytearray(200_000_000))\n",
            kind: "memory_limit",
            says: "",
            marker: Some("memory"),
        },
        // RustPython 0.5 aborts when an object reaches 32,767 references on a 32-bit target (here
        // `None`, docs/python.md): a trap, located at the line that made them.
        Bad {
            source: "class Bot:\n    def play(self, turn):\n        # botlens reports the references on the next line\n        self.many = [None] * 40000\n",
            kind: "trap",
            says: "unreachable",
            marker: Some("references"),
        },
        Bad {
            source: "import os\n# botlens reports the os on the next line\nos.system('touch /tmp/botlens-python-was-here')\n",
            kind: "panic",
            says: "uncaught AttributeError: os.system is not in botlens: the sandbox gives a bot no files, sockets",
            marker: Some("os"),
        },
        // `posix` is the same stand-in as `os` (the standard library's own imports need it).
        Bad {
            source: "import posix\n# botlens reports the posix on the next line\nposix.system('touch /tmp/botlens-python-was-here')\n",
            kind: "panic",
            says: "uncaught AttributeError: os.system is not in botlens: the sandbox gives a bot no files, sockets",
            marker: Some("posix"),
        },
        Bad {
            source: "# botlens reports the socket on the next line\nimport socket\n",
            kind: "panic",
            says: "No module named 'socket' in botlens",
            marker: Some("socket"),
        },
        Bad {
            source: "# botlens reports the open on the next line\nSECRET = open('/etc/passwd').read()\n",
            kind: "panic",
            says: "uncaught PermissionError: open(): the sandbox gives a bot no files",
            marker: Some("open"),
        },
    ];
    for case in cases {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("bot.py");
        std::fs::write(&file, case.source).unwrap();
        let config = "game = \"tictactoe\"\nopponents = [\"random\"]\nseeds = \"0..2\"\n\n[limits]\nfuel_per_turn = 40_000_000\nmemory_bytes = 134_217_728\n";
        std::fs::write(dir.path().join("botlens.toml"), config).unwrap();
        let out =
            botlens_with_input(&["run", &dir.path().display().to_string(), "--json"], "", DEADLINE);
        assert_eq!(out.code, Some(1), "{}\n{}\n{}", case.source, out.stdout, out.stderr);
        let failure = only_failure(&out);
        assert_eq!(failure["kind"], case.kind, "{}\n{failure:#}", case.source);
        let message = failure["message"].as_str().unwrap();
        assert!(message.contains(case.says), "{}\n{failure:#}", case.source);
        assert!(failure["file"].as_str().unwrap().ends_with("bot.py"), "{failure:#}");
        let line = match case.marker {
            Some(marker) => {
                line_after_marker(&file, &format!("botlens reports the {marker} on the next line"))
            }
            None => 1,
        };
        assert_eq!(failure["line"], line, "{}\n{failure:#}", case.source);
    }
    assert!(!Path::new("/tmp/botlens-python-was-here").exists(), "a bot reached the host");
}

#[test]
fn random_print_and_the_standard_library_replay_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let source = "import random, math, itertools, collections, functools, heapq, json\n\
        from dataclasses import dataclass\n\n\
        @dataclass\n\
        class Pick:\n\
        \x20   x: int\n\
        \x20   y: int\n\n\
        class Bot:\n\
        \x20   def __init__(self):\n\
        \x20       self.seen = collections.Counter()\n\n\
        \x20   def play(self, turn):\n\
        \x20       free = [(x, y) for y in range(3) for x in range(3) if turn.grid[y][x] == '']\n\
        \x20       random.shuffle(free)\n\
        \x20       heapq.heapify(free)\n\
        \x20       pick = random.choice(free)\n\
        \x20       self.seen[pick] += 1\n\
        \x20       print('pick', json.dumps(pick), round(random.random(), 6), math.floor(2.5))\n\
        \x20       turn.mark(Pick(*pick).x, Pick(*pick).y)\n";
    let traces = |name: &str| {
        let traces = dir.path().join(name);
        let out = botlens_with_input(
            &[
                "run",
                &dir.path().join("bot.py").display().to_string(),
                "--game",
                "tictactoe",
                "--vs",
                "random",
                "--seeds",
                "0..6",
                "--trace-dir",
                &traces.display().to_string(),
                "--json",
            ],
            "",
            DEADLINE,
        );
        assert_eq!(out.code, Some(0), "{}\n{}", out.stdout, out.stderr);
        let mut files: Vec<_> =
            std::fs::read_dir(&traces).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        files.iter().map(|f| std::fs::read_to_string(f).unwrap()).collect::<Vec<_>>()
    };
    std::fs::write(dir.path().join("bot.py"), source).unwrap();
    let first = traces("first");
    assert_eq!(first.len(), 6);
    let trace: serde_json::Value = serde_json::from_str(&first[0]).unwrap();
    let logged: Vec<&str> = trace["moves"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| m["logs"].as_array().into_iter().flatten().map(|l| l.as_str().unwrap()))
        .collect();
    assert!(!logged.is_empty() && logged.iter().all(|l| l.starts_with("pick [")), "{logged:?}");
    let all: std::collections::BTreeSet<String> =
        first.iter().map(|t| t.lines().filter(|l| l.contains("pick [")).collect()).collect();
    assert!(all.len() > 1, "the seeds give different games");
    assert_eq!(first, traces("second"), "the same games");
}

/// The fuel of the bot's first move in each game of `bot.py` in `dir`, which must play clean
/// against `random` at Tic-tac-toe.
fn first_turns_fuel(dir: &Path, source: &str) -> Vec<u64> {
    std::fs::write(dir.join("bot.py"), source).unwrap();
    let traces = dir.join("traces");
    let _ = std::fs::remove_dir_all(&traces);
    let (bot, trace_dir) = (dir.join("bot.py").display().to_string(), traces.display().to_string());
    let args = ["run", &bot, "--game", "tictactoe", "--vs", "random", "--seeds", "0..2"];
    let args = [&args[..], &["--trace-dir", &trace_dir, "--json"]].concat();
    let out = botlens_with_input(&args, "", DEADLINE);
    assert_eq!(out.code, Some(0), "{source}\n{}\n{}", out.stdout, out.stderr);
    let mut fuel = Vec::new();
    for entry in std::fs::read_dir(&traces).unwrap() {
        let trace: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap()).unwrap();
        let moves = trace["moves"].as_array().unwrap();
        let first = moves.iter().find(|m| m["seat"] == 0).expect("the bot moved");
        fuel.push(first["cost"]["fuel"].as_u64().unwrap());
    }
    assert_eq!(fuel.len(), 2);
    fuel
}

#[test]
fn dataclasses_is_imported_once_for_a_bot_that_names_it_and_by_a_game_that_makes_its_name() {
    let dir = tempfile::tempdir().unwrap();
    let bot = |import: &str| {
        let rest = "@dataclass
class Square:
    x: int
    y: int

class Bot:
    def play(self, turn):
        free = [Square(x, y) for y in range(3) for x in range(3) if turn.grid[y][x] == '']
        turn.mark(free[0].x, free[0].y)
";
        format!("{import}\n\n{rest}")
    };
    // Imported before the games (docs/python.md): the first turn only runs the bot's code (about
    // 10⁷ units, most of it `@dataclass` making the class's methods).
    let named = first_turns_fuel(dir.path(), &bot("from dataclasses import dataclass"));
    // Imported by the game, on its first turn's fuel (2.9·10⁸ units), past the sandbox's
    // refusals as the runner's own imports are.
    let made =
        first_turns_fuel(dir.path(), &bot("dataclass = __import__('data' + 'classes').dataclass"));
    for (named, made) in named.into_iter().zip(made) {
        assert!(named < 50_000_000 && made > 200_000_000, "named {named}, made {made}");
    }
}

#[test]
fn new_python_bots_play_clean() {
    let dir = tempfile::tempdir().unwrap();
    for game in ["tictactoe", "battleships", "klotski"] {
        let botlens = |args: &[&str]| botlens_with_input(args, "", DEADLINE);
        crate::support::new_bot_plays_clean(botlens, "python", game, dir.path());
    }
}

#[test]
fn the_turn_objects_answer_as_docs_python_md_says() {
    let dir = tempfile::tempdir().unwrap();
    let source = "import random\n\n\
        class Bot:\n\
        \x20   def __init__(self):\n\
        \x20       self.untried = list(range(100))\n\
        \x20       self.sunk = 0\n\n\
        \x20   def play(self, turn):\n\
        \x20       assert type(turn.targets) is str and len(turn.targets) == 100, turn.targets\n\
        \x20       assert set(turn.own) <= set('.SXo') and len(turn.own) == 100, turn.own\n\
        \x20       assert turn.shots == 100 - len(self.untried), (turn.shots, len(self.untried))\n\
        \x20       assert len(turn.enemy_ships_left) == 7 - self.sunk, turn.enemy_ships_left\n\
        \x20       assert repr(turn).startswith('BattleshipsTurn(targets='), repr(turn)\n\
        \x20       try:\n\
        \x20           turn.kept = 1\n\
        \x20           raise AssertionError('a turn took a new attribute')\n\
        \x20       except AttributeError:\n\
        \x20           pass\n\
        \x20       try:\n\
        \x20           turn.mark(0, 0)\n\
        \x20           raise AssertionError('a Battleships turn has mark')\n\
        \x20       except AttributeError as error:\n\
        \x20           assert 'is a Tic-tac-toe turn' in str(error), str(error)\n\
        \x20       print('turn', end=' ')\n\
        \x20       print(turn.shots, end='')\n\
        \x20       square = self.untried.pop(random.randrange(len(self.untried)))\n\
        \x20       shot = turn.attack(square % 10, square // 10)\n\
        \x20       if type(shot) is dict:\n\
        \x20           self.sunk += 1\n\
        \x20           assert shot['no'] == self.sunk and shot['kind'] in ('carrier', 'warship', 'submarine', 'cruiser', 'patrol'), shot\n\
        \x20           assert set(shot) == {'no', 'kind', 'size', 'x', 'y', 'direction'}, shot\n\
        \x20           print('sunk', shot['no'], shot['kind'])\n\
        \x20       else:\n\
        \x20           assert shot in (True, False) and type(shot) is bool, shot\n";
    let out = run_py(dir.path(), "battleships", source.as_bytes());
    assert_eq!(out.code, Some(0), "{}\n{}", out.stdout, out.stderr);
    let report: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(report["failures"], serde_json::json!([]), "{report:#}");

    let traces = dir.path().join("traces");
    let file = dir.path().join("bot.py").display().to_string();
    let args = ["run", &file, "--game", "battleships", "--vs", "random", "--seeds", "0..1"];
    let trace_dir = traces.display().to_string();
    let out = botlens_with_input(&[&args[..], &["--trace-dir", &trace_dir]].concat(), "", DEADLINE);
    assert_eq!(out.code, Some(0), "{}\n{}", out.stdout, out.stderr);
    let trace = std::fs::read_dir(&traces).unwrap().next().unwrap().unwrap().path();
    let trace: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(trace).unwrap()).unwrap();
    let logs: Vec<Vec<&str>> = trace["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["logs"].as_array())
        .map(|logs| logs.iter().map(|l| l.as_str().unwrap()).collect())
        .collect();
    // A line the bot left unfinished is the turn's last line; a finished one stays whole.
    assert_eq!(logs[0], ["turn 0"], "{logs:?}");
    assert_eq!(logs[1], ["turn 1"], "{logs:?}");
    assert!(logs.iter().flatten().any(|l| l.contains("sunk 1 ")), "{logs:?}");
}

#[test]
fn randoms_functions_draw_what_random_py_draws_and_refuse_what_it_refuses() {
    // `random`'s module functions are the runner's own (docs/python.md); a `random.Random` of the
    // bot's is random.py's, seeded alike, so both must draw the same numbers and fail alike.
    let dir = tempfile::tempdir().unwrap();
    let source = "import random\n\n\
        def same(name, *args):\n\
        \x20   random.seed(7)\n\
        \x20   ours = random.Random(7)\n\
        \x20   for _ in range(50):\n\
        \x20       try:\n\
        \x20           got = getattr(random, name)(*args)\n\
        \x20       except Exception as error:\n\
        \x20           got = (type(error), str(error))\n\
        \x20       try:\n\
        \x20           want = getattr(ours, name)(*args)\n\
        \x20       except Exception as error:\n\
        \x20           want = (type(error), str(error))\n\
        \x20       assert got == want, (name, args, got, want)\n\n\
        same('randrange', 97)\n\
        same('randrange', -5, 5)\n\
        same('randrange', 1 << 70)\n\
        same('randrange', 0, 30, 7)\n\
        same('randrange', 0)\n\
        same('randrange', 3.0)\n\
        same('randint', -3, 3)\n\
        same('randint', 5, 4)\n\
        same('choice', [1, 2, 3])\n\
        same('choice', ('a', 'b'))\n\
        same('choice', 'xyz')\n\
        same('choice', [])\n\
        random.seed(3)\n\
        mine = random.Random(3)\n\
        a, b = list(range(30)), list(range(30))\n\
        random.shuffle(a)\n\
        mine.shuffle(b)\n\
        assert a == b, (a, b)\n\n\
        class Bot:\n\
        \x20   def play(self, turn):\n\
        \x20       free = [(x, y) for y in range(3) for x in range(3) if turn.grid[y][x] == '']\n\
        \x20       turn.mark(*random.choice(free))\n";
    let out = run_py(dir.path(), "tictactoe", source.as_bytes());
    assert_eq!(out.code, Some(0), "{}\n{}", out.stdout, out.stderr);
    let report: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(report["failures"], serde_json::json!([]), "{report:#}");
}

/// A Battleships bot whose turns go mostly to a loop of its own (`waste`), some to a helper that
/// draws from `random` (`pick`), and, after its third turn, to a loop that never ends.
const PROFILED_BOT: &str = "import random

class Bot:
    def __init__(self):
        self.tried = set()
        self.turns = 0

    def waste(self):
        total = 0
        for i in range(300):
            # the hot line is the next one
            total += i * i
        return total

    def pick(self):
        while True:
            x, y = random.randrange(10), random.randrange(10)
            if (x, y) not in self.tried:
                return x, y

    def step(self, n):
        return n + 1

    def play(self, turn):
        self.turns += 1
        if self.turns > SPIN_AFTER:
            # botlens reports the loop on the next line
            while True: self.turns = self.step(self.turns)
        self.waste()
        x, y = self.pick()
        self.tried.add((x, y))
        turn.attack(x, y)
";

#[test]
fn profile_shows_the_scripts_functions_and_lines_and_its_games_are_runs_games_and_failures_are_profiled()
 {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bot.py");
    std::fs::write(&file, PROFILED_BOT.replace("SPIN_AFTER", "1000")).unwrap();
    let bot = file.display().to_string();
    let suite = ["--game", "battleships", "--vs", "random", "--seeds", "0..4"];
    let profile_args = [&["profile", &bot][..], &suite, &["--json"]].concat();
    let out = botlens_with_input(&profile_args, "", DEADLINE);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let again = botlens_with_input(&profile_args, "", DEADLINE);
    assert_eq!(out.stdout, again.stdout, "the same bot and seeds give the same profile");
    let profile: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();

    // The hottest line is the loop's body, in the bot's own file; `Bot.waste` burns the most.
    let hot = line_after_marker(&file, "the hot line is the next one");
    let lines = profile["lines"].as_array().unwrap();
    assert_eq!(lines[0]["line"].as_u64(), Some(hot), "{profile:#}");
    assert!(lines[0]["file"].as_str().unwrap().ends_with("bot.py"), "{profile:#}");
    assert_eq!(lines[0]["function"], "Bot.waste", "{profile:#}");
    let functions = profile["functions"].as_array().unwrap();
    let own = |f: &&serde_json::Value| f["own_fuel"].as_u64().unwrap();
    let hottest = functions.iter().max_by_key(own).unwrap();
    assert_eq!((&hottest["function"], &hottest["bot"]), (&"Bot.waste".into(), &true.into()));
    assert!(functions.iter().any(|f| f["function"] == "Bot.pick" && f["bot"] == true));
    // The runner's and the standard library's Python frames are there, not the bot's.
    assert!(functions.iter().any(|f| f["bot"] == false && f["file"].is_string()), "{profile:#}");
    let fuel = profile["fuel"].as_u64().unwrap();
    let owned: u64 = functions.iter().map(|f| own(&f)).sum();
    assert_eq!(owned + profile["outside_bot_fuel"].as_u64().unwrap(), fuel);

    // Profiled games are `run`'s games: the same fuel, move for move.
    let traces = dir.path().join("traces");
    let trace_dir = traces.display().to_string();
    let run_args = [&["run", &bot][..], &suite, &["--trace-dir", &trace_dir, "--json"]].concat();
    let out = botlens_with_input(&run_args, "", DEADLINE);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let mut run_fuel = 0;
    for entry in std::fs::read_dir(&traces).unwrap() {
        let trace: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap()).unwrap();
        let moves = trace["moves"].as_array().unwrap();
        let bots = moves.iter().filter(|m| m["seat"] == 0);
        run_fuel += bots.map(|m| m["cost"]["fuel"].as_u64().unwrap()).sum::<u64>();
    }
    assert_eq!(run_fuel, fuel);

    // A game lost by running out of fuel is played again profiled: the loop's line first.
    std::fs::write(&file, PROFILED_BOT.replace("SPIN_AFTER", "2")).unwrap();
    let run_args = [&["run", &bot][..], &suite, &["--json"]].concat();
    let out = botlens_with_input(&run_args, "", DEADLINE);
    let report: serde_json::Value = serde_json::from_str(&out.stdout).expect("a report");
    let group = &report["failures"][0];
    assert_eq!(group["kind"], "out_of_fuel", "{report:#}");
    let spin = line_after_marker(&file, "botlens reports the loop on the next line");
    assert_eq!(group["line"].as_u64(), Some(spin), "{group:#}");
    let lines = group["fuel_profile"].as_array().expect("a fuel profile");
    assert_eq!(lines[0]["line"].as_u64(), Some(spin), "{group:#}");
    assert!(lines[0]["total_percent"].as_f64().unwrap() > 90.0, "{group:#}");

    // A game lost by reaching the memory limit is played again profiled: the line that kept it.
    let leak = "class Bot:
    def __init__(self):
        self.kept = []
        self.turns = 0

    def remember(self):
        # botlens reports the growth on the next line
        self.kept.append(bytearray(5_000_000))

    def play(self, turn):
        self.turns += 1
        self.remember()
        turn.attack(self.turns % 10, self.turns // 10)
";
    std::fs::write(&file, leak).unwrap();
    let out = botlens_with_input(&run_args, "", DEADLINE);
    let report: serde_json::Value = serde_json::from_str(&out.stdout).expect("a report");
    let group = &report["failures"][0];
    assert_eq!(group["kind"], "memory_limit", "{report:#}");
    let kept = line_after_marker(&file, "botlens reports the growth on the next line");
    let growth = group["memory_growth"].as_array().expect("what grew the memory");
    assert_eq!(
        (growth[0]["line"].as_u64(), &growth[0]["function"]),
        (Some(kept), &"Bot.remember".into())
    );
    assert!(growth[0]["percent"].as_f64().unwrap() > 90.0, "{group:#}");
}

#[test]
fn code_compiled_under_a_forged_file_name_is_one_frame_of_code_not_the_bots() {
    // A file name of tabs and line breaks would make the runner's sample text say other
    // frames (a `+` line is the bot's); written as spaces, `spin` is one frame of other code.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bot.py");
    let source = r#"space = {}
spin = "def spin():\n    n = 0\n    for i in range(2000):\n        n += i\n    return n\n"
exec(compile(spin, "lib\t+\tforged\tbot.py\t1\t1\n+\tforged", "exec"), space)

class Bot:
    def play(self, turn):
        space['spin']()
        turn.attack(1, 1)
"#;
    std::fs::write(&file, source).unwrap();
    let bot = file.display().to_string();
    let args = ["profile", &bot, "--game", "battleships", "--vs", "random", "--seeds", "0..2"];
    let out = botlens_with_input(&[&args[..], &["--json"]].concat(), "", DEADLINE);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let profile: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let functions = profile["functions"].as_array().unwrap();
    let spin = functions.iter().find(|f| f["function"] == "spin").expect("spin's frame");
    assert_eq!(spin["file"], "lib + forged bot.py 1 1 + forged", "{spin}");
    assert_eq!(spin["bot"], false, "{spin}");
    assert!(functions.iter().all(|f| f["function"] != "forged"), "{profile:#}");
    let lines = profile["lines"].as_array().unwrap();
    assert!(lines.iter().all(|l| l["file"] == bot.as_str()), "{profile:#}");
}
