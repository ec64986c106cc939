//! The registry of games: find a game by name and run code that is generic over
//! [`Game`] for it.
//!
//! Everything above the game crates (harness, replay, language server, CLI) reaches a game
//! through [`GameKind::visit`], and lists the games with [`GameKind::ALL`] and
//! [`GameKind::names`], so adding a game means adding it here and nowhere else. This crate holds
//! no rules and no I/O; it only connects names to types, plus the few per-game facts generic code
//! needs ([`Scored`], and [`GameInfo`] for code that is not generic): a title for prose and the
//! seeds of a new bot project. A new project's starting bot is its language's: each language's
//! SDK folder holds one per game (`crates/<sdk>/starters/<game>.<extension>`).

use std::fmt;
use std::str::FromStr;

use botlens_battleships::Battleships;
use botlens_engine::{Game, MatchRecord, Oracle, Seat};
use botlens_klotski::Klotski;
use botlens_tictactoe::TicTacToe;

/// One of the games botlens plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Two-player Battleships.
    Battleships,
    /// Two-player Tic-tac-toe.
    TicTacToe,
    /// Single-player Klotski / Huarong Dao.
    Klotski,
}

/// Code to run for one concrete game type; see [`GameKind::visit`].
pub trait GameVisitor {
    /// What the visit returns.
    type Output;
    /// Runs for game `G`.
    fn visit<G: Scored>(self) -> Self::Output;
}

/// Per-game facts that generic code needs beyond the rules: for reports (par, moves), for
/// `--vs` (opponents or boards) and for new bot projects (title, seeds).
pub trait Scored: Game {
    /// The game's name for prose, e.g. in a new project's README: `Tic-tac-toe`.
    const TITLE: &'static str;

    /// The seeds a new bot project (`botlens new`) plays by default: few, so its first run is
    /// quick.
    const STARTER_SEEDS: &'static str = "0..20";

    /// What `--vs` names for this game: opponents to play, or (puzzles) boards to solve.
    const OPPONENTS_ARE_BOARDS: bool = false;

    /// What the game's wasted moves ([`Game::is_wasteful`]) are, for warnings: `re-attacks`.
    const WASTED_MOVES: &'static str = "wasted moves";

    /// The call that makes a move in the SDK of every language whose bot may be a lone file
    /// (`attack`; C's is `botlens_attack`): what tells such a bot's game from its source.
    const SDK_MOVE: &'static str;

    /// The config for one game against `opponent` on `seed`: two-player games use the default;
    /// a puzzle resolves a board name (or `generated`, a board generated from the seed).
    fn config_for(_opponent: &str, _seed: u64) -> Result<Self::Config, String> {
        Ok(Self::Config::default())
    }

    /// The opponent names a suite plays by default.
    fn default_opponents() -> Vec<String> {
        Self::reference_players().iter().map(|p| p.name.to_owned()).collect()
    }

    /// The par a single-player bot is measured against (Klotski: optimal steps), if any.
    fn par(config: &Self::Config) -> Option<u32>;

    /// The number that measures how well `seat` played (Battleships: shots fired; Tic-tac-toe:
    /// marks; Klotski: steps).
    fn moves(record: &MatchRecord<Self>, seat: Seat) -> u32;

    /// The oracle that judges moves in games starting at `initial` (`botlens analyze`), or
    /// why there is none.
    fn oracle(initial: &Self) -> Result<Box<dyn Oracle<Self>>, String>;
}

impl Scored for Battleships {
    const TITLE: &'static str = "Battleships";
    const SDK_MOVE: &'static str = "attack";
    const WASTED_MOVES: &'static str = "re-attacks";

    fn par(_config: &()) -> Option<u32> {
        None
    }

    fn moves(record: &MatchRecord<Self>, seat: Seat) -> u32 {
        record.actions_by(seat) as u32
    }

    fn oracle(_initial: &Self) -> Result<Box<dyn Oracle<Self>>, String> {
        Ok(Box::new(botlens_battleships::oracle::HitChance))
    }
}

impl Scored for TicTacToe {
    const TITLE: &'static str = "Tic-tac-toe";
    const SDK_MOVE: &'static str = "mark";

