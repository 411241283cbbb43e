//! Helpers shared by commands: loading a ruleset with diagnostics on stderr, atomic file
//! writes, and JSON printing.

use meeplab::ruleset::Ruleset;
use std::path::Path;
use std::process::ExitCode;

/// Load and validate the ruleset an argument names — a path, a bundled ruleset's name
/// (`base`, `goldmines-rgg`; see `dsl::bundled`) or `-` for standard input — printing
/// warnings; on failure print the diagnostics and return exit code 1.
pub fn load(path: &Path) -> Result<Ruleset, ExitCode> {
    match crate::cli::args::load_ruleset(path) {
        Ok(loaded) => {
            crate::cli::args::print_warnings(&loaded);
            Ok(loaded.ruleset)
        }
        Err(diags) => {
            crate::cli::args::print_diagnostics(&diags);
            Err(ExitCode::from(1))
        }
    }
}

/// The seats of a game of `players` under `--policy`; a per-seat list of another length is a
/// usage error (exit code 2) naming both numbers.
pub fn seats_for(
    policy: &meeplab::policy::spec::SeatPolicies,
    players: u8,
) -> Result<meeplab::play::Seats, ExitCode> {
    meeplab::play::Seats::for_players(policy, players).map_err(|e| {
        eprintln!("error: --policy {policy}: {e}");
        ExitCode::from(2)
    })
}

/// What a command over coupled games starts with: distinct ruleset files, loaded, that allow
/// `players` seats, and the seats of `--policy` (each failure printed, with its exit code).
pub fn load_coupled(
    paths: &[std::path::PathBuf],
    players: u8,
    policy: &meeplab::policy::spec::SeatPolicies,
) -> Result<(Vec<Ruleset>, meeplab::play::Seats), ExitCode> {
    check_distinct(paths)?;
    let rules = load_all(paths)?;
    check_players(&rules, players)?;
    let seats = seats_for(policy, players)?;
    Ok((rules, seats))
}

/// Load several rulesets, stopping at the first that fails (its diagnostics printed).
pub fn load_all(paths: &[std::path::PathBuf]) -> Result<Vec<Ruleset>, ExitCode> {
    paths.iter().map(|p| load(p)).collect()
}

/// Refuse the same ruleset file given twice (usage error, exit code 2): comparing a file with
/// itself says nothing. A renamed copy is a different file and stays valid — it is the
/// zero-divergence check.
pub fn check_distinct(args: &[std::path::PathBuf]) -> Result<(), ExitCode> {
    let mut seen: Vec<(std::path::PathBuf, &std::path::PathBuf)> = Vec::new();
    for a in args {
        let located = meeplab::dsl::locate(&a.to_string_lossy());
        let id = std::fs::canonicalize(&located).unwrap_or(located);
        if let Some((_, first)) = seen.iter().find(|(p, _)| *p == id) {
            eprintln!(
                "error: {} and {} are the same ruleset file; compare a ruleset with a renamed \
                 copy of itself for the zero-divergence check",
                first.display(),
                a.display()
            );
            return Err(ExitCode::from(2));
        }
        seen.push((id, a));
    }
    Ok(())
}

/// Refuse a seat count a ruleset is not for (usage error, exit code 2).
pub fn check_players(rules: &[Ruleset], players: u8) -> Result<(), ExitCode> {
    for r in rules {
        if players < r.min_players || players > r.max_players {
            eprintln!(
                "error: {} is for {}–{} players, not {}",
                r.name, r.min_players, r.max_players, players
            );
            return Err(ExitCode::from(2));
        }
    }
    Ok(())
}

/// Write `contents` to `path` atomically (the library's temp-file-and-rename writer), making
/// its folder first, so an interrupted run never leaves a half-written file. A device or a
/// pipe (`/dev/null`) is written directly.
pub fn write_atomic(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    // `--svg /dev/null`, a named pipe: write into it (renaming onto it would replace it)
    if let Ok(meta) = std::fs::metadata(path) {
        if meta.is_dir() {
            return Err(std::io::Error::other("it is a folder"));
        }
        if !meta.is_file() {
            return std::fs::write(path, contents);
        }
    }
    if let Some(dir) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    meeplab::files::atomic::write_atomic(path, contents)
}

/// Report an I/O failure writing `path`; exit code 1.
pub fn io_error(path: &Path, e: std::io::Error) -> ExitCode {
    eprintln!("error: cannot write {}: {e}", path.display());
    ExitCode::from(1)
}

/// Print a finished compare or merge: the summary table and the files written (nothing
/// under `--quiet`).
pub fn print_run(out: &meeplab::compare::session::RunOutput) {
    if crate::cli::args::quiet() {
        return;
    }
    let opening = meeplab::report::verdicts::terminal(&out.report);
    if !opening.is_empty() {
        out!("{opening}");
        outln!();
    }
    out!("{}", meeplab::report::summary_table(&out.report));
    outln!();
    for f in &out.files {
        outln!("wrote {}", f.display());
    }
    for w in &out.report.warnings {
        eprintln!("warning: {w}");
    }
}

/// Print a value as JSON on stdout (`--json`): exit 0, or 1 if it cannot be encoded.
pub fn print_json<T: serde::Serialize + ?Sized>(value: &T) -> ExitCode {
    match serde_json::to_string_pretty(value) {
        Ok(text) => {
            outln!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: cannot encode the output as JSON: {e}");
            ExitCode::from(1)
        }
    }
}
