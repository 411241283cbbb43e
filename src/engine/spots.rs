//! Where things stand on a tile of the SVG board (`render::board_svg`), in a tile's units
//! (0..1, y down): a follower's spot on each feature, and a spot for an expansion's mark (an
//! inn, a goods symbol) beside its feature and clear of those. The renderer draws the
//! followers there; the expansions place their pieces (`Presentation::board_pieces`) with
//! [`mark_spot`], so their marks and the followers do not hide one another.

use crate::engine::compiled::Compiled;
use crate::engine::game::PlacedTile;
use crate::tiles::{rotate_half_mask, rotate_side_mask, FeatureKind};

/// Midpoint of a side (N, E, S, W) on a unit tile (0..1), y down.
pub fn side_mid(s: usize) -> (f64, f64) {
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

/// Where a follower on a feature of `kind` is drawn on its tile: a city or road reaching
/// the board sides `sides` (a bit per side, N lowest), a field the board half-edges
/// `halves`.
pub fn follower_spot(kind: FeatureKind, sides: u8, halves: u8) -> (f64, f64) {
    match kind {
        FeatureKind::Cloister => (0.5, 0.5),
        FeatureKind::Field => {
            let h = (0..8).find(|&h| halves & (1 << h) != 0).unwrap_or(0);
            half_point(h)
        }
        _ => {
            let first = (0..4).find(|&s| sides & (1 << s) != 0).unwrap_or(0);
            let pull = if sides.count_ones() == 1 { 0.6 } else { 0.45 };
            let (x, y) = side_mid(first);
            (0.5 + (x - 0.5) * pull, 0.5 + (y - 0.5) * pull)
        }
    }
}

/// How far a city's pennant is drawn above the follower's spot (its centre).
const PENNANT_ABOVE: f64 = 0.11;

/// Half the width of a road as drawn, in a tile's units: a mark may come that much closer
/// to a road's line than to a follower's spot.
const ROAD_HALF_WIDTH: f64 = 0.06;

/// Points along a road reaching board `sides` as the board draws it (a curve through the
/// centre between two edges, else a spoke from each edge to the centre), added to `out`.
pub(crate) fn road_points(sides: u8, out: &mut Vec<(f64, f64)>) {
    let ends: Vec<(f64, f64)> = (0..4)
        .filter(|&k| sides & (1 << k) != 0)
        .map(side_mid)
        .collect();
    for t in [0.25, 0.5, 0.75] {
        if let [a, b] = ends[..] {
            // the quadratic curve from a to b with the centre as its control point
            let (u, m, v) = ((1.0 - t) * (1.0 - t), 2.0 * t * (1.0 - t), t * t);
            out.push((u * a.0 + m * 0.5 + v * b.0, u * a.1 + m * 0.5 + v * b.1));
        } else {
            for &(x, y) in &ends {
                out.push((x + (0.5 - x) * t, y + (0.5 - y) * t));
            }
        }
    }
}

/// Where an expansion's mark on segment `seg` of placed tile `t` goes on the SVG board, in
/// board tile units (`Piece::x`, `Piece::y`): beside one of the segment's edges (board
/// orientation), `inset` of a tile in from it and `along` to one side of its midpoint (a
/// road's mark beside the road, a city's in the city). Of those spots (each edge, either
/// side), the one farthest from every follower's spot on the tile, its pennants and its
/// roads, the first on a tie. A segment without edges (a cloister) has its mark in the tile's top
/// right corner.
pub fn mark_spot(rules: &Compiled, t: &PlacedTile, seg: u8, inset: f64, along: f64) -> (f64, f64) {
    let tile = &rules.rules.tiles[t.tile as usize];
    let Some(feature) = tile.features.get(seg as usize) else {
        return (t.x as f64 + 0.8, t.y as f64 + 0.2);
    };
    let mut taken = Vec::with_capacity(2 * tile.features.len());
    let mut roads = Vec::new();
    for f in &tile.features {
        let sides = rotate_side_mask(f.sides, t.rot);
        let (x, y) = follower_spot(f.kind, sides, rotate_half_mask(f.halves, t.rot));
        taken.push((x, y));
        if f.kind == FeatureKind::City && f.pennants > 0 {
            taken.push((x, y - PENNANT_ABOVE));
        }
        if f.kind == FeatureKind::Road {
            road_points(sides, &mut roads);
        }
    }
    let distance =
        |(x, y): (f64, f64), (u, v): (f64, f64)| ((x - u).powi(2) + (y - v).powi(2)).sqrt();
    let sides = rotate_side_mask(feature.sides, t.rot);
    let mut best: Option<((f64, f64), f64)> = None;
    for side in (0..4).filter(|&k| sides & (1 << k) != 0) {
        let (mx, my) = side_mid(side);
        // the way in from the edge, and the way along it (clockwise)
        let (ix, iy) = (1.0 - 2.0 * mx, 1.0 - 2.0 * my);
        let (ax, ay) = (iy, -ix);
        for a in [along, -along] {
            let spot = (mx + ix * inset + ax * a, my + iy * inset + ay * a);
            let clear = taken
                .iter()
                .map(|&p| distance(spot, p))
                .chain(roads.iter().map(|&p| distance(spot, p) + ROAD_HALF_WIDTH))
                .fold(f64::INFINITY, f64::min);
            if best.is_none_or(|(_, d)| clear > d + 1e-9) {
                best = Some((spot, clear));
            }
        }
    }
    let (x, y) = best.map_or((0.8, 0.2), |(spot, _)| spot);
    (t.x as f64 + x, t.y as f64 + y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_follower_stands_towards_its_first_edge() {
        assert_eq!(follower_spot(FeatureKind::City, 0b0001, 0), (0.5, 0.2));
        assert_eq!(follower_spot(FeatureKind::Road, 0b1010, 0), (0.725, 0.5));
        assert_eq!(
            follower_spot(FeatureKind::Field, 0, 0b1000_0000),
            (0.1, 0.25)
        );
        assert_eq!(follower_spot(FeatureKind::Cloister, 0, 0), (0.5, 0.5));
    }

    #[test]
    fn a_bend_is_sampled_along_its_curve_a_junction_along_its_spokes() {
        let mut bend = Vec::new();
        road_points(0b0011, &mut bend);
        assert_eq!(bend.len(), 3);
        assert_eq!(
            bend[1],
            (0.625, 0.375),
            "the curve's middle, inside the bend"
        );
        let mut junction = Vec::new();
        road_points(0b1011, &mut junction);
        assert_eq!(junction.len(), 9);
        assert!(junction.contains(&(0.5, 0.25)) && junction.contains(&(0.25, 0.5)));
    }
}
