//! `botlens solve`: the optimal solution of a Klotski layout, as numbered moves or one JSON
//! object. Also home of [`load_layout`], which `play klotski` shares: a layout argument is a
//! bundled name or a file.
//!
//! Exit codes: 0 solved; 1 no solution (or too large to search); 2 unknown layout or malformed
//! file (or one that is not a regular file, or larger than [`crate::shared::layout::LAYOUT_LIMIT`]).

use std::process::ExitCode;

use botlens_engine::text::printable;
use botlens_klotski::{Count, Layout, Solution, SolveError, solve};
use clap::{Args, ValueEnum};
use serde::Serialize;

use crate::shared::layout::load_layout;
use crate::shared::output::emit;

/// Arguments of `botlens solve`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  botlens solve 横刀立马                      81 steps, move by move
  botlens solve hengdaolima --count cells    116 one-cell slides
  botlens solve my-board.txt --json          a layout file (the format: docs/layouts.md)

Exit status: 0 solved, 1 no solution, 2 a bad layout.")]
pub struct SolveArgs {
    /// A bundled layout (横刀立马 or hengdaolima, 指挥若定 or zhihuiruoding, 将拥曹营 or
    /// jiangyongcaoying, 齐头并进 or qitoubingjin, 兵分三路 or bingfensanlu) or a layout file
    /// (docs/layouts.md). Bundled names win; write `./name` for a file with such a name.
    layout: std::path::PathBuf,
    /// How to count the solution's length.
    #[arg(long, value_enum, default_value_t = CountArg::Steps)]
    count: CountArg,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// The `--count` values.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum CountArg {
    /// One step is one piece moved any number of slides in a row (横刀立马: 81).
    Steps,
    /// Every one-cell slide counts (横刀立马: 116).
    Cells,
    /// One piece slid any distance in one straight line counts once (横刀立马: 90).
    Lines,
}

impl From<CountArg> for Count {
    fn from(arg: CountArg) -> Count {
        match arg {
            CountArg::Steps => Count::Steps,
            CountArg::Cells => Count::Cells,
            CountArg::Lines => Count::Lines,
        }
    }
}

/// The output of `botlens solve --json`: one object on one line.
///
/// ```json
/// {"layout": "横刀立马", "count": "steps", "solvable": true, "length": 81, "cell_moves": 118,
///  "moves": [{"piece": "1", "name": "兵", "path": ["right"]}, …]}
/// ```
#[derive(Debug, Serialize)]
struct Report {
    /// The layout's `name:`, or the argument as given when it has none.
    layout: String,
    /// How `length` counts: `steps`, `cells` or `lines`.
    count: &'static str,
    /// Whether a solution was found.
    solvable: bool,
    /// The optimal length under `count`; `null` when not solvable.
    length: Option<usize>,
    /// One-cell slides along this solution; `null` when not solvable.
    cell_moves: Option<usize>,
    /// The moves in order; empty when not solvable.
    moves: Vec<ReportMove>,
    /// Why there is no solution; omitted when solvable.
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// One move in [`Report::moves`].
#[derive(Debug, Serialize)]
struct ReportMove {
    /// The piece's code (`cc`).
    piece: String,
    /// Its display name (`曹操`).
    name: String,
    /// Its one-cell slides in order: `up`, `down`, `left`, `right` (one under `--count cells`).
    path: Vec<&'static str>,
}

/// Runs `botlens solve`.
pub fn run(args: SolveArgs) -> anyhow::Result<ExitCode> {
    let layout = load_layout(&args.layout)?;
    // A layout's own name is printable already; a file name may not be.
    let name = layout
        .name()
        .map_or_else(|| printable(&args.layout.display().to_string()).into_owned(), String::from);
    let count = Count::from(args.count);
    let result = solve(&layout, count);
    let output = if args.json {
        format!("{}\n", serde_json::to_string(&report(&layout, name, count, &result))?)
    } else {
        match &result {
            Ok(solution) => text(&layout, &name, solution),
            Err(err) => format!("{name}: {err}\n"),
        }
    };
    emit(&output)?;
    Ok(if result.is_ok() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn report(
    layout: &Layout,
    name: String,
    count: Count,
    result: &Result<Solution, SolveError>,
) -> Report {
    let (moves, error) = match result {
        Ok(solution) => {
            let moves = solution
                .moves
                .iter()
                .map(|m| {
                    let piece = &layout.pieces()[m.piece];
                    ReportMove {
                        piece: piece.code.clone(),
                        name: piece.name.clone(),
                        path: m.path.iter().map(|d| d.name()).collect(),
                    }
                })
                .collect();
            (moves, None)
        }
        Err(err) => (Vec::new(), Some(err.to_string())),
    };
    let solution = result.as_ref().ok();
    Report {
        layout: name,
        count: count.name(),
        solvable: solution.is_some(),
        length: solution.map(Solution::len),
        cell_moves: solution.map(Solution::cell_moves),
        moves,
        error,
    }
}

/// `3 steps`, `1 cell move`.
fn plural(n: usize, unit: &str) -> String {
    if n == 1 { format!("1 {unit}") } else { format!("{n} {unit}s") }
}

/// `横刀立马: 81 steps (a step moves one piece …)`, then `12. 曹操 down`, … and a closing
/// total.
fn text(layout: &Layout, name: &str, solution: &Solution) -> String {
    let count = solution.count;
    let length = plural(solution.len(), count.unit());
    let mut out = format!("{name}: {length} ({})\n", count.definition());
    let width = solution.len().to_string().len();
    for (number, m) in solution.moves.iter().enumerate() {
        let dirs: Vec<&str> = m.path.iter().map(|d| d.name()).collect();
        out.push_str(&format!(
            "{:>width$}. {} {}\n",
            number + 1,
            layout.short_label(m.piece),
            dirs.join(", ")
        ));
    }
    if count == Count::Cells {
        out.push_str(&format!("Solved in {length}.\n"));
    } else {
        out.push_str(&format!(
            "Solved in {length}, {}.\n",
            plural(solution.cell_moves(), "cell move")
        ));
    }
    out
}
