//! The Gold Mines' turn: the ingot step after a gold tile is placed (the tile's ingot and the
//! neighbour the player picks), the claims noted as features are scored, the hand-out after
//! the turn's scoring (HiG draft one at a time, or the RGG wording one per feature, with the
//! leftovers kept or removed) and the value of the collected gold at the end.

use super::jcz_order::{java_map_capacity, most_contested};
use super::{
    Claim, ClaimArea, Gold, GoldAtEnd, GoldLeftover, GoldNeighbourhood, GoldPick, GoldSplit,
    UnclaimedGold, GOLD_MARK, GOLD_VALUE, INGOTS_REMOVED, INGOT_PICK, INGOT_PLACE, INGOT_PLACED,
    INGOT_TAKEN,
};
use crate::engine::event::{Event, EventSink, ExpansionEvent};
use crate::engine::game::{Game, NIL};
use crate::engine::hooks::{Holds, Hook};
use crate::ruleset::Vars;
use crate::tiles::FeatureKind;

impl<X: Holds<Gold>> Game<X> {
    /// Enter the ingot step: the gold tile's first ingot (if the tile is one). False when the
    /// tile is no gold tile: nothing to place.
    #[inline]
    pub(super) fn enter_ingots<S: EventSink>(&mut self, s: &mut S) -> bool {
        let gold_tile = self.rules.tiles[self.current as usize].marks & GOLD_MARK != 0;
        if gold_tile {
            self.ingots_begin(s, self.last_placed);
        } else {
            self.ext.state_mut().to_place = 0;
        }
        gold_tile
    }

    /// The gold tile just placed at `pidx` gets its first ingot; the others go to neighbours
    /// (see [`Game::ingots`]). Out of line: the hook's entry stays a test.
    #[inline(never)]
    pub(crate) fn ingots_begin<S: EventSink>(&mut self, s: &mut S, pidx: usize) {
        let Some(per_tile) = self.ext.state().config.as_ref().map(|r| r.ingots_per_tile) else {
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
    #[inline(never)]
    pub(crate) fn ingots<S: EventSink>(&mut self, s: &mut S, choice: Option<usize>) -> bool {
        let player = self.active;
        if let Some(i) = choice {
            let t = self.opt_tile[i];
            self.put_ingot(s, player, t);
            self.ext.state_mut().to_place -= 1;
        }
        let eight = self
            .ext
            .state()
            .config
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

    /// Whether an ingot may lie on the area of feature `root` ([`Game::gold_area`]): a road's
    /// or city's tiles are read without listing them (most scored features hold no gold); a
    /// cloister's area is not tested here (true).
    fn gold_on_feature(&self, root: u32) -> bool {
        if self.comps[root as usize].kind == FeatureKind::Cloister {
            return true;
        }
        let st = self.ext.state();
        let mut n = self.comps[root as usize].head;
        while n != NIL {
            if st.on(self.nodes[n as usize].tile as u32) > 0 {
                return true;
            }
            n = self.nodes[n as usize].next;
        }
        false
    }

    /// A completed feature was scored: its majority claims the gold on its area; the gold of
    /// an unoccupied one stays (or is removed, by option).
    pub(super) fn note_gold_claim(&mut self, at: ClaimArea, winners: u8) {
        let Some(unclaimed) = self.ext.state().config.as_ref().map(|g| g.unclaimed) else {
            return;
        };
        if self.ext.state_mut().on_board == 0 {
            return;
        }
        if let ClaimArea::Feature(root) = at {
            if !self.gold_on_feature(root) {
                return; // (no ingot on its area: nothing to claim, nothing to remove)
            }
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
            // (a claim, or gold left unclaimed: handed out or removed after the scoring)
            self.ext.arm(Hook::AfterScoring);
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
    pub(super) fn note_final_gold_claim(&mut self, at: ClaimArea, winners: u8) {
        let award = self
            .ext
            .state()
            .config
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
    #[inline(never)]
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
        let Some(split) = self.ext.state().config.as_ref().map(|g| g.split) else {
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
    #[inline(never)]
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
            let points = self.ext.state().config.as_ref().map_or(0, |g| {
                g.value
                    .eval(&Vars::default().with(super::INGOTS_HELD, ingots as i64))
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
