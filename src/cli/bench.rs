//! `meeplab bench`: games per second on one thread and on all threads (and their ratio), and
//! what copying a mid-game position costs (`clone_ns`, the state's bytes) next to playing it
//! out. Timed games skip the divergence records (`Game::keep_divergence_records`); one more
//! single-thread run keeps them, as `compare` does.
//!
//! On a shared machine a single timing swings by 20 % and more (another tenant takes a core
//! for a moment), so the three runs (one thread, all threads, one thread with the records)
//! alternate for `--rounds` rounds and the fastest of each is reported (the usual estimate of what the code can do, as hyperfine's
//! `min`); every round's figures are in the JSON.

use crate::cli::common::{check_players, load, seats_for};
use meeplab::engine::compile;
use meeplab::play::{play_turns, GamePlayer as Player};
use meeplab::policy::spec::SeatPolicies;
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
    /// Player policy: one for every seat, or a comma-separated list with one per seat.
    #[arg(long, default_value = "random", value_parser = crate::cli::args::SeatPolicyParser)]
    pub policy: SeatPolicies,
    /// Rounds of the timed runs (one thread, all threads, with records), alternated; the
    /// fastest of each counts.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub rounds: u32,
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
    let seats = match seats_for(&args.policy, args.players) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let compiled = compile(&rules);
    let games = args.games;
    // Timed runs play without the divergence records (scores only, as a ladder does);
    // `compare` keeps them, timed separately below.
    let mut player = Player::new(&compiled, seats).without_divergence_records();
    // warm-up
    for s in 0..(games / 20).max(10) {
        std::hint::black_box(player.play(s, args.players));
    }
    // the sums of the first round (every round plays the same games)
    let (mut check, mut points, mut followers, mut tiles) = (0i64, 0i64, 0u64, 0u64);
    let threads = rayon::current_num_threads();
    let (mut ones, mut alls, mut recs) = (Vec::new(), Vec::new(), Vec::new());
    let (mut check_all, mut check_rec) = (0i64, 0i64);
    // the same games keeping the divergence records `compare` reads
    let mut recording = Player::new(&compiled, seats);
    for round in 0..args.rounds {
        let t0 = Instant::now();
        let (mut c, mut p, mut f, mut t) = (0i64, 0i64, 0u64, 0u64);
        for s in 0..games {
            let o = player.play(s, args.players);
            c += o.seats[0].total;
            p += o.seats.iter().map(|s| s.total).sum::<i64>();
            f += o
                .seats
                .iter()
                .map(|s| s.followers_placed as u64)
                .sum::<u64>();
            t += u64::from(o.tiles_placed);
        }
        ones.push(t0.elapsed().as_secs_f64());
        let t1 = Instant::now();
        let c_all: i64 = (0..games)
            .into_par_iter()
            .map_init(
                || Player::new(&compiled, seats).without_divergence_records(),
                |p, s| p.play(s, args.players).seats[0].total,
            )
            .sum();
        alls.push(t1.elapsed().as_secs_f64());
        let t2 = Instant::now();
        let mut c_rec = 0i64;
        for s in 0..games {
            c_rec += recording.play(s, args.players).seats[0].total;
        }
        recs.push(t2.elapsed().as_secs_f64());
        if round == 0 {
            (check, points, followers, tiles, check_all, check_rec) = (c, p, f, t, c_all, c_rec);
        } else if c != check || c_all != check_all || c_rec != check_rec {
            eprintln!("error: round {round} played other games than the first");
            return ExitCode::from(1);
        }
    }
    let one = ones.iter().copied().fold(f64::INFINITY, f64::min);
    let all = alls.iter().copied().fold(f64::INFINITY, f64::min);
    let rec = recs.iter().copied().fold(f64::INFINITY, f64::min);
    let us_rec = rec * 1e6 / games as f64;
    let mean_points = points as f64 / (games as f64 * args.players as f64);
    let mean_followers = followers as f64 / games as f64;
    // tiles placed per game (the start tile included), and the cost of each
    let mean_tiles = tiles as f64 / games as f64;
    if check != check_all || check != check_rec {
        eprintln!(
            "error: runs disagree (one thread {check}, all threads {check_all}, with records {check_rec})"
        );
        return ExitCode::from(1);
    }
    // a mid-game position: what a copy costs next to playing it out
    let half = (rules.total_tiles() / 2) as u32;
    let mid = play_turns(&compiled, 1, args.players, seats, half);
    let state_bytes = mid.state_bytes();
    let copies = 20_000u32;
    let t2 = Instant::now();
    for _ in 0..copies {
        std::hint::black_box(std::hint::black_box(&mid).clone());
    }
    let clone_ns = t2.elapsed().as_secs_f64() * 1e9 / copies as f64;
    // as many playouts as games, at most 2,000 (a search policy takes a second per game)
    let playouts = games.clamp(1, 2_000) as u32;
    let t3 = Instant::now();
    for _ in 0..playouts {
        std::hint::black_box(player.play_on(&mid));
    }
    let playout_ns = t3.elapsed().as_secs_f64() * 1e9 / playouts as f64;
    let gps1 = games as f64 / one;
    let gpsn = games as f64 / all;
    let us = one * 1e6 / games as f64;
    let ns_per_tile = us * 1000.0 / mean_tiles.max(1.0);
    if args.json {
        let v = json!({
            "ruleset": rules.name,
            "games": games,
            "players": args.players,
            "policy": args.policy.to_string(),
            "threads": threads,
            "games_per_second_1_thread": gps1.round(),
            "games_per_second_all_threads": gpsn.round(),
            "us_per_game": (us * 100.0).round() / 100.0,
            "us_per_game_with_divergence_records": (us_rec * 100.0).round() / 100.0,
            "thread_scaling": (gpsn / gps1 * 100.0).round() / 100.0,
            "rounds": args.rounds,
            "games_per_second_1_thread_rounds": ones.iter().map(|t| (games as f64 / t).round()).collect::<Vec<_>>(),
            "games_per_second_all_threads_rounds": alls.iter().map(|t| (games as f64 / t).round()).collect::<Vec<_>>(),
            "mid_game_turn": mid.turn(),
            "clone_ns": clone_ns.round(),
            "state_bytes": state_bytes,
            "playout_from_mid_game_ns": playout_ns.round(),
            "mean_points_per_player": (mean_points * 100.0).round() / 100.0,
            "followers_placed_per_game": (mean_followers * 100.0).round() / 100.0,
            "tiles_placed_per_game": (mean_tiles * 100.0).round() / 100.0,
            "ns_per_tile_placed": ns_per_tile.round(),
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
        outln!(
            "  (each timing the fastest of {} alternated rounds, --rounds)",
            args.rounds
        );
        outln!(
            "  1 thread : {gps1:>10.0} games/s  ({us:.2} µs/game, {mean_tiles:.1} tiles placed: {ns_per_tile:.0} ns a tile)"
        );
        outln!("  1 thread, keeping compare's divergence records: {us_rec:.2} µs/game");
        outln!(
            "  {threads} threads: {gpsn:>10.0} games/s  ({:.2}× one thread)",
            gpsn / gps1
        );
        outln!(
            "  mid-game (turn {}): clone {clone_ns:.0} ns, {state_bytes} bytes; playout {playout_ns:.0} ns",
            mid.turn()
        );
        outln!(
            "  sanity   : {mean_points:.2} points per player, {mean_followers:.2} followers placed per game"
        );
    }
    ExitCode::SUCCESS
}
