//! meeplab's own game records: the ruleset's identity, seed, seats, policy, the tiles in the
//! order they were drawn, and every decision taken in semantic form. `play --record` writes
//! one; `replay` plays it back, under the same or another ruleset.

use crate::engine::{
    Chooser, Compiled, Event, Game, GameOutcome, OnIllegal, ScriptProblem, Scripted, TakenDecision,
};
use crate::play::{Choosers, Seats};
use crate::policy::spec::{PolicyError, SeatPolicies};
use crate::policy::{Policy, PolicyKind};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The format tag written in every record.
pub const FORMAT: &str = "meeplab-record/1";

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordRuleset {
    pub name: String,
    pub hash: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
}

/// A recorded game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    pub format: String,
    pub ruleset: RecordRuleset,
    pub seed: u64,
    pub players: u8,
    /// Each seat's policy (`greedy`, or one per seat: `greedy,mcts:200`).
    pub policy: SeatPolicies,
    /// Tile ids in the order drawn (discarded ones included), the start tile excluded.
    pub draws: Vec<String>,
    /// Set when the pack held only these draws and the game ended with final scoring.
    #[serde(default = "yes")]
    pub complete: bool,
    pub decisions: Vec<TakenDecision>,
}

fn yes() -> bool {
    true
}

/// Play a game keeping events and the record, each seat playing its `policy` (a per-seat
/// list whose length is not `players` is an error).
pub fn play_recorded(
    rules: &Arc<Compiled>,
    seed: u64,
    players: u8,
    policy: &SeatPolicies,
) -> Result<(GameOutcome, Vec<Event>, GameRecord), PolicyError> {
    let mut game = Game::new(rules.clone(), seed, players);
    game.enable_record();
    let mut chooser = Choosers::new(Seats::for_players(policy, players)?);
    let mut events = Vec::new();
    let outcome = game.play(&mut chooser, &mut events);
    let r = &rules.rules;
    let draws = game
        .drawn_tiles()
        .iter()
        .map(|&t| r.tiles[t as usize].id.clone())
        .collect();
    let record = GameRecord {
        format: FORMAT.to_string(),
        ruleset: RecordRuleset {
            name: r.name.clone(),
            hash: r.hash.clone(),
            file: r.file.clone(),
        },
        seed,
        players,
        policy: policy.clone(),
        draws,
        complete: true,
        decisions: game.take_record(),
    };
    Ok((outcome, events, record))
}

/// The result of replaying a record.
pub struct Replayed {
    pub outcome: GameOutcome,
    pub events: Vec<Event>,
    /// Recorded decisions that were illegal under the replaying ruleset.
    pub problems: Vec<ScriptProblem>,
    /// Decisions the record did not cover (taken by the fallback policy).
    pub unrecorded: u32,
    /// Recorded tiles the replaying ruleset does not know (left out of the pack).
    pub unknown_tiles: Vec<String>,
    /// The replay stopped early (an illegal decision with `OnIllegal::Stop`).
    pub halted: bool,
    /// The game reached final scoring.
    pub finished: bool,
    /// The replay with its game state, for pictures.
    pub game: Game,
}

/// A record replayed to its end with some chooser: the game, its events, and how it ended.
pub struct ReplayedGame {
    pub game: Game,
    pub events: Vec<Event>,
    /// Recorded tiles the replaying ruleset does not know (left out of the pack).
    pub unknown_tiles: Vec<String>,
    /// The chooser asked to stop (an illegal decision with `OnIllegal::Stop`).
    pub halted: bool,
    /// The game reached final scoring.
    pub finished: bool,
}

/// Replay `record`'s draws (by tile id) under `rules` with `chooser` making every decision
/// ([`replay`] gives it the record's own decisions, by meaning), until the pack ends (then final scoring, if the record is of a complete game), the chooser halts,
/// or `stop_after` turns have been played. `halted` says when the chooser wants to stop (checked
/// after each turn).
pub fn replay_with<C: Chooser>(
    rules: &Arc<Compiled>,
    record: &GameRecord,
    chooser: &mut C,
    stop_after: Option<u32>,
    halted: impl Fn(&C) -> bool,
) -> ReplayedGame {
    let mut unknown_tiles = Vec::new();
    let mut draws = Vec::with_capacity(record.draws.len());
    for id in &record.draws {
        match rules.rules.tile_index(id) {
            Some(t) => draws.push(t),
            None => unknown_tiles.push(id.clone()),
        }
    }
    // room for every recorded draw, even when this ruleset's pack is smaller
    let room = rules.rules.total_tiles().max(draws.len() + 1);
    let mut game = Game::with_room_for(rules.clone(), record.seed, record.players, room);
    game.force_draws(draws);
    let mut events = Vec::new();
    game.setup(&mut events);
    let mut is_halted = false;
    let mut stopped = false;
    loop {
        if stop_after.is_some_and(|s| game.turn() >= s) {
            stopped = true;
            break;
        }
        if !game.play_turn(chooser, &mut events) {
            break;
        }
        if halted(chooser) {
            is_halted = true;
            break;
        }
    }
    let finished = !is_halted && !stopped && record.complete;
    if finished {
        game.finish(chooser, &mut events);
    }
    ReplayedGame {
        game,
        events,
        unknown_tiles,
        halted: is_halted,
        finished,
    }
}

/// Replay `record` under `rules`: the same draws (by tile id) and the same decisions by
/// meaning; what the record lacks is decided by `fallback`.
pub fn replay(
    rules: &Arc<Compiled>,
    record: &GameRecord,
    on_illegal: OnIllegal,
    fallback: PolicyKind,
) -> Replayed {
    let mut script = Scripted::new(record.decisions.clone(), Policy::new(fallback), on_illegal);
    let d = replay_with(rules, record, &mut script, None, |s| s.halted());
    Replayed {
        outcome: d.game.outcome(),
        events: d.events,
        problems: script.problems.clone(),
        unrecorded: script.unrecorded,
        unknown_tiles: d.unknown_tiles,
        halted: d.halted,
        finished: d.finished,
        game: d.game,
    }
}
