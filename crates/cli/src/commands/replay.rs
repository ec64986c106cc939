//! `botlens replay`: step through a finished game — full screen in a terminal, as text frames
//! otherwise (or with `--plain`), one position with `--at N`, or a self-contained HTML page with
//! `--html OUT.html`. The game is a stored trace, or is re-played deterministically from a bot
//! project (or module, or reference player) with `--vs NAME --seed N`, or is a stored game
//! played on from move N by another build with `--from N --with BOT`
//! (`botlens_experiments::play_on`). Glue over `botlens-replay`, which takes a trace from anywhere.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use botlens_bots::caps::{CapOverrides, LimitCaps};
use botlens_bots::target::is_module_path;
use botlens_engine::{SeatResult, Trace};
use botlens_experiments::play_on::{self, PlayedOn};
use botlens_harness::baseline;
use botlens_harness::pipeline::{self, RunOptions, Stage};
use botlens_harness::{CancelToken, Target};
use botlens_replay::{Output, ShowOptions};
use clap::Args;

use crate::shared::progress::INSTALLING;

/// Arguments of `botlens replay`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  botlens replay traces/hunter-seed4.json
  botlens replay samples/battleships-offbyone      # the worst failure of its last `botlens run`
  botlens replay samples/battleships-offbyone --vs hunter --seed 4
  botlens replay samples/battleships-offbyone --vs hunter --seed 4 --check traces/hunter-seed4.json
  botlens replay --game tictactoe perfect --vs random --seed 3 --plain
  botlens replay traces/hunter-seed4.json --from 40 --with samples/battleships-hunter
  botlens replay traces/hunter-seed4.json --from 40 --with my-bot --json --save continued.json

Nothing a trace names is built or loaded: --from plays on with the bot of --with (a reference
player's seat needs none), against a stored .wasm opponent named with --opponent.

Keys in the full-screen view: → l n next, ← h p previous, Home/End, f failure, g N Enter go to
move N, space autoplay, s speed, o the bot's own moves only, c play on from this move with
--with (or a re-played game's own bot), ? help, q quit.")]
pub struct ReplayArgs {
    /// A trace file (JSON, as `botlens run --trace-dir` writes them); or — with --vs and --seed —
    /// a bot project directory, a .wasm module or a reference player to re-play; or a bot
    /// project directory alone: the first game of the worst failure (the most games) of its
    /// last `botlens run`, re-played [default, but with --from: the bot the current directory
    /// is in, this one or one above it, as cargo finds its manifest].
    target: Option<String>,
    /// Re-play the game against this opponent (or Klotski board).
    #[arg(long, requires = "seed")]
    vs: Option<String>,
    /// Re-play the game with this seed.
    #[arg(long, requires = "vs")]
    seed: Option<u64>,
    /// The bot's seat in the re-played game: 0, or 1 for the second game of a pair
    /// (`botlens run --paired`); with --from, the seat to take over [default: the stored game's
    /// bot].
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=1))]
    seat: Option<u8>,
    /// The game, when re-playing a .wasm module or a reference player.
    #[arg(long)]
    game: Option<String>,
    /// Compare the re-played game with this stored trace and say whether they match.
    #[arg(long, value_name = "TRACE", requires = "vs")]
    check: Option<PathBuf>,
    /// Play the stored game on from the position after move N: its first N moves are made
    /// again exactly, then the bot of --with takes over its seat (starting fresh there) against
    /// the same opponent, and the whole game is shown.
    #[arg(long, value_name = "N", conflicts_with_all = ["vs", "check"])]
    from: Option<usize>,
    /// The bot that plays on, from --from or from the full-screen view's `c` key: a project
    /// directory, a bot folder or source file, a .wasm module or a reference player [default:
    /// a re-played game's own bot; the stored game's reference player]. A trace's record of
    /// where its bot came from is never built: name the bot.
    #[arg(long, value_name = "BOT")]
    with: Option<String>,
    /// With --from, when the stored game's opponent was a .wasm module: its file (a trace's
    /// record of the path is never loaded).
    #[arg(long, value_name = "FILE")]
    opponent: Option<String>,
    /// With --from: print how the game played on ended as JSON instead of showing it.
    #[arg(long, requires = "from", conflicts_with_all = ["plain", "html", "at"])]
    json: bool,
    /// With --from: also write the game played on as a trace file.
    #[arg(long, value_name = "TRACE", requires = "from")]
    save: Option<PathBuf>,
    /// Print the game as text frames even in a terminal.
    #[arg(long, conflicts_with = "html")]
    plain: bool,
    /// Print only the position after move N (0 is the start); with --html, open the page there.
    #[arg(long, value_name = "N")]
    at: Option<usize>,
    /// Write a self-contained HTML page that animates the game, instead of showing it.
    #[arg(long, value_name = "OUT.html")]
    html: Option<PathBuf>,
    /// The only directory the failing source line may be read from [default: the bot's project
    /// directory recorded in the trace if it is inside the current directory, else the current
    /// directory if it is a Cargo project; for a re-played game, the bot's own directory]. A
    /// trace's paths never reach outside it.
    #[arg(long, value_name = "DIR")]
    source_root: Option<PathBuf>,
}

