//! A person as a [`Player`]: `botlens play` is the match runner with a person in seat
//! [`PERSON`] and, in a two-player game, a reference opponent in seat [`OPPONENT`], so the turn
//! rules (exactly one action a turn, a fault loses, the turn cap) are the runner's, the same as
//! for bots.
//!
//! On the person's turn their player shows the view, reads a line and tries the move on a copy
//! of the game ([`Turn::trial`]) before it counts: garbage, a typo or an illegal move only gets a
//! short message and another prompt, so a person never loses by a slip. `help` shows the
//! commands and what a move looks like. `hint` shows the move the game's hint player
//! ([`Game::HINT_PLAYER`]) would make from this view. `undo` takes back the person's last move
//! and what the opponent did after it: the game is deterministic, so the match is played again
//! from the start, the person's earlier moves made for them unseen, up to that move. `quit`, or
//! the end of the input, leaves the game: the
//! person is told "you left the game", and the turn ends without an action, which the runner
//! records as the person's [`FailureKind::NoMove`] (the game counts as lost). The opponent's
//! moves are announced as it makes them, and the final board and who won close the transcript.
//!
//! No I/O of its own, as everywhere in the engine: [`play`] reads only the [`BufRead`] and
//! writes only the [`Write`] its caller hands it (the CLI: stdin and stdout; tests: a script and
//! a buffer), and has no clock, so the same seed and the same lines give the same transcript.
//! The person and the announcer of the opponent's moves share the output through a mutex only
//! because a [`Player`] must be `Send`; nothing runs on another thread.

use std::fmt;
use std::io::{self, BufRead, Write};
use std::sync::{Mutex, PoisonError};

use crate::{
    Failure, FailureKind, Game, MatchLimits, MatchRecord, Player, ReferencePlayer, Seat, SeedRng,
    Stream, Turn, runner,
};

/// The person's seat. The seed decides who moves first, exactly as in bot games.
pub const PERSON: Seat = 0;
/// The reference opponent's seat in a two-player game.
pub const OPPONENT: Seat = 1;

/// Plays one game of `G` from `config` and `seed` with a person who types `input` and is shown
/// `out`, against `opponent` in a two-player game (`None` for a one-seat game such as a puzzle),
/// and returns the runner's record of it. The opponent draws its choices from its usual
/// `Stream::Player(1)` rng, so the same seed and lines replay the same game.
///
/// # Errors
///
/// Reading `input` or writing `out` failed; the person left the game at that point.
///
/// # Panics
///
/// If `opponent` does not fit the game: none for a two-seat game, or one for a one-seat game (a
/// caller bug, as in [`runner::play_match`]).
pub fn play<G: Game>(
    config: &G::Config,
    seed: u64,
    opponent: Option<ReferencePlayer<G>>,
    input: impl BufRead + Send,
    out: impl Write + Send,
) -> io::Result<MatchRecord<G>> {
    let console = Console::new(out);
    let name = opponent.map(|reference| reference.name);
    console.say(format_args!("{}\n", welcome(&G::new(config, seed), seed, name)));
    let mut person =
        Person { input, console: &console, seed, made: Vec::new(), replay: Vec::new() };
    let record = loop {
        let record = {
            let mut rival = opponent.map(|reference| Announced {
                player: (reference.create)(SeedRng::new(seed, Stream::Player(OPPONENT))),
                name: reference.name,
                console: &console,
            });
            let mut players: Vec<&mut dyn Player<G>> = vec![&mut person];
            players.extend(rival.as_mut().map(|rival| rival as &mut dyn Player<G>));
            runner::play_match(config, seed, &mut players, &MatchLimits::default())
        };
        if !console.take_undo() {
            break record;
        }
        // The match again, the person's moves but the last made for them, unseen.
        person.made.pop();
        person.replay = person.made.drain(..).rev().collect();
        console.mute(true);
    };
    if let Some(verdict) = verdict(&record, name.unwrap_or("the opponent")) {
        console.say(format_args!("\n{}\n{verdict}\n", record.last.render().trim_end()));
    }
    console.finish()?;
    Ok(record)
}

