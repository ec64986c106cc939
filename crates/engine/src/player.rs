//! Players and turns: the [`Player`] trait every bot implements (native reference opponents here,
//! WebAssembly bots in `botlens-sandbox`), and the [`Turn`] through which it makes its one action.

use crate::drawing::{Drawing, Mark};
use crate::{Failure, FailureKind, Game, IllegalMove, Seat, SeedRng};
use serde::{Deserialize, Serialize};

/// What a turn cost, filled in by the sandbox for wasm bots. Only deterministic quantities live
/// here, so traces stay byte-identical across runs and machines.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnCost {
    /// Wasm fuel consumed during the turn; `None` for native players.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fuel: Option<u64>,
    /// Bytes of linear memory the bot held at the end of the turn (its memory only grows);
    /// `None` for native players and in traces before format version 3.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<u64>,
}

/// One player's turn in progress: the game as it stands, and room for exactly one action.
///
/// The runner creates a `Turn`, hands it to [`Player::play`] and reads back what happened. The
/// turn owns the game state while the player holds it, so a sandboxed player can move the whole
/// turn into its host state (`std::mem::take`) for the duration of a guest call and put it back.
/// A taken-from turn holds a default game and is never played.
#[derive(Debug)]
pub struct Turn<G: Game> {
    game: G,
    seat: Seat,
    number: u32,
    action: Option<G::Action>,
    response: Option<G::Response>,
    /// Whether the legal action was wasted ([`Game::is_wasteful`]).
    wasted: bool,
    failure: Option<Failure>,
    logs: Vec<String>,
    drawing: Drawing,
    cost: TurnCost,
}

/// Written out rather than derived: a derive would demand `Default` of the action and response
/// types too, which games need not have.
impl<G: Game> Default for Turn<G> {
    fn default() -> Self {
        Turn::new(G::default(), 0, 0)
    }
}

impl<G: Game> Turn<G> {
    /// The game as it stands.
    pub(crate) fn game(&self) -> &G {
        &self.game
    }

    /// A fresh turn for `seat` (turn numbers start at 1).
    pub fn new(game: G, seat: Seat, number: u32) -> Self {
        Turn {
            game,
            seat,
            number,
            action: None,
            response: None,
            wasted: false,
            failure: None,
            logs: Vec::new(),
            drawing: Drawing::default(),
            cost: TurnCost::default(),
        }
    }

    /// The seat that is moving.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The move number of this turn: 1-based, every seat's moves counted (see [`crate::words`]).
    pub fn number(&self) -> u32 {
        self.number
    }

    /// What the moving player may see.
    pub fn view(&self) -> G::View {
        self.game.view(self.seat)
    }

    /// Appends [`Turn::view`] in `encoding` to `out`.
    pub fn write_view(&self, encoding: botlens_protocol::Encoding, out: &mut Vec<u8>) {
        self.game.write_view(self.seat, encoding, out);
    }

    /// What [`Turn::act`] would answer to `action`, without acting: the action is tried on a copy
    /// of the game and the turn stays as it was, still waiting for its one action. For players
    /// that must not lose by a slip: a person whose typo or illegal move is refused with a
    /// message before it counts (see [`human`](crate::human)).
    pub fn trial(&self, action: &G::Action) -> Result<G::Response, IllegalMove> {
        self.game.clone().apply(self.seat, action)
    }

    /// Makes the turn's action and returns the game's answer.
    ///
    /// Errors, each of which loses the game and is recorded on the turn: a second action in the
    /// same turn ([`FailureKind::SecondMove`]), an action the rules refuse
    /// ([`FailureKind::IllegalMove`]), or any action after a failure (the same failure again).
    pub fn act(&mut self, action: G::Action) -> Result<G::Response, Failure> {
        if let Some(failure) = &self.failure {
            return Err(failure.clone());
        }
        if let Some(first) = &self.action {
            let failure = Failure::new(
                FailureKind::SecondMove,
                format!("second action {action} in one turn (already made {first})"),
            );
            self.failure = Some(failure.clone());
            return Err(failure);
        }
        let result = self.game.apply(self.seat, &action);
        self.action = Some(action);
        match result {
            Ok(response) => {
                self.wasted = self.game.is_wasteful(&response);
                self.response = Some(response.clone());
                Ok(response)
            }
            Err(illegal) => {
                let action = self.action.as_ref().expect("action was just stored");
                let failure = Failure::new(
                    FailureKind::IllegalMove,
                    format!("illegal move {action}: {illegal}"),
                );
                self.failure = Some(failure.clone());
                Err(failure)
            }
        }
    }

    /// Records a line the player logged during this turn.
    pub fn log(&mut self, line: impl Into<String>) {
        self.logs.push(line.into());
    }

    /// Keeps a mark the player drew this turn (or counts it dropped past the bounds of
    /// [`crate::drawing`]).
    pub fn draw(&mut self, mark: Mark) {
        self.drawing.push(mark);
    }

    /// What the player drew this turn so far.
    pub fn drawing(&self) -> &Drawing {
        &self.drawing
    }

    /// Counts a mark the player drew that could not be read.
    pub fn drop_mark(&mut self) {
        self.drawing.drop_one();
    }

    /// Records what the turn cost (sandboxed players).
    pub fn set_cost(&mut self, cost: TurnCost) {
        self.cost = cost;
    }

    /// Records a fault. The first fault of a turn wins; a later report of the same kind only adds
    /// the source location and call stack the first one lacked (e.g. the sandbox locating an
    /// illegal move).
    pub fn fail(&mut self, failure: Failure) {
        match &mut self.failure {
            None => self.failure = Some(failure),
            Some(first) if first.kind == failure.kind && first.location.is_none() => {
                first.location = failure.location;
                first.stack = first.stack.take().or(failure.stack);
            }
            Some(_) => {}
        }
    }

