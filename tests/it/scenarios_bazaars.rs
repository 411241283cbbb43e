//! Bazaars scenarios (Bridges, Castles & Bazaars; `docs/src/rules/bcb.md` §3, module
//! `engine/expansions/bazaars.rs`). Each test names the rule it follows:
//!
//! - [C1] the 1st-edition rulebook as Wikicarpedia gives it (bcb.md §3.1–§3.3): the auction
//!   follows the turn that places a bazaar; as many tiles as players are turned up; the
//!   player after the bazaar's owner chooses a tile and bids; each other player, in turn
//!   order, outbids or passes once; nobody outbid → the chooser pays its bid to nobody;
//!   else the chooser buys (pays the highest bidder) or sells (the bidder pays the chooser);
//!   the next chooser is the next player without a tile, "it could be the same player if he
//!   did not buy the tile he chose" (RGG Big Box 3); the last tile goes free to the last
//!   player; scores may go below 0; then, from the bazaar player's left, each plays the
//!   bought tile as the turn's tile.
//! - [C2] the 2nd edition (Wikicarpedia diff 16902): "Skip this step if there are fewer
//!   tiles remaining than there are players."
//! - [OOP] the Order of Play / Assembled Game Reference: a bazaar tile bought at an auction
//!   does not trigger one.
//! - [JCZ] JCloisterZone (`TilePhase`, `BazaarPhase`, `BazaarCapability`): no auction for any
//!   bazaar placed while a bazaar's tiles wait to be played; a bought tile that fits nowhere
//!   is set aside and the turn draws from the pack; the `bazaar-no-auction` variant
//!   (`bazaars.auction = none`) where each chooser just takes a tile.
//!
//! The pack is stacked with [`Game::force_draws`]: the auction turns up its first tiles in
//! that order. Turns go in seat order (a drawn turn belongs to the seat whose turn it is).
//! Seats: 0 = ALICE, 1 = BOB, 2 = CAROL, 3 = DAVE. The start tile BA/RCr is at (0,0) rot 0
//! (city cap N, road W–E, field S); y grows southward.
//!
//! [`Game::force_draws`]: meeplab::engine::Game

use crate::scenario_support;

use meeplab::engine::expansions::bazaars;
use meeplab::engine::{Choice, Chooser, Compiled, Decision, DecisionKind, Event, Game};
use meeplab::ruleset::TileIdx;
use scenario_support::*;
use std::sync::Arc;

const ALICE: u8 = 0;
const BOB: u8 = 1;
const CAROL: u8 = 2;
const DAVE: u8 = 3;

/// The base game with the BC&B tiles (1st edition) and bazaars, `extra` option lines.
fn with_bazaars(extra: &str) -> Arc<Compiled> {
    load_str(
        "bazaars",
        &format!(
            "ruleset \"base + bazaars\"\nextends \"rulesets/base.rules\"\n\
             include \"rulesets/tiles/bcb.tiles\"\ndeck += {{ bcb x1 }}\n{extra}"
        ),
    )
}

fn rules() -> Arc<Compiled> {
    with_bazaars("bazaars.auction = bids\n")
}

/// `player` chooses tile `tile` of the auction.
fn select(player: u8, tile: TileIdx) -> Exp {
    exp(bazaars::SELECT, player, Choice::Tile { tile })
}

/// `player` bids `n` (the chooser's opening, or a raise to `n`).
fn bid(player: u8, n: u32) -> Exp {
    exp(bazaars::BID, player, Choice::Amount { n: Some(n) })
}

/// `player` passes.
fn pass(player: u8) -> Exp {
    exp(bazaars::BID, player, Choice::Amount { n: None })
}

/// The chooser, outbid, buys (`true`) or sells.
fn buy(player: u8, yes: bool) -> Exp {
    exp(bazaars::BUY, player, Choice::Flag { yes })
}

