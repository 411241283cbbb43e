//! Bazaars, from the BC&B expansion (`rulesets/README.md`, BC&B section). A turn that
//! places a tile with a bazaar (not one bought at a bazaar, and not while the tiles of a
//! bazaar wait to be played) ends with an auction, when the pack holds at least one tile a
//! player: as many tiles as players are turned up. The player after the bazaar's owner
//! chooses one and opens with a bid (0 or more); each other player still without a tile, in
//! seat order from the chooser's left, outbids once or passes. If nobody outbid the chooser,
//! the chooser takes the tile and pays the bid to nobody; else the chooser buys it (paying the
//! bid to the highest bidder) or sells it (the highest bidder pays the chooser and takes it).
//! The next chooser is the next player without a tile (the same one after a sale; with
//! `bazaars.next_chooser = left`, JCloisterZone's reading, the next one to the seller's left
//! without a tile, the seller last); the last tile goes free to the last player without one. Scores may go below 0. Then each player,
//! in the usual order from the bazaar owner's left, plays the bought tile as the turn's tile;
//! one that fits nowhere is set aside and the turn draws from the pack.
//!
//! Every step is a decision of the pull API (`bazaar_select`, `bazaar_bid`,
//! `bazaar_buy`), so a search player bids. Bids go up in steps of one, at most
//! `bazaars.raise_limit` above the bid to beat (an engine bound on the options; the rules set
//! none). With `bazaars.auction = none` each chooser just takes a tile.

use crate::engine::compiled::Compiled;
use crate::engine::decision::{Choice, DecisionKind, DecisionSpec};
use crate::engine::event::{
    BoardChange, Event, EventKind, EventSink, EventSpec, ExpansionEvent, Field,
};
use crate::engine::game::{Game, MAX_PLAYERS};
use crate::engine::hooks::{
    category_of, counter_of, event_of, kind_of, mark_of, Expansion, Heard, Holds, Hook,
    Presentation, Valuation,
};
use crate::engine::outcome::{Category, Counter, CounterSpec, GameOutcome};
use crate::rule_options::{choice, Area, OptType, OptionDef};
use crate::ruleset::{Ruleset, TileIdx};
use crate::tiles::FeatureKind;

/// The options' area (and key prefix).
const AREA: Area = Area::Expansion("bazaars");

/// The tile mark of a bazaar.
pub const BAZAAR: u32 = mark_of::<Bazaars>(0);

/// The chooser picks a tile of the auction (options: the tiles not yet sold, in the order
/// they were turned up).
pub const SELECT: DecisionKind = kind_of::<Bazaars>(0);
/// A bid: the chooser's opening (0 to the limit) or another player's (pass, then one to the
/// limit above the bid to beat).
pub const BID: DecisionKind = kind_of::<Bazaars>(1);
/// The chooser, outbid, sells (option 0, no) or buys (option 1, yes).
pub const BUY: DecisionKind = kind_of::<Bazaars>(2);

/// Points paid and received at auctions.
pub const AUCTION: Category = category_of::<Bazaars>(0);

/// Auctions held.
pub const AUCTIONS: Counter = counter_of::<Bazaars>(0);
/// Tiles sold to the highest bidder.
pub const SOLD: Counter = counter_of::<Bazaars>(1);
/// Points bid for the tiles (the price of each tile, summed).
pub const PRICES: Counter = counter_of::<Bazaars>(2);

/// An auction opens (turn, player: the bazaar's owner, tiles).
pub const AUCTION_OPENED: EventKind = event_of::<Bazaars>(0);
/// A tile goes to a player (turn, tile, player, price, from: the seat paid or −1, sold).
pub const TILE_AUCTIONED: EventKind = event_of::<Bazaars>(1);

/// No seat.
const NOBODY: u8 = u8::MAX;

/// The rules of bazaars in one ruleset (read from its options).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Config {
    /// Whether the tiles are auctioned (else each chooser takes one).
    auction: bool,
    /// The most a bid may add to the bid it beats.
    raise_limit: u32,
    /// After a sale, the next player to the seller's left without a tile chooses (else the
    /// seller again).
    left_after_sale: bool,
}

