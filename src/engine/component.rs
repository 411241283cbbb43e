//! The facts of a connected feature of the board, kept at its union-find root: what the
//! game reads to score it and to say who holds it ([`crate::engine::Game::feature`]). The
//! compiled tiles carry a fresh one per segment, copied in when the tile is placed.

use crate::tiles::FeatureKind;

/// Facts of a connected feature, valid at its union-find root ([`crate::engine::Game::feature`]).
#[derive(Clone, Copy, Debug)]
pub struct Component {
    pub kind: FeatureKind,
    /// Open city/road sides; 0 = complete.
    pub open: i32,
    pub pennants: u32,
    pub followers: [u8; crate::ruleset::MAX_PLAYERS as usize],
    pub nfollowers: u8,
    /// The segment marks of every segment it holds (see `Expansion::SEGMENT_MARKS`), or-ed
    /// together as segments join: an inn, a cathedral, a pig herd read in one load instead
    /// of a walk of the feature (checked against the walk by `check_invariants`).
    pub marks: u8,
    /// Segment chain (linked through `Game::next`).
    pub head: u32,
    pub tail: u32,
    /// Already scored as complete.
    pub done: bool,
}
