//! The viewer's state machine: which frame is shown, autoplay, the go-to prompt and the help
//! overlay. Keys in, state out — no terminal, no clock: the terminal loop (`tui`) turns key
//! presses into [`Key`]s and calls [`Viewer::tick`] when [`Viewer::tick_interval`] has passed.
//!
//! The key bindings ([`BINDINGS`]) and the key help ([`help_lines`]) are tables here, shared by
//! the terminal viewer and the HTML page (`html`), so both answer the same keys and list them
//! alike.

use std::time::Duration;

use crate::Replay;

/// The most digits the go-to prompt takes (enough for any real game).
const MAX_GOTO_DIGITS: usize = 6;

/// How many log lines PgUp / PgDn scroll.
const LOG_PAGE: usize = 5;

/// What `f` says in a game without a failure (the HTML page says it too).
pub(crate) const NO_FAILURE: &str = "this game has no failure";

/// What `m` says in a game where no bot drew anything.
pub(crate) const NO_MARKS: &str = "no bot drew on its board in this game (botlens.draw)";

/// What `o` says when it turns stepping through the bot's own moves on, and off.
const OWN_ONLY: &str = "→ ← step through the bot's own moves (o: every move)";
const EVERY_MOVE: &str = "→ ← step through every move";

/// A key press, as the viewer understands it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// → arrow.
    Right,
    /// ← arrow.
    Left,
    /// Home.
    Home,
    /// End.
    End,
    /// Enter / Return.
    Enter,
    /// Escape.
    Esc,
    /// Backspace.
    Backspace,
    /// Page Up.
    PageUp,
    /// Page Down.
    PageDown,
    /// A printable character (space included).
    Char(char),
}

impl Key {
    /// How the key help writes it: `→`, `Home`, `space`, `PgUp`, `g`.
    pub(crate) fn label(self) -> String {
        match self {
            Key::Right => "→".into(),
            Key::Left => "←".into(),
            Key::Home => "Home".into(),
            Key::End => "End".into(),
            Key::Enter => "Enter".into(),
            Key::Esc => "Esc".into(),
            Key::Backspace => "Backspace".into(),
            Key::PageUp => "PgUp".into(),
            Key::PageDown => "PgDn".into(),
            Key::Char(' ') => "space".into(),
            Key::Char(c) => c.to_string(),
        }
    }

    /// The browser's name for it (`KeyboardEvent.key`): `ArrowRight`, `Home`, ` `, `g`.
    pub(crate) fn browser_name(self) -> String {
        match self {
            Key::Right => "ArrowRight".into(),
            Key::Left => "ArrowLeft".into(),
            Key::Home => "Home".into(),
            Key::End => "End".into(),
            Key::Enter => "Enter".into(),
            Key::Esc => "Escape".into(),
            Key::Backspace => "Backspace".into(),
            Key::PageUp => "PageUp".into(),
            Key::PageDown => "PageDown".into(),
            Key::Char(c) => c.to_string(),
        }
    }
}

/// What a key asks a viewer to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Command {
    /// Show the next move.
    Next,
    /// Show the previous move.
    Previous,
    /// Show the start.
    First,
    /// Show the last move.
    Last,
    /// Show the failing move.
    Failure,
    /// Ask for a move number and show that move.
    GoTo,
    /// Start or stop autoplay (in step speed: one move).
    PlayPause,
    /// The next autoplay speed.
    Speed,
    /// Scroll the move's log up.
    LogUp,
    /// Scroll the move's log down.
    LogDown,
    /// Open the key help.
    Help,
    /// Play the game on from this move with the bot's build (the terminal viewer only).
    PlayOn,
    /// Step through the bot's own moves only, or through every move again.
    OwnMoves,
    /// Show or hide what the bots drew on their boards.
    Marks,
    /// Leave the viewer.
    Quit,
}

impl Command {
    /// The command `key` is bound to, if any (see [`BINDINGS`]).
    pub(crate) fn of(key: Key) -> Option<Command> {
        BINDINGS.iter().find(|&&(bound, _)| bound == key).map(|&(_, command)| command)
    }

