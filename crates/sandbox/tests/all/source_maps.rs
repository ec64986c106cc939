//! Source maps as line tables (`docs/abi.md`, `botlens_source_map`): a module without DWARF whose
//! source map puts its code in a bot's `.ts` files gets its failures and call stacks located
//! there, AssemblyScript's `~lib/` and the `botlens_sdk` files skipped. The maps are made here
//! with the `sourcemap` crate, from the module offsets wasmparser reads: each operator of a
//! function body maps to the next line of that function's file.

use botlens_engine::{Failure, FailureKind};
use botlens_sandbox::{LoadError, SandboxLimits};

use crate::support::{fault, play, sandbox};

/// Where the functions of [`bot`] come from, in order of definition: the file (under the map's
/// `sourceRoot`, `/bots/mine`) and the line of the body's first operator.
const FILES: [(&str, u32); 4] =
    [("~lib/array.ts", 100), ("/sdk/botlens.ts", 40), ("bot.ts", 5), ("bot.ts", 20)];

/// A Tic-tac-toe bot whose `bot/play` calls `bot/pick`, which calls the SDK's `mark` (which
/// calls `act`) with the column `$get` (the standard library's) returns, on row 0; `trap` makes
/// `$get` trap (an index out of bounds), `square` is the column it returns, `panic` makes
/// `bot/pick` call `botlens.panic` (with no location) before it marks; without `moves`,
/// `bot/play` calls nothing (a `nop` instead).
fn bot(trap: bool, square: u32, panic: bool, moves: bool) -> Vec<u8> {
    let play = if moves { "call $bot/pick" } else { "nop" };
    let get = if trap { "unreachable" } else { "nop" };
    let panic = if panic {
        "(call $panic (i32.const 0) (i32.const 4) (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 0))"
    } else {
        "nop"
    };
    let wat = format!(
        r#"(module
  (import "botlens" "act" (func $act (param i32 i32 i32 i32) (result i32)))
  (import "botlens" "panic" (func $panic (param i32 i32 i32 i32 i32 i32)))
  (memory (export "memory") 1)
  (@custom "botlens_abi" "1")
  (@custom "botlens_sdk" "/sdk/botlens.ts")
  (data (i32.const 0) "oops")
  (data (i32.const 256) "{{\"x\":0,\"y\":0}}")
  (func $~lib/array/get (result i32) {get} i32.const {square})
  (func $~lib/botlens/mark (param $i i32)
    i32.const 0
    local.get $i
    i32.const 48
    i32.add
    i32.store8 offset=261
    (drop (call $act (i32.const 256) (i32.const 13) (i32.const 512) (i32.const 256))))
  (func $bot/pick call $~lib/array/get {panic} call $~lib/botlens/mark)
  (func $bot/play (export "botlens_play") {play})
  (func (export "botlens_new") (param $seat i32)))"#
    );
    let module = wat::parse_str(wat).unwrap();
    let map = source_map(&module);
    let mut section = vec![0];
    let name = b"botlens_source_map";
    let body_len = 1 + name.len() + map.len();
    leb128(body_len, &mut section);
    section.push(name.len() as u8);
    section.extend_from_slice(name);
    section.extend_from_slice(map.as_bytes());
    [module, section].concat()
}

/// The source map of `module`: operator `i` of function `f` at line `FILES[f].1 + i`, column 3
/// (0-based: 2), of `FILES[f].0` (the last function, `botlens_new`, unmapped).
fn source_map(module: &[u8]) -> String {
    let mut builder = sourcemap::SourceMapBuilder::new(None);
    builder.set_source_root(Some("/bots/mine"));
    let mut function = 0;
    for payload in wasmparser::Parser::new(0).parse_all(module) {
        let wasmparser::Payload::CodeSectionEntry(body) = payload.unwrap() else { continue };
        if let Some(&(file, first)) = FILES.get(function) {
            let source = builder.add_source(file);
            let operators = body.get_operators_reader().unwrap().into_iter_with_offsets();
            for (index, operator) in operators.enumerate() {
                let (_, offset) = operator.unwrap();
                let line = first + index as u32 - 1;
                builder.add_raw(0, offset as u32, line, 2, Some(source), None, false);
            }
        }
        function += 1;
    }
    let mut out = Vec::new();
    builder.into_sourcemap().to_writer(&mut out).unwrap();
    String::from_utf8(out).unwrap()
}

