//! The "Balance" section of `report.md` (and so of `report.html`) and of the printed summary:
//! per pair, one line per balance figure ([`crate::compare::balance`]) with each ruleset's
//! mean and the paired difference, later − earlier ruleset, with its 95 % t interval.

use super::chart::key;
use super::fmt::align;
use super::markdown::cell;
use crate::compare::balance::{PairBalanceSummary, PairedFigure, Unit};
use crate::compare::stats::{MeanCi, TOO_LITTLE_DATA};
use crate::compare::Report;
use std::fmt::Write as _;

/// `x` rounded to `decimals`, without a negative zero.
fn signed(x: f64, decimals: usize) -> String {
    let k = 10f64.powi(decimals as i32);
    format!("{:+.decimals$}", (x * k).round() / k + 0.0)
}

/// A difference with its interval, `x` scaled by `k`: `+1.2 [−0.3, +2.7]` plus `suffix`
/// (`(too little data)` for a cell without an interval or spread).
fn difference(m: &MeanCi, k: f64, decimals: usize, suffix: &str) -> String {
    let v = |x: f64| signed(x * k, decimals);
    match m.interval().bounds() {
        Some([lo, hi]) => format!("{}{suffix} [{}, {}]", v(m.mean), v(lo), v(hi)),
        None => format!("{}{suffix} ({TOO_LITTLE_DATA})", v(m.mean)),
    }
}

/// The cells of one figure: name, A, B, B − A [interval].
fn figure_cells(name: &str, unit: Unit, f: &PairedFigure) -> [String; 4] {
    let (a, b, d) = match unit {
        Unit::Pp => (
            format!("{} pp", signed(f.a, 1)),
            format!("{} pp", signed(f.b, 1)),
            difference(&f.difference, 1.0, 1, " pp"),
        ),
        Unit::Share => (
            format!("{:.1} %", 100.0 * f.a),
            format!("{:.1} %", 100.0 * f.b),
            difference(&f.difference, 100.0, 1, " pp"),
        ),
        Unit::Count => (
            format!("{:.2}", f.a),
            format!("{:.2}", f.b),
            difference(&f.difference, 1.0, 2, ""),
        ),
    };
    [name.to_string(), a, b, d]
}

/// The rows of one pair: figure, A, B, B − A [interval].
fn pair_rows(p: &PairBalanceSummary) -> Vec<[String; 4]> {
    p.figures()
        .iter()
        .map(|(name, unit, f)| figure_cells(name, *unit, f))
        .collect()
}

const INTRO: &str = "per seed, later − earlier ruleset, mean with its paired 95 % Student t \
                     interval; first-seat advantage = seat 1's win share − 1/players (ties count \
                     for every tied seat); lead changes in play = changes of the sole leader \
                     after each turn, final scoring not counted; decided at = the turn from which the eventual \
                     winner(s) lead for good (0 = set-up, turns + 1 = final scoring), over games \
                     with leader records; score spread = highest − lowest final total";

/// The section of the printed summary; empty without balance figures.
pub fn table_section(report: &Report) -> String {
    let Some(b) = &report.balance else {
        return String::new();
    };
    let mut out = format!("\nbalance: {INTRO}\n");
    for (i, p) in b.pairs.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let (ka, kb) = (key(p.a_index), key(p.b_index));
        let mut rows = vec![vec![
            format!("{ka} vs {kb}"),
            ka.clone(),
            kb.clone(),
            format!("{kb} − {ka} [95 % t]"),
        ]];
        rows.extend(pair_rows(p).into_iter().map(|r| r.to_vec()));
        out.push_str(&align(&rows));
    }
    out
}

/// The `### Balance` section of `report.md`; empty without balance figures.
pub fn markdown_section(report: &Report) -> String {
    let Some(b) = &report.balance else {
        return String::new();
    };
    let mut md = format!(
        "\n### Balance\n\nHow even each ruleset plays, and how the later ruleset shifts it: {}.\n",
        cell(INTRO)
    );
    for p in &b.pairs {
        let (ka, kb) = (key(p.a_index), key(p.b_index));
        let _ = write!(
            md,
            "\n**{ka} vs {kb}** ({} paired games)\n\n| Figure | {ka} | {kb} | {kb} − {ka} [95 % t interval] |\n|---|---|---|---|\n",
            p.games
        );
        for row in pair_rows(p) {
            let row: Vec<String> = row.iter().map(|c| cell(c)).collect();
            let _ = writeln!(md, "| {} |", row.join(" | "));
        }
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_carry_units_and_intervals() {
        let f = PairedFigure {
            a: 0.125,
            b: 0.1,
            difference: MeanCi {
                mean: -0.025,
                sd: Some(0.2),
                ci: Some([-0.05, -0.0001]),
            },
        };
        assert_eq!(
            figure_cells("ties", Unit::Share, &f),
            ["ties", "12.5 %", "10.0 %", "-2.5 pp [-5.0, +0.0]"].map(String::from)
        );
        let f = PairedFigure {
            a: 4.2,
            b: -1.0,
            difference: MeanCi {
                mean: -5.2,
                sd: None,
                ci: None,
            },
        };
        assert_eq!(
            figure_cells("first-seat advantage", Unit::Pp, &f)[1..],
            ["+4.2 pp", "-1.0 pp", "-5.2 pp (too little data)"].map(String::from)
        );
        assert_eq!(
            figure_cells("spread", Unit::Count, &f)[3],
            "-5.20 (too little data)".to_string()
        );
    }
}
