//! Human play as a pure state machine: a line typed in, the text to show out. `botlens play
//! klotski` only moves lines between this and the terminal, so everything a player can type is
//! unit-tested here.
//!
//! Commands: a piece code selects the piece (its display name works too); `w`/`a`/`s`/`d` or
//! `up`/`left`/`down`/`right` slide the selected piece one cell; `<code> <dir>` does both;
//! `undo`, `hint`, `show`, `reset`, `help`, `quit`. Anything else gets a short message and
//! changes nothing.

use crate::game::{parse_dir, plural};
use crate::layout::Labels;
use crate::solver::{Count, SolveError, solve_from};
use crate::{Klotski, Layout, bundled, par};

/// One person playing one layout.
#[derive(Debug, Clone)]
pub struct PlaySession {
    start: Klotski,
    game: Klotski,
    /// Each earlier state, with the move that left it (for `undo`).
    history: Vec<(Klotski, String)>,
    selected: Option<usize>,
    labels: Labels,
    par: Option<u32>,
    finished: bool,
}

/// The text of `help`.
const HELP: &str = "\
Commands:
  <code>        select a piece by its code (or its name)
  w a s d       slide the selected piece up, left, down, right (also: up, left, down, right)
  <code> <dir>  select and slide at once, e.g. `cc s` or `1 right`
  undo          take back the last slide
  hint          select the piece of the next optimal step and show where it goes
  show          draw the board again
  reset         start again from the beginning
  help          this list
  quit          leave (so does the end of input)";

impl PlaySession {
    /// A session at the start of `layout`, drawing pieces by name or by code.
    pub fn new(layout: Layout, labels: Labels) -> PlaySession {
        let par = par(&layout);
        let start = Klotski::start(layout);
        PlaySession {
            game: start.clone(),
            start,
            history: Vec::new(),
            selected: None,
            labels,
            par,
            finished: false,
        }
    }

    /// What to show first: the layout's name, the goal, par, how to play, and the board.
    pub fn welcome(&self) -> String {
        let board = self.game.board();
        let name = board.name().unwrap_or("Klotski");
        let title = match self.labels {
            Labels::Names => name,
            Labels::Codes if name.is_ascii() => name,
            Labels::Codes => bundled::alias_of(name).unwrap_or("Klotski"),
        };
        let goal = board.message_label(board.goal_index(), self.labels);
        let par = match self.par {
            Some(steps) => format!("par {}", plural(steps, "step")),
            None => "no known solution".to_string(),
        };
        format!(
            "{title}: bring {goal} to x={}, y={} ({par}).\n\
             Pieces: {}.\n\
             Type a piece code to select it, then w/a/s/d to slide it; or both at once, e.g. \
             `{} s`. Type help for more.\n{}",
            board.goal().x,
            board.goal().y,
            self.piece_list(),
            board.goal_piece().code,
            self.board_text()
        )
    }

    /// The prompt to show before reading a line: `> `, or `cc> ` with a piece selected.
    pub fn prompt(&self) -> String {
        match self.selected {
            Some(index) => format!("{}> ", self.game.board().pieces()[index].code),
            None => "> ".to_string(),
        }
    }

    /// Whether the player asked to quit.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// The game as it stands.
    pub fn game(&self) -> &Klotski {
        &self.game
    }

