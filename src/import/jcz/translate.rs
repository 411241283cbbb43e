//! The translation of a save's message log into meeplab's terms: the placed tiles (with
//! what JCloisterZone's draws need) and the semantic decisions, checked against
//! JCloisterZone's message order (see [the turn](super#the-turn-as-jcloisterzone-writes-it)
//! and [the translation](super#the-translation)). A [`Translator`] walks the messages; each
//! message type has its own handler, which checks where the turn is ([`Step`]) and records
//! what the message decides. A new message type is a new `Msg` variant, an arm in
//! `Translator::message` and its handler.

use super::geometry::{canonical_rot, segment_for, small_city_at};
use super::mapping::plain_twin;
use super::meeples::{check_meeple, meeple_follower_kind, meeple_owner};
use super::message::{Message, Msg, Pointer};
use super::save::JczGame;
use super::translated::{CastleMark, Draw, Translated};
use super::{JczError, START_TILE};
use crate::engine::{Choice, DecisionKind, TakenDecision};
use crate::import::bcb::{self, BcbMsg};
use crate::import::draws::{self, DrawPlan};
use crate::ruleset::{Ruleset, TileIdx};
use std::collections::HashMap;

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

/// Translate the message log into placed tiles and decisions under `rules` (the mapped
/// ruleset), checking JCloisterZone's message order.
pub fn translate(g: &JczGame, rules: &Ruleset) -> Result<Translated, JczError> {
    let mut t = Translator::new(g, rules)?;
    for m in &g.messages {
        t.message(m)?;
    }
    t.finish()
}

/// `castled`'s bit for the castle step's `PASS` (the low bits are the players who built).
const CASTLE_STEP_PASSED: u8 = 0x80;

/// The translation under way: the board as the save builds it, the tiles left, where the
/// turn is in JCloisterZone's order, and the record so far.
struct Translator<'a> {
    g: &'a JczGame,
    rules: &'a Ruleset,
    /// The tiles placed: (tile, normalised rotation) by position.
    board: HashMap<(i32, i32), (TileIdx, u8)>,
    /// Copies of each tile the sets still hold.
    left: HashMap<TileIdx, i64>,
    out: Translated,
    /// Turns begun (the recorded turn, 1-based, once the first `PLACE_TILE` is read).
    turn: u32,
    active: u8,
    placed_at: (i32, i32),
    step: Step,
    /// The turn's follower action (`DEPLOY_MEEPLE` or `PASS`) was read.
    followed: bool,
    /// The castle step (after the follower action, before `COMMIT`): the players who built
    /// a castle this turn, and [`CASTLE_STEP_PASSED`].
    castled: u8,
    /// The castle step began (a castle built or declined).
    castle_step: bool,
    /// The `random` of the last message that set one since the last `PLACE_TILE`.
    random: Option<f64>,
    /// Builders' double turns read so far, and whether the last turn was one (see
    /// [`crate::import::traders::double_turn`]).
    double_turns: (u32, bool),
    /// The meeple flown this turn, until it lands (see [`crate::import::flier`]).
    flying: Option<String>,
    /// A ferry message came this turn (a later `PASS` declines a move).
    ferried: bool,
    /// The decision index of a move declined by a `PASS` that may have been the follower's
    /// (see [`crate::import::ferries`]), dropped when a ferry message follows.
    maybe_no_move: Option<usize>,
}

/// The message being translated: its index and type (for errors) and its sender (`player`
/// when written, else the owner of the meeple moved).
struct Current {
    index: usize,
    name: &'static str,
    from: Option<u8>,
}

impl Current {
    fn err(&self, text: impl Into<String>) -> JczError {
        JczError::at(self.index, self.name, text)
    }
}

