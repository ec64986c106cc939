//! The bench's figures: one serializable report, printed as a table or as JSON.
//!
//! # JSON (`botlens bench --json`)
//!
//! Every field is named after what it measures, with its unit in the name:
//!
//! | field | meaning |
//! |---|---|
//! | `cores` | cores available to the run |
//! | `games_per_measurement` | games played for each games-per-second figure |
//! | `speeds[]` | per game: `game`, `native` and `wasm` (what played), `native_games_per_s`, `wasm_games_per_s` (one core each), `native_over_wasm` (how many times faster native is), `mean_turns_per_game` (wasm games, both seats), `bot_turns_per_game` (the wasm bot's), `instance_us_per_game` (the bot's instance as its own games have it: made, its `botlens_new` run, and dropped, every page its game wrote reset; measured where `least_native_over_wasm` is given, null elsewhere), `sandbox_floor_us_per_game` (the least a game of the bot costs the sandbox: that instance, or `sandbox_floor`'s where not measured, and per bot turn a call and two host calls), `least_native_over_wasm` (the least `native_over_wasm` that floor allows when the native side is two copies of one player: `(native game ÷ 2 + floor) ÷ native game`; null otherwise) |
//! | `sandbox_floor` | the sandbox's own steps measured alone on this CPU, no game and no bot, best of 5 rounds of 20,000: `instance_us` (a fresh instance of a module with a Rust bot's memory made from its recipe in a pooled slot and dropped, its memory reset), `call_us` (entering a call into wasm as a turn does: fuel set and read back, epoch deadline set), `host_call_us` (a call from wasm to an empty host function) |
//! | `languages[]` | bots in other languages, one core vs `random` (best of 10 rounds): `game`, `lang`, `bot` (what played), `games_per_s`, `fuel_per_turn` (the traces' `cost.fuel` of the bot's turns, 20 games), `over_rust` (games/s ÷ the Rust `botlens new` bot's of the same game), `skipped` (why the row was not measured, e.g. a missing toolchain; the figures are then null) |
//! | `wasm_cost` | a Battleships game of the `botlens new` bot (random squares) against `hunter`, split: `instantiate_us_per_game`, `guest_us_per_turn` (inside the module: bot work, its `act` call and message encoding), `host_us_per_turn` (engine, runner and native opponent), `fuel_per_turn`, `floor_guest_us_per_turn` and `floor_fuel_per_turn` (the same for a raw-ABI bot in WAT that reads the view and fires at the first unknown square: the floor any bot pays), `turns_per_game` |
//! | `compile` | module compile of the `battleships-hunter` sample: `cold_ms` (no function compiled before, as in a new process), `disk_cache_ms`, `memory_cache_us` |
//! | `suite` | the README's main job: `description`, `games`, `one_core_ms`, `all_cores_ms`, `cores`, `speedup` (games only, build already done), `end_to_end_ms` (with a no-op cargo build and the module load) |
//! | `drawing` | the `battleships-hunter` sample against `hunter`, as it is and drawing its 10 × 10 density map every turn (`draw::heat`), one core, best of 10 rounds: `games` (per round), `plain_games_per_s`, `unrecorded_games_per_s` (drawing, marks not recorded: every game of a suite), `recorded_games_per_s` (marks recorded: a game whose trace is kept), `plain_fuel_per_turn`, `drawing_fuel_per_turn` (the fixed cost of the call included), `unrecorded_over_plain`, `recorded_over_unrecorded` |
//! | `save_to_report` | after an edit that moves every line of the sample (a module never compiled before, though the functions whose code the edit left alone come from the process's cache, as in the language server), medians over `edits`: `cargo_build_ms`, `module_load_ms`, `games_ms`, `total_ms`, `not_cargo_ms`; null with `--no-latency` |
//! | `js_save_to_diagnostics` | after an edit of the random JavaScript bot, what the language server runs on save (the runner found built, the module loaded from the cache and checked for syntax errors, the bot's suite on every core), medians over `edits`: `load_ms`, `games_ms`, `total_ms`; those null and `skipped` saying why when the runner cannot be built here (its toolchain is missing); null with `--no-latency` |
//! | `py_save_to_diagnostics` | the same for the random Python bot; null with `--no-latency` |
//! | `peak_rss_mib` | peak resident memory of the bench process |
//! | `machine_load` | how busy the machine was: `load_average_before` and `load_average_after` (1-, 5- and 15-minute), `others_cpu_share` (0 to 1: the share of all cores' time other processes ran while the bench did; near 0 when idle); null fields where `/proc` is not there |
//!
//! Ratios of two measurements taken in turn, round by round, in this run (`native_over_wasm`,
//! `analysis[].ratio`, `drawing`'s `unrecorded_over_plain` and `recorded_over_unrecorded`) hold
//! on a busy or slower machine; every other figure is absolute and moves with the machine, and
//! so does `least_native_over_wasm`, made of two absolute figures (the floor, the native games).
//! `over_rust` divides a language row by the Rust row of the same game measured earlier in the
//! run, not in turn with it.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use botlens_sandbox::SandboxFloor;

