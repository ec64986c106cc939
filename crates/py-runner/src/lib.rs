//! The Python runner of botlens: RustPython compiled to a WebAssembly bot module that plays a bot
//! written as a Python class (`class Bot:` with `def play(self, turn):`).
//!
//! The interpreter starts in [`botlens_prepare`] (docs/abi.md): RustPython with its standard
//! library frozen in, the modules a bot plausibly imports already imported, and the prelude
//! (`src/prelude.py`, the module `botlens`). The host calls it once per loaded runner and starts
//! every game from the memory it leaves, so a game pays only for its bot: `botlens_new` compiles
//! and runs the bot's source and makes `Bot()`, `botlens_play` calls `play(turn)`.
//!
//! The bot's source is not part of this module: the host attaches it when it loads the runner
//! and the runner copies it in with `botlens.source` when a game starts, so one compiled runner
//! serves every Python bot. The payload is the one the JavaScript runner takes: the game's name
//! and a newline, the length in bytes of the bot's file name and a newline, that file name, and
//! the source ([`split_payload`]).
//!
//! The module says `botlens_runner` (docs/abi.md): its locations come from the interpreter. The
//! runner reads the Python frames itself ([`bot_frames`]: each frame's code object and its last
//! instruction), which costs little, so a losing or wasted move, a mark and a trap are all
//! located at the bot's line without running any Python. An exception (a syntax error too, and
//! anything wrong with the bot's shape) goes to `botlens.panic` with its type, message and the
//! bot's part of its traceback. After a trap that gave the runner no chance to say where the bot
//! was (the fuel, the stack or the memory ran out), the host calls [`botlens_where`], which states
//! the frames the interpreter was in. A profiled game's samples ask [`botlens_sample`] for the
//! Python frames, which it writes without allocating, so `botlens profile` shows the script's
//! functions and lines.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use botlens_runner_guest::{
    LOST, MAX_HEAT_VALUES, Position, SYNTAX_ERROR, abi, bot_file, fail, kind, payload, receive,
    set_bot_file, state, with_bot_file,
};
use num_traits::ToPrimitive;
use rustpython_vm::builtins::{
    PyBaseExceptionRef, PyCode, PyInt, PyStr, PyStrRef, PyType, PyTypeRef,
};
use rustpython_vm::common::lock::PyMutex;
use rustpython_vm::compiler::Mode;
use rustpython_vm::frame::Frame;
use rustpython_vm::{
    AsObject, Interpreter, Py, PyObject, PyObjectRef, PyRef, PyResult, VirtualMachine,
};

botlens_runner_guest::sections!(b"rustpython");

/// The prelude: the module `botlens`, run once in [`botlens_prepare`].
const PRELUDE_SOURCE: &str = include_str!("prelude.py");

/// The file name the prelude's frames carry.
const PRELUDE_FILE: &str = "botlens:prelude.py";

/// Python's recursion limit in the runner: reached before the WebAssembly stack (1 MiB at
/// most, docs/limits.md) or the runner's own stack (`build.rs`) runs out, so an endless
/// recursion is a `RecursionError` with its traceback, located at the recursing function.
const RECURSION_LIMIT: usize = 150;

thread_local! {
    /// The interpreter, made by [`botlens_prepare`].
    static INTERPRETER: RefCell<Option<Interpreter>> = const { RefCell::new(None) };
    /// The interpreter's machine, for [`botlens_where`], which must not wait on a borrow a trap
    /// left behind.
    static MACHINE: Cell<*const VirtualMachine> = const { Cell::new(std::ptr::null()) };
    /// What the runner calls of the prelude, found once in [`botlens_prepare`].
    static PRELUDE: RefCell<Option<Rc<Prelude>>> = const { RefCell::new(None) };
    /// The game being played, from [`botlens_new`].
    static GAME: Cell<Option<Game>> = const { Cell::new(None) };
    /// The game's `Bot()`, made by [`botlens_new`].
    static BOT: RefCell<Option<PyObjectRef>> = const { RefCell::new(None) };
    /// Whether the bot made a move (called `act`) in this turn.
    static MOVED: Cell<bool> = const { Cell::new(false) };
    /// What the bot wrote to `sys.stdout` since its last full line (the turn's log takes lines).
    static PARTIAL_LINE: RefCell<String> = const { RefCell::new(String::new()) };
    /// The bot's source and its code, compiled by [`botlens_prepare_payload`].
    static COMPILED: RefCell<Option<(String, PyRef<PyCode>)>> = const { RefCell::new(None) };
}

/// The games a Python bot plays, each with its turn object.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Game {
    Battleships,
    TicTacToe,
    Klotski,
}

impl Game {
    /// The game of the payload's name (docs/abi.md), if the runner knows it.
    fn named(name: &str) -> Option<Game> {
        match name {
            "battleships" => Some(Game::Battleships),
            "tictactoe" => Some(Game::TicTacToe),
            "klotski" => Some(Game::Klotski),
            _ => None,
        }
    }
}

/// The prelude's functions and turn classes the runner calls, found once in [`botlens_prepare`].
/// A turn runs no Python of the runner's: the turn is made here and `play` called directly,
/// which with the runner's `random` functions cut a random Battleships bot's turn from
/// 2.1·10⁵ units of fuel to 1.2·10⁵ (docs/performance.md, "Python").
struct Prelude {
    /// `_start(game, names)`: seeds `random` and makes `Bot()`, which it returns.
    start: PyObjectRef,
    /// `_import_dataclasses()`: imports `dataclasses` as a game would.
    import_dataclasses: PyObjectRef,
    /// `json.loads`, kept before any bot could replace it.
    json_loads: PyObjectRef,
    /// `_act_xy(x, y)`: a move whose coordinates are not both `int`s, written by `json.dumps`.
    act_xy: PyObjectRef,
    /// `_shot(answer)`: what `turn.attack` returns for an answer other than a miss or a hit.
    shot: PyObjectRef,
    /// `_missing(game, name)`: the message for a turn's attribute that is not there.
    missing: PyObjectRef,
    /// The prelude's `BattleshipsTurn`, a subclass of [`_botlens::BattleshipsTurnBase`].
    battleships_turn: PyTypeRef,
    /// The prelude's `TicTacToeTurn`, a subclass of [`_botlens::TicTacToeTurnBase`].
    tictactoe_turn: PyTypeRef,
    /// The prelude's `KlotskiTurn`, a Python class made from the view.
    klotski_turn: PyObjectRef,
}

