//! The board as an SVG picture: every tile with its cities, roads, fields and cloister drawn
//! from the tile's own feature list, followers in seat colours on their segments, ingots on
//! tiles, and the score table underneath — people check rules by looking.

use crate::engine::{Category, Game};
use crate::render::{seat_name, SEAT_COLOURS};
use crate::tiles::{rotate_half_mask, rotate_side_mask, FeatureKind};
use std::fmt::Write;

const T: f64 = 64.0;

/// Midpoint of a side on a unit tile (0..1), y down.
fn side_mid(s: usize) -> (f64, f64) {
    [(0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5)][s]
}

/// A point just inside a half-edge.
fn half_point(h: usize) -> (f64, f64) {
    [
        (0.25, 0.1),
        (0.75, 0.1),
        (0.9, 0.25),
        (0.9, 0.75),
        (0.75, 0.9),
        (0.25, 0.9),
        (0.1, 0.75),
        (0.1, 0.25),
    ][h]
}

/// Where a follower on segment `seg` of a placed tile is drawn (unit coordinates).
fn segment_point(kind: FeatureKind, sides: u8, halves: u8) -> (f64, f64) {
    match kind {
        FeatureKind::Cloister => (0.5, 0.5),
        FeatureKind::Field => {
            let h = (0..8).find(|&h| halves & (1 << h) != 0).unwrap_or(0);
            half_point(h)
        }
        _ => {
            let ss: Vec<usize> = (0..4).filter(|&s| sides & (1 << s) != 0).collect();
            if ss.len() == 1 {
                let (x, y) = side_mid(ss[0]);
                (0.5 + (x - 0.5) * 0.6, 0.5 + (y - 0.5) * 0.6)
            } else {
                let (x, y) = side_mid(ss[0]);
                (0.5 + (x - 0.5) * 0.45, 0.5 + (y - 0.5) * 0.45)
            }
        }
    }
}

/// Draw the board at its current state; `title` goes on top.
pub fn board_svg(game: &Game, title: &str) -> String {
    board_svg_highlighted(game, title, &[])
}

