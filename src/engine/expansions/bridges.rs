//! Bridges, from the BC&B expansion (`rulesets/README.md`, BC&B section): a bridge is
//! a road across a field, from one side of a tile to the opposite side. Each player has a
//! supply (3 with 2–4 players, 2 with 5–6). In the turn, with the tile placed and before the
//! follower, the player may build one bridge: on the tile just placed or on a tile next to
//! it, across a field whose two ends are field edges, each end facing an empty square or a
//! road. The field under a bridge stays whole; the bridge is a road segment of its tile
//! (a follower may go on it when it is on the tile just placed). A tile may be placed where
//! its edges fit only with a bridge built in the same turn (on it, or on the neighbour its
//! road meets): such a placement builds that bridge.
//!
//! In the engine a bridged tile is a tile type of its own, derived when the ruleset is
//! compiled (`derive_tiles`: the base type plus a road on the two sides), and building a
//! bridge turns the placed tile into it (`Game::retype_tile`). A placement that needs a
//! bridge is an extra placement option tagged with the bridge it needs.

use crate::engine::compiled::{rotation_fits, Compiled};
use crate::engine::decision::{Choice, DecisionKind, DecisionSpec};
use crate::engine::event::{
    BoardChange, Event, EventKind, EventSink, EventSpec, ExpansionEvent, Field,
};
use crate::engine::expansions::supply::Supply;
use crate::engine::game::{Game, MAX_PLAYERS};
use crate::engine::hooks::{
    counter_of, event_of, kind_of, Expansion, Glyph, GlyphArt, Heard, Holds, Hook, Piece,
    Presentation, Valuation,
};
use crate::engine::outcome::{Counter, CounterSpec, GameOutcome};
use crate::rule_options::{choice, Area, OptType, OptionDef};
use crate::ruleset::{Ruleset, TileIdx};
use crate::tiles::{EdgeKind, FeatureKind, Side, TileFeature, TileType};

/// The options' area (and key prefix).
const AREA: Area = Area::Expansion("bridges");

/// Build a bridge (options: none, then each bridge that may be built).
pub const BRIDGE: DecisionKind = kind_of::<Bridges>(0);

/// Bridges built.
pub const BUILT: Counter = counter_of::<Bridges>(0);
/// Tiles placed where only a bridge made them fit.
pub const NEEDED: Counter = counter_of::<Bridges>(1);

/// A bridge is built (turn, player, x, y, axis: 0 north–south, 1 west–east).
pub const BRIDGE_BUILT: EventKind = event_of::<Bridges>(0);

/// The bridge's tag among the pieces of the end-of-turn state hash.
const BRIDGE_PIECE: u64 = 6;

/// A bridge's axis on the board (also its tag among the derived tile types, in the tile's
/// own unturned frame): north–south or west–east.
const NORTH_SOUTH: u8 = 0;
const WEST_EAST: u8 = 1;

/// The two sides an axis joins.
fn ends(axis: u8) -> [usize; 2] {
    if axis == NORTH_SOUTH {
        [Side::N.index(), Side::S.index()]
    } else {
        [Side::E.index(), Side::W.index()]
    }
}

/// The axis of the tile's own frame that lies along board axis `axis` when it is turned
/// `rot` quarter turns.
fn own_axis(axis: u8, rot: u8) -> u8 {
    axis ^ (rot & 1)
}

/// Placement tags (see `Game::push_placement`): 1 + axis = a bridge on the tile placed,
/// 3 + side = a bridge on the neighbour across that side.
const TAG_OWN: u8 = 1;
const TAG_NEIGHBOUR: u8 = 3;

/// The rules of bridges in one ruleset (read from its options).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Config {
    /// Bridges per player.
    supply: Supply,
    /// Whether a bridge may also be built after the follower (before the scoring).
    after_follower: bool,
    /// Whether a neighbour of the tile placed may take a bridge the placement does not need.
    neighbours: bool,
}

