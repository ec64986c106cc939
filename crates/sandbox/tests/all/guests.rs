//! Building a guest bot of `tests/guests/` for `wasm32-wasip1`; shared by the tests and the
//! `speed` example.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The guest packages' directory.
pub fn guests_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/guests")
}

/// Builds guest `name` (release, `debug = "line-tables-only"`) into `target_dir` and returns
/// the path of its `.wasm`. The error says how to install a missing `wasm32-wasip1` target.
pub fn build(name: &str, target_dir: &Path) -> Result<PathBuf, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let manifest = guests_dir().join(name).join("Cargo.toml");
    let output = Command::new(&cargo)
        .args(["build", "--release", "--quiet", "--target", "wasm32-wasip1", "--manifest-path"])
        .arg(&manifest)
        .arg("--target-dir")
        .arg(target_dir)
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .output()
        .map_err(|e| format!("cannot run cargo to build guest {name}: {e}"))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        if stderr.contains("may not be installed") || stderr.contains("can't find crate for `core`")
        {
            return Err("the wasm32-wasip1 target is not installed; add it with \
                        `rustup target add wasm32-wasip1`"
                .into());
        }
        return Err(format!("building guest {name} failed:\n{stderr}"));
    }
    Ok(target_dir.join("wasm32-wasip1/release").join(format!("{name}.wasm")))
}
