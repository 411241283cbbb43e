//! Skill depth per ruleset: how much the better player gains under each ruleset.
//!
//! With `--skill STRONG,WEAK` every seed is also played in **duplicate format** under every
//! ruleset: one game per seat, the strong policy in that seat and the weak one in all the
//! others, the same deal (the seed's tile order) each time. Rotating the strong seat takes
//! the seat order out, and sharing the deal takes most of the tile luck out of the difference
//! between rulesets. Per seed and ruleset the duplicate set gives the strong side's wins
//! (ties count, as everywhere in compare) and its mean margin over the mean of the weak seats;
//! per ruleset these are averaged over seeds (win rate against the `1/players` of equal play),
//! and per pair of rulesets the per-seed differences give the paired shift with its interval
//! ("under B the strong policy wins 4 pp less often than under A").
//!
//! With the luck meter on, each duplicate game's strong-side luck margin is summed beside its
//! score margin, and the share of the margin's variance that the luck explains
//! (`corr(margin, luck)²`) says how much of a result under that ruleset is tile luck.
//!
//! Integer sums only (margins in points × `P − 1`, luck in thousandths of a point), merged by
//! addition: exact over threads, shards and resumes.

use super::stats::{Joint, MeanCi, Moments};
use crate::engine::GameOutcome;
use crate::policy::luck::Luck;
use serde::{Deserialize, Serialize};

/// The strong and the weak policy of a skill study, as given (canonical texts).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkillSpec {
    pub strong: String,
    pub weak: String,
}

/// One seed's duplicate set under one ruleset, reduced to integers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SkillSeed {
    /// Games of the set the strong seat won (shared wins count).
    pub wins: u32,
    /// Σ over the set of `(P − 1)·strong − Σ weak` (points).
    pub margin: i64,
    /// The same over the luck (thousandths of a point), when measured.
    pub luck_margin: Option<i64>,
    /// Games in the set (the number of seats).
    pub games: u32,
}

impl SkillSeed {
    /// The set from its games: `games[r]` has the strong policy in seat `r`.
    pub fn of(games: &[(GameOutcome, Option<Luck>)]) -> SkillSeed {
        let mut s = SkillSeed {
            games: games.len() as u32,
            luck_margin: Some(0),
            ..SkillSeed::default()
        };
        for (strong, (o, luck)) in games.iter().enumerate() {
            let players = o.seats.len() as i64;
            let total: i64 = o.seats.iter().map(|x| x.total).sum();
            let own = o.seats.get(strong).map_or(0, |x| x.total);
            s.margin += (players - 1) * own - (total - own);
            s.wins += o.winners.contains(&(strong as u8)) as u32;
            s.luck_margin = match (s.luck_margin, luck) {
                (Some(m), Some(l)) => {
                    let lucks = &l.points[..players as usize];
                    let sum: i64 = lucks.iter().sum();
                    Some(m + (players - 1) * lucks[strong] - (sum - lucks[strong]))
                }
                _ => None,
            };
        }
        s
    }
}

/// One ruleset's duplicate sets over the run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesetSkill {
    /// Per seed: the strong side's wins in its set.
    pub wins: Moments,
    /// Per seed with the luck measured: (Σ margin in points, Σ luck margin in thousandths of
    /// a point).
    pub margin: Joint,
    /// Per seed: Σ margin (every seed, luck or not).
    pub margin_all: Moments,
}

/// One pair's per-seed differences, B − A.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairSkill {
    pub a: usize,
    pub b: usize,
    pub wins: Moments,
    pub margin: Moments,
}

/// The duplicate sets of a run (empty without `--skill`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkillAcc {
    /// Seeds played in duplicate.
    pub games: u64,
    /// Games per set (the number of seats).
    pub set: u32,
    pub rulesets: Vec<RulesetSkill>,
    pub pairs: Vec<PairSkill>,
}

impl SkillAcc {
    pub fn is_empty(&self) -> bool {
        self.games == 0
    }

