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
use std::process::{Command, ExitCode};

use anyhow::{Context, bail};
use botlens_engine::{Fault, Trace};
use botlens_harness::build::DebugInfo;
use botlens_harness::folder::Lang;
use botlens_harness::pipeline::{self, Prepared, RunOptions, Stage};
use botlens_harness::suite::GameResult;
use botlens_harness::{BotProject, CancelToken, Contender, Target};
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
    /// The bot: a project directory, a .wasm module, or a C or Zig bot (folder or file).
    #[arg(default_value = ".")]
    target: String,
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
    let target = Target::parse(&args.target, args.game.as_deref())?;
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
        return play_under_debugger(&target, &chosen, &args);
    }
    let debugger = find_on_path(args.debugger.program()).with_context(|| {
        format!(
            "{name} is not installed: apt-get install {name} (or choose the other with --debugger)",
            name = args.debugger.program()
        )
    })?;
    let prepared = prepare(&super::sandbox()?, &target, &chosen, &args)?;
    let game = play(prepared, &target)?;
    if let Some((trace, path)) = &stored {
        compare_with(&game, trace, path);
    }
    let (turn, why) = stop_turn(&game, args.turn)?;
    if game.fault.is_none() && !args.optimized && matches!(target, Target::Project { .. }) {
        eprintln!(
            "botlens: note: this game did not fail with the unoptimised build; if it fails in `botlens run`, try --optimized"
        );
    }
    eprintln!("botlens: starting {}…", args.debugger.program());
    let dir = tempfile::tempdir().context("a directory for the debugger's commands")?;
    let script = dir.path().join("commands");
    let failing_line = game.fault.as_ref().and_then(|fault| failing_line(fault, &target));
    let stop = Stop { why, failing_line, example: example_file(&target) };
    let commands = match args.debugger {
        Debugger::Gdb => gdb_commands(&stop, args.batch.as_deref()),
        Debugger::Lldb => lldb_commands(&stop, args.batch.as_deref()),
    };
    std::fs::write(&script, commands).context("writing the debugger's commands")?;
    let status = Command::new(debugger)
        .args(debugger_args(args.debugger, &script, args.batch.is_some()))
        .arg(std::env::current_exe().context("the path of this botlens")?)
        .args(debuggee_args(&args, &chosen, turn))
        .status()
        .with_context(|| format!("running {}", args.debugger.program()))?;
    Ok(ExitCode::from(status.code().map_or(2, |code| code.clamp(0, 255) as u8)))
}

