//! `meeplab check` and `meeplab diff` end to end: exit codes, JSON shape, the option
//! documentation, and the Gold Mines HiG-vs-RGG diff being exactly the split option.

use crate::cli_support;

use cli_support::meeplab;
use std::process::Output;

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn check_valid_files_exit_0_with_one_line_each() {
    let o = meeplab(&["check", "rulesets/base.rules", "goldmines-hig-2012"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 2);
    assert!(out.contains("72 tiles (24 types)"));
    assert!(out.contains("81 tiles"));
}

#[test]
fn check_invalid_file_exits_1_with_diagnostics_on_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("bad.rules");
    std::fs::write(
        &p,
        "ruleset \"bad\"\nextends \"/nonexistent.rules\"\nfolowers = 7\n",
    )
    .unwrap();
    let o = meeplab(&["check", p.to_str().unwrap(), "rulesets/base.rules"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("error[E0301]"), "{err}");
    assert!(
        err.contains("error[E0201]: unknown option `folowers`"),
        "{err}"
    );
    assert!(!err.contains('\x1b'), "no colour codes");
    assert_eq!(
        stdout(&o).lines().count(),
        1,
        "the valid file still gets its line"
    );
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(meeplab(&["check"]).status.code(), Some(2));
    assert_eq!(meeplab(&["diff", "base"]).status.code(), Some(2));
    assert_eq!(meeplab(&["check", "--bogus", "x"]).status.code(), Some(2));
}

#[test]
fn check_json() {
    let o = meeplab(&[
        "check",
        "--json",
        "rulesets/base.rules",
        "rulesets/robbers-2012.rules",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let a = v.as_array().unwrap();
    assert_eq!(a.len(), 2);
    assert_eq!(a[0]["tiles"], 72);
    assert_eq!(a[0]["tile_types"], 24);
    assert_eq!(a[1]["tiles"], 80);
    assert_eq!(a[0]["file"], "rulesets/base.rules");
    assert_eq!(
        a[1]["options"]["robbers.placers"]["value"],
        "next_with_robber"
    );
    assert!(a[0]["name"].as_str().unwrap().starts_with("Carcassonne"));
}

#[test]
fn list_options_documents_every_key() {
    let o = meeplab(&["check", "--list-options"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    for opt in meeplab::dsl::registry::all_options() {
        assert!(out.contains(&format!("\n{}\n", opt.key)), "{}", opt.key);
        assert!(out.contains(opt.default), "{}", opt.key);
    }
    assert!(out.contains("most_contested"));
}

#[test]
fn diff_hig_rgg_is_exactly_the_gold_split() {
    let o = meeplab(&["diff", "--json", "goldmines-hig-2012", "goldmines-rgg"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let opts = v["options"].as_array().unwrap();
    assert_eq!(opts.len(), 1, "{v}");
    assert_eq!(opts[0]["key"], "gold.split");
    assert_eq!(opts[0]["a"]["value"], "draft(pick: player)");
    assert_eq!(opts[0]["b"]["value"], "one_per_feature(leftover: stays)");
    assert!(opts[0]["b"]["source"].as_str().unwrap().starts_with("RGG"));
    assert!(v["tiles"].as_array().unwrap().is_empty());
    let text = stdout(&meeplab(&["diff", "goldmines-hig-2012", "goldmines-rgg"]));
    assert!(
        text.contains("options (1 option differs):\n  gold.split\n"),
        "{text}"
    );
    assert!(text.contains("tiles: identical"));
}

#[test]
fn diff_shows_tiles_by_id_and_count() {
    let o = meeplab(&["diff", "--json", "base", "goldmines-bb6-2017"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let tiles = v["tiles"].as_array().unwrap();
    assert_eq!(tiles.len(), 8);
    assert!(tiles.iter().all(|t| t["a"] == 0 && t["b"] == 1));
    // gold options exist only on one side
    let opts = v["options"].as_array().unwrap();
    assert!(opts
        .iter()
        .all(|o| o["a"].is_null() && o["key"].as_str().unwrap().starts_with("gold.")));
}

#[test]
fn diff_of_a_ruleset_with_itself_is_empty() {
    let o = meeplab(&["diff", "base", "rulesets/base.rules"]);
    assert!(stdout(&o).contains("no differences"));
}

/// The bundled rulesets are embedded: from a folder with no `rulesets/`, a bare name works in
/// every command, a house rule that extends a bundled ruleset by a relative path still loads,
/// and a file on disk with the same path wins over the bundle.
#[test]
fn bundled_rulesets_work_from_any_folder() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_meeplab"))
            .args(args)
            .current_dir(dir.path())
            .env("NO_COLOR", "1")
            .env("CI", "true")
            .output()
            .expect("run meeplab")
    };
    let o = run(&["play", "base", "--seed", "3", "--players", "2", "--json"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        stdout(&o).contains("\"tiles_placed\": 72"),
        "{}",
        stdout(&o)
    );
    let o = run(&["diff", "goldmines-hig-2012", "rulesets/goldmines-rgg.rules"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(stdout(&o).contains("gold.split"), "{}", stdout(&o));
    // a house rule written elsewhere, extending a bundled ruleset as the examples do
    let house = dir.path().join("house.rules");
    std::fs::write(
        &house,
        "ruleset \"h\"\nextends \"../../rulesets/goldmines-hig-2012.rules\"\ngold.value = 2 * ingots\n",
    )
    .unwrap();
    let o = run(&["check", "house.rules"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(stdout(&o).contains("81 tiles"), "{}", stdout(&o));
    // a file on disk named like a bundled ruleset wins
    std::fs::create_dir(dir.path().join("rulesets")).unwrap();
    std::fs::write(
        dir.path().join("rulesets/base.rules"),
        "ruleset \"local base\"\nextends \"goldmines-rgg\"\n",
    )
    .unwrap();
    let o = run(&["check", "base"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(stdout(&o).contains("local base"), "{}", stdout(&o));
    // an unknown name lists the bundled ones
    let o = run(&["check", "no-such-ruleset"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("goldmines-rgg"));
}

/// `diff` shows a ruleset without a `hand` line at the default hand of 1, not "not in play";
/// an explicit `hand = 1` is no difference at all.
#[test]
fn diff_shows_the_hand_of_tiles_against_its_default() {
    let o = meeplab(&["diff", "base", "house-hand2", "--json"]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let opts = v["options"].as_array().expect("options");
    assert_eq!(opts.len(), 1, "{out}");
    assert_eq!(opts[0]["key"], "hand");
    assert_eq!(opts[0]["a"]["value"], "1");
    assert_eq!(opts[0]["b"]["value"], "2");
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("one.rules");
    let base = format!("{}/rulesets/base.rules", env!("CARGO_MANIFEST_DIR"));
    std::fs::write(&p, format!("ruleset \"one\"\nextends {base:?}\nhand = 1\n")).unwrap();
    let o = meeplab(&["diff", "--exit-code", "base", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}
