//! `games.csv`: one row per seed × ruleset, streamed in game order (memory stays flat in the
//! number of games), and the checked merge of shard CSVs into exactly the unsharded file.
//! Written and read with the `csv` crate (RFC 4180: a ruleset name holding a comma, a quote or
//! a line break round-trips).
//!
//! Columns: `game` (0-based index), `seed`, `ruleset` (name), `ruleset_hash`; per seat `s`
//! (0-based, seat 0 plays first) `seat{s}_total`, `seat{s}_{category}` per scoring category
//! (`road`, `city`, `cloister`, `field`, then each expansion's), `seat{s}_{counter}` per
//! per-seat counter (see `SeatCounter`); then `winners` (seats separated by `;`), `turns`,
//! `lead_changes`, `tiles_discarded`, one column per expansion counter (by its declared name,
//! see `Counter`), `first_divergence`: the first
//! turn at
//! whose end this ruleset's game's position differs from the first ruleset's, and
//! `first_play_difference`: the first turn whose events differ (each empty if never, and for
//! the first ruleset itself). Rows are ordered by game index, then ruleset order.

use crate::compare::accumulate::{PairAcc, RulesetAcc};
use crate::compare::seeds::{block_count, block_range, game_seed};
use crate::compare::stats::Moments;
use crate::compare::{CompareSpec, GameRecord, ShardFile};
use crate::engine::{Category, Counter, SeatCounter};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::Path;

/// The header fields for `players` seats.
pub fn header(players: u8) -> Vec<String> {
    let mut h: Vec<String> = ["game", "seed", "ruleset", "ruleset_hash"]
        .map(String::from)
        .to_vec();
    for s in 0..players {
        h.push(format!("seat{s}_total"));
        for c in Category::ALL {
            h.push(format!("seat{s}_{}", c.name()));
        }
        for c in SeatCounter::all() {
            h.push(format!("seat{s}_{}", c.name()));
        }
    }
    for f in ["winners", "turns", "lead_changes", "tiles_discarded"] {
        h.push(f.to_string());
    }
    h.extend(Counter::all().map(|c| c.name().to_string()));
    for f in ["first_divergence", "first_play_difference"] {
        h.push(f.to_string());
    }
    h
}

/// Columns per seat: the total, the categories, the per-seat counters.
const SEAT_COLUMNS: usize = 1 + Category::COUNT + SeatCounter::COUNT;

/// Column of `seat{s}_total` and of `turns` in a row.
fn total_column(seat: usize) -> usize {
    4 + seat * SEAT_COLUMNS
}
fn turns_column(players: u8) -> usize {
    4 + players as usize * SEAT_COLUMNS + 1
}

fn csv_error(e: csv::Error) -> io::Error {
    match e.into_kind() {
        csv::ErrorKind::Io(e) => e,
        other => io::Error::new(io::ErrorKind::InvalidData, format!("{other:?}")),
    }
}

/// Streams the rows of `games.csv` into a file (fresh, or a checkpointed prefix to extend).
pub struct GamesCsv {
    out: csv::Writer<BufWriter<File>>,
    names: Vec<String>,
    hashes: Vec<String>,
    field: String,
}

impl GamesCsv {
    /// A new file at `path` with the header written.
    pub fn create(path: &Path, spec: &CompareSpec) -> io::Result<GamesCsv> {
        let mut csv = GamesCsv::over(File::create(path)?, spec);
        csv.out
            .write_record(header(spec.players))
            .map_err(csv_error)?;
        Ok(csv)
    }

