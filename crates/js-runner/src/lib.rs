//! The JavaScript runner of botlens: QuickJS compiled to a WebAssembly bot module that plays a
//! bot written in the old arena's format (`function Bot() {…}`, `Bot.prototype.play =
//! function (turn) {…}`).
//!
//! The engine starts in [`botlens_prepare`] (docs/abi.md): the QuickJS runtime, a full context and
//! the prelude. The host calls it once per loaded runner and starts every game from the memory it
//! leaves, so a game pays only for its bot: `botlens_new` evaluates the bot's source and makes
//! `new Bot()`, `botlens_play` calls `play(turn)`.
//!
//! The bot's source is not part of this module: the host attaches it when it loads the runner
//! and the runner copies it in with `botlens.source` when a game starts, so one compiled runner
//! serves every JavaScript bot. The payload is the game's name and a newline, the length in
//! bytes of the bot's file name (as failures name it) and a newline, that file name, and the
//! source ([`split_payload`]).
//!
//! The module says `botlens_runner` (docs/abi.md): its locations come from the JavaScript
//! engine, not from DWARF. A losing move makes `act` return `-2`; the runner then states the
//! JavaScript stack of the `turn.attack`/`turn.mark` call with `botlens.stack` (the bot's frames,
//! innermost first), which ends the game there. After a move the game calls wasted
//! (`botlens.wasted`: a re-attack), it states that stack too, and the host keeps it for a player
//! that locates wasted moves; so every game runs the same code, located or not. An exception
//! (also a syntax error, and anything wrong with the bot's shape) goes to `botlens.panic` with its
//! message, its JavaScript stack (stated as well) and its position.
//!
//! A `play` that returns without a move states where that `play` function is defined (the
//! `no_move` is located there); one that returned a promise without a move (an `async play`)
//! fails there with a message saying the arena's format is synchronous. A long turn is watched: QuickJS's interrupt handler, once the
//! turn has burnt [`WATCH_AFTER`] units of fuel (the sandbox's clock counts them), states the
//! bot's stack every so often, so that the fuel trap of an endless loop is located where the bot
//! last was.
//!
//! The prelude's global `draw` (docs/javascript.md) makes one `botlens.draw` a call
//! ([`draw_mark`]): a runner's marks are located at the position it stated last, so the runner
//! states the bot's line that called `draw.*` (`botlens.position`) right before, and right after
//! states again what its last look stated (or forgets), so that a failure later in the turn is
//! located as it would be without the mark. Arguments are read without running the bot's code,
//! and what the ABI cannot take is handed on as a mark the host drops and counts; the calls are
//! the same whether the host records marks or not, as its fuel must be.
//!
//! `src/prelude.js` turns the botlens messages into the arena's `turn` objects. A turn's cost is
//! kept small (about 21,000 units of fuel for a bot that only moves): the view is received into a
//! reused buffer and handed to QuickJS as it is, a turn object holds only the view's text, and a
//! move of two integers is written here rather than by `JSON.stringify`.

use std::cell::{Cell, RefCell};

use botlens_runner_guest::{
    LOST, MAX_HEAT_VALUES, Position, SYNTAX_ERROR, abi, bot_file, fail, kind, payload, receive,
    set_bot_file, state,
};
use rquickjs::context::EvalOptions;
use rquickjs::{
    CatchResultExt, CaughtError, Context, Ctx, Function, Object, Persistent, Runtime, Value, qjs,
};

botlens_runner_guest::sections!(b"quickjs");

/// The arena's prelude, evaluated before the bot's source.
const PRELUDE: &str = include_str!("prelude.js");

/// The file name the prelude's frames carry.
const PRELUDE_FILE: &str = "botlens:prelude.js";

/// The JavaScript engine with the prelude evaluated: made by [`botlens_prepare`], once per
/// instance, before the bot's source is known.
struct Engine {
    /// Kept alive with the context.
    _runtime: Runtime,
    context: Context,
    /// The prelude's `__botlens_play`: one turn.
    play: Persistent<Function<'static>>,
}