impl Config {
    fn of(rules: &Ruleset) -> Option<Config> {
        if !rules.ext_in_play("bridges.") {
            return None;
        }
        Some(Config {
            supply: Supply::read(rules, &OPT_SUPPLY, &OPT_SUPPLY_5_6),
            after_follower: OPT_TIMING.choice_in(rules) == "any",
            neighbours: OPT_WHERE.choice_in(rules) != "placed",
        })
    }
}

/// One bridge that may be built: on the placed tile `pidx`, along board axis `axis`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Offer {
    pidx: u32,
    axis: u8,
}

/// Bridges of one game.
#[derive(Clone, Debug, Default)]
pub struct Bridges {
    config: Config,
    /// Bridges each seat was dealt, and has left.
    dealt: u8,
    left: [u8; MAX_PLAYERS],
    /// Bridges on the board, in the order they were built (with their builder).
    built: Vec<(Offer, u8)>,
    needed: u32,
    /// Whether this turn's bridge was built (one a turn).
    built_this_turn: bool,
    /// The bridges the player may build now (the decision's options after "none").
    offers: Vec<Offer>,
}

/// The `bridges.supply` option (read through this constant: its key and default are written once).
const OPT_SUPPLY: OptionDef = OptionDef {
    key: "bridges.supply",
    area: AREA,
    ty: OptType::Int { min: 0, max: 12 },
    default: "3",
    doc: "Bridges per player with 2–4 players (setting any bridges option puts \
              bridges in the game).",
    sources: "BC&B C1 and C2 rulebooks, JCloisterZone: 3",
    requires: None,
};

/// The `bridges.supply_5_6` option (read through this constant: its key and default are written once).
const OPT_SUPPLY_5_6: OptionDef = OptionDef {
    key: "bridges.supply_5_6",
    area: AREA,
    ty: OptType::Int { min: 0, max: 12 },
    default: "2",
    doc: "Bridges per player with 5 or 6 players.",
    sources: "BC&B C1 and C2 rulebooks, JCloisterZone: 2",
    requires: None,
};

/// The `bridges.timing` option (read through this constant: its key and default are written once).
const OPT_TIMING: OptionDef = OptionDef {
    key: "bridges.timing",
    area: AREA,
    ty: OptType::Choice(&[
        choice(
            "before_follower",
            "with the tile, before the follower (a follower may go on it)",
        ),
        choice(
            "any",
            "before the follower, or after it and before the scoring",
        ),
    ]),
    default: "before_follower",
    doc: "When in the turn the bridge may be built.",
    sources: "C2 rulebook and JCloisterZone: before_follower; C1 (Order of Play: \
                  any time in the turn, within what completion and figures allow): any",
    requires: None,
};

/// The `bridges.where` option (read through this constant: its key and default are written once).
const OPT_WHERE: OptionDef = OptionDef {
    key: "bridges.where",
    area: AREA,
    ty: OptType::Choice(&[
        choice("adjacent", "on the tile placed or a tile next to it"),
        choice(
            "placed",
            "on the tile placed; on a neighbour only when the placement needs it",
        ),
    ]),
    default: "adjacent",
    doc: "Which tiles may take the turn's bridge.",
    sources: "C1 and C2 rulebooks: adjacent; JCloisterZone: placed",
    requires: None,
};

