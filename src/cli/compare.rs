//! `meeplab compare`: the same seeds under several rulesets, coupled; prints the summary
//! table and writes report.json, games.csv, report.md and charts to `--out`.
//!
//! SIGINT/SIGTERM stop the run after the batch in flight: it checkpoints, prints how far it
//! got and the command that continues it (`--resume`), and exits 130.
//!
//! `--policy` given several times compares at several skill levels: each level is a whole run
//! of the same seeds in `OUT/levels/<policy>/`, and `OUT` gets the side-by-side report
//! ([`meeplab::report::levels`]). The whole folder appears at once when every level is done;
//! such a run is not sharded or resumed (each level alone can be).

use crate::cli::args::RunFlags;
use crate::cli::common::{check_players, load_all};
use indicatif::{ProgressBar, ProgressStyle};
use meeplab::compare::session::{
    has_checkpoint, run_to_dir_with, ExtraFiles, Finished, FolderOptions, RunOutput,
};
use meeplab::compare::setup::{compare_spec, SpecSettings};
use meeplab::compare::skill::SkillSpec;
use meeplab::compare::spec::shell_quote;
use meeplab::compare::CoupledPlayer;
use meeplab::compare::Shard;
use meeplab::engine::compile;
use meeplab::files::folder::Staging;
use meeplab::files::names::LEVELS_FOLDER;
use meeplab::policy::spec::{PolicySpec, SeatPolicies};
use meeplab::report::boards::ExampleRules;
use meeplab::report::levels::{
    folder_name, levels_table, write_levels_report, Level, LevelsReport,
};
use meeplab::report::{ChartFormat, ReportFiles};
use meeplab::ruleset::Ruleset;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

/// Decision-probe positions when `--positions` is not given (fewer when the run has fewer
/// games): a few hundred decisions, cheap beside the games themselves.
pub const DEFAULT_POSITIONS: u64 = 200;

/// Set by the SIGINT/SIGTERM handler; the run stops after the batch in flight.
static STOP: AtomicBool = AtomicBool::new(false);

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Ruleset files (two or more); the first is the reference for divergence.
    #[arg(required = true, num_args = 2..)]
    pub rulesets: Vec<PathBuf>,
    #[command(flatten)]
    pub run: RunFlags,
    /// Player policy: one for every seat, or one per seat, seat 1 first (`greedy,random`).
    /// Give it several times to compare at several skill levels, the same seeds at each
    /// (`--policy random --policy greedy --policy mcts:200`).
    #[arg(
        long,
        default_value = "random",
        value_parser = crate::cli::args::SeatPolicyParser,
        action = clap::ArgAction::Append
    )]
    pub policy: Vec<SeatPolicies>,
    /// Output folder.
    #[arg(long, default_value = "out/compare")]
    pub out: PathBuf,
    /// Print the report (report.json's content) on stdout instead of the summary table.
    #[arg(long)]
    pub json: bool,
    /// Leave out the same-rules placebo (A vs A′, B vs B′: the players' own keys salted from
    /// the turn each pair parted), the yardstick of what chance alone gives. It costs two more
    /// games for every seed whose pair played differently.
    #[arg(long)]
    pub no_placebo: bool,
    /// Decision probes: positions sampled from the games (position p in game p, spread over
    /// the early, middle and late game), each asked of the policy under every ruleset, and
    /// again with the player's own luck redrawn (default: 200, or every game when fewer).
    #[arg(long)]
    pub positions: Option<u64>,
    /// Measure every game's tile luck and report luck-corrected shifts beside the raw ones
    /// (default: on when a seat plays heuristic or mcts, or with --skill; the meter costs
    /// about 0.1–0.3 s of CPU a game, more than a random or greedy game itself).
    #[arg(long, conflicts_with = "no_luck")]
    pub luck: bool,
    /// Leave out the luck meter (see --luck).
    #[arg(long)]
    pub no_luck: bool,
    /// Skill depth: also play every seed in duplicate under each ruleset, the STRONG policy
    /// in one seat and WEAK in the others, each seat in turn (e.g. --skill heuristic,greedy).
    #[arg(long, value_name = "STRONG,WEAK", value_parser = parse_skill)]
    pub skill: Option<SkillPolicies>,
    /// The sizes below which a difference is negligible, for the verdicts: a share in
    /// percentage points (win rates, the winner-changed excess, decisions) and/or a score in
    /// points, e.g. `2pp`, `0.5pt`, `2pp,0.5pt` [default: 1pp,1pt].
    #[arg(long, value_name = "SIZE", value_parser = meeplab::compare::verdict::Negligible::parse)]
    pub negligible: Option<meeplab::compare::verdict::Negligible>,
    /// Stop before --games (then the cap) once the answer is known: `decided` (every headline
    /// verdict is a difference or negligible) or `±X` (every headline interval narrower than
    /// X: `1pp`, `0.5pt`, `1pp,0.5pt`). The verdicts then use anytime-valid confidence
    /// sequences, valid whenever the run stops.
    #[arg(long, value_name = "decided|±X", value_parser = meeplab::compare::verdict::Until::parse)]
    pub until: Option<meeplab::compare::verdict::Until>,
    /// Seconds of work between checkpoints (for tests).
    #[arg(long, default_value_t = 5.0, hide = true)]
    pub checkpoint_seconds: f64,
}