impl Config {
    fn of(rules: &Ruleset) -> Option<Config> {
        if !rules.ext_in_play("bazaars.") {
            return None;
        }
        Some(Config {
            auction: OPT_AUCTION.choice_in(rules) != "none",
            raise_limit: OPT_RAISE_LIMIT.int_in(rules).clamp(1, 200) as u32,
            left_after_sale: OPT_NEXT_CHOOSER.choice_in(rules) == "left",
        })
    }
}

/// Where an auction stands (kept as data: the turn pauses at each decision).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Step {
    /// No auction.
    #[default]
    Idle,
    /// The chooser picks a tile.
    Select,
    /// The chooser opens the bidding.
    Open,
    /// The others bid in turn (`walker` is asked).
    Bid,
    /// The chooser, outbid, buys or sells.
    Settle,
}

/// Bazaars of one game (plain data: a copy is a value copy).
#[derive(Clone, Copy, Debug, Default)]
pub struct Bazaars {
    config: Config,
    step: Step,
    /// The tiles turned up (the first `n`), and who got each (`NOBODY` while unsold).
    tiles: [TileIdx; MAX_PLAYERS],
    owner: [u8; MAX_PLAYERS],
    n: u8,
    /// The chooser, the tile chosen (an index into `tiles`), the bid to beat and its
    /// bidder, the player asked to bid.
    chooser: u8,
    chosen: u8,
    price: u32,
    bidder: u8,
    walker: u8,
    /// The tile each seat bought, waiting for its turn (`waiting` has a bit per seat).
    bought: [TileIdx; MAX_PLAYERS],
    waiting: u8,
    /// From an auction until the last of its tiles is played: no new auction.
    round: bool,
    auctions: u32,
    sold: u32,
    prices: u32,
}

/// The `bazaars.auction` option (read through this constant: its key and default are written once).
const OPT_AUCTION: OptionDef = OptionDef {
    key: "bazaars.auction",
    area: AREA,
    ty: OptType::Choice(&[
        choice(
            "bids",
            "the chooser opens, the others outbid once or pass, the chooser buys or sells",
        ),
        choice("none", "no bidding: each chooser takes a tile"),
    ]),
    default: "bids",
    doc: "How the tiles of a bazaar are shared out (setting any bazaars option puts \
              bazaars in the game).",
    sources: "BC&B C1 and C2 rulebooks: bids; JCloisterZone `bazaar-no-auction`: none",
    requires: None,
};

/// The `bazaars.raise_limit` option (read through this constant: its key and default are written once).
const OPT_RAISE_LIMIT: OptionDef = OptionDef {
    key: "bazaars.raise_limit",
    area: AREA,
    ty: OptType::Int { min: 1, max: 200 },
    default: "10",
    doc: "The most a bid may add to the bid it beats (and the highest opening bid): \
              an engine bound on a bid's options; the rules set none.",
    sources: "meeplab (JCloisterZone's client: bids 0 to 999)",
    requires: None,
};

/// The `bazaars.next_chooser` option (read through this constant: its key and default are written once).
const OPT_NEXT_CHOOSER: OptionDef = OptionDef {
    key: "bazaars.next_chooser",
    area: AREA,
    ty: OptType::Choice(&[
        choice("seller", "a seller, still without a tile, chooses again"),
        choice(
            "left",
            "after a sale the next player to the seller's left without a tile chooses \
                 (the seller last)",
        ),
    ]),
    default: "seller",
    doc: "Who chooses the next tile of a bazaar after a chooser sold the tile.",
    sources: "BC&B C1 and C2 rulebooks (Wikicarpedia): seller; JCloisterZone \
                  `BazaarPhase.nextSelectingPlayer`: left",
    requires: None,
};

