//! The Gold Mines (rules.md §2): two ingots when a gold tile is placed (one on it, one on a
//! neighbour, diagonals count), claims by the majority of each completed feature (road/city:
//! its tiles; cloister: its tile and the 8 around), the hand-out after the turn's scoring —
//! HiG draft (one at a time from the active player clockwise, player's pick or most-contested
//! first) or the RGG wording (one per scored feature, leftovers stay or go) — and the value
//! table at the end.
//!
//! Here: the expansion's state, options, decisions and events, and the queries on it; the
//! turn's ingot placing and the hand-out of claims in [`handout`]; JCloisterZone's
//! hash-map order for its automatic pick in [`jcz_order`]; what the heuristic's evaluation
//! makes of the ingots in [`valuation`].

use crate::engine::compiled::Compiled;
use crate::engine::decision::{Choice, DecisionKind, DecisionSpec};
use crate::engine::event::{BoardChange, EventKind, EventSink, EventSpec, Field};
use crate::engine::game::{Game, MAX_PLAYERS};
use crate::engine::hooks::{
    category_of, counter_of, event_of, kind_of, seat_counter_of, Expansion, Heard, Holds, Hook,
    Notice,
};
use crate::engine::outcome::{
    Category, Counter, CounterSpec, GameOutcome, RestSpec, SeatCounter, SeatCounterSpec,
};
use crate::engine::turn::Pending;
use crate::rule_options::{choice, Area, ArgDef, Choice as OptChoice, OptType, OptionDef};
use crate::ruleset::{TileIdx, Var};
use crate::tiles::FeatureKind;

mod handout;
mod jcz_order;
mod present;
mod valuation;

/// A claim to the gold on some tiles: the majority of one scored feature.
#[derive(Clone, Copy, Debug)]
struct Claim {
    winners: u8,
    /// Range into `Gold::claim_tiles`.
    start: u32,
    end: u32,
}

/// What a claim reaches: a scored feature's gold area, or tiles another expansion names.
#[derive(Clone, Copy)]
enum ClaimArea<'a> {
    Feature(u32),
    Tiles(&'a [u32]),
}

/// Gold bookkeeping for one game.
#[derive(Debug, Default)]
pub struct Gold {
    /// Ingots each seat has collected.
    held: [u32; MAX_PLAYERS],
    /// Gold tiles placed.
    pub tiles_placed: u32,
    /// Ingots taken off the board without an owner.
    pub removed: u32,
    /// Ingots on the board when the game ended.
    pub on_board_at_end: u32,
    /// Ingots lying on the board now.
    pub on_board: u32,
    /// Ingots lying on each placed tile (by index; tiles past the end hold none).
    on_tile: Vec<u32>,
    /// Ingots that were still on each tile when the game ended (removed, unscored).
    left_on_tile: Vec<u32>,
    claims: Vec<Claim>,
    claim_tiles: Vec<u32>,
    /// Tiles of this turn's unoccupied completed features whose gold goes back to the box
    /// (`unclaimed = removed`) once the turn's claims have been handed out.
    unclaimed_tiles: Vec<u32>,
    scratch: Vec<u32>,
    /// Capacity JCloisterZone's claim map has this turn (see `jcz_bucket`).
    jcz_capacity: u32,
    // where the turn's ingot placing and hand-out stand (the turn may pause at a decision)
    to_place: u32,
    hand_k: u8,
    hand_claim: usize,
    hand_taken: bool,
}

/// Which neighbour tile gets the second ingot (options: the tiles, in placement order).
pub const INGOT_PLACE: DecisionKind = kind_of::<Gold>(0);
/// Which tile to take an ingot from while gold is handed out.
pub const INGOT_PICK: DecisionKind = kind_of::<Gold>(1);

