//! Seeded player policies that pick among a decision's legal options. Every random draw comes
//! from the decision's key (seed, turn, player, decision kind, occurrence), so equal positions
//! get equal choices in every ruleset. A policy sees what the deciding seat may know, never
//! the game: [`Policy`]'s [`Chooser`] builds the seat's [`SeatView`] and decides from it
//! ([`Policy::choose_seen`]); a look-ahead plays on the view's keyed determinizations.
//!
//! - `random`: uniform over the legal options;
//! - `greedy`: maximises immediate points (including what its follower would score), ties
//!   broken by the keyed draw;
//! - `heuristic`: one move ahead (placement × follower) with a position evaluation that values
//!   unfinished features by their chance to close from the unseen tiles (see `heuristic`);
//! - `mcts:N`: information-set Monte Carlo tree search with N iterations per decision, a fresh
//!   determinization of the unseen tiles each iteration (see `mcts`); `mcts:N:STYLE` says
//!   what it plays for ([`MctsStyle`]: `points`, the default, `lead` or `win`).

mod greedy;
mod heuristic;
pub mod luck;
mod mcts;
pub mod spec;
#[cfg(test)]
mod test_support;
mod values;
#[cfg(test)]
mod view_tests;

use crate::engine::rng;
use crate::engine::{Chooser, Decision, Game, SeatView};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

pub use mcts::MctsStyle;
pub use mcts::DEFAULT_ITERATIONS as MCTS_DEFAULT_ITERATIONS;

/// Which policy plays: a policy with its budget resolved (`mcts` alone means
/// [`MCTS_DEFAULT_ITERATIONS`]). Its text form is [`spec::PolicySpec`]'s canonical text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum PolicyKind {
    #[default]
    Random,
    Greedy,
    Heuristic,
    /// Monte Carlo tree search with this many iterations per decision, playing for this
    /// style.
    Mcts(u32, MctsStyle),
}

impl PolicyKind {
    /// The policy's name without its budget.
    pub fn name(self) -> &'static str {
        match self {
            PolicyKind::Random => "random",
            PolicyKind::Greedy => "greedy",
            PolicyKind::Heuristic => "heuristic",
            PolicyKind::Mcts(..) => "mcts",
        }
    }
}

impl fmt::Display for PolicyKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        spec::PolicySpec::from(*self).fmt(f)
    }
}

impl FromStr for PolicyKind {
    type Err = spec::PolicyError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(s.parse::<spec::PolicySpec>()?.kind())
    }
}

impl Serialize for PolicyKind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for PolicyKind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<PolicyKind, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Domain tag of a placebo's salt ([`salted`]).
const SALT_DOMAIN: u64 = 0x5341_4C54;

/// `d` with its keyed draw salted: the same decision in the same position, but the player's
/// own luck (random moves, tie-breaks, a search's determinizations) drawn anew. The rules and
/// the tile order are untouched: they never read a decision's key. Salt 0 is the identity,
/// so an unsalted player and a player salted with 0 play alike.
#[inline]
pub fn salted(d: &Decision, salt: u64) -> Decision {
    if salt == 0 {
        return *d;
    }
    Decision {
        key: rng::key(d.key ^ SALT_DOMAIN, salt),
        ..*d
    }
}

/// A game kept for copying positions into: a search copies the position for every option
/// or iteration, and a copy into a warm game reuses its allocations
/// ([`Game::copy_position_from`]). Boxed, so a policy stays small: a seat's policy holds
/// three spares, a game player six policies, and a game player by value on a worker
/// thread's stack (rayon's `map_init`) overflowed its 2 MiB when each spare held its game
/// inline (`meeplab bench rulesets/river2.rules`, 1 run in 5).
#[derive(Default)]
pub(crate) struct SpareGame(Option<Box<Game>>);

/// A copy of a policy starts with an empty spare (it fills at its first use).
impl Clone for SpareGame {
    fn clone(&self) -> SpareGame {
        SpareGame(None)
    }
}

impl SpareGame {
    /// A copy of `from`'s position without the divergence records; hand it back with
    /// [`SpareGame::put`] so the next copy reuses it.
    pub(crate) fn copy_of(&mut self, from: &Game) -> Box<Game> {
        let mut g = match self.0.take() {
            Some(g) => g,
            None => Box::new(from.clone()),
        };
        g.copy_position_from(from);
        g
    }

    /// A determinization of `view` (see [`SeatView::determinize`]) for `key`, into the kept
    /// game; hand it back with [`SpareGame::put`].
    pub(crate) fn determinized(&mut self, view: &SeatView, key: u64) -> Box<Game> {
        match self.0.take() {
            Some(mut g) => {
                view.determinize_into(&mut g, key);
                g
            }
            None => Box::new(view.determinize(key)),
        }
    }

    /// Keep `g` for the next copy.
    pub(crate) fn put(&mut self, g: Box<Game>) {
        self.0 = Some(g);
    }
}

impl fmt::Debug for SpareGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = if self.0.is_some() { "warm" } else { "empty" };
        write!(f, "SpareGame({state})")
    }
}

/// A policy instance: its kind and scratch space (choices depend only on the position and
/// the decision's key).
#[derive(Clone, Debug)]
pub struct Policy {
    kind: PolicyKind,
    values: Vec<i64>,
    scratch: heuristic::Scratch,
    search: mcts::Search,
}

impl Policy {
    pub fn new(kind: PolicyKind) -> Policy {
        Policy {
            kind,
            values: Vec::new(),
            scratch: heuristic::Scratch::default(),
            search: mcts::Search::default(),
        }
    }

