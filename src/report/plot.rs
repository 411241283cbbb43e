//! Charts for the FAQ report, drawn with `plotters` as SVG and/or PNG.
//!
//! Every chart carries a three-line header: what it shows; the rulesets (keyed A, B, C… as
//! in its legend and axis labels); and N, players, policy and the interval type. PNG text is
//! rendered with the embedded DejaVu Sans (see `assets/fonts/README.md`); nothing is read or
//! downloaded at run time. SVG text refers to the generic `sans-serif` family.

use super::atomic::{commit_temp, temp_path, write_atomic};
use crate::compare::stats::{MeanCi, MEAN_INTERVAL, PROPORTION_INTERVAL};
use crate::compare::Report;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use png_text::PngText;
use std::error::Error;
use std::io;
use std::ops::Range;
use std::path::Path;
use std::str::FromStr;
use std::sync::Once;

static DEJAVU_SANS: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
pub(crate) const FONT: &str = "sans-serif";
pub(crate) const SIZE: (u32, u32) = (1100, 640);

/// Registers the embedded font as `sans-serif` (once per process). Plotters needs it for
/// text layout in every backend, and for glyphs in PNG.
pub fn ensure_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let ok = plotters::style::register_font(FONT, FontStyle::Normal, DEJAVU_SANS).is_ok();
        debug_assert!(ok, "the embedded font parses");
    });
}

/// `--format`: which image files to write.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ChartFormat {
    /// Scalable vector charts (open in a web browser).
    #[default]
    Svg,
    /// Bitmap charts, 1000 pixels wide.
    Png,
    /// Both SVG and PNG.
    Both,
}

impl ChartFormat {
    pub(crate) fn svg(self) -> bool {
        matches!(self, ChartFormat::Svg | ChartFormat::Both)
    }
    pub(crate) fn png(self) -> bool {
        matches!(self, ChartFormat::Png | ChartFormat::Both)
    }
}

impl FromStr for ChartFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<ChartFormat, String> {
        match s {
            "svg" => Ok(ChartFormat::Svg),
            "png" => Ok(ChartFormat::Png),
            "both" => Ok(ChartFormat::Both),
            _ => Err(format!(
                "unknown chart format {s:?}: expected svg, png or both"
            )),
        }
    }
}

/// The charts meeplab draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChartKind {
    Scores,
    IdenticalByTurn,
    ScoreDelta,
    ScoreDeltaHistogram,
    WinnerChanged,
    WinRates,
    Ingots,
    /// Per-seat win-rate shift between the pair's rulesets (who benefits).
    WinShift,
    /// Per-seat score shift, raw beside luck-corrected ([`crate::compare::luck`]).
    LuckCorrected,
    /// The strong policy's win rate against the weak one under each ruleset
    /// ([`crate::compare::skill`]).
    SkillDepth,
}

impl ChartKind {
    /// File name without extension.
    pub fn stem(self) -> &'static str {
        match self {
            ChartKind::Scores => "scores",
            ChartKind::IdenticalByTurn => "identical_by_turn",
            ChartKind::ScoreDelta => "score_delta",
            ChartKind::ScoreDeltaHistogram => "score_delta_histogram",
            ChartKind::WinnerChanged => "winner_changed",
            ChartKind::WinRates => "win_rates",
            ChartKind::Ingots => "ingots",
            ChartKind::WinShift => "win_shift",
            ChartKind::LuckCorrected => "luck_corrected",
            ChartKind::SkillDepth => "skill_depth",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            ChartKind::Scores => "Final score distribution (all seats)",
            ChartKind::IdenticalByTurn => "Share of games still identical, by turn",
            ChartKind::ScoreDelta => "Mean paired score difference per seat",
            ChartKind::ScoreDeltaHistogram => {
                "Distribution of paired score differences (all seats)"
            }
            ChartKind::WinnerChanged => "How often the rule difference changes the winner",
            ChartKind::WinRates => "Seat win rates",
            ChartKind::Ingots => "Gold: mean ingots held at the end, per seat",
            ChartKind::WinShift => "Per-seat win-rate shift, later − earlier ruleset",
            ChartKind::LuckCorrected => {
                "Per-seat score shift, later − earlier ruleset: raw and with the tile luck taken out"
            }
            ChartKind::SkillDepth => "Skill depth: the strong policy's win rate under each ruleset",
        }
    }

    fn interval(self) -> &'static str {
        match self {
            ChartKind::Scores | ChartKind::IdenticalByTurn | ChartKind::ScoreDeltaHistogram => {
                "no intervals (observed shares)"
            }
            ChartKind::ScoreDelta | ChartKind::Ingots => MEAN_INTERVAL,
            ChartKind::WinnerChanged | ChartKind::WinRates => PROPORTION_INTERVAL,
            ChartKind::WinShift => "95 % Newcombe interval (paired shares)",
            ChartKind::LuckCorrected | ChartKind::SkillDepth => MEAN_INTERVAL,
        }
    }
}

