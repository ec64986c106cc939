//! Bundles the sources botlens carries in its binary, so it works with no checkout beside it:
//! the guest SDK and the protocol crate it depends on (for `botlens new`), every folder the
//! workspace excludes (the other languages' SDKs, `crates/sdk-*`, and the JavaScript runner,
//! each whole), every language's starting bots (`starters/<game>.<extension>` in its SDK's
//! folder), and the sample bots `botlens bench` measures. Writes `$OUT_DIR/bundled.rs`: every
//! file as `(path, contents)`, and a hash of them all that names the unpacked copy (see
//! `src/bundled.rs`).
//!
//! The crates' manifests inherit from the workspace (`version.workspace = true`, …), which
//! means nothing outside it, so they are bundled resolved: every inherited field and dependency
//! written out from the root manifest, dev-dependencies and lints left out.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The crates bundled for bots, as (directory under `crates/`, name in the bundle).
const CRATES: [&str; 2] = ["sdk", "protocol"];

/// The samples `botlens bench` measures.
const SAMPLES: [&str; 4] =
    ["battleships-hunter", "tictactoe-minimax", "tictactoe-forkblind", "klotski-solver"];

fn main() {
    // The platform botlens runs on: a build's build scripts and proc macros run there.
    let target = std::env::var("TARGET").expect("cargo sets it");
    println!("cargo:rustc-env=BOTLENS_HOST_TARGET={target}");
    let here = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let repo = here.join("../..").canonicalize().expect("the checkout");
    let root: toml::Table = read(&repo.join("Cargo.toml")).parse().expect("the root manifest");
    let mut files: Vec<(String, Source)> = Vec::new();
    for name in CRATES {
        let dir = repo.join("crates").join(name);
        files.push((format!("{name}/Cargo.toml"), Source::Text(resolved(&dir, &root))));
        sources(&dir, &dir.join("src"), name, &mut files);
        let starters = dir.join("starters");
        if starters.is_dir() {
            every_file(&dir, &starters, name, &mut files);
        }
    }
    // The folders outside the workspace: a language's SDK or runner that is no member crate.
    let excluded = root["workspace"].get("exclude").and_then(toml::Value::as_array);
    let excluded: Vec<PathBuf> = excluded
        .into_iter()
        .flatten()
        .filter_map(toml::Value::as_str)
        .map(|d| repo.join(d))
        .collect();
    for dir in &excluded {
        let name = dir.file_name().expect("a folder name").to_string_lossy().into_owned();
        every_file(dir, dir, &name, &mut files);
        println!("cargo:rerun-if-changed={}", dir.display());
    }
    for name in SAMPLES {
        let dir = repo.join("samples").join(name);
        for file in ["Cargo.toml", "Cargo.lock"] {
            files.push((format!("samples/{name}/{file}"), Source::File(dir.join(file))));
        }
        sources(&dir, &dir.join("src"), &format!("samples/{name}"), &mut files);
    }
    files.sort_by(|a, b| a.0.cmp(&b.0));

    // FNV-1a over every path and content: a new SDK, even of the same version, unpacks anew.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut out =
        String::from("/// Every bundled file: its path in the bundle and its contents.\n");
    out.push_str("pub(crate) const FILES: &[(&str, &str)] = &[\n");
    for (path, source) in &files {
        let contents = match source {
            Source::Text(text) => text.clone(),
            Source::File(file) => read(file),
        };
        for byte in path.bytes().chain([0]).chain(contents.bytes()).chain([0]) {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        match source {
            Source::Text(text) => writeln!(out, "    ({path:?}, {text:?}),"),
            Source::File(file) => {
                println!("cargo:rerun-if-changed={}", file.display());
                writeln!(out, "    ({path:?}, include_str!({:?})),", file.display().to_string())
            }
        }
        .expect("writing to a string");
    }
    out.push_str("];\n\n/// A hash of every path and content in [`FILES`].\n");
    writeln!(out, "pub(crate) const HASH: &str = \"{hash:016x}\";").expect("writing to a string");
    for name in CRATES {
        println!("cargo:rerun-if-changed={}", repo.join("crates").join(name).join("src").display());
        println!(
            "cargo:rerun-if-changed={}",
            repo.join("crates").join(name).join("starters").display()
        );
        println!(
            "cargo:rerun-if-changed={}",
            repo.join("crates").join(name).join("Cargo.toml").display()
        );
    }
    for name in SAMPLES {
        println!(
            "cargo:rerun-if-changed={}",
            repo.join("samples").join(name).join("src").display()
        );
    }
    println!("cargo:rerun-if-changed={}", repo.join("Cargo.toml").display());
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it"));
    std::fs::write(out_dir.join("bundled.rs"), out).expect("OUT_DIR is writable");
}

/// A bundled file: text made here, or a file included as it is.
enum Source {
    Text(String),
    File(PathBuf),
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every file under `dir` (but build output, `target/`, and hidden files), as
/// `prefix/<path relative to folder>`.
fn every_file(folder: &Path, dir: &Path, prefix: &str, files: &mut Vec<(String, Source)>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            name.is_some_and(|name| !name.starts_with('.') && name != "target")
        })
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            every_file(folder, &path, prefix, files);
        } else {
            let relative = path.strip_prefix(folder).expect("under the folder");
            files.push((format!("{prefix}/{}", relative.display()), Source::File(path)));
        }
    }
}

