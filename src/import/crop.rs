//! Crop Circles in JCloisterZone saves: the sets `corn-circles/1` and `corn-circles/2`, the
//! element `corn-circle` (the crop-circle action: JCloisterZone's client switches it on for
//! any corn-circles set, so the sets bring it), `CIRCLE_REMOVE_OR_DEPLOY` and `RETURN_MEEPLE`
//! with `source: CORN_CIRCLE`. The importer's set-up, mapping and messages ask it through
//! [`PART`].
//!
//! # The mapping
//! - the action on (and no gold) → the mapped ruleset extends `cropcircles.rules`;
//! - `crop-circles-1 xN`, `crop-circles-2 xN` in the deck; without the action their tiles are
//!   written without their symbol (see [`crate::import::gold::plain_tiles`]).

use crate::engine::expansions::crop::{
    CROP_CHOICE, CROP_DEPLOY, CROP_DEPLOYED, CROP_MODE, CROP_REMOVE, CROP_REMOVED,
};
use crate::engine::{Choice, Decision, DecisionKind, Event, Game, TakenDecision};
use crate::import::gold::symbol_tiles;
use crate::import::jcz::part::{JczPart, Mapping, RawMessage};
use crate::import::jcz::{
    Current, JczError, Message, Msg, PartMsg, Pointer, Setup, Step, Translated, Translator,
    TurnAnswers,
};

/// The player of a crop-circle `PASS` written without `player`: the seat JCloisterZone asked
/// then, which only the replay knows (it takes the pass for the next player the rules ask
/// who has no recorded crop-circle action).
pub const ANY_PLAYER: u8 = u8::MAX;

/// Crop Circles' messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CropMsg {
    /// `CIRCLE_REMOVE_OR_DEPLOY`.
    Choice { deploy: bool },
    /// `RETURN_MEEPLE` with `source: CORN_CIRCLE`.
    Return(Pointer),
}

/// The crop-circle step of the turn under way: the active player's choice, and the players
/// who had their go (the step itself, and who owes a `COMMIT`, is the translator's
/// [`Step::After`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct CropStep {
    deploy: bool,
    acted: u8,
}

/// What a player does in the crop-circle step.
enum CropAct<'p> {
    Pass,
    Deploy(&'p Pointer),
    Return(&'p Pointer),
}

/// The step it opens after the turn's `COMMIT`, as errors name it.
const STEP: &str = "the crop-circle step";

/// The tiles of `corn-circles/1` (JCloisterZone's ids).
pub const CORN_CIRCLES_1: &[(&str, u32)] = &[
    ("CC.1/Cc.1", 1),
    ("CC.1/CC.2", 1),
    ("CC.1/CR", 1),
    ("CC.1/Rr", 1),
    ("CC.1/RrC", 1),
    ("CC.1/RRR", 1),
];

/// The tiles of `corn-circles/2`.
pub const CORN_CIRCLES_2: &[(&str, u32)] = &[
    ("CC.2/RRr", 1),
    ("CC.2/RRRr", 1),
    ("CC.2/CFR", 1),
    ("CC.2/RCR", 1),
    ("CC.2/CFC", 1),
    ("CC.2/CcCc", 1),
];

/// Crop Circles' part of a save's set-up.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CropSetup {
    /// Copies of `corn-circles/1`.
    pub crop1: u32,
    /// Copies of `corn-circles/2`.
    pub crop2: u32,
    /// The crop-circle action (the `corn-circle` element, brought by the sets).
    pub action: bool,
}

/// The importer part of Crop Circles.
pub struct CropPart;

/// Its registration (in [`crate::import::jcz::parts`]).
pub static PART: CropPart = CropPart;

