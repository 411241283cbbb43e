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
    let mut best = i64::MIN;
    let mut ties = 0usize;
    for i in 0..d.options {
        let v = value(i);
        if v > best {
            best = v;
            ties = 1;
        } else if v == best {
            ties += 1;
        }
    }
    let mut k = rng::index(d.key, ties);
    for i in 0..d.options {
        if value(i) == best {
            if k == 0 {
                return i;
            }
            k -= 1;
        }
    }
    0
}
