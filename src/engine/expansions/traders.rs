//! Traders & Builders (Hans im Glück 2003, 1st edition; 2015, 2nd edition): goods, the
//! builder's double turn and the pig (`rulesets/README.md`, Traders & Builders section, and
//! `docs/src/rules/tb.md` for the sources).
//!
//! - **Goods.** Twenty city segments of the expansion's tiles show a goods symbol (segment marks
//!   `wine`, `grain`, `cloth`). When a city is completed, the player who placed the completing
//!   tile takes one token of each symbol in it from the supply — whoever holds the city, with
//!   or without a follower there (C1 and C2 rulebooks; JCloisterZone's `TradeGoodsCapability`
//!   gives them to the turn's player). At final scoring, for each good, the players with the
//!   most tokens (at least one) score `traders.goods_points` (10) each, ties included.
//! - **The builder** (one per player, `traders.builders`; a follower kind of weight 0 on a road or city where its
//!   owner already has a follower): when its owner, in a later turn, places a tile that extends
//!   the builder's feature, the owner takes another tile after this turn (the core's "another
//!   tile" seam, `Expansion::another_tile`). The extra tile never gives a third (no chain), and
//!   one turn gives at most one extra tile. The builder goes home when its feature is scored
//!   (JCloisterZone `TilePhase`/`BuilderCapability`: the builder must stand elsewhere than on the
//!   tile placed, i.e. placed in an earlier turn).
//! - **The pig** (one per player, `traders.pigs`; weight 0, on a field where its owner already has a farmer):
//!   at farm scoring a winner of the field with a pig there scores `traders.pig_bonus` (1) more
//!   per city (4 instead of 3 under the current farm rule; the edition's value + 1 under the
//!   others), through the core's per-winner farm seam (`Expansion::farm_winner_bonus`).
//! - **The pig-herd** printed in a field (segment mark `pig_herd`, The River II's `RI.2/II+`):
//!   each winner of that field scores `traders.pig_bonus` more per city as if the herd were
//!   their pig, and a pig of their own there adds its bonus too (JCloisterZone `Field`:
//!   `pigs` and `pigHerds` are separate items; neither stacks with itself).
//! - **A builder or pig left alone** goes home: "your builder is always returned to your
//!   supply if you no longer have meeples on that feature ... some expansions introduce other
//!   ways in which this can happen" (papageek, The Builder; the pig likewise) — a ferry
//!   moved so that the builder's part of the road is cut off from its owner's follower (The
//!   Ferries), a farmer taken back by a crop circle (The Crop Circles). The core returns it
//!   at once, where weight leaves a feature (`Game::return_lone_figures`: the kinds'
//!   `needs_own`), as JCloisterZone does (`UndeployMeeple`, `ChangeFerry`); which roads a
//!   ferry move checks is the option `ferries.cut_builders`.

use crate::engine::compiled::Compiled;
use crate::engine::event::{
    BoardChange, Event, EventKind, EventSink, EventSpec, ExpansionEvent, Field,
};
use crate::engine::follower_kind::{FollowerKind, FollowerKindSpec};
use crate::engine::game::{Game, MAX_PLAYERS, NIL};
use crate::engine::hooks::{
    category_of, counter_of, event_of, follower_kind_of, segment_mark_of, Expansion, Glyph,
    GlyphArt, Heard, Holds, Hook, Notice, Piece, Presentation, Valuation,
};
use crate::engine::outcome::{Category, Counter, CounterSpec, GameOutcome};
use crate::engine::spots::mark_spot;
use crate::rule_options::{Area, OptType, OptionDef};
use crate::ruleset::Ruleset;
use crate::tiles::FeatureKind;

/// The options' area (and key prefix).
const AREA: Area = Area::Expansion("traders");

/// The goods, in the order of their counts everywhere in this module.
pub const GOODS: [&str; 3] = ["wine", "grain", "cloth"];

/// The segment-mark bit of each good (see [`GOODS`]).
/// The goods' segment marks together.
pub const GOODS_MARKS: u8 = GOOD_BITS[0] | GOOD_BITS[1] | GOOD_BITS[2];

const GOOD_BITS: [u8; 3] = [
    segment_mark_of::<Traders>(0),
    segment_mark_of::<Traders>(1),
    segment_mark_of::<Traders>(2),
];

