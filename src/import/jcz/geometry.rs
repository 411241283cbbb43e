//! JCloisterZone's geometry in meeplab's terms: a rotation as the engine's representative of
//! symmetric turns, a location in board orientation (sides, half-edges, `I`) as a segment of
//! the placed tile.

use crate::ruleset::Ruleset;
use crate::tiles::{rotate_half_mask, rotate_side_mask, FeatureKind, HalfEdge, Side, TileType};

/// The rotation the engine uses for a tile turned `q` under `rules`: the smallest turn with
/// the same geometry and the same marks that matter there (symmetric tiles list each
/// distinct rotation once; see `engine::expansions::telling_marks`).
pub fn canonical_rot(rules: &Ruleset, t: &TileType, q: u8) -> u8 {
    if t.marks & crate::engine::expansions::oriented_marks(rules) != 0 {
        return q & 3; // every turn distinct (a flying machine's arrow)
    }
    t.canonical_rotation(q, crate::engine::expansions::telling_marks(rules))
}

/// What a JCZ location names, in board orientation.
enum Loc {
    Inner,
    Sides(u8),
    Halves(u8),
}

fn parse_location(loc: &str) -> Option<Loc> {
    if loc == "I" {
        return Some(Loc::Inner);
    }
    if loc.contains('.') || HalfEdge::parse(loc).is_some() {
        let mut m = 0u8;
        for part in loc.split('.') {
            m |= HalfEdge::parse(part)?.bit();
        }
        return Some(Loc::Halves(m));
    }
    if let Some(rest) = loc.strip_prefix('_') {
        let s = Side::parse(rest)?;
        return Some(Loc::Sides(0xF & !s.bit()));
    }
    if loc.is_empty() {
        return None;
    }
    let mut m = 0u8;
    for c in loc.chars() {
        let s = Side::parse(&c.to_string())?;
        m |= s.bit();
    }
    Some(Loc::Sides(m))
}

/// The segment of tile `t` (placed turned `rot`) a JCZ `location` in board orientation
/// names, checked against `feature` when given.
pub fn segment_for(
    t: &TileType,
    rot: u8,
    feature: Option<FeatureKind>,
    location: &str,
) -> Result<u8, String> {
    let loc = parse_location(location).ok_or_else(|| {
        format!(
            "location `{location}` is not a JCZ location meeplab supports (edges, half-edges or I)"
        )
    })?;
    let back = (4 - (rot & 3)) & 3;
    let find = |pred: &dyn Fn(&crate::tiles::TileFeature) -> bool| {
        t.features.iter().position(pred).map(|i| i as u8)
    };
    let found = match loc {
        // `I` is a tile's inner place: its cloister, or a field that touches no edge (the
        // field enclosed by city caps, as on IC/CCCC or TB/CCc.c).
        Loc::Inner => match feature {
            None | Some(FeatureKind::Cloister) => find(&|f| f.kind == FeatureKind::Cloister),
            Some(FeatureKind::Field) => find(&|f| f.kind == FeatureKind::Field && f.halves == 0),
            Some(_) => None,
        },
        Loc::Halves(m) => {
            let local = rotate_half_mask(m, back);
            if feature.is_some_and(|f| f != FeatureKind::Field) {
                None
            } else {
                find(&|f| f.kind == FeatureKind::Field && f.halves == local).or_else(|| {
                    let hits: Vec<u8> = t
                        .features
                        .iter()
                        .enumerate()
                        .filter(|(_, f)| f.kind == FeatureKind::Field && f.halves & local != 0)
                        .map(|(i, _)| i as u8)
                        .collect();
                    (hits.len() == 1).then(|| hits[0])
                })
            }
        }
        Loc::Sides(m) => {
            let local = rotate_side_mask(m, back);
            let kinds: &[FeatureKind] = match feature {
                Some(FeatureKind::City) => &[FeatureKind::City],
                Some(FeatureKind::Road) => &[FeatureKind::Road],
                Some(_) => &[],
                None => &[FeatureKind::City, FeatureKind::Road],
            };
            kinds
                .iter()
                .find_map(|&k| find(&|f| f.kind == k && f.sides == local))
        }
    };
    found.ok_or_else(|| {
        format!(
            "{} has no {} at `{location}` (turned {}°)",
            t.id,
            feature.map_or("feature", |f| f.name()),
            rot as u32 * 90
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn ruleset(rules: &str) -> Ruleset {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("rulesets")
            .join(rules);
        crate::dsl::resolve::load_ruleset(&path).unwrap().ruleset
    }

    fn tile(rules: &str, id: &str) -> TileType {
        let r = ruleset(rules);
        let i = r.tile_index(id).unwrap();
        r.tiles[i as usize].clone()
    }

    #[test]
    fn the_inner_place_is_the_cloister_or_the_enclosed_field() {
        // IC/CCCC: four city caps around a field that touches no edge
        let t = tile("inns-c1.rules", "IC/CCCC");
        for rot in 0..4 {
            let seg = segment_for(&t, rot, Some(FeatureKind::Field), "I").unwrap();
            let f = &t.features[seg as usize];
            assert_eq!((f.kind, f.halves), (FeatureKind::Field, 0));
        }
        assert!(segment_for(&t, 0, Some(FeatureKind::Road), "I").is_err());
        assert!(segment_for(&t, 0, None, "I").is_err());
        // TB/CCc.c: the field between the crossing city and the cap south
        let t = tile("traders-c1.rules", "TB/CCc.c");
        let seg = segment_for(&t, 2, Some(FeatureKind::Field), "I").unwrap();
        assert_eq!(t.features[seg as usize].halves, 0);
        // a cloister is still `I`
        let t = tile("base.rules", "BA/LR");
        let seg = segment_for(&t, 0, None, "I").unwrap();
        assert_eq!(t.features[seg as usize].kind, FeatureKind::Cloister);
    }

    #[test]
    fn goods_break_a_tiles_symmetry() {
        // TB/CcCc.w: two cities across the tile, the wine on N–W only; turned half round the
        // shape is the same but the wine is on the other city, so each turn is its own
        let traders = ruleset("traders-c1.rules");
        let t = tile("traders-c1.rules", "TB/CcCc.w");
        let marks = crate::engine::expansions::telling_marks(&traders);
        assert_eq!(t.distinct_rotations(marks), vec![0, 1, 2, 3]);
        assert_eq!(t.distinct_rotations(0), vec![0, 1]);
        assert_eq!(canonical_rot(&traders, &t, 3), 3);
        // a tile without marks keeps its symmetric turns together
        let base = ruleset("base.rules");
        let t = tile("base.rules", "BA/RFr");
        assert_eq!(t.distinct_rotations(marks), vec![0, 1]);
        assert_eq!(canonical_rot(&base, &t, 2), 0);
        // BC&B's inn is inert without Inns & Cathedrals: BB/RFR.bi stays symmetric there
        let bcb = ruleset("bcb-c1.rules");
        let t = tile("bcb-c1.rules", "BB/RFR.bi");
        assert_eq!(canonical_rot(&bcb, &t, 2), 0);
        let inns = ruleset("inns-c1.rules");
        assert_eq!(canonical_rot(&inns, &t, 2), 2);
    }
}
