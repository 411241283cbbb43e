//! `meeplab plan`: a tiny pilot's output shape (text and JSON), and the usage errors' exit
//! codes (nothing written in any case).

use crate::cli_support;

use cli_support::{meeplab, text};
use serde_json::Value;

const HIG: &str = "rulesets/goldmines-hig-2012.rules";
const RGG: &str = "rulesets/goldmines-rgg.rules";

fn pilot(extra: &[&str]) -> std::process::Output {
    let mut args = vec!["plan", HIG, RGG, "--pilot", "20"];
    if !extra.contains(&"--policy") {
        args.extend(["--policy", "greedy"]);
    }
    args.extend_from_slice(extra);
    meeplab(&args)
}

#[test]
fn a_tiny_pilot_prints_every_seat_and_the_run_to_make() {
    let o = pilot(&["--effect", "2pp", "--threads", "1"]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        out.starts_with("pilot: 20 seeds, 2 players, --policy greedy, --seed 1\n"),
        "{out}"
    );
    assert!(
        out.contains("a win-rate shift of 2 percentage points"),
        "{out}"
    );
    assert!(out.contains(" → "), "{out}");
    assert!(
        out.contains("discordant (95 %)") && out.contains("score sd"),
        "{out}"
    );
    for seat in ["     1 ", "     2 "] {
        assert!(
            out.lines().any(|l| l.starts_with(seat)),
            "seat row {seat:?} in {out}"
        );
    }
    assert!(!out.contains("inf") && !out.contains("NaN"), "{out}");
    // either a run to make, with its time and Slurm array, or a plain note why not
    if out.contains("\nrun ") {
        assert!(out.contains("on 16 cores: "), "{out}");
        assert!(out.contains("sbatch --array=1-"), "{out}");
        assert!(out.contains("examples/cluster/compare.sbatch"), "{out}");
    } else {
        assert!(
            out.contains("note: ") && out.contains("could size no run"),
            "{out}"
        );
    }
    let o = pilot(&["--effect", "3pts", "--cores", "64"]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(out.contains("a mean score shift of 3 points"), "{out}");
}

fn sorted<const N: usize>(mut keys: [&str; N]) -> Vec<&str> {
    keys.sort_unstable();
    keys.to_vec()
}

#[test]
fn json_has_stable_keys_and_no_time() {
    let run = |threads: &str| {
        let o = pilot(&["--effect", "3pts", "--json", "--threads", threads]);
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(0), "{err}");
        assert!(err.contains("the pilot took"), "timing on stderr: {err}");
        out
    };
    let one = run("1");
    assert_eq!(one, run("2"), "the plan depends on the seeds alone");
    let v: Value = serde_json::from_str(&one).expect("json");
    let keys: Vec<&str> = v
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        sorted([
            "rulesets",
            "policy",
            "players",
            "seed",
            "pilot_games",
            "effect_kind",
            "effect",
            "alpha",
            "power",
            "pairs",
            "games_needed"
        ])
    );
    assert_eq!(v["pilot_games"], 20);
    assert_eq!(v["effect_kind"], "score_shift_points");
    assert_eq!(v["effect"], 3.0);
    assert_eq!(v["policy"], "greedy");
    let pairs = v["pairs"].as_array().expect("pairs");
    assert_eq!(pairs.len(), 1);
    let seats = pairs[0]["seats"].as_array().expect("seats");
    assert_eq!(seats.len(), 2);
    for (i, s) in seats.iter().enumerate() {
        assert_eq!(s["seat"], i as u64 + 1);
        let keys: Vec<&str> = s
            .as_object()
            .expect("seat")
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            sorted([
                "seat",
                "discordant",
                "discordant_share",
                "discordant_share_ci",
                "score_sd",
                "games_needed",
                "games_needed_upper",
                "why_not",
                "pilot_detects"
            ])
        );
        let detects = s["pilot_detects"].as_object().expect("detects");
        assert!(detects.contains_key("win_shift_pp") && detects.contains_key("score_shift"));
    }
}

