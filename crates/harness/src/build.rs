//! Building a bot project to WebAssembly with cargo, with compiler errors returned as data.
//!
//! The build is `cargo build --release --target wasm32-wasip1 --message-format=json` in the
//! project's directory, with line tables forced on (or all debug info, for a debugger) and
//! stripping off so failures can be located in the bot's source. Cargo's JSON messages are parsed: errors and warnings come back as
//! [`CompilerMessage`]s with file, line and column (quoting nothing of files outside the
//! package, [`crate::shown`]); the `.wasm` artifact path comes from the artifact message. A missing `wasm32-wasip1` target is installed with rustup (said on the way).
//!
//! Not for: running the module (`botlens-sandbox`) or deciding when to build (watch, LSP).

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::{BotProject, CancelToken};

/// The target bots are built for.
pub const WASM_TARGET: &str = "wasm32-wasip1";

/// A successful build.
#[derive(Debug, Clone)]
pub struct BuildOutput {
    /// The built module.
    pub wasm: PathBuf,
    /// How long cargo took.
    pub duration: Duration,
    /// Warnings cargo reported (errors fail the build).
    pub warnings: Vec<CompilerMessage>,
}

/// One compiler diagnostic, located in the project's sources when rustc gave a span.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompilerMessage {
    /// `error`, `warning`, …
    pub level: String,
    /// The one-line message (`cannot find value `x` in this scope`).
    pub message: String,
    /// The error code (`E0425`), when rustc gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// The full rendered diagnostic as rustc prints it.
    pub rendered: String,
    /// The primary span's file, absolute.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<PathBuf>,
    /// 1-based line of the primary span (0 when unknown).
    pub line: u32,
    /// 1-based column of the primary span (0 when unknown).
    pub column: u32,
    /// 1-based last line of the primary span.
    pub end_line: u32,
    /// 1-based column just past the primary span.
    pub end_column: u32,
}

/// Why a build did not produce a module.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// The code does not compile.
    #[error("the bot does not compile:\n{}", render_messages(.0))]
    Compile(Vec<CompilerMessage>),
    /// cargo or rustup could not be run, or failed for a reason other than the code.
    #[error("{0}")]
    Tool(String),
    /// The build took longer than its timeout (seconds); cargo and what it started were stopped.
    #[error(
        "the build took longer than {0} s and was stopped (a build script that never returns? raise `build_timeout_secs` in [package.metadata.botlens] if the build is just slow)"
    )]
    Timeout(u64),
    /// cargo finished without reporting a `.wasm` artifact (e.g. the crate is not a cdylib).
    #[error(
        "cargo built {0} but produced no .wasm module; a bot crate needs `[lib] crate-type = [\"cdylib\"]`"
    )]
    NoArtifact(String),
}

/// Why [`build`] stopped without a module: it failed, or it was cancelled (which is not a build
/// error; the pipeline reports it as its own `Cancelled`).
#[derive(Debug)]
pub enum Stopped {
    /// The build failed.
    Failed(BuildError),
    /// The cancel token was cancelled; cargo was killed.
    Cancelled,
}

impl From<BuildError> for Stopped {
    fn from(error: BuildError) -> Self {
        Stopped::Failed(error)
    }
}

fn render_messages(messages: &[CompilerMessage]) -> String {
    messages.iter().map(|m| m.rendered.trim_end()).collect::<Vec<_>>().join("\n")
}

/// Makes sure the `wasm32-wasip1` target is installed, installing it with rustup if not;
/// `installing` is called before a long install, so the user can be told.
pub fn ensure_wasm_target(installing: &mut dyn FnMut()) -> Result<(), BuildError> {
    let installed =
        Command::new("rustup").args(["target", "list", "--installed"]).output().map_err(|e| {
            BuildError::Tool(format!("cannot run rustup to check for {WASM_TARGET}: {e}"))
        })?;
    if String::from_utf8_lossy(&installed.stdout).lines().any(|l| l.trim() == WASM_TARGET) {
        return Ok(());
    }
    installing();
    let status = Command::new("rustup")
        .args(["target", "add", WASM_TARGET])
        .stdout(Stdio::null())
        .status()
        .map_err(|e| BuildError::Tool(format!("cannot run rustup: {e}")))?;
    if status.success() {
        Ok(())
    } else {
        Err(BuildError::Tool(format!(
            "`rustup target add {WASM_TARGET}` failed ({status}); install the target by hand"
        )))
    }
}

