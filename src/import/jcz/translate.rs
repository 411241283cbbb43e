//! The translation of a save's message log into meeplab's terms: the placed tiles (with
//! what JCloisterZone's draws need) and the semantic decisions, checked against
//! JCloisterZone's message order (see [the turn](super#the-turn-as-jcloisterzone-writes-it)
//! and [the translation](super#the-translation)). A [`Translator`] (`turn.rs`) walks the
//! messages: the core's four (`PLACE_TILE`, `DEPLOY_MEEPLE`, `PASS`, `COMMIT`) have their
//! handlers here, which check where the turn is ([`Step`]) and record what the message
//! decides; the importer parts ([`super::parts::PARTS`]) translate their own messages
//! ([`JczPart::translate`](super::JczPart::translate)), may take a core message where the
//! turn is theirs ([`JczPart::intercept`](super::JczPart::intercept): a `PASS` declining a
//! castle), and keep what they track in a slot of their own
//! ([`Translator::turn_part_mut`], [`Translator::game_part_mut`]).

use super::game::JczGame;
use super::geometry::canonical_rot;
use super::mapping::plain_twin;
use super::meeples::{check_meeple, meeple_follower_kind, meeple_owner};
use super::message::{Message, Msg, Pointer};
use super::parts::PARTS;
use super::setup::PartStates;
use super::translated::{Draw, DrawPlan, Translated};
use super::turn::{Current, Readers, Step, Translator};
use super::{JczError, START_TILE};
use crate::engine::{Choice, DecisionKind, TakenDecision};
use crate::import::draws;
use crate::ruleset::{Ruleset, TileIdx};
use crate::tiles::TileType;
use std::collections::HashMap;