impl Expansion for Bridges {
    const HOOKS: &'static [Hook] = &[Hook::TilePlaced, Hook::BeforeScoring];
    const HEARS: &'static [Heard] = &[];
    /// First at the tile placed: the tile's roads are what they will be before the others
    /// act (ingots, robbers).
    const PRIORITY: i8 = -3;
    const EXTENDS_PLACEMENT: bool = true;
    const DECISIONS: &'static [DecisionSpec] = &[DecisionSpec {
        name: "bridge",
        key_code: 11,
        doc: "build a bridge on the tile placed or a neighbour (none, or which and where)",
    }];
    const COUNTERS: &'static [CounterSpec] = &[
        CounterSpec {
            name: "bridges_built",
            doc: "bridges built",
        },
        CounterSpec {
            name: "bridges_needed",
            doc: "placements that needed a bridge",
        },
    ];
    const EVENTS: &'static [EventSpec] = &[EventSpec {
        name: "bridge_built",
        key_code: 26,
        fields: &[
            ("turn", Field::Turn),
            ("player", Field::Seat),
            ("x", Field::Coord),
            ("y", Field::Coord),
            ("axis", Field::Count),
        ],
        narrate: |e, names| {
            let seat = names.seat;
            let v = e.values;
            let who = seat(v[1] as u8);
            let axis = if v[4] == NORTH_SOUTH as i32 {
                "north–south"
            } else {
                "west–east"
            };
            Some(format!(
                "         {who} builds a bridge on ({},{}), {axis}",
                v[2], v[3]
            ))
        },
        board: BoardChange::Adds {
            tag: BRIDGE_PIECE,
            owner: None,
            x: 2,
            y: 3,
        },
    }];
    const OPTIONS: &'static [OptionDef] = &[OPT_SUPPLY, OPT_SUPPLY_5_6, OPT_TIMING, OPT_WHERE];
    fn used_by(rules: &Compiled) -> bool {
        Config::of(&rules.rules).is_some()
    }

    /// For every tile type and each axis whose two ends are field edges: the type with a
    /// bridge there (tagged with the axis in the tile's own frame).
    fn derive_tiles(rules: &Ruleset) -> Vec<(TileIdx, u8, TileType)> {
        if Config::of(rules).is_none() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for (i, t) in rules.tiles.iter().enumerate() {
            for axis in [NORTH_SOUTH, WEST_EAST] {
                let [a, b] = ends(axis);
                if t.edges[a] != EdgeKind::Field || t.edges[b] != EdgeKind::Field {
                    continue;
                }
                let mut bridged = t.clone();
                bridged.id = format!("{}+bridge-{}", t.id, ["NS", "WE"][axis as usize]);
                bridged.jcz_id = None;
                bridged.edges[a] = EdgeKind::Road;
                bridged.edges[b] = EdgeKind::Road;
                bridged.features.push(TileFeature {
                    kind: FeatureKind::Road,
                    sides: Side::from_index(a).bit() | Side::from_index(b).bit(),
                    halves: 0,
                    pennants: 0,
                    cities: Vec::new(),
                    marks: 0,
                });
                out.push((i as TileIdx, axis, bridged));
            }
        }
        out
    }

    fn reset(&mut self) {
        self.config = Config::default();
        self.dealt = 0;
        self.left = [0; MAX_PLAYERS];
        self.built.clear();
        self.needed = 0;
        self.built_this_turn = false;
        self.offers.clear();
    }

    fn heap_bytes(&self) -> usize {
        std::mem::size_of_val(self.built.as_slice()) + std::mem::size_of_val(self.offers.as_slice())
    }

    /// Bridges are conserved (built + left = dealt, a seat), and each built one stands on a
    /// tile of a bridged type.
    fn check_invariants<X: Holds<Self>>(g: &Game<X>) -> Result<(), String> {
        let st = g.ext.state();
        for p in 0..g.players {
            let built = st.built.iter().filter(|(_, owner)| *owner == p).count();
            if built + st.left[p as usize] as usize != st.dealt as usize {
                return Err(format!(
                    "seat {p} built {built} bridges and has {} left, of {} dealt",
                    st.left[p as usize], st.dealt
                ));
            }
        }
        for &(o, _) in &st.built {
            let t = g.placed[o.pidx as usize];
            if !g.rules.derived.iter().any(|d| d.tile == t.tile) {
                return Err(format!(
                    "a bridge on ({}, {}), a tile without one",
                    t.x, t.y
                ));
            }
        }
        Ok(())
    }

    fn outcome(&self, out: &mut GameOutcome) {
        out.counters.add(BUILT, self.built.len() as u32);
        out.counters.add(NEEDED, self.needed);
    }

    /// The bridges the seat has built.
    fn seat_state(&self, seat: usize) -> u64 {
        self.left
            .get(seat)
            .map_or(0, |&n| self.dealt.saturating_sub(n) as u64)
    }

    fn configure<X: Holds<Self>>(g: &mut Game<X>) {
        if let Some(config) = Config::of(&g.rules.rules) {
            g.ext.state_mut().config = config;
        }
    }

    fn set_up<X: Holds<Self>>(g: &mut Game<X>) {
        let players = g.players;
        let st = g.ext.state_mut();
        st.dealt = st.config.supply.for_players(players);
        st.left = [0; MAX_PLAYERS];
        for p in 0..players as usize {
            st.left[p] = st.dealt;
        }
    }

    fn extra_placements<X: Holds<Self>>(g: &mut Game<X>, tile: TileIdx) {
        if g.ext.state().left[g.active as usize] == 0 {
            return;
        }
        g.bridge_placements(tile);
    }

    fn on<X: Holds<Self>, S: EventSink>(
        g: &mut Game<X>,
        s: &mut S,
        at: Hook,
        answer: Option<usize>,
    ) -> bool {
        let player = g.active;
        if let Some(i) = answer {
            if let Some(&o) = i.checked_sub(1).and_then(|k| g.ext.state().offers.get(k)) {
                g.build_bridge(s, player, o);
            }
            return false;
        }
        if at == Hook::TilePlaced {
            g.ext.state_mut().built_this_turn = false;
            if let Some(o) = g.needed_bridge() {
                g.ext.state_mut().needed += 1;
                g.build_bridge(s, player, o);
                return false;
            }
        } else if !g.ext.state().config.after_follower {
            return false;
        }
        let st = g.ext.state();
        if st.built_this_turn || st.left[player as usize] == 0 {
            return false;
        }
        g.bridge_offers();
        let n = g.ext.state().offers.len();
        if n == 0 {
            return false;
        }
        g.ask(BRIDGE, player, n + 1);
        true
    }

    fn choice<X: Holds<Self>>(g: &Game<X>, _local: u8, i: usize) -> Choice {
        let Some(&o) = i.checked_sub(1).and_then(|k| g.ext.state().offers.get(k)) else {
            return Choice::Token { at: None };
        };
        let t = g.placed[o.pidx as usize];
        Choice::Token {
            at: Some((t.x, t.y, o.axis)),
        }
    }

    fn option_count<X: Holds<Self>>(g: &Game<X>, _local: u8) -> usize {
        g.ext.state().offers.len() + 1
    }
}

