//! The Ferries (mini expansion #3: Hans im Glück 2012, C1; reissued in Big Box 6, 2017, C2),
//! as `rulesets/README.md` (Ferries section) and `docs/src/rules/ferries.md` give it:
//! - **Lakes.** A lake tile (`lake` in the tile language) has 3 or 4 roads that each end at
//!   its lake: separate road segments of the tile. A follower may stand on any of them.
//! - **Placing the ferry.** After the follower step, the player places the tile's ferry on
//!   its lake, joining two of its road ends of their choice (3 ways on a 3-road lake, 6 on a
//!   4-road lake); mandatory, whether or not a follower was placed (the HiG text; the early
//!   English printings' "as a highwayman" condition is the option `ferries.placement`). The
//!   two roads become one; the other ends stop at the lake.
//! - **Moving ferries.** Then, for each road the tile extended, the first ferry along it (the
//!   search stops at the first ferry in each direction; the ferry of the tile just placed is
//!   passed through, never moved) may be moved to another pair of ends of its lake, each
//!   ferry at most once a turn, one optional move at a time (JCloisterZone's
//!   `ChangeFerriesPhase`). Every other ferry stops the search, a moved one too, so a move
//!   never brings a new ferry within reach (`ferries.moves = first`); `through_moved` reads
//!   the footnote's "further ferries the new roads allow" as reaching past a moved ferry.
//! - **Scoring.** A road ends at a lake unless a ferry carries it on; the turn's scoring (after
//!   the ferry steps) scores the roads the ferries completed, those of the lakes whose ferry
//!   moved included (JCloisterZone's `collectClosedByFerries`). A lake is no inn: a road
//!   scores 1 a tile.
//! - **A builder cut off.** A move that leaves a builder (Traders & Builders) on a road
//!   without its owner's follower sends it home at once (the builder's rule, the core's
//!   `Game::return_lone_figures`): every road the move changed (`ferries.cut_builders =
//!   every_road`), or only those at the lake ends the ferry left (`left_ends`, JCloisterZone's
//!   `ChangeFerry`).
//!
//! # In the engine
//! A lake's road ends are separate segments; a ferry is one more link of the union-find
//! between two of them (`Game::link_segments`), so placing one costs a join, and a game
//! without lakes pays nothing (the module takes part only when its options are set). A move
//! takes a link away, which a union-find cannot do: the road components holding the old and
//! new ends are rebuilt from the board (`Game::rebuild_components`: a walk of their
//! segments, their borders joined again, the ferry links, the followers counted again).
//! Moves are rare (a road with a ferry extended, and the player moving it).

use crate::engine::compiled::{Compiled, NONE};
use crate::engine::decision::{Choice, DecisionKind, DecisionSpec};
use crate::engine::event::{
    BoardChange, Event, EventKind, EventSink, EventSpec, ExpansionEvent, Field,
};
use crate::engine::game::{Game, MAX_PLAYERS, NIL};
use crate::engine::hooks::{
    counter_of, event_of, kind_of, mark_of, Expansion, Glyph, Heard, Holds, Hook, Notice, Piece,
    Presentation, Valuation,
};
use crate::engine::outcome::{Counter, CounterSpec, GameOutcome};
use crate::engine::scoring::majority;
use crate::rule_options::{choice, Area, OptType, OptionDef};
use crate::ruleset::Ruleset;
use crate::tiles::{FeatureKind, Side};

/// The options' area (and key prefix).
const AREA: Area = Area::Expansion("ferries");

/// Place the new ferry (options: each pair of the lake's road ends, in segment order).
pub const FERRY_PLACE: DecisionKind = kind_of::<Ferries>(0);
/// Move a ferry (options: none, then each other pair of each movable ferry's lake).
pub const FERRY_MOVE: DecisionKind = kind_of::<Ferries>(1);

/// A ferry is placed (turn, player, x, y, way: the two sides it joins, a bit per side N=1,
/// E=2, S=4, W=8).
pub const FERRY_PLACED: EventKind = event_of::<Ferries>(0);
/// A ferry is moved (turn, player, x, y, from way, to way).
pub const FERRY_MOVED: EventKind = event_of::<Ferries>(1);
/// The moved ferry lies at its new way (turn, player, x, y, way): bookkeeping for the state
/// hash, not narrated.
pub const FERRY_DOCKED: EventKind = event_of::<Ferries>(2);

/// Ferries placed.
pub const PLACED: Counter = counter_of::<Ferries>(0);
/// Ferries moved.
pub const MOVED: Counter = counter_of::<Ferries>(1);

/// The tile mark of a lake tile.
pub const LAKE: u32 = mark_of::<Ferries>(0);

/// The ferry's tag among the pieces of the end-of-turn state hash (its way is its "owner").
const FERRY_PIECE: u64 = 80;

/// The glyph of a ferry on the board.
const FERRY_GLYPH: Glyph = Glyph::Token {
    letter: 'F',
    colour: "#2f6fb5",
    hollow: false,
};

/// The rules of the ferries in one ruleset (read from its options).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Config {
    /// The ferry is placed only when the player put a follower on a road of the lake tile.
    needs_highwayman: bool,
    /// A ferry moved this turn no longer stops the search for the first ferries: the roads
    /// it now joins may reach further ferries.
    through_moved: bool,
    /// After a move, only the roads at the ends the ferry left are checked for a builder
    /// left without its owner's follower (JCloisterZone); otherwise every road the move
    /// rebuilt.
    cut_left_ends: bool,
    /// The marks of the roads holding a ferry are kept (`Ferries::marks`): no tile of the
    /// ruleset changes its type, so roads join only where a tile is placed and where a
    /// ferry is placed or moved.
    marks: bool,
}

impl Config {
    fn of(rules: &Ruleset) -> Option<Config> {
        if !rules.ext_in_play("ferries.") {
            return None;
        }
        Some(Config {
            needs_highwayman: OPT_PLACEMENT.choice_in(rules) == "highwayman",
            through_moved: OPT_MOVES.choice_in(rules) == "through_moved",
            cut_left_ends: OPT_CUT_BUILDERS.choice_in(rules) == "left_ends",
            marks: false,
        })
    }
}

/// A ferry on the lake of placed tile `pidx`, joining its road segments `a` < `b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Ferry {
    pidx: u32,
    a: u8,
    b: u8,
}

