//! CLI round trip: `play --record` then `replay` gives the same game — the same turn log,
//! the same number of events and the same result — for several seeds under every bundled
//! ruleset; and replaying under the recorded ruleset by name shows no divergence.

use crate::cli_support;

use cli_support::{meeplab, root};
use serde_json::Value;
use std::path::PathBuf;

/// The turn-log lines of `play` (after the title) or `replay` (after the `Seats:` line).
fn log_of(out: &str, after: &str) -> Vec<String> {
    out.lines()
        .skip_while(|l| !l.starts_with(after))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn play_record_then_replay_gives_the_same_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("rulesets"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "rules"))
        .collect();
    files.sort();
    assert!(files.len() >= 5);
    for rules in &files {
        let r = rules.strip_prefix(root()).unwrap().display().to_string();
        for (seed, players) in [(1u64, 2u8), (7, 3), (12345, 4)] {
            let rec = dir.path().join(format!("{seed}.json"));
            let rec_s = rec.display().to_string();
            let (seed_s, players_s) = (seed.to_string(), players.to_string());
            let base = ["play", &r, "--seed", &seed_s, "--players", &players_s];
            let play = meeplab(&[&base[..], &["--record", &rec_s]].concat());
            assert!(play.status.success(), "{r} {seed}");
            let play_json = meeplab(&[&base[..], &["--json"]].concat());
            let replay = meeplab(&["replay", &rec_s]);
            let replay_json = meeplab(&["replay", &rec_s, "--json"]);
            let (p, q) = (
                String::from_utf8_lossy(&play.stdout),
                String::from_utf8_lossy(&replay.stdout),
            );
            assert!(
                replay.status.success(),
                "{r} {seed}: {}",
                String::from_utf8_lossy(&replay.stderr)
            );
            let title = p.lines().next().unwrap_or_default().to_string();
            let (lp, lq) = (log_of(&p, &title), log_of(&q, "Seats:"));
            assert!(!lp.is_empty());
            assert_eq!(lp, lq, "{r} seed {seed}: the logs differ");
            let a: Value = serde_json::from_slice(&play_json.stdout).unwrap();
            let b: Value = serde_json::from_slice(&replay_json.stdout).unwrap();
            for k in [
                "events",
                "winners",
                "turns",
                "tiles_placed",
                "ingots_on_board",
            ] {
                assert_eq!(a[k], b[k], "{r} seed {seed}: {k}");
            }
            for s in 0..players as usize {
                for k in ["total", "by_category", "ingots", "followers_placed"] {
                    assert_eq!(
                        a["players"][s][k], b["players"][s][k],
                        "{r} seed {seed}: {k}"
                    );
                }
            }
            assert_eq!(b["replay"]["finished"], true);
            // the same ruleset named explicitly: no divergence
            let same = meeplab(&["replay", &rec_s, "--ruleset", &r]);
            let out = String::from_utf8_lossy(&same.stdout);
            assert!(out.contains("no divergence"), "{r} seed {seed}: {out}");
        }
    }
}

/// A replay stopped by `--turn` names who leads, not a winner: the game has not ended
/// (issue 43); the whole replay still names the winner.
#[test]
fn a_replay_stopped_early_names_no_winner() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("g.json").display().to_string();
    let play = meeplab(&["play", "base", "--seed", "3", "--record", &rec]);
    assert!(play.status.success());
    let text = |args: &[&str]| String::from_utf8_lossy(&meeplab(args).stdout).into_owned();
    let early = text(&["replay", &rec, "--turn", "40"]);
    assert!(early.contains("stopped after turn 40"), "{early}");
    assert!(!early.contains("winner"), "{early}");
    assert!(
        early.contains("leading (the game has not ended): "),
        "{early}"
    );
    let under = text(&["replay", &rec, "--turn", "40", "--ruleset", "base-2000"]);
    assert!(!under.contains("(winner:"), "{under}");
    assert!(under.contains("(leading, not ended: "), "{under}");
    let whole = text(&["replay", &rec]);
    assert!(whole.contains("\nwinner"), "{whole}");
    assert!(!whole.contains("leading"), "{whole}");
}

/// A file that is no record gets told what replay reads (issue 43: a `.rules` file was
/// answered with "not valid JSON" alone).
#[test]
fn a_rules_file_given_to_replay_is_told_what_replay_reads() {
    let o = meeplab(&["replay", "rulesets/base.rules"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    for needle in [
        "not valid JSON",
        "a meeplab record",
        "JCloisterZone save (.jcz)",
        "--ruleset FILE",
    ] {
        assert!(err.contains(needle), "{needle}: {err}");
    }
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("x.json");
    std::fs::write(&other, "{\"a\": 1}").unwrap();
    let o = meeplab(&["replay", other.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("neither a meeplab record") && err.contains("play --record"),
        "{err}"
    );
}