impl JczPart for CropPart {
    fn name(&self) -> &'static str {
        "crop circles"
    }
    fn sets(&self) -> &'static [&'static str] {
        &["corn-circles/1", "corn-circles/2"]
    }
    fn set_tiles(&self, set: &str) -> Option<&'static [(&'static str, u32)]> {
        match set {
            "corn-circles/1" => Some(CORN_CIRCLES_1),
            "corn-circles/2" => Some(CORN_CIRCLES_2),
            _ => None,
        }
    }
    fn read_set(&self, set: &str, copies: u32, s: &mut Setup) -> Result<(), JczError> {
        let c = s.part_mut::<CropSetup>();
        if set == "corn-circles/1" {
            c.crop1 = copies;
        } else {
            c.crop2 = copies;
        }
        Ok(())
    }
    fn elements(&self) -> &'static [&'static str] {
        &["corn-circle"]
    }
    fn read_element(
        &self,
        _name: &str,
        _v: &serde_json::Value,
        s: &mut Setup,
    ) -> Result<(), JczError> {
        s.part_mut::<CropSetup>().action = true;
        Ok(())
    }
    fn settle(&self, s: &mut Setup) -> Result<(), JczError> {
        // JCloisterZone's client switches `corn-circle` on for any corn-circles set
        // (`enforces` in its expansions.js), so the set brings the crop-circle action with or
        // without the element in the save (the 5.7 scenarios lack it)
        let c = s.part_mut::<CropSetup>();
        c.action = c.crop1 + c.crop2 > 0;
        Ok(())
    }
    fn messages(&self) -> &'static [&'static str] {
        &["CIRCLE_REMOVE_OR_DEPLOY", "RETURN_MEEPLE CORN_CIRCLE"]
    }
    fn parse_message(&self, m: &RawMessage) -> Option<Result<Msg, JczError>> {
        match m.kind {
            "CIRCLE_REMOVE_OR_DEPLOY" => Some(
                match m.payload.get("value").and_then(serde_json::Value::as_str) {
                    Some("DEPLOY") => Ok(choice_msg(true)),
                    Some("REMOVE") => Ok(choice_msg(false)),
                    _ => Err((m.bad)("payload.value must be DEPLOY or REMOVE".into())),
                },
            ),
            "RETURN_MEEPLE" if m.source() == Some("CORN_CIRCLE") => {
                Some(m.return_pointer().map(|p| {
                    let meeple = p.meeple.clone();
                    Msg::Part(PartMsg::new("RETURN_MEEPLE", CropMsg::Return(p)).moving(&meeple))
                }))
            }
            _ => None,
        }
    }
    fn translate(
        &self,
        t: &mut Translator,
        at: &Current,
        _m: &Message,
        msg: &PartMsg,
    ) -> Option<Result<(), JczError>> {
        Some(match msg.get::<CropMsg>()? {
            &CropMsg::Choice { deploy } => choice(t, at, deploy),
            CropMsg::Return(p) => match t.step() {
                Step::Main => {
                    Err(at
                        .err("returning a follower outside a crop-circle removal is not supported"))
                }
                Step::After {
                    step: STEP,
                    pending: None,
                } => action(t, at, CropAct::Return(p)),
                _ => Err(t.out_of_order(at)),
            },
        })
    }
    fn intercept(
        &self,
        t: &mut Translator,
        at: &Current,
        msg: &Msg,
    ) -> Option<Result<(), JczError>> {
        let Step::After {
            step: STEP,
            pending,
        } = t.step()
        else {
            return None;
        };
        match (msg, pending) {
            (Msg::Commit, _) => Some(commit(t, at, pending)),
            (Msg::Pass, None) => Some(action(t, at, CropAct::Pass)),
            (Msg::Deploy(p), None) => Some(action(t, at, CropAct::Deploy(p))),
            _ => None,
        }
    }
    fn answers(
        &self,
        _tr: &Translated,
        _k: usize,
        script: &[TakenDecision],
    ) -> Option<Box<dyn TurnAnswers>> {
        let mut a = CropPasses {
            named: Vec::new(),
            passes: 0,
        };
        for t in script.iter().filter(|t| t.kind == CROP_DEPLOY) {
            if t.player == ANY_PLAYER {
                a.passes += 1;
            } else {
                a.named.push(t.player);
            }
        }
        Some(Box::new(a))
    }
    fn explain(&self, game: &Game, d: &Decision, recorded: &Choice) -> Option<String> {
        let spot = match *recorded {
            Choice::SpotOf { at, kind } => Some((at, kind)),
            Choice::Spot { at: Some(at) } => Some((at, crate::engine::FollowerKind::PLAIN)),
            _ => None,
        };
        if let (CROP_DEPLOY, Some((_, kind))) = (d.kind, spot) {
            if game.supply_of(d.player, kind) == 0 {
                return Some(format!("{} has no {kind} left", seat(d.player)));
            }
        }
        match (d.kind, spot) {
            (CROP_DEPLOY | CROP_REMOVE, Some(((x, y, s), kind))) => {
                let t = game.placed_tiles().get(game.tile_at(x, y)?)?;
                let feature = game.rules().rules.tiles[t.tile as usize]
                    .features
                    .get(s as usize)
                    .map(|f| f.kind)?;
                let mine = game.followers().iter().any(|f| {
                    f.player == d.player
                        && game.node_spot(f.node) == (x, y, s)
                        && (d.kind == CROP_DEPLOY || f.kind == kind)
                });
                if !mine {
                    let what = if d.kind == CROP_DEPLOY {
                        "follower".to_string()
                    } else {
                        kind.to_string()
                    };
                    return Some(format!(
                        "{} has no {what} on the {feature} at ({x},{y}) (segment {s})",
                        seat(d.player)
                    ));
                }
                None
            }
            (CROP_DEPLOY, None) if *recorded == (Choice::Spot { at: None }) => {
                Some("passing is not allowed: this ruleset makes deploying mandatory".into())
            }
            _ => None,
        }
    }
    fn effect_seen(&self, d: &TakenDecision, events: &[Event]) -> Option<bool> {
        let mut it = events.iter().filter(|e| e.turn() == Some(d.turn));
        match d.choice {
            Choice::Flag { yes: deploy } if d.kind == CROP_MODE => {
                Some(it.any(|e| e.of(CROP_CHOICE).is_some_and(|v| (v[3] != 0) == deploy)))
            }
            Choice::Spot {
                at: Some((x, y, segment)),
            }
            | Choice::SpotOf {
                at: (x, y, segment),
                ..
            } if matches!(d.kind, CROP_DEPLOY | CROP_REMOVE) => Some(it.any(|e| {
                let v = e.of(CROP_DEPLOYED).or_else(|| e.of(CROP_REMOVED));
                v.is_some_and(|v| {
                    v[1] == d.player as i64
                        && (v[2], v[3], v[4]) == (x as i64, y as i64, segment as i64)
                })
            })),
            _ => None,
        }
    }
    fn unasked_why(&self, d: &TakenDecision) -> Option<String> {
        match d.kind {
            CROP_MODE => Some("this tile has no crop-circle action in this game".into()),
            CROP_DEPLOY | CROP_REMOVE => Some(format!(
                "{} has no crop-circle action now (no follower of that type on the board, or none in supply)",
                seat(d.player)
            )),
            _ => None,
        }
    }
    fn decision_words(&self, kind: DecisionKind) -> Option<&'static str> {
        match kind {
            CROP_MODE => Some("the crop-circle choice (deploy or remove)"),
            CROP_DEPLOY => Some("a crop-circle follower (deploy or pass)"),
            CROP_REMOVE => Some("a crop-circle follower to return"),
            _ => None,
        }
    }
    fn label_absent(&self, s: &Setup) -> String {
        let c = s.part::<CropSetup>();
        if c.crop1 + c.crop2 > 0 && !c.action {
            ", no crop-circle action".into()
        } else {
            String::new()
        }
    }
    fn parent(&self, s: &Setup) -> Option<(u8, &'static str)> {
        s.part::<CropSetup>()
            .action
            .then_some((2, "cropcircles.rules"))
    }
    fn ruleset_lines(&self, s: &Setup, m: &mut Mapping) -> Result<String, String> {
        let c = s.part::<CropSetup>();
        let mut t = symbol_tiles(
            c.crop1,
            "tiles/crop-circles-1.tiles",
            "crop-circles-1",
            c.action,
            m,
        )?;
        t.push_str(&symbol_tiles(
            c.crop2,
            "tiles/crop-circles-2.tiles",
            "crop-circles-2",
            c.action,
            m,
        )?);
        Ok(t)
    }
}