/// The prelude's calls, once [`botlens_prepare`] found them.
fn prelude() -> Rc<Prelude> {
    match PRELUDE.with_borrow(Clone::clone) {
        Some(prelude) => prelude,
        None => fail("the Python interpreter did not start", None),
    }
}

/// A frame of the bot's file.
struct BotFrame {
    /// The function's name (`<module>` for the file's own code).
    function: String,
    at: Position,
}

/// Where `frame` is: the line and column of its current instruction (the last one it started).
fn frame_position(frame: &Py<Frame>) -> Option<(u32, u32)> {
    let index = usize::try_from(frame.lasti()).ok()?.checked_sub(1)?;
    let (start, _) = frame.code.locations.get(index)?;
    Some((start.line.get() as u32, start.character_offset.get() as u32))
}

/// The bot's frames the interpreter is in, innermost first: those whose code comes from the
/// bot's file. Reads the frames as they are, without running Python; nothing when they are
/// being changed (a trap in the middle of a call).
fn bot_frames(vm: &VirtualMachine) -> Vec<BotFrame> {
    let file = bot_file();
    let own = |frame: &Py<Frame>| {
        if frame.code.source_path.as_str() != file.as_str() {
            return None;
        }
        let (line, column) = frame_position(frame)?;
        let at = Position { file: file.clone(), line, column };
        Some(BotFrame { function: frame.code.obj_name.as_str().to_owned(), at })
    };
    with_frames(vm, |frames| frames.filter_map(own).collect()).unwrap_or_default()
}

/// `read` of the Python frames the interpreter is in, innermost first, as they are (nothing is
/// run or allocated to read them); `None` while the list is being changed (a trap or a profile's
/// sample in the middle of a call).
fn with_frames<R>(
    vm: &VirtualMachine,
    read: impl FnOnce(&mut dyn Iterator<Item = &Py<Frame>>) -> R,
) -> Option<R> {
    let frames = vm.frames.try_borrow().ok()?;
    // SAFETY: a frame is in the machine's list only while it runs, so it is alive.
    let mut innermost_first = frames.iter().rev().map(|pointer| unsafe { pointer.as_ref() });
    Some(read(&mut innermost_first))
}

/// `botlens.stack`: the bot's frames, innermost first (docs/abi.md:
/// `function<TAB>file<TAB>line<TAB>column` per line).
fn state_stack(frames: &[BotFrame]) {
    let mut text = String::new();
    for BotFrame { function, at } in frames {
        text.push_str(&format!("{function}\t{}\t{}\t{}\n", at.file, at.line, at.column));
    }
    // SAFETY: the text is a live string.
    unsafe { abi::stack(text.as_ptr(), text.len()) };
}

/// The frames of an exception's traceback in the bot's file, outermost first, as Python lists
/// them.
fn traceback_frames(exception: &PyBaseExceptionRef) -> Vec<BotFrame> {
    let file = bot_file();
    let mut frames = Vec::new();
    let mut next = exception.__traceback__();
    while let Some(traceback) = next {
        let frame = &traceback.frame;
        if frame.code.source_path.as_str() == file {
            let index = usize::try_from(traceback.lasti / 2).unwrap_or(usize::MAX);
            let column = frame
                .code
                .locations
                .get(index)
                .map_or(0, |(start, _)| start.character_offset.get());
            let at = Position {
                file: file.clone(),
                line: traceback.lineno.get() as u32,
                column: column as u32,
            };
            frames.push(BotFrame { function: frame.code.obj_name.as_str().to_owned(), at });
        }
        next = traceback.next.lock().clone();
    }
    frames
}

/// An object's text as `str()` writes it, or a stand-in when that fails.
fn text_of(object: &PyObjectRef, vm: &VirtualMachine) -> String {
    object.str(vm).map_or_else(
        |_| "<cannot be printed>".to_owned(),
        |text| text.to_string_lossy().into_owned(),
    )
}

/// Ends the game with the Python exception `exception`, located at its innermost frame in the
/// bot's file, with the bot's part of its traceback in the message (Python's shape, the file by
/// its name alone so messages read the same on every machine) and stated as the stack.
fn fail_with(vm: &VirtualMachine, exception: PyBaseExceptionRef) -> ! {
    let kind = exception.class().name().to_string();
    let message = text_of(&exception.clone().into(), vm);
    let frames = traceback_frames(&exception);
    let file = bot_file();
    let short = file.rsplit('/').next().unwrap_or(&file).to_owned();
    let mut text = match message.as_str() {
        "" => format!("uncaught {kind}"),
        message => format!("uncaught {kind}: {message}"),
    };
    if !frames.is_empty() {
        text.push_str("\nTraceback (most recent call last):");
        for BotFrame { function, at } in &frames {
            text.push_str(&format!("\n  File \"{short}\", line {}, in {function}", at.line));
        }
    }
    let innermost_first: Vec<BotFrame> = frames.into_iter().rev().collect();
    state_stack(&innermost_first);
    let at = innermost_first.into_iter().next().map(|frame| frame.at);
    fail(&text, at)
}

/// A message from the host as a Python string (the host writes UTF-8; anything else is
/// replaced, never trusted).
fn py_string(vm: &VirtualMachine, bytes: &[u8]) -> PyStrRef {
    vm.ctx.new_str(String::from_utf8_lossy(bytes).as_ref())
}

