//! The Ferries in JCloisterZone saves: the tile set `ferries` (8 lake tiles, no C1/C2 split),
//! the element `ferry`, and the `PLACE_TOKEN FERRY` message.
//! Its importer part, [`PART`], is registered in [`crate::import::jcz::parts`]; the
//! translation's handlers delegate here.
//!
//! # The mapping
//! - The set adds `include "tiles/ferries.tiles"` and `ferries xN` to the deck.
//! - The element `ferry` → `ferries { placement = always, moves = first, cut_builders =
//!   left_ends }`: JCloisterZone places the ferry after the follower action whether or not a
//!   follower was placed (`PlaceFerryPhase`), and offers the first ferry each way from the
//!   tile, one move at a time, each ferry once (`ChangeFerriesPhase`; its search stops at every
//!   ferry), and after a move checks for a builder left without its owner's follower only the
//!   roads at the ends the ferry left (`ChangeFerry`).
//!   The set without the element (lakes without ferries) is refused with a clear error.
//!
//! # The messages
//! `PLACE_TOKEN {token: FERRY, pointer: {position, location, feature: Road}}`, the location
//! two sides in board orientation (`NS`, `WE`, `SE`…): on the tile just placed it is the new
//! ferry's way ([`FERRY_PLACE`]); elsewhere a ferry moved to that way
//! ([`FERRY_MOVE`]), both as `Choice::Token { at: Some((x, y, way)) }` with the way a bit per
//! side (N=1, E=2, S=4, W=8). A `PASS` after the follower action and the ferry declines a
//! move (`Choice::Token { at: None }`). JCloisterZone asks no follower action of a player
//! with no follower left, so a `PASS` before any follower action or ferry may be either the
//! follower's or the move's: it is recorded as both, and the replay takes the one the engine
//! asks (the other one, a pass, changes nothing).

use crate::engine::expansions::ferries::{FERRY_MOVE, FERRY_PLACE};
use crate::engine::{Choice, DecisionKind};
use crate::import::jcz::part::{JczPart, Mapping, RawMessage};
use crate::import::jcz::{Current, JczError, Message, Msg, PartMsg, Setup, Step, Translator};
use serde_json::Value;

/// `PLACE_TOKEN FERRY`: a ferry to the way `way`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FerryMsg {
    pub x: i32,
    pub y: i32,
    pub way: u8,
}

/// The ferries of the turn under way.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct FerryTurn {
    /// A ferry message came this turn (a later `PASS` declines a move).
    ferried: bool,
    /// The decision index of a move declined by a `PASS` that may have been the
    /// follower's, dropped when a ferry message follows.
    maybe_no_move: Option<usize>,
}

/// The tiles of `ferries`.
pub const FERRIES: &[(&str, u32)] = &[("FR/CRRR", 3), ("FR/RRR", 4), ("FR/RRRR", 1)];

/// The set name.
pub const SET: &str = "ferries";

/// The Ferries' part of a save's set-up.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FerriesSetup {
    /// Copies of the `ferries` set.
    pub copies: u32,
    /// The `ferry` element.
    pub element: bool,
}

impl FerriesSetup {
    /// The set-up meeplab can play: the lake tiles only with their ferries.
    pub fn check(&self) -> Result<(), JczError> {
        if self.copies > 0 && !self.element {
            return Err(JczError::new(
                "setup: the ferries tiles without the `ferry` element (lakes without ferries) are not supported",
            ));
        }
        Ok(())
    }
}

/// A short label of the set-up's Ferries part (the set is named by the caller).
pub fn label(s: &FerriesSetup) -> String {
    if s.element && s.copies == 0 {
        " + ferries (no lake tiles)".to_string()
    } else {
        String::new()
    }
}

/// The rule-language lines of the Ferries part; the tile set joins `deck`.
pub fn ruleset_lines(s: &FerriesSetup, dir: &std::path::Path, deck: &mut Vec<String>) -> String {
    let mut t = String::new();
    if !s.element {
        return t;
    }
    if s.copies > 0 {
        t.push_str(&format!(
            "include {}\n",
            crate::import::jcz::quoted(&dir.join("tiles/ferries.tiles"))
        ));
        deck.push(format!("ferries x{}", s.copies));
    }
    t.push_str("ferries source \"JCloisterZone ferry element\" {\n");
    t.push_str("  placement = always\n  moves = first\n  cut_builders = left_ends\n}\n");
    t
}