/// The first line: the game, the opponent, the seed and who moves first.
fn welcome<G: Game>(start: &G, seed: u64, opponent: Option<&str>) -> String {
    let table = match opponent {
        Some(name) => {
            let first = if start.to_move() == PERSON { "you move" } else { name };
            format!("{} against {name}, seed {seed}: {first} first.", G::NAME)
        }
        None => format!("{}, seed {seed}.", G::NAME),
    };
    format!("{table} Type a move, `help` or `quit`.")
}

/// The last line, for a game that was played out: who won and why. `None` when the person left
/// (they have been told so already).
fn verdict<G: Game>(record: &MatchRecord<G>, opponent: &str) -> Option<String> {
    let outcome = &record.outcome;
    let reason = &outcome.reason;
    Some(match (&outcome.fault, outcome.winner) {
        (Some(fault), _) if fault.seat == PERSON => return None,
        (Some(fault), _) => format!("You won: {opponent} lost by fault: {}", fault.failure),
        (None, Some(PERSON)) => format!("You won: {reason}"),
        (None, Some(_)) => format!("{opponent} won: {reason}"),
        (None, None) if record.initial.seats() == 1 => format!("Not solved: {reason}"),
        (None, None) => format!("Draw: {reason}"),
    })
}

/// A move as the transcript shows it, `you: mark(1, 1) -> Marked { … }`, with a note when it
/// achieved nothing (a Battleships re-attack).
fn made<G: Game>(who: &str, turn: &Turn<G>) -> Option<String> {
    let (action, response) = (turn.action()?, turn.response()?);
    let wasted = if turn.wasted() { " (a wasted move)" } else { "" };
    Some(format!("{who}: {action} -> {response:?}{wasted}"))
}

/// The output both players write to, in the order they write, and the first error writing it
/// (or reading the input) met. After an error nothing more is written.
struct Console<W> {
    state: Mutex<ConsoleState<W>>,
}

struct ConsoleState<W> {
    out: W,
    error: Option<io::Error>,
    /// Whether output is dropped (while a match is replayed up to an undone move).
    muted: bool,
    /// Whether the person asked to undo their last move, which ended the match.
    undo: bool,
}

impl<W: Write> Console<W> {
    fn new(out: W) -> Self {
        Console { state: Mutex::new(ConsoleState { out, error: None, muted: false, undo: false }) }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, ConsoleState<W>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Writes `text` and flushes it, so a prompt shows before the person types.
    fn say(&self, text: fmt::Arguments<'_>) {
        let mut state = self.lock();
        if state.error.is_none() && !state.muted {
            let written = state.out.write_fmt(text).and_then(|()| state.out.flush());
            state.error = written.err();
        }
    }

    /// Drops output (`true`) or writes it again.
    fn mute(&self, muted: bool) {
        self.lock().muted = muted;
    }

    /// Records that the person asked to undo their last move.
    fn ask_undo(&self) {
        self.lock().undo = true;
    }

    /// Whether the person asked to undo their last move, forgetting it.
    fn take_undo(&self) -> bool {
        std::mem::take(&mut self.lock().undo)
    }

    /// Records an error reading the input.
    fn fail(&self, error: io::Error) {
        self.lock().error.get_or_insert(error);
    }

    /// Whether reading or writing has failed.
    fn failed(&self) -> bool {
        self.lock().error.is_some()
    }

    /// The first error met, if any.
    fn finish(self) -> io::Result<()> {
        let state = self.state.into_inner().unwrap_or_else(PoisonError::into_inner);
        state.error.map_or(Ok(()), Err)
    }
}

/// The person at the keyboard: reads lines until one is a legal move, or until they leave.
struct Person<'c, G: Game, R, W> {
    input: R,
    console: &'c Console<W>,
    /// The game's seed, for the hint player's randomness.
    seed: u64,
    /// The person's moves in this match so far, in order.
    made: Vec<G::Action>,
    /// Moves to make for the person, unseen, before asking again: the last first (a match
    /// replayed up to an undone move).
    replay: Vec<G::Action>,
}