impl<'a> Translator<'a> {
    fn new(g: &'a JczGame, rules: &'a Ruleset) -> Result<Translator<'a>, JczError> {
        let mut board = HashMap::new();
        board.insert((0, 0), (rules.start, 0));
        let mut left: HashMap<TileIdx, i64> = rules
            .deck
            .iter()
            .map(|d| (d.tile, d.count as i64))
            .collect();
        if let Some(c) = left.get_mut(&rules.start) {
            *c -= 1;
        }
        let start = rules.tiles[rules.start as usize].jcz_id.as_deref();
        let pack =
            draws::build_pack(&g.setup.sets, start.unwrap_or(START_TILE)).map_err(JczError::new)?;
        let out = Translated {
            draws: Vec::new(),
            decisions: Vec::new(),
            origins: Vec::new(),
            plan: DrawPlan {
                pack,
                river: g.setup.part::<crate::import::river::RiverSetup>().element,
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
            parts: Default::default(),
            flier_rolls: Vec::new(),
        };
        Ok(Translator {
            g,
            rules,
            board,
            left,
            out,
            turn: 0,
            active: 0,
            placed_at: (0, 0),
            step: Step::Committed,
            followed: false,
            castled: 0,
            castle_step: false,
            random: None,
            double_turns: (0, false),
            flying: None,
            ferried: false,
            maybe_no_move: None,
        })
    }

    /// One message: the checks every message gets, then its type's handler.
    fn message(&mut self, m: &Message) -> Result<(), JczError> {
        let at = self.current(m)?;
        match &m.msg {
            Msg::PlaceTile { tile, rot, x, y } => self.place_tile(&at, m, tile, *rot, (*x, *y)),
            Msg::Commit => self.commit(&at),
            Msg::Gold { x, y } => self.gold(&at, *x, *y),
            Msg::Castle(p) => self.castle(&at, p),
            Msg::Pass => self.pass(&at),
            Msg::Deploy(p) => self.deploy(&at, p),
            Msg::CropChoice { deploy } => self.crop_choice(&at, *deploy),
            Msg::Return(p) => self.return_follower(&at, p),
            Msg::AbbotReturn(p) => self.abbot_return(&at, p),
            Msg::Fly(p) => self.fly(&at, p, m.random),
            Msg::Part(p) => match (
                p.get::<BcbMsg>(),
                p.get::<crate::import::magewitch::MwMsg>(),
            ) {
                (Some(b), _) => self.bcb(&at, Some(b)),
                (_, Some(mw)) => self.magewitch(&at, mw),
                _ => Err(JczError::at(
                    m.index,
                    p.kind,
                    "no translation of this part's message",
                )),
            },
            Msg::Ferry { x, y, way } => self.ferry(&at, *x, *y, *way),
        }?;
        if let Some(r) = m.random {
            self.random = Some(r);
        }
        Ok(())
    }

    /// The message's sender, checked: no message before the first `PLACE_TILE`, the player
    /// exists, a meeple moved is one of the sender's small followers.
    fn current(&self, m: &Message) -> Result<Current, JczError> {
        let n = self.g.players.len() as u32;
        let mut at = Current {
            index: m.index,
            name: m.msg.name(),
            from: m.player,
        };
        if self.turn == 0 && !matches!(m.msg, Msg::PlaceTile { .. }) {
            return Err(at.err("comes before the first PLACE_TILE"));
        }
        if let Some(p) = m.player {
            if p as u32 >= n {
                return Err(at.err(format!("player {p} does not exist ({n} players)")));
            }
        }
        if let Msg::Deploy(p) | Msg::Return(p) | Msg::AbbotReturn(p) | Msg::Fly(p) = &m.msg {
            at.from = m.player.or_else(|| meeple_owner(&p.meeple));
            let who = at.from.ok_or_else(|| {
                at.err(format!(
                    "payload meepleId `{}` is not a JCloisterZone meeple id (`P.small.N`)",
                    p.meeple
                ))
            })?;
            check_meeple(&p.meeple, who, &self.g.setup).map_err(|e| at.err(e))?;
        }
        Ok(at)
    }

    fn player_name(&self, p: u8) -> String {
        self.g.players[p as usize].clone()
    }

    /// Keep a decision and the message it came from.
    fn record(&mut self, at: &Current, d: TakenDecision) {
        self.out.decisions.push(d);
        self.out.origins.push(at.index);
    }

