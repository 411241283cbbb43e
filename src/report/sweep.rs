//! The report of `meeplab sweep`: `sweep.json`, `sweep.md`, a self-contained `sweep.html`
//! (charts inline) and three charts with the varied value on the x axis — how often the
//! winner changes against the base, the seats' win rates, and the paired score difference.
//! Every file is written atomically. [`write_sweep_files`] writes a sweep's whole share of
//! its output folder (the plan, the generated rulesets, the report); [`read_sweep_plan`]
//! reads a shard folder's plan back for `merge`.

use super::chart::{
    axis_top_with_legend, colour, even_line, interval_bar, legend, plane, share_bar, shorten,
    write_chart_files, ChartFormat, DrawResult, Drawable, XAxis, FONT,
};
use crate::compare::stats::{MEAN_INTERVAL, PROPORTION_INTERVAL};
use crate::compare::Report;
use crate::engine::{expansions, SeatCounter};
use crate::files::atomic::write_atomic;
use crate::files::names::RULES_FOLDER;
use crate::sweep::{SweepPlan, SweepSummary};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::error::Error;
use std::io;
use std::path::{Path, PathBuf};

use crate::files::names::{SWEEP_HTML, SWEEP_JSON, SWEEP_MD, SWEEP_PLAN};

/// The sweep's charts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SweepChart {
    WinnerChanged,
    WinRates,
    ScoreDelta,
}

impl SweepChart {
    const ALL: [SweepChart; 3] = [
        SweepChart::WinnerChanged,
        SweepChart::WinRates,
        SweepChart::ScoreDelta,
    ];

    fn stem(self) -> &'static str {
        match self {
            SweepChart::WinnerChanged => "sweep-winner-changed",
            SweepChart::WinRates => "sweep-win-rates",
            SweepChart::ScoreDelta => "sweep-score-delta",
        }
    }

    fn title(self) -> &'static str {
        match self {
            SweepChart::WinnerChanged => "How often the winner changes against the base, by value",
            SweepChart::WinRates => "Seat win rates by value (first-player advantage)",
            SweepChart::ScoreDelta => "Mean paired score difference (value − base) per seat",
        }
    }

    fn interval(self) -> &'static str {
        match self {
            SweepChart::ScoreDelta => MEAN_INTERVAL,
            _ => PROPORTION_INTERVAL,
        }
    }
}

/// Short x-axis labels: the values (the option name is in the header).
fn value_labels(s: &SweepSummary) -> Vec<String> {
    s.rows
        .iter()
        .map(|r| {
            let v: Vec<&str> = r.settings.iter().map(|(_, v)| v.as_str()).collect();
            let mut l = shorten(&v.join(" · "), 28);
            if r.is_base {
                l.push_str(" (base)");
            }
            l
        })
        .collect()
}

fn header<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: SweepChart,
    s: &SweepSummary,
) -> Result<DrawingArea<DB, Shift>, Box<dyn Error>>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let (top, body) = root.split_vertically(92);
    top.draw_text(
        chart.title(),
        &(FONT, 24).into_font().color(&BLACK),
        (16, 10),
    )?;
    let small = (FONT, 15).into_font().color(&RGBColor(60, 60, 60));
    let line = format!(
        "Base: {} · varied: {}",
        shorten(&s.base, 60),
        s.varied.join(", ")
    );
    top.draw_text(&line, &small, (16, 44))?;
    let facts = format!(
        "N = {} games per value · {} players · policy {} · {}",
        s.games,
        s.players,
        s.policy,
        chart.interval()
    );
    top.draw_text(&facts, &small, (16, 66))?;
    Ok(body.margin(4, 12, 12, 20))
}

fn draw<DB: DrawingBackend>(
    chart: SweepChart,
    root: &DrawingArea<DB, Shift>,
    s: &SweepSummary,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let body = header(root, chart, s)?;
    let labels = value_labels(s);
    match chart {
        SweepChart::WinnerChanged => draw_winner_changed(&body, s, &labels),
        SweepChart::WinRates => draw_win_rates(&body, s, &labels),
        SweepChart::ScoreDelta => draw_score_delta(&body, s, &labels),
    }
}

