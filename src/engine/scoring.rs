//! Scoring: which features a placement completes, who holds the majority, what the ruleset's
//! formulas pay, and final scoring (incomplete features, then farms under the ruleset's farm
//! rule). Points go through `Game::award`, and each scored feature is announced, so the
//! expansions hear every scoring (`hooks.rs`).

use crate::engine::event::{Event, EventSink, Phase};
use crate::engine::game::{Game, MAX_PLAYERS, NIL};
use crate::engine::hooks::{Expansions, Notice};
use crate::engine::outcome::Category;
use crate::ruleset::{FarmRule, Vars};
use crate::tiles::FeatureKind;

/// Who wins a feature: bit per seat holding the most followers, counted by their kinds'
/// weights (0 = unoccupied, or held only by pieces of weight 0).
pub fn majority(followers: &[u8; MAX_PLAYERS]) -> u8 {
    let max = *followers.iter().max().unwrap_or(&0);
    if max == 0 {
        return 0;
    }
    let mut mask = 0u8;
    for (p, &n) in followers.iter().enumerate() {
        if n == max {
            mask |= 1 << p;
        }
    }
    mask
}

pub(crate) fn category_of(kind: FeatureKind) -> Category {
    match kind {
        FeatureKind::City => Category::CITY,
        FeatureKind::Road => Category::ROAD,
        FeatureKind::Cloister => Category::CLOISTER,
        FeatureKind::Field => Category::FIELD,
    }
}

impl<X: Expansions> Game<X> {
    /// Features (by root node) the tile at `pidx` completes, in canonical order: the tile's
    /// own city/road segments in segment order, then cloisters on it and around it in the
    /// order they were placed.
    pub(crate) fn find_completed(&mut self, pidx: usize) {
        self.completed.clear();
        let t = self.placed[pidx];
        self.completed_on(pidx);
        if self.touched != NIL {
            // a tile an expansion changed this turn (a bridge on a neighbour)
            self.completed_on(self.touched as usize);
        }
        if self.ext.touches_tiles() {
            // tiles an expansion changed this turn (a ferry moved on a lake)
            let mut k = 0;
            while let Some(p) = X::touched_tile(self, k) {
                self.completed_on(p as usize);
                k += 1;
            }
        }
        // cloisters on or around the new tile that it gave their eighth neighbour
        if self.filled_near != 0 {
            self.complete_filled_cloisters(t);
        }
    }

    /// Placed tile `i`'s cloister is complete (taken out of `open_cloisters` already): done,
    /// its cell no longer flagged, its node into `completed`.
    fn close_cloister(&mut self, i: usize) {
        let c = self.placed[i];
        self.placed[i].cloister_done = true;
        self.board.at(self.cell_index(c.x, c.y)).cloister = false;
        let seg = self.rules.tiles[c.tile as usize].cloister;
        self.completed.push(c.node0 + seg as u32);
    }

    /// The cloisters [`Game::find_completed`] completes around the new tile `t`: those
    /// `place_tile` found with all 8 neighbours (`filled_near`, a bit per cell of the tile's
    /// 3 × 3 block), in the order they were placed.
    #[inline(never)]
    fn complete_filled_cloisters(&mut self, t: crate::engine::game::PlacedTile) {
        let mut near = [0u32; 9];
        let mut n = 0;
        let mut bits = self.filled_near;
        while bits != 0 {
            let k = bits.trailing_zeros() as i32;
            bits &= bits - 1;
            let (x, y) = (t.x + k % 3 - 1, t.y + k / 3 - 1);
            near[n] = self.board.get(self.cell_index(x, y)).tile as u32 - 1;
            n += 1;
        }
        // placing order (the cells are in board order)
        near[..n].sort_unstable();
        for &i in &near[..n] {
            // (`open_cloisters` is in placing order)
            if let Ok(k) = self.open_cloisters.binary_search(&i) {
                self.open_cloisters.remove(k);
            }
            self.close_cloister(i as usize);
        }
    }

