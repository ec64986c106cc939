//! Fuel profiles of a bot over a suite (`botlens profile`): where its fuel goes, by function and
//! by line of its own source, merged over games, as a table, as JSON, and as a speedscope file.
//!
//! The target is prepared as `run` prepares it ([`pipeline::prepare`]: built, loaded, opponents
//! and seeds resolved), then every (opponent, seed) is played with the bot in seat 0 as a
//! profiled player ([`botlens_sandbox::WasmPlayer::profiled`]), on the suite's worker threads.
//! The sandbox's profiles are deterministic, and the games are merged in (opponent, seed) order,
//! summing fuel per call stack in a sorted map, so the same module, suite and interval give the
//! same profile, byte for byte, whatever the threads.
//!
//! C, Zig and AssemblyScript bots are profiled as projects are, their lines from their DWARF or
//! source map; Python bots by the frames the Python runner states at each sample
//! ([`botlens_sandbox::BotModule::profiles_script`]). Reference players are native code (no fuel
//! to follow) and JavaScript bots run inside the bundled QuickJS runner, whose frames are the
//! interpreter's, not the script's lines: both are refused rather than profiled misleadingly.
//!
//! # JSON (`botlens profile --json`)
//!
//! | field | meaning |
//! |---|---|
//! | `bot`, `game`, `seeds`, `opponents` | what was played (seeds as `A..=B`) |
//! | `games` | games played |
//! | `interval` | epoch checks (function entries and loop back-edges) between two samples |
//! | `fuel` | fuel the bot burnt in all of them |
//! | `functions[]` | every function seen (a name in a file), by self fuel: `function`, `bot` (the bot's own code, not std, another crate or the SDK), `file` (where it is, when known), `self_fuel` (fuel burnt in it), `total_fuel` (in it and what it called), `own_fuel` (the bot's functions: fuel whose innermost frame of the bot's code is it, so std and SDK code it called counts; else 0), `self_percent`, `total_percent`, `own_percent`; the self fuels add up to `fuel`, and so do the own fuels with `outside_bot_fuel` |
//! | `lines[]` | the bot's own source lines, by self fuel: `file`, `line`, `function`, `self_fuel` (fuel whose innermost frame of the bot's code was this line), `total_fuel` (fuel with this line anywhere on the stack), `self_percent`, `total_percent` |
//! | `outside_bot_fuel` | fuel with no line of the bot's code on the stack (start-up, the SDK alone) |
//! | `out_of_fuel[]` | games the bot lost by running out of fuel: `opponent`, `seed`, `turn` (the bot's turn, from 1), `fuel` (that turn's), `lines` (that turn's top lines, as in `lines[]`, at most [`FAILING_TURN_LINES`]) |
//!
//! Percentages are of `fuel` (of the turn's fuel in `out_of_fuel[].lines`).

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use botlens_engine::stack::thousands;
use botlens_engine::text::printable;
use botlens_games::{GameVisitor, Scored};
use botlens_sandbox::{ProfileFrame, Sandbox};
use serde::Serialize;
use serde_json::{Value, json};

pub use crate::fuel::{DEFAULT_INTERVAL, FAILING_TURN_LINES, FunctionCost, LineCost, render_lines};
use crate::fuel::{NO_FRAME, Played, Stacks, failing_turn, percent, play_profiled, relative};
use crate::pipeline::{self, RunError, RunOptions, Stage};
use crate::suite::{self, Contender, Suite, WasmBot};
use crate::{CancelToken, Target};
/// The most games one profile plays (profiled games run several times slower than others).
pub const MAX_GAMES: u64 = 100_000;

/// Games that ran out of fuel whose failing turn is kept.
pub const MAX_FAILING_TURNS: usize = 20;

/// What to profile beyond the target: the suite's overrides and the sampling interval.
#[derive(Debug, Clone)]
pub struct ProfileOptions {
    /// Opponents, seeds, turn cap and worker threads (the bot always sits in seat 0: `paired`
    /// is not used).
    pub run: RunOptions,
    /// Epoch checks between two samples, at least 1.
    pub interval: u64,
}

