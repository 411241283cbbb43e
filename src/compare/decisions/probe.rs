//! Asking the level's policy about one caught position under every ruleset of the run: the
//! choice under each (the same [`Decision`] and key, the position swapped onto each ruleset),
//! and under each again with the player's own luck drawn anew ([`crate::policy::salted`] with
//! [`NULL_SALT`]). Per pair that gives the rule with the same luck (A against B), the luck
//! alone (A against A′, B against B′: the null) and the rule with the luck redrawn (A against
//! B′, A′ against B); the excess of the last over the null is fair at every level, since both
//! redraw the luck (at `greedy` most ties break differently once the luck is redrawn, while
//! the same key breaks them alike). Choices are compared by meaning ([`ChoiceId`]: the
//! [`Choice`], a follower's segment named by its place on the tile), not by option index
//! nor by a segment's index in its tile's list.

use super::capture::{Captured, ProbeTarget, Skip};
use crate::engine::{Choice, Compiled, DecisionKind, Game};
use crate::play::Seats;
use crate::policy::{salted, Policy};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The salt of the null's decision key: the same position and rules, the player's own
/// random draws (tie-breaks, a search's determinizations) drawn anew.
pub const NULL_SALT: u64 = 0x4E55_4C4C;

/// A choice as the comparison sees it: the [`Choice`], with a follower's segment (of the tile
/// just placed, or of a spot) named by its place on the tile ([`Game::segment_place`]) instead
/// of its index in the tile's list — two rulesets listing a tile's segments in another order
/// make the same physical choice alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChoiceId {
    pub choice: Choice,
    /// The segment's place, where the choice names a segment (its index then reads 0).
    pub place: Option<u64>,
}

impl ChoiceId {
    /// `c`, taken in `g`, by meaning.
    pub fn of(g: &Game, c: Choice) -> ChoiceId {
        match c {
            Choice::Follower {
                segment: Some(s),
                kind,
            } => match g.placed_tiles().last() {
                Some(t) => ChoiceId {
                    choice: Choice::Follower {
                        segment: Some(0),
                        kind,
                    },
                    place: Some(g.segment_place(t.x, t.y, s)),
                },
                None => ChoiceId {
                    choice: c,
                    place: None,
                },
            },
            Choice::Spot {
                at: Some((x, y, s)),
            } => ChoiceId {
                choice: Choice::Spot {
                    at: Some((x, y, 0)),
                },
                place: Some(g.segment_place(x, y, s)),
            },
            Choice::SpotOf {
                at: (x, y, s),
                kind,
            } => ChoiceId {
                choice: Choice::SpotOf {
                    at: (x, y, 0),
                    kind,
                },
                place: Some(g.segment_place(x, y, s)),
            },
            _ => ChoiceId {
                choice: c,
                place: None,
            },
        }
    }
}

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
    /// The choices under `a` and under `b` with the key salted (the luck redrawn).
    pub salted_a: Choice,
    pub salted_b: Choice,
    /// The four choices by meaning, as compared: `choice_a`, `choice_b`, `salted_a`,
    /// `salted_b`.
    pub ids: [ChoiceId; 4],
}

impl Probed {
    /// The two rulesets led the policy to different choices.
    pub fn rule_changed(&self) -> bool {
        self.ids[0] != self.ids[1]
    }

    /// How many of the two sides the salted key led elsewhere (A vs A′, B vs B′): the null,
    /// 0 to 2.
    pub fn null_changed(&self) -> u8 {
        let [a, b, a2, b2] = self.ids;
        u8::from(a != a2) + u8::from(b != b2)
    }

    /// How many of the two crossings differ with the rule and the luck redrawn (A vs B′,
    /// A′ vs B), 0 to 2.
    pub fn rule_luck_changed(&self) -> u8 {
        let [a, b, a2, b2] = self.ids;
        u8::from(a != b2) + u8::from(a2 != b)
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

/// The policy's choice under one ruleset, and with its key salted.
struct Chosen {
    choice: Choice,
    value: Option<f64>,
    salted: Choice,
    /// `choice` and `salted` by meaning.
    ids: [ChoiceId; 2],
}

/// Probes `captured` for every pair of `all_rules` (the run's rulesets, in order; the host is
/// `captured.target.host`), with the run's seat policies: one [`PairProbe`] per pair `a < b`
/// in lexicographic order. Costs two decisions of the policy per ruleset (its own key and
/// the salted one).
pub fn probe(captured: &Captured, all_rules: &[Arc<Compiled>], seats: Seats) -> Vec<PairProbe> {
    let kind = captured.kind();
    let player = captured.at.decision.player;
    let chosen: Vec<Result<Chosen, Skip>> = all_rules
        .iter()
        .map(|rules| {
            let (g, d) = captured.position_under(rules)?;
            let (i, value) = Policy::new(seats.of(player)).choose_valued(&g, &d);
            let (j, _) = Policy::new(seats.of(player)).choose_valued(&g, &salted(&d, NULL_SALT));
            let (choice, salted) = (g.choice(kind, i), g.choice(kind, j));
            Ok(Chosen {
                choice,
                value,
                salted,
                ids: [ChoiceId::of(&g, choice), ChoiceId::of(&g, salted)],
            })
        })
        .collect();
    let mut out = Vec::new();
    for a in 0..all_rules.len() {
        for b in a + 1..all_rules.len() {
            let result = match (&chosen[a], &chosen[b]) {
                (Err(skip), _) | (_, Err(skip)) => Err(skip.clone()),
                (Ok(ca), Ok(cb)) => Ok(Probed {
                    kind,
                    player,
                    options: captured.at.decision.options,
                    step: captured.before.len(),
                    choice_a: ca.choice,
                    choice_b: cb.choice,
                    value_a: ca.value,
                    value_b: cb.value,
                    salted_a: ca.salted,
                    salted_b: cb.salted,
                    ids: [ca.ids[0], cb.ids[0], ca.ids[1], cb.ids[1]],
                }),
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