    fn new(rulesets: usize, set: u32) -> SkillAcc {
        let mut pairs = Vec::new();
        for a in 0..rulesets {
            for b in a + 1..rulesets {
                pairs.push(PairSkill {
                    a,
                    b,
                    ..PairSkill::default()
                });
            }
        }
        SkillAcc {
            games: 0,
            set,
            rulesets: vec![RulesetSkill::default(); rulesets],
            pairs,
        }
    }

    /// Adds one seed's sets, one per ruleset.
    pub fn add(&mut self, seeds: &[SkillSeed]) {
        let set = seeds.first().map_or(0, |s| s.games);
        if self.rulesets.len() != seeds.len() {
            *self = SkillAcc::new(seeds.len(), set);
        }
        self.games += 1;
        for (acc, s) in self.rulesets.iter_mut().zip(seeds) {
            acc.wins.push(s.wins as i64);
            acc.margin_all.push(s.margin);
            if let Some(l) = s.luck_margin {
                acc.margin.push(s.margin as i128, l as i128);
            }
        }
        for p in &mut self.pairs {
            let (a, b) = (&seeds[p.a], &seeds[p.b]);
            p.wins.push(b.wins as i64 - a.wins as i64);
            p.margin.push(b.margin - a.margin);
        }
    }

    pub fn merge(&mut self, other: &SkillAcc) -> Result<(), String> {
        if other.is_empty() {
            return Ok(());
        }
        if self.is_empty() {
            *self = other.clone();
            return Ok(());
        }
        if self.rulesets.len() != other.rulesets.len() || self.set != other.set {
            return Err("accumulator.skill: the parts played different duplicate sets".into());
        }
        self.games += other.games;
        for (a, b) in self.rulesets.iter_mut().zip(&other.rulesets) {
            a.wins.merge(&b.wins);
            a.margin.merge(&b.margin);
            a.margin_all.merge(&b.margin_all);
        }
        for (a, b) in self.pairs.iter_mut().zip(&other.pairs) {
            a.wins.merge(&b.wins);
            a.margin.merge(&b.margin);
        }
        Ok(())
    }

    pub fn check_shape(&self, rulesets: usize, players: u8) -> Result<(), String> {
        if self.is_empty() {
            return Ok(());
        }
        if self.rulesets.len() != rulesets || self.set != players as u32 {
            return Err(format!(
                "accumulator.skill has {} rulesets and sets of {} for a run of {rulesets} rulesets and {players} players",
                self.rulesets.len(),
                self.set
            ));
        }
        let n = self.games;
        let ok = self
            .rulesets
            .iter()
            .all(|r| r.wins.n == n && r.margin_all.n == n && r.margin.x.n <= n)
            && self.pairs.iter().all(|p| p.wins.n == n && p.margin.n == n);
        if !ok {
            return Err(format!(
                "accumulator.skill counts {n} seeds but a sum counts another number"
            ));
        }
        Ok(())
    }
}

/// One ruleset's skill depth.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RulesetSkillSummary {
    /// The strong side's win rate in per cent, with its interval over seeds.
    pub win_rate_pct: MeanCi,
    /// What equal play would give: `100 / players` per cent.
    pub even_pct: f64,
    /// The strong side's mean margin over the weak seats' mean, in points.
    pub margin: MeanCi,
    /// The share of the margin's variance the tile luck explains, when measured.
    pub luck_share: Option<f64>,
    /// Seeds with the luck measured.
    pub luck_games: u64,
}

/// One pair's paired differences, B − A.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairSkillSummary {
    pub a: usize,
    pub b: usize,
    /// Strong win rate under B minus under A, in percentage points.
    pub win_rate_pp: MeanCi,
    /// Strong margin under B minus under A, in points.
    pub margin: MeanCi,
}

/// The skill-depth figures of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SkillSummary {
    pub strong: String,
    pub weak: String,
    pub games: u64,
    pub per_ruleset: Vec<RulesetSkillSummary>,
    pub difference: Vec<PairSkillSummary>,
}

