//! Base-game scenarios with exact scores (rules.md §1): cities of 2/3/4 tiles with and
//! without pennants, complete and at the end; the pre-2002 small city; roads ending at
//! junctions and road loops; cloisters; ties and majorities; a tile touching one city twice;
//! the three farm rules; followers coming home and being redeployed; placement legality.
//!
//! Board: the start tile BA/RCr is at (0,0) rot 0 (city cap N, road W–E, field S of the
//! road). y grows southward; rotations are clockwise quarter turns.

use crate::scenario_support;

use meeplab::engine::{Category, Choice, DecisionKind, Event, FollowerKind, Phase};
use scenario_support::*;

const CITY: Category = Category::CITY;
const ROAD: Category = Category::ROAD;

// Segment indices (order of features in the tile block):
// BA/C: city 0, field 1. BA/CFc*: city 0, field N 1, field S 2. BA/Cc*: city 0, field 1.
// BA/RFr: road 0, field N 1, field S 2. BA/RRR: road E 0, road S 1, road W 2, fields 3-5.
// BA/L: cloister 0, field 1. BA/CC.2: city N 0, city W 1, field 2.

/// A completed 2-tile city scores 4 (2 per tile); the knight placed on the completing tile
/// scores and comes home in the same turn (rules.md §1.2, S9/S10).
#[test]
fn two_tile_city_scores_4_and_knight_returns_same_turn() {
    let rules = load("base");
    let mut s = Scen::new(&rules, 2);
    let ev = s.play(0, "BA/C", (0, -1, 2), Some(0));
    assert_eq!(scored(&ev), vec![(Phase::Turn, CITY, 0b01, 4, 2)]);
    assert_eq!(s.scores(), vec![4, 0]);
    assert_eq!(s.cat(0, CITY), 4);
    // placed, scored, returned — all this turn
    let k = kinds(&ev);
    let placed = k.iter().position(|&e| e == "follower_placed").unwrap();
    let sc = k.iter().position(|&e| e == "scored").unwrap();
    let back = k.iter().position(|&e| e == "follower_returned").unwrap();
    assert!(placed < sc && sc < back, "{k:?}");
    assert_eq!(s.game.supply(0), 7);
    assert!(s.game.followers().is_empty());
}

/// 3-tile city: 6 without a pennant, 8 with one (2 per tile + 2 per pennant).
#[test]
fn three_tile_city_with_and_without_pennant() {
    for (corner, points) in [("BA/Cc.1", 6), ("BA/Cc+", 8)] {
        let rules = load("base");
        let mut s = Scen::new(&rules, 2);
        // corner city W+S above the start, knight on it
        s.play(0, corner, (0, -1, 3), Some(0));
        assert_eq!(s.scores(), vec![0, 0]);
        // cap facing E closes it
        let ev = s.play(1, "BA/C", (-1, -1, 1), None);
        assert_eq!(scored(&ev), vec![(Phase::Turn, CITY, 0b01, points, 3)]);
        assert_eq!(s.scores(), vec![points, 0], "{corner}");
    }
}

/// 4-tile city with 0, 1 and 2 pennants: 8, 10, 12.
#[test]
fn four_tile_city_pennants() {
    for (corner, straight, points) in [
        ("BA/Cc.1", "BA/CFc.1", 8),
        ("BA/Cc+", "BA/CFc.1", 10),
        ("BA/Cc+", "BA/CFc+", 12),
    ] {
        let rules = load("base");
        let mut s = Scen::new(&rules, 2);
        s.play(0, corner, (0, -1, 3), Some(0)); // W+S
        s.play(1, straight, (-1, -1, 0), None); // W–E
        let ev = s.play(1, "BA/C", (-2, -1, 1), None); // cap facing E
        assert_eq!(scored(&ev), vec![(Phase::Turn, CITY, 0b01, points, 4)]);
        assert_eq!(s.scores(), vec![points, 0], "{corner} {straight}");
    }
}

