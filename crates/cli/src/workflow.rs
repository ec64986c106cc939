//! In GitHub Actions, no text botlens prints is read as a workflow command but its own
//! annotations.
//!
//! GitHub's runner reads every line of a step's output, standard output and standard error
//! alike, for workflow commands (`::error …`, `::add-mask::…`, `::stop-commands::…`). botlens
//! prints what bots and bot projects chose: a compiler's errors quoting the bot's source, the
//! bot's panic messages, names of files and functions, in tables, progress and error messages.
//! A bot in a pull request from anyone must not write commands through them. So with
//! `GITHUB_ACTIONS=true` botlens stops the runner reading commands before it prints anything
//! ([`stop`]: `::stop-commands::<token>` on standard error, with a random token no bot can
//! guess), resumes it only around its own annotations ([`unguarded`]), and resumes it when it
//! exits ([`resume`]), so that the rest of the step reads commands as before.
//!
//! Elsewhere nothing is printed.

use std::io::{self, Write};
use std::sync::Mutex;

/// The line that resumes the runner, while it is stopped.
static STOPPED: Mutex<Option<String>> = Mutex::new(None);

/// Whether botlens runs in GitHub Actions (`GITHUB_ACTIONS=true`, which GitHub sets).
pub fn in_github_actions() -> bool {
    std::env::var("GITHUB_ACTIONS").is_ok_and(|value| value == "true")
}

/// In GitHub Actions, stops the runner reading workflow commands, with a new random token, by a
/// line on standard error (or on `out`, given); elsewhere does nothing.
pub fn stop(out: Option<&mut dyn Write>) -> io::Result<()> {
    if !in_github_actions() {
        return Ok(());
    }
    let mut token = [0u8; 16];
    getrandom::fill(&mut token)
        .map_err(|error| io::Error::other(format!("no randomness: {error}")))?;
    let token: String = token.iter().map(|byte| format!("{byte:02x}")).collect();
    let (stop, resume) = botlens_ci::github::stop_commands(&token);
    let mut stderr = io::stderr().lock();
    let out = out.unwrap_or(&mut stderr);
    out.write_all(stop.as_bytes())?;
    out.flush()?;
    *STOPPED.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(resume);
    Ok(())
}

/// Resumes the runner reading workflow commands, if botlens stopped it, by a line on `out`.
pub fn resume(out: &mut dyn Write) -> io::Result<()> {
    let line = STOPPED.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take();
    if let Some(line) = line {
        out.write_all(line.as_bytes())?;
        out.flush()?;
    }
    Ok(())
}

/// Writes `commands`, botlens's own workflow commands, to `out` where the runner reads them:
/// resumed before them, stopped again (with a new token) after, all on `out`.
pub fn unguarded(out: &mut dyn Write, commands: &str) -> io::Result<()> {
    let stopped = STOPPED.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).is_some();
    resume(out)?;
    out.write_all(commands.as_bytes())?;
    if stopped {
        stop(Some(out))?;
    }
    out.flush()
}
