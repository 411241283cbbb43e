//! What a game does besides the turn loop (`turn.rs`): set-up and reset, the keyed pack,
//! events and the game's record, the option buffers of the decision being asked, the outcome
//! and the accessors. The state itself, a plain value, is `game.rs`.

use crate::engine::board::{Frontier, Window};
use crate::engine::compiled::{Compiled, NONE};
use crate::engine::component::Component;
use crate::engine::decision::{Choice, DecisionKind, TakenDecision};
use crate::engine::deck_order;
use crate::engine::event::{Event, EventSink};
use crate::engine::follower_kind::FollowerKind;
use crate::engine::game::{
    DrawSource, Follower, Game, PlacedTile, SegNode, MAX_HAND, MAX_PLAYERS, MAX_TILES, NIL,
};
use crate::engine::hooks::{Expansions, Notice};
use crate::engine::outcome::{ByCategory, Category, GameOutcome, SeatResult};
use crate::engine::rng::{self, domain};
use crate::engine::state_hash::StateTracker;
use crate::engine::step::Step;
use crate::engine::union_find::UnionFind;
use crate::ruleset::TileIdx;
use crate::tiles::FeatureKind;
use std::sync::Arc;

impl<X: Expansions> Game<X> {
    /// A new game of `players` seats under `rules`, seeded with `seed`.
    pub fn new(rules: Arc<Compiled>, seed: u64, players: u8) -> Self {
        let total = rules.rules.total_tiles();
        Game::with_room_for(rules, seed, players, total)
    }

    /// A new game whose board has room for `tiles` tiles (a replay may bring more draws than
    /// the ruleset's pack holds). The board is a square of side about `2 × tiles`, so
    /// `tiles` is capped at [`MAX_TILES`].
    pub fn with_room_for(rules: Arc<Compiled>, seed: u64, players: u8, tiles: usize) -> Self {
        let total = tiles.clamp(1, MAX_TILES);
        let nodes = total * rules.max_segments.max(1) + 8;
        let ext = X::for_rules(&rules);
        let mut g = Game {
            rules,
            seed,
            key_seed: seed,
            players,
            limit: total as i32 + 2,
            room: total,
            board: Window::new(),
            frontier: Frontier::with_capacity(4 * total + 4),
            open_cloisters: Vec::with_capacity(16),
            placed: Vec::with_capacity(total),
            uf: UnionFind::with_capacity(nodes),
            comps: Vec::with_capacity(nodes),
            nodes: Vec::with_capacity(nodes),
            stamp: Vec::with_capacity(total),
            stamp_gen: 0,
            followers: Vec::with_capacity(MAX_PLAYERS * 8),
            supply: [0; MAX_PLAYERS],
            kind_supply: [[0; FollowerKind::COUNT]; MAX_PLAYERS],
            held: [0; MAX_PLAYERS],
            score: [0; MAX_PLAYERS],
            by_cat: [ByCategory::default(); MAX_PLAYERS],
            followers_placed: [0; MAX_PLAYERS],
            deck: Vec::with_capacity(total),
            deck_keys: Vec::with_capacity(2 * total),
            deck_pos: 0,
            discarded: 0,
            draws: DrawSource::Shuffled,
            hand_size: 1,
            hands: [[0; MAX_HAND]; MAX_PLAYERS],
            hand_len: [0; MAX_PLAYERS],
            next_seat: 0,
            extra_turns: 0,
            bare_marks: 0,
            turn: 0,
            active: 0,
            current: 0,
            last_placed: 0,
            figure_action_taken: false,
            place_tag: 0,
            touched: NIL,
            filled_near: 0,
            retypes: 0,
            occurrences: [[0; MAX_PLAYERS]; DecisionKind::COUNT],
            step: Step::Setup,
            hook_member: 0,
            asked: None,
            turn_key: (u32::MAX, 0, 0),
            opt_place: Vec::with_capacity(4 * total + 4),
            n_place: 0,
            opt_follow: Vec::with_capacity(16),
            opt_tile: Vec::with_capacity(16),
            opt_space: Vec::with_capacity(16),
            opt_player: Vec::with_capacity(8),
            opt_node: Vec::with_capacity(32),
            opt_pick: [0; MAX_HAND],
            n_pick: 0,
            completed: Vec::with_capacity(16),
            ext,
            divergence_records: true,
            hash: 0,
            turn_hashes: Vec::with_capacity(total + 2),
            tracker: StateTracker::with_capacity(total),
            lead: None,
            lead_changes: 0,
            record: None,
            configured: None,
        };
        g.reset(seed, players);
        g
    }

