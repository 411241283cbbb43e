//! Read-only valuations of the options of the decision being asked, for the greedy policy:
//! the points a placement would bring the deciding player now (features it completes that
//! the player holds or could claim with its follower), the value of a follower spot, of an
//! ingot, a robber space, a victim, a crop-circle choice. Nothing here changes the game.

use crate::engine::compiled::NONE;
use crate::engine::game::{Game, MAX_PLAYERS, NIL};
use crate::engine::scoring::majority;
use crate::ruleset::Vars;
use crate::tiles::FeatureKind;

impl Game {
    /// Distinct tiles over several components plus `extra` new tiles (read-only).
    fn tiles_of(&self, roots: &[u32], extra: u32) -> u32 {
        let mut seen: Vec<u16> = Vec::with_capacity(32);
        for &r in roots {
            let mut n = self.comps[r as usize].head;
            while n != NIL {
                let t = self.nodes[n as usize].tile;
                if !seen.contains(&t) {
                    seen.push(t);
                }
                n = self.nodes[n as usize].next;
            }
        }
        seen.len() as u32 + extra
    }

    fn completed_points(&self, kind: FeatureKind, tiles: u32, pennants: u32) -> i64 {
        let sc = &self.rules.rules.scoring;
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

    /// Points placement option `i` (of the current tile) brings `player` this turn.
    pub fn value_placement(&self, i: usize, player: u8) -> i64 {
        let (cell, rot) = self.placement_option(i);
        let (x, y) = self.cell_xy(cell);
        let tile = self.current;
        let ct = &self.rules.tiles[tile as usize];
        let r = &ct.rotations[rot as usize];
        let can_claim = self.supply[player as usize] > 0;
        let p = player as usize;

        // per new city/road segment: the neighbour roots it joins and how many joins
        let nseg = ct.segments.len();
        let mut roots: [[u32; 4]; 16] = [[NIL; 4]; 16];
        let mut nroots = [0usize; 16];
        let mut joins = [0i32; 16];
        for s in 0..4usize {
            let seg = r.side_seg[s];
            if seg == NONE {
                continue;
            }
            let (dx, dy) = [(0, -1), (1, 0), (0, 1), (-1, 0)][s];
            let Some(nb) = self.tile_at(x + dx, y + dy) else {
                continue;
            };
            let nbt = self.placed[nb];
            let nr = &self.rules.tiles[nbt.tile as usize].rotations[nbt.rot as usize];
            let b = nr.side_seg[(s + 2) & 3];
            if b == NONE {
                continue;
            }
            let root = self.root_of(nbt.node0 + b as u32);
            let si = seg as usize;
            joins[si] += 1;
            if !roots[si][..nroots[si]].contains(&root) {
                roots[si][nroots[si]] = root;
                nroots[si] += 1;
            }
        }
        // group new segments that reach a common root
        let mut group: [usize; 16] = [0; 16];
        for (i, g) in group.iter_mut().enumerate().take(nseg) {
            *g = i;
        }
        for a in 0..nseg {
            for b in a + 1..nseg {
                if roots[a][..nroots[a]]
                    .iter()
                    .any(|ra| roots[b][..nroots[b]].contains(ra))
                {
                    let (ga, gb) = (group[a], group[b]);
                    for g in group.iter_mut().take(nseg) {
                        if *g == gb {
                            *g = ga;
                        }
                    }
                }
            }
        }
        let mut gain = 0i64;
        let mut best_claim = 0i64;
        for g in 0..nseg {
            let kind = ct.segments[g].kind;
            if !matches!(kind, FeatureKind::City | FeatureKind::Road) {
                continue;
            }
            if (0..nseg).any(|k| k < g && group[k] == group[g]) {
                continue; // group already counted at its first member
            }
            let mut rs: Vec<u32> = Vec::new();
            let mut open = 0i32;
            let mut pennants = 0u32;
            let mut followers = [0u8; MAX_PLAYERS];
            for k in 0..nseg {
                if group[k] != group[g] {
                    continue;
                }
                open += r.seg_sides[k].count_ones() as i32 - 2 * joins[k];
                pennants += ct.segments[k].pennants as u32;
                for &root in &roots[k][..nroots[k]] {
                    if !rs.contains(&root) {
                        rs.push(root);
                    }
                }
            }
            for &root in &rs {
                let c = &self.comps[root as usize];
                open += c.open;
                pennants += c.pennants;
                for (f, &n) in followers.iter_mut().zip(&c.followers) {
                    *f += n;
                }
            }
            if open != 0 {
                continue;
            }
            let points = self.completed_points(kind, self.tiles_of(&rs, 1), pennants);
            let winners = majority(&followers);
            if winners == 0 {
                if can_claim {
                    best_claim = best_claim.max(points);
                }
            } else if winners & (1 << p) != 0 {
                gain += points;
            }
        }
        // cloisters around (and on) the new tile
        for (dx, dy) in crate::engine::board::AROUND {
            let Some(i) = self.tile_at(x + dx, y + dy) else {
                continue;
            };
            let t = self.placed[i];
            let c = self.rules.tiles[t.tile as usize].cloister;
            if c == NONE || t.cloister_done || self.neighbours(t.x, t.y) != 7 {
                continue;
            }
            let comp = &self.comps[(t.node0 + c as u32) as usize];
            if comp.followers[p] > 0 {
                gain += self.completed_points(FeatureKind::Cloister, 9, 0);
            }
        }
        if ct.cloister != NONE && can_claim && self.neighbours_of_cell(cell) == 8 {
            best_claim = best_claim.max(self.completed_points(FeatureKind::Cloister, 9, 0));
        }
        gain + best_claim
    }

    fn neighbours_of_cell(&self, cell: u32) -> u32 {
        let (x, y) = self.cell_xy(cell);
        self.neighbours(x, y)
    }

    /// Value of follower option `i` on the tile just placed: the points if the feature is
    /// complete now, else half of what it would score at the end as it stands; 0 for none.
    pub fn value_follower(&self, i: usize, _player: u8) -> i64 {
        let seg = self.opt_follow[i];
        if seg == NONE {
            return 0;
        }
        let pidx = self.placed.len() - 1;
        let t = self.placed[pidx];
        let node = t.node0 + seg as u32;
        let root = self.root_of(node);
        let c = &self.comps[root as usize];
        match c.kind {
            FeatureKind::City | FeatureKind::Road => {
                let tiles = self.tiles_of(&[root], 0);
                if c.open == 0 {
                    self.completed_points(c.kind, tiles, c.pennants)
                } else {
                    let vars = Vars {
                        tiles: tiles as i64,
                        pennants: c.pennants as i64,
                        ..Vars::default()
                    };
                    let sc = &self.rules.rules.scoring;
                    let f = if c.kind == FeatureKind::City {
                        &sc.city_final
                    } else {
                        &sc.road_final
                    };
                    (f.eval(&vars) / 2).max(1)
                }
            }
            FeatureKind::Cloister => {
                let n = self.neighbours(t.x, t.y) as i64;
                if n == 8 {
                    self.completed_points(FeatureKind::Cloister, 9, 0)
                } else {
                    ((1 + n) / 2).max(1)
                }
            }
            FeatureKind::Field => {
                // completed cities the field touches now, at half value
                let mut cities: Vec<u32> = Vec::new();
                let mut n = c.head;
                while n != NIL {
                    let pt = self.placed[self.nodes[n as usize].tile as usize];
                    let mut mask = self.rules.tiles[pt.tile as usize].segments
                        [self.nodes[n as usize].seg as usize]
                        .cities;
                    while mask != 0 {
                        let b = mask.trailing_zeros();
                        mask &= mask - 1;
                        let r = self.root_of(pt.node0 + b);
                        if self.comps[r as usize].open == 0 && !cities.contains(&r) {
                            cities.push(r);
                        }
                    }
                    n = self.nodes[n as usize].next;
                }
                let per = self.rules.rules.scoring.farm_city.eval(&Vars {
                    cities: 1,
                    ..Vars::default()
                });
                (per * cities.len() as i64) / 2
            }
        }
    }

    /// How much `player` controls the features on placed tile `pidx`: +1 per feature it
    /// holds a majority in, −1 per feature another player holds.
    fn control(&self, pidx: usize, player: u8) -> i64 {
        let t = self.placed[pidx];
        let nseg = self.rules.tiles[t.tile as usize].segments.len();
        let mut v = 0;
        let mut seen: Vec<u32> = Vec::new();
        for k in 0..nseg {
            let r = self.root_of(t.node0 + k as u32);
            if seen.contains(&r) {
                continue;
            }
            seen.push(r);
            let c = &self.comps[r as usize];
            if c.kind == FeatureKind::Field || c.done {
                continue;
            }
            let w = majority(&c.followers);
            if w & (1 << player) != 0 {
                v += 1;
            } else if w != 0 {
                v -= 1;
            }
        }
        v
    }

    /// Value of putting the second ingot on option `i`: the player's control of that tile.
    pub fn value_ingot_place(&self, i: usize, player: u8) -> i64 {
        self.control(self.opt_tile[i] as usize, player)
    }

    /// Value of taking an ingot from option `i`: the more others could take it, the better.
    pub fn value_ingot_pick(&self, i: usize, _player: u8) -> i64 {
        let t = self.opt_tile[i];
        let mut v = self.placed[t as usize].ingots as i64;
        // contested tiles first: count claims' winners reaching it
        v += 10 * self.claimants(t) as i64;
        v
    }

    /// Value of robber option `i`: the score of the best-scoring other marker on that space.
    pub fn value_robber_space(&self, i: usize, player: u8) -> i64 {
        let space = self.opt_space[i];
        if space == NIL {
            return -1;
        }
        (0..self.players)
            .filter(|&q| q != player && self.marker_space(q) == space)
            .map(|q| self.score[q as usize])
            .max()
            .unwrap_or(-1)
    }

    /// Value of robbing candidate `i`: the points that victim scored this step.
    pub fn value_victim(&self, i: usize) -> i64 {
        self.victim_points(i)
    }

    /// Value of a crop-circle mode for the active player: its own followers of the circle's
    /// type minus the most any other player has (deploy when ahead, remove when behind).
    pub fn value_crop_mode(&self, deploy: bool, player: u8) -> i64 {
        let Some(kind) = self.rules.tiles[self.current as usize].crop else {
            return 0;
        };
        let mut count = [0i64; MAX_PLAYERS];
        for f in &self.followers {
            if self.seg_kind(f.node) == kind.feature() {
                count[f.player as usize] += 1;
            }
        }
        let mine = count[player as usize];
        let others = (0..self.players as usize)
            .filter(|&q| q != player as usize)
            .map(|q| count[q])
            .max()
            .unwrap_or(0);
        if deploy {
            mine - others
        } else {
            others - mine
        }
    }

    /// Value of crop deploy/remove option `i`: deploying anywhere beats passing; removing
    /// prefers the follower on the least valuable (fewest tiles) feature.
    pub fn value_crop_spot(&self, i: usize, remove: bool) -> i64 {
        let node = self.opt_node[i];
        if node == NIL {
            return 0;
        }
        let root = self.root_of(node);
        let tiles = self.tiles_of(&[root], 0) as i64;
        if remove {
            -tiles
        } else {
            1 + tiles
        }
    }
}
