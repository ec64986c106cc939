//! Integration tests of the sandbox: one binary, one module per feature.
//!
//! Rust guest bots live in `tests/guests/<name>/` (standalone packages, built here for
//! `wasm32-wasip1`); hostile hand-written modules are WAT inside the tests.

mod guests;
mod instruction_loops;
mod support;

mod budgets;
mod cache;
mod determinism;
mod drawing;
mod encodings;
mod failures;
mod hostile;
mod loading;
mod prepared;
mod profile;
mod runners;
mod source_maps;
mod strings;
mod threads;
mod wasi;
mod wasted;
mod wat_bot;
