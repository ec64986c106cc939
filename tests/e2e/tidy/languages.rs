//! The table of languages (`botlens_bots::toolchain::TOOLCHAINS`) is the only place that lists
//! them: each language is a module of `crates/bots/src/toolchain/` named as the language and a
//! row of the table, its SDK's folder holds its starting bot for every game (bundled into
//! botlens), and no library code outside those modules names one language's module or spells one
//! language's source files (`".c"`, `"*.zig"`, `"**/*.ts"`): it asks the table. Tests may name
//! languages (a test's inline module, `#[cfg(test)]`, is not read).

use std::collections::BTreeSet;

use botlens_bots::toolchain::Lang;
use botlens_games::GameKind;

use super::source::{Keep, blank, files_with, is_ident_char, read, relative};
use crate::support::repo_root;

/// Where the languages' modules are, relative to the repository.
const TOOLCHAIN_DIR: &str = "crates/bots/src/toolchain/";

/// The ways code spells a language's source files: `".c"`, `"*.c"`, `"**/*.c"`.
const PATTERNS: [&str; 3] = ["", "*", "**/*"];

/// What library code outside the toolchain modules says of single languages, in `files` (path
/// relative to the repository, text): each use of a language module (`toolchain::c`) and each
/// source-file pattern of a language's `extensions`, as `file:line: …`.
fn outside_the_table(
    files: &[(String, String)],
    names: &[&str],
    extensions: &[&str],
) -> Vec<String> {
    let mut problems = Vec::new();
    for (path, text) in files.iter().filter(|(path, _)| !path.starts_with(TOOLCHAIN_DIR)) {
        // Tests sit at the end of a file, in their own module.
        let library = text.find("#[cfg(test)]").map_or(text.as_str(), |at| &text[..at]);
        let code = blank(library, Keep::Strings);
        let line = |at: usize| code[..at].matches('\n').count() + 1;
        for name in names {
            let needle = format!("toolchain::{name}");
            for (at, _) in code.match_indices(&needle) {
                if code[at + needle.len()..].chars().next().is_some_and(is_ident_char) {
                    continue;
                }
                problems.push(format!(
                    "{path}:{}: names the {name} module (`{needle}`): ask the table, `toolchain::Lang`",
                    line(at)
                ));
            }
        }
        for extension in extensions {
            for prefix in PATTERNS {
                let needle = format!("\"{prefix}.{extension}\"");
                for (at, _) in code.match_indices(&needle) {
                    problems.push(format!(
                        "{path}:{}: spells a language's source files ({needle}): ask the table, `toolchain::watched`",
                        line(at)
                    ));
                }
            }
        }
    }
    problems
}

#[test]
fn each_language_is_a_module_and_a_row_and_nothing_else_names_one() {
    let root = repo_root();
    let modules: BTreeSet<String> = files_with(&root.join(TOOLCHAIN_DIR), &["rs"])
        .iter()
        .filter_map(|file| Some(file.file_stem()?.to_string_lossy().into_owned()))
        // `mod` holds the table, `script` what the languages a runner plays share.
        .filter(|stem| stem != "mod" && stem != "script")
        .collect();
    let rows: BTreeSet<String> = Lang::all().map(|lang| lang.name().to_owned()).collect();
    assert_eq!(modules, rows, "each language is a module named as its row, and each row one");
    for lang in Lang::all() {
        for game in GameKind::ALL {
            let starter = format!("crates/{}/starters/{game}.{}", lang.sdk(), lang.extension());
            assert!(
                root.join(&starter).is_file(),
                "{lang} has no starting bot for {game}: {starter}"
            );
            let bundled = botlens_bots::bundled::starter(lang.sdk(), game.name(), lang.extension());
            assert!(bundled.is_some(), "{starter} is not bundled into botlens");
        }
    }
    let names: Vec<&str> = Lang::all().map(|lang| lang.name()).collect();
    let extensions: Vec<&str> = Lang::all().map(|lang| lang.extension()).collect();
    let crates = root.join("crates");
    let files: Vec<(String, String)> = files_with(&crates, &["rs"])
        .iter()
        .map(|file| (relative(&root, file), file))
        .filter(|(path, _)| path.split('/').nth(2) == Some("src"))
        .map(|(path, file)| (path, read(file)))
        .collect();
    assert!(files.len() > 50, "found only {} files", files.len());
    let problems = outside_the_table(&files, &names, &extensions);
    assert!(problems.is_empty(), "languages named outside their table:\n{}", problems.join("\n"));
}

