//! Number formatting shared by the printed table and the Markdown report.

use super::chart::key;
use crate::compare::stats::{Interval, MeanCi, TOO_LITTLE_DATA};
use crate::compare::summary::{PairSummary, RulesetSummary, SeatBenefit};

/// `0.1834` → `18.3 %`.
pub fn pct(x: f64) -> String {
    format!("{:.1} %", 100.0 * x)
}

/// `[0.161, 0.209]` → `16.1–20.9 %`.
pub fn pct_range([lo, hi]: [f64; 2]) -> String {
    format!("{:.1}–{:.1} %", 100.0 * lo, 100.0 * hi)
}

/// A mean with its interval: `62.1 [60.3, 63.9]`, or the mean and `(too little data)` where
/// there is no interval or it has zero width ([`MeanCi::interval`]).
pub fn mean_ci(m: &MeanCi, signed: bool) -> String {
    let v = |x: f64| {
        if signed {
            format!("{:+.2}", x + 0.0)
        } else {
            format!("{x:.1}")
        }
    };
    match m.interval() {
        Interval::Bounds([lo, hi]) => format!("{} [{}, {}]", v(m.mean), v(lo), v(hi)),
        Interval::TooLittleData => format!("{} ({TOO_LITTLE_DATA})", v(m.mean)),
    }
}

/// The cells of ruleset `i`'s row in the per-ruleset tables of `report.md` and of the printed
/// summary: key, mean score by seat, win rate by seat, ties, the mean of each per-seat
/// counter per game (all seats together: ingots), game length (turns), lead changes.
/// Per-seat values are joined by `seat_sep`; with `percent_once` the win rates share one `%`
/// at the end (narrow terminal columns) instead of one each.
pub fn ruleset_row(
    i: usize,
    r: &RulesetSummary,
    seat_sep: &str,
    percent_once: bool,
) -> Vec<String> {
    let scores: Vec<String> = r
        .mean_score
        .iter()
        .map(|m| format!("{:.1}", m.mean))
        .collect();
    let wins = if percent_once {
        let wins: Vec<String> = r
            .win_rate
            .iter()
            .map(|w| format!("{:.1}", 100.0 * w))
            .collect();
        format!("{} %", wins.join(seat_sep))
    } else {
        let wins: Vec<String> = r.win_rate.iter().map(|w| pct(*w)).collect();
        wins.join(seat_sep)
    };
    let mut row = vec![key(i), scores.join(seat_sep), wins, pct(r.tie_share)];
    row.extend(r.mean_counts_total.iter().map(|m| format!("{m:.2}")));
    row.push(format!("{:.1}", r.game_length.mean));
    row.push(format!("{:.2}", r.mean_lead_changes));
    row
}

/// The expansions' counters, mean per game, per ruleset (the declared counters any ruleset
/// of the report kept, each headed by its declared words): the header row, then one row per
/// ruleset; `None` when no counter moved.
pub fn counter_rows(per_ruleset: &[RulesetSummary]) -> Option<Vec<Vec<String>>> {
    let shown: Vec<crate::engine::Counter> = crate::engine::Counter::all()
        .filter(|c| {
            per_ruleset
                .iter()
                .any(|r| r.mean_counters.get(c.name()).is_some_and(|&m| m != 0.0))
        })
        .collect();
    if shown.is_empty() {
        return None;
    }
    let mut rows = vec![std::iter::once("ruleset".to_string())
        .chain(shown.iter().map(|c| c.spec().doc.to_string()))
        .collect::<Vec<_>>()];
    for (i, r) in per_ruleset.iter().enumerate() {
        rows.push(
            std::iter::once(key(i))
                .chain(shown.iter().map(|c| {
                    format!(
                        "{:.2}",
                        r.mean_counters.get(c.name()).copied().unwrap_or(0.0)
                    )
                }))
                .collect(),
        );
    }
    Some(rows)
}

