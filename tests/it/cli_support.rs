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

/// `meeplab replay tests/jcz/NAME.jcz --check` passes: exit 0, every assertion holds, no
/// warning.
pub fn assert_jcz_check_passes(name: &str) {
    let path = format!("tests/jcz/{name}.jcz");
    let o = meeplab(&["replay", &path, "--check"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{name}: {err}\n{out}");
    assert!(err.contains("assertion(s) hold"), "{name}: {err}");
    assert!(!err.contains("warning"), "{name}: {err}");
}

/// The save `tests/jcz/NAME.jcz` as JSON.
pub fn jcz_fixture(name: &str) -> serde_json::Value {
    let t = std::fs::read_to_string(root().join(format!("tests/jcz/{name}.jcz"))).unwrap();
    serde_json::from_str(&t).unwrap()
}

/// Write `v` as `dir/NAME` (pretty JSON); its path.
pub fn write_json(dir: &std::path::Path, name: &str, v: &serde_json::Value) -> String {
    let p = dir.join(name);
    std::fs::write(&p, serde_json::to_string_pretty(v).unwrap()).unwrap();
    p.display().to_string()
}

/// `meeplab replay SAVE --check` on the save `v` fails with exit code 1, its error naming
/// each of `needles`, and no panic.
pub fn expect_jcz_error(v: &serde_json::Value, needles: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let p = write_json(dir.path(), "bad.jcz", v);
    let o = meeplab(&["replay", &p, "--check"]);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    for n in needles {
        assert!(err.contains(n), "expected `{n}` in: {err}");
    }
    assert!(!err.contains("panicked"), "{err}");
}