/// Where the turn is in the ferry steps (at `Hook::BeforeScoring`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Step {
    #[default]
    Idle,
    /// The new ferry's way is asked.
    Placing,
    /// A move is asked.
    Moving,
}

/// The ferries of one game.
#[derive(Debug, Default)]
pub struct Ferries {
    config: Config,
    /// Ferries on the board, in the order they were placed.
    ferries: Vec<Ferry>,
    /// The node of each ferry's end `a`, in the same order (a ferry's road found without
    /// reading its tile).
    ends: Vec<u32>,
    /// The lakes (placed-tile indices) whose ferry moved this turn, in order.
    moved: Vec<u32>,
    /// The options now asked: the ways of the new ferry, or the moves (after "none").
    offers: Vec<Ferry>,
    step: Step,
    placed: u32,
    moves: u32,
    /// Scratch space for the searches and the rebuilds.
    scratch: Vec<u32>,
    queue: Vec<u32>,
    /// The marked roads (when `config.marks`): a byte per placed tile, a bit per side
    /// (N = bit 0, clockwise), set when the road segment on that side is marked. Every road
    /// component holding a ferry is marked, and a road component is marked whole or not at
    /// all (one a move took off its ferry stays marked: marks are never cleared in a game).
    /// So a road that joins no marked road holds no ferry, which a turn tells from the new
    /// tile's neighbours alone.
    marks: Vec<u8>,
    /// The cells across the marked road sides, as a Bloom filter: a bit per hash of the
    /// cell (`hot_bit`), `HOT_WORDS` words once a mark is set. A tile placed on a cell whose
    /// bit is clear joins no marked road.
    hot: Vec<u64>,
    /// The placed tiles the marks have taken in (the turn's first ferry step brings the
    /// tile just placed in): a tile placed after them may join marked roads to unmarked
    /// ones until then.
    settled: usize,
}

impl Clone for Ferries {
    fn clone(&self) -> Ferries {
        let mut c = Ferries::default();
        c.clone_from(self);
        c
    }

    /// Reuses this state's vectors (a game reused for the next copies its configured state,
    /// a search copies positions).
    fn clone_from(&mut self, source: &Ferries) {
        self.config = source.config;
        self.ferries.clone_from(&source.ferries);
        self.ends.clone_from(&source.ends);
        self.moved.clone_from(&source.moved);
        self.offers.clone_from(&source.offers);
        self.step = source.step;
        self.placed = source.placed;
        self.moves = source.moves;
        // (`scratch` and `queue` are cleared before each use: this state keeps its own)
        self.marks.clone_from(&source.marks);
        self.hot.clone_from(&source.hot);
        self.settled = source.settled;
    }
}

/// The words of `Ferries::hot` (4,096 bits: a game marks a few dozen cells).
const HOT_WORDS: usize = 64;

/// The bit of cell `cell` in `Ferries::hot`: the top 12 bits of a multiplicative hash.
#[inline(always)]
fn hot_bit(cell: u32) -> usize {
    (cell.wrapping_mul(0x9E37_79B1) >> 20) as usize
}

/// The `ferries.placement` option (read through this constant: its key and default are written once).
const OPT_PLACEMENT: OptionDef = OptionDef {
    key: "ferries.placement",
    area: AREA,
    ty: OptType::Choice(&[
        choice(
            "always",
            "the ferry goes on the new lake whether or not a follower was placed",
        ),
        choice(
            "highwayman",
            "only when the player put a follower on one of the lake tile's roads",
        ),
    ]),
    default: "always",
    doc: "When the new lake gets its ferry (setting any ferries option puts the \
              ferries in the game).",
    sources: "HiG C1 and C2 (German text; Wikicarpedia's current C2 page and its \
                  footnote, JCloisterZone): always; the RGG C1 English text and the early \
                  English C2 printing: highwayman (a known error)",
    requires: None,
};

/// The `ferries.moves` option (read through this constant: its key and default are written once).
const OPT_MOVES: OptionDef = OptionDef {
    key: "ferries.moves",
    area: AREA,
    ty: OptType::Choice(&[
        choice(
            "first",
            "the first ferry in each direction of each road the tile extended, \
                 counted from the tile; every other ferry, moved or not, stops the search",
        ),
        choice(
            "through_moved",
            "the same, but a ferry moved this turn no longer stops the search: the \
                 roads it now joins may reach further ferries, each moved once",
        ),
    ]),
    default: "first",
    doc: "Which ferries may move in a turn (each at most once; the ferry of the tile \
              just placed never).",
    sources: "C1 and C2 rulebooks (Wikicarpedia) and their footnotes: only the first \
                  ferry along the road from the tile, each ferry once a turn; \
                  JCloisterZone's ChangeFerriesPhase (findNearest stops at every placed \
                  ferry, moved ones included): first. The footnote's 'then further \
                  ferries the new roads allow' read as reaching past a moved ferry: \
                  through_moved (an unsourced reading)",
    requires: None,
};

/// The `ferries.cut_builders` option (read through this constant: its key and default are written once).
const OPT_CUT_BUILDERS: OptionDef = OptionDef {
    key: "ferries.cut_builders",
    area: AREA,
    ty: OptType::Choice(&[
        choice(
            "every_road",
            "after a move, a builder on any road the move changed goes home when that road \
                 holds none of its owner's followers",
        ),
        choice(
            "left_ends",
            "only the roads at the lake ends the ferry left are checked: a builder on the \
                 road the ferry still carries stays, alone or not",
        ),
    ]),
    default: "every_road",
    doc: "Which roads a ferry move checks for a builder (Traders & Builders) it cut off \
              from its owner's followers.",
    sources: "T&B C1 rulebook (Wikicarpedia: the builder goes home when its owner's last \
                  thief or knight leaves the road), papageek's The Builder (\"always \
                  returned ... if you no longer have meeples on that feature\"): \
                  every_road; JCloisterZone's ChangeFerry (checks the road parts at the ends \
                  the ferry left only): left_ends",
    requires: None,
};

