//! Where and why the debugger stops, and what botlens hands it: its arguments and a script of
//! its commands (a stop at [`HOOK`], botlens's words there, a breakpoint on the failing line).
//! No text of the bot's reaches a command: a failure's message is printed by botlens, never
//! echoed by the debugger, and a file name from the bot's debug info is written into a
//! breakpoint only when nothing in it is the debuggers' syntax ([`unfit_for_a_command`]).

use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::Path;

use botlens_engine::Fault;
use botlens_engine::text::printable;
use botlens_harness::Target;

use crate::{Debugger, HOOK};

/// Where and why the debugger stops.
pub struct Stop {
    /// The bot's turn it stops at.
    pub turn: u32,
    /// Why this turn, in words (the failure's message: the bot's text).
    pub why: String,
    /// The failing line ([`failing_line`]); its file is the bot's text.
    pub failing_line: Option<(String, u32)>,
    /// A file of the bot's for the hint when no line failed ([`example_file`]).
    pub example: String,
}

impl Stop {
    /// The breakpoint on the failing line, if there is one and its file name is fit for a
    /// debugger's command ([`unfit_for_a_command`]).
    pub fn breakpoint(&self) -> Option<(&str, u32)> {
        let (file, line) = self.failing_line.as_ref()?;
        unfit_for_a_command(file).is_none().then_some((file.as_str(), *line))
    }

    /// What botlens says before it starts `debugger`, as lines: the bot's text is in them, so
    /// they are printed through `printable` and never reach the debugger.
    pub fn banner(&self, debugger: Debugger) -> Vec<String> {
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
        lines.push(format!(
            "botlens: then `bt`, `{}`, `print NAME`, `next`, `step`; `quit` to leave.",
            debugger.locals_command()
        ));
        lines.push(format!(
            "botlens: `board` prints the board as the bot sees it; `turn N` and `back` play the game again to another turn{}; {}.",
            match debugger {
                Debugger::Gdb => "",
                Debugger::Lldb => " (then `continue`)",
            },
            match debugger {
                Debugger::Gdb => "`print $deref(p)` reads what a pointer of the bot's points at",
                Debugger::Lldb => "`print *p` reads what a pointer of the bot's points at",
            }
        ));
        lines
    }

    /// The commands botlens hands `debugger`: a stop at the hook, botlens's words there, a
    /// breakpoint on the failing line ([`Stop::breakpoint`]).
    pub fn script(&self, debugger: Debugger) -> String {
        match debugger {
            Debugger::Gdb => gdb_commands(self),
            Debugger::Lldb => lldb_commands(self),
        }
    }

