//! Interval estimates and order statistics, computed from exact integer aggregates.
//!
//! * Proportions use the 95 % **Wilson score** interval.
//! * Means (scores, paired score differences, ingots, …) use the 95 % **Student t** interval
//!   `mean ± t(0.975, n−1) · sd / √n`, with the sample standard deviation `sd` (n − 1
//!   denominator). For n ≥ 30 this is within 4 % of the normal (z = 1.96) interval.
//! * Student t itself lives here, once: its distribution function [`t_cdf`] (the regularized
//!   incomplete beta function, ln Γ by Lanczos), any quantile [`t_quantile`] (the verdicts'
//!   p-values and intervals at Holm's levels) and the tabulated 0.975 quantile [`t_975`]
//!   (every 95 % mean interval, and `plan`'s resampled sizing).
//! * Quantiles of integer histograms use the **nearest-rank** definition: the `p`-quantile
//!   is the smallest value whose cumulative count reaches `⌈p·n⌉`.
//!
//! Everything here is a pure function of integers, so equal aggregates give bit-identical
//! floats.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The 0.975 quantile of the standard normal distribution.
pub const Z_975: f64 = 1.959_963_984_540_054;

/// Human-readable names of the interval types, for reports and chart captions.
pub const PROPORTION_INTERVAL: &str = "95 % Wilson score interval";
pub const MEAN_INTERVAL: &str = "95 % Student t interval";

/// Integer moments of a sample: count, sum and sum of squares. Adding two `Moments` is the
/// moments of the pooled sample, exactly.
///
/// Every addition is checked: values no real game reaches (a house rule scoring
/// `1000000000 * 1000000000 * tiles` saturates a score at `i64::MAX`) can overflow the sum of
/// squares after a few games. Then `overflow` is set, the sums stop being exact, and
/// [`Moments::sd`] gives `None` instead of a wrong number; reports say so.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Moments {
    pub n: u64,
    pub sum: i128,
    pub sum_sq: u128,
    /// A sum overflowed: `sum`/`sum_sq` are saturated, not exact.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub overflow: bool,
}

impl Moments {
    pub fn push(&mut self, x: i64) {
        self.push_wide(x as i128);
    }

    /// Adds a value wider than `i64` (a difference of two scores).
    pub fn push_wide(&mut self, x: i128) {
        self.n = self.n.saturating_add(1);
        let square = x.unsigned_abs().checked_mul(x.unsigned_abs());
        match (
            self.sum.checked_add(x),
            square.and_then(|sq| self.sum_sq.checked_add(sq)),
        ) {
            (Some(sum), Some(sum_sq)) => {
                self.sum = sum;
                self.sum_sq = sum_sq;
            }
            _ => {
                self.sum = self.sum.saturating_add(x);
                self.sum_sq = u128::MAX;
                self.overflow = true;
            }
        }
    }

    /// Pools `other` into `self`; a sum that overflows sets `overflow`.
    pub fn merge(&mut self, other: &Moments) {
        self.n = self.n.saturating_add(other.n);
        self.overflow |= other.overflow;
        match (
            self.sum.checked_add(other.sum),
            self.sum_sq.checked_add(other.sum_sq),
        ) {
            (Some(sum), Some(sum_sq)) => {
                self.sum = sum;
                self.sum_sq = sum_sq;
            }
            _ => {
                self.sum = self.sum.saturating_add(other.sum);
                self.sum_sq = u128::MAX;
                self.overflow = true;
            }
        }
    }

    /// The mean, or 0 for an empty sample.
    pub fn mean(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.sum as f64 / self.n as f64
        }
    }

    /// Sample standard deviation (n − 1 denominator); `None` below two observations.
    pub fn sd(&self) -> Option<f64> {
        if self.n < 2 || self.overflow {
            return None;
        }
        // n·Σx² − (Σx)² is computed exactly; it is ≥ 0 by Cauchy–Schwarz. Sums too large
        // for that (only in an edited accumulator.json) fall back to floating point.
        let n = self.n as i128;
        let exact = i128::try_from(self.sum_sq)
            .ok()
            .and_then(|sq| n.checked_mul(sq))
            .zip(self.sum.checked_mul(self.sum))
            .and_then(|(a, b)| a.checked_sub(b));
        let var = match exact {
            Some(num) => num as f64 / (n as f64 * (n - 1) as f64),
            None => {
                let (sum, sum_sq) = (self.sum as f64, self.sum_sq as f64);
                (sum_sq - sum * sum / n as f64) / (n - 1) as f64
            }
        };
        Some(var.max(0.0).sqrt())
    }

    /// Mean with its 95 % Student t interval.
    pub fn mean_ci(&self) -> MeanCi {
        let mean = self.mean();
        let sd = self.sd();
        let ci = sd.map(|sd| {
            let half = t_975(self.n - 1) * sd / (self.n as f64).sqrt();
            [mean - half, mean + half]
        });
        MeanCi { mean, sd, ci }
    }
}

