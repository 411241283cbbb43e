//! What one seat may know: the [`SeatView`] a policy decides from, after OpenSpiel's
//! information state (a bot is given its player's information state, never the whole state).
//!
//! A view borrows the true game but hands out only what the deciding seat can see: the public
//! state (the board, its features and followers, the scores, the supplies, the decision's
//! options and their semantic form, the expansions' public state through their value hints),
//! the seat's own hand, and the tiles it cannot see as a **multiset** ([`SeatView::hidden_counts`]:
//! counts per tile type, no order). It never hands out a `&Game` of the true state, so a
//! policy cannot reach:
//!
//! - the pack's order (the next tile, and what an expansion turns up from the pack: a bazaar's
//!   auction),
//! - the other seats' hands (the `hand` house rule),
//! - the game's seed, from which the deal could be computed again,
//! - an expansion's hidden chance state: the flier's future die (its keyed roll), and the
//!   order of the messages not yet drawn (the Messengers' stack, face down; once all eight
//!   have been drawn the order repeats and is known). Every other expansion's state is public
//!   at the table (gold ingots, robbers, crop circles, castles, bridges, bazaars' turned-up
//!   tiles and bids, inns, traders' goods, the river's tiles once drawn, the abbot, ferries,
//!   the mage and witch).
//!
//! A search (or a policy that looks ahead by playing options on a copy) asks for a
//! **determinization** ([`SeatView::determinize`], [`SeatView::determinize_into`]): a playable
//! copy whose hidden parts are drawn anew from a key — the tiles the seat cannot see put in a
//! canonical order (sorted) and shuffled by the key, the other hands dealt from them, the
//! expansions' hidden chance redrawn (`Expansion::resample`), the seed replaced by one drawn
//! from the key. The copy therefore depends on the view and the key only: two games that
//! differ in hidden information alone give the same copy for the same key. The decisions of
//! the copy keep the true game's keys (they are drawn from a seed the copy keeps privately),
//! so a policy's keyed tie-breaks in a copy are those of the game.
//!
//! Expansions' value hints (`Game::value_hint`) are engine code given the whole game; each
//! reads only public state (audited when the view was added: the flier's hint is the mean over
//! the die, the Messengers' the mean over the eight messages and the message drawn).
//!
//! The luck meter (`policy::luck`) is a measuring instrument, not a player: it sees the true
//! game.

use crate::engine::compiled::Compiled;
use crate::engine::decision::{Choice, DecisionKind};
use crate::engine::follower_kind::FollowerKind;
use crate::engine::game::{Component, DrawSource, PlacedTile, SegNode, MAX_HAND, MAX_PLAYERS};
use crate::engine::rng;
use crate::engine::Game;
use crate::ruleset::TileIdx;
use crate::tiles::FeatureKind;
use std::sync::Arc;

/// Domain of the seed a determinized copy is given.
const SEED_DOMAIN: u64 = 0x5649_4557_5345_4544; // "VIEWSEED"

/// What `seat` may know of a game: a borrowed wrapper with a curated read API (no copy is
/// made until a policy asks for a determinization).
#[derive(Clone, Copy)]
pub struct SeatView<'g> {
    game: &'g Game,
    seat: u8,
}

impl std::fmt::Debug for SeatView<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SeatView(seat {}, turn {})", self.seat, self.game.turn())
    }
}

