//! `meeplab replay` on JCloisterZone saves with The River: a hand-written save in
//! `tests/jcz/river_road.jcz` (JCloisterZone's layout and messages, see `src/import/river/`;
//! no JCloisterZone save with a river is available to copy) passes `--check` with the score
//! it asserts; the 2nd edition's garden tile reads as its plain twin; an unknown river tile
//! id, a river tile placed where the river does not lead (its edges not matching, or matching
//! but away from the river), and a river save whose draws are not all forced are errors.

use crate::cli_support;

use cli_support::{
    assert_jcz_check_passes, expect_jcz_error, jcz_fixture, meeplab, text, write_json,
};
use serde_json::Value;

/// Every `RI.1/II` of the save (draws and placements) renamed `to`.
fn rename_bend(v: &mut Value, to: &str) {
    for d in v["gameAnnotations"]["drawOrder"].as_array_mut().unwrap() {
        if d == "RI.1/II" {
            *d = Value::from(to);
        }
    }
    for m in v["replay"].as_array_mut().unwrap() {
        if m["payload"]["tileId"] == "RI.1/II" {
            m["payload"]["tileId"] = Value::from(to);
        }
    }
}

#[test]
fn the_river_fixture_passes_check() {
    assert_jcz_check_passes("river_road");
}

#[test]
fn the_second_editions_garden_bend_plays_as_the_plain_one() {
    let mut v = jcz_fixture("river_road");
    v["setup"]["sets"] = serde_json::json!({"basic:2": 1, "river/1": 1});
    v["setup"]["elements"]["garden"] = Value::from(1);
    rename_bend(&mut v, "RI.1/IIG");
    let dir = tempfile::tempdir().unwrap();
    let p = write_json(dir.path(), "garden.jcz", &v);
    let o = meeplab(&["replay", &p, "--check"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}\n{out}");
    assert!(
        out.contains("river/1:2"),
        "the garden element picks the 2nd edition: {out}"
    );
}

#[test]
fn an_unknown_river_tile_is_named() {
    let mut v = jcz_fixture("river_road");
    rename_bend(&mut v, "RI.3/II");
    expect_jcz_error(&v, &["unknown river tile id `RI.3/II`", "RI.2/III"]);
}

#[test]
fn a_river_tile_away_from_the_river_is_refused() {
    let mut v = jcz_fixture("river_road");
    // the first river tile put south of the spring, its river not meeting the spring's
    v["replay"][0]["payload"]["position"] = serde_json::json!([0, 1]);
    v["replay"][1]["payload"]["pointer"]["position"] = serde_json::json!([0, 1]);
    let dir = tempfile::tempdir().unwrap();
    let p = write_json(dir.path(), "away.jcz", &v);
    let o = meeplab(&["replay", &p, "--check"]);
    assert!(!o.status.success(), "{}", text(&o).1);
}

#[test]
fn a_river_save_needs_every_draw_forced() {
    let mut v = jcz_fixture("river_road");
    v["gameAnnotations"]["drawOrder"]
        .as_array_mut()
        .unwrap()
        .pop();
    expect_jcz_error(&v, &["river draw groups", "#END"]);
}

#[test]
fn a_river_tile_whose_edges_fit_but_not_the_river_is_refused() {
    let mut v = jcz_fixture("river_road");
    // west of the spring: the edges match (a river edge meets a field edge as a field), but
    // the river does not flow there; the replay asks the engine's placements, river included
    v["replay"][0]["payload"]["position"] = serde_json::json!([-1, 0]);
    v["replay"][1]["payload"]["pointer"]["position"] = serde_json::json!([-1, 0]);
    expect_jcz_error(
        &v,
        &[
            "replay message 0 (PLACE_TILE)",
            "illegal placement of RI.1/CIRI at (-1,0)",
            "the placement rules of the ruleset's expansions forbid it there",
        ],
    );
}