thread_local! {
    static ENGINE: RefCell<Option<Engine>> = const { RefCell::new(None) };
    /// The bot's source, for the columns of calls ([`call_column`]).
    static SOURCE: RefCell<String> = const { RefCell::new(String::new()) };
    /// The state of `Math.random` (xorshift64*), seeded from WASI `random_get`.
    static RANDOM: Cell<u64> = const { Cell::new(0) };
    /// Whether the bot made a move (called `act`) in this turn.
    static MOVED: Cell<bool> = const { Cell::new(false) };
    /// The engine's context, for the interrupt handler (which is given no context).
    static RAW_CONTEXT: Cell<*mut qjs::JSContext> = const { Cell::new(std::ptr::null_mut()) };
    /// When the engine next reads the JavaScript stack (the fuel clock's reading).
    static WATCH: Cell<u64> = const { Cell::new(u64::MAX) };
    /// The stack the last look stated this turn (`botlens.stack`'s text; empty when it stated
    /// none, when no look did, or when a move forgot it): where the host places a failure it
    /// finds with no other location, until the turn's move.
    static LOOKED: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Fuel a turn burns before the runner first looks at where the bot is: eight times a simple
/// Battleships turn of the bundled template, so games that do not run long pay only the
/// interrupt handler's clock reads.
const WATCH_AFTER: u64 = 4_000_000;

/// How far apart the looks are: this many times the fuel the last look cost (reading the stack
/// costs about 20,000), so looking costs a long turn at most 1/64 of its fuel.
const LOOK_SPACING: u64 = 64;

/// The sandbox's clock (WASI monotonic): one nanosecond per unit of fuel burnt in the game.
fn fuel_clock() -> u64 {
    let mut now = 0u64;
    // SAFETY: `now` is valid for 8 bytes.
    unsafe { abi::clock_time_get(1, 1, &raw mut now) };
    now
}

/// Starts a turn's watch: the first look comes once the turn has burnt [`WATCH_AFTER`].
fn watch_turn() {
    WATCH.set(fuel_clock().saturating_add(WATCH_AFTER));
    LOOKED.take();
}

/// QuickJS's interrupt handler, called every 10,000 jumps and calls of the bot's code: once the
/// turn has run long, it reads the JavaScript stack every so often and states the bot's
/// frames with `botlens.stack`, so that a turn stopped by its fuel budget (an
/// endless loop) is located where the bot last was. Never interrupts.
fn look() -> bool {
    let now = fuel_clock();
    if now < WATCH.get() {
        return false;
    }
    // Not again until this look is over (reading the stack runs the engine).
    WATCH.set(u64::MAX);
    if let Some(stack) = engine_stack() {
        LOOKED.set(state_stack(&stack, false));
    }
    let after = fuel_clock();
    WATCH.set(after.saturating_add(after.saturating_sub(now).saturating_mul(LOOK_SPACING)));
    false
}

/// The JavaScript stack where the engine is now (`new Error().stack`, without evaluating
/// anything), if it can be read.
fn engine_stack() -> Option<String> {
    let ctx = RAW_CONTEXT.get();
    if ctx.is_null() {
        return None;
    }
    // SAFETY: `ctx` is the context of this game, alive as long as the instance; every value
    // made here is freed here, and an exception raised reading `stack` is taken and freed.
    unsafe {
        let error = qjs::JS_NewError(ctx);
        let stack = qjs::JS_GetPropertyStr(ctx, error, c"stack".as_ptr());
        let mut len = 0usize;
        let text = qjs::JS_ToCStringLen(ctx, &raw mut len, stack);
        let read = (!text.is_null()).then(|| {
            let bytes = std::slice::from_raw_parts(text.cast::<u8>(), len);
            String::from_utf8_lossy(bytes).into_owned()
        });
        if text.is_null() {
            qjs::JS_FreeValue(ctx, qjs::JS_GetException(ctx));
        } else {
            qjs::JS_FreeCString(ctx, text);
        }
        qjs::JS_FreeValue(ctx, stack);
        qjs::JS_FreeValue(ctx, error);
        read
    }
}

/// `botlens.stack`: the bot's frames of the QuickJS stack `stack`, innermost first (docs/abi.md:
/// `function<TAB>file<TAB>line<TAB>column` per line), each caller's column at its call
/// ([`call_column`]), and the innermost frame's too when `at_call` (a move the bot called).
/// Returns the text stated: empty when the stack had no frame of the bot's.
fn state_stack(stack: &str, at_call: bool) -> String {
    let frames = bot_frames(stack, at_call);
    let mut text = String::new();
    for frame in &frames {
        let Position { file, line, column } = &frame.at;
        text.push_str(&format!("{}\t{file}\t{line}\t{column}\n", frame.function));
    }
    // SAFETY: the text is a live string.
    unsafe { abi::stack(text.as_ptr(), text.len()) };
    text
}

/// Where the call that QuickJS places at `column` of `line` begins: the name of the function
/// called (`attack` of `turn.attack(x + 1, y)`), or its `(` when it has none, rather than the
/// last argument, where QuickJS's position of a call is. The text from the call's `(` to the
/// position is taken as it is (brackets balanced, strings not read); `None` when no call
/// encloses the position on its line, or the line is not ASCII (QuickJS's columns and these
/// would count differently).
fn call_column(line: &str, column: u32) -> Option<u32> {
    if !line.is_ascii() {
        return None;
    }
    let bytes = line.as_bytes();
    let mut at = usize::try_from(column).ok()?.checked_sub(1)?.min(bytes.len());
    // Already at a call's name (QuickJS places a call whose arguments are literals there).
    let is_name = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'$';
    let name_end = at + bytes[at..].iter().take_while(|b| is_name(b)).count();
    let starts_name = at == 0 || !is_name(&bytes[at - 1]);
    if name_end > at
        && starts_name
        && bytes[name_end..].iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'(')
    {
        return None;
    }
    let mut depth = 0usize;
    let open = loop {
        at = at.checked_sub(1)?;
        match bytes[at] {
            b')' | b']' | b'}' => depth += 1,
            b'(' if depth == 0 => break at,
            b'[' | b'{' if depth == 0 => return None,
            b'(' | b'[' | b'{' => depth -= 1,
            _ => {}
        }
    };
    let name_end =
        bytes[..open].iter().rposition(|b| !b.is_ascii_whitespace()).map_or(0, |i| i + 1);
    let name_start = bytes[..name_end].iter().rposition(|b| !is_name(b)).map_or(0, |i| i + 1);
    let start = if name_start < name_end { name_start } else { open };
    u32::try_from(start + 1).ok()
}

