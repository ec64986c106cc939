//! Why a player lost a game by its own fault, where in its source that happened (its call
//! stack, see [`crate::stack`]), and the identity that says two failures are the same bug even
//! after the lines above it moved.
//!
//! Not for game outcomes in general: a fair loss (fleet sunk, three in a row) is an
//! [`Ending`](crate::Ending), not a failure.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::stack::CallStack;

/// The kinds of fault that lose a game. Serialized in `snake_case` (`illegal_move`, …), which is
/// also the diagnostic code the language server shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// An action the rules forbid (out of range, occupied square, blocked slide, …).
    IllegalMove,
    /// The bot panicked.
    Panic,
    /// The bot trapped (unreachable, division by zero, out-of-bounds access, …).
    Trap,
    /// The bot used up its fuel budget for the turn or for the game.
    OutOfFuel,
    /// The bot tried to grow its memory past the cap.
    MemoryLimit,
    /// The bot exhausted the wasm stack.
    StackOverflow,
    /// The bot's turn ended without an action.
    NoMove,
    /// The bot tried a second action in one turn.
    SecondMove,
    /// The module is not a usable bot: not wasm, missing export, wrong signature, ABI mismatch.
    BadModule,
    /// A message from the bot could not be decoded.
    MalformedMessage,
    /// The wall-clock backstop stopped the bot (only when fuel did not catch it first).
    Timeout,
}

impl FailureKind {
    /// Every kind, in declaration order.
    pub const ALL: [FailureKind; 11] = [
        FailureKind::IllegalMove,
        FailureKind::Panic,
        FailureKind::Trap,
        FailureKind::OutOfFuel,
        FailureKind::MemoryLimit,
        FailureKind::StackOverflow,
        FailureKind::NoMove,
        FailureKind::SecondMove,
        FailureKind::BadModule,
        FailureKind::MalformedMessage,
        FailureKind::Timeout,
    ];

    /// The `snake_case` name used in JSON, diagnostics and the CLI.
    pub fn as_str(self) -> &'static str {
        match self {
            FailureKind::IllegalMove => "illegal_move",
            FailureKind::Panic => "panic",
            FailureKind::Trap => "trap",
            FailureKind::OutOfFuel => "out_of_fuel",
            FailureKind::MemoryLimit => "memory_limit",
            FailureKind::StackOverflow => "stack_overflow",
            FailureKind::NoMove => "no_move",
            FailureKind::SecondMove => "second_move",
            FailureKind::BadModule => "bad_module",
            FailureKind::MalformedMessage => "malformed_message",
            FailureKind::Timeout => "timeout",
        }
    }
}

impl fmt::Display for FailureKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A place in a bot's own source code (1-based line and column, as compilers print them).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SourceLocation {
    /// The source file path as recorded in the bot's debug info.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column; 0 when unknown.
    pub column: u32,
}

impl fmt::Display for SourceLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.column > 0 {
            write!(f, "{}:{}:{}", self.file, self.line, self.column)
        } else {
            write!(f, "{}:{}", self.file, self.line)
        }
    }
}

/// A fault that lost a game: its kind, a human message and, when known, the source location.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failure {
    /// What went wrong.
    pub kind: FailureKind,
    /// One line for humans, e.g. `attack(10, 3): x out of range 0..=9`.
    pub message: String,
    /// Where in the bot's own crate it happened, skipping std/core/alloc/SDK frames.
    /// For a stack overflow, the recursive call to change rather than the frame that ran out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<SourceLocation>,
    /// The bot's frames when it failed, innermost first (traces of format 1 have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stack: Option<CallStack>,
}

impl Failure {
    /// A failure without a source location.
    pub fn new(kind: FailureKind, message: impl Into<String>) -> Self {
        Failure { kind, message: message.into(), location: None, stack: None }
    }

    /// The same failure, located.
    pub fn at(mut self, location: Option<SourceLocation>) -> Self {
        self.location = location;
        self
    }

    /// The same failure with its call stack.
    pub fn with_stack(mut self, stack: Option<CallStack>) -> Self {
        self.stack = stack;
        self
    }

    /// What makes this failure the same bug in another build of the bot: its kind, the bot
    /// functions on its stack and the shape of its message ([`message_shape`]), never a line
    /// or a column, so deleting lines above the bug keeps it. Without a stack the functions
    /// are left out (the location then tells failures apart where it must, see the harness's
    /// baseline comparison). A 16-digit hexadecimal digest, stable across platforms and
    /// versions (FNV-1a of the parts).
    pub fn identity(&self) -> String {
        let functions = self.stack.iter().flat_map(CallStack::functions);
        let shape = message_shape(&self.message);
        digest([self.kind.as_str()].into_iter().chain(functions).chain([shape.as_str()]))
    }
}

