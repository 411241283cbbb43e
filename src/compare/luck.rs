//! Luck-corrected estimates of a coupled run: the rule's effect with the tile luck taken out.
//!
//! Each game of the run is played with a [`LuckMeter`](crate::policy::luck::LuckMeter) beside
//! it: per seat, the sum over its draws of the drawn tile's value minus the mean value of the
//! tiles that could have come (AIVAT's chance correction; why it has mean zero is in
//! [`crate::policy::luck`]). Here the luck is used as a **control variate**: for each pair and
//! seat the paired score shift `x = score_B − score_A` and the luck shift `y = luck_B − luck_A`
//! are accumulated as joint integer moments, and the corrected shift is `mean(x) − β·mean(y)`
//! with `β` fitted by least squares ([`Joint::controlled`]). Because `y` has mean zero by
//! construction the corrected mean estimates the same shift; its per-game variance is the
//! residual one, `var(x)·(1 − ρ²)·(n − 1)/(n − 2)`, so the **variance ratio**
//! `(n − 2)/(n − 1) · 1/(1 − ρ²)` says how many raw games one corrected game is worth (the
//! factor before it is the degree of freedom the fitted β costs: a useless control gives a
//! little under 1). The interval is the regression intercept's, with its `ȳ²/S_yy` term. The
//! same is done for the win-rate shift with the meter's win-chance luck.
//!
//! Per ruleset two more figures come from the same sums: the mean luck per seat with its
//! interval (it must contain 0: the check that the correction is unbiased) and the share of
//! the score margin's variance the luck explains (`corr(margin, luck margin)²`, a seat's
//! margin being its score minus the mean of the others').
//!
//! Everything is integer (points in thousandths, win chances in millionths), merged by
//! addition: exact over threads, shards and resumes.

use super::stats::{Controlled, Joint, MeanCi};
use crate::engine::GameOutcome;
use crate::policy::luck::{Luck, POINT_UNIT, WIN_UNIT};
use serde::{Deserialize, Serialize};

/// The luck sums of one ruleset over the run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesetLuck {
    /// Per seat: (score, luck), both in thousandths of a point.
    pub seats: Vec<Joint>,
    /// Over seats pooled: (margin, luck margin), a seat's margin being `(P − 1)·own − Σ others`
    /// (the margin over the others' mean, times `P − 1`), in thousandths of a point.
    pub margin: Joint,
}

/// The luck sums of one pair of rulesets over the run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairLuck {
    pub a: usize,
    pub b: usize,
    /// Per seat: (score under B − under A, luck under B − under A), thousandths of a point.
    pub score: Vec<Joint>,
    /// Per seat: (won under B − won under A, win luck under B − under A), in millionths.
    pub wins: Vec<Joint>,
}

/// The luck sums of a run (empty when the run measured no luck).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LuckAcc {
    /// Seeds whose games all had their luck measured.
    pub games: u64,
    pub rulesets: Vec<RulesetLuck>,
    pub pairs: Vec<PairLuck>,
}

fn margin(values: &[i128], seat: usize) -> i128 {
    let total: i128 = values.iter().sum();
    let players = values.len() as i128;
    (players - 1) * values[seat] - (total - values[seat])
}

