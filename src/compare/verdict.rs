//! Verdicts a reader can quote: one class per question, from its interval and a declared
//! negligible size.
//!
//! Per pair the questions are: **who wins** (the winner-changed share beyond the same-rules
//! yardstick: the placebo's excess, [`super::placebo`]), **each seat's win rate** (the paired
//! win-rate difference), **each seat's score** (the mean paired score difference) and **the
//! decision effect** (the decision probes' excess, [`super::decisions`]). Each gets a class:
//!
//! - [`Class::Difference`]: the difference test rejects 0 (with its size);
//! - [`Class::Negligible`]: an equivalence test (two one-sided tests, TOST) puts it inside
//!   ±margin; a small but real difference inside the margin is negligible too;
//! - [`Class::CannotTell`]: neither (an interval straddling 0 is never "no more often than").
//!
//! The seats are several tests: the seat win rates are one family and the seat scores another,
//! each adjusted with Holm's step-down method (difference and equivalence p-values alike), so
//! "some seat's shift is a difference" keeps its 5 % error rate under the null.
//!
//! Two kinds of intervals and p-values. A run of fixed `--games` uses the fixed-N tests:
//! Student t on the per-seed differences (McNemar's exact test for a seat's win rate, with
//! Newcombe's interval shown). A run with `--until` looks at its data after every batch and
//! stops when the answer is known, which would inflate fixed-N error rates; its verdicts use
//! **anytime-valid confidence sequences** (the normal-mixture asymptotic confidence sequence
//! of Waudby-Smith, Arnold, Wu, Zhang & Ramdas 2021, "Time-uniform central limit theory and
//! asymptotic confidence sequences"): an interval that holds at every look at once, so a run
//! may stop at any look. It was chosen over an SPRT because it needs no alternative
//! hypothesis, gives intervals (an SPRT gives only accept/reject), serves the equivalence
//! test and `--until ±X` from the same object, and is computed from the exact moments every
//! aggregate already keeps. [`settled`] is the stopping rule `run` asks after each batch.
//!
//! Everything here is a pure function of the exact integer aggregate and the spec.

use super::accumulate::{Accumulator, PairAcc};
use super::paired::PairedWins;
use super::spec::CompareSpec;
use super::stats::{t_cdf, t_quantile, Moments};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The error rate of every verdict (two-sided 5 %; each equivalence side 5 %).
pub const ALPHA: f64 = 0.05;

/// A run with `--until` looks first after this many seeds (the confidence sequence rests on
/// the central limit theorem and a spread estimate; a few hundred seeds make both sound).
pub const MIN_LOOK: u64 = 500;

/// Micro-units of a share in one percentage point.
const MICRO_PER_PP: f64 = 10_000.0;
/// Milli-units of a point.
const MILLI_PER_POINT: f64 = 1_000.0;

/// The negligible sizes (`--negligible`): a share difference (win rates, the winner-changed
/// excess, decisions) in millionths, and a score difference in thousandths of a point.
/// Integers, so a spec compares exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Negligible {
    pub share_micro: u64,
    pub points_milli: u64,
}

impl Default for Negligible {
    /// 1 percentage point and 1 point (see the README: a seat's win rate moving by under one
    /// game in a hundred, and a score by less than the smallest scoring, a one-tile road).
    fn default() -> Self {
        Negligible {
            share_micro: 10_000,
            points_milli: 1_000,
        }
    }
}

impl Negligible {
    /// The share margin as a fraction.
    pub fn share(&self) -> f64 {
        self.share_micro as f64 / 1e6
    }
    /// The score margin in points.
    pub fn points(&self) -> f64 {
        self.points_milli as f64 / MILLI_PER_POINT
    }

    /// Parses `--negligible 2pp`, `0.5pt`, `2pp,0.5pts` (what is not given keeps its
    /// default). Sizes must be above 0, shares below 100 pp.
    pub fn parse(text: &str) -> Result<Negligible, String> {
        let mut n = Negligible::default();
        let sizes = parse_sizes(text, "--negligible")?;
        if let Some(s) = sizes.share_micro {
            n.share_micro = s;
        }
        if let Some(p) = sizes.points_milli {
            n.points_milli = p;
        }
        Ok(n)
    }
}

