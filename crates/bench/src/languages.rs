//! The bots in other languages than Rust: games per second and fuel per turn of the JavaScript,
//! Python, C, Zig and AssemblyScript bots against `random`, and the save → diagnostics loop of a
//! JavaScript bot. Each is built and loaded by the harness's own pipeline, as `botlens run`
//! and the language server do; a language whose toolchain is missing is a skipped row.

use std::path::{Path, PathBuf};

use botlens_bots::toolchain::Lang;
use botlens_games::GameKind;
use botlens_harness::pipeline::{self, RunOptions};
use botlens_harness::{CancelToken, Contender, KeepTraces, Target, run_suite};
use botlens_sandbox::Sandbox;

use crate::report::{LangSpeed, ScriptLatency};
use crate::shared::{ROUNDS, copy_changed, median, ms, one_core_suite, timed_edits};

/// A Battlescripts-style random JavaScript Battleships bot (a random square not fired at yet).
const RANDOM_JS: &str = include_str!("random_bot.js");

/// The same bot in Python.
const RANDOM_PY: &str = include_str!("random_bot.py");

/// The old arena's new-bot template, its one slip fixed: what most arena authors started from.
const ARENA_TEMPLATE_JS: &str = include_str!("arena_template.js");

/// A Battleships bot in a runner's language, kept as source here: its name in the scratch
/// folder, what the table calls it, its language's name, its file's name, its source, and how
/// a line comment starts in it.
struct ListedBot {
    name: &'static str,
    title: &'static str,
    lang: &'static str,
    file: &'static str,
    source: &'static str,
    comment: &'static str,
}

/// The random bots, then the arena's template.
const LISTED_BOTS: [ListedBot; 3] = [
    ListedBot {
        name: "random-js",
        title: "random bot (JavaScript, Battlescripts-style)",
        lang: "js",
        file: "bot.js",
        source: RANDOM_JS,
        comment: "//",
    },
    ListedBot {
        name: "random-python",
        title: "random bot (Python, Battlescripts-style)",
        lang: "python",
        file: "bot.py",
        source: RANDOM_PY,
        comment: "#",
    },
    ListedBot {
        name: "arena-template-js",
        title: "the arena's new-bot template (JavaScript)",
        lang: "js",
        file: "bot.js",
        source: ARENA_TEMPLATE_JS,
        comment: "//",
    },
];

/// The bot named `name` in [`LISTED_BOTS`].
fn listed_bot(name: &str) -> anyhow::Result<&'static ListedBot> {
    LISTED_BOTS
        .iter()
        .find(|bot| bot.name == name)
        .ok_or_else(|| anyhow::anyhow!("no script bot named {name}"))
}

