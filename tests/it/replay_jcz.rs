//! `meeplab replay` on JCloisterZone saves: the saves JCloisterZone itself wrote
//! (`tests/jcz/jcz-written/`, and `../shared/jcz-cases/` beside the clone when present) and
//! the hand-written fixtures in `tests/jcz/` (in JCloisterZone's layout) pass `--check`; a
//! Gold Mines save diverges under the RGG wording; malformed, ambiguous or unfaithful saves
//! give a clear error naming the replay message and field.

use crate::cli_support;

use cli_support::{
    assert_jcz_check_passes, expect_jcz_error, jcz_fixture, meeplab, root, text, write_json,
};
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

/// A castles save of our own making (base set + castles, the players `names`), with
/// `replay`, its draw order and `assertions`.
fn castle_save(names: &[&str], replay: Vec<Value>, draws: &[&str], assertions: Value) -> Value {
    let players: Vec<Value> = names
        .iter()
        .enumerate()
        .map(|(i, n)| json!({"name": n, "slot": i}))
        .collect();
    json!({
        "appVersion": "5.12.1",
        "gameId": "meeplab-castle-test",
        "name": "",
        "initialRandom": 0.0,
        "test": {"description": "castles", "assertions": assertions},
        "setup": {
            "sets": {"basic:1": 1},
            "elements": {"small-follower": 7, "farmers": true, "castle": 1},
            "rules": {},
            "start": [{"tile": "BA/RCr", "x": 0, "y": 0, "rotation": 0}]
        },
        "players": players,
        "replay": replay,
        "gameAnnotations": {"drawOrder": draws}
    })
}

/// A castle scored by an unoccupied road (bcb.md §5.3: an unoccupied feature completed in
/// the vicinity counts): Alice's knight on BA/C at (0,-1) closes the start city and she
/// builds a castle on it (messages 1 and 2); Bob's crossroads west of the start and Alice's
/// junction east of it complete the 3-tile road through the start tile, nobody on it: the castle
/// scores 3 for Alice, and Bob nothing.
fn castle_game() -> Value {
    let tile = |p: u8, t: &str, r: &str, x: i32, y: i32| {
        json!({"type": "PLACE_TILE", "player": p,
            "payload": {"tileId": t, "rotation": r, "position": [x, y]}})
    };
    let commit = |p: u8| json!({"type": "COMMIT", "player": p, "payload": {"random": 0.0}});
    let pass = |p: u8| json!({"type": "PASS", "player": p, "payload": {}});
    let city_s = json!({"position": [0, -1], "feature": "City", "location": "S"});
    castle_save(
        &["Alice", "Bob"],
        vec![
            tile(0, "BA/C", "R180", 0, -1),
            json!({"type": "DEPLOY_MEEPLE", "player": 0,
                "payload": {"pointer": city_s, "meepleId": "0.small.1"}}),
            json!({"type": "PLACE_TOKEN", "player": 0,
                "payload": {"token": "CASTLE", "pointer": city_s}}),
            commit(0),
            tile(1, "BA/RRRR", "R0", -1, 0),
            pass(1),
            commit(1),
            tile(0, "BA/RRR", "R0", 1, 0),
            pass(0),
            commit(0),
        ],
        &["BA/C", "BA/RRRR", "BA/RRR"],
        json!([
            "Alice has 3 points",
            "Alice scored castle for 3 points",
            "Bob has 0 points"
        ]),
    )
}

#[test]
fn every_fixture_passes_check() {
    for f in FIXTURES {
        assert_jcz_check_passes(f);
    }
}