    /// Start a new game on the same rules, keeping allocations.
    pub fn reset(&mut self, seed: u64, players: u8) {
        let players = players.clamp(1, MAX_PLAYERS as u8);
        self.clear_board();
        self.seed = seed;
        self.key_seed = seed;
        self.players = players;
        self.followers.clear();
        let f = self.rules.rules.followers;
        self.supply = [0; MAX_PLAYERS];
        for p in 0..players as usize {
            self.supply[p] = f;
        }
        self.kind_supply = [[0; FollowerKind::COUNT]; MAX_PLAYERS];
        let kinds = self.ext.follower_kinds() & !1;
        if kinds != 0 {
            for k in FollowerKind::all().filter(|k| kinds & (1 << k.index()) != 0) {
                // (read once per kind: an expansion may read it from the options)
                let n = X::follower_supply(&self.rules, k);
                for p in 0..players as usize {
                    self.kind_supply[p][k.index()] = n;
                }
            }
        }
        self.held = [0; MAX_PLAYERS];
        for p in 0..players {
            self.held[p as usize] = self.held_now(p);
        }
        self.score = [0; MAX_PLAYERS];
        self.by_cat = [ByCategory::default(); MAX_PLAYERS];
        self.followers_placed = [0; MAX_PLAYERS];
        self.discarded = 0;
        self.hand_size = self.rules.rules.hand.clamp(1, MAX_HAND as u8);
        self.hand_len = [0; MAX_PLAYERS];
        self.next_seat = 0;
        self.extra_turns = 0;
        self.bare_marks = 0;
        self.n_pick = 0;
        self.turn = 0;
        self.active = 0;
        self.place_tag = 0;
        self.figure_action_taken = false;
        self.touched = NIL;
        self.filled_near = 0;
        self.retypes = 0;
        self.ext.reset();
        self.hash = rng::key(seed, domain::GAME_SEED);
        self.turn_hashes.clear();
        self.tracker.clear();
        self.lead = None;
        self.lead_changes = 0;
        self.step = Step::Setup;
        self.hook_member = 0;
        self.asked = None;
        self.turn_key = (u32::MAX, 0, 0);
        if self.record.is_some() {
            self.record = Some(Vec::new());
        }
        self.shuffle_deck();
    }

    /// Replace the shuffled pack with exactly these draws (replays).
    pub fn force_draws(&mut self, mut draws: Vec<TileIdx>) {
        // the board has room for `room` tiles, the start tile included
        draws.truncate(self.room.saturating_sub(1));
        self.deck.clear();
        self.deck.extend_from_slice(&draws);
        self.deck_pos = 0;
        self.draws = DrawSource::Forced(draws);
    }

    /// Keep (the default) or skip the divergence records: the running event hash and, per
    /// turn, the state hash, the leading seats and the choice marks (`state_hash.rs`) that
    /// `compare` reads. Skipped, the game plays exactly the same moves and scores, and its
    /// outcome's `turn_hashes`, `state_hashes`, `leaders` and `choice_marks` stop growing:
    /// for runs that only need scores (benchmarks, ladders, a search's copies). Choose before
    /// a game begins (the setting lasts across [`Game::reset`]): records turned on part-way
    /// start there and do not line up with the turns.
    pub fn keep_divergence_records(&mut self, keep: bool) {
        self.divergence_records = keep;
    }

    /// Keep every decision taken (for `--record`).
    pub fn enable_record(&mut self) {
        self.record = Some(Vec::new());
    }

