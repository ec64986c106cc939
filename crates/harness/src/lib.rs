//! Playing bots: everything between a built bot and a report.
//!
//! - [`pipeline`]: the one road from a target to a report: build or load (through
//!   `botlens-bots`), play, report, stage by stage, cancellable;
//! - [`suite`]: the bot plays its opponents over a range of seeds, in parallel (paired: each
//!   seed with the bot in both seats);
//! - [`profile`]: where a bot's fuel goes, by function and line, over a suite's games
//!   ([`fuel`]: the profiles merged and summed up);
//! - [`tally`]: what the games add up to, counted as they finish;
//! - [`outcomes`]: the result on each seed, a byte per seed, for comparing runs seed by seed;
//! - [`report`]: scores per opponent and failures grouped by kind and source location;
//! - [`shard`]: a suite played in shards apart and merged into the report of one run;
//! - [`waste`]: the wasted moves of a suite's games, located;
//! - [`analyze`]: every move of the bot judged by the game's oracle, at the line that chose it;
//! - [`baseline`]: a report saved to compare later runs with;
//! - [`traces`]: traces written atomically for `botlens replay`.
//!
//! Where a bot is, its settings and building it are `botlens-bots`'; the types this crate's
//! functions take from there are re-exported here. What is played over these (two bots
//! compared, where two builds part, bisecting, round robins, a stored game played on) is
//! `botlens-experiments`'.
//!
//! This crate knows nothing of the terminal or of LSP: the CLI and the language server present
//! what it returns. It reaches games only through `botlens-games`.

pub mod analyze;
pub mod baseline;
pub mod fuel;
pub mod outcomes;
pub mod pipeline;
pub mod profile;
pub mod report;
pub mod shard;
pub mod suite;
pub mod tally;
pub mod traces;
pub mod waste;

pub use botlens_bots::{BotConfig, BotProject, CancelToken, ProjectError, SeedRange, Target};
pub use pipeline::{RunError, RunOptions, Stage, SuiteRun};
pub use report::SuiteReport;
pub use suite::{Contender, KeepTraces, PlayOn, Suite, WasmBot, run_suite};
