//! Report writers: JSON, CSV, Markdown, and charts (plotters) for the FAQ report, and the
//! output folder of a run ([`output`]: compare and merge into a folder, checkpoints and
//! `--resume`).
//!
//! [`write_report`] writes everything derived from a [`Report`] into a directory;
//! `games.csv` is streamed separately while games are played ([`csv::GamesCsv`]). The boards
//! of the example games ([`boards`]) are drawn when the report is written, from the whole (or
//! merged) run's examples; a run at several skill levels gets its side-by-side report from
//! [`levels`]. Single
//! files are written atomically ([`atomic`]), whole output folders are swapped in at once
//! ([`folder`]). This layer calls into [`crate::compare`], never the other way round.

pub mod atomic;
pub mod balance;
pub mod boards;
pub mod chart;
pub mod csv;
pub mod fmt;
pub mod folder;
pub mod html;
pub mod json;
pub mod ladder;
pub mod levels;
pub mod luck;
pub mod markdown;
pub mod output;
pub mod sweep;
pub mod table;

pub use chart::{ChartFile, ChartFormat};
pub use output::{
    checkpoint_dir, compare_to_dir, compare_to_dir_until, compare_to_dir_with, has_checkpoint,
    merge_to_dir, merge_to_dir_with, ExtraFiles, Finished, OutputOptions, RunOutput,
};
pub use table::summary_table;

use crate::compare::Report;
use std::io;
use std::path::{Path, PathBuf};

/// File names inside an output directory.
pub const REPORT_JSON: &str = "report.json";
pub const REPORT_MD: &str = "report.md";
/// `report.md` as a self-contained page (charts inline).
pub const REPORT_HTML: &str = "report.html";
pub const GAMES_CSV: &str = "games.csv";
pub const ACCUMULATOR_JSON: &str = "accumulator.json";
pub const TIMING_JSON: &str = "timing.json";

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
