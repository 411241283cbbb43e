//! Running the `meeplab` binary from the integration tests: from the crate root, with no
//! colour and no progress bar, output captured.

#![allow(dead_code)] // each test crate uses part of it

use std::path::PathBuf;
use std::process::{Command, Output};

/// The crate root (where `rulesets/` and `tests/jcz/` are).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Run `meeplab ARGS` from the crate root.
pub fn meeplab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_meeplab"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .env("CI", "true")
        .output()
        .expect("run meeplab")
}

/// (stdout, stderr) as text.
pub fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}
