//! Traders & Builders scenarios (rulesets/README.md, Traders & Builders section; the C2
//! rulebook as Wikicarpedia gives it, cited [C2]; JCloisterZone's `TradeGoodsCapability`,
//! `BuilderCapability`, `Field.getCityPoints`, cited [JCZ]): goods to the completing player
//! whoever holds the city, the majorities at the end with ties, the builder's double turn and
//! its limit, the pig's +1 a city under each farm rule, and the engine's invariants (goods
//! tokens conserved) over keyed games.
//!
//! Seats: 0 = ALICE, 1 = BOB. The start tile BA/RCr is at (0,0) rot 0 (city cap N, road W–E).
//! y grows southward; rotations are clockwise quarter turns.

use crate::scenario_support;

use meeplab::engine::expansions::traders;
use meeplab::engine::{Category, Compiled, Decision, Event, Game, Phase};
use scenario_support::*;
use std::sync::Arc;

const ALICE: u8 = 0;
const BOB: u8 = 1;

// Segment indices (order of features in the tile block):
// TB/Cc.w, TB/Cc.g: city 0, field 1. TB/Ccc.g: city 0, field 1. TB/CFc.w: city 0, fields 1, 2.
// TB/CRc.g: city 0, road 1, fields 2–4. BA/C: city 0, field 1.

fn rules() -> Arc<Compiled> {
    load("traders-c2")
}

/// `GOODS_TAKEN` events as (player, [wine, grain, cloth]).
fn goods_taken(events: &[Event]) -> Vec<(u8, [i64; 3])> {
    events
        .iter()
        .filter_map(|e| {
            e.of(traders::GOODS_TAKEN)
                .map(|v| (v[1] as u8, [v[2], v[3], v[4]]))
        })
        .collect()
}

fn city() -> Category {
    Category::from_name("city").expect("the city category")
}

/// Bob's knight on a city of 1 wine and 2 grain above the start tile (six tiles in a row at
/// y = −1 and the start's cap): TB/Ccc.g at (0,−1) turned 180° (city W, E and S), TB/CFc.w
/// east of it, TB/CRc.g west of it, closed by two BA/C caps. Alice places the rest, none with
/// a follower, and `closer` places the last cap.
fn one_wine_two_grain(s: &mut Scen, closer: u8) -> Vec<Event> {
    s.play(BOB, "TB/Ccc.g", (0, -1, 2), Some(0));
    s.play(ALICE, "TB/CFc.w", (1, -1, 0), None);
    s.play(ALICE, "TB/CRc.g", (-1, -1, 0), None);
    s.play(ALICE, "BA/C", (2, -1, 3), None);
    s.play(closer, "BA/C", (-2, -1, 1), None)
}

/// [C2] "You complete the city. The blue player scores … for scoring the city. You receive
/// 1 wine and 2 wheat tokens": the completing player takes the goods though the city is
/// Bob's; at the end Alice holds the most wine and the most grain: 10 + 10.
#[test]
fn the_completing_player_takes_the_goods_whoever_holds_the_city() {
    let mut s = Scen::new(&rules(), 2);
    let ev = one_wine_two_grain(&mut s, ALICE);
    // Bob's city of 6 tiles: 2 a tile
    assert_eq!(
        scored(&ev),
        vec![(Phase::Turn, city(), 1 << BOB, 12, 6)],
        "{ev:?}"
    );
    assert_eq!(goods_taken(&ev), vec![(ALICE, [1, 2, 0])]);
    let end = s.finish(&[]);
    assert_eq!(s.cat(ALICE, traders::GOODS_POINTS), 20);
    assert_eq!(s.cat(BOB, traders::GOODS_POINTS), 0);
    assert_eq!(s.scores(), vec![20, 12]);
    // no cloth anywhere: nobody scores it
    let goods: Vec<_> = scored(&end)
        .into_iter()
        .filter(|x| x.1 == traders::GOODS_POINTS)
        .collect();
    assert!(
        goods.is_empty(),
        "goods points are awards, not feature scorings"
    );
}

