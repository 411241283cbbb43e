//! Limits on what a user can ask for (issue 13): seat counts, numbers that would allocate
//! without bound, and rule formulas that overflow or divide by zero. Each is refused or warned
//! about with a clear message instead of a panic, an abort or a silent wrong number.

mod cli_support;

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
        vec!["compare", "base", "base", "--players", "7", "--games", "5"],
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
        assert!(
            err.contains("--players 7 is out of range: a game has 1 to 6 players"),
            "{cmd:?}: {err}"
        );
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
