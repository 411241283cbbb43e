//! Replaying one of meeplab's own game records, optionally stopping after a turn.

use super::diagnosing::Diagnosing;
use super::Run;
use crate::engine::{Compiled, OnIllegal, Scripted, TakenDecision};
use crate::policy::{Policy, PolicyKind};
use crate::record::{GameRecord, Replayed};
use std::sync::Arc;

/// Replay one of meeplab's own records (as `record::replay`, with an optional stop).
pub fn replay_record(
    rules: &Arc<Compiled>,
    record: &GameRecord,
    on_illegal: OnIllegal,
    fallback: PolicyKind,
    stop_after: Option<u32>,
) -> Run {
    let mut chooser = Diagnosing::new(Scripted::new(
        record.decisions.clone(),
        Policy::new(fallback),
        on_illegal,
    ));
    let replayed = crate::record::replay_with(rules, record, &mut chooser, stop_after, |c| {
        c.script.halted()
    });
    let unknown = replayed.unknown_tiles;
    let (game, events, halted, finished) = (
        replayed.game,
        replayed.events,
        replayed.halted,
        replayed.finished,
    );
    let unused: Vec<TakenDecision> = chooser.script.unused().cloned().collect();
    let mut notes = Vec::new();
    if !unknown.is_empty() {
        notes.push(format!(
            "tiles this ruleset does not know were left out: {}",
            unknown.join(", ")
        ));
    }
    Run {
        replayed: Replayed {
            outcome: game.outcome(),
            events,
            problems: chooser.script.problems.clone(),
            unrecorded: chooser.script.unrecorded,
            unknown_tiles: unknown,
            halted,
            finished,
            game,
        },
        unused,
        notes,
        warnings: Vec::new(),
        record_over: record.complete,
    }
}
