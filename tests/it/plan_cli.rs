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
