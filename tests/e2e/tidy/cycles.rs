//! Within each crate, the file modules under `src/` use one another without cycles.
//!
//! A module uses another when its code (comments and string literals blanked) names a path
//! into it that starts with `crate::` (or a macro's `$crate::`) or `super::`, in a `use` or
//! anywhere else: `use crate::abi::{Sig, Ty}` and `crate::engines::X` are both uses, of the
//! file module the path enters, the longest module path it starts with
//! (`crate::opponents::density::X` uses `opponents::density`). A `super` first climbs out of
//! the inline modules around it (`mod tests { … }`), then out of the file's module. Paths
//! through `self::` and plain paths to child modules do not count, nor does code in an inline
//! module marked `#[cfg(test)]` (tests may share helpers across modules; the library's own
//! structure is what must not loop). The crate root (`lib.rs`, `main.rs`) is left out: it
//! declares and re-exports everything. A cycle is reported as the chain of module names, from
//! its first module in sorted order back to it.

use std::collections::{BTreeMap, BTreeSet};

use super::source::{Keep, blank, closing, files_with, is_ident_char, read, relative};
use crate::support::repo_root;

/// A module path under the crate root: `["opponents", "density"]` for `opponents::density`.
type ModulePath = Vec<String>;

/// The module a source file under `src/` is (`None` for the crate root).
fn module_of(path_in_src: &str) -> Option<ModulePath> {
    let without = path_in_src.strip_suffix(".rs")?;
    let mut parts: ModulePath = without.split('/').map(str::to_owned).collect();
    if parts.last().is_some_and(|last| last == "mod") {
        parts.pop();
    }
    let root = parts.is_empty() || (parts.len() == 1 && (parts[0] == "lib" || parts[0] == "main"));
    (!root).then_some(parts)
}

/// An inline module's body: its byte range in blanked code, and whether it is test-only
/// (`#[cfg(test)]` right before it).
struct Inline {
    body: std::ops::Range<usize>,
    test_only: bool,
}

/// The inline `mod name { … }` items in blanked code.
fn inline_modules(code: &str) -> Vec<Inline> {
    let mut ranges = Vec::new();
    for (at, _) in code.match_indices("mod ") {
        if code[..at].chars().next_back().is_some_and(is_ident_char) {
            continue;
        }
        let after = &code[at + "mod ".len()..];
        let name_len = after.find(|c: char| !is_ident_char(c)).unwrap_or(after.len());
        let rest = &after[name_len..];
        if name_len > 0 && rest.trim_start().starts_with('{') {
            let open = at + "mod ".len() + name_len + (rest.len() - rest.trim_start().len());
            let declared = code[..at].trim_end();
            let declared = declared.strip_suffix("pub(crate)").unwrap_or(declared).trim_end();
            let test_only = declared.ends_with("#[cfg(test)]");
            ranges.extend(closing(code, open).map(|end| Inline { body: open..end, test_only }));
        }
    }
    ranges
}

/// The paths of a use tree starting at `*at` (`a::b::{c, d::e}` gives `a::b::c` and
/// `a::b::d::e`); leaves `*at` after it. A path ends at anything but `::` after a segment.
fn use_tree(code: &str, at: &mut usize) -> Vec<ModulePath> {
    let skip_space = |at: &mut usize| *at += code[*at..].len() - code[*at..].trim_start().len();
    let mut prefix = ModulePath::new();
    loop {
        skip_space(at);
        if code[*at..].starts_with('{') {
            *at += 1;
            let mut paths = Vec::new();
            loop {
                skip_space(at);
                if *at >= code.len() {
                    return paths;
                }
                if code[*at..].starts_with('}') {
                    *at += 1;
                    return paths;
                }
                for tail in use_tree(code, at) {
                    paths.push([prefix.clone(), tail].concat());
                }
                skip_space(at);
                if code[*at..].starts_with(',') {
                    *at += 1;
                }
                // `a as b` or anything unexpected: skip to the next `,` or `}` at this level.
                while *at < code.len() && !code[*at..].starts_with([',', '}']) {
                    *at += code[*at..].chars().next().map_or(1, char::len_utf8);
                }
                if code[*at..].starts_with(',') {
                    *at += 1;
                }
            }
        }
        let rest = &code[*at..];
        let len = rest.find(|c: char| !(is_ident_char(c) || c == '$')).unwrap_or(rest.len());
        if len == 0 {
            return vec![prefix];
        }
        prefix.push(rest[..len].to_owned());
        *at += len;
        if code[*at..].starts_with("::") {
            *at += 2;
        } else {
            return vec![prefix];
        }
    }
}

