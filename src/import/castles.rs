//! The castles of Bridges, Castles & Bazaars in JCloisterZone saves: the element `castle`
//! (castles on whatever small cities the sets make) and `PLACE_TOKEN CASTLE` (a pointer
//! `{position, feature: "City", location}` to the small city's segment on the tile just
//! placed). The importer's set-up, mapping and messages ask it through [`PART`]; the castle
//! step of the translation is `jcz/translate.rs`'s (see [`crate::import::jcz`]).
//!
//! # The mapping
//! - `castle` alone → the mapped ruleset extends `castles.rules`;
//! - over another parent: a `castles { supply = 3, supply_5_6 = 2, farm_bonus = 1 }` block
//!   (JCloisterZone's 3 tokens, 2 with 5–6 players; a castle worth a city + 1 to farmers),
//!   with `gold = vicinity` when `gold` is on (JCloisterZone's scoring castle claims its
//!   vicinity's ingots);
//! - `castles.chain = direct_first` (JCloisterZone pays a castle the feature completed in
//!   its vicinity before any chain).

use crate::import::gold::GoldSetup;
use crate::import::jcz::part::{JczPart, Mapping, RawMessage};
use crate::import::jcz::{JczError, Msg, Pointer, Setup};
use crate::tiles::FeatureKind;
use serde_json::Value;

/// The castles' part of a save's set-up.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CastlesSetup {
    /// The `castle` element.
    pub on: bool,
}

/// Whether the set-up plays castles.
pub fn on(s: &Setup) -> bool {
    s.part::<CastlesSetup>().on
}

/// The importer part of the castles.
pub struct CastlesPart;

/// Its registration (in [`crate::import::jcz::parts`]).
pub static PART: CastlesPart = CastlesPart;

impl JczPart for CastlesPart {
    fn name(&self) -> &'static str {
        "castles"
    }
    fn elements(&self) -> &'static [&'static str] {
        &["castle"]
    }
    fn read_element(&self, _name: &str, _v: &Value, s: &mut Setup) -> Result<(), JczError> {
        s.part_mut::<CastlesSetup>().on = true;
        Ok(())
    }
    fn messages(&self) -> &'static [&'static str] {
        &["PLACE_TOKEN CASTLE"]
    }
    fn parse_message(&self, m: &RawMessage) -> Option<Result<Msg, JczError>> {
        (m.kind == "PLACE_TOKEN" && m.token() == "CASTLE").then(|| castle(m))
    }
    fn label(&self, s: &Setup) -> String {
        if on(s) {
            " + castles".into()
        } else {
            String::new()
        }
    }
    fn parent(&self, s: &Setup) -> Option<(u8, &'static str)> {
        on(s).then_some((1, "castles.rules"))
    }
    fn ruleset_lines(&self, s: &Setup, m: &mut Mapping) -> Result<String, String> {
        let mut t = String::new();
        if !on(s) {
            return Ok(t);
        }
        if m.parent != "castles.rules" {
            // castles on top of another bundled ruleset: JCloisterZone's castle rules (3
            // tokens, 2 with 5-6 players; city + 1 to farmers; a scoring castle claims its
            // vicinity's gold)
            t.push_str("castles source \"JCloisterZone castle element\" {\n");
            t.push_str("  supply = 3\n  supply_5_6 = 2\n  farm_bonus = 1\n");
            if s.part::<GoldSetup>().gold {
                t.push_str("  gold = vicinity\n");
            }
            t.push_str("}\n");
        }
        // JCloisterZone pays a castle the feature completed in its vicinity before any chain
        t.push_str("castles.chain = direct_first\n");
        Ok(t)
    }
}

/// `PLACE_TOKEN CASTLE {pointer: {position, feature: City, location}}`.
fn castle(m: &RawMessage) -> Result<Msg, JczError> {
    let bad = m.bad;
    let p = m.payload.get("pointer").ok_or_else(|| {
        bad("payload.pointer is missing (JCloisterZone writes {position, feature, location} of the city)".into())
    })?;
    let (x, y) = crate::import::jcz::message::position(p.get("position"))
        .ok_or_else(|| bad("payload.pointer.position must be [x, y]".into()))?;
    match p.get("feature").and_then(Value::as_str) {
        Some("City") => {}
        f => {
            return Err(bad(format!(
                "payload.pointer.feature = {}: a castle is built on a City",
                f.unwrap_or("missing")
            )))
        }
    }
    let location = p
        .get("location")
        .and_then(Value::as_str)
        .ok_or_else(|| bad("payload.pointer.location is missing".into()))?
        .to_string();
    Ok(Msg::Castle(Pointer {
        x,
        y,
        feature: Some(FeatureKind::City),
        location,
        meeple: String::new(),
    }))
}
