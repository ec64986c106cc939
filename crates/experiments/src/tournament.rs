//! `botlens tournament A B C …`: a paired round robin of several bots of one two-player game,
//! with Bradley–Terry ratings and the crosstable.
//!
//! Every side is anything `botlens compare` takes ([`Side`]), prepared as compare prepares
//! its sides (the first side's seeds for all). Every pair of sides then plays exactly what
//! `compare A B` plays head to head ([`compare::play`]): each seed twice, seats swapped, in the
//! same batches, so the figures do not depend on the number of worker threads. Pairs are
//! played in order: (1, 2), (1, 3), …, (2, 3), ….
//!
//! The ratings are [`botlens_stats::fit_ratings`] over all pairs' game scores (a draw half a
//! point): logistic Elo by maximum likelihood, **anchored at a mean of 0**, with one virtual
//! draw per pair ([`VIRTUAL_DRAWS`]) so that a side that won every game still has a finite
//! rating, and a 95 % interval of rating ± 1.96·σ, σ from the observed Fisher information (the
//! uncertainty against the field's mean). Sorted by rating, best first.
//!
//! In shards ([`tournament_shard`], `--shard I/N`), every pair plays one block of the seeds
//! into a part (`botlens_harness::shard`: `kind` `tournament`, `run` naming the game, the sides
//! — label, commit, module hashes, limits — and all the seeds; `seeds_played`; `pairs`, each
//! pair's `a`, `b`, `score` and `pentanomial`); [`merge`] adds the pairs up over the parts and
//! fits the ratings as one run does.
//!
//! Puzzles (Klotski) have no opponents to play: a tournament of them is refused (`botlens
//! compare` ranks two solvers by steps).
//!
//! # JSON (`botlens tournament --json`)
//!
//! One object, [`TournamentReport`]:
//!
//! | field | meaning |
//! |---|---|
//! | `game` | game name |
//! | `sides` | the sides in command-line order: `name` as typed, `commit` (for `PROJECT@REV` the commit built, full hash; else null) |
//! | `seeds` | the seeds every pair played, e.g. `0..=19` |
//! | `games` | games played in all |
//! | `virtual_draws` | drawn games added to every pair for the fit |
//! | `ratings` | best first: `rank` (1 up), `side` (index into `sides`), `name`, `elo` (mean of all 0), `error` (σ), `lower`, `upper` (the 95 % interval), `points` and `games` (the side's real score and games over all its pairs) |
//! | `crosstable` | every ordered pair of different sides, `row` then `column` (indices into `sides`), in command-line order: `score` (row's `wins`, `losses`, `draws` against column), `pentanomial` (`counts`: pairs by row's points 0, ½, 1, 1½, 2) and `elo` (row over column from the pairs, as `compare` gives it: `kind` `estimate` with `elo`, `lower`, `upper`, or `no_games`, `all_won`, `all_lost` with `games`) |

use std::fmt::Write as _;

use botlens_engine::text::printable_lines;
use botlens_sandbox::Sandbox;
use botlens_stats::{
    EloEstimate, PairScore, Pentanomial, StatsError, Tally as _, Trinomial, fit_ratings,
};
use serde::{Deserialize, Serialize};

use crate::compare::{self, CompareError, CompareOptions, Figures, PreparedSide, Side, SideId};
use botlens_bots::caps::LimitCaps;
use botlens_games::GameKind;
use botlens_harness::shard::{self, Contents, MergeError, Part, Shard};
use botlens_harness::tally::Misfit;
use botlens_harness::{CancelToken, SeedRange};

/// Drawn games added to every pair before the fit, so that sweeps keep finite ratings.
pub const VIRTUAL_DRAWS: f64 = 1.0;

/// What a tournament is asked to do.
#[derive(Debug, Clone, Default)]
pub struct TournamentOptions {
    /// Seeds instead of the first side's project's.
    pub seeds: Option<SeedRange>,
    /// Turn cap instead of the projects'.
    pub max_turns: Option<u32>,
    /// Worker threads; 0 means one per core.
    pub jobs: usize,
    /// The user's caps on the limits the sides' projects may ask for.
    pub caps: LimitCaps,
}

