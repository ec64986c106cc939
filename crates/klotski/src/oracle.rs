//! The solver's oracle: the optimal distance to the goal, in steps and in cell moves, of every
//! position a game can reach.
//!
//! [`Shortest`] searches once per game, from its starting position: every position reachable
//! from there, with its neighbours a step and a cell move away; then, over those lists, from the
//! solved ones among them, the fewest steps (and, apart, the fewest one-cell slides) to the
//! goal; moves are reversible, so the distance from the solved positions is the distance to
//! them. Same-shaped pieces are interchangeable, as in the solver, so 横刀立马 is 25,955
//! positions. Checked at every one of them: each distance is one more than its nearest
//! neighbour's, by the game's own slides (which makes it the fewest), and at every 211th
//! against the solver.
//!
//! A game is scored in steps, and a slide of the piece moved last continues its step: the
//! steps still to count from a position are the fewest from it or from any position that piece
//! reaches by sliding on ([`Shortest::steps`]). A slide that does not bring the puzzle as near
//! as the best one does is a *detour*, costing the steps it adds; a game's detours sum to its
//! steps over par.

use botlens_engine::{Judgement, Oracle, Seat};
use botlens_protocol::klotski::{Dir, Slide};

use crate::solver::{self, Distances, Space};
use crate::{Klotski, Layout};

/// Klotski's oracle: shortest solutions (see the module's documentation).
pub struct Shortest {
    /// The geometry of the game's piece set.
    space: Space,
    /// The fewest steps and cell moves to the goal of every position reachable from the game's
    /// start.
    distances: Distances,
}

impl Shortest {
    /// The oracle for positions reachable from `layout`'s, or why there is none (no solution,
    /// or too many positions to search).
    pub fn new(layout: &Layout) -> Result<Shortest, String> {
        let (space, distances) =
            solver::reachable_steps_and_cells(layout).map_err(|e| e.to_string())?;
        Ok(Shortest { space, distances })
    }

    /// The steps still to count from `layout`'s position to the goal when `moving` is the piece
    /// moved last (its slides continue a step already counted): `None` for a position from which
    /// the goal cannot be reached, or one not reachable from the game's start.
    pub fn steps(&self, layout: &Layout, moving: Option<usize>) -> Option<u32> {
        let position = self.space.position(layout);
        let continued = moving.map(|piece| self.space.continuations(layout, &position, piece));
        let steps = |position: &[u8]| self.distances.get(position).map(|(steps, _)| steps);
        let fresh = steps(&position);
        continued.into_iter().flatten().filter_map(|next| steps(&next)).chain(fresh).min()
    }

    /// The fewest cell moves from `layout`'s position to the goal, as [`Shortest::steps`].
    pub fn cells(&self, layout: &Layout) -> Option<u32> {
        self.distances.get(&self.space.position(layout)).map(|(_, cells)| cells)
    }

    /// How many positions the oracle knows.
    pub fn len(&self) -> usize {
        self.distances.len()
    }

    /// Whether it knows none (never, for an oracle that was made).
    pub fn is_empty(&self) -> bool {
        self.distances.len() == 0
    }

    /// What sliding piece `index` by `dir` from `before` leaves to count, the slide's own step
    /// included (`None` when the slide is not legal or leads nowhere solvable), and the board
    /// after it.
    fn after(&self, before: &Klotski, index: usize, dir: Dir) -> Option<(u32, Layout)> {
        let mut next = before.board().clone();
        next.slide(index, dir).ok()?;
        let step = u32::from(before.last_moved() != Some(index));
        Some((step + self.steps(&next, Some(index))?, next))
    }

    /// A position's distance in words: `81 steps (116 cell moves) from the goal`, `solved`.
    fn words(&self, steps: Option<u32>, layout: &Layout) -> String {
        match (steps, self.cells(layout)) {
            (_, Some(0)) => "solved".into(),
            (Some(steps), Some(cells)) => {
                format!("{} ({}) from the goal", plural(steps, "step"), plural(cells, "cell move"))
            }
            _ => "unsolvable".into(),
        }
    }
}

/// `1 step`, `81 steps`.
fn plural(n: u32, unit: &str) -> String {
    if n == 1 { format!("1 {unit}") } else { format!("{n} {unit}s") }
}

