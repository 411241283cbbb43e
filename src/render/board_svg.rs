//! The board as an SVG picture: every tile with its cities, roads, fields and cloister drawn
//! from the tile's own feature list, followers in seat colours on their segments (each kind
//! of follower in the glyph its `FollowerKindSpec` declares, with a tooltip), the
//! expansions' pieces and marks (`Presentation::board_pieces`, and what they draw on
//! a tile: `Presentation::tile_art`), a coordinate grid (the engine's tile x and y), the
//! expansions' bands under the tiles (`Presentation::board_band`: a score track), the score
//! table (with the expansions' columns: goods held…) and a legend underneath, with the
//! expansions' lines (`Presentation::board_legend`, `LEGEND`) — people check rules by looking.

use crate::engine::expansions;
use crate::engine::hooks::{Glyph, Paint, TileFrame};
use crate::engine::spots::{follower_spot, side_mid};
use crate::engine::{Category, Game};
use crate::render::{seat_name, SEAT_COLOURS};
use crate::tiles::{rotate_half_mask, rotate_side_mask, FeatureKind};
use std::fmt::Write;

const T: f64 = 64.0;
/// Left edge of the board (room for the row numbers).
const X0: f64 = 44.0;
/// Top edge of the board (room for the title and the column numbers).
const Y0: f64 = 58.0;

/// The seats' colours and names, for what the expansions draw.
const PAINT: Paint = Paint {
    seat_colours: &SEAT_COLOURS,
    seat_name,
};

/// Draw the board at its current state; `title` goes on top.
pub fn board_svg(game: &Game, title: &str) -> String {
    board_svg_highlighted(game, title, &[])
}

/// Draw the board with the tiles at `highlight` outlined in red (e.g. where two rulesets'
/// games first differ).
pub fn board_svg_highlighted(game: &Game, title: &str, highlight: &[(i32, i32)]) -> String {
    draw(game, title, highlight, &[])
}

/// Something marked over the board, with its line in the legend: a cell outlined in
/// `colour` (an empty cell too: the board grows to show it) with `label` in its corner, the
/// tile's top edge for a placement's rotation, a ring on a segment of the tile there.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    pub cell: Option<(i32, i32)>,
    /// Quarter turns of a tile to be placed there (its printed top edge is shown).
    pub rot: Option<u8>,
    /// A segment of the tile at `cell`.
    pub segment: Option<u8>,
    pub colour: &'static str,
    pub label: String,
    pub legend: String,
}

/// Draw the board with `marks` over it (e.g. two rulesets' choices at one decision).
pub fn board_svg_marked(game: &Game, title: &str, marks: &[Mark]) -> String {
    draw(game, title, &[], marks)
}

/// The title on top, whole (issue 43: titles were cut, "… 1st edition (20…"): on one line
/// when it fits the picture's width `w`, else smaller and wrapped at spaces over two lines
/// (squeezed to the width if still too long).
fn title_lines(s: &mut String, title: &str, w: f64) {
    // about 0.55 em a character in a sans-serif font
    let fits = |text: &str, size: f64| text.chars().count() as f64 * size * 0.55 <= w - 30.0;
    if fits(title, 16.0) {
        let _ = writeln!(
            s,
            r#"<text x="20" y="24" font-size="16">{}</text>"#,
            escape(title)
        );
        return;
    }
    let words: Vec<&str> = title.split(' ').collect();
    let mut split = 1;
    while split < words.len() && fits(&words[..split + 1].join(" "), 14.0) {
        split += 1;
    }
    let (first, second) = (words[..split].join(" "), words[split..].join(" "));
    for (text, y) in [(first, 17), (second, 35)] {
        if text.is_empty() {
            continue;
        }
        let squeeze = if fits(&text, 14.0) {
            String::new()
        } else {
            format!(
                r#" textLength="{}" lengthAdjust="spacingAndGlyphs""#,
                w - 30.0
            )
        };
        let _ = writeln!(
            s,
            r#"<text x="20" y="{y}" font-size="14"{squeeze}>{}</text>"#,
            escape(&text)
        );
    }
}

