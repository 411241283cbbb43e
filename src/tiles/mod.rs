//! Tile geometry and tile types: the four sides, the eight field half-edges, rotation, and
//! what a tile type carries (its edges, its feature segments, its markers).
//!
//! Conventions (design.md §3, tiles.md §1):
//! - sides are `N E S W` (indices 0..4), rotation is clockwise, board `y` grows southward;
//! - field half-edges are `NL NR EL ER SL SR WL WR` (indices 0..8), clockwise from the
//!   north-west corner, left/right as seen from the tile centre looking out;
//! - across a shared edge `NL↔SR`, `NR↔SL`, `EL↔WR`, `ER↔WL`.
//!
//! Everything here is plain data with small pure functions; the engine compiles tile types
//! into its own compact tables once per ruleset.

use serde::Serialize;
use std::fmt;

/// One of the four sides of a tile, in clockwise order from north.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Side {
    N = 0,
    E = 1,
    S = 2,
    W = 3,
}

impl Side {
    pub const ALL: [Side; 4] = [Side::N, Side::E, Side::S, Side::W];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn from_index(i: usize) -> Side {
        Side::ALL[i & 3]
    }

    /// The side facing this one across a shared edge.
    pub fn opposite(self) -> Side {
        Side::from_index(self.index() + 2)
    }

    /// This side after turning the tile `quarter_turns` × 90° clockwise.
    pub fn rotated(self, quarter_turns: u8) -> Side {
        Side::from_index(self.index() + quarter_turns as usize)
    }

    /// Board offset (dx, dy) of the neighbour across this side; y grows southward.
    pub fn offset(self) -> (i32, i32) {
        match self {
            Side::N => (0, -1),
            Side::E => (1, 0),
            Side::S => (0, 1),
            Side::W => (-1, 0),
        }
    }

    pub fn bit(self) -> u8 {
        1 << self.index()
    }

    pub fn name(self) -> &'static str {
        ["N", "E", "S", "W"][self.index()]
    }

    pub fn parse(s: &str) -> Option<Side> {
        match s {
            "N" => Some(Side::N),
            "E" => Some(Side::E),
            "S" => Some(Side::S),
            "W" => Some(Side::W),
            _ => None,
        }
    }
}

/// One of the eight field half-edges, clockwise from the north-west corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum HalfEdge {
    NL = 0,
    NR = 1,
    EL = 2,
    ER = 3,
    SL = 4,
    SR = 5,
    WL = 6,
    WR = 7,
}

impl HalfEdge {
    pub const ALL: [HalfEdge; 8] = [
        HalfEdge::NL,
        HalfEdge::NR,
        HalfEdge::EL,
        HalfEdge::ER,
        HalfEdge::SL,
        HalfEdge::SR,
        HalfEdge::WL,
        HalfEdge::WR,
    ];
    pub const NAMES: [&'static str; 8] = ["NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn from_index(i: usize) -> HalfEdge {
        HalfEdge::ALL[i & 7]
    }

    /// The side this half-edge lies on.
    pub fn side(self) -> Side {
        Side::from_index(self.index() / 2)
    }

    /// The half-edge of the neighbouring tile that touches this one (`NL↔SR`, `EL↔WR`, …).
    pub fn across(self) -> HalfEdge {
        let i = self.index();
        let side = i / 2;
        let k = i % 2;
        HalfEdge::from_index(((side + 2) % 4) * 2 + (1 - k))
    }

    /// This half-edge after turning the tile `quarter_turns` × 90° clockwise.
    pub fn rotated(self, quarter_turns: u8) -> HalfEdge {
        HalfEdge::from_index(self.index() + 2 * quarter_turns as usize)
    }

    pub fn bit(self) -> u8 {
        1 << self.index()
    }

    pub fn name(self) -> &'static str {
        HalfEdge::NAMES[self.index()]
    }

    pub fn parse(s: &str) -> Option<HalfEdge> {
        HalfEdge::NAMES
            .iter()
            .position(|n| *n == s)
            .map(HalfEdge::from_index)
    }
}

