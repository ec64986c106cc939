//! The trace: a finished game as versioned JSON, enough to replay it exactly.
//!
//! A trace is written from a typed [`MatchRecord`] with [`MatchRecord::to_trace`] and read back
//! with [`Trace::from_json`]; [`Trace::decode`] turns it into a typed record again for the game it
//! belongs to. The same (game, seed, bot bytes, opponent, limits, engine version) always yields a
//! byte-identical [`Trace::to_json`].
//!
//! # Format (version 4)
//!
//! ```json
//! {
//!   "format_version": 4,          // bumped whenever the format changes
//!   "engine_version": "0.1.0",    // botlens engine that played the game
//!   "game": "battleships",        // Game::NAME
//!   "seed": 17,
//!   "config": null,               // Game::Config (e.g. the Klotski layout)
//!   "players": [{"name": "my-bot", "kind": "wasm", "module_sha256": "…"}, {"name": "hunter", "kind": "reference"}],
//!   "limits": {…},                // engine and sandbox limits in force
//!   "initial_state": {…},         // the game state before the first move
//!   "first_mover": 0,
//!   "moves": [{"turn": 1, "seat": 0, "action": {…}, "response": {…},
//!              "failure": {"kind": "illegal_move", "message": "…", "location": {"file": "src/lib.rs", "line": 42, "column": 9},
//!                          "stack": {"frames": [{"function": "my_bot::aim", "location": {…}, "folded": 3},
//!                                               {"function": "my_bot::a", "location": {…}, "cycle": {"frames": 2, "times": 1942}}, …],
//!                                    "dropped": 0}},
//!              "cost": {"fuel": 1234, "memory": 1179648}, "logs": ["…"],
//!              "drawing": {"marks": [{"kind": "heat", "width": 10, "values": [0.5, …], "location": {…}},
//!                                    {"kind": "label", "x": 3, "y": 4, "text": "p=.3", "colour": {"rgb": 16711680}}, …],
//!                          "dropped": 0}}],
//!   "outcome": {"winner": 1, "reason": "…", "fault": {"seat": 0, "turn": 23, "failure": {…}}, "turns": 23}
//! }
//! ```
//! Optional fields (`action`, `response`, `failure`, `cost`, `logs`, `drawing`, `fault`, and in a
//! failure `location` and `stack`) are omitted when empty.
//!
//! Version 2 added the failure's `stack` (see [`crate::stack`]); a version 1 trace reads as a
//! version 2 one whose failures have no stack. Version 3 added each wasm turn's `memory` (the
//! bot's linear memory in bytes at the end of the turn); older traces read without it. Version 4
//! added each turn's `drawing` (`crate::drawing`: what the bot drew on its board); older traces
//! read without it, and a game played without recording marks writes none, so its trace is
//! byte-identical to the same game's recorded one apart from the `drawing` fields.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{ENGINE_VERSION, Game, MatchOutcome, MatchRecord, MoveRecord, Seat};

/// The trace format this engine writes and the newest it reads.
pub const TRACE_FORMAT_VERSION: u32 = 4;

/// Who sat in a seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerInfo {
    /// Display name: a reference opponent's name or the bot's crate name.
    pub name: String,
    /// `reference` for native opponents, `wasm` for sandboxed bots, `human` for people.
    pub kind: String,
    /// SHA-256 of the wasm module's bytes, for sandboxed bots.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub module_sha256: Option<String>,
    /// Where the bot came from (project directory or `.wasm` path), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

impl PlayerInfo {
    /// A native reference opponent.
    pub fn reference(name: &str) -> Self {
        PlayerInfo {
            name: name.to_owned(),
            kind: "reference".into(),
            module_sha256: None,
            source: None,
        }
    }
}

/// A game as stored on disk; see the module docs for the format.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    /// Trace format version ([`TRACE_FORMAT_VERSION`]).
    pub format_version: u32,
    /// Version of the engine that played the game.
    pub engine_version: String,
    /// The game's name ([`Game::NAME`]).
    pub game: String,
    /// The game seed.
    pub seed: u64,
    /// The game's config.
    pub config: Value,
    /// Who played, by seat.
    pub players: Vec<PlayerInfo>,
    /// Limits in force (engine and sandbox).
    pub limits: Value,
    /// The state before the first move.
    pub initial_state: Value,
    /// The seat that moved first.
    pub first_mover: Seat,
    /// Every turn.
    pub moves: Vec<MoveRecord<Value, Value>>,
    /// How it ended.
    pub outcome: MatchOutcome,
}

