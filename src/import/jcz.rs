//! JCloisterZone 5.x saves (`.jcz`, JSON) as JCloisterZone writes them: parsing, the mapping
//! to a meeplab ruleset, and the translation of the message log into meeplab's semantic
//! decisions. Anything it cannot read is an error naming the message index and the field.
//!
//! # What is read
//! - `appVersion` must be 5.7.0 or later (older saves use another message format).
//! - `setup.sets`: `basic:1`, `basic:2` (its garden tiles read as their plain twins),
//!   `goldmines`, `corn-circles/1`, `corn-circles/2`, each with a copy count 1–4. Any other
//!   set is refused, naming it; `bridges-castles-and-bazaars:1`/`:2` too, with its own
//!   words: its 12 tiles (bridges, bazaars) would be in the pack, and meeplab has none of them.
//! - `setup.elements`, read as JCloisterZone's engine reads them: an element is on when its
//!   key is present (the client deletes switched-off elements; even `"farmers": false` means
//!   farmers on). `small-follower` (the follower count; required), `farmers`, `gold` (ingots
//!   on the Gold Mines tiles), `corn-circle` (the crop-circle action), `garden` (inert
//!   without the Abbot), `castle` (the castles of Bridges, Castles & Bazaars, on whatever
//!   small cities the sets make). `bridge` and `bazaar` are refused as the parts of BC&B
//!   meeplab lacks; any other element present is refused, naming it.
//! - `setup.rules`: `tiny-city-scoring` `"2"` (2-point small city) or `"4"`. Other rule keys
//!   only tune expansions meeplab does not play; they are ignored with a warning.
//! - `setup.start`: exactly `BA/RCr` at (0,0), rotation `0` (an integer, as JCloisterZone
//!   writes it).
//! - `players[]` in seat order (`name`, or `nickname`).
//! - `initialRandom` and the `random` of `COMMIT`/`DEPLOY_MEEPLE`: JCloisterZone's draws are
//!   reproduced from them (see [`crate::import::draws`]).
//! - `replay[]`: `PLACE_TILE`, `PLACE_TOKEN` (`GOLD` with a position; `CASTLE` with a
//!   pointer `{position, feature: "City", location}` to the small city's segment on the tile
//!   just placed; `BRIDGE` is refused), `DEPLOY_MEEPLE` (small followers
//!   `P.small.N` on `City`/`Road`/`Field`/`Monastery`), `CIRCLE_REMOVE_OR_DEPLOY`,
//!   `RETURN_MEEPLE` (`source: CORN_CIRCLE`, pointer `{featurePointer, meepleId}`), `PASS`,
//!   `COMMIT`; `UNDO` and anything else is refused.
//! - `gameAnnotations.drawOrder` (or `tilePack.params.drawOrder`): the draws, discarded tiles
//!   included; a final `#END` ends the pack there. `gameAnnotations.endTurn` (or
//!   `tilePack.params.drawLimit`): the number of draws the pack holds.
//! - `test.description`, `test.assertions[]` (see [`crate::import::assertions`]).
//!
//! # The turn, as JCloisterZone writes it
//! `PLACE_TILE` (active player) · `PLACE_TOKEN GOLD` (second ingot, when there is a choice) ·
//! `DEPLOY_MEEPLE` or `PASS` (only when a follower could be placed) · with castles, the castle
//! step when a small city with one follower was completed (JCloisterZone's `CastlePhase`,
//! before the commit and the scoring): from the active player round the table, each player
//! offered one sends `PLACE_TOKEN CASTLE` (one castle a player a turn) or `PASS`, and a
//! `PASS` ends the step · `COMMIT` · then, for a
//! crop-circle tile with any follower on the board, `CIRCLE_REMOVE_OR_DEPLOY` (active player)
//! and for each player with a follower on that kind of feature, from the next player round to
//! the active one: `DEPLOY_MEEPLE` + `COMMIT`, `PASS`, or `RETURN_MEEPLE` + `COMMIT`.
//!
//! # The mapping to a ruleset
//! The mapped ruleset is rule-language text that `extends` a bundled ruleset and overrides
//! the deck and options; it is loaded through the DSL like any other file:
//! - `gold` on → `goldmines-autopick.rules` (JCZ hands out gold by its automatic
//!   most-contested-first pick; its crop rules are HiG's: *may* deploy, same segment, which
//!   is what JCZ does); else the crop-circle action on → `cropcircles.rules`; else `castle`
//!   on → `castles.rules`; else `base.rules`.
//! - `castle` on over another parent: a `castles { supply = 3, supply_5_6 = 2, farm_bonus = 1 }`
//!   block (JCZ's 3 tokens, 2 with 5–6 players; a castle worth a city + 1 to farmers), with
//!   `gold = vicinity` when `gold` is on (JCZ's scoring castle claims its vicinity's ingots).
//! - `deck { base xN, goldmines-c1 xN, crop-circles-1 xN, crop-circles-2 xN }` from the sets
//!   (the start tile is one of the `BA/RCr` copies, as in JCZ). Gold Mines tiles without the
//!   `gold` element, and crop-circle tiles without `corn-circle`, are written into the text
//!   without their symbol: plain tiles of the same layout, as JCloisterZone plays them.
//! - `followers = small-follower`, `farms = off` without farmers,
//!   `score.city.small = tiles + pennants` for `tiny-city-scoring: "2"`, `players = 1..6`.
//!
//! # The translation
//! Each `PLACE_TILE` starts a turn whose active player is the message's `player` (checked
//! against the seat rotation). Then: `PLACE_TILE` → `Choice::Place` (rotation normalised to
//! the engine's representative of symmetric turns); `PLACE_TOKEN GOLD` → `Choice::Ingot`;
//! `DEPLOY_MEEPLE`/`PASS` before `COMMIT` → `Choice::Follower`; `CIRCLE_REMOVE_OR_DEPLOY` →
//! `Choice::CropMode`; after it `DEPLOY_MEEPLE`/`PASS` → `CropDeploy` and `RETURN_MEEPLE` →
//! `CropRemove` (`Choice::Spot`). A location in board orientation is turned back by the tile's
//! rotation and matched against the tile's segments (sides for cities and roads, half-edges
//! for fields, `I` for the cloister).
//!
//! `PLACE_TOKEN CASTLE` becomes a [`CastleMark`] (checked here: on the tile just placed, a
//! single-edge city cap facing one on the neighbouring tile; a pointer elsewhere is an error
//! naming the message), not a decision: the engine asks `castles::CASTLE_BUILD` once per
//! small city it offers, in the tile's segment order, and the replay answers each offer yes
//! when the save builds a castle on that city and no otherwise (JCZ scored it: declined by
//! `PASS`, or never offered to that player after a `PASS` or his one castle). A castle the
//! engine does not offer, or a castle-step `PASS` in a turn with no offer, is an error.

use crate::engine::{Choice, DecisionKind, TakenDecision, MAX_PLAYERS};
use crate::import::draws::{self, DrawPlan};
use crate::ruleset::{Ruleset, TileIdx};
use crate::tiles::{rotate_half_mask, rotate_side_mask, FeatureKind, HalfEdge, Side, TileType};
use serde_json::Value;
use std::collections::HashMap;
use std::fmt;
use std::path::Path;

/// Largest `.jcz` accepted.
pub const MAX_BYTES: usize = 16 << 20;
/// Oldest JCloisterZone version whose saves are read.
pub const MIN_VERSION: (u32, u32, u32) = (5, 7, 0);
/// The start tile meeplab supports.
pub const START_TILE: &str = "BA/RCr";

/// A problem with a `.jcz` file; `message` is the index into `replay[]` when it is about one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JczError {
    pub message: Option<usize>,
    pub kind: Option<String>,
    pub text: String,
}

impl JczError {
    pub(crate) fn new(text: impl Into<String>) -> JczError {
        JczError {
            message: None,
            kind: None,
            text: text.into(),
        }
    }
    pub(crate) fn at(index: usize, kind: &str, text: impl Into<String>) -> JczError {
        JczError {
            message: Some(index),
            kind: Some(kind.to_string()),
            text: text.into(),
        }
    }
}

impl fmt::Display for JczError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.message, &self.kind) {
            (Some(i), Some(k)) => write!(f, "replay message {i} ({k}): {}", self.text),
            (Some(i), None) => write!(f, "replay message {i}: {}", self.text),
            _ => f.write_str(&self.text),
        }
    }
}

