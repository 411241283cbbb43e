//! Fuzz target: any bytes through parse + resolve (without file access) must not panic or
//! hang; a ruleset that resolves must print and resolve again to the same hash.
#![no_main]

use libfuzzer_sys::fuzz_target;
use meeplab::dsl::{load_ruleset_str_isolated, print_ruleset};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(loaded) = load_ruleset_str_isolated("fuzz.rules", text) {
        let printed = print_ruleset(&loaded.ruleset);
        let again = load_ruleset_str_isolated("printed.rules", &printed)
            .expect("a printed ruleset parses back");
        assert_eq!(again.ruleset.hash, loaded.ruleset.hash);
    }
});