use crate::load::MachineLoad;

/// Games per second for one game, native and wasm side by side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameSpeed {
    /// The game.
    pub game: String,
    /// What played natively, e.g. `density vs hunter`.
    pub native: String,
    /// What played in wasm, e.g. `battleships-hunter (wasm) vs hunter`.
    pub wasm: String,
    /// Native games per second on one core.
    pub native_games_per_s: f64,
    /// Wasm games per second on one core.
    pub wasm_games_per_s: f64,
    /// How many times faster native is than wasm.
    pub native_over_wasm: f64,
    /// Mean turns per wasm game (both seats).
    pub mean_turns_per_game: f64,
    /// Mean turns of the wasm bot per game.
    pub bot_turns_per_game: f64,
    /// The bot's instance as its own games have it, in µs a game: made (the module instantiated
    /// and its `botlens_new` run) and dropped (every page its game wrote reset for the next
    /// game), the fastest of a few rounds; more than [`SandboxFloor::instance_us`], an instance
    /// nothing ran in. Measured where `least_native_over_wasm` is given, `None` elsewhere.
    pub instance_us_per_game: Option<f64>,
    /// The least a wasm game of the bot costs the sandbox ([`SandboxFloor::per_game_us`]: one
    /// instance, `instance_us_per_game` where measured, and each bot turn entered once with two
    /// host calls), in µs.
    pub sandbox_floor_us_per_game: f64,
    /// The least `native_over_wasm` the sandbox's floor allows, where the native side is two
    /// copies of one player (so that player is at most half of a native game, and a wasm game
    /// costs at least the other half plus the floor); `None` for other pairings.
    pub least_native_over_wasm: Option<f64>,
}

impl GameSpeed {
    /// The least native ÷ wasm a pairing can reach when each wasm game costs at least
    /// `floor_us` more than what remains of a native game without one of its two identical
    /// players: `(native game / 2 + floor) ÷ native game`.
    ///
    /// ```
    /// // A native game of 1.5 µs and a floor of 2.25 µs a game: at least 2×.
    /// let least = botlens_bench::GameSpeed::least_ratio(1.0e6 / 1.5, 2.25);
    /// assert!((least - 2.0).abs() < 1e-9, "{least}");
    /// ```
    pub fn least_ratio(native_games_per_s: f64, floor_us: f64) -> f64 {
        let native_us = 1e6 / native_games_per_s;
        (native_us / 2.0 + floor_us) / native_us
    }
}

/// Games per second of a bot in another language than Rust against `random`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LangSpeed {
    /// The game.
    pub game: String,
    /// The bot's language.
    pub lang: String,
    /// What played, e.g. `` `botlens new tictactoe --lang c` vs random ``.
    pub bot: String,
    /// Games per second on one core; `None` when skipped.
    pub games_per_s: Option<f64>,
    /// Mean fuel per bot turn; `None` when skipped.
    pub fuel_per_turn: Option<f64>,
    /// `games_per_s` ÷ the Rust starter bot's of the same game.
    pub over_rust: Option<f64>,
    /// Why the row was not measured.
    pub skipped: Option<String>,
}

