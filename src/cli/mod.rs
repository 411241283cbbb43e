//! Command-line definition (clap) and dispatch to one file per command.
//!
//! Exit codes: 0 success, 1 invalid input (bad ruleset, failed check), 2 usage errors.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod bench;
mod check;
mod common;
mod compare;
mod diff;
mod ladder;
mod merge;
mod play;
mod replay;
mod sweep;
mod trace;

#[derive(Parser, Debug)]
#[command(
    name = "meeplab",
    version,
    about = "Compare editions and house rules of Carcassonne"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Validate ruleset files; exit 0, or 1 with diagnostics on stderr.
    Check(check::Args),
    /// Print the resolved option-by-option differences between two rulesets.
    Diff(diff::Args),
    /// Play one seeded game and print its log and final table.
    Play(play::Args),
    /// Play the same seeds under several rulesets and report how the results differ.
    Compare(compare::Args),
    /// Merge `compare --shard` outputs into the report of the unsharded run.
    Merge(merge::Args),
    /// One ruleset per value of an option on top of a base: which value changes the game
    /// least or most, and which brings the seats closest to even.
    Sweep(sweep::Args),
    /// One game side by side under several rulesets, with the divergence tree.
    Trace(trace::Args),
    /// Replay a recorded game (meeplab record or JCloisterZone .jcz), optionally under other rules.
    Replay(replay::Args),
    /// Games per second, single thread and all threads.
    Bench(bench::Args),
    /// Player policies against each other in duplicate format: win rates, scores, Elo.
    Ladder(ladder::Args),
}

pub fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match cli.command {
        Command::Check(a) => check::run(a),
        Command::Diff(a) => diff::run(a),
        Command::Play(a) => play::run(a),
        Command::Compare(a) => compare::run(a),
        Command::Merge(a) => merge::run(a),
        Command::Sweep(a) => sweep::run(a),
        Command::Trace(a) => trace::run(a),
        Command::Replay(a) => replay::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Ladder(a) => ladder::run(a),
    }
}
