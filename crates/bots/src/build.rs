//! Building a bot project to WebAssembly with cargo, with compiler errors returned as data.
//!
//! The build is `cargo build --offline --release --target wasm32-wasip1 --message-format=json
//! --manifest-path <project>/Cargo.toml`, confined ([`build_with`]: the project's files read,
//! its target directory written, no network; dependencies fetched first when missing), with
//! line tables forced on (or all debug info, for a debugger) and
//! stripping off so failures can be located in the bot's source. Cargo's JSON messages are parsed: errors and warnings come back as
//! [`CompilerMessage`]s with file, line and column (quoting nothing of files outside the
//! package, [`crate::shown`]); the `.wasm` artifact path comes from the artifact message. A
//! build that fails for want of the `wasm32-wasip1` target installs it with rustup (said on the
//! way) and builds again ([`build_installing_target`]).
//!
//! Not for: running the module (`botlens-sandbox`) or deciding when to build (watch, LSP).

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use botlens_confine::{Confined, Finished, RunError};
use serde::{Deserialize, Serialize};

use crate::tools::{self, RustHomes};
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
/// `installing` is called before a long install, so the user can be told. rustup runs
/// confined like every tool (`tools`): reading its home to list the targets, writing
/// it (and reaching the network) only to add one.
pub fn ensure_wasm_target(installing: &mut dyn FnMut()) -> Result<(), BuildError> {
    let homes = RustHomes::of_user();
    let never = CancelToken::new();
    let mut list = tools::rustup(&homes);
    list.args(["target", "list", "--installed"]);
    let installed = tools::run(&list, &never).map_err(|e| {
        BuildError::Tool(format!("cannot run rustup to check for {WASM_TARGET}: {e}"))
    })?;
    if String::from_utf8_lossy(&installed.stdout).lines().any(|l| l.trim() == WASM_TARGET) {
        return Ok(());
    }
    installing();
    let mut add = tools::rustup(&homes);
    add.args(["target", "add", WASM_TARGET]).write(&homes.rustup).network(true);
    let added = tools::run(&add, &never).map_err(|e| BuildError::Tool(format!("{e}")))?;
    if added.status.success() {
        Ok(())
    } else {
        Err(BuildError::Tool(format!(
            "`rustup target add {WASM_TARGET}` failed ({}): {}\ninstall the target by hand",
            added.status,
            String::from_utf8_lossy(&added.stderr).trim_end()
        )))
    }
}

/// Whether a failed build's `errors` say that rustc lacks the standard library of
/// [`WASM_TARGET`] (`E0463` with rustc's note that the target may not be installed): the
/// target is then installed and the build tried again ([`build_installing_target`]).
pub fn target_missing(errors: &[CompilerMessage]) -> bool {
    let note = format!("the `{WASM_TARGET}` target may not be installed");
    errors
        .iter()
        .any(|error| error.code.as_deref() == Some("E0463") && error.rendered.contains(&note))
}

/// `build`, and when it fails for want of the [`WASM_TARGET`] target ([`target_missing`]),
/// `install` and `build` once more. Bots are built without asking rustup first: asking costs a
/// confined rustup run (about 25 ms here) on every command that builds, and the target is
/// missing once per machine.
pub fn build_installing_target<T>(
    mut build: impl FnMut() -> Result<T, Stopped>,
    install: impl FnOnce() -> Result<(), BuildError>,
) -> Result<T, Stopped> {
    match build() {
        Err(Stopped::Failed(BuildError::Compile(errors))) if target_missing(&errors) => {
            install()?;
            build()
        }
        built => built,
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
    /// Whether the code is optimised as `botlens run` builds it (all but [`DebugInfo::Unoptimised`]).
    pub fn optimised(self) -> bool {
        self != DebugInfo::Unoptimised
    }

    /// The value of cargo's `debug` profile setting.
    fn profile_value(self) -> &'static str {
        match self {
            DebugInfo::LineTables => "line-tables-only",
            DebugInfo::Full | DebugInfo::Unoptimised => "true",
        }
    }
}

