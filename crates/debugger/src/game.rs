//! The game `botlens debug` stops in: an opponent and a seed (or a stored trace's), the bot built
//! with all debug info and played once to find the turn to stop at ([`stop_turn`]); then, in the
//! process under the debugger, played again with the module calling [`crate::HOOK`] as that
//! turn begins ([`play_stopping`]).

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use botlens_bots::build::DebugInfo;
use botlens_bots::toolchain::Debugging;
use botlens_engine::Trace;
use botlens_engine::text::printable;
use botlens_harness::pipeline::{self, Prepared, RunOptions, Stage};
use botlens_harness::suite::GameResult;
use botlens_harness::{CancelToken, Contender, Target};
use botlens_sandbox::Sandbox;

/// The game to debug: the opponent (or the Klotski board) and the seed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OneGame {
    /// The opponent's name, as `--vs` takes it.
    pub vs: String,
    /// The seed.
    pub seed: u64,
    /// The bot's seat: 0, or 1 for the second game of a pair (`botlens run --paired`).
    pub seat: usize,
}

impl OneGame {
    /// The game a stored trace recorded, refused unless it is a game of the bot's own kind with
    /// a bot (a module) in a seat: the first such seat.
    pub fn of_trace(trace: &Trace, path: &Path, target: &Target) -> anyhow::Result<OneGame> {
        let plays = match target {
            Target::Reference { .. } => bail!("{target} has no module of its own to debug"),
            Target::Bot { .. } | Target::Module { .. } => target.game()?,
        };
        if trace.game != plays.name() {
            bail!(
                "{} is a trace of a {} game, and {} plays {plays}",
                path.display(),
                trace.game,
                target
            );
        }
        match &trace.players[..] {
            [bot, opponent] if bot.kind == "wasm" => {
                Ok(OneGame { vs: opponent.name.clone(), seed: trace.seed, seat: 0 })
            }
            [opponent, bot] if bot.kind == "wasm" => {
                Ok(OneGame { vs: opponent.name.clone(), seed: trace.seed, seat: 1 })
            }
            _ => bail!(
                "{} does not record a bot against an opponent; give --vs NAME --seed N",
                path.display()
            ),
        }
    }
}

/// How the bot is built for the debugger.
#[derive(Debug, Clone, Default)]
pub struct Build {
    /// Optimised as `botlens run` builds it (the very same game), with all debug info; else
    /// unoptimised, so that every local prints.
    pub optimized: bool,
    /// A module built already (by the `botlens debug` that started the debugger), loaded
    /// instead of building: a debugger's run builds nothing.
    pub prebuilt: Option<PathBuf>,
}

/// Refuses what has no bot module of its own to debug: a reference player, or a bot in a
/// language whose bots debug otherwise ([`Debugging::Refused`]).
pub fn check_debuggable(target: &Target) -> anyhow::Result<()> {
    match target {
        Target::Reference { name, .. } => bail!(
            "{name} is a reference player, native code inside botlens with no module to debug; give a bot project or a .wasm module"
        ),
        Target::Bot { lang, path, .. } => match lang.debugging() {
            Debugging::Refused(why) => bail!("{} {why}", path.display()),
            Debugging::Debugger => Ok(()),
        },
        Target::Module { .. } => Ok(()),
    }
}

/// Whether `botlens debug` builds the bot again for the debugger, with all debug info: a bot's
/// source is (its language permitting, [`check_debuggable`]); a module is used as it is.
pub fn rebuilt(target: &Target) -> bool {
    matches!(target, Target::Bot { .. })
}

/// How the bot is built, in words for the progress line: `with all debug info, unoptimised`.
pub fn how_built(target: &Target, build: &Build) -> &'static str {
    match (rebuilt(target), build.optimized) {
        (true, true) => "with all debug info",
        (true, false) => "with all debug info, unoptimised",
        (false, _) => "as it is",
    }
}

/// What the debugger may read of the bot: its project or folder (sources, settings), or the
/// directory of a module given alone (where its sources usually are).
pub fn sources(target: &Target) -> Option<PathBuf> {
    match target {
        Target::Bot { path, .. } if path.is_dir() => Some(path.clone()),
        Target::Bot { path, .. } | Target::Module { path, .. } => {
            let dir = path.parent()?;
            Some(if dir.as_os_str().is_empty() { PathBuf::from(".") } else { dir.to_owned() })
        }
        Target::Reference { .. } => None,
    }
}