/// The charts for `report`: all of them, the ingot chart only when gold is in play. The
/// first is the headline: the winner-changed share while the pairing holds; the per-seat
/// win-rate and score shifts once it has broken (the paired games nearly independent).
pub fn charts_for(report: &Report) -> Vec<ChartKind> {
    let mut v = if report.pairs.iter().any(|p| p.pairing_broken) {
        vec![
            ChartKind::WinShift,
            ChartKind::ScoreDelta,
            ChartKind::WinnerChanged,
            ChartKind::IdenticalByTurn,
        ]
    } else {
        vec![
            ChartKind::WinnerChanged,
            ChartKind::IdenticalByTurn,
            ChartKind::ScoreDelta,
            ChartKind::WinShift,
        ]
    };
    v.extend([
        ChartKind::ScoreDeltaHistogram,
        ChartKind::WinRates,
        ChartKind::Scores,
    ]);
    if report.has_gold() {
        v.push(ChartKind::Ingots);
    }
    if report.luck.is_some() {
        v.push(ChartKind::LuckCorrected);
    }
    if report.skill_depth.is_some() {
        v.push(ChartKind::SkillDepth);
    }
    v
}

/// A chart written to the output directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChartFile {
    pub kind: ChartKind,
    /// File names relative to the output directory (SVG first when both).
    pub files: Vec<String>,
}

/// A chart that can be drawn on any plotters backend (SVG, PNG).
pub(crate) trait Drawable {
    fn draw_on<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult
    where
        DB::ErrorType: 'static;
}

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

/// Writes `chart` as `STEM.svg` and/or `STEM.png` in `dir` (as `format` says), each file
/// atomically; returns the file names, SVG first. Errors are sentences naming the file.
pub(crate) fn write_chart_files(
    dir: &Path,
    stem: &str,
    format: ChartFormat,
    chart: &impl Drawable,
) -> io::Result<Vec<String>> {
    ensure_font();
    let to_io = |e: Box<dyn Error>| io::Error::other(e.to_string());
    let mut files = Vec::new();
    if format.svg() {
        let name = format!("{stem}.svg");
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
            chart.draw_on(&root).map_err(to_io)?;
            root.present()
                .map_err(|e| io::Error::other(e.to_string()))?;
        }
        write_atomic(&dir.join(&name), svg.as_bytes())?;
        files.push(name);
    }
    if format.png() {
        let name = format!("{stem}.png");
        let path = dir.join(&name);
        let temp = temp_path(&path);
        // Create the file first so that a folder one cannot write to gives an I/O error
        // naming the chart, not the bitmap encoder's debug text.
        std::fs::File::create(&temp).map_err(|e| {
            io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display()))
        })?;
        let result = (|| -> Result<(), Box<dyn Error>> {
            let root = PngText::new(BitMapBackend::new(&temp, SIZE)).into_drawing_area();
            chart.draw_on(&root)?;
            root.present()?;
            Ok(())
        })();
        if let Err(e) = result {
            let _ = std::fs::remove_file(&temp);
            return Err(io::Error::other(format!(
                "cannot draw {}: {e}",
                path.display()
            )));
        }
        commit_temp(&temp, &path)?;
        files.push(name);
    }
    Ok(files)
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

pub(crate) type DrawResult = Result<(), Box<dyn Error>>;

/// PNG text drawn right (see [`PngText`]).
mod png_text {
    use super::DEJAVU_SANS;
    use plotters::prelude::{BitMapBackend, DrawingBackend};
    use plotters_backend::text_anchor::{HPos, VPos};
    use plotters_backend::{
        BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
    };

