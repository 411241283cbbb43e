//! The River and The River II scenarios (module `engine/expansions/river.rs`, notes in
//! `docs/src/rules/river.md`). Each test names the rule it follows:
//!
//! - [PREP] the rulebooks' preparation (River C1 and C2, River II): the spring is the start
//!   tile, the river tiles are drawn before the land tiles, the lake last; River II's fork is
//!   placed first after the spring (Wikicarpedia, "Preparation of River II"; JCloisterZone
//!   `RiverCapability`: groups `river-fork`, `river`, `river-lake`, then `default`).
//! - [PLACE] River C2 rulebook: a river tile continues the river (its edges match, the
//!   river's illustration goes on), the river cannot turn in the same direction twice in a
//!   row; a land tile never meets a river edge (edges must match).
//! - [JCZ] JCloisterZone's rule (`river.u_turn = lookahead`): the cells ahead of each end a
//!   river tile leaves open must be free.
//! - [FIELDS] River C1 FAQ: river segments separate farms; the field goes around the spring
//!   (and the lake).
//! - [BRANCHES] River (1st edition), The River II: the two river branches must not be
//!   connected (JCloisterZone's lookahead never lets two ends lead into one cell).
//! - [VOLCANO] River C2, The River II: no meeple on the volcano lake, its player takes another
//!   turn at once with a land tile (no other action that turn); River (1st edition): no
//!   follower there, another tile immediately (`river.volcano = another_tile`);
//!   JCloisterZone plays it as a plain lake (`plain`).
//! - [INN] River II's inn on `RI.2/RIrI` counts with Inns & Cathedrals (I&C C2: a completed
//!   road with an inn scores 2 a tile); without I&C it is a picture.
//! - [HERD] River II's pig-herd on `RI.2/II+` with Traders & Builders, as JCloisterZone scores
//!   it (`Field.PIG_HERD`): each winner of the field 1 more per city.
//!
//! Seats: 0 = ALICE, 1 = BOB. The spring RI/s is at (0,0), not turned: the river leaves it
//! east. y grows southward; rotations are clockwise quarter turns. Segment indices are the
//! features in file order: RI.1/IFI field north 0, field south 1; RI.1/CIRI city N 0, road S 1,
//! fields EL 2, WR 3, ER SL 4, WL SR 5.

use crate::scenario_support;

use meeplab::engine::{Category, Choice, Compiled, DecisionKind, Game, NoEvents, Pending};
use meeplab::policy::{Policy, PolicyKind};
use scenario_support::*;
use std::collections::BTreeSet;
use std::sync::Arc;

const ALICE: u8 = 0;
const BOB: u8 = 1;

fn river() -> Arc<Compiled> {
    load("river")
}

fn river2() -> Arc<Compiled> {
    load("river2")
}

/// River II under JCloisterZone's rule against U-turns.
fn river2_lookahead() -> Arc<Compiled> {
    load_str(
        "river2-lookahead",
        "ruleset \"River II, lookahead\"\nextends \"rulesets/river2.rules\"\nriver { u_turn = lookahead }\n",
    )
}

/// Where `id` may go now (as (x, y, rotation)), asked of a copy of the game; empty when it
/// fits nowhere.
fn placements(g: &Game, id: &str) -> BTreeSet<(i32, i32, u8)> {
    let mut g = g.clone();
    let tile = g.rules().rules.tile_index(id).expect("tile");
    if g.begin_turn(tile, 0, &mut NoEvents).is_err() {
        return BTreeSet::new();
    }
    let Pending::Decision(d) = g.pending() else {
        panic!("no decision")
    };
    assert_eq!(d.kind, DecisionKind::PLACEMENT);
    (0..d.options)
        .map(|i| match g.choice(d.kind, i) {
            Choice::Place { x, y, rot } => (x, y, rot),
            c => panic!("not a placement: {c:?}"),
        })
        .collect()
}

/// River II with Inns & Cathedrals (its C2 values).
fn river2_inns() -> Arc<Compiled> {
    load_str(
        "river2-inns",
        "ruleset \"River II and I&C\"\nextends \"rulesets/river2.rules\"\ninclude \"rulesets/tiles/inns.tiles\"\ndeck += { inns x1 }\ninns { inn_bonus = 1 }\n",
    )
}

/// River II with Traders & Builders.
fn river2_traders() -> Arc<Compiled> {
    load_str(
        "river2-traders",
        "ruleset \"River II and T&B\"\nextends \"rulesets/river2.rules\"\ninclude \"rulesets/tiles/traders.tiles\"\ndeck += { traders x1 }\ntraders { pig_bonus = 1 }\n",
    )
}

