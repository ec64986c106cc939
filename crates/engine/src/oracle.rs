//! Oracles: what a move was worth. A game's oracle judges one move from the position the mover
//! could see, against the best move there, in the game's own unit (Tic-tac-toe: outcomes, a
//! won position thrown to a draw costs 1; Klotski: steps added to the shortest solution).
//! `botlens analyze` asks it about every move a bot made and ranks the lines of the bot's code
//! that chose the costly ones.
//!
//! An oracle judges a move from the position alone, whoever made it and however the game got
//! there. One that estimates (Battleships' draws fleets) may reuse, through a [`GameJudge`],
//! what it worked out for a game's earlier positions: the same game is then judged the same
//! whenever it is judged from its start, a lone position the same whenever it is judged alone.

use crate::game::{Game, Seat};

/// What a game's oracle says of one move.
#[derive(Debug, Clone, PartialEq)]
pub struct Judgement<A> {
    /// What the move lost against the best move from the same position, in the oracle's
    /// [`Oracle::unit`]s: 0 when it was as good as the best.
    pub cost: f64,
    /// The oracle's choice from the same position (the move itself when it was the best).
    pub best: A,
    /// The position's worth to the mover before the move, in words: `won`, `drawn`, `lost`,
    /// `81 steps (116 cell moves) from the goal`.
    pub before: String,
    /// Its worth to the mover after the move, in the same words.
    pub after: String,
    /// Whether the move turned a position the mover had not lost into one it has: in a lost
    /// game, the last such move of the loser's is the move that lost it.
    pub loses: bool,
}

impl<A> Judgement<A> {
    /// Whether the move lost anything.
    pub fn is_mistake(&self) -> bool {
        self.cost > 0.0
    }
}

/// A game's oracle, set up once per game from its initial position (the game's registry entry
/// says how) and asked about each move.
pub trait Oracle<G: Game>: Send + Sync {
    /// The unit of [`Judgement::cost`], singular: `outcome`, `step`.
    fn unit(&self) -> &'static str;

    /// What a costly move is called: `blunder`, `detour`.
    fn mistake(&self) -> &'static str;

    /// Judges `seat`'s legal `action` from the position `before` (before it is applied). Asked
    /// only while the game is ongoing and `seat` is to move.
    fn judge(&self, before: &G, seat: Seat, action: &G::Action) -> Judgement<G::Action>;

    /// A judge for one game's moves, asked in the order they were played. By default it asks
    /// [`Oracle::judge`] about each; an oracle that estimates may reuse what it worked out for
    /// the game's earlier positions.
    fn game_judge(&self) -> Box<dyn GameJudge<G> + '_> {
        Box::new(EachAlone(self))
    }
}

/// Judges the moves of one game in the order they were played (see [`Oracle::game_judge`]).
pub trait GameJudge<G: Game> {
    /// Judges `seat`'s legal `action` from `before`, the position after the moves judged so far
    /// (those of either seat it was asked about).
    fn judge(&mut self, before: &G, seat: Seat, action: &G::Action) -> Judgement<G::Action>;
}

/// The default [`GameJudge`]: each move judged alone.
struct EachAlone<'o, O: ?Sized>(&'o O);

impl<G: Game, O: Oracle<G> + ?Sized> GameJudge<G> for EachAlone<'_, O> {
    fn judge(&mut self, before: &G, seat: Seat, action: &G::Action) -> Judgement<G::Action> {
        self.0.judge(before, seat, action)
    }
}
