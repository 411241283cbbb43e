//! The game engine: board, feature graph, turn state machine and scoring, with each
//! expansion in its own file. Plays complete seeded games under a compiled ruleset.
//!
//! - `compiled`: a ruleset's tiles pre-rotated into small tables, shared by all games;
//! - `board`: grid, legal placements, feature graph (petgraph + union-find);
//! - `game`: state and the order of a turn; `scoring`: completion, majority, formulas, farms;
//! - `gold`, `robbers`, `crop`: the Gold Mines, The Robbers, Crop Circles;
//! - `event`, `decision`, `outcome`: what the engine tells the world and asks of players.

mod board;
pub mod compiled;
mod crop;
pub mod decision;
pub mod event;
mod game;
mod gold;
pub mod outcome;
mod preview;
pub mod rng;
mod robbers;
mod scoring;
pub mod script;

pub use compiled::Compiled;
pub use decision::{Choice, Chooser, Decision, DecisionKind, TakenDecision};
pub use event::{Event, EventSink, NoEvents, Phase};
pub use game::{DrawSource, Follower, Game, PlacedTile, MAX_PLAYERS, MAX_TILES};
pub use outcome::{ByCategory, Category, GameOutcome, SeatResult};
pub use script::{OnIllegal, ScriptProblem, Scripted};

use crate::policy::{Policy, PolicyKind};
use crate::ruleset::Ruleset;
use std::sync::Arc;

/// Compile a ruleset for play (once; share the result across games and threads).
pub fn compile(rules: &Ruleset) -> Arc<Compiled> {
    Arc::new(Compiled::new(rules))
}

/// Play one complete game and return its summary (no events kept).
pub fn play(rules: &Arc<Compiled>, seed: u64, players: u8, policy: PolicyKind) -> GameOutcome {
    let mut game = Game::new(rules.clone(), seed, players);
    let mut p = Policy::new(policy);
    game.play(&mut p, &mut NoEvents)
}

/// Play one complete game keeping every event.
pub fn play_with_events(
    rules: &Arc<Compiled>,
    seed: u64,
    players: u8,
    policy: PolicyKind,
) -> (GameOutcome, Vec<Event>) {
    let mut game = Game::new(rules.clone(), seed, players);
    let mut p = Policy::new(policy);
    let mut events = Vec::new();
    let outcome = game.play(&mut p, &mut events);
    (outcome, events)
}

thread_local! {
    static PLAYERS: std::cell::RefCell<Vec<(usize, PolicyKind, Player)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Play one game reusing this thread's board allocations for `rules` (bulk comparisons).
/// Gives exactly what [`play`] gives.
pub fn play_cached(
    rules: &Arc<Compiled>,
    seed: u64,
    players: u8,
    policy: PolicyKind,
) -> GameOutcome {
    let key = Arc::as_ptr(rules) as usize;
    PLAYERS.with(|cell| {
        let mut cache = cell.borrow_mut();
        let i = match cache
            .iter()
            .position(|(k, p, pl)| *k == key && *p == policy && Arc::ptr_eq(&pl.game.rules, rules))
        {
            Some(i) => i,
            None => {
                if cache.len() >= 8 {
                    cache.remove(0);
                }
                cache.push((key, policy, Player::new(rules, policy)));
                cache.len() - 1
            }
        };
        cache[i].2.play(seed, players)
    })
}

/// A reusable player of many games on one thread (keeps the board allocations).
pub struct Player {
    game: Game,
    policy: Policy,
}

impl Player {
    pub fn new(rules: &Arc<Compiled>, policy: PolicyKind) -> Player {
        Player {
            game: Game::new(rules.clone(), 0, 2),
            policy: Policy::new(policy),
        }
    }

    pub fn play(&mut self, seed: u64, players: u8) -> GameOutcome {
        self.game.reset(seed, players);
        self.game.play(&mut self.policy, &mut NoEvents)
    }
}