fn draw_winner_changed<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    s: &SweepSummary,
    labels: &[String],
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let top = s
        .rows
        .iter()
        .map(|r| r.winner_changed_ci[1])
        .fold(0.0f64, f64::max);
    let ymax = (top * 100.0 * 1.15).clamp(1.0, 100.0);
    let mut chart = plane(
        area,
        XAxis::Categories(labels),
        0.0..ymax,
        "games whose winner(s) differ from the base (%)",
    )?;
    for (i, r) in s.rows.iter().enumerate() {
        share_bar(
            &mut chart,
            i as f64,
            r.winner_changed_share,
            r.winner_changed_ci,
            colour(0),
        )?;
    }
    Ok(())
}

fn draw_win_rates<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    s: &SweepSummary,
    labels: &[String],
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let players = s.players.max(1) as usize;
    let top = s
        .rows
        .iter()
        .flat_map(|r| r.win_rate_ci.iter().map(|ci| ci[1]))
        .fold(0.0f64, f64::max);
    // room above the bars for the legend (the even line and one line a seat)
    let ymax = axis_top_with_legend(top * 100.0, players + 1, 100.0);
    let mut chart = plane(
        area,
        XAxis::Categories(labels),
        0.0..ymax,
        "games won, ties included (%)",
    )?;
    let fair = 100.0 / players as f64;
    even_line(
        &mut chart,
        (-0.5, s.rows.len() as f64 - 0.5),
        fair,
        "even: 1 / players",
    )?;
    let w = 0.8 / players as f64;
    for seat in 0..players {
        let c = colour(seat);
        let x = |i: usize| i as f64 - 0.4 + w * seat as f64;
        chart
            .draw_series(s.rows.iter().enumerate().map(|(i, r)| {
                let v = r.win_rate.get(seat).copied().unwrap_or(0.0);
                Rectangle::new(
                    [(x(i) + 0.1 * w, 0.0), (x(i) + 0.9 * w, 100.0 * v)],
                    c.mix(0.7).filled(),
                )
            }))?
            .label(format!("seat {}", seat + 1))
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 16, y + 5)], c.filled()));
        chart.draw_series(s.rows.iter().enumerate().flat_map(|(i, r)| {
            let [l, h] = r.win_rate_ci.get(seat).copied().unwrap_or([0.0, 0.0]);
            interval_bar(
                x(i) + 0.5 * w,
                100.0 * l,
                100.0 * h,
                0.3 * w,
                BLACK.stroke_width(1),
            )
        }))?;
    }
    legend(&mut chart)
}

fn draw_score_delta<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    s: &SweepSummary,
    labels: &[String],
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let players = s.players.max(1) as usize;
    let (mut lo, mut hi) = (0.0f64, 0.0f64);
    for r in &s.rows {
        for m in &r.score_delta {
            let [l, h] = m.ci.unwrap_or([m.mean, m.mean]);
            lo = lo.min(l);
            hi = hi.max(h);
        }
    }
    let pad = ((hi - lo) * 0.15).max(0.5);
    let mut chart = plane(
        area,
        XAxis::Categories(labels),
        (lo - pad)..(hi + pad),
        "points (value − base), mean per game",
    )?;
    chart.draw_series(LineSeries::new(
        [(-0.5, 0.0), (s.rows.len() as f64 - 0.5, 0.0)],
        BLACK.mix(0.4).stroke_width(1),
    ))?;
    let w = 0.8 / players as f64;
    for seat in 0..players {
        let c = colour(seat);
        let x = |i: usize| i as f64 - 0.4 + w * (seat as f64 + 0.5);
        chart
            .draw_series(s.rows.iter().enumerate().filter_map(|(i, r)| {
                let m = r.score_delta.get(seat)?;
                Some(Circle::new((x(i), m.mean), 5, c.filled()))
            }))?
            .label(format!("seat {}", seat + 1))
            .legend(move |(x, y)| Circle::new((x + 8, y), 5, c.filled()));
        chart.draw_series(s.rows.iter().enumerate().flat_map(|(i, r)| {
            let [l, h] = r
                .score_delta
                .get(seat)
                .and_then(|m| m.ci)
                .unwrap_or([0.0, 0.0]);
            interval_bar(x(i), l, h, 0.3 * w, c.stroke_width(2))
        }))?;
    }
    legend(&mut chart)
}

/// One chart of a sweep.
struct SweepDraw<'a>(SweepChart, &'a SweepSummary);

