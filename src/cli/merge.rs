//! `meeplab merge`: combine `compare --shard` outputs into the unsharded run's report.

use meeplab::report::{merge_to_dir, ChartFormat, OutputOptions};
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
    match merge_to_dir(&args.shards, &opts) {
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