/// The file module that `path`, written in `module` inside `depth` inline modules, enters:
/// the longest of `modules` it starts with, once `crate` and `super` are resolved.
fn target<'a>(
    path: &[String],
    module: &[String],
    depth: usize,
    modules: &'a BTreeSet<ModulePath>,
) -> Option<&'a ModulePath> {
    let supers = path.iter().take_while(|segment| *segment == "super").count();
    let (base, rest): (&[String], &[String]) = match path.first()?.as_str() {
        "crate" | "$crate" => (&[], &path[1..]),
        "super" if supers == depth => (module, &path[supers..]),
        "super" if supers > depth => {
            (module.get(..module.len().checked_sub(supers - depth)?)?, &path[supers..])
        }
        // Within an inline module, or not a path this check follows.
        _ => return None,
    };
    let rest = rest.iter().take_while(|segment| *segment != "self");
    let full: ModulePath = base.iter().chain(rest).cloned().collect();
    (1..=full.len()).rev().find_map(|len| modules.get(&full[..len]))
}

/// For each file module, the file modules it uses.
type Uses = BTreeMap<ModulePath, BTreeSet<ModulePath>>;

/// Which file modules each file module of a crate uses, given its files under `src/` (path
/// there, text).
fn module_uses(files: &[(String, String)]) -> (BTreeSet<ModulePath>, Uses) {
    let modules: BTreeSet<ModulePath> =
        files.iter().filter_map(|(path, _)| module_of(path)).collect();
    let mut uses = Uses::new();
    for (path, text) in files {
        let Some(module) = module_of(path).and_then(|m| modules.get(&m)) else { continue };
        let code = blank(text, Keep::Nothing);
        let inline = inline_modules(&code);
        let starts = code.match_indices("crate::").chain(code.match_indices("super::"));
        for (at, _) in starts {
            let before = code[..at].chars().next_back();
            let at = if before == Some('$') { at - 1 } else { at };
            // Inside a longer name or path (the second `super` of `super::super::x`): not a start.
            if code[..at].ends_with("::")
                || code[..at].chars().next_back().is_some_and(is_ident_char)
            {
                continue;
            }
            let around = || inline.iter().filter(|m| m.body.contains(&at));
            if around().any(|m| m.test_only) {
                continue;
            }
            let depth = around().count();
            let mut cursor = at;
            for path in use_tree(&code, &mut cursor) {
                if let Some(used) =
                    target(&path, module, depth, &modules).filter(|used| *used != module)
                {
                    uses.entry(module.clone()).or_default().insert(used.clone());
                }
            }
        }
    }
    (modules, uses)
}

/// Every cycle among the modules of one crate, given its files under `src/` (path there, text).
fn module_cycles(files: &[(String, String)]) -> Vec<String> {
    let (modules, uses) = module_uses(files);
    let nodes: Vec<&ModulePath> = modules.iter().collect();
    let mut cycles = Vec::new();
    for (index, start) in nodes.iter().enumerate() {
        // Each elementary cycle once: from its smallest module, through larger ones only.
        let mut chain = vec![*start];
        extend(&uses, &nodes[index + 1..], &mut chain, &mut cycles);
    }
    cycles
}

/// Follows the uses from the end of `chain` through `allowed` modules, recording every way
/// back to its first module.
fn extend<'a>(
    uses: &'a Uses,
    allowed: &[&'a ModulePath],
    chain: &mut Vec<&'a ModulePath>,
    cycles: &mut Vec<String>,
) {
    let last = *chain.last().expect("a chain has a start");
    for next in uses.get(last).into_iter().flatten() {
        if next == chain[0] {
            let names: Vec<String> = chain.iter().chain([&next]).map(|m| m.join("::")).collect();
            cycles.push(names.join(" → "));
        } else if allowed.contains(&next) && !chain.contains(&next) {
            chain.push(next);
            extend(uses, allowed, chain, cycles);
            chain.pop();
        }
    }
}