/// `at` with its column at the call that encloses it ([`call_column`]), when one does.
fn at_call(at: Position) -> Position {
    let column = SOURCE.with_borrow(|source| {
        let line = source.lines().nth(usize::try_from(at.line).ok()?.checked_sub(1)?)?;
        call_column(line, at.column)
    });
    Position { column: column.unwrap_or(at.column), ..at }
}

/// Forgets a position a look stated this turn, before a move, so that a failure the host finds
/// in the move is not placed where the bot was long before.
fn forget_look() {
    if !LOOKED.take().is_empty() {
        // SAFETY: an empty file name; a line of 0 forgets the position.
        unsafe { abi::position(std::ptr::null(), 0, 0, 0) };
    }
}

/// A message from the host as a JavaScript string (QuickJS reads the UTF-8 the host writes).
fn js_string<'js>(ctx: &Ctx<'js>, bytes: &[u8]) -> Value<'js> {
    // SAFETY: the bytes are live for the call, and the value made is owned by the `Value`.
    unsafe {
        let raw =
            qjs::JS_NewStringLen(ctx.as_raw().as_ptr(), bytes.as_ptr().cast(), bytes.len() as _);
        Value::from_raw(ctx.clone(), raw)
    }
}

/// A frame of the bot's file on a QuickJS stack.
struct Frame {
    /// The function as QuickJS names it (`<anonymous>` for a function without a name).
    function: String,
    at: Position,
}

