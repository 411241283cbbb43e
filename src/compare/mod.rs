//! Coupled multi-ruleset runs: divergence detection, paired statistics, sharding and merging.
//!
//! Flow: [`spec::CompareSpec`] → [`run::run_compare`] (plays seeds via an injected closure,
//! folds an exact integer [`accumulate::Accumulator`]) → [`summary::summarize`] (floats,
//! intervals) → [`crate::report`] writers. [`output`] is the front door that does all of it
//! into a directory, and merges shard directories. [`tree`] builds the divergence tree of one
//! seed for `meeplab trace`.

pub mod accumulate;
pub mod output;
pub mod paired;
pub mod run;
pub mod seeds;
pub mod shard;
pub mod spec;
pub mod stats;
pub mod summary;
pub mod tree;

pub use accumulate::Accumulator;
pub use output::{compare_to_dir, merge_to_dir, OutputOptions, RunOutput};
pub use run::{run_compare, GameRecord};
pub use shard::{merge_shards, MergeError, Shard, ShardFile};
pub use spec::{CompareSpec, OptionInfo, RulesetInfo};
pub use summary::{summarize, Report};
pub use tree::{divergence_tree, DivergenceTree, TreeNode};
