//! `meeplab replay` on JCloisterZone saves: the hand-written fixtures in `tests/jcz/` pass
//! `--check`, a Gold Mines save diverges under the RGG wording, and malformed saves give a
//! clear error naming the replay message.

mod cli_support;

use cli_support::{meeplab, root, text};
use serde_json::{json, Value};
use std::path::Path;

const FIXTURES: &[&str] = &[
    "city_road",
    "small_city",
    "fields_cloister",
    "gold_tie",
    "gold_single",
    "crop_deploy",
    "crop_remove",
    // JCloisterZone's own basic scoring tests (its 4.x saves, rewritten in the 5.x message
    // format), with the totals its test suite asserts: 14/11, 28/13 and 9/15.
    "jcz_basic_scoring",
    "jcz_multitile_features",
    "jcz_farm_scoring",
];

#[test]
fn every_fixture_passes_check() {
    for f in FIXTURES {
        let path = format!("tests/jcz/{f}.jcz");
        let o = meeplab(&["replay", &path, "--check"]);
        let (out, err) = text(&o);
        assert!(o.status.success(), "{f}: {err}\n{out}");
        assert!(err.contains("assertion(s) hold"), "{f}: {err}");
        assert!(!err.contains("warning"), "{f}: {err}");
    }
}

fn load(f: &str) -> Value {
    let t = std::fs::read_to_string(root().join(format!("tests/jcz/{f}.jcz"))).unwrap();
    serde_json::from_str(&t).unwrap()
}

fn write(dir: &Path, name: &str, v: &Value) -> String {
    let p = dir.join(name);
    std::fs::write(&p, serde_json::to_string_pretty(v).unwrap()).unwrap();
    p.display().to_string()
}

#[test]
fn a_failing_assertion_exits_1_and_is_listed() {
    let dir = tempfile::tempdir().unwrap();
    let mut v = load("city_road");
    v["test"]["assertions"] = json!(["Alice has 4 points", "Bob has 99 points", "Carol wins"]);
    let p = write(dir.path(), "bad.jcz", &v);
    let o = meeplab(&["replay", &p, "--check"]);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("2 of 3 assertion(s) fail"), "{err}");
    assert!(
        err.contains("FAIL  Bob has 99 points  (Bob has 3 points)"),
        "{err}"
    );
    assert!(err.contains("FAIL  Carol wins"), "{err}");
    assert!(!err.contains("FAIL  Alice"), "{err}");
}

#[test]
fn json_has_scoring_events_per_category() {
    let o = meeplab(&["replay", "tests/jcz/gold_tie.jcz", "--json", "--check"]);
    assert!(o.status.success());
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["players"][0]["name"], "Alice");
    assert_eq!(v["players"][1]["total"], 6);
    assert_eq!(v["players"][1]["scoring_events"]["road"][0]["points"], 5);
    assert_eq!(v["players"][1]["scoring_events"]["gold"][0]["points"], 1);
    assert_eq!(v["record"]["format"], "jcz");
    assert_eq!(v["replay"]["finished"], true);
    assert!(v["check"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["ok"] == true));
}

#[test]
fn gold_split_diverges_under_the_rgg_wording() {
    let o = meeplab(&[
        "replay",
        "tests/jcz/gold_single.jcz",
        "--ruleset",
        "rulesets/goldmines-rgg.rules",
        "--json",
    ]);
    assert!(o.status.success(), "{}", text(&o).1);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let d = &v["comparison"]["first_divergence"];
    assert_eq!(d["turn"], 4, "{v}");
    assert_eq!(d["original"]["event"], "ingot_taken");
    // HiG/JCZ: Alice takes both ingots (2 points); RGG: one per feature (1 point)
    assert_eq!(v["comparison"]["original"]["players"][0]["ingots"], 2);
    assert_eq!(v["players"][0]["ingots"], 1);
    assert_eq!(v["comparison"]["score_delta"][0], -1);
    let t = meeplab(&[
        "replay",
        "tests/jcz/gold_single.jcz",
        "--ruleset",
        "goldmines-rgg",
    ]);
    let (out, _) = text(&t);
    assert!(out.contains("first divergence: event"), "{out}");
    assert!(out.contains("winner changed: no"), "{out}");
}

#[test]
fn the_same_rules_do_not_diverge() {
    let o = meeplab(&[
        "replay",
        "tests/jcz/gold_tie.jcz",
        "--ruleset",
        "goldmines-autopick",
    ]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(out.contains("no divergence"), "{out}");
}

#[test]
fn an_illegal_decision_under_another_ruleset_is_reported() {
    // without farmers, Alice's farmer is illegal
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("nofarm.rules");
    std::fs::write(
        &rules,
        format!(
            "ruleset \"no farmers\"\nextends \"{}\"\nfarms = off\n",
            root().join("rulesets/base.rules").display()
        ),
    )
    .unwrap();
    let r = rules.display().to_string();
    for (mode, halted) in [("stop", true), ("skip", false), ("policy", false)] {
        let o = meeplab(&[
            "replay",
            "tests/jcz/fields_cloister.jcz",
            "--ruleset",
            &r,
            "--on-illegal",
            mode,
            "--json",
        ]);
        assert!(o.status.success(), "{}", text(&o).1);
        let v: Value = serde_json::from_slice(&o.stdout).unwrap();
        let ill = &v["replay"]["illegal"][0];
        assert_eq!(ill["turn"], 1, "{v}");
        assert_eq!(ill["decision"], "follower");
        assert!(
            ill["why"].as_str().unwrap().contains("farmers are off"),
            "{ill}"
        );
        assert_eq!(v["replay"]["halted"], halted, "{mode}");
    }
}

fn expect_error(v: &Value, needles: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "bad.jcz", v);
    let o = meeplab(&["replay", &p, "--check"]);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    for n in needles {
        assert!(err.contains(n), "expected `{n}` in: {err}");
    }
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn truncated_json_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let t = std::fs::read_to_string(root().join("tests/jcz/city_road.jcz")).unwrap();
    let p = dir.path().join("cut.jcz");
    std::fs::write(&p, &t[..t.len() / 2]).unwrap();
    let o = meeplab(&["replay", &p.display().to_string()]);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1));
    assert!(err.contains("not valid JSON: EOF while parsing"), "{err}");
}

