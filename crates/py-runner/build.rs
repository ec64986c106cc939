//! The runner's linear-memory stack: RustPython's frames are large, and Python's recursion limit
//! (set in `src/lib.rs`) must be reached before this stack or WebAssembly's runs out.

fn main() {
    println!("cargo:rustc-link-arg=-zstack-size={}", 4 << 20);
}
