//! The dependency invariants of ARCHITECTURE.md, checked against every crate's `Cargo.toml`.
//!
//! A crate's dependencies are the packages it builds with: those of `[dependencies]`,
//! `[build-dependencies]` and their target-specific tables (`[target.'cfg(…)'.dependencies]`);
//! dev-dependencies are free. A dependency counts by its package name, however it is written:
//! `foo = "1"`, `foo.workspace = true`, `foo = { workspace = true }`, or renamed with
//! `package = "foo"` in the crate's manifest or in the workspace's `[workspace.dependencies]`.
//! Each rule quotes the words of ARCHITECTURE.md it enforces, and the test checks that the
//! document still says them.

use std::collections::BTreeSet;

use toml::{Table, Value};

use super::source::read;
use crate::support::repo_root;

/// The crates a rule constrains, by their directory under `crates/`.
enum Crates {
    /// These crates.
    Only(&'static [&'static str]),
    /// Every crate but these.
    AllBut(&'static [&'static str]),
}

/// The dependencies a rule forbids, by package name; a name ending in `*` stands for every
/// name with that prefix.
enum Deps {
    /// Any of these.
    Any(&'static [&'static str]),
    /// Anything but these.
    AnyBut(&'static [&'static str]),
}

use Crates::{AllBut, Only};
use Deps::{Any, AnyBut};

/// One invariant: the `crates` may not depend on what `forbidden` names.
struct Rule {
    crates: Crates,
    forbidden: Deps,
    /// Whose invariant it is (a section of ARCHITECTURE.md).
    of: &'static str,
    /// The words of ARCHITECTURE.md that state it, verbatim.
    says: &'static str,
}

/// The game crates, by directory.
const GAME_CRATES: &[&str] = &["battleships", "tictactoe", "klotski"];

/// The packages that know a game: the game crates and the registry.
const GAMES: &[&str] =
    &["botlens-battleships", "botlens-tictactoe", "botlens-klotski", "botlens-games"];

/// The invariants, one rule each.
const RULES: &[Rule] = &[
    Rule {
        crates: AllBut(&["sandbox"]),
        forbidden: Any(&["wasmtime*", "cranelift*"]),
        of: "crates/sandbox",
        says: "the only crate that links wasmtime (or any `wasmtime*` or `cranelift*` crate)",
    },
    Rule {
        crates: AllBut(&["lsp"]),
        forbidden: Any(&["tower-lsp-server", "tokio"]),
        of: "crates/lsp",
        says: "the only one on `tower-lsp-server` and `tokio`",
    },
    Rule {
        crates: Only(&["confine"]),
        forbidden: AnyBut(&["libc", "landlock", "tempfile", "thiserror"]),
        of: "crates/confine",
        says: "it depends on libc, the `landlock` crate, `tempfile` and `thiserror` alone",
    },
    Rule {
        crates: Only(&["protocol"]),
        forbidden: AnyBut(&["serde"]),
        of: "crates/protocol",
        says: "depends on serde alone",
    },
    Rule {
        crates: Only(&["engine"]),
        forbidden: Any(GAMES),
        of: "crates/engine",
        says: "it depends on no game crate and not on the registry",
    },
    Rule {
        crates: Only(&["engine"]),
        forbidden: Any(&["botlens-sandbox", "botlens-harness", "botlens-lsp"]),
        of: "crates/engine",
        says: "nor on the sandbox, the harness or the language server",
    },
    Rule {
        crates: Only(GAME_CRATES),
        forbidden: Any(GAMES),
        of: "the game crates",
        says: "a game crate depends on no other game crate and not on the registry",
    },
    Rule {
        crates: Only(GAME_CRATES),
        forbidden: Any(&["botlens-sandbox", "botlens-harness"]),
        of: "the game crates",
        says: "nor on the sandbox or the harness",
    },
    Rule {
        crates: Only(&["sdk"]),
        forbidden: AnyBut(&["botlens-protocol"]),
        of: "crates/sdk",
        says: "depends on the protocol crate alone",
    },
    Rule {
        crates: Only(&["files"]),
        forbidden: Any(&["botlens-*"]),
        of: "crates/files",
        says: "no other botlens crate",
    },
    Rule {
        crates: Only(&["ci"]),
        forbidden: AnyBut(&[
            "botlens-harness",
            "botlens-engine",
            "botlens-files",
            "serde",
            "serde_json",
            "quick-xml",
        ]),
        of: "crates/ci",
        says: "it depends on the harness (for the report's types), the engine, `botlens-files` (for its lexical paths), serde, serde_json and `quick-xml` alone",
    },
    Rule {
        crates: Only(&["harness", "lsp", "watch"]),
        forbidden: Any(&["botlens-experiments"]),
        of: "crates/experiments",
        says: "nothing in the harness, the language server or watch depends on it",
    },
    Rule {
        crates: Only(&["bots"]),
        forbidden: Any(&[
            "botlens-harness",
            "botlens-experiments",
            "botlens-stats",
            "botlens-replay",
            "botlens-ci",
            "botlens-watch",
            "botlens-lsp",
            "botlens-bench",
            "botlens-debugger",
            "clap",
            "indicatif",
            "crossterm",
            "ratatui",
        ]),
        of: "crates/bots",
        says: "It does not depend on the harness or anything above it",
    },
    Rule {
        crates: Only(&["harness"]),
        forbidden: Any(&["botlens-confine", "libc", "toml"]),
        of: "crates/harness",
        says: "It builds nothing itself and starts no process",
    },
    Rule {
        crates: Only(&["debugger"]),
        forbidden: Any(&["clap", "indicatif", "crossterm", "ratatui", "libc", "botlens-confine"]),
        of: "crates/debugger",
        says: "no terminal and no process of its own",
    },
    Rule {
        crates: Only(&["stats"]),
        forbidden: AnyBut(&["serde"]),
        of: "crates/stats",
        says: "depends on nothing but serde",
    },
];

