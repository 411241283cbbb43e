//! What a comparison says beyond "how often": who benefits (paired win-rate differences with
//! Newcombe intervals and McNemar's test), the plain statement when every outcome is
//! identical, and example games whose `meeplab trace` command replays them.

use crate::cli_support;

use cli_support::{meeplab, text};
use serde_json::Value;

fn compare(args: &[&str]) -> (Value, String) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("c");
    let mut all = vec!["compare"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--out", out.to_str().unwrap()]);
    let o = meeplab(&all);
    let (stdout, stderr) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    let report = std::fs::read_to_string(out.join("report.json")).unwrap();
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    (
        serde_json::from_str(&report).unwrap(),
        format!("{stdout}\n{md}"),
    )
}

/// A copy of bundled ruleset `name` under another name, written in `dir`.
fn renamed_copy(dir: &std::path::Path, name: &str) -> std::path::PathBuf {
    let copy = dir.join("copy.rules");
    std::fs::write(
        &copy,
        format!("ruleset \"renamed {name}\"\nextends \"../../rulesets/{name}.rules\"\n"),
    )
    .unwrap();
    copy
}

#[test]
fn a_renamed_copy_gives_identical_outcomes_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let copy = renamed_copy(dir.path(), "base");
    let (r, text) = compare(&["base", copy.to_str().unwrap(), "--games", "200"]);
    let p = &r["pairs"][0];
    assert_eq!(p["identical_outcomes"], 200);
    assert_eq!(p["all_outcomes_identical"], true);
    assert_eq!(p["who_benefits"][0]["win_rate_difference"], 0.0);
    assert_eq!(p["who_benefits"][0]["mcnemar_p"], 1.0);
    assert!(p["examples"].as_array().unwrap().is_empty());
    assert!(
        text.contains("these rulesets gave identical results in all 200 games under this policy"),
        "{text}"
    );
}

#[test]
fn who_benefits_and_examples_that_trace_replays() {
    let (r, printed) = compare(&[
        "goldmines-hig-2012",
        "goldmines-rgg",
        "--policy",
        "greedy",
        "--games",
        "300",
    ]);
    let p = &r["pairs"][0];
    assert_eq!(p["all_outcomes_identical"], false);
    let seats = p["who_benefits"].as_array().unwrap();
    assert_eq!(seats.len(), 2);
    for s in seats {
        let d = s["win_rate_difference"].as_f64().unwrap();
        let ci = s["win_rate_difference_ci"].as_array().unwrap();
        assert!(
            ci[0].as_f64().unwrap() <= d && d <= ci[1].as_f64().unwrap(),
            "{s}"
        );
        let pv = s["mcnemar_p"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&pv));
    }
    assert!(printed.contains("who benefits"), "{printed}");
    assert!(printed.contains("### Example games"), "{printed}");
    let examples = p["examples"].as_array().unwrap();
    assert!(!examples.is_empty() && examples.len() <= 3);
    let swings: Vec<i64> = examples
        .iter()
        .map(|e| e["swing"].as_i64().unwrap())
        .collect();
    assert!(swings.windows(2).all(|w| w[0] >= w[1]), "{swings:?}");
    // the trace command replays the example: same final totals under both rulesets
    let e = &examples[0];
    let cmd = e["trace_command"].as_str().unwrap();
    let args: Vec<&str> = cmd.split(' ').skip(1).collect();
    let o = meeplab(&args);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{cmd}: {err}");
    for (side, key) in [("A final", "scores_a"), ("B final", "scores_b")] {
        let block = out
            .split(side)
            .nth(1)
            .unwrap_or_else(|| panic!("{side} in {out}"));
        for (i, total) in e[key].as_array().unwrap().iter().enumerate() {
            let line = block.lines().nth(2 + i).unwrap();
            assert!(
                line.trim_end().ends_with(&total.to_string()),
                "{side} seat {}: {line} vs {total}",
                i + 1
            );
        }
    }
}

/// `--json` on compare, merge and trace prints the machine-readable summary on stdout.
#[test]
fn json_summaries_on_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let d = |n: &str| dir.path().join(n).to_str().unwrap().to_string();
    let o = meeplab(&[
        "compare",
        "base",
        "base-2000",
        "--games",
        "300",
        "--json",
        "--out",
        &d("c"),
    ]);
    let (stdout, stderr) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    let printed: Value = serde_json::from_str(&stdout).unwrap();
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("c/report.json")).unwrap())
            .unwrap();
    assert_eq!(printed, written);
    // report.html keeps its charts inline: no file it links
    let html = std::fs::read_to_string(dir.path().join("c/report.html")).unwrap();
    assert!(html.contains("<svg") && html.contains("<table>"));
    assert!(
        !html.contains("src=\"") && !html.contains(".svg\""),
        "links a file"
    );
    for k in 1..=2 {
        let shard = format!("{k}/2");
        let o = meeplab(&[
            "compare",
            "base",
            "base-2000",
            "--games",
            "300",
            "--shard",
            &shard,
            "--out",
            &d(&format!("s{k}")),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o).1);
    }
    let o = meeplab(&["merge", &d("s1"), &d("s2"), "--json", "--out", &d("m")]);
    let merged: Value = serde_json::from_str(&text(&o).0).unwrap();
    assert_eq!(merged["pairs"], written["pairs"]);
    let o = meeplab(&["trace", "base", "base-2000", "--seed", "7", "--json"]);
    let (stdout, stderr) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    let t: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(t["rulesets"][1]["key"], "B");
    assert_eq!(t["results"].as_array().unwrap().len(), 2);
    assert!(t["pairs"][0]["identical"].is_boolean());
}

