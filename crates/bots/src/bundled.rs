//! The sources botlens carries in its binary, so an installed `botlens` needs no checkout: the
//! guest SDK with the protocol crate it depends on, the other languages' SDKs and the JavaScript
//! runner ([`folder`]), every language's starting bots ([`starter`]), and the sample bots
//! `botlens bench` measures. `build.rs` bundles them (manifests resolved to stand alone).
//!
//! The SDK is unpacked once into botlens's cache directory ([`cache_root`]), under a name made
//! of botlens's version and a hash of every bundled file: `sdk/0.1.0-1f2e…/{sdk,protocol}/`.
//! Bot projects depend on that directory by path. An upgraded botlens (or another build of the
//! same version) unpacks beside it and never rewrites a copy older projects use, so several
//! installed versions coexist; a copy is complete or absent (unpacked into a temporary
//! directory, then renamed into place).
//!
//! Not for: building or scaffolding (see [`crate::scaffold`] and [`crate::build`]).

use std::path::{Path, PathBuf};

include!(concat!(env!("OUT_DIR"), "/bundled.rs"));

/// Why a bundled tree could not be unpacked.
#[derive(Debug, thiserror::Error)]
pub enum BundleError {
    /// No cache directory is known (none of its variables is set).
    #[error(
        "botlens has no cache directory to unpack its SDK into: set BOTLENS_CACHE_DIR (or HOME), or pass --sdk with the crates/sdk directory of a botlens checkout"
    )]
    NoCacheDir,
    /// Writing the files failed.
    #[error("unpacking into {}: {source}", .path.display())]
    Io {
        /// What was being written.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}

/// botlens's cache directory: the one `BOTLENS_CACHE_DIR` names, else
/// `$XDG_CACHE_HOME/botlens`, else `~/.cache/botlens`; `None` when none of these is set.
pub fn cache_root() -> Option<PathBuf> {
    cache_root_from(&|name| std::env::var_os(name))
}

/// [`cache_root`] with the environment given.
pub(crate) fn cache_root_from(env: &dyn Fn(&str) -> Option<std::ffi::OsString>) -> Option<PathBuf> {
    let var = |name: &str| env(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    var("BOTLENS_CACHE_DIR")
        .or_else(|| var("XDG_CACHE_HOME").map(|dir| dir.join("botlens")))
        .or_else(|| var("HOME").map(|home| home.join(".cache").join("botlens")))
}

/// The bundled SDK's directory (a crate named `botlens-sdk`), unpacked into the cache first if
/// this build of botlens has not done so before.
pub fn sdk() -> Result<PathBuf, BundleError> {
    let root = cache_root().ok_or(BundleError::NoCacheDir)?;
    Ok(unpacked(&root.join("sdk"))?.join("sdk"))
}

/// The bundled folder `name` (`crates/<name>` in botlens's sources: a language's SDK, `sdk-c`,
/// or the JavaScript runner, `js-runner`, a cargo workspace of its own that is built there, so
/// its build is cached under the same hash), unpacked into the cache first if this build of
/// botlens has not done so before.
pub fn folder(name: &str) -> Result<PathBuf, BundleError> {
    let root = cache_root().ok_or(BundleError::NoCacheDir)?;
    Ok(unpacked(&root.join("sdk"))?.join(name))
}

/// The contents of the bundled file `path` (`js-runner/Cargo.toml`: a folder's name, then the
/// file's path in it), if there is one.
pub(crate) fn file(path: &str) -> Option<&'static str> {
    FILES.iter().find(|(file, _)| *file == path).map(|(_, contents)| *contents)
}

/// The starting bot for the game `game` in the bundled folder `name`, the SDK of its language
/// (`starters/<game>.<extension>`), if it has one.
pub fn starter(name: &str, game: &str, extension: &str) -> Option<&'static str> {
    file(&format!("{name}/starters/{game}.{extension}"))
}

/// The bundled copy of the sample bot `name` (`battleships-hunter`, …), written into `dir` with
/// its SDK dependency pointing at `sdk`. Only files that differ are written, so an earlier build
/// there is reused.
pub fn sample(name: &str, dir: &Path, sdk: &Path) -> Result<(), BundleError> {
    let prefix = format!("samples/{name}/");
    for (path, contents) in FILES.iter().filter(|(path, _)| path.starts_with(&prefix)) {
        let file = dir.join(&path[prefix.len()..]);
        let contents = if path.ends_with("/Cargo.toml") {
            manifest_with_sdk(contents, sdk)
        } else {
            (*contents).to_owned()
        };
        write_if_changed(&file, &contents)?;
    }
    Ok(())
}

/// The folders of the bundled SDK a Rust bot builds with: the SDK crate and the protocol crate
/// it depends on (`../protocol`).
const SDK_CRATES: [&str; 2] = ["sdk", "protocol"];

