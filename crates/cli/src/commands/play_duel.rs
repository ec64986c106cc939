//! `botlens play tictactoe|battleships`: a person at the keyboard against a reference opponent.
//!
//! Written once over any two-player [`Game`]. The person sits in seat 0 and the opponent in
//! seat 1; the seed decides sides and who moves first exactly as in bot games, and the opponent's
//! choices come from its usual `Stream::Player(1)` rng, so the same seed replays the same game.
//! Every typed move is tried on a clone of the game before it counts: garbage, a typo or an
//! illegal move only gets a short message, and a person never loses by a slip.
//!
//! The session is a loop over any [`BufRead`] and [`Write`], so tests drive it with scripted
//! input. Not for bots: they play through `botlens run` and the engine's runner.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use anyhow::bail;
use botlens_battleships::Battleships;
use botlens_engine::text::printable;
use botlens_engine::{
    Ending, Failure, FailureKind, Game, Player, Seat, SeedRng, Status, Stream, Turn,
};
use botlens_tictactoe::TicTacToe;

/// The person's seat.
const HUMAN: Seat = 0;
/// The reference opponent's seat.
const OPPONENT: Seat = 1;

/// Plays Tic-tac-toe against a reference opponent on stdin/stdout.
pub fn tictactoe(vs: &str, seed: u64) -> anyhow::Result<ExitCode> {
    on_terminal::<TicTacToe>(vs, seed)
}

/// Plays Battleships against a reference opponent on stdin/stdout.
pub fn battleships(vs: &str, seed: u64) -> anyhow::Result<ExitCode> {
    on_terminal::<Battleships>(vs, seed)
}

/// Runs one session on the terminal. Finishing, quitting and closing stdin all exit with 0.
fn on_terminal<G: Game>(vs: &str, seed: u64) -> anyhow::Result<ExitCode> {
    let mut duel = Duel::<G>::new(vs, seed)?;
    duel.play(&mut io::stdin().lock(), &mut io::stdout().lock())?;
    Ok(ExitCode::SUCCESS)
}

/// How a session ended.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Finish {
    /// The game ended under the rules (or by the opponent's fault).
    Over(Ending),
    /// The person typed `quit`.
    Quit,
    /// The input ran out before the game ended.
    EndOfInput,
}

/// One game between the person and a reference opponent.
struct Duel<G: Game> {
    game: G,
    opponent: Box<dyn Player<G>>,
    opponent_name: &'static str,
    seed: u64,
    /// Moves made so far, both seats; the game's turn cap applies as in bot games.
    turns: u32,
}

impl<G: Game> Duel<G> {
    /// Sets up the game from `seed` against the reference opponent named `vs`; an unknown name is
    /// an error listing the valid ones.
    fn new(vs: &str, seed: u64) -> anyhow::Result<Self> {
        let players = G::reference_players();
        let Some(reference) = players.iter().find(|player| player.name == vs) else {
            let names: Vec<&str> = players.iter().map(|player| player.name).collect();
            bail!("unknown {} opponent `{vs}`; choose one of: {}", G::NAME, names.join(", "));
        };
        Ok(Duel {
            game: G::new(&G::Config::default(), seed),
            opponent: (reference.create)(SeedRng::new(seed, Stream::Player(OPPONENT))),
            opponent_name: reference.name,
            seed,
            turns: 0,
        })
    }

    /// Plays until the game ends, the person quits or the input runs out.
    fn play(&mut self, input: &mut impl BufRead, out: &mut impl Write) -> io::Result<Finish> {
        let first = if self.game.to_move() == HUMAN { "you move" } else { self.opponent_name };
        writeln!(
            out,
            "{} against {}, seed {}: {first} first. Type a move, `help` or `quit`.",
            G::NAME,
            self.opponent_name,
            self.seed
        )?;
        let cap = G::DEFAULT_TURN_CAP;
        let ending = loop {
            if let Status::Over(ending) = self.game.status() {
                break ending;
            }
            if self.turns >= cap {
                break self.game.capped(cap);
            }
            if self.game.to_move() == HUMAN {
                if let Some(finish) = self.human_turn(input, out)? {
                    return Ok(finish);
                }
            } else if let Some(ending) = self.opponent_turn(out)? {
                break ending;
            }
            self.turns += 1;
        };
        writeln!(out, "\n{}", self.game.render().trim_end())?;
        match ending.winner {
            Some(HUMAN) => writeln!(out, "You won: {}", ending.reason)?,
            Some(_) => writeln!(out, "{} won: {}", self.opponent_name, ending.reason)?,
            None => writeln!(out, "Draw: {}", ending.reason)?,
        }
        Ok(Finish::Over(ending))
    }

