//! The chart kit every chart is drawn with — the compare report's, the sweep's
//! ([`crate::report::sweep`]), the skill levels' ([`crate::report::levels`]) and the ladder's:
//! ruleset keys (A, B, …) and colours, axes with readable ticks, interval bars, share bars and
//! the legend.

use super::backend::{DrawResult, FONT};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::error::Error;
use std::ops::Range;

/// Key of ruleset `i` in charts: A, B, … Z, then R27, R28, …
pub fn key(i: usize) -> String {
    if i < 26 {
        ((b'A' + i as u8) as char).to_string()
    } else {
        format!("R{}", i + 1)
    }
}

pub(crate) fn colour(i: usize) -> RGBColor {
    const C: [(u8, u8, u8); 8] = [
        (31, 119, 180),
        (255, 127, 14),
        (44, 160, 44),
        (214, 39, 40),
        (148, 103, 189),
        (140, 86, 75),
        (227, 119, 194),
        (127, 127, 127),
    ];
    let (r, g, b) = C[i % C.len()];
    RGBColor(r, g, b)
}

pub(crate) fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max - 1).collect();
        t.push('…');
        t
    }
}

/// An interval bar from `lo` to `hi` at `x`, with caps `cap` wide (in x units).
pub(crate) fn interval_bar(
    x: f64,
    lo: f64,
    hi: f64,
    cap: f64,
    style: ShapeStyle,
) -> [PathElement<(f64, f64)>; 3] {
    [
        PathElement::new([(x, lo), (x, hi)], style),
        PathElement::new([(x - cap / 2.0, lo), (x + cap / 2.0, lo)], style),
        PathElement::new([(x - cap / 2.0, hi), (x + cap / 2.0, hi)], style),
    ]
}

/// The x axis of a chart: numeric with a description, or categories at 0, 1, 2, …
pub(crate) enum XAxis<'n> {
    Numeric(Range<f64>, String),
    Categories(&'n [String]),
}

pub(crate) type Plane<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// A cartesian chart on `area` with its mesh, labels and axis descriptions drawn.
pub(crate) fn plane<'a, DB: DrawingBackend + 'a>(
    area: &'a DrawingArea<DB, Shift>,
    x: XAxis<'_>,
    y: Range<f64>,
    y_desc: &str,
) -> Result<Plane<'a, DB>, Box<dyn Error>>
where
    DB::ErrorType: 'static,
{
    let x_range = match &x {
        XAxis::Numeric(r, _) => r.clone(),
        XAxis::Categories(names) => -0.5..(names.len() as f64 - 0.5),
    };
    let mut chart = ChartBuilder::on(area)
        .x_label_area_size(44)
        .y_label_area_size(60)
        .build_cartesian_2d(x_range, y.clone())?;
    let y_label = |v: &f64| tick_label(*v, &y);
    let mut mesh = chart.configure_mesh();
    mesh.y_desc(y_desc)
        .y_label_formatter(&y_label)
        .label_style((FONT, 14))
        .axis_desc_style((FONT, 15));
    match x {
        // numeric x axes count turns or points: whole numbers only
        XAxis::Numeric(_, desc) => {
            mesh.x_desc(desc)
                .x_label_formatter(&|v| integer_tick(*v))
                .draw()?;
        }
        XAxis::Categories(names) => {
            let label = category_label(names);
            mesh.disable_x_mesh()
                .x_labels(names.len() * 2 + 1)
                .x_label_formatter(&label)
                .draw()?;
        }
    }
    Ok(chart)
}

/// An axis tick value: as many decimals as the axis step needs, and never "-0".
fn tick_label(value: f64, range: &Range<f64>) -> String {
    let step = ((range.end - range.start).abs() / 10.0).max(1e-12);
    let decimals = (-step.log10().floor()).clamp(0.0, 6.0) as usize;
    let text = format!("{value:.decimals$}");
    if text
        .trim_start_matches('-')
        .chars()
        .all(|c| c == '0' || c == '.')
    {
        text.trim_start_matches('-').to_string()
    } else {
        text
    }
}