impl Expansion for Ferries {
    const HOOKS: &'static [Hook] = &[Hook::BeforeScoring];
    /// Most tiles are no lake and join no road holding a ferry: a lake arms the ferry steps
    /// by its mark, another tile placed arms them when it may (see `Game::ferries_due`).
    const ARMED: &'static [(Hook, u32)] = &[(Hook::BeforeScoring, LAKE)];
    const HEARS: &'static [Heard] = &[Heard::TilePlaced];
    const TOUCHES_TILES: bool = true;
    const TILE_MARKS: &'static [(&'static str, &'static str)] = &[(
        "lake",
        "a ferry lake: its roads each end at the lake, and a ferry joins two of them",
    )];
    const DECISIONS: &'static [DecisionSpec] = &[
        DecisionSpec {
            name: "ferry_place",
            key_code: 80,
            doc: "where the new ferry goes: which two road ends of the lake it joins (each \
                  pair, in the tile's segment order)",
        },
        DecisionSpec {
            name: "ferry_move",
            key_code: 81,
            doc: "move the first ferry on a road the tile extended (none, or which ferry to \
                  which other pair of its lake's road ends)",
        },
    ];
    const COUNTERS: &'static [CounterSpec] = &[
        CounterSpec {
            name: "ferries_placed",
            doc: "ferries placed",
        },
        CounterSpec {
            name: "ferries_moved",
            doc: "ferry moves",
        },
    ];
    const EVENTS: &'static [EventSpec] = &[
        EventSpec {
            name: "ferry_placed",
            key_code: 80,
            fields: &[
                ("turn", Field::Turn),
                ("player", Field::Seat),
                ("x", Field::Coord),
                ("y", Field::Coord),
                ("way", Field::Count),
            ],
            narrate: |e, names| {
                let v = e.values;
                Some(format!(
                    "         {} puts the ferry on the lake at ({},{}), joining {}",
                    (names.seat)(v[1] as u8),
                    v[2],
                    v[3],
                    way_words(v[4] as u8)
                ))
            },
            board: BoardChange::Adds {
                tag: FERRY_PIECE,
                owner: Some(4),
                x: 2,
                y: 3,
            },
        },
        EventSpec {
            name: "ferry_moved",
            key_code: 81,
            fields: &[
                ("turn", Field::Turn),
                ("player", Field::Seat),
                ("x", Field::Coord),
                ("y", Field::Coord),
                ("from", Field::Count),
                ("to", Field::Count),
            ],
            narrate: |e, names| {
                let v = e.values;
                Some(format!(
                    "         {} moves the ferry at ({},{}) from {} to {}",
                    (names.seat)(v[1] as u8),
                    v[2],
                    v[3],
                    way_words(v[4] as u8),
                    way_words(v[5] as u8)
                ))
            },
            board: BoardChange::Removes {
                tag: FERRY_PIECE,
                owner: Some(4),
                x: 2,
                y: 3,
                times: None,
            },
        },
        EventSpec {
            name: "ferry_docked",
            key_code: 82,
            fields: &[
                ("turn", Field::Turn),
                ("player", Field::Seat),
                ("x", Field::Coord),
                ("y", Field::Coord),
                ("way", Field::Count),
            ],
            narrate: |_, _| None,
            board: BoardChange::Adds {
                tag: FERRY_PIECE,
                owner: Some(4),
                x: 2,
                y: 3,
            },
        },
    ];
    const OPTIONS: &'static [OptionDef] = &[OPT_PLACEMENT, OPT_MOVES, OPT_CUT_BUILDERS];
    fn used_by(rules: &Compiled) -> bool {
        Config::of(&rules.rules).is_some()
    }

    fn reset(&mut self) {
        self.config = Config::default();
        self.ferries.clear();
        self.ends.clear();
        self.moved.clear();
        self.offers.clear();
        self.step = Step::Idle;
        self.placed = 0;
        self.moves = 0;
        self.marks.clear();
        self.hot.clear();
        self.settled = 0;
    }

    fn heap_bytes(&self) -> usize {
        std::mem::size_of_val(self.ferries.as_slice())
            + std::mem::size_of_val(self.offers.as_slice())
            + 4 * (self.ends.len() + self.moved.len() + self.scratch.len() + self.queue.len())
            + self.marks.len()
            + 8 * self.hot.len()
    }

    /// Each ferry joins two road ends of a lake tile, one ferry a lake, and its two ends lie
    /// in one road; with the marks kept, a road holding a ferry is marked, a road is marked
    /// whole or not at all, and the cells across marked sides are hot.
    fn check_invariants<X: Holds<Self>>(g: &Game<X>) -> Result<(), String> {
        g.check_marks()?;
        let st = g.ext.state();
        if st.ends.len() != st.ferries.len() {
            return Err(format!(
                "{} ferries and {} ends' nodes",
                st.ferries.len(),
                st.ends.len()
            ));
        }
        for (i, f) in st.ferries.iter().enumerate() {
            let Some(t) = g.placed.get(f.pidx as usize) else {
                return Err(format!(
                    "a ferry on placed tile #{}, not on the board",
                    f.pidx
                ));
            };
            let ct = &g.rules.tiles[t.tile as usize];
            let road = |s: u8| {
                ct.segments
                    .get(s as usize)
                    .is_some_and(|s| s.kind == FeatureKind::Road)
            };
            if ct.marks & LAKE == 0 || f.a >= f.b || !road(f.a) || !road(f.b) {
                return Err(format!(
                    "the ferry at ({}, {}) joins segments {} and {}, not two road ends of a lake",
                    t.x, t.y, f.a, f.b
                ));
            }
            if st.ends.get(i) != Some(&(t.node0 + f.a as u32)) {
                return Err(format!(
                    "the ferry at ({}, {}) has its end's node wrong",
                    t.x, t.y
                ));
            }
            if st.ferries[..i].iter().any(|o| o.pidx == f.pidx) {
                return Err(format!("two ferries on the lake at ({}, {})", t.x, t.y));
            }
            if g.root_of(t.node0 + f.a as u32) != g.root_of(t.node0 + f.b as u32) {
                return Err(format!(
                    "the ferry at ({}, {}) joins two roads the feature graph keeps apart",
                    t.x, t.y
                ));
            }
        }
        Ok(())
    }

    fn outcome(&self, out: &mut GameOutcome) {
        out.counters.add(PLACED, self.placed);
        out.counters.add(MOVED, self.moves);
    }

    fn configure<X: Holds<Self>>(g: &mut Game<X>) {
        if let Some(mut config) = Config::of(&g.rules.rules) {
            config.marks = g.rules.derived.is_empty();
            g.ext.state_mut().config = config;
        }
    }

    fn touched_tile<X: Holds<Self>>(g: &Game<X>, k: usize) -> Option<u32> {
        g.ext.state().moved.get(k).copied()
    }

    /// The tile placed: the lakes moved last turn forgotten, and the ferry steps armed
    /// unless the turn has nothing for them ([`Game::ferries_due`]).
    fn notice<X: Holds<Self>, S: EventSink>(g: &mut Game<X>, _s: &mut S, n: Notice) {
        if n == Notice::TilePlaced {
            g.ext.state_mut().moved.clear();
            if g.ferries_due() {
                g.ext.arm(Hook::BeforeScoring);
            }
        }
    }

    /// A thin entry: a turn whose tile is no lake and joins no road holding a ferry is done
    /// here; the rest out of line (`Game::ferry_steps`).
    #[inline]
    fn on<X: Holds<Self>, S: EventSink>(
        g: &mut Game<X>,
        s: &mut S,
        _at: Hook,
        answer: Option<usize>,
    ) -> bool {
        if answer.is_none() && g.ferries_quiet() {
            return false;
        }
        g.ferry_steps(s, answer)
    }

    fn choice<X: Holds<Self>>(g: &Game<X>, local: u8, i: usize) -> Choice {
        let st = g.ext.state();
        let k = if local == 0 {
            Some(i)
        } else {
            i.checked_sub(1)
        };
        match k.and_then(|k| st.offers.get(k)) {
            Some(f) => {
                let t = g.placed[f.pidx as usize];
                Choice::Token {
                    at: Some((t.x, t.y, g.ferry_way(*f))),
                }
            }
            None => Choice::Token { at: None },
        }
    }

    fn option_count<X: Holds<Self>>(g: &Game<X>, local: u8) -> usize {
        g.ext.state().offers.len() + usize::from(local == 1)
    }
}

