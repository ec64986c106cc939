//! Loading: every way a module is refused comes back as its own typed error; the caches.

use botlens_engine::FailureKind;
use botlens_sandbox::{LoadError, Sandbox, SandboxConfig, SandboxLimits};

use crate::support::{fault, guest_bytes, play, sandbox, wat, wat_bot};

fn load_err(bytes: &[u8]) -> LoadError {
    sandbox().load(bytes).expect_err("the module must be refused")
}

/// A minimal module declaring `version`, with `fields` inside.
fn module(version: &str, fields: &str) -> String {
    format!(r#"(module (@custom "botlens_abi" "{version}") {fields})"#)
}

const GOOD_EXPORTS: &str = r#"(memory (export "memory") 1)
    (func (export "botlens_new") (param i32))
    (func (export "botlens_play"))"#;

#[test]
fn bytes_that_are_not_webassembly_are_refused_as_such() {
    let reason = |bytes: &[u8]| match load_err(bytes) {
        LoadError::NotWasm { reason } => reason,
        other => panic!("expected NotWasm, got {other:?}"),
    };
    assert_eq!(reason(b""), "the file is empty");
    assert_eq!(
        reason(b"\x7fELF\x02\x01\x01"),
        r#"it starts with "\u{7f}ELF\u{2}\u{1}\u{1}", not with the `\0asm` header of a WebAssembly binary"#
    );
    assert!(reason(b"(module (func").starts_with("WebAssembly text that does not parse"));
    assert!(matches!(load_err(b"\0asm\x01\0\0\0\x01\x05junk"), LoadError::Invalid { .. }));
}

#[test]
fn a_component_is_refused_as_a_component_not_as_a_module_without_the_abi_section() {
    // The component model's preamble: `\0asm`, version 0x0d, layer 1.
    let error = load_err(b"\0asm\x0d\x00\x01\x00");
    assert!(matches!(error, LoadError::Component), "{error}");
    assert_eq!(
        error.to_string(),
        "this is a WebAssembly component, not a core module: botlens runs core WebAssembly \
         modules (build the bot for wasm32-wasip1 or wasm32-unknown-unknown, not as a \
         component; see docs/abi.md)"
    );
}

#[test]
fn a_module_without_the_abi_section_is_refused_with_a_pointer_to_the_docs() {
    let error = load_err(format!("(module {GOOD_EXPORTS})").as_bytes());
    assert!(matches!(error, LoadError::MissingAbiVersion { supported: 1 }));
    assert!(error.to_string().contains("docs/abi.md"));
}

#[test]
fn another_abi_version_is_refused_naming_both() {
    let error = load_err(module("2", GOOD_EXPORTS).as_bytes());
    assert_eq!(
        error.to_string(),
        "the module speaks botlens ABI version 2, this botlens speaks version 1"
    );
}

#[test]
fn missing_exports_are_named_with_their_expected_type() {
    let no_play =
        module("1", r#"(memory (export "memory") 1) (func (export "botlens_new") (param i32))"#);
    assert_eq!(
        load_err(no_play.as_bytes()).to_string(),
        "missing export `botlens_play`: expected func () (see docs/abi.md)"
    );
    let no_memory =
        module("1", r#"(func (export "botlens_new") (param i32)) (func (export "botlens_play"))"#);
    assert!(
        matches!(load_err(no_memory.as_bytes()), LoadError::MissingExport { name, .. } if name == "memory")
    );
}

#[test]
fn wrong_signatures_of_exports_and_imports_are_named_with_both_types() {
    let play_with_param = module(
        "1",
        r#"(memory (export "memory") 1) (func (export "botlens_new") (param i32)) (func (export "botlens_play") (param i32))"#,
    );
    assert_eq!(
        load_err(play_with_param.as_bytes()).to_string(),
        "export `botlens_play` has the wrong type: expected func (), found func (i32)"
    );
    let bad_act =
        module("1", &format!(r#"(import "botlens" "act" (func (param i32))) {GOOD_EXPORTS}"#));
    assert_eq!(
        load_err(bad_act.as_bytes()).to_string(),
        "import `botlens.act` has the wrong type: expected func (i32, i32, i32, i32) -> i32, found func (i32)"
    );
    let global_play = module(
        "1",
        r#"(memory (export "memory") 1) (func (export "botlens_new") (param i32)) (global (export "botlens_play") i32 (i32.const 0))"#,
    );
    assert_eq!(
        load_err(global_play.as_bytes()).to_string(),
        "export `botlens_play` has the wrong type: expected func (), found a global"
    );
}

#[test]
fn imports_other_than_botlens_and_wasi_functions_are_refused() {
    let env_import =
        module("1", &format!(r#"(import "env" "seed" (func (result i64))) {GOOD_EXPORTS}"#));
    assert!(matches!(
        load_err(env_import.as_bytes()),
        LoadError::UnknownImport { module, name } if module == "env" && name == "seed"
    ));
    let no_such_wasi = module(
        "1",
        &format!(r#"(import "wasi_snapshot_preview1" "sock_open" (func)) {GOOD_EXPORTS}"#),
    );
    assert!(matches!(load_err(no_such_wasi.as_bytes()), LoadError::UnknownImport { .. }));
    let imported_memory = r#"(module (@custom "botlens_abi" "1") (import "botlens" "memory" (memory 1))
        (export "memory" (memory 0)) (func (export "botlens_new") (param i32)) (func (export "botlens_play")))"#;
    assert_eq!(
        load_err(imported_memory.as_bytes()).to_string(),
        "unknown import `botlens.memory`: bots may import only `botlens.*` and WASI preview 1 \
         (`wasi_snapshot_preview1.*`) functions"
    );
}

#[test]
fn a_load_error_is_a_bad_module_failure_and_a_missing_file_is_named() {
    let error = sandbox().load_file("/no/such/bot.wasm").unwrap_err();
    assert!(error.to_string().starts_with("cannot read bot module /no/such/bot.wasm:"));
    assert_eq!(error.to_failure().kind, FailureKind::BadModule);
}

#[test]
fn the_module_hash_is_the_sha256_of_the_bytes_loaded() {
    let text = wat_bot("", "");
    let bot = wat(&text);
    assert_eq!(bot.sha256().len(), 64);
    assert_eq!(bot.sha256(), wat(&text).sha256());
    assert_ne!(bot.sha256(), wat(&wat_bot("(nop)", "")).sha256());
}

#[test]
fn invalid_limits_fail_the_first_turn_as_bad_module() {
    let bot = wat(&wat_bot("", ""));
    for (limits, message) in [
        (
            SandboxLimits { stack_bytes: 1, ..SandboxLimits::default() },
            "invalid sandbox limits: stack_bytes = 1 is out of range 65536..=1048576",
        ),
        (
            SandboxLimits { memory_bytes: 0, ..SandboxLimits::default() },
            "invalid sandbox limits: memory_bytes = 0 is out of range 65536..=4294967296",
        ),
        (
            SandboxLimits { output_bytes_per_turn: 0, ..SandboxLimits::default() },
            "invalid sandbox limits: output_bytes_per_turn = 0 is out of range 1..=16777216",
        ),
    ] {
        let record = play(&bot, 1, &limits);
        let failure = fault(&record);
        assert_eq!((failure.kind, failure.message.as_str()), (FailureKind::BadModule, message));
    }
}

#[cfg(unix)]
#[test]
fn the_disk_cache_is_written_once_reused_by_a_new_sandbox_and_rewritten_when_corrupt() {
    use std::os::unix::fs::MetadataExt;

    let dir = tempfile::tempdir().unwrap();
    let config = || SandboxConfig { cache_dir: Some(dir.path().join("cache")) };
    let entries = || -> Vec<std::path::PathBuf> {
        let listing = std::fs::read_dir(dir.path().join("cache")).unwrap();
        let files = listing.map(|e| e.unwrap().path());
        files.filter(|p| p.file_name().is_some_and(|n| n != "cache-key")).collect()
    };
    let bytes = guest_bytes("chatty");

    let first = Sandbox::new(config()).unwrap().load(bytes).unwrap();
    let [entry] = entries().try_into().expect("one cache entry");
    assert_eq!(entry.extension().unwrap(), "cwasm");
    let inode = std::fs::metadata(&entry).unwrap().ino();

    // A new sandbox (a new process, as far as caching goes) reads the entry instead of writing it.
    let second = Sandbox::new(config()).unwrap().load(bytes).unwrap();
    assert_eq!(std::fs::metadata(&entry).unwrap().ino(), inode, "a hit does not rewrite the entry");
    assert_eq!(entries().len(), 1);
    let (a, b) =
        (play(&first, 5, &SandboxLimits::default()), play(&second, 5, &SandboxLimits::default()));
    assert_eq!(format!("{:?}", a.moves), format!("{:?}", b.moves));

    std::fs::write(&entry, b"corrupt").unwrap();
    let third = Sandbox::new(config()).unwrap().load(bytes).unwrap();
    assert_ne!(std::fs::read(&entry).unwrap(), b"corrupt", "a rejected entry is compiled again");
    assert_eq!(entries().len(), 1);
    assert!(play(&third, 5, &SandboxLimits::default()).outcome.fault.is_none());
}

#[test]
fn wall_clock_timings_are_kept_only_when_asked_for() {
    use botlens_engine::runner::{self, MatchLimits};
    use botlens_engine::{Game, SeedRng, Stream};
    use botlens_tictactoe::TicTacToe;

    let bot = wat(&wat_bot("", ""));
    let random = TicTacToe::reference_players().iter().find(|p| p.name == "random").unwrap();
    let play_one = |timed: bool| {
        let player = bot.player::<TicTacToe>(3, 0, &SandboxLimits::default());
        let mut wasm = if timed { player.timed() } else { player };
        let mut opponent = (random.create)(SeedRng::new(3, Stream::Player(1)));
        runner::play_match::<TicTacToe>(
            &(),
            3,
            &mut [&mut wasm, opponent.as_mut()],
            &MatchLimits::default(),
        );
        wasm.stats()
    };
    let (plain, timed) = (play_one(false), play_one(true));
    assert!(plain.turns > 0 && plain.turns == timed.turns, "{plain:?} {timed:?}");
    assert!(plain.in_guest.is_zero() && plain.instantiate.is_zero(), "{plain:?}");
    assert!(timed.in_guest >= timed.instantiate && !timed.instantiate.is_zero(), "{timed:?}");
}

#[test]
fn names_and_text_a_module_chose_are_shown_printable_and_bounded_in_load_errors() {
    // An import named with an escape sequence and 90 KB of `n` (the most a name may have is
    // 100,000 bytes).
    let name = format!("\\1b]0;owned\\07{}", "n".repeat(90_000));
    let import = module("1", &format!(r#"(import "env" "{name}" (func)) {GOOD_EXPORTS}"#));
    assert_eq!(
        load_err(import.as_bytes()).to_string(),
        format!(
            "unknown import `env.\\u{{1b}}]0;owned\\u{{7}}{}… (truncated, 91 KB)`: bots may \
             import only `botlens.*` and WASI preview 1 (`wasi_snapshot_preview1.*`) functions",
            "n".repeat(256 - 19)
        )
    );
    // The validator quotes a duplicate export's name.
    let twice = module(
        "1",
        &format!(r#"(func (export "{name}")) (func (export "{name}")) {GOOD_EXPORTS}"#),
    );
    let message = load_err(twice.as_bytes()).to_string();
    let quoted = "invalid WebAssembly module: failed to parse WebAssembly module: duplicate export \
                  name `\\u{1b}]0;owned\\u{7}nnn";
    assert!(message.starts_with(quoted), "{}", &message[..200]);
    assert!(message.ends_with("… (truncated, 91 KB)"), "{}", &message[message.len() - 80..]);
    assert!(message.len() < 4200 && !message.contains('\u{1b}'), "{} bytes", message.len());
    // The text parser quotes a name it cannot find, here a megabyte long.
    let line = format!("(module (func (call ${})))", "f".repeat(1 << 20));
    let reason = match load_err(line.as_bytes()) {
        LoadError::NotWasm { reason } => reason,
        other => panic!("expected NotWasm, got {other:?}"),
    };
    assert!(reason.starts_with("WebAssembly text that does not parse: "), "{reason}");
    // (The message quotes the name, then the line it is on.)
    assert!(reason.ends_with("… (truncated, 2098 KB)") && reason.len() < 4200, "{reason}");
}

/// The SDK's exports are its own functions: its `botlens_new` calls the constructors, as a WASI
/// reactor's `_initialize` does. A module that calls them nowhere is a command to wasm-ld,
/// which wraps every export in `<name>.command_export`, calling the destructors (`atexit`
/// handlers, the flush of C's stdio) after every turn.
#[test]
fn an_sdk_bots_exports_are_not_wrapped_in_calls_of_the_destructors() {
    let bytes = guest_bytes("bs_random");
    let mut exports = Vec::new();
    let mut names = Vec::new();
    for payload in wasmparser::Parser::new(0).parse_all(bytes) {
        match payload.expect("the guest parses") {
            wasmparser::Payload::ExportSection(section) => {
                for export in section {
                    let export = export.expect("an export");
                    exports.push((export.name.to_owned(), export.kind));
                }
            }
            wasmparser::Payload::CustomSection(section) => {
                if let wasmparser::KnownCustom::Name(reader) = section.as_known() {
                    for name in reader {
                        let wasmparser::Name::Function(map) = name.expect("a name") else {
                            continue;
                        };
                        names.extend(map.into_iter().map(|n| n.expect("a name").name.to_owned()));
                    }
                }
            }
            _ => {}
        }
    }
    let exported: Vec<&str> = exports.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(exported, ["memory", "botlens_new", "botlens_play"]);
    assert!(names.iter().any(|name| name == "botlens_play"), "{names:?}");
    let wrappers: Vec<&String> = names.iter().filter(|n| n.ends_with(".command_export")).collect();
    assert!(wrappers.is_empty(), "{wrappers:?}");
}