impl Drawable for SweepDraw<'_> {
    fn draw_on<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult
    where
        DB::ErrorType: 'static,
    {
        draw(self.0, root, self.1)
    }
}

/// Draw every chart into `dir`; returns (chart, file names) per chart, SVG first.
fn write_charts(
    dir: &Path,
    s: &SweepSummary,
    format: ChartFormat,
) -> io::Result<Vec<(SweepChart, Vec<String>)>> {
    SweepChart::ALL
        .iter()
        .map(|&chart| {
            Ok((
                chart,
                write_chart_files(dir, chart.stem(), format, &SweepDraw(chart, s))?,
            ))
        })
        .collect()
}

fn pct(x: f64) -> String {
    format!("{:.1} %", 100.0 * x)
}

fn pct_ci([l, h]: [f64; 2]) -> String {
    format!("{:.1}–{:.1} %", 100.0 * l, 100.0 * h)
}

fn mean_ci(m: &crate::compare::stats::MeanCi) -> String {
    match m.ci {
        Some([l, h]) => format!("{:+.2} [{:+.2}, {:+.2}]", m.mean, l, h),
        None => format!("{:+.2}", m.mean),
    }
}

/// The table's rows as text cells: value, winner changed, its interval, score Δ per seat,
/// win rate per seat, ties, length, each per-seat counter in play (ingots), the mean points
/// per seat of each category a module has the sweep report (`Presentation::SWEPT_POINTS`) that
/// some value's games scored.
pub fn table_rows(s: &SweepSummary) -> Vec<Vec<String>> {
    let p = s.players as usize;
    let mut head = vec![
        "value".to_string(),
        "winner changed".into(),
        "95 % Wilson".into(),
    ];
    head.extend((1..=p).map(|k| format!("Δ score seat {k}")));
    head.extend((1..=p).map(|k| format!("wins seat {k}")));
    head.extend(["ties".into(), "turns".into()]);
    // the per-seat counters some value's games count (per game, all seats together)
    let counted: Vec<SeatCounter> = SeatCounter::all()
        .filter(|&c| s.rows.iter().any(|r| *r.mean_counts_total.get(c) > 0.0))
        .collect();
    let swept: Vec<(&str, &str)> = expansions::swept_points()
        .into_iter()
        .filter(|(_, key, _)| {
            s.rows.iter().any(|r| {
                r.swept_points
                    .get(key)
                    .is_some_and(|v| v.iter().any(|&x| x > 0.0))
            })
        })
        .map(|(_, key, h)| (key, h))
        .collect();
    head.extend(counted.iter().map(|c| format!("{} / game", c.name())));
    head.extend(swept.iter().map(|(_, h)| h.to_string()));
    let mut rows = vec![head];
    for r in &s.rows {
        let mut row = vec![
            if r.is_base {
                format!("{} (base)", r.label)
            } else {
                r.label.clone()
            },
            pct(r.winner_changed_share),
            pct_ci(r.winner_changed_ci),
        ];
        row.extend(r.score_delta.iter().map(mean_ci));
        row.extend(r.win_rate.iter().map(|&w| pct(w)));
        row.push(pct(r.tie_share));
        row.push(format!("{:.1}", r.game_length.mean));
        row.extend(
            counted
                .iter()
                .map(|&c| format!("{:.2}", r.mean_counts_total.get(c))),
        );
        for (key, _) in &swept {
            let points = r.swept_points.get(key).map_or(&[][..], |v| &v[..]);
            let mean = points.iter().sum::<f64>() / points.len().max(1) as f64;
            row.push(format!("{mean:.2}"));
        }
        rows.push(row);
    }
    rows
}

fn question(s: &SweepSummary) -> String {
    format!(
        "Which value of {} should a house rule on *{}* use? {} games per value on the same \
         coupled seeds, {} players, policy {}, master seed {}.",
        s.varied
            .iter()
            .map(|k| format!("`{k}`"))
            .collect::<Vec<_>>()
            .join(" and "),
        s.base,
        s.games,
        s.players,
        s.policy,
        s.seed
    )
}