    /// Continues the file at `path` after its first `bytes` bytes (what a checkpoint
    /// recorded; rows written after it are dropped).
    pub fn resume(path: &Path, spec: &CompareSpec, bytes: u64) -> io::Result<GamesCsv> {
        let mut file = File::options().read(true).write(true).open(path)?;
        if file.metadata()?.len() < bytes {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "{} is shorter than its checkpoint says ({bytes} bytes)",
                    path.display()
                ),
            ));
        }
        file.set_len(bytes)?;
        file.seek(SeekFrom::Start(bytes))?;
        Ok(GamesCsv::over(file, spec))
    }

    fn over(file: File, spec: &CompareSpec) -> GamesCsv {
        GamesCsv {
            out: csv::WriterBuilder::new().from_writer(BufWriter::with_capacity(1 << 16, file)),
            names: spec.labels(),
            hashes: spec.rulesets.iter().map(|r| r.hash.clone()).collect(),
            field: String::new(),
        }
    }

    fn num(&mut self, x: impl std::fmt::Display) -> io::Result<()> {
        self.field.clear();
        let _ = write!(self.field, "{x}");
        self.out.write_field(&self.field).map_err(csv_error)
    }

    pub fn write_game(&mut self, rec: &GameRecord) -> io::Result<()> {
        let first = &rec.outcomes[0];
        for (r, o) in rec.outcomes.iter().enumerate() {
            self.num(rec.index)?;
            self.num(rec.seed)?;
            self.out.write_field(&self.names[r]).map_err(csv_error)?;
            self.out.write_field(&self.hashes[r]).map_err(csv_error)?;
            for seat in &o.seats {
                self.num(seat.total)?;
                for c in Category::ALL {
                    self.num(seat.by_category.get(c))?;
                }
                for &n in &seat.counts.0 {
                    self.num(n)?;
                }
            }
            let mut winners = o.winners.clone();
            winners.sort_unstable();
            let winners: Vec<String> = winners.iter().map(|w| w.to_string()).collect();
            self.out.write_field(winners.join(";")).map_err(csv_error)?;
            self.num(o.turns)?;
            self.num(o.lead_changes)?;
            self.num(o.tiles_discarded)?;
            for c in Counter::all() {
                self.num(o.counters.get(c))?;
            }
            let turn = |t: Option<u32>| t.filter(|_| r > 0).map(|t| t.to_string());
            for t in [first.first_state_divergence(o), first.first_divergence(o)] {
                self.out
                    .write_field(turn(t).unwrap_or_default())
                    .map_err(csv_error)?;
            }
            self.out.write_record(None::<&[u8]>).map_err(csv_error)?;
        }
        Ok(())
    }

    /// Flushes and syncs every row written so far to disk; returns the file's length.
    pub fn sync(&mut self) -> io::Result<u64> {
        self.out.flush()?;
        let file = self.out.get_ref().get_ref();
        file.sync_data()?;
        Ok(file.metadata()?.len())
    }
}

fn bad(input: &str, msg: impl std::fmt::Display) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("{input}: {msg}"))
}

/// One shard's `games.csv` being read and checked against its `accumulator.json`.
struct ShardRows<'a> {
    name: String,
    file: &'a ShardFile,
    rows: csv::ByteRecordsIntoIter<BufReader<File>>,
    row: u64,
    /// Per ruleset, what every column of its rows adds up to: checked against the aggregate.
    sums: Vec<ColumnSums>,
}

/// What a shard's rows of one ruleset add up to, column by column, in the aggregate's own
/// terms (so that an edited cell of any column shows: issue 43).
#[derive(Default)]
struct ColumnSums {
    /// Per seat: the total, points by category, the per-seat counters; wins and sole wins
    /// (from `winners`).
    totals: Vec<Moments>,
    by_category: Vec<[i128; Category::COUNT]>,
    counts: Vec<[Moments; SeatCounter::COUNT]>,
    wins: Vec<u64>,
    sole_wins: Vec<u64>,
    ties: u64,
    turns: Moments,
    lead_changes: Moments,
    tiles_discarded: u128,
    counters: Vec<u128>,
    /// The first divergence turns against the first ruleset (empty for the first itself).
    first_divergence: BTreeMap<u32, u64>,
    first_play_difference: BTreeMap<u32, u64>,
}

impl ColumnSums {
    fn new(players: u8) -> ColumnSums {
        let seats = players as usize;
        ColumnSums {
            totals: vec![Moments::default(); seats],
            by_category: vec![[0; Category::COUNT]; seats],
            counts: vec![[Moments::default(); SeatCounter::COUNT]; seats],
            wins: vec![0; seats],
            sole_wins: vec![0; seats],
            counters: vec![0; Counter::COUNT],
            ..ColumnSums::default()
        }
    }