#[test]
fn a_failing_assertion_exits_1_and_is_listed() {
    let dir = tempfile::tempdir().unwrap();
    let mut v = jcz_fixture("city_road");
    v["test"]["assertions"] = json!(["Alice has 4 points", "Bob has 99 points", "Carol wins"]);
    let p = write_json(dir.path(), "bad.jcz", &v);
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
        // stopping at the illegal farmer leaves a truncated game: not comparable, exit 1
        assert_eq!(o.status.code(), Some(i32::from(halted)), "{}", text(&o).1);
        let v: Value = serde_json::from_slice(&o.stdout).unwrap();
        let ill = &v["replay"]["illegal"][0];
        assert_eq!(ill["turn"], 1, "{v}");
        assert_eq!(ill["decision"], "follower");
        assert!(
            ill["why"].as_str().unwrap().contains("farmers are off"),
            "{ill}"
        );
        assert_eq!(v["replay"]["halted"], halted, "{mode}");
        assert_eq!(v["comparison"]["complete"], !halted, "{mode}");
        if halted {
            assert_eq!(v["comparison"]["winner_changed"], Value::Null);
        } else {
            assert!(v["comparison"]["winner_changed"].is_boolean());
        }
    }
    // issue 14: the text log says so instead of "winner changed: yes"
    let o = meeplab(&["replay", "tests/jcz/fields_cloister.jcz", "--ruleset", &r]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        out.contains("winner changed: unknown — the comparison is incomplete"),
        "{out}"
    );
    assert!(!out.contains("winner changed: yes"), "{out}");
    assert!(
        err.contains("stopped at an illegal decision in turn 1"),
        "{err}"
    );
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
    let mut v = jcz_fixture("city_road");
    v["replay"][3]["payload"]["tileId"] = json!("BA/Nope");
    expect_jcz_error(
        &v,
        &["replay message 3 (PLACE_TILE)", "unknown tile id `BA/Nope`"],
    );
}

#[test]
fn illegal_placement() {
    let mut v = jcz_fixture("city_road");
    // the city cap facing east at (0,-1) meets the start tile's city with a field edge
    v["replay"][0]["payload"]["rotation"] = json!("R90");
    v["replay"][1]["payload"]["pointer"]["location"] = json!("E");
    expect_jcz_error(
        &v,
        &[
            "replay message 0 (PLACE_TILE)",
            "illegal placement",
            "edges do not match",
        ],
    );
    let mut v = jcz_fixture("city_road");
    v["replay"][3]["payload"]["position"] = json!([5, 5]);
    v["replay"][4]["payload"]["pointer"]["position"] = json!([5, 5]);
    expect_jcz_error(&v, &["replay message 3", "touches no tile"]);
    let mut v = jcz_fixture("city_road");
    v["replay"][3]["payload"]["position"] = json!([0, -1]);
    expect_jcz_error(&v, &["replay message 3", "already holds a tile"]);
}

#[test]
fn meeple_on_an_occupied_feature() {
    let mut v = jcz_fixture("city_road");
    // Alice's turn 3 tile joins Bob's road; she tries to put a thief on it
    v["replay"][7] = json!({"type": "DEPLOY_MEEPLE", "player": 0, "payload": {
        "pointer": {"position": [-1, 0], "feature": "Road", "location": "E"},
        "meepleId": "0.small.1"}});
    expect_jcz_error(&v, &["replay message 7", "already occupied"]);
}

#[test]
fn wrong_player_order() {
    let mut v = jcz_fixture("city_road");
    v["replay"][3]["player"] = json!(0);
    expect_jcz_error(
        &v,
        &[
            "replay message 3 (PLACE_TILE)",
            "wrong player order",
            "Bob's turn",
        ],
    );
    let mut v = jcz_fixture("city_road");
    v["replay"][4]["player"] = json!(0);
    v["replay"][4]["payload"]["meepleId"] = json!("0.small.2");
    expect_jcz_error(
        &v,
        &[
            "replay message 4 (DEPLOY_MEEPLE)",
            "Alice acts in Bob's turn",
        ],
    );
}

#[test]
fn follower_ids_are_jcloisterzones() {
    let mut v = jcz_fixture("city_road");
    v["replay"][1]["payload"]["meepleId"] = json!("0.small.0");
    expect_jcz_error(&v, &["replay message 1 (DEPLOY_MEEPLE)", "from 1 to 7"]);
    let mut v = jcz_fixture("city_road");
    v["replay"][1]["payload"]["meepleId"] = json!("1.small.1");
    expect_jcz_error(
        &v,
        &["replay message 1 (DEPLOY_MEEPLE)", "belongs to seat 1"],
    );
    let mut v = jcz_fixture("city_road");
    v["replay"][1]["payload"]
        .as_object_mut()
        .unwrap()
        .remove("meepleId");
    expect_jcz_error(
        &v,
        &["replay message 1 (DEPLOY_MEEPLE)", "meepleId is missing"],
    );
}