impl<'g> SeatView<'g> {
    /// The view of `seat` of `game` (built by the driver for the deciding seat).
    #[inline]
    pub fn new(game: &'g Game, seat: u8) -> SeatView<'g> {
        SeatView { game, seat }
    }

    /// Whose view it is.
    #[inline]
    pub fn seat(&self) -> u8 {
        self.seat
    }

    /// A playable copy of the game in which everything this seat cannot see is drawn anew
    /// from `key` (see the module doc). The same view and key give the same copy.
    pub fn determinize(&self, key: u64) -> Game {
        let mut g = self.game.clone();
        g.keep_divergence_records(false);
        self.scrub(&mut g, key);
        g
    }

    /// [`SeatView::determinize`] into a game kept for the purpose (its allocations reused;
    /// the divergence records are not copied, as `Game::copy_position_from`).
    pub fn determinize_into(&self, target: &mut Game, key: u64) {
        target.copy_position_from(self.game);
        self.scrub(target, key);
    }

    /// Redraws the hidden parts of `g`, a copy of the position, from `key`.
    fn scrub(&self, g: &mut Game, key: u64) {
        // the other hands as they were (what the tiles drawn so far still name)
        let mut old = [0 as TileIdx; MAX_HAND * MAX_PLAYERS];
        let held = other_hands(g, self.seat, &mut old);
        g.sort_hidden_from(self.seat);
        if matches!(g.draws, DrawSource::Forced(_)) {
            g.draws = DrawSource::Shuffled; // a replay's list of draws is the pack's order
        }
        g.seed = rng::key(key, SEED_DOMAIN);
        g.determinize_for(self.seat, key);
        if held > 0 {
            // the tiles drawn so far named what the other hands held: they name the redealt
            // hands instead, and lose their order (sorted), so they tell nothing hidden
            let mut new = [0 as TileIdx; MAX_HAND * MAX_PLAYERS];
            other_hands(g, self.seat, &mut new);
            let drawn = g.deck_pos.min(g.deck.len());
            for (&o, &n) in old[..held].iter().zip(&new[..held]) {
                if let Some(t) = g.deck[..drawn].iter_mut().find(|t| **t == o) {
                    *t = n;
                }
            }
            g.deck[..drawn].sort_unstable();
        }
    }

    /// How many tiles this seat cannot see (the pack, and with hands the other seats' hands).
    #[inline]
    pub fn hidden_total(&self) -> usize {
        self.game.hidden_count(self.seat)
    }

    /// The tiles this seat cannot see as a multiset: `out[t]` copies of tile type `t` (`out`
    /// is cleared and sized to the ruleset's tile types).
    pub fn hidden_counts(&self, out: &mut Vec<u32>) {
        out.clear();
        out.resize(self.game.rules().tiles.len(), 0);
        for t in self.game.hidden_from(self.seat) {
            out[t as usize] += 1;
        }
    }

    /// The tiles this seat holds (empty with a hand of one).
    #[inline]
    pub fn own_hand(&self) -> &'g [TileIdx] {
        self.game.hand(self.seat)
    }

    /// How many tiles `player` holds (public: the others see the backs).
    #[inline]
    pub fn hand_len(&self, player: u8) -> usize {
        self.game.hand(player).len()
    }

    /// Tiles left in the pack (public: the pack's height).
    #[inline]
    pub fn tiles_left(&self) -> usize {
        self.game.remaining()
    }

    // The public read API, as `Game` has it.

    #[inline]
    pub fn rules(&self) -> &'g Arc<Compiled> {
        self.game.rules()
    }
    #[inline]
    pub fn players(&self) -> u8 {
        self.game.players()
    }
    #[inline]
    pub fn turn(&self) -> u32 {
        self.game.turn()
    }
    #[inline]
    pub fn active(&self) -> u8 {
        self.game.active()
    }
    #[inline]
    pub fn scores(&self) -> &'g [i64] {
        self.game.scores()
    }
    #[inline]
    pub fn is_finished(&self) -> bool {
        self.game.is_finished()
    }
    #[inline]
    pub fn hand_size(&self) -> u8 {
        self.game.hand_size()
    }
    /// The tile being played this turn (drawn, or chosen from the hand: on the table).
    #[inline]
    pub fn current_tile(&self) -> TileIdx {
        self.game.current_tile()
    }
    #[inline]
    pub fn placed_tiles(&self) -> &'g [PlacedTile] {
        self.game.placed_tiles()
    }
    #[inline]
    pub fn open_cloisters(&self) -> &'g [u32] {
        self.game.open_cloisters()
    }
    #[inline]
    pub fn tile_at(&self, x: i32, y: i32) -> Option<usize> {
        self.game.tile_at(x, y)
    }
    #[inline]
    pub fn neighbours(&self, x: i32, y: i32) -> u32 {
        self.game.neighbours(x, y)
    }
    #[inline]
    pub fn occupied_sides(&self, x: i32, y: i32) -> u8 {
        self.game.occupied_sides(x, y)
    }
    #[inline]
    pub fn feature(&self, root: u32) -> &'g Component {
        self.game.feature(root)
    }
    #[inline]
    pub fn feature_of(&self, node: u32) -> u32 {
        self.game.feature_of(node)
    }
    #[inline]
    pub fn segment_node(&self, node: u32) -> &'g SegNode {
        self.game.segment_node(node)
    }
    #[inline]
    pub fn completed_cities_around(&self, root: u32) -> usize {
        self.game.completed_cities_around(root)
    }
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
        self.game
            .rescored(root, kind, complete, tiles, pennants, points)
    }
    #[inline]
    pub fn follower_kinds(&self) -> impl Iterator<Item = FollowerKind> + 'g {
        self.game.follower_kinds()
    }
    #[inline]
    pub fn supply_of(&self, player: u8, kind: FollowerKind) -> u8 {
        self.game.supply_of(player, kind)
    }
    #[inline]
    pub fn follower_kind_value(&self, kind: FollowerKind, node: u32, player: u8) -> i64 {
        self.game.follower_kind_value(kind, node, player)
    }
    #[inline]
    pub fn each_placement(&self, tile: TileIdx, f: impl FnMut(i32, i32, u8)) {
        self.game.each_placement(tile, f)
    }

    // The decision being asked: its options.

    #[inline]
    pub fn choice(&self, kind: DecisionKind, i: usize) -> Choice {
        self.game.choice(kind, i)
    }
    #[inline]
    pub fn option_count(&self, kind: DecisionKind) -> usize {
        self.game.option_count(kind)
    }
    #[inline]
    pub fn placement_spot(&self, i: usize) -> (i32, i32, u8) {
        self.game.placement_spot(i)
    }
    #[inline]
    pub fn follower_option(&self, i: usize) -> u8 {
        self.game.follower_option(i)
    }
    #[inline]
    pub fn follower_option_kind(&self, i: usize) -> FollowerKind {
        self.game.follower_option_kind(i)
    }
    /// A tile of the seat's own hand offered by a tile pick.
    #[inline]
    pub fn pick_option(&self, i: usize) -> TileIdx {
        self.game.pick_option(i)
    }
    #[inline]
    pub fn value_hint(&self, kind: DecisionKind, i: usize, player: u8) -> i64 {
        self.game.value_hint(kind, i, player)
    }
    #[inline]
    pub fn value_hints(&self, kind: DecisionKind, options: usize, player: u8, out: &mut Vec<i64>) {
        self.game.value_hints(kind, options, player, out)
    }
}

