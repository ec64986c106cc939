//! `botlens new <game> <dir> [--lang rust|c|js|zig|assemblyscript]`: scaffold a bot project (Rust,
//! by default) or a C, JavaScript, Zig or AssemblyScript bot folder that builds and runs as is, then say what to do next. The files themselves come
//! from `botlens_harness::scaffold`.
//!
//! Exit codes: 0 written; 2 for an unknown game, a non-empty directory or a missing SDK.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use botlens_games::GameKind;
use botlens_harness::folder::Lang;
use botlens_harness::target::shell_word;
use botlens_harness::{bundled, scaffold};
use clap::Args;

use super::game_arg::GameArg;

/// Arguments of `botlens new`.
#[derive(Debug, Args)]
#[command(after_help = "The project gets Cargo.toml (with the botlens settings in \
[package.metadata.botlens]), src/lib.rs (a simple bot that plays legal moves, with comments \
on the SDK), README.md and .gitignore. The crate is named after the directory.

With --lang c: botlens.toml, bot.c (including botlens.h, which botlens carries) and README.md;
with --lang js: botlens.toml, bot.js (the arena's format) and README.md; with --lang
assemblyscript: botlens.toml, bot.ts (importing the package botlens, which botlens carries) and
README.md.

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
    #[arg(long, value_enum, default_value = "rust")]
    lang: NewLang,
    /// The botlens SDK crate to depend on [default: the SDK bundled with this botlens, unpacked
    /// into botlens's cache directory].
    #[arg(long, value_name = "PATH")]
    sdk: Option<PathBuf>,
}

/// The languages `botlens new` writes a bot in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum NewLang {
    /// A Cargo package with the Rust SDK.
    Rust,
    /// A folder with bot.c and the C SDK, botlens.h.
    C,
    /// A folder with bot.js in the old arena's format.
    Js,
    /// A folder with bot.zig and the Zig SDK, botlens.zig.
    Zig,
    /// A folder with bot.ts and the AssemblyScript SDK, the package botlens.
    #[value(alias = "as")]
    Assemblyscript,
}

/// Runs `botlens new`.
pub fn run(args: NewArgs) -> anyhow::Result<ExitCode> {
    let game = args.game;
    let folder = match args.lang {
        NewLang::Rust => None,
        NewLang::C => Some(Lang::C),
        NewLang::Js => Some(Lang::JavaScript),
        NewLang::Zig => Some(Lang::Zig),
        NewLang::Assemblyscript => Some(Lang::AssemblyScript),
    };
    if let Some(lang) = folder {
        let made = scaffold::scaffold_folder(lang, game, &args.dir)?;
        let dir = shell_word(&args.dir.display().to_string());
        let bot = args.dir.join(format!("bot.{}", lang.extension()));
        let bot = shell_word(&bot.display().to_string());
        let mut out = std::io::stdout().lock();
        writeln!(out, "created {dir}: a {} bot in {lang}", game.name())?;
        for file in &made.files {
            writeln!(out, "  {}", file.display())?;
        }
        writeln!(out, "with {}, from botlens itself", made.sdk)?;
        writeln!(out, "\nnext:")?;
        writeln!(out, "  botlens run {dir}")?;
        writeln!(out, "    plays the bot's suite; then improve {bot} and run again")?;
        return Ok(ExitCode::SUCCESS);
    }
    let sdk = match args.sdk.clone() {
        Some(sdk) => sdk,
        None => bundled::sdk()?,
    };
    let made = scaffold::scaffold(game, &args.dir, &sdk)?;
    let dir = shell_word(&args.dir.display().to_string());
    let lib = shell_word(&args.dir.join("src").join("lib.rs").display().to_string());
    let mut out = std::io::stdout().lock();
    writeln!(out, "created {dir}: a {} bot, crate `{}`", game.name(), made.crate_name)?;
    for file in &made.files {
        writeln!(out, "  {}", file.display())?;
    }
    let relative =
        if Path::new(&made.sdk).is_relative() { " (relative to the project)" } else { "" };
    writeln!(out, "with the SDK from {}{relative}", made.sdk)?;
    writeln!(out, "\nnext:")?;
    writeln!(out, "  botlens run {dir}")?;
    writeln!(out, "    builds the bot and plays its suite; then improve {lib} and run again")?;
    Ok(ExitCode::SUCCESS)
}