impl Expansion for Bazaars {
    const HOOKS: &'static [Hook] = &[Hook::TurnEnd];
    const HEARS: &'static [Heard] = &[];
    const SUPPLIES_TILES: bool = true;
    const TILE_MARKS: &'static [(&'static str, &'static str)] = &[(
        "bazaar",
        "an auction of tiles follows the turn that places it",
    )];
    const DECISIONS: &'static [DecisionSpec] = &[
        DecisionSpec {
            name: "bazaar_select",
            key_code: 12,
            doc: "choose a tile of the bazaar to auction (the tiles not yet sold)",
        },
        DecisionSpec {
            name: "bazaar_bid",
            key_code: 13,
            doc: "bid for the tile (the chooser opens at 0 or more; the others pass or outbid)",
        },
        DecisionSpec {
            name: "bazaar_buy",
            key_code: 14,
            doc:
                "buy the tile, paying the highest bid (yes), or sell it to the highest bidder (no)",
        },
    ];
    const CATEGORIES: &'static [&'static str] = &["bazaar"];
    /// Auction payments move points between seats (or to nobody): they may be negative.
    const TRANSFERS: &'static [u8] = &[0];
    const COUNTERS: &'static [CounterSpec] = &[
        CounterSpec {
            name: "auctions",
            doc: "auctions",
        },
        CounterSpec {
            name: "tiles_sold",
            doc: "tiles sold at auction",
        },
        CounterSpec {
            name: "bazaar_prices",
            doc: "points paid for auctioned tiles",
        },
    ];
    const EVENTS: &'static [EventSpec] = &[
        EventSpec {
            name: "auction_opened",
            key_code: 27,
            fields: &[
                ("turn", Field::Turn),
                ("player", Field::Seat),
                ("tiles", Field::Count),
            ],
            narrate: |e, names| {
                let seat = names.seat;
                let v = e.values;
                Some(format!(
                    "         bazaar of {}: {} tiles turned up",
                    seat(v[1] as u8),
                    v[2]
                ))
            },
            board: BoardChange::None,
        },
        EventSpec {
            name: "tile_auctioned",
            key_code: 28,
            fields: &[
                ("turn", Field::Turn),
                ("tile", Field::Count),
                ("player", Field::Seat),
                ("price", Field::Points),
                ("paid_to", Field::Count),
                ("sold", Field::Flag),
            ],
            narrate: |e, names| {
                let seat = names.seat;
                let v = e.values;
                let (who, tile, price) = (seat(v[2] as u8), (names.tile)(v[1] as u16), v[3]);
                let from = |p: i32| seat(p as u8);
                Some(match (v[4], v[5] != 0) {
                    (p, true) if p >= 0 => {
                        format!(
                            "         {who} buys {tile} from {}, paying {price}",
                            from(p)
                        )
                    }
                    (p, _) if p >= 0 => {
                        format!("         {who} buys {tile}, paying {price} to {}", from(p))
                    }
                    _ if price > 0 => format!("         {who} takes {tile}, paying {price}"),
                    _ => format!("         {who} takes {tile} for nothing"),
                })
            },
            board: BoardChange::None,
        },
    ];
    const OPTIONS: &'static [OptionDef] = &[OPT_AUCTION, OPT_RAISE_LIMIT, OPT_NEXT_CHOOSER];

    fn used_by(rules: &Compiled) -> bool {
        Config::of(&rules.rules).is_some()
    }

    fn reset(&mut self) {
        *self = Bazaars::default();
    }

    /// The tiles of an auction not sold yet, and the bought ones waiting for their turn.
    fn tiles_held(&self) -> usize {
        let unsold = if self.step == Step::Idle {
            0
        } else {
            self.unsold_count()
        };
        unsold + self.waiting.count_ones() as usize
    }

    /// An auction is asked of seats in the game, sells each tile once, and ends with every
    /// tile sold; tiles wait only for seats in the game.
    fn check_invariants<X: Holds<Self>>(g: &Game<X>) -> Result<(), String> {
        let st = g.ext.state();
        let players = g.players;
        if st.waiting >> players != 0 {
            return Err(format!(
                "a bought tile waits for a seat out of the game ({:#b})",
                st.waiting
            ));
        }
        if st.step != Step::Idle {
            if st.n != players || st.chooser >= players {
                return Err(format!("an auction of {} tiles for {players} seats", st.n));
            }
            for p in 0..players {
                let got = st.owner[..st.n as usize]
                    .iter()
                    .filter(|&&o| o == p)
                    .count();
                if got > 1 {
                    return Err(format!("seat {p} got {got} tiles at one auction"));
                }
            }
        }
        Ok(())
    }

    fn outcome(&self, out: &mut GameOutcome) {
        out.counters.add(AUCTIONS, self.auctions);
        out.counters.add(SOLD, self.sold);
        out.counters.add(PRICES, self.prices);
    }

    /// The tile the seat bought and has yet to play (its type + 1), or 0.
    fn seat_state(&self, seat: usize) -> u64 {
        if self.waiting & (1 << seat) != 0 {
            self.bought[seat] as u64 + 1
        } else {
            0
        }
    }

    fn configure<X: Holds<Self>>(g: &mut Game<X>) {
        if let Some(config) = Config::of(&g.rules.rules) {
            g.ext.state_mut().config = config;
        }
    }

    fn next_tile<X: Holds<Self>>(g: &mut Game<X>, player: u8) -> Option<TileIdx> {
        let st = g.ext.state_mut();
        if st.waiting & (1 << player) == 0 {
            return None;
        }
        st.waiting &= !(1 << player);
        Some(st.bought[player as usize])
    }

    fn on<X: Holds<Self>, S: EventSink>(
        g: &mut Game<X>,
        s: &mut S,
        _at: Hook,
        answer: Option<usize>,
    ) -> bool {
        g.run_bazaar(s, answer)
    }

    fn choice<X: Holds<Self>>(g: &Game<X>, local: u8, i: usize) -> Choice {
        let st = g.ext.state();
        match local {
            0 => Choice::Tile {
                tile: st.unsold(i).map_or(0, |k| st.tiles[k]),
            },
            1 => Choice::Amount {
                n: st.bid_of(g.asked_player(), i),
            },
            _ => Choice::Flag { yes: i == 1 },
        }
    }

    fn option_count<X: Holds<Self>>(g: &Game<X>, local: u8) -> usize {
        let st = g.ext.state();
        match local {
            0 => st.unsold_count(),
            1 => st.config.raise_limit as usize + 1,
            _ => 2,
        }
    }
}

