//! The robbers' invariant (`Expansion::check_invariants`): every robber on the board
//! stands on a space of the score track; and what a position under other rules needs of
//! them (`Expansion::cannot_hold`): a score track of the same length.

use super::{RobberRules, Robbers};
use crate::engine::compiled::Compiled;
use crate::engine::game::Game;
use crate::engine::hooks::Holds;

/// Each seat's robber, when out of the supply, stands on a space of the track.
pub(super) fn check<X: Holds<Robbers>>(g: &Game<X>) -> Result<(), String> {
    let Some(rb) = g.ext.state().config.as_deref() else {
        return Ok(());
    };
    for (p, space) in g.robbers().iter().enumerate() {
        if space.is_some_and(|s| s >= rb.track) {
            return Err(format!(
                "seat {p}'s robber is off the track of {}",
                rb.track
            ));
        }
    }
    Ok(())
}

/// A position's robbers stand on spaces of the track: the other rules need one as long.
pub(super) fn cannot_hold(from: &Compiled, to: &Compiled) -> Option<String> {
    let (a, b) = (&from.rules, &to.rules);
    match (RobberRules::of(a), RobberRules::of(b)) {
        (Some(ra), Some(rb)) if ra.track != rb.track => Some(format!(
            "the robbers' score tracks differ: {} spaces in {}, {} in {}",
            ra.track, a.name, rb.track, b.name
        )),
        _ => None,
    }
}
