//! `botlens debug`: one game of a bot under gdb or lldb, stopped as the bot begins its failing
//! turn (or `--turn N`), with the bot's source lines, backtrace and locals there to step
//! through. The game is played once as usual to find the turn, then again in a child process
//! under the debugger: the same command with the hidden `--debuggee` flag, which plays in a
//! sandbox for debuggers (native DWARF, no wall-clock backstop; fuel and every other limit as
//! always) and calls the hook the debugger breaks at. See docs/debugging.md.

use std::ffi::OsString;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use botlens_engine::text::printable;
use botlens_engine::{Fault, Trace};
use botlens_harness::build::DebugInfo;
use botlens_harness::pipeline::{self, Prepared, RunOptions, Stage};
use botlens_harness::suite::GameResult;
use botlens_harness::toolchain::Debugging;
use botlens_harness::{CancelToken, Contender, Target};
use botlens_sandbox::Sandbox;
use clap::{Args, ValueEnum};

use super::run::INSTALLING;

/// Arguments of `botlens debug`.
#[derive(Debug, Args)]
#[command(after_help = "The bot is a bot project directory (built again with all debug info and no
optimisation, into <project>/target/botlens-debug, so that every local prints; --optimized keeps
the optimisation) or a .wasm module with --game built with `debug = true`, or a C or Zig bot (built as `botlens
run` builds it: optimised, with debug info, so some locals print as optimised out). Reference
players, JavaScript and AssemblyScript bots cannot be debugged this way: `botlens replay` steps
through their games.

Examples:
  botlens debug samples/battleships-offbyone --vs hunter --seed 8
  botlens debug samples/tictactoe-minimax --vs perfect --seed 3 --turn 2
  botlens debug bot.wasm --game tictactoe --vs perfect --seed 3 --debugger lldb
  botlens debug samples/battleships-offbyone --vs hunter --seed 8 --batch cmds.gdb
  botlens debug samples/battleships-offbyone --trace traces/hunter-seed8.json

At the stop, the failing line has a breakpoint: `continue` to reach it, then `bt`,
`info locals` (lldb: `frame variable`), `print NAME`, `next`, `step`; `quit` to leave.

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
    /// Debug the game this stored trace recorded (`botlens run --trace-dir`): its opponent and
    /// seed, checked against the bot's game; the re-played game is compared with it.
    #[arg(long, value_name = "TRACE", conflicts_with_all = ["vs", "seed"])]
    trace: Option<PathBuf>,
    /// Stop as the bot begins its turn N (1 is its first) [default: the turn it failed on, or
    /// 1 if the game did not fail].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    turn: Option<u32>,
    /// The debugger to run.
    #[arg(long, value_enum, default_value_t = Debugger::Gdb)]
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
    /// With --debuggee: the bot's module, built by the `botlens debug` that started the
    /// debugger, loaded instead of building the bot (a debugger's run may not build).
    #[arg(long, value_name = "MODULE", requires = "debuggee", hide = true)]
    prebuilt: Option<PathBuf>,
}

/// A native debugger botlens can hand the game to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Debugger {
    /// GNU gdb (Debian package `gdb`).
    Gdb,
    /// LLVM's lldb (Debian package `lldb`).
    Lldb,
}

impl Debugger {
    fn program(self) -> &'static str {
        match self {
            Debugger::Gdb => "gdb",
            Debugger::Lldb => "lldb",
        }
    }
}

/// The hook [`botlens_sandbox::BotModule::stopping_at`] calls, where the debugger breaks.
const HOOK: &str = "botlens_turn_begins";

