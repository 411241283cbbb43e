//! A sweep's result: each variant against the base, from the compare report — its row of
//! figures (winner changed, score shifts, win rates, seat balance, game length) and the
//! verdicts in words (which value changes the game least or most, which brings the seats
//! closest to even, where the intervals overlap too much to tell).

use super::{SweepPlan, Variant};
use crate::compare::seat_counts::{ByCounter, MeanTotal};
use crate::compare::stats::MeanCi;
use crate::compare::Report;
use crate::engine::expansions;
use serde::Serialize;
use std::collections::BTreeMap;

impl SweepPlan {
    /// The sweep's summary from the comparison's report.
    pub fn summarize(&self, report: &Report) -> SweepSummary {
        summarize(report, &self.variants, &self.positions, &self.keys)
    }
}

/// One variant against the base, from the compare report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SweepRow {
    pub label: String,
    pub settings: Vec<(String, String)>,
    /// The rules file (for a value equal to the base's: the base itself).
    pub file: String,
    /// This value is the base's own: the reference row.
    pub is_base: bool,
    pub winner_changed_share: f64,
    pub winner_changed_ci: [f64; 2],
    /// Mean paired score difference (variant − base) per seat.
    pub score_delta: Vec<MeanCi>,
    pub win_rate: Vec<f64>,
    pub win_rate_ci: Vec<[f64; 2]>,
    pub tie_share: f64,
    /// The seat whose win rate is farthest from even (1 / players), and that distance.
    pub least_even_seat: usize,
    pub seat_imbalance: f64,
    pub game_length: MeanCi,
    /// Per per-seat counter: its mean per game, all seats together (`mean_{name}_total`).
    #[serde(flatten)]
    pub mean_counts_total: ByCounter<f64, MeanTotal>,
    /// Per scoring category the sweep reports (`Presentation::SWEPT_POINTS`): its mean points
    /// per seat, under its key (`robber_points`).
    #[serde(flatten)]
    pub swept_points: BTreeMap<&'static str, Vec<f64>>,
}

/// The sweep's result: a row per value (the base's own value first when it is one of them),
/// and the verdicts in words.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SweepSummary {
    pub base: String,
    pub varied: Vec<String>,
    pub games: u64,
    pub players: u8,
    pub policy: String,
    pub seed: u64,
    pub rows: Vec<SweepRow>,
    pub verdicts: Vec<String>,
}

/// Where each variant's results stand in the compare report: `Some(k)` = ruleset `k` of the
/// run (the base is ruleset 0); a value equal to the base's is the base itself.
pub fn summarize(
    report: &Report,
    variants: &[Variant],
    positions: &[usize],
    varied: &[String],
) -> SweepSummary {
    let players = report.players as usize;
    let rows: Vec<SweepRow> = variants
        .iter()
        .zip(positions)
        .map(|(v, &k)| row(report, v, k, players))
        .collect();
    let verdicts = verdicts(&rows, players);
    SweepSummary {
        base: report
            .rulesets
            .first()
            .map(|r| r.name.clone())
            .unwrap_or_default(),
        varied: varied.to_vec(),
        games: report.games,
        players: report.players,
        policy: report.policy.clone(),
        seed: report.seed,
        rows,
        verdicts,
    }
}

fn row(report: &Report, v: &Variant, k: usize, players: usize) -> SweepRow {
    let rs = &report.per_ruleset[k];
    let pair = report
        .pairs
        .iter()
        .find(|p| p.a_index == 0 && p.b_index == k);
    let zero = MeanCi {
        mean: 0.0,
        sd: Some(0.0),
        ci: Some([0.0, 0.0]),
    };
    let even = 1.0 / players.max(1) as f64;
    let (least_even_seat, seat_imbalance) = rs
        .win_rate
        .iter()
        .enumerate()
        .map(|(s, w)| (s, (w - even).abs()))
        .fold((0, -1.0), |best, x| if x.1 > best.1 { x } else { best });
    SweepRow {
        label: v.label.clone(),
        settings: v.settings.clone(),
        file: report.rulesets[k].file.clone().unwrap_or_default(),
        is_base: k == 0,
        winner_changed_share: pair.map_or(0.0, |p| p.winner_changed_share),
        winner_changed_ci: pair.map_or([0.0, 0.0], |p| p.winner_changed_ci),
        score_delta: pair.map_or_else(|| vec![zero; players], |p| p.mean_score_delta.clone()),
        win_rate: rs.win_rate.clone(),
        win_rate_ci: rs.win_rate_ci.clone(),
        tie_share: rs.tie_share,
        least_even_seat,
        seat_imbalance: seat_imbalance.max(0.0),
        game_length: rs.game_length,
        mean_counts_total: rs.mean_counts_total.clone(),
        swept_points: expansions::swept_points()
            .into_iter()
            .map(|(category, key, _)| {
                let per_seat = rs
                    .mean_by_category
                    .iter()
                    .map(|m| m.get(category.name()).copied().unwrap_or(0.0))
                    .collect();
                (key, per_seat)
            })
            .collect(),
    }
}

/// Intervals overlap: the data can't tell the two apart.
fn overlap(a: [f64; 2], b: [f64; 2]) -> bool {
    a[0] <= b[1] && b[0] <= a[1]
}

fn pct(x: f64) -> String {
    format!("{:.1} %", 100.0 * x)
}

