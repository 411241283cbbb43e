//! Castles scenarios (Bridges, Castles & Bazaars; `docs/src/rules/bcb.md` §5, §9, §10, §11):
//! the JCloisterZone engine tests `castle-unoccupied-trigger` and `field-castle-scoring`, the
//! end-of-game 0, the two counter-examples of JCZ issue #321, the highest of simultaneous
//! completions, chains, who is offered a castle and when, declining, castle gold with the
//! Gold Mines (HiG clarification 6/2013), the farm bonus option, and token conservation over
//! keyed random games.
//!
//! Seats: 0 = ALICE, 1 = BOB. The start tile BA/RCr is at (0,0) rot 0 (city cap N, road W–E).
//! y grows southward; rotations are clockwise quarter turns. A castle on the start city and
//! (0,-1) lies on two tiles stacked north–south: its vicinity is those two plus (±1,0) and
//! (±1,-1).

use crate::scenario_support;

use meeplab::engine::expansions::castles;
use meeplab::engine::expansions::gold;
use meeplab::engine::{Category, Choice, Chooser, Compiled, Decision, Event, Game, Phase};
use scenario_support::*;
use std::collections::BTreeSet;
use std::sync::Arc;

const ALICE: u8 = 0;
const BOB: u8 = 1;

// Segment indices (order of features in the tile block):
// BA/C: city 0, field 1. BA/CC.2: city N 0, city W 1, field 2. BA/RRR: road E 0, road S 1,
// road W 2. BA/CRRR: city 0, road E 1, road S 2, road W 3. BA/Cc.1: city 0, field 1.
// BA/CFc.1: city 0. BA/L: cloister 0.

fn rules() -> Arc<Compiled> {
    load("castles")
}

/// `player` builds the castle offered.
fn build(player: u8) -> Exp {
    exp(castles::CASTLE_BUILD, player, Choice::Flag { yes: true })
}

/// `player` declines the castle offered (the city scores).
fn decline(player: u8) -> Exp {
    exp(castles::CASTLE_BUILD, player, Choice::Flag { yes: false })
}

/// `CASTLE_BUILT` events as (player, x, y, x2, y2).
fn built(events: &[Event]) -> Vec<(u8, i32, i32, i32, i32)> {
    events
        .iter()
        .filter_map(|e| {
            e.of(castles::CASTLE_BUILT).map(|v| {
                (
                    v[1] as u8,
                    v[2] as i32,
                    v[3] as i32,
                    v[4] as i32,
                    v[5] as i32,
                )
            })
        })
        .collect()
}

/// `CASTLE_SCORED` events as (player, points), in order.
fn castle_scores(events: &[Event]) -> Vec<(u8, i64)> {
    events
        .iter()
        .filter_map(|e| e.of(castles::CASTLE_SCORED).map(|v| (v[1] as u8, v[4])))
        .collect()
}

/// `player` puts a knight on the start city from (0,-1) (BA/C, cap S) and builds a castle on
/// it: the castle lies on (0,-1) and (0,0).
fn castle_on_start_city(s: &mut Scen, player: u8) {
    let ev = s.play_with(player, "BA/C", (0, -1, 2), Some(0), &[build(player)]);
    let b = built(&ev);
    assert_eq!(b.len(), 1, "{b:?}");
    let (owner, x, y, x2, y2) = b[0];
    assert_eq!(owner, player);
    let cells: BTreeSet<(i32, i32)> = [(x, y), (x2, y2)].into_iter().collect();
    assert_eq!(cells, [(0, -1), (0, 0)].into_iter().collect());
    assert!(scored(&ev).is_empty(), "building scores nothing: {ev:?}");
}

fn counters(s: &Scen) -> (u32, u32) {
    let o = s.game.outcome();
    (
        o.counters.get(castles::BUILT),
        o.counters.get(castles::SCORED),
    )
}

/// JCZ engine test `bridge-bazaar-and-castles/castle-unoccupied-trigger` (bcb.md §9.1, §5.3
/// "unoccupied features count"): Alice's castle on the start city and BA/C; Bob and Alice
/// complete the unoccupied 3-tile road (−1,0)–(0,0)–(1,0) in its vicinity → Alice 3, Bob 0.
#[test]
fn jcz_castle_unoccupied_trigger_alice_3_bob_0() {
    let mut s = Scen::new(&rules(), 2);
    castle_on_start_city(&mut s, ALICE);
    assert_eq!(s.scores(), vec![0, 0]);
    assert_eq!(s.game.castles(), vec![(ALICE, s.game.castles()[0].1, true)]);
    assert_eq!(s.game.castles_left(ALICE), 2);
    assert_eq!(s.game.castles_left(BOB), 3);
    assert_eq!(s.game.supply(ALICE), 6, "the knight stays on the castle");
    assert_eq!(s.asked(castles::CASTLE_BUILD).len(), 1);

    let ev = s.play(BOB, "BA/RRR", (-1, 0, 0), None);
    assert!(castle_scores(&ev).is_empty());
    let ev = s.play(ALICE, "BA/RRR", (1, 0, 0), None);
    assert_eq!(castle_scores(&ev), vec![(ALICE, 3)]);
    assert_eq!(s.scores(), vec![3, 0]);
    assert_eq!(s.cat(ALICE, castles::CASTLE), 3);
    assert_eq!(s.cat(ALICE, Category::ROAD), 0, "nobody held the road");
    assert_eq!(s.game.supply(ALICE), 7, "the castle's knight comes home");
    assert!(s.game.followers().is_empty());
    assert!(!s.game.castles()[0].2, "the castle has scored");
    assert_eq!(counters(&s), (1, 1));
    // nothing more at the end: the castle scored once
    s.finish(&[]);
    assert_eq!(s.scores(), vec![3, 0]);
}

