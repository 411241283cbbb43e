//! Elo ratings from pairwise results: a Bradley–Terry fit by maximum likelihood, and a
//! bootstrap over deals for its 95 % interval (see the [`crate::ladder`] module doc).

use crate::engine::rng;
use rayon::prelude::*;

/// Bootstrap refits behind each Elo interval.
pub const BOOTSTRAP_REPLICATES: usize = 1000;

/// Key domain of the bootstrap's draws ("LADDER"), apart from every game's keys.
const BOOTSTRAP_DOMAIN: u64 = 0x4C41_4444_4552;

/// Elo points per factor 10 of strength.
const ELO_SCALE: f64 = 400.0;

/// How the ratings are computed, for the report.
pub const METHOD: &str = "Bradley–Terry maximum likelihood (MM iteration) on all comparisons, \
     ties half a win each way, one virtual tie per pair; Elo = 400·log10(strength ratio), \
     first policy = 0; 95 % interval = 2.5–97.5 percentiles of 1000 refits on deals \
     resampled with replacement (keyed by the master seed); open-ended on the side of a \
     clean sweep, whose finite end against the anchor comes from the Wilson bound";

/// The results of one pair `(i, j)` of policies: `i`'s points in half-points (2 per win,
/// 1 per tie) and the number of comparisons.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairCount {
    pub half_points: u64,
    pub comparisons: u64,
}

/// Elo of each of `policies` policies (policy 0 = 0) from the results of `pairs[k]` in
/// `counts[k]`. Every pair gets one virtual tie, so the fit exists whatever the results.
pub fn fit(policies: usize, pairs: &[(usize, usize)], counts: &[PairCount]) -> Vec<f64> {
    if policies == 0 {
        return Vec::new();
    }
    // Wins (in points) of each policy and the comparisons of each pair, virtual tie included.
    let mut wins = vec![0.0; policies];
    let mut games = vec![vec![0.0; policies]; policies];
    for (&(i, j), c) in pairs.iter().zip(counts) {
        let n = c.comparisons as f64 + 1.0;
        let wi = c.half_points as f64 / 2.0 + 0.5;
        wins[i] += wi;
        wins[j] += n - wi;
        games[i][j] += n;
        games[j][i] += n;
    }
    // Hunter's (2004) MM update p_i ← W_i / Σ_j n_ij / (p_i + p_j), renormalised to a
    // geometric mean of 1, until no strength moves by more than 1e-12 (relative).
    let mut p = vec![1.0f64; policies];
    let mut next = vec![0.0f64; policies];
    for _ in 0..100_000 {
        for i in 0..policies {
            let denom: f64 = (0..policies)
                .filter(|&j| j != i && games[i][j] > 0.0)
                .map(|j| games[i][j] / (p[i] + p[j]))
                .sum();
            next[i] = if denom > 0.0 { wins[i] / denom } else { p[i] };
        }
        let log_mean = next.iter().map(|x| x.ln()).sum::<f64>() / policies as f64;
        let mut moved = 0.0f64;
        for i in 0..policies {
            let v = (next[i].ln() - log_mean).exp();
            moved = moved.max((v / p[i]).ln().abs());
            p[i] = v;
        }
        if moved < 1e-12 {
            break;
        }
    }
    p.iter().map(|&x| ELO_SCALE * (x / p[0]).log10()).collect()
}

/// The 95 % bootstrap interval of each policy's Elo: `half_points[d][k]` is the half-points
/// of pair `k` in deal `d`, `comparisons[k]` the comparisons of pair `k` per deal. Replicate
/// `b` draws deal `index(key(key(key(seed, DOMAIN), b), draw), deals)` for each draw; the
/// replicates run in parallel and are collected in order.
pub fn bootstrap(
    policies: usize,
    pairs: &[(usize, usize)],
    comparisons: &[u32],
    half_points: &[Vec<u32>],
    seed: u64,
) -> Vec<[f64; 2]> {
    let deals = half_points.len();
    if deals == 0 {
        return vec![[0.0, 0.0]; policies];
    }
    let base = rng::key(seed, BOOTSTRAP_DOMAIN);
    let replicates: Vec<Vec<f64>> = (0..BOOTSTRAP_REPLICATES as u64)
        .into_par_iter()
        .map(|b| {
            let key = rng::key(base, b);
            let mut points = vec![0u64; pairs.len()];
            for draw in 0..deals as u64 {
                let d = rng::index(rng::key(key, draw), deals);
                for (sum, &h) in points.iter_mut().zip(&half_points[d]) {
                    *sum += h as u64;
                }
            }
            let counts: Vec<PairCount> = points
                .iter()
                .zip(comparisons)
                .map(|(&half_points, &c)| PairCount {
                    half_points,
                    comparisons: c as u64 * deals as u64,
                })
                .collect();
            fit(policies, pairs, &counts)
        })
        .collect();
    (0..policies)
        .map(|i| {
            let mut values: Vec<f64> = replicates.iter().map(|r| r[i]).collect();
            values.sort_by(f64::total_cmp);
            [percentile(&values, 0.025), percentile(&values, 0.975)]
        })
        .collect()
}

