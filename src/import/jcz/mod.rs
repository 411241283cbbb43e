//! JCloisterZone 5.x saves (`.jcz`, JSON) as JCloisterZone writes them: parsing, the mapping
//! to a meeplab ruleset, and the translation of the message log into meeplab's semantic
//! decisions. Anything it cannot read is an error naming the message index and the field.
//!
//! # What is read
//! - `appVersion` must be 5.7.0 or later (older saves use another message format).
//! - `setup.sets`: `basic:1`, `basic:2` (its garden tiles read as their plain twins, or as
//!   themselves with the Abbot's gardens live, see [`crate::import::abbot`]),
//!   `goldmines`, `corn-circles/1`, `corn-circles/2`, `bridges-castles-and-bazaars:1`/`:2`
//!   (the 12 BC&B tiles; `:2`'s `BB/CFR!G` read as `BB/CFR!`), `inns-and-cathedrals:1`/`:2`
//!   (the 18 I&C tiles; `:2`'s `IC/CCCCG` and `IC/RFr.iG` read as their plain twins, see
//!   [`crate::import::inns`]), `mage-and-witch:1`/`:2` (see [`crate::import::magewitch`]),
//!   each with a copy count 1–4; `river/1`, `river/2` (one copy
//!   each, see [`crate::import::river`]); `flier:1`, `flier:2` (the 8 flier tiles, their
//!   element, flights and landings, see [`crate::import::flier`]). Any other set is refused,
//!   naming it.
//! - `setup.elements`, read as JCloisterZone's engine reads them: an element is on when its
//!   key is present (the client deletes switched-off elements; even `"farmers": false` means
//!   farmers on). `small-follower` (the follower count; required), `farmers`, `gold` (ingots
//!   on the Gold Mines tiles), `corn-circle` (the crop-circle action), `abbot` and `garden`
//!   (the abbot and live gardens, see [`crate::import::abbot`]; `garden` alone is inert), `castle` (the castles of Bridges, Castles & Bazaars, on whatever
//!   small cities the sets make), `bridge` and `bazaar` (BC&B's bridges and bazaars, see
//!   [`crate::import::bcb`]), `big-follower`, `inn` and `cathedral` (Inns & Cathedrals,
//!   together, see [`crate::import::inns`]), `mage` and `witch` (together, see
//!   [`crate::import::magewitch`]); any other element present is refused, naming it.
//! - `setup.rules`: `tiny-city-scoring` `"2"` (2-point small city) or `"4"`;
//!   `bazaar-no-auction` (each chooser takes a tile). Other rule keys only tune expansions
//!   meeplab does not play; they are ignored with a warning.
//! - `setup.start`: exactly `BA/RCr` (with a river: the spring `RI/s`) at (0,0), rotation
//!   `0` (an integer, as JCloisterZone writes it).
//! - `players[]` in seat order (`name`, or `nickname`).
//! - `initialRandom` and the `random` of `COMMIT`/`DEPLOY_MEEPLE`: JCloisterZone's draws are
//!   reproduced from them (see [`crate::import::draws`]).
//! - `replay[]`: `PLACE_TILE`, `PLACE_TOKEN` (`GOLD` with a position; `CASTLE` with a
//!   pointer `{position, feature: "City", location}` to the small city's segment on the tile
//!   just placed; `BRIDGE` with a pointer `{position, location: NS|WE, feature: Road}`),
//!   `DEPLOY_MEEPLE` (small followers `P.small.N`, the big follower `P.big.1`, on `City`/`Road`/`Field`/`Monastery`, a
//!   bridge being `Road` at `NS`/`WE`), `CIRCLE_REMOVE_OR_DEPLOY`, `RETURN_MEEPLE` (`source:
//!   CORN_CIRCLE`, pointer `{featurePointer, meepleId}`), `BAZAAR_BID {supplyIndex, price}`,
//!   `BAZAAR_BUY_OR_SELL {value: BUY|SELL}`, `PASS`, `COMMIT`; `UNDO` and anything else is
//!   refused.
//! - `gameAnnotations.drawOrder` (or `tilePack.params.drawOrder`): the draws, discarded tiles
//!   included; a final `#END` ends the pack there. `gameAnnotations.endTurn` (or
//!   `tilePack.params.drawLimit`): the number of draws the pack holds.
//! - `test.description`, `test.assertions[]` (see [`crate::import::assertions`]).
//!
//! # The turn, as JCloisterZone writes it
//! `PLACE_TILE` (active player; a bridge the placement needs is implied) · `PLACE_TOKEN
//! BRIDGE` (optional, on the tile just placed) · `PLACE_TOKEN GOLD` (second ingot, when there
//! is a choice) ·
//! `DEPLOY_MEEPLE` or `PASS` (only when a follower could be placed) · with castles, the castle
//! step when a small city with one follower was completed (JCloisterZone's `CastlePhase`,
//! before the commit and the scoring): from the active player round the table, each player
//! offered one sends `PLACE_TOKEN CASTLE` (one castle a player a turn) or `PASS`, and a
//! `PASS` ends the step · `COMMIT` · then, for a
//! crop-circle tile with any follower on the board, `CIRCLE_REMOVE_OR_DEPLOY` (active player)
//! and for each player with a follower on that kind of feature, from the next player round to
//! the active one: `DEPLOY_MEEPLE` + `COMMIT`, `PASS`, or `RETURN_MEEPLE` + `COMMIT`. After
//! a bazaar turn's `COMMIT`: the auction (`BAZAAR_BID`, `PASS`, `BAZAAR_BUY_OR_SELL`), then
//! the bought tiles' turns.
//!
//! # The mapping to a ruleset
//! The mapped ruleset is rule-language text that `extends` a bundled ruleset and overrides
//! the deck and options; it is loaded through the DSL like any other file:
//! - `gold` on → `goldmines-autopick.rules` (JCZ hands out gold by its automatic
//!   most-contested-first pick; its crop rules are HiG's: *may* deploy, same segment, which
//!   is what JCZ does); else the crop-circle action on → `cropcircles.rules`; else `castle`
//!   on → `castles.rules`; else `base.rules`.
//! - `castle` on over another parent: a `castles { supply = 3, supply_5_6 = 2, farm_bonus = 1 }`
//!   block (JCZ's 3 tokens, 2 with 5–6 players; a castle worth a city + 1 to farmers), with
//!   `gold = vicinity` when `gold` is on (JCZ's scoring castle claims its vicinity's ingots).
//! - BC&B (see [`crate::import::bcb`]): the sets add `include "tiles/bcb.tiles"` and `bcb xN`;
//!   `bridge` adds `bridges { supply = 3, supply_5_6 = 2, timing = before_follower,
//!   where = placed }`; `bazaar` adds `bazaars { auction = bids|none, raise_limit }`.
//! - `deck { base xN, goldmines-c1 xN, crop-circles-1 xN, crop-circles-2 xN }` from the sets
//!   (the start tile is one of the `BA/RCr` copies, as in JCZ). Gold Mines tiles without the
//!   `gold` element, and crop-circle tiles without `corn-circle`, are written into the text
//!   without their symbol: plain tiles of the same layout, as JCloisterZone plays them.
//! - `followers = small-follower`, `farms = off` without farmers,
//!   `score.city.small = tiles + pennants` for `tiny-city-scoring: "2"`, `players = 1..6`.
//!
//! # The translation
//! Each `PLACE_TILE` starts a turn whose active player is the message's `player` (checked
//! against the seat rotation). Then: `PLACE_TILE` → `Choice::Place` (rotation normalised to
//! the engine's representative of symmetric turns); `DEPLOY_MEEPLE`/`PASS` before `COMMIT` →
//! `Choice::Follower`; an expansion's messages → its decisions, in the generic forms its
//! module uses (a token on a tile, yes or no, a spot: `Choice::Token`, `Choice::Flag`,
//! `Choice::Spot`, or `Choice::SpotOf` for a follower of another kind such as the big
//! follower `P.big.1`; each part's file says which). A location in board orientation is turned
//! back by the tile's rotation and matched against the tile's segments (sides for cities and
//! roads, half-edges for fields, `I` for the cloister).
//!
//! Each part translates its own messages ([`JczPart::translate`], see its file); the core's
//! handlers are `PLACE_TILE`, `DEPLOY_MEEPLE`, `PASS` and `COMMIT`, which a part may take
//! where the turn is its own ([`JczPart::intercept`]).
//!
//! `PLACE_TOKEN CASTLE` becomes a [`CastleMark`](crate::import::castles::CastleMark)
//! (checked by [`crate::import::castles`]: on the tile just placed, a
//! single-edge city cap facing one on the neighbouring tile; a pointer elsewhere is an error
//! naming the message), not a decision: the engine asks `castles::CASTLE_BUILD` once per
//! small city it offers, in the tile's segment order, and the replay answers each offer yes
//! when the save builds a castle on that city and no otherwise (JCZ scored it: declined by
//! `PASS`, or never offered to that player after a `PASS` or his one castle). A castle the
//! engine does not offer, or a castle-step `PASS` in a turn with no offer, is an error.
//!
//! Bridges and bazaars become the `bridge`, `bazaar_select`, `bazaar_bid` and `bazaar_buy`
//! decisions ([`crate::import::bcb`] has the details): each turn with bridges records "no
//! bridge" unless a `PLACE_TOKEN BRIDGE` says where; a supply index is the tile the buyer
//! plays in the bazaar round.

