//! A save in engine terms, as the translation ([`super::translate`]) leaves it: the placed
//! tiles ([`Draw`]), the decisions with their messages, how JCloisterZone drew the pack, and
//! what the importer parts track for the replay.

use super::setup::PartStates;
use crate::engine::TakenDecision;
use crate::ruleset::TileIdx;

/// One placed tile of the translated record.
#[derive(Clone, Debug, PartialEq)]
pub struct Draw {
    /// meeplab tile id (the JCZ id, garden tiles read as their plain twins).
    pub id: String,
    /// The JCloisterZone id as the save writes it.
    pub jcz_id: String,
    pub tile: TileIdx,
    pub player: u8,
    /// Index of its `PLACE_TILE` message.
    pub message: usize,
    pub x: i32,
    pub y: i32,
    /// Normalised rotation.
    pub rot: u8,
    /// The `random` the last random-changing message before this draw set (JCZ draws this
    /// tile with it, after the previous turn's last message).
    pub random_before: Option<f64>,
}

/// A save in engine terms.
#[derive(Clone, Debug, PartialEq)]
pub struct Translated {
    pub draws: Vec<Draw>,
    pub decisions: Vec<TakenDecision>,
    /// `replay[]` index of each decision.
    pub origins: Vec<usize>,
    /// How JCloisterZone drew the pack (see [`crate::import::draws`]).
    pub plan: DrawPlan,
    /// The `random` set after the last `PLACE_TILE` (the draw after the last turn uses it).
    pub random_after: Option<f64>,
    /// The save ends inside a turn: the index of the last message, and what is missing.
    pub open_turn: Option<(usize, String)>,
    /// Tiles of the sets never placed (meeplab tile indices, one entry per copy), for
    /// deciding the end of the game from the pack's contents when the draws cannot be
    /// reproduced.
    pub left_in_pack: Vec<TileIdx>,
    /// The players' names, in seat order.
    pub names: Vec<String>,
    /// What the importer parts track of the game, by type, for the replay (see
    /// [`super::JczPart::translate`]).
    pub parts: PartStates,
}

impl Translated {
    /// The `replay[]` index of a recorded decision.
    pub fn origin_of(&self, d: &TakenDecision) -> Option<usize> {
        self.decisions
            .iter()
            .position(|x| x == d)
            .map(|i| self.origins[i])
    }
}

/// How a save's pack is drawn (everything but the board, which decides discards).
#[derive(Clone, Debug, PartialEq)]
pub struct DrawPlan {
    /// The pack after the start tile was taken out: JCloisterZone ids, sorted.
    pub pack: Vec<String>,
    /// The pack is drawn in tile groups, one after the other, when a part's set-up says so
    /// ([`JczPart::draws_in_groups`](super::JczPart::draws_in_groups): JCloisterZone's
    /// `RiverCapability`; see [`crate::import::draws::Pack::new`]).
    pub in_groups: bool,
    /// `gameAnnotations.drawOrder` without its final `#END`.
    pub forced: Vec<String>,
    /// The draw order ended with `#END`: the pack ends with it.
    pub end_marker: bool,
    /// `gameAnnotations.endTurn`: the pack holds this many draws.
    pub limit: Option<u32>,
    /// `initialRandom`.
    pub initial_random: Option<f64>,
}