/// Nearest-rank percentile of sorted `values` (non-empty): the value of rank `⌈q·n⌉`.
fn percentile(values: &[f64], q: f64) -> f64 {
    let rank = (q * values.len() as f64).ceil().max(1.0) as usize;
    values[rank.min(values.len()) - 1]
}

/// The Elo difference at which the stronger side is expected to score `share` of the points.
pub fn elo_of_share(share: f64) -> f64 {
    ELO_SCALE * (share / (1.0 - share)).log10()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_policies_fit_the_share_they_scored() {
        // 75 points of 100, plus the virtual tie: 75.5 / 101.
        let elo = fit(
            2,
            &[(0, 1)],
            &[PairCount {
                half_points: 150,
                comparisons: 100,
            }],
        );
        assert_eq!(elo[0], 0.0);
        let want = -elo_of_share(75.5 / 101.0);
        assert!((elo[1] - want).abs() < 1e-9, "{elo:?} vs {want}");
        assert!((elo_of_share(0.75) - 190.848_501_887_864_9).abs() < 1e-9);
    }

    #[test]
    fn a_clean_sweep_stays_finite() {
        let elo = fit(
            2,
            &[(0, 1)],
            &[PairCount {
                half_points: 0,
                comparisons: 2000,
            }],
        );
        // 0.5 of 2001 points: 400·log10(4001) ≈ 1440.8 Elo.
        assert!((elo[1] - 1440.8).abs() < 0.1, "{elo:?}");
    }

    #[test]
    fn consistent_results_give_consistent_ratings() {
        // A beats B 64 %, B beats C 64 %, A beats C 76 % (Elo 100 steps, approximately).
        let pairs = [(0, 1), (0, 2), (1, 2)];
        let counts = [1280, 1520, 1280].map(|h| PairCount {
            half_points: h,
            comparisons: 1000,
        });
        let elo = fit(3, &pairs, &counts);
        assert_eq!(elo[0], 0.0);
        assert!((elo[1] + 100.0).abs() < 5.0, "{elo:?}");
        assert!((elo[2] + 200.0).abs() < 10.0, "{elo:?}");
    }

    #[test]
    fn a_fair_coin_has_an_interval_around_zero() {
        // 500 deals of 2 comparisons each, decided by a keyed fair coin.
        let half_points: Vec<Vec<u32>> = (0..500u64)
            .map(|d| {
                let a = rng::key(7, 2 * d) >> 63;
                let b = rng::key(7, 2 * d + 1) >> 63;
                vec![2 * (a + b) as u32]
            })
            .collect();
        let ci = bootstrap(2, &[(0, 1)], &[2], &half_points, 1);
        assert_eq!(ci[0], [0.0, 0.0]);
        let [lo, hi] = ci[1];
        assert!(lo < 0.0 && hi > 0.0, "{lo} {hi}");
        // About ±2·400/ln10·√(1/(4·1000))·2 ≈ ±22 Elo; well inside ±60.
        assert!(lo > -60.0 && hi < 60.0, "{lo} {hi}");
        // Keyed: the same on every call.
        assert_eq!(bootstrap(2, &[(0, 1)], &[2], &half_points, 1), ci);
        assert_ne!(bootstrap(2, &[(0, 1)], &[2], &half_points, 2), ci);
    }

    #[test]
    fn percentiles_use_nearest_rank() {
        let v: Vec<f64> = (1..=1000).map(f64::from).collect();
        assert_eq!(percentile(&v, 0.025), 25.0);
        assert_eq!(percentile(&v, 0.975), 975.0);
        assert_eq!(percentile(&[3.0], 0.025), 3.0);
    }
}
