//! A ruleset compiled for play: every tile type pre-rotated into small fixed tables (edge
//! signature, which segment owns each side and half-edge), the formulas kept as typed
//! expressions. Built once per ruleset and shared by every game and thread.

use crate::engine::component::Component;
use crate::engine::rng::hash_str;
use crate::ruleset::{Ruleset, TileIdx};
use crate::tiles::{rotate_half_mask, rotate_side_mask, FeatureKind, HalfEdge, Side, TileType};

/// "No segment here."
pub const NONE: u8 = u8::MAX;

/// One segment of a tile type (rotation-independent facts).
#[derive(Clone, Debug)]
pub struct Segment {
    pub kind: FeatureKind,
    /// Sides a city/road reaches in the unrotated tile (for open-end counting: its popcount).
    pub sides: u8,
    pub halves: u8,
    pub pennants: u8,
    /// Fields: bit `i` set when the field touches city segment `i` of the same tile.
    pub cities: u16,
    /// The expansions' segment marks (see `Expansion::SEGMENT_MARKS`).
    pub marks: u8,
}

/// One rotation of a tile type.
#[derive(Clone, Copy, Debug)]
pub struct Rotation {
    /// Edge kinds packed 2 bits per side (N lowest), board orientation.
    pub sig: u8,
    /// Segment owning each board side's city or road edge.
    pub side_seg: [u8; 4],
    /// Field segment owning each board half-edge.
    pub half_seg: [u8; 8],
    /// Sides (board orientation) each segment reaches.
    pub seg_sides: [u8; 16],
}

/// A tile type ready for play.
#[derive(Clone, Debug)]
pub struct CompiledTile {
    pub segments: Vec<Segment>,
    pub rotations: [Rotation; 4],
    /// Distinct rotations (symmetric ones counted once), ascending.
    pub distinct: Vec<u8>,
    pub cloister: u8,
    /// The expansions' marks it carries (see `TileType::marks`).
    pub marks: u32,
    /// Its river sides (a bit per side, unrotated: `TileType::river_sides`); 0 for a tile
    /// without a river. The core matches them as field edges.
    pub river: u8,
    /// Stable hash of the tile id (deck coupling key).
    pub id_hash: u64,
    /// Per segment, its feature as the tile brings it: open city/road sides, pennants, no
    /// followers; `head` and `tail` hold the segment's index (placing adds the tile's first
    /// node). Placing copies these instead of building them field by field.
    pub fresh: Vec<Component>,
    /// Its city and road segments (those that can close when a tile is placed), ascending.
    pub closable: Vec<u8>,
    /// The same, a bit per segment (those below 64: a tile with more has them in
    /// `closable` only), for the expansions that keep a bit per node.
    pub closable_bits: u64,
}

/// A tile type an expansion derives from one of the ruleset's (see
/// `Expansion::derive_tiles`): placed tiles of type `base` may become type `tile`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Derived {
    pub base: TileIdx,
    /// What the change is, in the deriving expansion's terms (a bridge's axis, say).
    pub tag: u8,
    pub tile: TileIdx,
}

/// A ruleset compiled for play.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The ruleset; its tile list ends with the derived types (never in the pack).
    pub rules: Ruleset,
    pub tiles: Vec<CompiledTile>,
    /// The fit tables of the tile types (see [`Compiled::fits`]), each kept once: tile
    /// types with the same edges in the same turns share one. The placement scan reads one
    /// per turn, so fewer and packed together they stay in the cache (Big Box 6's 125 types
    /// have 39 distinct tables; a table in each type's own record missed the first-level
    /// cache about 4 times a turn: cachegrind).
    fit_tables: Vec<[u8; 256]>,
    /// Per tile type, its table's index in `fit_tables`.
    fit_of: Vec<u16>,
    /// Most segments on any tile type.
    pub max_segments: usize,
    /// The derived tile types, in the order the expansions gave them.
    pub derived: Vec<Derived>,
}

/// What the expansions in play say about a ruleset's tiles when it is compiled (the
/// registered expansions' answers, gathered by `engine::compile`): the tile types they derive,
/// the segment marks that tell a tile's turns apart, and the tile marks whose tiles have four
/// distinct turns.
#[derive(Clone, Copy)]
pub struct TileHooks {
    pub derived_tiles: fn(&Ruleset) -> Vec<(TileIdx, u8, TileType)>,
    pub telling_marks: fn(&Ruleset) -> u8,
    pub oriented_marks: fn(&Ruleset) -> u32,
}