    fn par(_config: &()) -> Option<u32> {
        None
    }

    fn moves(record: &MatchRecord<Self>, seat: Seat) -> u32 {
        record.actions_by(seat) as u32
    }

    fn oracle(_initial: &Self) -> Result<Box<dyn Oracle<Self>>, String> {
        Ok(Box::new(botlens_tictactoe::Perfect))
    }
}

/// The opponent name that makes each seed its own generated Klotski board.
pub const GENERATED_BOARD: &str = "generated";

/// Minimum optimal steps of a generated board in a suite.
const GENERATED_MIN_STEPS: u32 = 30;

impl Scored for Klotski {
    const TITLE: &'static str = "Klotski (Huarong Dao)";
    const SDK_MOVE: &'static str = "move";
    /// A Klotski board does not depend on the seed (only the bot's random choices do), so fewer
    /// seeds than a two-player game.
    const STARTER_SEEDS: &'static str = "0..4";
    const OPPONENTS_ARE_BOARDS: bool = true;
    const WASTED_MOVES: &'static str = "slides straight back";

    /// A bundled board by name or alias, or `generated`: a board generated from the seed.
    fn config_for(board: &str, seed: u64) -> Result<Self::Config, String> {
        if board == GENERATED_BOARD {
            return botlens_klotski::generate(seed, GENERATED_MIN_STEPS).map_err(|e| e.to_string());
        }
        botlens_klotski::bundled::find(board).ok_or_else(|| {
            format!(
                "unknown Klotski board `{board}` (bundled: {}; or `{GENERATED_BOARD}` for one generated per seed)",
                botlens_klotski::bundled::names()
            )
        })
    }

    fn default_opponents() -> Vec<String> {
        botlens_klotski::bundled::BUNDLED.iter().map(|b| b.alias.to_owned()).collect()
    }

    fn par(config: &Self::Config) -> Option<u32> {
        botlens_klotski::par(config)
    }

    fn moves(record: &MatchRecord<Self>, _seat: Seat) -> u32 {
        record.last.view(0).steps
    }

    fn oracle(initial: &Self) -> Result<Box<dyn Oracle<Self>>, String> {
        Ok(Box::new(botlens_klotski::Shortest::new(initial.board())?))
    }
}

impl GameKind {
    /// Every game, in the order the CLI lists them.
    pub const ALL: [GameKind; 3] = [GameKind::Battleships, GameKind::TicTacToe, GameKind::Klotski];

    /// The game's name, as in traces and `botlens.toml`.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// What code that is not generic over the game needs to know of it.
    pub fn info(self) -> GameInfo {
        self.visit(InfoOf)
    }

    /// Every game's name, comma-separated, for messages that list them:
    /// `battleships, tictactoe, klotski`.
    pub fn names() -> String {
        GameKind::ALL.map(GameKind::name).join(", ")
    }

    /// Looks a game up by name (`battleships`, `tictactoe`, `klotski`); `str::parse` does the
    /// same with an error that lists the games.
    pub fn from_name(name: &str) -> Option<GameKind> {
        GameKind::ALL.into_iter().find(|kind| kind.name() == name)
    }

    /// Runs `visitor` for this game's type.
    pub fn visit<V: GameVisitor>(self, visitor: V) -> V::Output {
        match self {
            GameKind::Battleships => visitor.visit::<Battleships>(),
            GameKind::TicTacToe => visitor.visit::<TicTacToe>(),
            GameKind::Klotski => visitor.visit::<Klotski>(),
        }
    }

    /// Whether it is a one-player puzzle, whose "opponents" are boards
    /// ([`Scored::OPPONENTS_ARE_BOARDS`]).
    pub fn is_puzzle(self) -> bool {
        struct Check;
        impl GameVisitor for Check {
            type Output = bool;
            fn visit<G: Scored>(self) -> bool {
                G::OPPONENTS_ARE_BOARDS
            }
        }
        self.visit(Check)
    }