    /// Record decision `kind` answered `choice` by the active player in this turn.
    fn record_active(&mut self, at: &Current, kind: DecisionKind, choice: Choice) {
        let (turn, player) = (self.turn, self.active);
        self.record(
            at,
            TakenDecision {
                turn,
                player,
                kind,
                choice,
            },
        );
    }

    /// The segment a pointer names on the board as the save has built it.
    fn segment_at(&self, at: &Current, p: &Pointer) -> Result<(i32, i32, u8), JczError> {
        let (t, r) = *self
            .board
            .get(&(p.x, p.y))
            .ok_or_else(|| at.err(format!("payload pointer: no tile at ({},{})", p.x, p.y)))?;
        let tile = &self.rules.tiles[t as usize];
        let seg = segment_for(tile, r, p.feature, &p.location)
            .or_else(|e| bcb::bridge_segment(tile, p).ok_or(e))
            .map_err(|e| at.err(format!("payload pointer: {e}")))?;
        Ok((p.x, p.y, seg))
    }

    /// A message that acts in the active player's turn must come from the active player.
    fn check_active(&self, at: &Current) -> Result<(), JczError> {
        match at.from {
            Some(p) if p != self.active => Err(at.err(format!(
                "wrong player: {} acts in {}'s turn",
                self.player_name(p),
                self.player_name(self.active)
            ))),
            _ => Ok(()),
        }
    }

    /// The error for a message that only the turn's main step or the crop-circle step takes,
    /// sent after the turn's `COMMIT`, or while a crop-circle action awaits its `COMMIT`.
    fn out_of_order(&self, at: &Current) -> JczError {
        match self.step {
            Step::Crop {
                pending: Some(p), ..
            } => at.err(format!(
                "{} acted in the crop-circle step and must COMMIT first",
                self.player_name(p)
            )),
            _ => at.err("comes after the turn's COMMIT and before the next PLACE_TILE"),
        }
    }

    /// `PLACE_TILE`: a new turn (the previous one complete), the tile one the sets still
    /// hold, placed by the next player on an empty cell.
    fn place_tile(
        &mut self,
        at: &Current,
        m: &Message,
        tile: &str,
        rot: u8,
        (x, y): (i32, i32),
    ) -> Result<(), JczError> {
        match self.step {
            Step::Main if self.turn > 0 => {
                return Err(at.err(format!(
                    "turn {} has no COMMIT before the next PLACE_TILE",
                    self.turn
                )))
            }
            Step::Crop {
                pending: Some(p), ..
            } => {
                return Err(at.err(format!(
                    "{} acted in the crop-circle step but sent no COMMIT",
                    self.player_name(p)
                )))
            }
            _ => {}
        }
        let id = crate::import::abbot::tile_id(&self.g.setup, tile, plain_twin);
        let t = self.rules.tile_by_jcz(id).ok_or_else(|| {
            if tile.starts_with("BB/") {
                at.err(bcb::unknown_tile_text(tile, &self.g.setup))
            } else if tile.starts_with("RI") {
                at.err(crate::import::river::unknown_tile_text(tile, &self.g.setup))
            } else if tile.starts_with("TB/") {
                at.err(crate::import::traders::unknown_tile_text(
                    tile,
                    &self.g.setup.part::<crate::import::traders::TradersSetup>(),
                ))
            } else {
                at.err(format!(
                    "unknown tile id `{tile}` (not in the tile sets of this game)"
                ))
            }
        })?;
        let c = self.left.entry(t).or_insert(0);
        if *c <= 0 {
            return Err(at.err(format!(
                "one `{tile}` more than the tile sets of this game hold"
            )));
        }
        *c -= 1;
        let n = self.g.players.len() as u32;
        let expected = (self.turn.wrapping_sub(self.double_turns.0) % n) as u8;
        let player = m.player.unwrap_or(expected);
        let last = (self.turn > 0).then_some(self.active);
        let double = crate::import::traders::double_turn(
            &self.g.setup.part::<crate::import::traders::TradersSetup>(),
            &mut self.double_turns,
            last,
            player,
            expected,
        );
        if player != expected && !double {
            return Err(at.err(format!(
                "wrong player order: {} places the tile of turn {}, but it is {}'s turn",
                self.player_name(player),
                self.turn + 1,
                self.player_name(expected)
            )));
        }
        self.turn += 1;
        self.active = player;
        self.step = Step::Main;
        self.followed = false;
        self.flying = None;
        self.castled = 0;
        self.castle_step = false;
        self.ferried = false;
        self.maybe_no_move = None;
        if self.board.contains_key(&(x, y)) {
            return Err(at.err(format!("illegal placement: ({x},{y}) already holds a tile")));
        }
        let r = canonical_rot(self.rules, &self.rules.tiles[t as usize], rot);
        self.board.insert((x, y), (t, r));
        self.placed_at = (x, y);
        self.out.draws.push(Draw {
            id: self.rules.tiles[t as usize].id.clone(),
            jcz_id: tile.to_string(),
            tile: t,
            player,
            message: m.index,
            x,
            y,
            rot: r,
            random_before: self.random.take(),
        });
        let turn = self.turn;
        self.record(
            at,
            TakenDecision {
                turn,
                player,
                kind: DecisionKind::PLACEMENT,
                choice: Choice::Place { x, y, rot: r },
            },
        );
        bcb::on_place(&mut self.out, self.g, m.index, turn, player).map_err(|e| at.err(e))
    }

