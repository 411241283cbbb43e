//! A save in engine terms, as the translation ([`super::translate`]) leaves it: the placed
//! tiles ([`Draw`]), the decisions with their messages, how JCloisterZone drew the pack, and
//! what the castles and the importer parts need of the replay.

use super::setup::PartStates;
use crate::engine::TakenDecision;
use crate::import::draws::DrawPlan;
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
    /// The castles built (`PLACE_TOKEN CASTLE`), in message order. They are not among
    /// `decisions`: the engine asks one `CASTLE_BUILD` per small city it offers, and which
    /// city an offer is only the replay knows (see [`crate::import::replay`]).
    pub castles: Vec<CastleMark>,
    /// The castle step's `PASS`es: (recorded turn, message index).
    pub castle_passes: Vec<(u32, usize)>,
    /// What the importer parts track of the translation, by type (BC&B's auctions, see
    /// [`crate::import::bcb`]).
    pub parts: PartStates,
    /// The flier's die of each flight: (recorded turn, 1–3), from the flight's `random`
    /// (see [`crate::import::flier`]); the replay forces it.
    pub flier_rolls: Vec<(u32, u8)>,
}

/// A castle a save builds: the city's segment on the tile just placed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CastleMark {
    /// The recorded turn (1-based, as `TakenDecision::turn`).
    pub turn: u32,
    pub player: u8,
    /// Index of its `PLACE_TOKEN` message.
    pub message: usize,
    pub x: i32,
    pub y: i32,
    pub segment: u8,
    /// The location as the save writes it (for messages).
    pub location: String,
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
