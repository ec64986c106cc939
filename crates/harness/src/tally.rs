//! What a suite counts as its games finish, in memory that does not grow with the number of
//! games: per opponent, wins, losses, draws, moves and faults (and, for a paired suite, the
//! pentanomial of its game pairs); per failure group (kind, file, line), how many games it lost,
//! the smallest of their seeds, and the first of them.
//!
//! A pair's two games finish apart, so the first result of each pair waits for its partner;
//! the two are played one after the other (consecutive in the suite's order), so at most one
//! pair per game in flight waits, whatever the number of games.
//!
//! Games finish in any order on any number of threads; every figure here is a sum, a minimum or
//! a "smallest N", so the tally is the same whatever the order, and so is the report made from
//! it. For the same reason two tallies of the same suite's games merge into the tally of all of
//! them ([`Tally::merge`]): the shards of a suite played apart ([`crate::shard`]) make the
//! report one run would have made. Three things are bounded, with the bounds documented on [`MAX_GROUPS`], [`SEEDS_LISTED`]
//! and [`OUTCOMES_KEPT`](crate::outcomes::OUTCOMES_KEPT): how many distinct failure locations are
//! told apart, how many seeds a group lists (its count is always exact), and for how many seeds
//! the result of each is kept (one byte per seed).
//!
//! Not for: playing games ([`crate::suite`]) or presenting them ([`crate::report`]).

use std::collections::{BTreeMap, BTreeSet};

use botlens_engine::{FailureKind, Fault, Seat, SeatResult, SourceLocation};
use botlens_stats::{GameResult as Points, Pentanomial};
use serde::{Deserialize, Serialize};

use crate::SeedRange;
use crate::outcomes::Outcomes;

/// The most failure groups (distinct kinds and source locations) a tally tells apart. The
/// groups kept are those with the smallest (kind, file, line); failures anywhere else are
/// counted in one group per kind without a location. An honest bot has a handful of groups; a
/// bot reporting locations of its own making cannot make the tally grow without bound.
pub const MAX_GROUPS: usize = 256;

/// The most seeds a failure group lists per opponent: the smallest ones (its count stays exact).
pub const SEEDS_LISTED: usize = 1_000;

/// Where a game sits in a suite: its opponent's index, its seed, then the bot's seat (always 0
/// unless the suite is paired). The smallest position of a group's games is its "first" game.
pub type Position = (usize, u64, Seat);

/// One opponent's figures.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpponentTally {
    /// Games played.
    pub games: u32,
    /// Games won (puzzles: solved).
    pub wins: u32,
    /// Games lost.
    pub losses: u32,
    /// Games drawn.
    pub draws: u32,
    /// The bot's moves, summed over the games.
    pub moves: u64,
    /// Turns played (both seats), summed over the games.
    pub turns: u64,
    /// Par (puzzles: optimal steps) summed over the games that have one, and how many did.
    pub par: (u64, u32),
    /// Games lost by a bot fault.
    pub faults: u32,
    /// Games with at least one wasted move, and the wasted moves in all.
    pub wasteful: (u32, u32),
    /// The first of the games with a wasted move (smallest position).
    pub first_wasteful: Option<Position>,
    /// Paired suites: the pairs (one seed, the bot in each seat) by the bot's points in the
    /// pair; empty otherwise.
    pub pairs: Pentanomial,
    /// The result of each game, by seed and seat (the first seeds only; see
    /// [`crate::outcomes`]).
    pub outcomes: Outcomes,
}

/// What identifies a failure group: its kind and, when located, its file and line (the column
/// is left out: where an endless loop runs out of fuel varies within its line).
pub type GroupKey = (FailureKind, Option<(String, u32)>);