/// Alice's fields and castles of JCZ test `field-castle-scoring` (bcb.md §9.2): BA/CC.2 on
/// (0,-1) closes the start city (nobody in it) with her farmer; castles on (−1,−1)+(0,−1)
/// and (0,−2)+(0,−3). Bob never plays (JCZ's test is solo).
fn field_castle_position(rules: &Arc<Compiled>) -> Scen {
    let mut s = Scen::new(rules, 2);
    let ev = s.play(ALICE, "BA/CC.2", (0, -1, 3), Some(2)); // caps W and S, farmer
    assert!(
        built(&ev).is_empty(),
        "an unoccupied small city is not offered"
    );
    s.play_with(ALICE, "BA/C", (-1, -1, 1), Some(0), &[build(ALICE)]); // cap E
    s.play(ALICE, "BA/C", (0, -2, 0), Some(0)); // cap N, knight
    s.play_with(ALICE, "BA/C", (0, -3, 2), None, &[build(ALICE)]); // cap S closes it
    assert_eq!(s.game.castles().len(), 2);
    assert_eq!(s.asked(castles::CASTLE_BUILD).len(), 2);
    assert_eq!(s.scores(), vec![0, 0]);
    s
}

/// JCZ engine test `bridge-bazaar-and-castles/field-castle-scoring` (bcb.md §9.2, §5.4): the
/// farmer's field touches one completed city (3) and two castles (4 each) → 11; the waiting
/// castles score 0 at the end.
#[test]
fn jcz_field_castle_scoring_3_plus_4_plus_4_is_11() {
    let mut s = field_castle_position(&rules());
    let ev = s.finish(&[]);
    let fields: Vec<_> = scored(&ev)
        .into_iter()
        .filter(|t| t.1 == Category::FIELD)
        .collect();
    assert_eq!(fields.len(), 1, "{fields:?}");
    assert_eq!(
        (fields[0].0, fields[0].2, fields[0].3),
        (Phase::Final, 0b01, 11)
    );
    assert_eq!(s.scores(), vec![11, 0]);
    assert_eq!(s.cat(ALICE, Category::FIELD), 11);
    assert_eq!(s.cat(ALICE, castles::CASTLE), 0);
    assert!(castle_scores(&ev).is_empty());
    assert_eq!(counters(&s), (2, 0));
}

/// A castle that has scored stays a castle for farmers (bcb.md §5.3 "the castle token stays
/// for the rest of the game", §5.4 castle = 4 to farmers): Alice's castle scores the start
/// road (3); her farmer on (1,−1), whose field touches only the castle, scores 4 at the end
/// → Alice 7.
#[test]
fn scored_castle_is_still_worth_4_to_farmers() {
    let mut s = Scen::new(&rules(), 2);
    castle_on_start_city(&mut s, ALICE);
    s.play(ALICE, "BA/L", (1, -1, 0), Some(1)); // farmer
    s.play(BOB, "BA/RRR", (-1, 0, 0), None);
    let ev = s.play(BOB, "BA/RRR", (1, 0, 0), None);
    assert_eq!(castle_scores(&ev), vec![(ALICE, 3)]);
    s.finish(&[]);
    assert_eq!(s.cat(ALICE, Category::FIELD), 4);
    assert_eq!(s.scores(), vec![7, 0]);
}

/// A castle still waiting at the end scores nothing (bcb.md §5.4: rulebook "incomplete
/// castles score 0"; JCZ `FinalScoring`, test `fairy-endgame-incomplete-castle`).
#[test]
fn waiting_castle_scores_0_at_the_end() {
    let mut s = Scen::new(&rules(), 2);
    castle_on_start_city(&mut s, ALICE);
    // a later tile completes nothing in the vicinity
    s.play(BOB, "BA/L", (0, 1, 0), None);
    let ev = s.finish(&[]);
    assert!(castle_scores(&ev).is_empty(), "{ev:?}");
    assert_eq!(s.scores(), vec![0, 0]);
    assert_eq!(s.cat(ALICE, castles::CASTLE), 0);
    assert_eq!(
        s.cat(ALICE, Category::CITY),
        0,
        "the castle is not an incomplete city"
    );
    assert!(s.game.castles()[0].2, "still waiting");
    assert_eq!(counters(&s), (1, 0));
}