/// A location of two sides (`NS`, `SE`…) as a way: a bit per side, N=1, E=2, S=4, W=8.
pub fn way_of(location: &str) -> Option<u8> {
    let mut way = 0u8;
    for c in location.chars() {
        let bit = match c {
            'N' => 1,
            'E' => 2,
            'S' => 4,
            'W' => 8,
            _ => return None,
        };
        if way & bit != 0 {
            return None;
        }
        way |= bit;
    }
    (way.count_ones() == 2).then_some(way)
}

/// `PLACE_TOKEN FERRY`'s payload as a message.
pub fn parse_ferry(payload: &Value, bad: &dyn Fn(String) -> JczError) -> Result<Msg, JczError> {
    let p = payload.get("pointer").ok_or_else(|| {
        bad("payload.pointer is missing (JCloisterZone writes {position, location, feature: Road} of the ferry)".into())
    })?;
    let pos = p
        .get("position")
        .and_then(Value::as_array)
        .filter(|a| a.len() == 2)
        .and_then(|a| Some((a[0].as_i64()?, a[1].as_i64()?)))
        .and_then(|(x, y)| Some((i32::try_from(x).ok()?, i32::try_from(y).ok()?)))
        .ok_or_else(|| bad("payload.pointer.position must be [x, y]".into()))?;
    match p.get("feature").and_then(Value::as_str) {
        Some("Road") | None => {}
        Some(f) => {
            return Err(bad(format!(
                "payload.pointer.feature = {f}: a ferry joins two road ends"
            )))
        }
    }
    let location = p
        .get("location")
        .and_then(Value::as_str)
        .ok_or_else(|| bad("payload.pointer.location is missing".into()))?;
    let way = way_of(location).ok_or_else(|| {
        bad(format!(
            "payload.pointer.location = `{location}`: a ferry joins two sides (NS, WE, NE, …)"
        ))
    })?;
    Ok(Msg::Part(PartMsg::new(
        "PLACE_TOKEN",
        FerryMsg {
            x: pos.0,
            y: pos.1,
            way,
        },
    )))
}

/// The decision a `PLACE_TOKEN FERRY` at (x, y) records in a turn whose tile lies at
/// `placed_at`: the new ferry there, a move elsewhere.
pub fn ferry_decision(placed_at: (i32, i32), x: i32, y: i32, way: u8) -> (DecisionKind, Choice) {
    let kind = if (x, y) == placed_at {
        FERRY_PLACE
    } else {
        FERRY_MOVE
    };
    (
        kind,
        Choice::Token {
            at: Some((x, y, way)),
        },
    )
}

/// A declined move.
pub fn no_move() -> (DecisionKind, Choice) {
    (FERRY_MOVE, Choice::Token { at: None })
}

/// The importer part of the Ferries.
pub struct FerriesPart;

/// Its registration (in [`crate::import::jcz::parts`]).
pub static PART: FerriesPart = FerriesPart;

