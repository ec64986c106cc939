//! Klotski layouts named on the command line (`solve`, `play klotski`): a bundled name or a
//! layout file.

use std::path::Path;

use anyhow::{anyhow, bail};
use botlens_klotski::{Layout, bundled};

/// The most bytes of a layout file read: the largest board (16×16, 256 pieces) takes a few KiB.
pub const LAYOUT_LIMIT: u64 = 1 << 20;

/// Loads a layout argument: a bundled name or alias, else a layout file (a regular file of at
/// most [`LAYOUT_LIMIT`] bytes: a FIFO or a device is refused, never waited on).
pub fn load_layout(arg: &Path) -> anyhow::Result<Layout> {
    if let Some(layout) = arg.to_str().and_then(bundled::find) {
        return Ok(layout);
    }
    if !arg.exists() {
        bail!(
            "no bundled layout or file named `{}` (bundled: {})",
            arg.display(),
            bundled::names()
        );
    }
    let text = botlens_replay::read_text(arg, LAYOUT_LIMIT)
        .map_err(|e| anyhow!("cannot read layout file {}: {e}", arg.display()))?;
    Layout::parse(&text).map_err(|e| anyhow!("{}:{e}", arg.display()))
}
