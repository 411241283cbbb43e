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
use crate::engine::decision::{Choice, DecisionKind, DecisionSpec, Wording};
use crate::engine::event::{BoardChange, EventKind, EventSink, EventSpec, Field};
use crate::engine::game::{Game, MAX_PLAYERS};
use crate::engine::hooks::mark_of;
use crate::engine::hooks::{
    category_of, counter_of, event_of, kind_of, seat_counter_of, Expansion, Heard, Holds, Hook,
    Notice, Presentation, Valuation,
};
use crate::engine::outcome::{
    Category, Counter, CounterSpec, GameOutcome, RestSpec, SeatCounter, SeatCounterSpec,
};
use crate::engine::turn::Pending;
use crate::rule_options::{choice, Area, ArgDef, Choice as OptChoice, OptType, OptionDef};
use crate::ruleset::{Expr, ExtValue, ExtVar, Ruleset, Table, TileIdx, Var};
use crate::tiles::FeatureKind;
use serde::Serialize;
use std::sync::Arc;

mod handout;
mod jcz_order;
mod present;
mod valuation;

/// The `gold` area of options (read by `meeplab check --list-options` as "gold mines").
const AREA: Area = Area::Expansion("gold");

/// The ingots a player holds: the variable of `gold.value`.
pub const INGOTS_HELD: Var = Var::Ext(ExtVar {
    name: "ingots",
    slot: 0,
    min: 0,
    max: 2_000,
});

/// The bit of the gold symbol (the tile mark `gold`) in a tile's marks.
pub const GOLD_MARK: u32 = mark_of::<Gold>(0);

/// How the gold of completed features is shared (rules.md §2.4, §2.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum GoldSplit {
    /// HiG: one ingot at a time from the active player clockwise among entitled players,
    /// pooled over all features completed this turn.
    Draft { pick: GoldPick },
    /// RGG wording: each scoring player takes one ingot per gold-bearing feature it scored.
    OnePerFeature { leftover: GoldLeftover },
}

/// Who chooses which ingot a drafting player takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum GoldPick {
    /// The drafting player chooses (a `Decision`; the 6/2013 community reading).
    Player,
    /// Automatic: the tile claimed by the most players first (JCloisterZone).
    MostContested,
}

/// RGG reading: ingots left after everyone took one per feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum GoldLeftover {
    Stay,
    Removed,
}

/// Gold of a completed feature that nobody occupies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum UnclaimedGold {
    /// Stays on the tiles; another feature may collect it later (canonical).
    Stays,
    /// Removed from the game.
    Removed,
}

/// Gold still on tiles at the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum GoldAtEnd {
    /// Removed before final scoring (canonical).
    Discard,
    /// Incomplete features hand it out to their majority like completed ones (house rule).
    AwardIncomplete,
}

/// Where the second ingot may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum GoldNeighbourhood {
    /// Any of the 8 surrounding tiles, diagonals included (canonical).
    Eight,
    /// Only the 4 edge neighbours.
    Four,
}

/// What the values of `gold.split`'s argument `pick` mean.
const PICK: &[(&str, GoldPick)] = &[
    ("player", GoldPick::Player),
    ("most_contested", GoldPick::MostContested),
];
/// What the values of `gold.split`'s argument `leftover` mean.
const LEFTOVER: &[(&str, GoldLeftover)] = &[
    ("stays", GoldLeftover::Stay),
    ("removed", GoldLeftover::Removed),
];
/// What the values of `gold.neighbourhood` mean.
const NEIGHBOURHOOD: &[(&str, GoldNeighbourhood)] = &[
    ("eight", GoldNeighbourhood::Eight),
    ("four", GoldNeighbourhood::Four),
];
/// What the values of `gold.unclaimed` mean.
const UNCLAIMED: &[(&str, UnclaimedGold)] = &[
    ("stays", UnclaimedGold::Stays),
    ("removed", UnclaimedGold::Removed),
];
/// What the values of `gold.at_end` mean.
const AT_END: &[(&str, GoldAtEnd)] = &[
    ("discard", GoldAtEnd::Discard),
    ("award_incomplete", GoldAtEnd::AwardIncomplete),
];

/// The Gold Mines' rules of a ruleset, read from its options (`gold.…`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct GoldRules {
    /// Ingots placed when a gold tile is placed: 1 on it, the rest one each on neighbours.
    pub ingots_per_tile: u8,
    pub neighbourhood: GoldNeighbourhood,
    pub split: GoldSplit,
    pub unclaimed: UnclaimedGold,
    pub at_end: GoldAtEnd,
    /// Total points for the ingots a player holds (reads `ingots`), e.g.
    /// `ingots * table(ingots) { 1..3: 1, 4..6: 2, 7..9: 3, 10..: 4 }`.
    pub value: Expr,
}

