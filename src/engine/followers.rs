//! Followers on the board and in supply: putting one from supply on a segment, returning it,
//! the follower options of the tile just placed, and the supply and kinds each player has.
//! A second `impl` block of [`Game`]; the state's fields live in `game.rs`.

use crate::engine::compiled::NONE;
use crate::engine::event::{Event, EventSink};
use crate::engine::follower_kind::{FollowerKind, FollowerKindSpec};
use crate::engine::game::{Follower, Game};
use crate::engine::hooks::Expansions;
use crate::tiles::FeatureKind;

impl<X: Expansions> Game<X> {
    /// Put a follower of `player` and `kind` from supply on `node`: the feature's majority
    /// count for `player` grows by the kind's weight.
    pub(crate) fn deploy<S: EventSink>(
        &mut self,
        s: &mut S,
        player: u8,
        node: u32,
        kind: FollowerKind,
    ) {
        let p = player as usize;
        let supply = if kind.is_plain() {
            &mut self.supply[p]
        } else {
            &mut self.kind_supply[p][kind.index()]
        };
        debug_assert!(*supply > 0);
        *supply -= 1;
        if *supply == 0 {
            self.held[p] &= !(1 << kind.index());
        }
        self.followers_placed[p] += 1;
        self.followers.push(Follower { player, node, kind });
        let r = self.uf.find_mut(node);
        let comp = &mut self.comps[r as usize];
        comp.followers[p] += kind.weight();
        comp.nfollowers += 1;
        let (x, y, segment) = self.node_spot(node);
        let feature = self.seg_kind(node);
        self.emit(
            s,
            Event::FollowerPlaced {
                turn: self.turn,
                player,
                x,
                y,
                segment,
                feature,
                kind,
            },
        );
    }

    /// Return follower number `i` (index into `followers`) to its owner's supply, from a
    /// feature that stays on the board (a crop circle's removal, a message's, an abbot's or a
    /// castle's return): when it was its owner's last follower there (weight above 0), the
    /// owner's figures that need one go home with it ([`Game::return_lone_figures`]).
    pub(crate) fn return_follower<S: EventSink>(&mut self, s: &mut S, i: usize) {
        let f = self.followers[i];
        self.return_follower_only(s, i);
        if f.kind.weight() > 0 {
            let r = self.uf.find_mut(f.node);
            let comp = &self.comps[r as usize];
            if comp.followers[f.player as usize] == 0 && comp.nfollowers > 0 {
                self.return_lone_figures(s, f.node, Some(f.player));
            }
        }
    }

    /// A figure that needs its owner's follower on its feature
    /// ([`FollowerKindSpec::needs_own`](crate::engine::follower_kind::FollowerKindSpec):
    /// a builder, a pig) goes home when its feature no longer holds one: every such figure of
    /// `owner` (`None`: of any player) on the feature of `node` whose owner has no weight
    /// there returns to the supply, at once. "When a player's last thief or knight is removed
    /// from a road or city with a builder, the player takes his builder" (T&B C1 rulebook,
    /// Wikicarpedia); "your builder is always returned to your supply if you no longer have
    /// meeples on that feature ... some expansions introduce other ways in which this can
    /// happen" (papageek, The Builder; the pig likewise). JCloisterZone returns them at once
    /// too (`UndeployMeeple` after a follower's return, `ChangeFerry` after a ferry move).
    /// Called where weight leaves a feature that stays on the board: a follower's return
    /// ([`Game::return_follower`]) and a ferry's split of a road; a turn where nothing leaves
    /// pays nothing.
    pub(crate) fn return_lone_figures<S: EventSink>(
        &mut self,
        s: &mut S,
        node: u32,
        owner: Option<u8>,
    ) {
        let r = self.uf.find_mut(node);
        let mut i = 0;
        while i < self.followers.len() {
            let f = self.followers[i];
            if owner.is_none_or(|p| p == f.player)
                && f.kind.spec().needs_own
                && self.comps[r as usize].followers[f.player as usize] == 0
                && self.uf.find_mut(f.node) == r
            {
                self.return_follower_only(s, i);
            } else {
                i += 1;
            }
        }
    }

