//! Gold Mines scenarios (rules.md §2; the Wikicarpedia 1st-edition and C2 pages and the
//! Spanish HiG text in seeds/): the sources' three examples and final-scoring example
//! exactly, then shared tiles, ties across features, unclaimed gold, the RGG wording,
//! player pick against JCloisterZone's automatic pick, farmers and the end of the game.
//!
//! Seats: 0 = RED, 1 = BLUE. The start tile BA/RCr is at (0,0): city N, road W–E.

use crate::scenario_support;

use meeplab::engine::event::ExpansionEvent;
use meeplab::engine::expansions::gold;
use meeplab::engine::{Category, Choice, Event, Phase};
use scenario_support::*;
use std::collections::BTreeSet;

const RED: u8 = 0;
const BLUE: u8 = 1;

// Segments: GO/LRr cloister 0, road 1, big field 2, small field 3. GO/LCc cloister 0,
// city 1, field 2. GO/CcRr city 0, road 1, fields 2-3. BA/RRR roads E 0, S 1, W 2.

fn gold() -> std::sync::Arc<meeplab::engine::Compiled> {
    load("goldmines-hig-2012")
}

fn removed(events: &[Event]) -> Vec<(i32, i32, u32)> {
    events
        .iter()
        .filter_map(|e| {
            e.of(gold::INGOTS_REMOVED)
                .map(|v| (v[1] as i32, v[2] as i32, v[3] as u32))
        })
        .collect()
}

/// Example 1 (C2 page): one ingot on the gold tile just placed, one on the neighbour to
/// its upper left (diagonals allowed); the options are the placed tiles of the 8 around.
#[test]
fn example_1_ingot_on_tile_and_upper_left_neighbour() {
    let mut s = Scen::new(&gold(), 2);
    s.play(RED, "BA/L", (0, 1, 0), None);
    let ev = s.play_with(BLUE, "GO/LRr", (1, 1, 0), None, &[ingot_to(BLUE, 0, 0)]);
    let placed: Vec<(i32, i32)> = ev
        .iter()
        .filter_map(|e| e.of(gold::INGOT_PLACED).map(|v| (v[2] as i32, v[3] as i32)))
        .collect();
    assert_eq!(placed, vec![(1, 1), (0, 0)]);
    let opts: BTreeSet<String> = s.asked(meeplab::engine::expansions::gold::INGOT_PLACE)[0]
        .options
        .iter()
        .map(|c| format!("{c:?}"))
        .collect();
    let want: BTreeSet<String> = [
        Choice::Token {
            at: Some((0, 0, 0)),
        },
        Choice::Token {
            at: Some((0, 1, 0)),
        },
    ]
    .iter()
    .map(|c| format!("{c:?}"))
    .collect();
    assert_eq!(opts, want);
    assert_eq!(s.ingots_at(1, 1), 1);
    assert_eq!(s.ingots_at(0, 0), 1);
    assert_eq!(s.ingots_at(0, 1), 0);
}

/// RED's city: (0,-1) gold tile with RED's knight, ingots on it and the start; BLUE's gold
/// tile at (1,0) puts its second ingot on (0,-1). Three ingots lie on the city's tiles.
fn example_2_position(rules: &std::sync::Arc<meeplab::engine::Compiled>) -> Scen {
    let mut s = Scen::new(rules, 2);
    s.play_with(RED, "GO/CcRr", (0, -1, 3), Some(0), &[ingot_to(RED, 0, 0)]); // city W+S
    s.play_with(BLUE, "GO/LRr", (1, 0, 1), None, &[ingot_to(BLUE, 0, -1)]); // road W–S
    assert_eq!(s.ingots_at(0, -1) + s.ingots_at(0, 0), 3);
    s
}

/// Example 2: RED completes his city and takes the three ingots on its tiles.
#[test]
fn example_2_completer_takes_all_three() {
    let mut s = example_2_position(&gold());
    let ev = s.play(RED, "BA/C", (-1, -1, 1), None);
    assert_eq!(scored(&ev), vec![(Phase::Turn, Category::CITY, 0b01, 6, 3)]);
    let t = taken(&ev);
    assert_eq!(t.len(), 3);
    assert!(t.iter().all(|&(p, _, _)| p == RED));
    assert_eq!(s.game.ingots_held(RED), 3);
    assert_eq!(s.game.ingots_held(BLUE), 0);
    assert_eq!(s.ingots_at(1, 0), 1, "BLUE's tile is not in the city");
    // scoring comes before the gold
    let k = kinds(&ev);
    assert!(
        k.iter().position(|&e| e == "scored") < k.iter().position(|&e| e == "ingot_taken"),
        "{k:?}"
    );
}

