//! Replaying records: meeplab's own records and translated `.jcz` saves, under the ruleset
//! they were played under or another one, optionally stopping after a turn; the first
//! divergence between two replays' event streams.
//!
//! A `.jcz` is driven turn by turn with `Game::play_tile` (the active player is the one the
//! save names), its decisions followed by a [`Scripted`](crate::engine::Scripted) chooser. Under the save's own
//! ruleset ([`JczMode::Own`]) anything the engine does not accept is an error naming the
//! `replay[]` message: an illegal placement, a follower on an occupied feature, a recorded
//! decision the engine never asked for and whose effect did not happen. What the save does
//! not settle is never guessed: a decision the rules ask for that it does not record, a
//! turn it stops inside, a tile that is not JCloisterZone's draw (its pack is reproduced,
//! see [`crate::import::draws`], which also finds its discards and the end of the game) are
//! errors too, unless `OnIllegal::Policy` lets the policy fill them in, each with a warning.
//! Under another ruleset the same things are reported, and `OnIllegal` decides what happens.
//!
//! # The files
//! - `jcz.rs`: a translated save replayed ([`replay_jcz`]);
//! - `record.rs`: one of meeplab's own records replayed ([`replay_record`]);
//! - `diagnosing.rs`: the chooser that follows a script and says why a recorded decision
//!   is illegal or was never asked for;
//! - `divergence.rs`: the first place two replays' event streams differ.

mod diagnosing;
mod divergence;
mod jcz;
mod record;

pub use divergence::{event_json, first_divergence, Divergence};
pub use jcz::{replay_jcz, JczMode};
pub use record::replay_record;

use crate::engine::TakenDecision;
use crate::record::Replayed;

/// A replay and what it met on the way.
pub struct Run {
    pub replayed: Replayed,
    /// Recorded decisions the engine never asked for.
    pub unused: Vec<TakenDecision>,
    /// Remarks for the reader (discarded tiles, tiles that fit nowhere under another
    /// ruleset, …).
    pub notes: Vec<String>,
    /// What meeplab filled in or could not check because the user allowed it
    /// (`--on-illegal policy`): never silent, printed as warnings.
    pub warnings: Vec<String>,
    /// The record reaches the end of the game (the pack is exhausted): final scoring is due.
    pub record_over: bool,
}
