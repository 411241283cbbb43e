//! The Gold Mines (rules.md §2): two ingots when a gold tile is placed (one on it, one on a
//! neighbour, diagonals count), claims by the majority of each completed feature (road/city:
//! its tiles; cloister: its tile and the 8 around), the hand-out after the turn's scoring —
//! HiG draft (one at a time from the active player clockwise, player's pick or most-contested
//! first) or the RGG wording (one per scored feature, leftovers stay or go) — and the value
//! table at the end.

use crate::engine::compiled::Compiled;
use crate::engine::decision::{Choice, DecisionKind, DecisionSpec};
use crate::engine::event::{
    BoardChange, Event, EventKind, EventSink, EventSpec, ExpansionEvent, Field,
};
use crate::engine::game::{Game, MAX_PLAYERS};
use crate::engine::hooks::{
    category_of, counter_of, event_of, kind_of, Expansion, Heard, Holds, Hook, Notice,
};
use crate::engine::outcome::{Category, Counter, CounterSpec, GameOutcome};
use crate::rule_options::{choice, Area, ArgDef, Choice as OptChoice, OptType, OptionDef};
use crate::ruleset::{
    GoldAtEnd, GoldLeftover, GoldNeighbourhood, GoldPick, GoldSplit, UnclaimedGold, Var, Vars,
};
use crate::tiles::FeatureKind;

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

/// The bucket of tile (x, y) in a `java.util.HashMap` of `capacity` keyed by JCloisterZone's
/// `Position` (hash `(x << 16) ^ y`, spread `h ^ (h >>> 16)`): the map's iteration order,
/// which decides JCloisterZone's automatic pick between equally contested tiles.
pub(crate) fn jcz_bucket(x: i32, y: i32, capacity: u32) -> u32 {
    let h = (x.wrapping_shl(16) ^ y) as u32;
    (h ^ (h >> 16)) & (capacity - 1)
}

/// JCloisterZone's automatic pick among `(x, y, claimants)` candidates (in claim order): the
/// tile claimed by the most players; among equals, the first in its claim map's iteration
/// order (bucket, then claim order).
pub(crate) fn most_contested(
    cands: impl IntoIterator<Item = (i32, i32, u32)>,
    capacity: u32,
) -> usize {
    let mut best = 0;
    let mut best_key = (0u32, u32::MAX);
    for (i, (x, y, claimants)) in cands.into_iter().enumerate() {
        let key = (claimants, u32::MAX - jcz_bucket(x, y, capacity));
        if key > best_key {
            best = i;
            best_key = key;
        }
    }
    best
}