impl Valuation for Ferries {
    /// What the option changes for `player` on the roads of its lake: each road through
    /// the lake's ends, as the option leaves it, is worth its tiles (twice when complete, as
    /// it scores now) to its majority; the option's value is what `player` wins there less
    /// what the best other seat wins, compared with the lake as it is (0 for no move).
    fn value_hint<X: Holds<Self>>(g: &Game<X>, local: u8, i: usize, player: u8) -> i64 {
        let st = g.ext.state();
        let k = if local == 0 {
            Some(i)
        } else {
            i.checked_sub(1)
        };
        let Some(&f) = k.and_then(|k| st.offers.get(k)) else {
            return 0;
        };
        let after = g.lake_value(f.pidx, Some(f), player);
        if local == 0 {
            return after;
        }
        after - g.lake_value(f.pidx, None, player)
    }
}

impl Presentation for Ferries {
    const LEGEND: &'static [(Glyph, &'static str)] = &[(
        FERRY_GLYPH,
        "ferry on a lake: it joins two of the lake's road ends (its tooltip says which)",
    )];

    fn board_pieces<X: Holds<Self>>(g: &Game<X>, out: &mut Vec<Piece>) {
        for &f in &g.ext.state().ferries {
            let t = g.placed[f.pidx as usize];
            out.push(Piece {
                x: t.x as f64 + 0.5,
                y: t.y as f64 + 0.5,
                glyph: FERRY_GLYPH,
                owner: None,
                note: format!("ferry joining {}", way_words(g.ferry_way(f))),
            });
        }
    }
}

/// A way (a bit per side, N=1, E=2, S=4, W=8) in words: "west and east".
fn way_words(way: u8) -> String {
    let names: Vec<&str> = Side::ALL
        .iter()
        .filter(|s| way & s.bit() != 0)
        .map(|s| match s.index() {
            0 => "north",
            1 => "east",
            2 => "south",
            _ => "west",
        })
        .collect();
    names.join(" and ")
}

/// What a road is worth to `player` as a ferry option leaves it (see `value_hint`).
#[derive(Clone, Copy, Default)]
struct RoadFacts {
    tiles: i64,
    open: i64,
    weights: [u8; MAX_PLAYERS],
}

impl<X: Holds<Ferries>> Game<X> {
    /// The ferries on the board: (square, way), in the order they were placed.
    pub fn ferries(&self) -> Vec<((i32, i32), u8)> {
        self.ext
            .state()
            .ferries
            .iter()
            .map(|&f| {
                let t = self.placed[f.pidx as usize];
                ((t.x, t.y), self.ferry_way(f))
            })
            .collect()
    }

    /// The ferry steps at `Hook::BeforeScoring` (see `Ferries::on`): the new ferry's way
    /// asked and placed, then each move asked and made. Out of line: most turns end in
    /// `Game::ferries_quiet`.
    #[inline(never)]
    fn ferry_steps<S: EventSink>(&mut self, s: &mut S, answer: Option<usize>) -> bool {
        let player = self.active;
        match (answer, self.ext.state().step) {
            (None, _) => {
                // (the turn's state was reset by `Game::ferries_quiet`, always asked first)
                self.mark_new_roads();
                if self.offer_new_ferry(player) {
                    let n = self.ext.state().offers.len();
                    self.ext.state_mut().step = Step::Placing;
                    self.ask(FERRY_PLACE, player, n);
                    return true;
                }
            }
            (Some(i), Step::Placing) => {
                let f = self.ext.state().offers.get(i).copied();
                if let Some(f) = f {
                    self.place_ferry(s, player, f);
                }
            }
            (Some(i), Step::Moving) => {
                let Some(&to) = i
                    .checked_sub(1)
                    .and_then(|k| self.ext.state().offers.get(k))
                else {
                    self.ext.state_mut().step = Step::Idle;
                    return false;
                };
                self.move_ferry(s, player, to);
            }
            (Some(_), Step::Idle) => return false,
        }
        self.move_offers();
        let n = self.ext.state().offers.len();
        if n == 0 {
            self.ext.state_mut().step = Step::Idle;
            return false;
        }
        self.ext.state_mut().step = Step::Moving;
        self.ask(FERRY_MOVE, player, n + 1);
        true
    }

    /// Whether the tile just placed, when it is no lake (a lake's mark armed the ferry steps
    /// as the turn began, `Ferries::ARMED`), may give the ferry steps something to do: not
    /// when [`Game::ferries_quiet`] would find nothing (read only; what it reads changes
    /// only in the ferry steps, so it answers the same before scoring).
    #[inline]
    fn ferries_due(&self) -> bool {
        let st = self.ext.state();
        if !st.config.marks {
            return true;
        }
        if st.ferries.is_empty() {
            return false;
        }
        let t = self.placed[self.last_placed];
        let bit = hot_bit(self.cell_index(t.x, t.y));
        st.hot
            .get(bit / 64)
            .is_some_and(|w| w >> (bit % 64) & 1 != 0)
    }