/// Makes the move `message` and reads the game's answer with `read` (`None` when there is none).
/// A losing move is located at the bot's frame (the host ends the game there); a wasted one's
/// place is stated for a player that locates wasted moves.
fn send<R>(
    vm: &VirtualMachine,
    message: &[u8],
    read: impl FnOnce(&[u8]) -> R,
) -> PyResult<Option<R>> {
    MOVED.set(true);
    let mut lost = false;
    let copy = |out, cap| {
        // SAFETY: the message and the buffer are live for the call.
        let len = unsafe { abi::act(message.as_ptr(), message.len(), out, cap) };
        lost = len == LOST;
        len
    };
    let answer = receive(copy, read);
    // SAFETY: an import without arguments.
    if lost || unsafe { abi::wasted() } == 1 {
        // A lost move: does not return when the stack has a bot frame.
        state_stack(&bot_frames(vm));
    }
    if lost {
        return Err(vm.new_runtime_error("the move lost the game"));
    }
    Ok(answer)
}

/// The move at `x`, `y`: written here when both are `int`s that fit, by the prelude's `_act_xy`
/// (`json.dumps`) otherwise; the game's answer read with `read`, or given to `other` when it
/// came from `_act_xy` (a `str`).
fn send_at<R>(
    vm: &VirtualMachine,
    [x, y]: [PyObjectRef; 2],
    read: impl FnOnce(&[u8]) -> R,
    other: impl FnOnce(PyObjectRef) -> PyResult<R>,
) -> PyResult<Option<R>> {
    let exact = |n: &PyObjectRef| {
        let int = n.downcast_ref_if_exact::<PyInt>(vm)?;
        int.as_bigint().to_i64()
    };
    match (exact(&x), exact(&y)) {
        (Some(x), Some(y)) => send(vm, format!("{{\"x\":{x},\"y\":{y}}}").as_bytes(), read),
        _ => other(prelude().act_xy.call((x, y), vm)?).map(Some),
    }
}

/// `botlens.draw`, located at the bot's line that called it: the runner states the innermost
/// frame of the bot's file right before (the host restores what was stated before it after the
/// mark).
fn draw_mark(
    vm: &VirtualMachine,
    kind: i32,
    [x, y, to_x, to_y]: [i32; 4],
    colour: u32,
    bytes: &[u8],
) {
    if let Some(frame) = bot_frames(vm).into_iter().next() {
        state(&frame.at);
    }
    // SAFETY: the bytes are live for the call.
    unsafe { abi::draw(kind, x, y, to_x, to_y, colour, bytes.as_ptr(), bytes.len()) };
}

/// The runner's native functions, the module `_botlens` the prelude imports.
#[rustpython_vm::pymodule]
mod _botlens {
    use num_traits::ToPrimitive;
    use rustpython_vm::builtins::PyStr;
    use rustpython_vm::builtins::{PyFloat, PyInt, PyList, PyStrRef, PyTuple};
    use rustpython_vm::common::lock::PyMutex;
    use rustpython_vm::function::FuncArgs;
    use rustpython_vm::types::{Constructor, DefaultConstructor, GetAttr};
    use rustpython_vm::{AsObject, Py, PyObjectRef, PyPayload, PyResult, VirtualMachine, pyclass};

    /// A move given as JSON; the game's answer as JSON.
    #[pyfunction]
    fn act(message: PyStrRef, vm: &VirtualMachine) -> PyResult<PyStrRef> {
        let message = message.to_string_lossy();
        let answer = super::send(vm, message.as_bytes(), |answer| super::py_string(vm, answer))?;
        Ok(answer.unwrap_or_else(|| super::py_string(vm, b"")))
    }

    /// A Battleships turn's data and moves; the prelude's `BattleshipsTurn` adds what is
    /// written in Python. Made by the runner ([`super::make_turn`]), never by Python.
    #[pyattr]
    #[pyclass(module = "botlens", name = "BattleshipsTurnBase")]
    #[derive(Debug, PyPayload)]
    pub(super) struct BattleshipsTurnBase {
        /// The view as the host wrote it.
        pub(super) raw: PyStrRef,
        /// The board of shots, 100 characters.
        pub(super) targets: PyObjectRef,
        /// The bot's own board, 100 characters.
        pub(super) own: PyObjectRef,
        /// The view parsed, once something asked for a field that needs it.
        pub(super) parsed: PyMutex<Option<PyObjectRef>>,
    }

    impl GetAttr for BattleshipsTurnBase {
        fn getattro(zelf: &Py<Self>, name: &Py<PyStr>, vm: &VirtualMachine) -> PyResult {
            super::turn_attribute(zelf.as_object(), "battleships", name, vm)
        }
    }

    #[pyclass(with(GetAttr), flags(BASETYPE))]
    impl BattleshipsTurnBase {
        #[pygetset]
        fn targets(&self) -> PyObjectRef {
            self.targets.clone()
        }

        #[pygetset]
        fn own(&self) -> PyObjectRef {
            self.own.clone()
        }

        #[pygetset]
        fn enemy_ships_left(&self, vm: &VirtualMachine) -> PyResult {
            super::parsed(&self.raw, &self.parsed, vm)?.get_item("enemy_ships_left", vm)
        }

        #[pygetset]
        fn shots(&self, vm: &VirtualMachine) -> PyResult {
            super::parsed(&self.raw, &self.parsed, vm)?.get_item("shots", vm)
        }

        /// `turn.attack(x, y)`: `False` (a miss), `True` (a hit) or the prelude's sunk ship.
        #[pymethod]
        fn attack(&self, x: PyObjectRef, y: PyObjectRef, vm: &VirtualMachine) -> PyResult {
            let read = |answer: &[u8]| match answer {
                br#"{"result":"miss"}"# => Ok(false),
                br#"{"result":"hit"}"# => Ok(true),
                other => Err(super::py_string(vm, other).into()),
            };
            let answer = super::send_at(vm, [x, y], read, |answer| Ok(Err(answer)))?;
            match answer {
                Some(Ok(hit)) => Ok(vm.ctx.new_bool(hit).into()),
                Some(Err(answer)) => super::prelude().shot.call((answer,), vm),
                None => super::prelude().shot.call((super::py_string(vm, b""),), vm),
            }
        }
    }