    /// Its name on the HTML page, whose script maps the name to what it does; `None` for the
    /// commands the page has no use for (it shows a turn's whole log, and there is nothing to
    /// quit).
    pub(crate) fn page_name(self) -> Option<&'static str> {
        Some(match self {
            Command::Next => "next",
            Command::Previous => "previous",
            Command::First => "first",
            Command::Last => "last",
            Command::Failure => "failure",
            Command::GoTo => "goto",
            Command::PlayPause => "play",
            Command::Speed => "speed",
            Command::Help => "help",
            Command::Marks => "marks",
            Command::LogUp
            | Command::LogDown
            | Command::PlayOn
            | Command::OwnMoves
            | Command::Quit => return None,
        })
    }
}

/// Every key binding, in the order the key help lists a command's keys.
pub(crate) const BINDINGS: [(Key, Command); 19] = [
    (Key::Right, Command::Next),
    (Key::Char('l'), Command::Next),
    (Key::Char('n'), Command::Next),
    (Key::Left, Command::Previous),
    (Key::Char('h'), Command::Previous),
    (Key::Char('p'), Command::Previous),
    (Key::Home, Command::First),
    (Key::End, Command::Last),
    (Key::Char('f'), Command::Failure),
    (Key::Char('g'), Command::GoTo),
    (Key::Char(' '), Command::PlayPause),
    (Key::Char('s'), Command::Speed),
    (Key::Char('m'), Command::Marks),
    (Key::PageUp, Command::LogUp),
    (Key::PageDown, Command::LogDown),
    (Key::Char('?'), Command::Help),
    (Key::Char('o'), Command::OwnMoves),
    (Key::Char('c'), Command::PlayOn),
    (Key::Char('q'), Command::Quit),
];

/// The key help, one line per entry: the commands it covers and what they do.
const HELP: [(&[Command], &str); 13] = [
    (&[Command::Next], "next move"),
    (&[Command::Previous], "previous move"),
    (&[Command::First, Command::Last], "start / last move"),
    (&[Command::Failure], "jump to the failure"),
    (&[Command::GoTo], "go to a move: its number, then Enter (Esc cancels)"),
    (&[Command::PlayPause], "play / pause (step speed: one move)"),
    (&[Command::Speed], "speed: fast 10 ms, slow 100 ms, slower 500 ms, step"),
    (&[Command::Marks], "show / hide what the bots drew on their boards"),
    (&[Command::LogUp, Command::LogDown], "scroll the move's log"),
    (&[Command::Help], "this help (any key closes it)"),
    (&[Command::OwnMoves], "step through the bot's own moves only (again: every move)"),
    (&[Command::PlayOn], "play on from this move with the bot's build"),
    (&[Command::Quit], "quit"),
];

/// What the key help says after the keys.
pub(crate) const HELP_NOTE: &str = "move 0 is the start; move n is the position after it";

/// The key help of a viewer that has the commands `offered` says it has: each line's keys
/// (`→  l  n`, `Home / End`) and what they do.
pub(crate) fn help_lines(offered: impl Fn(Command) -> bool) -> Vec<(String, &'static str)> {
    HELP.iter()
        .filter_map(|&(commands, what)| {
            let keys: Vec<String> = commands
                .iter()
                .filter(|&&command| offered(command))
                .map(|&command| {
                    let keys = BINDINGS.iter().filter(|&&(_, bound)| bound == command);
                    keys.map(|&(key, _)| key.label()).collect::<Vec<_>>().join("  ")
                })
                .collect();
            (!keys.is_empty()).then(|| (keys.join(" / "), what))
        })
        .collect()
}

/// Autoplay speed, as in the old arena's replay page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Speed {
    /// 10 ms per move.
    Fast,
    /// 100 ms per move (the default).
    #[default]
    Slow,
    /// 500 ms per move.
    Slower,
    /// No autoplay: space steps one move.
    Step,
}

impl Speed {
    /// Every speed, in the order `s` cycles through them.
    pub const ALL: [Speed; 4] = [Speed::Fast, Speed::Slow, Speed::Slower, Speed::Step];

