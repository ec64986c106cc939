//! The wasmtime host (placeholder while the crate is written).
