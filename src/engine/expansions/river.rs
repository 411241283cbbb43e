//! The River and The River II (`rulesets/README.md`, River section; research notes cited
//! there): a prelude of river tiles played before the land tiles.
//!
//! - **The pack** ([`Expansion::order_deck`]): after the keyed shuffle, the river tiles go to
//!   the front: a fork (`river_fork` mark: The River II's RI.2/III) first, then the other
//!   river tiles, then the lakes (`river_lake`) last, each group in the order the keys gave
//!   it, then the land tiles. The spring is the ruleset's `start` tile (it replaces the base
//!   start tile, which is shuffled with the land tiles: the C2 rulebooks and JCloisterZone).
//! - **Placing** ([`Expansion::restrict_placements`]): a river edge (`W`) meets only a river
//!   edge, and a river tile must continue the river at one of its open ends. The river may
//!   not turn the same way twice in a row (`river.u_turn = same_way_twice`, the rulebooks'
//!   rule against U-turns), or, as JCloisterZone plays it (`lookahead`), the cells ahead of
//!   each end the tile leaves open must be free (the next tile's cell, its two neighbours
//!   across the flow, and the three beyond).
//! - **Branches**: after a fork, a river tile may not take two open ends at once (River II:
//!   the branches must not be connected; under JCloisterZone's lookahead two ends never lead
//!   into one cell, so it agrees).
//! - **The volcano lake** (`volcano_lake` mark, River II's `RI.2/I.v`; `river.volcano`): no
//!   follower nor other figure on it (`Game::bare_marks`) and its player takes another tile
//!   at once (the core's "another tile" seam), as both editions' texts read; `plain` plays
//!   it as any lake (JCloisterZone).
//! - **Open ends** are this module's state: where the river leaves a placed tile towards an
//!   empty cell, and how the river turned on that tile. The spring's end is set up with the
//!   start tile; each river tile placed closes the end it continues and opens its others.
//!
//! A river tile that fits nowhere goes by the ruleset's unplaceable rule (JCloisterZone
//! discards it too). The river is no feature: the fields it cuts are the tile's, and the
//! fields across a river edge meet as across a field edge (the core matches river edges as
//! field edges; this module keeps river to river), so a field wraps around the spring and
//! the lake.

use crate::engine::compiled::Compiled;
use crate::engine::game::Game;
use crate::engine::hooks::{
    mark_of, Conflict, ConflictAbout, Expansion, Heard, Holds, Hook, Presentation, Valuation,
};
use crate::rule_options::{choice, Area, OptType, OptionDef};
use crate::ruleset::TileIdx;
use crate::tiles::{rotate_side_mask, Side};

/// The options' area (and key prefix).
const AREA: Area = Area::Expansion("river");

/// The tile mark of a lake (drawn last of the river tiles).
pub const LAKE: u32 = mark_of::<River>(0);
/// The tile mark of a fork (drawn first of the river tiles).
pub const FORK: u32 = mark_of::<River>(1);
/// The tile mark of River II's volcano lake (`river.volcano`).
pub const VOLCANO: u32 = mark_of::<River>(2);

/// Most open ends at once (a fork opens two; a few forks of combined rivers more).
const MAX_ENDS: usize = 8;

/// Where the river leaves a placed tile towards an empty cell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct End {
    /// The placed tile's cell.
    pub x: i32,
    pub y: i32,
    /// The side (board orientation) the river leaves by.
    pub side: u8,
    /// How the river turned on that tile: -1 left, 0 straight (or it rose there), 1 right.
    pub turn: i8,
}

impl End {
    /// The empty cell the river flows into.
    pub fn target(&self) -> (i32, i32) {
        let (dx, dy) = Side::from_index(self.side as usize).offset();
        (self.x + dx, self.y + dy)
    }
}

/// The rule against U-turns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum UTurn {
    /// The river may not turn the same way on two river tiles in a row.
    #[default]
    SameWayTwice,
    /// JCloisterZone: the cells ahead of each end left open must be free.
    Lookahead,
}

