//! `meeplab calibrate RULESET`: K comparisons of a ruleset against a null copy of itself
//! ([`meeplab::compare::calibrate`]), each on its own seeds (derived from `--seed` and the
//! run's index, never a shared stream), and each verdict's observed false-positive rate with
//! its Wilson interval. Nothing is written to disk.

use crate::cli::common::{check_players, load};
use meeplab::compare::calibrate::{finish, null_copy, tally, Null, Tally};
use meeplab::compare::seeds::game_seed;
use meeplab::compare::setup::{compare_spec, SpecSettings};
use meeplab::compare::verdict::Negligible;
use meeplab::compare::CoupledPlayer;
use meeplab::compare::{run_compare, summarize, SeedPlayer};
use meeplab::engine::{compile, Compiled, Game, GameOutcome, NoEvents};
use meeplab::play::{Choosers, Salted, Seats};
use meeplab::policy::spec::SeatPolicies;
use serde::Serialize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

/// Salts the run index into a calibration's seeds, and the players' keys of the
/// `players-luck` null (fixed words: part of the method).
const RUN_KEY: u64 = 0x4341_4C49_4252_4154;
const LUCK_SALT: u64 = 0x4E55_4C4C_4C55_434B;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The ruleset to calibrate on (a path or a bundled name).
    pub ruleset: PathBuf,
    /// The null copy: relabel-deck (one tile id renamed, so the deck reshuffles),
    /// reorder-segments (one tile's segments listed in reverse order) or players-luck (the
    /// same rules, the players' own keys salted from the first turn).
    #[arg(long, default_value = "relabel-deck")]
    pub null: Null,
    /// Comparisons to play (each on its own seeds).
    #[arg(long, default_value_t = 200, value_parser = parse_runs)]
    pub runs: u64,
    /// Seeds per comparison.
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub games: u64,
    /// Players per game.
    #[arg(long, default_value_t = 2)]
    pub players: u8,
    /// Player policy (cheap ones make cheap runs: random or greedy).
    #[arg(long, default_value = "greedy", value_parser = crate::cli::args::SeatPolicyParser)]
    pub policy: SeatPolicies,
    /// Master seed; run k plays seeds derived from it and k.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The verdicts' negligible sizes (as compare's --negligible).
    #[arg(long, value_name = "SIZE", value_parser = Negligible::parse)]
    pub negligible: Option<Negligible>,
    /// Decision-probe positions per comparison (0: none).
    #[arg(long, default_value_t = 50)]
    pub positions: u64,
    /// Worker threads (default: all cores). Never changes the results.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `--runs K`: at least one comparison.
fn parse_runs(text: &str) -> Result<u64, String> {
    let k: u64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a count of runs"))?;
    if k == 0 {
        return Err(
            "--runs 0 measures nothing: give at least 1 (200 or more for a false-positive \
                    rate near 5 % to within ±3 pp)"
                .into(),
        );
    }
    Ok(k)
}

/// The calibration's result (`--json`).
#[derive(Serialize)]
struct Calibration {
    ruleset: String,
    null: String,
    changed: String,
    runs: u64,
    games: u64,
    players: u8,
    policy: String,
    seed: u64,
    negligible: String,
    nominal_rate: f64,
    verdicts: Vec<Tally>,
}

/// The null copy under `players-luck`: ruleset 1 is ruleset 0 with every decision key
/// salted from the first turn; its placebo adds the placebo's salt from the parting turn.
struct LuckNull<'a> {
    inner: CoupledPlayer<'a>,
}

/// A chooser salted twice: `outer` from `from_turn`, over `inner` salted from turn 0.
fn play_twice_salted(
    rules: &Arc<Compiled>,
    seed: u64,
    players: u8,
    seats: Seats,
    salt: u64,
    from_turn: u32,
) -> GameOutcome {
    let mut game = Game::new(rules.clone(), seed, players);
    let mut chooser = Salted {
        inner: Salted {
            inner: Choosers::new(seats),
            salt: LUCK_SALT,
            from_turn: 0,
        },
        salt,
        from_turn,
    };
    game.play(&mut chooser, &mut NoEvents)
}