/// Runs `botlens debug`.
pub fn run(args: DebugArgs) -> anyhow::Result<ExitCode> {
    let bot = super::bot_arg::named_or_enclosing(args.target.clone())?;
    let target = Target::parse(&bot, args.game.as_deref())?;
    check_debuggable(&target)?;
    let (chosen, stored) = match (&args.trace, &args.vs, args.seed) {
        (Some(path), _, _) => {
            let trace = botlens_replay::load(path)?;
            (game_of_trace(&trace, path, &target)?, Some((trace, path.as_path())))
        }
        (None, Some(vs), Some(seed)) => (OneGame { vs: vs.clone(), seed }, None),
        _ => bail!("say which game: --vs NAME --seed N, or --trace FILE"),
    };
    if args.debuggee {
        // A debugger that botlens stopped takes the game with it.
        botlens_confine::die_with_parent();
        return play_under_debugger(&target, &chosen, &args);
    }
    let debugger = find_on_path(args.debugger.program()).with_context(|| {
        format!(
            "{name} is not installed: apt-get install {name} (or choose the other with --debugger)",
            name = args.debugger.program()
        )
    })?;
    let prepared = prepare(&super::sandbox()?, &target, &chosen, &args)?;
    // The debugger's game loads the module built here: a debugger's run builds nothing.
    let wasm = prepared.wasm.clone().filter(|_| matches!(target, Target::Bot { .. }));
    let game = play(prepared, &target)?;
    if let Some((trace, path)) = &stored {
        compare_with(&game, trace, path);
    }
    let (turn, why) = stop_turn(&game, args.turn)?;
    if game.fault.is_none() && !args.optimized && rebuilt(&target) {
        eprintln!(
            "botlens: note: this game did not fail with the unoptimised build; if it fails in `botlens run`, try --optimized"
        );
    }
    let failing_line = game.fault.as_ref().and_then(|fault| failing_line(fault, &target));
    let stop = Stop { turn, why, failing_line, example: example_file(&target) };
    // What the bot's failure and files say is printed here, never handed to the debugger: its
    // commands are botlens's own words alone ([`Stop`]).
    for line in stop.banner(args.debugger) {
        eprintln!("{}", printable(&line));
    }
    eprintln!("botlens: starting {}…", args.debugger.program());
    let dir = tempfile::tempdir().context("a directory for the debugger's commands")?;
    let script = dir.path().join("commands");
    let commands = match args.debugger {
        Debugger::Gdb => gdb_commands(&stop),
        Debugger::Lldb => lldb_commands(&stop),
    };
    std::fs::write(&script, commands).context("writing the debugger's commands")?;
    let mut words = debugger_args(args.debugger, &script, args.batch.as_deref());
    words.push(std::env::current_exe().context("the path of this botlens")?.into());
    words.extend(debuggee_args(&args, &bot, &chosen, turn, wasm.as_deref()));
    let mut read = vec![dir.path().to_owned()];
    read.extend(args.batch.clone());
    read.extend(wasm);
    read.extend(sources(&target));
    let status = botlens_harness::debugger_session(&debugger, words, &read)
        .with_context(|| format!("running {}", args.debugger.program()))?;
    Ok(ExitCode::from(status.code().map_or(2, |code| code.clamp(0, 255) as u8)))
}

/// What the debugger may read of the bot: its project or folder (sources, settings), or the
/// directory of a module given alone (where its sources usually are).
fn sources(target: &Target) -> Option<PathBuf> {
    match target {
        Target::Bot { path, .. } if path.is_dir() => Some(path.clone()),
        Target::Bot { path, .. } | Target::Module { path, .. } => {
            let dir = path.parent()?;
            Some(if dir.as_os_str().is_empty() { PathBuf::from(".") } else { dir.to_owned() })
        }
        Target::Reference { .. } => None,
    }
}

/// Refuses what has no bot module of its own to debug.
fn check_debuggable(target: &Target) -> anyhow::Result<()> {
    match target {
        Target::Reference { name, .. } => bail!(
            "{name} is a reference player, native code inside botlens with no module to debug; give a bot project or a .wasm module"
        ),
        Target::Bot { lang, path, .. } => match lang.debugging() {
            Debugging::Refused(why) => bail!("{} {why}", path.display()),
            Debugging::Debugger { .. } => Ok(()),
        },
        Target::Module { .. } => Ok(()),
    }
}

/// Whether `botlens debug` builds the bot again for the debugger, with all debug info (its
/// language says so, [`Debugging`]), rather than as `botlens run` does.
fn rebuilt(target: &Target) -> bool {
    let Target::Bot { lang, .. } = target else { return false };
    lang.debugging() == Debugging::Debugger { rebuilt: true }
}

/// The first `name` on `PATH` that is an executable file.
fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join(name)).find(|file| is_executable(file))
}