    /// Handles one line of input and returns what to show (empty for an empty line).
    pub fn handle(&mut self, input: &str) -> String {
        let line = input.trim().to_lowercase();
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [] => String::new(),
            ["help" | "h" | "?"] => HELP.to_string(),
            ["show"] => self.board_text(),
            ["reset"] => {
                self.game = self.start.clone();
                self.history.clear();
                self.selected = None;
                format!("Back to the start.\n{}", self.board_text())
            }
            ["quit" | "q" | "exit"] => {
                self.finished = true;
                "Bye.".to_string()
            }
            ["undo" | "u"] => match self.history.pop() {
                Some((before, what)) => {
                    self.game = before;
                    format!("Took back {what}.\n{}", self.board_text())
                }
                None => "Nothing to undo.".to_string(),
            },
            ["hint"] => self.hint(),
            [word] => match (parse_dir(word), self.find(word)) {
                (Some(dir), _) => match self.selected {
                    Some(index) => self.slide(index, dir),
                    None => format!("Select a piece first: type its code ({}).", self.codes()),
                },
                (None, Some(index)) => {
                    self.selected = Some(index);
                    format!("Selected {}: slide it with w/a/s/d.", self.label(index))
                }
                (None, None) => self.unknown(&line),
            },
            [piece, dir] => match (self.find(piece), parse_dir(dir)) {
                (Some(index), Some(dir)) => {
                    self.selected = Some(index);
                    self.slide(index, dir)
                }
                (None, Some(_)) => {
                    format!("No piece `{}`: the pieces are {}.", clip(piece), self.codes())
                }
                (Some(_), None) => format!(
                    "`{}` is not a direction: use w/a/s/d or up/left/down/right.",
                    clip(dir)
                ),
                (None, None) => self.unknown(&line),
            },
            _ => self.unknown(&line),
        }
    }

    fn unknown(&self, line: &str) -> String {
        format!(
            "Unknown command `{}`: type a piece code ({}), w/a/s/d, or help.",
            clip(line),
            self.codes()
        )
    }

    /// The piece with this code, or else the one piece with this display name (any case;
    /// `word` is already lower case).
    fn find(&self, word: &str) -> Option<usize> {
        let board = self.game.board();
        board.find(word).or_else(|| {
            let mut named =
                board.pieces().iter().enumerate().filter(|(_, p)| p.name.to_lowercase() == word);
            match (named.next(), named.next()) {
                (Some((index, _)), None) => Some(index),
                _ => None,
            }
        })
    }

    fn slide(&mut self, index: usize, dir: botlens_protocol::klotski::Dir) -> String {
        if self.game.is_solved() {
            return "Solved already: type undo, reset or quit.".to_string();
        }
        let before = self.game.clone();
        match self.game.slide(index, dir) {
            Ok(slid) => {
                let what = format!("{} {}", self.label(index), dir.name());
                self.history.push((before, what));
                let mut text = self.board_text();
                if slid.solved {
                    text.push_str(&format!("\nSolved! {}.", self.game.solved_message(self.labels)));
                    match self.par {
                        Some(par) if slid.steps <= par => text.push_str(" That is par: optimal!"),
                        Some(par) => text.push_str(&format!(
                            " Par is {}: type reset to try for it.",
                            plural(par, "step")
                        )),
                        None => {}
                    }
                }
                text
            }
            Err(blocked) => self.game.board().explain_blocked(index, dir, &blocked, self.labels),
        }
    }

    fn hint(&mut self) -> String {
        if self.game.is_solved() {
            return "Solved already: type reset to play again.".to_string();
        }
        let board = self.game.board();
        // Sliding the piece moved last again continues its step: the hint may finish it.
        match solve_from(board, Count::Steps, self.game.last_moved()) {
            Ok(solution) => {
                let Some(first) = solution.moves.first() else {
                    return "Solved already: type reset to play again.".to_string();
                };
                let dirs: Vec<&str> = first.path.iter().map(|d| d.name()).collect();
                let lead = if solution.continues { "Hint: keep going with" } else { "Hint:" };
                let text = format!(
                    "{lead} {} {} ({} to go from here). It is selected.",
                    self.label(first.piece),
                    dirs.join(", "),
                    plural(solution.len() as u32, "step")
                );
                self.selected = Some(first.piece);
                text
            }
            Err(SolveError::Unsolvable { .. }) => {
                "No solution from here: try undo or reset.".to_string()
            }
            Err(SolveError::TooLarge { .. }) => {
                "This board is too large to search for a hint.".to_string()
            }
        }
    }

    fn label(&self, index: usize) -> String {
        self.game.board().message_label(index, self.labels)
    }

    fn codes(&self) -> String {
        let codes: Vec<&str> = self.game.board().pieces().iter().map(|p| p.code.as_str()).collect();
        codes.join(", ")
    }

    /// `cc 曹操, zf 张飞, …` (codes only with [`Labels::Codes`]).
    fn piece_list(&self) -> String {
        let pieces = self.game.board().pieces().iter().map(|p| match self.labels {
            Labels::Names => format!("{} {}", p.code, p.name),
            Labels::Codes => p.code.clone(),
        });
        pieces.collect::<Vec<_>>().join(", ")
    }

    fn board_text(&self) -> String {
        self.game.render_with(self.labels).trim_end().to_string()
    }
}