/// The river's state: its open ends and the rules in play.
#[derive(Clone, Debug, Default)]
pub struct River {
    ends: [End; MAX_ENDS],
    n_ends: u8,
    u_turn: UTurn,
    /// The volcano lake gives its player another tile (`river.volcano = another_tile`).
    volcano_tile: bool,
    /// The volcano lake was placed this turn (with `volcano_tile`): another tile is due.
    tile_due: bool,
}

impl River {
    /// The river's open ends now.
    pub fn ends(&self) -> &[End] {
        &self.ends[..self.n_ends as usize]
    }

    fn push(&mut self, e: End) {
        if (self.n_ends as usize) < MAX_ENDS {
            self.ends[self.n_ends as usize] = e;
            self.n_ends += 1;
        }
    }
}

/// The turn from flowing out by side `from` to flowing out by side `to`: 0 straight, 1 right
/// (clockwise), -1 left, 2 back.
fn turn(from: u8, to: u8) -> i8 {
    match (to + 4 - from) & 3 {
        0 => 0,
        1 => 1,
        3 => -1,
        _ => 2,
    }
}

/// The river sides of `tile` turned `rot` (board orientation).
fn river_sides<X: crate::engine::hooks::Expansions>(g: &Game<X>, tile: TileIdx, rot: u8) -> u8 {
    rotate_side_mask(g.rules().tiles[tile as usize].river, rot)
}

/// The longest pack [`River::order_deck`] orders in its buffers on the stack (a longer one
/// is sorted in place).
const ORDER_BUF: usize = 512;

/// Whether the cell at (x, y) holds a tile.
fn occupied_at<X: crate::engine::hooks::Expansions>(g: &Game<X>, x: i32, y: i32) -> bool {
    g.tile_at(x, y).is_some()
}

/// Whether `tile` turned `rot` may go at (x, y) by the river's rules (the rule as written;
/// the placement filter reads each cell once, [`CellFacts`], and must agree).
fn allowed<X: Holds<River>>(g: &Game<X>, tile: TileIdx, x: i32, y: i32, rot: u8) -> bool {
    let river: &River = g.ext.state();
    let sides = river_sides(g, tile, rot);
    // the ends flowing into this cell: the tile must take each with a river edge
    let mut joined = 0u8;
    let mut incoming: Option<End> = None;
    for e in river.ends() {
        if e.target() == (x, y) {
            let facing = Side::from_index(e.side as usize).opposite();
            if sides & facing.bit() == 0 {
                return false; // a land edge against the river
            }
            joined |= facing.bit();
            incoming.get_or_insert(*e);
        }
    }
    if sides == 0 {
        return true;
    }
    if incoming.is_none() {
        return false; // a river tile continues the river
    }
    // a tile that takes two ends joins two branches (River II: they must not be connected)
    if joined.count_ones() > 1 {
        return false;
    }
    // every river edge facing a tile meets an end (else it meets a land edge)
    let mut open = 0u8;
    for s in Side::ALL {
        if sides & s.bit() == 0 || joined & s.bit() != 0 {
            continue;
        }
        let (dx, dy) = s.offset();
        if occupied_at(g, x + dx, y + dy) {
            return false;
        }
        open |= s.bit();
    }
    let Some(from) = incoming else {
        return false; // a river tile continues the river
    };
    match river.u_turn {
        UTurn::SameWayTwice => Side::ALL.iter().all(|s| {
            if open & s.bit() == 0 {
                return true;
            }
            let t = turn(from.side, s.index() as u8);
            t == 0 || t != from.turn
        }),
        UTurn::Lookahead => Side::ALL
            .iter()
            .all(|s| open & s.bit() == 0 || ahead_free(g, x, y, *s)),
    }
}

/// Whether the cells ahead of the end a tile at (x, y) would leave open by side `s` are
/// free (`river.u_turn = lookahead`): the next tile's cell, its two neighbours across the
/// flow, and the three beyond.
fn ahead_free<X: Holds<River>>(g: &Game<X>, x: i32, y: i32, s: Side) -> bool {
    let (dx, dy) = s.offset();
    let (ax, ay) = (x + dx, y + dy);
    let (bx, by) = (ax + dx, ay + dy);
    // across the flow: (dy, dx) and its opposite
    [
        (ax + dy, ay + dx),
        (ax - dy, ay - dx),
        (bx, by),
        (bx + dy, by + dx),
        (bx - dy, by - dx),
    ]
    .iter()
    .all(|&(cx, cy)| !occupied_at(g, cx, cy))
}

