//! `botlens debug`: one game of a bot under gdb or lldb, stopped as the bot begins its failing
//! turn (or `--turn N`), with the bot's source lines, backtrace and locals there to step
//! through. The game is played once as usual to find the turn, then again in a child process
//! under the debugger: the same command with the hidden `--debuggee` flag, which plays in a
//! sandbox for debuggers (native DWARF, no wall-clock backstop; fuel and every other limit as
//! always) and calls the hook the debugger breaks at. See docs/debugging.md.

use std::ffi::OsString;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use botlens_debugger::Debugger;
use botlens_debugger::game::{self, Build, OneGame};
use botlens_debugger::script::{self, Stop};
use botlens_engine::text::printable;
use botlens_harness::Target;
use botlens_harness::pipeline::Stage;
use clap::Args;

use crate::shared::progress::INSTALLING;

/// Arguments of `botlens debug`.
#[derive(Debug, Args)]
#[command(after_help = "The bot is a bot project directory (built again with all debug info and no
optimisation, into <project>/target/botlens-debug, so that every local prints; --optimized keeps
the optimisation), a C or Zig bot (built again likewise: clang -O0, zig -O Debug), or a .wasm
module with --game built with `debug = true`. Reference players, JavaScript and AssemblyScript
bots cannot be debugged this way: `botlens replay` steps through their games.

Examples:
  botlens debug samples/battleships-offbyone --vs hunter --seed 8
  botlens debug samples/tictactoe-minimax --vs perfect --seed 3 --turn 2
  botlens debug bot.wasm --game tictactoe --vs perfect --seed 3 --debugger lldb
  botlens debug samples/battleships-offbyone --vs hunter --seed 8 --batch cmds.gdb
  botlens debug samples/tictactoe-panicky --vs random --seed 3 --seat 1
  botlens debug samples/battleships-offbyone --trace traces/hunter-seed8.json

At the stop, the failing line has a breakpoint: `continue` to reach it, then `bt`,
`info locals` (lldb: `frame variable`), `print NAME`, `next`, `step`; `quit` to leave.
botlens's commands there: `board` (the board as the bot sees it, and its view message),
`turn N` and `back` (the same game played again, stopping at turn N or the one before; in
lldb, then `continue`); gdb's `print $deref(p)` and lldb's `print *p` read a bot's pointer.

Exit status: the debugger's; 2 on bad input (no debugger installed, a module without debug
info, a turn past the bot's last, a trace of another game or format version).")]
pub struct DebugArgs {
    /// The bot: a project directory, a .wasm module, or a C or Zig bot (folder or file)
    /// [default: the bot the current directory is in, this one or one above it, as cargo finds
    /// its manifest].
    target: Option<String>,
    /// The game, for a .wasm module.
    #[arg(long)]
    game: Option<String>,
    /// The opponent of the game to debug (or the Klotski board).
    #[arg(long, required_unless_present = "trace")]
    vs: Option<String>,
    /// The seed of the game to debug.
    #[arg(long, required_unless_present = "trace")]
    seed: Option<u64>,
    /// The bot's seat in the game: 0, or 1 for the second game of a pair (`botlens run
    /// --paired`, where the opponent moves first).
    #[arg(long, value_name = "SEAT", default_value_t = 0, conflicts_with = "trace",
          value_parser = clap::value_parser!(u8).range(0..=1))]
    seat: u8,
    /// Debug the game this stored trace recorded (`botlens run --trace-dir`): its opponent and
    /// seed, checked against the bot's game; the re-played game is compared with it.
    #[arg(long, value_name = "TRACE", conflicts_with_all = ["vs", "seed"])]
    trace: Option<PathBuf>,
    /// Stop as the bot begins its turn N (1 is its first) [default: the turn it failed on, or
    /// 1 if the game did not fail].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    turn: Option<u32>,
    /// The debugger to run: gdb or lldb.
    #[arg(long, default_value_t = Debugger::Gdb)]
    debugger: Debugger,
    /// Build the project optimised as `botlens run` does (the same code, so the very same game,
    /// fuel and all), with all debug info but most locals optimised out.
    #[arg(long)]
    optimized: bool,
    /// Run the debugger without a prompt: after the stop, the commands of FILE (in the
    /// debugger's own language), then quit.
    #[arg(long, value_name = "FILE")]
    batch: Option<PathBuf>,
    /// Be the process under a debugger started by someone else (an editor's launch
    /// configuration, `gdb --args botlens debug … --debuggee`): play the game with native debug
    /// info, no wall-clock backstop, and the hook `botlens_turn_begins` called as the bot
    /// begins its failing turn (or --turn).
    #[arg(long, conflicts_with_all = ["debugger", "batch"])]
    debuggee: bool,
    /// Print the launch configuration of an editor's debugger for this game, as JSON: the
    /// arguments of a Debug Adapter Protocol `launch` request to lldb's adapter (lldb-dap,
    /// lldb-vscode), which `--dap` runs. See docs/debugging.md, "Editors".
    #[arg(long, conflicts_with_all = ["debugger", "batch", "debuggee", "dap"])]
    launch_config: bool,
    /// Be an editor's debug adapter for this game: lldb's Debug Adapter Protocol server
    /// (lldb-dap, lldb-vscode), confined as botlens's debuggers are, speaking DAP on stdin and
    /// stdout. The editor's launch request is the one `--launch-config` prints.
    #[arg(long, conflicts_with_all = ["debugger", "batch", "debuggee"])]
    dap: bool,
    /// With --debuggee: the bot's module, built by the `botlens debug` that started the
    /// debugger, loaded instead of building the bot (a debugger's run may not build).
    #[arg(long, value_name = "MODULE", requires = "debuggee", hide = true)]
    prebuilt: Option<PathBuf>,
}

