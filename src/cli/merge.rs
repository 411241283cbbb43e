//! `meeplab merge` (not yet built: see the open issues).

use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Arguments (placeholder until this command is built).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub rest: Vec<String>,
}

pub fn run(_args: Args) -> ExitCode {
    eprintln!("meeplab merge: not available in this build yet");
    ExitCode::from(2)
}
