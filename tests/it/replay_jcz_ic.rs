//! `meeplab replay` on JCloisterZone saves with Inns & Cathedrals: JCloisterZone's own engine
//! tests `engine-tests/inns-and-cathedrals/{inns-scoring,cathedrals-scoring,
//! cathedrals-scoring-2}.jcz` (farin/JCloisterZone-Client), copied as
//! `tests/jcz/jcz_ic_*.jcz`, pass `--check` with the scores they assert (a road with an inn,
//! 6; a city with a cathedral, 15 and 36); a big follower (`P.big.1`) replays as the large
//! follower; an unknown `IC/` tile and Inns & Cathedrals in part are errors.

use crate::cli_support;

use cli_support::{assert_jcz_check_passes, jcz_fixture, meeplab, text, write_json};
use serde_json::Value;

const FIXTURES: &[&str] = &[
    // Alice's road with an inn (IC/RRR.i east to the start tile) completes: 3 tiles, 6
    "jcz_ic_inns_scoring",
    // Alice's city with a cathedral completes: 5 tiles, 15; Bob's unfinished one scores 0
    "jcz_ic_cathedrals_scoring",
    // a larger cathedral city with pennants: 36
    "jcz_ic_cathedrals_scoring_2",
];

#[test]
fn every_inns_and_cathedrals_engine_test_passes_check() {
    for f in FIXTURES {
        assert_jcz_check_passes(f);
    }
}

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
    let mut v = jcz_fixture("jcz_ic_inns_scoring");
    let first = v["replay"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|m| m["type"] == "DEPLOY_MEEPLE")
        .unwrap();
    first["payload"]["meepleId"] = "0.big.1".into();
    let (code, out, err) = replay(&v);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("puts a large follower on the road"), "{out}");
    let all = format!("{out}{err}");
    assert!(all.contains("all 4 assertion(s) hold"), "{all}");
}

#[test]
fn an_unknown_tile_and_inns_and_cathedrals_in_part_are_errors() {
    let mut v = jcz_fixture("jcz_ic_inns_scoring");
    v["replay"][0]["payload"]["tileId"] = "IC/Nope".into();
    let (code, _, err) = replay(&v);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("unknown tile id `IC/Nope`"), "{err}");
    assert!(!err.contains("panicked"), "{err}");

    let mut v = jcz_fixture("jcz_ic_inns_scoring");
    v["setup"]["elements"]
        .as_object_mut()
        .unwrap()
        .remove("big-follower");
    let (code, _, err) = replay(&v);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("Inns & Cathedrals in part"), "{err}");
}