    /// `COMMIT`: ends the turn's main step, or confirms a crop-circle follower action.
    fn commit(&mut self, at: &Current) -> Result<(), JczError> {
        match self.step {
            Step::Main => {
                self.check_active(at)?;
                self.step = Step::Committed;
                self.flying = None; // a flight that found nowhere to land
                Ok(())
            }
            Step::Committed => Err(self.out_of_order(at)),
            Step::Crop {
                deploy,
                pending,
                acted,
            } => {
                let who = at.from.or(pending).ok_or_else(|| {
                    at.err("a COMMIT without a crop-circle follower action to confirm")
                })?;
                if pending != Some(who) {
                    return Err(at.err(format!(
                        "{} commits without a crop-circle follower action to confirm",
                        self.player_name(who)
                    )));
                }
                self.step = Step::Crop {
                    deploy,
                    pending: None,
                    acted,
                };
                Ok(())
            }
        }
    }

    /// `PLACE_TOKEN GOLD`: the second ingot, before the follower action.
    fn gold(&mut self, at: &Current, x: i32, y: i32) -> Result<(), JczError> {
        match self.step {
            Step::Main => {
                if self.followed || self.castle_step {
                    return Err(at.err("an ingot after the follower action"));
                }
                self.check_active(at)?;
                self.record_active(
                    at,
                    crate::engine::expansions::gold::INGOT_PLACE,
                    Choice::Ingot { x, y },
                );
                Ok(())
            }
            Step::Crop { pending: None, .. } => Err(at.err("an ingot during the crop-circle step")),
            _ => Err(self.out_of_order(at)),
        }
    }

    /// `PLACE_TOKEN CASTLE`: a castle on the small city just completed on the tile just
    /// placed, one a player a turn, before the castle step's `PASS`.
    fn castle(&mut self, at: &Current, p: &Pointer) -> Result<(), JczError> {
        match self.step {
            Step::Main => {}
            Step::Crop { pending: None, .. } => {
                return Err(at.err(
                    "a castle during the crop-circle step (JCloisterZone builds castles before the turn's COMMIT)",
                ))
            }
            _ => return Err(self.out_of_order(at)),
        }
        if !crate::import::castles::on(&self.g.setup) {
            return Err(at.err("a castle, but the save's setup.elements has no `castle`"));
        }
        if self.castled & CASTLE_STEP_PASSED != 0 {
            return Err(at.err("a castle after the castle step's PASS"));
        }
        let who = at.from.unwrap_or(self.active);
        if self.castled & (1 << who) != 0 {
            return Err(at.err(format!(
                "{} builds a second castle in one turn (JCloisterZone offers a player one castle a turn)",
                self.player_name(who)
            )));
        }
        let placed_at = self.placed_at;
        if (p.x, p.y) != placed_at {
            return Err(at.err(format!(
                "an impossible castle: the city at ({},{}) is not on the tile just placed at ({},{})",
                p.x, p.y, placed_at.0, placed_at.1
            )));
        }
        let (_, _, segment) = self.segment_at(at, p)?;
        small_city_at(&self.board, self.rules, placed_at, segment).map_err(|why| {
            at.err(format!(
                "an impossible castle on the city `{}` of ({},{}): {why}",
                p.location, p.x, p.y
            ))
        })?;
        self.castled |= 1 << who;
        self.castle_step = true;
        self.out.castles.push(CastleMark {
            turn: self.turn,
            player: who,
            message: at.index,
            x: p.x,
            y: p.y,
            segment,
            location: p.location.clone(),
        });
        Ok(())
    }