    /// Adds one row of ruleset `r`; the column at fault when a cell does not parse.
    fn add(&mut self, rec: &csv::ByteRecord, players: u8, r: usize) -> Result<(), String> {
        // the column's name, for a message (built only then)
        let name = |i: usize| header(players).swap_remove(i);
        let num = |i: usize| -> Result<i64, String> {
            int::<i64>(rec, i).ok_or_else(|| format!("{} is not a number", name(i)))
        };
        for s in 0..players as usize {
            let at = total_column(s);
            self.totals[s].push(num(at)?);
            for c in 0..Category::COUNT {
                self.by_category[s][c] += num(at + 1 + c)? as i128;
            }
            for c in 0..SeatCounter::COUNT {
                self.counts[s][c].push(num(at + 1 + Category::COUNT + c)?);
            }
        }
        let at = turns_column(players) - 1;
        let cell = std::str::from_utf8(&rec[at]).map_err(|_| "winners is not text".to_string())?;
        let mut winners = Vec::new();
        for w in cell
            .split(';')
            .filter(|w| !cell.is_empty() || !w.is_empty())
        {
            match w.parse::<u8>() {
                Ok(w) if w < players => winners.push(w),
                _ => return Err(format!("winners {cell:?} is not a list of seats")),
            }
        }
        winners.sort_unstable();
        winners.dedup();
        if winners.len() > 1 {
            self.ties += 1;
        }
        for &w in &winners {
            self.wins[w as usize] += 1;
            if winners.len() == 1 {
                self.sole_wins[w as usize] += 1;
            }
        }
        self.turns.push(num(at + 1)?);
        self.lead_changes.push(num(at + 2)?);
        self.tiles_discarded +=
            u128::try_from(num(at + 3)?).map_err(|_| "tiles_discarded is negative".to_string())?;
        for c in 0..Counter::COUNT {
            self.counters[c] += u128::try_from(num(at + 4 + c)?)
                .map_err(|_| format!("{} is negative", name(at + 4 + c)))?;
        }
        let at = at + 4 + Counter::COUNT;
        for (k, hist) in [&mut self.first_divergence, &mut self.first_play_difference]
            .into_iter()
            .enumerate()
        {
            let i = at + k;
            if rec[i].is_empty() {
                continue;
            }
            if r == 0 {
                return Err(format!(
                    "{} is not empty in the first ruleset's row",
                    name(i)
                ));
            }
            let t = int::<u32>(rec, i).ok_or_else(|| format!("{} is not a turn", name(i)))?;
            *hist.entry(t).or_default() += 1;
        }
        Ok(())
    }

