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

use crate::engine::expansions::castles::{
    CASTLE, CASTLE_BUILD, CASTLE_BUILT, CASTLE_SCORED, NO_CASTLE,
};
use crate::engine::{Category, Choice, Decision, Event, Game, TakenDecision, NO_NODE};
use crate::import::gold::GoldSetup;
use crate::import::jcz::part::{JczPart, Mapping, RawMessage, Scoring};
use crate::import::jcz::{
    Current, JczError, Message, Msg, PartMsg, Pointer, Setup, Step, Translated, Translator,
    TurnAnswers,
};
use crate::ruleset::{Ruleset, TileIdx};
use crate::tiles::{rotate_side_mask, FeatureKind, Side};
use serde_json::Value;
use std::collections::HashMap;

/// `PLACE_TOKEN CASTLE`: the small city to turn into a castle (`meeple` is empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CastleMsg(pub Pointer);

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

/// The castles of a translated save, for the replay. They are not among its decisions: the
/// engine asks one `CASTLE_BUILD` per small city it offers, and which city an offer is only
/// the replay knows (see [`crate::import::replay`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CastlesTrack {
    /// The castles built (`PLACE_TOKEN CASTLE`), in message order.
    pub marks: Vec<CastleMark>,
    /// The castle step's `PASS`es: (recorded turn, message index).
    pub passes: Vec<(u32, usize)>,
}

/// The castle step of the turn under way (after the follower action, before `COMMIT`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct CastleStep {
    /// The step began (a castle built or declined).
    begun: bool,
    /// The players who built a castle this turn.
    built: u8,
    /// The step's `PASS` was read.
    passed: bool,
}

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
    fn translate(
        &self,
        t: &mut Translator,
        at: &Current,
        _m: &Message,
        msg: &PartMsg,
    ) -> Option<Result<(), JczError>> {
        let CastleMsg(p) = msg.get::<CastleMsg>()?;
        Some(build(t, at, p))
    }
    fn intercept(
        &self,
        t: &mut Translator,
        at: &Current,
        msg: &Msg,
    ) -> Option<Result<(), JczError>> {
        let step = t.turn_part::<CastleStep>().into_owned();
        let castle_pass = matches!(msg, Msg::Pass)
            && t.step() == Step::Main
            && on(&t.game().setup)
            && (t.followed() || step.begun || at.from.is_some_and(|p| p != t.active()));
        castle_pass.then(|| {
            // JCloisterZone's castle step: a PASS declines the castle offered and ends the
            // step (nobody after is asked); nothing to record, the replay answers the offers
            // the save does not build with "no". Another player's PASS before any follower
            // action is one too: JCloisterZone skips the action step of a player who has no
            // follower action to take.
            if step.passed {
                return Err(at.err("a second PASS in the castle step"));
            }
            let s = t.turn_part_mut::<CastleStep>();
            s.begun = true;
            s.passed = true;
            t.end_follower_step();
            let pass = (t.turn(), at.index);
            t.game_part_mut::<CastlesTrack>().passes.push(pass);
            Ok(())
        })
    }
    fn before_follower(&self, t: &mut Translator, at: &Current) -> Result<(), JczError> {
        if t.turn_part::<CastleStep>().begun {
            return Err(at.err("a follower action after the castle step"));
        }
        Ok(())
    }
    fn answers(
        &self,
        tr: &Translated,
        k: usize,
        _script: &[TakenDecision],
    ) -> Option<Box<dyn TurnAnswers>> {
        let track = tr.parts.get::<CastlesTrack>();
        let turn = k as u32 + 1;
        Some(Box::new(CastleAnswers {
            marks: track
                .marks
                .iter()
                .filter(|c| c.turn == turn)
                .cloned()
                .collect(),
            pass: track.passes.iter().find(|p| p.0 == turn).map(|p| p.1),
            offers: None,
            asked: 0,
        }))
    }
    fn category(&self, word: &str) -> Option<Category> {
        matches!(word.to_ascii_lowercase().as_str(), "castle" | "castles").then_some(CASTLE)
    }
    fn scorings(&self, events: &[Event], player: u8) -> Vec<(usize, Scoring)> {
        let mut out = Vec::new();
        // the player's castles still waiting (their first tile): a castle still waiting when
        // the game ends counts as a final scoring of 0, as JCloisterZone scores it
        let mut waiting: Vec<(i64, i64)> = Vec::new();
        for (i, e) in events.iter().enumerate() {
            if let Event::GameEnd { .. } = e {
                for _ in waiting.drain(..) {
                    out.push((
                        i,
                        Scoring {
                            category: CASTLE,
                            points: 0,
                            turn: None,
                            final_scoring: true,
                        },
                    ));
                }
            } else if let Some(v) = e.of(CASTLE_BUILT) {
                if v[1] == player as i64 {
                    waiting.push((v[2], v[3]));
                }
            } else if let Some(v) = e.of(CASTLE_SCORED) {
                if v[1] == player as i64 {
                    waiting.retain(|&at| at != (v[2], v[3]));
                    out.push((
                        i,
                        Scoring {
                            category: CASTLE,
                            points: v[4],
                            turn: Some(v[0] as u32),
                            final_scoring: false,
                        },
                    ));
                }
            }
        }
        out
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
    Ok(Msg::Part(PartMsg::new(
        "PLACE_TOKEN",
        CastleMsg(Pointer {
            x,
            y,
            feature: Some(FeatureKind::City),
            location,
            meeple: String::new(),
        }),
    )))
}

