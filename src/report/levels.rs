//! A comparison at several skill levels (`compare --policy random --policy greedy …`): the same
//! seeds played once per level, each level a whole compare run in `levels/<policy>/` with all
//! its usual files, and in the top folder the rule effect per level side by side —
//! `report.json` (every level's report), `report.md`, `report.html` and one chart of the
//! winner-changed share by level — plus the printed summary table.

use super::chart::{
    axis_top_with_legend, colour, interval_bar, key, legend, plane, shorten, write_chart_files,
    ChartFormat, DrawResult, Drawable, XAxis, FONT,
};
use super::fmt::{align, benefit, mean_ci, pct, pct_range, pp_ci, rho};
use super::html;
use super::markdown::{cell, seat_columns};
use crate::compare::stats::{share, MeanCi, PROPORTION_INTERVAL};
use crate::compare::Report;
use crate::files::atomic::write_atomic;
use crate::files::json::write_json;
use crate::files::names::{REPORT_HTML, REPORT_JSON, REPORT_MD};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};

/// The stem of the winner-changed-by-level chart.
pub const LEVELS_CHART: &str = "winner_changed_by_level";

/// One skill level: its policy (as `--policy` was written, canonical), its folder relative to
/// the top folder, and its report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Level {
    pub policy: String,
    pub folder: String,
    pub report: Report,
}

/// The top `report.json` of a multi-level run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevelsReport {
    pub games: u64,
    pub players: u8,
    pub seed: u64,
    /// The policies, in the order given.
    pub policies: Vec<String>,
    /// The command that reproduces the whole run.
    pub command: String,
    pub levels: Vec<Level>,
}

/// The folder name of the level of `policy` (its canonical text): `:` becomes `-` and `,`
/// becomes `_`, so `mcts:200` → `mcts-200`, `greedy,random` → `greedy_random` (no policy text
/// holds `-` or `_`, so different policies get different folders).
pub fn folder_name(policy: &str) -> String {
    policy
        .chars()
        .map(|c| match c {
            ':' => '-',
            ',' => '_',
            c if c.is_ascii_alphanumeric() => c,
            _ => '_',
        })
        .collect()
}

impl LevelsReport {
    /// The report of the first level (every level has the same rulesets and pairs).
    fn first(&self) -> Option<&Report> {
        self.levels.first().map(|l| &l.report)
    }
}

/// The FAQ question of a multi-level run.
pub fn question(r: &LevelsReport) -> String {
    let Some(first) = r.first() else {
        return "How does skill change the rule effect?".into();
    };
    let q = super::markdown::question(first);
    format!("{}, at each skill level?", q.trim_end_matches('?'))
}

/// Writes `report.json`, the chart, `report.md` and `report.html` of a multi-level run into
/// `dir` (the levels' folders are already there); returns the paths written.
pub fn write_levels_report(
    dir: &Path,
    r: &LevelsReport,
    format: ChartFormat,
) -> io::Result<Vec<PathBuf>> {
    write_json(&dir.join(REPORT_JSON), r)?;
    let chart = write_chart_files(dir, LEVELS_CHART, format, &LevelsChart(r))?;
    let md = markdown(r, &chart);
    write_atomic(&dir.join(REPORT_MD), md.as_bytes())?;
    let page = html::page(dir, &question(r), &md)?;
    write_atomic(&dir.join(REPORT_HTML), page.as_bytes())?;
    let mut written = vec![dir.join(REPORT_JSON)];
    written.extend(chart.iter().map(|f| dir.join(f)));
    written.push(dir.join(REPORT_MD));
    written.push(dir.join(REPORT_HTML));
    Ok(written)
}

/// The rows "level × pair" for a table: (pair label, level policy, pair summary).
fn pair_rows(r: &LevelsReport) -> Vec<(String, &str, &crate::compare::summary::PairSummary)> {
    let pairs = r.first().map_or(0, |f| f.pairs.len());
    let mut rows = Vec::new();
    for pi in 0..pairs {
        for l in &r.levels {
            if let Some(p) = l.report.pairs.get(pi) {
                rows.push((
                    format!("{} vs {}", key(p.a_index), key(p.b_index)),
                    l.policy.as_str(),
                    p,
                ));
            }
        }
    }
    rows
}

