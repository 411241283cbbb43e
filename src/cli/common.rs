//! Helpers shared by commands: loading a ruleset with diagnostics on stderr, atomic file
//! writes, and JSON printing.

use meeplab::ruleset::Ruleset;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// Load and validate a ruleset; on failure print the diagnostics and return exit code 1.
pub fn load(path: &Path) -> Result<Ruleset, ExitCode> {
    match meeplab::dsl::load_ruleset(path) {
        Ok(loaded) => {
            for w in &loaded.warnings {
                eprintln!("{w}");
            }
            Ok(loaded.ruleset)
        }
        Err(diags) => {
            eprintln!("{diags}");
            Err(ExitCode::from(1))
        }
    }
}

/// Write `contents` to `path` through a temporary file in the same folder and a rename, so
/// an interrupted run never leaves a half-written file.
pub fn write_atomic(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty());
    if let Some(d) = dir {
        std::fs::create_dir_all(d)?;
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let tmp = path.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(contents)?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)
}

/// Report an I/O failure writing `path`; exit code 1.
pub fn io_error(path: &Path, e: std::io::Error) -> ExitCode {
    eprintln!("error: cannot write {}: {e}", path.display());
    ExitCode::from(1)
}
