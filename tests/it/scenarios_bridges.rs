//! Bridges scenarios (Bridges, Castles & Bazaars; `docs/src/rules/bcb.md` §2, module
//! `engine/expansions/bridges.rs`). Each test names the rule it follows:
//!
//! - [C2] the 2nd-edition rulebook (Wikicarpedia, papageek's summary): after placing the tile
//!   a player may build one bridge, on the tile just placed or on an orthogonal neighbour,
//!   both ends on field edges, N–S or W–E; a follower may go on a bridge of the tile placed;
//!   the bridge is a road segment and does not split the field under it (bcb.md §2.2, §2.3).
//! - [C1] the 1st edition (Order of Play, `showC1`): the bridge may be built at any time of
//!   the turn (`timing = any`), so also after the follower (§2.3, §2.5).
//! - [OOP] the Order of Play: a tile may be placed where it fits only with a bridge built in
//!   the same turn, on it or on the neighbour its road meets; that bridge must be built
//!   (§2.3).
//! - [SUPPLY] both rulebooks and JCloisterZone: 3 bridges a player with 2–4 players, 2 with
//!   5–6 (§2.1).
//! - [JCZ] JCloisterZone (`PlacementsMixin.isBridgePlacementAllowed`, `Road.getStructurePoints`):
//!   each end faces an empty square (or, for meeplab, a road), one bridge a tile, one a turn;
//!   a road counts its distinct tiles, so a tile crossed by its printed road and its bridge
//!   counts once (§2.2, §2.4); `where = placed` is its "bridge only on the tile placed" mode.
//!
//! Not here: a road completed by a bridge on a neighbour that does not touch the placed tile.
//! Such a bridge's ends face squares filled before this turn, whose edges towards it matched
//! its field edges (fields), so by the end rule above neither end can meet a road: the
//! bridge can extend a road but never close one. The closest cases are tested instead: a
//! needed bridge on the placed tile that closes a road, and a road through a neighbour's
//! bridge closed a turn later. Nor the Order of Play's "you may choose to discard" a tile
//! that fits only with a bridge (JCZ: `PASS`): the engine has no discard option.
//!
//! Seats: 0 = ALICE, 1 = BOB. The start tile BA/RCr is at (0,0) rot 0 (city cap N, road W–E,
//! field S). y grows southward; rotations are clockwise quarter turns (board side s shows the
//! tile's side s − rot). Bridge axes are board axes: 0 north–south, 1 west–east.
//!
//! Segment indices (features in file order, a bridge's road last): BA/RFr road W–E 0, field
//! N 1, field S 2, bridge 3; BA/L cloister 0, field 1, bridge 2; BA/LR cloister 0, road S 1,
//! field 2; BA/Rr road 0, fields 1 and 2.

use crate::scenario_support;

use meeplab::engine::expansions::bridges;
use meeplab::engine::{Category, Choice, Compiled, DecisionKind, Event, FollowerKind, Phase};
use meeplab::tiles::FeatureKind;
use scenario_support::*;
use std::collections::BTreeSet;
use std::sync::Arc;

const ALICE: u8 = 0;
const BOB: u8 = 1;

const NS: u8 = 0;
const WE: u8 = 1;

/// The base game with bridges (the rulebooks' defaults) and `extra` option lines.
fn with_bridges(extra: &str) -> Arc<Compiled> {
    load_str(
        "bridges",
        &format!("ruleset \"base + bridges\"\nextends \"rulesets/base.rules\"\n{extra}"),
    )
}

/// The base game with bridges, every option at its default.
fn rules() -> Arc<Compiled> {
    with_bridges("bridges.supply = 3\n")
}

/// `player` builds the bridge on (x, y) along `axis`.
fn bridge(player: u8, x: i32, y: i32, axis: u8) -> Exp {
    exp(
        bridges::BRIDGE,
        player,
        Choice::Token {
            at: Some((x, y, axis)),
        },
    )
}

/// `player` builds no bridge.
fn no_bridge(player: u8) -> Exp {
    exp(bridges::BRIDGE, player, Choice::Token { at: None })
}