    /// A Tic-tac-toe turn's data and moves; the prelude's `TicTacToeTurn` adds what is written
    /// in Python. Made by the runner ([`super::make_turn`]), never by Python.
    #[pyattr]
    #[pyclass(module = "botlens", name = "TicTacToeTurnBase")]
    #[derive(Debug, PyPayload)]
    pub(super) struct TicTacToeTurnBase {
        /// The view as the host wrote it.
        pub(super) raw: PyStrRef,
        /// `grid[y][x]`: `''`, `'X'` or `'O'`.
        pub(super) grid: PyObjectRef,
        /// The view parsed, once something asked for a field that needs it.
        pub(super) parsed: PyMutex<Option<PyObjectRef>>,
    }

    impl GetAttr for TicTacToeTurnBase {
        fn getattro(zelf: &Py<Self>, name: &Py<PyStr>, vm: &VirtualMachine) -> PyResult {
            super::turn_attribute(zelf.as_object(), "tictactoe", name, vm)
        }
    }

    #[pyclass(with(GetAttr), flags(BASETYPE))]
    impl TicTacToeTurnBase {
        #[pygetset]
        fn grid(&self) -> PyObjectRef {
            self.grid.clone()
        }

        /// The bot's mark, read where the host writes it (`{"board":"…","you":"X"}`), from the
        /// parsed view otherwise.
        #[pygetset]
        fn you(&self, vm: &VirtualMachine) -> PyResult {
            if let Some(mark) = super::tictactoe_mark(self.raw.as_bytes()) {
                return Ok(vm.ctx.intern_str(mark).to_owned().into());
            }
            super::parsed(&self.raw, &self.parsed, vm)?.get_item("you", vm)
        }

        /// `turn.mark(x, y)`.
        #[pymethod]
        fn mark(&self, x: PyObjectRef, y: PyObjectRef, vm: &VirtualMachine) -> PyResult<()> {
            super::send_at(vm, [x, y], |_| (), |_| Ok(())).map(drop)
        }
    }

    /// `sys.stdout` and `sys.stderr`: what is written goes to the turn's log, a line at a time.
    #[pyattr]
    #[pyclass(module = "botlens", name = "Log")]
    #[derive(Debug, Default, PyPayload)]
    struct Log;

    impl DefaultConstructor for Log {}

    #[pyclass(with(Constructor))]
    impl Log {
        /// Writes `text` (its `str()`), logging each line it completes; returns its length.
        #[pymethod]
        fn write(&self, text: PyObjectRef, vm: &VirtualMachine) -> PyResult<usize> {
            let text = text.str(vm)?;
            super::PARTIAL_LINE.with_borrow_mut(|partial| {
                partial.push_str(&text.to_string_lossy());
                while let Some(end) = partial.find('\n') {
                    // SAFETY: the line is a live string.
                    unsafe { super::abi::log(partial.as_ptr(), end) };
                    partial.drain(..=end);
                }
            });
            Ok(text.char_len())
        }

        /// Logs what is left of an unfinished line.
        #[pymethod]
        fn flush(&self) {
            super::flush_log();
        }

        #[pymethod]
        fn isatty(&self) -> bool {
            false
        }

