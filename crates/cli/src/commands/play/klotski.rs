//! `botlens play klotski`: the terminal side of a [`PlaySession`]. Reads lines from stdin, prints
//! what the session answers; the end of input leaves cleanly. All game logic, commands and
//! messages live in `botlens_klotski::PlaySession`.

use std::io::{self, BufRead, Write};
use std::path::Path;
use std::process::ExitCode;

use botlens_klotski::{Labels, Layout, PlaySession};

use crate::shared::layout::load_layout;

/// Plays Klotski on stdin/stdout: `layout` is a bundled name or a file (default 横刀立马);
/// `ascii` draws codes instead of CJK names.
pub fn run(layout: Option<&Path>, ascii: bool) -> anyhow::Result<ExitCode> {
    let layout = match layout {
        Some(arg) => load_layout(arg)?,
        None => Layout::default(),
    };
    let labels = if ascii { Labels::Codes } else { Labels::Names };
    let mut session = PlaySession::new(layout, labels);
    let mut input = io::stdin().lock();
    let mut out = io::stdout().lock();
    writeln!(out, "{}", session.welcome())?;
    let mut line = Vec::new();
    while !session.is_finished() {
        write!(out, "{}", session.prompt())?;
        out.flush()?;
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            writeln!(out)?;
            break;
        }
        let reply = session.handle(&String::from_utf8_lossy(&line));
        if !reply.is_empty() {
            writeln!(out, "{reply}")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