impl Valuation for Bazaars {
    /// What the option is worth to `player` now: a tile its rough worth (`tile_worth`), a
    /// bid that worth less the price, a sale its price.
    fn value_hint<X: Holds<Self>>(g: &Game<X>, local: u8, i: usize, player: u8) -> i64 {
        let st = g.ext.state();
        let chosen = st.tiles.get(st.chosen as usize).copied().unwrap_or(0);
        match local {
            0 => st.unsold(i).map_or(0, |k| tile_worth(g, st.tiles[k])),
            1 => match st.bid_of(player, i) {
                None => 0,
                Some(b) => tile_worth(g, chosen) - b as i64,
            },
            _ if i == 1 => tile_worth(g, chosen) - st.price as i64,
            _ => st.price as i64,
        }
    }

    /// As [`Bazaars::value_hint`] of every option, with what they share computed once: a bid
    /// has up to `raise_limit + 1` options, and the luck meter's reference player asks the
    /// greedy rollouts for them at every bid of every auction it plays out (issue 43: with
    /// `raise_limit = 200` the per-option hints were most of the metered run's time).
    fn value_hints<X: Holds<Self>>(
        g: &Game<X>,
        local: u8,
        options: usize,
        player: u8,
        out: &mut Vec<i64>,
    ) {
        if local != 1 {
            out.extend((0..options).map(|i| Self::value_hint(g, local, i, player)));
            return;
        }
        let st = g.ext.state();
        let chosen = st.tiles.get(st.chosen as usize).copied().unwrap_or(0);
        let worth = tile_worth(g, chosen);
        out.extend((0..options).map(|i| match st.bid_of(player, i) {
            None => 0,
            Some(b) => worth - b as i64,
        }));
    }

    /// A bought tile waiting for its turn is worth its rough worth to its buyer.
    fn expected_points<X: Holds<Self>>(g: &Game<X>, out: &mut [f64]) {
        let st = g.ext.state();
        for (p, slot) in out.iter_mut().enumerate().take(MAX_PLAYERS) {
            if st.waiting & (1 << p) != 0 {
                *slot += tile_worth(g, st.bought[p]) as f64;
            }
        }
    }
}

impl Presentation for Bazaars {}

