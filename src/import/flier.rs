//! The Flying Machines in JCloisterZone saves: the tile sets `flier:1` / `flier:2`, the
//! element `flier`, a flight (`DEPLOY_MEEPLE` on the `FlyingMachine` of the tile just
//! placed, location `I`, with the die's `random`) and the landing that follows it (a second
//! `DEPLOY_MEEPLE` of the same meeple). Its importer part, [`PART`], is registered in
//! [`crate::import::jcz::parts`]; the translation's handlers delegate here.
//!
//! # The mapping
//! - The sets add `include "tiles/flier.tiles"` and `flier xN` to the deck (the 2nd
//!   edition's `FL/F.dG`, printed with a garden, is meeplab's `FL/F.d`: gardens are inert
//!   without the Abbot).
//! - The sets → `flier { landing = must, who = any_follower }`: JCloisterZone 5.x makes the
//!   landing mandatory when a spot exists (commit `065bca3b`), and lets every follower fly.
//!   Its client switches the `flier` element on for any flier set (`enforces` in its
//!   `expansions.js`; the engine-test scenario lacks the element), so the sets bring the
//!   machines with or without it; the element without the sets changes nothing.
//! - A flight is the `flier_fly` decision (`Choice::Token` on the tile, the follower's kind
//!   as its variant); its die is JCloisterZone's `getNextInt(3) + 1` of the message's
//!   `random` ([`die_of_random`]), which the replay forces on the engine
//!   (`Game::force_flier_roll`). The landing is the `flier_land` decision
//!   (`Choice::Spot`). Any other follower action on a flier tile first records "no flight"
//!   (which needs no offer: a player without a follower is not asked).

use crate::engine::expansions::flier::{FLY, LAND, MACHINE_NW, MACHINE_W};
use crate::engine::{Choice, Game, TakenDecision};
use crate::import::jcz::part::{Gardens, JczPart, Mapping, RawMessage};
use crate::import::jcz::{
    Current, JczError, Message, Msg, PartMsg, Pointer, Setup, Step, Translated, Translator,
};
use serde_json::Value;

/// A flight: `DEPLOY_MEEPLE` on the flying machine of the tile just placed (its `random`
/// rolls the die).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlyMsg(pub Pointer);

/// The flights of a translated save, for the replay.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FlierTrack {
    /// The flier's die of each flight: (recorded turn, 1–3), from the flight's `random`;
    /// the replay forces it.
    pub rolls: Vec<(u32, u8)>,
}

/// The meeple flown this turn, until it lands.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Flying(Option<String>);

/// The tiles of `flier:1`.
pub const FLIER_1: &[(&str, u32)] = &[
    ("FL/F.d", 1),
    ("FL/F.o", 1),
    ("FL/RFr.d", 1),
    ("FL/RFr.NS.o", 1),
    ("FL/RFr.WE.o", 1),
    ("FL/Rr.d", 1),
    ("FL/Rr.NW.o", 1),
    ("FL/Rr.SW.o", 1),
];

/// The tiles of `flier:2`: `FL/F.dG` (with a garden) instead of `FL/F.d`.
pub const FLIER_2: &[(&str, u32)] = &[
    ("FL/F.dG", 1),
    ("FL/F.o", 1),
    ("FL/RFr.d", 1),
    ("FL/RFr.NS.o", 1),
    ("FL/RFr.WE.o", 1),
    ("FL/Rr.d", 1),
    ("FL/Rr.NW.o", 1),
    ("FL/Rr.SW.o", 1),
];

/// The plain twin of the 2nd edition's garden tile; `None` for other ids.
pub fn plain_twin(id: &str) -> Option<&'static str> {
    (id == "FL/F.dG").then_some("FL/F.d")
}

/// The tiles of a flier set name, or `None` for another name.
pub fn set_tiles(name: &str) -> Option<&'static [(&'static str, u32)]> {
    match name {
        "flier:1" => Some(FLIER_1),
        "flier:2" => Some(FLIER_2),
        _ => None,
    }
}

/// The Flying Machines' part of a save's set-up.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FlierSetup {
    /// Copies of the flier tiles (`:1` and `:2` together).
    pub copies: u32,
    /// The `flier` element (on with the sets, as JCloisterZone's client switches it).
    pub element: bool,
}