    /// The PNG backend with its text drawn here: plotters 0.3.7 places each glyph's outline at
    /// the pen position without its left side bearing, so PNG text reads "p olicy". Everything
    /// else is the bitmap backend's; the layout (sizes, anchors, rotation) is plotters' own.
    pub struct PngText<'a> {
        inner: BitMapBackend<'a>,
        font: Option<ab_glyph::FontRef<'static>>,
    }

    impl<'a> PngText<'a> {
        pub fn new(inner: BitMapBackend<'a>) -> PngText<'a> {
            PngText {
                inner,
                font: ab_glyph::FontRef::try_from_slice(DEJAVU_SANS).ok(),
            }
        }
    }

    type BackendResult<E> = Result<(), DrawingErrorKind<E>>;

    impl<'a> DrawingBackend for PngText<'a> {
        type ErrorType = <BitMapBackend<'a> as DrawingBackend>::ErrorType;

        fn get_size(&self) -> (u32, u32) {
            self.inner.get_size()
        }
        fn ensure_prepared(&mut self) -> BackendResult<Self::ErrorType> {
            self.inner.ensure_prepared()
        }
        fn present(&mut self) -> BackendResult<Self::ErrorType> {
            self.inner.present()
        }
        fn draw_pixel(
            &mut self,
            at: BackendCoord,
            c: BackendColor,
        ) -> BackendResult<Self::ErrorType> {
            self.inner.draw_pixel(at, c)
        }
        fn draw_line<S: BackendStyle>(
            &mut self,
            from: BackendCoord,
            to: BackendCoord,
            style: &S,
        ) -> BackendResult<Self::ErrorType> {
            self.inner.draw_line(from, to, style)
        }
        fn draw_rect<S: BackendStyle>(
            &mut self,
            upper_left: BackendCoord,
            bottom_right: BackendCoord,
            style: &S,
            fill: bool,
        ) -> BackendResult<Self::ErrorType> {
            self.inner.draw_rect(upper_left, bottom_right, style, fill)
        }
        fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
            &mut self,
            path: I,
            style: &S,
        ) -> BackendResult<Self::ErrorType> {
            self.inner.draw_path(path, style)
        }
        fn draw_circle<S: BackendStyle>(
            &mut self,
            center: BackendCoord,
            radius: u32,
            style: &S,
            fill: bool,
        ) -> BackendResult<Self::ErrorType> {
            self.inner.draw_circle(center, radius, style, fill)
        }
        fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
            &mut self,
            vert: I,
            style: &S,
        ) -> BackendResult<Self::ErrorType> {
            self.inner.fill_polygon(vert, style)
        }
        fn blit_bitmap(
            &mut self,
            pos: BackendCoord,
            size: (u32, u32),
            src: &[u8],
        ) -> BackendResult<Self::ErrorType> {
            self.inner.blit_bitmap(pos, size, src)
        }

        fn draw_text<T: BackendTextStyle>(
            &mut self,
            text: &str,
            style: &T,
            pos: BackendCoord,
        ) -> BackendResult<Self::ErrorType> {
            use ab_glyph::{Font, ScaleFont};
            let Some(font) = self.font.clone() else {
                return self.inner.draw_text(text, style, pos);
            };
            let color = style.color();
            if color.alpha == 0.0 {
                return Ok(());
            }
            // the same box, anchor and transform as plotters' default `draw_text`
            let ((min_x, min_y), (max_x, max_y)) = style
                .layout_box(text)
                .map_err(|e| DrawingErrorKind::FontError(Box::new(e)))?;
            let (width, height) = (max_x - min_x, max_y - min_y);
            let dx = match style.anchor().h_pos {
                HPos::Left => 0,
                HPos::Right => -width,
                HPos::Center => -width / 2,
            };
            let dy = match style.anchor().v_pos {
                VPos::Top => 0,
                VPos::Center => -height / 2,
                VPos::Bottom => -height,
            };
            let transform = style.transform();
            let (w, h) = self.inner.get_size();
            let size = style.size() as f32;
            let scaled = font.as_scaled(size);
            let mut pen = 0f32;
            let mut prev = None;
            let mut coverage = Vec::new();
            for ch in text.chars() {
                let id = scaled.glyph_id(ch);
                if let Some(p) = prev {
                    pen += scaled.kern(p, id);
                }
                prev = Some(id);
                let glyph = id.with_scale_and_position(size, ab_glyph::point(pen, 0.0));
                if let Some(outline) = scaled.outline_glyph(glyph) {
                    let bounds = outline.px_bounds();
                    // horizontally at the glyph's own box (pen + bearing); vertically as plotters
                    let (x0, y0) = (bounds.min.x as i32, (size / 2.0 + bounds.min.y) as i32);
                    coverage.clear();
                    outline.draw(|x, y, c| coverage.push((x as i32 + x0, y as i32 + y0, c)));
                    for &(x, y, c) in &coverage {
                        let (x, y) = transform.transform(x + dx - min_x, y + dy - min_y);
                        let (x, y) = (pos.0 + x, pos.1 + y);
                        if x >= 0 && x < w as i32 && y >= 0 && y < h as i32 && c > 0.0 {
                            let shade = BackendColor {
                                alpha: color.alpha * f64::from(c.min(1.0)),
                                rgb: color.rgb,
                            };
                            self.inner.draw_pixel((x, y), shade)?;
                        }
                    }
                }
                pen += scaled.h_advance(id);
            }
            Ok(())
        }
    }
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

