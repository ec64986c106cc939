//! The botlens ABI, version 1, as the host checks it (the specification is `docs/abi.md`): the
//! version and encoding sections, the required exports, and the names and signatures of the
//! host functions (the imports are checked against them and WASI's in [`crate::imports`]).
//!
//! Checks run once per module, when it is loaded, so a module that passes them can only fail a
//! game by what it does, never by how it is shaped.

use botlens_protocol::Encoding;
use wasmtime::{ExternType, Module};

use crate::error::LoadError;
use crate::sections::Sections;
use crate::sig::{Sig, Ty, describe, wrong};
use crate::text;

/// The version of the botlens ABI this host speaks.
pub const ABI_VERSION: u32 = 1;

/// The custom section holding the ABI version in ASCII decimal.
pub(crate) const ABI_SECTION: &str = "botlens_abi";

/// The optional custom section holding the path of a source file of the SDK the bot was built
/// with; frames in that file's directory are not the bot's own code.
pub(crate) const SDK_SECTION: &str = "botlens_sdk";

/// The optional custom section holding the module's source map (JSON, version 3, generated
/// columns being module offsets): the line tables of a module without DWARF ([`crate::srcmap`]).
pub(crate) const SOURCE_MAP_SECTION: &str = "botlens_source_map";

/// The optional custom section naming the encoding of the bot's messages: `json` (the
/// default) or `compact`.
pub(crate) const ENCODING_SECTION: &str = "botlens_encoding";

/// The optional custom section saying the module is a language runner (its contents name it,
/// e.g. `quickjs`): the bot is source code the runner interprets, so the module's DWARF (if any)
/// describes the runner, not the bot. Locations then come from the runner (`botlens.position`,
/// `botlens.panic`), and `act` returns [`LOST`] on a losing move instead of stopping the bot.
pub(crate) const RUNNER_SECTION: &str = "botlens_runner";

/// What `act` returns to a runner module when the move lost the game.
pub(crate) const LOST: i32 = -2;

/// The most bytes of a custom section a message shows.
const SHOWN_BYTES: usize = 40;

/// The import module of the host functions.
pub(crate) const HOST_MODULE: &str = "botlens";

const I: Ty = Ty::I32;

/// `botlens_new(seat: i32)`.
pub(crate) const NEW: (&str, Sig) = ("botlens_new", Sig { params: &[I], results: &[] });
/// `botlens_play()`.
pub(crate) const PLAY: (&str, Sig) = ("botlens_play", Sig { params: &[], results: &[] });
/// `_initialize()`, the WASI reactor initializer, optional.
pub(crate) const INITIALIZE: (&str, Sig) = ("_initialize", Sig { params: &[], results: &[] });
/// `botlens_prepare()`, optional: called once per module before any game, whose state every game
/// starts from ([`crate::snapshot`]).
pub(crate) const PREPARE: (&str, Sig) = ("botlens_prepare", Sig { params: &[], results: &[] });
/// `botlens_prepare_payload()`, optional, for a module with `botlens_prepare`: called once per
/// payload (`botlens.source` readable) from the state `botlens_prepare` left; every game with that
/// payload starts from the state it leaves, or, if it fails, from `botlens_prepare`'s
/// ([`crate::snapshot`]).
pub(crate) const PREPARE_PAYLOAD: (&str, Sig) =
    ("botlens_prepare_payload", Sig { params: &[], results: &[] });

/// `botlens_where()`, optional, for a language runner: called after a trap that gave the runner
/// no chance to say where the bot was (the WebAssembly stack ran out, the memory limit refused
/// a growth), so that it states the bot's stack from what its interpreter still holds.
pub(crate) const WHERE: (&str, Sig) = ("botlens_where", Sig { params: &[], results: &[] });

/// `botlens_sample() -> i64`, optional, for a language runner: called at a profiled game's
/// samples ([`crate::profile`]), it writes the script's frames into its memory as a stated stack
/// and returns where (the address, and the length shifted by 32 bits).
pub(crate) const SAMPLE: (&str, Sig) = ("botlens_sample", Sig { params: &[], results: &[Ty::I64] });

