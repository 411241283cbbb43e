//! The greedy policy: values each option by what it brings the deciding player now (the
//! read-only valuations in `values.rs`) and takes the best, breaking ties with the decision's
//! keyed random draw so equal positions still get equal choices.
//!
//! - placement: points of features it completes that the player holds or can claim;
//! - follower: points if the feature is complete now, else half its current end value;
//! - ingot placement: the neighbour tile whose features the player controls most;
//! - ingot pick: the most contested tile first (deny the others);
//! - robber: next to the leading other player; victim: the biggest scoring;
//! - crop circle: deploy when it has more followers of that type than anyone, else remove;
//! - tile pick (hands): the tile whose best placement brings the most points now.

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
        (d.kind == DecisionKind::Placement).then(|| values::Placements::new(game, d.player));
    let value = |i: usize| -> i64 {
        match d.kind {
            DecisionKind::Placement => placements.as_ref().map_or(0, |v| v.value(game, i)),
            DecisionKind::Follower => values::follower(game, i, d.player),
            DecisionKind::IngotPlace => values::ingot_place(game, i, d.player),
            DecisionKind::IngotPick => values::ingot_pick(game, i, d.player),
            DecisionKind::RobberPlace => values::robber_space(game, i, d.player),
            DecisionKind::RobberVictim => values::victim(game, i),
            DecisionKind::CropMode => values::crop_mode(game, i == 0, d.player),
            DecisionKind::CropDeploy => values::crop_spot(game, i, false),
            DecisionKind::CropRemove => values::crop_spot(game, i, true),
            DecisionKind::TilePick => values::tile_pick(game, i, d.player),
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
