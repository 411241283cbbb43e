//! Checked moves: the public way to answer a decision from outside input (a record, a
//! replay, a command line, a test). [`Game::apply`] takes an option index and
//! [`Game::apply_choice`] an option in semantic form ([`Choice`]); both fail with a
//! [`MoveError`], changing nothing, when no decision is pending or the answer is not one of
//! the pending decision's options. Nothing is clamped.
//!
//! Search, policies and the play loops answer with indices their choosers took from the
//! options, and keep the unchecked fast path ([`Game::apply_unchecked`], `turn.rs`).

use crate::engine::decision::{Choice, DecisionKind};
use crate::engine::event::{EventSink, NoEvents};
use crate::engine::game::Game;
use crate::engine::hooks::Expansions;
use crate::engine::step::Step;
use std::fmt;

/// Why a move could not be applied. The game is left as it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// No decision is pending: the game waits for a draw (`over: false`) or is over.
    NoDecision { over: bool },
    /// The option index is not below the pending decision's number of options.
    OutOfRange {
        kind: DecisionKind,
        index: usize,
        options: usize,
    },
    /// No option of the pending decision means this choice.
    Illegal {
        kind: DecisionKind,
        choice: Choice,
        options: usize,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MoveError::NoDecision { over: true } => {
                f.write_str("no decision is pending: the game is over")
            }
            MoveError::NoDecision { over: false } => {
                f.write_str("no decision is pending: the next tile is to be drawn")
            }
            MoveError::OutOfRange {
                kind,
                index,
                options,
            } => write!(
                f,
                "option {index} is out of range: the {} decision has {options} option{}",
                kind.name(),
                if options == 1 { "" } else { "s" }
            ),
            MoveError::Illegal {
                kind,
                choice,
                options,
            } => write!(
                f,
                "{} is not among the {options} legal options of the {} decision",
                choice.phrase(kind),
                kind.name()
            ),
        }
    }
}

impl std::error::Error for MoveError {}

impl<X: Expansions> Game<X> {
    /// The pending decision's option index that means `choice` (the first, should two mean
    /// the same). Fails when no decision is pending or none of its options means `choice`.
    pub fn option_of(&self, choice: &Choice) -> Result<usize, MoveError> {
        let d = self.asked.ok_or(self.no_decision())?;
        (0..d.options)
            .find(|&i| self.choice(d.kind, i) == *choice)
            .ok_or(MoveError::Illegal {
                kind: d.kind,
                choice: *choice,
                options: d.options,
            })
    }

    /// Answer the pending decision with option `index` and run on to the next pending point,
    /// without events. Fails, changing nothing, when no decision is pending or `index` is
    /// not below its number of options.
    pub fn apply(&mut self, index: usize) -> Result<(), MoveError> {
        self.apply_with(index, &mut NoEvents)
    }

    /// [`Game::apply`], sending the events to `s`.
    pub fn apply_with<S: EventSink>(&mut self, index: usize, s: &mut S) -> Result<(), MoveError> {
        let d = self.asked.ok_or(self.no_decision())?;
        if index >= d.options {
            return Err(MoveError::OutOfRange {
                kind: d.kind,
                index,
                options: d.options,
            });
        }
        self.apply_unchecked_with(index, s);
        Ok(())
    }

    /// Answer the pending decision with the option that means `choice` (see
    /// [`Game::option_of`]) and run on, without events. Fails, changing nothing, when no
    /// decision is pending or `choice` is not one of its options.
    pub fn apply_choice(&mut self, choice: &Choice) -> Result<(), MoveError> {
        self.apply_choice_with(choice, &mut NoEvents)
    }

    /// [`Game::apply_choice`], sending the events to `s`.
    pub fn apply_choice_with<S: EventSink>(
        &mut self,
        choice: &Choice,
        s: &mut S,
    ) -> Result<(), MoveError> {
        let i = self.option_of(choice)?;
        self.apply_unchecked_with(i, s);
        Ok(())
    }

    fn no_decision(&self) -> MoveError {
        MoveError::NoDecision {
            over: self.step == Step::Over,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::MoveError;
    use crate::engine::{compile, Choice, DecisionKind, Game, NoEvents, Pending};
    use std::path::Path;

    fn base(seed: u64) -> Game {
        let loaded = crate::dsl::load_ruleset(Path::new("rulesets/base.rules"))
            .unwrap_or_else(|d| panic!("{d}"));
        Game::new(compile(&loaded.ruleset), seed, 2)
    }

    #[test]
    fn no_decision_pending_is_an_error() {
        let mut g = base(1);
        assert_eq!(g.apply(0), Err(MoveError::NoDecision { over: false }));
        g.setup(&mut NoEvents);
        assert_eq!(g.apply(0), Err(MoveError::NoDecision { over: false }));
        let c = Choice::Follower {
            segment: None,
            kind: crate::engine::FollowerKind::PLAIN,
        };
        assert_eq!(
            g.apply_choice(&c),
            Err(MoveError::NoDecision { over: false })
        );
        // play to the end
        loop {
            match g.pending() {
                Pending::Decision(_) => g.apply(0).expect("option 0 is legal"),
                Pending::Draw => {
                    if !g.draw(&mut NoEvents) {
                        g.finish_now(&mut NoEvents);
                    }
                }
                Pending::End => break,
            }
        }
        assert_eq!(g.apply(0), Err(MoveError::NoDecision { over: true }));
        assert!(MoveError::NoDecision { over: true }
            .to_string()
            .contains("over"));
    }

    #[test]
    fn an_index_out_of_range_is_an_error_and_changes_nothing() {
        let mut g = base(3);
        assert!(g.draw(&mut NoEvents));
        let Pending::Decision(d) = g.pending() else {
            panic!("a placement is asked")
        };
        assert_eq!(d.kind, DecisionKind::PLACEMENT);
        let err = g.apply(d.options).unwrap_err();
        assert_eq!(
            err,
            MoveError::OutOfRange {
                kind: DecisionKind::PLACEMENT,
                index: d.options,
                options: d.options,
            }
        );
        assert!(err.to_string().contains("placement"), "{err}");
        assert_eq!(g.pending(), Pending::Decision(d), "still asked");
        assert!(g.apply(usize::MAX).is_err());
        assert_eq!(g.apply(d.options - 1), Ok(()));
    }

    #[test]
    fn a_choice_applies_by_meaning_or_is_named_in_the_error() {
        let mut g = base(5);
        let mut h = g.clone();
        assert!(g.draw(&mut NoEvents));
        assert!(h.draw(&mut NoEvents));
        let Pending::Decision(d) = g.pending() else {
            panic!("a placement is asked")
        };
        let last = g.choice(d.kind, d.options - 1);
        assert_eq!(g.option_of(&last), Ok(d.options - 1));
        // a place far from the board and a choice of another kind are both illegal
        for bad in [
            Choice::Place {
                x: 40,
                y: 40,
                rot: 0,
            },
            Choice::Follower {
                segment: None,
                kind: crate::engine::FollowerKind::PLAIN,
            },
        ] {
            let err = g.apply_choice(&bad).unwrap_err();
            assert!(matches!(err, MoveError::Illegal { choice, .. } if choice == bad));
            assert!(err.to_string().contains(&bad.to_string()), "{err}");
        }
        g.apply_choice(&last).expect("legal");
        h.apply(d.options - 1).expect("legal");
        assert_eq!(g.pending(), h.pending());
        let at = |g: &Game| {
            let t = g.placed_tiles().last().map(|t| (t.tile, t.x, t.y, t.rot));
            t.expect("a tile was placed")
        };
        assert_eq!(at(&g), at(&h));
    }
}