    /// The first column whose sum disagrees with the aggregate `acc` of this ruleset (and
    /// `pair`, the aggregate of the first ruleset against it), as (column, rows say,
    /// accumulator says).
    fn mismatch(
        &self,
        acc: &RulesetAcc,
        pair: Option<&PairAcc>,
    ) -> Option<(String, String, String)> {
        fn moments(m: &Moments) -> String {
            format!("{} (Σx² {})", m.sum, m.sum_sq)
        }
        let differ =
            |name: String, rows: String, agg: String| (rows != agg).then_some((name, rows, agg));
        let moments_differ = |name: String, rows: &Moments, agg: &Moments| {
            (!agg.overflow && (rows.sum, rows.sum_sq, rows.n) != (agg.sum, agg.sum_sq, agg.n))
                .then(|| (name, moments(rows), moments(agg)))
        };
        let mut checks: Vec<Option<(String, String, String)>> = Vec::new();
        for (s, seat) in acc.seats.iter().enumerate() {
            checks.push(moments_differ(
                format!("seat{s}_total"),
                self.totals.get(s)?,
                &seat.total,
            ));
            for c in Category::ALL {
                checks.push(differ(
                    format!("seat{s}_{}", c.name()),
                    self.by_category.get(s)?[c.index()].to_string(),
                    seat.by_category[c.index()].to_string(),
                ));
            }
            for c in SeatCounter::all() {
                checks.push(moments_differ(
                    format!("seat{s}_{}", c.name()),
                    &self.counts.get(s)?[c.index()],
                    seat.counts.get(c),
                ));
            }
            checks.push(differ(
                format!("winners (seat {s}'s wins)"),
                self.wins.get(s)?.to_string(),
                seat.wins.to_string(),
            ));
            checks.push(differ(
                format!("winners (seat {s}'s sole wins)"),
                self.sole_wins.get(s)?.to_string(),
                seat.sole_wins.to_string(),
            ));
        }
        checks.push(differ(
            "winners (ties)".into(),
            self.ties.to_string(),
            acc.ties.to_string(),
        ));
        checks.push(moments_differ("turns".into(), &self.turns, &acc.turns));
        checks.push(moments_differ(
            "lead_changes".into(),
            &self.lead_changes,
            &acc.lead_changes,
        ));
        checks.push(differ(
            "tiles_discarded".into(),
            self.tiles_discarded.to_string(),
            acc.tiles_discarded.to_string(),
        ));
        for c in Counter::all() {
            checks.push(differ(
                c.name().to_string(),
                self.counters[c.index()].to_string(),
                acc.counters.get(c).to_string(),
            ));
        }
        if let Some(p) = pair {
            for (name, rows, agg) in [
                (
                    "first_divergence",
                    &self.first_divergence,
                    &p.first_divergence,
                ),
                (
                    "first_play_difference",
                    &self.first_play_difference,
                    &p.first_play_difference,
                ),
            ] {
                checks.push(differ(name.into(), format!("{rows:?}"), format!("{agg:?}")));
            }
        }
        checks.into_iter().flatten().next()
    }
}

impl ShardRows<'_> {
    fn next(&mut self, columns: usize) -> io::Result<Option<csv::ByteRecord>> {
        match self.rows.next() {
            None => Ok(None),
            Some(Err(e)) => Err(bad(&self.name, format!("row {}: {e}", self.row + 1))),
            Some(Ok(rec)) => {
                self.row += 1;
                if rec.len() != columns {
                    return Err(bad(
                        &self.name,
                        format!(
                            "row {} has {} fields, expected {columns} (cut or edited?)",
                            self.row,
                            rec.len()
                        ),
                    ));
                }
                Ok(Some(rec))
            }
        }
    }
}

fn int<T: std::str::FromStr>(rec: &csv::ByteRecord, i: usize) -> Option<T> {
    std::str::from_utf8(rec.get(i)?).ok()?.parse().ok()
}

