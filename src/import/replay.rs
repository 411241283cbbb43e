//! Replaying records: meeplab's own records and translated `.jcz` saves, under the ruleset
//! they were played under or another one, optionally stopping after a turn; the first
//! divergence between two replays' event streams.
//!
//! A `.jcz` is driven turn by turn with `Game::play_tile` (the active player is the one the
//! save names), its decisions followed by a [`Scripted`] chooser. In *strict* mode (the
//! save's own ruleset) anything the engine does not accept is an error naming the `replay[]`
//! message: an illegal placement, a follower on an occupied feature, a recorded decision the
//! engine never asked for and whose effect did not happen. Under another ruleset the same
//! things are reported, and `OnIllegal` decides what happens.

use crate::engine::script::describe;
use crate::engine::{
    Choice, Chooser, Compiled, Decision, DecisionKind, Event, Game, OnIllegal, Scripted,
    TakenDecision,
};
use crate::import::jcz::{JczError, Translated};
use crate::policy::{Policy, PolicyKind};
use crate::record::{GameRecord, Replayed};
use crate::ruleset::Ruleset;
use crate::tiles::FeatureKind;
use serde_json::Value;
use std::path::PathBuf;
use std::sync::Arc;

/// The folder of the bundled rulesets: `$MEEPLAB_RULESETS`, else `rulesets/` in the current
/// directory, else the one in the source tree meeplab was built from.
pub fn rulesets_dir() -> PathBuf {
    let mut cands = Vec::new();
    if let Some(d) = std::env::var_os("MEEPLAB_RULESETS") {
        cands.push(PathBuf::from(d));
    }
    cands.push(PathBuf::from("rulesets"));
    cands.push(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rulesets"));
    for c in &cands {
        if c.join("base.rules").is_file() {
            return std::fs::canonicalize(c).unwrap_or_else(|_| c.clone());
        }
    }
    PathBuf::from("rulesets")
}

/// A chooser that follows the script and, when a recorded choice is illegal, says why from
/// the position at that moment.
struct Diagnosing {
    script: Scripted<Policy>,
}

impl Chooser for Diagnosing {
    fn choose(&mut self, game: &Game, d: &Decision) -> usize {
        let before = self.script.problems.len();
        let i = self.script.choose(game, d);
        if self.script.problems.len() > before {
            if let Some(p) = self.script.problems.last_mut() {
                if let Some(why) = explain(game, d, &p.recorded) {
                    p.why = why;
                }
            }
        }
        i
    }
}

fn seat(p: u8) -> &'static str {
    crate::render::seat_name(p)
}

fn occupied_by(occ: &[u8]) -> String {
    let who: Vec<&str> = occ
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .map(|(p, _)| seat(p as u8))
        .collect();
    who.join(" and ")
}

/// Why a recorded choice is not legal now (None: no better words than the script's).
fn explain(game: &Game, d: &Decision, recorded: &Choice) -> Option<String> {
    let rules = &game.rules().rules;
    let farms_off = rules.scoring.farm == crate::ruleset::FarmRule::Off;
    let spot_kind = |x: i32, y: i32, s: u8| -> Option<FeatureKind> {
        let t = game.placed_tiles().get(game.tile_at(x, y)?)?;
        rules.tiles[t.tile as usize]
            .features
            .get(s as usize)
            .map(|f| f.kind)
    };
    match (d.kind, *recorded) {
        (DecisionKind::Follower, Choice::Follower { segment: Some(s) }) => {
            let t = game.placed_tiles().last()?;
            let kind = spot_kind(t.x, t.y, s)?;
            if game.supply(d.player) == 0 {
                return Some(format!("{} has no follower left", seat(d.player)));
            }
            if kind == FeatureKind::Field && farms_off {
                return Some("farmers are off in this ruleset".into());
            }
            let occ = game.feature_followers(t.x, t.y, s)?;
            if occ.iter().any(|&n| n > 0) {
                return Some(format!(
                    "a follower on the {kind} of ({},{}): that {kind} is already occupied by {}",
                    t.x,
                    t.y,
                    occupied_by(&occ)
                ));
            }
            None
        }
        (
            DecisionKind::CropDeploy,
            Choice::Spot {
                at: Some((x, y, s)),
            },
        )
        | (
            DecisionKind::CropRemove,
            Choice::Spot {
                at: Some((x, y, s)),
            },
        ) => {
            let kind = spot_kind(x, y, s)?;
            let mine = game
                .followers()
                .iter()
                .any(|f| f.player == d.player && game.node_spot(f.node) == (x, y, s));
            if !mine {
                return Some(format!(
                    "{} has no follower on the {kind} at ({x},{y}) (segment {s})",
                    seat(d.player)
                ));
            }
            None
        }
        (DecisionKind::CropDeploy, Choice::Spot { at: None }) => {
            Some("passing is not allowed: this ruleset makes deploying mandatory".into())
        }
        _ => None,
    }
}

/// A replay and what it met on the way.
pub struct Run {
    pub replayed: Replayed,
    /// Recorded decisions the engine never asked for.
    pub unused: Vec<TakenDecision>,
    /// Remarks for the reader (tiles that fit nowhere under another ruleset, …).
    pub notes: Vec<String>,
}