impl Crates {
    fn names(&self) -> &'static [&'static str] {
        match self {
            Only(names) | AllBut(names) => names,
        }
    }

    fn include(&self, dir: &str) -> bool {
        match self {
            Only(names) => names.contains(&dir),
            AllBut(names) => !names.contains(&dir),
        }
    }
}

/// Whether `name` is `pattern`, or starts with it when it ends in `*`.
fn matches(pattern: &str, name: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => name.starts_with(prefix),
        None => name == pattern,
    }
}

impl Deps {
    fn forbid(&self, package: &str) -> bool {
        match self {
            Any(patterns) => patterns.iter().any(|p| matches(p, package)),
            AnyBut(patterns) => !patterns.iter().any(|p| matches(p, package)),
        }
    }
}

/// A dependency a crate builds with: its package name and the table that names it.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Dependency {
    package: String,
    table: String,
}

/// The dependencies `manifest` builds with; `workspace` is the workspace's
/// `[workspace.dependencies]`, for the package names of `workspace = true` entries.
fn dependencies(manifest: &str, workspace: &Table) -> Result<BTreeSet<Dependency>, String> {
    let manifest: Table = manifest.parse().map_err(|e| format!("not TOML: {e}"))?;
    let mut tables: Vec<(String, &Value)> = Vec::new();
    for kind in ["dependencies", "build-dependencies"] {
        tables.extend(manifest.get(kind).map(|t| (format!("[{kind}]"), t)));
        let targets = manifest.get("target").and_then(Value::as_table).into_iter().flatten();
        for (target, table) in targets {
            tables.extend(table.get(kind).map(|t| (format!("[target.{target:?}.{kind}]"), t)));
        }
    }
    let mut found = BTreeSet::new();
    for (table, entries) in tables {
        let entries = entries.as_table().ok_or_else(|| format!("{table} is not a table"))?;
        for (key, entry) in entries {
            let renamed = |t: &Table| t.get("package").and_then(Value::as_str).map(str::to_owned);
            let mut package = entry.as_table().and_then(renamed);
            let inherited = entry.get("workspace").and_then(Value::as_bool) == Some(true);
            if package.is_none() && inherited {
                let shared = workspace
                    .get(key)
                    .ok_or_else(|| format!("{table}: `{key}` is not a workspace dependency"))?;
                package = shared.as_table().and_then(renamed);
            }
            found.insert(Dependency {
                package: package.unwrap_or_else(|| key.clone()),
                table: table.clone(),
            });
        }
    }
    Ok(found)
}

/// Every break of `rules` by `manifests` (each a crate's directory under `crates/` and its
/// `Cargo.toml`), one message each, naming the crate, the dependency and the invariant.
fn violations(
    rules: &[Rule],
    manifests: &[(String, String)],
    workspace: &Table,
) -> Result<Vec<String>, String> {
    let mut problems = Vec::new();
    for (dir, manifest) in manifests {
        let deps = dependencies(manifest, workspace).map_err(|e| format!("crates/{dir}: {e}"))?;
        for rule in rules.iter().filter(|rule| rule.crates.include(dir)) {
            for dep in deps.iter().filter(|dep| rule.forbidden.forbid(&dep.package)) {
                problems.push(format!(
                    "crates/{dir} depends on `{}` (in {}), against the invariant of {} in \
                     ARCHITECTURE.md: \"{}\"",
                    dep.package, dep.table, rule.of, rule.says
                ));
            }
        }
    }
    Ok(problems)
}