    /// The turn's first ferry step when it has nothing to do: the tile just placed is no
    /// lake and none of its roads joins a marked road (so none holds a ferry: no ferry is
    /// placed or reached, and no mark is due). False when that is not so, or unknown (no
    /// marks kept); the turn's state is reset either way.
    #[inline(always)]
    fn ferries_quiet(&mut self) -> bool {
        let settled = self.last_placed + 1;
        let st = self.ext.state_mut();
        st.moved.clear();
        st.step = Step::Idle;
        st.offers.clear();
        if !st.config.marks {
            return false;
        }
        st.settled = settled;
        let none = st.ferries.is_empty();
        let t = self.placed[self.last_placed];
        if self.rules.tiles[t.tile as usize].marks & LAKE != 0 {
            return false;
        }
        if none {
            return true;
        }
        // the cell is not across a marked road side: the tile joins no marked road
        let bit = hot_bit(self.cell_index(t.x, t.y));
        let hot = &self.ext.state().hot;
        hot.get(bit / 64).is_none_or(|w| w >> (bit % 64) & 1 == 0)
    }

    /// The road segments of the tile just placed (a bit per segment) that joined a marked
    /// road across a border, and those that joined an unmarked one.
    #[inline]
    fn new_road_joins(&self) -> (u64, u64) {
        let t = self.placed[self.last_placed];
        let rot = &self.rules.tiles[t.tile as usize].rotations[t.rot as usize];
        // the tile's road sides (kind 1 in the 2 bits of each side)
        let mut roads = rot.sig & !(rot.sig >> 1) & 0x55;
        let cell = self.cell_index(t.x, t.y) as i32;
        let marks = &self.ext.state().marks;
        let (mut marked, mut unmarked) = (0u64, 0u64);
        while roads != 0 {
            let side = (roads.trailing_zeros() / 2) as usize;
            roads &= roads - 1;
            let nv = self.board.get((cell + Self::side_step(side)) as u32).tile as usize;
            if nv == 0 {
                continue;
            }
            let seg = 1u64 << (rot.side_seg[side] & 63);
            if marks
                .get(nv - 1)
                .is_some_and(|&m| m >> ((side + 2) & 3) & 1 != 0)
            {
                marked |= seg;
            } else {
                unmarked |= seg;
            }
        }
        (marked, unmarked)
    }

    /// Whether node `node`'s road is marked (see `Ferries::marks`).
    #[inline]
    fn is_marked(&self, node: u32) -> bool {
        let sides = self.node_sides(node);
        let marks = &self.ext.state().marks;
        let tile = self.nodes[node as usize].tile as usize;
        marks.get(tile).is_some_and(|&m| m & sides != 0)
    }

    /// Marks node `node`'s road: the sides its segment reaches on its tile, and the cells
    /// across them in `Ferries::hot`. (Inlined: the walks of `mark_component` call it for
    /// every node.)
    #[inline(always)]
    fn set_mark(&mut self, node: u32) {
        let sides = self.node_sides(node);
        let sn = self.nodes[node as usize];
        let t = self.placed[sn.tile as usize];
        let cell = self.cell_index(t.x, t.y);
        let k = sn.tile as usize;
        let st = self.ext.state_mut();
        if k >= st.marks.len() {
            st.marks.resize(k + 1, 0);
        }
        if st.marks[k] & sides == sides {
            return;
        }
        st.marks[k] |= sides;
        if st.hot.is_empty() {
            st.hot.resize(HOT_WORDS, 0);
        }
        // the cells across the sides
        for side in 0..4 {
            if sides >> side & 1 != 0 {
                let bit = hot_bit((cell as i32 + Self::side_step(side)) as u32);
                st.hot[bit / 64] |= 1 << (bit % 64);
            }
        }
    }

    /// Marks the component of `node` whole when its road is not marked (see
    /// `Ferries::marks`: a component is marked whole or not at all).
    fn mark_unmarked(&mut self, node: u32) {
        if !self.is_marked(node) {
            let r = self.uf.find_mut(node);
            self.mark_component(r);
        }
    }

    /// Keeps the marks after the tile just placed joined its roads to their neighbours: a
    /// road of the tile that joined a marked road is marked; when that road also joined an
    /// unmarked one, its whole component is (see `Ferries::marks`).
    fn mark_new_roads(&mut self) {
        if !self.ext.state().config.marks {
            return;
        }
        let t = self.placed[self.last_placed];
        let (marked, unmarked) = self.new_road_joins();
        if marked == 0 {
            return;
        }
        // (one segment a road side: four roots at the most)
        let mut roots = [NIL; 4];
        let mut nroots = 0;
        for seg in bits(marked) {
            let node = t.node0 + seg;
            self.set_mark(node);
            let r = self.uf.find_mut(node);
            if roots[..nroots].contains(&r) {
                continue;
            }
            roots[nroots] = r;
            nroots += 1;
        }
        for seg in bits(unmarked) {
            let r = self.uf.find_mut(t.node0 + seg);
            if let Some(k) = roots[..nroots].iter().position(|&x| x == r) {
                self.mark_component(r);
                // (walked once)
                roots[k] = NIL;
            }
        }
    }

    /// Marks every node of the component rooted at `root`.
    fn mark_component(&mut self, root: u32) {
        let mut n = self.comps[root as usize].head;
        while n != NIL {
            self.set_mark(n);
            n = self.nodes[n as usize].next;
        }
    }

