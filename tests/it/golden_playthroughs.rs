//! Readable golden playthroughs: one narrated game of every bundled ruleset, checked in.
//!
//! `tests/golden/playthroughs/<ruleset>.txt` holds the game of seed 1 with 2 players and the
//! `greedy` policy under `rulesets/<ruleset>.rules`, narrated turn by turn with the final
//! table: exactly what `meeplab play rulesets/<ruleset>.rules --seed 1 --players 2 --policy
//! greedy` prints. Where [`golden_outcomes`](golden_outcomes.rs) says *that* a game changed,
//! these files say *how*: a change to the engine, the narration or a ruleset shows up in the
//! diff as the first turn that plays differently.
//!
//! The test fails when a file differs (showing the first differing line and its number),
//! when a bundled ruleset has no file (a new ruleset must add its playthrough) and when a
//! file has no ruleset. After a deliberate change, rewrite the files with
//! `MEEPLAB_WRITE_PLAYTHROUGHS=1 cargo test --test it golden_playthroughs::` and read the diff.

use crate::scenario_support;

use meeplab::play::play_with_events;
use meeplab::policy::PolicyKind;
use meeplab::render::narrate;
use std::collections::BTreeSet;
use std::path::Path;

const DIR: &str = "tests/golden/playthroughs";
const SEED: u64 = 1;
const PLAYERS: u8 = 2;
const POLICY: PolicyKind = PolicyKind::Greedy;
const REWRITE: &str = "MEEPLAB_WRITE_PLAYTHROUGHS=1 cargo test --test it golden_playthroughs::";

/// The narrated game, as `meeplab play` prints it.
fn playthrough(rules: &std::sync::Arc<meeplab::engine::Compiled>) -> String {
    let (outcome, events) = play_with_events(rules, SEED, PLAYERS, POLICY);
    format!(
        "{} — seed {SEED}, {PLAYERS} players, {} policy\n{}\n{}",
        rules.rules.name,
        POLICY.name(),
        narrate::log(&rules.rules, &events),
        narrate::final_table(&outcome)
    )
}

/// Where `got` first differs from `expected`, as a message naming the line.
fn first_difference(expected: &str, got: &str) -> Option<String> {
    if expected == got {
        return None;
    }
    let (mut e, mut g) = (expected.lines(), got.lines());
    let mut n = 1;
    loop {
        match (e.next(), g.next()) {
            (Some(x), Some(y)) if x == y => n += 1,
            (x, y) => {
                let show =
                    |l: Option<&str>| l.map_or("(end of file)".to_string(), |l| format!("{l:?}"));
                return Some(format!(
                    "line {n}:\n    expected {}\n    got      {}",
                    show(x),
                    show(y)
                ));
            }
        }
    }
}

#[test]
fn playthroughs_match_the_golden_files() {
    let write = std::env::var("MEEPLAB_WRITE_PLAYTHROUGHS").is_ok_and(|v| v == "1");
    let bundled = scenario_support::bundled_rulesets();
    if write {
        std::fs::create_dir_all(DIR).expect("create the playthrough folder");
    }
    let mut failures = Vec::new();
    for (stem, rules) in &bundled {
        let path = Path::new(DIR).join(format!("{stem}.txt"));
        let got = playthrough(rules);
        if write {
            std::fs::write(&path, &got).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            continue;
        }
        match std::fs::read_to_string(&path) {
            Err(e) => failures.push(format!(
                "rulesets/{stem}.rules has no playthrough ({}: {e}); every bundled ruleset needs one",
                path.display()
            )),
            Ok(expected) => {
                if let Some(at) = first_difference(&expected, &got) {
                    failures.push(format!("{} differs at {at}", path.display()));
                }
            }
        }
    }
    let stems: BTreeSet<&str> = bundled.iter().map(|(s, _)| s.as_str()).collect();
    for entry in std::fs::read_dir(DIR)
        .expect("tests/golden/playthroughs/")
        .flatten()
    {
        let name = entry.file_name().to_string_lossy().into_owned();
        let stem = name.strip_suffix(".txt").unwrap_or(&name);
        if !stems.contains(stem) {
            failures.push(format!(
                "{DIR}/{name} is the playthrough of no bundled ruleset (remove it)"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{}\n\nIf the change is deliberate, rewrite the files with `{REWRITE}` and check the diff.",
        failures.join("\n")
    );
}

#[test]
fn the_first_difference_names_its_line() {
    assert_eq!(first_difference("a\nb\n", "a\nb\n"), None);
    assert_eq!(
        first_difference("a\nb\nc\n", "a\nx\nc\n").unwrap(),
        "line 2:\n    expected \"b\"\n    got      \"x\""
    );
    assert_eq!(
        first_difference("a\n", "a\nmore\n").unwrap(),
        "line 2:\n    expected (end of file)\n    got      \"more\""
    );
}