/// Save → diagnostics of a script bot (no build: the runner takes the edited source); the
/// figures are `None` when it was skipped.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScriptLatency {
    /// Number of edits measured.
    pub edits: usize,
    /// Median time finding the runner, loading the module and checking the source.
    pub load_ms: Option<f64>,
    /// Median time playing the suite.
    pub games_ms: Option<f64>,
    /// Median of the whole loop.
    pub total_ms: Option<f64>,
    /// Why it was not measured (the language's runner cannot be built here), as a skipped
    /// language row says.
    pub skipped: Option<String>,
}

/// Where the time of a wasm game goes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WasmCostSplit {
    /// Creating the store and instance (and running `botlens_new`), per game.
    pub instantiate_us_per_game: f64,
    /// Time inside the module per bot turn: bot work, its `act` host call, message encoding.
    pub guest_us_per_turn: f64,
    /// Time outside the module per turn: engine, runner and the native opponent.
    pub host_us_per_turn: f64,
    /// Fuel (≈ wasm instructions) per bot turn: the bot's own work.
    pub fuel_per_turn: f64,
    /// Time inside the module per turn for the raw-ABI floor bot (WAT: reads the view, fires at
    /// the first unknown square): what any bot pays for the host↔guest calls and messages.
    pub floor_guest_us_per_turn: f64,
    /// Fuel per turn of the floor bot.
    pub floor_fuel_per_turn: f64,
    /// Turns per game (both seats).
    pub turns_per_game: f64,
}

/// Compile time of one module.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompileTimes {
    /// Size of the module.
    pub module_kib: f64,
    /// First compile, empty caches.
    pub cold_ms: f64,
    /// A fresh sandbox reading the on-disk cache.
    pub disk_cache_ms: f64,
    /// The same sandbox loading the module again.
    pub memory_cache_us: f64,
}

/// The README's main job on one core and on all.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SuiteScaling {
    /// What was played.
    pub description: String,
    /// Games in the suite.
    pub games: u64,
    /// Games only, one worker.
    pub one_core_ms: f64,
    /// Games only, one worker per core.
    pub all_cores_ms: f64,
    /// Cores used for `all_cores_ms`.
    pub cores: usize,
    /// `one_core_ms / all_cores_ms`.
    pub speedup: f64,
    /// The whole `botlens run` job with the build already done (no-op cargo, load, games).
    pub end_to_end_ms: f64,
}

/// What drawing a heat map every turn costs a bot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DrawingCost {
    /// Games per measurement round.
    pub games: u64,
    /// The sample as it is.
    pub plain_games_per_s: f64,
    /// The sample drawing its map every turn, marks not recorded.
    pub unrecorded_games_per_s: f64,
    /// The same, marks recorded.
    pub recorded_games_per_s: f64,
    /// Mean fuel per bot turn of the sample.
    pub plain_fuel_per_turn: f64,
    /// Mean fuel per bot turn of the drawing variant (recorded or not: the same).
    pub drawing_fuel_per_turn: f64,
    /// `unrecorded_games_per_s / plain_games_per_s`.
    pub unrecorded_over_plain: f64,
    /// `recorded_games_per_s / unrecorded_games_per_s`.
    pub recorded_over_unrecorded: f64,
}

/// What `botlens analyze` costs against `botlens run`, for one game's sample suite.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnalysisCost {
    /// The game.
    pub game: String,
    /// What was played.
    pub description: String,
    /// Playing the suite as `run` does, one worker (best round).
    pub run_ms: f64,
    /// Analysing it (every move's stack captured and judged), one worker (best round).
    pub analyze_ms: f64,
    /// `analyze_ms / run_ms`.
    pub ratio: f64,
}

/// The save → report loop after an edit (what `botlens watch` and the language server
/// wait for before showing results).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoopLatency {
    /// Number of edits measured.
    pub edits: usize,
    /// Median cargo build time.
    pub cargo_build_ms: f64,
    /// Median module load (hash, checks, compile).
    pub module_load_ms: f64,
    /// Median time playing the suite.
    pub games_ms: f64,
    /// Median of the whole loop.
    pub total_ms: f64,
    /// Median of everything that is not cargo.
    pub not_cargo_ms: f64,
}

