//! The replay model: a finished game as a list of frames, one per position, with the move list,
//! the log lines of each move and the failure that ended the game.
//!
//! Built once from a [`Trace`]; everything the viewers show (terminal, text, HTML) is read from
//! here — the board as text and, for games that draw it, as a [`Drawing`] with the cells each
//! move touched — so no viewer knows any game. Not for drawing: see `tui`, `text` and `html`.
//! The only I/O is reading the failing source line (see [`crate::source`]).
//!
//! Everything in a trace is untrusted (a bot writes its log lines and panic messages, and
//! anyone can write a trace file), so every string of the model is made printable here, once
//! (`botlens_engine::text`): a viewer may print any of it to a terminal as it is. The HTML
//! page still escapes its own markup.

use std::path::Path;

use botlens_engine::picture::{Picture, Spot, State, TextCell, state};
use botlens_engine::stack::thousands;
use botlens_engine::text::{printable, printable_lines};
use botlens_engine::words::move_and_turn;
use botlens_engine::{
    CallStack, FailureKind, Game, MatchOutcome, PlayerInfo, Seat, SourceLocation,
    TRACE_FORMAT_VERSION, Trace, TraceError, TurnCost,
};
use botlens_games::{GameKind, GameVisitor, Scored};
use serde::Serialize;

use crate::ReplayError;
use crate::marks::{Layer, Overlay, layer, overlay};
use crate::source::{SourceLine, SourceRoot};

/// A finished game ready to step through: the frames, the move list and the failure.
///
/// Frame `0` is the position before the first move; frame `n` is the position after move `n`
/// (moves are numbered from 1, as turns are in traces), so there is one frame more than moves.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Replay {
    /// The game's name (`tictactoe`, `battleships`, `klotski`).
    pub game: String,
    /// The game seed.
    pub seed: u64,
    /// The engine version that played the game.
    pub engine_version: String,
    /// Who sat in each seat, by seat: `seat 0: random (reference)`.
    pub seats: Vec<String>,
    /// The bot's seat, whose moves the terminal viewer can step through alone: the game's only
    /// seat that is not a reference player, else seat 0.
    pub bot_seat: Seat,
    /// How the game ended, for people: `seat 1 (perfect) won: three in a row: row 0`.
    pub result: String,
    /// Every move, in order; move `n` is `moves[n - 1]`.
    pub moves: Vec<MoveEntry>,
    /// Every position: `frames[0]` is the start, `frames[n]` follows move `n`.
    pub frames: Vec<Frame>,
    /// The failure that ended the game, if a player's fault did.
    pub failure: Option<FailurePanel>,
    /// The cell states the drawings use (`water`, `hit`, …), in the order they first appear: a
    /// [`DrawnGrid`]'s cells are indices into this list. Empty for a game without a picture.
    pub cell_states: Vec<String>,
    /// The block kinds the drawings use (`piece`, `goal`, …), likewise for [`DrawnBlock::kind`].
    pub block_kinds: Vec<String>,
}

/// One move in the move list.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MoveEntry {
    /// The move number (1-based, every seat's moves counted; named `turn` as the trace names
    /// it, see [`botlens_engine::words`]).
    pub turn: u32,
    /// The seat that moved.
    pub seat: Seat,
    /// The action as the game writes it (`mark(1, 1)`), or `no action`.
    pub action: String,
    /// The game's answer as compact JSON, when the action was legal.
    pub response: Option<String>,
    /// Whether this move lost the game by a fault.
    pub failed: bool,
    /// Whether the game counts the move as wasted (a Battleships re-attack).
    pub wasteful: bool,
    /// One line for the move list: `  3 seat 1 perfect  mark(1, 1)` (in a puzzle, without the
    /// seat and player); `✗` marks the failing move, `~` a wasted one, and in a judged replay
    /// `?` a costly one and `??` the move that lost the game.
    pub label: String,
    /// What the move did that a timeline marks: `hit` or `sunk` (the state of the square it
    /// touched, as the picture shows it after the move), unless the move was wasted.
    pub event: Option<String>,
    /// What the moving seat drew during the move, if anything.
    pub marks: Option<Layer>,
    /// The game's oracle's judgement of the move, when it cost something (a replay opened with
    /// [`Replay::judged_from_trace`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub judged: Option<Judged>,
}

/// A costly move, as the game's oracle judged it (`botlens analyze` explains the oracles).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Judged {
    /// What it was and what was best: `blunder: drawn → lost; best mark(1, 0)`, led by `the move
    /// that lost the game: ` for the losing one.
    pub note: String,
    /// Whether it is the move that lost the game: the loser's last that turned a position it
    /// had not lost into a lost one.
    pub losing: bool,
}

/// One position of the game.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Frame {
    /// The move this position follows (0 for the start).
    pub index: usize,
    /// What led here: `start` or `move 3/9 · seat 1 (perfect) · mark(1, 1)`.
    pub title: String,
    /// The whole board as the game renders it (every grid, hidden information included).
    pub board: String,
    /// The lines the moving player logged during this turn.
    pub logs: Vec<String>,
    /// Whether the move that led here is the one that failed.
    pub failed: bool,
    /// What the move cost a sandboxed bot: `fuel 1,462 · memory 1,152 KiB (+64 KiB)` (the
    /// growth since the seat's move before); `None` for the start and native players' moves.
    pub cost: Option<String>,
    /// The position drawn, when the game draws its board (see `Game::picture`).
    pub picture: Option<Drawing>,
    /// The cells of the drawing the move that led here touched (the square attacked, the piece
    /// slid), legal or not; none for the start, a move without an action, or a game without a
    /// picture.
    pub touched: Vec<Spot>,
    /// Where the [`touched`](Frame::touched) cells show in [`board`](Frame::board), for the
    /// viewers of the text; empty where the game does not say (`Game::text_cell`). Not in the
    /// HTML page's data, which draws the picture.
    #[serde(skip)]
    pub touched_text: Vec<TextCell>,
    /// How many display columns of [`board`](Frame::board) the picture's cells reach, so that a
    /// narrow viewer may cut the text around them rather than them (`Game::text_cell`); 0 where
    /// the game does not say.
    #[serde(skip)]
    pub cells_width: usize,
    /// The moves (frame indices) whose marks show here: each seat's latest move up to this
    /// position, if it drew during it ([`MoveEntry::marks`]).
    pub layers: Vec<usize>,
    /// Where those marks show in [`board`](Frame::board), for the terminal's overlay.
    #[serde(skip)]
    pub overlay: Vec<Overlay>,
    /// The cells of the game oracle's choice from the position the move was made from, when
    /// the move was costly ([`MoveEntry::judged`]).
    pub best: Vec<Spot>,
    /// Where the [`best`](Frame::best) cells show in [`board`](Frame::board).
    #[serde(skip)]
    pub best_text: Vec<TextCell>,
}

