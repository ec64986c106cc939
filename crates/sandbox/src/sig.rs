//! Function signatures of the ABI: the few value types bots exchange with the host, how a
//! signature prints (as `docs/abi.md` writes it) and how it is matched against a module's.
//!
//! Not for: which functions exist (see [`crate::abi`] and [`crate::wasi`]).

use std::fmt;

use wasmtime::{ExternType, FuncType, ValType};

use crate::error::LoadError;

/// A WebAssembly value type in an ABI signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ty {
    I32,
    I64,
}

/// A function signature of the ABI.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Sig {
    pub params: &'static [Ty],
    pub results: &'static [Ty],
}

impl Sig {
    /// Whether a function type has exactly these parameters and results.
    pub fn matches(&self, ty: &FuncType) -> bool {
        same(self.params, ty.params()) && same(self.results, ty.results())
    }

    /// The parameters as wasmtime value types.
    pub fn param_types(&self) -> impl ExactSizeIterator<Item = ValType> + '_ {
        self.params.iter().map(|t| t.val_type())
    }

    /// The results as wasmtime value types.
    pub fn result_types(&self) -> impl ExactSizeIterator<Item = ValType> + '_ {
        self.results.iter().map(|t| t.val_type())
    }
}

impl Ty {
    fn val_type(self) -> ValType {
        match self {
            Ty::I32 => ValType::I32,
            Ty::I64 => ValType::I64,
        }
    }
}

fn same(expected: &[Ty], found: impl ExactSizeIterator<Item = ValType>) -> bool {
    expected.len() == found.len()
        && expected.iter().zip(found).all(|(t, v)| match t {
            Ty::I32 => matches!(v, ValType::I32),
            Ty::I64 => matches!(v, ValType::I64),
        })
}

impl fmt::Display for Sig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = |types: &[Ty]| types.iter().map(|t| t.val_type().to_string()).collect();
        f.write_str(&func_text(names(self.params), names(self.results)))
    }
}

/// `func (i32, i32) -> i32`, as the docs and error messages write signatures.
fn func_text(params: Vec<String>, results: Vec<String>) -> String {
    let mut text = format!("func ({})", params.join(", "));
    if !results.is_empty() {
        text.push_str(" -> ");
        text.push_str(&results.join(", "));
    }
    text
}

/// A wrong signature of an export or import.
pub(crate) fn wrong(what: &'static str, name: &str, expected: String, found: String) -> LoadError {
    LoadError::WrongSignature { what, name: name.into(), expected, found }
}

/// What a module's export or import is, as error messages describe it.
pub(crate) fn describe(ty: &ExternType) -> String {
    match ty {
        ExternType::Func(func) => func_text(
            func.params().map(|v| v.to_string()).collect(),
            func.results().map(|v| v.to_string()).collect(),
        ),
        ExternType::Memory(_) => "a memory".into(),
        ExternType::Table(_) => "a table".into(),
        ExternType::Global(_) => "a global".into(),
        ExternType::Tag(_) => "a tag".into(),
    }
}
