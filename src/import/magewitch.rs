//! Mage & Witch in JCloisterZone saves: the tile sets `mage-and-witch:1`/`:2`, the elements
//! `mage` and `witch`, and the message `MOVE_NEUTRAL_FIGURE` (`figureId` `mage.1` or
//! `witch.1`, `to` a feature pointer or `null`).
//! Its importer part, [`PART`], is registered in [`crate::import::jcz::parts`]; the
//! translation's handlers delegate here.
//!
//! # The mapping
//! - The sets add `include "tiles/magewitch.tiles"` and `magewitch xN` to the deck (the 2nd
//!   edition's `MW/CCRrG`, printed with a garden, is meeplab's `MW/CCRr.2`: gardens are inert
//!   without the Abbot).
//! - The elements `mage` and `witch` (together, with the tiles) → a `magewitch {
//!   witch_rounding = up, final_scoring = applies, joined_check = magic_step }` block:
//!   JCloisterZone's `points - points / 2` for the witch, its figures counted at the end
//!   (`getMageAndWitchPoints` at final scoring too) and its joined-figures check only in its
//!   `MageAndWitchPhase`, before the follower. A save with one element only, or the tiles
//!   without them, is refused with a clear error.
//!
//! # The translation
//! `MOVE_NEUTRAL_FIGURE` before the follower action, from the active player: with a `to`
//! pointer, the engine's `magic_figure` (the mage: yes) and `magic_target` (the pointer's
//! segment, `Choice::Spot`); with `to: null`, `magic_remove` (JCloisterZone's
//! `RemoveMageOrWitchAction`, asked when no road or city can take a figure and both stand).

use crate::engine::expansions::magewitch::{MAGE, MAGIC_FIGURE, MAGIC_REMOVE, MAGIC_TARGET};
use crate::engine::{Choice, DecisionKind};
use crate::import::jcz::part::{Gardens, JczPart, Mapping, RawMessage};
use crate::import::jcz::{Current, JczError, Message, Pointer, Step, Translator};
use crate::import::jcz::{Msg, PartMsg, Setup};
use crate::tiles::FeatureKind;
use serde_json::Value;

/// The tiles of `mage-and-witch:1`, one of each, in the set's order (JCloisterZone's pack
/// follows it).
pub const MW_1: &[(&str, u32)] = &[
    ("MW/CRRR.3", 1),
    ("MW/CcRr.1", 1),
    ("MW/CCCR.3", 1),
    ("MW/CRcR", 1),
    ("MW/CFC", 1),
    ("MW/CccR.1", 1),
    ("MW/CRRr.2", 1),
    ("MW/CCRr.2", 1),
];

/// The tiles of `mage-and-witch:2`: `MW/CCRr.2` printed with a garden.
pub const MW_2: &[(&str, u32)] = &[
    ("MW/CRRR.3", 1),
    ("MW/CcRr.1", 1),
    ("MW/CCCR.3", 1),
    ("MW/CRcR", 1),
    ("MW/CFC", 1),
    ("MW/CccR.1", 1),
    ("MW/CRRr.2", 1),
    ("MW/CCRrG", 1),
];

/// The set names.
pub const SETS: [&str; 2] = ["mage-and-witch:1", "mage-and-witch:2"];

/// The plain twin of the 2nd edition's tile printed with a garden; `None` for other ids.
pub fn plain_twin(id: &str) -> Option<&'static str> {
    (id == "MW/CCRrG").then_some("MW/CCRr.2")
}

/// Mage & Witch's part of a save's set-up.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MageWitchSetup {
    /// Copies of the magic tiles (`:1` and `:2` together).
    pub copies: u32,
    /// The `mage` element.
    pub mage: bool,
    /// The `witch` element.
    pub witch: bool,
}

impl MageWitchSetup {
    /// Whether the save plays Mage & Witch's rules (its elements).
    pub fn in_play(&self) -> bool {
        self.mage || self.witch
    }

    /// Read a set-up element; false when it is not one of Mage & Witch's.
    pub fn element(&mut self, name: &str) -> bool {
        match name {
            "mage" => self.mage = true,
            "witch" => self.witch = true,
            _ => return false,
        }
        true
    }

    /// The set-up meeplab can play: both figures with the tiles.
    pub fn check(&self) -> Result<(), JczError> {
        if self.copies == 0 && !self.in_play() {
            return Ok(());
        }
        if self.copies == 0 || !self.mage || !self.witch {
            return Err(JczError::new(format!(
                "setup: Mage & Witch in part (tiles x{}, mage = {}, witch = {}) is not supported: meeplab plays the magic tiles with both figures",
                self.copies, self.mage, self.witch
            )));
        }
        Ok(())
    }
}

/// A short label of the set-up's Mage & Witch part (the sets are named by the caller).
pub fn label(_s: &MageWitchSetup) -> String {
    String::new()
}

