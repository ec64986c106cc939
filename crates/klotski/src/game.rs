//! [`Klotski`] as an engine [`Game`]: one seat, `slide(piece, dir)` actions, cell moves and
//! steps counted, solved when the goal piece reaches its target; its reference player
//! `optimal`; and [`par`], the optimal number of steps of a layout.
//!
//! Not for search itself ([`crate::solver`]) or human play ([`crate::session`]).

use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, OnceLock, PoisonError};

use botlens_engine::picture::{Picture, Spot, TextCell};
use botlens_engine::{
    Ending, Failure, FailureKind, Game, IllegalMove, Player, ReferencePlayer, Seat, SeedRng,
    Status, Turn,
};
use botlens_protocol::klotski::{Dir, KlotskiView, Slid, Slide};
use serde::{Deserialize, Serialize};

use crate::layout::{Blocked, Labels};
use crate::solver::{self, Count};
use crate::{Layout, picture, render};

/// A Klotski game: the board as it stands and the moves made so far.
///
/// Set up from a [`Layout`] (the game's `Config`; the seed plays no part). Serializes to JSON
/// as `{"board": <layout>, "moves": 12, "steps": 9, "last": 3}`, where `last` is the index of the
/// piece moved last (a slide of the same piece continues its step).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Klotski {
    board: Layout,
    moves: u32,
    steps: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    last: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    last_dir: Option<Dir>,
    /// The last slide moved its piece straight back where the slide before it came from.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    undid: bool,
}

impl Default for Klotski {
    /// The classic 横刀立马, no moves made.
    fn default() -> Klotski {
        Klotski::start(Layout::default())
    }
}

impl Klotski {
    /// A game at the start of `layout`.
    pub fn start(layout: Layout) -> Klotski {
        Klotski { board: layout, moves: 0, steps: 0, last: None, last_dir: None, undid: false }
    }

    /// The board as it stands.
    pub fn board(&self) -> &Layout {
        &self.board
    }

    /// One-cell slides made so far.
    pub fn moves(&self) -> u32 {
        self.moves
    }

    /// Steps made so far: consecutive slides of the same piece count as one.
    pub fn steps(&self) -> u32 {
        self.steps
    }

    /// The piece moved last (its index in the layout): another slide of it continues its step.
    pub fn last_moved(&self) -> Option<usize> {
        self.last
    }

    /// Whether the goal piece is on its target.
    pub fn is_solved(&self) -> bool {
        self.board.is_solved()
    }

    /// Slides piece `index` one cell, counting the move and the step; on refusal nothing
    /// changes. A slide straight back (the same piece, the opposite way of the slide just
    /// made) is a wasted move: it restores the position before.
    pub fn slide(&mut self, index: usize, dir: Dir) -> Result<Slid, Blocked> {
        self.board.slide(index, dir)?;
        self.undid = self.last == Some(index) && self.last_dir == Some(dir.opposite());
        self.last_dir = Some(dir);
        // A game read from a trace may start at any count: counts stop at their top.
        self.moves = self.moves.saturating_add(1);
        if self.last != Some(index) {
            self.steps = self.steps.saturating_add(1);
            self.last = Some(index);
        }
        Ok(Slid { moves: self.moves, steps: self.steps, solved: self.is_solved() })
    }

    /// `曹操 reached the exit in 81 steps (116 moves)` (with `cc` for [`Labels::Codes`]).
    pub fn solved_message(&self, labels: Labels) -> String {
        let goal = self.board.goal_piece();
        let who = labels.pick(&goal.name, &goal.code);
        format!(
            "{who} reached the exit in {} ({})",
            plural(self.steps, "step"),
            plural(self.moves, "move")
        )
    }

    /// The board drawing with a status line under it.
    pub fn render_with(&self, labels: Labels) -> String {
        let goal = self.board.goal();
        let status = status_line(
            self.moves,
            self.steps,
            &self.board.message_label(self.board.goal_index(), labels),
            goal.x,
            goal.y,
        );
        format!("{}{status}\n", render::board(&self.board, labels))
    }
}

/// `3 steps`, `1 move`.
pub(crate) fn plural(n: u32, unit: &str) -> String {
    if n == 1 { format!("1 {unit}") } else { format!("{n} {unit}s") }
}