impl Valuation for Bridges {
    /// A bridge the placement does not need has both ends on empty squares (a placed
    /// neighbour there shows a field), so it completes nothing now: building one spends a
    /// bridge for later roads (-1), none keeps it (0).
    fn value_hint<X: Holds<Self>>(_g: &Game<X>, _local: u8, i: usize, _player: u8) -> i64 {
        if i == 0 {
            0
        } else {
            -1
        }
    }
}

impl Presentation for Bridges {
    const LEGEND: &'static [(Glyph, &'static str)] = &[(Glyph::Drawn(&BRIDGE_ART), "bridge")];

    fn board_pieces<X: Holds<Self>>(g: &Game<X>, out: &mut Vec<Piece>) {
        for &(o, owner) in &g.ext.state().built {
            let t = g.placed[o.pidx as usize];
            out.push(Piece {
                x: t.x as f64 + 0.5,
                y: t.y as f64 + 0.5,
                glyph: Glyph::Drawn(&BRIDGE_ART),
                owner: Some(owner),
                note: format!(
                    "bridge ({}), built by seat {}",
                    if o.axis == NORTH_SOUTH {
                        "north–south"
                    } else {
                        "west–east"
                    },
                    owner + 1
                ),
            });
        }
    }
}

impl<X: Holds<Bridges>> Game<X> {
    /// Bridges `player` has left.
    pub fn bridges_left(&self, player: u8) -> u8 {
        self.ext
            .state()
            .left
            .get(player as usize)
            .copied()
            .unwrap_or(0)
    }