/// What a tournament reports on the way.
#[derive(Debug, Clone, Copy)]
pub enum Event<'a> {
    /// A side is being prepared, or a pair's batch finished (as `compare` reports them).
    Compare(compare::Event<'a>),
    /// A pair finished.
    PairDone {
        /// The pair's first side.
        a: &'a str,
        /// The pair's second side.
        b: &'a str,
        /// Pairs finished so far.
        done: usize,
        /// Pairs in all.
        pairs: usize,
        /// Games played so far.
        games: u64,
    },
}

/// Why a tournament could not be held.
#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    /// Fewer than two sides.
    #[error("a tournament needs at least two bots; {0} given")]
    TooFewSides(usize),
    /// A side named twice.
    #[error("`{0}` is named twice: every side of a tournament must be a different bot")]
    Duplicate(String),
    /// A puzzle, which has no opponents.
    #[error(
        "{0} is a puzzle: its solvers play no opponents, so there is no round robin; compare two solvers by steps with `botlens compare`"
    )]
    Puzzle(&'static str),
    /// A side could not be used, or a pair could not be played.
    #[error(transparent)]
    Compare(#[from] CompareError),
    /// The fit refused the scores.
    #[error(transparent)]
    Stats(#[from] StatsError),
}

/// A tournament's result; see the module docs for its JSON.
#[derive(Debug, Clone, Serialize)]
pub struct TournamentReport {
    /// Game name.
    pub game: String,
    /// The sides in command-line order.
    pub sides: Vec<SideEntry>,
    /// The seeds every pair played.
    pub seeds: String,
    /// Games played in all.
    pub games: u64,
    /// Drawn games added to every pair for the fit.
    pub virtual_draws: f64,
    /// The ratings, best first.
    pub ratings: Vec<RatedSide>,
    /// Every ordered pair of different sides, in command-line order.
    pub crosstable: Vec<CrossEntry>,
}

/// One side as named.
#[derive(Debug, Clone, Serialize)]
pub struct SideEntry {
    /// The name as typed.
    pub name: String,
    /// For a revision, the commit built.
    pub commit: Option<String>,
}

/// One side's rating.
#[derive(Debug, Clone, Serialize)]
pub struct RatedSide {
    /// Its rank, 1 the best.
    pub rank: usize,
    /// Index into [`TournamentReport::sides`].
    pub side: usize,
    /// The name as typed.
    pub name: String,
    /// The rating in logistic Elo; the mean of all is 0.
    pub elo: f64,
    /// The rating's standard error.
    pub error: f64,
    /// The 95 % interval's lower end.
    pub lower: f64,
    /// The 95 % interval's upper end.
    pub upper: f64,
    /// Points over all its pairs (a win 1, a draw ½), without virtual draws.
    pub points: f64,
    /// Games over all its pairs.
    pub games: u64,
}

/// What a row side scored against a column side.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct CrossEntry {
    /// Index of the row side.
    pub row: usize,
    /// Index of the column side.
    pub column: usize,
    /// Row's wins, losses and draws against column.
    pub score: Trinomial,
    /// The pairs by row's points.
    pub pentanomial: Pentanomial,
    /// Row's Elo over column, from the pairs.
    pub elo: EloEstimate,
}

/// Holds the round robin of `sides`: checks them, prepares each, plays every pair head to
/// head and fits the ratings. `events` hears about builds, batches and finished pairs.
pub fn tournament(
    sandbox: &Sandbox,
    sides: &[Side],
    options: &TournamentOptions,
    events: &(dyn Fn(Event<'_>) + Sync),
    cancel: &CancelToken,
) -> Result<TournamentReport, TournamentError> {
    let field = Field::prepare(sandbox, sides, options, events, cancel)?;
    let compare_events = |event: compare::Event<'_>| events(Event::Compare(event));
    let mut results = Vec::with_capacity(field.pairs.len());
    let (mut games, mut seeds) = (0, String::new());
    for (done, &(i, j)) in field.pairs.iter().enumerate() {
        let (a, b) = (&field.prepared[i], &field.prepared[j]);
        let report = compare::play(a, b, &field.options, &compare_events, cancel)?;
        let Figures::HeadToHead { score, pentanomial, .. } = report.figures else {
            unreachable!("a two-player game without opponents is played head to head")
        };
        games += report.games;
        seeds = report.seeds;
        results.push(PairResult { a: i, b: j, score, pentanomial });
        field.pair_done(events, done, games);
    }
    report_of(field.game, field.entries(), seeds, games, &results)
}

/// Plays shard `shard` of the round robin of `sides` (every pair on one block of the seeds, as
/// `compare --shard` plays a pair) and returns its part, for [`merge`].
pub fn tournament_shard(
    sandbox: &Sandbox,
    sides: &[Side],
    options: &TournamentOptions,
    shard: Shard,
    events: &(dyn Fn(Event<'_>) + Sync),
    cancel: &CancelToken,
) -> Result<Part<TournamentPart>, TournamentError> {
    let field = Field::prepare(sandbox, sides, options, events, cancel)?;
    let compare_events = |event: compare::Event<'_>| events(Event::Compare(event));
    let mut results = Vec::with_capacity(field.pairs.len());
    let (mut games, mut seeds_played) = (0, 0);
    for (done, &(i, j)) in field.pairs.iter().enumerate() {
        let (a, b) = (&field.prepared[i], &field.prepared[j]);
        let part = compare::play_shard(a, b, &field.options, shard, &compare_events, cancel)?;
        let (score, pentanomial) =
            part.contents.head_to_head().expect("a pair of a round robin is played head to head");
        seeds_played = part.contents.seeds_played;
        games += 2 * seeds_played;
        results.push(PairResult { a: i, b: j, score, pentanomial });
        field.pair_done(events, done, games);
    }
    let run = TournamentId {
        game: field.game.name().to_owned(),
        sides: field.prepared.iter().map(SideId::of).collect(),
        seeds: field.options.seeds.expect("the field's seeds are set when prepared"),
    };
    Ok(Part::of(shard, TournamentPart { run, seeds_played, pairs: results }))
}

/// Merges the parts of one round robin played in shards ([`tournament_shard`]), each named (for
/// errors) as the caller names it, into the report the round robin played whole makes.
pub fn merge(
    parts: Vec<(String, Part<TournamentPart>)>,
) -> Result<TournamentReport, TournamentError> {
    shard::check_parts(&parts).map_err(CompareError::from)?;
    let run = parts[0].1.contents.run.clone();
    let misfit = |part: &str, what| {
        CompareError::Merge(MergeError::Misfit { part: part.to_owned(), misfit: Misfit::new(what) })
    };
    let game = GameKind::from_name(&run.game)
        .filter(|game| !game.is_puzzle())
        .ok_or_else(|| misfit(&parts[0].0, "its game is not one of two players"))?;
    let mut results: Vec<PairResult> = Vec::new();
    let mut games = 0;
    for (name, part) in parts {
        let part = part.contents;
        games += 2 * part.seeds_played * part.pairs.len() as u64;
        if results.is_empty() {
            results = part.pairs;
            continue;
        }
        for (mine, theirs) in results.iter_mut().zip(part.pairs) {
            *mine = mine
                .merged(theirs)
                .ok_or_else(|| misfit(&name, "its pairs are not the round robin's"))?;
        }
    }
    let entries = run
        .sides
        .iter()
        .map(|side| SideEntry { name: side.label.clone(), commit: side.commit.clone() })
        .collect();
    report_of(game, entries, run.seeds.to_string(), games, &results)
}

/// Prepares the round robin of `sides` as [`tournament`] does (every side built or loaded) and
/// returns its game and the seeds every pair plays: what its shards, played elsewhere, need.
pub fn planned(
    sandbox: &Sandbox,
    sides: &[Side],
    options: &TournamentOptions,
    events: &(dyn Fn(Event<'_>) + Sync),
    cancel: &CancelToken,
) -> Result<(GameKind, SeedRange), TournamentError> {
    let field = Field::prepare(sandbox, sides, options, events, cancel)?;
    Ok((field.game, field.options.seeds.expect("the field's seeds are set when prepared")))
}

/// The sides of a round robin prepared, its pairs and the options every pair is played with.
struct Field<'a> {
    sides: &'a [Side],
    game: GameKind,
    prepared: Vec<PreparedSide>,
    pairs: Vec<(usize, usize)>,
    options: CompareOptions,
}

impl<'a> Field<'a> {
    /// Checks `sides` and prepares each (the first side's seeds for all); every pair is two
    /// different bots of one game, before any game is played.
    fn prepare(
        sandbox: &Sandbox,
        sides: &'a [Side],
        options: &TournamentOptions,
        events: &(dyn Fn(Event<'_>) + Sync),
        cancel: &CancelToken,
    ) -> Result<Field<'a>, TournamentError> {
        let [first, rest @ ..] = sides else { return Err(TournamentError::TooFewSides(0)) };
        if rest.is_empty() {
            return Err(TournamentError::TooFewSides(1));
        }
        for (i, side) in sides.iter().enumerate() {
            if sides[..i].iter().any(|s| s.label == side.label) {
                return Err(TournamentError::Duplicate(side.label.clone()));
            }
        }
        let mut game = first.game()?;
        for side in rest {
            game = compare::common_game(first, side)?;
        }
        if game.is_puzzle() {
            return Err(TournamentError::Puzzle(game.name()));
        }
        let compare_events = |event: compare::Event<'_>| events(Event::Compare(event));
        let mut compare_options = CompareOptions {
            seeds: options.seeds,
            max_turns: options.max_turns,
            jobs: options.jobs,
            caps: options.caps.clone(),
            ..CompareOptions::default()
        };
        let mut run = compare_options.run_options(game);
        let mut prepared: Vec<PreparedSide> = Vec::with_capacity(sides.len());
        for side in sides {
            let ready = compare::prepare_side(sandbox, side, &run, &compare_events, cancel)?;
            run.seeds = Some(ready.suite.seeds);
            prepared.push(ready);
        }
        compare_options.seeds = run.seeds;
        let pairs: Vec<(usize, usize)> =
            (0..sides.len()).flat_map(|i| (i + 1..sides.len()).map(move |j| (i, j))).collect();
        for &(i, j) in &pairs {
            compare::check_pair(&prepared[i], &prepared[j])?;
        }
        Ok(Field { sides, game, prepared, pairs, options: compare_options })
    }

    /// Tells `events` that the `done`-th pair (from 0) finished, `games` played so far.
    fn pair_done(&self, events: &(dyn Fn(Event<'_>) + Sync), done: usize, games: u64) {
        let (i, j) = self.pairs[done];
        events(Event::PairDone {
            a: &self.sides[i].label,
            b: &self.sides[j].label,
            done: done + 1,
            pairs: self.pairs.len(),
            games,
        });
    }

    /// The sides as the report names them.
    fn entries(&self) -> Vec<SideEntry> {
        let entry = |side: &PreparedSide| SideEntry {
            name: side.label.clone(),
            commit: side.commit.clone(),
        };
        self.prepared.iter().map(entry).collect()
    }
}

/// What one pair of a round robin played: side `a`'s score against side `b` and the pairs by
/// `a`'s points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairResult {
    /// The pair's first side (index into the sides).
    pub a: usize,
    /// Its second side.
    pub b: usize,
    /// `a`'s wins, losses and draws against `b`.
    pub score: Trinomial,
    /// The pairs by `a`'s points.
    pub pentanomial: Pentanomial,
}

impl PairResult {
    /// This pair's games and `other`'s (other seeds of the same pair) together; `None` when
    /// `other` is another pair.
    fn merged(self, other: PairResult) -> Option<PairResult> {
        if (self.a, self.b) != (other.a, other.b) {
            return None;
        }
        let (mine, theirs) = (self.score, other.score);
        let score = Trinomial::new(
            mine.wins + theirs.wins,
            mine.losses + theirs.losses,
            mine.draws + theirs.draws,
        );
        let pentanomial = Pentanomial::new(std::array::from_fn(|i| {
            self.pentanomial.counts[i] + other.pentanomial.counts[i]
        }));
        Some(PairResult { score, pentanomial, ..self })
    }
}

/// Which round robin a part is of: what must be the same in every part merged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TournamentId {
    /// The game's name.
    pub game: String,
    /// The sides in command-line order.
    pub sides: Vec<SideId>,
    /// All the round robin's seeds (the shards' together).
    pub seeds: SeedRange,
}

/// A part of `botlens tournament`: which round robin, how many seeds its shard played, and
/// every pair's figures on them.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TournamentPart {
    /// Which round robin.
    pub run: TournamentId,
    /// The seeds each pair played in the shard.
    pub seeds_played: u64,
    /// Every pair, in order: (0, 1), (0, 2), …, (1, 2), ….
    pub pairs: Vec<PairResult>,
}

impl Contents for TournamentPart {
    const KIND: &'static str = "tournament";

    fn differs_from(&self, other: &TournamentPart) -> Option<&'static str> {
        let (mine, theirs) = (&self.run, &other.run);
        [
            ("game", mine.game == theirs.game),
            ("sides", mine.sides == theirs.sides),
            ("seeds", mine.seeds == theirs.seeds),
        ]
        .into_iter()
        .find_map(|(field, same)| (!same).then_some(field))
    }

    fn check(&self) -> Result<(), Misfit> {
        let sides = self.run.sides.len();
        let expected = (0..sides).flat_map(|i| (i + 1..sides).map(move |j| (i, j)));
        let in_order = self.pairs.iter().map(|pair| (pair.a, pair.b)).eq(expected);
        let seeds = self.seeds_played;
        let fits = |pair: &PairResult| {
            pair.pentanomial.pairs() <= seeds && pair.score.games() <= 2 * seeds
        };
        if in_order && self.pairs.iter().all(fits) && seeds <= self.run.seeds.len() {
            Ok(())
        } else {
            Err(Misfit::new("its pairs are not the round robin's"))
        }
    }
}

/// The report of a round robin of `game` between `sides` on `seeds`, `games` in all, whose
/// pairs gave `results`: the crosstable and the ratings fitted to it.
fn report_of(
    game: GameKind,
    sides: Vec<SideEntry>,
    seeds: String,
    games: u64,
    results: &[PairResult],
) -> Result<TournamentReport, TournamentError> {
    let mut crosstable = Vec::with_capacity(2 * results.len());
    let mut scores = Vec::with_capacity(results.len());
    for &PairResult { a: i, b: j, score, pentanomial } in results {
        scores.push(PairScore {
            player: i,
            opponent: j,
            points: score.points(),
            games: score.games(),
        });
        crosstable.push(CrossEntry {
            row: i,
            column: j,
            score,
            pentanomial,
            elo: pentanomial.elo(),
        });
        let (score, pentanomial) = (score.swapped(), pentanomial.swapped());
        crosstable.push(CrossEntry {
            row: j,
            column: i,
            score,
            pentanomial,
            elo: pentanomial.elo(),
        });
    }
    crosstable.sort_by_key(|entry| (entry.row, entry.column));
    let fitted = fit_ratings(sides.len(), &scores, VIRTUAL_DRAWS)?;
    let mut order: Vec<usize> = (0..sides.len()).collect();
    order.sort_by(|&x, &y| fitted[y].elo.total_cmp(&fitted[x].elo).then(x.cmp(&y)));
    let ratings = order
        .iter()
        .enumerate()
        .map(|(rank, &side)| {
            let rows = crosstable.iter().filter(|entry| entry.row == side);
            let (points, games) = rows.fold((0.0, 0), |(p, g), entry| {
                (p + entry.score.points(), g + entry.score.games())
            });
            let rating = fitted[side];
            RatedSide {
                rank: rank + 1,
                side,
                name: sides[side].name.clone(),
                elo: rating.elo,
                error: rating.error,
                lower: rating.lower,
                upper: rating.upper,
                points,
                games,
            }
        })
        .collect();
    Ok(TournamentReport {
        game: game.name().to_owned(),
        sides,
        seeds,
        games,
        virtual_draws: VIRTUAL_DRAWS,
        ratings,
        crosstable,
    })
}

impl TournamentReport {
    /// The figures of one ordered pair.
    pub fn entry(&self, row: usize, column: usize) -> Option<&CrossEntry> {
        self.crosstable.iter().find(|entry| entry.row == row && entry.column == column)
    }

    /// The ratings table and the crosstable (rows and columns best first, each cell the row's
    /// wins-losses-draws against the column), for a terminal. Names come from the user;
    /// control characters are escaped.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Tournament of {} bots ({}), seeds {}, {} games, every pair paired head to head",
            self.sides.len(),
            self.game,
            self.seeds,
            self.games
        );
        for side in &self.sides {
            if let Some(commit) = &side.commit {
                let _ =
                    writeln!(out, "{} is commit {}", side.name, &commit[..commit.len().min(12)]);
            }
        }
        let width = self.sides.iter().map(|s| s.name.chars().count()).max().unwrap_or(0).max(4);
        let _ = writeln!(
            out,
            "\n{:>4}  {:<width$}  {:>7}  {:>17}  {:>9}  {:>6}",
            "Rank", "Name", "Elo", "95% interval", "Points", "Games"
        );
        for rated in &self.ratings {
            let interval = format!("{:+.1} to {:+.1}", rated.lower, rated.upper);
            let _ = writeln!(
                out,
                "{:>4}  {:<width$}  {:>+7.1}  {interval:>17}  {:>9.1}  {:>6}",
                rated.rank, rated.name, rated.elo, rated.points, rated.games
            );
        }
        let _ = writeln!(
            out,
            "(Bradley-Terry ratings by maximum likelihood, mean 0, {} virtual draw per pair; \
             95% = ±1.96 standard errors from the Fisher information)",
            self.virtual_draws
        );
        let _ = writeln!(out, "\nCrosstable: the row's wins-losses-draws against the column");
        let cells: Vec<Vec<String>> = self
            .ratings
            .iter()
            .map(|row| {
                self.ratings
                    .iter()
                    .map(|column| match self.entry(row.side, column.side) {
                        Some(e) => format!("{}-{}-{}", e.score.wins, e.score.losses, e.score.draws),
                        None => "-".to_owned(),
                    })
                    .collect()
            })
            .collect();
        let column_width = cells.iter().flatten().map(String::len).max().unwrap_or(1).max(3);
        let _ = write!(out, "{:<width$}", "");
        for rated in &self.ratings {
            let _ = write!(out, "  {:>column_width$}", rated.rank);
        }
        let _ = writeln!(out);
        for (rated, row) in self.ratings.iter().zip(&cells) {
            let _ = write!(out, "{:<width$}", format!("{}. {}", rated.rank, rated.name));
            for cell in row {
                let _ = write!(out, "  {cell:>column_width$}");
            }
            let _ = writeln!(out);
        }
        printable_lines(&out).into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use botlens_harness::pipeline;

    fn sides(names: &[&str], game: &str) -> Vec<Side> {
        names.iter().map(|name| Side::parse(name, Some(game)).unwrap()).collect()
    }

    fn run(sides: &[Side], jobs: usize) -> Result<TournamentReport, TournamentError> {
        let options = TournamentOptions {
            seeds: Some("0..6".parse().unwrap()),
            jobs,
            ..TournamentOptions::default()
        };
        tournament(&pipeline::sandbox().unwrap(), sides, &options, &|_| {}, &CancelToken::new())
    }

    #[test]
    fn a_round_robin_rates_the_stronger_higher_with_a_mirrored_crosstable() {
        let field = sides(&["random", "hunter", "density"], "battleships");
        let report = run(&field, 2).unwrap();
        assert_eq!(report.games, 3 * 12, "three pairs of six seeds, twice each");
        let names: Vec<&str> = report.ratings.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names.last(), Some(&"random"), "{names:?}");
        let sum: f64 = report.ratings.iter().map(|r| r.elo).sum();
        assert!(sum.abs() < 1e-6, "anchored at a mean of 0: {sum}");
        assert_eq!(report.crosstable.len(), 6);
        for entry in &report.crosstable {
            let back = report.entry(entry.column, entry.row).unwrap();
            assert_eq!(back.score, entry.score.swapped());
            assert_eq!(entry.score.games(), 12);
        }
        let one = run(&field, 1).unwrap();
        assert_eq!(serde_json::to_value(&one).unwrap(), serde_json::to_value(&report).unwrap());
        let text = report.render();
        assert!(text.contains("Crosstable") && text.contains("3. random"), "{text}");
    }

    #[test]
    fn bad_fields_are_refused_before_playing() {
        let one = run(&sides(&["random"], "battleships"), 1).unwrap_err();
        assert_eq!(one.to_string(), "a tournament needs at least two bots; 1 given");
        let twice = run(&sides(&["random", "hunter", "random"], "battleships"), 1).unwrap_err();
        assert!(
            matches!(twice, TournamentError::Duplicate(ref name) if name == "random"),
            "{twice}"
        );
        let mut mixed = sides(&["random", "hunter"], "battleships");
        mixed.extend(sides(&["perfect"], "tictactoe"));
        let mixed = run(&mixed, 1).unwrap_err();
        assert!(mixed.to_string().contains("only bots of one game"), "{mixed}");
        let mut puzzle = sides(&["optimal"], "klotski");
        puzzle.push(Side::parse("../../samples/klotski-solver", None).unwrap());
        let puzzle = run(&puzzle, 1).unwrap_err();
        assert!(matches!(puzzle, TournamentError::Puzzle("klotski")), "{puzzle}");
    }
}
