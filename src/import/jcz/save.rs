//! Reading a save: the JSON checked for size, version and shape, the set-up (sets, elements,
//! rules, start), the players, the messages of `replay[]` decoded one by one (each checked
//! on its own; their order is [`super::translate`]'s business), the draw order and the test
//! assertions. Anything not understood is an error naming the message and the field.

use super::game::{JczGame, TestSpec};
use super::message::{as_i32, position, Message, Msg};
use super::part::{element_count, RawMessage};
use super::parts::PARTS;
use super::setup::Setup;
use super::{JczError, MAX_BYTES, MIN_VERSION, START_TILE};
use crate::engine::MAX_PLAYERS;
use serde_json::Value;

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

pub(crate) fn parse_setup(setup: &Value, warnings: &mut Vec<String>) -> Result<Setup, JczError> {
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
            set => match PARTS.iter().find(|p| p.sets().contains(&set)) {
                Some(part) => {
                    let n = count(v, name)?;
                    part.read_set(set, n, &mut s)?;
                    n
                }
                None => {
                    unsupported.push(set.to_string());
                    continue;
                }
            },
        };
        s.sets.push((name.clone(), n));
    }
    if !unsupported.is_empty() {
        let known: Vec<&str> = PARTS
            .iter()
            .flat_map(|p| p.sets().iter().copied())
            .collect();
        return Err(JczError::new(format!(
            "setup.sets: tile set(s) not supported: {} (meeplab plays basic:1, basic:2, {})",
            unsupported.join(", "),
            known.join(", ")
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
            other => match PARTS.iter().find(|p| p.elements().contains(&other)) {
                Some(part) => part.read_element(other, v, &mut s)?,
                None => unsupported.push(other.to_string()),
            },
        }
    }
    if !unsupported.is_empty() {
        let known: Vec<&str> = PARTS
            .iter()
            .flat_map(|p| p.elements().iter().copied())
            .collect();
        return Err(JczError::new(format!(
            "setup.elements: game element(s) not supported: {} (JCloisterZone switches an element on by its presence, whatever its value; meeplab knows small-follower, farmers, {})",
            unsupported.join(", "),
            known.join(", ")
        )));
    }
    s.followers = followers.ok_or_else(|| {
        JczError::new(
            "setup.elements.small-follower is missing: JCloisterZone would play without small followers, which meeplab does not support",
        )
    })?;
    for part in PARTS {
        part.settle(&mut s)?;
    }
    s.gardens = PARTS.iter().flat_map(|p| p.gardens()).collect();
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
                (other, _) => match PARTS.iter().find_map(|p| p.read_rule(other, v, &mut s)) {
                    Some(read) => read?,
                    None => warnings.push(format!(
                        "setup.rules.{other} ignored (it tunes an expansion meeplab does not play)"
                    )),
                },
            }
        }
    }
    let start = setup.get("start").ok_or_else(|| {
        JczError::new("setup.start is missing (JCloisterZone would start without a start tile)")
    })?;
    let start_tile = PARTS
        .iter()
        .find_map(|p| p.start_tile(&s))
        .unwrap_or(START_TILE);
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

/// The core's messages (the parts' own are theirs: [`JczPart::parse_message`]).
fn core_message(m: &RawMessage) -> Result<Msg, JczError> {
    let (kind, payload, bad) = (m.kind, m.payload, m.bad);
    Ok(match kind {
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
            Msg::Deploy(m.pointer(p, payload.get("meepleId"), "payload.pointer")?)
        }
        "RETURN_MEEPLE" => {
            return Err(bad(format!(
                "payload.source = {}: only {} returns are supported",
                m.source().unwrap_or("missing"),
                part_messages("RETURN_MEEPLE ").join(" and ")
            )))
        }
        "PLACE_TOKEN" => {
            return Err(bad(format!(
                "payload.token = `{}` is not supported ({})",
                m.token(),
                part_messages("PLACE_TOKEN ").join(", ")
            )))
        }
        "PASS" => Msg::Pass,
        "COMMIT" => Msg::Commit,
        other => {
            let mut known = vec!["PLACE_TILE", "DEPLOY_MEEPLE", "PASS", "COMMIT"];
            known.extend(PARTS.iter().flat_map(|p| p.messages().iter().copied()));
            return Err(bad(format!(
                "the message type {other} is not supported (meeplab reads {})",
                known.join(", ")
            )));
        }
    })
}

/// The parts' message names that start with `prefix`, without it (`GOLD` of `PLACE_TOKEN GOLD`).
fn part_messages(prefix: &str) -> Vec<&'static str> {
    PARTS
        .iter()
        .flat_map(|p| p.messages().iter())
        .filter_map(|m| m.strip_prefix(prefix))
        .collect()
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
    let raw = RawMessage {
        kind,
        payload,
        bad: &bad,
    };
    let msg = match PARTS.iter().find_map(|p| p.parse_message(&raw)) {
        Some(msg) => msg?,
        None => core_message(&raw)?,
    };
    let random = match payload.get("random") {
        None | Some(Value::Null) => None,
        Some(r) if msg.sets_random() => Some(
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
    let mut game = JczGame {
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
    for part in PARTS {
        part.finish(&mut game.setup, &game.messages)?;
    }
    Ok(game)
}
