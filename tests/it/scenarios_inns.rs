//! Inns & Cathedrals scenarios (rulesets inns-c1/inns-c2; the I&C C1 and C2 rulebooks as
//! Wikicarpedia gives them, JCloisterZone's road and city scoring): a completed road with an
//! inn scores 2 a tile, unfinished 0; a completed city with a cathedral scores 3 a tile and a
//! pennant, unfinished 0; the large follower counts as two (2 beats 1, and ties 1 + 1); six
//! players; and every kind of follower conserved over keyed random games.
//!
//! Seats: 0 = ALICE, 1 = BOB. The start tile BA/RCr is at (0,0) rot 0 (city cap N, road W–E).
//! y grows southward; rotations are clockwise quarter turns.

use crate::scenario_support;

use meeplab::engine::expansions::inns;
use meeplab::engine::{Category, Compiled, Decision, DecisionKind, Event, FollowerKind, Game};
use meeplab::engine::{Choice, Phase};
use scenario_support::*;
use std::sync::Arc;

const ALICE: u8 = 0;
const BOB: u8 = 1;

// Segment indices (order of features in the tile block):
// IC/RFr.i: road 0. IC/Cccc.c: city 0. BA/C: city 0. BA/RrC: city 0. BA/LR: cloister 0,
// road 1.

fn rules() -> Arc<Compiled> {
    load("inns-c2")
}

/// Alice's road with an inn from (-1,0) to (1,0): IC/RFr.i east of the start with her
/// follower on it, BA/LR ending it west of the start (Bob's turn).
fn inn_road(s: &mut Scen) {
    s.play(ALICE, "IC/RFr.i", (1, 0, 0), Some(0));
    s.play(BOB, "BA/LR", (-1, 0, 3), None);
}

/// [C1][C2] "When a player completes a road with one or more inns, the scoring player(s)
/// receive 2 points per tile forming this completed road": 4 tiles, 8 points.
#[test]
fn a_completed_road_with_an_inn_scores_two_a_tile() {
    for name in ["inns-c1", "inns-c2"] {
        let mut s = Scen::new(&load(name), 2);
        inn_road(&mut s);
        let ev = s.play(ALICE, "BA/LR", (2, 0, 1), None);
        assert_eq!(
            scored(&ev),
            vec![(Phase::Turn, Category::ROAD, 0b01, 8, 4)],
            "{name}"
        );
        assert_eq!(s.scores(), vec![8, 0], "{name}");
    }
}

/// [C1][C2] "If the road remains incomplete at the end of the game, it is worth zero points":
/// the same road, three tiles, left open at the east.
#[test]
fn an_unfinished_road_with_an_inn_scores_nothing() {
    let mut s = Scen::new(&rules(), 2);
    inn_road(&mut s);
    let ev = s.finish(&[]);
    assert_eq!(
        scored(&ev),
        vec![(Phase::Final, Category::ROAD, 0b01, 0, 3)],
        "{ev:?}"
    );
    assert_eq!(s.scores(), vec![0, 0]);
    // without the inn (the plain straight road) the same road scores its 3 tiles
    let mut s = Scen::new(&rules(), 2);
    s.play(ALICE, "BA/RFr", (1, 0, 0), Some(0));
    s.play(BOB, "BA/LR", (-1, 0, 3), None);
    s.finish(&[]);
    assert_eq!(s.scores(), vec![3, 0]);
}

/// Alice's cathedral city: IC/Cccc.c north of the start with her follower on it.
fn cathedral_city(s: &mut Scen) {
    s.play(ALICE, "IC/Cccc.c", (0, -1, 0), Some(0));
}

/// [C1][C2] "When a player completes a city with one or both cathedrals, the scoring
/// player(s) receive 3 points per tile and coat of arms": the start cap, the cathedral and
/// three caps closing it, 5 tiles, 15 points.
#[test]
fn a_completed_city_with_a_cathedral_scores_three_a_tile() {
    let mut s = Scen::new(&rules(), 2);
    cathedral_city(&mut s);
    s.play(BOB, "BA/C", (0, -2, 2), None);
    s.play(ALICE, "BA/C", (1, -1, 3), None);
    let ev = s.play(BOB, "BA/C", (-1, -1, 1), None);
    assert_eq!(
        scored(&ev),
        vec![(Phase::Turn, Category::CITY, 0b01, 15, 5)]
    );
    assert_eq!(s.scores(), vec![15, 0]);
}

