//! Bridges, Castles & Bazaars in JCloisterZone saves: the parts beyond castles (which
//! [`crate::import::jcz`] reads itself): the tile sets `bridges-castles-and-bazaars:1`/`:2`,
//! the elements `bridge` and `bazaar`, the rule `bazaar-no-auction`, and the messages
//! `PLACE_TOKEN BRIDGE`, `DEPLOY_MEEPLE` on a bridge, `BAZAAR_BID`, `PASS` while bidding and
//! `BAZAAR_BUY_OR_SELL`. Its importer part, [`PART`], is registered in [`crate::import::jcz::parts`];
//! the translation's handlers delegate here.
//!
//! # The mapping
//! - The sets add `include "tiles/bcb.tiles"` and `bcb xN` to the deck (JCloisterZone's
//!   `BB/CFR!G` of the 2nd edition, printed with a garden, is meeplab's `BB/CFR!`: gardens
//!   are inert without the Abbot, as for `basic:2`).
//! - `bridge` → `bridges { supply = 3, supply_5_6 = 2, timing = before_follower,
//!   where = placed }`: JCloisterZone offers an optional bridge only on the tile just placed,
//!   before the follower; a bridge on a neighbour only when the placement needs it.
//! - `bazaar` → `bazaars { auction = bids (none with bazaar-no-auction), raise_limit,
//!   next_chooser = left }`, the limit the largest price in the save, at least 10 (the
//!   engine's bound on a bid's options); after a sale JCloisterZone passes the choice on to
//!   the seller's left (`BazaarPhase.nextSelectingPlayer`).
//!
//! # The translation
//! - With `bridge` on, each turn records the `bridge` decision as "none" unless the turn has a
//!   `PLACE_TOKEN BRIDGE {position, location NS|WE}` (board orientation), which becomes
//!   `Choice::Token { at: Some((x, y, axis)) }` (axis 0 = NS, 1 = WE). A bridge the placement
//!   needs is not a message: the engine builds it with the placement.
//! - `DEPLOY_MEEPLE` on `Road` at `NS`/`WE` that is no printed road of the tile is the bridge:
//!   the last segment of the bridged tile type.
//! - The auction after the bazaar turn's `COMMIT` is followed as JCloisterZone runs it
//!   (`BazaarPhase`): the selector's `BAZAAR_BID {supplyIndex, price}` is `bazaar_select`
//!   (the tile at that supply index) and, with bidding, the opening `bazaar_bid`; the others'
//!   `BAZAAR_BID` / `PASS` are raises / passes; `BAZAAR_BUY_OR_SELL` is `bazaar_buy`. The
//!   tiles of the supply are known from the turns that play them (each buyer's next turn).
//! - Draws: the auction's tiles are drawn from JCloisterZone's pack right after the bazaar
//!   turn (with its `COMMIT`'s random, or the next `drawOrder` entries), in supply order, and
//!   the bought tiles' turns draw nothing.
//!
//! # The files
//! - `mod.rs`: the sets, the set-up, the messages read, and the mapping lines;
//! - `translate.rs`: the messages as decisions (bridges, the auctions), for the translator;
//! - `replay.rs`: what the replay asks (draws of an auction, a bought tile's turn, bridges).

use crate::engine::{Choice, Chooser, Decision, Event, Game, TakenDecision};
use crate::import::jcz::part::{Gardens, JczPart, Mapping, RawMessage};
use crate::import::jcz::{
    quoted, Current, JczError, Message, Msg, PackDraws, PartMsg, Pointer, Setup, Step, Translated,
    Translator, TurnToPlay,
};
use crate::ruleset::Ruleset;
use crate::tiles::{FeatureKind, TileType};
use serde_json::Value;
use std::path::Path;

mod replay;
mod translate;

pub use replay::{draw_auction, explain, for_rules, play};
pub use translate::{finish, on_msg, on_place, Auction, BcbTrack, Ctx};

/// The 1st edition's tiles (JCloisterZone's `bridges-castles-and-bazaars:1`).
pub const BCB_1: &[(&str, u32)] = &[
    ("BB/Cccc.b", 2),
    ("BB/CCCR", 1),
    ("BB/CFc.b", 1),
    ("BB/CFR!", 1),
    ("BB/CFR.b", 1),
    ("BB/F.b", 1),
    ("BB/LCFc", 1),
    ("BB/LRFr", 1),
    ("BB/R.bi", 1),
    ("BB/RFR.b", 1),
    ("BB/RFR.bi", 1),
];

