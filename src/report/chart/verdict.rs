//! The headline chart (`verdicts.svg`): the rule's effect beside the chance yardstick on one
//! scale, percentage points. Per pair: the winner-changed share by the players' own luck
//! alone and with the rule as well (both as bars, the yardstick and the rule side by side),
//! the excess between them and each seat's win-rate shift (points with their 95 % intervals),
//! and the negligible band ±margin shaded, so a bar's size reads against chance and an
//! interval's against the size that matters.

use super::backend::DrawResult;
use super::kit::{colour, interval_bar, key, plane, XAxis};
use super::FONT;
use crate::compare::verdict::{Class, Question, Verdict};
use crate::compare::Report;
use plotters::coord::Shift;
use plotters::prelude::*;

/// One column of the chart.
enum Column {
    /// A share drawn as a bar from 0 (percent), with its interval.
    Bar(f64, Option<[f64; 2]>),
    /// A difference drawn as a point with its interval (percentage points).
    Shift(f64, Option<[f64; 2]>, Class),
}

fn columns(report: &Report) -> Vec<(String, Column, usize)> {
    let mut out = Vec::new();
    for (i, p) in report.pairs.iter().enumerate() {
        let tag = if report.pairs.len() > 1 {
            format!("{}–{} ", key(p.a_index), key(p.b_index))
        } else {
            String::new()
        };
        let vs: Vec<&Verdict> = report
            .verdicts
            .iter()
            .filter(|v| (v.a_index, v.b_index) == (p.a_index, p.b_index))
            .collect();
        if let Some(pl) = &p.placebo {
            let [l0, h0] = pl.winner_changed_ci_by_side[0];
            let [l1, h1] = pl.winner_changed_ci_by_side[1];
            out.push((
                format!("{tag}luck alone"),
                Column::Bar(
                    100.0 * pl.winner_changed_share,
                    Some([50.0 * (l0 + l1), 50.0 * (h0 + h1)]),
                ),
                i,
            ));
            out.push((
                format!("{tag}rule + luck"),
                Column::Bar(100.0 * pl.rule_luck_winner_changed_share, None),
                i,
            ));
        }
        for v in vs {
            let name = match (v.question, v.seat) {
                (Question::WhoWins, _) => "excess".to_string(),
                (Question::WinRate, Some(s)) => format!("seat {s} win"),
                _ => continue,
            };
            out.push((
                format!("{tag}{name}"),
                Column::Shift(
                    100.0 * v.estimate,
                    v.interval.map(|[lo, hi]| [100.0 * lo, 100.0 * hi]),
                    v.class,
                ),
                i,
            ));
        }
    }
    out
}

/// Draws the chart into `area` (below its header).
pub fn draw_verdicts<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    report: &Report,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let cols = columns(report);
    let names: Vec<String> = cols.iter().map(|(n, _, _)| n.clone()).collect();
    let margin = 100.0 * report.negligible.share();
    let (mut lo, mut hi) = (-margin, margin);
    for (_, c, _) in &cols {
        let (v, ci) = match c {
            Column::Bar(v, ci) | Column::Shift(v, ci, _) => (*v, *ci),
        };
        lo = lo.min(v);
        hi = hi.max(v);
        if let Some([l, h]) = ci {
            lo = lo.min(l);
            hi = hi.max(h);
        }
    }
    let pad = ((hi - lo) * 0.12).max(0.5);
    let names = if names.is_empty() {
        vec!["no verdicts".to_string()]
    } else {
        names
    };
    let mut chart = plane(
        area,
        XAxis::Categories(&names),
        (lo - pad)..(hi + pad),
        "percentage points (shares: % of seeds)",
    )?;
    let x_end = names.len() as f64 - 0.5;
    // the negligible band and the zero line
    chart.draw_series([Rectangle::new(
        [(-0.5, -margin), (x_end, margin)],
        RGBColor(200, 200, 200).mix(0.35).filled(),
    )])?;
    chart.draw_series([Text::new(
        format!("negligible ±{margin:.1} pp"),
        (-0.45, margin),
        (FONT, 13).into_font().color(&RGBColor(90, 90, 90)),
    )])?;
    chart.draw_series([PathElement::new(
        [(-0.5, 0.0), (x_end, 0.0)],
        BLACK.stroke_width(1),
    )])?;
    for (x, (_, c, pair)) in cols.iter().enumerate() {
        let x = x as f64;
        match c {
            Column::Bar(v, ci) => {
                chart.draw_series([Rectangle::new(
                    [(x - 0.25, 0.0), (x + 0.25, *v)],
                    colour(*pair).mix(0.55).filled(),
                )])?;
                if let Some([l, h]) = ci {
                    chart.draw_series(interval_bar(x, *l, *h, 0.12, BLACK.stroke_width(2)))?;
                }
                chart.draw_series([Text::new(
                    format!("{v:.1} %"),
                    (x + 0.27, *v),
                    (FONT, 14).into_font(),
                )])?;
            }
            Column::Shift(v, ci, class) => {
                let style = match class {
                    Class::Difference => RGBColor(200, 40, 40),
                    Class::Negligible => RGBColor(40, 140, 40),
                    Class::CannotTell => RGBColor(110, 110, 110),
                };
                if let Some([l, h]) = ci {
                    chart.draw_series(interval_bar(x, *l, *h, 0.16, style.stroke_width(3)))?;
                }
                chart.draw_series([Circle::new((x, *v), 6, style.filled())])?;
                chart.draw_series([Text::new(
                    format!("{v:+.1} pp: {}", class.words()),
                    (x + 0.1, *v),
                    (FONT, 14).into_font().color(&style),
                )])?;
            }
        }
    }
    Ok(())
}
