//! What the replay of a BC&B save asks: a bought tile's turn, the auction's tiles drawn from
//! JCloisterZone's pack, and why a bridge is illegal.

use crate::engine::expansions::bridges;
use crate::engine::{Choice, Chooser, EventSink, Game, TakenDecision};
use crate::import::jcz::{PackDraws, Translated};
use crate::ruleset::{Ruleset, TileIdx};

/// A recorded decision for `rules`: a tile chosen at a bazaar named by id (tile indices differ
/// between rulesets).
pub fn for_rules(tr: &Translated, rules: &Ruleset, d: &TakenDecision) -> TakenDecision {
    let mut d = d.clone();
    if let Choice::Tile { tile } = d.choice {
        if let Some(id) = tr.draws.iter().find(|x| x.tile == tile).map(|x| &x.id) {
            if let Some(t) = rules.tile_index(id) {
                d.choice = Choice::Tile { tile: t };
            }
        }
    }
    d
}

/// Play recorded turn `k` (draw `k` of `tr`): with bazaars in play the engine's pack holds
/// exactly the auction that follows the turn in the save (none: empty), and a bought tile
/// is the one the engine hands its buyer.
pub fn play<C: Chooser, S: EventSink>(
    game: &mut Game,
    tr: &Translated,
    k: usize,
    tile: TileIdx,
    player: u8,
    c: &mut C,
    s: &mut S,
) -> Result<(), String> {
    let r = &game.rules().rules;
    if !r.ext_in_play("bazaars.") {
        return game.play_tile(tile, player, c, s);
    }
    let supply: Vec<TileIdx> = tr
        .parts
        .get::<crate::import::bcb::BcbTrack>()
        .auction_after(k)
        .map(|a| {
            a.supply
                .iter()
                .filter_map(|t| t.as_ref().and_then(|(_, id)| r.tile_index(id)))
                .collect()
        })
        .unwrap_or_default();
    game.force_draws(supply);
    if tr.parts.get::<crate::import::bcb::BcbTrack>().is_bought(k) {
        if !game.draw(s) || game.active() != player || game.current_tile() != tile {
            return Err(format!(
                "the rules give {} no bought tile {} to play now (the save plays it from a bazaar)",
                crate::render::seat_name(player),
                game.rules().rules.tiles[tile as usize].id
            ));
        }
        game.play_decisions(c, s);
        return Ok(());
    }
    game.play_tile(tile, player, c, s)
}

/// JCloisterZone turns the auction's tiles up after turn `k`: draw them from the reproduced
/// pack (with the random of the turn's `COMMIT`) and compare with the supply the save plays.
/// `Err((message, text))`: they differ.
pub fn draw_auction(
    pack: &mut dyn PackDraws,
    tr: &Translated,
    k: usize,
) -> Result<(), (usize, String)> {
    let track = tr.parts.get::<crate::import::bcb::BcbTrack>();
    let Some(a) = track.auction_after(k) else {
        return Ok(());
    };
    if let Some(rv) = tr.draws.get(k + 1).and_then(|d| d.random_before) {
        pack.set_random(rv);
    }
    // the error names the bazaar's PLACE_TILE: the draw belongs to that turn
    let at = tr.draws[k].message;
    for (i, t) in a.supply.iter().enumerate() {
        let want = t.as_ref().map_or("?", |(j, _)| j.as_str());
        match pack.draw_next() {
            Ok(Some(id)) if id == want => {}
            Ok(Some(id)) => {
                return Err((
                    at,
                    format!(
                        "after this turn's bazaar JCloisterZone turns up {id} as the auction's tile {i} (supplyIndex {i}), but the save plays {want} from it"
                    ),
                ))
            }
            Ok(None) => {
                return Err((
                    at,
                    "an auction after this turn's bazaar, but JCloisterZone's pack holds fewer tiles than players".into(),
                ))
            }
            Err(e) => return Err((at, e)),
        }
    }
    Ok(())
}

/// Why a recorded bridge is not legal now (`None`: not a bridge).
pub fn explain(game: &Game, d: &crate::engine::Decision, recorded: &Choice) -> Option<String> {
    let (
        bridges::BRIDGE,
        Choice::Token {
            at: Some((x, y, axis)),
        },
    ) = (d.kind, *recorded)
    else {
        return None;
    };
    let axis_name = |a: u8| {
        if a == 0 {
            "north–south (NS)"
        } else {
            "west–east (WE)"
        }
    };
    let offered: Vec<String> = (0..d.options)
        .filter_map(|i| match game.choice(d.kind, i) {
            Choice::Token {
                at: Some((x, y, a)),
            } => Some(format!("({x},{y}) {}", axis_name(a))),
            _ => None,
        })
        .collect();
    Some(format!(
        "no bridge can be built {} on ({x},{y}): the rules offer {} (a bridge goes on the tile just placed, across two field edges, each facing an empty square or a road)",
        axis_name(axis),
        if offered.is_empty() { "none".to_string() } else { offered.join(", ") }
    ))
}