    /// Add the roads and cities of the tile at `pidx` that are complete and not yet scored
    /// to `completed`, in segment order.
    fn completed_on(&mut self, pidx: usize) {
        let t = self.placed[pidx];
        let closable = self.rules.tiles[t.tile as usize].closable.len();
        for k in 0..closable {
            // (indexed again each round: `root` borrows the whole game)
            let i = self.rules.tiles[t.tile as usize].closable[k];
            let r = self.root(t.node0 + i as u32);
            let c = &self.comps[r as usize];
            if c.open == 0 && !c.done && !self.completed.contains(&r) {
                self.completed.push(r);
            }
        }
    }

    /// Score every feature the tile at `pidx` completed (a scoring step, when there is one).
    pub(crate) fn score_completed<S: EventSink>(&mut self, s: &mut S, pidx: usize) {
        self.find_completed(pidx);
        if self.completed.is_empty() {
            return;
        }
        X::notify(self, s, Notice::ScoringBegins);
        let completed = std::mem::take(&mut self.completed);
        for &root in &completed {
            self.score_complete_feature(s, root);
        }
        self.completed = completed;
    }

    /// The points a feature is worth, complete or at the end.
    pub(crate) fn feature_points(&mut self, root: u32, complete: bool) -> (i64, u32) {
        let comp = self.comps[root as usize];
        let sc = &self.rules.rules.scoring;
        match comp.kind {
            FeatureKind::Cloister => {
                let (x, y, _) = self.node_spot(root);
                let n = self.neighbours(x, y);
                let vars = Vars {
                    tiles: n as i64 + 1,
                    neighbours: n as i64,
                    ..Vars::default()
                };
                let f = if complete {
                    &sc.cloister_complete
                } else {
                    &sc.cloister_final
                };
                let points = f.eval(&vars);
                let kind = FeatureKind::Cloister;
                (self.rescored(root, kind, complete, n + 1, 0, points), n + 1)
            }
            FeatureKind::City | FeatureKind::Road => {
                let tiles = self.component_tiles(root);
                let points = self.road_city_points(comp.kind, complete, tiles, comp.pennants);
                (
                    self.rescored(root, comp.kind, complete, tiles, comp.pennants, points),
                    tiles,
                )
            }
            FeatureKind::Field => (0, 0),
        }
    }

    /// What feature `root` (of `kind`, `tiles` tiles and `pennants` pennants) is worth,
    /// `complete` or at the end, once the expansions taking part have had their say on
    /// `points`, the ruleset's value (an inn, a cathedral: `Expansion::feature_points`). The
    /// policies value features through it too.
    #[inline]
    pub fn rescored(
        &self,
        root: u32,
        kind: FeatureKind,
        complete: bool,
        tiles: u32,
        pennants: u32,
        points: i64,
    ) -> i64 {
        if self.ext.rescores() {
            X::feature_points(self, root, kind, complete, tiles, pennants, points)
        } else {
            points
        }
    }

    /// The segment marks of feature `root`: those of every segment it holds (see
    /// `Expansion::SEGMENT_MARKS`), kept at the root.
    #[inline]
    pub fn feature_marks(&self, root: u32) -> u8 {
        self.comps[root as usize].marks
    }

    /// [`Game::feature_marks`] by a walk of the feature's segments (for `check_invariants`).
    pub(crate) fn feature_marks_walked(&self, root: u32) -> u8 {
        let mut marks = 0u8;
        let mut n = self.comps[root as usize].head;
        while n != NIL {
            let node = self.nodes[n as usize];
            let t = self.placed[node.tile as usize].tile;
            marks |= self.rules.tiles[t as usize].segments[node.seg as usize].marks;
            n = node.next;
        }
        marks
    }