/// Incomplete cities at the end: 1 per tile + 1 per pennant.
#[test]
fn incomplete_cities_at_the_end() {
    // (tiles above the start, from (0,-1) northward, all N–S straight city pieces)
    for (pieces, points) in [
        (&["BA/CFc.1"][..], 2),
        (&["BA/CFc+"][..], 3),
        (&["BA/CFc+", "BA/CFc.1"][..], 4),
        (&["BA/CFc+", "BA/CFc.1", "BA/CFc+"][..], 6),
    ] {
        let rules = load("base");
        let mut s = Scen::new(&rules, 2);
        for (i, id) in pieces.iter().enumerate() {
            let knight = (i == 0).then_some(0);
            s.play(0, id, (0, -1 - i as i32, 1), knight);
        }
        assert_eq!(s.scores(), vec![0, 0]);
        let ev = s.finish(&[]);
        let tiles = pieces.len() as u32 + 1;
        assert_eq!(scored(&ev), vec![(Phase::Final, CITY, 0b01, points, tiles)]);
        assert_eq!(s.scores(), vec![points, 0], "{pieces:?}");
    }
}

/// base-2000.rules: a completed 2-tile city scores 2 (1 per tile), a larger one as usual;
/// the final-scoring formula is unchanged.
#[test]
fn small_city_under_base_2000() {
    let rules = load("base-2000");
    let mut s = Scen::new(&rules, 2);
    let ev = s.play(0, "BA/C", (0, -1, 2), Some(0));
    assert_eq!(scored(&ev), vec![(Phase::Turn, CITY, 0b01, 2, 2)]);
    assert_eq!(s.scores(), vec![2, 0]);

    // 3 tiles with a pennant: the normal 2 per tile + 2 per pennant
    let mut s = Scen::new(&rules, 2);
    s.play(0, "BA/Cc+", (0, -1, 3), Some(0));
    let ev = s.play(1, "BA/C", (-1, -1, 1), None);
    assert_eq!(scored(&ev), vec![(Phase::Turn, CITY, 0b01, 8, 3)]);

    // incomplete 2-tile city with a pennant at the end: 1 + 1 + 1
    let mut s = Scen::new(&rules, 2);
    s.play(0, "BA/CFc+", (0, -1, 1), Some(0));
    let ev = s.finish(&[]);
    assert_eq!(scored(&ev), vec![(Phase::Final, CITY, 0b01, 3, 2)]);

    // No base tile with a single city edge carries a pennant, so a completed 2-tile city
    // never has one; the formula still counts 1 per pennant (1 per tile and per pennant).
    let small = rules.rules.scoring.city_small_complete.as_ref().unwrap();
    let v = meeplab::ruleset::Vars {
        tiles: 2,
        pennants: 1,
        ..Default::default()
    };
    assert_eq!(small.eval(&v), 3);
}

/// A road ends at junctions: junction – start – junction is a complete 3-tile road; the
/// junctions' other stubs are separate roads.
#[test]
fn road_between_two_junctions() {
    let rules = load("base");
    let mut s = Scen::new(&rules, 2);
    s.play(0, "BA/RRR", (1, 0, 0), Some(2)); // thief on its W stub, joined to the start road
    assert_eq!(s.scores(), vec![0, 0]);
    let ev = s.play(1, "BA/RRR", (-1, 0, 0), None);
    assert_eq!(scored(&ev), vec![(Phase::Turn, ROAD, 0b01, 3, 3)]);
    assert_eq!(s.scores(), vec![3, 0]);
    // a thief may then go on the second junction's W stub: a separate, free road
    let ev = s.finish(&[]);
    assert!(scored(&ev).is_empty());
}

/// A road that closes on itself is complete: 4 curves = 4 points, scored when the loop closes.
#[test]
fn road_loop() {
    let rules = load("base");
    let mut s = Scen::new(&rules, 2);
    s.play(1, "BA/Rr", (0, 1, 3), Some(0)); // E–S
    s.play(0, "BA/Rr", (1, 1, 0), None); // W–S
    s.play(0, "BA/Rr", (1, 2, 1), None); // N–W
    assert_eq!(s.scores(), vec![0, 0]);
    let ev = s.play(0, "BA/Rr", (0, 2, 2), None); // N–E closes it
    assert_eq!(scored(&ev), vec![(Phase::Turn, ROAD, 0b10, 4, 4)]);
    assert_eq!(s.scores(), vec![0, 4]);
}

