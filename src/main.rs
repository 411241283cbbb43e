//! The `meeplab` command line: argument parsing and dispatch only; no game logic here.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::run()
}
