//! Where a game stands in its turn: the phase cursor ([`Step`]) the turn loop (`turn.rs`)
//! advances, and the points of the turn where the expansions act ([`Hook`], their seam is
//! `hooks.rs`). Plain data, so that the game's state (`game.rs`) holds it without reading the
//! seam.

/// A point of the turn where expansions act, in turn order, and may ask decisions. Each
/// expansion that takes part runs to its end or to a decision; the turn resumes it with the
/// answer (its progress is data in its own state).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hook {
    /// The tile is drawn, not yet placed (robbers, 2025 timing).
    TileDrawn,
    /// The tile is placed, the follower not yet (robbers, ingots).
    TilePlaced,
    /// The follower is placed; the turn's completed features are not scored yet (a small
    /// city may become an expansion's token instead).
    BeforeScoring,
    /// The turn's completed features are scored: the scoring step closes (robbers rob).
    TurnScored,
    /// After the turn's scoring (gold hand-out, crop circles).
    AfterScoring,
    /// The turn ends (before the turn-end event).
    TurnEnd,
    /// Final scoring, after incomplete features and farms (gold hand-out and value).
    FinalScoring,
    /// Final scoring is done: its scoring step closes (robbers rob).
    FinalScored,
}

impl Hook {
    /// How many hooks there are (the last one's index + 1: keep `FinalScored` last).
    pub const COUNT: usize = Hook::FinalScored as usize + 1;
}

/// Where the game stands: the phase the next call continues (the turn loop in
/// `engine::turn` advances it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// The start tile is not placed yet.
    Setup,
    /// Between turns: the next tile comes from chance.
    Boundary,
    /// The expansions act at a hook (`Game::hook_member` says which of those taking part
    /// acts now: kept out of the step so that the step is one byte the turn loop dispatches
    /// on with a jump table).
    Hook(Hook),
    /// The tile's placement.
    Place,
    /// The follower.
    Follower,
    /// Scoring the completed features.
    Score,
    /// The turn ends.
    TurnEnd,
    /// The game ends (after the final hooks).
    GameEnd,
    /// The game is over.
    Over,
    /// Which tile of the hand to play (the `hand` house rule; last, so that the steps of
    /// every game keep their numbers).
    Pick,
}
