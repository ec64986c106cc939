//! Tidy: cheap checks that keep the codebase's habits and the promises of its documents.
//!
//! Here: every Rust file opens with a `//!` comment; no `dbg!`, `todo!`, `unimplemented!` or
//! ignore attributes anywhere. In the submodules: the dependency invariants of ARCHITECTURE.md
//! against every crate's manifest (`manifests`), the host imports of docs/abi.md against the
//! sandbox and the SDK (`abi`), no file naming a document the repository lacks (`links`), no
//! cycles among a crate's modules (`cycles`), and the languages listed in their table alone
//! (`languages`). Each check also runs on planted input, to show that it fails when it should.

mod abi;
mod budgets;
mod cycles;
mod languages;
mod links;
mod manifests;
mod source;

use crate::support::repo_root;

#[test]
fn every_rust_file_opens_with_a_module_comment_and_has_no_leftovers() {
    let root = repo_root();
    let files: Vec<_> = ["crates", "tests", "samples"]
        .iter()
        .flat_map(|dir| source::files_with(&root.join(dir), &["rs"]))
        .collect();
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
        let text = source::read(file);
        let relative = source::relative(&root, file);
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