/// [C2] "it does not matter if the player who completed the city had any knights in the city,
/// or if any knights were present in the city at all": an unoccupied city still gives its
/// goods to whoever completes it.
#[test]
fn an_unoccupied_city_still_gives_its_goods() {
    let mut s = Scen::new(&rules(), 2);
    s.play(ALICE, "TB/Cc.w", (0, -1, 2), None);
    let ev = s.play(BOB, "BA/C", (1, -1, 3), None);
    assert!(scored(&ev).is_empty(), "nobody holds it: {ev:?}");
    assert_eq!(goods_taken(&ev), vec![(BOB, [1, 0, 0])]);
    s.finish(&[]);
    assert_eq!(s.cat(BOB, traders::GOODS_POINTS), 10);
    assert_eq!(s.scores(), vec![0, 10]);
}

/// [C2] "In the case of a tie for a type, each tied player receives 10 points": Alice and
/// Bob take 1 wine each (two cities), Alice 2 grain more: wine 10 each, grain 10 to Alice.
#[test]
fn a_tied_majority_scores_each_tied_player() {
    let mut s = Scen::new(&rules(), 2);
    // Bob completes the wine city above the start (nobody in it)
    s.play(ALICE, "TB/Cc.w", (0, -1, 2), None);
    let ev = s.play(BOB, "BA/C", (1, -1, 3), None);
    assert_eq!(goods_taken(&ev), vec![(BOB, [1, 0, 0])]);
    // Alice completes a city of wine and grain below the start: TB/Cc.g at (0,1) turned 180°
    // (city S and E) and TB/CFc.w south of it; caps close them
    s.play(ALICE, "TB/Cc.g", (0, 1, 2), None);
    s.play(BOB, "BA/C", (1, 1, 3), None);
    s.play(BOB, "TB/CFc.w", (0, 2, 1), None);
    let ev = s.play(ALICE, "BA/C", (0, 3, 0), None);
    assert_eq!(goods_taken(&ev), vec![(ALICE, [1, 1, 0])]);
    let end = s.finish(&[]);
    assert_eq!(s.cat(ALICE, traders::GOODS_POINTS), 20);
    assert_eq!(s.cat(BOB, traders::GOODS_POINTS), 10);
    assert_eq!(s.scores(), vec![20, 10]);
    assert!(!end.is_empty());
}

/// `traders.goods_points` sets what a majority is worth.
#[test]
fn the_goods_points_option_sets_a_majority_s_worth() {
    let rules = load_str(
        "goods-5",
        "ruleset \"x\"\nextends \"rulesets/traders-c2.rules\"\ntraders.goods_points = 5\n",
    );
    let mut s = Scen::new(&rules, 2);
    one_wine_two_grain(&mut s, BOB);
    s.finish(&[]);
    assert_eq!(s.cat(BOB, traders::GOODS_POINTS), 10);
    assert_eq!(s.scores(), vec![0, 22]);
}

/// The supply of tokens is the symbols of the pack: 9 wine, 6 grain, 5 cloth [C2 contents];
/// every token taken is a symbol in a completed city, and the engine's invariants hold after
/// every move of keyed games (2–6 players).
#[test]
fn goods_tokens_are_conserved_over_keyed_games() {
    for name in ["traders-c1", "traders-c2"] {
        let rules = load(name);
        let mut taken = 0;
        for seed in 0..12u64 {
            let mut game = Game::new(rules.clone(), 300 + seed, 2 + (seed % 5) as u8);
            let pick = |_: &Game, d: &Decision| {
                (d.key.rotate_left(seed as u32 * 5) % d.options as u64) as usize
            };
            let out = meeplab::engine::invariants::play_checked(&mut game, pick)
                .unwrap_or_else(|v| panic!("{name} seed {seed}: {v}"));
            let t = out.counters.get(traders::TOKENS_TAKEN);
            assert!(t <= 20, "{name} seed {seed}: {t} tokens of 20");
            taken += t;
        }
        assert!(taken > 0, "{name}: no goods taken in 12 games");
    }
}