impl Compiled {
    pub fn new(rules: &Ruleset, hooks: TileHooks) -> Compiled {
        let mut rules = rules.clone();
        let mut derived = Vec::new();
        for (base, tag, tile) in (hooks.derived_tiles)(&rules) {
            derived.push(Derived {
                base,
                tag,
                tile: rules.tiles.len() as TileIdx,
            });
            rules.tiles.push(tile);
        }
        let marks = (hooks.telling_marks)(&rules);
        let oriented = (hooks.oriented_marks)(&rules);
        let mut tiles = Vec::with_capacity(rules.tiles.len());
        let (mut fit_tables, mut fit_of) = (Vec::new(), Vec::with_capacity(rules.tiles.len()));
        for t in &rules.tiles {
            let (tile, fits) = compile_tile(t, marks, t.marks & oriented != 0);
            tiles.push(tile);
            let at = match fit_tables.iter().position(|f| *f == fits) {
                Some(at) => at,
                None => {
                    fit_tables.push(fits);
                    fit_tables.len() - 1
                }
            };
            fit_of.push(at as u16);
        }
        // a tile that may become a derived type holds the nodes of its extra segments from
        // the start, as features of their own that nothing reaches until then
        for d in &derived {
            let extra = tiles[d.tile as usize].segments.len();
            let base = &mut tiles[d.base as usize];
            debug_assert!(
                base.segments
                    .iter()
                    .zip(&rules.tiles[d.tile as usize].features)
                    .all(|(s, f)| s.kind == f.kind && s.halves == f.halves),
                "a derived tile type keeps its base's segments"
            );
            for i in base.fresh.len()..extra {
                base.fresh.push(Component {
                    kind: FeatureKind::Road,
                    open: 0,
                    pennants: 0,
                    followers: Default::default(),
                    nfollowers: 0,
                    marks: 0,
                    head: i as u32,
                    tail: i as u32,
                    done: true,
                });
            }
        }
        let max_segments = tiles.iter().map(|t| t.fresh.len()).max().unwrap_or(0);
        Compiled {
            rules,
            tiles,
            fit_tables,
            fit_of,
            max_segments,
            derived,
        }
    }

    /// The type `base` becomes under the change `tag` of the expansion deriving it, if any.
    pub fn derived(&self, base: TileIdx, tag: u8) -> Option<TileIdx> {
        self.derived
            .iter()
            .find(|d| d.base == base && d.tag == tag)
            .map(|d| d.tile)
    }

    pub fn tile(&self, t: TileIdx) -> &CompiledTile {
        &self.tiles[t as usize]
    }

    /// The fit table of tile type `t`: for every neighbour-constraint code of an empty cell
    /// (2 bits per side, N lowest: 0 = no neighbour, 1 + [`EdgeKind`] = the kind the
    /// neighbour shows), the distinct rotations of `t` that fit, as a bit per rotation. One
    /// lookup replaces four edge checks.
    #[inline]
    pub fn fits(&self, t: TileIdx) -> &[u8; 256] {
        &self.fit_tables[self.fit_of[t as usize] as usize]
    }
}

impl CompiledTile {
    /// Segment `seg` named by what it is on the tile turned `rot` quarter turns, never by its
    /// index in the tile's list: its kind, the sides it reaches and the half-edges it
    /// touches, both in board orientation (bits 0–3 sides, 4–11 half-edges, 12–15 the kind),
    /// and, for segments those leave alike (none in the bundled tiles: one cloister a tile),
    /// its ordinal among them (bits 16–23). Two rulesets that list a tile's segments in
    /// another order name each physical segment alike; the divergence records (event and
    /// state hashes) identify followers by it.
    pub fn segment_place(&self, seg: u8, rot: u8) -> u32 {
        let Some(s) = self.segments.get(seg as usize) else {
            return u32::MAX; // not a segment of this tile (never asked by the engine)
        };
        let alike = self.segments[..seg as usize]
            .iter()
            .filter(|o| o.kind == s.kind && o.sides == s.sides && o.halves == s.halves)
            .count() as u32;
        let sides = u32::from(rotate_side_mask(s.sides, rot));
        let halves = u32::from(rotate_half_mask(s.halves, rot));
        sides | halves << 4 | (s.kind as u32) << 12 | alike.min(255) << 16
    }
}

