//! `meeplab bench`: random-policy games per second on one thread and on all threads.

use crate::cli::common::{check_players, load};
use meeplab::engine::{compile, Player};
use meeplab::policy::PolicyKind;
use rayon::prelude::*;
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Ruleset file.
    #[arg(default_value = "rulesets/base.rules")]
    pub ruleset: PathBuf,
    /// Games per measurement.
    #[arg(long, default_value_t = 20_000)]
    pub games: u64,
    /// Players per game.
    #[arg(long, default_value_t = 2)]
    pub players: u8,
    /// Player policy for every seat.
    #[arg(long, default_value = "random", value_parser = crate::cli::args::PolicyParser)]
    pub policy: PolicyKind,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> ExitCode {
    let rules = match load(&args.ruleset) {
        Ok(r) => r,
        Err(code) => return code,
    };
    if args.games == 0 {
        eprintln!("error: --games must be at least 1");
        return ExitCode::from(2);
    }
    if let Err(code) = check_players(std::slice::from_ref(&rules), args.players) {
        return code;
    }
    let compiled = compile(&rules);
    let games = args.games;
    // warm-up
    let mut player = Player::new(&compiled, args.policy);
    for s in 0..(games / 20).max(10) {
        std::hint::black_box(player.play(s, args.players));
    }
    let t0 = Instant::now();
    let mut check = 0i64;
    let mut points = 0i64;
    let mut followers = 0u64;
    for s in 0..games {
        let o = player.play(s, args.players);
        check += o.seats[0].total;
        points += o.seats.iter().map(|s| s.total).sum::<i64>();
        followers += o
            .seats
            .iter()
            .map(|s| s.followers_placed as u64)
            .sum::<u64>();
    }
    let one = t0.elapsed().as_secs_f64();
    let mean_points = points as f64 / (games as f64 * args.players as f64);
    let mean_followers = followers as f64 / games as f64;
    let threads = rayon::current_num_threads();
    let t1 = Instant::now();
    let check_all: i64 = (0..games)
        .into_par_iter()
        .map_init(
            || Player::new(&compiled, args.policy),
            |p, s| p.play(s, args.players).seats[0].total,
        )
        .sum();
    let all = t1.elapsed().as_secs_f64();
    if check != check_all {
        eprintln!("error: single- and multi-threaded runs disagree ({check} vs {check_all})");
        return ExitCode::from(1);
    }
    let gps1 = games as f64 / one;
    let gpsn = games as f64 / all;
    let us = one * 1e6 / games as f64;
    if args.json {
        let v = json!({
            "ruleset": rules.name,
            "games": games,
            "players": args.players,
            "policy": args.policy.name(),
            "threads": threads,
            "games_per_second_1_thread": gps1.round(),
            "games_per_second_all_threads": gpsn.round(),
            "us_per_game": (us * 100.0).round() / 100.0,
            "mean_points_per_player": (mean_points * 100.0).round() / 100.0,
            "followers_placed_per_game": (mean_followers * 100.0).round() / 100.0,
        });
        outln!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
    } else {
        outln!(
            "{}: {} {}-player {} games",
            rules.name,
            games,
            args.players,
            args.policy
        );
        outln!("  1 thread : {gps1:>10.0} games/s  ({us:.2} µs/game)");
        outln!("  {threads} threads: {gpsn:>10.0} games/s");
        outln!(
            "  sanity   : {mean_points:.2} points per player, {mean_followers:.2} followers placed per game"
        );
    }
    ExitCode::SUCCESS
}