/// `BRIDGE_BUILT` events as (player, x, y, axis).
fn built(events: &[Event]) -> Vec<(u8, i32, i32, u8)> {
    events
        .iter()
        .filter_map(|e| {
            e.of(bridges::BRIDGE_BUILT)
                .map(|v| (v[1] as u8, v[2] as i32, v[3] as i32, v[4] as u8))
        })
        .collect()
}

/// The options of the last bridge decision, as (x, y, axis) or `None`.
fn last_bridge_options(s: &Scen) -> Vec<Option<(i32, i32, u8)>> {
    let asked = s.asked(bridges::BRIDGE);
    let last = asked.last().expect("a bridge decision");
    last.options
        .iter()
        .map(|c| match *c {
            Choice::Token { at } => at,
            other => panic!("not a bridge option: {other:?}"),
        })
        .collect()
}

/// The placements `player` would be offered for tile `id` now (on a copy of the game).
fn placements(s: &Scen, player: u8, id: &str) -> BTreeSet<(i32, i32, u8)> {
    let mut g = s.game.clone();
    let mut ev: Vec<Event> = Vec::new();
    g.begin_turn(s.tile(id), player, &mut ev).expect("a turn");
    let n = g.option_count(DecisionKind::PLACEMENT);
    let set: BTreeSet<_> = (0..n)
        .map(|i| match g.choice(DecisionKind::PLACEMENT, i) {
            Choice::Place { x, y, rot } => (x, y, rot),
            other => panic!("not a placement: {other:?}"),
        })
        .collect();
    assert_eq!(set.len(), n, "no placement offered twice");
    set
}

/// The id of the tile type now at (x, y).
fn type_at(s: &Scen, x: i32, y: i32) -> String {
    let pidx = s.game.tile_at(x, y).expect("a tile");
    let t = s.game.placed_tiles()[pidx].tile;
    s.game.rules().rules.tiles[t as usize].id.clone()
}

fn counters(s: &Scen) -> (u32, u32) {
    let o = s.game.outcome();
    (
        o.counters.get(bridges::BUILT),
        o.counters.get(bridges::NEEDED),
    )
}

/// [C2] A bridge on the tile placed, north–south: BA/RFr on (1,0) (road W–E, fields N and
/// S, both ends facing empty squares) is offered exactly that bridge (the start's axes end on
/// a city or roads); the tile becomes BA/RFr with a road N–S, the supply goes 3 → 2.
#[test]
fn bridge_on_the_placed_tile_north_south() {
    let mut s = Scen::new(&rules(), 2);
    assert_eq!(s.game.bridges_left(ALICE), 3);
    let ev = s.play_with(ALICE, "BA/RFr", (1, 0, 0), None, &[bridge(ALICE, 1, 0, NS)]);
    assert_eq!(last_bridge_options(&s), vec![None, Some((1, 0, NS))]);
    assert_eq!(built(&ev), vec![(ALICE, 1, 0, NS)]);
    assert_eq!(s.game.bridges(), vec![(ALICE, (1, 0), NS)]);
    assert_eq!(type_at(&s, 1, 0), "BA/RFr+bridge-NS");
    assert_eq!(s.game.bridges_left(ALICE), 2);
    assert_eq!(s.game.bridges_left(BOB), 3);
    assert_eq!(counters(&s), (1, 0));
    assert!(scored(&ev).is_empty());
}

/// [C2] A bridge west–east on a turned tile: BA/RFr turned once on (1,1) runs N–S under the
/// road of BA/Rr; its W–E axis (its own N–S, fields) takes the bridge, both ends facing empty
/// squares; its own W–E (now N–S, roads) is not offered.
#[test]
fn bridge_west_east_on_a_turned_tile() {
    let mut s = Scen::new(&rules(), 2);
    s.play(ALICE, "BA/Rr", (1, 0, 0), None); // road W–S: nothing to bridge
    assert!(s.asked(bridges::BRIDGE).is_empty(), "{:?}", s.log);
    let ev = s.play_with(BOB, "BA/RFr", (1, 1, 1), None, &[bridge(BOB, 1, 1, WE)]);
    assert_eq!(last_bridge_options(&s), vec![None, Some((1, 1, WE))]);
    assert_eq!(built(&ev), vec![(BOB, 1, 1, WE)]);
    // the tile's own frame: its N–S axis lies W–E on the board
    assert_eq!(type_at(&s, 1, 1), "BA/RFr+bridge-NS");
    assert_eq!(s.game.bridges_left(BOB), 2);
    // BA/LR turned once (road W) east of the start: its own W–E (fields) lies N–S
    let mut s = Scen::new(&rules(), 2);
    s.play_with(ALICE, "BA/LR", (1, 0, 1), None, &[bridge(ALICE, 1, 0, NS)]);
    assert_eq!(last_bridge_options(&s), vec![None, Some((1, 0, NS))]);
    assert_eq!(type_at(&s, 1, 0), "BA/LR+bridge-WE");
}

