//! The answer first: the headline paragraph ([`crate::compare::headline`]), the verdicts
//! chart and the verdict table, for `report.md`/`report.html` (above every other section) and
//! for the terminal (above the summary tables).

use super::chart::{key, ChartFile, ChartKind};
use crate::compare::headline::{amount, interval, margin};
use crate::compare::verdict::{Method, Question, Verdict};
use crate::compare::Report;
use std::fmt::Write as _;

fn question(v: &Verdict) -> String {
    match (v.question, v.seat) {
        (Question::WhoWins, _) => "who wins (beyond the players' own luck)".into(),
        (Question::WinRate, Some(s)) => format!("seat {s}'s win rate"),
        (Question::Score, Some(s)) => format!("seat {s}'s score"),
        (Question::Decisions, _) => "decisions (beyond the players' own luck)".into(),
        (q, None) => q.name().into(),
    }
}

fn p_cell(p: Option<f64>) -> String {
    match p {
        Some(p) if p < 0.0001 => "<0.0001".into(),
        Some(p) => format!("{p:.4}"),
        None => "—".into(),
    }
}

/// One row per verdict: pair, question, class, estimate, interval, margin, p-values.
fn rows(report: &Report) -> Vec<[String; 8]> {
    report
        .verdicts
        .iter()
        .map(|v| {
            [
                format!("{} → {}", key(v.a_index), key(v.b_index)),
                question(v),
                v.class.words().to_string(),
                amount(v),
                interval(v),
                format!("±{}", margin(v)),
                p_cell(v.p_difference),
                p_cell(v.p_negligible),
            ]
        })
        .collect()
}

fn method_note(report: &Report) -> String {
    let sequential = report
        .verdicts
        .iter()
        .any(|v| v.method == Method::ConfidenceSequence);
    let mut s = String::from(
        "a difference: the test of 0 rejects at 5 % (the interval excludes 0); negligible: the \
         interval lies inside ±margin (two one-sided tests at 2.5 %); cannot tell: neither. ",
    );
    if sequential {
        s.push_str(
            "Who wins, win rates and scores: anytime-valid 95 % confidence sequences (the run \
             stopped on them); decisions: Student t. ",
        );
    } else {
        s.push_str(
            "Student t over the per-seed paired differences (for a seat's win rate: +1, 0 or −1 a \
             seed; for decisions: over the probed positions). ",
        );
    }
    s.push_str(
        "Seat verdicts are Holm-adjusted over the seats (p-values shown adjusted); \
         `--negligible` sets the margins.",
    );
    s
}

/// The Markdown section that opens `report.md`: the paragraph, the chart, the table.
pub fn markdown(report: &Report, charts: &[ChartFile]) -> String {
    let mut md = String::new();
    if report.headline.is_empty() {
        return md;
    }
    let _ = writeln!(md, "{}\n", report.headline);
    if let Some(c) = charts.iter().find(|c| c.kind == ChartKind::Verdicts) {
        if let Some(f) = c.files.first() {
            let _ = writeln!(md, "![{}]({f})\n", ChartKind::Verdicts.title());
        }
    }
    md.push_str(
        "| pair | question | verdict | estimate | 95 % interval | negligible | p (difference) | \
         p (negligible) |\n|---|---|---|---|---|---|---|---|\n",
    );
    for r in rows(report) {
        let cells: Vec<String> = r.iter().map(|c| super::markdown::cell(c)).collect();
        let _ = writeln!(md, "| {} |", cells.join(" | "));
    }
    let _ = writeln!(md, "\n_{}_\n", method_note(report));
    if let Some(s) = &report.stopping {
        let _ = writeln!(
            md,
            "**Stopping (`--until {}`):** {}. _{}._\n",
            s.rule, s.reason, s.method
        );
    }
    md
}

/// The terminal's opening: the paragraph and the verdict table.
pub fn terminal(report: &Report) -> String {
    let mut out = String::new();
    if report.headline.is_empty() {
        return out;
    }
    let _ = writeln!(out, "{}\n", report.headline);
    let header = [
        "pair",
        "question",
        "verdict",
        "estimate",
        "95 % interval",
        "negligible",
        "p diff",
        "p negl",
    ];
    let body = rows(report);
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for r in &body {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |cells: Vec<&str>| -> String {
        cells
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect::<Vec<_>>()
            .join("  ")
            .trim_end()
            .to_string()
    };
    let _ = writeln!(out, "{}", line(header.to_vec()));
    for r in &body {
        let _ = writeln!(out, "{}", line(r.iter().map(String::as_str).collect()));
    }
    let _ = writeln!(out, "{}", method_note(report));
    if let Some(s) = &report.stopping {
        let _ = writeln!(out, "stopping (--until {}): {}", s.rule, s.reason);
    }
    out
}
