//! Bridges, Castles & Bazaars in JCloisterZone saves: the parts beyond castles (which
//! [`crate::import::jcz`] reads itself): the tile sets `bridges-castles-and-bazaars:1`/`:2`,
//! the elements `bridge` and `bazaar`, the rule `bazaar-no-auction`, and the messages
//! `PLACE_TOKEN BRIDGE`, `DEPLOY_MEEPLE` on a bridge, `BAZAAR_BID`, `PASS` while bidding and
//! `BAZAAR_BUY_OR_SELL`. The importer's match arms and mapping lines delegate here.
//!
//! # The mapping
//! - The sets add `include "tiles/bcb.tiles"` and `bcb xN` to the deck (JCloisterZone's
//!   `BB/CFR!G` of the 2nd edition, printed with a garden, is meeplab's `BB/CFR!`: gardens
//!   are inert without the Abbot, as for `basic:2`).
//! - `bridge` → `bridges { supply = 3, supply_5_6 = 2, timing = before_follower,
//!   where = placed }`: JCloisterZone offers an optional bridge only on the tile just placed,
//!   before the follower; a bridge on a neighbour only when the placement needs it.
//! - `bazaar` → `bazaars { auction = bids (none with bazaar-no-auction), raise_limit }`, the
//!   limit the largest price in the save, at least 10 (the engine's bound on a bid's options).
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