/// The games one failure group lost.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailureTally {
    /// The fault of its first game (smallest position): its message, location and turn.
    pub first: Fault,
    /// Which of the bot's own turns the first game's fault was on (1-based; its `turn` counts
    /// every seat's).
    pub first_bot_turn: u32,
    /// Where its first game sits.
    pub first_at: Position,
    /// Games lost this way.
    pub count: u32,
    /// Per opponent index, the smallest [`SEEDS_LISTED`] seeds lost this way.
    #[serde(with = "entries")]
    pub seeds: BTreeMap<usize, BTreeSet<u64>>,
    /// Per opponent index, its first game lost this way: the smallest seed, then seat.
    #[serde(with = "entries")]
    pub firsts: BTreeMap<usize, (u64, Seat)>,
}

impl FailureTally {
    fn new(fault: &Fault, at: Position, bot_turn: u32) -> FailureTally {
        let mut tally = FailureTally {
            first: fault.clone(),
            first_bot_turn: bot_turn,
            first_at: at,
            count: 0,
            seeds: BTreeMap::new(),
            firsts: BTreeMap::new(),
        };
        tally.add(fault, at, bot_turn);
        tally
    }

    fn add(&mut self, fault: &Fault, at: Position, bot_turn: u32) {
        self.count += 1;
        if at < self.first_at {
            self.first_at = at;
            self.first = fault.clone();
            self.first_bot_turn = bot_turn;
        }
        let seeds = self.seeds.entry(at.0).or_default();
        seeds.insert(at.1);
        if seeds.len() > SEEDS_LISTED {
            seeds.pop_last();
        }
        self.first_against(at.0, (at.1, at.2));
    }

    /// Keeps `game` as the first game lost against `opponent` if it is before the one kept.
    fn first_against(&mut self, opponent: usize, game: (u64, Seat)) {
        let first = self.firsts.entry(opponent).or_insert(game);
        *first = game.min(*first);
    }

    fn merge(&mut self, other: FailureTally) {
        self.count += other.count;
        if other.first_at < self.first_at {
            self.first_at = other.first_at;
            self.first = other.first;
            self.first_bot_turn = other.first_bot_turn;
        }
        for (opponent, seeds) in other.seeds {
            let mine = self.seeds.entry(opponent).or_default();
            mine.extend(seeds);
            while mine.len() > SEEDS_LISTED {
                mine.pop_last();
            }
        }
        for (opponent, game) in other.firsts {
            self.first_against(opponent, game);
        }
    }
}

/// Everything a suite counted; see the module docs. Its JSON form is a shard's part
/// ([`crate::shard::Part`]): maps are lists of `[key, value]` entries.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Per opponent, in suite order.
    pub opponents: Vec<OpponentTally>,
    /// Failure groups by key (at most [`MAX_GROUPS`] located ones).
    #[serde(with = "entries")]
    pub groups: BTreeMap<GroupKey, FailureTally>,
    /// Per kind, the located failures whose location is not among the [`MAX_GROUPS`] kept.
    #[serde(with = "entries")]
    pub overflow: BTreeMap<FailureKind, FailureTally>,
    /// Whether games come in pairs (see [`OpponentTally::pairs`]).
    pub paired: bool,
    /// Paired suites: the first result of each pair whose partner has not finished, by
    /// (opponent, seed).
    #[serde(with = "entries")]
    pub waiting: BTreeMap<(usize, u64), SeatResult>,
}

/// Why two tallies cannot be merged, or a tally read from a file cannot be of the suite it
/// claims: it counts other opponents or seeds than the suite has.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the tally does not fit the suite: {0}")]
pub struct Misfit(String);

impl Misfit {
    /// A misfit, saying what does not fit (`its outcomes are of other seeds`).
    pub fn new(what: &str) -> Misfit {
        Misfit(what.to_owned())
    }
}

/// Maps as lists of `[key, value]` entries (JSON objects take only text keys).
mod entries {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<K: Serialize, V: Serialize, S: Serializer>(
        map: &BTreeMap<K, V>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(map.iter())
    }

