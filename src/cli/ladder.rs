//! `meeplab ladder`: policies against each other in duplicate format; prints the table and
//! writes ladder.json, ladder.md and charts to `--out` (see `meeplab::ladder`).

use crate::cli::common::{check_players, load};
use indicatif::{ProgressBar, ProgressStyle};
use meeplab::engine::compile;
use meeplab::ladder::{run_ladder, LadderSpec, RulesetRef};
use meeplab::policy::spec::PolicySpec;
use meeplab::report::ladder::{summary_table, write_ladder};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Policies to measure (two or more; a repeat is measured against itself): random, greedy,
    /// heuristic, mcts, mcts:N, mcts:N:STYLE (STYLE: points, the default; lead; win). The first
    /// is the Elo anchor (0).
    #[arg(required = true, num_args = 2..)]
    pub policies: Vec<PolicySpec>,
    /// Ruleset: a bundled name (base, goldmines-hig-2012, …) or a file.
    #[arg(long, default_value = "base")]
    pub ruleset: PathBuf,
    /// Deals (seeds); each is played once per seating (2 games for two policies, 2 players).
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// Players per game.
    #[arg(long, default_value_t = 2)]
    pub players: u8,
    /// Master seed; deal i plays a seed derived from it.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output folder.
    #[arg(long, default_value = "out/ladder")]
    pub out: PathBuf,
    /// Worker threads (default: all cores). Never changes the results.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print ladder.json on stdout instead of the table.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> ExitCode {
    let rules = match load(&args.ruleset) {
        Ok(r) => r,
        Err(code) => return code,
    };
    if let Err(code) = check_players(std::slice::from_ref(&rules), args.players) {
        return code;
    }
    let spec = LadderSpec {
        policies: args.policies.clone(),
        ruleset: RulesetRef::from_ruleset(&rules),
        players: args.players,
        deals: args.games,
        seed: args.seed,
    };
    if let Err(e) = spec.validate() {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    let compiled = compile(&rules);
    let show_bar = std::io::stderr().is_terminal()
        && std::env::var_os("CI").is_none()
        && !crate::cli::args::quiet();
    let bar = if show_bar {
        let pb = ProgressBar::new(spec.deals);
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} deals  {per_sec}  eta {eta}")
        {
            pb.set_style(style);
        }
        pb
    } else {
        ProgressBar::hidden()
    };
    let started = Instant::now();
    let result = run_ladder(&spec, &compiled, args.threads, &|n| bar.set_position(n));
    bar.finish_and_clear();
    let report = match result {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let seconds = started.elapsed().as_secs_f64();
    let files = match write_ladder(&args.out, &report) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", args.out.display());
            return ExitCode::from(1);
        }
    };
    if args.json {
        match serde_json::to_string_pretty(&report) {
            Ok(text) => outln!("{text}"),
            Err(e) => {
                eprintln!("error: cannot encode the report: {e}");
                return ExitCode::from(1);
            }
        }
    } else if !crate::cli::args::quiet() {
        out!("{}", summary_table(&report));
        outln!();
        for f in &files.files {
            outln!("wrote {}", f.display());
        }
    }
    if !crate::cli::args::quiet() {
        eprintln!(
            "played {} games in {seconds:.2} s ({:.3} ms per game, all threads)",
            report.games,
            1e3 * seconds / report.games.max(1) as f64
        );
    }
    ExitCode::SUCCESS
}