fn draw(game: &Game, title: &str, highlight: &[(i32, i32)], marks: &[Mark]) -> String {
    let tiles = game.placed_tiles();
    let (mut minx, mut maxx, mut miny, mut maxy) = (0, 0, 0, 0);
    let cells = tiles.iter().map(|t| (t.x, t.y));
    for (x, y) in cells.chain(marks.iter().filter_map(|m| m.cell)) {
        minx = minx.min(x);
        maxx = maxx.max(x);
        miny = miny.min(y);
        maxy = maxy.max(y);
    }
    let cols = (maxx - minx + 1) as f64;
    let rows = (maxy - miny + 1) as f64;
    let players = game.players() as usize;
    let table_h = 24.0 * (players as f64 + 2.0);
    let w = (cols * T + X0 + 20.0).max(600.0);
    // the expansions' bands under the tiles (a score track)
    let bands_h = expansions::board_bands_height(game);
    let mut legend = legend_items(game, !highlight.is_empty());
    legend.extend(marks.iter().map(|m| LegendItem {
        symbol: format!(
            r#"<rect width="16" height="12" fill="none" stroke="{}" stroke-width="3"/>"#,
            m.colour
        ),
        text: format!("{}: {}", m.label, m.legend),
    }));
    let legend_h = 30.0 + 20.0 * legend.len().div_ceil(2) as f64;
    let h = Y0 + rows * T + 20.0 + bands_h + table_h + legend_h;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    title_lines(&mut s, title, w);
    grid(&mut s, (minx, maxx), (miny, maxy));
    let rules = game.rules();
    for (pidx, t) in tiles.iter().enumerate() {
        let ox = X0 + (t.x - minx) as f64 * T;
        let oy = Y0 + (t.y - miny) as f64 * T;
        let p = |x: f64, y: f64| (ox + x * T, oy + y * T);
        let tt = &rules.rules.tiles[t.tile as usize];
        let _ = writeln!(
            s,
            r##"<g><title>{} ({},{}) {}°</title><rect x="{ox}" y="{oy}" width="{T}" height="{T}" fill="#8fc46a" stroke="#556b2f" stroke-width="0.5"/>"##,
            escape(&tt.id),
            t.x,
            t.y,
            t.rot as u32 * 90
        );
        river(&mut s, rotate_side_mask(tt.river_sides(), t.rot), &p);
        for f in &tt.features {
            let sides = rotate_side_mask(f.sides, t.rot);
            match f.kind {
                FeatureKind::City => {
                    let ss: Vec<usize> = (0..4).filter(|&k| sides & (1 << k) != 0).collect();
                    for &k in &ss {
                        let (a, b, c, d) = match k {
                            0 => ((0.0, 0.0), (1.0, 0.0), (0.75, 0.25), (0.25, 0.25)),
                            1 => ((1.0, 0.0), (1.0, 1.0), (0.75, 0.75), (0.75, 0.25)),
                            2 => ((1.0, 1.0), (0.0, 1.0), (0.25, 0.75), (0.75, 0.75)),
                            _ => ((0.0, 1.0), (0.0, 0.0), (0.25, 0.25), (0.25, 0.75)),
                        };
                        let (a, b, c, d) = (p(a.0, a.1), p(b.0, b.1), p(c.0, c.1), p(d.0, d.1));
                        let _ = writeln!(
                            s,
                            r##"<polygon points="{},{} {},{} {},{} {},{}" fill="#c8874a"/>"##,
                            a.0, a.1, b.0, b.1, c.0, c.1, d.0, d.1
                        );
                    }
                    if ss.len() > 1 {
                        let (x, y) = p(0.25, 0.25);
                        let _ = writeln!(
                            s,
                            r##"<rect x="{x}" y="{y}" width="{}" height="{}" fill="#c8874a"/>"##,
                            T / 2.0,
                            T / 2.0
                        );
                    }
                    if f.pennants > 0 {
                        let (cx, cy) = follower_spot(FeatureKind::City, sides, 0);
                        let (x, y) = p(cx, cy);
                        let _ = writeln!(
                            s,
                            r##"<path d="M{} {} l8 0 l0 6 l-4 4 l-4 -4 z" fill="#2a4fa8"/>"##,
                            x - 4.0,
                            y - 12.0
                        );
                    }
                }
                FeatureKind::Road => {
                    let ss: Vec<usize> = (0..4).filter(|&k| sides & (1 << k) != 0).collect();
                    let centre = p(0.5, 0.5);
                    if ss.len() == 2 {
                        let a = side_mid(ss[0]);
                        let b = side_mid(ss[1]);
                        let (a, b) = (p(a.0, a.1), p(b.0, b.1));
                        let _ = writeln!(
                            s,
                            r##"<path d="M{} {} Q{} {} {} {}" stroke="#f4f1e8" stroke-width="5" fill="none"/>"##,
                            a.0, a.1, centre.0, centre.1, b.0, b.1
                        );
                    } else {
                        for &k in &ss {
                            let a = side_mid(k);
                            let a = p(a.0, a.1);
                            let e = p(
                                0.5 + (a.0 - centre.0) / T * 0.3,
                                0.5 + (a.1 - centre.1) / T * 0.3,
                            );
                            let _ = writeln!(
                                s,
                                r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#f4f1e8" stroke-width="5"/>"##,
                                a.0, a.1, e.0, e.1
                            );
                        }
                        let _ = writeln!(
                            s,
                            r##"<circle cx="{}" cy="{}" r="{}" fill="#7a6a55"/>"##,
                            centre.0,
                            centre.1,
                            T * 0.12
                        );
                    }
                }
                FeatureKind::Cloister => {
                    let (x, y) = p(0.35, 0.35);
                    let _ = writeln!(
                        s,
                        r##"<rect x="{x}" y="{y}" width="{}" height="{}" fill="#b33b2e" stroke="#5a1d17"/>"##,
                        T * 0.3,
                        T * 0.3
                    );
                }
                FeatureKind::Field => {}
            }
        }
        // what the expansions draw on the tile: marks, pieces lying on it
        let frame = TileFrame {
            origin: (ox, oy),
            size: T,
        };
        expansions::tile_art(game, pidx, tt, frame, &mut s);
        let _ = writeln!(s, "</g>");
    }
    for &(hx, hy) in highlight {
        if game.tile_at(hx, hy).is_some() {
            let _ = writeln!(
                s,
                r##"<rect x="{}" y="{}" width="{T}" height="{T}" fill="none" stroke="#e00000" stroke-width="4"/>"##,
                X0 + (hx - minx) as f64 * T,
                Y0 + (hy - miny) as f64 * T
            );
        }
    }
    // followers: the plain one a disc (flat on a field), another kind its glyph with a
    // tooltip, set beside the pieces already drawn on its segment
    let mut drawn: Vec<u32> = Vec::new();
    for f in game.followers() {
        let (x, y, seg) = game.node_spot(f.node);
        let Some(pidx) = game.tile_at(x, y) else {
            continue;
        };
        let t = tiles[pidx];
        let tt = &rules.rules.tiles[t.tile as usize];
        let feat = &tt.features[seg as usize];
        let (ux, uy) = follower_spot(
            feat.kind,
            rotate_side_mask(feat.sides, t.rot),
            rotate_half_mask(feat.halves, t.rot),
        );
        let cx = X0 + (x - minx) as f64 * T + ux * T;
        let cy = Y0 + (y - miny) as f64 * T + uy * T;
        let colour = SEAT_COLOURS[f.player as usize % SEAT_COLOURS.len()];
        let beside = drawn.iter().filter(|&&n| n == f.node).count() as f64;
        drawn.push(f.node);
        if !f.kind.is_plain() {
            let (cx, cy) = (cx + 10.0 * beside, cy + 6.0 * beside);
            let _ = writeln!(
                s,
                r#"<g transform="translate({cx} {cy})">{}<title>{}'s {} on a {}</title></g>"#,
                glyph(f.kind.spec().glyph, colour),
                seat_name(f.player),
                f.kind,
                feat.kind
            );
            continue;
        }
        let (rx, ry, r) = (7, 4, 6);
        let shape = if feat.kind == FeatureKind::Field {
            format!(
                r#"<ellipse cx="{cx}" cy="{cy}" rx="{rx}" ry="{ry}" fill="{colour}" stroke="white"/>"#
            )
        } else {
            format!(r#"<circle cx="{cx}" cy="{cy}" r="{r}" fill="{colour}" stroke="white"/>"#)
        };
        let _ = writeln!(s, "{shape}");
    }
    // the expansions' layers, as their modules declare them
    for piece in game.expansion_pieces() {
        let cx = X0 + (piece.x - minx as f64) * T;
        let cy = Y0 + (piece.y - miny as f64) * T;
        let colour = match piece.owner {
            Some(p) => SEAT_COLOURS[p as usize % SEAT_COLOURS.len()],
            None if !piece.glyph.in_seat_colour() => MARK_FILL,
            None => "none",
        };
        let _ = writeln!(
            s,
            r#"<g transform="translate({cx} {cy})">{}<title>{}</title></g>"#,
            glyph(piece.glyph, colour),
            escape(&piece.note)
        );
    }
    for (k, m) in marks.iter().enumerate() {
        draw_mark(&mut s, game, m, k, (minx, miny));
    }
    let mut y = Y0 + rows * T + 20.0;
    expansions::draw_board_bands(game, y, w, &PAINT, &mut s);
    y += bands_h;
    // score table
    y += 8.0;
    // the core's categories, and each expansion's that anyone has scored in
    let shown: Vec<Category> = Category::ALL
        .into_iter()
        .filter(|&c| {
            c.index() <= Category::FIELD.index()
                || (0..players as u8).any(|p| game.by_category(p).get(c) != 0)
        })
        .collect();
    // what the expansions count per seat (goods held…), after the points
    let held: Vec<Vec<(&str, i64)>> = (0..players as u8)
        .map(|p| game.expansion_seat_columns(p))
        .collect();
    let mut header = format!("{:<8}", "player");
    for c in &shown {
        let _ = write!(header, "  {:>w$}", c.name(), w = c.name().len().max(4));
    }
    for (name, _) in held.first().map_or(&[][..], |h| &h[..]) {
        let _ = write!(header, "  {:>w$}", name, w = name.len().max(4));
    }
    let _ = write!(header, "  {:>5}", "total");
    let _ = writeln!(
        s,
        r#"<text x="20" y="{y}" font-size="13" font-weight="bold" font-family="monospace" xml:space="preserve">{header}</text>"#
    );
    for p in 0..players as u8 {
        y += 22.0;
        let c = game.by_category(p);
        let mut line = format!("{:<8}", seat_name(p));
        for k in &shown {
            let _ = write!(line, "  {:>w$}", c.get(*k), w = k.name().len().max(4));
        }
        for (name, n) in &held[p as usize] {
            let _ = write!(line, "  {:>w$}", n, w = name.len().max(4));
        }
        let _ = write!(line, "  {:>5}", game.scores()[p as usize]);
        let _ = writeln!(
            s,
            r#"<circle cx="14" cy="{}" r="5" fill="{}"/><text x="20" y="{y}" font-size="13" font-family="monospace" xml:space="preserve">{}</text>"#,
            y - 4.0,
            SEAT_COLOURS[p as usize],
            escape(&line)
        );
    }
    draw_legend(&mut s, &legend, y + 30.0);
    let _ = writeln!(s, "</svg>");
    s
}

/// The coordinate grid: a light outline for every cell of the board's bounding box (empty
/// cells included) and the engine's x above each column, y left of each row.
fn grid(s: &mut String, (minx, maxx): (i32, i32), (miny, maxy): (i32, i32)) {
    let _ = writeln!(s, r##"<g class="grid" font-size="11" fill="#555">"##);
    let _ = writeln!(
        s,
        r##"<text x="{}" y="{}" text-anchor="end" font-style="italic">x→ y↓</text>"##,
        X0 - 2.0,
        Y0 - 6.0
    );
    for x in minx..=maxx {
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle">{x}</text>"#,
            X0 + (x - minx) as f64 * T + T / 2.0,
            Y0 - 6.0
        );
    }
    for y in miny..=maxy {
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="end">{y}</text>"#,
            X0 - 6.0,
            Y0 + (y - miny) as f64 * T + T / 2.0 + 4.0
        );
    }
    for x in minx..=maxx {
        for y in miny..=maxy {
            let _ = writeln!(
                s,
                r##"<rect x="{}" y="{}" width="{T}" height="{T}" fill="none" stroke="#ccc" stroke-dasharray="3 3"/>"##,
                X0 + (x - minx) as f64 * T,
                Y0 + (y - miny) as f64 * T
            );
        }
    }
    let _ = writeln!(s, "</g>");
}

