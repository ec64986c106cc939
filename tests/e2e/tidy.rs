//! Tidy: cheap checks that keep the codebase's habits (STYLE.md item 14).
//!
//! Every Rust file opens with a `//!` comment; no `dbg!`, `todo!`, `unimplemented!` or
//! ignore attributes anywhere.

use std::path::{Path, PathBuf};

use crate::support::repo_root;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if path.is_dir() {
            if !["target", "node_modules", ".git"].contains(&name.as_ref()) {
                rust_files(&path, out);
            }
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_rust_file_opens_with_a_module_comment_and_has_no_leftovers() {
    let root = repo_root();
    let mut files = Vec::new();
    for dir in ["crates", "tests", "samples"] {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 10, "found only {} files", files.len());
    // Spelled in pieces so this file does not flag itself.
    let banned = [
        ["dbg", "!("].concat(),
        ["todo", "!("].concat(),
        ["unimplemented", "!("].concat(),
        ["#[", "ignore"].concat(),
    ];
    let mut problems = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable");
        let relative = file.strip_prefix(&root).unwrap_or(file).display().to_string();
        if !text.trim_start().starts_with("//!") {
            problems.push(format!("{relative}: does not open with a `//!` module comment"));
        }
        for word in &banned {
            if text.contains(word.as_str()) {
                problems.push(format!("{relative}: contains `{word}`"));
            }
        }
    }
    assert!(problems.is_empty(), "tidy problems:\n{}", problems.join("\n"));
}