/// The 2nd edition's: `BB/CFR!` printed with a garden (`BB/CFR!G`).
pub const BCB_2: &[(&str, u32)] = &[
    ("BB/Cccc.b", 2),
    ("BB/CCCR", 1),
    ("BB/CFc.b", 1),
    ("BB/CFR!G", 1),
    ("BB/CFR.b", 1),
    ("BB/F.b", 1),
    ("BB/LCFc", 1),
    ("BB/LRFr", 1),
    ("BB/R.bi", 1),
    ("BB/RFR.b", 1),
    ("BB/RFR.bi", 1),
];

/// The set names.
pub const SETS: [&str; 2] = [
    "bridges-castles-and-bazaars:1",
    "bridges-castles-and-bazaars:2",
];

/// The highest bid the engine's options reach (`bazaars.raise_limit`'s maximum).
pub const MAX_PRICE: u32 = 200;

/// BC&B's part of a save's set-up (castles are [`Setup::castle`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BcbSetup {
    /// Copies of the BC&B tiles (`:1` and `:2` together).
    pub copies: u32,
    /// The `bridge` element.
    pub bridge: bool,
    /// The `bazaar` element.
    pub bazaar: bool,
    /// The rule `bazaar-no-auction`.
    pub no_auction: bool,
    /// The largest price the save bids (the mapped `raise_limit` is at least 10).
    pub max_price: u32,
}

/// The BC&B messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BcbMsg {
    /// `PLACE_TOKEN BRIDGE`: axis 0 = north–south (`NS`), 1 = west–east (`WE`).
    Bridge { x: i32, y: i32, axis: u8 },
    /// `BAZAAR_BID`.
    Bid { supply: usize, price: u32 },
    /// `BAZAAR_BUY_OR_SELL`.
    BuyOrSell { buy: bool },
}

impl BcbMsg {
    pub fn name(&self) -> &'static str {
        match self {
            BcbMsg::Bridge { .. } => "PLACE_TOKEN",
            BcbMsg::Bid { .. } => "BAZAAR_BID",
            BcbMsg::BuyOrSell { .. } => "BAZAAR_BUY_OR_SELL",
        }
    }
}

/// A BC&B message as a part's message of the log.
fn part_msg(b: BcbMsg) -> Msg {
    Msg::Part(PartMsg::new(b.name(), b))
}

fn as_i32(v: &Value) -> Option<i32> {
    v.as_i64().and_then(|n| i32::try_from(n).ok())
}

/// `PLACE_TOKEN BRIDGE {pointer: {position, location: NS|WE, feature: Road}}`.
pub fn parse_bridge(payload: &Value, bad: &dyn Fn(String) -> JczError) -> Result<Msg, JczError> {
    let p = payload.get("pointer").ok_or_else(|| {
        bad("payload.pointer is missing (JCloisterZone writes {position, location, feature} of the bridge)".into())
    })?;
    let pos = p
        .get("position")
        .and_then(Value::as_array)
        .filter(|a| a.len() == 2)
        .and_then(|a| Some((as_i32(&a[0])?, as_i32(&a[1])?)))
        .ok_or_else(|| bad("payload.pointer.position must be [x, y]".into()))?;
    match p.get("feature").and_then(Value::as_str) {
        Some("Road") => {}
        f => {
            return Err(bad(format!(
                "payload.pointer.feature = {}: a bridge is a Road",
                f.unwrap_or("missing")
            )))
        }
    }
    let axis = match p.get("location").and_then(Value::as_str) {
        Some("NS") => 0,
        Some("WE") => 1,
        l => {
            return Err(bad(format!(
                "payload.pointer.location = {}: a bridge is NS or WE",
                l.unwrap_or("missing")
            )))
        }
    };
    Ok(part_msg(BcbMsg::Bridge {
        x: pos.0,
        y: pos.1,
        axis,
    }))
}

/// `BAZAAR_BID {supplyIndex, price}` and `BAZAAR_BUY_OR_SELL {value: BUY|SELL}`.
pub fn parse_bazaar(
    kind: &str,
    payload: &Value,
    bad: &dyn Fn(String) -> JczError,
) -> Result<Msg, JczError> {
    if kind == "BAZAAR_BUY_OR_SELL" {
        return match payload.get("value").and_then(Value::as_str) {
            Some("BUY") => Ok(part_msg(BcbMsg::BuyOrSell { buy: true })),
            Some("SELL") => Ok(part_msg(BcbMsg::BuyOrSell { buy: false })),
            _ => Err(bad("payload.value must be BUY or SELL".into())),
        };
    }
    let supply = payload
        .get("supplyIndex")
        .and_then(Value::as_u64)
        .filter(|&i| (i as usize) < crate::engine::MAX_PLAYERS)
        .ok_or_else(|| bad("payload.supplyIndex must be an index of the auction's tiles".into()))?
        as usize;
    let price = payload
        .get("price")
        .and_then(Value::as_u64)
        .ok_or_else(|| bad("payload.price must be a number of points (0 or more)".into()))?;
    if price > MAX_PRICE as u64 {
        return Err(bad(format!(
            "payload.price = {price}: meeplab's bids go up to {MAX_PRICE}"
        )));
    }
    Ok(part_msg(BcbMsg::Bid {
        supply,
        price: price as u32,
    }))
}