/// The header of the by-level table of the rule against chance and on decisions.
const EFFECT_HEADER: [&str; 10] = [
    "pair",
    "policy",
    "ρ scores",
    "winner changed",
    "rule+luck",
    "luck alone",
    "excess",
    "decisions changed",
    "decision excess",
    "detectable (seat 1)",
];

/// Where a level stopped on `--until`, its detectable cell is not a power figure.
const SEQUENTIAL_NOTE: &str = "A ± in the detectable column: that level stopped on its data \
     (--until), so no fixed-N power figure holds; it shows the half-widths of seat 1's \
     anytime-valid 95 % intervals at the seeds played.";

/// Whether some level of `r` stopped on `--until`.
fn sequential(r: &LevelsReport) -> bool {
    r.levels.iter().any(|l| l.report.stopping.is_some())
}

/// The by-level cells of the rule against chance (placebo), the pairing left (ρ), the effect
/// on decisions and the smallest shifts the games detect (seat 1; every seat is in each
/// level's own report).
fn effect_rows(r: &LevelsReport) -> Vec<Vec<String>> {
    let dash = || "—".to_string();
    pair_rows(r)
        .into_iter()
        .map(|(pair, policy, p)| {
            let (rule_luck, luck, excess) = p.placebo.as_ref().map_or_else(
                || (dash(), dash(), dash()),
                |pl| {
                    (
                        pct(pl.rule_luck_winner_changed_share),
                        pct(pl.winner_changed_share),
                        pp_ci(&pl.excess_winner_changed),
                    )
                },
            );
            let (changed, dexcess) = p.decisions.as_ref().map_or_else(
                || (dash(), dash()),
                |d| {
                    (
                        format!("{} of {}", pct(d.all.changed_share), d.all.positions),
                        pp_ci(&MeanCi {
                            mean: d.all.excess,
                            sd: None,
                            ci: d.all.excess_ci,
                        }),
                    )
                },
            );
            // a run with --until: the confidence sequences' half-widths, not a fixed-N power
            let detect = match &p.sequence_half_width {
                Some(w) => w.first().map_or_else(dash, |w| {
                    format!(
                        "{} · {}",
                        w.win_rate_pp.map_or_else(dash, |x| format!("±{x:.1} pp")),
                        w.score.map_or_else(dash, |x| format!("±{x:.2} pts"))
                    )
                }),
                None => p.min_detectable.first().map_or_else(dash, |m| {
                    format!(
                        "{} · {}",
                        m.win_shift_pp.map_or_else(dash, |x| format!("{x:.1} pp")),
                        m.score_shift.map_or_else(dash, |x| format!("{x:.2} pts"))
                    )
                }),
            };
            vec![
                pair,
                policy.to_string(),
                rho(p.outcome_correlation.mean_score),
                pct(p.winner_changed_share),
                rule_luck,
                luck,
                excess,
                changed,
                dexcess,
                detect,
            ]
        })
        .collect()
}