/// JCZ issue #321 (a) (bcb.md §5.3, §10): one tile completes an unoccupied road in the
/// vicinity and a small city that is converted to a castle the same turn → the new castle
/// scores 0 that turn (here a 2-tile road, 2 points; the road had 4 tiles). The
/// castle then takes the next completion in a later turn (the 3-tile start road: 3). Played
/// with the road unoccupied (as in the issue; an unoccupied feature emits no `Scored`) and
/// with Bob's thief on it (the completion shows: Bob 2).
#[test]
fn jcz_321a_castle_built_this_turn_ignores_this_turns_road() {
    for thief in [None, Some(0)] {
        let mut s = Scen::new(&rules(), 2);
        s.play(BOB, "BA/RRR", (1, 0, 0), None); // junction E of the start road
        s.play(BOB, "BA/RRR", (1, -1, 2), thief); // junction, road W toward (0,-1)
                                                  // BA/CRRR turned: cap S closes the start city, its road E ends at both junctions
        let ev = s.play_with(ALICE, "BA/CRRR", (0, -1, 2), Some(0), &[build(ALICE)]);
        assert_eq!(built(&ev).len(), 1);
        let bob = if thief.is_some() {
            assert_eq!(
                scored(&ev),
                vec![(Phase::Turn, Category::ROAD, 0b10, 2, 2)],
                "the 2-tile road completes"
            );
            2
        } else {
            assert!(scored(&ev).is_empty(), "{ev:?}");
            0
        };
        assert!(castle_scores(&ev).is_empty(), "thief {thief:?}: {ev:?}");
        assert_eq!(s.scores(), vec![0, bob]);
        assert!(s.game.castles()[0].2, "still waiting");

        // a later completion in the vicinity: the start road, 3 tiles
        let ev = s.play(BOB, "BA/RRR", (-1, 0, 0), None);
        assert_eq!(castle_scores(&ev), vec![(ALICE, 3)], "thief {thief:?}");
        assert_eq!(s.scores(), vec![3, bob]);
    }
}

/// JCZ issue #321 (b) (bcb.md §5.3, §10): Alice's castle on the start city; Alice's BA/C on
/// (2,0) completes the unoccupied cloister on (1,0) (in her castle's vicinity and in the new
/// castle's) and Bob's small city (2,0)+(2,1), which Bob — not Alice — is asked about and
/// converts → Alice's castle +9, Bob's new castle 0.
#[test]
fn jcz_321b_cloister_pays_existing_castle_9_new_castle_0() {
    let mut s = Scen::new(&rules(), 2);
    castle_on_start_city(&mut s, ALICE);
    s.play(BOB, "BA/L", (1, -1, 0), None);
    s.play(ALICE, "BA/LR", (1, 0, 1), None); // cloister, road W into the start road
    s.play(BOB, "BA/L", (2, -1, 0), None);
    s.play(ALICE, "BA/L", (0, 1, 0), None);
    s.play(BOB, "BA/L", (1, 1, 0), None);
    s.play(BOB, "BA/C", (2, 1, 0), Some(0)); // cap N, Bob's knight
    let ev = s.play_with(ALICE, "BA/C", (2, 0, 2), None, &[build(BOB)]);
    let b = built(&ev);
    assert_eq!(b.len(), 1);
    assert_eq!(b[0].0, BOB);
    // the cloister is unoccupied: no `Scored` of its own, only the castle's
    assert!(scored(&ev).iter().all(|t| t.1 == castles::CASTLE), "{ev:?}");
    assert_eq!(castle_scores(&ev), vec![(ALICE, 9)]);
    assert_eq!(s.scores(), vec![9, 0]);
    assert_eq!(s.cat(BOB, castles::CASTLE), 0);
    let asked = s.asked(castles::CASTLE_BUILD);
    assert_eq!(asked.len(), 2);
    assert_eq!(
        asked[1].player, BOB,
        "the city's owner decides, not the active player"
    );
    let open: Vec<bool> = s.game.castles().iter().map(|c| c.2).collect();
    assert_eq!(open, vec![false, true]);
}

/// Several features completed at once in one vicinity → the castle scores the highest (JCZ,
/// bcb.md §5.3 and §10 "suggested extra scenarios"): Alice's castle on the start city; the
/// BA/CRRR on (1,0) completes the unoccupied small city (1,−1)+(1,0) (4) and the start road.
/// With a 3-tile road (3) the castle takes the city's 4; with a 5-tile road (5) the road's 5.
/// Bob's thief holds the road (he scores it too); nobody is in the city.
#[test]
fn simultaneous_completions_pay_the_highest() {
    for (road_tiles, want) in [(3, 4), (5, 5)] {
        let mut s = Scen::new(&rules(), 2);
        castle_on_start_city(&mut s, ALICE);
        if road_tiles == 3 {
            s.play(BOB, "BA/RRR", (-1, 0, 0), Some(0));
        } else {
            s.play(BOB, "BA/RFr", (-1, 0, 0), Some(0));
            s.play(BOB, "BA/RFr", (-2, 0, 0), None);
            s.play(BOB, "BA/RRR", (-3, 0, 0), None);
        }
        s.play(BOB, "BA/C", (1, -1, 2), None); // cap S, nobody
        let ev = s.play(BOB, "BA/CRRR", (1, 0, 0), None); // cap N, road W ends
        let sc: Vec<_> = scored(&ev)
            .into_iter()
            .filter(|t| t.1 != castles::CASTLE)
            .collect();
        assert_eq!(
            sc,
            vec![(
                Phase::Turn,
                Category::ROAD,
                0b10,
                road_tiles,
                road_tiles as u32
            )],
            "road of {road_tiles}"
        );
        assert_eq!(
            castle_scores(&ev),
            vec![(ALICE, want)],
            "road of {road_tiles}"
        );
        assert_eq!(s.scores(), vec![want, road_tiles], "road of {road_tiles}");
        assert_eq!(counters(&s), (1, 1));
    }
}

