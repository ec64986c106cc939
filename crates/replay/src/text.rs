//! The replay as plain text: a header, then each frame (heading, board, the game's answer, the
//! move's log lines and the failure). What `botlens replay` prints without a terminal, with
//! `--plain`, or for one move with `--at N`.

use std::io::{self, Write};

use crate::{Replay, ReplayError};

/// Writes the header and every frame.
pub fn write_game(out: &mut dyn Write, replay: &Replay) -> io::Result<()> {
    write_header(out, replay)?;
    for index in 0..replay.frames.len() {
        writeln!(out)?;
        write_frame(out, replay, index)?;
    }
    Ok(())
}

/// Writes the header and frame `index` (0 is the start, `n` follows move `n`).
pub fn write_one(out: &mut dyn Write, replay: &Replay, index: usize) -> Result<(), ReplayError> {
    replay.frame(index)?;
    write_header(out, replay)
        .and_then(|()| writeln!(out))
        .and_then(|()| write_frame(out, replay, index))
        .map_err(ReplayError::Print)
}

/// Who played, how it ended and what failed.
fn write_header(out: &mut dyn Write, replay: &Replay) -> io::Result<()> {
    writeln!(
        out,
        "{} · seed {} · {} moves · engine {}",
        replay.game,
        replay.seed,
        replay.move_count(),
        replay.engine_version
    )?;
    for seat in &replay.seats {
        writeln!(out, "{seat}")?;
    }
    writeln!(out, "result: {}", replay.result)?;
    if let Some(failure) = &replay.failure {
        writeln!(out, "failure at move {}: {}: {}", failure.index, failure.kind, failure.message)?;
    }
    Ok(())
}

/// One frame: heading, board, the game's answer, the log lines and the failure of that move.
/// Frames past the end write nothing (callers check with [`Replay::frame`]).
fn write_frame(out: &mut dyn Write, replay: &Replay, index: usize) -> io::Result<()> {
    let Some(frame) = replay.frames.get(index) else { return Ok(()) };
    writeln!(out, "── {} ──", frame.title)?;
    write!(out, "{}", frame.board)?;
    if !frame.board.ends_with('\n') {
        writeln!(out)?;
    }
    let played = index.checked_sub(1).and_then(|position| replay.moves.get(position));
    if let Some(response) = played.and_then(|m| m.response.as_ref()) {
        writeln!(out, "answer: {response}")?;
    }
    if let Some(judged) = played.and_then(|m| m.judged.as_ref()) {
        writeln!(out, "{}", judged.note)?;
    }
    if let Some(cost) = &frame.cost {
        writeln!(out, "cost: {cost}")?;
    }
    if !frame.logs.is_empty() {
        writeln!(out, "log:")?;
        for line in &frame.logs {
            writeln!(out, "  | {line}")?;
        }
    }
    if let Some(failure) = replay.failure.as_ref().filter(|failure| failure.index == index) {
        writeln!(out, "FAILURE")?;
        for line in failure.lines() {
            writeln!(out, "  {line}")?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{assert_printable, bot_project, failed_game, hostile_game};

    fn failed_replay() -> Replay {
        let project = bot_project();
        Replay::from_trace(&failed_game(project.path()), Some(project.path())).expect("replays")
    }

    #[test]
    fn the_whole_game_prints_as_frames() {
        let mut out = Vec::new();
        write_game(&mut out, &failed_replay()).expect("writes to memory");
        insta::assert_snapshot!(String::from_utf8(out).expect("UTF-8"));
    }

    #[test]
    fn one_frame_prints_with_the_header() {
        let replay = failed_replay();
        let mut out = Vec::new();
        write_one(&mut out, &replay, 2).expect("move 2 exists");
        let text = String::from_utf8(out).expect("UTF-8");
        assert!(text.starts_with("tictactoe · seed 1 · 5 moves · engine "), "{text}");
        assert!(text.contains("\n── move 2/5 · seat 1 (scripted) · mark(2, 2) ──\n"), "{text}");
        assert!(text.ends_with(&format!(
            "{}answer: {{\"board\":\"....X...O\"}}\n",
            replay.frames[2].board
        )));
        assert!(!text.contains("move 3/5"), "{text}");
    }

    #[test]
    fn a_hostile_trace_prints_its_escapes_visibly_and_none_raw() {
        let project = bot_project();
        let trace = hostile_game(project.path());
        let replay = Replay::from_trace(&trace, Some(project.path())).expect("replays");
        let mut out = Vec::new();
        write_game(&mut out, &replay).expect("writes to memory");
        let text = String::from_utf8(out).expect("UTF-8");
        assert_printable(&text);
        let mut out = Vec::new();
        write_one(&mut out, &replay, 5).expect("move 5 exists");
        insta::assert_snapshot!(String::from_utf8(out).expect("UTF-8"));
    }

    #[test]
    fn a_frame_past_the_end_is_an_error_and_prints_nothing() {
        let mut out = Vec::new();
        let err = write_one(&mut out, &failed_replay(), 6).unwrap_err();
        assert_eq!(err.to_string(), "there is no move 6: the game has 5 moves (0 is the start)");
        assert!(out.is_empty());
    }
}
