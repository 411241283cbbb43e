//! The front door the CLI calls: run a compare into an output directory, or merge shard
//! directories into one. Each directory holds `accumulator.json` (exact aggregate + spec),
//! `games.csv`, and — for whole or merged runs — `report.json`, `report.md` and the charts;
//! `timing.json` keeps the wall-clock facts out of the deterministic files.

use super::accumulate::Accumulator;
use super::run::run_compare;
use super::shard::{merge_shards, MergeError, Shard, ShardFile};
use super::spec::CompareSpec;
use super::summary::{summarize, Report};
use crate::engine::GameOutcome;
use crate::report::csv::{merge_csv, GamesCsv};
use crate::report::json::{read_json, write_json};
use crate::report::{write_report, ChartFormat, ACCUMULATOR_JSON, GAMES_CSV, TIMING_JSON};
use serde::Serialize;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Where and how to write outputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputOptions {
    pub dir: PathBuf,
    pub format: ChartFormat,
}

impl Default for OutputOptions {
    fn default() -> Self {
        OutputOptions {
            dir: PathBuf::from("out/compare"),
            format: ChartFormat::Svg,
        }
    }
}

/// What a compare or merge produced.
#[derive(Clone, Debug)]
pub struct RunOutput {
    /// The report (for a shard: of the shard's games only).
    pub report: Report,
    pub accumulator: Accumulator,
    /// Files written, in order.
    pub files: Vec<PathBuf>,
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

/// Plays `spec` with `play` (see [`run_compare`]) and writes the outputs into `opts.dir`
/// (created if missing). A shard run writes only `accumulator.json`, `games.csv` and
/// `timing.json`; merge the shards for the report.
pub fn compare_to_dir<F>(
    spec: &CompareSpec,
    play: F,
    opts: &OutputOptions,
    progress: &dyn Fn(u64),
) -> io::Result<RunOutput>
where
    F: Fn(usize, u64) -> GameOutcome + Sync,
{
    spec.validate().map_err(io::Error::other)?;
    let dir = &opts.dir;
    fs::create_dir_all(dir)?;
    let started = Instant::now();
    let mut csv = GamesCsv::create(&dir.join(GAMES_CSV), spec)?;
    let acc = run_compare(spec, play, &mut |rec| csv.write_game(rec), progress)?;
    csv.commit()?;
    let elapsed = started.elapsed().as_secs_f64();

    let mut files = vec![dir.join(GAMES_CSV), dir.join(ACCUMULATOR_JSON)];
    write_json(
        &dir.join(ACCUMULATOR_JSON),
        &ShardFile::new(spec, acc.clone()),
    )?;
    let report = summarize(spec, &acc);
    if spec.shard.is_none() {
        files.extend(write_report(dir, &report, opts.format)?);
    }
    write_json(
        &dir.join(TIMING_JSON),
        &Timing {
            command_line: &spec.command_line,
            threads: spec.threads,
            shard: spec.shard,
            games_played: acc.games,
            elapsed_seconds: elapsed,
            games_per_second: if elapsed > 0.0 {
                acc.games as f64 / elapsed
            } else {
                0.0
            },
        },
    )?;
    files.push(dir.join(TIMING_JSON));
    Ok(RunOutput {
        report,
        accumulator: acc,
        files,
    })
}

/// Merges the shard directories `inputs` into `opts.dir`: checks they are the shards of one
/// run, each once (see [`merge_shards`]), and writes exactly the outputs of the unsharded
/// run (`report.json`, `games.csv` byte-identical; `accumulator.json` with the spec of the
/// first input).
pub fn merge_to_dir(inputs: &[PathBuf], opts: &OutputOptions) -> Result<RunOutput, MergeError> {
    let mut files = Vec::new();
    for dir in inputs {
        let name = dir.display().to_string();
        let file: ShardFile =
            read_json(&dir.join(ACCUMULATOR_JSON)).map_err(|e| MergeError::Input {
                input: name.clone(),
                message: format!("{ACCUMULATOR_JSON}: {e}"),
            })?;
        files.push((name, file));
    }
    let merged = merge_shards(&files)?;
    let out = |e: io::Error| MergeError::Output {
        output: opts.dir.display().to_string(),
        message: e.to_string(),
    };
    fs::create_dir_all(&opts.dir).map_err(out)?;
    let csvs: Vec<PathBuf> = inputs.iter().map(|d| d.join(GAMES_CSV)).collect();
    for c in &csvs {
        if !c.is_file() {
            return Err(MergeError::Input {
                input: display(c.parent().unwrap_or(Path::new("."))),
                message: format!("{GAMES_CSV} is missing"),
            });
        }
    }
    // a bad or unreadable input CSV is the input's fault; anything else is the output's
    merge_csv(&csvs, &opts.dir.join(GAMES_CSV)).map_err(|e| {
        if e.kind() == io::ErrorKind::InvalidData {
            MergeError::Input {
                input: format!("the shards' {GAMES_CSV}"),
                message: e.to_string(),
            }
        } else {
            out(e)
        }
    })?;
    write_json(&opts.dir.join(ACCUMULATOR_JSON), &merged).map_err(out)?;
    let report = summarize(&merged.spec, &merged.accumulator);
    let mut written = vec![opts.dir.join(GAMES_CSV), opts.dir.join(ACCUMULATOR_JSON)];
    written.extend(write_report(&opts.dir, &report, opts.format).map_err(out)?);
    Ok(RunOutput {
        report,
        accumulator: merged.accumulator,
        files: written,
    })
}

fn display(p: &Path) -> String {
    p.display().to_string()
}