/// The one game built as `build` asks (into `<project>/target/botlens-debug`, or
/// `botlens-debug-optimized`: the everyday build is not redone) and loaded, its module checked
/// for variables; `progress` hears the stages.
pub fn prepare(
    sandbox: &Sandbox,
    target: &Target,
    game: &OneGame,
    build: &Build,
    progress: &(dyn Fn(Stage) + Sync),
) -> anyhow::Result<Prepared> {
    let (debug_info, build_dir) = if build.optimized {
        (DebugInfo::Full, "botlens-debug-optimized")
    } else {
        (DebugInfo::Unoptimised, "botlens-debug")
    };
    let options = RunOptions {
        debug_info,
        cargo_target_dir: target.project_dir().map(|dir| dir.join("target").join(build_dir)),
        prebuilt: build.prebuilt.clone(),
        // The bot's game in seat 1 is the second of a pair.
        paired: game.seat == 1,
        ..RunOptions::one_game(&game.vs, game.seed)
    };
    let prepared = pipeline::prepare(sandbox, target, &options, progress, &CancelToken::new())?;
    if let Contender::Wasm(bot) = &prepared.suite.bot
        && !bot.module.has_variable_info()
    {
        let module = prepared.wasm.clone().or_else(|| target.home_file()).unwrap_or_default();
        bail!(
            "{} has no debug info describing the bot's variables; build it with `debug = true` under `[profile.release]` in its Cargo.toml (or CARGO_PROFILE_RELEASE_DEBUG=true), not stripped, or give the project directory and botlens builds it so",
            module.display()
        );
    }
    Ok(prepared)
}

/// Plays the prepared game and returns the bot's game in `seat`.
pub fn play(prepared: Prepared, target: &Target, seat: usize) -> anyhow::Result<GameResult> {
    let run = pipeline::play(prepared, target, &|_| {}, &CancelToken::new())?;
    let mut kept = run.results.kept.into_iter();
    kept.find(|game| game.bot_seat == seat).context("the game produced no result")
}

/// Whether the played game made the stored trace's moves.
pub fn same_moves(game: &GameResult, stored: &Trace) -> bool {
    let actions = |trace: &Trace| -> Vec<_> {
        trace.moves.iter().map(|m| (m.seat, m.action.clone())).collect()
    };
    game.trace.as_ref().is_some_and(|replayed| actions(replayed) == actions(stored))
}

/// The turn to stop at and why, in words: `asked` (`--turn`), or the one the bot failed on,
/// or its first when the game did not fail.
pub fn stop_turn(game: &GameResult, asked: Option<u32>) -> anyhow::Result<(u32, String)> {
    let played = game.bot_turns;
    match (asked, &game.fault) {
        (Some(turn), _) if turn > played => bail!(
            "the bot played {played} turn{s} in this game, so there is no turn {turn} to stop at",
            s = if played == 1 { "" } else { "s" }
        ),
        (Some(turn), _) => Ok((turn, format!("stopping as the bot begins turn {turn}"))),
        (None, Some(fault)) => Ok((
            played,
            format!("the bot failed on its turn {played} ({}); stopping as it begins", fault.failure),
        )),
        (None, None) => Ok((
            1,
            format!(
                "the game did not fail ({:?} in {played} turns); stopping as the bot begins turn 1 (choose another with --turn)",
                game.result
            )
            .to_lowercase(),
        )),
    }
}

