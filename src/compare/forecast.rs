//! How many seeds a `compare --until` run would play, forecast from a pilot (`meeplab plan
//! --until`).
//!
//! Each simulation is a run of `compare --until` whose seeds are drawn with replacement from
//! the pilot's (a bootstrap of whole seeds: a draw brings the seed's paired outcomes under
//! every pair with its placebo, so the correlations between seats, pairs and the yardstick
//! are the pilot's). The run's own stopping rule decides when it ends: the very
//! [`super::verdict::settled`] that `compare` asks, at the very batch ends it asks it
//! ([`super::run::batch_ends`]: from [`super::verdict::MIN_LOOK`] seeds on, every
//! [`super::run::BATCH_SIZE`]), capped by `--games`, with the same confidence sequences
//! (tuned for half the cap). The rule is not re-implemented: per pilot seed only what it reads
//! is kept ([`SeedPiece`]: per pair the placebo's winner excess, each seat's paired wins and
//! paired score difference), and the drawn pieces are folded into an otherwise empty
//! [`Accumulator`] that `settled` reads as it reads a run's.
//!
//! The pilot's distribution stands in for the truth, as in any bootstrap: a pilot that saw a
//! small effect by chance forecasts the stop of a run whose truth is that effect. A short
//! pilot therefore gives a rough forecast; the spread of the stopping N (median, 90th
//! percentile, the share that reach the cap) says how rough.
//!
//! Draw `i` of simulation `s` is a pure function of the key, `s` and `i` (no shared stream,
//! no clock), and the simulations are collected in order, so a forecast is the same on any
//! number of threads.

use super::accumulate::Accumulator;
use super::paired::PairedWins;
use super::run::{batch_ends, GameRecord};
use super::spec::CompareSpec;
use super::stats::Moments;
use super::verdict::{settled, Until};
use crate::engine::rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// Simulated runs per forecast: the 90th percentile's rank is then known to about ±1.5 %
/// of the simulations, and the share that reach the cap to about ±1.5 pp.
pub const SIMULATIONS: u64 = 400;

/// The largest cap (`--games`) a forecast simulates: each simulation folds up to this many
/// drawn seeds.
pub const MAX_FORECAST_GAMES: u64 = 1 << 20;

/// What the stopping rule reads of one pair in one seed.
#[derive(Clone, Debug, PartialEq)]
struct PairPiece {
    /// Whether the seed counted in the placebo (a run with the placebo counts every seed).
    placebo: bool,
    excess_winner_changed: Moments,
    seat_wins: Vec<PairedWins>,
    score_delta: Vec<Moments>,
}

/// One pilot seed, as the stopping rule sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct SeedPiece {
    pairs: Vec<PairPiece>,
}

impl SeedPiece {
    /// The piece of one seed played under `spec` (its outcomes and, with the placebo, its
    /// placebo games), folded exactly as a run folds it ([`Accumulator::add_seed`]).
    pub fn of(spec: &CompareSpec, record: &GameRecord) -> SeedPiece {
        let mut one = Accumulator::new(spec.rulesets.len(), spec.players);
        one.add_seed(
            &record.outcomes,
            spec.placebo.then_some(&record.placebo[..]),
        );
        SeedPiece {
            pairs: one
                .pairs
                .into_iter()
                .map(|p| PairPiece {
                    placebo: p.placebo.games > 0,
                    excess_winner_changed: p.placebo.excess_winner_changed,
                    seat_wins: p.seat_wins,
                    score_delta: p.score_delta,
                })
                .collect(),
        }
    }

    /// Adds this seed to `acc` (the fields the stopping rule reads, and the counts).
    fn fold_into(&self, acc: &mut Accumulator) {
        acc.games += 1;
        for (pair, piece) in acc.pairs.iter_mut().zip(&self.pairs) {
            pair.games += 1;
            if piece.placebo {
                pair.placebo.games += 1;
                pair.placebo
                    .excess_winner_changed
                    .merge(&piece.excess_winner_changed);
            }
            for (w, x) in pair.seat_wins.iter_mut().zip(&piece.seat_wins) {
                w.merge(x);
            }
            for (m, x) in pair.score_delta.iter_mut().zip(&piece.score_delta) {
                m.merge(x);
            }
        }
    }
}

/// Where one (simulated) run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stop {
    /// Seeds played.
    pub games: u64,
    /// The rule was met (false: the cap was reached first).
    pub met: bool,
}