/// The segment mark of a field with a printed pig-herd (The River II's `RI.2/II+`): at farm
/// scoring each winner of the field scores `traders.pig_bonus` more per city, beside a pig of
/// their own (JCloisterZone's `pig-herd` element, `Field.PIG_HERD`: herds do not stack with
/// each other, they do with a pig).
pub const PIG_HERD: u8 = segment_mark_of::<Traders>(3);

/// Each good's symbol on the SVG board: a token marked with its initial, in its colour
/// (wine red, grain gold, cloth blue); hollow once its city is completed and the tokens
/// handed out.
const GOOD_GLYPHS: [(char, &str); 3] = [('W', "#8e1f4f"), ('G', "#c08a00"), ('C', "#2b6cb0")];

/// A good's glyph (see [`GOOD_GLYPHS`]).
const fn good_glyph(good: usize, hollow: bool) -> Glyph {
    Glyph::Token {
        letter: GOOD_GLYPHS[good].0,
        colour: GOOD_GLYPHS[good].1,
        hollow,
    }
}

/// Points for the goods majorities.
pub const GOODS_POINTS: Category = category_of::<Traders>(0);
/// Goods tokens taken.
pub const TOKENS_TAKEN: Counter = counter_of::<Traders>(0);
/// Extra tiles the builders gave.
pub const DOUBLE_TURNS: Counter = counter_of::<Traders>(1);

/// A player takes goods tokens (turn, player, wine, grain, cloth).
pub const GOODS_TAKEN: EventKind = event_of::<Traders>(0);
/// A builder gives its owner another tile (turn, player).
pub const DOUBLE_TURN: EventKind = event_of::<Traders>(1);

/// The rules of Traders & Builders in one ruleset (read from its options).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Config {
    /// What the majority of one good scores.
    goods_points: i64,
    /// What a pig adds per city to its owner's farm points.
    pig_bonus: i64,
    /// Builders each player is dealt (`traders.builders`).
    builders: u8,
}

impl Config {
    fn of(rules: &Ruleset) -> Option<Config> {
        if !rules.ext_in_play("traders.") {
            return None;
        }
        Some(Config {
            goods_points: OPT_GOODS_POINTS.int_in(rules),
            pig_bonus: OPT_PIG_BONUS.int_in(rules),
            builders: OPT_BUILDERS.int_in(rules).clamp(0, 9) as u8,
        })
    }
}

/// Traders & Builders in one game.
#[derive(Clone, Debug, Default)]
pub struct Traders {
    config: Config,
    /// Goods tokens each seat holds (wine, grain, cloth).
    held: [[u8; 3]; MAX_PLAYERS],
    /// Tokens taken so far (the supply holds the symbols in the ruleset's pack, less these:
    /// see `goods_in_pack`).
    taken: [u16; 3],
    /// The tile placed this turn extends the active player's builder's feature (and this
    /// turn is not itself an extra one): another tile follows.
    extra_due: bool,
    /// The seat `extra_due` is for (the turn's player).
    due_seat: u8,
    /// The turn number of the last extra turn given (0: none yet).
    extra_turn: u32,
    double_turns: u32,
}

/// The `traders.goods_points` option (read through this constant: its key and default are written once).
const OPT_GOODS_POINTS: OptionDef = OptionDef {
    key: "traders.goods_points",
    area: AREA,
    ty: OptType::Int { min: 0, max: 100 },
    default: "10",
    doc: "What the most tokens of one good (wine, grain, cloth) score at the end, to \
              each tied player (setting any traders option puts Traders & Builders in the \
              game: goods, builders and pigs).",
    sources: "T&B C1 and C2 rulebooks (Wikicarpedia), JCloisterZone: 10, ties each 10",
    requires: None,
};

/// The `traders.pig_bonus` option (read through this constant: its key and default are written once).
const OPT_PIG_BONUS: OptionDef = OptionDef {
    key: "traders.pig_bonus",
    area: AREA,
    ty: OptType::Int { min: 0, max: 10 },
    default: "1",
    doc: "What a pig adds per completed city to its owner's farm points when the owner \
              wins the field (with 3 a city: 4).",
    sources: "T&B C1 and C2 rulebooks (Wikicarpedia: 4 instead of 3), JCloisterZone \
                  (+1 per scored city, pigs do not stack)",
    requires: None,
};

