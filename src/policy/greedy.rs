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
use crate::engine::{Decision, DecisionKind, SeatView};

/// The best option (ties by the keyed draw); `values` is scratch space kept between calls.
#[inline]
pub(crate) fn choose(game: &SeatView, d: &Decision, values: &mut Vec<i64>) -> usize {
    choose_valued(game, d, values).0
}

/// The best option and its valuation (`None` for a forced decision, which is not valued).
pub(crate) fn choose_valued(
    game: &SeatView,
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
    match d.kind {
        DecisionKind::PLACEMENT | DecisionKind::FOLLOWER | DecisionKind::TILE_PICK => {
            values.extend((0..d.options).map(value))
        }
        // every option's hint at once (exactly `value_hint` of each)
        kind => game.value_hints(kind, d.options, d.player, values),
    }
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

#[cfg(test)]
mod tests {
    use crate::engine::{compile, rng, DecisionKind, Game, NoEvents, Pending};
    use std::path::Path;

    /// `value_hints` is exactly `value_hint` of every option, for every expansion decision
    /// met in keyed random games of the whole BC&B with a large raise limit (bids of 41
    /// options) and of Gold Mines (issue 43: the hints of a bid are computed at once).
    #[test]
    fn value_hints_are_the_hint_of_every_option() {
        let text = "ruleset \"t\"\nextends \"bcb-c2.rules\"\nbazaars.raise_limit = 40\n";
        let bcb = crate::dsl::load_ruleset_str("t.rules", text).unwrap_or_else(|d| panic!("{d}"));
        let gold = crate::dsl::load_ruleset(Path::new("rulesets/goldmines-hig-2012.rules"))
            .unwrap_or_else(|d| panic!("{d}"));
        let mut seen = 0;
        for rules in [bcb.ruleset, gold.ruleset] {
            let c = compile(&rules);
            for seed in 0..6 {
                let mut g = Game::new(c.clone(), seed, 4);
                g.setup(&mut NoEvents);
                let mut hints = Vec::new();
                loop {
                    match g.pending() {
                        Pending::Decision(d) => {
                            let core = [
                                DecisionKind::PLACEMENT,
                                DecisionKind::FOLLOWER,
                                DecisionKind::TILE_PICK,
                            ];
                            if !core.contains(&d.kind) {
                                hints.clear();
                                g.value_hints(d.kind, d.options, d.player, &mut hints);
                                let one: Vec<i64> = (0..d.options)
                                    .map(|i| g.value_hint(d.kind, i, d.player))
                                    .collect();
                                assert_eq!(hints, one, "{:?}", d.kind);
                                seen += 1;
                            }
                            let i = rng::index(d.key, d.options);
                            g.apply_unchecked(i);
                        }
                        Pending::Draw => {
                            if !g.draw(&mut NoEvents) {
                                g.finish_now(&mut NoEvents);
                            }
                        }
                        Pending::End => break,
                    }
                }
            }
        }
        assert!(seen > 50, "expansion decisions met: {seen}");
    }
}