/// The tiles: 24, one of each type; 20 goods symbols (9 wine, 6 grain, 5 cloth [C2
/// contents]), each on a city segment, never two on one tile; the four inner fields lie
/// inside their tiles (no half-edge) and touch two or three cities; the printed form reads
/// back the same (`city E W cloth`, `field -> E S`).
#[test]
fn the_tiles_carry_the_goods_on_their_cities() {
    let rules = rules();
    let r = &rules.rules;
    let tb: Vec<_> = r.tiles.iter().filter(|t| t.id.starts_with("TB/")).collect();
    assert_eq!(tb.len(), 24);
    let marks = meeplab::engine::expansions::SEGMENT_MARKS.map(|m| m.0);
    let mut goods = [0; 3];
    for t in &tb {
        let marked: Vec<_> = t.features.iter().filter(|f| f.marks != 0).collect();
        assert!(marked.len() <= 1, "{}", t.id);
        for f in marked {
            assert_eq!(f.kind, meeplab::tiles::FeatureKind::City, "{}", t.id);
            assert_eq!(f.marks.count_ones(), 1, "{}", t.id);
            let name = marks[f.marks.trailing_zeros() as usize];
            let good = ["wine", "grain", "cloth"].iter().position(|g| *g == name);
            goods[good.unwrap_or_else(|| panic!("{}: `{name}` is no good", t.id))] += 1;
        }
    }
    // the goods are segment marks, declared in this order (after other expansions' marks)
    let at = |g: &str| marks.iter().position(|m| *m == g);
    assert!(at("wine") < at("grain") && at("grain") < at("cloth") && at("wine").is_some());
    assert_eq!(goods, [9, 6, 5]);
    let inner: Vec<&str> = tb
        .iter()
        .filter(|t| {
            t.features
                .iter()
                .any(|f| f.kind == meeplab::tiles::FeatureKind::Field && f.halves == 0)
        })
        .map(|t| t.id.as_str())
        .collect();
    assert_eq!(inner, ["TB/CCc.c", "TB/CCc.w", "TB/CcCC.c", "TB/CcCc.w"]);
    let t = tb.iter().find(|t| t.id == "TB/CCc.c").expect("TB/CCc.c");
    let mut text = String::new();
    meeplab::dsl::print::tile(&mut text, t);
    assert!(text.contains("  city E W cloth\n"), "{text}");
    assert!(text.contains("  field -> E S\n"), "{text}");
    let again = load_str(
        "printed",
        &format!(
            "ruleset \"x\"\nextends \"rulesets/base.rules\"\n{}tileset my {{ MY/A x1 }}\ndeck += {{ my x1 }}\n",
            text.replace("TB/CCc.c", "MY/A")
        ),
    );
    let a = again
        .rules
        .tiles
        .iter()
        .find(|t| t.id == "MY/A")
        .expect("MY/A");
    assert_eq!(a.features, t.features);
}

/// A goods symbol belongs to a city: after a road's sides it is the semantic error E0410 (a
/// segment mark on the wrong kind of segment), on a line of its own a syntax error (E0101,
/// saying where to write it), as is an unknown word after a city's sides.
#[test]
fn a_goods_symbol_belongs_to_a_city() {
    let check = |name: &str, tile: &str| {
        let text = format!("ruleset \"x\"\nextends \"rulesets/base.rules\"\n{tile}\n");
        meeplab::dsl::load_ruleset_str(name, &text)
            .map(|_| ())
            .expect_err(name)
            .to_string()
    };
    let on_road = check(
        "road",
        "tile MY/A { edges FFRF road S wine field NL NR EL ER SL SR WL WR }",
    );
    assert!(
        on_road.contains("E0410") && on_road.contains("marks a city"),
        "{on_road}"
    );
    let alone = check(
        "alone",
        "tile MY/A { edges CFFF city N field EL ER SL SR WL WR -> N\n wine }",
    );
    assert!(
        alone.contains("E0101") && alone.contains("marks a city segment"),
        "{alone}"
    );
    let typo = check(
        "typo",
        "tile MY/A { edges CFFF city N wime field EL ER SL SR WL WR -> N }",
    );
    assert!(typo.contains("E0101"), "{typo}");
}

