//! Synthetic games for the compare and report tests: deterministic outcomes from
//! `(ruleset variant, seed)`, no engine needed.
#![allow(dead_code)]

use meeplab::compare::seat_counts::ByCounter;
use meeplab::compare::seeds::splitmix64_mix;
use meeplab::compare::{CompareSpec, OptionInfo, RulesetInfo};
use meeplab::engine::expansions::gold;
use meeplab::engine::{ByCategory, Category, Counter, Counters, GameOutcome, SeatResult};
use std::collections::BTreeMap;

pub fn ruleset(
    name: &str,
    hash: &str,
    gold: bool,
    options: &[(&str, &str, Option<&str>)],
) -> RulesetInfo {
    RulesetInfo {
        name: name.to_string(),
        file: Some(format!("rulesets/{name}.rules")),
        hash: hash.to_string(),
        counts_in_play: ByCounter::from_fn(|c| gold && c == gold::INGOTS),
        options: options
            .iter()
            .map(|(k, v, s)| {
                (
                    k.to_string(),
                    OptionInfo {
                        value: v.to_string(),
                        source: s.map(str::to_string),
                    },
                )
            })
            .collect::<BTreeMap<_, _>>(),
    }
}

pub fn spec(rulesets: Vec<RulesetInfo>, games: u64, players: u8) -> CompareSpec {
    CompareSpec {
        rulesets,
        games,
        players,
        seed: 42,
        policy: "random".to_string(),
        shard: None,
        threads: None,
        command_line: "meeplab compare (test)".to_string(),
        engine_version: "test-engine".to_string(),
        tile_catalogue_hash: "tiles0".to_string(),
        placebo: true,
        positions: 0,
        luck: false,
        skill: None,
        negligible: Default::default(),
        until: None,
    }
}

/// Whether the variant game of `seed` departs from the base game.
pub fn variant_diverges(seed: u64) -> bool {
    !seed.is_multiple_of(4)
}

/// Turn at which the variant departs.
pub fn variant_turn(seed: u64) -> u32 {
    1 + ((seed >> 8) % 50) as u32
}

/// Bonus the variant gives seat 0 when it departs.
pub const BONUS: i64 = 10;

fn winners(seats: &[SeatResult]) -> Vec<u8> {
    let max = seats.iter().map(|s| s.total).max().unwrap_or(0);
    (0..seats.len() as u8)
        .filter(|&s| seats[s as usize].total == max)
        .collect()
}

/// The base game of `seed` (`variant` false) or the variant game (`variant` true).
pub fn game(seed: u64, players: u8, variant: bool, gold: bool) -> GameOutcome {
    let turns = 60 + (seed % 7) as u32;
    let mut seats: Vec<SeatResult> = (0..players as u64)
        .map(|s| {
            let x = splitmix64_mix(seed ^ (s + 1).wrapping_mul(0x1234_5678_9abc));
            let mut by = ByCategory::default();
            by.add(Category::ROAD, (x % 20) as i64);
            by.add(Category::CITY, ((x >> 8) % 40) as i64);
            by.add(Category::FIELD, ((x >> 16) % 15) as i64);
            let ingots = if gold { ((x >> 24) % 6) as u32 } else { 0 };
            by.add(meeplab::engine::expansions::gold::GOLD, ingots as i64);
            let mut seat = SeatResult {
                total: by.total(),
                by_category: by,
                followers_placed: 5 + (x >> 32) as u32 % 5,
                ..SeatResult::default()
            };
            seat.counts.set(gold::INGOTS, ingots);
            seat
        })
        .collect();
    let mut hashes: Vec<u64> = (0..=turns as u64)
        .map(|t| splitmix64_mix(seed.wrapping_add(t)))
        .collect();
    if variant && variant_diverges(seed) {
        seats[0].total += BONUS;
        seats[0].by_category.add(Category::CLOISTER, BONUS);
        let d = variant_turn(seed) as usize;
        for h in &mut hashes[d..] {
            *h ^= 0xdead_beef;
        }
    }
    GameOutcome {
        seed,
        winners: winners(&seats),
        seats,
        tiles_placed: turns + 1,
        tiles_discarded: (seed % 2) as u32,
        turns,
        lead_changes: (seed % 5) as u32,
        counters: {
            let mut c = Counters(vec![0; Counter::COUNT]);
            if gold {
                c.add(
                    meeplab::engine::expansions::gold::INGOTS_ON_BOARD,
                    (seed % 3) as u32,
                );
            }
            c
        },
        state_hashes: hashes.clone(),
        // seat (seed + t) mod players leads alone after turn t; all are level at the set-up
        leaders: (0..=turns as u64)
            .map(|t| match t {
                0 => (1u8 << players) - 1,
                _ => 1 << ((seed + t) % players as u64),
            })
            .collect(),
        turn_hashes: hashes,
        ..GameOutcome::default()
    }
}

/// A player for `run_compare`: ruleset indices listed in `variants` play the variant.
pub fn player(
    players: u8,
    variants: &'static [usize],
    gold: bool,
) -> impl Fn(usize, u64) -> GameOutcome + Sync {
    move |r, seed| game(seed, players, variants.contains(&r), gold)
}