impl fmt::Display for Negligible {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}pp,{}pt",
            trim(self.share_micro as f64 / MICRO_PER_PP),
            trim(self.points())
        )
    }
}

fn trim(x: f64) -> String {
    let s = format!("{x:.4}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Sizes given as `Xpp` and/or `Ypt`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sizes {
    pub share_micro: Option<u64>,
    pub points_milli: Option<u64>,
}

fn parse_sizes(text: &str, flag: &str) -> Result<Sizes, String> {
    let mut out = Sizes::default();
    let example = format!("e.g. {flag} 1pp, {flag} 0.5pt or {flag} 1pp,0.5pt");
    for part in text.split(',').map(str::trim) {
        let part = part
            .trim_start_matches('±')
            .trim_start_matches("+-")
            .trim_start_matches('+');
        let (number, share) = if let Some(x) = part.strip_suffix("pp") {
            (x, true)
        } else if let Some(x) = part
            .strip_suffix("points")
            .or_else(|| part.strip_suffix("pts"))
            .or_else(|| part.strip_suffix("pt"))
        {
            (x, false)
        } else {
            return Err(format!(
                "{flag} `{text}`: `{part}` needs a unit, pp (percentage points of a share) or \
                 pt (points of score); {example}"
            ));
        };
        let v: f64 = number
            .trim()
            .parse()
            .map_err(|_| format!("{flag} `{text}`: `{number}` is not a number; {example}"))?;
        if !v.is_finite() || v <= 0.0 {
            return Err(format!(
                "{flag} `{text}`: a size must be above 0 (a margin of 0 can never be met); \
                 {example}"
            ));
        }
        if share {
            if v >= 100.0 {
                return Err(format!(
                    "{flag} `{text}`: {v} pp is a share of 100 % or more, which every \
                     difference is within; give less than 100pp"
                ));
            }
            let micro = (v * MICRO_PER_PP).round() as u64;
            if micro == 0 {
                return Err(format!("{flag} `{text}`: {v} pp is below 0.0001 pp"));
            }
            out.share_micro = Some(micro);
        } else {
            if v >= 1e9 {
                return Err(format!(
                    "{flag} `{text}`: {v} points is more than any score"
                ));
            }
            let milli = (v * MILLI_PER_POINT).round() as u64;
            if milli == 0 {
                return Err(format!("{flag} `{text}`: {v} points is below 0.001 points"));
            }
            out.points_milli = Some(milli);
        }
    }
    Ok(out)
}

/// `--until`: when a run may stop before `--games`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Until {
    /// Every headline verdict is a difference or negligible.
    Decided,
    /// Every headline interval is narrower than ±X (shares in pp, scores in points; a unit
    /// not given leaves those questions out of the rule).
    Width(Sizes),
}

impl Until {
    /// Parses `decided`, `±1pp`, `1pp`, `0.5pt`, `1pp,0.5pt`.
    pub fn parse(text: &str) -> Result<Until, String> {
        if text.trim().eq_ignore_ascii_case("decided") {
            return Ok(Until::Decided);
        }
        parse_sizes(text, "--until").map(Until::Width).map_err(|e| {
            format!("{e} (or --until decided: stop when every headline verdict is settled)")
        })
    }
}

impl fmt::Display for Until {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Until::Decided => write!(f, "decided"),
            Until::Width(s) => {
                let mut parts = Vec::new();
                if let Some(m) = s.share_micro {
                    parts.push(format!("{}pp", trim(m as f64 / MICRO_PER_PP)));
                }
                if let Some(m) = s.points_milli {
                    parts.push(format!("{}pt", trim(m as f64 / MILLI_PER_POINT)));
                }
                write!(f, "±{}", parts.join(","))
            }
        }
    }
}

/// A verdict's class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    Difference,
    Negligible,
    CannotTell,
}

impl Class {
    pub fn words(self) -> &'static str {
        match self {
            Class::Difference => "a difference",
            Class::Negligible => "negligible",
            Class::CannotTell => "cannot tell",
        }
    }
}

