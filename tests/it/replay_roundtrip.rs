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
