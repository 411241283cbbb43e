//! `meeplab sweep`: one ruleset per value of an option (or per combination) on top of a base,
//! played on the same coupled seeds as a `compare`, with the report a house-rule author
//! reads (`sweep.md`, `sweep.html`, `sweep.json`, charts) and the generated rules files.

use crate::cli::args::RunFlags;
use crate::cli::common::load;
use crate::cli::compare::{execute, Settings};
use meeplab::compare::Report;
use meeplab::policy::spec::{PolicySpec, SeatPolicies};
use meeplab::report::fmt::align;
use meeplab::report::sweep::write_sweep_files;
use meeplab::sweep::variants::VariantsError;
use meeplab::sweep::{load_variants, parse_vary, SweepFile, SweepSummary, VarySpec};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  meeplab sweep robbers-2012 --vary 'robbers.share=ceil(points / 3),ceil(points / 2),ceil(2 * points / 3)' --players 4
  meeplab sweep goldmines-hig-2012 --vary 'gold.value=ingots,2 * ingots' --policy greedy
  meeplab sweep --sweep examples/house-rules/robbers-share.sweep")]
pub struct Args {
    /// The base ruleset: a file or a bundled name (or `base = …` in the sweep file).
    pub base: Option<String>,
    /// OPTION=V1,V2,…: the values to try, in the rule language's syntax; values are separated
    /// by commas outside parentheses, braces, brackets and quotes. Repeat for combinations.
    #[arg(long = "vary", value_name = "OPTION=V1,V2,…")]
    pub vary: Vec<String>,
    /// A sweep file (TOML): `base`, a `[vary]` table of option = [values], and optionally
    /// `games`, `players`, `seed`, `policy`. Flags given on the command line win.
    #[arg(long = "sweep", value_name = "FILE")]
    pub sweep_file: Option<PathBuf>,
    /// `--games`, `--players`, `--seed` (each also in the sweep file; the command line wins)
    /// and how the run is carried out.
    #[command(flatten)]
    pub run: RunFlags,
    /// Player policy: one for every seat, or one per seat (`greedy,random`) [default: random].
    #[arg(long, value_parser = crate::cli::args::SeatPolicyParser)]
    pub policy: Option<SeatPolicies>,
    /// Output folder.
    #[arg(long, default_value = "out/sweep")]
    pub out: PathBuf,
    /// Print the sweep summary as JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

fn usage(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(2)
}

pub fn run(args: Args) -> ExitCode {
    let file = match &args.sweep_file {
        Some(path) => match std::fs::read_to_string(path) {
            Ok(text) => match SweepFile::parse(&text) {
                Ok(f) => f,
                Err(e) => {
                    eprintln!("error: {}: {e}", path.display());
                    return ExitCode::from(1);
                }
            },
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", path.display());
                return ExitCode::from(1);
            }
        },
        None => SweepFile::default(),
    };
    let Some(base_arg) = args.base.clone().or(file.base.clone()) else {
        return usage("no base ruleset: give BASE or `base = …` in the sweep file");
    };
    let mut specs: Vec<VarySpec> = file.specs();
    for v in &args.vary {
        match parse_vary(v) {
            Ok(s) => specs.push(s),
            Err(e) => return usage(e),
        }
    }
    let policy = match (args.policy.clone(), &file.policy) {
        (Some(p), _) => p,
        (None, Some(text)) => match text.parse() {
            Ok(p) => p,
            Err(e) => return usage(e),
        },
        (None, None) => SeatPolicies::Every(PolicySpec::Random),
    };
    let settings = Settings {
        games: args.run.games.or(file.games).unwrap_or(args.run.games()),
        players: args
            .run
            .players
            .or(file.players)
            .unwrap_or(args.run.players()),
        seed: args.run.seed.or(file.seed).unwrap_or(args.run.seed()),
        policy,
        out: args.out.clone(),
        threads: args.run.threads,
        shard: args.run.shard,
        format: args.run.format,
        resume: args.run.resume,
        checkpoint_seconds: 5.0,
        resumable: true,
        placebo: false,
        positions: 0,
        positions_given: false,
        luck: Some(false),
        skill: None,
        negligible: Default::default(),
        until: None,
    };

    let base = match load(Path::new(&base_arg)) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let loaded = load_variants(&specs, &base, &base_arg, &settings.out);
    for m in &loaded.messages {
        if !crate::cli::args::quiet() || m.starts_with("error") {
            eprintln!("{m}");
        }
    }
    let (rules, plan) = match loaded.outcome {
        Ok(done) => done,
        Err(VariantsError::Plan(e)) => return usage(e),
        Err(VariantsError::Invalid) => return ExitCode::from(1),
        Err(VariantsError::NothingToCompare) => {
            return usage("every value is the base's own: there is nothing to compare")
        }
    };
    // the generated rulesets and the sweep report go into the run's folder before it
    // appears, so a sweep's files are never missing or left from an earlier run
    let format = settings.format;
    let extra = |dir: &Path, report: Option<&Report>| write_sweep_files(dir, &plan, report, format);
    let out = match execute(&rules, &settings, &extra) {
        Ok(o) => o,
        Err(code) => return code,
    };
    if settings.shard.is_some() {
        if crate::cli::args::quiet() {
            return ExitCode::SUCCESS;
        }
        outln!(
            "shard {} of the sweep done: {} games written to {}; `meeplab merge` the shards \
             for the sweep report",
            args.run.shard.map(|s| s.to_string()).unwrap_or_default(),
            out.accumulator.games,
            settings.out.display()
        );
        return ExitCode::SUCCESS;
    }
    let summary = plan.summarize(&out.report);
    if args.json {
        return crate::cli::common::print_json(&summary);
    } else if !crate::cli::args::quiet() {
        print_summary(&summary);
        for p in &out.files {
            outln!("wrote {}", p.display());
        }
    }
    ExitCode::SUCCESS
}

fn print_summary(s: &SweepSummary) {
    outln!(
        "meeplab sweep: {} games per value · {} players · policy {} · seed {}",
        s.games,
        s.players,
        s.policy,
        s.seed
    );
    outln!("  base: {}\n", s.base);
    out!("{}", align(&meeplab::report::sweep::table_rows(s)));
    outln!();
    for v in &s.verdicts {
        outln!("{v}");
    }
    outln!();
}
