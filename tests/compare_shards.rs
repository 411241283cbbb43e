//! Sharded runs merge into exactly the unsharded run, and merges of shards that do not form
//! one run are refused with a clear message.

mod compare_support;

use compare_support::*;
use meeplab::compare::{
    compare_to_dir, merge_to_dir, CompareSpec, MergeError, OutputOptions, Shard,
};
use std::fs;
use std::path::{Path, PathBuf};

const GAMES: u64 = 2500; // three seed blocks, the last one partial

fn base_spec() -> CompareSpec {
    spec(
        vec![
            ruleset(
                "A",
                "ha",
                true,
                &[("gold.split", "draft", Some("HiG 2012"))],
            ),
            ruleset(
                "B",
                "hb",
                true,
                &[("gold.split", "one_per_feature", Some("RGG"))],
            ),
        ],
        GAMES,
        4,
    )
}

fn run(s: &CompareSpec, dir: &Path) {
    let opts = OutputOptions {
        dir: dir.to_path_buf(),
        ..OutputOptions::default()
    };
    compare_to_dir(s, player(4, &[1], true), &opts, &|_| {}).unwrap();
}

fn run_shard(root: &Path, k: u32, n: u32, tweak: impl Fn(&mut CompareSpec)) -> PathBuf {
    let mut s = base_spec();
    s.shard = Some(Shard::new(k, n).unwrap());
    s.threads = Some(2);
    tweak(&mut s);
    let dir = root.join(format!("shard-{k}-of-{n}"));
    run(&s, &dir);
    dir
}

fn merge(dirs: &[PathBuf], out: &Path) -> Result<(), MergeError> {
    let opts = OutputOptions {
        dir: out.to_path_buf(),
        ..OutputOptions::default()
    };
    merge_to_dir(dirs, &opts).map(|_| ())
}

#[test]
fn merged_shards_equal_the_unsharded_run() {
    let root = tempfile::tempdir().unwrap();
    let whole = root.path().join("whole");
    run(&base_spec(), &whole);
    let shards: Vec<PathBuf> = (1..=3)
        .map(|k| run_shard(root.path(), k, 3, |_| {}))
        .collect();
    // A shard holds only its games and aggregate, not a (partial) report.
    assert!(shards[0].join("accumulator.json").is_file());
    assert!(!shards[0].join("report.json").exists());

    // Any input order gives the same result.
    for (name, order) in [("merged", vec![0, 1, 2]), ("merged-rev", vec![2, 0, 1])] {
        let out = root.path().join(name);
        let dirs: Vec<PathBuf> = order.iter().map(|&i| shards[i].clone()).collect();
        merge(&dirs, &out).unwrap();
        for file in ["report.json", "games.csv", "report.md"] {
            let a = fs::read(whole.join(file)).unwrap();
            let b = fs::read(out.join(file)).unwrap();
            assert!(a == b, "{file} of {name} differs from the unsharded run");
        }
    }
    let csv = fs::read_to_string(whole.join("games.csv")).unwrap();
    assert_eq!(csv.lines().count() as u64, 1 + GAMES * 2);
}

#[test]
fn merges_of_different_or_incomplete_runs_are_refused() {
    let root = tempfile::tempdir().unwrap();
    let s1 = run_shard(root.path(), 1, 2, |_| {});
    let s2 = run_shard(root.path(), 2, 2, |_| {});
    let out = root.path().join("out");

    let other_seed = root.path().join("other-seed");
    fs::create_dir_all(&other_seed).unwrap();
    let mut s = base_spec();
    s.seed = 7;
    s.shard = Some(Shard::new(2, 2).unwrap());
    run(&s, &other_seed);
    let err = merge(&[s1.clone(), other_seed], &out).unwrap_err();
    assert!(
        matches!(err, MergeError::SpecMismatch { field: "seed", .. }),
        "{err}"
    );
    assert!(err.to_string().contains("different runs"), "{err}");

    let other_rules = run_shard(&root.path().join("x"), 2, 2, |s| {
        s.rulesets[1].hash = "hc".into()
    });
    let err = merge(&[s1.clone(), other_rules], &out).unwrap_err();
    assert!(err.to_string().contains("ruleset hash"), "{err}");

    let err = merge(std::slice::from_ref(&s1), &out).unwrap_err();
    assert_eq!(
        err,
        MergeError::Missing {
            shards: vec![Shard { k: 2, n: 2 }]
        }
    );
    assert!(err.to_string().contains("shard(s) 2/2 missing"), "{err}");

    let err = merge(&[s1.clone(), s1.clone(), s2.clone()], &out).unwrap_err();
    assert!(matches!(err, MergeError::Overlap { .. }), "{err}");

    let third = run_shard(&root.path().join("y"), 2, 3, |_| {});
    let err = merge(&[s1.clone(), third], &out).unwrap_err();
    assert!(matches!(err, MergeError::Overlap { .. }), "{err}");

    let err = merge(&[], &out).unwrap_err();
    assert_eq!(err, MergeError::NoInputs);
    assert!(!out.exists(), "nothing is written when a merge is refused");

    merge(&[s2, s1], &out).unwrap();
    assert!(out.join("report.json").is_file());
}
