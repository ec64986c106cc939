//! The default budgets are stated from one source of truth: what the documents, the samples'
//! READMEs and the `botlens new` template say a bot may spend is what
//! `botlens_sandbox::SandboxLimits::default()` grants, and no stale figure is left anywhere.

use botlens_bots::scaffold::grouped;
use botlens_sandbox::SandboxLimits;

use super::source::{files_with, read, relative};
use crate::support::repo_root;

/// `4·10⁸` for 400,000,000 (a power of ten times one digit, as the docs write big budgets).
fn scientific(n: u64) -> String {
    const SUPERSCRIPT: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    let exponent = n.to_string().len() - 1;
    let mantissa = n / 10u64.pow(exponent as u32);
    assert_eq!(
        mantissa * 10u64.pow(exponent as u32),
        n,
        "{n} is not one digit times a power of ten"
    );
    let power: String =
        exponent.to_string().chars().map(|d| SUPERSCRIPT[d as usize - '0' as usize]).collect();
    if mantissa == 1 { format!("10{power}") } else { format!("{mantissa}·10{power}") }
}

#[test]
fn documents_state_the_budgets_the_code_grants() {
    let limits = SandboxLimits::default();
    let turn = limits.fuel_per_turn;
    let root = repo_root();
    let says = |file: &str, phrase: String| {
        let text = read(&root.join(file));
        assert!(text.contains(&phrase), "{file} should say `{phrase}` (SandboxLimits::default())");
    };
    says("docs/abi.md", format!("fuel per turn (default {})", scientific(turn)));
    says("docs/abi.md", format!("per game (default {}", scientific(limits.fuel_per_game)));
    says("docs/performance.md", format!("the default {} fuel of a turn", scientific(turn)));
    says("samples/battleships-spinner/README.md", format!("default budget of {}", grouped(turn)));
    says("samples/klotski-solver/README.md", format!("default turn budget of {}", grouped(turn)));
    says("crates/bots/templates/Cargo.toml.in", "(by default {{fuel_per_turn}})".to_owned());
}

#[test]
fn no_stale_budget_is_left() {
    let root = repo_root();
    let stale = ["a billion", "5·10⁹", "1.25·10¹¹", "1,000,000,000", "5,000,000,000"];
    let mut problems = Vec::new();
    for file in files_with(&root, &["md", "in", "toml", "rs"]) {
        let text = read(&file);
        for phrase in stale {
            if text.contains(phrase) && !file.ends_with("tidy/budgets.rs") {
                problems.push(format!("{}: `{phrase}`", relative(&root, &file)));
            }
        }
    }
    assert!(problems.is_empty(), "stale budgets:\n{}", problems.join("\n"));
}

#[test]
fn budgets_are_written_as_the_documents_write_them() {
    assert_eq!(scientific(400_000_000), "4·10⁸");
    assert_eq!(scientific(10_000_000_000), "10¹⁰");
    assert_eq!(grouped(400_000_000), "400,000,000");
    assert_eq!(grouped(999), "999");
}