/// The largest price the messages bid (for the mapped `raise_limit`).
pub fn max_price(messages: &[Message]) -> u32 {
    messages
        .iter()
        .filter_map(|m| match &m.msg {
            Msg::Part(p) => match p.get::<BcbMsg>() {
                Some(&BcbMsg::Bid { price, .. }) => Some(price),
                _ => None,
            },
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

/// The words for a `BB/…` id the game's tile sets do not hold.
pub fn unknown_tile_text(tile: &str, s: &Setup) -> String {
    if s.part::<BcbSetup>().copies == 0 {
        format!(
            "`{tile}` is a tile of Bridges, Castles & Bazaars, but the save's setup.sets has no bridges-castles-and-bazaars:1/:2"
        )
    } else {
        format!(
            "unknown tile id `{tile}`: not a tile of Bridges, Castles & Bazaars (JCloisterZone's BB/ ids: {})",
            BCB_1
                .iter()
                .map(|(id, _)| *id)
                .chain(["BB/CFR!G"])
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

/// `+ bridges`, `+ bazaars` for the set-up's label.
pub fn label(s: &BcbSetup) -> String {
    let mut out = String::new();
    if s.bridge {
        out.push_str(" + bridges");
    }
    if s.bazaar {
        out.push_str(if s.no_auction {
            " + bazaars (no bidding)"
        } else {
            " + bazaars"
        });
    }
    out
}

/// The rule-language lines of BC&B's tiles, bridges and bazaars; the tiles' deck entry is
/// added to `deck`.
pub fn ruleset_lines(s: &BcbSetup, dir: &Path, deck: &mut Vec<String>) -> String {
    let mut t = String::new();
    if s.copies > 0 {
        t.push_str(&format!(
            "include {}\n",
            quoted(&dir.join("tiles/bcb.tiles"))
        ));
        deck.push(format!("bcb x{}", s.copies));
    }
    if s.bridge {
        // JCloisterZone: 3 bridges (2 with 5-6 players), before the follower, optional ones
        // only on the tile placed
        t.push_str("bridges source \"JCloisterZone bridge element\" {\n");
        t.push_str(
            "  supply = 3\n  supply_5_6 = 2\n  timing = before_follower\n  where = placed\n}\n",
        );
    }
    if s.bazaar {
        t.push_str("bazaars source \"JCloisterZone bazaar element\" {\n");
        t.push_str(&format!(
            "  auction = {}\n  raise_limit = {}\n  next_chooser = left\n}}\n",
            if s.no_auction { "none" } else { "bids" },
            s.max_price.clamp(10, MAX_PRICE)
        ));
    }
    t
}

/// The segment a `DEPLOY_MEEPLE` on a bridge names: the last segment of the bridged type
/// (`Road` at `NS` or `WE` that `t` has no printed road for).
pub fn bridge_segment(t: &TileType, p: &Pointer) -> Option<u8> {
    (p.feature == Some(FeatureKind::Road) && matches!(p.location.as_str(), "NS" | "WE"))
        .then_some(t.features.len() as u8)
}

/// A bridge or bazaar message (`None`: a `PASS` while bidding), with where the turn is.
fn translate_msg(t: &mut Translator, at: &Current, msg: Option<&BcbMsg>) -> Result<(), JczError> {
    let ctx = Ctx {
        g: t.game(),
        index: at.index,
        from: at.from,
        turn: t.turn(),
        active: t.active(),
        committed: t.step() != Step::Main,
        followed: t.follower_done(),
    };
    on_msg(t.out(), &ctx, msg).map_err(|e| at.err(e))
}

/// The importer part of Bridges, Castles & Bazaars beyond castles.
pub struct BcbPart;

/// Its registration (in [`crate::import::jcz::parts`]).
pub static PART: BcbPart = BcbPart;

impl JczPart for BcbPart {
    fn name(&self) -> &'static str {
        "bridges and bazaars"
    }
    fn sets(&self) -> &'static [&'static str] {
        &SETS
    }
    fn read_set(&self, _set: &str, copies: u32, s: &mut Setup) -> Result<(), JczError> {
        s.part_mut::<BcbSetup>().copies += copies;
        Ok(())
    }
    fn elements(&self) -> &'static [&'static str] {
        &["bridge", "bazaar"]
    }
    fn read_element(&self, name: &str, _v: &Value, s: &mut Setup) -> Result<(), JczError> {
        let b = s.part_mut::<BcbSetup>();
        if name == "bridge" {
            b.bridge = true;
        } else {
            b.bazaar = true;
        }
        Ok(())
    }
    fn read_rule(&self, name: &str, v: &Value, s: &mut Setup) -> Option<Result<(), JczError>> {
        (name == "bazaar-no-auction").then(|| {
            s.part_mut::<BcbSetup>().no_auction = v.as_bool() != Some(false);
            Ok(())
        })
    }
    fn messages(&self) -> &'static [&'static str] {
        &["PLACE_TOKEN BRIDGE", "BAZAAR_BID", "BAZAAR_BUY_OR_SELL"]
    }
    fn parse_message(&self, m: &RawMessage) -> Option<Result<Msg, JczError>> {
        match m.kind {
            "PLACE_TOKEN" if m.token() == "BRIDGE" => Some(parse_bridge(m.payload, m.bad)),
            "BAZAAR_BID" | "BAZAAR_BUY_OR_SELL" => Some(parse_bazaar(m.kind, m.payload, m.bad)),
            _ => None,
        }
    }
    fn translate(
        &self,
        t: &mut Translator,
        at: &Current,
        _m: &Message,
        msg: &PartMsg,
    ) -> Option<Result<(), JczError>> {
        let b = msg.get::<BcbMsg>()?;
        Some(translate_msg(t, at, Some(b)))
    }
    fn intercept(
        &self,
        t: &mut Translator,
        at: &Current,
        msg: &Msg,
    ) -> Option<Result<(), JczError>> {
        // a PASS while bidding (after the bazaar turn's COMMIT)
        let bidding = matches!(msg, Msg::Pass)
            && t.step() == Step::Committed
            && t.game_part_mut::<BcbTrack>().bidding();
        bidding.then(|| translate_msg(t, at, None))
    }
    fn unknown_tile(&self, s: &Setup, id: &str) -> Option<String> {
        id.starts_with("BB/").then(|| unknown_tile_text(id, s))
    }
    fn on_place(&self, t: &mut Translator, at: &Current) -> Result<(), JczError> {
        let g = t.game();
        let (turn, player) = (t.turn(), t.active());
        on_place(t.out(), g, at.index, turn, player).map_err(|e| at.err(e))
    }
    fn segment(&self, tile: &TileType, p: &Pointer) -> Option<u8> {
        bridge_segment(tile, p)
    }
    fn finish_translation(&self, out: &mut Translated, last: usize) -> Result<(), JczError> {
        finish(out, last)
    }
    fn draws_tile(&self, tr: &Translated, k: usize) -> bool {
        !tr.parts.get::<BcbTrack>().is_bought(k)
    }
    fn draw_after_turn(
        &self,
        pack: &mut dyn PackDraws,
        tr: &Translated,
        k: usize,
    ) -> Result<(), (usize, String)> {
        draw_auction(pack, tr, k)
    }
    fn for_rules(
        &self,
        tr: &Translated,
        rules: &Ruleset,
        d: &TakenDecision,
    ) -> Option<TakenDecision> {
        matches!(d.choice, Choice::Tile { .. }).then(|| for_rules(tr, rules, d))
    }
    fn play_turn(
        &self,
        game: &mut Game,
        t: TurnToPlay,
        mut c: &mut dyn Chooser,
        events: &mut Vec<Event>,
    ) -> Option<Result<(), String>> {
        let bazaars = game.rules().rules.ext_in_play("bazaars.");
        bazaars.then(|| play(game, t.tr, t.k, t.tile, t.player, &mut c, events))
    }
    fn explain(&self, game: &Game, d: &Decision, recorded: &Choice) -> Option<String> {
        explain(game, d, recorded)
    }
    fn finish(&self, s: &mut Setup, messages: &[Message]) -> Result<(), JczError> {
        s.part_mut::<BcbSetup>().max_price = max_price(messages);
        Ok(())
    }
    fn label(&self, s: &Setup) -> String {
        label(&s.part::<BcbSetup>())
    }
    fn ruleset_lines(&self, s: &Setup, m: &mut Mapping) -> Result<String, String> {
        Ok(ruleset_lines(&s.part::<BcbSetup>(), m.dir, &mut m.deck))
    }
    fn gardens(&self) -> &'static [Gardens] {
        &[Gardens {
            set: "bridges-castles-and-bazaars:2",
            plain_set: "bcb",
            file: "tiles/abbot-bcb.tiles",
            garden_set: "bcb-gardens",
            tiles: &["BB/CFR!G"],
        }]
    }
    fn plain_twin(&self, id: &str) -> Option<&'static str> {
        (id == "BB/CFR!G").then_some("BB/CFR!")
    }
    fn set_tiles(&self, set: &str) -> Option<&'static [(&'static str, u32)]> {
        match set {
            "bridges-castles-and-bazaars:1" => Some(BCB_1),
            "bridges-castles-and-bazaars:2" => Some(BCB_2),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::jcz::{parse_message, parse_setup, JczError};
    use serde_json::json;

    fn parse(m: Value) -> Result<Msg, JczError> {
        parse_message(3, &m).map(|m| m.msg)
    }

    #[test]
    fn messages_are_read() {
        let m = json!({"type": "PLACE_TOKEN", "player": 0,
            "payload": {"token": "BRIDGE", "pointer": {"position": [0, 1], "feature": "Road", "location": "WE"}}});
        assert_eq!(
            parse(m).unwrap(),
            part_msg(BcbMsg::Bridge {
                x: 0,
                y: 1,
                axis: 1
            })
        );
        let m = json!({"type": "PLACE_TOKEN", "player": 0,
            "payload": {"token": "BRIDGE", "pointer": {"position": [0, 1], "feature": "Road", "location": "N"}}});
        assert!(parse(m).unwrap_err().to_string().contains("NS or WE"));
        let m =
            json!({"type": "BAZAAR_BID", "player": 1, "payload": {"supplyIndex": 2, "price": 7}});
        assert_eq!(
            parse(m).unwrap(),
            part_msg(BcbMsg::Bid {
                supply: 2,
                price: 7
            })
        );
        let m =
            json!({"type": "BAZAAR_BID", "player": 1, "payload": {"supplyIndex": 0, "price": 999}});
        assert!(parse(m).unwrap_err().to_string().contains("up to 200"));
        let m = json!({"type": "BAZAAR_BUY_OR_SELL", "player": 1, "payload": {"value": "SELL"}});
        assert_eq!(
            parse(m).unwrap(),
            part_msg(BcbMsg::BuyOrSell { buy: false })
        );
    }

    #[test]
    fn the_mapping_adds_tiles_bridges_and_bazaars() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
        let s = BcbSetup {
            copies: 2,
            bridge: true,
            bazaar: true,
            no_auction: false,
            max_price: 25,
        };
        let mut deck = Vec::new();
        let t = ruleset_lines(&s, &dir, &mut deck);
        assert_eq!(deck, ["bcb x2"]);
        assert!(
            t.contains("bcb.tiles") && t.contains("where = placed"),
            "{t}"
        );
        assert!(t.contains("timing = before_follower"), "{t}");
        assert!(
            t.contains("auction = bids") && t.contains("raise_limit = 25"),
            "{t}"
        );
        let t = ruleset_lines(
            &BcbSetup {
                no_auction: true,
                ..s
            },
            &dir,
            &mut deck,
        );
        assert!(t.contains("auction = none"), "{t}");
        assert_eq!(crate::import::jcz::plain_twin("BB/CFR!G"), "BB/CFR!");
    }

    use crate::import::jcz::test_setup as setup;

    #[test]
    fn bridges_castles_and_bazaars_are_read() {
        let s =
            setup(json!({"small-follower": 7, "castle": 1, "bridge": 1, "bazaar": true})).unwrap();
        let b = s.part::<BcbSetup>();
        assert!(crate::import::castles::on(&s) && b.bridge && b.bazaar && !b.no_auction);
        let v = json!({
            "sets": {"basic:1": 1, "bridges-castles-and-bazaars:2": 1},
            "elements": {"small-follower": 7, "castle": 1},
            "rules": {"bazaar-no-auction": true},
            "start": [{"tile": "BA/RCr", "x": 0, "y": 0, "rotation": 0}],
        });
        let s = parse_setup(&v, &mut Vec::new()).unwrap();
        assert_eq!(s.part::<BcbSetup>().copies, 1);
        assert!(s.part::<BcbSetup>().no_auction);
        let m = json!({"type": "PLACE_TOKEN", "player": 0,
            "payload": {"token": "CASTLE", "pointer": {"position": [0, 1], "feature": "Road", "location": "S"}}});
        assert!(parse_message(3, &m)
            .unwrap_err()
            .to_string()
            .contains("City"));
    }
}
