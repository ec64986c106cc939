//! Experiments on bots, played over the harness's one road (`botlens_harness::pipeline`):
//!
//! - [`compare`]: two bots on the same seeds, head to head or through the same opponents, with
//!   Elo, LOS and the SPRT (a side may be a bot at a git revision, `botlens_bots::revision`);
//! - [`diff`]: where two builds' games part, on one seed or over many;
//! - [`bisect`]: the first git revision that made the bot weaker, judged by SPRTs;
//! - [`tournament`]: a paired round robin of several bots, Bradley–Terry ratings and the
//!   crosstable;
//! - [`play_on`]: a stored game played on from a position by another build.
//!
//! Like the harness, it returns data and knows nothing of the terminal: the CLI presents it.
//! Nothing below it (the harness, the language server, watch) depends on it.

pub mod bisect;
pub mod compare;
pub mod diff;
pub mod play_on;
pub mod slurm;
pub mod tournament;