/// The tiles of the hands of the seats other than `seat`, in seat order, into `out`; how many.
fn other_hands(g: &Game, seat: u8, out: &mut [TileIdx; MAX_HAND * MAX_PLAYERS]) -> usize {
    let mut n = 0;
    for p in (0..g.players).filter(|&p| p != seat) {
        for &t in g.hand(p) {
            out[n] = t;
            n += 1;
        }
    }
    n
}

#[cfg(test)]
/// A game that differs from `g` in what `seat` cannot see only: another seed, another
/// pack order, other hands (a tile of another seat's hand swapped with one of the pack),
/// another die and message stack.
pub(crate) fn hidden_twin(g: &Game, seat: u8, k: u64) -> Game {
    let mut t = g.clone();
    t.seed = rng::key(k, 99);
    t.redraw_pack(k);
    if let Some(p) = (0..t.players).find(|&p| p != seat && t.hand_len[p as usize] > 0) {
        let pos = t.deck_pos;
        if let Some(i) = t.deck[pos..]
            .iter()
            .position(|&x| x != t.hands[p as usize][0])
        {
            std::mem::swap(&mut t.hands[p as usize][0], &mut t.deck[pos + i]);
            // the tiles drawn so far name the hand's new tile instead of the old one
            let (old, new) = (t.deck[pos + i], t.hands[p as usize][0]);
            if let Some(d) = t.deck[..pos].iter_mut().rev().find(|d| **d == old) {
                *d = new;
            }
        }
    }
    <crate::engine::expansions::Set as crate::engine::hooks::Expansions>::resample(&mut t, k);
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{compile, expansions, NoEvents, Pending};

    fn game(ruleset: &str, seed: u64, players: u8, turns: u32) -> Game {
        let path = format!("rulesets/{ruleset}.rules");
        let loaded =
            crate::dsl::load_ruleset(std::path::Path::new(&path)).unwrap_or_else(|d| panic!("{d}"));
        let mut g = Game::new(compile(&loaded.ruleset), seed, players);
        g.setup(&mut NoEvents);
        for _ in 0..turns {
            assert!(g.draw(&mut NoEvents));
            while let Pending::Decision(d) = g.pending() {
                g.apply_unchecked(rng::index(d.key, d.options));
            }
        }
        assert!(g.draw(&mut NoEvents));
        g
    }

    fn sorted(mut v: Vec<TileIdx>) -> Vec<TileIdx> {
        v.sort_unstable();
        v
    }

    #[test]
    fn a_determinization_keeps_the_multiset_the_own_hand_and_the_public_state() {
        for (ruleset, players) in [("base", 2), ("house-hand3", 3), ("river2", 3)] {
            let g = game(ruleset, 3, players, 4);
            for seat in 0..players {
                let v = SeatView::new(&g, seat);
                let d = v.determinize(17);
                let hidden = |x: &Game| sorted(x.hidden_from(seat).collect());
                assert_eq!(hidden(&d), hidden(&g), "{ruleset}: the same unseen tiles");
                let mut counts = Vec::new();
                v.hidden_counts(&mut counts);
                assert_eq!(counts.iter().sum::<u32>() as usize, v.hidden_total());
                for t in hidden(&g) {
                    assert!(counts[t as usize] > 0);
                }
                for p in 0..players {
                    assert_eq!(d.hand(p).len(), g.hand(p).len(), "{ruleset}: hand sizes");
                }
                assert_eq!(
                    d.hand(seat),
                    g.hand(seat),
                    "{ruleset}: the own hand is kept"
                );
                assert_eq!(
                    sorted(d.drawn_tiles().to_vec()).len(),
                    g.drawn_tiles().len()
                );
                assert_eq!(d.current_tile(), g.current_tile());
                assert_eq!(d.placed_tiles().len(), g.placed_tiles().len());
                assert_eq!(d.scores(), g.scores());
                // the decision asked, and its key: the copy's keyed draws are the game's
                assert_eq!(d.pending(), g.pending());
                assert_ne!(d.seed(), g.seed(), "the seed that dealt the pack is hidden");
            }
        }
    }

    #[test]
    fn a_determinization_is_keyed_and_deterministic() {
        let g = game("house-hand3", 5, 3, 2);
        let v = SeatView::new(&g, 1);
        let (a, b, c) = (v.determinize(1), v.determinize(1), v.determinize(2));
        assert_eq!(a.unseen(), b.unseen());
        assert_eq!((a.hand(0), a.hand(2)), (b.hand(0), b.hand(2)));
        assert_ne!(a.unseen(), c.unseen(), "another key, another order");
        // into a kept game: the same copy
        let mut kept = game("house-hand3", 9, 3, 5);
        v.determinize_into(&mut kept, 1);
        assert_eq!(kept.unseen(), a.unseen());
        assert_eq!(kept.hand(2), a.hand(2));
        assert_eq!((kept.seed(), kept.pending()), (a.seed(), a.pending()));
        assert_eq!(kept.outcome().seats, a.outcome().seats);
    }

    #[test]
    fn games_that_differ_in_hidden_information_only_determinize_alike() {
        for (ruleset, players, turns) in [
            ("base", 2, 3),
            ("house-hand3", 3, 4),
            ("messengers-c2", 2, 2),
            ("flier-c2", 2, 3),
            ("bcb-c2", 3, 5),
        ] {
            let g = game(ruleset, 7, players, turns);
            for seat in 0..players {
                let t = hidden_twin(&g, seat, 41 + seat as u64);
                assert!(
                    t.unseen() != g.unseen() || t.message_stack() != g.message_stack(),
                    "{ruleset}: the twin differs"
                );
                for key in [0, 5] {
                    let (a, b) = (
                        SeatView::new(&g, seat).determinize(key),
                        SeatView::new(&t, seat).determinize(key),
                    );
                    assert_eq!(a.unseen(), b.unseen(), "{ruleset} seat {seat}");
                    for p in 0..players {
                        assert_eq!(a.hand(p), b.hand(p), "{ruleset} seat {seat}");
                    }
                    assert_eq!(a.message_stack(), b.message_stack(), "{ruleset}");
                    assert_eq!(a.drawn_tiles(), b.drawn_tiles(), "{ruleset} seat {seat}");
                    assert_eq!(a.seed(), b.seed());
                    assert_eq!(a.state_bytes(), b.state_bytes());
                }
            }
        }
    }

    #[test]
    fn the_messages_not_drawn_are_redrawn_and_the_drawn_ones_kept() {
        let all = [1, 2, 3, 4, 5, 6, 7, 8];
        let g = game("messengers-c2", 1, 2, 0);
        let v = SeatView::new(&g, 0);
        let stacks: Vec<_> = (0..6).map(|k| v.determinize(k).message_stack()).collect();
        for s in &stacks {
            let mut m = s.to_vec();
            m.sort_unstable();
            assert_eq!(m, all, "the eight messages");
        }
        assert!(
            stacks.iter().any(|s| s != &stacks[0]),
            "the order is redrawn"
        );
        // after some draws (the stack from its top turned by as many): the drawn ones keep
        // their places at the bottom, the rest is redrawn among them
        let mut seen = 0;
        for seed in 0..12 {
            let start = game("messengers-c2", seed, 2, 0).message_stack();
            for turns in [25, 40, 55] {
                let g = game("messengers-c2", seed, 2, turns);
                let drawn = g.outcome().counters.get(expansions::messengers::DRAWN) as usize;
                if drawn == 0 || drawn >= 8 {
                    continue;
                }
                let (now, k) = (g.message_stack(), drawn);
                assert_eq!(now[..8 - k], start[k..], "the stack turned by the draws");
                let d = SeatView::new(&g, 1).determinize(seed).message_stack();
                assert_eq!(d[8 - k..], now[8 - k..], "the {k} drawn stay");
                let (mut a, mut b) = (d[..8 - k].to_vec(), now[..8 - k].to_vec());
                a.sort_unstable();
                b.sort_unstable();
                assert_eq!(a, b);
                seen += 1;
            }
        }
        assert!(seen > 3, "games with messages drawn: {seen}");
    }
}