pub fn run(args: Args) -> ExitCode {
    if let Err(code) = crate::cli::common::check_distinct(&args.rulesets) {
        return code;
    }
    if let Err(code) = check_levels(&args.policy, args.run.players()) {
        return code;
    }
    let rules = match load_all(&args.rulesets) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let Some(first_policy) = args.policy.first() else {
        eprintln!("error: no --policy");
        return ExitCode::from(2);
    };
    let settings = Settings {
        games: args.run.games(),
        players: args.run.players(),
        seed: args.run.seed(),
        policy: first_policy.clone(),
        out: args.out.clone(),
        threads: args.run.threads,
        shard: args.run.shard,
        format: args.run.format,
        resume: args.run.resume,
        checkpoint_seconds: args.checkpoint_seconds,
        resumable: true,
        placebo: !args.no_placebo,
        positions: match args.positions {
            Some(0) => {
                eprintln!(
                    "error: --positions 0: give at least 1 (each probed position asks the \
                     policy a few decisions; the default is {DEFAULT_POSITIONS})"
                );
                return ExitCode::from(2);
            }
            Some(n) => n,
            None => DEFAULT_POSITIONS.min(args.run.games()),
        },
        positions_given: args.positions.is_some(),
        luck: match (args.luck, args.no_luck) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        },
        skill: args.skill,
        negligible: args.negligible.unwrap_or_default(),
        until: args.until,
    };
    if args.policy.len() > 1 && settings.skill.is_some() {
        eprintln!(
            "error: --skill plays its own duplicate games once per run; give it with a single \
             --policy level (run one compare per level)"
        );
        return ExitCode::from(2);
    }
    if args.policy.len() > 1 {
        return run_levels(&rules, &settings, &args.policy, args.json);
    }
    match execute(&rules, &settings, &|_, _| Ok(Vec::new())) {
        Ok(out) => {
            if settings.shard.is_some() {
                if crate::cli::args::quiet() {
                    return ExitCode::SUCCESS;
                }
                outln!(
                    "shard {} done: {} games written to {}",
                    args.run.shard.map(|s| s.to_string()).unwrap_or_default(),
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
    /// An interrupted run may be continued with `--resume` (false for the levels of a
    /// multi-level run, which is started again instead).
    pub resumable: bool,
    /// Play the same-rules placebo ([`meeplab::compare::placebo`]).
    pub placebo: bool,
    /// Decision-probe positions ([`meeplab::compare::decisions`]); 0 for none.
    pub positions: u64,
    /// `positions` was asked for (`--positions`), not the default.
    pub positions_given: bool,
    /// `--luck` / `--no-luck`; `None` for the default (on when a seat plays heuristic or
    /// mcts, or with a skill study).
    pub luck: Option<bool>,
    /// `--skill STRONG,WEAK`.
    pub skill: Option<SkillPolicies>,
    /// `--negligible`.
    pub negligible: meeplab::compare::verdict::Negligible,
    /// `--until`.
    pub until: Option<meeplab::compare::verdict::Until>,
}

/// The two policies of `--skill STRONG,WEAK`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SkillPolicies {
    pub strong: PolicySpec,
    pub weak: PolicySpec,
}

/// Parses `--skill STRONG,WEAK`: two different known policies.
fn parse_skill(text: &str) -> Result<SkillPolicies, String> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let [strong, weak] = parts[..] else {
        return Err(format!(
            "--skill takes two policies, the strong then the weak, e.g. --skill heuristic,greedy \
             (got {} in `{text}`)",
            parts.len()
        ));
    };
    let parse = |t: &str| {
        t.parse::<PolicySpec>()
            .map_err(|e| format!("--skill: `{t}` is not a policy: {e}"))
    };
    let (strong, weak) = (parse(strong)?, parse(weak)?);
    if strong.kind() == weak.kind() {
        return Err(format!(
            "--skill {strong},{weak}: the same policy twice measures nothing; give a stronger \
             and a weaker one, e.g. --skill heuristic,greedy"
        ));
    }
    Ok(SkillPolicies { strong, weak })
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
    let seats = crate::cli::common::seats_for(&settings.policy, settings.players)?;
    let compiled: Vec<_> = rules.iter().map(compile).collect();
    let spec_settings = SpecSettings {
        games: settings.games,
        players: settings.players,
        seed: settings.seed,
        policy: settings.policy.to_string(),
        shard: settings.shard,
        threads: settings.threads,
        command_line: std::env::args().collect::<Vec<_>>().join(" "),
        placebo: settings.placebo,
        positions: settings.positions,
        positions_given: settings.positions_given,
        luck: settings.luck,
        skill: settings.skill.map(|s| SkillSpec {
            strong: s.strong.to_string(),
            weak: s.weak.to_string(),
        }),
        negligible: settings.negligible,
        until: settings.until,
    };
    let spec = match compare_spec(rules, &compiled, &spec_settings) {
        Ok((spec, notes)) => {
            for note in notes {
                if note.always || !crate::cli::args::quiet() {
                    eprintln!("note: {}", note.message);
                }
            }
            spec
        }
        Err(e) => {
            eprintln!("error: {}", e.message);
            return Err(ExitCode::from(if e.usage { 2 } else { 1 }));
        }
    };
    crate::cli::args::prepare_out_dir(&settings.out)?;
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
    let opts = FolderOptions {
        dir: settings.out.clone(),
        resume: settings.resume,
        checkpoint_every: std::time::Duration::from_secs_f64(settings.checkpoint_seconds.max(0.0)),
    };
    let writer = ReportFiles {
        format: settings.format,
        boards: Some(ExampleRules::new(compiled.clone())),
    };
    if !settings.resume && has_checkpoint(&settings.out) && !crate::cli::args::quiet() {
        eprintln!(
            "note: starting afresh; the checkpoint of an interrupted run into {} is discarded \
             (add --resume to continue it instead)",
            settings.out.display()
        );
    }
    // once per process: the levels of a multi-level run share the handler
    static HANDLER: std::sync::Once = std::sync::Once::new();
    HANDLER.call_once(|| {
        // the first Ctrl-C stops after the games in flight and checkpoints; a second one
        // exits at once (the last checkpoint stays, so --resume still continues)
        let handler = || {
            if STOP.swap(true, Ordering::SeqCst) {
                eprintln!(
                    "\ninterrupted again: exiting at once; the last checkpoint is kept \
                     (run the same command with --resume to continue from it)"
                );
                std::process::exit(130);
            }
            eprintln!(
                "\ninterrupting: finishing the games in flight (Ctrl-C again to exit at once)"
            );
        };
        if let Err(e) = ctrlc::set_handler(handler) {
            eprintln!("warning: cannot catch interrupts ({e}); an interrupted run is lost");
        }
    });
    let players = settings.players;
    let result = run_to_dir_with(
        &spec,
        CoupledPlayer {
            rules: &compiled,
            players,
            seats,
            skill: settings.skill.map(|s| (s.strong.kind(), s.weak.kind())),
        },
        &opts,
        &writer,
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
            ..
        }) if !settings.resumable => {
            eprintln!(
                "interrupted: {games_done} of {games_in_run} games of level --policy {} \
                 played; a run with several --policy levels cannot be resumed: start it again",
                settings.policy
            );
            Err(ExitCode::from(130))
        }
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
            if has_checkpoint(&settings.out) && settings.resumable {
                eprintln!("{}", kept_checkpoint_note(settings.resume));
            }
            Err(ExitCode::from(1))
        }
    }
}

