//! The imports a module may have: only the `botlens` host functions and WASI preview 1, each
//! with its signature. Checked once, when a module is loaded.

use wasmtime::{ExternType, Module};

use crate::abi::{HOST_FUNCTIONS, HOST_MODULE};
use crate::error::LoadError;
use crate::sig::{describe, wrong};
use crate::text;
use crate::wasi;

/// Checks the imports: only `botlens.*` and WASI preview 1 functions, with their signatures.
pub(crate) fn check_imports(module: &Module) -> Result<(), LoadError> {
    for import in module.imports() {
        let sig = match import.module() {
            HOST_MODULE => {
                HOST_FUNCTIONS.iter().find(|(n, _)| *n == import.name()).map(|(_, s)| *s)
            }
            wasi::MODULE => wasi::signature(import.name()),
            _ => None,
        };
        let Some(sig) = sig else {
            return Err(unknown(import.module(), import.name()));
        };
        let full_name = format!("{}.{}", import.module(), import.name());
        match import.ty() {
            ExternType::Func(ty) if sig.matches(&ty) => {}
            other => return Err(wrong("import", &full_name, sig.to_string(), describe(&other))),
        }
    }
    Ok(())
}

/// An unknown import, its names printable and bounded (a module chooses them freely).
fn unknown(module: &str, name: &str) -> LoadError {
    let shown = |name: &str| text::shown(name, text::MAX_NAME_BYTES);
    LoadError::UnknownImport { module: shown(module), name: shown(name) }
}
