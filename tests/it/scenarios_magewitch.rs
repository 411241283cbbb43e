//! Mage & Witch scenarios (rulesets magewitch-c1/magewitch-c2; the C1 and C2 rules as
//! Wikicarpedia gives them, the Big Box 4 text, JCloisterZone's `MageAndWitchPhase` and
//! `getMageAndWitchPoints`): the magic step (mandatory, any open road or city, never the
//! other figure's feature nor, moving, its own; a feature the tile completed is no longer
//! open), the mage's +1 a tile, the witch's half rounded up (after an inn's value), final
//! scoring, the figure leaving with its feature, the removal when no spot is left, and the
//! move a tile joining the two features forces before the scoring.
//!
//! Seats: 0 = ALICE, 1 = BOB. The start tile BA/RCr is at (0,0) rot 0 (city cap N, segment 0;
//! road W–E, segment 1). y grows southward; rotations are clockwise quarter turns.

use crate::scenario_support;

use meeplab::engine::expansions::magewitch::{
    MAGE, MAGIC_FIGURE, MAGIC_REMOVE, MAGIC_REMOVED, MAGIC_TARGET, MOVES, WITCH,
};
use meeplab::engine::{Category, Choice, Compiled, Event, Phase};
use scenario_support::*;
use std::sync::Arc;

const ALICE: u8 = 0;
const BOB: u8 = 1;

// Segment indices: MW/CRRR.3: city N 0, road E 1, road S 2, road W 3. MW/CFC: city N 0,
// city S 1. BA/RFr: road 0. BA/C: city 0.

fn rules() -> Arc<Compiled> {
    load("magewitch-c2")
}

/// The magic step's two choices: figure `f` to the spot (x, y, segment).
fn magic(player: u8, f: usize, at: (i32, i32, u8)) -> [Exp; 2] {
    [
        exp(MAGIC_FIGURE, player, Choice::Flag { yes: f == MAGE }),
        exp(MAGIC_TARGET, player, Choice::Spot { at: Some(at) }),
    ]
}

/// The feature-graph node of segment `seg` of the tile at (x, y).
fn node(s: &Scen, x: i32, y: i32, seg: u32) -> u32 {
    let pidx = s.game.tile_at(x, y).expect("a tile there");
    s.game.placed_tiles()[pidx].node0 + seg
}

/// Alice's MW/CRRR.3 east of the start, her follower on its west road (the start's road, open
/// to the west), and figure `f` put on that road's start-tile spot.
fn magic_road(s: &mut Scen, f: usize) -> Vec<Event> {
    s.play_with(
        ALICE,
        "MW/CRRR.3",
        (1, 0, 0),
        Some(3),
        &magic(ALICE, f, (0, 0, 1)),
    )
}

/// [C1][C2] "The mage is worth 1 point per tile in the scored feature": Bob closes the road
/// west of the start, 3 tiles: 3 + 3 = 6 for Alice, and the mage leaves the board.
/// (JCloisterZone's `mage.jcz` checks the same rule on a 5-tile road: 10.)
#[test]
fn the_mage_adds_one_a_tile_and_leaves() {
    for name in ["magewitch-c1", "magewitch-c2"] {
        let mut s = Scen::new(&load(name), 2);
        magic_road(&mut s, MAGE);
        assert_eq!(s.game.magic_figure_spot(MAGE), Some((0, 0, 1)), "{name}");
        let ev = s.play(BOB, "BA/LR", (-1, 0, 3), None);
        assert_eq!(
            scored(&ev),
            vec![(Phase::Turn, Category::ROAD, 0b01, 6, 3)],
            "{name}"
        );
        assert_eq!(s.scores(), vec![6, 0], "{name}");
        assert_eq!(s.game.magic_figure_spot(MAGE), None, "{name}");
        assert!(kinds(&ev).contains(&"magic_removed"), "{ev:?}");
    }
}

