//! The hand of tiles house rule (`hand = N`, Board Game Arena's strategic variant,
//! JCloisterZone issue #291): the deal, the tile pick, the tile that stays in the hand, the
//! hands played down when the pack is empty, tiles conserved at every turn boundary, the
//! hidden hands re-dealt by `determinize_for`, and where hands are refused (another hand size,
//! JCloisterZone replays).
//!
//! Exact scenarios force the pack (`Game::force_draws`), so the deal and the draws are known.

use crate::scenario_support;

use meeplab::engine::{Choice, Chooser, Decision, DecisionKind, Event, Game, NoEvents, Pending};
use meeplab::policy::{Policy, PolicyKind};
use meeplab::ruleset::TileIdx;
use scenario_support::*;
use std::sync::Arc;

fn tile(rules: &Arc<meeplab::engine::Compiled>, id: &str) -> TileIdx {
    rules.rules.tile_index(id).expect("tile")
}

/// A game of `rules` whose pack is exactly `ids`, set up (start tile placed, hands dealt).
fn forced(rules: &Arc<meeplab::engine::Compiled>, players: u8, ids: &[&str]) -> (Game, Vec<Event>) {
    let mut g = Game::new(rules.clone(), 7, players);
    g.force_draws(ids.iter().map(|id| tile(rules, id)).collect());
    let mut events = Vec::new();
    g.setup(&mut events);
    (g, events)
}

/// Picks the option whose choice is `want` for the tile pick, else the first option; logs
/// every tile pick asked.
struct PickTile {
    want: Option<Choice>,
    asked: Vec<Vec<Choice>>,
}

impl Chooser for PickTile {
    fn choose(&mut self, game: &Game, d: &Decision) -> usize {
        if d.kind != DecisionKind::TILE_PICK {
            return 0;
        }
        let options: Vec<Choice> = (0..d.options).map(|i| game.choice(d.kind, i)).collect();
        self.asked.push(options.clone());
        self.want
            .and_then(|w| options.iter().position(|o| *o == w))
            .unwrap_or(0)
    }
}

/// Tiles on the board, discarded, in hands and in the pack: the whole pack at every point.
fn total(g: &Game, discarded: u32) -> usize {
    let hands: usize = (0..g.players()).map(|p| g.hand(p).len()).sum();
    g.placed_tiles().len() + discarded as usize + hands + g.remaining()
}

#[test]
fn a_hand_of_two_deals_one_tile_each_in_seat_order() {
    let rules = load("house-hand2");
    assert_eq!(rules.rules.hand, 2);
    let (g, events) = forced(&rules, 3, &["BA/L", "BA/RFr", "BA/Rr", "BA/C", "BA/RRR"]);
    assert_eq!(g.hand_size(), 2);
    assert_eq!(g.hand(0), &[tile(&rules, "BA/L")]);
    assert_eq!(g.hand(1), &[tile(&rules, "BA/RFr")]);
    assert_eq!(g.hand(2), &[tile(&rules, "BA/Rr")]);
    assert_eq!(g.remaining(), 2);
    let dealt: Vec<(u8, TileIdx)> = events
        .iter()
        .filter_map(|e| match *e {
            Event::Dealt { player, tile } => Some((player, tile)),
            _ => None,
        })
        .collect();
    assert_eq!(dealt.len(), 3);
    assert_eq!(dealt.iter().map(|d| d.0).collect::<Vec<_>>(), [0, 1, 2]);
    // a hand of three: two rounds of the deal
    let rules3 = load("house-hand3");
    let (g, _) = forced(&rules3, 2, &["BA/L", "BA/RFr", "BA/Rr", "BA/C", "BA/RRR"]);
    assert_eq!(g.hand(0), &[tile(&rules3, "BA/L"), tile(&rules3, "BA/Rr")]);
    assert_eq!(g.hand(1), &[tile(&rules3, "BA/RFr"), tile(&rules3, "BA/C")]);
    assert_eq!(g.remaining(), 1);
}

#[test]
fn the_chosen_tile_is_played_and_the_other_stays_in_the_hand() {
    let rules = load("house-hand2");
    let (cloister, road) = (tile(&rules, "BA/L"), tile(&rules, "BA/RFr"));
    let (mut g, mut events) = forced(&rules, 2, &["BA/L", "BA/Rr", "BA/RFr", "BA/C"]);
    assert!(g.draw(&mut events));
    // seat 0 holds the cloister and drew the straight road: asked which to play, in
    // tile-type order
    let Pending::Decision(d) = g.pending() else {
        panic!("a tile pick is pending")
    };
    assert_eq!(
        (d.kind, d.player, d.options),
        (DecisionKind::TILE_PICK, 0, 2)
    );
    let options: Vec<Choice> = (0..2).map(|i| g.choice(d.kind, i)).collect();
    let mut want = vec![Choice::Tile { tile: cloister }, Choice::Tile { tile: road }];
    want.sort_by_key(|c| match c {
        Choice::Tile { tile } => *tile,
        _ => 0,
    });
    assert_eq!(options, want);
    g.apply_choice_with(&Choice::Tile { tile: road }, &mut events)
        .expect("the road is in the hand");
    assert_eq!(g.current_tile(), road);
    assert_eq!(g.hand(0), &[cloister], "the cloister stays in the hand");
    let mut c = PickTile {
        want: None,
        asked: Vec::new(),
    };
    g.play_decisions(&mut c, &mut events);
    let placed = events.iter().rev().find_map(|e| match *e {
        Event::Placed { tile, player, .. } => Some((tile, player)),
        _ => None,
    });
    assert_eq!(placed, Some((road, 0)));
    assert!(events.iter().any(|e| matches!(
        *e,
        Event::Chosen { turn: 1, player: 0, tile } if tile == road
    )));
    // narration names the tile chosen
    let line = events
        .iter()
        .find_map(|e| match e {
            Event::Chosen { .. } => meeplab::render::narrate::describe(&rules.rules, e),
            _ => None,
        })
        .unwrap();
    assert!(line.contains("chooses BA/RFr from the hand"), "{line}");
}

