//! Criterion benchmarks: one random-policy 2-player game under the base rules and under Gold
//! Mines (HiG 2012), and legal-placement-heavy turns. `meeplab bench` prints games/second.

use criterion::{criterion_group, criterion_main, Criterion};
use meeplab::engine::compile;
use meeplab::play::GamePlayer as Player;
use meeplab::policy::PolicyKind;
use std::hint::black_box;
use std::path::Path;

fn load(path: &str) -> meeplab::ruleset::Ruleset {
    match meeplab::dsl::load_ruleset(Path::new(path)) {
        Ok(l) => l.ruleset,
        Err(d) => panic!("{path}: {d}"),
    }
}

fn games(c: &mut Criterion) {
    for (name, file) in [
        ("base", "rulesets/base.rules"),
        ("goldmines-hig-2012", "rulesets/goldmines-hig-2012.rules"),
        ("robbers-2012", "rulesets/robbers-2012.rules"),
    ] {
        let compiled = compile(&load(file));
        let mut player = Player::new(&compiled, PolicyKind::Random);
        let mut seed = 0u64;
        c.bench_function(&format!("{name}_random_2p_game"), |b| {
            b.iter(|| {
                seed += 1;
                black_box(player.play(seed, 2))
            })
        });
    }
    let compiled = compile(&load("rulesets/base.rules"));
    let mut player = Player::new(&compiled, PolicyKind::Greedy);
    let mut seed = 0u64;
    c.bench_function("base_greedy_2p_game", |b| {
        b.iter(|| {
            seed += 1;
            black_box(player.play(seed, 2))
        })
    });
}

criterion_group!(benches, games);
criterion_main!(benches);
