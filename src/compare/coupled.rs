//! The engine as the player of a coupled compare run: [`CoupledPlayer`] plays the seeds of a
//! run under each of its rulesets (and the placebo's redrawn deals, the decision probes, the
//! skill study's seatings, metered for luck when asked) through [`crate::play`], and is what
//! [`run_compare`](super::run_compare) drives through the [`SeedPlayer`] trait. It lives here,
//! above `play`, so that `play` knows nothing of comparisons.

use super::SeedPlayer;
use crate::engine::{Compiled, GameOutcome, MAX_PLAYERS};
use crate::play::{deals_differ, play_cached, play_metered, play_salted, Redraw, Seats};
use crate::policy::luck::{Luck, LuckMeter};
use crate::policy::PolicyKind;
use std::sync::Arc;

/// The engine as the player of a coupled compare run: ruleset `r` of the run is `rules[r]`,
/// every game has `players` seats playing `seats`; the placebo games are [`play_salted`].
pub struct CoupledPlayer<'a> {
    pub rules: &'a [Arc<Compiled>],
    pub players: u8,
    pub seats: Seats,
    /// The skill study's (strong, weak) policies, if the run has one.
    pub skill: Option<(PolicyKind, PolicyKind)>,
}

impl CoupledPlayer<'_> {
    /// The game of `seed` under ruleset `ruleset` with `seats`, metered when asked and the
    /// ruleset can be valued.
    fn play_seated(
        &self,
        ruleset: usize,
        seed: u64,
        seats: Seats,
        metered: bool,
    ) -> (GameOutcome, Option<Luck>) {
        let rules = &self.rules[ruleset];
        with_meter(rules, metered, |meter| match meter {
            Some(m) => {
                let (o, l) = play_metered(rules, seed, self.players, seats, m);
                (o, Some(l))
            }
            None => (play_cached(rules, seed, self.players, seats), None),
        })
    }
}

thread_local! {
    static METER: std::cell::RefCell<LuckMeter> = std::cell::RefCell::new(LuckMeter::new());
}

/// Runs `f` with this thread's luck meter when `metered` and `rules` can be valued.
fn with_meter<T>(
    rules: &Compiled,
    metered: bool,
    f: impl FnOnce(Option<&mut LuckMeter>) -> T,
) -> T {
    if metered && crate::policy::luck::can_value(rules).is_ok() {
        METER.with(|m| f(Some(&mut m.borrow_mut())))
    } else {
        f(None)
    }
}

impl SeedPlayer for CoupledPlayer<'_> {
    fn play(&self, ruleset: usize, seed: u64) -> GameOutcome {
        play_cached(&self.rules[ruleset], seed, self.players, self.seats)
    }

    fn play_salted(
        &self,
        ruleset: usize,
        seed: u64,
        salt: u64,
        from_turn: u32,
        deal: bool,
    ) -> GameOutcome {
        play_salted(
            &self.rules[ruleset],
            seed,
            self.players,
            self.seats,
            Redraw {
                salt,
                from_turn,
                deal,
            },
        )
    }

    fn deals_differ(&self, a: usize, b: usize, seed: u64) -> bool {
        deals_differ(&self.rules[a], &self.rules[b], seed)
    }

    fn play_probed(
        &self,
        ruleset: usize,
        seed: u64,
        position: u64,
        metered: bool,
    ) -> (GameOutcome, Vec<super::decisions::PairProbe>, Option<Luck>) {
        use super::decisions::{play_capturing, probe_or_skip, ProbeTarget};
        let Some(target) = ProbeTarget::new(position, seed, self.rules) else {
            let (outcome, luck) = self.play_metered(ruleset, seed, metered);
            return (outcome, Vec::new(), luck);
        };
        debug_assert_eq!(
            target.host, ruleset,
            "the run and the probe agree on the host"
        );
        let rules = &self.rules[target.host];
        let (outcome, caught, luck) = with_meter(rules, metered, |mut meter| {
            let (outcome, caught) = play_capturing(
                rules,
                seed,
                self.players,
                self.seats,
                &target,
                meter.as_deref_mut(),
            );
            (outcome, caught, meter.map(|m| m.finish()))
        });
        let probes = probe_or_skip(&caught, &target, self.rules, self.seats);
        (outcome, probes, luck)
    }

    fn play_metered(
        &self,
        ruleset: usize,
        seed: u64,
        metered: bool,
    ) -> (GameOutcome, Option<Luck>) {
        self.play_seated(ruleset, seed, self.seats, metered)
    }

    fn play_skill(
        &self,
        ruleset: usize,
        seed: u64,
        strong: u8,
        metered: bool,
    ) -> Option<(GameOutcome, Option<Luck>)> {
        let (strong_kind, weak_kind) = self.skill?;
        let mut kinds = [weak_kind; MAX_PLAYERS];
        kinds[strong as usize % MAX_PLAYERS] = strong_kind;
        let seats = Seats::per_seat(&kinds).expect("a policy per seat");
        Some(self.play_seated(ruleset, seed, seats, metered))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn base() -> Arc<Compiled> {
        let loaded = crate::dsl::load_ruleset(Path::new("rulesets/base.rules"))
            .unwrap_or_else(|d| panic!("{d}"));
        crate::engine::compile(&loaded.ruleset)
    }

    #[test]
    fn a_skill_game_seats_the_strong_policy_in_its_seat() {
        let rules = [base()];
        let player = CoupledPlayer {
            rules: &rules,
            players: 3,
            seats: Seats::all(PolicyKind::Random),
            skill: Some((PolicyKind::Greedy, PolicyKind::Random)),
        };
        for strong in 0..3u8 {
            let mut kinds = [PolicyKind::Random; 3];
            kinds[strong as usize] = PolicyKind::Greedy;
            let seats = Seats::per_seat(&kinds).expect("three seats");
            let expected = crate::play::play(&rules[0], 11, 3, seats);
            let (plain, none) = player.play_skill(0, 11, strong, false).expect("a study");
            assert_eq!(plain, expected, "strong in seat {strong}");
            assert_eq!(none, None);
            let (metered, luck) = player.play_skill(0, 11, strong, true).expect("a study");
            assert_eq!(metered, expected);
            assert!(luck.is_some_and(|l| l.draws > 0));
        }
        let no_study = CoupledPlayer {
            skill: None,
            ..player
        };
        assert!(no_study.play_skill(0, 11, 0, false).is_none());
    }
}