/// A position as the game pictures it (`botlens_engine::picture`), with every cell state and
/// block kind written as its index in [`Replay::cell_states`] or [`Replay::block_kinds`], so
/// that a long game's frames stay small.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Drawing {
    /// The grids, in the order they are shown; a [`Spot`]'s `grid` indexes this.
    pub grids: Vec<DrawnGrid>,
}

/// One grid of a [`Drawing`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DrawnGrid {
    /// Its caption (`seat 0 fleet (6/7 afloat)`).
    pub title: String,
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Each cell's state, row by row, as an index in [`Replay::cell_states`].
    pub cells: Vec<usize>,
    /// The blocks over the cells, bottom first.
    pub blocks: Vec<DrawnBlock>,
}

/// A labelled rectangle of a [`DrawnGrid`] (a Klotski piece, the goal area).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DrawnBlock {
    /// What it is, as an index in [`Replay::block_kinds`].
    pub kind: usize,
    /// The text on it (it may have several lines).
    pub label: String,
    /// Column of its top-left cell.
    pub x: usize,
    /// Row of its top-left cell.
    pub y: usize,
    /// Width in cells.
    pub width: usize,
    /// Height in cells.
    pub height: usize,
}

/// The names drawings refer to by index, each listed once, in the order first seen.
#[derive(Default)]
struct Names(Vec<State>);

impl Names {
    /// The index of `name`, added if new.
    fn index(&mut self, name: State) -> usize {
        self.0.iter().position(|&known| known == name).unwrap_or_else(|| {
            self.0.push(name);
            self.0.len() - 1
        })
    }

    /// The names, made printable.
    fn into_lines(self) -> Vec<String> {
        self.0.into_iter().map(line).collect()
    }
}

/// What every frame's drawing refers to: the cell states and block kinds seen so far.
#[derive(Default)]
struct Legend {
    cells: Names,
    blocks: Names,
}

impl Legend {
    /// `picture` as a [`Drawing`], its names interned here and its text made printable.
    fn draw(&mut self, picture: &Picture) -> Drawing {
        let grids = picture
            .grids
            .iter()
            .map(|grid| DrawnGrid {
                title: line(grid.title()),
                width: grid.width(),
                height: grid.height(),
                cells: grid.cells().iter().map(|&state| self.cells.index(state)).collect(),
                blocks: grid
                    .blocks()
                    .iter()
                    .map(|block| DrawnBlock {
                        kind: self.blocks.index(block.kind),
                        label: printable_lines(&block.label).into_owned(),
                        x: block.x,
                        y: block.y,
                        width: block.width,
                        height: block.height,
                    })
                    .collect(),
            })
            .collect();
        Drawing { grids }
    }
}

/// The failure that lost the game, with the source line it points at.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FailurePanel {
    /// The move that failed (its frame index).
    pub index: usize,
    /// The move number (every seat's moves counted, as [`MoveEntry::turn`]).
    pub turn: u32,
    /// Which of the seat's own turns it was (its N-th move, from 1).
    pub own_turn: u32,
    /// The seat at fault.
    pub seat: Seat,
    /// Who sat there: `seat 0 (my-bot)`.
    pub who: String,
    /// What went wrong.
    pub kind: FailureKind,
    /// The failure's message (it may have several lines).
    pub message: String,
    /// Where in the bot's source, when the failure was located (its file name made printable).
    pub location: Option<SourceLocation>,
    /// The source line at the location, as read from disk when the replay was built.
    pub source: Option<SourceLine>,
    /// The bot's call stack, innermost first, as printable lines (see
    /// [`CallStack::lines`](botlens_engine::CallStack::lines); at most
    /// [`MAX_FRAMES`](botlens_engine::stack::MAX_FRAMES) frames), then a line for each other
    /// file of its frames that cannot be read now; empty when the trace has no stack (format 1).
    pub stack: Vec<String>,
    /// The call stack on one line, innermost first, for where room is short:
    /// `my_bot::helper ← [×1,942 my_bot::b ← my_bot::a] ← my_bot::play`; empty without a stack.
    pub stack_line: String,
}

impl FailurePanel {
    /// The panel as plain text lines: what failed, where, the source line (or why it is not
    /// shown), then the call stack.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = self.summary_lines();
        lines.extend(self.stack.iter().cloned());
        lines
    }

    /// When it failed: `move 23 (the bot's turn 12)` ([`move_and_turn`]).
    pub fn when(&self) -> String {
        move_and_turn(self.turn, self.own_turn)
    }

    /// [`FailurePanel::lines`] without the call stack, where room is short.
    pub fn summary_lines(&self) -> Vec<String> {
        let mut lines = vec![format!("{} · {} · {}", self.when(), self.who, self.kind)];
        lines.extend(self.message.lines().map(str::to_owned));
        match &self.location {
            Some(location) => lines.push(format!("at {location}")),
            None => lines.push("no source location recorded".into()),
        }
        if let Some(source) = &self.source {
            lines.extend(source.lines());
        }
        lines
    }
}

impl Replay {
    /// Builds the replay of `trace`, reading the failing source line from one directory only,
    /// the root:
    ///
    /// - `source_root` when given (the user's `--source-root`, the language server's project);
    /// - else the faulting bot's `source` recorded in the trace — resolved from the current
    ///   directory — when it lies inside the current directory and is a project directory (with
    ///   a `Cargo.toml`) or a `.wasm`/`.wat` module (then the module's directory). Recorded
    ///   outside the current directory, it is refused: the trace is untrusted, and may narrow
    ///   what is read but never widen it. Recorded but absent (a trace from another machine), it
    ///   counts as not recorded;
    /// - else the current directory, when it is a project directory.
    ///
    /// The file is read only if its path stays inside the root (`..` and symlinks leading out
    /// are refused), it is a regular file, and the line is within its first 4 MiB; otherwise
    /// the failure panel shows the location and says why its text is not shown.
    ///
    /// Refuses, with a clear error, traces in a newer format, of a game this build does not know,
    /// or whose moves no longer replay (truncated or hand-edited).
    pub fn from_trace(trace: &Trace, source_root: Option<&Path>) -> Result<Replay, ReplayError> {
        Replay::open(trace, source_root, false)
    }

    /// [`Replay::from_trace`], with every move judged by the game's oracle (as `botlens analyze`
    /// judges them): each costly move carries what it cost and the oracle's choice
    /// ([`MoveEntry::judged`], [`Frame::best`]), and the move that lost the game is marked.
    /// Judging a Battleships game takes a moment per shot, so only the viewers ask for it.
    pub fn judged_from_trace(
        trace: &Trace,
        source_root: Option<&Path>,
    ) -> Result<Replay, ReplayError> {
        Replay::open(trace, source_root, true)
    }

    fn open(
        trace: &Trace,
        source_root: Option<&Path>,
        judging: bool,
    ) -> Result<Replay, ReplayError> {
        if trace.format_version > TRACE_FORMAT_VERSION {
            return Err(TraceError::NewerFormat {
                found: trace.format_version,
                supported: TRACE_FORMAT_VERSION,
            }
            .into());
        }
        let kind = GameKind::from_name(&trace.game).ok_or_else(|| ReplayError::UnknownGame {
            name: trace.game.clone(),
            known: GameKind::names(),
        })?;
        kind.visit(Build { trace, source_root, judging })
    }