/// Chains (bcb.md §5.3, rulebook via Wikicarpedia, JCZ loop): Alice's castle A on the start
/// city, Bob's castle B on (1,−1)+(1,−2) (its vicinity holds A's tile (0,−1)); the start road
/// (3, in A's vicinity, not in B's) pays A 3, and A scoring pays B the same 3.
#[test]
fn chain_castle_scoring_triggers_neighbouring_castle() {
    let mut s = Scen::new(&rules(), 2);
    castle_on_start_city(&mut s, ALICE);
    s.play(BOB, "BA/C", (1, -1, 0), Some(0)); // cap N, Bob's knight
    s.play_with(BOB, "BA/C", (1, -2, 2), None, &[build(BOB)]);
    assert_eq!(s.game.castles().len(), 2);
    s.play(ALICE, "BA/RRR", (-1, 0, 0), None);
    let ev = s.play(BOB, "BA/RRR", (1, 0, 0), None);
    assert_eq!(castle_scores(&ev), vec![(ALICE, 3), (BOB, 3)]);
    assert_eq!(s.scores(), vec![3, 3]);
    assert_eq!(s.cat(BOB, castles::CASTLE), 3);
    assert!(s.game.castles().iter().all(|c| !c.2));
    assert!(s.game.followers().is_empty());
    assert_eq!(counters(&s), (2, 2));
}

/// Who is offered a castle (bcb.md §5.1, JCZ `CastlePhase`): only the owner of the single
/// follower, even when another player's tile completes the city; Bob, who placed the tile,
/// is never asked.
#[test]
fn only_the_followers_owner_is_asked() {
    let mut s = Scen::new(&rules(), 2);
    s.play(BOB, "BA/RFr", (1, 0, 0), None);
    s.play(ALICE, "BA/C", (1, -1, 0), Some(0)); // cap N, Alice's knight
    let ev = s.play_with(BOB, "BA/C", (1, -2, 2), None, &[build(ALICE)]);
    assert_eq!(built(&ev).len(), 1);
    assert_eq!(built(&ev)[0].0, ALICE);
    let asked = s.asked(castles::CASTLE_BUILD);
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].player, ALICE);
    assert_eq!(
        asked[0].options,
        vec![Choice::Flag { yes: false }, Choice::Flag { yes: true }]
    );
    assert_eq!(s.game.castles_left(ALICE), 2);
    assert_eq!(s.game.castles_left(BOB), 3);
}

/// One tile completing two small cities (bcb.md §5.1, JCZ `CastlePhase`: each owner is
/// asked): Bob's BA/CFC.2 on (0,1) closes Alice's cap on (1,1) and Bob's on (−1,1); both
/// are asked and build. The 5-tile start road (−2,0)…(2,0), in both vicinities, later pays
/// each castle 5. (JCZ asks in turn order from the active player; the engine asks in segment
/// order — only the order of two independent questions differs, not asserted.)
#[test]
fn one_tile_two_small_cities_both_owners_asked() {
    let mut s = Scen::new(&rules(), 2);
    s.play(BOB, "BA/RFr", (1, 0, 0), None);
    s.play(ALICE, "BA/C", (1, 1, 3), Some(0)); // cap W, Alice's knight
    s.play(BOB, "BA/RFr", (-1, 0, 0), None);
    s.play(BOB, "BA/C", (-1, 1, 1), Some(0)); // cap E, Bob's knight
    let ev = s.play_with(
        BOB,
        "BA/CFC.2",
        (0, 1, 1),
        None,
        &[build(ALICE), build(BOB)],
    );
    let owners: BTreeSet<u8> = built(&ev).iter().map(|b| b.0).collect();
    assert_eq!(owners, [ALICE, BOB].into_iter().collect());
    let asked: BTreeSet<u8> = s
        .asked(castles::CASTLE_BUILD)
        .iter()
        .map(|a| a.player)
        .collect();
    assert_eq!(asked, [ALICE, BOB].into_iter().collect());
    assert_eq!(s.asked(castles::CASTLE_BUILD).len(), 2);
    assert_eq!(s.scores(), vec![0, 0]);
    s.play(ALICE, "BA/RRR", (2, 0, 0), None);
    let ev = s.play(ALICE, "BA/RRR", (-2, 0, 0), None);
    let mut cs = castle_scores(&ev);
    cs.sort_unstable();
    assert_eq!(cs, vec![(ALICE, 5), (BOB, 5)]);
    assert_eq!(s.scores(), vec![5, 5]);
}