/// A road tied between RED and BLUE holding exactly three ingots (on (0,0), (1,0), (1,-1));
/// the last tile is played by `closer`.
fn example_3_position(rules: &std::sync::Arc<meeplab::engine::Compiled>) -> Scen {
    let mut s = Scen::new(rules, 2);
    s.play(RED, "BA/RRR", (-1, 0, 0), Some(0)); // junction, RED thief on its E stub
    s.play(BLUE, "BA/C", (0, -1, 2), None); // closes the start city (nobody's)
    s.play_with(BLUE, "GO/LRr", (1, -1, 0), Some(1), &[ingot_to(BLUE, 0, 0)]); // E–S
    s.play_with(RED, "GO/CcRr", (1, 0, 2), None, &[ingot_to(RED, 0, -1)]); // road N–W
    assert_eq!(
        s.ingots_at(0, 0) + s.ingots_at(1, 0) + s.ingots_at(1, -1),
        3
    );
    assert_eq!(s.ingots_at(0, -1), 1);
    s
}

/// Example 3: RED completes the road; RED and BLUE share it; RED (active) takes first, then
/// BLUE, then RED.
#[test]
fn example_3_tie_draft_red_blue_red() {
    let mut s = example_3_position(&gold());
    let ev = s.play(RED, "BA/RRR", (2, -1, 0), None);
    assert_eq!(scored(&ev), vec![(Phase::Turn, Category::ROAD, 0b11, 5, 5)]);
    assert_eq!(s.scores(), vec![5, 5]);
    let order: Vec<u8> = taken(&ev).iter().map(|t| t.0).collect();
    assert_eq!(order, vec![RED, BLUE, RED]);
    assert_eq!(s.game.ingots_held(RED), 2);
    assert_eq!(s.game.ingots_held(BLUE), 1);
    assert_eq!(s.ingots_at(0, -1), 1, "not a road tile");
}

/// Final scoring example: 102 points and 7 ingots → 7 × 3 = 21 → 123.
#[test]
fn final_example_102_points_7_ingots_is_123() {
    let mut s = Scen::new(&gold(), 2);
    s.game.set_score_for_test(RED, 102);
    s.game.set_ingots_held_for_test(RED, 7);
    let ev = s.finish(&[]);
    assert!(ev.contains(&Event::Expansion(ExpansionEvent::new(
        gold::GOLD_VALUE,
        &[RED as i64, 7, 21]
    ))));
    assert_eq!(s.scores(), vec![123, 0]);
    assert_eq!(s.cat(RED, meeplab::engine::expansions::gold::GOLD), 21);
}

/// The value table at its steps: 1–3 → 1 each, 4–6 → 2, 7–9 → 3, 10+ → 4.
#[test]
fn gold_value_steps() {
    for name in ["goldmines-hig-2012", "goldmines-bb6-2017", "goldmines-rgg"] {
        let rules = load(name);
        let value = &meeplab::engine::expansions::gold::GoldRules::of(&rules.rules)
            .unwrap()
            .value;
        let at = |n| {
            value.eval(
                &meeplab::ruleset::Vars::default()
                    .with(meeplab::engine::expansions::gold::INGOTS_HELD, n),
            )
        };
        let got: Vec<i64> = [1, 3, 4, 6, 7, 9, 10, 16].iter().map(|&n| at(n)).collect();
        assert_eq!(got, vec![1, 3, 8, 12, 21, 27, 40, 64], "{name}");
    }
}

/// RED's city and BLUE's road are completed by one tile and share the start tile, which
/// holds one ingot; (0,-1), RED's city only, holds the other.
fn shared_tile_position(rules: &std::sync::Arc<meeplab::engine::Compiled>) -> Scen {
    let mut s = Scen::new(rules, 2);
    s.play_with(RED, "GO/LCc", (0, -1, 2), Some(1), &[ingot_to(RED, 0, 0)]); // city S+E
    s.play(BLUE, "BA/RRR", (-1, 0, 0), Some(0)); // BLUE thief on the start road
    s.play(BLUE, "BA/Rr", (1, 0, 1), None); // road W–N
    s
}

