//! Reading a save: the JSON checked for size, version and shape, the set-up (sets, elements,
//! rules, start), the players, the messages of `replay[]` decoded one by one (each checked
//! on its own; their order is [`super::translate`]'s business), the draw order and the test
//! assertions. Anything not understood is an error naming the message and the field.

use super::{JczError, MAX_BYTES, MIN_VERSION, START_TILE};
use crate::engine::MAX_PLAYERS;
use crate::tiles::FeatureKind;
use serde_json::Value;

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
    /// The rest of Bridges, Castles & Bazaars: its tiles, bridges, bazaars.
    pub bcb: crate::import::bcb::BcbSetup,
    /// Inns & Cathedrals: its tiles, the big follower, inns and cathedrals.
    pub inns: crate::import::inns::InnsSetup,
    /// The River and The River II.
    pub river: crate::import::river::RiverSetup,
    /// Traders & Builders: its tiles, goods, builders, pigs.
    pub traders: crate::import::traders::TradersSetup,
    /// The Abbot and gardens: the abbot, live gardens.
    pub abbot: crate::import::abbot::AbbotSetup,
    /// Mage & Witch: its tiles, the mage and the witch.
    pub magewitch: crate::import::magewitch::MageWitchSetup,
    /// The Flying Machines: its tiles and element.
    pub flier: crate::import::flier::FlierSetup,
    /// The Ferries: its lake tiles and the ferries.
    pub ferries: crate::import::ferries::FerriesSetup,
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
    /// `RETURN_MEEPLE` with `source: ABBOT_RETURN` (see [`crate::import::abbot`]).
    AbbotReturn(Pointer),
    /// `DEPLOY_MEEPLE` on the flying machine of the tile just placed (a flight; its
    /// `random` rolls the die).
    Fly(Pointer),
    Pass,
    Commit,
    /// Bridges and bazaars (see [`crate::import::bcb`]).
    Bcb(crate::import::bcb::BcbMsg),
    /// Mage & Witch's `MOVE_NEUTRAL_FIGURE` (see [`crate::import::magewitch`]).
    MageWitch(crate::import::magewitch::MwMsg),
    /// `PLACE_TOKEN FERRY`: a ferry to the way `way` (see [`crate::import::ferries`]).
    Ferry {
        x: i32,
        y: i32,
        way: u8,
    },
}