/// [`build_into`] with `debug_info` DWARF in the module.
///
/// cargo runs confined (`tools`): it reads the project and its path dependencies
/// ([`readable_sources`]), writes only its target directory, and has no network, so a build
/// script or a procedural macro reaches nothing else. Dependencies are fetched first when
/// the offline build says it lacks them: `cargo fetch` runs no code of the project, and is
/// the one step given the network (and the project's directory, for `Cargo.lock`).
pub fn build_with(
    project: &BotProject,
    target_dir: Option<&Path>,
    debug_info: DebugInfo,
    cancel: &CancelToken,
) -> Result<BuildOutput, Stopped> {
    let started = Instant::now();
    let timeout =
        project.config.build_timeout_secs.map_or(DEFAULT_BUILD_TIMEOUT, Duration::from_secs);
    let homes = RustHomes::of_user();
    let sources = readable_sources(&project.root).map_err(BuildError::Tool)?;
    let target = build_target_dir(project, target_dir)?;
    let manifest = project.root.join("Cargo.toml");
    let configure = |cargo: &mut Confined| {
        cargo
            .args(["--release", "--target", WASM_TARGET, "--message-format=json"])
            .env("CARGO_PROFILE_RELEASE_DEBUG", debug_info.profile_value())
            .env("CARGO_PROFILE_RELEASE_STRIP", "none");
        if !debug_info.optimised() {
            cargo.env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0");
        }
    };
    let build =
        CargoBuild { homes: &homes, manifest: &manifest, sources: &sources, target: &target };
    let finished = build.run(&configure, timeout, cancel)?;
    let parsed = parse_cargo_messages(finished.stdout.as_slice());
    let stderr_text = String::from_utf8_lossy(&finished.stderr);
    let (errors, warnings): (Vec<_>, Vec<_>) =
        parsed.messages.into_iter().partition(|m| m.level == "error");
    if !finished.status.success() {
        if !errors.is_empty() {
            return Err(BuildError::Compile(errors).into());
        }
        return Err(BuildError::Tool(format!(
            "cargo build failed ({}):\n{}",
            finished.status,
            stderr_text.trim_end()
        ))
        .into());
    }
    let wasm = parsed.wasm.ok_or_else(|| BuildError::NoArtifact(project.name.clone()))?;
    Ok(BuildOutput { wasm, duration: started.elapsed(), warnings })
}

/// A confined run's end as a build's: cancelled, past its `timeout`, or a tool that would not
/// start.
fn stopped(error: RunError, timeout: Duration) -> Stopped {
    match error {
        RunError::Cancelled { .. } => Stopped::Cancelled,
        RunError::TimedOut { .. } => BuildError::Timeout(timeout.as_secs()).into(),
        other => BuildError::Tool(other.to_string()).into(),
    }
}

/// A confined `cargo build`: of the package `manifest`, reading `sources`, writing `target`.
pub(crate) struct CargoBuild<'a> {
    /// The toolchain's homes.
    pub homes: &'a RustHomes,
    /// The package's `Cargo.toml`.
    pub manifest: &'a Path,
    /// What the build may read besides the toolchain: the package and its path dependencies.
    pub sources: &'a [PathBuf],
    /// The target directory, the one place it writes.
    pub target: &'a Path,
}