/// A cloister surrounded by 8 tiles scores 9 when the 8th arrives.
#[test]
fn cloister_surrounded_scores_9() {
    let rules = load("base");
    let mut s = Scen::new(&rules, 2);
    s.play(0, "BA/L", (0, 1, 0), Some(0)); // monk
    s.play(1, "BA/RFr", (-1, 0, 0), None);
    s.play(1, "BA/RFr", (1, 0, 0), None);
    for (x, y) in [(-1, 1), (1, 1), (-1, 2), (0, 2)] {
        let ev = s.play(1, "BA/L", (x, y, 0), None);
        assert!(scored(&ev).is_empty());
    }
    let ev = s.play(1, "BA/L", (1, 2, 0), None);
    assert_eq!(
        scored(&ev),
        vec![(Phase::Turn, Category::CLOISTER, 0b01, 9, 9)]
    );
    assert_eq!(s.scores(), vec![9, 0]);
    assert_eq!(s.game.supply(0), 7);
}

/// An unfinished cloister scores 1 + its neighbours at the end.
#[test]
fn cloister_at_the_end_scores_1_plus_neighbours() {
    let rules = load("base");
    let mut s = Scen::new(&rules, 2);
    s.play(0, "BA/L", (0, 1, 0), Some(0)); // neighbours: the start
    s.play(1, "BA/L", (1, 1, 0), None); // + one
    s.play(1, "BA/RFr", (1, 0, 0), None); // + a diagonal one
    let ev = s.finish(&[]);
    assert_eq!(
        scored(&ev),
        vec![(Phase::Final, Category::CLOISTER, 0b01, 4, 4)]
    );
    assert_eq!(s.scores(), vec![4, 0]);
}

/// A 5-tile city joined from three separately occupied parts by a 3-sided city tile:
/// start + (0,-1) [P0 knight], cap (-1,-2), cap (1,-2) [P1 knight], joined at (0,-2).
fn three_part_city(west_knight: Option<u8>) -> (Scen, Vec<Event>) {
    let rules = load("base");
    let mut s = Scen::new(&rules, 2);
    s.play(0, "BA/CFc.1", (0, -1, 1), Some(0)); // city N–S, P0 knight
    s.play(1, "BA/L", (-1, -1, 0), None);
    s.play(1, "BA/L", (1, -1, 0), None);
    let who = west_knight.unwrap_or(0);
    s.play(who, "BA/C", (-1, -2, 1), west_knight.map(|_| 0)); // cap facing E
    s.play(1, "BA/C", (1, -2, 3), Some(0)); // cap facing W, P1 knight
    assert_eq!(s.scores(), vec![0, 0]);
    let ev = s.play(1, "BA/Ccc", (0, -2, 2), None); // city E+S+W joins all three
    (s, ev)
}

/// Tied majority: both players score the full points.
#[test]
fn tie_both_score_full() {
    let (s, ev) = three_part_city(None);
    assert_eq!(scored(&ev), vec![(Phase::Turn, CITY, 0b11, 10, 5)]);
    assert_eq!(s.scores(), vec![10, 10]);
    assert_eq!(s.game.supply(0), 7);
    assert_eq!(s.game.supply(1), 7);
}