/// The question a verdict answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Question {
    /// The winner-changed share with the rule, beyond the same-rules yardstick.
    WhoWins,
    /// One seat's win rate, later − earlier ruleset.
    WinRate,
    /// One seat's mean score, later − earlier ruleset.
    Score,
    /// The share of decisions the rule changes beyond the player's own luck.
    Decisions,
}

impl Question {
    /// Whether the figure is a share (pp) or points.
    pub fn unit(self) -> Unit {
        match self {
            Question::Score => Unit::Points,
            _ => Unit::Share,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Question::WhoWins => "who wins",
            Question::WinRate => "win rate",
            Question::Score => "score",
            Question::Decisions => "decisions",
        }
    }
}

/// The unit of a verdict's estimate, interval and margin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    /// A share as a fraction (shown in percentage points).
    Share,
    Points,
}

/// How the interval and p-values were computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// Fixed N: Student t (McNemar exact and Newcombe for a seat's win rate).
    FixedN,
    /// Anytime-valid: the normal-mixture confidence sequence (`--until`).
    ConfidenceSequence,
}

/// One verdict.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    /// The pair's rulesets (indices and labels), the difference is `b − a`.
    pub a_index: usize,
    pub b_index: usize,
    pub a: String,
    pub b: String,
    /// The skill level (`--policy`).
    pub level: String,
    pub question: Question,
    /// 1-based seat for the seat questions.
    pub seat: Option<u8>,
    pub class: Class,
    pub unit: Unit,
    /// The estimate (`b − a`; a share as a fraction).
    pub estimate: f64,
    /// The 95 % interval (`None` with too little data): [`Method::FixedN`] or
    /// [`Method::ConfidenceSequence`].
    pub interval: Option<[f64; 2]>,
    pub method: Method,
    /// The negligible margin, in the verdict's unit.
    pub margin: f64,
    /// p-value of the difference test, Holm-adjusted where `adjusted`.
    pub p_difference: Option<f64>,
    /// p-value of the equivalence test (TOST against ±margin), Holm-adjusted where
    /// `adjusted`.
    pub p_negligible: Option<f64>,
    /// Holm-adjusted over the seats (the family has `family` tests).
    pub adjusted: bool,
    pub family: u32,
    /// Observations (seeds, or probed positions).
    pub n: u64,
    /// Why the class is "cannot tell" when the data cannot say (no spread).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Verdict {
    /// The interval's half-width (`None` without an interval).
    pub fn half_width(&self) -> Option<f64> {
        self.interval.map(|[lo, hi]| (hi - lo) / 2.0)
    }
}

/// One question's data: per-observation differences in the question's unit.
#[derive(Clone, Copy, Debug)]
struct Sample {
    n: u64,
    mean: f64,
    sd: Option<f64>,
    /// Observations that differ from 0, where known (a seat's discordant seeds).
    nonzero: Option<u64>,
}

/// A question with fewer observations away from 0 than this gets no verdict but "cannot
/// tell": the normal approximation behind every interval here needs a few of them.
pub const MIN_NONZERO: u64 = 10;

impl Sample {
    fn of(m: &Moments, scale: f64) -> Sample {
        Sample {
            n: m.n,
            mean: m.mean() * scale,
            sd: m.sd().map(|s| s * scale),
            nonzero: None,
        }
    }

    /// A seat's paired wins as per-seed differences (+1 won under B only, −1 under A only).
    fn of_wins(w: &PairedWins) -> Sample {
        let m = Moments {
            n: w.games(),
            sum: w.b_only as i128 - w.a_only as i128,
            sum_sq: w.a_only as u128 + w.b_only as u128,
            overflow: false,
        };
        Sample {
            nonzero: Some(w.a_only.saturating_add(w.b_only)),
            ..Sample::of(&m, 1.0)
        }
    }
}

/// The test results of one sample before the family adjustment: the raw p-values, and the
/// half-width of the interval at any level (dual to the difference test: the interval at
/// level 1 − a excludes 0 exactly when the p-value is at most a).
#[derive(Clone, Copy, Debug)]
struct Tested {
    mean: f64,
    p_difference: Option<f64>,
    p_negligible: Option<f64>,
    width: Option<Width>,
}