/// Why a trace could not be read.
#[derive(Debug, thiserror::Error)]
pub enum TraceError {
    /// Not JSON, or not shaped like a trace (serde's message, with line and column).
    #[error("not a valid trace: {0}")]
    Malformed(String),
    /// Written by a newer botlens.
    #[error(
        "trace format version {found} is newer than this botlens supports ({supported}); upgrade botlens"
    )]
    NewerFormat {
        /// The version in the file.
        found: u32,
        /// The newest version this build reads.
        supported: u32,
    },
    /// A trace of a different game than expected.
    #[error("this is a {found} trace, not {expected}")]
    WrongGame {
        /// The game in the file.
        found: String,
        /// The game asked for.
        expected: String,
    },
    /// A part of the trace does not fit the game's types (hand-edited or corrupt).
    #[error("trace field `{field}` does not fit the game: {error}")]
    Field {
        /// Which part: `config`, `initial_state`, `moves[3].action`, …
        field: String,
        /// The decoding error.
        error: String,
    },
    /// A recorded action no longer replays: the trace was edited or the engine changed.
    #[error("move {turn} does not replay: {reason}")]
    Diverged {
        /// The turn number.
        turn: u32,
        /// What went wrong.
        reason: String,
    },
}

impl<G: Game> MatchRecord<G> {
    /// The record as a trace, with who played and the limits in force.
    pub fn to_trace(&self, players: Vec<PlayerInfo>, limits: Value) -> Trace {
        Trace {
            format_version: TRACE_FORMAT_VERSION,
            engine_version: ENGINE_VERSION.to_owned(),
            game: G::NAME.to_owned(),
            seed: self.seed,
            config: to_value(&self.config),
            players,
            limits,
            initial_state: to_value(&self.initial),
            first_mover: self.first_mover,
            moves: self
                .moves
                .iter()
                .map(|m| MoveRecord {
                    turn: m.turn,
                    seat: m.seat,
                    action: m.action.as_ref().map(to_value),
                    response: m.response.as_ref().map(to_value),
                    wasted: m.wasted,
                    failure: m.failure.clone(),
                    cost: m.cost,
                    logs: m.logs.clone(),
                    drawing: m.drawing.clone(),
                })
                .collect(),
            outcome: self.outcome.clone(),
        }
    }
}

/// Serializes an in-memory game value; they are plain data, so this cannot fail.
fn to_value<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).expect("game values serialize to JSON")
}

impl Trace {
    /// Parses a trace, refusing newer format versions with a clear error.
    pub fn from_json(text: &str) -> Result<Trace, TraceError> {
        #[derive(Deserialize)]
        struct VersionOnly {
            format_version: u32,
        }
        let malformed = |e: serde_json::Error| TraceError::Malformed(e.to_string());
        let version: VersionOnly = serde_json::from_str(text).map_err(malformed)?;
        if version.format_version > TRACE_FORMAT_VERSION {
            return Err(TraceError::NewerFormat {
                found: version.format_version,
                supported: TRACE_FORMAT_VERSION,
            });
        }
        serde_json::from_str(text).map_err(malformed)
    }