/// Translate the message log into placed tiles and decisions under `rules` (the mapped
/// ruleset), checking JCloisterZone's message order.
pub fn translate(g: &JczGame, rules: &Ruleset) -> Result<Translated, JczError> {
    let mut t = Translator::new(g, rules)?;
    for m in &g.messages {
        t.message(m)?;
    }
    t.finish()
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
                in_groups: PARTS.iter().any(|p| p.draws_in_groups(&g.setup)),
                forced: g.draw_order.clone(),
                end_marker: g.draw_order_ends,
                limit: g.draw_limit,
                initial_random: g.initial_random,
            },
            random_after: None,
            open_turn: None,
            left_in_pack: Vec::new(),
            names: g.players.clone(),
            parts: Default::default(),
        };
        Ok(Translator {
            g,
            rules,
            readers: Readers {
                segment: part_segment,
                follower_kind: meeple_follower_kind,
            },
            board,
            left,
            out,
            turn: 0,
            active: 0,
            placed_at: (0, 0),
            step: Step::Committed,
            followed: false,
            past_follower: false,
            random: None,
            extra_turns: 0,
            turn_parts: PartStates::default(),
        })
    }

    /// One message: the checks every message gets, then its handler: a part's own message
    /// goes to the parts in order, a core message to the first part that takes it where the
    /// turn is, else to the core's handler.
    fn message(&mut self, m: &Message) -> Result<(), JczError> {
        let at = self.current(m)?;
        match &m.msg {
            Msg::PlaceTile { tile, rot, x, y } => self.place_tile(&at, m, tile, *rot, (*x, *y)),
            Msg::Part(p) => match PARTS
                .iter()
                .find_map(|part| part.translate(self, &at, m, p))
            {
                Some(done) => done,
                None => Err(JczError::at(
                    m.index,
                    p.kind,
                    "no translation of this part's message",
                )),
            },
            msg => match PARTS.iter().find_map(|part| part.intercept(self, &at, msg)) {
                Some(done) => done,
                None => match msg {
                    Msg::Commit => self.commit(&at),
                    Msg::Pass => self.pass(&at),
                    Msg::Deploy(p) => self.deploy(&at, p),
                    _ => Err(at.err("no translation of this message")),
                },
            },
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
        if let Some(meeple) = m.msg.meeple() {
            at.from = m.player.or_else(|| meeple_owner(meeple));
            let who = at.from.ok_or_else(|| {
                at.err(format!(
                    "payload meepleId `{meeple}` is not a JCloisterZone meeple id (`P.small.N`)"
                ))
            })?;
            check_meeple(meeple, who, &self.g.setup).map_err(|e| at.err(e))?;
        }
        Ok(at)
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
            Step::After {
                step,
                pending: Some(p),
            } => {
                return Err(at.err(format!(
                    "{} acted in {step} but sent no COMMIT",
                    self.player_name(p)
                )))
            }
            _ => {}
        }
        let setup = &self.g.setup;
        let id = PARTS
            .iter()
            .find_map(|p| p.tile_id(setup, tile))
            .unwrap_or_else(|| plain_twin(tile));
        let t = self.rules.tile_by_jcz(id).ok_or_else(|| {
            at.err(
                PARTS
                    .iter()
                    .find_map(|p| p.unknown_tile(setup, tile))
                    .unwrap_or_else(|| {
                        format!("unknown tile id `{tile}` (not in the tile sets of this game)")
                    }),
            )
        })?;
        let c = self.left.entry(t).or_insert(0);
        if *c <= 0 {
            return Err(at.err(format!(
                "one `{tile}` more than the tile sets of this game hold"
            )));
        }
        *c -= 1;
        let n = self.g.players.len() as u32;
        let expected = (self.turn.wrapping_sub(self.extra_turns) % n) as u8;
        let player = m.player.unwrap_or(expected);
        let last = (self.turn > 0).then_some(self.active);
        // every part hears of the placement (a part tracks whether the last turn was extra)
        let mut extra = false;
        for p in PARTS {
            extra |= p.extra_turn(self, last, player, expected);
        }
        if extra {
            self.extra_turns += 1;
        }
        if player != expected && !extra {
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
        self.past_follower = false;
        self.turn_parts = PartStates::default();
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
        for p in PARTS {
            p.on_place(self, at)?;
        }
        Ok(())
    }

    /// `COMMIT`: ends the turn's main step.
    fn commit(&mut self, at: &Current) -> Result<(), JczError> {
        match self.step {
            Step::Main => {
                self.check_active(at)?;
                self.step = Step::Committed;
                Ok(())
            }
            _ => Err(self.out_of_order(at)),
        }
    }

    /// `PASS`: the follower action (no follower), when no part takes it.
    fn pass(&mut self, at: &Current) -> Result<(), JczError> {
        match self.step {
            Step::Main => {
                self.follower(at, None)?;
                for p in PARTS {
                    p.after_pass(self, at)?;
                }
                Ok(())
            }
            _ => Err(self.out_of_order(at)),
        }
    }

    /// `DEPLOY_MEEPLE`: the follower action on the tile just placed, when no part takes it.
    fn deploy(&mut self, at: &Current, p: &Pointer) -> Result<(), JczError> {
        match self.step {
            Step::Main => self.follower(at, Some(p)),
            _ => Err(self.out_of_order(at)),
        }
    }

    /// The turn's follower action: a follower on the tile just placed, or none (`PASS`).
    fn follower(&mut self, at: &Current, deployed: Option<&Pointer>) -> Result<(), JczError> {
        self.check_active(at)?;
        for p in PARTS {
            p.before_follower(self, at)?;
        }
        if self.followed {
            return Err(at.err("a second follower action in one turn"));
        }
        self.followed = true;
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

    /// The record, with what the save leaves open: a turn (or a part's step) it stops
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
                Step::After {
                    step,
                    pending: Some(p),
                } => {
                    self.out.open_turn = Some((
                        last.index,
                        format!(
                            "{} acted in {step} of turn {} and sent no COMMIT",
                            self.g.players[p as usize], self.turn
                        ),
                    ))
                }
                _ => {}
            }
        }
        let last = self.g.messages.last().map_or(0, |m| m.index);
        for p in PARTS {
            p.finish_translation(&mut self.out, last)?;
        }
        let mut left: Vec<(TileIdx, i64)> = self.left.into_iter().filter(|&(_, c)| c > 0).collect();
        left.sort_unstable();
        self.out.left_in_pack = left
            .into_iter()
            .flat_map(|(t, c)| std::iter::repeat_n(t, c as usize))
            .collect();
        Ok(self.out)
    }
}

/// The segment a pointer names on a tile by a part's reading (a bridge), when the tile's
/// own finds none.
fn part_segment(tile: &TileType, p: &Pointer) -> Option<u8> {
    PARTS.iter().find_map(|part| part.segment(tile, p))
}
