//! What commands write on stdout: a report as JSON or as text, or plain text.

use std::io::{self, Write};

/// Writes a command's result to stdout as one JSON object and a newline (`--json`), or as the
/// text `render` makes of it.
pub fn print_report<T: serde::Serialize>(
    json: bool,
    report: &T,
    render: impl Fn(&T) -> String,
) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    if json {
        serde_json::to_writer(&mut stdout, report)?;
        writeln!(stdout)?;
    } else {
        write!(stdout, "{}", render(report))?;
    }
    Ok(())
}

/// Writes command output to stdout (a reader that went away, `| head`, is `main`'s to handle).
pub fn emit(text: &str) -> io::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()
}
