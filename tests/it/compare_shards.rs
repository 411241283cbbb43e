//! Sharded runs merge into exactly the unsharded run, and merges of shards that do not form
//! one run are refused with a clear message.

use crate::compare_support;

use compare_support::*;
use meeplab::compare::session::{merge_to_dir, run_to_dir, FolderOptions};
use meeplab::compare::{Accumulator, CompareSpec, MergeError, Shard};
use meeplab::report::ReportFiles;
use std::fs;
use std::path::{Path, PathBuf};

const GAMES: u64 = 2500; // three seed blocks, the last one partial

fn base_spec() -> CompareSpec {
    spec(
        vec![
            ruleset(
                "A",
                "ha",
                true,
                &[("gold.split", "draft", Some("HiG 2012"))],
            ),
            ruleset(
                "B",
                "hb",
                true,
                &[("gold.split", "one_per_feature", Some("RGG"))],
            ),
        ],
        GAMES,
        4,
    )
}

fn run(s: &CompareSpec, dir: &Path) {
    let opts = FolderOptions {
        dir: dir.to_path_buf(),
        ..FolderOptions::default()
    };
    run_to_dir(
        s,
        player(4, &[1], true),
        &opts,
        &ReportFiles::default(),
        &|_| {},
    )
    .unwrap();
}

fn run_shard(root: &Path, k: u32, n: u32, tweak: impl Fn(&mut CompareSpec)) -> PathBuf {
    let mut s = base_spec();
    s.shard = Some(Shard::new(k, n).unwrap());
    s.threads = Some(2);
    tweak(&mut s);
    let dir = root.join(format!("shard-{k}-of-{n}"));
    run(&s, &dir);
    dir
}

fn merge(dirs: &[PathBuf], out: &Path) -> Result<(), MergeError> {
    merge_to_dir(dirs, out, &ReportFiles::default()).map(|_| ())
}

#[test]
fn merged_shards_equal_the_unsharded_run() {
    let root = tempfile::tempdir().unwrap();
    let whole = root.path().join("whole");
    run(&base_spec(), &whole);
    let shards: Vec<PathBuf> = (1..=3)
        .map(|k| run_shard(root.path(), k, 3, |_| {}))
        .collect();
    // A shard holds only its games and aggregate, not a (partial) report.
    assert!(shards[0].join("accumulator.json").is_file());
    assert!(!shards[0].join("report.json").exists());

    // Any input order gives the same result.
    for (name, order) in [("merged", vec![0, 1, 2]), ("merged-rev", vec![2, 0, 1])] {
        let out = root.path().join(name);
        let dirs: Vec<PathBuf> = order.iter().map(|&i| shards[i].clone()).collect();
        merge(&dirs, &out).unwrap();
        for file in ["report.json", "games.csv", "report.md"] {
            let a = fs::read(whole.join(file)).unwrap();
            let b = fs::read(out.join(file)).unwrap();
            assert!(a == b, "{file} of {name} differs from the unsharded run");
        }
    }
    let csv = fs::read_to_string(whole.join("games.csv")).unwrap();
    assert_eq!(csv.lines().count() as u64, 1 + GAMES * 2);
}

