//! Test fixtures: traces played by the real engine — clean games between any game's reference
//! players, and a tic-tac-toe bot that logs, then loses by an illegal move located in a source file
//! that exists on disk; the same game with hostile text planted in it; a Battleships game whose
//! bots drew on their boards; and a check that text is safe for a terminal.

use std::borrow::Cow;
use std::path::Path;

use botlens_engine::drawing::{self, Colour, Drawing, Shape};
use botlens_engine::runner::play_match;
use botlens_engine::text::printable_lines;
use botlens_engine::{
    CallStack, Failure, Game, MatchLimits, MatchRecord, Player, PlayerInfo, SeedRng,
    SourceLocation, StackFrame, Stream, Trace, Turn,
};
use botlens_tictactoe::{Mark, TicTacToe};
use serde_json::json;

/// The bot's source file: line 3 makes the illegal mark.
pub(crate) const BOT_SOURCE: &str =
    "fn play(turn: &mut Turn) {\n    log(\"centre again?\");\n\tturn.mark(1, 1)?; // taken!\n}\n";

/// Where the bot's illegal move is located: the `.` of `turn.mark` on line 3 (after a tab).
pub(crate) fn bot_location() -> SourceLocation {
    SourceLocation { file: "src/lib.rs".into(), line: 3, column: 6 }
}

/// The bot's call stack at its illegal move: `play` at [`bot_location`], two SDK frames
/// inside it, called from the SDK's export through the bot's `main` (line 1).
pub(crate) fn bot_stack() -> CallStack {
    let frame = |function: &str, location: SourceLocation, folded| StackFrame {
        function: function.into(),
        location: Some(location),
        folded,
        cycle: None,
    };
    let main = SourceLocation { file: "src/lib.rs".into(), line: 1, column: 1 };
    CallStack {
        frames: vec![frame("my_bot::play", bot_location(), 2), frame("my_bot::main", main, 3)],
        dropped: 0,
    }
}

/// A bot project directory: a `Cargo.toml`, and [`BOT_SOURCE`] as `src/lib.rs`.
pub(crate) fn bot_project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join("src")).expect("src dir");
    std::fs::write(dir.path().join("Cargo.toml"), "[package]\nname = \"my-bot\"\n")
        .expect("manifest");
    std::fs::write(dir.path().join("src/lib.rs"), BOT_SOURCE).expect("bot source");
    dir
}

/// What a hostile bot or trace author plants in text: a terminal title change (`ESC]0;…BEL`), a
/// screen clear (`ESC[2J`), a C1 control sequence introducer, a right-to-left override, and
/// markup that would close the HTML page's script element.
pub(crate) const HOSTILE: &str = "\u{1b}]0;owned\u{7}\u{1b}[2J\u{9b}31m\u{202e}</script><b>x";

/// [`failed_game`] with [`HOSTILE`] in the bot's name, the opponent's kind, the engine
/// version, a log line of the failing move, the failure message (on a second line too) and the
/// failure's file name (`src/<hostile>/../lib.rs`, the hostile directory made in `project`),
/// and in the bot's source line itself.
pub(crate) fn hostile_game(project: &Path) -> Trace {
    let mut trace = failed_game(project);
    trace.players[0].name = format!("my-bot{HOSTILE}");
    trace.players[1].kind = HOSTILE.into();
    trace.engine_version = format!("0.1{HOSTILE}");
    trace.moves[4].logs.push(format!("log {HOSTILE}"));
    let failure = trace.moves[4].failure.as_mut().expect("the bot's move failed");
    failure.message = format!("boom {HOSTILE}\nsecond {HOSTILE}");
    let location = failure.location.as_mut().expect("located");
    let directory = HOSTILE.replace('/', "");
    location.file = format!("src/{directory}/../lib.rs");
    std::fs::create_dir(project.join("src").join(directory)).expect("hostile directory");
    let source = BOT_SOURCE.replace("// taken!", &format!("// {HOSTILE}"));
    std::fs::write(project.join("src/lib.rs"), source).expect("hostile source");
    trace
}

