//! The game engine: board, feature graph, turn state machine and scoring, with the
//! expansions behind one seam. Plays complete seeded games under a compiled ruleset.
//!
//! - `compiled`: a ruleset's tiles pre-rotated into small tables, shared by all games;
//! - `board`: grid, legal placements, feature graph (over `union_find`);
//! - `game`: the state; `followers`: followers placed, returned, offered and in supply;
//!   `pack`: the pack and hands as seen, determinizations; `scoring`: completion, majority,
//!   formulas, farms;
//! - `turn`: the turn as data (a phase cursor) and the pull API (`pending`, `apply`, `draw`);
//!   `checked`: the checked moves ([`Game::apply`], [`Game::apply_choice`], [`MoveError`]);
//!   `play`: loops that play a game, turn or final scoring with one chooser;
//! - `hooks`: the seam where expansions plug in; `expansions`: one module per expansion, the
//!   tables of what they declare, and how to add one;
//! - `event`, `decision`, `outcome`: what the engine tells the world and asks of players;
//!   `follower_kind`: the kinds of follower (the plain one, the expansions' large ones…);
//! - `invariants`: what every position must keep (followers, ingots, tiles, scores),
//!   checked after every move by the fuzz target and the property tests;
//! - `state_hash`: the end-of-turn state hashes and event marks that divergence reads;
//! - `swap`: the same position under other rules ([`Incompatible`] says why not);
//! - `view`: what one seat may know ([`SeatView`]: the public state, its own hand, the unseen
//!   tiles as a multiset), the only thing a policy decides from, and its determinizations.
//!
//! The engine names no policy: choosers come from outside ([`Chooser`]), and playing many
//! games with policies is [`crate::play`]'s job.

mod board;
mod checked;
pub mod compiled;
mod component;
mod copy;
pub mod decision;
mod deck_order;
pub mod event;
pub mod expansions;
pub mod follower_kind;
mod followers;
mod game;
mod game_api;
pub mod glyph;
mod grid;
pub mod hooks;
pub mod invariants;
pub mod outcome;
mod pack;
mod play;
pub mod rng;
mod scoring;
pub mod script;
pub mod spots;
pub mod state_hash;
mod step;
mod swap;
mod turn;
mod turn_records;
mod union_find;
pub mod view;

pub use board::AROUND;
pub use checked::MoveError;
pub use compiled::Compiled;
pub use compiled::NONE;
pub use decision::{Choice, Chooser, Decision, DecisionKind, TakenDecision, Wording};
pub use event::{Event, EventSink, NoEvents, Phase};
pub use follower_kind::{FollowerKind, FollowerKindSpec};
pub use game::{
    Component, DrawSource, Follower, PlacedTile, SegNode, MAX_PLAYERS, MAX_TILES, NO_NODE,
};
pub use outcome::{
    ByCategory, Category, Counter, CounterSpec, Counters, GameOutcome, RestSpec, SeatCounter,
    SeatCounterSpec, SeatCounts, SeatResult,
};
pub use scoring::majority;
pub use script::{OnIllegal, ScriptProblem, Scripted};
pub use swap::{can_hold, Incompatible};
pub use turn::Pending;
pub use view::SeatView;

use crate::ruleset::Ruleset;
use std::sync::Arc;

/// One game in progress, carrying the registered expansions (see [`game::Game`]).
pub type Game = game::Game<expansions::Set>;

/// Whether the rulesets `from` and `to` can hold the same positions of a game of `players`
/// seats (the decision probes need it): [`can_hold`] for this crate's expansions.
pub fn can_share_positions(
    from: &Compiled,
    to: &Compiled,
    players: u8,
) -> Result<(), Incompatible> {
    can_hold::<expansions::Set>(from, to, players)
}

/// Compile a ruleset for play (once; share the result across games and threads).
pub fn compile(rules: &Ruleset) -> Arc<Compiled> {
    Arc::new(Compiled::new(
        rules,
        compiled::TileHooks {
            derived_tiles: expansions::derived_tiles,
            telling_marks: expansions::telling_marks,
            oriented_marks: expansions::oriented_marks,
        },
    ))
}