    /// Return follower number `i` to its owner's supply and nothing else: for a feature whose
    /// pieces all go home (a feature scored), and for [`Game::return_follower`].
    pub(crate) fn return_follower_only<S: EventSink>(&mut self, s: &mut S, i: usize) {
        let f = self.followers.remove(i);
        let p = f.player as usize;
        if f.kind.is_plain() {
            self.supply[p] += 1;
        } else {
            self.kind_supply[p][f.kind.index()] += 1;
        }
        self.held[p] |= 1 << f.kind.index();
        let r = self.uf.find_mut(f.node);
        let comp = &mut self.comps[r as usize];
        comp.followers[p] -= f.kind.weight();
        comp.nfollowers -= 1;
        let (x, y, segment) = self.node_spot(f.node);
        self.emit(
            s,
            Event::FollowerReturned {
                turn: self.turn,
                player: f.player,
                x,
                y,
                segment,
                kind: f.kind,
            },
        );
    }

    /// Which segments of the new tile may take a follower, and of which kind, after "none":
    /// in segment order, and on each segment the plain follower, then the other kinds in play
    /// in kind order. A kind is offered while its owner has one in supply, on the features it
    /// may stand on: unoccupied ones, or (a kind that needs its owner there) those where
    /// `player` already has weight in the majority. A tile an expansion keeps bare
    /// (`Game::bare_marks`) offers "none" only.
    pub(crate) fn follower_options(&mut self, pidx: usize, player: u8) {
        self.opt_follow.clear();
        self.opt_follow.push(NONE as u16);
        let p = player as usize;
        let held = self.held[p];
        let plain = held & 1 != 0;
        // the other kinds in play that `player` holds
        let others = self.ext.follower_kinds() & held & !1;
        let t = self.placed[pidx];
        if (!plain && others == 0) || self.rules.tiles[t.tile as usize].marks & self.bare_marks != 0
        {
            return;
        }
        let farmers = self.rules.rules.scoring.farm != crate::ruleset::FarmRule::Off;
        // (asked once: most tiles hold no spot an expansion may refuse)
        let restricts = self.ext.restricts_spots() && X::may_refuse_on(self, pidx);
        if others == 0 {
            self.plain_options(t, farmers, restricts);
            return;
        }
        // (the masks of every kind: `kinds` keeps those in play that `player` holds, the
        // plain follower bit 0, which stands anywhere and needs neither its owner nor an
        // open feature)
        let masks = &KindMasks::EVERY;
        let kinds = others | u32::from(plain);
        // the kinds that may stand on a feature of each kind (none on a field without
        // farmers)
        let mut stands = masks.stands;
        if !farmers {
            stands[FeatureKind::Field as usize & 7] = 0;
        }
        let nseg = self.rules.tiles[t.tile as usize].segments.len();
        let node0 = t.node0 as usize;
        // (the kinds kept with the nodes, written as the tile was placed: the tile type's
        // segment list is likely out of the cache)
        for (i, n) in self.nodes[node0..node0 + nseg].iter().enumerate() {
            let node = (node0 + i) as u32;
            // (kind order kept)
            let mut rest = kinds & stands[n.kind as usize & 7];
            if rest == 0 {
                continue;
            }
            let r = self.uf.find_mut(node);
            let comp = &self.comps[r as usize];
            if comp.followers[p] == 0 {
                rest &= !masks.needs_own;
            }
            if comp.nfollowers != 0 {
                rest &= masks.needs_own;
            }
            if comp.open == 0 {
                rest &= !masks.open_only;
            }
            while rest != 0 {
                let k = rest.trailing_zeros() as u16;
                rest &= rest - 1;
                if !restricts || X::may_stand(self, node, FollowerKind(k as u8)) {
                    self.opt_follow.push(i as u16 | k << 8);
                }
            }
        }
    }

    /// [`Game::follower_options`] when `player` holds only plain followers (every game
    /// without other kinds): the free features of tile `t`, in segment order (`restricts`:
    /// an expansion may refuse one of them).
    #[inline(always)]
    fn plain_options(
        &mut self,
        t: crate::engine::game::PlacedTile,
        farmers: bool,
        restricts: bool,
    ) {
        let nseg = self.rules.tiles[t.tile as usize].segments.len();
        for i in 0..nseg {
            let node = t.node0 + i as u32;
            let kind = self.nodes[node as usize].kind;
            if kind == FeatureKind::Field && !farmers {
                continue;
            }
            let r = self.uf.find_mut(node);
            let free = self.comps[r as usize].nfollowers == 0;
            if free && (!restricts || X::may_stand(self, node, FollowerKind::PLAIN)) {
                self.opt_follow.push(i as u16);
            }
        }
    }

    /// Whether the expansions in play let a follower of `kind` stand on `node` (see
    /// `Expansion::may_stand`): for an expansion that deploys a follower elsewhere than on
    /// the tile just placed (a flown follower's landing).
    pub fn may_stand(&self, node: u32, kind: FollowerKind) -> bool {
        !self.ext.restricts_spots() || X::may_stand(self, node, kind)
    }