/// [C2] A follower may go on the bridge built this turn on the tile placed, "as if it were a
/// road": Alice's follower on the N–S bridge of (1,0); two road ends (BA/LR) close it → a
/// 3-tile road, 3 points, the follower comes home.
#[test]
fn follower_on_the_bridge_road_the_same_turn() {
    let mut s = Scen::new(&rules(), 2);
    let ev = s.play_with(
        ALICE,
        "BA/RFr",
        (1, 0, 0),
        Some(3),
        &[bridge(ALICE, 1, 0, NS)],
    );
    let placed: Vec<_> = ev
        .iter()
        .filter_map(|e| match *e {
            Event::FollowerPlaced {
                player,
                x,
                y,
                segment,
                feature,
                ..
            } => Some((player, x, y, segment, feature)),
            _ => None,
        })
        .collect();
    assert_eq!(placed, vec![(ALICE, 1, 0, 3, FeatureKind::Road)]);
    let follower_options = &s.asked(DecisionKind::FOLLOWER)[0].options;
    assert!(
        follower_options.contains(&Choice::Follower {
            segment: Some(3),
            kind: FollowerKind::PLAIN
        }),
        "{follower_options:?}"
    );
    s.play(BOB, "BA/LR", (1, -1, 0), None); // road S meets the bridge's N end
    assert_eq!(s.scores(), vec![0, 0]);
    let ev = s.play(BOB, "BA/LR", (1, 1, 2), None); // road N meets its S end
    assert_eq!(
        scored(&ev),
        vec![(Phase::Turn, Category::ROAD, 0b01, 3, 3)],
        "{ev:?}"
    );
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::FollowerReturned {
            player: ALICE,
            x: 1,
            y: 0,
            segment: 3,
            ..
        }
    )));
    assert_eq!(s.scores(), vec![3, 0]);
    assert_eq!(s.game.supply(ALICE), 7);
}

/// [C2] "on the tile just placed or on a tile orthogonally adjacent to it" (`where =
/// adjacent`, the rulebooks' default): Bob's BA/RFr on (2,0) is offered its own bridge and
/// one on Alice's BA/RFr at (1,0) (both ends on empty squares) and builds the neighbour's.
/// [JCZ] `where = placed` offers only the tile placed.
#[test]
fn bridge_on_a_neighbour_and_where_placed_refuses_it() {
    let mut s = Scen::new(&rules(), 2);
    s.play_with(ALICE, "BA/RFr", (1, 0, 0), None, &[no_bridge(ALICE)]);
    assert_eq!(last_bridge_options(&s), vec![None, Some((1, 0, NS))]);
    let ev = s.play_with(BOB, "BA/RFr", (2, 0, 0), None, &[bridge(BOB, 1, 0, NS)]);
    assert_eq!(
        last_bridge_options(&s),
        vec![None, Some((2, 0, NS)), Some((1, 0, NS))]
    );
    assert_eq!(built(&ev), vec![(BOB, 1, 0, NS)]);
    assert_eq!(type_at(&s, 1, 0), "BA/RFr+bridge-NS");
    assert_eq!(type_at(&s, 2, 0), "BA/RFr");
    assert_eq!(
        (s.game.bridges_left(ALICE), s.game.bridges_left(BOB)),
        (3, 2)
    );
    assert_eq!(counters(&s), (1, 0));

    let mut s = Scen::new(&with_bridges("bridges.where = placed\n"), 2);
    s.play_with(ALICE, "BA/RFr", (1, 0, 0), None, &[no_bridge(ALICE)]);
    s.play_with(BOB, "BA/RFr", (2, 0, 0), None, &[no_bridge(BOB)]);
    assert_eq!(last_bridge_options(&s), vec![None, Some((2, 0, NS))]);
}

