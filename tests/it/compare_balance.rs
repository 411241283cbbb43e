//! `meeplab compare` writes the balance figures: `report.json` has `balance` with every
//! ruleset's figures and every pair's paired differences (finite, with intervals), `report.md`
//! and the printed summary a Balance section; a renamed copy of a ruleset shifts nothing.

use crate::cli_support;

use serde_json::Value;
use std::path::Path;

fn bundled(name: &str) -> String {
    format!("{}/rulesets/{name}.rules", env!("CARGO_MANIFEST_DIR"))
}

/// `meeplab compare FILES --games N --players 3 --out DIR`: its stdout and `report.json`.
fn compare(files: &[&str], games: &str, out: &Path) -> (String, Value) {
    let mut args = vec!["compare"];
    args.extend_from_slice(files);
    args.extend(["--games", games, "--players", "3", "--out"]);
    args.push(out.to_str().expect("utf-8 path"));
    let o = cli_support::meeplab(&args);
    let (stdout, stderr) = cli_support::text(&o);
    assert!(o.status.success(), "meeplab {args:?} failed: {stderr}");
    let text = std::fs::read_to_string(out.join("report.json")).expect("report.json");
    (
        stdout,
        serde_json::from_str(&text).expect("report.json is JSON"),
    )
}

fn finite(v: &Value, what: &str) -> f64 {
    let x = v
        .as_f64()
        .unwrap_or_else(|| panic!("{what} is not a number: {v}"));
    assert!(x.is_finite(), "{what} is {x}");
    x
}

/// A mean with its interval: finite, the interval around the mean.
fn mean_ci(v: &Value, what: &str) -> f64 {
    let mean = finite(&v["mean"], &format!("{what}.mean"));
    let lo = finite(&v["ci"][0], &format!("{what}.ci[0]"));
    let hi = finite(&v["ci"][1], &format!("{what}.ci[1]"));
    assert!(lo <= mean + 1e-9 && mean <= hi + 1e-9, "{what}: {v}");
    mean
}

const RULESET_FIGURES: [&str; 6] = [
    "lead_changes",
    "decided_at_turn",
    "decided_at_share",
    "score_spread",
    "first_seat_win_share",
    "tie_share",
];

const PAIR_FIGURES: [&str; 6] = [
    "first_seat_advantage_pp",
    "tie_share",
    "lead_changes",
    "decided_at_turn",
    "decided_at_share",
    "score_spread",
];

#[test]
fn report_json_has_balance_per_ruleset_and_pair() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    let (stdout, r) = compare(
        &[
            &bundled("goldmines-hig-2012"),
            &bundled("goldmines-rgg"),
            &bundled("base"),
        ],
        "60",
        &out,
    );
    let b = &r["balance"];
    assert!(b["method"].as_str().is_some_and(|m| !m.is_empty()), "{b}");
    let rulesets = b["per_ruleset"].as_array().expect("per_ruleset");
    assert_eq!(rulesets.len(), 3);
    for (i, x) in rulesets.iter().enumerate() {
        assert_eq!(x["games"], 60, "{x}");
        // real games keep their leader records: every game has a decided-at turn
        assert_eq!(x["decided_games"], 60, "{x}");
        for name in &RULESET_FIGURES[..4] {
            mean_ci(&x[name], &format!("per_ruleset[{i}].{name}"));
        }
        for name in &RULESET_FIGURES[4..] {
            let s = finite(&x[name], name);
            assert!((0.0..=1.0).contains(&s), "{name}: {x}");
        }
        let adv = finite(&x["first_seat_advantage_pp"], "first_seat_advantage_pp");
        let share = finite(&x["first_seat_win_share"], "first_seat_win_share");
        assert!((adv - 100.0 * (share - 1.0 / 3.0)).abs() < 1e-9, "{x}");
        let share = mean_ci(&x["decided_at_share"], "decided_at_share");
        assert!((0.0..=1.0).contains(&share), "{x}");
        let turn = mean_ci(&x["decided_at_turn"], "decided_at_turn");
        let length = finite(&r["per_ruleset"][i]["game_length"]["mean"], "game length");
        assert!((0.0..=length + 1.0).contains(&turn), "{x}");
        // the per-ruleset tie share agrees with the rest of the report
        assert_eq!(x["tie_share"], r["per_ruleset"][i]["tie_share"]);
    }
    let pairs = b["pairs"].as_array().expect("pairs");
    let order: Vec<(u64, u64)> = pairs
        .iter()
        .map(|p| {
            (
                p["a_index"].as_u64().unwrap(),
                p["b_index"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(order, [(0, 1), (0, 2), (1, 2)]);
    for (k, p) in pairs.iter().enumerate() {
        assert_eq!(p["games"], 60, "{p}");
        assert_eq!(p["decided_games"], 60, "{p}");
        for name in PAIR_FIGURES {
            let f = &p[name];
            let a = finite(&f["a"], name);
            let b = finite(&f["b"], name);
            let d = mean_ci(&f["difference"], &format!("pairs[{k}].{name}.difference"));
            // every seed counts on both sides: the mean difference is b − a
            assert!((d - (b - a)).abs() < 1e-6, "{name}: {f}");
        }
    }
    for needle in [
        "balance: ",
        "first-seat advantage",
        "decided at turn",
        "score spread",
        // the label says final scoring is not counted, beside decided-at which counts it
        // (issue 43)
        "lead changes in play",
        "lead changes in play = changes of the sole leader after each turn, final scoring not counted",
    ] {
        assert!(
            stdout.contains(needle),
            "the summary lacks {needle:?}:\n{stdout}"
        );
    }
    let md = std::fs::read_to_string(out.join("report.md")).expect("report.md");
    assert!(md.contains("### Balance\n"), "{md}");
    assert!(md.contains("| lead changes in play |"), "{md}");
    assert!(
        md.contains("Lead changes in play (before final scoring) |"),
        "{md}"
    );
    assert!(
        md.contains("| Figure | A | B | B − A [95 % t interval] |"),
        "{md}"
    );
    let html = std::fs::read_to_string(out.join("report.html")).expect("report.html");
    assert!(html.contains("<h3>Balance</h3>"));
}

#[test]
fn a_renamed_copy_shifts_no_balance_figure() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let copy = tmp.path().join("copy.rules");
    std::fs::write(
        &copy,
        format!(
            "ruleset \"The same rules under another name\"\nextends \"{}\"\n",
            bundled("goldmines-hig-2012")
        ),
    )
    .expect("write copy");
    let out = tmp.path().join("out");
    let (_, r) = compare(
        &[
            &bundled("goldmines-hig-2012"),
            copy.to_str().expect("utf-8"),
        ],
        "40",
        &out,
    );
    let p = &r["balance"]["pairs"][0];
    for name in PAIR_FIGURES {
        let f = &p[name];
        assert_eq!(f["a"], f["b"], "{name}: {f}");
        assert_eq!(f["difference"]["mean"], 0.0, "{name}: {f}");
        assert_eq!(
            f["difference"]["ci"],
            serde_json::json!([0.0, 0.0]),
            "{name}: {f}"
        );
    }
}
