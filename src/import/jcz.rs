//! JCloisterZone 5.x saves (`.jcz`, JSON): parsing, the mapping to a meeplab ruleset, and the
//! translation of the message log into meeplab's semantic decisions.
//!
//! # What is read
//! - `appVersion` must be 5.7.0 or later (older saves use another message format).
//! - `setup.sets`: `basic:1` or `basic:2` (required; `basic:2`'s garden tiles are read as their
//!   plain twins), `goldmines`, `corn-circles/1`, `corn-circles/2`, each with a copy count
//!   1–4. Any other set is refused, naming it.
//! - `setup.elements`: `small-follower` (followers per player, default 7), `farmers`
//!   (default on), `gold` (default: on exactly when the `goldmines` set is in); `corn-circle`
//!   and `garden` are accepted (they come with their sets). Any other element that is
//!   switched on (`abbot`, `big-follower`, …) is refused.
//! - `setup.rules`: `tiny-city-scoring` `"2"` (2-point small city) or `"4"`. Other rule keys
//!   only tune expansions meeplab does not play; they are ignored with a warning.
//! - `setup.start`: absent, or exactly `BA/RCr` at (0,0) `R0`.
//! - `players[]` in seat order (`name`, or `nickname`).
//! - `replay[]`: `PLACE_TILE`, `PLACE_TOKEN` (`GOLD` only), `DEPLOY_MEEPLE` (small followers on
//!   `City`/`Road`/`Field`/`Monastery`), `CIRCLE_REMOVE_OR_DEPLOY`, `RETURN_MEEPLE` (in a
//!   crop-circle removal), `PASS`, `COMMIT`; `UNDO` and anything else is refused.
//! - `gameAnnotations.drawOrder` (or JCZ's `tilePack.params.drawOrder`, where `#END` ends the
//!   pack) and `gameAnnotations.endTurn`.
//! - `test.description`, `test.assertions[]` (see [`crate::import::assertions`]).
//!
//! # The mapping to a ruleset
//! The mapped ruleset is rule-language text that `extends` a bundled ruleset and overrides
//! the deck and options; it is loaded through the DSL like any other file:
//! - gold on → `goldmines-autopick.rules` (JCZ hands out gold by its automatic
//!   most-contested-first pick; its crop rules are HiG's: *may* deploy, same segment, which
//!   is what JCZ does); else crop-circle tiles in → `cropcircles.rules`; else `base.rules`.
//! - `deck { base xN, goldmines-c1 xN, crop-circles-1 xN, crop-circles-2 xN }` from the sets
//!   (the start tile is one of the `BA/RCr` copies, as in JCZ).
//! - `followers = small-follower`, `farms = off` without farmers,
//!   `score.city.small = tiles + pennants` for `tiny-city-scoring: "2"`, `players = 1..6`.
//! - `goldmines` tiles with gold off keep their symbol but no gold is placed (no `gold` rules).
//!
//! # The translation
//! JCZ's placed tiles, in order, are the draw order; each `PLACE_TILE` starts a turn whose
//! active player is the message's `player` (checked against the seat rotation). Then:
//! `PLACE_TILE` → `Choice::Place` (rotation normalised to the engine's representative of
//! symmetric turns); `PLACE_TOKEN GOLD` → `Choice::Ingot` (second ingot); `DEPLOY_MEEPLE`/
//! `PASS` before the crop circle → `Choice::Follower`; `CIRCLE_REMOVE_OR_DEPLOY` →
//! `Choice::CropMode`; after it `DEPLOY_MEEPLE`/`PASS` → `CropDeploy` and `RETURN_MEEPLE` →
//! `CropRemove` (`Choice::Spot`). A location in board orientation is turned back by the tile's
//! rotation and matched against the tile's segments (sides for cities and roads, half-edges
//! for fields, `I` for the cloister).

use crate::engine::{Choice, DecisionKind, TakenDecision};
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
/// Most seats.
pub const MAX_SEATS: usize = crate::engine::MAX_PLAYERS;

/// A problem with a `.jcz` file; `message` is the index into `replay[]` when it is about one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JczError {
    pub message: Option<usize>,
    pub kind: Option<String>,
    pub text: String,
}

