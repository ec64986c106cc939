//! The match runner: plays one game between players under the turn protocol and records it.
//!
//! The protocol: the game says whose turn it is; that player gets a [`Turn`] and must make
//! exactly one action. A turn with no action, a second action, an illegal action or a fault of
//! the player ends the game at once, lost by that player. The game decides who moves next (a
//! Battleships hit keeps the turn). A cap on turns ends the game as [`Game::capped`] says.

use serde::{Deserialize, Serialize};

use crate::drawing::Drawing;
use crate::player::TurnParts;
use crate::{Ending, Failure, FailureKind, Game, Player, Seat, SeatResult, Status, Turn, TurnCost};

/// Engine-level limits of a match (the sandbox adds its own: fuel, memory, …).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchLimits {
    /// Turn cap; by default the game's [`Game::DEFAULT_TURN_CAP`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_turns: Option<u32>,
}

impl MatchLimits {
    /// The turn cap in force for game `G`.
    pub fn turn_cap<G: Game>(&self) -> u32 {
        self.max_turns.unwrap_or(G::DEFAULT_TURN_CAP)
    }
}

/// One turn as recorded: generic over the action and response types so the same shape serves
/// typed records ([`MatchRecord`]) and JSON traces ([`Trace`](crate::Trace)).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MoveRecord<A, R> {
    /// 1-based turn number, all seats counted.
    pub turn: u32,
    /// The seat that moved.
    pub seat: Seat,
    /// The action made (for an illegal move, the action attempted); `None` when none was made.
    #[serde(default = "none", skip_serializing_if = "Option::is_none")]
    pub action: Option<A>,
    /// The game's answer to a legal action.
    #[serde(default = "none", skip_serializing_if = "Option::is_none")]
    pub response: Option<R>,
    /// Whether the legal action was a wasted move ([`Game::is_wasteful`]; older traces do not
    /// record it, and reading a trace back re-derives it).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub wasted: bool,
    /// The fault that ended the game on this turn, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<Failure>,
    /// Deterministic cost of the turn (fuel), filled by the sandbox.
    #[serde(default, skip_serializing_if = "is_zero_cost")]
    pub cost: TurnCost,
    /// Lines the player logged during this turn (stdout/stderr of a wasm bot).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub logs: Vec<String>,
    /// What the player drew on its board during the turn ([`crate::drawing`]); kept only when
    /// the game is played recording marks, absent from traces before format version 4.
    #[serde(default, skip_serializing_if = "Drawing::is_empty")]
    pub drawing: Drawing,
}

fn none<T>() -> Option<T> {
    None
}

fn is_zero_cost(cost: &TurnCost) -> bool {
    *cost == TurnCost::default()
}

/// A fault that ended a game: who, on which turn, and what.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fault {
    /// The seat at fault; it lost the game.
    pub seat: Seat,
    /// The turn it happened on.
    pub turn: u32,
    /// What happened, and where.
    pub failure: Failure,
}

/// How a match ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchOutcome {
    /// The winning seat; `None` for a draw (two players) or an unsolved puzzle (one player).
    pub winner: Option<Seat>,
    /// Why, for humans: `fleet sunk`, `three in a row`, `seat 0 lost: illegal move …`.
    pub reason: String,
    /// The fault that decided the game, if one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fault: Option<Fault>,
    /// Number of turns played.
    pub turns: u32,
}

impl MatchOutcome {
    /// The result for `seat` in a game with `seats` seats.
    pub fn result_for(&self, seat: Seat, seats: usize) -> SeatResult {
        match self.winner {
            Some(winner) if winner == seat => SeatResult::Win,
            Some(_) => SeatResult::Loss,
            None if seats == 1 => SeatResult::Loss,
            None => SeatResult::Draw,
        }
    }
}

