//! Tests of the turn with hands (the `hand` house rule): the tile-pick options, a hand of
//! one, a copy taken at a tile pick, and the hands in the state hash.

use crate::engine::{compile, Choice, DecisionKind, Event, Game, NoEvents, Pending};
use std::path::Path;

fn rules(name: &str) -> std::sync::Arc<crate::engine::Compiled> {
    let path = format!("rulesets/{name}.rules");
    compile(
        &crate::dsl::load_ruleset(Path::new(&path))
            .unwrap_or_else(|d| panic!("{d}"))
            .ruleset,
    )
}

/// Plays `g` with the keyed option until its `turns`-th turn is under way.
fn keyed_until(g: &mut Game, turns: u32) {
    g.setup(&mut NoEvents);
    while g.turn() < turns {
        match g.pending() {
            Pending::Decision(d) => g.apply_unchecked((d.key % d.options as u64) as usize),
            Pending::Draw => assert!(g.draw(&mut NoEvents)),
            Pending::End => panic!("over before turn {turns}"),
        }
    }
}

#[test]
fn pick_options_are_distinct_fitting_types_in_type_order() {
    let r = rules("house-hand3");
    let mut g = Game::new(r.clone(), 3, 2);
    g.setup(&mut NoEvents);
    let (l, rr, c) = (
        r.rules.tile_index("BA/L").unwrap(),
        r.rules.tile_index("BA/Rr").unwrap(),
        r.rules.tile_index("BA/C").unwrap(),
    );
    g.hands[0] = [rr, l, rr, c];
    g.hand_len[0] = 4;
    assert_eq!(g.pick_options(0), 3);
    let mut want = [l, rr, c];
    want.sort_unstable();
    assert_eq!(&g.opt_pick[..3], &want);
}

#[test]
fn a_hand_of_one_deals_nothing_and_never_picks() {
    let r = rules("base");
    let mut g = Game::new(r, 5, 3);
    let mut events = Vec::new();
    g.setup(&mut events);
    assert!(!events.iter().any(|e| matches!(e, Event::Dealt { .. })));
    let mut picks = 0;
    while g.draw(&mut events) {
        while let Pending::Decision(d) = g.pending() {
            picks += usize::from(d.kind == DecisionKind::TILE_PICK);
            g.apply_unchecked_with(0, &mut events);
        }
        assert!((0..3).all(|p| g.hand(p).is_empty()));
    }
    assert_eq!(picks, 0);
    assert!(!events.iter().any(|e| matches!(e, Event::Chosen { .. })));
}

#[test]
fn a_copy_at_a_tile_pick_plays_on_like_the_game() {
    let r = rules("house-goldmines-hand3");
    let mut g = Game::new(r, 8, 3);
    keyed_until(&mut g, 12);
    // on to the next tile pick
    loop {
        match g.pending() {
            Pending::Decision(d) if d.kind == DecisionKind::TILE_PICK => break,
            Pending::Decision(d) => g.apply_unchecked((d.key % d.options as u64) as usize),
            Pending::Draw => assert!(g.draw(&mut NoEvents)),
            Pending::End => panic!("no tile pick"),
        }
    }
    let Pending::Decision(d) = g.pending() else {
        unreachable!()
    };
    let options: Vec<Choice> = (0..d.options).map(|i| g.choice(d.kind, i)).collect();
    assert!(options.iter().all(|c| matches!(c, Choice::Tile { .. })));
    let mut copy = Game::new(rules("house-goldmines-hand3"), 1, 2);
    copy.clone_from(&g);
    struct Keyed;
    impl crate::engine::Chooser for Keyed {
        fn choose(&mut self, _g: &Game, d: &crate::engine::Decision) -> usize {
            (d.key % d.options as u64) as usize
        }
    }
    assert_eq!(
        g.play(&mut Keyed, &mut NoEvents),
        copy.play(&mut Keyed, &mut NoEvents)
    );
}

#[test]
fn hands_count_in_the_state_hash() {
    let r = rules("house-hand2");
    let mut g = Game::new(r, 2, 2);
    keyed_until(&mut g, 3);
    while let Pending::Decision(d) = g.pending() {
        g.apply_unchecked((d.key % d.options as u64) as usize);
    }
    assert_eq!((g.hand_len[0], g.hand_len[1]), (1, 1));
    let mut h = g.clone();
    // another tile in seat 0's hand
    let types = g.rules.tiles.len() as u16;
    h.hands[0][0] = (g.hands[0][0] + 1) % types;
    g.close_turn_records();
    h.close_turn_records();
    assert_ne!(g.tracker.hashes.last(), h.tracker.hashes.last());
}