/// The `traders.builders` option (read through this constant: its key and default are written once).
const OPT_BUILDERS: OptionDef = OptionDef {
    key: "traders.builders",
    area: AREA,
    ty: OptType::Int { min: 0, max: 9 },
    default: "1",
    doc: "Builders a player has.",
    sources: "T&B C1 and C2 rulebooks: one a player (JCloisterZone's `builder` element \
                  count)",
    requires: None,
};

/// The `traders.pigs` option (read through this constant: its key and default are written once).
const OPT_PIGS: OptionDef = OptionDef {
    key: "traders.pigs",
    area: AREA,
    ty: OptType::Int { min: 0, max: 9 },
    default: "1",
    doc: "Pigs a player has.",
    sources: "T&B C1 and C2 rulebooks: one a player (JCloisterZone's `pig` element \
                  count; its engine test `pigs-no-stack` deals 2)",
    requires: None,
};

impl Expansion for Traders {
    /// The goods: TB/CcCc.w turned half round has its wine on the other city.
    fn telling_marks(rules: &Ruleset) -> u8 {
        if rules.ext_in_play("traders.") {
            GOODS_MARKS
        } else {
            0
        }
    }

    const HOOKS: &'static [Hook] = &[Hook::TilePlaced, Hook::FinalScoring];
    const HEARS: &'static [Heard] = &[Heard::FeatureScored];
    const CATEGORIES: &'static [&'static str] = &["goods"];
    const SEGMENT_MARKS: &'static [(&'static str, FeatureKind, &'static str)] = &[
        (
            "wine",
            FeatureKind::City,
            "a wine symbol in this city: a wine token to whoever completes it (Traders & Builders)",
        ),
        (
            "grain",
            FeatureKind::City,
            "a grain symbol in this city: a grain token to whoever completes it",
        ),
        (
            "cloth",
            FeatureKind::City,
            "a cloth symbol in this city: a cloth token to whoever completes it",
        ),
        (
            "pig_herd",
            FeatureKind::Field,
            "a pig-herd in this field (The River II): each winner of the field scores as with a pig of their own, beside one",
        ),
    ];
    const GRANTS_TILES: bool = true;
    const FOLLOWER_KINDS: &'static [FollowerKindSpec] = &[
        FollowerKindSpec {
            name: "builder",
            key_code: 40,
            doc: "the builder (Traders & Builders): on an unfinished road or city its owner \
                  holds; extending that feature later gives its owner another tile",
            supply: 1,
            weight: 0,
            stands_on: FollowerKindSpec::on(&[FeatureKind::Road, FeatureKind::City]),
            needs_own: true,
            open_only: true,
            glyph: Glyph::Drawn(&BUILDER_ART),
        },
        FollowerKindSpec {
            name: "pig",
            key_code: 41,
            doc: "the pig (Traders & Builders): on a field its owner holds; 1 more a city to \
                  its owner when the owner wins the field",
            supply: 1,
            weight: 0,
            stands_on: FollowerKindSpec::on(&[FeatureKind::Field]),
            needs_own: true,
            open_only: false,
            glyph: Glyph::Drawn(&PIG_ART),
        },
    ];
    const COUNTERS: &'static [CounterSpec] = &[
        CounterSpec {
            name: "goods_taken",
            doc: "goods tokens taken on completing cities",
        },
        CounterSpec {
            name: "double_turns",
            doc: "extra tiles the builders gave",
        },
    ];
    const EVENTS: &'static [EventSpec] = &[
        EventSpec {
            name: "goods_taken",
            key_code: 40,
            fields: &[
                ("turn", Field::Turn),
                ("player", Field::Seat),
                ("wine", Field::Count),
                ("grain", Field::Count),
                ("cloth", Field::Count),
            ],
            narrate: |e, names| {
                let v = e.values;
                let who = (names.seat)(v[1] as u8);
                let got: Vec<String> = GOODS
                    .iter()
                    .zip(&v[2..5])
                    .filter(|(_, &n)| n > 0)
                    .map(|(g, n)| format!("{n} {g}"))
                    .collect();
                Some(format!("         {who} takes {}", got.join(", ")))
            },
            board: BoardChange::None,
        },
        EventSpec {
            name: "double_turn",
            key_code: 41,
            fields: &[("turn", Field::Turn), ("player", Field::Seat)],
            narrate: |e, names| {
                let who = (names.seat)(e.values[1] as u8);
                Some(format!(
                    "         {who}'s builder: another tile after this one"
                ))
            },
            board: BoardChange::None,
        },
    ];
    const OPTIONS: &'static [OptionDef] =
        &[OPT_GOODS_POINTS, OPT_PIG_BONUS, OPT_BUILDERS, OPT_PIGS];

    fn used_by(rules: &Compiled) -> bool {
        Config::of(&rules.rules).is_some()
    }

    /// `traders.builders` and `traders.pigs` (1 each unless set).
    fn follower_supply(rules: &Compiled, local: u8) -> u8 {
        let option = [&OPT_BUILDERS, &OPT_PIGS][local.min(1) as usize];
        option.int_in(&rules.rules).clamp(0, 9) as u8
    }

    fn reset(&mut self) {
        *self = Traders::default();
    }

    fn outcome(&self, out: &mut GameOutcome) {
        out.counters
            .add(TOKENS_TAKEN, self.taken.iter().map(|&n| n as u32).sum());
        out.counters.add(DOUBLE_TURNS, self.double_turns);
    }

    /// The goods the seat holds (8 bits each), and whether an extra tile is due to it.
    fn seat_state(&self, seat: usize) -> u64 {
        let Some(h) = self.held.get(seat) else {
            return 0;
        };
        let due = self.extra_due && self.due_seat as usize == seat;
        h[0] as u64 | (h[1] as u64) << 8 | (h[2] as u64) << 16 | (due as u64) << 24
    }

    fn configure<X: Holds<Self>>(g: &mut Game<X>) {
        g.ext.state_mut().config = Config::of(&g.rules.rules).unwrap_or_default();
    }

    fn set_up<X: Holds<Self>>(g: &mut Game<X>) {
        let st = g.ext.state_mut();
        *st = Traders {
            config: st.config,
            ..Traders::default()
        };
    }

    // (inlined into the dispatch: most turns the active player's builders are all in its
    // supply, and nothing is due)
    #[inline]
    fn on<X: Holds<Self>, S: EventSink>(
        g: &mut Game<X>,
        s: &mut S,
        at: Hook,
        _answer: Option<usize>,
    ) -> bool {
        match at {
            Hook::TilePlaced => {
                let active = g.active;
                if g.supply_of(active, BUILDER) >= g.ext.state().config.builders {
                    // no builder on the board: no extra turn due (`check_builder`'s answer)
                    let t = g.ext.state_mut();
                    (t.extra_due, t.due_seat) = (false, active);
                } else {
                    g.check_builder(s);
                }
            }
            Hook::FinalScoring => g.score_goods(s),
            _ => {}
        }
        false
    }

    fn notice<X: Holds<Self>, S: EventSink>(g: &mut Game<X>, s: &mut S, n: Notice) {
        if let Notice::FeatureScored {
            root,
            complete: true,
            ..
        } = n
        {
            g.take_goods(s, root);
        }
    }

    fn another_tile<X: Holds<Self>>(g: &mut Game<X>, player: u8) -> bool {
        let next = g.turn + 1;
        let active = g.active;
        let t = g.ext.state_mut();
        if !std::mem::take(&mut t.extra_due) || player != active {
            return false;
        }
        t.extra_turn = next;
        t.double_turns += 1;
        true
    }

    fn farm_winner_bonus<X: Holds<Self>>(g: &Game<X>, root: u32, player: u8) -> i64 {
        let bonus = g.ext.state().config.pig_bonus;
        let pig = if g.has_pig(root, player) { bonus } else { 0 };
        let herd = if g.feature_marks(root) & PIG_HERD != 0 {
            bonus
        } else {
            0
        };
        pig + herd
    }

    fn check_invariants<X: Holds<Self>>(g: &Game<X>) -> Result<(), String> {
        let t = g.ext.state();
        let stock = goods_in_pack(&g.rules);
        for good in 0..3 {
            let held: u32 = t.held.iter().map(|h| h[good] as u32).sum();
            if held != t.taken[good] as u32 {
                return Err(format!(
                    "{} tokens held {held} ≠ taken {}",
                    GOODS[good], t.taken[good]
                ));
            }
            if t.taken[good] > stock[good] {
                return Err(format!(
                    "{} tokens taken {} > the supply's {}",
                    GOODS[good], t.taken[good], stock[good]
                ));
            }
            let shown = g.goods_in_completed_cities(good);
            if shown != t.taken[good] as u32 {
                return Err(format!(
                    "{} symbols in completed cities {shown} ≠ tokens taken {}",
                    GOODS[good], t.taken[good]
                ));
            }
        }
        Ok(())
    }
}