    /// `PASS`: a pass in a bazaar auction (after the turn's `COMMIT`); declines the castle
    /// step with castles after the follower action, else it is the follower action (no
    /// follower) or a crop-circle pass.
    fn pass(&mut self, at: &Current) -> Result<(), JczError> {
        match self.step {
            Step::Committed if self.out.parts.get_mut::<bcb::BcbTrack>().bidding() => {
                self.bcb(at, None)
            }
            Step::Main
                if crate::import::castles::on(&self.g.setup)
                    && (self.followed
                        || self.castle_step
                        || at.from.is_some_and(|p| p != self.active)) =>
            {
                // JCloisterZone's castle step: a PASS declines the castle offered and ends
                // the step (nobody after is asked); nothing to record, the replay answers
                // the offers the save does not build with "no". Another player's PASS
                // before any follower action is one too: JCloisterZone skips the action
                // step of a player who has no follower action to take.
                if self.castled & CASTLE_STEP_PASSED != 0 {
                    return Err(at.err("a second PASS in the castle step"));
                }
                self.castle_step = true;
                self.castled |= CASTLE_STEP_PASSED;
                self.out.castle_passes.push((self.turn, at.index));
                Ok(())
            }
            Step::Main
                if self
                    .g
                    .setup
                    .part::<crate::import::ferries::FerriesSetup>()
                    .element
                    && (self.followed || self.ferried) =>
            {
                self.ferry_pass(at)
            }
            Step::Main => {
                self.follower(at, None)?;
                if self
                    .g
                    .setup
                    .part::<crate::import::ferries::FerriesSetup>()
                    .element
                {
                    self.ferry_pass(at)?;
                    self.maybe_no_move = Some(self.out.decisions.len() - 1);
                }
                Ok(())
            }
            Step::Crop { pending: None, .. } => self.crop_action(at, CropAct::Pass),
            _ => Err(self.out_of_order(at)),
        }
    }

    /// `DEPLOY_MEEPLE`: the follower action on the tile just placed, or a crop-circle
    /// deployment.
    fn deploy(&mut self, at: &Current, p: &Pointer) -> Result<(), JczError> {
        match self.step {
            Step::Main if self.flying.is_some() => self.land(at, p),
            Step::Main => self.follower(at, Some(p)),
            Step::Crop { pending: None, .. } => self.crop_action(at, CropAct::Deploy(p)),
            _ => Err(self.out_of_order(at)),
        }
    }

    /// The turn's follower action: a follower on the tile just placed, or none (`PASS`).
    fn follower(&mut self, at: &Current, deployed: Option<&Pointer>) -> Result<(), JczError> {
        self.check_active(at)?;
        if self.castle_step {
            return Err(at.err("a follower action after the castle step"));
        }
        if self.followed {
            return Err(at.err("a second follower action in one turn"));
        }
        self.followed = true;
        self.no_flight(at);
        let segment = match deployed {
            Some(p) => {
                let placed_at = self.placed_at;
                if (p.x, p.y) != placed_at {
                    return Err(at.err(format!(
                        "a follower on ({},{}), not on the tile just placed at ({},{})",
                        p.x, p.y, placed_at.0, placed_at.1
                    )));
                }
                Some(self.segment_at(at, p)?.2)
            }
            None => None,
        };
        let kind = deployed.map_or(crate::engine::FollowerKind::PLAIN, |p| {
            meeple_follower_kind(&p.meeple, &self.g.setup)
        });
        self.record_active(
            at,
            DecisionKind::FOLLOWER,
            Choice::Follower { segment, kind },
        );
        Ok(())
    }

