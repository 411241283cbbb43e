//! The Ferries scenarios (rulesets ferries-c1/ferries-c2; `docs/src/rules/ferries.md`,
//! module `engine/expansions/ferries.rs`). Each test names the rule it follows:
//!
//! - [PLACE] C1 and C2 rulebooks (Wikicarpedia): after the follower the player must link two
//!   road ends of the new lake with a ferry, "whether or not a follower was placed" (the
//!   footnote); the two become one road; "a road segment without a ferry on a lake is closed
//!   at this end"; "if the tile with the lake completes a feature after placing the ferry, the
//!   feature is scored as usual".
//! - [EX2] the rulebooks' Example 2: a follower placed on the new lake tile, then the ferry
//!   set, puts two players on the same road.
//! - [MOVE] "If a player places his landscape tile and extends a road that already includes a
//!   ferry, the player may move the ferry"; "the player may move the ferry such that it no
//!   longer connects to the road that has just been extended"; a move that closes a road has it
//!   scored (the Mini #3 blurb: "if this movement leads to a road being closed at both ends,
//!   that road now scores").
//! - [FIRST] "the player may only move the first ferry in the road — the ferry that is closest
//!   to the tile"; the C2 footnotes: each ferry moves at most once a turn.
//! - [RGG] the RGG C1 English text's "if he placed a follower on the road" (a known error):
//!   `placement = highwayman`.
//!
//! The rulebooks' own example pictures give no coordinates; these boards are ours, built to
//! show each rule, with the points worked out by hand.
//!
//! Seats: 0 = ALICE, 1 = BOB. The start tile BA/RCr is at (0,0) rot 0 (city cap N, road W–E,
//! field S). y grows southward; rotations are clockwise quarter turns (board side s shows the
//! tile's side s − rot). A ferry's way is the two board sides it joins, a bit per side: N=1,
//! E=2, S=4, W=8 (so W–S = 12, W–E = 10, S–E = 6).
//!
//! Segment indices: FR/RRR (unturned: field N) road W 0, road S 1, road E 2; BA/RFr road W–E
//! 0; BA/LR cloister 0, road S 1.

use crate::scenario_support;

use meeplab::engine::expansions::ferries;
use meeplab::engine::{Category, Choice, Compiled, Phase};
use scenario_support::*;
use std::sync::Arc;

const ALICE: u8 = 0;
const BOB: u8 = 1;

const WS: u8 = 8 | 4;
const WE: u8 = 8 | 2;
const SE: u8 = 4 | 2;

fn rules() -> Arc<Compiled> {
    load("ferries-c2")
}

/// `player` puts the new ferry on the lake at (x, y), joining `way`.
fn ferry(player: u8, x: i32, y: i32, way: u8) -> Exp {
    exp(
        ferries::FERRY_PLACE,
        player,
        Choice::Token {
            at: Some((x, y, way)),
        },
    )
}

/// `player` moves the ferry at (x, y) to `way`.
fn move_to(player: u8, x: i32, y: i32, way: u8) -> Exp {
    exp(
        ferries::FERRY_MOVE,
        player,
        Choice::Token {
            at: Some((x, y, way)),
        },
    )
}

/// The options of the last move decision, as (x, y, way) or `None` (no move).
fn last_move_options(s: &Scen) -> Vec<Option<(i32, i32, u8)>> {
    let asked = s.asked(ferries::FERRY_MOVE);
    let last = asked.last().expect("a ferry move decision");
    last.options
        .iter()
        .map(|c| match *c {
            Choice::Token { at } => at,
            other => panic!("not a ferry option: {other:?}"),
        })
        .collect()
}

/// Alice's lake east of the start with her follower on its west road, the ferry joining
/// west and south: her road runs from the start's west end through the lake to its south.
fn alice_lake(s: &mut Scen) {
    s.play_with(
        ALICE,
        "FR/RRR",
        (1, 0, 0),
        Some(0),
        &[ferry(ALICE, 1, 0, WS)],
    );
}