/// The game under the debugger: played in a sandbox for debuggers (native DWARF, no wall-clock
/// backstop), the bot's module calling [`crate::HOOK`] as its turn `turn` begins — found first
/// by playing the game once when not given, and said to `said`, printable. When the debugger
/// asks for another turn (`turn N`, `back`: [`botlens_sandbox::replay_asked`]), the game ends
/// and is played again from its start, stopping at that turn. Returns the last game played.
pub fn play_stopping(
    target: &Target,
    game: &OneGame,
    build: &Build,
    turn: Option<u32>,
    said: &dyn Fn(&str),
) -> anyhow::Result<GameResult> {
    let sandbox = Sandbox::for_debugger()?;
    let prepared = prepare(&sandbox, target, game, build, &|_| {})?;
    let mut turn = match turn {
        Some(turn) => turn,
        None => {
            let (turn, why) = stop_turn(&play(prepared.clone(), target, game.seat)?, None)?;
            said(&printable(&why));
            turn
        }
    };
    loop {
        let mut stopping = prepared.clone();
        if let Contender::Wasm(bot) = &mut stopping.suite.bot {
            bot.module = bot.module.stopping_at(turn, game.seat);
        }
        let played = play(stopping, target, game.seat)?;
        if played.bot_turns < turn {
            let (turns, s) = (played.bot_turns, if played.bot_turns == 1 { "" } else { "s" });
            said(&format!(
                "the bot played {turns} turn{s} in this game, so it never began turn {turn}"
            ));
        }
        match botlens_sandbox::replay_asked() {
            None => return Ok(played),
            Some(asked) => {
                said(&format!(
                    "playing the game again, to stop as the bot begins its turn {asked}"
                ));
                turn = asked;
            }
        }
    }
}

/// How a game ended, in words: `lost: …` with its failure, else its result (`win`).
pub fn ending(game: &GameResult) -> String {
    let ending = game.fault.as_ref().map_or_else(
        || format!("{:?}", game.result).to_lowercase(),
        |fault| format!("lost: {}", fault.failure),
    );
    printable(&ending).into_owned()
}

#[cfg(test)]
mod tests {
    use botlens_engine::{Failure, FailureKind, Fault, SeatResult};
    use botlens_games::GameKind;

    use super::*;

    /// A game of seed 8 the bot played `bot_turns` turns of, lost by an illegal move on the last
    /// when `failed`.
    fn game(bot_turns: u32, failed: bool) -> GameResult {
        let fault = failed.then(|| Fault {
            seat: 0,
            turn: bot_turns * 2 - 1,
            failure: Failure::new(FailureKind::IllegalMove, "x=10 is off the board"),
        });
        GameResult {
            opponent: 0,
            seed: 8,
            bot_seat: 0,
            result: if failed { SeatResult::Loss } else { SeatResult::Win },
            moves: bot_turns,
            par: None,
            turns: bot_turns * 2,
            bot_turns,
            fault,
            wasteful_turns: Vec::new(),
            trace: None,
        }
    }

    #[test]
    fn the_stop_is_the_failing_turn_the_asked_one_or_the_first() {
        let failed = game(37, true);
        let (turn, why) = stop_turn(&failed, None).unwrap();
        assert_eq!(turn, 37);
        assert!(why.starts_with("the bot failed on its turn 37 (illegal_move"), "{why}");
        assert_eq!(ending(&failed).split(':').next(), Some("lost"));
        assert_eq!(
            stop_turn(&failed, Some(5)).unwrap(),
            (5, "stopping as the bot begins turn 5".to_owned())
        );
        assert_eq!(
            stop_turn(&failed, Some(38)).unwrap_err().to_string(),
            "the bot played 37 turns in this game, so there is no turn 38 to stop at"
        );
        assert_eq!(
            stop_turn(&game(1, false), Some(2)).unwrap_err().to_string(),
            "the bot played 1 turn in this game, so there is no turn 2 to stop at"
        );
        let won = game(20, false);
        assert_eq!(
            stop_turn(&won, None).unwrap(),
            (
                1,
                "the game did not fail (win in 20 turns); stopping as the bot begins turn 1 (choose another with --turn)"
                    .to_owned()
            )
        );
        assert_eq!(ending(&won), "win");
    }

    #[test]
    fn the_debugger_reads_the_bots_folder_or_the_modules() {
        let dir = tempfile::tempdir().unwrap();
        let project = Target::of_dir(dir.path());
        assert_eq!(sources(&project).as_deref(), Some(dir.path()));
        let module = |path: &str| Target::Module { path: path.into(), game: GameKind::TicTacToe };
        assert_eq!(sources(&module("bots/bot.wasm")), Some(PathBuf::from("bots")));
        assert_eq!(sources(&module("bot.wasm")), Some(PathBuf::from(".")));
    }
}
