//! Charts, drawn with `plotters` as SVG and/or PNG, one job a module:
//!
//! - [`backend`]: the embedded font, `--format`, and writing any [`Drawable`] as SVG/PNG files
//!   ([`png_text`]: the PNG backend with text drawn right);
//! - [`kit`]: the pieces every chart is drawn with (keys, colours, axes, interval and share
//!   bars, legend), shared by the compare report, [`crate::report::sweep`],
//!   [`crate::report::levels`] and the ladder's charts;
//! - [`kind`]: which charts a compare report has, their file names and headers;
//! - [`compare`]: drawing the compare report's charts;
//! - [`verdict`]: the headline chart, the rule's effect beside the chance yardstick.

pub mod backend;
pub mod compare;
pub mod kind;
pub mod kit;
mod png_text;
pub mod verdict;

pub use backend::{ensure_font, ChartFormat};
pub(crate) use backend::{write_chart_files, DrawResult, Drawable, FONT};
pub use compare::write_charts;
pub use kind::{charts_for, header_lines, ChartFile, ChartKind};
pub use kit::key;
pub(crate) use kit::{
    axis_top_with_legend, colour, even_line, interval_bar, legend, plane, share_bar, shorten, XAxis,
};