/// Runs `botlens replay`.
pub fn run(args: ReplayArgs) -> anyhow::Result<ExitCode> {
    if args.seat.is_some() && args.vs.is_none() && args.from.is_none() {
        bail!("--seat goes with --vs and --seed (re-playing a game) or with --from (playing on)");
    }
    let named = match (&args.target, args.from) {
        (Some(named), _) => named.clone(),
        (None, Some(_)) => bail!("--from plays on a stored game: give its trace file"),
        (None, None) => crate::shared::bot_arg::named_or_enclosing(None)?,
    };
    let seat = args.seat.map(usize::from);
    let mut start = 0;
    // The bot's seat in a game re-played here.
    let mut replayed_seat = None;
    let (trace, source_root) = match (&args.vs, args.seed, args.from) {
        (_, _, Some(moves)) => {
            let stored = botlens_replay::load(Path::new(&named))?;
            let request = play_on::Request {
                stored: &stored,
                moves,
                seat,
                with: args.with.as_deref(),
                opponent: args.opponent.as_deref(),
            };
            let played = play_on::play_on(
                &crate::shared::sandbox()?,
                &request,
                &progress(),
                &CancelToken::new(),
            )?;
            if let Some(path) = &args.save {
                std::fs::write(path, played.trace.to_json())
                    .with_context(|| format!("cannot write {}", path.display()))?;
            }
            if args.json {
                let summary = play_on_summary(&named, moves, &stored, &played);
                println!("{}", serde_json::to_string_pretty(&summary)?);
                return Ok(ExitCode::SUCCESS);
            }
            eprintln!("botlens: {}", play_on_line(moves, &stored, &played));
            start = moves;
            let root = args.source_root.clone().or_else(|| target_dir(&played.target));
            (played.trace, root)
        }
        (Some(vs), Some(seed), None) => {
            let target = Target::parse(&named, args.game.as_deref())?;
            let bot_seat = *replayed_seat.insert(seat.unwrap_or(0));
            replayed(&args, &target, vs, seed, bot_seat)?
        }
        (None, None, None) if Path::new(&named).is_dir() => {
            let target = Target::parse(&named, args.game.as_deref())?;
            let (vs, seed, worst_seat) = worst_failure(&target, &named)?;
            let bot_seat = *replayed_seat.insert(seat.unwrap_or(worst_seat));
            replayed(&args, &target, &vs, seed, bot_seat)?
        }
        _ => (botlens_replay::load(Path::new(&named))?, args.source_root.clone()),
    };
    let output = match (&args.html, args.plain) {
        (Some(path), _) => Output::Html(path.clone()),
        (None, true) => Output::Plain,
        (None, false) => Output::Auto,
    };
    let (with, opponent) = play_on_with(&args, &named, &trace, replayed_seat);
    let seat = seat.or(replayed_seat);
    let play_on_root = args.source_root.clone();
    let play_on = move |shown: &Trace, moves: usize| -> Result<botlens_replay::PlayedOn, String> {
        let request = play_on::Request {
            stored: shown,
            moves,
            seat,
            with: with.as_deref(),
            opponent: opponent.as_deref(),
        };
        let sandbox = pipeline::sandbox().map_err(|error| error.to_string())?;
        // Quiet: the full-screen view owns the terminal while the bot builds.
        let played = play_on::play_on(&sandbox, &request, &|_| {}, &CancelToken::new())
            .map_err(|error| error.to_string())?;
        Ok(botlens_replay::PlayedOn {
            summary: play_on_line(moves, shown, &played),
            source_root: play_on_root.clone().or_else(|| target_dir(&played.target)),
            trace: played.trace,
        })
    };
    let options = ShowOptions { output, at: args.at, start, source_root };
    botlens_replay::show(trace, &options, Some(&play_on))?;
    if let Some(path) = args.html {
        writeln!(std::io::stderr(), "botlens: wrote {}", path.display())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// What `c` plays on with in `shown`: the bot and opponent module the user named (--with,
/// --opponent), else, in a game re-played here with the bot (`named`) in `replayed_seat`, that
/// bot and its opponent module as this process resolved it; never what a stored trace names.
fn play_on_with(
    args: &ReplayArgs,
    named: &str,
    shown: &Trace,
    replayed_seat: Option<usize>,
) -> (Option<String>, Option<String>) {
    let Some(seat) = replayed_seat else {
        return (args.with.clone(), args.opponent.clone());
    };
    let module = shown
        .players
        .get(1 - seat.min(1))
        .and_then(|player| player.source.clone())
        .filter(|source| is_module_path(source));
    (args.with.clone().or_else(|| Some(named.to_owned())), args.opponent.clone().or(module))
}

/// One game re-played (and checked against `--check`), with the directory its sources may be
/// read from: the game was just played from what the user named.
fn replayed(
    args: &ReplayArgs,
    target: &Target,
    opponent: &str,
    seed: u64,
    seat: usize,
) -> anyhow::Result<(Trace, Option<PathBuf>)> {
    let trace = replay_game(target, opponent, seed, seat)?;
    if let Some(stored) = &args.check {
        check_against(&trace, &botlens_replay::load(stored)?, stored)?;
    }
    Ok((trace, args.source_root.clone().or_else(|| target_dir(target))))
}

/// The first game of the worst failure (the most games) of the project's last run, said on
/// stderr: (opponent, seed, seat).
fn worst_failure(target: &Target, named: &str) -> anyhow::Result<(String, u64, usize)> {
    let pick = "pick a game with --vs NAME --seed N";
    let root = match target {
        // A bot with a manifest (a Cargo project) must load: it may be no bot at all.
        Target::Bot { lang, path, .. } if lang.manifest().is_some() => {
            lang.load(path, None).with_context(|| format!("`{named}` is not a bot project"))?;
            path.as_path()
        }
        _ => target.project_dir().with_context(|| {
            format!("`{named}` is a directory but not a bot project: give a trace file, or {pick}")
        })?,
    };
    let Some(last) = baseline::load_last_run(root)? else {
        bail!("no run of {named} is on record yet: `botlens run {named}` first, or {pick}");
    };
    let Some(worst) = last.failures.first() else {
        bail!("the last run of {named} lost no game by a bot fault: {pick}");
    };
    let base = std::env::current_dir().unwrap_or_default();
    let place = match worst.location {
        Some(_) => format!(" at {}", worst.location_text(&base)),
        None => String::new(),
    };
    let others = match last.failures.len() - 1 {
        0 => String::new(),
        n => {
            format!("; {n} other failure{} in `botlens run {named}`", if n == 1 { "" } else { "s" })
        }
    };
    eprintln!(
        "botlens: the worst failure of the last run: {kind}{place} ({count} game{s}), first on seed {seed} vs {opponent}{others}",
        kind = worst.kind,
        count = worst.count,
        s = if worst.count == 1 { "" } else { "s" },
        seed = worst.first_seed,
        opponent = worst.first_opponent,
    );
    Ok((worst.first_opponent.clone(), worst.first_seed, worst.first_seat))
}

/// The directory of a bot the user named: a project's, or the one a module is in.
fn target_dir(target: &Target) -> Option<PathBuf> {
    match target {
        Target::Module { path, .. } => path
            .parent()
            .map(|dir| if dir.as_os_str().is_empty() { Path::new(".") } else { dir })
            .map(Path::to_path_buf),
        Target::Bot { .. } => target.project_dir().map(Path::to_path_buf),
        Target::Reference { .. } => None,
    }
}

/// Plays one game again, deterministically, the bot in `seat`, and returns its trace; the
/// project's limits within the user's caps (their config file's).
fn replay_game(target: &Target, opponent: &str, seed: u64, seat: usize) -> anyhow::Result<Trace> {
    let caps = LimitCaps::for_user(&CapOverrides::default())?;
    let run = pipeline::run(
        &crate::shared::sandbox()?,
        target,
        &RunOptions { paired: seat == 1, caps, ..RunOptions::one_game(opponent, seed) },
        &progress(),
        &CancelToken::new(),
    )?;
    run.results
        .kept
        .into_iter()
        .find(|game| game.bot_seat == seat)
        .and_then(|game| game.trace)
        .context("the re-played game produced no trace")
}

/// What replaying says while it builds a bot to play a game with.
fn progress() -> impl Fn(Stage) + Sync {
    |stage| match stage {
        Stage::InstallingTarget => eprintln!("{INSTALLING}"),
        Stage::Building { tool } => eprintln!("botlens: building the bot with {tool}…"),
        Stage::SettingUp { what } => eprintln!("botlens: {what}…"),
        Stage::Loading | Stage::Playing { .. } => {}
    }
}

/// How a game played on ended, beside how the stored one did, in a line.
fn play_on_line(moves: usize, stored: &Trace, played: &PlayedOn) -> String {
    let bot = &played.trace.players[played.seat].name;
    format!(
        "played on from move {moves} with {bot} (seat {seat}): {result} after {turns} moves: {reason} (the stored game: {stored_result} after {stored_turns} moves)",
        seat = played.seat,
        result = result_word(played.result()),
        turns = played.trace.moves.len(),
        reason = played.trace.outcome.reason,
        stored_result = result_word(stored.outcome.result_for(played.seat, stored.players.len())),
        stored_turns = stored.moves.len(),
    )
}

/// The `--from … --json` summary; its fields are documented in docs/replay.md.
fn play_on_summary(
    file: &str,
    moves: usize,
    stored: &Trace,
    played: &PlayedOn,
) -> serde_json::Value {
    let ending = |trace: &Trace| {
        serde_json::json!({
            "result": result_word(trace.outcome.result_for(played.seat, trace.players.len())),
            "moves": trace.moves.len(),
            "winner": trace.outcome.winner,
            "reason": trace.outcome.reason,
            "fault": trace.outcome.fault,
        })
    };
    serde_json::json!({
        "trace": file,
        "from": moves,
        "seat": played.seat,
        "bot": played.trace.players[played.seat],
        "stored": ending(stored),
        "played_on": ending(&played.trace),
    })
}

fn result_word(result: SeatResult) -> &'static str {
    match result {
        SeatResult::Win => "won",
        SeatResult::Loss => "lost",
        SeatResult::Draw => "drawn",
    }
}

/// Says whether a re-played game matches a stored trace, byte for byte.
fn check_against(replayed: &Trace, stored: &Trace, path: &Path) -> anyhow::Result<()> {
    if replayed.to_json() == stored.to_json() {
        eprintln!("botlens: the re-played game matches {} exactly", path.display());
        return Ok(());
    }
    let first_difference =
        replayed.moves.iter().zip(&stored.moves).position(|(a, b)| a != b).map_or_else(
            || format!("the games have {} and {} moves", replayed.moves.len(), stored.moves.len()),
            |index| format!("they first differ at move {}", index + 1),
        );
    let header = if replayed.players != stored.players {
        " (the players differ: was the bot rebuilt from changed source?)"
    } else if replayed.limits != stored.limits || replayed.engine_version != stored.engine_version {
        " (the limits or the engine version differ)"
    } else {
        ""
    };
    bail!("the re-played game does not match {}: {first_difference}{header}", path.display())
}