/// The rule-language lines of the Mage & Witch part; the tile set joins `deck`.
pub fn ruleset_lines(s: &MageWitchSetup, dir: &std::path::Path, deck: &mut Vec<String>) -> String {
    let mut t = String::new();
    if !s.in_play() {
        return t;
    }
    t.push_str(&format!(
        "include {}\n",
        crate::import::jcz::quoted(&dir.join("tiles/magewitch.tiles"))
    ));
    deck.push(format!("magewitch x{}", s.copies));
    t.push_str(
        "magewitch source \"JCloisterZone mage and witch elements (MageAndWitchPhase)\" {\n",
    );
    t.push_str(
        "  witch_rounding = up\n  final_scoring = applies\n  joined_check = magic_step\n}\n",
    );
    t
}

/// A `MOVE_NEUTRAL_FIGURE` of Mage & Witch: the figure (0 the mage, 1 the witch) and its
/// spot, `None` when it leaves the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MwMsg {
    pub figure: usize,
    pub to: Option<Pointer>,
}

/// The message's type.
pub const MESSAGE: &str = "MOVE_NEUTRAL_FIGURE";

/// Read a `MOVE_NEUTRAL_FIGURE` payload.
pub fn parse(payload: &Value, bad: &dyn Fn(String) -> JczError) -> Result<MwMsg, JczError> {
    let figure = match payload.get("figureId").and_then(Value::as_str) {
        Some("mage.1") => MAGE,
        Some("witch.1") => 1 - MAGE,
        other => {
            return Err(bad(format!(
                "payload.figureId = {}: meeplab moves the mage (`mage.1`) and the witch (`witch.1`) only",
                other.unwrap_or("missing")
            )))
        }
    };
    let to = match payload.get("to") {
        None | Some(Value::Null) => None,
        Some(p) => {
            let pos = p.get("position").and_then(Value::as_array);
            let xy = pos.filter(|a| a.len() == 2).and_then(|a| {
                let c = |v: &Value| v.as_i64().and_then(|n| i32::try_from(n).ok());
                Some((c(&a[0])?, c(&a[1])?))
            });
            let (x, y) = xy.ok_or_else(|| bad("payload.to.position must be [x, y]".into()))?;
            let feature = match p.get("feature").and_then(Value::as_str) {
                Some("Road") => FeatureKind::Road,
                Some("City") => FeatureKind::City,
                f => {
                    return Err(bad(format!(
                        "payload.to.feature = {}: a magic figure stands on a Road or a City",
                        f.unwrap_or("missing")
                    )))
                }
            };
            let location = p
                .get("location")
                .and_then(Value::as_str)
                .ok_or_else(|| bad("payload.to.location is missing".into()))?;
            Some(Pointer {
                x,
                y,
                feature: Some(feature),
                location: location.to_string(),
                meeple: String::new(),
            })
        }
    };
    Ok(MwMsg { figure, to })
}

/// The decisions a `MOVE_NEUTRAL_FIGURE` records, given the spot its pointer names
/// (`segment_at`).
pub fn decisions(
    m: &MwMsg,
    segment_at: impl FnOnce(&Pointer) -> Result<(i32, i32, u8), JczError>,
) -> Result<Vec<(DecisionKind, Choice)>, JczError> {
    let mage = Choice::Flag {
        yes: m.figure == MAGE,
    };
    Ok(match &m.to {
        Some(p) => vec![
            (MAGIC_FIGURE, mage),
            (
                MAGIC_TARGET,
                Choice::Spot {
                    at: Some(segment_at(p)?),
                },
            ),
        ],
        None => vec![(MAGIC_REMOVE, mage)],
    })
}

/// `MOVE_NEUTRAL_FIGURE`: the magic step, by the active player before the follower action.
fn move_figure(t: &mut Translator, at: &Current, m: &MwMsg) -> Result<(), JczError> {
    match t.step() {
        Step::Main if t.follower_done() => {
            return Err(at.err("a magic figure moved after the follower action"))
        }
        Step::Main => {}
        Step::After { pending: None, .. } => {
            return Err(at.err("a magic figure moved during the crop-circle step"))
        }
        _ => return Err(t.out_of_order(at)),
    }
    t.check_active(at)?;
    for (kind, choice) in decisions(m, |p| t.segment_at(at, p))? {
        t.record_active(at, kind, choice);
    }
    Ok(())
}

/// The importer part of Mage & Witch.
pub struct MageWitchPart;

/// Its registration (in [`crate::import::jcz::parts`]).
pub static PART: MageWitchPart = MageWitchPart;