/// Writes a copy of the bundled SDK into `dir` for a bot project to keep as its own
/// (`dir/sdk`, the `botlens-sdk` crate, and `dir/protocol` beside it), leaving out the starting
/// bots; the files written, relative to `dir`, in order. A project with its SDK inside builds
/// on any machine with Rust, such as a CI runner, whatever botlens is installed there.
pub fn copy_sdk(dir: &Path) -> Result<Vec<PathBuf>, BundleError> {
    let mut written = Vec::new();
    for (path, contents) in FILES.iter().filter(|(path, _)| is_sdk_file(path)) {
        let contents = match path.strip_suffix("/Cargo.toml") {
            Some(_) => in_workspace(contents),
            None => (*contents).to_owned(),
        };
        write_if_changed(&dir.join(path), &contents)?;
        written.push(PathBuf::from(path));
    }
    Ok(written)
}

/// A bundled crate's manifest made a member of the bot's workspace: without its own empty
/// `[workspace]` table (Cargo refuses two roots in one workspace), and saying where it came from.
fn in_workspace(manifest: &str) -> String {
    let mut table: toml::Table = manifest.parse().expect("the bundled manifests are valid TOML");
    table.remove("workspace");
    let version = env!("CARGO_PKG_VERSION");
    let body = toml::to_string(&table).expect("a table serializes");
    format!(
        "# Copied from botlens {version} by `botlens new`: the SDK this bot builds with.\n{body}"
    )
}

/// Whether the bundled file `path` belongs to the Rust SDK's crates, starting bots aside.
fn is_sdk_file(path: &str) -> bool {
    let folder = path.split('/').next().unwrap_or_default();
    SDK_CRATES.contains(&folder) && !path.starts_with("sdk/starters/")
}

/// The names of the bundled samples.
pub fn samples() -> Vec<&'static str> {
    let mut names: Vec<&str> = FILES
        .iter()
        .filter_map(|(path, _)| path.strip_prefix("samples/")?.split('/').next())
        .collect();
    names.dedup();
    names
}

