//! `botlens new <game> <dir> [--lang <language>]`: scaffold a bot in a language of the
//! harness's table (`botlens_bots::toolchain`): a Rust project by default, or a bot folder in
//! any other language, that builds and runs as is, then say what to do next. The files
//! themselves come from the language's `Toolchain::scaffold`.
//!
//! Exit codes: 0 written; 2 for an unknown game or language, a non-empty directory or a missing
//! SDK.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use botlens_bots::target::shell_word;
use botlens_bots::toolchain::Lang;
use botlens_games::GameKind;
use clap::Args;

use crate::shared::game_arg::GameArg;
use crate::shared::lang_arg::LangArg;

/// Arguments of `botlens new`.
#[derive(Debug, Args)]
#[command(after_help = "The project gets Cargo.toml (with the botlens settings in \
[package.metadata.botlens]), src/lib.rs (a simple bot that plays legal moves, with comments \
on the SDK), botlens/ (its own copy of the SDK, so it builds wherever botlens is installed), \
README.md and .gitignore. The crate is named after the directory.

Every new bot also gets .github/workflows/botlens.yml: GitHub Actions plays its suite on each \
push and pull request, shows lost games in code scanning, and fails a pull request that makes \
the bot weaker than its base branch (docs/ci.md).

With --lang and another language: a bot folder in it instead, with botlens.toml, bot.<extension>
(on the SDK for that language, which botlens carries) and README.md.

Examples:
  botlens new battleships my-bot
  botlens new tictactoe my-c-bot --lang c
  botlens new klotski ~/bots/huarong --sdk ~/src/botlens/crates/sdk")]
pub struct NewArgs {
    /// The game the bot plays.
    #[arg(value_parser = GameArg)]
    game: GameKind,
    /// Where to create the project: a new or empty directory.
    dir: PathBuf,
    /// The bot's language.
    #[arg(long, value_parser = LangArg, default_value = "rust")]
    lang: Lang,
    /// The botlens SDK crate to depend on, for a language whose projects depend on it by path
    /// (Rust) [default: a copy of the SDK bundled with this botlens, in the project's
    /// `botlens/`].
    #[arg(long, value_name = "PATH")]
    sdk: Option<PathBuf>,
}

/// Runs `botlens new`.
pub fn run(args: NewArgs) -> anyhow::Result<ExitCode> {
    let (game, lang) = (args.game, args.lang);
    let made = lang.scaffold(game, &args.dir, args.sdk.as_deref())?;
    let dir = shell_word(&args.dir.display().to_string());
    let main = shell_word(&args.dir.join(&made.main).display().to_string());
    let mut out = std::io::stdout().lock();
    writeln!(out, "created {dir}: a {} bot in {lang}, `{}`", game.name(), made.crate_name)?;
    for file in &made.files {
        writeln!(out, "  {}", file.display())?;
    }
    writeln!(out, "with {}", made.uses)?;
    writeln!(out, "\nnext:")?;
    writeln!(out, "  botlens run {dir}")?;
    writeln!(out, "    builds the bot and plays its suite; then improve {main} and run again")?;
    Ok(ExitCode::SUCCESS)
}