/// [PLACE] Closing both ends of a road carried on by a ferry scores every tile of it: the
/// start, the lake, a cloister at the lake's south, a cloister west of the start: 4 tiles.
#[test]
fn a_road_carried_on_by_a_ferry_scores_its_tiles() {
    for name in ["ferries-c1", "ferries-c2"] {
        let mut s = Scen::new(&load(name), 2);
        alice_lake(&mut s);
        assert_eq!(s.game.ferries(), vec![((1, 0), WS)], "{name}");
        let ev = s.play(BOB, "BA/LR", (1, 1, 2), None);
        assert!(
            scored(&ev).is_empty(),
            "{name}: still open at the start's west"
        );
        let ev = s.play(ALICE, "BA/LR", (-1, 0, 3), None);
        assert_eq!(
            scored(&ev),
            vec![(Phase::Turn, Category::ROAD, 0b01, 4, 4)],
            "{name}"
        );
        assert_eq!(s.scores(), vec![4, 0], "{name}");
    }
}

/// [PLACE] A road end without the ferry is closed at the lake: Bob's cloister road reaching
/// the lake's east end is complete at once (2 tiles), and it reaches no ferry to move.
#[test]
fn a_road_ending_at_a_lake_without_the_ferry_is_closed() {
    let mut s = Scen::new(&rules(), 2);
    alice_lake(&mut s);
    let ev = s.play(BOB, "BA/LR", (2, 0, 1), Some(1));
    assert_eq!(scored(&ev), vec![(Phase::Turn, Category::ROAD, 0b10, 2, 2)]);
    assert_eq!(s.scores(), vec![0, 2]);
    assert!(s.asked(ferries::FERRY_MOVE).is_empty());
}

/// [PLACE][EX2] The new ferry is placed after the follower, on one of the 3 ways of a 3-road
/// lake, in the tile's segment order; Bob's follower on the lake's east road and Alice's on
/// the road he extends end up on one road, which both score at the end (3 tiles each).
#[test]
fn a_ferry_set_after_the_follower_joins_two_players_on_one_road() {
    let mut s = Scen::new(&rules(), 2);
    s.play(ALICE, "BA/RFr", (1, 0, 0), Some(0));
    s.play_with(BOB, "FR/RRR", (2, 0, 0), Some(2), &[ferry(BOB, 2, 0, WE)]);
    let asked = s.asked(ferries::FERRY_PLACE);
    assert_eq!(asked.len(), 1);
    let ways: Vec<Choice> = [WS, WE, SE]
        .iter()
        .map(|&w| Choice::Token {
            at: Some((2, 0, w)),
        })
        .collect();
    assert_eq!(asked[0].options, ways);
    let f = s.game.followers().to_vec();
    assert_eq!(f.len(), 2);
    assert_eq!(s.game.feature_of(f[0].node), s.game.feature_of(f[1].node));
    s.finish(&[]);
    assert_eq!(s.scores(), vec![3, 3]);
}

/// [PLACE] Without a follower the ferry still goes on the lake (the footnote; JCloisterZone);
/// under the RGG text's reading (`placement = highwayman`) it needs a follower on one of the
/// lake's roads, and the roads then all end at the lake.
#[test]
fn the_ferry_is_placed_whether_or_not_a_follower_was() {
    let mut s = Scen::new(&rules(), 2);
    s.play_with(ALICE, "FR/RRR", (1, 0, 0), None, &[ferry(ALICE, 1, 0, WE)]);
    assert_eq!(s.game.ferries(), vec![((1, 0), WE)]);

    let rgg = load_str(
        "rgg",
        "ruleset \"rgg\"\nextends \"rulesets/ferries-c1.rules\"\nferries.placement = highwayman\n",
    );
    let mut s = Scen::new(&rgg, 2);
    s.play(ALICE, "FR/RRR", (1, 0, 0), None);
    assert!(s.asked(ferries::FERRY_PLACE).is_empty());
    assert!(s.game.ferries().is_empty());
    // the start's road ends at the lake: Bob's cloister closing its west end completes
    // cloister, start and lake (3 tiles) for his follower
    let ev = s.play(BOB, "BA/LR", (-1, 0, 3), Some(1));
    assert_eq!(scored(&ev), vec![(Phase::Turn, Category::ROAD, 0b10, 3, 3)]);
    // with a follower on a lake road the ferry comes
    s.play_with(
        ALICE,
        "FR/RRR",
        (2, 0, 0),
        Some(0),
        &[ferry(ALICE, 2, 0, WE)],
    );
    assert_eq!(s.game.ferries(), vec![((2, 0), WE)]);
}

