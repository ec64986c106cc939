//! Playing on from a position of a stored game with another build: "would my new build have
//! survived from move 80?" (`botlens replay TRACE --from N --with BOT`).
//!
//! The stored game's seed and config set the game up again, its first `N` moves are made again
//! exactly (the bot's recorded actions, the opponent playing as it did), and the bot named takes
//! over its seat from there, starting fresh: it sees the position through its view, as on any
//! turn, but was not asked for the earlier moves, and its fuel for the game counts from move `N`.
//! The game is then checked to have gone through the stored position; if the opponent no longer
//! plays as it did (another botlens version), that is an error, never a silently different game.
//!
//! A trace may come from anyone, and the paths it records are theirs: nothing a trace names is
//! built or loaded. The bot that plays on is the one the user names (`--with`); a reference
//! player is taken by its name alone; an opponent module is the file the user names
//! (`--opponent`).
//!
//! Not for: the mechanics of the opening (see `botlens_engine::opening`) or showing the game
//! (see `botlens-replay`).

use botlens_engine::opening::first_difference;
use botlens_engine::{Seat, SeatResult, Trace};
use botlens_games::GameKind;
use botlens_sandbox::Sandbox;

use botlens_bots::target::{Target, TargetError, is_module_path};
use botlens_harness::CancelToken;
use botlens_harness::pipeline::{self, RunError, RunOptions, Stage};
use botlens_harness::suite::{self, PlayOn};

/// What to play on from, and with whom.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    /// The stored game.
    pub stored: &'a Trace,
    /// How many of its moves to make again (the position after move `moves`).
    pub moves: usize,
    /// The seat to take over; by default the stored game's only bot (seat 0 if both seats are
    /// reference players).
    pub seat: Option<Seat>,
    /// The bot to take over with, as the command line names one; needed unless the seat was a
    /// reference player's (the trace's own record of a bot's source is never built).
    pub with: Option<&'a str>,
    /// The opponent module, as the command line names one, when the stored game's opponent was
    /// a module (the trace's own record of its path is never loaded).
    pub opponent: Option<&'a str>,
}

/// A game played on from a stored position.
#[derive(Debug, Clone)]
pub struct PlayedOn {
    /// The bot that took over.
    pub target: Target,
    /// Its seat.
    pub seat: Seat,
    /// The whole game: the stored opening, then the bot's moves.
    pub trace: Trace,
}

impl PlayedOn {
    /// How the game ended for the bot that took over.
    pub fn result(&self) -> SeatResult {
        self.trace.outcome.result_for(self.seat, self.trace.players.len())
    }
}

/// Why a stored game could not be played on.
#[derive(Debug, thiserror::Error)]
pub enum PlayOnError {
    /// The trace is of a game this botlens does not know.
    #[error("the trace is of an unknown game `{0}`")]
    UnknownGame(String),
    /// The seat asked for is not in the game.
    #[error("the game has {seats} seat(s); there is no seat {seat}")]
    NoSuchSeat {
        /// The seat asked for.
        seat: Seat,
        /// Seats in the game.
        seats: usize,
    },
    /// Both seats are bots and no seat was named.
    #[error(
        "both seats of the stored game are bots: say which one to take over with --seat 0 or --seat 1"
    )]
    WhichSeat,
    /// No bot named for a seat that was a bot's: a trace's record of its source is not built.
    #[error(
        "name the bot to play on with in seat {0}: --with BOT (a project directory, a bot folder or source file, a .wasm module or a reference player); botlens builds nothing a trace names"
    )]
    NoBot(Seat),
    /// The stored opponent was a module and none was named: a trace's paths are not loaded.
    #[error(
        "the stored game's opponent `{0}` is a module: name its file with --opponent FILE; botlens loads nothing a trace names"
    )]
    NoOpponent(String),
    /// A module was named for an opponent that was not one.
    #[error("the stored game's opponent `{0}` is not a module: play on without --opponent")]
    NotAModule(String),
    /// The opponent cannot be set up again.
    #[error(
        "the opponent `{0}` cannot be set up again: only reference players and .wasm modules can"
    )]
    Opponent(String),
    /// The bot named is not a bot.
    #[error(transparent)]
    Target(#[from] TargetError),
    /// Building, loading or playing failed (an unknown opponent, a position past the end, …).
    #[error(transparent)]
    Run(#[from] RunError),
    /// The game did not go through the stored position.
    #[error(
        "the game no longer goes through the stored position: move {0} differs (was the trace written by another botlens version, or edited?)"
    )]
    Diverged(usize),
}

