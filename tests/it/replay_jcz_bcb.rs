//! `meeplab replay` on JCloisterZone saves with Bridges, Castles & Bazaars beyond its castles:
//! hand-written saves in `tests/jcz/bcb_*.jcz` (JCloisterZone's layout and messages, see
//! `src/import/bcb/`) pass `--check` with the scores they assert; a bridge the rules do not
//! offer, an unknown `BB/` tile, a bid that does not top the last one and an auction whose
//! tiles are not JCloisterZone's draws are errors naming the replay message.

use crate::cli_support;

use cli_support::{
    assert_jcz_check_passes, expect_jcz_error, jcz_fixture, meeplab, text, write_json,
};
use serde_json::{json, Value};

const FIXTURES: &[&str] = &[
    // a bridge built on the tile placed (PLACE_TOKEN BRIDGE), a follower on it: 3 points
    "bcb_bridge_placed",
    // a placement that fits only with a bridge (implied by PLACE_TILE): 4 points
    "bcb_bridge_needed",
    // an auction: a buy (Bob -4, Carol +4), a sale (Alice -3, Carol +3), a free last tile
    "bcb_bazaar_auction",
    // the `bazaar-no-auction` rule
    "bcb_bazaar_no_auction",
    // `bridges-castles-and-bazaars:2` with its BB/CFR!G
    "bcb_set2_garden",
];

#[test]
fn every_bcb_fixture_passes_check() {
    for f in FIXTURES {
        assert_jcz_check_passes(f);
    }
}

#[test]
fn the_auction_moves_points_and_tiles_as_jcloisterzone_does() {
    let o = meeplab(&[
        "replay",
        "tests/jcz/bcb_bazaar_auction.jcz",
        "--json",
        "--check",
    ]);
    assert!(o.status.success(), "{}", text(&o).1);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let totals: Vec<i64> = (0..3)
        .map(|p| v["players"][p]["total"].as_i64().unwrap())
        .collect();
    assert_eq!(totals, [-3, -4, 7], "{v}");
    assert_eq!(v["replay"]["finished"], true);
    let (out, _) = text(&meeplab(&["replay", "tests/jcz/bcb_bazaar_auction.jcz"]));
    assert!(out.contains("bazaar of Red: 3 tiles turned up"), "{out}");
    assert!(out.contains("Blue buys BA/L, paying 4 to Yellow"), "{out}");
    assert!(
        out.contains("Red buys BA/LR from Yellow, paying 3"),
        "{out}"
    );
    assert!(out.contains("Yellow takes BA/RFr for nothing"), "{out}");
}

#[test]
fn the_mapped_ruleset_has_the_tiles_bridges_and_bazaars() {
    let o = meeplab(&[
        "replay",
        "tests/jcz/bcb_bazaar_auction.jcz",
        "--json",
        "--check",
    ]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let s = v.to_string();
    assert!(s.contains("bridges-castles-and-bazaars:1"), "{s}");
    assert!(s.contains("bazaars"), "{s}");
}

#[test]
fn a_bridge_the_rules_do_not_offer_names_its_message() {
    // north-south: its north end faces the start tile's field edge (JCloisterZone and the
    // engine offer only west-east there)
    let mut v = jcz_fixture("bcb_bridge_placed");
    v["replay"][1]["payload"]["pointer"]["location"] = json!("NS");
    v["replay"][2]["payload"]["pointer"]["location"] = json!("NS");
    expect_jcz_error(
        &v,
        &[
            "replay message 1",
            "no bridge can be built north–south (NS) on (0,1)",
            "(0,1) west–east (WE)",
        ],
    );
    // a bridge after the follower
    let mut v = jcz_fixture("bcb_bridge_placed");
    v["replay"].as_array_mut().unwrap().swap(1, 2);
    expect_jcz_error(
        &v,
        &["replay message 2 (PLACE_TOKEN)", "after the follower"],
    );
    // a bridge without the element
    let mut v = jcz_fixture("bcb_bridge_placed");
    v["setup"]["elements"]
        .as_object_mut()
        .unwrap()
        .remove("bridge");
    expect_jcz_error(&v, &["replay message 1 (PLACE_TOKEN)", "no `bridge`"]);
    // the placement that needs a bridge, without bridges: illegal
    let mut v = jcz_fixture("bcb_bridge_needed");
    v["setup"]["elements"]
        .as_object_mut()
        .unwrap()
        .remove("bridge");
    expect_jcz_error(&v, &["replay message 0 (PLACE_TILE)", "illegal placement"]);
}

#[test]
fn an_unknown_bb_tile_is_a_clear_error() {
    let mut v = jcz_fixture("bcb_bazaar_auction");
    v["replay"][0]["payload"]["tileId"] = json!("BB/XYZ");
    expect_jcz_error(
        &v,
        &[
            "replay message 0 (PLACE_TILE)",
            "unknown tile id `BB/XYZ`",
            "not a tile of Bridges, Castles & Bazaars",
        ],
    );
}

#[test]
fn bids_follow_jcloisterzones_auction() {
    // Carol's bid does not top Bob's
    let mut v = jcz_fixture("bcb_bazaar_auction");
    v["replay"][3]["payload"]["price"] = json!(2);
    expect_jcz_error(&v, &["replay message 3 (BAZAAR_BID)", "does not top"]);
    // Alice bids out of turn (Carol is asked first)
    let mut v = jcz_fixture("bcb_bazaar_auction");
    v["replay"].as_array_mut().unwrap().swap(3, 4);
    expect_jcz_error(&v, &["replay message 3", "wrong player"]);
    // a buy-or-sell where the selector was not outbid
    let mut v = jcz_fixture("bcb_bazaar_no_auction");
    v["replay"].as_array_mut().unwrap().insert(
        4,
        json!({"type": "BAZAAR_BUY_OR_SELL", "payload": {"value": "BUY"}, "player": 1}),
    );
    expect_jcz_error(&v, &["replay message 4 (BAZAAR_BUY_OR_SELL)"]);
}

#[test]
fn the_auction_tiles_are_jcloisterzones_draws() {
    // the draw order turns BA/LR up first, but the save plays BA/L from supply index 0
    let mut v = jcz_fixture("bcb_bazaar_auction");
    v["gameAnnotations"]["drawOrder"] = json!(["BB/F.b", "BA/LR", "BA/L", "BA/RFr", "#END"]);
    expect_jcz_error(
        &v,
        &[
            "replay message 0 (PLACE_TILE)",
            "turns up BA/LR as the auction's tile 0",
        ],
    );
}

#[test]
fn without_bidding_no_bids_are_taken() {
    let mut v = jcz_fixture("bcb_bazaar_no_auction");
    v["setup"]["rules"] = json!({});
    // with bidding the chooser's opening bid is there but Alice's pass is missing
    let dir = tempfile::tempdir().unwrap();
    let p = write_json(dir.path(), "bids.jcz", &v);
    let o = meeplab(&["replay", &p, "--check"]);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("bid"), "{err}");
}