/// Runs `botlens debug`.
pub fn run(args: DebugArgs) -> anyhow::Result<ExitCode> {
    let bot = crate::shared::bot_arg::named_or_enclosing(args.target.clone())?;
    let target = Target::parse(&bot, args.game.as_deref())?;
    game::check_debuggable(&target)?;
    let (chosen, stored) = match (&args.trace, &args.vs, args.seed) {
        (Some(path), _, _) => {
            let trace = botlens_replay::load(path)?;
            (OneGame::of_trace(&trace, path, &target)?, Some((trace, path.as_path())))
        }
        (None, Some(vs), Some(seed)) => {
            (OneGame { vs: vs.clone(), seed, seat: usize::from(args.seat) }, None)
        }
        _ => bail!("say which game: --vs NAME --seed N, or --trace FILE"),
    };
    let build = Build { optimized: args.optimized, prebuilt: args.prebuilt.clone() };
    if args.debuggee {
        // A debugger that botlens stopped takes the game with it.
        botlens_confine::die_with_parent();
        let played = game::play_stopping(&target, &chosen, &build, args.turn, &|said| {
            eprintln!("botlens: {said}")
        })?;
        let turns = played.bot_turns;
        let s = if turns == 1 { "" } else { "s" };
        eprintln!(
            "botlens: the game is over after the bot's {turns} turn{s}: {}",
            game::ending(&played)
        );
        std::io::stderr().flush()?;
        return Ok(ExitCode::SUCCESS);
    }
    let debugger = if args.dap {
        botlens_debugger::dap_adapter().context(
            "lldb's debug adapter (lldb-dap, or lldb-vscode before LLVM 18) is not installed: apt-get install lldb",
        )?
    } else if args.launch_config {
        PathBuf::new()
    } else {
        args.debugger.installed().with_context(|| {
            format!(
                "{name} is not installed: apt-get install {name} (or choose the other with --debugger)",
                name = args.debugger.program()
            )
        })?
    };
    let how = game::how_built(&target, &build);
    let progress = |stage| match stage {
        Stage::InstallingTarget => eprintln!("{INSTALLING}"),
        Stage::Building { tool } => eprintln!("botlens: building the bot with {tool}, {how}…"),
        _ => {}
    };
    let prepared = game::prepare(&crate::shared::sandbox()?, &target, &chosen, &build, &progress)?;
    // The debugger's game loads the module built here: a debugger's run builds nothing.
    let wasm = prepared.wasm.clone().filter(|_| matches!(target, Target::Bot { .. }));
    let played = game::play(prepared, &target, chosen.seat)?;
    if let Some((trace, path)) = &stored
        && !game::same_moves(&played, trace)
    {
        eprintln!(
            "botlens: note: the re-played game's moves differ from {} (was the bot changed since?)",
            path.display()
        );
    }
    let (turn, why) = game::stop_turn(&played, args.turn)?;
    if played.fault.is_none() && !args.optimized && game::rebuilt(&target) {
        eprintln!(
            "botlens: note: this game did not fail with the unoptimised build; if it fails in `botlens run`, try --optimized"
        );
    }
    let failing_line = played.fault.as_ref().and_then(|fault| script::failing_line(fault, &target));
    let stop = Stop { turn, why, failing_line, example: script::example_file(&target) };
    let program = std::env::current_exe().context("the path of this botlens")?;
    let debuggee = debuggee_args(&args, &bot, &chosen, turn, wasm.as_deref());
    if args.launch_config {
        println!("{}", launch_config(&stop, &bot, &chosen, &program, &debuggee)?);
        return Ok(ExitCode::SUCCESS);
    }
    // What the bot's failure and files say is printed here, never handed to the debugger: its
    // commands are botlens's own words alone ([`Stop`]).
    for line in stop.banner(args.debugger) {
        eprintln!("{}", printable(&line));
    }
    if args.dap {
        // stdout is the editor's: the adapter speaks DAP on it.
        eprintln!("botlens: starting {}…", debugger.display());
        let mut read: Vec<PathBuf> = wasm.into_iter().collect();
        read.extend(game::sources(&target));
        let status = botlens_bots::debugger_session(&debugger, Vec::new(), &read)
            .with_context(|| format!("running {}", debugger.display()))?;
        return Ok(ExitCode::from(status.code().map_or(2, |code| code.clamp(0, 255) as u8)));
    }
    eprintln!("botlens: starting {}…", args.debugger);
    let dir = tempfile::tempdir().context("a directory for the debugger's commands")?;
    let commands = dir.path().join("commands");
    std::fs::write(&commands, stop.script(args.debugger))
        .context("writing the debugger's commands")?;
    let mut words = script::debugger_args(args.debugger, &commands, args.batch.as_deref());
    words.push(program.into());
    words.extend(debuggee);
    let mut read = vec![dir.path().to_owned()];
    read.extend(args.batch.clone());
    read.extend(wasm);
    read.extend(game::sources(&target));
    let status = botlens_bots::debugger_session(&debugger, words, &read)
        .with_context(|| format!("running {}", args.debugger))?;
    Ok(ExitCode::from(status.code().map_or(2, |code| code.clamp(0, 255) as u8)))
}