/// Everything one bench run measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BenchReport {
    /// Cores available.
    pub cores: usize,
    /// Games per games-per-second figure.
    pub games_per_measurement: u64,
    /// Per game, native and wasm.
    pub speeds: Vec<GameSpeed>,
    /// Bots in other languages.
    pub languages: Vec<LangSpeed>,
    /// What the sandbox's own steps cost on this CPU, apart from any game and bot.
    pub sandbox_floor: SandboxFloor,
    /// A Battleships wasm game, split.
    pub wasm_cost: WasmCostSplit,
    /// Module compile times.
    pub compile: CompileTimes,
    /// The README's main job.
    pub suite: SuiteScaling,
    /// A bot drawing its map every turn, recorded and not.
    pub drawing: DrawingCost,
    /// `botlens analyze` against `botlens run`, per game.
    pub analysis: Vec<AnalysisCost>,
    /// Save-to-report latency; `None` when skipped.
    pub save_to_report: Option<LoopLatency>,
    /// A JavaScript bot's save-to-diagnostics latency; `None` when skipped.
    pub js_save_to_diagnostics: Option<ScriptLatency>,
    /// A Python bot's save-to-diagnostics latency; `None` when skipped.
    pub py_save_to_diagnostics: Option<ScriptLatency>,
    /// Peak resident memory in MiB.
    pub peak_rss_mib: f64,
    /// How busy the machine was while the bench ran.
    pub machine_load: MachineLoad,
}

impl BenchReport {
    /// The figures as tables for a terminal.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "botlens bench: {} games per figure, one core unless said, {} cores available",
            self.games_per_measurement, self.cores
        );
        let _ = writeln!(out, "{}", self.machine_load.render());
        let _ = writeln!(
            out,
            "ratios (×) are of two figures measured in turn, round by round, in this run; games/s, \
             µs and ms are absolute and move with the machine's speed and load\n"
        );
        let _ = writeln!(
            out,
            "{:<12} {:<40} {:>11}   {:<44} {:>11}  {:>8}  {:>10}  {:>9}",
            "game", "native", "games/s", "wasm", "games/s", "native÷wasm", "instance*", "floor*"
        );
        for s in &self.speeds {
            let _ = writeln!(out, "{}", speed_row(s));
        }
        let _ = writeln!(out, "{}", floor_note(&self.sandbox_floor));
        let _ = writeln!(
            out,
            "\n{:<12} {:<60} {:>11}  {:>10}  {:>10}",
            "game", "bot in another language", "games/s", "fuel/turn", "÷ Rust*"
        );
        for l in &self.languages {
            let _ = writeln!(out, "{}", language_row(l));
        }
        let _ = writeln!(
            out,
            "* of the Rust `botlens new` bot's games/s above, measured earlier in this run, not in turn"
        );
        let c = &self.wasm_cost;
        let _ = writeln!(
            out,
            "\nwasm Battleships game (`botlens new` bot vs hunter), split: instantiate {:.1} µs/game · inside the bot {:.2} µs/turn \
             ({:.0} fuel) · of that, the raw-ABI floor {:.2} µs/turn ({:.0} fuel) · host {:.2} µs/turn · {:.1} turns/game",
            c.instantiate_us_per_game,
            c.guest_us_per_turn,
            c.fuel_per_turn,
            c.floor_guest_us_per_turn,
            c.floor_fuel_per_turn,
            c.host_us_per_turn,
            c.turns_per_game
        );
        let m = &self.compile;
        let _ = writeln!(
            out,
            "module compile ({:.0} KiB): cold {:.1} ms · from disk cache {:.1} ms · from memory {:.0} µs",
            m.module_kib, m.cold_ms, m.disk_cache_ms, m.memory_cache_us
        );
        let s = &self.suite;
        let _ = writeln!(
            out,
            "main job ({}, {} games): one core {:.0} ms · {} cores {:.0} ms ({:.2}× speedup) · end to end {:.0} ms",
            s.description,
            s.games,
            s.one_core_ms,
            s.cores,
            s.all_cores_ms,
            s.speedup,
            s.end_to_end_ms
        );
        let d = &self.drawing;
        let _ = writeln!(
            out,
            "drawing a 10×10 heat map every turn (battleships-hunter vs hunter): not drawing {:.0} games/s \
             ({:.0} fuel/turn) · drawing, not recorded {:.0} games/s ({:.0} fuel/turn, {:.3}×) · \
             recorded {:.0} games/s ({:.3}× of not recorded)",
            d.plain_games_per_s,
            d.plain_fuel_per_turn,
            d.unrecorded_games_per_s,
            d.drawing_fuel_per_turn,
            d.unrecorded_over_plain,
            d.recorded_games_per_s,
            d.recorded_over_unrecorded
        );
        let _ = writeln!(
            out,
            "\n{:<12} {:<52} {:>9} {:>11}  {:>11}",
            "analysis", "suite", "run ms", "analyze ms", "analyze÷run"
        );
        for a in &self.analysis {
            let _ = writeln!(
                out,
                "{:<12} {:<52} {:>9.0} {:>11.0}  {:>10.2}×",
                a.game, a.description, a.run_ms, a.analyze_ms, a.ratio
            );
        }
        let _ = writeln!(out);
        match &self.save_to_report {
            Some(l) => {
                let _ = writeln!(
                    out,
                    "save → report after an edit (median of {}): {:.0} ms = cargo build {:.0} ms \
                     + module load {:.0} ms + games {:.0} ms; not cargo: {:.0} ms",
                    l.edits,
                    l.total_ms,
                    l.cargo_build_ms,
                    l.module_load_ms,
                    l.games_ms,
                    l.not_cargo_ms
                );
            }
            None => {
                let _ = writeln!(out, "save → report: skipped (--no-latency)");
            }
        }
        let scripts = [
            ("JavaScript", &self.js_save_to_diagnostics),
            ("Python", &self.py_save_to_diagnostics),
        ];
        for (language, latency) in scripts {
            let _ = writeln!(out, "{}", script_latency_line(language, latency.as_ref()));
        }
        let _ = writeln!(out, "peak resident memory: {:.0} MiB", self.peak_rss_mib);
        out
    }
}