    /// The marks' invariant (see `Ferries::marks` and `Ferries::hot`).
    fn check_marks(&self) -> Result<(), String> {
        let st = self.ext.state();
        if !st.config.marks {
            return Ok(());
        }
        // the roads of the tiles placed since the marks took tiles in are not checked (the
        // turn's ferry step marks them)
        let mut pending = Vec::new();
        for t in self.placed.iter().skip(st.settled) {
            for seg in 0..self.rules.tiles[t.tile as usize].segments.len() as u32 {
                pending.push(self.root_of(t.node0 + seg));
            }
        }
        // every node of a marked road's component has all its sides marked
        let whole = |node: u32| -> bool {
            let sides = self.node_sides(node);
            st.marks
                .get(self.nodes[node as usize].tile as usize)
                .is_some_and(|&m| m & sides == sides)
        };
        let unmarked = |root: u32| -> Option<u32> {
            let mut n = self.comps[root as usize].head;
            while n != NIL {
                if !whole(n) {
                    return Some(n);
                }
                n = self.nodes[n as usize].next;
            }
            None
        };
        for f in &st.ferries {
            let t = self.placed[f.pidx as usize];
            let root = self.root_of(t.node0 + f.a as u32);
            if pending.contains(&root) {
                continue;
            }
            if let Some(n) = unmarked(root) {
                return Err(format!(
                    "the road of the ferry at ({}, {}) holds node {n}, not marked",
                    t.x, t.y
                ));
            }
        }
        for node in 0..self.nodes.len() as u32 {
            let root = self.root_of(node);
            if self.comps[root as usize].kind != FeatureKind::Road || pending.contains(&root) {
                continue;
            }
            if self.node_sides(node) == 0 {
                continue;
            }
            let w = whole(node);
            if self.is_marked(node) != w || w != whole(root) {
                return Err(format!(
                    "node {node}'s road is marked in part (the node {}, its root {})",
                    w,
                    whole(root)
                ));
            }
        }
        let hot = |cell: u32| {
            let bit = hot_bit(cell);
            st.hot
                .get(bit / 64)
                .is_some_and(|w| w >> (bit % 64) & 1 != 0)
        };
        for (k, &m) in st.marks.iter().enumerate() {
            let Some(t) = self.placed.get(k) else {
                return Err(format!("marks on placed tile #{k}, not on the board"));
            };
            for side in Side::ALL {
                let (dx, dy) = side.offset();
                if m & side.bit() != 0 && !hot(self.cell_index(t.x + dx, t.y + dy)) {
                    return Err(format!(
                        "the cell across the marked side {side:?} of ({}, {}) is not hot",
                        t.x, t.y
                    ));
                }
            }
        }
        Ok(())
    }

    /// The sides (board orientation) of the two road ends ferry `f` joins.
    fn ferry_way(&self, f: Ferry) -> u8 {
        let t = self.placed[f.pidx as usize];
        let rot = &self.rules.tiles[t.tile as usize].rotations[t.rot as usize];
        rot.seg_sides[f.a as usize] | rot.seg_sides[f.b as usize]
    }

    /// The road segments of placed tile `pidx`, in segment order (a lake's road ends).
    fn lake_roads(&self, pidx: u32, out: &mut [u8; 8]) -> usize {
        let t = self.placed[pidx as usize];
        let ct = &self.rules.tiles[t.tile as usize];
        let mut n = 0;
        // (`closable`: the tile's road and city segments, in segment order)
        for &seg in &ct.closable {
            if ct.segments[seg as usize].kind == FeatureKind::Road && n < out.len() {
                out[n] = seg;
                n += 1;
            }
        }
        n
    }

    /// The ways of the new ferry into the offers, when the tile just placed is a lake that
    /// takes one now; false otherwise.
    fn offer_new_ferry(&mut self, player: u8) -> bool {
        let pidx = self.last_placed as u32;
        let t = self.placed[pidx as usize];
        if self.rules.tiles[t.tile as usize].marks & LAKE == 0 {
            return false;
        }
        let mut roads = [0u8; 8];
        let n = self.lake_roads(pidx, &mut roads);
        if self.ext.state().config.needs_highwayman {
            let on_road = self.followers.iter().any(|f| {
                f.player == player
                    && f.node >= t.node0
                    && roads[..n].contains(&((f.node - t.node0) as u8))
            });
            if !on_road {
                return false;
            }
        }
        let mut offers = std::mem::take(&mut self.ext.state_mut().offers);
        offers.clear();
        for i in 0..n {
            for j in i + 1..n {
                offers.push(Ferry {
                    pidx,
                    a: roads[i],
                    b: roads[j],
                });
            }
        }
        self.ext.state_mut().offers = offers;
        n >= 2
    }

    /// Put the new ferry `f` on its lake: its two roads become one.
    fn place_ferry<S: EventSink>(&mut self, s: &mut S, player: u8, f: Ferry) {
        let t = self.placed[f.pidx as usize];
        if self.ext.state().config.marks {
            // the two roads become one holding a ferry: marked whole
            self.mark_unmarked(t.node0 + f.a as u32);
            self.mark_unmarked(t.node0 + f.b as u32);
        }
        self.link_segments(t.node0 + f.a as u32, t.node0 + f.b as u32);
        let st = self.ext.state_mut();
        st.ferries.push(f);
        st.ends.push(t.node0 + f.a as u32);
        st.placed += 1;
        let (turn, way) = (self.turn, self.ferry_way(f));
        self.emit(
            s,
            Event::Expansion(ExpansionEvent::new(
                FERRY_PLACED,
                &[
                    turn as i64,
                    player as i64,
                    t.x as i64,
                    t.y as i64,
                    way as i64,
                ],
            )),
        );
    }