#[cfg(unix)]
fn is_executable(file: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    file.metadata().is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(file: &Path) -> bool {
    file.is_file()
}

/// The game to debug: the opponent and the seed.
struct OneGame {
    vs: String,
    seed: u64,
}

/// The game a stored trace recorded, refused unless it is a game of the bot's own kind with the
/// bot (a module) in seat 0.
fn game_of_trace(trace: &Trace, path: &Path, target: &Target) -> anyhow::Result<OneGame> {
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
            Ok(OneGame { vs: opponent.name.clone(), seed: trace.seed })
        }
        _ => bail!(
            "{} does not record a bot in seat 0 against an opponent; give --vs NAME --seed N",
            path.display()
        ),
    }
}

/// Says on stderr whether the re-played game made the stored trace's moves.
fn compare_with(game: &GameResult, stored: &Trace, path: &Path) {
    let actions = |trace: &Trace| -> Vec<_> {
        trace.moves.iter().map(|m| (m.seat, m.action.clone())).collect()
    };
    let same = game.trace.as_ref().is_some_and(|replayed| actions(replayed) == actions(stored));
    if !same {
        eprintln!(
            "botlens: note: the re-played game's moves differ from {} (was the bot changed since?)",
            path.display()
        );
    }
}

/// The one game built (with all debug info) and loaded, its module checked for variables.
fn prepare(
    sandbox: &Sandbox,
    target: &Target,
    game: &OneGame,
    args: &DebugArgs,
) -> anyhow::Result<Prepared> {
    let (debug_info, build_dir) = if args.optimized {
        (DebugInfo::Full, "botlens-debug-optimized")
    } else {
        (DebugInfo::Unoptimised, "botlens-debug")
    };
    let options = RunOptions {
        debug_info,
        // Its own target directory, so the everyday build (line tables only) is not redone.
        cargo_target_dir: target.project_dir().map(|dir| dir.join("target").join(build_dir)),
        prebuilt: args.prebuilt.clone(),
        ..RunOptions::one_game(&game.vs, game.seed)
    };
    let quiet = args.debuggee;
    let how = match (rebuilt(target), args.optimized) {
        (true, true) => "with all debug info",
        (true, false) => "with all debug info, unoptimised",
        (false, _) => "as `botlens run` builds it, optimised with debug info",
    };
    let progress = |stage| match stage {
        Stage::InstallingTarget if !quiet => eprintln!("{INSTALLING}"),
        Stage::Building { tool } if !quiet => {
            eprintln!("botlens: building the bot with {tool}, {how}…")
        }
        _ => {}
    };
    let prepared = pipeline::prepare(sandbox, target, &options, &progress, &CancelToken::new())?;
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

/// Plays the prepared game and returns it.
fn play(prepared: Prepared, target: &Target) -> anyhow::Result<GameResult> {
    let run = pipeline::play(prepared, target, &|_| {}, &CancelToken::new())?;
    run.results.kept.into_iter().next().context("the game produced no result")
}

/// The turn to stop at and why, in words: `--turn`, or the one the bot failed on.
fn stop_turn(game: &GameResult, asked: Option<u32>) -> anyhow::Result<(u32, String)> {
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

/// The process under the debugger: the game again, in a sandbox for debuggers, the bot's module
/// calling [`HOOK`] as its turn `--turn` begins (found by playing the game once first when not
/// given).
fn play_under_debugger(
    target: &Target,
    game: &OneGame,
    args: &DebugArgs,
) -> anyhow::Result<ExitCode> {
    let sandbox = Sandbox::for_debugger()?;
    let mut prepared = prepare(&sandbox, target, game, args)?;
    let turn = match args.turn {
        Some(turn) => turn,
        None => {
            let (turn, why) = stop_turn(&play(prepared.clone(), target)?, None)?;
            eprintln!("botlens: {}", printable(&why));
            turn
        }
    };
    if let Contender::Wasm(bot) = &mut prepared.suite.bot {
        bot.module = bot.module.stopping_at(turn);
    }
    let played = play(prepared, target)?;
    let ending = played.fault.as_ref().map_or_else(
        || format!("{:?}", played.result).to_lowercase(),
        |fault| format!("lost: {}", fault.failure),
    );
    eprintln!(
        "botlens: the game is over after the bot's {} turns: {}",
        played.bot_turns,
        printable(&ending)
    );
    std::io::stderr().flush()?;
    Ok(ExitCode::SUCCESS)
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
        format!("--turn={turn}").into(),
        "--debuggee".into(),
        "--".into(),
        bot.into(),
    ]);
    words
}