    /// The number of moves (one less than the number of frames).
    pub fn move_count(&self) -> usize {
        self.moves.len()
    }

    /// The frame of the failing move, if the game was lost by a fault.
    pub fn failure_frame(&self) -> Option<usize> {
        self.failure.as_ref().map(|failure| failure.index)
    }

    /// Frame `index`, or an error naming the moves that exist.
    pub fn frame(&self, index: usize) -> Result<&Frame, ReplayError> {
        self.frames
            .get(index)
            .ok_or(ReplayError::NoSuchMove { requested: index, moves: self.move_count() })
    }
}

/// How many display columns of `game`'s text the cells of its `picture` reach.
fn cells_width<G: Game>(game: &G, picture: &Picture) -> usize {
    let spots = picture.grids.iter().enumerate().flat_map(|(grid, drawn)| {
        (0..drawn.height()).flat_map(move |y| (0..drawn.width()).map(move |x| Spot { grid, x, y }))
    });
    spots
        .filter_map(|spot| game.text_cell(spot))
        .map(|cell| cell.column + cell.width)
        .max()
        .unwrap_or(0)
}

/// The visitor that builds a [`Replay`] for the trace's game type.
struct Build<'a> {
    trace: &'a Trace,
    source_root: Option<&'a Path>,
    judging: bool,
}

impl GameVisitor for Build<'_> {
    type Output = Result<Replay, ReplayError>;

    fn visit<G: Scored>(self) -> Self::Output {
        build::<G>(self.trace, self.source_root, self.judging)
    }
}

/// Builds the replay of a trace of game `G`.
fn build<G: Scored>(
    trace: &Trace,
    source_root: Option<&Path>,
    judging: bool,
) -> Result<Replay, ReplayError> {
    let record = trace.decode::<G>()?;
    // A game whose oracle cannot be made (a board too large to search) is shown unjudged.
    let oracle = judging.then(|| G::oracle(&record.initial).ok()).flatten();
    // The moves judged in order, so an oracle that estimates reuses what it worked out.
    let mut judge = oracle.as_ref().map(|oracle| oracle.game_judge());
    // Per move, whether it turned a position its player had not lost into a lost one.
    let mut loses = Vec::with_capacity(record.moves.len());
    let total = record.moves.len();
    // In a puzzle every move is the one player's: the move list leaves out who moved.
    let solo = record.initial.seats() == 1;

    let mut moves = Vec::with_capacity(total);
    let mut frames = Vec::with_capacity(total + 1);
    let mut failure = None;
    let mut legend = Legend::default();
    frames.push(Frame {
        index: 0,
        title: "start".into(),
        board: printable_lines(&record.initial.render()).into_owned(),
        logs: Vec::new(),
        failed: false,
        cost: None,
        picture: record.initial.picture().map(|picture| legend.draw(&picture)),
        touched: Vec::new(),
        touched_text: Vec::new(),
        layers: Vec::new(),
        overlay: Vec::new(),
        best: Vec::new(),
        best_text: Vec::new(),
        cells_width: record
            .initial
            .picture()
            .map_or(0, |picture| cells_width(&record.initial, &picture)),
    });
    // Positions are derived in one pass (`MatchRecord::state_after` per frame would be
    // quadratic); `decode` has already checked that every recorded legal action replays.
    let mut game = record.initial.clone();
    let mut memory_before = vec![None; record.initial.seats()];
    let mut turns_taken = vec![0u32; record.initial.seats()];
    // Each seat's latest move so far, and whether it drew.
    let mut latest: Vec<Option<(usize, bool)>> = vec![None; record.initial.seats()];
    for (position, played) in record.moves.iter().enumerate() {
        let index = position + 1;
        if let Some(taken) = turns_taken.get_mut(played.seat) {
            *taken += 1;
        }
        let touched = played
            .action
            .as_ref()
            .map_or_else(Vec::new, |action| game.action_cells(played.seat, action));
        let judgement = match (&oracle, &mut judge, &played.action, &played.response) {
            (Some(oracle), Some(judge), Some(action), Some(_)) => {
                let judgement = judge.judge(&game, played.seat, action);
                judgement.is_mistake().then(|| {
                    let note = format!(
                        "{}: {} → {}; best {}",
                        oracle.mistake(),
                        judgement.before,
                        judgement.after,
                        judgement.best
                    );
                    let best = game.action_cells(played.seat, &judgement.best);
                    (Judged { note: line(&note), losing: false }, best, judgement.loses)
                })
            }
            _ => None,
        };
        loses.push(judgement.as_ref().is_some_and(|(_, _, loses)| *loses));
        let (judged, best) = match judgement {
            Some((judged, best, _)) => (Some(judged), best),
            None => (None, Vec::new()),
        };
        if let (Some(action), Some(_)) = (&played.action, &played.response) {
            game.apply(played.seat, action)
                .map_err(|illegal| TraceError::Diverged { turn: played.turn, reason: illegal.0 })?;
        }
        let action = played
            .action
            .as_ref()
            .map_or_else(|| "no action".to_owned(), |action| line(&action.to_string()));
        let response = trace.moves[position].response.as_ref().map(|r| line(&r.to_string()));
        let wasteful = played.wasted;
        let player = trace.players.get(played.seat).map_or(String::new(), |p| line(&p.name));
        let mark = if played.failure.is_some() {
            "  ✗ "
        } else if wasteful {
            "  ~ "
        } else if judged.is_some() {
            "  ? "
        } else {
            "  "
        };
        let picture = game.picture();
        let on_picture = |spots: Vec<Spot>| -> Vec<Spot> {
            picture.as_ref().map_or_else(Vec::new, |picture| {
                spots.into_iter().filter(|spot| picture.contains(spot)).collect()
            })
        };
        let (touched, best) = (on_picture(touched), on_picture(best));
        let marks = layer::<G>(played.seat, index, &played.drawing, picture.as_ref());
        if let Some(seat) = latest.get_mut(played.seat) {
            *seat = Some((index, marks.is_some()));
        }
        let layers: Vec<usize> =
            latest.iter().flatten().filter(|(_, drew)| *drew).map(|&(at, _)| at).collect();
        moves.push(MoveEntry {
            event: picture.as_ref().and_then(|picture| event(picture, &touched, wasteful)),
            marks,
            turn: played.turn,
            seat: played.seat,
            label: if solo {
                format!("{index:>3}{mark}{action}")
            } else {
                format!("{index:>3} seat {} {player}{mark}{action}", played.seat)
            },
            action: action.clone(),
            response,
            failed: played.failure.is_some(),
            wasteful,
            judged,
        });
        let overlay = layers
            .iter()
            .filter_map(|&at| moves.get(at - 1)?.marks.as_ref())
            .flat_map(|layer| overlay(&game, layer))
            .collect();
        frames.push(Frame {
            index,
            title: format!(
                "move {index}/{total} · {} · {action}",
                who(&trace.players, played.seat)
            ),
            board: printable_lines(&game.render()).into_owned(),
            logs: played.logs.iter().map(|log| line(log)).collect(),
            failed: played.failure.is_some(),
            cost: cost_line(played.cost, memory_before.get_mut(played.seat)),
            touched_text: touched.iter().filter_map(|&spot| game.text_cell(spot)).collect(),
            cells_width: picture.as_ref().map_or(0, |picture| cells_width(&game, picture)),
            touched,
            best_text: best.iter().filter_map(|&spot| game.text_cell(spot)).collect(),
            best,
            picture: picture.map(|picture| legend.draw(&picture)),
            layers,
            overlay,
        });
        if let (Some(found), None) = (&played.failure, &failure) {
            let cwd = std::env::current_dir().ok();
            let root =
                SourceRoot::choose(source_root, trace.players.get(played.seat), cwd.as_deref());
            failure = Some(FailurePanel {
                index,
                turn: played.turn,
                own_turn: turns_taken.get(played.seat).copied().unwrap_or(0),
                seat: played.seat,
                who: who(&trace.players, played.seat),
                kind: found.kind,
                message: printable_lines(&found.message).into_owned(),
                location: found.location.as_ref().map(|location| SourceLocation {
                    file: line(&location.file),
                    ..location.clone()
                }),
                source: found.location.as_ref().map(|location| SourceLine::read(&root, location)),
                stack: stack_lines(found.stack.as_ref(), found.location.as_ref(), &root),
                stack_line: found.stack.as_ref().map_or_else(String::new, CallStack::chain),
            });
        }
    }

    mark_losing(&mut moves, &loses, &record.outcome, record.initial.seats());
    Ok(Replay {
        game: line(&trace.game),
        seed: trace.seed,
        engine_version: line(&trace.engine_version),
        seats: (0..record.initial.seats()).map(|seat| seat_line(&trace.players, seat)).collect(),
        bot_seat: bot_seat(&trace.players),
        result: result_line(trace, record.initial.seats()),
        moves,
        frames,
        failure,
        cell_states: legend.cells.into_lines(),
        block_kinds: legend.blocks.into_lines(),
    })
}