    /// Move the ferry of `to`'s lake to `to`'s ends: the roads it joined and those it joins
    /// now are rebuilt from the board.
    fn move_ferry<S: EventSink>(&mut self, s: &mut S, player: u8, to: Ferry) {
        let Some(k) = self
            .ext
            .state()
            .ferries
            .iter()
            .position(|f| f.pidx == to.pidx)
        else {
            return;
        };
        let from = self.ext.state().ferries[k];
        let from_way = self.ferry_way(from);
        let t = self.placed[to.pidx as usize];
        let mut links: [(u32, u32); 16] = [(NIL, NIL); 16];
        let st = self.ext.state_mut();
        st.ferries[k] = to;
        st.ends[k] = t.node0 + to.a as u32;
        st.moved.push(to.pidx);
        st.moves += 1;
        let n = st.ferries.len().min(links.len());
        for ((l, f), &end) in links.iter_mut().zip(&st.ferries[..n]).zip(&st.ends) {
            *l = (end, end + (f.b - f.a) as u32);
        }
        let seeds = [
            t.node0 + from.a as u32,
            t.node0 + from.b as u32,
            t.node0 + to.a as u32,
            t.node0 + to.b as u32,
        ];
        if self.ext.state().config.marks {
            // the roads the ferry joins now, marked whole before the rebuild: every road
            // rebuilt is then made of marked nodes (the ferry's own was marked)
            self.mark_unmarked(seeds[2]);
            self.mark_unmarked(seeds[3]);
        }
        let mut scratch = std::mem::take(&mut self.ext.state_mut().scratch);
        self.rebuild_components(&seeds, &links[..n], &mut scratch);
        // (the rebuilt roads are marked whole already: split from marked ones)
        self.ext.state_mut().scratch = scratch;
        let turn = self.turn;
        let (x, y) = (t.x as i64, t.y as i64);
        let to_way = self.ferry_way(to) as i64;
        self.emit(
            s,
            Event::Expansion(ExpansionEvent::new(
                FERRY_MOVED,
                &[turn as i64, player as i64, x, y, from_way as i64, to_way],
            )),
        );
        self.emit(
            s,
            Event::Expansion(ExpansionEvent::new(
                FERRY_DOCKED,
                &[turn as i64, player as i64, x, y, to_way],
            )),
        );
        // a builder the move cut off from its owner's followers goes home
        // (`ferries.cut_builders`: the roads the move changed, or those at the ends the ferry
        // left)
        // (each road once, and none without followers: a road checked returns no more; the
        // returns move no road, so the roots stay)
        let left_only = self.ext.state().config.cut_left_ends;
        let mut checked_roots = [NIL; 4];
        for (k, &seed) in seeds.iter().enumerate() {
            let seg = (seed - t.node0) as u8;
            let checked = if left_only {
                k < 2 && seg != to.a && seg != to.b
            } else {
                true
            };
            if !checked {
                continue;
            }
            let r = self.uf.find_mut(seed);
            if checked_roots.contains(&r) {
                continue;
            }
            checked_roots[k] = r;
            if self.comps[r as usize].nfollowers > 0 {
                self.return_lone_figures(s, seed, None);
            }
        }
    }

    /// The ferry on the lake of placed tile `pidx` whose end is segment `seg`, if any.
    fn ferry_at(&self, pidx: u32, seg: u8) -> Option<Ferry> {
        self.ext
            .state()
            .ferries
            .iter()
            .find(|f| f.pidx == pidx && (f.a == seg || f.b == seg))
            .copied()
    }

    /// The node across each road side of `node`'s segment, and across its ferry if it is a
    /// ferry's end (`ferry` overrides the ferry of its lake: `Some` a ferry there, and
    /// `lifted` that lake's ferry taken away), passed to `f`.
    fn road_steps(&self, node: u32, over: Option<(u32, Option<Ferry>)>, mut f: impl FnMut(u32)) {
        let sn = self.nodes[node as usize];
        let pidx = sn.tile as u32;
        let t = self.placed[pidx as usize];
        let ct = &self.rules.tiles[t.tile as usize];
        let rot = &ct.rotations[t.rot as usize];
        let sides = rot.seg_sides[sn.seg as usize];
        for side in Side::ALL {
            if sides & side.bit() == 0 {
                continue;
            }
            let (dx, dy) = side.offset();
            let Some(n) = self.tile_at(t.x + dx, t.y + dy) else {
                continue;
            };
            let nb = self.placed[n];
            let b = self.rules.tiles[nb.tile as usize].rotations[nb.rot as usize].side_seg
                [side.opposite().index()];
            if b != NONE {
                f(nb.node0 + b as u32);
            }
        }
        let ferry = match over {
            Some((lake, fe)) if lake == pidx => fe,
            // (only a lake holds a ferry)
            _ if ct.marks & LAKE == 0 => None,
            _ => self.ferry_at(pidx, sn.seg),
        };
        if let Some(fe) = ferry.filter(|fe| fe.a == sn.seg || fe.b == sn.seg) {
            let other = if fe.a == sn.seg { fe.b } else { fe.a };
            f(t.node0 + other as u32);
        }
    }

    /// The moves the active player may make now, into the offers (see the module doc):
    /// the first ferry on each road of the tile just placed (searching along the road,
    /// through the new ferry, stopping at every other ferry), not moved this turn; each to
    /// every other pair of its lake's road ends. Ferries in placing order, pairs in segment
    /// order.
    fn move_offers(&mut self) {
        let here = self.last_placed as u32;
        let t = self.placed[here as usize];
        let st = self.ext.state_mut();
        st.offers.clear();
        // (the tile just placed holds the last nodes: a ferry's end before `t.node0` is on
        // another lake)
        if !st.ends.iter().any(|&end| end < t.node0) {
            return;
        }
        // (with the marks kept, an unmarked road holds no ferry: the tile's marked sides)
        let (filter, marked) = (
            st.config.marks,
            st.marks.get(here as usize).copied().unwrap_or(0),
        );
        if filter && marked == 0 {
            return;
        }
        // the tile's roads (segment, root), then those whose component holds another
        // ferry: a road that holds none reaches none (each ferry's root found once)
        let mut roads = [(0u32, NIL); 8];
        let mut nroads = 0;
        let ct = &self.rules.tiles[t.tile as usize];
        // (`closable`: the tile's road and city segments)
        let seg_sides = &ct.rotations[t.rot as usize].seg_sides;
        for &seg in &ct.closable {
            if ct.segments[seg as usize].kind == FeatureKind::Road && nroads < roads.len() {
                if filter && seg_sides[seg as usize] & marked == 0 {
                    continue;
                }
                let start = t.node0 + seg as u32;
                roads[nroads] = (start, self.uf.find_mut(start));
                nroads += 1;
            }
        }
        if nroads == 0 {
            return;
        }
        // (a bit per road: `holding` it holds another ferry, the first of them `first`;
        // `many` it holds more than one)
        let mut holding = 0u8;
        let mut many = 0u8;
        let mut first = [0usize; 8];
        let all = ((1u16 << nroads) - 1) as u8;
        let roots = &roads[..nroads];
        for (k, &end) in self.ext.state().ends.iter().enumerate() {
            if end >= t.node0 {
                continue;
            }
            let root = self.uf.find_mut(end);
            for (i, &(_, r)) in roots.iter().enumerate() {
                if r == root {
                    if holding & (1 << i) == 0 {
                        first[i] = k;
                    }
                    many |= holding & (1 << i);
                    holding |= 1 << i;
                }
            }
            if many == all {
                break;
            }
        }
        if holding == 0 {
            // no road of the tile holds another ferry: none is reached
            return;
        }
        // the lakes reached: a bit per ferry index
        let mut reached: u64 = 0;
        // a road holding one other ferry reaches it: the road's component is what the
        // search walks (borders and ferries), and a path to one end of that ferry passes no
        // other ferry but the tile's own (passed through); the search is made in a debug
        // build, and must agree
        for i in bits(u64::from(holding & !many)) {
            reached |= 1 << first[i as usize].min(63);
        }
        let searched = if cfg!(debug_assertions) {
            holding
        } else {
            many
        };
        if searched != 0 {
            reached |= self.ferries_reached(here, &roads[..nroads], searched, many, &first);
        }
        let mut offers = std::mem::take(&mut self.ext.state_mut().offers);
        let st = self.ext.state();
        for (k, f) in st.ferries.iter().enumerate() {
            if reached & (1 << k.min(63)) == 0 || st.moved.contains(&f.pidx) {
                continue;
            }
            let mut roads = [0u8; 8];
            let n = self.lake_roads(f.pidx, &mut roads);
            for i in 0..n {
                for j in i + 1..n {
                    let (a, b) = (roads[i], roads[j]);
                    if (a, b) != (f.a, f.b) {
                        offers.push(Ferry { pidx: f.pidx, a, b });
                    }
                }
            }
        }
        self.ext.state_mut().offers = offers;
    }