#[test]
fn a_location_the_tile_does_not_have() {
    let mut v = jcz_fixture("city_road");
    v["replay"][1]["payload"]["pointer"]["location"] = json!("N");
    expect_jcz_error(
        &v,
        &[
            "replay message 1 (DEPLOY_MEEPLE)",
            "BA/C has no city at `N`",
        ],
    );
}

#[test]
fn unsupported_things_are_named() {
    let mut v = jcz_fixture("city_road");
    v["setup"]["sets"]["inns-and-cathedrals"] = json!(1);
    expect_jcz_error(&v, &["tile set(s) not supported: inns-and-cathedrals"]);
    let mut v = jcz_fixture("city_road");
    v["setup"]["elements"]["tower"] = json!(true);
    // the list of what meeplab knows names every element it reads
    expect_jcz_error(
        &v,
        &[
            "game element(s) not supported: tower",
            "garden, abbot",
            "big-follower, inn, cathedral",
            "castle, bridge, bazaar",
            "builder, pig, pig-herd",
        ],
    );
    // JCloisterZone switches an element on by its presence: `false` is still on
    let mut v = jcz_fixture("city_road");
    v["setup"]["elements"]["tower"] = json!(false);
    expect_jcz_error(&v, &["setup.elements", "not supported: tower"]);
    let mut v = jcz_fixture("city_road");
    v["setup"]["start"][0]["rotation"] = json!("R0");
    expect_jcz_error(&v, &["setup.start[0].rotation", "integer"]);
    let mut v = jcz_fixture("city_road");
    v["setup"]["elements"]
        .as_object_mut()
        .unwrap()
        .remove("small-follower");
    expect_jcz_error(&v, &["setup.elements.small-follower is missing"]);
    let mut v = jcz_fixture("city_road");
    v["appVersion"] = json!("5.6.2");
    expect_jcz_error(&v, &["JCloisterZone 5.6.2 are not supported"]);
    let mut v = jcz_fixture("city_road");
    v["replay"][2] = json!({"type": "UNDO", "payload": {}, "player": 0});
    expect_jcz_error(&v, &["replay message 2 (UNDO)", "not supported"]);
    let mut v = jcz_fixture("city_road");
    v["replay"][1]["payload"]["meepleId"] = json!("0.big.1");
    expect_jcz_error(&v, &["replay message 1", "not a small follower"]);
    let mut v = jcz_fixture("city_road");
    v["replay"][1]["payload"]["pointer"]["feature"] = json!("Tower");
    expect_jcz_error(
        &v,
        &[
            "replay message 1 (DEPLOY_MEEPLE)",
            "payload.pointer.feature = `Tower`",
        ],
    );
}

#[test]
fn draw_order_and_end_turn_are_enforced() {
    let mut v = jcz_fixture("fields_cloister");
    v["gameAnnotations"]["drawOrder"] = json!(["BA/L", "BA/C", "#END"]);
    expect_jcz_error(
        &v,
        &[
            "replay message 0 (PLACE_TILE)",
            "JCloisterZone draws BA/L for turn 1 (gameAnnotations.drawOrder[0]), but the save places BA/C",
        ],
    );
    let mut v = jcz_fixture("fields_cloister");
    v["gameAnnotations"]["endTurn"] = json!(1);
    expect_jcz_error(&v, &["replay message 3", "after the end of the pack"]);
    let mut v = jcz_fixture("fields_cloister");
    v["gameAnnotations"]["drawOrder"] = json!(["BA/C", "#END", "BA/L"]);
    expect_jcz_error(&v, &["gameAnnotations.drawOrder[1]", "#END"]);
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

/// The saves JCloisterZone 5.12 wrote itself (copied from `../shared/jcz-cases/`).
const JCZ_WRITTEN: &str = "tests/jcz/jcz-written";

fn jcz_written(name: &str) -> Value {
    let t = std::fs::read_to_string(root().join(JCZ_WRITTEN).join(name)).unwrap();
    serde_json::from_str(&t).unwrap()
}

fn saves_in(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut saves: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "jcz"))
        .collect();
    saves.sort();
    saves
}

