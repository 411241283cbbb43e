//! `meeplab check FILE... [--json] [--list-options]`: validate rulesets. One line per valid
//! file on stdout (or a JSON array with `--json`); diagnostics on stderr; exit 1 when any
//! file is invalid. `--list-options` prints the option registry's documentation.

use meeplab::dsl::{self, registry};
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Ruleset files (a bare name like `base` also finds `rulesets/base.rules`).
    #[arg(required_unless_present = "list_options")]
    pub files: Vec<String>,
    /// Print a JSON array of {file, name, hash, tiles, tile_types, options} for valid files.
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
        let path = dsl::locate(arg);
        match dsl::load_ruleset(&path) {
            Ok(loaded) => {
                for w in &loaded.warnings {
                    eprintln!("{w}");
                }
                let rs = &loaded.ruleset;
                let set = rs.options.values().filter(|o| o.file.is_some()).count();
                let file = path.display().to_string();
                if args.json {
                    json.push(serde_json::json!({
                        "file": file,
                        "name": rs.name,
                        "hash": rs.hash,
                        "tiles": rs.total_tiles(),
                        "tile_types": rs.tiles.len(),
                        "options": rs.options,
                    }));
                } else {
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
            Err(diags) => {
                failed = true;
                eprint!("{diags}");
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