    /// What a road or city of `tiles` tiles and `pennants` pennants is worth under the
    /// ruleset, complete or at the end.
    pub(crate) fn road_city_points(
        &self,
        kind: FeatureKind,
        complete: bool,
        tiles: u32,
        pennants: u32,
    ) -> i64 {
        let sc = &self.rules.rules.scoring;
        let vars = Vars {
            tiles: tiles as i64,
            pennants: pennants as i64,
            ..Vars::default()
        };
        let f = match (kind, complete) {
            (FeatureKind::Road, true) => &sc.road_complete,
            (FeatureKind::Road, false) => &sc.road_final,
            (_, true) => match &sc.city_small_complete {
                Some(small) if tiles == 2 => small,
                _ => &sc.city_complete,
            },
            (_, false) => &sc.city_final,
        };
        f.eval(&vars)
    }

    /// Score one completed feature: announce it, pay the majority, return followers.
    fn score_complete_feature<S: EventSink>(&mut self, s: &mut S, root: u32) {
        let comp = self.comps[root as usize];
        let winners = majority(&comp.followers);
        let (points, tiles) = self.feature_points(root, true);
        self.comps[root as usize].done = true;
        X::notify(
            self,
            s,
            Notice::FeatureScored {
                root,
                winners,
                complete: true,
                points,
            },
        );
        if comp.nfollowers == 0 {
            return;
        }
        let (x, y, _) = self.node_spot(comp.head);
        // (nobody wins a feature held only by pieces of weight 0: they go home all the same)
        self.pay(s, Phase::Turn, comp.kind, (x, y), winners, points, tiles);
        // followers of every kind go home
        let mut i = 0;
        while i < self.followers.len() {
            let node = self.followers[i].node;
            if self.root(node) == root {
                self.return_follower_only(s, i);
            } else {
                i += 1;
            }
        }
    }

    /// Final scoring: incomplete roads, cities and cloisters, then farms. The expansions'
    /// final scoring follows (see the final hooks in `turn.rs`).
    pub(crate) fn final_scoring<S: EventSink>(&mut self, s: &mut S) {
        X::notify(self, s, Notice::FinalScoringBegins);
        // Incomplete features, in the order their first follower was placed.
        let mut seen: Vec<u32> = Vec::with_capacity(self.followers.len());
        for i in 0..self.followers.len() {
            let node = self.followers[i].node;
            let r = self.root(node);
            let comp = self.comps[r as usize];
            if comp.kind == FeatureKind::Field || comp.done || seen.contains(&r) {
                continue;
            }
            seen.push(r);
            let winners = majority(&comp.followers);
            let (points, tiles) = self.feature_points(r, false);
            X::notify(
                self,
                s,
                Notice::FeatureScored {
                    root: r,
                    winners,
                    complete: false,
                    points,
                },
            );
            let (x, y, _) = self.node_spot(comp.head);
            self.pay(s, Phase::Final, comp.kind, (x, y), winners, points, tiles);
        }
        self.score_farms(s);
    }