    /// Bridges on the board, in the order they were built: (builder, square, board axis:
    /// 0 north–south, 1 west–east).
    pub fn bridges(&self) -> Vec<(u8, (i32, i32), u8)> {
        self.ext
            .state()
            .built
            .iter()
            .map(|&(o, owner)| {
                let t = self.placed[o.pidx as usize];
                (owner, (t.x, t.y), o.axis)
            })
            .collect()
    }

    /// The bridge the placement just made needs (its tag), if any.
    fn needed_bridge(&self) -> Option<Offer> {
        let tag = self.place_tag;
        if tag == 0 {
            return None;
        }
        let here = self.last_placed as u32;
        if tag < TAG_NEIGHBOUR {
            return Some(Offer {
                pidx: here,
                axis: tag - TAG_OWN,
            });
        }
        let side = (tag - TAG_NEIGHBOUR) as usize;
        let t = self.placed[self.last_placed];
        let (dx, dy) = Side::from_index(side).offset();
        let n = self.tile_at(t.x + dx, t.y + dy)?;
        Some(Offer {
            pidx: n as u32,
            axis: (side & 1) as u8,
        })
    }

    /// The derived type of placed tile `pidx` with a bridge along board axis `axis`, when it
    /// has none yet, both ends are field edges and each end faces an empty square or a road.
    fn bridged_type(&self, pidx: usize, axis: u8) -> Option<TileIdx> {
        let t = self.placed[pidx];
        let to = self.rules.derived(t.tile, own_axis(axis, t.rot))?;
        ends(axis)
            .iter()
            .all(|&side| self.end_fits(t.x, t.y, side))
            .then_some(to)
    }

    /// Whether a road end on side `side` of square (x, y) fits what is across it.
    fn end_fits(&self, x: i32, y: i32, side: usize) -> bool {
        let (dx, dy) = Side::from_index(side).offset();
        match self.tile_at(x + dx, y + dy) {
            None => true,
            Some(n) => self.edge_kind(n, Side::from_index(side).opposite()) == EdgeKind::Road,
        }
    }

    /// The bridges the active player may build now, into the offers: on the tile just placed,
    /// then on its neighbours N, E, S, W; north–south before west–east.
    fn bridge_offers(&mut self) {
        let mut offers = std::mem::take(&mut self.ext.state_mut().offers);
        offers.clear();
        let here = self.placed[self.last_placed];
        let (mut squares, mut n) = ([self.last_placed; 5], 1);
        let neighbours = self.ext.state().config.neighbours;
        for side in Side::ALL.into_iter().filter(|_| neighbours) {
            let (dx, dy) = side.offset();
            if let Some(t) = self.tile_at(here.x + dx, here.y + dy) {
                squares[n] = t;
                n += 1;
            }
        }
        for &pidx in &squares[..n] {
            for axis in [NORTH_SOUTH, WEST_EAST] {
                if self.bridged_type(pidx, axis).is_some() {
                    offers.push(Offer {
                        pidx: pidx as u32,
                        axis,
                    });
                }
            }
        }
        self.ext.state_mut().offers = offers;
    }

    /// Build bridge `o` for `player`: the tile becomes its bridged type.
    fn build_bridge<S: EventSink>(&mut self, s: &mut S, player: u8, o: Offer) {
        let pidx = o.pidx as usize;
        let t = self.placed[pidx];
        let Some(to) = self.rules.derived(t.tile, own_axis(o.axis, t.rot)) else {
            return;
        };
        self.retype_tile(pidx, to);
        if pidx != self.last_placed {
            self.touched = o.pidx;
        }
        let st = self.ext.state_mut();
        st.left[player as usize] = st.left[player as usize].saturating_sub(1);
        st.built.push((o, player));
        st.built_this_turn = true;
        let turn = self.turn;
        self.emit(
            s,
            Event::Expansion(ExpansionEvent::new(
                BRIDGE_BUILT,
                &[
                    turn as i64,
                    player as i64,
                    t.x as i64,
                    t.y as i64,
                    o.axis as i64,
                ],
            )),
        );
    }

