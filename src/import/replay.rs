//! Replaying records: meeplab's own records and translated `.jcz` saves, under the ruleset
//! they were played under or another one, optionally stopping after a turn; the first
//! divergence between two replays' event streams.
//!
//! A `.jcz` is driven turn by turn with `Game::play_tile` (the active player is the one the
//! save names), its decisions followed by a [`Scripted`] chooser. Under the save's own
//! ruleset ([`JczMode::Own`]) anything the engine does not accept is an error naming the
//! `replay[]` message: an illegal placement, a follower on an occupied feature, a recorded
//! decision the engine never asked for and whose effect did not happen. What the save does
//! not settle is never guessed: a decision the rules ask for that it does not record, a
//! turn it stops inside, a tile that is not JCloisterZone's draw (its pack is reproduced,
//! see [`crate::import::draws`], which also finds its discards and the end of the game) are
//! errors too, unless `OnIllegal::Policy` lets the policy fill them in, each with a warning.
//! Under another ruleset the same things are reported, and `OnIllegal` decides what happens.

use crate::engine::expansions::castles::CASTLE_BUILD;
use crate::engine::expansions::{crop, gold};
use crate::engine::script::describe;
use crate::engine::NO_NODE;
use crate::engine::{
    Choice, Chooser, Compiled, Decision, DecisionKind, Event, Game, OnIllegal, Scripted,
    TakenDecision,
};
use crate::import::draws::{DrawError, DrawPlan, Pack};
use crate::import::jcz::{plain_twin, CastleMark, JczError, Translated, ANY_PLAYER};
use crate::policy::{Policy, PolicyKind};
use crate::record::{GameRecord, Replayed};
use crate::ruleset::Ruleset;
use crate::tiles::FeatureKind;
use serde_json::Value;
use std::sync::Arc;

/// A castle the engine offers: the city's segment on the tile just placed (x, y, segment), and
/// the player asked.
type CastleOffer = ((i32, i32, u8), u8);

/// A chooser that follows the script and, when a recorded choice is illegal, says why from
/// the position at that moment; it keeps the decisions the record lacked.
struct Diagnosing {
    script: Scripted<Policy>,
    /// Decisions the record does not have (kind, player, options), in order.
    unrecorded: Vec<(DecisionKind, u8, usize)>,
    /// Players with a recorded crop-circle deploy/pass this turn.
    crop_named: Vec<u8>,
    /// Crop-circle passes recorded without their player ([`ANY_PLAYER`]), still to give.
    crop_passes: usize,
    /// A `.jcz` turn's castles still to build (`None`: castle offers follow the script).
    castles: Option<Vec<CastleMark>>,
    /// The castle offers of this turn as the engine makes them ((x, y, segment), owner), found
    /// at the first ask; and how many were asked.
    offers: Option<Vec<CastleOffer>>,
    asked: usize,
}

impl Diagnosing {
    fn new(script: Scripted<Policy>) -> Diagnosing {
        Diagnosing {
            script,
            unrecorded: Vec::new(),
            crop_named: Vec::new(),
            crop_passes: 0,
            castles: None,
            offers: None,
            asked: 0,
        }
    }