/// Refuses the same skill level given twice (usage error, exit code 2): two `--policy` values
/// that give every seat the same policy (`greedy` and `greedy,greedy`, `mcts` and its default
/// budget written out) would play the same games twice.
/// Every level is checked against the player count before any is played.
fn check_levels(levels: &[SeatPolicies], players: u8) -> Result<(), ExitCode> {
    if levels.len() > 1 {
        for l in levels {
            if let Err(e) = l.kinds(players) {
                eprintln!("error: --policy {l}: {e}");
                return Err(ExitCode::from(2));
            }
        }
    }
    for (j, b) in levels.iter().enumerate() {
        for a in &levels[..j] {
            let same_text = a.to_string() == b.to_string();
            let same_play =
                matches!((a.kinds(players), b.kinds(players)), (Ok(x), Ok(y)) if x == y);
            if same_text {
                eprintln!("error: --policy {a} is given twice; give each skill level once");
                return Err(ExitCode::from(2));
            }
            if same_play {
                eprintln!(
                    "error: --policy {a} and --policy {b} are the same skill level (every seat \
                     plays the same policy); give each level once"
                );
                return Err(ExitCode::from(2));
            }
        }
    }
    Ok(())
}

/// A run at several skill levels: each level a whole run in `OUT/levels/<policy>/`, all of
/// them and the side-by-side report staged together and swapped in at once.
fn run_levels(rules: &[Ruleset], base: &Settings, levels: &[SeatPolicies], json: bool) -> ExitCode {
    if let Some(shard) = base.shard {
        eprintln!(
            "error: --shard {shard} with several --policy levels: shard and merge each level on \
             its own (one --policy per run)"
        );
        return ExitCode::from(2);
    }
    if base.resume {
        eprintln!(
            "error: --resume with several --policy levels: such a run cannot be resumed; run it \
             again without --resume"
        );
        return ExitCode::from(2);
    }
    if let Err(code) = crate::cli::args::prepare_out_dir(&base.out) {
        return code;
    }
    let staging = match Staging::create(&base.out) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: --out {}: {e}", base.out.display());
            return ExitCode::from(1);
        }
    };
    let mut done = Vec::new();
    for policy in levels {
        let text = policy.to_string();
        let folder = format!("{LEVELS_FOLDER}/{}", folder_name(&text));
        let settings = Settings {
            policy: policy.clone(),
            out: staging.path().join(&folder),
            resumable: false,
            ..base.clone()
        };
        if crate::cli::args::verbose() {
            eprintln!("level --policy {text}");
        }
        match execute(rules, &settings, &|_, _| Ok(Vec::new())) {
            Ok(out) => done.push(Level {
                policy: text,
                folder,
                report: out.report,
            }),
            Err(code) => return code,
        }
    }
    let command = done.first().map_or_else(String::new, |l| {
        let mut cmd = l.report.reproducibility.command.clone();
        for other in &done[1..] {
            cmd.push_str(&format!(" --policy {}", shell_quote(&other.policy)));
        }
        cmd
    });
    let report = LevelsReport {
        games: base.games,
        players: base.players,
        seed: base.seed,
        policies: done.iter().map(|l| l.policy.clone()).collect(),
        command,
        levels: done,
    };
    let written = write_levels_report(staging.path(), &report, base.format)
        .and_then(|files| staging.commit().map(|()| files));
    let files = match written {
        Ok(files) => files,
        Err(e) => {
            eprintln!("error: writing the report into {}: {e}", base.out.display());
            return ExitCode::from(1);
        }
    };
    if json {
        return crate::cli::common::print_json(&report);
    }
    if !crate::cli::args::quiet() {
        out!("{}", levels_table(&report));
        outln!();
        for level in &report.levels {
            outln!("wrote {}/", base.out.join(&level.folder).display());
        }
        for f in files {
            let name = f.file_name().map(PathBuf::from).unwrap_or(f);
            outln!("wrote {}", base.out.join(name).display());
        }
    }
    ExitCode::SUCCESS
}

/// What to do after a failure to write (a full disk): the checkpoint of the games played is
/// kept, and the same command with `--resume` finishes the run without replaying them.
fn kept_checkpoint_note(resuming: bool) -> String {
    let mut cmd: Vec<String> = std::env::args().map(|a| shell_quote(&a)).collect();
    if !resuming {
        cmd.push("--resume".into());
    }
    format!(
        "note: the checkpoint of the games played so far is kept; free some space and \
         finish the run with: {}",
        cmd.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A failure to write (a full disk) says the checkpoint is kept and how to finish.
    #[test]
    fn a_write_failure_names_the_kept_checkpoint_and_resume() {
        let note = kept_checkpoint_note(false);
        assert!(
            note.contains("checkpoint of the games played so far is kept"),
            "{note}"
        );
        assert!(note.ends_with(" --resume"), "{note}");
        assert!(!kept_checkpoint_note(true).ends_with("--resume --resume"));
    }
}