/// The game set-up of a save.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setup {
    /// The JCloisterZone sets with their copies, as in `setup.sets` (`basic:1`, …).
    pub sets: Vec<(String, u32)>,
    /// Copies of the base set (`basic:1` and `basic:2` together).
    pub basic: u32,
    pub goldmines: u32,
    pub crop1: u32,
    pub crop2: u32,
    pub followers: u8,
    pub farmers: bool,
    /// The `gold` element: ingots on the Gold Mines tiles.
    pub gold: bool,
    /// The `corn-circle` element: the crop-circle action.
    pub crop_action: bool,
    /// `tiny-city-scoring: "2"`.
    pub tiny_city_2: bool,
    /// The `castle` element: castles (of Bridges, Castles & Bazaars) on the base tiles.
    pub castle: bool,
}

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

/// One message of `replay[]`, decoded.
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
    Gold {
        x: i32,
        y: i32,
    },
    /// `PLACE_TOKEN CASTLE`: the small city to turn into a castle (`meeple` is empty).
    Castle(Pointer),
    CropChoice {
        deploy: bool,
    },
    Return(Pointer),
    Pass,
    Commit,
}

impl Msg {
    pub fn name(&self) -> &'static str {
        match self {
            Msg::PlaceTile { .. } => "PLACE_TILE",
            Msg::Deploy(_) => "DEPLOY_MEEPLE",
            Msg::Gold { .. } | Msg::Castle(_) => "PLACE_TOKEN",
            Msg::CropChoice { .. } => "CIRCLE_REMOVE_OR_DEPLOY",
            Msg::Return(_) => "RETURN_MEEPLE",
            Msg::Pass => "PASS",
            Msg::Commit => "COMMIT",
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

/// The `test` section.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TestSpec {
    pub description: Option<String>,
    pub assertions: Vec<String>,
}

/// A parsed save.
#[derive(Clone, Debug, PartialEq)]
pub struct JczGame {
    pub app_version: String,
    pub setup: Setup,
    pub players: Vec<String>,
    pub messages: Vec<Message>,
    /// `initialRandom`.
    pub initial_random: Option<f64>,
    /// The forced draws (`drawOrder` without a final `#END`).
    pub draw_order: Vec<String>,
    /// The draw order ends with `#END`.
    pub draw_order_ends: bool,
    /// `endTurn` / `drawLimit`: the number of draws the pack holds.
    pub draw_limit: Option<u32>,
    pub test: Option<TestSpec>,
    /// Things read but ignored.
    pub warnings: Vec<String>,
}

fn parse_version(v: &str) -> Option<(u32, u32, u32)> {
    let core = v.split(['-', '+', ' ']).next()?;
    let mut it = core.split('.').map(|p| p.parse::<u32>());
    let a = it.next()?.ok()?;
    let b = it.next().unwrap_or(Ok(0)).ok()?;
    let c = it.next().unwrap_or(Ok(0)).ok()?;
    Some((a, b, c))
}

/// Decode JSON text, with the size and nesting limits as clear errors.
pub fn parse_json(text: &str) -> Result<Value, JczError> {
    if text.len() > MAX_BYTES {
        return Err(JczError::new(format!(
            "the file is {} bytes; records over {} MiB are refused",
            text.len(),
            MAX_BYTES >> 20
        )));
    }
    serde_json::from_str::<Value>(text).map_err(|e| {
        let s = e.to_string();
        if s.contains("recursion limit") {
            JczError::new(format!(
                "the JSON nests deeper than 128 levels; refused ({s})"
            ))
        } else {
            JczError::new(format!("not valid JSON: {s}"))
        }
    })
}

/// Whether a JSON document looks like a JCloisterZone save.
pub fn looks_like_jcz(v: &Value) -> bool {
    v.get("replay").is_some() && v.get("setup").is_some()
}

fn as_i32(v: &Value) -> Option<i32> {
    v.as_i64().and_then(|n| i32::try_from(n).ok())
}

fn position(v: Option<&Value>) -> Option<(i32, i32)> {
    let a = v?.as_array()?;
    if a.len() != 2 {
        return None;
    }
    Some((as_i32(&a[0])?, as_i32(&a[1])?))
}

/// A message's rotation: `"R0"`, `"R90"`, `"R180"`, `"R270"`.
fn rotation(v: Option<&Value>) -> Option<u8> {
    match v?.as_str()? {
        "R0" => Some(0),
        "R90" => Some(1),
        "R180" => Some(2),
        "R270" => Some(3),
        _ => None,
    }
}

fn feature_kind(s: &str) -> Option<FeatureKind> {
    match s {
        "City" => Some(FeatureKind::City),
        "Road" => Some(FeatureKind::Road),
        "Field" => Some(FeatureKind::Field),
        "Monastery" => Some(FeatureKind::Cloister),
        _ => None,
    }
}

fn count(v: &Value, what: &str) -> Result<u32, JczError> {
    let n = v
        .as_u64()
        .ok_or_else(|| JczError::new(format!("setup.sets.{what} must be a count, not {v}")))?;
    if !(1..=4).contains(&n) {
        return Err(JczError::new(format!(
            "setup.sets.{what} = {n}: 1 to 4 copies of a set are supported"
        )));
    }
    Ok(n as u32)
}

/// A count as JCloisterZone reads it (`Integer.parseInt(value.toString().split("\\.")[0])`).
fn element_count(v: &Value) -> Option<i64> {
    let s = match v {
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.clone(),
        _ => return None,
    };
    s.split('.').next()?.parse::<i64>().ok()
}

fn parse_setup(setup: &Value, warnings: &mut Vec<String>) -> Result<Setup, JczError> {
    let mut s = Setup::default();
    let sets = setup
        .get("sets")
        .and_then(Value::as_object)
        .ok_or_else(|| JczError::new("setup.sets is missing (which tile sets were played?)"))?;
    let mut unsupported = Vec::new();
    for (name, v) in sets {
        if v.is_null() {
            continue;
        }
        let n = match name.as_str() {
            "basic:1" | "basic:2" => {
                let n = count(v, name)?;
                s.basic += n;
                n
            }
            "goldmines" => {
                s.goldmines = count(v, name)?;
                s.goldmines
            }
            "corn-circles/1" => {
                s.crop1 = count(v, name)?;
                s.crop1
            }
            "corn-circles/2" => {
                s.crop2 = count(v, name)?;
                s.crop2
            }
            "bridges-castles-and-bazaars:1" | "bridges-castles-and-bazaars:2" => {
                return Err(JczError::new(format!(
                    "setup.sets.{name}: the 12 tiles of Bridges, Castles & Bazaars (BB/…, with \
                     bazaars and bridge-ready roads) would be in the pack, and meeplab does not \
                     have them yet; only BC&B's castles are supported (the `castle` element \
                     with the sets meeplab plays)"
                )));
            }
            other => {
                unsupported.push(other.to_string());
                continue;
            }
        };
        s.sets.push((name.clone(), n));
    }
    if !unsupported.is_empty() {
        return Err(JczError::new(format!(
            "setup.sets: tile set(s) not supported: {} (meeplab plays basic:1, basic:2, goldmines, corn-circles/1, corn-circles/2)",
            unsupported.join(", ")
        )));
    }
    if s.basic == 0 {
        return Err(JczError::new(
            "setup.sets: a game without the base set (`basic:1` or `basic:2`) is not supported",
        ));
    }
    if s.basic > 4 {
        return Err(JczError::new(format!(
            "setup.sets: {} copies of the base set; at most 4 are supported",
            s.basic
        )));
    }
    let el = setup
        .get("elements")
        .and_then(Value::as_object)
        .ok_or_else(|| {
            JczError::new("setup.elements is missing (JCloisterZone would play without followers)")
        })?;
    let mut unsupported = Vec::new();
    let mut bcb_parts = Vec::new();
    let mut followers = None;
    for (name, v) in el {
        match name.as_str() {
            // JCloisterZone tests farmers by the key's presence, whatever its value
            "farmers" => s.farmers = true,
            _ if v.is_null() => {}
            "small-follower" => {
                let n = element_count(v)
                    .filter(|n| (1..=30).contains(n))
                    .ok_or_else(|| {
                        JczError::new(format!(
                            "setup.elements.small-follower = {v}: expected 1 to 30 followers"
                        ))
                    })?;
                followers = Some(n as u8);
            }
            "gold" => s.gold = true,
            "corn-circle" => s.crop_action = true,
            "castle" => s.castle = true,
            "bridge" | "bazaar" => bcb_parts.push(name.to_string()),
            // gardens only matter with the Abbot, which meeplab does not play
            "garden" => {}
            other => unsupported.push(other.to_string()),
        }
    }
    if !bcb_parts.is_empty() {
        return Err(JczError::new(format!(
            "setup.elements: {} of Bridges, Castles & Bazaars not supported: meeplab plays only its castles (the `castle` element) on the sets it has; bridges and bazaars are missing",
            bcb_parts.join(", ")
        )));
    }
    if !unsupported.is_empty() {
        return Err(JczError::new(format!(
            "setup.elements: game element(s) not supported: {} (JCloisterZone switches an element on by its presence, whatever its value; meeplab knows small-follower, farmers, gold, corn-circle, garden, castle)",
            unsupported.join(", ")
        )));
    }
    s.followers = followers.ok_or_else(|| {
        JczError::new(
            "setup.elements.small-follower is missing: JCloisterZone would play without small followers, which meeplab does not support",
        )
    })?;
    // elements without their tiles change nothing
    s.gold &= s.goldmines > 0;
    s.crop_action &= s.crop1 + s.crop2 > 0;
    if let Some(rules) = setup.get("rules").and_then(Value::as_object) {
        for (name, v) in rules {
            match (name.as_str(), v.as_str()) {
                ("tiny-city-scoring", Some("2")) => s.tiny_city_2 = true,
                ("tiny-city-scoring", Some("4")) => s.tiny_city_2 = false,
                ("tiny-city-scoring", _) => {
                    return Err(JczError::new(format!(
                        "setup.rules.tiny-city-scoring = {v}: expected \"2\" or \"4\""
                    )))
                }
                (other, _) => warnings.push(format!(
                    "setup.rules.{other} ignored (it tunes an expansion meeplab does not play)"
                )),
            }
        }
    }
    let start = setup.get("start").ok_or_else(|| {
        JczError::new("setup.start is missing (JCloisterZone would start without a start tile)")
    })?;
    let ok = start.as_array().is_some_and(|a| {
        a.len() == 1
            && a[0].get("tile").and_then(Value::as_str) == Some(START_TILE)
            && a[0].get("x").and_then(as_i32) == Some(0)
            && a[0].get("y").and_then(as_i32) == Some(0)
    });
    if !ok {
        return Err(JczError::new(format!(
            "setup.start = {start}: only the standard start (BA/RCr at 0,0, rotation 0) is supported"
        )));
    }
    match start[0].get("rotation") {
        Some(r) if r.as_i64() == Some(0) => {}
        r => {
            return Err(JczError::new(format!(
                "setup.start[0].rotation = {}: JCloisterZone writes the start rotation as an integer (0, 90, 180, 270); meeplab supports 0",
                r.map_or("missing".to_string(), Value::to_string)
            )))
        }
    }
    Ok(s)
}

fn meeple_pointer(
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

fn parse_message(index: usize, m: &Value) -> Result<Message, JczError> {
    let kind = m
        .get("type")
        .and_then(Value::as_str)
        .ok_or_else(|| JczError::at(index, "?", "a message without a `type`"))?;
    let player = match m.get("player") {
        None | Some(Value::Null) => None,
        Some(p) => Some(
            p.as_u64()
                .filter(|&p| (p as usize) < MAX_PLAYERS)
                .ok_or_else(|| JczError::at(index, kind, format!("player = {p}: not a seat")))?
                as u8,
        ),
    };
    let empty = Value::Object(Default::default());
    let payload = m.get("payload").unwrap_or(&empty);
    let bad = |what: String| JczError::at(index, kind, what);
    let msg = match kind {
        "PLACE_TILE" => {
            let tile = payload
                .get("tileId")
                .and_then(Value::as_str)
                .ok_or_else(|| bad("payload.tileId is missing".into()))?
                .to_string();
            let rot = rotation(payload.get("rotation")).ok_or_else(|| {
                bad(format!(
                    "payload.rotation = {}: expected \"R0\", \"R90\", \"R180\" or \"R270\"",
                    payload.get("rotation").unwrap_or(&Value::Null)
                ))
            })?;
            let (x, y) = position(payload.get("position"))
                .ok_or_else(|| bad("payload.position must be [x, y]".into()))?;
            Msg::PlaceTile { tile, rot, x, y }
        }
        "DEPLOY_MEEPLE" => {
            let p = payload
                .get("pointer")
                .ok_or_else(|| bad("payload.pointer is missing".into()))?;
            Msg::Deploy(meeple_pointer(
                p,
                payload.get("meepleId"),
                "payload.pointer",
                &bad,
            )?)
        }
        "RETURN_MEEPLE" => {
            match payload.get("source").and_then(Value::as_str) {
                Some("CORN_CIRCLE") => {}
                src => {
                    return Err(bad(format!(
                        "payload.source = {}: only CORN_CIRCLE returns are supported",
                        src.unwrap_or("missing")
                    )))
                }
            }
            let p = payload
                .get("pointer")
                .ok_or_else(|| bad("payload.pointer is missing".into()))?;
            let fp = p.get("featurePointer").ok_or_else(|| {
                bad("payload.pointer.featurePointer is missing (JCloisterZone writes {featurePointer: {position, feature, location}, meepleId})".into())
            })?;
            Msg::Return(meeple_pointer(
                fp,
                p.get("meepleId"),
                "payload.pointer.featurePointer",
                &bad,
            )?)
        }
        "PLACE_TOKEN" => match payload.get("token").and_then(Value::as_str).unwrap_or("") {
            "GOLD" => {
                let (x, y) = position(payload.get("pointer"))
                    .ok_or_else(|| bad("payload.pointer must be [x, y]".into()))?;
                Msg::Gold { x, y }
            }
            "CASTLE" => {
                let p = payload.get("pointer").ok_or_else(|| {
                    bad("payload.pointer is missing (JCloisterZone writes {position, feature, location} of the city)".into())
                })?;
                let (x, y) = position(p.get("position"))
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
                Msg::Castle(Pointer {
                    x,
                    y,
                    feature: Some(FeatureKind::City),
                    location,
                    meeple: String::new(),
                })
            }
            "BRIDGE" => {
                return Err(bad(
                    "payload.token = `BRIDGE`: bridges (Bridges, Castles & Bazaars) are not supported; meeplab plays only its castles".into(),
                ))
            }
            token => {
                return Err(bad(format!(
                    "payload.token = `{token}` is not supported (GOLD, CASTLE)"
                )))
            }
        },
        "CIRCLE_REMOVE_OR_DEPLOY" => match payload.get("value").and_then(Value::as_str) {
            Some("DEPLOY") => Msg::CropChoice { deploy: true },
            Some("REMOVE") => Msg::CropChoice { deploy: false },
            _ => return Err(bad("payload.value must be DEPLOY or REMOVE".into())),
        },
        "PASS" => Msg::Pass,
        "COMMIT" => Msg::Commit,
        "BAZAAR_BID" | "BAZAAR_BUY_OR_SELL" => {
            return Err(bad(
                "bazaars (Bridges, Castles & Bazaars) are not supported; meeplab plays only its castles".into(),
            ))
        }
        other => {
            return Err(JczError::at(
                index,
                other,
                "this message type is not supported (meeplab reads PLACE_TILE, PLACE_TOKEN GOLD \
                 and CASTLE, DEPLOY_MEEPLE, CIRCLE_REMOVE_OR_DEPLOY, RETURN_MEEPLE, PASS, COMMIT)",
            ))
        }
    };
    let random = match payload.get("random") {
        None | Some(Value::Null) => None,
        Some(r) if matches!(msg, Msg::Commit | Msg::Deploy(_)) => Some(
            r.as_f64()
                .filter(|r| (0.0..1.0).contains(r))
                .ok_or_else(|| bad(format!("payload.random = {r}: expected a number in [0, 1)")))?,
        ),
        Some(_) => None,
    };
    Ok(Message {
        index,
        player,
        msg,
        random,
    })
}

/// Parse a save (already decoded JSON).
pub fn parse(v: &Value) -> Result<JczGame, JczError> {
    let mut warnings = Vec::new();
    let app_version = v
        .get("appVersion")
        .and_then(Value::as_str)
        .ok_or_else(|| {
            JczError::new("no `appVersion`: cannot tell the JCloisterZone version (5.7.0 or later is supported)")
        })?
        .to_string();
    match parse_version(&app_version) {
        Some(ver) if ver >= MIN_VERSION => {}
        _ => {
            return Err(JczError::new(format!(
                "saves of JCloisterZone {app_version} are not supported (5.7.0 or later)"
            )))
        }
    }
    let setup = v
        .get("setup")
        .ok_or_else(|| JczError::new("no `setup` section"))?;
    let setup = parse_setup(setup, &mut warnings)?;
    let players: Vec<String> = v
        .get("players")
        .and_then(Value::as_array)
        .ok_or_else(|| JczError::new("no `players` list"))?
        .iter()
        .enumerate()
        .map(|(i, p)| {
            p.get("name")
                .or_else(|| p.get("nickname"))
                .and_then(Value::as_str)
                .map(str::to_string)
                .unwrap_or_else(|| crate::render::seat_name(i as u8).to_string())
        })
        .collect();
    if players.is_empty() || players.len() > MAX_PLAYERS {
        return Err(JczError::new(format!(
            "{} players: 1 to {MAX_PLAYERS} are supported",
            players.len()
        )));
    }
    let initial_random = match v.get("initialRandom") {
        None | Some(Value::Null) => None,
        Some(r) => Some(
            r.as_f64()
                .filter(|r| (0.0..1.0).contains(r))
                .ok_or_else(|| {
                    JczError::new(format!("initialRandom = {r}: expected a number in [0, 1)"))
                })?,
        ),
    };
    let replay = v
        .get("replay")
        .and_then(Value::as_array)
        .ok_or_else(|| JczError::new("`replay` must be a list of messages"))?;
    let messages = replay
        .iter()
        .enumerate()
        .map(|(i, m)| parse_message(i, m))
        .collect::<Result<Vec<_>, _>>()?;
    let mut draw_order = Vec::new();
    let mut draw_order_ends = false;
    let mut draw_limit = None;
    let annotations = v
        .get("gameAnnotations")
        .or_else(|| v.get("setup").and_then(|s| s.get("gameAnnotations")));
    if let Some(a) = annotations {
        let params = a.get("tilePack").and_then(|t| t.get("params"));
        let (order, field) = match a.get("drawOrder") {
            Some(o) => (Some(o), "gameAnnotations.drawOrder"),
            None => (
                params.and_then(|p| p.get("drawOrder")),
                "gameAnnotations.tilePack.params.drawOrder",
            ),
        };
        if let Some(order) = order {
            let list = order
                .as_array()
                .ok_or_else(|| JczError::new(format!("{field} must be a list of tile ids")))?;
            for (i, t) in list.iter().enumerate() {
                let id = t.as_str().ok_or_else(|| {
                    JczError::new(format!("{field}[{i}] = {t}: expected a tile id"))
                })?;
                if id == "#END" {
                    if i + 1 != list.len() {
                        return Err(JczError::new(format!(
                            "{field}[{i}] = \"#END\" before the end of the list (JCloisterZone ends the pack only with a final #END)"
                        )));
                    }
                    draw_order_ends = true;
                } else {
                    draw_order.push(id.to_string());
                }
            }
        }
        let (limit, field) = match a.get("endTurn") {
            Some(e) => (Some(e), "gameAnnotations.endTurn"),
            None => (
                params.and_then(|p| p.get("drawLimit")),
                "gameAnnotations.tilePack.params.drawLimit",
            ),
        };
        if let Some(e) = limit.filter(|e| !e.is_null()) {
            let n = element_count(e)
                .filter(|&n| (0..=10_000).contains(&n))
                .ok_or_else(|| {
                    JczError::new(format!("{field} = {e}: expected a number of draws"))
                })?;
            draw_limit = Some(n as u32);
        }
    }
    let test = match v.get("test") {
        None | Some(Value::Null) => None,
        Some(t) => {
            let assertions = match t.get("assertions") {
                None => Vec::new(),
                Some(a) => a
                    .as_array()
                    .ok_or_else(|| JczError::new("test.assertions must be a list of strings"))?
                    .iter()
                    .map(|s| {
                        s.as_str().map(str::to_string).ok_or_else(|| {
                            JczError::new("test.assertions must be a list of strings")
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?,
            };
            Some(TestSpec {
                description: t
                    .get("description")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                assertions,
            })
        }
    };
    Ok(JczGame {
        app_version,
        setup,
        players,
        messages,
        initial_random,
        draw_order,
        draw_order_ends,
        draw_limit,
        test,
        warnings,
    })
}

fn quoted(p: &Path) -> String {
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

/// A short name of the sets and options, e.g. `basic:1 + goldmines, 2-pt small city`.
pub fn setup_label(s: &Setup) -> String {
    let sets: Vec<String> = s
        .sets
        .iter()
        .map(|(name, n)| format!("{name}{}", times(*n)))
        .collect();
    let mut label = sets.join(" + ");
    if s.castle {
        label.push_str(" + castles");
    }
    if !s.farmers {
        label.push_str(", no farmers");
    }
    if s.goldmines > 0 && !s.gold {
        label.push_str(", no gold");
    }
    if s.crop1 + s.crop2 > 0 && !s.crop_action {
        label.push_str(", no crop-circle action");
    }
    if s.tiny_city_2 {
        label.push_str(", 2-pt small city");
    }
    if s.followers != 7 {
        label.push_str(&format!(", {} followers", s.followers));
    }
    label
}

fn times(n: u32) -> String {
    if n == 1 {
        String::new()
    } else {
        format!(" x{n}")
    }
}

/// The tiles of a bundled tile file as rule-language text without their gold and crop
/// symbols: plain tiles of the same layout, under the same names and tile set name.
fn plain_tiles(dir: &Path, file: &str, set: &str) -> Result<String, String> {
    let probe = format!(
        "ruleset \"probe\"\nextends {}\ninclude {}\ndeck += {{ {set} x1 }}\n",
        quoted(&dir.join("base.rules")),
        quoted(&dir.join(file))
    );
    let loaded = crate::dsl::load_ruleset_str("<jcz tiles>", &probe).map_err(|d| {
        format!(
            "the bundled tiles {file} do not load (bundled rulesets in {}):\n{d}",
            dir.display()
        )
    })?;
    let base = crate::dsl::load_ruleset_str(
        "<jcz base>",
        &format!(
            "ruleset \"probe\"\nextends {}\n",
            quoted(&dir.join("base.rules"))
        ),
    )
    .map_err(|d| format!("base.rules does not load:\n{d}"))?;
    let mut out = String::new();
    let mut names = Vec::new();
    for t in &loaded.ruleset.tiles {
        if base.ruleset.tile_index(&t.id).is_some() {
            continue;
        }
        let mut plain = t.clone();
        plain.gold = false;
        plain.crop = None;
        crate::dsl::print::tile(&mut out, &plain);
        let n = loaded
            .ruleset
            .deck
            .iter()
            .find(|d| loaded.ruleset.tiles[d.tile as usize].id == t.id)
            .map_or(1, |d| d.count);
        names.push(format!("{} x{n}", crate::dsl::print::name(&t.id)));
    }
    out.push_str(&format!("tileset {set} {{\n  {}\n}}\n", names.join(", ")));
    Ok(out)
}

/// The rule-language text of the ruleset a save was played under (see the module docs);
/// `dir` is the folder of the bundled rulesets.
pub fn ruleset_text(s: &Setup, dir: &Path) -> Result<String, String> {
    let parent = if s.gold {
        "goldmines-autopick.rules"
    } else if s.crop_action {
        "cropcircles.rules"
    } else if s.castle {
        "castles.rules"
    } else {
        "base.rules"
    };
    let mut t = String::new();
    t.push_str("# Generated by meeplab from a JCloisterZone save.\n");
    t.push_str(&format!(
        "ruleset \"JCloisterZone: {}\"\n",
        setup_label(s).replace('"', "'")
    ));
    t.push_str(&format!("extends {}\n", quoted(&dir.join(parent))));
    if s.castle && parent != "castles.rules" {
        // castles on top of another bundled ruleset: JCloisterZone's castle rules (3 tokens,
        // 2 with 5-6 players; city + 1 to farmers; a scoring castle claims its vicinity's gold)
        t.push_str("castles source \"JCloisterZone castle element\" {\n");
        t.push_str("  supply = 3\n  supply_5_6 = 2\n  farm_bonus = 1\n");
        if s.gold {
            t.push_str("  gold = vicinity\n");
        }
        t.push_str("}\n");
    }
    let mut deck = vec![format!("base x{}", s.basic)];
    for (n, file, set, symbol_on) in [
        (
            s.goldmines,
            "tiles/goldmines-c1.tiles",
            "goldmines-c1",
            s.gold,
        ),
        (
            s.crop1,
            "tiles/crop-circles-1.tiles",
            "crop-circles-1",
            s.crop_action,
        ),
        (
            s.crop2,
            "tiles/crop-circles-2.tiles",
            "crop-circles-2",
            s.crop_action,
        ),
    ] {
        if n == 0 {
            continue;
        }
        if symbol_on {
            t.push_str(&format!("include {}\n", quoted(&dir.join(file))));
        } else {
            t.push_str(&format!(
                "# {set} without its symbol: the JCloisterZone element is absent\n"
            ));
            t.push_str(&plain_tiles(dir, file, set)?);
        }
        deck.push(format!("{set} x{n}"));
    }
    t.push_str(&format!("deck {{ {} }}\n", deck.join(", ")));
    t.push_str("players = 1..6  source \"JCloisterZone\"\n");
    t.push_str(&format!(
        "followers = {}  source \"JCloisterZone setup\"\n",
        s.followers
    ));
    if !s.farmers {
        t.push_str("farms = off  source \"JCloisterZone setup: no farmers element\"\n");
    }
    if s.tiny_city_2 {
        t.push_str(
            "score.city.small = tiles + pennants  source \"JCloisterZone rule tiny-city-scoring 2\"\n",
        );
    }
    Ok(t)
}

/// Load the mapped ruleset through the rule language.
pub fn load_ruleset(s: &Setup, dir: &Path) -> Result<Ruleset, String> {
    let text = ruleset_text(s, dir)?;
    match crate::dsl::load_ruleset_str("<jcz setup>", &text) {
        Ok(l) => Ok(l.ruleset),
        Err(d) => Err(format!(
            "the mapped ruleset does not load (bundled rulesets in {}):\n{d}",
            dir.display()
        )),
    }
}

/// The rotation the engine uses for a tile turned `q`: the smallest turn with the same
/// geometry (symmetric tiles list each distinct rotation once).
pub fn canonical_rot(t: &TileType, q: u8) -> u8 {
    t.canonical_rotation(q)
}

/// What a JCZ location names, in board orientation.
enum Loc {
    Inner,
    Sides(u8),
    Halves(u8),
}

fn parse_location(loc: &str) -> Option<Loc> {
    if loc == "I" {
        return Some(Loc::Inner);
    }
    if loc.contains('.') || HalfEdge::parse(loc).is_some() {
        let mut m = 0u8;
        for part in loc.split('.') {
            m |= HalfEdge::parse(part)?.bit();
        }
        return Some(Loc::Halves(m));
    }
    if let Some(rest) = loc.strip_prefix('_') {
        let s = Side::parse(rest)?;
        return Some(Loc::Sides(0xF & !s.bit()));
    }
    if loc.is_empty() {
        return None;
    }
    let mut m = 0u8;
    for c in loc.chars() {
        let s = Side::parse(&c.to_string())?;
        m |= s.bit();
    }
    Some(Loc::Sides(m))
}

/// The segment of tile `t` (placed turned `rot`) a JCZ `location` in board orientation
/// names, checked against `feature` when given.
pub fn segment_for(
    t: &TileType,
    rot: u8,
    feature: Option<FeatureKind>,
    location: &str,
) -> Result<u8, String> {
    let loc = parse_location(location).ok_or_else(|| {
        format!(
            "location `{location}` is not a JCZ location meeplab supports (edges, half-edges or I)"
        )
    })?;
    let back = (4 - (rot & 3)) & 3;
    let find = |pred: &dyn Fn(&crate::tiles::TileFeature) -> bool| {
        t.features.iter().position(pred).map(|i| i as u8)
    };
    let found = match loc {
        Loc::Inner => {
            if feature.is_some_and(|f| f != FeatureKind::Cloister) {
                None
            } else {
                find(&|f| f.kind == FeatureKind::Cloister)
            }
        }
        Loc::Halves(m) => {
            let local = rotate_half_mask(m, back);
            if feature.is_some_and(|f| f != FeatureKind::Field) {
                None
            } else {
                find(&|f| f.kind == FeatureKind::Field && f.halves == local).or_else(|| {
                    let hits: Vec<u8> = t
                        .features
                        .iter()
                        .enumerate()
                        .filter(|(_, f)| f.kind == FeatureKind::Field && f.halves & local != 0)
                        .map(|(i, _)| i as u8)
                        .collect();
                    (hits.len() == 1).then(|| hits[0])
                })
            }
        }
        Loc::Sides(m) => {
            let local = rotate_side_mask(m, back);
            let kinds: &[FeatureKind] = match feature {
                Some(FeatureKind::City) => &[FeatureKind::City],
                Some(FeatureKind::Road) => &[FeatureKind::Road],
                Some(_) => &[],
                None => &[FeatureKind::City, FeatureKind::Road],
            };
            kinds
                .iter()
                .find_map(|&k| find(&|f| f.kind == k && f.sides == local))
        }
    };
    found.ok_or_else(|| {
        format!(
            "{} has no {} at `{location}` (turned {}°)",
            t.id,
            feature.map_or("feature", |f| f.name()),
            rot as u32 * 90
        )
    })
}

/// One placed tile of the translated record.
#[derive(Clone, Debug, PartialEq)]
pub struct Draw {
    /// meeplab tile id (the JCZ id, garden tiles read as their plain twins).
    pub id: String,
    /// The JCloisterZone id as the save writes it.
    pub jcz_id: String,
    pub tile: TileIdx,
    pub player: u8,
    /// Index of its `PLACE_TILE` message.
    pub message: usize,
    pub x: i32,
    pub y: i32,
    /// Normalised rotation.
    pub rot: u8,
    /// The `random` the last random-changing message before this draw set (JCZ draws this
    /// tile with it, after the previous turn's last message).
    pub random_before: Option<f64>,
}

/// A save in engine terms.
#[derive(Clone, Debug, PartialEq)]
pub struct Translated {
    pub draws: Vec<Draw>,
    pub decisions: Vec<TakenDecision>,
    /// `replay[]` index of each decision.
    pub origins: Vec<usize>,
    /// How JCloisterZone drew the pack (see [`crate::import::draws`]).
    pub plan: DrawPlan,
    /// The `random` set after the last `PLACE_TILE` (the draw after the last turn uses it).
    pub random_after: Option<f64>,
    /// The save ends inside a turn: the index of the last message, and what is missing.
    pub open_turn: Option<(usize, String)>,
    /// Tiles of the sets never placed (meeplab tile indices, one entry per copy), for
    /// deciding the end of the game from the pack's contents when the draws cannot be
    /// reproduced.
    pub left_in_pack: Vec<TileIdx>,
    /// The players' names, in seat order.
    pub names: Vec<String>,
    /// The castles built (`PLACE_TOKEN CASTLE`), in message order. They are not among
    /// `decisions`: the engine asks one `CASTLE_BUILD` per small city it offers, and which
    /// city an offer is only the replay knows (see [`crate::import::replay`]).
    pub castles: Vec<CastleMark>,
    /// The castle step's `PASS`es: (recorded turn, message index).
    pub castle_passes: Vec<(u32, usize)>,
}

/// A castle a save builds: the city's segment on the tile just placed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CastleMark {
    /// The recorded turn (1-based, as `TakenDecision::turn`).
    pub turn: u32,
    pub player: u8,
    /// Index of its `PLACE_TOKEN` message.
    pub message: usize,
    pub x: i32,
    pub y: i32,
    pub segment: u8,
    /// The location as the save writes it (for messages).
    pub location: String,
}

impl Translated {
    /// The `replay[]` index of a recorded decision.
    pub fn origin_of(&self, d: &TakenDecision) -> Option<usize> {
        self.decisions
            .iter()
            .position(|x| x == d)
            .map(|i| self.origins[i])
    }
}

/// Where a turn is in JCloisterZone's message order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// After `PLACE_TILE`, before the turn's `COMMIT`.
    Main,
    /// After the turn's `COMMIT`.
    Committed,
    /// In the crop-circle step; `pending`: a player who deployed or returned a follower and
    /// owes a `COMMIT`; `acted`: the players who had their go.
    Crop {
        deploy: bool,
        pending: Option<u8>,
        acted: u8,
    },
}

/// The player of a crop-circle `PASS` written without `player`: the seat JCloisterZone asked
/// then, which only the replay knows (it takes the pass for the next player the rules ask
/// who has no recorded crop-circle action).
pub const ANY_PLAYER: u8 = u8::MAX;

/// The seat a `meepleId` (`P.small.N`) belongs to.
fn meeple_owner(id: &str) -> Option<u8> {
    id.split('.').next()?.parse().ok()
}

/// A `meepleId` must be one of the sender's small followers, `P.small.N` with N from 1.
fn check_meeple(id: &str, player: u8, followers: u8) -> Result<(), String> {
    let mut parts = id.split('.');
    let (Some(p), Some(kind), Some(n), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(format!(
            "payload meepleId `{id}` is not a JCloisterZone meeple id (`P.small.N`)"
        ));
    };
    if kind != "small" {
        return Err(format!(
            "meeple `{id}` is not a small follower; other figures are not supported"
        ));
    }
    if p.parse::<u8>().ok() != Some(player) {
        return Err(format!(
            "meeple `{id}` belongs to seat {p}, but player {player} sends the message"
        ));
    }
    match n.parse::<u8>() {
        Ok(n) if (1..=followers).contains(&n) => Ok(()),
        _ => Err(format!(
            "meeple `{id}`: JCloisterZone numbers a player's {followers} small followers from 1 to {followers}"
        )),
    }
}

/// Translate the message log into placed tiles and decisions under `rules` (the mapped
/// ruleset), checking JCloisterZone's message order.
pub fn translate(g: &JczGame, rules: &Ruleset) -> Result<Translated, JczError> {
    let n = g.players.len() as u32;
    let mut board: HashMap<(i32, i32), (TileIdx, u8)> = HashMap::new();
    board.insert((0, 0), (rules.start, 0));
    let mut left: HashMap<TileIdx, i64> = rules
        .deck
        .iter()
        .map(|d| (d.tile, d.count as i64))
        .collect();
    if let Some(c) = left.get_mut(&rules.start) {
        *c -= 1;
    }
    let pack = draws::build_pack(&g.setup.sets, START_TILE).map_err(JczError::new)?;
    let mut out = Translated {
        draws: Vec::new(),
        decisions: Vec::new(),
        origins: Vec::new(),
        plan: DrawPlan {
            pack,
            forced: g.draw_order.clone(),
            end_marker: g.draw_order_ends,
            limit: g.draw_limit,
            initial_random: g.initial_random,
        },
        random_after: None,
        open_turn: None,
        left_in_pack: Vec::new(),
        names: g.players.clone(),
        castles: Vec::new(),
        castle_passes: Vec::new(),
    };
    let mut turn = 0u32;
    let mut active = 0u8;
    let mut placed_at = (0, 0);
    let mut step = Step::Committed;
    let mut followed = false;
    // the castle step (after the follower action, before COMMIT): the players who built a
    // castle this turn, and whether it began (a castle built or declined)
    let mut castled = 0u8;
    const PASSED: u8 = 0x80;
    let mut castle_step = false;
    let mut random: Option<f64> = None;
    let push = |out: &mut Translated, idx: usize, d: TakenDecision| {
        out.decisions.push(d);
        out.origins.push(idx);
    };
    for m in &g.messages {
        let name = m.msg.name();
        let err = |t: String| JczError::at(m.index, name, t);
        if turn == 0 && !matches!(m.msg, Msg::PlaceTile { .. }) {
            return Err(err("comes before the first PLACE_TILE".into()));
        }
        if let Some(p) = m.player {
            if p as u32 >= n {
                return Err(err(format!("player {p} does not exist ({n} players)")));
            }
        }
        let player_name = |p: u8| g.players[p as usize].clone();
        let segment_at = |p: &Pointer| -> Result<(i32, i32, u8), JczError> {
            let (t, r) = *board
                .get(&(p.x, p.y))
                .ok_or_else(|| err(format!("payload pointer: no tile at ({},{})", p.x, p.y)))?;
            let seg = segment_for(&rules.tiles[t as usize], r, p.feature, &p.location)
                .map_err(|e| err(format!("payload pointer: {e}")))?;
            Ok((p.x, p.y, seg))
        };
        // the sender: `player` when written, else the owner of the meeple moved
        let from = match &m.msg {
            Msg::Deploy(p) | Msg::Return(p) => m.player.or_else(|| meeple_owner(&p.meeple)),
            _ => m.player,
        };
        if let Msg::Deploy(p) | Msg::Return(p) = &m.msg {
            let who = from.ok_or_else(|| {
                err(format!(
                    "payload meepleId `{}` is not a JCloisterZone meeple id (`P.small.N`)",
                    p.meeple
                ))
            })?;
            check_meeple(&p.meeple, who, g.setup.followers).map_err(err)?;
        }
        match (&m.msg, step) {
            (Msg::PlaceTile { tile, rot, x, y }, _) => {
                match step {
                    Step::Main if turn > 0 => {
                        return Err(err(format!(
                            "turn {turn} has no COMMIT before the next PLACE_TILE"
                        )))
                    }
                    Step::Crop {
                        pending: Some(p), ..
                    } => {
                        return Err(err(format!(
                            "{} acted in the crop-circle step but sent no COMMIT",
                            player_name(p)
                        )))
                    }
                    _ => {}
                }
                let id = plain_twin(tile);
                let t = rules.tile_by_jcz(id).ok_or_else(|| {
                    if tile.starts_with("BB/") {
                        err(format!(
                            "`{tile}` is a tile of Bridges, Castles & Bazaars, which meeplab does not have (only its castles)"
                        ))
                    } else {
                        err(format!(
                            "unknown tile id `{tile}` (not in the tile sets of this game)"
                        ))
                    }
                })?;
                let c = left.entry(t).or_insert(0);
                if *c <= 0 {
                    return Err(err(format!(
                        "one `{tile}` more than the tile sets of this game hold"
                    )));
                }
                *c -= 1;
                let expected = (turn % n) as u8;
                let player = m.player.unwrap_or(expected);
                if player != expected {
                    return Err(err(format!(
                        "wrong player order: {} places the tile of turn {}, but it is {}'s turn",
                        player_name(player),
                        turn + 1,
                        player_name(expected)
                    )));
                }
                turn += 1;
                active = player;
                step = Step::Main;
                followed = false;
                castled = 0;
                castle_step = false;
                if board.contains_key(&(*x, *y)) {
                    return Err(err(format!(
                        "illegal placement: ({x},{y}) already holds a tile"
                    )));
                }
                let r = canonical_rot(&rules.tiles[t as usize], *rot);
                board.insert((*x, *y), (t, r));
                placed_at = (*x, *y);
                out.draws.push(Draw {
                    id: rules.tiles[t as usize].id.clone(),
                    jcz_id: tile.clone(),
                    tile: t,
                    player,
                    message: m.index,
                    x: *x,
                    y: *y,
                    rot: r,
                    random_before: random.take(),
                });
                push(
                    &mut out,
                    m.index,
                    TakenDecision {
                        turn,
                        player,
                        kind: DecisionKind::PLACEMENT,
                        choice: Choice::Place {
                            x: *x,
                            y: *y,
                            rot: r,
                        },
                    },
                );
            }
            (Msg::Commit, Step::Main) => {
                check_active(from, active, &player_name, &err)?;
                step = Step::Committed;
            }
            (Msg::Gold { x, y }, Step::Main) => {
                if followed || castle_step {
                    return Err(err("an ingot after the follower action".into()));
                }
                check_active(from, active, &player_name, &err)?;
                push(
                    &mut out,
                    m.index,
                    TakenDecision {
                        turn,
                        player: active,
                        kind: crate::engine::expansions::gold::INGOT_PLACE,
                        choice: Choice::Ingot { x: *x, y: *y },
                    },
                );
            }
            (Msg::Pass, Step::Main) if g.setup.castle && (followed || castle_step) => {
                // JCloisterZone's castle step: a PASS declines the castle offered and ends
                // the step (nobody after is asked); nothing to record, the replay answers
                // the offers the save does not build with "no"
                if castled & PASSED != 0 {
                    return Err(err("a second PASS in the castle step".into()));
                }
                castle_step = true;
                castled |= PASSED;
                out.castle_passes.push((turn, m.index));
            }
            (Msg::Castle(p), Step::Main) => {
                if !g.setup.castle {
                    return Err(err(
                        "a castle, but the save's setup.elements has no `castle`".into(),
                    ));
                }
                if castled & PASSED != 0 {
                    return Err(err("a castle after the castle step's PASS".into()));
                }
                let who = from.unwrap_or(active);
                if castled & (1 << who) != 0 {
                    return Err(err(format!(
                        "{} builds a second castle in one turn (JCloisterZone offers a player one castle a turn)",
                        player_name(who)
                    )));
                }
                if (p.x, p.y) != placed_at {
                    return Err(err(format!(
                        "an impossible castle: the city at ({},{}) is not on the tile just placed at ({},{})",
                        p.x, p.y, placed_at.0, placed_at.1
                    )));
                }
                let (_, _, segment) = segment_at(p)?;
                small_city_at(&board, rules, placed_at, segment).map_err(|why| {
                    err(format!(
                        "an impossible castle on the city `{}` of ({},{}): {why}",
                        p.location, p.x, p.y
                    ))
                })?;
                castled |= 1 << who;
                castle_step = true;
                out.castles.push(CastleMark {
                    turn,
                    player: who,
                    message: m.index,
                    x: p.x,
                    y: p.y,
                    segment,
                    location: p.location.clone(),
                });
            }
            (Msg::Pass | Msg::Deploy(_), Step::Main) => {
                check_active(from, active, &player_name, &err)?;
                if castle_step {
                    return Err(err("a follower action after the castle step".into()));
                }
                if followed {
                    return Err(err("a second follower action in one turn".into()));
                }
                followed = true;
                let segment = match &m.msg {
                    Msg::Deploy(p) => {
                        if (p.x, p.y) != placed_at {
                            return Err(err(format!(
                                "a follower on ({},{}), not on the tile just placed at ({},{})",
                                p.x, p.y, placed_at.0, placed_at.1
                            )));
                        }
                        Some(segment_at(p)?.2)
                    }
                    _ => None,
                };
                push(
                    &mut out,
                    m.index,
                    TakenDecision {
                        turn,
                        player: active,
                        kind: DecisionKind::FOLLOWER,
                        choice: Choice::Follower { segment },
                    },
                );
            }
            (Msg::CropChoice { .. }, Step::Main) => {
                return Err(err(
                    "comes before the turn's COMMIT: JCloisterZone commits the turn first, then runs the crop-circle step".into(),
                ))
            }
            (Msg::Return(_), Step::Main) => {
                return Err(err(
                    "returning a follower outside a crop-circle removal is not supported".into(),
                ))
            }
            (Msg::CropChoice { deploy }, Step::Committed) => {
                check_active(from, active, &player_name, &err)?;
                step = Step::Crop {
                    deploy: *deploy,
                    pending: None,
                    acted: 0,
                };
                push(
                    &mut out,
                    m.index,
                    TakenDecision {
                        turn,
                        player: active,
                        kind: crate::engine::expansions::crop::CROP_MODE,
                        choice: Choice::CropMode { deploy: *deploy },
                    },
                );
            }
            (_, Step::Committed) => {
                return Err(err(
                    "comes after the turn's COMMIT and before the next PLACE_TILE".into(),
                ))
            }
            (
                Msg::Commit,
                Step::Crop {
                    deploy,
                    pending,
                    acted,
                },
            ) => {
                let who = from.or(pending).ok_or_else(|| {
                    err("a COMMIT without a crop-circle follower action to confirm".into())
                })?;
                if pending != Some(who) {
                    return Err(err(format!(
                        "{} commits without a crop-circle follower action to confirm",
                        player_name(who)
                    )));
                }
                step = Step::Crop {
                    deploy,
                    pending: None,
                    acted,
                };
            }
            (_, Step::Crop { pending: Some(p), .. }) => {
                return Err(err(format!(
                    "{} acted in the crop-circle step and must COMMIT first",
                    player_name(p)
                )))
            }
            (Msg::CropChoice { .. }, Step::Crop { .. }) => {
                return Err(err("a second crop-circle choice in one turn".into()))
            }
            (Msg::Gold { .. }, Step::Crop { .. }) => {
                return Err(err("an ingot during the crop-circle step".into()))
            }
            (Msg::Castle(_), Step::Crop { .. }) => {
                return Err(err(
                    "a castle during the crop-circle step (JCloisterZone builds castles before the turn's COMMIT)".into(),
                ))
            }
            (
                Msg::Pass | Msg::Deploy(_) | Msg::Return(_),
                Step::Crop {
                    deploy,
                    pending: None,
                    acted,
                },
            ) => {
                // a PASS without `player`: whoever JCloisterZone asked next (see
                // `ANY_PLAYER`); actions with a follower name their owner
                let who = from.unwrap_or(ANY_PLAYER);
                if who != ANY_PLAYER && acted & (1 << who) != 0 {
                    return Err(err(format!(
                        "{} acts twice in one crop-circle step",
                        player_name(who)
                    )));
                }
                let (kind, at, owes_commit) = match &m.msg {
                    Msg::Pass if deploy => (crate::engine::expansions::crop::CROP_DEPLOY, None, false),
                    Msg::Deploy(p) if deploy => {
                        (crate::engine::expansions::crop::CROP_DEPLOY, Some(segment_at(p)?), true)
                    }
                    Msg::Return(p) if !deploy => {
                        (crate::engine::expansions::crop::CROP_REMOVE, Some(segment_at(p)?), true)
                    }
                    _ => {
                        return Err(err(format!(
                            "not allowed after CIRCLE_REMOVE_OR_DEPLOY {}",
                            if deploy { "DEPLOY" } else { "REMOVE" }
                        )))
                    }
                };
                step = Step::Crop {
                    deploy,
                    pending: owes_commit.then_some(who),
                    acted: if who == ANY_PLAYER {
                        acted
                    } else {
                        acted | (1 << who)
                    },
                };
                push(
                    &mut out,
                    m.index,
                    TakenDecision {
                        turn,
                        player: who,
                        kind,
                        choice: Choice::Spot { at },
                    },
                );
            }
        }
        if let Some(r) = m.random {
            random = Some(r);
        }
    }
    out.random_after = random;
    if let Some(last) = g.messages.last() {
        match step {
            Step::Main => {
                out.open_turn = Some((
                    last.index,
                    format!("turn {turn} has no COMMIT (the save stops inside the turn)"),
                ))
            }
            Step::Crop {
                pending: Some(p), ..
            } => {
                out.open_turn = Some((
                    last.index,
                    format!(
                        "{} acted in the crop-circle step of turn {turn} and sent no COMMIT",
                        g.players[p as usize]
                    ),
                ))
            }
            _ => {}
        }
    }
    let mut left: Vec<(TileIdx, i64)> = left.into_iter().filter(|&(_, c)| c > 0).collect();
    left.sort_unstable();
    out.left_in_pack = left
        .into_iter()
        .flat_map(|(t, c)| std::iter::repeat_n(t, c as usize))
        .collect();
    Ok(out)
}

fn check_active(
    from: Option<u8>,
    active: u8,
    name: &dyn Fn(u8) -> String,
    err: &dyn Fn(String) -> JczError,
) -> Result<(), JczError> {
    match from {
        Some(p) if p != active => Err(err(format!(
            "wrong player: {} acts in {}'s turn",
            name(p),
            name(active)
        ))),
        _ => Ok(()),
    }
}

/// Whether segment `seg` of the tile at `at` and its neighbour make a completed small city:
/// a single-edge city cap facing a single-edge city cap (what JCloisterZone offers as a
/// castle: a city of two places, each a castle base). Only the tiles are checked; the follower
/// and the token are the replay's business.
fn small_city_at(
    board: &HashMap<(i32, i32), (TileIdx, u8)>,
    rules: &Ruleset,
    at: (i32, i32),
    seg: u8,
) -> Result<(), String> {
    let cap = |pos: (i32, i32), seg: usize| -> Option<Side> {
        let &(t, r) = board.get(&pos)?;
        let f = rules.tiles[t as usize].features.get(seg)?;
        if f.kind != FeatureKind::City || f.sides.count_ones() != 1 {
            return None;
        }
        let side = rotate_side_mask(f.sides, r);
        Side::ALL.into_iter().find(|s| s.bit() == side)
    };
    let side = cap(at, seg as usize)
        .ok_or("it is not a single-edge city cap (a small city is two of them)")?;
    let (dx, dy) = side.offset();
    let there = (at.0 + dx, at.1 + dy);
    let Some(&(t, _)) = board.get(&there) else {
        return Err(format!(
            "the city is not completed (no tile at ({},{}))",
            there.0, there.1
        ));
    };
    let facing =
        (0..rules.tiles[t as usize].features.len()).any(|k| cap(there, k) == Some(side.opposite()));
    if !facing {
        return Err(format!(
            "the city goes on beyond ({},{}): not a small city of two caps",
            there.0, there.1
        ));
    }
    Ok(())
}

/// The plain twin of a C2 base tile printed with a garden (`basic:2`): the same layout, and
/// gardens only matter with the Abbot, which meeplab does not play. Other ids are unchanged.
pub fn plain_twin(id: &str) -> &str {
    match id {
        "BA/CcG" => "BA/Cc.1",
        "BA/Cc+G" => "BA/Cc+",
        "BA/CccG" => "BA/Ccc",
        "BA/CG" => "BA/C",
        "BA/CFCG" => "BA/CFC.2",
        "BA/CCG" => "BA/CC.2",
        "BA/RrG" => "BA/Rr",
        "BA/RFrG" => "BA/RFr",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn setup(elements: Value) -> Result<Setup, JczError> {
        let v = json!({
            "sets": {"basic:1": 1, "goldmines": 1, "corn-circles/2": 1},
            "elements": elements,
            "rules": {},
            "start": [{"tile": "BA/RCr", "x": 0, "y": 0, "rotation": 0}],
        });
        parse_setup(&v, &mut Vec::new())
    }

    #[test]
    fn elements_are_on_by_their_presence() {
        let s = setup(json!({"small-follower": 7})).unwrap();
        assert!(!s.farmers && !s.gold && !s.crop_action);
        let s = setup(json!({"small-follower": 7, "farmers": false, "gold": true})).unwrap();
        assert!(s.farmers && s.gold && !s.crop_action);
        let s = setup(json!({"small-follower": "5.0", "corn-circle": 1, "gold": null})).unwrap();
        assert_eq!(s.followers, 5);
        assert!(s.crop_action && !s.gold);
        assert!(setup(json!({"small-follower": 7, "abbot": false})).is_err());
        assert!(setup(json!({"farmers": true})).is_err());
        assert!(setup(json!({"small-follower": 0})).is_err());
        assert_eq!(
            ruleset_label_of(json!({"small-follower": 7})),
            "basic:1 + corn-circles/2 + goldmines, no farmers, no gold, no crop-circle action"
        );
    }

    fn ruleset_label_of(elements: Value) -> String {
        setup_label(&setup(elements).unwrap())
    }

    #[test]
    fn the_castle_element_maps_onto_each_parent() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
        // castles alone: the bundled castles ruleset
        let s = Setup {
            sets: vec![("basic:1".into(), 1)],
            basic: 1,
            followers: 7,
            farmers: true,
            castle: true,
            ..Setup::default()
        };
        let t = ruleset_text(&s, &dir).unwrap();
        assert!(t.contains("castles.rules"), "{t}");
        assert!(!t.contains("castles source"), "{t}");
        assert_eq!(setup_label(&s), "basic:1 + castles");
        let r = load_ruleset(&s, &dir).unwrap();
        assert_eq!(r.ext_int("castles.supply"), Some(3));
        // with gold: JCZ's autopick gold, and castles claiming their vicinity's gold
        let gold = Setup {
            sets: vec![("basic:1".into(), 1), ("goldmines".into(), 1)],
            goldmines: 1,
            gold: true,
            ..s.clone()
        };
        let t = ruleset_text(&gold, &dir).unwrap();
        assert!(t.contains("goldmines-autopick.rules"), "{t}");
        assert!(t.contains("gold = vicinity"), "{t}");
        let r = load_ruleset(&gold, &dir).unwrap();
        assert_eq!(r.ext_choice("castles.gold"), Some("vicinity"));
        assert_eq!(r.ext_int("castles.farm_bonus"), Some(1));
        // with the crop-circle action
        let crop = setup(json!({"small-follower": 7, "corn-circle": 1, "castle": 1})).unwrap();
        let t = ruleset_text(&crop, &dir).unwrap();
        assert!(
            t.contains("cropcircles.rules") && t.contains("castles source"),
            "{t}"
        );
        assert!(!t.contains("gold = vicinity"), "{t}");
        assert!(load_ruleset(&crop, &dir).unwrap().ext_in_play("castles."));
    }

    #[test]
    fn the_rest_of_bridges_castles_and_bazaars_is_refused() {
        let e = setup(json!({"small-follower": 7, "castle": 1, "bridge": 1, "bazaar": true}))
            .unwrap_err();
        assert!(
            e.text.contains("bazaar, bridge") || e.text.contains("bridge, bazaar"),
            "{e}"
        );
        assert!(e.text.contains("only its castles"), "{e}");
        let v = json!({
            "sets": {"basic:1": 1, "bridges-castles-and-bazaars:1": 1},
            "elements": {"small-follower": 7, "castle": 1},
            "start": [{"tile": "BA/RCr", "x": 0, "y": 0, "rotation": 0}],
        });
        let e = parse_setup(&v, &mut Vec::new()).unwrap_err();
        assert!(e.text.contains("bridges-castles-and-bazaars:1"), "{e}");
        assert!(e.text.contains("does not"), "{e}");
        let m = json!({"type": "PLACE_TOKEN", "player": 0,
            "payload": {"token": "BRIDGE", "pointer": {"position": [0, 1], "feature": "Road", "location": "NS"}}});
        assert!(parse_message(3, &m)
            .unwrap_err()
            .to_string()
            .contains("bridges"));
        let m =
            json!({"type": "BAZAAR_BID", "player": 0, "payload": {"supplyIndex": 0, "price": 1}});
        assert!(parse_message(3, &m)
            .unwrap_err()
            .to_string()
            .contains("bazaars"));
        let m = json!({"type": "PLACE_TOKEN", "player": 0,
            "payload": {"token": "CASTLE", "pointer": {"position": [0, 1], "feature": "Road", "location": "S"}}});
        assert!(parse_message(3, &m)
            .unwrap_err()
            .to_string()
            .contains("City"));
    }

    #[test]
    fn meeple_ids_are_jcloisterzones() {
        assert!(check_meeple("0.small.1", 0, 7).is_ok());
        assert!(check_meeple("1.small.7", 1, 7).is_ok());
        assert!(check_meeple("0.small.0", 0, 7).is_err());
        assert!(check_meeple("0.small.8", 0, 7).is_err());
        assert!(check_meeple("1.small.1", 0, 7).is_err());
        assert!(check_meeple("0.big.1", 0, 7).is_err());
        assert!(check_meeple("small", 0, 7).is_err());
        assert_eq!(meeple_owner("2.small.3"), Some(2));
    }
}

#[cfg(test)]
mod garden_tests {
    use super::plain_twin;

    #[test]
    fn garden_tiles_read_as_their_plain_twins() {
        assert_eq!(plain_twin("BA/RrG"), "BA/Rr");
        assert_eq!(plain_twin("BA/CccG"), "BA/Ccc");
        assert_eq!(plain_twin("BA/Rr"), "BA/Rr");
        assert_eq!(plain_twin("GO/CRcr"), "GO/CRcr");
    }
}
