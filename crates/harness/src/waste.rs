//! Wasted moves located at the lines that made them. A suite only counts wasted moves (the hot
//! path stays as fast as it was); afterwards, the first game against each opponent in which
//! the bot wasted a move is played again with the bot
//! [`locating_wasted`](botlens_sandbox::WasmPlayer::locating_wasted), and its wasted moves are
//! grouped by call site: what the report's warnings and the editor's show.
//!
//! Games are deterministic, so the game played again wastes the same moves. A JavaScript bot's
//! moves are located at the JavaScript stack its runner states (`botlens.wasted`, docs/abi.md),
//! the same in every game, so the game played again is still the same game. Reference bots
//! (native code) are not located; their wasted moves are still counted.

use std::collections::BTreeMap;
use std::path::Path;

use botlens_engine::SourceLocation;
use botlens_engine::stack::CallStack;
use botlens_games::{GameVisitor, Scored};
use botlens_sandbox::LocatedMove;
use serde::{Deserialize, Serialize};

use crate::fuel::relative;
use crate::suite::{self, Contender, Suite, SuiteResults, WasmBot};
use crate::tally::Position;

/// The most call sites a warning names (the ones that wasted the most moves).
pub const MAX_SITES: usize = 8;

/// One line of the bot's source that made wasted moves in the game played again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WasteSite {
    /// The source file, as the debug information names it.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column (0 when unknown).
    pub column: u32,
    /// The function the line is in.
    pub function: String,
    /// Wasted moves made here in that game.
    pub moves: u32,
    /// The move number of the first (every seat's moves counted).
    pub first_turn: u32,
    /// The first one as the game writes it: `attack(3, 7)`.
    pub action: String,
    /// The bot's call stack at the first one, innermost first.
    pub stack: CallStack,
}

impl WasteSite {
    /// The site's location.
    pub fn location(&self) -> SourceLocation {
        SourceLocation { file: self.file.clone(), line: self.line, column: self.column }
    }

    /// `3× src/lib.rs:15:9 in again ← play, first attack(4, 0) at move 8`, the file relative to
    /// `base` (without `in …` when the stack names no function).
    pub fn render(&self, base: &Path) -> String {
        let place = SourceLocation { file: relative(&self.file, base), ..self.location() };
        let chain = match self.stack.chain() {
            chain if chain.is_empty() => String::new(),
            chain => format!(" in {chain}"),
        };
        format!("{}× {place}{chain}, first {} at move {}", self.moves, self.action, self.first_turn)
    }
}

/// The wasted moves of one opponent's first wasteful game, played again with the bot locating
/// them.
#[derive(Debug, Clone)]
pub struct Located {
    /// Where the game sits in the suite.
    pub at: Position,
    /// Its wasted moves, in turn order.
    pub moves: Vec<LocatedMove>,
}

impl Located {
    /// The moves grouped by the line that made them, most moves first (ties by location), at
    /// most [`MAX_SITES`]; moves without a line are left out.
    pub fn sites(&self) -> Vec<WasteSite> {
        let mut sites: BTreeMap<(String, u32), WasteSite> = BTreeMap::new();
        for wasted in &self.moves {
            let Some(location) = wasted.location() else { continue };
            let key = (location.file.clone(), location.line);
            sites
                .entry(key)
                .or_insert_with(|| WasteSite {
                    file: location.file.clone(),
                    line: location.line,
                    column: location.column,
                    function: wasted
                        .stack
                        .innermost()
                        .map_or_else(String::new, |f| f.function.clone()),
                    moves: 0,
                    first_turn: wasted.turn,
                    action: wasted.action.clone(),
                    stack: wasted.stack.clone(),
                })
                .moves += 1;
        }
        let mut sites: Vec<WasteSite> = sites.into_values().collect();
        sites.sort_by_key(|site| std::cmp::Reverse(site.moves));
        sites.truncate(MAX_SITES);
        sites
    }
}

