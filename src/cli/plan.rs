//! `meeplab plan`: sizes a compare run from a short pilot. The pilot plays `--pilot` seeds
//! in memory (no folder is written) with the compare driver; from its paired outcomes come,
//! per pair of rulesets and seat, the share of discordant pairs and the spread of the paired
//! score difference, and from those ([`meeplab::compare::power`]) the games a run needs to
//! detect `--effect` (a win-rate shift in percentage points: Connor's formula from the
//! discordant share; a mean score shift in points: resampled from the pilot's own paired
//! differences, whose zeros and skew a normal model misses) and the smallest shifts the
//! pilot's own games could detect. With `--until`, it also forecasts how many seeds `compare
//! --until` would play before it stops (capped by `--games`): the run's own stopping rule
//! simulated on the pilot's seeds resampled ([`meeplab::compare::forecast`]).
//!
//! The pilot's wall time per seed gives the time estimates (this machine, `--cores N`, a Slurm
//! array of about an hour a task); it is printed only — on stderr under `--json` — and never
//! part of the plan itself, which depends on the seeds alone.

use crate::cli::common::load_coupled;
use meeplab::compare::forecast::{self, Forecast, SeedPiece};
use meeplab::compare::power::{
    games_for_mean_shift_resampled, games_for_win_shift, min_detectable, seat_spreads,
    MinDetectable, ALPHA, MAX_RESAMPLED_GAMES, POWER,
};
use meeplab::compare::run::run_compare;
use meeplab::compare::seeds::BLOCK_SIZE;
use meeplab::compare::stats::wilson;
use meeplab::compare::verdict::{Negligible, Until};
use meeplab::compare::CoupledPlayer;
use meeplab::compare::{Accumulator, CompareSpec, RulesetInfo};
use meeplab::engine::compile;
use meeplab::policy::spec::SeatPolicies;
use serde::Serialize;
use std::fmt;
use std::path::PathBuf;
use std::process::ExitCode;
use std::str::FromStr;
use std::time::Instant;

/// The Slurm array script whose tasks run one shard each.
const SLURM_SCRIPT: &str = "examples/cluster/compare.sbatch";
/// CPUs a task of [`SLURM_SCRIPT`] asks for (its `--cpus-per-task`).
const SLURM_CPUS_PER_TASK: u64 = 8;
/// Wall time aimed at per array task, in seconds.
const SLURM_TASK_SECONDS: f64 = 3600.0;

/// The accepted forms of `--effect`, for error messages.
const EFFECT_FORMS: &str = "a win-rate shift in percentage points, more than 0 and less than \
     100 (2pp), or a mean score shift in points, more than 0 (3pts)";

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Ruleset files (two or more), as `compare` takes them.
    #[arg(required = true, num_args = 2..)]
    pub rulesets: Vec<PathBuf>,
    /// Player policy: one for every seat, or one per seat, seat 1 first (`greedy,random`).
    #[arg(long, default_value = "random", value_parser = crate::cli::args::SeatPolicyParser)]
    pub policy: SeatPolicies,
    /// The effect to detect: a win-rate shift in percentage points (`2pp`) or a mean score
    /// shift in points (`3pts`), at α = 0.05 (two-sided) with power 0.8.
    #[arg(long, default_value = "2pp", value_parser = parse_effect, allow_hyphen_values = true)]
    pub effect: Effect,
    /// Seeds the pilot plays (under every ruleset).
    #[arg(long, default_value_t = 200)]
    pub pilot: u64,
    /// Players per game.
    #[arg(long, default_value_t = 2)]
    pub players: u8,
    /// Master seed; pilot game i plays a seed derived from it, as `compare` does.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads for the pilot (default: all cores). Never changes the plan.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Cores of the bigger machine to estimate the run's time on.
    #[arg(long, default_value_t = 16)]
    pub cores: u64,
    /// Also forecast a `compare --until` run: `decided` or `±X` (`1pp`, `0.5pt`, `1pp,0.5pt`),
    /// as compare takes it; the stopping rule is simulated on the pilot's seeds resampled.
    #[arg(long, value_name = "decided|±X", value_parser = Until::parse)]
    pub until: Option<Until>,
    /// The cap of the `--until` run (compare's `--games`).
    #[arg(long, default_value_t = 10_000)]
    pub games: u64,
    /// The negligible sizes of the `--until` run's verdicts, as compare takes them
    /// [default: 1pp,1pt].
    #[arg(long, value_name = "SIZE", value_parser = Negligible::parse)]
    pub negligible: Option<Negligible>,
    /// Print the plan as JSON on stdout (the time estimates go to stderr).
    #[arg(long)]
    pub json: bool,
}

