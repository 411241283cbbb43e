//! The translation under way as the importer parts see it ([`Translator`]): the save, the
//! mapped rules, the board as the save builds it, where the turn is ([`Step`]), the record
//! so far, and a slot per part for what it tracks ([`Translator::turn_part_mut`],
//! [`Translator::game_part_mut`]). The core's handlers are `translate.rs`'s; this file
//! asks no part (the parts use it), so the list of parts never imports itself back.

use super::game::JczGame;
use super::geometry::segment_for;
use super::message::Pointer;
use super::setup::{PartState, PartStates, Setup};
use super::translated::Translated;
use super::JczError;
use crate::engine::{Choice, DecisionKind, FollowerKind, TakenDecision};
use crate::ruleset::{Ruleset, TileIdx};
use crate::tiles::TileType;
use std::borrow::Cow;
use std::collections::HashMap;

/// Where a turn is in JCloisterZone's message order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// After `PLACE_TILE`, before the turn's `COMMIT`.
    Main,
    /// After the turn's `COMMIT`.
    Committed,
    /// In a step an importer part opens after the turn's `COMMIT`; `step` names it in errors
    /// (`the crop-circle step`), `pending` is a player who acted in it and owes a `COMMIT`.
    After {
        step: &'static str,
        pending: Option<u8>,
    },
}

/// What the core's reading lends the parts through the translator: the segment a pointer
/// names when the tile's own reading finds none (a bridge), and a figure's kind of follower.
#[derive(Clone, Copy)]
pub(super) struct Readers {
    pub(super) segment: fn(&TileType, &Pointer) -> Option<u8>,
    pub(super) follower_kind: fn(&str, &Setup) -> FollowerKind,
}

/// The translation under way: the board as the save builds it, the tiles left, where the
/// turn is in JCloisterZone's order, and the record so far.
pub struct Translator<'a> {
    pub(super) g: &'a JczGame,
    pub(super) rules: &'a Ruleset,
    pub(super) readers: Readers,
    /// The tiles placed: (tile, normalised rotation) by position.
    pub(super) board: HashMap<(i32, i32), (TileIdx, u8)>,
    /// Copies of each tile the sets still hold.
    pub(super) left: HashMap<TileIdx, i64>,
    pub(super) out: Translated,
    /// Turns begun (the recorded turn, 1-based, once the first `PLACE_TILE` is read).
    pub(super) turn: u32,
    pub(super) active: u8,
    pub(super) placed_at: (i32, i32),
    pub(super) step: Step,
    /// The turn's follower action was read.
    pub(super) followed: bool,
    /// A part began a step after the follower action (the castle step).
    pub(super) past_follower: bool,
    /// The `random` of the last message that set one since the last `PLACE_TILE`.
    pub(super) random: Option<f64>,
    /// Turns out of the seat order a part's rules gave (a builder's double turn): the seat
    /// order goes on after them as if they had not been there.
    pub(super) extra_turns: u32,
    /// What the parts track of the turn under way (emptied by each `PLACE_TILE`).
    pub(super) turn_parts: PartStates,
}

/// The message being translated: its index and type (for errors) and its sender (`player`
/// when written, else the owner of the meeple moved).
pub struct Current {
    pub index: usize,
    pub name: &'static str,
    pub from: Option<u8>,
}

impl Current {
    /// An error about this message.
    pub fn err(&self, text: impl Into<String>) -> JczError {
        JczError::at(self.index, self.name, text)
    }
}