/// A rough worth of a tile to whoever places it, in points: what its segments usually bring
/// (a cloister 4, a city segment 3 and a pennant 2 more, a road segment 1).
fn tile_worth<X>(g: &Game<X>, tile: TileIdx) -> i64 {
    let Some(t) = g.rules.tiles.get(tile as usize) else {
        return 0;
    };
    t.segments
        .iter()
        .map(|s| match s.kind {
            FeatureKind::Cloister => 4,
            FeatureKind::City => 3 + 2 * s.pennants as i64,
            FeatureKind::Road => 1,
            FeatureKind::Field => 0,
        })
        .sum()
}

impl Bazaars {
    /// The index in `tiles` of the `i`-th tile not yet sold.
    fn unsold(&self, i: usize) -> Option<usize> {
        (0..self.n as usize)
            .filter(|&k| self.owner[k] == NOBODY)
            .nth(i)
    }

    fn unsold_count(&self) -> usize {
        (0..self.n as usize)
            .filter(|&k| self.owner[k] == NOBODY)
            .count()
    }

    /// Whether `player` got a tile at this auction.
    fn has_tile(&self, player: u8) -> bool {
        self.owner[..self.n as usize].contains(&player)
    }

    /// Option `i` of a bid asked of `player`: the chooser's opening (0 up), or another's
    /// pass (`None`, option 0) and raises.
    fn bid_of(&self, player: u8, i: usize) -> Option<u32> {
        if self.step == Step::Open || player == self.chooser {
            Some(i as u32)
        } else if i == 0 {
            None
        } else {
            Some(self.price + i as u32)
        }
    }
}

impl<X: Holds<Bazaars>> Game<X> {
    /// The player the pending decision is asked of (the active player when none is).
    fn asked_player(&self) -> u8 {
        self.asked.map_or(self.active, |d| d.player)
    }

    /// The next seat after `from` (clockwise) without a tile of this auction.
    fn next_without_tile(&self, from: u8) -> u8 {
        let n = self.players.max(1);
        let st = self.ext.state();
        (1..=n)
            .map(|k| (from + k) % n)
            .find(|&p| !st.has_tile(p))
            .unwrap_or(from)
    }

    /// Run the auction from where it stands; true when a decision is asked.
    fn run_bazaar<S: EventSink>(&mut self, s: &mut S, mut answer: Option<usize>) -> bool {
        loop {
            let st = *self.ext.state();
            match st.step {
                Step::Idle => {
                    if !self.open_auction(s) {
                        return false;
                    }
                }
                Step::Select => {
                    if st.unsold_count() == 1 {
                        // the last tile goes free to the last player without one
                        let k = st.unsold(0).unwrap_or(0);
                        let to = self.next_without_tile(st.chooser);
                        self.hand_over(s, k, to, 0, None, false);
                        self.close_auction();
                        return false;
                    }
                    let Some(i) = answer.take() else {
                        let n = st.unsold_count();
                        self.ask(SELECT, st.chooser, n);
                        return true;
                    };
                    let k = st.unsold(i).unwrap_or(0);
                    let state = self.ext.state_mut();
                    state.chosen = k as u8;
                    if !st.config.auction {
                        self.hand_over(s, k, st.chooser, 0, None, false);
                        self.next_chooser();
                    } else {
                        state.step = Step::Open;
                    }
                }
                Step::Open => {
                    let Some(i) = answer.take() else {
                        let n = st.config.raise_limit as usize + 1;
                        self.ask(BID, st.chooser, n);
                        return true;
                    };
                    let state = self.ext.state_mut();
                    state.price = i as u32;
                    state.bidder = st.chooser;
                    state.walker = st.chooser;
                    state.step = Step::Bid;
                    self.advance_walker();
                }
                Step::Bid => {
                    if st.walker == st.chooser {
                        self.ext.state_mut().step = Step::Settle;
                        continue;
                    }
                    let Some(i) = answer.take() else {
                        let n = st.config.raise_limit as usize + 1;
                        self.ask(BID, st.walker, n);
                        return true;
                    };
                    if i > 0 {
                        let state = self.ext.state_mut();
                        state.price += i as u32;
                        state.bidder = st.walker;
                    }
                    self.advance_walker();
                }
                Step::Settle => {
                    let k = st.chosen as usize;
                    if st.bidder == st.chooser {
                        // nobody outbid: the chooser takes it, paying the bid to nobody
                        self.hand_over(s, k, st.chooser, st.price, None, false);
                        self.next_chooser();
                        continue;
                    }
                    let Some(i) = answer.take() else {
                        self.ask(BUY, st.chooser, 2);
                        return true;
                    };
                    if i == 1 {
                        self.hand_over(s, k, st.chooser, st.price, Some(st.bidder), false);
                    } else {
                        self.hand_over(s, k, st.bidder, st.price, Some(st.chooser), true);
                    }
                    self.next_chooser();
                }
            }
        }
    }

