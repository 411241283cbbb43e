//! Verdicts (issue 40): each class from a synthetic run, Holm over the seats, `--until
//! decided` stopping with its report, and `calibrate`'s output and bad input.

use crate::cli_support::{meeplab, text};
use crate::compare_support::{ruleset, spec};
use meeplab::compare::seeds::splitmix64_mix;
use meeplab::compare::session::{run_to_dir, FolderOptions};
use meeplab::compare::verdict::{holm, Class, Question, Until, Verdict};
use meeplab::compare::{run_compare, summarize, CompareSpec, Report};
use meeplab::engine::{GameOutcome, SeatResult};
use meeplab::report::{ChartFormat, ReportFiles};
use std::fs;

/// Noise in {−spread, …, +spread}, symmetric, from the seed and the seat.
fn noise(seed: u64, seat: u64, spread: i64) -> i64 {
    (splitmix64_mix(seed ^ seat.wrapping_mul(0x9E37_79B9)) % (2 * spread as u64 + 1)) as i64
        - spread
}

/// Two seats; under ruleset 1 seat 0 gains `shift` points and both seats get symmetric
/// noise of `spread` (so seat 1's mean shift is 0).
pub(crate) fn game(r: usize, seed: u64, shift: i64, spread: i64) -> GameOutcome {
    let base = |s: u64| 20 + (splitmix64_mix(seed.wrapping_add(s)) % 20) as i64;
    let mut totals = [base(0), base(1)];
    if r == 1 {
        totals[0] += shift + noise(seed, 0, spread);
        totals[1] += noise(seed, 1, spread);
    }
    let best = totals.iter().copied().max().unwrap_or(0);
    let hashes: Vec<u64> = (0..10u64)
        .map(|t| splitmix64_mix(seed + t) ^ if r == 1 && t > 4 { 1 } else { 0 })
        .collect();
    GameOutcome {
        seed,
        seats: totals
            .iter()
            .map(|&t| SeatResult {
                total: t,
                ..Default::default()
            })
            .collect(),
        winners: (0..2u8).filter(|&s| totals[s as usize] == best).collect(),
        turns: 9,
        state_hashes: hashes.clone(),
        turn_hashes: hashes,
        ..Default::default()
    }
}

pub(crate) fn two(games: u64) -> CompareSpec {
    let mut s = spec(
        vec![
            ruleset("A", "ha", false, &[]),
            ruleset("B", "hb", false, &[]),
        ],
        games,
        2,
    );
    s.placebo = true;
    s
}

fn run(s: &CompareSpec, shift: i64, spread: i64) -> Report {
    let acc = run_compare(
        s,
        move |r: usize, seed: u64| game(r, seed, shift, spread),
        &mut |_| Ok(()),
        &|_| {},
    )
    .unwrap();
    summarize(s, &acc)
}

fn find(r: &Report, q: Question, seat: Option<u8>) -> &Verdict {
    r.verdicts
        .iter()
        .find(|v| v.question == q && v.seat == seat)
        .unwrap_or_else(|| panic!("no verdict {q:?} {seat:?} in {:#?}", r.verdicts))
}

#[test]
fn each_class_comes_from_the_interval_and_the_margin() {
    // seat 1 gains 5 points (a difference); seat 2 moves by noise of mean 0 and spread 1 over
    // 2000 seeds (an interval of about ±0.04 inside ±1 point: negligible)
    let r = run(&two(2000), 5, 1);
    let s1 = find(&r, Question::Score, Some(1));
    assert_eq!(s1.class, Class::Difference, "{s1:?}");
    assert!((s1.estimate - 5.0).abs() < 0.2);
    let s2 = find(&r, Question::Score, Some(2));
    assert_eq!(s2.class, Class::Negligible, "{s2:?}");
    let [lo, hi] = s2.interval.unwrap();
    assert!(lo > -1.0 && hi < 1.0);
    // seat verdicts are adjusted over the two seats
    assert!(s1.adjusted && s2.adjusted && s1.family == 2);
    // the headline names each class and the level, N and an interval
    assert!(r.headline.contains("score rises by 5."), "{}", r.headline);
    assert!(r.headline.contains("negligible"));
    assert!(r.headline.contains("2000 seeds"));
    assert!(r.headline.contains("95 %"));
    // no shift and a wide spread over few seeds: an interval straddling 0, wider than the
    // margin — "cannot tell", never "no more often than"
    let r = run(&two(40), 0, 20);
    let s2 = find(&r, Question::Score, Some(2));
    assert_eq!(s2.class, Class::CannotTell, "{s2:?}");
    let [lo, hi] = s2.interval.unwrap();
    assert!(lo < 0.0 && hi > 0.0 && (hi - lo) > 2.0);
    assert!(r.headline.contains("cannot tell"), "{}", r.headline);
    assert!(!r.headline.contains("no more often than"));
}