fn markdown(s: &SweepSummary, charts: &[(SweepChart, Vec<String>)], files: &[String]) -> String {
    let mut md = format!("# Sweep: {}\n\n{}\n\n", s.varied.join(", "), question(s));
    md.push_str("## In words\n\n");
    for v in &s.verdicts {
        md.push_str(&format!("- {v}\n"));
    }
    md.push_str(&format!(
        "\nIntervals: proportions {PROPORTION_INTERVAL}; means {MEAN_INTERVAL}. Overlapping \
         intervals are reported as ties.\n\n## Each value against the base\n\n"
    ));
    let rows = table_rows(s);
    for (i, row) in rows.iter().enumerate() {
        let cells: Vec<String> = row.iter().map(|c| c.replace('|', "\\|")).collect();
        md.push_str(&format!("| {} |\n", cells.join(" | ")));
        if i == 0 {
            md.push_str(&format!("|{}\n", "---|".repeat(row.len())));
        }
    }
    md.push_str("\n## Charts\n\n");
    for (chart, names) in charts {
        if let Some(first) = names.first() {
            md.push_str(&format!("![{}]({first})\n\n", chart.title()));
        }
    }
    md.push_str("## The rulesets\n\nEach value is an ordinary ruleset file; copy the one you choose as your house rule:\n\n");
    for (r, f) in s.rows.iter().zip(files) {
        md.push_str(&format!("- `{}` — {}\n", f, r.label));
    }
    md.push_str(
        "\nThe full comparison of every pair is in `report.md` and `report.json`; run its example \
         games' `meeplab trace` commands from this folder (they name the generated rulesets as \
         `rulesets/…`).\n",
    );
    md
}

/// Write `sweep.json`, the charts, `sweep.md` and `sweep.html` into `dir`; `files` are the
/// rules files of the rows (relative to `dir`). Returns the paths written.
pub fn write_sweep(
    dir: &Path,
    s: &SweepSummary,
    files: &[String],
    format: ChartFormat,
) -> io::Result<Vec<PathBuf>> {
    let json = serde_json::to_string_pretty(s).map_err(io::Error::other)?;
    write_atomic(&dir.join(SWEEP_JSON), format!("{json}\n").as_bytes())?;
    let charts = write_charts(dir, s, format)?;
    let md = markdown(s, &charts, files);
    write_atomic(&dir.join(SWEEP_MD), md.as_bytes())?;
    let page = super::html::page(dir, &format!("Sweep: {}", s.varied.join(", ")), &md)?;
    write_atomic(&dir.join(SWEEP_HTML), page.as_bytes())?;
    let mut written = vec![dir.join(SWEEP_JSON)];
    written.extend(
        charts
            .iter()
            .flat_map(|(_, f)| f.iter().map(|n| dir.join(n))),
    );
    written.push(dir.join(SWEEP_MD));
    written.push(dir.join(SWEEP_HTML));
    Ok(written)
}
/// A sweep's own files in output folder `dir`: the plan, the generated rulesets and, for a
/// whole (or merged) run, the sweep report. Written by `sweep` and by `merge` of sweep shards.
pub fn write_sweep_files(
    dir: &Path,
    plan: &SweepPlan,
    report: Option<&Report>,
    format: ChartFormat,
) -> io::Result<Vec<PathBuf>> {
    let json = serde_json::to_string_pretty(plan).map_err(io::Error::other)?;
    let plan_path = dir.join(SWEEP_PLAN);
    write_atomic(&plan_path, format!("{json}\n").as_bytes())?;
    let mut written = vec![plan_path];
    let rules_dir = dir.join(RULES_FOLDER);
    std::fs::create_dir_all(&rules_dir)?;
    // every value's house-rule file, the base's own value too (played as the base itself)
    for v in &plan.variants {
        let path = rules_dir.join(&v.file_name);
        write_atomic(&path, v.text.as_bytes())?;
        written.push(path);
    }
    if let Some(report) = report {
        written.extend(write_sweep(
            dir,
            &plan.summarize(report),
            &plan.files,
            format,
        )?);
    }
    Ok(written)
}

/// The sweep plan in a shard folder, if it is a sweep's.
pub fn read_sweep_plan(dir: &Path) -> Result<Option<SweepPlan>, String> {
    let path = dir.join(SWEEP_PLAN);
    match std::fs::read_to_string(&path) {
        Ok(text) => serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| format!("{}: {e}", path.display())),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}
