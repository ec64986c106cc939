//! Losses explained (`botlens analyze`): every move a bot made, judged by its game's oracle
//! ([`botlens_engine::Oracle`]: Tic-tac-toe's perfect play, Klotski's shortest solutions), each
//! at the line of the bot's code that chose it.
//!
//! The target is prepared as `run` prepares it ([`pipeline::prepare`]), then every (opponent,
//! seed) is played with the bot in seat 0, and the oracle walks the game's positions and judges
//! each of the bot's moves against the best one from the same position. A game with a mistake
//! is played again [`locating_moves`] (or at once, once most games have one: `StackCapture`):
//! the bot's call stack is captured at each legal move it makes (a language runner states it, on
//! fuel it is given back), so the game is the game `run` plays. Out of that come, per game, its
//! mistakes (blunders, detours) and the move that lost it, and over the suite a *decision
//! profile*: the bot's source lines ranked by the value the moves they decided lost, each
//! mistake decided by the most specific line on its stack: of the lines on it, the one the
//! fewest of the bot's moves in games with a mistake went through (the branch that chose, not
//! the helper that made every move).
//!
//! Ordinary runs never capture a stack at a move: only a player made [`locating_moves`] does.
//!
//! [`locating_moves`]: botlens_sandbox::WasmPlayer::locating_moves
//!
//! # JSON (`botlens analyze --json`)
//!
//! | field | meaning |
//! |---|---|
//! | `bot`, `game`, `seeds`, `opponents` | what was played (seeds as `A..=B`) |
//! | `unit`, `mistake` | the oracle's unit of cost (`outcomes`, `cell moves`) and what a costly move is called (`blunder`, `detour`) |
//! | `games`, `lost`, `judged`, `mistakes`, `cost` | games played, lost, the bot's moves judged, those that cost something, and what they cost in all |
//! | `sites[]` | the decision profile: `file`, `line`, `column`, `function`, `chain` (the call chain from the line's frame outward, innermost first), `cost` (of the mistakes it decided), `percent` (of `cost`), `mistakes`, `moves` (the judged moves of games with a mistake the line was on the stack of), `losses` (lost games whose losing move was chosen here), `first` (the first mistake here: `opponent`, `seed`, `turn`) |
//! | `played[]` | per game with a mistake: `opponent`, `seed`, `seat`, `result`, `reason`, `cost`, `losing` (the index in `mistakes` of the move that lost it, if one did), `mistakes[]`: `turn`, `action`, `best`, `cost`, `before`, `after`, `loses`, `board` (the position before the move, as text), `location` and `chain` when the bot's stack has a line |

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use botlens_engine::stack::CallStack;
use botlens_engine::text::printable;
use botlens_engine::{Judgement, MatchRecord, Oracle, SeatResult, SourceLocation};
use botlens_games::{GameVisitor, Scored};
use botlens_sandbox::{LocatedMove, Sandbox};
use serde::Serialize;

use crate::fuel::relative;
use crate::pipeline::{self, RunError, RunOptions, Stage};
use crate::suite::{self, Contender, Suite};
use crate::{CancelToken, Target};

/// The most games one analysis plays.
pub const MAX_GAMES: u64 = 100_000;

/// The most lines a decision profile names (the ones whose moves lost the most).
pub const MAX_SITES: usize = 20;

/// Why there is no analysis.
#[derive(Debug, thiserror::Error)]
pub enum AnalyzeError {
    /// The target could not be prepared (build, load, unknown opponent, bad limits).
    #[error(transparent)]
    Run(#[from] RunError),
    /// The game has no oracle, or none for this board (one too large to search).
    #[error("{0}")]
    NoOracle(String),
    /// More games than [`MAX_GAMES`].
    #[error(
        "{0} games is more than an analysis plays (at most {MAX_GAMES}); give fewer --seeds or --vs"
    )]
    TooManyGames(u64),
}