fn status_line(moves: u32, steps: u32, goal: &str, x: u32, y: u32) -> String {
    format!("moves {moves}, steps {steps}; goal: {goal} to x={x}, y={y}")
}

/// Reads a direction: `up`/`down`/`left`/`right` or `w`/`s`/`a`/`d` (any case).
pub fn parse_dir(word: &str) -> Option<Dir> {
    match word.to_ascii_lowercase().as_str() {
        "up" | "w" => Some(Dir::Up),
        "down" | "s" => Some(Dir::Down),
        "left" | "a" => Some(Dir::Left),
        "right" | "d" => Some(Dir::Right),
        _ => None,
    }
}

impl Game for Klotski {
    const NAME: &'static str = "klotski";
    const DEFAULT_TURN_CAP: u32 = 1000;

    type Config = Layout;
    type Action = Slide;
    type Response = Slid;
    type View = KlotskiView;

    fn new(config: &Layout, _seed: u64) -> Klotski {
        Klotski::start(config.clone())
    }

    fn seats(&self) -> usize {
        1
    }

    fn to_move(&self) -> Seat {
        0
    }

    fn view(&self, _seat: Seat) -> KlotskiView {
        self.board.view(self.moves, self.steps)
    }

    fn apply(&mut self, seat: Seat, action: &Slide) -> Result<Slid, IllegalMove> {
        if seat != 0 {
            return Err(IllegalMove(format!("Klotski has one seat, 0; not seat {seat}")));
        }
        if self.is_solved() {
            return Err(IllegalMove("the puzzle is already solved".into()));
        }
        let Some(index) = self.board.find(&action.piece) else {
            let codes: Vec<&str> = self.board.pieces().iter().map(|p| p.code.as_str()).collect();
            return Err(IllegalMove(format!(
                "no piece `{}`: the pieces are {}",
                action.piece,
                codes.join(", ")
            )));
        };
        self.slide(index, action.dir).map_err(|blocked| {
            IllegalMove(self.board.explain_blocked(index, action.dir, &blocked, Labels::Names))
        })
    }

    fn is_wasteful(&self, _response: &Slid) -> bool {
        self.undid
    }

    fn status(&self) -> Status {
        if self.is_solved() {
            Status::Over(Ending { winner: Some(0), reason: self.solved_message(Labels::Names) })
        } else {
            Status::Ongoing
        }
    }

    fn capped(&self, cap: u32) -> Ending {
        Ending {
            winner: None,
            reason: format!("not solved within {cap} moves ({} made)", plural(self.steps, "step")),
        }
    }

    fn render(&self) -> String {
        self.render_with(Labels::Names)
    }

    fn picture(&self) -> Option<Picture> {
        let name = self.board.name().unwrap_or("board");
        let (steps, moves) = (plural(self.steps, "step"), plural(self.moves, "move"));
        Some(picture::picture(&self.board, format!("{name} · {steps} ({moves})")))
    }

    fn action_cells(&self, _seat: Seat, slide: &Slide) -> Vec<Spot> {
        picture::slid(&self.board, slide)
    }

    fn text_cell(&self, spot: Spot) -> Option<TextCell> {
        render::cell(&self.board, Labels::Names, spot)
    }

    fn render_view(view: &KlotskiView) -> String {
        let goal = view
            .pieces
            .iter()
            .find(|p| p.code == view.goal.piece)
            .map_or_else(|| view.goal.piece.clone(), |p| format!("{} ({})", p.name, p.code));
        let status = status_line(view.moves, view.steps, &goal, view.goal.x, view.goal.y);
        format!("{}{status}\n", render::view(view, Labels::Names))
    }

    /// Reads `cc down`, `cc s`, `zf w`, and the display form `slide(cc, down)`.
    fn parse_action(text: &str) -> Result<Slide, String> {
        let usage = "expected `<piece> <direction>`, e.g. `cc down` or `cc s` \
                     (directions: up, down, left, right or w, s, a, d)";
        let text = text.trim();
        let inner = text
            .strip_prefix("slide(")
            .and_then(|rest| rest.strip_suffix(')'))
            .map_or_else(|| text.to_string(), |args| args.replace(',', " "));
        let words: Vec<&str> = inner.split_whitespace().collect();
        let [piece, dir] = words.as_slice() else {
            return Err(usage.to_string());
        };
        let dir = parse_dir(dir).ok_or_else(|| format!("`{dir}` is not a direction: {usage}"))?;
        Ok(Slide { piece: piece.to_lowercase(), dir })
    }