/// The debugger's own arguments up to the program it runs: botlens's `script`, then the user's
/// `batch` file as a file of its own (its name never enters a command). gdb starts the program
/// without a shell and loads no script a program or directory brings; lldb loads none from
/// symbol files.
fn debugger_args(debugger: Debugger, script: &Path, batch: Option<&Path>) -> Vec<OsString> {
    let mut words: Vec<OsString> = Vec::new();
    match debugger {
        Debugger::Gdb => {
            words.push("-q".into());
            for setting in [
                "set auto-load python-scripts off",
                "set auto-load gdb-scripts off",
                "set auto-load local-gdbinit off",
                "set startup-with-shell off",
            ] {
                words.extend(["-iex".into(), setting.into()]);
            }
            if batch.is_some() {
                words.push("-batch".into());
            }
            words.extend(["-x".into(), script.into()]);
            if let Some(file) = batch {
                words.extend(["-x".into(), file.into()]);
            }
            words.push("--args".into());
        }
        Debugger::Lldb => {
            if batch.is_some() {
                words.push("--batch".into());
            }
            let symbols = "settings set target.load-script-from-symbol-file false";
            words.extend(["-O".into(), symbols.into(), "-s".into(), script.into()]);
            if let Some(file) = batch {
                words.extend(["-s".into(), file.into()]);
            }
            words.push("--".into());
        }
    }
    words
}

/// The failing line, `/home/me/bot/src/lib.rs` and 85: a relative file is made absolute from
/// the bot's directory when it is there, so the breakpoint is not set in every dependency's
/// `src/lib.rs` as well.
fn failing_line(fault: &Fault, target: &Target) -> Option<(String, u32)> {
    let location = fault.failure.location.as_ref()?;
    let dir = match target {
        Target::Module { path, .. } => path.parent(),
        _ => target.project_dir(),
    };
    let file = dir
        .map(|dir| dir.join(&location.file))
        .filter(|file| file.is_file())
        .and_then(|file| std::path::absolute(file).ok())
        .map_or_else(|| location.file.clone(), |file| file.display().to_string());
    Some((file, location.line))
}

/// The longest file name a breakpoint is set in (Linux's `PATH_MAX`).
const MAX_BREAKPOINT_FILE: usize = 4096;

/// Why the file name `file` cannot be written into a debugger's command, if it cannot: it
/// comes from the bot (its debug info, a C `#line`), and a line break would start a command of
/// its own (`shell …`), while quotes, backslashes, backticks (lldb evaluates them) and `$`
/// are the debuggers' syntax. Spaces are fine: the name is quoted.
fn unfit_for_a_command(file: &str) -> Option<&'static str> {
    if file.len() > MAX_BREAKPOINT_FILE {
        return Some("is longer than a file name can be");
    }
    if file.starts_with('-') {
        return Some("starts with `-`");
    }
    file.chars().find_map(|c| match c {
        '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}' => Some("holds a line break"),
        c if c.is_control() => Some("holds a control character"),
        '"' | '\'' | '`' | '\\' | '$' => Some("holds a quote, a backtick, a backslash or `$`"),
        _ => None,
    })
}

/// A file of the bot's own, for the hint to set breakpoints when no line failed: a C or Zig
/// bot's file (the one named, else its folder's `bot.c`/`bot.zig` or first source), a
/// project's (or module's) `src/lib.rs`.
fn example_file(target: &Target) -> String {
    let Target::Bot { lang, path, .. } = target else { return "src/lib.rs".into() };
    lang.example_file(path)
}

/// Where and why the debugger stops.
struct Stop {
    /// The bot's turn it stops at.
    turn: u32,
    /// Why this turn, in words (the failure's message: the bot's text).
    why: String,
    /// The failing line ([`failing_line`]); its file is the bot's text.
    failing_line: Option<(String, u32)>,
    /// A file of the bot's for the hint when no line failed ([`example_file`]).
    example: String,
}

impl Stop {
    /// The breakpoint on the failing line, if there is one and its file name is fit for a
    /// debugger's command ([`unfit_for_a_command`]).
    fn breakpoint(&self) -> Option<(&str, u32)> {
        let (file, line) = self.failing_line.as_ref()?;
        unfit_for_a_command(file).is_none().then_some((file.as_str(), *line))
    }

