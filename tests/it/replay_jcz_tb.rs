//! `meeplab replay` on JCloisterZone saves with Traders & Builders: a game JCloisterZone's
//! engine played (`tests/jcz/generated/traders/`, our own harness data; every such save is
//! replayed by `jcz_generated.rs`) hands out goods and scores the majorities to its totals;
//! an unknown `TB/` tile, or a `TB/` tile without the set, is an error naming the replay
//! message. The rules themselves (goods to the completing player, ties, the pig's +1 a city,
//! pigs that do not stack) are scenario tests in `scenarios_traders.rs`.

use crate::cli_support;

use cli_support::{expect_jcz_error, jcz_fixture, meeplab, text};
use serde_json::Value;

const GAME: &str = "generated/traders/traders-uniform-20015";

/// The index of the first `PLACE_TILE` of a Traders & Builders tile in `v`.
fn first_tb_tile(v: &Value) -> usize {
    v["replay"]
        .as_array()
        .unwrap()
        .iter()
        .position(|m| {
            m["type"] == "PLACE_TILE"
                && m["payload"]["tileId"]
                    .as_str()
                    .is_some_and(|t| t.starts_with("TB/"))
        })
        .unwrap()
}

#[test]
fn the_goods_are_handed_out_and_the_majorities_scored() {
    let path = format!("tests/jcz/{GAME}.jcz");
    let o = meeplab(&["replay", &path, "--json", "--check"]);
    assert!(o.status.success(), "{}", text(&o).1);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    // Red took the game's only goods (1 wine): the wine majority, 10
    let goods: Vec<i64> = (0..2)
        .map(|p| v["players"][p]["by_category"]["goods"].as_i64().unwrap())
        .collect();
    assert_eq!(goods, [10, 0], "{v}");
    let (out, _) = text(&meeplab(&["replay", &path]));
    assert!(out.contains("Red takes 1 wine"), "{out}");
}

#[test]
fn unknown_traders_tiles_are_errors() {
    // a TB/ id that is no tile of the set
    let mut v = jcz_fixture(GAME);
    let i = first_tb_tile(&v);
    let id = v["replay"][i]["payload"]["tileId"]
        .as_str()
        .unwrap()
        .to_string();
    v["replay"][i]["payload"]["tileId"] = "TB/CCc.x".into();
    let at = format!("replay message {i}");
    expect_jcz_error(&v, &[&at, "unknown tile id `TB/CCc.x`", "TB/RRrr"]);
    // a TB/ tile without the set
    let mut v = jcz_fixture(GAME);
    v["setup"]["sets"] = serde_json::json!({"basic:1": 1});
    let named = format!("`{id}` is a tile of Traders & Builders");
    expect_jcz_error(&v, &[&named, "no traders-and-builders"]);
}