/// A mean with its standard deviation and 95 % interval (`None` with fewer than two games).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeanCi {
    pub mean: f64,
    pub sd: Option<f64>,
    pub ci: Option<[f64; 2]>,
}

impl MeanCi {
    /// Its 95 % interval for a reader: [`Interval::TooLittleData`] where [`MeanCi::ci`] is
    /// missing or has zero width (a sample without spread).
    pub fn interval(&self) -> Interval {
        Interval::of(self.ci)
    }

    /// The same estimate in units `k` times smaller (`k > 0`): mean, sd and interval times `k`.
    pub fn scaled(self, k: f64) -> MeanCi {
        MeanCi {
            mean: self.mean * k,
            sd: self.sd.map(|s| s * k),
            ci: self.ci.map(|[lo, hi]| [lo * k, hi * k]),
        }
    }
}

/// The words a report prints where a cell has no interval worth the name.
pub const TOO_LITTLE_DATA: &str = "too little data";

/// A 95 % interval as a reader may quote it: its bounds, or *too little data* — fewer than
/// two observations, or a sample without spread (every value alike, as on a handful of
/// probed positions that all agree). A t interval of a sample without spread has zero width,
/// and `[+0.0, +0.0]` printed as "95 %" claims a certainty four identical values cannot
/// give; such a cell says so instead. What a verdict reads: [`MeanCi::interval`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Interval {
    /// Lower and upper bound (lower < upper).
    Bounds([f64; 2]),
    /// No interval: too few observations or no spread among them.
    TooLittleData,
}

impl Interval {
    /// The interval of `ci` (as [`MeanCi::ci`] holds it): none, or one of zero width (or
    /// not a number), is too little data.
    pub fn of(ci: Option<[f64; 2]>) -> Interval {
        match ci {
            Some([lo, hi]) if lo < hi => Interval::Bounds([lo, hi]),
            _ => Interval::TooLittleData,
        }
    }

    /// The bounds, or `None` for too little data.
    pub fn bounds(self) -> Option<[f64; 2]> {
        match self {
            Interval::Bounds(b) => Some(b),
            Interval::TooLittleData => None,
        }
    }

    /// Whether the interval contains `x` (`None` for too little data: it cannot say).
    pub fn covers(self, x: f64) -> Option<bool> {
        self.bounds().map(|[lo, hi]| lo <= x && x <= hi)
    }
}

