//! What `meeplab ladder` writes ([`crate::ladder`] plays and sums up the games): the printed table, `ladder.json`, `ladder.md` and two SVG charts
//! (Elo and mean score per policy, each with its 95 % interval), every file atomically.

use super::chart::ensure_font;
use super::fmt::{align, mean_ci, pct, pct_range};
use crate::compare::stats::MeanCi;
use crate::engine::SeatCounter;
use crate::files::atomic::write_atomic;
use crate::files::json::write_json;
use crate::ladder::summary::{LadderReport, PairSummary};
use plotters::prelude::*;
use std::error::Error;
use std::io;
use std::path::{Path, PathBuf};

pub const LADDER_JSON: &str = "ladder.json";
pub const LADDER_MD: &str = "ladder.md";
pub const ELO_SVG: &str = "ladder-elo.svg";
pub const SCORES_SVG: &str = "ladder-scores.svg";

const FONT: &str = "sans-serif";
const SIZE: (u32, u32) = (1000, 600);

/// The files a ladder wrote, in writing order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LadderFiles {
    pub files: Vec<PathBuf>,
}

/// `+1234 [+1100, +1400]`, `+883 [+527, ∞)` when unbounded, `0 (anchor)` for the first.
fn elo_cell(elo: f64, ci: [Option<f64>; 2], anchor: bool) -> String {
    if anchor {
        return "0 (anchor)".to_string();
    }
    let lo = ci[0].map_or("(−∞".to_string(), |x| format!("[{x:+.0}"));
    let hi = ci[1].map_or("∞)".to_string(), |x| format!("{x:+.0}]"));
    format!("{elo:+.0} {lo}, {hi}")
}

fn opt_mean(m: &Option<MeanCi>) -> String {
    m.as_ref().map(|m| mean_ci(m, false)).unwrap_or_default()
}

/// The per-seat counters the report shows: those whose expansion is in play.
fn shown(r: &LadderReport) -> Vec<SeatCounter> {
    SeatCounter::all()
        .filter(|&c| r.held_per_game.get(c).is_some())
        .collect()
}