/// Panics unless `text` is safe to print to a terminal: nothing in it that
/// `botlens_engine::text::printable_lines` would escape.
pub(crate) fn assert_printable(text: &str) {
    assert!(matches!(printable_lines(text), Cow::Borrowed(_)), "unprintable: {text:?}");
}

/// A clean game of `G` between its reference players `names` (by seat) on `seed`, with the
/// game's default config.
pub(crate) fn reference_trace<G: Game>(seed: u64, names: &[&str]) -> (MatchRecord<G>, Trace) {
    let mut players: Vec<Box<dyn Player<G>>> = names
        .iter()
        .enumerate()
        .map(|(seat, &name)| {
            let reference = G::reference_players()
                .iter()
                .find(|p| p.name == name)
                .unwrap_or_else(|| panic!("{} has no reference player {name}", G::NAME));
            (reference.create)(SeedRng::new(seed, Stream::Player(seat)))
        })
        .collect();
    let mut seats: Vec<&mut dyn Player<G>> =
        players.iter_mut().map(|p| &mut **p as &mut dyn Player<G>).collect();
    let record = play_match::<G>(&G::Config::default(), seed, &mut seats, &MatchLimits::default());
    let infos = names.iter().map(|&name| PlayerInfo::reference(name)).collect();
    let trace = record.to_trace(infos, json!({}));
    (record, trace)
}

/// A clean tic-tac-toe game: `random` (seat 0) against `perfect` (seat 1) on `seed`.
pub(crate) fn reference_game(seed: u64) -> (MatchRecord<TicTacToe>, Trace) {
    reference_trace(seed, &["random", "perfect"])
}

/// The first seed on which seat 0 plays X, so the bot moves first.
fn bot_first_seed() -> u64 {
    (0..).find(|&seed| TicTacToe::new(&(), seed).x_seat() == 0).expect("some seed gives seat 0 X")
}

/// A failed game: `my-bot` (seat 0, X, project in `project`) marks the centre, a corner, then
/// the centre again — an illegal move at [`bot_location`] on move 5. It logs every turn.
pub(crate) fn failed_game(project: &Path) -> Trace {
    let mut bot = Scripted::new(&[(1, 1), (0, 0), (1, 1)], true);
    let mut other = Scripted::new(&[(2, 2), (2, 0), (0, 2)], false);
    let record = play_match::<TicTacToe>(
        &(),
        bot_first_seed(),
        &mut [&mut bot, &mut other],
        &MatchLimits::default(),
    );
    let mut me = PlayerInfo::reference("my-bot");
    me.kind = "wasm".into();
    me.source = Some(project.display().to_string());
    record.to_trace(vec![me, PlayerInfo::reference("scripted")], json!({}))
}

/// Marks fixed squares in order; the bot logs its thinking and locates its illegal move.
struct Scripted {
    marks: Vec<Mark>,
    next: usize,
    bot: bool,
}

impl Scripted {
    fn new(marks: &[(i32, i32)], bot: bool) -> Self {
        Scripted { marks: marks.iter().map(|&(x, y)| Mark { x, y }).collect(), next: 0, bot }
    }
}

impl Player<TicTacToe> for Scripted {
    fn play(&mut self, turn: &mut Turn<TicTacToe>) -> Result<(), Failure> {
        let Some(&mark) = self.marks.get(self.next) else { return Ok(()) };
        self.next += 1;
        if !self.bot {
            return turn.act(mark).map(drop);
        }
        turn.log(format!("turn {}: I like {mark}", turn.number()));
        turn.log("board → looks fine");
        turn.act(mark)
            .map_err(|failure| failure.at(Some(bot_location())).with_stack(Some(bot_stack())))?;
        Ok(())
    }
}