impl JczError {
    fn new(text: impl Into<String>) -> JczError {
        JczError {
            message: None,
            kind: None,
            text: text.into(),
        }
    }
    fn at(index: usize, kind: &str, text: impl Into<String>) -> JczError {
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
    /// Copies of the base set.
    pub basic: u32,
    pub goldmines: u32,
    pub crop1: u32,
    pub crop2: u32,
    pub followers: u8,
    pub farmers: bool,
    pub gold: bool,
    /// `tiny-city-scoring: "2"`.
    pub tiny_city_2: bool,
}

/// One message of `replay[]`, decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Msg {
    PlaceTile {
        tile: String,
        rot: u8,
        x: i32,
        y: i32,
    },
    Deploy {
        x: i32,
        y: i32,
        feature: Option<FeatureKind>,
        location: String,
    },
    Gold {
        x: i32,
        y: i32,
    },
    CropChoice {
        deploy: bool,
    },
    Return {
        x: i32,
        y: i32,
        feature: Option<FeatureKind>,
        location: String,
    },
    Pass,
    Commit,
}

impl Msg {
    pub fn name(&self) -> &'static str {
        match self {
            Msg::PlaceTile { .. } => "PLACE_TILE",
            Msg::Deploy { .. } => "DEPLOY_MEEPLE",
            Msg::Gold { .. } => "PLACE_TOKEN",
            Msg::CropChoice { .. } => "CIRCLE_REMOVE_OR_DEPLOY",
            Msg::Return { .. } => "RETURN_MEEPLE",
            Msg::Pass => "PASS",
            Msg::Commit => "COMMIT",
        }
    }
}

/// A message with its index in `replay[]` and its sender.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub index: usize,
    pub player: Option<u8>,
    pub msg: Msg,
}

/// The `test` section.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TestSpec {
    pub description: Option<String>,
    pub assertions: Vec<String>,
}

/// A parsed save.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JczGame {
    pub app_version: String,
    pub setup: Setup,
    pub players: Vec<String>,
    pub messages: Vec<Message>,
    pub draw_order: Vec<String>,
    pub end_turn: Option<u32>,
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

fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty() && s != "0" && s != "false",
        _ => true,
    }
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

fn rotation(v: Option<&Value>) -> Option<u8> {
    match v? {
        Value::String(s) => match s.as_str() {
            "R0" => Some(0),
            "R90" => Some(1),
            "R180" => Some(2),
            "R270" => Some(3),
            _ => None,
        },
        Value::Number(n) => match n.as_i64()? {
            0 => Some(0),
            90 => Some(1),
            180 => Some(2),
            270 => Some(3),
            _ => None,
        },
        _ => None,
    }
}

fn feature_kind(s: &str) -> Option<Option<FeatureKind>> {
    match s {
        "City" => Some(Some(FeatureKind::City)),
        "Road" => Some(Some(FeatureKind::Road)),
        "Field" | "Farm" => Some(Some(FeatureKind::Field)),
        "Monastery" | "Cloister" => Some(Some(FeatureKind::Cloister)),
        _ => None,
    }
}

fn count(v: &Value, what: &str) -> Result<u32, JczError> {
    let n = v
        .as_u64()
        .ok_or_else(|| JczError::new(format!("setup.sets.{what} must be a count, not {v}")))?;
    if n > 4 {
        return Err(JczError::new(format!(
            "setup.sets.{what} = {n}: at most 4 copies of a set are supported"
        )));
    }
    Ok(n as u32)
}

