//! Regression fixtures: games JCloisterZone's own engine played and wrote (our data, made with
//! the `../shared/jczdiff` harness, see docs/src/jcz-diff.md), a few per kind under
//! `tests/jcz/generated/<kind>/`, each with JCloisterZone's final scores as its
//! `test.assertions`. Every save in every subfolder must replay with `--check`: a new kind is
//! covered by dropping its folder in. The saves are chosen to exercise each kind's rarer
//! steps (castle-step passes, auctions with sales, bridges, enclosed fields, builders, pigs,
//! big followers). The Big Box 6 combinations (`ferriestraders`: The Ferries with Traders &
//! Builders; `minis`: the C2 base with gardens and the abbot, the flier, ferries, mage &
//! witch, gold mines and crop circles II; `bb6`: those with I&C, T&B and the River) keep the
//! saves where the two engines first disagreed: an abbot taken back on a flier tile, and a
//! builder or pig left alone by a ferry move or a crop circle. `bb6c2` is `bb6` with the 2nd
//! editions' set ids (`inns-and-cathedrals:2`, `traders-and-builders:2`, `flier:2`,
//! `mage-and-witch:2`, `river/1:2`), as Big Box 6 prints them: its saves put abbots on the
//! garden tiles of each of those sets, whose plain twins the mapped deck no longer holds.
//! The saves named `…-tN` are such games cut after turn N (the replay up to turn N + 1's
//! tile, with JCloisterZone's scores after turn N from `jcz.sh turns` as the assertions), kept
//! small around a step the engines once disagreed on: a crop circle deploying a large
//! follower (`bb6-dense-05003`, `-05005`, `bb6c2-eager-06215`, `-06216`), and a builder kept
//! on the road a ferry move still carries (`bb6c2-eager-06201`).

use crate::cli_support;

use cli_support::{assert_jcz_check_passes, root};
use std::path::PathBuf;

/// `tests/jcz/generated/<kind>/*.jcz` as (kind, fixture names for `assert_jcz_check_passes`).
fn fixtures() -> Vec<(String, Vec<String>)> {
    let base = root().join("tests/jcz/generated");
    let mut kinds: Vec<PathBuf> = std::fs::read_dir(&base)
        .expect("tests/jcz/generated")
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    kinds.sort();
    kinds
        .into_iter()
        .map(|dir| {
            let kind = dir.file_name().unwrap().to_string_lossy().into_owned();
            let mut saves: Vec<String> = std::fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|x| x == "jcz"))
                .map(|p| {
                    let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
                    format!("generated/{kind}/{stem}")
                })
                .collect();
            saves.sort();
            (kind, saves)
        })
        .collect()
}

#[test]
fn every_generated_save_replays_with_check() {
    let all = fixtures();
    for kind in [
        "bcb",
        "castles",
        "goldcastles",
        "inns",
        "traders",
        "ferriestraders",
        "minis",
        "bb6",
        "bb6c2",
    ] {
        assert!(
            all.iter().any(|(k, s)| k == kind && !s.is_empty()),
            "no generated saves of {kind}: {all:?}"
        );
    }
    // one thread a kind: each save is its own meeplab process
    std::thread::scope(|scope| {
        for (kind, saves) in &all {
            assert!(
                !saves.is_empty(),
                "tests/jcz/generated/{kind}/ holds no .jcz"
            );
            scope.spawn(move || {
                for s in saves {
                    assert_jcz_check_passes(s);
                }
            });
        }
    });
}
