//! The limits on a module's shape that keep compiling it short: checked before a module is
//! compiled, so a hostile module is refused in milliseconds instead of tying up the compiler
//! (and gigabytes of memory) for minutes.
//!
//! Compile time is not only a matter of size: Cranelift's work grows with the product of a
//! function's locals and its loops (each loop header may need every local as a block
//! parameter), with the square of loop nesting, and with `br_table` targets. Measured on a
//! 2.8 GHz x86-64 core: 50,000 empty functions take 4.7 s, 20,000 nested loops (60 KB) 27 s,
//! 5,000 locals across 5,000 loops (85 KB) 73 s. So besides the module's size and its number of
//! functions, loading estimates the compiler's work from one pass over the code (wasmparser's
//! operator reader, no validation) in units of about a microsecond of compiling each:
//!
//! `work = Σ over functions (100 + body bytes + 3 · locals · loops + Σ block depths / 8 +
//! br_table targets)`
//!
//! and refuses a module whose estimate is over [`MAX_COMPILE_WORK`] (a Rust bot is about 0.5% of
//! it). What the estimate misses, the compile deadline ([`COMPILE_DEADLINE`]) catches.

use std::time::Duration;

use wasmparser::{Operator, Parser, Payload};

use crate::error::LoadError;

/// The largest module accepted, in bytes (binary, or WebAssembly text before it is assembled):
/// 64 MiB. A Rust bot with line-table debug information is about 2 MiB, most of it DWARF.
pub(crate) const MAX_MODULE_BYTES: u64 = 64 << 20;

/// The most functions a module may define: 20,000 (a Rust bot defines a few hundred).
pub(crate) const MAX_FUNCTIONS: u64 = 20_000;

/// The most imports a module may declare: 1,000 (there are 51 functions to import).
pub(crate) const MAX_IMPORTS: u64 = 1_000;

/// The largest estimated compile work accepted: 12,000,000 units. The Battleships template
/// bot is about 60,000; the largest module botlens itself makes, the Python runner (an
/// interpreter with its standard library), about 9,100,000, and it is compiled once per machine
/// and then taken from the disk cache.
pub(crate) const MAX_COMPILE_WORK: u64 = 12_000_000;

/// How long compiling may take before loading gives up: 30 s, six times what the largest
/// module [`MAX_COMPILE_WORK`] admits takes on an idle machine.
pub(crate) const COMPILE_DEADLINE: Duration = Duration::from_secs(30);

/// The estimate's fixed cost per function.
const WORK_PER_FUNCTION: u64 = 100;
/// The estimate's cost per local and loop of a function.
const WORK_PER_LOCAL_LOOP: u64 = 3;
/// One unit of the estimate per this much summed block depth.
const DEPTH_PER_WORK: u64 = 8;

/// The error for a limit exceeded.
fn over(limit: &'static str, found: u64, max: u64) -> LoadError {
    LoadError::OverLimit { limit, found, max }
}

/// Refuses a module whose size, once it is read, is over [`MAX_MODULE_BYTES`].
pub(crate) fn check_size(bytes: u64) -> Result<(), LoadError> {
    if bytes > MAX_MODULE_BYTES {
        return Err(over("module bytes", bytes, MAX_MODULE_BYTES));
    }
    Ok(())
}