/// Where a measured bot comes from.
#[derive(Debug, Clone, Copy)]
enum Source {
    /// The bot of [`LISTED_BOTS`] of that name.
    Listed(&'static str),
    /// The starter bot `botlens new <game> --lang <lang>` writes, in the language of that name
    /// ([`Lang`]'s table).
    Starter(&'static str),
}

/// The bots measured, in the table's order.
const BOTS: [(GameKind, Source); 10] = [
    (GameKind::Battleships, Source::Listed("random-js")),
    (GameKind::Battleships, Source::Listed("arena-template-js")),
    (GameKind::TicTacToe, Source::Starter("js")),
    (GameKind::Battleships, Source::Listed("random-python")),
    (GameKind::TicTacToe, Source::Starter("python")),
    (GameKind::Battleships, Source::Starter("c")),
    (GameKind::TicTacToe, Source::Starter("c")),
    (GameKind::Battleships, Source::Starter("zig")),
    (GameKind::Battleships, Source::Starter("assemblyscript")),
    (GameKind::TicTacToe, Source::Starter("assemblyscript")),
];

/// The opponent of every row.
const OPPONENT: &str = "random";

impl Source {
    /// The bot's language, from the table of languages.
    fn lang(self) -> anyhow::Result<Lang> {
        let lang = match self {
            Source::Listed(name) => listed_bot(name)?.lang,
            Source::Starter(lang) => lang,
        };
        Ok(lang.parse::<Lang>()?)
    }

    fn label(self, game: GameKind) -> String {
        match self {
            Source::Listed(name) => listed_bot(name).map_or(name, |bot| bot.title).to_owned(),
            Source::Starter(lang) => format!("`botlens new {game} --lang {lang}`"),
        }
    }

    /// Makes the bot's folder under `scratch` (files rewritten only where they changed, so a
    /// build from an earlier run is reused) and returns it.
    fn folder(self, game: GameKind, scratch: &Path) -> anyhow::Result<PathBuf> {
        let name = match self {
            Source::Listed(name) => format!("{name}-{game}"),
            Source::Starter(lang) => format!("starter-{lang}-{game}"),
        };
        let dir = scratch.join(name);
        let staging = tempfile::tempdir()?;
        let fresh = staging.path().join("bot");
        match self {
            Source::Listed(name) => {
                let ListedBot { file, source, .. } = listed_bot(name)?;
                std::fs::create_dir_all(&fresh)?;
                std::fs::write(fresh.join("botlens.toml"), format!("game = \"{game}\"\n"))?;
                std::fs::write(fresh.join(file), source)?;
            }
            Source::Starter(lang) => {
                lang.parse::<Lang>()?.scaffold(game, &fresh, None)?;
            }
        }
        copy_changed(&fresh, &dir)?;
        Ok(dir)
    }
}

/// Measures every row; `rust` gives the Rust starter's games/s for a game, when measured.
pub fn speeds(
    sandbox: &Sandbox,
    scratch: &Path,
    games: u64,
    rust: &dyn Fn(GameKind) -> Option<f64>,
    say: &mut dyn FnMut(&str),
) -> Vec<LangSpeed> {
    BOTS.iter()
        .map(|&(game, source)| {
            let label = source.label(game);
            say(&format!("building and playing {label}…"));
            let mut row = LangSpeed {
                game: game.name().to_owned(),
                lang: source.lang().map_or_else(|error| error.to_string(), |lang| lang.to_string()),
                bot: format!("{label} vs {OPPONENT}"),
                games_per_s: None,
                fuel_per_turn: None,
                over_rust: None,
                skipped: None,
            };
            match measure(sandbox, scratch, game, source, games) {
                Ok((per_s, fuel)) => {
                    row.games_per_s = Some(per_s);
                    row.fuel_per_turn = Some(fuel);
                    row.over_rust = rust(game).map(|rust| per_s / rust);
                }
                Err(error) => row.skipped = Some(first_line(&format!("{error:#}"))),
            }
            row
        })
        .collect()
}

/// The first line of an error, for a skipped row.
fn first_line(text: &str) -> String {
    text.lines().find(|l| !l.trim().is_empty()).unwrap_or("failed").trim().to_owned()
}

/// Games per second (best of [`ROUNDS`]) and fuel per bot turn of one bot against `random`.
fn measure(
    sandbox: &Sandbox,
    scratch: &Path,
    game: GameKind,
    source: Source,
    games: u64,
) -> anyhow::Result<(f64, f64)> {
    let dir = source.folder(game, scratch)?;
    let prepared = pipeline::prepare(
        sandbox,
        &Target::of_dir(&dir),
        &RunOptions::default(),
        &|_| {},
        &CancelToken::new(),
    )?;
    let bot = prepared.suite.bot;
    let per_round = games.div_ceil(ROUNDS);
    let suite = one_core_suite(game, bot.clone(), OPPONENT, per_round);
    let mut best = 0f64;
    for _ in 0..ROUNDS {
        let results = run_suite(&suite, &|_, _| {}, &CancelToken::new())?;
        if let Some(fault) = results.kept.iter().find_map(|g| g.fault.as_ref()) {
            anyhow::bail!("lost a game by a fault: {}", fault.failure);
        }
        best = best.max(per_round as f64 / results.duration.as_secs_f64());
    }
    Ok((best, fuel_per_turn(game, bot, per_round.min(20))?))
}

/// Mean fuel of the bot's turns in `games` games against `random`, from their traces.
fn fuel_per_turn(game: GameKind, bot: Contender, games: u64) -> anyhow::Result<f64> {
    let mut suite = one_core_suite(game, bot, OPPONENT, games);
    suite.keep_traces = KeepTraces::All;
    let results = run_suite(&suite, &|_, _| {}, &CancelToken::new())?;
    let (mut fuel, mut turns) = (0u64, 0u64);
    for kept in &results.kept {
        let trace = kept.trace.as_ref().ok_or_else(|| anyhow::anyhow!("a trace was kept"))?;
        for m in trace.moves.iter().filter(|m| m.seat == kept.bot_seat) {
            fuel += m.cost.fuel.unwrap_or(0);
            turns += 1;
        }
    }
    Ok(fuel as f64 / turns.max(1) as f64)
}

/// [`save_to_diagnostics`], or why it could not be measured (the language's runner cannot be
/// built here: a missing toolchain skips the figure, as it skips a language row).
pub fn save_to_diagnostics_or_skipped(
    sandbox: &Sandbox,
    scratch: &Path,
    lang: &'static str,
) -> ScriptLatency {
    save_to_diagnostics(sandbox, scratch, lang).unwrap_or_else(|error| ScriptLatency {
        edits: 0,
        load_ms: None,
        games_ms: None,
        total_ms: None,
        skipped: Some(first_line(&format!("{error:#}"))),
    })
}

/// Edits the random bot in `lang` (`js` or `python`, [`LISTED_BOTS`]) three times and times what the
/// language server runs on save for each: the runner found built, the module loaded (from the
/// sandbox's cache) and checked for syntax errors, and the bot's suite (its `botlens.toml`'s, on
/// every core) played.
fn save_to_diagnostics(
    sandbox: &Sandbox,
    scratch: &Path,
    lang: &'static str,
) -> anyhow::Result<ScriptLatency> {
    let name = format!("random-{lang}");
    let bot = listed_bot(&name)?;
    let dir = Source::Listed(bot.name).folder(GameKind::Battleships, scratch)?;
    let samples = timed_edits(sandbox, &Target::of_dir(&dir), &dir.join(bot.file), bot.comment)?;
    Ok(ScriptLatency {
        edits: samples.len(),
        load_ms: Some(median(samples.iter().map(|(t, _)| ms(t.build + t.load)).collect())),
        games_ms: Some(median(samples.iter().map(|(t, _)| ms(t.games)).collect())),
        total_ms: Some(median(samples.iter().map(|(_, total)| ms(*total)).collect())),
        skipped: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_measured_language_is_in_the_table() {
        for (_, source) in BOTS {
            assert!(source.lang().is_ok(), "{source:?}");
        }
    }

    #[test]
    fn a_skipped_row_says_the_first_line_of_its_error() {
        assert_eq!(first_line("\n  zig not found  \nmore"), "zig not found");
        assert_eq!(first_line(""), "failed");
    }

    #[test]
    fn the_random_bot_folder_is_rewritten_only_where_it_changed() {
        let scratch = tempfile::tempdir().unwrap();
        let dir =
            Source::Listed("random-js").folder(GameKind::Battleships, scratch.path()).unwrap();
        let bot = dir.join("bot.js");
        assert_eq!(std::fs::read_to_string(&bot).unwrap(), RANDOM_JS);
        assert!(std::fs::read_to_string(dir.join("botlens.toml")).unwrap().contains("battleships"));
        std::fs::write(&bot, "edited").unwrap();
        Source::Listed("random-js").folder(GameKind::Battleships, scratch.path()).unwrap();
        assert_eq!(std::fs::read_to_string(&bot).unwrap(), RANDOM_JS);
    }
}