/// Rotate a 4-bit side mask clockwise.
pub fn rotate_side_mask(mask: u8, quarter_turns: u8) -> u8 {
    let q = quarter_turns & 3;
    let m = mask & 0xF;
    ((m << q) | (m >> (4 - q))) & 0xF
}

/// Rotate an 8-bit half-edge mask clockwise.
pub fn rotate_half_mask(mask: u8, quarter_turns: u8) -> u8 {
    mask.rotate_left(2 * (quarter_turns as u32 & 3))
}

/// What a tile edge shows: the kinds edges must match on.
///
/// A river edge (`W`, water) matches only a river edge. It is no feature: no segment owns
/// it, nobody stands on it and it scores nothing; its two half-edges belong to fields, which
/// the river splits on a tile it runs through (as a road does). The core's packed edge
/// signature has room for three kinds, so it reads a river edge as a field edge (the fields
/// meet across it as across a field edge); keeping river to river is the river expansion's
/// placement rule (`engine::expansions::river`), read from [`TileType::river_sides`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum EdgeKind {
    Field = 0,
    Road = 1,
    City = 2,
    River = 3,
}

impl EdgeKind {
    pub fn letter(self) -> char {
        match self {
            EdgeKind::Field => 'F',
            EdgeKind::Road => 'R',
            EdgeKind::City => 'C',
            EdgeKind::River => 'W',
        }
    }

    pub fn from_letter(c: char) -> Option<EdgeKind> {
        match c {
            'F' => Some(EdgeKind::Field),
            'R' => Some(EdgeKind::Road),
            'C' => Some(EdgeKind::City),
            'W' => Some(EdgeKind::River),
            _ => None,
        }
    }

    /// The kind the core's edge signature matches this edge as (a river edge as a field
    /// edge: see [`EdgeKind`]).
    pub fn matched_as(self) -> EdgeKind {
        match self {
            EdgeKind::River => EdgeKind::Field,
            k => k,
        }
    }
}

/// The kinds of feature segment a tile can carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum FeatureKind {
    City,
    Road,
    Field,
    Cloister,
}

impl FeatureKind {
    /// Every kind, in discriminant order.
    pub const ALL: [FeatureKind; 4] = [
        FeatureKind::City,
        FeatureKind::Road,
        FeatureKind::Field,
        FeatureKind::Cloister,
    ];

    /// The kind whose discriminant is `i` (a city for anything out of range).
    pub fn from_index(i: usize) -> FeatureKind {
        FeatureKind::ALL
            .get(i)
            .copied()
            .unwrap_or(FeatureKind::City)
    }

    pub fn name(self) -> &'static str {
        match self {
            FeatureKind::City => "city",
            FeatureKind::Road => "road",
            FeatureKind::Field => "field",
            FeatureKind::Cloister => "cloister",
        }
    }
}

impl fmt::Display for FeatureKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One feature segment printed on a tile, in the tile's unrotated orientation.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct TileFeature {
    pub kind: FeatureKind,
    /// Sides this city or road segment reaches (bit per [`Side`]); empty for fields and
    /// cloisters. A road with one side ends on the tile.
    pub sides: u8,
    /// Half-edges this field segment touches (bit per [`HalfEdge`]); empty otherwise.
    pub halves: u8,
    /// Pennants (coats of arms) on this city segment.
    pub pennants: u8,
    /// For fields: indices (into the tile's `features`) of the city segments of the same tile
    /// this field touches — what farmers are paid for.
    pub cities: Vec<u8>,
    /// The expansions' marks on this segment (an inn on a road, a cathedral in a city): a bit
    /// per segment mark (`Expansion::SEGMENT_MARKS`); left out of JSON when none.
    #[serde(skip_serializing_if = "no_marks")]
    pub marks: u8,
}

/// Whether a segment carries no mark (its marks are left out of JSON).
fn no_marks(marks: &u8) -> bool {
    *marks == 0
}