    /// The trace as pretty JSON with a trailing newline: stable bytes for the same game.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("traces serialize to JSON");
        text.push('\n');
        text
    }

    /// The typed record of game `G`, checking that every recorded action replays to the same
    /// response from the initial state.
    pub fn decode<G: Game>(&self) -> Result<MatchRecord<G>, TraceError> {
        if self.game != G::NAME {
            return Err(TraceError::WrongGame {
                found: self.game.clone(),
                expected: G::NAME.into(),
            });
        }
        let field = |name: String| {
            move |error: serde_json::Error| TraceError::Field {
                field: name,
                error: error.to_string(),
            }
        };
        let config: G::Config =
            serde_json::from_value(self.config.clone()).map_err(field("config".into()))?;
        let initial: G = serde_json::from_value(self.initial_state.clone())
            .map_err(field("initial_state".into()))?;
        let mut game = initial.clone();
        let mut moves = Vec::with_capacity(self.moves.len());
        for (index, m) in self.moves.iter().enumerate() {
            let action: Option<G::Action> = m
                .action
                .clone()
                .map(serde_json::from_value)
                .transpose()
                .map_err(field(format!("moves[{index}].action")))?;
            let response: Option<G::Response> = m
                .response
                .clone()
                .map(serde_json::from_value)
                .transpose()
                .map_err(field(format!("moves[{index}].response")))?;
            let mut wasted = false;
            if let (Some(action), Some(expected)) = (&action, &response) {
                let replayed = game
                    .apply(m.seat, action)
                    .map_err(|illegal| TraceError::Diverged { turn: m.turn, reason: illegal.0 })?;
                if &replayed != expected {
                    return Err(TraceError::Diverged {
                        turn: m.turn,
                        reason: format!("recorded {expected:?}, replayed {replayed:?}"),
                    });
                }
                // Re-derived rather than read, so traces that do not record it say it too.
                wasted = game.is_wasteful(&replayed);
            }
            moves.push(MoveRecord {
                turn: m.turn,
                seat: m.seat,
                action,
                response,
                wasted,
                failure: m.failure.clone(),
                cost: m.cost,
                logs: m.logs.clone(),
                drawing: m.drawing.clone(),
            });
        }
        Ok(MatchRecord {
            config,
            seed: self.seed,
            initial,
            last: game,
            first_mover: self.first_mover,
            moves,
            outcome: self.outcome.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::play_match;
    use crate::testing::{Count, CountAction, Scripted};
    use crate::{MatchLimits, testing::Counter};

    fn sample_trace() -> Trace {
        let mut a = Scripted::new(vec![vec![CountAction::Add(2)]; 3]);
        let mut b = Scripted::new(vec![vec![CountAction::Add(1)]; 3]);
        let record = play_match::<Count>(&(), 9, &mut [&mut a, &mut b], &MatchLimits::default());
        record.to_trace(
            vec![PlayerInfo::reference("a"), PlayerInfo::reference("b")],
            serde_json::json!({}),
        )
    }

    #[test]
    fn a_trace_round_trips_byte_for_byte() {
        let text = sample_trace().to_json();
        let again = Trace::from_json(&text).expect("parses").to_json();
        assert_eq!(text, again);
        let record = Trace::from_json(&text).unwrap().decode::<Count>().expect("decodes");
        assert_eq!(record.last.totals, [4, 1]);
    }

    #[test]
    fn faults_survive_the_round_trip() {
        let mut bad = Counter::faulty();
        let mut other = Scripted::new(vec![]);
        let record =
            play_match::<Count>(&(), 0, &mut [&mut bad, &mut other], &MatchLimits::default());
        let trace = record.to_trace(vec![], Value::Null);
        let back = Trace::from_json(&trace.to_json()).unwrap();
        let fault = back.outcome.fault.expect("fault kept");
        assert_eq!(fault.failure.location.expect("location kept").line, 42);
    }

    #[test]
    fn a_newer_format_is_refused_clearly() {
        let mut trace = sample_trace();
        trace.format_version = TRACE_FORMAT_VERSION + 1;
        let err = Trace::from_json(&trace.to_json()).unwrap_err();
        assert!(err.to_string().contains("newer than this botlens supports"), "{err}");
    }

    #[test]
    fn truncated_and_foreign_traces_are_refused() {
        let text = sample_trace().to_json();
        assert!(matches!(Trace::from_json(&text[..text.len() / 2]), Err(TraceError::Malformed(_))));
        let mut other = sample_trace();
        other.game = "chess".into();
        assert!(matches!(other.decode::<Count>(), Err(TraceError::WrongGame { .. })));
    }

    #[test]
    fn an_edited_move_is_reported_as_diverged() {
        let mut trace = sample_trace();
        trace.moves[0].response = Some(serde_json::json!(7));
        let err = trace.decode::<Count>().unwrap_err();
        assert!(matches!(err, TraceError::Diverged { turn: 1, .. }), "{err}");
        let mut trace = sample_trace();
        trace.moves[0].action = Some(serde_json::json!("garbage"));
        let err = trace.decode::<Count>().unwrap_err();
        assert!(err.to_string().contains("moves[0].action"), "{err}");
    }
}