#[test]
fn deep_nesting_and_huge_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("deep.jcz");
    std::fs::write(&p, "[".repeat(1000) + &"]".repeat(1000)).unwrap();
    let o = meeplab(&["replay", &p.display().to_string()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o).1.contains("nests deeper than 128"),
        "{}",
        text(&o).1
    );
    let big = dir.path().join("big.jcz");
    std::fs::write(&big, vec![b' '; (16 << 20) + 10]).unwrap();
    let o = meeplab(&["replay", &big.display().to_string()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("larger than 16 MiB"), "{}", text(&o).1);
}

#[test]
fn unknown_tile_id() {
    let mut v = load("city_road");
    v["replay"][3]["payload"]["tileId"] = json!("BA/Nope");
    expect_error(
        &v,
        &["replay message 3 (PLACE_TILE)", "unknown tile id `BA/Nope`"],
    );
}

#[test]
fn illegal_placement() {
    let mut v = load("city_road");
    // the city cap facing east at (0,-1) meets the start tile's city with a field edge
    v["replay"][0]["payload"]["rotation"] = json!("R90");
    v["replay"][1]["payload"]["pointer"]["location"] = json!("E");
    expect_error(
        &v,
        &[
            "replay message 0 (PLACE_TILE)",
            "illegal placement",
            "edges do not match",
        ],
    );
    let mut v = load("city_road");
    v["replay"][3]["payload"]["position"] = json!([5, 5]);
    v["replay"][4]["payload"]["pointer"]["position"] = json!([5, 5]);
    expect_error(&v, &["replay message 3", "touches no tile"]);
    let mut v = load("city_road");
    v["replay"][3]["payload"]["position"] = json!([0, -1]);
    expect_error(&v, &["replay message 3", "already holds a tile"]);
}

#[test]
fn meeple_on_an_occupied_feature() {
    let mut v = load("city_road");
    // Alice's turn 3 tile joins Bob's road; she tries to put a thief on it
    v["replay"][7] = json!({"type": "DEPLOY_MEEPLE", "player": 0, "payload": {
        "pointer": {"position": [-1, 0], "feature": "Road", "location": "E"},
        "meepleId": "0.small.1"}});
    expect_error(&v, &["replay message 7", "already occupied"]);
}

#[test]
fn wrong_player_order() {
    let mut v = load("city_road");
    v["replay"][3]["player"] = json!(0);
    expect_error(
        &v,
        &[
            "replay message 3 (PLACE_TILE)",
            "wrong player order",
            "Bob's turn",
        ],
    );
    let mut v = load("city_road");
    v["replay"][4]["player"] = json!(0);
    expect_error(
        &v,
        &[
            "replay message 4 (DEPLOY_MEEPLE)",
            "Alice acts in Bob's turn",
        ],
    );
}

#[test]
fn a_location_the_tile_does_not_have() {
    let mut v = load("city_road");
    v["replay"][1]["payload"]["pointer"]["location"] = json!("N");
    expect_error(
        &v,
        &[
            "replay message 1 (DEPLOY_MEEPLE)",
            "BA/C has no city at `N`",
        ],
    );
}

#[test]
fn unsupported_things_are_named() {
    let mut v = load("city_road");
    v["setup"]["sets"]["inns-and-cathedrals"] = json!(1);
    expect_error(&v, &["tile set(s) not supported: inns-and-cathedrals"]);
    let mut v = load("city_road");
    v["setup"]["elements"]["abbot"] = json!(true);
    expect_error(&v, &["game element(s) not supported: abbot"]);
    let mut v = load("city_road");
    v["appVersion"] = json!("5.6.2");
    expect_error(&v, &["JCloisterZone 5.6.2 are not supported"]);
    let mut v = load("city_road");
    v["replay"][2] = json!({"type": "UNDO", "payload": {}, "player": 0});
    expect_error(&v, &["replay message 2 (UNDO)", "not supported"]);
    let mut v = load("city_road");
    v["replay"][1]["payload"]["meepleId"] = json!("0.big.0");
    expect_error(&v, &["replay message 1", "not a small follower"]);
}

#[test]
fn draw_order_and_end_turn_are_enforced() {
    let mut v = load("fields_cloister");
    v["gameAnnotations"]["drawOrder"] = json!(["BA/L", "BA/C"]);
    expect_error(&v, &["replay message 0", "forces `BA/L`"]);
    let mut v = load("fields_cloister");
    v["gameAnnotations"]["endTurn"] = json!(1);
    expect_error(&v, &["replay message 3", "after the end of the pack"]);
}

#[test]
fn svg_at_a_turn() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("b.svg");
    let s = svg.display().to_string();
    let o = meeplab(&[
        "replay",
        "tests/jcz/city_road.jcz",
        "--svg",
        &s,
        "--turn",
        "1",
    ]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(out.contains("stopped after turn 1"), "{out}");
    let pic = std::fs::read_to_string(&svg).unwrap();
    assert!(pic.starts_with("<svg") || pic.contains("<svg"));
}