    pub fn deserialize<'de, K, V, D>(deserializer: D) -> Result<BTreeMap<K, V>, D::Error>
    where
        K: Deserialize<'de> + Ord,
        V: Deserialize<'de>,
        D: Deserializer<'de>,
    {
        Ok(Vec::<(K, V)>::deserialize(deserializer)?.into_iter().collect())
    }
}

/// One finished game as the tally needs it.
#[derive(Debug, Clone, Copy)]
pub struct Counted<'a> {
    /// Where the game sits.
    pub at: Position,
    /// The bot's result.
    pub result: SeatResult,
    /// The bot's moves.
    pub moves: u32,
    /// Turns played, both seats.
    pub turns: u32,
    /// The board's par, if any.
    pub par: Option<u32>,
    /// The fault that lost the game for the bot, if one did.
    pub fault: Option<&'a Fault>,
    /// The turns the bot played (for a lost game, the fault was on the last of them).
    pub bot_turns: u32,
    /// The bot's wasted moves.
    pub wasted: u32,
}

/// The group key of a fault.
pub fn key_of(fault: &Fault) -> GroupKey {
    let location = fault.failure.location.as_ref();
    (fault.failure.kind, location.map(|l: &SourceLocation| (l.file.clone(), l.line)))
}

impl Tally {
    /// An empty tally for `opponents` opponents on `seeds`; `paired` when each seed is played
    /// twice, the bot in each seat.
    pub fn new(opponents: usize, seeds: SeedRange, paired: bool) -> Tally {
        let row = OpponentTally {
            outcomes: Outcomes::new(seeds.first(), seeds.len()),
            ..OpponentTally::default()
        };
        Tally {
            opponents: vec![row; opponents],
            groups: BTreeMap::new(),
            overflow: BTreeMap::new(),
            paired,
            waiting: BTreeMap::new(),
        }
    }

    /// Counts one game.
    pub fn add(&mut self, game: Counted<'_>) {
        if self.paired {
            self.pair_up(game.at, game.result);
        }
        let row = &mut self.opponents[game.at.0];
        row.games += 1;
        match game.result {
            SeatResult::Win => row.wins += 1,
            SeatResult::Loss => row.losses += 1,
            SeatResult::Draw => row.draws += 1,
        }
        row.moves += u64::from(game.moves);
        row.turns += u64::from(game.turns);
        row.outcomes.record(game.at.1, game.at.2, game.result);
        if let Some(par) = game.par {
            row.par = (row.par.0 + u64::from(par), row.par.1 + 1);
        }
        if game.wasted > 0 {
            row.wasteful = (row.wasteful.0 + 1, row.wasteful.1 + game.wasted);
            row.first_wasteful =
                Some(row.first_wasteful.map_or(game.at, |first| first.min(game.at)));
        }
        let Some(fault) = game.fault else { return };
        row.faults += 1;
        self.add_failure(key_of(fault), fault, game.at, game.bot_turns);
    }

    /// Counts the pair of the game at `at` once both its games have finished.
    fn pair_up(&mut self, at: Position, result: SeatResult) {
        let (opponent, seed, _) = at;
        match self.waiting.remove(&(opponent, seed)) {
            Some(first) => self.opponents[opponent].pairs.record(points(first), points(result)),
            None => {
                self.waiting.insert((opponent, seed), result);
            }
        }
    }

    fn add_failure(&mut self, key: GroupKey, fault: &Fault, at: Position, bot_turn: u32) {
        if let Some(group) = self.groups.get_mut(&key) {
            group.add(fault, at, bot_turn);
            return;
        }
        let located = self.groups.keys().filter(|key| key.1.is_some()).count();
        if key.1.is_none() || located < MAX_GROUPS {
            self.groups.insert(key, FailureTally::new(fault, at, bot_turn));
            return;
        }
        // Full: the largest located key goes to its kind's overflow group, unless the new key
        // is larger still. Either way the groups kept are the smallest keys seen, and a key once
        // folded is never among them again (as many smaller ones are kept).
        let largest = self
            .groups
            .keys()
            .rfind(|key| key.1.is_some())
            .cloned()
            .expect("the tally is full of located groups");
        let (kind, folded) = if key < largest {
            let evicted = self.groups.remove(&largest).expect("the key was just found");
            self.groups.insert(key, FailureTally::new(fault, at, bot_turn));
            (largest.0, evicted)
        } else {
            (key.0, FailureTally::new(fault, at, bot_turn))
        };
        match self.overflow.get_mut(&kind) {
            Some(existing) => existing.merge(folded),
            None => {
                self.overflow.insert(kind, folded);
            }
        }
    }
}