/// The sources of `lang`'s SDK (its folder's files in its language, C headers, and a language
/// runner's Rust, where the Python runner defines its turns' moves), without its starting bots.
fn sdk_api(lang: Lang) -> String {
    let sdk = repo_root().join("crates").join(lang.sdk());
    files_with(&sdk, &[lang.extension(), "h", "rs"])
        .iter()
        .filter(|file| !file.starts_with(sdk.join("starters")))
        .map(|file| read(file))
        .collect()
}

#[test]
fn every_folder_languages_sdk_has_each_games_move_call_and_its_starter_makes_it() {
    for lang in Lang::folders() {
        let api = sdk_api(lang);
        for game in GameKind::ALL {
            // The call a lone bot file's game is told by (`Scored::SDK_MOVE`); C prefixes it.
            let call = game.info().sdk_move;
            let defined = [format!("botlens_{call}("), format!(" {call}(")];
            assert!(
                defined.iter().any(|d| api.contains(d.as_str())),
                "{lang}'s SDK (crates/{}) has no `{call}(` for {game}",
                lang.sdk()
            );
        }
    }
}

/// The drawing calls of `botlens.draw` (docs/abi.md) every SDK has, as the Rust SDK names them
/// (`crates/sdk/src/draw.rs`).
const DRAWING_CALLS: [&str; 5] = ["cell", "heat", "arrow", "label", "status"];

/// Whether a line of `api` opens with a definition of the drawing call `call` in one of the
/// SDKs' languages: `pub fn cell(` (Rust, Zig), `static inline void botlens_draw_cell(` (C),
/// `export function cell(` (AssemblyScript), `cell(` (a method of the JavaScript prelude's
/// `draw`), `def cell(` (a method of the Python prelude's `draw`).
fn defines_drawing_call(api: &str, call: &str) -> bool {
    let openings = [
        format!("pub fn {call}("),
        format!("static inline void botlens_draw_{call}("),
        format!("export function {call}("),
        format!("{call}("),
        format!("def {call}("),
    ];
    api.lines().any(|line| openings.iter().any(|o| line.trim_start().starts_with(o.as_str())))
}

#[test]
fn every_sdk_has_the_drawing_calls() {
    for lang in Lang::all() {
        let api = sdk_api(lang);
        for call in DRAWING_CALLS {
            assert!(
                defines_drawing_call(&api, call),
                "{lang}'s SDK (crates/{}) does not define the drawing call `{call}`",
                lang.sdk()
            );
        }
    }
    // Planted: calls and comments define nothing, nor does a longer name.
    let planted = "    // cell(1, 2)\n    draw.cell(1, 2, RED);\npub fn cells(x: i32) {}\n";
    assert!(!defines_drawing_call(planted, "cell"));
    assert!(defines_drawing_call("  pub fn cell(x: i32) {}", "cell"));
}

#[test]
fn planted_mentions_of_one_language_are_reported_and_the_rest_pass() {
    let file = |path: &str, text: &str| (path.to_owned(), text.to_owned());
    let files = [
        file("crates/a/src/lib.rs", "use crate::toolchain::c::HEADER;\nfn f() {}"),
        file(
            "crates/b/src/lib.rs",
            "// \"*.zig\" and toolchain::zig in a comment\nconst Z: &str = \"**/*.zig\";",
        ),
        file("crates/bots/src/toolchain/c.rs", "const C: &str = \"*.c\"; use super::zig::X;"),
        file(
            "crates/d/src/lib.rs",
            "use crate::toolchain::{Lang, zigzag};\nconst F: &str = \"bot.c\";",
        ),
        file(
            "crates/e/src/lib.rs",
            "fn f() {}\n#[cfg(test)]\nmod tests { const C: &str = \".c\"; }",
        ),
    ];
    assert_eq!(
        outside_the_table(&files, &["c", "zig"], &["c", "zig"]),
        [
            "crates/a/src/lib.rs:1: names the c module (`toolchain::c`): ask the table, `toolchain::Lang`",
            "crates/b/src/lib.rs:2: spells a language's source files (\"**/*.zig\"): ask the table, `toolchain::watched`",
        ]
    );
}