/// Two features with different owners completed at once, sharing a tile: the active
/// player's pick decides who gets the shared ingot (community reading 6/2013).
#[test]
fn two_features_different_owners_share_a_tile_player_pick() {
    // RED takes the shared ingot first: BLUE is left with nothing
    let mut s = shared_tile_position(&gold());
    let ev = s.play_with(
        RED,
        "BA/CRRR",
        (1, -1, 3),
        None,
        &[pick(RED, 0, 0), pick(RED, 0, -1)],
    );
    assert_eq!(
        scored(&ev),
        vec![
            (Phase::Turn, Category::CITY, 0b01, 6, 3),
            (Phase::Turn, Category::ROAD, 0b10, 4, 4)
        ]
    );
    assert_eq!(s.scores(), vec![6, 4]);
    assert_eq!(taken(&ev), vec![(RED, 0, 0), (RED, 0, -1)]);
    // RED's options were its city's tiles only
    assert_eq!(
        s.asked(meeplab::engine::expansions::gold::INGOT_PICK)[0]
            .options
            .len(),
        2,
        "{:?}",
        s.asked(meeplab::engine::expansions::gold::INGOT_PICK)
    );

    // RED takes its own ingot first: BLUE then takes the shared one
    let mut s = shared_tile_position(&gold());
    let ev = s.play_with(
        RED,
        "BA/CRRR",
        (1, -1, 3),
        None,
        &[pick(RED, 0, -1), pick(BLUE, 0, 0)],
    );
    assert_eq!(taken(&ev), vec![(RED, 0, -1), (BLUE, 0, 0)]);
    assert_eq!((s.game.ingots_held(RED), s.game.ingots_held(BLUE)), (1, 1));
}

/// The same position under JCloisterZone's automatic most-contested pick: RED takes the
/// shared ingot (claimed by both) first, and nobody is asked.
#[test]
fn autopick_differs_from_player_pick() {
    let mut s = shared_tile_position(&load("goldmines-autopick"));
    let ev = s.play(RED, "BA/CRRR", (1, -1, 3), None);
    assert_eq!(taken(&ev), vec![(RED, 0, 0), (RED, 0, -1)]);
    assert_eq!((s.game.ingots_held(RED), s.game.ingots_held(BLUE)), (2, 0));
    assert!(s
        .asked(meeplab::engine::expansions::gold::INGOT_PICK)
        .is_empty());
}

/// A tie across two features completed at once: the city is tied RED/BLUE, the road is
/// BLUE's. One draft over both, from RED: RED may only take from the city's tiles.
#[test]
fn tie_across_two_features_one_draft() {
    let mut s = Scen::new(&gold(), 2);
    s.play_with(RED, "GO/LCc", (0, -1, 2), Some(1), &[ingot_to(RED, 0, 0)]); // city S+E
    s.play(BLUE, "BA/RRR", (-1, 0, 0), Some(0)); // BLUE thief
    s.play_with(BLUE, "GO/LRr", (1, 0, 2), None, &[ingot_to(BLUE, 0, 0)]); // road W–N
    s.play(BLUE, "BA/L", (0, -2, 0), None);
    s.play(BLUE, "BA/L", (2, 0, 0), None);
    s.play(BLUE, "BA/C", (2, -1, 3), Some(0)); // BLUE knight, cap facing W
    s.play(RED, "BA/C", (1, -2, 2), None); // cap facing S
    assert_eq!(
        (s.ingots_at(0, -1), s.ingots_at(0, 0), s.ingots_at(1, 0)),
        (1, 2, 1)
    );
    let ev = s.play_with(
        RED,
        "BA/CccR",
        (1, -1, 0),
        None,
        &[
            pick(RED, 0, -1),
            pick(BLUE, 1, 0),
            pick(RED, 0, 0),
            pick(BLUE, 0, 0),
        ],
    );
    assert_eq!(
        scored(&ev),
        vec![
            (Phase::Turn, Category::CITY, 0b11, 10, 5),
            (Phase::Turn, Category::ROAD, 0b10, 4, 4)
        ]
    );
    assert_eq!(s.scores(), vec![10, 14]);
    assert_eq!(
        taken(&ev),
        vec![(RED, 0, -1), (BLUE, 1, 0), (RED, 0, 0), (BLUE, 0, 0)]
    );
    let picks = s.asked(meeplab::engine::expansions::gold::INGOT_PICK);
    let red_first: Vec<Choice> = picks[0].options.clone();
    assert!(!red_first.contains(&Choice::Token {
        at: Some((1, 0, 0))
    }));
    assert!(picks[1].options.contains(&Choice::Token {
        at: Some((1, 0, 0))
    }));
    assert_eq!(s.game.ingots_on_board(), 0);
}

