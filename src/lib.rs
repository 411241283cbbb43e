//! meeplab: compare editions and house rules of Carcassonne by playing thousands of coupled
//! games under each ruleset.
//!
//! Data flows one way: rule text → [`dsl`] (AST, resolution, diagnostics) → [`ruleset::Ruleset`]
//! → [`engine`] (plays games, emits events) → [`compare`] / [`report`]. The engine never reads
//! files or prints; the command line (the `meeplab` binary) never scores.

pub mod compare;
pub mod dsl;
pub mod engine;
pub mod files;
pub mod import;
pub mod ladder;
pub mod play;
pub mod policy;
pub mod record;
pub mod render;
pub mod report;
pub mod rule_options;
pub mod ruleset;
pub mod sweep;
pub mod tiles;