impl OpponentTally {
    fn merge(&mut self, other: &OpponentTally) -> Result<(), Misfit> {
        if !self.outcomes.merge(&other.outcomes) {
            return Err(Misfit("its outcomes are of other seeds".into()));
        }
        self.games += other.games;
        self.wins += other.wins;
        self.losses += other.losses;
        self.draws += other.draws;
        self.moves += other.moves;
        self.turns += other.turns;
        self.par = (self.par.0 + other.par.0, self.par.1 + other.par.1);
        self.faults += other.faults;
        self.wasteful = (self.wasteful.0 + other.wasteful.0, self.wasteful.1 + other.wasteful.1);
        self.first_wasteful = match (self.first_wasteful, other.first_wasteful) {
            (Some(mine), Some(theirs)) => Some(mine.min(theirs)),
            (mine, theirs) => mine.or(theirs),
        };
        for (count, theirs) in self.pairs.counts.iter_mut().zip(other.pairs.counts) {
            *count += theirs;
        }
        Ok(())
    }
}

impl Tally {
    /// Adds the games `other` counted (other games of the same suite: a shard's) to these, as
    /// if this tally had counted them too: figures summed, firsts the smaller, groups beyond
    /// [`MAX_GROUPS`] folded as [`Tally::add`] folds them, halves of a pair matched.
    pub fn merge(&mut self, other: Tally) -> Result<(), Misfit> {
        if self.opponents.len() != other.opponents.len() || self.paired != other.paired {
            return Err(Misfit(
                "it counts other opponents, or pairs where the other does not".into(),
            ));
        }
        for (mine, theirs) in self.opponents.iter_mut().zip(&other.opponents) {
            mine.merge(theirs)?;
        }
        for (key, group) in other.groups {
            match self.groups.get_mut(&key) {
                Some(mine) => mine.merge(group),
                None => {
                    self.groups.insert(key, group);
                }
            }
        }
        for (kind, group) in other.overflow {
            self.fold(kind, group);
        }
        // The smallest located keys stay, as when one tally saw them all: a key among the
        // smallest of all is among the smallest of the part that saw it, so none was folded.
        while self.groups.keys().filter(|key| key.1.is_some()).count() > MAX_GROUPS {
            let largest =
                self.groups.keys().rfind(|key| key.1.is_some()).cloned().expect("more than none");
            let evicted = self.groups.remove(&largest).expect("the key was just found");
            self.fold(largest.0, evicted);
        }
        for ((opponent, seed), result) in other.waiting {
            let row = &mut self.opponents[opponent];
            match self.waiting.remove(&(opponent, seed)) {
                Some(first) => row.pairs.record(points(first), points(result)),
                None => {
                    self.waiting.insert((opponent, seed), result);
                }
            }
        }
        Ok(())
    }

    /// Counts `group` in its kind's overflow group.
    fn fold(&mut self, kind: FailureKind, group: FailureTally) {
        match self.overflow.get_mut(&kind) {
            Some(existing) => existing.merge(group),
            None => {
                self.overflow.insert(kind, group);
            }
        }
    }

