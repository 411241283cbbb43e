//! The game engine: board, feature graph, turn state machine and scoring, with each
//! expansion in its own file. Plays complete seeded games under a compiled ruleset.

pub mod outcome;

pub use outcome::{ByCategory, Category, GameOutcome, SeatResult};
