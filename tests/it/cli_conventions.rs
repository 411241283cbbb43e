//! The command-line conventions end to end: `-` for standard input, `check --json` with
//! diagnostics, `diff --exit-code`, `--color`, `--quiet`, completions and the manual page,
//! and the argument checks every command shares.

use crate::cli_support;

use cli_support::{meeplab, root, text};
use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Run `meeplab ARGS` with `input` on standard input.
fn meeplab_stdin(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_meeplab"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .env("CI", "true")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run meeplab");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("wait for meeplab")
}

#[test]
fn check_reads_standard_input_and_prints_json_diagnostics() {
    let o = meeplab_stdin(&["check", "--json", "-"], "ruleset \"t\"\nfolowers = 3\n");
    assert_eq!(o.status.code(), Some(1));
    let (out, err) = text(&o);
    assert!(
        err.is_empty(),
        "diagnostics go to stdout with --json: {err}"
    );
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON on stdout");
    let entry = &v[0];
    assert_eq!(entry["ok"], false);
    assert_eq!(entry["file"], "<stdin>");
    let d = &entry["diagnostics"][0];
    assert_eq!(d["code"], "E0201");
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(2), Some(1))
    );
    assert_eq!(d["file"], "<stdin>");
    assert!(d["message"].as_str().unwrap_or("").contains("folowers"));
    assert!(d["help"].as_str().unwrap_or("").contains("`followers`"));
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let bad = "ruleset \"t\"\nfolowers = 3\n";
    let plain = meeplab_stdin(&["check", "-"], bad);
    assert!(!text(&plain).1.contains('\x1b'));
    let forced = meeplab_stdin(&["--color", "always", "check", "-"], bad);
    assert!(text(&forced).1.contains("\x1b["), "{}", text(&forced).1);
    let never = meeplab_stdin(&["check", "--color=never", "-"], bad);
    assert!(!text(&never).1.contains('\x1b'));
}