#[test]
fn merges_of_different_or_incomplete_runs_are_refused() {
    let root = tempfile::tempdir().unwrap();
    let s1 = run_shard(root.path(), 1, 2, |_| {});
    let s2 = run_shard(root.path(), 2, 2, |_| {});
    let out = root.path().join("out");

    let other_seed = root.path().join("other-seed");
    fs::create_dir_all(&other_seed).unwrap();
    let mut s = base_spec();
    s.seed = 7;
    s.shard = Some(Shard::new(2, 2).unwrap());
    run(&s, &other_seed);
    let err = merge(&[s1.clone(), other_seed], &out).unwrap_err();
    assert!(
        matches!(err, MergeError::SpecMismatch { field: "seed", .. }),
        "{err}"
    );
    assert!(err.to_string().contains("different runs"), "{err}");

    let other_rules = run_shard(&root.path().join("x"), 2, 2, |s| {
        s.rulesets[1].hash = "hc".into()
    });
    let err = merge(&[s1.clone(), other_rules], &out).unwrap_err();
    assert!(err.to_string().contains("ruleset hash"), "{err}");

    let err = merge(std::slice::from_ref(&s1), &out).unwrap_err();
    assert_eq!(
        err,
        MergeError::Missing {
            n: 2,
            count: 1,
            first: vec![2]
        }
    );
    assert!(err.to_string().contains("shard(s) 2/2 missing"), "{err}");

    let err = merge(&[s1.clone(), s1.clone(), s2.clone()], &out).unwrap_err();
    assert!(matches!(err, MergeError::Overlap { .. }), "{err}");

    let third = run_shard(&root.path().join("y"), 2, 3, |_| {});
    let err = merge(&[s1.clone(), third], &out).unwrap_err();
    assert!(matches!(err, MergeError::Overlap { .. }), "{err}");

    let err = merge(&[], &out).unwrap_err();
    assert_eq!(err, MergeError::NoInputs);
    assert!(!out.exists(), "nothing is written when a merge is refused");

    merge(&[s2, s1], &out).unwrap();
    assert!(out.join("report.json").is_file());
}

/// Shards 1/2 and 2/2 of the base run under `root`, then `edit` applied to the parsed
/// `accumulator.json` of each shard (`(k, json)`), then the merge, which must be refused
/// without writing anything.
fn merge_edited(root: &Path, edit: impl Fn(u32, &mut serde_json::Value)) -> MergeError {
    let dirs: Vec<PathBuf> = (1..=2)
        .map(|k| {
            let dir = run_shard(root, k, 2, |_| {});
            let path = dir.join("accumulator.json");
            let mut json: serde_json::Value =
                serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
            edit(k, &mut json);
            fs::write(&path, serde_json::to_string_pretty(&json).unwrap()).unwrap();
            dir
        })
        .collect();
    let out = root.join("out");
    let err = merge(&dirs, &out).unwrap_err();
    assert!(
        !out.exists(),
        "nothing is written when a merge is refused: {err}"
    );
    err
}

/// The message of an [`MergeError::Inconsistent`] naming shard 2/2, or a failure.
fn inconsistency_in_shard_2(root: &Path, err: MergeError) -> String {
    let msg = err.to_string();
    match err {
        MergeError::Inconsistent { input, what } => {
            assert_eq!(input, root.join("shard-2-of-2").display().to_string());
            assert!(
                msg.starts_with(&format!("cannot merge {input}: its accumulator.json")),
                "{msg}"
            );
            what
        }
        other => panic!("expected an inconsistent accumulator, got: {other}"),
    }
}

#[test]
fn an_accumulator_with_other_players_or_seats_than_its_spec_is_refused() {
    // Used to panic at the `assert_eq!` of `Accumulator::merge`.
    let root = tempfile::tempdir().unwrap();
    let r = root.path().join("players");
    let err = merge_edited(&r, |k, j| {
        if k == 2 {
            j["accumulator"]["players"] = 3.into();
        }
    });
    assert_eq!(
        inconsistency_in_shard_2(&r, err),
        "accumulator.players is 3 but the spec has 4 players"
    );

    // Seats dropped from one ruleset's vector: used to be truncated silently by `zip`.
    let r = root.path().join("seats");
    let err = merge_edited(&r, |k, j| {
        if k == 2 {
            j["accumulator"]["rulesets"][1]["seats"]
                .as_array_mut()
                .unwrap()
                .pop();
        }
    });
    assert_eq!(
        inconsistency_in_shard_2(&r, err),
        "accumulator.rulesets[1].seats has length 3 but the spec has 4 players"
    );

    let r = root.path().join("deltas");
    let err = merge_edited(&r, |k, j| {
        if k == 2 {
            let deltas = j["accumulator"]["pairs"][0]["ingot_delta"]
                .as_array_mut()
                .unwrap();
            deltas.push(deltas[0].clone());
        }
    });
    assert_eq!(
        inconsistency_in_shard_2(&r, err),
        "accumulator.pairs[0].ingot_delta has length 5 but the spec has 4 players"
    );

    // Players changed in the spec and the accumulator alike, in every shard: the vectors
    // still have four seats.
    let r = root.path().join("both");
    let err = merge_edited(&r, |_, j| {
        j["spec"]["players"] = 2.into();
        j["accumulator"]["players"] = 2.into();
    });
    let what = match err {
        MergeError::Inconsistent { what, .. } => what,
        other => panic!("expected an inconsistent accumulator, got: {other}"),
    };
    assert_eq!(
        what,
        "accumulator.rulesets[0].seats has length 4 but the spec has 2 players"
    );
}