    fn reference_players() -> &'static [ReferencePlayer<Klotski>] {
        &[ReferencePlayer {
            name: "optimal",
            summary: "follows an optimal solution (fewest steps) from the current position",
            create: create_optimal,
        }]
    }
}

fn create_optimal(_rng: SeedRng) -> Box<dyn Player<Klotski>> {
    Box::new(Optimal::default())
}

/// The `optimal` reference player: plans an optimal solution in steps and plays it slide by
/// slide, planning again whenever the board is not where its plan expects. On a board it cannot
/// solve it keeps making legal slides until the turn cap.
#[derive(Default)]
struct Optimal {
    plan: VecDeque<Slide>,
    expected: Option<Layout>,
    hopeless: bool,
}

impl Player<Klotski> for Optimal {
    fn play(&mut self, turn: &mut Turn<Klotski>) -> Result<(), Failure> {
        let here = Layout::from_view(&turn.view()).map_err(|e| {
            Failure::new(FailureKind::MalformedMessage, format!("the view is not a layout: {e}"))
        })?;
        if self.expected.as_ref() != Some(&here) && !self.hopeless {
            self.plan = match solver::solve(&here, Count::Steps) {
                Ok(solution) => solution.slides(&here).into(),
                Err(_) => {
                    self.hopeless = true;
                    VecDeque::new()
                }
            };
        }
        let Some(slide) = self.plan.pop_front().or_else(|| first_legal(&here)) else {
            // Nothing can move: the turn ends without an action.
            return Ok(());
        };
        let mut next = here;
        if let Some(index) = next.find(&slide.piece) {
            // The slide comes from the plan or was just checked, so it is legal.
            let _ = next.slide(index, slide.dir);
        }
        self.expected = Some(next);
        turn.act(slide)?;
        Ok(())
    }
}

/// Some legal slide, the first in piece order and [`Dir::ALL`] order.
fn first_legal(layout: &Layout) -> Option<Slide> {
    layout.pieces().iter().enumerate().find_map(|(index, piece)| {
        Dir::ALL
            .into_iter()
            .find(|&dir| layout.check_slide(index, dir).is_ok())
            .map(|dir| Slide { piece: piece.code.clone(), dir })
    })
}

/// The optimal number of steps to solve `layout` from where its pieces stand, or `None` when it
/// cannot be solved (or is too large to search). Cached per layout for the life of the process,
/// so a suite asking about the same layout many times pays for one search.
pub fn par(layout: &Layout) -> Option<u32> {
    static CACHE: OnceLock<Mutex<HashMap<Layout, Option<u32>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Mutex::default);
    if let Some(&known) = cache.lock().unwrap_or_else(PoisonError::into_inner).get(layout) {
        return known;
    }
    let par = solver::solve(layout, Count::Steps).ok().map(|s| s.len() as u32);
    cache.lock().unwrap_or_else(PoisonError::into_inner).insert(layout.clone(), par);
    par
}

#[cfg(test)]
mod tests {
    use super::*;
    use botlens_engine::runner::play_match;
    use botlens_engine::{MatchLimits, SeatResult};

    fn slide(piece: &str, dir: Dir) -> Slide {
        Slide { piece: piece.into(), dir }
    }

    #[test]
    fn a_game_read_at_the_top_count_still_slides() {
        let mut text = serde_json::to_value(Klotski::default()).unwrap();
        text["moves"] = u32::MAX.into();
        text["steps"] = u32::MAX.into();
        let mut game: Klotski = serde_json::from_value(text).unwrap();
        let free = first_legal(game.board()).expect("a piece that slides");
        let index = game.board().find(&free.piece).unwrap();
        let slid = game.slide(index, free.dir).unwrap();
        assert_eq!((slid.moves, slid.steps), (u32::MAX, u32::MAX));
    }