/// What the run must detect.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Effect {
    /// A seat's win-rate shift, in percentage points.
    WinShiftPp(f64),
    /// A seat's mean score shift, in points.
    ScoreShift(f64),
}

impl fmt::Display for Effect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Effect::WinShiftPp(pp) => write!(f, "{pp}pp"),
            Effect::ScoreShift(pts) => write!(f, "{pts}pts"),
        }
    }
}

impl FromStr for Effect {
    type Err = String;
    fn from_str(s: &str) -> Result<Effect, String> {
        let text = s.trim();
        let unit = |suffixes: &[&str]| {
            suffixes
                .iter()
                .find_map(|u| text.strip_suffix(u))
                .map(str::trim)
        };
        let (number, win) = if let Some(n) = unit(&["pp"]) {
            (n, true)
        } else if let Some(n) = unit(&["points", "pts", "pt"]) {
            (n, false)
        } else {
            return Err(format!("'{text}' has no unit; give {EFFECT_FORMS}"));
        };
        let value: f64 = number
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite())
            .ok_or_else(|| {
                format!("'{number}' in '{text}' is not a number; give {EFFECT_FORMS}")
            })?;
        if value <= 0.0 {
            return Err(format!(
                "'{text}': an effect must be more than 0; give {EFFECT_FORMS}"
            ));
        }
        if win && value >= 100.0 {
            return Err(format!(
                "'{text}': a win-rate shift must be less than 100 percentage points; give \
                 {EFFECT_FORMS}"
            ));
        }
        Ok(if win {
            Effect::WinShiftPp(value)
        } else {
            Effect::ScoreShift(value)
        })
    }
}

/// `--effect`'s parser (a clap usage error, exit code 2, on failure).
fn parse_effect(s: &str) -> Result<Effect, String> {
    s.parse()
}

/// One seat of one pair in the plan.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatPlan {
    /// Seat number, 1 first.
    pub seat: usize,
    /// Pilot games in which the seat won under exactly one of the two rulesets.
    pub discordant: u64,
    pub discordant_share: f64,
    /// 95 % Wilson interval of the discordant share.
    pub discordant_share_ci: [f64; 2],
    /// Sample sd of the paired score difference `b − a` (`None` below two pilot games).
    pub score_sd: Option<f64>,
    /// Games (seeds) needed for the effect at the pilot's estimate; `None` when the pilot
    /// cannot size it (see `why_not`).
    pub games_needed: Option<u64>,
    /// The same at the upper end of the discordant share's interval (win-rate effects only).
    pub games_needed_upper: Option<u64>,
    /// Why there is no `games_needed`.
    pub why_not: Option<String>,
    /// The smallest shifts the pilot's own games detect.
    pub pilot_detects: MinDetectable,
}

/// One pair of rulesets in the plan.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairPlan {
    pub a: String,
    pub b: String,
    pub seats: Vec<SeatPlan>,
}

/// The whole plan: deterministic (the seeds decide it; no time in it).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Plan {
    pub rulesets: Vec<String>,
    pub policy: String,
    pub players: u8,
    pub seed: u64,
    pub pilot_games: u64,
    /// `win_shift_pp` or `score_shift_points`.
    pub effect_kind: &'static str,
    pub effect: f64,
    pub alpha: f64,
    pub power: f64,
    pub pairs: Vec<PairPlan>,
    /// The games a run needs for the effect at every pair and seat the pilot could size
    /// (the largest `games_needed`); `None` when it could size none.
    pub games_needed: Option<u64>,
    /// With `--until`: how many seeds `compare --until` would play, forecast by simulating
    /// its stopping rule on the pilot's seeds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until: Option<Forecast>,
}