impl CargoBuild<'_> {
    /// Runs `cargo build --offline` with the arguments and variables `configure` adds; when it
    /// fails for want of dependencies (or of a `Cargo.lock`), fetches them and builds again.
    /// The whole takes at most `timeout`.
    pub(crate) fn run(
        &self,
        configure: &dyn Fn(&mut Confined),
        timeout: Duration,
        cancel: &CancelToken,
    ) -> Result<Finished, Stopped> {
        let started = Instant::now();
        let remaining = || tools::build_limits(timeout.saturating_sub(started.elapsed()));
        let build = || {
            let mut cargo = self.cargo(&["build", "--offline"]);
            cargo.env("CARGO_TARGET_DIR", self.target).write(self.target).limits(remaining());
            configure(&mut cargo);
            tools::run(&cargo, cancel).map_err(|error| stopped(error, timeout))
        };
        let finished = build()?;
        let stderr = String::from_utf8_lossy(&finished.stderr);
        let wants_dependencies =
            ["offline", "Cargo.lock", "download"].iter().any(|hint| stderr.contains(hint));
        if finished.status.success() || !wants_dependencies {
            return Ok(finished);
        }
        // `cargo fetch` runs no code of the package's: it alone gets the network, cargo's
        // home and the package's directory (for `Cargo.lock`). It fetches for this machine too:
        // a build for wasm32 also wants packages only the host's side of the graph (build
        // scripts, proc macros) names, and would otherwise fail offline on a new machine.
        let host = env!("BOTLENS_HOST_TARGET");
        let mut fetch = self.cargo(&["fetch", "--target", WASM_TARGET, "--target", host]);
        let package = self.manifest.parent().unwrap_or(self.manifest);
        fetch.write(&self.homes.cargo).write(package).network(true).limits(remaining());
        let fetched = tools::run(&fetch, cancel).map_err(|error| stopped(error, timeout))?;
        if !fetched.status.success() {
            return Err(BuildError::Tool(format!(
                "fetching the dependencies failed ({}):\n{}",
                fetched.status,
                String::from_utf8_lossy(&fetched.stderr).trim_end()
            ))
            .into());
        }
        build()
    }

    /// cargo with `command`, the manifest, and the sources readable.
    fn cargo(&self, command: &[&str]) -> Confined {
        let mut cargo = tools::cargo(self.homes);
        cargo.args(command).arg("--manifest-path").arg(self.manifest);
        for dir in self.sources {
            cargo.read(dir);
        }
        cargo
    }
}

/// The user's own cargo target directory, `CARGO_TARGET_DIR` of botlens's environment, when set.
pub(crate) fn users_target_dir() -> Option<PathBuf> {
    std::env::var_os("CARGO_TARGET_DIR").filter(|dir| !dir.is_empty()).map(PathBuf::from)
}

/// Where cargo writes: `target_dir` when given, else `CARGO_TARGET_DIR` of botlens's
/// environment (the user's own), else the project's `target/`, which must be a directory of
/// the project's (not a link leading elsewhere, which would let the build write there).
fn build_target_dir(project: &BotProject, target_dir: Option<&Path>) -> Result<PathBuf, Stopped> {
    // cargo runs in a directory of its own: a relative directory is botlens's.
    let absolute =
        |dir: &Path| std::path::absolute(dir).map_err(|e| BuildError::Tool(e.to_string()));
    if let Some(dir) = target_dir.map(Path::to_owned).or_else(users_target_dir) {
        return Ok(absolute(&dir)?);
    }
    let target = project.root.join("target");
    match std::fs::symlink_metadata(&target) {
        Ok(meta) if !meta.is_dir() => Err(BuildError::Tool(format!(
            "{} is not a directory (a link?): botlens builds into the project's own target directory; remove it",
            target.display()
        ))
        .into()),
        _ => Ok(target),
    }
}