    /// Checks a tally read from a file against the suite it claims to count: `opponents`
    /// opponents on `seeds`, every game it names among them, so that a report made from it
    /// names only the suite's opponents and seeds.
    pub fn check(&self, opponents: usize, seeds: SeedRange, paired: bool) -> Result<(), Misfit> {
        let misfit = |what: &str| Err(Misfit(what.to_owned()));
        if self.opponents.len() != opponents || self.paired != paired {
            return misfit("it counts other opponents, or pairs where the suite does not");
        }
        let room = Outcomes::new(seeds.first(), seeds.len()).seeds();
        let fits = |at: Position| {
            at.0 < opponents && seeds.contains(at.1) && at.2 < if paired { 2 } else { 1 }
        };
        for row in &self.opponents {
            let held = row.outcomes.seeds();
            if !held.is_empty() && (held.start < room.start || held.end > room.end) {
                return misfit("its outcomes are of other seeds");
            }
            if row.first_wasteful.is_some_and(|at| !fits(at)) {
                return misfit("a game it names is not one of the suite's");
            }
        }
        let located = self.groups.keys().filter(|key| key.1.is_some()).count();
        if located > MAX_GROUPS {
            return misfit("it has more failure groups than a tally keeps");
        }
        for group in self.groups.values().chain(self.overflow.values()) {
            let firsts =
                group.firsts.iter().map(|(&opponent, &(seed, seat))| (opponent, seed, seat));
            let listed = group
                .seeds
                .iter()
                .flat_map(|(&opponent, seeds)| seeds.iter().map(move |&seed| (opponent, seed, 0)));
            let too_many = group.seeds.values().any(|seeds| seeds.len() > SEEDS_LISTED);
            if too_many || !fits(group.first_at) || !firsts.chain(listed).all(fits) {
                return misfit("a failure group names games that are not the suite's");
            }
        }
        if self.waiting.keys().any(|&(opponent, seed)| !fits((opponent, seed, 0))) {
            return misfit("a game it names is not one of the suite's");
        }
        Ok(())
    }
}