#[derive(Clone, Copy, Debug)]
enum Width {
    /// Student t: se and degrees of freedom.
    T { se: f64, df: u64 },
    /// The confidence sequence: n and sd.
    Sequence { seq: Sequence, n: u64, sd: f64 },
}

impl Width {
    /// The half-width at error rate `a` (two-sided).
    fn at(&self, a: f64) -> f64 {
        match *self {
            Width::T { se, df } => t_quantile(1.0 - a / 2.0, df) * se,
            Width::Sequence { seq, n, sd } => seq.half_width(n, sd, a),
        }
    }
}

/// The sequential setting: the mixture's tuning.
#[derive(Clone, Copy, Debug)]
struct Sequence {
    rho: f64,
}

impl Sequence {
    /// Tuned to be narrowest at `target` observations (half the cap).
    fn tuned(target: u64) -> Sequence {
        let l = -2.0 * ALPHA.ln();
        Sequence {
            rho: ((l + (l + 1.0).ln()) / (target.max(1) as f64)).sqrt(),
        }
    }

    fn half_width(&self, n: u64, sd: f64, alpha: f64) -> f64 {
        let n = n as f64;
        let r2 = self.rho * self.rho;
        sd * (2.0 * (n * r2 + 1.0) / (n * n * r2) * ((n * r2 + 1.0).sqrt() / alpha).ln()).sqrt()
    }

    /// The smallest α whose sequence's bound reaches `x` (> 0) from the estimate.
    fn p(&self, x: f64, n: u64, sd: f64) -> f64 {
        if x <= 0.0 {
            return 1.0;
        }
        let n = n as f64;
        let r2 = self.rho * self.rho;
        let p =
            (n * r2 + 1.0).sqrt() * (-x * x * n * n * r2 / (2.0 * sd * sd * (n * r2 + 1.0))).exp();
        p.min(1.0)
    }
}

fn test(s: &Sample, margin: f64, seq: Option<Sequence>) -> Tested {
    let none = Tested {
        mean: s.mean,
        p_difference: None,
        p_negligible: None,
        width: None,
    };
    let sd = match s.sd {
        Some(sd) if sd > 0.0 && s.n >= 2 => sd,
        _ => return none,
    };
    if s.nonzero.is_some_and(|k| k < MIN_NONZERO) {
        return none;
    }
    // equivalence: both one-sided tests at α/2, so that "negligible" always shows as a 95 %
    // interval inside ±margin (conservative against the usual 90 % TOST)
    match seq {
        Some(q) => Tested {
            mean: s.mean,
            p_difference: Some(q.p(s.mean.abs(), s.n, sd)),
            p_negligible: Some(
                q.p(margin - s.mean, s.n, sd)
                    .max(q.p(margin + s.mean, s.n, sd)),
            ),
            width: Some(Width::Sequence { seq: q, n: s.n, sd }),
        },
        None => {
            let df = s.n - 1;
            let se = sd / (s.n as f64).sqrt();
            let upper = |t: f64| 1.0 - t_cdf(t, df);
            Tested {
                mean: s.mean,
                p_difference: Some((2.0 * upper(s.mean.abs() / se)).min(1.0)),
                p_negligible: Some(
                    (2.0 * upper((s.mean + margin) / se).max(upper((margin - s.mean) / se)))
                        .min(1.0),
                ),
                width: Some(Width::T { se, df }),
            }
        }
    }
}

/// The interval shown with a verdict: at level 1 − α·p/p_adjusted, the level at which Holm
/// tested it, so that it excludes 0 exactly when the verdict is a difference (95 % when not
/// adjusted).
fn shown_interval(t: &Tested, p_adjusted: Option<f64>) -> Option<[f64; 2]> {
    let w = t.width?;
    let a = match (t.p_difference, p_adjusted) {
        (Some(p), Some(q)) if q > 0.0 && p > 0.0 => ALPHA * (p / q).min(1.0),
        _ => ALPHA,
    };
    let h = w.at(a);
    Some([t.mean - h, t.mean + h])
}