/// What [`allowed`] reads of an empty cell, the same for every rotation of a river tile
/// there: a rotation whose river sides are `sides` is allowed when they take every end
/// flowing in (`joined`), there is such an end and only one, and no other river side
/// meets a tile or leaves where the river may not go next (`refused`).
#[derive(Clone, Copy)]
struct CellFacts {
    /// The sides facing the ends that flow into the cell.
    joined: u8,
    /// The sides a river side other than the joined ones may not take: a tile across it,
    /// or the rule against U-turns.
    refused: u8,
}

impl CellFacts {
    /// The river's facts of the cell (x, y); `None` when no end flows into it (no river
    /// tile goes there) or two do (no river tile joins two branches).
    fn of<X: Holds<River>>(g: &Game<X>, x: i32, y: i32) -> Option<CellFacts> {
        let river: &River = g.ext.state();
        let mut joined = 0u8;
        let mut from: Option<End> = None;
        for e in river.ends() {
            if e.target() == (x, y) {
                joined |= Side::from_index(e.side as usize).opposite().bit();
                from.get_or_insert(*e);
            }
        }
        let from = from?;
        if joined.count_ones() > 1 {
            return None;
        }
        // (read from the cell's neighbour constraint: the cell is empty, next to the river)
        let mut refused = g.occupied_sides(x, y);
        debug_assert!(
            Side::ALL.iter().all(|s| {
                let (dx, dy) = s.offset();
                occupied_at(g, x + dx, y + dy) == (refused & s.bit() != 0)
            }),
            "the neighbour constraint of ({x}, {y}) tells its neighbours wrong"
        );
        match river.u_turn {
            // the river turned this way on the tile it leaves: not that way again
            UTurn::SameWayTwice => match from.turn {
                1 => refused |= 1 << ((from.side + 1) & 3),
                -1 => refused |= 1 << ((from.side + 3) & 3),
                _ => {}
            },
            UTurn::Lookahead => {
                for s in Side::ALL {
                    if (refused | joined) & s.bit() == 0 && !ahead_free(g, x, y, s) {
                        refused |= s.bit();
                    }
                }
            }
        }
        Some(CellFacts { joined, refused })
    }

    /// Whether a river tile whose river sides are `sides` (board orientation, not 0) may go
    /// there.
    #[inline]
    fn allows(&self, sides: u8) -> bool {
        self.joined & !sides == 0 && sides & !self.joined & self.refused == 0
    }
}

/// More tiles that end the river (a lake, a branch's city end, a second spring: one river
/// side) than the river has ends for: the spring opens one end per river side, a fork one
/// more, each end tile closes one, so the surplus could only be discarded. The River C2
/// rulebook keeps "one lake tile for each source and an additional one for every fork tile";
/// the C1 FAQ for both rivers together: "one spring and one lake are discarded". A river left
/// open (fewer end tiles) is played as it comes.
fn too_many_river_ends(rules: &crate::ruleset::Ruleset) -> Option<Conflict> {
    let sides = |t: TileIdx| rules.tiles[t as usize].river_sides().count_ones() as i64;
    let mut ends = sides(rules.start);
    let mut opened = ends;
    let mut closers = Vec::new();
    for d in &rules.deck {
        let k = sides(d.tile);
        let n = d.count as i64 - i64::from(d.tile == rules.start);
        if k == 0 || n <= 0 {
            continue;
        }
        ends += (k - 2) * n;
        opened += (k - 2).max(0) * n;
        if k == 1 {
            closers.push(format!("`{}` ×{n}", rules.tiles[d.tile as usize].id));
        }
    }
    (ends < 0).then(|| Conflict {
        about: ConflictAbout::Deck,
        text: format!(
            "the river: the pack holds {} tiles that end the river ({}) for {opened} open \
             ends (the spring's, and one more for each fork), so {} could only be discarded \
             (River C2: one lake for each spring and one more for each fork; both rivers \
             together, C1 FAQ: one spring and one lake are left out)",
            -ends + opened,
            closers.join(", "),
            -ends
        ),
    })
}