    /// Shows the person's view and reads lines until one is a legal move, which is then made;
    /// `Some` when the person quits or the input ends instead.
    fn human_turn(
        &mut self,
        input: &mut impl BufRead,
        out: &mut impl Write,
    ) -> io::Result<Option<Finish>> {
        write!(out, "\n{}", G::render_view(&self.game.view(HUMAN)))?;
        let mut bytes = Vec::new();
        loop {
            write!(out, "your move> ")?;
            out.flush()?;
            bytes.clear();
            if input.read_until(b'\n', &mut bytes)? == 0 {
                writeln!(out, "\nend of input: leaving the game unfinished")?;
                return Ok(Some(Finish::EndOfInput));
            }
            match String::from_utf8_lossy(&bytes).trim() {
                "" => {}
                "help" => help::<G>(out)?,
                "quit" => {
                    writeln!(out, "you left the game")?;
                    return Ok(Some(Finish::Quit));
                }
                text => match G::parse_action(text) {
                    // The game's message quotes what was typed, escape sequences and all.
                    Err(expected) => writeln!(out, "not a move: {}", printable(&expected))?,
                    Ok(action) => {
                        let mut trial = self.game.clone();
                        match trial.apply(HUMAN, &action) {
                            Err(illegal) => writeln!(out, "illegal move {action}: {illegal}")?,
                            Ok(response) => {
                                self.game = trial;
                                writeln!(
                                    out,
                                    "you: {action} -> {response:?}{}",
                                    wasted::<G>(&response)
                                )?;
                                return Ok(None);
                            }
                        }
                    }
                },
            }
        }
    }

    /// Lets the opponent make its move and shows it; `Some` when it faulted, which loses the game
    /// for it exactly as in the runner.
    fn opponent_turn(&mut self, out: &mut impl Write) -> io::Result<Option<Ending>> {
        let mut turn = Turn::new(std::mem::take(&mut self.game), OPPONENT, self.turns + 1);
        if let Err(failure) = self.opponent.play(&mut turn) {
            turn.fail(failure);
        }
        let fault = turn.failure().cloned();
        let made = turn.action().cloned().zip(turn.response().cloned());
        self.game = turn.into_game();
        let name = self.opponent_name;
        match (made, fault) {
            (Some((action, response)), None) => {
                writeln!(out, "{name}: {action} -> {response:?}{}", wasted::<G>(&response))?;
                Ok(None)
            }
            (_, fault) => {
                let failure = fault.unwrap_or_else(|| {
                    Failure::new(FailureKind::NoMove, "the turn ended without an action")
                });
                Ok(Some(Ending {
                    winner: Some(HUMAN),
                    reason: format!("{name} lost by fault: {failure}"),
                }))
            }
        }
    }
}

/// A note after a legal move that achieved nothing (a Battleships re-attack).
fn wasted<G: Game>(response: &G::Response) -> &'static str {
    if G::is_wasteful(response) { " (a wasted move)" } else { "" }
}