impl TileFeature {
    pub fn city(sides: u8, pennants: u8) -> Self {
        TileFeature {
            kind: FeatureKind::City,
            sides,
            halves: 0,
            pennants,
            cities: Vec::new(),
            marks: 0,
        }
    }

    pub fn road(sides: u8) -> Self {
        TileFeature {
            kind: FeatureKind::Road,
            sides,
            halves: 0,
            pennants: 0,
            cities: Vec::new(),
            marks: 0,
        }
    }

    pub fn field(halves: u8, cities: Vec<u8>) -> Self {
        TileFeature {
            kind: FeatureKind::Field,
            sides: 0,
            halves,
            pennants: 0,
            cities,
            marks: 0,
        }
    }

    pub fn cloister() -> Self {
        TileFeature {
            kind: FeatureKind::Cloister,
            sides: 0,
            halves: 0,
            pennants: 0,
            cities: Vec::new(),
            marks: 0,
        }
    }
}

/// What a tile looks like turned (see [`TileType::rotation_key`]): its features' kinds, sides,
/// halves, pennants and segment marks, sorted, and its river sides.
pub type RotationKey = (Vec<(FeatureKind, u8, u8, u8, u8)>, u8);

/// A tile type: edges, feature segments and markers, in its unrotated orientation.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct TileType {
    /// Stable id, unique within a ruleset (deck coupling keys on it).
    pub id: String,
    /// JCloisterZone's id for the same layout, for reading `.jcz` records.
    pub jcz_id: Option<String>,
    /// What each side shows, indexed by [`Side`].
    pub edges: [EdgeKind; 4],
    pub features: Vec<TileFeature>,
    /// Inert decorations (cows, water tower, …): carried, never read by the rules.
    pub decor: Vec<String>,
    /// The expansions' marks it carries (a bazaar…): a bit per mark, in the order of
    /// `engine::expansions::TILE_MARKS` (each module declares its own).
    pub marks: u32,
}

impl TileType {
    /// The edge signature packed as 2 bits per side (N lowest), after rotation; a river
    /// edge packs as a field edge ([`EdgeKind::matched_as`]).
    pub fn signature(&self, quarter_turns: u8) -> u8 {
        let mut sig = 0u8;
        for side in Side::ALL {
            let kind = self.edges[side.index()].matched_as();
            let placed = side.rotated(quarter_turns);
            sig |= (kind as u8) << (2 * placed.index());
        }
        sig
    }

    /// The sides (a bit per [`Side`], unrotated) showing a river edge; 0 for most tiles.
    pub fn river_sides(&self) -> u8 {
        Side::ALL
            .iter()
            .filter(|s| self.edges[s.index()] == EdgeKind::River)
            .fold(0, |m, s| m | s.bit())
    }

    /// What the tile looks like turned `quarter_turns`: its features' kinds, sides, halves,
    /// pennants and the segment marks of `marks` (those that matter in the game: goods, an
    /// inn, a cathedral; TB/CcCc.w turned half round has its wine on the other city), sorted,
    /// and where its river runs. Two turns with equal keys place the same tile.
    pub fn rotation_key(&self, quarter_turns: u8, marks: u8) -> RotationKey {
        let mut key: Vec<(FeatureKind, u8, u8, u8, u8)> = self
            .features
            .iter()
            .map(|f| {
                (
                    f.kind,
                    rotate_side_mask(f.sides, quarter_turns),
                    rotate_half_mask(f.halves, quarter_turns),
                    f.pennants,
                    f.marks & marks,
                )
            })
            .collect();
        key.sort();
        (key, rotate_side_mask(self.river_sides(), quarter_turns))
    }

