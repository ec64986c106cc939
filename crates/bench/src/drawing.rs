//! What drawing costs: the Battleships sample as it is, and the same bot drawing its 10 × 10
//! density map every turn (`botlens_sdk::draw::heat`), its marks not recorded (what every game
//! of a suite pays) and recorded (what a game whose trace is kept pays).

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use botlens_battleships::Battleships;
use botlens_harness::WasmBot;
use botlens_sandbox::SandboxLimits;

use crate::report::DrawingCost;
use crate::shared::{ROUNDS, against_hunter};

/// The drawing variant's package name.
pub(crate) const PACKAGE: &str = "hunter-drawing";

/// The line of the sample's `play` after which the drawing variant draws its map.
const ANCHOR: &str = "let scores = density(&grid, &afloat);";

/// What the drawing variant adds after [`ANCHOR`].
const DRAW_CALL: &str = "\n        botlens_sdk::draw::heat(10, &scores.map(|count| count as f32));";

/// The sample's source with its density map drawn every turn.
pub(crate) fn drawing_variant(source: &str) -> anyhow::Result<String> {
    if !source.contains(ANCHOR) {
        bail!("the battleships-hunter sample no longer has `{ANCHOR}` to draw its map after");
    }
    Ok(source.replacen(ANCHOR, &format!("{ANCHOR}{DRAW_CALL}"), 1))
}

/// Writes the drawing variant of the sample copied into `project` over its `src/lib.rs`.
pub(crate) fn make_drawing(project: &Path) -> anyhow::Result<()> {
    let lib = project.join("src").join("lib.rs");
    let source = std::fs::read_to_string(&lib).with_context(|| format!("{}", lib.display()))?;
    let drawing = drawing_variant(&source)?;
    if drawing != source {
        std::fs::write(&lib, drawing)?;
    }
    Ok(())
}

/// `games` games of each of `plain` (the sample) and `drawing` (its drawing variant, recorded and
/// not) against native `hunter`, round by round, each figure its best round.
pub(crate) fn measure(
    plain: &WasmBot,
    drawing: &WasmBot,
    games: u64,
) -> anyhow::Result<DrawingCost> {
    let per_round = games.div_ceil(ROUNDS);
    let mut best = [Duration::MAX; 3];
    let mut fuel = [0u64; 3];
    let mut turns = [0u64; 3];
    for _ in 0..ROUNDS {
        for (i, (bot, recording)) in
            [(plain, false), (drawing, false), (drawing, true)].into_iter().enumerate()
        {
            let (took, spent, played) = play(bot, recording, per_round)?;
            best[i] = best[i].min(took);
            (fuel[i], turns[i]) = (spent, played);
        }
    }
    let per_s = |d: Duration| per_round as f64 / d.as_secs_f64();
    let fuel_per_turn = |i: usize| fuel[i] as f64 / turns[i].max(1) as f64;
    if fuel_per_turn(1) <= fuel_per_turn(0) {
        bail!(
            "the drawing variant of battleships-hunter burns no more fuel than the sample: it draws nothing"
        );
    }
    let [plain_per_s, unrecorded_per_s, recorded_per_s] = best.map(per_s);
    Ok(DrawingCost {
        games: per_round,
        plain_games_per_s: plain_per_s,
        unrecorded_games_per_s: unrecorded_per_s,
        recorded_games_per_s: recorded_per_s,
        plain_fuel_per_turn: fuel_per_turn(0),
        drawing_fuel_per_turn: fuel_per_turn(1),
        unrecorded_over_plain: unrecorded_per_s / plain_per_s,
        recorded_over_unrecorded: recorded_per_s / unrecorded_per_s,
    })
}

/// Plays `games` seeds of `bot` against `hunter`: the time taken, the bot's fuel and its turns.
fn play(bot: &WasmBot, recording: bool, games: u64) -> anyhow::Result<(Duration, u64, u64)> {
    let limits = SandboxLimits::default();
    let (mut fuel, mut turns) = (0, 0);
    let started = Instant::now();
    for seed in 0..games {
        let player = bot.module.player::<Battleships>(seed, 0, &limits);
        let mut wasm = if recording { player.drawing() } else { player };
        let record = against_hunter(&mut wasm, seed);
        if let Some(fault) = &record.outcome.fault {
            bail!("{} lost a game by a fault while benchmarking: {}", bot.name, fault.failure);
        }
        let own = record.moves.iter().filter(|m| m.seat == 0);
        for turn in own {
            fuel += turn.cost.fuel.unwrap_or(0);
            turns += 1;
            if recording && turn.drawing.heat().is_none() {
                bail!("a recorded turn of {} has no heat map", bot.name);
            }
        }
    }
    Ok((started.elapsed(), fuel, turns))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_has_the_line_the_variant_draws_after() {
        let sample =
            concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/battleships-hunter/src/lib.rs");
        let source = std::fs::read_to_string(sample).unwrap();
        let drawing = drawing_variant(&source).unwrap();
        assert_eq!(drawing.matches("draw::heat").count(), 1);
        assert!(drawing_variant("fn play() {}").is_err());
    }
}