/// Where a Rust bot project's build may read: the project's directory and its path
/// dependencies, followed through their manifests, and the `Cargo.toml` files above them
/// (where cargo looks for a workspace). A path dependency outside the project is
/// allowed only when it is a botlens SDK crate (`botlens-sdk`, `botlens-protocol`: the bundled
/// SDK, or a botlens checkout's `crates/sdk`); any other is refused, naming it, so a project
/// cannot make its build read another project's files.
pub fn readable_sources(root: &Path) -> Result<Vec<PathBuf>, String> {
    const SDK_CRATES: [&str; 2] = ["botlens-sdk", "botlens-protocol"];
    const MOST: usize = 64;
    let root = root.canonicalize().map_err(|e| format!("{}: {e}", root.display()))?;
    let mut found = vec![root.clone()];
    let mut next = vec![root.clone()];
    while let Some(dir) = next.pop() {
        let manifest = dir.join("Cargo.toml");
        let text = read_manifest(&manifest)?;
        let table: toml::Table =
            toml::from_str(&text).map_err(|e| format!("{}: {e}", manifest.display()))?;
        for (base, path) in path_dependencies(&dir, &table) {
            let joined = base.join(&path);
            let resolved = joined
                .canonicalize()
                .map_err(|e| format!("{}: path dependency `{path}`: {e}", manifest.display()))?;
            if found.contains(&resolved) {
                continue;
            }
            if !resolved.starts_with(&root) {
                let name = package_name(&resolved.join("Cargo.toml"));
                if !name.as_deref().is_some_and(|name| SDK_CRATES.contains(&name)) {
                    return Err(format!(
                        "{}: path dependency `{path}` is outside the project ({}); botlens builds a project from its own files and the botlens SDK only: move it inside the project",
                        manifest.display(),
                        resolved.display()
                    ));
                }
            }
            if found.len() == MOST {
                return Err(format!("{}: more than {MOST} path dependencies", root.display()));
            }
            found.push(resolved.clone());
            next.push(resolved);
        }
    }
    // cargo reads the manifests above a package to find its workspace (a checkout's SDK crate
    // inherits its edition from the workspace's root): those files alone.
    let manifests_above: Vec<PathBuf> = found
        .iter()
        .flat_map(|dir| dir.ancestors().skip(1))
        .map(|dir| dir.join("Cargo.toml"))
        .filter(|manifest| manifest.is_file())
        .collect();
    for manifest in manifests_above {
        if !found.contains(&manifest) {
            found.push(manifest);
        }
    }
    Ok(found)
}

/// The `path` of every dependency the manifest of the package in `dir` names, with the
/// directory it is relative to: in `[dependencies]`, `[dev-dependencies]`,
/// `[build-dependencies]`, their `[target.…]` forms, `[patch.…]` and
/// `[workspace.dependencies]`; a dependency inherited from the workspace (`workspace = true`)
/// by the path the workspace's root manifest gives it.
fn path_dependencies(dir: &Path, manifest: &toml::Table) -> Vec<(PathBuf, String)> {
    const KINDS: [&str; 3] = ["dependencies", "dev-dependencies", "build-dependencies"];
    let table = |value: &toml::Value| value.as_table().cloned();
    let get =
        |table: &toml::Table, key: &str| table.get(key).and_then(toml::Value::as_table).cloned();
    let mut tables: Vec<toml::Table> =
        KINDS.iter().filter_map(|kind| get(manifest, kind)).collect();
    if let Some(targets) = get(manifest, "target") {
        for target in targets.values().filter_map(table) {
            tables.extend(KINDS.iter().filter_map(|kind| get(&target, kind)));
        }
    }
    if let Some(patches) = get(manifest, "patch") {
        tables.extend(patches.values().filter_map(table));
    }
    if let Some(workspace) = get(manifest, "workspace") {
        tables.extend(get(&workspace, "dependencies"));
    }
    let inherited = || workspace_dependencies(dir).unwrap_or_default();
    let mut paths = Vec::new();
    for (name, dependency) in tables.iter().flat_map(|table| table.iter()) {
        if let Some(path) = dependency.get("path").and_then(toml::Value::as_str) {
            paths.push((dir.to_owned(), path.to_owned()));
        } else if dependency.get("workspace").and_then(toml::Value::as_bool) == Some(true) {
            let (root, dependencies) = inherited();
            if let Some(path) = dependencies.get(name).and_then(|d| d.get("path")?.as_str()) {
                paths.push((root, path.to_owned()));
            }
        }
    }
    paths
}