/// [C1][C2] "The witch halves the points of the scored feature (rounded up)": the same road,
/// 3 points, scores 2 (JCloisterZone's `witch.jcz`: 5 → 3).
#[test]
fn the_witch_halves_rounding_up() {
    let mut s = Scen::new(&rules(), 2);
    magic_road(&mut s, WITCH);
    let ev = s.play(BOB, "BA/LR", (-1, 0, 3), None);
    assert_eq!(scored(&ev), vec![(Phase::Turn, Category::ROAD, 0b01, 2, 3)]);
    assert_eq!(s.game.magic_figure_spot(WITCH), None);
    // the house reading rounds down: 1
    let down = load_str(
        "mw-down",
        "ruleset \"MW, witch rounds down\"\nextends \"rulesets/magewitch-c2.rules\"\nmagewitch.witch_rounding = down\n",
    );
    let mut s = Scen::new(&down, 2);
    magic_road(&mut s, WITCH);
    s.play(BOB, "BA/LR", (-1, 0, 3), None);
    assert_eq!(s.scores(), vec![1, 0]);
}

/// [BB4][C2] "In the final scoring, the mage and witch affect scoring of roads and cities as
/// they did during the game": the road left open, 2 tiles: 2 + 2 with the mage, 1 with the
/// witch; under `final_scoring = ignored` (the 2012 wording) 2 either way.
#[test]
fn the_figures_count_at_final_scoring() {
    let ignored = load_str(
        "mw-final",
        "ruleset \"MW, final ignored\"\nextends \"rulesets/magewitch-c1.rules\"\nmagewitch.final_scoring = ignored\n",
    );
    for (rules, f, want) in [
        (rules(), MAGE, 4),
        (rules(), WITCH, 1),
        (ignored.clone(), MAGE, 2),
        (ignored, WITCH, 2),
    ] {
        let mut s = Scen::new(&rules, 2);
        magic_road(&mut s, f);
        let ev = s.finish(&[]);
        let road: Vec<_> = scored(&ev)
            .into_iter()
            .filter(|x| x.1 == Category::ROAD)
            .collect();
        assert_eq!(road, vec![(Phase::Final, Category::ROAD, 0b01, want, 2)]);
        // the figure stays on the board at the end
        assert_eq!(s.game.magic_figure_spot(f), Some((0, 0, 1)));
    }
}

/// [C2 footnote][BB4] With Inns & Cathedrals: the witch halves a road's value after the inn
/// (4 tiles with an inn, 8, → 4); an unfinished inn road, worth 0, is worth 1 a tile with the
/// mage (3 tiles → 3).
#[test]
fn with_an_inn_the_witch_halves_after_and_the_mage_pays_unfinished() {
    let inns = load_str(
        "mw-inns",
        "ruleset \"MW + I&C\"\nextends \"rulesets/magewitch-c2.rules\"\ninclude \"rulesets/tiles/inns.tiles\"\ndeck += { inns x1 }\ninns { inn_bonus = 1  cathedral_bonus = 1  unfinished = zero }\n",
    );
    // the inn road: IC/RFr.i east of the start (Alice's follower), BA/LR west of it
    let mut s = Scen::new(&inns, 2);
    s.play(ALICE, "IC/RFr.i", (1, 0, 0), Some(0));
    s.game.set_magic_figure_for_test(WITCH, node(&s, 1, 0, 0));
    s.play(BOB, "BA/LR", (-1, 0, 3), None);
    let ev = s.play(ALICE, "BA/LR", (2, 0, 1), None);
    assert_eq!(scored(&ev), vec![(Phase::Turn, Category::ROAD, 0b01, 4, 4)]);
    // unfinished, with the mage
    let mut s = Scen::new(&inns, 2);
    s.play(ALICE, "IC/RFr.i", (1, 0, 0), Some(0));
    s.game.set_magic_figure_for_test(MAGE, node(&s, 1, 0, 0));
    s.play(BOB, "BA/LR", (-1, 0, 3), None);
    let ev = s.finish(&[]);
    let road: Vec<_> = scored(&ev)
        .into_iter()
        .filter(|x| x.1 == Category::ROAD)
        .collect();
    assert_eq!(road, vec![(Phase::Final, Category::ROAD, 0b01, 3, 3)]);
}