fn check_passes(save: &Path) {
    let s = save.display().to_string();
    let o = meeplab(&["replay", &s, "--check"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{s}: {err}\n{out}");
    assert!(err.contains("assertion(s) hold"), "{s}: {err}");
    assert!(!err.contains("warning"), "{s}: {err}");
}

#[test]
fn every_save_written_by_jcloisterzone_passes_check() {
    let ours = saves_in(&root().join(JCZ_WRITTEN));
    assert_eq!(ours.len(), 6, "{ours:?}");
    for save in &ours {
        check_passes(save);
    }
    // the shared folder beside the clone may hold more
    let shared = root().join("../shared/jcz-cases");
    if shared.is_dir() {
        for save in saves_in(&shared) {
            check_passes(&save);
        }
    } else {
        println!(
            "note: {} is absent; only the copies in {JCZ_WRITTEN} were checked",
            shared.display()
        );
    }
}

#[test]
fn a_discard_is_reproduced_from_the_random_values() {
    let o = meeplab(&[
        "replay",
        "tests/jcz/jcz-written/import-discard-no-draworder.jcz",
        "--json",
    ]);
    assert!(o.status.success(), "{}", text(&o).1);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["replay"]["finished"], true);
    assert_eq!(v["record"]["complete"], true);
    assert_eq!(v["players"][0]["total"], 16);
    assert_eq!(v["players"][1]["total"], 22);
    let notes = v["replay"]["notes"].to_string();
    assert!(
        notes.contains("JCloisterZone drew BA/L before turn 8 and discarded it"),
        "{notes}"
    );
    // a random value changed: the save no longer matches JCloisterZone's draws
    let mut w = jcz_written("import-discard-no-draworder.jcz");
    w["replay"][5]["payload"]["random"] = json!(0.5);
    expect_jcz_error(
        &w,
        &[
            "replay message 6 (PLACE_TILE)",
            "JCloisterZone draws BA/CccR+ for turn 3 (from the save's random values), but the save places BA/RFr",
        ],
    );
}

#[test]
fn without_random_values_an_undecidable_end_is_an_error() {
    let mut v = jcz_written("import-discard-no-draworder.jcz");
    v.as_object_mut().unwrap().remove("initialRandom");
    for m in v["replay"].as_array_mut().unwrap() {
        m["payload"].as_object_mut().unwrap().remove("random");
    }
    // BA/L (discarded mid-game) fits the final board: over, or still in the pack?
    expect_jcz_error(
        &v,
        &[
            "replay message 157",
            "cannot tell whether the game is over",
            "BA/L",
        ],
    );
    let dir = tempfile::tempdir().unwrap();
    let p = write_json(dir.path(), "norandom.jcz", &v);
    let o = meeplab(&["replay", &p, "--on-illegal", "policy", "--json"]);
    let (_, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("warning: cannot tell whether the game is over"),
        "{err}"
    );
    let j: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["replay"]["finished"], false);
}

