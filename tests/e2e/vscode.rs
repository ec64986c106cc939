//! The VS Code extension packages as its README says, outside the checkout, without a warning:
//! a handful of files (the bundle, its manifest, README and LICENSE), not its dependencies.
//!
//! Needs Node.js and npm (and the npm registry, for `npm ci`); skips, saying so, without them.

use std::process::Command;

use crate::support::{Tool, repo_root, require};

#[test]
fn the_extension_packages_from_a_copy_without_warnings() {
    if !require(&[Tool::Node]) {
        return;
    }
    let scratch = tempfile::tempdir().expect("a temporary directory");
    let copy = scratch.path().join("botlens-vscode");
    let status = Command::new("cp")
        .arg("-r")
        .arg(repo_root().join("editors/vscode"))
        .arg(&copy)
        .status()
        .expect("cp runs");
    assert!(status.success());
    let run = |args: &[&str]| {
        let out = Command::new("npm").args(args).current_dir(&copy).output().expect("npm runs");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.status.success(), "npm {args:?}:\n{text}");
        text
    };
    run(&["ci", "--no-audit", "--no-fund"]);
    let packaged = run(&["run", "package"]);
    assert!(!packaged.to_uppercase().contains("WARNING"), "{packaged}");
    let vsix = copy.join("botlens-0.1.0.vsix");
    assert!(vsix.is_file(), "{packaged}");
    let files = packaged.lines().find(|l| l.contains("Packaged:")).unwrap_or_default().to_owned();
    let count: usize = files
        .split('(')
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no file count in {packaged}"));
    assert!(count <= 8, "{count} files in the package:\n{packaged}");
}