// BA/RFr: road W–E 0, fields 1, 2. BA/RRR: road E 0, road S 1, road W 2, fields 3–5. BA/L:
// cloister 0, field 1. BA/CFC.2: city N 0, city S 1, field 2. BA/Rr: road 0, fields 1, 2.

/// `DOUBLE_TURN` events as (turn, player).
fn double_turns(events: &[Event]) -> Vec<(u32, u8)> {
    events
        .iter()
        .filter_map(|e| {
            e.of(traders::DOUBLE_TURN)
                .map(|v| (v[0] as u32, v[1] as u8))
        })
        .collect()
}

/// Alice's road west–east through the start tile with her thief, and her builder on it from
/// turn 3 (BA/RFr at (1,0) then (2,0)); Bob's turns put cloisters below. The next tiles come
/// from `draws`.
fn builder_on_road(s: &mut Scen, draws: &[&str]) {
    let draws = draws.iter().map(|id| s.tile(id)).collect();
    s.game.force_draws(draws);
    s.play(ALICE, "BA/RFr", (1, 0, 0), Some(0));
    s.play(BOB, "BA/L", (0, 1, 0), None);
    let ev = s.play_kind(ALICE, "BA/RFr", (2, 0, 0), 0, traders::BUILDER);
    // the builder placed this turn gives nothing yet
    assert!(double_turns(&ev).is_empty(), "{ev:?}");
    assert_eq!(s.game.supply_of(ALICE, traders::BUILDER), 0);
}

/// [C2] "If you place a tile that continues the road or city that your builder occupies, you
/// may immediately draw and place another tile" — and "there is no chain reaction" [C1]: the
/// extra tile extending the road again gives no third; the seat order then goes on (Bob).
#[test]
fn the_builder_gives_one_extra_tile_and_no_chain() {
    let mut s = Scen::new(&rules(), 2);
    builder_on_road(&mut s, &["BA/L", "BA/RFr", "BA/RFr", "BA/L"]);
    // Bob's turn from the pack, then Alice's extends her road: another tile after it
    s.play_drawn(BOB, (1, 1, 0), None, &[]);
    let ev = s.play_drawn(ALICE, (3, 0, 0), None, &[]);
    assert_eq!(double_turns(&ev), vec![(5, ALICE)]);
    // the extra turn is Alice's again, and extending the road once more gives no third
    let ev = s.play_drawn(ALICE, (4, 0, 0), None, &[]);
    assert!(double_turns(&ev).is_empty(), "{ev:?}");
    // Bob plays on as if the extra turn had not been there
    s.play_drawn(BOB, (2, 1, 0), None, &[]);
    assert_eq!(
        s.game.outcome().counters.get(traders::DOUBLE_TURNS),
        1,
        "one extra tile"
    );
}

/// [C1 clarification] "the second part of the builder turn can occur even if the builder is no
/// longer present by the end of the first part of the turn (such as removal by completing the
/// city…)": Alice's junction closes her road of 4 tiles (4 points); thief and builder come
/// home, and the extra tile still follows. The builder counts for nothing in the majority.
#[test]
fn completing_the_builder_s_feature_still_gives_the_extra_tile() {
    let mut s = Scen::new(&rules(), 2);
    // the road's west end: a junction at (-1,0), Alice's thief on its east road
    let draws = ["BA/L", "BA/RRR", "BA/L"]
        .iter()
        .map(|id| s.tile(id))
        .collect();
    s.game.force_draws(draws);
    s.play(ALICE, "BA/RRR", (-1, 0, 0), Some(0));
    s.play(BOB, "BA/L", (0, 1, 0), None);
    s.play_kind(ALICE, "BA/RFr", (1, 0, 0), 0, traders::BUILDER);
    s.play_drawn(BOB, (1, 1, 0), None, &[]);
    let ev = s.play_drawn(ALICE, (2, 0, 0), None, &[]);
    assert_eq!(double_turns(&ev), vec![(5, ALICE)]);
    let road = Category::from_name("road").expect("road");
    assert_eq!(
        scored(&ev),
        vec![(Phase::Turn, road, 1 << ALICE, 4, 4)],
        "{ev:?}"
    );
    assert_eq!(s.game.supply_of(ALICE, traders::BUILDER), 1);
    assert_eq!(s.game.supply(ALICE), 7);
    // the extra tile: Alice's turn again
    s.play_drawn(ALICE, (-1, -1, 0), None, &[]);
}

