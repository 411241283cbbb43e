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

use crate::import::gold::symbol_tiles;
use crate::import::jcz::part::{JczPart, Mapping, RawMessage};
use crate::import::jcz::{JczError, Msg, Setup};

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
                    Some("DEPLOY") => Ok(Msg::CropChoice { deploy: true }),
                    Some("REMOVE") => Ok(Msg::CropChoice { deploy: false }),
                    _ => Err((m.bad)("payload.value must be DEPLOY or REMOVE".into())),
                },
            ),
            "RETURN_MEEPLE" if m.source() == Some("CORN_CIRCLE") => {
                Some(m.return_pointer().map(Msg::Return))
            }
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