/// The launch configuration of an editor's DAP debugger for the game `game` of `bot`: lldb's
/// adapter runs `program` (this botlens) with `debuggee`, with botlens's commands and the
/// breakpoint on the failing line ([`Stop::lldb_launch`]). JSON, its strings escaped: the bot's
/// text in it (its file names, an opponent's name) is data, never a command.
fn launch_config(
    stop: &Stop,
    bot: &str,
    game: &OneGame,
    program: &Path,
    debuggee: &[OsString],
) -> anyhow::Result<String> {
    let text = |word: &std::ffi::OsStr| {
        word.to_str().map(str::to_owned).with_context(|| {
            format!(
                "{} is not UTF-8, which a launch configuration (JSON) cannot hold",
                word.display()
            )
        })
    };
    let args = debuggee.iter().map(|word| text(word)).collect::<anyhow::Result<Vec<_>>>()?;
    let cwd = std::env::current_dir().context("the current directory")?;
    let launch = stop.lldb_launch();
    let config = serde_json::json!({
        "name": format!("botlens: {bot} vs {}, seed {}, seat {}", game.vs, game.seed, game.seat),
        "type": "botlens",
        "request": "launch",
        "program": text(program.as_os_str())?,
        "args": args,
        "cwd": text(cwd.as_os_str())?,
        "initCommands": launch.init_commands,
        "preRunCommands": launch.pre_run_commands,
    });
    Ok(serde_json::to_string_pretty(&config)?)
}

/// The arguments of this command again, for the process under the debugger: values joined to
/// their flags and the bot (`bot`, as named or found) after `--`, so that no name (an opponent
/// from a trace) reads as a flag.
fn debuggee_args(
    args: &DebugArgs,
    bot: &str,
    game: &OneGame,
    turn: u32,
    prebuilt: Option<&Path>,
) -> Vec<OsString> {
    let mut words: Vec<OsString> = vec!["debug".into()];
    if let Some(kind) = &args.game {
        words.push(format!("--game={kind}").into());
    }
    if args.optimized {
        words.push("--optimized".into());
    }
    if let Some(wasm) = prebuilt {
        let mut flag = OsString::from("--prebuilt=");
        flag.push(wasm);
        words.push(flag);
    }
    words.extend([
        format!("--vs={}", game.vs).into(),
        format!("--seed={}", game.seed).into(),
        format!("--seat={}", game.seat).into(),
        format!("--turn={turn}").into(),
        "--debuggee".into(),
        "--".into(),
        bot.into(),
    ]);
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_debuggee_reads_back_an_opponent_and_a_bot_that_look_like_flags() {
        use clap::{Args as _, FromArgMatches as _};
        let command = DebugArgs::augment_args(clap::Command::new("debug"));
        let parse = |words: Vec<OsString>| {
            let matches = command.clone().try_get_matches_from(words).unwrap();
            DebugArgs::from_arg_matches(&matches).unwrap()
        };
        let mut asked = parse(vec!["debug".into(), "--vs=x".into(), "--seed=1".into()]);
        assert_eq!(asked.target, None, "no bot named: the one the debugger runs in is found");
        asked.game = Some("tictactoe".into());
        let game = OneGame { vs: "--batch=/tmp/x\nshell id".into(), seed: 9, seat: 1 };
        asked.optimized = true;
        let prebuilt = Path::new("/p/--batch=x.wasm");
        let again = parse(debuggee_args(&asked, "--debugger=lldb", &game, 4, Some(prebuilt)));
        assert_eq!(again.target.as_deref(), Some("--debugger=lldb"));
        assert_eq!(again.prebuilt.as_deref(), Some(prebuilt));
        assert!(again.optimized, "the debugger's game is built as the first was");
        assert_eq!(again.vs.as_deref(), Some("--batch=/tmp/x\nshell id"));
        assert_eq!((again.seed, again.turn, again.debuggee), (Some(9), Some(4), true));
        assert_eq!(again.seat, 1, "the bot's seat");
        assert_eq!(again.game.as_deref(), Some("tictactoe"));
        assert_eq!(again.batch, None);
    }
}
