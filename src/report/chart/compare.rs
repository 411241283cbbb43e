//! The compare report's charts, drawn from a [`Report`]: scores, the share of games still
//! identical by turn, the paired score differences (means and histogram), the winner changed,
//! seat win rates, the per-seat counters (ingots), the per-seat win-rate shift, raw against
//! luck-corrected shifts and the skill depth.

use super::backend::{write_chart_files, ChartFormat, DrawResult, Drawable, FONT};
use super::kind::{charts_for, header_lines, ChartFile, ChartKind};
use super::kit::{
    above_left, axis_top_with_legend, colour, even_line, interval_bar, key, legend, plane,
    share_bar, shorten, Plane, XAxis,
};
use crate::compare::stats::MeanCi;
use crate::compare::Report;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::error::Error;
use std::io;
use std::path::Path;

/// One chart of a compare report.
struct ReportChart<'a>(ChartKind, &'a Report);

impl Drawable for ReportChart<'_> {
    fn draw_on<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult
    where
        DB::ErrorType: 'static,
    {
        draw(self.0, root, self.1)
    }
}

/// Draws every chart of `report` into `dir`, each file written atomically.
pub fn write_charts(
    dir: &Path,
    report: &Report,
    format: ChartFormat,
) -> io::Result<Vec<ChartFile>> {
    let mut out = Vec::new();
    for kind in charts_for(report) {
        let files = write_chart_files(dir, kind.stem(), format, &ReportChart(kind, report))?;
        out.push(ChartFile { kind, files });
    }
    Ok(out)
}

fn header<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    kind: ChartKind,
    report: &Report,
) -> Result<DrawingArea<DB, Shift>, Box<dyn Error>>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let (top, body) = root.split_vertically(92);
    let [title, rulesets, facts] = header_lines(kind, report);
    top.draw_text(&title, &(FONT, 24).into_font().color(&BLACK), (16, 10))?;
    let small = (FONT, 15).into_font().color(&RGBColor(60, 60, 60));
    top.draw_text(&rulesets, &small, (16, 44))?;
    top.draw_text(&facts, &small, (16, 66))?;
    Ok(body.margin(4, 12, 12, 20))
}

fn draw<DB: DrawingBackend>(
    kind: ChartKind,
    root: &DrawingArea<DB, Shift>,
    report: &Report,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let body = header(root, kind, report)?;
    match kind {
        ChartKind::Scores => draw_scores(&body, report),
        ChartKind::IdenticalByTurn => draw_identical(&body, report),
        ChartKind::ScoreDelta => {
            let groups: Vec<(String, Vec<MeanCi>)> = report
                .pairs
                .iter()
                .map(|p| {
                    (
                        format!("{} − {}", key(p.b_index), key(p.a_index)),
                        p.mean_score_delta.clone(),
                    )
                })
                .collect();
            draw_seat_means(
                &body,
                report.players,
                &groups,
                "points (paired difference)",
                true,
            )
        }
        ChartKind::SeatCount(c) => {
            let groups: Vec<(String, Vec<MeanCi>)> = report
                .per_ruleset
                .iter()
                .enumerate()
                .map(|(i, r)| (key(i), r.mean_counts.get(c).clone()))
                .collect();
            let label = format!("{} per seat", c.name());
            draw_seat_means(&body, report.players, &groups, &label, false)
        }
        ChartKind::ScoreDeltaHistogram => draw_delta_histogram(&body, report),
        ChartKind::WinnerChanged => draw_winner_changed(&body, report),
        ChartKind::Verdicts => super::verdict::draw_verdicts(&body, report),
        ChartKind::WinRates => draw_win_rates(&body, report),
        ChartKind::WinShift => {
            let groups: Vec<(String, Vec<MeanCi>)> = report
                .pairs
                .iter()
                .map(|p| {
                    let shifts = p
                        .who_benefits
                        .iter()
                        .map(|b| MeanCi {
                            mean: 100.0 * b.win_rate_difference,
                            sd: None,
                            ci: Some(b.win_rate_difference_ci.map(|x| 100.0 * x)),
                        })
                        .collect();
                    (format!("{} − {}", key(p.b_index), key(p.a_index)), shifts)
                })
                .collect();
            draw_seat_means(
                &body,
                report.players,
                &groups,
                "win rate shift (percentage points)",
                true,
            )
        }
        ChartKind::LuckCorrected => {
            let mut groups: Vec<(String, Vec<MeanCi>)> = Vec::new();
            for p in report.luck.iter().flat_map(|l| &l.pairs) {
                let name = format!("{} − {}", key(p.b), key(p.a));
                let pick = |f: fn(&crate::compare::luck::SeatLuck) -> MeanCi| {
                    p.seats
                        .iter()
                        .map(|s| {
                            s.as_ref().map_or(
                                MeanCi {
                                    mean: 0.0,
                                    sd: None,
                                    ci: None,
                                },
                                f,
                            )
                        })
                        .collect::<Vec<_>>()
                };
                groups.push((format!("{name} raw"), pick(|s| s.score_shift)));
                groups.push((
                    format!("{name} luck-corrected"),
                    pick(|s| s.corrected_score_shift),
                ));
            }
            draw_seat_means(
                &body,
                report.players,
                &groups,
                "points (paired difference)",
                true,
            )
        }
        ChartKind::SkillDepth => {
            let Some(s) = &report.skill_depth else {
                return Ok(());
            };
            let names: Vec<String> = (0..s.per_ruleset.len()).map(key).collect();
            let groups = vec![(
                format!("{} against {}", s.strong, s.weak),
                s.per_ruleset.iter().map(|r| r.win_rate_pct).collect(),
            )];
            draw_category_means(&body, &names, &groups, "strong side's win rate (%)", false)
        }
    }
}