/// [C1][C2] The magic step's spots: every open road or city of any tile, not the feature of
/// the other figure nor (moving) the figure's own, and not a feature the magic tile itself
/// completed. MW/CFC north of the start closes the start's city (2 tiles): none of its spots
/// is offered, nor the mage's road; the tile's open north cap is.
#[test]
fn the_spots_leave_out_completed_and_occupied_features() {
    let mut s = Scen::new(&rules(), 2);
    magic_road(&mut s, MAGE);
    let ev = s.play_with(
        BOB,
        "MW/CFC",
        (0, -1, 0),
        None,
        &magic(BOB, WITCH, (0, -1, 0)),
    );
    let spots = &s.asked(MAGIC_TARGET)[1].options;
    let at = |x, y, seg| Choice::Spot {
        at: Some((x, y, seg)),
    };
    assert!(spots.contains(&at(0, -1, 0)), "{spots:?}");
    assert!(
        spots.contains(&at(1, 0, 0)),
        "the MW/CRRR.3 city: {spots:?}"
    );
    assert!(spots.contains(&at(1, 0, 1)), "its east road: {spots:?}");
    for gone in [at(0, 0, 0), at(0, -1, 1), at(0, 0, 1), at(1, 0, 3)] {
        assert!(!spots.contains(&gone), "{gone:?} offered: {spots:?}");
    }
    // the completed city scored unoccupied; both figures stand
    assert_eq!(scored(&ev), vec![]);
    assert_eq!(s.game.magic_figure_spot(WITCH), Some((0, -1, 0)));
    assert_eq!(s.game.magic_figure_spot(MAGE), Some((0, 0, 1)));
    // the figure decision offers both figures, the mage first
    assert_eq!(
        s.asked(MAGIC_FIGURE)[1].options,
        vec![Choice::Flag { yes: true }, Choice::Flag { yes: false }]
    );
}

/// The board of the removal scenarios: every road closed (cloisters west and east of the
/// start), cloisters at (1,-1) and (1,-2), and a city cap at (0,-2) facing south: Alice's
/// MW/CFC at (0,-1) then closes both cities and leaves no open road or city. Her follower goes
/// on its south cap (the start's city: 2 tiles, 4 points).
fn closed_board(s: &mut Scen) {
    s.play(ALICE, "BA/LR", (-1, 0, 3), None);
    s.play(BOB, "BA/LR", (1, 0, 1), None);
    s.play(ALICE, "BA/L", (1, -1, 0), None);
    s.play(BOB, "BA/L", (1, -2, 0), None);
    s.play(ALICE, "BA/C", (0, -2, 2), None);
}

/// [C1][C2] "If you cannot place or move either magic figure (because there are no eligible
/// locations), you must remove one of them": with both standing (the mage on the start's
/// city, the witch on the north cap, both closed by the magic tile) the player chooses;
/// removing the witch, the start's city scores with the mage (4 + 2), removing the mage, 4.
#[test]
fn with_no_spot_the_player_takes_a_figure_off() {
    for (remove_mage, want) in [(false, 6), (true, 4)] {
        let mut s = Scen::new(&rules(), 2);
        closed_board(&mut s);
        s.game.set_magic_figure_for_test(MAGE, node(&s, 0, 0, 0));
        s.game.set_magic_figure_for_test(WITCH, node(&s, 0, -2, 0));
        let ev = s.play_with(
            BOB,
            "MW/CFC",
            (0, -1, 0),
            Some(1),
            &[exp(MAGIC_REMOVE, BOB, Choice::Flag { yes: remove_mage })],
        );
        assert!(s.asked(MAGIC_FIGURE).is_empty());
        assert_eq!(s.asked(MAGIC_REMOVE).len(), 1);
        assert_eq!(s.cat(BOB, Category::CITY), want);
        // both leave: one for want of a spot, the other with its scored city
        assert_eq!(s.game.magic_figure_spot(MAGE), None);
        assert_eq!(s.game.magic_figure_spot(WITCH), None);
        let whys: Vec<i32> = ev
            .iter()
            .filter_map(|e| match e {
                Event::Expansion(x) if x.kind == MAGIC_REMOVED => Some(x.values[5]),
                _ => None,
            })
            .collect();
        assert_eq!(whys, vec![2, 1], "{ev:?}");
    }
}

/// [C1][C2] With one figure standing and no spot, it leaves without a question
/// (JCloisterZone removes it automatically): the start's city scores 4.
#[test]
fn with_no_spot_a_lone_figure_leaves() {
    let mut s = Scen::new(&rules(), 2);
    closed_board(&mut s);
    s.game.set_magic_figure_for_test(MAGE, node(&s, 0, 0, 0));
    s.play(BOB, "MW/CFC", (0, -1, 0), Some(1));
    assert!(s.asked(MAGIC_REMOVE).is_empty());
    assert!(s.asked(MAGIC_FIGURE).is_empty());
    assert_eq!(s.cat(BOB, Category::CITY), 4);
    assert_eq!(s.game.magic_figure_spot(MAGE), None);
}