impl Valuation for Traders {
    /// A builder: about an extra tile's worth (3) while its feature is open and the pack
    /// still has a dozen tiles, shrinking with the pack; a pig: its bonus for each completed
    /// city around the field when its owner leads the field, plus 1 for cities to come.
    fn follower_kind_value<X: Holds<Self>>(g: &Game<X>, local: u8, node: u32, player: u8) -> i64 {
        let root = g.root_of(node);
        let c = &g.comps[root as usize];
        if local == 0 {
            if c.open == 0 {
                return 0;
            }
            return (3 * g.remaining().min(12) as i64) / 12;
        }
        let best = c.followers.iter().copied().max().unwrap_or(0);
        if best == 0 || c.followers[player as usize] < best {
            return 0;
        }
        g.ext.state().config.pig_bonus * (g.completed_cities_around(root) as i64 + 1)
    }

    /// Each good's majority as it stands, worth the good's points to each leader (a leader
    /// the others can still catch: the rest of the pack decides; no discount here). The
    /// builder and the pig bring what the core does not count: a builder on an open feature
    /// about 1.5 points (a share of an extra tile's worth, when the pack still has tiles), a
    /// pig 1 point per completed city around its field when its owner leads the field.
    fn expected_points<X: Holds<Self>>(g: &Game<X>, out: &mut [f64]) {
        let t = g.ext.state();
        let n = (g.players as usize).min(out.len());
        for good in 0..3 {
            let best = (0..n).map(|p| t.held[p][good]).max().unwrap_or(0);
            if best == 0 {
                continue;
            }
            for (p, total) in out.iter_mut().enumerate().take(n) {
                if t.held[p][good] == best {
                    *total += t.config.goods_points as f64;
                }
            }
        }
        g.builder_and_pig_values(out);
    }
}