/// [JCZ] Each end of a bridge faces an empty square (or a road): BA/L on (1,1) below Alice's
/// BA/RFr may not take a N–S bridge (its N end faces the field of (1,0)), nor may (1,0) take
/// one (its S end faces the new tile's field); W–E on (1,1) is the only bridge offered.
#[test]
fn bridge_end_facing_a_placed_tile_is_illegal() {
    let mut s = Scen::new(&rules(), 2);
    s.play_with(ALICE, "BA/RFr", (1, 0, 0), None, &[no_bridge(ALICE)]);
    s.play_with(BOB, "BA/L", (1, 1, 0), None, &[no_bridge(BOB)]);
    assert_eq!(last_bridge_options(&s), vec![None, Some((1, 1, WE))]);
}

/// [OOP] A tile that fits only with a bridge on itself: BA/L (fields all round) east of the
/// start, whose road meets its W field, is a placement option; placing it builds the W–E
/// bridge with no decision, takes a bridge from the supply and counts as `bridges_needed`.
/// [JCZ] One bridge a turn (no other is offered, though the N–S axis of (1,0) ends on empty
/// squares) and one a tile (Bob's next tile on (2,0) is not offered (1,0)'s N–S).
#[test]
fn placement_fitting_only_with_its_own_bridge_builds_it() {
    let mut s = Scen::new(&rules(), 2);
    assert!(placements(&s, ALICE, "BA/L").contains(&(1, 0, 0)));
    let ev = s.play(ALICE, "BA/L", (1, 0, 0), None);
    assert_eq!(built(&ev), vec![(ALICE, 1, 0, WE)]);
    assert!(
        s.asked(bridges::BRIDGE).is_empty(),
        "no decision for a needed bridge, and no second bridge: {:?}",
        s.asked(bridges::BRIDGE)
    );
    assert_eq!(type_at(&s, 1, 0), "BA/L+bridge-WE");
    assert_eq!(s.game.bridges_left(ALICE), 2);
    assert_eq!(counters(&s), (1, 1));
    s.play_with(BOB, "BA/RFr", (2, 0, 0), None, &[no_bridge(BOB)]);
    assert_eq!(last_bridge_options(&s), vec![None, Some((2, 0, NS))]);
}

/// [OOP] A tile that fits only with a bridge on the neighbour its road meets: BA/LR on
/// (1,−1), road S against the N field of Alice's BA/RFr at (1,0), builds the N–S bridge on
/// (1,0) for Bob with no decision. Bob's follower on the road; a road end on (1,1) closes
/// (1,−1)–(1,0)–(1,1) → Bob 3.
#[test]
fn placement_fitting_only_with_a_bridge_on_the_neighbour_builds_it() {
    let mut s = Scen::new(&rules(), 2);
    s.play_with(ALICE, "BA/RFr", (1, 0, 0), None, &[no_bridge(ALICE)]);
    let offered = placements(&s, BOB, "BA/LR");
    assert!(offered.contains(&(1, -1, 0)), "{offered:?}");
    let ev = s.play(BOB, "BA/LR", (1, -1, 0), Some(1));
    assert_eq!(built(&ev), vec![(BOB, 1, 0, NS)]);
    assert_eq!(s.asked(bridges::BRIDGE).len(), 1, "only Alice's turn asked");
    assert_eq!(type_at(&s, 1, 0), "BA/RFr+bridge-NS");
    assert_eq!(type_at(&s, 1, -1), "BA/LR");
    assert_eq!(
        (s.game.bridges_left(ALICE), s.game.bridges_left(BOB)),
        (3, 2)
    );
    assert_eq!(counters(&s), (1, 1));
    let ev = s.play(ALICE, "BA/LR", (1, 1, 2), None);
    assert_eq!(scored(&ev), vec![(Phase::Turn, Category::ROAD, 0b10, 3, 3)]);
    assert_eq!(s.scores(), vec![0, 3]);
}

