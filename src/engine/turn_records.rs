//! The end-of-turn records of a game in progress: at the end of the set-up, of each turn
//! and of final scoring, the running event hash, the order-independent state hash (the
//! board sum its [`StateTracker`] keeps, combined here with the per-seat numbers) and the
//! leading seats. What they are for, and what they cost: [`crate::engine::state_hash`].
//!
//! [`StateTracker`]: crate::engine::state_hash

use crate::engine::game::{Game, MAX_PLAYERS};
use crate::engine::hooks::Expansions;
use crate::engine::rng::{key, mix64};
use crate::engine::state_hash::HAND;

impl<X: Expansions> Game<X> {
    /// The end of the set-up, of a turn or of final scoring: record the running event hash,
    /// the state hash and the leading seats (when the game keeps its divergence records).
    /// Returns the leading seats (a bit per seat, all tied seats).
    pub(crate) fn close_turn_records(&mut self) -> u8 {
        let n = (self.players as usize).min(MAX_PLAYERS);
        let (mut max, mut leaders) = (i64::MIN, 0u8);
        for (p, &score) in self.score[..n].iter().enumerate() {
            if score > max {
                (max, leaders) = (score, 1 << p);
            } else if score == max {
                leaders |= 1 << p;
            }
        }
        if !self.divergence_records {
            return leaders;
        }
        self.turn_hashes.push(self.hash);
        // the seats' numbers as a polynomial in an odd multiplier (a difference in one seat
        // never cancels), one mix at the end with the board sum
        let mut seats = self.players as u64;
        for p in 0..n {
            // one word per seat: the score in the high half (scores stay far below 2^32),
            // supply and what the expansions hold for the seat (ingots, a robber's space)
            let small = self.supply[p] as u64
                ^ self.ext.seat_state(p).rotate_left(8)
                ^ self.other_kinds_word(p);
            seats = seats
                .wrapping_mul(SEAT_MULTIPLIER)
                .wrapping_add((self.score[p] as u64).rotate_left(32) ^ small);
        }
        if self.hand_size > 1 {
            seats = self.with_hands(seats);
        }
        self.tracker.hashes.push(key(self.tracker.board, seats));
        self.tracker.leaders.push(leaders);
        leaders
    }
}

impl<X: Expansions> Game<X> {
    /// How many followers of each other kind `seat` has out of its supply (on the board), as
    /// one word for its seat word: 0 while none is out, so a game whose expansions add a kind
    /// holds the same position as one without it until the first such follower is placed
    /// (divergence against it starts there), and 0 when no other kind is in play.
    #[inline]
    fn other_kinds_word(&self, seat: usize) -> u64 {
        let mut word = 0u64;
        let mut kinds = self.ext.follower_kinds() & !1;
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            // out of the supply: dealt (the ruleset's count) less what is left
            let out = self
                .follower_supply_dealt(crate::engine::FollowerKind(k as u8))
                .saturating_sub(self.kind_supply[seat][k]);
            word ^= (out as u64).rotate_left(40 + 5 * k as u32);
        }
        word
    }
}

impl<X> Game<X> {
    /// The tiles `seat` holds (the `hand` house rule) as one word, whatever their order: a
    /// wrapping sum of keyed tile hashes, 0 for an empty hand (so a hand of one, whose hands
    /// are empty at every turn's end, leaves the state hash as it was).
    fn hand_word(&self, seat: usize) -> u64 {
        self.hands[seat][..self.hand_len[seat] as usize]
            .iter()
            .fold(0u64, |h, &t| h.wrapping_add(mix64(HAND | (t as u64) << 8)))
    }

    /// The seats' word `seats` with every seat's hand added (hands of two or more only: a
    /// hand of one keeps the state hash it always had).
    #[inline(never)]
    fn with_hands(&self, mut seats: u64) -> u64 {
        for p in 0..(self.players as usize).min(MAX_PLAYERS) {
            seats = seats
                .wrapping_mul(SEAT_MULTIPLIER)
                .wrapping_add(self.hand_word(p));
        }
        seats
    }
}

/// Odd multiplier of the seats' polynomial.
const SEAT_MULTIPLIER: u64 = 0xA076_1D64_78BD_642F;