    /// What botlens says before it starts `debugger`, as lines: the bot's text is in them, so
    /// they are printed through `printable` and never reach the debugger.
    fn banner(&self, debugger: Debugger) -> Vec<String> {
        let mut lines = vec![format!("botlens: {}.", self.why)];
        match &self.failing_line {
            Some((file, line)) => match unfit_for_a_command(file) {
                None => lines.push(format!(
                    "botlens: a breakpoint is on the failing line {file}:{line}: `continue` to reach it."
                )),
                Some(why) => lines.push(format!(
                    "botlens: no breakpoint is set on the failing line {file}:{line}: its file name {why}, which a debugger would read as part of a command."
                )),
            },
            None => lines.push(format!(
                "botlens: set breakpoints on the bot's lines (`break {}:42`), then `continue`.",
                self.example
            )),
        }
        let locals = match debugger {
            Debugger::Gdb => "info locals",
            Debugger::Lldb => "frame variable",
        };
        lines.push(format!(
            "botlens: then `bt`, `{locals}`, `print NAME`, `next`, `step`; `quit` to leave."
        ));
        lines
    }

    /// What the debugger says at the stop, as lines: botlens's own words and numbers alone.
    fn at_the_stop(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "botlens: stopped as the bot begins its turn {} (why: above).",
            self.turn
        )];
        if self.breakpoint().is_some() {
            lines.push("botlens: continue to reach the breakpoint on the failing line.".to_owned());
        }
        lines
    }
}

/// A gdb script: pending breakpoints allowed (the bot's code is registered as it is compiled),
/// a stop at the hook, botlens's words at the stop, a breakpoint on the failing line. No
/// untrusted text: the words are botlens's own, the breakpoint's file name is checked
/// ([`unfit_for_a_command`]) and quoted.
fn gdb_commands(stop: &Stop) -> String {
    let mut script = String::from(
        "set breakpoint pending on\nset pagination off\nset confirm off\n\
         set print thread-events off\nset print inferior-events off\n",
    );
    let _ = writeln!(script, "break {HOOK}\nrun");
    for line in stop.at_the_stop() {
        let _ = writeln!(script, "echo {}\\n", gdb_escape(&line));
    }
    if let Some((file, line)) = stop.breakpoint() {
        let _ = writeln!(script, "break \"{file}\":{line}");
    }
    script
}

/// `text` for gdb's `echo`, which reads backslash escapes: on one line, each control
/// character a visible escape, each backslash doubled.
fn gdb_escape(text: &str) -> String {
    printable(text).replace('\\', "\\\\")
}

/// An lldb script: the JIT loader on, a stop at the hook, botlens's words at the stop (as
/// comments, which lldb echoes: its one way to print text, `script`, needs its Python and
/// evaluates backticks), a breakpoint on the failing line; as checked as gdb's.
fn lldb_commands(stop: &Stop) -> String {
    let mut script = String::from("settings set plugin.jit-loader.gdb.enable on\n");
    let _ = writeln!(script, "breakpoint set --name {HOOK} --skip-prologue false\nprocess launch");
    for line in stop.at_the_stop() {
        let _ = writeln!(script, "# {}", printable(&line).replace('`', "'"));
    }
    if let Some((file, line)) = stop.breakpoint() {
        let _ = writeln!(script, "breakpoint set --file \"{file}\" --line {line}");
    }
    script
}

#[cfg(test)]
mod tests {
    use super::*;
    use botlens_engine::{Failure, FailureKind, SourceLocation};

