//! BC&B's messages as decisions, for the translator of the message log
//! ([`crate::import::jcz`]): the bridge of a turn, and the auctions after a bazaar followed as
//! JCloisterZone runs them.

use super::BcbMsg;
use crate::engine::expansions::{bazaars, bridges};
use crate::engine::{Choice, DecisionKind, TakenDecision};
use crate::import::jcz::{JczError, JczGame, Translated};
use std::collections::VecDeque;

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
    if out.parts.get_mut::<BcbTrack>().live.is_some() {
        return Err("the auction of the last bazaar is not finished".into());
    }
    out.parts.get_mut::<BcbTrack>().bridge_slot = None;
    if g.setup.part::<super::BcbSetup>().bridge {
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
        out.parts.get_mut::<BcbTrack>().bridge_slot = Some(slot);
    }
    if let Some(&(p, a, i)) = out.parts.get_mut::<BcbTrack>().round.front() {
        if p != player {
            return Err(format!(
                "the bazaar round: {} has a bought tile to play first",
                g.players[p as usize]
            ));
        }
        out.parts.get_mut::<BcbTrack>().round.pop_front();
        let k = out.draws.len() - 1;
        let d = &out.draws[k];
        let (jcz, id, tile) = (d.jcz_id.clone(), d.id.clone(), d.tile);
        out.parts.get_mut::<BcbTrack>().bought.push(k);
        let auction = &mut out.parts.get_mut::<BcbTrack>().auctions[a];
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
            if !c.g.setup.part::<super::BcbSetup>().bridge {
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
                .parts
                .get_mut::<BcbTrack>()
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
    if !c.g.setup.part::<super::BcbSetup>().bazaar {
        return Err("a bazaar message, but the save's setup.elements has no `bazaar`".into());
    }
    if !c.committed {
        return Err(
            "comes before the turn's COMMIT: JCloisterZone holds the auction after it".into(),
        );
    }
    let n = c.g.players.len() as u8;
    let turn = c.turn;
    let mut live = match out.parts.get_mut::<BcbTrack>().live.take() {
        Some(l) => l,
        None => {
            if !matches!(msg, Some(BcbMsg::Bid { .. })) {
                return Err("no auction is under way".into());
            }
            if !out.parts.get_mut::<BcbTrack>().round.is_empty() || n < 2 {
                return Err("no auction now (a bazaar round is under way, or one player)".into());
            }
            out.parts.get_mut::<BcbTrack>().auctions.push(Auction {
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
    let a = out.parts.get_mut::<BcbTrack>().auctions.len() - 1;
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
            out.parts.get_mut::<BcbTrack>().auctions[a].selects.push((slot, supply));
            if c.g.setup.part::<super::BcbSetup>().no_auction {
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
                out.parts.get_mut::<BcbTrack>().round.push_back((p, a, i));
            }
        }
    } else {
        out.parts.get_mut::<BcbTrack>().live = Some(live);
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

/// The next selector: JCloisterZone's `nextSelectingPlayer`, the next player to the
/// selector's left without a tile (after a sale the seller comes last); the last tile goes
/// free.
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
    live.selector = live.next_without_tile(live.selector);
}

/// At the end of the log: an auction left open is a turn the save stops inside; a tile of the
/// supply never played cannot be named.
pub fn finish(out: &mut Translated, last: usize) -> Result<(), JczError> {
    if out.parts.get_mut::<BcbTrack>().live.is_some() && out.open_turn.is_none() {
        out.open_turn = Some((last, "the save stops inside a bazaar auction".to_string()));
    }
    for a in &out.parts.get_mut::<BcbTrack>().auctions {
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