/// A tick on an axis of whole numbers (turns, points): the number, or nothing between them.
fn integer_tick(value: f64) -> String {
    let r = value.round();
    if (value - r).abs() < 1e-6 {
        format!("{}", r as i64)
    } else {
        String::new()
    }
}

/// Formats integer positions of a categorical axis with `names`; others stay blank.
fn category_label(names: &[String]) -> impl Fn(&f64) -> String + '_ {
    move |x: &f64| {
        let r = x.round();
        if (x - r).abs() < 1e-6 && r >= 0.0 && (r as usize) < names.len() {
            names[r as usize].clone()
        } else {
            String::new()
        }
    }
}

pub(crate) fn legend<'a, DB: DrawingBackend + 'a, X: Ranged, Y: Ranged>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.4))
        .label_font((FONT, 14))
        .draw()?;
    Ok(())
}

/// A share at category `x` as a bar in percent, with its interval and its value written beside
/// it.
pub(crate) fn share_bar<'a, DB: DrawingBackend + 'a>(
    chart: &mut Plane<'a, DB>,
    x: f64,
    share: f64,
    [l, h]: [f64; 2],
    c: RGBColor,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let y = 100.0 * share;
    chart.draw_series([Rectangle::new(
        [(x - 0.25, 0.0), (x + 0.25, y)],
        c.mix(0.6).filled(),
    )])?;
    chart.draw_series(interval_bar(
        x,
        100.0 * l,
        100.0 * h,
        0.12,
        BLACK.stroke_width(2),
    ))?;
    chart.draw_series([Text::new(
        format!("{y:.1} %"),
        (x + 0.27, y),
        above_left(14),
    )])?;
    Ok(())
}

/// Text whose bottom-left corner is at its point: a value written at its level sits above
/// it — above a line drawn there, and above the axis for a 0 (issue 43: "0.0 %" and "luck
/// alone 0.0 %" were written over the axis labels).
pub(crate) fn above_left(size: u32) -> TextStyle<'static> {
    TextStyle::from((FONT, size).into_font()).pos(Pos::new(HPos::Left, VPos::Bottom))
}

/// The top of a value axis whose data reach `top`, with room above for a legend of
/// `entries` lines in the upper right corner (so that it covers no bar or interval), at most
/// `cap`.
pub(crate) fn axis_top_with_legend(top: f64, entries: usize, cap: f64) -> f64 {
    // the plotting area is about 440 px high; a legend line takes about 19 px
    let legend = (14.0 + 19.0 * entries as f64) / 440.0;
    (top * 1.05 / (1.0 - legend).max(0.35)).clamp(1.0, cap)
}

/// The style of the "even" reference line (1 / players): dashed and red, unlike the grid.
pub(crate) const EVEN_LINE: RGBColor = RGBColor(200, 30, 30);

/// A dashed horizontal reference line at `y` from `x0` to `x1`, with its legend entry.
pub(crate) fn even_line<'a, DB: DrawingBackend + 'a>(
    chart: &mut Plane<'a, DB>,
    (x0, x1): (f64, f64),
    y: f64,
    label: &str,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    chart
        .draw_series(DashedLineSeries::new(
            [(x0, y), (x1, y)],
            8,
            5,
            EVEN_LINE.stroke_width(2),
        ))?
        .label(label)
        .legend(|(x, y)| {
            EmptyElement::at((x, y))
                + PathElement::new([(0, 0), (7, 0)], EVEN_LINE.stroke_width(2))
                + PathElement::new([(11, 0), (18, 0)], EVEN_LINE.stroke_width(2))
        });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The legend gets room above the data: the higher the legend, the higher the axis, never
    /// above the cap.
    #[test]
    fn the_axis_leaves_room_for_the_legend() {
        let one = axis_top_with_legend(50.0, 1, 100.0);
        let three = axis_top_with_legend(50.0, 3, 100.0);
        assert!(one > 50.0 * 1.05 && three > one, "{one} {three}");
        // the legend's share of the height stays free above the data
        assert!(50.0 / three <= 1.0 - (14.0 + 19.0 * 3.0) / 440.0 + 1e-9);
        assert_eq!(axis_top_with_legend(95.0, 3, 100.0), 100.0);
    }
}
