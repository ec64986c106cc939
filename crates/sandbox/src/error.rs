//! Why a module cannot be used as a bot, and why a sandbox cannot be set up.
//!
//! Every check of `docs/abi.md` that can be made before a game starts has its own variant here,
//! so the harness and the language server can say exactly what to fix.

use std::path::PathBuf;

use botlens_engine::{Failure, FailureKind};

/// Why [`Sandbox::load`](crate::Sandbox::load) refused a module.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("cannot read bot module {path}: {source}")]
    Read {
        /// The path given.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// Neither a WebAssembly binary nor WebAssembly text.
    #[error("not a WebAssembly module: {reason}")]
    NotWasm {
        /// What was found instead.
        reason: String,
    },
    /// A WebAssembly component (the component model's binary format), not a core module.
    #[error(
        "this is a WebAssembly component, not a core module: botlens runs core WebAssembly \
         modules (build the bot for wasm32-wasip1 or wasm32-unknown-unknown, not as a \
         component; see docs/abi.md)"
    )]
    Component,
    /// The module is over one of the limits on what botlens compiles (see `docs/abi.md`).
    #[error(
        "the module is over botlens's limit on {limit}: {found} where at most {max} is \
         accepted (see docs/abi.md)"
    )]
    OverLimit {
        /// What is limited: `module bytes`, `functions`, `imports`, `estimated compile work`.
        limit: &'static str,
        /// The module's figure.
        found: u64,
        /// The limit.
        max: u64,
    },
    /// Compiling the module took longer than the compile deadline.
    #[error(
        "compiling the module took longer than botlens's compile deadline of {seconds} s \
         (see docs/abi.md)"
    )]
    CompileDeadline {
        /// The deadline.
        seconds: u64,
    },
    /// WebAssembly, but malformed or invalid (wasmtime's validation message).
    #[error("invalid WebAssembly module: {message}")]
    Invalid {
        /// wasmtime's message.
        message: String,
    },
    /// No `botlens_abi` custom section: not built with the botlens SDK or a hand-written ABI.
    #[error(
        "no `botlens_abi` custom section: build the bot with botlens-sdk (and `botlens_sdk::export!`), \
         or see docs/abi.md to declare ABI version {supported} by hand"
    )]
    MissingAbiVersion {
        /// The ABI version this host speaks.
        supported: u32,
    },
    /// The module declares an ABI version this host does not speak.
    #[error(
        "the module speaks botlens ABI version {found}, this botlens speaks version {supported}"
    )]
    AbiVersion {
        /// The declared version.
        found: u32,
        /// The ABI version this host speaks.
        supported: u32,
    },
    /// The `botlens_abi` section holds something other than a version number.
    #[error(
        "the module's `botlens_abi` section holds {found}, not an ABI version: it should hold \
         the version in ASCII decimal digits, and this botlens speaks version {supported}"
    )]
    AbiVersionText {
        /// The section's bytes, quoted, escaped and bounded (`"\xc2\xa01"`).
        found: String,
        /// The ABI version this host speaks.
        supported: u32,
    },
    /// The module declares a message encoding this host does not know.
    #[error(
        "the `botlens_encoding` section says {found}: botlens knows `json` and `compact` \
         (see docs/abi.md)"
    )]
    Encoding {
        /// The section's bytes, quoted, escaped and bounded (`"msgpack"`).
        found: String,
    },
    /// The module declares two different message encodings.
    #[error("the module has `botlens_encoding` sections saying both `json` and `compact`")]
    Encodings,
    /// A required export is missing.
    #[error("missing export `{name}`: expected {expected} (see docs/abi.md)")]
    MissingExport {
        /// The export's name.
        name: String,
        /// What it should be.
        expected: String,
    },
    /// An export or import has the wrong kind or signature.
    #[error("{what} `{name}` has the wrong type: expected {expected}, found {found}")]
    WrongSignature {
        /// `export` or `import`.
        what: &'static str,
        /// The item's name (`botlens_play`, `botlens.act`, …).
        name: String,
        /// The type the ABI requires.
        expected: String,
        /// The type in the module.
        found: String,
    },
    /// An import the host does not provide.
    #[error(
        "unknown import `{module}.{name}`: bots may import only `botlens.*` and WASI preview 1 \
         (`wasi_snapshot_preview1.*`) functions"
    )]
    UnknownImport {
        /// The import's module name (printable, cut past 256 bytes).
        module: String,
        /// The import's field name (printable, cut past 256 bytes).
        name: String,
    },
}

impl LoadError {
    /// The failure a game records when its bot could not be loaded (kind `bad_module`).
    ///
    /// ```
    /// use botlens_engine::FailureKind;
    /// use botlens_sandbox::LoadError;
    ///
    /// let error = LoadError::NotWasm { reason: "empty file".into() };
    /// assert_eq!(error.to_failure().kind, FailureKind::BadModule);
    /// ```
    pub fn to_failure(&self) -> Failure {
        Failure::new(FailureKind::BadModule, self.to_string())
    }
}

/// Why a [`Sandbox`](crate::Sandbox) could not be created.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    /// wasmtime refused the configuration.
    #[error("cannot set up the WebAssembly engine: {0}")]
    Engine(String),
    /// The ticker thread could not be started.
    #[error("cannot start the wall-clock ticker thread: {0}")]
    Ticker(String),
}
