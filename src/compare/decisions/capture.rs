//! Which position a probe asks about, and catching it while the host game is played.
//!
//! Position `p` lives in game `p` of the run (so shards and threads see the same positions
//! and merging is exact). Its host ruleset is `p % rulesets`, its stage `p % 3` (the early,
//! middle or late third of the host's pack), its turn a keyed draw from (game seed, `p`)
//! within that third, and its decision one of that turn's decisions with two options or
//! more, again by key. [`play_capturing`] plays the host game exactly as
//! [`crate::play::play`] does and keeps a copy of the game at the turn's start plus the
//! turn's decisions up to the sampled one: enough to rebuild the position under any ruleset
//! that can hold it ([`Captured::position_under`]).

use crate::engine::rng;
use crate::engine::{
    Choice, Chooser, Compiled, Decision, DecisionKind, Game, GameOutcome, NoEvents, Pending,
};
use crate::play::{Choosers, Seats};
use crate::ruleset::TileIdx;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

/// Domain tag of the probes' keyed draws (turn and decision).
const DOMAIN: u64 = 0x5052_4F42;

/// Which third of the game a position comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    Early,
    Middle,
    Late,
}

impl Stage {
    pub const ALL: [Stage; 3] = [Stage::Early, Stage::Middle, Stage::Late];

    /// Position `p`'s stage: `p % 3`.
    pub fn of_position(p: u64) -> Stage {
        Stage::ALL[(p % 3) as usize]
    }

    pub fn name(self) -> &'static str {
        match self {
            Stage::Early => "early",
            Stage::Middle => "middle",
            Stage::Late => "late",
        }
    }
}

/// Why a position gave no probe (for a pair of rulesets, or for every pair).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SkipReason {
    /// The host game ended before the sampled turn.
    GameEnded,
    /// The sampled turn asked no decision with two options or more.
    NoChoice,
    /// The two rulesets cannot hold the same position (expansions, tiles, pack, supply,
    /// seats: see [`crate::engine::Incompatible`]).
    Incompatible,
    /// The ruleset can hold the position but its engine would not ask the same decision
    /// there: another tile drawn, another decision earlier in the turn, or another kind or
    /// number of options at the sampled one.
    Parted,
}

impl SkipReason {
    /// Its key in aggregates and reports.
    pub fn name(self) -> &'static str {
        match self {
            SkipReason::GameEnded => "game_ended",
            SkipReason::NoChoice => "no_choice",
            SkipReason::Incompatible => "incompatible",
            SkipReason::Parted => "parted",
        }
    }
}

/// A skipped probe: the reason and what happened, in words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skip {
    pub reason: SkipReason,
    pub detail: String,
}

impl fmt::Display for Skip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.reason.name(), self.detail)
    }
}

/// Where position `p` is taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProbeTarget {
    /// The position's index `p`, which is also its game's index in the run.
    pub position: u64,
    /// The game's seed.
    pub seed: u64,
    /// The host ruleset (an index into the run's rulesets): `p % rulesets`.
    pub host: usize,
    pub stage: Stage,
    /// The sampled turn (1 = the first tile after the start tile).
    pub turn: u32,
}

impl ProbeTarget {
    /// Position `p` of a run over `rulesets`, in the game of seed `seed` (game `p`'s seed).
    /// `None` when there are no rulesets.
    pub fn new(p: u64, seed: u64, rulesets: &[Arc<Compiled>]) -> Option<ProbeTarget> {
        let host = (p % rulesets.len().max(1) as u64) as usize;
        let rules = rulesets.get(host)?;
        let stage = Stage::of_position(p);
        // the pack's turns (the start tile is not drawn), split into thirds
        let turns = rules.rules.total_tiles().saturating_sub(1).max(1) as u64;
        let third = stage as u64;
        let lo = third * turns / 3 + 1;
        let hi = ((third + 1) * turns / 3).max(lo);
        let k = rng::key(rng::key(seed ^ DOMAIN, p), 0);
        let turn = lo + rng::index(k, (hi - lo + 1) as usize) as u64;
        Some(ProbeTarget {
            position: p,
            seed,
            host,
            stage,
            turn: turn.min(u32::MAX as u64) as u32,
        })
    }

    /// The draw that picks the probed decision among the turn's.
    fn decision_key(&self) -> u64 {
        rng::key(rng::key(self.seed ^ DOMAIN, self.position), 1)
    }
}

/// One decision the host game asked in the sampled turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub decision: Decision,
    /// The option taken, and what it means.
    pub index: usize,
    pub choice: Choice,
}

/// A position caught in a host game: the game at the start of the sampled turn, the tile it
/// drew, the turn's decisions before the sampled one, and the sampled one with the host
/// player's choice.
#[derive(Clone)]
pub struct Captured {
    pub target: ProbeTarget,
    /// The host game at the turn boundary before the sampled turn.
    boundary: Game,
    /// The tile the sampled turn drew.
    pub tile: TileIdx,
    /// The turn's decisions before the sampled one, as the host game took them.
    pub before: Vec<Step>,
    /// The sampled decision, with the host player's choice.
    pub at: Step,
}

impl fmt::Debug for Captured {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Captured")
            .field("target", &self.target)
            .field("tile", &self.tile)
            .field("before", &self.before)
            .field("at", &self.at)
            .finish()
    }
}