/// Plays again, for each opponent against which the bot wasted a move, the first game in which
/// it did, locating its wasted moves. Nothing for reference bots; a suite without a wasted move
/// costs nothing.
pub fn locate(suite: &Suite, results: &SuiteResults) -> Vec<Located> {
    let Contender::Wasm(bot) = &suite.bot else { return Vec::new() };
    let firsts = results.tally.opponents.iter().filter_map(|row| row.first_wasteful);
    firsts.map(|at| suite.game.visit(Replay { suite, bot, at })).collect()
}

/// One game played again, the bot locating its wasted moves.
struct Replay<'a> {
    suite: &'a Suite,
    bot: &'a WasmBot,
    at: Position,
}

impl GameVisitor for Replay<'_> {
    type Output = Located;

    fn visit<G: Scored>(self) -> Located {
        let (opponent, seed, seat) = self.at;
        let limits = &self.suite.sandbox_limits;
        let mut wasm = self.bot.module.player::<G>(seed, seat, limits).locating_wasted();
        suite::play_match(self.suite, opponent, seed, seat, &mut wasm, false);
        Located { at: self.at, moves: wasm.wasted_moves() }
    }
}

#[cfg(test)]
mod tests {
    use botlens_engine::stack::StackFrame;

    use super::*;

    /// A wasted move on `turn` made at `line` of `src/lib.rs` in `function`, called from `play`
    /// (no line: an unlocated move).
    fn wasted(turn: u32, function: &str, line: Option<u32>) -> LocatedMove {
        let at = |line| SourceLocation { file: "/bot/src/lib.rs".into(), line, column: 9 };
        let frame = |function: &str, location| StackFrame {
            function: function.into(),
            location,
            folded: 0,
            cycle: None,
        };
        let frames = vec![frame(function, line.map(at)), frame("play", line.map(|_| at(40)))];
        LocatedMove {
            turn,
            action: format!("attack({turn}, 0)"),
            wasted: true,
            stack: CallStack { frames, dropped: 0 },
        }
    }

    #[test]
    fn wasted_moves_are_grouped_by_the_line_that_made_them_most_first() {
        let located = Located {
            at: (0, 3, 0),
            moves: vec![
                wasted(8, "again", Some(15)),
                wasted(11, "retry", Some(22)),
                wasted(16, "again", Some(15)),
                wasted(20, "again", None),
                wasted(24, "again", Some(15)),
            ],
        };
        let sites = located.sites();
        let summary: Vec<(u32, u32, u32, &str)> =
            sites.iter().map(|s| (s.line, s.moves, s.first_turn, s.function.as_str())).collect();
        assert_eq!(summary, [(15, 3, 8, "again"), (22, 1, 11, "retry")], "unlocated left out");
        assert_eq!(sites[0].action, "attack(8, 0)", "the first one's");
        assert_eq!(
            sites[0].render(Path::new("/bot")),
            "3× src/lib.rs:15:9 in again ← play, first attack(8, 0) at move 8"
        );
    }

    #[test]
    fn a_site_whose_stack_names_no_function_says_no_chain() {
        let located = Located { at: (0, 3, 0), moves: vec![wasted(8, "", Some(15))] };
        let mut sites = located.sites();
        sites[0].stack.frames.truncate(1);
        assert_eq!(
            sites[0].render(Path::new("/bot")),
            "1× src/lib.rs:15:9, first attack(8, 0) at move 8"
        );
    }

    #[test]
    fn at_most_the_busiest_sites_are_kept() {
        let moves = (0..MAX_SITES as u32 + 4)
            .flat_map(|line| (0..=line).map(move |n| wasted(100 * line + n, "f", Some(line + 1))))
            .collect();
        let sites = Located { at: (0, 0, 0), moves }.sites();
        assert_eq!(sites.len(), MAX_SITES);
        assert!(sites.windows(2).all(|w| w[0].moves >= w[1].moves), "busiest first");
        assert_eq!(sites[0].line, MAX_SITES as u32 + 4);
    }
}
