//! A compare run into an output folder, and the merge of shard folders into one: the
//! orchestration the `compare`, `sweep` and `merge` commands share. The folder holds
//! `accumulator.json` (exact aggregate + spec), `games.csv`, and — for whole or merged runs —
//! the report; `timing.json` keeps the wall-clock facts out of the deterministic files. What
//! the rows and the report look like is the report layer's: it comes in as a [`RunWriter`]
//! (the report layer's implementation is `report::output::ReportFiles`), so this module never
//! formats a row or draws a chart, and `compare` never imports `report`.
//!
//! Long runs survive interruption. While playing, a run keeps a checkpoint in the hidden
//! sibling `.NAME.checkpoint/`: `games.csv.part` (rows streamed as games finish) and
//! `checkpoint.json` ([`Checkpoint`]: the aggregate of every game before `next_game`, and how
//! many bytes of `games.csv.part` belong to those games; what it holds and whether it
//! continues a given run is [`super::checkpoint`]'s), rewritten atomically every few seconds
//! of work and when the run is stopped. `--resume` cuts `games.csv.part` back to the
//! checkpoint and plays on from `next_game`; since the aggregate is exact integers and rows
//! are written in game order, the final outputs are byte-identical to an uninterrupted run.
//! The finished run is written into a staging folder and swapped in whole
//! ([`crate::files::folder`]), then the checkpoint is removed.

use super::checkpoint::Checkpoint;
use super::run::{run_from, Ended, Flow, GameRecord, SeedPlayer, Start};
use super::{merge_shards, summarize, Accumulator, CompareSpec, MergeError, Report};
use super::{Shard, ShardFile};
use crate::files::folder::{self, Staging};
use crate::files::json::{read_json, write_json};
use crate::files::names::{ACCUMULATOR_JSON, GAMES_CSV, TIMING_JSON};
use serde::Serialize;
use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The per-game file a run streams while it plays (`games.csv`).
pub trait GameRows {
    /// Appends the rows of one finished game (games arrive in index order).
    fn write_game(&mut self, rec: &GameRecord) -> io::Result<()>;
    /// Flushes and syncs every row written so far to disk; returns the file's length.
    fn sync(&mut self) -> io::Result<u64>;
}

/// The files of a run that are the report layer's to write: the per-game rows and the
/// report. A run or merge calls these; it never formats the files itself.
pub trait RunWriter {
    /// The streamed per-game file.
    type Rows: GameRows;
    /// A new per-game file at `path`, its header written.
    fn create_rows(&self, path: &Path, spec: &CompareSpec) -> io::Result<Self::Rows>;
    /// The per-game file at `path` continued after its first `bytes` bytes (what a checkpoint
    /// recorded; rows written after it are dropped).
    fn resume_rows(&self, path: &Path, spec: &CompareSpec, bytes: u64) -> io::Result<Self::Rows>;
    /// Writes into `out` the per-game file of the unsharded run from the shards' files
    /// (`(name, path, accumulator)` each), checking every row against its shard's aggregate;
    /// a bad input is an error of kind `InvalidData`.
    fn merge_rows(
        &self,
        shards: &[(String, &Path, &ShardFile)],
        out: &mut dyn Write,
    ) -> io::Result<()>;
    /// Writes the report of a whole or merged run into `dir` (which exists); returns the
    /// paths written.
    fn write_report(&self, dir: &Path, report: &Report) -> io::Result<Vec<PathBuf>>;
}

/// Where and how a run keeps its folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FolderOptions {
    pub dir: PathBuf,
    /// Continue from the checkpoint of an interrupted run into `dir` instead of starting
    /// afresh.
    pub resume: bool,
    /// Seconds of work between checkpoints.
    pub checkpoint_every: Duration,
}

impl Default for FolderOptions {
    fn default() -> Self {
        FolderOptions {
            dir: PathBuf::from("out/compare"),
            resume: false,
            checkpoint_every: Duration::from_secs(5),
        }
    }
}

/// What a run or merge produced.
#[derive(Clone, Debug)]
pub struct RunOutput {
    /// The report (for a shard: of the shard's games only).
    pub report: Report,
    pub accumulator: Accumulator,
    /// Files written, in order.
    pub files: Vec<PathBuf>,
}

