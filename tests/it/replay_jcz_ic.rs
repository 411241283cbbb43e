//! `meeplab replay` on JCloisterZone saves with Inns & Cathedrals: a game JCloisterZone's
//! engine played (`tests/jcz/generated/inns/`, our own harness data; every such save is
//! replayed by `jcz_generated.rs`) replays its big followers (`P.big.1`) as the large
//! follower, to JCloisterZone's totals; an unknown `IC/` tile and Inns & Cathedrals in part
//! are errors. The rules (a road with an inn, a city with a cathedral, unfinished ones worth
//! nothing) are scenario tests in `scenarios_inns.rs`.

use crate::cli_support;

use cli_support::{jcz_fixture, meeplab, text, write_json};
use serde_json::Value;

const GAME: &str = "generated/inns/inns-eager-20301";

/// `meeplab replay --check` on `v`: its exit code and its output.
fn replay(v: &Value) -> (Option<i32>, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let p = write_json(dir.path(), "ic.jcz", v);
    let o = meeplab(&["replay", &p, "--check"]);
    let (out, err) = text(&o);
    (o.status.code(), out, err)
}

#[test]
fn a_big_follower_replays_as_the_large_follower() {
    let v = jcz_fixture(GAME);
    let bigs = v["replay"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| {
            m["type"] == "DEPLOY_MEEPLE"
                && m["payload"]["meepleId"]
                    .as_str()
                    .is_some_and(|id| id.contains(".big."))
        })
        .count();
    assert!(bigs > 0);
    let (code, out, err) = replay(&v);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.matches("puts a large follower").count(), bigs, "{out}");
    assert!(err.contains("assertion(s) hold"), "{err}");
}

#[test]
fn an_unknown_tile_and_inns_and_cathedrals_in_part_are_errors() {
    let mut v = jcz_fixture(GAME);
    let i = v["replay"]
        .as_array()
        .unwrap()
        .iter()
        .position(|m| {
            m["type"] == "PLACE_TILE"
                && m["payload"]["tileId"]
                    .as_str()
                    .is_some_and(|t| t.starts_with("IC/"))
        })
        .unwrap();
    v["replay"][i]["payload"]["tileId"] = "IC/Nope".into();
    let (code, _, err) = replay(&v);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("unknown tile id `IC/Nope`"), "{err}");
    assert!(!err.contains("panicked"), "{err}");

    let mut v = jcz_fixture(GAME);
    v["setup"]["elements"]
        .as_object_mut()
        .unwrap()
        .remove("big-follower");
    let (code, _, err) = replay(&v);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("Inns & Cathedrals in part"), "{err}");
}
