//! `meeplab compare`: the same seeds under several rulesets, coupled; prints the summary
//! table and writes report.json, games.csv, report.md and charts to `--out`.

use crate::cli::common::{check_players, load_all};
use indicatif::{ProgressBar, ProgressStyle};
use meeplab::compare::{compare_to_dir, CompareSpec, OutputOptions, RulesetInfo, Shard};
use meeplab::engine::compile;
use meeplab::policy::PolicyKind;
use meeplab::report::ChartFormat;
use meeplab::ruleset::Ruleset;
use meeplab::runner::play_cached;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Ruleset files (two or more); the first is the reference for divergence.
    #[arg(required = true, num_args = 2..)]
    pub rulesets: Vec<PathBuf>,
    /// Games (seeds) to play under every ruleset.
    #[arg(long, default_value_t = 10_000)]
    pub games: u64,
    /// Players per game.
    #[arg(long, default_value_t = 2)]
    pub players: u8,
    /// Master seed; game i plays a seed derived from it.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Player policy for every seat.
    #[arg(long, default_value = "random")]
    pub policy: PolicyKind,
    /// Output folder.
    #[arg(long, default_value = "out/compare")]
    pub out: PathBuf,
    /// Worker threads (default: all cores). Never changes the results.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Run only shard k of n (seed blocks b with b % n == k-1); merge with `meeplab merge`.
    #[arg(long)]
    pub shard: Option<Shard>,
    /// Chart format.
    #[arg(long, default_value = "svg")]
    pub format: ChartFormat,
}

/// A stable hash of the tile catalogues the rulesets use.
fn catalogue_hash(rules: &[Ruleset]) -> Result<String, String> {
    let mut text = String::new();
    for r in rules {
        let part = serde_json::to_string(&(&r.tiles, &r.deck))
            .map_err(|e| format!("cannot encode the tile catalogue of {}: {e}", r.name))?;
        text.push_str(&part);
    }
    Ok(format!("{:016x}", meeplab::engine::rng::hash_str(&text)))
}

pub fn run(args: Args) -> ExitCode {
    let rules = match load_all(&args.rulesets) {
        Ok(r) => r,
        Err(code) => return code,
    };
    if let Err(code) = check_players(&rules, args.players) {
        return code;
    }
    let spec = CompareSpec {
        rulesets: rules.iter().map(RulesetInfo::from_ruleset).collect(),
        games: args.games,
        players: args.players,
        seed: args.seed,
        policy: args.policy.name().to_string(),
        shard: args.shard,
        threads: args.threads,
        command_line: std::env::args().collect::<Vec<_>>().join(" "),
        engine_version: env!("CARGO_PKG_VERSION").to_string(),
        tile_catalogue_hash: match catalogue_hash(&rules) {
            Ok(h) => h,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(1);
            }
        },
    };
    if let Err(e) = spec.validate() {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    let compiled: Vec<_> = rules.iter().map(compile).collect();
    let show_bar = std::io::stderr().is_terminal() && std::env::var_os("CI").is_none();
    let bar = if show_bar {
        let pb = ProgressBar::new(spec.games_in_run());
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} games  {per_sec}  eta {eta}")
        {
            pb.set_style(style);
        }
        pb
    } else {
        ProgressBar::hidden()
    };
    let opts = OutputOptions {
        dir: args.out.clone(),
        format: args.format,
    };
    let players = args.players;
    let policy = args.policy;
    let result = compare_to_dir(
        &spec,
        |ri, seed| play_cached(&compiled[ri], seed, players, policy),
        &opts,
        &|n| bar.set_position(n),
    );
    bar.finish_and_clear();
    match result {
        Ok(out) => {
            if spec.shard.is_some() {
                outln!(
                    "shard {} done: {} games written to {}",
                    args.shard.map(|s| s.to_string()).unwrap_or_default(),
                    out.accumulator.games,
                    args.out.display()
                );
            } else {
                crate::cli::common::print_run(&out);
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}
