//! What a game records, beside its running event hash, so that `compare` can tell *where* two
//! games under different rulesets part and *what kind* of difference came first, without
//! keeping their events:
//!
//! - an **order-independent end-of-turn state hash**: two games that reach the same position
//!   (tiles with position and rotation, followers with owner and place, the expansions'
//!   pieces on the board, scores, follower supply, and what the expansions hold per seat:
//!   `Expansion::seat_state`) by events in another order get the same hash (the tiles in the players' hands, with the `hand` house rule, count with
//!   their seats). The board part is a wrapping sum of keyed item hashes, kept up to date as
//!   the events pass through [`Game::emit`] (an item added adds its hash, one removed
//!   subtracts it, so a multiset is hashed exactly and the order never matters); at the end of
//!   each turn it is combined with the few per-seat numbers. Cost: one `mix64` per board
//!   change, and per turn a multiply-add per seat and one `mix64`.
//! - the **leading seats** (a bit per seat) at each of those points, to say whether a changed
//!   winner had led before the games parted;
//! - one **choice mark** per real choice (a decision with two options or more, about two per
//!   turn): 32 bits of the running event hash before the choice's first event, with the
//!   decision's kind and player, and 32 bits of the running hash after it. Two games share a
//!   prefix of events; their first differing event is a *player's choice* exactly when both
//!   games made the same kind of choice at the end of that prefix (same "before", different
//!   "after"); anything else is a *rule event* (a different scoring, an expansion's own
//!   step, a decision asked under one ruleset only, …). Cost: one branch per event.
//!
//! Indexing follows [`GameOutcome::turn_hashes`]: entry 0 is the set-up, entry `t` the end of
//! turn `t`, the last entry the end of final scoring.
//!
//! [`GameOutcome::turn_hashes`]: crate::engine::GameOutcome::turn_hashes

use crate::engine::decision::DecisionKind;
use crate::engine::event::{BoardChange, Event};
use crate::engine::follower_kind::FollowerKind;
use crate::engine::outcome::GameOutcome;
use crate::engine::rng::mix64;

/// Tags of the core's item kinds in the board sum (an expansion's pieces carry the tags its
/// events declare, see [`BoardChange`]).
const TILE: u64 = 1;
const FOLLOWER: u64 = 2;
pub(crate) const HAND: u64 = 4;

/// The divergence records of a game in progress (see the module documentation).
#[derive(Debug, Default)]
pub(crate) struct StateTracker {
    /// Wrapping sum of the keyed hashes of every tile, follower and expansion piece on the
    /// board.
    pub(crate) board: u64,
    /// Kind and player (plus one) of the real choice just applied; 0 = none.
    pending_choice: u64,
    /// End-of-turn state hashes.
    pub(crate) hashes: Vec<u64>,
    /// Leading seats (bit per seat) at the same points.
    pub(crate) leaders: Vec<u8>,
    /// One mark per real choice.
    pub(crate) choices: Vec<u64>,
}

/// A board coordinate packed into 16 bits (coordinates stay within ±`MAX_TILES` + 2).
#[inline]
fn coord(v: i32) -> u64 {
    v as i16 as u16 as u64
}

#[inline]
fn item(tag: u64, a: u64, x: i32, y: i32, b: u64) -> u64 {
    mix64(tag | (a & 0xFFFF) << 8 | coord(x) << 24 | coord(y) << 40 | (b & 0xFF) << 56)
}

/// A follower's owner and kind as one number for [`item`]: the seat, and the kind's code in
/// the next byte (0 for the plain follower).
#[inline]
fn follower_owner(player: u8, kind: FollowerKind) -> u64 {
    player as u64 | (kind.spec().key_code as u64) << 8
}

impl Clone for StateTracker {
    fn clone(&self) -> StateTracker {
        let mut copy = StateTracker::default();
        copy.clone_from(self);
        copy
    }

    /// Reuses this tracker's vectors (a search copies positions many times).
    fn clone_from(&mut self, source: &StateTracker) {
        let StateTracker {
            board,
            pending_choice,
            hashes,
            leaders,
            choices,
        } = source;
        self.board = *board;
        self.pending_choice = *pending_choice;
        self.hashes.clone_from(hashes);
        self.leaders.clone_from(leaders);
        self.choices.clone_from(choices);
    }
}