/// The mapped ruleset's lines for the flier part (the tiles, JCloisterZone's readings), and
/// the deck entry pushed on `deck`.
pub fn ruleset_lines(s: &FlierSetup, dir: &std::path::Path, deck: &mut Vec<String>) -> String {
    if s.copies == 0 {
        return String::new();
    }
    deck.push(format!("flier x{}", s.copies));
    format!(
        "include {}\nflier source \"JCloisterZone flier element (landing mandatory since 065bca3b)\" {{\n  landing = must\n  who = any_follower\n}}\n",
        crate::import::jcz::quoted(&dir.join("tiles/flier.tiles"))
    )
}

/// The die JCloisterZone rolls from a flight message's `random`: `getNextInt(3) + 1`, the
/// integer part of `random × 3`, plus one.
pub fn die_of_random(random: f64) -> u8 {
    ((random * 3.0) as i64).clamp(0, 2) as u8 + 1
}

/// The importer part of the Flying Machines.
pub struct FlierPart;

/// Its registration (in [`crate::import::jcz::parts`]).
pub static PART: FlierPart = FlierPart;

impl JczPart for FlierPart {
    fn name(&self) -> &'static str {
        "flier"
    }
    fn sets(&self) -> &'static [&'static str] {
        &["flier:1", "flier:2"]
    }
    fn read_set(&self, _set: &str, copies: u32, s: &mut Setup) -> Result<(), JczError> {
        s.part_mut::<FlierSetup>().copies += copies;
        Ok(())
    }
    fn elements(&self) -> &'static [&'static str] {
        &["flier"]
    }
    fn read_element(&self, _name: &str, _v: &Value, s: &mut Setup) -> Result<(), JczError> {
        s.part_mut::<FlierSetup>().element = true;
        Ok(())
    }
    fn settle(&self, s: &mut Setup) -> Result<(), JczError> {
        // the sets bring the element (JCloisterZone's engine-test scenario lacks it)
        let f = s.part_mut::<FlierSetup>();
        f.element = f.copies > 0;
        Ok(())
    }
    fn messages(&self) -> &'static [&'static str] {
        &["DEPLOY_MEEPLE FlyingMachine"]
    }
    fn parse_message(&self, m: &RawMessage) -> Option<Result<Msg, JczError>> {
        let p = m.payload.get("pointer")?;
        if m.kind != "DEPLOY_MEEPLE"
            || p.get("feature").and_then(Value::as_str) != Some("FlyingMachine")
        {
            return None;
        }
        let mut fp = p.clone();
        if let Some(o) = fp.as_object_mut() {
            // the machine is no feature of meeplab's: read the pointer's place
            o.insert("feature".into(), Value::from("Road"));
        }
        Some(
            m.pointer(&fp, m.payload.get("meepleId"), "payload.pointer")
                .map(|mut at| {
                    at.feature = None;
                    let meeple = at.meeple.clone();
                    Msg::Part(
                        PartMsg::new("DEPLOY_MEEPLE", FlyMsg(at))
                            .moving(&meeple)
                            .setting_random(),
                    )
                }),
        )
    }
    fn translate(
        &self,
        t: &mut Translator,
        at: &Current,
        m: &Message,
        msg: &PartMsg,
    ) -> Option<Result<(), JczError>> {
        let FlyMsg(p) = msg.get::<FlyMsg>()?;
        Some(fly(t, at, p, m.random))
    }
    fn intercept(
        &self,
        t: &mut Translator,
        at: &Current,
        msg: &Msg,
    ) -> Option<Result<(), JczError>> {
        match msg {
            Msg::Deploy(p) if t.step() == Step::Main && t.turn_part::<Flying>().0.is_some() => {
                Some(land(t, at, p))
            }
            _ => None,
        }
    }
    fn before_follower(&self, t: &mut Translator, at: &Current) -> Result<(), JczError> {
        // a follower action other than a flight on a flier tile: "no flight" first (asked
        // only of a player holding a follower; unasked, it changes nothing)
        if element(t) && on_flier_tile(t) {
            t.record_active(at, FLY, Choice::Token { at: None });
        }
        Ok(())
    }
    fn before_turn(&self, tr: &Translated, k: usize, game: &mut Game) {
        let track = tr.parts.get::<FlierTrack>();
        if let Some(&(_, die)) = track.rolls.iter().find(|r| r.0 == k as u32 + 1) {
            game.force_flier_roll(die); // JCloisterZone's roll, from the flight's `random`
        }
    }
    fn ruleset_lines(&self, s: &Setup, m: &mut Mapping) -> Result<String, String> {
        Ok(ruleset_lines(&s.part::<FlierSetup>(), m.dir, &mut m.deck))
    }
    fn gardens(&self) -> &'static [Gardens] {
        &[Gardens {
            set: "flier:2",
            plain_set: "flier",
            file: "tiles/abbot-flier.tiles",
            garden_set: "flier-gardens",
            tiles: &["FL/F.dG"],
        }]
    }
    fn plain_twin(&self, id: &str) -> Option<&'static str> {
        plain_twin(id)
    }
    fn set_tiles(&self, set: &str) -> Option<&'static [(&'static str, u32)]> {
        set_tiles(set)
    }
}