fn parse_setup(setup: &Value, warnings: &mut Vec<String>) -> Result<Setup, JczError> {
    let mut s = Setup {
        followers: 7,
        farmers: true,
        ..Setup::default()
    };
    let sets = setup
        .get("sets")
        .and_then(Value::as_object)
        .ok_or_else(|| JczError::new("setup.sets is missing (which tile sets were played?)"))?;
    let mut unsupported = Vec::new();
    for (name, v) in sets {
        match name.as_str() {
            // basic:2 is the C2 base: the same tiles, eight of them with a garden (inert
            // without the Abbot), read as their plain twins (see `plain_twin`).
            "basic:1" | "basic" | "basic:2" => s.basic += count(v, name)?,
            "goldmines" => s.goldmines = count(v, name)?,
            "corn-circles/1" => s.crop1 = count(v, name)?,
            "corn-circles/2" => s.crop2 = count(v, name)?,
            other => {
                if truthy(v) {
                    unsupported.push(other.to_string());
                }
            }
        }
    }
    if !unsupported.is_empty() {
        return Err(JczError::new(format!(
            "tile set(s) not supported: {} (meeplab plays basic:1, goldmines, corn-circles/1, corn-circles/2)",
            unsupported.join(", ")
        )));
    }
    if s.basic == 0 {
        return Err(JczError::new(
            "a game without the base set `basic:1` is not supported",
        ));
    }
    let mut gold_given = None;
    if let Some(el) = setup.get("elements").and_then(Value::as_object) {
        let mut unsupported = Vec::new();
        for (name, v) in el {
            match name.as_str() {
                "small-follower" => {
                    let n = v.as_u64().filter(|n| (1..=30).contains(n)).ok_or_else(|| {
                        JczError::new(format!(
                            "setup.elements.small-follower = {v}: expected 1 to 30"
                        ))
                    })?;
                    s.followers = n as u8;
                }
                "farmers" => s.farmers = truthy(v),
                "gold" => gold_given = Some(truthy(v)),
                // JCZ switches these on with their sets: the crop-circle action comes with
                // the corn-circles sets, and gardens (basic:2) only matter with the Abbot.
                "corn-circle" | "garden" => {}
                other => {
                    if truthy(v) {
                        unsupported.push(other.to_string());
                    }
                }
            }
        }
        if !unsupported.is_empty() {
            return Err(JczError::new(format!(
                "game element(s) not supported: {} (meeplab knows small-follower, farmers, gold, corn-circle, garden)",
                unsupported.join(", ")
            )));
        }
    }
    s.gold = gold_given.unwrap_or(s.goldmines > 0);
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
                    "rule `{other}` ignored (it tunes an expansion meeplab does not play)"
                )),
            }
        }
    }
    if let Some(start) = setup.get("start") {
        let ok = start.as_array().is_some_and(|a| {
            a.len() == 1
                && a[0].get("tile").and_then(Value::as_str) == Some("BA/RCr")
                && a[0].get("x").and_then(as_i32) == Some(0)
                && a[0].get("y").and_then(as_i32) == Some(0)
                && a[0]
                    .get("rotation")
                    .is_none_or(|r| rotation(Some(r)) == Some(0))
        });
        if !ok {
            return Err(JczError::new(format!(
                "setup.start = {start}: only the standard start (BA/RCr at 0,0, R0) is supported"
            )));
        }
    }
    Ok(s)
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
                .filter(|&p| (p as usize) < MAX_SEATS)
                .ok_or_else(|| JczError::at(index, kind, format!("bad player {p}")))?
                as u8,
        ),
    };
    let empty = Value::Object(Default::default());
    let payload = m.get("payload").unwrap_or(&empty);
    let bad = |what: &str| JczError::at(index, kind, what.to_string());
    let msg =
        match kind {
            "PLACE_TILE" => {
                let tile = plain_twin(
                    payload
                        .get("tileId")
                        .and_then(Value::as_str)
                        .ok_or_else(|| bad("missing tileId"))?,
                )
                .to_string();
                let rot = rotation(payload.get("rotation"))
                    .ok_or_else(|| bad("rotation must be R0, R90, R180 or R270"))?;
                let (x, y) = position(payload.get("position"))
                    .ok_or_else(|| bad("position must be [x, y]"))?;
                Msg::PlaceTile { tile, rot, x, y }
            }
            "DEPLOY_MEEPLE" | "RETURN_MEEPLE" => {
                let meeple = payload
                    .get("meepleId")
                    .or_else(|| payload.get("pointer").and_then(|p| p.get("meepleId")))
                    .and_then(Value::as_str);
                if let Some(id) = meeple {
                    if !id.contains("small") {
                        return Err(bad(&format!(
                        "meeple `{id}` is not a small follower; other figures are not supported"
                    )));
                    }
                }
                if let Some(src) = payload.get("source").and_then(Value::as_str) {
                    if kind == "RETURN_MEEPLE" && !src.contains("CIRCLE") && !src.contains("CORN") {
                        return Err(bad(&format!(
                            "returning a meeple for `{src}` is not supported (only crop circles)"
                        )));
                    }
                }
                let p = payload
                    .get("pointer")
                    .ok_or_else(|| bad("missing pointer"))?;
                let (x, y) = position(p.get("position"))
                    .ok_or_else(|| bad("pointer.position must be [x, y]"))?;
                let feature = match p.get("feature").and_then(Value::as_str) {
                    None => None,
                    Some(f) => feature_kind(f).ok_or_else(|| {
                        bad(&format!(
                            "feature `{f}` is not supported (City, Road, Field, Monastery)"
                        ))
                    })?,
                };
                let location = p
                    .get("location")
                    .and_then(Value::as_str)
                    .ok_or_else(|| bad("missing pointer.location"))?
                    .to_string();
                if kind == "DEPLOY_MEEPLE" {
                    Msg::Deploy {
                        x,
                        y,
                        feature,
                        location,
                    }
                } else {
                    Msg::Return {
                        x,
                        y,
                        feature,
                        location,
                    }
                }
            }
            "PLACE_TOKEN" => {
                let token = payload.get("token").and_then(Value::as_str).unwrap_or("");
                if token != "GOLD" {
                    return Err(bad(&format!(
                        "token `{token}` is not supported (only GOLD)"
                    )));
                }
                let (x, y) = position(payload.get("pointer"))
                    .ok_or_else(|| bad("pointer must be [x, y]"))?;
                Msg::Gold { x, y }
            }
            "CIRCLE_REMOVE_OR_DEPLOY" => match payload.get("value").and_then(Value::as_str) {
                Some("DEPLOY") => Msg::CropChoice { deploy: true },
                Some("REMOVE") => Msg::CropChoice { deploy: false },
                _ => return Err(bad("value must be DEPLOY or REMOVE")),
            },
            "PASS" => Msg::Pass,
            "COMMIT" => Msg::Commit,
            other => return Err(JczError::at(
                index,
                other,
                "this message type is not supported (meeplab reads PLACE_TILE, PLACE_TOKEN GOLD, \
                 DEPLOY_MEEPLE, CIRCLE_REMOVE_OR_DEPLOY, RETURN_MEEPLE, PASS, COMMIT)",
            )),
        };
    Ok(Message { index, player, msg })
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
    if players.is_empty() || players.len() > MAX_SEATS {
        return Err(JczError::new(format!(
            "{} players: 1 to {MAX_SEATS} are supported",
            players.len()
        )));
    }
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
    let mut end_turn = None;
    let annotations = v
        .get("gameAnnotations")
        .or_else(|| v.get("setup").and_then(|s| s.get("gameAnnotations")));
    if let Some(a) = annotations {
        let order = a.get("drawOrder").or_else(|| {
            a.get("tilePack")
                .and_then(|t| t.get("params"))
                .and_then(|p| p.get("drawOrder"))
        });
        if let Some(order) = order {
            let list = order
                .as_array()
                .ok_or_else(|| JczError::new("gameAnnotations.drawOrder must be a list"))?;
            for t in list {
                let id = t
                    .as_str()
                    .ok_or_else(|| JczError::new("gameAnnotations.drawOrder must list tile ids"))?;
                if id == "#END" {
                    end_turn.get_or_insert(draw_order.len() as u32);
                    break;
                }
                draw_order.push(plain_twin(id).to_string());
            }
        }
        if let Some(e) = a.get("endTurn") {
            let n = e.as_u64().filter(|&n| n <= 10_000).ok_or_else(|| {
                JczError::new(format!(
                    "gameAnnotations.endTurn = {e}: expected a turn number"
                ))
            })?;
            end_turn = Some(n as u32);
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
        draw_order,
        end_turn,
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
    let mut sets = vec![format!("basic:1{}", times(s.basic))];
    if s.goldmines > 0 {
        sets.push(format!("goldmines{}", times(s.goldmines)));
    }
    if s.crop1 > 0 {
        sets.push(format!("corn-circles/1{}", times(s.crop1)));
    }
    if s.crop2 > 0 {
        sets.push(format!("corn-circles/2{}", times(s.crop2)));
    }
    let mut label = sets.join(" + ");
    if !s.farmers {
        label.push_str(", no farmers");
    }
    if s.goldmines > 0 && !s.gold {
        label.push_str(", gold off");
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

/// The rule-language text of the ruleset a save was played under (see the module docs);
/// `dir` is the folder of the bundled rulesets.
pub fn ruleset_text(s: &Setup, dir: &Path) -> String {
    let parent = if s.gold {
        "goldmines-autopick.rules"
    } else if s.crop1 + s.crop2 > 0 {
        "cropcircles.rules"
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
    let mut deck = vec![format!("base x{}", s.basic)];
    for (n, file, set) in [
        (s.goldmines, "tiles/goldmines-c1.tiles", "goldmines-c1"),
        (s.crop1, "tiles/crop-circles-1.tiles", "crop-circles-1"),
        (s.crop2, "tiles/crop-circles-2.tiles", "crop-circles-2"),
    ] {
        if n > 0 {
            t.push_str(&format!("include {}\n", quoted(&dir.join(file))));
            deck.push(format!("{set} x{n}"));
        }
    }
    t.push_str(&format!("deck {{ {} }}\n", deck.join(", ")));
    t.push_str("players = 1..6  source \"JCloisterZone\"\n");
    t.push_str(&format!(
        "followers = {}  source \"JCloisterZone setup\"\n",
        s.followers
    ));
    if !s.farmers {
        t.push_str("farms = off  source \"JCloisterZone setup: no farmers\"\n");
    }
    if s.tiny_city_2 {
        t.push_str(
            "score.city.small = tiles + pennants  source \"JCloisterZone rule tiny-city-scoring 2\"\n",
        );
    }
    t
}

/// Load the mapped ruleset through the rule language.
pub fn load_ruleset(s: &Setup, dir: &Path) -> Result<Ruleset, String> {
    let text = ruleset_text(s, dir);
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

/// One drawn tile of the translated record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Draw {
    /// meeplab tile id (the JCZ id).
    pub id: String,
    pub tile: TileIdx,
    pub player: u8,
    /// Index of its `PLACE_TILE` message.
    pub message: usize,
    pub x: i32,
    pub y: i32,
    /// Normalised rotation.
    pub rot: u8,
}

/// A save in engine terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Translated {
    pub draws: Vec<Draw>,
    pub decisions: Vec<TakenDecision>,
    /// `replay[]` index of each decision.
    pub origins: Vec<usize>,
    /// The pack is exhausted (`endTurn` reached, or every tile drawn): final scoring follows.
    pub complete: bool,
    /// Tiles still in the pack after the last recorded draw (none when `endTurn` ends the
    /// game). If none of them fits anywhere, JCloisterZone discarded them and the game is
    /// over too; the replay checks that on the board (see `import::replay`).
    pub left_in_pack: Vec<TileIdx>,
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

/// Translate the message log into draws and decisions under `rules` (the mapped ruleset).
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
    let mut out = Translated {
        draws: Vec::new(),
        decisions: Vec::new(),
        origins: Vec::new(),
        complete: false,
        left_in_pack: Vec::new(),
    };
    let mut turn = 0u32;
    let mut active = 0u8;
    let mut placed_at = (0, 0);
    let mut crop_phase = false;
    let mut committed = true;
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
        match &m.msg {
            Msg::PlaceTile { tile, rot, x, y } => {
                if let Some(end) = g.end_turn {
                    if turn >= end {
                        return Err(err(format!(
                            "a tile after the end of the pack (gameAnnotations.endTurn = {end})"
                        )));
                    }
                }
                let t = rules.tile_by_jcz(tile).ok_or_else(|| {
                    err(format!(
                        "unknown tile id `{tile}` (not in the tile sets of this game)"
                    ))
                })?;
                let c = left.entry(t).or_insert(0);
                if *c <= 0 {
                    return Err(err(format!(
                        "one `{tile}` more than the tile sets of this game hold"
                    )));
                }
                *c -= 1;
                if let Some(want) = g.draw_order.get(turn as usize) {
                    if want != tile {
                        return Err(err(format!(
                            "places `{tile}`, but gameAnnotations.drawOrder forces `{want}` as draw {}",
                            turn + 1
                        )));
                    }
                }
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
                crop_phase = false;
                committed = false;
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
                    tile: t,
                    player,
                    message: m.index,
                    x: *x,
                    y: *y,
                    rot: r,
                });
                push(
                    &mut out,
                    m.index,
                    TakenDecision {
                        turn,
                        player,
                        kind: DecisionKind::Placement,
                        choice: Choice::Place {
                            x: *x,
                            y: *y,
                            rot: r,
                        },
                    },
                );
            }
            _ if committed => {
                if !matches!(m.msg, Msg::Commit) {
                    return Err(err(
                        "comes after COMMIT and before the next PLACE_TILE".into()
                    ));
                }
            }
            Msg::Commit => committed = true,
            Msg::Gold { x, y } => {
                if crop_phase {
                    return Err(err("an ingot during the crop-circle action".into()));
                }
                check_active(m, active, &player_name, &err)?;
                push(
                    &mut out,
                    m.index,
                    TakenDecision {
                        turn,
                        player: active,
                        kind: DecisionKind::IngotPlace,
                        choice: Choice::Ingot { x: *x, y: *y },
                    },
                );
            }
            Msg::CropChoice { deploy } => {
                check_active(m, active, &player_name, &err)?;
                if crop_phase {
                    return Err(err("a second crop-circle choice in one turn".into()));
                }
                crop_phase = true;
                push(
                    &mut out,
                    m.index,
                    TakenDecision {
                        turn,
                        player: active,
                        kind: DecisionKind::CropMode,
                        choice: Choice::CropMode { deploy: *deploy },
                    },
                );
            }
            Msg::Pass | Msg::Deploy { .. } if !crop_phase => {
                check_active(m, active, &player_name, &err)?;
                let segment = match &m.msg {
                    Msg::Deploy {
                        x,
                        y,
                        feature,
                        location,
                    } => {
                        if (*x, *y) != placed_at {
                            return Err(err(format!(
                                "a follower on ({x},{y}), not on the tile just placed at ({},{})",
                                placed_at.0, placed_at.1
                            )));
                        }
                        let (t, r) = board[&placed_at];
                        Some(
                            segment_for(&rules.tiles[t as usize], r, *feature, location)
                                .map_err(err)?,
                        )
                    }
                    _ => None,
                };
                push(
                    &mut out,
                    m.index,
                    TakenDecision {
                        turn,
                        player: active,
                        kind: DecisionKind::Follower,
                        choice: Choice::Follower { segment },
                    },
                );
            }
            Msg::Pass | Msg::Deploy { .. } | Msg::Return { .. } => {
                if matches!(m.msg, Msg::Return { .. }) && !crop_phase {
                    return Err(err(
                        "returning a follower outside a crop-circle removal is not supported"
                            .into(),
                    ));
                }
                let player = m
                    .player
                    .ok_or_else(|| err("a crop-circle action must name its `player`".into()))?;
                let (kind, at) = match &m.msg {
                    Msg::Pass => (DecisionKind::CropDeploy, None),
                    Msg::Deploy {
                        x,
                        y,
                        feature,
                        location,
                    }
                    | Msg::Return {
                        x,
                        y,
                        feature,
                        location,
                    } => {
                        let (t, r) = *board
                            .get(&(*x, *y))
                            .ok_or_else(|| err(format!("no tile at ({x},{y})")))?;
                        let seg = segment_for(&rules.tiles[t as usize], r, *feature, location)
                            .map_err(err)?;
                        let kind = if matches!(m.msg, Msg::Deploy { .. }) {
                            DecisionKind::CropDeploy
                        } else {
                            DecisionKind::CropRemove
                        };
                        (kind, Some((*x, *y, seg)))
                    }
                    _ => unreachable!("matched above"),
                };
                push(
                    &mut out,
                    m.index,
                    TakenDecision {
                        turn,
                        player,
                        kind,
                        choice: Choice::Spot { at },
                    },
                );
            }
        }
    }
    let pack: i64 = rules.deck.iter().map(|d| d.count as i64).sum::<i64>() - 1;
    out.complete = match g.end_turn {
        Some(end) => turn >= end,
        None => turn as i64 >= pack,
    };
    if g.end_turn.is_none() {
        let mut left: Vec<(TileIdx, i64)> = left.into_iter().filter(|&(_, c)| c > 0).collect();
        left.sort_unstable();
        out.left_in_pack = left.into_iter().map(|(t, _)| t).collect();
    }
    Ok(out)
}

fn check_active(
    m: &Message,
    active: u8,
    name: &dyn Fn(u8) -> String,
    err: &dyn Fn(String) -> JczError,
) -> Result<(), JczError> {
    match m.player {
        Some(p) if p != active => Err(err(format!(
            "wrong player: {} acts in {}'s turn",
            name(p),
            name(active)
        ))),
        _ => Ok(()),
    }
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