/// A finished game, typed: everything needed to write its trace or re-derive any position.
#[derive(Debug, Clone)]
pub struct MatchRecord<G: Game> {
    /// The config the game was set up with.
    pub config: G::Config,
    /// The game seed.
    pub seed: u64,
    /// The state before the first move.
    pub initial: G,
    /// The state after the last move.
    pub last: G,
    /// The seat that moved first.
    pub first_mover: Seat,
    /// Every turn, in order.
    pub moves: Vec<MoveRecord<G::Action, G::Response>>,
    /// How it ended.
    pub outcome: MatchOutcome,
}

impl<G: Game> MatchRecord<G> {
    /// How many actions `seat` made (legal or not).
    pub fn actions_by(&self, seat: Seat) -> usize {
        self.moves.iter().filter(|m| m.seat == seat && m.action.is_some()).count()
    }

    /// The result for `seat`.
    pub fn result_for(&self, seat: Seat) -> SeatResult {
        self.outcome.result_for(seat, self.initial.seats())
    }

    /// Legal responses that wasted a move, per turn number (e.g. Battleships re-attacks).
    pub fn wasteful_turns(&self, seat: Seat) -> Vec<u32> {
        self.moves.iter().filter(|m| m.seat == seat && m.wasted).map(|m| m.turn).collect()
    }

    /// The state after the first `moves` turns (0 = initial), re-derived by applying the
    /// recorded legal actions to the initial state.
    pub fn state_after(&self, moves: usize) -> G {
        let mut game = self.initial.clone();
        for record in self.moves.iter().take(moves) {
            if let (Some(action), Some(_)) = (&record.action, &record.response) {
                // Recorded legal actions re-apply legally; an error would mean a corrupt record,
                // which typed records cannot be, so the position simply stays.
                let _ = game.apply(record.seat, action);
            }
        }
        game
    }
}

/// Plays one game of `G` from `config` and `seed` between `players` (indexed by seat).
///
/// # Panics
///
/// If the number of players differs from the game's number of seats — a caller bug.
pub fn play_match<G: Game>(
    config: &G::Config,
    seed: u64,
    players: &mut [&mut dyn Player<G>],
    limits: &MatchLimits,
) -> MatchRecord<G> {
    let initial = G::new(config, seed);
    assert_eq!(players.len(), initial.seats(), "{} needs {} players", G::NAME, initial.seats());
    let cap = limits.turn_cap::<G>();
    let first_mover = initial.to_move();
    let mut game = initial.clone();
    let mut moves = Vec::new();
    let mut turn_number = 0;

    let outcome = loop {
        if let Status::Over(ending) = game.status() {
            break ending_outcome(ending, turn_number);
        }
        if turn_number >= cap {
            break ending_outcome(game.capped(cap), turn_number);
        }
        turn_number += 1;
        let seat = game.to_move();
        let mut turn = Turn::new(game, seat, turn_number);
        if let Err(failure) = players[seat].play(&mut turn) {
            turn.fail(failure);
        }
        if !turn.has_acted() && turn.failure().is_none() {
            turn.fail(Failure::new(FailureKind::NoMove, "the turn ended without an action"));
        }
        let (after, parts) = turn.finish();
        game = after;
        let TurnParts { action, response, wasted, failure, logs, drawing, cost } = parts;
        let fault = failure.clone().map(|failure| Fault { seat, turn: turn_number, failure });
        let record = MoveRecord {
            turn: turn_number,
            seat,
            action,
            response,
            wasted,
            failure,
            cost,
            logs,
            drawing,
        };
        moves.push(record);
        if let Some(fault) = fault {
            break fault_outcome(fault, game.seats(), turn_number);
        }
    };

    MatchRecord { config: config.clone(), seed, initial, last: game, first_mover, moves, outcome }
}

fn ending_outcome(ending: Ending, turns: u32) -> MatchOutcome {
    MatchOutcome { winner: ending.winner, reason: ending.reason, fault: None, turns }
}