/// The key of the `--until` forecast's resampling: a fixed word with the master seed.
fn forecast_key(seed: u64) -> u64 {
    meeplab::engine::rng::key(seed, 0x554E_5449)
}

/// The key of the resampled score sizing ([`games_for_mean_shift_resampled`]): a fixed word
/// with the master seed, so a plan is a function of its arguments.
fn sizing_key(seed: u64) -> u64 {
    meeplab::engine::rng::key(seed, 0x504C_414E)
}

/// The seat's games for `effect`, or why the pilot cannot say. A score shift is sized from
/// the pilot's own paired differences `hist` (every seat pooled) rescaled to the seat's
/// spread, by resampling ([`games_for_mean_shift_resampled`]).
fn needed(
    effect: Effect,
    share: f64,
    score_sd: Option<f64>,
    hist: &[(i64, u64)],
    key: u64,
) -> (Option<u64>, Option<String>) {
    match effect {
        Effect::WinShiftPp(pp) => {
            let delta = pp / 100.0;
            if share == 0.0 {
                (
                    None,
                    Some(
                        "no discordant pair in the pilot: the seat's result never changed \
                         between the two rulesets, so the pilot cannot size a win-rate run \
                         (try a longer --pilot or another effect)"
                            .into(),
                    ),
                )
            } else if delta > share {
                (
                    None,
                    Some(format!(
                        "a shift of {pp} pp is more than the pilot's discordant share ({:.1} %): \
                         a win rate can move at most that much",
                        100.0 * share
                    )),
                )
            } else {
                (games_for_win_shift(delta, share, ALPHA, POWER), None)
            }
        }
        Effect::ScoreShift(points) => match score_sd {
            Some(sd) if sd > 0.0 => {
                match games_for_mean_shift_resampled(points, hist, Some(sd), POWER, key) {
                    Some(n) => (Some(n), None),
                    None if hist.iter().all(|&(v, _)| v == 0) => (
                        None,
                        Some("the pilot kept no paired score difference to resample".into()),
                    ),
                    None => (
                        None,
                        Some(format!(
                            "a shift of {points} points needs more than {MAX_RESAMPLED_GAMES} \
                         seeds at the pilot's spread"
                        )),
                    ),
                }
            }
            Some(_) => (
                None,
                Some(
                    "every paired score difference in the pilot is the same: no spread to size \
                     a run from"
                        .into(),
                ),
            ),
            None => (
                None,
                Some("the pilot has too few games for a spread (two or more)".into()),
            ),
        },
    }
}

/// The plan from a pilot's aggregate; `labels` name the rulesets in order.
pub fn plan_from(
    acc: &Accumulator,
    labels: &[String],
    policy: &str,
    seed: u64,
    effect: Effect,
) -> Plan {
    let label = |i: usize| labels.get(i).cloned().unwrap_or_else(|| format!("#{i}"));
    let pairs: Vec<PairPlan> = acc
        .pairs
        .iter()
        .map(|pair| {
            let detects = min_detectable(pair);
            let hist: Vec<(i64, u64)> = pair
                .score_delta_hist
                .iter()
                .map(|(&v, &c)| (v, c))
                .collect();
            let key = sizing_key(seed);
            let seats = seat_spreads(pair)
                .into_iter()
                .enumerate()
                .map(|(s, spread)| {
                    let ci = wilson(spread.discordant, spread.games);
                    let (games_needed, why_not) =
                        needed(effect, spread.discordant_share, spread.score_sd, &hist, key);
                    let games_needed_upper = match effect {
                        Effect::WinShiftPp(_) if games_needed.is_some() => {
                            needed(effect, ci[1], spread.score_sd, &hist, key).0
                        }
                        _ => None,
                    };
                    SeatPlan {
                        seat: s + 1,
                        discordant: spread.discordant,
                        discordant_share: spread.discordant_share,
                        discordant_share_ci: ci,
                        score_sd: spread.score_sd,
                        games_needed,
                        games_needed_upper,
                        why_not,
                        pilot_detects: detects.get(s).copied().unwrap_or_default(),
                    }
                })
                .collect();
            PairPlan {
                a: label(pair.a),
                b: label(pair.b),
                seats,
            }
        })
        .collect();
    let games_needed = pairs
        .iter()
        .flat_map(|p| p.seats.iter().filter_map(|s| s.games_needed))
        .max();
    let (effect_kind, value) = match effect {
        Effect::WinShiftPp(v) => ("win_shift_pp", v),
        Effect::ScoreShift(v) => ("score_shift_points", v),
    };
    Plan {
        rulesets: labels.to_vec(),
        policy: policy.to_string(),
        players: acc.players,
        seed,
        pilot_games: acc.games,
        effect_kind,
        effect: value,
        alpha: ALPHA,
        power: POWER,
        pairs,
        games_needed,
        until: None,
    }
}