/// The workspace's `[workspace.dependencies]` table, from the root `Cargo.toml` text.
fn workspace_dependencies(root_manifest: &str) -> Table {
    let root: Table = root_manifest.parse().expect("the root Cargo.toml is TOML");
    let shared = root.get("workspace").and_then(|w| w.get("dependencies"));
    shared.and_then(Value::as_table).cloned().unwrap_or_default()
}

#[test]
fn every_crate_keeps_the_dependency_invariants_of_architecture_md() {
    let root = repo_root();
    let crates = std::fs::read_dir(root.join("crates")).expect("crates/");
    let mut manifests: Vec<(String, String)> = crates
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|dir| dir.join("Cargo.toml").is_file())
        .map(|dir| {
            (dir.file_name().unwrap().to_string_lossy().into_owned(), read(&dir.join("Cargo.toml")))
        })
        .collect();
    manifests.sort();
    assert!(manifests.len() > 10, "found only {} crates", manifests.len());
    // Compared with every run of whitespace as one space: the document wraps its lines.
    let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let architecture = words(&read(&root.join("ARCHITECTURE.md")));
    for rule in RULES {
        let says = words(rule.says);
        assert!(architecture.contains(&says), "ARCHITECTURE.md no longer says \"{says}\"");
        for name in rule.crates.names() {
            assert!(
                manifests.iter().any(|(dir, _)| dir == name),
                "a rule names crates/{name}, which is gone"
            );
        }
    }
    let workspace = workspace_dependencies(&read(&root.join("Cargo.toml")));
    let problems = violations(RULES, &manifests, &workspace).unwrap_or_else(|e| panic!("{e}"));
    assert!(problems.is_empty(), "dependency invariants broken:\n{}", problems.join("\n"));
}

#[test]
fn planted_dependencies_break_their_invariants_however_they_are_written() {
    let workspace = workspace_dependencies(
        r#"
        [workspace.dependencies]
        serde = "1"
        tokio = "1"
        sol = { package = "botlens-tictactoe", path = "t" }
        "#,
    );
    let manifest = |dir: &str, text: &str| (dir.to_owned(), text.to_owned());
    let manifests = [
        manifest(
            "engine",
            r#"
            [package]
            name = "botlens-engine"
            [dependencies]
            wasmtime = "48"
            "#,
        ),
        // Dev-dependencies are free; a target-specific table and a renamed package count.
        manifest(
            "protocol",
            r#"
            [dependencies]
            serde.workspace = true
            [dev-dependencies]
            proptest = "1"
            [target.'cfg(unix)'.dependencies]
            glue = { package = "botlens-games", path = "g" }
            "#,
        ),
        // A workspace dependency counts by the package the workspace's table names.
        manifest("klotski", "[build-dependencies]\nsol = { workspace = true }\n"),
        manifest("watch", "[dependencies]\ntokio.workspace = true\n"),
        // serde is the one dependency the statistics may have.
        manifest(
            "stats",
            "[dependencies]\nserde.workspace = true\nbotlens-engine = { path = \"e\" }\n",
        ),
    ];
    let problems = violations(RULES, &manifests, &workspace).expect("manifests that parse");
    // Each: the crate, the dependency and its table, and the crate whose invariant it breaks.
    let expected = [
        ("engine", "`wasmtime` (in [dependencies])", "crates/sandbox"),
        ("protocol", "`botlens-games` (in [target.\"cfg(unix)\".dependencies])", "crates/protocol"),
        ("klotski", "`botlens-tictactoe` (in [build-dependencies])", "the game crates"),
        ("watch", "`tokio` (in [dependencies])", "crates/lsp"),
        ("stats", "`botlens-engine` (in [dependencies])", "crates/stats"),
    ];
    assert_eq!(problems.len(), expected.len(), "{problems:#?}");
    for (problem, (dir, dependency, of)) in problems.iter().zip(expected) {
        let rule = RULES.iter().find(|rule| rule.of == of && rule.crates.include(dir)).unwrap();
        let start = format!("crates/{dir} depends on {dependency}");
        let end = format!("the invariant of {of} in ARCHITECTURE.md: \"{}\"", rule.says);
        assert!(problem.starts_with(&start) && problem.ends_with(&end), "{problem}");
    }
    let unknown = [manifest("watch", "[dependencies]\nnotify.workspace = true\n")];
    let error = violations(RULES, &unknown, &workspace).unwrap_err();
    assert_eq!(error, "crates/watch: [dependencies]: `notify` is not a workspace dependency");
}
