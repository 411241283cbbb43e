//! The "Luck taken out" and "Skill depth" sections of `report.md` (and so of `report.html`)
//! and of the printed summary: the luck-corrected shifts per pair and seat with how many raw
//! games each corrected game is worth ([`crate::compare::luck`]), the mean luck per ruleset
//! (the unbiasedness check) with the share of the margin it explains, and the strong policy's
//! edge over the weak one under each ruleset with the paired difference
//! ([`crate::compare::skill`]).

use super::chart::key;
use super::fmt::align;
use super::markdown::cell;
use crate::compare::luck::{LuckSummary, SeatLuck};
use crate::compare::skill::SkillSummary;
use crate::compare::stats::{MeanCi, TOO_LITTLE_DATA};
use crate::compare::Report;
use std::fmt::Write as _;

/// `x` rounded to `decimals` with its sign, without a negative zero.
fn signed(x: f64, decimals: usize) -> String {
    let k = 10f64.powi(decimals as i32);
    format!("{:+.decimals$}", (x * k).round() / k + 0.0)
}

/// `+1.2 [−0.3, +2.7]` (with `suffix` after the mean).
fn with_ci(m: &MeanCi, decimals: usize, suffix: &str) -> String {
    match m.interval().bounds() {
        Some([lo, hi]) => format!(
            "{}{suffix} [{}, {}]",
            signed(m.mean, decimals),
            signed(lo, decimals),
            signed(hi, decimals)
        ),
        None => format!("{}{suffix} ({TOO_LITTLE_DATA})", signed(m.mean, decimals)),
    }
}

/// `62.5 % [55.1, 69.9]`.
fn pct_ci(m: &MeanCi) -> String {
    match m.interval().bounds() {
        Some([lo, hi]) => format!("{:.1} % [{:.1}, {:.1}]", m.mean, lo, hi),
        None => format!("{:.1} % ({TOO_LITTLE_DATA})", m.mean),
    }
}

fn ratio(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.2}×")
    } else {
        "∞".into()
    }
}

fn share(x: Option<f64>) -> String {
    x.map_or_else(|| "—".into(), |x| format!("{:.0} %", 100.0 * x))
}

/// The cells of one seat: seat, raw score shift, corrected, worth, raw win shift, corrected,
/// worth.
fn seat_cells(seat: usize, s: &Option<SeatLuck>) -> Vec<String> {
    let mut row = vec![format!("seat {}", seat + 1)];
    match s {
        Some(s) => row.extend([
            with_ci(&s.score_shift, 1, ""),
            with_ci(&s.corrected_score_shift, 1, ""),
            ratio(s.variance_ratio),
            with_ci(&s.win_shift_pp, 1, " pp"),
            with_ci(&s.corrected_win_shift_pp, 1, " pp"),
            ratio(s.win_variance_ratio),
        ]),
        None => row.extend(std::iter::repeat_n("—".to_string(), 6)),
    }
    row
}

const LUCK_INTRO: &str = "each game's tile luck (per draw, the heuristic's value of the tile \
    that came minus the mean over the tiles that could have come; AIVAT) taken out as a control \
    variate, fitted per seat; both columns estimate the same shift, the corrected one with less \
    of the tiles' noise; \"worth\" = how many raw games one corrected game is worth (the ratio of \
    the variances)";

const SKILL_INTRO: &str = "every seed played once per seat under each ruleset, the strong \
    policy in that seat and the weak one in all others (the same deal); win rate = the strong \
    seat among the winners (ties count), against what equal play gives; margin = the strong \
    seat's score minus the weak seats' mean; luck share = the share of the margin's variance \
    the tile luck explains; differences per seed, later − earlier ruleset, paired 95 % t \
    interval";

/// The sentence that states a pair's skill-depth difference in words.
fn skill_sentence(s: &SkillSummary, a: usize, b: usize, d: &MeanCi) -> String {
    let (ka, kb) = (key(a), key(b));
    let size = d.mean.abs();
    let word = if d.mean < 0.0 { "less" } else { "more" };
    // judged on the printed bounds, so that "[-2.0, +0.0]" reads as including no difference
    let printed = |x: f64| (x * 10.0).round() / 10.0;
    let sure = match d.ci {
        Some([lo, hi]) if printed(lo) > 0.0 || printed(hi) < 0.0 => "",
        _ => " (the interval includes no difference)",
    };
    format!(
        "Under {kb}, {} beats {} {size:.1} pp {word} often than under {ka} [{}, {}]{sure}.",
        s.strong,
        s.weak,
        d.ci.map_or_else(|| "—".into(), |c| signed(c[0], 1)),
        d.ci.map_or_else(|| "—".into(), |c| signed(c[1], 1)),
    )
}