    #[test]
    fn the_game_is_named_and_capped_as_specified() {
        assert_eq!(Klotski::NAME, "klotski");
        assert_eq!(Klotski::DEFAULT_TURN_CAP, 1000);
        let game = Klotski::default();
        assert_eq!((game.seats(), game.to_move()), (1, 0));
        let capped = game.capped(1000);
        assert_eq!(capped.winner, None);
        assert_eq!(capped.reason, "not solved within 1000 moves (0 steps made)");
    }

    #[test]
    fn slides_of_the_same_piece_in_a_row_are_one_step() {
        let mut game = Klotski::default();
        assert_eq!(
            game.apply(0, &slide("1", Dir::Right)),
            Ok(Slid { moves: 1, steps: 1, solved: false })
        );
        assert_eq!(
            game.apply(0, &slide("1", Dir::Right)),
            Ok(Slid { moves: 2, steps: 1, solved: false })
        );
        assert_eq!(
            game.apply(0, &slide("3", Dir::Down)),
            Ok(Slid { moves: 3, steps: 2, solved: false })
        );
        assert_eq!(
            game.apply(0, &slide("3", Dir::Left)),
            Ok(Slid { moves: 4, steps: 2, solved: false })
        );
        assert_eq!(
            game.apply(0, &slide("1", Dir::Left)),
            Ok(Slid { moves: 5, steps: 3, solved: false })
        );
        let view = game.view(0);
        assert_eq!((view.moves, view.steps), (5, 3));
    }

    #[test]
    fn a_slide_straight_back_is_wasted_and_nothing_else_is() {
        let mut game = Klotski::default();
        let start = game.board().clone();
        let wasted = |game: &mut Klotski, piece: &str, dir: Dir| {
            let slid = game.apply(0, &slide(piece, dir)).expect("legal");
            game.is_wasteful(&slid)
        };
        assert!(!wasted(&mut game, "1", Dir::Right));
        assert!(wasted(&mut game, "1", Dir::Left), "straight back");
        assert_eq!(game.board(), &start, "a wasted slide restores the position before");
        assert!(wasted(&mut game, "1", Dir::Right), "back and forth: straight back again");
        assert!(!wasted(&mut game, "1", Dir::Right), "further the same way");
        assert!(!wasted(&mut game, "3", Dir::Down));
        assert!(!wasted(&mut game, "3", Dir::Left), "a turn is not straight back");
        assert!(!wasted(&mut game, "1", Dir::Left), "another piece moved in between");
    }

    #[test]
    fn illegal_slides_say_why_and_change_nothing() {
        let mut game = Klotski::default();
        let before = game.clone();
        assert_eq!(
            game.apply(0, &slide("cc", Dir::Down)),
            Err(IllegalMove("曹操 (cc) cannot move down: blocked by 关羽 (gy)".into()))
        );
        assert_eq!(
            game.apply(0, &slide("zf", Dir::Left)),
            Err(IllegalMove(
                "张飞 (zf) cannot move left: the edge of the board is in the way".into()
            ))
        );
        assert_eq!(
            game.apply(0, &slide("xx", Dir::Up)),
            Err(IllegalMove(
                "no piece `xx`: the pieces are cc, zf, zy, hz, mc, gy, 1, 2, 3, 4".into()
            ))
        );
        assert!(game.apply(1, &slide("1", Dir::Right)).is_err());
        assert_eq!(game, before);
    }

    #[test]
    fn the_optimal_player_solves_the_classic_at_par() {
        let layout = Layout::default();
        let mut player = create_optimal(SeedRng::new(0, botlens_engine::Stream::Player(0)));
        let record =
            play_match::<Klotski>(&layout, 0, &mut [player.as_mut()], &MatchLimits::default());
        assert_eq!(record.result_for(0), SeatResult::Win);
        assert_eq!(record.outcome.reason, "曹操 reached the exit in 81 steps (118 moves)");
        assert_eq!(record.last.steps(), 81);
        assert_eq!(par(&layout), Some(81));
    }