    /// The distinct rotations (0..4 quarter turns) of this tile, telling the segment marks
    /// `marks` apart: symmetric rotations are counted once, keeping the smallest turn.
    pub fn distinct_rotations(&self, marks: u8) -> Vec<u8> {
        let mut seen: Vec<RotationKey> = Vec::new();
        let mut out = Vec::new();
        for q in 0..4u8 {
            let key = self.rotation_key(q, marks);
            if !seen.contains(&key) {
                seen.push(key);
                out.push(q);
            }
        }
        out
    }

    /// The smallest turn that places the same geometry as `quarter_turns` (the rotation the
    /// engine uses for it).
    pub fn canonical_rotation(&self, quarter_turns: u8, marks: u8) -> u8 {
        let want = self.rotation_key(quarter_turns & 3, marks);
        (0..4u8)
            .find(|&r| self.rotation_key(r, marks) == want)
            .unwrap_or(quarter_turns & 3)
    }

    pub fn has_cloister(&self) -> bool {
        self.features
            .iter()
            .any(|f| f.kind == FeatureKind::Cloister)
    }

    pub fn pennants(&self) -> u32 {
        self.features.iter().map(|f| f.pennants as u32).sum()
    }

    /// The edge string in `NESW` order, e.g. `CRFR`.
    pub fn edge_string(&self) -> String {
        self.edges.iter().map(|e| e.letter()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_edges_meet_across_shared_edges() {
        use HalfEdge::*;
        assert_eq!(NL.across(), SR);
        assert_eq!(NR.across(), SL);
        assert_eq!(EL.across(), WR);
        assert_eq!(ER.across(), WL);
        for h in HalfEdge::ALL {
            assert_eq!(h.across().across(), h);
            assert_eq!(h.across().side(), h.side().opposite());
        }
    }

    #[test]
    fn rotation_is_clockwise() {
        assert_eq!(Side::N.rotated(1), Side::E);
        assert_eq!(HalfEdge::NL.rotated(1), HalfEdge::EL);
        assert_eq!(HalfEdge::WR.rotated(1), HalfEdge::NR);
        assert_eq!(
            rotate_side_mask(Side::N.bit() | Side::W.bit(), 1),
            Side::N.bit() | Side::E.bit()
        );
        assert_eq!(rotate_half_mask(HalfEdge::WR.bit(), 1), HalfEdge::NR.bit());
    }

    fn straight_road() -> TileType {
        TileType {
            id: "U".into(),
            jcz_id: Some("BA/RFr".into()),
            edges: [
                EdgeKind::Field,
                EdgeKind::Road,
                EdgeKind::Field,
                EdgeKind::Road,
            ],
            features: vec![
                TileFeature::road(Side::E.bit() | Side::W.bit()),
                TileFeature::field(0b1000_0111, vec![]),
                TileFeature::field(0b0111_1000, vec![]),
            ],
            decor: vec![],
            marks: 0,
        }
    }

    #[test]
    fn a_river_edge_is_w_and_matches_as_a_field_in_the_signature() {
        assert_eq!(EdgeKind::from_letter('W'), Some(EdgeKind::River));
        assert_eq!(EdgeKind::River.letter(), 'W');
        assert_eq!(EdgeKind::from_letter('w'), None);
        // the spring: one field all round, the river leaving east
        let spring = TileType {
            id: "RI/s".into(),
            jcz_id: None,
            edges: [
                EdgeKind::Field,
                EdgeKind::River,
                EdgeKind::Field,
                EdgeKind::Field,
            ],
            features: vec![TileFeature::field(0xFF, vec![])],
            decor: vec![],
            marks: 0,
        };
        assert_eq!(spring.river_sides(), Side::E.bit());
        assert_eq!(spring.signature(0), 0, "river edges pack as field edges");
        assert_eq!(spring.edge_string(), "FWFF");
        // its field looks alike every way round, its river does not
        assert_eq!(spring.distinct_rotations(0), vec![0, 1, 2, 3]);
    }

    #[test]
    fn symmetric_rotations_are_counted_once() {
        assert_eq!(straight_road().distinct_rotations(0), vec![0, 1]);
        assert_eq!(straight_road().signature(0), straight_road().signature(2));
    }
}
