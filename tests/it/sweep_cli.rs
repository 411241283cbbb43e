//! `meeplab sweep` end to end: the report and the generated rulesets, the base's numbers equal
//! to a `compare` of the same files and seeds, sweep files, and bad input that writes nothing.

use crate::cli_support;

use cli_support::{meeplab, text};
use serde_json::Value;

fn json(path: &std::path::Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

const SHARES: &str = "robbers.share=ceil(points / 3),ceil(points / 2),ceil(2 * points / 3)";

#[test]
fn robber_share_sweep_writes_report_rulesets_and_matches_compare() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sweep");
    let o = meeplab(&[
        "sweep",
        "rulesets/robbers-2012.rules",
        "--vary",
        SHARES,
        "--players",
        "4",
        "--games",
        "300",
        "--out",
        out.to_str().unwrap(),
    ]);
    let (stdout, stderr) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("`robbers.share = ceil(points / 2)` is the base's own value"),
        "{stderr}"
    );
    assert!(
        stdout.contains("Least change from the base") || stdout.contains("about equally often"),
        "{stdout}"
    );
    for f in [
        "sweep.json",
        "sweep.md",
        "sweep.html",
        "sweep-winner-changed.svg",
        "sweep-win-rates.svg",
        "sweep-score-delta.svg",
        "report.json",
        "rulesets/value-01.rules",
        "rulesets/value-03.rules",
    ] {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    // the base's own value gets its file too, but the base itself is what was played
    assert!(out.join("rulesets/value-02.rules").is_file());
    assert_eq!(
        json(&out.join("report.json"))["rulesets"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    let generated = std::fs::read_to_string(out.join("rulesets/value-01.rules")).unwrap();
    // the checkout's file is the bundled one: named so, it travels (issue 43: an absolute
    // path of the machine was written here)
    assert!(
        generated.contains("\nextends \"robbers-2012.rules\"\n"),
        "{generated}"
    );
    assert!(
        generated.contains("robbers.share = ceil(points / 3)  source \"house (meeplab sweep)\"")
    );
    let o = meeplab(&[
        "check",
        out.join("rulesets/value-03.rules").to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "a generated file is an ordinary ruleset: {}",
        text(&o).1
    );
    let html = std::fs::read_to_string(out.join("sweep.html")).unwrap();
    assert_eq!(html.matches("<svg").count(), 3, "charts inline");
    assert!(!html.contains("src=\"sweep-"), "no external files");

    let sweep = json(&out.join("sweep.json"));
    let rows = sweep["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[1]["is_base"], true);
    assert_eq!(rows[1]["winner_changed_share"], 0.0);
    let bigger = rows[2]["score_delta"][0]["mean"].as_f64().unwrap();
    let smaller = rows[0]["score_delta"][0]["mean"].as_f64().unwrap();
    assert!(
        smaller < 0.0 && bigger > 0.0,
        "a bigger share gives more points: {smaller} {bigger}"
    );

    // the same files and seeds through `compare`
    let cmp = dir.path().join("compare");
    let o = meeplab(&[
        "compare",
        "rulesets/robbers-2012.rules",
        out.join("rulesets/value-01.rules").to_str().unwrap(),
        out.join("rulesets/value-03.rules").to_str().unwrap(),
        "--players",
        "4",
        "--games",
        "300",
        "--out",
        cmp.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o).1);
    // the same numbers; only the example games' trace commands name the files differently,
    // and a sweep plays no placebo and no decision probes
    let strip = |mut v: Value| {
        for p in v["pairs"].as_array_mut().unwrap() {
            for e in p["examples"].as_array_mut().unwrap() {
                e.as_object_mut().unwrap().remove("trace_command");
            }
            for extra in ["placebo", "placebo_verdict", "decisions"] {
                p.as_object_mut().unwrap().remove(extra);
            }
        }
        v
    };
    let c = strip(json(&cmp.join("report.json")));
    let s = strip(json(&out.join("report.json")));
    assert_eq!(c["per_ruleset"], s["per_ruleset"]);
    assert_eq!(c["pairs"], s["pairs"]);
    assert_eq!(
        rows[0]["winner_changed_share"],
        c["pairs"][0]["winner_changed_share"]
    );
    assert_eq!(rows[2]["win_rate"], c["per_ruleset"][2]["win_rate"]);
    assert_eq!(rows[1]["win_rate"], c["per_ruleset"][0]["win_rate"]);
}

#[test]
fn sweep_file_runs_and_command_line_flags_win() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s");
    let o = meeplab(&[
        "sweep",
        "--sweep",
        "examples/house-rules/robbers-share.sweep",
        "--games",
        "40",
        "--policy",
        "random",
        "--json",
        "--out",
        out.to_str().unwrap(),
    ]);
    let (stdout, stderr) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    let v: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["games"], 40);
    assert_eq!(v["players"], 4);
    assert_eq!(v["policy"], "random");
    assert_eq!(v["varied"][0], "robbers.share");
}

#[test]
fn bad_sweeps_are_refused_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[&str], i32, &str); 6] = [
        (
            &["--vary", "robbers.shaer=ceil(points / 3),ceil(points / 2)"],
            1,
            "`robbers.share`",
        ),
        (&["--vary", "robbers.share=yes"], 1, "error["),
        (&["--vary", "robbers.share="], 2, "empty"),
        (
            &["--vary", "robbers.share=ceil(points / 2)"],
            2,
            "nothing to compare",
        ),
        (
            &[
                "--vary",
                "robbers.share=1,2,3,4",
                "--vary",
                "robbers.track=40,50,60,70",
            ],
            2,
            "16 combinations",
        ),
        (&[], 2, "nothing to vary"),
    ];
    for (i, (extra, code, needle)) in cases.iter().enumerate() {
        let out = dir.path().join(format!("o{i}"));
        let mut args = vec![
            "sweep",
            "robbers-2012",
            "--games",
            "10",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let o = meeplab(&args);
        let (_, stderr) = text(&o);
        assert_eq!(o.status.code(), Some(*code), "{extra:?}: {stderr}");
        assert!(stderr.contains(needle), "{extra:?}: {stderr}");
        assert!(!out.exists(), "{extra:?} wrote {}", out.display());
    }
}