/// One of the bot's moves that cost something, as the oracle judged it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Mistake {
    /// The move number (every seat's moves counted).
    pub turn: u32,
    /// The move, as the game writes it: `mark(2, 0)`.
    pub action: String,
    /// The oracle's choice from the same position.
    pub best: String,
    /// What it lost against the best, in the oracle's unit.
    pub cost: f64,
    /// The position's worth to the bot before the move: `drawn`.
    pub before: String,
    /// Its worth after: `lost`.
    pub after: String,
    /// Whether it turned a position the bot had not lost into a lost one.
    pub loses: bool,
    /// The position before the move, as the game draws it in text.
    pub board: String,
    /// The line that chose the move: of the lines on its stack, the one the fewest of the bot's
    /// judged moves in games with a mistake went through (the branch, not the helper every move
    /// goes through).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<SourceLocation>,
    /// The call chain at the move, innermost first: `choose ← play`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub chain: String,
    /// The bot's call stack at the move.
    #[serde(skip)]
    pub stack: CallStack,
}

/// A line of the bot's source: (file, line).
type Line = (String, u32);

/// The distinct lines on `stack`, innermost first, each with the index of its frame.
fn lines_of(stack: &CallStack) -> Vec<(Line, usize)> {
    let mut lines: Vec<(Line, usize)> = Vec::new();
    for (index, frame) in stack.frames.iter().enumerate() {
        let Some(at) = &frame.location else { continue };
        let line = (at.file.clone(), at.line);
        if !lines.iter().any(|(seen, _)| *seen == line) {
            lines.push((line, index));
        }
    }
    lines
}

/// The call chain of `stack` from frame `index` outward: `play`, for a line in `play`.
fn chain_from(stack: &CallStack, index: usize) -> String {
    CallStack { frames: stack.frames[index..].to_vec(), dropped: stack.dropped }.chain()
}

/// One game of the analysis.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AnalyzedGame {
    /// The opponent (or board).
    pub opponent: String,
    /// The seed.
    pub seed: u64,
    /// The bot's seat.
    pub seat: usize,
    /// The bot's result.
    pub result: SeatResult,
    /// Why the game ended.
    pub reason: String,
    /// The bot's moves the oracle judged.
    pub judged: u32,
    /// What its mistakes cost in all.
    pub cost: f64,
    /// Its moves that cost something, in order.
    pub mistakes: Vec<Mistake>,
    /// In a lost game, the index in `mistakes` of the move that lost it: the last that turned
    /// a position the bot had not lost into a lost one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub losing: Option<usize>,
    /// How many of the bot's judged moves each line of its source was on the stack of; none in
    /// a game without a mistake (its moves are not located).
    #[serde(skip)]
    pub moves_through: HashMap<Line, u32>,
}

impl AnalyzedGame {
    /// The move that lost the game, if one did.
    pub fn losing_move(&self) -> Option<&Mistake> {
        self.losing.map(|index| &self.mistakes[index])
    }
}

/// Where a decision profile's line first cost something.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FirstMistake {
    /// The game's opponent (or board).
    pub opponent: String,
    /// Its seed.
    pub seed: u64,
    /// The move number.
    pub turn: u32,
}

/// A line of the bot's code and the value the moves it chose lost.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DecisionSite {
    /// The source file, as the debug information names it.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column (0 when unknown).
    pub column: u32,
    /// The function the line is in.
    pub function: String,
    /// The call chain from its frame outward at its first mistake, innermost first.
    pub chain: String,
    /// What the mistakes it decided lost, in the oracle's unit.
    pub cost: f64,
    /// Its share of everything the bot's moves lost, in percent.
    pub percent: f64,
    /// The costly moves it decided.
    pub mistakes: u32,
    /// The bot's judged moves in games with a mistake the line was on the stack of.
    pub moves: u32,
    /// Lost games whose losing move it chose.
    pub losses: u32,
    /// Its first costly move.
    pub first: FirstMistake,
}

impl DecisionSite {
    /// The site's location.
    pub fn location(&self) -> SourceLocation {
        SourceLocation { file: self.file.clone(), line: self.line, column: self.column }
    }
}