/// `TILE_AUCTIONED` events as (tile, player, price, paid to or −1, sold).
fn auctioned(events: &[Event]) -> Vec<(TileIdx, u8, i64, i64, bool)> {
    events
        .iter()
        .filter_map(|e| {
            e.of(bazaars::TILE_AUCTIONED)
                .map(|v| (v[1] as TileIdx, v[2] as u8, v[3], v[4], v[5] != 0))
        })
        .collect()
}

/// `AUCTION_OPENED` events as (owner, tiles).
fn opened(events: &[Event]) -> Vec<(u8, i64)> {
    events
        .iter()
        .filter_map(|e| e.of(bazaars::AUCTION_OPENED).map(|v| (v[1] as u8, v[2])))
        .collect()
}

/// The turn's `Drawn` event as (player, tile).
fn drawn(events: &[Event]) -> (u8, TileIdx) {
    let d: Vec<_> = events
        .iter()
        .filter_map(|e| match *e {
            Event::Drawn { player, tile, .. } => Some((player, tile)),
            _ => None,
        })
        .collect();
    assert_eq!(d.len(), 1, "{events:?}");
    d[0]
}

/// Who was asked each decision of `kind`, in order.
fn asked_players(s: &Scen, kind: DecisionKind) -> Vec<u8> {
    s.asked(kind).iter().map(|a| a.player).collect()
}

fn counters(s: &Scen) -> (u32, u32, u32) {
    let o = s.game.outcome();
    (
        o.counters.get(bazaars::AUCTIONS),
        o.counters.get(bazaars::SOLD),
        o.counters.get(bazaars::PRICES),
    )
}

fn auction_points(s: &Scen) -> Vec<i64> {
    (0..s.game.players())
        .map(|p| s.cat(p, bazaars::AUCTION))
        .collect()
}