    /// The placements of `tile` that fit only with a bridge (see the module doc), appended
    /// to the placement options with their tags.
    fn bridge_placements(&mut self, tile: TileIdx) {
        let cells = self.frontier.len();
        for k in 0..cells {
            let (cell, code) = self.frontier.entry(k);
            let (x, y) = self.cell_xy(cell);
            for d in 0..self.rules.tiles[tile as usize].distinct.len() {
                let rot = self.rules.tiles[tile as usize].distinct[d];
                let sig = self.rules.tiles[tile as usize].rotations[rot as usize].sig;
                if rotation_fits(sig, code) {
                    continue; // the edges allow it: already an option
                }
                if let Some(tag) = self.bridge_fix(tile, x, y, rot, sig, code) {
                    self.push_placement(x, y, rot, tag);
                }
            }
        }
    }

    /// The one bridge that makes `tile` turned `rot` fit at (x, y), as a placement tag.
    fn bridge_fix(&self, tile: TileIdx, x: i32, y: i32, rot: u8, sig: u8, code: u8) -> Option<u8> {
        // the sides that do not fit: (side, what the tile shows, what the neighbour shows)
        let mut bad = [(0usize, 0u8, 0u8); 4];
        let mut n = 0;
        for side in 0..4 {
            let want = (code >> (2 * side)) & 3;
            let have = (sig >> (2 * side)) & 3;
            if want != 0 && want - 1 != have {
                bad[n] = (side, have, want - 1);
                n += 1;
            }
        }
        let (field, road) = (EdgeKind::Field as u8, EdgeKind::Road as u8);
        let (side, have, shows) = bad[0];
        // a bridge on the tile: its field ends meet roads (one side, or both ends of an axis)
        if have == field && shows == road {
            let axis = (side & 1) as u8;
            if bad[..n]
                .iter()
                .all(|&(s, h, w)| (s & 1) as u8 == axis && h == field && w == road)
            {
                let to = self.rules.derived(tile, own_axis(axis, rot))?;
                let bridged = self.rules.tiles[to as usize].rotations[rot as usize].sig;
                return rotation_fits(bridged, code).then_some(TAG_OWN + axis);
            }
            return None;
        }
        // a bridge on the neighbour: the tile's road meets its field (one side only)
        if n == 1 && have == road && shows == field {
            let (dx, dy) = Side::from_index(side).offset();
            let nb = self.tile_at(x + dx, y + dy)?;
            let t = self.placed[nb];
            let axis = (side & 1) as u8;
            self.rules.derived(t.tile, own_axis(axis, t.rot))?;
            // its far end faces an empty square or a road
            return self
                .end_fits(t.x, t.y, side)
                .then_some(TAG_NEIGHBOUR + side as u8);
        }
        None
    }
}

/// A bridge (an arch across the tile), in the builder's colour.
pub const BRIDGE_ART: GlyphArt = GlyphArt {
    svg: r##"<path d="M-11 5 v-6 h22 v6 h-4 a7 5 0 0 0 -14 0 z" fill="{colour}" stroke="#222" stroke-width="1.2"/>"##,
    in_seat_colour: true,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_turn_with_the_tile() {
        assert_eq!(own_axis(NORTH_SOUTH, 0), NORTH_SOUTH);
        assert_eq!(own_axis(NORTH_SOUTH, 1), WEST_EAST);
        assert_eq!(own_axis(WEST_EAST, 3), NORTH_SOUTH);
        assert_eq!(own_axis(WEST_EAST, 2), WEST_EAST);
    }
}