/// Merges the shards' `games.csv` (`inputs[i]` names the file of `files[i]`, whose specs
/// agree and whose shards cover the run once — see [`crate::compare::merge_shards`]) into
/// `out`: the exact bytes of the unsharded run. Every row is checked against its shard's
/// `accumulator.json`: the game indices the shard plays, in order, each with one row per
/// ruleset; the seed each index derives from the run's seed; the ruleset names and hashes;
/// the number of fields; a final line break (a file cut mid-row); and the sums of seat
/// totals and of turns. Errors of kind `InvalidData` name the input at fault.
pub fn merge_checked(
    inputs: &[(String, &Path, &ShardFile)],
    out: &mut dyn Write,
) -> io::Result<()> {
    let Some((_, _, first)) = inputs.first() else {
        return Ok(());
    };
    let spec = &first.spec;
    let players = spec.players;
    let labels = spec.labels();
    let hashes: Vec<&str> = spec.rulesets.iter().map(|r| r.hash.as_str()).collect();
    let head = header(players);
    let columns = head.len();
    let mut shards = Vec::new();
    for (name, path, file) in inputs {
        let name = format!("{name}/{}", crate::files::names::GAMES_CSV);
        let mut f = File::open(path).map_err(|e| bad(&name, e))?;
        let len = f.metadata()?.len();
        let mut last = [0u8; 1];
        if len > 0 {
            f.seek(SeekFrom::End(-1))?;
            f.read_exact(&mut last)?;
            f.seek(SeekFrom::Start(0))?;
        }
        if last[0] != b'\n' {
            return Err(bad(&name, "does not end with a line break (cut mid-row?)"));
        }
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(BufReader::new(f));
        let h = reader.byte_headers().map_err(|e| bad(&name, e))?.clone();
        if h.len() != columns || h.iter().zip(&head).any(|(a, b)| a != b.as_bytes()) {
            return Err(bad(
                &name,
                format!("the header is not that of a {players}-player run"),
            ));
        }
        let mut rows = ShardRows {
            name,
            file,
            rows: reader.into_byte_records(),
            row: 0,
            sums: (0..spec.rulesets.len())
                .map(|_| ColumnSums::new(players))
                .collect(),
        };
        // the header comes back as the first record when has_headers is off
        rows.next(columns)?;
        rows.row = 0;
        shards.push(rows);
    }
    let mut writer = csv::Writer::from_writer(out);
    writer.write_record(&head).map_err(csv_error)?;
    for b in 0..block_count(spec.games) {
        let owner = shards
            .iter_mut()
            .find(|s| s.file.spec.shard.is_none_or(|sh| sh.owns_block(b)))
            .ok_or_else(|| io::Error::other(format!("no input holds seed block {b}")))?;
        for index in block_range(b, spec.games) {
            let seed = game_seed(spec.seed, index);
            for (r, label) in labels.iter().enumerate() {
                let Some(rec) = owner.next(columns)? else {
                    return Err(bad(
                        &owner.name,
                        format!(
                            "ends after {} rows, but its shard has {} games of {} rulesets",
                            owner.row,
                            owner.file.accumulator.games,
                            labels.len()
                        ),
                    ));
                };
                let at = |what: String| bad(&owner.name, format!("row {}: {what}", owner.row));
                if int::<u64>(&rec, 0) != Some(index) {
                    return Err(at(format!(
                        "game {:?}, expected game {index} (rows missing or out of order)",
                        String::from_utf8_lossy(&rec[0])
                    )));
                }
                if int::<u64>(&rec, 1) != Some(seed) {
                    return Err(at(format!(
                        "seed {:?}, but game {index} of seed {} plays seed {seed} (another run?)",
                        String::from_utf8_lossy(&rec[1]),
                        spec.seed
                    )));
                }
                if &rec[2] != label.as_bytes() || &rec[3] != hashes[r].as_bytes() {
                    return Err(at(format!(
                        "ruleset {:?}, expected {label:?} with hash {}",
                        String::from_utf8_lossy(&rec[2]),
                        hashes[r]
                    )));
                }
                owner.sums[r].add(&rec, players, r).map_err(at)?;
                writer.write_byte_record(&rec).map_err(csv_error)?;
            }
        }
    }
    for s in &mut shards {
        if s.next(columns)?.is_some() {
            return Err(bad(
                &s.name,
                format!(
                    "has rows beyond its shard's {} games",
                    s.file.accumulator.games
                ),
            ));
        }
        let acc = &s.file.accumulator;
        for (r, ruleset) in acc.rulesets.iter().enumerate() {
            let pair = acc.pairs.iter().find(|p| p.a == 0 && p.b == r);
            if let Some((column, rows, agg)) = s.sums[r].mismatch(ruleset, pair) {
                return Err(bad(
                    &s.name,
                    format!(
                        "the {column} column of {} adds up to {rows}, but accumulator.json \
                         says {agg} (the files are of different runs, or a cell was edited)",
                        labels[r]
                    ),
                ));
            }
        }
    }
    writer.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_columns_line_up() {
        let h = header(2);
        assert_eq!(
            &h[..5],
            ["game", "seed", "ruleset", "ruleset_hash", "seat0_total"]
        );
        assert_eq!(h[total_column(1)], "seat1_total");
        assert_eq!(h[turns_column(2)], "turns");
        assert_eq!(
            &h[h.len() - 2..],
            ["first_divergence", "first_play_difference"]
        );
    }
}