/// Marks the move that lost a decided game: the loser's last move that turned a position it had
/// not lost into a lost one (`loses`, per move), `??` in the move list.
fn mark_losing(moves: &mut [MoveEntry], loses: &[bool], outcome: &MatchOutcome, seats: usize) {
    let Some(winner) = outcome.winner.filter(|_| seats > 1) else { return };
    let losing = (0..moves.len()).rev().find(|&i| moves[i].seat != winner && loses[i]);
    let Some(entry) = losing.map(|i| &mut moves[i]) else { return };
    if let Some(judged) = &mut entry.judged {
        judged.losing = true;
        judged.note = format!("the move that lost the game: {}", judged.note);
        entry.label = entry.label.replacen("  ? ", " ?? ", 1);
    }
}

/// What a move that touched `touched` did, for a timeline: `hit` or `sunk` when the first
/// square it touched shows that in `picture`, the position after it, unless it was `wasteful`.
fn event(picture: &Picture, touched: &[Spot], wasteful: bool) -> Option<String> {
    let spot = touched.first().filter(|_| !wasteful)?;
    let state = picture.grids.get(spot.grid)?.get(spot.x, spot.y)?;
    [state::HIT, state::SUNK].contains(&state).then(|| state.to_owned())
}

/// What a move cost, for people (see [`Frame::cost`]); `before` is the seat's memory after its
/// move before, updated to this move's.
fn cost_line(cost: TurnCost, before: Option<&mut Option<u64>>) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(fuel) = cost.fuel {
        parts.push(format!("fuel {}", thousands(fuel)));
    }
    if let Some(memory) = cost.memory {
        let kib = |bytes: u64| format!("{} KiB", thousands(bytes / 1024));
        let earlier = before.and_then(|before| before.replace(memory));
        let grown = match earlier {
            Some(earlier) if memory > earlier => format!(" (+{})", kib(memory - earlier)),
            _ => String::new(),
        };
        parts.push(format!("memory {}{grown}", kib(memory)));
    }
    (!parts.is_empty()).then(|| parts.join(" · "))
}

/// The seat of the game's only player that is not a reference player, else seat 0.
fn bot_seat(players: &[PlayerInfo]) -> Seat {
    let mut bots = (0..players.len()).filter(|&seat| players[seat].kind != "reference");
    match (bots.next(), bots.next()) {
        (Some(seat), None) => seat,
        _ => 0,
    }
}

/// A failure's call stack for the panel: a heading and its frames (bounded however long the
/// trace's stack is, every line printable), then what cannot be read now of the frames' files
/// other than `location`'s (which the panel's source line already speaks for).
fn stack_lines(
    stack: Option<&CallStack>,
    location: Option<&SourceLocation>,
    root: &SourceRoot,
) -> Vec<String> {
    let Some(stack) = stack.filter(|stack| !stack.frames.is_empty()) else { return Vec::new() };
    let stack = stack.clone().bounded();
    let mut lines = vec!["call stack, innermost first:".to_owned()];
    lines.extend(stack.lines().iter().map(|text| format!("  {}", line(text))));
    let mut files: Vec<&str> = location.map(|l| l.file.as_str()).into_iter().collect();
    for frame_location in stack.frames.iter().filter_map(|frame| frame.location.as_ref()) {
        if files.contains(&frame_location.file.as_str()) {
            continue;
        }
        files.push(&frame_location.file);
        let read = SourceLine::read(root, frame_location);
        if matches!(read, SourceLine::Missing { .. } | SourceLine::OutOfRange { .. }) {
            lines.extend(read.lines());
        }
    }
    lines
}

/// Untrusted text as one printable line.
fn line(text: &str) -> String {
    printable(text).into_owned()
}

/// `seat 1 (perfect)`, or `seat 1` when the trace does not say who sat there.
fn who(players: &[PlayerInfo], seat: Seat) -> String {
    match players.get(seat) {
        Some(player) => format!("seat {seat} ({})", line(&player.name)),
        None => format!("seat {seat}"),
    }
}

/// `seat 0: random (reference)`.
fn seat_line(players: &[PlayerInfo], seat: Seat) -> String {
    match players.get(seat) {
        Some(player) => format!("seat {seat}: {} ({})", line(&player.name), line(&player.kind)),
        None => format!("seat {seat}: unknown player"),
    }
}

