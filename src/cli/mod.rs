//! Command-line definition (clap) and dispatch to one file per command.
//!
//! Exit codes: 0 success, 1 invalid input (bad ruleset, failed check), 2 usage errors.

use clap::{CommandFactory, Parser, Subcommand};
use std::process::ExitCode;

mod args;
mod bench;
mod calibrate;
mod check;
mod common;
mod compare;
mod diff;
mod explain;
mod ladder;
mod merge;
mod plan;
mod play;
mod replay;
mod sweep;
mod trace;

#[derive(Parser, Debug)]
#[command(
    name = "meeplab",
    version,
    about = "Compare editions and house rules of Carcassonne",
    after_help = "Examples:\n  meeplab check rulesets/*.rules\n  meeplab compare base goldmines-hig-2012 --games 2000 --out out/gold\n\nSee `meeplab help COMMAND` for each command's options and examples."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    #[command(flatten)]
    pub global: args::GlobalArgs,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Validate ruleset files; exit 0, or 1 with diagnostics on stderr.
    #[command(
        after_help = "Examples:\n  meeplab check rulesets/*.rules\n  cat my.rules | meeplab check --json -"
    )]
    Check(check::Args),
    /// Print the resolved option-by-option differences between two rulesets.
    #[command(
        after_help = "Examples:\n  meeplab diff goldmines-hig-2012 goldmines-rgg\n  meeplab diff --exit-code base my.rules || echo \"they differ\""
    )]
    Diff(diff::Args),
    /// Explain a diagnostic code (`E0201`, `W0101`, …) with a wrong and a right example;
    /// without a code, list every code.
    #[command(after_help = "Examples:\n  meeplab explain E0201\n  meeplab explain")]
    Explain(explain::Args),
    /// Play one seeded game and print its log and final table.
    #[command(
        after_help = "Examples:\n  meeplab play base --seed 7 --players 3\n  meeplab play goldmines-hig-2012 --policy greedy --svg board.svg --record game.json"
    )]
    Play(play::Args),
    /// Play the same seeds under several rulesets and report how the results differ.
    #[command(
        after_help = "Examples:\n  meeplab compare base goldmines-hig-2012 --games 2000 --out out/gold\n  meeplab compare base my.rules --players 4 --policy greedy --format both"
    )]
    Compare(compare::Args),
    /// Merge `compare --shard` outputs into the report of the unsharded run.
    #[command(
        after_help = "Example:\n  meeplab compare base my.rules --shard 1/2 --out s1 && meeplab compare base my.rules --shard 2/2 --out s2\n  meeplab merge s1 s2 --out out/merged"
    )]
    Merge(merge::Args),
    /// One ruleset per value of an option on top of a base: which value changes the game
    /// least or most, and which brings the seats closest to even.
    Sweep(sweep::Args),
    /// One game side by side under several rulesets, with the divergence tree.
    #[command(
        after_help = "Examples:\n  meeplab trace base goldmines-hig-2012 --seed 42\n  meeplab trace base goldmines-hig-2012 --seed 42 --dot tree.dot && dot -Tsvg tree.dot -o tree.svg"
    )]
    Trace(trace::Args),
    /// Replay a recorded game (meeplab record or JCloisterZone .jcz), optionally under other rules.
    #[command(
        after_help = "Examples:\n  meeplab replay game.json\n  meeplab replay game.json --ruleset goldmines-rgg --on-illegal policy"
    )]
    Replay(replay::Args),
    /// Games per second, single thread and all threads.
    #[command(
        after_help = "Examples:\n  meeplab bench\n  meeplab bench goldmines-hig-2012 --games 5000 --policy greedy --json"
    )]
    Bench(bench::Args),
    /// Print a shell completion script.
    #[command(
        after_help = "Examples:\n  meeplab completions bash > ~/.local/share/bash-completion/completions/meeplab\n  meeplab completions zsh > ~/.zfunc/_meeplab"
    )]
    Completions {
        /// The shell to complete for.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), or write one page per command into a folder.
    #[command(
        after_help = "Examples:\n  meeplab man | man -l -\n  meeplab man --out ~/.local/share/man/man1"
    )]
    Man {
        /// Write meeplab.1 and meeplab-COMMAND.1 pages into this folder instead.
        #[arg(long, value_name = "DIR")]
        out: Option<std::path::PathBuf>,
    },
    /// Player policies against each other in duplicate format: win rates, scores, Elo.
    #[command(
        after_help = "Examples:\n  meeplab ladder random greedy --games 2000\n  meeplab ladder random greedy --ruleset goldmines-hig-2012 --players 3"
    )]
    Ladder(ladder::Args),
    /// Size a compare run from a short pilot: the games a rule effect needs, and how long.
    #[command(
        after_help = "Examples:\n  meeplab plan goldmines-hig-2012 goldmines-rgg --policy greedy --effect 2pp\n  meeplab plan base my.rules --policy heuristic --effect 3pts --pilot 500 --json"
    )]
    Plan(plan::Args),
    /// Check the verdicts' error rates: K comparisons of a ruleset against a null copy of
    /// itself, each verdict's false-positive rate with its interval.
    #[command(
        after_help = "Examples:\n  meeplab calibrate goldmines-hig-2012 --null relabel-deck --runs 200\n  meeplab calibrate my.rules --null reorder-segments --runs 100 --games 300 --policy random"
    )]
    Calibrate(calibrate::Args),
}