/// An ingot is placed on a tile (turn, player, x, y).
pub const INGOT_PLACED: EventKind = event_of::<Gold>(0);
/// A player takes an ingot from a tile (turn, player, x, y).
pub const INGOT_TAKEN: EventKind = event_of::<Gold>(1);
/// Ingots are taken off the board without an owner: unclaimed, RGG leftovers, the end of the
/// game (turn, x, y, count).
pub const INGOTS_REMOVED: EventKind = event_of::<Gold>(2);
/// Final scoring of a player's collected gold (player, ingots, points).
pub const GOLD_VALUE: EventKind = event_of::<Gold>(3);

/// Points for collected gold (the value table at the end).
pub const GOLD: Category = category_of::<Gold>(0);
/// Ingots still on tiles when the game ended (removed before final scoring).
pub const INGOTS_ON_BOARD: Counter = counter_of::<Gold>(0);
/// Per-seat counter: ingots held at the end.
pub const INGOTS: SeatCounter = seat_counter_of::<Gold>(0);

/// The fields of an ingot placed or taken: (turn, player, x, y).
const INGOT_FIELDS: &[(&str, Field)] = &[
    ("turn", Field::Turn),
    ("player", Field::Seat),
    ("x", Field::Coord),
    ("y", Field::Coord),
];

/// The ingot's tag among the pieces of the end-of-turn state hash.
const INGOT_PIECE: u64 = 3;