    /// The city roots a field component touches, segment by segment in chain order (a city
    /// touched by several segments comes once for each): the walk behind
    /// [`Game::field_cities`], [`Game::completed_cities_around`] and the policies' farm
    /// valuations.
    pub fn field_city_roots(&self, root: u32) -> impl Iterator<Item = u32> + '_ {
        let mut n = self.comps[root as usize].head;
        let (mut node0, mut cities) = (0u32, 0u32);
        std::iter::from_fn(move || {
            while cities == 0 {
                if n == NIL {
                    return None;
                }
                let node = self.nodes[n as usize];
                let t = self.placed[node.tile as usize];
                node0 = t.node0;
                cities =
                    self.rules.tiles[t.tile as usize].segments[node.seg as usize].cities as u32;
                n = node.next;
            }
            let c = cities.trailing_zeros();
            cities &= cities - 1;
            Some(self.root_of(node0 + c))
        })
    }

    /// Distinct city roots a field component touches (completed ones only when
    /// `completed_only`), in chain order.
    pub(crate) fn field_cities(&self, root: u32, out: &mut Vec<u32>, completed_only: bool) {
        out.clear();
        for r in self.field_city_roots(root) {
            if (!completed_only || self.comps[r as usize].open == 0) && !out.contains(&r) {
                out.push(r);
            }
        }
    }

    /// How many distinct completed cities a field component touches, without allocating
    /// (the policies ask it for every option they value).
    pub fn completed_cities_around(&self, root: u32) -> usize {
        let mut seen = [0u32; 32];
        let (mut len, mut more) = (0usize, Vec::new());
        for r in self.field_city_roots(root) {
            if self.comps[r as usize].open != 0 || seen[..len].contains(&r) || more.contains(&r) {
                continue;
            }
            if len < seen.len() {
                seen[len] = r;
                len += 1;
            } else {
                more.push(r);
            }
        }
        len + more.len()
    }

    /// Farms under the ruleset's farm rule.
    fn score_farms<S: EventSink>(&mut self, s: &mut S) {
        let rule = self.rules.rules.scoring.farm;
        if rule == FarmRule::Off {
            return;
        }
        let per_city = self.rules.rules.scoring.farm_city.eval(&Vars {
            cities: 1,
            ..Vars::default()
        });
        // occupied field components, in follower order
        let mut fields: Vec<u32> = Vec::new();
        for i in 0..self.followers.len() {
            let r = self.root(self.followers[i].node);
            if self.comps[r as usize].kind == FeatureKind::Field && !fields.contains(&r) {
                fields.push(r);
            }
        }
        let mut cities: Vec<u32> = Vec::new();
        match rule {
            FarmRule::PerField | FarmRule::OncePerPlayer => {
                let mut paid: Vec<(u8, u32)> = Vec::new();
                for &f in &fields {
                    let comp = self.comps[f as usize];
                    let winners = majority(&comp.followers);
                    self.field_cities(f, &mut cities, true);
                    let (x, y, _) = self.node_spot(comp.head);
                    if rule == FarmRule::PerField {
                        let points = cities
                            .iter()
                            .map(|&c| per_city + X::farm_city_bonus(self, c))
                            .sum();
                        let n = cities.len() as u32;
                        self.pay_field(s, f, (x, y), winners, points, n);
                    } else {
                        for p in 0..self.players {
                            if winners & (1 << p) == 0 {
                                continue;
                            }
                            let (mut n, mut points) = (0, 0);
                            for &c in &cities {
                                if !paid.contains(&(p, c)) {
                                    paid.push((p, c));
                                    n += 1;
                                    points += per_city + X::farm_city_bonus(self, c);
                                }
                            }
                            points += n * X::farm_winner_bonus(self, f, p);
                            self.pay(
                                s,
                                Phase::Final,
                                FeatureKind::Field,
                                (x, y),
                                1 << p,
                                points,
                                n as u32,
                            );
                        }
                    }
                }
            }
            FarmRule::CityCentric => {
                // farmers per player around each completed city, over all fields touching it
                let mut around: Vec<(u32, [u32; MAX_PLAYERS])> = Vec::new();
                // (city, field) pairs: where a winner's per-city bonus (a pig) is looked up
                let mut touching: Vec<(u32, u32)> = Vec::new();
                for &f in &fields {
                    let comp = self.comps[f as usize];
                    self.field_cities(f, &mut cities, true);
                    for &c in &cities {
                        touching.push((c, f));
                        let entry = match around.iter().position(|e| e.0 == c) {
                            Some(i) => i,
                            None => {
                                around.push((c, [0; MAX_PLAYERS]));
                                around.len() - 1
                            }
                        };
                        for p in 0..MAX_PLAYERS {
                            around[entry].1[p] += comp.followers[p] as u32;
                        }
                    }
                }
                for (city, counts) in around {
                    let max = *counts.iter().max().unwrap_or(&0);
                    if max == 0 {
                        continue;
                    }
                    let mut winners = 0u8;
                    for (p, &n) in counts.iter().enumerate() {
                        if n == max {
                            winners |= 1 << p;
                        }
                    }
                    let (x, y, _) = self.node_spot(self.comps[city as usize].head);
                    let points = per_city + X::farm_city_bonus(self, city);
                    // a winner's bonus: the best of the fields around the city
                    let mut plain = winners;
                    for p in (0..self.players).filter(|p| winners & (1 << p) != 0) {
                        let bonus = touching
                            .iter()
                            .filter(|&&(c, _)| c == city)
                            .map(|&(_, f)| X::farm_winner_bonus(self, f, p))
                            .max()
                            .unwrap_or(0);
                        if bonus != 0 {
                            plain &= !(1 << p);
                            let (own, at) = (points + bonus, (x, y));
                            self.pay(s, Phase::Final, FeatureKind::Field, at, 1 << p, own, 1);
                        }
                    }
                    self.pay(
                        s,
                        Phase::Final,
                        FeatureKind::Field,
                        (x, y),
                        plain,
                        points,
                        1,
                    );
                }
            }
            FarmRule::Off => {}
        }
    }

    /// Pay field `f`'s `winners` `points` each for `n` completed cities; a winner an
    /// expansion gives a bonus per city (a pig) is paid apart, after the others.
    fn pay_field<S: EventSink>(
        &mut self,
        s: &mut S,
        f: u32,
        at: (i32, i32),
        winners: u8,
        points: i64,
        n: u32,
    ) {
        let mut plain = winners;
        let mut bonus = [0i64; MAX_PLAYERS];
        for p in 0..self.players {
            if winners & (1 << p) != 0 {
                bonus[p as usize] = X::farm_winner_bonus(self, f, p) * n as i64;
                if bonus[p as usize] != 0 {
                    plain &= !(1 << p);
                }
            }
        }
        self.pay(s, Phase::Final, FeatureKind::Field, at, plain, points, n);
        for p in 0..self.players {
            if winners & !plain & (1 << p) != 0 {
                let own = points + bonus[p as usize];
                self.pay(s, Phase::Final, FeatureKind::Field, at, 1 << p, own, n);
            }
        }
    }

    /// Announce a scoring of a `feature` shown at `at` and pay `points` to every seat in
    /// `winners` (nothing when nobody holds it). `tiles` is the feature's size (for fields:
    /// the completed cities paid for).
    #[allow(clippy::too_many_arguments)]
    fn pay<S: EventSink>(
        &mut self,
        s: &mut S,
        phase: Phase,
        feature: FeatureKind,
        at: (i32, i32),
        winners: u8,
        points: i64,
        tiles: u32,
    ) {
        if winners == 0 {
            return;
        }
        let category = category_of(feature);
        self.emit(
            s,
            Event::Scored {
                turn: self.turn,
                phase,
                category,
                feature,
                x: at.0,
                y: at.1,
                winners,
                points,
                tiles,
            },
        );
        // from the active player clockwise: the order robbers see the markers move in
        for k in 0..self.players {
            let p = (self.active + k) % self.players;
            if winners & (1 << p) != 0 {
                self.award(s, p, category, points, true);
            }
        }
    }

    /// Followers per seat on the feature that holds segment `segment` of the tile at (x, y),
    /// or `None` when there is no tile there or no such segment. Read-only (replay
    /// diagnostics: "that feature is already occupied").
    pub fn feature_followers(&self, x: i32, y: i32, segment: u8) -> Option<[u8; MAX_PLAYERS]> {
        let pidx = self.tile_at(x, y)?;
        let t = &self.placed[pidx];
        if segment as usize >= self.rules.tiles[t.tile as usize].segments.len() {
            return None;
        }
        let root = self.root_of(t.node0 + segment as u32);
        Some(self.comps[root as usize].followers)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn majority_ties_all_score() {
        assert_eq!(majority(&[0; MAX_PLAYERS]), 0);
        assert_eq!(majority(&[1, 1, 0, 0, 0, 0]), 0b11);
        assert_eq!(majority(&[2, 1, 0, 0, 0, 0]), 0b1);
        assert_eq!(majority(&[0, 1, 0, 2, 0, 0]), 0b1000);
    }
}
