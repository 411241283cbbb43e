//! A chooser that follows a list of recorded decisions (game records, `.jcz` imports, the
//! rulebook scenarios in tests), matched by turn, player, kind and occurrence, and by meaning:
//! a recorded choice is looked up among the current options. Decisions the record does not
//! have (another ruleset asks more) go to a fallback chooser; a recorded choice that is not
//! legal any more is reported and handled by [`OnIllegal`].

use crate::engine::decision::{Choice, Chooser, Decision, DecisionKind, TakenDecision, Wording};
use crate::engine::Game;
use serde::Serialize;

/// What to do when a recorded choice is not among the legal options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OnIllegal {
    /// Stop the replay at that decision (no final scoring).
    #[default]
    Stop,
    /// Skip it: take the "none/pass" option where there is one, else the fallback's choice.
    Skip,
    /// Let the fallback policy decide.
    Policy,
}

/// A recorded decision that could not be followed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScriptProblem {
    pub turn: u32,
    pub player: u8,
    pub kind: DecisionKind,
    pub recorded: Choice,
    pub why: String,
}

/// Follows recorded decisions; see the module docs.
pub struct Scripted<F: Chooser> {
    decisions: Vec<TakenDecision>,
    used: Vec<bool>,
    cursor: usize,
    fallback: F,
    on_illegal: OnIllegal,
    /// Problems met so far, in order.
    pub problems: Vec<ScriptProblem>,
    /// Decisions the record did not cover (taken by the fallback).
    pub unrecorded: u32,
    halted: bool,
}

impl<F: Chooser> Scripted<F> {
    pub fn new(decisions: Vec<TakenDecision>, fallback: F, on_illegal: OnIllegal) -> Self {
        let used = vec![false; decisions.len()];
        Scripted {
            decisions,
            used,
            cursor: 0,
            fallback,
            on_illegal,
            problems: Vec::new(),
            unrecorded: 0,
            halted: false,
        }
    }

    /// Recorded decisions never asked for (the new ruleset skipped them).
    pub fn unused(&self) -> impl Iterator<Item = &TakenDecision> {
        self.decisions
            .iter()
            .zip(&self.used)
            .filter(|(_, u)| !**u)
            .map(|(d, _)| d)
    }

    /// Find the next unused recorded decision for (turn, player, kind).
    fn find(&mut self, turn: u32, player: u8, kind: DecisionKind) -> Option<usize> {
        while self.cursor < self.decisions.len() && self.used[self.cursor] {
            self.cursor += 1;
        }
        let mut i = self.cursor;
        while i < self.decisions.len() {
            let d = &self.decisions[i];
            if d.turn > turn {
                return None;
            }
            if !self.used[i] && d.turn == turn && d.player == player && d.kind == kind {
                return Some(i);
            }
            i += 1;
        }
        None
    }
}

impl<F: Chooser> Chooser for Scripted<F> {
    fn choose(&mut self, game: &Game, d: &Decision) -> usize {
        let turn = game.turn();
        let Some(ri) = self.find(turn, d.player, d.kind) else {
            if d.options <= 1 {
                return 0; // forced: nothing to follow, nothing lacking
            }
            self.unrecorded += 1;
            return self.fallback.choose(game, d);
        };
        self.used[ri] = true;
        let recorded = self.decisions[ri].choice;
        // the checked lookup by meaning: the recorded choice is outside input
        if let Ok(i) = game.option_of(&recorded) {
            return i;
        }
        self.problems.push(ScriptProblem {
            turn,
            player: d.player,
            kind: d.kind,
            recorded,
            why: format!(
                "{} is not among the {} legal options",
                describe(d.kind, &recorded),
                d.options
            ),
        });
        match self.on_illegal {
            OnIllegal::Stop => {
                self.halted = true;
                self.fallback.choose(game, d)
            }
            OnIllegal::Skip => (0..d.options)
                .find(|&i| {
                    matches!(
                        game.choice(d.kind, i),
                        Choice::Follower { segment: None, .. }
                            | Choice::Spot { at: None }
                            | Choice::Token { at: None }
                            | Choice::Amount { n: None }
                            | Choice::Track { space: None }
                    )
                })
                .unwrap_or_else(|| self.fallback.choose(game, d)),
            OnIllegal::Policy => self.fallback.choose(game, d),
        }
    }
}

impl<F: Chooser> Scripted<F> {
    /// True once a recorded choice was illegal under [`OnIllegal::Stop`]: the play loop
    /// ends the replay after this turn.
    pub fn halted(&self) -> bool {
        self.halted
    }
}

/// A short human description of a choice, an option of decision `kind`: its module's words
/// ([`Wording::Note`]), else the generic ones.
pub fn describe(kind: DecisionKind, c: &Choice) -> String {
    if let Some(words) = kind.words(c, Wording::Note) {
        return words;
    }
    match c {
        Choice::Place { x, y, rot } => format!("tile at ({x},{y}) turned {}°", *rot as u32 * 90),
        Choice::Follower { segment: None, .. } => "no follower".into(),
        Choice::Follower {
            segment: Some(s),
            kind,
        } => format!("{kind} on segment {s}"),
        Choice::Spot { at: None } => "pass".into(),
        Choice::Spot {
            at: Some((x, y, s)),
        } => format!("follower at ({x},{y}) segment {s}"),
        Choice::SpotOf {
            at: (x, y, s),
            kind,
        } => format!("{kind} at ({x},{y}) segment {s}"),
        Choice::Tile { tile } => format!("tile type #{tile} from the hand"),
        Choice::Flag { yes } => if *yes { "yes" } else { "no" }.into(),
        Choice::Token { at: None } => "no token".into(),
        Choice::Token {
            at: Some((x, y, n)),
        } => format!("token on tile ({x},{y}) way {n}"),
        Choice::Amount { n: None } => "pass".into(),
        Choice::Amount { n: Some(n) } => format!("{n}"),
        Choice::Track { space: None } => "pass".into(),
        Choice::Track { space: Some(s) } => format!("space {s} of the score track"),
        Choice::Seat { player } => format!("seat {}", u32::from(*player) + 1),
    }
}