#[test]
fn two_copies_of_one_tile_type_ask_nothing() {
    let rules = load("house-hand2");
    let (mut g, mut events) = forced(&rules, 2, &["BA/Rr", "BA/L", "BA/Rr", "BA/C"]);
    assert!(g.draw(&mut events));
    let Pending::Decision(d) = g.pending() else {
        panic!("the placement is pending")
    };
    assert_eq!(d.kind, DecisionKind::PLACEMENT, "one tile type: no pick");
    assert_eq!(g.hand(0), &[tile(&rules, "BA/Rr")]);
}

#[test]
fn the_last_tiles_are_played_down_in_seat_order() {
    let rules = load("house-hand2");
    // 2 dealt, 1 drawn: seat 0 plays twice, seat 1 once
    let (mut g, mut events) = forced(&rules, 2, &["BA/L", "BA/Rr", "BA/RFr"]);
    let mut c = PickTile {
        want: None,
        asked: Vec::new(),
    };
    let mut seats = Vec::new();
    while g.play_turn(&mut c, &mut events) {
        seats.push(g.active());
        assert_eq!(total(&g, 0), 4, "start + 3 tiles");
    }
    assert_eq!(seats, [0, 1, 0]);
    assert!((0..2).all(|p| g.hand(p).is_empty()));
    assert_eq!(g.remaining(), 0);
    g.finish(&mut c, &mut events);
    let o = g.outcome();
    assert_eq!((o.tiles_placed, o.turns, o.tiles_discarded), (4, 3, 0));

    // four tiles: each seat draws once, then both play their last tile
    let (mut g, mut events) = forced(&rules, 2, &["BA/L", "BA/Rr", "BA/RFr", "BA/C"]);
    let mut seats = Vec::new();
    while g.play_turn(&mut c, &mut events) {
        seats.push(g.active());
    }
    assert_eq!(seats, [0, 1, 0, 1]);
}

#[test]
fn hands_keep_their_size_while_the_pack_lasts_and_tiles_are_conserved() {
    for (name, players) in [
        ("house-hand2", 2u8),
        ("house-hand3", 3),
        ("house-goldmines-hand2", 4),
        ("house-goldmines-hand3", 2),
    ] {
        let rules = load(name);
        let n = rules.rules.hand as usize;
        for seed in 0..6u64 {
            let mut g = Game::new(rules.clone(), seed, players);
            let mut p = Policy::new(PolicyKind::Greedy);
            let mut events: Vec<Event> = Vec::new();
            g.setup(&mut events);
            let discarded = |ev: &[Event]| {
                ev.iter()
                    .filter(|e| {
                        matches!(
                            e,
                            Event::Discarded {
                                reshuffled: false,
                                ..
                            }
                        )
                    })
                    .count() as u32
            };
            assert_eq!(
                total(&g, 0),
                rules.rules.total_tiles(),
                "{name} seed {seed} dealt"
            );
            let mut turns = 0;
            while g.play_turn(&mut p, &mut events) {
                turns += 1;
                assert_eq!(
                    total(&g, discarded(&events)),
                    rules.rules.total_tiles(),
                    "{name} seed {seed} turn {}",
                    g.turn()
                );
                if g.remaining() > 0 {
                    for q in 0..players {
                        assert_eq!(g.hand(q).len(), n - 1, "{name} seed {seed} seat {q}");
                    }
                }
            }
            assert!((0..players).all(|q| g.hand(q).is_empty()));
            g.finish(&mut p, &mut events);
            let o = g.outcome();
            assert_eq!(
                (o.tiles_placed + o.tiles_discarded) as usize,
                rules.rules.total_tiles()
            );
            assert_eq!(o.turns, turns);
            assert!(events.iter().any(|e| matches!(e, Event::Chosen { .. })));
        }
    }
}