    pub fn take_record(&mut self) -> Vec<TakenDecision> {
        self.record.take().unwrap_or_default()
    }

    /// The draw order: every copy but the start tile's, sorted by a hash of
    /// (seed, tile id, copy) so rulesets sharing tiles draw them in the same relative order.
    fn shuffle_deck(&mut self) {
        self.deck.clear();
        self.deck_pos = 0;
        if let DrawSource::Forced(d) = &self.draws {
            self.deck.extend_from_slice(d);
            return;
        }
        let rules = &self.rules;
        let base = rng::key(self.seed, domain::DECK);
        let keyed = &mut self.deck_keys;
        keyed.clear();
        for e in &rules.rules.deck {
            let id = rules.tiles[e.tile as usize].id_hash;
            let first = if e.tile == rules.rules.start { 1 } else { 0 };
            for copy in first..e.count {
                keyed.push((rng::key(rng::key(base, id), copy as u64), e.tile));
            }
        }
        let sorted = deck_order::sort_keyed(keyed);
        self.deck.extend(sorted.iter().map(|k| k.1));
        keyed.clear(); // scratch: copies of the game need not carry it
        if self.ext.orders_deck() {
            X::order_deck(self); // a prelude (the river's tiles first)
        }
    }

    // ----- events, decisions -------------------------------------------------------------

    /// Hands `e` to the sink (when it listens) and to the divergence records (when kept).
    /// Inlined, with the records' work out of line: a game that keeps no records and a sink
    /// that does not listen builds no event at all.
    #[inline(always)]
    pub(crate) fn emit<S: EventSink>(&mut self, s: &mut S, e: Event) {
        if self.divergence_records {
            self.record_event(&e);
        }
        if S::WANTS {
            s.event(&e);
        }
    }

    /// Segments enter the records by their place on the tile ([`Game::segment_place`]),
    /// never by their index in the tile's list.
    #[inline(never)]
    fn record_event(&mut self, e: &Event) {
        let before = self.hash;
        let fingerprint = e.fingerprint_placed(|x, y, s| self.segment_place(x, y, s));
        self.hash = rng::key(before, fingerprint);
        let spot = match *e {
            Event::FollowerPlaced { x, y, segment, .. }
            | Event::FollowerReturned { x, y, segment, .. } => self.segment_place(x, y, segment),
            _ => 0,
        };
        self.tracker.absorb(e, before, self.hash, spot);
    }

    /// Segment `segment` of the tile at (x, y) named by what it is
    /// ([`crate::engine::compiled::CompiledTile::segment_place`]: kind, sides and half-edges
    /// in board orientation), or, where no tile lies, the index marked as such (bit 32).
    pub fn segment_place(&self, x: i32, y: i32, segment: u8) -> u64 {
        match self.tile_at(x, y).and_then(|p| self.placed.get(p)) {
            Some(t) => u64::from(self.rules.tiles[t.tile as usize].segment_place(segment, t.rot)),
            None => 1 << 32 | u64::from(segment),
        }
    }

    /// Option `i` of the decision currently asked, in semantic form.
    pub fn choice(&self, kind: DecisionKind, i: usize) -> Choice {
        match kind {
            DecisionKind::PLACEMENT => {
                let (cell, rot) = self.placement_option(i);
                let (x, y) = self.cell_xy(cell);
                Choice::Place { x, y, rot }
            }
            DecisionKind::FOLLOWER => {
                let (s, kind) = self.follower_option_of(i);
                Choice::Follower {
                    segment: (s != NONE).then_some(s),
                    kind,
                }
            }
            DecisionKind::TILE_PICK => Choice::Tile {
                tile: self.opt_pick[i],
            },
            _ => X::choice(self, kind, i),
        }
    }

    /// Number of options of the decision currently asked.
    pub fn option_count(&self, kind: DecisionKind) -> usize {
        match kind {
            DecisionKind::PLACEMENT => self.n_place,
            DecisionKind::FOLLOWER => self.opt_follow.len(),
            DecisionKind::TILE_PICK => self.n_pick as usize,
            _ => X::option_count(self, kind),
        }
    }