/// The capacity a `java.util.HashMap` grows to holding `n` keys (16, doubled while more than
/// three quarters full).
fn java_map_capacity(n: usize) -> u32 {
    let mut cap = 16u32;
    while n as u32 > cap / 4 * 3 {
        cap *= 2;
    }
    cap
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

    fn outcome(&self, out: &mut GameOutcome) {
        out.counters.add(INGOTS_ON_BOARD, self.on_board_at_end);
        for (seat, &held) in out.seats.iter_mut().zip(&self.held) {
            seat.ingots = held;
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

    /// Enter the ingot step: the gold tile's first ingot (if the tile is one). False when the
    /// tile is no gold tile: nothing to place.
    fn enter_ingots<S: EventSink>(&mut self, s: &mut S) -> bool {
        let gold_tile = self.rules.tiles[self.current as usize].gold;
        if gold_tile {
            self.ingots_begin(s, self.last_placed);
        } else {
            self.ext.state_mut().to_place = 0;
        }
        gold_tile
    }

    /// The gold tile just placed at `pidx` gets its first ingot; the others go to neighbours
    /// (see [`Game::ingots`]).
    pub(crate) fn ingots_begin<S: EventSink>(&mut self, s: &mut S, pidx: usize) {
        let Some(per_tile) = self.rules.rules.gold.as_ref().map(|r| r.ingots_per_tile) else {
            self.ext.state_mut().to_place = 0;
            return;
        };
        self.ext.state_mut().tiles_placed += 1;
        let player = self.active;
        self.put_ingot(s, player, pidx as u32);
        self.ext.state_mut().to_place = u32::from(per_tile.saturating_sub(1));
    }

    /// The neighbours' ingots, resumable: `choice` answers the ingot decision last asked.
    /// Returns true when it asked a decision, false when every ingot is placed.
    pub(crate) fn ingots<S: EventSink>(&mut self, s: &mut S, choice: Option<usize>) -> bool {
        let player = self.active;
        if let Some(i) = choice {
            let t = self.opt_tile[i];
            self.put_ingot(s, player, t);
            self.ext.state_mut().to_place -= 1;
        }
        let eight = self
            .rules
            .rules
            .gold
            .as_ref()
            .is_some_and(|r| r.neighbourhood == GoldNeighbourhood::Eight);
        while self.ext.state_mut().to_place > 0 {
            let mut around = std::mem::take(&mut self.opt_tile);
            self.around(self.last_placed, eight, &mut around);
            self.opt_tile = around;
            if self.opt_tile.is_empty() {
                // no neighbour to take it: it stays in the box (never in practice)
                self.ext.state_mut().removed += 1;
                self.ext.state_mut().to_place -= 1;
                continue;
            }
            let n = self.opt_tile.len();
            self.ask(INGOT_PLACE, player, n);
            return true;
        }
        false
    }

    fn put_ingot<S: EventSink>(&mut self, s: &mut S, player: u8, pidx: u32) {
        let t = &self.placed[pidx as usize];
        let (x, y) = (t.x, t.y);
        let gold = self.ext.state_mut();
        gold.set_on(pidx, gold.on(pidx) + 1);
        gold.on_board += 1;
        self.emit(
            s,
            Event::Expansion(ExpansionEvent::new(
                INGOT_PLACED,
                &[self.turn as i64, player as i64, x as i64, y as i64],
            )),
        );
    }

    /// Tiles whose gold a scored feature hands out: a road's or city's tiles, a cloister's
    /// tile and the 8 around it.
    pub(crate) fn gold_area(&self, root: u32, out: &mut Vec<u32>) {
        if self.comps[root as usize].kind == FeatureKind::Cloister {
            let pidx = self.nodes[root as usize].tile as usize;
            self.around(pidx, true, out);
            out.insert(0, pidx as u32);
        } else {
            self.component_tile_list(root, out);
        }
    }

    /// A completed feature was scored: its majority claims the gold on its area; the gold of
    /// an unoccupied one stays (or is removed, by option).
    fn note_gold_claim(&mut self, at: ClaimArea, winners: u8) {
        let Some(unclaimed) = self.rules.rules.gold.as_ref().map(|g| g.unclaimed) else {
            return;
        };
        if self.ext.state_mut().on_board == 0 {
            return;
        }
        let mut area = std::mem::take(&mut self.ext.state_mut().scratch);
        match at {
            ClaimArea::Feature(root) => self.gold_area(root, &mut area),
            ClaimArea::Tiles(tiles) => {
                area.clear();
                area.extend_from_slice(tiles);
            }
        }
        let ingots: u32 = area.iter().map(|&t| self.ext.state().on(t)).sum();
        if ingots > 0 {
            if winners != 0 {
                self.push_claim(winners, &area);
            } else if unclaimed == UnclaimedGold::Removed {
                // the turn's claims come first: only what no claim takes is removed
                self.ext
                    .state_mut()
                    .unclaimed_tiles
                    .extend_from_slice(&area);
            }
        }
        self.ext.state_mut().scratch = area;
    }

    /// Final scoring of an incomplete feature: a claim only under the house rule that
    /// incomplete features hand out their gold.
    fn note_final_gold_claim(&mut self, at: ClaimArea, winners: u8) {
        let award = self
            .rules
            .rules
            .gold
            .as_ref()
            .is_some_and(|g| g.at_end == GoldAtEnd::AwardIncomplete);
        if !award || winners == 0 || self.ext.state_mut().on_board == 0 {
            return;
        }
        let mut area = std::mem::take(&mut self.ext.state_mut().scratch);
        match at {
            ClaimArea::Feature(root) => self.gold_area(root, &mut area),
            ClaimArea::Tiles(tiles) => {
                area.clear();
                area.extend_from_slice(tiles);
            }
        }
        self.push_claim(winners, &area);
        self.ext.state_mut().scratch = area;
    }

    fn push_claim(&mut self, winners: u8, area: &[u32]) {
        let start = self.ext.state_mut().claim_tiles.len() as u32;
        self.ext.state_mut().claim_tiles.extend_from_slice(area);
        let end = self.ext.state_mut().claim_tiles.len() as u32;
        self.ext.state_mut().claims.push(Claim {
            winners,
            start,
            end,
        });
    }

    fn remove_ingots<S: EventSink>(&mut self, s: &mut S, pidx: u32) {
        let count = self.ext.state().on(pidx);
        if count == 0 {
            return;
        }
        let t = &self.placed[pidx as usize];
        let (x, y) = (t.x, t.y);
        let gold = self.ext.state_mut();
        gold.set_on(pidx, 0);
        gold.removed += count;
        gold.on_board -= count;
        self.emit(
            s,
            Event::Expansion(ExpansionEvent::new(
                INGOTS_REMOVED,
                &[self.turn as i64, x as i64, y as i64, count as i64],
            )),
        );
    }

    fn take_ingot<S: EventSink>(&mut self, s: &mut S, player: u8, pidx: u32) {
        let t = &self.placed[pidx as usize];
        let (x, y) = (t.x, t.y);
        let gold = self.ext.state_mut();
        debug_assert!(gold.on(pidx) > 0);
        gold.set_on(pidx, gold.on(pidx) - 1);
        gold.held[player as usize] += 1;
        gold.on_board -= 1;
        self.emit(
            s,
            Event::Expansion(ExpansionEvent::new(
                INGOT_TAKEN,
                &[self.turn as i64, player as i64, x as i64, y as i64],
            )),
        );
    }

    /// Tiles with ingots that `player` may take from: those of the claims it won (all claims
    /// when `only` is `None`, else just that one), distinct, in claim order.
    fn entitled_tiles(&mut self, player: u8, only: Option<usize>) {
        self.opt_tile.clear();
        let range = match only {
            Some(i) => i..i + 1,
            None => 0..self.ext.state_mut().claims.len(),
        };
        for ci in range {
            let claim = self.ext.state_mut().claims[ci];
            if claim.winners & (1 << player) == 0 {
                continue;
            }
            for k in claim.start..claim.end {
                let t = self.ext.state_mut().claim_tiles[k as usize];
                if self.ext.state().on(t) > 0 && !self.opt_tile.contains(&t) {
                    self.opt_tile.push(t);
                }
            }
        }
    }

    /// How many players are entitled to tile `t` over this turn's claims.
    pub fn claimants(&self, t: u32) -> u32 {
        let gold = self.ext.state();
        let mut players = 0u8;
        for claim in &gold.claims {
            let tiles = &gold.claim_tiles[claim.start as usize..claim.end as usize];
            if tiles.contains(&t) {
                players |= claim.winners;
            }
        }
        players.count_ones()
    }

    /// JCloisterZone's automatic pick among `opt_tile`.
    fn auto_pick(&self) -> usize {
        let cap = self.ext.state().jcz_capacity.max(16);
        let cands = self.opt_tile.iter().map(|&t| {
            let tile = &self.placed[t as usize];
            (tile.x, tile.y, self.claimants(t))
        });
        most_contested(cands, cap)
    }

    /// Gold is handed out after the turn's scoring (or at the end): sets up [`Game::gold_hand_out`].
    /// False when there is nothing to hand out or take back this time.
    #[inline]
    pub(crate) fn gold_hand_out_begin(&mut self) -> bool {
        let gold = self.ext.state_mut();
        if gold.claims.is_empty() {
            return !gold.unclaimed_tiles.is_empty();
        }
        self.gold_claims_begin()
    }

    /// [`Game::gold_hand_out_begin`] when a claim was made: out of line (most turns make
    /// none, and the check above is inlined into the hook).
    #[inline(never)]
    fn gold_claims_begin(&mut self) -> bool {
        let gold = self.ext.state_mut();
        gold.hand_k = 0;
        gold.hand_claim = 0;
        gold.hand_taken = false;
        // tiles claimed this turn that hold gold: the size of JCloisterZone's claim map
        let mut claimed = std::mem::take(&mut gold.scratch);
        claimed.clear();
        for &t in &gold.claim_tiles {
            if gold.on(t) > 0 && !claimed.contains(&t) {
                claimed.push(t);
            }
        }
        gold.jcz_capacity = java_map_capacity(claimed.len());
        gold.scratch = claimed;
        true
    }

    /// Hand out the gold claimed this turn and forget the claims; then the gold still lying on
    /// this turn's unoccupied completed features goes back to the box (`unclaimed = removed`).
    /// Resumable: `choice` answers the ingot pick last asked; true when it asked one.
    pub(crate) fn gold_hand_out<S: EventSink>(&mut self, s: &mut S, choice: Option<usize>) -> bool {
        if self.hand_out_claims(s, choice) {
            return true;
        }
        if !self.ext.state_mut().unclaimed_tiles.is_empty() {
            let tiles = std::mem::take(&mut self.ext.state_mut().unclaimed_tiles);
            for &t in &tiles {
                self.remove_ingots(s, t);
            }
            self.ext.state_mut().unclaimed_tiles = tiles;
            self.ext.state_mut().unclaimed_tiles.clear();
        }
        false
    }

    /// Hand out the gold claimed this turn, then forget the claims (resumable).
    fn hand_out_claims<S: EventSink>(&mut self, s: &mut S, choice: Option<usize>) -> bool {
        if self.ext.state_mut().claims.is_empty() {
            return false;
        }
        let Some(split) = self.rules.rules.gold.as_ref().map(|g| g.split) else {
            return false;
        };
        let n = self.players;
        let first = self.active;
        if let Some(i) = choice {
            let p = (first + self.ext.state_mut().hand_k) % n;
            let t = self.opt_tile[i];
            self.take_ingot(s, p, t);
            self.ext.state_mut().hand_taken = true;
            self.ext.state_mut().hand_k += 1;
        }
        match split {
            GoldSplit::Draft { pick } => loop {
                while self.ext.state_mut().hand_k < n {
                    let p = (first + self.ext.state_mut().hand_k) % n;
                    self.entitled_tiles(p, None);
                    if self.opt_tile.is_empty() {
                        self.ext.state_mut().hand_k += 1;
                        continue;
                    }
                    match pick {
                        GoldPick::Player => {
                            let count = self.opt_tile.len();
                            self.ask(INGOT_PICK, p, count);
                            return true;
                        }
                        GoldPick::MostContested => {
                            let i = self.auto_pick();
                            let t = self.opt_tile[i];
                            self.take_ingot(s, p, t);
                            self.ext.state_mut().hand_taken = true;
                            self.ext.state_mut().hand_k += 1;
                        }
                    }
                }
                if !self.ext.state_mut().hand_taken {
                    break;
                }
                self.ext.state_mut().hand_k = 0;
                self.ext.state_mut().hand_taken = false;
            },
            GoldSplit::OnePerFeature { leftover } => {
                while self.ext.state_mut().hand_claim < self.ext.state_mut().claims.len() {
                    let ci = self.ext.state_mut().hand_claim;
                    while self.ext.state_mut().hand_k < n {
                        let p = (first + self.ext.state_mut().hand_k) % n;
                        if self.ext.state_mut().claims[ci].winners & (1 << p) == 0 {
                            self.ext.state_mut().hand_k += 1;
                            continue;
                        }
                        self.entitled_tiles(p, Some(ci));
                        if self.opt_tile.is_empty() {
                            break;
                        }
                        let count = self.opt_tile.len();
                        self.ask(INGOT_PICK, p, count);
                        return true;
                    }
                    self.ext.state_mut().hand_claim += 1;
                    self.ext.state_mut().hand_k = 0;
                }
                if leftover == GoldLeftover::Removed {
                    let tiles = std::mem::take(&mut self.ext.state_mut().claim_tiles);
                    for &t in &tiles {
                        self.remove_ingots(s, t);
                    }
                    self.ext.state_mut().claim_tiles = tiles;
                }
            }
        }
        self.ext.state_mut().claims.clear();
        self.ext.state_mut().claim_tiles.clear();
        false
    }

    /// End of game, after the last hand-out: leftover ingots removed, then each player's
    /// ingots scored by the value formula.
    pub(crate) fn final_gold_value<S: EventSink>(&mut self, s: &mut S) {
        self.ext.state_mut().on_board_at_end = self.ext.state_mut().on_board;
        if self.ext.state_mut().on_board > 0 {
            let gold = self.ext.state_mut();
            gold.left_on_tile.clone_from(&gold.on_tile);
            for t in 0..self.placed.len() as u32 {
                self.remove_ingots(s, t);
            }
        }
        for p in 0..self.players {
            let ingots = self.ext.state().held[p as usize];
            if ingots == 0 {
                continue;
            }
            let points = self.rules.rules.gold.as_ref().map_or(0, |g| {
                g.value.eval(&Vars {
                    ingots: ingots as i64,
                    ..Vars::default()
                })
            });
            self.emit(
                s,
                Event::Expansion(ExpansionEvent::new(
                    GOLD_VALUE,
                    &[p as i64, ingots as i64, points],
                )),
            );
            self.award(s, p, crate::engine::expansions::gold::GOLD, points, true);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_hash_map_order_of_positions() {
        // h = (x << 16) ^ y as a Java int, spread h ^ (h >>> 16), masked by capacity − 1
        assert_eq!(jcz_bucket(0, 0, 16), 0);
        assert_eq!(jcz_bucket(1, 0, 16), 1); // 0x10000 → spread 0x10001
        assert_eq!(jcz_bucket(0, 1, 16), 1);
        assert_eq!(jcz_bucket(1, -1, 16), 1); // 0xFFFEFFFF → 0xFFFE0001
        assert_eq!(jcz_bucket(0, -1, 16), 0); // 0xFFFFFFFF → 0xFFFF0000
        assert_eq!(jcz_bucket(-1, 0, 16), 15); // 0xFFFF0000 → 0xFFFFFFFF
    }

    #[test]
    fn the_automatic_pick_takes_the_most_contested_tile_then_hash_map_order() {
        // more claimants win whatever the order
        assert_eq!(most_contested([(0, 0, 1), (5, 5, 2)], 16), 1);
        // equal claimants: the lower bucket first ((-1,0) is bucket 15, (1,0) bucket 1)
        assert_eq!(most_contested([(-1, 0, 2), (1, 0, 2)], 16), 1);
        // equal claimants and bucket ((1,0) and (0,1) are both bucket 1): claim order
        assert_eq!(most_contested([(1, 0, 2), (0, 1, 2)], 16), 0);
        assert_eq!(most_contested([(0, 1, 2), (1, 0, 2)], 16), 0);
    }

    #[test]
    fn java_hash_map_grows_past_three_quarters() {
        assert_eq!(java_map_capacity(0), 16);
        assert_eq!(java_map_capacity(12), 16);
        assert_eq!(java_map_capacity(13), 32);
        assert_eq!(java_map_capacity(25), 64);
    }
}