/// The `--until` forecast as text, beside the fixed-N answer.
fn forecast_text(p: &Plan, f: &Forecast) -> String {
    let fixed = match p.games_needed {
        Some(n) => format!("{n} seeds for the effect above at a fixed N"),
        None => "no fixed-N answer for the effect above".to_string(),
    };
    format!(
        "
--until {} with --games {} as the cap: {} runs resampled from the pilot's {} seeds \
         (the compare's own stopping rule, looking at every batch end from {} seeds on)\n\
         \x20 stops after {} seeds at the median, {} at the 90th percentile (fewest {}, most \
         {}); {:.1} % of them reach the cap without meeting the rule\n\
         \x20 beside {fixed}\n",
        f.rule,
        f.cap,
        f.simulations,
        f.pilot_games,
        meeplab::compare::verdict::MIN_LOOK.min(f.cap),
        f.median,
        f.p90,
        f.min,
        f.max,
        100.0 * f.reached_cap_share,
    )
}

/// `h:mm:ss`-ish: seconds, minutes, hours or days, whichever reads best.
fn duration(seconds: f64) -> String {
    if seconds < 1.0 {
        "under 1 s".to_string()
    } else if seconds < 120.0 {
        format!("about {seconds:.0} s")
    } else if seconds < 2.0 * 3600.0 {
        format!("about {:.0} min", seconds / 60.0)
    } else if seconds < 2.0 * 86400.0 {
        format!("about {:.1} h", seconds / 3600.0)
    } else {
        format!("about {:.1} days", seconds / 86400.0)
    }
}

/// The plan as text: one table row per pair and seat, then the run to make.
fn plan_text(p: &Plan) -> String {
    let mut out = String::new();
    let effect = match p.effect_kind {
        "win_shift_pp" => format!("a win-rate shift of {} percentage points", p.effect),
        _ => format!("a mean score shift of {} points", p.effect),
    };
    out.push_str(&format!(
        "pilot: {} seeds, {} players, --policy {}, --seed {}\n\
         effect to detect: {effect} per seat (α = {} two-sided, power {})\n\n",
        p.pilot_games, p.players, p.policy, p.seed, p.alpha, p.power
    ));
    let opt = |v: Option<f64>, digits: usize| {
        v.map_or_else(|| "—".to_string(), |x| format!("{x:.digits$}"))
    };
    let mut notes = Vec::new();
    for pair in &p.pairs {
        let name = format!("{} → {}", pair.a, pair.b);
        out.push_str(&format!(
            "{name}\n  {:>4} {:>22} {:>9} {:>10} {:>11} {:>10} {:>11}\n",
            "seat",
            "discordant (95 %)",
            "score sd",
            "games",
            "games (hi)",
            "pilot: pp",
            "pilot: pts"
        ));
        for s in &pair.seats {
            let disc = format!(
                "{:.1} % ({:.1}–{:.1})",
                100.0 * s.discordant_share,
                100.0 * s.discordant_share_ci[0],
                100.0 * s.discordant_share_ci[1]
            );
            out.push_str(&format!(
                "  {:>4} {:>22} {:>9} {:>10} {:>11} {:>10} {:>11}\n",
                s.seat,
                disc,
                opt(s.score_sd, 1),
                s.games_needed.map_or("—".into(), |n| n.to_string()),
                s.games_needed_upper.map_or("—".into(), |n| n.to_string()),
                opt(s.pilot_detects.win_shift_pp, 1),
                opt(s.pilot_detects.score_shift, 1),
            ));
            if let Some(why) = &s.why_not {
                notes.push(format!("{name}, seat {}: {why}", s.seat));
            }
        }
    }
    out.push_str(
        "\ngames: seeds a run needs at the pilot's estimate; (hi): at the upper end of the \
         discordant share's interval\npilot: the smallest win-rate shift (pp) and mean score \
         shift (points) the pilot's own seeds detect (a win-rate shift above the discordant \
         share cannot happen)\n",
    );
    for n in notes {
        out.push_str(&format!("note: {n}\n"));
    }
    out
}