impl<G: Game, R: BufRead, W: Write> Person<'_, G, R, W> {
    /// The next line, or `None` when the input has ended (the person is told they left) or
    /// failed.
    fn read_line(&mut self) -> Option<String> {
        let mut bytes = Vec::new();
        match self.input.read_until(b'\n', &mut bytes) {
            Ok(0) => {
                self.console.say(format_args!("\nend of input: you left the game\n"));
                None
            }
            Ok(_) => Some(String::from_utf8_lossy(&bytes).into_owned()),
            Err(error) => {
                self.console.fail(error);
                None
            }
        }
    }

    /// The commands, and what a move looks like in game `G` (its parser's answer to nothing).
    fn help(&self) {
        let hint = match G::HINT_PLAYER {
            Some(name) => format!(", `hint` shows what {name} would play"),
            None => String::new(),
        };
        self.console.say(format_args!(
            "commands: `help` shows this{hint}, `undo` takes back your last move, `quit` leaves the game\n"
        ));
        if let Err(expected) = G::parse_action("") {
            self.console.say(format_args!("a move: {expected}\n"));
        }
    }

    /// The move the game's hint player would make on `turn`, said to the person.
    fn hint(&self, turn: &Turn<G>) {
        let Some(reference) = G::HINT_PLAYER.and_then(|name| ReferencePlayer::<G>::find(name).ok())
        else {
            return self.console.say(format_args!("no hints in {}\n", G::NAME));
        };
        let mut player = (reference.create)(SeedRng::new(self.seed, Stream::Player(PERSON)));
        let mut scratch = Turn::new(turn.game().clone(), turn.seat(), turn.number());
        match (player.play(&mut scratch), scratch.action()) {
            (Ok(()), Some(action)) => {
                self.console
                    .say(format_args!("hint: {action} ({} would play it)\n", reference.name));
            }
            _ => self.console.say(format_args!("no hint here: {} has no move\n", reference.name)),
        }
    }
}

impl<G: Game, R: BufRead + Send, W: Write + Send> Player<G> for Person<'_, G, R, W> {
    fn play(&mut self, turn: &mut Turn<G>) -> Result<(), Failure> {
        let left = || Failure::new(FailureKind::NoMove, "the person left the game");
        if let Some(action) = self.replay.pop() {
            self.made.push(action.clone());
            turn.act(action)?;
            return Ok(());
        }
        if self.console.lock().muted {
            self.console.mute(false);
            self.console.say(format_args!("undone: your last move, and what followed it\n"));
        }
        self.console.say(format_args!("\n{}", G::render_view(&turn.view())));
        loop {
            self.console.say(format_args!("your move> "));
            if self.console.failed() {
                return Err(left());
            }
            let Some(line) = self.read_line() else { return Err(left()) };
            match line.trim() {
                "" => {}
                "help" => self.help(),
                "hint" => self.hint(turn),
                "undo" if self.made.is_empty() => {
                    self.console.say(format_args!("nothing to undo: you have not moved yet\n"));
                }
                "undo" => {
                    self.console.ask_undo();
                    return Err(Failure::new(FailureKind::NoMove, "the person took a move back"));
                }
                "quit" => {
                    self.console.say(format_args!("you left the game\n"));
                    return Err(left());
                }
                text => match G::parse_action(text) {
                    // The game's message quotes what was typed, escape sequences and all.
                    Err(expected) => self
                        .console
                        .say(format_args!("not a move: {}\n", crate::text::printable(&expected))),
                    Ok(action) => match turn.trial(&action) {
                        Err(illegal) => {
                            self.console.say(format_args!("illegal move {action}: {illegal}\n"));
                        }
                        Ok(_) => {
                            self.made.push(action.clone());
                            turn.act(action)?;
                            if let Some(line) = made("you", turn) {
                                self.console.say(format_args!("{line}\n"));
                            }
                            return Ok(());
                        }
                    },
                },
            }
        }
    }
}

