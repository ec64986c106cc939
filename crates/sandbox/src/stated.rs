//! Where the guest says the bot is: a position (`botlens.position`) or a whole call stack
//! (`botlens.stack`), stated by a guest that knows the bot's source better than its DWARF does
//! (an interpreter knows the script's lines; its own DWARF only knows the interpreter's).
//!
//! A stack is text, one frame per line, innermost first, each `function<TAB>file<TAB>line<TAB>
//! column` (a line of 0: the frame has no known place). It is folded like a stack the host walks
//! itself (recursion into cycles, at most [`MAX_FRAMES`](botlens_engine::stack::MAX_FRAMES)
//! frames kept).

use botlens_engine::{CallStack, Failure, SourceLocation, StackFrame};

use crate::fold::Folder;
use crate::locate::recursion_site;
use crate::text;

/// The most bytes of a stated stack the host reads: a full stack of long names.
pub(crate) const MAX_STACK_BYTES: usize = 64 * 1024;

/// What the guest stated last in a turn: the bot's position and, if it stated a stack, the
/// frames around it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Stated {
    /// The innermost place stated.
    pub location: SourceLocation,
    /// The stack it is the innermost frame of, when the guest stated one.
    pub stack: Option<CallStack>,
}

impl Stated {
    /// A stated stack: at its innermost frame that has a place, or nothing if none has.
    pub fn from_stack(stack: CallStack) -> Option<Stated> {
        let location = stack.frames.iter().find_map(|frame| frame.location.clone())?;
        Some(Stated { location, stack: Some(stack) })
    }

    /// The stated stack, or one frame at the stated place (its function unnamed).
    pub fn into_stack(self) -> CallStack {
        self.stack.unwrap_or_else(|| CallStack {
            frames: vec![StackFrame {
                function: String::new(),
                location: Some(self.location),
                folded: 0,
                cycle: None,
            }],
            dropped: 0,
        })
    }

    /// `failure` located here, with the stated stack; a stack overflow whose stack folded into a
    /// recursion at its recursive call ([`crate::locate::recursion_site`]: a stated stack may
    /// be cut, so its count is a least).
    pub fn place(&self, failure: Failure) -> Failure {
        let mut message = failure.message;
        let recursion = self
            .stack
            .as_ref()
            .and_then(|stack| recursion_site(stack, failure.kind, &mut message, false));
        let location = recursion.unwrap_or_else(|| self.location.clone());
        Failure { message, stack: self.stack.clone(), ..failure }.at(Some(location))
    }
}

/// `failure` located where the guest stated, if it stated anything; else as it is.
pub(crate) fn place(stated: Option<&Stated>, failure: Failure) -> Failure {
    match stated {
        Some(stated) => stated.place(failure),
        None => failure,
    }
}

/// One frame of a stated stack: its function and, when it has one, its place; an error says
/// what is wrong with the line.
pub(crate) fn parse_frame(line: &str) -> Result<(String, Option<SourceLocation>), &'static str> {
    let fields: Vec<&str> = line.split('\t').collect();
    let [function, file, row, column] = fields[..] else {
        return Err("is not `function<TAB>file<TAB>line<TAB>column`");
    };
    let (Ok(row), Ok(column)) = (row.parse::<u32>(), column.parse::<u32>()) else {
        return Err("has a line or column that is not a number");
    };
    let location = (row > 0 && !file.is_empty()).then(|| SourceLocation {
        file: text::bounded_str(file, text::MAX_FILE_BYTES),
        line: row,
        column,
    });
    Ok((text::bounded_str(function, text::MAX_NAME_BYTES), location))
}

/// Reads a stated stack (see the module docs); an error names the line that is not a frame.
pub(crate) fn parse_stack(bytes: &[u8]) -> Result<CallStack, String> {
    let text = std::str::from_utf8(bytes).map_err(|error| {
        format!("stack: the text is not UTF-8 (at byte {})", error.valid_up_to())
    })?;
    let mut folder = Folder::default();
    for (index, line) in text.lines().enumerate().filter(|(_, line)| !line.is_empty()) {
        let (function, location) = parse_frame(line).map_err(|reason| {
            let line_text = text::bounded_str(line, text::MAX_NAME_BYTES);
            format!("stack: line {} {reason}: {line_text:?}", index + 1)
        })?;
        folder.bot(function, location);
    }
    Ok(folder.finish())
}

#[cfg(test)]
mod tests {
    use botlens_engine::FailureKind;

    use super::*;

    fn at(line: u32, column: u32) -> Option<SourceLocation> {
        Some(SourceLocation { file: "bot.js".into(), line, column })
    }

    #[test]
    fn a_stack_reads_innermost_first_and_is_placed_at_its_first_frame_with_a_place() {
        let stack = parse_stack(b"<native>\t\t0\t0\nshoot\tbot.js\t12\t9\nplay\tbot.js\t30\t5\n")
            .expect("a stack");
        let places: Vec<_> =
            stack.frames.iter().map(|f| (&f.function[..], f.location.clone())).collect();
        assert_eq!(places, [("<native>", None), ("shoot", at(12, 9)), ("play", at(30, 5))]);
        let stated = Stated::from_stack(stack.clone()).expect("a place");
        assert_eq!(Some(stated.location.clone()), at(12, 9));
        let failure = stated.place(Failure::new(FailureKind::IllegalMove, "no"));
        assert_eq!((failure.location, failure.stack), (at(12, 9), Some(stack.clone())));
        assert_eq!(stated.into_stack(), stack);
        let place = Stated { location: at(3, 1).unwrap(), stack: None }.into_stack();
        assert_eq!(place.frames.iter().map(|f| f.location.clone()).collect::<Vec<_>>(), [at(3, 1)]);
    }

    #[test]
    fn recursion_folds_and_a_stack_without_a_place_states_nothing() {
        let deep = "walk\tbot.js\t4\t3\n".repeat(1000);
        let stack = parse_stack(deep.as_bytes()).expect("a stack");
        assert_eq!(stack.frames.len(), 1, "{stack:?}");
        assert_eq!(stack.frames[0].cycle.map(|c| c.times), Some(1000));
        assert_eq!(Stated::from_stack(parse_stack(b"f\t\t0\t0").expect("a stack")), None);
        assert_eq!(Stated::from_stack(CallStack::default()), None);
    }

    #[test]
    fn a_line_that_is_not_a_frame_is_named() {
        let error = parse_stack(b"play\tbot.js\t3\t1\nplay bot.js:4:1\n").expect_err("refused");
        assert!(error.contains("line 2 is not `function<TAB>file<TAB>line<TAB>column`"), "{error}");
        let error = parse_stack(b"play\tbot.js\tthree\t1").expect_err("refused");
        assert!(error.contains("line 1 has a line or column that is not a number"), "{error}");
        let error = parse_stack(b"play\t\xff\t3\t1").expect_err("refused");
        assert!(error.contains("not UTF-8 (at byte 5)"), "{error}");
    }
}