/// [C1][C2] "If the city remains incomplete at the end of the game, it is worth zero points"
/// (without the cathedral, 2 tiles would score 2).
#[test]
fn an_unfinished_city_with_a_cathedral_scores_nothing() {
    let mut s = Scen::new(&rules(), 2);
    cathedral_city(&mut s);
    let ev = s.finish(&[]);
    assert_eq!(
        scored(&ev),
        vec![(Phase::Final, Category::CITY, 0b01, 0, 2)]
    );
    assert_eq!(s.scores(), vec![0, 0]);
}

/// The `inns.unfinished = normal` house rule scores an unfinished inn road as a plain one.
#[test]
fn the_house_rule_scores_an_unfinished_inn_road_as_usual() {
    let house = load_str(
        "inns-house",
        "ruleset \"I&C, unfinished as usual\"\nextends \"rulesets/inns-c2.rules\"\ninns.unfinished = normal\n",
    );
    let mut s = Scen::new(&house, 2);
    inn_road(&mut s);
    s.finish(&[]);
    assert_eq!(s.scores(), vec![3, 0]);
}

/// The city of the majority scenarios: Alice's large follower on a cap east of it (1,-1),
/// Bob's follower on a cap west (-1,-1), then `bob_second` a follower (or none) on a cap north
/// (0,-2), and Alice's BA/Cccc+ at (0,-1) joins the start cap and the three: 5 tiles and a
/// pennant, 12 points. Returns the last turn's events.
fn majority_city(s: &mut Scen, bob_second: Option<u8>) -> Vec<Event> {
    s.play(ALICE, "BA/RFr", (1, 0, 0), None);
    s.play(BOB, "BA/RFr", (-1, 0, 0), None);
    let ev = s.play_kind(ALICE, "BA/C", (1, -1, 3), 0, inns::LARGE_FOLLOWER);
    assert!(
        ev.iter().any(|e| matches!(
            e,
            Event::FollowerPlaced { player: ALICE, kind, .. } if *kind == inns::LARGE_FOLLOWER
        )),
        "{ev:?}"
    );
    s.play(BOB, "BA/C", (-1, -1, 1), Some(0));
    s.play(ALICE, "BA/RFr", (1, -2, 0), None);
    s.play(BOB, "BA/RrC", (0, -2, 2), bob_second);
    s.play(ALICE, "BA/Cccc+", (0, -1, 0), None)
}

/// [C1][C2] "A large meeple counts as two meeples": Alice's large follower (2) beats Bob's
/// one follower (1), and goes home with the city.
#[test]
fn a_large_follower_beats_one_follower() {
    let mut s = Scen::new(&rules(), 2);
    let ev = majority_city(&mut s, None);
    assert_eq!(
        scored(&ev),
        vec![(Phase::Turn, Category::CITY, 0b01, 12, 5)]
    );
    assert_eq!(s.scores(), vec![12, 0]);
    assert_eq!(s.game.supply_of(ALICE, inns::LARGE_FOLLOWER), 1);
    assert!(s.game.followers().is_empty(), "every follower went home");
}

/// [C1][C2] The large follower (2) against two followers (1 + 1) is a tie: both score.
#[test]
fn a_large_follower_ties_two_followers() {
    let mut s = Scen::new(&rules(), 2);
    let ev = majority_city(&mut s, Some(0));
    assert_eq!(
        scored(&ev),
        vec![(Phase::Turn, Category::CITY, 0b11, 12, 5)]
    );
    assert_eq!(s.scores(), vec![12, 12]);
    assert_eq!(s.game.supply(BOB), 7);
}