/// A bot's moves over a suite, judged by the game's oracle.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Analysis {
    /// The bot's name.
    pub bot: String,
    /// The game's name.
    pub game: String,
    /// The seeds played, `A..=B`.
    pub seeds: String,
    /// The opponents (or boards).
    pub opponents: Vec<String>,
    /// The oracle's unit of cost, singular: `outcome`.
    pub unit: String,
    /// What a costly move is called: `blunder`.
    pub mistake: String,
    /// Games played.
    pub games: u64,
    /// Games the bot lost.
    pub lost: u64,
    /// The bot's moves judged.
    pub judged: u64,
    /// Those that cost something.
    pub mistakes: u64,
    /// What they cost in all.
    pub cost: f64,
    /// The decision profile: lines by the value their moves lost, at most [`MAX_SITES`].
    pub sites: Vec<DecisionSite>,
    /// The games with a mistake, in (opponent, seed) order.
    pub played: Vec<AnalyzedGame>,
}

/// Analyses `target` over its suite (with `options`' overrides): every game played with the
/// bot's moves located, each judged by the game's oracle. `progress` hears of the stages and of
/// every game.
pub fn analyze(
    sandbox: &Sandbox,
    target: &Target,
    options: &RunOptions,
    progress: &(dyn Fn(Stage) + Sync),
    cancel: &CancelToken,
) -> Result<Analysis, AnalyzeError> {
    let run = RunOptions { paired: false, ..options.clone() };
    let prepared = pipeline::prepare(sandbox, target, &run, progress, cancel)?;
    analyze_suite(&prepared.suite, progress, cancel)
}

/// Analyses a prepared `suite` (`botlens run --analyze` analyses the suite it ran): every
/// opponent on every seed of it, the bot in seat 0.
pub fn analyze_suite(
    suite: &Suite,
    progress: &(dyn Fn(Stage) + Sync),
    cancel: &CancelToken,
) -> Result<Analysis, AnalyzeError> {
    let games = suite.seeds.len() * suite.opponents.len() as u64;
    if games > MAX_GAMES {
        return Err(AnalyzeError::TooManyGames(games));
    }
    let analysis = suite.game.visit(Analyze { suite, progress, cancel })?;
    if cancel.is_cancelled() {
        return Err(RunError::Cancelled.into());
    }
    Ok(analysis)
}

struct Analyze<'a> {
    suite: &'a Suite,
    progress: &'a (dyn Fn(Stage) + Sync),
    cancel: &'a CancelToken,
}

/// The oracles of one analysis, one per starting position (a Klotski board's is a search).
type Oracles<G> = Mutex<HashMap<String, Arc<dyn Oracle<G>>>>;

impl GameVisitor for Analyze<'_> {
    type Output = Result<Analysis, AnalyzeError>;

    fn visit<G: Scored>(self) -> Self::Output {
        let suite = self.suite;
        suite::validate::<G>(suite).map_err(RunError::from)?;
        let oracles: Oracles<G> = Mutex::default();
        // A game without an oracle says so before any game is played.
        let seed = suite.seeds.first();
        let config = match G::OPPONENTS_ARE_BOARDS {
            true => {
                G::config_for(suite.opponents[0].name(), seed).map_err(AnalyzeError::NoOracle)?
            }
            false => G::Config::default(),
        };
        oracle_for(&oracles, &G::new(&config, seed)).map_err(AnalyzeError::NoOracle)?;
        let capture = StackCapture::default();
        let played = suite::play_each(suite, self.progress, self.cancel, |opponent, seed| {
            play_judged::<G>(suite, &oracles, &capture, opponent, seed)
        });
        let played = played.into_iter().collect::<Result<Vec<_>, _>>()?;
        let (unit, mistake) = oracles
            .into_inner()
            .unwrap_or_else(|p| p.into_inner())
            .values()
            .next()
            .map_or(("", ""), |oracle| (oracle.unit(), oracle.mistake()));
        Ok(summarize(suite, unit, mistake, played))
    }
}

/// The oracle for games that start at `initial`, made once per starting position.
fn oracle_for<G: Scored>(oracles: &Oracles<G>, initial: &G) -> Result<Arc<dyn Oracle<G>>, String> {
    let key = serde_json::to_string(initial).unwrap_or_default();
    if let Some(oracle) = oracles.lock().unwrap_or_else(|p| p.into_inner()).get(&key) {
        return Ok(oracle.clone());
    }
    let oracle: Arc<dyn Oracle<G>> = Arc::from(G::oracle(initial)?);
    oracles.lock().unwrap_or_else(|p| p.into_inner()).insert(key, oracle.clone());
    Ok(oracle)
}

