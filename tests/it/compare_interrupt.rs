//! Long runs that survive (issue 13), with the real binary as a child process: SIGINT
//! checkpoints and exits 130 leaving no temp file, `--resume` then gives byte-identical
//! outputs; a `kill -9` loses at most the batch in flight and `--resume` still recovers; a
//! killed run never mixes its files with the previous run's in the output folder.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn bundled(name: &str) -> String {
    format!("{}/rulesets/{name}.rules", env!("CARGO_MANIFEST_DIR"))
}

/// `meeplab compare base goldmines … --out run` in `cwd`, plus `extra`.
fn command(cwd: &Path, games: &str, seed: &str, extra: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_meeplab"));
    c.args(["compare", &bundled("base"), &bundled("goldmines-hig-2012")])
        .args(["--games", games, "--seed", seed, "--players", "3"])
        .args([
            "--threads",
            "1",
            "--out",
            "run",
            "--checkpoint-seconds",
            "0.2",
        ])
        .args(extra)
        .current_dir(cwd)
        .env("CI", "true")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    c
}

fn finish(c: &mut Command) -> Output {
    let out = c.output().expect("run meeplab");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Waits until the run in `cwd` has written a checkpoint (and so is past its start).
fn wait_for_checkpoint(cwd: &Path, child: &mut Child) {
    let ck = cwd.join(".run.checkpoint").join("checkpoint.json");
    let start = Instant::now();
    while !ck.is_file() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before it could be interrupted"
        );
        assert!(start.elapsed() < Duration::from_secs(120), "no checkpoint");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
}