/// No offer for a completed city that is not a small city (bcb.md §5.1: exactly two
/// single-edge caps on two tiles): cap + corner + cap (3 segments, the corner reaching two
/// sides) and cap + BA/CFc.1 + cap (the middle segment reaching two sides) score 6 as cities.
/// (Two followers in a 2-cap city cannot arise with the base tiles: the second cap joins the
/// city when placed, so only one knight can be put in it.) An unoccupied small city is not
/// offered either (see `field_castle_position`).
#[test]
fn no_offer_for_three_segment_or_multi_edge_cities() {
    // the corner city W+S on (0,-1), closed by a cap facing E on (-1,-1)
    let mut s = Scen::new(&rules(), 2);
    s.play(ALICE, "BA/Cc.1", (0, -1, 3), Some(0));
    let ev = s.play(BOB, "BA/C", (-1, -1, 1), None);
    assert_eq!(scored(&ev), vec![(Phase::Turn, Category::CITY, 0b01, 6, 3)]);
    assert!(s.asked(castles::CASTLE_BUILD).is_empty());
    assert_eq!(s.scores(), vec![6, 0]);

    // BA/CFc.1 turned N–S on (0,-1), closed by a cap facing S on (0,-2)
    let mut s = Scen::new(&rules(), 2);
    s.play(ALICE, "BA/CFc.1", (0, -1, 1), Some(0)); // city N–S
    let ev = s.play(BOB, "BA/C", (0, -2, 2), None); // cap S closes it
    assert_eq!(scored(&ev), vec![(Phase::Turn, Category::CITY, 0b01, 6, 3)]);
    assert!(s.asked(castles::CASTLE_BUILD).is_empty());
    assert_eq!(s.scores(), vec![6, 0]);
}

/// A player with no castle token left is not offered one (bcb.md §5.1: "the player has a
/// castle token"): Alice builds her three castles, her fourth small city (2,−1)+(2,−2)
/// scores 4 as a city. Its completion lies in castle 2's vicinity: castle 2 scores 4, then
/// castle 1 (chain through (1,−1)) and castle 3 (chain through (0,−1)): 4 + 3 × 4 = 16.
#[test]
fn no_offer_without_tokens_then_a_three_castle_chain() {
    let mut s = Scen::new(&rules(), 2);
    castle_on_start_city(&mut s, ALICE); // castle 1: (0,-1)+(0,0)
    s.play(ALICE, "BA/C", (1, -1, 0), Some(0));
    s.play_with(ALICE, "BA/C", (1, -2, 2), None, &[build(ALICE)]); // castle 2
    s.play(ALICE, "BA/C", (-1, -1, 0), Some(0));
    s.play_with(ALICE, "BA/C", (-1, -2, 2), None, &[build(ALICE)]); // castle 3
    assert_eq!(s.game.castles_left(ALICE), 0);
    assert_eq!(s.game.castles().len(), 3);
    s.play(ALICE, "BA/C", (2, -1, 0), Some(0));
    let ev = s.play(ALICE, "BA/C", (2, -2, 2), None);
    assert_eq!(s.asked(castles::CASTLE_BUILD).len(), 3, "no fourth offer");
    assert!(built(&ev).is_empty());
    assert_eq!(scored(&ev)[0], (Phase::Turn, Category::CITY, 0b01, 4, 2));
    assert_eq!(castle_scores(&ev), vec![(ALICE, 4); 3]);
    assert_eq!(s.scores(), vec![16, 0]);
    assert_eq!(s.cat(ALICE, Category::CITY), 4);
    assert_eq!(s.cat(ALICE, castles::CASTLE), 12);
    assert_eq!(s.game.castles_left(ALICE), 0, "tokens stay on the board");
    assert_eq!(s.game.supply(ALICE), 7);
}

/// The supply (bcb.md §5.1, BC&B rulebooks, JCZ): 3 castles a player with 2–4 players, 2
/// with 5–6 (read after a first turn).
#[test]
fn supply_3_with_2_to_4_players_2_with_5_or_6() {
    for (players, want) in [(2u8, 3u8), (3, 3), (4, 3), (5, 2), (6, 2)] {
        let mut s = Scen::new(&rules(), players);
        s.play(0, "BA/L", (0, 1, 0), None);
        for p in 0..players {
            assert_eq!(s.game.castles_left(p), want, "{players} players, seat {p}");
        }
    }
}

/// The supply is readable before the first turn too (`Game::castles_left` right after
/// setup).
#[test]
fn supply_before_the_first_turn() {
    for (players, want) in [(2u8, 3u8), (6, 2)] {
        let s = Scen::new(&rules(), players);
        assert_eq!(s.game.castles_left(0), want, "{players} players");
    }
}