/// Two-sided 95 % quantile of Student's t with `df` degrees of freedom: exact table values
/// up to 30, Hill's (1970) Cornish–Fisher expansion in 1/df above (error < 1e-6 there).
pub fn t_975(df: u64) -> f64 {
    const TABLE: [f64; 30] = [
        12.706_204_736,
        4.302_652_730,
        3.182_446_305,
        2.776_445_105,
        2.570_581_836,
        2.446_911_851,
        2.364_624_252,
        2.306_004_135,
        2.262_157_163,
        2.228_138_852,
        2.200_985_160,
        2.178_812_830,
        2.160_368_656,
        2.144_786_688,
        2.131_449_546,
        2.119_905_299,
        2.109_815_578,
        2.100_922_040,
        2.093_024_054,
        2.085_963_447,
        2.079_613_845,
        2.073_873_068,
        2.068_657_610,
        2.063_898_562,
        2.059_538_553,
        2.055_529_439,
        2.051_830_516,
        2.048_407_142,
        2.045_229_642,
        2.042_272_456,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => TABLE[df as usize - 1],
        _ => {
            let z = Z_975;
            let d = df as f64;
            let z3 = z * z * z;
            let z5 = z3 * z * z;
            let z7 = z5 * z * z;
            let g1 = (z3 + z) / 4.0;
            let g2 = (5.0 * z5 + 16.0 * z3 + 3.0 * z) / 96.0;
            let g3 = (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / 384.0;
            z + g1 / d + g2 / (d * d) + g3 / (d * d * d)
        }
    }
}

/// The `q` quantile of Student t with `df` degrees of freedom (bisection on [`t_cdf`] to a
/// relative 1e-12; below 0.5 by symmetry). `df` 0 gives ±∞; `q` outside (0, 1) gives ±∞
/// (NaN for NaN). The verdicts' intervals at any level use it; [`t_975`] is its 0.975
/// quantile, tabulated.
pub fn t_quantile(q: f64, df: u64) -> f64 {
    if q.is_nan() {
        return f64::NAN;
    }
    if q < 0.5 {
        return -t_quantile(1.0 - q, df);
    }
    if q == 0.5 {
        return 0.0;
    }
    if df == 0 || q >= 1.0 {
        return f64::INFINITY;
    }
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    while t_cdf(hi, df) < q && hi < 1e12 {
        hi *= 2.0;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if t_cdf(mid, df) < q {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo < 1e-12 * hi.max(1.0) {
            break;
        }
    }
    0.5 * (lo + hi)
}

/// The regularized incomplete beta function `I_x(a, b)` (Numerical Recipes' continued
/// fraction, with the symmetry that keeps it convergent).
fn incomplete_beta(x: f64, a: f64, b: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let ln_front = ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln();
    if x < (a + 1.0) / (a + b + 2.0) {
        ln_front.exp() * beta_fraction(x, a, b) / a
    } else {
        1.0 - ln_front.exp() * beta_fraction(1.0 - x, b, a) / b
    }
}

fn beta_fraction(x: f64, a: f64, b: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 - qab * x / qap;
    if d.abs() < TINY {
        d = TINY;
    }
    d = 1.0 / d;
    let mut h = d;
    for m in 1..10_000 {
        let m = f64::from(m);
        let m2 = 2.0 * m;
        let aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        if d.abs() < TINY {
            d = TINY;
        }
        c = 1.0 + aa / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        h *= d * c;
        let aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        if d.abs() < TINY {
            d = TINY;
        }
        c = 1.0 + aa / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        let del = d * c;
        h *= del;
        if (del - 1.0).abs() < 1e-14 {
            break;
        }
    }
    h
}

/// ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9).
fn ln_gamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut s = G[0];
    for (i, g) in G.iter().enumerate().skip(1) {
        s += g / (x + i as f64);
    }
    let t = x + 7.5;
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + s.ln()
}

/// Student t's distribution function with `df` degrees of freedom (`df` 0 is taken as 1),
/// from the regularized incomplete beta function: `P(T ≤ t) = 1 − I_{df/(df+t²)}(df/2, 1/2)/2`
/// for t ≥ 0, by symmetry below.
pub fn t_cdf(t: f64, df: u64) -> f64 {
    if t.is_nan() {
        return f64::NAN;
    }
    if t.is_infinite() {
        return if t > 0.0 { 1.0 } else { 0.0 };
    }
    let v = df.max(1) as f64;
    let x = v / (v + t * t);
    let tail = 0.5 * incomplete_beta(x, v / 2.0, 0.5);
    if t >= 0.0 {
        1.0 - tail
    } else {
        tail
    }
}

/// The 95 % Wilson score interval for `successes` out of `n`; `[0, 1]` when `n == 0`.
pub fn wilson(successes: u64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let z = Z_975;
    let n = n as f64;
    let p = successes as f64 / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

/// `part / whole`, 0 when `whole == 0`.
pub fn share(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// Quartiles (nearest rank) of an integer histogram, with its range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Quartiles {
    pub min: i64,
    pub q1: i64,
    pub median: i64,
    pub q3: i64,
    pub max: i64,
}

/// Nearest-rank quartiles of `hist` (value → count); `None` when it is empty.
pub fn quartiles<K: Copy + Into<i64>>(hist: &BTreeMap<K, u64>) -> Option<Quartiles> {
    // In u128: the counts of a merged histogram may add up past u64::MAX.
    let n: u128 = hist.values().map(|&c| c as u128).sum();
    if n == 0 {
        return None;
    }
    // Rank ⌈p·n⌉ for p = k/4, at least 1.
    let at_rank = |num: u128| -> i64 {
        let rank = (n * num).div_ceil(4).max(1);
        let mut cum = 0;
        for (&v, &c) in hist {
            cum += c as u128;
            if cum >= rank {
                return v.into();
            }
        }
        unreachable!("rank ≤ n")
    };
    Some(Quartiles {
        min: (*hist.keys().next()?).into(),
        q1: at_rank(1),
        median: at_rank(2),
        q3: at_rank(3),
        max: (*hist.keys().next_back()?).into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() < tol
    }

    #[test]
    fn wilson_matches_hand_computation() {
        let [lo, hi] = wilson(10, 100);
        assert!(
            close(lo, 0.0552, 5e-5) && close(hi, 0.1744, 5e-5),
            "{lo} {hi}"
        );
        let [lo, hi] = wilson(0, 10);
        assert!(
            close(lo, 0.0, 1e-12) && close(hi, 0.2775, 5e-5),
            "{lo} {hi}"
        );
        assert_eq!(wilson(0, 0), [0.0, 1.0]);
    }

    #[test]
    fn t_cdf_matches_tables() {
        // two-sided 95 % quantiles
        for df in [1u64, 2, 5, 10, 30, 100, 1000] {
            let q = t_975(df);
            assert!((t_cdf(q, df) - 0.975).abs() < 1e-6, "df {df}");
            assert!((t_cdf(-q, df) - 0.025).abs() < 1e-6, "df {df}");
        }
        assert!((t_cdf(1.959_963_984_540_054, 100_000_000) - 0.975).abs() < 1e-5);
        assert_eq!(t_cdf(0.0, 7), 0.5);
        // closed forms: df 1 is Cauchy, 1/2 + atan(t)/π; df 2 is 1/2 + t/(2√(2 + t²))
        for t in [-30.0, -2.5, -0.3, 0.7, 1.0, 4.0, 60.0] {
            let cauchy = 0.5 + f64::atan(t) / std::f64::consts::PI;
            assert!((t_cdf(t, 1) - cauchy).abs() < 1e-9, "{t}");
            let two = 0.5 + t / (2.0 * (2.0 + t * t).sqrt());
            assert!((t_cdf(t, 2) - two).abs() < 1e-9, "{t}");
        }
        assert_eq!(t_cdf(f64::INFINITY, 3), 1.0);
        assert_eq!(t_cdf(f64::NEG_INFINITY, 3), 0.0);
        assert!(t_cdf(f64::NAN, 3).is_nan());
    }

    #[test]
    fn t_quantiles_are_the_known_ones() {
        // printed tables (Fisher & Yates; any statistics text), to their six decimals
        for (q, df, t) in [
            (0.975, 10, 2.228_139),
            (0.975, 30, 2.042_272),
            (0.975, 1, 12.706_205),
            (0.975, 2, 4.302_653),
            (0.95, 10, 1.812_461),
            (0.995, 5, 4.032_143),
            (0.9, 1, 3.077_684),
            (0.999, 20, 3.551_808),
            (0.75, 3, 0.764_892),
        ] {
            let got = t_quantile(q, df);
            assert!(close(got, t, 1e-6), "t({q}, {df}) = {got}, not {t}");
            assert!(close(t_quantile(1.0 - q, df), -t, 1e-6), "lower {q} {df}");
        }
        // the tabulated 0.975 quantile is the same distribution's, tables and Hill's
        // expansion alike
        for df in (1..=200u64).chain([500, 1_000, 10_000, 1_000_000]) {
            assert!(close(t_quantile(0.975, df), t_975(df), 2e-6), "df {df}");
        }
        // towards the normal as df grows; edges
        assert!(close(t_quantile(0.975, 100_000_000), Z_975, 1e-6));
        assert_eq!(t_quantile(0.5, 4), 0.0);
        assert_eq!(t_quantile(0.975, 0), f64::INFINITY);
        assert_eq!(t_quantile(1.0, 4), f64::INFINITY);
        assert_eq!(t_quantile(0.0, 4), f64::NEG_INFINITY);
        assert!(t_quantile(f64::NAN, 4).is_nan());
    }

    #[test]
    fn t_quantiles_join_smoothly() {
        // Table ends at 30; the expansion at 30 agrees, and tends to z.
        assert!(close(t_975(30), 2.042_272, 1e-5));
        assert!(close(t_975(40), 2.021_075, 1e-5));
        assert!(close(t_975(120), 1.979_930, 1e-5));
        assert!(close(t_975(1_000_000), Z_975, 1e-5));
    }

    #[test]
    fn mean_interval_matches_hand_computation() {
        let mut m = Moments::default();
        for x in [1, 2, 3, 4, 5] {
            m.push(x);
        }
        let ci = m.mean_ci();
        // sd = √2.5 = 1.58114, t(4) = 2.77645, half = 2.77645·1.58114/√5 = 1.96324.
        assert!(close(ci.mean, 3.0, 1e-12));
        assert!(close(ci.sd.unwrap(), 1.581_139, 1e-6));
        let [lo, hi] = ci.ci.unwrap();
        assert!(
            close(lo, 1.036_757, 1e-5) && close(hi, 4.963_243, 1e-5),
            "{lo} {hi}"
        );
        let mut one = Moments::default();
        one.push(7);
        assert_eq!(one.mean_ci().ci, None);
        // Sums no game produces (an edited accumulator.json) give a number, not a panic.
        let huge = Moments {
            n: 3,
            sum: i128::MAX,
            sum_sq: u128::MAX,
            ..Moments::default()
        };
        assert_eq!(huge.sd(), Some(0.0));
        let wide = Moments {
            n: u64::MAX,
            sum: 0,
            sum_sq: u128::MAX,
            ..Moments::default()
        };
        assert!(wide.sd().is_some_and(|sd| sd.is_finite() && sd > 1e9));
    }

    #[test]
    fn saturated_scores_are_reported_not_wrapped() {
        // Five games of a saturated score: the exact sum of squares passes u128::MAX.
        let mut m = Moments::default();
        for _ in 0..5 {
            m.push(i64::MAX);
        }
        assert!(m.overflow);
        assert_eq!(m.n, 5);
        assert_eq!(m.sd(), None, "no standard deviation from overflowed sums");
        assert_eq!(m.mean_ci().ci, None, "no zero-width interval");
        // A difference of two saturated scores is wider than i64 and still exact.
        let mut d = Moments::default();
        d.push_wide(i64::MAX as i128 - i64::MIN as i128);
        assert!(!d.overflow);
        assert_eq!(d.sum, u64::MAX as i128);
        // The flag survives pooling and JSON; an ordinary sample writes no flag.
        let mut pooled = Moments::default();
        pooled.merge(&m);
        assert!(pooled.overflow);
        let back: Moments = serde_json::from_str(&serde_json::to_string(&m).unwrap()).unwrap();
        assert_eq!(back, m);
        assert!(!serde_json::to_string(&d).unwrap().contains("overflow"));
    }

    #[test]
    fn nearest_rank_quartiles() {
        let hist: BTreeMap<u32, u64> = [(1, 1), (2, 1), (3, 1), (4, 1)].into_iter().collect();
        let q = quartiles(&hist).unwrap();
        assert_eq!((q.min, q.q1, q.median, q.q3, q.max), (1, 1, 2, 3, 4));
        let hist: BTreeMap<u32, u64> = [(5, 3), (9, 1)].into_iter().collect();
        let q = quartiles(&hist).unwrap();
        assert_eq!((q.q1, q.median, q.q3), (5, 5, 5));
        assert!(quartiles(&BTreeMap::<u32, u64>::new()).is_none());
    }
}

/// Integer moments of a paired sample `(x, y)`: each side's [`Moments`] and `Σxy`. Adding two
/// is the moments of the pooled sample, exactly (an overflow is flagged, as in [`Moments`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Joint {
    pub x: Moments,
    pub y: Moments,
    pub sum_xy: i128,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub overflow: bool,
}

/// A mean corrected by a control variate of known mean zero (see [`Joint::controlled`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Controlled {
    /// The plain mean of `x` with its interval.
    pub raw: MeanCi,
    /// `mean(x) − β·mean(y)` with its interval (residual variance, n − 2 degrees of freedom).
    pub corrected: MeanCi,
    /// The fitted coefficient `β = cov(x, y) / var(y)`.
    pub beta: f64,
    /// `var(x)` over the residual variance, exactly `(n − 2)/(n − 1) · 1/(1 − ρ²)`: how many
    /// games of the raw mean one corrected game is worth (slightly below 1 when the control
    /// explains nothing: fitting β costs a degree of freedom).
    pub variance_ratio: f64,
    /// `corr(x, y)²`: the share of `x`'s variance the control explains.
    pub explained: f64,
}

impl Joint {
    pub fn push(&mut self, x: i128, y: i128) {
        self.x.push_wide(x);
        self.y.push_wide(y);
        match x.checked_mul(y).and_then(|p| self.sum_xy.checked_add(p)) {
            Some(s) => self.sum_xy = s,
            None => self.overflow = true,
        }
    }

    pub fn merge(&mut self, o: &Joint) {
        self.x.merge(&o.x);
        self.y.merge(&o.y);
        self.overflow |= o.overflow;
        match self.sum_xy.checked_add(o.sum_xy) {
            Some(s) => self.sum_xy = s,
            None => self.overflow = true,
        }
    }

    /// Sample covariance (n − 1 denominator); `None` below two pairs or after an overflow.
    pub fn covariance(&self) -> Option<f64> {
        let n = self.x.n;
        if n < 2 || self.overflow || self.x.overflow || self.y.overflow {
            return None;
        }
        let nf = n as f64;
        let exact = (n as i128)
            .checked_mul(self.sum_xy)
            .zip(self.x.sum.checked_mul(self.y.sum))
            .and_then(|(a, b)| a.checked_sub(b));
        Some(match exact {
            Some(num) => num as f64 / (nf * (nf - 1.0)),
            None => (self.sum_xy as f64 - self.x.sum as f64 * self.y.sum as f64 / nf) / (nf - 1.0),
        })
    }

    /// `corr(x, y)`; `None` when either side has no spread.
    pub fn correlation(&self) -> Option<f64> {
        let (sx, sy) = (self.x.sd()?, self.y.sd()?);
        if sx == 0.0 || sy == 0.0 {
            return None;
        }
        Some((self.covariance()? / (sx * sy)).clamp(-1.0, 1.0))
    }

    /// The control-variate estimate of `x`'s mean when `y` has mean zero by construction:
    /// `mean(x) − β·mean(y)`, `β` fitted by least squares — the intercept `α̂` of the
    /// regression `x = α + β·y`, read at `y = 0`. Its variance is the intercept's,
    /// `s²·(1/n + ȳ²/S_yy)` with `s² = S_xx·(1 − ρ²)/(n − 2)` the residual variance
    /// (n − 2 degrees of freedom: α and β are fitted) and `S_yy = Σ(y − ȳ)²`; the interval
    /// is `± t(n−2)·s·√(1/n + ȳ²/S_yy)`. The `ȳ²/S_yy` term is the price of estimating β: it
    /// is of order 1/n² and vanishes when the sample's control happens to average 0.
    ///
    /// The [`Controlled::variance_ratio`] is `var(x) / s²`, exactly
    /// `(n − 2)/(n − 1) · 1/(1 − ρ²)`: the per-game variance ratio, with the degree of
    /// freedom the fitted β costs (so a useless control gives slightly less than 1).
    /// `None` below three pairs.
    pub fn controlled(&self) -> Option<Controlled> {
        let n = self.x.n;
        if n < 3 {
            return None;
        }
        let raw = self.x.mean_ci();
        let sx = raw.sd?;
        let sy = self.y.sd()?;
        let cov = self.covariance()?;
        let (beta, rho2) = if sy > 0.0 && sx > 0.0 {
            (cov / (sy * sy), (cov / (sx * sy)).powi(2).min(1.0))
        } else {
            (0.0, 0.0)
        };
        let mean = self.x.mean() - beta * self.y.mean();
        let residual = (sx * sx * (1.0 - rho2) * (n - 1) as f64 / (n - 2) as f64).max(0.0);
        let sd = residual.sqrt();
        // the intercept's standard error: s·√(1/n + ȳ²/S_yy)
        let s_yy = sy * sy * (n - 1) as f64;
        let ybar = self.y.mean();
        let leverage = 1.0 / n as f64 + if s_yy > 0.0 { ybar * ybar / s_yy } else { 0.0 };
        let half = t_975(n - 2) * sd * leverage.sqrt();
        let variance_ratio = if residual > 0.0 {
            sx * sx / residual
        } else if sx > 0.0 {
            f64::INFINITY // the control explains everything (JSON writes it as null)
        } else {
            1.0
        };
        Some(Controlled {
            raw,
            corrected: MeanCi {
                mean,
                sd: Some(sd),
                ci: Some([mean - half, mean + half]),
            },
            beta,
            variance_ratio,
            explained: rho2,
        })
    }
}

#[cfg(test)]
mod joint_tests {
    use super::*;

    #[test]
    fn a_control_that_is_the_noise_removes_it() {
        // x = 5 + y (y the noise with mean 0): corrected mean 5 exactly, ratio huge
        let mut j = Joint::default();
        for (i, y) in [-3i128, 1, 2, -1, 4, -3, 0, 0].into_iter().enumerate() {
            j.push(5 + y + (i as i128 % 2), y);
        }
        let c = j.controlled().expect("eight pairs");
        assert!((c.beta - 1.0).abs() < 0.2, "β {}", c.beta);
        assert!(c.variance_ratio > 3.0, "{}", c.variance_ratio);
        assert!(c.explained > 0.6 && c.explained <= 1.0);
    }

    #[test]
    fn merge_is_the_pooled_sample() {
        let (mut a, mut b, mut all) = (Joint::default(), Joint::default(), Joint::default());
        for i in 0..20i128 {
            let (x, y) = (i * i % 7 - 3, i % 5 - 2);
            all.push(x, y);
            if i < 9 {
                a.push(x, y)
            } else {
                b.push(x, y)
            }
        }
        a.merge(&b);
        assert_eq!(a, all);
    }

    /// The sample of the two tests below: a control whose sample mean is far from 0 (so the
    /// intercept's `ȳ²/S_yy` term matters) and a partial correlation.
    fn skewed_sample() -> Joint {
        let mut j = Joint::default();
        for i in 0..12i128 {
            let y = i % 5 + 1; // mean 2.8 in this sample
            j.push(3 * y + (i * 7 % 4) - 2, y);
        }
        j
    }

    /// The interval is the regression intercept's, computed here the long way:
    /// `α̂ ± t(n−2)·s·√(1/n + ȳ²/S_yy)`.
    #[test]
    fn the_corrected_interval_is_the_intercepts() {
        let j = skewed_sample();
        let c = j.controlled().expect("pairs");
        let pts: Vec<(f64, f64)> = (0..12i128)
            .map(|i| {
                let y = i % 5 + 1;
                ((3 * y + (i * 7 % 4) - 2) as f64, y as f64)
            })
            .collect();
        let n = pts.len() as f64;
        let (mx, my) = (
            pts.iter().map(|p| p.0).sum::<f64>() / n,
            pts.iter().map(|p| p.1).sum::<f64>() / n,
        );
        let syy: f64 = pts.iter().map(|p| (p.1 - my).powi(2)).sum();
        let sxy: f64 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
        let beta = sxy / syy;
        let alpha = mx - beta * my;
        let sse: f64 = pts.iter().map(|p| (p.0 - alpha - beta * p.1).powi(2)).sum();
        let se = (sse / (n - 2.0) * (1.0 / n + my * my / syy)).sqrt();
        let half = t_975(10) * se;
        let [lo, hi] = c.corrected.ci.expect("an interval");
        assert!((c.corrected.mean - alpha).abs() < 1e-9);
        assert!((c.beta - beta).abs() < 1e-9);
        assert!(
            (hi - lo - 2.0 * half).abs() < 1e-9,
            "{} vs {}",
            hi - lo,
            2.0 * half
        );
    }

    /// The variance ratio is exactly what its documentation says (and what the README
    /// quotes): `(n − 2)/(n − 1) · 1/(1 − ρ²)`, not `1/(1 − ρ²)`.
    #[test]
    fn the_variance_ratio_is_as_documented() {
        let j = skewed_sample();
        let c = j.controlled().expect("pairs");
        let rho = j.correlation().expect("spread");
        let n = j.x.n as f64;
        let documented = (n - 2.0) / (n - 1.0) / (1.0 - rho * rho);
        assert!((c.variance_ratio - documented).abs() < 1e-9 * documented);
        assert!((c.variance_ratio - 1.0 / (1.0 - rho * rho)).abs() > 1e-3);
    }

    #[test]
    fn an_unrelated_control_changes_little() {
        let mut j = Joint::default();
        for i in 0..200i128 {
            j.push(i % 7, (i * 13 % 11) - 5);
        }
        let c = j.controlled().expect("pairs");
        // a useless control costs its degree of freedom: the ratio may dip just below 1
        assert!(
            c.variance_ratio < 1.2 && c.variance_ratio > 0.95,
            "{}",
            c.variance_ratio
        );
    }
}
