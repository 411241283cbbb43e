//! `meeplab replay` on JCloisterZone saves with Traders & Builders: JCloisterZone's own engine
//! tests `engine-tests/traders-and-builders/*.jcz` (farin/JCloisterZone-Client), copied as
//! `tests/jcz/jcz_tb_*.jcz`, pass `--check` with the scores they assert (goods to the
//! completing player, majorities with ties, the pig's +1 a city, pigs that do not stack); an
//! unknown `TB/` tile, or a `TB/` tile without the set, is an error naming the replay message.

use crate::cli_support;

use cli_support::{assert_jcz_check_passes, expect_jcz_error, jcz_fixture, meeplab, text};
use serde_json::Value;

const FIXTURES: &[&str] = &[
    // TB/CCc.w completed by Oskar's cap, Carol's knight: city 6 to Carol, wine 10 to Oskar
    "jcz_tb_wine_scoring",
    // grain to the completing player, nobody in the city: Alice 10, Bob 0
    "jcz_tb_grain_scoring",
    // one cloth each: the tie scores 10 to each
    "jcz_tb_cloth_scoring_tie",
    // Alice's farmer and pig, Bob's farmer, two cities: Alice 8, Bob 6
    "jcz_tb_pig_scoring",
    // two pigs of one player in one field (JCloisterZone's `pig: 2`) count once: 4
    "jcz_tb_pigs_no_stack",
];

#[test]
fn every_traders_fixture_passes_check() {
    for f in FIXTURES {
        assert_jcz_check_passes(f);
    }
}

#[test]
fn the_goods_go_to_the_completing_player() {
    let o = meeplab(&[
        "replay",
        "tests/jcz/jcz_tb_wine_scoring.jcz",
        "--json",
        "--check",
    ]);
    assert!(o.status.success(), "{}", text(&o).1);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let totals: Vec<i64> = (0..2)
        .map(|p| v["players"][p]["total"].as_i64().unwrap())
        .collect();
    assert_eq!(totals, [6, 10], "{v}");
    let (out, _) = text(&meeplab(&["replay", "tests/jcz/jcz_tb_wine_scoring.jcz"]));
    assert!(out.contains("takes 1 wine"), "{out}");
}

#[test]
fn unknown_traders_tiles_are_errors() {
    // a TB/ id that is no tile of the set
    let mut v = jcz_fixture("jcz_tb_wine_scoring");
    v["replay"][0]["payload"]["tileId"] = "TB/CCc.x".into();
    expect_jcz_error(
        &v,
        &["replay message 0", "unknown tile id `TB/CCc.x`", "TB/RRrr"],
    );
    // a TB/ tile without the set
    let mut v = jcz_fixture("jcz_tb_wine_scoring");
    v["setup"]["sets"] = serde_json::json!({"basic:1": 1});
    expect_jcz_error(
        &v,
        &[
            "`TB/CCc.w` is a tile of Traders & Builders",
            "no traders-and-builders",
        ],
    );
}
