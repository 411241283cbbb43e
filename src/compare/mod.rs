//! Coupled multi-ruleset runs: divergence detection, paired statistics, sharding and merging.
