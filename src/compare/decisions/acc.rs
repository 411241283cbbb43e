//! The exact, mergeable aggregate of the decision probes: integers only (counts and
//! [`Moments`]), merged field by field, so the aggregate of any partition of the positions —
//! threads, batches, `--shard` — is the aggregate of the whole. Examples are the rule-changed
//! positions with the lowest indices, the same whatever the partition.

use super::capture::{Skip, Stage};
use super::probe::PairProbe;
use crate::compare::stats::Moments;
use crate::engine::{Choice, DecisionKind};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Example positions kept per pair.
pub const DECISION_EXAMPLES: usize = 3;

/// Counts over a set of probed positions.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub probed: u64,
    /// Positions where the two rulesets led to different choices (the same key).
    pub rule_changed: u64,
    /// Σ over positions of the sides whose salted key led elsewhere (A vs A′, B vs B′: 0 to
    /// 2 a position): the null, in half-positions.
    pub null_changed: u64,
    /// Σ over positions of the crossings that differ with the rule and the luck redrawn
    /// (A vs B′, A′ vs B: 0 to 2 a position), in half-positions.
    #[serde(default)]
    pub rule_luck_changed: u64,
    /// Per position, rule-with-luck changed − null changed (−2 to 2): twice the paired excess.
    pub excess: Moments,
}

impl Tally {
    fn push(&mut self, rule: bool, rule_luck: u8, null: u8) {
        self.probed += 1;
        self.rule_changed += u64::from(rule);
        self.null_changed += u64::from(null);
        self.rule_luck_changed += u64::from(rule_luck);
        self.excess.push(i64::from(rule_luck) - i64::from(null));
    }

    fn merge(&mut self, other: &Tally) {
        // saturating: only an edited aggregate gets near u64::MAX, and `check` then fails
        self.probed = self.probed.saturating_add(other.probed);
        self.rule_changed = self.rule_changed.saturating_add(other.rule_changed);
        self.null_changed = self.null_changed.saturating_add(other.null_changed);
        self.rule_luck_changed = self
            .rule_luck_changed
            .saturating_add(other.rule_luck_changed);
        self.excess.merge(&other.excess);
    }

    fn check(&self, path: &str) -> Result<(), String> {
        if self.excess.n != self.probed {
            return Err(format!(
                "{path}.excess.n is {} but {path}.probed is {}",
                self.excess.n, self.probed
            ));
        }
        for (what, n, most) in [
            ("rule_changed", self.rule_changed, self.probed),
            (
                "null_changed",
                self.null_changed,
                self.probed.saturating_mul(2),
            ),
            (
                "rule_luck_changed",
                self.rule_luck_changed,
                self.probed.saturating_mul(2),
            ),
        ] {
            if n > most {
                return Err(format!(
                    "{path}.{what} is {n}, more than the positions probed allow ({most})"
                ));
            }
        }
        let sum = self.rule_luck_changed as i128 - self.null_changed as i128;
        if !self.excess.overflow && self.excess.sum != sum {
            return Err(format!(
                "{path}.excess.sum is {} but rule_luck_changed − null_changed is {sum}",
                self.excess.sum
            ));
        }
        Ok(())
    }
}

/// The first (lowest-position) case of a skip reason, in words.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkipNote {
    pub position: u64,
    pub detail: String,
}

/// A position where the rule changed the decision: what a report shows, and what rebuilds it
/// (replay `seed` under the host ruleset with the run's seats; [`super::ProbeTarget::new`]
/// with `position` and [`super::play_capturing`] catch the same position).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DecisionExample {
    pub position: u64,
    /// The game's seed (the game index is `position`).
    pub seed: u64,
    pub host: usize,
    pub stage: Stage,
    pub turn: u32,
    /// The decision's place among its turn's decisions (0 = the first).
    pub step: usize,
    pub kind: DecisionKind,
    pub player: u8,
    pub choice_a: Choice,
    pub choice_b: Choice,
    /// The policy's values of the two choices in thousandths, where it has them.
    pub value_a_milli: Option<i64>,
    pub value_b_milli: Option<i64>,
}

/// Thousandths, rounded (values no policy produces saturate).
fn milli(v: f64) -> i64 {
    (v * 1000.0).round() as i64
}