    /// Time per move while playing; `None` for [`Speed::Step`].
    pub fn interval(self) -> Option<Duration> {
        match self {
            Speed::Fast => Some(Duration::from_millis(10)),
            Speed::Slow => Some(Duration::from_millis(100)),
            Speed::Slower => Some(Duration::from_millis(500)),
            Speed::Step => None,
        }
    }

    /// The next speed in the cycle fast → slow → slower → step → fast.
    pub fn next(self) -> Speed {
        let position = Speed::ALL.iter().position(|&speed| speed == self).unwrap_or(0);
        Speed::ALL[(position + 1) % Speed::ALL.len()]
    }

    /// For the status bar: `slow (100 ms)`, `step`.
    pub fn label(self) -> &'static str {
        match self {
            Speed::Fast => "fast (10 ms)",
            Speed::Slow => "slow (100 ms)",
            Speed::Slower => "slower (500 ms)",
            Speed::Step => "step",
        }
    }
}

/// What the terminal loop should do after a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Control {
    /// Keep going: redraw and wait for the next key or tick.
    Continue,
    /// Leave the viewer.
    Quit,
    /// Play the game on from this move (the `c` key): the terminal loop asks its caller to,
    /// then shows the game played on.
    PlayOn(usize),
}

/// The viewer's state over a replay with a given number of frames.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Viewer {
    last: usize,
    failure: Option<usize>,
    log_lines: Vec<usize>,
    /// Per frame, whether the bot made the move that led to it.
    own: Vec<bool>,
    /// Whether stepping goes from one of the bot's moves to the next.
    own_only: bool,
    current: usize,
    log_scroll: usize,
    playing: bool,
    speed: Speed,
    goto: Option<String>,
    help: bool,
    message: Option<String>,
    /// Whether any bot drew in the game.
    drawn: bool,
    /// Whether what the bots drew shows over the board.
    marks: bool,
}

impl Viewer {
    /// A paused viewer at frame `start` (clamped to the last frame) of `replay`.
    pub fn new(replay: &Replay, start: usize) -> Viewer {
        let log_lines = replay.frames.iter().map(|frame| frame.logs.len()).collect();
        let mut viewer = Viewer::with_frames(log_lines, replay.failure_frame(), start);
        viewer.drawn = replay.has_marks();
        viewer.own = std::iter::once(false)
            .chain(replay.moves.iter().map(|entry| entry.seat == replay.bot_seat))
            .collect();
        viewer
    }

    /// A paused viewer over frames with `log_lines[i]` log lines each, with the failure at frame
    /// `failure`.
    fn with_frames(log_lines: Vec<usize>, failure: Option<usize>, start: usize) -> Viewer {
        let last = log_lines.len().saturating_sub(1);
        Viewer {
            last,
            failure,
            own: vec![false; log_lines.len()],
            own_only: false,
            log_lines,
            log_scroll: 0,
            current: start.min(last),
            playing: false,
            speed: Speed::default(),
            goto: None,
            help: false,
            message: None,
            drawn: false,
            marks: false,
        }
    }

    /// The frame shown.
    pub fn current(&self) -> usize {
        self.current
    }

    /// Whether autoplay is running.
    pub fn playing(&self) -> bool {
        self.playing
    }

    /// The autoplay speed.
    pub fn speed(&self) -> Speed {
        self.speed
    }

    /// The first log line shown for the current frame (PgUp / PgDn scroll; a new frame starts
    /// at its first line).
    pub fn log_scroll(&self) -> usize {
        self.log_scroll
    }

    /// The digits typed after `g`, while the go-to prompt is open.
    pub fn goto_prompt(&self) -> Option<&str> {
        self.goto.as_deref()
    }

    /// Whether what the bots drew shows over the board (`m`).
    pub fn marks_shown(&self) -> bool {
        self.marks
    }

    /// Whether the help overlay is shown.
    pub fn help_shown(&self) -> bool {
        self.help
    }