    /// The ferries the searches along roads `roads` (node, root) with a bit in `searched`
    /// reach (a bit per ferry index): along each road from the tile just placed (`here`),
    /// through its own ferry, stopping at every other ferry (past one moved this turn with
    /// `through_moved`). A road without a bit in `many` holds one other ferry, `first` (its
    /// index): a debug build checks that the search reaches it alone.
    #[inline(never)]
    fn ferries_reached(
        &mut self,
        here: u32,
        roads: &[(u32, u32)],
        searched: u8,
        many: u8,
        first: &[usize; 8],
    ) -> u64 {
        let mut seen = std::mem::take(&mut self.ext.state_mut().scratch);
        let mut queue = std::mem::take(&mut self.ext.state_mut().queue);
        let mut reached = 0u64;
        for (i, &(start, _)) in roads.iter().enumerate() {
            if searched & (1 << i) == 0 {
                continue;
            }
            let one = many & (1 << i) == 0;
            // (the ferries this road's search reaches)
            let mut found: u64 = 0;
            seen.clear();
            queue.clear();
            seen.push(start);
            queue.push(start);
            while let Some(n) = queue.pop() {
                let sn = self.nodes[n as usize];
                // (only a lake holds a ferry)
                let lake =
                    self.rules.tiles[self.placed[sn.tile as usize].tile as usize].marks & LAKE != 0;
                if lake && sn.tile as u32 != here {
                    if let Some(k) =
                        self.ext.state().ferries.iter().position(|f| {
                            f.pidx == sn.tile as u32 && (f.a == sn.seg || f.b == sn.seg)
                        })
                    {
                        found |= 1 << k.min(63);
                        let st = self.ext.state();
                        if !(st.config.through_moved && st.moved.contains(&(sn.tile as u32))) {
                            continue;
                        }
                    }
                }
                self.road_steps(n, None, |m| {
                    if !seen.contains(&m) {
                        seen.push(m);
                        queue.push(m);
                    }
                });
            }
            debug_assert!(
                !one || found == 1 << first[i].min(63),
                "a road holding one other ferry reaches {found:#b}"
            );
            reached |= found;
        }
        let st = self.ext.state_mut();
        st.scratch = seen;
        st.queue = queue;
        reached
    }

    /// The road through `start` with the ferry of lake `lake` replaced by `ferry` (`None`:
    /// the board as it is, `Some(lake, None)`: no ferry there): its tiles, open sides and
    /// followers' weights. `seen` collects its nodes.
    fn road_facts(
        &self,
        start: u32,
        over: Option<(u32, Option<Ferry>)>,
        seen: &mut Vec<u32>,
        queue: &mut Vec<u32>,
    ) -> RoadFacts {
        let mut facts = RoadFacts::default();
        queue.clear();
        queue.push(start);
        let first = seen.len();
        seen.push(start);
        while let Some(n) = queue.pop() {
            let sn = self.nodes[n as usize];
            let t = self.placed[sn.tile as usize];
            let rot = &self.rules.tiles[t.tile as usize].rotations[t.rot as usize];
            let sides = rot.seg_sides[sn.seg as usize];
            for side in Side::ALL {
                let (dx, dy) = side.offset();
                if sides & side.bit() != 0 && self.tile_at(t.x + dx, t.y + dy).is_none() {
                    facts.open += 1;
                }
            }
            self.road_steps(n, over, |m| {
                if !seen.contains(&m) {
                    seen.push(m);
                    queue.push(m);
                }
            });
        }
        // the distinct tiles: a node counts when no earlier node of the road is on its tile
        let road = &seen[first..];
        facts.tiles = road
            .iter()
            .enumerate()
            .filter(|&(i, &n)| {
                let tile = self.nodes[n as usize].tile;
                !road[..i]
                    .iter()
                    .any(|&m| self.nodes[m as usize].tile == tile)
            })
            .count() as i64;
        for f in &self.followers {
            if road.contains(&f.node) {
                facts.weights[f.player as usize] += f.kind.weight();
            }
        }
        facts
    }

    /// What the roads through the ends of lake `pidx` are worth to `player` with its ferry
    /// `ferry` (`None`: as it is): see `value_hint`.
    fn lake_value(&self, pidx: u32, ferry: Option<Ferry>, player: u8) -> i64 {
        let t = self.placed[pidx as usize];
        let mut roads = [0u8; 8];
        let n = self.lake_roads(pidx, &mut roads);
        let over = ferry.map(|f| (pidx, Some(f)));
        let mut seen = Vec::new();
        let mut queue = Vec::new();
        let mut value = 0;
        for &r in &roads[..n] {
            let start = t.node0 + r as u32;
            if seen.contains(&start) {
                continue;
            }
            let facts = self.road_facts(start, over, &mut seen, &mut queue);
            let winners = majority(&facts.weights);
            if winners == 0 {
                continue;
            }
            let worth = facts.tiles * if facts.open == 0 { 2 } else { 1 };
            if winners & (1 << player) != 0 {
                value += worth;
            }
            if winners & !(1 << player) != 0 {
                value -= worth;
            }
        }
        value
    }
}

/// The set bits of `m`, lowest first.
fn bits(mut m: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let b = m.trailing_zeros();
            m &= m - 1;
            b
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ways_read_as_sides() {
        assert_eq!(way_words(2 | 8), "east and west");
        assert_eq!(way_words(1 | 4), "north and south");
    }
}
