//! Paired statistics for "who benefits": the same seeds under two rulesets give, per seat, a
//! 2×2 table of (won under A, won under B). From its counts — exact integers, so shards merge
//! exactly — come the paired win-rate difference with Newcombe's hybrid score interval
//! (method 10 of Newcombe 1998: the two Wilson intervals combined through the phi correlation,
//! continuity-corrected as Newcombe does),
//! and McNemar's exact test on the discordant pairs (a two-sided binomial test with p = ½);
//! and the correlation of the paired outcomes (win indicators, scores), which says how much
//! of the pairing is left once the two games have parted.

use super::stats::{wilson, Moments};
use serde::{Deserialize, Serialize};

/// One seat's paired outcomes over the games of a pair of rulesets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairedWins {
    /// Won under both rulesets.
    pub both: u64,
    /// Won under A only.
    pub a_only: u64,
    /// Won under B only.
    pub b_only: u64,
    /// Won under neither.
    pub neither: u64,
}

impl PairedWins {
    /// Count one game: did the seat win under A, under B.
    pub fn push(&mut self, won_a: bool, won_b: bool) {
        match (won_a, won_b) {
            (true, true) => self.both += 1,
            (true, false) => self.a_only += 1,
            (false, true) => self.b_only += 1,
            (false, false) => self.neither += 1,
        }
    }

    /// Add another table (shards, threads).
    pub fn merge(&mut self, o: &PairedWins) {
        self.both = self.both.saturating_add(o.both);
        self.a_only = self.a_only.saturating_add(o.a_only);
        self.b_only = self.b_only.saturating_add(o.b_only);
        self.neither = self.neither.saturating_add(o.neither);
    }

    pub fn games(&self) -> u64 {
        self.both
            .saturating_add(self.a_only)
            .saturating_add(self.b_only)
            .saturating_add(self.neither)
    }

    /// Win rate under B minus win rate under A.
    pub fn difference(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.0;
        }
        (self.b_only as f64 - self.a_only as f64) / n as f64
    }

    /// 95 % interval of [`PairedWins::difference`] (Newcombe's method 10).
    pub fn difference_ci(&self) -> [f64; 2] {
        let n = self.games();
        if n == 0 {
            return [-1.0, 1.0];
        }
        let nf = n as f64;
        let (a, b, c, d) = (
            self.both as f64,
            self.b_only as f64,
            self.a_only as f64,
            self.neither as f64,
        );
        // proportion 1: wins under B; proportion 2: wins under A
        let wins_b = self.both + self.b_only;
        let wins_a = self.both + self.a_only;
        let (p1, p2) = (wins_b as f64 / nf, wins_a as f64 / nf);
        let [l1, u1] = wilson(wins_b, n);
        let [l2, u2] = wilson(wins_a, n);
        let denom = ((a + b) * (c + d) * (a + c) * (b + d)).sqrt();
        // Newcombe's phi, continuity-corrected towards 0 when ad > bc
        let cross = a * d - b * c;
        let cross = if cross > 0.0 {
            (cross - nf / 2.0).max(0.0)
        } else {
            cross
        };
        let phi = if denom > 0.0 { cross / denom } else { 0.0 };
        let theta = p1 - p2;
        let delta = ((p1 - l1).powi(2) - 2.0 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2).powi(2))
            .max(0.0)
            .sqrt();
        let eps = ((u1 - p1).powi(2) - 2.0 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2).powi(2))
            .max(0.0)
            .sqrt();
        [(theta - delta).max(-1.0), (theta + eps).min(1.0)]
    }

    /// McNemar's exact two-sided p-value on the discordant pairs.
    pub fn mcnemar_p(&self) -> f64 {
        mcnemar_exact(self.a_only, self.b_only)
    }
}

/// Pearson correlation of the paired win indicators (the phi coefficient of the 2×2 table):
/// 1 when a seat wins under B exactly when it wins under A, near 0 when the two games have
/// become independent. `None` when either side never or always wins (no variance).
pub fn win_correlation(w: &PairedWins) -> Option<f64> {
    let (a, b, c, d) = (
        w.both as f64,
        w.a_only as f64,
        w.b_only as f64,
        w.neither as f64,
    );
    let denom = ((a + b) * (c + d) * (a + c) * (b + d)).sqrt();
    (denom > 0.0).then(|| (a * d - b * c) / denom)
}

/// Pearson correlation of paired values from the moments of each side and of their
/// difference: `cov = (var a + var b − var(b − a)) / 2`, so no cross sum is kept. `None`
/// below two pairs, without variance on a side, or after an overflow.
pub fn score_correlation(a: &Moments, b: &Moments, delta: &Moments) -> Option<f64> {
    let (sa, sb, sd) = (a.sd()?, b.sd()?, delta.sd()?);
    if sa <= 0.0 || sb <= 0.0 {
        return None;
    }
    let cov = (sa * sa + sb * sb - sd * sd) / 2.0;
    Some((cov / (sa * sb)).clamp(-1.0, 1.0))
}

