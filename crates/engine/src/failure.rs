//! Why a player lost a game by its own fault, and where in its source that happened.
//!
//! Not for game outcomes in general: a fair loss (fleet sunk, three in a row) is an
//! [`Ending`](crate::Ending), not a failure.

use std::fmt;

use serde::{Deserialize, Serialize};

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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<SourceLocation>,
}

impl Failure {
    /// A failure without a source location.
    pub fn new(kind: FailureKind, message: impl Into<String>) -> Self {
        Failure { kind, message: message.into(), location: None }
    }

    /// The same failure, located.
    pub fn at(mut self, location: Option<SourceLocation>) -> Self {
        self.location = location;
        self
    }
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