/// How an analysis gets the bot's stacks at its moves. Only the moves of games with a mistake
/// need them, so while such games are rare (a bot that mostly plays well), each game is first
/// played as `run` plays it, and one with a mistake is played again, the same game, with its
/// moves located; once most games have one (Battleships' shots nearly all cost something),
/// games are played located at once. The analysis is the same either way.
#[derive(Default)]
struct StackCapture {
    /// Games judged so far.
    games: AtomicU64,
    /// Those with a mistake.
    with_mistakes: AtomicU64,
}

impl StackCapture {
    /// Games judged before the share of those with a mistake decides.
    const FIRST_GAMES: u64 = 16;

    /// Whether the next game is played with its moves located from the start.
    fn locates_at_once(&self) -> bool {
        let games = self.games.load(Ordering::Relaxed);
        games >= Self::FIRST_GAMES && 2 * self.with_mistakes.load(Ordering::Relaxed) > games
    }

    /// Counts a judged game.
    fn judged(&self, with_mistake: bool) {
        self.games.fetch_add(1, Ordering::Relaxed);
        self.with_mistakes.fetch_add(u64::from(with_mistake), Ordering::Relaxed);
    }
}

/// The seat the bot plays in an analysis.
const SEAT: usize = 0;

/// One game, the bot in seat 0 (its moves located when `locating` and it is a module), and
/// where its moves were made.
fn play<G: Scored>(
    suite: &Suite,
    opponent: usize,
    seed: u64,
    locating: bool,
) -> Result<(MatchRecord<G>, Vec<LocatedMove>), AnalyzeError> {
    match &suite.bot {
        Contender::Wasm(bot) => {
            let player = bot.module.player::<G>(seed, SEAT, &suite.sandbox_limits);
            let mut wasm = if locating { player.locating_moves() } else { player };
            let (_, record) = suite::play_match(suite, opponent, seed, SEAT, &mut wasm, false);
            Ok((record, wasm.located_moves()))
        }
        Contender::Reference(_) => {
            let mut player = suite
                .bot
                .player::<G>(seed, SEAT, &suite.sandbox_limits)
                .map_err(|e| RunError::from(suite::SuiteError::BadContender(e)))?;
            let (_, record) =
                suite::play_match(suite, opponent, seed, SEAT, player.as_mut(), false);
            Ok((record, Vec::new()))
        }
    }
}

/// The same moves in the same order, with the same answers: the game judged.
fn same_game<G: Scored>(a: &MatchRecord<G>, b: &MatchRecord<G>) -> bool {
    a.moves.len() == b.moves.len()
        && a.moves.iter().zip(&b.moves).all(|(x, y)| {
            (x.turn, x.seat, &x.action, &x.response) == (y.turn, y.seat, &y.action, &y.response)
        })
}

/// One of the bot's moves, judged.
struct Judged<A> {
    turn: u32,
    action: String,
    judgement: Judgement<A>,
    /// The position before it, drawn (for a mistake only).
    board: String,
}

/// The oracle's judgement of each of the bot's legal moves in `record`, in order.
fn judge_moves<G: Scored>(
    oracle: &dyn Oracle<G>,
    record: &MatchRecord<G>,
) -> Vec<Judged<G::Action>> {
    let mut position = record.initial.clone();
    let mut judge = oracle.game_judge();
    let mut judged = Vec::new();
    for made in &record.moves {
        let (Some(action), Some(_)) = (&made.action, &made.response) else { continue };
        if made.seat == SEAT {
            let judgement = judge.judge(&position, SEAT, action);
            let board = if judgement.is_mistake() { position.render() } else { String::new() };
            judged.push(Judged { turn: made.turn, action: action.to_string(), judgement, board });
        }
        // A recorded legal move applies again; the position stays if it somehow does not.
        let _ = position.apply(made.seat, action);
    }
    judged
}