/// The loop of the joined-figures scenario: Alice's MW/CRRR.3 east of the start (her
/// follower on its west road, the mage on the start's road), then curves and a straight road
/// south of the start from its south road round to (-1,1); the witch on that road. Bob's
/// curve at (-1,0) then joins both roads into one, closed at the crossing's two dead ends:
/// 6 tiles.
fn joined_roads(s: &mut Scen) {
    magic_road(s, MAGE);
    s.play(BOB, "BA/Rr", (1, 1, 1), None);
    s.play(ALICE, "BA/RFr", (0, 1, 0), None);
    s.play(BOB, "BA/Rr", (-1, 1, 2), None);
    s.game.set_magic_figure_for_test(WITCH, node(s, 0, 1, 0));
}

/// [C1][C2] "If you cause both magic figures to be occupying the same feature, you must
/// immediately move one of the magic figures. If this same tile placement would also cause a
/// feature to be scored, you must move the magic figure before scoring the feature": a plain
/// tile asks the magic step. Moving the witch away, the road scores 6 + 6 (the mage); moving
/// the mage away, 6 halved: 3.
#[test]
fn joining_the_figures_forces_a_move_before_scoring() {
    for (moved, want) in [(WITCH, 12), (MAGE, 3)] {
        let mut s = Scen::new(&rules(), 2);
        joined_roads(&mut s);
        let ev = s.play_with(
            ALICE,
            "BA/Rr",
            (-1, 0, 3),
            None,
            &magic(ALICE, moved, (1, 0, 1)),
        );
        assert_eq!(s.asked(MAGIC_FIGURE).len(), 2, "the join asks the step");
        assert_eq!(
            scored(&ev),
            vec![(Phase::Turn, Category::ROAD, 0b01, want, 6)],
            "moving {moved}"
        );
        assert_eq!(s.game.magic_figure_spot(moved), Some((1, 0, 1)));
    }
}

/// Without the symbol and without a join, no magic step: a plain tile asks nothing.
#[test]
fn a_plain_tile_asks_no_magic_step() {
    let mut s = Scen::new(&rules(), 2);
    magic_road(&mut s, MAGE);
    s.play(BOB, "BA/RFr", (0, 1, 0), None);
    assert_eq!(s.asked(MAGIC_FIGURE).len(), 1);
}

/// Keyed random games under both editions: the two figures never stand on one feature at a
/// turn's end, a figure never stands on a completed feature then, and the magic steps are
/// counted. With the ferries (`bigbox6`, `minis-2012`), seeds where a ferry's link joins the
/// figures' roads before scoring: the check before scoring catches it in that turn (it used
/// to wait for the next tile, leaving both on one road at the turn's end in these seeds).
#[test]
fn random_games_keep_the_figures_apart() {
    use meeplab::engine::{Game, NoEvents};
    use meeplab::policy::{Policy, PolicyKind};
    let root = |g: &Game, (x, y, seg): (i32, i32, u8)| {
        let pidx = g.tile_at(x, y).expect("a tile there");
        g.feature_of(g.placed_tiles()[pidx].node0 + seg as u32)
    };
    let mut moves = 0;
    let games: [(&str, &[u64]); 4] = [
        (
            "magewitch-c1",
            &[
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
            ],
        ),
        (
            "magewitch-c2",
            &[
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
            ],
        ),
        ("bigbox6", &[2841]),
        ("minis-2012", &[868, 1398]),
    ];
    for (name, seeds) in games {
        let rules = load(name);
        for &seed in seeds {
            let mut g = Game::new(rules.clone(), seed, 2 + (seed % 3) as u8);
            let mut p = Policy::new(PolicyKind::Random);
            let mut ev = NoEvents;
            g.setup(&mut ev);
            while g.draw(&mut ev) {
                g.play_decisions(&mut p, &mut ev);
                let spots = [g.magic_figure_spot(MAGE), g.magic_figure_spot(WITCH)];
                for at in spots.into_iter().flatten() {
                    assert!(!g.feature(root(&g, at)).done, "{name} seed {seed}");
                }
                if let [Some(a), Some(b)] = spots {
                    assert_ne!(root(&g, a), root(&g, b), "{name} seed {seed}");
                }
            }
            moves += g.outcome().counters.get(MOVES);
        }
    }
    assert!(moves > 100, "{moves} magic moves in 43 games");
}