/// A completed feature nobody occupies hands out nothing: its gold stays, and a later
/// feature through the same tile collects it (Wikicarpedia footnote; JCZ).
#[test]
fn unoccupied_feature_keeps_gold_for_a_later_feature() {
    let mut s = Scen::new(&gold(), 2);
    s.play_with(RED, "GO/LCc", (0, -1, 2), None, &[ingot_to(RED, 0, 0)]);
    let ev = s.play(BLUE, "BA/C", (1, -1, 3), None); // completes the empty city
    assert!(scored(&ev).is_empty());
    assert!(taken(&ev).is_empty());
    assert!(removed(&ev).is_empty());
    assert_eq!((s.ingots_at(0, -1), s.ingots_at(0, 0)), (1, 1));
    s.play(RED, "BA/RRR", (-1, 0, 0), Some(0));
    let ev = s.play(BLUE, "BA/RRR", (1, 0, 0), None);
    assert_eq!(scored(&ev), vec![(Phase::Turn, Category::ROAD, 0b01, 3, 3)]);
    assert_eq!(taken(&ev), vec![(RED, 0, 0)]);
    assert_eq!(s.ingots_at(0, -1), 1);
}

/// The `gold.unclaimed = removed` override: the empty city's gold leaves the game.
#[test]
fn unclaimed_removed_override() {
    let rules = load_str(
        "unclaimed-removed",
        "ruleset \"x\"\nextends \"rulesets/goldmines-hig-2012.rules\"\ngold.unclaimed = removed\n",
    );
    let mut s = Scen::new(&rules, 2);
    s.play_with(RED, "GO/LCc", (0, -1, 2), None, &[ingot_to(RED, 0, 0)]);
    let ev = s.play(BLUE, "BA/C", (1, -1, 3), None);
    let mut r = removed(&ev);
    r.sort();
    assert_eq!(r, vec![(0, -1, 1), (0, 0, 1)]);
    s.play(RED, "BA/RRR", (-1, 0, 0), Some(0));
    let ev = s.play(BLUE, "BA/RRR", (1, 0, 0), None);
    assert!(taken(&ev).is_empty());
    assert_eq!(s.game.ingots_removed(), 2);
}

/// `gold.unclaimed = removed` when an unoccupied feature and an occupied one complete in the
/// same turn and share a gold tile: the turn's claims come first, so RED's road takes both
/// ingots (on the gold tile and on the start), and only gold no claim takes would go.
#[test]
fn unclaimed_removed_waits_for_the_turns_claims() {
    let rules = load_str(
        "unclaimed-removed",
        "ruleset \"x\"\nextends \"rulesets/goldmines-hig-2012.rules\"\ngold.unclaimed = removed\n",
    );
    let mut s = Scen::new(&rules, 2);
    s.play(RED, "BA/RRR", (-1, 0, 0), Some(0)); // junction, RED thief on the road east
                                                // road W–E through (1,0), city N–S crossing it; ingots on (1,0) and the start
    s.play_with(BLUE, "GO/CRcr", (1, 0, 1), None, &[ingot_to(BLUE, 0, 0)]);
    s.play(BLUE, "BA/C", (1, 1, 0), None); // caps the city's south end
    s.play(BLUE, "BA/Rr", (2, 0, 1), None); // road W–N
    s.play(BLUE, "BA/Rr", (2, -1, 0), None); // road S–W
    assert_eq!(s.ingots_at(1, 0) + s.ingots_at(0, 0), 2);
    // one tile closes RED's road (junction) and the unoccupied city (cap) at once
    let ev = s.play(RED, "BA/CRRR", (1, -1, 2), None);
    let mut cats: Vec<Category> = scored(&ev).iter().map(|x| x.1).collect();
    cats.sort_by_key(|c| format!("{c:?}"));
    assert_eq!(cats, vec![Category::ROAD], "the city has no one to pay");
    let mut t = taken(&ev);
    t.sort();
    assert_eq!(t, vec![(RED, 0, 0), (RED, 1, 0)]);
    assert!(
        removed(&ev).is_empty(),
        "no gold is left for the empty city"
    );
    assert_eq!(s.game.ingots_held(RED), 2);
    assert_eq!(s.game.ingots_removed(), 0);
}

