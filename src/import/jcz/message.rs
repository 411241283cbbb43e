//! The messages of a save's `replay[]`, decoded: where a follower goes ([`Pointer`]), the
//! message ([`Msg`]; a part's own messages as [`PartMsg`]) and its sender and `random`
//! ([`Message`]), with the small readers the core and the importer parts share.

use super::setup::PartState;
use super::JczError;
use crate::tiles::FeatureKind;
use serde_json::Value;
use std::fmt;

/// Where a follower goes or comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pointer {
    pub x: i32,
    pub y: i32,
    pub feature: Option<FeatureKind>,
    pub location: String,
    /// `meepleId`, e.g. `0.small.1`.
    pub meeple: String,
}

/// One message of `replay[]`, decoded: the core's four types, and the importer parts' own
/// ([`PartMsg`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Msg {
    PlaceTile {
        /// The JCloisterZone id as written.
        tile: String,
        rot: u8,
        x: i32,
        y: i32,
    },
    Deploy(Pointer),
    Pass,
    Commit,
    /// A message an importer part reads and translates itself: see [`super::part`].
    Part(PartMsg),
}

impl Msg {
    pub fn name(&self) -> &'static str {
        match self {
            Msg::PlaceTile { .. } => "PLACE_TILE",
            Msg::Deploy(_) => "DEPLOY_MEEPLE",
            Msg::Pass => "PASS",
            Msg::Commit => "COMMIT",
            Msg::Part(p) => p.kind,
        }
    }

    /// Whether JCloisterZone's message changes its `random` (a `COMMIT`, a deployment, a
    /// part's message that says so).
    pub fn sets_random(&self) -> bool {
        match self {
            Msg::Commit | Msg::Deploy(_) => true,
            Msg::Part(p) => p.sets_random,
            _ => false,
        }
    }

    /// The `meepleId` of the figure the message moves (checked against its sender).
    pub fn meeple(&self) -> Option<&str> {
        match self {
            Msg::Deploy(p) => Some(&p.meeple),
            Msg::Part(p) => p.meeple.as_deref(),
            _ => None,
        }
    }
}

/// A message with its index in `replay[]`, its sender and the `random` it sets.
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    pub index: usize,
    pub player: Option<u8>,
    pub msg: Msg,
    /// `payload.random` of a `COMMIT` or `DEPLOY_MEEPLE` (JCZ's random-changing messages).
    pub random: Option<f64>,
}

/// A message of an importer part: its JCloisterZone type (`BAZAAR_BID`) and what the part
/// read, which only the part looks into ([`PartMsg::get`]).
pub struct PartMsg {
    pub kind: &'static str,
    value: Box<dyn PartState>,
    /// The `meepleId` of the figure it moves, checked against the sender like a
    /// `DEPLOY_MEEPLE`'s.
    pub meeple: Option<String>,
    /// It changes JCloisterZone's `random` (its `payload.random` is read).
    pub sets_random: bool,
}

impl PartMsg {
    pub fn new<T: PartState>(kind: &'static str, value: T) -> PartMsg {
        PartMsg {
            kind,
            value: Box::new(value),
            meeple: None,
            sets_random: false,
        }
    }

    /// The same, moving the figure `meeple`.
    pub fn moving(mut self, meeple: &str) -> PartMsg {
        self.meeple = Some(meeple.to_string());
        self
    }

    /// The same, changing JCloisterZone's `random`.
    pub fn setting_random(mut self) -> PartMsg {
        self.sets_random = true;
        self
    }

    /// What the part read, when it is a `T`.
    pub fn get<T: PartState>(&self) -> Option<&T> {
        self.value.as_ref().as_any().downcast_ref::<T>()
    }
}

impl Clone for PartMsg {
    fn clone(&self) -> PartMsg {
        PartMsg {
            kind: self.kind,
            value: self.value.as_ref().clone_box(),
            meeple: self.meeple.clone(),
            sets_random: self.sets_random,
        }
    }
}

impl PartialEq for PartMsg {
    fn eq(&self, other: &PartMsg) -> bool {
        self.kind == other.kind
            && self.meeple == other.meeple
            && self.sets_random == other.sets_random
            && self.value.as_ref().eq_dyn(other.value.as_ref())
    }
}

impl Eq for PartMsg {}

impl fmt::Debug for PartMsg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {:?}", self.kind, self.value)
    }
}

pub(crate) fn as_i32(v: &Value) -> Option<i32> {
    v.as_i64().and_then(|n| i32::try_from(n).ok())
}

pub(crate) fn position(v: Option<&Value>) -> Option<(i32, i32)> {
    let a = v?.as_array()?;
    if a.len() != 2 {
        return None;
    }
    Some((as_i32(&a[0])?, as_i32(&a[1])?))
}

pub(crate) fn feature_kind(s: &str) -> Option<FeatureKind> {
    match s {
        "City" => Some(FeatureKind::City),
        "Road" => Some(FeatureKind::Road),
        "Field" => Some(FeatureKind::Field),
        "Monastery" => Some(FeatureKind::Cloister),
        // a garden is its tile's cloister segment (`crate::import::abbot`)
        "Garden" => Some(FeatureKind::Cloister),
        _ => None,
    }
}

pub(crate) fn meeple_pointer(
    fp: &Value,
    meeple: Option<&Value>,
    field: &str,
    bad: &dyn Fn(String) -> JczError,
) -> Result<Pointer, JczError> {
    let (x, y) = position(fp.get("position"))
        .ok_or_else(|| bad(format!("{field}.position must be [x, y]")))?;
    let feature = match fp.get("feature").and_then(Value::as_str) {
        None => return Err(bad(format!("{field}.feature is missing"))),
        Some(f) => feature_kind(f).ok_or_else(|| {
            bad(format!(
                "{field}.feature = `{f}` is not supported (City, Road, Field, Monastery)"
            ))
        })?,
    };
    let location = fp
        .get("location")
        .and_then(Value::as_str)
        .ok_or_else(|| bad(format!("{field}.location is missing")))?
        .to_string();
    let meeple = meeple
        .and_then(Value::as_str)
        .ok_or_else(|| bad("meepleId is missing".into()))?
        .to_string();
    Ok(Pointer {
        x,
        y,
        feature: Some(feature),
        location,
        meeple,
    })
}