/// The frames of the bot's file in a QuickJS stack, innermost first, where QuickJS places them:
/// `    at play (bot.js:12:9)`, or `    at bot.js:4:17` for a place in no function (a syntax
/// error's). Read as they are asked for.
fn placed_frames(stack: &str) -> impl Iterator<Item = Frame> + '_ {
    let file = bot_file();
    let in_function = format!(" ({file}:");
    let bare = format!("{file}:");
    stack.lines().filter_map(move |line| {
        let line = line.trim().strip_prefix("at ")?;
        let (function, place) = match line.find(&in_function) {
            Some(open) => (&line[..open], line[open + in_function.len()..].strip_suffix(')')?),
            None => ("", line.strip_prefix(&bare)?),
        };
        let (row, column) = place.split_once(':')?;
        let at =
            Position { file: file.clone(), line: row.parse().ok()?, column: column.parse().ok()? };
        Some(Frame { function: function.trim().to_owned(), at })
    })
}

/// The frames of the bot's file in a QuickJS stack, innermost first ([`placed_frames`]). Each
/// caller's column is moved to its call ([`at_call`]), and the innermost frame's when
/// `innermost_call`.
fn bot_frames(stack: &str, innermost_call: bool) -> Vec<Frame> {
    placed_frames(stack)
        .enumerate()
        .map(|(index, Frame { function, at })| {
            let at = if index > 0 || innermost_call { at_call(at) } else { at };
            Frame { function, at }
        })
        .collect()
}

/// The innermost frame of the bot's file in a QuickJS stack.
fn bot_frame(stack: &str) -> Option<Position> {
    placed_frames(stack).next().map(|frame| frame.at)
}

/// The bot's frames of a stack, one `at …` per line, for messages: the file by its name alone
/// (the failure's location has the full path), so messages read the same on every machine, and
/// each caller at its call ([`bot_frames`]).
fn bot_stack(stack: &str) -> String {
    let file = bot_file();
    let short = file.rsplit('/').next().unwrap_or(&file).to_owned();
    bot_frames(stack, false)
        .iter()
        .map(|Frame { function, at }| match function.as_str() {
            "" => format!("\n    at {short}:{}:{}", at.line, at.column),
            function => format!("\n    at {function} ({short}:{}:{})", at.line, at.column),
        })
        .collect()
}

/// Ends the game with the JavaScript error `caught`, located at its innermost frame in the
/// bot's file. `parsing`: `caught` comes from evaluating the bot's source, where a
/// `SyntaxError` raised at the source's own frame (not inside a function it called) is the
/// parser's.
fn fail_with<'js>(ctx: &Ctx<'js>, caught: CaughtError<'js>, parsing: bool) -> ! {
    match caught {
        CaughtError::Exception(exception) => {
            let name: String = exception.get("name").unwrap_or_else(|_| "Error".into());
            let message = exception.message().unwrap_or_default();
            let stack = exception.stack().unwrap_or_default();
            let at = bot_frame(&stack);
            let first_is_bot =
                stack.lines().next().is_some_and(|line| !bot_frames(line, false).is_empty());
            if parsing && name == "SyntaxError" && first_is_bot {
                fail(&format!("{SYNTAX_ERROR}{message}"), at)
            }
            let text = format!("uncaught {name}: {message}{}", bot_stack(&stack));
            // The failure, at the stack's innermost bot frame, carries the stack.
            state_stack(&stack, false);
            fail(&text, at)
        }
        CaughtError::Value(value) => {
            let text = describe(ctx, value);
            fail(
                &format!("uncaught exception: {text} (not an Error, so no JavaScript stack)"),
                None,
            )
        }
        CaughtError::Error(error) => fail(&format!("the JavaScript engine failed: {error}"), None),
    }
}

