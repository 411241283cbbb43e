//! The readable turn log of `meeplab play` and `replay`: one line per event that matters, and
//! the final table of points per category per player.

use crate::engine::{Category, Event, GameOutcome, Phase, SeatCounter};
use crate::render::seat_name;
use crate::ruleset::Ruleset;
use std::fmt::Write;

fn winners_text(mask: u8) -> String {
    let names: Vec<&str> = (0..8u8)
        .filter(|p| mask & (1 << p) != 0)
        .map(seat_name)
        .collect();
    names.join(" + ")
}

/// One log line for an event, or `None` for bookkeeping events.
pub fn describe(rules: &Ruleset, e: &Event) -> Option<String> {
    let tile = |t: u16| {
        rules
            .tiles
            .get(t as usize)
            .map_or_else(|| format!("#{t}"), |t| t.id.clone())
    };
    Some(match *e {
        Event::Start { tile: t, .. } => format!("Start tile {} at (0,0)", tile(t)),
        Event::Drawn {
            turn,
            player,
            tile: t,
        } => {
            let into = if rules.hand > 1 { " into the hand" } else { "" };
            format!(
                "Turn {turn:>2}: {} draws {}{into}",
                seat_name(player),
                tile(t)
            )
        }
        Event::Dealt { player, tile: t } => {
            format!("Deal:    {} is dealt {}", seat_name(player), tile(t))
        }
        Event::Chosen {
            turn,
            player,
            tile: t,
        } => {
            format!(
                "Turn {turn:>2}: {} chooses {} from the hand",
                seat_name(player),
                tile(t)
            )
        }
        Event::Discarded {
            tile: t,
            reshuffled,
            ..
        } => format!(
            "         {} fits nowhere: {}",
            tile(t),
            if reshuffled {
                "shuffled back"
            } else {
                "discarded"
            }
        ),
        Event::Placed { x, y, rot, .. } => {
            format!("         placed at ({x},{y}) turned {}°", rot as u32 * 90)
        }
        Event::FollowerPlaced {
            player,
            feature,
            x,
            y,
            kind,
            ..
        } => {
            // "an abbot", "a follower"
            let name = kind.to_string();
            let article = if name.starts_with(['a', 'e', 'i', 'o', 'u']) {
                "an"
            } else {
                "a"
            };
            format!(
                "         {} puts {article} {name} on the {feature} at ({x},{y})",
                seat_name(player)
            )
        }
        Event::FollowerReturned { .. } => return None,
        Event::Scored {
            phase,
            category,
            feature,
            winners,
            points,
            tiles,
            x,
            y,
            ..
        } => {
            let when = if phase == Phase::Final { "final: " } else { "" };
            let what = if category == Category::FIELD {
                format!("field at ({x},{y}) with {tiles} completed cities")
            } else {
                format!("{feature} of {tiles} tiles at ({x},{y})")
            };
            format!(
                "         {when}{} scores {points} for a {what}",
                winners_text(winners)
            )
        }
        Event::Expansion(ref x) => {
            return x.narrate(&crate::engine::event::Names {
                seat: seat_name,
                tile: &tile,
            })
        }
        Event::TurnEnd { .. } => return None,
        Event::GameEnd { turns } => format!("Game over after {turns} turns"),
    })
}

/// The whole log, one line per described event.
pub fn log(rules: &Ruleset, events: &[Event]) -> String {
    let mut out = String::new();
    for e in events {
        if let Some(line) = describe(rules, e) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

/// The final table: points per category per player (the core's four, and each expansion's
/// that anyone scored in), each per-seat counter when any seat counts some, totals, winners.
pub fn final_table(outcome: &GameOutcome) -> String {
    score_table(outcome, true)
}

/// The score table of a game that may not have ended (a replay stopped by `--turn`, an
/// illegal decision or a record of a game in progress): as [`final_table`] when `ended`,
/// else the last line names who leads, not a winner.
pub fn score_table(outcome: &GameOutcome, ended: bool) -> String {
    let shown: Vec<Category> = Category::ALL
        .into_iter()
        .filter(|&c| {
            c.index() < Category::FIELD.index() + 1
                || outcome.seats.iter().any(|s| s.by_category.get(c) != 0)
        })
        .collect();
    let counted: Vec<SeatCounter> = SeatCounter::all()
        .filter(|&c| outcome.seats.iter().any(|s| s.counts.get(c) != 0))
        .collect();
    let mut out = format!("{:<8}", "player");
    for c in &shown {
        let _ = write!(out, "{:>w$}", c.name(), w = c.name().len().max(5) + 2);
    }
    for c in &counted {
        let _ = write!(out, "{:>8}", c.name());
    }
    let _ = writeln!(out, "{:>8}", "total");
    for (p, s) in outcome.seats.iter().enumerate() {
        let _ = write!(out, "{:<8}", seat_name(p as u8));
        for c in &shown {
            let w = c.name().len().max(5) + 2;
            let _ = write!(out, "{:>w$}", s.by_category.get(*c));
        }
        for &c in &counted {
            let _ = write!(out, "{:>8}", s.counts.get(c));
        }
        let _ = writeln!(out, "{:>8}", s.total);
    }
    let names: Vec<&str> = outcome.winners.iter().map(|&w| seat_name(w)).collect();
    let who = match (ended, names.len() > 1) {
        (true, false) => "winner",
        (true, true) => "winners (tie)",
        (false, false) => "leading (the game has not ended)",
        (false, true) => "level in the lead (the game has not ended)",
    };
    let _ = writeln!(
        out,
        "{who}: {}   tiles placed: {} (discarded {})",
        names.join(", "),
        outcome.tiles_placed,
        outcome.tiles_discarded
    );
    out
}
