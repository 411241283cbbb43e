//! What the heuristic's evaluation makes of Gold Mines (`Valuation::value_holdings`,
//! `feature_share`): every ingot a seat holds or may still take is worth the rate the
//! ruleset's value formula gives at the holding the seat is expected to end with, and the
//! ingots in a feature's reach go to its majority by the ruleset's split.

use super::{Gold, GoldAtEnd, GoldRules, GoldSplit};
use crate::engine::game::Game;
use crate::engine::hooks::Holds;
use crate::ruleset::Vars;
use crate::tiles::FeatureKind;

/// Share of the gold still to come (on the board or on unseen gold tiles) that is handed out
/// before the game ends, for the expected final holdings the ingots are valued at: `mcts`
/// self-play handed out about two thirds of the 16 ingots under the HiG rules when this was
/// set (10.7; 11.8 since the block hazard, 12.3 with the search's own-points weight at 0.75).
const GOLD_CLAIM_RATE: f64 = 0.65;

/// The ingots each seat holds, valued (`held`), and the worth of one more (`rate`), with
/// `gold_tiles` unseen gold tiles still to come.
pub(super) fn value_holdings<X: Holds<Gold>>(
    g: &Game<X>,
    gold_tiles: u32,
    held: &mut [f64],
    rate: &mut [f64],
) {
    let Some(gold) = g.ext.state().config.as_deref() else {
        return;
    };
    let players = g.players() as usize;
    let value = |ingots: u32| {
        gold.value
            .eval(&Vars::default().with(super::INGOTS_HELD, ingots as i64)) as f64
    };
    // every ingot a player holds or may still take is worth the rate the value table gives
    // at the holding the player is expected to end with (exact once no gold is to come):
    // the table is convex, so the marginal worth of the current holding would value an
    // early ingot at a third of what it ends up paying
    let to_come = (g.ingots_on_board() + gold.ingots_per_tile as u32 * gold_tiles) as f64;
    for q in 0..players {
        let holds = g.ingots_held(q as u8);
        let expected = holds as f64 + to_come * GOLD_CLAIM_RATE / players as f64;
        let expected = expected.round().max(1.0) as u32;
        let r = value(expected) / expected as f64;
        held[q] = holds as f64 * r;
        rate[q] = r;
    }
}

/// The ingots one of `winners` takes from the gold in reach of the unfinished feature `root`
/// (a road's or city's tiles, a cloister's tile and the 8 around): it goes to the majority
/// when the feature closes (chance `closes`), or at the end by the ruleset's option, split
/// by the ruleset's rule.
pub(super) fn feature_share<X: Holds<Gold>>(
    g: &Game<X>,
    root: u32,
    kind: FeatureKind,
    closes: f64,
    winners: u8,
    tiles: &mut Vec<u32>,
) -> f64 {
    match g.ext.state().config.as_deref() {
        Some(gold) if g.ingots_on_board() > 0 && kind != FeatureKind::Field => {
            g.gold_area(root, tiles);
            let ingots: u32 = tiles.iter().map(|&t| g.ingots_on_tile(t as usize)).sum();
            let chance = if gold.at_end == GoldAtEnd::AwardIncomplete {
                1.0
            } else {
                closes
            };
            chance * share_of(gold, ingots, winners.count_ones())
        }
        _ => 0.0,
    }
}

/// Ingots one of `winners` tied majority holders takes from `ingots` in reach of a feature
/// they close, by the ruleset's split: the HiG draft shares them all (one at a time, round the
/// table); the RGG wording gives each scoring player one.
pub(super) fn share_of(gold: &GoldRules, ingots: u32, winners: u32) -> f64 {
    let winners = winners.max(1);
    match gold.split {
        GoldSplit::Draft { .. } => ingots as f64 / winners as f64,
        GoldSplit::OnePerFeature { .. } => ingots.min(winners) as f64 / winners as f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn gold_shares_follow_the_rulesets_split() {
        // rules.md §2.4–2.5: under the HiG draft tied majority holders take the ingots one at
        // a time until none are left (an even share); under the RGG wording each scoring
        // player takes one ingot per feature it scored
        let gold = |path: &str| {
            GoldRules::of(
                &crate::dsl::load_ruleset(Path::new(path))
                    .unwrap_or_else(|d| panic!("{d}"))
                    .ruleset,
            )
            .expect("a Gold Mines ruleset")
        };
        let hig = gold("rulesets/goldmines-hig-2012.rules");
        let rgg = gold("rulesets/goldmines-rgg.rules");
        assert!(matches!(hig.split, GoldSplit::Draft { .. }));
        assert!(matches!(rgg.split, GoldSplit::OnePerFeature { .. }));
        assert_eq!(share_of(&hig, 3, 1), 3.0);
        assert_eq!(share_of(&hig, 3, 2), 1.5);
        assert_eq!(share_of(&rgg, 3, 1), 1.0);
        assert_eq!(share_of(&rgg, 3, 2), 1.0);
        assert_eq!(
            share_of(&rgg, 1, 2),
            0.5,
            "one ingot for two: one of them gets it"
        );
    }
}
