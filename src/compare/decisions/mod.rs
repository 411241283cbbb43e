//! The effect of a rule on decisions (design.md §7b): from positions sampled in the run's own
//! games, ask the level's policy for its choice under ruleset A and under ruleset B (the same
//! decision and key, the position swapped onto each), and under each again with a salted key.
//! The null is the player's own luck alone (A against A′, B against B′); the rule with the
//! luck redrawn is A against B′ and A′ against B. The excess share of changed decisions (rule
//! with luck − null) is the rule's effect on play, meaningful at every level.
//!
//! - [`capture`]: which position (`--positions N`: position `p` in game `p`) and catching it
//!   while the host game is played ([`play_capturing`], the same outcome as `play::play`);
//! - [`probe`]: the choices under every ruleset and the null ([`probe_or_skip`]);
//! - [`acc`]: the exact, mergeable aggregate ([`DecisionAcc`]);
//! - [`summary`]: the figures ([`DecisionSummary`]).

pub mod acc;
pub mod capture;
pub mod probe;
pub mod summary;

pub use acc::{DecisionAcc, DecisionExample, PairDecisions, SkipNote, Tally, DECISION_EXAMPLES};
pub use capture::{play_capturing, Captured, ProbeTarget, Skip, SkipReason, Stage, Step};
pub use probe::{probe, probe_or_skip, skipped, ChoiceId, PairProbe, Probed, NULL_SALT};
pub use summary::{summarize_decisions, summarize_pair, DecisionSummary, Figures, Skipped};

#[cfg(test)]
mod tests;