/// `PLACE_TOKEN CASTLE`: a castle on the small city just completed on the tile just
/// placed, one a player a turn, before the castle step's `PASS`. It becomes a
/// [`CastleMark`], checked here (on the tile just placed, a single-edge city cap facing one
/// on the neighbouring tile), not a decision.
fn build(t: &mut Translator, at: &Current, p: &Pointer) -> Result<(), JczError> {
    match t.step() {
        Step::Main => {}
        Step::After { pending: None, .. } => {
            return Err(at.err(
                "a castle during the crop-circle step (JCloisterZone builds castles before the turn's COMMIT)",
            ))
        }
        _ => return Err(t.out_of_order(at)),
    }
    if !on(&t.game().setup) {
        return Err(at.err("a castle, but the save's setup.elements has no `castle`"));
    }
    let step = t.turn_part::<CastleStep>().into_owned();
    if step.passed {
        return Err(at.err("a castle after the castle step's PASS"));
    }
    let who = at.from.unwrap_or(t.active());
    if step.built & (1 << who) != 0 {
        return Err(at.err(format!(
            "{} builds a second castle in one turn (JCloisterZone offers a player one castle a turn)",
            t.player_name(who)
        )));
    }
    let placed_at = t.placed_at();
    if (p.x, p.y) != placed_at {
        return Err(at.err(format!(
            "an impossible castle: the city at ({},{}) is not on the tile just placed at ({},{})",
            p.x, p.y, placed_at.0, placed_at.1
        )));
    }
    let (_, _, segment) = t.segment_at(at, p)?;
    small_city_at(t.board(), t.rules(), placed_at, segment).map_err(|why| {
        at.err(format!(
            "an impossible castle on the city `{}` of ({},{}): {why}",
            p.location, p.x, p.y
        ))
    })?;
    let s = t.turn_part_mut::<CastleStep>();
    s.built |= 1 << who;
    s.begun = true;
    t.end_follower_step();
    let mark = CastleMark {
        turn: t.turn(),
        player: who,
        message: at.index,
        x: p.x,
        y: p.y,
        segment,
        location: p.location.clone(),
    };
    t.game_part_mut::<CastlesTrack>().marks.push(mark);
    Ok(())
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

/// A castle the engine offers: the city's segment on the tile just placed (x, y, segment),
/// and the player asked.
type CastleOffer = ((i32, i32, u8), u8);

/// The castles of a `.jcz` turn, answered by the replay: the engine asks one `CASTLE_BUILD`
/// per small city it offers; an offer is built when the save builds a castle on that city,
/// else scored (JCloisterZone asks each player once, and a PASS ends its castle step).
struct CastleAnswers {
    /// The turn's castles still to build.
    marks: Vec<CastleMark>,
    /// The castle step's `PASS` of the turn (its message), if any.
    pass: Option<usize>,
    /// The turn's offers as the engine makes them, found at the first ask.
    offers: Option<Vec<CastleOffer>>,
    /// How many offers were asked.
    asked: usize,
}

impl TurnAnswers for CastleAnswers {
    fn answer(&mut self, game: &Game, d: &Decision) -> Option<usize> {
        if d.kind != CASTLE_BUILD {
            return None;
        }
        let offers = self.offers.get_or_insert_with(|| castle_offers(game));
        let offer = offers.get(self.asked).copied();
        self.asked += 1;
        let build = offer.and_then(|(at, owner)| {
            self.marks.iter().position(|m| {
                m.player == d.player && owner == d.player && (m.x, m.y, m.segment) == at
            })
        });
        let yes = match build {
            Some(i) => {
                self.marks.remove(i);
                true
            }
            None => false,
        };
        game.option_of(&Choice::Flag { yes }).ok()
    }

    fn after_turn(
        &mut self,
        game: &Game,
        tr: &Translated,
        strict: bool,
    ) -> Result<Vec<TakenDecision>, JczError> {
        let mut unused = Vec::new();
        // castles the save builds that the engine did not offer
        for c in std::mem::take(&mut self.marks) {
            let why = castle_why(game, &c, self.offers.as_deref());
            if strict {
                return Err(JczError {
                    message: Some(c.message),
                    kind: Some("PLACE_TOKEN".into()),
                    text: format!(
                        "an impossible castle: {} builds a castle on the city `{}` of ({},{}), but {why}",
                        tr.names.get(c.player as usize).map_or(seat(c.player), String::as_str),
                        c.location,
                        c.x,
                        c.y
                    ),
                });
            }
            unused.push(TakenDecision {
                turn: game.turn(),
                player: c.player,
                kind: CASTLE_BUILD,
                choice: Choice::Flag { yes: true },
            });
        }
        if strict && self.asked == 0 {
            if let Some(message) = self.pass {
                return Err(JczError {
                    message: Some(message),
                    kind: Some("PASS".into()),
                    text: "a PASS after the follower action declines a castle, but the rules offer none this turn".into(),
                });
            }
        }
        Ok(unused)
    }
}

/// The player's seat name, for the replay's words.
fn seat(p: u8) -> &'static str {
    crate::render::seat_name(p)
}