/// A thrown value that is not an `Error`, as JavaScript's `String(value)` writes it.
fn describe<'js>(ctx: &Ctx<'js>, value: Value<'js>) -> String {
    let string: rquickjs::Result<Function> = ctx.globals().get("String");
    string
        .and_then(|string| string.call::<_, String>((value,)))
        .unwrap_or_else(|_| "a value that cannot be printed".into())
}

/// `Math.random`: the next number of the bot's stream, in `[0, 1)`.
fn random() -> f64 {
    RANDOM.with(|state| {
        let mut x = state.get();
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        state.set(x);
        (x.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    })
}

/// Seeds `Math.random` from the game's bot stream (WASI `random_get`).
fn seed_random() {
    let mut bytes = [0u8; 8];
    // SAFETY: the buffer is valid for 8 bytes.
    unsafe { abi::random_get(bytes.as_mut_ptr(), bytes.len()) };
    RANDOM.with(|state| state.set(u64::from_le_bytes(bytes) | 1));
}

/// `host.act(json)`: the move, and the game's answer as JSON.
fn act<'js>(ctx: Ctx<'js>, message: String) -> rquickjs::Result<Value<'js>> {
    send(&ctx, message.as_bytes())
}

/// `host.actAt(x, y)`: [`act`] with the move `{"x":x,"y":y}`.
fn act_at(ctx: Ctx<'_>, x: i32, y: i32) -> rquickjs::Result<Value<'_>> {
    let mut message = Text::default();
    message.push(b"{\"x\":");
    message.decimal(x);
    message.push(b",\"y\":");
    message.decimal(y);
    message.push(b"}");
    send(&ctx, message.bytes())
}

/// A short message, written without allocating.
#[derive(Default)]
struct Text {
    bytes: [u8; 32],
    len: usize,
}

impl Text {
    /// Appends `part`.
    fn push(&mut self, part: &[u8]) {
        self.bytes[self.len..self.len + part.len()].copy_from_slice(part);
        self.len += part.len();
    }

    /// Appends `n` in decimal.
    fn decimal(&mut self, n: i32) {
        if n < 0 {
            self.push(b"-");
        }
        let mut digits = [0u8; 10];
        let mut at = digits.len();
        let mut rest = n.unsigned_abs();
        loop {
            at -= 1;
            digits[at] = b'0' + (rest % 10) as u8;
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        self.push(&digits[at..]);
    }

    fn bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

/// Makes the move `message`, and returns the game's answer. A losing move is located at the
/// bot's frame on the JavaScript stack, and the host ends the game there.
fn send<'js>(ctx: &Ctx<'js>, message: &[u8]) -> rquickjs::Result<Value<'js>> {
    MOVED.set(true);
    forget_look();
    let mut lost = false;
    let copy = |out, cap| {
        // SAFETY: the message and the buffer are live for the call.
        let len = unsafe { abi::act(message.as_ptr(), message.len(), out, cap) };
        lost = len == LOST;
        len
    };
    let answer = receive(copy, |answer| js_string(ctx, answer));
    // SAFETY: an import without arguments.
    if lost || unsafe { abi::wasted() } == 1 {
        // A lost move: does not return when the stack has a bot frame. A wasted one: the host
        // keeps where it was made, for a player that locates wasted moves.
        state_stack(&engine_stack().unwrap_or_default(), true);
    }
    if lost {
        return Err(rquickjs::Exception::throw_message(ctx, "the move lost the game"));
    }
    Ok(answer.unwrap_or_else(|| js_string(ctx, b"")))
}

/// Where `play`, the bot's `play` function, is defined (QuickJS's `fileName`, `lineNumber` and
/// `columnNumber` of a function), when that is in the bot's file: a `play` that returned
/// without a move loses with `no_move` there (stated), an `async` one with [`ASYNC_PLAY`].
fn definition(play: &Value<'_>) -> Option<Position> {
    let play = play.as_object()?;
    let number = |key: &str| play.get::<_, i32>(key).ok().and_then(|n| u32::try_from(n).ok());
    let file = play.get::<_, String>("fileName").ok()?;
    let line = number("lineNumber").filter(|line| *line > 0)?;
    (file == bot_file()).then(|| Position {
        file,
        line,
        column: number("columnNumber").unwrap_or(0),
    })
}

/// Why a `play` that returned a promise without a move loses.
const ASYNC_PLAY: &str = "`play` returned a Promise (is it `async`?) without making a move: the \
    arena's format is synchronous, so the move must be made before `play` returns; make `play` a \
    plain function (no `async`, no `await`)";

/// The runner's native functions, handed to the prelude as `__botlens_host`.
fn host_functions<'js>(ctx: &Ctx<'js>) -> rquickjs::Result<Object<'js>> {
    let host = Object::new(ctx.clone())?;
    host.set(
        "view",
        Function::new(ctx.clone(), |ctx: Ctx<'js>| {
            // SAFETY: `receive` hands a valid buffer.
            let copy = |out, cap| unsafe { abi::view(out, cap) };
            let view = receive(copy, |view| js_string(&ctx, view));
            view.unwrap_or_else(|| js_string(&ctx, b""))
        })?,
    )?;
    host.set("act", Function::new(ctx.clone(), act)?)?;
    host.set("actAt", Function::new(ctx.clone(), act_at)?)?;
    host.set(
        "log",
        Function::new(ctx.clone(), |line: String| {
            // SAFETY: the line is a live string.
            unsafe { abi::log(line.as_ptr(), line.len()) }
        })?,
    )?;
    host.set("random", Function::new(ctx.clone(), random)?)?;
    host.set("draw", Function::new(ctx.clone(), draw)?)?;
    host.set("drawHeat", Function::new(ctx.clone(), draw_heat)?)?;
    Ok(host)
}