/// How long a build may take unless the project says otherwise
/// (`[package.metadata.botlens] build_timeout_secs`): ten minutes, room for a first build that
/// compiles every dependency on a slow machine, and an end to a build script that never returns.
pub const DEFAULT_BUILD_TIMEOUT: Duration = Duration::from_secs(600);

/// Builds `project` to wasm. Cancelling `cancel` kills cargo and everything it started, and
/// returns [`Stopped::Cancelled`]; so does a build past its timeout, with
/// [`BuildError::Timeout`].
pub fn build(project: &BotProject, cancel: &CancelToken) -> Result<BuildOutput, Stopped> {
    build_into(project, None, cancel)
}

/// [`build`] with cargo's target directory set to `target_dir` (`CARGO_TARGET_DIR`) when given,
/// so builds of one project from several places (its revisions, checked out elsewhere) share
/// their dependencies' builds.
pub fn build_into(
    project: &BotProject,
    target_dir: Option<&Path>,
    cancel: &CancelToken,
) -> Result<BuildOutput, Stopped> {
    build_with(project, target_dir, DebugInfo::LineTables, cancel)
}

/// How much DWARF a build puts in the module.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum DebugInfo {
    /// Line tables only (`debug = "line-tables-only"`): enough to locate failures; the default.
    #[default]
    LineTables,
    /// Everything (`debug = true`): variables and types too, for a native debugger. The code is
    /// optimised as always, so games play out the same, but most locals are optimised out.
    Full,
    /// Everything, and the code not optimised (`opt-level = 0`): every local lives where a
    /// debugger can print it (`botlens debug`). Slower code that burns more fuel, so a game
    /// that ran out of fuel may not play out the same.
    Unoptimised,
}

impl DebugInfo {
    /// The value of cargo's `debug` profile setting.
    fn profile_value(self) -> &'static str {
        match self {
            DebugInfo::LineTables => "line-tables-only",
            DebugInfo::Full | DebugInfo::Unoptimised => "true",
        }
    }
}

/// [`build_into`] with `debug_info` DWARF in the module.
pub fn build_with(
    project: &BotProject,
    target_dir: Option<&Path>,
    debug_info: DebugInfo,
    cancel: &CancelToken,
) -> Result<BuildOutput, Stopped> {
    let started = Instant::now();
    let timeout =
        project.config.build_timeout_secs.map_or(DEFAULT_BUILD_TIMEOUT, Duration::from_secs);
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    // Its own process group, so that stopping the build stops rustc and build scripts too.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    if let Some(dir) = target_dir {
        command.env("CARGO_TARGET_DIR", dir);
    }
    if debug_info == DebugInfo::Unoptimised {
        command.env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0");
    }
    let mut child = command
        .args(["build", "--release", "--target", WASM_TARGET, "--message-format=json"])
        .arg("--manifest-path")
        .arg(project.root.join("Cargo.toml"))
        .env("CARGO_PROFILE_RELEASE_DEBUG", debug_info.profile_value())
        .env("CARGO_PROFILE_RELEASE_STRIP", "none")
        .env_remove("RUSTFLAGS")
        .current_dir(&project.root)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| BuildError::Tool(format!("cannot run cargo: {e}")))?;

    let stdout = child.stdout.take().expect("stdout is piped");
    let mut stderr = child.stderr.take().expect("stderr is piped");
    let reader = std::thread::spawn(move || parse_cargo_messages(BufReader::new(stdout)));
    let stderr_reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });

    let status = loop {
        if cancel.is_cancelled() {
            stop(&mut child);
            return Err(Stopped::Cancelled);
        }
        if started.elapsed() > timeout {
            stop(&mut child);
            return Err(BuildError::Timeout(timeout.as_secs()).into());
        }
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(BuildError::Tool(format!("waiting for cargo: {e}")).into()),
        }
    };
    let parsed =
        reader.join().map_err(|_| BuildError::Tool("reading cargo output failed".into()))?;
    let stderr_text = stderr_reader.join().unwrap_or_default();
    let (errors, warnings): (Vec<_>, Vec<_>) =
        parsed.messages.into_iter().partition(|m| m.level == "error");

    if !status.success() {
        if !errors.is_empty() {
            return Err(BuildError::Compile(errors).into());
        }
        return Err(BuildError::Tool(format!(
            "cargo build failed ({status}):\n{}",
            stderr_text.trim_end()
        ))
        .into());
    }
    let wasm = parsed.wasm.ok_or_else(|| BuildError::NoArtifact(project.name.clone()))?;
    Ok(BuildOutput { wasm, duration: started.elapsed(), warnings })
}

