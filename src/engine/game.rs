//! The game state: a plain value (`Clone`) holding the board, the features, the scores, the
//! deck and where the turn stands. Board geometry lives in `board.rs`, feature scoring in
//! `scoring.rs`, the turn's order and the pull API in `turn.rs`; the expansions' states sit in
//! one field (`ext`, see `hooks.rs` and `expansions/`); followers placed, returned and
//! offered in `followers.rs`, the pack and hands as the players see them in `pack.rs`;
//! set-up, the option buffers of the decision asked, events and the outcome in `game_api.rs`.
//! This file holds the data only, so that the seam (`hooks.rs`), whose hooks take a `Game`,
//! and the state do not read each other.

use crate::engine::board::{Frontier, Window};
use crate::engine::compiled::Compiled;
pub use crate::engine::component::Component;
use crate::engine::decision::{Decision, DecisionKind, TakenDecision};
use crate::engine::follower_kind::FollowerKind;
use crate::engine::outcome::ByCategory;
use crate::engine::state_hash::StateTracker;
use crate::engine::step::Step;
use crate::engine::union_find::UnionFind;
use crate::ruleset::TileIdx;
use crate::tiles::FeatureKind;
use std::sync::Arc;

/// Most seats a game supports: the rules' limit ([`crate::ruleset::MAX_PLAYERS`]) as the size
/// of the engine's seat arrays.
pub const MAX_PLAYERS: usize = crate::ruleset::MAX_PLAYERS as usize;
/// Most tiles a player's hand holds (the `hand` house rule).
pub const MAX_HAND: usize = crate::ruleset::MAX_HAND as usize;
/// Most tiles a game can hold (the rule language refuses larger decks; replays are cut here).
pub const MAX_TILES: usize = 2_000;
pub(crate) const NIL: u32 = u32::MAX;
/// "No node" (the end of a feature's segment chain; a pass among spot options).
pub const NO_NODE: u32 = NIL;

/// A tile on the board.
#[derive(Clone, Copy, Debug)]
pub struct PlacedTile {
    pub tile: TileIdx,
    pub rot: u8,
    pub x: i32,
    pub y: i32,
    /// Node id of its segment 0 in the feature graph; segment `i` is `node0 + i`.
    pub node0: u32,
    pub cloister_done: bool,
}

/// Where a feature-graph node sits: its placed tile, its segment on that tile and the
/// segment's feature kind, and the next node of the same component (segment chain).
#[derive(Clone, Copy, Debug)]
pub struct SegNode {
    pub tile: u16,
    pub seg: u8,
    /// The kind of the segment as the tile now has it (kept with the node, in what was
    /// padding: the follower checks and the expansions ask it of many nodes a turn).
    pub kind: FeatureKind,
    pub next: u32,
}

/// A follower on the board, of its kind (the plain follower, or one an expansion adds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Follower {
    pub player: u8,
    pub node: u32,
    pub kind: FollowerKind,
}

/// Where the draws come from.
#[derive(Clone, Debug)]
pub enum DrawSource {
    /// The keyed shuffle of the ruleset's deck (coupled across rulesets).
    Shuffled,
    /// Exactly these tiles, in order (replays); the game ends when they run out.
    Forced(Vec<TileIdx>),
}

