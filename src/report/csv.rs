//! `games.csv`: one row per seed × ruleset, streamed in game order (memory stays flat in the
//! number of games), and the merge of shard CSVs into exactly the unsharded file.
//!
//! Columns: `game` (0-based index), `seed`, `ruleset` (name), `ruleset_hash`; per seat `s`
//! (0-based, seat 0 plays first) `seat{s}_total`, `seat{s}_{road,city,cloister,field,gold,
//! robbers}`, `seat{s}_ingots`; then `winners` (seats separated by `;`), `turns`,
//! `lead_changes`, `tiles_discarded`, `ingots_on_board`, and `first_divergence`: the first
//! turn at which this ruleset's game differs from the first ruleset's (empty if never, and for
//! the first ruleset itself). Rows are ordered by game index, then ruleset order.

use super::atomic::AtomicFile;
use crate::compare::{CompareSpec, GameRecord};
use crate::engine::Category;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

/// Quotes a field when it holds a comma, quote or line break (RFC 4180).
pub fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The header line (with its newline) for `players` seats.
pub fn header(players: u8) -> String {
    let mut h = String::from("game,seed,ruleset,ruleset_hash");
    for s in 0..players {
        let _ = write!(h, ",seat{s}_total");
        for c in Category::ALL {
            let _ = write!(h, ",seat{s}_{}", c.name());
        }
        let _ = write!(h, ",seat{s}_ingots");
    }
    h.push_str(",winners,turns,lead_changes,tiles_discarded,ingots_on_board,first_divergence\n");
    h
}

/// The rows of one game, appended to `out`.
pub fn game_rows(out: &mut String, rec: &GameRecord, names: &[String], hashes: &[String]) {
    let first = &rec.outcomes[0];
    for (r, o) in rec.outcomes.iter().enumerate() {
        let _ = write!(
            out,
            "{},{},{},{}",
            rec.index,
            rec.seed,
            field(&names[r]),
            field(&hashes[r])
        );
        for seat in &o.seats {
            let _ = write!(out, ",{}", seat.total);
            for c in Category::ALL {
                let _ = write!(out, ",{}", seat.by_category.get(c));
            }
            let _ = write!(out, ",{}", seat.ingots);
        }
        let mut winners = o.winners.clone();
        winners.sort_unstable();
        let winners: Vec<String> = winners.iter().map(|w| w.to_string()).collect();
        let divergence = if r == 0 {
            None
        } else {
            first.first_divergence(o)
        };
        let _ = writeln!(
            out,
            ",{},{},{},{},{},{}",
            winners.join(";"),
            o.turns,
            o.lead_changes,
            o.tiles_discarded,
            o.ingots_on_board,
            divergence.map(|t| t.to_string()).unwrap_or_default()
        );
    }
}

/// A `games.csv` being streamed; it appears under its name on [`GamesCsv::commit`].
pub struct GamesCsv {
    file: AtomicFile,
    names: Vec<String>,
    hashes: Vec<String>,
    buf: String,
}

impl GamesCsv {
    pub fn create(path: &Path, spec: &CompareSpec) -> io::Result<GamesCsv> {
        let mut file = AtomicFile::create(path)?;
        file.write_all(header(spec.players).as_bytes())?;
        Ok(GamesCsv {
            file,
            names: spec.labels(),
            hashes: spec.rulesets.iter().map(|r| r.hash.clone()).collect(),
            buf: String::new(),
        })
    }

    pub fn write_game(&mut self, rec: &GameRecord) -> io::Result<()> {
        self.buf.clear();
        game_rows(&mut self.buf, rec, &self.names, &self.hashes);
        self.file.write_all(self.buf.as_bytes())
    }

    pub fn commit(self) -> io::Result<()> {
        self.file.commit()
    }
}

fn invalid(path: &Path, msg: impl std::fmt::Display) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("{}: {msg}", path.display()),
    )
}

/// Merges shard CSVs (each ordered by game) into `out`, ordered by game then ruleset: the
/// exact bytes the unsharded run writes. Headers must agree.
pub fn merge_csv(inputs: &[PathBuf], out: &Path) -> io::Result<()> {
    struct Input {
        path: PathBuf,
        reader: BufReader<File>,
        line: String,
        game: u64,
    }
    fn advance(input: &mut Input) -> io::Result<bool> {
        input.line.clear();
        if input.reader.read_line(&mut input.line)? == 0 {
            return Ok(false);
        }
        let first = input.line.split(',').next().unwrap_or("");
        input.game = first
            .parse()
            .map_err(|_| invalid(&input.path, format!("bad row {:?}", input.line.trim_end())))?;
        Ok(true)
    }

    let mut header_line: Option<String> = None;
    let mut readers = Vec::new();
    for path in inputs {
        let mut reader = BufReader::new(File::open(path).map_err(|e| invalid(path, e))?);
        let mut h = String::new();
        reader.read_line(&mut h)?;
        match &header_line {
            None => header_line = Some(h),
            Some(first) if *first != h => {
                return Err(invalid(path, "header differs from the other shards"))
            }
            Some(_) => {}
        }
        readers.push(Input {
            path: path.clone(),
            reader,
            line: String::new(),
            game: 0,
        });
    }
    let mut file = AtomicFile::create(out)?;
    file.write_all(header_line.unwrap_or_default().as_bytes())?;
    let mut heap = BinaryHeap::new();
    for (i, input) in readers.iter_mut().enumerate() {
        if advance(input)? {
            heap.push(Reverse((input.game, i)));
        }
    }
    let mut last_game = None;
    while let Some(Reverse((game, i))) = heap.pop() {
        // All rows of one game come from one shard, in ruleset order.
        let input = &mut readers[i];
        if last_game.is_some_and(|g| g > game) {
            return Err(invalid(&input.path, "rows are not in game order"));
        }
        last_game = Some(game);
        file.write_all(input.line.as_bytes())?;
        if advance(input)? {
            heap.push(Reverse((input.game, i)));
        }
    }
    file.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_quoted_only_when_needed() {
        assert_eq!(field("base"), "base");
        assert_eq!(field("a, b"), "\"a, b\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert!(header(2).starts_with("game,seed,ruleset,ruleset_hash,seat0_total,seat0_road"));
        assert!(header(2).ends_with(",first_divergence\n"));
    }
}