/// Checks a binary module's shape against the limits above, before it is compiled.
pub(crate) fn check(binary: &[u8]) -> Result<(), LoadError> {
    let invalid =
        |error: wasmparser::BinaryReaderError| LoadError::Invalid { message: error.to_string() };
    let mut work = 0u64;
    for payload in Parser::new(0).parse_all(binary) {
        match payload.map_err(invalid)? {
            Payload::ImportSection(imports) => {
                let count = u64::from(imports.count());
                if count > MAX_IMPORTS {
                    return Err(over("imports", count, MAX_IMPORTS));
                }
            }
            Payload::FunctionSection(functions) => {
                let count = u64::from(functions.count());
                if count > MAX_FUNCTIONS {
                    return Err(over("functions", count, MAX_FUNCTIONS));
                }
            }
            Payload::CodeSectionEntry(body) => {
                work = work.saturating_add(function_work(&body).map_err(invalid)?);
                if work > MAX_COMPILE_WORK {
                    return Err(over("estimated compile work", work, MAX_COMPILE_WORK));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// The estimated compile work of one function body.
fn function_work(body: &wasmparser::FunctionBody<'_>) -> wasmparser::Result<u64> {
    let mut locals = 0u64;
    let mut declarations = body.get_locals_reader()?;
    for _ in 0..declarations.get_count() {
        locals = locals.saturating_add(u64::from(declarations.read()?.0));
    }
    let (mut depth, mut depth_sum, mut loops, mut targets) = (0u64, 0u64, 0u64, 0u64);
    let mut operators = body.get_operators_reader()?;
    while !operators.eof() {
        match operators.read()? {
            Operator::Loop { .. } => {
                loops += 1;
                depth_sum = depth_sum.saturating_add(depth);
                depth += 1;
            }
            Operator::Block { .. }
            | Operator::If { .. }
            | Operator::Try { .. }
            | Operator::TryTable { .. } => {
                depth_sum = depth_sum.saturating_add(depth);
                depth += 1;
            }
            Operator::End => depth = depth.saturating_sub(1),
            Operator::BrTable { targets: table } => {
                targets = targets.saturating_add(u64::from(table.len()));
            }
            _ => {}
        }
    }
    let bytes = body.range().len() as u64;
    Ok(WORK_PER_FUNCTION
        .saturating_add(bytes)
        .saturating_add(WORK_PER_LOCAL_LOOP.saturating_mul(locals).saturating_mul(loops))
        .saturating_add(depth_sum / DEPTH_PER_WORK)
        .saturating_add(targets))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The estimate and the body size of a module's one function.
    fn work(wat: &str) -> (u64, u64) {
        let binary = wat::parse_str(wat).unwrap();
        let body = Parser::new(0)
            .parse_all(&binary)
            .find_map(|payload| match payload.unwrap() {
                Payload::CodeSectionEntry(body) => Some(body),
                _ => None,
            })
            .expect("one function");
        (function_work(&body).unwrap(), body.range().len() as u64)
    }

    #[test]
    fn the_estimate_follows_its_formula() {
        assert_eq!(work("(module (func))"), (100 + 2, 2), "no locals, `end`");
        // 10 locals and 2 loops: 3 · 10 · 2 = 60; depths 0 + 1 = 1 (/ 8 = 0).
        let (looped, bytes) =
            work("(module (func (local i32 i32 i32 i32 i32 i32 i32 i32 i32 i32) (loop (loop))))");
        assert_eq!(looped, 100 + bytes + 60);
        // Blocks add no locals term; 17 nested blocks: depths 0 + 1 + … + 16 = 136, / 8 = 17.
        let blocks =
            format!("(module (func (local i32) {}{}))", "(block ".repeat(17), ")".repeat(17));
        let (nested, bytes) = work(&blocks);
        assert_eq!(nested, 100 + bytes + 17);
        // A br_table's targets count one each (the default target aside).
        let (table, bytes) = work("(module (func (block (br_table 0 0 0 0 (i32.const 0)))))");
        assert_eq!(table, 100 + bytes + 3);
    }

    #[test]
    fn nested_loops_and_locals_across_loops_cost_what_they_cost_to_compile() {
        let nested = format!("(module (func {} {}))", "(loop ".repeat(20_000), ")".repeat(20_000));
        let locals =
            format!("(module (func (local {}) {}))", "i32 ".repeat(3_000), "(loop)".repeat(3_000));
        for wat in [nested, locals] {
            let binary = wat::parse_str(&wat).unwrap();
            assert!(binary.len() < 100_000, "small modules");
            let error = check(&binary).unwrap_err();
            assert!(
                matches!(error, LoadError::OverLimit { limit: "estimated compile work", .. }),
                "{error}"
            );
        }
    }
}