/// The placements of `tile` the river refuses (see `River::restrict_placements`): a land
/// tile's on the cells its open ends flow into, a river tile's everywhere else and where it
/// would not continue the river. Out of line: the entry keeps the common case a test.
#[inline(never)]
fn restrict_river<X: Holds<River>>(g: &mut Game<X>, tile: TileIdx, land: bool) {
    // the cells the open ends flow into
    let river: &River = g.ext.state();
    let n = river.n_ends as usize;
    let mut into = [(0, 0); MAX_ENDS];
    for (t, e) in into.iter_mut().zip(river.ends()) {
        *t = e.target();
    }
    if land {
        // a land tile: `allowed` refuses only those cells
        g.drop_placements_at(tile, &into[..n]);
        return;
    }
    // a river tile: `allowed` refuses every other cell (it continues the river)
    if g.ext.extends_placement() {
        // (placements another expansion added are in the list: filtered)
        g.keep_placements_at(&into[..n], |g, x, y, rot| allowed(g, tile, x, y, rot));
        return;
    }
    // the list is the scan's alone: made from the cells the ends flow into, each cell's
    // facts read once
    #[cfg(debug_assertions)]
    let scan = g.opt_place[..g.n_place].to_vec();
    let river = g.rules().tiles[tile as usize].river;
    g.set_placements_at(tile, &into[..n], |g, x, y, rots| {
        let Some(c) = CellFacts::of(g, x, y) else {
            return 0;
        };
        (0..4u8)
            .filter(|&r| rots >> r & 1 != 0 && c.allows(rotate_side_mask(river, r)))
            .fold(0, |m, r| m | 1 << r)
    });
    #[cfg(debug_assertions)]
    {
        let made = g.opt_place[..g.n_place].to_vec();
        g.opt_place[..scan.len()].copy_from_slice(&scan);
        g.n_place = scan.len();
        g.keep_placements_at(&into[..n], |g, x, y, rot| allowed(g, tile, x, y, rot));
        debug_assert_eq!(
            made,
            g.opt_place[..g.n_place],
            "the river's options made from its cells differ from the scan's, filtered"
        );
    }
}

/// The tile just placed (`pidx`) closes the ends it continues and opens its others.
fn extend<X: Holds<River>>(g: &mut Game<X>, pidx: usize) {
    let p = g.placed_tiles()[pidx];
    let mask = g.rules().tiles[p.tile as usize].river;
    let river: &mut River = g.ext.state_mut();
    if river.n_ends == 0 && mask == 0 {
        return; // a land tile once the river has no open end
    }
    let sides = rotate_side_mask(mask, p.rot);
    // the ends into this cell close (the first is where the river came from), the others
    // stay in their order
    let mut from: Option<End> = None;
    let mut kept = 0;
    for i in 0..river.n_ends as usize {
        let e = river.ends[i];
        if e.target() == (p.x, p.y) {
            from.get_or_insert(e);
        } else {
            river.ends[kept] = e;
            kept += 1;
        }
    }
    river.n_ends = kept as u8;
    // the tile's other river sides open ends, N first (clockwise)
    let entry = from.map_or(0, |e| 1u8 << ((e.side + 2) & 3));
    for s in bits_of(sides & !entry) {
        let turn = from.map_or(0, |e| turn(e.side, s));
        river.push(End {
            x: p.x,
            y: p.y,
            side: s,
            turn: if turn == 2 { 0 } else { turn },
        });
    }
}

/// The sides of a side mask (a bit per side, N = bit 0), N first, clockwise.
fn bits_of(mut mask: u8) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let s = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            s
        })
    })
}