fn fault_outcome(fault: Fault, seats: usize, turns: u32) -> MatchOutcome {
    let winner = (seats == 2).then_some(1 - fault.seat);
    let reason = format!("seat {} lost by fault: {}", fault.seat, fault.failure);
    MatchOutcome { winner, reason, fault: Some(fault), turns }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{Count, CountAction, Counter, Scripted};

    fn play(scripts: [Vec<Vec<CountAction>>; 2], limits: MatchLimits) -> MatchRecord<Count> {
        let [a, b] = scripts;
        let mut a = Scripted::new(a);
        let mut b = Scripted::new(b);
        play_match::<Count>(&(), 0, &mut [&mut a, &mut b], &limits)
    }

    #[test]
    fn first_to_target_wins_and_turns_alternate() {
        let step = || vec![CountAction::Add(1)];
        let record = play([vec![step(); 5], vec![step(); 5]], MatchLimits::default());
        assert_eq!(record.outcome.winner, Some(0));
        assert_eq!(record.outcome.reason, "reached 3");
        let seats: Vec<Seat> = record.moves.iter().map(|m| m.seat).collect();
        assert_eq!(seats, vec![0, 1, 0, 1, 0]);
        assert_eq!(record.actions_by(0), 3);
    }

    #[test]
    fn a_turn_without_action_loses() {
        let record = play([vec![vec![]], vec![]], MatchLimits::default());
        let fault = record.outcome.fault.expect("fault");
        assert_eq!((fault.seat, fault.failure.kind), (0, FailureKind::NoMove));
        assert_eq!(record.outcome.winner, Some(1));
        assert_eq!(record.moves.len(), 1);
    }

    #[test]
    fn a_second_action_loses_and_keeps_the_first() {
        let double = vec![CountAction::Add(1), CountAction::Add(1)];
        let record = play([vec![double], vec![]], MatchLimits::default());
        let fault = record.outcome.fault.expect("fault");
        assert_eq!(fault.failure.kind, FailureKind::SecondMove);
        assert_eq!(fault.failure.message, "second action add 1 in one turn (already made add 1)");
        assert_eq!(record.moves[0].action, Some(CountAction::Add(1)));
        assert_eq!(record.last.total(), 1);
    }

    #[test]
    fn an_illegal_action_loses_and_leaves_the_state() {
        let record = play([vec![vec![CountAction::Add(5)]], vec![]], MatchLimits::default());
        let fault = record.outcome.fault.expect("fault");
        assert_eq!(fault.failure.kind, FailureKind::IllegalMove);
        assert_eq!(fault.failure.message, "illegal move add 5: at most 2 at a time");
        assert_eq!(record.last.total(), 0);
        assert_eq!(record.moves[0].response, None);
    }

    #[test]
    fn a_player_fault_is_recorded_and_an_illegal_move_can_gain_a_location() {
        let mut bad = Counter::faulty();
        let mut other = Scripted::new(vec![]);
        let record =
            play_match::<Count>(&(), 0, &mut [&mut bad, &mut other], &MatchLimits::default());
        let failure = record.outcome.fault.expect("fault").failure;
        assert_eq!(failure.kind, FailureKind::IllegalMove);
        assert_eq!(failure.location.expect("located").line, 42);
        let stack = failure.stack.expect("the stack comes with the location");
        assert_eq!(stack.frames[0].function, "counter::play");
    }

    #[test]
    fn the_turn_cap_ends_in_the_games_capped_ending() {
        let idle = || vec![CountAction::Add(0)];
        let record = play([vec![idle(); 10], vec![idle(); 10]], MatchLimits { max_turns: Some(4) });
        assert_eq!(record.outcome.winner, None);
        assert_eq!(record.outcome.reason, "move cap of 4 reached");
        assert_eq!(record.outcome.turns, 4);
        assert_eq!(record.result_for(0), SeatResult::Draw);
    }

    #[test]
    fn state_after_rederives_positions() {
        let step = || vec![CountAction::Add(1)];
        let record = play([vec![step(); 5], vec![step(); 5]], MatchLimits::default());
        assert_eq!(record.state_after(0).total(), 0);
        assert_eq!(record.state_after(2).total(), 2);
        assert_eq!(record.state_after(record.moves.len()).total(), record.last.total());
    }
}