/// Draw the board with the tiles at `highlight` outlined in red (e.g. where two rulesets'
/// games first differ).
pub fn board_svg_highlighted(game: &Game, title: &str, highlight: &[(i32, i32)]) -> String {
    let tiles = game.placed_tiles();
    let (mut minx, mut maxx, mut miny, mut maxy) = (0, 0, 0, 0);
    for t in tiles {
        minx = minx.min(t.x);
        maxx = maxx.max(t.x);
        miny = miny.min(t.y);
        maxy = maxy.max(t.y);
    }
    let cols = (maxx - minx + 1) as f64;
    let rows = (maxy - miny + 1) as f64;
    let players = game.players() as usize;
    let table_h = 24.0 * (players as f64 + 2.0);
    let w = (cols * T + 40.0).max(560.0);
    let h = rows * T + 60.0 + table_h;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="20" y="26" font-size="16">{}</text>"#,
        escape(title)
    );
    let rules = game.rules();
    for (pidx, t) in tiles.iter().enumerate() {
        let ox = 20.0 + (t.x - minx) as f64 * T;
        let oy = 40.0 + (t.y - miny) as f64 * T;
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
                        let (cx, cy) = segment_point(FeatureKind::City, sides, 0);
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
        if let Some(kind) = tt.crop {
            let (x, y) = p(0.5, 0.5);
            let _ = writeln!(
                s,
                r##"<circle cx="{x}" cy="{y}" r="{}" fill="#e8d27a" stroke="#8a7a2a"/><text x="{x}" y="{}" font-size="9" text-anchor="middle">{}</text>"##,
                T * 0.16,
                y + 3.0,
                kind.name()
            );
        }
        if tt.gold {
            let (x, y) = p(0.04, 0.04);
            let _ = writeln!(
                s,
                r##"<text x="{}" y="{}" font-size="10" fill="#8a6d00">Au</text>"##,
                x,
                y + 8.0
            );
        }
        if tt.robber {
            let (x, y) = p(0.75, 0.04);
            let _ = writeln!(
                s,
                r##"<text x="{x}" y="{}" font-size="10" fill="#333">R</text>"##,
                y + 8.0
            );
        }
        // ingots on the tile (filled), and those left there when the game ended (hollow)
        let (ingots, left) = (game.ingots_on_tile(pidx), game.ingots_left_on_tile(pidx));
        for k in 0..ingots + left {
            let (x, y) = p(0.08 + 0.12 * (k % 6) as f64, 0.78 - 0.1 * (k / 6) as f64);
            let fill = if k < ingots { "#ffd700" } else { "none" };
            let _ = writeln!(
                s,
                r##"<rect x="{x}" y="{y}" width="7" height="5" fill="{fill}" stroke="#8a6d00"/>"##
            );
        }
        let _ = writeln!(s, "</g>");
    }
    for &(hx, hy) in highlight {
        if game.tile_at(hx, hy).is_some() {
            let _ = writeln!(
                s,
                r##"<rect x="{}" y="{}" width="{T}" height="{T}" fill="none" stroke="#e00000" stroke-width="4"/>"##,
                20.0 + (hx - minx) as f64 * T,
                40.0 + (hy - miny) as f64 * T
            );
        }
    }
    // followers
    for f in game.followers() {
        let (x, y, seg) = game.node_spot(f.node);
        let Some(pidx) = game.tile_at(x, y) else {
            continue;
        };
        let t = tiles[pidx];
        let tt = &rules.rules.tiles[t.tile as usize];
        let feat = &tt.features[seg as usize];
        let (ux, uy) = segment_point(
            feat.kind,
            rotate_side_mask(feat.sides, t.rot),
            rotate_half_mask(feat.halves, t.rot),
        );
        let cx = 20.0 + (x - minx) as f64 * T + ux * T;
        let cy = 40.0 + (y - miny) as f64 * T + uy * T;
        let colour = SEAT_COLOURS[f.player as usize % SEAT_COLOURS.len()];
        let shape = if feat.kind == FeatureKind::Field {
            format!(
                r#"<ellipse cx="{cx}" cy="{cy}" rx="7" ry="4" fill="{colour}" stroke="white"/>"#
            )
        } else {
            format!(r#"<circle cx="{cx}" cy="{cy}" r="6" fill="{colour}" stroke="white"/>"#)
        };
        let _ = writeln!(s, "{shape}");
    }
    // score table
    let mut y = 40.0 + rows * T + 28.0;
    let header = format!(
        "{:<8}  {:>4}  {:>4}  {:>8}  {:>5}  {:>4}  {:>7}  {:>6}  {:>5}",
        "player", "road", "city", "cloister", "field", "gold", "robbers", "ingots", "total"
    );
    let _ = writeln!(
        s,
        r#"<text x="20" y="{y}" font-size="13" font-weight="bold" font-family="monospace" xml:space="preserve">{header}</text>"#
    );
    for p in 0..players as u8 {
        y += 22.0;
        let c = game.by_category(p);
        let line = format!(
            "{:<8}  {:>4}  {:>4}  {:>8}  {:>5}  {:>4}  {:>7}  {:>6}  {:>5}",
            seat_name(p),
            c.get(Category::Road),
            c.get(Category::City),
            c.get(Category::Cloister),
            c.get(Category::Field),
            c.get(Category::Gold),
            c.get(Category::Robbers),
            game.ingots_held(p),
            game.scores()[p as usize]
        );
        let _ = writeln!(
            s,
            r#"<circle cx="14" cy="{}" r="5" fill="{}"/><text x="20" y="{y}" font-size="13" font-family="monospace" xml:space="preserve">{}</text>"#,
            y - 4.0,
            SEAT_COLOURS[p as usize],
            escape(&line)
        );
    }
    let _ = writeln!(s, "</svg>");
    s
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