impl GoldRules {
    /// The Gold Mines' rules of `rules`, or `None` when its deck holds no gold tile (the
    /// options are in play, each at its default unless set, exactly then).
    pub fn of(rules: &Ruleset) -> Option<GoldRules> {
        if !rules.ext_in_play("gold.") {
            return None;
        }
        // the split's argument (typing fills in every argument)
        fn arg_in<T: Copy>(rules: &Ruleset, name: &str, table: &[(&str, T)]) -> T {
            let value = match rules.ext.get(OPT_SPLIT.key) {
                Some(ExtValue::Choice(_, args)) => args.iter().find(|a| a.0 == name).map(|a| a.1),
                _ => None,
            };
            table
                .iter()
                .find(|e| Some(e.0) == value)
                .unwrap_or(&table[0])
                .1
        }
        let split = match OPT_SPLIT.choice_in(rules) {
            "one_per_feature" => GoldSplit::OnePerFeature {
                leftover: arg_in(rules, "leftover", LEFTOVER),
            },
            _ => GoldSplit::Draft {
                pick: arg_in(rules, "pick", PICK),
            },
        };
        Some(GoldRules {
            ingots_per_tile: u8::try_from(OPT_INGOTS.int_in(rules)).unwrap_or(2),
            neighbourhood: OPT_NEIGHBOURHOOD.mapped_in(rules, NEIGHBOURHOOD),
            split,
            unclaimed: OPT_UNCLAIMED.mapped_in(rules, UNCLAIMED),
            at_end: OPT_AT_END.mapped_in(rules, AT_END),
            value: match rules.ext.get(OPT_VALUE.key) {
                Some(ExtValue::Expr(e)) => e.clone(),
                _ => canonical_value(),
            },
        })
    }
}

/// The canonical gold value: `ingots × (1, 2, 3, 4 per ingot at 1–3, 4–6, 7–9, 10+)`.
pub fn canonical_value() -> Expr {
    Expr::product(
        Expr::var(INGOTS_HELD),
        Expr::Table(
            Box::new(Expr::var(INGOTS_HELD)),
            Table {
                rows: vec![
                    (1, Some(3), 1),
                    (4, Some(6), 2),
                    (7, Some(9), 3),
                    (10, None, 4),
                ],
            },
        ),
    )
}

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
    /// The ruleset's Gold Mines rules (read at configure time; shared, not copied, with the
    /// game); `None` when not in play.
    config: Option<Arc<GoldRules>>,
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

/// The `gold.ingots` option (read through this constant: its key and default are written once).
const OPT_INGOTS: OptionDef = OptionDef {
    key: "gold.ingots",
    area: AREA,
    ty: OptType::Int { min: 1, max: 9 },
    default: "2",
    doc: "Ingots placed per gold tile: one on it, the rest one each on neighbouring tiles.",
    sources: "HiG 2012, C2, C3: 2",
    requires: None,
};

/// The `gold.neighbourhood` option (read through this constant: its key and default are written once).
const OPT_NEIGHBOURHOOD: OptionDef = OptionDef {
    key: "gold.neighbourhood",
    area: AREA,
    ty: OptType::Choice(&[
        choice(
            "eight",
            "any of the 8 surrounding tiles, diagonals included",
        ),
        choice("four", "only the 4 edge neighbours (house)"),
    ]),
    default: "eight",
    doc: "Where the second ingot may go.",
    sources: "HiG 2012, ZMG, C2: eight",
    requires: None,
};

/// The `gold.split` option (read through this constant: its key and default are written once).
const OPT_SPLIT: OptionDef = OptionDef {
        key: "gold.split",
        area: AREA,
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
};

/// The `gold.unclaimed` option (read through this constant: its key and default are written once).
const OPT_UNCLAIMED: OptionDef = OptionDef {
    key: "gold.unclaimed",
    area: AREA,
    ty: OptType::Choice(&[
        choice(
            "stays",
            "the ingots stay on the tiles; another feature may collect them later",
        ),
        choice("removed", "the ingots are removed from the game"),
    ]),
    default: "stays",
    doc: "Gold on a completed feature that nobody occupies.",
    sources: "Wikicarpedia footnote, JCloisterZone: stays",
    requires: None,
};

/// The `gold.at_end` option (read through this constant: its key and default are written once).
const OPT_AT_END: OptionDef = OptionDef {
    key: "gold.at_end",
    area: AREA,
    ty: OptType::Choice(&[
        choice("discard", "removed before final scoring"),
        choice(
            "award_incomplete",
            "incomplete features hand their gold to their majority (house)",
        ),
    ]),
    default: "discard",
    doc: "Gold still on tiles at the end of the game.",
    sources: "HiG 2012, C2, JCloisterZone: discard",
    requires: None,
};