/// Holm's step-down adjustment: adjusted p-values in the input order (`None` stays `None`
/// and does not count in the family).
pub fn holm(ps: &[Option<f64>]) -> Vec<Option<f64>> {
    let mut order: Vec<(usize, f64)> = ps
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.map(|p| (i, p)))
        .collect();
    order.sort_by(|x, y| x.1.total_cmp(&y.1).then(x.0.cmp(&y.0)));
    let k = order.len();
    let mut out = vec![None; ps.len()];
    let mut running = 0.0f64;
    for (rank, (i, p)) in order.into_iter().enumerate() {
        running = running.max(((k - rank) as f64 * p).min(1.0));
        out[i] = Some(running);
    }
    out
}

/// The class from the (adjusted) p-values and the shown interval: negligible needs the
/// equivalence test and the interval inside ±margin; a difference, the test of 0.
fn class_of(
    p_difference: Option<f64>,
    p_negligible: Option<f64>,
    interval: Option<[f64; 2]>,
    margin: f64,
) -> Class {
    let inside = interval.is_some_and(|[lo, hi]| lo > -margin && hi < margin);
    if inside && p_negligible.is_some_and(|p| p <= ALPHA) {
        Class::Negligible
    } else if p_difference.is_some_and(|p| p <= ALPHA) {
        Class::Difference
    } else {
        Class::CannotTell
    }
}

/// The context every verdict of a pair shares.
struct PairContext<'a> {
    a_index: usize,
    b_index: usize,
    a: &'a str,
    b: &'a str,
    level: &'a str,
    method: Method,
    seq: Option<Sequence>,
}

fn verdicts_of(
    ctx: &PairContext,
    question: Question,
    samples: &[Sample],
    margin: f64,
    adjust: bool,
    why_none: &str,
) -> Vec<Verdict> {
    let tested: Vec<Tested> = samples.iter().map(|s| test(s, margin, ctx.seq)).collect();
    let family = tested.iter().filter(|t| t.p_difference.is_some()).count() as u32;
    let adjusted = adjust && samples.len() > 1;
    let (pd, pn) = if adjusted {
        (
            holm(&tested.iter().map(|t| t.p_difference).collect::<Vec<_>>()),
            holm(&tested.iter().map(|t| t.p_negligible).collect::<Vec<_>>()),
        )
    } else {
        (
            tested.iter().map(|t| t.p_difference).collect(),
            tested.iter().map(|t| t.p_negligible).collect(),
        )
    };
    samples
        .iter()
        .zip(&tested)
        .enumerate()
        .map(|(i, (s, t))| {
            let interval = shown_interval(t, pd[i]);
            Verdict {
                a_index: ctx.a_index,
                b_index: ctx.b_index,
                a: ctx.a.to_string(),
                b: ctx.b.to_string(),
                level: ctx.level.to_string(),
                question,
                seat: (question == Question::WinRate || question == Question::Score)
                    .then_some(i as u8 + 1),
                class: class_of(pd[i], pn[i], interval, margin),
                unit: question.unit(),
                estimate: s.mean,
                interval,
                method: ctx.method,
                margin,
                p_difference: pd[i],
                p_negligible: pn[i],
                adjusted,
                family: if adjusted { family } else { 1 },
                n: s.n,
                note: interval.is_none().then(|| why_none.to_string()),
            }
        })
        .collect()
}

/// The verdicts of one pair of `acc` (headline questions only: who wins, seat win rates and
/// scores; the decision effect is added by [`verdicts`]).
fn pair_verdicts(
    spec: &CompareSpec,
    labels: &[String],
    p: &PairAcc,
    seq: Option<Sequence>,
) -> Vec<Verdict> {
    let margins = spec.negligible;
    let label = |i: usize| labels.get(i).map_or("?", String::as_str);
    let ctx = PairContext {
        a_index: p.a,
        b_index: p.b,
        a: label(p.a),
        b: label(p.b),
        level: &spec.policy,
        method: if seq.is_some() {
            Method::ConfidenceSequence
        } else {
            Method::FixedN
        },
        seq,
    };
    let mut out = Vec::new();
    if spec.placebo && p.placebo.games > 0 {
        out.extend(verdicts_of(
            &ctx,
            Question::WhoWins,
            &[Sample::of(&p.placebo.excess_winner_changed, 0.5)],
            margins.share(),
            false,
            "no spread: the winner changed as often with the rule as by the luck alone in \
             every seed",
        ));
    }
    let wins: Vec<Sample> = p.seat_wins.iter().map(Sample::of_wins).collect();
    out.extend(verdicts_of(
        &ctx,
        Question::WinRate,
        &wins,
        margins.share(),
        true,
        "fewer than 10 seeds changed this seat's result",
    ));
    let scores: Vec<Sample> = p.score_delta.iter().map(|m| Sample::of(m, 1.0)).collect();
    out.extend(verdicts_of(
        &ctx,
        Question::Score,
        &scores,
        margins.points(),
        true,
        "no spread: this seat's score moved by the same amount in every seed",
    ));
    out
}