/// How the game ended, for people: `seat 1 (perfect) won: three in a row: row 0`, `draw: board
/// full, no three in a row`, `seat 1 (hunter) won: seat 0 (my-bot) lost by illegal_move at move
/// 23 (the bot's turn 12)` (the failure panel has the details), `not solved: move cap of 500
/// reached`.
fn result_line(trace: &Trace, seats: usize) -> String {
    let (outcome, players) = (&trace.outcome, &trace.players);
    let why = match &outcome.fault {
        Some(fault) => {
            let own_turn = trace
                .moves
                .iter()
                .filter(|played| played.seat == fault.seat && played.turn <= fault.turn)
                .count();
            format!(
                "{} lost by {} at {}",
                who(players, fault.seat),
                fault.failure.kind,
                move_and_turn(fault.turn, u32::try_from(own_turn).unwrap_or(u32::MAX))
            )
        }
        None => line(&outcome.reason),
    };
    match outcome.winner {
        Some(seat) => format!("{} won: {why}", who(players, seat)),
        None if seats == 1 => format!("not solved: {why}"),
        None => format!("draw: {why}"),
    }
}

#[cfg(test)]
mod tests {
    use botlens_battleships::Battleships;
    use botlens_engine::runner::play_match;
    use botlens_engine::{
        FailureKind, MatchLimits, MatchRecord, SeedRng, Stream, TRACE_FORMAT_VERSION,
    };
    use botlens_klotski::Klotski;
    use serde_json::json;

    use super::*;
    use crate::fixtures::{
        HOSTILE, Typed, assert_printable, bot_location, bot_project, failed_game, hostile_game,
        reference_game, reference_trace,
    };

    /// The first seed on which `random` (seat 0) loses to `perfect`, and its replay, judged.
    fn judged_loss() -> (u64, Replay) {
        (0..)
            .find_map(|seed| {
                let (record, trace) = reference_game(seed);
                (record.result_for(0) == botlens_engine::SeatResult::Loss)
                    .then(|| (seed, Replay::judged_from_trace(&trace, None).expect("replays")))
            })
            .expect("random loses to perfect somewhere")
    }

    #[test]
    fn a_judged_replay_marks_the_move_that_lost_and_shows_the_oracles_choice() {
        let (seed, replay) = judged_loss();
        let losing: Vec<&MoveEntry> =
            replay.moves.iter().filter(|m| m.judged.as_ref().is_some_and(|j| j.losing)).collect();
        let [losing] = losing[..] else {
            panic!("seed {seed}: one losing move: {:#?}", replay.moves)
        };
        assert_eq!(losing.seat, 0, "the loser's");
        let note = &losing.judged.as_ref().unwrap().note;
        assert!(note.starts_with("the move that lost the game: blunder: "), "{note}");
        assert!(note.contains(" → lost; best mark("), "{note}");
        assert!(losing.label.contains(" ?? "), "{}", losing.label);
        let frame = &replay.frames[losing.turn as usize];
        assert_eq!(frame.best.len(), 1, "the best square: {frame:?}");
        assert_eq!(frame.best_text.len(), 1, "shown in the text too");
        assert!(
            replay.moves.iter().filter(|m| m.seat == 1).all(|m| m.judged.is_none()),
            "perfect makes no mistake"
        );
        let plain = Replay::from_trace(&reference_game(seed).1, None).expect("replays");
        assert!(
            plain.moves.iter().all(|m| m.judged.is_none())
                && plain.frames.iter().all(|f| f.best.is_empty()),
            "judged only when asked"
        );
    }

    #[test]
    fn a_moves_cost_reads_fuel_memory_and_the_growth_since_the_seats_move_before() {
        let cost = |fuel, memory| TurnCost { fuel: Some(fuel), memory: Some(memory) };
        let mut before = None;
        assert_eq!(
            cost_line(cost(1_462, 1 << 20), Some(&mut before)).as_deref(),
            Some("fuel 1,462 · memory 1,024 KiB")
        );
        let grown = cost_line(cost(900, (1 << 20) + 65_536), Some(&mut before));
        assert_eq!(grown.as_deref(), Some("fuel 900 · memory 1,088 KiB (+64 KiB)"));
        assert_eq!(cost_line(TurnCost::default(), None), None, "a native player's move");
        let old = TurnCost { fuel: Some(5), memory: None };
        assert_eq!(
            cost_line(old, None).as_deref(),
            Some("fuel 5"),
            "a trace before memory was kept"
        );
    }

    #[test]
    fn a_game_has_one_frame_per_move_plus_the_start_each_with_its_board() {
        let (record, trace) = reference_game(3);
        let replay = Replay::from_trace(&trace, None).expect("replays");
        assert_eq!(replay.game, "tictactoe");
        assert_eq!(replay.move_count(), record.moves.len());
        assert_eq!(replay.frames.len(), record.moves.len() + 1);
        for (index, frame) in replay.frames.iter().enumerate() {
            assert_eq!(frame.index, index);
            assert_eq!(frame.board, record.state_after(index).render(), "frame {index}");
            assert!(!frame.failed);
        }
        assert_eq!(replay.frames[0].title, "start");
        assert_eq!(replay.seats, ["seat 0: random (reference)", "seat 1: perfect (reference)"]);
        assert_eq!(replay.failure, None);
        assert_eq!(replay.failure_frame(), None);
    }

    #[test]
    fn moves_are_listed_with_the_games_own_action_text() {
        let (record, trace) = reference_game(3);
        let replay = Replay::from_trace(&trace, None).expect("replays");
        let first = &record.moves[0];
        let action = first.action.expect("a reference player always marks").to_string();
        let entry = &replay.moves[0];
        assert_eq!((entry.turn, entry.seat, entry.action.as_str()), (1, first.seat, &*action));
        let player = ["random", "perfect"][first.seat];
        assert_eq!(entry.label, format!("  1 seat {} {player}  {action}", first.seat));
        let total = record.moves.len();
        let who = format!("seat {} ({player})", first.seat);
        assert_eq!(replay.frames[1].title, format!("move 1/{total} · {who} · {action}"));
        let board = record.state_after(1).board();
        assert_eq!(entry.response.as_deref(), Some(&*json!({ "board": board }).to_string()));
    }

    #[test]
    fn the_result_names_the_winner_or_says_there_is_none() {
        for seed in 0..20 {
            let (record, trace) = reference_game(seed);
            let replay = Replay::from_trace(&trace, None).expect("replays");
            let expected = match record.outcome.winner {
                Some(seat) => {
                    let name = ["random", "perfect"][seat];
                    format!("seat {seat} ({name}) won: {}", record.outcome.reason)
                }
                None => format!("draw: {}", record.outcome.reason),
            };
            assert_eq!(replay.result, expected, "seed {seed}");
        }
    }

    #[test]
    fn a_game_lost_by_a_fault_says_who_failed_and_when() {
        let project = bot_project();
        let replay = Replay::from_trace(&failed_game(project.path()), Some(project.path()))
            .expect("replays");
        assert_eq!(
            replay.result,
            "seat 1 (scripted) won: seat 0 (my-bot) lost by illegal_move at move 5 (the bot's turn 3)"
        );
    }