/// One run of `spec` (with its `--until` and cap) whose `i`-th seed is `pieces[draw(i)]`:
/// the stopping rule asked at every batch end, as [`super::run::run_from`] asks it. Without
/// `--until` (or without pieces) it plays the cap.
pub fn simulate(spec: &CompareSpec, pieces: &[SeedPiece], draw: impl Fn(u64) -> usize) -> Stop {
    let mut acc = Accumulator::new(spec.rulesets.len(), spec.players);
    if spec.until.is_none() || pieces.is_empty() {
        return Stop {
            games: spec.games,
            met: false,
        };
    }
    let mut next = 0u64;
    for end in batch_ends(spec) {
        while next < end {
            pieces[draw(next).min(pieces.len() - 1)].fold_into(&mut acc);
            next += 1;
        }
        if settled(spec, &acc) {
            return Stop {
                games: end,
                met: true,
            };
        }
    }
    Stop {
        games: acc.games,
        met: false,
    }
}

/// The forecast of a `--until` run: the stopping N over [`SIMULATIONS`] simulated runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Forecast {
    /// The rule (`decided`, `±1pp`).
    pub rule: String,
    /// `--games`, the cap.
    pub cap: u64,
    /// Pilot seeds the simulations draw from.
    pub pilot_games: u64,
    pub simulations: u64,
    /// The stopping N: median and 90th percentile (nearest rank), fewest and most.
    pub median: u64,
    pub p90: u64,
    pub min: u64,
    pub max: u64,
    /// Simulations that played the whole cap without meeting the rule, and their share.
    pub reached_cap: u64,
    pub reached_cap_share: f64,
}

/// The `p`-quantile of sorted `xs` (nearest rank: the smallest value whose rank reaches
/// `⌈p·n⌉`).
fn nearest_rank(xs: &[u64], p: f64) -> u64 {
    let n = xs.len();
    let rank = ((p * n as f64).ceil() as usize).clamp(1, n.max(1));
    xs.get(rank - 1).copied().unwrap_or(0)
}

/// Checks that a forecast of `until` within `cap` seeds can be made: the width reachable
/// ([`super::verdict::check_until`]) and the cap within [`MAX_FORECAST_GAMES`].
pub fn check(until: Until, cap: u64) -> Result<(), String> {
    super::verdict::check_until(until, cap)?;
    if cap > MAX_FORECAST_GAMES {
        return Err(format!(
            "--games {cap} with --until: plan simulates runs of at most {MAX_FORECAST_GAMES} \
             seeds; give a smaller cap"
        ));
    }
    Ok(())
}

/// Forecasts the stop of `spec`'s `--until` run (its cap `spec.games`) from the pilot's
/// `pieces`: [`SIMULATIONS`] runs, simulation `s` drawing its seeds with `key`, `s` and the
/// draw's index. `None` without `--until` or without pilot seeds.
pub fn forecast(spec: &CompareSpec, pieces: &[SeedPiece], key: u64) -> Option<Forecast> {
    let until = spec.until?;
    if pieces.is_empty() {
        return None;
    }
    let n = pieces.len();
    let stops: Vec<Stop> = (0..SIMULATIONS)
        .into_par_iter()
        .map(|s| {
            let k = rng::key(key, s);
            simulate(spec, pieces, |i| rng::index(rng::key(k, i), n))
        })
        .collect();
    let reached_cap = stops.iter().filter(|s| !s.met).count() as u64;
    let mut games: Vec<u64> = stops.iter().map(|s| s.games).collect();
    games.sort_unstable();
    Some(Forecast {
        rule: until.to_string(),
        cap: spec.games,
        pilot_games: n as u64,
        simulations: SIMULATIONS,
        median: nearest_rank(&games, 0.5),
        p90: nearest_rank(&games, 0.9),
        min: games.first().copied().unwrap_or(0),
        max: games.last().copied().unwrap_or(0),
        reached_cap,
        reached_cap_share: reached_cap as f64 / SIMULATIONS as f64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_quantiles() {
        let xs: Vec<u64> = (1..=10).collect();
        assert_eq!(nearest_rank(&xs, 0.5), 5);
        assert_eq!(nearest_rank(&xs, 0.9), 9);
        assert_eq!(nearest_rank(&xs, 1.0), 10);
        assert_eq!(nearest_rank(&[7], 0.9), 7);
        assert_eq!(nearest_rank(&[], 0.5), 0);
    }
}
