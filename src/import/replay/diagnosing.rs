//! Following a record's decisions and explaining the ones that fail: the [`Diagnosing`]
//! chooser takes each recorded choice, and when one is illegal says why from the position at
//! that moment (a feature occupied, a tile that does not fit, …); it keeps the decisions the
//! record lacked. Also the words for a recorded decision the engine never asked for, and
//! for a castle the engine did not offer.

use crate::engine::expansions::castles::CASTLE_BUILD;
use crate::engine::expansions::{crop, gold};
use crate::engine::NO_NODE;
use crate::engine::{
    Choice, Chooser, Decision, DecisionKind, Event, Game, Scripted, TakenDecision,
};
use crate::import::castles::CastleMark;
use crate::import::crop::ANY_PLAYER;
use crate::policy::Policy;
use crate::tiles::FeatureKind;

/// A castle the engine offers: the city's segment on the tile just placed (x, y, segment), and
/// the player asked.
pub(super) type CastleOffer = ((i32, i32, u8), u8);

/// A chooser that follows the script and, when a recorded choice is illegal, says why from
/// the position at that moment; it keeps the decisions the record lacked.
pub(super) struct Diagnosing {
    pub(super) script: Scripted<Policy>,
    /// Decisions the record does not have (kind, player, options), in order.
    pub(super) unrecorded: Vec<(DecisionKind, u8, usize)>,
    /// Players with a recorded crop-circle deploy/pass this turn.
    crop_named: Vec<u8>,
    /// Crop-circle passes recorded without their player ([`ANY_PLAYER`]), still to give.
    crop_passes: usize,
    /// A `.jcz` turn's players with a recorded abbot return (the others keep their abbots:
    /// no message records keeping one); `None` for own records, which record every answer.
    abbot_named: Option<Vec<u8>>,
    /// A `.jcz` turn's castles still to build (`None`: castle offers follow the script).
    pub(super) castles: Option<Vec<CastleMark>>,
    /// The castle offers of this turn as the engine makes them ((x, y, segment), owner), found
    /// at the first ask; and how many were asked.
    pub(super) offers: Option<Vec<CastleOffer>>,
    pub(super) asked: usize,
}

impl Diagnosing {
    pub(super) fn new(script: Scripted<Policy>) -> Diagnosing {
        Diagnosing {
            script,
            unrecorded: Vec::new(),
            crop_named: Vec::new(),
            crop_passes: 0,
            abbot_named: None,
            castles: None,
            offers: None,
            asked: 0,
        }
    }

    /// The same, knowing the turn's recorded decisions (for passes without a player).
    pub(super) fn for_turn(script: Scripted<Policy>, decisions: &[TakenDecision]) -> Diagnosing {
        let mut d = Diagnosing::new(script);
        d.abbot_named = Some(
            decisions
                .iter()
                .filter(|t| t.kind == crate::engine::expansions::abbot::ABBOT_RETURN)
                .map(|t| t.player)
                .collect(),
        );
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
        if seg.kind != FeatureKind::City
            || rules.rules.tiles[t.tile as usize].marks
                & crate::engine::expansions::castles::NO_CASTLE
                != 0
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
        // an abbot the save does not take back stays (no message records keeping it)
        if d.kind == crate::engine::expansions::abbot::ABBOT_RETURN
            && self
                .abbot_named
                .as_ref()
                .is_some_and(|named| !named.contains(&d.player))
        {
            if let Ok(i) = game.option_of(&Choice::Spot { at: None }) {
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

pub(super) fn seat(p: u8) -> &'static str {
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
        (
            DecisionKind::FOLLOWER,
            Choice::Follower {
                segment: Some(s),
                kind: piece,
            },
        ) => {
            let t = game.placed_tiles().last()?;
            let kind = spot_kind(t.x, t.y, s)?;
            if game.supply_of(d.player, piece) == 0 {
                return Some(format!("{} has no {piece} left", seat(d.player)));
            }
            if !piece.spec().may_stand_on(kind) {
                return Some(format!("a {piece} may not stand on a {kind}"));
            }
            if kind == FeatureKind::Field && farms_off {
                return Some("farmers are off in this ruleset".into());
            }
            let occ = game.feature_followers(t.x, t.y, s)?;
            if piece.spec().needs_own {
                if occ[d.player as usize] == 0 {
                    return Some(format!(
                        "a {piece} on the {kind} of ({},{}): {} has no follower on that {kind}",
                        t.x,
                        t.y,
                        seat(d.player)
                    ));
                }
            } else if occ.iter().any(|&n| n > 0) {
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
        _ => crate::import::bcb::explain(game, d, recorded),
    }
}

/// Whether an unasked recorded decision is consistent with what happened in `events` (the
/// engine took the only option without asking).
pub(super) fn effect_seen(d: &TakenDecision, events: &[Event]) -> bool {
    let this = |e: &&Event| e.turn() == Some(d.turn);
    let mut it = events.iter().filter(this);
    match d.choice {
        Choice::Place { x, y, rot } => it.any(|e| {
            matches!(*e, Event::Placed { x: a, y: b, rot: r, .. } if (a, b, r) == (x, y, rot))
        }),
        Choice::Follower { segment: None, .. } | Choice::Spot { at: None } => true,
        // a bridge not built (recorded for each turn with bridges) needs no offer
        Choice::Token { at: None } => true,
        Choice::Follower {
            segment: Some(s),
            kind: piece,
        } => it.any(|e| {
            matches!(*e, Event::FollowerPlaced { player, segment, kind, .. }
                if player == d.player && segment == s && kind == piece)
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
pub(super) fn castle_why(game: &Game, c: &CastleMark, offers: Option<&[CastleOffer]>) -> String {
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

pub(super) fn unasked_why(d: &TakenDecision) -> String {
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
