//! What of a compiler's messages botlens shows: text only of files inside the project (and of
//! the toolchain's own, the bundled SDK and a standard library, which are no secret). A bot's
//! sources choose what the compiler reads (`#include "/etc/shadow"`, `include!("/etc/passwd")`,
//! a symbolic link out of the folder), and compilers quote what they read: clang prints the
//! offending line of a file under its message, and the message itself may quote it (`unknown
//! type name 'root'`). So a message located in a file outside keeps its place (file, line,
//! column) but its text becomes [`MESSAGE_NOT_SHOWN`], and the lines it would quote become
//! [`EXCERPT_NOT_SHOWN`]; a message of the project's own files that quotes a file outside (a
//! note, an excerpt of rustc's) keeps its text, without that file's lines. Whether a file is
//! outside is decided after its `..` and symbolic links are resolved ([`botlens_files::inside`]);
//! a file that cannot be resolved (`<built-in>`, one that is gone) counts as outside.
//!
//! Each toolchain's output is filtered where it is parsed: clang's and zig's as text
//! ([`clang_output`], before it is parsed or cached), asc's and rustc's message by message
//! ([`Shown::shows`], [`rustc_rendered`], [`hidden_rendered`]).
//!
//! Not for: what the compiler may read in the first place (the build's confinement).

use std::path::{Path, PathBuf};

/// The text of a message located in a file outside the project.
pub const MESSAGE_NOT_SHOWN: &str = "(message not shown: it is about a file outside the project)";

/// What stands for the lines a message would quote of a file outside the project.
pub const EXCERPT_NOT_SHOWN: &str = "(source line not shown: outside the project)";

/// The directories whose files a build's messages may quote: the project's, and the
/// toolchain's own.
#[derive(Debug, Clone)]
pub struct Shown {
    /// The project: relative paths in messages are taken from here (where the compiler ran).
    root: PathBuf,
    /// The toolchain's directories (the bundled SDK, a standard library).
    toolchain: Vec<PathBuf>,
}

impl Shown {
    /// The project `root`'s files, and those of the `toolchain` directories.
    pub fn new(root: &Path, toolchain: &[&Path]) -> Shown {
        Shown {
            root: root.to_owned(),
            toolchain: toolchain.iter().map(|d| d.to_path_buf()).collect(),
        }
    }

    /// The project's directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Whether messages may quote `file` (relative: from the project).
    pub fn shows(&self, file: &Path) -> bool {
        let file = self.root.join(file);
        std::iter::once(&self.root)
            .chain(&self.toolchain)
            .any(|dir| botlens_files::inside(dir, &file).is_ok())
    }
}

/// The rendering of a message (rustc's, clang's) located in a file outside the project, at
/// `file:line:column`: its place and `level`, [`MESSAGE_NOT_SHOWN`] and [`EXCERPT_NOT_SHOWN`].
pub fn hidden_rendered(file: &Path, line: u32, column: u32, level: &str) -> String {
    format!(
        "{}:{line}:{column}: {level}: {MESSAGE_NOT_SHOWN}\n    {EXCERPT_NOT_SHOWN}\n",
        file.display()
    )
}

/// One `file:line:column: level: message` line of clang's or zig's, any level (notes too):
/// the file, and where the message starts.
fn clang_header(line: &str) -> Option<(&str, usize)> {
    const LEVELS: [&str; 5] = ["fatal error", "error", "warning", "note", "remark"];
    let (at, level) =
        LEVELS.iter().find_map(|level| Some((line.find(&format!(": {level}: "))?, *level)))?;
    let mut parts = line[..at].rsplitn(3, ':');
    parts.next()?.parse::<u32>().ok()?;
    parts.next()?.parse::<u32>().ok()?;
    Some((parts.next()?, at + level.len() + 4))
}

