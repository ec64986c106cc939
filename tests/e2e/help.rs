//! Every command's `--help` ends with examples of itself, as an installed `botlens` is typed
//! (never `cargo run …`), as the README promises.

use crate::support::botlens;

/// The subcommands `botlens --help` lists.
fn commands() -> Vec<String> {
    let help = botlens(&["--help"]);
    assert_eq!(help.code, Some(0), "{}", help.stderr);
    let listed = help.stdout.split("Commands:").nth(1).expect("a command list");
    listed
        .lines()
        .skip(1)
        .take_while(|line| !line.trim().is_empty())
        .filter(|line| !line.starts_with("   ")) // an about wrapped onto the next line
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_command_shows_examples_of_itself() {
    let commands = commands();
    assert!(commands.len() >= 9, "{commands:?}");
    for command in commands {
        let help = botlens(&[&command, "--help"]);
        assert_eq!(help.code, Some(0), "{command}: {}", help.stderr);
        let example = format!("botlens {command} ");
        let shown =
            help.stdout.lines().filter(|line| line.trim_start().starts_with(&example)).count();
        let piped = help.stdout.contains(&format!("| botlens {command}"));
        assert!(shown + usize::from(piped) >= 1, "no example of `{example}…` in:\n{}", help.stdout);
        assert!(!help.stdout.contains("cargo run"), "{command} --help shows cargo run");
    }
}

#[test]
fn lsp_help_lists_its_settings() {
    let help = botlens(&["lsp", "--help"]);
    for setting in ["opponents", "seeds", "maxTurns", "publishBuildErrors"] {
        assert!(help.stdout.contains(setting), "{setting} in:\n{}", help.stdout);
    }
}
