//! The `botlens` binary: parses flags, runs one command, prints the error chain once and maps it
//! to an exit code. All game logic lives in the library crates; each command's glue lives in
//! `commands/`.
//!
//! Exit codes: 0 success; 1 a negative result (a game lost by a bot fault, an unsolvable layout);
//! 2 bad usage or bad input (unknown names, malformed files).
//!
//! A reader that closes standard output early (`botlens run … | head -1`) is not an error: the
//! command stops at the write that found the pipe closed and botlens exits 0, printing nothing,
//! as `head` took what it wanted. Commands do not check for this themselves: any broken pipe in
//! an error's chain ends the process this way (botlens writes to no pipe but its standard
//! streams).
//!
//! Error messages quote names and messages from untrusted places (trace files, layout files,
//! bots), so the chain is printed through `botlens_engine::text::printable_lines`: an escape
//! sequence in it is shown, not obeyed by the terminal. In GitHub Actions, nothing botlens
//! prints is read as a workflow command but its own annotations (`workflow`).

mod commands;
mod shared;
mod workflow;

use std::io;
use std::process::ExitCode;

use botlens_engine::text::printable_lines;
use clap::Parser;

fn main() -> ExitCode {
    let cli = commands::Cli::parse();
    if let Err(error) = workflow::stop(None) {
        eprintln!("botlens: error: {error}");
        return ExitCode::from(2);
    }
    let code = match commands::run(cli) {
        Ok(code) => code,
        Err(err) if closed_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("botlens: error: {}", printable_lines(&format!("{err:#}")));
            ExitCode::from(2)
        }
    };
    // The rest of the step reads workflow commands again.
    let _ = workflow::resume(&mut io::stderr());
    code
}

/// Whether `err` comes from writing to a pipe whose reader has gone.
fn closed_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause.downcast_ref::<io::Error>().is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}
