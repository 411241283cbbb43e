//! JSON files, read and written whole: pretty-printed with a trailing newline, written
//! atomically ([`super::atomic`]). `report.json`, `accumulator.json`, `timing.json`, the
//! checkpoint and the ladder's and levels' JSON all go through here.

use super::atomic::write_atomic;
use serde::{de::DeserializeOwned, Serialize};
use std::io;
use std::path::Path;

/// Writes `value` as pretty JSON with a trailing newline, atomically.
pub fn write_json<T: Serialize + ?Sized>(path: &Path, value: &T) -> io::Result<()> {
    let mut text = serde_json::to_string_pretty(value).map_err(io::Error::other)?;
    text.push('\n');
    write_atomic(path, text.as_bytes())
}

/// Reads a JSON file written by [`write_json`].
pub fn read_json<T: DeserializeOwned>(path: &Path) -> io::Result<T> {
    let text = std::fs::read_to_string(path)?;
    serde_json::from_str(&text).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{}: {e}", path.display()),
        )
    })
}
