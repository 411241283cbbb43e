//! `meeplab replay` on JCloisterZone saves with The River and The River II, from a save the
//! JCloisterZone harness wrote (`tests/jcz/generated/river/`; `jcz_generated` replays every
//! generated save, `river`, `river2`, `bigbox` and `bigbox2` included): the 2nd edition's
//! garden tile reads as its plain twin; an unknown river tile id, a river tile placed where
//! the river does not lead, and river tiles without the `river` element are errors.

use crate::cli_support;

use cli_support::{expect_jcz_error, meeplab, root, text, write_json};
use serde_json::Value;

/// A River I save without discards (84 tiles placed, the spring included).
const RIVER_SAVE: &str = "tests/jcz/generated/river/river-uniform-07014.jcz";

fn river_save() -> Value {
    let text = std::fs::read_to_string(root().join(RIVER_SAVE)).expect("the river save");
    serde_json::from_str(&text).expect("JSON")
}

/// Every `from` placed in the save renamed `to`, at most `n` of them.
fn rename_tile(v: &mut Value, from: &str, to: &str, n: usize) {
    let mut left = n;
    for m in v["replay"].as_array_mut().unwrap() {
        if left > 0 && m["payload"]["tileId"] == from {
            m["payload"]["tileId"] = Value::from(to);
            left -= 1;
        }
    }
}

/// Force the save's draws: `gameAnnotations.drawOrder` lists the placed tiles, then `#END`.
fn force_draws(v: &mut Value) {
    let mut order: Vec<Value> = v["replay"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["type"] == "PLACE_TILE")
        .map(|m| m["payload"]["tileId"].clone())
        .collect();
    order.push(Value::from("#END"));
    v["gameAnnotations"] = serde_json::json!({ "drawOrder": order });
}

#[test]
fn the_second_editions_garden_bend_plays_as_the_plain_one() {
    let mut v = river_save();
    v["setup"]["sets"] = serde_json::json!({"basic:1": 1, "river/1": 1});
    v["setup"]["elements"]["garden"] = Value::from(1);
    rename_tile(&mut v, "RI.1/II", "RI.1/IIG", 1);
    force_draws(&mut v);
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
    let mut v = river_save();
    rename_tile(&mut v, "RI.1/II", "RI.3/II", 2);
    expect_jcz_error(&v, &["unknown river tile id `RI.3/II`", "RI.2/III"]);
}

#[test]
fn river_tiles_need_the_river_element() {
    let mut v = river_save();
    v["setup"]["elements"]
        .as_object_mut()
        .unwrap()
        .remove("river");
    expect_jcz_error(&v, &["without the `river` element are not supported"]);
}

#[test]
fn a_river_tile_whose_edges_fit_but_not_the_river_is_refused() {
    let mut v = river_save();
    // west of the spring: the edges match (a river edge meets a field edge as a field), but
    // the river does not flow there; the replay asks the engine's placements, river included
    assert_eq!(v["replay"][0]["payload"]["tileId"], "RI.1/CIRI");
    // the first turn only (later tiles stand west of the spring)
    v["replay"].as_array_mut().unwrap().truncate(3);
    v["replay"][0]["payload"]["position"] = serde_json::json!([-1, 0]);
    v["replay"][1]["payload"]["pointer"]["position"] = serde_json::json!([-1, 0]);
    expect_jcz_error(
        &v,
        &[
            "replay message 0 (PLACE_TILE)",
            "illegal placement of RI.1/CIRI at (-1,0)",
        ],
    );
}