fn seat_names(players: u8) -> Vec<String> {
    (1..=players).map(|s| format!("seat {s}")).collect()
}

fn draw_scores<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, report: &Report) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let all = report
        .per_ruleset
        .iter()
        .flat_map(|r| r.score_histogram.iter());
    // In i128: scores and counts come from accumulator.json and may span all of i64.
    let lo = all.clone().map(|[p, _]| *p).min().unwrap_or(0) as i128;
    let hi = all.map(|[p, _]| *p).max().unwrap_or(1) as i128;
    let width = ((hi - lo + 1) as f64 / 40.0).ceil().max(1.0) as i128;
    let bins = ((hi - lo) / width + 1) as usize;
    let shares: Vec<Vec<f64>> = report
        .per_ruleset
        .iter()
        .map(|r| bin_shares(&r.score_histogram, bins, |p| (p - lo) / width))
        .collect();
    let ymax = share_axis_top(&shares);
    let x0 = lo as f64;
    let x1 = (lo + width * bins as i128) as f64;
    let x_desc = format!("final score, points (bins of {width})");
    let mut chart = plane(
        area,
        XAxis::Numeric(x0..x1, x_desc),
        0.0..ymax,
        "share of seat-games (%)",
    )?;
    let labels = report.labels();
    let bar_x = |b: usize| (lo + width * b as i128) as f64;
    for (i, s) in shares.iter().enumerate() {
        let label = format!("{} = {}", key(i), shorten(&labels[i], 50));
        step_histogram(&mut chart, s, bar_x, colour(i), 0.22, label)?;
    }
    legend(&mut chart)
}