/// [MOVE] Extending a road that holds a ferry lets the player move it, to either other way
/// of its lake; moving it away from the extended road splits that road, and the part cut off
/// that is closed at both ends (the lake's east end, Bob's road, his cloister) is scored in
/// that turn: Bob 3. The rest scores at the end: Alice 4.
#[test]
fn moving_a_ferry_re_routes_roads_and_scores_what_it_closes() {
    let mut s = Scen::new(&rules(), 2);
    alice_lake(&mut s);
    s.play(BOB, "BA/RFr", (2, 0, 0), Some(0));
    assert!(
        s.asked(ferries::FERRY_MOVE).is_empty(),
        "Bob's road ends at the lake"
    );
    // Alice extends her road west: the ferry may move to W–E or S–E
    s.play_with(
        ALICE,
        "BA/RFr",
        (-1, 0, 0),
        None,
        &[move_to(ALICE, 1, 0, WE)],
    );
    assert_eq!(
        last_move_options(&s),
        vec![None, Some((1, 0, WE)), Some((1, 0, SE))]
    );
    assert_eq!(s.game.ferries(), vec![((1, 0), WE)]);
    let f = s.game.followers().to_vec();
    assert_eq!(s.game.feature_of(f[0].node), s.game.feature_of(f[1].node));
    // Bob closes the east; he may move the ferry too, and does not
    let ev = s.play(BOB, "BA/LR", (3, 0, 1), None);
    assert!(scored(&ev).is_empty(), "open at the west");
    assert_eq!(s.asked(ferries::FERRY_MOVE).len(), 2);
    // Alice extends the west and moves the ferry back: Bob's part is closed
    let ev = s.play_with(
        ALICE,
        "BA/RFr",
        (-2, 0, 0),
        None,
        &[move_to(ALICE, 1, 0, WS)],
    );
    assert_eq!(scored(&ev), vec![(Phase::Turn, Category::ROAD, 0b10, 3, 3)]);
    assert_eq!(s.scores(), vec![0, 3]);
    s.finish(&[]);
    assert_eq!(s.scores(), vec![4, 3]);
}

/// [FIRST] Only the first ferry along the road from the tile may move: a second ferry
/// beyond it is not offered, and a ferry moves once a turn. With `moves = through_moved`, a
/// ferry moved this turn no longer hides the ones beyond it.
#[test]
fn only_the_first_ferry_each_way_may_move_once() {
    let chain = |s: &mut Scen| {
        s.play_with(ALICE, "FR/RRR", (1, 0, 0), None, &[ferry(ALICE, 1, 0, WS)]);
        s.play_with(BOB, "FR/RRR", (2, 0, 0), None, &[ferry(BOB, 2, 0, WE)]);
        // Bob's lake meets the first lake's east end, which its ferry does not take
        assert!(s.asked(ferries::FERRY_MOVE).is_empty());
        s.play_with(
            ALICE,
            "BA/RFr",
            (-1, 0, 0),
            None,
            &[move_to(ALICE, 1, 0, WE)],
        );
    };
    let mut s = Scen::new(&rules(), 2);
    chain(&mut s);
    let asked = s.asked(ferries::FERRY_MOVE);
    assert_eq!(
        asked.len(),
        1,
        "the moved ferry stops the search: nothing more"
    );
    assert_eq!(
        last_move_options(&s),
        vec![None, Some((1, 0, WE)), Some((1, 0, SE))]
    );

    let through = load_str(
        "through",
        "ruleset \"through\"\nextends \"rulesets/ferries-c2.rules\"\nferries.moves = through_moved\n",
    );
    let mut s = Scen::new(&through, 2);
    chain(&mut s);
    assert_eq!(s.asked(ferries::FERRY_MOVE).len(), 2);
    assert_eq!(
        last_move_options(&s),
        vec![None, Some((2, 0, WS)), Some((2, 0, SE))],
        "the second lake's ferry, never the moved one again"
    );
}