/// The printed summary's luck and skill lines; empty when the run has neither.
pub fn table_section(report: &Report) -> String {
    let mut out = String::new();
    if let Some(l) = &report.luck {
        let _ = write!(out, "\nluck taken out ({} seeds): {LUCK_INTRO}\n", l.games);
        for p in &l.pairs {
            let (ka, kb) = (key(p.a), key(p.b));
            let mut rows = vec![vec![
                format!("{kb} − {ka}"),
                "score shift".into(),
                "luck-corrected".into(),
                "worth".into(),
                "win shift".into(),
                "luck-corrected".into(),
                "worth".into(),
            ]];
            rows.extend(p.seats.iter().enumerate().map(|(i, s)| seat_cells(i, s)));
            out.push_str(&align(&rows));
        }
        out.push_str(&ruleset_luck_lines(l));
    }
    if let Some(s) = &report.skill_depth {
        let _ = write!(
            out,
            "\nskill depth, {} against {} ({} seeds × {} seats): {SKILL_INTRO}\n",
            s.strong, s.weak, s.games, report.players
        );
        let mut rows = vec![vec![
            "ruleset".into(),
            "strong win rate".into(),
            "even".into(),
            "margin".into(),
            "luck share".into(),
        ]];
        for (i, r) in s.per_ruleset.iter().enumerate() {
            rows.push(vec![
                key(i),
                pct_ci(&r.win_rate_pct),
                format!("{:.1} %", r.even_pct),
                with_ci(&r.margin, 1, ""),
                share(r.luck_share),
            ]);
        }
        out.push_str(&align(&rows));
        for d in &s.difference {
            let _ = writeln!(
                out,
                "{} (margin {} points)",
                skill_sentence(s, d.a, d.b, &d.win_rate_pp),
                with_ci(&d.margin, 1, "")
            );
        }
    }
    out
}

fn ruleset_luck_lines(l: &LuckSummary) -> String {
    let mut out = String::new();
    for (i, r) in l.rulesets.iter().enumerate() {
        let seats: Vec<String> = r.mean_luck.iter().map(|m| with_ci(m, 2, "")).collect();
        let _ = writeln!(
            out,
            "{}: mean luck by seat {} (0 expected); luck explains {} of the score margin's variance",
            key(i),
            seats.join(" · "),
            share(r.luck_share)
        );
    }
    out
}

/// The `### Luck taken out` and `### Skill depth` sections of `report.md`; empty when the run
/// has neither.
pub fn markdown_section(report: &Report) -> String {
    let mut md = String::new();
    if let Some(l) = &report.luck {
        let _ = write!(
            md,
            "\n### Luck taken out\n\n{} paired seeds: {}.\n",
            l.games,
            cell(LUCK_INTRO)
        );
        for p in &l.pairs {
            let (ka, kb) = (key(p.a), key(p.b));
            let _ = write!(
                md,
                "\n**{kb} − {ka}**\n\n| Seat | Score shift | Luck-corrected | Worth | Win shift | Luck-corrected | Worth |\n|---|---|---|---|---|---|---|\n"
            );
            for (i, s) in p.seats.iter().enumerate() {
                let row: Vec<String> = seat_cells(i, s).iter().map(|c| cell(c)).collect();
                let _ = writeln!(md, "| {} |", row.join(" | "));
            }
        }
        md.push_str("\n| Ruleset | Mean luck by seat (0 expected) | Share of the margin's variance the luck explains |\n|---|---|---|\n");
        for (i, r) in l.rulesets.iter().enumerate() {
            let seats: Vec<String> = r.mean_luck.iter().map(|m| with_ci(m, 2, "")).collect();
            let _ = writeln!(
                md,
                "| {} | {} | {} |",
                key(i),
                cell(&seats.join(" · ")),
                share(r.luck_share)
            );
        }
    }
    if let Some(s) = &report.skill_depth {
        let _ = write!(
            md,
            "\n### Skill depth: {} against {}\n\n{} seeds × {} seats: {}.\n\n| Ruleset | Strong win rate [95 % t] | Equal play | Strong margin (points) [95 % t] | Luck share of the margin |\n|---|---|---|---|---|\n",
            cell(&s.strong),
            cell(&s.weak),
            s.games,
            report.players,
            cell(SKILL_INTRO)
        );
        for (i, r) in s.per_ruleset.iter().enumerate() {
            let _ = writeln!(
                md,
                "| {} | {} | {:.1} % | {} | {} |",
                key(i),
                pct_ci(&r.win_rate_pct),
                r.even_pct,
                with_ci(&r.margin, 1, ""),
                share(r.luck_share)
            );
        }
        md.push('\n');
        for d in &s.difference {
            let _ = writeln!(
                md,
                "- {} Margin {} points.",
                cell(&skill_sentence(s, d.a, d.b, &d.win_rate_pp)),
                with_ci(&d.margin, 1, "")
            );
        }
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_skill_sentence_says_which_way_and_how_sure() {
        let s = SkillSummary {
            strong: "mcts".into(),
            weak: "greedy".into(),
            games: 10,
            per_ruleset: Vec::new(),
            difference: Vec::new(),
        };
        let d = MeanCi {
            mean: -4.0,
            sd: Some(1.0),
            ci: Some([-6.0, -2.0]),
        };
        assert_eq!(
            skill_sentence(&s, 0, 1, &d),
            "Under B, mcts beats greedy 4.0 pp less often than under A [-6.0, -2.0]."
        );
        let unsure = MeanCi {
            ci: Some([-6.0, 1.0]),
            ..d
        };
        assert!(
            skill_sentence(&s, 0, 1, &unsure).ends_with("(the interval includes no difference).")
        );
        let edge = MeanCi {
            ci: Some([-2.0, -0.01]),
            ..d
        };
        assert!(skill_sentence(&s, 0, 1, &edge).ends_with("(the interval includes no difference)."));
        assert_eq!(ratio(f64::INFINITY), "∞");
        assert_eq!(with_ci(&d, 1, " pp"), "-4.0 pp [-6.0, -2.0]");
    }
}