    #[test]
    fn the_failing_line_is_absolute_when_the_file_is_in_the_bots_directory() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/lib.rs"), "").unwrap();
        let mut failure = Failure::new(FailureKind::IllegalMove, "off the board");
        failure.location = Some(SourceLocation { file: "src/lib.rs".into(), line: 85, column: 9 });
        let fault = Fault { seat: 0, turn: 7, failure };
        let project = Target::of_dir(dir.path());
        let absolute = dir.path().join("src/lib.rs").display().to_string();
        assert_eq!(failing_line(&fault, &project), Some((absolute, 85)));
        let elsewhere = Target::of_dir(dir.path().join("src"));
        assert_eq!(failing_line(&fault, &elsewhere), Some(("src/lib.rs".to_owned(), 85)));
    }

    /// A stop at turn 3 for `why`, failing at `file`:85 if given.
    fn stop(why: &str, file: Option<&str>) -> Stop {
        let failing_line = file.map(|file| (file.to_owned(), 85));
        Stop { turn: 3, why: why.into(), failing_line, example: "bot.c".into() }
    }

    #[test]
    fn scripts_stop_at_the_hook_say_so_and_break_on_the_failing_line() {
        let stop = stop("the bot failed", Some("/home/me/my bots/src/lib.rs"));
        assert_eq!(
            gdb_commands(&stop),
            "set breakpoint pending on\nset pagination off\nset confirm off\n\
             set print thread-events off\nset print inferior-events off\n\
             break botlens_turn_begins\nrun\n\
             echo botlens: stopped as the bot begins its turn 3 (why: above).\\n\n\
             echo botlens: continue to reach the breakpoint on the failing line.\\n\n\
             break \"/home/me/my bots/src/lib.rs\":85\n"
        );
        assert_eq!(
            lldb_commands(&stop),
            "settings set plugin.jit-loader.gdb.enable on\n\
             breakpoint set --name botlens_turn_begins --skip-prologue false\nprocess launch\n\
             # botlens: stopped as the bot begins its turn 3 (why: above).\n\
             # botlens: continue to reach the breakpoint on the failing line.\n\
             breakpoint set --file \"/home/me/my bots/src/lib.rs\" --line 85\n"
        );
        let none = Stop { failing_line: None, ..stop };
        let plain = gdb_commands(&none);
        assert!(
            plain.ends_with(
                "\nrun\necho botlens: stopped as the bot begins its turn 3 (why: above).\\n\n"
            ),
            "{plain}"
        );
        assert_eq!(
            none.banner(Debugger::Lldb),
            [
                "botlens: the bot failed.",
                "botlens: set breakpoints on the bot's lines (`break bot.c:42`), then `continue`.",
                "botlens: then `bt`, `frame variable`, `print NAME`, `next`, `step`; `quit` to leave.",
            ]
        );
    }

    /// Failure messages a bot may write, and file names its debug info may hold.
    const HOSTILE: [&str; 7] = [
        "x\nshell touch /tmp/botlens-owned",
        "x\r\nshell touch /tmp/botlens-owned",
        "`platform shell touch /tmp/botlens-owned`",
        "$(touch /tmp/botlens-owned)",
        "\u{1b}]0;title\u{7}\u{1b}[2J\u{0}\u{85}\u{2028}",
        "x\\nshell touch /tmp/botlens-owned\\",
        "\"; shell touch /tmp/botlens-owned; echo \"",
    ];

    #[test]
    fn no_text_of_the_bots_reaches_a_debuggers_commands() {
        let long = format!("{}\nshell touch /tmp/botlens-owned", "a".repeat(100_000));
        for why in HOSTILE.iter().copied().chain([long.as_str()]) {
            for debugger in [Debugger::Gdb, Debugger::Lldb] {
                let script = |stop: &Stop| match debugger {
                    Debugger::Gdb => gdb_commands(stop),
                    Debugger::Lldb => lldb_commands(stop),
                };
                // The message: the very script of a plain one.
                let hostile = stop(why, Some("/bot/src/lib.rs"));
                assert_eq!(script(&hostile), script(&stop("plain", Some("/bot/src/lib.rs"))));
                // A file name (`#line "x.c\nshell …"`): no breakpoint, and the script of none.
                let file = format!("/bot/{why}.c");
                let named = stop("plain", Some(&file));
                assert_eq!(named.breakpoint(), None, "{file:?}");
                assert_eq!(script(&named), script(&stop("plain", None)), "{file:?}");
                // What botlens prints instead is one printable line each.
                for line in named.banner(debugger) {
                    let shown = printable(&line);
                    assert!(!shown.chars().any(char::is_control), "{shown:?}");
                }
            }
        }
    }

    #[test]
    fn a_file_name_a_debugger_would_parse_gets_no_breakpoint_and_the_banner_says_why() {
        let why = |file: &str| unfit_for_a_command(file);
        assert_eq!(why("/home/me/my bots/bot.c"), None, "spaces are quoted");
        assert_eq!(why("/home/me/bots/héllo/华容道.c"), None);
        assert_eq!(why("x.c\nshell id"), Some("holds a line break"));
        assert_eq!(why("x.c\u{2028}shell id"), Some("holds a line break"));
        assert_eq!(why("x\u{1b}[2J.c"), Some("holds a control character"));
        assert_eq!(why("x\t.c"), Some("holds a control character"));
        for file in ["a\"b.c", "a'b.c", "a`id`.c", "a\\b.c", "$HOME/x.c"] {
            assert_eq!(why(file), Some("holds a quote, a backtick, a backslash or `$`"), "{file}");
        }
        assert_eq!(why("-x.c"), Some("starts with `-`"));
        assert_eq!(
            why(&"a".repeat(MAX_BREAKPOINT_FILE + 1)),
            Some("is longer than a file name can be")
        );
        assert_eq!(why(&"a".repeat(MAX_BREAKPOINT_FILE)), None);
        let stop = stop("the bot failed", Some("x.c\nshell touch /tmp/owned"));
        let said = stop.banner(Debugger::Gdb);
        assert_eq!(
            printable(&said[1]),
            "botlens: no breakpoint is set on the failing line x.c\\u{a}shell touch /tmp/owned:85: its file name holds a line break, which a debugger would read as part of a command."
        );
    }

    #[test]
    fn the_batch_file_is_a_file_of_its_own_and_gdb_starts_the_bot_without_a_shell() {
        let words = |debugger, batch| {
            let args = debugger_args(debugger, Path::new("/tmp/s"), batch);
            args.iter().map(|w| w.to_string_lossy().into_owned()).collect::<Vec<_>>().join(" | ")
        };
        let batch = Some(Path::new("my\ncommands.gdb"));
        assert_eq!(
            words(Debugger::Gdb, batch),
            "-q | -iex | set auto-load python-scripts off | -iex | set auto-load gdb-scripts off | \
             -iex | set auto-load local-gdbinit off | -iex | set startup-with-shell off | -batch | \
             -x | /tmp/s | -x | my\ncommands.gdb | --args"
        );
        assert_eq!(
            words(Debugger::Lldb, batch),
            "--batch | -O | settings set target.load-script-from-symbol-file false | -s | /tmp/s | \
             -s | my\ncommands.gdb | --"
        );
        assert_eq!(
            words(Debugger::Lldb, None),
            "-O | settings set target.load-script-from-symbol-file false | -s | /tmp/s | --"
        );
    }

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
        let game = OneGame { vs: "--batch=/tmp/x\nshell id".into(), seed: 9 };
        asked.optimized = true;
        let prebuilt = Path::new("/p/--batch=x.wasm");
        let again = parse(debuggee_args(&asked, "--debugger=lldb", &game, 4, Some(prebuilt)));
        assert_eq!(again.target.as_deref(), Some("--debugger=lldb"));
        assert_eq!(again.prebuilt.as_deref(), Some(prebuilt));
        assert!(again.optimized, "the debugger's game is built as the first was");
        assert_eq!(again.vs.as_deref(), Some("--batch=/tmp/x\nshell id"));
        assert_eq!((again.seed, again.turn, again.debuggee), (Some(9), Some(4), true));
        assert_eq!(again.game.as_deref(), Some("tictactoe"));
        assert_eq!(again.batch, None);
    }

    #[test]
    fn the_hint_names_a_file_of_the_bots_language() {
        let dir = tempfile::tempdir().unwrap();
        let script = |lang: &str, path: &Path| Target::Bot {
            lang: lang.parse().unwrap(),
            path: path.into(),
            game: None,
        };
        std::fs::write(dir.path().join("board.c"), "").unwrap();
        std::fs::write(dir.path().join("rules.c"), "").unwrap();
        assert_eq!(example_file(&script("c", dir.path())), "board.c");
        std::fs::write(dir.path().join("bot.c"), "").unwrap();
        assert_eq!(example_file(&script("c", dir.path())), "bot.c");
        assert_eq!(example_file(&script("c", &dir.path().join("rules.c"))), "rules.c");
        assert_eq!(example_file(&script("zig", dir.path())), "bot.zig");
        assert_eq!(example_file(&script("rust", dir.path())), "src/lib.rs");
    }
}