/// `CIRCLE_REMOVE_OR_DEPLOY` as a part's message of the log.
fn choice_msg(deploy: bool) -> Msg {
    Msg::Part(PartMsg::new(
        "CIRCLE_REMOVE_OR_DEPLOY",
        CropMsg::Choice { deploy },
    ))
}

/// `CIRCLE_REMOVE_OR_DEPLOY`: the active player's crop-circle choice, after the turn's
/// `COMMIT`; it opens the crop-circle step.
fn choice(t: &mut Translator, at: &Current, deploy: bool) -> Result<(), JczError> {
    match t.step() {
        Step::Main => Err(at.err(
            "comes before the turn's COMMIT: JCloisterZone commits the turn first, then runs the crop-circle step",
        )),
        Step::Committed => {
            t.check_active(at)?;
            t.set_step(Step::After {
                step: STEP,
                pending: None,
            });
            *t.turn_part_mut::<CropStep>() = CropStep { deploy, acted: 0 };
            t.record_active(at, CROP_MODE, Choice::Flag { yes: deploy });
            Ok(())
        }
        Step::After { pending: None, .. } => Err(at.err("a second crop-circle choice in one turn")),
        Step::After { .. } => Err(t.out_of_order(at)),
    }
}

/// A `COMMIT` in the crop-circle step: confirms the follower action of the player who owes
/// it.
fn commit(t: &mut Translator, at: &Current, pending: Option<u8>) -> Result<(), JczError> {
    let who = at
        .from
        .or(pending)
        .ok_or_else(|| at.err("a COMMIT without a crop-circle follower action to confirm"))?;
    if pending != Some(who) {
        return Err(at.err(format!(
            "{} commits without a crop-circle follower action to confirm",
            t.player_name(who)
        )));
    }
    t.set_step(Step::After {
        step: STEP,
        pending: None,
    });
    Ok(())
}