/// River II as JCloisterZone plays it (what `.jcz` saves map to).
fn river2_jcz() -> Arc<Compiled> {
    load_str(
        "river2-jcz",
        "ruleset \"River II, JCloisterZone\"\nextends \"rulesets/river2.rules\"\nriver {\n  u_turn = lookahead\n  volcano = plain\n}\n",
    )
}

fn id_of(rules: &Compiled, t: meeplab::ruleset::TileIdx) -> &str {
    &rules.rules.tiles[t as usize].id
}

/// [PREP] The River: the ten river tiles come first, the lake eleventh, then the 72 land
/// tiles (the base start tile among them: the spring replaced it).
#[test]
fn the_river_comes_first_and_the_lake_last() {
    let rules = river();
    for seed in 1..=20 {
        let g = Game::new(rules.clone(), seed, 2);
        let deck = g.unseen();
        assert_eq!(deck.len(), 83);
        assert_eq!(id_of(&rules, g.rules().rules.start), "RI/s");
        for (i, &t) in deck.iter().enumerate() {
            let river = rules.tiles[t as usize].river != 0;
            assert_eq!(
                river,
                i <= 10,
                "seed {seed}: draw {i} is {}",
                id_of(&rules, t)
            );
        }
        assert_eq!(id_of(&rules, deck[10]), "RI.1/I.e", "seed {seed}");
        let starts = deck
            .iter()
            .filter(|&&t| id_of(&rules, t) == "BA/RCr")
            .count();
        assert_eq!(
            starts, 4,
            "every copy of the base start tile is in the pack"
        );
    }
}

/// [PREP] The River II: the fork first, the volcano lake last of the river tiles.
#[test]
fn the_river_ii_starts_with_the_fork() {
    let rules = river2();
    let mut firsts_of_the_rest = BTreeSet::new();
    for seed in 1..=20 {
        let g = Game::new(rules.clone(), seed, 2);
        let deck = g.unseen();
        assert_eq!(deck.len(), 83);
        assert_eq!(id_of(&rules, deck[0]), "RI.2/III", "seed {seed}");
        assert_eq!(id_of(&rules, deck[10]), "RI.2/I.v", "seed {seed}");
        for (i, &t) in deck.iter().enumerate() {
            assert_eq!(
                rules.tiles[t as usize].river != 0,
                i <= 10,
                "seed {seed} draw {i}"
            );
        }
        firsts_of_the_rest.insert(deck[1]);
    }
    // the river tiles between are shuffled
    assert!(firsts_of_the_rest.len() > 3, "{firsts_of_the_rest:?}");
}

/// Determinism: the draws are a function of the seed and the keys; the land tiles come in
/// the order the base game draws them (the shuffle is coupled by tile id and copy).
#[test]
fn the_prelude_is_keyed_and_coupled_with_the_base_game() {
    let rules = river();
    let base = load("base");
    for seed in 1..=10 {
        let a = Game::new(rules.clone(), seed, 2);
        let b = Game::new(rules.clone(), seed, 3);
        assert_eq!(a.unseen(), b.unseen(), "seed {seed}");
        let land: Vec<&str> = a.unseen()[11..].iter().map(|&t| id_of(&rules, t)).collect();
        let plain = Game::new(base.clone(), seed, 2);
        let base_order: Vec<&str> = plain.unseen().iter().map(|&t| id_of(&base, t)).collect();
        // the base game's draws, in order, within the river game's land draws (which hold
        // one more BA/RCr: the copy the base game starts with)
        let mut it = land.iter();
        assert!(
            base_order.iter().all(|id| it.any(|l| l == id)),
            "seed {seed}"
        );
        assert_eq!(land.len(), base_order.len() + 1);
    }
    let (x, y) = (
        Game::new(rules.clone(), 1, 2),
        Game::new(rules.clone(), 2, 2),
    );
    assert_ne!(x.unseen()[..10], y.unseen()[..10]);
}

/// [PLACE] The first river tile goes where the spring's river leads: a straight one (two
/// turns look alike, so one placement), and a bend two ways (right or left).
#[test]
fn a_river_tile_continues_the_river() {
    let s = Scen::new(&river(), 2);
    assert_eq!(placements(&s.game, "RI.1/IFI"), BTreeSet::from([(1, 0, 0)]));
    assert_eq!(
        placements(&s.game, "RI.1/II"),
        BTreeSet::from([(1, 0, 0), (1, 0, 1)])
    );
}

/// [PLACE] A land tile never meets a river edge: a cloister fits beside the spring on three
/// sides, not east where the river leaves it.
#[test]
fn a_land_tile_never_meets_the_river() {
    let s = Scen::new(&river(), 2);
    assert_eq!(
        placements(&s.game, "BA/L"),
        BTreeSet::from([(0, -1, 0), (0, 1, 0), (-1, 0, 0)])
    );
}