/// Refuses what has no bot module of its own to debug.
fn check_debuggable(target: &Target) -> anyhow::Result<()> {
    match target {
        Target::Reference { name, .. } => bail!(
            "{name} is a reference player, native code inside botlens with no module to debug; give a bot project or a .wasm module"
        ),
        Target::Script { lang: Lang::JavaScript, path, .. } => bail!(
            "{} is a JavaScript bot: its module is the JavaScript runner, whose debug info describes the interpreter, not the bot; step through its games with `botlens replay` instead",
            path.display()
        ),
        Target::Script { lang: Lang::AssemblyScript, path, .. } => bail!(
            "{} is an AssemblyScript bot: AssemblyScript compiles no DWARF debug info (only a source map, which gdb and lldb do not read), so a debugger would show neither its lines nor its variables; step through its games with `botlens replay` instead, which shows each failure at its line of the bot's .ts file",
            path.display()
        ),
        Target::Script { lang: Lang::C | Lang::Zig, .. }
        | Target::Project { .. }
        | Target::Module { .. } => Ok(()),
    }
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
        Target::Project { dir, .. } => BotProject::load(dir)?.game,
        Target::Module { game, .. } => *game,
        Target::Script { lang: lang @ (Lang::C | Lang::Zig), path, game } => {
            pipeline::folder_game(*lang, path, *game)?
        }
        Target::Reference { .. } | Target::Script { .. } => {
            bail!("{target} has no module of its own to debug")
        }
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
        ..RunOptions::one_game(&game.vs, game.seed)
    };
    let quiet = args.debuggee;
    let progress = |stage| match stage {
        Stage::InstallingTarget if !quiet => eprintln!("{INSTALLING}"),
        Stage::Building if !quiet => eprintln!(
            "botlens: building the bot with all debug info{}…",
            if args.optimized { "" } else { ", unoptimised" }
        ),
        _ => {}
    };
    let prepared = pipeline::prepare(sandbox, target, &options, &progress, &CancelToken::new())?;
    if let Contender::Wasm(bot) = &prepared.suite.bot
        && !bot.module.has_variable_info()
    {
        let module = prepared.wasm.as_deref().unwrap_or(Path::new(&args.target));
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
            eprintln!("botlens: {why}");
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
    eprintln!("botlens: the game is over after the bot's {} turns: {ending}", played.bot_turns);
    std::io::stderr().flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The arguments of this command again, for the process under the debugger.
fn debuggee_args(args: &DebugArgs, game: &OneGame, turn: u32) -> Vec<OsString> {
    let mut words: Vec<OsString> = vec!["debug".into(), args.target.clone().into()];
    if let Some(kind) = &args.game {
        words.extend(["--game".into(), kind.into()]);
    }
    words.extend([
        "--vs".into(),
        game.vs.clone().into(),
        "--seed".into(),
        game.seed.to_string().into(),
        "--turn".into(),
        turn.to_string().into(),
        "--debuggee".into(),
    ]);
    words
}

/// The debugger's own arguments up to the program it runs.
fn debugger_args(debugger: Debugger, script: &Path, batch: bool) -> Vec<OsString> {
    let mut words: Vec<OsString> = Vec::new();
    match debugger {
        Debugger::Gdb => {
            words.extend(["-q", "-iex", "set auto-load python-scripts off"].map(OsString::from));
            if batch {
                words.push("-batch".into());
            }
            words.extend(["-x".into(), script.into(), "--args".into()]);
        }
        Debugger::Lldb => {
            if batch {
                words.push("--batch".into());
            }
            words.extend(["-s".into(), script.into(), "--".into()]);
        }
    }
    words
}

/// The failing line as a breakpoint spec, `/home/me/bot/src/lib.rs:85`: a relative file is
/// made absolute from the bot's directory when it is there, so the breakpoint is not set in
/// every dependency's `src/lib.rs` as well.
fn failing_line(fault: &Fault, target: &Target) -> Option<String> {
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
    Some(format!("{file}:{}", location.line))
}

/// A file of the bot's own, for the hint to set breakpoints when no line failed: a C or Zig
/// bot's file (the one named, else its folder's `bot.c`/`bot.zig` or first source), a
/// project's (or module's) `src/lib.rs`.
fn example_file(target: &Target) -> String {
    let Target::Script { lang, path, .. } = target else { return "src/lib.rs".into() };
    let root = format!("bot.{}", lang.extension());
    let file = if path.is_file() {
        Some(path.clone())
    } else {
        let sources = botlens_harness::folder::sources(path, *lang);
        let named = sources.iter().find(|file| file.ends_with(&root));
        named.or(sources.first()).cloned()
    };
    file.and_then(|file| Some(file.file_name()?.to_string_lossy().into_owned())).unwrap_or(root)
}

/// Where and why the debugger stops.
struct Stop {
    /// Why this turn, in words.
    why: String,
    /// The failing line as a breakpoint spec ([`failing_line`]).
    failing_line: Option<String>,
    /// A file of the bot's for the hint when no line failed ([`example_file`]).
    example: String,
}

impl Stop {
    /// What the user reads at the stop, as lines.
    fn banner(&self, locals: &str) -> Vec<String> {
        let mut lines = vec![format!("botlens: {}.", self.why)];
        match &self.failing_line {
            Some(line) => lines.push(format!(
                "botlens: a breakpoint is on the failing line {line}: `continue` to reach it."
            )),
            None => lines.push(format!(
                "botlens: set breakpoints on the bot's lines (`break {}:42`), then `continue`.",
                self.example
            )),
        }
        lines.push(format!(
            "botlens: then `bt`, `{locals}`, `print NAME`, `next`, `step`; `quit` to leave."
        ));
        lines
    }
}

/// A gdb script: pending breakpoints allowed (the bot's code is registered as it is compiled),
/// a stop at the hook, the banner, a breakpoint on the failing line, then `batch`'s commands.
fn gdb_commands(stop: &Stop, batch: Option<&Path>) -> String {
    let mut script = String::from(
        "set breakpoint pending on\nset pagination off\nset confirm off\n\
         set print thread-events off\nset print inferior-events off\n",
    );
    let _ = writeln!(script, "break {HOOK}\nrun");
    for line in stop.banner("info locals") {
        let _ = writeln!(script, "echo {}\\n", gdb_escape(&line));
    }
    if let Some(line) = &stop.failing_line {
        let _ = writeln!(script, "break {line}");
    }
    if let Some(file) = batch {
        let _ = writeln!(script, "source {}", file.display());
    }
    script
}

/// `text` for gdb's `echo`, which reads backslash escapes.
fn gdb_escape(text: &str) -> String {
    text.replace('\\', "\\\\")
}

/// An lldb script: the JIT loader on, a stop at the hook, the banner, a breakpoint on the
/// failing line, then `batch`'s commands.
fn lldb_commands(stop: &Stop, batch: Option<&Path>) -> String {
    let mut script = String::from("settings set plugin.jit-loader.gdb.enable on\n");
    let _ = writeln!(script, "breakpoint set --name {HOOK} --skip-prologue false\nprocess launch");
    for line in stop.banner("frame variable") {
        let _ = writeln!(script, "script print({line:?})");
    }
    if let Some(line) = &stop.failing_line {
        let (file, number) = line.rsplit_once(':').unwrap_or((line, "0"));
        let _ = writeln!(script, "breakpoint set --file {file} --line {number}");
    }
    if let Some(file) = batch {
        let _ = writeln!(script, "command source {}", file.display());
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
        let project = Target::project(dir.path());
        let absolute = format!("{}:85", dir.path().join("src/lib.rs").display());
        assert_eq!(failing_line(&fault, &project), Some(absolute));
        let elsewhere = Target::project(dir.path().join("src"));
        assert_eq!(failing_line(&fault, &elsewhere).as_deref(), Some("src/lib.rs:85"));
    }

    #[test]
    fn scripts_stop_at_the_hook_then_break_on_the_failing_line_and_run_the_batch() {
        let failing_line = Some("src/lib.rs:85".to_owned());
        let stop = Stop { why: "the bot failed".into(), failing_line, example: "x".into() };
        let gdb = gdb_commands(&stop, Some(Path::new("more.gdb")));
        let hook = gdb.find("break botlens_turn_begins\nrun\n").unwrap();
        let line = gdb.find("break src/lib.rs:85\n").unwrap();
        let batch = gdb.find("source more.gdb\n").unwrap();
        assert!(hook < line && line < batch, "{gdb}");
        assert!(gdb.starts_with("set breakpoint pending on\n"));
        let lldb = lldb_commands(&stop, None);
        assert!(lldb.contains("breakpoint set --file src/lib.rs --line 85\n"), "{lldb}");
        assert!(!lldb.contains("command source"));
        let example = "bot.zig".to_owned();
        let none = Stop { why: "no failure".into(), failing_line: None, example };
        let plain = gdb_commands(&none, None);
        assert!(!plain.lines().any(|line| line.starts_with("break src/")), "{plain}");
        assert!(plain.contains("(`break bot.zig:42`)"), "{plain}");
    }

    #[test]
    fn the_hint_names_a_file_of_the_bots_language() {
        let dir = tempfile::tempdir().unwrap();
        let script = |lang, path: &Path| Target::Script { lang, path: path.into(), game: None };
        std::fs::write(dir.path().join("board.c"), "").unwrap();
        std::fs::write(dir.path().join("rules.c"), "").unwrap();
        assert_eq!(example_file(&script(Lang::C, dir.path())), "board.c");
        std::fs::write(dir.path().join("bot.c"), "").unwrap();
        assert_eq!(example_file(&script(Lang::C, dir.path())), "bot.c");
        assert_eq!(example_file(&script(Lang::C, &dir.path().join("rules.c"))), "rules.c");
        assert_eq!(example_file(&script(Lang::Zig, dir.path())), "bot.zig");
        assert_eq!(example_file(&Target::project(dir.path())), "src/lib.rs");
    }
}