impl JczPart for FerriesPart {
    fn name(&self) -> &'static str {
        "ferries"
    }
    fn sets(&self) -> &'static [&'static str] {
        &[SET]
    }
    fn read_set(&self, _set: &str, copies: u32, s: &mut Setup) -> Result<(), JczError> {
        s.part_mut::<FerriesSetup>().copies = copies;
        Ok(())
    }
    fn elements(&self) -> &'static [&'static str] {
        &["ferry"]
    }
    fn read_element(&self, _name: &str, _v: &Value, s: &mut Setup) -> Result<(), JczError> {
        s.part_mut::<FerriesSetup>().element = true;
        Ok(())
    }
    fn settle(&self, s: &mut Setup) -> Result<(), JczError> {
        s.part::<FerriesSetup>().check()
    }
    fn messages(&self) -> &'static [&'static str] {
        &["PLACE_TOKEN FERRY"]
    }
    fn parse_message(&self, m: &RawMessage) -> Option<Result<Msg, JczError>> {
        (m.kind == "PLACE_TOKEN" && m.token() == "FERRY").then(|| parse_ferry(m.payload, m.bad))
    }
    fn translate(
        &self,
        t: &mut Translator,
        at: &Current,
        _m: &Message,
        msg: &PartMsg,
    ) -> Option<Result<(), JczError>> {
        let &FerryMsg { x, y, way } = msg.get::<FerryMsg>()?;
        Some(ferry(t, at, x, y, way))
    }
    fn intercept(
        &self,
        t: &mut Translator,
        at: &Current,
        msg: &Msg,
    ) -> Option<Result<(), JczError>> {
        let declines = matches!(msg, Msg::Pass)
            && t.step() == Step::Main
            && element(t)
            && (t.followed() || t.turn_part::<FerryTurn>().ferried);
        declines.then(|| ferry_pass(t, at))
    }
    fn after_pass(&self, t: &mut Translator, at: &Current) -> Result<(), JczError> {
        if element(t) {
            ferry_pass(t, at)?;
            let i = t.out().decisions.len() - 1;
            t.turn_part_mut::<FerryTurn>().maybe_no_move = Some(i);
        }
        Ok(())
    }
    fn label(&self, s: &Setup) -> String {
        label(&s.part::<FerriesSetup>())
    }
    fn ruleset_lines(&self, s: &Setup, m: &mut Mapping) -> Result<String, String> {
        Ok(ruleset_lines(&s.part::<FerriesSetup>(), m.dir, &mut m.deck))
    }
    fn set_tiles(&self, set: &str) -> Option<&'static [(&'static str, u32)]> {
        (set == SET).then_some(FERRIES)
    }
}

/// Whether the save plays the ferries.
fn element(t: &Translator) -> bool {
    t.game().setup.part::<FerriesSetup>().element
}

/// `PLACE_TOKEN FERRY`: the new ferry on the tile just placed, or a ferry moved.
fn ferry(t: &mut Translator, at: &Current, x: i32, y: i32, way: u8) -> Result<(), JczError> {
    if t.step() != Step::Main {
        return Err(t.out_of_order(at));
    }
    if !element(t) {
        return Err(at.err("a ferry, but the save's setup.elements has no `ferry`"));
    }
    t.check_active(at)?;
    drop_maybe_no_move(t);
    let (kind, choice) = ferry_decision(t.placed_at(), x, y, way);
    t.turn_part_mut::<FerryTurn>().ferried = true;
    t.set_followed();
    t.record_active(at, kind, choice);
    Ok(())
}

/// A `PASS` declining a ferry move.
fn ferry_pass(t: &mut Translator, at: &Current) -> Result<(), JczError> {
    t.check_active(at)?;
    drop_maybe_no_move(t);
    t.turn_part_mut::<FerryTurn>().ferried = true;
    t.set_followed();
    let (kind, choice) = no_move();
    t.record_active(at, kind, choice);
    Ok(())
}

/// A later ferry message shows that an earlier `PASS` was the follower's.
fn drop_maybe_no_move(t: &mut Translator) {
    if let Some(i) = t.turn_part_mut::<FerryTurn>().maybe_no_move.take() {
        t.out().decisions.remove(i);
        t.out().origins.remove(i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_read_as_ways() {
        assert_eq!(way_of("NS"), Some(5));
        assert_eq!(way_of("WE"), Some(10));
        assert_eq!(way_of("SE"), Some(6));
        assert_eq!(way_of("N"), None);
        assert_eq!(way_of("NN"), None);
        assert_eq!(way_of("NX"), None);
        assert_eq!(FERRIES.iter().map(|t| t.1).sum::<u32>(), 8);
    }

    #[test]
    fn tiles_need_the_element() {
        let tiles_only = FerriesSetup {
            copies: 1,
            element: false,
        };
        assert!(tiles_only.check().is_err());
        assert!(FerriesSetup::default().check().is_ok());
    }
}