#[test]
fn a_spec_without_rulesets_is_refused() {
    // Used to panic in `report::markdown::question` ("at least one ruleset").
    let root = tempfile::tempdir().unwrap();
    let err = merge_edited(root.path(), |_, j| {
        j["spec"]["rulesets"] = serde_json::json!([]);
        j["accumulator"]["rulesets"] = serde_json::json!([]);
        j["accumulator"]["pairs"] = serde_json::json!([]);
    });
    let msg = err.to_string();
    assert!(
        matches!(&err, MergeError::Inconsistent { what, .. }
            if what == "invalid spec: compare needs at least two rulesets"),
        "{msg}"
    );
    assert!(msg.contains("shard-1-of-2"), "{msg}");
}

#[test]
fn an_accumulator_missing_pairs_or_rulesets_is_refused() {
    // Used to merge without error: `zip` dropped what one side lacked and the report was wrong.
    let root = tempfile::tempdir().unwrap();
    let r = root.path().join("no-pairs");
    let err = merge_edited(&r, |k, j| {
        if k == 2 {
            j["accumulator"]["pairs"] = serde_json::json!([]);
        }
    });
    assert_eq!(
        inconsistency_in_shard_2(&r, err),
        "accumulator.pairs has length 0 but the spec's 2 rulesets make 1 pair(s)"
    );

    let r = root.path().join("no-ruleset");
    let err = merge_edited(&r, |k, j| {
        if k == 2 {
            j["accumulator"]["rulesets"]
                .as_array_mut()
                .unwrap()
                .truncate(1);
        }
    });
    assert_eq!(
        inconsistency_in_shard_2(&r, err),
        "accumulator.rulesets has length 1 but the spec has 2 rulesets"
    );

    // Three rulesets in the spec (and hashes), pairs only for the first two.
    let r = root.path().join("third-ruleset");
    let err = merge_edited(&r, |_, j| {
        let third = j["spec"]["rulesets"][1].clone();
        let acc = j["accumulator"]["rulesets"][1].clone();
        j["spec"]["rulesets"].as_array_mut().unwrap().push(third);
        j["accumulator"]["rulesets"]
            .as_array_mut()
            .unwrap()
            .push(acc);
    });
    let what = match err {
        MergeError::Inconsistent { what, .. } => what,
        other => panic!("expected an inconsistent accumulator, got: {other}"),
    };
    assert_eq!(
        what,
        "accumulator.pairs has length 1 but the spec's 3 rulesets make 3 pair(s)"
    );

    // Pairs out of order would label the report wrongly.
    let r = root.path().join("pair-order");
    let err = merge_edited(&r, |k, j| {
        if k == 2 {
            j["accumulator"]["pairs"][0]["a"] = 1.into();
            j["accumulator"]["pairs"][0]["b"] = 0.into();
        }
    });
    assert_eq!(
        inconsistency_in_shard_2(&r, err),
        "accumulator.pairs[0] is the pair (1, 0) but should be (0, 1)"
    );
}

