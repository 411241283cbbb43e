//! Coupled multi-ruleset runs: divergence detection, paired statistics, sharding and merging.
//!
//! Flow: [`spec::CompareSpec`] → [`run::run_compare`] (plays seeds via an injected
//! [`run::SeedPlayer`] — a closure is one — with the same-rules [`placebo`], the decision
//! probes of [`decisions`], each game's tile [`luck`] and the duplicate games of a [`skill`]
//! study, and folds an exact integer [`accumulate::Accumulator`], [`balance`] figures included)
//! → [`summary::summarize`] (floats, intervals; [`power`] for the detectable shifts). The
//! aggregates are declared with the field-list macro of `aggregate` (merge and count checks
//! generated). Which seeds a run or a `--shard` plays is [`seeds`]'; merging shard files
//! [`shard`]'s; what a checkpoint holds and whether it continues a run [`checkpoint`]'s. A run
//! into an output folder — checkpoints, `--resume`, the merge of shard folders — is
//! [`session`]'s; the files' content (`games.csv`, the report, charts) comes from a
//! [`session::RunWriter`] the caller passes in (the report layer's), so this layer never
//! imports [`crate::report`]. [`forecast`] simulates a `--until` run's stop on a pilot's seeds
//! (`meeplab plan --until`). [`tree`] builds the divergence tree of one seed for
//! `meeplab trace`.

pub mod accumulate;
mod aggregate;
pub mod balance;
pub mod calibrate;
pub mod checkpoint;
pub mod coupled;
pub mod decisions;
pub mod forecast;
pub mod headline;
pub mod luck;
pub mod paired;
pub mod placebo;
pub mod power;
pub mod run;
pub mod seat_counts;
pub mod seeds;
pub mod session;
pub mod setup;
pub mod shard;
pub mod skill;
pub mod spec;
pub mod stats;
pub mod summary;
pub mod tree;
pub mod verdict;

pub use accumulate::Accumulator;
pub use coupled::CoupledPlayer;
pub use run::{run_compare, run_from, Ended, Flow, GameRecord, SeedPlayer, Start};
pub use seeds::Shard;
pub use shard::{merge_shards, MergeError, ShardFile};
pub use spec::{CompareSpec, OptionInfo, RulesetInfo};
pub use summary::{summarize, Report};
pub use tree::{divergence_tree, DivergenceTree, TreeNode};

/// A finished game with these totals, the top seats its winners (for tests).
#[cfg(test)]
pub(crate) fn outcome_with_totals(scores: &[i64]) -> crate::engine::GameOutcome {
    let best = scores.iter().copied().max().unwrap_or(0);
    crate::engine::GameOutcome {
        seats: scores
            .iter()
            .map(|&t| crate::engine::SeatResult {
                total: t,
                ..Default::default()
            })
            .collect(),
        winners: (0..scores.len() as u8)
            .filter(|&s| scores[s as usize] == best)
            .collect(),
        ..Default::default()
    }
}