/// Why there is no profile.
#[derive(Debug, thiserror::Error)]
pub enum ProfileError {
    /// The target could not be prepared (build, load, unknown opponent, bad limits).
    #[error(transparent)]
    Run(#[from] RunError),
    /// A reference player has no fuel to profile.
    #[error(
        "`{0}` is a reference player, native code that burns no fuel: profile a bot project or a .wasm module"
    )]
    Reference(String),
    /// A bot a language runner plays that states no frames of its script (JavaScript): its
    /// frames are the interpreter's. Holds what is not profiled ("JavaScript bots").
    #[error(
        "{0} are not profiled: their WebAssembly frames are the language's interpreter's, not the script's lines"
    )]
    Script(String),
    /// The interval is zero.
    #[error("the sampling interval must be at least 1 epoch check")]
    ZeroInterval,
    /// More games than [`MAX_GAMES`].
    #[error(
        "{0} games is more than a profile plays (at most {MAX_GAMES}); give fewer --seeds or --vs"
    )]
    TooManyGames(u64),
}

/// The turn of a game the bot lost by running out of fuel, and where that turn's fuel went.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FailingTurn {
    /// The opponent (or board) of the game.
    pub opponent: String,
    /// The game's seed.
    pub seed: u64,
    /// The bot's turn that ran out, from 1.
    pub turn: u32,
    /// The fuel that turn burnt.
    pub fuel: u64,
    /// Its top lines (percentages of the turn's fuel).
    pub lines: Vec<LineCost>,
}

/// A bot's fuel profile over a suite.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Profile {
    /// The bot's name.
    pub bot: String,
    /// The game's name.
    pub game: String,
    /// The seeds played, `A..=B`.
    pub seeds: String,
    /// The opponents (or boards).
    pub opponents: Vec<String>,
    /// Games played.
    pub games: u64,
    /// Epoch checks between two samples.
    pub interval: u64,
    /// Fuel burnt in every game.
    pub fuel: u64,
    /// Every function, by self fuel.
    pub functions: Vec<FunctionCost>,
    /// The bot's lines, by self fuel.
    pub lines: Vec<LineCost>,
    /// Fuel with no line of the bot's code on the stack.
    pub outside_bot_fuel: u64,
    /// Games lost by running out of fuel (the first [`MAX_FAILING_TURNS`]).
    pub out_of_fuel: Vec<FailingTurn>,
    /// Fuel per call stack (outermost frame first), for flame graphs.
    #[serde(skip)]
    pub stacks: BTreeMap<Vec<ProfileFrame>, u64>,
    /// The directory the table's source lines are read from: the bot's project or folder, or
    /// a module's directory. The module's line tables name the files, and a module may be
    /// anyone's: a file outside this directory is not read ([`botlens_bots::own_files`]).
    #[serde(skip)]
    pub source_root: Option<PathBuf>,
}

