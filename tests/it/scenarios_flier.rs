//! The Flying Machines scenarios (rulesets flier-c1 / flier-c2; the Flier C1 and C2 rulebooks
//! as Wikicarpedia gives them and their footnotes, `shared/rules/minis.md` §2): a follower
//! flown from the machine lands 1–3 squares away in the arrow's direction on an unfinished
//! road, city or cloister, occupied or not, never a field nor a feature the tile just placed
//! completed; with nowhere to land it goes back to supply; C1 makes the landing mandatory,
//! C2 lets the player take the follower back; the die is keyed (seed, turn), never a stream.
//!
//! Seats: 0 = ALICE, 1 = BOB. The start tile BA/RCr is at (0,0) rot 0 (city cap N, road W–E).
//! y grows southward; rotations are clockwise quarter turns. The arrow of FL/F.o and
//! FL/Rr.NW.o points west at rot 0 (north at rot 1, south at rot 3).

use crate::scenario_support;

use meeplab::engine::expansions::flier::{self, CRASHED, FLIGHT, FLY, LAND, LANDED};
use meeplab::engine::{Category, Choice, Chooser, Decision, DecisionKind, Event, Game, Phase};
use scenario_support::*;

const ALICE: u8 = 0;
const BOB: u8 = 1;

/// A turn's expected answers by decision kind (anything else: option 0), with every
/// decision asked logged.
struct Answers {
    want: Vec<(DecisionKind, Choice)>,
    asked: Vec<(DecisionKind, Vec<Choice>)>,
}

impl Chooser for Answers {
    fn choose(&mut self, game: &Game, d: &Decision) -> usize {
        let options: Vec<Choice> = (0..d.options).map(|i| game.choice(d.kind, i)).collect();
        let i = match self.want.iter().position(|w| w.0 == d.kind) {
            Some(k) => {
                let (_, c) = self.want.remove(k);
                options
                    .iter()
                    .position(|o| *o == c)
                    .unwrap_or_else(|| panic!("{c:?} not among {options:?}"))
            }
            None => 0,
        };
        self.asked.push((d.kind, options));
        i
    }
}

/// `player` places `id` at (x, y) turned `rot`, flies a plain follower with the die forced to
/// `die`, and answers the landing with `land` (if asked). Returns the turn's events and the
/// landing options offered (empty when none was asked).
fn fly(
    s: &mut Scen,
    player: u8,
    id: &str,
    (x, y, rot): (i32, i32, u8),
    die: u8,
    land: Option<Choice>,
) -> (Vec<Event>, Vec<Choice>) {
    let tile = s.tile(id);
    let mut want = vec![
        (DecisionKind::PLACEMENT, Choice::Place { x, y, rot }),
        (
            FLY,
            Choice::Token {
                at: Some((x, y, 0)),
            },
        ),
    ];
    if let Some(c) = land {
        want.push((LAND, c));
    }
    let mut a = Answers {
        want,
        asked: Vec::new(),
    };
    s.game.force_flier_roll(die);
    let start = s.events.len();
    s.game
        .play_tile(tile, player, &mut a, &mut s.events)
        .unwrap_or_else(|e| panic!("turn with {id}: {e}"));
    assert!(a.want.is_empty(), "never asked: {:?}", a.want);
    assert!(
        !a.asked.iter().any(|q| q.0 == DecisionKind::FOLLOWER),
        "a flight takes the turn's figure action: no follower decision"
    );
    let offered = a
        .asked
        .iter()
        .find(|q| q.0 == LAND)
        .map(|q| q.1.clone())
        .unwrap_or_default();
    (s.events[start..].to_vec(), offered)
}

/// The expansion events of a turn, by name.
fn flier_events(ev: &[Event]) -> Vec<&'static str> {
    ev.iter()
        .filter(|e| [FLIGHT, LANDED, CRASHED].iter().any(|&k| e.of(k).is_some()))
        .map(|e| e.kind())
        .collect()
}

/// Alice's road from the start tile east: BA/RFr at (1,0) with her follower.
fn alices_road(s: &mut Scen) {
    s.play(ALICE, "BA/RFr", (1, 0, 0), Some(0));
}

