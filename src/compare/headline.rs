//! The headline: one paragraph a FAQ writer can paste, made from a report's
//! [`super::verdict`]s — what changes, for whom, by how much beyond chance, at which skill
//! level, with N and the interval. `report.md`, `report.html` and the terminal open with it;
//! `report.json` carries it as `headline`.

use super::summary::Report;
use super::verdict::{Class, Question, Unit, Verdict};

/// A share as signed percentage points: one decimal, two where that would read as 0.0.
fn pp(x: f64) -> String {
    let v = 100.0 * x + 0.0;
    if v != 0.0 && v.abs() < 0.05 {
        format!("{v:+.2} pp")
    } else {
        format!("{v:+.1} pp")
    }
}

/// Points, signed, two decimals.
fn pts(x: f64) -> String {
    let v = x + 0.0;
    let unit = if (v.abs() - 1.0).abs() < 1e-9 {
        "point"
    } else {
        "points"
    };
    format!("{v:+.2} {unit}")
}

/// The estimate in its unit.
pub fn amount(v: &Verdict) -> String {
    match v.unit {
        Unit::Share => pp(v.estimate),
        Unit::Points => pts(v.estimate),
    }
}

/// The margin in its unit, unsigned (`1 pp`, `1 point`).
pub fn margin(v: &Verdict) -> String {
    match v.unit {
        Unit::Share => format!("{} pp", trim(100.0 * v.margin)),
        Unit::Points => {
            let m = trim(v.margin);
            if m == "1" {
                "1 point".into()
            } else {
                format!("{m} points")
            }
        }
    }
}