/// Declining the castle (option 0) scores the small city normally (bcb.md §5.1: "instead of
/// scoring 4 points"): 4 to Alice, her knight home, her token kept.
#[test]
fn declining_scores_the_city_4() {
    let mut s = Scen::new(&rules(), 2);
    let ev = s.play_with(ALICE, "BA/C", (0, -1, 2), Some(0), &[decline(ALICE)]);
    assert!(built(&ev).is_empty());
    assert_eq!(scored(&ev), vec![(Phase::Turn, Category::CITY, 0b01, 4, 2)]);
    assert_eq!(s.scores(), vec![4, 0]);
    assert_eq!(s.game.castles_left(ALICE), 3);
    assert!(s.game.castles().is_empty());
    assert_eq!(s.game.supply(ALICE), 7);
    assert_eq!(counters(&s), (0, 0));
}

/// A chained castle claims its own vicinity's gold (bcb.md §11 open point 3: JCZ yes): the
/// chain of `chain_castle_scoring_triggers_neighbouring_castle` in goldmines-castles, with
/// ingots on (2,−2) and (1,−2), in Bob's castle's vicinity only. The road pays Alice's castle
/// 3 (no gold in its vicinity), the chain pays Bob's 3 and Bob takes both ingots.
#[test]
fn chained_castle_claims_its_own_vicinity_gold() {
    let mut s = Scen::new(&load("goldmines-castles"), 2);
    castle_on_start_city(&mut s, ALICE);
    s.play(BOB, "BA/C", (1, -1, 0), Some(0));
    s.play_with(BOB, "BA/C", (1, -2, 2), None, &[build(BOB)]);
    s.play_with(ALICE, "GO/LRr", (2, -2, 3), None, &[ingot_to(ALICE, 1, -2)]);
    s.play(ALICE, "BA/RRR", (-1, 0, 0), None);
    let ev = s.play_with(
        BOB,
        "BA/RRR",
        (1, 0, 0),
        None,
        &[pick(BOB, 2, -2), pick(BOB, 1, -2)],
    );
    assert_eq!(castle_scores(&ev), vec![(ALICE, 3), (BOB, 3)]);
    assert_eq!(taken(&ev), vec![(BOB, 2, -2), (BOB, 1, -2)]);
    assert_eq!(s.game.ingots_held(ALICE), 0);
    assert_eq!(s.game.ingots_held(BOB), 2);
}

/// Castle gold position (goldmines-castles, HiG 2012 draft with player pick): Alice's castle
/// on the start city; ingots on (1,−1) and (0,−1) (vicinity, not on the road) and on
/// (−2,0) (the road's far end, outside the vicinity) and (−2,−1) (neither). `thief` holds
/// the road (−2,0)…(1,0); Alice's BA/RRR on (1,0) completes it next.
fn castle_gold_position(rules: &Arc<Compiled>, thief: u8) -> Scen {
    let mut s = Scen::new(rules, 2);
    castle_on_start_city(&mut s, ALICE);
    s.play_with(BOB, "GO/LRr", (1, -1, 3), None, &[ingot_to(BOB, 0, -1)]); // road N–E
    s.play(BOB, "BA/RFr", (-1, 0, 0), None);
    s.play(thief, "BA/RRR", (-2, 0, 0), Some(0)); // junction, thief on its E road
    s.play_with(BOB, "GO/LCc", (-2, -1, 0), None, &[ingot_to(BOB, -2, 0)]);
    for (x, y) in [(1, -1), (0, -1), (-2, 0), (-2, -1)] {
        assert_eq!(s.ingots_at(x, y), 1, "({x},{y})");
    }
    assert_eq!(s.ingots_at(0, 0) + s.ingots_at(-1, 0), 0);
    s
}

fn pick_options(s: &Scen, k: usize) -> BTreeSet<(i32, i32)> {
    s.asked(gold::INGOT_PICK)[k]
        .options
        .iter()
        .map(|c| match *c {
            Choice::Token {
                at: Some((x, y, _)),
            } => (x, y),
            other => panic!("{other:?}"),
        })
        .collect()
}

/// Castle gold (bcb.md §11, HiG clarification 6/2013): Bob's road (4) pays Alice's castle 4;
/// the castle claims the ingots on its vicinity — (1,−1) and (0,−1), neither on the road —
/// and not the road's ingot on (−2,0), outside the vicinity, which Bob's majority claims. The
/// draft (Alice active): Alice (1,−1), Bob (−2,0), Alice (0,−1) → Alice 2, Bob 1; (−2,−1)
/// keeps its ingot.
#[test]
fn castle_gold_claims_the_vicinity_not_the_triggering_road() {
    let mut s = castle_gold_position(&load("goldmines-castles"), BOB);
    let ev = s.play_with(
        ALICE,
        "BA/RRR",
        (1, 0, 0),
        None,
        &[pick(ALICE, 1, -1), pick(BOB, -2, 0), pick(ALICE, 0, -1)],
    );
    assert_eq!(castle_scores(&ev), vec![(ALICE, 4)]);
    assert_eq!(s.scores(), vec![4, 4]);
    assert_eq!(
        taken(&ev),
        vec![(ALICE, 1, -1), (BOB, -2, 0), (ALICE, 0, -1)]
    );
    assert_eq!(
        pick_options(&s, 0),
        [(1, -1), (0, -1)].into_iter().collect(),
        "Alice's claim: her castle's vicinity only"
    );
    assert_eq!(pick_options(&s, 1), [(-2, 0)].into_iter().collect());
    assert_eq!(s.game.ingots_held(ALICE), 2);
    assert_eq!(s.game.ingots_held(BOB), 1);
    assert_eq!(s.ingots_at(-2, -1), 1);
    // the castle's claim joins the hand-out after the castle scored
    let k = kinds(&ev);
    let sc = k.iter().position(|&e| e == "castle_scored").unwrap();
    let tk = k.iter().position(|&e| e == "ingot_taken").unwrap();
    assert!(sc < tk, "{k:?}");
}