    /// Whether the tile just placed carries a flying machine (under the mapped rules).
    fn on_flier_tile(&self) -> bool {
        let marks = crate::engine::expansions::flier::MACHINE_W
            | crate::engine::expansions::flier::MACHINE_NW;
        self.board
            .get(&self.placed_at)
            .is_some_and(|&(t, _)| self.rules.tiles[t as usize].marks & marks != 0)
    }

    /// A follower action other than a flight on a flier tile: "no flight" first (asked only
    /// of a player holding a follower; unasked, it changes nothing).
    fn no_flight(&mut self, at: &Current) {
        if !self
            .g
            .setup
            .part::<crate::import::flier::FlierSetup>()
            .element
            || !self.on_flier_tile()
        {
            return;
        }
        self.record_active(
            at,
            crate::engine::expansions::flier::FLY,
            Choice::Token { at: None },
        );
    }

    /// `DEPLOY_MEEPLE` on the flying machine: the turn's follower action is a flight from the
    /// tile just placed; the message's `random` rolls the die.
    fn fly(&mut self, at: &Current, p: &Pointer, random: Option<f64>) -> Result<(), JczError> {
        if self.step != Step::Main {
            return Err(self.out_of_order(at));
        }
        self.check_active(at)?;
        if self.castle_step || self.followed {
            return Err(at.err("a flight after the turn's follower action"));
        }
        if !self
            .g
            .setup
            .part::<crate::import::flier::FlierSetup>()
            .element
        {
            return Err(at.err("a flight, but the save's setup.elements has no `flier`"));
        }
        if (p.x, p.y) != self.placed_at || !self.on_flier_tile() {
            return Err(at.err(format!(
                "a flight from ({},{}), which is not the flier tile just placed",
                p.x, p.y
            )));
        }
        let random = random.ok_or_else(|| {
            at.err("a flight without payload.random (JCloisterZone rolls the die from it)")
        })?;
        self.followed = true;
        self.flying = Some(p.meeple.clone());
        let kind = meeple_follower_kind(&p.meeple, &self.g.setup);
        let (turn, player) = (self.turn, self.active);
        self.out
            .flier_rolls
            .push((turn, crate::import::flier::die_of_random(random)));
        self.record(
            at,
            TakenDecision {
                turn,
                player,
                kind: crate::engine::expansions::flier::FLY,
                choice: Choice::Token {
                    at: Some((p.x, p.y, kind.0)),
                },
            },
        );
        Ok(())
    }

    /// The `DEPLOY_MEEPLE` after a flight: where the flown meeple lands.
    fn land(&mut self, at: &Current, p: &Pointer) -> Result<(), JczError> {
        self.check_active(at)?;
        if self.flying.as_deref() != Some(p.meeple.as_str()) {
            return Err(at.err(format!(
                "after a flight, `{}` is deployed instead of the flown meeple",
                p.meeple
            )));
        }
        self.flying = None;
        let spot = self.segment_at(at, p)?;
        self.record_active(
            at,
            crate::engine::expansions::flier::LAND,
            Choice::Spot { at: Some(spot) },
        );
        Ok(())
    }