/// The `gold.value` option (read through this constant: its key and default are written once).
const OPT_VALUE: OptionDef = OptionDef {
    key: "gold.value",
    area: AREA,
    ty: OptType::Expr {
        vars: &[INGOTS_HELD],
        none_ok: false,
    },
    default: "ingots * table(ingots) { 1..3: 1, 4..6: 2, 7..9: 3, 10..: 4 }",
    doc: "Total points for the ingots a player holds at the end.",
    sources: "HiG 2012, C2, JCloisterZone: 1/2/3/4 points per ingot at 1-3/4-6/7-9/10+",
    requires: None,
};

impl Expansion for Gold {
    /// Its rule options (documented by `meeplab check --list-options`; in play, each at its
    /// default unless set, when the deck holds its tiles; the module reads them into its
    /// typed rules at configure time).
    const OPTIONS: &'static [OptionDef] = &[
        OPT_INGOTS,
        OPT_NEIGHBOURHOOD,
        OPT_SPLIT,
        OPT_UNCLAIMED,
        OPT_AT_END,
        OPT_VALUE,
    ];
    const TITLE: &'static str = "gold mines";
    const PLAYED_WITH_TILES: Option<&'static str> = Some("gold-mine");
    const TILE_MARKS: &'static [(&'static str, &'static str)] = &[(
        "gold",
        "the Gold Mines symbol: placing the tile puts ingots on it and on a neighbour",
    )];
    const HOOKS: &'static [Hook] = &[Hook::TilePlaced, Hook::AfterScoring, Hook::FinalScoring];
    /// Ingots are placed only on a gold tile's turn, and handed out only after a claim.
    const ARMED: &'static [(Hook, u32)] = &[(Hook::TilePlaced, GOLD_MARK), (Hook::AfterScoring, 0)];
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
        used_by: |r| r.ext_in_play("gold."),
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
        rules.rules.ext_in_play("gold.")
    }

    fn configure<X: Holds<Self>>(g: &mut Game<X>) {
        g.ext.state_mut().config = GoldRules::of(&g.rules.rules).map(Arc::new);
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

    /// Ingots are conserved: held + on the board + removed (+ those still to be placed while
    /// an ingot placement is asked) = ingots per gold tile × gold tiles placed.
    fn check_invariants<X: Holds<Self>>(g: &Game<X>) -> Result<(), String> {
        let Some(gold) = g.ext.state().config.as_deref() else {
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

    fn outcome(&self, out: &mut GameOutcome) {
        out.counters.add(INGOTS_ON_BOARD, self.on_board_at_end);
        for (seat, &held) in out.seats.iter_mut().zip(&self.held) {
            seat.counts.set(INGOTS, held);
        }
    }

    // (inlined into the dispatch: most turns test a tile mark and a claim list)
    #[inline]
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
        Choice::Token {
            at: Some((t.x, t.y, 0)),
        }
    }

    fn option_count<X: Holds<Self>>(g: &Game<X>, _local: u8) -> usize {
        g.opt_tile.len()
    }
}

impl Valuation for Gold {
    const VALUES_HOLDINGS: bool = true;

    fn counts_unseen<X: Holds<Self>>(g: &Game<X>, tile: TileIdx) -> bool {
        g.rules().tiles[tile as usize].marks & GOLD_MARK != 0
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

impl Presentation for Gold {
    fn choice_words(_local: u8, c: &Choice, how: Wording) -> Option<String> {
        present::choice_words(c, how)
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
            config,
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
        self.config.clone_from(config);
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

#[cfg(test)]
mod tests {
    /// Every value of a choice option (and of `gold.split`'s arguments) has its meaning
    /// (never silently the first).
    #[test]
    fn every_choice_value_is_mapped() {
        use super::*;
        assert!(OPT_SPLIT.names_exactly(None, &[("draft", ()), ("one_per_feature", ())]));
        assert!(OPT_SPLIT.names_exactly(Some(("draft", "pick")), PICK));
        assert!(OPT_SPLIT.names_exactly(Some(("one_per_feature", "leftover")), LEFTOVER));
        assert!(OPT_NEIGHBOURHOOD.names_exactly(None, NEIGHBOURHOOD));
        assert!(OPT_UNCLAIMED.names_exactly(None, UNCLAIMED));
        assert!(OPT_AT_END.names_exactly(None, AT_END));
    }

    #[test]
    fn the_value_table_matches_the_rulebook() {
        let value = super::canonical_value();
        let at = |n| value.eval(&crate::ruleset::Vars::default().with(super::INGOTS_HELD, n));
        assert_eq!([0, 3, 4, 6, 7, 9, 10].map(at), [0, 3, 8, 12, 21, 27, 40]);
    }
}