/// Castle gold when the castle's owner also holds the triggering road's majority (bcb.md
/// §11: "unless … the castle owner also holds the majority"): Alice claims the road's (−2,0)
/// too and takes all three ingots.
#[test]
fn castle_gold_with_the_roads_majority_takes_the_road_gold_too() {
    let mut s = castle_gold_position(&load("goldmines-castles"), ALICE);
    let ev = s.play_with(
        ALICE,
        "BA/RRR",
        (1, 0, 0),
        None,
        &[pick(ALICE, -2, 0), pick(ALICE, 1, -1), pick(ALICE, 0, -1)],
    );
    assert_eq!(castle_scores(&ev), vec![(ALICE, 4)]);
    assert_eq!(s.scores(), vec![8, 0]);
    assert_eq!(
        pick_options(&s, 0),
        [(1, -1), (0, -1), (-2, 0)].into_iter().collect()
    );
    assert_eq!(s.game.ingots_held(ALICE), 3);
    assert_eq!(s.game.ingots_held(BOB), 0);
}

/// goldmines-castles-nogold (`castles.gold = none`): the castle scores 4 but claims nothing;
/// Bob's road majority takes (−2,0); the vicinity's ingots stay on the board.
#[test]
fn castle_gold_none_claims_nothing() {
    let mut s = castle_gold_position(&load("goldmines-castles-nogold"), BOB);
    let ev = s.play_with(ALICE, "BA/RRR", (1, 0, 0), None, &[pick(BOB, -2, 0)]);
    assert_eq!(castle_scores(&ev), vec![(ALICE, 4)]);
    assert_eq!(s.scores(), vec![4, 4]);
    assert_eq!(taken(&ev), vec![(BOB, -2, 0)]);
    assert_eq!(s.game.ingots_held(ALICE), 0);
    assert_eq!(s.ingots_at(1, -1), 1);
    assert_eq!(s.ingots_at(0, -1), 1);
}

/// `castles.farm_bonus` (bcb.md §5.4, option `castle_farm_points`): the field of
/// `field-castle-scoring` with the bonus 3 → 3 + 6 + 6 = 15; with 0 → 3 + 3 + 3 = 9; the
/// default 1 → 11.
#[test]
fn farm_bonus_option_changes_the_castles_farm_value() {
    for (bonus, want) in [(Some(3), 15), (Some(0), 9), (None, 11)] {
        let rules = match bonus {
            Some(b) => load_str(
                "bonus",
                &format!(
                    "ruleset \"x\"\nextends \"rulesets/castles.rules\"\ncastles.farm_bonus = {b}\n"
                ),
            ),
            None => rules(),
        };
        let mut s = field_castle_position(&rules);
        s.finish(&[]);
        assert_eq!(s.cat(ALICE, Category::FIELD), want, "bonus {bonus:?}");
        assert_eq!(s.scores(), vec![want, 0], "bonus {bonus:?}");
    }
}

/// Keyed choices, building castles three times in four.
struct Keyed;

impl Chooser for Keyed {
    fn choose(&mut self, _g: &Game, d: &Decision) -> usize {
        if d.kind == castles::CASTLE_BUILD {
            return usize::from(!d.key.is_multiple_of(4));
        }
        (d.key % d.options as u64) as usize
    }
}

/// Token conservation over keyed random games of each castle ruleset (2–6 players): no
/// player builds more castles than the supply (3, or 2 with 5–6), and at every turn
/// `castles_left + built == supply`; the counters agree with the events.
#[test]
fn castle_tokens_conserved_over_keyed_games() {
    for name in ["castles", "goldmines-castles", "goldmines-castles-nogold"] {
        let rules = load(name);
        let mut total_built = 0;
        for seed in 0..30u64 {
            let players = 2 + (seed % 5) as u8;
            let supply = if players <= 4 { 3 } else { 2 };
            let mut game = Game::new(rules.clone(), seed, players);
            let mut events: Vec<Event> = Vec::new();
            game.setup(&mut events);
            let check = |game: &Game, events: &[Event]| {
                let b = built(events);
                for p in 0..players {
                    let by = b.iter().filter(|c| c.0 == p).count() as u8;
                    assert!(by <= supply, "{name} seed {seed}: seat {p} built {by}");
                    assert_eq!(
                        game.castles_left(p) + by,
                        supply,
                        "{name} seed {seed} turn {}: seat {p}",
                        game.turn()
                    );
                }
                assert_eq!(game.castles().len(), b.len());
            };
            loop {
                let more = game.play_turn(&mut Keyed, &mut events);
                check(&game, &events);
                if !more {
                    break;
                }
            }
            game.finish(&mut Keyed, &mut events);
            check(&game, &events);
            let o = game.outcome();
            let b = built(&events).len() as u32;
            assert_eq!(o.counters.get(castles::BUILT), b, "{name} seed {seed}");
            assert_eq!(
                o.counters.get(castles::SCORED) as usize,
                castle_scores(&events).len(),
                "{name} seed {seed}"
            );
            let castle_points: i64 = castle_scores(&events).iter().map(|c| c.1).sum();
            let by_cat: i64 = (0..players)
                .map(|p| game.by_category(p).get(castles::CASTLE))
                .sum();
            assert_eq!(castle_points, by_cat, "{name} seed {seed}");
            total_built += b;
        }
        assert!(total_built > 0, "{name}: no castle built in 30 games");
    }
}