    #[test]
    fn the_failing_move_carries_its_logs_and_the_source_line_from_disk() {
        let project = bot_project();
        let replay = Replay::from_trace(&failed_game(project.path()), Some(project.path()))
            .expect("replays");
        assert_eq!(replay.move_count(), 5);
        assert_eq!(replay.failure_frame(), Some(5));
        let failing = &replay.frames[5];
        assert!(failing.failed);
        assert_eq!(failing.logs, ["turn 5: I like mark(1, 1)", "board → looks fine"]);
        assert_eq!(failing.board, replay.frames[4].board, "an illegal move changes nothing");
        assert!(replay.moves[4].failed && replay.moves[4].response.is_none());
        assert!(replay.moves[4].label.contains("✗ mark(1, 1)"), "{}", replay.moves[4].label);
        assert!(replay.frames[2].logs.is_empty(), "the opponent logged nothing");

        let failure = replay.failure.expect("the game was lost by a fault");
        assert_eq!((failure.turn, failure.own_turn, failure.seat), (5, 3, 0));
        assert_eq!(failure.kind, FailureKind::IllegalMove);
        assert_eq!(failure.message, "illegal move mark(1, 1): square (1, 1) is taken by X");
        assert_eq!(failure.location, Some(bot_location()));
        assert_eq!(
            failure.lines(),
            [
                "move 5 (the bot's turn 3) · seat 0 (my-bot) · illegal_move",
                "illegal move mark(1, 1): square (1, 1) is taken by X",
                "at src/lib.rs:3:6",
                "3 │     turn.mark(1, 1)?; // taken!",
                "  │         ^",
                "call stack, innermost first:",
                "  my_bot::play  src/lib.rs:3:6  (+2 std/SDK frames)",
                "  my_bot::main  src/lib.rs:1:1  (+3 std/SDK frames)",
            ]
        );
        assert_eq!(failure.stack_line, "my_bot::play ← my_bot::main");
    }

    #[test]
    fn a_trace_of_the_previous_format_replays_without_a_stack() {
        let text = include_str!("../fixtures/format-1.json");
        let trace = Trace::from_json(text).expect("a format 1 trace reads");
        assert_eq!(trace.format_version, 1);
        let replay = Replay::from_trace(&trace, None).expect("replays");
        let failure = replay.failure.expect("the game was lost by a fault");
        assert_eq!(failure.location, Some(bot_location()));
        assert!(failure.stack.is_empty());
        assert!(failure.lines().iter().all(|line| !line.contains("call stack")), "{failure:?}");
        assert_eq!(failure.stack_line, "");
    }

    #[test]
    fn stack_frames_in_files_that_moved_are_said_and_a_huge_stack_is_bounded() {
        let project = bot_project();
        let mut trace = failed_game(project.path());
        let failure = trace.moves[4].failure.as_mut().expect("the bot's move failed");
        let stack = failure.stack.as_mut().expect("a stack");
        stack.frames[1].location.as_mut().expect("located").file = "src/gone.rs".into();
        let frame = stack.frames[1].clone();
        stack.frames.extend(std::iter::repeat_n(frame, 100_000));
        let replay = Replay::from_trace(&trace, Some(project.path())).expect("replays");
        let panel = replay.failure.expect("the game was lost by a fault");
        assert!(
            panel.stack.len() <= botlens_engine::stack::MAX_FRAMES + 3,
            "{}",
            panel.stack.len()
        );
        assert!(
            panel.stack.iter().any(|l| l == "  … 99,938 outer frames not kept"),
            "{:?}",
            &panel.stack[60..]
        );
        let moved: Vec<&String> = panel.stack.iter().filter(|l| l.contains("gone.rs")).collect();
        let missing =
            moved.iter().filter(|l| l.starts_with("source missing: cannot read ")).count();
        assert_eq!(missing, 1, "said once for the file: {moved:?}");
    }

    #[test]
    fn an_explicit_source_root_wins_and_a_moved_source_is_reported() {
        let project = bot_project();
        let trace = failed_game(project.path());
        let elsewhere = tempfile::tempdir().expect("temp dir");
        let replay = Replay::from_trace(&trace, Some(elsewhere.path())).expect("replays");
        let source = replay.failure.and_then(|f| f.source).expect("a located failure");
        let expected = elsewhere.path().join("src/lib.rs").display().to_string();
        assert!(
            matches!(&source, SourceLine::Missing { path, .. } if *path == expected),
            "{source:?}"
        );

        std::fs::write(project.path().join("src/lib.rs"), "// rewritten\n").expect("edit");
        let replay = Replay::from_trace(&trace, Some(project.path())).expect("replays");
        let source = replay.failure.and_then(|f| f.source).expect("a located failure");
        assert!(matches!(source, SourceLine::OutOfRange { line: 3, lines: 1, .. }), "{source:?}");
    }

    #[test]
    fn by_default_a_project_outside_the_current_directory_is_not_read() {
        // The tests run in the crate's directory; the project is a temporary directory.
        let project = bot_project();
        let replay = Replay::from_trace(&failed_game(project.path()), None).expect("replays");
        let source = replay.failure.and_then(|f| f.source).expect("a located failure");
        let SourceLine::Refused { path, reason } = &source else { panic!("{source:?}") };
        assert_eq!(path, "src/lib.rs");
        assert!(reason.contains("outside the current directory"), "{reason}");
    }

    #[test]
    fn every_string_of_a_hostile_trace_is_printable_and_keeps_its_text() {
        let project = bot_project();
        let replay = Replay::from_trace(&hostile_game(project.path()), Some(project.path()))
            .expect("replays");
        let json = serde_json::to_value(&replay).expect("serializes");
        let mut strings = Vec::new();
        collect_strings(&json, &mut strings);
        for text in &strings {
            assert_printable(text);
        }
        let shown = HOSTILE.replace('\u{1b}', "\\u{1b}").replace('\u{7}', "\\u{7}");
        let shown = shown.replace('\u{9b}', "\\u{9b}").replace('\u{202e}', "\\u{202e}");
        let failure = replay.failure.as_ref().expect("failed");
        assert_eq!(failure.message, format!("boom {shown}\nsecond {shown}"));
        assert_eq!(failure.who, format!("seat 0 (my-bot{shown})"));
        assert_eq!(replay.seats[1], format!("seat 1: scripted ({shown})"));
        assert_eq!(replay.engine_version, format!("0.1{shown}"));
        assert_eq!(replay.frames[5].logs.last(), Some(&format!("log {shown}")));
        let directory = shown.replace('/', "");
        let file = &failure.location.as_ref().expect("located").file;
        assert_eq!(file, &format!("src/{directory}/../lib.rs"));
        let lines = failure.lines();
        assert_eq!(lines[1..3], [format!("boom {shown}"), format!("second {shown}")]);
        assert_eq!(lines[4], format!("3 │     turn.mark(1, 1)?; // {shown}"), "the line is read");
    }

