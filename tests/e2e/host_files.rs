//! No host byte enters a report through the files botlens reads itself or the compiler's
//! messages: a bot folder's files are read only inside it, only if regular, and only up to a
//! bound (a header linked to `/dev/zero`, a FIFO, a 4 GB sparse source cost nothing and hang
//! nothing); a folder's settings name no file outside it; and clang's messages about a host
//! file it was made to include quote none of it.
//!
//! The C tests run clang (0.2 s a bot), as `tests/e2e/c.rs` does.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::support::{Output, Tool, botlens_with_input, repo_root, require};

/// Long enough for a C bot's build on a busy machine; far shorter than reading `/dev/zero`.
const DEADLINE: Duration = Duration::from_secs(120);

/// A Tic-tac-toe C bot that marks the first empty square, with `extra` at its top.
fn c_bot(extra: &str) -> String {
    format!(
        "#include \"botlens.h\"\n{extra}\n\
         void bot_new(int seat) {{ (void)seat; }}\n\
         void bot_play(void) {{\n\
         \x20 botlens_tictactoe_view view = botlens_tictactoe();\n\
         \x20 for (int i = 0; i < 9; i++) {{\n\
         \x20   if (botlens_cell(view.board, i % 3, i / 3) == '.') {{ botlens_mark(i % 3, i / 3); return; }}\n\
         \x20 }}\n\
         }}\n"
    )
}

/// The folder `dir` named relative to where botlens runs (the repository), as a user in
/// another folder names it.
fn relative(dir: &Path) -> String {
    let up = "../".repeat(repo_root().components().count() - 1);
    format!("{up}{}", dir.strip_prefix("/").expect("an absolute folder").display())
}

/// `botlens run <dir> --vs random --seeds 0..2 --json` of a Tic-tac-toe bot folder `dir`, named
/// [`relative`]ly.
fn run(dir: &Path) -> Output {
    std::fs::write(dir.join("botlens.toml"), "game = \"tictactoe\"\n").expect("its settings");
    let dir = relative(dir);
    botlens_with_input(&["run", &dir, "--vs", "random", "--seeds", "0..2", "--json"], "", DEADLINE)
}

/// Whether `text` holds a line of `/etc/passwd` (a file every user may read).
fn quotes_passwd(text: &str) -> Option<String> {
    let passwd = std::fs::read_to_string("/etc/passwd").expect("/etc/passwd");
    passwd
        .lines()
        .map(str::trim)
        .filter(|l| l.len() > 4)
        .find(|l| text.contains(l))
        .map(str::to_owned)
}

#[test]
fn a_c_bot_including_a_host_file_gets_a_message_that_quotes_none_of_it() {
    if !require(&[Tool::Clang]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink("/etc/passwd", dir.path().join("notes.h")).unwrap();
    for include in [
        "#include \"/etc/passwd\"",
        "#include \"notes.h\"",
        "#include \"../../../../../../etc/passwd\"",
    ] {
        std::fs::write(dir.path().join("bot.c"), c_bot(include)).unwrap();
        let out = run(dir.path());
        assert_eq!(out.code, Some(2), "{include}: {}\n{}", out.stdout, out.stderr);
        assert!(out.stderr.contains("the bot does not compile"), "{include}: {}", out.stderr);
        for text in [&out.stdout, &out.stderr] {
            assert_eq!(quotes_passwd(text), None, "{include}: {text}");
        }
    }
}

#[test]
fn headers_that_are_links_out_fifos_or_devices_are_not_read_and_a_huge_source_is_refused() {
    if !require(&[Tool::Clang]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bot.c"), c_bot("")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero.h")).unwrap();
    let fifo = std::process::Command::new("mkfifo").arg(dir.path().join("pipe.h")).status();
    assert!(fifo.is_ok_and(|status| status.success()), "mkfifo");
    let started = Instant::now();
    let out = run(dir.path());
    assert_eq!(out.code, Some(0), "neither header is the bot's: {}\n{}", out.stdout, out.stderr);
    assert!(started.elapsed() < Duration::from_secs(60), "took {:?}", started.elapsed());

    let huge = tempfile::tempdir().unwrap();
    std::fs::File::create(huge.path().join("bot.c"))
        .and_then(|f| f.set_len(4 << 30))
        .expect("a sparse 4 GB file");
    let started = Instant::now();
    let out = run(huge.path());
    assert!(started.elapsed() < Duration::from_secs(10), "took {:?}", started.elapsed());
    assert_eq!(out.code, Some(2), "{}\n{}", out.stdout, out.stderr);
    assert_eq!(
        out.stderr,
        format!(
            "botlens: error: cannot read {}/{}/bot.c: larger than 4 MiB, the most botlens reads of it\n",
            repo_root().display(),
            relative(huge.path())
        )
    );
}

#[test]
fn a_folder_that_names_a_host_file_as_its_bot_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let settings = "game = \"tictactoe\"\nbot = \"/etc/hostname\"\n";
    std::fs::write(dir.path().join("botlens.toml"), settings).unwrap();
    std::fs::write(dir.path().join("bot.js"), "function Bot() {}\n").unwrap();
    let hostname = std::fs::read_to_string("/etc/hostname").unwrap_or_default();
    let out = botlens_with_input(&["run", &dir.path().display().to_string()], "", DEADLINE);
    assert_eq!(out.code, Some(2), "{}\n{}", out.stdout, out.stderr);
    assert_eq!(
        out.stderr,
        format!(
            "botlens: error: {}: bot = \"/etc/hostname\" leads outside the bot's folder (by an \
             absolute path, `..` or a symbolic link): name a .js file inside it\n",
            dir.path().join("botlens.toml").display()
        )
    );
    let name = hostname.trim();
    assert!(name.is_empty() || !out.stderr.contains(&format!("{name}\n")), "{}", out.stderr);
}