/// Plays the actions typed in `actions` (parsed by the game, as a person's input is), one per
/// turn, then makes no move — which loses the game.
pub(crate) struct Typed<G: Game> {
    actions: std::vec::IntoIter<G::Action>,
}

impl<G: Game> Typed<G> {
    /// A player of `actions`, each in the game's human input form (`3 7` for Battleships).
    pub(crate) fn new(actions: &[&str]) -> Self {
        let parsed: Vec<G::Action> = actions
            .iter()
            .map(|text| G::parse_action(text).unwrap_or_else(|err| panic!("`{text}`: {err}")))
            .collect();
        Typed { actions: parsed.into_iter() }
    }
}

impl<G: Game> Player<G> for Typed<G> {
    fn play(&mut self, turn: &mut Turn<G>) -> Result<(), Failure> {
        match self.actions.next() {
            Some(action) => turn.act(action).map(drop),
            None => Ok(()),
        }
    }
}

/// A mark of `shape` drawn at line `line` of `src/lib.rs` (no line: not located).
fn drawn(shape: Shape, line: Option<u32>) -> drawing::Mark {
    let location = line.map(|line| SourceLocation { file: "src/lib.rs".into(), line, column: 9 });
    drawing::Mark { shape, location }
}

/// A Battleships game (seed 4, `my-bot`, a wasm bot in seat 0, against `hunter`) whose bots
/// drew during moves 29 and 30. Move 30 is seat 0's `attack(5, 8)`: it drew, on seat 1's fleet,
/// a heat map peaking at (5, 8) (none at (0, 0)), that cell in red, an arrow to it, two labels
/// — one of them [`HOSTILE`] — a cell off the board and a status line, and 3 marks were
/// dropped. Move 29 is seat 1's `attack(3, 3)`: a violet cell on seat 0's fleet and a status.
pub(crate) fn marked_game() -> Trace {
    let (_, mut trace) =
        reference_trace::<botlens_battleships::Battleships>(4, &["random", "hunter"]);
    trace.players[0] = PlayerInfo { kind: "wasm".into(), ..PlayerInfo::reference("my-bot") };
    let values = (0..100)
        .map(|cell: i32| {
            let (x, y) = (cell % 10, cell / 10);
            (cell > 0).then(|| 10.0 - ((x - 5).abs() + (y - 8).abs()) as f32 / 2.0)
        })
        .collect();
    let mut bot = Drawing::default();
    for mark in [
        drawn(Shape::Heat { width: 10, values }, Some(12)),
        drawn(Shape::Cell { x: 5, y: 8, colour: Colour::Rgb(0xe03131) }, Some(20)),
        drawn(Shape::Arrow { x: 2, y: 8, to_x: 5, to_y: 8, colour: Colour::Rgb(0x2f9e44) }, None),
        drawn(
            Shape::Label { x: 5, y: 7, text: "p=.9".into(), colour: Colour::Intensity(255) },
            Some(22),
        ),
        drawn(
            Shape::Label { x: 1, y: 2, text: format!("x{HOSTILE}"), colour: Colour::Rgb(0xffffff) },
            Some(23),
        ),
        drawn(Shape::Cell { x: 12, y: 3, colour: Colour::Rgb(0x000000) }, Some(24)),
        drawn(Shape::Status { text: "hunting: 3 ships left".into() }, Some(30)),
    ] {
        bot.push(mark);
    }
    bot.dropped = 3;
    let mut hunter = Drawing::default();
    hunter.push(drawn(Shape::Cell { x: 3, y: 3, colour: Colour::Rgb(0x7c3aed) }, None));
    hunter.push(drawn(Shape::Status { text: "seat 1 aims at (3, 3)".into() }, None));
    assert_eq!((trace.moves[28].seat, trace.moves[29].seat), (1, 0), "the fixture's seats");
    trace.moves[28].drawing = hunter;
    trace.moves[29].drawing = bot;
    trace
}