/// clang's (or zig's, written the same way) `stderr` with nothing of a file outside `shown`:
/// a message located there keeps its `file:line:column: level:` and says
/// [`MESSAGE_NOT_SHOWN`], and the lines under it (the excerpt, the caret) become one
/// [`EXCERPT_NOT_SHOWN`]. The driver's and the linker's lines (`clang: …`, `wasm-ld: …`) and
/// `In file included from …` are kept.
pub fn clang_output(stderr: &str, shown: &Shown) -> String {
    let mut out = String::with_capacity(stderr.len());
    let mut hiding = false;
    for line in stderr.lines() {
        if let Some((file, text)) = clang_header(line) {
            hiding = !shown.shows(Path::new(file));
            if hiding {
                out.push_str(&line[..text]);
                out.push_str(MESSAGE_NOT_SHOWN);
                out.push_str("\n    ");
                out.push_str(EXCERPT_NOT_SHOWN);
            } else {
                out.push_str(line);
            }
            out.push('\n');
        } else if ["clang: ", "wasm-ld: ", "In file included from "]
            .iter()
            .any(|p| line.starts_with(p))
            || line.ends_with(" generated.")
        {
            hiding = false;
            out.push_str(line);
            out.push('\n');
        } else if !hiding {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// rustc's rendering of a message (`error[E0425]: …`, then ` --> src/lib.rs:7:9` and the
/// excerpt under it, then notes with excerpts of their own) without the lines of files outside
/// `shown`: the `-->` line of such a file stays, its excerpt becomes [`EXCERPT_NOT_SHOWN`].
pub fn rustc_rendered(rendered: &str, shown: &Shown) -> String {
    let mut out = String::with_capacity(rendered.len());
    let mut hiding = false;
    for line in rendered.lines() {
        let trimmed = line.trim_start();
        let indent = &line[..line.len() - trimmed.len()];
        let place = trimmed.strip_prefix("--> ").or_else(|| trimmed.strip_prefix("::: "));
        if let Some(place) = place {
            let file = place.rsplitn(3, ':').nth(2).unwrap_or(place);
            out.push_str(line);
            out.push('\n');
            hiding = !shown.shows(Path::new(file));
            if hiding {
                out.push_str(&format!("{indent}    {EXCERPT_NOT_SHOWN}\n"));
            }
            continue;
        }
        // An excerpt's lines are in the gutter (`12 | code`, `   | ^^^`, `...`); a message or
        // note of its own (`note: …`, `= help: …`) quotes no file.
        let digits = trimmed.trim_start_matches(|c: char| c.is_ascii_digit());
        let gutter = digits.trim_start().starts_with('|') || trimmed == "...";
        if !gutter && (!line.starts_with([' ', '\t']) || trimmed.starts_with("= ")) {
            hiding = false;
        }
        if !hiding {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A project with `bot.c` and a toolchain directory with `botlens.h`, and the [`Shown`] of
    /// both.
    fn project() -> (tempfile::TempDir, Shown) {
        let dir = tempfile::tempdir().unwrap();
        for name in ["bot", "sdk"] {
            std::fs::create_dir(dir.path().join(name)).unwrap();
        }
        std::fs::write(dir.path().join("bot/bot.c"), "").unwrap();
        std::fs::write(dir.path().join("sdk/botlens.h"), "").unwrap();
        std::os::unix::fs::symlink("/etc/passwd", dir.path().join("bot/notes.h")).unwrap();
        let shown = Shown::new(&dir.path().join("bot"), &[&dir.path().join("sdk")]);
        (dir, shown)
    }

    #[test]
    fn the_project_and_the_toolchain_are_shown_and_nothing_else() {
        let (dir, shown) = project();
        assert!(shown.shows(Path::new("bot.c")));
        assert!(shown.shows(&dir.path().join("bot/./bot.c")));
        assert!(shown.shows(&dir.path().join("sdk/botlens.h")));
        for outside in ["notes.h", "/etc/passwd", "../sdk/../../x", "<built-in>", "gone.c"] {
            assert!(!shown.shows(Path::new(outside)), "{outside}");
        }
    }

    #[test]
    fn clangs_messages_about_files_outside_keep_their_place_without_their_text() {
        let (dir, shown) = project();
        let bot = dir.path().join("bot/bot.c");
        let sdk = dir.path().join("sdk/botlens.h");
        let notes = dir.path().join("bot/notes.h");
        let stderr = format!(
            "In file included from {bot}:1:\n\
             /etc/passwd:1:1: error: unknown type name 'root'\n\
             root:x:0:0:root:/root:/bin/bash\n\
             ^\n\
             {bot}:4:5: error: use of undeclared identifier 'x'\n    x = 1;\n    ^\n\
             {notes}:2:1: note: expanded from macro 'daemon'\n\
             daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n\
             ^\n\
             {sdk}:9:1: note: declared here\nint botlens_attack(int x, int y);\n^\n\
             wasm-ld: error: undefined symbol: bot_play\n\
             clang: error: linker command failed with exit code 1\n\
             2 errors generated.\n",
            bot = bot.display(),
            notes = notes.display(),
            sdk = sdk.display(),
        );
        let expected = format!(
            "In file included from {bot}:1:\n\
             /etc/passwd:1:1: error: {MESSAGE_NOT_SHOWN}\n    {EXCERPT_NOT_SHOWN}\n\
             {bot}:4:5: error: use of undeclared identifier 'x'\n    x = 1;\n    ^\n\
             {notes}:2:1: note: {MESSAGE_NOT_SHOWN}\n    {EXCERPT_NOT_SHOWN}\n\
             {sdk}:9:1: note: declared here\nint botlens_attack(int x, int y);\n^\n\
             wasm-ld: error: undefined symbol: bot_play\n\
             clang: error: linker command failed with exit code 1\n\
             2 errors generated.\n",
            bot = bot.display(),
            notes = notes.display(),
            sdk = sdk.display(),
        );
        assert_eq!(clang_output(&stderr, &shown), expected);
        let messages = crate::toolchain::c::diagnostics(&clang_output(&stderr, &shown));
        let first = &messages[0];
        assert_eq!(
            (first.file.as_deref(), first.line, first.message.as_str()),
            (Some(Path::new("/etc/passwd")), 1, MESSAGE_NOT_SHOWN)
        );
        let passwd = std::fs::read_to_string("/etc/passwd").unwrap();
        for message in &messages {
            for line in passwd.lines().filter(|line| !line.trim().is_empty()) {
                assert!(!message.rendered.contains(line), "{line} in {}", message.rendered);
            }
        }
    }

    #[test]
    fn rustcs_excerpts_of_files_outside_are_dropped_and_a_hidden_message_keeps_its_place_alone() {
        let (dir, shown) = project();
        let rendered = "error: expected item, found `root`\n \
            --> /etc/passwd:1:1\n  |\n1 | root:x:0:0:root:/root:/bin/bash\n  | ^^^^ expected item\n  |\n  \
            = note: for a full list of items that can appear in modules, see <https://doc.rust-lang.org/reference/items.html>\n\
            note: the item is included here\n \
            --> src/lib.rs:3:1\n  |\n3 | include!(\"/etc/passwd\");\n  | ^^^^^^^^^^^^^^^^^^^^^^^^\n\n";
        let expected = format!(
            "error: expected item, found `root`\n \
            --> /etc/passwd:1:1\n     {EXCERPT_NOT_SHOWN}\n  \
            = note: for a full list of items that can appear in modules, see <https://doc.rust-lang.org/reference/items.html>\n\
            note: the item is included here\n \
            --> src/lib.rs:3:1\n  |\n3 | include!(\"/etc/passwd\");\n  | ^^^^^^^^^^^^^^^^^^^^^^^^\n\n"
        );
        std::fs::create_dir(dir.path().join("bot/src")).unwrap();
        std::fs::write(dir.path().join("bot/src/lib.rs"), "").unwrap();
        assert_eq!(rustc_rendered(rendered, &shown), expected);
        assert_eq!(
            hidden_rendered(Path::new("/etc/passwd"), 1, 1, "error"),
            format!("/etc/passwd:1:1: error: {MESSAGE_NOT_SHOWN}\n    {EXCERPT_NOT_SHOWN}\n")
        );
    }
}
