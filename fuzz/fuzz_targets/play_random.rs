//! Fuzz target: random legal play through every bundled ruleset. The first bytes choose the
//! ruleset (byte 0, modulo the bundled rulesets in name order), the seats (byte 1: 2 + byte
//! modulo 4) and the seed (bytes 2..10, little-endian); every later byte answers one decision
//! (the byte modulo its options; once the bytes run out the decision's key decides). Every
//! answer goes through the checked move path, and after the set-up, every draw and every
//! move the library's invariant checker (`meeplab::engine::invariants`) must hold: followers
//! and ingots conserved, tiles conserved, no score falling, well-formed decisions; at the end
//! each seat's total is the sum of its categories. Never a panic or a hang.
#![no_main]

use libfuzzer_sys::fuzz_target;
use meeplab::dsl::bundled::{find, ruleset_names};
use meeplab::engine::invariants::play_checked;
use meeplab::engine::{compile, Compiled, Game};
use std::sync::{Arc, OnceLock};

/// The bundled rulesets, compiled once per process.
fn rulesets() -> &'static Vec<(&'static str, Arc<Compiled>)> {
    static ALL: OnceLock<Vec<(&'static str, Arc<Compiled>)>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut names = ruleset_names();
        names.sort_unstable();
        names
            .into_iter()
            .filter_map(|name| {
                let path = find(name)?;
                let loaded = meeplab::dsl::load_ruleset(&path).ok()?;
                Some((name, compile(&loaded.ruleset)))
            })
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let all = rulesets();
    assert!(!all.is_empty(), "no bundled ruleset loads");
    let (head, moves) = data.split_at(data.len().min(10));
    let byte = |i: usize| head.get(i).copied().unwrap_or(0);
    let (name, rules) = &all[byte(0) as usize % all.len()];
    let players = 2 + byte(1) % 4;
    let mut seed = [0u8; 8];
    for (k, b) in seed.iter_mut().enumerate() {
        *b = byte(2 + k);
    }
    let seed = u64::from_le_bytes(seed);
    let mut game = Game::new(rules.clone(), seed, players);
    let mut next = moves.iter();
    let played = play_checked(&mut game, |_, d| {
        next.next().map_or(d.key as usize, |&b| b as usize)
    });
    if let Err(v) = played {
        panic!("{name}, seed {seed}, {players} players: {v}");
    }
});