/// Profiles `target` over its suite (with `options`' overrides): every game played with the
/// bot profiled, the profiles merged. `progress` hears of the stages and of every game.
pub fn profile(
    sandbox: &Sandbox,
    target: &Target,
    options: &ProfileOptions,
    progress: &(dyn Fn(Stage) + Sync),
    cancel: &CancelToken,
) -> Result<Profile, ProfileError> {
    match target {
        Target::Reference { name, .. } => return Err(ProfileError::Reference(name.clone())),
        Target::Bot { lang, .. } if !lang.profiled() => {
            return Err(ProfileError::Script(format!("{lang} bots")));
        }
        Target::Bot { .. } | Target::Module { .. } => {}
    }
    if options.interval == 0 {
        return Err(ProfileError::ZeroInterval);
    }
    let run = RunOptions { paired: false, ..options.run.clone() };
    let prepared = pipeline::prepare(sandbox, target, &run, progress, cancel)?;
    let suite = prepared.suite;
    let games = suite.seeds.len() * suite.opponents.len() as u64;
    if games > MAX_GAMES {
        return Err(ProfileError::TooManyGames(games));
    }
    let Contender::Wasm(bot) = &suite.bot else {
        return Err(ProfileError::Reference(suite.bot.name().to_owned()));
    };
    if bot.module.is_runner() && !bot.module.profiles_script() {
        return Err(ProfileError::Script("modules of a language runner".to_owned()));
    }
    let played = suite.game.visit(PlayProfiled {
        suite: &suite,
        bot,
        interval: options.interval,
        progress,
        cancel,
    })?;
    if cancel.is_cancelled() {
        return Err(RunError::Cancelled.into());
    }
    let mut profile = summarize(&suite, options.interval, &played);
    profile.source_root = match target {
        Target::Module { path, .. } => {
            std::path::absolute(path).ok().and_then(|path| path.parent().map(Path::to_path_buf))
        }
        other => other.project_dir().map(Path::to_path_buf),
    };
    Ok(profile)
}

struct PlayProfiled<'a> {
    suite: &'a Suite,
    bot: &'a WasmBot,
    interval: u64,
    progress: &'a (dyn Fn(Stage) + Sync),
    cancel: &'a CancelToken,
}

impl GameVisitor for PlayProfiled<'_> {
    type Output = Result<Vec<Played>, ProfileError>;

    fn visit<G: Scored>(self) -> Self::Output {
        let suite = self.suite;
        suite::validate::<G>(suite).map_err(RunError::from)?;
        let played = suite::play_each(suite, self.progress, self.cancel, |opponent, seed| {
            self.play::<G>(opponent, seed)
        });
        Ok(played)
    }
}

impl PlayProfiled<'_> {
    /// One game, the bot profiled in seat 0.
    fn play<G: Scored>(&self, opponent: usize, seed: u64) -> Played {
        play_profiled::<G>(self.suite, self.bot, self.interval, (opponent, seed, 0))
    }
}

fn summarize(suite: &Suite, interval: u64, played: &[Played]) -> Profile {
    let mut stacks = Stacks::default();
    for game in played {
        stacks.add(&game.profile, |_| true);
    }
    let out_of_fuel = played
        .iter()
        .filter(|game| game.out_of_fuel)
        .take(MAX_FAILING_TURNS)
        .filter_map(|game| {
            let (turn, fuel, lines) = failing_turn(&game.profile)?;
            Some(FailingTurn {
                opponent: suite.opponents[game.opponent].name().to_owned(),
                seed: game.seed,
                turn,
                fuel,
                lines,
            })
        })
        .collect();
    let (lines, outside_bot_fuel) = stacks.lines();
    Profile {
        bot: suite.bot.name().to_owned(),
        game: suite.game.name().to_owned(),
        seeds: suite.seeds.to_string(),
        opponents: suite.opponents.iter().map(|o| o.name().to_owned()).collect(),
        games: played.len() as u64,
        interval,
        fuel: stacks.fuel(),
        functions: stacks.functions(),
        lines,
        outside_bot_fuel,
        out_of_fuel,
        stacks: stacks.0,
        source_root: None,
    }
}

/// Source lines read once per file, for showing a line's text: only files inside `root`
/// ([`botlens_bots::own_files`]).
struct Sources {
    root: Option<PathBuf>,
    read: HashMap<String, Option<Vec<String>>>,
}