/// The builder stands only where its owner already has a follower (a road or city), the pig
/// only on a field its owner holds [C2 "you must already have one meeple on the feature"];
/// neither on a cloister; each player has one of each.
#[test]
fn builders_and_pigs_join_their_owner_s_features_only() {
    let mut s = Scen::new(&rules(), 2);
    s.play(ALICE, "BA/RFr", (1, 0, 0), Some(0));
    s.play(BOB, "BA/RFr", (-1, 0, 0), Some(1));
    // Alice's next tile: a road continuing hers, a field (fields 1/2) Bob holds part of
    s.play(ALICE, "BA/RFr", (2, 0, 0), None);
    let follower = s.asked(meeplab::engine::DecisionKind::FOLLOWER);
    let options = &follower.last().expect("asked").options;
    let kinds: Vec<(Option<u8>, &str)> = options
        .iter()
        .filter_map(|c| match c {
            meeplab::engine::Choice::Follower { segment, kind } if !kind.is_plain() => {
                Some((*segment, kind.name()))
            }
            _ => None,
        })
        .collect();
    // the builder on Alice's road; no pig: the fields of (2,0) are not Alice's
    assert_eq!(kinds, vec![(Some(0), "builder")], "{options:?}");
}

/// The builder joins only a road or city still open: Alice's junction at (1,0) closes her road
/// of 3 tiles, and no builder is offered on it (JCloisterZone's `Builder` refuses a completed
/// feature; there it would only go home at once).
#[test]
fn no_builder_on_a_feature_the_tile_completes() {
    let mut s = Scen::new(&rules(), 2);
    s.play(ALICE, "BA/RRR", (-1, 0, 0), Some(0));
    s.play(BOB, "BA/L", (0, 1, 0), None);
    let ev = s.play(ALICE, "BA/RRR", (1, 0, 0), None);
    let road = Category::from_name("road").expect("road");
    assert_eq!(scored(&ev), vec![(Phase::Turn, road, 1 << ALICE, 3, 3)]);
    let follower = s.asked(meeplab::engine::DecisionKind::FOLLOWER);
    let options = &follower.last().expect("asked").options;
    assert!(
        options.iter().all(|c| !matches!(
            c,
            meeplab::engine::Choice::Follower { kind, .. } if !kind.is_plain()
        )),
        "{options:?}"
    );
    assert_eq!(s.game.supply_of(ALICE, traders::BUILDER), 1);
}

/// The pig (JCloisterZone's engine test `pig-scoring`, as a scenario): Alice's farmer and pig
/// and Bob's farmer tie for a field by two completed cities; Alice scores 4 a city, Bob 3
/// [C2: "Both you and the blue player have a pig on the field, so you both score 8 points
/// each (4 points per city)… will only score 6 points"].
fn pig_field(s: &mut Scen) {
    s.play(ALICE, "BA/CFC.2", (0, -1, 0), Some(2));
    s.play(BOB, "BA/C", (0, -2, 2), Some(1));
    s.play_kind(ALICE, "BA/C", (-1, -1, 3), 1, traders::PIG);
    s.play(BOB, "BA/Rr", (-1, -2, 1), None);
}

#[test]
fn the_pig_adds_one_a_city_to_its_owner() {
    let mut s = Scen::new(&rules(), 2);
    pig_field(&mut s);
    let ev = s.finish(&[]);
    let field = Category::from_name("field").expect("field");
    let farms: Vec<_> = scored(&ev).into_iter().filter(|x| x.1 == field).collect();
    assert_eq!(
        farms,
        vec![
            (Phase::Final, field, 1 << BOB, 6, 2),
            (Phase::Final, field, 1 << ALICE, 8, 2)
        ]
    );
    assert_eq!(s.scores(), vec![8, 6]);
}