impl Expansion for Gold {
    /// Its rule options (documented by `meeplab check --list-options`; the rule language
    /// builds the ruleset's typed rules from them, in play when the deck holds its tiles).
    const OPTIONS: &'static [OptionDef] = &[
        OptionDef {
            key: "gold.ingots",
            area: Area::Gold,
            ty: OptType::Int { min: 1, max: 9 },
            default: "2",
            doc: "Ingots placed per gold tile: one on it, the rest one each on neighbouring tiles.",
            sources: "HiG 2012, C2, C3: 2",
            requires: None,
        },
        OptionDef {
            key: "gold.neighbourhood",
            area: Area::Gold,
            ty: OptType::Choice(&[
                choice("eight", "any of the 8 surrounding tiles, diagonals included"),
                choice("four", "only the 4 edge neighbours (house)"),
            ]),
            default: "eight",
            doc: "Where the second ingot may go.",
            sources: "HiG 2012, ZMG, C2: eight",
            requires: None,
        },
        OptionDef {
            key: "gold.split",
            area: Area::Gold,
            ty: OptType::Choice(&[
                OptChoice {
                    name: "draft",
                    doc: "one ingot at a time, from the active player clockwise among entitled players, until none are left",
                    args: &[ArgDef {
                        name: "pick",
                        values: &["player", "most_contested"],
                        doc: "who decides which ingot a player takes: the player (6/2013 reading) or automatically the tile claimed by most players (JCloisterZone)",
                    }],
                },
                OptChoice {
                    name: "one_per_feature",
                    doc: "each scoring player takes one ingot per gold-bearing feature it scored",
                    args: &[ArgDef {
                        name: "leftover",
                        values: &["stays", "removed"],
                        doc: "what happens to ingots nobody took",
                    }],
                },
            ]),
            default: "draft(pick: player)",
            doc: "How the gold of completed features is shared between the players entitled to it.",
            sources: "HiG/ZMG/Wikicarpedia: draft(pick: player); JCloisterZone: draft(pick: most_contested); RGG wording: one_per_feature",
            requires: None,
        },
        OptionDef {
            key: "gold.unclaimed",
            area: Area::Gold,
            ty: OptType::Choice(&[
                choice("stays", "the ingots stay on the tiles; another feature may collect them later"),
                choice("removed", "the ingots are removed from the game"),
            ]),
            default: "stays",
            doc: "Gold on a completed feature that nobody occupies.",
            sources: "Wikicarpedia footnote, JCloisterZone: stays",
            requires: None,
        },
        OptionDef {
            key: "gold.at_end",
            area: Area::Gold,
            ty: OptType::Choice(&[
                choice("discard", "removed before final scoring"),
                choice("award_incomplete", "incomplete features hand their gold to their majority (house)"),
            ]),
            default: "discard",
            doc: "Gold still on tiles at the end of the game.",
            sources: "HiG 2012, C2, JCloisterZone: discard",
            requires: None,
        },
        OptionDef {
            key: "gold.value",
            area: Area::Gold,
            ty: OptType::Expr { vars: &[Var::Ingots], none_ok: false },
            default: "ingots * table(ingots) { 1..3: 1, 4..6: 2, 7..9: 3, 10..: 4 }",
            doc: "Total points for the ingots a player holds at the end.",
            sources: "HiG 2012, C2, JCloisterZone: 1/2/3/4 points per ingot at 1-3/4-6/7-9/10+",
            requires: None,
        },
    ];
    const HOOKS: &'static [Hook] = &[Hook::TilePlaced, Hook::AfterScoring, Hook::FinalScoring];
    const HEARS: &'static [Heard] = &[Heard::FeatureScored, Heard::Area];
    const DECISIONS: &'static [DecisionSpec] = &[
        DecisionSpec {
            name: "ingot_place",
            key_code: 2,
            doc: "which neighbour tile gets the second ingot",
        },
        DecisionSpec {
            name: "ingot_pick",
            key_code: 3,
            doc: "which tile to take an ingot from while gold is handed out",
        },
    ];
    const CATEGORIES: &'static [&'static str] = &["gold"];
    const COUNTERS: &'static [CounterSpec] = &[CounterSpec {
        name: "ingots_on_board",
        doc: "ingots left at the end",
    }];
    const SEAT_COUNTERS: &'static [SeatCounterSpec] = &[SeatCounterSpec {
        name: "ingots",
        one: "ingot",
        doc: "ingots held at the end",
        worth: Some("gold"),
        chart: "Gold: mean ingots held at the end, per seat",
        used_by: |r| r.gold.is_some(),
        held: "ingots held",
        rest: Some(RestSpec {
            counter: "ingots_on_board",
            key: "ingots_left",
            words: "ingots left on tiles when the game ended (removed unscored)",
        }),
    }];
    const EVENTS: &'static [EventSpec] = &[
        EventSpec {
            name: "ingot_placed",
            key_code: 8,
            fields: INGOT_FIELDS,
            narrate: |e, _| {
                let v = e.values;
                Some(format!("         ingot placed on ({},{})", v[2], v[3]))
            },
            board: BoardChange::Adds {
                tag: INGOT_PIECE,
                owner: None,
                x: 2,
                y: 3,
            },
        },
        EventSpec {
            name: "ingot_taken",
            key_code: 9,
            fields: INGOT_FIELDS,
            narrate: |e, names| {
                let seat = names.seat;
                let v = e.values;
                let who = seat(v[1] as u8);
                Some(format!(
                    "         {who} takes an ingot from ({},{})",
                    v[2], v[3]
                ))
            },
            board: BoardChange::Removes {
                tag: INGOT_PIECE,
                owner: None,
                x: 2,
                y: 3,
                times: None,
            },
        },
        EventSpec {
            name: "ingots_removed",
            key_code: 10,
            fields: &[
                ("turn", Field::Turn),
                ("x", Field::Coord),
                ("y", Field::Coord),
                ("count", Field::Count),
            ],
            narrate: |e, _| {
                let v = e.values;
                Some(format!(
                    "         {} ingot(s) removed from ({},{})",
                    v[3], v[1], v[2]
                ))
            },
            board: BoardChange::Removes {
                tag: INGOT_PIECE,
                owner: None,
                x: 1,
                y: 2,
                times: Some(3),
            },
        },
        EventSpec {
            name: "gold_value",
            key_code: 11,
            fields: &[
                ("player", Field::Seat),
                ("ingots", Field::Count),
                ("points", Field::Points),
            ],
            narrate: |e, names| {
                let seat = names.seat;
                let v = e.values;
                let who = seat(v[0] as u8);
                Some(format!(
                    "Gold: {who} holds {} ingot(s) worth {}",
                    v[1], v[2]
                ))
            },
            board: BoardChange::None,
        },
    ];

    fn used_by(rules: &Compiled) -> bool {
        rules.rules.gold.is_some()
    }

    fn reset(&mut self) {
        self.held = [0; MAX_PLAYERS];
        self.tiles_placed = 0;
        self.removed = 0;
        self.on_board_at_end = 0;
        self.on_board = 0;
        self.claims.clear();
        self.claim_tiles.clear();
        self.unclaimed_tiles.clear();
        self.on_tile.clear();
        self.left_on_tile.clear();
    }

    fn heap_bytes(&self) -> usize {
        fn v<T>(x: &[T]) -> usize {
            std::mem::size_of_val(x)
        }
        v(&self.claims)
            + v(&self.claim_tiles)
            + v(&self.unclaimed_tiles)
            + v(&self.scratch)
            + v(&self.on_tile)
            + v(&self.left_on_tile)
    }

    fn seat_state(&self, seat: usize) -> u64 {
        self.held.get(seat).map_or(0, |&h| h as u64)
    }

    const VALUES_HOLDINGS: bool = true;

    fn counts_unseen<X: Holds<Self>>(g: &Game<X>, tile: TileIdx) -> bool {
        g.rules().tiles[tile as usize].gold
    }

    fn value_holdings<X: Holds<Self>>(
        g: &Game<X>,
        unseen: u32,
        held: &mut [f64],
        rate: &mut [f64],
    ) {
        valuation::value_holdings(g, unseen, held, rate);
    }

    fn feature_share<X: Holds<Self>>(
        g: &Game<X>,
        root: u32,
        kind: FeatureKind,
        closes: f64,
        winners: u8,
        tiles: &mut Vec<u32>,
    ) -> f64 {
        valuation::feature_share(g, root, kind, closes, winners, tiles)
    }

    /// Ingots are conserved: held + on the board + removed (+ those still to be placed while
    /// an ingot placement is asked) = ingots per gold tile × gold tiles placed.
    fn check_invariants<X: Holds<Self>>(g: &Game<X>) -> Result<(), String> {
        let Some(gold) = &g.rules().rules.gold else {
            return Ok(());
        };
        let per_tile = u32::from(gold.ingots_per_tile);
        let supplied = per_tile * g.gold_tiles_placed();
        let held: u32 = (0..g.players()).map(|p| g.ingots_held(p)).sum();
        let (board, removed) = (g.ingots_on_board(), g.ingots_removed());
        let accounted = held + board + removed;
        // while a neighbour's ingot is asked, one or more of the tile's are still to place
        let placing = matches!(g.pending(), Pending::Decision(d) if d.kind == INGOT_PLACE);
        let ok = if placing {
            accounted < supplied && supplied - accounted < per_tile
        } else {
            accounted == supplied
        };
        if ok {
            Ok(())
        } else {
            Err(format!(
                "ingots held {held} + on the board {board} + removed {removed} \
                 ≠ {supplied} supplied ({} gold tiles){}",
                g.gold_tiles_placed(),
                if placing { " (placing)" } else { "" }
            ))
        }
    }

    /// The board's score table shows the ingots held once any seat holds some.
    fn seat_columns<X: Holds<Self>>(g: &Game<X>, seat: u8, out: &mut Vec<(&'static str, i64)>) {
        let held = &g.ext.state().held;
        if held.iter().any(|&n| n != 0) {
            out.push(("ingots", i64::from(held[seat as usize])));
        }
    }

    fn game_json(
        rules: &crate::ruleset::Ruleset,
        outcome: &GameOutcome,
        events: &[crate::engine::event::Event],
    ) -> Option<(&'static str, serde_json::Value)> {
        Some(("gold", present::game_json(rules, outcome, events)))
    }

    fn tile_art<X: Holds<Self>>(
        g: &Game<X>,
        pidx: usize,
        tile: &crate::tiles::TileType,
        layer: crate::engine::hooks::TileLayer,
        at: crate::engine::hooks::TileFrame,
        out: &mut String,
    ) {
        present::tile_art(g, pidx, tile, layer, at, out);
    }

    fn board_legend(
        rules: &Compiled,
        after_river: bool,
        _paint: &crate::engine::hooks::Paint,
        out: &mut Vec<(String, String)>,
    ) {
        present::board_legend(rules, after_river, out);
    }

    fn outcome(&self, out: &mut GameOutcome) {
        out.counters.add(INGOTS_ON_BOARD, self.on_board_at_end);
        for (seat, &held) in out.seats.iter_mut().zip(&self.held) {
            seat.counts.set(INGOTS, held);
        }
    }

    fn on<X: Holds<Self>, S: EventSink>(
        g: &mut Game<X>,
        s: &mut S,
        at: Hook,
        answer: Option<usize>,
    ) -> bool {
        match at {
            Hook::TilePlaced => {
                // most turns: no gold tile, nothing to place
                if answer.is_none() && !g.enter_ingots(s) {
                    return false;
                }
                g.ingots(s, answer)
            }
            Hook::AfterScoring => {
                // most turns: nothing claimed, nothing to remove
                if answer.is_none() && !g.gold_hand_out_begin() {
                    return false;
                }
                g.gold_hand_out(s, answer)
            }
            Hook::FinalScoring => {
                if answer.is_none() {
                    g.gold_hand_out_begin();
                }
                if g.gold_hand_out(s, answer) {
                    return true;
                }
                g.final_gold_value(s);
                false
            }
            _ => false,
        }
    }

    fn notice<X: Holds<Self>, S: EventSink>(g: &mut Game<X>, _s: &mut S, n: Notice) {
        match n {
            Notice::FeatureScored {
                root,
                winners,
                complete,
                ..
            } => {
                if complete {
                    g.note_gold_claim(ClaimArea::Feature(root), winners);
                } else {
                    g.note_final_gold_claim(ClaimArea::Feature(root), winners);
                }
            }
            Notice::AreaScored {
                winners,
                complete,
                tiles,
                len,
            } => {
                let area = ClaimArea::Tiles(&tiles[..len as usize]);
                if complete {
                    g.note_gold_claim(area, winners);
                } else {
                    g.note_final_gold_claim(area, winners);
                }
            }
            _ => {}
        }
    }

    fn choice<X: Holds<Self>>(g: &Game<X>, _local: u8, i: usize) -> Choice {
        let t = &g.placed[g.opt_tile[i] as usize];
        Choice::Ingot { x: t.x, y: t.y }
    }

    fn option_count<X: Holds<Self>>(g: &Game<X>, _local: u8) -> usize {
        g.opt_tile.len()
    }

    /// Placing the second ingot: `player`'s control of the tile. Taking one: the ingots on
    /// it plus ten per player whose claim reaches it (the most contested first).
    fn value_hint<X: Holds<Self>>(g: &Game<X>, local: u8, i: usize, player: u8) -> i64 {
        let t = g.opt_tile[i];
        if local == 0 {
            return control(g, t as usize, player);
        }
        g.ingots_on_tile(t as usize) as i64 + 10 * g.claimants(t) as i64
    }
}