impl LuckAcc {
    pub fn new(rulesets: usize, players: u8) -> LuckAcc {
        let seats = players as usize;
        let mut pairs = Vec::new();
        for a in 0..rulesets {
            for b in a + 1..rulesets {
                pairs.push(PairLuck {
                    a,
                    b,
                    score: vec![Joint::default(); seats],
                    wins: vec![Joint::default(); seats],
                });
            }
        }
        LuckAcc {
            games: 0,
            rulesets: (0..rulesets)
                .map(|_| RulesetLuck {
                    seats: vec![Joint::default(); seats],
                    margin: Joint::default(),
                })
                .collect(),
            pairs,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.games == 0
    }

    /// Adds one seed: its game and luck under every ruleset.
    pub fn add(&mut self, outcomes: &[GameOutcome], luck: &[Luck]) {
        debug_assert_eq!(outcomes.len(), luck.len());
        if self.rulesets.len() != outcomes.len() {
            let players = outcomes.first().map_or(0, |o| o.seats.len() as u8);
            *self = LuckAcc::new(outcomes.len(), players);
        }
        self.games += 1;
        let unit = POINT_UNIT as i128;
        for (r, (o, l)) in outcomes.iter().zip(luck).enumerate() {
            let acc = &mut self.rulesets[r];
            let scores: Vec<i128> = o.seats.iter().map(|s| s.total as i128 * unit).collect();
            let lucks: Vec<i128> = (0..scores.len()).map(|q| l.points[q] as i128).collect();
            for (q, j) in acc.seats.iter_mut().enumerate().take(scores.len()) {
                j.push(scores[q], lucks[q]);
            }
            if scores.len() > 1 {
                for q in 0..scores.len() {
                    acc.margin.push(margin(&scores, q), margin(&lucks, q));
                }
            }
        }
        let win_unit = WIN_UNIT as i128;
        for p in &mut self.pairs {
            let (oa, ob) = (&outcomes[p.a], &outcomes[p.b]);
            let (la, lb) = (&luck[p.a], &luck[p.b]);
            for q in 0..p.score.len().min(oa.seats.len()) {
                let dx = (ob.seats[q].total as i128 - oa.seats[q].total as i128) * unit;
                let dy = lb.points[q] as i128 - la.points[q] as i128;
                p.score[q].push(dx, dy);
                let won = |o: &GameOutcome| o.winners.contains(&(q as u8)) as i128;
                let wx = (won(ob) - won(oa)) * win_unit;
                let wy = lb.wins[q] as i128 - la.wins[q] as i128;
                p.wins[q].push(wx, wy);
            }
        }
    }

    /// Pools `other` (a shard, a resumed part) into `self`.
    pub fn merge(&mut self, other: &LuckAcc) -> Result<(), String> {
        if other.is_empty() {
            return Ok(());
        }
        if self.is_empty() {
            *self = other.clone();
            return Ok(());
        }
        if self.rulesets.len() != other.rulesets.len() || self.pairs.len() != other.pairs.len() {
            return Err("accumulator.luck: the parts measured different rulesets".into());
        }
        self.games += other.games;
        for (a, b) in self.rulesets.iter_mut().zip(&other.rulesets) {
            if a.seats.len() != b.seats.len() {
                return Err("accumulator.luck: the parts have different seats".into());
            }
            for (x, y) in a.seats.iter_mut().zip(&b.seats) {
                x.merge(y);
            }
            a.margin.merge(&b.margin);
        }
        for (a, b) in self.pairs.iter_mut().zip(&other.pairs) {
            if (a.a, a.b) != (b.a, b.b) || a.score.len() != b.score.len() {
                return Err("accumulator.luck: the parts have different pairs".into());
            }
            for (x, y) in a.score.iter_mut().zip(&b.score) {
                x.merge(y);
            }
            for (x, y) in a.wins.iter_mut().zip(&b.wins) {
                x.merge(y);
            }
        }
        Ok(())
    }

    /// Checks the counts agree: every joint of a non-empty aggregate counts its seeds.
    pub fn check_shape(&self, rulesets: usize, players: u8) -> Result<(), String> {
        if self.is_empty() {
            return Ok(());
        }
        let seats = players as usize;
        if self.rulesets.len() != rulesets || self.pairs.len() != rulesets * (rulesets - 1) / 2 {
            return Err(format!(
                "accumulator.luck has {} rulesets and {} pairs for a run of {rulesets} rulesets",
                self.rulesets.len(),
                self.pairs.len()
            ));
        }
        let counts = self.rulesets.iter().flat_map(|r| r.seats.iter()).chain(
            self.pairs
                .iter()
                .flat_map(|p| p.score.iter().chain(&p.wins)),
        );
        for j in counts {
            if j.x.n != self.games || j.y.n != self.games {
                return Err(format!(
                    "accumulator.luck counts {} games but a seat's sums count {}",
                    self.games, j.x.n
                ));
            }
        }
        if self.rulesets.iter().any(|r| r.seats.len() != seats)
            || self
                .pairs
                .iter()
                .any(|p| p.score.len() != seats || p.wins.len() != seats)
        {
            return Err(format!("accumulator.luck does not have {players} seats"));
        }
        Ok(())
    }
}

/// A [`Controlled`] estimate rescaled from fixed point (`unit` per reported unit).
fn rescale(c: Controlled, unit: f64) -> Controlled {
    Controlled {
        raw: c.raw.scaled(1.0 / unit),
        corrected: c.corrected.scaled(1.0 / unit),
        beta: c.beta,
        variance_ratio: c.variance_ratio,
        explained: c.explained,
    }
}

/// One seat's luck-corrected shifts in a pair (B − A), raw beside corrected.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatLuck {
    /// Score shift in points, raw, with its interval.
    pub score_shift: MeanCi,
    /// The same with the tile luck taken out (control variate, [`Joint::controlled`]).
    pub corrected_score_shift: MeanCi,
    /// How many raw games one corrected game is worth for the score shift:
    /// `(n − 2)/(n − 1) · 1/(1 − ρ²)` ([`Controlled::variance_ratio`]).
    pub variance_ratio: f64,
    /// The fitted coefficient of the luck shift.
    pub beta: f64,
    /// Win-rate shift in percentage points, raw, with its interval…
    pub win_shift_pp: MeanCi,
    /// …and with the win-chance luck taken out.
    pub corrected_win_shift_pp: MeanCi,
    pub win_variance_ratio: f64,
}

