//! Report writers: JSON, CSV, Markdown, and charts (plotters) for the FAQ report; a run's
//! files as the [`crate::compare::session::RunWriter`] it writes through ([`output`]).
//!
//! [`write_report`] writes everything derived from a [`Report`] into a directory;
//! `games.csv` is streamed separately while games are played ([`csv::GamesCsv`]). The boards
//! of the example games ([`boards`]) are drawn when the report is written, from the whole (or
//! merged) run's examples; a run at several skill levels gets its side-by-side report from
//! [`levels`], a sweep from [`sweep`], a ladder from [`ladder`]. Files are written through
//! [`crate::files`] (atomic single files, folders swapped in whole). This layer reads
//! [`crate::compare`]'s results and never runs games: the runs, checkpoints and `--resume`
//! are [`crate::compare::session`]'s.

pub mod balance;
pub mod boards;
pub mod chart;
pub mod csv;
pub mod fmt;
pub mod html;
pub mod ladder;
pub mod levels;
pub mod luck;
pub mod markdown;
pub mod output;
pub mod sweep;
pub mod table;
pub mod verdicts;

pub use chart::{ChartFile, ChartFormat};
pub use output::ReportFiles;
pub use table::summary_table;

use crate::compare::Report;
use std::io;
use std::path::{Path, PathBuf};

use crate::files::names::{REPORT_HTML, REPORT_JSON, REPORT_MD};
use crate::files::{atomic, json};

/// Writes `report.json`, the charts and `report.md` into `dir` (which must exist); returns
/// the paths written.
pub fn write_report(dir: &Path, report: &Report, format: ChartFormat) -> io::Result<Vec<PathBuf>> {
    write_report_with_boards(dir, report, format, None)
}

/// As [`write_report`], with the boards of the example games drawn from `rules` (the run's
/// compiled rulesets; see [`boards`]) when given.
pub fn write_report_with_boards(
    dir: &Path,
    report: &Report,
    format: ChartFormat,
    rules: Option<&boards::ExampleRules>,
) -> io::Result<Vec<PathBuf>> {
    json::write_json(&dir.join(REPORT_JSON), report)?;
    let charts = chart::write_charts(dir, report, format)?;
    let (example_boards, decision_boards) = match rules {
        Some(r) => (
            boards::write_boards(dir, report, r)?,
            boards::write_decision_boards(dir, report, r)?,
        ),
        None => (Vec::new(), Vec::new()),
    };
    let md = markdown::render_with_decisions(report, &charts, &example_boards, &decision_boards);
    atomic::write_atomic(&dir.join(REPORT_MD), md.as_bytes())?;
    let page = html::page(dir, &markdown::question(report), &md)?;
    atomic::write_atomic(&dir.join(REPORT_HTML), page.as_bytes())?;
    let mut written = vec![dir.join(REPORT_JSON)];
    written.extend(
        charts
            .iter()
            .flat_map(|c| c.files.iter().map(|f| dir.join(f))),
    );
    written.extend(
        example_boards
            .iter()
            .flat_map(|b| b.files.iter().map(|f| dir.join(f))),
    );
    written.extend(decision_boards.iter().map(|b| dir.join(&b.file)));
    written.push(dir.join(REPORT_MD));
    written.push(dir.join(REPORT_HTML));
    Ok(written)
}
