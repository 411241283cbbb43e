//! The compare driver: plays every seed of the run (or of its shard) under every ruleset, in
//! parallel across games, and folds the outcomes into an [`Accumulator`].
//!
//! The game player is injected as a closure `play(ruleset_index, game_seed)`, so the CLI
//! wires the real engine and tests inject synthetic outcomes. Games are played in batches of
//! consecutive indices; within a batch rayon plays them in parallel and the results come back
//! in index order, so the per-game callback (the CSV writer) sees games in seed order and
//! memory stays bounded by one batch, whatever the number of games.

use super::accumulate::Accumulator;
use super::seeds::{block_range, game_seed, BLOCK_SIZE};
use super::spec::CompareSpec;
use crate::engine::GameOutcome;
use rayon::prelude::*;
use std::io;
use std::ops::Range;

/// Games per parallel batch (a divisor of [`BLOCK_SIZE`]): also the progress granularity.
pub const BATCH_SIZE: u64 = 250;

/// One seed played under every ruleset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// 0-based game index in the run.
    pub index: u64,
    pub seed: u64,
    /// `outcomes[r]`: the game under ruleset `r`.
    pub outcomes: Vec<GameOutcome>,
}

/// The game-index ranges the run plays, in increasing order.
pub fn run_ranges(spec: &CompareSpec) -> Vec<Range<u64>> {
    match spec.shard {
        Some(s) => s.block_ranges(spec.games).collect(),
        None => (0..spec.games.div_ceil(BLOCK_SIZE))
            .map(|b| block_range(b, spec.games))
            .collect(),
    }
}

/// Plays the run. `on_game` receives every game in increasing index order (to stream
/// `games.csv`); `progress` receives the number of games finished so far, after each batch.
/// The result depends only on the spec's seeds and rulesets, never on `spec.threads`.
///
/// # Errors
/// The first error `on_game` returns, or a failure to start the thread pool.
pub fn run_compare<F>(
    spec: &CompareSpec,
    play: F,
    on_game: &mut dyn FnMut(&GameRecord) -> io::Result<()>,
    progress: &dyn Fn(u64),
) -> io::Result<Accumulator>
where
    F: Fn(usize, u64) -> GameOutcome + Sync,
{
    spec.validate().map_err(io::Error::other)?;
    let pool = match spec.threads {
        Some(n) => Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map_err(io::Error::other)?,
        ),
        None => None,
    };
    let rulesets = spec.rulesets.len();
    let play_batch = |batch: Range<u64>| -> Vec<GameRecord> {
        batch
            .into_par_iter()
            .map(|index| {
                let seed = game_seed(spec.seed, index);
                let outcomes = (0..rulesets).map(|r| play(r, seed)).collect();
                GameRecord {
                    index,
                    seed,
                    outcomes,
                }
            })
            .collect()
    };

    let mut acc = Accumulator::new(rulesets, spec.players);
    let mut done = 0;
    for range in run_ranges(spec) {
        let mut start = range.start;
        while start < range.end {
            let batch = start..(start + BATCH_SIZE).min(range.end);
            start = batch.end;
            let records = match &pool {
                Some(pool) => pool.install(|| play_batch(batch)),
                None => play_batch(batch),
            };
            for rec in &records {
                acc.add_game(&rec.outcomes);
                on_game(rec)?;
            }
            done += records.len() as u64;
            progress(done);
        }
    }
    Ok(acc)
}