#[test]
fn every_policy_answers_the_tile_pick() {
    let rules = load("house-hand3");
    for policy in [
        PolicyKind::Random,
        PolicyKind::Greedy,
        PolicyKind::Heuristic,
        PolicyKind::Mcts(12, meeplab::policy::MctsStyle::Points),
    ] {
        /// Counts the picks a policy answers, checking each answer is an option.
        struct Counting(Policy, u32);
        impl Chooser for Counting {
            fn choose(&mut self, game: &Game, d: &Decision) -> usize {
                let i = self.0.choose(game, d);
                assert!(i < d.options, "{:?}", d.kind);
                if d.kind == DecisionKind::TILE_PICK {
                    assert!(d.options >= 2);
                    self.1 += 1;
                }
                i
            }
        }
        let mut c = Counting(Policy::new(policy), 0);
        let mut g = Game::new(rules.clone(), 3, 2);
        let a = g.play(&mut c, &mut NoEvents);
        assert!(c.1 > 10, "{policy}: {} picks", c.1);
        // the same seed, the same game
        let mut again = Counting(Policy::new(policy), 0);
        let b = Game::new(rules.clone(), 3, 2).play(&mut again, &mut NoEvents);
        assert_eq!(a, b, "{policy}");
    }
}

#[test]
fn determinize_for_keeps_the_viewers_hand_and_every_hand_size() {
    let rules = load("house-hand3");
    let mut g = Game::new(rules.clone(), 11, 3);
    let mut p = Policy::new(PolicyKind::Random);
    g.setup(&mut NoEvents);
    for _ in 0..10 {
        assert!(g.play_turn(&mut p, &mut NoEvents));
    }
    let hidden = |g: &Game, v: u8| {
        let mut all: Vec<TileIdx> = g.hidden_from(v).collect();
        all.sort_unstable();
        all
    };
    for viewer in 0..3u8 {
        let mut moved = false;
        for key in 0..20u64 {
            let mut d = g.clone();
            d.determinize_for(viewer, key);
            assert_eq!(d.hand(viewer), g.hand(viewer), "the viewer's own hand");
            for q in 0..3 {
                assert_eq!(d.hand(q).len(), g.hand(q).len(), "hand sizes");
            }
            assert_eq!(d.remaining(), g.remaining());
            assert_eq!(hidden(&d, viewer), hidden(&g, viewer), "the same tiles");
            assert_eq!(d.hidden_count(viewer), g.hidden_count(viewer));
            moved |= (0..3).any(|q| d.hand(q) != g.hand(q));
            // the same key, the same determinization
            let mut e = g.clone();
            e.determinize_for(viewer, key);
            assert_eq!(e.unseen(), d.unseen());
            assert!((0..3).all(|q| e.hand(q) == d.hand(q)));
        }
        assert!(moved, "the other hands are re-dealt");
    }
    // a hand of one: exactly `determinize`
    let base = load("base");
    let mut g = Game::new(base, 4, 3);
    g.setup(&mut NoEvents);
    for _ in 0..5 {
        assert!(g.play_turn(&mut p, &mut NoEvents));
    }
    assert_eq!(g.hidden_count(1), g.unseen().len());
    let (mut a, mut b) = (g.clone(), g.clone());
    a.determinize(99);
    b.determinize_for(2, 99);
    assert_eq!(a.unseen(), b.unseen());
}

#[test]
fn another_hand_size_cannot_hold_the_position() {
    let (two, three, base) = (load("house-hand2"), load("house-hand3"), load("base"));
    let mut g = Game::new(two.clone(), 1, 2);
    g.setup(&mut NoEvents);
    for other in [three, base] {
        let Err(no) = g.with_rules(other.clone()) else {
            panic!("{} held a hand of 2", other.rules.name)
        };
        assert!(no.to_string().contains("hand sizes differ"), "{no}");
    }
    assert!(g.with_rules(two).is_ok());
}

#[test]
fn a_hand_of_one_is_the_printed_rule_with_the_same_hash() {
    let explicit = load_str(
        "one.rules",
        "ruleset \"one\"\nextends \"rulesets/base.rules\"\nhand = 1\n",
    );
    let base = load("base");
    assert_eq!(explicit.rules.hand, 1);
    assert_eq!(explicit.rules.hash, base.rules.hash);
    assert!(!base.rules.options.contains_key("hand"));
    let two = load("house-hand2");
    assert_ne!(two.rules.hash, base.rules.hash);
    assert_eq!(two.rules.options["hand"].value, "2");
}

#[test]
fn a_record_of_a_hand_game_replays_to_the_same_events() {
    let rules = load("house-goldmines-hand2");
    for seed in 0..4 {
        let policy = "greedy".parse().unwrap();
        let (outcome, events, record) =
            meeplab::record::play_recorded(&rules, seed, 3, &policy).unwrap();
        assert!(record
            .decisions
            .iter()
            .any(|d| d.kind == DecisionKind::TILE_PICK));
        let r = meeplab::record::replay(
            &rules,
            &record,
            meeplab::engine::OnIllegal::Stop,
            PolicyKind::Random,
        );
        assert!(r.problems.is_empty(), "{:?}", r.problems);
        assert_eq!(r.events, events);
        assert_eq!(r.outcome, outcome);
    }
}