        #[pygetset]
        fn encoding(&self) -> &'static str {
            "utf-8"
        }
    }

    /// 64 bits of the game's bot stream (WASI `random_get`), to seed `random` with.
    #[pyfunction]
    fn seed() -> u64 {
        let mut bytes = [0u8; 8];
        // SAFETY: the buffer is valid for 8 bytes.
        unsafe { super::abi::random_get(bytes.as_mut_ptr(), bytes.len()) };
        u64::from_le_bytes(bytes)
    }

    /// `random.randrange`, bound by the prelude to `random`'s own generator (the first
    /// argument): an `int` below `stop`, or from `start` up to `stop`, drawn as random.py
    /// draws it; any other call is random.py's.
    #[pyfunction]
    fn randrange(args: FuncArgs, vm: &VirtualMachine) -> PyResult {
        let fast = match (args.args.as_slice(), args.kwargs.is_empty()) {
            ([rng, stop], true) => small_int(stop, vm).map(|stop| (rng, 0, stop)),
            ([rng, start, stop], true) => small_int(start, vm)
                .zip(small_int(stop, vm))
                .and_then(|(start, stop)| Some((rng, start, stop.checked_sub(start)?))),
            _ => None,
        };
        match fast {
            Some((rng, start, width)) if width > 0 => {
                Ok(vm.ctx.new_int(start + below(rng, width, vm)?).into())
            }
            _ => random_py(args, "randrange", vm),
        }
    }

    /// `random.randint(a, b)`, as [`randrange`] is bound and drawn.
    #[pyfunction]
    fn randint(args: FuncArgs, vm: &VirtualMachine) -> PyResult {
        if let ([rng, low, high], true) = (args.args.as_slice(), args.kwargs.is_empty())
            && let (Some(low), Some(high)) = (small_int(low, vm), small_int(high, vm))
            && let Some(width) = high.checked_sub(low).and_then(|span| span.checked_add(1))
            && width > 0
        {
            return Ok(vm.ctx.new_int(low + below(rng, width, vm)?).into());
        }
        random_py(args, "randint", vm)
    }

    /// `random.choice(seq)`, as [`randrange`] is bound and drawn, for a non-empty `list` or
    /// `tuple`.
    #[pyfunction]
    fn choice(args: FuncArgs, vm: &VirtualMachine) -> PyResult {
        if let ([rng, seq], true) = (args.args.as_slice(), args.kwargs.is_empty()) {
            if let Some(list) = seq.downcast_ref_if_exact::<PyList>(vm) {
                let len = list.borrow_vec().len();
                if len > 0 {
                    let at = below(rng, len as i64, vm)? as usize;
                    if let Some(item) = list.borrow_vec().get(at) {
                        return Ok(item.clone());
                    }
                }
            } else if let Some(tuple) = seq.downcast_ref_if_exact::<PyTuple>(vm)
                && !tuple.is_empty()
            {
                let at = below(rng, tuple.len() as i64, vm)? as usize;
                return Ok(tuple[at].clone());
            }
        }
        random_py(args, "choice", vm)
    }

    /// `random.shuffle(x)`, as [`randrange`] is bound and drawn, for a `list`.
    #[pyfunction]
    fn shuffle(args: FuncArgs, vm: &VirtualMachine) -> PyResult {
        if let ([rng, seq], true) = (args.args.as_slice(), args.kwargs.is_empty())
            && let Some(list) = seq.downcast_ref_if_exact::<PyList>(vm)
        {
            let len = list.borrow_vec().len();
            for i in (1..len).rev() {
                let j = below(rng, i as i64 + 1, vm)? as usize;
                let mut items = list.borrow_vec_mut();
                if i < items.len() && j < items.len() {
                    items.swap(i, j);
                }
            }
            return Ok(vm.ctx.none());
        }
        random_py(args, "shuffle", vm)
    }

    /// `x` when it is exactly an `int` that fits in 64 bits.
    fn small_int(x: &PyObjectRef, vm: &VirtualMachine) -> Option<i64> {
        x.downcast_ref_if_exact::<PyInt>(vm)?.as_bigint().to_i64()
    }

    /// A number from 0 up to `n` (positive) drawn from `rng` as random.py's
    /// `_randbelow_with_getrandbits` draws it: `getrandbits(n.bit_length())` until below `n`.
    fn below(rng: &PyObjectRef, n: i64, vm: &VirtualMachine) -> PyResult<i64> {
        let bits = i64::BITS - n.leading_zeros();
        loop {
            let drawn = vm.call_method(rng, "getrandbits", (bits,))?;
            let drawn = drawn.downcast_ref::<PyInt>().and_then(|int| int.as_bigint().to_i64());
            match drawn {
                Some(drawn) if (0..n).contains(&drawn) => return Ok(drawn),
                Some(_) => {}
                None => return Err(vm.new_type_error("getrandbits returned no int")),
            }
        }
    }

    /// random.py's own `name`, called on the generator the prelude bound (the first argument).
    fn random_py(mut args: FuncArgs, name: &str, vm: &VirtualMachine) -> PyResult {
        if args.args.is_empty() {
            return Err(vm.new_type_error(format!("{name}() needs its generator")));
        }
        let rng = args.args.remove(0);
        vm.call_method(&rng, name, args)
    }

    /// A number as the ABI takes it: truncated towards zero and saturated; `None` when it is not
    /// a finite `int` or `float` (`bool` counts as an `int`, as in Python).
    fn number(value: &PyObjectRef) -> Option<i64> {
        if let Some(int) = value.downcast_ref::<PyInt>() {
            // Saturates: a huge integer is as far off the board as `i64` goes.
            return int.as_bigint().to_f64().map(|n| n as i64);
        }
        let float = value.downcast_ref::<PyFloat>()?.to_f64();
        float.is_finite().then_some(float as i64)
    }

    /// `draw(kind, x, y, to_x, to_y, colour, text)`: one `botlens.draw`, `text` a `str` or
    /// `None`. The mark is dropped when a coordinate or the colour is not a finite number.
    #[pyfunction]
    #[allow(clippy::too_many_arguments)] // the ABI's arguments
    fn draw(
        kind: i32,
        x: PyObjectRef,
        y: PyObjectRef,
        to_x: PyObjectRef,
        to_y: PyObjectRef,
        colour: PyObjectRef,
        text: Option<PyStrRef>,
        vm: &VirtualMachine,
    ) {
        let numbers = [&x, &y, &to_x, &to_y].map(number);
        let [Some(x), Some(y), Some(to_x), Some(to_y)] = numbers else {
            return super::draw_mark(vm, super::kind::DROPPED, [0; 4], 0, &[]);
        };
        let Some(colour) = number(&colour) else {
            return super::draw_mark(vm, super::kind::DROPPED, [0; 4], 0, &[]);
        };
        let clamp = |n: i64| n.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
        let text = text.as_ref().map(|text| text.to_string_lossy()).unwrap_or_default();
        super::draw_mark(vm, kind, [x, y, to_x, to_y].map(clamp), colour as u32, text.as_bytes());
    }

    /// `draw_heat(width, values)`: a heat map of `values` (floats, NaN for an unshaded cell),
    /// dropped when `width` is not a number or there are more than the ABI takes.
    #[pyfunction]
    fn draw_heat(width: PyObjectRef, values: Vec<f64>, vm: &VirtualMachine) {
        let Some(width) = number(&width).filter(|_| values.len() <= super::MAX_HEAT_VALUES) else {
            return super::draw_mark(vm, super::kind::DROPPED, [0; 4], 0, &[]);
        };
        let bytes: Vec<u8> =
            values.iter().flat_map(|value| (*value as f32).to_le_bytes()).collect();
        let width = width.clamp(0, i64::from(i32::MAX)) as i32;
        super::draw_mark(vm, super::kind::HEAT, [width, 0, 0, 0], 0, &bytes);
    }
}

/// Fails with a Python exception raised outside the bot's code (the prelude's, the runner's).
fn fail_outside(vm: &VirtualMachine, exception: PyBaseExceptionRef, what: &str) -> ! {
    let mut text = String::new();
    let _ = vm.write_exception(&mut text, &exception);
    fail(&format!("{what}: {text}"), None)
}