/// The figures of `acc` for the policies of `spec`, or `None` without duplicate games.
pub fn skill_summary(acc: &SkillAcc, spec: &SkillSpec) -> Option<SkillSummary> {
    if acc.is_empty() || acc.set == 0 {
        return None;
    }
    let set = acc.set as f64;
    // per seed: wins / set (a share) → per cent; margin / (set · (P − 1)) → points
    let win_k = 100.0 / set;
    let margin_k = 1.0 / (set * (set - 1.0).max(1.0));
    let per_ruleset = acc
        .rulesets
        .iter()
        .map(|r| RulesetSkillSummary {
            win_rate_pct: r.wins.mean_ci().scaled(win_k),
            even_pct: 100.0 / set,
            margin: r.margin_all.mean_ci().scaled(margin_k),
            luck_share: r.margin.correlation().map(|c| c * c),
            luck_games: r.margin.x.n,
        })
        .collect();
    let difference = acc
        .pairs
        .iter()
        .map(|p| PairSkillSummary {
            a: p.a,
            b: p.b,
            win_rate_pp: p.wins.mean_ci().scaled(win_k),
            margin: p.margin.mean_ci().scaled(margin_k),
        })
        .collect();
    Some(SkillSummary {
        strong: spec.strong.clone(),
        weak: spec.weak.clone(),
        games: acc.games,
        per_ruleset,
        difference,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::compare::outcome_with_totals as game;

    #[test]
    fn a_duplicate_set_counts_the_strong_seat_of_each_game() {
        // strong in seat 0 wins 70–50; strong in seat 1 loses 40–45
        let set = SkillSeed::of(&[(game(&[70, 50]), None), (game(&[45, 40]), None)]);
        assert_eq!(set.wins, 1);
        assert_eq!(set.margin, 20 - 5);
        assert_eq!(set.luck_margin, None);
        // three seats: strong in seat 2 scoring 30 against 10 and 20: margin 2·30 − 30
        let three = SkillSeed::of(&[
            (game(&[9, 9, 9]), None),
            (game(&[1, 2, 3]), None),
            (game(&[10, 20, 30]), None),
        ]);
        assert_eq!(
            three.wins, 2,
            "a three-way tie and the 30 win; the 3 of seat 1 loses"
        );
        // margins: 2·9 − 18 = 0; seat 1: 2·2 − 4 = 0; seat 2: 2·30 − 30 = 30
        assert_eq!(three.margin, 30);
    }

    #[test]
    fn rates_margins_and_paired_differences() {
        let spec = SkillSpec {
            strong: "heuristic".into(),
            weak: "random".into(),
        };
        let mut acc = SkillAcc::default();
        let mut parts = [SkillAcc::default(), SkillAcc::default()];
        for seed in 0..10 {
            // A: strong wins both games by 10; B: strong wins one game, margins 10 and −4
            let a = SkillSeed::of(&[(game(&[60, 50]), None), (game(&[50, 60]), None)]);
            let b = SkillSeed::of(&[(game(&[60, 50 + seed % 2]), None), (game(&[64, 60]), None)]);
            acc.add(&[a, b]);
            parts[seed as usize % 2].add(&[a, b]);
        }
        let [mut first, second] = parts;
        first.merge(&second).expect("same sets");
        assert_eq!(first, acc);
        acc.check_shape(2, 2).expect("shape");
        let s = skill_summary(&acc, &spec).expect("played");
        assert!((s.per_ruleset[0].win_rate_pct.mean - 100.0).abs() < 1e-9);
        assert!((s.per_ruleset[1].win_rate_pct.mean - 50.0).abs() < 1e-9);
        assert!((s.per_ruleset[0].margin.mean - 10.0).abs() < 1e-9);
        assert!((s.difference[0].win_rate_pp.mean + 50.0).abs() < 1e-9);
        assert_eq!(s.per_ruleset[0].even_pct, 50.0);
    }
}