//!
//! # The files
//! - `save.rs`: the JSON of a save, read into a [`JczGame`] (`game.rs`: set-up, players,
//!   messages, draws);
//! - `setup.rs`: the set-up as read ([`Setup`]: the core and each part's state, by type);
//! - `message.rs`: the decoded messages ([`Msg`], [`Message`], [`Pointer`]; a part's own as
//!   [`PartMsg`]);
//! - `part.rs`: the importer's seam, [`JczPart`]: what an expansion's part reads, maps,
//!   translates, answers in the replay and scores in the assertions;
//! - `parts.rs`: the registration list of the parts ([`parts::PARTS`]), the only shared file
//!   that names them;
//! - `mapping.rs`: the set-up mapped to a ruleset (rule-language text loaded through the DSL);
//! - `geometry.rs`: JCloisterZone's locations and rotations as meeplab's segments;
//! - `meeples.rs`: JCloisterZone's meeple ids: their seat, their check against the set-up and
//!   their kind of follower;
//! - `translate.rs`: the message log as placed tiles and decisions: the core's handlers, and
//!   each message handed to the parts in the list's order;
//! - `turn.rs`: the translation under way as the parts see it ([`Translator`], [`Step`],
//!   [`Current`]), with a slot per part for what it tracks; it asks no part;
//! - `translated.rs`: what the translation leaves ([`Translated`]: the draws, the decisions,
//!   the parts' tracks; [`DrawPlan`]).