    /// The fault recorded so far, if any.
    pub fn failure(&self) -> Option<&Failure> {
        self.failure.as_ref()
    }

    /// Whether an action has been made this turn (legal or not).
    pub fn has_acted(&self) -> bool {
        self.action.is_some()
    }

    /// The action made this turn (legal or not), if any.
    pub fn action(&self) -> Option<&G::Action> {
        self.action.as_ref()
    }

    /// The game's answer to this turn's action, if it was legal.
    pub fn response(&self) -> Option<&G::Response> {
        self.response.as_ref()
    }

    /// Whether this turn's legal action was a wasted move ([`Game::is_wasteful`]).
    pub fn wasted(&self) -> bool {
        self.wasted
    }

    /// Ends the turn and hands back the game, with the turn's legal action applied: for callers
    /// that drive turns themselves instead of through the runner (human play, exhaustive tests).
    pub fn into_game(self) -> G {
        self.game
    }

    pub(crate) fn finish(self) -> (G, TurnParts<G>) {
        let parts = TurnParts {
            action: self.action,
            response: self.response,
            wasted: self.wasted,
            failure: self.failure,
            logs: self.logs,
            drawing: self.drawing,
            cost: self.cost,
        };
        (self.game, parts)
    }
}

/// What the runner reads back from a finished turn.
pub(crate) struct TurnParts<G: Game> {
    pub action: Option<G::Action>,
    pub response: Option<G::Response>,
    pub wasted: bool,
    pub failure: Option<Failure>,
    pub logs: Vec<String>,
    pub drawing: Drawing,
    pub cost: TurnCost,
}

/// Anything that takes turns in a game: a native reference opponent, a wasm bot, a human.
///
/// A player is created fresh for every game, so no state survives from one game to the next.
pub trait Player<G: Game>: Send {
    /// Plays one turn: look at [`Turn::view`], make exactly one [`Turn::act`].
    ///
    /// Return `Err` for a fault of the player's own (a panic, a trap, running out of fuel); the
    /// runner records it on the turn. Returning `Ok` without acting loses the game too
    /// ([`FailureKind::NoMove`]).
    fn play(&mut self, turn: &mut Turn<G>) -> Result<(), Failure>;
}

/// A named, seeded native opponent that ships with a game.
pub struct ReferencePlayer<G: Game> {
    /// The name used with `--vs` and in `botlens.toml` (`random`, `hunter`, `perfect`, …).
    pub name: &'static str,
    /// One line saying how it plays.
    pub summary: &'static str,
    /// Creates the player for one game; its randomness comes only from `rng`.
    pub create: fn(rng: SeedRng) -> Box<dyn Player<G>>,
}

impl<G: Game> ReferencePlayer<G> {
    /// The game's reference player called `name`, or an error listing the names there are.
    pub fn find(name: &str) -> Result<ReferencePlayer<G>, String> {
        let players = G::reference_players();
        players.iter().copied().find(|player| player.name == name).ok_or_else(|| {
            let known: Vec<&str> = players.iter().map(|player| player.name).collect();
            format!("{} has no reference player `{name}` (known: {})", G::NAME, known.join(", "))
        })
    }
}

impl<G: Game> Clone for ReferencePlayer<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for ReferencePlayer<G> {}

impl<G: Game> std::fmt::Debug for ReferencePlayer<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReferencePlayer").field("name", &self.name).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{Count, CountAction};

    #[test]
    fn a_turn_driven_by_hand_reports_its_action_and_hands_back_the_game() {
        let mut turn = Turn::new(Count::default(), 0, 1);
        assert_eq!((turn.action(), turn.response()), (None, None));
        assert_eq!(turn.act(CountAction::Add(2)), Ok(2));
        assert_eq!(turn.action(), Some(&CountAction::Add(2)));
        assert_eq!(turn.response(), Some(&2));
        assert_eq!(turn.into_game().totals, [2, 0]);
    }

    #[test]
    fn a_trial_answers_as_the_action_would_and_leaves_the_turn_waiting() {
        let mut turn = Turn::new(Count::default(), 0, 1);
        assert_eq!(turn.trial(&CountAction::Add(2)), Ok(2));
        assert_eq!(
            turn.trial(&CountAction::Add(5)),
            Err(IllegalMove("at most 2 at a time".into()))
        );
        assert!(!turn.has_acted() && turn.failure().is_none(), "a trial is no action");
        assert_eq!(turn.act(CountAction::Add(1)), Ok(1), "the turn still has its one action");
        assert_eq!(turn.into_game().totals, [1, 0]);
    }

    #[test]
    fn reference_players_are_found_by_name_and_a_wrong_name_lists_them() {
        assert_eq!(ReferencePlayer::<Count>::find("steady").map(|p| p.name), Ok("steady"));
        let error = ReferencePlayer::<Count>::find("nobody").unwrap_err();
        assert_eq!(error, "count has no reference player `nobody` (known: steady, idle)");
    }

    #[test]
    fn an_illegal_action_is_reported_without_a_response_and_leaves_the_game() {
        let mut turn = Turn::new(Count::default(), 0, 1);
        assert!(turn.act(CountAction::Add(5)).is_err());
        assert_eq!(turn.action(), Some(&CountAction::Add(5)));
        assert_eq!(turn.response(), None);
        assert_eq!(turn.into_game().totals, [0, 0]);
    }
}