/// [C1] Three players, Alice places BB/F.b: three tiles turned up; Bob chooses BA/RFr and
/// bids 2, Carol bids 4, Alice passes, Bob buys (Bob −4, Carol +4); Carol chooses BB/CFc.b
/// and bids 1, Alice bids 3 (Bob, who has a tile, is not asked), Carol sells (Carol +3,
/// Alice −3); BB/R.bi goes free to Carol. Then Bob, Carol and Alice play those tiles (their
/// turns' `Drawn`); the bazaars among them open no auction [OOP] [JCZ]; the next tile from
/// the pack (BB/RFR.b, Bob) opens one again.
#[test]
fn three_players_buy_sell_free_last_tile_and_the_bazaar_round() {
    let mut s = Scen::new(&rules(), 3);
    let (rfr, cfc, rbi, rfrb, l) = (
        s.tile("BA/RFr"),
        s.tile("BB/CFc.b"),
        s.tile("BB/R.bi"),
        s.tile("BB/RFR.b"),
        s.tile("BA/L"),
    );
    s.game.force_draws(vec![rfr, cfc, rbi, rfrb, l, l, l]);
    assert_eq!(s.game.remaining(), 7);
    let ev = s.play_with(
        ALICE,
        "BB/F.b",
        (0, 1, 0),
        None,
        &[
            select(BOB, rfr),
            bid(BOB, 2),
            bid(CAROL, 4),
            pass(ALICE),
            buy(BOB, true),
            select(CAROL, cfc),
            bid(CAROL, 1),
            bid(ALICE, 3),
            buy(CAROL, false),
        ],
    );
    assert_eq!(opened(&ev), vec![(ALICE, 3)]);
    assert_eq!(
        auctioned(&ev),
        vec![
            (rfr, BOB, 4, CAROL as i64, false),
            (cfc, ALICE, 3, CAROL as i64, true),
            (rbi, CAROL, 0, -1, false),
        ]
    );
    assert_eq!(s.scores(), vec![-3, -4, 7]);
    assert_eq!(auction_points(&s), vec![-3, -4, 7]);
    assert_eq!(asked_players(&s, bazaars::SELECT), vec![BOB, CAROL]);
    assert_eq!(
        asked_players(&s, bazaars::BID),
        vec![BOB, CAROL, ALICE, CAROL, ALICE]
    );
    assert_eq!(asked_players(&s, bazaars::BUY), vec![BOB, CAROL]);
    // the first tile's offers: all three; the second's: the two left
    let sel = s.asked(bazaars::SELECT);
    assert_eq!(
        sel[0].options,
        vec![
            Choice::Tile { tile: rfr },
            Choice::Tile { tile: cfc },
            Choice::Tile { tile: rbi }
        ]
    );
    assert_eq!(
        sel[1].options,
        vec![Choice::Tile { tile: cfc }, Choice::Tile { tile: rbi }]
    );
    // Carol's first bid: pass, or 3 to 12 (raise limit 10 above Bob's 2)
    let carol_bid = &s.asked(bazaars::BID)[1].options;
    assert_eq!(carol_bid.len(), 11);
    assert_eq!(carol_bid[0], Choice::Amount { n: None });
    assert_eq!(carol_bid[1], Choice::Amount { n: Some(3) });
    assert_eq!(counters(&s), (1, 1, 7));
    assert_eq!(s.game.remaining(), 4, "three tiles left the pack");

    // the bazaar round, from Alice's left
    let ev = s.play_drawn(BOB, (1, 0, 0), None, &[]);
    assert_eq!(drawn(&ev), (BOB, rfr));
    let ev = s.play_drawn(CAROL, (-1, 1, 0), None, &[]); // BB/R.bi, a bazaar: no auction
    assert_eq!(drawn(&ev), (CAROL, rbi));
    assert!(opened(&ev).is_empty());
    let ev = s.play_drawn(ALICE, (0, -1, 1), None, &[]); // BB/CFc.b bought: no auction
    assert_eq!(drawn(&ev), (ALICE, cfc));
    assert!(opened(&ev).is_empty());
    assert_eq!(
        s.game.remaining(),
        4,
        "the round draws nothing from the pack"
    );
    assert!(s.asked(bazaars::SELECT).len() == 2);
    // after the round: the pack again, and a bazaar opens an auction (defaults: each takes
    // the first tile for 0)
    let ev = s.play_drawn(BOB, (2, 0, 1), None, &[]);
    assert_eq!(drawn(&ev), (BOB, rfrb));
    assert_eq!(opened(&ev), vec![(BOB, 3)]);
    assert_eq!(auctioned(&ev).len(), 3);
    assert_eq!(s.game.remaining(), 0);
    assert_eq!(s.scores(), vec![-3, -4, 7]);
    assert_eq!(counters(&s).0, 2);
    // the pack is empty, the second round is still played (Carol, Alice, Bob), then the
    // game ends
    assert_eq!(
        drawn(&s.play_drawn(CAROL, (1, 1, 0), None, &[])),
        (CAROL, l)
    );
    assert_eq!(
        drawn(&s.play_drawn(ALICE, (0, 2, 0), None, &[])),
        (ALICE, l)
    );
    assert_eq!(drawn(&s.play_drawn(BOB, (2, 1, 0), None, &[])), (BOB, l));
    assert!(!s.game.draw(&mut s.events), "nothing left to play");
    assert_eq!(s.game.placed_tiles().len(), 9);
}

/// [C1] The auction comes after the whole turn, scoring included ("including placing a
/// follower, scoring"): BB/CFR.b closes the start city with Alice's knight (2 tiles, 4
/// points, the knight comes home), then the auction opens.
#[test]
fn auction_follows_the_turns_scoring() {
    let mut s = Scen::new(&rules(), 2);
    let l = s.tile("BA/L");
    s.game.force_draws(vec![l, l, l]);
    let ev = s.play(ALICE, "BB/CFR.b", (0, -1, 2), Some(0));
    let at = |f: &dyn Fn(&Event) -> bool| ev.iter().position(f).expect("an event");
    let scored_at = at(&|e| matches!(e, Event::Scored { .. }));
    let returned_at = at(&|e| matches!(e, Event::FollowerReturned { .. }));
    let opened_at = at(&|e| e.of(bazaars::AUCTION_OPENED).is_some());
    assert!(scored_at < opened_at && returned_at < opened_at, "{ev:?}");
    assert_eq!(opened(&ev), vec![(ALICE, 2)]);
    assert_eq!(s.scores(), vec![4, 0]);
    assert_eq!(s.game.supply(ALICE), 7);
}