    /// The same, knowing the turn's recorded decisions (for passes without a player).
    fn for_turn(script: Scripted<Policy>, decisions: &[TakenDecision]) -> Diagnosing {
        let mut d = Diagnosing::new(script);
        for t in decisions
            .iter()
            .filter(|t| t.kind == crate::engine::expansions::crop::CROP_DEPLOY)
        {
            if t.player == ANY_PLAYER {
                d.crop_passes += 1;
            } else {
                d.crop_named.push(t.player);
            }
        }
        d
    }
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
        if seg.kind != FeatureKind::City {
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

impl Diagnosing {
    /// A castle offer of a `.jcz` turn: build it when the save builds a castle on that city,
    /// else score the city (JCloisterZone asks each player once, and a PASS ends its castle
    /// step: whatever the save does not build was scored).
    fn castle_answer(&mut self, game: &Game, d: &Decision) -> Option<usize> {
        let marks = self.castles.as_mut()?;
        let offers = self.offers.get_or_insert_with(|| castle_offers(game));
        let offer = offers.get(self.asked).copied();
        self.asked += 1;
        let build = offer.and_then(|(at, owner)| {
            marks.iter().position(|m| {
                m.player == d.player && owner == d.player && (m.x, m.y, m.segment) == at
            })
        });
        let yes = match build {
            Some(i) => {
                marks.remove(i);
                true
            }
            None => false,
        };
        game.option_of(&Choice::Flag { yes }).ok()
    }
}

impl Chooser for Diagnosing {
    fn choose(&mut self, game: &Game, d: &Decision) -> usize {
        if d.kind == CASTLE_BUILD {
            if let Some(i) = self.castle_answer(game, d) {
                return i;
            }
        }
        if d.kind == crate::engine::expansions::crop::CROP_DEPLOY
            && self.crop_passes > 0
            && !self.crop_named.contains(&d.player)
        {
            let pass = Choice::Spot { at: None };
            if let Ok(i) = game.option_of(&pass) {
                self.crop_passes -= 1;
                return i;
            }
        }
        let before = self.script.problems.len();
        let unrecorded = self.script.unrecorded;
        let i = self.script.choose(game, d);
        if self.script.unrecorded > unrecorded {
            self.unrecorded.push((d.kind, d.player, d.options));
        }
        if self.script.problems.len() > before {
            if let Some(p) = self.script.problems.last_mut() {
                if let Some(why) = explain(game, d, &p.recorded) {
                    p.why = why;
                }
            }
        }
        i
    }
}

fn seat(p: u8) -> &'static str {
    crate::render::seat_name(p)
}

fn occupied_by(occ: &[u8]) -> String {
    let who: Vec<&str> = occ
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .map(|(p, _)| seat(p as u8))
        .collect();
    who.join(" and ")
}

/// Why a recorded choice is not legal now (None: no better words than the script's).
fn explain(game: &Game, d: &Decision, recorded: &Choice) -> Option<String> {
    let rules = &game.rules().rules;
    let farms_off = rules.scoring.farm == crate::ruleset::FarmRule::Off;
    let spot_kind = |x: i32, y: i32, s: u8| -> Option<FeatureKind> {
        let t = game.placed_tiles().get(game.tile_at(x, y)?)?;
        rules.tiles[t.tile as usize]
            .features
            .get(s as usize)
            .map(|f| f.kind)
    };
    match (d.kind, *recorded) {
        (DecisionKind::FOLLOWER, Choice::Follower { segment: Some(s) }) => {
            let t = game.placed_tiles().last()?;
            let kind = spot_kind(t.x, t.y, s)?;
            if game.supply(d.player) == 0 {
                return Some(format!("{} has no follower left", seat(d.player)));
            }
            if kind == FeatureKind::Field && farms_off {
                return Some("farmers are off in this ruleset".into());
            }
            let occ = game.feature_followers(t.x, t.y, s)?;
            if occ.iter().any(|&n| n > 0) {
                return Some(format!(
                    "a follower on the {kind} of ({},{}): that {kind} is already occupied by {}",
                    t.x,
                    t.y,
                    occupied_by(&occ)
                ));
            }
            None
        }
        (
            crate::engine::expansions::crop::CROP_DEPLOY,
            Choice::Spot {
                at: Some((x, y, s)),
            },
        )
        | (
            crate::engine::expansions::crop::CROP_REMOVE,
            Choice::Spot {
                at: Some((x, y, s)),
            },
        ) => {
            let kind = spot_kind(x, y, s)?;
            let mine = game
                .followers()
                .iter()
                .any(|f| f.player == d.player && game.node_spot(f.node) == (x, y, s));
            if !mine {
                return Some(format!(
                    "{} has no follower on the {kind} at ({x},{y}) (segment {s})",
                    seat(d.player)
                ));
            }
            None
        }
        (crate::engine::expansions::crop::CROP_DEPLOY, Choice::Spot { at: None }) => {
            Some("passing is not allowed: this ruleset makes deploying mandatory".into())
        }
        _ => None,
    }
}

/// A replay and what it met on the way.
pub struct Run {
    pub replayed: Replayed,
    /// Recorded decisions the engine never asked for.
    pub unused: Vec<TakenDecision>,
    /// Remarks for the reader (discarded tiles, tiles that fit nowhere under another
    /// ruleset, …).
    pub notes: Vec<String>,
    /// What meeplab filled in or could not check because the user allowed it
    /// (`--on-illegal policy`): never silent, printed as warnings.
    pub warnings: Vec<String>,
    /// The record reaches the end of the game (the pack is exhausted): final scoring is due.
    pub record_over: bool,
}

/// Whether an unasked recorded decision is consistent with what happened in `events` (the
/// engine took the only option without asking).
fn effect_seen(d: &TakenDecision, events: &[Event]) -> bool {
    let this = |e: &&Event| e.turn() == Some(d.turn);
    let mut it = events.iter().filter(this);
    match d.choice {
        Choice::Place { x, y, rot } => it.any(|e| {
            matches!(*e, Event::Placed { x: a, y: b, rot: r, .. } if (a, b, r) == (x, y, rot))
        }),
        Choice::Follower { segment: None } | Choice::Spot { at: None } => true,
        Choice::Follower { segment: Some(s) } => it.any(|e| {
            matches!(*e, Event::FollowerPlaced { player, segment, .. }
                if player == d.player && segment == s)
        }),
        Choice::Ingot { x, y } => it.any(|e| {
            let v = e.of(gold::INGOT_PLACED).or_else(|| e.of(gold::INGOT_TAKEN));
            v.is_some_and(|v| (v[2], v[3]) == (x as i64, y as i64))
        }),
        Choice::CropMode { deploy } => it.any(|e| {
            e.of(crop::CROP_CHOICE)
                .is_some_and(|v| (v[3] != 0) == deploy)
        }),
        Choice::Tile { tile } => it.any(|e| {
            matches!(*e, Event::Chosen { player, tile: t, .. } if player == d.player && t == tile)
        }),
        Choice::Spot { at: Some((x, y, segment)) } => it.any(|e| {
            let v = e.of(crop::CROP_DEPLOYED).or_else(|| e.of(crop::CROP_REMOVED));
            v.is_some_and(|v| {
                v[1] == d.player as i64 && (v[2], v[3], v[4]) == (x as i64, y as i64, segment as i64)
            })
        }),
        _ => false,
    }
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

fn unasked_why(d: &TakenDecision) -> String {
    match d.kind {
        DecisionKind::FOLLOWER => {
            "no follower could be placed there (occupied feature, farmers off, or no follower left)"
                .into()
        }
        crate::engine::expansions::crop::CROP_MODE => "this tile has no crop-circle action in this game".into(),
        crate::engine::expansions::crop::CROP_DEPLOY | crate::engine::expansions::crop::CROP_REMOVE => format!(
            "{} has no crop-circle action now (no follower of that type on the board, or none in supply)",
            seat(d.player)
        ),
        crate::engine::expansions::gold::INGOT_PLACE => "no ingot goes there".into(),
        _ => "the engine never asked for it".into(),
    }
}

/// Which replay of a save: under its own (mapped) ruleset, or under another one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JczMode {
    /// The save's own ruleset: every disagreement is an error naming the message, the
    /// tiles are checked against JCloisterZone's draws, and the end of the game is decided
    /// from them. With `OnIllegal::Policy`, what the save does not settle is filled in by
    /// the policy instead, with a warning.
    Own,
    /// Another ruleset: the same tiles and decisions; `record_over` (from the own replay)
    /// says whether the game ended in the record.
    Other { record_over: bool },
}

/// The next tile JCloisterZone gives a player: drawn tiles that fit nowhere are discarded
/// (returned too). `Ok(None)`: the pack is exhausted.
fn next_placeable(
    pack: &mut Pack,
    game: &Game,
    rules: &Ruleset,
) -> Result<(Option<String>, Vec<String>), DrawError> {
    let mut discarded = Vec::new();
    while let Some(id) = pack.draw()? {
        let fits = rules
            .tile_by_jcz(plain_twin(&id))
            .is_some_and(|t| game.fits_anywhere(t));
        if fits {
            return Ok((Some(id), discarded));
        }
        discarded.push(id);
    }
    Ok((None, discarded))
}

/// Replay a translated `.jcz` under `rules` (see [`JczMode`]). `stop_after`: stop (without
/// final scoring) after that turn.
///
/// Each recorded turn gets its own script, renumbered to the turn the engine is at, so a
/// tile another ruleset does not know (or that fits nowhere there) shifts nothing after it.
pub fn replay_jcz(
    rules: &Arc<Compiled>,
    tr: &Translated,
    players: u8,
    on_illegal: OnIllegal,
    fallback: PolicyKind,
    mode: JczMode,
    stop_after: Option<u32>,
) -> Result<Run, JczError> {
    if rules.rules.hand > 1 {
        return Err(JczError::new(format!(
            "{} plays with a hand of {} tiles (the `hand` house rule); JCloisterZone saves \
             have no hands (each player draws a tile and plays it), so they replay only under \
             rulesets with `hand = 1`",
            rules.rules.name, rules.rules.hand
        )));
    }
    let strict = mode == JczMode::Own;
    let lenient = on_illegal == OnIllegal::Policy;
    let r = &rules.rules;
    let room = rules.rules.total_tiles().max(tr.draws.len() + 1);
    let mut game = Game::with_room_for(rules.clone(), 0, players, room);
    let mut events = Vec::new();
    let mut notes = Vec::new();
    let mut warnings = Vec::new();
    let mut unused: Vec<TakenDecision> = Vec::new();
    let mut unknown = Vec::new();
    let mut problems = Vec::new();
    let mut unrecorded = 0;
    let last_message = tr.draws.last().map_or(0, |d| d.message);
    let reaches_end = stop_after.is_none_or(|s| s as usize >= tr.draws.len());
    if strict && reaches_end {
        if let Some((index, why)) = &tr.open_turn {
            if !lenient {
                return Err(JczError {
                    message: Some(*index),
                    kind: None,
                    text: format!("{why}; meeplab replays whole turns and will not guess the rest (--on-illegal policy lets the {fallback} policy finish it)"),
                });
            }
            warnings.push(format!(
                "replay message {index}: {why}; the {fallback} policy finishes the turn"
            ));
        }
    }
    // JCloisterZone's pack, reproduced (own ruleset only); None once it cannot be followed
    let mut pack = strict.then(|| Pack::new(&tr.plan));
    let mut discarded: Vec<String> = Vec::new();
    let lose_pack = |pack: &mut Option<Pack>,
                     message: usize,
                     text: String,
                     warnings: &mut Vec<String>|
     -> Result<(), JczError> {
        if !lenient {
            return Err(JczError {
                message: Some(message),
                kind: Some("PLACE_TILE".into()),
                text: format!("{text} (--on-illegal policy replays the placed tiles anyway)"),
            });
        }
        warnings.push(format!(
            "replay message {message}: {text}; the draws are not checked from here, and the end of the game is decided from the tiles left"
        ));
        *pack = None;
        Ok(())
    };
    game.setup(&mut events);
    let mut halted = false;
    let mut stopped = false;
    for (k, draw) in tr.draws.iter().enumerate() {
        if stop_after.is_some_and(|s| game.turn() >= s) {
            stopped = true;
            break;
        }
        if let Some(p) = pack.as_mut() {
            if let Some(rv) = draw.random_before {
                p.set_random(rv);
            }
            let drawn = next_placeable(p, &game, r);
            let n = p.draws;
            match drawn {
                Ok((got, gone)) => {
                    for id in gone {
                        notes.push(format!(
                            "JCloisterZone drew {id} before turn {} and discarded it: it fits nowhere",
                            k + 1
                        ));
                        discarded.push(id);
                    }
                    match got {
                        Some(id) if id == draw.jcz_id => {}
                        Some(id) => lose_pack(
                            &mut pack,
                            draw.message,
                            format!(
                                "JCloisterZone draws {id} for turn {} ({}), but the save places {}",
                                k + 1,
                                draw_source(&tr.plan, n),
                                draw.jcz_id
                            ),
                            &mut warnings,
                        )?,
                        None => lose_pack(
                            &mut pack,
                            draw.message,
                            format!(
                                "a tile placed after the end of the pack (turn {}): JCloisterZone's game is over",
                                k + 1
                            ),
                            &mut warnings,
                        )?,
                    }
                }
                Err(DrawError::NoRandom) => {
                    notes.push(format!(
                        "the draws are not checked from turn {}: {}",
                        k + 1,
                        DrawError::NoRandom
                    ));
                    pack = None;
                }
                Err(e) => lose_pack(&mut pack, draw.message, e.to_string(), &mut warnings)?,
            }
        }
        let Some(tile) = r.tile_index(&draw.id) else {
            notes.push(format!(
                "recorded turn {}: this ruleset has no tile {}; left out",
                k + 1,
                draw.id
            ));
            unknown.push(draw.id.clone());
            continue;
        };
        if strict && !game.placement_legal(tile, draw.x, draw.y, draw.rot) {
            let why = if game.tile_at(draw.x, draw.y).is_some() {
                "the place already holds a tile"
            } else if !touches(&game, draw.x, draw.y) {
                "it touches no tile on the board"
            } else {
                "its edges do not match the neighbouring tiles"
            };
            return Err(JczError {
                message: Some(draw.message),
                kind: Some("PLACE_TILE".into()),
                text: format!(
                    "illegal placement of {} at ({},{}) turned {}°: {why}",
                    draw.id,
                    draw.x,
                    draw.y,
                    draw.rot as u32 * 90
                ),
            });
        }
        let turn = game.turn() + 1;
        let recorded: Vec<usize> = (0..tr.decisions.len())
            .filter(|&i| tr.decisions[i].turn == k as u32 + 1)
            .collect();
        let script: Vec<TakenDecision> = recorded
            .iter()
            .map(|&i| TakenDecision {
                turn,
                ..tr.decisions[i].clone()
            })
            .collect();
        let origin = |d: &TakenDecision| {
            script
                .iter()
                .position(|x| x == d)
                .map(|j| tr.origins[recorded[j]])
        };
        let mut chooser = Diagnosing::for_turn(
            Scripted::new(script.clone(), Policy::new(fallback), on_illegal),
            &script,
        );
        chooser.castles = Some(
            tr.castles
                .iter()
                .filter(|c| c.turn == k as u32 + 1)
                .cloned()
                .collect(),
        );
        if let Err(e) = game.play_tile(tile, draw.player, &mut chooser, &mut events) {
            if strict {
                return Err(JczError {
                    message: Some(draw.message),
                    kind: Some("PLACE_TILE".into()),
                    text: e,
                });
            }
            notes.push(format!(
                "recorded turn {}: {e}; the tile is left out",
                k + 1
            ));
            continue;
        }
        unrecorded += chooser.script.unrecorded;
        if let Some(p) = chooser.script.problems.first() {
            if strict {
                let d = TakenDecision {
                    turn: p.turn,
                    player: p.player,
                    kind: p.kind,
                    choice: p.recorded,
                };
                return Err(JczError {
                    message: origin(&d),
                    kind: None,
                    text: format!("illegal {}: {}", describe(&p.recorded), p.why),
                });
            }
        }
        if strict {
            if let Some(&(kind, player, options)) = chooser.unrecorded.first() {
                let text = format!(
                    "turn {}: the rules ask {} for {} ({options} options), which the save does not record — the save and its mapped rules disagree",
                    k + 1,
                    tr.names
                        .get(player as usize)
                        .map_or(seat(player), String::as_str),
                    kind_words(kind)
                );
                if !lenient {
                    return Err(JczError {
                        message: Some(draw.message),
                        kind: Some("PLACE_TILE".into()),
                        text: format!(
                            "{text} (--on-illegal policy lets the {fallback} policy decide)"
                        ),
                    });
                }
                warnings.push(format!(
                    "replay message {}: {text}; the {fallback} policy decided",
                    draw.message
                ));
            }
        }
        problems.extend(chooser.script.problems.iter().cloned());
        // castles the save builds that the engine did not offer
        for c in chooser.castles.take().unwrap_or_default() {
            let why = castle_why(&game, &c, chooser.offers.as_deref());
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
        if strict && chooser.asked == 0 {
            if let Some(&(_, message)) = tr.castle_passes.iter().find(|p| p.0 == k as u32 + 1) {
                return Err(JczError {
                    message: Some(message),
                    kind: Some("PASS".into()),
                    text: "a PASS after the follower action declines a castle, but the rules offer none this turn".into(),
                });
            }
        }
        for d in chooser.script.unused() {
            if effect_seen(d, &events) {
                continue;
            }
            if strict {
                return Err(JczError {
                    message: origin(d),
                    kind: None,
                    text: format!(
                        "{} was not possible: {}",
                        describe(&d.choice),
                        unasked_why(d)
                    ),
                });
            }
            unused.push(d.clone());
        }
        if chooser.script.halted() {
            halted = true;
            break;
        }
    }
    let record_over = match mode {
        JczMode::Other { record_over } => record_over,
        JczMode::Own if stopped || halted => false,
        JczMode::Own if tr.open_turn.is_some() => false,
        JczMode::Own => {
            let mut over = None;
            if let Some(p) = pack.as_mut() {
                if let Some(rv) = tr.random_after {
                    p.set_random(rv);
                }
                match next_placeable(p, &game, r) {
                    Ok((next, gone)) => {
                        for id in gone {
                            notes.push(format!(
                                "JCloisterZone drew {id} after the last turn and discarded it: it fits nowhere"
                            ));
                            discarded.push(id);
                        }
                        if let Some(id) = &next {
                            notes.push(format!(
                                "the save stops before the pack is empty: JCloisterZone's next draw is {id}"
                            ));
                        }
                        over = Some(next.is_none());
                    }
                    Err(e) => notes.push(format!(
                        "the end of the game is decided from the tiles left: {e}"
                    )),
                }
            }
            match over {
                Some(o) => o,
                None => over_from_contents(tr, &game, r, &discarded, lenient, last_message).map(
                    |(o, w)| {
                        warnings.extend(w);
                        o
                    },
                )?,
            }
        }
    };
    let finished = !halted && !stopped && record_over;
    if finished {
        let mut chooser = Scripted::new(Vec::new(), Policy::new(fallback), on_illegal);
        game.finish(&mut chooser, &mut events);
        unrecorded += chooser.unrecorded;
    }
    Ok(Run {
        replayed: Replayed {
            outcome: game.outcome(),
            events,
            problems,
            unrecorded,
            unknown_tiles: unknown,
            halted,
            finished,
            game,
        },
        unused,
        notes,
        warnings,
        record_over,
    })
}

/// Where JCloisterZone's draw number `n` (1-based) comes from.
fn draw_source(plan: &DrawPlan, n: u32) -> String {
    if (n as usize) <= plan.forced.len() {
        format!("gameAnnotations.drawOrder[{}]", n.saturating_sub(1))
    } else {
        "from the save's random values".into()
    }
}

fn kind_words(k: DecisionKind) -> &'static str {
    match k {
        DecisionKind::FOLLOWER => "a follower placement",
        crate::engine::expansions::gold::INGOT_PLACE => "the second ingot's tile",
        crate::engine::expansions::crop::CROP_MODE => "the crop-circle choice (deploy or remove)",
        crate::engine::expansions::crop::CROP_DEPLOY => "a crop-circle follower (deploy or pass)",
        crate::engine::expansions::crop::CROP_REMOVE => "a crop-circle follower to return",
        DecisionKind::TILE_PICK => "the tile to play from the hand",
        _ => "a decision",
    }
}

/// The end of the game from the tiles left in the sets, when JCloisterZone's draws cannot
/// be reproduced: over when none is left or none of them fits (JCloisterZone discards them
/// all), or when the draw limit is reached. Tiles left that still fit make it undecidable
/// (in progress, or discarded earlier?): an error, or with `lenient` a warning and "in
/// progress".
fn over_from_contents(
    tr: &Translated,
    game: &Game,
    rules: &Ruleset,
    discarded: &[String],
    lenient: bool,
    last_message: usize,
) -> Result<(bool, Vec<String>), JczError> {
    if let Some(l) = tr.plan.limit {
        if tr.draws.len() + discarded.len() >= l as usize {
            return Ok((true, Vec::new()));
        }
    }
    let mut left = tr.left_in_pack.clone();
    for id in discarded {
        if let Some(t) = rules.tile_by_jcz(plain_twin(id)) {
            if let Some(i) = left.iter().position(|&x| x == t) {
                left.remove(i);
            }
        }
    }
    let fitting: Vec<&str> = left
        .iter()
        .filter(|&&t| game.fits_anywhere(t))
        .map(|&t| rules.tiles[t as usize].id.as_str())
        .collect();
    if fitting.is_empty() {
        return Ok((true, Vec::new()));
    }
    let mut names = fitting.clone();
    names.dedup();
    let text = format!(
        "cannot tell whether the game is over: {} tile(s) of the sets were never placed and fit the board ({}), and without JCloisterZone's random values meeplab cannot tell whether they were discarded earlier or are still in the pack",
        fitting.len(),
        names.join(", ")
    );
    if !lenient {
        return Err(JczError {
            message: Some(last_message),
            kind: None,
            text: format!("{text} (--on-illegal policy treats the game as in progress)"),
        });
    }
    Ok((
        false,
        vec![format!("{text}; treated as in progress (no final scoring)")],
    ))
}

fn touches(game: &Game, x: i32, y: i32) -> bool {
    [(0, -1), (1, 0), (0, 1), (-1, 0)].iter().any(|(dx, dy)| {
        game.tile_at(x.saturating_add(*dx), y.saturating_add(*dy))
            .is_some()
    })
}

/// Replay one of meeplab's own records (as `record::replay`, with an optional stop).
pub fn replay_record(
    rules: &Arc<Compiled>,
    record: &GameRecord,
    on_illegal: OnIllegal,
    fallback: PolicyKind,
    stop_after: Option<u32>,
) -> Run {
    let mut chooser = Diagnosing::new(Scripted::new(
        record.decisions.clone(),
        Policy::new(fallback),
        on_illegal,
    ));
    let driven = crate::record::drive(rules, record, &mut chooser, stop_after, |c| {
        c.script.halted()
    });
    let unknown = driven.unknown_tiles;
    let (game, events, halted, finished) =
        (driven.game, driven.events, driven.halted, driven.finished);
    let unused: Vec<TakenDecision> = chooser.script.unused().cloned().collect();
    let mut notes = Vec::new();
    if !unknown.is_empty() {
        notes.push(format!(
            "tiles this ruleset does not know were left out: {}",
            unknown.join(", ")
        ));
    }
    Run {
        replayed: Replayed {
            outcome: game.outcome(),
            events,
            problems: chooser.script.problems.clone(),
            unrecorded: chooser.script.unrecorded,
            unknown_tiles: unknown,
            halted,
            finished,
            game,
        },
        unused,
        notes,
        warnings: Vec::new(),
        record_over: record.complete,
    }
}

/// The first place two replays' event streams differ.
#[derive(Clone, Debug)]
pub struct Divergence {
    /// Index into both event lists.
    pub index: usize,
    /// The turn it happened in (`None`: set-up or final gold).
    pub turn: Option<u32>,
    pub a: Option<Value>,
    pub b: Option<Value>,
    pub a_text: String,
    pub b_text: String,
}

/// An event as JSON with tile indices replaced by tile ids (indices differ between rulesets).
pub fn event_json(rules: &Ruleset, e: &Event) -> Value {
    let mut v = serde_json::to_value(e).unwrap_or(Value::Null);
    if let Some(t) = v.get_mut("tile") {
        if let Some(i) = t.as_u64() {
            if let Some(tt) = rules.tiles.get(i as usize) {
                *t = Value::String(tt.id.clone());
            }
        }
    }
    v
}

fn event_text(rules: &Ruleset, e: &Event) -> String {
    crate::render::narrate::describe(rules, e)
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|| e.kind().replace('_', " "))
}

/// Compare two event streams (tiles by id); `None` when they are identical.
pub fn first_divergence(
    ra: &Ruleset,
    a: &[Event],
    rb: &Ruleset,
    b: &[Event],
) -> Option<Divergence> {
    let n = a.len().max(b.len());
    for i in 0..n {
        let ja = a.get(i).map(|e| event_json(ra, e));
        let jb = b.get(i).map(|e| event_json(rb, e));
        if ja != jb {
            let turn = a.get(i).or(b.get(i)).and_then(Event::turn);
            return Some(Divergence {
                index: i,
                turn,
                a_text: a
                    .get(i)
                    .map_or("(no more events)".into(), |e| event_text(ra, e)),
                b_text: b
                    .get(i)
                    .map_or("(no more events)".into(), |e| event_text(rb, e)),
                a: ja,
                b: jb,
            });
        }
    }
    None
}