/// A 16-digit hexadecimal digest of a sequence of strings, stable across platforms and
/// versions: 64-bit FNV-1a, each string followed by a zero byte (so `["ab", "c"]` and
/// `["a", "bc"]` differ). For identities a report keeps and compares across runs
/// ([`Failure::identity`], the fingerprints of code-scanning results); not for secrets.
///
/// ```
/// use botlens_engine::failure::digest;
///
/// assert_eq!(digest(["a"]).len(), 16);
/// assert_ne!(digest(["ab", "c"]), digest(["a", "bc"]));
/// ```
pub fn digest<'a>(parts: impl IntoIterator<Item = &'a str>) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for byte in part.bytes().chain([0]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("{hash:016x}")
}

/// A message with what varies from game to game abstracted: numbers (decimal and `0x…`) become
/// `#` and quoted values (`"…"`, `'…'`) become `"…"`, so `attack(10, 3): x out of range` and
/// `attack(10, 7): x out of range` have one shape. Code in backticks is kept: it names what
/// failed (`` `Option::unwrap()` ``).
///
/// ```
/// use botlens_engine::failure::message_shape;
///
/// assert_eq!(message_shape("attack(10, 3): x out of range"), "attack(#, #): x out of range");
/// assert_eq!(message_shape("bad name \"bob\" at 0x1f"), "bad name \"…\" at #");
/// ```
pub fn message_shape(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut chars = message.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '0'..='9' => {
                let hex = c == '0' && chars.peek() == Some(&'x');
                if hex {
                    chars.next();
                }
                let digit =
                    |d: &char| d.is_ascii_digit() || *d == '_' || (hex && d.is_ascii_hexdigit());
                while chars.peek().is_some_and(digit) {
                    chars.next();
                }
                out.push('#');
            }
            '"' | '\'' => {
                let rest: String = chars.clone().collect();
                match rest.find(c) {
                    // An apostrophe inside a word (`don't`) is not a quote.
                    Some(end) if c == '"' || !out.ends_with(|p: char| p.is_alphanumeric()) => {
                        for _ in rest[..end].chars() {
                            chars.next();
                        }
                        chars.next();
                        out.push(c);
                        out.push('…');
                        out.push(c);
                    }
                    _ => out.push(c),
                }
            }
            _ => out.push(c),
        }
    }
    out
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind, self.message)?;
        if let Some(location) = &self.location {
            write!(f, " at {location}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Failure {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stack::StackFrame;

    fn located(message: &str, functions: &[&str], line: u32) -> Failure {
        let at = |line| Some(SourceLocation { file: "src/lib.rs".into(), line, column: 9 });
        let frames = functions
            .iter()
            .map(|f| StackFrame {
                function: (*f).into(),
                location: at(line),
                folded: 0,
                cycle: None,
            })
            .collect();
        Failure::new(FailureKind::IllegalMove, message)
            .at(at(line))
            .with_stack(Some(CallStack { frames, dropped: 0 }))
    }

    #[test]
    fn numbers_and_quoted_values_are_abstracted_but_words_and_code_are_not() {
        assert_eq!(message_shape("attack(10, 7): x out of range"), "attack(#, #): x out of range");
        assert_eq!(message_shape("grew to 67108864 bytes"), "grew to # bytes");
        assert_eq!(message_shape("at 0xdeadbeef+12"), "at #+#");
        assert_eq!(message_shape("cell 3a"), "cell #a");
        assert_eq!(message_shape("name 'bob' isn't \"it\""), "name '…' isn't \"…\"");
        assert_eq!(message_shape("an unclosed \" quote 5"), "an unclosed \" quote #");
        assert_eq!(
            message_shape("called `Option::unwrap()` on a `None` value"),
            "called `Option::unwrap()` on a `None` value"
        );
    }

    #[test]
    fn identity_survives_moved_lines_and_other_numbers_but_not_other_functions() {
        let here = located("attack(10, 3): x out of range", &["bot::aim", "bot::play"], 141);
        let moved = located("attack(10, 7): x out of range", &["bot::aim", "bot::play"], 139);
        assert_eq!(here.identity(), moved.identity());
        // Saved baselines hold identities: the digest of these parts never changes.
        assert_eq!(here.identity(), "e19c04069b07e981");
        let elsewhere = located("attack(10, 3): x out of range", &["bot::guess", "bot::play"], 141);
        assert_ne!(here.identity(), elsewhere.identity());
        let other_kind = Failure { kind: FailureKind::Panic, ..here.clone() };
        assert_ne!(here.identity(), other_kind.identity());
        let other_words = located("attack(10, 3): y out of range", &["bot::aim", "bot::play"], 141);
        assert_ne!(here.identity(), other_words.identity());
    }

    #[test]
    fn a_failure_without_a_stack_reads_from_format_one() {
        let json =
            r#"{"kind":"panic","message":"boom","location":{"file":"a.rs","line":3,"column":0}}"#;
        let failure: Failure = serde_json::from_str(json).unwrap();
        assert_eq!(failure.stack, None);
        assert_eq!(failure.location.unwrap().line, 3);
    }
}