/// The paired score differences `b − a` of every pair as step histograms of shares, on bins
/// of an odd width centred on multiples of it (so 0, an unchanged score, has a bin of its
/// own).
fn draw_delta_histogram<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    report: &Report,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    // The axis spans the central 99 % of every pair's differences (and 0), so that a few far
    // outliers do not squeeze the mass into one bin (issue 43: 90 % of it in one bin of a
    // −38…+3 axis); the share beyond is said in the axis description.
    let (mut lo, mut hi) = (0i128, 0i128);
    for p in &report.pairs {
        let (l, h) = central_range(&p.score_delta_histogram, 0.005);
        lo = lo.min(l);
        hi = hi.max(h);
    }
    // at least −5…+5, so that all seat-games at 0 still draw a bar among empty bins
    let (lo, hi) = (lo.min(-5), hi.max(5));
    let beyond = report
        .pairs
        .iter()
        .map(|p| share_beyond(&p.score_delta_histogram, lo, hi))
        .fold(0.0f64, f64::max);
    let mut width = ((hi - lo + 1) as f64 / 60.0).ceil().max(1.0) as i128;
    if width % 2 == 0 {
        width += 1;
    }
    let bin = |d: i128| (d + (width - 1) / 2).div_euclid(width);
    let (first, last) = (bin(lo), bin(hi));
    let bins = (last - first + 1) as usize;
    let shares: Vec<Vec<f64>> = report
        .pairs
        .iter()
        .map(|p| bin_shares(&p.score_delta_histogram, bins, |d| bin(d) - first))
        .collect();
    // one bin far above the rest (most seat-games unchanged) would flatten every other bar:
    // the axis is cut above the others and the cut bar's share written on it
    let (peak, rest) = peak_and_rest(&shares);
    let cut = rest > 0.0 && peak > 3.0 * rest;
    let ymax = if cut {
        (rest * 2.0).max(1.0)
    } else {
        share_axis_top(&shares)
    };
    let edge = |k: i128| ((first + k) * width) as f64 - width as f64 / 2.0;
    let mut x_desc = if width == 1 {
        "paired score difference, later − earlier ruleset (points)".to_string()
    } else {
        format!("paired score difference, later − earlier ruleset (points, bins of {width})")
    };
    if beyond > 0.0 {
        x_desc.push_str(&format!("; {beyond:.1} % of seat-games beyond the axis"));
    }
    let mut chart = plane(
        area,
        XAxis::Numeric(edge(0)..edge(bins as i128), x_desc),
        0.0..ymax,
        "share of seat-games (%)",
    )?;
    chart.draw_series(LineSeries::new(
        [(0.0, 0.0), (0.0, ymax)],
        BLACK.mix(0.4).stroke_width(1),
    ))?;
    let bar_x = |b: usize| edge(b as i128);
    for (i, (p, s)) in report.pairs.iter().zip(&shares).enumerate() {
        let label = format!("{} − {}", key(p.b_index), key(p.a_index));
        let shown: Vec<f64> = s.iter().map(|&v| v.min(ymax)).collect();
        step_histogram(&mut chart, &shown, bar_x, colour(i), 0.18, label)?;
        // a bar cut at the top: its share written below the cut
        let below = TextStyle::from((FONT, 13).into_font()).pos(Pos::new(HPos::Left, VPos::Top));
        chart.draw_series(
            s.iter()
                .enumerate()
                .filter(|(_, &v)| v > ymax)
                .map(|(b, &v)| {
                    Text::new(
                        format!("↑ {v:.1} %"),
                        (
                            bar_x(b + 1) + width as f64 * 0.1,
                            ymax * (0.97 - 0.06 * i as f64),
                        ),
                        below.clone(),
                    )
                }),
        )?;
    }
    legend(&mut chart)
}

/// The values between which the central `1 − 2 tail` of a histogram's counts lie (`[value,
/// count]` pairs), widened to include 0; `(0, 0)` for an empty one.
fn central_range(hist: &[[i64; 2]], tail: f64) -> (i128, i128) {
    let mut sorted = hist.to_vec();
    sorted.sort_unstable();
    let total: f64 = sorted.iter().map(|[_, c]| *c as f64).sum();
    let (mut lo, mut hi) = (0i128, 0i128);
    let mut seen = 0.0;
    let mut lo_set = false;
    for [v, c] in &sorted {
        seen += *c as f64;
        if !lo_set && seen > tail * total {
            lo = lo.min(*v as i128);
            lo_set = true;
        }
        if seen >= (1.0 - tail) * total {
            hi = hi.max(*v as i128);
            break;
        }
    }
    (lo, hi)
}

