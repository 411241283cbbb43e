//! The Abbot and gardens scenarios (ruleset base-c2; the C2 base rulebook and The Abbot as
//! Wikicarpedia gives them, JCloisterZone's `Garden`, `Abbot` and `AbbotCapability`): only
//! the abbot stands on a garden; a surrounded garden scores 9; an abbot taken back scores its
//! garden or cloister as final scoring would (1 + its neighbours) and is the turn's whole
//! figure action; an abbot on a feature the tile just placed completed is not taken back
//! (ruling 11/2020) but scored; at the end an abbot scores like an unfinished cloister.
//!
//! Seats: 0 = ALICE, 1 = BOB. The start tile BA/RCr is at (0,0) rot 0 (city cap N, road W–E,
//! a field S). y grows southward; rotations are clockwise quarter turns.
//!
//! Segment indices (order of features in the tile block): BA/RFrG and BA/RrG: road 0, fields
//! 1 and 2, garden 3. BA/L: cloister 0, field 1. BA/RFr: road 0.

use crate::scenario_support;

use meeplab::engine::expansions::abbot::{ABBOT, ABBOT_POINTS, ABBOT_RETURN, RETURNS};
use meeplab::engine::{Category, Choice, Compiled, DecisionKind, Event, FollowerKind, Phase};
use scenario_support::*;
use std::sync::Arc;

const ALICE: u8 = 0;
const BOB: u8 = 1;
/// The garden's segment on BA/RFrG and BA/RrG.
const GARDEN: u8 = 3;

fn rules() -> Arc<Compiled> {
    load("base-c2")
}

/// Taking back the abbot standing on segment `seg` of the tile at (x, y).
fn take_back(player: u8, x: i32, y: i32, seg: u8) -> Exp {
    exp(
        ABBOT_RETURN,
        player,
        Choice::Spot {
            at: Some((x, y, seg)),
        },
    )
}

/// Alice's abbot on the garden of BA/RFrG east of the start (1 neighbour: the start).
fn garden_east(s: &mut Scen) {
    s.play_kind(ALICE, "BA/RFrG", (1, 0, 0), GARDEN, ABBOT);
}

/// The 7 other squares around (1,0), in an order that fits: the straight road on east, a city
/// cap on (0,-1) facing the start's city, cloisters elsewhere.
const AROUND: [(&str, (i32, i32, u8)); 7] = [
    ("BA/RFr", (2, 0, 0)),
    ("BA/C", (0, -1, 2)),
    ("BA/L", (1, -1, 0)),
    ("BA/L", (2, -1, 0)),
    ("BA/L", (0, 1, 0)),
    ("BA/L", (1, 1, 0)),
    ("BA/LR", (2, 1, 0)),
];

/// [C] "You may not place a regular meeple onto the garden"; "when placing a tile with a
/// monastery or garden, you may place your abbot onto the monastery or onto the garden".
#[test]
fn only_the_abbot_stands_on_a_garden() {
    let mut s = Scen::new(&rules(), 2);
    garden_east(&mut s);
    let asked = s.asked(DecisionKind::FOLLOWER);
    let options = &asked.last().expect("the follower decision").options;
    let on = |seg: u8, kind: FollowerKind| {
        options.contains(&Choice::Follower {
            segment: Some(seg),
            kind,
        })
    };
    assert!(on(GARDEN, ABBOT), "{options:?}");
    assert!(!on(GARDEN, FollowerKind::PLAIN), "{options:?}");
    // the abbot goes on nothing else: not on the road nor a field
    assert!(on(0, FollowerKind::PLAIN) && !on(0, ABBOT), "{options:?}");
    assert!(!on(1, ABBOT) && !on(2, ABBOT), "{options:?}");
    // a cloister takes either
    s.play(BOB, "BA/L", (0, 1, 0), None);
    let asked = s.asked(DecisionKind::FOLLOWER);
    let options = &asked.last().expect("the follower decision").options;
    for kind in [FollowerKind::PLAIN, ABBOT] {
        assert!(
            options.contains(&Choice::Follower {
                segment: Some(0),
                kind
            }),
            "{options:?}"
        );
    }
}

