//! `meeplab check FILE... [--json] [--list-options]`: validate rulesets (`-` reads one from
//! standard input). One line per valid file on stdout and diagnostics on stderr; or, with
//! `--json`, one JSON array on stdout with an entry per file, diagnostics included. Exit 1
//! when any file is invalid. `--list-options` prints the option registry's documentation.

use crate::cli::args;
use meeplab::dsl::{self, registry, Diagnostic};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Ruleset files (a bare name like `base` also finds `rulesets/base.rules`; `-` reads
    /// standard input).
    #[arg(required_unless_present = "list_options")]
    pub files: Vec<String>,
    /// Print a JSON array on stdout, one entry per file: {file, ok: true, name, hash, tiles,
    /// tile_types, options, warnings} or {file, ok: false, diagnostics}; each diagnostic
    /// has code, severity, file, line, column, message, help and notes.
    #[arg(long)]
    pub json: bool,
    /// Document every rule option: key, type, allowed values, default, meaning, sources.
    #[arg(long)]
    pub list_options: bool,
}

pub fn run(args: Args) -> ExitCode {
    if args.list_options {
        out!("{}", registry::document());
    }
    let mut failed = false;
    let mut json = Vec::new();
    for arg in &args.files {
        let path = if arg == "-" {
            PathBuf::from("-")
        } else {
            dsl::locate(arg)
        };
        let file = if arg == "-" {
            args::STDIN_NAME.to_string()
        } else {
            path.display().to_string()
        };
        match args::load_ruleset(&path) {
            Ok(loaded) => {
                let rs = &loaded.ruleset;
                let set = rs.options.values().filter(|o| o.file.is_some()).count();
                if args.json {
                    json.push(serde_json::json!({
                        "file": file,
                        "ok": true,
                        "name": rs.name,
                        "hash": rs.hash,
                        "tiles": rs.total_tiles(),
                        "tile_types": rs.tiles.len(),
                        "options": rs.options,
                        "warnings": loaded.warnings.iter().map(diagnostic_json).collect::<Vec<_>>(),
                    }));
                } else {
                    args::print_warnings(&loaded);
                    if !args::quiet() {
                        outln!(
                            "ok {file}: \"{}\" — {} tiles ({} types), {} options ({set} set, {} default), hash {}",
                            rs.name,
                            rs.total_tiles(),
                            rs.tiles.len(),
                            rs.options.len(),
                            rs.options.len() - set,
                            rs.hash
                        );
                    }
                }
            }
            Err(diags) => {
                failed = true;
                if args.json {
                    json.push(serde_json::json!({
                        "file": file,
                        "ok": false,
                        "diagnostics": diags.items().iter().map(diagnostic_json).collect::<Vec<_>>(),
                    }));
                } else {
                    args::print_diagnostics(&diags);
                }
            }
        }
    }
    if args.json {
        match serde_json::to_string_pretty(&json) {
            Ok(s) => outln!("{s}"),
            Err(e) => {
                eprintln!("meeplab check: {e}");
                return ExitCode::from(1);
            }
        }
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// One diagnostic as JSON: where (file, 1-based line and column in characters, byte span),
/// what (code, severity, message) and the help and notes.
fn diagnostic_json(d: &Diagnostic) -> serde_json::Value {
    serde_json::json!({
        "code": d.code,
        "severity": match d.severity {
            dsl::Severity::Error => "error",
            dsl::Severity::Warning => "warning",
        },
        "file": d.file,
        "line": d.line,
        "column": d.col,
        "span": [d.span.start, d.span.end],
        "message": d.message,
        "help": d.help,
        "notes": d.notes,
    })
}