/// One game, the bot in seat 0, its moves judged, and those of a game with a mistake located.
fn play_judged<G: Scored>(
    suite: &Suite,
    oracles: &Oracles<G>,
    capture: &StackCapture,
    opponent: usize,
    seed: u64,
) -> Result<AnalyzedGame, AnalyzeError> {
    let at_once = capture.locates_at_once();
    let (mut record, mut located) = play::<G>(suite, opponent, seed, at_once)?;
    let oracle = oracle_for(oracles, &record.initial).map_err(AnalyzeError::NoOracle)?;
    let mut judged = judge_moves(oracle.as_ref(), &record);
    let with_mistake = judged.iter().any(|made| made.judgement.is_mistake());
    capture.judged(with_mistake);
    if with_mistake && !at_once && matches!(suite.bot, Contender::Wasm(_)) {
        let (again, stacks) = play::<G>(suite, opponent, seed, true)?;
        if !same_game(&record, &again) {
            // A deterministic bot plays the same game again; judge the one that was located.
            judged = judge_moves(oracle.as_ref(), &again);
        }
        (record, located) = (again, stacks);
    }
    let stacks: HashMap<u32, &LocatedMove> = located.iter().map(|m| (m.turn, m)).collect();
    let (mut cost, mut mistakes) = (0.0, Vec::new());
    // Lines are counted over the moves of games with a mistake, the only ones located.
    let mut moves_through: HashMap<Line, u32> = HashMap::new();
    let with_mistake = judged.iter().any(|made| made.judgement.is_mistake());
    for made in judged.iter().filter(|_| with_mistake) {
        let stack = stacks.get(&made.turn).map(|m| m.stack.clone()).unwrap_or_default();
        for (line, _) in lines_of(&stack) {
            *moves_through.entry(line).or_default() += 1;
        }
        let judgement = &made.judgement;
        if judgement.is_mistake() {
            cost += judgement.cost;
            mistakes.push(Mistake {
                turn: made.turn,
                action: made.action.clone(),
                best: judgement.best.to_string(),
                cost: judgement.cost,
                before: judgement.before.clone(),
                after: judgement.after.clone(),
                loses: judgement.loses,
                board: made.board.clone(),
                location: stack.frames.iter().find_map(|f| f.location.clone()),
                chain: stack.chain(),
                stack,
            });
        }
    }
    let result = record.result_for(SEAT);
    let losing = (result == SeatResult::Loss).then(|| mistakes.iter().rposition(|m| m.loses));
    Ok(AnalyzedGame {
        opponent: suite.opponents[opponent].name().to_owned(),
        seed,
        seat: SEAT,
        result,
        reason: record.outcome.reason.clone(),
        judged: judged.len() as u32,
        cost,
        mistakes,
        losing: losing.flatten(),
        moves_through,
    })
}