/// [C1][C2] "the meeple may be placed on any incomplete feature, even one already occupied":
/// Bob's flier tile south of Alice's road, arrow north, die 1 — his follower lands on her
/// road (C1: the only option, mandatory; C2: or back to supply). When the road closes at 4
/// tiles the tie pays both 4.
#[test]
fn a_flown_follower_joins_an_occupied_road_and_ties_it() {
    for (name, must) in [("flier-c1", true), ("flier-c2", false)] {
        let mut s = Scen::new(&load(name), 2);
        alices_road(&mut s);
        let road = Choice::Spot {
            at: Some((1, 0, 0)),
        };
        let (ev, offered) = fly(&mut s, BOB, "FL/F.o", (1, 1, 1), 1, Some(road));
        let mut want = vec![road];
        if !must {
            want.insert(0, Choice::Spot { at: None });
        }
        assert_eq!(
            offered, want,
            "{name}: the road only (no field), pass under C2"
        );
        assert_eq!(flier_events(&ev)[0], "flier_flight", "{name}");
        assert!(ev.iter().any(|e| e.of(LANDED).is_some()), "{name}");
        assert_eq!(s.game.supply(BOB), 6, "{name}");
        s.play(ALICE, "BA/LR", (-1, 0, 3), None);
        let ev = s.play(BOB, "BA/LR", (2, 0, 1), None);
        assert_eq!(
            scored(&ev),
            vec![(Phase::Turn, Category::ROAD, 0b11, 4, 4)],
            "{name}"
        );
        assert_eq!(s.scores(), vec![4, 4], "{name}");
    }
}

/// [C2] "If the meeple lands on an empty space, or on a tile where it cannot be placed, it
/// returns to the supply": Bob's machine points south into the empty board — whatever the
/// die, no landing, no follower placed this turn, his supply intact.
#[test]
fn a_flight_into_the_void_sends_the_follower_home() {
    for die in 1..=3 {
        let mut s = Scen::new(&load("flier-c2"), 2);
        alices_road(&mut s);
        let (ev, offered) = fly(&mut s, BOB, "FL/F.o", (1, 1, 3), die, None);
        assert!(offered.is_empty());
        let crash = ev.iter().find_map(|e| e.of(CRASHED)).expect("a crash");
        assert_eq!(
            (crash[2], crash[3]),
            (1, 1 + die as i64),
            "the square it reached"
        );
        assert_eq!(s.game.supply(BOB), 7);
        assert!(s.game.followers().iter().all(|f| f.player != BOB));
    }
}

/// [C1][C2 footnote, 2012] "A feature completed by the tile just placed counts as complete":
/// Alice's flier tile FL/Rr.NW.o closes her road at 6 tiles; her follower flies west one
/// square onto BA/LR, whose road is that road — only its cloister is left to land on. The
/// road pays 6 now; the cloister, with 4 neighbours at the end, 5.
#[test]
fn a_feature_completed_this_turn_cannot_be_landed_on() {
    let mut s = Scen::new(&load("flier-c1"), 2);
    alices_road(&mut s);
    s.play(BOB, "BA/LR", (-1, 0, 3), None);
    s.play(ALICE, "BA/Rr", (2, 0, 0), None);
    s.play(BOB, "BA/LR", (1, 1, 3), None);
    let cloister = Choice::Spot {
        at: Some((1, 1, 0)),
    };
    let (ev, offered) = fly(&mut s, ALICE, "FL/Rr.NW.o", (2, 1, 0), 1, Some(cloister));
    assert_eq!(
        offered,
        vec![cloister],
        "the cloister only: the road is complete"
    );
    assert_eq!(scored(&ev), vec![(Phase::Turn, Category::ROAD, 0b01, 6, 6)]);
    let ev = s.finish(&[]);
    assert!(
        scored(&ev).contains(&(Phase::Final, Category::CLOISTER, 0b01, 5, 5)),
        "{:?}",
        scored(&ev)
    );
    assert_eq!(s.scores(), vec![11, 0]);
}

/// A feature completed and scored before: the same square later offers nothing, so the
/// follower crashes ([C2] "returns to the supply").
#[test]
fn a_completed_road_offers_no_landing() {
    let mut s = Scen::new(&load("flier-c1"), 2);
    alices_road(&mut s);
    s.play(BOB, "BA/LR", (-1, 0, 3), None);
    s.play(ALICE, "BA/LR", (2, 0, 1), None);
    assert_eq!(s.scores(), vec![4, 0]);
    let (ev, offered) = fly(&mut s, BOB, "FL/F.o", (1, 1, 1), 1, None);
    assert!(offered.is_empty());
    assert!(ev.iter().any(|e| e.of(CRASHED).is_some()));
    assert_eq!(s.game.supply(BOB), 7);
}