#[test]
fn bad_input_is_a_usage_error_with_exit_code_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["--effect", "0pp"], "more than 0"),
        (&["--effect", "-2pp"], "more than 0"),
        (&["--effect", "100pp"], "less than 100"),
        (&["--effect", "0pts"], "more than 0"),
        (&["--effect", "2"], "3pts"),
        (&["--effect", "twopp"], "3pts"),
        (&["--pilot", "0"], "--pilot"),
        (&["--policy", "mcts:0"], "mcts:N"),
        (&["--policy", "mcts:20:fast"], "unknown style"),
        (
            &["--policy", "greedy,random,greedy"],
            "3 policies given for 2 players",
        ),
        (&["--players", "9"], "players"),
        (&["--cores", "0"], "--cores"),
    ];
    for (extra, needle) in cases {
        let o = pilot(extra);
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {err}");
        assert!(err.contains(needle), "{extra:?}: {err}");
        assert!(out.is_empty(), "{extra:?}: {out}");
    }
    // fewer than two rulesets, the same file twice
    for args in [&["plan", HIG][..], &["plan", HIG, HIG, "--pilot", "5"]] {
        let o = meeplab(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o).1);
    }
    // a ruleset that does not load: the usual invalid-input code
    let o = meeplab(&["plan", HIG, "no-such-ruleset.rules", "--pilot", "5"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o).1);
}

#[test]
fn until_forecasts_the_stop_beside_the_fixed_n_answer() {
    let o = pilot(&["--until", "decided", "--games", "1000", "--threads", "1"]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        out.contains("--until decided with --games 1000 as the cap: 400 runs resampled from the pilot's 20 seeds"),
        "{out}"
    );
    assert!(
        out.contains("at the median") && out.contains("at the 90th percentile"),
        "{out}"
    );
    assert!(
        out.contains("reach the cap without meeting the rule"),
        "{out}"
    );
    assert!(
        out.contains("at a fixed N") || out.contains("no fixed-N answer"),
        "{out}"
    );
    assert!(
        out.contains("--games 1000 --players 2 --seed 1 --policy greedy --until decided"),
        "{out}"
    );
    let json = |threads: &str| {
        let o = pilot(&[
            "--until",
            "1pp,1pt",
            "--games",
            "1000",
            "--json",
            "--threads",
            threads,
        ]);
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(0), "{err}");
        out
    };
    let one = json("1");
    assert_eq!(one, json("2"), "the forecast depends on the seeds alone");
    let v: Value = serde_json::from_str(&one).expect("json");
    let f = &v["until"];
    assert_eq!(f["rule"], "±1pp,1pt");
    assert_eq!(
        (f["cap"].as_u64(), f["pilot_games"].as_u64()),
        (Some(1000), Some(20))
    );
    let (median, p90) = (f["median"].as_u64().unwrap(), f["p90"].as_u64().unwrap());
    // a run stops at a batch end: 500, 750 or the cap
    assert!(
        [500, 750, 1000].contains(&median) && median <= p90 && p90 <= 1000,
        "{f}"
    );
    let share = f["reached_cap_share"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&share));
    assert_eq!(
        f["reached_cap"].as_u64().unwrap() as f64 / f["simulations"].as_u64().unwrap() as f64,
        share
    );
}

#[test]
fn an_until_the_cap_cannot_reach_is_a_usage_error() {
    let cases: &[(&[&str], &str)] = &[
        (&["--until", "0.0001pp"], "unreachable within --games 10000"),
        (
            &["--until", "0.003pt", "--games", "600"],
            "unreachable within --games 600",
        ),
        (
            &["--until", "1pp", "--games", "100"],
            "looks first after 500 seeds",
        ),
        (
            &["--until", "decided", "--games", "2000000"],
            "at most 1048576",
        ),
        (&["--until", "soon"], "--until"),
        (
            &["--until", "decided", "--negligible", "0pp"],
            "--negligible",
        ),
    ];
    for (extra, needle) in cases {
        let o = pilot(extra);
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {err}");
        assert!(err.contains(needle), "{extra:?}: {err}");
        assert!(out.is_empty(), "{extra:?}: {out}");
    }
}
