//! The reference opponents that ship with Battleships: `random`, `hunter`, `parity` and
//! `density`, from weakest to strongest.
//!
//! Each is a [`Strategy`] (which square to shoot, given what is known) wrapped in one [`Player`]
//! that keeps a [`Knowledge`] of the enemy grid. The knowledge is read from the view once, on
//! the player's first turn, and then updated from the answers to its own shots, so a turn
//! allocates nothing. All randomness comes from the [`SeedRng`] given to `create` (the game's
//! `Stream::Player(seat)`). None of them ever attacks a square twice.

mod density;
mod hunter;
pub(crate) mod knowledge;
mod random;

use botlens_engine::{Failure, Player, ReferencePlayer, SeedRng, Turn};
use botlens_protocol::battleships::Attack;

use crate::Battleships;
use crate::board::{FULL, random_square, xy};

use self::density::Density;
use self::hunter::{Hunter, Parity};
use self::knowledge::Knowledge;
use self::random::Random;

/// The opponents, weakest first.
pub(crate) static REFERENCE_PLAYERS: [ReferencePlayer<Battleships>; 4] = [
    ReferencePlayer {
        name: "random",
        summary: "shoots uniformly at squares it has not attacked yet",
        create: create::<Random>,
    },
    ReferencePlayer {
        name: "hunter",
        summary: "hunts at random, then shoots around hits until the ship sinks",
        create: create::<Hunter>,
    },
    ReferencePlayer {
        name: "parity",
        summary: "a hunter that hunts on one checkerboard colour",
        create: create::<Parity>,
    },
    ReferencePlayer {
        name: "density",
        summary: "shoots where the most placements of the remaining ships fit",
        create: create::<Density>,
    },
];

/// How one reference opponent picks its square.
trait Strategy: Send + 'static {
    /// A strategy for one game; may draw from the player's rng (e.g. a checkerboard colour).
    fn new(rng: &mut SeedRng) -> Self;

    /// The square (index `y * 10 + x`) to attack; `None` if it has nothing left to try.
    fn choose(&mut self, knowledge: &Knowledge, rng: &mut SeedRng) -> Option<u32>;
}

/// A strategy playing as a [`Player`].
struct Reference<S> {
    strategy: S,
    rng: SeedRng,
    /// `None` until the first turn.
    knowledge: Option<Knowledge>,
}

fn create<S: Strategy>(mut rng: SeedRng) -> Box<dyn Player<Battleships>> {
    let strategy = S::new(&mut rng);
    Box::new(Reference { strategy, rng, knowledge: None })
}

impl<S: Strategy> Player<Battleships> for Reference<S> {
    fn play(&mut self, turn: &mut Turn<Battleships>) -> Result<(), Failure> {
        let knowledge = self.knowledge.get_or_insert_with(|| Knowledge::from_view(&turn.view()));
        let cell = self
            .strategy
            .choose(knowledge, &mut self.rng)
            .or_else(|| random_square(FULL & !knowledge.attacked, &mut self.rng))
            .unwrap_or(0);
        let (x, y) = xy(cell);
        let shot = turn.act(Attack { x: x as i32, y: y as i32 })?;
        knowledge.record(cell, &shot);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::OnceLock;

    use botlens_engine::{Game, MatchLimits, Stream, runner::play_match};
    use botlens_protocol::battleships::{BOARD_SIZE, FLEET};

    use super::*;
    use crate::testing::{Idle, standard_game};

    /// Games per strategy in the statistics.
    const GAMES: u64 = 10_000;

    /// Shots a strategy needed to sink a fleet, per seed `0..GAMES`.
    struct Sample {
        name: &'static str,
        shots: Vec<f64>,
    }

    /// Mean and standard error of the mean.
    fn mean_and_error(values: impl ExactSizeIterator<Item = f64> + Clone) -> (f64, f64) {
        let n = values.len() as f64;
        let mean = values.clone().sum::<f64>() / n;
        let variance = values.map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
        (mean, (variance / n).sqrt())
    }

    /// Plays `GAMES` games of the named opponent (seat 0) against [`Idle`], which never sinks
    /// anything, so every game measures the shots needed to sink a whole fleet.
    fn measure(index: usize) -> Sample {
        let reference = REFERENCE_PLAYERS[index];
        let shots: Vec<f64> = (0..GAMES)
            .map(|seed| {
                let mut player = (reference.create)(SeedRng::new(seed, Stream::Player(0)));
                let mut idle = Idle;
                let record = play_match::<Battleships>(
                    &(),
                    seed,
                    &mut [player.as_mut(), &mut idle],
                    &MatchLimits::default(),
                );
                assert_eq!(record.outcome.winner, Some(0), "{} seed {seed}", reference.name);
                assert_eq!(record.wasteful_turns(0), Vec::<u32>::new(), "{}", reference.name);
                f64::from(record.last.shots_fired(0))
            })
            .collect();
        Sample { name: reference.name, shots }
    }

    /// Each strategy's sample, measured once and shared by the tests that need it.
    fn sample(index: usize) -> &'static Sample {
        static SAMPLES: [OnceLock<Sample>; 4] =
            [OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new()];
        SAMPLES[index].get_or_init(|| measure(index))
    }

    #[test]
    fn the_opponents_are_listed_weakest_first() {
        let names: Vec<&str> = Battleships::reference_players().iter().map(|r| r.name).collect();
        assert_eq!(names, ["random", "hunter", "parity", "density"]);
    }