/// How a run ended.
#[derive(Clone, Debug)]
pub enum Finished {
    Complete(Box<RunOutput>),
    /// Stopped on request; the checkpoint holds every game played.
    Interrupted {
        games_done: u64,
        games_in_run: u64,
        checkpoint: PathBuf,
    },
}

/// `timing.json`: facts that vary between runs of the same spec.
#[derive(Serialize)]
struct Timing<'a> {
    command_line: &'a str,
    threads: Option<usize>,
    shard: Option<Shard>,
    games_played: u64,
    elapsed_seconds: f64,
    games_per_second: f64,
}

/// File names inside the checkpoint folder.
const CHECKPOINT_JSON: &str = "checkpoint.json";
const PARTIAL_CSV: &str = "games.csv.part";

/// The checkpoint folder of a run into `dir`.
fn checkpoint_dir(dir: &Path) -> io::Result<PathBuf> {
    folder::sibling(dir, "checkpoint")
}

/// Whether `dir` has the checkpoint of an interrupted run.
pub fn has_checkpoint(dir: &Path) -> bool {
    checkpoint_dir(dir).is_ok_and(|c| c.join(CHECKPOINT_JSON).is_file())
}

/// Adds the `written` paths to `names` relative to the staging folder `tmp` (the run's
/// files are named inside the output folder, which the staging folder becomes).
fn push_relative(names: &mut Vec<PathBuf>, tmp: &Path, written: Vec<PathBuf>) {
    names.extend(
        written
            .into_iter()
            .map(|f| f.strip_prefix(tmp).map(Path::to_path_buf).unwrap_or(f)),
    );
}

fn invalid_input(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, msg)
}

/// Plays `spec` with `play` (see [`super::run_compare`]) and writes the outputs, with
/// `writer`'s rows and report, into `opts.dir`, never stopping early and with no files of
/// its own (see [`run_to_dir_with`]).
pub fn run_to_dir<F, W>(
    spec: &CompareSpec,
    play: F,
    opts: &FolderOptions,
    writer: &W,
    progress: &dyn Fn(u64),
) -> io::Result<RunOutput>
where
    F: SeedPlayer,
    W: RunWriter,
{
    let no_extra: ExtraFiles = &|_, _| Ok(Vec::new());
    match run_to_dir_with(spec, play, opts, writer, progress, &|| false, no_extra)? {
        Finished::Complete(out) => Ok(*out),
        Finished::Interrupted { .. } => Err(io::Error::from(io::ErrorKind::Interrupted)),
    }
}

/// A command's own files written into a run's staging folder: given that folder and the
/// report (`None` for a shard), it returns the paths it wrote.
pub type ExtraFiles<'a> = &'a dyn Fn(&Path, Option<&Report>) -> io::Result<Vec<PathBuf>>;

