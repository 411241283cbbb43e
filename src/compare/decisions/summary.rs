//! The decision probes in figures: per pair, the share of probed positions whose decision the
//! rule changed (the same key), the share the null changed (the player's own luck), the share
//! changed with the rule and the luck redrawn, the excess of the last over the null (the
//! rule's effect on play) with a 95 % Student t interval over the paired per-position
//! differences, the same by decision kind and by stage, the mean value shift, and the skips
//! with their reasons. A pure function of a [`DecisionAcc`].

use super::acc::{DecisionAcc, DecisionExample, PairDecisions, Tally};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The four figures of a set of probed positions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    pub positions: u64,
    /// Share whose decision differs between the two rulesets, the same key (0 when none was
    /// probed): every such change is the rule's.
    pub changed_share: f64,
    /// Share whose decision the salted key changed (A vs A′ and B vs B′, averaged): the
    /// player's own luck alone.
    pub placebo_changed_share: f64,
    /// Share whose decision differs with the rule and the luck redrawn (A vs B′ and A′ vs B,
    /// averaged).
    pub rule_luck_changed_share: f64,
    /// `rule_luck_changed_share − placebo_changed_share`: the rule's effect on decisions
    /// beyond the player's own luck.
    pub excess: f64,
    /// 95 % Student t interval of the excess, paired over positions (`None` below two).
    pub excess_ci: Option<[f64; 2]>,
}

impl Figures {
    fn of(t: &Tally) -> Figures {
        let share = |k: u64| {
            if t.probed == 0 {
                0.0
            } else {
                k as f64 / t.probed as f64
            }
        };
        let ci = t.excess.mean_ci();
        Figures {
            positions: t.probed,
            changed_share: share(t.rule_changed),
            placebo_changed_share: share(t.null_changed) / 2.0,
            rule_luck_changed_share: share(t.rule_luck_changed) / 2.0,
            excess: ci.mean / 2.0,
            excess_ci: ci.ci.map(|[lo, hi]| [lo / 2.0, hi / 2.0]),
        }
    }
}

/// A skip reason's count and its first case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Skipped {
    pub count: u64,
    /// The lowest position skipped for this reason, and what happened there.
    pub position: Option<u64>,
    pub detail: Option<String>,
}

/// The decision probes of one pair `(a, b)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DecisionSummary {
    pub a: usize,
    pub b: usize,
    /// Positions considered (probed plus skipped).
    pub considered: u64,
    /// Positions probed, and the figures over them.
    #[serde(flatten)]
    pub all: Figures,
    /// By decision kind (its name).
    pub by_kind: BTreeMap<String, Figures>,
    /// By stage (`early`, `middle`, `late`).
    pub by_stage: BTreeMap<String, Figures>,
    /// Mean of the policy's value under b minus under a (its own units: points for greedy
    /// and heuristic, mean reward for mcts), over the positions valued under both.
    pub mean_value_shift: Option<f64>,
    pub value_shift_ci: Option<[f64; 2]>,
    pub value_shifts: u64,
    /// Skipped positions by reason.
    pub skipped: BTreeMap<String, Skipped>,
    pub examples: Vec<DecisionExample>,
}

/// The summary of every pair, in the aggregate's order.
pub fn summarize_decisions(acc: &DecisionAcc) -> Vec<DecisionSummary> {
    acc.pairs.iter().map(summarize_pair).collect()
}

/// The summary of one pair.
pub fn summarize_pair(p: &PairDecisions) -> DecisionSummary {
    let shift = p.value_shift_milli.mean_ci();
    let milli = |x: f64| x / 1000.0;
    let valued = p.value_shift_milli.n;
    DecisionSummary {
        a: p.a,
        b: p.b,
        considered: p.positions,
        all: Figures::of(&p.all),
        by_kind: p
            .by_kind
            .iter()
            .map(|(k, t)| (k.clone(), Figures::of(t)))
            .collect(),
        by_stage: p
            .by_stage
            .iter()
            .map(|(k, t)| (k.clone(), Figures::of(t)))
            .collect(),
        mean_value_shift: (valued > 0).then(|| milli(shift.mean)),
        value_shift_ci: shift.ci.map(|[lo, hi]| [milli(lo), milli(hi)]),
        value_shifts: valued,
        skipped: p
            .skipped
            .iter()
            .map(|(k, &count)| {
                let note = p.skip_notes.get(k);
                (
                    k.clone(),
                    Skipped {
                        count,
                        position: note.map(|n| n.position),
                        detail: note.map(|n| n.detail.clone()),
                    },
                )
            })
            .collect(),
        examples: p.examples.clone(),
    }
}