/// `report.md` of a multi-level run.
fn markdown(r: &LevelsReport, chart: &[String]) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# {}\n", question(r));
    let Some(first) = r.first() else {
        return md;
    };
    // the answer first: each level's headline paragraph
    for level in &r.levels {
        if !level.report.headline.is_empty() {
            let _ = writeln!(md, "{}\n", level.report.headline);
        }
    }
    let _ = writeln!(
        md,
        "The same {} seeds are played at every skill level (the players' policy); each level \
         is a whole comparison with its own report.\n\n_N = {} games per ruleset and level · {} \
         players · seed {} · intervals: {} for shares, {} for means._\n",
        r.games, r.games, r.players, r.seed, first.intervals.proportions, first.intervals.means
    );
    md.push_str("## Rulesets\n\n| Key | Ruleset | Content hash |\n|---|---|---|\n");
    for (i, (label, info)) in first.labels().iter().zip(&first.rulesets).enumerate() {
        let _ = writeln!(md, "| {} | {} | `{}` |", key(i), cell(label), info.hash);
    }
    md.push_str("\n## Levels\n\n| Level | Policy | Report |\n|---|---|---|\n");
    for (i, l) in r.levels.iter().enumerate() {
        let f = &l.folder;
        let _ = writeln!(
            md,
            "| {} | `{}` | [{f}/report.md]({f}/report.md) · [report.html]({f}/report.html) |",
            i + 1,
            l.policy,
        );
    }
    md.push_str(
        "\n## Winner changed, by level\n\n| Pair | Policy | Winner changed | 95 % Wilson \
         interval | Games diverged | Outcomes identical |\n|---|---|---|---|---|---|\n",
    );
    for (pair, policy, p) in pair_rows(r) {
        let _ = writeln!(
            md,
            "| {pair} | `{policy}` | {} | {} | {} | {} |",
            pct(p.winner_changed_share),
            pct_range(p.winner_changed_ci),
            pct(p.diverged_share),
            pct(share(p.identical_outcomes, p.games))
        );
    }
    md.push_str(
        "\n## The rule against chance, on decisions, and what N detects, by level\n\n\
         ρ: the mean correlation of the paired scores (below 0.5 the pairing has broken and the \
         per-seat shifts below are the rule's effect). Rule+luck and luck alone: the \
         winner-changed share with the luck redrawn from the turn the pair parted (the players' \
         own, and the deal where the decks differ), across the rulesets and within each (the placebo); excess: the difference, paired 95 % \
         t interval. Decisions: sampled positions asked under each ruleset with the same luck, \
         and the excess over the luck alone. Detectable: the smallest win-rate and score shift \
         of seat 1 these games detect (80 % power, two-sided 5 %).\n\n",
    );
    if sequential(r) {
        md.push_str(SEQUENTIAL_NOTE);
        md.push_str("\n\n");
    }
    let header: Vec<String> = EFFECT_HEADER.iter().map(|h| cell(h)).collect();
    let _ = writeln!(md, "| {} |", header.join(" | "));
    let _ = writeln!(md, "|{}", "---|".repeat(EFFECT_HEADER.len()));
    for row in effect_rows(r) {
        let _ = writeln!(md, "| {} |", row.join(" | "));
    }
    let seat_header = |md: &mut String| {
        md.push_str("| Pair | Policy |");
        seat_columns(md, r.players, 2);
    };
    md.push_str(
        "\n## Mean paired score difference per seat, by level\n\nLater ruleset minus earlier \
         one, same seed; mean [95 % Student t interval].\n\n",
    );
    seat_header(&mut md);
    for (pair, policy, p) in pair_rows(r) {
        let _ = write!(md, "| {pair} | `{policy}` |");
        for m in &p.mean_score_delta {
            let _ = write!(md, " {} |", mean_ci(m, true));
        }
        md.push('\n');
    }
    md.push_str(
        "\n## Who benefits, by level\n\nPer seat: the win rate under the later ruleset minus \
         the earlier one (percentage points), Newcombe's 95 % interval, McNemar's exact p.\n\n",
    );
    seat_header(&mut md);
    for (pair, policy, p) in pair_rows(r) {
        let _ = write!(md, "| {pair} | `{policy}` |");
        for b in &p.who_benefits {
            let _ = write!(md, " {} |", benefit(b));
        }
        md.push('\n');
    }
    if let Some(file) = chart.first() {
        let _ = writeln!(
            md,
            "\n## Chart\n\n![Winner changed, by skill level]({file})\n"
        );
    }
    let _ = writeln!(
        md,
        "## Reproduce\n\n```sh\n{}\n```\n\nEach level's report gives the command of that level \
         alone; its numbers are those of a single-level run with the same seeds.",
        r.command
    );
    md
}