/// Mage & Witch with Inns & Cathedrals, under either edition.
fn with_inns(edition: &str) -> Arc<Compiled> {
    load_str(
        &format!("mw-{edition}-inns"),
        &format!(
            "ruleset \"MW {edition} + I&C\"\nextends \"rulesets/magewitch-{edition}.rules\"\ninclude \"rulesets/tiles/inns.tiles\"\ndeck += {{ inns x1 }}\ninns {{ inn_bonus = 1  cathedral_bonus = 1  unfinished = zero }}\n"
        ),
    )
}

/// C2 rulebook footnote (Wikicarpedia, "Mage and Witch", diff 83763→111893: "an incomplete
/// city with both a cathedral and the mage on it will also be worth 1 point per tile. Note
/// that the mage does not grant points for coats of arms"; the Big Box 4 text: "an
/// unfinished … city with a cathedral, which normally score 0 points, instead score 1 point
/// per tile at the end of the game when the Mage is on the feature (pennants in the city
/// score 0 points)"). Alice's knight on the cathedral tile above the start's city, a pennant
/// city east of it: 3 tiles and a pennant, unfinished — 0 without the mage, 3 with him.
#[test]
fn c1_c2_magewitch_footnote_unfinished_cathedral_city_with_the_mage_scores_one_a_tile() {
    for edition in ["c1", "c2"] {
        for mage in [false, true] {
            let mut s = Scen::new(&with_inns(edition), 2);
            s.play(ALICE, "IC/Cccc.c", (0, -1, 0), Some(0));
            s.play(BOB, "BA/CFc+", (1, -1, 0), None);
            if mage {
                s.game.set_magic_figure_for_test(MAGE, node(&s, 0, -1, 0));
            }
            let ev = s.finish(&[]);
            let city: Vec<_> = scored(&ev)
                .into_iter()
                .filter(|x| x.1 == Category::CITY && x.3 > 0)
                .collect();
            if mage {
                assert_eq!(
                    city,
                    vec![(Phase::Final, Category::CITY, 0b01, 3, 3)],
                    "{edition}: 1 a tile, the pennant 0"
                );
            } else {
                assert!(
                    city.is_empty(),
                    "{edition}: an unfinished cathedral city: 0"
                );
            }
        }
    }
}

/// Big Box 4 text (the "new rule", carcassonne-forum.de f=60 t=166) and the C2 rulebook
/// (papageek's transcription: "When scoring roads with inns and cities with cathedrals where
/// the witch is present, first add the bonus points from the inn or cathedral, then halve
/// the sum"): a cathedral city closed on all four sides — the start's cap south, city caps
/// west, north and east, the cathedral tile between them — is 5 tiles at 3 = 15, halved by
/// the witch, rounding up, to 8 (not 5 × 2 = 10 halved to 5).
#[test]
fn c1_c2_magewitch_rule_witch_on_a_cathedral_city_halves_after_the_cathedral() {
    for edition in ["c1", "c2"] {
        for witch in [false, true] {
            let mut s = Scen::new(&with_inns(edition), 2);
            s.play(ALICE, "IC/Cccc.c", (0, -1, 0), Some(0));
            if witch {
                s.game.set_magic_figure_for_test(WITCH, node(&s, 0, -1, 0));
            }
            s.play(BOB, "BA/C", (-1, -1, 1), None);
            s.play(ALICE, "BA/C", (1, -1, 3), None);
            let ev = s.play(BOB, "BA/C", (0, -2, 2), None);
            let want = if witch { 8 } else { 15 };
            let city: Vec<_> = scored(&ev)
                .into_iter()
                .filter(|x| x.1 == Category::CITY)
                .collect();
            assert_eq!(
                city,
                vec![(Phase::Turn, Category::CITY, 0b01, want, 5)],
                "{edition}: witch {witch}"
            );
        }
    }
}