#[test]
fn accumulator_counts_that_contradict_each_other_are_refused() {
    let root = tempfile::tempdir().unwrap();
    type Edit = fn(&mut serde_json::Value);
    let cases: [(&str, Edit, &str); 8] = [
        (
            "ruleset-games",
            |j| j["accumulator"]["rulesets"][0]["games"] = 1.into(),
            "accumulator.rulesets[0].games is 1 but accumulator.games is 1000",
        ),
        (
            "seat-moments",
            |j| j["accumulator"]["rulesets"][1]["seats"][2]["total"]["n"] = 999.into(),
            "accumulator.rulesets[1].seats[2].total.n is 999 but accumulator.games is 1000",
        ),
        (
            "turns",
            |j| j["accumulator"]["rulesets"][0]["turns"]["n"] = 0.into(),
            "accumulator.rulesets[0].turns.n is 0 but accumulator.games is 1000",
        ),
        (
            "histogram",
            |j| j["accumulator"]["rulesets"][0]["totals_hist"] = serde_json::json!({}),
            "accumulator.rulesets[0].totals_hist counts 0 seat-games but 1000 games of 4 \
             players make 4000",
        ),
        (
            "divergence",
            |j| j["accumulator"]["pairs"][0]["first_divergence"] = serde_json::json!({"3": 1}),
            "accumulator.pairs[0].first_divergence counts 1 games but \
             accumulator.pairs[0].diverged is",
        ),
        (
            "play-differed",
            |j| j["accumulator"]["pairs"][0]["first_play_difference"] = serde_json::json!({}),
            "accumulator.pairs[0].first_play_difference counts 0 games but \
             accumulator.pairs[0].play_differed is",
        ),
        (
            "first-difference",
            |j| j["accumulator"]["pairs"][0]["first_difference_rule"] = 0.into(),
            "accumulator.pairs[0].first_difference_choice + first_difference_rule is not",
        ),
        (
            "lead-before",
            |j| j["accumulator"]["pairs"][0]["winner_change_lead"]["to_leader"] = 0.into(),
            "accumulator.pairs[0].winner_change_lead counts are not",
        ),
    ];
    for (name, edit, expected) in cases {
        let r = root.path().join(name);
        let err = merge_edited(&r, |k, j| {
            if k == 2 {
                edit(j)
            }
        });
        let what = inconsistency_in_shard_2(&r, err);
        assert!(what.starts_with(expected), "{name}: {what}");
    }

    // An accumulator of the earlier layout (event-level divergence) is refused, not mixed in.
    let r = root.path().join("format");
    let err = merge_edited(&r, |k, j| {
        if k == 2 {
            j["format"] = 1.into();
        }
    });
    let what = err.to_string();
    assert!(what.contains("accumulator format"), "{what}");

    // Consistent in itself, but not the games its shard plays.
    let r = root.path().join("games");
    let err = merge_edited(&r, |k, j| {
        if k == 2 {
            j["accumulator"] = serde_json::to_value(Accumulator::new(2, 4)).unwrap();
        }
    });
    assert_eq!(
        err,
        MergeError::Incomplete {
            input: r.join("shard-2-of-2").display().to_string(),
            expected: 1000,
            found: 0
        }
    );
}

#[test]
fn an_invalid_shard_in_the_spec_is_refused() {
    // Used to panic on `k − 1` (k = 0) or `b % n` (n = 0) while checking coverage.
    let root = tempfile::tempdir().unwrap();
    for (name, k, n) in [("k0", 0, 2), ("n0", 1, 0), ("k-above-n", 3, 2)] {
        let r = root.path().join(name);
        let err = merge_edited(&r, |shard, j| {
            if shard == 2 {
                j["spec"]["shard"] = serde_json::json!({ "k": k, "n": n });
            }
        });
        assert_eq!(
            inconsistency_in_shard_2(&r, err),
            format!("invalid spec: invalid shard {k}/{n}: expected k/n with 1 ≤ k ≤ n")
        );
    }
}

#[test]
fn a_huge_game_count_is_refused_at_once() {
    // Counting a shard's games used to walk every seed block of the claimed run.
    let root = tempfile::tempdir().unwrap();
    let err = merge_edited(root.path(), |_, j| j["spec"]["games"] = u64::MAX.into());
    assert!(
        matches!(&err, MergeError::Inconsistent { what, .. }
            if what.contains("--games 18446744073709551615 is more than 1000000000000")),
        "{err}"
    );
}

