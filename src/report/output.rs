//! What the report layer writes into a run's output folder, as the
//! [`crate::compare::session::RunWriter`] a compare, sweep or merge is given: `games.csv`
//! ([`super::csv`]: streamed, resumed, merged from shards) and the report (`report.json`,
//! `report.md`, `report.html`, the charts and the example boards: [`super::write_report_with_boards`]).
//! Running the games, the checkpoints and the staging folder are
//! [`crate::compare::session`]'s.

use super::boards::ExampleRules;
use super::csv::{merge_checked, GamesCsv};
use super::{write_report_with_boards, ChartFormat};
use crate::compare::session::{GameRows, RunWriter};
use crate::compare::{CompareSpec, GameRecord, Report, ShardFile};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The report layer's files of a run: `games.csv` and the report in `format`, with the
/// boards of the example games drawn from `boards` (the run's compiled rulesets; `None`: no
/// boards).
#[derive(Clone, Debug, Default)]
pub struct ReportFiles {
    pub format: ChartFormat,
    pub boards: Option<ExampleRules>,
}

impl GameRows for GamesCsv {
    fn write_game(&mut self, rec: &GameRecord) -> io::Result<()> {
        GamesCsv::write_game(self, rec)
    }

    fn sync(&mut self) -> io::Result<u64> {
        GamesCsv::sync(self)
    }
}

impl RunWriter for ReportFiles {
    type Rows = GamesCsv;

    fn create_rows(&self, path: &Path, spec: &CompareSpec) -> io::Result<GamesCsv> {
        GamesCsv::create(path, spec)
    }

    fn resume_rows(&self, path: &Path, spec: &CompareSpec, bytes: u64) -> io::Result<GamesCsv> {
        GamesCsv::resume(path, spec, bytes)
    }

    fn merge_rows(
        &self,
        shards: &[(String, &Path, &ShardFile)],
        out: &mut dyn Write,
    ) -> io::Result<()> {
        merge_checked(shards, out)
    }

    fn write_report(&self, dir: &Path, report: &Report) -> io::Result<Vec<PathBuf>> {
        write_report_with_boards(dir, report, self.format, self.boards.as_ref())
    }
}