/// [OOP] [SUPPLY] The PLACEMENT decision's options with and without bridges left: at the
/// start BA/L fits plainly only south of the start (1 option) and with a bridge east and
/// west of it (3 in all). With `supply = 1`, once Alice has built hers she is offered only
/// the plain placements while Bob still has the bridge ones.
#[test]
fn placement_options_with_and_without_bridges_left() {
    let base = load("base");
    let s = Scen::new(&base, 2);
    assert_eq!(
        placements(&s, ALICE, "BA/L"),
        [(0, 1, 0)].into_iter().collect()
    );
    let mut s = Scen::new(&with_bridges("bridges.supply = 1\n"), 2);
    assert_eq!(
        placements(&s, ALICE, "BA/L"),
        [(0, 1, 0), (1, 0, 0), (-1, 0, 0)].into_iter().collect()
    );
    s.play(ALICE, "BA/L", (1, 0, 0), None);
    assert_eq!(s.game.bridges_left(ALICE), 0);
    // plain: S of the start, N and S of (1,0); with a bridge: W of the start, E of (1,0)
    let plain: BTreeSet<_> = [(0, 1, 0), (1, -1, 0), (1, 1, 0)].into_iter().collect();
    let bridged: BTreeSet<_> = [(-1, 0, 0), (2, 0, 0)].into_iter().collect();
    assert_eq!(placements(&s, ALICE, "BA/L"), plain);
    assert_eq!(
        placements(&s, BOB, "BA/L"),
        plain.union(&bridged).copied().collect()
    );
    // with no bridge left, no optional one either
    s.play(ALICE, "BA/RFr", (2, 0, 0), None);
    assert!(s.asked(bridges::BRIDGE).is_empty(), "{:?}", s.log);
    // the PLACEMENT decision as asked, without a bridge left: plain only, (0,1), (1,±1),
    // (2,±1); not E of (2,0) nor W of the start (road ends against BA/L's fields)
    s.play(ALICE, "BA/L", (1, 1, 0), None);
    let asked = s.asked(DecisionKind::PLACEMENT);
    assert_eq!(asked.last().map(|a| a.options.len()), Some(5));
}

/// [SUPPLY] 3 bridges a player with 2–4 players, 2 with 5–6, in the base game with bridges
/// and in both BC&B rulesets; with 5 players a seat that built 2 has no bridge placement
/// left.
#[test]
fn supply_3_with_2_to_4_players_2_with_5_or_6() {
    for rules in [rules(), load("bcb-c1"), load("bcb-c2")] {
        for players in 2..=6u8 {
            let s = Scen::new(&rules, players);
            let want = if players <= 4 { 3 } else { 2 };
            for p in 0..players {
                assert_eq!(s.game.bridges_left(p), want, "{players} players, seat {p}");
            }
        }
    }
    let mut s = Scen::new(&rules(), 5);
    s.play(ALICE, "BA/L", (1, 0, 0), None); // needs a bridge
    s.play(ALICE, "BA/L", (-1, 0, 0), None); // needs a bridge
    assert_eq!(s.game.bridges_left(ALICE), 0);
    assert_eq!(s.game.bridges_left(BOB), 2);
    let plain = placements(&s, ALICE, "BA/L");
    assert!(!plain.contains(&(2, 0, 0)) && !plain.contains(&(-2, 0, 0)));
    let bob = placements(&s, BOB, "BA/L");
    assert!(
        bob.contains(&(2, 0, 0)) && bob.contains(&(-2, 0, 0)),
        "{bob:?}"
    );
}