/// The decision profile and each mistake's deciding line. A mistake's stack holds every line
/// it went through: the helper that makes every move, the entry point that calls the strategy,
/// and the branch that chose this move. The deciding line is the most specific of them, the
/// one the fewest of the bot's judged moves in games with a mistake went through (ties: the
/// innermost); each line of the profile is charged with the mistakes it decided, so a helper is
/// charged with none and the shares add up to 100 %.
fn summarize(suite: &Suite, unit: &str, mistake: &str, mut played: Vec<AnalyzedGame>) -> Analysis {
    let cost: f64 = played.iter().map(|game| game.cost).sum();
    let mut through: HashMap<Line, u32> = HashMap::new();
    for game in &played {
        for (line, moves) in &game.moves_through {
            *through.entry(line.clone()).or_default() += moves;
        }
    }
    let mut sites: BTreeMap<Line, DecisionSite> = BTreeMap::new();
    for game in &mut played {
        for (nth, made) in game.mistakes.iter_mut().enumerate() {
            let deciding = lines_of(&made.stack)
                .into_iter()
                .min_by_key(|(line, index)| (through.get(line).copied().unwrap_or(0), *index));
            let Some((line, index)) = deciding else { continue };
            let frame = &made.stack.frames[index];
            let Some(at) = frame.location.clone() else { continue };
            made.location = Some(at.clone());
            let site = sites.entry(line.clone()).or_insert_with(|| DecisionSite {
                file: at.file,
                line: at.line,
                column: at.column,
                function: frame.function.clone(),
                chain: chain_from(&made.stack, index),
                cost: 0.0,
                percent: 0.0,
                mistakes: 0,
                moves: through.get(&line).copied().unwrap_or_default(),
                losses: 0,
                first: FirstMistake {
                    opponent: game.opponent.clone(),
                    seed: game.seed,
                    turn: made.turn,
                },
            });
            site.cost += made.cost;
            site.mistakes += 1;
            site.losses += u32::from(game.losing == Some(nth));
        }
    }
    let mut sites: Vec<DecisionSite> = sites.into_values().collect();
    for site in &mut sites {
        site.percent = if cost > 0.0 { 100.0 * site.cost / cost } else { 0.0 };
    }
    sites.sort_by(|a, b| b.cost.total_cmp(&a.cost).then(b.losses.cmp(&a.losses)));
    sites.truncate(MAX_SITES);
    Analysis {
        bot: suite.bot.name().to_owned(),
        game: suite.game.name().to_owned(),
        seeds: suite.seeds.to_string(),
        opponents: suite.opponents.iter().map(|o| o.name().to_owned()).collect(),
        unit: unit.to_owned(),
        mistake: mistake.to_owned(),
        games: played.len() as u64,
        lost: played.iter().filter(|g| g.result == SeatResult::Loss).count() as u64,
        judged: played.iter().map(|g| u64::from(g.judged)).sum(),
        mistakes: played.iter().map(|g| g.mistakes.len() as u64).sum(),
        cost,
        sites,
        played: played.into_iter().filter(|g| !g.mistakes.is_empty()).collect(),
    }
}

/// A cost in as few digits as it needs, with its unit: `1 outcome`, `2 steps`, `0.35 shots`.
pub fn amount(cost: f64, unit: &str) -> String {
    let text = format!("{cost:.2}");
    let number = text.trim_end_matches('0').trim_end_matches('.');
    if number == "1" { format!("1 {unit}") } else { format!("{number} {unit}s") }
}

/// A count and a noun: `1 blunder`, `3 blunders`.
fn count(n: u64, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

/// The bot's result in words.
fn result_word(result: SeatResult) -> &'static str {
    match result {
        SeatResult::Win => "won",
        SeatResult::Loss => "lost",
        SeatResult::Draw => "drawn",
    }
}

