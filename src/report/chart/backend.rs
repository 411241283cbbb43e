//! How a chart becomes a file: the embedded font, `--format` (SVG, PNG or both) and
//! [`write_chart_files`], which draws any [`Drawable`] on the chosen backends and writes each
//! file atomically. PNG text is rendered with the embedded DejaVu Sans (see
//! `assets/fonts/README.md`, and [`super::png_text`] for why PNG text is drawn here); nothing is
//! read or downloaded at run time. SVG text refers to the generic `sans-serif` family.

use super::png_text::PngText;
use crate::files::atomic::{commit_temp, temp_path, write_atomic};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::error::Error;
use std::io;
use std::path::Path;
use std::str::FromStr;
use std::sync::Once;

pub(super) static DEJAVU_SANS: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans.ttf");
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

/// A chart that can be drawn on any plotters backend (SVG, PNG).
pub(crate) trait Drawable {
    fn draw_on<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult
    where
        DB::ErrorType: 'static;
}

pub(crate) type DrawResult = Result<(), Box<dyn Error>>;

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