impl StateTracker {
    /// Allocate for a game of about `tiles` tiles.
    pub(crate) fn with_capacity(tiles: usize) -> StateTracker {
        StateTracker {
            hashes: Vec::with_capacity(tiles + 2),
            leaders: Vec::with_capacity(tiles + 2),
            choices: Vec::with_capacity(3 * tiles + 16),
            ..StateTracker::default()
        }
    }

    /// Forget the game (keeping allocations).
    pub(crate) fn clear(&mut self) {
        self.board = 0;
        self.pending_choice = 0;
        self.hashes.clear();
        self.leaders.clear();
        self.choices.clear();
    }

    /// A decision is asked at running event hash `hash` (the game pauses until it is
    /// answered, so the next event is its answer's first): when it is a real choice, mark that
    /// event. A previous choice still unmarked was answered without an event (a follower not
    /// placed, a pass): its mark closes here, on the hash it left unchanged.
    #[inline]
    pub(crate) fn asked(&mut self, kind: DecisionKind, player: u8, options: usize, hash: u64) {
        if self.pending_choice != 0 {
            self.mark(hash, hash);
        }
        self.pending_choice = if options > 1 {
            (1 + kind.key_code()) << 8 | player as u64
        } else {
            0
        };
    }

    /// Marks the pending choice: made at running hash `before`, followed by `after`.
    #[inline]
    fn mark(&mut self, before: u64, after: u64) {
        // the tag (12 bits) lands in the high half, beside the hash before the choice
        let at = before ^ self.pending_choice << 40;
        self.choices.push(at & HIGH | after >> 32);
        self.pending_choice = 0;
    }

    /// One event happened; the running event hash went from `before` to `after`. Updates the
    /// board sum, and marks the event if it is a choice's first. Inlined into each
    /// [`Game::emit`] site, where the event's kind is known, so only its own arm remains.
    #[inline(always)]
    ///
    /// `spot` is a follower event's segment by its place on the tile
    /// ([`crate::engine::Game::segment_place`]; 0 for other events): a follower is in the
    /// position where it physically stands, whatever the tile's list calls its segment.
    pub(crate) fn absorb(&mut self, e: &Event, before: u64, after: u64, spot: u64) {
        if self.pending_choice != 0 {
            self.mark(before, after);
        }
        let delta = match *e {
            Event::Start { tile, x, y, rot }
            | Event::Placed {
                tile, x, y, rot, ..
            } => item(TILE, tile as u64, x, y, rot as u64),
            // the kind's code beside the owner (the plain follower's is 0: as before the kinds)
            Event::FollowerPlaced {
                player, x, y, kind, ..
            } => item(FOLLOWER, follower_owner(player, kind), x, y, spot),
            Event::FollowerReturned {
                player, x, y, kind, ..
            } => item(FOLLOWER, follower_owner(player, kind), x, y, spot).wrapping_neg(),
            Event::Expansion(ref e) => match e.spec().board {
                BoardChange::None => return,
                BoardChange::Adds { tag, owner, x, y } => {
                    let owner = owner.map_or(0, |k| e.values[k as usize] as u64);
                    let (x, y) = (e.values[x as usize], e.values[y as usize]);
                    item(tag, owner, x, y, 0)
                }
                BoardChange::Removes {
                    tag,
                    owner,
                    x,
                    y,
                    times,
                } => {
                    let owner = owner.map_or(0, |k| e.values[k as usize] as u64);
                    let (x, y) = (e.values[x as usize], e.values[y as usize]);
                    let times = times.map_or(1, |k| e.values[k as usize] as u64);
                    item(tag, owner, x, y, 0).wrapping_mul(times).wrapping_neg()
                }
            },
            _ => return,
        };
        self.board = self.board.wrapping_add(delta);
    }
}

/// The high half of a choice mark: where the choice was made.
const HIGH: u64 = 0xFFFF_FFFF_0000_0000;

/// How the first differing event of two games came about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstDifference {
    /// Both games had just asked the same player the same kind of decision, and the answers
    /// differ.
    Choice,
    /// Anything else: a scoring, an expansion's own step, a decision asked under one
    /// ruleset only.
    Rule,
}

