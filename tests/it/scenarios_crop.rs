//! Crop Circles scenarios (rules.md §4): each circle type (city/road/field) × deploy/remove,
//! HiG (may, same segment) and Z-Man (must, any tile of the feature); the order (left
//! neighbour first, active player last); players without a follower of the type skipped;
//! an empty supply on deploy.
//!
//! Position, 3 seats, before the crop tile:
//! - seat 0: knight (0,-1) seg 0 [city start+(0,-1)], farmer (-1,0) seg 3 [the big field
//!   north of the road], thief (-1,1) seg 0 [road (-1,0) S stub + (-1,1)];
//! - seat 1: thief (1,0) seg 0 [the start road];
//! - seat 2: knight (1,-1) seg 0 [a one-tile city].
//!
//! Seat 1 then plays a crop tile at (1,1), touching none of these: seat 2 acts first, then
//! seat 0, and seat 1 (active) last.

use crate::scenario_support;

use meeplab::engine::expansions::crop;
use meeplab::engine::{Choice, Event};
use scenario_support::*;
use std::sync::Arc;

type Rules = Arc<meeplab::engine::Compiled>;

const ACTIVE: u8 = 1;

fn position(rules: &Rules) -> Scen {
    let mut s = Scen::new(rules, 3);
    s.play(0, "BA/CFc.1", (0, -1, 1), Some(0)); // knight
    s.play(1, "BA/RFr", (1, 0, 0), Some(0)); // thief
    s.play(2, "BA/C", (1, -1, 0), Some(0)); // knight
    s.play(0, "BA/RRR", (-1, 0, 0), Some(3)); // farmer, north field
    s.play(0, "BA/Rr", (-1, 1, 1), Some(0)); // thief
    s
}

/// The crop tile of each type, placed at (1,1).
fn crop_tile(kind: &str) -> (&'static str, (i32, i32, u8)) {
    match kind {
        "city" => ("CC.2/CFC", (1, 1, 1)),
        "road" => ("CC.2/RRr", (1, 1, 0)),
        "field" => ("CC.2/CFR", (1, 1, 1)),
        _ => unreachable!(),
    }
}

fn spot(x: i32, y: i32, seg: u8) -> Choice {
    Choice::Spot {
        at: Some((x, y, seg)),
    }
}

const PASS: Choice = Choice::Spot { at: None };

fn deploy(p: u8, c: Choice) -> Exp {
    exp(meeplab::engine::expansions::crop::CROP_DEPLOY, p, c)
}

fn remove(p: u8, c: Choice) -> Exp {
    exp(meeplab::engine::expansions::crop::CROP_REMOVE, p, c)
}

/// Seat 1 plays the crop tile of `kind`, chooses deploy or remove, and the script answers.
fn crop_turn(s: &mut Scen, kind: &str, deploy: bool, answers: &[Exp]) -> Vec<Event> {
    let (id, at) = crop_tile(kind);
    let mut more = vec![exp(
        meeplab::engine::expansions::crop::CROP_MODE,
        ACTIVE,
        Choice::Flag { yes: deploy },
    )];
    more.extend_from_slice(answers);
    s.play_with(ACTIVE, id, at, None, &more)
}