/// A piece's glyph (an expansion's, or a kind of follower's), centred on the origin, filled
/// with `colour` ("none": hollow; a token keeps its own colours).
fn glyph(g: Glyph, colour: &str) -> String {
    match g {
        Glyph::Follower => format!(r#"<circle r="6" fill="{colour}" stroke="white"/>"#),
        // a piece's own drawing, declared by its module
        Glyph::Drawn(art) => art.draw(colour),
        Glyph::Token {
            letter,
            colour,
            hollow,
        } => {
            let (fill, ink) = if hollow {
                ("white", colour)
            } else {
                (colour, "white")
            };
            format!(
                r#"<circle r="6" fill="{fill}" stroke="{colour}" stroke-width="1.5"/><text y="3" font-size="8" font-weight="bold" text-anchor="middle" fill="{ink}">{letter}</text>"#
            )
        }
    }
}

/// The river (the tile's river edges, `sides` in board orientation) under its features: a
/// bend or a straight through the centre, a branch to the centre from each side of a fork,
/// and a pool where it rises or ends. `p` maps tile units to the picture.
fn river(s: &mut String, sides: u8, p: &dyn Fn(f64, f64) -> (f64, f64)) {
    if sides == 0 {
        return;
    }
    let ss: Vec<usize> = (0..4).filter(|&k| sides & (1 << k) != 0).collect();
    let centre = p(0.5, 0.5);
    if ss.len() == 2 {
        let (a, b) = (side_mid(ss[0]), side_mid(ss[1]));
        let (a, b) = (p(a.0, a.1), p(b.0, b.1));
        let _ = writeln!(
            s,
            r##"<path d="M{} {} Q{} {} {} {}" stroke="{RIVER}" stroke-width="9" fill="none"/>"##,
            a.0, a.1, centre.0, centre.1, b.0, b.1
        );
        return;
    }
    for &k in &ss {
        let a = side_mid(k);
        let a = p(a.0, a.1);
        let _ = writeln!(
            s,
            r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{RIVER}" stroke-width="9"/>"##,
            a.0, a.1, centre.0, centre.1
        );
    }
    if ss.len() == 1 {
        let (x0, _) = p(0.0, 0.0);
        let (x1, _) = p(1.0, 0.0);
        let _ = writeln!(
            s,
            r##"<circle cx="{}" cy="{}" r="{}" fill="{RIVER}"/>"##,
            centre.0,
            centre.1,
            (x1 - x0) * 0.2
        );
    }
}

/// The river's colour.
const RIVER: &str = "#4a90d9";

/// The fill of a mark of the tiles (an inn, a cathedral): light, to read on a city, a road
/// or a field alike.
const MARK_FILL: &str = "#fff8e1";

/// One legend entry: its symbol (SVG drawn at the origin, 16×12 units) and its meaning.
struct LegendItem {
    symbol: String,
    text: String,
}

/// The legend of a board: the symbols this picture can hold.
fn legend_items(game: &Game, highlight: bool) -> Vec<LegendItem> {
    let item = |symbol: &str, text: &str| LegendItem {
        symbol: symbol.to_string(),
        text: text.to_string(),
    };
    let mut v = vec![
        item(r##"<rect width="16" height="12" fill="#c8874a"/>"##, "city"),
        item(
            r##"<rect width="16" height="12" fill="#8fc46a"/><line x1="0" y1="6" x2="16" y2="6" stroke="#f4f1e8" stroke-width="4"/>"##,
            "road (on a field)",
        ),
        item(
            r##"<rect x="3" width="10" height="10" fill="#b33b2e" stroke="#5a1d17"/>"##,
            "cloister",
        ),
        item(
            r##"<path d="M4 0 l8 0 l0 6 l-4 4 l-4 -4 z" fill="#2a4fa8"/>"##,
            "pennant",
        ),
        item(
            &format!(
                r#"<circle cx="8" cy="6" r="6" fill="{}" stroke="white"/>"#,
                SEAT_COLOURS[0]
            ),
            "follower (seat colour)",
        ),
        item(
            &format!(
                r#"<ellipse cx="8" cy="6" rx="7" ry="4" fill="{}" stroke="white"/>"#,
                SEAT_COLOURS[1]
            ),
            "farmer on a field",
        ),
    ];
    // the expansions' lines listed before the river's (tile marks, pieces on tiles)
    let from_expansions = |after_river| {
        expansions::board_legend(game.rules(), after_river, &PAINT)
            .into_iter()
            .map(|(symbol, text)| LegendItem { symbol, text })
    };
    v.extend(from_expansions(false));
    if game
        .rules()
        .rules
        .tiles
        .iter()
        .any(|t| t.river_sides() != 0)
    {
        v.push(item(
            &format!(
                r##"<rect width="16" height="12" fill="#8fc46a"/><line x1="0" y1="6" x2="16" y2="6" stroke="{RIVER}" stroke-width="5"/>"##
            ),
            "river (splits the fields; nobody stands on it)",
        ));
    }
    v.extend(from_expansions(true));
    // each other kind of follower dealt to the seats, in its glyph
    for kind in game.follower_kinds().filter(|k| !k.is_plain()) {
        if game.follower_supply_dealt(kind) == 0 {
            continue;
        }
        let weighs = match kind.weight() {
            0 => "weighs nothing in a majority".to_string(),
            w => format!("weighs {w} in a majority"),
        };
        v.push(LegendItem {
            symbol: format!(
                r#"<g transform="translate(8 6) scale(0.7)">{}</g>"#,
                glyph(kind.spec().glyph, SEAT_COLOURS[0])
            ),
            text: format!("{kind} ({weighs})"),
        });
    }
    for (g, text) in game.expansion_legend() {
        let colour = if g.in_seat_colour() {
            SEAT_COLOURS[0]
        } else {
            MARK_FILL
        };
        v.push(LegendItem {
            symbol: format!(
                r#"<g transform="translate(8 6) scale(0.6)">{}</g>"#,
                glyph(g, colour)
            ),
            text: text.to_string(),
        });
    }
    if highlight {
        v.push(item(
            r##"<rect x="1" y="1" width="14" height="10" fill="none" stroke="#e00000" stroke-width="3"/>"##,
            "the tile of the turn shown",
        ));
    }
    v.push(item(
        r##"<rect width="16" height="12" fill="none" stroke="#ccc" stroke-dasharray="3 3"/>"##,
        "empty cell; numbers are tile x and y",
    ));
    v
}

/// Draws the legend in two columns from `top`.
fn draw_legend(s: &mut String, items: &[LegendItem], top: f64) {
    let _ = writeln!(
        s,
        r#"<g class="legend" font-size="12"><text x="20" y="{top}" font-weight="bold">legend</text>"#
    );
    for (i, it) in items.iter().enumerate() {
        let x = 20.0 + 290.0 * (i % 2) as f64;
        let y = top + 8.0 + 20.0 * (i / 2) as f64;
        let _ = writeln!(
            s,
            r#"<g transform="translate({x},{y})">{}</g><text x="{}" y="{}">{}</text>"#,
            it.symbol,
            x + 24.0,
            y + 10.0,
            escape(&it.text)
        );
    }
    let _ = writeln!(s, "</g>");
}

/// Mark number `k` over the board whose top-left cell is `(minx, miny)`: inset by `k` so two
/// marks on one cell both show.
fn draw_mark(s: &mut String, game: &Game, m: &Mark, k: usize, (minx, miny): (i32, i32)) {
    let Some((x, y)) = m.cell else {
        return;
    };
    let inset = 2.0 + 4.0 * k as f64;
    let ox = X0 + (x - minx) as f64 * T;
    let oy = Y0 + (y - miny) as f64 * T;
    let c = m.colour;
    let _ = writeln!(
        s,
        r#"<g class="mark"><rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{c}" stroke-width="3" stroke-dasharray="6 3"/><text x="{}" y="{}" font-size="12" font-weight="bold" fill="{c}">{}</text>"#,
        ox + inset,
        oy + inset,
        T - 2.0 * inset,
        T - 2.0 * inset,
        ox + inset + 3.0 + 12.0 * k as f64,
        oy + inset + 12.0,
        escape(&m.label)
    );
    if let Some(rot) = m.rot {
        // the printed top edge of the tile, turned `rot` quarter turns clockwise
        let (ux, uy) = side_mid(rot as usize % 4);
        let (cx, cy) = (
            ox + (0.5 + (ux - 0.5) * 0.8) * T,
            oy + (0.5 + (uy - 0.5) * 0.8) * T,
        );
        let _ = writeln!(
            s,
            r#"<circle cx="{cx}" cy="{cy}" r="5" fill="{c}"/><text x="{cx}" y="{}" font-size="8" text-anchor="middle" fill="white">^</text>"#,
            cy + 3.0
        );
    }
    if let (Some(seg), Some(pidx)) = (m.segment, game.tile_at(x, y)) {
        let t = game.placed_tiles()[pidx];
        let tt = &game.rules().rules.tiles[t.tile as usize];
        if let Some(f) = tt.features.get(seg as usize) {
            let (ux, uy) = follower_spot(
                f.kind,
                rotate_side_mask(f.sides, t.rot),
                rotate_half_mask(f.halves, t.rot),
            );
            let _ = writeln!(
                s,
                r#"<circle cx="{}" cy="{}" r="{}" fill="none" stroke="{c}" stroke-width="3"/>"#,
                ox + ux * T,
                oy + uy * T,
                9.0 + 3.0 * k as f64
            );
        }
    }
    let _ = writeln!(s, "</g>");
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests;