impl Oracle<Klotski> for Shortest {
    fn unit(&self) -> &'static str {
        "step"
    }

    fn mistake(&self) -> &'static str {
        "detour"
    }

    fn judge(&self, before: &Klotski, _seat: Seat, slide: &Slide) -> Judgement<Slide> {
        let layout = before.board();
        let then = self.steps(layout, before.last_moved());
        let index = layout.find(&slide.piece).expect("a legal slide names a piece");
        let made = self.after(before, index, slide.dir);
        let moves =
            layout.pieces().iter().enumerate().flat_map(|(index, piece)| {
                Dir::ALL.into_iter().map(move |dir| (index, piece, dir))
            });
        let best = moves
            .filter_map(|(index, piece, dir)| {
                let (left, _) = self.after(before, index, dir)?;
                Some((left, Slide { piece: piece.code.clone(), dir }))
            })
            .min_by_key(|(left, _)| *left)
            .map_or_else(|| slide.clone(), |(_, best)| best);
        // Every position a game reaches is reachable from its start, so both are known; a move
        // from or into an unsolvable one (none, for a solvable start) is not judged.
        let cost = match (then, &made) {
            (Some(then), Some((left, _))) => left.saturating_sub(then),
            _ => 0,
        };
        let after = match &made {
            Some((left, next)) => {
                let step = u32::from(before.last_moved() != Some(index));
                self.words(Some(left - step), next)
            }
            None => "unsolvable".into(),
        };
        Judgement {
            cost: f64::from(cost),
            best,
            before: self.words(then, layout),
            after,
            loses: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use botlens_engine::{Game, SeedRng, Stream};

    use super::*;
    use crate::bundled;
    use crate::solver::{Count, solve, solve_from};

    #[test]
    fn the_classic_has_25955_positions_81_steps_and_116_cell_moves_from_the_start() {
        let classic = bundled::classic();
        let oracle = Shortest::new(&classic).unwrap();
        assert_eq!(oracle.len(), 25_955);
        assert_eq!(oracle.steps(&classic, None), Some(81));
        assert_eq!(oracle.cells(&classic), Some(116));
    }

    /// Every position reachable from `start`, as a layout, by a walk of one-cell slides.
    fn positions(start: &Layout) -> Vec<Layout> {
        let mut seen = HashSet::from([Space::new(start).1]);
        let mut queue = vec![start.clone()];
        let mut next = 0;
        while next < queue.len() {
            let layout = queue[next].clone();
            next += 1;
            for index in 0..layout.pieces().len() {
                for dir in Dir::ALL {
                    let mut moved = layout.clone();
                    if moved.slide(index, dir).is_ok() && seen.insert(Space::new(&moved).1) {
                        queue.push(moved);
                    }
                }
            }
        }
        queue
    }

    #[test]
    fn every_position_of_the_classic_is_one_more_than_its_nearest_neighbour_from_the_goal() {
        // Distances are the fewest moves exactly when each position's is 0 at the goal and
        // otherwise one more than its nearest neighbour's. Checked at all 25,955 positions with
        // the game's own slides: neighbours one cell slide apart for cell moves, and one piece's
        // slides in a row for steps.
        let classic = bundled::classic();
        let oracle = Shortest::new(&classic).unwrap();
        let all = positions(&classic);
        assert_eq!(all.len(), 25_955);
        for layout in &all {
            let (steps, cells) = (oracle.steps(layout, None), oracle.cells(layout));
            let (steps, cells) = (steps.expect("known"), cells.expect("known"));
            if layout.is_solved() {
                assert_eq!((steps, cells), (0, 0), "{layout:?}");
                continue;
            }
            let (mut nearest_steps, mut nearest_cells) = (u32::MAX, u32::MAX);
            for index in 0..layout.pieces().len() {
                // Every layout this piece alone reaches, one cell slide at a time.
                let mut seen = HashSet::from([Space::new(layout).1]);
                let mut reached = vec![(layout.clone(), 0)];
                let mut next = 0;
                while next < reached.len() {
                    let (at, slides) = reached[next].clone();
                    next += 1;
                    for dir in Dir::ALL {
                        let mut moved = at.clone();
                        if moved.slide(index, dir).is_ok() && seen.insert(Space::new(&moved).1) {
                            let known = oracle.steps(&moved, None).expect("reachable");
                            nearest_steps = nearest_steps.min(known);
                            if slides == 0 {
                                nearest_cells = nearest_cells.min(oracle.cells(&moved).unwrap());
                            }
                            reached.push((moved, slides + 1));
                        }
                    }
                }
            }
            assert_eq!(steps, nearest_steps + 1, "{layout:?}");
            assert_eq!(cells, nearest_cells + 1, "{layout:?}");
        }
    }

    #[test]
    fn distances_agree_with_the_solver_across_the_classics_positions() {
        let classic = bundled::classic();
        let oracle = Shortest::new(&classic).unwrap();
        let all = positions(&classic);
        assert_eq!(all.len(), oracle.len(), "the walk and the oracle know the same positions");
        // Every 211th of the 25,955 (three solves each), spread over the whole space; each with
        // a piece moved last, in turn, as a game's positions have.
        for (n, layout) in all.iter().enumerate().step_by(211) {
            assert_eq!(oracle.space.position(layout), Space::new(layout).1, "one canonical form");
            let moving = n % layout.pieces().len();
            let steps = |moving| solve_from(layout, Count::Steps, moving).unwrap().len() as u32;
            assert_eq!(oracle.steps(layout, None), Some(steps(None)), "{layout:?}");
            assert_eq!(oracle.steps(layout, Some(moving)), Some(steps(Some(moving))));
            let cells = solve(layout, Count::Cells).unwrap().len() as u32;
            assert_eq!(oracle.cells(layout), Some(cells));
        }
    }

    #[test]
    fn each_first_slide_costs_the_steps_it_adds_to_the_solvers_solution() {
        let classic = bundled::classic();
        let game = Klotski::start(classic.clone());
        let oracle = Shortest::new(&classic).unwrap();
        let mut free = 0;
        for (index, piece) in classic.pieces().iter().enumerate() {
            for dir in Dir::ALL {
                let mut next = classic.clone();
                if next.slide(index, dir).is_err() {
                    continue;
                }
                let slide = Slide { piece: piece.code.clone(), dir };
                let judged = oracle.judge(&game, 0, &slide);
                let left = solve_from(&next, Count::Steps, Some(index)).unwrap().len() as u32;
                assert_eq!(judged.cost, f64::from(1 + left - 81), "{slide:?}");
                assert_eq!(judged.before, "81 steps (116 cell moves) from the goal");
                free += usize::from(!judged.is_mistake());
                let best = oracle.judge(&game, 0, &judged.best);
                assert!(!best.is_mistake(), "the oracle's choice is no detour");
            }
        }
        assert!(free >= 1, "a solution starts somewhere");
    }

    #[test]
    fn a_games_detours_sum_to_its_steps_over_par() {
        let classic = bundled::classic();
        let oracle = Shortest::new(&classic).unwrap();
        let mut game = Klotski::start(classic.clone());
        let mut rng = SeedRng::new(7, Stream::Player(0));
        let mut detours = 0.0;
        for _ in 0..300 {
            let legal: Vec<Slide> = game
                .board()
                .pieces()
                .iter()
                .enumerate()
                .flat_map(|(index, piece)| Dir::ALL.map(|dir| (index, piece.code.clone(), dir)))
                .filter(|(index, _, dir)| game.board().check_slide(*index, *dir).is_ok())
                .map(|(_, piece, dir)| Slide { piece, dir })
                .collect();
            let slide = legal[rng.index(legal.len())].clone();
            let judged = oracle.judge(&game, 0, &slide);
            assert!(judged.cost >= 0.0 && !judged.loses);
            detours += judged.cost;
            game.apply(0, &slide).unwrap();
        }
        let left = oracle.steps(game.board(), game.last_moved()).unwrap();
        assert!(detours > 0.0, "random slides wander");
        assert_eq!(detours, f64::from(game.steps() + left - 81), "steps over par, so far");
    }

    #[test]
    fn an_unsolvable_board_has_no_oracle_and_says_why() {
        let text = "board:\n  G.B\nlegend:\n  G g goal\n  B b block\ngoal: g 2 0\n";
        let error = Shortest::new(&Layout::parse(text).unwrap()).err().unwrap();
        assert!(error.starts_with("no solution"), "{error}");
    }
}