/// How much `player` controls the features on placed tile `pidx`: +1 per unfinished road,
/// city or cloister it holds a majority in, −1 per one another player holds.
fn control<X: Holds<Gold>>(g: &Game<X>, pidx: usize, player: u8) -> i64 {
    let t = g.placed[pidx];
    let nseg = g.rules.tiles[t.tile as usize].segments.len();
    let mut v = 0;
    let mut seen = [0u32; 16];
    let mut len = 0;
    for k in 0..nseg {
        let r = g.feature_of(t.node0 + k as u32);
        if seen[..len].contains(&r) {
            continue;
        }
        if len < seen.len() {
            seen[len] = r;
            len += 1;
        }
        let c = g.feature(r);
        if c.kind == FeatureKind::Field || c.done {
            continue;
        }
        let w = crate::engine::scoring::majority(&c.followers);
        if w & (1 << player) != 0 {
            v += 1;
        } else if w != 0 {
            v -= 1;
        }
    }
    v
}

impl Clone for Gold {
    fn clone(&self) -> Gold {
        let mut copy = Gold::default();
        copy.clone_from(self);
        copy
    }

    /// Reuses this state's vectors (a search copies positions many times).
    fn clone_from(&mut self, source: &Gold) {
        let Gold {
            held,
            tiles_placed,
            removed,
            on_board_at_end,
            on_board,
            on_tile,
            left_on_tile,
            claims,
            claim_tiles,
            unclaimed_tiles,
            scratch: _,
            jcz_capacity,
            to_place,
            hand_k,
            hand_claim,
            hand_taken,
        } = source;
        (self.held, self.tiles_placed, self.removed) = (*held, *tiles_placed, *removed);
        (self.on_board_at_end, self.on_board) = (*on_board_at_end, *on_board);
        self.on_tile.clone_from(on_tile);
        self.left_on_tile.clone_from(left_on_tile);
        self.claims.clone_from(claims);
        self.claim_tiles.clone_from(claim_tiles);
        self.unclaimed_tiles.clone_from(unclaimed_tiles);
        // `scratch` holds nothing between calls
        (self.jcz_capacity, self.to_place) = (*jcz_capacity, *to_place);
        (self.hand_k, self.hand_claim, self.hand_taken) = (*hand_k, *hand_claim, *hand_taken);
    }
}

