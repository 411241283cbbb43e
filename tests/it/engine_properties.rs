//! Property tests over many seeded games under every bundled ruleset: tiles, followers,
//! ingots and points are conserved; scores never fall; same seed → same game; a game record
//! replays to the same events; every move of random games keeps the library's invariants
//! (`meeplab::engine::invariants`).

use crate::scenario_support;

use meeplab::engine::expansions::{gold, robbers};
use meeplab::engine::{compile, Category, Compiled, Event, Game, NoEvents, OnIllegal, Phase};
use meeplab::policy::{Policy, PolicyKind};
use meeplab::record::{play_recorded, replay};
use proptest::prelude::*;
use std::path::Path;
use std::sync::{Arc, OnceLock};

const RULESETS: &[&str] = &[
    "base",
    "base-2000",
    "goldmines-hig-2012",
    "goldmines-rgg",
    "goldmines-bb6-2017",
    "goldmines-autopick",
    "robbers-2012",
    "robbers-zmg",
    "robbers-2025",
    "cropcircles",
    "cropcircles-zmg",
];

fn compiled() -> &'static Vec<(String, Arc<Compiled>)> {
    static ALL: OnceLock<Vec<(String, Arc<Compiled>)>> = OnceLock::new();
    ALL.get_or_init(|| {
        RULESETS
            .iter()
            .map(|name| {
                let path = format!("rulesets/{name}.rules");
                let loaded = meeplab::dsl::load_ruleset(Path::new(&path))
                    .unwrap_or_else(|d| panic!("{path}: {d}"));
                (name.to_string(), compile(&loaded.ruleset))
            })
            .collect()
    })
}

/// Cases per property: 24 by default (CI), `PROPTEST_CASES` for a longer soak.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(24)
}