/// RGG wording: one ingot per scoring player per gold-bearing feature. Example 3's tied
/// road: RED one, BLUE one, the third stays on its tile.
#[test]
fn rgg_one_per_feature_leftover_stays() {
    let mut s = example_3_position(&load("goldmines-rgg"));
    let ev = s.play_with(
        RED,
        "BA/RRR",
        (2, -1, 0),
        None,
        &[pick(RED, 1, 0), pick(BLUE, 1, -1)],
    );
    assert_eq!(taken(&ev), vec![(RED, 1, 0), (BLUE, 1, -1)]);
    assert!(removed(&ev).is_empty());
    assert_eq!(s.ingots_at(0, 0), 1);
    // example 2 under RGG: RED takes one of the three
    let mut s = example_2_position(&load("goldmines-rgg"));
    let ev = s.play(RED, "BA/C", (-1, -1, 1), None);
    assert_eq!(taken(&ev).len(), 1);
    assert_eq!(s.game.ingots_on_board(), 3);
}

/// RGG with leftovers removed (an override): the third ingot leaves the game.
#[test]
fn rgg_leftover_removed_override() {
    let rules = load_str(
        "rgg-removed",
        "ruleset \"x\"\nextends \"rulesets/goldmines-rgg.rules\"\n\
         gold.split = one_per_feature(leftover: removed)\n",
    );
    let mut s = example_3_position(&rules);
    let ev = s.play_with(
        RED,
        "BA/RRR",
        (2, -1, 0),
        None,
        &[pick(RED, 1, 0), pick(BLUE, 1, -1)],
    );
    assert_eq!(taken(&ev), vec![(RED, 1, 0), (BLUE, 1, -1)]);
    assert_eq!(removed(&ev), vec![(0, 0, 1)]);
    assert_eq!(s.ingots_at(0, 0), 0);
    assert_eq!(s.ingots_at(0, -1), 1, "not on the road: stays");
}

/// Farmers never get gold, and ingots still on tiles at the end are removed, not scored.
#[test]
fn farmers_get_no_gold_and_leftover_gold_is_removed_at_the_end() {
    let mut s = Scen::new(&gold(), 2);
    s.play_with(RED, "GO/LCc", (0, -1, 2), Some(1), &[ingot_to(RED, 0, 0)]); // knight
    s.play_with(BLUE, "GO/LRr", (1, 0, 1), Some(2), &[ingot_to(BLUE, 0, 0)]); // farmer
    let ev = s.play(RED, "BA/C", (1, -1, 3), None); // completes RED's city
    assert_eq!(scored(&ev), vec![(Phase::Turn, Category::CITY, 0b01, 6, 3)]);
    assert_eq!(s.game.ingots_held(RED), 3);
    assert_eq!(s.ingots_at(1, 0), 1);
    let ev = s.finish(&[]);
    assert_eq!(
        scored(&ev),
        vec![(Phase::Final, Category::FIELD, 0b10, 3, 1)]
    );
    assert!(taken(&ev).is_empty());
    assert_eq!(removed(&ev), vec![(1, 0, 1)]);
    assert_eq!(s.game.ingots_held(BLUE), 0);
    assert_eq!(s.scores(), vec![6 + 3, 3]);
    assert_eq!(s.cat(RED, meeplab::engine::expansions::gold::GOLD), 3);
    assert_eq!(s.game.outcome().counters.get(gold::INGOTS_ON_BOARD), 1);
}

/// Incomplete features hand out no gold at the end (canonical `at_end = discard`).
#[test]
fn incomplete_feature_gold_is_discarded_at_the_end() {
    let mut s = example_2_position(&gold());
    let ev = s.finish(&[]);
    assert_eq!(
        scored(&ev),
        vec![(Phase::Final, Category::CITY, 0b01, 2, 2)]
    );
    assert!(taken(&ev).is_empty());
    assert_eq!(s.game.ingots_removed(), 4);
    assert_eq!(s.scores(), vec![2, 0]);
}