    /// Every string in `value`, keys included.
    fn collect_strings(value: &serde_json::Value, out: &mut Vec<String>) {
        match value {
            serde_json::Value::String(text) => out.push(text.clone()),
            serde_json::Value::Array(items) => {
                items.iter().for_each(|item| collect_strings(item, out))
            }
            serde_json::Value::Object(fields) => {
                for (key, item) in fields {
                    out.push(key.clone());
                    collect_strings(item, out);
                }
            }
            _ => {}
        }
    }

    #[test]
    fn a_failure_without_a_location_has_no_source_line() {
        let project = bot_project();
        let mut trace = failed_game(project.path());
        trace.moves[4].failure.as_mut().expect("failed").location = None;
        let failure = Replay::from_trace(&trace, None).expect("replays").failure.expect("failed");
        assert_eq!(failure.source, None);
        assert_eq!(failure.lines()[2], "no source location recorded");
    }

    #[test]
    fn a_newer_format_is_refused() {
        let (_, mut trace) = reference_game(1);
        trace.format_version = TRACE_FORMAT_VERSION + 1;
        let err = Replay::from_trace(&trace, None).unwrap_err().to_string();
        assert!(err.contains("is newer than this botlens supports"), "{err}");
    }

    #[test]
    fn an_unknown_game_is_refused_naming_the_known_ones() {
        let (_, mut trace) = reference_game(1);
        trace.game = "chess".into();
        let err = Replay::from_trace(&trace, None).unwrap_err().to_string();
        assert!(err.starts_with("the trace is of an unknown game `chess` (this botlens knows "));
        assert!(err.contains("tictactoe"), "{err}");
    }

    #[test]
    fn edited_moves_that_no_longer_replay_are_refused() {
        let (_, trace) = reference_game(2);
        let mut taken = trace.clone();
        taken.moves[1].action = taken.moves[0].action.clone();
        let err = Replay::from_trace(&taken, None).unwrap_err().to_string();
        assert!(err.starts_with("move 2 does not replay: square"), "{err}");

        let mut answered = trace.clone();
        answered.moves[0].response = Some(json!({ "board": "........." }));
        let err = Replay::from_trace(&answered, None).unwrap_err().to_string();
        assert!(err.starts_with("move 1 does not replay: recorded"), "{err}");

        let mut garbled = trace;
        garbled.moves[2].action = Some(json!("centre"));
        let err = Replay::from_trace(&garbled, None).unwrap_err().to_string();
        assert!(err.starts_with("trace field `moves[2].action` does not fit the game"), "{err}");
    }

    #[test]
    fn no_single_digit_edit_of_a_trace_makes_the_replayer_panic() {
        let project = bot_project();
        let text = failed_game(project.path()).to_json();
        let mut outcomes = [0, 0];
        for (at, byte) in text.bytes().enumerate().filter(|(_, b)| b.is_ascii_digit()) {
            for digit in [b'0', b'2', b'9'].into_iter().filter(|&d| d != byte) {
                let mut edited = text.clone().into_bytes();
                edited[at] = digit;
                let edited = String::from_utf8(edited).expect("still UTF-8");
                let built = Trace::from_json(&edited)
                    .map_err(ReplayError::from)
                    .and_then(|trace| Replay::from_trace(&trace, None));
                outcomes[usize::from(built.is_ok())] += 1;
            }
        }
        assert!(
            outcomes[0] > 0 && outcomes[1] > 0,
            "edits both refused and accepted: {outcomes:?}"
        );
    }

    /// Every frame's board is the game's own render of the position after that many moves, and
    /// its drawing the game's own picture of it.
    fn assert_frames_render_each_position<G: Game>(record: &MatchRecord<G>, replay: &Replay) {
        assert_eq!(replay.frames.len(), record.moves.len() + 1);
        for (index, frame) in replay.frames.iter().enumerate() {
            let position = record.state_after(index);
            assert_eq!(frame.board, position.render(), "frame {index}");
            let picture = position.picture().expect("every game here draws its board");
            let drawing = frame.picture.as_ref().expect("drawn");
            assert_eq!(drawing.grids.len(), picture.grids.len(), "frame {index}");
            for (drawn, grid) in drawing.grids.iter().zip(&picture.grids) {
                assert_eq!(drawn.title, grid.title());
                assert_eq!((drawn.width, drawn.height), (grid.width(), grid.height()));
                assert_eq!(cell_names(replay, drawn), grid.cells(), "frame {index}");
                let blocks: Vec<_> = drawn
                    .blocks
                    .iter()
                    .map(|b| {
                        (&*replay.block_kinds[b.kind], &*b.label, [b.x, b.y, b.width, b.height])
                    })
                    .collect();
                let expected: Vec<_> = grid
                    .blocks()
                    .iter()
                    .map(|b| (b.kind, &*b.label, [b.x, b.y, b.width, b.height]))
                    .collect();
                assert_eq!(blocks, expected, "frame {index}");
            }
        }
    }

