//! The importer's seam: what one expansion's part of the importer does, as the
//! [`JczPart`] trait. Each part is registered once, in [`super::parts::PARTS`]; the shared
//! steps (reading the set-up and the messages in `save.rs`, the mapping in `mapping.rs`)
//! ask every registered part and name none.

use super::message::{meeple_pointer, Msg, Pointer};
use super::setup::Setup;
use super::JczError;
use crate::engine::FollowerKind;
use serde_json::Value;
use std::path::Path;

/// A message of `replay[]` before it is decoded, as a part sees it.
pub struct RawMessage<'a> {
    /// The message's `type` (`PLACE_TOKEN`).
    pub kind: &'a str,
    /// Its `payload` (an empty object when absent).
    pub payload: &'a Value,
    /// An error about this message (its index and type added).
    pub bad: &'a dyn Fn(String) -> JczError,
}

impl RawMessage<'_> {
    /// `payload.token` of a `PLACE_TOKEN` (empty when absent).
    pub fn token(&self) -> &str {
        self.payload
            .get("token")
            .and_then(Value::as_str)
            .unwrap_or("")
    }

    /// `payload.source` of a `RETURN_MEEPLE`.
    pub fn source(&self) -> Option<&str> {
        self.payload.get("source").and_then(Value::as_str)
    }

    /// A meeple pointer `{position, feature, location}` with its `meepleId`; `field` names
    /// it in errors.
    pub fn pointer(
        &self,
        at: &Value,
        meeple: Option<&Value>,
        field: &str,
    ) -> Result<Pointer, JczError> {
        meeple_pointer(at, meeple, field, self.bad)
    }

    /// The pointer of a `RETURN_MEEPLE`: `payload.pointer` `{featurePointer, meepleId}`.
    pub fn return_pointer(&self) -> Result<Pointer, JczError> {
        let p = self
            .payload
            .get("pointer")
            .ok_or_else(|| (self.bad)("payload.pointer is missing".into()))?;
        let fp = p.get("featurePointer").ok_or_else(|| {
            (self.bad)("payload.pointer.featurePointer is missing (JCloisterZone writes {featurePointer: {position, feature, location}, meepleId})".into())
        })?;
        self.pointer(fp, p.get("meepleId"), "payload.pointer.featurePointer")
    }
}

/// What the mapping of a set-up to a ruleset has decided so far.
pub struct Mapping<'a> {
    /// The folder of the bundled rulesets.
    pub dir: &'a Path,
    /// The bundled ruleset the mapped one extends (`base.rules`, …).
    pub parent: &'static str,
    /// The deck's entries (`base x1`, `bcb x1`, …), in order.
    pub deck: Vec<String>,
}

/// One expansion's part of the importer. Every method has a default that does nothing, so
/// a part implements what its expansion needs. The registered parts are asked in the order
/// of [`super::parts::PARTS`] (the order of the mapped ruleset's lines and of the label).
pub trait JczPart: Sync {
    /// The part's name (`"gold"`), for messages.
    fn name(&self) -> &'static str;

    /// The keys of `setup.sets` it reads (`goldmines`).
    fn sets(&self) -> &'static [&'static str] {
        &[]
    }

    /// Read `copies` (1–4) of one of its [`sets`](JczPart::sets).
    fn read_set(&self, _set: &str, _copies: u32, _s: &mut Setup) -> Result<(), JczError> {
        Ok(())
    }

    /// The keys of `setup.elements` it reads (`gold`).
    fn elements(&self) -> &'static [&'static str] {
        &[]
    }

    /// Read one of its [`elements`](JczPart::elements) (present, not `null`: JCloisterZone
    /// switches an element on by its presence).
    fn read_element(&self, _name: &str, _value: &Value, _s: &mut Setup) -> Result<(), JczError> {
        Ok(())
    }

    /// Read a `setup.rules` entry when it is one of its own (`None`: not its own).
    fn read_rule(
        &self,
        _name: &str,
        _value: &Value,
        _s: &mut Setup,
    ) -> Option<Result<(), JczError>> {
        None
    }

    /// After the sets and elements: what they imply together (an element without its tiles
    /// changes nothing), and the checks of its set-up.
    fn settle(&self, _s: &mut Setup) -> Result<(), JczError> {
        Ok(())
    }

    /// The start tile, when its sets replace the standard one.
    fn start_tile(&self, _s: &Setup) -> Option<&'static str> {
        None
    }

    /// The messages it reads, as `TYPE` or `TYPE TOKEN` (for the docs and errors).
    fn messages(&self) -> &'static [&'static str] {
        &[]
    }

    /// Decode a message when it is one of its own (`None`: not its own).
    fn parse_message(&self, _m: &RawMessage) -> Option<Result<Msg, JczError>> {
        None
    }

    /// After the whole save is read: what the message log tells the set-up, and the checks
    /// of the whole game.
    fn finish(
        &self,
        _s: &mut Setup,
        _messages: &[super::message::Message],
    ) -> Result<(), JczError> {
        Ok(())
    }

    /// What it adds to the set-up's label after the sets (`" + castles"`).
    fn label(&self, _s: &Setup) -> String {
        String::new()
    }

    /// What the label says when its tiles are in and its element is not (`", no gold"`),
    /// after the farmers.
    fn label_absent(&self, _s: &Setup) -> String {
        String::new()
    }

    /// The bundled ruleset the mapping extends when it decides it, with its priority (the
    /// highest wins; `base.rules` without any).
    fn parent(&self, _s: &Setup) -> Option<(u8, &'static str)> {
        None
    }

    /// Its lines of the mapped ruleset (options, included tiles), pushing its deck entries.
    fn ruleset_lines(&self, _s: &Setup, _m: &mut Mapping) -> Result<String, String> {
        Ok(String::new())
    }

    /// The plain twin of one of its tile ids printed with a garden (`None`: not its own).
    fn plain_twin(&self, _id: &str) -> Option<&'static str> {
        None
    }

    /// The tiles of one of its sets as JCloisterZone's pack holds them (id, copies), for
    /// reproducing its draws (`None`: not its own).
    fn set_tiles(&self, _set: &str) -> Option<&'static [(&'static str, u32)]> {
        None
    }

    /// The kinds of `meepleId` (`P.KIND.N`) of its figures (`big`), for errors.
    fn meeple_kinds(&self) -> &'static [&'static str] {
        &[]
    }

    /// A figure of its own by the kind of its `meepleId` (`P.KIND.N`), when the set-up deals
    /// it: the kind of follower, how many a player has, and their name in errors.
    fn meeple(&self, _s: &Setup, _kind: &str) -> Option<(FollowerKind, u8, &'static str)> {
        None
    }
}

/// A path as a rule-language string literal (`"` and `\\` escaped), for the mapped
/// ruleset's `extends` and `include` lines (the parts' lines too).
pub(crate) fn quoted(p: &Path) -> String {
    let s = p.display().to_string();
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A count as JCloisterZone reads it (`Integer.parseInt(value.toString().split("\\.")[0])`).
pub fn element_count(v: &Value) -> Option<i64> {
    let s = match v {
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.clone(),
        _ => return None,
    };
    s.split('.').next()?.parse::<i64>().ok()
}