pub fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            if let Some(message) = negative_number_message(&e) {
                eprintln!("error: {message}");
                return ExitCode::from(2);
            }
            let code = if e.use_stderr() { 2 } else { 0 };
            let printed = e.print().and_then(|()| {
                use std::io::Write;
                std::io::stdout().flush()
            });
            if let Err(io) = printed {
                // `--help > /dev/full`: the text did not get out (a closed pipe is no error)
                if io.kind() != std::io::ErrorKind::BrokenPipe {
                    eprintln!("error: cannot write to standard output: {io}");
                    return ExitCode::from(1);
                }
            }
            return ExitCode::from(code);
        }
    };
    cli.global.apply();
    let started = std::time::Instant::now();
    let code = match cli.command {
        Command::Check(a) => check::run(a),
        Command::Diff(a) => diff::run(a),
        Command::Explain(a) => explain::run(a),
        Command::Play(a) => play::run(a),
        Command::Compare(a) => compare::run(a),
        Command::Merge(a) => merge::run(a),
        Command::Sweep(a) => sweep::run(a),
        Command::Trace(a) => trace::run(a),
        Command::Replay(a) => replay::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Ladder(a) => ladder::run(a),
        Command::Plan(a) => plan::run(a),
        Command::Calibrate(a) => calibrate::run(a),
        Command::Completions { shell } => completions(shell),
        Command::Man { out } => man(out.as_deref()),
    };
    if args::verbose() {
        eprintln!("took {:.2} s", started.elapsed().as_secs_f64());
    }
    code
}

/// A clear message for a negative number given to an option (`--games -5`), which clap
/// reads as an unknown flag and answers with a tip to write `-- -5`: `None` for any other
/// error.
fn negative_number_message(e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    let Some(ContextValue::String(arg)) = e.get(ContextKind::InvalidArg) else {
        return None;
    };
    let digits = arg.strip_prefix('-')?;
    if digits.is_empty() || digits.parse::<f64>().is_err() {
        return None;
    }
    let args: Vec<String> = std::env::args().collect();
    let option = args
        .iter()
        .position(|a| a == arg)
        .and_then(|k| k.checked_sub(1))
        .map(|k| args[k].as_str())
        .filter(|o| o.starts_with("--"));
    Some(match option {
        Some(o) => format!("{o} {arg}: {o} takes a number of 0 or more, not a negative one"),
        None => format!("{arg}: a negative number is no argument of this command"),
    })
}

/// `meeplab completions SHELL`: the completion script on stdout.
fn completions(shell: clap_complete::Shell) -> ExitCode {
    let mut cmd = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, "meeplab", &mut script);
    out!("{}", String::from_utf8_lossy(&script));
    ExitCode::SUCCESS
}

/// `meeplab man [--out DIR]`: the manual page as roff on stdout, or every page into DIR.
fn man(out: Option<&std::path::Path>) -> ExitCode {
    let cmd = Cli::command();
    let result = match out {
        Some(dir) => std::fs::create_dir_all(dir)
            .and_then(|()| clap_mangen::generate_to(cmd, dir))
            .map_err(|e| format!("cannot write manual pages into {}: {e}", dir.display())),
        None => {
            let mut page = Vec::new();
            clap_mangen::Man::new(cmd)
                .render(&mut page)
                .map(|()| out!("{}", String::from_utf8_lossy(&page)))
                .map_err(|e| format!("cannot render the manual page: {e}"))
        }
    };
    match result {
        Ok(()) => {
            if let Some(dir) = out.filter(|_| !args::quiet()) {
                outln!("wrote manual pages to {}", dir.display());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}
