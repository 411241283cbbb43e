//! A save as read ([`JczGame`]: the set-up, the players, the decoded messages, the draws
//! and the test assertions), for the steps after the reading (`save.rs` reads it).

use super::message::Message;
use super::setup::Setup;

/// The `test` section.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TestSpec {
    pub description: Option<String>,
    pub assertions: Vec<String>,
}

/// A parsed save.
#[derive(Clone, Debug, PartialEq)]
pub struct JczGame {
    pub app_version: String,
    pub setup: Setup,
    pub players: Vec<String>,
    pub messages: Vec<Message>,
    /// `initialRandom`.
    pub initial_random: Option<f64>,
    /// The forced draws (`drawOrder` without a final `#END`).
    pub draw_order: Vec<String>,
    /// The draw order ends with `#END`.
    pub draw_order_ends: bool,
    /// `endTurn` / `drawLimit`: the number of draws the pack holds.
    pub draw_limit: Option<u32>,
    pub test: Option<TestSpec>,
    /// Things read but ignored.
    pub warnings: Vec<String>,
}