/// Time estimates from the pilot's wall time, and the run to start.
fn timing_text(p: &Plan, seconds: f64, threads: usize, cores: u64, args: &Args) -> String {
    let thread_word = if threads == 1 { "thread" } else { "threads" };
    let Some(games) = p.games_needed else {
        return format!(
            "\nthe pilot took {seconds:.2} s on {threads} {thread_word}; it could size no run (see \
             the notes)\n"
        );
    };
    let per_seed = seconds / p.pilot_games.max(1) as f64;
    // core-seconds a seed costs (the pilot used at most one thread per seed)
    let busy = threads.min(p.pilot_games.max(1) as usize).max(1) as f64;
    let core_seconds = per_seed * busy * games as f64;
    let here = core_seconds / busy;
    let big = core_seconds / cores.max(1) as f64;
    let task_core_seconds = SLURM_CPUS_PER_TASK as f64 * SLURM_TASK_SECONDS;
    let blocks = games.div_ceil(BLOCK_SIZE);
    let tasks = ((core_seconds / task_core_seconds).ceil() as u64).clamp(1, blocks);
    let rules: Vec<String> = args
        .rulesets
        .iter()
        .map(|r| meeplab::compare::spec::shell_quote(&r.to_string_lossy()))
        .collect();
    let mut out = format!(
        "\nrun {games} seeds ({} games): the pilot took {:.2} ms a seed on {threads} {}\n\
         \x20 here ({threads} {}): {}\n\
         \x20 on {cores} cores: {}\n\
         \x20 as a Slurm array of {tasks} {} ({SLURM_CPUS_PER_TASK} CPUs each, {} a \
         task; one shard is at least {BLOCK_SIZE} seeds):\n",
        games.saturating_mul(p.rulesets.len() as u64),
        1e3 * per_seed,
        thread_word,
        thread_word,
        duration(here),
        duration(big),
        if tasks == 1 { "task" } else { "tasks" },
        duration(core_seconds / (tasks as f64 * SLURM_CPUS_PER_TASK as f64)),
    );
    if rules.len() == 2 {
        out.push_str(&format!(
            "    RULES_A={} RULES_B={} GAMES={games} PLAYERS={} SEED={} POLICY={} sbatch \
             --array=1-{tasks} {SLURM_SCRIPT}\n",
            rules[0],
            rules[1],
            p.players,
            p.seed,
            meeplab::compare::spec::shell_quote(&p.policy),
        ));
    } else {
        out.push_str(&format!(
            "    sbatch --array=1-{tasks} {SLURM_SCRIPT}, its compare line given all {} \
             rulesets: meeplab compare {} --games {games} --players {} --seed {} --policy {} \
             --shard \"$k/$n\"\n",
            rules.len(),
            rules.join(" "),
            p.players,
            p.seed,
            meeplab::compare::spec::shell_quote(&p.policy),
        ));
    }
    out.push_str("  then: meeplab merge shards/* --out report (examples/cluster/merge.sbatch)\n");
    out
}