/// Whether an unasked recorded decision is consistent with what happened in `events` (the
/// engine took the only option without asking).
fn effect_seen(d: &TakenDecision, events: &[Event]) -> bool {
    let this = |e: &&Event| e.turn() == Some(d.turn);
    let mut it = events.iter().filter(this);
    match d.choice {
        Choice::Place { x, y, rot } => it.any(|e| {
            matches!(*e, Event::Placed { x: a, y: b, rot: r, .. } if (a, b, r) == (x, y, rot))
        }),
        Choice::Follower { segment: None } | Choice::Spot { at: None } => true,
        Choice::Follower { segment: Some(s) } => it.any(|e| {
            matches!(*e, Event::FollowerPlaced { player, segment, .. }
                if player == d.player && segment == s)
        }),
        Choice::Ingot { x, y } => it.any(|e| {
            matches!(*e, Event::IngotPlaced { x: a, y: b, .. } | Event::IngotTaken { x: a, y: b, .. }
                if (a, b) == (x, y))
        }),
        Choice::CropMode { deploy } => it.any(|e| {
            matches!(*e, Event::CropChoice { deploy: dd, .. } if dd == deploy)
        }),
        Choice::Spot { at: Some(at) } => it.any(|e| match *e {
            Event::CropDeployed {
                player,
                x,
                y,
                segment,
                ..
            }
            | Event::CropRemoved {
                player,
                x,
                y,
                segment,
                ..
            } => player == d.player && (x, y, segment) == at,
            _ => false,
        }),
        _ => false,
    }
}

fn unasked_why(d: &TakenDecision) -> String {
    match d.kind {
        DecisionKind::Follower => {
            "no follower could be placed there (occupied feature, farmers off, or no follower left)"
                .into()
        }
        DecisionKind::CropMode => "this tile has no crop-circle action in this game".into(),
        DecisionKind::CropDeploy | DecisionKind::CropRemove => format!(
            "{} has no crop-circle action now (no follower of that type on the board, or none in supply)",
            seat(d.player)
        ),
        DecisionKind::IngotPlace => "no ingot goes there".into(),
        _ => "the engine never asked for it".into(),
    }
}

/// Replay a translated `.jcz` under `rules`. `strict`: the save's own ruleset; every
/// disagreement is an error. `stop_after`: stop (without final scoring) after that turn.
///
/// Each recorded turn gets its own script, renumbered to the turn the engine is at, so a
/// tile another ruleset does not know (or that fits nowhere there) shifts nothing after it.
pub fn replay_jcz(
    rules: &Arc<Compiled>,
    tr: &Translated,
    players: u8,
    on_illegal: OnIllegal,
    fallback: PolicyKind,
    strict: bool,
    stop_after: Option<u32>,
) -> Result<Run, JczError> {
    let r = &rules.rules;
    let room = rules.rules.total_tiles().max(tr.draws.len() + 1);
    let mut game = Game::with_room_for(rules.clone(), 0, players, room);
    let mut events = Vec::new();
    let mut notes = Vec::new();
    let mut unused: Vec<TakenDecision> = Vec::new();
    let mut unknown = Vec::new();
    let mut problems = Vec::new();
    let mut unrecorded = 0;
    game.setup(&mut events);
    let mut halted = false;
    let mut stopped = false;
    for (k, draw) in tr.draws.iter().enumerate() {
        if stop_after.is_some_and(|s| game.turn() >= s) {
            stopped = true;
            break;
        }
        let Some(tile) = r.tile_index(&draw.id) else {
            notes.push(format!(
                "recorded turn {}: this ruleset has no tile {}; left out",
                k + 1,
                draw.id
            ));
            unknown.push(draw.id.clone());
            continue;
        };
        if strict && !game.placement_legal(tile, draw.x, draw.y, draw.rot) {
            let why = if game.tile_at(draw.x, draw.y).is_some() {
                "the place already holds a tile"
            } else if !touches(&game, draw.x, draw.y) {
                "it touches no tile on the board"
            } else {
                "its edges do not match the neighbouring tiles"
            };
            return Err(JczError {
                message: Some(draw.message),
                kind: Some("PLACE_TILE".into()),
                text: format!(
                    "illegal placement of {} at ({},{}) turned {}°: {why}",
                    draw.id,
                    draw.x,
                    draw.y,
                    draw.rot as u32 * 90
                ),
            });
        }
        let turn = game.turn() + 1;
        let recorded: Vec<usize> = (0..tr.decisions.len())
            .filter(|&i| tr.decisions[i].turn == k as u32 + 1)
            .collect();
        let script: Vec<TakenDecision> = recorded
            .iter()
            .map(|&i| TakenDecision {
                turn,
                ..tr.decisions[i].clone()
            })
            .collect();
        let origin = |d: &TakenDecision| {
            script
                .iter()
                .position(|x| x == d)
                .map(|j| tr.origins[recorded[j]])
        };
        let mut chooser = Diagnosing {
            script: Scripted::new(script.clone(), Policy::new(fallback), on_illegal),
        };
        if let Err(e) = game.play_tile(tile, draw.player, &mut chooser, &mut events) {
            if strict {
                return Err(JczError {
                    message: Some(draw.message),
                    kind: Some("PLACE_TILE".into()),
                    text: e,
                });
            }
            notes.push(format!(
                "recorded turn {}: {e}; the tile is left out",
                k + 1
            ));
            continue;
        }
        unrecorded += chooser.script.unrecorded;
        if let Some(p) = chooser.script.problems.first() {
            if strict {
                let d = TakenDecision {
                    turn: p.turn,
                    player: p.player,
                    kind: p.kind,
                    choice: p.recorded,
                };
                return Err(JczError {
                    message: origin(&d),
                    kind: None,
                    text: format!("illegal {}: {}", describe(&p.recorded), p.why),
                });
            }
        }
        problems.extend(chooser.script.problems.iter().cloned());
        for d in chooser.script.unused() {
            if effect_seen(d, &events) {
                continue;
            }
            if strict {
                return Err(JczError {
                    message: origin(d),
                    kind: None,
                    text: format!(
                        "{} was not possible: {}",
                        describe(&d.choice),
                        unasked_why(d)
                    ),
                });
            }
            unused.push(d.clone());
        }
        if chooser.script.halted() {
            halted = true;
            break;
        }
    }
    // A save whose last tiles fit nowhere: JCloisterZone discarded them and ended the game.
    let rest_unplaceable =
        !tr.left_in_pack.is_empty() && tr.left_in_pack.iter().all(|&t| !game.fits_anywhere(t));
    let finished = !halted && !stopped && (tr.complete || rest_unplaceable);
    if finished {
        let mut chooser = Scripted::new(Vec::new(), Policy::new(fallback), on_illegal);
        game.finish(&mut chooser, &mut events);
        unrecorded += chooser.unrecorded;
    }
    Ok(Run {
        replayed: Replayed {
            outcome: game.outcome(),
            events,
            problems,
            unrecorded,
            unknown_tiles: unknown,
            halted,
            finished,
            game,
        },
        unused,
        notes,
    })
}