/// At most 24 characters of something the user typed, for echoing it back, printable (an
/// arrow key arrives as `ESC[A`; it is echoed as `\u{1b}[A`, not sent back to the terminal).
fn clip(text: &str) -> String {
    botlens_engine::text::clipped(text, 24)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classic(labels: Labels) -> PlaySession {
        PlaySession::new(Layout::default(), labels)
    }

    #[test]
    fn the_welcome_names_the_layout_goal_par_and_pieces() {
        let text = classic(Labels::Names).welcome();
        assert!(
            text.starts_with("横刀立马: bring 曹操 (cc) to x=1, y=3 (par 81 steps).\n"),
            "{text}"
        );
        assert!(text.contains("Pieces: cc 曹操, zf 张飞, zy 赵云"), "{text}");
        assert!(text.contains("|张飞|  曹操   |黄忠|"), "{text}");
    }

    #[test]
    fn ascii_sessions_print_no_cjk_at_all() {
        let mut session = classic(Labels::Codes);
        let mut all = session.welcome();
        for input in
            ["cc", "s", "1 d", "gy s", "hint", "undo", "undo", "show", "help", "zz", "reset"]
        {
            all.push_str(&session.handle(input));
        }
        assert!(all.is_ascii(), "{all}");
        assert!(all.starts_with("hengdaolima: bring cc to x=1, y=3 (par 81 steps).\n"), "{all}");
    }

    #[test]
    fn select_then_keys_moves_the_selected_piece_and_counts() {
        let mut session = classic(Labels::Names);
        assert_eq!(session.handle("1"), "Selected 兵 (1): slide it with w/a/s/d.");
        assert_eq!(session.prompt(), "1> ");
        let out = session.handle("d");
        assert!(out.ends_with("moves 1, steps 1; goal: 曹操 (cc) to x=1, y=3"), "{out}");
        session.handle("d");
        let out = session.handle("3 s");
        assert!(out.ends_with("moves 3, steps 2; goal: 曹操 (cc) to x=1, y=3"), "{out}");
        assert_eq!(session.prompt(), "3> ");
    }

    #[test]
    fn every_piece_is_selectable_by_code_and_by_name() {
        let mut session = classic(Labels::Names);
        for code in ["cc", "zf", "zy", "hz", "mc", "gy", "1", "2", "3", "4"] {
            assert!(session.handle(code).starts_with("Selected "), "{code}");
            assert_eq!(session.prompt(), format!("{code}> "));
        }
        assert_eq!(session.handle("曹操"), "Selected 曹操 (cc): slide it with w/a/s/d.");
        assert_eq!(session.handle("CC"), "Selected 曹操 (cc): slide it with w/a/s/d.");
    }

    #[test]
    fn bad_input_gets_a_short_message_and_changes_nothing() {
        let mut session = classic(Labels::Names);
        let before = session.game().clone();
        assert_eq!(
            session.handle("s"),
            "Select a piece first: type its code (cc, zf, zy, hz, mc, gy, 1, 2, 3, 4)."
        );
        assert_eq!(session.handle("cc s"), "曹操 (cc) cannot move down: blocked by 关羽 (gy)");
        assert_eq!(
            session.handle("xx s"),
            "No piece `xx`: the pieces are cc, zf, zy, hz, mc, gy, 1, 2, 3, 4."
        );
        assert_eq!(
            session.handle("cc sideways"),
            "`sideways` is not a direction: use w/a/s/d or up/left/down/right."
        );
        assert!(
            session
                .handle("fly me to the moon")
                .starts_with("Unknown command `fly me to the moon`")
        );
        assert!(session.handle("garbage").starts_with("Unknown command `garbage`"));
        assert!(session.handle(&"x".repeat(100)).contains("…`"));
        assert_eq!(session.handle("   "), "");
        assert_eq!(session.game(), &before);
        assert!(!session.is_finished());
    }

    #[test]
    fn typed_escape_sequences_are_echoed_escaped() {
        let mut session = classic(Labels::Names);
        // Input is taken in lower case, hence the `a`.
        assert_eq!(
            session.handle("\u{1b}[A"),
            "Unknown command `\\u{1b}[a`: type a piece code (cc, zf, zy, hz, mc, gy, 1, 2, 3, \
             4), w/a/s/d, or help."
        );
        let title = session.handle("\u{1b}]0;owned\u{7} s");
        assert!(title.starts_with("No piece `\\u{1b}]0;owned\\u{7}`"), "{title}");
        let direction = session.handle("cc \u{1b}[2J");
        assert!(direction.starts_with("`\\u{1b}[2j` is not a direction"), "{direction}");
    }

    #[test]
    fn undo_takes_back_moves_and_counters() {
        let mut session = classic(Labels::Names);
        assert_eq!(session.handle("undo"), "Nothing to undo.");
        session.handle("1 d");
        session.handle("1 d");
        let out = session.handle("undo");
        assert!(out.starts_with("Took back 兵 (1) right.\n"), "{out}");
        assert!(out.ends_with("moves 1, steps 1; goal: 曹操 (cc) to x=1, y=3"), "{out}");
        session.handle("u");
        assert_eq!(session.game(), &Klotski::default());
    }

    #[test]
    fn reset_starts_over() {
        let mut session = classic(Labels::Names);
        session.handle("1 d");
        assert!(session.handle("reset").starts_with("Back to the start.\n"));
        assert_eq!(session.game(), &Klotski::default());
        assert_eq!(session.prompt(), "> ");
        assert_eq!(session.handle("undo"), "Nothing to undo.");
    }

    /// What a hint says: the piece's label, its directions and the steps to go.
    fn parse_hint(hint: &str) -> (String, Vec<String>, u32) {
        let body = hint
            .strip_prefix("Hint: keep going with ")
            .or_else(|| hint.strip_prefix("Hint: "))
            .unwrap_or_else(|| panic!("not a hint: {hint}"));
        let (move_text, rest) = body.split_once(" (").unwrap_or_else(|| panic!("{hint}"));
        let (label, dirs) = move_text.split_once(' ').unwrap_or_else(|| panic!("{hint}"));
        let to_go = rest.split(' ').next().and_then(|n| n.parse().ok());
        let dirs = dirs.split(", ").map(str::to_owned).collect();
        (label.to_owned(), dirs, to_go.unwrap_or_else(|| panic!("{hint}")))
    }

    #[test]
    fn following_hints_a_step_at_a_time_solves_the_classic_at_par() {
        let mut session = classic(Labels::Codes);
        let mut last = String::new();
        for _ in 0..200 {
            if session.game().is_solved() {
                break;
            }
            let (_, dirs, _) = parse_hint(&session.handle("hint"));
            for dir in dirs {
                last = session.handle(&dir);
            }
        }
        assert!(last.contains("\nSolved! cc reached the exit in 81 steps ("), "{last}");
        assert!(last.ends_with(". That is par: optimal!"), "{last}");
        assert_eq!(session.game().steps(), 81);
        assert_eq!(session.handle("hint"), "Solved already: type reset to play again.");
        assert_eq!(session.handle("cc s"), "Solved already: type undo, reset or quit.");
    }

    #[test]
    fn following_only_hints_one_slide_at_a_time_solves_every_bundled_board_in_par() {
        for layout in crate::bundled::all() {
            let par = par(&layout).expect("bundled boards are solvable");
            let mut session = PlaySession::new(layout.clone(), Labels::Codes);
            let mut slides = 0;
            while !session.game().is_solved() {
                let hint = session.handle("hint");
                let (_, dirs, to_go) = parse_hint(&hint);
                let steps = session.game().steps();
                assert_eq!(steps + to_go, par, "{:?}: {steps} taken, {hint}", layout.name());
                assert!(!hint.starts_with("Hint: keep going") || steps > 0, "{hint}");
                session.handle(&dirs[0]);
                slides += 1;
                assert!(slides < 1000, "{:?}: hints go round in circles", layout.name());
            }
            assert_eq!(session.game().steps(), par, "{:?}", layout.name());
        }
    }

    #[test]
    fn quit_finishes_the_session() {
        let mut session = classic(Labels::Names);
        assert_eq!(session.handle("quit"), "Bye.");
        assert!(session.is_finished());
    }

    #[test]
    fn an_unsolvable_board_says_so_in_the_welcome_and_the_hint() {
        let text = "name: stuck\nboard:\n  G.B\nlegend:\n  G g goal\n  B b block\ngoal: g 2 0\n";
        let mut session = PlaySession::new(Layout::parse(text).unwrap(), Labels::Codes);
        assert!(session.welcome().starts_with("stuck: bring g to x=2, y=0 (no known solution).\n"));
        assert_eq!(session.handle("hint"), "No solution from here: try undo or reset.");
    }

    #[test]
    fn random_input_never_panics() {
        use botlens_engine::{SeedRng, Stream};
        let words = [
            "cc",
            "zf",
            "1",
            "4",
            "w",
            "a",
            "s",
            "d",
            "up",
            "undo",
            "reset",
            "show",
            "help",
            "曹操",
            "xyz",
            "",
            "  ",
            "\u{0}",
            "cc s s",
            "slide(cc, down)",
        ];
        let mut session = classic(Labels::Names);
        let mut rng = SeedRng::new(11, Stream::Player(0));
        for _ in 0..2000 {
            let line =
                format!("{} {}", words[rng.index(words.len())], words[rng.index(words.len())]);
            session.handle(&line);
            session.handle(words[rng.index(words.len())]);
        }
        assert!(!session.is_finished());
    }
}
