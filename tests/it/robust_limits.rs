//! Limits on what a user can ask for (issue 13): seat counts, numbers that would allocate
//! without bound, and rule formulas that overflow or divide by zero. Each is refused or warned
//! about with a clear message instead of a panic, an abort or a silent wrong number.

use crate::cli_support;

use cli_support::{meeplab, text};
use std::path::Path;

fn bundled(name: &str) -> String {
    format!("{}/rulesets/{name}.rules", env!("CARGO_MANIFEST_DIR"))
}

fn write_rules(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, format!("extends \"{}\"\n{body}", bundled("base"))).expect("write");
    path.to_str().expect("utf-8 path").to_string()
}

#[test]
fn a_ruleset_for_seven_players_is_refused_where_it_is_checked() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let seven = write_rules(
        tmp.path(),
        "seven.rules",
        "ruleset \"Seven\"\nplayers = 2..7\n",
    );
    let out = meeplab(&["check", &seven]);
    let (_, err) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("2..7 is out of range for `players`"), "{err}");
    assert!(
        err.contains("1..6"),
        "the diagnostic names the limit: {err}"
    );
}

#[test]
fn seven_players_are_refused_where_arguments_are_read() {
    for cmd in [
        vec!["play", "base", "--players", "7"],
        vec![
            "compare",
            "base",
            "base-2000",
            "--players",
            "7",
            "--games",
            "5",
        ],
    ] {
        let mut args = cmd.clone();
        let base = bundled("base");
        for a in args.iter_mut() {
            if *a == "base" {
                *a = &base;
            }
        }
        let out = meeplab(&args);
        let (_, err) = text(&out);
        assert_eq!(out.status.code(), Some(2), "{cmd:?}: {err}");
        assert!(err.contains("is for 2–6 players, not 7"), "{cmd:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn check_warns_about_formulas_that_divide_by_zero_or_overflow() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let rules = write_rules(
        tmp.path(),
        "house.rules",
        "ruleset \"House\"\nscore.road.complete = tiles / 0\n\
         score.city.complete = 1000000000 * 1000000000 * tiles\n",
    );
    let out = meeplab(&["check", &rules]);
    let (all, err) = text(&out);
    let all = all + &err;
    assert!(out.status.success(), "warnings only: {all}");
    assert!(all.contains("W0201"), "{all}");
    assert!(all.contains("divides by zero"), "{all}");
    assert!(all.contains("W0202"), "{all}");
}

#[test]
fn numbers_that_would_allocate_without_bound_are_refused_at_once() {
    let (a, b) = (bundled("base"), bundled("base-2000"));
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("out");
    let dir = dir.to_str().expect("utf-8 path");
    for (flag, value, needle) in [
        (
            "--games",
            "1000000000000000",
            "--games 1000000000000000 is more than 1000000000000",
        ),
        ("--shard", "5/4294967295", "at most 100000 shards"),
        ("--threads", "5000", "--threads 5000 is more than 512"),
    ] {
        let started = std::time::Instant::now();
        let mut args = vec!["compare", a.as_str(), b.as_str(), flag, value, "--out", dir];
        if flag != "--games" {
            args.extend(["--games", "10"]);
        }
        let out = meeplab(&args);
        let (_, err) = text(&out);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}: {err}");
        assert!(err.contains(needle), "{flag} {value}: {err}");
        assert!(started.elapsed().as_secs() < 30, "refused at once");
        assert!(!Path::new(dir).exists(), "nothing written");
    }
}

#[test]
fn saturated_scores_give_a_warning_not_a_wrong_interval() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let huge = write_rules(
        tmp.path(),
        "huge.rules",
        "ruleset \"Huge\"\nscore.city.complete = 1000000000 * 1000000000 * 1000 * tiles\n",
    );
    let dir = tmp.path().join("out");
    let base = bundled("base");
    let out = meeplab(&[
        "compare",
        &base,
        &huge,
        "--games",
        "40",
        "--out",
        dir.to_str().expect("utf-8 path"),
    ]);
    let (_, err) = text(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("too large to sum exactly"), "{err}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).expect("report"))
            .expect("json");
    let warnings = report["warnings"].as_array().expect("warnings");
    assert!(!warnings.is_empty(), "{report}");
    let md = std::fs::read_to_string(dir.join("report.md")).expect("report.md");
    assert!(md.contains("**Warning:**"), "{md}");
    // the saturated ruleset has no standard deviation rather than a zero-width interval
    assert!(
        report["per_ruleset"][1]["mean_score"][0]["sd"].is_null(),
        "{report}"
    );
}