/// (what, player, spot) of a crop-circle event.
type CropEvent = (&'static str, u8, Option<(i32, i32, u8)>);

fn crop_events(events: &[Event]) -> Vec<CropEvent> {
    events
        .iter()
        .filter_map(|e| {
            let spot = |v: &[i64; 6]| Some((v[2] as i32, v[3] as i32, v[4] as u8));
            if let Some(v) = e.of(crop::CROP_DEPLOYED) {
                Some(("deploy", v[1] as u8, spot(&v)))
            } else if let Some(v) = e.of(crop::CROP_REMOVED) {
                Some(("remove", v[1] as u8, spot(&v)))
            } else {
                e.of(crop::CROP_PASSED).map(|v| ("pass", v[1] as u8, None))
            }
        })
        .collect()
}

/// (player, options) of the crop decisions after the mode choice.
fn crop_asked(s: &Scen) -> Vec<(u8, Vec<Choice>)> {
    s.log
        .iter()
        .filter(|a| {
            matches!(
                a.kind,
                meeplab::engine::expansions::crop::CROP_DEPLOY
                    | meeplab::engine::expansions::crop::CROP_REMOVE
            )
        })
        .map(|a| (a.player, a.options.clone()))
        .collect()
}

fn on(s: &Scen, player: u8, at: (i32, i32, u8)) -> usize {
    s.game
        .followers()
        .iter()
        .filter(|f| f.player == player && s.game.node_spot(f.node) == at)
        .count()
}

fn sorted(mut v: Vec<Choice>) -> Vec<String> {
    let mut out: Vec<String> = v.drain(..).map(|c| format!("{c:?}")).collect();
    out.sort();
    out
}

#[test]
fn city_deploy_may_same_segment() {
    let mut s = position(&load("cropcircles"));
    let ev = crop_turn(
        &mut s,
        "city",
        true,
        &[deploy(2, spot(1, -1, 0)), deploy(0, PASS)],
    );
    // the active player chose, even without a knight of its own
    assert!(ev.iter().any(|e| e
        .of(crop::CROP_CHOICE)
        .is_some_and(|v| v[1] == ACTIVE as i64 && v[3] == 1)));
    assert_eq!(
        crop_asked(&s),
        vec![
            (2, vec![PASS, spot(1, -1, 0)]),
            (0, vec![PASS, spot(0, -1, 0)])
        ]
    );
    assert_eq!(
        crop_events(&ev),
        vec![("deploy", 2, Some((1, -1, 0))), ("pass", 0, None)]
    );
    assert_eq!(on(&s, 2, (1, -1, 0)), 2);
    assert_eq!(s.game.supply(2), 5);
    assert_eq!(s.game.supply(0), 4);
}

#[test]
fn city_deploy_must_any_tile_of_feature() {
    let mut s = position(&load("cropcircles-zmg"));
    let ev = crop_turn(
        &mut s,
        "city",
        true,
        &[deploy(2, spot(1, -1, 0)), deploy(0, spot(0, 0, 0))],
    );
    let asked = crop_asked(&s);
    assert_eq!(asked[0], (2, vec![spot(1, -1, 0)]), "no pass under 'must'");
    assert_eq!(asked[1].0, 0);
    assert_eq!(
        sorted(asked[1].1.clone()),
        sorted(vec![spot(0, -1, 0), spot(0, 0, 0)])
    );
    assert_eq!(
        crop_events(&ev),
        vec![
            ("deploy", 2, Some((1, -1, 0))),
            ("deploy", 0, Some((0, 0, 0)))
        ]
    );
    assert_eq!(
        on(&s, 0, (0, 0, 0)),
        1,
        "on the start tile, another tile of the city"
    );
}

#[test]
fn city_remove_everyone_with_a_knight_must() {
    for name in ["cropcircles", "cropcircles-zmg"] {
        let mut s = position(&load(name));
        let ev = crop_turn(
            &mut s,
            "city",
            false,
            &[remove(2, spot(1, -1, 0)), remove(0, spot(0, -1, 0))],
        );
        assert_eq!(
            crop_events(&ev),
            vec![
                ("remove", 2, Some((1, -1, 0))),
                ("remove", 0, Some((0, -1, 0)))
            ],
            "{name}"
        );
        assert_eq!(s.game.supply(2), 7);
        assert_eq!(s.game.supply(0), 5);
        assert_eq!(s.game.followers().len(), 3);
    }
}

/// Road circle: seat 2 has no thief and is skipped; seat 0 acts, the active seat 1 last.
#[test]
fn road_deploy_may_same_segment_active_last() {
    let mut s = position(&load("cropcircles"));
    let ev = crop_turn(
        &mut s,
        "road",
        true,
        &[deploy(0, spot(-1, 1, 0)), deploy(1, spot(1, 0, 0))],
    );
    let who: Vec<u8> = crop_asked(&s).iter().map(|a| a.0).collect();
    assert_eq!(who, vec![0, 1]);
    assert_eq!(
        crop_events(&ev),
        vec![
            ("deploy", 0, Some((-1, 1, 0))),
            ("deploy", 1, Some((1, 0, 0)))
        ]
    );
    assert_eq!(on(&s, 1, (1, 0, 0)), 2);
}

#[test]
fn road_deploy_must_any_tile_of_feature() {
    let mut s = position(&load("cropcircles-zmg"));
    let ev = crop_turn(
        &mut s,
        "road",
        true,
        &[deploy(0, spot(-1, 0, 1)), deploy(1, spot(-1, 0, 0))],
    );
    let asked = crop_asked(&s);
    assert_eq!(
        sorted(asked[0].1.clone()),
        sorted(vec![spot(-1, 0, 1), spot(-1, 1, 0)])
    );
    assert_eq!(
        sorted(asked[1].1.clone()),
        sorted(vec![spot(-1, 0, 0), spot(0, 0, 1), spot(1, 0, 0)])
    );
    assert_eq!(
        crop_events(&ev),
        vec![
            ("deploy", 0, Some((-1, 0, 1))),
            ("deploy", 1, Some((-1, 0, 0)))
        ]
    );
}

#[test]
fn road_remove() {
    let mut s = position(&load("cropcircles"));
    let ev = crop_turn(
        &mut s,
        "road",
        false,
        &[remove(0, spot(-1, 1, 0)), remove(1, spot(1, 0, 0))],
    );
    assert_eq!(
        crop_events(&ev),
        vec![
            ("remove", 0, Some((-1, 1, 0))),
            ("remove", 1, Some((1, 0, 0)))
        ]
    );
    assert_eq!(s.game.supply(1), 7);
}

/// Field circle: only seat 0 has a farmer.
#[test]
fn field_deploy_may_and_must() {
    let mut s = position(&load("cropcircles"));
    let ev = crop_turn(&mut s, "field", true, &[deploy(0, spot(-1, 0, 3))]);
    assert_eq!(crop_asked(&s), vec![(0, vec![PASS, spot(-1, 0, 3)])]);
    assert_eq!(crop_events(&ev), vec![("deploy", 0, Some((-1, 0, 3)))]);
    assert_eq!(on(&s, 0, (-1, 0, 3)), 2);

    // Z-Man: anywhere in that field, e.g. the start tile's strip north of the road
    let mut s = position(&load("cropcircles-zmg"));
    let ev = crop_turn(&mut s, "field", true, &[deploy(0, spot(0, 0, 2))]);
    let asked = crop_asked(&s);
    assert_eq!(asked.len(), 1);
    assert!(!asked[0].1.contains(&PASS));
    assert!(asked[0].1.contains(&spot(1, -1, 1)), "{:?}", asked[0].1);
    assert_eq!(crop_events(&ev), vec![("deploy", 0, Some((0, 0, 2)))]);
}

#[test]
fn field_remove() {
    let mut s = position(&load("cropcircles"));
    let ev = crop_turn(&mut s, "field", false, &[remove(0, spot(-1, 0, 3))]);
    assert_eq!(crop_events(&ev), vec![("remove", 0, Some((-1, 0, 3)))]);
    assert_eq!(on(&s, 0, (-1, 0, 3)), 0);
}

/// A player with an empty supply cannot deploy (skipped); removing still applies.
#[test]
fn empty_supply_on_deploy() {
    let rules = load_str(
        "three-followers",
        "ruleset \"x\"\nextends \"rulesets/cropcircles.rules\"\nfollowers = 3\n",
    );
    let mut s = position(&rules);
    assert_eq!(s.game.supply(0), 0);
    let ev = crop_turn(&mut s, "city", true, &[deploy(2, spot(1, -1, 0))]);
    let who: Vec<u8> = crop_asked(&s).iter().map(|a| a.0).collect();
    assert_eq!(who, vec![2]);
    assert_eq!(crop_events(&ev), vec![("deploy", 2, Some((1, -1, 0)))]);

    let mut s = position(&rules);
    let ev = crop_turn(
        &mut s,
        "city",
        false,
        &[remove(2, spot(1, -1, 0)), remove(0, spot(0, -1, 0))],
    );
    assert_eq!(crop_events(&ev).len(), 2);
    assert_eq!(s.game.supply(0), 1);
}

/// Crop Circles with Traders & Builders: seat 0 has a farmer on a field at (1, 0) and its pig
/// on the same field at (2, 0).
fn farmer_and_pig() -> Scen {
    use meeplab::engine::expansions::traders::PIG;
    let rules = load_str(
        "crop and traders",
        "ruleset \"crop and traders\"\nextends \"rulesets/cropcircles.rules\"\n\
         include \"rulesets/tiles/traders.tiles\"\ndeck += { traders x1 }\n\
         traders source \"test\" {\n  goods_points = 10\n  pig_bonus = 1\n}\n",
    );
    let mut s = Scen::new(&rules, 2);
    s.play(0, "BA/RFr", (1, 0, 0), Some(1)); // farmer
    s.play_kind(0, "BA/RFr", (2, 0, 0), 1, PIG);
    s
}

/// Crop Circles with Traders & Builders (Big Box 6): "your builder is always returned to your
/// supply if you no longer have meeples on that feature ... some expansions introduce other
/// ways in which this can happen" (papageek, The Builder; the pig likewise; JCloisterZone
/// returns it at once). Seat 0's farmer on field 1 of BA/RFr at (1,0) and her pig on the same
/// field at (2,0); seat 1's field crop circle, "remove": seat 0 takes her farmer back, and the
/// pig, alone on the field, goes home with it, at once (before the removal's own event).
#[test]
fn a_pig_left_alone_by_a_crop_circle_goes_home() {
    use meeplab::engine::expansions::traders::PIG;
    let mut s = farmer_and_pig();
    assert_eq!(s.game.supply_of(0, PIG), 0);
    let (id, at) = crop_tile("field");
    let ev = s.play_with(
        ACTIVE,
        id,
        at,
        None,
        &[
            exp(crop::CROP_MODE, ACTIVE, Choice::Flag { yes: false }),
            remove(0, spot(1, 0, 1)),
        ],
    );
    let pig_home = ev.iter().position(
        |e| matches!(e, Event::FollowerReturned { player: 0, kind, x: 2, y: 0, .. } if *kind == PIG),
    );
    let removed = ev.iter().position(|e| e.of(crop::CROP_REMOVED).is_some());
    assert!(
        pig_home.is_some() && pig_home < removed,
        "{pig_home:?} {removed:?}"
    );
    assert_eq!(s.game.supply_of(0, PIG), 1);
    assert!(s.game.followers().is_empty(), "{:?}", s.game.followers());
}

/// A pig (or a builder) is a special figure, not a follower: a crop circle neither counts it
/// as the player's presence nor offers it for removal (JCloisterZone's crop-circle phase acts
/// on its `Follower`s only; the rulebook speaks of followers).
#[test]
fn a_crop_circle_offers_followers_only_not_the_pig() {
    let mut s = farmer_and_pig();
    let (id, at) = crop_tile("field");
    s.play_with(
        ACTIVE,
        id,
        at,
        None,
        &[
            exp(crop::CROP_MODE, ACTIVE, Choice::Flag { yes: false }),
            remove(0, spot(1, 0, 1)),
        ],
    );
    let asked = s.asked(crop::CROP_REMOVE);
    assert_eq!(asked.len(), 1);
    assert_eq!(
        asked[0].options,
        vec![spot(1, 0, 1)],
        "the farmer only, not the pig"
    );
}

/// Crop Circles with Inns & Cathedrals (Big Box 6): a crop circle's follower may be the large
/// one. "Take one of their own followers from their supply" (C1), "deploy a meeple from your
/// supply" (C2): the large follower is one; JCloisterZone's crop-circle phase offers the small
/// and the big follower alike. Two seats: seat 0's thief on the start road, extended east by
/// BA/RFr at (1,0) and BA/Rr at (2,0); seat 1's thief on BA/RFr at (1,1). Seat 1's road
/// circle at (1,-1), "deploy": seat 0 adds her large follower beside her thief, seat 1 a
/// follower beside his; BA/Rr at (2,1) then joins the two roads (5 tiles, open at both
/// ends). At the end seat 0 holds it 3 to 2 and scores 5 alone; had she added a plain
/// follower, 2 to 2, both would score 5.
fn crop_and_inns() -> Rules {
    load_str(
        "crop and inns",
        "ruleset \"crop and inns\"\nextends \"rulesets/cropcircles.rules\"\n\
         include \"rulesets/tiles/inns.tiles\"\ndeck += { inns x1 }\n\
         inns source \"test\" {\n  inn_bonus = 1\n  cathedral_bonus = 1\n  unfinished = zero\n}\n",
    )
}

/// The two roads of [`crop_and_inns`]'s board, before the circle.
fn two_roads(rules: &Rules) -> Scen {
    let mut s = Scen::new(rules, 2);
    s.play(0, "BA/RFr", (1, 0, 0), Some(0)); // seat 0's thief on the start road
    s.play(1, "BA/RFr", (1, 1, 0), Some(0)); // seat 1's thief, a road of its own
    s.play(0, "BA/Rr", (2, 0, 0), None); // seat 0's road turns south
    s
}

fn spot_of(x: i32, y: i32, seg: u8, kind: meeplab::engine::FollowerKind) -> Choice {
    Choice::SpotOf {
        at: (x, y, seg),
        kind,
    }
}

/// Seat 1's road circle at (1,-1) (touching only a field of (1,0)), "deploy", answered by
/// `answers`.
fn road_circle_deploy(s: &mut Scen, answers: &[Exp]) {
    let mut more = vec![exp(crop::CROP_MODE, 1, Choice::Flag { yes: true })];
    more.extend_from_slice(answers);
    s.play_with(1, "CC.2/RRr", (1, -1, 2), None, &more);
}

#[test]
fn a_crop_circle_deploys_the_large_follower_too() {
    use meeplab::engine::expansions::inns::LARGE_FOLLOWER as LARGE;
    let rules = crop_and_inns();
    for (large, scores) in [(true, vec![5, 0]), (false, vec![5, 5])] {
        let mut s = two_roads(&rules);
        let mine = if large {
            spot_of(1, 0, 0, LARGE)
        } else {
            spot(1, 0, 0)
        };
        road_circle_deploy(&mut s, &[deploy(0, mine), deploy(1, spot(1, 1, 0))]);
        assert_eq!(
            crop_asked(&s),
            vec![
                (0, vec![PASS, spot(1, 0, 0), spot_of(1, 0, 0, LARGE)]),
                (1, vec![PASS, spot(1, 1, 0), spot_of(1, 1, 0, LARGE)]),
            ]
        );
        assert_eq!(s.game.supply_of(0, LARGE), u8::from(!large));
        s.play(0, "BA/Rr", (2, 1, 1), None); // the roads join
        s.finish(&[]);
        assert_eq!(s.scores(), scores, "large: {large}");
    }
}

/// A removal takes back a follower of a kind: with a follower and her large follower on one
/// spot, seat 0 chooses which goes home (JCloisterZone's removal names the meeple). After the
/// deploy of [`a_crop_circle_deploys_the_large_follower_too`], seat 1's second road circle at
/// (1,-2), "remove": seat 0 takes back her plain follower and keeps the large one (2 to seat
/// 1's 1 once the roads join: 5 to her alone), or the large one (1 to 1: 5 each).
#[test]
fn a_crop_circle_removal_names_the_kind() {
    use meeplab::engine::expansions::inns::LARGE_FOLLOWER as LARGE;
    let rules = crop_and_inns();
    for (take_large, scores) in [(false, vec![5, 0]), (true, vec![5, 5])] {
        let mut s = two_roads(&rules);
        road_circle_deploy(
            &mut s,
            &[deploy(0, spot_of(1, 0, 0, LARGE)), deploy(1, spot(1, 1, 0))],
        );
        let back = if take_large {
            spot_of(1, 0, 0, LARGE)
        } else {
            spot(1, 0, 0)
        };
        s.play_with(
            1,
            "CC.2/RRr",
            (1, -2, 0),
            None,
            &[
                exp(crop::CROP_MODE, 1, Choice::Flag { yes: false }),
                remove(0, back),
                remove(1, spot(1, 1, 0)),
            ],
        );
        let asked = s.asked(crop::CROP_REMOVE);
        assert_eq!(
            asked[0].options,
            vec![spot(1, 0, 0), spot_of(1, 0, 0, LARGE)]
        );
        assert_eq!(asked[1].options, vec![spot(1, 1, 0)]);
        assert_eq!(s.game.supply_of(0, LARGE), u8::from(take_large));
        assert_eq!(on(&s, 0, (1, 0, 0)), 1);
        s.play(0, "BA/Rr", (2, 1, 1), None);
        s.finish(&[]);
        assert_eq!(s.scores(), scores, "large taken back: {take_large}");
    }
}