/// A seat's result as the statistics count it.
pub fn points(result: SeatResult) -> Points {
    match result {
        SeatResult::Win => Points::Win,
        SeatResult::Draw => Points::Draw,
        SeatResult::Loss => Points::Loss,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use botlens_engine::Failure;

    fn seeds(count: u64) -> SeedRange {
        SeedRange::new(0, count - 1).unwrap()
    }

    fn fault(line: u32) -> Fault {
        let location = SourceLocation { file: "src/lib.rs".into(), line, column: 3 };
        Fault {
            seat: 0,
            turn: 5,
            failure: Failure::new(FailureKind::Panic, "boom").at(Some(location)),
        }
    }

    fn lost(at: Position, fault: &Fault) -> Counted<'_> {
        Counted {
            at,
            result: SeatResult::Loss,
            moves: 4,
            turns: 8,
            par: None,
            fault: Some(fault),
            bot_turns: 3,
            wasted: 0,
        }
    }

    #[test]
    fn the_same_games_in_any_order_give_the_same_tally() {
        let faults: Vec<Fault> = (0..40).map(|i| fault(1 + i % 3)).collect();
        let games: Vec<(Position, &Fault)> =
            faults.iter().enumerate().map(|(i, f)| ((i % 2, i as u64, 0), f)).collect();
        let mut forward = Tally::new(2, seeds(40), false);
        let mut backward = Tally::new(2, seeds(40), false);
        for (at, fault) in &games {
            forward.add(lost(*at, fault));
        }
        for (at, fault) in games.iter().rev() {
            backward.add(lost(*at, fault));
        }
        assert_eq!(forward, backward);
        let group = &forward.groups[&(FailureKind::Panic, Some(("src/lib.rs".into(), 1)))];
        assert_eq!((group.count, group.first_at), (14, (0, 0, 0)));
        assert_eq!(group.firsts, BTreeMap::from([(0, (0, 0)), (1, (3, 0))]));
        assert_eq!(forward.opponents[0].faults + forward.opponents[1].faults, 40);
    }

    #[test]
    fn each_opponents_first_lost_game_is_its_smallest_seed_then_seat() {
        let fault = fault(4);
        let mut tally = Tally::new(2, seeds(10), true);
        for at in [(1, 7, 0), (0, 5, 1), (1, 6, 1), (0, 5, 0), (1, 6, 0), (0, 2, 1)] {
            tally.add(lost(at, &fault));
        }
        let group = tally.groups.values().next().unwrap();
        assert_eq!(group.firsts, BTreeMap::from([(0, (2, 1)), (1, (6, 0))]));
        assert_eq!(group.first_at, (0, 2, 1));
    }

    #[test]
    fn locations_beyond_the_bound_fold_into_one_group_and_the_smallest_are_kept() {
        let faults: Vec<Fault> = (0..MAX_GROUPS as u32 + 50).map(fault).collect();
        let mut tally = Tally::new(1, seeds(2000), false);
        // The largest lines first: they are the ones that end up folded.
        for (i, fault) in faults.iter().enumerate().rev() {
            tally.add(lost((0, i as u64, 0), fault));
        }
        let located: Vec<u32> =
            tally.groups.keys().filter_map(|key| key.1.as_ref().map(|(_, line)| *line)).collect();
        assert_eq!(located, (0..MAX_GROUPS as u32).collect::<Vec<_>>());
        let [overflow] = tally.overflow.values().collect::<Vec<_>>()[..] else {
            panic!("one overflow group per kind")
        };
        assert_eq!(overflow.count, 50);
        assert_eq!(overflow.first_at, (0, MAX_GROUPS as u64, 0));
        let total: u32 =
            tally.groups.values().chain(tally.overflow.values()).map(|g| g.count).sum();
        assert_eq!(total, faults.len() as u32, "every failure is counted once");
    }

    #[test]
    fn a_group_lists_its_smallest_seeds_and_counts_them_all() {
        let fault = fault(7);
        let mut tally = Tally::new(1, seeds(2000), false);
        for seed in (0..SEEDS_LISTED as u64 + 10).rev() {
            tally.add(lost((0, seed, 0), &fault));
        }
        let group = tally.groups.values().next().unwrap();
        assert_eq!(group.count as usize, SEEDS_LISTED + 10);
        let seeds = &group.seeds[&0];
        assert_eq!(
            (seeds.len(), seeds.first(), seeds.last()),
            (SEEDS_LISTED, Some(&0), Some(&999))
        );
    }

    #[test]
    fn wasted_moves_are_summed_with_their_first_game_in_any_order() {
        let game = |at: Position, wasted| Counted {
            at,
            result: SeatResult::Win,
            moves: 1,
            turns: 2,
            par: None,
            fault: None,
            bot_turns: 1,
            wasted,
        };
        let games =
            [((1, 4, 0), 2), ((0, 9, 0), 1), ((0, 3, 0), 0), ((0, 5, 0), 3), ((1, 2, 0), 0)];
        let mut tally = Tally::new(2, seeds(10), false);
        for (at, wasted) in games.iter().rev() {
            tally.add(game(*at, *wasted));
        }
        let row = |i: usize| (tally.opponents[i].wasteful, tally.opponents[i].first_wasteful);
        assert_eq!(row(0), ((2, 4), Some((0, 5, 0))), "the wasteful games, not the first game");
        assert_eq!(row(1), ((1, 2), Some((1, 4, 0))));
        let mut clean = Tally::new(1, seeds(10), false);
        clean.add(game((0, 0, 0), 0));
        assert_eq!(clean.opponents[0].first_wasteful, None);
    }

    #[test]
    fn pairs_are_counted_when_their_second_game_finishes_in_either_order() {
        let game = |at: Position, result| Counted {
            at,
            result,
            moves: 1,
            turns: 2,
            par: None,
            fault: None,
            bot_turns: 1,
            wasted: 0,
        };
        use SeatResult::{Draw, Loss, Win};
        // Seed 0: won both; seed 1: lost then drew; seed 2: won in seat 1 only so far.
        let games = [
            ((0, 0, 1), Win),
            ((0, 1, 0), Loss),
            ((0, 0, 0), Win),
            ((0, 2, 1), Win),
            ((0, 1, 1), Draw),
        ];
        let mut tally = Tally::new(1, seeds(3), true);
        for (at, result) in games {
            tally.add(game(at, result));
        }
        assert_eq!(tally.opponents[0].pairs, Pentanomial::new([0, 1, 0, 0, 1]));
        assert_eq!(tally.waiting.keys().copied().collect::<Vec<_>>(), [(0, 2)], "one half waits");
        tally.add(game((0, 2, 0), Loss));
        assert_eq!(tally.opponents[0].pairs, Pentanomial::new([0, 1, 1, 0, 1]));
        assert!(tally.waiting.is_empty());
        assert_eq!((tally.opponents[0].games, tally.opponents[0].wins), (6, 3));
        let outcomes = &tally.opponents[0].outcomes;
        assert_eq!((outcomes.get(1, 0), outcomes.get(1, 1)), (Some(Loss), Some(Draw)));
        // Unpaired, nothing waits and no pair is counted.
        let mut unpaired = Tally::new(1, seeds(2000), false);
        unpaired.add(game((0, 0, 0), Win));
        assert!(unpaired.waiting.is_empty() && unpaired.opponents[0].pairs.pairs() == 0);
    }

    #[test]
    fn tallies_of_parts_of_the_games_merge_into_the_tally_of_all_of_them() {
        let faults: Vec<Fault> = (0..MAX_GROUPS as u32 + 40).map(fault).collect();
        let game = |i: usize| {
            let at = (i % 3, (i / 6) as u64, (i / 3 % 2) as Seat);
            let result = [SeatResult::Win, SeatResult::Loss, SeatResult::Draw][i % 5 % 3];
            Counted {
                at,
                result,
                moves: i as u32 % 7,
                turns: 9,
                par: Some(3),
                fault: (result == SeatResult::Loss).then(|| &faults[i * 7 % faults.len()]),
                bot_turns: 2,
                wasted: u32::from(i.is_multiple_of(11)),
            }
        };
        let games = 6 * 400;
        let mut whole = Tally::new(3, seeds(400), true);
        (0..games).for_each(|i| whole.add(game(i)));
        assert!(!whole.overflow.is_empty(), "the games fold failures beyond the bound");
        for parts in [2, 3, 7] {
            let mut merged = Tally::new(3, seeds(400), true);
            for part in 0..parts {
                // Interleaved parts split pairs: their halves wait until merged.
                let mut tally = Tally::new(3, seeds(400), true);
                (0..games).filter(|i| i % parts == part).for_each(|i| tally.add(game(i)));
                tally.check(3, seeds(400), true).unwrap();
                let json = serde_json::to_string(&tally).unwrap();
                let read: Tally = serde_json::from_str(&json).unwrap();
                assert_eq!(read, tally, "a tally reads back from its JSON");
                merged.merge(read).unwrap();
            }
            assert_eq!(merged, whole, "{parts} parts");
        }
    }

    #[test]
    fn a_tally_that_names_games_outside_its_suite_is_refused() {
        let fault = fault(3);
        let mut tally = Tally::new(2, seeds(10), false);
        tally.add(lost((1, 9, 0), &fault));
        tally.check(2, seeds(10), false).unwrap();
        for (opponents, seeds, paired) in [(3, seeds(10), false), (2, seeds(9), false)] {
            assert!(tally.check(opponents, seeds, paired).is_err());
        }
        let mut hostile = tally.clone();
        hostile.groups.values_mut().for_each(|group| group.first_at = (7, 1, 0));
        let error = hostile.check(2, seeds(10), false).unwrap_err();
        assert_eq!(
            error.to_string(),
            "the tally does not fit the suite: a failure group names games that are not the suite's"
        );
        assert!(Tally::new(3, seeds(10), false).merge(tally).is_err());
    }
}