/// The note under the speeds table: what its `floor*` column means, and the sandbox's steps.
fn floor_note(floor: &SandboxFloor) -> String {
    format!(
        "* the least native÷wasm the sandbox's own steps allow (native side: two copies of one \
         player; of absolute figures, so it moves with the machine): the bot's instance as its \
         own games have it (made, its `botlens_new` run; dropped, every page its game wrote \
         reset), and, measured alone on this CPU, entering a turn (fuel set and read) {:.3} µs \
         · a host call {:.3} µs; a bot turn enters once and makes two host calls (view, move). \
         An instance nothing ran in, made and dropped alone: {:.2} µs",
        floor.call_us, floor.host_call_us, floor.instance_us
    )
}

/// The save → diagnostics line of a `language` bot: the figures, or why there are none.
fn script_latency_line(language: &str, latency: Option<&ScriptLatency>) -> String {
    match latency {
        Some(ScriptLatency {
            edits,
            load_ms: Some(load),
            games_ms: Some(games),
            total_ms: Some(total),
            ..
        }) => format!(
            "save → diagnostics of a {language} bot (median of {edits}): {total:.0} ms = load and \
             check {load:.0} ms + games {games:.0} ms"
        ),
        Some(ScriptLatency { skipped, .. }) => {
            let why = skipped.as_deref().unwrap_or("not measured");
            format!("save → diagnostics ({language}): skipped: {why}")
        }
        None => format!("save → diagnostics ({language}): skipped (--no-latency)"),
    }
}

/// One row of the speeds table: native and wasm games/s, their ratio, and where measured the
/// bot's instance and the least ratio the floor allows.
fn speed_row(s: &GameSpeed) -> String {
    let least = s.least_native_over_wasm.map_or("—".to_owned(), |r| format!("≥ {r:.2}×"));
    let instance = s.instance_us_per_game.map_or("—".to_owned(), |us| format!("{us:.2} µs"));
    format!(
        "{:<12} {:<40} {:>11.0}   {:<44} {:>11.0}  {:>10.2}×  {instance:>10}  {least:>9}",
        s.game, s.native, s.native_games_per_s, s.wasm, s.wasm_games_per_s, s.native_over_wasm
    )
}