    /// A drawn grid's cells by name.
    fn cell_names<'a>(replay: &'a Replay, grid: &DrawnGrid) -> Vec<&'a str> {
        grid.cells.iter().map(|&cell| replay.cell_states[cell].as_str()).collect()
    }

    /// The name of the state of `spot` in frame `index`.
    fn state_at<'a>(replay: &'a Replay, index: usize, spot: &Spot) -> &'a str {
        let grid = &replay.frames[index].picture.as_ref().expect("drawn").grids[spot.grid];
        &replay.cell_states[grid.cells[spot.y * grid.width + spot.x]]
    }

    #[test]
    fn each_tictactoe_frame_touches_the_square_its_mark_named_the_failing_one_too() {
        let project = bot_project();
        let replay = Replay::from_trace(&failed_game(project.path()), Some(project.path()))
            .expect("replays");
        assert_eq!(replay.cell_states, ["empty", "x", "o"], "first seen in that order");
        assert!(replay.block_kinds.is_empty());
        assert_eq!(replay.frames[0].touched, [], "the start follows no move");
        let spot = |x, y| Spot { grid: 0, x, y };
        let marks = [(1, 1), (2, 2), (0, 0), (2, 0), (1, 1)];
        for (index, (x, y)) in (1..).zip(marks) {
            assert_eq!(replay.frames[index].touched, [spot(x, y)], "frame {index}");
        }
        // In the text, square (x, y) is on line 2 + 2y, column 4 + 4x, and the last is column 12.
        let text = |x, y| TextCell { line: 2 + 2 * y, column: 4 + 4 * x, width: 1 };
        for (index, (x, y)) in (1..).zip(marks) {
            assert_eq!(replay.frames[index].touched_text, [text(x, y)], "frame {index}");
        }
        assert!(replay.frames.iter().all(|frame| frame.cells_width == 13));
        let states: Vec<&str> =
            (1..=4).map(|i| state_at(&replay, i, &spot(marks[i - 1].0, marks[i - 1].1))).collect();
        assert_eq!(states, ["x", "o", "x", "o"], "each touched square holds its new mark");
        let failing = &replay.frames[5];
        assert!(failing.failed);
        assert_eq!(state_at(&replay, 5, &spot(1, 1)), "x", "the taken square, still X's");
        assert_eq!(failing.picture, replay.frames[4].picture, "an illegal move changes nothing");
    }

    #[test]
    fn each_battleships_frame_touches_the_square_attacked_on_the_other_fleet() {
        let (record, trace) = reference_trace::<Battleships>(4, &["random", "hunter"]);
        let replay = Replay::from_trace(&trace, None).expect("replays");
        assert_eq!(replay.cell_states[..2], ["water", "ship"]);
        let mut seen = std::collections::BTreeSet::new();
        for (index, played) in (1..).zip(&record.moves) {
            let attack = played.action.as_ref().expect("reference players attack");
            let spot = Spot { grid: 1 - played.seat, x: attack.x as usize, y: attack.y as usize };
            assert_eq!(replay.frames[index].touched, [spot], "frame {index}");
            let state = state_at(&replay, index, &spot);
            let before = state_at(&replay, index - 1, &spot);
            let response =
                serde_json::to_value(played.response.as_ref().expect("legal")).expect("serializes");
            let expected = match response["result"].as_str() {
                Some("already_attacked") => before,
                Some(result) => result,
                None => panic!("frame {index}: a shot without a result"),
            };
            assert_eq!(state, expected, "frame {index}: {played:?}");
            seen.insert(state);
        }
        assert_eq!(seen, ["hit", "miss", "sunk"].into(), "a whole game shows every shot's kind");
    }

    #[test]
    fn each_klotski_frame_touches_the_slid_piece_where_it_was_and_where_it_went() {
        let (record, trace) = reference_trace::<Klotski>(1, &["optimal"]);
        let replay = Replay::from_trace(&trace, None).expect("replays");
        assert_eq!(replay.cell_states, ["floor"]);
        assert_eq!(replay.block_kinds, ["goal", "goal_piece", "piece"]);
        // The cells of the block labelled with `code` in frame `index`.
        let cells_of = |index: usize, code: &str| -> Vec<Spot> {
            let grid = &replay.frames[index].picture.as_ref().expect("drawn").grids[0];
            let block = grid.blocks.iter().find(|b| b.label.ends_with(&format!("\n{code}")));
            let b = block.unwrap_or_else(|| panic!("frame {index}: no piece {code}"));
            (b.y..b.y + b.height)
                .flat_map(|y| (b.x..b.x + b.width).map(move |x| Spot { grid: 0, x, y }))
                .collect()
        };
        for (index, played) in (1..).zip(&record.moves) {
            let code = &played.action.as_ref().expect("the solver slides").piece;
            let mut expected: Vec<Spot> = cells_of(index - 1, code);
            expected.extend(cells_of(index, code));
            expected.sort_by_key(|spot| (spot.y, spot.x));
            expected.dedup();
            let mut touched = replay.frames[index].touched.clone();
            touched.sort_by_key(|spot| (spot.y, spot.x));
            assert_eq!(touched, expected, "frame {index}: {code}");
        }
    }

    #[test]
    fn touched_cells_outside_the_picture_are_dropped() {
        let project = bot_project();
        let mut trace = failed_game(project.path());
        trace.moves[4].action = Some(json!({ "x": 7, "y": -2 }));
        let replay = Replay::from_trace(&trace, None).expect("an illegal move replays as one");
        assert!(replay.frames[5].failed);
        assert_eq!(replay.frames[5].touched, []);
    }

    #[test]
    fn a_battleships_game_shows_the_games_render_of_both_grids_in_every_frame() {
        let (record, trace) = reference_trace::<Battleships>(4, &["random", "hunter"]);
        let replay = Replay::from_trace(&trace, None).expect("replays");
        assert_frames_render_each_position(&record, &replay);
        assert_eq!(replay.game, "battleships");
        assert_eq!(replay.failure, None);
    }

    #[test]
    fn a_wasted_battleships_shot_is_flagged_and_a_missing_move_fails_unlocated() {
        let mut bot = Typed::<Battleships>::new(&["0 0", "0 0", "0 0", "0 0"]);
        let hunter = Battleships::reference_players().iter().find(|p| p.name == "hunter");
        let mut hunter =
            (hunter.expect("hunter exists").create)(SeedRng::new(2, Stream::Player(1)));
        let record = play_match::<Battleships>(
            &(),
            2,
            &mut [&mut bot, &mut *hunter],
            &MatchLimits::default(),
        );
        let trace = record.to_trace(vec![], json!(null));
        let replay = Replay::from_trace(&trace, None).expect("replays");
        assert_frames_render_each_position(&record, &replay);
        let wasted: Vec<&MoveEntry> = replay.moves.iter().filter(|m| m.wasteful).collect();
        assert_eq!(wasted.len(), 3, "every attack on (0, 0) after the first is wasted");
        assert!(wasted.iter().all(|m| m.seat == 0 && m.label.contains("  ~ attack(0, 0)")));
        let failure = replay.failure.expect("running out of moves loses");
        assert_eq!((failure.seat, failure.kind), (0, FailureKind::NoMove));
        assert_eq!((failure.location, failure.source), (None, None));
        assert_eq!(replay.seats, ["seat 0: unknown player", "seat 1: unknown player"]);
    }

    #[test]
    fn a_klotski_game_replays_the_optimal_solution_of_the_classic_board() {
        let (record, trace) = reference_trace::<Klotski>(1, &["optimal"]);
        let replay = Replay::from_trace(&trace, None).expect("replays");
        assert_frames_render_each_position(&record, &replay);
        assert_eq!(replay.seats, ["seat 0: optimal (reference)"]);
        assert!(replay.result.starts_with("seat 0 (optimal) won: "), "{}", replay.result);
        assert_eq!(record.last.view(0).steps, 81, "the classic board's optimal steps");
        let first = record.moves[0].action.as_ref().expect("the solver slides").to_string();
        assert_eq!(replay.moves[0].label, format!("  1  {first}"), "a puzzle lists moves alone");
    }

    #[test]
    fn an_unsolved_puzzle_says_so() {
        let mut idle = Typed::<Klotski>::new(&[]);
        let record = play_match::<Klotski>(
            &Default::default(),
            1,
            &mut [&mut idle],
            &MatchLimits::default(),
        );
        let replay = Replay::from_trace(&record.to_trace(vec![], json!(null)), None).expect("ok");
        assert_eq!(replay.result, "not solved: seat 0 lost by no_move at move 1");
    }

    #[test]
    fn frames_past_the_end_are_an_error_naming_the_moves() {
        let (_, trace) = reference_game(1);
        let replay = Replay::from_trace(&trace, None).expect("replays");
        let last = replay.move_count();
        assert!(replay.frame(last).is_ok());
        let err = replay.frame(last + 1).unwrap_err().to_string();
        assert_eq!(
            err,
            format!("there is no move {}: the game has {last} moves (0 is the start)", last + 1)
        );
    }
}