    /// What lldb is given when an editor's DAP client launches the game ([`LldbLaunch`]).
    pub fn lldb_launch(&self) -> LldbLaunch {
        let init_commands = vec![
            LLDB_JIT.to_owned(),
            "settings set target.load-script-from-symbol-file false".to_owned(),
        ];
        let mut pre_run_commands: Vec<String> = LLDB_COMMANDS.lines().map(str::to_owned).collect();
        let failing = lldb_failing_line_breakpoint(self);
        if failing.is_empty() {
            pre_run_commands.push(lldb_hook_breakpoint());
        }
        pre_run_commands.extend(failing);
        LldbLaunch { init_commands, pre_run_commands }
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
/// a stop at the hook, botlens's words at the stop, botlens's commands ([`GDB_COMMANDS`]), a
/// breakpoint on the failing line (armed at each stop at the hook, so a game played again does
/// not stop there on its way), and `$deref` ([`GDB_DEREF`]). No untrusted text: the words are
/// botlens's own, the breakpoint's file name is checked ([`unfit_for_a_command`]) and quoted.
fn gdb_commands(stop: &Stop) -> String {
    let mut script = String::from(
        "set breakpoint pending on\nset pagination off\nset confirm off\n\
         set print thread-events off\nset print inferior-events off\n",
    );
    let _ = writeln!(script, "break {HOOK}\nrun");
    for line in stop.at_the_stop() {
        let _ = writeln!(script, "echo {}\\n", gdb_escape(&line));
    }
    let arming = stop.breakpoint().is_some();
    let disarm = if arming { "  disable 2\n" } else { "" };
    script.push_str(&GDB_COMMANDS.replace("  @disarm\n", disarm));
    if let Some((file, line)) = stop.breakpoint() {
        let _ = writeln!(script, "break \"{file}\":{line}\ncommands 1\n  enable 2\nend");
    }
    // Last: a gdb without Python stops reading the script here, with all else done.
    script.push_str(GDB_DEREF);
    script
}

/// botlens's gdb commands: `board`, `turn N`, `back`. They name the host's functions and
/// variables in C (`with language c`), whatever the frame's language. `@disarm` is where the
/// breakpoint on the failing line is disabled, when there is one.
const GDB_COMMANDS: &str = "define board
  with language c -- printf \"%s\", *(char **) &botlens_board
end
document board
Print the board as the bot sees it at this turn, and the view message it was handed.
end
define turn
  with language c -- set var *(unsigned *) &botlens_replay_turn = $arg0
  @disarm
  continue
end
document turn
Play the game again from its start, stopping as the bot begins its turn N: turn N.
end
define back
  with language c -- set var *(unsigned *) &botlens_replay_turn = *(unsigned *) &botlens_stop_turn - 1
  @disarm
  continue
end
document back
Play the game again from its start, stopping as the bot begins the turn before this one.
end
";

/// `$deref(p)`, what a pointer of the bot's points at: wasmtime shows a bot's pointers as
/// `WebAssemblyPtrWrapper<T>` (an offset into the bot's linear memory), whose `operator*`
/// only lldb calls. It finds `T` among the types of the frame's unit and reads it at the
/// memory's base (`__vmctx->memory`) plus the offset.
const GDB_DEREF: &str = r#"python
class BotlensDeref(gdb.Function):
    """$deref(p): what the bot's pointer p (a WebAssemblyPtrWrapper<T>) points at."""

    def __init__(self):
        super().__init__("deref")

    def invoke(self, pointer):
        name = pointer.type.strip_typedefs().name or ""
        wrapper = "WebAssemblyPtrWrapper<"
        if not name.startswith(wrapper):
            raise gdb.GdbError("$deref takes a pointer of the bot's, a WebAssemblyPtrWrapper<T>")
        pointee = name[len(wrapper):-1].strip()
        frame = gdb.selected_frame()
        for block in (frame.block().static_block, frame.block().global_block):
            for symbol in block:
                if symbol.addr_class == gdb.SYMBOL_LOC_TYPEDEF and (
                    symbol.name == pointee or symbol.name.endswith("::" + pointee)
                ):
                    base = frame.read_var("__vmctx")["memory"]
                    address = base + int(pointer["__ptr"])
                    return address.cast(symbol.type.pointer()).dereference()
        raise gdb.GdbError("$deref finds no type for this pointer in this frame's unit")


BotlensDeref()
end
"#;

/// `text` for gdb's `echo`, which reads backslash escapes: on one line, each control
/// character a visible escape, each backslash doubled.
fn gdb_escape(text: &str) -> String {
    printable(text).replace('\\', "\\\\")
}

/// An lldb script: the JIT loader on, a stop at the hook, botlens's words at the stop (as
/// comments, which lldb echoes: its one way to print text, `script`, needs its Python), its
/// commands ([`LLDB_COMMANDS`]), a breakpoint on the failing line that waits for the stop at
/// the hook (a game played again does not stop there on its way) and makes the bot's pointers
/// readable (`__vmctx->set()`); as checked as gdb's. Nothing needs lldb's Python.
fn lldb_commands(stop: &Stop) -> String {
    let mut script = format!("{LLDB_JIT}\n");
    let _ = writeln!(script, "{}\nprocess launch", lldb_hook_breakpoint());
    for line in stop.at_the_stop() {
        let _ = writeln!(script, "# {}", printable(&line).replace('`', "'"));
    }
    script.push_str(LLDB_COMMANDS);
    for command in lldb_failing_line_breakpoint(stop) {
        let _ = writeln!(script, "{command}");
    }
    script
}

/// lldb's setting that reads the native DWARF wasmtime registers for the bot's code.
const LLDB_JIT: &str = "settings set plugin.jit-loader.gdb.enable on";

/// lldb's breakpoint at [`HOOK`].
fn lldb_hook_breakpoint() -> String {
    format!("breakpoint set --name {HOOK} --skip-prologue false")
}

/// lldb's breakpoint on the failing line (none when there is none fit for a command,
/// [`Stop::breakpoint`]): waiting for the stop at the hook, and making the bot's pointers
/// readable there.
fn lldb_failing_line_breakpoint(stop: &Stop) -> Vec<String> {
    let Some((file, line)) = stop.breakpoint() else { return Vec::new() };
    vec![
        format!(
            "breakpoint set --file \"{file}\" --line {line} --condition '*(unsigned *) &botlens_stop_turn != 0'"
        ),
        "breakpoint command add --one-liner 'expression -- (void) __vmctx->set()'".to_owned(),
    ]
}

/// What lldb is given at launch when an editor runs it as a Debug Adapter Protocol server
/// (lldb-vscode, lldb-dap): the launch request's `initCommands` and `preRunCommands`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LldbLaunch {
    /// Before the program is made a target: the JIT loader on, no scripts from symbol files.
    pub init_commands: Vec<String>,
    /// Before it runs: botlens's commands, and the breakpoint on the failing line (or, when
    /// there is none, at the hook), so the editor's first stop is the failing line at the
    /// failing turn.
    pub pre_run_commands: Vec<String>,
}

/// botlens's lldb commands: `board`, `turn N` and `back` (each followed by `continue`: lldb
/// runs one command for a command of one's own without its Python).
const LLDB_COMMANDS: &str = "command alias board expression -- ((void (*)(void)) *(void **) &botlens_show_board_at)()
command regex turn --help 'Play the game again from its start, stopping as the bot begins its turn N: turn N, then continue.' --syntax 'turn N' 's/^([0-9]+)$/expression -- *(unsigned *) &botlens_replay_turn = %1/'
command alias back expression -- *(unsigned *) &botlens_replay_turn = *(unsigned *) &botlens_stop_turn - 1
";

/// The debugger's own arguments up to the program it runs: botlens's `script`, then the user's
/// `batch` file as a file of its own (its name never enters a command). gdb starts the program
/// without a shell and loads no script a program or directory brings; lldb loads none from
/// symbol files.
pub fn debugger_args(debugger: Debugger, script: &Path, batch: Option<&Path>) -> Vec<OsString> {
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
pub fn failing_line(fault: &Fault, target: &Target) -> Option<(String, u32)> {
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
pub const MAX_BREAKPOINT_FILE: usize = 4096;

/// Why the file name `file` cannot be written into a debugger's command, if it cannot: it
/// comes from the bot (its debug info, a C `#line`), and a line break would start a command of
/// its own (`shell …`), while quotes, backslashes, backticks (lldb evaluates them) and `$`
/// are the debuggers' syntax. Spaces are fine: the name is quoted.
pub fn unfit_for_a_command(file: &str) -> Option<&'static str> {
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
pub fn example_file(target: &Target) -> String {
    let Target::Bot { lang, path, .. } = target else { return "src/lib.rs".into() };
    lang.example_file(path)
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
    fn scripts_stop_at_the_hook_say_so_define_botlens_commands_and_break_on_the_failing_line() {
        let stop = stop("the bot failed", Some("/home/me/my bots/src/lib.rs"));
        insta::assert_snapshot!("gdb_script", gdb_commands(&stop));
        insta::assert_snapshot!("lldb_script", lldb_commands(&stop));
        insta::assert_snapshot!("gdb_banner", stop.banner(Debugger::Gdb).join("\n"));
        let none = Stop { failing_line: None, ..stop };
        insta::assert_snapshot!("gdb_script_without_a_failing_line", gdb_commands(&none));
        insta::assert_snapshot!("lldb_script_without_a_failing_line", lldb_commands(&none));
        insta::assert_snapshot!(
            "lldb_banner_without_a_failing_line",
            none.banner(Debugger::Lldb).join("\n")
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
                let script = |stop: &Stop| stop.script(debugger);
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
    fn an_editors_launch_commands_are_the_scripts_and_carry_no_text_of_the_bots() {
        let plain = stop("plain", Some("/bot/src/lib.rs"));
        let launch = plain.lldb_launch();
        let script = lldb_commands(&plain);
        for command in &launch.pre_run_commands {
            assert!(script.contains(command.as_str()), "{command} is in lldb's script too");
        }
        assert_eq!(launch.init_commands[0], LLDB_JIT);
        assert!(launch.pre_run_commands.last().unwrap().contains("__vmctx->set()"));
        assert!(
            !launch.pre_run_commands.iter().any(|c| c.contains(HOOK)),
            "the first stop is the line"
        );
        for why in HOSTILE {
            let named = stop(why, Some(&format!("/bot/{why}.c")));
            let launch = named.lldb_launch();
            let none = stop("plain", None).lldb_launch();
            assert_eq!(launch, none, "{why:?}");
            assert!(
                launch.pre_run_commands.iter().any(|c| c.contains(HOOK)),
                "without a line, the hook"
            );
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