/// Starts the interpreter, imports the standard library a bot plausibly uses and runs the
/// prelude: everything a game needs before the bot's source. The host calls it once per loaded
/// runner and starts every game from the memory it leaves (docs/abi.md, `botlens_prepare`), so
/// no game pays for it; a host that does not is served by [`botlens_new`], which calls it first.
#[unsafe(no_mangle)]
pub extern "C" fn botlens_prepare() {
    let builder = Interpreter::builder(Default::default());
    let mut natives = rustpython_stdlib::stdlib_module_defs(&builder.ctx);
    natives.push(_botlens::module_def(&builder.ctx));
    let interpreter = builder
        .add_native_modules(&natives)
        .add_frozen_modules(rustpython_pylib::FROZEN_STDLIB)
        .build();
    let calls = interpreter.enter(|vm| {
        vm.recursion_limit.set(RECURSION_LIMIT);
        let prelude = vm.compile(PRELUDE_SOURCE, Mode::Exec, PRELUDE_FILE.to_owned());
        let prelude = match prelude {
            Ok(code) => code,
            Err(error) => fail(&format!("the runner's prelude does not compile: {error}"), None),
        };
        let module = vm.new_module("botlens", vm.ctx.new_dict(), None);
        let scope = rustpython_vm::scope::Scope::with_builtins(None, module.dict(), vm);
        let ran = vm
            .sys_module
            .get_attr("modules", vm)
            .and_then(|modules| modules.set_item("botlens", module.clone().into(), vm))
            .and_then(|()| vm.run_code_obj(prelude, scope));
        if let Err(exception) = ran {
            fail_outside(vm, exception, "the runner's prelude failed");
        }
        let get = |name: &'static str| match module.as_object().get_attr(name, vm) {
            Ok(call) => call,
            Err(exception) => fail_outside(vm, exception, "the runner's prelude"),
        };
        let class = |name: &'static str| match get(name).downcast::<PyType>() {
            Ok(class) => class,
            Err(_) => fail(&format!("the runner's prelude: {name} is not a class"), None),
        };
        Prelude {
            start: get("_start"),
            import_dataclasses: get("_import_dataclasses"),
            json_loads: get("_json_loads"),
            act_xy: get("_act_xy"),
            shot: get("_shot"),
            missing: get("_missing"),
            battleships_turn: class("BattleshipsTurn"),
            tictactoe_turn: class("TicTacToeTurn"),
            klotski_turn: get("KlotskiTurn"),
        }
    });
    PRELUDE.with_borrow_mut(|kept| *kept = Some(Rc::new(calls)));
    INTERPRETER.with_borrow_mut(|kept| *kept = Some(interpreter));
    // Where the machine is now that the interpreter is in its place.
    INTERPRETER.with_borrow(|kept| {
        if let Some(interpreter) = kept {
            interpreter.enter(|vm| MACHINE.set(vm as *const VirtualMachine));
        }
    });
}

/// Runs `body` in the interpreter, starting it first if it is not.
fn with_vm<R>(body: impl FnOnce(&VirtualMachine) -> R) -> R {
    if INTERPRETER.with_borrow(Option::is_none) {
        botlens_prepare();
    }
    INTERPRETER.with_borrow(|interpreter| {
        let Some(interpreter) = interpreter else {
            fail("the Python interpreter did not start", None)
        };
        interpreter.enter(body)
    })
}

/// The view parsed by `json.loads`, kept in `parsed` for the turn's other fields.
fn parsed(raw: &PyStrRef, parsed: &PyMutex<Option<PyObjectRef>>, vm: &VirtualMachine) -> PyResult {
    if let Some(view) = parsed.lock().as_ref() {
        return Ok(view.clone());
    }
    let view = prelude().json_loads.call((raw.clone(),), vm)?;
    *parsed.lock() = Some(view.clone());
    Ok(view)
}

/// The mark of a Tic-tac-toe view as the host writes it, `{"board":"<9 squares>","you":"X"}`;
/// `None` for any other text.
fn tictactoe_mark(view: &[u8]) -> Option<&'static str> {
    let rest = view.strip_prefix(br#"{"board":""#)?;
    match rest.get(9..)? {
        br#"","you":"X"}"# => Some("X"),
        br#"","you":"O"}"# => Some("O"),
        _ => None,
    }
}