    /// The policy this instance plays.
    pub fn kind(&self) -> PolicyKind {
        self.kind
    }

    /// The option [`Chooser::choose`] takes, with the policy's own value of it where it has
    /// one: `greedy` the valuation it maximises (the points a placement brings now; each
    /// other kind's own score, see `greedy.rs`), `heuristic` its evaluation of the position
    /// after the option (points, relative to the best other player), `mcts` the root's mean
    /// reward of the chosen child (about −1 to 1.5); `random` and a forced decision (one
    /// option) `None`. The policy sees what the deciding seat may know ([`SeatView`]).
    pub fn choose_valued(&mut self, game: &Game, d: &Decision) -> (usize, Option<f64>) {
        let game = &SeatView::new(game, d.player);
        match self.kind {
            PolicyKind::Random => (rng::index(d.key, d.options), None),
            PolicyKind::Greedy => {
                let (i, v) = greedy::choose_valued(game, d, &mut self.values);
                (i, v.map(|v| v as f64))
            }
            PolicyKind::Heuristic => {
                let (i, v) = heuristic::choose_valued(game, d, &mut self.scratch);
                (i, v.map(|v| v as f64 / 1000.0))
            }
            PolicyKind::Mcts(..) => {
                let i = self.choose_seen(game, d);
                let v = if d.options > 1 {
                    self.search.root_mean(i)
                } else {
                    None
                };
                (i, v)
            }
        }
    }
}

impl Policy {
    /// The option the policy takes at decision `d`, seeing only `view`: what the deciding
    /// seat may know. Every policy decides through this; [`Chooser::choose`] builds the view.
    #[inline]
    pub fn choose_seen(&mut self, game: &SeatView, d: &Decision) -> usize {
        match self.kind {
            PolicyKind::Random => rng::index(d.key, d.options),
            PolicyKind::Greedy => greedy::choose(game, d, &mut self.values),
            PolicyKind::Heuristic => heuristic::choose(game, d, &mut self.scratch),
            PolicyKind::Mcts(iterations, style) => self.search.choose(game, d, iterations, style),
        }
    }
}

/// The driver's side: the policy is given the deciding seat's view of the game, never the
/// game itself.
impl Chooser for Policy {
    #[inline]
    fn choose(&mut self, game: &Game, d: &Decision) -> usize {
        self.choose_seen(&SeatView::new(game, d.player), d)
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::rules;
    use super::*;
    use crate::engine::NoEvents;

    /// Plays with `choose_valued` and checks every decision against a second instance's
    /// `choose` (every `every`-th decision, for the costly search).
    struct Both {
        valued: Policy,
        plain: Policy,
        every: usize,
        seen: usize,
        valued_count: usize,
    }

    impl Chooser for Both {
        fn choose(&mut self, game: &Game, d: &Decision) -> usize {
            self.seen += 1;
            if !self.seen.is_multiple_of(self.every) {
                return self.plain.choose(game, d);
            }
            let (i, v) = self.valued.choose_valued(game, d);
            assert_eq!(i, self.plain.choose(game, d), "{:?} {}", d.kind, self.seen);
            let has_value = !matches!(self.valued.kind(), PolicyKind::Random) && d.options > 1;
            assert_eq!(
                v.is_some(),
                has_value,
                "{:?} {:?}",
                d.kind,
                self.valued.kind()
            );
            assert!(v.is_none_or(f64::is_finite));
            self.valued_count += usize::from(v.is_some());
            i
        }
    }

    #[test]
    fn choose_valued_takes_the_option_choose_takes() {
        for (kind, every) in [
            (PolicyKind::Random, 1),
            (PolicyKind::Greedy, 1),
            (PolicyKind::Heuristic, 1),
            (PolicyKind::Mcts(8, MctsStyle::Points), 9),
        ] {
            for (k, name) in ["goldmines-hig-2012", "robbers-2012", "cropcircles"]
                .iter()
                .enumerate()
            {
                let r = rules(format!("rulesets/{name}.rules"));
                let mut both = Both {
                    valued: Policy::new(kind),
                    plain: Policy::new(kind),
                    every,
                    seen: 0,
                    valued_count: 0,
                };
                Game::new(r, 40 + k as u64, 3).play(&mut both, &mut NoEvents);
                assert!(both.seen > 100, "{name}");
                if kind != PolicyKind::Random {
                    assert!(both.valued_count > 5, "{kind} {name}");
                }
            }
        }
    }

    #[test]
    fn values_are_in_the_policys_units() {
        let r = rules("rulesets/base.rules");
        let mut g = Game::new(r, 5, 2);
        g.setup(&mut NoEvents);
        assert!(g.draw(&mut NoEvents));
        let crate::engine::Pending::Decision(d) = g.pending() else {
            panic!("a placement is pending")
        };
        assert!(d.options > 1);
        // greedy: the points the placement brings now (nothing closes on the first turns)
        let (_, greedy) = Policy::new(PolicyKind::Greedy).choose_valued(&g, &d);
        assert!(
            greedy.is_some_and(|v| (0.0..=10.0).contains(&v)),
            "{greedy:?}"
        );
        // mcts: a mean reward
        let (_, m) = Policy::new(PolicyKind::Mcts(10, MctsStyle::Points)).choose_valued(&g, &d);
        assert!(m.is_some_and(|v| (-1.5..=2.0).contains(&v)), "{m:?}");
    }
}