/// Two-sided exact McNemar test: P(X ≤ min(b, c)) doubled, X ~ Binomial(b + c, ½), capped at
/// 1. Computed in log space, so any count works.
pub fn mcnemar_exact(b: u64, c: u64) -> f64 {
    let n = b.saturating_add(c);
    if n == 0 {
        return 1.0;
    }
    let k = b.min(c);
    let ln_half_n = -(n as f64) * std::f64::consts::LN_2;
    // log C(n, i) built incrementally; sum terms i = 0..=k with log-sum-exp
    let mut ln_choose = 0.0f64;
    let mut terms = Vec::with_capacity(k as usize + 1);
    for i in 0..=k {
        if i > 0 {
            ln_choose += ((n - i + 1) as f64).ln() - (i as f64).ln();
        }
        terms.push(ln_choose + ln_half_n);
    }
    let max = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let tail = max.exp() * terms.iter().map(|t| (t - max).exp()).sum::<f64>();
    (2.0 * tail).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn correlations_of_identical_independent_and_opposite_pairs() {
        let same = PairedWins {
            both: 30,
            a_only: 0,
            b_only: 0,
            neither: 70,
        };
        assert_eq!(win_correlation(&same), Some(1.0));
        let independent = PairedWins {
            both: 25,
            a_only: 25,
            b_only: 25,
            neither: 25,
        };
        assert_eq!(win_correlation(&independent), Some(0.0));
        let never = PairedWins {
            neither: 10,
            ..PairedWins::default()
        };
        assert_eq!(win_correlation(&never), None);

        let (mut a, mut b, mut d, mut opp, mut dopp) = Default::default();
        for x in [3i64, 8, 1, 9, 4, 7] {
            Moments::push(&mut a, x);
            Moments::push(&mut b, x + 5); // b = a + 5: ρ = 1
            Moments::push(&mut d, 5);
            Moments::push(&mut opp, -x); // ρ = −1
            Moments::push(&mut dopp, -2 * x);
        }
        assert!(close(score_correlation(&a, &b, &d).unwrap(), 1.0, 1e-12));
        assert!(close(
            score_correlation(&a, &opp, &dopp).unwrap(),
            -1.0,
            1e-12
        ));
        assert_eq!(
            score_correlation(&a, &d, &d),
            None,
            "a constant side has no ρ"
        );
    }

    #[test]
    fn mcnemar_exact_matches_the_binomial() {
        assert_eq!(mcnemar_exact(0, 0), 1.0);
        assert_eq!(mcnemar_exact(5, 5), 1.0);
        // b = 1, c = 9: 2 × (1 + 10) / 1024
        assert!(close(mcnemar_exact(1, 9), 22.0 / 1024.0, 1e-12));
        assert!(close(mcnemar_exact(9, 1), 22.0 / 1024.0, 1e-12));
        // b = 0, c = 6: 2 / 64
        assert!(close(mcnemar_exact(0, 6), 2.0 / 64.0, 1e-12));
        // large counts do not overflow
        let p = mcnemar_exact(50_000, 51_000);
        assert!(p > 0.0 && p < 0.01, "{p}");
    }

    /// Newcombe's method 10 on a small table (both 8, B only 5, A only 4, neither 5; n = 22),
    /// against the formula evaluated independently (Python, same Wilson limits): phi corrected
    /// to (ad − bc − n/2) / √(…) = 0.0760, interval −0.2192 to 0.3011 around 1/22.
    #[test]
    fn newcombe_method_10_on_a_small_table() {
        let t = PairedWins {
            both: 8,
            b_only: 5,
            a_only: 4,
            neither: 5,
        };
        assert!(close(t.difference(), 1.0 / 22.0, 1e-12));
        let [lo, hi] = t.difference_ci();
        assert!(close(lo, -0.219_229, 1e-5), "{lo}");
        assert!(close(hi, 0.301_140, 1e-5), "{hi}");
        // mirrored table, mirrored interval
        let m = PairedWins {
            both: 8,
            b_only: 4,
            a_only: 5,
            neither: 5,
        };
        let [mlo, mhi] = m.difference_ci();
        assert!(
            close(mlo, -hi, 1e-9) && close(mhi, -lo, 1e-9),
            "{mlo} {mhi}"
        );
    }

    #[test]
    fn identical_outcomes_give_a_zero_difference_and_p_one() {
        let mut t = PairedWins::default();
        for i in 0..1000 {
            t.push(i % 3 == 0, i % 3 == 0);
        }
        assert_eq!(t.difference(), 0.0);
        let [lo, hi] = t.difference_ci();
        assert!(lo <= 0.0 && hi >= 0.0 && hi - lo < 0.01, "{lo} {hi}");
        assert_eq!(t.mcnemar_p(), 1.0);
        let mut u = PairedWins::default();
        u.merge(&t);
        u.merge(&t);
        assert_eq!(u.games(), 2000);
    }
}
