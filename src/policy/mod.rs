//! Seeded player policies that pick among a decision's legal options. Every random draw comes
//! from the decision's key (seed, turn, player, decision kind, occurrence), so equal positions
//! get equal choices in every ruleset.
//!
//! - `random`: uniform over the legal options;
//! - `greedy`: maximises immediate points (including what its follower would score), ties
//!   broken by the keyed draw;
//! - `heuristic`: one move ahead (placement × follower) with a position evaluation that values
//!   unfinished features by their chance to close from the unseen tiles (see `heuristic`).

mod greedy;
mod heuristic;
pub mod spec;
mod values;

use crate::engine::rng;
use crate::engine::{Chooser, Decision, Game};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Which policy plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum PolicyKind {
    #[default]
    Random,
    Greedy,
    Heuristic,
}

impl PolicyKind {
    pub fn name(self) -> &'static str {
        match self {
            PolicyKind::Random => "random",
            PolicyKind::Greedy => "greedy",
            PolicyKind::Heuristic => "heuristic",
        }
    }
}

impl fmt::Display for PolicyKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for PolicyKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "random" => Ok(PolicyKind::Random),
            "greedy" => Ok(PolicyKind::Greedy),
            "heuristic" => Ok(PolicyKind::Heuristic),
            other => Err(format!(
                "unknown policy '{other}' (expected random, greedy or heuristic)"
            )),
        }
    }
}

/// A policy instance: its kind and scratch space (choices depend only on the position and
/// the decision's key).
#[derive(Clone, Debug)]
pub struct Policy {
    kind: PolicyKind,
    values: Vec<i64>,
    scratch: heuristic::Scratch,
}

impl Policy {
    pub fn new(kind: PolicyKind) -> Policy {
        Policy {
            kind,
            values: Vec::new(),
            scratch: heuristic::Scratch::default(),
        }
    }
}

impl Chooser for Policy {
    #[inline]
    fn choose(&mut self, game: &Game, d: &Decision) -> usize {
        match self.kind {
            PolicyKind::Random => rng::index(d.key, d.options),
            PolicyKind::Greedy => greedy::choose(game, d, &mut self.values),
            PolicyKind::Heuristic => heuristic::choose(game, d, &mut self.scratch),
        }
    }
}