/// What holds for one seat of a run with `--until` at the seeds it played: the half-widths of
/// the anytime-valid 95 % intervals (the confidence sequences the run stopped on, not
/// adjusted over the seats) of its win rate and score. A fixed-N power figure ("the smallest
/// shift these games detect") does not hold for a run that stopped on its data; these do,
/// and stay valid had it played on. `None` where the data give no interval (no spread, or a
/// win rate that fewer than [`MIN_NONZERO`] seeds changed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SequenceWidth {
    /// Win rate, in percentage points.
    pub win_rate_pp: Option<f64>,
    /// Mean score, in points.
    pub score: Option<f64>,
}

/// Per seat of `pair` (seat 1 first), the [`SequenceWidth`] at its seeds; `None` for a run
/// without `--until`.
pub fn sequence_widths(spec: &CompareSpec, pair: &PairAcc) -> Option<Vec<SequenceWidth>> {
    let seq = sequence_of(spec)?;
    // the margin does not enter the width
    let half = |s: &Sample| test(s, 1.0, Some(seq)).width.map(|w| w.at(ALPHA));
    Some(
        pair.seat_wins
            .iter()
            .zip(&pair.score_delta)
            .map(|(w, m)| SequenceWidth {
                win_rate_pp: half(&Sample::of_wins(w)).map(|h| 100.0 * h),
                score: half(&Sample::of(m, 1.0)),
            })
            .collect(),
    )
}

/// The sequential setting of `spec`, if it stops early.
fn sequence_of(spec: &CompareSpec) -> Option<Sequence> {
    spec.until.map(|_| Sequence::tuned(spec.games.div_ceil(2)))
}

/// Every verdict of `acc` under `spec`: per pair, who wins, each seat's win rate and score,
/// then the decision effect.
pub fn verdicts(spec: &CompareSpec, acc: &Accumulator) -> Vec<Verdict> {
    let labels = spec.labels();
    let seq = sequence_of(spec);
    let mut out = Vec::new();
    for p in &acc.pairs {
        out.extend(pair_verdicts(spec, &labels, p, seq));
        if let Some(d) = acc
            .decisions
            .pairs
            .iter()
            .find(|d| (d.a, d.b) == (p.a, p.b))
        {
            if d.all.probed > 0 {
                let label = |i: usize| labels.get(i).map_or("?", String::as_str);
                let ctx = PairContext {
                    a_index: p.a,
                    b_index: p.b,
                    a: label(p.a),
                    b: label(p.b),
                    level: &spec.policy,
                    // the probed positions are a fixed sample, not stopped on
                    method: Method::FixedN,
                    seq: None,
                };
                out.extend(verdicts_of(
                    &ctx,
                    Question::Decisions,
                    &[Sample::of(&d.all.excess, 0.5)],
                    spec.negligible.share(),
                    false,
                    "no spread: every probed position changed as often with the rule as by the \
                     luck alone",
                ));
            }
        }
    }
    out
}

/// Why a run with `--until` stopped.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stopping {
    /// The rule (`decided`, `±1pp`).
    pub rule: String,
    /// Seeds played, and the cap (`--games`).
    pub games: u64,
    pub cap: u64,
    /// The rule was met (false: the cap was reached first).
    pub met: bool,
    /// In words.
    pub reason: String,
    /// How the intervals are made valid under the stopping.
    pub method: String,
}