impl Analysis {
    /// The report for a terminal: the decision profile, then each lost game's losing move (or,
    /// without one, each game's costliest mistakes), at most `games` games; files relative to
    /// `base`. Every name and board from the bot or its debug info is shown [`printable`].
    pub fn render(&self, base: &Path, games: usize) -> String {
        let mut out = String::new();
        let opponents: Vec<_> = self.opponents.iter().map(|name| printable(name)).collect();
        let _ = writeln!(
            out,
            "{} vs {}, seeds {}: {}, {} lost; {} in {} judged, costing {}",
            printable(&self.bot),
            opponents.join(", "),
            self.seeds,
            count(self.games, "game"),
            self.lost,
            count(self.mistakes, &self.mistake),
            count(self.judged, "move"),
            amount(self.cost, &self.unit),
        );
        if self.mistakes == 0 {
            out.push_str("\nEvery move was as good as the oracle's.\n");
            return out;
        }
        if !self.sites.is_empty() {
            let _ = writeln!(out, "\nDecision profile (what the moves chosen at each line lost):");
            for site in &self.sites {
                let place = SourceLocation { file: relative(&site.file, base), ..site.location() };
                let chain = match site.chain.as_str() {
                    "" => String::new(),
                    chain => format!(" in {}", printable(chain)),
                };
                let losses = match site.losses {
                    0 => String::new(),
                    n => format!("; {n} of {} losses turned here", self.lost),
                };
                let _ = writeln!(
                    out,
                    "  {}{chain}: {:.0} % of what was lost ({}, {} in {} made here in games with a {}){losses}",
                    printable(&place.to_string()),
                    site.percent,
                    amount(site.cost, &self.unit),
                    count(u64::from(site.mistakes), &self.mistake),
                    count(u64::from(site.moves), "move"),
                    self.mistake,
                );
            }
        }
        // Lost games first, then the costliest.
        let mut shown: Vec<&AnalyzedGame> = self.played.iter().collect();
        shown.sort_by(|a, b| {
            (a.result != SeatResult::Loss)
                .cmp(&(b.result != SeatResult::Loss))
                .then(b.cost.total_cmp(&a.cost))
        });
        for game in shown.into_iter().take(games) {
            let _ = writeln!(
                out,
                "\n{} seed {}: {} ({}); {} lost to {}",
                printable(&game.opponent),
                game.seed,
                result_word(game.result),
                printable(&game.reason),
                amount(game.cost, &self.unit),
                count(game.mistakes.len() as u64, &self.mistake),
            );
            let shown: Vec<&Mistake> = match game.losing_move() {
                Some(losing) => vec![losing],
                None => game.mistakes.iter().take(3).collect(),
            };
            for made in shown {
                let label = if game.losing_move() == Some(made) {
                    "the move that lost it".to_owned()
                } else {
                    self.mistake.clone()
                };
                let place = match &made.location {
                    Some(at) => {
                        let at = SourceLocation { file: relative(&at.file, base), ..at.clone() };
                        format!(" at {}", printable(&at.to_string()))
                    }
                    None => String::new(),
                };
                let _ = writeln!(
                    out,
                    "  move {}, {label}: {}{place} ({} → {}); best {}",
                    made.turn,
                    printable(&made.action),
                    made.before,
                    made.after,
                    printable(&made.best),
                );
                for line in made.board.lines() {
                    let _ = writeln!(out, "    {}", printable(line));
                }
            }
        }
        if self.played.len() > games {
            let more = self.played.len() - games;
            let games = if more == 1 { "game" } else { "games" };
            let _ = writeln!(
                out,
                "\n… and {more} more {games} with {}s (--games shows more)",
                self.mistake
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use botlens_engine::stack::StackFrame;

    use super::*;

    /// A stack of `(function, line)` frames in `/bot/src/lib.rs`, innermost first.
    fn stack(frames: &[(&str, u32)]) -> CallStack {
        let frames = frames
            .iter()
            .map(|&(function, line)| StackFrame {
                function: function.into(),
                location: Some(SourceLocation { file: "/bot/src/lib.rs".into(), line, column: 5 }),
                folded: 0,
                cycle: None,
            })
            .collect();
        CallStack { frames, dropped: 0 }
    }

    /// A game on `seed` whose judged moves went through `through` (lines and counts), with
    /// `mistakes` as (cost, stack), the last one losing it when `lost`.
    fn game(
        seed: u64,
        lost: bool,
        through: &[(u32, u32)],
        mistakes: &[(f64, CallStack)],
    ) -> AnalyzedGame {
        let mistakes: Vec<Mistake> = mistakes
            .iter()
            .enumerate()
            .map(|(n, (cost, stack))| Mistake {
                turn: 2 * n as u32 + 2,
                action: "mark(0, 0)".into(),
                best: "mark(1, 0)".into(),
                cost: *cost,
                before: "drawn".into(),
                after: "lost".into(),
                loses: lost,
                board: String::new(),
                location: None,
                chain: stack.chain(),
                stack: stack.clone(),
            })
            .collect();
        AnalyzedGame {
            opponent: "perfect".into(),
            seed,
            seat: 0,
            result: if lost { SeatResult::Loss } else { SeatResult::Draw },
            reason: String::new(),
            judged: through.iter().map(|&(_, n)| n).max().unwrap_or(0),
            cost: mistakes.iter().map(|m| m.cost).sum(),
            losing: lost.then(|| mistakes.len() - 1),
            mistakes,
            moves_through: through
                .iter()
                .map(|&(line, n)| (("/bot/src/lib.rs".to_owned(), line), n))
                .collect(),
        }
    }

    fn suite() -> Suite {
        crate::suite::tests::suite(
            botlens_games::GameKind::TicTacToe,
            "random",
            &["perfect"],
            "0..2",
        )
    }

    #[test]
    fn each_mistake_is_charged_to_the_branch_that_chose_it_not_the_helper_that_made_it() {
        // `mark` (line 10) makes every move; `play` calls it from the corner branch (line 40)
        // or the edge branch (line 50).
        let corner = stack(&[("mark", 10), ("play", 40)]);
        let edge = stack(&[("mark", 10), ("play", 50)]);
        let played = vec![
            game(0, true, &[(10, 4), (40, 2), (50, 2)], &[(1.0, corner.clone())]),
            game(1, false, &[(10, 4), (40, 1), (50, 3)], &[(1.0, corner), (1.0, edge)]),
        ];
        let analysis = summarize(&suite(), "outcome", "blunder", played);
        let sites: Vec<(u32, f64, u32, u32, u32)> = analysis
            .sites
            .iter()
            .map(|s| (s.line, s.cost, s.mistakes, s.moves, s.losses))
            .collect();
        assert_eq!(
            sites,
            [(40, 2.0, 2, 3, 1), (50, 1.0, 1, 5, 0)],
            "the helper is charged nothing"
        );
        assert_eq!(analysis.sites[0].chain, "play", "the chain from the line's own frame");
        assert_eq!((analysis.lost, analysis.mistakes, analysis.cost), (1, 3, 3.0));
        let percents: Vec<f64> = analysis.sites.iter().map(|s| s.percent.round()).collect();
        assert_eq!(percents, [67.0, 33.0], "shares of everything lost, adding up to 100");
        let lines: Vec<Option<u32>> = analysis.played[1]
            .mistakes
            .iter()
            .map(|m| m.location.as_ref().map(|l| l.line))
            .collect();
        assert_eq!(lines, [Some(40), Some(50)], "each mistake at its deciding line");
    }

    #[test]
    fn a_strategy_function_deeper_than_play_decides_when_fewer_moves_go_through_it() {
        // play (line 90, every move) → choose (line 20, a third of them) → mark (line 10).
        let deep = stack(&[("mark", 10), ("choose", 20), ("play", 90)]);
        let played = vec![game(0, true, &[(10, 9), (20, 3), (90, 9)], &[(1.0, deep)])];
        let analysis = summarize(&suite(), "outcome", "blunder", played);
        let site = &analysis.sites[0];
        assert_eq!(
            (site.line, site.function.as_str(), site.chain.as_str()),
            (20, "choose", "choose ← play")
        );
        assert_eq!(site.losses, 1);
        assert_eq!(site.first, FirstMistake { opponent: "perfect".into(), seed: 0, turn: 2 });
        assert_eq!(
            analysis.played[0].losing_move().unwrap().location.as_ref().map(|l| l.line),
            Some(20)
        );
    }

    #[test]
    fn a_clean_suite_says_every_move_was_as_good_as_the_oracles() {
        let played = vec![game(0, false, &[(10, 4)], &[])];
        let analysis = summarize(&suite(), "outcome", "blunder", played);
        assert!(analysis.sites.is_empty() && analysis.played.is_empty());
        let text = analysis.render(Path::new("/bot"), 5);
        assert!(text.ends_with("Every move was as good as the oracle's.\n"), "{text}");
    }

    #[test]
    fn games_are_located_at_once_only_once_most_games_judged_had_a_mistake() {
        let capture = StackCapture::default();
        for _ in 0..StackCapture::FIRST_GAMES - 1 {
            capture.judged(true);
        }
        assert!(!capture.locates_at_once(), "too few games judged to tell");
        capture.judged(true);
        assert!(capture.locates_at_once(), "every game had a mistake");
        for _ in 0..StackCapture::FIRST_GAMES {
            capture.judged(false);
        }
        assert!(!capture.locates_at_once(), "half the games had none: replay those with one");
        capture.judged(true);
        assert!(capture.locates_at_once(), "more than half had one");
    }

    #[test]
    fn amounts_and_counts_read_as_words() {
        assert_eq!(amount(1.0, "outcome"), "1 outcome");
        assert_eq!(amount(2.0, "step"), "2 steps");
        assert_eq!(amount(0.35, "shot"), "0.35 shots");
        assert_eq!(count(1, "blunder"), "1 blunder");
        assert_eq!(count(0, "detour"), "0 detours");
    }
}
