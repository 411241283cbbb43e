//! The pack and the hands as the players see them: the tiles drawn and unseen, what a seat
//! cannot see, the determinizations a search plays on a copy, and taking a tile from the
//! pack. A second `impl` block of [`Game`]; dealing the pack at set-up stays in `game.rs`.

use crate::engine::game::Game;
use crate::engine::hooks::Expansions;
use crate::engine::rng;
use crate::ruleset::TileIdx;

impl<X: Expansions> Game<X> {
    /// Tiles drawn from the pack so far, in order (discarded ones and those dealt or drawn
    /// into hands included; the start tile excluded).
    pub fn drawn_tiles(&self) -> &[TileIdx] {
        &self.deck[..self.deck_pos]
    }
    /// The pack: the tiles not drawn yet, in the order they will be drawn (the real game's
    /// order is keyed by (seed, tile id, copy)). The pack only: tiles in the players' hands
    /// (the `hand` house rule) are not in it, though the other players cannot see them
    /// either (see [`Game::hidden_from`]).
    pub fn unseen(&self) -> &[TileIdx] {
        &self.deck[self.deck_pos..]
    }

    /// Every tile `viewer` cannot see: the pack, then the other players' hands in seat order.
    /// With a hand of one (hands are empty between turns and the turn's tile is on the table)
    /// it is exactly [`Game::unseen`].
    pub fn hidden_from(&self, viewer: u8) -> impl Iterator<Item = TileIdx> + '_ {
        let others = (0..self.players as usize)
            .filter(move |&p| p != viewer as usize)
            .flat_map(move |p| self.hands[p][..self.hand_len[p] as usize].iter().copied());
        self.unseen().iter().copied().chain(others)
    }

    /// How many tiles `viewer` cannot see (the length of [`Game::hidden_from`]).
    pub fn hidden_count(&self, viewer: u8) -> usize {
        let others: usize = (0..self.players as usize)
            .filter(|&p| p != viewer as usize)
            .map(|p| self.hand_len[p] as usize)
            .sum();
        self.remaining() + others
    }

    /// Re-order the unseen tiles by `key` (a determinization for search): call it on a copy,
    /// the original keeps the real order. The same key gives the same order. Shuffles the
    /// pack only: with hands, a search uses [`Game::determinize_for`].
    pub fn determinize(&mut self, key: u64) {
        let tail = &mut self.deck[self.deck_pos..];
        for i in (1..tail.len()).rev() {
            let j = rng::index(rng::key(key, i as u64), i + 1);
            tail.swap(i, j);
        }
        if self.ext.orders_deck() {
            X::order_deck(self); // the prelude holds in every sampled world
        }
        X::resample(self, key); // and the dice yet to roll are drawn anew (the flier's)
    }

    /// Redraw the deal from here (the same-rules placebo of a comparison): the unseen tiles
    /// of the pack are put in a new order keyed by `key`, as the set-up's deal orders the
    /// whole pack — every unseen copy gets a keyed hash of (`key`, tile id, its ordinal among
    /// the unseen copies of that tile) and the pack is drawn in key order — then an
    /// expansion's prelude is kept ([`crate::engine::hooks::Expansion::order_deck`]: the
    /// river's tiles still come first). The tiles drawn, on the board and in hands stay as
    /// they are. The same key on the same pack gives the same order, and two rulesets that
    /// share tiles redrawn with the same key draw the shared ones in the same relative
    /// order (the coupling of the original deal). Nothing is drawn from a shared stream.
    pub fn redraw_pack(&mut self, key: u64) {
        let from = self.deck_pos.min(self.deck.len());
        let keyed = &mut self.deck_keys;
        keyed.clear();
        for (i, &t) in self.deck[from..].iter().enumerate() {
            // the ordinal of this copy among the unseen copies of its tile (copies of one
            // tile are interchangeable: which gets which ordinal changes nothing)
            let copy = self.deck[from..from + i]
                .iter()
                .filter(|&&u| u == t)
                .count();
            let id = self.rules.tiles[t as usize].id_hash;
            keyed.push((rng::key(rng::key(key, id), copy as u64), t));
        }
        let sorted = crate::engine::deck_order::sort_keyed(keyed);
        for (slot, k) in self.deck[from..].iter_mut().zip(sorted) {
            *slot = k.1;
        }
        keyed.clear();
        if self.ext.orders_deck() {
            X::order_deck(self);
        }
    }

    /// Bring the first unseen copy of `tile` to the top of the pack (a copy's hypothetical
    /// draw: the luck meter values each tile that could come). False, changing nothing, when
    /// no copy is unseen.
    pub fn stack_next(&mut self, tile: TileIdx) -> bool {
        let top = self.deck_pos;
        match self.deck[top..].iter().position(|&t| t == tile) {
            Some(i) => {
                self.deck.swap(top, top + i);
                true
            }
            None => false,
        }
    }

    /// A determinization from `viewer`'s seat: the pack and the other players' hands are
    /// shuffled together by `key` and the other hands re-dealt from them, each the size it
    /// had; `viewer`'s own hand stays as it is. Without other hands (a hand of one) it is
    /// exactly [`Game::determinize`] with the same key. Call it on a copy.
    pub fn determinize_for(&mut self, viewer: u8, key: u64) {
        let n = self.players as usize;
        let others = (0..n).any(|p| p != viewer as usize && self.hand_len[p] > 0);
        if !others {
            self.determinize(key);
            return;
        }
        // the other hands go behind the pack, the whole is shuffled, and the hands are dealt
        // back from the end in the reverse order
        for p in (0..n).filter(|&p| p != viewer as usize) {
            let len = self.hand_len[p] as usize;
            self.deck.extend_from_slice(&self.hands[p][..len]);
        }
        self.determinize(key);
        for p in (0..n).rev().filter(|&p| p != viewer as usize) {
            for j in (0..self.hand_len[p] as usize).rev() {
                self.hands[p][j] = self.deck.pop().unwrap_or_default();
            }
        }
    }

    /// Put everything `viewer` cannot see in a canonical order: the pack and the other
    /// players' hands are sorted together by tile type and dealt back (the pack first, then
    /// the other hands in seat order, each the size it had), so that the result depends on
    /// the multiset only, not on the true order or on who holds what. `viewer`'s own hand
    /// stays. The start of a seat's determinization (`SeatView::determinize`): call it on a
    /// copy.
    pub(crate) fn sort_hidden_from(&mut self, viewer: u8) {
        let n = self.players as usize;
        let from = self.deck_pos.min(self.deck.len());
        let pack = self.deck.len() - from;
        for p in (0..n).filter(|&p| p != viewer as usize) {
            let len = self.hand_len[p] as usize;
            self.deck.extend_from_slice(&self.hands[p][..len]);
        }
        self.deck[from..].sort_unstable();
        let mut at = from + pack;
        for p in (0..n).filter(|&p| p != viewer as usize) {
            let len = self.hand_len[p] as usize;
            self.hands[p][..len].copy_from_slice(&self.deck[at..at + len]);
            at += len;
        }
        self.deck.truncate(from + pack);
    }

    /// Tiles each player holds (the ruleset's `hand`; 1 = no hands kept between turns).
    pub fn hand_size(&self) -> u8 {
        self.hand_size
    }

    /// The tiles `player` holds now (empty with a hand of one; during a turn the active
    /// player's hand no longer holds the tile being played).
    pub fn hand(&self, player: u8) -> &[TileIdx] {
        let p = player as usize;
        &self.hands[p][..self.hand_len[p] as usize]
    }

    /// The next tile of the pack, taken out of it (an expansion turning tiles up).
    pub(crate) fn take_from_pack(&mut self) -> Option<TileIdx> {
        let t = *self.deck.get(self.deck_pos)?;
        self.deck_pos += 1;
        Some(t)
    }

    /// Tiles left in the pack.
    pub fn remaining(&self) -> usize {
        self.deck.len() - self.deck_pos
    }
}
