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
//! the frames the interpreter was in.

use std::cell::{Cell, RefCell};

use botlens_runner_guest::{
    LOST, MAX_HEAT_VALUES, Position, SYNTAX_ERROR, abi, bot_file, fail, kind, payload, receive,
    set_bot_file, state,
};
use rustpython_vm::builtins::{PyBaseExceptionRef, PyStrRef};
use rustpython_vm::compiler::Mode;
use rustpython_vm::frame::Frame;
use rustpython_vm::{AsObject, Interpreter, Py, PyObjectRef, PyResult, VirtualMachine};

botlens_runner_guest::sections!(b"rustpython");

/// The prelude: the module `botlens`, run once in [`botlens_prepare`].
const PRELUDE: &str = include_str!("prelude.py");

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
    /// The prelude's `_start` and `_play`.
    static PRELUDE_CALLS: RefCell<Option<(PyObjectRef, PyObjectRef)>> = const { RefCell::new(None) };
    /// Whether the bot made a move (called `act`) in this turn.
    static MOVED: Cell<bool> = const { Cell::new(false) };
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
    let Ok(frames) = vm.frames.try_borrow() else { return Vec::new() };
    let file = bot_file();
    frames
        .iter()
        .rev()
        .filter_map(|pointer| {
            // SAFETY: a frame is in the machine's list only while it runs, so it is alive.
            let frame = unsafe { pointer.as_ref() };
            if frame.code.source_path.as_str() != file.as_str() {
                return None;
            }
            let (line, column) = frame_position(frame)?;
            let at = Position { file: file.clone(), line, column };
            Some(BotFrame { function: frame.code.obj_name.as_str().to_owned(), at })
        })
        .collect()
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

/// Makes the move `message` and returns the game's answer. A losing move is located at the
/// bot's frame (the host ends the game there); a wasted one's place is stated for a player
/// that locates wasted moves.
fn send(vm: &VirtualMachine, message: &[u8]) -> PyResult<PyStrRef> {
    MOVED.set(true);
    let mut lost = false;
    let copy = |out, cap| {
        // SAFETY: the message and the buffer are live for the call.
        let len = unsafe { abi::act(message.as_ptr(), message.len(), out, cap) };
        lost = len == LOST;
        len
    };
    let answer = receive(copy, |answer| py_string(vm, answer));
    // SAFETY: an import without arguments.
    if lost || unsafe { abi::wasted() } == 1 {
        // A lost move: does not return when the stack has a bot frame.
        state_stack(&bot_frames(vm));
    }
    if lost {
        return Err(vm.new_runtime_error("the move lost the game"));
    }
    Ok(answer.unwrap_or_else(|| py_string(vm, b"")))
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
    use rustpython_vm::builtins::{PyFloat, PyInt, PyStrRef};
    use rustpython_vm::{PyObjectRef, PyResult, VirtualMachine};

    /// The turn's view (canonical JSON, docs/abi.md).
    #[pyfunction]
    fn view(vm: &VirtualMachine) -> PyStrRef {
        // SAFETY: `receive` hands a valid buffer.
        let copy = |out, cap| unsafe { super::abi::view(out, cap) };
        let view = super::receive(copy, |view| super::py_string(vm, view));
        view.unwrap_or_else(|| super::py_string(vm, b""))
    }

    /// A move given as JSON; the game's answer as JSON.
    #[pyfunction]
    fn act(message: PyStrRef, vm: &VirtualMachine) -> PyResult<PyStrRef> {
        super::send(vm, message.to_string_lossy().as_bytes())
    }

    /// The move `{"x":x,"y":y}` of two integers, written here rather than by `json.dumps`.
    #[pyfunction]
    fn act_at(x: i64, y: i64, vm: &VirtualMachine) -> PyResult<PyStrRef> {
        super::send(vm, format!("{{\"x\":{x},\"y\":{y}}}").as_bytes())
    }

    /// A line of the turn's log.
    #[pyfunction]
    fn log(line: PyStrRef) {
        let line = line.to_string_lossy();
        // SAFETY: the line is a live string.
        unsafe { super::abi::log(line.as_ptr(), line.len()) }
    }

    /// 64 bits of the game's bot stream (WASI `random_get`), to seed `random` with.
    #[pyfunction]
    fn seed() -> u64 {
        let mut bytes = [0u8; 8];
        // SAFETY: the buffer is valid for 8 bytes.
        unsafe { super::abi::random_get(bytes.as_mut_ptr(), bytes.len()) };
        u64::from_le_bytes(bytes)
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

    /// The bot made no move this turn so far.
    #[pyfunction]
    fn moved() -> bool {
        super::MOVED.get()
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
        let prelude = vm.compile(PRELUDE, Mode::Exec, PRELUDE_FILE.to_owned());
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
        (get("_start"), get("_play"))
    });
    PRELUDE_CALLS.with_borrow_mut(|calls_kept| *calls_kept = Some(calls));
    INTERPRETER.with_borrow_mut(|kept| *kept = Some(interpreter));
    // Where the machine is now that the interpreter is in its place.
    INTERPRETER.with_borrow(|kept| {
        if let Some(interpreter) = kept {
            interpreter.enter(|vm| MACHINE.set(vm as *const VirtualMachine));
        }
    });
}

/// Runs `body` in the interpreter, starting it first if it is not, with the prelude's calls.
fn with_vm<R>(body: impl FnOnce(&VirtualMachine, &PyObjectRef, &PyObjectRef) -> R) -> R {
    if INTERPRETER.with_borrow(Option::is_none) {
        botlens_prepare();
    }
    let calls = PRELUDE_CALLS.with_borrow(Clone::clone);
    let Some((start, play)) = calls else { fail("the Python interpreter did not start", None) };
    INTERPRETER.with_borrow(|interpreter| {
        let Some(interpreter) = interpreter else {
            fail("the Python interpreter did not start", None)
        };
        interpreter.enter(|vm| body(vm, &start, &play))
    })
}

/// The module name the bot's code runs as: its file's stem, so that code under
/// `if __name__ == "__main__":` (an author's local test) does not run in a game.
fn module_name(file: &str) -> &str {
    let name = file.rsplit('/').next().unwrap_or(file);
    name.rsplit_once('.').map_or(name, |(stem, _)| stem)
}

/// Starts a game: the bot's source, compiled and run, and `Bot()`.
#[unsafe(no_mangle)]
pub extern "C" fn botlens_new(_seat: i32) {
    let (game, file, source) = payload("Python");
    set_bot_file(&file);
    with_vm(|vm, start, _| {
        let code = match vm.compile(&source, Mode::Exec, file.clone()) {
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
        let started = start.call((vm.ctx.new_str(game.as_str()), globals), vm);
        if let Err(exception) = started {
            fail_with(vm, exception);
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

/// One turn: `bot.play(turn)`.
#[unsafe(no_mangle)]
pub extern "C" fn botlens_play() {
    with_vm(|vm, _, play| {
        MOVED.set(false);
        // It returns the bot's `play`, for a turn without a move.
        match play.call((), vm) {
            Err(exception) => fail_with(vm, exception),
            Ok(returned) if !MOVED.get() => {
                if let Some(at) = definition(vm, &returned) {
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
