//! The runner's linear-memory stack: RustPython's frames are large, and Python's recursion limit
//! (set in `src/lib.rs`) must be reached before this stack or WebAssembly's runs out.
//!
//! Its initial memory: as large as the memory `botlens_prepare` leaves (about 24 MiB: the
//! interpreter's heap with the common modules imported), so that a game, which starts from
//! that memory, need not grow its memory first. A grow, and the shrink back when the sandbox
//! reuses the memory for the next game, each change the protection of every resident page
//! grown over, which took a sixth of a short game's time.

/// The initial memory in bytes (whole WebAssembly pages of 64 KiB).
const INITIAL_MEMORY: usize = 28 << 20;

fn main() {
    println!("cargo:rustc-link-arg=-zstack-size={}", 4 << 20);
    println!("cargo:rustc-link-arg=--initial-memory={INITIAL_MEMORY}");
}