impl SeatLuck {
    fn new(score: Controlled, win: Controlled) -> SeatLuck {
        SeatLuck {
            score_shift: score.raw,
            corrected_score_shift: score.corrected,
            variance_ratio: score.variance_ratio,
            beta: score.beta,
            win_shift_pp: win.raw,
            corrected_win_shift_pp: win.corrected,
            win_variance_ratio: win.variance_ratio,
        }
    }
}

/// One pair's luck-corrected shifts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairLuckSummary {
    pub a: usize,
    pub b: usize,
    /// Per seat; `None` with fewer than three seeds.
    pub seats: Vec<Option<SeatLuck>>,
}

/// One ruleset's luck figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RulesetLuckSummary {
    /// Per seat: the mean luck in points with its interval (0 expected: unbiasedness).
    pub mean_luck: Vec<MeanCi>,
    /// The share of the score margin's variance the luck margin explains (`corr²`).
    pub luck_share: Option<f64>,
}

/// The luck figures of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LuckSummary {
    pub games: u64,
    pub rulesets: Vec<RulesetLuckSummary>,
    pub pairs: Vec<PairLuckSummary>,
}

/// The figures of `acc`, or `None` when it measured no luck.
pub fn luck_summary(acc: &LuckAcc) -> Option<LuckSummary> {
    if acc.is_empty() {
        return None;
    }
    let rulesets = acc
        .rulesets
        .iter()
        .map(|r| RulesetLuckSummary {
            mean_luck: r
                .seats
                .iter()
                .map(|j| j.y.mean_ci().scaled(1.0 / POINT_UNIT))
                .collect(),
            luck_share: r.margin.correlation().map(|c| c * c),
        })
        .collect();
    let pairs = acc
        .pairs
        .iter()
        .map(|p| PairLuckSummary {
            a: p.a,
            b: p.b,
            seats: p
                .score
                .iter()
                .zip(&p.wins)
                .map(|(s, w)| {
                    let score = s.controlled().map(|c| rescale(c, POINT_UNIT))?;
                    let win = w.controlled().map(|c| rescale(c, WIN_UNIT / 100.0))?;
                    Some(SeatLuck::new(score, win))
                })
                .collect(),
        })
        .collect();
    Some(LuckSummary {
        games: acc.games,
        rulesets,
        pairs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::compare::outcome_with_totals as game;

    fn luck(points: &[f64]) -> Luck {
        let mut l = Luck::default();
        for (q, &p) in points.iter().enumerate() {
            l.points[q] = (p * POINT_UNIT) as i64;
            l.wins[q] = (p / 100.0 * WIN_UNIT) as i64;
        }
        l
    }

    /// Scores that are a shift plus the luck: the correction recovers the shift exactly.
    #[test]
    fn a_shift_plus_pure_luck_is_recovered() {
        let mut acc = LuckAcc::default();
        for seed in 0..40i64 {
            let noise = ((seed * 37) % 23 - 11) as f64;
            let other = ((seed * 11) % 7 - 3) as f64;
            let a = game(&[60 + noise as i64 + seed % 2, 50]);
            let b = game(&[64 + other as i64, 50]);
            acc.add(&[a, b], &[luck(&[noise, 0.0]), luck(&[other, 0.0])]);
        }
        acc.check_shape(2, 2).expect("shape");
        let s = luck_summary(&acc).expect("measured");
        let seat = s.pairs[0].seats[0].clone().expect("enough games");
        // B − A = 4 + (other − noise) − [seed odd]: the luck explains all but the last term
        assert!(
            (seat.corrected_score_shift.mean - 3.5).abs() < 0.2,
            "{seat:?}"
        );
        assert!(seat.variance_ratio > 20.0, "{}", seat.variance_ratio);
        let width = |c: MeanCi| c.ci.map_or(f64::NAN, |[l, h]| h - l);
        assert!(width(seat.corrected_score_shift) * 5.0 < width(seat.score_shift));
    }

    #[test]
    fn merging_parts_is_adding_them_all() {
        let mut all = LuckAcc::default();
        let mut parts = [LuckAcc::default(), LuckAcc::default()];
        for seed in 0..30i64 {
            let a = game(&[seed % 9 + 40, 45, 30]);
            let b = game(&[seed % 5 + 41, 44, 31 + seed % 3]);
            let l = [
                luck(&[seed as f64 / 3.0, -1.0, 2.0]),
                luck(&[-(seed as f64) / 7.0, 0.5, 0.0]),
            ];
            all.add(&[a.clone(), b.clone()], &l);
            parts[(seed % 2) as usize].add(&[a, b], &l);
        }
        let [mut first, second] = parts;
        first.merge(&second).expect("same shape");
        assert_eq!(first, all);
        first.check_shape(2, 3).expect("shape");
        assert!(first.check_shape(2, 2).is_err());
    }
}
