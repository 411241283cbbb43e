//! The greedy policy: values each option by what it brings the deciding player now (the
//! read-only valuations in `values.rs`) and takes the best, breaking ties with the decision's
//! keyed random draw so equal positions still get equal choices.
//!
//! - placement: points of features it completes that the player holds or can claim;
//! - follower: points if the feature is complete now, else half its current end value;
//! - tile pick (hands): the tile whose best placement brings the most points now;
//! - an expansion's decision: the value hint its module declares (`Game::value_hint`; e.g.
//!   the gold ingot on the tile the player controls most, the robber on the leader's space).

use super::values;
use crate::engine::rng;
use crate::engine::{Decision, DecisionKind, Game};

/// The best option (ties by the keyed draw); `values` is scratch space kept between calls.
#[inline]
pub(crate) fn choose(game: &Game, d: &Decision, values: &mut Vec<i64>) -> usize {
    choose_valued(game, d, values).0
}

/// The best option and its valuation (`None` for a forced decision, which is not valued).
pub(crate) fn choose_valued(
    game: &Game,
    d: &Decision,
    values: &mut Vec<i64>,
) -> (usize, Option<i64>) {
    if d.options <= 1 {
        return (0, None);
    }
    let placements =
        (d.kind == DecisionKind::PLACEMENT).then(|| values::Placements::new(game, d.player));
    let value = |i: usize| -> i64 {
        match d.kind {
            DecisionKind::PLACEMENT => placements.as_ref().map_or(0, |v| v.value(game, i)),
            DecisionKind::FOLLOWER => values::follower(game, i, d.player),
            DecisionKind::TILE_PICK => values::tile_pick(game, i, d.player),
            kind => game.value_hint(kind, i, d.player),
        }
    };
    values.clear();
    values.extend((0..d.options).map(value));
    let best = values.iter().copied().max().unwrap_or(0);
    let ties = values.iter().filter(|&&v| v == best).count();
    let k = rng::index(d.key, ties);
    let pick = values
        .iter()
        .enumerate()
        .filter(|(_, &v)| v == best)
        .nth(k)
        .map_or(0, |(i, _)| i);
    (pick, Some(best))
}