/// [C1] Four players; Carol (seat 2) places the bazaar, so Dave chooses first and the others
/// bid in seat order from his left (Alice, Bob, Carol). Dave chooses, bids 1; Alice 2, Bob
/// passes, Carol 5; Dave sells (Dave +5, Carol −5) and chooses again (the same player after
/// a sale), bids 3; Alice and Bob pass (Carol has a tile): nobody outbid, Dave pays 3 to
/// nobody. Alice chooses, bids 0; Bob 1; Alice buys (Alice −1, Bob +1). The last tile goes
/// free to Bob. Then Dave, Alice, Bob, Carol play their tiles; Dave's next turn draws from
/// the pack.
#[test]
fn four_players_same_chooser_after_a_sale_and_nobody_outbids() {
    let mut s = Scen::new(&rules(), 4);
    let (l, c, rfr) = (s.tile("BA/L"), s.tile("BA/C"), s.tile("BA/RFr"));
    let (cc, lr) = (s.tile("BA/Cc.1"), s.tile("BA/LR"));
    // W, X, Y, Z, then the pack
    s.game.force_draws(vec![lr, l, c, rfr, cc]);
    s.play(ALICE, "BA/RFr", (1, 0, 0), None);
    s.play(BOB, "BA/RFr", (-1, 0, 0), None);
    let ev = s.play_with(
        CAROL,
        "BB/F.b",
        (0, 1, 0),
        None,
        &[
            select(DAVE, lr),
            bid(DAVE, 1),
            bid(ALICE, 2),
            pass(BOB),
            bid(CAROL, 5),
            buy(DAVE, false),
            select(DAVE, l),
            bid(DAVE, 3),
            pass(ALICE),
            pass(BOB),
            select(ALICE, c),
            bid(ALICE, 0),
            bid(BOB, 1),
            buy(ALICE, true),
        ],
    );
    assert_eq!(opened(&ev), vec![(CAROL, 4)]);
    assert_eq!(
        auctioned(&ev),
        vec![
            (lr, CAROL, 5, DAVE as i64, true),
            (l, DAVE, 3, -1, false),
            (c, ALICE, 1, BOB as i64, false),
            (rfr, BOB, 0, -1, false),
        ]
    );
    assert_eq!(asked_players(&s, bazaars::SELECT), vec![DAVE, DAVE, ALICE]);
    assert_eq!(
        asked_players(&s, bazaars::BID),
        vec![DAVE, ALICE, BOB, CAROL, DAVE, ALICE, BOB, ALICE, BOB]
    );
    assert_eq!(asked_players(&s, bazaars::BUY), vec![DAVE, ALICE]);
    assert_eq!(s.scores(), vec![-1, 1, -5, 2]);
    assert_eq!(counters(&s), (1, 1, 9));

    let ev = s.play_drawn(DAVE, (1, 1, 0), None, &[]);
    assert_eq!(drawn(&ev), (DAVE, l));
    let ev = s.play_drawn(ALICE, (0, -1, 2), None, &[]);
    assert_eq!(drawn(&ev), (ALICE, c));
    let ev = s.play_drawn(BOB, (2, 0, 0), None, &[]); // BA/RFr
    assert_eq!(drawn(&ev), (BOB, rfr));
    let ev = s.play_drawn(CAROL, (-2, 0, 3), None, &[]); // BA/LR, road E
    assert_eq!(drawn(&ev), (CAROL, lr));
    assert_eq!(s.game.remaining(), 1);
    let ev = s.play_drawn(DAVE, (0, 2, 2), None, &[]); // BA/Cc.1 from the pack
    assert_eq!(drawn(&ev), (DAVE, cc));
    assert_eq!(s.game.remaining(), 0);
    assert_eq!(s.scores(), vec![-1, 1, -5, 2]);
}