/// The host functions in module `botlens`.
pub(crate) const HOST_FUNCTIONS: &[(&str, Sig)] = &[
    ("view", Sig { params: &[I, I], results: &[I] }),
    ("act", Sig { params: &[I, I, I, I], results: &[I] }),
    ("reply", Sig { params: &[I, I], results: &[I] }),
    ("log", Sig { params: &[I, I], results: &[] }),
    ("panic", Sig { params: &[I, I, I, I, I, I], results: &[] }),
    ("source", Sig { params: &[I, I], results: &[I] }),
    ("position", Sig { params: &[I, I, I, I], results: &[] }),
    ("stack", Sig { params: &[I, I], results: &[] }),
    ("wasted", Sig { params: &[], results: &[I] }),
    ("draw", Sig { params: &[I, I, I, I, I, I, I, I], results: &[] }),
];

/// Whether the module declares itself a language runner (a `botlens_runner` section).
pub(crate) fn is_runner(sections: &Sections<'_>) -> bool {
    sections.custom(RUNNER_SECTION).next().is_some()
}

/// Checks the `botlens_abi` section: present, and the version this host speaks.
pub(crate) fn check_version(sections: &Sections<'_>) -> Result<(), LoadError> {
    let mut declared = sections.custom(ABI_SECTION).peekable();
    if declared.peek().is_none() {
        return Err(LoadError::MissingAbiVersion { supported: ABI_VERSION });
    }
    for contents in declared {
        let text = String::from_utf8_lossy(contents);
        let trimmed = text.trim_end_matches(['\0', ' ', '\n', '\r', '\t']);
        match trimmed.parse::<u32>() {
            Ok(ABI_VERSION) => {}
            Ok(found) => return Err(LoadError::AbiVersion { found, supported: ABI_VERSION }),
            Err(_) => {
                let found = text::quoted(contents, SHOWN_BYTES);
                return Err(LoadError::AbiVersionText { found, supported: ABI_VERSION });
            }
        }
    }
    Ok(())
}

/// The encoding of the bot's messages its `botlens_encoding` sections declare (JSON without
/// one). Trailing NUL bytes and ASCII whitespace are ignored, as in the version section.
pub(crate) fn encoding(sections: &Sections<'_>) -> Result<Encoding, LoadError> {
    let mut declared = None;
    for contents in sections.custom(ENCODING_SECTION) {
        let text = String::from_utf8_lossy(contents);
        let name = text.trim_end_matches(['\0', ' ', '\n', '\r', '\t']);
        let encoding = Encoding::from_name(name)
            .ok_or_else(|| LoadError::Encoding { found: text::quoted(contents, SHOWN_BYTES) })?;
        if declared.is_some_and(|before| before != encoding) {
            return Err(LoadError::Encodings);
        }
        declared = Some(encoding);
    }
    Ok(declared.unwrap_or_default())
}