/// The turn's object for the bot's `play`, made from the view.
fn make_turn(vm: &VirtualMachine, game: Game, prelude: &Prelude) -> PyResult {
    // SAFETY: `receive` hands a valid buffer.
    let copy = |out, cap| unsafe { abi::view(out, cap) };
    let raw = receive(copy, |view| py_string(vm, view)).unwrap_or_else(|| py_string(vm, b""));
    let new_parsed = || PyMutex::new(None);
    match game {
        Game::Battleships => {
            let text = raw.as_bytes();
            // The boards at their fixed places in the view as the host writes it (docs/abi.md).
            let (targets, own, parsed) = match (text.get(..12), text.get(112..121)) {
                (Some(br#"{"targets":""#), Some(br#"","own":""#)) if text.len() > 221 => {
                    let board = |range: std::ops::Range<usize>| {
                        vm.ctx.new_str(String::from_utf8_lossy(&text[range]).as_ref()).into()
                    };
                    (board(12..112), board(121..221), new_parsed())
                }
                _ => {
                    let parsed = new_parsed();
                    let view = self::parsed(&raw, &parsed, vm)?;
                    (view.get_item("targets", vm)?, view.get_item("own", vm)?, parsed)
                }
            };
            let turn = _botlens::BattleshipsTurnBase { raw, targets, own, parsed };
            Ok(PyRef::new_ref(turn, prelude.battleships_turn.clone(), None).into())
        }
        Game::TicTacToe => {
            let board = match raw.as_bytes().get(..19) {
                Some(start) if start.starts_with(br#"{"board":""#) => {
                    py_string(vm, &start[10..]).into()
                }
                _ => prelude.json_loads.call((raw.clone(),), vm)?.get_item("board", vm)?,
            };
            let board: PyStrRef = board.try_into_value(vm)?;
            let squares: Vec<PyObjectRef> = board
                .to_string_lossy()
                .chars()
                .map(|square| match square {
                    '.' => vm.ctx.empty_str.to_owned().into(),
                    'X' => vm.ctx.intern_str("X").to_owned().into(),
                    'O' => vm.ctx.intern_str("O").to_owned().into(),
                    other => vm.ctx.new_str(other.to_string()).into(),
                })
                .collect();
            let rows = squares.chunks(3).map(|row| vm.ctx.new_list(row.to_vec()).into()).collect();
            let grid = vm.ctx.new_list(rows).into();
            let turn = _botlens::TicTacToeTurnBase { raw, grid, parsed: new_parsed() };
            Ok(PyRef::new_ref(turn, prelude.tictactoe_turn.clone(), None).into())
        }
        Game::Klotski => prelude.klotski_turn.call((raw,), vm),
    }
}

/// The attribute `name` of a turn of `game`: Python's own lookup, and for a name a turn does not
/// have, an `AttributeError` that says which game's turn has it (the prelude's `_missing`), for a
/// bot run with the wrong game. A slot of the runner's turn classes rather than a `__getattr__`
/// in the prelude, which would make every attribute of the turn a call of Python's
/// `__getattribute__`.
fn turn_attribute(turn: &PyObject, game: &str, name: &Py<PyStr>, vm: &VirtualMachine) -> PyResult {
    if let Some(value) = turn.generic_getattr_opt(name, None, vm)? {
        return Ok(value);
    }
    let message = prelude().missing.call((vm.ctx.new_str(game), name.to_owned()), vm)?;
    let message: PyStrRef = message.try_into_value(vm)?;
    Err(vm.new_attribute_error(message.to_string_lossy().into_owned()))
}

/// Logs what is left of an unfinished line of `sys.stdout`.
fn flush_log() {
    PARTIAL_LINE.with_borrow_mut(|partial| {
        if !partial.is_empty() {
            // SAFETY: the line is a live string.
            unsafe { abi::log(partial.as_ptr(), partial.len()) };
            partial.clear();
        }
    });
}

/// The module name the bot's code runs as: its file's stem, so that code under
/// `if __name__ == "__main__":` (an author's local test) does not run in a game.
fn module_name(file: &str) -> &str {
    let name = file.rsplit('/').next().unwrap_or(file);
    name.rsplit_once('.').map_or(name, |(stem, _)| stem)
}

/// Compiles the bot's source and imports `dataclasses` if it names it, once per source
/// (docs/abi.md, `botlens_prepare_payload`): every game with it starts from the memory this
/// leaves, so no game compiles it or imports that again. A source that does not compile, or an
/// import that fails, is left for [`botlens_new`] to meet.
#[unsafe(no_mangle)]
pub extern "C" fn botlens_prepare_payload() {
    let (_, file, source) = payload("Python");
    with_vm(|vm| {
        let Ok(code) = vm.compile(&source, Mode::Exec, file) else { return };
        // Named anywhere (a comment too): importing it for nothing costs this call, not a game.
        if source.contains("dataclasses") {
            // It catches its own errors, which the game meets again.
            let _ = prelude().import_dataclasses.call((), vm);
        }
        COMPILED.with_borrow_mut(|compiled| *compiled = Some((source, code)));
    });
}

/// The code [`botlens_prepare_payload`] compiled for `source`, if it did.
fn compiled(source: &str) -> Option<PyRef<PyCode>> {
    COMPILED.with_borrow(|compiled| {
        compiled.as_ref().filter(|(kept, _)| kept == source).map(|(_, code)| code.clone())
    })
}

/// Starts a game: the bot's source, compiled and run, and `Bot()`.
#[unsafe(no_mangle)]
pub extern "C" fn botlens_new(_seat: i32) {
    let (game, file, source) = payload("Python");
    set_bot_file(&file);
    let Some(kind) = Game::named(&game) else {
        fail(&format!("the Python runner does not play the game {game:?}"), None)
    };
    GAME.set(Some(kind));
    with_vm(|vm| {
        let code = match compiled(&source)
            .map_or_else(|| vm.compile(&source, Mode::Exec, file.clone()), Ok)
        {
            Ok(code) => code,
            Err(error) => {
                let at = error.location().map(|at| Position {
                    file: file.clone(),
                    line: at.line.get() as u32,
                    column: at.character_offset.get() as u32,
                });
                let exception = vm.new_syntax_error(&error, Some(&source));
                let kind = exception.class().name().to_string();
                let message = exception
                    .as_object()
                    .get_attr("msg", vm)
                    .map_or_else(|_| error.to_string(), |msg| text_of(&msg, vm));
                fail(&format!("{SYNTAX_ERROR}{kind}: {message}"), at)
            }
        };
        let scope = vm.new_scope_with_builtins();
        let globals = scope.globals.clone();
        let named = globals
            .set_item("__name__", vm.ctx.new_str(module_name(&file)).into(), vm)
            .and_then(|()| globals.set_item("__file__", vm.ctx.new_str(file.as_str()).into(), vm));
        if let Err(exception) = named.and_then(|()| vm.run_code_obj(code, scope).map(drop)) {
            fail_with(vm, exception);
        }
        match prelude().start.call((vm.ctx.new_str(game.as_str()), globals), vm) {
            Ok(bot) => BOT.with_borrow_mut(|kept| *kept = Some(bot)),
            Err(exception) => fail_with(vm, exception),
        }
    });
}

/// Where a `play` that made no move is defined (its code's first line, column 1), when that is
/// in the bot's file.
fn definition(vm: &VirtualMachine, play: &PyObjectRef) -> Option<Position> {
    let function = play.get_attr("__func__", vm).unwrap_or_else(|_| play.clone());
    let code = function.get_attr("__code__", vm).ok()?;
    let file = code.get_attr("co_filename", vm).ok()?;
    let line: u32 = code.get_attr("co_firstlineno", vm).ok()?.try_into_value(vm).ok()?;
    let own = text_of(&file, vm) == bot_file();
    own.then(|| Position { file: bot_file(), line, column: 1 })
}

/// One turn: `bot.play(turn)`, the turn made here from the view and `play` looked up on the
/// bot each turn, as Python would.
#[unsafe(no_mangle)]
pub extern "C" fn botlens_play() {
    let Some(bot) = BOT.with_borrow(Clone::clone) else {
        fail("no game was started (botlens_new)", None)
    };
    let Some(game) = GAME.get() else { fail("no game was started (botlens_new)", None) };
    let prelude = prelude();
    with_vm(|vm| {
        MOVED.set(false);
        let played = bot.get_attr("play", vm).and_then(|play| {
            let turn = make_turn(vm, game, &prelude)?;
            play.call((turn,), vm).map(|_| play)
        });
        flush_log();
        match played {
            Err(exception) => fail_with(vm, exception),
            Ok(play) if !MOVED.get() => {
                if let Some(at) = definition(vm, &play) {
                    state(&at);
                }
            }
            Ok(_) => {}
        }
    });
}

/// After a trap that gave the runner no chance to say where the bot was (fuel ran out in an
/// endless loop, the WebAssembly stack ran out, the memory limit refused a growth), the host
/// calls this (docs/abi.md, `botlens_where`): it states the bot's frames the interpreter was in.
/// It borrows nothing the trap may have left borrowed.
#[unsafe(no_mangle)]
pub extern "C" fn botlens_where() {
    let machine = MACHINE.get();
    if machine.is_null() {
        return;
    }
    // SAFETY: the machine lives in `INTERPRETER` as long as the instance, at the address kept
    // when it was put there; only its frames are read, through their own borrow.
    let vm = unsafe { &*machine };
    state_stack(&bot_frames(vm));
}

/// The most bytes of frames [`botlens_sample`] writes: the most the host reads of a stack.
const SAMPLE_BYTES: usize = 64 * 1024;

thread_local! {
    /// Where [`botlens_sample`] writes the frames: outside the heap, so a sample allocates
    /// nothing (it may come in the middle of an allocation).
    static SAMPLE: RefCell<[u8; SAMPLE_BYTES]> = const { RefCell::new([0; SAMPLE_BYTES]) };
}

/// A profile's sample (docs/abi.md, `botlens_sample`): the host calls this at an epoch check of
/// a profiled game, in the middle of whatever the interpreter was doing, and it writes the
/// Python frames the interpreter is in, innermost first, one `own<TAB>function<TAB>file<TAB>
/// line<TAB>column` line each, `own` being `+` for the bot's file and `-` for the others (the
/// standard library's, the prelude's). It returns the text's address and, shifted by 32 bits,
/// its length (0: no frames, or the frames were being changed). It allocates nothing and changes
/// nothing the game can see, so a profiled game plays as an unprofiled one does.
#[unsafe(no_mangle)]
pub extern "C" fn botlens_sample() -> i64 {
    let machine = MACHINE.get();
    if machine.is_null() {
        return 0;
    }
    // SAFETY: as in `botlens_where`: the machine outlives the instance's calls, and only its
    // frames are read, through their own borrow.
    let vm = unsafe { &*machine };
    let written = with_bot_file(|file| {
        SAMPLE.with(|sample| {
            let Ok(mut sample) = sample.try_borrow_mut() else { return (0, 0) };
            let mut text = FixedText { bytes: &mut sample[..], len: 0 };
            with_frames(vm, |frames| {
                for frame in frames {
                    let code = &frame.code;
                    let path = code.source_path.as_str();
                    let own = if path == file { '+' } else { '-' };
                    // A frame that has not started its first instruction is at its definition.
                    let first = code.first_line_number.map(|line| (line.get() as u32, 1));
                    let (line, column) = frame_position(frame).or(first).unwrap_or((0, 0));
                    if !text.frame(own, code.qualname.as_str(), path, line, column) {
                        break;
                    }
                }
            });
            (text.bytes.as_ptr() as usize, text.len)
        })
    });
    let (address, len) = written.unwrap_or((0, 0));
    (address as u64 | (len as u64) << 32) as i64
}

/// Text written into a fixed buffer, a whole line or nothing.
struct FixedText<'a> {
    bytes: &'a mut [u8],
    len: usize,
}