/// Sets the number of the first `"field": ` after the first `after` in accumulator.json,
/// editing the text (`serde_json::Value` cannot hold a u128 or an i128).
fn set_number(dir: &Path, after: &str, field: &str, value: impl std::fmt::Display) {
    let path = dir.join("accumulator.json");
    let text = fs::read_to_string(&path).unwrap();
    let key = format!("\"{field}\": ");
    let from = text.find(after).unwrap();
    let at = from + text[from..].find(&key).unwrap() + key.len();
    let end = at
        + text[at..]
            .find(|c: char| c != '-' && !c.is_ascii_digit())
            .unwrap();
    fs::write(&path, format!("{}{value}{}", &text[..at], &text[end..])).unwrap();
}

/// Sets accumulator.rulesets[0].seats[0].total.sum_sq.
fn set_first_sum_sq(dir: &Path, value: u128) {
    set_number(dir, "\"total\": {", "sum_sq", value);
}

#[test]
fn sums_that_overflow_when_added_are_refused() {
    // Used to panic on the overflowing `+=` of `Accumulator::merge` (or wrap in release).
    let root = tempfile::tempdir().unwrap();
    let dirs: Vec<PathBuf> = (1..=2)
        .map(|k| {
            let dir = run_shard(root.path(), k, 2, |_| {});
            set_first_sum_sq(&dir, u128::MAX / 2 + 1);
            dir
        })
        .collect();
    let out = root.path().join("out");
    let err = merge(&dirs, &out).unwrap_err();
    assert_eq!(
        err,
        MergeError::Combine {
            input: dirs[1].display().to_string(),
            message: "accumulator.rulesets[0].seats[0].total.sum_sq overflows when the inputs \
                      are added"
                .to_string()
        }
    );
    assert!(!out.exists());
}

#[test]
fn implausible_numbers_are_reported_without_panicking() {
    // Used to panic computing a standard deviation (n · Σx² overflowed i128).
    let root = tempfile::tempdir().unwrap();
    let whole = root.path().join("whole");
    run(&base_spec(), &whole);
    // Scores spanning all of i64 (used to overflow binning the score chart).
    let path = whole.join("accumulator.json");
    let mut json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    let hist = json["accumulator"]["rulesets"][1]["totals_hist"]
        .as_object_mut()
        .unwrap();
    let (low, high) = (
        hist.keys().next().unwrap().clone(),
        hist.keys().next_back().unwrap().clone(),
    );
    let (c_low, c_high) = (hist.remove(&low).unwrap(), hist.remove(&high).unwrap());
    hist.insert(i64::MIN.to_string(), c_low);
    hist.insert(i64::MAX.to_string(), c_high);
    fs::write(&path, serde_json::to_string_pretty(&json).unwrap()).unwrap();
    set_first_sum_sq(&whole, u128::MAX / 2 + 1);
    // Games "longer" than u64::MAX turns (used to overflow the identical-games chart).
    set_number(&whole, "\"turns\": {", "sum", i128::MAX);
    let out = root.path().join("out");
    // merge now checks games.csv against the edited sums and refuses…
    let err =
        merge_to_dir(std::slice::from_ref(&whole), &out, &ReportFiles::default()).unwrap_err();
    assert!(err.to_string().contains("adds up to"), "{err}");
    assert!(!out.exists(), "nothing written");
    // …and the report of such numbers is still written without panicking
    let file: meeplab::compare::ShardFile =
        serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    let report = meeplab::compare::summarize(&file.spec, &file.accumulator);
    fs::create_dir(&out).unwrap();
    meeplab::report::write_report(&out, &report, meeplab::report::ChartFormat::Svg).unwrap();
    let sd = report.per_ruleset[0].mean_score[0].sd.unwrap();
    assert!(sd.is_finite() && sd > 1e12, "{sd}");
    for file in ["report.md", "scores.svg", "identical_by_turn.svg"] {
        assert!(out.join(file).is_file(), "{file}");
    }
}