impl<'a> Translator<'a> {
    /// The save being translated.
    pub fn game(&self) -> &'a JczGame {
        self.g
    }

    /// The mapped ruleset.
    pub fn rules(&self) -> &'a Ruleset {
        self.rules
    }

    /// The tiles placed so far: (tile, normalised rotation) by position.
    pub fn board(&self) -> &HashMap<(i32, i32), (TileIdx, u8)> {
        &self.board
    }

    /// The recorded turn (1-based).
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// The turn's active player.
    pub fn active(&self) -> u8 {
        self.active
    }

    /// Where the turn's tile was placed.
    pub fn placed_at(&self) -> (i32, i32) {
        self.placed_at
    }

    /// Where the turn is.
    pub fn step(&self) -> Step {
        self.step
    }

    /// Move the turn on to `step` (a part opening or running its step after the `COMMIT`).
    pub fn set_step(&mut self, step: Step) {
        self.step = step;
    }

    /// Whether the turn's follower action was read.
    pub fn followed(&self) -> bool {
        self.followed
    }

    /// Mark the turn's follower action as read (a part's message took its place).
    pub fn set_followed(&mut self) {
        self.followed = true;
    }

    /// A part began a step after the follower action (the castle step).
    pub fn end_follower_step(&mut self) {
        self.past_follower = true;
    }

    /// Whether the turn is past its follower step: the follower action was read, or a part
    /// began a step after it ([`Translator::end_follower_step`]).
    pub fn follower_done(&self) -> bool {
        self.followed || self.past_follower
    }

    /// The record so far.
    pub fn out(&mut self) -> &mut Translated {
        &mut self.out
    }

    /// What part state `T` tracks of the turn under way (its default when absent; emptied
    /// by each `PLACE_TILE`).
    pub fn turn_part<T: PartState + Clone + Default>(&self) -> Cow<'_, T> {
        self.turn_parts.get::<T>()
    }

    /// The same, to change (created at its default).
    pub fn turn_part_mut<T: PartState + Default>(&mut self) -> &mut T {
        self.turn_parts.get_mut::<T>()
    }

    /// What part state `T` tracks of the whole game, kept in the record
    /// ([`Translated::parts`]) for the replay (created at its default).
    pub fn game_part_mut<T: PartState + Default>(&mut self) -> &mut T {
        self.out.parts.get_mut::<T>()
    }

    /// A player's name.
    pub fn player_name(&self, p: u8) -> String {
        self.g.players[p as usize].clone()
    }

    /// The kind of follower a checked `meepleId` deploys under the save's set-up.
    pub fn follower_kind(&self, meeple: &str) -> FollowerKind {
        (self.readers.follower_kind)(meeple, &self.g.setup)
    }

    /// Keep a decision and the message it came from.
    pub fn record(&mut self, at: &Current, d: TakenDecision) {
        self.out.decisions.push(d);
        self.out.origins.push(at.index);
    }

    /// Record decision `kind` answered `choice` by the active player in this turn.
    pub fn record_active(&mut self, at: &Current, kind: DecisionKind, choice: Choice) {
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
    pub fn segment_at(&self, at: &Current, p: &Pointer) -> Result<(i32, i32, u8), JczError> {
        let (t, r) = *self
            .board
            .get(&(p.x, p.y))
            .ok_or_else(|| at.err(format!("payload pointer: no tile at ({},{})", p.x, p.y)))?;
        let tile = &self.rules.tiles[t as usize];
        let seg = segment_for(tile, r, p.feature, &p.location)
            .or_else(|e| (self.readers.segment)(tile, p).ok_or(e))
            .map_err(|e| at.err(format!("payload pointer: {e}")))?;
        Ok((p.x, p.y, seg))
    }

    /// A message that acts in the active player's turn must come from the active player.
    pub fn check_active(&self, at: &Current) -> Result<(), JczError> {
        match at.from {
            Some(p) if p != self.active => Err(at.err(format!(
                "wrong player: {} acts in {}'s turn",
                self.player_name(p),
                self.player_name(self.active)
            ))),
            _ => Ok(()),
        }
    }

    /// The error for a message that only the turn's main step or a part's step takes, sent
    /// after the turn's `COMMIT`, or while a part's step awaits a player's `COMMIT`.
    pub fn out_of_order(&self, at: &Current) -> JczError {
        match self.step {
            Step::After {
                step,
                pending: Some(p),
            } => at.err(format!(
                "{} acted in {step} and must COMMIT first",
                self.player_name(p)
            )),
            _ => at.err("comes after the turn's COMMIT and before the next PLACE_TILE"),
        }
    }
}