/// The pig under the other farm rules meeplab plays: the 1st rule (2000, city-centric, 4 a
/// city: the pig makes it 5) and the 2nd (once per player: 3, the pig 4).
#[test]
fn the_pig_adds_one_a_city_under_each_farm_rule() {
    for (farms, extends, alice, bob) in [
        ("city_centric", "base-2000.rules", 10, 8),
        ("once_per_player", "base.rules", 8, 6),
    ] {
        let text = format!(
            "ruleset \"x\"\nextends \"rulesets/{extends}\"\ninclude \"rulesets/tiles/traders.tiles\"\ndeck += {{ traders x1 }}\nfarms = {farms}\ntraders.pig_bonus = 1\n"
        );
        let rules = load_str(farms, &text);
        let mut s = Scen::new(&rules, 2);
        pig_field(&mut s);
        s.finish(&[]);
        assert_eq!(s.scores(), vec![alice, bob], "{farms}");
    }
    // without the pig bonus, the field is a plain tie
    let rules = load_str(
        "no-pig",
        "ruleset \"x\"\nextends \"rulesets/traders-c2.rules\"\ntraders.pig_bonus = 0\n",
    );
    let mut s = Scen::new(&rules, 2);
    pig_field(&mut s);
    s.finish(&[]);
    assert_eq!(s.scores(), vec![6, 6]);
}

/// The policies' view: a builder option is worth about an extra tile (3 with a dozen tiles
/// or more to come), a pig on a field its owner leads its bonus a completed city plus 1; the
/// heuristic's evaluation counts each good's majority (10 to each leader), and greedy and
/// heuristic games under both rulesets keep the engine's invariants.
#[test]
fn the_policies_value_builders_pigs_and_goods() {
    use meeplab::engine::{Choice, DecisionKind, NoEvents, Pending};
    let mut s = Scen::new(&rules(), 2);
    s.play(ALICE, "BA/RFr", (1, 0, 0), Some(0));
    s.play(BOB, "BA/L", (0, 1, 0), None);
    let tile = s.tile("BA/RFr");
    let g = &mut s.game;
    g.begin_turn(tile, ALICE, &mut NoEvents).expect("a turn");
    let Pending::Decision(d) = g.pending() else {
        panic!("a placement")
    };
    let at = (0..d.options)
        .find(|&i| g.choice(d.kind, i) == Choice::Place { x: 2, y: 0, rot: 0 })
        .expect("(2,0)");
    g.apply(at).expect("placed");
    let Pending::Decision(d) = g.pending() else {
        panic!("a follower")
    };
    assert_eq!(d.kind, DecisionKind::FOLLOWER);
    let road = g.placed_tiles().last().expect("placed").node0; // segment 0: the road
    assert_eq!(g.follower_kind_value(traders::BUILDER, road, ALICE), 3);
    // the south field (segment 2) is nobody's: no pig there, and a pig is worth nothing to
    // a player who does not lead the field
    assert_eq!(g.follower_kind_value(traders::PIG, road + 2, ALICE), 0);
    // goods in the evaluation: Bob takes 1 wine, then leads it
    let mut s = Scen::new(&rules(), 2);
    s.play(ALICE, "TB/Cc.w", (0, -1, 2), None);
    s.play(BOB, "BA/C", (1, -1, 3), None);
    let mut out = vec![0.0; 2];
    s.game.expansion_expected_points(&mut out);
    assert_eq!(out, vec![0.0, 10.0]);
    // whole games with the valuing policies keep the invariants
    for policy in [
        meeplab::policy::PolicyKind::Greedy,
        meeplab::policy::PolicyKind::Heuristic,
    ] {
        let kind = policy.name();
        for name in ["traders-c1", "traders-c2"] {
            let rules = load(name);
            let mut game = Game::new(rules, 7, 3);
            let mut p = meeplab::policy::Policy::new(policy);
            let pick = |g: &Game, d: &Decision| meeplab::engine::Chooser::choose(&mut p, g, d);
            meeplab::engine::invariants::play_checked(&mut game, pick)
                .unwrap_or_else(|v| panic!("{name} {kind}: {v}"));
        }
    }
}
