//! Every editor client attaches to every bot: the files Neovim's module attaches, VS Code's
//! document selector and Helix's languages are those a bot's build reads in every language
//! (`toolchain::watched`, the language server's own file watchers), VS Code activates where any
//! language's bot is, and Neovim's module finds a bot's root by every language's markers. A
//! sixth language that none of them knows fails here.

use std::collections::BTreeSet;

use botlens_bots::folder::CONFIG_FILE;
use botlens_bots::toolchain::{self, Lang};

use crate::support::repo_root;

/// The language of an editor (VS Code's language id, Helix's language name) each of botlens's
/// languages is, by botlens's name for it.
const EDITOR_LANGUAGES: [(&str, &str); 6] = [
    ("rust", "rust"),
    ("js", "javascript"),
    ("python", "python"),
    ("c", "c"),
    ("zig", "zig"),
    ("assemblyscript", "typescript"),
];

/// The editor language of `lang`; a language this test does not know fails it.
fn editor_language(lang: Lang) -> &'static str {
    let found = EDITOR_LANGUAGES.iter().find(|(name, _)| *name == lang.name());
    found.map(|(_, editor)| *editor).unwrap_or_else(|| {
        panic!("{lang}: which editor language is it? (add it to the editors and to this table)")
    })
}

/// Whether the editor's file globs `listed` are those the server watches
/// ([`toolchain::watched`]) but opponent modules, which nobody edits: each watched glob is
/// listed or within a listed `*.<extension>` (`Cargo.toml` within `*.toml`), and each listed
/// glob is watched.
fn lists_the_bot_files(listed: &BTreeSet<String>) {
    let watched: Vec<String> =
        toolchain::watched().into_iter().filter(|glob| glob != "*.wasm").collect();
    for glob in &watched {
        let within = |listed: &String| match listed.strip_prefix('*') {
            Some(end) => glob.ends_with(end),
            None => listed == glob,
        };
        assert!(listed.iter().any(within), "{glob} is not among {listed:?}");
    }
    for glob in listed {
        assert!(watched.contains(glob), "{glob} is no file a bot's build reads: {watched:?}");
    }
}

/// The files that make a directory a bot's root: each language's manifest and `botlens.toml`.
fn markers() -> BTreeSet<String> {
    let manifests = Lang::all().filter_map(|lang| lang.manifest()).map(str::to_owned);
    manifests.chain([CONFIG_FILE.to_owned()]).collect()
}

/// The quoted strings (`'…'` or `"…"`) of the line of `text` that starts with `start`.
fn quoted_on_line(text: &str, start: &str, quote: char) -> BTreeSet<String> {
    let line = text.lines().find(|line| line.starts_with(start));
    let line = line.unwrap_or_else(|| panic!("no line starting `{start}`"));
    line.split(quote).skip(1).step_by(2).map(str::to_owned).collect()
}

fn read(path: &str) -> String {
    std::fs::read_to_string(repo_root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn neovim_attaches_every_bot_file_and_roots_a_bot_at_every_languages_marker() {
    let module = read("editors/neovim/lua/botlens/init.lua");
    lists_the_bot_files(&quoted_on_line(&module, "M.files = {", '\''));
    assert_eq!(quoted_on_line(&module, "M.markers = {", '\''), markers());
    assert!(!module.contains("vim.fs."), "vim.fs is not in Neovim 0.7, the oldest supported");
}

#[test]
fn vs_code_activates_where_any_bot_is_and_hands_the_server_every_bot_file() {
    let extension = read("editors/vscode/src/extension.ts");
    lists_the_bot_files(&quoted_on_line(&extension, "const BOT_FILES = [", '"'));
    assert!(
        extension.contains("documentSelector: BOT_FILES.map("),
        "the document selector is BOT_FILES"
    );
    let manifest: serde_json::Value =
        serde_json::from_str(&read("editors/vscode/package.json")).expect("package.json");
    let events: BTreeSet<&str> = manifest["activationEvents"]
        .as_array()
        .expect("activationEvents")
        .iter()
        .filter_map(serde_json::Value::as_str)
        .collect();
    let mut expected: BTreeSet<String> =
        markers().iter().map(|marker| format!("workspaceContains:**/{marker}")).collect();
    expected.extend(Lang::all().map(|lang| format!("onLanguage:{}", editor_language(lang))));
    assert_eq!(events, expected.iter().map(String::as_str).collect());
}

#[test]
fn helix_adds_botlens_to_every_bot_language_after_helix_own_servers() {
    let config: toml::Table = toml::from_str(&read("editors/helix/languages.toml")).expect("TOML");
    let languages = config["language"].as_array().expect("[[language]]");
    let with_botlens: BTreeSet<&str> = languages
        .iter()
        .filter(|language| {
            let servers = language["language-servers"].as_array().expect("language-servers");
            // Helix's own server(s) first: the list replaces Helix's.
            servers.len() >= 2 && servers.last().and_then(toml::Value::as_str) == Some("botlens")
        })
        .filter_map(|language| language["name"].as_str())
        .collect();
    let mut expected: BTreeSet<&str> = Lang::all().map(editor_language).collect();
    // Helix takes `.h` for C++, and the settings files are TOML.
    expected.extend(["cpp", "toml"]);
    assert_eq!(with_botlens, expected);
    assert_eq!(languages.len(), expected.len(), "each language once");
}
