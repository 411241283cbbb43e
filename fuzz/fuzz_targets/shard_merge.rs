//! Fuzz target: shard merging. The input is split at lines `---` into `accumulator.json`
//! documents; the last part is used as a `games.csv`. Merging must give a result or an
//! error, never a panic or an allocation sized by a number in the input; a merge that
//! succeeds must be a consistent file of the whole run, and its CSV check must not panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use meeplab::compare::{merge_shards, ShardFile};
use meeplab::report::csv::merge_checked;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let parts: Vec<&str> = text.split("\n---\n").collect();
    let (csv, docs) = match parts.split_last() {
        Some((csv, docs)) if !docs.is_empty() => (*csv, docs),
        _ => return,
    };
    let files: Vec<(String, ShardFile)> = docs
        .iter()
        .enumerate()
        .filter_map(|(i, d)| Some((format!("shard{i}"), serde_json::from_str(d).ok()?)))
        .collect();
    let Ok(merged) = merge_shards(&files) else {
        return;
    };
    assert!(merged.check().is_ok(), "a merged file is consistent");
    assert_eq!(merged.accumulator.games, merged.spec.games);
    // the CSV check, on the first shard's rows
    let path = std::env::temp_dir().join(format!("meeplab-fuzz-{}.csv", std::process::id()));
    if std::fs::write(&path, csv).is_ok() {
        let inputs = [("shard0".to_string(), path.as_path(), &files[0].1)];
        let _ = merge_checked(&inputs, &mut std::io::sink());
        let _ = std::fs::remove_file(&path);
    }
});
