//! Following a record's decisions and explaining the ones that fail: the [`Diagnosing`]
//! chooser takes each recorded choice, and when one is illegal says why from the position at
//! that moment (a feature occupied, a tile that does not fit, …); it keeps the decisions the
//! record lacked; in a `.jcz` turn the importer parts answer what the save does not record
//! one by one ([`TurnAnswers`]). Also the words for a recorded decision the engine never
//! asked for (the parts' own: [`JczPart`](crate::import::jcz::JczPart)).

use crate::engine::{
    Choice, Chooser, Decision, DecisionKind, Event, Game, Scripted, TakenDecision,
};
use crate::import::jcz::parts::PARTS;
use crate::import::jcz::{Translated, TurnAnswers};
use crate::policy::Policy;
use crate::tiles::FeatureKind;

/// A chooser that follows the script and, when a recorded choice is illegal, says why from
/// the position at that moment; it keeps the decisions the record lacked.
pub(super) struct Diagnosing {
    pub(super) script: Scripted<Policy>,
    /// Decisions the record does not have (kind, player, options), in order.
    pub(super) unrecorded: Vec<(DecisionKind, u8, usize)>,
    /// What the importer parts answer in a `.jcz` turn (castles, crop-circle passes without
    /// a player, abbots kept); none for own records, which record every answer.
    pub(super) answers: Vec<Box<dyn TurnAnswers>>,
}

impl Diagnosing {
    pub(super) fn new(script: Scripted<Policy>) -> Diagnosing {
        Diagnosing {
            script,
            unrecorded: Vec::new(),
            answers: Vec::new(),
        }
    }

    /// The same for recorded turn `k` of a translated save, knowing the turn's recorded
    /// decisions (`decisions`): the parts answer what the save does not record one by one.
    pub(super) fn for_turn(
        script: Scripted<Policy>,
        tr: &Translated,
        k: usize,
        decisions: &[TakenDecision],
    ) -> Diagnosing {
        let mut d = Diagnosing::new(script);
        d.answers = PARTS
            .iter()
            .filter_map(|p| p.answers(tr, k, decisions))
            .collect();
        d
    }
}

impl Chooser for Diagnosing {
    fn choose(&mut self, game: &Game, d: &Decision) -> usize {
        for a in &mut self.answers {
            if let Some(i) = a.answer(game, d) {
                return i;
            }
        }
        let before = self.script.problems.len();
        let unrecorded = self.script.unrecorded;
        let i = self.script.choose(game, d);
        if self.script.unrecorded > unrecorded {
            self.unrecorded.push((d.kind, d.player, d.options));
        }
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

pub(super) fn seat(p: u8) -> &'static str {
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
        (
            DecisionKind::FOLLOWER,
            Choice::Follower {
                segment: Some(s),
                kind: piece,
            },
        ) => {
            let t = game.placed_tiles().last()?;
            let kind = spot_kind(t.x, t.y, s)?;
            if game.supply_of(d.player, piece) == 0 {
                return Some(format!("{} has no {piece} left", seat(d.player)));
            }
            if !piece.spec().may_stand_on(kind) {
                return Some(format!("a {piece} may not stand on a {kind}"));
            }
            if kind == FeatureKind::Field && farms_off {
                return Some("farmers are off in this ruleset".into());
            }
            let occ = game.feature_followers(t.x, t.y, s)?;
            if piece.spec().needs_own {
                if occ[d.player as usize] == 0 {
                    return Some(format!(
                        "a {piece} on the {kind} of ({},{}): {} has no follower on that {kind}",
                        t.x,
                        t.y,
                        seat(d.player)
                    ));
                }
            } else if occ.iter().any(|&n| n > 0) {
                return Some(format!(
                    "a follower on the {kind} of ({},{}): that {kind} is already occupied by {}",
                    t.x,
                    t.y,
                    occupied_by(&occ)
                ));
            }
            None
        }
        _ => PARTS.iter().find_map(|p| p.explain(game, d, recorded)),
    }
}

/// Whether an unasked recorded decision is consistent with what happened in `events` (the
/// engine took the only option without asking).
pub(super) fn effect_seen(d: &TakenDecision, events: &[Event]) -> bool {
    let this = |e: &&Event| e.turn() == Some(d.turn);
    let mut it = events.iter().filter(this);
    match d.choice {
        Choice::Place { x, y, rot } => it.any(|e| {
            matches!(*e, Event::Placed { x: a, y: b, rot: r, .. } if (a, b, r) == (x, y, rot))
        }),
        Choice::Follower { segment: None, .. } | Choice::Spot { at: None } => true,
        // a bridge not built (recorded for each turn with bridges) needs no offer
        Choice::Token { at: None } => true,
        Choice::Follower {
            segment: Some(s),
            kind: piece,
        } => it.any(|e| {
            matches!(*e, Event::FollowerPlaced { player, segment, kind, .. }
                if player == d.player && segment == s && kind == piece)
        }),
        Choice::Tile { tile } => it.any(|e| {
            matches!(*e, Event::Chosen { player, tile: t, .. } if player == d.player && t == tile)
        }),
        _ => PARTS
            .iter()
            .find_map(|p| p.effect_seen(d, events))
            .unwrap_or(false),
    }
}

pub(super) fn unasked_why(d: &TakenDecision) -> String {
    match d.kind {
        DecisionKind::FOLLOWER => {
            "no follower could be placed there (occupied feature, farmers off, or no follower left)"
                .into()
        }
        _ => PARTS
            .iter()
            .find_map(|p| p.unasked_why(d))
            .unwrap_or_else(|| "the engine never asked for it".into()),
    }
}