/// Whether the headline verdicts of `acc` meet `spec.until` (false without `--until`, and
/// before [`MIN_LOOK`] seeds).
pub fn settled(spec: &CompareSpec, acc: &Accumulator) -> bool {
    let Some(until) = spec.until else {
        return false;
    };
    if acc.games < MIN_LOOK {
        return false;
    }
    let labels = spec.labels();
    let seq = sequence_of(spec);
    let all: Vec<Verdict> = acc
        .pairs
        .iter()
        .flat_map(|p| pair_verdicts(spec, &labels, p, seq))
        .collect();
    unsettled(until, &all).is_empty() && !all.is_empty()
}

/// The headline verdicts that do not meet `until`.
fn unsettled(until: Until, verdicts: &[Verdict]) -> Vec<&Verdict> {
    verdicts
        .iter()
        .filter(|v| v.question != Question::Decisions)
        .filter(|v| match until {
            Until::Decided => v.class == Class::CannotTell,
            Until::Width(s) => {
                let width = match v.unit {
                    Unit::Share => s.share_micro.map(|m| m as f64 / 1e6),
                    Unit::Points => s.points_milli.map(|m| m as f64 / MILLI_PER_POINT),
                };
                match width {
                    None => false,
                    Some(w) => v.half_width().is_none_or(|h| h >= w),
                }
            }
        })
        .collect()
}

/// The stopping section of a report made with `--until`.
pub fn stopping(spec: &CompareSpec, acc: &Accumulator, verdicts: &[Verdict]) -> Option<Stopping> {
    let until = spec.until?;
    let met = settled(spec, acc);
    let open = unsettled(until, verdicts);
    let name = |v: &Verdict| match v.seat {
        Some(s) => format!("{} vs {}: seat {s}'s {}", v.a, v.b, v.question.name()),
        None => format!("{} vs {}: {}", v.a, v.b, v.question.name()),
    };
    let reason = if met {
        match until {
            Until::Decided => format!(
                "stopped after {} of at most {} seeds: every headline verdict was settled \
                 (a difference or negligible)",
                acc.games, spec.games
            ),
            Until::Width(_) => format!(
                "stopped after {} of at most {} seeds: every headline interval was narrower \
                 than {until}",
                acc.games, spec.games
            ),
        }
    } else {
        format!(
            "played all {} seeds (--games) without meeting --until {until}; still open: {}",
            acc.games,
            open.iter().map(|v| name(v)).collect::<Vec<_>>().join("; ")
        )
    };
    Some(Stopping {
        rule: until.to_string(),
        games: acc.games,
        cap: spec.games,
        met,
        reason,
        method: format!(
            "looked after every batch of 250 seeds from {MIN_LOOK} on; the headline verdicts \
             use anytime-valid 95 % confidence sequences (normal mixture, Waudby-Smith et al. \
             2021, tuned for {} seeds), valid whenever the run stops; the other intervals of \
             this report are fixed-N intervals and do not account for the stopping",
            spec.games.div_ceil(2)
        ),
    })
}

/// The narrowest half-width `--until ±X` can reach within `cap` seeds: a share or score
/// whose data differ in a single seed by one unit (the smallest spread there is). A width
/// below it is unreachable.
pub fn narrowest_width(cap: u64) -> f64 {
    let seq = Sequence::tuned(cap.div_ceil(2));
    let n = cap.max(2);
    seq.half_width(n, (1.0 / n as f64).sqrt(), ALPHA)
}