/// [C] "If the monastery or garden occupied by your abbot is surrounded by eight tiles, you
/// score 9 points, just as for regular monastery scoring"; the abbot comes home.
#[test]
fn a_surrounded_garden_scores_nine() {
    let mut s = Scen::new(&rules(), 2);
    garden_east(&mut s);
    assert_eq!(s.game.supply_of(ALICE, ABBOT), 0);
    let mut last = Vec::new();
    for (k, (id, at)) in AROUND.iter().enumerate() {
        let player = if k % 2 == 0 { BOB } else { ALICE };
        last = s.play(player, id, *at, None);
    }
    assert_eq!(
        scored(&last),
        vec![(Phase::Turn, Category::CLOISTER, 0b01, 9, 9)]
    );
    assert_eq!(s.scores(), vec![9, 0]);
    assert_eq!(s.game.supply_of(ALICE, ABBOT), 1);
}

/// [C] "On your turn ... if you decide not to place a meeple you may instead return your
/// already-placed abbot to your supply. If you do so, you score as many points as the garden
/// or monastery your abbot occupied is worth at that time, exactly like final scoring": the
/// garden at (1,0) with 3 neighbours (the start, (2,0), and the tile just placed) is worth 4;
/// nothing else is placed that turn.
#[test]
fn taking_the_abbot_back_scores_the_garden_as_it_stands() {
    let mut s = Scen::new(&rules(), 2);
    garden_east(&mut s);
    s.play(BOB, "BA/RFr", (2, 0, 0), None);
    let turn = s.game.turn() + 1;
    let ev = s.play_only(ALICE, "BA/L", (1, 1, 0), &[take_back(ALICE, 1, 0, GARDEN)]);
    assert_eq!(s.scores(), vec![4, 0]);
    assert_eq!(s.cat(ALICE, ABBOT_POINTS), 4);
    assert_eq!(s.game.supply_of(ALICE, ABBOT), 1);
    // the figure action was taken: no follower decision that turn, no follower placed
    assert!(
        !s.log
            .iter()
            .any(|a| a.turn == turn && a.kind == DecisionKind::FOLLOWER),
        "a follower decision after the abbot came back"
    );
    assert!(!ev.iter().any(|e| matches!(e, Event::FollowerPlaced { .. })));
    assert!(ev.iter().any(
        |e| matches!(e, Event::FollowerReturned { player: ALICE, kind, .. } if *kind == ABBOT)
    ));
    // only Alice is offered her abbot: Bob never was
    assert!(s.asked(ABBOT_RETURN).iter().all(|a| a.player == ALICE));
}

/// Ruling 11/2020 (Wikicarpedia, The Abbot; JCloisterZone's AbbotCapability): "you can only
/// score the abbot ... before the feature is completely surrounded"; the tile that surrounds
/// it makes the turn's scoring score it (9), and the player may still place a follower.
#[test]
fn an_abbot_on_a_garden_just_completed_is_scored_not_taken_back() {
    /// Alice's garden with six of its neighbours placed, Bob to play a spacer, then Alice.
    fn six_around(rules: &Arc<Compiled>) -> Scen {
        let mut s = Scen::new(rules, 2);
        garden_east(&mut s);
        for (k, (id, at)) in AROUND[..6].iter().enumerate() {
            let player = if k % 2 == 0 { BOB } else { ALICE };
            s.play(player, id, *at, None);
        }
        s.play(BOB, "BA/RFr", (3, 0, 0), None);
        s
    }
    // Alice offered her abbot back on each of her turns while the garden was open
    let mut s = six_around(&rules());
    assert_eq!(s.asked(ABBOT_RETURN).len(), 3);
    // the tile that completes it is her own: not offered, scored, and she places a follower
    let turn = s.game.turn() + 1;
    let ev = s.play(ALICE, "BA/LR", (2, 1, 0), Some(0));
    assert_eq!(
        scored(&ev),
        vec![(Phase::Turn, Category::CLOISTER, 0b01, 9, 9)]
    );
    assert!(!s
        .log
        .iter()
        .any(|a| a.turn == turn && a.kind == ABBOT_RETURN));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::FollowerPlaced {
            player: ALICE,
            x: 2,
            y: 1,
            ..
        }
    )));
    assert_eq!(s.scores(), vec![9, 0]);
    assert_eq!(s.game.supply_of(ALICE, ABBOT), 1);

    // under `return_completed = allowed` the same turn offers it: taken back as it stands,
    // 1 + 8 = 9, as the abbot's points, and nothing else scores the garden
    let allowed = load_str(
        "allowed",
        "ruleset \"allowed\"\nextends \"rulesets/base-c2.rules\"\nabbot.return_completed = allowed\n",
    );
    let mut s = six_around(&allowed);
    let ev = s.play_only(ALICE, "BA/LR", (2, 1, 0), &[take_back(ALICE, 1, 0, GARDEN)]);
    assert!(scored(&ev).is_empty(), "{ev:?}");
    assert_eq!(s.scores(), vec![9, 0]);
    assert_eq!(s.cat(ALICE, ABBOT_POINTS), 9);
}

