//! `meeplab explain [CODE]`: what a diagnostic code means, with a wrong and a right example
//! (as `rustc --explain`); without a code, every code with its title. An unknown code is an
//! error (exit 1).

use meeplab::dsl::codes::{self, Code};
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The code to explain, e.g. `E0201` (case does not matter); leave it out to list
    /// every code.
    pub code: Option<String>,
}

pub fn run(args: Args) -> ExitCode {
    let Some(id) = args.code else {
        for code in codes::ALL {
            outln!("{}  {}", code.id, code.title);
        }
        return ExitCode::SUCCESS;
    };
    match Code::lookup(id.trim()) {
        Some(code) => {
            out!("{code}");
            ExitCode::SUCCESS
        }
        None => {
            eprintln!(
                "meeplab explain: `{id}` is not a meeplab diagnostic code; `meeplab explain` \
                 lists them all"
            );
            ExitCode::from(1)
        }
    }
}