/// Left-aligns the first column and right-aligns the others, two spaces apart. Widths are
/// display widths (`unicode-width`), so names with wide or combining characters line up.
pub fn align(rows: &[Vec<String>]) -> String {
    use unicode_width::UnicodeWidthStr;
    let cols = rows.iter().map(|r| r.len()).max().unwrap_or(0);
    let width = |c: usize| {
        rows.iter()
            .filter_map(|r| r.get(c))
            .map(|s| s.width())
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..cols).map(width).collect();
    let mut out = String::new();
    for r in rows {
        let mut line = String::new();
        for (c, cell) in r.iter().enumerate() {
            let pad = widths[c].saturating_sub(cell.width());
            if c == 0 {
                line.push_str(cell);
                line.push_str(&" ".repeat(pad));
            } else {
                line.push_str("  ");
                line.push_str(&" ".repeat(pad));
                line.push_str(cell);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// One seat's gain from A to B: `+1.2 pp [+0.8, +1.6], p 0.001` (win-rate difference in
/// percentage points, Newcombe interval, McNemar exact p).
pub fn benefit(b: &SeatBenefit) -> String {
    let [lo, hi] = b.win_rate_difference_ci;
    let p = if b.mcnemar_p < 0.001 {
        "p < 0.001".to_string()
    } else {
        format!("p {:.3}", b.mcnemar_p)
    };
    // rounded first, so a tiny negative value prints as +0.0, never -0.0
    let pp = |x: f64| (1000.0 * x).round() / 10.0 + 0.0;
    format!(
        "{:+.1} pp [{:+.1}, {:+.1}], {p}",
        pp(b.win_rate_difference),
        pp(lo),
        pp(hi)
    )
}

/// A share difference in percentage points with its interval: `+1.2 pp [+0.4, +2.0]`, or
/// `+0.0 pp (too little data)` where a cell has no interval or one of zero width.
pub fn pp_ci(m: &MeanCi) -> String {
    let pp = |x: f64| (1000.0 * x).round() / 10.0 + 0.0;
    match m.interval() {
        Interval::Bounds([lo, hi]) => {
            format!("{:+.1} pp [{:+.1}, {:+.1}]", pp(m.mean), pp(lo), pp(hi))
        }
        Interval::TooLittleData => format!("{:+.1} pp ({TOO_LITTLE_DATA})", pp(m.mean)),
    }
}

/// A correlation, or `—` where it is undefined.
pub fn rho(r: Option<f64>) -> String {
    r.map_or_else(|| "—".to_string(), |r| format!("{r:.2}"))
}

/// Per-seat correlations joined: `0.91 0.88`.
pub fn rhos(rs: &[Option<f64>]) -> String {
    rs.iter().map(|&r| rho(r)).collect::<Vec<_>>().join(" ")
}

/// The header of the rule-against-placebo table.
pub const PLACEBO_HEADER: [&str; 11] = [
    "pair",
    "winner changed",
    "rule+luck",
    "luck alone",
    "excess",
    "mean |Δscore|",
    "rule+luck",
    "luck alone",
    "excess",
    "ρ scores",
    "ρ wins",
];

/// A pair's row of the rule-against-placebo table (see [`PLACEBO_HEADER`]): the rule pair's
/// winner-changed share (same luck), with the luck redrawn, the luck alone, and the paired
/// excess; the same for the mean absolute score difference a seat; the outcome correlations
/// per seat. `None` without a placebo.
pub fn placebo_row(p: &PairSummary) -> Option<[String; 11]> {
    let pl = p.placebo.as_ref()?;
    Some([
        format!("{} vs {}", key(p.a_index), key(p.b_index)),
        pct(p.winner_changed_share),
        pct(pl.rule_luck_winner_changed_share),
        pct(pl.winner_changed_share),
        pp_ci(&pl.excess_winner_changed),
        format!("{:.2}", pl.rule_mean_abs_score_delta.mean),
        format!("{:.2}", pl.rule_luck_mean_abs_score_delta),
        format!("{:.2}", pl.mean_abs_score_delta),
        mean_ci(&pl.excess_mean_abs_score_delta, true),
        rhos(&p.outcome_correlation.scores),
        rhos(&p.outcome_correlation.wins),
    ])
}

/// The line that says a pair's pairing has broken and what to read instead, or `None`.
pub fn broken_pairing_note(p: &PairSummary) -> Option<String> {
    if !p.pairing_broken {
        return None;
    }
    Some(format!(
        "{} vs {}: the paired games have become nearly independent (score correlation {} < \
         {}), so the winner-changed share mostly counts games that went another way; the \
         rule's effect is the per-seat shift of {} — {}",
        key(p.a_index),
        key(p.b_index),
        rho(p.outcome_correlation.mean_score),
        crate::compare::placebo::BROKEN_PAIRING,
        p.b,
        seat_shifts(p)
    ))
}

/// Each seat's shift from the pair's earlier ruleset to the later one: `seat 1: win rate
/// +1.2 pp [−0.4, +2.8], p 0.15, score −2.10 [−2.60, −1.60]; seat 2: …`.
pub fn seat_shifts(p: &PairSummary) -> String {
    let seats: Vec<String> = p
        .who_benefits
        .iter()
        .zip(&p.mean_score_delta)
        .enumerate()
        .map(|(s, (b, d))| {
            format!(
                "seat {}: win rate {}, score {}",
                s + 1,
                benefit(b),
                mean_ci(d, true)
            )
        })
        .collect();
    seats.join("; ")
}

/// The line before [`detectable`]'s for a run with `--until` (terminal): what holds for a run
/// that stopped on its data, in place of the fixed-N power figure.
pub const SEQUENTIAL_DETECTABLE: &str = "\nthis run stopped on its data (--until), so no \
     fixed-N power figure holds for it; what holds at the seeds it played: each seat's \
     anytime-valid 95 % intervals (the confidence sequences it stopped on, before the Holm \
     adjustment) reach this far either side of the estimate, and stay valid had it played on \
     (an estimate closer to 0 than this is not a difference):\n";

/// The smallest shifts a pair's games could detect, per seat: `seat 1: 3.2 pp, 1.10 points`
/// (80 % power, two-sided 5 %; `—` where the games give no estimate). For a run with
/// `--until`, whose N was not fixed, what holds instead: the anytime-valid intervals'
/// half-widths at the seeds played, `seat 1: ±0.6 pp, ±0.08 points`.
pub fn detectable(p: &PairSummary) -> String {
    if let Some(widths) = &p.sequence_half_width {
        let parts: Vec<String> = widths
            .iter()
            .enumerate()
            .map(|(s, w)| {
                let win = w
                    .win_rate_pp
                    .map_or_else(|| "—".to_string(), |x| format!("±{x:.1} pp"));
                let score = w
                    .score
                    .map_or_else(|| "—".to_string(), |x| format!("±{x:.2} points"));
                format!("seat {}: {win}, {score}", s + 1)
            })
            .collect();
        return parts.join("; ");
    }
    let parts: Vec<String> = p
        .min_detectable
        .iter()
        .enumerate()
        .map(|(s, m)| {
            let win = m
                .win_shift_pp
                .map_or_else(|| "—".to_string(), |x| format!("{x:.1} pp"));
            let score = m
                .score_shift
                .map_or_else(|| "—".to_string(), |x| format!("{x:.2} points"));
            format!("seat {}: {win}, {score}", s + 1)
        })
        .collect();
    parts.join("; ")
}

/// The header of the decision-probe table.
pub const DECISION_HEADER: [&str; 7] = [
    "pair",
    "positions",
    "decision changed",
    "rule+luck",
    "luck alone",
    "excess",
    "value shift",
];

/// A pair's rows of the decision-probe table (see [`DECISION_HEADER`]): all probed positions,
/// then by decision kind and by stage of the game. Empty without probes.
pub fn decision_rows(p: &PairSummary) -> Vec<Vec<String>> {
    let Some(d) = &p.decisions else {
        return Vec::new();
    };
    let row = |label: String, f: &crate::compare::decisions::Figures, value: String| {
        let excess = MeanCi {
            mean: f.excess,
            sd: None,
            ci: f.excess_ci,
        };
        vec![
            label,
            f.positions.to_string(),
            pct(f.changed_share),
            pct(f.rule_luck_changed_share),
            pct(f.placebo_changed_share),
            pp_ci(&excess),
            value,
        ]
    };
    let value = match (d.mean_value_shift, d.value_shift_ci) {
        (Some(m), ci) => mean_ci(
            &MeanCi {
                mean: m,
                sd: None,
                ci,
            },
            true,
        ),
        _ => "—".to_string(),
    };
    let pair = format!("{} vs {}", key(p.a_index), key(p.b_index));
    let mut rows = vec![row(pair, &d.all, value)];
    for (kind, f) in &d.by_kind {
        rows.push(row(format!("  {kind}"), f, String::new()));
    }
    for (stage, f) in &d.by_stage {
        rows.push(row(format!("  {stage} game"), f, String::new()));
    }
    rows
}

/// The skipped probe positions of a pair in words, or `None` when none was skipped.
pub fn decision_skips(p: &PairSummary) -> Option<String> {
    let d = p.decisions.as_ref()?;
    if d.skipped.is_empty() {
        return None;
    }
    let parts: Vec<String> = d
        .skipped
        .iter()
        .map(|(reason, s)| {
            let detail = s
                .detail
                .as_deref()
                .map(|t| format!(" (first at position {}: {t})", s.position.unwrap_or(0)))
                .unwrap_or_default();
            format!("{} {}{detail}", s.count, reason.replace('_', " "))
        })
        .collect();
    Some(format!(
        "{} vs {}: {} of {} positions skipped: {}",
        key(p.a_index),
        key(p.b_index),
        d.considered - d.all.positions,
        d.considered,
        parts.join("; ")
    ))
}

/// How the play-differed games of a pair first differed: `choice 61.2 % · rule 38.8 %`
/// (shares of the play-differed games), or `—` when play never differed.
pub fn first_difference_split(p: &PairSummary) -> String {
    if p.play_differed == 0 {
        return "—".to_string();
    }
    let of = |n: u64| pct(n as f64 / p.play_differed as f64);
    format!(
        "choice {} · rule {}",
        of(p.first_difference_choice),
        of(p.first_difference_rule)
    )
}

/// The cells saying where the gaining seat of a changed winner stood before the positions
/// parted: games changed, to the leader, to a trailing seat, tied before (counts with the
/// share of the changed games).
pub fn lead_cells(p: &PairSummary) -> [String; 4] {
    let of = |n: u64| {
        if p.winner_changed == 0 {
            n.to_string()
        } else {
            format!("{n} ({})", pct(n as f64 / p.winner_changed as f64))
        }
    };
    [
        p.winner_changed.to_string(),
        of(p.winner_change_to_leader),
        of(p.winner_change_to_trailing),
        of(p.winner_change_tied_before),
    ]
}

/// The plain statement for a pair whose paired outcomes were all identical.
pub fn identical_statement(p: &PairSummary, policy: &str) -> Option<String> {
    p.all_outcomes_identical.then(|| {
        format!(
            "{} vs {}: these rulesets gave identical results in all {} games under this policy \
             ({policy}){}",
            key(p.a_index),
            key(p.b_index),
            p.games,
            if p.play_differed > 0 {
                format!(
                    "; play differed in {} of them without changing any score",
                    pct(p.play_differed_share)
                )
            } else {
                String::new()
            }
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(pct(0.1834), "18.3 %");
        assert_eq!(pct_range([0.0552, 0.1744]), "5.5–17.4 %");
        let m = MeanCi {
            mean: 1.5,
            sd: Some(1.0),
            ci: Some([0.25, 2.75]),
        };
        assert_eq!(mean_ci(&m, true), "+1.50 [+0.25, +2.75]");
        // a cell without spread (four positions that all agree) prints no "95 %" interval
        let flat = MeanCi {
            mean: 0.0,
            sd: Some(0.0),
            ci: Some([0.0, 0.0]),
        };
        assert_eq!(pp_ci(&flat), "+0.0 pp (too little data)");
        assert_eq!(mean_ci(&flat, true), "+0.00 (too little data)");
        assert_eq!(flat.interval(), Interval::TooLittleData);
        assert_eq!(m.interval(), Interval::Bounds([0.25, 2.75]));
        let rows = vec![
            vec!["a".to_string(), "1".to_string()],
            vec!["bbb".to_string(), "22".to_string()],
        ];
        assert_eq!(align(&rows), "a     1\nbbb  22\n");
    }

    #[test]
    fn align_counts_display_width() {
        let rows = vec![
            vec!["囲碁ルール".to_string(), "1".to_string()],
            vec!["base".to_string(), "22".to_string()],
            vec!["e\u{301}te\u{301}".to_string(), "333".to_string()],
        ];
        let text = align(&rows);
        let ends: Vec<usize> = text
            .lines()
            .map(unicode_width::UnicodeWidthStr::width)
            .collect();
        assert_eq!(ends, vec![15, 15, 15], "{text}");
    }
}
