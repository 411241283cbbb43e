//! Asking the level's policy about one caught position under every ruleset of the run: the
//! choice under each (the same [`Decision`], the position swapped onto each ruleset), and the
//! null — the host ruleset again with the player's own luck drawn anew
//! ([`crate::policy::salted`] with [`PLACEBO_SALT`]) — set against the host's own choice.
//! Choices are compared by meaning ([`Choice`]), not by option index.

use super::capture::{Captured, ProbeTarget, Skip, SkipReason};
use crate::engine::{Choice, Compiled, DecisionKind};
use crate::policy::{salted, Policy};
use crate::runner::Seats;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The salt of the null's decision key: the same position and rules, the player's own
/// random draws (tie-breaks, a search's determinizations) drawn anew.
pub const PLACEBO_SALT: u64 = 0x4E55_4C4C;

/// What the policy did at a probed position for one pair of rulesets.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Probed {
    pub kind: DecisionKind,
    /// The deciding seat.
    pub player: u8,
    pub options: usize,
    /// The decision's place among its turn's decisions (0 = the first).
    pub step: usize,
    pub choice_a: Choice,
    pub choice_b: Choice,
    /// The policy's own value of its choice under each ruleset, where it has one
    /// ([`Policy::choose_valued`]).
    pub value_a: Option<f64>,
    pub value_b: Option<f64>,
    /// The host ruleset's choice, and its choice with the key salted (the null).
    pub null_host: Choice,
    pub null_salted: Choice,
}

impl Probed {
    /// The two rulesets led the policy to different choices.
    pub fn rule_changed(&self) -> bool {
        self.choice_a != self.choice_b
    }

    /// The salted key led the policy elsewhere under the host ruleset.
    pub fn null_changed(&self) -> bool {
        self.null_host != self.null_salted
    }

    /// Value under `b` minus value under `a`, when the policy values both.
    pub fn value_shift(&self) -> Option<f64> {
        Some(self.value_b? - self.value_a?)
    }
}

/// One position probed for one pair `(a, b)`, `a < b`, or why it was skipped.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairProbe {
    pub a: usize,
    pub b: usize,
    pub target: ProbeTarget,
    pub result: Result<Probed, Skip>,
}

/// The policy's choice under one ruleset.
struct Chosen {
    choice: Choice,
    value: Option<f64>,
}

/// Probes `captured` for every pair of `all_rules` (the run's rulesets, in order; the host is
/// `captured.target.host`), with the run's seat policies: one [`PairProbe`] per pair `a < b`
/// in lexicographic order. Costs one decision of the policy per ruleset plus one (the null).
pub fn probe(captured: &Captured, all_rules: &[Arc<Compiled>], seats: Seats) -> Vec<PairProbe> {
    let kind = captured.kind();
    let player = captured.at.decision.player;
    let chosen: Vec<Result<(Chosen, Option<Choice>), Skip>> = all_rules
        .iter()
        .enumerate()
        .map(|(r, rules)| {
            let (g, d) = captured.position_under(rules)?;
            let mut policy = Policy::new(seats.of(player));
            let (i, value) = policy.choose_valued(&g, &d);
            let null = (r == captured.target.host).then(|| {
                let j = Policy::new(seats.of(player)).choose_valued(&g, &salted(&d, PLACEBO_SALT));
                g.choice(d.kind, j.0)
            });
            Ok((
                Chosen {
                    choice: g.choice(kind, i),
                    value,
                },
                null,
            ))
        })
        .collect();
    let host = chosen
        .get(captured.target.host)
        .and_then(|c| c.as_ref().ok());
    let mut out = Vec::new();
    for a in 0..all_rules.len() {
        for b in a + 1..all_rules.len() {
            let result = match (&chosen[a], &chosen[b], host) {
                (Err(skip), _, _) | (_, Err(skip), _) => Err(skip.clone()),
                (Ok((ca, _)), Ok((cb, _)), Some((ch, Some(salted)))) => Ok(Probed {
                    kind,
                    player,
                    options: captured.at.decision.options,
                    step: captured.before.len(),
                    choice_a: ca.choice,
                    choice_b: cb.choice,
                    value_a: ca.value,
                    value_b: cb.value,
                    null_host: ch.choice,
                    null_salted: *salted,
                }),
                // the host's own rebuild failed (never for a position it played)
                _ => match chosen.get(captured.target.host) {
                    Some(Err(skip)) => Err(skip.clone()),
                    _ => Err(Skip {
                        reason: SkipReason::Parted,
                        detail: format!("no host ruleset #{}", captured.target.host),
                    }),
                },
            };
            out.push(PairProbe {
                a,
                b,
                target: captured.target,
                result,
            });
        }
    }
    out
}

/// Every pair of `rulesets` rulesets skipped for the same reason (a host game that gave no
/// position: [`super::capture::SkipReason::GameEnded`] or `NoChoice`).
pub fn skipped(target: &ProbeTarget, skip: &Skip, rulesets: usize) -> Vec<PairProbe> {
    let mut out = Vec::new();
    for a in 0..rulesets {
        for b in a + 1..rulesets {
            out.push(PairProbe {
                a,
                b,
                target: *target,
                result: Err(skip.clone()),
            });
        }
    }
    out
}

/// [`probe`] for a caught position, [`skipped`] for a game that gave none: what the run adds
/// to its [`super::DecisionAcc`] for position `target.position`.
pub fn probe_or_skip(
    caught: &Result<Captured, Skip>,
    target: &ProbeTarget,
    all_rules: &[Arc<Compiled>],
    seats: Seats,
) -> Vec<PairProbe> {
    match caught {
        Ok(c) => probe(c, all_rules, seats),
        Err(skip) => skipped(target, skip, all_rules.len()),
    }
}