/// A bot project's manifest with its `botlens-sdk` dependency (a `botlens-sdk = …` line) at
/// `sdk`.
pub fn manifest_with_sdk(manifest: &str, sdk: &Path) -> String {
    let path = toml::Value::String(sdk.display().to_string());
    manifest
        .lines()
        .map(|line| {
            if line.trim_start().starts_with("botlens-sdk") {
                format!("botlens-sdk = {{ path = {path} }}")
            } else {
                line.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> BundleError + '_ {
    move |source| BundleError::Io { path: path.to_owned(), source }
}

fn write_if_changed(file: &Path, contents: &str) -> Result<(), BundleError> {
    if std::fs::read(file).ok().as_deref() == Some(contents.as_bytes()) {
        return Ok(());
    }
    let parent = file.parent().expect("a file in a directory");
    std::fs::create_dir_all(parent).map_err(io(parent))?;
    std::fs::write(file, contents).map_err(io(file))
}

/// The directory holding this build's SDK and protocol crates under `dir`, unpacked if absent.
fn unpacked(dir: &Path) -> Result<PathBuf, BundleError> {
    let name = format!("{}-{HASH}", env!("CARGO_PKG_VERSION"));
    let target = dir.join(&name);
    if target.join("sdk").join("Cargo.toml").is_file() {
        return Ok(target);
    }
    let temp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let _ = std::fs::remove_dir_all(&temp);
    for (path, contents) in FILES.iter().filter(|(path, _)| !path.starts_with("samples/")) {
        write_if_changed(&temp.join(path), contents)?;
    }
    match std::fs::rename(&temp, &target) {
        Ok(()) => Ok(target),
        // Another botlens unpacked the same files first: theirs is as good.
        Err(_) if target.join("sdk").join("Cargo.toml").is_file() => {
            let _ = std::fs::remove_dir_all(&temp);
            Ok(target)
        }
        Err(source) => {
            let _ = std::fs::remove_dir_all(&temp);
            Err(BundleError::Io { path: target, source })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundle_holds_the_sdk_the_protocol_and_the_bench_samples_standing_alone() {
        let paths: Vec<&str> = FILES.iter().map(|(path, _)| *path).collect();
        for needed in [
            "sdk/Cargo.toml",
            "sdk/src/lib.rs",
            "protocol/Cargo.toml",
            "protocol/src/lib.rs",
            "js-runner/Cargo.lock",
            "js-runner/src/prelude.js",
            "sdk-c/botlens.h",
            "sdk-zig/botlens.zig",
            "sdk-zig/root.zig",
            "sdk-as/botlens/index.ts",
            "sdk/starters/tictactoe.rs",
            "sdk-c/starters/klotski.c",
            "js-runner/starters/battleships.js",
        ] {
            assert!(paths.contains(&needed), "{needed} in {paths:?}");
        }
        assert_eq!(
            samples(),
            ["battleships-hunter", "klotski-solver", "tictactoe-forkblind", "tictactoe-minimax"]
        );
        let manifest = |path: &str| FILES.iter().find(|(p, _)| *p == path).unwrap().1;
        let sdk: toml::Table = manifest("sdk/Cargo.toml").parse().unwrap();
        assert_eq!(sdk["package"]["name"].as_str(), Some("botlens-sdk"));
        assert_eq!(sdk["package"]["version"].as_str(), Some(env!("CARGO_PKG_VERSION")));
        assert_eq!(sdk["dependencies"]["botlens-protocol"]["path"].as_str(), Some("../protocol"));
        let protocol: toml::Table = manifest("protocol/Cargo.toml").parse().unwrap();
        // serde only behind the feature the host turns on: a bot builds without it.
        let serde = &protocol["dependencies"]["serde"];
        assert!(
            serde["version"].is_str() && serde["optional"].as_bool() == Some(true),
            "{protocol}"
        );
        assert_eq!(
            protocol["features"]["serde"].as_array().unwrap()[0].as_str(),
            Some("dep:serde")
        );
        assert!(sdk["dependencies"]["botlens-protocol"].get("features").is_none(), "{sdk}");
        assert!(!manifest("protocol/Cargo.toml").contains("workspace = true"));
        assert!(protocol.get("dev-dependencies").is_none() && protocol.get("lints").is_none());
    }

    #[test]
    fn a_copy_of_the_sdk_holds_both_crates_and_no_starters() {
        let dir = tempfile::tempdir().unwrap();
        let written = copy_sdk(dir.path()).unwrap();
        assert!(written.contains(&PathBuf::from("sdk/Cargo.toml")), "{written:?}");
        assert!(written.contains(&PathBuf::from("protocol/src/lib.rs")), "{written:?}");
        assert!(written.iter().all(|file| {
            let file = file.to_string_lossy();
            (file.starts_with("sdk/") || file.starts_with("protocol/"))
                && !file.starts_with("sdk/starters/")
        }));
        for file in &written {
            assert!(dir.path().join(file).is_file(), "{}", file.display());
        }
        let manifest = std::fs::read_to_string(dir.path().join("sdk/Cargo.toml")).unwrap();
        let manifest: toml::Table = manifest.parse().unwrap();
        assert!(manifest.get("workspace").is_none(), "{manifest}");
        assert_eq!(manifest["package"]["name"].as_str(), Some("botlens-sdk"));
    }

    #[test]
    fn the_sdk_unpacks_once_per_build_beside_other_builds() {
        let cache = tempfile::tempdir().unwrap();
        let first = unpacked(cache.path()).unwrap();
        assert_eq!(
            first.file_name().unwrap().to_string_lossy(),
            format!("{}-{HASH}", env!("CARGO_PKG_VERSION"))
        );
        let lib = first.join("sdk/src/lib.rs");
        let original = std::fs::read_to_string(&lib).unwrap();
        // An existing copy is used as it is (a project built against it stays as it was).
        std::fs::write(first.join("marker"), "kept").unwrap();
        assert_eq!(unpacked(cache.path()).unwrap(), first);
        assert!(first.join("marker").exists());
        assert_eq!(std::fs::read_to_string(lib).unwrap(), original);
        // Another version's copy beside it is left alone.
        std::fs::create_dir_all(cache.path().join("0.0.9-0000/sdk")).unwrap();
        unpacked(cache.path()).unwrap();
        assert!(cache.path().join("0.0.9-0000/sdk").is_dir());
        let leftovers: Vec<_> = std::fs::read_dir(cache.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }

    #[test]
    fn a_sample_is_written_with_its_sdk_path_and_its_lock_file() {
        let dir = tempfile::tempdir().unwrap();
        sample("tictactoe-minimax", dir.path(), Path::new("/opt/botlens sdk")).unwrap();
        let manifest = std::fs::read_to_string(dir.path().join("Cargo.toml")).unwrap();
        let parsed: toml::Table = manifest.parse().unwrap();
        assert_eq!(
            parsed["dependencies"]["botlens-sdk"]["path"].as_str(),
            Some("/opt/botlens sdk")
        );
        assert!(dir.path().join("Cargo.lock").is_file() && dir.path().join("src/lib.rs").is_file());
    }

    #[test]
    fn the_cache_root_follows_the_environment() {
        let root = |vars: &[(&str, &str)]| {
            let vars: Vec<(String, String)> =
                vars.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
            cache_root_from(&|name| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.into()))
        };
        let all = [("BOTLENS_CACHE_DIR", "/b"), ("XDG_CACHE_HOME", "/x"), ("HOME", "/h")];
        assert_eq!(root(&all), Some("/b".into()));
        assert_eq!(root(&all[1..]), Some("/x/botlens".into()));
        assert_eq!(root(&all[2..]), Some("/h/.cache/botlens".into()));
        assert_eq!(
            root(&[("BOTLENS_CACHE_DIR", ""), ("HOME", "/h")]),
            Some("/h/.cache/botlens".into())
        );
        assert_eq!(root(&[]), None);
    }
}