/// The feature graph after placed and moved ferries is the one the board gives: in keyed
/// random and greedy games, after every turn, two road segments are one road exactly when a
/// walk across tile borders and ferries joins them (a union-find of our own, built from the
/// board and `Game::ferries`), and each road's open sides are its sides facing empty squares.
#[test]
fn roads_after_ferry_moves_are_the_boards() {
    use meeplab::engine::Game;
    use meeplab::policy::{Policy, PolicyKind};
    use meeplab::tiles::FeatureKind;
    let rules = rules();
    let mut moves = 0;
    for (seed, policy) in (1..=12u64).flat_map(|s| {
        [PolicyKind::Random, PolicyKind::Greedy]
            .into_iter()
            .map(move |p| (s, p))
    }) {
        let mut game = Game::new(rules.clone(), seed, 3);
        let mut chooser = Policy::new(policy);
        let mut events = Vec::new();
        game.setup(&mut events);
        loop {
            let more = game.play_turn(&mut chooser, &mut events);
            check_roads(&game, seed);
            if !more {
                break;
            }
        }
        moves += events
            .iter()
            .filter(|e| e.of(ferries::FERRY_MOVED).is_some())
            .count();
    }
    assert!(moves > 10, "the games move ferries ({moves})");

    fn check_roads(game: &Game, seed: u64) {
        let placed = game.placed_tiles();
        let rules = game.rules();
        // road nodes and our own union-find over them
        let mut nodes = Vec::new();
        for t in placed {
            for (i, s) in rules.tile(t.tile).segments.iter().enumerate() {
                if s.kind == FeatureKind::Road {
                    nodes.push(t.node0 + i as u32);
                }
            }
        }
        let index = |n: u32| nodes.binary_search(&n).expect("a road node");
        let mut parent: Vec<usize> = (0..nodes.len()).collect();
        fn find(p: &mut [usize], mut x: usize) -> usize {
            while p[x] != x {
                x = p[x];
            }
            x
        }
        let mut open = vec![0i32; nodes.len()];
        let ferries = game.ferries();
        for t in placed {
            let rot = &rules.tile(t.tile).rotations[t.rot as usize];
            for (i, s) in rules.tile(t.tile).segments.iter().enumerate() {
                if s.kind != FeatureKind::Road {
                    continue;
                }
                let me = index(t.node0 + i as u32);
                let sides = rot.seg_sides[i];
                for (side, (dx, dy)) in [(0, -1), (1, 0), (0, 1), (-1, 0)].into_iter().enumerate() {
                    if sides & (1 << side) == 0 {
                        continue;
                    }
                    match game.tile_at(t.x + dx, t.y + dy) {
                        None => open[me] += 1,
                        Some(n) => {
                            let nb = placed[n];
                            let b = rules.tile(nb.tile).rotations[nb.rot as usize].side_seg
                                [(side + 2) % 4];
                            let other = index(nb.node0 + b as u32);
                            let (ra, rb) = (find(&mut parent, me), find(&mut parent, other));
                            parent[ra] = rb;
                        }
                    }
                }
                // the ferry on this lake joins this end to its other end
                if let Some(&(_, way)) = ferries.iter().find(|f| f.0 == (t.x, t.y)) {
                    if way & sides != 0 {
                        let j = (0..rules.tile(t.tile).segments.len())
                            .find(|&j| j != i && rot.seg_sides[j] & way != 0)
                            .expect("the ferry's other end");
                        let other = index(t.node0 + j as u32);
                        let (ra, rb) = (find(&mut parent, me), find(&mut parent, other));
                        parent[ra] = rb;
                    }
                }
            }
        }
        let mut open_of = std::collections::HashMap::new();
        for (k, &o) in open.iter().enumerate() {
            *open_of.entry(find(&mut parent, k)).or_insert(0) += o;
        }
        for a in 0..nodes.len() {
            let ra = find(&mut parent, a);
            let fa = game.feature_of(nodes[a]);
            assert_eq!(
                game.feature(fa).open,
                open_of[&ra],
                "seed {seed} turn {}: open sides of the road at node {}",
                game.turn(),
                nodes[a]
            );
            for b in a + 1..nodes.len() {
                let same = find(&mut parent, b) == ra;
                assert_eq!(
                    game.feature_of(nodes[b]) == fa,
                    same,
                    "seed {seed} turn {}: nodes {} and {}",
                    game.turn(),
                    nodes[a],
                    nodes[b]
                );
            }
        }
    }
}