    /// A one-off message for the status bar (`no move 40: the game has 9 moves`).
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// Shows `message` in the status bar until the next key.
    pub fn say(&mut self, message: impl Into<String>) {
        self.message = Some(message.into());
    }

    /// How long until the next [`Viewer::tick`], while autoplay runs.
    pub fn tick_interval(&self) -> Option<Duration> {
        if self.playing { self.speed.interval() } else { None }
    }

    /// Autoplay: advances one frame, stopping at the last.
    pub fn tick(&mut self) {
        if self.playing {
            self.step_to(self.next_frame());
        }
    }

    /// Handles one key press.
    ///
    /// → `l` `n` next; ← `h` `p` previous; Home/End first/last; `f` the failure; `g` digits
    /// Enter go to move N (Esc or Backspace past the start cancels); space play/pause (in step
    /// speed: one move); `s` next speed; `m` shows or hides the marks; PgUp/PgDn scroll the log; `?` help (any key closes it);
    /// `c` asks to play on from this move; `q` quits from anywhere.
    pub fn handle(&mut self, key: Key) -> Control {
        self.message = None;
        let command = Command::of(key);
        let quit = command == Some(Command::Quit);
        if self.help && !quit {
            self.help = false;
            return Control::Continue;
        }
        if self.goto.is_some() && !quit {
            self.prompt_key(key);
            return Control::Continue;
        }
        let Some(command) = command else { return Control::Continue };
        match command {
            Command::Next => self.step_to(self.next_frame()),
            Command::Previous => self.step_to(self.previous_frame()),
            Command::First => self.step_to(0),
            Command::Last => self.step_to(self.last),
            Command::Failure => match self.failure {
                Some(frame) => self.step_to(frame),
                None => self.message = Some(NO_FAILURE.into()),
            },
            Command::GoTo => self.goto = Some(String::new()),
            Command::PlayPause => self.toggle_play(),
            Command::Speed => {
                self.speed = self.speed.next();
                self.playing &= self.speed != Speed::Step;
            }
            Command::Help => self.help = true,
            Command::LogUp => self.log_scroll = self.log_scroll.saturating_sub(LOG_PAGE),
            Command::LogDown => {
                let lines = self.log_lines.get(self.current).copied().unwrap_or(0);
                self.log_scroll = (self.log_scroll + LOG_PAGE).min(lines.saturating_sub(1));
            }
            Command::OwnMoves => {
                self.own_only = !self.own_only;
                self.message = Some(if self.own_only { OWN_ONLY } else { EVERY_MOVE }.into());
            }
            Command::Marks if self.drawn => self.marks = !self.marks,
            Command::Marks => self.message = Some(NO_MARKS.into()),
            Command::PlayOn => return Control::PlayOn(self.current),
            Command::Quit => return Control::Quit,
        }
        Control::Continue
    }

    /// A key while the go-to prompt is open.
    fn prompt_key(&mut self, key: Key) {
        let Some(digits) = &mut self.goto else { return };
        match key {
            Key::Char(digit @ '0'..='9') if digits.len() < MAX_GOTO_DIGITS => digits.push(digit),
            Key::Backspace if !digits.is_empty() => {
                digits.pop();
            }
            Key::Enter => {
                let target = digits.parse::<usize>().ok();
                self.goto = None;
                match target {
                    Some(frame) if frame <= self.last => self.step_to(frame),
                    Some(frame) => {
                        self.message = Some(format!(
                            "no move {frame}: the game has {} moves (0 is the start)",
                            self.last
                        ));
                    }
                    None => {}
                }
            }
            Key::Esc | Key::Backspace => self.goto = None,
            _ => {}
        }
    }

    /// Space: start or stop autoplay; at the end, play again from the start; in step speed,
    /// one move.
    fn toggle_play(&mut self) {
        if self.speed == Speed::Step {
            self.playing = false;
            self.step_to(self.next_frame());
        } else if self.playing {
            self.playing = false;
        } else {
            if self.current == self.last {
                self.current = 0;
            }
            self.playing = self.current < self.last;
        }
    }