/// The printed summary of a multi-level run: the levels' folders, then per pair and level the
/// winner-changed share, divergence and mean paired score differences.
pub fn levels_table(r: &LevelsReport) -> String {
    let mut out = String::new();
    for level in &r.levels {
        if !level.report.headline.is_empty() {
            out.push_str(&level.report.headline);
            out.push_str("\n\n");
        }
    }
    out += &format!(
        "meeplab compare: {} games · {} players · seed {} · {} skill levels\n",
        r.games,
        r.players,
        r.seed,
        r.levels.len()
    );
    if let Some(first) = r.first() {
        for (i, label) in first.labels().iter().enumerate() {
            out.push_str(&format!("  {} = {label}\n", key(i)));
        }
    }
    out.push('\n');
    let mut rows = vec![std::iter::once("pair")
        .chain(["policy", "winner changed", "95 % Wilson", "diverged"])
        .map(String::from)
        .chain((1..=r.players).map(|s| format!("Δ score seat {s}")))
        .collect::<Vec<_>>()];
    for (pair, policy, p) in pair_rows(r) {
        rows.push(
            [
                pair,
                policy.to_string(),
                pct(p.winner_changed_share),
                pct_range(p.winner_changed_ci),
                pct(p.diverged_share),
            ]
            .into_iter()
            .chain(p.mean_score_delta.iter().map(|m| mean_ci(m, true)))
            .collect(),
        );
    }
    out.push_str(&align(&rows));
    out.push_str(
        "\nthe rule against chance (rule+luck vs luck alone: the luck redrawn from the turn the \
         pair parted: the players' own, and the deal where the decks differ), on decisions, and the smallest shift seat 1's games detect \
         (win rate · score, 80 % power)\n",
    );
    if sequential(r) {
        out.push_str(SEQUENTIAL_NOTE);
        out.push('\n');
    }
    let mut rows = vec![EFFECT_HEADER.map(String::from).to_vec()];
    rows.extend(effect_rows(r));
    out.push_str(&align(&rows));
    out.push_str("\nwho benefits: win rate later − earlier ruleset, Newcombe 95 % interval, McNemar exact p\n");
    let mut rows = vec![std::iter::once("pair")
        .chain(["policy"])
        .map(String::from)
        .chain((1..=r.players).map(|s| format!("seat {s}")))
        .collect::<Vec<_>>()];
    for (pair, policy, p) in pair_rows(r) {
        rows.push(
            [pair, policy.to_string()]
                .into_iter()
                .chain(p.who_benefits.iter().map(benefit))
                .collect(),
        );
    }
    out.push_str(&align(&rows));
    out.push('\n');
    for l in &r.levels {
        out.push_str(&format!("level {}: {}/\n", l.policy, l.folder));
    }
    out
}

/// The winner-changed share by level: a group of bars per pair, one bar per level.
struct LevelsChart<'a>(&'a LevelsReport);