use crate::engine::expansions::{bazaars, bridges};
use crate::engine::{Choice, Chooser, DecisionKind, EventSink, Game, NoEvents, TakenDecision};
use crate::import::draws::Pack;
use crate::import::jcz::{JczError, JczGame, Message, Msg, Pointer, Setup, Translated};
use crate::ruleset::{Ruleset, TileIdx};
use crate::tiles::{FeatureKind, TileType};
use serde_json::Value;
use std::collections::VecDeque;
use std::path::Path;

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
    Ok(Msg::Bcb(BcbMsg::Bridge {
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
            Some("BUY") => Ok(Msg::Bcb(BcbMsg::BuyOrSell { buy: true })),
            Some("SELL") => Ok(Msg::Bcb(BcbMsg::BuyOrSell { buy: false })),
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
    Ok(Msg::Bcb(BcbMsg::Bid {
        supply,
        price: price as u32,
    }))
}

/// The largest price the messages bid (for the mapped `raise_limit`).
pub fn max_price(messages: &[Message]) -> u32 {
    messages
        .iter()
        .filter_map(|m| match m.msg {
            Msg::Bcb(BcbMsg::Bid { price, .. }) => Some(price),
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

/// The words for a `BB/…` id the game's tile sets do not hold.
pub fn unknown_tile_text(tile: &str, s: &Setup) -> String {
    if s.bcb.copies == 0 {
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

fn quoted(p: &Path) -> String {
    let mut out = String::from("\"");
    for c in p.display().to_string().chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c => out.push(c),
        }
    }
    out.push('"');
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
            "  auction = {}\n  raise_limit = {}\n}}\n",
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

/// One auction of a save.
#[derive(Clone, Debug, PartialEq)]
pub struct Auction {
    /// The index in `Translated::draws` of the bazaar's turn.
    pub after_draw: usize,
    /// Its first message.
    pub message: usize,
    /// The tiles turned up, in JCloisterZone's supply order (JCloisterZone id, meeplab id),
    /// known once the turns that play them are read.
    pub supply: Vec<Option<(String, String)>>,
    /// The `bazaar_select` decisions (index in `Translated::decisions`) and the supply index
    /// each selects.
    selects: Vec<(usize, usize)>,
}

/// The auction being read.
#[derive(Clone, Debug, PartialEq)]
struct Live {
    /// The bazaar's owner.
    owner_of_bazaar: u8,
    n: u8,
    owner: Vec<Option<u8>>,
    selector: u8,
    chosen: Option<usize>,
    price: u32,
    bidder: u8,
    walker: u8,
    /// Waiting for the selector's `BAZAAR_BUY_OR_SELL`.
    settle: bool,
}

impl Live {
    fn has_tile(&self, p: u8) -> bool {
        self.owner.contains(&Some(p))
    }
    fn next_without_tile(&self, from: u8) -> u8 {
        (1..=self.n)
            .map(|k| (from + k) % self.n)
            .find(|&p| !self.has_tile(p))
            .unwrap_or(from)
    }
    fn next_walker(&self, from: u8) -> u8 {
        let mut w = from;
        loop {
            w = (w + 1) % self.n;
            if w == self.selector || !self.has_tile(w) {
                return w;
            }
        }
    }
}

/// BC&B's part of a translated save.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BcbTrack {
    /// The auctions, in order.
    pub auctions: Vec<Auction>,
    /// Indices in `Translated::draws` of the turns that play a bought tile.
    pub bought: Vec<usize>,
    /// This turn's `bridge` decision (index in `Translated::decisions`), still "none".
    bridge_slot: Option<usize>,
    live: Option<Live>,
    /// The bought tiles still to play: (player, auction, supply index), in turn order.
    round: VecDeque<(u8, usize, usize)>,
}

impl BcbTrack {
    /// Whether a `PASS` now is a bid's pass.
    pub fn bidding(&self) -> bool {
        self.live
            .as_ref()
            .is_some_and(|l| l.chosen.is_some() && !l.settle)
    }

    /// The auction after draw `k`'s turn.
    pub fn auction_after(&self, k: usize) -> Option<&Auction> {
        self.auctions.iter().find(|a| a.after_draw == k)
    }

    pub fn is_bought(&self, k: usize) -> bool {
        self.bought.contains(&k)
    }
}

fn push(out: &mut Translated, index: usize, d: TakenDecision) -> usize {
    out.decisions.push(d);
    out.origins.push(index);
    out.decisions.len() - 1
}

/// A `PLACE_TILE` was read (its draw and `PLACEMENT` decision pushed): the turn's "no bridge"
/// decision, and the bazaar round's bookkeeping.
pub fn on_place(
    out: &mut Translated,
    g: &JczGame,
    index: usize,
    turn: u32,
    player: u8,
) -> Result<(), String> {
    if out.bcb.live.is_some() {
        return Err("the auction of the last bazaar is not finished".into());
    }
    out.bcb.bridge_slot = None;
    if g.setup.bcb.bridge {
        let slot = push(
            out,
            index,
            TakenDecision {
                turn,
                player,
                kind: bridges::BRIDGE,
                choice: Choice::Token { at: None },
            },
        );
        out.bcb.bridge_slot = Some(slot);
    }
    if let Some(&(p, a, i)) = out.bcb.round.front() {
        if p != player {
            return Err(format!(
                "the bazaar round: {} has a bought tile to play first",
                g.players[p as usize]
            ));
        }
        out.bcb.round.pop_front();
        let k = out.draws.len() - 1;
        let d = &out.draws[k];
        let (jcz, id, tile) = (d.jcz_id.clone(), d.id.clone(), d.tile);
        out.bcb.bought.push(k);
        let auction = &mut out.bcb.auctions[a];
        auction.supply[i] = Some((jcz, id));
        for &(slot, s) in &auction.selects {
            if s == i {
                out.decisions[slot].choice = Choice::Tile { tile };
            }
        }
    }
    Ok(())
}

/// What the importer knows of the turn when a BC&B message comes.
pub struct Ctx<'a> {
    pub g: &'a JczGame,
    pub index: usize,
    /// The sender, when written (or told by the meeple).
    pub from: Option<u8>,
    pub turn: u32,
    pub active: u8,
    /// The turn's `COMMIT` was read.
    pub committed: bool,
    /// The follower action (or the castle step) was read.
    pub followed: bool,
}

/// A BC&B message (or a `PASS` while bidding).
pub fn on_msg(out: &mut Translated, c: &Ctx, msg: Option<&BcbMsg>) -> Result<(), String> {
    let name = |p: u8| c.g.players[p as usize].clone();
    match msg {
        Some(&BcbMsg::Bridge { x, y, axis }) => {
            if !c.g.setup.bcb.bridge {
                return Err("a bridge, but the save's setup.elements has no `bridge`".into());
            }
            if c.committed {
                return Err("a bridge after the turn's COMMIT".into());
            }
            if c.followed {
                return Err("a bridge after the follower action (JCloisterZone offers the bridge before the follower)".into());
            }
            if let Some(p) = c.from.filter(|&p| p != c.active) {
                return Err(format!(
                    "wrong player: {} builds a bridge in {}'s turn",
                    name(p),
                    name(c.active)
                ));
            }
            let slot = out
                .bcb
                .bridge_slot
                .take()
                .ok_or("a second bridge in one turn")?;
            out.decisions[slot].choice = Choice::Token {
                at: Some((x, y, axis)),
            };
            out.origins[slot] = c.index;
            Ok(())
        }
        _ => on_bazaar(out, c, msg),
    }
}

fn on_bazaar(out: &mut Translated, c: &Ctx, msg: Option<&BcbMsg>) -> Result<(), String> {
    let name = |p: u8| c.g.players[p as usize].clone();
    if !c.g.setup.bcb.bazaar {
        return Err("a bazaar message, but the save's setup.elements has no `bazaar`".into());
    }
    if !c.committed {
        return Err(
            "comes before the turn's COMMIT: JCloisterZone holds the auction after it".into(),
        );
    }
    let n = c.g.players.len() as u8;
    let turn = c.turn;
    let mut live = match out.bcb.live.take() {
        Some(l) => l,
        None => {
            if !matches!(msg, Some(BcbMsg::Bid { .. })) {
                return Err("no auction is under way".into());
            }
            if !out.bcb.round.is_empty() || n < 2 {
                return Err("no auction now (a bazaar round is under way, or one player)".into());
            }
            out.bcb.auctions.push(Auction {
                after_draw: out.draws.len() - 1,
                message: c.index,
                supply: vec![None; n as usize],
                selects: Vec::new(),
            });
            Live {
                owner_of_bazaar: c.active,
                n,
                owner: vec![None; n as usize],
                selector: (c.active + 1) % n,
                chosen: None,
                price: 0,
                bidder: 0,
                walker: 0,
                settle: false,
            }
        }
    };
    let a = out.bcb.auctions.len() - 1;
    let check = |want: u8, what: &str| -> Result<(), String> {
        match c.from {
            Some(p) if p != want => Err(format!(
                "wrong player: {} sends it, but {} is asked for {what}",
                name(p),
                name(want)
            )),
            _ => Ok(()),
        }
    };
    let decide = |out: &mut Translated, player: u8, kind: DecisionKind, choice: Choice| {
        push(
            out,
            c.index,
            TakenDecision {
                turn,
                player,
                kind,
                choice,
            },
        )
    };
    match (msg, live.chosen, live.settle) {
        (Some(&BcbMsg::Bid { supply, price }), None, _) => {
            check(live.selector, "the tile to auction")?;
            if supply >= n as usize || live.owner[supply].is_some() {
                return Err(format!(
                    "payload.supplyIndex = {supply}: not an unsold tile of the auction ({n} tiles)"
                ));
            }
            let slot = decide(
                out,
                live.selector,
                bazaars::SELECT,
                Choice::Tile { tile: 0 },
            );
            out.bcb.auctions[a].selects.push((slot, supply));
            if c.g.setup.bcb.no_auction {
                live.owner[supply] = Some(live.selector);
                next_selector(&mut live);
            } else {
                decide(
                    out,
                    live.selector,
                    bazaars::BID,
                    Choice::Amount { n: Some(price) },
                );
                live.chosen = Some(supply);
                live.price = price;
                live.bidder = live.selector;
                live.walker = live.next_walker(live.selector);
                settle(&mut live);
            }
        }
        (Some(&BcbMsg::Bid { supply, price }), Some(chosen), false) => {
            check(live.walker, "a bid")?;
            if supply != chosen {
                return Err(format!(
                    "payload.supplyIndex = {supply}, but the tile auctioned is {chosen}"
                ));
            }
            if price <= live.price {
                return Err(format!(
                    "a bid of {price} does not top the bid of {} (JCloisterZone refuses it)",
                    live.price
                ));
            }
            decide(out, live.walker, bazaars::BID, Choice::Amount { n: Some(price) });
            live.price = price;
            live.bidder = live.walker;
            live.walker = live.next_walker(live.walker);
            settle(&mut live);
        }
        (None, Some(_), false) => {
            check(live.walker, "a bid")?;
            decide(out, live.walker, bazaars::BID, Choice::Amount { n: None });
            live.walker = live.next_walker(live.walker);
            settle(&mut live);
        }
        (Some(&BcbMsg::BuyOrSell { buy }), Some(chosen), true) => {
            check(live.selector, "buy or sell")?;
            decide(out, live.selector, bazaars::BUY, Choice::Flag { yes: buy });
            live.owner[chosen] = Some(if buy { live.selector } else { live.bidder });
            live.settle = false;
            next_selector(&mut live);
        }
        (Some(BcbMsg::BuyOrSell { .. }), _, _) => {
            return Err("no buy-or-sell choice is due (the selector was outbid by nobody, or the bidding goes on)".into())
        }
        (_, _, _) => {
            return Err(format!(
                "not expected now in the auction ({} is to {})",
                name(if live.settle { live.selector } else { live.walker }),
                if live.settle { "buy or sell" } else { "bid or pass" }
            ))
        }
    }
    if live.owner.iter().all(Option::is_some) {
        // the auction is over: the buyers play their tiles from the bazaar owner's left
        for k in 1..=n {
            let p = (live.owner_of_bazaar + k) % n;
            if let Some(i) = live.owner.iter().position(|&o| o == Some(p)) {
                out.bcb.round.push_back((p, a, i));
            }
        }
    } else {
        out.bcb.live = Some(live);
    }
    Ok(())
}

/// The bidding walked back to the selector: the selector, not outbid, takes the tile.
fn settle(live: &mut Live) {
    if live.walker != live.selector {
        return;
    }
    let chosen = live.chosen.unwrap_or(0);
    if live.bidder == live.selector {
        live.owner[chosen] = Some(live.selector);
        next_selector(live);
    } else {
        live.settle = true;
    }
}

/// The next selector (the same one after a sale); the last tile goes free.
fn next_selector(live: &mut Live) {
    live.chosen = None;
    let unsold: Vec<usize> = (0..live.owner.len())
        .filter(|&i| live.owner[i].is_none())
        .collect();
    if unsold.len() == 1 {
        let to = live.next_without_tile(live.selector);
        live.owner[unsold[0]] = Some(to);
        return;
    }
    if live.has_tile(live.selector) {
        live.selector = live.next_without_tile(live.selector);
    }
}

/// At the end of the log: an auction left open is a turn the save stops inside; a tile of the
/// supply never played cannot be named.
pub fn finish(out: &mut Translated, last: usize) -> Result<(), JczError> {
    if out.bcb.live.is_some() && out.open_turn.is_none() {
        out.open_turn = Some((last, "the save stops inside a bazaar auction".to_string()));
    }
    for a in &out.bcb.auctions {
        if a.supply.iter().any(Option::is_none) && out.open_turn.is_none() {
            return Err(JczError::at(
                a.message,
                "BAZAAR_BID",
                "the save ends before every tile of this auction is played, so meeplab cannot tell which tiles were turned up",
            ));
        }
    }
    Ok(())
}

/// A recorded decision for `rules`: a tile chosen at a bazaar named by id (tile indices differ
/// between rulesets).
pub fn for_rules(tr: &Translated, rules: &Ruleset, d: &TakenDecision) -> TakenDecision {
    let mut d = d.clone();
    if let Choice::Tile { tile } = d.choice {
        if let Some(id) = tr.draws.iter().find(|x| x.tile == tile).map(|x| &x.id) {
            if let Some(t) = rules.tile_index(id) {
                d.choice = Choice::Tile { tile: t };
            }
        }
    }
    d
}

/// Whether the engine offers `tile` at (x, y) turned `rot` to `player` as a placement that
/// needs a bridge (the plain edge check said no).
pub fn bridge_placement(game: &Game, tile: TileIdx, player: u8, x: i32, y: i32, rot: u8) -> bool {
    if !game.rules().rules.ext_in_play("bridges.") {
        return false;
    }
    let mut copy = game.clone();
    if copy.begin_turn(tile, player, &mut NoEvents).is_err() {
        return false;
    }
    copy.option_of(&Choice::Place { x, y, rot }).is_ok()
}

/// Whether `tile` fits somewhere for the next turn's player only with a bridge (JCloisterZone
/// then does not discard it: the player may place it with the bridge).
pub fn fits_with_bridge(game: &Game, tile: TileIdx) -> bool {
    if !game.rules().rules.ext_in_play("bridges.") {
        return false;
    }
    let player = (game.turn() % game.players().max(1) as u32) as u8;
    let mut copy = game.clone();
    copy.begin_turn(tile, player, &mut NoEvents).is_ok()
}

/// Play recorded turn `k` (draw `k` of `tr`): with bazaars in play the engine's pack holds
/// exactly the auction that follows the turn in the save (none: empty), and a bought tile
/// is the one the engine hands its buyer.
pub fn play<C: Chooser, S: EventSink>(
    game: &mut Game,
    tr: &Translated,
    k: usize,
    tile: TileIdx,
    player: u8,
    c: &mut C,
    s: &mut S,
) -> Result<(), String> {
    let r = &game.rules().rules;
    if !r.ext_in_play("bazaars.") {
        return game.play_tile(tile, player, c, s);
    }
    let supply: Vec<TileIdx> = tr
        .bcb
        .auction_after(k)
        .map(|a| {
            a.supply
                .iter()
                .filter_map(|t| t.as_ref().and_then(|(_, id)| r.tile_index(id)))
                .collect()
        })
        .unwrap_or_default();
    game.force_draws(supply);
    if tr.bcb.is_bought(k) {
        if !game.draw(s) || game.active() != player || game.current_tile() != tile {
            return Err(format!(
                "the rules give {} no bought tile {} to play now (the save plays it from a bazaar)",
                crate::render::seat_name(player),
                game.rules().rules.tiles[tile as usize].id
            ));
        }
        game.drive(c, s);
        return Ok(());
    }
    game.play_tile(tile, player, c, s)
}

/// JCloisterZone turns the auction's tiles up after turn `k`: draw them from the reproduced
/// pack (with the random of the turn's `COMMIT`) and compare with the supply the save plays.
/// `Err((message, text))`: they differ.
pub fn draw_auction(pack: &mut Pack, tr: &Translated, k: usize) -> Result<(), (usize, String)> {
    let Some(a) = tr.bcb.auction_after(k) else {
        return Ok(());
    };
    if let Some(rv) = tr.draws.get(k + 1).and_then(|d| d.random_before) {
        pack.set_random(rv);
    }
    // the error names the bazaar's PLACE_TILE: the draw belongs to that turn
    let at = tr.draws[k].message;
    for (i, t) in a.supply.iter().enumerate() {
        let want = t.as_ref().map_or("?", |(j, _)| j.as_str());
        match pack.draw() {
            Ok(Some(id)) if id == want => {}
            Ok(Some(id)) => {
                return Err((
                    at,
                    format!(
                        "after this turn's bazaar JCloisterZone turns up {id} as the auction's tile {i} (supplyIndex {i}), but the save plays {want} from it"
                    ),
                ))
            }
            Ok(None) => {
                return Err((
                    at,
                    "an auction after this turn's bazaar, but JCloisterZone's pack holds fewer tiles than players".into(),
                ))
            }
            Err(e) => return Err((at, e.to_string())),
        }
    }
    Ok(())
}

/// Why a recorded bridge is not legal now (`None`: not a bridge).
pub fn explain(game: &Game, d: &crate::engine::Decision, recorded: &Choice) -> Option<String> {
    let (
        bridges::BRIDGE,
        Choice::Token {
            at: Some((x, y, axis)),
        },
    ) = (d.kind, *recorded)
    else {
        return None;
    };
    let axis_name = |a: u8| {
        if a == 0 {
            "north–south (NS)"
        } else {
            "west–east (WE)"
        }
    };
    let offered: Vec<String> = (0..d.options)
        .filter_map(|i| match game.choice(d.kind, i) {
            Choice::Token {
                at: Some((x, y, a)),
            } => Some(format!("({x},{y}) {}", axis_name(a))),
            _ => None,
        })
        .collect();
    Some(format!(
        "no bridge can be built {} on ({x},{y}): the rules offer {} (a bridge goes on the tile just placed, across two field edges, each facing an empty square or a road)",
        axis_name(axis),
        if offered.is_empty() { "none".to_string() } else { offered.join(", ") }
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::jcz::{parse_message, JczError};
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
            Msg::Bcb(BcbMsg::Bridge {
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
            Msg::Bcb(BcbMsg::Bid {
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
            Msg::Bcb(BcbMsg::BuyOrSell { buy: false })
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
}