/// [C2] "may be placed": under flier-c2 the player may take the flown follower back instead.
#[test]
fn c2_lets_the_player_take_the_flown_follower_back() {
    let mut s = Scen::new(&load("flier-c2"), 2);
    alices_road(&mut s);
    let (ev, _) = fly(
        &mut s,
        BOB,
        "FL/F.o",
        (1, 1, 1),
        1,
        Some(Choice::Spot { at: None }),
    );
    assert!(ev.iter().all(|e| e.of(LANDED).is_none()));
    assert_eq!(s.game.supply(BOB), 7);
}

/// Not flying: the machine's decision answered "no flight" leaves the usual follower step.
#[test]
fn no_flight_leaves_the_follower_step() {
    let mut s = Scen::new(&load("flier-c1"), 2);
    let ev = s.play(ALICE, "FL/RFr.WE.o", (1, 0, 0), Some(0));
    assert!(flier_events(&ev).is_empty());
    let fly = s.asked(FLY);
    assert_eq!(fly.len(), 1);
    assert_eq!(
        fly[0].options,
        vec![
            Choice::Token { at: None },
            Choice::Token {
                at: Some((1, 0, 0))
            }
        ]
    );
    assert_eq!(s.game.supply(ALICE), 6);
}

/// The arrow turns with the tile: each of the four turns of the all-field FL/F.o is its own
/// placement, while the all-field cloister BA/L has one.
#[test]
fn every_turn_of_a_flier_tile_is_offered() {
    let s = Scen::new(&load("flier-c2"), 2);
    let count = |id: &str| {
        let mut n = 0;
        s.game.each_placement(s.tile(id), |x, y, _| {
            if (x, y) == (0, 1) {
                n += 1;
            }
        });
        n
    };
    assert_eq!((count("FL/F.o"), count("BA/L")), (4, 1));
    assert_eq!(
        flier::arrow(flier::MACHINE_W, 1),
        Some(0),
        "west turned once: north"
    );
    assert_eq!(
        flier::arrow(flier::MACHINE_NW, 2),
        Some(3),
        "north-west twice: south-east"
    );
}

/// The die is a function of the seed and the turn (the same under both editions: coupled
/// games roll alike), uniform on 1–3, and drawn anew in a search's determinized copies.
#[test]
fn the_die_is_keyed_and_uniform() {
    let mut faces = [0u32; 3];
    for seed in 0..3000u64 {
        let d = flier::die_of(flier::die_key(seed, 7, 0));
        faces[d as usize - 1] += 1;
    }
    assert!(faces.iter().all(|&n| (900..1100).contains(&n)), "{faces:?}");
    assert_eq!(
        flier::die_key(11, 5, 0),
        flier::die_key(11, 5, 0),
        "a pure function"
    );
    let resampled: std::collections::BTreeSet<u8> = (1..40u64)
        .map(|k| flier::die_of(flier::die_key(11, 5, k | 1)))
        .collect();
    assert_eq!(resampled.len(), 3, "determinized copies roll every face");
    // two editions, one seed: the first flights of seeded greedy-free games roll alike
    let roll = |name: &str| {
        let mut g = Game::new(load(name), 42, 2);
        let mut ev = Vec::new();
        g.setup(&mut ev);
        let mut a = Answers {
            want: Vec::new(),
            asked: Vec::new(),
        };
        let tile = g.rules().rules.tile_index("FL/F.o").expect("FL/F.o");
        a.want.push((
            FLY,
            Choice::Token {
                at: Some((0, 1, 0)),
            },
        ));
        a.want.push((
            DecisionKind::PLACEMENT,
            Choice::Place { x: 0, y: 1, rot: 0 },
        ));
        g.play_tile(tile, 0, &mut a, &mut ev).expect("a turn");
        ev.iter().find_map(|e| e.of(FLIGHT)).map(|v| v[4])
    };
    assert_eq!(roll("flier-c1"), roll("flier-c2"));
    assert!(roll("flier-c1").is_some());
}