/// The castle and the crop circle (the situation of JCloisterZone's scenario "Castle is not
/// affected by corn circle"; bcb.md §5: a castle is no longer a city): Alice's knight stands
/// on her castle over the start city; Bob plays a city crop circle and chooses "remove": no
/// knight stands in a city, so nobody is asked and Alice's follower stays on the castle,
/// which still waits to score.
#[test]
fn a_city_crop_circle_does_not_remove_a_castles_follower() {
    let rules = load_str(
        "castles + crop",
        "ruleset \"castles + crop circles\"\nextends \"rulesets/castles.rules\"\n\
         include \"rulesets/tiles/crop-circles-2.tiles\"\ndeck += { crop-circles-2 x1 }\n\
         crop source \"HiG\" {\n  deploy = may\n  target = same_segment\n}\n",
    );
    let mut s = Scen::new(&rules, 2);
    castle_on_start_city(&mut s, ALICE);
    assert_eq!(s.game.supply(ALICE), 6);
    // CC.2/CFC turned 90°: fields N and S, caps E and W, below the start tile
    let ev = s.play_with(
        BOB,
        "CC.2/CFC",
        (0, 1, 1),
        None,
        &[exp(
            meeplab::engine::expansions::crop::CROP_MODE,
            BOB,
            Choice::Flag { yes: false },
        )],
    );
    let removed = ev
        .iter()
        .filter(|e| {
            e.of(meeplab::engine::expansions::crop::CROP_REMOVED)
                .is_some()
        })
        .count();
    assert_eq!(removed, 0, "{ev:?}");
    assert!(s
        .asked(meeplab::engine::expansions::crop::CROP_REMOVE)
        .iter()
        .all(|a| a.player != ALICE));
    assert_eq!(s.game.supply(ALICE), 6);
    let c = s.game.castles();
    assert_eq!(c.len(), 1, "{c:?}");
    assert!(c[0].0 == ALICE && c[0].2, "{c:?}");
    assert_eq!(counters(&s), (1, 0));
}

/// A castle a completed feature reaches, beside a castle that scores more in the same turn
/// (`castles.chain`): Alice's castle A on the start city; Bob's castle B on (0,−2)+(1,−2)
/// (its vicinity holds A's tile (0,−1) and (1,−1)). Bob's BA/CRRR on (1,0) completes the
/// unoccupied small city (1,−1)+(1,0) (4: in both vicinities) and the unoccupied 5-tile road
/// through the start tile (5: in A's only). A scores 5. `highest` (the default: the most
/// that reaches B) pays B A's 5 through the chain; `direct_first` (JCloisterZone) pays B the
/// city's 4, the feature that reached it.
#[test]
fn a_castle_a_feature_reaches_keeps_it_with_direct_first() {
    for (chain, want_b) in [("", 5), ("castles.chain = direct_first\n", 4)] {
        let rules = load_str(
            "castles chain",
            &format!("ruleset \"castles\"\nextends \"rulesets/castles.rules\"\n{chain}"),
        );
        let mut s = Scen::new(&rules, 2);
        castle_on_start_city(&mut s, ALICE);
        s.play(BOB, "BA/C", (0, -2, 1), Some(0)); // cap E, Bob's knight
        let ev = s.play_with(BOB, "BA/C", (1, -2, 3), None, &[build(BOB)]); // cap W
        assert_eq!(built(&ev).len(), 1, "{chain}");
        s.play(BOB, "BA/C", (1, -1, 2), None); // cap S, nobody
        s.play(BOB, "BA/RFr", (-1, 0, 0), None);
        s.play(BOB, "BA/RFr", (-2, 0, 0), None);
        s.play(BOB, "BA/RRR", (-3, 0, 0), None);
        let ev = s.play(BOB, "BA/CRRR", (1, 0, 0), None); // cap N, road W ends
        assert_eq!(
            castle_scores(&ev),
            vec![(ALICE, 5), (BOB, want_b)],
            "{chain}"
        );
        assert_eq!(s.scores(), vec![5, want_b], "{chain}");
        assert_eq!(counters(&s), (2, 2));
    }
}