/// Classify the first differing event of two games whose events differ, from their choice
/// marks: a choice when the first marks that differ were made at the same point (same event
/// prefix, same kind of decision, same player) and were followed by different events.
pub fn first_difference(a: &[u64], b: &[u64]) -> FirstDifference {
    match a.iter().zip(b).find(|(x, y)| x != y) {
        Some((x, y)) if x & HIGH == y & HIGH => FirstDifference::Choice,
        _ => FirstDifference::Rule,
    }
}

impl GameOutcome {
    /// Whether the first differing event of `self` and `other` was a player's choice or a
    /// rule event; `None` when their events agree.
    pub fn first_event_difference(&self, other: &GameOutcome) -> Option<FirstDifference> {
        self.first_divergence(other)?;
        Some(first_difference(&self.choice_marks, &other.choice_marks))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::outcome::Category;
    use crate::engine::rng::key;
    use crate::engine::Phase;
    use crate::tiles::FeatureKind;

    fn placed(turn: u32, tile: u16, x: i32, y: i32, rot: u8) -> Event {
        Event::Placed {
            turn,
            player: 0,
            tile,
            x,
            y,
            rot,
        }
    }

    fn follower(player: u8, x: i32, y: i32, segment: u8) -> Event {
        Event::FollowerPlaced {
            turn: 1,
            player,
            x,
            y,
            segment,
            feature: FeatureKind::Road,
            kind: FollowerKind::PLAIN,
        }
    }

    /// A synthetic follower event's segment as its spot (the index: these tests have no
    /// tiles to place it on).
    fn index_spot(e: &Event) -> u64 {
        match *e {
            Event::FollowerPlaced { segment, .. } | Event::FollowerReturned { segment, .. } => {
                u64::from(segment)
            }
            _ => 0,
        }
    }

    fn board_after(events: &[Event]) -> u64 {
        let mut t = StateTracker::default();
        for e in events {
            t.absorb(e, 0, e.fingerprint(), index_spot(e));
        }
        t.board
    }

    #[test]
    fn the_same_position_in_another_order_hashes_alike() {
        use crate::engine::event::ExpansionEvent;
        use crate::engine::expansions::gold::{INGOTS_REMOVED, INGOT_PLACED, INGOT_TAKEN};
        let ingot =
            |x: i64, y: i64| Event::Expansion(ExpansionEvent::new(INGOT_PLACED, &[2, 0, x, y]));
        let take = |player: i64, x: i64, y: i64| {
            Event::Expansion(ExpansionEvent::new(INGOT_TAKEN, &[3, player, x, y]))
        };
        let a = [
            placed(1, 4, 1, 0, 1),
            placed(2, 7, 0, -1, 3),
            follower(1, 1, 0, 2),
            ingot(1, 0),
            ingot(0, -1),
            ingot(0, -1),
            take(0, 1, 0),
            take(1, 0, -1),
        ];
        let b = [
            placed(2, 7, 0, -1, 3), // other turn numbers: the position is what counts
            follower(1, 1, 0, 2),
            ingot(0, -1),
            placed(1, 4, 1, 0, 1),
            take(1, 0, -1),
            ingot(0, -1),
            ingot(1, 0),
            take(0, 1, 0),
        ];
        assert_eq!(board_after(&a), board_after(&b));
        // the event hash (a chain) tells them apart
        let chain = |es: &[Event]| es.iter().fold(0, |h, e| key(h, e.fingerprint()));
        assert_ne!(chain(&a), chain(&b));
        // a follower that comes and goes leaves no trace; removing ingots by count equals
        // taking them one by one
        let mut c = b.to_vec();
        c.push(follower(0, 0, -1, 1));
        c.push(Event::FollowerReturned {
            turn: 4,
            player: 0,
            x: 0,
            y: -1,
            segment: 1,
            kind: FollowerKind::PLAIN,
        });
        assert_eq!(board_after(&c), board_after(&a));
        let mut d = a.to_vec();
        d.push(Event::Expansion(ExpansionEvent::new(
            INGOTS_REMOVED,
            &[5, 0, -1, 1],
        )));
        let mut e = a.to_vec();
        e.push(take(0, 0, -1));
        assert_eq!(board_after(&d), board_after(&e));
        // events that change no position change nothing
        let mut f = a.to_vec();
        f.push(Event::Scored {
            turn: 3,
            phase: Phase::Turn,
            category: Category::ROAD,
            feature: FeatureKind::Road,
            x: 1,
            y: 0,
            winners: 1,
            points: 3,
            tiles: 2,
        });
        assert_eq!(board_after(&f), board_after(&a));
    }

    #[test]
    fn a_different_position_hashes_differently() {
        let base = [placed(1, 4, 1, 0, 1), follower(1, 1, 0, 2)];
        let h = board_after(&base);
        let variants = [
            [placed(1, 4, 1, 0, 2), follower(1, 1, 0, 2)], // rotation
            [placed(1, 4, 0, 1, 1), follower(1, 1, 0, 2)], // position
            [placed(1, 5, 1, 0, 1), follower(1, 1, 0, 2)], // tile
            [placed(1, 4, 1, 0, 1), follower(0, 1, 0, 2)], // owner
            [placed(1, 4, 1, 0, 1), follower(1, 1, 0, 3)], // segment
        ];
        for v in &variants {
            assert_ne!(board_after(v), h, "{v:?}");
        }
        // two followers of one player on a spot are not one (a multiset, not a set)
        let twice = [base[0].clone(), base[1].clone(), base[1].clone()];
        assert_ne!(board_after(&twice), h);
    }

    /// Choice marks of a stream of events (fingerprints), `choices[i]` = the decision
    /// applied before event `i`, if any.
    fn marks(events: &[u64], choices: &[(usize, DecisionKind, u8, usize)]) -> Vec<u64> {
        let mut t = StateTracker::default();
        let mut h = 0u64;
        let e = Event::TurnEnd { turn: 1 };
        for (i, &fp) in events.iter().enumerate() {
            if let Some(&(_, kind, player, options)) = choices.iter().find(|c| c.0 == i) {
                t.asked(kind, player, options, h);
            }
            let after = key(h, fp);
            t.absorb(&e, h, after, index_spot(&e));
            h = after;
        }
        t.choices
    }

    #[test]
    fn first_difference_tells_a_choice_from_a_rule_event() {
        use crate::engine::expansions::gold::INGOT_PICK;
        const PLACEMENT: DecisionKind = DecisionKind::PLACEMENT;
        let placed = [(1, PLACEMENT, 1, 5)];
        let a = marks(&[10, 20, 30], &placed);
        // another placement by the same player after the same events: a choice
        let b = marks(&[10, 21, 30], &placed);
        assert_eq!(first_difference(&a, &b), FirstDifference::Choice);
        // the same choice, a different event after it (a scoring): a rule event
        let c = marks(&[10, 20, 31], &placed);
        assert_eq!(first_difference(&a, &c), FirstDifference::Rule);
        // a different event before the choice: a rule event
        let d = marks(&[11, 21, 30], &placed);
        assert_eq!(first_difference(&a, &d), FirstDifference::Rule);
        // a decision asked under one ruleset only, or with one option only: a rule event
        let e = marks(&[10, 21, 30], &[]);
        assert_eq!(first_difference(&a, &e), FirstDifference::Rule);
        let f = marks(&[10, 21, 30], &[(1, PLACEMENT, 1, 1)]);
        assert_eq!(first_difference(&a, &f), FirstDifference::Rule);
        // another player's or another kind of decision: a rule event
        let g = marks(&[10, 21, 30], &[(1, PLACEMENT, 0, 5)]);
        assert_eq!(first_difference(&a, &g), FirstDifference::Rule);
        let h = marks(&[10, 21, 30], &[(1, INGOT_PICK, 1, 5)]);
        assert_eq!(first_difference(&a, &h), FirstDifference::Rule);
        // a later choice after a shared one: still found
        let two = [(0, PLACEMENT, 1, 5), (2, INGOT_PICK, 0, 3)];
        let x = marks(&[10, 20, 30], &two);
        let y = marks(&[10, 20, 33], &two);
        assert_eq!(first_difference(&x, &y), FirstDifference::Choice);
    }

    #[test]
    fn a_choice_answered_without_an_event_keeps_its_mark() {
        use crate::engine::expansions::crop::CROP_MODE;
        const FOLLOWER: DecisionKind = DecisionKind::FOLLOWER;
        let e = Event::TurnEnd { turn: 1 };
        let (h0, h1, h2) = (key(0, 1), key(0, 2), key(0, 3));
        // A: no follower (no event), then a crop-circle decision at once
        let mut a = StateTracker::default();
        a.asked(FOLLOWER, 0, 3, h0);
        a.asked(CROP_MODE, 0, 2, h0);
        a.absorb(&e, h0, h1, index_spot(&e));
        // B: a follower placed (an event), then the same crop-circle decision
        let mut b = StateTracker::default();
        b.asked(FOLLOWER, 0, 3, h0);
        b.absorb(&e, h0, h2, index_spot(&e));
        b.asked(CROP_MODE, 0, 2, h2);
        b.absorb(&e, h2, h1, index_spot(&e));
        assert_eq!(a.choices.len(), 2, "both choices are marked");
        assert_eq!(
            first_difference(&a.choices, &b.choices),
            FirstDifference::Choice
        );
    }

    /// The board sum kept from the events equals the sum recomputed from the position at the
    /// end of every turn, in real games of every expansion (no change of position escapes the
    /// events); and the state hash follows the position, not the history.
    #[test]
    fn the_incremental_sum_is_the_position() {
        use crate::engine::{compile, Chooser, Decision, Game, Pending};
        /// Keyed picks, but a follower whenever one may be placed (so that features with
        /// gold are claimed and ingots change hands).
        struct Keyed;
        impl Chooser for Keyed {
            fn choose(&mut self, _g: &Game, d: &Decision) -> usize {
                match d.kind {
                    DecisionKind::FOLLOWER => 1.min(d.options - 1),
                    _ => crate::engine::rng::index(d.key, d.options),
                }
            }
        }
        fn recomputed(g: &Game) -> u64 {
            let mut sum = 0u64;
            for (pidx, t) in g.placed_tiles().iter().enumerate() {
                sum = sum.wrapping_add(item(TILE, t.tile as u64, t.x, t.y, t.rot as u64));
                let ingot = item(3, 0, t.x, t.y, 0); // the gold ingot's tag
                sum = sum.wrapping_add(ingot.wrapping_mul(g.ingots_on_tile(pidx) as u64));
            }
            for f in g.followers() {
                let (x, y, seg) = g.node_spot(f.node);
                let place = g.segment_place(x, y, seg);
                sum = sum.wrapping_add(item(FOLLOWER, f.player as u64, x, y, place));
            }
            sum
        }
        for file in [
            "goldmines-hig-2012",
            "goldmines-rgg",
            "robbers-2025",
            "cropcircles",
        ] {
            let path = format!("rulesets/{file}.rules");
            let loaded = crate::dsl::load_ruleset(std::path::Path::new(&path))
                .unwrap_or_else(|d| panic!("{d}"));
            let rules = compile(&loaded.ruleset);
            for seed in 0..24u64 {
                let mut g = Game::new(rules.clone(), seed, 2 + (seed % 3) as u8);
                let mut events = Vec::new();
                g.setup(&mut events);
                while g.draw(&mut events) {
                    g.play_decisions(&mut Keyed, &mut events);
                    assert_eq!(g.tracker.board, recomputed(&g), "{file} seed {seed}");
                }
                g.finish(&mut Keyed, &mut events);
                assert_eq!(g.pending(), Pending::End);
                assert_eq!(
                    g.tracker.board,
                    recomputed(&g),
                    "{file} seed {seed} at the end"
                );
                let o = g.outcome();
                assert_eq!(o.state_hashes.len(), o.turn_hashes.len());
                assert_eq!(o.leaders.len(), o.turn_hashes.len());
                // any change of the seats' numbers changes the state hash
                let mut h = g.clone();
                h.score[1] += 1;
                h.close_turn_records();
                g.close_turn_records();
                assert_ne!(h.tracker.hashes.last(), g.tracker.hashes.last());
            }
        }
    }
}