/// The follower decision offers, per segment, the plain follower and then the large one; the
/// large one only while it is in supply.
#[test]
fn the_large_follower_is_offered_after_the_plain_one_while_in_supply() {
    let mut s = Scen::new(&rules(), 2);
    s.play_kind(ALICE, "IC/RFr.i", (1, 0, 0), 0, inns::LARGE_FOLLOWER);
    let asked = s.asked(DecisionKind::FOLLOWER);
    let options = &asked[0].options;
    let large = |seg: u8| Choice::Follower {
        segment: Some(seg),
        kind: inns::LARGE_FOLLOWER,
    };
    let plain = |seg: u8| Choice::Follower {
        segment: Some(seg),
        kind: FollowerKind::PLAIN,
    };
    assert_eq!(options[1..4], [plain(0), large(0), plain(1)], "{options:?}");
    // the next turn Alice has no large follower left
    s.play(BOB, "BA/LR", (-1, 0, 3), None);
    s.play(ALICE, "BA/RFr", (0, 1, 0), None);
    let asked = s.asked(DecisionKind::FOLLOWER);
    let last = &asked[asked.len() - 1].options;
    assert!(
        last.iter()
            .all(|c| !matches!(c, Choice::Follower { kind, .. } if *kind == inns::LARGE_FOLLOWER)),
        "{last:?}"
    );
    assert_eq!(s.game.supply_of(ALICE, inns::LARGE_FOLLOWER), 0);
}

/// I&C brings the pieces for a sixth player: six seats each get 7 followers and a large one,
/// and a keyed game plays to its end.
#[test]
fn six_players_each_get_a_large_follower() {
    let r = rules();
    let s = Scen::new(&r, 6);
    for p in 0..6 {
        assert_eq!(s.game.supply(p), 7);
        assert_eq!(s.game.supply_of(p, inns::LARGE_FOLLOWER), 1);
    }
    let mut game = Game::new(r, 5, 6);
    let pick = |_: &Game, d: &Decision| (d.key % d.options as u64) as usize;
    meeplab::engine::invariants::play_checked(&mut game, pick)
        .unwrap_or_else(|v| panic!("six players: {v}"));
    assert_eq!(game.scores().len(), 6);
}

/// Every kind of follower is conserved, and every majority count is its followers' weights,
/// after every move of keyed random games under both editions (the engine's invariants).
#[test]
fn followers_of_every_kind_are_conserved() {
    for name in ["inns-c1", "inns-c2"] {
        let r = load(name);
        let mut large_placed = 0;
        for seed in 0..12u64 {
            let mut game = Game::new(r.clone(), 300 + seed, 2 + (seed % 5) as u8);
            let pick = |_: &Game, d: &Decision| {
                (d.key.rotate_left(seed as u32 * 5) % d.options as u64) as usize
            };
            meeplab::engine::invariants::play_checked(&mut game, pick)
                .unwrap_or_else(|v| panic!("{name} seed {seed}: {v}"));
            large_placed += game
                .followers()
                .iter()
                .filter(|f| f.kind == inns::LARGE_FOLLOWER)
                .count();
        }
        assert!(
            large_placed > 0,
            "{name}: no large follower left on a board"
        );
    }
}

/// [C1][C2] "a city with one or both cathedrals … 3 points per tile" (two cathedrals count
/// once): Alice's cathedral at (0,-1), Bob's second cathedral north of it at (0,-2), and five
/// caps closing the city: 8 tiles at 3 each, 24 points (not 4 a tile).
#[test]
fn two_cathedrals_in_one_city_count_once() {
    let mut s = Scen::new(&rules(), 2);
    cathedral_city(&mut s);
    s.play(BOB, "IC/Cccc.c", (0, -2, 0), None);
    s.play(ALICE, "BA/C", (0, -3, 2), None);
    s.play(BOB, "BA/C", (1, -1, 3), None);
    s.play(ALICE, "BA/C", (-1, -1, 1), None);
    s.play(BOB, "BA/C", (1, -2, 3), None);
    let ev = s.play(ALICE, "BA/C", (-1, -2, 1), None);
    assert_eq!(
        scored(&ev),
        vec![(Phase::Turn, Category::CITY, 0b01, 24, 8)]
    );
    assert_eq!(s.scores(), vec![24, 0]);
}

/// [C1][C2] "a road with one or more inns … 2 points per tile" (two inns count once):
/// Alice's inn road east of the start, a second inn road beyond it, closed at both ends by
/// cloisters: 5 tiles at 2 each, 10 points (not 3 a tile).
#[test]
fn two_inns_on_one_road_count_once() {
    let mut s = Scen::new(&rules(), 2);
    inn_road(&mut s);
    s.play(ALICE, "IC/RFr.i", (2, 0, 0), None);
    let ev = s.play(BOB, "BA/LR", (3, 0, 1), None);
    assert_eq!(
        scored(&ev),
        vec![(Phase::Turn, Category::ROAD, 0b01, 10, 5)]
    );
    assert_eq!(s.scores(), vec![10, 0]);
}