fn leb128(mut n: usize, out: &mut Vec<u8>) {
    loop {
        let byte = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn located(failure: &Failure) -> (String, u32, u32) {
    let location = failure.location.as_ref().unwrap_or_else(|| panic!("no location: {failure}"));
    (location.file.clone(), location.line, location.column)
}

fn bot_ts(line: u32) -> (String, u32, u32) {
    ("/bots/mine/bot.ts".to_owned(), line, 3)
}

#[test]
fn a_trap_in_the_standard_library_is_located_at_the_bots_call_with_its_stack() {
    let module = sandbox().load(&bot(true, 0, false, true)).unwrap();
    let record = play(&module, 1, &SandboxLimits::default());
    let failure = fault(&record);
    assert_eq!(failure.kind, FailureKind::Trap, "{failure}");
    // `bot/pick`'s first operator, `call $~lib/array/get`, is bot.ts line 5; `$get`'s trap is
    // in `~lib/array.ts`, which is not the bot's.
    assert_eq!(located(failure), bot_ts(5), "{failure}");
    let stack = failure.stack.as_ref().expect("a stack");
    let frames: Vec<(&str, Option<u32>)> = stack
        .frames
        .iter()
        .map(|f| (f.function.as_str(), f.location.as_ref().map(|l| l.line)))
        .collect();
    // `bot/play`'s `call $bot/pick` is its first operator: line 20.
    assert_eq!(frames, [("bot/pick", Some(5)), ("bot/play", Some(20))], "{stack:?}");
}

#[test]
fn an_illegal_move_skips_the_sdk_named_in_botlens_sdk_and_a_panic_is_located_too() {
    // Square 9 is off the board: `act` refuses it inside the SDK's `mark`, called by the
    // third operator of `bot/pick` (after `call $get` and `nop`): line 7.
    let module = sandbox().load(&bot(false, 9, false, true)).unwrap();
    let failure = fault(&play(&module, 1, &SandboxLimits::default())).clone();
    assert_eq!(failure.kind, FailureKind::IllegalMove, "{failure}");
    assert_eq!(located(&failure), bot_ts(7), "{failure}");
    // A panic with no location of its own: the map's, at the `call $panic`, the eighth
    // operator of `bot/pick` (after `call $get` and its six `i32.const`s), line 12.
    let module = sandbox().load(&bot(false, 0, true, true)).unwrap();
    let failure = fault(&play(&module, 1, &SandboxLimits::default())).clone();
    assert_eq!((failure.kind, failure.message.as_str()), (FailureKind::Panic, "oops"));
    assert_eq!(located(&failure), bot_ts(12), "{failure}");
}

#[test]
fn a_turn_without_a_move_is_located_at_the_first_line_of_the_bots_play() {
    let module = sandbox().load(&bot(false, 0, false, false)).unwrap();
    let failure = fault(&play(&module, 1, &SandboxLimits::default())).clone();
    assert_eq!(failure.kind, FailureKind::NoMove, "{failure}");
    // `bot/play` (by its name in the `name` section) maps to line 20 first.
    assert_eq!(located(&failure), bot_ts(20), "{failure}");
}

#[test]
fn the_worked_example_of_the_abi_is_located_where_it_says() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/abi.md"))
        .expect("docs/abi.md");
    let fence = "```wat source_map\n";
    let start = doc.find(fence).expect("the worked example") + fence.len();
    let len = doc[start..].find("```").expect("the end of the block");
    let module = sandbox().load(&doc.as_bytes()[start..start + len]).unwrap();
    let failure = fault(&play(&module, 0, &SandboxLimits::default())).clone();
    assert_eq!(failure.kind, FailureKind::Trap, "{failure}");
    assert_eq!(located(&failure), ("/home/me/bot/bot.ts".to_owned(), 4, 5), "{failure}");
    let said = format!("the failure reads ``{failure}``");
    let said = said.replace(' ', "");
    assert!(doc.replace([' ', '\n'], "").contains(&said), "docs/abi.md should say {failure}");
}

#[test]
fn a_section_that_is_no_source_map_is_refused_when_loading() {
    let module = wat::parse_str(
        r#"(module (memory (export "memory") 1) (@custom "botlens_abi" "1")
            (func (export "botlens_new") (param i32)) (func (export "botlens_play"))
            (@custom "botlens_source_map" "{\"version\":3,\"sources\":"))"#,
    )
    .unwrap();
    let error = sandbox().load(&module).unwrap_err();
    assert!(matches!(error, LoadError::Invalid { .. }), "{error:?}");
    let text = error.to_string();
    assert!(text.contains("the `botlens_source_map` section is not a source map"), "{text}");
}