#[test]
fn quiet_prints_errors_only() {
    let o = meeplab(&["check", "-q", "base"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(text(&o), (String::new(), String::new()));
    let o = meeplab_stdin(&["-q", "check", "-"], "ruleset \"t\"\nfolowers = 3\n");
    assert!(text(&o).1.contains("error[E0201]"));
}

#[test]
fn diff_exit_code_says_whether_they_differ() {
    let differ = meeplab(&["diff", "--exit-code", "goldmines-hig-2012", "goldmines-rgg"]);
    assert_eq!(differ.status.code(), Some(1));
    let same = meeplab(&["diff", "--exit-code", "base", "rulesets/base.rules"]);
    assert_eq!(same.status.code(), Some(0));
    let plain = meeplab(&["diff", "goldmines-hig-2012", "goldmines-rgg"]);
    assert_eq!(plain.status.code(), Some(0));
}

#[test]
fn completions_and_manual_page() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let o = meeplab(&["completions", shell]);
        assert_eq!(o.status.code(), Some(0), "{shell}");
        let (out, _) = text(&o);
        assert!(
            out.contains("compare") && out.contains("--policy"),
            "{shell}"
        );
    }
    let (bash, _) = text(&meeplab(&["completions", "bash"]));
    assert!(bash.contains("svg png both"), "--format values completed");
    let man = meeplab(&["man"]);
    assert_eq!(man.status.code(), Some(0));
    let (page, _) = text(&man);
    assert!(
        page.starts_with(".ie") || page.contains(".TH meeplab 1"),
        "{page}"
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let o = meeplab(&["man", "--out", dir.path().to_str().unwrap_or(".")]);
    assert_eq!(o.status.code(), Some(0));
    assert!(dir.path().join("meeplab-compare.1").is_file());
}

#[test]
fn help_lists_values_and_examples() {
    let (help, _) = text(&meeplab(&["compare", "--help"]));
    for needle in ["random", "greedy", "svg", "png", "both", "Examples:"] {
        assert!(help.contains(needle), "{needle} in\n{help}");
    }
    let (help, _) = text(&meeplab(&["trace", "--help"]));
    assert!(help.contains("Players per game") && help.contains("Player policy"));
}

#[test]
fn every_command_checks_players_and_games() {
    for args in [
        &["trace", "base", "base-2000", "--players", "0"][..],
        &["trace", "base", "base-2000", "--players", "9"],
        &["bench", "base", "--players", "0", "--games", "5"],
        &["play", "base", "--players", "9"],
    ] {
        let o = meeplab(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(text(&o).1.contains("is for 2–6 players"), "{args:?}");
    }
    let o = meeplab(&["bench", "base", "--games", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("--games must be at least 1"));
    let o = meeplab(&["bench", "base", "--rounds", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("--rounds"));
}

#[test]
fn bench_reports_every_round_and_the_fastest() {
    let o = meeplab(&["bench", "base", "--games", "20", "--rounds", "2", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o).1);
    let v: serde_json::Value = serde_json::from_str(&text(&o).0).expect("bench JSON");
    assert_eq!(v["rounds"], 2);
    for (best, rounds) in [
        (
            "games_per_second_1_thread",
            "games_per_second_1_thread_rounds",
        ),
        (
            "games_per_second_all_threads",
            "games_per_second_all_threads_rounds",
        ),
    ] {
        let each: Vec<f64> = v[rounds]
            .as_array()
            .expect(rounds)
            .iter()
            .map(|x| x.as_f64().expect("a rate"))
            .collect();
        assert_eq!(each.len(), 2, "{rounds}");
        let fastest = each.iter().copied().fold(0.0, f64::max);
        assert_eq!(v[best].as_f64(), Some(fastest), "{best}: the fastest round");
    }
}

#[test]
fn output_folder_errors_name_the_path() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("a-file");
    std::fs::write(&file, "x").expect("write");
    let under = file.join("sub");
    for out in [&file, &under] {
        let o = meeplab(&[
            "compare",
            "base",
            "base-2000",
            "--games",
            "2",
            "--out",
            out.to_str().unwrap_or("."),
        ]);
        assert_eq!(o.status.code(), Some(1));
        let (_, err) = text(&o);
        assert!(err.contains(&out.display().to_string()), "{err}");
    }
}

/// `-q` means one thing in every command (issue 43: `compare -q` was silent, `ladder -q`
/// printed its table, `sweep -q` its summary): errors only, the files still written; what a
/// command exists to print (`diff`) still goes to stdout.
#[test]
fn quiet_means_errors_only_in_every_command() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = |name: &str| dir.path().join(name).display().to_string();
    let (c, l, s) = (out("c"), out("l"), out("s"));
    for (args, file) in [
        (
            vec![
                "compare",
                "base",
                "base-2000",
                "--games",
                "4",
                "--out",
                &c,
                "-q",
            ],
            "report.json",
        ),
        (
            vec![
                "-q", "ladder", "random", "greedy", "--games", "4", "--out", &l,
            ],
            "ladder.json",
        ),
        (
            vec![
                "sweep",
                "rulesets/robbers-2012.rules",
                "--vary",
                "robbers.share=ceil(points / 3),ceil(points / 2)",
                "--games",
                "4",
                "--out",
                &s,
                "--quiet",
            ],
            "sweep.json",
        ),
    ] {
        let o = meeplab(&args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", text(&o).1);
        assert_eq!(text(&o), (String::new(), String::new()), "{args:?}");
        let folder =
            std::path::Path::new(args[args.iter().position(|a| *a == "--out").unwrap() + 1]);
        assert!(folder.join(file).is_file(), "{args:?}: {file}");
    }
    let o = meeplab(&["diff", "-q", "goldmines-hig-2012", "goldmines-rgg"]);
    assert!(text(&o).0.contains("gold.split"), "{}", text(&o).0);
    let (help, _) = text(&meeplab(&["--help"]));
    assert!(help.contains("errors only"), "{help}");
}

/// A negative count gets a sentence, not clap's tip to write `-- -5` (issue 43).
#[test]
fn a_negative_number_is_a_clear_usage_error() {
    for args in [
        &["compare", "base", "base-2000", "--games", "-5"][..],
        &["ladder", "random", "greedy", "--games", "-5"],
        &["play", "base", "--seed", "-1"],
    ] {
        let o = meeplab(args);
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let option = args[args.len() - 2];
        assert!(
            err.contains(&format!("{option} {}", args[args.len() - 1]))
                && err.contains("not a negative one"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("-- -"), "{err}");
    }
}

/// Help written to a full disk is an error, not a silent exit 0 (issue 43).
#[cfg(target_os = "linux")]
#[test]
fn help_into_a_full_disk_fails() {
    for args in [
        &["--help"][..],
        &["compare", "--help"],
        &["diff", "base", "goldmines-rgg"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let o = Command::new(env!("CARGO_BIN_EXE_meeplab"))
            .args(args)
            .current_dir(root())
            .stdout(full)
            .stderr(Stdio::piped())
            .output()
            .expect("run meeplab");
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("No space left"),
            "{args:?}"
        );
    }
}