impl Sources {
    /// The trimmed text of `line` in `file`, cut to `width` characters; empty when unreadable
    /// (outside the root too).
    fn text(&mut self, file: &str, line: u32, width: usize) -> String {
        let root = self.root.as_deref();
        let lines = self.read.entry(file.to_owned()).or_insert_with(|| {
            let limit = botlens_bots::own_files::MAX_SOURCE_BYTES;
            // A file the line tables name relative to the project is the project's.
            let root = root?;
            let text = botlens_bots::own_files::read_text(root, &root.join(file), limit).ok()?;
            Some(text.lines().map(str::to_owned).collect())
        });
        let Some(text) = lines.as_ref().and_then(|l| l.get(line as usize - 1)) else {
            return String::new();
        };
        let text = botlens_engine::text::printable_lines(text.trim()).into_owned();
        if text.chars().count() <= width {
            text
        } else {
            let cut: String = text.chars().take(width.saturating_sub(1)).collect();
            format!("{cut}…")
        }
    }
}

impl Profile {
    /// The table for a terminal: the top `top` functions and lines, and the turns that ran out
    /// of fuel; files relative to `base`. Names of functions, files, the bot and its opponents
    /// are the bot's text (its debug info, source map, folder), each shown [`printable`].
    pub fn render(&self, base: &Path, top: usize) -> String {
        let mut out = String::new();
        let opponents: Vec<_> = self.opponents.iter().map(|name| printable(name)).collect();
        let _ = writeln!(
            out,
            "{} ({}): {} games vs {}, seeds {}: {} fuel, sampled every {} epoch checks",
            printable(&self.bot),
            self.game,
            self.games,
            opponents.join(", "),
            self.seeds,
            thousands(self.fuel),
            thousands(self.interval),
        );
        let _ = writeln!(out, "\nFunctions by self fuel (* the bot's own code):");
        let _ = writeln!(out, "{:>8} {:>8}  function", "self", "total");
        let mut own: Vec<&FunctionCost> = self.functions.iter().filter(|f| f.bot).collect();
        own.sort_by(|a, b| b.own_fuel.cmp(&a.own_fuel).then(a.function.cmp(&b.function)));
        for f in self.functions.iter().take(top) {
            let mark = if f.bot { "*" } else { " " };
            let file = f.file.as_deref().map_or(String::new(), |file| {
                // The bot's files from `base`, others by their last two components.
                let shown = if f.bot {
                    relative(file, base)
                } else {
                    match file.rsplit(['/', '\\']).collect::<Vec<_>>()[..] {
                        [name, folder, _, ..] => format!("…/{folder}/{name}"),
                        _ => file.to_owned(),
                    }
                };
                format!("  ({})", printable(&shown))
            });
            let _ = writeln!(
                out,
                "{:>6.1} % {:>6.1} % {mark}{}{file}",
                f.self_percent,
                f.total_percent,
                printable(&f.function)
            );
        }
        if self.functions.len() > top {
            let _ = writeln!(out, "  … {} more (--top, --json)", self.functions.len() - top);
        }
        let _ = writeln!(
            out,
            "\nThe bot's functions by own fuel (their self fuel and the std and SDK code they called):"
        );
        let _ = writeln!(out, "{:>8} {:>8}  function", "own", "total");
        for f in own.iter().take(top) {
            let _ = writeln!(
                out,
                "{:>6.1} % {:>6.1} %  {}",
                f.own_percent,
                f.total_percent,
                printable(&f.function)
            );
        }
        let _ = writeln!(out, "\nLines of the bot by self fuel:");
        if self.lines.is_empty() {
            let _ = writeln!(out, "  (none: the module has no line tables of the bot's code)");
        }
        let mut sources = Sources { root: self.source_root.clone(), read: HashMap::new() };
        let _ = writeln!(out, "{:>8} {:>8}  line", "self", "total");
        for line in self.lines.iter().take(top) {
            let text = sources.text(&line.file, line.line, 60);
            let _ = writeln!(
                out,
                "{:>6.1} % {:>6.1} %  {}  {text}",
                line.self_percent,
                line.total_percent,
                line.place(base)
            );
        }
        if self.outside_bot_fuel > 0 {
            let _ = writeln!(
                out,
                "{:>6.1} %           (no line of the bot's code on the stack)",
                percent(self.outside_bot_fuel, self.fuel)
            );
        }
        if !self.out_of_fuel.is_empty() {
            let _ = writeln!(out, "\nTurns that ran out of fuel:");
            for turn in &self.out_of_fuel {
                let _ = writeln!(
                    out,
                    "  vs {} seed {}, the bot's turn {} ({} fuel):",
                    printable(&turn.opponent),
                    turn.seed,
                    turn.turn,
                    thousands(turn.fuel)
                );
                for line in render_lines(&turn.lines, base) {
                    let _ = writeln!(out, "    {line}");
                }
            }
        }
        out
    }