/// Plays `request` on: builds (or loads) the bot, plays the one game and checks it went through
/// the stored position. `progress` sees the build and load stages.
pub fn play_on(
    sandbox: &Sandbox,
    request: &Request<'_>,
    progress: &(dyn Fn(Stage) + Sync),
    cancel: &CancelToken,
) -> Result<PlayedOn, PlayOnError> {
    let stored = request.stored;
    let game = GameKind::from_name(&stored.game)
        .ok_or_else(|| PlayOnError::UnknownGame(stored.game.clone()))?;
    let seat = seat_of(stored, request.seat)?;
    let player = &stored.players[seat];
    let target = match request.with {
        Some(with) => Target::parse(with, Some(game.name()))?,
        // By its name alone: a reference target never reads a file.
        None if player.kind == "reference" => Target::Reference { name: player.name.clone(), game },
        None => return Err(PlayOnError::NoBot(seat)),
    };
    let opponent = opponent_of(stored, game, seat, request.opponent)?;
    let max_turns = stored.limits.pointer("/engine/max_turns").and_then(serde_json::Value::as_u64);
    let options = RunOptions {
        paired: seat == 1,
        max_turns: max_turns.and_then(|turns| u32::try_from(turns).ok()),
        play_on: Some(PlayOn { trace: stored.clone(), moves: request.moves, seat }),
        ..RunOptions::one_game(&opponent, stored.seed)
    };
    let run = pipeline::run(sandbox, &target, &options, progress, cancel)?;
    let trace = run
        .results
        .kept
        .into_iter()
        .find(|game| game.bot_seat == seat)
        .and_then(|game| game.trace)
        .ok_or(RunError::Cancelled)?;
    if let Some(differs) = first_difference(stored, &trace, request.moves) {
        return Err(PlayOnError::Diverged(differs));
    }
    Ok(PlayedOn { target, seat, trace })
}

/// The seat to take over: the one asked for, else the stored game's only bot.
fn seat_of(stored: &Trace, asked: Option<Seat>) -> Result<Seat, PlayOnError> {
    let seats = stored.players.len();
    if let Some(seat) = asked {
        return if seat < seats { Ok(seat) } else { Err(PlayOnError::NoSuchSeat { seat, seats }) };
    }
    let bots: Vec<Seat> =
        (0..seats).filter(|&seat| stored.players[seat].kind != "reference").collect();
    match bots.as_slice() {
        [] => Ok(0),
        [seat] => Ok(*seat),
        _ => Err(PlayOnError::WhichSeat),
    }
}

/// Whether the trace's opponent `name` is a reference player of `game`: a name, never a file
/// (an opponent's name ending in `.wasm` would be loaded as a module).
fn is_reference(game: GameKind, name: &str) -> bool {
    !is_module_path(name) && suite::check_references(game, &[name.to_owned()]).is_ok()
}