impl Gold {
    /// Ingots on placed tile `t`.
    #[inline]
    fn on(&self, t: u32) -> u32 {
        self.on_tile.get(t as usize).copied().unwrap_or(0)
    }

    /// Set the ingots on placed tile `t`.
    fn set_on(&mut self, t: u32, ingots: u32) {
        let t = t as usize;
        if self.on_tile.len() <= t {
            self.on_tile.resize(t + 1, 0);
        }
        self.on_tile[t] = ingots;
    }
}

impl<X: Holds<Gold>> Game<X> {
    /// Ingots lying on placed tile `pidx` (see [`Game::placed_tiles`]).
    pub fn ingots_on_tile(&self, pidx: usize) -> u32 {
        self.ext.state().on(pidx as u32)
    }

    /// Ingots that were still on placed tile `pidx` when the game ended (removed, unscored).
    pub fn ingots_left_on_tile(&self, pidx: usize) -> u32 {
        let left = &self.ext.state().left_on_tile;
        left.get(pidx).copied().unwrap_or(0)
    }

    /// Test support (rulebook scenarios): give `player` `ingots` collected ingots.
    #[doc(hidden)]
    pub fn set_ingots_held_for_test(&mut self, player: u8, ingots: u32) {
        self.ext.state_mut().held[player as usize] = ingots;
    }

    /// Ingots `player` has collected.
    pub fn ingots_held(&self, player: u8) -> u32 {
        self.ext.state().held[player as usize]
    }

    /// Ingots lying on the board now.
    pub fn ingots_on_board(&self) -> u32 {
        let gold = self.ext.state();
        debug_assert_eq!(gold.on_board, gold.on_tile.iter().sum::<u32>());
        gold.on_board
    }

    /// Ingots taken off the board without an owner so far.
    pub fn ingots_removed(&self) -> u32 {
        self.ext.state().removed
    }

    /// Gold tiles placed so far.
    pub fn gold_tiles_placed(&self) -> u32 {
        self.ext.state().tiles_placed
    }
}