/// [PLACE] No U-turn: the river turned right (east, then south); the next bend may only
/// turn left. After a straight tile, either way.
#[test]
fn the_river_may_not_turn_the_same_way_twice_in_a_row() {
    let mut s = Scen::new(&river(), 2);
    s.play(ALICE, "RI.1/II", (1, 0, 0), None); // in from the west, out south: a right turn
    assert_eq!(
        placements(&s.game, "RI.1/II"),
        BTreeSet::from([(1, 1, 2)]) // out east: left (out west, a right turn, is forbidden)
    );
    s.play(BOB, "RI.1/IFI", (1, 1, 1), None); // straight on, south
    assert_eq!(
        placements(&s.game, "RI.1/II"),
        BTreeSet::from([(1, 2, 1), (1, 2, 2)])
    );
}

/// [PLACE] The River II's fork opens two ends; the next tile continues either branch.
#[test]
fn the_fork_opens_two_branches() {
    let mut s = Scen::new(&river2(), 2);
    // the fork's river runs W, N and E: in from the spring by any of them but the turn that
    // would leave it facing the spring with its field edge
    assert_eq!(
        placements(&s.game, "RI.2/III"),
        BTreeSet::from([(1, 0, 0), (1, 0, 2), (1, 0, 3)])
    );
    s.play(ALICE, "RI.2/III", (1, 0, 0), None); // out north and east
    assert_eq!(
        placements(&s.game, "RI.2/LIFI"),
        BTreeSet::from([(1, -1, 1), (2, 0, 0)])
    );
    // the branch ending in a city closes either branch (its river, west, turned to face
    // the fork: south at (1,-1), west at (2,0))
    assert_eq!(
        placements(&s.game, "RI.2/IFC"),
        BTreeSet::from([(1, -1, 3), (2, 0, 0)])
    );
}

/// [PLACE] vs [JCZ]: with the north branch built, an east-branch bend turning north would
/// run beside it. The rulebook allows it (the fork's east branch went straight); under
/// JCloisterZone's lookahead the cell ahead touches the north branch: forbidden.
#[test]
fn lookahead_forbids_a_bend_that_runs_into_the_other_branch() {
    let setup = |rules: &Arc<Compiled>| {
        let mut s = Scen::new(rules, 2);
        s.play(ALICE, "RI.2/III", (1, 0, 0), None);
        s.play(BOB, "RI.2/CIcI", (1, -1, 0), None); // the north branch, straight on
        s
    };
    let rulebook = setup(&river2());
    assert_eq!(
        placements(&rulebook.game, "RI.2/II+"),
        BTreeSet::from([(1, -2, 2), (1, -2, 3), (2, 0, 0), (2, 0, 3)])
    );
    let jcz = setup(&river2_lookahead());
    assert_eq!(
        placements(&jcz.game, "RI.2/II+"),
        BTreeSet::from([(1, -2, 2), (1, -2, 3), (2, 0, 3)])
    );
}

/// [FIELDS] The river splits the fields of the tiles it runs through: Alice's farmer north
/// of it is paid for the completed city there (3 points), Bob's south of it for nothing.
/// Without the split they would share one field and both score 3.
#[test]
fn the_river_splits_the_fields() {
    let mut s = Scen::new(&river(), 2);
    s.play(ALICE, "RI.1/CIRI", (1, 0, 0), None);
    s.play(ALICE, "RI.1/IFI", (2, 0, 0), Some(0)); // farmer on the north bank
    s.play(BOB, "BA/C", (1, -1, 2), None); // closes the city north of the river
    s.play(BOB, "RI.1/IFI", (3, 0, 0), Some(1)); // farmer on the south bank
    s.finish(&[]);
    assert_eq!(s.scores(), vec![3, 0]);
    assert_eq!(s.cat(ALICE, Category::FIELD), 3);
    assert_eq!(s.cat(BOB, Category::FIELD), 0);
}

/// [FIELDS] The field goes around the spring: a farmer on the spring's field reaches both
/// banks west of the road that ends at the river, and so the city north of it (3 points).
#[test]
fn the_field_goes_around_the_spring() {
    let mut s = Scen::new(&river(), 2);
    s.play(ALICE, "RI.1/CIRI", (1, 0, 0), Some(5)); // farmer south-west of the river
    s.play(BOB, "BA/C", (1, -1, 2), None);
    s.finish(&[]);
    // the south-west field runs around the spring to the north-west one, next to the city
    assert_eq!(s.scores(), vec![3, 0]);
}