    /// The frame → steps to: the next one, or with [`Command::OwnMoves`] on, the next the bot
    /// moved to (else the last).
    fn next_frame(&self) -> usize {
        let after = self.current + 1;
        if !self.own_only {
            return after;
        }
        (after..=self.last).find(|&frame| self.own[frame]).unwrap_or(self.last)
    }

    /// The frame ← steps to: the one before, or the bot's move before (else the start).
    fn previous_frame(&self) -> usize {
        let before = self.current.saturating_sub(1);
        if !self.own_only {
            return before;
        }
        (1..=before).rev().find(|&frame| self.own[frame]).unwrap_or(0)
    }

    /// Whether → and ← step through the bot's own moves only.
    pub fn own_moves_only(&self) -> bool {
        self.own_only
    }

    /// Shows `frame` (clamped to the last); reaching the last frame stops autoplay.
    fn step_to(&mut self, frame: usize) {
        let frame = frame.min(self.last);
        if frame != self.current {
            self.log_scroll = 0;
        }
        self.current = frame;
        if self.current == self.last {
            self.playing = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A viewer over a 9-move game whose 7th move failed, after pressing `keys`.
    fn after(keys: &[Key]) -> Viewer {
        let mut viewer = Viewer::with_frames(vec![0; 10], Some(7), 0);
        for &key in keys {
            assert_eq!(viewer.handle(key), Control::Continue, "{key:?} should not quit");
        }
        viewer
    }

    fn chars(text: &str) -> Vec<Key> {
        text.chars().map(Key::Char).collect()
    }

    #[test]
    fn next_and_previous_keys_step_and_stop_at_the_ends() {
        assert_eq!(after(&[Key::Right, Key::Char('l'), Key::Char('n')]).current(), 3);
        assert_eq!(after(&[Key::End, Key::Left, Key::Char('h'), Key::Char('p')]).current(), 6);
        assert_eq!(after(&[Key::Left, Key::Char('h')]).current(), 0);
        assert_eq!(after(&[Key::End, Key::Right]).current(), 9);
        assert_eq!(after(&[Key::End, Key::Home]).current(), 0);
    }

    #[test]
    fn f_jumps_to_the_failure_or_says_there_is_none() {
        assert_eq!(after(&[Key::Char('f')]).current(), 7);
        let mut clean = Viewer::with_frames(vec![0; 10], None, 4);
        clean.handle(Key::Char('f'));
        assert_eq!((clean.current(), clean.message()), (4, Some("this game has no failure")));
        clean.handle(Key::Right);
        assert_eq!(clean.message(), None, "a message lasts one key");
    }

    #[test]
    fn g_digits_enter_goes_to_a_move() {
        let mut keys = chars("g5");
        assert_eq!(after(&keys).goto_prompt(), Some("5"));
        keys.push(Key::Enter);
        let viewer = after(&keys);
        assert_eq!((viewer.current(), viewer.goto_prompt()), (5, None));
        assert_eq!(after(&[chars("g12"), vec![Key::Backspace, Key::Enter]].concat()).current(), 1);
        assert_eq!(after(&[chars("g0"), vec![Key::Enter]].concat()).current(), 0);
    }

    #[test]
    fn the_go_to_prompt_ignores_other_keys_and_cancels_cleanly() {
        let viewer = after(&[chars("g4lx?"), vec![Key::Right]].concat());
        assert_eq!(
            (viewer.current(), viewer.goto_prompt(), viewer.help_shown()),
            (0, Some("4"), false)
        );
        assert_eq!(after(&[chars("g4"), vec![Key::Esc, Key::Enter]].concat()).goto_prompt(), None);
        assert_eq!(after(&[chars("g4"), vec![Key::Esc, Key::Enter]].concat()).current(), 0);
        let emptied = after(&[chars("g"), vec![Key::Backspace]].concat());
        assert_eq!(emptied.goto_prompt(), None, "backspace on an empty prompt closes it");
        assert_eq!(after(&[chars("g"), vec![Key::Enter]].concat()).current(), 0);
        assert_eq!(after(&chars("g12345678")).goto_prompt(), Some("123456"));
    }

    #[test]
    fn going_past_the_last_move_stays_and_says_why() {
        let viewer = after(&[chars("lg40"), vec![Key::Enter]].concat());
        assert_eq!(viewer.current(), 1);
        assert_eq!(viewer.message(), Some("no move 40: the game has 9 moves (0 is the start)"));
    }

    #[test]
    fn space_autoplays_at_the_speed_and_stops_at_the_end() {
        let mut viewer = after(&chars(" "));
        assert!(viewer.playing());
        assert_eq!(viewer.tick_interval(), Some(Duration::from_millis(100)));
        for _ in 0..20 {
            viewer.tick();
        }
        assert_eq!(viewer.current(), 9);
        assert!(!viewer.playing());
        assert_eq!(viewer.tick_interval(), None);
        viewer.handle(Key::Char(' '));
        assert_eq!((viewer.current(), viewer.playing()), (0, true), "space at the end replays");
        viewer.tick();
        viewer.handle(Key::Char(' '));
        assert_eq!((viewer.current(), viewer.playing()), (1, false), "space pauses");
        viewer.tick();
        assert_eq!(viewer.current(), 1, "no tick moves a paused viewer");
    }

    #[test]
    fn s_cycles_the_old_arena_speeds_and_step_speed_steps_on_space() {
        let intervals: Vec<_> =
            (0..5).map(|presses| after(&chars(&"s".repeat(presses))).speed().interval()).collect();
        let ms = |n| Some(Duration::from_millis(n));
        assert_eq!(intervals, [ms(100), ms(500), None, ms(10), ms(100)]);
        let stepping = after(&chars("ss  "));
        assert_eq!(stepping.speed(), Speed::Step);
        assert_eq!((stepping.current(), stepping.playing()), (2, false));
        let stopped = after(&chars(" ss"));
        assert_eq!((stopped.playing(), stopped.tick_interval()), (false, None), "step stops play");
    }

    #[test]
    fn help_opens_on_question_mark_and_any_key_closes_it_without_acting() {
        assert!(after(&chars("?")).help_shown());
        let closed = after(&[chars("?"), vec![Key::Right]].concat());
        assert_eq!((closed.help_shown(), closed.current()), (false, 0));
    }

    #[test]
    fn q_quits_from_anywhere() {
        for before in [vec![], chars("?"), chars("g1")] {
            let mut viewer = after(&before);
            assert_eq!(viewer.handle(Key::Char('q')), Control::Quit, "after {before:?}");
        }
    }

    #[test]
    fn page_keys_scroll_the_log_within_its_lines_and_a_new_frame_starts_at_the_top() {
        let mut viewer = Viewer::with_frames(vec![0, 12, 3], None, 1);
        let mut scrolls = Vec::new();
        for key in [Key::PageDown, Key::PageDown, Key::PageDown, Key::PageUp] {
            viewer.handle(key);
            scrolls.push(viewer.log_scroll());
        }
        assert_eq!(scrolls, [5, 10, 11, 6]);
        viewer.handle(Key::Right);
        assert_eq!((viewer.current(), viewer.log_scroll()), (2, 0));
        viewer.handle(Key::Right);
        assert_eq!(viewer.log_scroll(), 0, "staying on the last frame keeps the scroll");
        viewer.handle(Key::PageDown);
        assert_eq!(viewer.log_scroll(), 2);
        viewer.handle(Key::Right);
        assert_eq!(viewer.log_scroll(), 2, "staying on the last frame keeps the scroll");
        viewer.handle(Key::Left);
        viewer.handle(Key::Left);
        viewer.handle(Key::PageDown);
        assert_eq!(viewer.log_scroll(), 0, "a frame without logs does not scroll");
    }

    #[test]
    fn every_key_is_bound_once_and_every_command_has_a_line_of_help() {
        for (at, (key, _)) in BINDINGS.iter().enumerate() {
            assert!(BINDINGS[..at].iter().all(|(other, _)| other != key), "{key:?} bound twice");
        }
        for (key, command) in BINDINGS {
            assert_eq!(Command::of(key), Some(command));
            assert!(HELP.iter().any(|(commands, _)| commands.contains(&command)), "{command:?}");
        }
        assert_eq!(Command::of(Key::Char('x')), None);
        let help = help_lines(|_| true);
        assert_eq!(help.len(), HELP.len());
        assert_eq!(help[0], ("→  l  n".to_owned(), "next move"));
        assert_eq!(help[2], ("Home / End".to_owned(), "start / last move"));
        assert_eq!(help[5], ("space".to_owned(), "play / pause (step speed: one move)"));
        assert_eq!(help[8], ("PgUp / PgDn".to_owned(), "scroll the move's log"));
    }

    #[test]
    fn m_shows_and_hides_the_marks_of_a_game_where_a_bot_drew_else_says_none_were() {
        let mut drawn = Viewer { drawn: true, ..after(&[]) };
        assert!(!drawn.marks_shown(), "hidden at first");
        drawn.handle(Key::Char('m'));
        assert!(drawn.marks_shown());
        drawn.handle(Key::Right);
        assert!(drawn.marks_shown(), "stepping keeps them");
        drawn.handle(Key::Char('m'));
        assert!(!drawn.marks_shown());
        let undrawn = after(&[Key::Char('m')]);
        assert!(!undrawn.marks_shown());
        assert_eq!(undrawn.message(), Some(NO_MARKS));
    }

    #[test]
    fn the_help_of_a_viewer_with_fewer_commands_lists_only_theirs() {
        let page = help_lines(|command| command.page_name().is_some());
        let keys: Vec<&str> = page.iter().map(|(keys, _)| keys.as_str()).collect();
        assert_eq!(keys, ["→  l  n", "←  h  p", "Home / End", "f", "g", "space", "s", "m", "?"]);
        let first_only = help_lines(|command| command == Command::First);
        assert_eq!(first_only, [("Home".to_owned(), "start / last move")]);
    }

    #[test]
    fn keys_have_the_browsers_names() {
        let names: Vec<String> =
            [Key::Right, Key::Left, Key::Home, Key::End, Key::Esc, Key::Char(' '), Key::Char('?')]
                .map(Key::browser_name)
                .into();
        assert_eq!(names, ["ArrowRight", "ArrowLeft", "Home", "End", "Escape", " ", "?"]);
    }

    #[test]
    fn c_asks_to_play_on_from_the_move_shown_and_a_message_stays_until_the_next_key() {
        let mut viewer = after(&[Key::Right, Key::Right]);
        assert_eq!(viewer.handle(Key::Char('c')), Control::PlayOn(2));
        viewer.say("played on from move 2");
        assert_eq!(viewer.message(), Some("played on from move 2"));
        viewer.handle(Key::Right);
        assert_eq!((viewer.message(), viewer.current()), (None, 3));
        let mut prompting = after(&[Key::Char('g')]);
        assert_eq!(prompting.handle(Key::Char('c')), Control::Continue, "not while typing a move");
    }

    #[test]
    fn o_makes_the_arrows_step_through_the_bots_own_moves() {
        // Moves 1..=9; the bot made moves 2, 3 and 7.
        let mut viewer = Viewer::with_frames(vec![0; 10], Some(7), 0);
        viewer.own = (0..10).map(|frame| [2, 3, 7].contains(&frame)).collect();
        viewer.handle(Key::Char('o'));
        assert!(viewer.own_moves_only());
        let steps: Vec<usize> = (0..4)
            .map(|_| {
                viewer.handle(Key::Right);
                viewer.current()
            })
            .collect();
        assert_eq!(steps, [2, 3, 7, 9], "then the last frame");
        viewer.handle(Key::Left);
        viewer.handle(Key::Left);
        assert_eq!(viewer.current(), 3);
        viewer.handle(Key::Char('o'));
        viewer.handle(Key::Right);
        assert_eq!(viewer.current(), 4, "every move again");
    }

    #[test]
    fn the_start_frame_is_clamped_to_the_game() {
        assert_eq!(Viewer::with_frames(vec![0; 10], None, 50).current(), 9);
    }
}