    /// The value hint of option `i` of expansion decision `kind`, now asked of `player`
    /// (what its module declares; see `hooks::Valuation::value_hint`).
    pub fn value_hint(&self, kind: DecisionKind, i: usize, player: u8) -> i64 {
        X::value_hint(self, kind, i, player)
    }

    /// How many equally likely outcomes option `i` of decision `kind`, now asked, draws at
    /// once (an expansion's die), 0 when none (every core decision): a policy trying the
    /// option on a copy tries each outcome ([`Game::force_outcome`]) and averages.
    pub fn chance_outcomes(&self, kind: DecisionKind, i: usize) -> u8 {
        if kind.index() < crate::engine::decision::CORE_DECISIONS.len() {
            return 0;
        }
        X::chance_outcomes(self, kind, i)
    }

    /// Make the chance event that decision `kind`'s option brings come out as outcome `k`
    /// (see [`Game::chance_outcomes`]); call it on a copy, before applying the option.
    pub fn force_outcome(&mut self, kind: DecisionKind, k: u8) {
        if kind.index() >= crate::engine::decision::CORE_DECISIONS.len() {
            X::force_outcome(self, kind, k);
        }
    }

    /// The value hints of options `0..options` of expansion decision `kind`, now asked of
    /// `player`, appended to `out`: exactly [`Game::value_hint`] of each, computed at once.
    pub fn value_hints(&self, kind: DecisionKind, options: usize, player: u8, out: &mut Vec<i64>) {
        X::value_hints(self, kind, options, player, out)
    }

    /// What the expansions' pieces are expected to bring each seat by the end, in points,
    /// added to `out` (by seat): their modules' value hints for the heuristic's evaluation.
    pub fn expansion_expected_points(&self, out: &mut [f64]) {
        X::expected_points(self, out);
    }

    /// Whether an expansion taking part values its holdings for the heuristic (see
    /// `Valuation::VALUES_HOLDINGS`).
    #[inline]
    pub fn expansion_values_holdings(&self) -> bool {
        self.ext.values_holdings()
    }

    /// Whether unseen tile `tile` brings the valuing expansion more (a gold tile).
    #[inline]
    pub fn expansion_counts_unseen(&self, tile: TileIdx) -> bool {
        X::counts_unseen(self, tile)
    }

    /// The valuing expansion's worth of each seat's holdings (`held`) and of one more unit
    /// (`rate`), `unseen` tiles that count still to come (see `Valuation::value_holdings`).
    pub fn expansion_value_holdings(&self, unseen: u32, held: &mut [f64], rate: &mut [f64]) {
        X::value_holdings(self, unseen, held, rate);
    }

    /// The units one winner of the unfinished feature `root` expects to take from it, given
    /// its chance `closes` to close (see `Valuation::feature_share`).
    pub fn expansion_feature_share(
        &self,
        root: u32,
        kind: crate::tiles::FeatureKind,
        closes: f64,
        winners: u8,
        tiles: &mut Vec<u32>,
    ) -> f64 {
        X::feature_share(self, root, kind, closes, winners, tiles)
    }

    /// The expansions' pieces on the board (their layers of the SVG board).
    pub fn expansion_pieces(&self) -> Vec<crate::engine::hooks::Piece> {
        let mut out = Vec::new();
        X::board_pieces(self, &mut out);
        out
    }

    /// The legend of the expansions' board layers.
    pub fn expansion_legend(&self) -> Vec<(crate::engine::hooks::Glyph, &'static str)> {
        self.ext.legend()
    }

    /// The expansions' columns of the score table for `seat` (header, count), in
    /// registration order; the same headers for every seat.
    pub fn expansion_seat_columns(&self, seat: u8) -> Vec<(&'static str, i64)> {
        let mut out = Vec::new();
        X::seat_columns(self, seat, &mut out);
        out
    }