/// Play a game turn by turn, checking the invariants between turns.
fn check_game(rules: &Arc<Compiled>, seed: u64, players: u8, policy: PolicyKind) {
    let r = &rules.rules;
    let mut game = Game::new(rules.clone(), seed, players);
    let mut chooser = Policy::new(policy);
    let mut events: Vec<Event> = Vec::new();
    game.setup(&mut events);
    let mut last_scores = game.scores().to_vec();
    loop {
        let more = game.play_turn(&mut chooser, &mut events);
        // followers: on board + in supply = followers per player
        for p in 0..players {
            let on_board = game.followers().iter().filter(|f| f.player == p).count();
            assert_eq!(
                on_board + game.supply(p) as usize,
                r.followers as usize,
                "seed {seed}: followers of seat {p} not conserved"
            );
        }
        // ingots: held + on board + removed = 2 per gold tile placed
        if let Some(g) = meeplab::engine::expansions::gold::GoldRules::of(r) {
            let held: u32 = (0..players).map(|p| game.ingots_held(p)).sum();
            assert_eq!(
                held + game.ingots_on_board() + game.ingots_removed(),
                g.ingots_per_tile as u32 * game.gold_tiles_placed(),
                "seed {seed}: ingots not conserved"
            );
        }
        // robbers stand on real spaces
        if let Some(rb) = robbers::RobberRules::of(r) {
            for sp in game.robbers().iter().flatten() {
                assert!(*sp < rb.track);
            }
        }
        // "fits anywhere" agrees with a brute-force search of every cell and rotation
        if game.turn().is_multiple_of(25) {
            let (mut x0, mut x1, mut y0, mut y1) = (0, 0, 0, 0);
            for t in game.placed_tiles() {
                (x0, x1, y0, y1) = (x0.min(t.x), x1.max(t.x), y0.min(t.y), y1.max(t.y));
            }
            for tile in 0..r.tiles.len() as u16 {
                let brute = (y0 - 1..=y1 + 1).any(|y| {
                    (x0 - 1..=x1 + 1)
                        .any(|x| (0..4).any(|rot| game.placement_legal(tile, x, y, rot)))
                });
                assert_eq!(game.fits_anywhere(tile), brute, "seed {seed}: tile {tile}");
            }
        }
        // scores never fall
        for (p, (&now, &before)) in game.scores().iter().zip(&last_scores).enumerate() {
            assert!(now >= before, "seed {seed}: seat {p} score fell");
        }
        last_scores = game.scores().to_vec();
        if !more {
            break;
        }
    }
    game.finish(&mut chooser, &mut events);
    let outcome = game.outcome();

    // every tile at most once: placed + discarded + start = the pack
    assert_eq!(
        outcome.tiles_placed + outcome.tiles_discarded,
        r.total_tiles() as u32,
        "seed {seed}: tiles not conserved"
    );
    let mut cells: Vec<(i32, i32)> = game.placed_tiles().iter().map(|t| (t.x, t.y)).collect();
    cells.sort_unstable();
    cells.dedup();
    assert_eq!(
        cells.len() as u32,
        outcome.tiles_placed,
        "two tiles on one cell"
    );

    // the event stream's points add up to the final scores, per category
    let mut sums = vec![[0i64; Category::COUNT]; players as usize];
    for e in &events {
        match *e {
            Event::Scored {
                category,
                winners,
                points,
                ..
            } => {
                for (p, s) in sums.iter_mut().enumerate() {
                    if winners & (1 << p) != 0 {
                        s[category.index()] += points;
                    }
                }
            }
            Event::Expansion(ref x) => {
                if let Some(v) = x.of(robbers::ROBBED) {
                    sums[v[1] as usize][meeplab::engine::expansions::robbers::ROBBERS.index()] +=
                        v[3];
                } else if let Some(v) = x.of(gold::GOLD_VALUE) {
                    sums[v[0] as usize][meeplab::engine::expansions::gold::GOLD.index()] += v[2];
                }
            }
            _ => {}
        }
    }
    for (p, seat) in outcome.seats.iter().enumerate() {
        assert_eq!(seat.by_category.0, sums[p], "seed {seed}: seat {p} points");
        assert_eq!(seat.total, seat.by_category.total());
    }
    // final-phase scorings only after the last turn
    let last_turn_end = events
        .iter()
        .rposition(|e| matches!(e, Event::TurnEnd { .. }))
        .unwrap_or(0);
    for e in &events[..last_turn_end] {
        if let Event::Scored { phase, .. } = e {
            assert_eq!(*phase, Phase::Turn);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn invariants_hold_in_random_games(seed in any::<u64>(), players in 2u8..=5) {
        for (_, rules) in compiled() {
            check_game(rules, seed, players, PolicyKind::Random);
        }
    }

    #[test]
    fn invariants_hold_in_greedy_games(seed in any::<u64>(), players in 2u8..=4) {
        for (_, rules) in compiled() {
            check_game(rules, seed, players, PolicyKind::Greedy);
        }
    }

    #[test]
    fn same_seed_same_game(seed in any::<u64>(), players in 2u8..=5) {
        for (_, rules) in compiled() {
            let (a, ea) = meeplab::play::play_with_events(rules, seed, players, PolicyKind::Random);
            let (b, eb) = meeplab::play::play_with_events(rules, seed, players, PolicyKind::Random);
            prop_assert_eq!(&a, &b);
            prop_assert_eq!(ea, eb);
            // the fast path (no events kept) plays the very same game
            let c = meeplab::play::play(rules, seed, players, PolicyKind::Random);
            prop_assert_eq!(a, c);
        }
    }

    #[test]
    fn a_record_replays_to_the_same_events(seed in any::<u64>(), players in 2u8..=5) {
        for (name, rules) in compiled() {
            for policy in ["random", "greedy", "greedy,random"] {
                // a per-seat list for as many seats as the game has
                let policy: meeplab::policy::spec::SeatPolicies = match policy {
                    "greedy,random" => (0..players)
                        .map(|p| if p % 2 == 0 { "greedy" } else { "random" })
                        .collect::<Vec<_>>()
                        .join(",")
                        .parse()
                        .expect("a valid list"),
                    one => one.parse().expect("a valid policy"),
                };
                let (outcome, events, record) =
                    play_recorded(rules, seed, players, &policy).expect("seats match");
                prop_assert_eq!(&record.policy, &policy);
                let text = serde_json::to_string(&record).expect("record encodes");
                let back: meeplab::record::GameRecord = serde_json::from_str(&text).expect("record decodes");
                let r = replay(rules, &back, OnIllegal::Stop, PolicyKind::Random);
                prop_assert!(r.problems.is_empty(), "{}: {:?}", name, r.problems);
                prop_assert_eq!(r.unrecorded, 0);
                prop_assert_eq!(&r.events, &events, "{} seed {}", name, seed);
                prop_assert_eq!(r.outcome, outcome);
            }
        }
    }
}

#[test]
fn a_reused_player_plays_like_a_fresh_game() {
    for (_, rules) in compiled() {
        let mut player = meeplab::play::GamePlayer::new(rules, PolicyKind::Random);
        for seed in 0..20 {
            let reused = player.play(seed, 3);
            let fresh = meeplab::play::play(rules, seed, 3, PolicyKind::Random);
            assert_eq!(reused, fresh, "seed {seed}");
        }
    }
}

#[test]
fn no_events_sink_keeps_the_same_hashes() {
    for (_, rules) in compiled() {
        let mut g = Game::new(rules.clone(), 9, 4);
        let mut p = Policy::new(PolicyKind::Random);
        let fast = g.play(&mut p, &mut NoEvents);
        let (slow, _) = meeplab::play::play_with_events(rules, 9, 4, PolicyKind::Random);
        assert_eq!(fast.turn_hashes, slow.turn_hashes);
    }
}

/// The pull API: a copy taken at any decision plays on exactly like the original, and
/// keeping a record changes no game (every decision is asked alike either way).
#[test]
fn a_copy_at_any_decision_plays_on_like_the_original() {
    use meeplab::engine::{Chooser, Pending};
    for (name, rules) in compiled() {
        for policy in [PolicyKind::Random, PolicyKind::Greedy] {
            let reference = meeplab::play::play(rules, 5, 3, policy);
            let mut game = Game::new(rules.clone(), 5, 3);
            game.enable_record();
            let mut chooser = Policy::new(policy);
            let mut decisions = 0u32;
            loop {
                match game.pending() {
                    Pending::Decision(d) => {
                        decisions += 1;
                        if decisions.is_multiple_of(37) {
                            let mut copy = game.clone();
                            copy.take_record();
                            let mut c = Policy::new(policy);
                            let on = copy.play(&mut c, &mut NoEvents);
                            assert_eq!(
                                on, reference,
                                "{name} {policy}: copy at decision {decisions}"
                            );
                        }
                        let i = chooser.choose(&game, &d);
                        game.apply(i).expect("a policy answers within the options");
                    }
                    Pending::Draw => {
                        if !game.draw(&mut NoEvents) {
                            game.finish_now(&mut NoEvents);
                        }
                    }
                    Pending::End => break,
                }
            }
            assert_eq!(
                game.outcome(),
                reference,
                "{name} {policy}: recording changes nothing"
            );
            assert_eq!(
                game.take_record().len() as u32,
                decisions,
                "{name}: every decision recorded"
            );
        }
    }
}

/// The hand-of-tiles house rule (`hand = N`): the bundled hands of 2 and 3 and a hand of 3
/// that reshuffles unplaceable tiles.
fn hand_rulesets() -> &'static Vec<(String, Arc<Compiled>)> {
    static ALL: OnceLock<Vec<(String, Arc<Compiled>)>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut out: Vec<(String, Arc<Compiled>)> = [
            "house-hand2",
            "house-hand3",
            "house-goldmines-hand2",
            "house-goldmines-hand3",
        ]
        .iter()
        .map(|name| {
            let path = format!("rulesets/{name}.rules");
            let loaded = meeplab::dsl::load_ruleset(Path::new(&path))
                .unwrap_or_else(|d| panic!("{path}: {d}"));
            (name.to_string(), compile(&loaded.ruleset))
        })
        .collect();
        let reshuffle = meeplab::dsl::load_ruleset_str(
            "reshuffle-hand3.rules",
            "ruleset \"hand of 3, reshuffle\"\nextends \"rulesets/house-hand3.rules\"\n\
             unplaceable = reshuffle\n",
        )
        .unwrap_or_else(|d| panic!("{d}"));
        out.push(("reshuffle-hand3".into(), compile(&reshuffle.ruleset)));
        out
    })
}

