//! Random solvable puzzles of the standard piece set (that of 横刀立马: one 2×2 曹操, four 1×2
//! generals, one 2×1 关羽, four soldiers, two empty cells on 4×5; 曹操 to the bottom-middle
//! exit), deterministic for a seed.
//!
//! The piece set has 65,880 layouts. The first call works out, once per process, the optimal
//! number of steps of every solvable one (a breadth-first search outwards from all solved
//! positions, since moves are reversible); [`generate`] then draws uniformly, with
//! [`SeedRng`] on [`Stream::Setup`], among the layouts needing at least the asked number of
//! steps. The search is exhaustive, so when no layout is hard enough the error states the true
//! maximum.

use std::sync::OnceLock;

use botlens_engine::{SeedRng, Stream};

use crate::solver::{self, Count, Distance, Space};
use crate::{Layout, bundled};

/// Why no layout could be generated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    /// No layout of the standard piece set needs that many steps.
    #[error(
        "no layout of the standard piece set needs {min_steps} steps or more: the hardest needs {max_steps}"
    )]
    TooHard {
        /// The minimum asked for.
        min_steps: u32,
        /// The largest optimal number of steps of any layout.
        max_steps: u32,
    },
}

/// Every solvable layout of the standard set with its optimal steps, and the hardest.
struct Table {
    space: Space,
    positions: Vec<Distance>,
    max_steps: u32,
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let (space, positions) = solver::solvable_positions(&bundled::classic(), Count::Steps)
            .expect("the standard piece set has 65,880 layouts, far below the search limit");
        let max_steps = positions.iter().map(|&(_, steps)| steps).max().unwrap_or(0);
        Table { space, positions, max_steps }
    })
}

/// A random solvable layout of the standard piece set whose optimal solution takes at least
/// `min_steps` steps (and at least one: never an already solved board). The same seed and
/// minimum always give the same layout. It is named `generated from seed N`; pieces of the same
/// shape are named in reading order (generals 张飞, 赵云, 黄忠, 马超; soldiers 1–4).
pub fn generate(seed: u64, min_steps: u32) -> Result<Layout, GenerateError> {
    let table = table();
    let floor = min_steps.max(1);
    let candidates: Vec<&Vec<u8>> =
        table.positions.iter().filter(|&&(_, steps)| steps >= floor).map(|(p, _)| p).collect();
    if candidates.is_empty() {
        return Err(GenerateError::TooHard { min_steps, max_steps: table.max_steps });
    }
    let mut rng = SeedRng::new(seed, Stream::Setup);
    let position = candidates[rng.index(candidates.len())];
    let layout = table.space.layout_at(&bundled::classic(), position);
    Ok(layout
        .renamed(Some(format!("generated from seed {seed}")))
        .expect("a short ASCII name is a valid layout name"))
}

/// The largest optimal number of steps of any layout of the standard piece set.
pub fn max_steps() -> u32 {
    table().max_steps
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::solve;

    #[test]
    fn the_same_seed_gives_the_same_layout() {
        assert_eq!(generate(7, 30), generate(7, 30));
        assert_ne!(generate(7, 30), generate(8, 30));
    }

    #[test]
    fn a_generated_layout_needs_at_least_the_minimum_and_uses_the_standard_set() {
        for seed in 0..5 {
            let layout = generate(seed, 60).unwrap();
            let steps = solve(&layout, Count::Steps).unwrap().len();
            assert!(steps >= 60, "seed {seed}: {steps}");
            assert_eq!(layout.name(), Some(format!("generated from seed {seed}").as_str()));
            let mut shapes: Vec<(u32, u32)> =
                layout.pieces().iter().map(|p| (p.width, p.height)).collect();
            shapes.sort_unstable();
            assert_eq!(
                shapes,
                [(1, 1), (1, 1), (1, 1), (1, 1), (1, 2), (1, 2), (1, 2), (1, 2), (2, 1), (2, 2)]
            );
            assert_eq!(layout.goal_piece().code, "cc");
            assert_eq!((layout.goal().x, layout.goal().y), (1, 3));
        }
    }

    #[test]
    fn a_minimum_of_zero_still_gives_an_unsolved_board() {
        for seed in 0..20 {
            assert!(!generate(seed, 0).unwrap().is_solved());
        }
    }

    #[test]
    fn an_unreachable_minimum_reports_the_true_maximum() {
        let max = max_steps();
        assert_eq!(max, 93, "the CLI's --min-steps help quotes it");
        let hardest = generate(1, max).unwrap();
        assert_eq!(solve(&hardest, Count::Steps).unwrap().len(), max as usize);
        assert_eq!(
            generate(1, max + 1),
            Err(GenerateError::TooHard { min_steps: max + 1, max_steps: max })
        );
    }

    #[test]
    fn generated_layouts_round_trip_through_the_text_format() {
        let layout = generate(3, 20).unwrap();
        assert_eq!(Layout::parse(&layout.to_text()).unwrap(), layout);
    }
}