/// The commands, and what a move looks like in game `G` (its parser's answer to nothing).
fn help<G: Game>(out: &mut impl Write) -> io::Result<()> {
    writeln!(out, "commands: `help` shows this, `quit` leaves the game")?;
    if let Err(expected) = G::parse_action("") {
        writeln!(out, "a move: {expected}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs a duel on scripted `input`; returns how it ended, the transcript and the duel.
    fn run<G: Game>(vs: &str, seed: u64, input: &str) -> (Finish, String, Duel<G>) {
        let mut duel = Duel::<G>::new(vs, seed).expect("known opponent");
        let mut out = Vec::new();
        let finish = duel.play(&mut input.as_bytes(), &mut out).expect("in-memory I/O");
        (finish, String::from_utf8(out).expect("UTF-8 transcript"), duel)
    }

    /// A seed where the person (seat 0) plays X and moves first, or O and moves second.
    fn seed_where_human_moves_first(first: bool) -> u64 {
        (0..).find(|&seed| (TicTacToe::new(&(), seed).to_move() == HUMAN) == first).unwrap()
    }

    /// Every square in reading order: a script that always finishes a game, whatever the opponent
    /// takes, because taken squares are refused and the next line is tried.
    const EVERY_SQUARE: &str = "0 0\n1 0\n2 0\n0 1\n1 1\n2 1\n0 2\n1 2\n2 2\n";

    #[test]
    fn a_scripted_game_is_played_to_the_end_and_announced() {
        for first in [true, false] {
            let seed = seed_where_human_moves_first(first);
            let (finish, transcript, duel) = run::<TicTacToe>("perfect", seed, EVERY_SQUARE);
            let Finish::Over(ending) = finish else { panic!("unfinished:\n{transcript}") };
            assert_ne!(ending.winner, Some(HUMAN), "nobody beats perfect in reading order");
            assert_eq!(duel.game.status(), Status::Over(ending.clone()));
            let expected_start = if first { "you move first" } else { "perfect first" };
            assert!(transcript.contains(expected_start), "{transcript}");
            assert!(transcript.contains("perfect: mark("), "{transcript}");
            assert!(transcript.contains("you: mark(0, 0) -> Marked"), "{transcript}");
            let side = if first { "you play X" } else { "you play O" };
            assert!(transcript.contains(side), "{transcript}");
            let last = transcript.lines().last().unwrap();
            assert!(
                last == format!("perfect won: {}", ending.reason)
                    || last == format!("Draw: {}", ending.reason),
                "{last}"
            );
            assert!(transcript.contains("seat 0 plays"), "the final board is shown:\n{transcript}");
        }
    }

    #[test]
    fn the_person_can_win_and_is_told_so() {
        // Against `random`, reading order wins some seed; the announcement names the line.
        let won = (0..50).find_map(|seed| {
            let (finish, transcript, _) = run::<TicTacToe>("random", seed, EVERY_SQUARE);
            matches!(&finish, Finish::Over(e) if e.winner == Some(HUMAN)).then_some(transcript)
        });
        let transcript = won.expect("some seed lets reading order win against random");
        assert!(transcript.lines().last().unwrap().starts_with("You won: three in a row: "));
    }

    #[test]
    fn garbage_and_illegal_input_leave_the_game_unchanged() {
        let seed = seed_where_human_moves_first(true);
        let script = "hello\n\n9 9\n1 -1\nd4\n\u{fffd}\u{0}\n";
        let (finish, transcript, duel) = run::<TicTacToe>("perfect", seed, script);
        assert_eq!(finish, Finish::EndOfInput);
        assert_eq!(duel.game, TicTacToe::new(&(), seed), "nothing was played");
        assert_eq!(duel.turns, 0);
        assert_eq!(transcript.matches("not a move: expected a square").count(), 2, "{transcript}");
        assert!(transcript.contains("illegal move mark(9, 9): x out of range 0..=2"));
        assert!(transcript.contains("illegal move mark(1, -1): y out of range 0..=2"));
        assert!(transcript.contains("not a move: no square `d4`"));
        assert_eq!(transcript.matches("your move> ").count(), 7, "one prompt per line, then EOF");
    }

    #[test]
    fn a_taken_square_is_refused_and_the_next_line_is_tried() {
        let seed = seed_where_human_moves_first(true);
        let (finish, transcript, duel) = run::<TicTacToe>("perfect", seed, "1 1\n1 1\n");
        assert_eq!(finish, Finish::EndOfInput);
        assert!(transcript.contains("illegal move mark(1, 1): square (1, 1) is taken by X"));
        let board = duel.game.board();
        assert_eq!((board.matches('X').count(), board.matches('O').count()), (1, 1), "{board}");
        assert_eq!(duel.turns, 2);
    }

    #[test]
    fn invalid_utf8_is_just_garbage() {
        let seed = seed_where_human_moves_first(true);
        let mut duel = Duel::<TicTacToe>::new("random", seed).unwrap();
        let mut out = Vec::new();
        let finish = duel.play(&mut &b"\xff\xfe 1\nquit\n"[..], &mut out).unwrap();
        assert_eq!(finish, Finish::Quit);
        assert_eq!(duel.game, TicTacToe::new(&(), seed));
        let transcript = String::from_utf8(out).unwrap();
        assert!(transcript.contains("not a move: expected a square"), "{transcript}");
    }

    #[test]
    fn quit_leaves_at_once() {
        let seed = seed_where_human_moves_first(false);
        let (finish, transcript, duel) = run::<TicTacToe>("random", seed, "quit\n0 0\n");
        assert_eq!(finish, Finish::Quit);
        assert!(transcript.ends_with("you left the game\n"), "{transcript}");
        assert_eq!(duel.turns, 1, "only the opponent's opening move was made");
    }

    #[test]
    fn end_of_input_exits_cleanly() {
        let seed = seed_where_human_moves_first(true);
        let (finish, transcript, duel) = run::<TicTacToe>("perfect", seed, "");
        assert_eq!(finish, Finish::EndOfInput);
        assert!(transcript.ends_with("end of input: leaving the game unfinished\n"));
        assert_eq!(duel.game, TicTacToe::new(&(), seed));
    }

    #[test]
    fn help_names_the_commands_and_the_move_format() {
        let seed = seed_where_human_moves_first(true);
        let (_, transcript, duel) = run::<TicTacToe>("perfect", seed, "help\n");
        assert!(transcript.contains("`help` shows this, `quit` leaves the game"));
        assert!(transcript.contains("a move: expected a square as `x y`"));
        assert_eq!(duel.turns, 0);
    }

    #[test]
    fn an_unknown_opponent_lists_the_valid_names() {
        let err = Duel::<TicTacToe>::new("hunter", 1).err().expect("unknown name");
        assert_eq!(
            err.to_string(),
            "unknown tictactoe opponent `hunter`; choose one of: random, perfect"
        );
        let err = Duel::<Battleships>::new("perfect", 1).err().expect("unknown name");
        assert!(
            err.to_string().starts_with("unknown battleships opponent `perfect`; choose one of: ")
        );
    }

    #[test]
    fn a_wasted_move_is_made_and_flagged() {
        let seed = (0..).find(|&seed| Battleships::new(&(), seed).to_move() == HUMAN).unwrap();
        let (_, transcript, duel) = run::<Battleships>("random", seed, "0 0\n0 0\n0 0\n");
        assert!(transcript.contains("you: attack(0, 0) -> AlreadyAttacked (a wasted move)"));
        assert!(duel.turns >= 3, "re-attacks are legal moves");
    }

    #[test]
    fn an_opponent_that_makes_no_move_loses_by_fault() {
        struct Idle;
        impl Player<TicTacToe> for Idle {
            fn play(&mut self, _turn: &mut Turn<TicTacToe>) -> Result<(), Failure> {
                Ok(())
            }
        }
        let seed = seed_where_human_moves_first(false);
        let mut duel = Duel::<TicTacToe>::new("random", seed).unwrap();
        duel.opponent = Box::new(Idle);
        let mut out = Vec::new();
        let Finish::Over(ending) = duel.play(&mut &b""[..], &mut out).unwrap() else {
            panic!("the fault ends the game");
        };
        assert_eq!(ending.winner, Some(HUMAN));
        assert!(ending.reason.starts_with("random lost by fault: "), "{}", ending.reason);
        assert!(ending.reason.contains("the turn ended without an action"), "{}", ending.reason);
        assert_eq!(duel.game, TicTacToe::new(&(), seed), "the game is handed back untouched");
    }

    #[test]
    fn the_same_seed_and_moves_give_the_same_transcript() {
        let (_, once, _) = run::<TicTacToe>("perfect", 11, EVERY_SQUARE);
        let (_, again, _) = run::<TicTacToe>("perfect", 11, EVERY_SQUARE);
        assert_eq!(once, again);
    }

    #[test]
    fn battleships_plays_through_the_same_loop() {
        // Every square of the grid in reading order sinks the fleet or runs out the turns.
        let script: String = (0..100).map(|i| format!("{} {}\n", i % 10, i / 10)).collect();
        let (finish, transcript, _) = run::<Battleships>("random", 5, &format!("oops\n{script}"));
        assert!(matches!(finish, Finish::Over(_)), "{transcript}");
        assert!(transcript.contains("not a move"), "{transcript}");
        assert!(transcript.contains("random: attack("), "{transcript}");
    }
}
