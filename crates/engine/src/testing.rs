//! A tiny two-player game and scripted players for the engine's own tests.

use std::fmt;

use botlens_protocol::compact::{Bytes, Compact};
use botlens_protocol::wire::{Reader, Wire};
use serde::{Deserialize, Serialize};

use crate::{
    CallStack, Ending, Failure, FailureKind, Game, IllegalMove, Player, ReferencePlayer, Seat,
    SourceLocation, StackFrame, Status, Turn,
};

/// Each seat adds 0–2 to its own counter; the first to reach 3 wins.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Count {
    pub totals: [u32; 2],
    pub next: Seat,
}

impl Count {
    pub fn total(&self) -> u32 {
        self.totals.iter().sum()
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum CountAction {
    Add(u32),
}

impl fmt::Display for CountAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let CountAction::Add(n) = self;
        write!(f, "add {n}")
    }
}

impl Wire for CountAction {
    fn write(&self, out: &mut Vec<u8>) {
        let CountAction::Add(n) = self;
        out.extend_from_slice(br#"{"Add":"#);
        n.write(out);
        out.push(b'}');
    }
    fn read_from(reader: &mut Reader<'_>) -> Option<Self> {
        reader.expect(br#"{"Add":"#)?;
        let n = u32::read_from(reader)?;
        reader.expect(b"}")?;
        Some(CountAction::Add(n))
    }
}

impl Compact for CountAction {
    fn put(&self, out: &mut Vec<u8>) {
        let CountAction::Add(n) = self;
        n.put(out);
    }
    fn take_from(bytes: &mut Bytes<'_>) -> Option<Self> {
        u32::take_from(bytes).map(CountAction::Add)
    }
}

impl Game for Count {
    const NAME: &'static str = "count";
    const DEFAULT_TURN_CAP: u32 = 100;
    type Config = ();
    type Action = CountAction;
    type Response = u32;
    type View = [u32; 2];

    fn new(_config: &(), _seed: u64) -> Self {
        Count::default()
    }
    fn seats(&self) -> usize {
        2
    }
    fn to_move(&self) -> Seat {
        self.next
    }
    fn view(&self, _seat: Seat) -> [u32; 2] {
        self.totals
    }
    fn apply(&mut self, seat: Seat, action: &CountAction) -> Result<u32, IllegalMove> {
        let CountAction::Add(n) = *action;
        if n > 2 {
            return Err(IllegalMove("at most 2 at a time".into()));
        }
        self.totals[seat] += n;
        self.next = 1 - seat;
        Ok(self.totals[seat])
    }
    fn status(&self) -> Status {
        match self.totals.iter().position(|&t| t >= 3) {
            Some(winner) => {
                Status::Over(Ending { winner: Some(winner), reason: "reached 3".into() })
            }
            None => Status::Ongoing,
        }
    }
    fn render(&self) -> String {
        format!("{} : {}", self.totals[0], self.totals[1])
    }
    fn render_view(view: &[u32; 2]) -> String {
        format!("{view:?}")
    }
    fn parse_action(text: &str) -> Result<CountAction, String> {
        text.trim().parse().map(CountAction::Add).map_err(|_| "a number".to_string())
    }
    const HINT_PLAYER: Option<&'static str> = Some("steady");

    fn reference_players() -> &'static [ReferencePlayer<Self>] {
        &COUNT_PLAYERS
    }
}

/// `steady` adds 1 every turn; `idle` never moves (and so loses by fault).
static COUNT_PLAYERS: [ReferencePlayer<Count>; 2] = [
    ReferencePlayer {
        name: "steady",
        summary: "adds 1 every turn",
        create: |_| Box::new(Scripted::new(vec![vec![CountAction::Add(1)]; 100])),
    },
    ReferencePlayer {
        name: "idle",
        summary: "ends every turn without a move",
        create: |_| Box::new(Scripted::new(vec![])),
    },
];

/// Plays a fixed list of actions per turn.
pub struct Scripted {
    turns: std::vec::IntoIter<Vec<CountAction>>,
}

impl Scripted {
    pub fn new(turns: Vec<Vec<CountAction>>) -> Self {
        Scripted { turns: turns.into_iter() }
    }
}

impl Player<Count> for Scripted {
    fn play(&mut self, turn: &mut Turn<Count>) -> Result<(), Failure> {
        for action in self.turns.next().unwrap_or_default() {
            turn.act(action)?;
        }
        Ok(())
    }
}

/// Makes an illegal move and reports it located, as the sandbox does.
pub struct Counter;

impl Counter {
    pub fn faulty() -> Self {
        Counter
    }
}

impl Player<Count> for Counter {
    fn play(&mut self, turn: &mut Turn<Count>) -> Result<(), Failure> {
        turn.act(CountAction::Add(5)).map_err(|failure| {
            let location = SourceLocation { file: "src/lib.rs".into(), line: 42, column: 9 };
            let frame = StackFrame {
                function: "counter::play".into(),
                location: Some(location.clone()),
                folded: 0,
                cycle: None,
            };
            Failure::new(FailureKind::IllegalMove, failure.message)
                .at(Some(location))
                .with_stack(Some(CallStack { frames: vec![frame], dropped: 0 }))
        })?;
        Ok(())
    }
}