fn touches(game: &Game, x: i32, y: i32) -> bool {
    [(0, -1), (1, 0), (0, 1), (-1, 0)].iter().any(|(dx, dy)| {
        game.tile_at(x.saturating_add(*dx), y.saturating_add(*dy))
            .is_some()
    })
}

/// Replay one of meeplab's own records (as `record::replay`, with an optional stop).
pub fn replay_record(
    rules: &Arc<Compiled>,
    record: &GameRecord,
    on_illegal: OnIllegal,
    fallback: PolicyKind,
    stop_after: Option<u32>,
) -> Run {
    let mut chooser = Diagnosing {
        script: Scripted::new(record.decisions.clone(), Policy::new(fallback), on_illegal),
    };
    let driven = crate::record::drive(rules, record, &mut chooser, stop_after, |c| {
        c.script.halted()
    });
    let unknown = driven.unknown_tiles;
    let (game, events, halted, finished) =
        (driven.game, driven.events, driven.halted, driven.finished);
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
    }
}

/// The first place two replays' event streams differ.
#[derive(Clone, Debug)]
pub struct Divergence {
    /// Index into both event lists.
    pub index: usize,
    /// The turn it happened in (`None`: set-up or final gold).
    pub turn: Option<u32>,
    pub a: Option<Value>,
    pub b: Option<Value>,
    pub a_text: String,
    pub b_text: String,
}

/// An event as JSON with tile indices replaced by tile ids (indices differ between rulesets).
pub fn event_json(rules: &Ruleset, e: &Event) -> Value {
    let mut v = serde_json::to_value(e).unwrap_or(Value::Null);
    if let Some(t) = v.get_mut("tile") {
        if let Some(i) = t.as_u64() {
            if let Some(tt) = rules.tiles.get(i as usize) {
                *t = Value::String(tt.id.clone());
            }
        }
    }
    v
}

fn event_text(rules: &Ruleset, e: &Event) -> String {
    crate::render::narrate::describe(rules, e)
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|| e.kind().replace('_', " "))
}

/// Compare two event streams (tiles by id); `None` when they are identical.
pub fn first_divergence(
    ra: &Ruleset,
    a: &[Event],
    rb: &Ruleset,
    b: &[Event],
) -> Option<Divergence> {
    let n = a.len().max(b.len());
    for i in 0..n {
        let ja = a.get(i).map(|e| event_json(ra, e));
        let jb = b.get(i).map(|e| event_json(rb, e));
        if ja != jb {
            let turn = a.get(i).or(b.get(i)).and_then(Event::turn);
            return Some(Divergence {
                index: i,
                turn,
                a_text: a
                    .get(i)
                    .map_or("(no more events)".into(), |e| event_text(ra, e)),
                b_text: b
                    .get(i)
                    .map_or("(no more events)".into(), |e| event_text(rb, e)),
                a: ja,
                b: jb,
            });
        }
    }
    None
}