/// C2 rulebook, Example 1 (Wikicarpedia, "The Ferries", the 2nd edition's English text:
/// "You place the tile with a lake and your meeple as a highwayman. You place the ferry so
/// that your road now connects to the one with the blue highwayman on it"), and the same
/// picture as the C1 rulebook's Example 2 ("RED places the tile. He places a follower (1) and
/// then sets the ferry (2). RED and BLUE are now present on the same road"). Blue's
/// highwayman on the straight road east of the start; your lake east of it, your
/// highwayman on its south road, the ferry joining west and south: one road, shared, 3 tiles
/// at the end for both. (The picture's board is not given; this one shows the same move.)
#[test]
fn c1_c2_ferries_example_highwayman_then_ferry_joins_blues_road() {
    for name in ["ferries-c1", "ferries-c2"] {
        let mut s = Scen::new(&load(name), 2);
        s.play(ALICE, "BA/L", (0, 1, 0), None);
        s.play(BOB, "BA/RFr", (1, 0, 0), Some(0));
        let ev = s.play_with(
            ALICE,
            "FR/RRR",
            (2, 0, 0),
            Some(1),
            &[ferry(ALICE, 2, 0, WS)],
        );
        assert!(scored(&ev).is_empty(), "{name}: nothing closed");
        // the follower was placed before the ferry was asked (the ferry comes "afterward")
        let order: Vec<_> = s.log.iter().map(|a| a.kind).collect();
        let f = order
            .iter()
            .rposition(|k| *k == meeplab::engine::DecisionKind::FOLLOWER)
            .expect("follower step");
        let p = order
            .iter()
            .rposition(|k| *k == ferries::FERRY_PLACE)
            .expect("ferry step");
        assert!(f < p, "{name}: the ferry after the follower");
        assert_eq!(s.game.ferries(), vec![((2, 0), WS)], "{name}");
        let fl = s.game.followers().to_vec();
        assert_eq!(fl.len(), 2, "{name}");
        assert_eq!(
            s.game.feature_of(fl[0].node),
            s.game.feature_of(fl[1].node),
            "{name}: you and Blue are on the same road"
        );
        s.finish(&[]);
        assert_eq!(
            s.scores(),
            vec![3, 3],
            "{name}: start, Blue's tile, the lake"
        );
    }
}

/// C2 rulebook, Example 2 (Wikicarpedia, "The Ferries", the 2nd edition's English text:
/// "You place the tile with a lake and then place a ferry, completing both the road to the
/// left and the city. Blue gains 3 points, you score 8 points, and both players return their
/// meeples"); the C1 text's "if the tile with the lake completes a feature after placing the
/// ferry, the feature is scored as usual" reads the same. Your knight in the start's city,
/// carried north by a pennant city (3 tiles + 1 pennant once the lake's cap closes it: 8);
/// Blue's highwayman on a cloister road reaching the lake from the left, which the ferry
/// joins to the cloister road on the right (3 tiles: 3). No follower on the lake tile.
#[test]
fn c1_c2_ferries_example_ferry_completes_the_road_to_the_left_and_the_city() {
    for name in ["ferries-c1", "ferries-c2"] {
        let mut s = Scen::new(&load(name), 2);
        // your knight: BA/CFc+ turned N–S above the start's city cap
        s.play(ALICE, "BA/CFc+", (0, -1, 1), Some(0));
        // cloisters beside it, to build on
        s.play(BOB, "BA/L", (-1, -1, 0), None);
        s.play(ALICE, "BA/L", (1, -1, 0), None);
        // Blue's highwayman on the road to the left of the lake's square (road east)
        s.play(BOB, "BA/LR", (-1, -2, 3), Some(1));
        // the road to the right (road west), nobody on it
        s.play(ALICE, "BA/LR", (1, -2, 1), None);
        s.play(BOB, "BA/L", (0, 1, 0), None);
        assert_eq!(s.scores(), vec![0, 0], "{name}");
        // the lake turned: city cap south, roads east, north, west; the ferry west–east
        let ev = s.play_with(
            ALICE,
            "FR/CRRR",
            (0, -2, 2),
            None,
            &[ferry(ALICE, 0, -2, WE)],
        );
        let mut got = scored(&ev);
        got.sort_by_key(|g| g.3);
        assert_eq!(
            got,
            vec![
                (Phase::Turn, Category::ROAD, 0b10, 3, 3),
                (Phase::Turn, Category::CITY, 0b01, 8, 3),
            ],
            "{name}"
        );
        assert_eq!(s.scores(), vec![8, 3], "{name}: you 8, Blue 3");
        assert!(
            s.game.followers().is_empty(),
            "{name}: both meeples go back to their supplies"
        );
    }
}