/// The `river.u_turn` option (read through this constant: its key and default are written once).
const OPT_U_TURN: OptionDef = OptionDef {
    key: "river.u_turn",
    area: AREA,
    ty: OptType::Choice(&[
        choice(
            "same_way_twice",
            "the river may not turn the same way on two river tiles in a row",
        ),
        choice(
            "lookahead",
            "the cells ahead of each open end must be free (JCloisterZone)",
        ),
    ]),
    default: "same_way_twice",
    doc: "The rule against U-turns of the river. The river takes part whenever the \
              ruleset's tiles have river edges; setting this option is not needed.",
    sources: "River C2 rulebook (Wikicarpedia): cannot turn in the same direction twice \
                  in a row; River C1 FAQ: only immediate U-turns; JCloisterZone \
                  RiverCapability: lookahead",
    requires: None,
};

/// The `river.volcano` option (read through this constant: its key and default are written once).
const OPT_VOLCANO: OptionDef = OptionDef {
    key: "river.volcano",
    area: AREA,
    ty: OptType::Choice(&[
        choice(
            "another_tile",
            "no follower nor figure on the volcano lake; its player takes another tile at once",
        ),
        choice(
            "plain",
            "a lake like the others: a follower may go on it, the turn passes (JCloisterZone)",
        ),
    ]),
    default: "another_tile",
    doc: "River II's volcano lake (`volcano_lake` mark, the last river tile).",
    sources: "River C2 (Wikicarpedia, The River II): no meeple on the volcano tile, take \
                  another turn by drawing a normal tile, no other action that turn; River \
                  (1st edition), The River II: no follower on it (the dragon goes there, not \
                  played here), the player takes another tile immediately; JCloisterZone: \
                  plain lake (its volcano acts only with The Princess & the Dragon)",
    requires: None,
};

