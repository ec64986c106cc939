//! The `botlens` binary: parses flags, runs one command, prints the error chain once and maps it
//! to an exit code. All game logic lives in the library crates; each command's glue lives in
//! `commands/`.
//!
//! Exit codes: 0 success; 1 a negative result (a game lost by a bot fault, an unsolvable layout);
//! 2 bad usage or bad input (unknown names, malformed files).

mod commands;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = commands::Cli::parse();
    match commands::run(cli) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("botlens: error: {err:#}");
            ExitCode::from(2)
        }
    }
}
