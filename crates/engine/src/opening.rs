//! Playing on from a position of a stored game: the stored game's first moves are made again
//! exactly, then another player takes over one seat ("would my new build have survived from
//! move 80?").
//!
//! Every game is a pure function of its seed and its players' actions, so re-making the first
//! `n` moves reaches the stored position exactly, provided the other seats play as they did: a
//! reference opponent, created from the same seed, does. [`Opening`] is the player of the seat
//! that takes over: it makes that seat's recorded actions of the first `n` moves, then hands
//! every later turn to the new player, which starts fresh there (it sees the position through
//! its view, as on any turn, but was not asked for the earlier moves). [`first_difference`]
//! then says whether the game really went through the stored position.
//!
//! Not for: reading or checking traces as a whole (see [`crate::trace`]).

use std::collections::VecDeque;

use crate::{Failure, Game, MatchRecord, MoveRecord, Player, Seat, Trace, TraceError, Turn};

/// A player that makes a fixed list of actions on its first turns, then lets `then` play.
pub struct Opening<'a, G: Game> {
    actions: VecDeque<G::Action>,
    then: Box<dyn Player<G> + 'a>,
}

impl<'a, G: Game> Opening<'a, G> {
    /// Makes `actions` on the first turns, one per turn, then hands every turn to `then`.
    pub fn new(actions: Vec<G::Action>, then: Box<dyn Player<G> + 'a>) -> Self {
        Opening { actions: actions.into(), then }
    }
}

impl<G: Game> Player<G> for Opening<'_, G> {
    fn play(&mut self, turn: &mut Turn<G>) -> Result<(), Failure> {
        match self.actions.pop_front() {
            Some(action) => turn.act(action).map(drop),
            None => self.then.play(turn),
        }
    }
}

/// Why a stored game cannot be played on from a position.
#[derive(Debug, thiserror::Error)]
pub enum OpeningError {
    /// The trace does not decode as this game, or no longer replays.
    #[error(transparent)]
    Trace(#[from] TraceError),
    /// The position is past the game's last move that could be played on from.
    #[error(
        "the game has {moves} moves, so it can be played on from move 0 to {last} (from move N means after the first N moves)"
    )]
    PastTheEnd {
        /// Moves in the stored game.
        moves: usize,
        /// The last position a game can be played on from: before its last move.
        last: usize,
    },
    /// The seat does not exist in the game.
    #[error("the game has {seats} seats; there is no seat {seat}")]
    NoSuchSeat {
        /// The seat asked for.
        seat: Seat,
        /// Seats in the game.
        seats: usize,
    },
}

/// The actions `seat` made in the first `moves` moves of `trace`, to play on from there with
/// [`Opening`]. A game can be played on from any position before its last move (a game that
/// ended on a fault is played on from just before the faulty move at the latest).
pub fn opening_actions<G: Game>(
    trace: &Trace,
    seat: Seat,
    moves: usize,
) -> Result<Vec<G::Action>, OpeningError> {
    let record: MatchRecord<G> = trace.decode()?;
    let seats = record.initial.seats();
    if seat >= seats {
        return Err(OpeningError::NoSuchSeat { seat, seats });
    }
    let total = record.moves.len();
    if moves >= total {
        return Err(OpeningError::PastTheEnd { moves: total, last: total.saturating_sub(1) });
    }
    Ok(record
        .moves
        .into_iter()
        .take(moves)
        .filter(|m| m.seat == seat)
        .filter_map(|m| m.action)
        .collect())
}

/// The first of the first `moves` moves at which `played` differs from `stored` (by seat,
/// action and response; costs and log lines may differ), as a 1-based move number; `None` when
/// they agree. A game played on from a stored position went through it exactly when this is
/// `None`.
pub fn first_difference(stored: &Trace, played: &Trace, moves: usize) -> Option<usize> {
    let same = |a: &MoveRecord<_, _>, b: &MoveRecord<_, _>| {
        (a.seat, &a.action, &a.response) == (b.seat, &b.action, &b.response)
    };
    (0..moves.min(stored.moves.len())).find_map(|index| match played.moves.get(index) {
        Some(move_played) if same(&stored.moves[index], move_played) => None,
        _ => Some(index + 1),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PlayerInfo;
    use crate::runner::{MatchLimits, play_match};
    use crate::testing::{Count, CountAction, Scripted};

    fn stored_game() -> Trace {
        let add = |n| vec![CountAction::Add(n)];
        // Seat 0 adds 1, 0, 2; seat 1 adds 1, 1: seat 0 reaches 3 on move 5.
        let mut a = Scripted::new(vec![add(1), add(0), add(2)]);
        let mut b = Scripted::new(vec![add(1), add(1)]);
        let record = play_match::<Count>(&(), 0, &mut [&mut a, &mut b], &MatchLimits::default());
        record.to_trace(
            vec![PlayerInfo::reference("a"), PlayerInfo::reference("b")],
            serde_json::Value::Null,
        )
    }

    fn play_on(
        stored: &Trace,
        moves: usize,
        then: Vec<Vec<CountAction>>,
        other: Vec<Vec<CountAction>>,
    ) -> Trace {
        let actions = opening_actions::<Count>(stored, 0, moves).expect("an opening");
        let mut seat0 = Opening::<Count>::new(actions, Box::new(Scripted::new(then)));
        let mut seat1 = Scripted::new(other);
        let record =
            play_match::<Count>(&(), 0, &mut [&mut seat0, &mut seat1], &MatchLimits::default());
        record.to_trace(stored.players.clone(), serde_json::Value::Null)
    }

    #[test]
    fn the_opening_remakes_the_stored_moves_then_the_new_player_decides() {
        let stored = stored_game();
        assert_eq!(stored.moves.len(), 5);
        let add = |n| vec![CountAction::Add(n)];
        // After move 3 (seat 0: add 1, add 0 remade), the new player adds 0 where the stored
        // one added 2, so seat 1 wins instead.
        let played = play_on(&stored, 3, vec![add(0), add(0)], vec![add(1), add(1), add(1)]);
        assert_eq!(first_difference(&stored, &played, 3), None);
        assert_eq!(first_difference(&stored, &played, 5), Some(5));
        assert_eq!(played.moves[4].action, Some(serde_json::json!({"Add": 0})));
        assert_eq!(played.outcome.winner, Some(1));
    }

    #[test]
    fn an_opponent_that_plays_differently_is_found_at_its_move() {
        let stored = stored_game();
        let add = |n| vec![CountAction::Add(n)];
        let played = play_on(&stored, 4, vec![add(2)], vec![add(2), add(1)]);
        assert_eq!(first_difference(&stored, &played, 4), Some(2));
    }

    #[test]
    fn positions_past_the_last_playable_move_and_missing_seats_are_refused() {
        let stored = stored_game();
        let past = opening_actions::<Count>(&stored, 0, 5).unwrap_err().to_string();
        assert_eq!(
            past,
            "the game has 5 moves, so it can be played on from move 0 to 4 (from move N means after the first N moves)"
        );
        assert!(matches!(
            opening_actions::<Count>(&stored, 2, 1),
            Err(OpeningError::NoSuchSeat { seat: 2, seats: 2 })
        ));
        assert_eq!(opening_actions::<Count>(&stored, 1, 4).expect("seat 1").len(), 2);
        assert!(opening_actions::<Count>(&stored, 0, 0).expect("the start").is_empty());
    }
}