/// [JCZ] A road that uses both a tile's printed road and its bridge counts the tile once
/// (`Road.getStructurePoints`: distinct positions): Alice's road from the start runs E over
/// (1,0)'s printed road, loops N and W back and S over (1,0)'s bridge. Closed by road ends
/// at (1,1) and (−1,0): 7 distinct tiles (8 road segments) → 7 points.
#[test]
fn road_over_a_tiles_printed_road_and_its_bridge_counts_it_once() {
    let mut s = Scen::new(&rules(), 2);
    s.play_with(
        ALICE,
        "BA/RFr",
        (1, 0, 0),
        Some(0),
        &[bridge(ALICE, 1, 0, NS)],
    );
    s.play(BOB, "BA/Rr", (2, 0, 1), None); // W–N
    s.play(ALICE, "BA/Rr", (2, -1, 0), None); // S–W
    s.play(BOB, "BA/Rr", (1, -1, 3), None); // E–S, into the bridge's N end
    s.play(ALICE, "BA/LR", (1, 1, 2), None); // closes the bridge's S end
    assert_eq!(s.scores(), vec![0, 0]);
    let ev = s.play(BOB, "BA/LR", (-1, 0, 3), None); // closes the start's W end
    assert_eq!(
        scored(&ev),
        vec![(Phase::Turn, Category::ROAD, 0b01, 7, 7)],
        "{ev:?}"
    );
    assert_eq!(s.scores(), vec![7, 0]);
}

/// [C2] "Bridges do not separate cities or fields": BA/L east of the start, placed with its
/// needed W–E bridge, keeps one field, which joins the start's field N of the road (touching
/// its city) and S of it. Alice's farmer on BA/L at (0,1) (the start's S field) is in the
/// same field as (1,0)'s, so Bob may not put a farmer there; the start city is closed (BA/C
/// at (0,−1)) → at the end Alice's field touches one completed city: 3 points.
#[test]
fn field_under_a_bridge_stays_one_field() {
    let mut s = Scen::new(&rules(), 2);
    s.play(ALICE, "BA/L", (0, 1, 0), Some(1)); // farmer in the start's S field
    s.play(BOB, "BA/L", (1, 0, 0), None); // needs its W–E bridge
    let options = &s.asked(DecisionKind::FOLLOWER)[1].options;
    assert!(
        !options.contains(&Choice::Follower {
            segment: Some(1),
            kind: FollowerKind::PLAIN
        }),
        "the field is Alice's: {options:?}"
    );
    assert!(options.contains(&Choice::Follower {
        segment: Some(2),
        kind: FollowerKind::PLAIN
    }));
    s.play(ALICE, "BA/C", (0, -1, 2), None); // closes the start city (nobody in it)
    assert_eq!(s.scores(), vec![0, 0]);
    let ev = s.finish(&[]);
    let fields: Vec<_> = scored(&ev)
        .into_iter()
        .filter(|t| t.1 == Category::FIELD)
        .collect();
    assert_eq!(fields.len(), 1, "{fields:?}");
    assert_eq!(
        (fields[0].0, fields[0].2, fields[0].3),
        (Phase::Final, 0b01, 3)
    );
    assert_eq!(s.scores(), vec![3, 0]);
}

/// [C1] `timing = any` (bcb-c1): declined before the follower, the bridge is offered again
/// after it (before the scoring), and built then. [C2] `before_follower` (bcb-c2): one offer
/// only. Built at the first offer, C1 does not offer a second (one a turn).
#[test]
fn timing_any_offers_again_after_the_follower_before_follower_not() {
    let mut s = Scen::new(&load("bcb-c1"), 2);
    let ev = s.play_with(
        ALICE,
        "BA/RFr",
        (1, 0, 0),
        Some(0),
        &[no_bridge(ALICE), bridge(ALICE, 1, 0, NS)],
    );
    let kinds: Vec<_> = s.log.iter().map(|a| a.kind).collect();
    assert_eq!(
        kinds,
        vec![
            DecisionKind::PLACEMENT,
            bridges::BRIDGE,
            DecisionKind::FOLLOWER,
            bridges::BRIDGE
        ]
    );
    let follower_options = &s.asked(DecisionKind::FOLLOWER)[0].options;
    assert!(
        !follower_options.contains(&Choice::Follower {
            segment: Some(3),
            kind: FollowerKind::PLAIN
        }),
        "no bridge yet when the follower is placed"
    );
    assert_eq!(built(&ev), vec![(ALICE, 1, 0, NS)]);
    assert_eq!(s.game.bridges_left(ALICE), 2);
    // built at the first offer: not asked again
    s.play_with(BOB, "BA/RFr", (2, 0, 0), None, &[bridge(BOB, 2, 0, NS)]);
    assert_eq!(s.asked(bridges::BRIDGE).len(), 3);

    let mut s = Scen::new(&load("bcb-c2"), 2);
    s.play_with(ALICE, "BA/RFr", (1, 0, 0), Some(0), &[no_bridge(ALICE)]);
    assert_eq!(s.asked(bridges::BRIDGE).len(), 1);
    assert_eq!(s.game.bridges_left(ALICE), 3);
    assert!(s.game.bridges().is_empty());
}