/// Everything accumulated for one pair `(a, b)`, `a < b`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairDecisions {
    pub a: usize,
    pub b: usize,
    /// Positions considered: probed plus skipped.
    pub positions: u64,
    /// Skipped positions by [`super::SkipReason::name`].
    pub skipped: BTreeMap<String, u64>,
    /// The lowest-position case of each skip reason.
    pub skip_notes: BTreeMap<String, SkipNote>,
    pub all: Tally,
    /// By [`DecisionKind::name`].
    pub by_kind: BTreeMap<String, Tally>,
    /// By [`Stage::name`].
    pub by_stage: BTreeMap<String, Tally>,
    /// Value under b − value under a, in thousandths (positions the policy values under both).
    pub value_shift_milli: Moments,
    /// Up to [`DECISION_EXAMPLES`] rule-changed positions, lowest position first.
    pub examples: Vec<DecisionExample>,
}

impl PairDecisions {
    fn add(&mut self, p: &PairProbe) {
        self.positions += 1;
        let probed = match &p.result {
            Err(skip) => {
                self.skip(p.target.position, skip);
                return;
            }
            Ok(probed) => probed,
        };
        let (rule, rule_luck, null) = (
            probed.rule_changed(),
            probed.rule_luck_changed(),
            probed.null_changed(),
        );
        self.all.push(rule, rule_luck, null);
        self.by_kind
            .entry(probed.kind.name().to_string())
            .or_default()
            .push(rule, rule_luck, null);
        self.by_stage
            .entry(p.target.stage.name().to_string())
            .or_default()
            .push(rule, rule_luck, null);
        if let Some(shift) = probed.value_shift() {
            self.value_shift_milli.push(milli(shift));
        }
        if rule {
            self.examples.push(DecisionExample {
                position: p.target.position,
                seed: p.target.seed,
                host: p.target.host,
                stage: p.target.stage,
                turn: p.target.turn,
                step: probed.step,
                kind: probed.kind,
                player: probed.player,
                choice_a: probed.choice_a,
                choice_b: probed.choice_b,
                value_a_milli: probed.value_a.map(milli),
                value_b_milli: probed.value_b.map(milli),
            });
            keep_lowest(&mut self.examples);
        }
    }

    fn skip(&mut self, position: u64, skip: &Skip) {
        let key = skip.reason.name().to_string();
        *self.skipped.entry(key.clone()).or_default() += 1;
        let note = SkipNote {
            position,
            detail: skip.detail.clone(),
        };
        note_lowest(&mut self.skip_notes, key, note);
    }

    fn merge(&mut self, other: &PairDecisions) {
        self.positions = self.positions.saturating_add(other.positions);
        for (k, n) in &other.skipped {
            let count = self.skipped.entry(k.clone()).or_default();
            *count = count.saturating_add(*n);
        }
        for (k, note) in &other.skip_notes {
            note_lowest(&mut self.skip_notes, k.clone(), note.clone());
        }
        self.all.merge(&other.all);
        for (k, t) in &other.by_kind {
            self.by_kind.entry(k.clone()).or_default().merge(t);
        }
        for (k, t) in &other.by_stage {
            self.by_stage.entry(k.clone()).or_default().merge(t);
        }
        self.value_shift_milli.merge(&other.value_shift_milli);
        self.examples.extend(other.examples.iter().cloned());
        keep_lowest(&mut self.examples);
    }

    fn check(&self, path: &str, games: u64) -> Result<(), String> {
        if self.positions > games {
            return Err(format!(
                "{path}.positions is {}, more than the games ({games})",
                self.positions
            ));
        }
        let skipped = self
            .skipped
            .values()
            .try_fold(0u64, |sum, &n| sum.checked_add(n))
            .ok_or_else(|| format!("{path}.skipped: the counts overflow"))?;
        if skipped.checked_add(self.all.probed) != Some(self.positions) {
            return Err(format!(
                "{path}: {} probed and {skipped} skipped make {}, not the {} positions",
                self.all.probed,
                skipped.saturating_add(self.all.probed),
                self.positions
            ));
        }
        if let Some(k) = self
            .skip_notes
            .keys()
            .find(|k| !self.skipped.contains_key(*k))
        {
            return Err(format!("{path}.skip_notes has {k}, which nothing skipped"));
        }
        self.all.check(&format!("{path}.all"))?;
        for (name, parts) in [("by_kind", &self.by_kind), ("by_stage", &self.by_stage)] {
            let mut sum = Tally::default();
            for (k, t) in parts {
                t.check(&format!("{path}.{name}[{k}]"))?;
                sum.merge(t);
            }
            if (
                sum.probed,
                sum.rule_changed,
                sum.null_changed,
                sum.rule_luck_changed,
            ) != (
                self.all.probed,
                self.all.rule_changed,
                self.all.null_changed,
                self.all.rule_luck_changed,
            ) {
                return Err(format!("{path}.{name} does not add up to {path}.all"));
            }
        }
        if self.value_shift_milli.n > self.all.probed {
            return Err(format!(
                "{path}.value_shift_milli.n is {}, more than the positions probed",
                self.value_shift_milli.n
            ));
        }
        let mut sorted = self.examples.clone();
        keep_lowest(&mut sorted);
        if sorted != self.examples || self.examples.len() as u64 > self.all.rule_changed {
            return Err(format!(
                "{path}.examples are not the lowest rule-changed positions, in order"
            ));
        }
        Ok(())
    }
}