/// [SPLIT] A ferry move that cuts a builder (Traders & Builders) off from its owner's
/// followers: "when a player's last thief or knight is removed from a road or city with a
/// builder, the player takes his builder" (T&B C1 rulebook, Wikicarpedia; papageek's The
/// Builder: "always returned ... if you no longer have meeples on that feature"), at once:
/// `ferries.cut_builders = every_road`. JCloisterZone (`ChangeFerry`) checks only the roads at
/// the lake ends the ferry left, so a builder on the road the ferry still carries stays,
/// alone: `cut_builders = left_ends` (its Big Box 6 game bb6c2-eager-06201). Alice's follower
/// on the lake's south road, the ferry joining west and south; she extends the west road with
/// her builder and moves the ferry to west–east: the builder's road (west, start, lake, east)
/// holds none of her followers. Under `every_road` the builder goes home right after the
/// move; under `left_ends` it stays, and extending its road again gives her another tile. The
/// builder scores nothing: Alice's south road scores 1 at the end either way.
#[test]
fn a_ferry_move_that_cuts_a_builder_off_sends_it_home_or_not() {
    use meeplab::engine::expansions::traders::BUILDER;
    use meeplab::engine::expansions::traders::DOUBLE_TURN;
    use meeplab::engine::Event;
    let with_traders = |split: &str| {
        load_str(
            "ferries and traders",
            &format!(
                "ruleset \"ferries and traders\"\nextends \"rulesets/ferries-c2.rules\"\n\
                 include \"rulesets/tiles/traders.tiles\"\ndeck += {{ traders x1 }}\n\
                 traders source \"test\" {{\n  goods_points = 10\n}}\n\
                 ferries.cut_builders = {split}\n"
            ),
        )
    };
    for (split, stays) in [("every_road", false), ("left_ends", true)] {
        let mut s = Scen::new(&with_traders(split), 2);
        s.play_with(
            ALICE,
            "FR/RRR",
            (1, 0, 0),
            Some(1),
            &[ferry(ALICE, 1, 0, WS)],
        );
        let ev = s.play_kind_with(
            ALICE,
            "BA/RFr",
            (-1, 0, 0),
            0,
            BUILDER,
            &[move_to(ALICE, 1, 0, WE)],
        );
        let docked = ev
            .iter()
            .position(|e| e.of(ferries::FERRY_DOCKED).is_some())
            .expect("the ferry moved");
        let home = ev.iter().position(|e| {
            matches!(e, Event::FollowerReturned { player: ALICE, kind, x: -1, y: 0, .. } if *kind == BUILDER)
        });
        if stays {
            assert_eq!(home, None, "{split}");
        } else {
            assert_eq!(home, Some(docked + 1), "{split}: at once, after the move");
        }
        assert_eq!(
            s.game.supply_of(ALICE, BUILDER),
            u8::from(!stays),
            "{split}"
        );
        // Alice extends the builder's road west (the ferry may move again; she leaves it)
        let ev = s.play_with(
            ALICE,
            "BA/RFr",
            (-2, 0, 0),
            None,
            &[exp(ferries::FERRY_MOVE, ALICE, Choice::Token { at: None })],
        );
        assert_eq!(
            ev.iter().any(|e| e.of(DOUBLE_TURN).is_some()),
            stays,
            "{split}: another tile from the builder"
        );
        s.finish(&[]);
        assert_eq!(s.scores(), vec![1, 0], "{split}");
    }
}