/// [BRANCHES] Both branches of the fork bend towards the cell (2,-1): a bend there would take
/// both ends and join them, and its edges fit, but the rulebook forbids it (the bend fits
/// nowhere else, so nowhere). Under JCloisterZone's lookahead the second bend towards that
/// cell is already refused (the first branch's tile stands beside the cell ahead).
#[test]
fn the_branches_may_not_be_joined() {
    let mut s = Scen::new(&river2(), 2);
    s.play(ALICE, "RI.2/III", (1, 0, 0), None); // out north and east
    s.play(BOB, "RI.2/II", (1, -1, 3), None); // north branch: in from the south, out east
    let one_end = s.game.clone();
    s.play(ALICE, "RI.2/II", (2, 0, 1), None); // east branch: in from the west, out north
    assert_eq!(placements(&s.game, "RI.2/RrII"), BTreeSet::new());
    // the same tile at (2,-1) once only one end leads there: it continues the north branch
    assert!(placements(&one_end, "RI.2/RrII").contains(&(2, -1, 1)));
    let mut look = Scen::new(&river2_jcz(), 2);
    look.play(ALICE, "RI.2/III", (1, 0, 0), None);
    look.play(BOB, "RI.2/II", (1, -1, 3), None);
    assert!(!placements(&look.game, "RI.2/II").contains(&(2, 0, 1)));
}

/// [VOLCANO] The volcano lake: no follower on it ("none" is the only option) and its player
/// takes the next tile; under JCloisterZone's reading the farmer may go there and the turn
/// passes.
#[test]
fn the_volcano_lake_takes_no_follower_and_gives_another_tile() {
    for (rules, bare) in [(river2(), true), (river2_jcz(), false)] {
        let mut s = Scen::new(&rules, 2);
        s.play(ALICE, "RI.2/I.v", (1, 0, 0), None);
        let asked = s.asked(DecisionKind::FOLLOWER);
        let options = asked.last().expect("the follower is asked").options.len();
        assert_eq!(options == 1, bare, "{options} follower options");
        let mut events = Vec::new();
        assert!(s.game.draw(&mut events));
        let next = if bare { ALICE } else { BOB };
        assert_eq!(s.game.active(), next);
    }
}

/// [INN] A closed 3-tile road through River II's inn: 6 points with Inns & Cathedrals (2 a
/// tile), 3 without.
#[test]
fn the_river_ii_inn_counts_with_inns_and_cathedrals() {
    for (rules, points) in [(river2_inns(), 6), (river2(), 3)] {
        let mut s = Scen::new(&rules, 2);
        s.play(ALICE, "RI.2/RIrI", (1, 0, 1), Some(0)); // river W–E, the road N–S
        s.play(BOB, "BA/LR", (1, -1, 0), None); // the road ends at a cloister north
        s.play(ALICE, "BA/LR", (1, 1, 2), None); // and south: closed
        assert_eq!(s.scores(), vec![points, 0]);
    }
}

/// [HERD] Alice's farmer in the field with River II's pig-herd, next to one completed city:
/// 4 points with Traders & Builders (3 + the herd's 1), 3 without.
#[test]
fn the_pig_herd_counts_with_traders_and_builders() {
    for (rules, points) in [(river2_traders(), 4), (river2(), 3)] {
        let mut s = Scen::new(&rules, 2);
        s.play(ALICE, "RI.2/II+", (1, 0, 0), Some(0)); // farmer in the herd's field
        s.play(BOB, "BA/C", (2, 0, 0), None); // a city cap north, its field joins the herd's
        s.play(ALICE, "BA/C", (2, -1, 2), None); // closes the city
        s.finish(&[]);
        assert_eq!(s.cat(ALICE, Category::FIELD), points);
    }
}

/// Every game of the river rulesets plays out, legal move by legal move, and two runs of a
/// seed agree.
#[test]
fn random_games_play_out_alike() {
    for rules in [
        river(),
        river2(),
        river2_lookahead(),
        river2_jcz(),
        river2_inns(),
        river2_traders(),
    ] {
        for seed in 1..=5 {
            let play = || {
                let mut g = Game::new(rules.clone(), seed, 3);
                let mut chooser = Policy::new(PolicyKind::Random);
                g.setup(&mut NoEvents);
                while g.play_turn(&mut chooser, &mut NoEvents) {}
                (g.scores().to_vec(), g.placed_tiles().len())
            };
            let (a, b) = (play(), play());
            assert_eq!(a, b);
            assert!(a.1 > 70, "{} tiles placed", a.1);
        }
    }
}

/// A search's determinization shuffles the unseen tiles but keeps the prelude: river tiles
/// before land tiles, the lake last of them.
#[test]
fn a_determinization_keeps_the_river_first() {
    let rules = river2();
    let mut g = Game::new(rules.clone(), 4, 2);
    g.setup(&mut NoEvents);
    for key in 1..=10u64 {
        let mut copy = g.clone();
        copy.determinize(key);
        let deck = copy.unseen();
        assert_eq!(id_of(&rules, deck[0]), "RI.2/III");
        assert_eq!(id_of(&rules, deck[10]), "RI.2/I.v");
        assert!(deck[11..]
            .iter()
            .all(|&t| rules.tiles[t as usize].river == 0));
    }
}
