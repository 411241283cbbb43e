//! The greedy policy: values each option by what it brings the deciding player now (the
//! engine's read-only valuations in `engine::preview`) and takes the best, breaking ties with
//! the decision's keyed random draw so equal positions still get equal choices.
//!
//! - placement: points of features it completes that the player holds or can claim;
//! - follower: points if the feature is complete now, else half its current end value;
//! - ingot placement: the neighbour tile whose features the player controls most;
//! - ingot pick: the most contested tile first (deny the others);
//! - robber: next to the leading other player; victim: the biggest scoring;
//! - crop circle: deploy when it has more followers of that type than anyone, else remove.

use crate::engine::rng;
use crate::engine::{Decision, DecisionKind, Game};

pub(crate) fn choose(game: &Game, d: &Decision) -> usize {
    if d.options <= 1 {
        return 0;
    }
    let value = |i: usize| -> i64 {
        match d.kind {
            DecisionKind::Placement => game.value_placement(i, d.player),
            DecisionKind::Follower => game.value_follower(i, d.player),
            DecisionKind::IngotPlace => game.value_ingot_place(i, d.player),
            DecisionKind::IngotPick => game.value_ingot_pick(i, d.player),
            DecisionKind::RobberPlace => game.value_robber_space(i, d.player),
            DecisionKind::RobberVictim => game.value_victim(i),
            DecisionKind::CropMode => game.value_crop_mode(i == 0, d.player),
            DecisionKind::CropDeploy => game.value_crop_spot(i, false),
            DecisionKind::CropRemove => game.value_crop_spot(i, true),
        }
    };
    let values: Vec<i64> = (0..d.options).map(value).collect();
    let best = values.iter().copied().max().unwrap_or(0);
    let ties = values.iter().filter(|&&v| v == best).count();
    let k = rng::index(d.key, ties);
    values
        .iter()
        .enumerate()
        .filter(|(_, &v)| v == best)
        .nth(k)
        .map_or(0, |(i, _)| i)
}