impl JczPart for MageWitchPart {
    fn name(&self) -> &'static str {
        "mage and witch"
    }
    fn sets(&self) -> &'static [&'static str] {
        &SETS
    }
    fn read_set(&self, _set: &str, copies: u32, s: &mut Setup) -> Result<(), JczError> {
        s.part_mut::<MageWitchSetup>().copies += copies;
        Ok(())
    }
    fn elements(&self) -> &'static [&'static str] {
        &["mage", "witch"]
    }
    fn read_element(&self, name: &str, _v: &Value, s: &mut Setup) -> Result<(), JczError> {
        s.part_mut::<MageWitchSetup>().element(name);
        Ok(())
    }
    fn settle(&self, s: &mut Setup) -> Result<(), JczError> {
        s.part::<MageWitchSetup>().check()
    }
    fn messages(&self) -> &'static [&'static str] {
        &[MESSAGE]
    }
    fn parse_message(&self, m: &RawMessage) -> Option<Result<Msg, JczError>> {
        (m.kind == MESSAGE)
            .then(|| parse(m.payload, m.bad).map(|mw| Msg::Part(PartMsg::new(MESSAGE, mw))))
    }
    fn translate(
        &self,
        t: &mut Translator,
        at: &Current,
        _m: &Message,
        msg: &PartMsg,
    ) -> Option<Result<(), JczError>> {
        Some(move_figure(t, at, msg.get::<MwMsg>()?))
    }
    fn label(&self, s: &Setup) -> String {
        label(&s.part::<MageWitchSetup>())
    }
    fn ruleset_lines(&self, s: &Setup, m: &mut Mapping) -> Result<String, String> {
        Ok(ruleset_lines(
            &s.part::<MageWitchSetup>(),
            m.dir,
            &mut m.deck,
        ))
    }
    fn gardens(&self) -> &'static [Gardens] {
        &[Gardens {
            set: "mage-and-witch:2",
            plain_set: "magewitch",
            file: "tiles/abbot-magewitch.tiles",
            garden_set: "magewitch-gardens",
            tiles: &["MW/CCRrG"],
        }]
    }
    fn plain_twin(&self, id: &str) -> Option<&'static str> {
        plain_twin(id)
    }
    fn set_tiles(&self, set: &str) -> Option<&'static [(&'static str, u32)]> {
        match set {
            "mage-and-witch:1" => Some(MW_1),
            "mage-and-witch:2" => Some(MW_2),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_editions_hold_eight_tiles() {
        for set in [MW_1, MW_2] {
            assert_eq!(set.iter().map(|e| e.1).sum::<u32>(), 8);
        }
        assert_eq!(crate::import::jcz::plain_twin("MW/CCRrG"), "MW/CCRr.2");
    }

    #[test]
    fn both_figures_go_with_the_tiles() {
        let all = MageWitchSetup {
            copies: 1,
            mage: true,
            witch: true,
        };
        assert!(all.check().is_ok());
        assert!(MageWitchSetup {
            witch: false,
            ..all.clone()
        }
        .check()
        .is_err());
        assert!(MageWitchSetup { copies: 0, ..all }.check().is_err());
        assert!(MageWitchSetup::default().check().is_ok());
    }

    /// The 2nd edition's set maps onto the same tiles (its garden print as its plain twin),
    /// with JCloisterZone's joined-figures check, and its pack holds the garden print.
    #[test]
    fn the_second_edition_set_maps_with_jczs_check() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
        let s = crate::import::jcz::Setup {
            sets: vec![("basic:1".into(), 1), ("mage-and-witch:2".into(), 1)],
            basic: 1,
            followers: 7,
            farmers: true,
            ..Default::default()
        }
        .with(MageWitchSetup {
            copies: 1,
            mage: true,
            witch: true,
        });
        let r = crate::import::jcz::load_ruleset(&s, &dir).unwrap();
        assert_eq!(r.ext_choice("magewitch.joined_check"), Some("magic_step"));
        assert_eq!(r.ext_choice("magewitch.witch_rounding"), Some("up"));
        let twin = crate::import::jcz::plain_twin("MW/CCRrG");
        assert!(r.tile_by_jcz(twin).is_some());
        assert_eq!(r.total_tiles(), 72 + 8);
        let pack = crate::import::draws::build_pack(&s.sets, "BA/RCr").unwrap();
        assert!(pack.iter().any(|t| t == "MW/CCRrG"), "{pack:?}");
        assert!(!pack.iter().any(|t| t == "MW/CCRr.2"), "{pack:?}");
    }

    #[test]
    fn a_move_reads_its_figure_and_spot() {
        let bad = |s: String| JczError::new(s);
        let m = parse(
            &json!({"figureId": "witch.1", "to": {"position": [1, -2], "feature": "Road", "location": "NS"}}),
            &bad,
        )
        .unwrap();
        assert_eq!(m.figure, 1);
        assert_eq!(m.to.as_ref().map(|p| (p.x, p.y)), Some((1, -2)));
        let off = parse(&json!({"figureId": "mage.1", "to": null}), &bad).unwrap();
        assert_eq!(off.to, None);
        let d = decisions(&off, |_| unreachable!()).unwrap();
        assert_eq!(d, vec![(MAGIC_REMOVE, Choice::Flag { yes: true })]);
        assert!(parse(&json!({"figureId": "dragon.1"}), &bad).is_err());
        assert!(parse(
            &json!({"figureId": "mage.1", "to": {"position": [0, 0], "feature": "Field", "location": "NL"}}),
            &bad
        )
        .is_err());
    }
}