/// The share (%) of a histogram's counts outside `lo..=hi`.
fn share_beyond(hist: &[[i64; 2]], lo: i128, hi: i128) -> f64 {
    let total: f64 = hist.iter().map(|[_, c]| *c as f64).sum();
    let out: f64 = hist
        .iter()
        .filter(|[v, _]| (*v as i128) < lo || (*v as i128) > hi)
        .map(|[_, c]| *c as f64)
        .sum();
    if total > 0.0 {
        100.0 * out / total
    } else {
        0.0
    }
}

/// The largest bin share of any series, and the largest share of any other bin (each series'
/// second largest).
fn peak_and_rest(shares: &[Vec<f64>]) -> (f64, f64) {
    let (mut peak, mut rest) = (0.0f64, 0.0f64);
    for s in shares {
        let mut sorted = s.clone();
        sorted.sort_unstable_by(|a, b| b.total_cmp(a));
        peak = peak.max(sorted.first().copied().unwrap_or(0.0));
        rest = rest.max(sorted.get(1).copied().unwrap_or(0.0));
    }
    (peak, rest)
}

/// Shares (%) of a histogram's counts (`[value, count]` pairs) in `bins` bins; `bin_of` gives a
/// value's bin (in i128: values and counts come from accumulator.json and may span all of
/// i64), values falling outside are left out (but count in the whole the shares are of).
fn bin_shares(hist: &[[i64; 2]], bins: usize, bin_of: impl Fn(i128) -> i128) -> Vec<f64> {
    let mut counts = vec![0i128; bins];
    for &[v, c] in hist {
        if let Some(count) = usize::try_from(bin_of(v as i128))
            .ok()
            .and_then(|b| counts.get_mut(b))
        {
            *count += c as i128;
        }
    }
    // shares of all the counts, those left out included
    let total: i128 = hist.iter().map(|&[_, c]| c as i128).sum::<i128>().max(1);
    counts
        .iter()
        .map(|&c| 100.0 * c as f64 / total as f64)
        .collect()
}

/// The top of a share axis: the largest share (at least 1 %) with room above it.
fn share_axis_top(shares: &[Vec<f64>]) -> f64 {
    shares
        .iter()
        .flatten()
        .fold(0.0f64, |a, &b| a.max(b))
        .max(1.0)
        * 1.12
}

/// One series of a step histogram: filled bars (`alpha`) under a step line, with its legend
/// entry; bin `b` spans `edge(b)..edge(b + 1)`.
fn step_histogram<'a, DB: DrawingBackend + 'a>(
    chart: &mut Plane<'a, DB>,
    shares: &[f64],
    edge: impl Fn(usize) -> f64,
    c: RGBColor,
    alpha: f64,
    label: String,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    chart.draw_series(shares.iter().enumerate().map(|(b, &y)| {
        Rectangle::new([(edge(b), 0.0), (edge(b + 1), y)], c.mix(alpha).filled())
    }))?;
    let steps = shares
        .iter()
        .enumerate()
        .flat_map(|(b, &y)| [(edge(b), y), (edge(b + 1), y)]);
    chart
        .draw_series(LineSeries::new(steps, c.stroke_width(2)))?
        .label(label)
        .legend(move |(x, y)| {
            EmptyElement::at((x, y))
                + Rectangle::new([(0, -5), (16, 5)], c.mix(alpha).filled())
                + Rectangle::new([(0, -5), (16, 5)], c.stroke_width(2))
        });
    Ok(())
}

