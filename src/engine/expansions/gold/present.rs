//! What the Gold Mines add to the output besides the turn log: the ingot accounting of
//! `play --json` (`Expansion::game_json`).

use super::{INGOTS, INGOTS_ON_BOARD, INGOTS_REMOVED, INGOT_PLACED};
use crate::engine::event::Event;
use crate::engine::outcome::GameOutcome;
use crate::ruleset::Ruleset;
use serde_json::json;

/// The `"gold"` block of `play --json`: the ingot accounting from the events, in which every
/// ingot placed is held, was removed unclaimed during play, or was left on the board at the
/// end. Written for every ruleset (zeros without gold tiles), as it always was.
pub(super) fn game_json(
    rules: &Ruleset,
    outcome: &GameOutcome,
    events: &[Event],
) -> serde_json::Value {
    let gold_tiles = events
        .iter()
        .filter(|e| matches!(e, Event::Placed { tile, .. } if rules.tiles[*tile as usize].gold))
        .count();
    let placed = events
        .iter()
        .filter(|e| e.of(INGOT_PLACED).is_some())
        .count() as u32;
    let removed: u32 = events
        .iter()
        .filter_map(|e| e.of(INGOTS_REMOVED).map(|v| v[3] as u32))
        .sum();
    let held: u32 = outcome.seats.iter().map(|s| s.counts.get(INGOTS)).sum();
    let left = outcome.counters.get(INGOTS_ON_BOARD);
    let removed_in_play = removed.saturating_sub(left);
    json!({
        "gold_tiles_placed": gold_tiles,
        "ingots_placed": placed,
        "ingots_held": held,
        "ingots_removed_unclaimed": removed_in_play,
        "ingots_left_at_end": left,
        "conserved": held + removed == placed,
    })
}