/// [JCZ] `bazaars.next_chooser = left` (`BazaarPhase.nextSelectingPlayer`): after a sale
/// the next player to the seller's left without a tile chooses, not the seller. The same
/// start as above: Dave sells to Carol (Dave +5, Carol −5); Alice chooses next, bids 3, Bob
/// and Dave pass: Alice pays 3 to nobody; Bob chooses, bids 0, Dave bids 1, Bob buys (Bob −1,
/// Dave +1); the last tile goes free to Dave, the seller.
#[test]
fn next_chooser_left_passes_the_choice_on_after_a_sale() {
    let mut s = Scen::new(
        &with_bazaars("bazaars.auction = bids\nbazaars.next_chooser = left\n"),
        4,
    );
    let (l, c, rfr) = (s.tile("BA/L"), s.tile("BA/C"), s.tile("BA/RFr"));
    let lr = s.tile("BA/LR");
    s.game.force_draws(vec![lr, l, c, rfr]);
    s.play(ALICE, "BA/RFr", (1, 0, 0), None);
    s.play(BOB, "BA/RFr", (-1, 0, 0), None);
    let ev = s.play_with(
        CAROL,
        "BB/F.b",
        (0, 1, 0),
        None,
        &[
            select(DAVE, lr),
            bid(DAVE, 1),
            bid(ALICE, 2),
            pass(BOB),
            bid(CAROL, 5),
            buy(DAVE, false),
            select(ALICE, l),
            bid(ALICE, 3),
            pass(BOB),
            pass(DAVE),
            select(BOB, c),
            bid(BOB, 0),
            bid(DAVE, 1),
            buy(BOB, true),
        ],
    );
    assert_eq!(
        auctioned(&ev),
        vec![
            (lr, CAROL, 5, DAVE as i64, true),
            (l, ALICE, 3, -1, false),
            (c, BOB, 1, DAVE as i64, false),
            (rfr, DAVE, 0, -1, false),
        ]
    );
    assert_eq!(asked_players(&s, bazaars::SELECT), vec![DAVE, ALICE, BOB]);
    assert_eq!(asked_players(&s, bazaars::BUY), vec![DAVE, BOB]);
    assert_eq!(s.scores(), vec![-3, -1, -5, 6]);
}

/// [C2] No auction when the pack holds fewer tiles than there are players: two tiles left,
/// three players; the pack is untouched. With exactly three, one opens.
#[test]
fn no_auction_when_the_pack_has_fewer_tiles_than_players() {
    let mut s = Scen::new(&rules(), 3);
    let l = s.tile("BA/L");
    s.game.force_draws(vec![l, l]);
    let ev = s.play(ALICE, "BB/F.b", (0, 1, 0), None);
    assert!(opened(&ev).is_empty());
    assert!(s.asked(bazaars::SELECT).is_empty());
    assert_eq!(s.game.remaining(), 2);
    assert_eq!(counters(&s), (0, 0, 0));

    let mut s = Scen::new(&rules(), 3);
    s.game.force_draws(vec![l, l, l]);
    let ev = s.play(ALICE, "BB/F.b", (0, 1, 0), None);
    assert_eq!(opened(&ev), vec![(ALICE, 3)]);
    assert_eq!(s.game.remaining(), 0);
}