fn draw_identical<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, report: &Report) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let last_divergence = report
        .pairs
        .iter()
        .flat_map(|p| p.first_divergence_histogram.iter().map(|[t, _]| *t))
        .max()
        .unwrap_or(0);
    let longest = report
        .per_ruleset
        .iter()
        .map(|r| r.game_length.mean.ceil() as u64)
        .max()
        .unwrap_or(0);
    let t_max = last_divergence.max(longest).max(1).saturating_add(1);
    // One point per turn; for implausibly long games (an edited accumulator.json), at most
    // about a thousand.
    let step = (t_max / 1000).max(1);
    let mut chart = plane(
        area,
        XAxis::Numeric(0.0..t_max as f64, "turn (0 = set-up)".into()),
        0.0..105.0,
        "games identical through this turn (%)",
    )?;
    for (i, p) in report.pairs.iter().enumerate() {
        let c = colour(i);
        let points = (0..=t_max / step)
            .map(|i| i * step)
            .map(|t| (t as f64, 100.0 * p.identical_through(t)));
        chart
            .draw_series(LineSeries::new(points, c.stroke_width(2)))?
            .label(format!("{} vs {}", key(p.a_index), key(p.b_index)))
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], c.stroke_width(2)));
    }
    legend(&mut chart)
}

/// Grouped means with intervals per seat: one group member per entry of `groups`.
fn draw_seat_means<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    players: u8,
    groups: &[(String, Vec<MeanCi>)],
    y_desc: &str,
    zero_line: bool,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    draw_category_means(area, &seat_names(players), groups, y_desc, zero_line)
}

/// Means with their intervals at each of `categories`, one colour per group.
fn draw_category_means<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    categories: &[String],
    groups: &[(String, Vec<MeanCi>)],
    y_desc: &str,
    zero_line: bool,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let values = groups.iter().flat_map(|(_, v)| v.iter()).flat_map(|m| {
        let [lo, hi] = m.ci.unwrap_or([m.mean, m.mean]);
        [lo, hi, m.mean]
    });
    let (mut lo, mut hi) = values.fold((0.0f64, 0.0f64), |(a, b), x| (a.min(x), b.max(x)));
    if hi - lo < 1e-9 {
        hi += 1.0;
        lo -= if zero_line { 1.0 } else { 0.0 };
    }
    let pad = (hi - lo) * 0.12;
    let (lo, hi) = (if lo < 0.0 || zero_line { lo - pad } else { lo }, hi + pad);
    let mut chart = plane(area, XAxis::Categories(categories), lo..hi, y_desc)?;
    if zero_line {
        chart.draw_series(LineSeries::new(
            [(-0.5, 0.0), (categories.len() as f64 - 0.5, 0.0)],
            BLACK.mix(0.5).stroke_width(1),
        ))?;
    }
    let n = groups.len().max(1) as f64;
    let step = 0.7 / n;
    for (g, (name, means)) in groups.iter().enumerate() {
        let c = colour(g);
        let offset = (g as f64 - (n - 1.0) / 2.0) * step;
        chart.draw_series(
            means
                .iter()
                .enumerate()
                .filter_map(|(s, m)| {
                    m.ci.map(|[l, h]| {
                        interval_bar(s as f64 + offset, l, h, step * 0.5, c.stroke_width(2))
                    })
                })
                .flatten(),
        )?;
        chart
            .draw_series(
                means
                    .iter()
                    .enumerate()
                    .map(|(s, m)| Circle::new((s as f64 + offset, m.mean), 5, c.filled())),
            )?
            .label(name.clone())
            .legend(move |(x, y)| Circle::new((x + 8, y), 5, c.filled()));
    }
    legend(&mut chart)
}