impl Presentation for Traders {
    /// The goods symbols on the board's city segments, for the SVG board: in the city by its
    /// first edge, a fifth of a tile anticlockwise from the edge's midpoint (clear of a
    /// follower there, of the pennant, and of a cathedral's spot); hollow once the city is
    /// completed and its tokens handed out.
    fn board_pieces<X: Holds<Self>>(g: &Game<X>, out: &mut Vec<Piece>) {
        for t in g.placed_tiles() {
            let segments = &g.rules().tiles[t.tile as usize].segments;
            for (k, seg) in segments.iter().enumerate() {
                let Some(good) = GOOD_BITS.iter().position(|&bit| seg.marks & bit != 0) else {
                    continue;
                };
                let root = g.root_of(t.node0 + k as u32);
                let done = g.comps[root as usize].done;
                let (x, y) = mark_spot(g.rules(), t, k as u8, 0.13, -0.2);
                let note = if done {
                    format!(
                        "{}: the city is completed, its tokens handed out",
                        GOODS[good]
                    )
                } else {
                    format!("{}: a token to whoever completes this city", GOODS[good])
                };
                out.push(Piece {
                    x,
                    y,
                    glyph: good_glyph(good, done),
                    owner: None,
                    note,
                });
            }
        }
    }

    const LEGEND: &'static [(Glyph, &'static str)] = &[
        (good_glyph(0, false), "wine in a city (Traders & Builders)"),
        (good_glyph(1, false), "grain in a city (Traders & Builders)"),
        (good_glyph(2, false), "cloth in a city (Traders & Builders)"),
        (
            good_glyph(0, true),
            "goods of a completed city (handed out)",
        ),
    ];

    /// The goods tokens each seat holds: wine, grain, cloth.
    fn seat_columns<X: Holds<Self>>(g: &Game<X>, seat: u8, out: &mut Vec<(&'static str, i64)>) {
        let held = g
            .ext
            .state()
            .held
            .get(seat as usize)
            .copied()
            .unwrap_or_default();
        for (good, n) in GOODS.iter().zip(held) {
            out.push((good, n as i64));
        }
    }
}

