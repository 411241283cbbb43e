//! What the Gold Mines add to the output besides the turn log: the ingot accounting of
//! `play --json` (`Presentation::game_json`), their marks, ingots and legend lines on the
//! SVG board (`Presentation::tile_art`, `board_legend`), and how their decisions' options
//! read (`Presentation::choice_words`).

use super::{Gold, GOLD_MARK, INGOTS, INGOTS_ON_BOARD, INGOTS_REMOVED, INGOT_PLACED};
use crate::engine::compiled::Compiled;
use crate::engine::decision::{Choice, Wording};
use crate::engine::event::Event;
use crate::engine::game::Game;
use crate::engine::hooks::{Holds, TileFrame, TileLayer};
use crate::engine::outcome::GameOutcome;
use crate::ruleset::Ruleset;
use crate::tiles::TileType;
use serde_json::json;
use std::fmt::Write;

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
        .filter(|e| matches!(e, Event::Placed { tile, .. } if rules.tiles[*tile as usize].marks & GOLD_MARK != 0))
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

/// The Gold Mines on the SVG board: `Au` in the top-left corner of a gold-mine tile, and the
/// ingots on a tile in a row near its foot (filled), then those left there when the game
/// ended (hollow).
pub(super) fn tile_art<X: Holds<Gold>>(
    g: &Game<X>,
    pidx: usize,
    tile: &TileType,
    layer: TileLayer,
    at: TileFrame,
    out: &mut String,
) {
    match layer {
        TileLayer::Corner if tile.marks & GOLD_MARK != 0 => {
            let (x, y) = at.point(0.04, 0.04);
            let _ = writeln!(
                out,
                r##"<text x="{}" y="{}" font-size="10" fill="#8a6d00">Au</text>"##,
                x,
                y + 8.0
            );
        }
        TileLayer::Lying => {
            let (ingots, left) = (g.ingots_on_tile(pidx), g.ingots_left_on_tile(pidx));
            for k in 0..ingots + left {
                let (x, y) = at.point(0.08 + 0.12 * (k % 6) as f64, 0.78 - 0.1 * (k / 6) as f64);
                let fill = if k < ingots { "#ffd700" } else { "none" };
                let _ = writeln!(
                    out,
                    r##"<rect x="{x}" y="{y}" width="7" height="5" fill="{fill}" stroke="#8a6d00"/>"##
                );
            }
        }
        _ => {}
    }
}

/// The legend's lines for the gold-mine tile and the ingots, when the rules have gold-mine
/// tiles (before the river's line).
pub(super) fn board_legend(rules: &Compiled, after_river: bool, out: &mut Vec<(String, String)>) {
    if after_river || !rules.rules.tiles.iter().any(|t| t.marks & GOLD_MARK != 0) {
        return;
    }
    for (symbol, text) in [
        (
            r##"<text y="10" font-size="10" fill="#8a6d00">Au</text>"##,
            "gold-mine tile",
        ),
        (
            r##"<rect x="4" y="3" width="7" height="5" fill="#ffd700" stroke="#8a6d00"/>"##,
            "ingot on the tile",
        ),
        (
            r##"<rect x="4" y="3" width="7" height="5" fill="none" stroke="#8a6d00"/>"##,
            "ingot left on the tile at the end",
        ),
    ] {
        out.push((symbol.to_string(), text.to_string()));
    }
}

/// An option of `ingot_place` or `ingot_pick` (a tile, `Choice::Token` there) in words.
pub(super) fn choice_words(c: &Choice, how: Wording) -> Option<String> {
    let Choice::Token {
        at: Some((x, y, _)),
    } = *c
    else {
        return None;
    };
    Some(match how {
        Wording::Phrase | Wording::Legend { .. } => format!("the ingot of the tile at ({x}, {y})"),
        Wording::Note => format!("ingot on tile ({x},{y})"),
    })
}