fn draw_winner_changed<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    report: &Report,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let names: Vec<String> = report
        .pairs
        .iter()
        .map(|p| format!("{} vs {}", key(p.a_index), key(p.b_index)))
        .collect();
    let top = report
        .pairs
        .iter()
        .map(|p| {
            let placebo = p.placebo.as_ref().map_or(0.0, |pl| pl.winner_changed_share);
            p.winner_changed_ci[1].max(placebo)
        })
        .fold(0.0f64, f64::max);
    let ymax = (top * 100.0 * 1.15).clamp(1.0, 100.0);
    let mut chart = plane(
        area,
        XAxis::Categories(&names),
        0.0..ymax,
        "winner(s) differ (%); lines: luck redrawn (dashed: same rules)",
    )?;
    for (i, p) in report.pairs.iter().enumerate() {
        share_bar(
            &mut chart,
            i as f64,
            p.winner_changed_share,
            p.winner_changed_ci,
            colour(i),
        )?;
        if let Some(pl) = &p.placebo {
            // what chance alone gives (dashed, labelled on the left) against the rule with the
            // same luck redrawn (solid, labelled on the right)
            let x = i as f64;
            let luck = 100.0 * pl.winner_changed_share;
            let rule_luck = 100.0 * pl.rule_luck_winner_changed_share;
            chart.draw_series(DashedLineSeries::new(
                [(x - 0.32, luck), (x + 0.32, luck)],
                6,
                4,
                BLACK.stroke_width(2),
            ))?;
            chart.draw_series([Text::new(
                format!("luck alone {luck:.1} %"),
                (x - 0.49, luck),
                above_left(13),
            )])?;
            chart.draw_series([PathElement::new(
                [(x - 0.32, rule_luck), (x + 0.32, rule_luck)],
                RGBColor(90, 90, 90).stroke_width(2),
            )])?;
            chart.draw_series([Text::new(
                format!("rule+luck {rule_luck:.1} %"),
                (x + 0.34, rule_luck),
                above_left(13),
            )])?;
        }
    }
    Ok(())
}

fn draw_win_rates<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, report: &Report) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let players = report.players;
    let top = report
        .per_ruleset
        .iter()
        .flat_map(|r| r.win_rate_ci.iter().map(|ci| ci[1]))
        .fold(0.0f64, f64::max);
    // room above the bars for the legend (the even line and one line a ruleset)
    let ymax = axis_top_with_legend(top * 100.0, report.per_ruleset.len() + 1, 100.0);
    let seats = seat_names(players);
    let mut chart = plane(
        area,
        XAxis::Categories(&seats),
        0.0..ymax,
        "games won, ties included (%)",
    )?;
    let fair = 100.0 / players.max(1) as f64;
    even_line(
        &mut chart,
        (-0.5, players as f64 - 0.5),
        fair,
        "even: 1 / players",
    )?;
    let labels = report.labels();
    let n = report.per_ruleset.len().max(1) as f64;
    let w = 0.8 / n;
    for (i, r) in report.per_ruleset.iter().enumerate() {
        let c = colour(i);
        let x = |s: usize| s as f64 - 0.4 + w * i as f64;
        chart
            .draw_series(r.win_rate.iter().enumerate().map(|(s, &v)| {
                Rectangle::new(
                    [(x(s) + 0.1 * w, 0.0), (x(s) + 0.9 * w, 100.0 * v)],
                    c.mix(0.7).filled(),
                )
            }))?
            .label(format!("{} = {}", key(i), shorten(&labels[i], 50)))
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 16, y + 5)], c.filled()));
        chart.draw_series(r.win_rate_ci.iter().enumerate().flat_map(|(s, &[l, h])| {
            interval_bar(
                x(s) + 0.5 * w,
                100.0 * l,
                100.0 * h,
                0.3 * w,
                BLACK.stroke_width(1),
            )
        }))?;
    }
    legend(&mut chart)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The histogram's axis spans the central mass, not the far outliers (issue 43), and
    /// says how much lies beyond.
    #[test]
    fn the_histogram_axis_spans_the_central_mass() {
        // 900 unchanged, 98 between −3 and +2, one at −38 and one at +30
        let mut hist = vec![[-38, 1], [0, 900], [30, 1]];
        hist.extend([[-3, 30], [-1, 30], [1, 20], [2, 18]]);
        hist.sort_unstable();
        assert_eq!(central_range(&hist, 0.005), (-3, 2));
        assert!((share_beyond(&hist, -3, 2) - 0.2).abs() < 1e-9);
        assert_eq!(central_range(&[], 0.005), (0, 0));
        // the peak stands far above the rest: the axis is cut
        let (peak, rest) = peak_and_rest(&[vec![3.0, 90.0, 2.0, 5.0]]);
        assert_eq!((peak, rest), (90.0, 5.0));
    }
}