/// The goods symbols on the tiles of `rules`' pack (its deck, start tile included): the
/// supply of tokens (9 wine, 6 grain, 5 cloth with one Traders & Builders set).
fn goods_in_pack(rules: &Compiled) -> [u16; 3] {
    let mut stock = [0u16; 3];
    for entry in &rules.rules.deck {
        let t = rules.tile(entry.tile);
        for seg in &t.segments {
            for (good, bit) in GOOD_BITS.iter().enumerate() {
                if seg.marks & bit != 0 {
                    stock[good] = stock[good].saturating_add(entry.count);
                }
            }
        }
    }
    stock
}

impl<X: Holds<Traders>> Game<X> {
    /// The goods symbols on the city segments of feature `root`: (wine, grain, cloth).
    fn goods_of(&self, root: u32) -> [u8; 3] {
        let mut goods = [0u8; 3];
        let mut n = self.comps[root as usize].head;
        while n != NIL {
            let node = self.nodes[n as usize];
            let t = self.placed[node.tile as usize].tile;
            let marks = self.rules.tiles[t as usize].segments[node.seg as usize].marks;
            for (good, bit) in GOOD_BITS.iter().enumerate() {
                if marks & bit != 0 {
                    goods[good] = goods[good].saturating_add(1);
                }
            }
            n = node.next;
        }
        goods
    }

    /// A completed feature: when it is a city with goods, the active player (who placed the
    /// completing tile) takes them, whoever holds the city.
    fn take_goods<S: EventSink>(&mut self, s: &mut S, root: u32) {
        if self.comps[root as usize].kind != FeatureKind::City {
            return;
        }
        let goods = self.goods_of(root);
        if goods == [0; 3] {
            return;
        }
        let player = self.active;
        let t = self.ext.state_mut();
        for (good, &n) in goods.iter().enumerate() {
            t.held[player as usize][good] = t.held[player as usize][good].saturating_add(n);
            t.taken[good] = t.taken[good].saturating_add(n as u16);
        }
        let turn = self.turn as i64;
        self.emit(
            s,
            Event::Expansion(ExpansionEvent::new(
                GOODS_TAKEN,
                &[
                    turn,
                    player as i64,
                    goods[0] as i64,
                    goods[1] as i64,
                    goods[2] as i64,
                ],
            )),
        );
    }

    /// Final scoring: each good's majority (at least one token) scores the good's points to
    /// every tied leader, in seat order.
    fn score_goods<S: EventSink>(&mut self, s: &mut S) {
        let points = self.ext.state().config.goods_points;
        for good in 0..3 {
            let held = self.ext.state().held;
            let best = (0..self.players as usize)
                .map(|p| held[p][good])
                .max()
                .unwrap_or(0);
            if best == 0 {
                continue;
            }
            for p in 0..self.players {
                if held[p as usize][good] == best {
                    self.award(s, p, GOODS_POINTS, points, true);
                }
            }
        }
    }

    /// The symbols of `good` in the completed cities on the board (what the tokens taken must
    /// match).
    fn goods_in_completed_cities(&self, good: usize) -> u32 {
        let mut n = 0u32;
        for t in &self.placed {
            let segments = &self.rules.tiles[t.tile as usize].segments;
            for (k, seg) in segments.iter().enumerate() {
                if seg.kind != FeatureKind::City || seg.marks & GOOD_BITS[good] == 0 {
                    continue;
                }
                let r = self.root_of(t.node0 + k as u32);
                if self.comps[r as usize].done {
                    n += 1;
                }
            }
        }
        n
    }
}

/// The builder: instead of a follower, on a road or city where its owner has a follower.
pub const BUILDER: FollowerKind = follower_kind_of::<Traders>(0);
/// The pig: instead of a follower, on a field where its owner has a farmer.
pub const PIG: FollowerKind = follower_kind_of::<Traders>(1);

impl<X: Holds<Traders>> Game<X> {
    /// At the tile placed: whether the tile extends a feature holding the active player's
    /// builder (placed in an earlier turn: none stands on the tile just placed), and this
    /// turn is not itself an extra one.
    #[inline(never)]
    fn check_builder<S: EventSink>(&mut self, s: &mut S) {
        let t = self.ext.state();
        // (the extra tile comes from the pack: none when it is empty, hands aside)
        let due = !(t.extra_turn != 0 && t.extra_turn == self.turn)
            && (self.remaining() > 0 || self.hand_size > 1)
            && self.builder_extended(self.active);
        let active = self.active;
        let t = self.ext.state_mut();
        (t.extra_due, t.due_seat) = (due, active);
        if due {
            let (turn, player) = (self.turn as i64, self.active as i64);
            self.emit(
                s,
                Event::Expansion(ExpansionEvent::new(DOUBLE_TURN, &[turn, player])),
            );
        }
    }

