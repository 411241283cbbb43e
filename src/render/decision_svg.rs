//! One probed decision as a picture: the position's board ([`super::board_svg`]) with the
//! choice under ruleset A and the choice under ruleset B marked on it and named in the legend
//! — where each would place the tile (and its turn), which segment gets the follower, which
//! tile a token goes to or comes from, which spot an expansion's decision acts on; a number,
//! a space of the score track, a seat or a yes or no is named in the legend, on the tile just
//! placed. The legend's words are the decision's module's where it has its own
//! ([`crate::engine::Wording::Legend`]).
use super::board_svg::{board_svg_marked, Mark};
use super::seat_name;
use crate::engine::{Choice, Game, Pending, Wording};

/// A's colour and B's.
const COLOURS: [&str; 2] = ["#e00000", "#0050e0"];

/// The board of `game` (at the decision) with `a = (label, choice)` and `b` marked.
pub fn decision_svg(game: &Game, title: &str, a: (&str, Choice), b: (&str, Choice)) -> String {
    let marks = [
        mark(game, a.0, a.1, COLOURS[0]),
        mark(game, b.0, b.1, COLOURS[1]),
    ];
    board_svg_marked(game, title, &marks)
}

/// The cell of the tile placed last (where a follower, an expansion's piece or the turn's
/// tile is).
fn last_tile(game: &Game) -> Option<(i32, i32)> {
    game.placed_tiles().last().map(|t| (t.x, t.y))
}

/// What the decision now asked decides (its module's words).
fn asked_doc(game: &Game) -> &'static str {
    match game.pending() {
        Pending::Decision(d) => d.kind.spec().doc,
        _ => "",
    }
}

fn mark(game: &Game, label: &str, choice: Choice, colour: &'static str) -> Mark {
    let tile = game
        .rules()
        .rules
        .tiles
        .get(game.current_tile() as usize)
        .map_or("?", |t| t.id.as_str());
    let (cell, rot, segment, legend) = match choice {
        Choice::Place { x, y, rot } => (
            Some((x, y)),
            Some(rot),
            None,
            format!(
                "place {tile} at ({x}, {y}), turned {}° (dot: its top edge)",
                rot as u32 * 90
            ),
        ),
        Choice::Follower {
            segment: Some(s),
            kind,
        } => (
            last_tile(game),
            None,
            Some(s),
            format!("a {kind} on segment {s} of the tile just placed"),
        ),
        Choice::Follower { segment: None, .. } => {
            (last_tile(game), None, None, "no follower".to_string())
        }
        Choice::Spot {
            at: Some((x, y, s)),
        } => (
            Some((x, y)),
            None,
            Some(s),
            format!("the follower spot on segment {s} of the tile at ({x}, {y})"),
        ),
        Choice::Spot { at: None } => (last_tile(game), None, None, "pass".to_string()),
        Choice::SpotOf {
            at: (x, y, s),
            kind,
        } => (
            Some((x, y)),
            None,
            Some(s),
            format!("a {kind} on segment {s} of the tile at ({x}, {y})"),
        ),
        Choice::Flag { yes } => (
            last_tile(game),
            None,
            None,
            format!("{}: {}", asked_doc(game), if yes { "yes" } else { "no" }),
        ),
        Choice::Token {
            at: Some((x, y, _)),
        } => (
            Some((x, y)),
            None,
            None,
            format!("{}: the tile at ({x}, {y})", asked_doc(game)),
        ),
        Choice::Token { at: None } => (
            last_tile(game),
            None,
            None,
            format!("{}: none", asked_doc(game)),
        ),
        Choice::Amount { n } => (
            last_tile(game),
            None,
            None,
            match n {
                Some(n) => format!("{}: {n}", asked_doc(game)),
                None => format!("{}: pass", asked_doc(game)),
            },
        ),
        Choice::Track { space } => (
            last_tile(game),
            None,
            None,
            match space {
                Some(n) => format!("{}: space {n} of the score track", asked_doc(game)),
                None => format!("{}: pass", asked_doc(game)),
            },
        ),
        Choice::Seat { player } => (
            last_tile(game),
            None,
            None,
            format!("{}: {}", asked_doc(game), seat_name(player)),
        ),
        Choice::Tile { tile: t } => (
            None,
            None,
            None,
            format!(
                "play {} from the hand",
                game.rules()
                    .rules
                    .tiles
                    .get(t as usize)
                    .map_or("?", |t| t.id.as_str())
            ),
        ),
    };
    // the decision's module may word it its own way
    let legend = match game.pending() {
        Pending::Decision(d) => d
            .kind
            .words(&choice, Wording::Legend { seat_name })
            .unwrap_or(legend),
        _ => legend,
    };
    Mark {
        cell,
        rot,
        segment,
        colour,
        label: label.to_string(),
        legend,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{compile, NoEvents, Pending};
    use std::path::Path;

    #[test]
    fn both_choices_are_drawn_and_named() {
        let loaded = crate::dsl::load_ruleset(Path::new("rulesets/base.rules"))
            .unwrap_or_else(|d| panic!("{d}"));
        let mut g = Game::new(compile(&loaded.ruleset), 3, 2);
        g.setup(&mut NoEvents);
        assert!(g.draw(&mut NoEvents));
        let Pending::Decision(d) = g.pending() else {
            panic!("a placement is pending")
        };
        let (a, b) = (g.choice(d.kind, 0), g.choice(d.kind, d.options - 1));
        let svg = decision_svg(&g, "turn 1", ("A", a), ("B <rgg>", b));
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches(r#"class="mark""#).count(), 2);
        assert!(
            svg.contains("B &lt;rgg&gt;: place"),
            "the legend names B's choice"
        );
        let Choice::Place { x, y, .. } = b else {
            panic!("a placement")
        };
        assert!(svg.contains(&format!("at ({x}, {y})")));
        // a follower choice rings a segment of the tile just placed
        g.apply_unchecked(0);
        let Pending::Decision(f) = g.pending() else {
            panic!("a follower decision")
        };
        let seg = g.choice(f.kind, f.options - 1);
        let svg = decision_svg(&g, "turn 1", ("A", g.choice(f.kind, 0)), ("B", seg));
        assert!(svg.contains("no follower") && svg.contains("a follower on segment"));
    }
}
