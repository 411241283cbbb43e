//! A fixed workload for instruction-count profiling: plays `GAMES` games (seeds 0..GAMES) of
//! one ruleset on one thread and prints a checksum. Wall time is noisy on shared machines;
//! callgrind's instruction counts are not:
//!
//! ```text
//! cargo build --profile profiling --example profile_games
//! valgrind --tool=callgrind target/profiling/examples/profile_games rulesets/base.rules random 2000
//! ```
//!
//! Games are played as `meeplab bench` times them, without the divergence records; a fourth
//! argument `records` keeps them, as `compare` does.

use meeplab::engine::compile;
use meeplab::play::GamePlayer;
use meeplab::policy::PolicyKind;
use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let file = args.get(1).map_or("rulesets/base.rules", String::as_str);
    // the policy's text as `--policy` reads it (`random`, `greedy`, `heuristic`, `mcts:N`)
    let policy: PolicyKind = match args.get(2).map_or("random", String::as_str).parse() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let games: u64 = match args.get(3).map_or(Ok(2000), |s| s.parse()) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("games: {e}");
            return ExitCode::from(2);
        }
    };
    let rules = match meeplab::dsl::load_ruleset(Path::new(file)) {
        Ok(l) => l.ruleset,
        Err(d) => {
            eprintln!("{file}: {d}");
            return ExitCode::from(1);
        }
    };
    let compiled = compile(&rules);
    let mut player = GamePlayer::new(&compiled, policy);
    if args.get(4).map(String::as_str) != Some("records") {
        player = player.without_divergence_records();
    }
    let mut check = 0i64;
    let mut tiles = 0u64;
    for seed in 0..games {
        let o = player.play(seed, 2);
        check = check
            .wrapping_mul(31)
            .wrapping_add(o.seats[0].total * 7 + o.seats[1].total);
        tiles += u64::from(o.tiles_placed);
    }
    // (the tiles a game places: what a cost a tile is divided by, as `bench --json` does)
    let per_game = tiles as f64 / games.max(1) as f64;
    println!("{games} games, checksum {check}, {per_game:.2} tiles a game");
    ExitCode::SUCCESS
}
