//! `meeplab compare` with the luck meter and a skill study, end to end: the luck-corrected
//! shifts and the skill depth are in `report.json` under `luck` and `skill_depth`, byte-identical
//! for any thread count and when shards are merged; bad `--skill` values are usage errors.

use crate::cli_support;

use std::path::Path;

fn bundled(name: &str) -> String {
    format!("{}/rulesets/{name}.rules", env!("CARGO_MANIFEST_DIR"))
}

fn meeplab_ok(args: &[&str]) {
    let out = cli_support::meeplab(args);
    assert!(
        out.status.success(),
        "meeplab {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn luck_and_skill_are_the_same_for_any_threads_and_shards() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = |name: &str| tmp.path().join(name);
    let run = |out: &Path, extra: &[&str]| {
        let mut args = vec![
            "compare".to_string(),
            bundled("base"),
            bundled("base-2000"),
            "--games".into(),
            "4".into(),
            "--policy".into(),
            "greedy".into(),
            "--luck".into(),
            "--skill".into(),
            "greedy,random".into(),
            "--out".into(),
            out.to_str().expect("utf-8 path").into(),
        ];
        args.extend(extra.iter().map(|s| s.to_string()));
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        meeplab_ok(&refs);
    };
    run(&dir("t1"), &["--threads", "1"]);
    run(&dir("t2"), &["--threads", "2"]);
    for k in 1..=2 {
        run(&dir(&format!("s{k}")), &["--shard", &format!("{k}/2")]);
    }
    meeplab_ok(&[
        "merge",
        dir("s2").to_str().expect("utf-8"),
        dir("s1").to_str().expect("utf-8"),
        "--out",
        dir("merged").to_str().expect("utf-8"),
    ]);
    for file in [
        "report.json",
        "report.md",
        "luck_corrected.svg",
        "skill_depth.svg",
    ] {
        let one = std::fs::read(dir("t1").join(file)).expect(file);
        assert_eq!(
            one,
            std::fs::read(dir("t2").join(file)).expect(file),
            "{file}: threads"
        );
        assert_eq!(
            one,
            std::fs::read(dir("merged").join(file)).expect(file),
            "{file}: shards"
        );
    }
    let text = std::fs::read_to_string(dir("t1").join("report.json")).expect("report");
    let r: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let seat = &r["luck"]["pairs"][0]["seats"][0];
    for key in [
        "corrected_score_shift",
        "corrected_win_shift_pp",
        "score_shift",
        "win_shift_pp",
    ] {
        assert!(
            seat[key]["mean"].as_f64().is_some_and(f64::is_finite),
            "{key}: {seat}"
        );
    }
    // a control that explains little costs its degree of freedom: with 4 seeds the ratio may
    // fall just below 1
    assert!(
        seat["variance_ratio"]
            .as_f64()
            .is_some_and(|x| x.is_finite() && x > 0.5),
        "{seat}"
    );
    assert_eq!(r["luck"]["games"], 4);
    let skill = &r["skill_depth"];
    assert_eq!(skill["strong"], "greedy");
    assert_eq!(skill["weak"], "random");
    assert_eq!(skill["per_ruleset"].as_array().map(Vec::len), Some(2));
    let win = skill["per_ruleset"][0]["win_rate_pct"]["mean"]
        .as_f64()
        .expect("win rate");
    assert!(win > 60.0, "greedy beats random: {win}");
    assert!(
        skill["difference"][0]["win_rate_pp"]["ci"].is_array(),
        "{skill}"
    );
    let md = std::fs::read_to_string(dir("t1").join("report.md")).expect("md");
    assert!(
        md.contains("### Luck taken out") && md.contains("### Skill depth: greedy against random")
    );
}

#[test]
fn without_luck_or_skill_the_report_has_neither() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    meeplab_ok(&[
        "compare",
        &bundled("base"),
        &bundled("base-2000"),
        "--games",
        "20",
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    let text = std::fs::read_to_string(out.join("report.json")).expect("report");
    let r: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert!(
        r.get("luck").is_none() && r.get("skill_depth").is_none(),
        "random players: meter off by default"
    );
    assert!(!out.join("luck_corrected.svg").exists());
}

#[test]
fn bad_skill_values_are_usage_errors() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    let out = out.to_str().expect("utf-8");
    let cases: [(&[&str], &str); 4] = [
        (&["--skill", "heuristic"], "two policies"),
        (&["--skill", "greedy,greedy"], "the same policy twice"),
        (&["--skill", "genius,greedy"], "not a policy"),
        (
            &[
                "--skill",
                "heuristic,greedy",
                "--policy",
                "random",
                "--policy",
                "greedy",
            ],
            "single --policy level",
        ),
    ];
    for (extra, says) in cases {
        let mut args = vec![
            "compare",
            "rulesets/base.rules",
            "rulesets/base-2000.rules",
            "--games",
            "5",
            "--out",
            out,
        ];
        let base = bundled("base");
        let old = bundled("base-2000");
        args[1] = &base;
        args[2] = &old;
        args.extend_from_slice(extra);
        let o = cli_support::meeplab(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {err}");
        assert!(err.contains(says), "{extra:?}: {err}");
    }
    assert!(!Path::new(out).join("report.json").exists());
}