/// The `[workspace.dependencies]` of the workspace the package in `dir` belongs to (the
/// nearest manifest above it with a `[workspace]` table), with the workspace's directory.
fn workspace_dependencies(dir: &Path) -> Option<(PathBuf, toml::Table)> {
    dir.ancestors().skip(1).find_map(|above| {
        let text = read_manifest(&above.join("Cargo.toml")).ok()?;
        let manifest: toml::Table = toml::from_str(&text).ok()?;
        let workspace = manifest.get("workspace")?.as_table()?;
        let dependencies = workspace.get("dependencies").and_then(toml::Value::as_table);
        Some((above.to_owned(), dependencies.cloned().unwrap_or_default()))
    })
}

/// The manifest `file`: a regular file (not a FIFO, not a device), at most 1 MiB, as text.
fn read_manifest(file: &Path) -> Result<String, String> {
    use std::io::Read as _;
    use std::os::unix::fs::OpenOptionsExt as _;
    const MOST: u64 = 1 << 20;
    let fail = |e: &dyn std::fmt::Display| format!("{}: {e}", file.display());
    let opened = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(file)
        .map_err(|e| fail(&e))?;
    let meta = opened.metadata().map_err(|e| fail(&e))?;
    if !meta.is_file() || meta.len() > MOST {
        return Err(fail(&format!("not a regular file of at most {MOST} bytes")));
    }
    let mut text = String::new();
    opened.take(MOST).read_to_string(&mut text).map_err(|e| fail(&e))?;
    Ok(text)
}