    /// At the end of a turn that placed a bazaar (none bought, no round under way), with a
    /// tile a player left in the pack: turn the tiles up. False when there is no auction.
    fn open_auction<S: EventSink>(&mut self, s: &mut S) -> bool {
        let players = self.players;
        let placed = self.placed[self.last_placed].tile;
        let st = self.ext.state_mut();
        if st.round {
            // the round's last tile was played this turn: the round ends, and a bazaar
            // placed in it opens no auction
            if st.waiting == 0 {
                st.round = false;
            }
            return false;
        }
        let bazaar = self.rules.tiles[placed as usize].marks & BAZAAR != 0;
        if !bazaar || players < 2 || self.remaining() < players as usize {
            return false;
        }
        let mut tiles = [0 as TileIdx; MAX_PLAYERS];
        for t in tiles.iter_mut().take(players as usize) {
            let Some(tile) = self.take_from_pack() else {
                return false;
            };
            *t = tile;
        }
        let active = self.active;
        let turn = self.turn;
        let st = self.ext.state_mut();
        st.tiles = tiles;
        st.owner = [NOBODY; MAX_PLAYERS];
        st.n = players;
        st.chooser = (active + 1) % players;
        st.step = Step::Select;
        st.round = true;
        st.auctions += 1;
        self.emit(
            s,
            Event::Expansion(ExpansionEvent::new(
                AUCTION_OPENED,
                &[turn as i64, active as i64, players as i64],
            )),
        );
        true
    }

    /// Tile `k` goes to `to` for `price`: paid to `paid_to` (`None`: to nobody) by whoever
    /// gets the tile, or by the highest bidder when it is `sold` to them.
    fn hand_over<S: EventSink>(
        &mut self,
        s: &mut S,
        k: usize,
        to: u8,
        price: u32,
        paid_to: Option<u8>,
        sold: bool,
    ) {
        let st = self.ext.state_mut();
        let tile = st.tiles[k];
        st.owner[k] = to;
        st.bought[to as usize] = tile;
        st.waiting |= 1 << to;
        st.prices += price;
        st.sold += u32::from(sold);
        let turn = self.turn;
        self.emit(
            s,
            Event::Expansion(ExpansionEvent::new(
                TILE_AUCTIONED,
                &[
                    turn as i64,
                    tile as i64,
                    to as i64,
                    price as i64,
                    paid_to.map_or(-1, |p| p as i64),
                    sold as i64,
                ],
            )),
        );
        if price > 0 {
            // points that change hands at a bazaar are nobody's to rob
            self.award(s, to, AUCTION, -(price as i64), false);
            if let Some(p) = paid_to {
                self.award(s, p, AUCTION, price as i64, false);
            }
        }
    }

    /// The next player without a tile chooses (the same one after a sale, unless
    /// `next_chooser = left`); the auction ends when every tile is sold.
    fn next_chooser(&mut self) {
        let st = self.ext.state();
        if st.unsold_count() == 0 {
            self.close_auction();
            return;
        }
        let chooser = st.chooser;
        let next = if st.has_tile(chooser) || st.config.left_after_sale {
            self.next_without_tile(chooser)
        } else {
            chooser
        };
        let st = self.ext.state_mut();
        st.chooser = next;
        st.step = Step::Select;
    }

    /// The next bidder after the walker, skipping players with a tile; back at the chooser
    /// the bidding is over.
    fn advance_walker(&mut self) {
        let st = *self.ext.state();
        let n = self.players.max(1);
        let mut w = st.walker;
        loop {
            w = (w + 1) % n;
            if w == st.chooser || !st.has_tile(w) {
                break;
            }
        }
        self.ext.state_mut().walker = w;
    }

    fn close_auction(&mut self) {
        let st = self.ext.state_mut();
        st.step = Step::Idle;
        st.n = 0;
    }
}
