//! `merge` checks every shard's `games.csv` against its `accumulator.json` (issue 13 §5):
//! rows of another seed, missing rows and a file cut mid-row are refused and nothing is
//! written; a ruleset name with a comma, a quote and a line break survives the merge
//! byte for byte (issue 14, CSV); long lists of missing shards are summarised (§6).

use crate::compare_support;

use compare_support::*;
use meeplab::compare::session::{merge_to_dir, run_to_dir, FolderOptions};
use meeplab::compare::{merge_shards, CompareSpec, MergeError, Shard, ShardFile};
use meeplab::report::ReportFiles;
use std::fs;
use std::path::{Path, PathBuf};

const GAMES: u64 = 2500;

fn base_spec(name_b: &str) -> CompareSpec {
    spec(
        vec![
            ruleset("A", "ha", false, &[]),
            ruleset(name_b, "hb", false, &[]),
        ],
        GAMES,
        3,
    )
}

fn run(s: &CompareSpec, dir: &Path) {
    let opts = FolderOptions {
        dir: dir.to_path_buf(),
        ..FolderOptions::default()
    };
    run_to_dir(
        s,
        player(3, &[1], false),
        &opts,
        &ReportFiles::default(),
        &|_| {},
    )
    .unwrap();
}

fn shards(root: &Path, name_b: &str, seed: [u64; 2]) -> Vec<PathBuf> {
    (1..=2)
        .map(|k| {
            let mut s = base_spec(name_b);
            s.shard = Some(Shard::new(k, 2).unwrap());
            s.seed = seed[k as usize - 1];
            let dir = root.join(format!("shard-{k}"));
            run(&s, &dir);
            dir
        })
        .collect()
}

fn merge(dirs: &[PathBuf], out: &Path) -> Result<(), MergeError> {
    merge_to_dir(dirs, out, &ReportFiles::default()).map(|_| ())
}

/// Merging must fail naming the shard's games.csv with `needle`, and write nothing.
fn refused(dirs: &[PathBuf], out: &Path, needle: &str) {
    let err = merge(dirs, out).unwrap_err().to_string();
    assert!(err.contains(needle), "expected {needle:?} in: {err}");
    assert!(err.contains("games.csv"), "{err}");
    assert!(!out.exists(), "nothing written when refused: {err}");
    let parent = out.parent().unwrap();
    let stray: Vec<_> = fs::read_dir(parent)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(stray.is_empty(), "temp folders left: {stray:?}");
}

#[test]
fn a_games_csv_from_another_seed_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let good = shards(&root.path().join("good"), "B", [42, 42]);
    let other = shards(&root.path().join("other"), "B", [7, 7]);
    // shard 2's accumulator is right, its games.csv comes from a run of seed 7
    fs::copy(other[1].join("games.csv"), good[1].join("games.csv")).unwrap();
    refused(&good, &root.path().join("out"), "another run?");
}

#[test]
fn missing_rows_and_a_cut_file_are_refused() {
    let root = tempfile::tempdir().unwrap();
    let dirs = shards(root.path(), "B", [42, 42]);
    let csv = dirs[0].join("games.csv");
    let text = fs::read_to_string(&csv).unwrap();
    // cut mid-row
    fs::write(&csv, &text[..text.len() - 3]).unwrap();
    refused(&dirs, &root.path().join("out"), "cut mid-row");
    // the last game's rows gone (cut at a line end)
    let mut lines: Vec<&str> = text.lines().collect();
    lines.truncate(lines.len() - 2);
    fs::write(&csv, lines.join("\n") + "\n").unwrap();
    refused(&dirs, &root.path().join("out"), "ends after");
    // one row of a game dropped from the middle
    let mut lines: Vec<&str> = text.lines().collect();
    lines.remove(10);
    fs::write(&csv, lines.join("\n") + "\n").unwrap();
    refused(&dirs, &root.path().join("out"), "row 10");
    // a score edited: every field still parses, the sums disagree with the aggregate
    let row = text.lines().nth(1).unwrap().to_string();
    let mut fields: Vec<String> = row.split(',').map(String::from).collect();
    fields[4] = (fields[4].parse::<i64>().unwrap() + 1).to_string();
    fs::write(&csv, text.replacen(&row, &fields.join(","), 1)).unwrap();
    refused(&dirs, &root.path().join("out"), "adds up to");
    // restored, the merge goes through
    fs::write(&csv, &text).unwrap();
    merge(&dirs, &root.path().join("out")).unwrap();
}