/// The small cities the tile just placed completed that the engine offers as castles, in its
/// order (the tile's segments in order): exactly two single-edge caps on two tiles, exactly
/// one follower, its owner with a castle token left. The castles module's `find_offers`, read
/// through the game's public view.
fn castle_offers(game: &Game) -> Vec<CastleOffer> {
    let mut out: Vec<CastleOffer> = Vec::new();
    let mut roots: Vec<u32> = Vec::new();
    let Some(t) = game.placed_tiles().last().copied() else {
        return out;
    };
    let rules = game.rules();
    let segs = &rules.tile(t.tile).segments;
    for (k, seg) in segs.iter().enumerate() {
        if seg.kind != FeatureKind::City
            || rules.rules.tiles[t.tile as usize].marks & NO_CASTLE != 0
        {
            continue;
        }
        let root = game.feature_of(t.node0 + k as u32);
        let comp = game.feature(root);
        if comp.open != 0 || comp.done || comp.nfollowers != 1 || roots.contains(&root) {
            continue;
        }
        // exactly two single-edge segments, on two tiles
        let mut n = comp.head;
        let mut tiles = Vec::new();
        let mut small = true;
        while n != NO_NODE {
            let node = game.segment_node(n);
            let Some(p) = game.placed_tiles().get(node.tile as usize) else {
                small = false;
                break;
            };
            let sides = rules
                .tile(p.tile)
                .segments
                .get(node.seg as usize)
                .map_or(0, |s| s.sides);
            if tiles.len() == 2 || sides.count_ones() != 1 {
                small = false;
                break;
            }
            tiles.push(node.tile);
            n = node.next;
        }
        if !small || tiles.len() != 2 || tiles[0] == tiles[1] {
            continue;
        }
        let Some(f) = game
            .followers()
            .iter()
            .find(|f| game.feature_of(f.node) == root)
        else {
            continue;
        };
        if game.castles_left(f.player) > 0 {
            roots.push(root);
            out.push(((t.x, t.y, k as u8), f.player));
        }
    }
    out
}

/// Why the engine offered no castle where the save builds one.
fn castle_why(game: &Game, c: &CastleMark, offers: Option<&[CastleOffer]>) -> String {
    if !game.rules().rules.ext_in_play("castles.") {
        return "this ruleset has no castles".into();
    }
    match offers {
        None => "the rules offer no castle this turn (a castle needs a completed small city with exactly one follower, of a player with a castle token left)".into(),
        Some(o) => match o.iter().find(|(at, _)| *at == (c.x, c.y, c.segment)) {
            Some((_, owner)) if *owner != c.player => {
                format!("the castle there is offered to {}, whose follower holds the city", seat(*owner))
            }
            _ => format!(
                "the rules offer no castle on that city (a completed small city with exactly one follower, of a player with a castle token left; {} has {} left)",
                seat(c.player),
                game.castles_left(c.player)
            ),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::jcz::{load_ruleset, ruleset_text, setup_label};
    use serde_json::json;
    use std::path::Path;

    use crate::import::jcz::test_setup as setup;

    #[test]
    fn the_castle_element_maps_onto_each_parent() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
        // castles alone: the bundled castles ruleset
        let s = Setup {
            sets: vec![("basic:1".into(), 1)],
            basic: 1,
            followers: 7,
            farmers: true,
            ..Setup::default()
        }
        .with(CastlesSetup { on: true });
        let t = ruleset_text(&s, &dir).unwrap();
        assert!(t.contains("castles.rules"), "{t}");
        assert!(!t.contains("castles source"), "{t}");
        assert_eq!(setup_label(&s), "basic:1 + castles");
        let r = load_ruleset(&s, &dir).unwrap();
        assert_eq!(r.ext_int("castles.supply"), Some(3));
        // with gold: JCZ's autopick gold, and castles claiming their vicinity's gold
        let gold = Setup {
            sets: vec![("basic:1".into(), 1), ("goldmines".into(), 1)],
            ..s.clone()
        }
        .with(GoldSetup {
            copies: 1,
            gold: true,
        });
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
}