/// [OOP] A needed bridge closes a road and the road scores that turn: BA/L placed between
/// the start's road end (W) and BA/LR's road end (E) fits only with its W–E bridge, which
/// joins (−1,0)–(0,0)–(1,0)–(2,0), both ends at cloister road ends → Bob's follower on
/// (−1,0) scores 4 in Alice's turn and comes home.
#[test]
fn needed_bridge_closing_a_road_scores_it_that_turn() {
    let mut s = Scen::new(&rules(), 2);
    s.play(BOB, "BA/LR", (-1, 0, 3), Some(1)); // road E, Bob on it
    s.play(ALICE, "BA/L", (0, 1, 0), None);
    s.play(BOB, "BA/L", (1, 1, 0), None);
    s.play(ALICE, "BA/L", (2, 1, 0), None);
    s.play(BOB, "BA/LR", (2, 0, 1), None); // road W, facing (1,0)
    assert_eq!(s.scores(), vec![0, 0]);
    assert!(placements(&s, ALICE, "BA/L").contains(&(1, 0, 0)));
    let ev = s.play(ALICE, "BA/L", (1, 0, 0), None);
    assert_eq!(built(&ev), vec![(ALICE, 1, 0, WE)]);
    assert_eq!(
        scored(&ev),
        vec![(Phase::Turn, Category::ROAD, 0b10, 4, 4)],
        "{ev:?}"
    );
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::FollowerReturned {
            player: BOB,
            x: -1,
            y: 0,
            ..
        }
    )));
    assert_eq!(s.scores(), vec![0, 4]);
    assert_eq!(s.game.supply(BOB), 7);
    assert_eq!(counters(&s), (1, 1));
}

/// [JCZ] `where = placed` restricts only the optional bridge: a placement that needs a
/// bridge on the neighbour is still offered and builds it (JCZ's mandatory bridge on the
/// adjacent tile).
#[test]
fn where_placed_still_builds_a_needed_bridge_on_the_neighbour() {
    let mut s = Scen::new(&with_bridges("bridges.where = placed\n"), 2);
    s.play_with(ALICE, "BA/RFr", (1, 0, 0), None, &[no_bridge(ALICE)]);
    let ev = s.play(BOB, "BA/LR", (1, -1, 0), None);
    assert_eq!(built(&ev), vec![(BOB, 1, 0, NS)]);
    assert_eq!(counters(&s), (1, 1));
}

/// [JCZ] A bridged tile keeps its tile's marks: BB/CFR! (`castle-base="false"`) turned so its
/// city cap closes the start city, with a W–E bridge across its fields (bcb-c1), still offers
/// no castle; Alice's knight scores the 2-tile city, 4. BB/CFR.b in the same place offers
/// one (declined here: the city scores 4; its bazaar's auction, every answer 0, moves no points).
#[test]
fn bridged_tile_keeps_its_no_castle_mark() {
    use meeplab::engine::expansions::castles;
    let mut s = Scen::new(&load("bcb-c1"), 2);
    s.play_with(
        ALICE,
        "BB/CFR!",
        (0, -1, 3),
        Some(0),
        &[bridge(ALICE, 0, -1, WE)],
    );
    assert_eq!(s.game.bridges(), vec![(ALICE, (0, -1), WE)]);
    assert_eq!(type_at(&s, 0, -1), "BB/CFR!+bridge-NS");
    assert!(s.asked(castles::CASTLE_BUILD).is_empty());
    assert_eq!(s.scores(), vec![4, 0]);

    let mut s = Scen::new(&load("bcb-c1"), 2);
    s.play_with(
        ALICE,
        "BB/CFR.b",
        (0, -1, 2),
        Some(0),
        &[
            no_bridge(ALICE),
            exp(castles::CASTLE_BUILD, ALICE, Choice::Flag { yes: false }),
        ],
    );
    assert_eq!(s.scores(), vec![4, 0]);
}

