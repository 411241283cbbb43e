//! `meeplab ladder` end to end: greedy beats random clearly, results do not depend on the
//! thread count, a policy against itself rates ≈ 0, a small `mcts` search beats random, and bad
//! policies are usage errors.

use crate::cli_support;

use cli_support::{meeplab, text};
use serde_json::Value;

/// Runs a ladder with `--json` into a fresh folder; returns (stdout, parsed report, folder).
fn ladder(args: &[&str]) -> (String, Value, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().to_str().expect("utf-8 path").to_string();
    let mut all = vec!["ladder"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--out", &out, "--json"]);
    let o = meeplab(&all);
    let (stdout, stderr) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    let report: Value = serde_json::from_str(&stdout).expect("JSON on stdout");
    (stdout, report, dir)
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// The policy summary labelled `label`.
fn policy<'a>(report: &'a Value, label: &str) -> &'a Value {
    report["policies"]
        .as_array()
        .expect("policies")
        .iter()
        .find(|p| p["label"] == label)
        .unwrap_or_else(|| panic!("no policy {label}"))
}

/// The report's first pair, checked to be `first` against `second`.
fn first_pair<'a>(report: &'a Value, first: &str, second: &str) -> &'a Value {
    let pair = &report["pairs"][0];
    assert_eq!(
        (pair["first"].as_str(), pair["second"].as_str()),
        (Some(first), Some(second))
    );
    pair
}

#[test]
fn greedy_beats_random_clearly() {
    let (_, r, dir) = ladder(&["greedy", "random", "--games", "40", "--seed", "3"]);
    assert_eq!(r["games"], 80);
    assert_eq!(r["games_per_deal"], 2);
    let pair = first_pair(&r, "greedy", "random");
    assert_eq!(pair["comparisons"], 80);
    assert!(f(&pair["win_rate"]) >= 0.9, "{pair}");
    assert!(f(&pair["win_rate_ci"][0]) > 0.75, "{pair}");
    assert!(f(&pair["mean_score_difference"]["ci"][0]) > 20.0, "{pair}");
    let greedy = policy(&r, "greedy");
    let random = policy(&r, "random");
    assert_eq!(f(&greedy["elo"]), 0.0);
    assert!(f(&random["elo"]) < -400.0, "{random}");
    // Every seat-game is counted once: 40 deals × 2 games, one seat each per game.
    assert_eq!(greedy["seat_games"], 80);
    assert!(f(&greedy["mean_score"]["mean"]) > 2.0 * f(&random["mean_score"]["mean"]));
    // Base rules have no gold: no ingot figures.
    assert!(r["ingots_per_game"].is_null());
    assert!(r["ingots_left_per_game"].is_null());
    for file in [
        "ladder.json",
        "ladder.md",
        "ladder-elo.svg",
        "ladder-scores.svg",
    ] {
        assert!(dir.path().join(file).is_file(), "{file} missing");
    }
    let written: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("ladder.json")).expect("ladder.json"),
    )
    .expect("ladder.json parses");
    assert_eq!(written, r);
    let md = std::fs::read_to_string(dir.path().join("ladder.md")).expect("ladder.md");
    assert!(md.contains("| greedy vs random | 80 |"), "{md}");
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let args = [
        "greedy",
        "random",
        "greedy",
        "--ruleset",
        "goldmines-hig-2012",
        "--games",
        "20",
        "--players",
        "2",
    ];
    let one: Vec<&str> = args.iter().copied().chain(["--threads", "1"]).collect();
    let two: Vec<&str> = args.iter().copied().chain(["--threads", "2"]).collect();
    let (a, ra, _d1) = ladder(&one);
    let (b, _, _d2) = ladder(&two);
    assert_eq!(a, b);
    // Three policies at two seats: a round robin of 3 pairs, both seatings each.
    assert_eq!(ra["games_per_deal"], 6);
    assert_eq!(ra["pairs"].as_array().map(Vec::len), Some(3));
    // Gold Mines: ingots are reported, and greedy players take some; what they leave on the
    // tiles is reported too, and the two never exceed the 16 ingots of the 8 gold tiles.
    assert!(f(&ra["ingots_per_game"]["mean"]) > 0.5, "{ra}");
    assert!(f(&policy(&ra, "greedy")["mean_ingots"]["mean"]) > 0.0);
    let left = f(&ra["ingots_left_per_game"]["mean"]);
    assert!(left > 0.0, "{ra}");
    assert!(f(&ra["ingots_per_game"]["mean"]) + left <= 16.0, "{ra}");
}

#[test]
fn a_policy_against_itself_rates_zero() {
    // In duplicate format two copies of one policy play the same games with seats swapped.
    let (_, r, _d) = ladder(&["greedy", "greedy", "--games", "20"]);
    let copy = policy(&r, "greedy#2");
    assert_eq!(f(&copy["elo"]), 0.0);
    assert_eq!(f(&r["pairs"][0]["win_rate"]), 0.5);
    // With a third player in the game the copies sit differently relative to it: close to 0,
    // the interval holding 0.
    let (_, r, _d) = ladder(&[
        "greedy",
        "random",
        "greedy",
        "--players",
        "3",
        "--games",
        "30",
    ]);
    let copy = policy(&r, "greedy#2");
    let (elo, lo, hi) = (
        f(&copy["elo"]),
        f(&copy["elo_ci"][0]),
        f(&copy["elo_ci"][1]),
    );
    assert!(elo.abs() < 100.0 && lo < 0.0 && hi > 0.0, "{copy}");
    assert!(f(&policy(&r, "random")["elo"]) < -300.0);
}

#[test]
fn a_small_search_beats_random_clearly() {
    let run = |threads: &str| {
        ladder(&[
            "mcts:24",
            "random",
            "--games",
            "6",
            "--seed",
            "5",
            "--threads",
            threads,
        ])
    };
    let (one, r, _d1) = run("1");
    let pair = first_pair(&r, "mcts:24", "random");
    assert_eq!(pair["comparisons"], 12);
    assert!(f(&pair["wins"]) >= 11.0, "{pair}");
    assert!(f(&pair["mean_score_difference"]["mean"]) > 25.0, "{pair}");
    // the same run on two threads: identical to the byte
    let (two, _, _d2) = run("2");
    assert_eq!(one, two);
}

#[test]
fn bad_policies_are_usage_errors_listing_the_forms() {
    for bad in ["mcts:0", "mcts:abc", "unknown", "greedy:2"] {
        let o = meeplab(&["ladder", "greedy", bad, "--games", "2"]);
        let (_, stderr) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{bad}: {stderr}");
        assert!(
            stderr.contains("random, greedy, heuristic, mcts (default budget), mcts:N"),
            "{bad}: {stderr}"
        );
    }
    let o = meeplab(&["ladder", "greedy", "--games", "2"]);
    assert_eq!(o.status.code(), Some(2));
    let o = meeplab(&["ladder", "greedy", "random", "--players", "9"]);
    let (_, stderr) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    let o = meeplab(&["ladder", "greedy", "random", "--games", "0"]);
    let (_, stderr) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("at least one deal"), "{stderr}");
}