    /// How many distinct tiles feature `root` lies on.
    pub fn feature_tile_count(&self, root: u32) -> u32 {
        let mut tiles: [u16; 64] = [0; 64];
        let (mut len, mut more) = (0usize, Vec::new());
        let mut n = self.comps[root as usize].head;
        while n != NIL {
            let t = self.nodes[n as usize].tile;
            if !tiles[..len].contains(&t) && !more.contains(&t) {
                if len < tiles.len() {
                    tiles[len] = t;
                    len += 1;
                } else {
                    more.push(t);
                }
            }
            n = self.nodes[n as usize].next;
        }
        (len + more.len()) as u32
    }

    /// (x, y, segment) of a feature-graph node.
    pub fn node_spot(&self, node: u32) -> (i32, i32, u8) {
        let t = &self.placed[self.nodes[node as usize].tile as usize];
        (t.x, t.y, self.nodes[node as usize].seg)
    }

    /// The feature kind of a node's segment.
    #[inline]
    pub fn seg_kind(&self, node: u32) -> FeatureKind {
        self.nodes[node as usize].kind
    }

    /// Add `points` to `player` in `category`; `robbable` points may trigger robbers.
    pub(crate) fn award<S: EventSink>(
        &mut self,
        s: &mut S,
        player: u8,
        category: Category,
        points: i64,
        robbable: bool,
    ) {
        if points == 0 {
            return;
        }
        let before = self.score[player as usize];
        self.score[player as usize] = before.saturating_add(points);
        self.by_cat[player as usize].add(category, points);
        X::notify(
            self,
            s,
            Notice::PointsScored {
                player,
                before,
                points,
                robbable,
            },
        );
    }

    /// Counts a change of sole leader at a turn's end, given the seats leading there.
    pub(crate) fn track_lead(&mut self, leaders: u8) {
        if leaders.count_ones() == 1 {
            let p = leaders.trailing_zeros() as u8;
            if self.lead.is_some_and(|l| l != p) {
                self.lead_changes += 1;
            }
            self.lead = Some(p);
        }
    }

    /// The summary of the game as it stands.
    pub fn outcome(&self) -> GameOutcome {
        let n = self.players as usize;
        let seats: Vec<SeatResult> = (0..n)
            .map(|p| SeatResult {
                total: self.score[p],
                by_category: self.by_cat[p],
                counts: Default::default(),
                followers_placed: self.followers_placed[p],
            })
            .collect();
        let max = seats.iter().map(|s| s.total).max().unwrap_or(0);
        let winners = (0..n)
            .filter(|&p| seats[p].total == max)
            .map(|p| p as u8)
            .collect();
        let mut out = GameOutcome {
            seed: self.seed,
            seats,
            winners,
            tiles_placed: self.placed.len() as u32,
            tiles_discarded: self.discarded,
            turns: self.placed.len().saturating_sub(1) as u32,
            lead_changes: self.lead_changes,
            counters: crate::engine::outcome::Counters(vec![0; crate::engine::Counter::COUNT]),
            turn_hashes: self.turn_hashes.clone(),
            state_hashes: self.tracker.hashes.clone(),
            leaders: self.tracker.leaders.clone(),
            choice_marks: self.tracker.choices.clone(),
        };
        self.ext.outcome(&mut out);
        out
    }

    // ----- read access for policies, reports and tests ---------------------------------