    /// The profile as a speedscope file (<https://www.speedscope.app/file-format-schema.json>):
    /// one "sampled" profile whose weights are fuel, one frame per function (and its file).
    pub fn speedscope(&self) -> Value {
        let mut frames: Vec<Value> = Vec::new();
        let mut index: HashMap<(String, Option<String>), usize> = HashMap::new();
        let mut frame_of = |function: &str, file: Option<&str>| {
            let key = (function.to_owned(), file.map(str::to_owned));
            *index.entry(key).or_insert_with(|| {
                let mut frame = json!({ "name": function });
                if let Some(file) = file {
                    frame["file"] = json!(file);
                }
                frames.push(frame);
                frames.len() - 1
            })
        };
        let mut samples = Vec::new();
        let mut weights = Vec::new();
        for (stack, fuel) in &self.stacks {
            let sample: Vec<usize> = if stack.is_empty() {
                vec![frame_of(NO_FRAME, None)]
            } else {
                stack
                    .iter()
                    .map(|f| frame_of(&f.function, f.location.as_ref().map(|l| l.file.as_str())))
                    .collect()
            };
            samples.push(sample);
            weights.push(*fuel);
        }
        let name = format!("{} ({}), {} games, fuel", self.bot, self.game, self.games);
        json!({
            "$schema": "https://www.speedscope.app/file-format-schema.json",
            "name": name,
            "exporter": "botlens",
            "activeProfileIndex": 0,
            "shared": { "frames": frames },
            "profiles": [{
                "type": "sampled",
                "name": name,
                "unit": "none",
                "startValue": 0,
                "endValue": self.fuel,
                "samples": samples,
                "weights": weights,
            }],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fuel::tests::{frame, stacks};
    use botlens_engine::SourceLocation;

    /// A profile of one game of bot `b` against `random` at tic-tac-toe, sampled at every
    /// epoch check, of `stacks` (its functions from them, 10 fuel in all); each test sets what
    /// it looks at.
    fn profile_of(stacks: Stacks) -> Profile {
        Profile {
            bot: "b".into(),
            game: "tictactoe".into(),
            seeds: "0..=0".into(),
            opponents: vec!["random".into()],
            games: 1,
            interval: 1,
            fuel: 10,
            functions: stacks.functions(),
            lines: Vec::new(),
            outside_bot_fuel: 0,
            out_of_fuel: Vec::new(),
            stacks: stacks.0,
            source_root: None,
        }
    }
    #[test]
    fn the_speedscope_file_names_each_function_once_and_weighs_samples_by_fuel() {
        let play = frame("play", Some(10), true);
        let stacks = stacks(&[(&[play.clone(), frame("play", Some(11), true)], 7), (&[], 3)]);
        let profile = Profile {
            seeds: "0..=1".into(),
            games: 2,
            functions: Vec::new(),
            ..profile_of(stacks)
        };
        let file = profile.speedscope();
        assert_eq!(
            file["shared"]["frames"],
            json!([{ "name": "(no frame on the stack)" }, { "name": "play", "file": "src/lib.rs" }])
        );
        assert_eq!(file["profiles"][0]["samples"], json!([[0], [1, 1]]));
        assert_eq!(file["profiles"][0]["weights"], json!([3, 7]));
        assert_eq!(file["profiles"][0]["endValue"], json!(10));
    }

    #[test]
    fn names_from_the_bots_debug_info_are_shown_printable() {
        let evil = "evil\u{1b}[2J\n  9.9 %   9.9 % *fake";
        let mut play = frame(evil, Some(10), true);
        play.location.as_mut().unwrap().file = "src/\u{1b}]0;owned\u{7}lib.rs\nx.rs".into();
        let stacks = stacks(&[(&[play], 10)]);
        let (lines, outside_bot_fuel) = stacks.lines();
        let profile = Profile {
            bot: "bot\u{1b}[31m".into(),
            seeds: "0..=1".into(),
            games: 2,
            lines: lines.clone(),
            outside_bot_fuel,
            out_of_fuel: vec![FailingTurn {
                opponent: "random\n".into(),
                seed: 1,
                turn: 2,
                fuel: 10,
                lines,
            }],
            ..profile_of(stacks)
        };
        let name = r"evil\u{1b}[2J\u{a}  9.9 %   9.9 % *fake";
        let file = r"src/\u{1b}]0;owned\u{7}lib.rs\u{a}x.rs";
        assert_eq!(
            profile.render(Path::new(""), 5),
            format!(
                "bot\\u{{1b}}[31m (tictactoe): 2 games vs random, seeds 0..=1: 10 fuel, sampled every 1 epoch checks

Functions by self fuel (* the bot's own code):
    self    total  function
 100.0 %  100.0 % *{name}  ({file})

The bot's functions by own fuel (their self fuel and the std and SDK code they called):
     own    total  function
 100.0 %  100.0 %  {name}

Lines of the bot by self fuel:
    self    total  line
 100.0 %  100.0 %  {file}:10  

Turns that ran out of fuel:
  vs random\\u{{a}} seed 1, the bot's turn 2 (10 fuel):
    100.0 % total, 100.0 % self  {file}:10  in {name}
"
            )
        );
    }

    #[test]
    fn other_codes_files_are_cut_to_their_last_two_parts_and_short_ones_shown_whole() {
        let at = |function: &str, file: &str| {
            let location = Some(SourceLocation { file: file.into(), line: 3, column: 1 });
            ProfileFrame { function: function.into(), location, bot: false }
        };
        let play = frame("play", Some(10), true);
        let stacks = stacks(&[
            (&[play.clone(), at("lt", "/rustc/abc/library/core/src/cmp.rs")], 6),
            (&[play.clone(), at("JSONDecoder.decode", "json.decoder")], 3),
            (&[play, at("_shot", "botlens:prelude.py")], 1),
        ]);
        let profile = Profile { game: "battleships".into(), ..profile_of(stacks) };
        let table = profile.render(Path::new(""), 5);
        let shown: Vec<&str> = table.lines().filter(|l| l.contains("  (")).take(3).collect();
        assert_eq!(
            shown,
            [
                "  60.0 %   60.0 %  lt  (…/src/cmp.rs)",
                "  30.0 %   30.0 %  JSONDecoder.decode  (json.decoder)",
                "  10.0 %   10.0 %  _shot  (botlens:prelude.py)",
            ]
        );
    }

    #[test]
    fn the_table_shows_source_lines_of_the_bots_own_files_only() {
        let dir = tempfile::tempdir().unwrap();
        let own = dir.path().join("bot.c");
        std::fs::write(&own, "int x;\n  x = x + 1; /* hot */\n").unwrap();
        let line = |file: &str, line: u32| LineCost {
            file: file.to_owned(),
            line,
            function: "play".into(),
            self_fuel: 5,
            total_fuel: 5,
            self_percent: 50.0,
            total_percent: 50.0,
        };
        let profile = Profile {
            lines: vec![line(&own.display().to_string(), 2), line("/etc/passwd", 1)],
            source_root: Some(dir.path().to_owned()),
            ..profile_of(stacks(&[]))
        };
        insta::assert_snapshot!(profile.render(dir.path(), 10));
    }
}