/// The package name of the manifest `file`, if it can be read.
fn package_name(file: &Path) -> Option<String> {
    let text = read_manifest(file).ok()?;
    let table: toml::Table = toml::from_str(&text).ok()?;
    Some(table.get("package")?.get("name")?.as_str()?.to_owned())
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

    /// Cargo's message for a bot (in a new temporary directory) whose target lacks its standard
    /// library, as rustc words it for `target`.
    fn missing_std(target: &str) -> Vec<CompilerMessage> {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/lib.rs"), "").unwrap();
        let root = dir.path().display();
        let line = format!(
            r#"{{"reason":"compiler-message","package_id":"path+file://{root}#0.1.0","manifest_path":"{root}/Cargo.toml","target":{{"kind":["cdylib"],"crate_types":["cdylib"],"name":"bot","src_path":"{root}/src/lib.rs","edition":"2024","doc":true,"doctest":false,"test":true}},"message":{{"rendered":"error[E0463]: can't find crate for `std`\n  |\n  = note: the `{target}` target may not be installed\n  = help: consider downloading the target with `rustup target add {target}`\n\n","$message_type":"diagnostic","children":[],"level":"error","message":"can't find crate for `std`","spans":[{{"byte_end":0,"byte_start":0,"column_end":1,"column_start":1,"expansion":null,"file_name":"src/lib.rs","is_primary":true,"label":"can't find crate","line_end":1,"line_start":1,"suggested_replacement":null,"suggestion_applicability":null,"text":[]}}],"code":{{"code":"E0463","explanation":null}}}}}}"#
        );
        parse_cargo_messages(line.as_bytes()).messages
    }

    #[test]
    fn a_build_lacking_the_targets_standard_library_is_told_from_other_errors() {
        assert!(target_missing(&missing_std(WASM_TARGET)));
        assert!(!target_missing(&missing_std("wasm32v1-none")), "another target's");
        let mut other_crate = missing_std(WASM_TARGET);
        other_crate[0].rendered = "error[E0463]: can't find crate for `foo`\n".into();
        assert!(!target_missing(&other_crate), "a crate the bot names that is not there");
        assert!(!target_missing(&[]));
    }

    #[test]
    fn a_build_lacking_the_target_installs_it_and_builds_again_once() {
        fn missing<T>() -> Result<T, Stopped> {
            Err(Stopped::Failed(BuildError::Compile(missing_std(WASM_TARGET))))
        }
        let mut builds = 0;
        let mut installs = 0;
        let built = build_installing_target(
            || {
                builds += 1;
                if builds == 1 { missing() } else { Ok("module") }
            },
            || {
                installs += 1;
                Ok(())
            },
        );
        assert!(matches!(built, Ok("module")));
        assert_eq!((builds, installs), (2, 1));

        // Still missing after the install: that build's error, no third build.
        let mut builds = 0;
        let built: Result<(), _> = build_installing_target(
            || {
                builds += 1;
                missing()
            },
            || Ok(()),
        );
        assert!(matches!(built, Err(Stopped::Failed(BuildError::Compile(_)))));
        assert_eq!(builds, 2);

        // An install that fails is the build's error.
        let failed = || Err(BuildError::Tool("rustup: no network".into()));
        let built: Result<(), _> = build_installing_target(missing, failed);
        assert!(
            matches!(built, Err(Stopped::Failed(BuildError::Tool(m))) if m.contains("no network"))
        );

        // Any other failure, or success, installs nothing.
        for outcome in [Err(Stopped::Cancelled), Ok(())] {
            let mut outcome = Some(outcome);
            let built = build_installing_target(|| outcome.take().unwrap(), || panic!("installed"));
            assert!(built.is_ok() || matches!(built, Err(Stopped::Cancelled)));
        }
    }

    #[test]
    fn a_build_script_that_never_returns_is_stopped_at_the_timeout_with_everything_it_started() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(
            root.join("Cargo.toml"),
            "[package]\nname = \"hangs\"\nversion = \"0.1.0\"\nedition = \"2021\"\n[lib]\ncrate-type = [\"cdylib\"]\n[workspace]\n[package.metadata.botlens]\ngame = \"tictactoe\"\nbuild_timeout_secs = 8\n",
        )
        .unwrap();
        std::fs::create_dir(root.join("src")).unwrap();
        std::fs::write(root.join("src/lib.rs"), "").unwrap();
        // A build script may write only beneath the target directory: its own `OUT_DIR`.
        let script = "fn main() { let out = std::env::var(\"OUT_DIR\").unwrap(); std::fs::write(format!(\"{out}/build-script.pid\"), std::process::id().to_string()).unwrap(); loop { std::thread::sleep(std::time::Duration::from_secs(1)); } }";
        std::fs::write(root.join("build.rs"), script).unwrap();
        let project = BotProject::load(root).unwrap();
        let started = Instant::now();
        let stopped = build(&project, &CancelToken::new());
        assert!(matches!(stopped, Err(Stopped::Failed(BuildError::Timeout(8)))), "{stopped:?}");
        assert!(started.elapsed() < Duration::from_secs(30), "{:?}", started.elapsed());
        assert!(find(&root.join("target"), "build-script.pid").is_some(), "the script ran");
        // Nothing of the build is left running: no process names the project's directory (cargo
        // and rustc in their arguments, the script in its path). Zombies waiting for whoever
        // adopted them to reap them are not running.
        let marker = root.display().to_string();
        let running = || {
            std::fs::read_dir("/proc").unwrap().filter_map(Result::ok).any(|entry| {
                let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
                let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
                let zombie =
                    stat.rsplit(')').next().is_some_and(|r| r.trim_start().starts_with('Z'));
                !zombie && String::from_utf8_lossy(&cmdline).contains(&marker)
            })
        };
        let deadline = Instant::now() + Duration::from_secs(5);
        while running() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        assert!(!running(), "a process of the build outlived it");
    }

    /// The first file named `name` beneath `dir`.
    fn find(dir: &Path, name: &str) -> Option<PathBuf> {
        std::fs::read_dir(dir).ok()?.filter_map(Result::ok).find_map(|entry| {
            let path = entry.path();
            if path.is_dir() {
                find(&path, name)
            } else {
                (entry.file_name() == name).then_some(path)
            }
        })
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