/// Every path under `dir`, relative, sorted.
fn tree(dir: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        for e in fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            out.push(p.strip_prefix(root).unwrap().display().to_string());
            if p.is_dir() {
                walk(root, &p, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// The run's deterministic files (all but timing.json) with their bytes.
fn outputs(run: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = fs::read_dir(run)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap() != "timing.json")
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                fs::read(&p).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

fn uninterrupted(root: &Path, games: &str) -> Vec<(String, Vec<u8>)> {
    let cwd = root.join("straight");
    fs::create_dir(&cwd).unwrap();
    finish(&mut command(&cwd, games, "1", &[]));
    outputs(&cwd.join("run"))
}

const GAMES: &str = "20000";

#[test]
fn sigint_checkpoints_and_resume_is_byte_identical() {
    let root = tempfile::tempdir().unwrap();
    let cwd: PathBuf = root.path().join("interrupted");
    fs::create_dir(&cwd).unwrap();
    let mut child = command(&cwd, GAMES, "1", &[]).spawn().unwrap();
    wait_for_checkpoint(&cwd, &mut child);
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("games played, checkpoint in"), "{err}");
    assert!(
        err.contains("continue with:") && err.contains("--resume"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    // only the checkpoint remains: no temp file, no half-written output folder
    assert_eq!(
        tree(&cwd),
        [
            ".run.checkpoint",
            ".run.checkpoint/checkpoint.json",
            ".run.checkpoint/games.csv.part"
        ]
    );
    finish(&mut command(&cwd, GAMES, "1", &["--resume"]));
    let resumed = outputs(&cwd.join("run"));
    assert!(!cwd.join(".run.checkpoint").exists(), "checkpoint removed");
    let straight = uninterrupted(root.path(), GAMES);
    let names: Vec<&String> = resumed.iter().map(|f| &f.0).collect();
    assert!(
        names.iter().any(|n| *n == "report.json") && names.len() > 5,
        "{names:?}"
    );
    for ((a, x), (b, y)) in resumed.iter().zip(&straight) {
        assert_eq!(a, b);
        assert!(
            x == y,
            "{a} differs between the resumed and the uninterrupted run"
        );
    }
    assert_eq!(resumed.len(), straight.len());
}

#[test]
fn kill_9_loses_only_the_batch_in_flight_and_never_mixes_runs() {
    let root = tempfile::tempdir().unwrap();
    let cwd: PathBuf = root.path().join("killed");
    fs::create_dir(&cwd).unwrap();
    // an earlier, complete run into the same folder
    finish(&mut command(&cwd, "1500", "9", &[]));
    let earlier = outputs(&cwd.join("run"));
    let mut child = command(&cwd, GAMES, "1", &[]).spawn().unwrap();
    wait_for_checkpoint(&cwd, &mut child);
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    // the earlier run is still there, whole, and nothing of the new one beside it
    assert_eq!(outputs(&cwd.join("run")), earlier);
    // a rerun without --resume would start afresh; with it, it continues
    finish(&mut command(&cwd, GAMES, "1", &["--resume"]));
    let resumed = outputs(&cwd.join("run"));
    let straight = uninterrupted(root.path(), GAMES);
    assert_eq!(resumed.len(), straight.len());
    for ((a, x), (_, y)) in resumed.iter().zip(&straight) {
        assert!(
            x == y,
            "{a} differs between the resumed and the uninterrupted run"
        );
    }
    // no temp file or folder survives
    let hidden: Vec<String> = tree(&cwd)
        .into_iter()
        .filter(|p| p.split('/').any(|c| c.starts_with('.')))
        .collect();
    assert!(hidden.is_empty(), "left behind: {hidden:?}");
}

#[test]
fn resume_refuses_a_checkpoint_of_another_run() {
    let root = tempfile::tempdir().unwrap();
    let cwd: PathBuf = root.path().join("other");
    fs::create_dir(&cwd).unwrap();
    let mut child = command(&cwd, GAMES, "1", &[]).spawn().unwrap();
    wait_for_checkpoint(&cwd, &mut child);
    child.kill().unwrap();
    child.wait().unwrap();
    let out = command(&cwd, GAMES, "2", &["--resume"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("of another run: --seed is 1 there but 2 here"),
        "{err}"
    );
}

#[test]
fn files_of_an_earlier_run_never_stay_beside_a_new_one() {
    let root = tempfile::tempdir().unwrap();
    let cwd: PathBuf = root.path().join("formats");
    fs::create_dir(&cwd).unwrap();
    finish(&mut command(&cwd, "300", "1", &["--format", "both"]));
    assert!(cwd.join("run/scores.png").is_file());
    finish(&mut command(&cwd, "300", "2", &["--format", "svg"]));
    let left: Vec<String> = tree(&cwd)
        .into_iter()
        .filter(|p| p.ends_with(".png") || p.contains("/."))
        .collect();
    assert!(left.is_empty(), "files of the earlier run left: {left:?}");
    // and a folder holding files no run writes is refused, not replaced
    fs::write(cwd.join("run/notes.txt"), "mine").unwrap();
    let out = command(&cwd, "300", "3", &[]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("will not replace") && err.contains("notes.txt"),
        "{err}"
    );
    assert_eq!(
        fs::read_to_string(cwd.join("run/notes.txt")).unwrap(),
        "mine"
    );
}

/// `compare … --policy POLICY --threads 1` into `cwd/run`, checkpointing as often as the run
/// allows (slow games: a batch of them is cut short for a checkpoint, issue 43).
fn slow(cwd: &Path, games: &str, policy: &str, extra: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_meeplab"));
    c.args(["compare", &bundled("base"), &bundled("base-2000")])
        .args(["--games", games, "--policy", policy, "--threads", "1"])
        .args(["--out", "run", "--checkpoint-seconds", "0.2", "--no-luck"])
        .args(extra)
        .current_dir(cwd)
        .env("CI", "true")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    c
}

/// The checkpoint's `next_game`, once there is one.
fn checkpointed_games(cwd: &Path, child: &mut Child) -> u64 {
    wait_for_checkpoint(cwd, child);
    let text = fs::read_to_string(cwd.join(".run.checkpoint/checkpoint.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["next_game"].as_u64().expect("next_game")
}

/// A small search: a seed's games take about 2 seconds of CPU in a test build (half a second
/// in a release build), far longer than the checkpoint interval.
const POLICY: &str = "mcts:100";

/// Slow games are checkpointed within their first batch (a kill before the batch's end
/// no longer loses every game played), Ctrl-C stops after the games in flight rather than
/// the batch, and the run resumes to the very outputs of an uninterrupted one.
#[test]
fn slow_games_checkpoint_within_a_batch_and_stop_between_games() {
    let root = tempfile::tempdir().unwrap();
    let cwd: PathBuf = root.path().join("slow");
    fs::create_dir(&cwd).unwrap();
    // fewer games than a batch (250): before, no checkpoint until all were played (6, not
    // more: each is a search, played three times over)
    let games = "6";
    let mut child = slow(&cwd, games, POLICY, &[]).spawn().unwrap();
    let first = checkpointed_games(&cwd, &mut child);
    assert!(
        first > 0 && first < 6,
        "a checkpoint inside the first batch: {first}"
    );
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    let played: u64 = err
        .split("interrupted: ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{err}"));
    assert!(played < 6, "stopped before the batch's end: {err}");
    let out = slow(&cwd, games, POLICY, &["--resume"]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let resumed = outputs(&cwd.join("run"));
    let straight_dir = root.path().join("straight");
    fs::create_dir(&straight_dir).unwrap();
    let out = slow(&straight_dir, games, POLICY, &[]).output().unwrap();
    assert!(out.status.success());
    let straight = outputs(&straight_dir.join("run"));
    assert_eq!(resumed.len(), straight.len());
    for ((a, x), (_, y)) in resumed.iter().zip(&straight) {
        assert!(
            x == y,
            "{a} differs between the resumed and the uninterrupted run"
        );
    }
}

/// A second Ctrl-C exits at once, not after the games in flight (issue 43).
#[test]
fn a_second_interrupt_exits_at_once() {
    let root = tempfile::tempdir().unwrap();
    let cwd: PathBuf = root.path().join("twice");
    fs::create_dir(&cwd).unwrap();
    // games of a deep search: the one in flight takes far longer than the signals' gap
    let mut child = slow(&cwd, "50", "mcts:3000", &[]).spawn().unwrap();
    // the run has started once its checkpoint folder is there
    let start = Instant::now();
    while !cwd.join(".run.checkpoint").is_dir() {
        assert!(child.try_wait().unwrap().is_none(), "the run ended");
        assert!(start.elapsed() < Duration::from_secs(120), "no start");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    for _ in 0..2 {
        let killed = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        std::thread::sleep(Duration::from_millis(300));
    }
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted again: exiting at once"), "{err}");
}