/// Tiles conserved at every turn boundary of a hand game: placed (the start tile included) +
/// discarded + in hands + in the pack = the pack's total; hands hold `hand - 1` tiles while
/// the pack lasts, and are empty at the end.
fn check_hand_tiles(rules: &Arc<Compiled>, seed: u64, players: u8, policy: PolicyKind) {
    let r = &rules.rules;
    let mut game = Game::new(rules.clone(), seed, players);
    let mut chooser = Policy::new(policy);
    let mut events: Vec<Event> = Vec::new();
    game.setup(&mut events);
    loop {
        let discarded = events
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Event::Discarded {
                        reshuffled: false,
                        ..
                    }
                )
            })
            .count();
        let held: usize = (0..players).map(|p| game.hand(p).len()).sum();
        assert_eq!(
            game.placed_tiles().len() + discarded + held + game.remaining(),
            r.total_tiles(),
            "seed {seed} turn {}: tiles not conserved",
            game.turn()
        );
        if game.remaining() > 0 {
            for p in 0..players {
                assert_eq!(game.hand(p).len() + 1, r.hand as usize, "seed {seed}");
            }
        }
        if !game.play_turn(&mut chooser, &mut events) {
            break;
        }
    }
    assert!((0..players).all(|p| game.hand(p).is_empty()));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn hand_games_conserve_tiles_and_followers(seed in any::<u64>(), players in 2u8..=5) {
        for (_, rules) in hand_rulesets() {
            check_hand_tiles(rules, seed, players, PolicyKind::Random);
            check_game(rules, seed, players, PolicyKind::Random);
        }
    }

    #[test]
    fn hand_games_with_greedy_players_conserve_tiles(seed in any::<u64>(), players in 2u8..=4) {
        for (_, rules) in hand_rulesets() {
            check_hand_tiles(rules, seed, players, PolicyKind::Greedy);
        }
    }

    #[test]
    fn a_hand_game_is_the_same_game_from_the_same_seed(seed in any::<u64>(), players in 2u8..=5) {
        for (name, rules) in hand_rulesets() {
            for policy in [PolicyKind::Random, PolicyKind::Greedy] {
                let (a, ea) = meeplab::play::play_with_events(rules, seed, players, policy);
                let (b, eb) = meeplab::play::play_with_events(rules, seed, players, policy);
                prop_assert_eq!(&a, &b, "{}", name);
                prop_assert_eq!(ea, eb);
                let c = meeplab::play::play(rules, seed, players, policy);
                prop_assert_eq!(a, c);
            }
        }
    }
}