/// [JCZ] `bazaars.auction = none` (`bazaar-no-auction`: "each player just chooses one
/// tile"): Bob takes a tile, then Carol, Alice gets the last; no bid, no buy, no points.
#[test]
fn auction_none_each_chooser_takes_a_tile() {
    let mut s = Scen::new(&with_bazaars("bazaars.auction = none\n"), 3);
    let (l, c, rfr) = (s.tile("BA/L"), s.tile("BA/C"), s.tile("BA/RFr"));
    s.game.force_draws(vec![l, c, rfr]);
    let ev = s.play_with(
        ALICE,
        "BB/F.b",
        (0, 1, 0),
        None,
        &[select(BOB, rfr), select(CAROL, l)],
    );
    assert_eq!(
        auctioned(&ev),
        vec![
            (rfr, BOB, 0, -1, false),
            (l, CAROL, 0, -1, false),
            (c, ALICE, 0, -1, false),
        ]
    );
    assert_eq!(asked_players(&s, bazaars::SELECT), vec![BOB, CAROL]);
    assert!(s.asked(bazaars::BID).is_empty());
    assert!(s.asked(bazaars::BUY).is_empty());
    assert_eq!(s.scores(), vec![0, 0, 0]);
    assert_eq!(drawn(&s.play_drawn(BOB, (1, 0, 0), None, &[])), (BOB, rfr));
    assert_eq!(
        drawn(&s.play_drawn(CAROL, (1, 1, 0), None, &[])),
        (CAROL, l)
    );
    assert_eq!(
        drawn(&s.play_drawn(ALICE, (0, -1, 2), None, &[])),
        (ALICE, c)
    );
}

/// [JCZ] A bought tile that fits nowhere is set aside and the turn draws from the pack:
/// Alice closed the start city, so the BA/Cccc+ she takes at Bob's bazaar (nobody outbids
/// her 0) fits nowhere; her turn discards it and plays BA/RFr from the pack; Bob then plays
/// the BA/L he got free.
#[test]
fn bought_tile_that_fits_nowhere_is_set_aside_and_the_turn_draws() {
    let mut s = Scen::new(&rules(), 2);
    let (cccc, l, rfr) = (s.tile("BA/Cccc+"), s.tile("BA/L"), s.tile("BA/RFr"));
    s.game.force_draws(vec![cccc, l, rfr, l]);
    s.play(ALICE, "BA/C", (0, -1, 2), None);
    let ev = s.play_with(
        BOB,
        "BB/F.b",
        (0, 1, 0),
        None,
        &[select(ALICE, cccc), bid(ALICE, 0), pass(BOB)],
    );
    assert_eq!(
        auctioned(&ev),
        vec![(cccc, ALICE, 0, -1, false), (l, BOB, 0, -1, false)]
    );
    let ev = s.play_drawn(ALICE, (1, 0, 0), None, &[]);
    let discarded: Vec<_> = ev
        .iter()
        .filter_map(|e| match *e {
            Event::Discarded {
                tile, reshuffled, ..
            } => Some((tile, reshuffled)),
            _ => None,
        })
        .collect();
    assert_eq!(discarded, vec![(cccc, false)]);
    assert_eq!(drawn(&ev), (ALICE, rfr));
    let ev = s.play_drawn(BOB, (1, 1, 0), None, &[]);
    assert_eq!(drawn(&ev), (BOB, l));
    assert_eq!(s.game.remaining(), 1);
}

/// Keyed choices for whole games.
struct Keyed;

impl Chooser for Keyed {
    fn choose(&mut self, _g: &Game, d: &Decision) -> usize {
        (d.key % d.options as u64) as usize
    }
}