    /// Take the turn's figure action for an expansion, instead of the core's follower step
    /// (the abbot taken back and scored, a follower flown): called by an expansion acting
    /// at `Hook::TilePlaced`, it makes the turn skip the follower decision. Reset when the
    /// next turn begins.
    pub(crate) fn take_figure_action(&mut self) {
        self.figure_action_taken = true;
    }

    /// Whether an expansion took this turn's figure action (see
    /// [`Game::take_figure_action`]).
    pub fn figure_action_taken(&self) -> bool {
        self.figure_action_taken
    }

    /// Follower option `i` as (segment or [`NONE`], kind).
    #[inline]
    pub(crate) fn follower_option_of(&self, i: usize) -> (u8, FollowerKind) {
        let o = self.opt_follow[i];
        (o as u8, FollowerKind((o >> 8) as u8))
    }

    /// A bit per kind of follower seat `p` has in supply (bit 0: the plain follower), counted
    /// from the supply (what `Game::held` keeps).
    pub(crate) fn held_now(&self, p: u8) -> u32 {
        let p = p as usize;
        let mut held = u32::from(self.supply[p] > 0);
        // (entry 0 of a seat's row is unused: the plain follower's supply is `supply`)
        for (k, &n) in self.kind_supply[p].iter().enumerate().skip(1) {
            held |= u32::from(n > 0) << k;
        }
        held
    }

    /// Plain followers `player` has in supply.
    pub fn supply(&self, player: u8) -> u8 {
        self.supply[player as usize]
    }
    /// Followers of `kind` `player` has in supply.
    pub fn supply_of(&self, player: u8, kind: FollowerKind) -> u8 {
        if kind.is_plain() {
            self.supply[player as usize]
        } else {
            self.kind_supply[player as usize][kind.index()]
        }
    }
    /// What a follower of kind `kind` (not the plain one) on `node`, a segment of the tile
    /// just placed, brings `player` (the expansion's valuation: see
    /// `Valuation::follower_kind_value`).
    pub fn follower_kind_value(&self, kind: FollowerKind, node: u32, player: u8) -> i64 {
        X::follower_kind_value(self, kind, node, player)
    }
    /// How many of follower kind `kind` (not the plain one) each player was dealt under this
    /// game's rules (see `Expansion::follower_supply`).
    pub fn follower_supply_dealt(&self, kind: FollowerKind) -> u8 {
        X::follower_supply(&self.rules, kind)
    }
    /// The kinds of follower in play: the plain one, then those of the expansions taking
    /// part, in kind order.
    pub fn follower_kinds(&self) -> impl Iterator<Item = FollowerKind> {
        let kinds = self.ext.follower_kinds();
        FollowerKind::all().filter(move |k| kinds & (1 << k.index()) != 0)
    }
}

const _: () = assert!(KindMasks::EVERY.plain_anywhere());

/// The follower kinds of a bit set (bit k: kind k) sorted by what their specs allow, so that
/// the follower decision tests a segment against all of them at once: `stands[f]` the
/// kinds that may stand on a feature of kind `f`, `needs_own` those that need their owner
/// in the feature's majority, `open_only` those that stand only on an open feature.
#[derive(Clone, Copy)]
struct KindMasks {
    stands: [u32; 8],
    needs_own: u32,
    open_only: u32,
}

impl KindMasks {
    /// The masks of every declared kind, made at compile time.
    const EVERY: KindMasks = KindMasks::of(&crate::engine::expansions::FOLLOWER_KINDS);

    /// Whether kind 0 (the plain follower) stands on every feature and needs neither its
    /// owner nor an open feature, as `follower_options` takes it.
    const fn plain_anywhere(&self) -> bool {
        let mut f = 0;
        while f < FeatureKind::ALL.len() {
            if self.stands[FeatureKind::ALL[f] as usize & 7] & 1 == 0 {
                return false;
            }
            f += 1;
        }
        self.needs_own & 1 == 0 && self.open_only & 1 == 0
    }

    const fn of(specs: &[FollowerKindSpec]) -> KindMasks {
        let mut m = KindMasks {
            stands: [0; 8],
            needs_own: 0,
            open_only: 0,
        };
        let mut k = 0;
        while k < specs.len() {
            let spec = &specs[k];
            let mut on = spec.stands_on;
            while on != 0 {
                m.stands[on.trailing_zeros() as usize] |= 1 << k;
                on &= on - 1;
            }
            if spec.needs_own {
                m.needs_own |= 1 << k;
            }
            if spec.open_only {
                m.open_only |= 1 << k;
            }
            k += 1;
        }
        m
    }
}
