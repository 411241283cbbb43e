//! The greedy policy's valuations of the options of the decision being asked: the points a
//! placement would bring the deciding player now (features it completes that the player holds
//! or could claim with its follower), the value of a follower spot, of a tile of the hand. An
//! expansion's decisions are valued by the hints its module declares (`Game::value_hint`).
//! Read-only: built on the deciding seat's view ([`SeatView`]: the public state and its own
//! hand, never the pack's order or the other hands).

use crate::engine::compiled::{CompiledTile, Rotation};
use crate::engine::{majority, SeatView, MAX_PLAYERS, NONE, NO_NODE};
use crate::ruleset::{TileIdx, Vars};
use crate::tiles::FeatureKind;

/// Distinct tiles over several features plus `extra` new tiles.
fn tiles_of(g: &SeatView, roots: &[u32], extra: u32) -> u32 {
    let mut seen: [u16; 64] = [0; 64];
    let mut len = 0usize;
    let mut more: Vec<u16> = Vec::new();
    for &r in roots {
        let mut n = g.feature(r).head;
        while n != NO_NODE {
            let t = g.segment_node(n).tile;
            if !seen[..len].contains(&t) && !more.contains(&t) {
                if len < seen.len() {
                    seen[len] = t;
                    len += 1;
                } else {
                    more.push(t);
                }
            }
            n = g.segment_node(n).next;
        }
    }
    (len + more.len()) as u32 + extra
}

fn completed_points(g: &SeatView, kind: FeatureKind, tiles: u32, pennants: u32) -> i64 {
    let sc = &g.rules().rules.scoring;
    let vars = Vars {
        tiles: tiles as i64,
        pennants: pennants as i64,
        neighbours: 8,
        ..Vars::default()
    };
    match kind {
        FeatureKind::Road => sc.road_complete.eval(&vars),
        FeatureKind::City => match &sc.city_small_complete {
            Some(small) if tiles == 2 => small.eval(&vars),
            _ => sc.city_complete.eval(&vars),
        },
        FeatureKind::Cloister => sc.cloister_complete.eval(&vars),
        FeatureKind::Field => 0,
    }
}
/// Held cloisters one tile short of complete that [`Placements`] keeps in place; with more,
/// it looks them up per option.
const CLOSING_KEPT: usize = 16;

/// The placement options of one decision, valued by the points each brings the deciding
/// player this turn (features it completes that the player holds or could claim with its
/// follower). What all options share is found once: the open cloisters one tile short of
/// complete that the player holds.
pub(crate) struct Placements {
    player: u8,
    can_claim: bool,
    /// Cells of the held cloisters that have seven neighbours (a tile next to one completes
    /// it), when there are at most [`CLOSING_KEPT`] of them.
    closing: [(i32, i32); CLOSING_KEPT],
    n_closing: usize,
    /// More than [`CLOSING_KEPT`]: look at every open cloister per option.
    closing_overflow: bool,
    /// What a completed cloister scores.
    cloister_points: i64,
}

impl Placements {
    pub(crate) fn new(g: &SeatView, player: u8) -> Placements {
        let mut v = Placements {
            player,
            can_claim: g
                .follower_kinds()
                .any(|k| g.supply_of(player, k) > 0 && k.weight() > 0 && !k.spec().needs_own),
            closing: [(0, 0); CLOSING_KEPT],
            n_closing: 0,
            closing_overflow: false,
            cloister_points: completed_points(g, FeatureKind::Cloister, 9, 0),
        };
        for &c in g.open_cloisters() {
            if let Some(cell) = closing_cloister(g, c, player) {
                if v.n_closing == CLOSING_KEPT {
                    v.closing_overflow = true;
                    break;
                }
                v.closing[v.n_closing] = cell;
                v.n_closing += 1;
            }
        }
        v
    }

    /// Points placement option `i` (of the current tile) brings the player this turn.
    ///
    /// Called for every placement option, so it looks only at what can score: the tile's city
    /// and road segments (each reaches a side, so at most four) and the features they join,
    /// the held cloisters next to the cell, and the tile's own cloister.
    pub(crate) fn value(&self, g: &SeatView, i: usize) -> i64 {
        let (x, y, rot) = g.placement_spot(i);
        self.value_at(g, g.current_tile(), x, y, rot)
    }

    /// Points `tile` placed at (x, y) turned `rot` (a legal placement) brings the player.
    pub(crate) fn value_at(&self, g: &SeatView, tile: TileIdx, x: i32, y: i32, rot: u8) -> i64 {
        let ct = &g.rules().tiles[tile as usize];
        let r = &ct.rotations[rot as usize];
        let near = |(cx, cy): (i32, i32)| (cx - x).abs() <= 1 && (cy - y).abs() <= 1;
        let cloisters = if self.closing_overflow {
            let player = self.player;
            g.open_cloisters()
                .iter()
                .filter_map(|&c| closing_cloister(g, c, player))
                .filter(|&cell| near(cell))
                .count()
        } else {
            self.closing[..self.n_closing]
                .iter()
                .filter(|&&cell| near(cell))
                .count()
        };
        let mut gain = cloisters as i64 * self.cloister_points;
        let mut best_claim = 0i64;
        if ct.cloister != NONE && self.can_claim && g.neighbours(x, y) == 8 {
            best_claim = self.cloister_points;
        }
        // a city or road closes only when every side it reaches meets a tile: most options
        // close nothing, found without a lookup
        let occupied = g.occupied_sides(x, y);
        let may_close = (0..4).any(|s| {
            let seg = r.side_seg[s];
            seg != NONE && r.seg_sides[seg as usize] & !occupied == 0
        });
        if may_close {
            let (points, claim) = self.closed_features(g, (x, y), occupied, ct, r);
            gain += points;
            best_claim = best_claim.max(claim);
        }
        gain + best_claim
    }