/// The opponent, announcing each move it makes to the person.
struct Announced<'c, G: Game, W> {
    player: Box<dyn Player<G>>,
    name: &'static str,
    console: &'c Console<W>,
}

impl<G: Game, W: Write + Send> Player<G> for Announced<'_, G, W> {
    fn play(&mut self, turn: &mut Turn<G>) -> Result<(), Failure> {
        let played = self.player.play(turn);
        if let (Ok(()), None, Some(line)) = (&played, turn.failure(), made(self.name, turn)) {
            self.console.say(format_args!("{line}\n"));
        }
        played
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Count;

    /// Plays Count against the reference player `vs` on scripted `input`: the record and the
    /// transcript.
    fn run(vs: &str, input: &str) -> (MatchRecord<Count>, String) {
        let opponent = ReferencePlayer::<Count>::find(vs).expect("a Count player");
        let mut out = Vec::new();
        let record = play::<Count>(&(), 0, Some(opponent), input.as_bytes(), &mut out)
            .expect("in-memory I/O");
        (record, String::from_utf8(out).expect("UTF-8 transcript"))
    }

    /// The fault that ended the game: its seat and message.
    fn fault(record: &MatchRecord<Count>) -> Option<(Seat, String)> {
        record.outcome.fault.as_ref().map(|f| (f.seat, f.failure.to_string()))
    }

    #[test]
    fn a_game_played_out_is_announced_move_by_move_and_judged() {
        let (record, transcript) = run("steady", "1\n1\n1\n");
        assert_eq!(record.outcome.winner, Some(PERSON), "{transcript}");
        assert!(transcript.starts_with("count against steady, seed 0: you move first. "));
        assert_eq!(transcript.matches("you: add 1 -> ").count(), 3, "{transcript}");
        assert_eq!(transcript.matches("steady: add 1 -> ").count(), 2, "{transcript}");
        assert!(transcript.ends_with("\n3 : 2\nYou won: reached 3\n"), "{transcript}");

        let (record, transcript) = run("steady", "0\n0\n0\n");
        assert_eq!(record.outcome.winner, Some(OPPONENT));
        assert!(transcript.ends_with("\n0 : 3\nsteady won: reached 3\n"), "{transcript}");
    }

    #[test]
    fn garbage_and_illegal_moves_are_refused_without_spending_the_turn() {
        let (record, transcript) = run("steady", "seven\n\n5\n2\n");
        let prompts = transcript.matches("your move> ").count();
        assert_eq!(prompts, 5, "one per line, then the next turn's:\n{transcript}");
        assert!(transcript.contains("not a move: a number\n"), "{transcript}");
        assert!(transcript.contains("illegal move add 5: at most 2 at a time\n"), "{transcript}");
        assert_eq!(record.moves[0].action, Some(crate::testing::CountAction::Add(2)));
        assert_eq!(record.last.totals, [2, 1]);
    }

    #[test]
    fn quit_and_the_end_of_input_leave_the_game_which_the_runner_records_as_lost() {
        let (record, transcript) = run("steady", "1\nquit\n2\n");
        assert!(transcript.ends_with("your move> you left the game\n"), "{transcript}");
        assert_eq!(fault(&record), Some((PERSON, "no_move: the person left the game".into())));
        assert_eq!((record.outcome.winner, record.moves.len()), (Some(OPPONENT), 3));

        let (record, transcript) = run("steady", "1\n");
        assert!(transcript.ends_with("\nend of input: you left the game\n"), "{transcript}");
        assert_eq!(fault(&record), Some((PERSON, "no_move: the person left the game".into())));
    }

    #[test]
    fn help_lists_the_commands_and_the_move_format() {
        let (record, transcript) = run("steady", "help\nquit\n");
        assert!(transcript.contains(
            "commands: `help` shows this, `hint` shows what steady would play, `undo` takes back your last move, `quit` leaves the game\n"
        ));
        assert!(transcript.contains("a move: a number\n"), "{transcript}");
        assert_eq!(record.moves.len(), 1, "only the turn the person left on");
    }

    #[test]
    fn a_hint_is_the_hint_players_move_from_this_view_and_spends_nothing() {
        let (record, transcript) = run("steady", "hint\n2\nhint\n1\n");
        assert_eq!(transcript.matches("hint: add 1 (steady would play it)\n").count(), 2);
        assert_eq!(record.moves[0].action, Some(crate::testing::CountAction::Add(2)));
        assert_eq!(record.outcome.winner, Some(PERSON), "{transcript}");
    }

    #[test]
    fn undo_takes_back_the_last_move_and_what_followed_it() {
        // 1 (steady 1), 1 (steady 1), undo: back to after the first exchange; then 2 wins.
        let (record, transcript) = run("steady", "undo\n1\n1\nundo\n2\n");
        assert!(transcript.contains("nothing to undo: you have not moved yet\n"), "{transcript}");
        assert_eq!(transcript.matches("undone: your last move, and what followed it\n").count(), 1);
        assert_eq!(record.outcome.winner, Some(PERSON), "{transcript}");
        assert_eq!(record.last.totals, [3, 1], "{transcript}");
        let person: Vec<_> =
            record.moves.iter().filter(|m| m.seat == PERSON).map(|m| m.action.clone()).collect();
        let add = |n| Some(crate::testing::CountAction::Add(n));
        assert_eq!(person, [add(1), add(2)], "the undone move is gone from the record");
        // The replayed exchange is not shown again; the verdict is the replayed match's.
        assert_eq!(transcript.matches("steady: add 1 -> ").count(), 2, "{transcript}");
        assert!(transcript.ends_with("\n3 : 1\nYou won: reached 3\n"), "{transcript}");
    }

    #[test]
    fn an_opponent_fault_loses_the_game_for_it() {
        let (record, transcript) = run("idle", "1\n");
        assert_eq!(fault(&record).map(|(seat, _)| seat), Some(OPPONENT));
        assert_eq!(record.outcome.winner, Some(PERSON));
        let verdict = "You won: idle lost by fault: no_move: the turn ended without an action\n";
        assert!(transcript.ends_with(verdict), "{transcript}");
        assert!(!transcript.contains("idle: "), "a turn without a move announces nothing");
    }

    /// Fails every read or write.
    struct Broken;

    impl io::Read for Broken {
        fn read(&mut self, _buf: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::other("unplugged"))
        }
    }

    impl BufRead for Broken {
        fn fill_buf(&mut self) -> io::Result<&[u8]> {
            Err(io::Error::other("unplugged"))
        }
        fn consume(&mut self, _amount: usize) {}
    }

    impl Write for Broken {
        fn write(&mut self, _buf: &[u8]) -> io::Result<usize> {
            Err(io::Error::other("unplugged"))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn failing_input_or_output_ends_the_game_and_comes_back_as_the_error() {
        let steady = || ReferencePlayer::<Count>::find("steady").ok();
        let error = play::<Count>(&(), 0, steady(), Broken, Vec::new()).unwrap_err();
        assert_eq!(error.to_string(), "unplugged");
        let error = play::<Count>(&(), 0, steady(), &b"1\n1\n1\n"[..], Broken).unwrap_err();
        assert_eq!(error.to_string(), "unplugged");
    }
}