    /// The names of the game's reference players.
    pub fn reference_names(self) -> Vec<&'static str> {
        self.visit(ReferenceNames)
    }

    /// What a suite plays against by default: every reference opponent, or every bundled board.
    pub fn default_opponents(self) -> Vec<String> {
        self.visit(DefaultOpponents)
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// ```
/// use botlens_games::GameKind;
///
/// assert_eq!("klotski".parse::<GameKind>(), Ok(GameKind::Klotski));
/// let error = "chess".parse::<GameKind>().unwrap_err();
/// assert_eq!(error.to_string(), "unknown game `chess` (known: battleships, tictactoe, klotski)");
/// ```
impl FromStr for GameKind {
    type Err = UnknownGame;

    fn from_str(name: &str) -> Result<GameKind, UnknownGame> {
        GameKind::from_name(name).ok_or_else(|| UnknownGame(name.to_owned()))
    }
}

/// A game name botlens does not have; the message lists the games it has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownGame(pub String);

impl fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown game `{}` (known: {})", self.0, GameKind::names())
    }
}

impl std::error::Error for UnknownGame {}

/// The facts of one game that code not generic over it needs ([`GameKind::info`]); see
/// [`Scored`] for what each means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameInfo {
    /// [`Game::NAME`]: `tictactoe`.
    pub name: &'static str,
    /// [`Scored::TITLE`]: `Tic-tac-toe`.
    pub title: &'static str,
    /// [`Scored::STARTER_SEEDS`]: `0..20`.
    pub starter_seeds: &'static str,
    /// [`Scored::WASTED_MOVES`]: `re-attacks`.
    pub wasted_moves: &'static str,
    /// [`Scored::SDK_MOVE`]: `attack`.
    pub sdk_move: &'static str,
}

struct InfoOf;

impl GameVisitor for InfoOf {
    type Output = GameInfo;
    fn visit<G: Scored>(self) -> GameInfo {
        GameInfo {
            name: G::NAME,
            title: G::TITLE,
            starter_seeds: G::STARTER_SEEDS,
            wasted_moves: G::WASTED_MOVES,
            sdk_move: G::SDK_MOVE,
        }
    }
}

struct ReferenceNames;

impl GameVisitor for ReferenceNames {
    type Output = Vec<&'static str>;
    fn visit<G: Scored>(self) -> Vec<&'static str> {
        G::reference_players().iter().map(|p| p.name).collect()
    }
}

struct DefaultOpponents;

impl GameVisitor for DefaultOpponents {
    type Output = Vec<String>;
    fn visit<G: Scored>(self) -> Vec<String> {
        G::default_opponents()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for kind in GameKind::ALL {
            assert_eq!(GameKind::from_name(kind.name()), Some(kind));
            assert_eq!(kind.name().parse(), Ok(kind));
        }
        assert_eq!(GameKind::from_name("chess"), None);
        assert_eq!("Klotski".parse::<GameKind>(), Err(UnknownGame("Klotski".into())));
    }

    #[test]
    fn klotski_boards_resolve_by_alias_or_generation() {
        assert!(Klotski::config_for("hengdaolima", 0).is_ok());
        let a = Klotski::config_for(GENERATED_BOARD, 1).unwrap();
        let b = Klotski::config_for(GENERATED_BOARD, 1).unwrap();
        assert_eq!(a, b, "the same seed generates the same board");
        assert!(Klotski::par(&a).is_some_and(|p| p >= GENERATED_MIN_STEPS));
        let err = Klotski::config_for("nowhere", 0).unwrap_err();
        assert!(err.contains("hengdaolima"), "{err}");
    }

    #[test]
    fn every_game_has_a_title_and_starter_seeds() {
        for kind in GameKind::ALL {
            let info = kind.info();
            assert_eq!(info.name, kind.name());
            assert!(!info.title.is_empty(), "{kind} has no title");
            let range = info.starter_seeds.split_once("..");
            let bounds =
                range.and_then(|(a, b)| Some((a.parse::<u64>().ok()?, b.parse::<u64>().ok()?)));
            assert!(bounds.is_some_and(|(a, b)| a < b), "{kind}: seeds `{}`", info.starter_seeds);
        }
    }

    #[test]
    fn every_game_has_reference_players() {
        for kind in GameKind::ALL {
            assert!(!kind.reference_names().is_empty(), "{kind} has no reference players");
        }
    }
}