/// Whether the save plays the flying machines.
fn element(t: &Translator) -> bool {
    t.game().setup.part::<FlierSetup>().element
}

/// Whether the tile just placed carries a flying machine (under the mapped rules).
fn on_flier_tile(t: &Translator) -> bool {
    t.board().get(&t.placed_at()).is_some_and(|&(tile, _)| {
        t.rules().tiles[tile as usize].marks & (MACHINE_W | MACHINE_NW) != 0
    })
}

/// `DEPLOY_MEEPLE` on the flying machine: the turn's follower action is a flight from the
/// tile just placed; the message's `random` rolls the die.
fn fly(t: &mut Translator, at: &Current, p: &Pointer, random: Option<f64>) -> Result<(), JczError> {
    if t.step() != Step::Main {
        return Err(t.out_of_order(at));
    }
    t.check_active(at)?;
    if t.follower_done() {
        return Err(at.err("a flight after the turn's follower action"));
    }
    if !element(t) {
        return Err(at.err("a flight, but the save's setup.elements has no `flier`"));
    }
    if (p.x, p.y) != t.placed_at() || !on_flier_tile(t) {
        return Err(at.err(format!(
            "a flight from ({},{}), which is not the flier tile just placed",
            p.x, p.y
        )));
    }
    let random = random.ok_or_else(|| {
        at.err("a flight without payload.random (JCloisterZone rolls the die from it)")
    })?;
    t.set_followed();
    t.turn_part_mut::<Flying>().0 = Some(p.meeple.clone());
    let kind = t.follower_kind(&p.meeple);
    let (turn, player) = (t.turn(), t.active());
    t.game_part_mut::<FlierTrack>()
        .rolls
        .push((turn, die_of_random(random)));
    t.record(
        at,
        TakenDecision {
            turn,
            player,
            kind: FLY,
            choice: Choice::Token {
                at: Some((p.x, p.y, kind.0)),
            },
        },
    );
    Ok(())
}

/// The `DEPLOY_MEEPLE` after a flight: where the flown meeple lands.
fn land(t: &mut Translator, at: &Current, p: &Pointer) -> Result<(), JczError> {
    t.check_active(at)?;
    if t.turn_part::<Flying>().0.as_deref() != Some(p.meeple.as_str()) {
        return Err(at.err(format!(
            "after a flight, `{}` is deployed instead of the flown meeple",
            p.meeple
        )));
    }
    t.turn_part_mut::<Flying>().0 = None;
    let spot = t.segment_at(at, p)?;
    t.record_active(at, LAND, Choice::Spot { at: Some(spot) });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_die_is_a_third_of_the_unit_interval_a_face() {
        assert_eq!(die_of_random(0.0), 1);
        assert_eq!(die_of_random(0.022), 1);
        assert_eq!(die_of_random(0.3334), 2);
        assert_eq!(die_of_random(0.4646), 2);
        assert_eq!(die_of_random(0.7020), 3);
        assert_eq!(die_of_random(0.999_999), 3);
    }

    #[test]
    fn the_garden_tile_is_its_plain_twin() {
        assert_eq!(plain_twin("FL/F.dG"), Some("FL/F.d"));
        assert_eq!(plain_twin("FL/F.d"), None);
        assert_eq!(set_tiles("flier:2").map(|t| t.len()), Some(8));
        assert_eq!(set_tiles("flier:3"), None);
    }
}