    /// The points of the cities and roads that tile `ct`, turned as `r`, completes at `at`
    /// (whose sides `occupied` meet tiles) for the player, and the best one nobody holds that
    /// its follower could claim.
    fn closed_features(
        &self,
        g: &SeatView,
        (x, y): (i32, i32),
        occupied: u8,
        ct: &CompiledTile,
        r: &Rotation,
    ) -> (i64, i64) {
        let p = self.player as usize;
        // per city/road segment (in order of the sides it reaches): the neighbour roots it joins
        // and how many joins
        let mut segs = [NONE; 4];
        let mut nsegs = 0usize;
        let mut roots = [[NO_NODE; 4]; 4];
        let mut nroots = [0usize; 4];
        let mut joins = [0i32; 4];
        for s in 0..4usize {
            let seg = r.side_seg[s];
            if seg == NONE {
                continue;
            }
            let si = match segs[..nsegs].iter().position(|&q| q == seg) {
                Some(k) => k,
                None => {
                    segs[nsegs] = seg;
                    nsegs += 1;
                    nsegs - 1
                }
            };
            if occupied & (1 << s) == 0 {
                continue;
            }
            let (dx, dy) = [(0, -1), (1, 0), (0, 1), (-1, 0)][s];
            let Some(nb) = g.tile_at(x + dx, y + dy) else {
                continue;
            };
            let nbt = g.placed_tiles()[nb];
            let nr = &g.rules().tiles[nbt.tile as usize].rotations[nbt.rot as usize];
            let b = nr.side_seg[(s + 2) & 3];
            if b == NONE {
                continue;
            }
            let root = g.feature_of(nbt.node0 + b as u32);
            joins[si] += 1;
            if !roots[si][..nroots[si]].contains(&root) {
                roots[si][nroots[si]] = root;
                nroots[si] += 1;
            }
        }
        // group segments that reach a common root
        let mut group = [0usize, 1, 2, 3];
        for a in 0..nsegs {
            for b in a + 1..nsegs {
                if roots[a][..nroots[a]]
                    .iter()
                    .any(|ra| roots[b][..nroots[b]].contains(ra))
                {
                    let (ga, gb) = (group[a], group[b]);
                    for m in group.iter_mut().take(nsegs) {
                        if *m == gb {
                            *m = ga;
                        }
                    }
                }
            }
        }
        let mut gain = 0i64;
        let mut best_claim = 0i64;
        for gi in 0..nsegs {
            if group[..gi].contains(&group[gi]) {
                continue; // group already counted at its first member
            }
            let kind = ct.segments[segs[gi] as usize].kind;
            // at most one root per side of the tile
            let mut rs = [0u32; 4];
            let mut nrs = 0usize;
            let mut open = 0i32;
            let mut pennants = 0u32;
            let mut followers = [0u8; MAX_PLAYERS];
            for k in 0..nsegs {
                if group[k] != group[gi] {
                    continue;
                }
                let seg = segs[k] as usize;
                open += r.seg_sides[seg].count_ones() as i32 - 2 * joins[k];
                pennants += ct.segments[seg].pennants as u32;
                for &root in &roots[k][..nroots[k]] {
                    if !rs[..nrs].contains(&root) && nrs < rs.len() {
                        rs[nrs] = root;
                        nrs += 1;
                    }
                }
            }
            for &root in &rs[..nrs] {
                let c = g.feature(root);
                open += c.open;
                pennants += c.pennants;
                for (f, &n) in followers.iter_mut().zip(&c.followers) {
                    *f += n;
                }
            }
            if open != 0 {
                continue;
            }
            let points = completed_points(g, kind, tiles_of(g, &rs[..nrs], 1), pennants);
            let winners = majority(&followers);
            if winners == 0 {
                if self.can_claim {
                    best_claim = best_claim.max(points);
                }
            } else if winners & (1 << p) != 0 {
                gain += points;
            }
        }
        (gain, best_claim)
    }
}

/// Tile-pick option `i`: the points the tile's best placement brings the player now (what
/// greedy would take after choosing it; 0 when it closes nothing).
pub(crate) fn tile_pick(g: &SeatView, i: usize, player: u8) -> i64 {
    let tile = g.pick_option(i);
    let placements = Placements::new(g, player);
    let mut best = i64::MIN;
    g.each_placement(tile, |x, y, rot| {
        best = best.max(placements.value_at(g, tile, x, y, rot));
    });
    best.max(0)
}