/// Keeps the [`DECISION_EXAMPLES`] lowest positions.
fn keep_lowest(list: &mut Vec<DecisionExample>) {
    list.sort_by_key(|e| e.position);
    list.dedup_by_key(|e| e.position);
    list.truncate(DECISION_EXAMPLES);
}

fn note_lowest(notes: &mut BTreeMap<String, SkipNote>, key: String, note: SkipNote) {
    match notes.get(&key) {
        Some(n) if n.position <= note.position => {}
        _ => {
            notes.insert(key, note);
        }
    }
}

/// The aggregate of the decision probes of a run: one [`PairDecisions`] per pair `a < b`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DecisionAcc {
    pub pairs: Vec<PairDecisions>,
}

impl DecisionAcc {
    /// An empty aggregate for a run of `rulesets` rulesets.
    pub fn new(rulesets: usize) -> DecisionAcc {
        let mut pairs = Vec::new();
        for a in 0..rulesets {
            for b in a + 1..rulesets {
                pairs.push(PairDecisions {
                    a,
                    b,
                    ..PairDecisions::default()
                });
            }
        }
        DecisionAcc { pairs }
    }

    /// Adds one position's probes (what [`super::probe_or_skip`] gives: one per pair).
    /// Probes of pairs this aggregate does not have are ignored.
    pub fn add(&mut self, probes: &[PairProbe]) {
        for p in probes {
            if let Some(pair) = self.pairs.iter_mut().find(|x| (x.a, x.b) == (p.a, p.b)) {
                pair.add(p);
            }
        }
    }

    /// Adds an aggregate of other positions (disjoint from this one's). An empty default
    /// aggregate takes the other's shape.
    ///
    /// # Errors
    /// When the two have different pairs.
    pub fn merge(&mut self, other: &DecisionAcc) -> Result<(), String> {
        if self.pairs.is_empty() {
            *self = other.clone();
            return Ok(());
        }
        if other.pairs.is_empty() {
            return Ok(());
        }
        let shape = |acc: &DecisionAcc| acc.pairs.iter().map(|p| (p.a, p.b)).collect::<Vec<_>>();
        if shape(self) != shape(other) {
            return Err(format!(
                "the decision aggregates have different pairs ({} and {})",
                self.pairs.len(),
                other.pairs.len()
            ));
        }
        for (a, b) in self.pairs.iter_mut().zip(&other.pairs) {
            a.merge(b);
        }
        Ok(())
    }

    /// Checks that this aggregate has the shape of a run of `rulesets` rulesets and at most
    /// `games` games (positions live in games), and that its counts agree with each other.
    /// The error names the first inconsistent field.
    pub fn check(&self, rulesets: usize, games: u64) -> Result<(), String> {
        let want = DecisionAcc::new(rulesets);
        if self.pairs.len() != want.pairs.len() {
            return Err(format!(
                "decisions.pairs has length {} but {rulesets} rulesets make {} pair(s)",
                self.pairs.len(),
                want.pairs.len()
            ));
        }
        let positions = self.pairs.first().map_or(0, |p| p.positions);
        for (i, (p, w)) in self.pairs.iter().zip(&want.pairs).enumerate() {
            let path = format!("decisions.pairs[{i}]");
            if (p.a, p.b) != (w.a, w.b) {
                return Err(format!(
                    "{path} is the pair ({}, {}) but should be ({}, {})",
                    p.a, p.b, w.a, w.b
                ));
            }
            if p.positions != positions {
                return Err(format!(
                    "{path}.positions is {} but decisions.pairs[0].positions is {positions}",
                    p.positions
                ));
            }
            p.check(&path, games)?;
        }
        Ok(())
    }
}