/// [C] "During final scoring, abbots are scored in the same manner as final scoring for
/// monasteries"; JCloisterZone's garden-scoring scenario: an abbot on a garden with 3
/// neighbours scores 4.
#[test]
fn at_the_end_an_abbot_scores_like_an_unfinished_cloister() {
    let mut s = Scen::new(&rules(), 2);
    s.play(ALICE, "BA/RFr", (1, 0, 0), None);
    // south of the start (its field edge), the road curving W–S away from it
    s.play_kind(BOB, "BA/RrG", (0, 1, 0), GARDEN, ABBOT);
    s.play(ALICE, "BA/L", (1, 1, 0), None);
    // the garden's neighbours: (0,0), (1,0), (1,1)
    let ev = s.finish(&[]);
    assert_eq!(
        scored(&ev),
        vec![(Phase::Final, Category::CLOISTER, 0b10, 4, 4)]
    );
    assert_eq!(s.scores(), vec![0, 4]);
}

/// Garden tiles without the Abbot would be cloisters for every follower: refused (E0603).
#[test]
fn garden_tiles_need_the_abbot() {
    let text = "ruleset \"gardens, no abbot\"\nextends \"rulesets/base.rules\"\n\
                include \"rulesets/tiles/abbot.tiles\"\ndeck { base-c2 x1 }\n";
    match meeplab::dsl::load_ruleset_str("no-abbot", text) {
        Ok(_) => panic!("garden tiles without the Abbot were accepted"),
        Err(d) => {
            let d = d.to_string();
            assert!(d.contains("E0603") && d.contains("garden"), "{d}");
        }
    }
}

/// `after_return = special_figures` (the rule text alone): after the abbot comes back the
/// follower decision is still asked, but no follower may be placed (only a builder or pig,
/// which the base game has not).
#[test]
fn special_figures_may_follow_a_return_under_the_rule_text() {
    let rules = load_str(
        "special",
        "ruleset \"special\"\nextends \"rulesets/base-c2.rules\"\nabbot.after_return = special_figures\n",
    );
    let mut s = Scen::new(&rules, 2);
    garden_east(&mut s);
    s.play(BOB, "BA/RFr", (2, 0, 0), None);
    let turn = s.game.turn() + 1;
    s.play_with(
        ALICE,
        "BA/L",
        (1, 1, 0),
        None,
        &[take_back(ALICE, 1, 0, GARDEN)],
    );
    let asked: Vec<_> = s
        .log
        .iter()
        .filter(|a| a.turn == turn && a.kind == DecisionKind::FOLLOWER)
        .collect();
    assert_eq!(asked.len(), 1);
    assert_eq!(
        asked[0].options,
        vec![Choice::Follower {
            segment: None,
            kind: FollowerKind::PLAIN
        }]
    );
    assert_eq!(s.scores(), vec![4, 0]);
}

/// Keyed random games of base-c2 at 2 to 5 seats: the abbots conserved (in supply or on the
/// board), and taken back in some of them.
#[test]
fn random_games_keep_the_abbots() {
    use meeplab::engine::{Game, NoEvents};
    let rules = rules();
    let mut returns = 0;
    for seed in 1..=20u64 {
        let players = 2 + (seed % 4) as u8;
        let mut g = Game::new(rules.clone(), seed, players);
        let mut chooser = meeplab::policy::Policy::new(meeplab::policy::PolicyKind::Random);
        g.play(&mut chooser, &mut NoEvents);
        returns += g.outcome().counters.get(RETURNS);
        for p in 0..players {
            let out = g
                .followers()
                .iter()
                .filter(|f| f.player == p && f.kind == ABBOT)
                .count();
            assert_eq!(
                g.supply_of(p, ABBOT) as usize + out,
                1,
                "seed {seed}: the abbot of seat {p}"
            );
        }
    }
    assert!(returns > 5, "{returns} returns in 20 random games");
}