/// Plays `spec` and writes the outputs into `opts.dir` (created if missing; a previous run
/// there is replaced whole). A shard run writes only `accumulator.json`, `games.csv` and
/// `timing.json`; merge the shards for the report. `stop()` is asked before every game:
/// once it says yes, the games in flight finish, the run checkpoints and ends
/// [`Finished::Interrupted`]. A checkpoint is taken every `checkpoint_every` of wall time
/// (a batch of slow games is cut short for it: see [`run_from`]), so a kill loses at most
/// that much work. `extra`
/// files of the command's own (a sweep's report and rulesets) are written into the staging
/// folder before it is swapped in, so they appear with the run's files or not at all: it gets
/// the staging folder and the report (`None` for a shard) and returns the paths it wrote.
///
/// # Errors
/// Invalid spec; `--resume` without a checkpoint, or with one of another run (kind
/// `InvalidInput`); an output folder holding foreign files; any I/O failure.
pub fn run_to_dir_with<F, W>(
    spec: &CompareSpec,
    play: F,
    opts: &FolderOptions,
    writer: &W,
    progress: &dyn Fn(u64),
    stop: &(dyn Fn() -> bool + Sync),
    extra: ExtraFiles,
) -> io::Result<Finished>
where
    F: SeedPlayer,
    W: RunWriter,
{
    spec.validate().map_err(invalid_input)?;
    let dir = &opts.dir;
    // refuse a folder we may not replace before hours of work, not after
    folder::check_replaceable(dir)?;
    let ck = checkpoint_dir(dir)?;
    let (parent, _) = folder::split(dir)?;
    fs::create_dir_all(&parent)?;
    folder::remove_stale(dir)?;
    let part = ck.join(PARTIAL_CSV);

    let (run_spec, start, mut rows) = if opts.resume {
        let saved: Checkpoint = read_json(&ck.join(CHECKPOINT_JSON)).map_err(|e| {
            invalid_input(format!(
                "nothing to resume in {}: {e} (run without --resume to start afresh)",
                ck.display()
            ))
        })?;
        saved.check_resumes(spec, &ck).map_err(invalid_input)?;
        // leftovers of a checkpoint write that was killed
        for entry in fs::read_dir(&ck)?.flatten() {
            if entry.file_name().to_string_lossy().starts_with(".tmp-") {
                let _ = fs::remove_file(entry.path());
            }
        }
        let run_spec = saved.run_spec(spec);
        let rows = writer.resume_rows(&part, &run_spec, saved.csv_bytes)?;
        (run_spec, saved.start(), rows)
    } else {
        if ck.exists() {
            fs::remove_dir_all(&ck)?;
        }
        fs::create_dir(&ck)?;
        let rows = writer.create_rows(&part, spec)?;
        (spec.clone(), Start::fresh(spec), rows)
    };
    let spec = &run_spec;

    let started = Instant::now();
    let played_before = start.accumulator.games;
    // when the last checkpoint was taken: a batch is cut short once the next one is due
    let last_checkpoint = std::sync::Mutex::new(Instant::now());
    let due_after = |every: Duration| {
        last_checkpoint
            .lock()
            .map_or(true, |t| t.elapsed() >= every)
    };
    let due = || due_after(opts.checkpoint_every);
    // a batch is cut short for a checkpoint only when it has run a second or more (a
    // tiny interval must not play the games one by one)
    let cut_for_checkpoint = || due_after(opts.checkpoint_every.max(Duration::from_secs(1)));
    let save = |rows: &mut W::Rows, acc: &Accumulator, next_game: u64| -> io::Result<()> {
        let csv_bytes = rows.sync()?;
        let saved = Checkpoint::new(spec, acc.clone(), next_game, csv_bytes);
        write_json(&ck.join(CHECKPOINT_JSON), &saved)
    };
    let ended = {
        let rows_cell = std::cell::RefCell::new(&mut rows);
        let mut on_game = |rec: &GameRecord| rows_cell.borrow_mut().write_game(rec);
        let mut after = |acc: &Accumulator, next: u64, done: u64| -> io::Result<Flow> {
            progress(done);
            let stopping = stop();
            if stopping || due() {
                save(&mut rows_cell.borrow_mut(), acc, next)?;
                if let Ok(mut t) = last_checkpoint.lock() {
                    *t = Instant::now();
                }
            }
            Ok(if stopping { Flow::Stop } else { Flow::Continue })
        };
        let cut = || stop() || cut_for_checkpoint();
        run_from(spec, play, start, &mut on_game, &mut after, &cut)?
    };
    let acc = match ended {
        Ended::Stopped { accumulator, .. } => {
            return Ok(Finished::Interrupted {
                games_done: accumulator.games,
                games_in_run: spec.games_in_run(),
                checkpoint: ck,
            })
        }
        Ended::Done(acc) => acc,
    };
    // a last checkpoint: if writing the report fails, --resume only writes it
    save(&mut rows, &acc, spec.games)?;
    drop(rows);
    let elapsed = started.elapsed().as_secs_f64();

    let staging = Staging::create(dir)?;
    let tmp = staging.path().to_path_buf();
    if fs::hard_link(&part, tmp.join(GAMES_CSV)).is_err() {
        fs::copy(&part, tmp.join(GAMES_CSV))?;
    }
    let mut names = vec![PathBuf::from(GAMES_CSV), PathBuf::from(ACCUMULATOR_JSON)];
    write_json(
        &tmp.join(ACCUMULATOR_JSON),
        &ShardFile::new(spec, acc.clone()),
    )?;
    let report = summarize(spec, &acc);
    if spec.shard.is_none() {
        push_relative(&mut names, &tmp, writer.write_report(&tmp, &report)?);
    }
    let whole = spec.shard.is_none().then_some(&report);
    push_relative(&mut names, &tmp, extra(&tmp, whole)?);
    let played = acc.games - played_before;
    write_json(
        &tmp.join(TIMING_JSON),
        &Timing {
            command_line: &spec.command_line,
            threads: spec.threads,
            shard: spec.shard,
            games_played: played,
            elapsed_seconds: elapsed,
            games_per_second: if elapsed > 0.0 {
                played as f64 / elapsed
            } else {
                0.0
            },
        },
    )?;
    names.push(PathBuf::from(TIMING_JSON));
    staging.commit()?;
    fs::remove_dir_all(&ck)?;
    Ok(Finished::Complete(Box::new(RunOutput {
        report,
        accumulator: acc,
        files: names.into_iter().map(|n| dir.join(n)).collect(),
    })))
}