/// Every `.rs` file under `dir`, as `prefix/<path relative to crate>`.
fn sources(krate: &Path, dir: &Path, prefix: &str, files: &mut Vec<(String, Source)>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            sources(krate, &path, prefix, files);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            let relative = path.strip_prefix(krate).expect("under the crate");
            files.push((format!("{prefix}/{}", relative.display()), Source::File(path)));
        }
    }
}

/// The crate's manifest with the workspace's inherited fields and dependencies written out.
fn resolved(dir: &Path, root: &toml::Table) -> String {
    let manifest: toml::Table = read(&dir.join("Cargo.toml")).parse().expect("a crate manifest");
    let workspace = root["workspace"].as_table().expect("[workspace]");
    let package_defaults = workspace["package"].as_table().expect("[workspace.package]");
    let dependency_defaults =
        workspace["dependencies"].as_table().expect("[workspace.dependencies]");
    // An inherited field (`version.workspace = true`) takes the workspace's value of its key.
    let package: toml::Table = manifest["package"]
        .as_table()
        .expect("[package]")
        .clone()
        .into_iter()
        .map(|(key, value)| {
            let value = if is_workspace(&value) { package_defaults[&key].clone() } else { value };
            (key, value)
        })
        .collect();
    let mut dependencies = toml::Table::new();
    if let Some(table) = manifest.get("dependencies").and_then(toml::Value::as_table) {
        for (name, value) in table {
            let value = if is_workspace(value) {
                let mut base = dependency_defaults[name].clone();
                // Our own crates are found beside this one in the bundle.
                if let Some(path) = base.get("path").and_then(toml::Value::as_str) {
                    let sibling = Path::new(path).file_name().expect("a crate directory");
                    base = toml::Value::Table(toml::Table::from_iter([(
                        "path".to_owned(),
                        toml::Value::String(format!("../{}", sibling.to_string_lossy())),
                    )]));
                }
                with_own_keys(base, value)
            } else {
                value.clone()
            };
            dependencies.insert(name.clone(), value);
        }
    }
    let mut out = toml::Table::new();
    out.insert("package".into(), toml::Value::Table(package));
    if let Some(features) = manifest.get("features") {
        out.insert("features".into(), features.clone());
    }
    out.insert("dependencies".into(), toml::Value::Table(dependencies));
    // Outside any workspace: an empty one, so cargo never looks further up.
    out.insert("workspace".into(), toml::Value::Table(toml::Table::new()));
    format!(
        "# Bundled with botlens {}: do not edit.\n{out}",
        std::env::var("CARGO_PKG_VERSION").expect("cargo sets it")
    )
}

/// An inherited dependency (`workspace`'s entry, `base`) with the crate's own keys beside
/// `workspace = true` in `own` (`optional`, more `features`) added, as cargo reads them.
fn with_own_keys(base: toml::Value, own: &toml::Value) -> toml::Value {
    let own = own.as_table().into_iter().flatten().filter(|(key, _)| *key != "workspace");
    let mut base = match base {
        toml::Value::String(version) => {
            toml::Table::from_iter([("version".to_owned(), version.into())])
        }
        toml::Value::Table(table) => table,
        other => panic!("a dependency is a version or a table, not {other}"),
    };
    for (key, value) in own {
        match (base.get_mut(key), value) {
            (Some(toml::Value::Array(features)), toml::Value::Array(more)) if key == "features" => {
                features.extend(more.iter().cloned());
            }
            _ => {
                base.insert(key.clone(), value.clone());
            }
        }
    }
    toml::Value::Table(base)
}

fn is_workspace(value: &toml::Value) -> bool {
    value.get("workspace").and_then(toml::Value::as_bool) == Some(true)
}