impl FixedText<'_> {
    /// Writes a frame's line; `false` (and nothing written) when it does not fit.
    fn frame(&mut self, own: char, function: &str, file: &str, line: u32, column: u32) -> bool {
        use std::fmt::Write as _;
        let start = self.len;
        let written = self
            .write_char(own)
            .and_then(|()| self.write_char('\t'))
            .and_then(|()| self.field(function))
            .and_then(|()| self.field(file))
            .and_then(|()| writeln!(self, "{line}\t{column}"));
        if written.is_err() {
            self.len = start;
            return false;
        }
        true
    }

    /// Writes `text` and a tab, each tab or line break in it a space: a name or file of the
    /// bot's making (`compile(source, "a\tb", "exec")`) stays one field of one line.
    fn field(&mut self, text: &str) -> std::fmt::Result {
        use std::fmt::Write as _;
        for (index, piece) in text.split(['\t', '\n', '\r']).enumerate() {
            if index > 0 {
                self.write_char(' ')?;
            }
            self.write_str(piece)?;
        }
        self.write_char('\t')
    }
}

impl std::fmt::Write for FixedText<'_> {
    fn write_str(&mut self, text: &str) -> std::fmt::Result {
        let end = self.len.checked_add(text.len()).ok_or(std::fmt::Error)?;
        let into = self.bytes.get_mut(self.len..end).ok_or(std::fmt::Error)?;
        into.copy_from_slice(text.as_bytes());
        self.len = end;
        Ok(())
    }
}
