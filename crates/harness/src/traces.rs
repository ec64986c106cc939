//! Writing traces to disk atomically: a reader never sees half a trace, and a crash never leaves
//! one behind.
//!
//! Files are named `<opponent>-seed<N>.json` inside the chosen directory (a paired suite's game
//! with the bot in seat 1: `<opponent>-seed<N>-seat1.json`); each is written to a temporary file
//! in the same directory and renamed into place.

use std::io::Write;
use std::path::{Path, PathBuf};

use botlens_engine::Trace;

/// The file name a trace of a game against `opponent` on `seed`, the bot in `bot_seat`, gets.
pub fn file_name(opponent: &str, seed: u64, bot_seat: usize) -> String {
    let safe: String = opponent
        .chars()
        .map(|c| if c.is_alphanumeric() || c == '-' || c == '_' { c } else { '_' })
        .collect();
    match bot_seat {
        0 => format!("{safe}-seed{seed}.json"),
        seat => format!("{safe}-seed{seed}-seat{seat}.json"),
    }
}

/// Writes `trace` into `dir` (created if missing) atomically; returns the final path.
pub fn write_atomically(dir: &Path, name: &str, trace: &Trace) -> std::io::Result<PathBuf> {
    write_file_atomically(dir, name, trace.to_json().as_bytes())
}

/// Writes `bytes` as the file `name` in `dir` (created if missing) atomically: into a
/// temporary file there, then renamed into place; returns the final path.
pub fn write_file_atomically(dir: &Path, name: &str, bytes: &[u8]) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let path = dir.join(name);
    let temp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&temp, &path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result.map(|()| path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_safe_for_any_opponent() {
        assert_eq!(file_name("hunter", 4, 0), "hunter-seed4.json");
        assert_eq!(file_name("hunter", 4, 1), "hunter-seed4-seat1.json");
        assert_eq!(file_name("../bots/x.wasm", 1, 0), "___bots_x_wasm-seed1.json");
    }
}
