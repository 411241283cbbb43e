//! The seam between the core game and the expansions: the points of a turn where an
//! expansion acts ([`Hook`], which may ask decisions; [`Notice`], which may not), what one
//! expansion implements and what the set of them offers the core. What one expansion
//! implements is split by job, a trait and a module each, so a newcomer sees which hooks are
//! which:
//! - its rules, `rules.rs`: [`Expansion`] (its state, options, set-up, hooks and notices,
//!   placement and follower spots, decisions and chance, scoring, invariants, outcome, what
//!   the state hash reads);
//! - what the policies make of it, `valuation.rs`: [`Valuation`] (value hints, expected
//!   points, holdings); the rules never ask it;
//! - what it shows, `presentation.rs`: [`Presentation`] (board pieces and legend, tile art,
//!   bands under the board, score-table columns, `play --json`, the sweep's columns); only
//!   the render and report layers ask it.
//!
//! `Expansion: Valuation + Presentation`, so every registered expansion provides all three
//! (an empty `impl Valuation for X {}` where it has nothing). The set of them, `set.rs`, is
//! split the same way: [`Expansions`] (what the core calls), [`ExpansionsValuation`] and
//! [`ExpansionsPresentation`], its supertraits, so code bound by `X: Expansions` reaches every
//! item. This file holds what they share ([`Notice`], [`Piece`], [`Conflict`], where the
//! registry put each expansion: [`Registered`], [`kind_of`]…) and names none of its child
//! modules but to re-export them, so the files stay a hierarchy: the set below the three
//! traits, the rules above the other two. The core (`game.rs`, `turn.rs`, `scoring.rs`,
//! `board.rs`) only calls the rules; the expansions themselves and their registration live in
//! `expansions/`.

mod presentation;
mod rules;
mod set;
mod valuation;

pub use presentation::{Paint, Presentation, TileFrame, TileLayer};
pub use rules::Expansion;
pub use set::{Expansions, ExpansionsPresentation, ExpansionsValuation, Holds};
pub use valuation::Valuation;

use crate::engine::decision::DecisionKind;
use crate::engine::event::EventKind;
use crate::engine::follower_kind::FollowerKind;
pub use crate::engine::glyph::{Glyph, GlyphArt};
use crate::engine::outcome::{Category, Counter, SeatCounter};
pub use crate::engine::step::Hook;

/// Something the core tells the expansions in passing; no decision may be asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notice {
    /// The turn's tile is placed (`Game::last_placed`), before the hooks of the tile placed.
    TilePlaced,
    /// A scoring step begins: the turn's completed features (only when there are some).
    ScoringBegins,
    /// Final scoring begins (before the incomplete features).
    FinalScoringBegins,
    /// A feature (union-find root) is scored, `complete` or at the end; `winners` holds its
    /// majority (a bit per seat, 0 = unoccupied). Sent before its points are paid.
    FeatureScored {
        root: u32,
        winners: u8,
        complete: bool,
        /// What the feature is worth (to each winner; paid only when there is one).
        points: i64,
    },
    /// `player`'s score went from `before` up by `points`; `robbable` is false for points an
    /// expansion itself pays out (robber shares).
    PointsScored {
        player: u8,
        before: i64,
        points: i64,
        robbable: bool,
    },
    /// An expansion that splits a player's score over two scoring figures (the Messengers)
    /// moved `player`'s `figure` (0 the scoring meeple, 1 the second figure) from `before`
    /// on the track up by `points`, for points already paid (`PointsScored`); `robbable` as
    /// there. How the robbers learn which figure left which space.
    FigureMoved {
        player: u8,
        figure: u8,
        before: i64,
        points: i64,
        robbable: bool,
    },
    /// An expansion scored an area that is not one feature (a token and the squares
    /// around): the first `len` of `tiles` (indices into
    /// [`Game::placed_tiles`](crate::engine::game::Game::placed_tiles)); `winners` (a bit
    /// per seat) scored it, `complete` as in `FeatureScored`. How one expansion tells the
    /// others without reaching into their state (the gold hand-out hears it as a claim).
    AreaScored {
        winners: u8,
        complete: bool,
        tiles: [u32; 8],
        len: u8,
    },
}

/// Which [`Notice`] (what an expansion declares it hears).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heard {
    TilePlaced,
    ScoringBegins,
    FinalScoringBegins,
    FeatureScored,
    PointsScored,
    FigureMoved,
    Area,
}

impl Heard {
    /// How many kinds of notice there are (the last one's index + 1: keep `Area` last).
    pub const COUNT: usize = Heard::Area as usize + 1;
}