/// 2 followers against 1: only the majority scores; every follower comes home.
#[test]
fn majority_two_against_one() {
    let (s, ev) = three_part_city(Some(0));
    assert_eq!(scored(&ev), vec![(Phase::Turn, CITY, 0b01, 10, 5)]);
    assert_eq!(s.scores(), vec![10, 0]);
    assert_eq!(
        kinds(&ev)
            .iter()
            .filter(|&&k| k == "follower_returned")
            .count(),
        3
    );
    // …and with the majority the other way round
    let rules = load("base");
    let mut s = Scen::new(&rules, 2);
    s.play(0, "BA/CFc.1", (0, -1, 1), Some(0));
    s.play(1, "BA/L", (-1, -1, 0), None);
    s.play(1, "BA/L", (1, -1, 0), None);
    s.play(1, "BA/C", (-1, -2, 1), Some(0));
    s.play(1, "BA/C", (1, -2, 3), Some(0));
    let ev = s.play(0, "BA/Ccc", (0, -2, 2), None);
    assert_eq!(scored(&ev), vec![(Phase::Turn, CITY, 0b10, 10, 5)]);
    assert_eq!(s.scores(), vec![0, 10]);
}

/// A tile with two caps of the same city counts once (HiG rules example, rules.md §1.3):
/// BA/CC.2 (caps S and E) below the start, closed by three corners around its SE corner:
/// 4 distinct tiles → 8 points, not 10.
#[test]
fn tile_touching_one_city_twice_counts_once() {
    let rules = load("base");
    let mut s = Scen::new(&rules, 2);
    s.play(0, "BA/CC.2", (0, 1, 2), Some(0)); // caps S (seg 0) and E (seg 1)
    s.play(1, "BA/Cc.1", (1, 1, 3), None); // W+S
    s.play(1, "BA/Cc.1", (1, 2, 0), None); // N+W
    let ev = s.play(1, "BA/Cc.1", (0, 2, 1), None); // N+E closes the ring
    assert_eq!(scored(&ev), vec![(Phase::Turn, CITY, 0b01, 8, 4)]);
    assert_eq!(s.scores(), vec![8, 0]);
}

/// P0 has farmers in two separate fields, both touching the same completed 2-tile city:
/// per_field (3rd rule) pays 3 per field = 6; once_per_player (2nd rule) pays the city once
/// = 3; city_centric (1st rule, base-2000) pays 4 to the majority around the city.
#[test]
fn three_farm_rules_three_results() {
    let play = |rules| {
        let mut s = Scen::new(&rules, 2);
        // closes the start's city (nobody's), farmer in the cap's field (touches the city)
        s.play(0, "BA/C", (0, -1, 2), Some(1));
        // farmer in the start's strip between city and road (touches the city)
        s.play(0, "BA/RFr", (1, 0, 0), Some(1));
        let ev = s.finish(&[]);
        (s.scores(), s.cat(0, Category::FIELD), scored(&ev))
    };
    let once = load_str(
        "farmers-once",
        "ruleset \"once\"\nextends \"rulesets/base.rules\"\nfarms = once_per_player\n",
    );
    let (sc, field, ev) = play(load("base"));
    assert_eq!((sc, field), (vec![6, 0], 6));
    assert_eq!(
        ev,
        vec![
            (Phase::Final, Category::FIELD, 0b01, 3, 1),
            (Phase::Final, Category::FIELD, 0b01, 3, 1)
        ]
    );
    let (sc, field, _) = play(once);
    assert_eq!((sc, field), (vec![3, 0], 3));
    let (sc, field, ev) = play(load("base-2000"));
    assert_eq!((sc, field), (vec![4, 0], 4));
    assert_eq!(ev, vec![(Phase::Final, Category::FIELD, 0b01, 4, 1)]);
}

/// With an empty supply, a follower freed by this turn's scoring cannot be used on the same
/// tile (S61); it is back for the next turn.
#[test]
fn follower_returned_then_redeployed_next_turn() {
    let rules = load("base");
    let mut s = Scen::new(&rules, 2);
    s.play(0, "BA/CFc.1", (0, -1, 1), Some(0)); // knight, city open to the north
    for y in 1..=6 {
        s.play(0, "BA/L", (0, y, 0), Some(0)); // six monks
    }
    assert_eq!(s.game.supply(0), 0);
    let ev = s.play(0, "BA/C", (0, -2, 2), None); // completes the 3-tile city
    assert_eq!(scored(&ev), vec![(Phase::Turn, CITY, 0b01, 6, 3)]);
    let last = s
        .asked(DecisionKind::FOLLOWER)
        .last()
        .unwrap()
        .options
        .clone();
    assert_eq!(
        last,
        vec![Choice::Follower {
            segment: None,
            kind: FollowerKind::PLAIN
        }]
    );
    assert_eq!(s.game.supply(0), 1);
    let ev = s.play(0, "BA/L", (0, 7, 0), Some(0));
    assert!(kinds(&ev).contains(&"follower_placed"));
    assert_eq!(s.game.supply(0), 0);
    assert_eq!(s.scores(), vec![6, 0]);
}