/// The board of JCloisterZone's engine tests `mage-and-witch/mage.jcz` and `witch.jcz`
/// (`shared/rules/minis.md` §5.7, facts only): Alice's follower on the straight road east of
/// the start; Bob's MW/CRRR.3 west of the start puts figure `f` on the start's road; Alice
/// carries the road east with the start tile's twin; Bob's crossroads closes it: 5 tiles,
/// from the magic tile's east dead end to the crossroads. Returns the closing turn's events.
fn jcz_engine_test_board(rules: &Arc<Compiled>, f: usize) -> (Scen, Vec<Event>) {
    let mut s = Scen::new(rules, 2);
    s.play(ALICE, "BA/RFr", (1, 0, 0), Some(0));
    s.play_with(
        BOB,
        "MW/CRRR.3",
        (-1, 0, 0),
        None,
        &magic(BOB, f, (0, 0, 1)),
    );
    assert_eq!(s.game.magic_figure_spot(f), Some((0, 0, 1)));
    s.play(ALICE, "BA/RCr", (2, 0, 0), None);
    let ev = s.play(BOB, "BA/RRRR", (3, 0, 0), None);
    (s, ev)
}

/// JCloisterZone's `mage.jcz` ("Mage scoring": "Alice has 10 points"), the rule "the mage is
/// worth 1 point per tile in the scored feature": the 5-tile road scores 5 + 5 = 10, under
/// either edition.
#[test]
fn c1_c2_magewitch_jcz_mage_scenario_five_tile_road_scores_ten() {
    for name in ["magewitch-c1", "magewitch-c2"] {
        let (s, ev) = jcz_engine_test_board(&load(name), MAGE);
        assert_eq!(
            scored(&ev),
            vec![(Phase::Turn, Category::ROAD, 0b01, 10, 5)],
            "{name}"
        );
        assert_eq!(s.scores(), vec![10, 0], "{name}");
        assert_eq!(
            s.game.magic_figure_spot(MAGE),
            None,
            "{name}: the mage leaves"
        );
    }
}

/// JCloisterZone's `witch.jcz` ("Witch scoring": "Alice has 3 points"), the rule "the witch
/// halves the points of the scored feature (rounded up)": the same 5-tile road, 5 → 3.
#[test]
fn c1_c2_magewitch_jcz_witch_scenario_five_tile_road_scores_three() {
    for name in ["magewitch-c1", "magewitch-c2"] {
        let (s, ev) = jcz_engine_test_board(&load(name), WITCH);
        assert_eq!(
            scored(&ev),
            vec![(Phase::Turn, Category::ROAD, 0b01, 3, 5)],
            "{name}"
        );
        assert_eq!(s.scores(), vec![3, 0], "{name}");
        assert_eq!(
            s.game.magic_figure_spot(WITCH),
            None,
            "{name}: the witch leaves"
        );
    }
}

/// The magic step keeps its candidates between steps instead of scanning the board (the
/// speed budget of issue 42): every move of random games keeps the invariant that they
/// cover every open road and city and that a step offers exactly what a scan of the whole
/// board finds — with the ferries (whose links and moves join and split complete roads)
/// and the bridges (which turn placed tiles into others with more segments) in play.
#[test]
fn kept_magic_candidates_match_a_scan_of_the_board() {
    use meeplab::engine::{Decision, Game};
    let text = r#"
ruleset "Mage & Witch with the ferries and the bridges (test)"
extends "rulesets/magewitch-c2.rules"
include "rulesets/tiles/ferries.tiles"
deck += { ferries x1 }
ferries source "test" {
  placement = always
  moves     = first
}
bridges source "test" {
  supply     = 3
  supply_5_6 = 2
  timing     = before_follower
  where      = adjacent
}
"#;
    let sets = [
        ("mixed", load_str("magewitch-ferries-bridges", text)),
        ("magewitch-c1", load("magewitch-c1")),
        ("bigbox6", load("bigbox6")),
    ];
    for (name, rules) in &sets {
        let mut magic = 0;
        for seed in 0..12u64 {
            let mut game = Game::new(rules.clone(), seed, 2 + (seed % 3) as u8);
            let pick = |_: &Game, d: &Decision| (d.key % d.options as u64) as usize;
            let out = meeplab::engine::invariants::play_checked(&mut game, pick)
                .unwrap_or_else(|v| panic!("{name} seed {seed}: {v}"));
            magic += out.counters.get(MOVES);
        }
        assert!(magic > 20, "{name}: only {magic} magic steps");
    }
}