fn trim(x: f64) -> String {
    let s = format!("{x:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// `95 % lo to hi` in the verdict's unit (without the unit word for shares' second bound).
pub fn interval(v: &Verdict) -> String {
    match v.interval {
        Some([lo, hi]) => {
            let f = |x: f64| match v.unit {
                Unit::Share => {
                    let s = pp(x);
                    s.trim_end_matches(" pp").to_string()
                }
                Unit::Points => format!("{:+.2}", x + 0.0),
            };
            format!("95 % {} to {}", f(lo), f(hi))
        }
        None => v
            .note
            .clone()
            .unwrap_or_else(|| "too little data for an interval".into()),
    }
}

/// `estimate (95 % lo to hi)`.
pub fn with_interval(v: &Verdict) -> String {
    format!("{} ({})", amount(v), interval(v))
}

fn seats_list(vs: &[&Verdict]) -> String {
    let names: Vec<String> = vs
        .iter()
        .map(|v| v.seat.map_or(String::new(), |s| s.to_string()))
        .collect();
    match names.len() {
        0 => String::new(),
        1 => format!("seat {}", names[0]),
        _ => format!(
            "seats {} and {}",
            names[..names.len() - 1].join(", "),
            names[names.len() - 1]
        ),
    }
}

/// The clause of one seat question (win rate or score) over every seat.
fn seat_clause(vs: &[&Verdict], what: &str) -> Option<String> {
    if vs.is_empty() {
        return None;
    }
    let mut parts = Vec::new();
    let by = |c: Class| {
        vs.iter()
            .copied()
            .filter(|v| v.class == c)
            .collect::<Vec<_>>()
    };
    let diff = by(Class::Difference);
    if !diff.is_empty() {
        let each: Vec<String> = diff
            .iter()
            .map(|v| {
                format!(
                    "seat {}'s {what} {} by {} ({})",
                    v.seat.unwrap_or(0),
                    if v.estimate >= 0.0 { "rises" } else { "falls" },
                    amount(v).trim_start_matches(['+', '-']),
                    interval(v)
                )
            })
            .collect();
        parts.push(each.join(", "));
    }
    let negl = by(Class::Negligible);
    if let Some(first) = negl.first() {
        let values: Vec<String> = negl
            .iter()
            .map(|v| format!("seat {} {}", v.seat.unwrap_or(0), with_interval(v)))
            .collect();
        parts.push(format!(
            "the {what} of {} moves by less than {} ({}): negligible",
            seats_list(&negl),
            margin(first),
            values.join("; ")
        ));
    }
    let open = by(Class::CannotTell);
    if !open.is_empty() {
        let values: Vec<String> = open
            .iter()
            .map(|v| format!("seat {} {}", v.seat.unwrap_or(0), with_interval(v)))
            .collect();
        parts.push(format!(
            "for the {what} of {} it cannot tell ({}: neither clear of 0 nor within ±{})",
            seats_list(&open),
            values.join("; "),
            margin(open[0])
        ));
    }
    Some(parts.join("; "))
}

fn who_wins_clause(v: &Verdict, report: &Report) -> String {
    let pair = report
        .pairs
        .iter()
        .find(|p| (p.a_index, p.b_index) == (v.a_index, v.b_index));
    let shares = pair
        .and_then(|p| p.placebo.as_ref())
        .map_or_else(String::new, |pl| {
            format!(
                "; the winner changes in {:.1} % of seeds with the rule and the players' luck \
             redrawn against {:.1} % with the luck alone",
                100.0 * pl.rule_luck_winner_changed_share,
                100.0 * pl.winner_changed_share
            )
        });
    match v.class {
        Class::Difference => format!(
            "it changes who wins {} than the players' own luck does, by {} of games ({}{shares})",
            if v.estimate >= 0.0 {
                "more often"
            } else {
                "less often"
            },
            amount(v).trim_start_matches(['+', '-']),
            interval(v)
        ),
        Class::Negligible => format!(
            "it changes who wins about as often as the players' own luck does: the excess is \
             {}, within the negligible ±{}{shares}",
            with_interval(v),
            margin(v)
        ),
        Class::CannotTell => format!(
            "it cannot tell whether the rule changes who wins beyond the players' own luck: \
             the excess {} is neither clear of 0 nor within ±{}{shares}",
            with_interval(v),
            margin(v)
        ),
    }
}

fn decisions_clause(v: &Verdict) -> String {
    match v.class {
        Class::Difference => format!(
            "it changes {} of the sampled decisions beyond the players' own luck ({}, {} \
             positions)",
            amount(v),
            interval(v),
            v.n
        ),
        Class::Negligible => format!(
            "its effect on the sampled decisions is negligible ({}, {} positions)",
            with_interval(v),
            v.n
        ),
        Class::CannotTell => format!(
            "on the sampled decisions it cannot tell ({}, {} positions)",
            with_interval(v),
            v.n
        ),
    }
}

/// The level in words: `greedy players`, `players greedy,random`.
fn level_words(policy: &str) -> String {
    if policy.contains(',') {
        format!("players `{policy}` (seat 1 first)")
    } else {
        format!("{policy} players")
    }
}

/// The headline paragraph of `report` (empty for a report without verdicts).
pub fn paragraph(report: &Report) -> String {
    let mut out = Vec::new();
    for p in &report.pairs {
        let vs: Vec<&Verdict> = report
            .verdicts
            .iter()
            .filter(|v| (v.a_index, v.b_index) == (p.a_index, p.b_index))
            .collect();
        if vs.is_empty() {
            continue;
        }
        let mut clauses = Vec::new();
        if let Some(v) = vs.iter().find(|v| v.question == Question::WhoWins) {
            clauses.push(who_wins_clause(v, report));
        } else {
            clauses.push(format!(
                "the winner changes in {:.1} % of seeds (95 % {:.1} to {:.1} %; no same-rules \
                 yardstick in this run, so how much of it is chance is not measured)",
                100.0 * p.winner_changed_share,
                100.0 * p.winner_changed_ci[0],
                100.0 * p.winner_changed_ci[1]
            ));
        }
        let of = |q: Question| {
            vs.iter()
                .copied()
                .filter(|v| v.question == q)
                .collect::<Vec<_>>()
        };
        if let Some(c) = seat_clause(&of(Question::WinRate), "win rate") {
            clauses.push(c);
        }
        if let Some(c) = seat_clause(&of(Question::Score), "score") {
            clauses.push(c);
        }
        if let Some(v) = vs.iter().find(|v| v.question == Question::Decisions) {
            clauses.push(decisions_clause(v));
        }
        let n = format!("{} seeds", report.games);
        let adjusted = vs.iter().any(|v| v.adjusted);
        let mut text = format!(
            "With {}, {} players and {n} (seed {}), “{}” instead of “{}”: {}.",
            level_words(&report.policy),
            report.players,
            report.seed,
            p.b,
            p.a,
            clauses.join("; ")
        );
        if adjusted {
            text.push_str(" Seat verdicts are adjusted for testing every seat (Holm).");
        }
        if let Some(s) = &report.stopping {
            text.push_str(&format!(
                " {}{}.",
                s.reason[..1].to_uppercase(),
                &s.reason[1..]
            ));
        }
        out.push(text);
    }
    out.join("\n\n")
}