/// One game in progress: a plain value (`Clone` copies the position, `clone_from` into a
/// game kept for the purpose reuses its allocations; see `copy.rs`). Reusable:
/// [`Game::reset`] starts a new game keeping allocations. `X` is the set of expansions it
/// carries (the engine's `Game` type fixes it to the registered ones).
pub struct Game<X> {
    pub(crate) rules: Arc<Compiled>,
    pub(crate) seed: u64,
    /// The seed the decisions' keys are drawn from: the game's seed, kept when a seat's
    /// determinized copy replaces `seed` (`engine/view.rs`), so the copy's decisions have the
    /// game's keys while the seed that dealt the pack stays hidden. No accessor.
    pub(crate) key_seed: u64,
    pub(crate) players: u8,
    // board (board.rs)
    /// Coordinates stay within ±`limit` (exclusive) so the board has room for `room` tiles.
    pub(crate) limit: i32,
    /// Tiles the board has room for, the start tile included.
    pub(crate) room: usize,
    /// Cells holding tiles or next to them (a window that grows).
    pub(crate) board: Window,
    /// Empty cells next to the board (see [`Frontier`]).
    pub(crate) frontier: Frontier,
    /// Placed tiles with a cloister not yet complete.
    pub(crate) open_cloisters: Vec<u32>,
    pub(crate) placed: Vec<PlacedTile>,
    // features (board.rs, scoring.rs)
    pub(crate) uf: UnionFind,
    pub(crate) comps: Vec<Component>,
    pub(crate) nodes: Vec<SegNode>,
    pub(crate) stamp: Vec<u32>,
    pub(crate) stamp_gen: u32,
    // followers and scores
    pub(crate) followers: Vec<Follower>,
    pub(crate) supply: [u8; MAX_PLAYERS],
    /// The supply of the other kinds of follower in play, by seat and kind index (entry 0,
    /// the plain follower's, unused: that is `supply`).
    pub(crate) kind_supply: [[u8; FollowerKind::COUNT]; MAX_PLAYERS],
    /// A bit per kind of follower each seat has in supply (bit 0, the plain follower:
    /// `supply` above 0), kept as they leave and return: the follower decision reads it in
    /// one load instead of a seat's whole supply row (checked by `check_invariants`).
    pub(crate) held: [u32; MAX_PLAYERS],
    pub(crate) score: [i64; MAX_PLAYERS],
    pub(crate) by_cat: [ByCategory; MAX_PLAYERS],
    pub(crate) followers_placed: [u32; MAX_PLAYERS],
    // deck
    pub(crate) deck: Vec<TileIdx>,
    pub(crate) deck_keys: Vec<(u64, TileIdx)>,
    pub(crate) deck_pos: usize,
    pub(crate) discarded: u32,
    pub(crate) draws: DrawSource,
    // hands (the `hand` house rule; with a hand of one they stay empty)
    /// Tiles each player holds: the ruleset's `hand` (1 = draw a tile and play it).
    pub(crate) hand_size: u8,
    /// The tiles each player holds between turns (the first `hand_len[p]` entries).
    pub(crate) hands: [[TileIdx; MAX_HAND]; MAX_PLAYERS],
    pub(crate) hand_len: [u8; MAX_PLAYERS],
    /// The seat whose turn comes next (hands only: a hand of one takes `turn % players`).
    pub(crate) next_seat: u8,
    /// Turns an expansion gave a player on top of the seat order (a builder's second tile):
    /// a turn drawn from the pack is seat `(turn - extra_turns) % players`'s.
    pub(crate) extra_turns: u32,
    /// Tile marks whose tiles take no follower nor other figure (an expansion's rule, set
    /// when it configures the game: River II's volcano lake).
    pub(crate) bare_marks: u32,
    // turn
    pub(crate) turn: u32,
    pub(crate) active: u8,
    pub(crate) current: TileIdx,
    pub(crate) last_placed: usize,
    /// The tag of the placement just made: 0 when its edges allowed it, else what the
    /// expansion that added the option gave (`Game::push_placement`).
    pub(crate) place_tag: u8,
    /// Whether an expansion took the turn's figure action instead of the core's follower
    /// step (the abbot taken back, a follower flown: `Game::take_figure_action`); the
    /// follower decision is then not asked this turn.
    pub(crate) figure_action_taken: bool,
    /// Another placed tile an expansion changed this turn (a bridge added to it), whose
    /// roads and cities the scoring step checks too; `NIL` when none.
    pub(crate) touched: u32,
    /// The open cloisters on or around the tile placed last that it completed by filling
    /// their last neighbouring cell: a bit per cell of its 3 × 3 block
    /// (`Window::count_placed`), for the scoring step.
    pub(crate) filled_near: u16,
    /// How many times a placed tile was turned into another this game
    /// ([`Game::retype_tile`]): what was noted of the board's tiles is stale when it changed.
    pub(crate) retypes: u32,
    pub(crate) occurrences: [[u8; MAX_PLAYERS]; DecisionKind::COUNT],
    /// Where the game stands (see `turn.rs`).
    pub(crate) step: Step,
    /// At a hook step: which of the expansions taking part acts now (0 outside hooks).
    pub(crate) hook_member: u8,
    /// The decision being asked, if any.
    pub(crate) asked: Option<Decision>,
    /// (turn, player, the decisions' key of that turn and player): built when either
    /// changes, not per decision.
    pub(crate) turn_key: (u32, u8, u64),
    // option buffers of the decision being asked
    /// Legal placements, packed `cell << 2 | rotation` (see `Game::placement_option`).
    /// (A scratch buffer: only the first `n_place` entries are options.)
    pub(crate) opt_place: Vec<u32>,
    pub(crate) n_place: usize,
    /// Follower options: the segment in the low byte ([`NONE`] = no follower), the kind's
    /// index in the high byte.
    pub(crate) opt_follow: Vec<u16>,
    pub(crate) opt_tile: Vec<u32>,
    pub(crate) opt_space: Vec<u32>,
    pub(crate) opt_player: Vec<u8>,
    pub(crate) opt_node: Vec<u32>,
    /// The tile types a tile pick offers (the first `n_pick`), in tile-type order.
    pub(crate) opt_pick: [TileIdx; MAX_HAND],
    pub(crate) n_pick: u8,
    pub(crate) completed: Vec<u32>,
    /// The expansions' states (see `hooks.rs`).
    pub(crate) ext: X,
    // hashing, lead, record
    /// Whether the divergence records (running event hash, state hashes, leaders, choice
    /// marks) are kept: on unless turned off (`Game::keep_divergence_records`).
    pub(crate) divergence_records: bool,
    pub(crate) hash: u64,
    pub(crate) turn_hashes: Vec<u64>,
    /// End-of-turn state hashes, leaders and event marks (`state_hash.rs`).
    pub(crate) tracker: StateTracker,
    pub(crate) lead: Option<u8>,
    pub(crate) lead_changes: u32,
    pub(crate) record: Option<Vec<TakenDecision>>,
    /// The expansions' states as the set-up left them once they had read their options
    /// (`Expansion::configure`), with the rules they read and the bare tile marks: a game
    /// reused for the next (`Game::reset`) copies them instead of reading the options again
    /// (`Game::configure`). Not copied with the position.
    pub(crate) configured: Option<Arc<Configured<X>>>,
}

/// The expansions' states just after they read the options of `rules` at a set-up (see
/// `Game::configured`).
pub(crate) struct Configured<X> {
    pub(crate) rules: Arc<Compiled>,
    pub(crate) ext: X,
    pub(crate) bare_marks: u32,
}