    /// `CIRCLE_REMOVE_OR_DEPLOY`: the active player's crop-circle choice, after the turn's
    /// `COMMIT`; it opens the crop-circle step.
    fn crop_choice(&mut self, at: &Current, deploy: bool) -> Result<(), JczError> {
        match self.step {
            Step::Main => Err(at.err(
                "comes before the turn's COMMIT: JCloisterZone commits the turn first, then runs the crop-circle step",
            )),
            Step::Committed => {
                self.check_active(at)?;
                self.step = Step::Crop {
                    deploy,
                    pending: None,
                    acted: 0,
                };
                self.record_active(at, crate::engine::expansions::crop::CROP_MODE, Choice::CropMode { deploy });
                Ok(())
            }
            Step::Crop { pending: None, .. } => {
                Err(at.err("a second crop-circle choice in one turn"))
            }
            Step::Crop { .. } => Err(self.out_of_order(at)),
        }
    }

    /// `RETURN_MEEPLE`: a crop-circle removal (nothing else returns a follower).
    fn return_follower(&mut self, at: &Current, p: &Pointer) -> Result<(), JczError> {
        match self.step {
            Step::Main => {
                Err(at.err("returning a follower outside a crop-circle removal is not supported"))
            }
            Step::Crop { pending: None, .. } => self.crop_action(at, CropAct::Return(p)),
            _ => Err(self.out_of_order(at)),
        }
    }

    /// `RETURN_MEEPLE` with `source: ABBOT_RETURN`: the active player takes an abbot back
    /// instead of the turn's follower action (see [`crate::import::abbot`]).
    fn abbot_return(&mut self, at: &Current, p: &Pointer) -> Result<(), JczError> {
        if self.step != Step::Main {
            return Err(self.out_of_order(at));
        }
        self.check_active(at)?;
        if self.followed || self.castle_step || !crate::import::abbot::is_abbot(&p.meeple) {
            return Err(
                at.err("an abbot return is the turn's follower action: one a turn, of an abbot")
            );
        }
        self.followed = true;
        let spot = self.segment_at(at, p)?;
        let d = crate::import::abbot::return_decision(self.turn, self.active, spot);
        self.record(at, d);
        Ok(())
    }

    /// A player's go in the crop-circle step (no follower action awaiting its `COMMIT`): a
    /// `PASS`, or a deployment or removal as the step's choice allows.
    fn crop_action(&mut self, at: &Current, act: CropAct<'_>) -> Result<(), JczError> {
        let Step::Crop {
            deploy,
            pending: None,
            acted,
        } = self.step
        else {
            return Err(self.out_of_order(at));
        };
        // a PASS without `player`: whoever JCloisterZone asked next (see `ANY_PLAYER`);
        // actions with a follower name their owner
        let who = at.from.unwrap_or(ANY_PLAYER);
        if who != ANY_PLAYER && acted & (1 << who) != 0 {
            return Err(at.err(format!(
                "{} acts twice in one crop-circle step",
                self.player_name(who)
            )));
        }
        let (kind, spot, owes_commit) = match act {
            CropAct::Pass if deploy => (crate::engine::expansions::crop::CROP_DEPLOY, None, false),
            CropAct::Deploy(p) if deploy => (
                crate::engine::expansions::crop::CROP_DEPLOY,
                Some(self.segment_at(at, p)?),
                true,
            ),
            CropAct::Return(p) if !deploy => (
                crate::engine::expansions::crop::CROP_REMOVE,
                Some(self.segment_at(at, p)?),
                true,
            ),
            _ => {
                return Err(at.err(format!(
                    "not allowed after CIRCLE_REMOVE_OR_DEPLOY {}",
                    if deploy { "DEPLOY" } else { "REMOVE" }
                )))
            }
        };
        self.step = Step::Crop {
            deploy,
            pending: owes_commit.then_some(who),
            acted: if who == ANY_PLAYER {
                acted
            } else {
                acted | (1 << who)
            },
        };
        let turn = self.turn;
        self.record(
            at,
            TakenDecision {
                turn,
                player: who,
                kind,
                choice: Choice::Spot { at: spot },
            },
        );
        Ok(())
    }