#[test]
fn the_crop_circle_step_follows_the_turns_commit() {
    // JCloisterZone's order: COMMIT, CIRCLE_REMOVE_OR_DEPLOY, then RETURN_MEEPLE + COMMIT
    let v = jcz_written("import-crop-deploy-order.jcz");
    assert_eq!(v["replay"][2]["type"], "COMMIT");
    assert_eq!(v["replay"][3]["type"], "CIRCLE_REMOVE_OR_DEPLOY");
    // the crop-circle choice before the COMMIT is not JCloisterZone's order
    let mut w = v.clone();
    let list = w["replay"].as_array_mut().unwrap();
    list.swap(2, 3);
    expect_jcz_error(
        &w,
        &[
            "replay message 2 (CIRCLE_REMOVE_OR_DEPLOY)",
            "comes before the turn's COMMIT",
        ],
    );
    // a follower returned in the crop step needs its player's COMMIT
    let mut r = jcz_written("import-return-meeple-pointer.jcz");
    r["replay"].as_array_mut().unwrap().pop();
    expect_jcz_error(&r, &["replay message 4", "sent no COMMIT"]);
    // the old flat pointer is not JCloisterZone's
    let mut r = jcz_written("import-return-meeple-pointer.jcz");
    let fp = r["replay"][4]["payload"]["pointer"]["featurePointer"].clone();
    r["replay"][4]["payload"]["pointer"] = fp;
    expect_jcz_error(
        &r,
        &[
            "replay message 4 (RETURN_MEEPLE)",
            "payload.pointer.featurePointer is missing",
        ],
    );
    let mut r = jcz_written("import-return-meeple-pointer.jcz");
    r["replay"][4]["payload"]["pointer"]["featurePointer"]["position"] = json!([0]);
    expect_jcz_error(
        &r,
        &[
            "replay message 4 (RETURN_MEEPLE)",
            "payload.pointer.featurePointer.position must be [x, y]",
        ],
    );
}

#[test]
fn elements_are_on_by_their_presence() {
    // `"farmers": false` is still farmers on in JCloisterZone: Bob could then have placed a
    // farmer in turn 2, and the save records no decision — an error, not a guess
    let mut v = jcz_written("import-farmers-element-absent.jcz");
    v["setup"]["elements"]["farmers"] = json!(false);
    expect_jcz_error(
        &v,
        &[
            "replay message 3 (PLACE_TILE)",
            "the rules ask Bob for a follower placement",
            "does not record",
        ],
    );
    let dir = tempfile::tempdir().unwrap();
    let p = write_json(dir.path(), "farmers.jcz", &v);
    let o = meeplab(&["replay", &p, "--on-illegal", "policy"]);
    let (_, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("warning: replay message 3"), "{err}");
    // with the gold element, the Gold Mines tile wants its second ingot placed
    let mut g = jcz_written("import-gold-element-absent.jcz");
    g["setup"]["elements"]["gold"] = json!(true);
    expect_jcz_error(
        &g,
        &["replay message 6 (PLACE_TILE)", "the second ingot's tile"],
    );
    // without it the mapped ruleset has no gold at all
    let o = meeplab(&[
        "replay",
        "tests/jcz/jcz-written/import-gold-element-absent.jcz",
        "--json",
    ]);
    let j: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        j["ruleset"]["name"],
        "JCloisterZone: basic:1 + goldmines, no gold"
    );
    assert_eq!(j["ingots_on_board"], 0, "{j}");
    assert_eq!(j["players"][2]["ingots"], 0);
}

#[test]
fn a_save_that_stops_inside_a_turn_is_not_completed_silently() {
    let mut v = jcz_fixture("city_road");
    v["replay"].as_array_mut().unwrap().pop(); // the last COMMIT
    expect_jcz_error(&v, &["has no COMMIT", "will not guess"]);
}

#[test]
fn saves_without_player_fields_are_read_as_jcloisterzone_reads_them() {
    // JCloisterZone's engine knows who acts; some saves (its own engine tests) omit `player`:
    // the active player, the owner of the meeple moved, or (a crop-circle PASS) whoever is
    // asked next
    for (save, fixture) in [
        ("tests/jcz/jcz-written/import-crop-deploy-order.jcz", false),
        (
            "tests/jcz/jcz-written/import-return-meeple-pointer.jcz",
            false,
        ),
        ("crop_deploy", true),
        ("crop_remove", true),
    ] {
        let mut v = if fixture {
            jcz_fixture(save)
        } else {
            serde_json::from_str(&std::fs::read_to_string(root().join(save)).unwrap()).unwrap()
        };
        for m in v["replay"].as_array_mut().unwrap() {
            m.as_object_mut().unwrap().remove("player");
        }
        let dir = tempfile::tempdir().unwrap();
        let p = write_json(dir.path(), "noplayer.jcz", &v);
        let o = meeplab(&["replay", &p, "--check"]);
        let (_, err) = text(&o);
        assert!(o.status.success(), "{save}: {err}");
        assert!(err.contains("assertion(s) hold"), "{save}: {err}");
    }
}

