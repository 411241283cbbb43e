//! `meeplab compare`: the same seeds under several rulesets, coupled; prints the summary
//! table and writes report.json, games.csv, report.md and charts to `--out`.
//!
//! SIGINT/SIGTERM stop the run after the batch in flight: it checkpoints, prints how far it
//! got and the command that continues it (`--resume`), and exits 130.

use crate::cli::common::{check_players, load_all};
use indicatif::{ProgressBar, ProgressStyle};
use meeplab::compare::spec::shell_quote;
use meeplab::compare::{CompareSpec, RulesetInfo, Shard};
use meeplab::engine::compile;
use meeplab::policy::spec::SeatPolicies;
use meeplab::report::boards::ExampleRules;
use meeplab::report::{
    compare_to_dir_with, has_checkpoint, ChartFormat, ExtraFiles, Finished, OutputOptions,
    RunOutput,
};
use meeplab::ruleset::Ruleset;
use meeplab::runner::{play_cached, Seats};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by the SIGINT/SIGTERM handler; the run stops after the batch in flight.
static STOP: AtomicBool = AtomicBool::new(false);

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
    /// Player policy: one for every seat, or one per seat, seat 1 first (`greedy,random`).
    #[arg(long, default_value = "random", value_parser = crate::cli::args::SeatPolicyParser)]
    pub policy: SeatPolicies,
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
    /// Continue an interrupted run into --out from its checkpoint (same arguments); the
    /// outputs are byte-identical to an uninterrupted run.
    #[arg(long)]
    pub resume: bool,
    /// Print the report (report.json's content) on stdout instead of the summary table.
    #[arg(long)]
    pub json: bool,
    /// Seconds of work between checkpoints (for tests).
    #[arg(long, default_value_t = 5.0, hide = true)]
    pub checkpoint_seconds: f64,
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
    if let Err(code) = crate::cli::common::check_distinct(&args.rulesets) {
        return code;
    }
    let rules = match load_all(&args.rulesets) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let settings = Settings {
        games: args.games,
        players: args.players,
        seed: args.seed,
        policy: args.policy.clone(),
        out: args.out.clone(),
        threads: args.threads,
        shard: args.shard,
        format: args.format,
        resume: args.resume,
        checkpoint_seconds: args.checkpoint_seconds,
    };
    match execute(&rules, &settings, &|_, _| Ok(Vec::new())) {
        Ok(out) => {
            if settings.shard.is_some() {
                outln!(
                    "shard {} done: {} games written to {}",
                    args.shard.map(|s| s.to_string()).unwrap_or_default(),
                    out.accumulator.games,
                    args.out.display()
                );
            } else if args.json {
                return crate::cli::common::print_json(&out.report);
            } else {
                crate::cli::common::print_run(&out);
            }
            ExitCode::SUCCESS
        }
        Err(code) => code,
    }
}

/// What a coupled run needs besides its rulesets (compare's options; sweep uses them too).
#[derive(Clone, Debug)]
pub struct Settings {
    pub games: u64,
    pub players: u8,
    pub seed: u64,
    pub policy: SeatPolicies,
    pub out: PathBuf,
    pub threads: Option<usize>,
    pub shard: Option<Shard>,
    pub format: ChartFormat,
    pub resume: bool,
    pub checkpoint_seconds: f64,
}

/// Play the coupled run of `rules` (the first is the reference) and write its output folder,
/// with `extra`'s files; errors and interruptions are printed, with the exit code to return
/// (130 after SIGINT/SIGTERM, with the command that resumes).
pub fn execute(
    rules: &[Ruleset],
    settings: &Settings,
    extra: ExtraFiles,
) -> Result<RunOutput, ExitCode> {
    check_players(rules, settings.players)?;
    let seats = match settings.policy.kinds(settings.players) {
        Ok(kinds) => Seats::per_seat(&kinds),
        Err(e) => {
            eprintln!("error: --policy {}: {e}", settings.policy);
            return Err(ExitCode::from(2));
        }
    };
    let Some(seats) = seats else {
        eprintln!("error: --policy {}: no seat to play", settings.policy);
        return Err(ExitCode::from(2));
    };
    let spec = CompareSpec {
        rulesets: rules.iter().map(RulesetInfo::from_ruleset).collect(),
        games: settings.games,
        players: settings.players,
        seed: settings.seed,
        policy: settings.policy.to_string(),
        shard: settings.shard,
        threads: settings.threads,
        command_line: std::env::args().collect::<Vec<_>>().join(" "),
        engine_version: env!("CARGO_PKG_VERSION").to_string(),
        tile_catalogue_hash: match catalogue_hash(rules) {
            Ok(h) => h,
            Err(e) => {
                eprintln!("error: {e}");
                return Err(ExitCode::from(1));
            }
        },
    };
    if let Err(e) = spec.validate() {
        eprintln!("error: {e}");
        return Err(ExitCode::from(2));
    }
    crate::cli::args::prepare_out_dir(&settings.out)?;
    let compiled: Vec<_> = rules.iter().map(compile).collect();
    let show_bar = std::io::stderr().is_terminal()
        && std::env::var_os("CI").is_none()
        && !crate::cli::args::quiet();
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
        dir: settings.out.clone(),
        format: settings.format,
        resume: settings.resume,
        checkpoint_every: std::time::Duration::from_secs_f64(settings.checkpoint_seconds.max(0.0)),
        boards: Some(ExampleRules::new(compiled.clone())),
    };
    if !settings.resume && has_checkpoint(&settings.out) {
        eprintln!(
            "note: starting afresh; the checkpoint of an interrupted run into {} is discarded \
             (add --resume to continue it instead)",
            settings.out.display()
        );
    }
    if let Err(e) = ctrlc::set_handler(|| STOP.store(true, Ordering::SeqCst)) {
        eprintln!("warning: cannot catch interrupts ({e}); an interrupted run is lost");
    }
    let players = settings.players;
    let result = compare_to_dir_with(
        &spec,
        |ri, seed| play_cached(&compiled[ri], seed, players, seats),
        &opts,
        &|n| bar.set_position(n),
        &|| STOP.load(Ordering::SeqCst),
        extra,
    );
    bar.finish_and_clear();
    match result {
        Ok(Finished::Complete(out)) => Ok(*out),
        Ok(Finished::Interrupted {
            games_done,
            games_in_run,
            checkpoint,
        }) => {
            let mut cmd: Vec<String> = std::env::args().map(|a| shell_quote(&a)).collect();
            if !settings.resume {
                cmd.push("--resume".into());
            }
            eprintln!(
                "interrupted: {games_done} of {games_in_run} games played, checkpoint in {}\n\
                 continue with: {}",
                checkpoint.display(),
                cmd.join(" ")
            );
            Err(ExitCode::from(130))
        }
        Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => {
            eprintln!("error: {e}");
            Err(ExitCode::from(2))
        }
        Err(e) => {
            eprintln!(
                "error: writing the report into {}: {e}",
                settings.out.display()
            );
            Err(ExitCode::from(1))
        }
    }
}