/// The 2nd editions of BC&B, I&C, T&B and the two Rivers print gardens (JCloisterZone's
/// `…:2` sets): with the Abbot their tile sets `…-gardens` make them live — only the abbot
/// stands there — while the bundled rulesets without the Abbot keep the plain twins.
#[test]
fn the_gardens_of_other_second_editions_are_live_with_the_abbot() {
    use meeplab::engine::{Game, NoEvents};
    for (parent, set, garden) in [
        ("bcb-c2", "bcb", "BB/CFR!G"),
        ("inns-c2", "inns", "IC/RFr.iG"),
        ("traders-c2", "traders", "TB/CcR.cG"),
        ("river", "river", "RI.1/IIG"),
        ("river2", "river2", "RI.2/IIG"),
    ] {
        let text = format!(
            "ruleset \"{set} with gardens\"\nextends \"rulesets/{parent}.rules\"\n\
             include \"rulesets/tiles/abbot.tiles\"\ninclude \"rulesets/tiles/abbot-{set}.tiles\"\n\
             deck {{ base-c2 x1, {set}-gardens x1 }}\nabbot.supply = 1\n"
        );
        let rules = load_str(set, &text);
        let plain = load(parent);
        assert!(rules.rules.tile_index(garden).is_some(), "{set}");
        assert!(plain.rules.tile_index(garden).is_none(), "{parent}");
        assert_eq!(
            rules.rules.total_tiles(),
            plain.rules.total_tiles(),
            "{set}: the same number of tiles"
        );
        let mut on_garden = 0;
        for seed in 1..=6u64 {
            let mut g = Game::new(rules.clone(), seed, 3);
            let mut chooser = meeplab::policy::Policy::new(meeplab::policy::PolicyKind::Greedy);
            g.play(&mut chooser, &mut NoEvents);
            on_garden += g.outcome().counters.get(RETURNS);
        }
        assert!(on_garden > 0, "{set}: no abbot ever taken back");
    }
}

/// JCloisterZone's engine test `basic/garden-scoring.jcz` ("Garden scoring": "Alice has 9
/// points", "Bob has 4 points"; `shared/rules/minis.md` §1.6, facts only), with the C2 rule
/// "gardens are scored exactly like monasteries": Alice's abbot on the garden of BA/RFrG east
/// of the start, Bob's on BA/RrG south of it; the eight squares round Alice's garden filled
/// (Bob's city cap closing the start's city last but one, two caps closing each other): 9
/// during play; Bob's garden with 3 neighbours scores 1 + 3 = 4 at the end.
#[test]
fn c2_abbot_jcz_garden_scoring_scenario_nine_and_four() {
    let mut s = Scen::new(&rules(), 2);
    s.play_kind(ALICE, "BA/RFrG", (1, 0, 0), GARDEN, ABBOT);
    s.play_kind(BOB, "BA/RrG", (0, 1, 0), GARDEN, ABBOT);
    let rest: [(u8, &str, (i32, i32, u8)); 6] = [
        (ALICE, "BA/RFr", (2, 0, 0)),
        (BOB, "BA/L", (1, 1, 0)),
        (ALICE, "BA/Rr", (2, 1, 3)),
        (BOB, "BA/C", (0, -1, 2)),
        (ALICE, "BA/C", (1, -1, 1)),
        (BOB, "BA/C", (2, -1, 3)),
    ];
    let mut last = Vec::new();
    for (player, id, at) in rest {
        last = s.play(player, id, at, None);
    }
    let garden: Vec<_> = scored(&last)
        .into_iter()
        .filter(|x| x.1 == Category::CLOISTER)
        .collect();
    assert_eq!(garden, vec![(Phase::Turn, Category::CLOISTER, 0b01, 9, 9)]);
    assert_eq!(s.scores(), vec![9, 0]);
    let ev = s.finish(&[]);
    assert_eq!(
        scored(&ev),
        vec![(Phase::Final, Category::CLOISTER, 0b10, 4, 4)]
    );
    assert_eq!(s.scores(), vec![9, 4]);
}
