//! The Robbers on the SVG board: `R` in the top-right corner of a robber tile, the score
//! track with each seat's marker and robber under the tiles, and their legend lines
//! (`Presentation::tile_art`, `board_band`, `board_legend`); and how their decisions' options
//! read (`Presentation::choice_words`).

use super::{RobberRules, Robbers, ROBBER_MARK};
use crate::engine::compiled::Compiled;
use crate::engine::decision::{Choice, Wording};
use crate::engine::game::Game;
use crate::engine::hooks::{Holds, Paint, TileFrame, TileLayer};
use crate::tiles::TileType;
use std::fmt::Write;

/// The height of the score-track band.
const TRACK_HEIGHT: f64 = 76.0;

/// The score track's spaces when the rules play the robbers.
fn track(rules: &Compiled) -> Option<u32> {
    RobberRules::of(&rules.rules).map(|r| r.track.max(1))
}

/// `R` in the top-right corner of a robber tile.
pub(super) fn tile_art(tile: &TileType, layer: TileLayer, at: TileFrame, out: &mut String) {
    if layer == TileLayer::Corner && tile.marks & ROBBER_MARK != 0 {
        let (x, y) = at.point(0.75, 0.04);
        let _ = writeln!(
            out,
            r##"<text x="{x}" y="{}" font-size="10" fill="#333">R</text>"##,
            y + 8.0
        );
    }
}

/// The score track's band, when the rules play the robbers.
pub(super) fn board_band<X: Holds<Robbers>>(g: &Game<X>) -> f64 {
    if track(g.rules()).is_some() {
        TRACK_HEIGHT
    } else {
        0.0
    }
}

/// The score track of the robbers: its spaces, each seat's marker (a dot) and robber (a
/// triangle) in its colour on its space, robbers in supply listed beside.
pub(super) fn draw_board_band<X: Holds<Robbers>>(
    g: &Game<X>,
    top: f64,
    width: f64,
    paint: &Paint,
    s: &mut String,
) {
    let Some(track) = track(g.rules()) else {
        return;
    };
    let cell = ((width - 40.0) / track as f64).min(16.0);
    // the robbers stand in a row above the spaces, the markers on them
    let y = top + 30.0;
    let _ = writeln!(
        s,
        r#"<text x="20" y="{}" font-size="12">score track (robbers stand on its spaces)</text>"#,
        top + 10.0
    );
    for k in 0..track {
        let x = 20.0 + k as f64 * cell;
        let _ = writeln!(
            s,
            r##"<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="#f6f6f6" stroke="#bbb" stroke-width="0.5"/>"##
        );
        if k % 10 == 0 {
            let _ = writeln!(
                s,
                r##"<text x="{}" y="{}" font-size="9" fill="#555">{k}</text>"##,
                x + 1.0,
                y + cell + 10.0
            );
        }
    }
    let players = g.players();
    let mut supply = Vec::new();
    for p in 0..players {
        let colour = paint.colour(p);
        let space = g.marker_space(p) % track;
        let dx = cell * (0.2 + 0.6 * p as f64 / players.max(1) as f64);
        let _ = writeln!(
            s,
            r#"<circle cx="{}" cy="{}" r="{}" fill="{colour}" stroke="white" stroke-width="0.5"/>"#,
            20.0 + space as f64 * cell + dx + cell * 0.1,
            y + cell * 0.35,
            (cell * 0.18).max(2.0)
        );
        match g.robbers().get(p as usize).copied().flatten() {
            Some(space) => {
                // robbers on one space stand side by side, in seat order
                let spread = (p as f64 - (players as f64 - 1.0) / 2.0) * 8.0;
                let x = 20.0 + (space % track) as f64 * cell + cell / 2.0 + spread;
                let _ = writeln!(
                    s,
                    r##"<path d="M{} {} l5 -12 l5 12 z" fill="{colour}" stroke="#000" stroke-width="0.6"><title>{} robber on space {space}</title></path>"##,
                    x - 5.0,
                    y - 2.0,
                    (paint.seat_name)(p)
                );
            }
            None => supply.push((paint.seat_name)(p)),
        }
    }
    if !supply.is_empty() {
        let _ = writeln!(
            s,
            r#"<text x="20" y="{}" font-size="11">robbers in supply: {}</text>"#,
            y + cell + 24.0,
            supply.join(", ")
        );
    }
}

/// The legend's lines for the robber tile and the robbers on the score track, when the rules
/// play the robbers (before the river's line).
pub(super) fn board_legend(
    rules: &Compiled,
    after_river: bool,
    paint: &Paint,
    out: &mut Vec<(String, String)>,
) {
    if after_river || track(rules).is_none() {
        return;
    }
    out.push((
        r##"<text y="10" font-size="10" fill="#333">R</text>"##.to_string(),
        "robber tile".to_string(),
    ));
    out.push((
        format!(
            r##"<path d="M4 12 l4 -10 l4 10 z" fill="{}" stroke="#000" stroke-width="0.6"/>"##,
            paint.seat_colours[0]
        ),
        "robber on the score track".to_string(),
    ));
}

/// An option of `robber_place` (a space of the score track, `Choice::Track`, or none) or of
/// `robber_victim` (`Choice::Seat`) in words.
pub(super) fn choice_words(c: &Choice, how: Wording) -> Option<String> {
    Some(match (*c, how) {
        (Choice::Track { space: None }, Wording::Note) => "no robber".into(),
        (Choice::Track { space: None }, _) => "no robber move".into(),
        (Choice::Track { space: Some(n) }, Wording::Phrase) => format!("the robber to space {n}"),
        (Choice::Track { space: Some(n) }, Wording::Note) => format!("robber on space {n}"),
        (Choice::Track { space: Some(n) }, Wording::Legend { .. }) => {
            format!("the robber to score-track space {n}")
        }
        (Choice::Seat { player }, Wording::Phrase) => format!("rob seat {}", u32::from(player) + 1),
        // the replay's note has always counted seats from 0
        (Choice::Seat { player }, Wording::Note) => format!("rob seat {player}"),
        (Choice::Seat { player }, Wording::Legend { seat_name }) => {
            format!("rob {}", seat_name(player))
        }
        _ => return None,
    })
}