/// `host.draw(kind, x, y, toX, toY, colour, text)`: one `botlens.draw` ([`draw_mark`]), `text` a
/// string or `null` (the prelude makes it one). The mark is dropped when a coordinate or the
/// colour is not a finite number, or a label or status line has no text.
#[allow(clippy::too_many_arguments)] // the ABI's arguments
fn draw<'js>(
    kind: i32,
    x: Value<'js>,
    y: Value<'js>,
    to_x: Value<'js>,
    to_y: Value<'js>,
    colour: Value<'js>,
    text: Option<String>,
) {
    let numbers = [x, y, to_x, to_y, colour].map(|n| n.as_number().filter(|n| n.is_finite()));
    let text_missing = text.is_none() && matches!(kind, kind::LABEL | kind::STATUS);
    let [Some(x), Some(y), Some(to_x), Some(to_y), Some(colour)] = numbers else {
        return draw_mark(kind::DROPPED, [0; 4], 0, &[]);
    };
    if text_missing {
        return draw_mark(kind::DROPPED, [0; 4], 0, &[]);
    }
    // `as` truncates towards zero and saturates; the colour wraps as JavaScript's `>>> 0` does.
    let at = [x as i32, y as i32, to_x as i32, to_y as i32];
    draw_mark(kind, at, colour as i64 as u32, text.unwrap_or_default().as_bytes());
}

