//! Log lines: text a bot writes during a turn, stored with that turn in the trace and shown by
//! the replayer and the editor's hovers.
//!
//! `println!` and `eprintln!` work too (on `wasm32-wasip1`, where stdout and stderr are captured
//! per turn); [`log`] also works in modules built without WASI.

/// Adds one line to this turn's log.
///
/// Output is capped per turn (see the sandbox limits); past the cap, lines are dropped and the
/// trace says how much was cut.
///
/// ```no_run
/// botlens_sdk::log("aiming at the carrier");
/// ```
pub fn log(line: &str) {
    crate::abi::log(line);
}

/// Formats and logs a line, like `println!`: `log!("shot {x},{y}: {shot:?}")`.
///
/// ```no_run
/// # let (x, y) = (3, 4);
/// botlens_sdk::log!("shooting at {x},{y}");
/// ```
#[macro_export]
macro_rules! log {
    ($($arg:tt)*) => {
        $crate::__private::log_fmt(::std::format_args!($($arg)*))
    };
}

thread_local! {
    /// The text of the line [`log!`] formats, reused line after line.
    static LINE: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// Formats and logs a line for [`log!`], into a buffer kept between lines (no allocation per
/// line once it is large enough).
pub fn log_fmt(args: std::fmt::Arguments<'_>) {
    if let Some(text) = args.as_str() {
        return log(text);
    }
    LINE.with(|line| match line.try_borrow_mut() {
        Ok(mut line) => {
            line.clear();
            std::fmt::Write::write_fmt(&mut *line, args).expect("formatting into a String");
            log(&line);
        }
        // A value being formatted logs a line itself: that one gets its own buffer.
        Err(_) => log(&std::fmt::format(args)),
    });
}