impl Notice {
    /// Which notice this is.
    #[inline]
    pub fn kind(&self) -> Heard {
        match self {
            Notice::TilePlaced => Heard::TilePlaced,
            Notice::ScoringBegins => Heard::ScoringBegins,
            Notice::FinalScoringBegins => Heard::FinalScoringBegins,
            Notice::FeatureScored { .. } => Heard::FeatureScored,
            Notice::PointsScored { .. } => Heard::PointsScored,
            Notice::FigureMoved { .. } => Heard::FigureMoved,
            Notice::AreaScored { .. } => Heard::Area,
        }
    }
}

/// One piece of an expansion on the board: where (in tile units: tile (x, y) spans x..x+1
/// and y..y+1, so a piece between two tiles sits on their shared edge), how it looks, whose it
/// is, and its tooltip.
#[derive(Clone, Debug, PartialEq)]
pub struct Piece {
    pub x: f64,
    pub y: f64,
    pub glyph: Glyph,
    pub owner: Option<u8>,
    pub note: String,
}

/// Rules an expansion cannot play together ([`Expansion::conflict`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// What is wrong, in words naming the expansion and the conflict.
    pub text: String,
    /// The statement the diagnostic points at.
    pub about: ConflictAbout,
}

/// The statement of a ruleset a [`Conflict`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConflictAbout {
    /// The `start` tile.
    Start,
    /// The deck (its last item).
    Deck,
}

/// Where the registry put an expansion (implemented by `expansions/mod.rs` for each member).
pub trait Registered {
    /// Its first decision kind (the core's come first, then each member's in order).
    const FIRST_DECISION: u8;
    /// Its first event kind (each member's in order).
    const FIRST_EVENT: u8;
    /// Its first scoring category (the core's first, then each member's in order).
    const FIRST_CATEGORY: u8;
    /// Its first counter (each member's in order).
    const FIRST_COUNTER: u8;
    /// Its first per-seat counter (each member's in order).
    const FIRST_SEAT_COUNTER: u8;
    /// Its first tile mark (each member's in order).
    const FIRST_MARK: u8;
    /// Its first follower kind (the core's plain follower first, then each member's in
    /// order).
    const FIRST_FOLLOWER_KIND: u8;
    /// Its first segment mark (each member's in order).
    const FIRST_SEGMENT_MARK: u8;
}

/// The decision kind of expansion `T`'s decision `local` (an index into its
/// [`Expansion::DECISIONS`]).
pub const fn kind_of<T: Registered>(local: u8) -> DecisionKind {
    DecisionKind(T::FIRST_DECISION + local)
}

/// The event kind of expansion `T`'s event `local` (an index into its
/// [`Expansion::EVENTS`]).
pub const fn event_of<T: Registered>(local: u8) -> EventKind {
    EventKind(T::FIRST_EVENT + local)
}

/// Expansion `T`'s scoring category `local` (an index into its [`Expansion::CATEGORIES`]).
pub const fn category_of<T: Registered>(local: u8) -> Category {
    Category(T::FIRST_CATEGORY + local)
}

/// Expansion `T`'s counter `local` (an index into its [`Expansion::COUNTERS`]).
pub const fn counter_of<T: Registered>(local: u8) -> Counter {
    Counter(T::FIRST_COUNTER + local)
}

/// Expansion `T`'s per-seat counter `local` (an index into its
/// [`Expansion::SEAT_COUNTERS`]).
pub const fn seat_counter_of<T: Registered>(local: u8) -> SeatCounter {
    SeatCounter(T::FIRST_SEAT_COUNTER + local)
}

/// The bit of expansion `T`'s tile mark `local` (an index into its
/// [`Expansion::TILE_MARKS`]) in a tile's marks.
pub const fn mark_of<T: Registered>(local: u8) -> u32 {
    1 << (T::FIRST_MARK + local)
}

/// Expansion `T`'s follower kind `local` (an index into its
/// [`Expansion::FOLLOWER_KINDS`]).
pub const fn follower_kind_of<T: Registered>(local: u8) -> FollowerKind {
    FollowerKind(T::FIRST_FOLLOWER_KIND + local)
}

/// The bit of expansion `T`'s segment mark `local` (an index into its
/// [`Expansion::SEGMENT_MARKS`]) in a segment's marks.
pub const fn segment_mark_of<T: Registered>(local: u8) -> u8 {
    1 << (T::FIRST_SEGMENT_MARK + local)
}