/// One row of the languages table: the figures, or why there are none.
fn language_row(l: &LangSpeed) -> String {
    match (&l.skipped, l.games_per_s, l.fuel_per_turn) {
        (None, Some(per_s), Some(fuel)) => {
            let ratio = l.over_rust.map_or("—".to_owned(), |r| format!("{r:.2}×"));
            format!("{:<12} {:<60} {per_s:>11.0}  {fuel:>10.0}  {ratio:>10}", l.game, l.bot)
        }
        (skipped, _, _) => {
            let why = skipped.as_deref().unwrap_or("not measured");
            format!("{:<12} {:<60} skipped: {why}", l.game, l.bot)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(games_per_s: Option<f64>, skipped: Option<&str>) -> LangSpeed {
        LangSpeed {
            game: "battleships".into(),
            lang: "C".into(),
            bot: "starter vs random".into(),
            games_per_s,
            fuel_per_turn: games_per_s.map(|_| 1234.0),
            over_rust: games_per_s.map(|g| g / 2000.0),
            skipped: skipped.map(str::to_owned),
        }
    }

    fn speed(instance_us_per_game: Option<f64>) -> GameSpeed {
        GameSpeed {
            game: "tictactoe".into(),
            native: "random vs random".into(),
            wasm: "bot (wasm) vs random".into(),
            native_games_per_s: 480_000.0,
            wasm_games_per_s: 120_000.0,
            native_over_wasm: 4.0,
            mean_turns_per_game: 6.7,
            bot_turns_per_game: 3.4,
            instance_us_per_game,
            sandbox_floor_us_per_game: 3.6,
            least_native_over_wasm: instance_us_per_game.map(|_| 2.2),
        }
    }

    #[test]
    fn a_speed_row_shows_the_instance_and_floor_where_measured_and_a_dash_elsewhere() {
        let measured = speed_row(&speed(Some(3.514)));
        assert!(measured.ends_with("4.00×     3.51 µs    ≥ 2.20×"), "{measured}");
        let not = speed_row(&speed(None));
        assert!(not.ends_with("4.00×           —          —"), "{not}");
    }

    #[test]
    fn a_measured_language_row_shows_its_figures_and_ratio() {
        let text = language_row(&row(Some(1500.0), None));
        assert!(text.contains("1500"), "{text}");
        assert!(text.contains("1234"), "{text}");
        assert!(text.contains("0.75×"), "{text}");
        assert!(!text.contains("skipped"), "{text}");
    }

    #[test]
    fn a_save_to_diagnostics_line_shows_its_figures_or_why_it_was_skipped() {
        let measured = ScriptLatency {
            edits: 3,
            load_ms: Some(12.0),
            games_ms: Some(40.0),
            total_ms: Some(52.0),
            skipped: None,
        };
        let skipped = ScriptLatency {
            edits: 0,
            load_ms: None,
            games_ms: None,
            total_ms: None,
            skipped: Some("building botlens's JavaScript runner (once) needs clang".into()),
        };
        let lines = [Some(&measured), Some(&skipped), None]
            .map(|latency| script_latency_line("JavaScript", latency));
        assert_eq!(
            lines,
            [
                "save → diagnostics of a JavaScript bot (median of 3): 52 ms = load and check \
                 12 ms + games 40 ms",
                "save → diagnostics (JavaScript): skipped: building botlens's JavaScript runner \
                 (once) needs clang",
                "save → diagnostics (JavaScript): skipped (--no-latency)",
            ]
        );
    }

    #[test]
    fn the_floor_note_gives_each_step_of_the_sandbox() {
        let floor = SandboxFloor { instance_us: 2.184, call_us: 0.0131, host_call_us: 0.0021 };
        assert_eq!(
            floor_note(&floor),
            "* the least native÷wasm the sandbox's own steps allow (native side: two copies of \
             one player; of absolute figures, so it moves with the machine): the bot's instance \
             as its own games have it (made, its `botlens_new` run; dropped, every page its game \
             wrote reset), and, measured alone on this CPU, entering a turn (fuel set and read) \
             0.013 µs · a host call 0.002 µs; a bot turn enters once and makes two host calls \
             (view, move). An instance nothing ran in, made and dropped alone: 2.18 µs"
        );
    }

    #[test]
    fn a_skipped_language_row_says_why() {
        let text = language_row(&row(None, Some("zig is not installed")));
        assert!(text.contains("skipped: zig is not installed"), "{text}");
    }
}