/// The cell of open cloister `c` (a placed-tile index) when `player` holds it and it has
/// seven neighbours: a tile next to it completes it.
fn closing_cloister(g: &SeatView, c: u32, player: u8) -> Option<(i32, i32)> {
    let t = g.placed_tiles()[c as usize];
    let seg = g.rules().tiles[t.tile as usize].cloister;
    let held = g.feature(t.node0 + seg as u32).followers[player as usize] > 0;
    (held && g.neighbours(t.x, t.y) == 7).then_some((t.x, t.y))
}

/// Value of follower option `i` on the tile just placed: the points if the feature is
/// complete now, else half of what it would score at the end as it stands; 0 for none.
pub(crate) fn follower(g: &SeatView, i: usize, player: u8) -> i64 {
    let seg = g.follower_option(i);
    if seg == NONE {
        return 0;
    }
    // a follower of another kind: one of weight 0 adds nothing to the majority (a builder, a
    // pig), so its expansion says what it brings; one of weight 1 or more is worth the
    // feature's worth (its extra weight is worth keeping for a contest: a plain follower is
    // preferred on an equal spot)
    let kind = g.follower_option_kind(i);
    let pidx = g.placed_tiles().len() - 1;
    let t = g.placed_tiles()[pidx];
    let node = t.node0 + seg as u32;
    if kind.weight() == 0 {
        return g.follower_kind_value(kind, node, player);
    }
    let spare = i64::from(!kind.is_plain());
    let root = g.feature_of(node);
    let c = g.feature(root);
    let worth = match c.kind {
        FeatureKind::City | FeatureKind::Road => {
            let tiles = tiles_of(g, &[root], 0);
            if c.open == 0 {
                let points = completed_points(g, c.kind, tiles, c.pennants);
                g.rescored(root, c.kind, true, tiles, c.pennants, points)
            } else {
                let vars = Vars {
                    tiles: tiles as i64,
                    pennants: c.pennants as i64,
                    ..Vars::default()
                };
                let sc = &g.rules().rules.scoring;
                let f = if c.kind == FeatureKind::City {
                    &sc.city_final
                } else {
                    &sc.road_final
                };
                // half of what it is worth at the end as it stands (an expansion's say: an
                // unfinished inn road is worth nothing), at least 1
                let fin = g.rescored(root, c.kind, false, tiles, c.pennants, f.eval(&vars));
                (fin / 2).max(1)
            }
        }
        FeatureKind::Cloister => {
            let n = g.neighbours(t.x, t.y) as i64;
            if n == 8 {
                completed_points(g, FeatureKind::Cloister, 9, 0)
            } else {
                ((1 + n) / 2).max(1)
            }
        }
        FeatureKind::Field => {
            // completed cities the field touches now, at half value
            let cities = g.completed_cities_around(root);
            let per = g.rules().rules.scoring.farm_city.eval(&Vars {
                cities: 1,
                ..Vars::default()
            });
            (per * cities as i64) / 2
        }
    };
    worth - spare
}

#[cfg(test)]
mod tests {
    use super::Placements;
    use crate::engine::{Chooser, Decision, DecisionKind, Game, NoEvents, SeatView};
    use crate::policy::test_support::{bundled, rules};

    /// At every placement, values each option for every player with the kept list and with
    /// the fallback forced; then takes the keyed option (a spread of positions).
    #[derive(Default)]
    struct BothWays {
        compared: u32,
        with_cloisters: u32,
    }

    impl Chooser for BothWays {
        fn choose(&mut self, g: &Game, d: &Decision) -> usize {
            if d.kind == DecisionKind::PLACEMENT {
                for p in 0..g.players() {
                    let v = &SeatView::new(g, p);
                    let kept = Placements::new(v, p);
                    let mut fallback = Placements::new(v, p);
                    fallback.closing_overflow = true;
                    self.with_cloisters += (kept.n_closing > 0) as u32;
                    for i in 0..d.options {
                        assert_eq!(
                            kept.value(v, i),
                            fallback.value(v, i),
                            "{} seed {} turn {} option {i}",
                            g.rules().rules.name,
                            g.seed(),
                            g.turn()
                        );
                        self.compared += 1;
                    }
                }
            }
            (d.key % d.options as u64) as usize
        }
    }

    /// The fallback for more held closing cloisters than `Placements` keeps (never reached in
    /// real games) values every option as the kept list does.
    #[test]
    fn the_closing_cloister_fallback_values_as_the_kept_list() {
        let mut both = BothWays::default();
        for path in bundled() {
            for (seed, players) in [(1u64, 2u8), (2, 3), (3, 5)] {
                Game::new(rules(&path), seed, players).play(&mut both, &mut NoEvents);
            }
        }
        let BothWays {
            compared,
            with_cloisters,
        } = both;
        assert!(compared > 100_000, "{compared} valuations");
        assert!(
            with_cloisters > 10,
            "{with_cloisters} positions with a closing cloister"
        );
    }
}