/// Checks `until` against `cap` seeds: an error message for a width no run of `cap` seeds can
/// reach.
pub fn check_until(until: Until, cap: u64) -> Result<(), String> {
    let Until::Width(s) = until else {
        return Ok(());
    };
    if cap < MIN_LOOK {
        return Err(format!(
            "--until {until} with --games {cap}: a run with --until looks first after \
             {MIN_LOOK} seeds; give --games {MIN_LOOK} or more"
        ));
    }
    let floor = narrowest_width(cap);
    if let Some(m) = s.share_micro {
        let w = m as f64 / 1e6;
        if w < floor {
            return Err(format!(
                "--until {until}: unreachable within --games {cap}: even if a single seed \
                 differed, the interval of a share at {cap} seeds would be ±{:.4} pp; give a \
                 wider width or more --games",
                100.0 * floor
            ));
        }
    }
    if let Some(m) = s.points_milli {
        let w = m as f64 / MILLI_PER_POINT;
        if w < floor {
            return Err(format!(
                "--until {until}: unreachable within --games {cap}: even if a single seed \
                 differed by one point, the interval of a score at {cap} seeds would be \
                 ±{floor:.4} points; give a wider width or more --games"
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::stats::t_975;

    #[test]
    fn holm_steps_down_and_keeps_order() {
        let adj = holm(&[Some(0.01), Some(0.04), Some(0.03), None]);
        assert_eq!(adj[3], None);
        assert!((adj[0].unwrap() - 0.03).abs() < 1e-12);
        assert!((adj[2].unwrap() - 0.06).abs() < 1e-12);
        assert!((adj[1].unwrap() - 0.06).abs() < 1e-12); // monotone: max(0.04, 0.06)
        assert_eq!(holm(&[Some(0.6), Some(0.9)]), vec![Some(1.0), Some(1.0)]);
    }

    fn sample(values: &[i64]) -> Sample {
        let mut m = Moments::default();
        for &v in values {
            m.push(v);
        }
        Sample::of(&m, 1.0)
    }

    #[test]
    fn classes_from_interval_and_margin() {
        // a clear shift of ~5 points with spread 1
        let big: Vec<i64> = (0..200).map(|i| 4 + (i % 3)).collect();
        let cls = |t: Tested| {
            class_of(
                t.p_difference,
                t.p_negligible,
                shown_interval(&t, None),
                1.0,
            )
        };
        let t = test(&sample(&big), 1.0, None);
        assert_eq!(cls(t), Class::Difference);
        // centred on 0, tight: negligible at ±1
        let tight: Vec<i64> = (0..400).map(|i| (i % 3) - 1).collect();
        let t = test(&sample(&tight), 1.0, None);
        assert_eq!(cls(t), Class::Negligible);
        // centred on 0, wide: cannot tell
        let wide: Vec<i64> = (0..20).map(|i| if i % 2 == 0 { 9 } else { -9 }).collect();
        let t = test(&sample(&wide), 1.0, None);
        assert_eq!(cls(t), Class::CannotTell);
        // no spread: no interval, cannot tell
        let t = test(&sample(&[0, 0, 0, 0]), 1.0, None);
        assert!(t.width.is_none());
        assert_eq!(cls(t), Class::CannotTell);
    }

    #[test]
    fn confidence_sequence_is_wider_than_the_fixed_interval_and_consistent() {
        let seq = Sequence::tuned(5_000);
        let fixed = t_975(9_999) / 100.0;
        let cs = seq.half_width(10_000, 1.0, ALPHA);
        assert!(cs > fixed && cs < 3.0 * fixed, "{cs} vs {fixed}");
        // p at the half-width is α
        assert!((seq.p(cs, 10_000, 1.0) - ALPHA).abs() < 1e-9);
    }

    #[test]
    fn sizes_parse_and_refuse() {
        assert_eq!(
            Negligible::parse("2pp").unwrap(),
            Negligible {
                share_micro: 20_000,
                points_milli: 1_000
            }
        );
        assert_eq!(Negligible::parse("0.5pt,±1.5pp").unwrap().points_milli, 500);
        assert_eq!(Negligible::default().to_string(), "1pp,1pt");
        for bad in ["0pp", "-1pp", "100pp", "150pp", "1", "xpp", "0pt"] {
            assert!(Negligible::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Until::parse("decided").unwrap(), Until::Decided);
        assert_eq!(Until::parse("±1pp").unwrap().to_string(), "±1pp");
        assert!(Until::parse("soon").is_err());
        assert!(check_until(Until::parse("0.0001pp").unwrap(), 10_000).is_err());
        assert!(check_until(Until::parse("1pp").unwrap(), 10_000).is_ok());
        assert!(check_until(Until::parse("1pp").unwrap(), 100).is_err());
    }
}
