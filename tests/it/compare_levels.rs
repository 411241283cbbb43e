//! `meeplab compare` at several skill levels (`--policy` given several times): each level is
//! exactly the single-level run of the same seeds, the top folder compares them side by side
//! with one chart, and a level given twice, `--shard` or `--resume` are refused.

use crate::cli_support;

use std::path::Path;

fn bundled(name: &str) -> String {
    format!("{}/rulesets/{name}.rules", env!("CARGO_MANIFEST_DIR"))
}

/// `compare` HiG vs RGG Gold Mines, 2 players, 4 games, with `extra` arguments.
fn compare(out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "compare".to_string(),
        bundled("goldmines-hig-2012"),
        bundled("goldmines-rgg"),
        "--games".into(),
        "4".into(),
        "--out".into(),
        out.to_str().expect("utf-8 path").into(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    cli_support::meeplab(&refs)
}

fn ok(o: std::process::Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn each_level_is_the_single_level_run_and_the_top_compares_them() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let multi = tmp.path().join("multi");
    let levels = ["random", "greedy,random", "mcts:4"];
    let printed = ok(compare(
        &multi,
        &[
            "--policy", levels[0], "--policy", levels[1], "--policy", levels[2],
        ],
    ));
    for (policy, folder) in levels.iter().zip(["random", "greedy_random", "mcts-4"]) {
        let single = tmp.path().join(format!("single-{folder}"));
        ok(compare(&single, &["--policy", policy, "--quiet"]));
        let level = multi.join("levels").join(folder);
        for file in ["report.json", "report.md", "games.csv"] {
            assert_eq!(
                std::fs::read(level.join(file)).expect("level file"),
                std::fs::read(single.join(file)).expect("single file"),
                "{file} of level {policy}"
            );
        }
        assert!(
            printed.contains(&format!("level {policy}: levels/{folder}/")),
            "{printed}"
        );
    }
    // the printed summary has a row per pair and level
    for policy in levels {
        assert!(
            printed
                .lines()
                .any(|l| l.starts_with("A vs B") && l.contains(&format!(" {policy} "))),
            "{printed}"
        );
    }
    let top: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(multi.join("report.json")).expect("top report.json"),
    )
    .expect("JSON");
    assert_eq!(top["policies"], serde_json::json!(levels));
    assert_eq!(top["levels"][1]["folder"], "levels/greedy_random");
    assert_eq!(
        top["levels"][1]["report"]["policy"], "greedy,random",
        "each level's whole report"
    );
    assert!(top["command"]
        .as_str()
        .expect("command")
        .ends_with("--policy random --policy greedy,random --policy mcts:4"));
    let md = std::fs::read_to_string(multi.join("report.md")).expect("top report.md");
    assert!(md.contains("## Winner changed, by level"), "{md}");
    assert!(md.contains("[levels/mcts-4/report.md](levels/mcts-4/report.md)"));
    assert!(md.contains("| A vs B | `greedy,random` |"));
    let chart =
        std::fs::read_to_string(multi.join("winner_changed_by_level.svg")).expect("levels chart");
    roxmltree::Document::parse(&chart).expect("the chart is well-formed XML");
    for text in [
        "by skill level",
        "policy random",
        "policy greedy,random",
        "policy mcts:4",
    ] {
        assert!(chart.contains(text), "the chart shows {text}");
    }
    let html = std::fs::read_to_string(multi.join("report.html")).expect("top report.html");
    assert!(
        html.contains("by skill level") && html.contains("<svg"),
        "chart inline"
    );
    assert!(!html.contains("src=\"winner_changed_by_level.svg\""));

    // a one-level run into the same folder replaces the whole multi-level run
    ok(compare(&multi, &["--policy", "greedy", "--quiet"]));
    assert!(!multi.join("levels").exists(), "no level is left behind");
    assert!(multi.join("games.csv").is_file());
}

#[test]
fn a_level_twice_and_sharding_or_resuming_levels_are_usage_errors() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    for (extra, says) in [
        (
            &["--policy", "greedy", "--policy", "greedy"][..],
            "--policy greedy is given twice",
        ),
        (
            &["--policy", "greedy", "--policy", "greedy,greedy"][..],
            "are the same skill level",
        ),
        (
            &["--policy", "greedy", "--policy", "greedy,random,random"][..],
            "3 policies given for 2 players",
        ),
        (
            &["--policy", "greedy", "--policy", "random", "--shard", "1/2"][..],
            "--shard 1/2 with several --policy levels",
        ),
        (
            &["--policy", "greedy", "--policy", "random", "--resume"][..],
            "--resume with several --policy levels",
        ),
    ] {
        let o = compare(&out, extra);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {err}");
        assert!(err.contains(says), "{extra:?}: {err}");
        assert!(!out.exists(), "nothing written for {extra:?}");
    }
}
