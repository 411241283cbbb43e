//! Fuzz target: any bytes through the `.jcz` importer — JSON decoding, save parsing, the
//! ruleset the save's setup asks for, translation of its moves, and replay under that
//! ruleset with the strict checks — must give a result or an error, never a panic or a hang.
#![no_main]

use libfuzzer_sys::fuzz_target;
use meeplab::engine::compile;
use meeplab::import::jcz::{load_ruleset, looks_like_jcz, parse, parse_json, translate};
use meeplab::dsl::bundled::rulesets_dir;
use meeplab::import::replay::{replay_jcz, JczMode};
use meeplab::policy::PolicyKind;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(json) = parse_json(text) else {
        return;
    };
    if !looks_like_jcz(&json) {
        return;
    }
    let Ok(game) = parse(&json) else {
        return;
    };
    let Ok(rules) = load_ruleset(&game.setup, &rulesets_dir()) else {
        return;
    };
    let Ok(translated) = translate(&game, &rules) else {
        return;
    };
    let players = game.players.len().clamp(1, 6) as u8;
    let compiled = compile(&rules);
    let _ = replay_jcz(
        &compiled,
        &translated,
        players,
        Default::default(),
        PolicyKind::Random,
        JczMode::Own,
        None,
    );
});