    /// A bridge or bazaar message (`None`: a `PASS` while bidding), handed to
    /// [`crate::import::bcb`] with where the turn is.
    /// `MOVE_NEUTRAL_FIGURE` (Mage & Witch): the magic step, by the active player before
    /// the follower action (see [`crate::import::magewitch`]).
    fn magewitch(
        &mut self,
        at: &Current,
        m: &crate::import::magewitch::MwMsg,
    ) -> Result<(), JczError> {
        match self.step {
            Step::Main if self.followed || self.castle_step => {
                return Err(at.err("a magic figure moved after the follower action"))
            }
            Step::Main => {}
            Step::Crop { pending: None, .. } => {
                return Err(at.err("a magic figure moved during the crop-circle step"))
            }
            _ => return Err(self.out_of_order(at)),
        }
        self.check_active(at)?;
        for (kind, choice) in crate::import::magewitch::decisions(m, |p| self.segment_at(at, p))? {
            self.record_active(at, kind, choice);
        }
        Ok(())
    }

    /// `PLACE_TOKEN FERRY`: the new ferry on the tile just placed, or a ferry moved.
    fn ferry(&mut self, at: &Current, x: i32, y: i32, way: u8) -> Result<(), JczError> {
        if self.step != Step::Main {
            return Err(self.out_of_order(at));
        }
        if !self
            .g
            .setup
            .part::<crate::import::ferries::FerriesSetup>()
            .element
        {
            return Err(at.err("a ferry, but the save's setup.elements has no `ferry`"));
        }
        self.check_active(at)?;
        self.drop_maybe_no_move();
        let (kind, choice) = crate::import::ferries::ferry_decision(self.placed_at, x, y, way);
        self.ferried = true;
        self.followed = true;
        self.record_active(at, kind, choice);
        Ok(())
    }

    /// A `PASS` declining a ferry move.
    fn ferry_pass(&mut self, at: &Current) -> Result<(), JczError> {
        self.check_active(at)?;
        self.drop_maybe_no_move();
        self.ferried = true;
        self.followed = true;
        let (kind, choice) = crate::import::ferries::no_move();
        self.record_active(at, kind, choice);
        Ok(())
    }

    /// A later ferry message shows that an earlier `PASS` was the follower's.
    fn drop_maybe_no_move(&mut self) {
        if let Some(i) = self.maybe_no_move.take() {
            self.out.decisions.remove(i);
            self.out.origins.remove(i);
        }
    }

    fn bcb(&mut self, at: &Current, msg: Option<&BcbMsg>) -> Result<(), JczError> {
        let ctx = bcb::Ctx {
            g: self.g,
            index: at.index,
            from: at.from,
            turn: self.turn,
            active: self.active,
            committed: self.step != Step::Main,
            followed: self.followed || self.castle_step,
        };
        bcb::on_msg(&mut self.out, &ctx, msg).map_err(|e| at.err(e))
    }

    /// The record, with what the save leaves open: a turn (or a bazaar auction) it stops
    /// inside, and the tiles of the sets never placed.
    fn finish(mut self) -> Result<Translated, JczError> {
        self.out.random_after = self.random;
        if let Some(last) = self.g.messages.last() {
            match self.step {
                Step::Main => {
                    self.out.open_turn = Some((
                        last.index,
                        format!(
                            "turn {} has no COMMIT (the save stops inside the turn)",
                            self.turn
                        ),
                    ))
                }
                Step::Crop {
                    pending: Some(p), ..
                } => {
                    self.out.open_turn = Some((
                        last.index,
                        format!(
                            "{} acted in the crop-circle step of turn {} and sent no COMMIT",
                            self.g.players[p as usize], self.turn
                        ),
                    ))
                }
                _ => {}
            }
        }
        bcb::finish(&mut self.out, self.g.messages.last().map_or(0, |m| m.index))?;
        let mut left: Vec<(TileIdx, i64)> = self.left.into_iter().filter(|&(_, c)| c > 0).collect();
        left.sort_unstable();
        self.out.left_in_pack = left
            .into_iter()
            .flat_map(|(t, c)| std::iter::repeat_n(t, c as usize))
            .collect();
        Ok(self.out)
    }
}

/// What a player does in the crop-circle step.
enum CropAct<'p> {
    Pass,
    Deploy(&'p Pointer),
    Return(&'p Pointer),
}