#[test]
fn the_modules_of_each_crate_form_no_cycle() {
    let root = repo_root();
    let mut found = BTreeSet::new();
    let crates = std::fs::read_dir(root.join("crates")).expect("crates/");
    let mut crate_dirs: Vec<_> = crates.map(|entry| entry.expect("an entry").path()).collect();
    crate_dirs.sort();
    for dir in crate_dirs.iter().filter(|dir| dir.join("src").is_dir()) {
        let src = dir.join("src");
        let files: Vec<(String, String)> =
            files_with(&src, &["rs"]).iter().map(|f| (relative(&src, f), read(f))).collect();
        for cycle in module_cycles(&files) {
            found.insert(format!("{}: {cycle}", relative(&root, dir)));
        }
    }
    let found: Vec<&str> = found.iter().map(String::as_str).collect();
    assert!(found.is_empty(), "module cycles:\n{}", found.join("\n"));
}

#[test]
fn planted_cycles_are_reported_as_chains_and_other_uses_are_not() {
    let file = |path: &str, text: &str| (path.to_owned(), text.to_owned());
    let files = [
        file("lib.rs", "mod a; mod b; mod c; mod d; mod g; pub use crate::a::A;"),
        // a → b by a use group; b → c by a path in code; c → a by `super` from the root level.
        file("a.rs", "use crate::{b::{self, B}, g as gee};\npub struct A;"),
        file("b.rs", "pub fn f() -> u8 { crate::c::g() } // crate::d::ignored"),
        file(
            "c.rs",
            "use super::a::A;\nconst S: &str = \"crate::b::ignored\";\nmod tests { use super::*; }",
        ),
        // d and its child use each other: the child's inline module reaches d with two `super`s.
        // A test module's uses do not count: `g` uses `a` only in its tests.
        file(
            "d/mod.rs",
            "mod e;\nmod f;\npub use crate::d::f::F;\npub fn h() { crate::d::e::k() }",
        ),
        file("d/e.rs", "pub fn k() {}\nmod inner { use super::super::h; }"),
        // `super::super` from `d::f` is the root: a use of `b`, not of `d` (no cycle with `d`).
        file("d/f.rs", "use super::super::b::B;\npub struct F;"),
        file("g.rs", "#[cfg(test)]\nmod tests { use crate::a::A; }"),
    ];
    assert_eq!(module_cycles(&files), ["a → b → c → a", "d → d::e → d"]);
}

/// Where a command module of the CLI (`commands::run`, `commands::play::klotski`) uses another
/// command's module, as `user → used`: what two commands share belongs in `shared`.
fn commands_borrowing(files: &[(String, String)]) -> Vec<String> {
    let command = |module: &ModulePath| -> Option<String> {
        (module.first()? == "commands").then(|| module.get(1).cloned().unwrap_or_default())
    };
    let (_, uses) = module_uses(files);
    let mut found = Vec::new();
    for (user, used) in &uses {
        let Some(own) = command(user).filter(|own| !own.is_empty()) else { continue };
        for other in used.iter().filter(|used| command(used).is_some_and(|c| c != own)) {
            found.push(format!("{} → {}", user.join("::"), other.join("::")));
        }
    }
    found
}

#[test]
fn the_clis_commands_share_through_shared_and_borrow_nothing_from_each_other() {
    let src = repo_root().join("crates/cli/src");
    let files: Vec<(String, String)> =
        files_with(&src, &["rs"]).iter().map(|f| (relative(&src, f), read(f))).collect();
    assert!(files.iter().any(|(path, _)| path == "commands/run.rs"), "the CLI moved");
    let found = commands_borrowing(&files);
    assert!(found.is_empty(), "commands borrowing from other commands:\n{}", found.join("\n"));
    let file = |path: &str, text: &str| (path.to_owned(), text.to_owned());
    let planted = [
        file("main.rs", "mod commands; mod shared;"),
        file("commands/mod.rs", "mod run; mod play; pub fn sandbox() {}"),
        file("commands/run.rs", "use crate::shared::progress::X;\nfn f() { super::sandbox() }"),
        file("commands/play/mod.rs", "mod klotski;\nuse super::run::INSTALLING;"),
        file("commands/play/klotski.rs", "use super::super::play::X;\nuse crate::shared::Y;"),
        file("shared/mod.rs", "pub mod progress;"),
        file("shared/progress.rs", "pub struct X;"),
    ];
    assert_eq!(
        commands_borrowing(&planted),
        ["commands::play → commands::run", "commands::run → commands"]
    );
}