    #[test]
    fn the_optimal_player_replans_from_any_position() {
        let mut layout = Layout::default();
        let soldier = layout.find("1").unwrap();
        layout.slide(soldier, Dir::Right).unwrap();
        let mut player = create_optimal(SeedRng::new(0, botlens_engine::Stream::Player(0)));
        let record =
            play_match::<Klotski>(&layout, 0, &mut [player.as_mut()], &MatchLimits::default());
        assert_eq!(record.result_for(0), SeatResult::Win);
        assert_eq!(Some(record.last.steps()), par(&layout));
    }

    #[test]
    fn an_unsolvable_board_runs_into_the_cap_unsolved() {
        let text = "board:\n  G.B\nlegend:\n  G g goal\n  B b block\ngoal: g 2 0\n";
        let layout = Layout::parse(text).unwrap();
        assert_eq!(par(&layout), None);
        let mut player = create_optimal(SeedRng::new(0, botlens_engine::Stream::Player(0)));
        let limits = MatchLimits { max_turns: Some(10) };
        let record = play_match::<Klotski>(&layout, 0, &mut [player.as_mut()], &limits);
        assert_eq!(record.result_for(0), SeatResult::Loss);
        assert_eq!(record.outcome.fault, None);
        // It shuffles the goal piece back and forth: one long step.
        assert_eq!(record.outcome.reason, "not solved within 10 moves (1 step made)");
    }

    #[test]
    fn a_solved_game_ends_with_the_counts_and_refuses_more_moves() {
        let text = "board:\n  G.\nlegend:\n  G g 将\ngoal: g 1 0\n";
        let mut game = Klotski::new(&Layout::parse(text).unwrap(), 0);
        assert_eq!(game.status(), Status::Ongoing);
        assert_eq!(
            game.apply(0, &slide("g", Dir::Right)),
            Ok(Slid { moves: 1, steps: 1, solved: true })
        );
        assert_eq!(
            game.status(),
            Status::Over(Ending {
                winner: Some(0),
                reason: "将 reached the exit in 1 step (1 move)".into()
            })
        );
        assert!(game.apply(0, &slide("g", Dir::Left)).is_err());
    }

    #[test]
    fn actions_parse_in_words_keys_and_display_form() {
        assert_eq!(Klotski::parse_action("cc down"), Ok(slide("cc", Dir::Down)));
        assert_eq!(Klotski::parse_action("  cc s "), Ok(slide("cc", Dir::Down)));
        assert_eq!(Klotski::parse_action("zf w"), Ok(slide("zf", Dir::Up)));
        assert_eq!(Klotski::parse_action("ZF A"), Ok(slide("zf", Dir::Left)));
        assert_eq!(Klotski::parse_action("1 right"), Ok(slide("1", Dir::Right)));
        let display = slide("gy", Dir::Left).to_string();
        assert_eq!(Klotski::parse_action(&display), Ok(slide("gy", Dir::Left)));
        assert!(
            Klotski::parse_action("cc").unwrap_err().starts_with("expected `<piece> <direction>`")
        );
        assert!(
            Klotski::parse_action("cc sideways")
                .unwrap_err()
                .starts_with("`sideways` is not a direction")
        );
        assert!(Klotski::parse_action("").is_err());
    }

    #[test]
    fn rendering_shows_names_and_counters() {
        let game = Klotski::default();
        let text = game.render();
        assert!(text.contains("|张飞|  曹操   |黄忠|"), "{text}");
        assert!(text.ends_with("moves 0, steps 0; goal: 曹操 (cc) to x=1, y=3\n"), "{text}");
        assert_eq!(Klotski::render_view(&game.view(0)), text);
    }

    #[test]
    fn the_state_round_trips_through_json_and_bad_json_is_refused() {
        let mut game = Klotski::default();
        game.apply(0, &slide("1", Dir::Right)).unwrap();
        let json = serde_json::to_string(&game).unwrap();
        let back: Klotski = serde_json::from_str(&json).unwrap();
        assert_eq!(back, game);
        let overlapping = json.replacen("\"x\":1,\"y\":0", "\"x\":0,\"y\":0", 1);
        assert!(serde_json::from_str::<Klotski>(&overlapping).is_err());
    }

    #[test]
    fn there_is_one_reference_player_named_optimal() {
        let names: Vec<&str> = Klotski::reference_players().iter().map(|p| p.name).collect();
        assert_eq!(names, ["optimal"]);
    }
}