/// Merges the shard directories `inputs` into `dir`: checks they are the shards of one run,
/// each once (see [`merge_shards`]), that every `games.csv` agrees with its
/// `accumulator.json` (see [`RunWriter::merge_rows`]), and writes exactly the outputs of the
/// unsharded run (`report.json`, `games.csv` byte-identical; `accumulator.json` with the
/// spec of the first input). Nothing is written unless everything checks.
pub fn merge_to_dir<W: RunWriter>(
    inputs: &[PathBuf],
    dir: &Path,
    writer: &W,
) -> Result<RunOutput, MergeError> {
    merge_to_dir_with(inputs, dir, writer, &|_, _| Ok(Vec::new()))
}

/// As [`merge_to_dir`], with `extra` files of the command's own written into the staging
/// folder (a merged sweep's report), so they appear with the merged run or not at all.
pub fn merge_to_dir_with<W: RunWriter>(
    inputs: &[PathBuf],
    dir: &Path,
    writer: &W,
    extra: ExtraFiles,
) -> Result<RunOutput, MergeError> {
    let mut files = Vec::new();
    for input in inputs {
        let name = input.display().to_string();
        let file: ShardFile =
            read_json(&input.join(ACCUMULATOR_JSON)).map_err(|e| MergeError::Input {
                input: name.clone(),
                message: format!("{ACCUMULATOR_JSON}: {e}"),
            })?;
        files.push((name, file));
    }
    let merged = merge_shards(&files)?;
    let csvs: Vec<PathBuf> = inputs.iter().map(|d| d.join(GAMES_CSV)).collect();
    for (c, (name, _)) in csvs.iter().zip(&files) {
        if !c.is_file() {
            return Err(MergeError::Input {
                input: name.clone(),
                message: format!("{GAMES_CSV} is missing"),
            });
        }
    }
    let out = |e: io::Error| MergeError::Output {
        output: dir.display().to_string(),
        message: e.to_string(),
    };
    let staging = Staging::create(dir).map_err(out)?;
    let tmp = staging.path().to_path_buf();
    let checked: Vec<(String, &Path, &ShardFile)> = files
        .iter()
        .zip(&csvs)
        .map(|((name, file), csv)| (name.clone(), csv.as_path(), file))
        .collect();
    let merged_csv = (|| {
        let mut w = BufWriter::new(fs::File::create(tmp.join(GAMES_CSV))?);
        writer.merge_rows(&checked, &mut w)?;
        w.into_inner().map_err(|e| e.into_error())?.sync_all()
    })();
    // a bad or unreadable input CSV is the input's fault; anything else is the output's
    merged_csv.map_err(|e| {
        if e.kind() == io::ErrorKind::InvalidData {
            MergeError::Input {
                input: format!("the shards' {GAMES_CSV}"),
                message: e.to_string(),
            }
        } else {
            out(e)
        }
    })?;
    write_json(&tmp.join(ACCUMULATOR_JSON), &merged).map_err(out)?;
    let report = summarize(&merged.spec, &merged.accumulator);
    let mut names = vec![PathBuf::from(GAMES_CSV), PathBuf::from(ACCUMULATOR_JSON)];
    push_relative(
        &mut names,
        &tmp,
        writer.write_report(&tmp, &report).map_err(out)?,
    );
    push_relative(&mut names, &tmp, extra(&tmp, Some(&report)).map_err(out)?);
    staging.commit().map_err(out)?;
    Ok(RunOutput {
        report,
        accumulator: merged.accumulator,
        files: names.into_iter().map(|n| dir.join(n)).collect(),
    })
}