mod game;
mod geometry;
mod mapping;
mod meeples;
pub mod message;
pub mod part;
pub mod parts;
mod save;
pub mod setup;
mod translate;
mod translated;
mod turn;

pub use game::{JczGame, TestSpec};
pub use geometry::{canonical_rot, segment_for};
pub use mapping::{load_ruleset, plain_twin, ruleset_text, setup_label, tile_of_jcz};
pub use message::{Message, Msg, PartMsg, Pointer};
pub(crate) use part::quoted;
pub use part::{
    Gardens, JczPart, Mapping, PackDraws, RawMessage, Scoring, TurnAnswers, TurnToPlay,
};
pub use save::{looks_like_jcz, parse, parse_json};
#[cfg(test)]
pub(crate) use save::{parse_message, parse_setup};

/// A set-up of the base game with the Gold Mines and Crop Circles II sets, its elements
/// `elements` (the parts' tests read theirs from it).
#[cfg(test)]
pub(crate) fn test_setup(elements: serde_json::Value) -> Result<Setup, JczError> {
    let v = serde_json::json!({
        "sets": {"basic:1": 1, "goldmines": 1, "corn-circles/2": 1},
        "elements": elements,
        "rules": {},
        "start": [{"tile": "BA/RCr", "x": 0, "y": 0, "rotation": 0}],
    });
    parse_setup(&v, &mut Vec::new())
}
pub use setup::{PartState, PartStates, Setup};
pub use translate::translate;
pub use translated::{Draw, DrawPlan, Translated};
pub use turn::{Current, Step, Translator};

use std::fmt;

/// Largest `.jcz` accepted.
pub const MAX_BYTES: usize = 16 << 20;
/// Oldest JCloisterZone version whose saves are read.
pub const MIN_VERSION: (u32, u32, u32) = (5, 7, 0);
/// The start tile meeplab supports.
pub const START_TILE: &str = "BA/RCr";

/// A problem with a `.jcz` file; `message` is the index into `replay[]` when it is about one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JczError {
    pub message: Option<usize>,
    pub kind: Option<String>,
    pub text: String,
}

impl JczError {
    pub(crate) fn new(text: impl Into<String>) -> JczError {
        JczError {
            message: None,
            kind: None,
            text: text.into(),
        }
    }
    pub(crate) fn at(index: usize, kind: &str, text: impl Into<String>) -> JczError {
        JczError {
            message: Some(index),
            kind: Some(kind.to_string()),
            text: text.into(),
        }
    }
}

impl fmt::Display for JczError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.message, &self.kind) {
            (Some(i), Some(k)) => write!(f, "replay message {i} ({k}): {}", self.text),
            (Some(i), None) => write!(f, "replay message {i}: {}", self.text),
            _ => f.write_str(&self.text),
        }
    }
}