/// `host.drawHeat(width, values)`: a heat map of `values` (an array or typed array, else
/// `null`), each value a number or NaN (its cell unshaded). The map is dropped when `width` is
/// not a finite number, `values` is `null` or has no whole length, or it has more than
/// [`MAX_HEAT_VALUES`] (not read, however long it is).
fn draw_heat<'js>(width: Value<'js>, values: Option<Object<'js>>) -> rquickjs::Result<()> {
    let count = match &values {
        Some(values) => values.get::<_, Value>("length")?.as_number(),
        None => None,
    };
    let count = count.filter(|n| (0.0..=MAX_HEAT_VALUES as f64).contains(n) && n.fract() == 0.0);
    let width = width.as_number().filter(|n| n.is_finite());
    let (Some(values), Some(count), Some(width)) = (values, count, width) else {
        draw_mark(kind::DROPPED, [0; 4], 0, &[]);
        return Ok(());
    };
    let mut bytes = Vec::with_capacity(count as usize * 4);
    for index in 0..count as u32 {
        let value = values.get::<_, Value>(index)?.as_number().unwrap_or(f64::NAN);
        bytes.extend_from_slice(&(value as f32).to_le_bytes());
    }
    draw_mark(kind::HEAT, [width as i32, 0, 0, 0], 0, &bytes);
    Ok(())
}

/// `botlens.draw` of a mark located at the bot's call: the runner states the innermost frame of
/// the bot's file on the JavaScript stack (`botlens.position`, which a runner's marks are located
/// at) right before, then states again what the turn's last look stated (nothing: forgets), so
/// a failure later in the turn is located as it would be without the mark.
fn draw_mark(kind: i32, [x, y, to_x, to_y]: [i32; 4], colour: u32, bytes: &[u8]) {
    let stack = engine_stack().unwrap_or_default();
    let at = placed_frames(&stack).next().map(|frame| at_call(frame.at));
    let (file, line, column) =
        at.as_ref().map_or(("", 0, 0), |at| (&at.file[..], at.line, at.column));
    // SAFETY: the file name and the bytes are live for the calls.
    unsafe {
        abi::position(file.as_ptr(), file.len(), line, column);
        abi::draw(kind, x, y, to_x, to_y, colour, bytes.as_ptr(), bytes.len());
    }
    LOOKED.with_borrow(|looked| {
        // SAFETY: the text is a live string.
        unsafe { abi::stack(looked.as_ptr(), looked.len()) }
    });
}

/// Evaluates `source` as a global script named `file`.
fn eval<'js>(ctx: &Ctx<'js>, source: &str, file: &str) -> Result<(), CaughtError<'js>> {
    let mut options = EvalOptions::default();
    options.global = true;
    options.strict = false;
    options.filename = Some(file.to_owned());
    ctx.eval_with_options::<(), _>(source, options).catch(ctx)
}

/// Starts the engine and evaluates the prelude: everything a game needs before the bot's source.
/// The host calls it once per loaded runner and starts every game from the memory it leaves
/// (docs/abi.md, `botlens_prepare`), so no game pays for it; a host that does not is served by
/// [`botlens_new`], which calls it first.
#[unsafe(no_mangle)]
pub extern "C" fn botlens_prepare() {
    let engine = Runtime::new().and_then(|runtime| Ok((Context::full(&runtime)?, runtime)));
    let Ok((context, runtime)) = engine else {
        fail("the JavaScript engine could not start", None)
    };
    runtime.set_interrupt_handler(Some(Box::new(look)));
    let play = context.with(|ctx| {
        RAW_CONTEXT.set(ctx.as_raw().as_ptr());
        let set_up = host_functions(&ctx)
            .and_then(|host| ctx.globals().set("__botlens_host", host))
            .catch(&ctx);
        if let Err(caught) = set_up.and_then(|()| eval(&ctx, PRELUDE, PRELUDE_FILE)) {
            fail_with(&ctx, caught, false);
        }
        let play: rquickjs::Result<Function> = ctx.globals().get("__botlens_play");
        match play.catch(&ctx) {
            Ok(play) => Persistent::save(&ctx, play),
            Err(caught) => fail_with(&ctx, caught, false),
        }
    });
    ENGINE.with_borrow_mut(|engine| *engine = Some(Engine { _runtime: runtime, context, play }));
}