    /// Whether the tile just placed has a segment in the feature of `player`'s builder.
    fn builder_extended(&self, player: u8) -> bool {
        if self.supply_of(player, BUILDER) >= self.ext.state().config.builders {
            return false; // the player's builders are all in its supply
        }
        let pidx = self.last_placed;
        let t = self.placed[pidx];
        // a builder stands on a road or a city: the tile's road and city segments
        let closable = &self.rules.tiles[t.tile as usize].closable;
        // none of them holds a figure (most turns): no builder of the seat's there either,
        // and the list of the board's figures is not read
        let held = |k: &u8| self.comps[self.root_of(t.node0 + *k as u32) as usize].nfollowers > 0;
        if !closable.iter().any(held) {
            return false;
        }
        // (one branch for seat and kind together: whose follower comes next is a coin the
        // branch predictor keeps losing, a builder of the seat's is rare)
        self.followers
            .iter()
            .filter(|f| (f.player == player) & (f.kind == BUILDER))
            .filter(|f| self.nodes[f.node as usize].tile as usize != pidx)
            .any(|f| {
                let root = self.root_of(f.node);
                closable
                    .iter()
                    .any(|&k| self.root_of(t.node0 + k as u32) == root)
            })
    }

    /// Whether `player` has a pig on field `root` (pigs do not stack: one counts).
    fn has_pig(&self, root: u32, player: u8) -> bool {
        self.followers
            .iter()
            .any(|f| f.player == player && f.kind == PIG && self.root_of(f.node) == root)
    }

    /// What builders and pigs bring beyond the core's count: a builder on an open feature,
    /// while the pack has tiles, about an extra tile's worth shared with the chance that its
    /// owner extends the feature again (1.5 points); a pig, its bonus for each completed city
    /// around its field when its owner leads the field.
    fn builder_and_pig_values(&self, out: &mut [f64]) {
        let bonus = self.ext.state().config.pig_bonus as f64;
        for f in &self.followers {
            let Some(total) = out.get_mut(f.player as usize) else {
                continue;
            };
            let root = self.root_of(f.node);
            let c = &self.comps[root as usize];
            if f.kind == BUILDER {
                if !c.done && self.remaining() > 0 {
                    *total += 1.5;
                }
            } else if f.kind == PIG {
                let best = c.followers.iter().copied().max().unwrap_or(0);
                if best > 0 && c.followers[f.player as usize] == best {
                    *total += bonus * self.completed_cities_around(root) as f64;
                }
            }
        }
    }
}

/// The builder: a figure with a hammer.
pub const BUILDER_ART: GlyphArt = GlyphArt {
    svg: r#"<path d="M-2.6 -4.2 A3 3 0 1 1 2.6 -4.2 L4.5 8 L-4.5 8 Z" fill="{colour}" stroke="white"/><line x1="-6.2" y1="-5" x2="-6.2" y2="1.5" stroke="{colour}" stroke-width="1.8"/><rect x="-9" y="-7.6" width="5.6" height="2.8" rx="0.6" fill="{colour}" stroke="white" stroke-width="0.6"/>"#,
    in_seat_colour: true,
};

/// The pig.
pub const PIG_ART: GlyphArt = GlyphArt {
    svg: r##"<path d="M-7 -1 q-3 -1 -2 -3" fill="none" stroke="{colour}" stroke-width="1.5"/><rect x="-5" y="2" width="2.4" height="4.5" fill="{colour}"/><rect x="2.5" y="2" width="2.4" height="4.5" fill="{colour}"/><ellipse rx="7.5" ry="4.5" fill="{colour}" stroke="white"/><path d="M3 -3.5 L5.5 -7.5 L6 -2.5 Z" fill="{colour}" stroke="white" stroke-width="0.8"/><rect x="7" y="-1.8" width="2.6" height="3.4" rx="1" fill="{colour}" stroke="white" stroke-width="0.8"/><circle cx="4.6" cy="-1.2" r="0.9" fill="#111"/>"##,
    in_seat_colour: true,
};