/// Placement legality against hand-checked cases.
#[test]
fn placement_legality() {
    let rules = load("base");
    let s = Scen::new(&rules, 2);
    let g = &s.game;
    let t = |id| s.tile(id);
    // the start: city N, road E and W, field S
    assert!(g.placement_legal(t("BA/C"), 0, -1, 2)); // city faces the city
    assert!(!g.placement_legal(t("BA/C"), 0, -1, 0)); // field against city
    assert!(!g.placement_legal(t("BA/C"), 0, -1, 1));
    assert!(!g.placement_legal(t("BA/C"), 0, -1, 3));
    assert!(g.placement_legal(t("BA/RFr"), 1, 0, 0)); // road meets road
    assert!(g.placement_legal(t("BA/RFr"), 1, 0, 2)); // symmetric turn
    assert!(!g.placement_legal(t("BA/RFr"), 1, 0, 1)); // field against road
    assert!(g.placement_legal(t("BA/L"), 0, 1, 0)); // field meets field
    assert!(!g.placement_legal(t("BA/L"), 0, -1, 0));
    assert!(!g.placement_legal(t("BA/L"), 1, 0, 0));
    for rot in 0..4 {
        assert!(g.placement_legal(t("BA/Cccc+"), 0, -1, rot));
        assert!(!g.placement_legal(t("BA/Cccc+"), 1, 0, rot));
    }
    assert!(!g.placement_legal(t("BA/L"), 0, 0, 0)); // occupied
    assert!(!g.placement_legal(t("BA/L"), 2, 0, 0)); // touches nothing
    assert!(!g.placement_legal(t("BA/L"), 1, 1, 0)); // corner contact only
    assert!(!g.placement_legal(t("BA/RFr"), 1, -1, 0));

    // a cell with two neighbours: every touching edge must match
    let mut s = Scen::new(&rules, 2);
    s.play(0, "BA/RFr", (1, 0, 0), None); // N edge field
    s.play(0, "BA/C", (0, -1, 2), None); // E edge field
    let g = &s.game;
    let t = |id| s.tile(id);
    assert!(g.placement_legal(t("BA/C"), 1, -1, 0)); // S field, W field
    assert!(!g.placement_legal(t("BA/C"), 1, -1, 3)); // W city
    assert!(g.placement_legal(t("BA/Rr"), 1, -1, 2)); // road N–E, S and W field
    assert!(!g.placement_legal(t("BA/Rr"), 1, -1, 0)); // S road
    assert!(!g.placement_legal(t("BA/CRr"), 1, -1, 0)); // W fits, S (road) does not
    assert!(g.placement_legal(t("BA/L"), 1, -1, 0));

    // the offered placements are exactly the legal ones (distinct rotations)
    let mut s = Scen::new(&rules, 2);
    s.play(0, "BA/C", (0, -1, 2), None);
    let offered: Vec<Choice> = s.asked(DecisionKind::PLACEMENT)[0].options.clone();
    let tile = s.tile("BA/C");
    let fresh = Scen::new(&rules, 2);
    let mut legal = Vec::new();
    for y in -2..=2 {
        for x in -2..=2 {
            for rot in 0..4u8 {
                if fresh.game.placement_legal(tile, x, y, rot) {
                    legal.push(Choice::Place { x, y, rot });
                }
            }
        }
    }
    let mut a = offered.clone();
    let key = |c: &Choice| format!("{c:?}");
    a.sort_by_key(key);
    legal.sort_by_key(key);
    assert_eq!(a, legal);
}