/// Checks the exports: `memory`, `botlens_new`, `botlens_play`, and `_initialize` if present.
pub(crate) fn check_exports(module: &Module) -> Result<(), LoadError> {
    match module.get_export("memory") {
        Some(ExternType::Memory(_)) => {}
        Some(other) => {
            return Err(wrong("export", "memory", "a memory".into(), describe(&other)));
        }
        None => {
            return Err(LoadError::MissingExport {
                name: "memory".into(),
                expected: "a memory".into(),
            });
        }
    }
    for (name, sig, required) in [
        (NEW.0, NEW.1, true),
        (PLAY.0, PLAY.1, true),
        (INITIALIZE.0, INITIALIZE.1, false),
        (PREPARE.0, PREPARE.1, false),
        (PREPARE_PAYLOAD.0, PREPARE_PAYLOAD.1, false),
        (WHERE.0, WHERE.1, false),
        (SAMPLE.0, SAMPLE.1, false),
    ] {
        match module.get_export(name) {
            Some(ExternType::Func(ty)) if sig.matches(&ty) => {}
            Some(other) => return Err(wrong("export", name, sig.to_string(), describe(&other))),
            None if required => {
                return Err(LoadError::MissingExport {
                    name: name.into(),
                    expected: sig.to_string(),
                });
            }
            None => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sections_of(wat: &str) -> Vec<u8> {
        wat::parse_str(wat).unwrap()
    }

    #[test]
    fn the_version_is_read_with_a_trailing_nul_and_refused_when_different() {
        let ok = sections_of(r#"(module (@custom "botlens_abi" "1\00"))"#);
        assert!(check_version(&Sections::read(&ok).unwrap()).is_ok());
        let two = sections_of(r#"(module (@custom "botlens_abi" "2"))"#);
        let err = check_version(&Sections::read(&two).unwrap()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the module speaks botlens ABI version 2, this botlens speaks version 1"
        );
        // Whatever is not a number is shown as the bytes it is, escaped and bounded.
        let refused = |contents: &str| {
            let wat = format!(r#"(module (@custom "botlens_abi" "{contents}"))"#);
            check_version(&Sections::read(&sections_of(&wat)).unwrap()).unwrap_err().to_string()
        };
        assert_eq!(
            refused(" 1"),
            "the module's `botlens_abi` section holds \" 1\", not an ABI version: it should hold \
             the version in ASCII decimal digits, and this botlens speaks version 1"
        );
        assert_eq!(
            refused("\\c2\\a01\\1b[2J"),
            "the module's `botlens_abi` section holds \"\\xc2\\xa01\\x1b[2J\", not an ABI \
             version: it should hold the version in ASCII decimal digits, and this botlens speaks \
             version 1"
        );
        assert_eq!(
            refused(&"9".repeat(100_000)),
            format!(
                "the module's `botlens_abi` section holds \"{}\"… (100 KB), not an ABI version: \
                 it should hold the version in ASCII decimal digits, and this botlens speaks \
                 version 1",
                "9".repeat(40)
            )
        );
        let none = sections_of("(module)");
        assert!(matches!(
            check_version(&Sections::read(&none).unwrap()),
            Err(LoadError::MissingAbiVersion { supported: 1 })
        ));
    }

    #[test]
    fn the_encoding_is_json_unless_declared_and_unknown_ones_are_refused() {
        let read = |wat: &str| encoding(&Sections::read(&sections_of(wat)).unwrap());
        assert_eq!(read("(module)").unwrap(), Encoding::Json);
        assert_eq!(
            read(r#"(module (@custom "botlens_encoding" "compact\00"))"#).unwrap(),
            Encoding::Compact
        );
        assert_eq!(
            read(r#"(module (@custom "botlens_encoding" "json"))"#).unwrap(),
            Encoding::Json
        );
        assert_eq!(
            read(r#"(module (@custom "botlens_encoding" "msgpack"))"#).unwrap_err().to_string(),
            "the `botlens_encoding` section says \"msgpack\": botlens knows `json` and `compact` \
             (see docs/abi.md)"
        );
        assert_eq!(
            read(r#"(module (@custom "botlens_encoding" "\1b]0;x\07"))"#).unwrap_err().to_string(),
            "the `botlens_encoding` section says \"\\x1b]0;x\\x07\": botlens knows `json` and \
             `compact` (see docs/abi.md)"
        );
        let both = r#"(module (@custom "botlens_encoding" "json") (@custom "botlens_encoding" "compact"))"#;
        assert!(matches!(read(both), Err(LoadError::Encodings)));
    }

    #[test]
    fn signatures_print_like_the_docs() {
        assert_eq!(HOST_FUNCTIONS[1].1.to_string(), "func (i32, i32, i32, i32) -> i32");
        assert_eq!(PLAY.1.to_string(), "func ()");
    }
}