#[test]
fn holm_adjusts_the_seat_family_and_the_shown_interval_agrees() {
    let r = run(&two(300), 1, 6);
    for q in [Question::WinRate, Question::Score] {
        for seat in [1, 2] {
            let v = find(&r, q, Some(seat));
            let Some([lo, hi]) = v.interval else { continue };
            // the interval is shown at the level Holm tested it: it excludes 0 exactly when
            // the verdict is a difference
            let excludes = lo > 0.0 || hi < 0.0;
            assert_eq!(excludes, v.class == Class::Difference, "{v:?}");
            if v.class == Class::Negligible {
                assert!(lo > -v.margin && hi < v.margin);
            }
        }
    }
    // Holm's step-down: the smallest p times k, the next times k − 1, kept monotone
    let adj = holm(&[Some(0.02), Some(0.01), Some(0.04), None]);
    let close = |x: Option<f64>, y: f64| (x.unwrap() - y).abs() < 1e-12;
    assert!(close(adj[1], 0.03) && close(adj[0], 0.04) && close(adj[2], 0.04));
    assert_eq!(adj[3], None);
    // a seat family of one is not adjusted; who wins is a single test
    let who = find(&r, Question::WhoWins, None);
    assert!(!who.adjusted && who.family == 1);
}

#[test]
fn until_decided_stops_when_every_headline_verdict_is_settled() {
    let mut s = two(20_000);
    s.until = Some(Until::Decided);
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("until");
    let opts = FolderOptions {
        dir: dir.clone(),
        ..FolderOptions::default()
    };
    let writer = ReportFiles {
        format: ChartFormat::Svg,
        ..ReportFiles::default()
    };
    let out = run_to_dir(
        &s,
        |r: usize, seed: u64| game(r, seed, 5, 1),
        &opts,
        &writer,
        &|_| {},
    )
    .unwrap();
    let report = &out.report;
    assert!(
        report.games < 20_000 && report.games >= 500,
        "{}",
        report.games
    );
    assert_eq!(report.games % 250, 0);
    let stop = report.stopping.as_ref().unwrap();
    assert!(stop.met, "{stop:?}");
    assert_eq!((stop.games, stop.cap), (report.games, 20_000));
    assert!(report
        .verdicts
        .iter()
        .filter(|v| v.question != Question::Decisions)
        .all(|v| v.class != Class::CannotTell));
    assert_eq!(report.reproducibility.game_indices, [0, report.games]);
    assert!(report.reproducibility.command.contains("--until decided"));
    let md = fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(md.contains("**Stopping (`--until decided`):** stopped after"));
    // the answer first: the paragraph and its chart open the page, the chart once
    assert!(md.find(&report.headline).unwrap() < md.find("## Detail").unwrap());
    assert_eq!(md.matches("(verdicts.svg)").count(), 1);
    assert!(report.headline.contains("Stopped after"));
    let json = fs::read_to_string(dir.join("report.json")).unwrap();
    assert!(json.contains("\"verdicts\"") && json.contains("\"headline\""));
    assert!(json.contains("\"confidence_sequence\""));
    // the stop is a function of the seeds only: another thread count stops at the same seed
    let mut s2 = s.clone();
    s2.threads = Some(1);
    let again = run_compare(
        &s2,
        |r: usize, seed: u64| game(r, seed, 5, 1),
        &mut |_| Ok(()),
        &|_| {},
    )
    .unwrap();
    assert_eq!(again.games, report.games);
    // nothing to decide within the cap: it plays every seed and says what stayed open
    let mut open = two(1000);
    open.until = Some(Until::Decided);
    let r = run(&open, 0, 20);
    let stop = r.stopping.as_ref().unwrap();
    assert!(!stop.met && r.games == 1000);
    assert!(stop.reason.contains("still open"), "{}", stop.reason);
    // a sharded run cannot stop early
    let mut sharded = s.clone();
    sharded.shard = Some(meeplab::compare::Shard::new(1, 2).unwrap());
    assert!(sharded.validate().unwrap_err().contains("--until"));
}