fn pct_ci(ci: [f64; 2]) -> String {
    format!("{:.1}–{:.1} %", 100.0 * ci[0], 100.0 * ci[1])
}

/// Names of the rows `idx`, quoted, joined with commas and "and".
fn names(rows: &[SweepRow], idx: &[usize]) -> String {
    let n: Vec<String> = idx
        .iter()
        .map(|&i| format!("`{}`", rows[i].label))
        .collect();
    match n.len() {
        0 => String::new(),
        1 => n[0].clone(),
        _ => format!("{} and {}", n[..n.len() - 1].join(", "), n[n.len() - 1]),
    }
}

/// The verdicts in words; ties whenever intervals overlap.
fn verdicts(rows: &[SweepRow], players: usize) -> Vec<String> {
    let mut out = Vec::new();
    let changed: Vec<usize> = (0..rows.len()).filter(|&i| !rows[i].is_base).collect();
    if !changed.is_empty() {
        let by = |f: &dyn Fn(&SweepRow) -> f64| -> (usize, usize) {
            let mut lo = changed[0];
            let mut hi = changed[0];
            for &i in &changed {
                if f(&rows[i]) < f(&rows[lo]) {
                    lo = i;
                }
                if f(&rows[i]) > f(&rows[hi]) {
                    hi = i;
                }
            }
            (lo, hi)
        };
        let (least, most) = by(&|r| r.winner_changed_share);
        let tied_least: Vec<usize> = changed
            .iter()
            .copied()
            .filter(|&i| overlap(rows[i].winner_changed_ci, rows[least].winner_changed_ci))
            .collect();
        if changed.len() == 1 {
            out.push(format!(
                "{} changes the winner of {} of games against the base (95 % Wilson {}).",
                names(rows, &[least]),
                pct(rows[least].winner_changed_share),
                pct_ci(rows[least].winner_changed_ci)
            ));
        } else if tied_least.len() == changed.len() {
            out.push(format!(
                "The values change the winner about equally often against the base: every interval overlaps ({}–{}).",
                pct(rows[least].winner_changed_share),
                pct(rows[most].winner_changed_share)
            ));
        } else {
            out.push(format!(
                "Least change from the base: {} (winner changed in {}, 95 % {}){}.",
                names(rows, &[least]),
                pct(rows[least].winner_changed_share),
                pct_ci(rows[least].winner_changed_ci),
                if tied_least.len() > 1 {
                    format!(
                        "; tied within the intervals with {}",
                        names(
                            rows,
                            &tied_least
                                .iter()
                                .copied()
                                .filter(|&i| i != least)
                                .collect::<Vec<_>>()
                        )
                    )
                } else {
                    String::new()
                }
            ));
            let tied_most: Vec<usize> = changed
                .iter()
                .copied()
                .filter(|&i| {
                    i != most && overlap(rows[i].winner_changed_ci, rows[most].winner_changed_ci)
                })
                .collect();
            out.push(format!(
                "Most change: {} (winner changed in {}, 95 % {}){}.",
                names(rows, &[most]),
                pct(rows[most].winner_changed_share),
                pct_ci(rows[most].winner_changed_ci),
                if tied_most.is_empty() {
                    String::new()
                } else {
                    format!(
                        "; tied within the intervals with {}",
                        names(rows, &tied_most)
                    )
                }
            ));
        }
    }
    // seat balance: the seat farthest from even, with its interval
    let dist = |r: &SweepRow| -> [f64; 2] {
        let even = 1.0 / players.max(1) as f64;
        let ci = r
            .win_rate_ci
            .get(r.least_even_seat)
            .copied()
            .unwrap_or([0.0, 1.0]);
        // distance from even over the interval: 0 when the interval contains even
        let lo = if ci[0] <= even && even <= ci[1] {
            0.0
        } else {
            (ci[0] - even).abs().min((ci[1] - even).abs())
        };
        let hi = (ci[0] - even).abs().max((ci[1] - even).abs());
        [lo, hi]
    };
    if rows.len() > 1 {
        let best = (0..rows.len())
            .min_by(|&a, &b| rows[a].seat_imbalance.total_cmp(&rows[b].seat_imbalance))
            .unwrap_or(0);
        let tied: Vec<usize> = (0..rows.len())
            .filter(|&i| i != best && overlap(dist(&rows[i]), dist(&rows[best])))
            .collect();
        let r = &rows[best];
        let s = r.least_even_seat;
        let seat_line = format!(
            "seat {} wins {} (95 % {}; even is {})",
            s + 1,
            pct(r.win_rate[s]),
            pct_ci(r.win_rate_ci[s]),
            pct(1.0 / players.max(1) as f64)
        );
        if tied.len() + 1 == rows.len() {
            out.push(format!(
                "Seat balance: no value is clearly more even than another — the seats' win rates overlap across all values (the most even, {}: {seat_line}).",
                names(rows, &[best])
            ));
        } else {
            out.push(format!(
                "Closest to even seats: {} — its least even {seat_line}{}.",
                names(rows, &[best]),
                if tied.is_empty() {
                    String::new()
                } else {
                    format!("; tied within the intervals with {}", names(rows, &tied))
                }
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlapping_intervals_are_ties() {
        assert!(overlap([0.1, 0.3], [0.25, 0.4]));
        assert!(!overlap([0.1, 0.2], [0.25, 0.4]));
    }
}