    #[test]
    fn random_needs_n_101_over_n_plus_1_shots_on_average() {
        // The last of n ship squares in a uniformly random order of N squares comes at
        // position n(N+1)/(n+1) on average, with variance n(N+1)(N-n)/((n+1)^2 (n+2)).
        let n = FLEET.iter().map(|kind| kind.size()).sum::<usize>() as f64;
        let squares = (BOARD_SIZE * BOARD_SIZE) as f64;
        assert_eq!((n, squares), (18.0, 100.0));
        let expected = n * (squares + 1.0) / (n + 1.0);
        let variance = n * (squares + 1.0) * (squares - n) / ((n + 1.0).powi(2) * (n + 2.0));
        let error = (variance / GAMES as f64).sqrt();
        let (mean, _) = mean_and_error(sample(0).shots.iter().copied());
        println!("random: mean {mean:.2} shots (expected {expected:.2} ± {error:.2})");
        assert!((mean - expected).abs() < 4.0 * error, "mean {mean}");
    }

    #[test]
    fn mean_shots_are_ordered_density_parity_hunter_random() {
        let samples: Vec<&Sample> = (0..4).map(sample).collect();
        for s in &samples {
            let (mean, error) = mean_and_error(s.shots.iter().copied());
            println!("{:>8}: mean {mean:.2} ± {error:.2} shots to sink a fleet", s.name);
        }
        // Every strategy faced the same fleets (same seeds), so compare them game by game: the
        // paired difference has a much smaller error than two independent means.
        for pair in samples.windows(2) {
            let (weaker, stronger) = (pair[0], pair[1]);
            let gains = weaker.shots.iter().zip(&stronger.shots).map(|(w, s)| w - s);
            let (gain, error) = mean_and_error(gains);
            println!("{} saves {gain:.2} ± {error:.2} shots over {}", stronger.name, weaker.name);
            assert!(
                gain > 4.0 * error,
                "{} is not clearly better than {}: {gain:.2} ± {error:.2} shots",
                stronger.name,
                weaker.name
            );
        }
    }

    #[test]
    fn same_seed_same_moves_and_different_seeds_differ() {
        for reference in &REFERENCE_PLAYERS {
            let moves = |seed: u64| {
                let mut a = (reference.create)(SeedRng::new(seed, Stream::Player(0)));
                let mut b = (reference.create)(SeedRng::new(seed, Stream::Player(1)));
                let record = play_match::<Battleships>(
                    &(),
                    seed,
                    &mut [a.as_mut(), b.as_mut()],
                    &MatchLimits::default(),
                );
                record.moves.iter().map(|m| m.action).collect::<Vec<_>>()
            };
            assert_eq!(moves(3), moves(3), "{}", reference.name);
            assert_ne!(moves(3), moves(4), "{}", reference.name);
        }
    }

    #[test]
    fn a_player_joining_mid_game_starts_from_its_view() {
        // Seat 0 has sunk the patrol at (9, 0), hit the carrier at (0, 0) and missed (5, 5).
        // A fresh player for seat 0 must not shoot those squares again, and all but `random`
        // must go after the wounded carrier (not, say, the water around the sunk patrol).
        let mut game = standard_game(0);
        for (x, y) in [(9, 0), (0, 0), (5, 5)] {
            game.apply(0, &Attack { x, y }).expect("legal");
        }
        game.apply(1, &Attack { x: 9, y: 8 }).expect("legal");
        let before = game.view(0);
        for reference in &REFERENCE_PLAYERS {
            let mut turn = Turn::new(game.clone(), 0, 5);
            let mut player = (reference.create)(SeedRng::new(1, Stream::Player(0)));
            player.play(&mut turn).expect("plays");
            let after = turn.view();
            assert_eq!(after.shots, before.shots + 1, "{}", reference.name);
            let newly: Vec<(usize, usize)> = (0..BOARD_SIZE * BOARD_SIZE)
                .filter(|&i| before.targets.as_bytes()[i] != after.targets.as_bytes()[i])
                .map(|i| (i % BOARD_SIZE, i / BOARD_SIZE))
                .collect();
            let [square] = newly.as_slice() else {
                panic!("{} re-attacked: {newly:?}", reference.name)
            };
            if reference.name != "random" {
                assert!([(1, 0), (0, 1)].contains(square), "{}: {square:?}", reference.name);
            }
        }
    }

    #[test]
    fn targeting_follows_a_line_of_hits() {
        // Two hits along row 0 of the carrier: hunter, parity and density extend the line.
        let mut game = standard_game(0);
        for (x, y) in [(1, 0), (2, 0)] {
            game.apply(0, &Attack { x, y }).expect("legal");
        }
        for reference in &REFERENCE_PLAYERS[1..] {
            for seed in 0..20 {
                let mut turn = Turn::new(game.clone(), 0, 3);
                let mut player = (reference.create)(SeedRng::new(seed, Stream::Player(0)));
                player.play(&mut turn).expect("plays");
                // Both ends are carrier squares, so the shot is a hit at (0, 0) or (3, 0).
                let targets = turn.view().targets;
                let row = &targets[..BOARD_SIZE];
                assert!(
                    row == "xxx......." || row == ".xxx......",
                    "{} seed {seed}: {row}",
                    reference.name
                );
            }
        }
    }
}