/// Every bundled ruleset (`rulesets/*.rules`, by file name).
fn bundled() -> &'static Vec<(String, Arc<Compiled>)> {
    static ALL: OnceLock<Vec<(String, Arc<Compiled>)>> = OnceLock::new();
    ALL.get_or_init(scenario_support::bundled_rulesets)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2 * cases(), failure_persistence: None, ..ProptestConfig::default() })]

    /// The library's invariant checker (`meeplab::engine::invariants`, the fuzz target
    /// `play_random`'s) after every draw and every move of games whose options come from a
    /// random byte stream (then the decisions' keys), through the checked move path, under
    /// every bundled ruleset and a hand of 3 that reshuffles.
    #[test]
    fn every_move_keeps_the_invariants(
        seed in any::<u64>(),
        players in 2u8..=5,
        bytes in proptest::collection::vec(any::<u8>(), 0..400),
    ) {
        let reshuffle = hand_rulesets().iter().filter(|(n, _)| n == "reshuffle-hand3");
        for (name, rules) in bundled().iter().chain(reshuffle) {
            let mut game = Game::new(rules.clone(), seed, players);
            let mut at = 0usize;
            let pick = |_: &Game, d: &meeplab::engine::Decision| {
                at += 1;
                bytes.get(at - 1).map_or(d.key as usize, |&b| b as usize)
            };
            let played = meeplab::engine::invariants::play_checked(&mut game, pick);
            prop_assert!(played.is_ok(), "{} seed {} players {}: {}", name, seed, players,
                played.err().map(|v| v.to_string()).unwrap_or_default());
        }
    }
}