/// A tile type compiled, with its fit table (see [`Compiled::fits`]). `oriented`: every turn
/// of the tile is distinct (an expansion's mark on it turns with it).
fn compile_tile(
    t: &crate::tiles::TileType,
    marks: u8,
    oriented: bool,
) -> (CompiledTile, [u8; 256]) {
    let segments: Vec<Segment> = t
        .features
        .iter()
        .map(|f| Segment {
            kind: f.kind,
            sides: f.sides,
            halves: f.halves,
            pennants: f.pennants,
            cities: f.cities.iter().fold(0u16, |m, &c| m | (1u16 << (c & 15))),
            marks: f.marks,
        })
        .collect();
    let mut rotations = [Rotation {
        sig: 0,
        side_seg: [NONE; 4],
        half_seg: [NONE; 8],
        seg_sides: [0; 16],
    }; 4];
    for q in 0..4u8 {
        let r = &mut rotations[q as usize];
        r.sig = t.signature(q);
        for (i, s) in segments.iter().enumerate().take(16) {
            let sides = rotate_side_mask(s.sides, q);
            r.seg_sides[i] = sides;
            if matches!(s.kind, FeatureKind::City | FeatureKind::Road) {
                for side in Side::ALL {
                    if sides & side.bit() != 0 {
                        r.side_seg[side.index()] = i as u8;
                    }
                }
            }
            if s.kind == FeatureKind::Field {
                let halves = rotate_half_mask(s.halves, q);
                for h in HalfEdge::ALL {
                    if halves & h.bit() != 0 {
                        r.half_seg[h.index()] = i as u8;
                    }
                }
            }
        }
    }
    let distinct = if oriented {
        vec![0, 1, 2, 3]
    } else {
        t.distinct_rotations(marks)
    };
    let mut fits = [0u8; 256];
    for (code, slot) in fits.iter_mut().enumerate() {
        for &q in &distinct {
            if rotation_fits(rotations[q as usize].sig, code as u8) {
                *slot |= 1 << q;
            }
        }
    }
    let cloister = segments
        .iter()
        .position(|s| s.kind == FeatureKind::Cloister)
        .map_or(NONE, |i| i as u8);
    let closable: Vec<u8> = (0..segments.len())
        .filter(|&i| matches!(segments[i].kind, FeatureKind::City | FeatureKind::Road))
        .map(|i| i as u8)
        .collect();
    let closable_bits = closable
        .iter()
        .filter(|&&k| k < 64)
        .fold(0u64, |bits, &k| bits | 1 << k);
    let tile = CompiledTile {
        closable,
        closable_bits,
        segments,
        rotations,
        distinct,
        cloister,
        marks: t.marks,
        river: t.river_sides(),
        id_hash: hash_str(&t.id),
        fresh: t
            .features
            .iter()
            .enumerate()
            .map(|(i, f)| Component {
                kind: f.kind,
                open: match f.kind {
                    FeatureKind::City | FeatureKind::Road => f.sides.count_ones() as i32,
                    _ => 0,
                },
                pennants: f.pennants as u32,
                followers: Default::default(),
                nfollowers: 0,
                marks: f.marks,
                head: i as u32,
                tail: i as u32,
                done: false,
            })
            .collect(),
    };
    (tile, fits)
}

/// Whether a rotation with edge signature `sig` fits a cell with constraint `code`.
pub fn rotation_fits(sig: u8, code: u8) -> bool {
    (0..4).all(|s| {
        let want = (code >> (2 * s)) & 3;
        want == 0 || want - 1 == (sig >> (2 * s)) & 3
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constraint_codes_match_edges() {
        // sig: N city(2), E road(1), S field(0), W road(1)
        let sig = 2 | (1 << 2) | (1 << 6);
        assert!(rotation_fits(sig, 0));
        assert!(rotation_fits(sig, 3)); // N neighbour shows city
        assert!(!rotation_fits(sig, 1)); // N neighbour shows field
        assert!(rotation_fits(sig, 3 | (1 << 4))); // and S shows field
        assert!(!rotation_fits(sig, 3 | (2 << 4))); // S shows road
    }
}