#[test]
fn bad_verdict_input_is_a_usage_error_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("never");
    let out_s = out.to_str().unwrap();
    for (flag, value) in [
        ("--negligible", "0pp"),
        ("--negligible", "100pp"),
        ("--negligible", "0pt"),
        ("--until", "0.00001pp"),
        ("--until", "soon"),
    ] {
        let o = meeplab(&[
            "compare",
            "base",
            "goldmines-rgg",
            "--games",
            "1000",
            flag,
            value,
            "--out",
            out_s,
        ]);
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{flag} {value}: {err}");
        assert!(err.contains(flag), "{err}");
        assert!(!out.exists(), "{flag} {value} wrote {}", out.display());
    }
    let o = meeplab(&["calibrate", "base", "--runs", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("--runs"));
    let o = meeplab(&["calibrate", "base", "--null", "shuffle", "--runs", "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("relabel-deck"));
}

#[test]
fn calibrate_prints_each_verdicts_false_positive_rate() {
    let args = [
        "calibrate",
        "base",
        "--null",
        "relabel-deck",
        "--runs",
        "2",
        "--games",
        "30",
        "--policy",
        "random",
        "--positions",
        "0",
    ];
    let o = meeplab(&[&args[..], &["--json"]].concat());
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["runs"], 2);
    assert_eq!(v["null"], "relabel-deck");
    assert!(v["changed"].as_str().unwrap().contains("renamed"));
    let rows = v["verdicts"].as_array().unwrap();
    let names: Vec<&str> = rows
        .iter()
        .map(|r| r["question"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "who wins",
            "win rate",
            "score",
            "decisions",
            "any headline verdict"
        ]
    );
    for r in rows {
        let runs = r["runs"].as_u64().unwrap();
        let fp = r["false_positives"].as_u64().unwrap();
        assert!(runs <= 2 && fp <= runs);
        let ci = r["false_positive_ci"].as_array().unwrap();
        assert!(ci[0].as_f64().unwrap() <= ci[1].as_f64().unwrap());
    }
    // the same keys give the same answer, and the text names every verdict
    let again = meeplab(&[&args[..], &["--json"]].concat());
    assert_eq!(text(&again).0, out);
    let o = meeplab(&args);
    let (table, _) = text(&o);
    for name in [
        "who wins",
        "win rate",
        "score",
        "false positives",
        "95 % Wilson",
    ] {
        assert!(table.contains(name), "{table}");
    }
    // the other nulls run too
    for null in ["reorder-segments", "players-luck"] {
        let o = meeplab(&[
            "calibrate",
            "base",
            "--null",
            null,
            "--runs",
            "1",
            "--games",
            "20",
            "--policy",
            "random",
            "--positions",
            "0",
        ]);
        assert!(o.status.success(), "{null}: {}", text(&o).1);
    }
}

/// A run stopped by `--until` does not quote the fixed-N power formula as "the smallest shift
/// detectable": it gives its confidence sequences' half-widths at the N reached, wider than
/// the fixed-N t intervals of the same seeds and no wider than the Holm-level intervals its
/// verdicts show; a fixed run keeps the power figure.
#[test]
fn a_stopped_run_says_what_holds_instead_of_a_fixed_n_power() {
    let mut s = two(20_000);
    s.until = Some(Until::Decided);
    let r = run(&s, 5, 1);
    assert!(r.stopping.is_some() && r.games < 20_000, "{}", r.games);
    let p = &r.pairs[0];
    assert!(p.min_detectable.is_empty(), "{:?}", p.min_detectable);
    let widths = p.sequence_half_width.as_ref().expect("half-widths");
    assert_eq!(widths.len(), 2);
    for (seat, w) in widths.iter().enumerate() {
        let h = w.score.expect("a score spread");
        let [lo, hi] = p.mean_score_delta[seat].ci.expect("a t interval");
        assert!(
            h > (hi - lo) / 2.0,
            "seat {seat}: {h} vs fixed-N {}",
            (hi - lo) / 2.0
        );
        let v = find(&r, Question::Score, Some(seat as u8 + 1));
        let shown = v.half_width().expect("an interval");
        assert!(h <= shown + 1e-12, "seat {seat}: {h} vs {shown}");
        let win = find(&r, Question::WinRate, Some(seat as u8 + 1));
        if let (Some(x), Some(shown)) = (w.win_rate_pp, win.half_width()) {
            assert!(
                x > 0.0 && x <= 100.0 * shown + 1e-9,
                "seat {seat}: {x} vs {shown}"
            );
        }
    }
    let text = meeplab::report::summary_table(&r);
    assert!(
        text.contains("stopped on its data (--until), so no fixed-N power"),
        "{text}"
    );
    assert!(!text.contains("could detect (80 % power"), "{text}");
    let line = format!(
        "seat 1: ±{:.1} pp, ±{:.2} points",
        widths[0].win_rate_pp.unwrap(),
        widths[0].score.unwrap()
    );
    assert!(text.contains(&line), "{line} in {text}");
    let json = serde_json::to_value(&r).unwrap();
    assert!(json["pairs"][0]["sequence_half_width"].is_array());
    // a fixed run: the power figure, and no half-widths
    let fixed = run(&two(2_000), 1, 6);
    assert!(!fixed.pairs[0].min_detectable.is_empty());
    assert!(fixed.pairs[0].sequence_half_width.is_none());
    let text = meeplab::report::summary_table(&fixed);
    assert!(text.contains("could detect (80 % power"), "{text}");
    assert!(!serde_json::to_string(&fixed)
        .unwrap()
        .contains("sequence_half_width"));
}