/// `words` with its first letter capitalised (a Markdown sentence).
fn sentence(words: &str) -> String {
    let mut chars = words.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// The lines under the tables, per counter shown: what all players hold per game, and what
/// none holds at the end; `(words, mean)` each.
fn held_lines(r: &LadderReport) -> Vec<(String, &MeanCi)> {
    let mut lines = Vec::new();
    for c in shown(r) {
        if let Some(m) = r.held_per_game.get(c) {
            lines.push((format!("{} by all players per game", c.spec().held), m));
        }
        if let (Some(rest), Some(m)) = (c.spec().rest, r.rest_per_game.get(c)) {
            lines.push((rest.words.to_string(), m));
        }
    }
    lines
}

/// The first line: what was played.
fn headline(r: &LadderReport) -> String {
    let file = r
        .ruleset
        .file
        .as_deref()
        .map(|f| format!(" ({f})"))
        .unwrap_or_default();
    format!(
        "meeplab ladder: {}{file} · {} players · {} deals × {} games = {} games · seed {}",
        r.ruleset.name, r.players, r.deals, r.games_per_deal, r.games, r.seed
    )
}

/// Rows of the per-policy table (header first).
fn policy_rows(r: &LadderReport) -> Vec<Vec<String>> {
    let counters = shown(r);
    let mut header = vec![
        "policy".to_string(),
        "Elo [95 % bootstrap]".to_string(),
        "mean score [95 % t]".to_string(),
    ];
    for c in &counters {
        header.push(format!("{} [95 % t]", c.spec().held));
    }
    let mut rows = vec![header];
    for (i, p) in r.policies.iter().enumerate() {
        let mut row = vec![
            p.label.clone(),
            elo_cell(p.elo, p.elo_ci, i == 0),
            mean_ci(&p.mean_score, false),
        ];
        for &c in &counters {
            row.push(opt_mean(p.mean_held.get(c)));
        }
        rows.push(row);
    }
    rows
}

/// Rows of the per-pair table (header first).
fn pair_rows(r: &LadderReport) -> Vec<Vec<String>> {
    let counters = shown(r);
    let unit = if r.players == 2 {
        "games"
    } else {
        "comparisons"
    };
    let mut header = vec![
        "pair".to_string(),
        unit.to_string(),
        "won–tied–lost".to_string(),
        "win rate".to_string(),
        "95 % Wilson".to_string(),
        "score difference [95 % t]".to_string(),
    ];
    for c in &counters {
        header.push(format!("{}/game", c.name()));
    }
    let mut rows = vec![header];
    for p in &r.pairs {
        let mut row = vec![
            format!("{} vs {}", p.first, p.second),
            p.comparisons.to_string(),
            format!("{}–{}–{}", p.wins, p.ties, p.losses),
            pct(p.win_rate),
            pct_range(p.win_rate_ci),
            mean_ci(&p.mean_score_difference, true),
        ];
        for &c in &counters {
            row.push(opt_mean(p.held_per_game.get(c)));
        }
        rows.push(row);
    }
    rows
}

fn sweep_note(p: &PairSummary) -> String {
    let (winner, loser) = if p.wins == p.comparisons {
        (&p.first, &p.second)
    } else {
        (&p.second, &p.first)
    };
    format!(
        "{winner} finished ahead of {loser} in every comparison: the data bound their Elo gap \
         only from below, so the interval is open on that side, and the point estimate rests \
         on the one virtual tie per pair"
    )
}

/// The printed summary: headline, per-policy table, per-pair table and notes.
pub fn summary_table(r: &LadderReport) -> String {
    let mut out = headline(r);
    out.push_str("\n\n");
    out.push_str(&align(&policy_rows(r)));
    out.push('\n');
    out.push_str(&align(&pair_rows(r)));
    for (i, (words, m)) in held_lines(r).into_iter().enumerate() {
        let gap = if i == 0 { "\n" } else { "" };
        out.push_str(&format!("{gap}{words}: {}\n", mean_ci(m, false)));
    }
    out.push_str(&format!(
        "\nwin rate: first of the pair, ties count half; score difference: first − second, \
         per {}, paired by deal\n",
        if r.players == 2 { "game" } else { "comparison" }
    ));
    for p in r.pairs.iter().filter(|p| p.sweep) {
        out.push_str(&format!("note: {}\n", sweep_note(p)));
    }
    out
}

/// A Markdown table from aligned rows (header first).
fn markdown_table(rows: &[Vec<String>]) -> String {
    let mut out = String::new();
    for (i, row) in rows.iter().enumerate() {
        out.push_str(&format!("| {} |\n", row.join(" | ")));
        if i == 0 {
            let rule: Vec<&str> = row
                .iter()
                .enumerate()
                .map(|(c, _)| if c == 0 { "---" } else { "---:" })
                .collect();
            out.push_str(&format!("|{}|\n", rule.join("|")));
        }
    }
    out
}

/// `ladder.md`: the run, both tables, the pairs' mean scores, the methods and the charts.
pub fn markdown(r: &LadderReport) -> String {
    let mut md = format!("# Policy ladder: {}\n\n", r.ruleset.name);
    md.push_str(&format!("{}\n\n", headline(r)));
    md.push_str(&format!("Reproduce: `{}`\n\n", r.command));
    md.push_str("## Policies\n\n");
    md.push_str(&markdown_table(&policy_rows(r)));
    md.push_str(&format!("\n![Elo per policy]({ELO_SVG})\n\n"));
    md.push_str("## Pairs\n\n");
    md.push_str(&markdown_table(&pair_rows(r)));
    md.push('\n');
    let mut means = vec![vec![
        "pair".to_string(),
        "first: mean score [95 % t]".to_string(),
        "second: mean score [95 % t]".to_string(),
    ]];
    for p in &r.pairs {
        means.push(vec![
            format!("{} vs {}", p.first, p.second),
            mean_ci(&p.mean_score_first, false),
            mean_ci(&p.mean_score_second, false),
        ]);
    }
    md.push_str(&markdown_table(&means));
    for (i, (words, m)) in held_lines(r).into_iter().enumerate() {
        let gap = if i == 0 { "\n" } else { "" };
        md.push_str(&format!(
            "{gap}{}: {}.\n",
            sentence(&words),
            mean_ci(m, false)
        ));
    }
    for p in r.pairs.iter().filter(|p| p.sweep) {
        md.push_str(&format!("\n**Note:** {}.\n", sweep_note(p)));
    }
    md.push_str(&format!("\n![Mean score per policy]({SCORES_SVG})\n\n"));
    md.push_str("## Method\n\n");
    md.push_str(&format!("- **Format:** {}.\n", r.methods.format));
    md.push_str(&format!("- **Win rate:** {}.\n", r.methods.win_rate));
    md.push_str(&format!("- **Means:** {}.\n", r.methods.means));
    md.push_str(&format!("- **Elo:** {}.\n", r.methods.elo));
    md
}

/// One value with its interval per category (a policy).
struct IntervalChart<'a> {
    title: String,
    subtitle: String,
    y_desc: &'a str,
    names: Vec<String>,
    /// (value, interval) per name; `None` = unbounded on that side (drawn to the edge).
    values: Vec<(f64, [Option<f64>; 2])>,
}