impl SeedPlayer for LuckNull<'_> {
    fn play(&self, ruleset: usize, seed: u64) -> GameOutcome {
        if ruleset == 0 {
            self.inner.play(0, seed)
        } else {
            self.inner.play_salted(0, seed, LUCK_SALT, 0, false)
        }
    }

    /// `deal` is never set here: both sides are one ruleset, so they deal every seed alike
    /// (`deals_differ` keeps its default, false) and only the players' luck is redrawn.
    fn play_salted(
        &self,
        ruleset: usize,
        seed: u64,
        salt: u64,
        from_turn: u32,
        deal: bool,
    ) -> GameOutcome {
        debug_assert!(!deal, "one ruleset deals every seed alike");
        if ruleset == 0 {
            self.inner.play_salted(0, seed, salt, from_turn, deal)
        } else {
            play_twice_salted(
                &self.inner.rules[0],
                seed,
                self.inner.players,
                self.inner.seats,
                salt,
                from_turn,
            )
        }
    }
}

pub fn run(args: Args) -> ExitCode {
    let base = match load(&args.ruleset) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let (copy, changed) = match null_copy(&base, args.null) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: --null {}: {e}", args.null);
            return ExitCode::from(1);
        }
    };
    let rules = vec![base, copy];
    if let Err(code) = check_players(&rules, args.players) {
        return code;
    }
    let seats = match crate::cli::common::seats_for(&args.policy, args.players) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let compiled: Vec<_> = rules.iter().map(compile).collect();
    let negligible = args.negligible.unwrap_or_default();
    let mut tallies: [Tally; 5] = Default::default();
    let coupled = || CoupledPlayer {
        rules: &compiled,
        players: args.players,
        seats,
        skill: None,
    };
    for k in 0..args.runs {
        let settings = SpecSettings {
            games: args.games,
            players: args.players,
            seed: game_seed(args.seed ^ RUN_KEY, k),
            policy: args.policy.to_string(),
            shard: None,
            threads: args.threads,
            command_line: String::new(),
            placebo: true,
            positions: args.positions.min(args.games),
            positions_given: false,
            luck: Some(false),
            skill: None,
            negligible,
            until: None,
        };
        let spec = match compare_spec(&rules, &compiled, &settings) {
            Ok((spec, _notes)) => spec,
            Err(e) => {
                eprintln!("error: {}", e.message);
                return ExitCode::from(if e.usage { 2 } else { 1 });
            }
        };
        let played = match args.null {
            Null::PlayersLuck => run_compare(
                &spec,
                LuckNull { inner: coupled() },
                &mut |_| Ok(()),
                &|_| {},
            ),
            _ => run_compare(&spec, coupled(), &mut |_| Ok(()), &|_| {}),
        };
        let acc = match played {
            Ok(acc) => acc,
            Err(e) => {
                eprintln!("error: calibration run {}: {e}", k + 1);
                return ExitCode::from(1);
            }
        };
        let report = summarize(&spec, &acc);
        tally(&mut tallies, &report.verdicts);
        if crate::cli::args::verbose() {
            eprintln!("run {}/{} done", k + 1, args.runs);
        }
    }
    finish(&mut tallies);
    let result = Calibration {
        ruleset: rules[0].name.clone(),
        null: args.null.to_string(),
        changed,
        runs: args.runs,
        games: args.games,
        players: args.players,
        seed: args.seed,
        policy: args.policy.to_string(),
        negligible: negligible.to_string(),
        nominal_rate: meeplab::compare::verdict::ALPHA,
        verdicts: tallies.to_vec(),
    };
    if args.json {
        return crate::cli::common::print_json(&result);
    }
    outln!(
        "meeplab calibrate: {} against its {} null copy ({}) · {} runs × {} seeds · {} players \
         · policy {} · seed {} · negligible {}",
        result.ruleset,
        result.null,
        result.changed,
        result.runs,
        result.games,
        result.players,
        result.policy,
        result.seed,
        result.negligible
    );
    outln!();
    outln!(
        "{:<22} {:>6} {:>16} {:>9} {:>15} {:>11} {:>12}",
        "verdict",
        "runs",
        "false positives",
        "rate",
        "95 % Wilson",
        "negligible",
        "cannot tell"
    );
    for t in &result.verdicts {
        if t.runs == 0 {
            outln!("{:<22} {:>6}  (no verdict in these runs)", t.question, 0);
            continue;
        }
        outln!(
            "{:<22} {:>6} {:>16} {:>8.1} % {:>15} {:>11} {:>12}",
            t.question,
            t.runs,
            t.false_positives,
            100.0 * t.false_positive_rate,
            format!(
                "{:.1}–{:.1} %",
                100.0 * t.false_positive_ci[0],
                100.0 * t.false_positive_ci[1]
            ),
            t.negligible,
            t.cannot_tell
        );
    }
    outln!();
    outln!(
        "false positive: a run whose verdict (for win rate and score: some seat's, Holm-adjusted) \
         is \"a difference\" although the null copy cannot matter; nominal rate 5 % a verdict"
    );
    ExitCode::SUCCESS
}