/// Runs `body` in the engine's context, starting the engine first if it is not.
fn with_engine<R>(body: impl FnOnce(&Engine, Ctx<'_>) -> R) -> R {
    if ENGINE.with_borrow(Option::is_none) {
        botlens_prepare();
    }
    ENGINE.with_borrow(|engine| {
        let Some(engine) = engine else { fail("the JavaScript engine did not start", None) };
        engine.context.with(|ctx| body(engine, ctx))
    })
}

/// Starts a game: the bot's source and `new Bot()`.
#[unsafe(no_mangle)]
pub extern "C" fn botlens_new(_seat: i32) {
    let (game, file, source) = payload("JavaScript");
    set_bot_file(&file);
    SOURCE.with_borrow_mut(|s| s.clone_from(&source));
    seed_random();
    with_engine(|_, ctx| {
        // Starting the engine is not the bot's time: the watch starts with its source.
        watch_turn();
        if let Err(caught) = eval(&ctx, &source, &file) {
            fail_with(&ctx, caught, true);
        }
        let start: rquickjs::Result<Function> = ctx.globals().get("__botlens_start");
        let started = start.and_then(|start| start.call::<_, ()>((game.as_str(),)));
        if let Err(caught) = started.catch(&ctx) {
            fail_with(&ctx, caught, false);
        }
    });
}

/// One turn: `bot.play(turn)`.
#[unsafe(no_mangle)]
pub extern "C" fn botlens_play() {
    watch_turn();
    with_engine(|engine, ctx| {
        MOVED.set(false);
        // It returns the bot's `play` function, for a turn without a move (in an array when
        // `play` returned a promise).
        let played = engine.play.clone().restore(&ctx).and_then(|play| play.call::<_, Value>(()));
        match played.catch(&ctx) {
            Err(caught) => fail_with(&ctx, caught, false),
            Ok(returned) if !MOVED.get() => match returned.as_array() {
                Some(promised) => {
                    fail(ASYNC_PLAY, promised.get(0).ok().and_then(|p| definition(&p)))
                }
                None => {
                    if let Some(at) = definition(&returned) {
                        state(&at);
                    }
                }
            },
            Ok(_) => {}
        }
    });
}

/// After a trap that gave the runner no chance to say where the bot was (the WebAssembly stack
/// ran out in an endless recursion, the memory limit refused the engine a growth), the host calls
/// this (docs/abi.md, `botlens_where`): it states the JavaScript stack the engine still holds,
/// the bot's frames where the trap stopped it. It reads no borrowed state of this runner, which
/// the trap may have left borrowed.
#[unsafe(no_mangle)]
pub extern "C" fn botlens_where() {
    deepen_stacks();
    if let Some(stack) = engine_stack() {
        state_stack(&stack, false);
    }
}

/// The frames a stack the engine writes holds: QuickJS's 10 by default (`Error.stackTraceLimit`),
/// enough for a failure's own frames, too few to count a recursion; after a trap, as many as a
/// stated stack keeps.
const DEEP_STACK_FRAMES: &core::ffi::CStr = c"1000";

/// Sets `Error.stackTraceLimit` to [`DEEP_STACK_FRAMES`], without evaluating anything.
fn deepen_stacks() {
    let ctx = RAW_CONTEXT.get();
    if ctx.is_null() {
        return;
    }
    // SAFETY: `ctx` is the context of this game, alive as long as the instance; the limit's
    // value is handed to `JS_SetPropertyStr`, which frees it, and the others are freed here.
    unsafe {
        let global = qjs::JS_GetGlobalObject(ctx);
        let error = qjs::JS_GetPropertyStr(ctx, global, c"Error".as_ptr());
        let frames = DEEP_STACK_FRAMES.to_bytes();
        let limit =
            qjs::JS_ParseJSON(ctx, DEEP_STACK_FRAMES.as_ptr(), frames.len() as _, c"".as_ptr());
        qjs::JS_SetPropertyStr(ctx, error, c"stackTraceLimit".as_ptr(), limit);
        qjs::JS_FreeValue(ctx, error);
        qjs::JS_FreeValue(ctx, global);
    }
}
