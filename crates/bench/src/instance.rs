//! A wasm bot's instance as its own games have it: made, a game played in it, dropped.
//!
//! `SandboxFloor` times an instance nothing ran in. A game's instance costs more: making it
//! runs the bot's `botlens_new`, and dropping it resets every page the game wrote (the view the
//! host copied in, the bot's stack, its statics, its heap) to the module's image for the next
//! game. Both happen once a game whatever the bot's turns cost, so they belong to the least a
//! game of that bot can cost.

use std::time::{Duration, Instant};

use anyhow::{anyhow, bail};
use botlens_engine::ReferencePlayer;
use botlens_games::{GameKind, GameVisitor, Scored};
use botlens_harness::WasmBot;
use botlens_sandbox::SandboxLimits;

use crate::shared::against;

/// Rounds of games the instance is timed over; the fastest is kept, as for games per second.
const ROUNDS: u32 = 5;

/// What `bot`'s instance costs a game, in µs, with `bot` in the first seat of `game` against
/// the reference player `opponent`: made (the module instantiated and its `botlens_new` run)
/// and dropped (its memory reset), the fastest of [`ROUNDS`] rounds of `games` games. The
/// games' turns are left out.
pub(crate) fn instance_us_per_game(
    game: GameKind,
    bot: &WasmBot,
    opponent: &str,
    games: u64,
) -> anyhow::Result<f64> {
    game.visit(InstanceTimer { bot, opponent, games: games.max(1) })
}

struct InstanceTimer<'a> {
    bot: &'a WasmBot,
    opponent: &'a str,
    games: u64,
}

impl GameVisitor for InstanceTimer<'_> {
    type Output = anyhow::Result<f64>;

    fn visit<G: Scored>(self) -> Self::Output {
        if G::OPPONENTS_ARE_BOARDS {
            bail!("{} has boards, not opponents: its instances are not timed", G::NAME);
        }
        let opponent = ReferencePlayer::<G>::find(self.opponent).map_err(|e| anyhow!(e))?;
        let limits = SandboxLimits::default();
        let mut best = Duration::MAX;
        for _ in 0..ROUNDS {
            let mut instance = Duration::ZERO;
            for seed in 0..self.games {
                let mut wasm = self.bot.module.player::<G>(seed, 0, &limits).timed();
                let record = against(&mut wasm, opponent, seed);
                if let Some(fault) = &record.outcome.fault {
                    bail!(
                        "{} failed while its instance was timed: {}",
                        self.bot.name,
                        fault.failure
                    );
                }
                let made = wasm.stats().instantiate;
                let dropping = Instant::now();
                drop(wasm);
                instance += made + dropping.elapsed();
            }
            best = best.min(instance);
        }
        Ok(best.as_secs_f64() * 1e6 / self.games as f64)
    }
}

#[cfg(test)]
mod tests {
    use botlens_sandbox::{Sandbox, SandboxConfig};

    use super::*;

    fn floor_bot() -> WasmBot {
        let cache = tempfile::tempdir().unwrap();
        let sandbox = Sandbox::new(SandboxConfig { cache_dir: Some(cache.path().into()) }).unwrap();
        let module = sandbox.load(crate::measure::FLOOR_BOT.as_bytes()).unwrap();
        WasmBot { name: "floor".into(), module, source: "floor_bot.wat".into() }
    }

    #[test]
    fn an_instance_is_timed_over_its_own_games() {
        let us = instance_us_per_game(GameKind::Battleships, &floor_bot(), "random", 3).unwrap();
        assert!(us > 0.0 && us < 10_000.0, "{us} µs");
    }

    #[test]
    fn an_unknown_opponent_a_failing_bot_and_a_puzzle_are_errors() {
        let bot = floor_bot();
        let unknown = instance_us_per_game(GameKind::Battleships, &bot, "nobody", 3).unwrap_err();
        assert!(unknown.to_string().contains("no reference player `nobody`"), "{unknown}");
        // A Battleships bot fails at Tic-tac-toe: its moves are not Tic-tac-toe's.
        let failed = instance_us_per_game(GameKind::TicTacToe, &bot, "random", 3).unwrap_err();
        assert!(
            failed.to_string().contains("floor failed while its instance was timed"),
            "{failed}"
        );
        let puzzle = instance_us_per_game(GameKind::Klotski, &bot, "hengdaolima", 3).unwrap_err();
        assert!(puzzle.to_string().contains("boards, not opponents"), "{puzzle}");
    }
}