/// The same file twice is a usage error (a renamed copy stays valid: see above).
#[test]
fn the_same_ruleset_twice_is_refused() {
    for args in [
        &["compare", "base", "rulesets/base.rules", "--games", "10"][..],
        &["trace", "goldmines-rgg", "goldmines-rgg", "--seed", "1"],
    ] {
        let o = meeplab(args);
        let (_, stderr) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("are the same ruleset file"), "{stderr}");
    }
}

/// Issue 12's determinism check for search players: a renamed copy of a ruleset never
/// diverges under `heuristic` or a small `mcts` (their choices and determinizations are keyed
/// by the decision, never by the ruleset's name or a shared stream).
#[test]
fn a_renamed_copy_never_diverges_under_search_players() {
    let dir = tempfile::tempdir().unwrap();
    let copy = renamed_copy(dir.path(), "goldmines-hig-2012");
    for (policy, games) in [("heuristic", 20), ("mcts:12,greedy", 3)] {
        let (r, _) = compare(&[
            "goldmines-hig-2012",
            copy.to_str().unwrap(),
            "--games",
            &games.to_string(),
            "--policy",
            policy,
        ]);
        let p = &r["pairs"][0];
        assert_eq!(p["diverged"], 0, "{policy}: {p}");
        assert_eq!(p["identical_outcomes"], games, "{policy}");
        assert_eq!(r["policy"], policy);
    }
}

/// `--policy` per seat (issue 11 item 5): `greedy,random` seats a greedy player first and a
/// random one second; the report names both; a list of the wrong length is a usage error
/// naming both numbers.
#[test]
fn one_policy_per_seat() {
    let (r, printed) = compare(&[
        "base",
        "base-2000",
        "--games",
        "100",
        "--policy",
        "greedy,random",
    ]);
    assert_eq!(r["policy"], "greedy,random");
    assert!(printed.contains("policy greedy,random"), "{printed}");
    let wins = r["per_ruleset"][0]["win_rate"].as_array().unwrap();
    assert!(
        wins[0].as_f64().unwrap() > 0.9,
        "greedy in seat 1 wins: {wins:?}"
    );
    let o = meeplab(&[
        "compare",
        "base",
        "base-2000",
        "--games",
        "10",
        "--players",
        "3",
        "--policy",
        "greedy,random",
    ]);
    let (_, stderr) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("2 policies given for 3 players"),
        "{stderr}"
    );
}

/// `trace --dot`: a branch box names its turn once (no "turn 14: Turn 14: …") and never
/// repeats the events both games share (issue 43: the RGG branch of seed 2 listed the whole
/// shared turn because its one difference was an event it lacked).
#[test]
fn trace_dot_branches_show_only_their_differences() {
    let dir = tempfile::tempdir().unwrap();
    let dot = dir.path().join("tree.dot");
    let o = meeplab(&[
        "trace",
        "goldmines-hig-2012",
        "goldmines-rgg",
        "--seed",
        "2",
        "--policy",
        "greedy",
        "--dot",
        dot.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o).1);
    let dot = std::fs::read_to_string(dot).unwrap();
    let boxes: Vec<&str> = dot
        .lines()
        .filter(|l| l.contains("[label=\"turn "))
        .collect();
    let branches: Vec<&str> = boxes
        .iter()
        .copied()
        .filter(|l| !l.contains("identical"))
        .collect();
    assert_eq!(branches.len(), 2, "{dot}");
    for b in &branches {
        assert!(!b.contains(": Turn "), "{b}");
    }
    let events = |b: &str| -> Vec<String> {
        let label = b.split("label=\"").nth(1).unwrap();
        label
            .split("\\n")
            .map(|l| l.split_once(": ").map_or(l, |(_, r)| r).to_string())
            .filter(|l| !l.starts_with('[') && !l.starts_with("(then"))
            .collect()
    };
    let (a, b) = (events(branches[0]), events(branches[1]));
    assert!(
        a.iter().all(|l| !b.contains(l)),
        "shared events repeated:\n{dot}"
    );
    assert!(branches.iter().any(|l| l.contains("without: ")), "{dot}");
}