/// Plays the host game of `target` (`rules` is the host ruleset) exactly as
/// [`crate::play::play`] and [`crate::play::play_cached`] would — the same outcome — and
/// catches the sampled position on the way, or says why there is none.
pub fn play_capturing(
    rules: &Arc<Compiled>,
    seed: u64,
    players: u8,
    seats: Seats,
    target: &ProbeTarget,
    mut meter: Option<&mut crate::policy::luck::LuckMeter>,
) -> (GameOutcome, Result<Captured, Skip>) {
    let mut game = Game::new(rules.clone(), seed, players);
    if let Some(m) = meter.as_deref_mut() {
        m.begin();
    }
    let mut choosers = Choosers::new(seats);
    let mut boundary: Option<Game> = None;
    let mut tile = None;
    let mut steps: Vec<Step> = Vec::new();
    game.setup(&mut NoEvents);
    loop {
        match game.pending() {
            Pending::Decision(d) => {
                let index = choosers.choose(&game, &d);
                if tile.is_some() && game.turn() == target.turn {
                    steps.push(Step {
                        decision: d,
                        index,
                        choice: game.choice(d.kind, index),
                    });
                }
                game.apply_unchecked(index);
            }
            Pending::Draw => {
                let at = game.turn().checked_add(1) == Some(target.turn);
                if at {
                    boundary = Some(game.clone());
                }
                if let Some(m) = meter.as_deref_mut() {
                    m.before_draw(&game);
                }
                let drew = game.draw(&mut NoEvents);
                if let Some(m) = meter.as_deref_mut() {
                    m.after_draw();
                }
                if drew {
                    if at {
                        tile = Some(game.current_tile());
                    }
                } else {
                    game.finish_now(&mut NoEvents);
                }
            }
            Pending::End => break,
        }
    }
    let outcome = game.outcome();
    let caught = match (boundary, tile) {
        (Some(boundary), Some(tile)) => pick(target, boundary, tile, steps),
        _ => Err(Skip {
            reason: SkipReason::GameEnded,
            detail: format!(
                "the game ended after {} turns, before turn {}",
                outcome.turns, target.turn
            ),
        }),
    };
    (outcome, caught)
}

/// The sampled decision among the turn's `steps` (those with two options or more, by key).
fn pick(
    target: &ProbeTarget,
    boundary: Game,
    tile: TileIdx,
    mut steps: Vec<Step>,
) -> Result<Captured, Skip> {
    let open: Vec<usize> = (0..steps.len())
        .filter(|&i| steps[i].decision.options >= 2)
        .collect();
    if open.is_empty() {
        return Err(Skip {
            reason: SkipReason::NoChoice,
            detail: format!(
                "turn {} asked {} decision(s), none with two options or more",
                target.turn,
                steps.len()
            ),
        });
    }
    let j = open[rng::index(target.decision_key(), open.len())];
    steps.truncate(j + 1);
    let at = steps.pop().ok_or_else(|| Skip {
        reason: SkipReason::NoChoice,
        detail: "no decision".into(),
    })?;
    Ok(Captured {
        target: *target,
        boundary,
        tile,
        before: steps,
        at,
    })
}

impl Captured {
    /// The sampled decision's kind.
    pub fn kind(&self) -> DecisionKind {
        self.at.decision.kind
    }

    /// The players of the game.
    pub fn players(&self) -> u8 {
        self.boundary.players()
    }

    /// The position under `rules`: the turn's start swapped onto `rules`, the same tile
    /// drawn, the turn's earlier decisions taken by meaning (the same [`Choice`]s), and the
    /// sampled decision pending — the game and that decision as `rules`' engine asks it (the
    /// same kind, player, options and key as the host's), or why not.
    pub fn position_under(&self, rules: &Arc<Compiled>) -> Result<(Game, Decision), Skip> {
        let name = &rules.rules.name;
        let parted = |detail: String| Skip {
            reason: SkipReason::Parted,
            detail,
        };
        let mut g = self.boundary.with_rules(rules.clone()).map_err(|e| Skip {
            reason: SkipReason::Incompatible,
            detail: e.0,
        })?;
        if !g.draw(&mut NoEvents) || g.current_tile() != self.tile {
            return Err(parted(format!(
                "under {name} turn {} draws another tile",
                self.target.turn
            )));
        }
        for step in &self.before {
            let want = step.decision;
            let Pending::Decision(d) = g.pending() else {
                return Err(parted(format!(
                    "under {name} turn {} ends before its {} decision",
                    self.target.turn,
                    want.kind.name()
                )));
            };
            if (d.kind, d.player) != (want.kind, want.player) {
                return Err(parted(format!(
                    "under {name} turn {} asks a {} decision where the host asked a {}",
                    self.target.turn,
                    d.kind.name(),
                    want.kind.name()
                )));
            }
            // the checked move by meaning: no option means the host's choice here
            if g.apply_choice(&step.choice).is_err() {
                return Err(parted(format!(
                    "under {name} turn {}'s {} decision has no option {:?}",
                    self.target.turn,
                    d.kind.name(),
                    step.choice
                )));
            }
        }
        let want = self.at.decision;
        match g.pending() {
            Pending::Decision(d) if d == want => Ok((g, d)),
            Pending::Decision(d) => Err(parted(format!(
                "under {name} the engine asks a {} decision with {} options there, not a {} \
                 with {}",
                d.kind.name(),
                d.options,
                want.kind.name(),
                want.options
            ))),
            _ => Err(parted(format!(
                "under {name} turn {} asks no {} decision there",
                self.target.turn,
                want.kind.name()
            ))),
        }
    }
}