/// The name the suite gives the other seat: a reference player as stored, the module the user
/// named for a stored module (`named`, made absolute: the suite reads opponents' paths from the
/// bot's directory), or, in a puzzle, the board (a bundled board by its name, else `generated`;
/// the stored config is played either way).
fn opponent_of(
    stored: &Trace,
    game: GameKind,
    seat: Seat,
    named: Option<&str>,
) -> Result<String, PlayOnError> {
    if game.is_puzzle() {
        if named.is_some() {
            return Err(PlayOnError::NotAModule(stored.players[seat].name.clone()));
        }
        let name = stored.config.get("name").and_then(serde_json::Value::as_str);
        let bundled =
            name.filter(|name| suite::check_references(game, &[(*name).to_owned()]).is_ok());
        return Ok(bundled.unwrap_or("generated").to_owned());
    }
    let other = &stored.players[1 - seat];
    let module = other.kind != "reference" && other.source.as_deref().is_some_and(is_module_path);
    match named {
        None if other.kind == "reference" && is_reference(game, &other.name) => {
            Ok(other.name.clone())
        }
        None if module => Err(PlayOnError::NoOpponent(other.name.clone())),
        Some(file) if module => Ok(std::path::absolute(file)
            .map_or_else(|_| file.to_owned(), |path| path.display().to_string())),
        Some(_) => Err(PlayOnError::NotAModule(other.name.clone())),
        None => Err(PlayOnError::Opponent(other.name.clone())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use botlens_harness::pipeline::sandbox;

    fn stored(bot: &str, opponent: &str, seed: u64) -> Trace {
        stored_of("tictactoe", bot, opponent, seed)
    }

    fn stored_of(game: &str, bot: &str, opponent: &str, seed: u64) -> Trace {
        let target = Target::parse(bot, Some(game)).unwrap();
        let run = pipeline::run(
            &sandbox().unwrap(),
            &target,
            &RunOptions::one_game(opponent, seed),
            &|_| {},
            &CancelToken::new(),
        )
        .unwrap();
        run.results.kept.into_iter().next().and_then(|game| game.trace).unwrap()
    }

    fn play(request: &Request<'_>) -> Result<PlayedOn, PlayOnError> {
        play_on(&sandbox().unwrap(), request, &|_| {}, &CancelToken::new())
    }

    #[test]
    fn a_lost_game_played_on_by_a_better_player_keeps_the_opening_and_ends_otherwise() {
        // `random` loses to `perfect` in seat 0; `perfect` takes over after two moves.
        let lost = (0..20)
            .map(|seed| stored("random", "perfect", seed))
            .find(|trace| trace.outcome.winner == Some(1) && trace.moves.len() >= 5)
            .expect("random loses to perfect on some seed");
        let request =
            Request { stored: &lost, moves: 2, seat: None, with: Some("perfect"), opponent: None };
        let played = play(&request).unwrap();
        assert_eq!(played.seat, 0);
        assert_eq!(played.trace.moves[..2], lost.moves[..2]);
        assert_eq!(played.trace.players[0].name, "perfect");
        assert_ne!(played.result(), SeatResult::Loss, "perfect never loses from move 2");
        assert_eq!(played.trace.seed, lost.seed);
    }

    #[test]
    fn the_same_player_from_the_start_replays_the_stored_game() {
        let game = stored("random", "perfect", 3);
        let request =
            Request { stored: &game, moves: 0, seat: Some(0), with: None, opponent: None };
        let played = play(&request).unwrap();
        assert_eq!(played.trace.moves, game.moves);
        assert_eq!(played.trace.outcome, game.outcome);
    }

    #[test]
    fn a_puzzle_is_played_on_on_its_stored_board() {
        for board in ["generated", "横刀立马"] {
            let solved = stored_of("klotski", "optimal", board, 5);
            let request =
                Request { stored: &solved, moves: 3, seat: None, with: None, opponent: None };
            let played = play(&request).unwrap();
            assert_eq!(played.trace.config, solved.config, "{board}");
            assert_eq!(played.trace.moves, solved.moves, "optimal plays on as it played");
            assert_eq!(played.result(), SeatResult::Win);
        }
    }

    #[test]
    fn bad_requests_say_what_is_wrong() {
        let game = stored("random", "perfect", 3);
        let past = Request {
            stored: &game,
            moves: game.moves.len(),
            seat: None,
            with: None,
            opponent: None,
        };
        let message = play(&past).unwrap_err().to_string();
        assert!(message.contains("can be played on from move 0 to"), "{message}");
        let seat = Request { stored: &game, moves: 1, seat: Some(2), with: None, opponent: None };
        assert_eq!(
            play(&seat).unwrap_err().to_string(),
            "the game has 2 seat(s); there is no seat 2"
        );
        let mut unknown = game.clone();
        unknown.game = "chess".into();
        let request =
            Request { stored: &unknown, moves: 1, seat: None, with: None, opponent: None };
        assert!(matches!(play(&request), Err(PlayOnError::UnknownGame(name)) if name == "chess"));
        let mut edited = game.clone();
        edited.players[1].name = "nobody".into();
        let request = Request { stored: &edited, moves: 1, seat: None, with: None, opponent: None };
        assert!(play(&request).unwrap_err().to_string().contains("nobody"));
    }

    #[test]
    fn nothing_a_trace_names_is_built_or_loaded() {
        let game = stored("random", "perfect", 3);
        fn request(stored: &Trace) -> Request<'_> {
            Request { stored, moves: 1, seat: None, with: None, opponent: None }
        }
        // A bot's recorded source: a project directory here, never built.
        let project = std::env::current_dir().unwrap().display().to_string();
        let mut bot = game.clone();
        bot.players[0].kind = "wasm".into();
        bot.players[0].source = Some(project.clone());
        let error = play(&request(&bot)).unwrap_err();
        assert!(matches!(error, PlayOnError::NoBot(0)), "{error}");
        assert_eq!(
            error.to_string(),
            "name the bot to play on with in seat 0: --with BOT (a project directory, a bot folder or source file, a .wasm module or a reference player); botlens builds nothing a trace names"
        );
        // A "reference player" whose name is a directory or a module file: not a player.
        for name in [project.as_str(), "../../x.wasm", "bot.wat"] {
            let mut named = game.clone();
            named.players[0].name = name.into();
            let error = play(&request(&named)).unwrap_err();
            let unknown = format!("tictactoe has no reference player `{name}`");
            assert!(error.to_string().contains(&unknown), "{error}");
            let mut opponent = game.clone();
            opponent.players[1].name = name.into();
            let error = play(&request(&opponent)).unwrap_err();
            assert!(matches!(&error, PlayOnError::Opponent(n) if n == name), "{error}");
        }
    }

    #[test]
    fn a_stored_module_opponent_is_the_file_the_user_names() {
        let floor = concat!(env!("CARGO_MANIFEST_DIR"), "/../bench/src/floor_bot.wat");
        let game = stored_of("battleships", "random", floor, 2);
        assert_eq!(game.players[1].source.as_deref(), Some(floor));
        let request =
            Request { stored: &game, moves: 0, seat: Some(0), with: None, opponent: None };
        let error = play(&request).unwrap_err();
        assert_eq!(
            error.to_string(),
            "the stored game's opponent `floor_bot` is a module: name its file with --opponent FILE; botlens loads nothing a trace names"
        );
        let named = Request { opponent: Some(floor), ..request.clone() };
        let played = play(&named).unwrap();
        assert_eq!(played.trace.moves, game.moves, "random plays on as it played");
        let reference = stored("random", "perfect", 3);
        let wrong = Request { stored: &reference, opponent: Some(floor), ..request };
        assert_eq!(
            play(&wrong).unwrap_err().to_string(),
            "the stored game's opponent `perfect` is not a module: play on without --opponent"
        );
    }
}
