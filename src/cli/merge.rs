//! `meeplab merge`: combine `compare --shard` (or `sweep --shard`) outputs into the unsharded
//! run's report; shards of a sweep also give the sweep's report.

use meeplab::report::{merge_to_dir_with, ChartFormat, OutputOptions};
use std::path::PathBuf;
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
    let opts = OutputOptions {
        dir: args.out.clone(),
        format: args.format,
        ..OutputOptions::default()
    };
    if let Err(code) = crate::cli::args::prepare_out_dir(&args.out) {
        return code;
    }
    // shards of a sweep carry its plan: the merged folder gets the sweep report too
    let mut plans = Vec::with_capacity(args.shards.len());
    for dir in &args.shards {
        match crate::cli::sweep::read_plan(dir) {
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
        Some(p) => crate::cli::sweep::write_files(dir, p, report, format),
        None => Ok(Vec::new()),
    };
    match merge_to_dir_with(&args.shards, &opts, &extra) {
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
