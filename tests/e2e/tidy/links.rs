//! No file of the repository names a Markdown document the repository does not hold.
//!
//! Every `.rs`, `.md` and `.toml` file is read (outside `target/`, `node_modules/` and `.git/`)
//! for names ending in `.md`: a run of letters, digits and `_ . / -` before `.md`, not followed
//! by more of a file name (so `README.md.in` is another file). A Markdown link (the name right
//! after a `](` or a `]: `) must resolve from the file's directory, as a reader's viewer resolves
//! it. Any other mention must either resolve from the file's directory or, its leading `./`,
//! `../` and `/` dropped, be the end of the path of a document in the repository: a bare name
//! such as `README.md` exists anywhere, `docs/abi.md` under some directory. Names inside a URL
//! (after a `:`, starting `//`) are not checked.

use std::collections::BTreeSet;

use super::source::{files_with, read, relative};
use crate::support::repo_root;

/// Whether `c` can be part of a path as this check reads one.
fn is_path_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '/' | '-')
}

/// `dir/name` with `.` and `..` resolved, or `None` if it climbs above the repository.
fn resolve(dir: &str, name: &str) -> Option<String> {
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for part in name.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            part => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

/// The mentions in `text` of documents not in `documents` (the repository's `.md` paths, `/`
/// between components), as messages naming `file` (its path in the repository) and the line.
fn missing_documents(file: &str, text: &str, documents: &BTreeSet<String>) -> Vec<String> {
    let dir = file.rsplit_once('/').map_or("", |(dir, _)| dir);
    let mut problems = Vec::new();
    for (line_index, line) in text.lines().enumerate() {
        for (at, _) in line.match_indices(".md") {
            let end = at + ".md".len();
            let mut rest = line[end..].chars();
            let continues = match rest.next() {
                Some('.') => rest.next().is_some_and(|c| c.is_ascii_alphanumeric()),
                Some(c) => c.is_ascii_alphanumeric() || c == '_',
                None => false,
            };
            let start = line[..at].rfind(|c: char| !is_path_char(c)).map_or(0, |k| k + 1);
            let name = &line[start..end];
            let before = &line[..start];
            let stem = name.trim_end_matches(".md").trim_end_matches('/');
            let in_url = before.ends_with(':') && name.starts_with("//");
            if continues || stem.is_empty() || stem.ends_with('.') || in_url {
                continue;
            }
            let from_dir = resolve(dir, name).is_some_and(|path| documents.contains(&path));
            let is_link = before.ends_with("](") || before.ends_with("]: ");
            let anywhere = || {
                let mut trimmed = name;
                while let Some(rest) =
                    ["./", "../", "/"].iter().find_map(|p| trimmed.strip_prefix(p))
                {
                    trimmed = rest;
                }
                documents.iter().any(|doc| doc == trimmed || doc.ends_with(&format!("/{trimmed}")))
            };
            if !(from_dir || (!is_link && anywhere())) {
                let what = if is_link { "links to" } else { "names" };
                problems.push(format!(
                    "{file}:{}: {what} `{name}`, not in the repository",
                    line_index + 1
                ));
            }
        }
    }
    problems
}

#[test]
fn no_file_names_a_document_the_repository_does_not_hold() {
    let root = repo_root();
    let files = files_with(&root, &["rs", "md", "toml"]);
    let documents: BTreeSet<String> =
        files.iter().map(|f| relative(&root, f)).filter(|f| f.ends_with(".md")).collect();
    assert!(documents.contains("ARCHITECTURE.md") && documents.len() > 10, "{documents:?}");
    let problems: Vec<String> = files
        .iter()
        .flat_map(|file| missing_documents(&relative(&root, file), &read(file), &documents))
        .collect();
    assert!(problems.is_empty(), "documents named but missing:\n{}", problems.join("\n"));
}

#[test]
fn planted_mentions_of_missing_documents_are_reported_and_the_rest_pass() {
    let documents: BTreeSet<String> =
        ["README.md", "docs/abi.md", "samples/README.md"].map(String::from).into();
    // Names built in pieces, so this file mentions no missing document itself.
    let missing = ["STYLE", ".md"].concat();
    let text = [
        "//! The ABI is `docs/abi.md`; see [the ABI](../../../docs/abi.md) and samples/README.md.",
        &format!("//! House rules: {missing}, item 14."),
        &["//! [broken](docs/abi", ".md) is resolved from this file's directory."].concat(),
        &format!("//! Generated files: README.md.in, `*.md`; https://example.invalid/{missing}"),
        &format!("let doc = include_str!(\"../../docs/{missing}\");"),
        &format!("[ref]: ./{missing}"),
    ]
    .join("\n");
    assert_eq!(
        missing_documents("crates/x/src/lib.rs", &text, &documents),
        [
            format!("crates/x/src/lib.rs:2: names `{missing}`, not in the repository"),
            "crates/x/src/lib.rs:3: links to `docs/abi.md`, not in the repository".to_owned(),
            format!("crates/x/src/lib.rs:5: names `../../docs/{missing}`, not in the repository"),
            format!("crates/x/src/lib.rs:6: links to `./{missing}`, not in the repository"),
        ]
    );
}