#[test]
fn an_incomplete_comparison_of_a_meeplab_record_exits_1() {
    // issue 14: a game stopped at an illegal decision is not compared with a finished one
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.json").display().to_string();
    let o = meeplab(&[
        "play",
        "rulesets/base.rules",
        "--seed",
        "1",
        "--players",
        "2",
        "--record",
        &rec,
    ]);
    assert!(o.status.success(), "{}", text(&o).1);
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
    let o = meeplab(&["replay", &rec, "--ruleset", &r]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(out.contains("winner changed: unknown"), "{out}");
    assert!(err.contains("the comparison is incomplete"), "{err}");
    let o = meeplab(&["replay", &rec, "--ruleset", &r, "--on-illegal", "skip"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        out.contains("winner changed: yes") || out.contains("winner changed: no"),
        "{out}"
    );
}

/// JCloisterZone saves have no hands: a ruleset with the hand-of-tiles house rule is refused
/// with a clear error, not replayed with tiles the save never dealt.
#[test]
fn a_ruleset_with_hands_is_refused() {
    let o = meeplab(&[
        "replay",
        "tests/jcz/city_road.jcz",
        "--ruleset",
        "rulesets/house-hand2.rules",
    ]);
    let (out, err) = text(&o);
    assert_ne!(o.status.code(), Some(0), "{out}");
    assert!(err.contains("hand of 2 tiles"), "{err}");
    assert!(err.contains("JCloisterZone saves have no hands"), "{err}");
}

/// JCloisterZone's castle step: `PLACE_TOKEN CASTLE` after the follower action and before the
/// `COMMIT` builds the castle the pointer names; a `PASS` there declines it (the city scores).
#[test]
fn castles_are_built_and_declined_as_the_save_says() {
    let dir = tempfile::tempdir().unwrap();
    let p = write_json(dir.path(), "castle.jcz", &castle_game());
    let o = meeplab(&["replay", &p, "--json", "--check"]);
    assert!(o.status.success(), "{}", text(&o).1);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["players"][0]["total"], 3, "{v}");
    assert_eq!(
        v["players"][0]["scoring_events"]["castle"][0]["points"], 3,
        "{v}"
    );
    // declined: the small city scores 4 in turn 1, and no castle scores the road
    let mut v = castle_game();
    v["replay"][2] = json!({"type": "PASS", "payload": {}, "player": 0});
    v["test"]["assertions"] = json!([
        "Alice has 4 points",
        "Alice scored city for 4 points",
        "Bob has 0 points"
    ]);
    let p = write_json(dir.path(), "declined.jcz", &v);
    let o = meeplab(&["replay", &p, "--check"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}\n{out}");
    assert!(err.contains("all 3 assertion(s) hold"), "{err}");
    assert!(!out.contains("builds a castle"), "{out}");
}

#[test]
fn impossible_castles_are_errors_naming_the_message() {
    // a pointer to a city of another tile
    let mut v = castle_game();
    v["replay"][2]["payload"]["pointer"]["position"] = json!([0, 0]);
    expect_jcz_error(
        &v,
        &[
            "replay message 2 (PLACE_TOKEN)",
            "impossible castle",
            "not on the tile just placed",
        ],
    );
    // a location the tile has no city at
    let mut v = castle_game();
    v["replay"][2]["payload"]["pointer"]["location"] = json!("N");
    expect_jcz_error(
        &v,
        &["replay message 2 (PLACE_TOKEN)", "has no city at `N`"],
    );
    // a city that is not completed: BA/C at (0,-1) turned to cap north caps nothing
    let mut v = castle_game();
    v["replay"][0]["payload"]["rotation"] = json!("R0");
    v["replay"][1]["payload"]["pointer"]["location"] = json!("N");
    v["replay"][2]["payload"]["pointer"]["location"] = json!("N");
    expect_jcz_error(
        &v,
        &[
            "replay message 2 (PLACE_TOKEN)",
            "the city is not completed",
        ],
    );
    // a completed small city without a follower: the engine offers no castle
    let mut v = castle_game();
    v["replay"][1] = json!({"type": "PASS", "payload": {}, "player": 0});
    expect_jcz_error(
        &v,
        &[
            "replay message 2 (PLACE_TOKEN)",
            "impossible castle",
            "offer no castle",
        ],
    );
    // a castle without the castle element
    let mut v = castle_game();
    v["setup"]["elements"]
        .as_object_mut()
        .unwrap()
        .remove("castle");
    expect_jcz_error(&v, &["replay message 2 (PLACE_TOKEN)", "no `castle`"]);
    // a castle-step PASS where the rules offer none
    let mut v = castle_game();
    let replay = v["replay"].as_array_mut().unwrap();
    replay.insert(6, json!({"type": "PASS", "payload": {}, "player": 1}));
    expect_jcz_error(
        &v,
        &["replay message 6 (PASS)", "declines a castle", "offer none"],
    );
    // the castle step comes after the follower action
    let mut v = castle_game();
    let replay = v["replay"].as_array_mut().unwrap();
    replay.swap(1, 2);
    expect_jcz_error(
        &v,
        &["replay message 2 (DEPLOY_MEEPLE)", "after the castle step"],
    );
}

/// Bridges, Castles & Bazaars beyond castles is read (`replay_jcz_bcb`); a BC&B tile
/// without the set in `setup.sets` is an error naming the message.
#[test]
fn a_bridges_castles_and_bazaars_tile_needs_its_set() {
    let mut v = castle_game();
    v["replay"][4]["payload"]["tileId"] = json!("BB/F.b");
    expect_jcz_error(
        &v,
        &[
            "replay message 4 (PLACE_TILE)",
            "Bridges, Castles & Bazaars",
            "no bridges-castles-and-bazaars",
        ],
    );
}

/// JCloisterZone's client switches the `corn-circle` element on for any corn-circles tile set
/// (`enforces` in its expansions.js), so a save with the set plays the crop-circle action
/// with or without the element: our crop-circle fixture replays the same without it.
#[test]
fn a_corn_circles_set_brings_the_crop_circle_action() {
    let dir = tempfile::tempdir().unwrap();
    let mut v = jcz_fixture("crop_remove");
    let els = v["setup"]["elements"].as_object_mut().unwrap();
    assert!(els.remove("corn-circle").is_some());
    let p = write_json(dir.path(), "cc.jcz", &v);
    let o = meeplab(&["replay", &p, "--check"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}\n{out}");
    assert!(err.contains("all 2 assertion(s) hold"), "{err}");
    assert!(out.contains("chooses remove"), "{out}");
}

/// A tile that completes two small cities, each with one of Alice's followers: JCloisterZone
/// offers her both in one castle action and she builds one (or passes); meeplab asks each city
/// in the tile's segment order, and the replay builds the one the pointer names.
fn two_offers(castle: Option<&str>, assertions: Value) -> Value {
    let tile = |t: &str, r: &str, x: i32, y: i32| {
        json!({"type": "PLACE_TILE", "player": 0,
            "payload": {"tileId": t, "rotation": r, "position": [x, y]}})
    };
    let deploy = |x: i32, y: i32, loc: &str, n: u32| {
        json!({"type": "DEPLOY_MEEPLE", "player": 0, "payload": {
            "pointer": {"position": [x, y], "feature": "City", "location": loc},
            "meepleId": format!("0.small.{n}")}})
    };
    let commit = json!({"type": "COMMIT", "player": 0, "payload": {"random": 0.0}});
    let pass = json!({"type": "PASS", "player": 0, "payload": {}});
    let mut v = castle_save(&["Alice"], Vec::new(), &[], json!([]));
    let mut replay = vec![
        // caps W and S: S closes the start's city (nobody in it), W waits for (-1,-1)
        tile("BA/CC.2", "R270", 0, -1),
        deploy(0, -1, "W", 1),
        commit.clone(),
        tile("BA/RCr", "R0", -1, 0),
        deploy(-1, 0, "N", 2),
        commit.clone(),
        // caps S and E: both small cities complete
        tile("BA/CC.2", "R180", -1, -1),
        pass.clone(),
    ];
    match castle {
        Some(loc) => replay.push(json!({"type": "PLACE_TOKEN", "player": 0, "payload": {
            "token": "CASTLE",
            "pointer": {"position": [-1, -1], "feature": "City", "location": loc}}})),
        None => replay.push(pass),
    }
    replay.push(commit);
    v["replay"] = Value::Array(replay);
    v["gameAnnotations"] = json!({"drawOrder": ["BA/CC.2", "BA/RCr", "BA/CC.2"], "endTurn": 3});
    v["test"] = json!({"description": "two castles offered", "assertions": assertions});
    v
}

#[test]
fn of_two_castles_offered_the_one_the_save_names_is_built() {
    let dir = tempfile::tempdir().unwrap();
    for (loc, other) in [("S", "(0,-1)"), ("E", "(-1,0)")] {
        let v = two_offers(
            Some(loc),
            json!([
                "Alice has 4 points",
                "Alice scored city for 4 points",
                "Alice scored castle for 0 points"
            ]),
        );
        let p = write_json(dir.path(), &format!("two-{loc}.jcz"), &v);
        let o = meeplab(&["replay", &p, "--check"]);
        let (out, err) = text(&o);
        assert!(o.status.success(), "{loc}: {err}\n{out}");
        assert!(err.contains("all 3 assertion(s) hold"), "{loc}: {err}");
        // the castle lies on (-1,-1) and the tile across the cap the save names
        let built = if loc == "S" { "(-1,0)" } else { "(0,-1)" };
        assert!(
            out.contains(&format!("Red builds a castle on (-1,-1)–{built}")),
            "{loc}: {out}"
        );
        assert!(!out.contains(&format!("–{other}")), "{loc}: {out}");
    }
    // declined: both cities score
    let v = two_offers(None, json!(["Alice has 8 points"]));
    let p = write_json(dir.path(), "two-none.jcz", &v);
    let o = meeplab(&["replay", &p, "--check"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}\n{out}");
    assert!(!out.contains("builds a castle"), "{out}");
    // JCloisterZone offers a player one castle a turn
    let mut v = two_offers(Some("S"), json!([]));
    let replay = v["replay"].as_array_mut().unwrap();
    let mut second = replay[8].clone();
    second["payload"]["pointer"]["location"] = json!("E");
    replay.insert(9, second);
    expect_jcz_error(&v, &["replay message 9 (PLACE_TOKEN)", "second castle"]);
}

/// JCloisterZone's other assertion forms: `phase is TilePhase` holds for a save that ends
/// between turns, `phase is GameOverPhase` fails there; `Player can't pass` is skipped, and
/// `--check` says so.
#[test]
fn phase_assertions_are_checked_and_pass_assertions_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let mut v = castle_game();
    v["test"]["assertions"] = json!([
        "Alice has 3 points",
        "phase is TilePhase",
        "Player can't pass"
    ]);
    let p = write_json(dir.path(), "phase.jcz", &v);
    let o = meeplab(&["replay", &p, "--check"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}\n{out}");
    assert!(err.contains("SKIP  Player can't pass"), "{err}");
    assert!(
        err.contains("all 2 assertion(s) checked hold; 1 skipped"),
        "{err}"
    );
    v["test"]["assertions"] = json!(["phase is GameOverPhase"]);
    let p = write_json(dir.path(), "over.jcz", &v);
    let o = meeplab(&["replay", &p, "--check"]);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("FAIL  phase is GameOverPhase  (the replay ends in TilePhase)"),
        "{err}"
    );
}