impl Msg {
    pub fn name(&self) -> &'static str {
        match self {
            Msg::PlaceTile { .. } => "PLACE_TILE",
            Msg::Deploy(_) => "DEPLOY_MEEPLE",
            Msg::Gold { .. } | Msg::Castle(_) | Msg::Ferry { .. } => "PLACE_TOKEN",
            Msg::CropChoice { .. } => "CIRCLE_REMOVE_OR_DEPLOY",
            Msg::Return(_) | Msg::AbbotReturn(_) => "RETURN_MEEPLE",
            Msg::Fly(_) => "DEPLOY_MEEPLE",
            Msg::Pass => "PASS",
            Msg::Commit => "COMMIT",
            Msg::Bcb(b) => b.name(),
            Msg::MageWitch(_) => crate::import::magewitch::MESSAGE,
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
        // a garden is its tile's cloister segment (`crate::import::abbot`)
        "Garden" => Some(FeatureKind::Cloister),
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

pub(super) fn parse_setup(setup: &Value, warnings: &mut Vec<String>) -> Result<Setup, JczError> {
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
                let n = count(v, name)?;
                s.bcb.copies += n;
                n
            }
            "inns-and-cathedrals:1" | "inns-and-cathedrals:2" => {
                let n = count(v, name)?;
                s.inns.copies += n;
                n
            }
            river if crate::import::river::is_set(river) => {
                let n = count(v, name)?;
                crate::import::river::read_set(river, n, &mut s.river)?;
                n
            }
            "traders-and-builders:1" | "traders-and-builders:2" => {
                let n = count(v, name)?;
                s.traders.copies += n;
                n
            }
            mw if crate::import::magewitch::SETS.contains(&mw) => {
                let n = count(v, name)?;
                s.magewitch.copies += n;
                n
            }
            "flier:1" | "flier:2" => {
                let n = count(v, name)?;
                s.flier.copies += n;
                n
            }
            crate::import::ferries::SET => {
                s.ferries.copies = count(v, name)?;
                s.ferries.copies
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
            "setup.sets: tile set(s) not supported: {} (meeplab plays basic:1, basic:2, goldmines, corn-circles/1, corn-circles/2, bridges-castles-and-bazaars:1/:2, inns-and-cathedrals:1/:2, traders-and-builders:1/:2, river/1, river/2, mage-and-witch:1/:2, flier:1/:2, ferries)",
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
    let mut followers = None;
    let mut garden = false;
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
            "bridge" => s.bcb.bridge = true,
            "bazaar" => s.bcb.bazaar = true,
            "big-follower" => {
                s.inns.big_followers = element_count(v).unwrap_or(0) as u32;
            }
            "inn" => s.inns.inn = true,
            "river" => s.river.element = true,
            "cathedral" => s.inns.cathedral = true,
            // gardens only matter with the Abbot (`crate::import::abbot`)
            "garden" => {
                garden = true;
                s.abbot.garden = true;
            }
            "abbot" => {
                s.abbot.abbots = element_count(v)
                    .filter(|n| (1..=4).contains(n))
                    .ok_or_else(|| {
                        JczError::new(format!(
                            "setup.elements.abbot = {v}: expected 1 to 4 abbots a player"
                        ))
                    })? as u32;
            }
            "flier" => s.flier.element = true,
            "ferry" => s.ferries.element = true,
            other if s.traders.element(other, element_count(v)) => {}
            other if s.magewitch.element(other) => {}
            other => unsupported.push(other.to_string()),
        }
    }
    if !unsupported.is_empty() {
        return Err(JczError::new(format!(
            "setup.elements: game element(s) not supported: {} (JCloisterZone switches an element on by its presence, whatever its value; meeplab knows small-follower, farmers, gold, corn-circle, garden, abbot, castle, bridge, bazaar, big-follower, inn, cathedral, traders, builder, pig, pig-herd, river, mage, witch, flier, ferry)",
            unsupported.join(", ")
        )));
    }
    s.followers = followers.ok_or_else(|| {
        JczError::new(
            "setup.elements.small-follower is missing: JCloisterZone would play without small followers, which meeplab does not support",
        )
    })?;
    s.inns.check()?;
    s.magewitch.check()?;
    s.ferries.check()?;
    crate::import::river::settle_editions(&mut s.sets, garden);
    // elements without their tiles change nothing
    s.gold &= s.goldmines > 0;
    // JCloisterZone's client switches `corn-circle` on for any corn-circles set (`enforces`
    // in its expansions.js), so the set brings the crop-circle action with or without the
    // element in the save (the 5.7 scenarios lack it)
    s.crop_action = s.crop1 + s.crop2 > 0;
    // the same for `flier` and the flier sets (JCloisterZone's engine-test scenario lacks it)
    s.flier.element = s.flier.copies > 0;
    if let Some(rules) = setup.get("rules").and_then(Value::as_object) {
        for (name, v) in rules {
            match (name.as_str(), v.as_str()) {
                ("tiny-city-scoring", Some("2")) => s.tiny_city_2 = true,
                ("tiny-city-scoring", Some("4")) => s.tiny_city_2 = false,
                ("bazaar-no-auction", _) => s.bcb.no_auction = v.as_bool() != Some(false),
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
    let start_tile = crate::import::river::start_tile(&s.river).unwrap_or(START_TILE);
    let ok = start.as_array().is_some_and(|a| {
        a.len() == 1
            && a[0].get("tile").and_then(Value::as_str) == Some(start_tile)
            && a[0].get("x").and_then(as_i32) == Some(0)
            && a[0].get("y").and_then(as_i32) == Some(0)
    });
    if !ok {
        return Err(JczError::new(format!(
            "setup.start = {start}: only the standard start ({start_tile} at 0,0, rotation 0) is supported"
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

pub(crate) fn parse_message(index: usize, m: &Value) -> Result<Message, JczError> {
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
            if p.get("feature").and_then(Value::as_str) == Some("FlyingMachine") {
                let mut fp = p.clone();
                if let Some(o) = fp.as_object_mut() {
                    // the machine is no feature of meeplab's: read the pointer's place
                    o.insert("feature".into(), Value::from("Road"));
                }
                let mut at = meeple_pointer(&fp, payload.get("meepleId"), "payload.pointer", &bad)?;
                at.feature = None;
                Msg::Fly(at)
            } else {
                Msg::Deploy(meeple_pointer(
                    p,
                    payload.get("meepleId"),
                    "payload.pointer",
                    &bad,
                )?)
            }
        }
        "RETURN_MEEPLE" => {
            let abbot = match payload.get("source").and_then(Value::as_str) {
                Some("CORN_CIRCLE") => false,
                Some("ABBOT_RETURN") => true,
                src => {
                    return Err(bad(format!(
                    "payload.source = {}: only CORN_CIRCLE and ABBOT_RETURN returns are supported",
                    src.unwrap_or("missing")
                )))
                }
            };
            let p = payload
                .get("pointer")
                .ok_or_else(|| bad("payload.pointer is missing".into()))?;
            let fp = p.get("featurePointer").ok_or_else(|| {
                bad("payload.pointer.featurePointer is missing (JCloisterZone writes {featurePointer: {position, feature, location}, meepleId})".into())
            })?;
            let ptr = meeple_pointer(
                fp,
                p.get("meepleId"),
                "payload.pointer.featurePointer",
                &bad,
            )?;
            if abbot {
                Msg::AbbotReturn(ptr)
            } else {
                Msg::Return(ptr)
            }
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
            "BRIDGE" => crate::import::bcb::parse_bridge(payload, &bad)?,
            "FERRY" => crate::import::ferries::parse_ferry(payload, &bad)?,
            token => {
                return Err(bad(format!(
                    "payload.token = `{token}` is not supported (GOLD, CASTLE, BRIDGE)"
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
            crate::import::bcb::parse_bazaar(kind, payload, &bad)?
        }
        crate::import::magewitch::MESSAGE => {
            Msg::MageWitch(crate::import::magewitch::parse(payload, &bad)?)
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
        Some(r) if matches!(msg, Msg::Commit | Msg::Deploy(_) | Msg::Fly(_)) => Some(
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
    let mut setup = parse_setup(setup, &mut warnings)?;
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
    setup.bcb.max_price = crate::import::bcb::max_price(&messages);
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
    let game = JczGame {
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
    };
    crate::import::river::check_element(&game.setup.river)?;
    crate::import::river::check_pig_herd(
        &game.setup.river,
        game.setup.traders.in_play(),
        game.setup.traders.pig_herd,
    )?;
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::jcz::setup_label;
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
        // the corn-circles set brings the crop-circle action, element or not (the client's
        // `enforces`)
        let s = setup(json!({"small-follower": 7})).unwrap();
        assert!(!s.farmers && !s.gold && s.crop_action);
        let s = setup(json!({"small-follower": 7, "farmers": false, "gold": true})).unwrap();
        assert!(s.farmers && s.gold && s.crop_action);
        let s = setup(json!({"small-follower": "5.0", "corn-circle": 1, "gold": null})).unwrap();
        assert_eq!(s.followers, 5);
        assert!(s.crop_action && !s.gold);
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

    #[test]
    fn bridges_castles_and_bazaars_are_read() {
        let s =
            setup(json!({"small-follower": 7, "castle": 1, "bridge": 1, "bazaar": true})).unwrap();
        assert!(s.castle && s.bcb.bridge && s.bcb.bazaar && !s.bcb.no_auction);
        let v = json!({
            "sets": {"basic:1": 1, "bridges-castles-and-bazaars:2": 1},
            "elements": {"small-follower": 7, "castle": 1},
            "rules": {"bazaar-no-auction": true},
            "start": [{"tile": "BA/RCr", "x": 0, "y": 0, "rotation": 0}],
        });
        let s = parse_setup(&v, &mut Vec::new()).unwrap();
        assert_eq!(s.bcb.copies, 1);
        assert!(s.bcb.no_auction);
        let m = json!({"type": "PLACE_TOKEN", "player": 0,
            "payload": {"token": "CASTLE", "pointer": {"position": [0, 1], "feature": "Road", "location": "S"}}});
        assert!(parse_message(3, &m)
            .unwrap_err()
            .to_string()
            .contains("City"));
    }
}