fn draw_interval_chart(chart: &IntervalChart) -> Result<String, Box<dyn Error>> {
    ensure_font();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE)?;
        let (top, body) = root.split_vertically(72);
        top.draw_text(
            &chart.title,
            &(FONT, 22).into_font().color(&BLACK),
            (16, 10),
        )?;
        top.draw_text(
            &chart.subtitle,
            &(FONT, 14).into_font().color(&RGBColor(60, 60, 60)),
            (16, 42),
        )?;
        let body = body.margin(4, 12, 12, 20);
        let (mut lo, mut hi) = chart
            .values
            .iter()
            .flat_map(|(v, [a, b])| [Some(*v), *a, *b])
            .flatten()
            .fold((0.0f64, 0.0f64), |(l, h), x| (l.min(x), h.max(x)));
        if hi - lo < 1e-9 {
            hi += 1.0;
            lo -= 1.0;
        }
        let pad = (hi - lo) * 0.1;
        let n = chart.names.len();
        let mut plane = ChartBuilder::on(&body)
            .x_label_area_size(44)
            .y_label_area_size(70)
            .build_cartesian_2d(-0.5..(n as f64 - 0.5), (lo - pad)..(hi + pad))?;
        let names = &chart.names;
        let label = |x: &f64| {
            let r = x.round();
            if (x - r).abs() < 1e-6 && r >= 0.0 && (r as usize) < names.len() {
                names[r as usize].clone()
            } else {
                String::new()
            }
        };
        plane
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(n * 2 + 1)
            .x_label_formatter(&label)
            .y_desc(chart.y_desc)
            .label_style((FONT, 14))
            .axis_desc_style((FONT, 15))
            .draw()?;
        plane.draw_series(LineSeries::new(
            [(-0.5, 0.0), (n as f64 - 0.5, 0.0)],
            BLACK.mix(0.35).stroke_width(1),
        ))?;
        let blue = RGBColor(31, 119, 180);
        for (i, (v, [a, b])) in chart.values.iter().enumerate() {
            let x = i as f64;
            let (a, b) = (&a.unwrap_or(lo - pad), &b.unwrap_or(hi + pad));
            let style = blue.stroke_width(2);
            plane.draw_series([
                PathElement::new([(x, *a), (x, *b)], style),
                PathElement::new([(x - 0.08, *a), (x + 0.08, *a)], style),
                PathElement::new([(x - 0.08, *b), (x + 0.08, *b)], style),
            ])?;
            plane.draw_series([Circle::new((x, *v), 5, blue.filled())])?;
        }
        root.present()?;
    }
    Ok(svg)
}

/// The facts line under each chart's title.
fn chart_facts(r: &LadderReport, interval: &str) -> String {
    format!(
        "{} · {} players · {} deals, {} games · {interval}",
        r.ruleset.name, r.players, r.deals, r.games
    )
}

/// Writes `ladder.json`, the charts and `ladder.md` into `dir` (made if missing).
pub fn write_ladder(dir: &Path, r: &LadderReport) -> io::Result<LadderFiles> {
    std::fs::create_dir_all(dir)?;
    let to_io = |e: Box<dyn Error>| io::Error::other(e.to_string());
    let names: Vec<String> = r.policies.iter().map(|p| p.label.clone()).collect();
    write_json(&dir.join(LADDER_JSON), r)?;
    let elo = IntervalChart {
        title: "Elo per policy (first policy = 0)".to_string(),
        subtitle: chart_facts(
            r,
            "95 % bootstrap interval over deals; a bar to the edge is open-ended",
        ),
        y_desc: "Elo",
        names: names.clone(),
        values: r.policies.iter().map(|p| (p.elo, p.elo_ci)).collect(),
    };
    write_atomic(
        &dir.join(ELO_SVG),
        draw_interval_chart(&elo).map_err(to_io)?.as_bytes(),
    )?;
    let scores = IntervalChart {
        title: "Mean score per game".to_string(),
        subtitle: chart_facts(r, "95 % Student t interval over deals"),
        y_desc: "points per game",
        names,
        values: r
            .policies
            .iter()
            .map(|p| {
                let m = &p.mean_score;
                let [lo, hi] = m.ci.unwrap_or([m.mean, m.mean]);
                (m.mean, [Some(lo), Some(hi)])
            })
            .collect(),
    };
    write_atomic(
        &dir.join(SCORES_SVG),
        draw_interval_chart(&scores).map_err(to_io)?.as_bytes(),
    )?;
    write_atomic(&dir.join(LADDER_MD), markdown(r).as_bytes())?;
    Ok(LadderFiles {
        files: [LADDER_JSON, ELO_SVG, SCORES_SVG, LADDER_MD]
            .iter()
            .map(|f| dir.join(f))
            .collect(),
    })
}