/// The `--until` run's time here at the forecast's median and 90th percentile stop, and the
/// command to start it.
fn until_timing_text(p: &Plan, f: &Forecast, seconds: f64, args: &Args) -> String {
    let per_seed = seconds / p.pilot_games.max(1) as f64;
    let rules: Vec<String> = args
        .rulesets
        .iter()
        .map(|r| meeplab::compare::spec::shell_quote(&r.to_string_lossy()))
        .collect();
    let mut cmd = format!(
        "meeplab compare {} --games {} --players {} --seed {} --policy {} --until {}",
        rules.join(" "),
        f.cap,
        p.players,
        p.seed,
        meeplab::compare::spec::shell_quote(&p.policy),
        meeplab::compare::spec::shell_quote(&f.rule),
    );
    if let Some(n) = args.negligible {
        cmd.push_str(&format!(" --negligible {n}"));
    }
    format!(
        "\nthe --until run here: {} at the median stop, {} at the 90th percentile\n    {cmd}\n",
        duration(per_seed * f.median as f64),
        duration(per_seed * f.p90 as f64),
    )
}

pub fn run(args: Args) -> ExitCode {
    if args.pilot == 0 {
        eprintln!("error: --pilot must be at least 1 seed");
        return ExitCode::from(2);
    }
    if args.cores == 0 {
        eprintln!("error: --cores must be at least 1");
        return ExitCode::from(2);
    }
    if let Some(until) = args.until {
        if let Err(e) = forecast::check(until, args.games) {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    }
    let (rules, seats) = match load_coupled(&args.rulesets, args.players, &args.policy) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let spec = CompareSpec {
        rulesets: rules.iter().map(RulesetInfo::from_ruleset).collect(),
        games: args.pilot,
        players: args.players,
        seed: args.seed,
        policy: args.policy.to_string(),
        shard: None,
        threads: args.threads,
        command_line: std::env::args().collect::<Vec<_>>().join(" "),
        engine_version: env!("CARGO_PKG_VERSION").to_string(),
        tile_catalogue_hash: String::new(),
        // the placebo is played as `compare` plays it by default (two more games for every
        // seed whose pair parted), so the time per seed is the recommended run's; the decision
        // probes cost a fixed few hundred decisions and are left out
        placebo: true,
        positions: 0,
        luck: false,
        skill: None,
        negligible: Default::default(),
        until: None,
    };
    if let Err(e) = spec.validate() {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    let compiled: Vec<_> = rules.iter().map(compile).collect();
    let players = args.players;
    let started = Instant::now();
    // the stopping rule reads a few figures of each seed: kept only with --until
    let mut pieces: Vec<SeedPiece> = Vec::new();
    let result = run_compare(
        &spec,
        CoupledPlayer {
            rules: &compiled,
            players,
            seats,
            skill: None,
        },
        &mut |rec| {
            if args.until.is_some() {
                pieces.push(SeedPiece::of(&spec, rec));
            }
            Ok(())
        },
        &|_| {},
    );
    let seconds = started.elapsed().as_secs_f64();
    let acc = match result {
        Ok(acc) => acc,
        Err(e) => {
            eprintln!("error: the pilot failed: {e}");
            return ExitCode::from(1);
        }
    };
    let threads = args.threads.unwrap_or_else(rayon::current_num_threads);
    let mut plan = plan_from(&acc, &spec.labels(), &spec.policy, args.seed, args.effect);
    if args.until.is_some() {
        let run = CompareSpec {
            games: args.games,
            until: args.until,
            negligible: args.negligible.unwrap_or_default(),
            ..spec.clone()
        };
        plan.until = forecast::forecast(&run, &pieces, forecast_key(args.seed));
    }
    let mut timing = timing_text(&plan, seconds, threads, args.cores, &args);
    if let Some(f) = &plan.until {
        timing.push_str(&until_timing_text(&plan, f, seconds, &args));
    }
    if args.json {
        eprint!("{}", timing.trim_start());
        return crate::cli::common::print_json(&plan);
    }
    out!("{}", plan_text(&plan));
    if let Some(f) = &plan.until {
        out!("{}", forecast_text(&plan, f));
    }
    out!("{timing}");
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;
    use meeplab::compare::paired::PairedWins;

    #[test]
    fn effects_parse_with_their_unit() {
        assert_eq!("2pp".parse(), Ok(Effect::WinShiftPp(2.0)));
        assert_eq!(" 0.5 pp".parse(), Ok(Effect::WinShiftPp(0.5)));
        assert_eq!("3pts".parse(), Ok(Effect::ScoreShift(3.0)));
        assert_eq!("3pt".parse(), Ok(Effect::ScoreShift(3.0)));
        assert_eq!("1.5points".parse(), Ok(Effect::ScoreShift(1.5)));
        assert_eq!(Effect::WinShiftPp(2.0).to_string(), "2pp");
        for bad in [
            "0pp", "-2pp", "100pp", "150pp", "0pts", "-1pts", "2", "pp", "xpp", "2%", "NaNpp",
            "infpts",
        ] {
            let err = bad.parse::<Effect>().expect_err(bad);
            assert!(err.contains("2pp") && err.contains("3pts"), "{bad}: {err}");
        }
    }

    fn pair_acc(tables: Vec<PairedWins>) -> Accumulator {
        let mut acc = Accumulator::new(2, 2);
        acc.games = tables.first().map_or(0, PairedWins::games);
        acc.pairs[0].games = acc.games;
        for (s, t) in tables.into_iter().enumerate() {
            acc.pairs[0].seat_wins[s] = t;
            for x in [5, -5].repeat(t.games() as usize / 2) {
                acc.pairs[0].score_delta[s].push(x);
                *acc.pairs[0].score_delta_hist.entry(x).or_insert(0) += 1;
            }
        }
        acc
    }

    #[test]
    fn a_plan_sizes_every_seat_or_says_why_not() {
        let t = |a_only, b_only| PairedWins {
            both: 50,
            a_only,
            b_only,
            neither: 150 - a_only - b_only,
        };
        let acc = pair_acc(vec![t(50, 50), t(0, 0)]);
        let labels = vec!["A".to_string(), "B".to_string()];
        let p = plan_from(&acc, &labels, "greedy", 1, Effect::WinShiftPp(2.0));
        let seats = &p.pairs[0].seats;
        assert_eq!((p.pairs[0].a.as_str(), p.pairs[0].b.as_str()), ("A", "B"));
        assert_eq!(seats[0].discordant, 100);
        assert_eq!(seats[0].games_needed, Some(9809), "half discordant, 2 pp");
        assert!(seats[0].games_needed_upper > seats[0].games_needed);
        assert!(seats[0].why_not.is_none());
        assert_eq!(seats[1].games_needed, None);
        assert!(seats[1]
            .why_not
            .as_deref()
            .unwrap_or("")
            .contains("no discordant pair"));
        assert_eq!(seats[1].pilot_detects.win_shift_pp, None);
        assert_eq!(p.games_needed, Some(9809));
        let text = plan_text(&p);
        assert!(text.contains("no discordant pair"), "{text}");
        assert!(!text.contains("inf"), "{text}");

        let p = plan_from(&acc, &labels, "greedy", 1, Effect::ScoreShift(1.0));
        // sd of ±5 over 200 games: 5.0125…; the normal model's (2.801585·5.0125)² = 197.2,
        // and without zeros or skew the resampled size is close to it
        let n = p.pairs[0].seats[0].games_needed.expect("sized");
        assert!((180..=215).contains(&n), "{n}");
        assert_eq!(
            plan_from(&acc, &labels, "greedy", 1, Effect::ScoreShift(1.0)).games_needed,
            Some(n),
            "a plan is a function of its arguments"
        );
        assert_eq!(p.effect_kind, "score_shift_points");
        // a shift larger than the discordant share cannot happen
        let p = plan_from(&acc, &labels, "greedy", 1, Effect::WinShiftPp(60.0));
        assert!(p.pairs[0].seats[0]
            .why_not
            .as_deref()
            .unwrap_or("")
            .contains("at most"));
        assert_eq!(p.games_needed, None);
    }

    #[test]
    fn durations_read_well() {
        assert_eq!(duration(0.2), "under 1 s");
        assert_eq!(duration(5.0), "about 5 s");
        assert_eq!(duration(600.0), "about 10 min");
        assert_eq!(duration(3.0 * 3600.0), "about 3.0 h");
        assert_eq!(duration(3.0 * 86400.0), "about 3.0 days");
    }
}