/// Answers by meaning: `BA/RRR` when a tile of the hand is picked, the first option else;
/// logs every decision's options.
struct HandScript {
    rrr: u16,
    /// The placements to make, in order (the first option once they run out).
    places: Vec<Choice>,
    log: Vec<(DecisionKind, Vec<Choice>)>,
}

impl meeplab::engine::Chooser for HandScript {
    fn choose(&mut self, g: &meeplab::engine::Game, d: &meeplab::engine::Decision) -> usize {
        let options: Vec<Choice> = (0..d.options).map(|i| g.choice(d.kind, i)).collect();
        let want = if d.kind == DecisionKind::PLACEMENT && !self.places.is_empty() {
            self.places.remove(0)
        } else {
            Choice::Tile { tile: self.rrr }
        };
        let i = options.iter().position(|c| *c == want).unwrap_or(0);
        self.log.push((d.kind, options));
        i
    }
}

/// [OOP] with the hand house rule (`hand = 2`): a tile of the hand that fits only with a
/// bridge is playable, not set aside. Alice's BA/RRR at (0,1) and Bob's BA/Cccc+ at (0,−1)
/// leave no field edge open, so Alice's two BA/L fit only with a bridge (E and W of the
/// start, beside BA/RRR's roads, below it): she plays one, building it.
#[test]
fn hand_tile_that_fits_only_with_a_bridge_is_playable() {
    let rules = with_bridges("bridges.supply = 3\nhand = 2\n");
    let mut game = meeplab::engine::Game::new(rules.clone(), 1, 2);
    let id = |name: &str| rules.rules.tile_index(name).expect("a tile");
    let (rrr, cccc, l) = (id("BA/RRR"), id("BA/Cccc+"), id("BA/L"));
    // dealt: Alice RRR, Bob Cccc+; drawn: Alice L, Bob Cccc+, Alice L, then more
    game.force_draws(vec![rrr, cccc, l, cccc, l, l, l]);
    let mut events: Vec<Event> = Vec::new();
    game.setup(&mut events);
    let mut c = HandScript {
        rrr,
        places: vec![
            Choice::Place { x: 0, y: 1, rot: 0 },
            Choice::Place {
                x: 0,
                y: -1,
                rot: 0,
            },
        ],
        log: Vec::new(),
    };
    assert!(game.play_turn(&mut c, &mut events)); // Alice picks BA/RRR, (0,1): roads E, S, W
    assert!(game.play_turn(&mut c, &mut events)); // Bob: BA/Cccc+ on the start city
    let placed: Vec<_> = game
        .placed_tiles()
        .iter()
        .map(|t| (t.tile, t.x, t.y))
        .collect();
    assert_eq!(
        placed,
        vec![(rules.rules.start, 0, 0), (rrr, 0, 1), (cccc, 0, -1)]
    );
    let before = events.len();
    assert!(game.play_turn(&mut c, &mut events)); // Alice: BA/L with a bridge
    let ev = &events[before..];
    let (_, options) = c
        .log
        .iter()
        .rev()
        .find(|(k, _)| *k == DecisionKind::PLACEMENT)
        .expect("a placement");
    let spots: BTreeSet<_> = options
        .iter()
        .map(|o| match *o {
            Choice::Place { x, y, .. } => (x, y),
            other => panic!("{other:?}"),
        })
        .collect();
    let want: BTreeSet<_> = [(1, 0), (-1, 0), (1, 1), (-1, 1), (0, 2)]
        .into_iter()
        .collect();
    assert_eq!(spots, want, "only bridge placements");
    assert!(
        !ev.iter().any(|e| matches!(e, Event::Discarded { .. })),
        "{ev:?}"
    );
    assert_eq!(built(ev).len(), 1, "{ev:?}");
    assert_eq!(game.bridges_left(ALICE), 2);
}