impl Drawable for LevelsChart<'_> {
    fn draw_on<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult
    where
        DB::ErrorType: 'static,
    {
        let r = self.0;
        root.fill(&WHITE)?;
        let (top, body) = root.split_vertically(92);
        top.draw_text(
            "How often the rule difference changes the winner, by skill level",
            &(FONT, 24).into_font().color(&BLACK),
            (16, 10),
        )?;
        let small = (FONT, 15).into_font().color(&RGBColor(60, 60, 60));
        let names: Vec<String> = r.first().map_or(Vec::new(), |f| {
            f.labels()
                .iter()
                .enumerate()
                .map(|(i, l)| format!("{} = {}", key(i), shorten(l, 60)))
                .collect()
        });
        top.draw_text(
            &format!("Rulesets: {}", names.join(" · ")),
            &small,
            (16, 44),
        )?;
        top.draw_text(
            &format!(
                "N = {} games per level · {} players · the same seeds at every level · {}",
                r.games, r.players, PROPORTION_INTERVAL
            ),
            &small,
            (16, 66),
        )?;
        let body = body.margin(4, 12, 12, 20);
        let pairs: Vec<String> = r.first().map_or(Vec::new(), |f| {
            f.pairs
                .iter()
                .map(|p| format!("{} vs {}", key(p.a_index), key(p.b_index)))
                .collect()
        });
        let top_ci = r
            .levels
            .iter()
            .flat_map(|l| {
                l.report.pairs.iter().map(|p| {
                    let luck = p.placebo.as_ref().map_or(0.0, |pl| {
                        pl.winner_changed_share
                            .max(pl.rule_luck_winner_changed_share)
                    });
                    p.winner_changed_ci[1].max(luck)
                })
            })
            .fold(0.0f64, f64::max);
        // room above for the shares written over the bars and for the legend
        let ymax = axis_top_with_legend(top_ci * 100.0 * 1.08, r.levels.len(), 100.0);
        let mut chart = plane(
            &body,
            XAxis::Categories(&pairs),
            0.0..ymax,
            "winner(s) differ (%); luck redrawn: grey rule+luck, dashed luck alone",
        )?;
        let n = r.levels.len().max(1) as f64;
        let w = 0.8 / n;
        for (li, l) in r.levels.iter().enumerate() {
            let c = colour(li);
            let x = |pi: usize| pi as f64 - 0.4 + w * (li as f64 + 0.5);
            chart
                .draw_series(l.report.pairs.iter().enumerate().map(|(pi, p)| {
                    Rectangle::new(
                        [
                            (x(pi) - 0.4 * w, 0.0),
                            (x(pi) + 0.4 * w, 100.0 * p.winner_changed_share),
                        ],
                        c.mix(0.7).filled(),
                    )
                }))?
                .label(format!("policy {}", shorten(&l.policy, 40)))
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 16, y + 5)], c.filled()));
            chart.draw_series(l.report.pairs.iter().enumerate().flat_map(|(pi, p)| {
                let [lo, hi] = p.winner_changed_ci;
                interval_bar(
                    x(pi),
                    100.0 * lo,
                    100.0 * hi,
                    0.3 * w,
                    BLACK.stroke_width(2),
                )
            }))?;
            // the luck redrawn from the parting turn: within each ruleset (luck
            // alone, dashed) and across them (rule + luck, solid grey)
            for (pi, p) in l.report.pairs.iter().enumerate() {
                if let Some(pl) = &p.placebo {
                    let y = 100.0 * pl.winner_changed_share;
                    chart.draw_series(DashedLineSeries::new(
                        [(x(pi) - 0.5 * w, y), (x(pi) + 0.5 * w, y)],
                        5,
                        3,
                        BLACK.stroke_width(2),
                    ))?;
                    let y = 100.0 * pl.rule_luck_winner_changed_share;
                    chart.draw_series([PathElement::new(
                        [(x(pi) - 0.5 * w, y), (x(pi) + 0.5 * w, y)],
                        RGBColor(90, 90, 90).stroke_width(2),
                    )])?;
                }
            }
            // the share written above its interval and above the luck lines drawn across its
            // bar (issue 43: a dashed line at the interval's top struck the label through)
            let above =
                TextStyle::from((FONT, 13).into_font()).pos(Pos::new(HPos::Center, VPos::Bottom));
            chart.draw_series(l.report.pairs.iter().enumerate().map(|(pi, p)| {
                let lines = p.placebo.as_ref().map_or(0.0, |pl| {
                    pl.winner_changed_share
                        .max(pl.rule_luck_winner_changed_share)
                });
                let top = p.winner_changed_ci[1].max(lines);
                Text::new(
                    pct(p.winner_changed_share),
                    (x(pi), 100.0 * top + ymax * 0.015),
                    above.clone(),
                )
            }))?;
        }
        legend(&mut chart)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folder_names_are_safe_and_distinct() {
        assert_eq!(folder_name("mcts:200"), "mcts-200");
        assert_eq!(folder_name("greedy,random"), "greedy_random");
        assert_eq!(folder_name("greedy"), "greedy");
        assert_ne!(folder_name("mcts"), folder_name("mcts:8"));
    }
}