/// Tile conservation over keyed games of both BC&B rulesets, 2–6 players: every tile of the
/// pack is placed or discarded once (auctions and bazaar rounds lose none and add none), the
/// auction points sum to the prices paid to nobody, and auctions happen.
#[test]
fn tiles_conserved_over_keyed_games() {
    for name in ["bcb-c1", "bcb-c2"] {
        let rules = load(name);
        let mut auctions = 0;
        for seed in 0..20u64 {
            let players = 2 + (seed % 5) as u8;
            let mut game = Game::new(rules.clone(), seed, players);
            let mut events: Vec<Event> = Vec::new();
            game.setup(&mut events);
            let pack = game.remaining();
            while game.play_turn(&mut Keyed, &mut events) {}
            game.finish(&mut Keyed, &mut events);
            let discarded = events
                .iter()
                .filter(|e| {
                    matches!(
                        e,
                        Event::Discarded {
                            reshuffled: false,
                            ..
                        }
                    )
                })
                .count();
            let placed = game.placed_tiles().len() - 1;
            assert_eq!(
                placed + discarded,
                pack,
                "{name} seed {seed}: {players} players"
            );
            let turns = events
                .iter()
                .filter(|e| matches!(e, Event::Drawn { .. }))
                .count();
            assert_eq!(turns, placed, "{name} seed {seed}: a turn a tile placed");
            let o = game.outcome();
            auctions += o.counters.get(bazaars::AUCTIONS);
            let to_nobody: i64 = auctioned(&events)
                .iter()
                .filter(|a| a.3 < 0)
                .map(|a| a.2)
                .sum();
            let by_cat: i64 = (0..players)
                .map(|p| game.by_category(p).get(bazaars::AUCTION))
                .sum();
            assert_eq!(by_cat, -to_nobody, "{name} seed {seed}");
        }
        assert!(auctions > 0, "{name}: no auction in 20 games");
        // the engine's own invariants after every draw and move (scores may fall only by
        // the auction's transfers), with bids that vary
        for seed in 0..10u64 {
            let mut game = Game::new(rules.clone(), 100 + seed, 2 + (seed % 5) as u8);
            let pick = |_: &Game, d: &Decision| {
                (d.key.rotate_left(seed as u32 * 7) % d.options as u64) as usize
            };
            meeplab::engine::invariants::play_checked(&mut game, pick)
                .unwrap_or_else(|v| panic!("{name} seed {seed}: {v}"));
        }
    }
}

/// [C1] A bazaar tile is still a bazaar under a bridge (bcb-c1: bridges and bazaars
/// together): BB/F.b east of the start fits only with its W–E bridge, which it builds with
/// no decision (C1's `timing = any` offers no second one after the follower); the auction
/// opens after the turn. BB/R.bi with an optional bridge likewise.
#[test]
fn bazaar_tile_with_a_bridge_still_opens_an_auction() {
    use meeplab::engine::expansions::bridges;
    let rules = load("bcb-c1");
    let mut s = Scen::new(&rules, 2);
    let l = s.tile("BA/L");
    s.game.force_draws(vec![l; 6]);
    let ev = s.play(ALICE, "BB/F.b", (1, 0, 0), None);
    assert_eq!(s.game.bridges(), vec![(ALICE, (1, 0), 1)]);
    assert!(s.asked(bridges::BRIDGE).is_empty(), "{:?}", s.log);
    assert_eq!(opened(&ev), vec![(ALICE, 2)]);
    // the round: Bob and Alice play their BA/L
    s.play_drawn(BOB, (0, 1, 0), None, &[]);
    s.play_drawn(ALICE, (1, 1, 0), None, &[]);
    // BB/R.bi (road S) on (-1,0)? no: below (0,1), road S, with its W–E bridge
    let ev = s.play_with(
        BOB,
        "BB/R.bi",
        (0, 2, 0),
        None,
        &[exp(
            bridges::BRIDGE,
            BOB,
            Choice::Token {
                at: Some((0, 2, 1)),
            },
        )],
    );
    assert_eq!(s.game.bridges().len(), 2);
    assert_eq!(opened(&ev), vec![(BOB, 2)]);
}

/// [C1] "each player places the tile bought instead of drawing one" (Assembled Game
/// Reference) also with the hand house rule (`hand = 2` on bcb-c1): the bought tile is the
/// turn's tile and the hand stays as it is. Keyed games keep the engine's invariants and
/// place or discard every tile of the pack (before the fix in `draw_hand` bought tiles were
/// never played: 82 placed of 84).
#[test]
fn bought_tiles_are_played_with_the_hand_house_rule() {
    let rules = load_str(
        "hand-bazaars",
        "ruleset \"x\"\nextends \"rulesets/bcb-c1.rules\"\nhand = 2\n",
    );
    for seed in 0..10u64 {
        let mut game = Game::new(rules.clone(), seed, 2 + (seed % 5) as u8);
        let pick = |_: &Game, d: &Decision| (d.key % d.options as u64) as usize;
        meeplab::engine::invariants::play_checked(&mut game, pick)
            .unwrap_or_else(|v| panic!("seed {seed}: {v}"));
    }
}
