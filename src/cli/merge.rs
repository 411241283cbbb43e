//! `meeplab merge`: combine `compare --shard` (or `sweep --shard`) outputs into the unsharded
//! run's report; shards of a sweep also give the sweep's report.

use meeplab::compare::session::merge_to_dir_with;
use meeplab::compare::ShardFile;
use meeplab::engine::compile;
use meeplab::files::json::read_json;
use meeplab::files::names::{ACCUMULATOR_JSON, RULES_FOLDER};
use meeplab::report::boards::ExampleRules;
use meeplab::report::{ChartFormat, ReportFiles};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Shard output folders.
    #[arg(required = true)]
    pub shards: Vec<PathBuf>,
    /// Output folder.
    #[arg(long)]
    pub out: PathBuf,
    /// Print the merged report (report.json's content) on stdout instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Chart format.
    #[arg(long, default_value = "svg")]
    pub format: ChartFormat,
}

pub fn run(args: Args) -> ExitCode {
    let writer = ReportFiles {
        format: args.format,
        boards: example_rules(&args.shards),
    };
    if let Err(code) = crate::cli::args::prepare_out_dir(&args.out) {
        return code;
    }
    // shards of a sweep carry its plan: the merged folder gets the sweep report too
    let mut plans = Vec::with_capacity(args.shards.len());
    for dir in &args.shards {
        match meeplab::report::sweep::read_sweep_plan(dir) {
            Ok(p) => plans.push(p),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(1);
            }
        }
    }
    if plans.windows(2).any(|w| w[0] != w[1]) {
        eprintln!("error: the shards are not all of the same sweep (their sweep-plan.json differ)");
        return ExitCode::from(1);
    }
    let plan = plans.into_iter().next().flatten();
    let format = args.format;
    let extra = |dir: &std::path::Path, report: Option<&meeplab::compare::Report>| match &plan {
        Some(p) => meeplab::report::sweep::write_sweep_files(dir, p, report, format),
        None => Ok(Vec::new()),
    };
    match merge_to_dir_with(&args.shards, &args.out, &writer, &extra) {
        Ok(out) if args.json => crate::cli::common::print_json(&out.report),
        Ok(out) => {
            crate::cli::common::print_run(&out);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

/// The rulesets of the shards' run, for the boards of the example games: each loaded from the
/// file the run names (or, for a sweep's generated rulesets, from the shard's `rulesets/`
/// folder) and checked against the run's content hash. `None`, with a note, when one cannot
/// be found: the merged report then shows the examples without boards. A broken shard is
/// left to the merge to report.
fn example_rules(shards: &[PathBuf]) -> Option<ExampleRules> {
    let first = shards.first()?;
    let run: ShardFile = read_json(&first.join(ACCUMULATOR_JSON)).ok()?;
    let mut compiled = Vec::new();
    for info in &run.spec.rulesets {
        let mut candidates: Vec<PathBuf> = Vec::new();
        if let Some(file) = &info.file {
            candidates.push(PathBuf::from(file));
            if let Some(name) = Path::new(file).file_name() {
                candidates.extend(shards.iter().map(|d| d.join(RULES_FOLDER).join(name)));
            }
        }
        let found = candidates.iter().find_map(|c| {
            crate::cli::args::load_ruleset(c)
                .ok()
                .filter(|l| l.ruleset.hash == info.hash)
        });
        match found {
            Some(loaded) => compiled.push(compile(&loaded.ruleset)),
            None => {
                if !crate::cli::args::quiet() {
                    eprintln!(
                        "note: the example games are shown without boards: ruleset \"{}\" \
                         (hash {}) was not found{}",
                        info.name,
                        info.hash,
                        info.file
                            .as_deref()
                            .map(|f| format!(" at {f}"))
                            .unwrap_or_default()
                    );
                }
                return None;
            }
        }
    }
    Some(ExampleRules::new(compiled))
}