#[test]
fn ruleset_names_with_quotes_and_line_breaks_round_trip() {
    let root = tempfile::tempdir().unwrap();
    let name = "B, \"the \"house\" rules\"\nsecond line";
    let whole = root.path().join("whole");
    run(&base_spec(name), &whole);
    let dirs = shards(&root.path().join("shards"), name, [42, 42]);
    let out = root.path().join("out");
    merge(&dirs, &out).unwrap();
    let (a, b) = (
        fs::read(whole.join("games.csv")).unwrap(),
        fs::read(out.join("games.csv")).unwrap(),
    );
    assert!(a == b, "merged games.csv differs from the unsharded one");
    // and a CSV reader sees the name whole
    let mut reader = csv::Reader::from_path(out.join("games.csv")).unwrap();
    let second = reader.records().nth(1).unwrap().unwrap();
    assert_eq!(&second[2], name);
}

#[test]
fn a_long_list_of_missing_shards_is_summarised() {
    let root = tempfile::tempdir().unwrap();
    let mut s = base_spec("B");
    s.games = 1000;
    s.shard = Some(Shard::new(1, 100_000).unwrap());
    let dir = root.path().join("one");
    run(&s, &dir);
    let file: ShardFile =
        serde_json::from_str(&fs::read_to_string(dir.join("accumulator.json")).unwrap()).unwrap();
    let err = merge_shards(&[("one".into(), file)]).unwrap_err();
    assert_eq!(
        err,
        MergeError::Missing {
            n: 100_000,
            count: 99_999,
            first: (2..=11).collect()
        }
    );
    let msg = err.to_string();
    assert!(msg.len() < 200, "{msg}");
    assert!(msg.contains("2/100000, 3/100000"), "{msg}");
    assert!(msg.contains("(99999 missing in all)"), "{msg}");
}

/// Every column is checked, not only the totals and the turns (issue 43: an edited
/// `double_turns` cell was carried into the merged file): each cell edited in turn, in a row
/// of the second ruleset, is refused naming its column.
#[test]
fn an_edited_cell_of_any_column_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let dirs = shards(root.path(), "B", [42, 42]);
    let csv = dirs[0].join("games.csv");
    let text = fs::read_to_string(&csv).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    // the first row of ruleset B (row 2 of the file)
    let row = text.lines().nth(2).unwrap().to_string();
    assert!(row.contains(",B,"), "{row}");
    let fields: Vec<&str> = row.split(',').collect();
    assert_eq!(fields.len(), header.len());
    let out = root.path().join("out");
    for (i, column) in header.iter().enumerate().skip(4) {
        let mut edited: Vec<String> = fields.iter().map(|f| f.to_string()).collect();
        edited[i] = match (*column, fields[i]) {
            ("winners", w) => if w == "0" { "1" } else { "0" }.to_string(),
            (_, "") => "5".to_string(),
            (_, n) => (n.parse::<i64>().unwrap() + 1).to_string(),
        };
        fs::write(&csv, text.replacen(&row, &edited.join(","), 1)).unwrap();
        let err = merge(&dirs, &out).unwrap_err().to_string();
        assert!(err.contains("games.csv"), "{column}: {err}");
        let named = if *column == "winners" {
            "winners ("
        } else {
            column
        };
        assert!(err.contains(&format!("the {named}")), "{column}: {err}");
        assert!(!out.exists());
    }
    // the first ruleset's rows have no divergence turns
    let first = text.lines().nth(1).unwrap().to_string();
    let mut edited: Vec<&str> = first.split(',').collect();
    let last = edited.len() - 1;
    edited[last] = "3";
    fs::write(&csv, text.replacen(&first, &edited.join(","), 1)).unwrap();
    let err = merge(&dirs, &out).unwrap_err().to_string();
    assert!(err.contains("first_play_difference is not empty"), "{err}");
    fs::write(&csv, &text).unwrap();
    merge(&dirs, &out).unwrap();
}