/// JCloisterZone's engine test `flying-machines/placement-is-mandatory.jcz` ("When flying
/// machine is used. Pass is not allowed"; `shared/rules/minis.md` §2.7, facts only) with the
/// C1 rule "if possible, the follower must be placed on the resulting landscape tile": two
/// straight roads east of the start, then FL/RFr.WE.o at (3,0) unturned, its arrow west along
/// the road; the die shows 1 and the follower comes down on (2,0), whose road (open at the
/// start's west end) is the only spot — no pass under C1; C2's "may be placed" offers the
/// return to supply first. Landed, it is a highwayman on that road: 4 tiles at the end.
#[test]
fn c1_c2_flier_jcz_placement_is_mandatory_scenario() {
    for (name, must) in [("flier-c1", true), ("flier-c2", false)] {
        let mut s = Scen::new(&load(name), 2);
        s.play(ALICE, "BA/RFr", (1, 0, 0), None);
        s.play(BOB, "BA/RFr", (2, 0, 0), None);
        let road = Choice::Spot {
            at: Some((2, 0, 0)),
        };
        let (ev, offered) = fly(&mut s, ALICE, "FL/RFr.WE.o", (3, 0, 0), 1, Some(road));
        let mut want = vec![road];
        if !must {
            want.insert(0, Choice::Spot { at: None });
        }
        assert_eq!(offered, want, "{name}");
        assert!(ev.iter().any(|e| e.of(LANDED).is_some()), "{name}");
        assert_eq!(s.game.supply(ALICE), 6, "{name}");
        s.finish(&[]);
        assert_eq!(s.scores(), vec![4, 0], "{name}: start, (1,0), (2,0), (3,0)");
    }
}

/// The C2 base with the Abbot and the Flying Machines (the Big Box 6 pair): the Abbot's
/// footnote (Wikicarpedia, The Abbot, 12/2014: "not placing a meeple" means no other figure
/// action at all) counts a flight as the figure action an abbot return replaces
/// (`shared/rules/minis.md` §8, "Flier and Abbot"); JCloisterZone offers no flight after
/// `RETURN_MEEPLE` `ABBOT_RETURN` either. Alice's abbot on the garden of BA/RFrG at (1,0);
/// on her flier tile FL/F.o at (1,1) she takes it back (the start, (2,0) and (1,1) around
/// it: 4 points) and is asked nothing more; a turn that keeps the abbot is offered the
/// flight.
#[test]
fn an_abbot_taken_back_leaves_no_flight() {
    use meeplab::engine::expansions::abbot::{ABBOT, ABBOT_POINTS, ABBOT_RETURN};
    let rules = load_str(
        "abbot and flier",
        "ruleset \"abbot and flier\"\nextends \"rulesets/base-c2.rules\"\n\
         include \"rulesets/tiles/flier.tiles\"\ndeck += { flier x1 }\n\
         flier source \"test\" {\n  landing = may\n  who = any_follower\n}\n",
    );
    let garden = 3; // BA/RFrG: road 0, fields 1 and 2, garden 3
    for take_back in [true, false] {
        let mut s = Scen::new(&rules, 2);
        s.play_kind(ALICE, "BA/RFrG", (1, 0, 0), garden, ABBOT);
        s.play(BOB, "BA/RFr", (2, 0, 0), None);
        let turn = s.game.turn() + 1;
        let answer = Choice::Spot {
            at: take_back.then_some((1, 0, garden)),
        };
        s.play_only(
            ALICE,
            "FL/F.o",
            (1, 1, 0),
            &[exp(ABBOT_RETURN, ALICE, answer)],
        );
        let flights: Vec<_> = s
            .log
            .iter()
            .filter(|a| a.turn == turn && a.kind == FLY)
            .collect();
        if take_back {
            assert!(flights.is_empty(), "a flight offered after the return");
            assert_eq!(s.cat(ALICE, ABBOT_POINTS), 4);
            assert_eq!(s.scores(), vec![4, 0]);
            assert_eq!(s.game.supply_of(ALICE, ABBOT), 1);
        } else {
            assert_eq!(flights.len(), 1, "the abbot kept: the flight is offered");
            assert!(flights[0].options.contains(&Choice::Token {
                at: Some((1, 1, 0))
            }));
            assert_eq!(s.scores(), vec![0, 0]);
        }
    }
}