/// The header lines of `kind` for `report`.
pub fn header_lines(kind: ChartKind, report: &Report) -> [String; 3] {
    let names: Vec<String> = report
        .labels()
        .iter()
        .enumerate()
        .map(|(i, l)| format!("{} = {}", key(i), shorten(l, 60)))
        .collect();
    [
        kind.title().to_string(),
        format!("Rulesets: {}", names.join(" · ")),
        format!(
            "N = {} games · {} players · policy {} · {}",
            report.games,
            report.players,
            report.policy,
            kind.interval()
        ),
    ]
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
        ChartKind::Ingots => {
            let groups: Vec<(String, Vec<MeanCi>)> = report
                .per_ruleset
                .iter()
                .enumerate()
                .map(|(i, r)| (key(i), r.mean_ingots.clone()))
                .collect();
            draw_seat_means(&body, report.players, &groups, "ingots per seat", false)
        }
        ChartKind::ScoreDeltaHistogram => draw_delta_histogram(&body, report),
        ChartKind::WinnerChanged => draw_winner_changed(&body, report),
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
    let all = report
        .pairs
        .iter()
        .flat_map(|p| p.score_delta_histogram.iter());
    // In i128: differences and counts come from accumulator.json and may span all of i64.
    let lo = all.clone().map(|[d, _]| *d).min().unwrap_or(0).min(0) as i128;
    let hi = all.map(|[d, _]| *d).max().unwrap_or(0).max(0) as i128;
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
    let ymax = share_axis_top(&shares);
    let edge = |k: i128| ((first + k) * width) as f64 - width as f64 / 2.0;
    let x_desc = if width == 1 {
        "paired score difference, later − earlier ruleset (points)".to_string()
    } else {
        format!("paired score difference, later − earlier ruleset (points, bins of {width})")
    };
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
        step_histogram(&mut chart, s, bar_x, colour(i), 0.18, label)?;
    }
    legend(&mut chart)
}

/// Shares (%) of a histogram's counts (`[value, count]` pairs) in `bins` bins; `bin_of` gives a
/// value's bin (in i128: values and counts come from accumulator.json and may span all of
/// i64), values falling outside are left out.
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
    let total: i128 = counts.iter().sum::<i128>().max(1);
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
                (FONT, 13).into_font(),
            )])?;
            chart.draw_series([PathElement::new(
                [(x - 0.32, rule_luck), (x + 0.32, rule_luck)],
                RGBColor(90, 90, 90).stroke_width(2),
            )])?;
            chart.draw_series([Text::new(
                format!("rule+luck {rule_luck:.1} %"),
                (x + 0.34, rule_luck),
                (FONT, 13).into_font(),
            )])?;
        }
    }
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
        (FONT, 14).into_font(),
    )])?;
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
    let ymax = (top * 100.0 * 1.15).clamp(1.0, 100.0);
    let seats = seat_names(players);
    let mut chart = plane(
        area,
        XAxis::Categories(&seats),
        0.0..ymax,
        "games won, ties included (%)",
    )?;
    let fair = 100.0 / players.max(1) as f64;
    chart
        .draw_series(LineSeries::new(
            [(-0.5, fair), (players as f64 - 0.5, fair)],
            BLACK.mix(0.4).stroke_width(1),
        ))?
        .label("1 / players")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 16, y)], BLACK.mix(0.4)));
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