impl Expansion for River {
    const HOOKS: &'static [Hook] = &[Hook::TilePlaced];
    /// The river follows the tiles placed only while it has open ends (a river tile is
    /// placed only then: the placement filter keeps it to an open end), and a volcano's tile.
    const ARMED: &'static [(Hook, u32)] = &[(Hook::TilePlaced, VOLCANO)];
    const HEARS: &'static [Heard] = &[];
    const TILE_MARKS: &'static [(&'static str, &'static str)] = &[
        ("river_lake", "a river's end: drawn last of the river tiles"),
        (
            "river_fork",
            "splits the river: drawn first of the river tiles",
        ),
        (
            "volcano_lake",
            "River II's volcano lake: no figure on it, and its player takes another tile \
             (`river.volcano`)",
        ),
    ];
    const GRANTS_TILES: bool = true;
    const OPTIONS: &'static [OptionDef] = &[OPT_U_TURN, OPT_VOLCANO];
    const RESTRICTS_PLACEMENT: bool = true;
    const ORDERS_DECK: bool = true;

    fn used_by(rules: &Compiled) -> bool {
        rules.tiles.iter().any(|t| t.river != 0)
    }

    fn reset(&mut self) {
        self.n_ends = 0;
        self.tile_due = false;
    }

    fn conflict(rules: &crate::ruleset::Ruleset) -> Option<Conflict> {
        let start = rules.tiles.get(rules.start as usize)?;
        let river = rules.tiles.iter().find(|t| t.river_sides() != 0)?;
        if start.river_sides() == 0 {
            let text = format!(
                "the river: the deck holds river tiles (`{}`…) but the start tile `{}` is no \
                 river tile, so the river could never be placed (start with the spring: \
                 `start RI/s`)",
                river.id, start.id
            );
            return Some(Conflict {
                text,
                about: ConflictAbout::Start,
            });
        }
        too_many_river_ends(rules)
    }

    fn configure<X: Holds<Self>>(g: &mut Game<X>) {
        let u_turn = match OPT_U_TURN.choice_in(&g.rules().rules) {
            "lookahead" => UTurn::Lookahead,
            _ => UTurn::SameWayTwice,
        };
        let volcano_tile = OPT_VOLCANO.choice_in(&g.rules().rules) != "plain";
        let r = g.ext.state_mut();
        r.u_turn = u_turn;
        r.volcano_tile = volcano_tile;
        if volcano_tile {
            g.bare_marks |= VOLCANO;
        }
    }

    fn another_tile<X: Holds<Self>>(g: &mut Game<X>, _player: u8) -> bool {
        std::mem::take(&mut g.ext.state_mut().tile_due)
    }

    fn set_up<X: Holds<Self>>(g: &mut Game<X>) {
        // the start tile (the spring) opens the river's first ends
        extend(g, 0);
    }

    fn on<X: Holds<Self>, S: crate::engine::event::EventSink>(
        g: &mut Game<X>,
        _s: &mut S,
        at: Hook,
        _answer: Option<usize>,
    ) -> bool {
        if at == Hook::TilePlaced {
            let last = g.last_placed;
            extend(g, last);
            let tile = g.placed_tiles()[last].tile;
            if g.rules().tiles[tile as usize].marks & VOLCANO != 0 && g.ext.state().volcano_tile {
                g.ext.state_mut().tile_due = true;
            }
            if g.ext.state().n_ends > 0 {
                g.ext.arm(Hook::TilePlaced);
            }
        }
        false
    }

    /// A thin entry, inlined into the placement scan: most tiles of a game are land tiles
    /// drawn once the river has no open end, with nothing to refuse.
    #[inline]
    fn restrict_placements<X: Holds<Self>>(g: &mut Game<X>, tile: TileIdx) {
        let land = g.rules().tiles[tile as usize].river == 0;
        if land && g.ext.state().n_ends == 0 {
            return;
        }
        restrict_river(g, tile, land);
    }

    fn order_deck<X: Holds<Self>>(g: &mut Game<X>) {
        let rules = &g.rules;
        let rank = |t: &TileIdx| {
            let ct = &rules.tiles[*t as usize];
            match (ct.river != 0, ct.marks & FORK != 0, ct.marks & LAKE != 0) {
                (true, true, _) => 0u8,
                (true, _, true) => 2,
                (true, _, _) => 1,
                _ => 3,
            }
        };
        // a stable sort of the unseen tiles: each group keeps the order the keys gave it
        let from = g.deck_pos.min(g.deck.len());
        let unseen = &mut g.deck[from..];
        if unseen.len() > ORDER_BUF {
            unseen.sort_by_key(rank);
            return;
        }
        // the same order as the stable sort, in one pass from the back: the land tiles (most
        // of the pack) move back in their order, the river tiles wait aside (in reverse) and
        // then go to the front by rank
        let mut aside = [0 as TileIdx; ORDER_BUF];
        let mut n_aside = 0;
        let mut land = unseen.len();
        // (the tile types as a slice: read once, not again after each store)
        let types: &[crate::engine::compiled::CompiledTile] = &rules.tiles;
        for i in (0..unseen.len()).rev() {
            let t = unseen[i];
            if types[t as usize].river == 0 {
                // (land > i: the slot written was read already)
                land -= 1;
                unseen[land] = t;
            } else {
                aside[n_aside] = t;
                n_aside += 1;
            }
        }
        let aside = &aside[..n_aside];
        let mut at = [0usize; 3];
        for t in aside {
            // (each rank's start: after the ranks before it)
            for a in &mut at[rank(t) as usize + 1..] {
                *a += 1;
            }
        }
        for t in aside.iter().rev() {
            let r = rank(t) as usize;
            unseen[at[r]] = *t;
            at[r] += 1;
        }
    }
}

impl Valuation for River {}

impl Presentation for River {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_are_read_clockwise() {
        // flowing north (out by N), then out by E: a right turn
        assert_eq!(turn(0, 1), 1);
        assert_eq!(turn(0, 3), -1);
        assert_eq!(turn(1, 1), 0);
        assert_eq!(turn(3, 0), 1);
        assert_eq!(turn(0, 2), 2);
    }

    #[test]
    fn an_end_flows_into_the_cell_beyond_its_side() {
        let e = End {
            x: 2,
            y: 3,
            side: Side::E.index() as u8,
            turn: 0,
        };
        assert_eq!(e.target(), (3, 3));
    }
}
