//! The command line: one module per subcommand, each with its clap arguments and a `run`.

mod analyze;
mod bench;
mod bisect;
mod compare;
mod debug;
mod diff;
mod generate;
mod lsp;
mod merge;
mod new;
mod play;
mod profile;
mod replay;
mod run;
mod solve;
mod tournament;
mod watch;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Build, play, debug and replay game bots.
///
/// botlens plays bots in the real game engine against reference opponents on fixed seeds and
/// reports wins, losses and the exact reason for every lost game.
#[derive(Debug, Parser)]
#[command(name = "botlens", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Create a bot project for a game: a Cargo package with a simple bot that runs as is.
    New(new::NewArgs),
    /// Play a suite of games and print wins, losses and failures.
    Run(run::RunArgs),
    /// Is A stronger than B? Paired games, Elo with its interval, LOS, and an SPRT verdict.
    Compare(compare::CompareArgs),
    /// Merge the parts of a run played in shards (`run --shard`) into its report.
    Merge(merge::MergeArgs),
    /// Rank several bots: a paired round robin, Bradley–Terry ratings and the crosstable.
    Tournament(tournament::TournamentArgs),
    /// Where do two builds' games part? The first different move, the board and the logs there.
    Diff(diff::DiffArgs),
    /// Which commit made the bot weaker? A binary search of git revisions judged by SPRTs.
    Bisect(bisect::BisectArgs),
    /// Rebuild and replay the suite on every save, and say what changed since the last run.
    Watch(watch::WatchArgs),
    /// Why did the bot lose? Every move judged by the game's oracle, at the line that chose it.
    Analyze(analyze::AnalyzeArgs),
    /// Where does the bot's fuel go? By function and by line, deterministic; speedscope too.
    Profile(profile::ProfileArgs),
    /// Step through a finished game: the board, the moves, the bot's log lines and the failure.
    Replay(replay::ReplayArgs),
    /// Debug one game in gdb or lldb, stopped as the bot begins its failing turn.
    Debug(debug::DebugArgs),
    /// Serve editors: diagnostics, code lenses and hovers from the suite, refreshed on save.
    Lsp(lsp::LspArgs),
    /// Measure speed: games per second native vs wasm, compile times, suites, save → report.
    Bench(bench::BenchArgs),
    /// Play a game yourself in the terminal.
    Play(play::PlayArgs),
    /// Solve a Klotski layout optimally and print the solution.
    Solve(solve::SolveArgs),
    /// Generate a random solvable Klotski layout from a seed.
    Generate(generate::GenerateArgs),
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::New(args) => new::run(args),
        Command::Run(args) => run::run(args),
        Command::Compare(args) => compare::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Tournament(args) => tournament::run(args),
        Command::Diff(args) => diff::run(args),
        Command::Bisect(args) => bisect::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Play(args) => play::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Profile(args) => profile::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Debug(args) => debug::run(args),
        Command::Watch(args) => watch::run(args),
        Command::Lsp(args) => lsp::run(args),
        Command::Bench(args) => bench::run(args),
    }
}