/// A player's go in the crop-circle step (no follower action awaiting its `COMMIT`): a
/// `PASS`, or a deployment or removal as the step's choice allows.
fn action(t: &mut Translator, at: &Current, act: CropAct<'_>) -> Result<(), JczError> {
    let CropStep { deploy, acted } = *t.turn_part::<CropStep>();
    // a PASS without `player`: whoever JCloisterZone asked next (see `ANY_PLAYER`);
    // actions with a follower name their owner
    let who = at.from.unwrap_or(ANY_PLAYER);
    if who != ANY_PLAYER && acted & (1 << who) != 0 {
        return Err(at.err(format!(
            "{} acts twice in one crop-circle step",
            t.player_name(who)
        )));
    }
    let (kind, spot, owes_commit) = match act {
        CropAct::Pass if deploy => (CROP_DEPLOY, None, false),
        CropAct::Deploy(p) if deploy => (CROP_DEPLOY, Some((t.segment_at(at, p)?, p)), true),
        CropAct::Return(p) if !deploy => (CROP_REMOVE, Some((t.segment_at(at, p)?, p)), true),
        _ => {
            return Err(at.err(format!(
                "not allowed after CIRCLE_REMOVE_OR_DEPLOY {}",
                if deploy { "DEPLOY" } else { "REMOVE" }
            )))
        }
    };
    t.set_step(Step::After {
        step: STEP,
        pending: owes_commit.then_some(who),
    });
    t.turn_part_mut::<CropStep>().acted = if who == ANY_PLAYER {
        acted
    } else {
        acted | (1 << who)
    };
    // the figure's kind (`P.small.N` the plain follower, `P.big.1` the large one)
    let choice = match spot {
        Some((at, p)) => match t.follower_kind(&p.meeple) {
            k if k.is_plain() => Choice::Spot { at: Some(at) },
            kind => Choice::SpotOf { at, kind },
        },
        None => Choice::Spot { at: None },
    };
    let turn = t.turn();
    t.record(
        at,
        TakenDecision {
            turn,
            player: who,
            kind,
            choice,
        },
    );
    Ok(())
}

/// The crop-circle passes of a `.jcz` turn, answered by the replay: the players with a
/// recorded crop-circle deploy or pass, and the passes recorded without their player
/// ([`ANY_PLAYER`]), still to give.
struct CropPasses {
    named: Vec<u8>,
    passes: usize,
}

impl TurnAnswers for CropPasses {
    fn answer(&mut self, game: &Game, d: &Decision) -> Option<usize> {
        if d.kind != CROP_DEPLOY || self.passes == 0 || self.named.contains(&d.player) {
            return None;
        }
        let i = game.option_of(&Choice::Spot { at: None }).ok()?;
        self.passes -= 1;
        Some(i)
    }
}

/// The player's seat name, for the replay's words.
fn seat(p: u8) -> &'static str {
    crate::render::seat_name(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::gold::GoldSetup;
    use crate::import::jcz::setup_label;
    use serde_json::{json, Value};

    fn gold(s: &Setup) -> bool {
        s.part::<GoldSetup>().gold
    }

    fn crop(s: &Setup) -> bool {
        s.part::<CropSetup>().action
    }

    use crate::import::jcz::test_setup as setup;

    #[test]
    fn elements_are_on_by_their_presence() {
        // the corn-circles set brings the crop-circle action, element or not (the client's
        // `enforces`)
        let s = setup(json!({"small-follower": 7})).unwrap();
        assert!(!s.farmers && !gold(&s) && crop(&s));
        let s = setup(json!({"small-follower": 7, "farmers": false, "gold": true})).unwrap();
        assert!(s.farmers && gold(&s) && crop(&s));
        let s = setup(json!({"small-follower": "5.0", "corn-circle": 1, "gold": null})).unwrap();
        assert_eq!(s.followers, 5);
        assert!(crop(&s) && !gold(&s));
        assert!(setup(json!({"small-follower": 7, "abbot": false})).is_err());
        assert!(setup(json!({"farmers": true})).is_err());
        assert!(setup(json!({"small-follower": 0})).is_err());
        assert_eq!(
            ruleset_label_of(json!({"small-follower": 7})),
            "basic:1 + corn-circles/2 + goldmines, no farmers, no gold"
        );
    }

    fn ruleset_label_of(elements: Value) -> String {
        setup_label(&setup(elements).unwrap())
    }
}