    /// The feature (union-find root) a feature-graph node belongs to.
    pub fn feature_of(&self, node: u32) -> u32 {
        self.root_of(node)
    }
    /// Facts of the feature rooted at `root` (see [`Game::feature_of`]).
    pub fn feature(&self, root: u32) -> &Component {
        &self.comps[root as usize]
    }
    /// Where a feature-graph node sits, and the next node of its feature's chain.
    pub fn segment_node(&self, node: u32) -> &SegNode {
        &self.nodes[node as usize]
    }
    /// Placement option `i` of the decision asked, as (x, y, rotation).
    pub fn placement_spot(&self, i: usize) -> (i32, i32, u8) {
        let (cell, rot) = self.placement_option(i);
        let (x, y) = self.cell_xy(cell);
        (x, y, rot)
    }
    /// Follower option `i`: a segment of the tile just placed, or [`NONE`] for no follower
    /// (its kind: [`Game::follower_option_kind`]).
    pub fn follower_option(&self, i: usize) -> u8 {
        self.opt_follow[i] as u8
    }
    /// The kind of follower option `i` (the plain follower for "none").
    pub fn follower_option_kind(&self, i: usize) -> FollowerKind {
        self.follower_option_of(i).1
    }
    /// Ingot option `i`: a placed-tile index.
    pub fn tile_option(&self, i: usize) -> u32 {
        self.opt_tile[i]
    }
    /// Robber option `i`: a score-track space, or [`NO_NODE`] to pass.
    pub fn space_option(&self, i: usize) -> u32 {
        self.opt_space[i]
    }
    /// Tile-pick option `i`: a tile type of the active player's hand.
    pub fn pick_option(&self, i: usize) -> TileIdx {
        self.opt_pick[i]
    }
    /// Crop-circle spot option `i`: a feature-graph node, or [`NO_NODE`] to pass.
    pub fn node_option(&self, i: usize) -> u32 {
        self.opt_node[i]
    }

    /// Bytes this position holds (the value plus the heap it uses): what a clone copies.
    pub fn state_bytes(&self) -> usize {
        fn v<T>(x: &[T]) -> usize {
            std::mem::size_of_val(x)
        }
        let draws = match &self.draws {
            DrawSource::Forced(d) => v(d),
            DrawSource::Shuffled => 0,
        };
        std::mem::size_of::<Self>()
            + self.board.bytes()
            + self.frontier.bytes()
            + v(&self.open_cloisters)
            + v(&self.placed)
            + self.uf.len() * (std::mem::size_of::<u32>() + 1) // union-find
            + v(&self.comps)
            + v(&self.nodes)
            + v(&self.stamp)
            + v(&self.followers)
            + v(&self.deck)
            + v(&self.deck_keys)
            + draws
            + v(&self.turn_hashes)
            + v(&self.tracker.hashes)
            + v(&self.tracker.leaders)
            + v(&self.tracker.choices)
            + v(&self.opt_place)
            + v(&self.opt_follow)
            + v(&self.opt_tile)
            + v(&self.opt_space)
            + v(&self.opt_player)
            + v(&self.opt_node)
            + v(&self.completed)
            + self.record.as_deref().map_or(0, v)
            + self.ext.heap_bytes()
    }

    pub fn rules(&self) -> &Arc<Compiled> {
        &self.rules
    }
    pub fn players(&self) -> u8 {
        self.players
    }
    pub fn turn(&self) -> u32 {
        self.turn
    }
    pub fn active(&self) -> u8 {
        self.active
    }
    pub fn seed(&self) -> u64 {
        self.seed
    }
    pub fn scores(&self) -> &[i64] {
        &self.score[..self.players as usize]
    }
    pub fn by_category(&self, player: u8) -> ByCategory {
        self.by_cat[player as usize]
    }
    /// Placed-tile indices of the tiles whose cloister is not complete yet, in placement
    /// order.
    pub fn open_cloisters(&self) -> &[u32] {
        &self.open_cloisters
    }
    pub fn placed_tiles(&self) -> &[PlacedTile] {
        &self.placed
    }
    pub fn followers(&self) -> &[Follower] {
        &self.followers
    }
    /// The tile being played this turn (drawn, or with hands chosen from the hand).
    pub fn current_tile(&self) -> TileIdx {
        self.current
    }
    pub fn is_finished(&self) -> bool {
        self.step == Step::Over
    }
    /// The hook the turn is at (the expansions acting there, or one of them telling the
    /// others something), `None` between hooks (the core's placement, follower and scoring
    /// steps).
    pub(crate) fn hook_now(&self) -> Option<crate::engine::hooks::Hook> {
        match self.step {
            Step::Hook(at) => Some(at),
            _ => None,
        }
    }
}
