//! What the user is told on stderr while commands build and play: the words for installing
//! the wasm target, a spinner and a bar through a suite's stages, and the events of games
//! between bots.

use std::io::IsTerminal;

use botlens_engine::text::printable;
use botlens_experiments::compare::Event;
use botlens_harness::pipeline::Stage;
use indicatif::{ProgressBar, ProgressStyle};

/// What a user is told before rustup installs the wasm target.
pub const INSTALLING: &str =
    "botlens: installing the wasm32-wasip1 target with `rustup target add wasm32-wasip1` (once)…";

/// Progress on stderr when it is a terminal and the output is for people.
pub struct StageProgress {
    bar: ProgressBar,
}

impl StageProgress {
    fn new(json: bool) -> Self {
        if json || !std::io::stderr().is_terminal() {
            return StageProgress { bar: ProgressBar::hidden() };
        }
        let bar = ProgressBar::new_spinner();
        bar.enable_steady_tick(std::time::Duration::from_millis(100));
        StageProgress { bar }
    }

    fn show(&self, stage: Stage) {
        match stage {
            Stage::InstallingTarget => self.bar.suspend(|| eprintln!("{INSTALLING}")),
            Stage::Building { tool } => {
                self.bar.set_message(format!("building the bot with {tool}…"))
            }
            Stage::SettingUp { what } => self.bar.set_message(format!("{what}…")),
            Stage::Loading => self.bar.set_message("loading the module…"),
            Stage::Playing { done, total } => {
                if self.bar.length() != Some(total as u64) {
                    self.bar.set_length(total as u64);
                    self.bar.set_style(
                        ProgressStyle::with_template(
                            "{spinner} playing {pos}/{len} games {wide_bar} {eta}",
                        )
                        .expect("the template is valid"),
                    );
                }
                self.bar.set_position(done as u64);
            }
        }
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }

    /// Runs `work` with a progress display on stderr (none for `--json`), cleared when it ends.
    pub fn around<T>(json: bool, work: impl FnOnce(&(dyn Fn(Stage) + Sync)) -> T) -> T {
        let progress = StageProgress::new(json);
        let done = work(&|stage| progress.show(stage));
        progress.finish();
        done
    }
}

/// Tells the user what is happening, on stderr: builds, and with an SPRT every batch.
pub fn show(event: Event<'_>) {
    match event {
        Event::Preparing { stage: Stage::InstallingTarget, .. } => eprintln!("{INSTALLING}"),
        Event::Preparing { side, stage: Stage::Building { tool } } => {
            eprintln!("botlens: building {} with {tool}…", printable(side));
        }
        Event::Preparing { .. } => {}
        Event::Batch { games, elo, sprt: Some(sprt) } => {
            eprintln!(
                "botlens: {games} games: LLR {:.2} ({:.2}, {:.2}), {elo}",
                sprt.llr, sprt.lower_bound, sprt.upper_bound
            );
        }
        Event::Batch { sprt: None, .. } => {}
    }
}