/// Kills cargo and every process of its group (rustc, build scripts), then reaps cargo.
fn stop(child: &mut std::process::Child) {
    #[cfg(unix)]
    if let Ok(pid) = i32::try_from(child.id()) {
        // SAFETY: `kill` takes plain integers and touches no memory of ours; `-pid` names the
        // process group `build` put cargo at the head of, which only cargo's descendants share.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

struct ParsedOutput {
    messages: Vec<CompilerMessage>,
    wasm: Option<PathBuf>,
}

#[derive(Deserialize)]
struct CargoLine {
    reason: String,
    #[serde(default)]
    message: Option<RustcDiagnostic>,
    #[serde(default)]
    filenames: Vec<PathBuf>,
    #[serde(default)]
    manifest_path: Option<PathBuf>,
}

#[derive(Deserialize)]
struct RustcDiagnostic {
    message: String,
    level: String,
    #[serde(default)]
    code: Option<DiagnosticCode>,
    #[serde(default)]
    spans: Vec<DiagnosticSpan>,
    #[serde(default)]
    rendered: Option<String>,
}

#[derive(Deserialize)]
struct DiagnosticCode {
    code: String,
}

#[derive(Deserialize)]
struct DiagnosticSpan {
    file_name: PathBuf,
    is_primary: bool,
    line_start: u32,
    column_start: u32,
    line_end: u32,
    column_end: u32,
}

fn parse_cargo_messages(reader: impl BufRead) -> ParsedOutput {
    let mut messages = Vec::new();
    let mut wasm = None;
    for line in reader.lines().map_while(Result::ok) {
        let Ok(parsed) = serde_json::from_str::<CargoLine>(&line) else { continue };
        match parsed.reason.as_str() {
            "compiler-message" => {
                if let Some(diagnostic) = parsed.message {
                    let root = parsed.manifest_path.as_deref().and_then(Path::parent);
                    messages.push(compiler_message(diagnostic, root));
                }
            }
            "compiler-artifact" => {
                if let Some(path) = parsed
                    .filenames
                    .into_iter()
                    .find(|f| f.extension().is_some_and(|ext| ext == "wasm"))
                {
                    wasm = Some(path);
                }
            }
            _ => {}
        }
    }
    ParsedOutput { messages, wasm }
}

/// A rustc diagnostic of the package whose directory is `root` as a [`CompilerMessage`],
/// quoting nothing of files outside that directory ([`crate::shown`]).
fn compiler_message(diagnostic: RustcDiagnostic, root: Option<&Path>) -> CompilerMessage {
    let primary = diagnostic.spans.iter().find(|s| s.is_primary);
    let file = primary.map(|span| match root {
        Some(root) if span.file_name.is_relative() => root.join(&span.file_name),
        _ => span.file_name.clone(),
    });
    let message = CompilerMessage {
        level: diagnostic.level,
        rendered: diagnostic.rendered.unwrap_or_else(|| diagnostic.message.clone()),
        message: diagnostic.message,
        code: diagnostic.code.map(|c| c.code),
        file,
        line: primary.map_or(0, |s| s.line_start),
        column: primary.map_or(0, |s| s.column_start),
        end_line: primary.map_or(0, |s| s.line_end),
        end_column: primary.map_or(0, |s| s.column_end),
    };
    let Some(root) = root else { return message };
    let shown = crate::shown::Shown::new(root, &[]);
    match &message.file {
        // Located outside the package: its place alone (its text may quote the file).
        Some(file) if !shown.shows(file) => CompilerMessage {
            rendered: crate::shown::hidden_rendered(
                file,
                message.line,
                message.column,
                &message.level,
            ),
            message: crate::shown::MESSAGE_NOT_SHOWN.to_owned(),
            ..message
        },
        _ => CompilerMessage {
            rendered: crate::shown::rustc_rendered(&message.rendered, &shown),
            ..message
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_script_that_never_returns_is_stopped_at_the_timeout_with_everything_it_started() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let pid_file = root.join("build-script.pid");
        std::fs::write(
            root.join("Cargo.toml"),
            "[package]\nname = \"hangs\"\nversion = \"0.1.0\"\nedition = \"2021\"\n[lib]\ncrate-type = [\"cdylib\"]\n[workspace]\n[package.metadata.botlens]\ngame = \"tictactoe\"\nbuild_timeout_secs = 8\n",
        )
        .unwrap();
        std::fs::create_dir(root.join("src")).unwrap();
        std::fs::write(root.join("src/lib.rs"), "").unwrap();
        let script = format!(
            "fn main() {{ std::fs::write({:?}, std::process::id().to_string()).unwrap(); loop {{ std::thread::sleep(std::time::Duration::from_secs(1)); }} }}",
            pid_file.display().to_string()
        );
        std::fs::write(root.join("build.rs"), script).unwrap();
        let project = BotProject::load(root).unwrap();
        let started = Instant::now();
        let stopped = build(&project, &CancelToken::new());
        assert!(matches!(stopped, Err(Stopped::Failed(BuildError::Timeout(8)))), "{stopped:?}");
        assert!(started.elapsed() < Duration::from_secs(30), "{:?}", started.elapsed());
        let pid = std::fs::read_to_string(&pid_file).unwrap();
        // Gone, or a zombie waiting for whoever adopted it to reap it: not running either way.
        let running = || {
            let stat = std::fs::read_to_string(format!("/proc/{}/stat", pid.trim()));
            stat.is_ok_and(|stat| {
                stat.rsplit(')').next().is_some_and(|rest| !rest.trim_start().starts_with('Z'))
            })
        };
        let deadline = Instant::now() + Duration::from_secs(5);
        while running() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        assert!(!running(), "the build script {pid} outlived the build");
    }

    #[test]
    fn cargo_json_becomes_located_messages_and_an_artifact() {
        let output = r#"{"reason":"compiler-message","manifest_path":"/bot/Cargo.toml","message":{"message":"cannot find value `x` in this scope","level":"error","code":{"code":"E0425","explanation":null},"spans":[{"file_name":"src/lib.rs","is_primary":true,"line_start":7,"column_start":9,"line_end":7,"column_end":10}],"rendered":"error[E0425]: cannot find value `x`\n"}}
not json at all
{"reason":"compiler-artifact","filenames":["/bot/target/wasm32-wasip1/release/deps/bot.rlib","/bot/target/wasm32-wasip1/release/bot.wasm"]}
{"reason":"build-finished","success":false}"#;
        let parsed = parse_cargo_messages(output.as_bytes());
        assert_eq!(parsed.wasm, Some(PathBuf::from("/bot/target/wasm32-wasip1/release/bot.wasm")));
        let [message] = parsed.messages.as_slice() else { panic!("{:?}", parsed.messages) };
        assert_eq!(message.file, Some(PathBuf::from("/bot/src/lib.rs")));
        assert_eq!((message.line, message.column, message.end_column), (7, 9, 10));
        assert_eq!(message.code.as_deref(), Some("E0425"));
    }

    #[test]
    fn a_message_located_outside_the_package_keeps_its_place_alone() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/lib.rs"), "include!(\"/etc/passwd\");\n").unwrap();
        let manifest = dir.path().join("Cargo.toml").display().to_string();
        let line = |file: &str, rendered: &str| {
            serde_json::json!({"reason": "compiler-message", "manifest_path": manifest, "message": {
                "message": "expected item, found `root`", "level": "error",
                "spans": [{"file_name": file, "is_primary": true, "line_start": 1, "column_start": 1, "line_end": 1, "column_end": 5}],
                "rendered": rendered}})
            .to_string()
        };
        let quoting = "error: expected item, found `root`\n --> /etc/passwd:1:1\n  |\n1 | root:x:0:0:root:/root:/bin/bash\n  | ^^^^\n";
        let output = format!("{}\n{}\n", line("/etc/passwd", quoting), line("src/lib.rs", quoting));
        let parsed = parse_cargo_messages(output.as_bytes());
        let [outside, inside] = parsed.messages.as_slice() else { panic!("{:?}", parsed.messages) };
        assert_eq!(outside.message, crate::shown::MESSAGE_NOT_SHOWN);
        assert_eq!(
            outside.rendered,
            crate::shown::hidden_rendered(Path::new("/etc/passwd"), 1, 1, "error")
        );
        assert_eq!((outside.line, outside.column, outside.end_column), (1, 1, 5));
        assert!(!inside.rendered.contains("root:x"), "{}", inside.rendered);
        assert!(inside.rendered.contains(crate::shown::EXCERPT_NOT_SHOWN), "{}", inside.rendered);
    }
}