/// `sweep --shard k/n` outputs merged by `meeplab merge` give the unsharded sweep's report
/// and rulesets byte for byte; shards of different sweeps are refused.
#[test]
fn sharded_sweeps_merge_into_the_unsharded_report() {
    let dir = tempfile::tempdir().unwrap();
    let d = |n: &str| dir.path().join(n).to_str().unwrap().to_string();
    let common = [
        "robbers-2012",
        "--vary",
        SHARES,
        "--players",
        "3",
        "--games",
        "2500",
    ];
    let run = |extra: &[&str]| {
        let mut args = vec!["sweep"];
        args.extend_from_slice(&common);
        args.extend_from_slice(extra);
        let o = meeplab(&args);
        assert_eq!(o.status.code(), Some(0), "{extra:?}: {}", text(&o).1);
    };
    run(&["--out", &d("whole")]);
    run(&["--shard", "1/2", "--out", &d("s1")]);
    run(&["--shard", "2/2", "--out", &d("s2")]);
    let o = meeplab(&["merge", &d("s1"), &d("s2"), "--out", &d("merged")]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o).1);
    for f in [
        "sweep.json",
        "sweep.md",
        "sweep.html",
        "sweep-plan.json",
        "report.json",
        "games.csv",
        "rulesets/value-01.rules",
        "rulesets/value-03.rules",
        "sweep-win-rates.svg",
    ] {
        let a = std::fs::read(dir.path().join("whole").join(f)).unwrap();
        let b = std::fs::read(dir.path().join("merged").join(f)).unwrap_or_default();
        assert!(a == b, "{f} differs between the whole and the merged sweep");
    }
    // a shard of another sweep is refused
    let o = meeplab(&[
        "sweep",
        "robbers-2012",
        "--vary",
        "robbers.share=ceil(points / 4)",
        "--players",
        "3",
        "--games",
        "2500",
        "--shard",
        "2/2",
        "--out",
        &d("other"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o).1);
    let o = meeplab(&["merge", &d("s1"), &d("other"), "--out", &d("bad")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(!dir.path().join("bad").exists());
}

/// A base of the user's own is named relative to the generated files, so the output folder
/// and the base travel together (issue 43).
#[test]
fn generated_rulesets_name_their_own_base_relatively() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("house.rules");
    std::fs::write(&base, "ruleset \"house\"\nextends \"robbers-2012.rules\"\n").unwrap();
    let out = dir.path().join("runs").join("share");
    let o = meeplab(&[
        "sweep",
        base.to_str().unwrap(),
        "--vary",
        "robbers.share=ceil(points / 3)",
        "--games",
        "2",
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o).1);
    let generated = std::fs::read_to_string(out.join("rulesets/value-01.rules")).unwrap();
    assert!(
        generated.contains("\nextends \"../../../house.rules\"\n"),
        "{generated}"
    );
    // moved elsewhere together, the generated file still loads
    let moved = tempfile::tempdir().unwrap();
    std::fs::copy(&base, moved.path().join("house.rules")).unwrap();
    let folder = moved.path().join("runs/share/rulesets");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("value-01.rules"), &generated).unwrap();
    let o = meeplab(&["check", folder.join("value-01.rules").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o).1);
}
