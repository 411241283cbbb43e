//! The exact, mergeable aggregate of a compare run.
//!
//! Only integers are accumulated (counts, sums, sums of squares, histograms), and merging is
//! field-wise addition, so the aggregate of any partition of the games — by thread, by
//! chunk, by `--shard` — is identical to the aggregate of the whole. Floats are computed once,
//! at the end ([`crate::compare::summary`]).
//!
//! The aggregates are declared with the field-list macro of `aggregate` (each field once:
//! the struct, its merge and its count rule generated); here the whole run's
//! [`Accumulator`] (its shape, the seeds added, merging), with one ruleset's aggregate in
//! [`ruleset`] and one pair's in [`pair`].

use super::aggregate::{Merge, RunShape};
use super::balance::BalanceAcc;
use super::decisions::{DecisionAcc, PairProbe};
use super::luck::LuckAcc;
use super::paired::PairedWins;
use super::seat_counts::ByCounter;
use super::skill::{SkillAcc, SkillSeed};
use super::stats::Moments;
use crate::engine::GameOutcome;
use crate::policy::luck::Luck;
use serde::{Deserialize, Serialize};

mod pair;
mod ruleset;

pub use pair::{lead_before, Example, LeadBefore, LeadCounts, PairAcc, EXAMPLES};
pub use ruleset::{CounterSums, RulesetAcc, SeatAcc};

/// The aggregate of a set of seeds, each played under every ruleset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Accumulator {
    pub players: u8,
    /// Seeds accumulated.
    pub games: u64,
    pub rulesets: Vec<RulesetAcc>,
    /// All pairs `a < b`, in lexicographic order.
    pub pairs: Vec<PairAcc>,
    /// The decision probes (empty in a run without `--positions`).
    #[serde(default)]
    pub decisions: DecisionAcc,
    /// The luck sums (empty in a run without `--luck`).
    #[serde(default)]
    pub luck: LuckAcc,
    /// The duplicate skill sets (empty in a run without `--skill`).
    #[serde(default)]
    pub skill: SkillAcc,
    /// The balance figures ([`crate::compare::balance`]); empty in an accumulator written
    /// before they existed, and then for the rest of that run.
    #[serde(default)]
    pub balance: BalanceAcc,
}

/// Sorted, de-duplicated winning seats (the engine should already sort; this makes the
/// comparison independent of it).
pub(super) fn winner_set(o: &GameOutcome) -> Vec<u8> {
    let mut w = o.winners.clone();
    w.sort_unstable();
    w.dedup();
    w
}

impl Accumulator {
    pub fn new(rulesets: usize, players: u8) -> Accumulator {
        let seats = players as usize;
        let mut pairs = Vec::new();
        for a in 0..rulesets {
            for b in a + 1..rulesets {
                pairs.push(PairAcc {
                    a,
                    b,
                    score_delta: vec![Moments::default(); seats],
                    count_delta: ByCounter::from_fn(|_| vec![Moments::default(); seats]),
                    seat_wins: vec![PairedWins::default(); seats],
                    ..PairAcc::default()
                });
            }
        }
        Accumulator {
            players,
            games: 0,
            rulesets: (0..rulesets)
                .map(|_| RulesetAcc {
                    seats: vec![SeatAcc::default(); seats],
                    ..RulesetAcc::default()
                })
                .collect(),
            pairs,
            decisions: DecisionAcc::default(),
            luck: LuckAcc::default(),
            skill: SkillAcc::default(),
            balance: BalanceAcc::new(rulesets),
        }
    }

    /// Adds one seed's luck (one per ruleset; nothing when a ruleset's was not measured).
    pub fn add_luck(&mut self, outcomes: &[GameOutcome], luck: &[Option<Luck>]) {
        if luck.len() != outcomes.len() || luck.iter().any(Option::is_none) {
            return;
        }
        let luck: Vec<Luck> = luck.iter().flatten().copied().collect();
        self.luck.add(outcomes, &luck);
    }

    /// Adds one seed's duplicate skill sets (one per ruleset; nothing for none).
    pub fn add_skill(&mut self, sets: &[SkillSeed]) {
        if !sets.is_empty() {
            self.skill.add(sets);
        }
    }

    /// Adds the decision probes of one position (one per pair; nothing for a game that
    /// hosts none).
    pub fn add_probes(&mut self, probes: &[PairProbe]) {
        if probes.is_empty() {
            return;
        }
        if self.decisions.pairs.is_empty() {
            self.decisions = DecisionAcc::new(self.rulesets.len());
        }
        self.decisions.add(probes);
    }

    /// Checks that this aggregate has the shape of a run of `rulesets` rulesets and `players`
    /// seats, and that its counts agree with each other: what [`Accumulator::new`] and
    /// [`Accumulator::add_game`] guarantee, and what merging and reporting rely on. The error
    /// names the first inconsistent field (as a path into `accumulator.json`).
    pub fn check_shape(&self, rulesets: usize, players: u8) -> Result<(), String> {
        self.luck.check_shape(rulesets, players)?;
        self.skill.check_shape(rulesets, players)?;
        if self.luck.games > self.games || self.skill.games > self.games {
            return Err(format!(
                "accumulator.luck or accumulator.skill counts more seeds than accumulator.games ({})",
                self.games
            ));
        }
        let seats = players as usize;
        let games = self.games;
        if self.players != players {
            return Err(format!(
                "accumulator.players is {} but the spec has {players} players",
                self.players
            ));
        }
        if self.rulesets.len() != rulesets {
            return Err(format!(
                "accumulator.rulesets has length {} but the spec has {rulesets} rulesets",
                self.rulesets.len()
            ));
        }
        let expected_pairs = rulesets * rulesets.saturating_sub(1) / 2;
        if self.pairs.len() != expected_pairs {
            return Err(format!(
                "accumulator.pairs has length {} but the spec's {rulesets} rulesets make \
                 {expected_pairs} pair(s)",
                self.pairs.len()
            ));
        }
        let seat_games = games.checked_mul(seats as u64).ok_or_else(|| {
            format!("accumulator.games ({games}) × players ({players}) overflows")
        })?;
        let run = RunShape {
            games,
            players,
            seat_games,
        };
        for (r, acc) in self.rulesets.iter().enumerate() {
            let path = format!("accumulator.rulesets[{r}]");
            acc.check_fields(&run, &path)?;
            for (s, seat) in acc.seats.iter().enumerate() {
                seat.check_across(&format!("{path}.seats[{s}]"))?;
            }
        }
        let mut expected = (0..rulesets).flat_map(|a| (a + 1..rulesets).map(move |b| (a, b)));
        for (i, pair) in self.pairs.iter().enumerate() {
            let path = format!("accumulator.pairs[{i}]");
            if let Some((a, b)) = expected.next().filter(|&ab| ab != (pair.a, pair.b)) {
                return Err(format!(
                    "{path} is the pair ({}, {}) but should be ({a}, {b})",
                    pair.a, pair.b
                ));
            }
            pair.check_fields(&run, &path)?;
            pair.check_across(&run, &path)?;
        }
        self.balance.check(rulesets, games, "accumulator.balance")?;
        if !self.decisions.pairs.is_empty() {
            self.decisions
                .check(rulesets, games)
                .map_err(|e| format!("accumulator.{e}"))?;
        }
        Ok(())
    }

    /// Adds one seed: `outcomes[r]` is the game under ruleset `r`.
    ///
    /// # Panics
    /// When the number of outcomes or of seats disagrees with the accumulator (a broken
    /// engine contract, not a user error).
    pub fn add_game(&mut self, outcomes: &[GameOutcome]) {
        self.add_seed(outcomes, None);
    }

    /// Adds one seed with its placebo games: `placebo[p]` for the `p`-th pair (in
    /// [`Accumulator::pairs`] order) holds A′ and B′, or `None` when the pair played
    /// identically (see [`crate::compare::placebo`]). `placebo: None` = a run without a
    /// placebo.
    ///
    /// # Panics
    /// As [`Accumulator::add_game`], and when `placebo` has not one entry per pair.
    pub fn add_seed(
        &mut self,
        outcomes: &[GameOutcome],
        placebo: Option<&[Option<[GameOutcome; 2]>]>,
    ) {
        if let Some(p) = placebo {
            assert_eq!(p.len(), self.pairs.len(), "one placebo entry per pair");
        }
        assert_eq!(
            outcomes.len(),
            self.rulesets.len(),
            "one outcome per ruleset"
        );
        for o in outcomes {
            assert_eq!(
                o.seats.len(),
                self.players as usize,
                "outcome of seed {} has {} seats, expected {}",
                o.seed,
                o.seats.len(),
                self.players
            );
        }
        // the balance covers every seed or none (an accumulator from before it existed)
        if self.balance.games == self.games {
            self.balance.add(outcomes);
        }
        self.games += 1;
        for (acc, o) in self.rulesets.iter_mut().zip(outcomes) {
            acc.add(o);
        }
        for (p, pair) in self.pairs.iter_mut().enumerate() {
            let (a, b) = (&outcomes[pair.a], &outcomes[pair.b]);
            pair.add(a, b, placebo.map(|pl| pl[p].as_ref()));
        }
    }

    /// Adds another aggregate of the same shape (disjoint seeds).
    ///
    /// # Errors
    /// When either aggregate fails [`Accumulator::check_shape`] for this one's rulesets and
    /// players, or when a sum overflows (possible only with numbers no run produces, e.g. in
    /// an edited `accumulator.json`). On error `self` may be partly merged.
    pub fn merge(&mut self, other: &Accumulator) -> Result<(), String> {
        let (rulesets, players) = (self.rulesets.len(), self.players);
        self.check_shape(rulesets, players)?;
        other.check_shape(rulesets, players)?;
        // the balance covers every seed or none: one side without it leaves the merge without
        if self.balance.games == self.games && other.balance.games == other.games {
            self.balance.merge(&other.balance, "accumulator.balance")?;
        } else {
            self.balance = BalanceAcc::default();
        }
        self.games.merge_from(&other.games, "accumulator.games")?;
        self.rulesets
            .merge_from(&other.rulesets, "accumulator.rulesets")?;
        self.pairs.merge_from(&other.pairs, "accumulator.pairs")?;
        self.decisions
            .merge(&other.decisions)
            .map_err(|e| format!("accumulator.decisions: {e}"))?;
        self.luck.merge(&other.luck)?;
        self.skill.merge(&other.skill)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::SeatResult;

    /// Every per-seat counter at `n`.
    fn counts(n: u32) -> crate::engine::SeatCounts {
        let mut c = crate::engine::SeatCounts::default();
        for k in crate::engine::SeatCounter::all() {
            c.set(k, n);
        }
        c
    }

    fn outcome(seed: u64, totals: &[i64], hashes: &[u64]) -> GameOutcome {
        let max = *totals.iter().max().unwrap();
        GameOutcome {
            seed,
            seats: totals
                .iter()
                .map(|&t| SeatResult {
                    total: t,
                    counts: counts(t as u32 % 3),
                    ..SeatResult::default()
                })
                .collect(),
            winners: (0..totals.len() as u8)
                .filter(|&s| totals[s as usize] == max)
                .collect(),
            turns: hashes.len() as u32,
            turn_hashes: hashes.to_vec(),
            state_hashes: hashes.to_vec(),
            leaders: vec![0b11; hashes.len()],
            ..GameOutcome::default()
        }
    }

    #[test]
    fn merging_halves_equals_the_whole_and_survives_json() {
        let games: Vec<[GameOutcome; 2]> = (0..10u64)
            .map(|i| {
                let a = outcome(i, &[i as i64, 5], &[1, 2, 3]);
                let b = outcome(i, &[i as i64 + (i % 2) as i64, 5], &[1, 2, 3 + i % 3]);
                [a, b]
            })
            .collect();
        let mut whole = Accumulator::new(2, 2);
        let mut left = Accumulator::new(2, 2);
        let mut right = Accumulator::new(2, 2);
        for (i, g) in games.iter().enumerate() {
            whole.add_game(g);
            if i % 3 == 0 { &mut left } else { &mut right }.add_game(g);
        }
        right.merge(&left).unwrap();
        assert_eq!(right, whole);
        // Shapes must agree; sums must not overflow.
        let mut other = Accumulator::new(2, 3);
        let err = other.merge(&whole).unwrap_err();
        assert_eq!(err, "accumulator.players is 2 but the spec has 3 players");
        let mut huge = whole.clone();
        huge.rulesets[1].seats[0].total.sum_sq = u128::MAX;
        let err = huge.clone().merge(&huge).unwrap_err();
        assert_eq!(
            err,
            "accumulator.rulesets[1].seats[0].total.sum_sq overflows when the inputs are added"
        );
        let json = serde_json::to_string(&whole).unwrap();
        let back: Accumulator = serde_json::from_str(&json).unwrap();
        assert_eq!(back, whole);
        assert_eq!(whole.pairs[0].diverged, 6);
        assert_eq!(whole.pairs[0].first_divergence.get(&2), Some(&6));
    }

    /// Who benefits and identical outcomes: seat 0 wins under B where A gave seat 1 the win;
    /// the other games are identical even when play differed.
    #[test]
    fn paired_wins_and_identical_outcomes_are_counted() {
        let mut acc = Accumulator::new(2, 2);
        for i in 0..10u64 {
            let a = outcome(i, &[10, 12], &[1, 2]);
            let b = if i < 3 {
                outcome(i, &[14, 12], &[1, 9])
            } else {
                outcome(i, &[10, 12], &[1, 7]) // play differed, same result
            };
            acc.add_game(&[a, b]);
        }
        let p = &acc.pairs[0];
        assert_eq!(p.diverged, 10);
        assert_eq!(p.identical_outcomes, 7);
        assert_eq!(p.winner_changed, 3);
        assert_eq!(
            p.seat_wins[0],
            PairedWins {
                both: 0,
                a_only: 0,
                b_only: 3,
                neither: 7
            }
        );
        assert_eq!(p.seat_wins[1].a_only, 3);
        assert_eq!(p.score_delta_hist.get(&4), Some(&3));
        assert_eq!(p.score_delta_hist.get(&0), Some(&17));
        acc.check_shape(2, 2).unwrap();
        // the examples: the three winner changes, by seed (equal swings)
        let seeds: Vec<u64> = p.examples.iter().map(|e| e.seed).collect();
        assert_eq!(seeds, vec![0, 1, 2]);
        assert_eq!(p.examples[0].swing, 4);
        assert_eq!(p.examples[0].scores_b, vec![14, 12]);
        assert_eq!(p.examples[0].first_difference_turn, Some(1));
        assert_eq!(p.examples[0].first_state_divergence_turn, Some(1));
        let mut broken = acc.clone();
        broken.pairs[0].seat_wins[1].both += 1;
        assert!(broken
            .check_shape(2, 2)
            .unwrap_err()
            .contains("seat_wins[1]"));
    }

    /// Play that differed only in the order of events reaching the same positions counts as
    /// "play differed", not as diverged; the first differing event is classified.
    #[test]
    fn play_differed_is_apart_from_state_divergence() {
        let mut acc = Accumulator::new(2, 2);
        for i in 0..6u64 {
            let mut a = outcome(i, &[10, 12], &[1, 2, 3]);
            // a real choice: where it was made (high half), what followed (low half)
            a.choice_marks = vec![0xAAAA_0000_0000_0001];
            let mut b = a.clone();
            if i < 4 {
                b.turn_hashes[1] = 99; // another order of events, the same positions
                b.choice_marks[0] = if i == 0 {
                    0xBBBB_0000_0000_0001 // made elsewhere: the difference came before it
                } else {
                    0xAAAA_0000_0000_0002 // the same choice answered differently
                };
            }
            acc.add_game(&[a, b]);
        }
        let p = &acc.pairs[0];
        assert_eq!((p.diverged, p.play_differed), (0, 4));
        assert_eq!(p.first_play_difference.get(&1), Some(&4));
        // game 0: a rule event; games 1–3: a player's choice; games 4–5: play agreed
        assert_eq!((p.first_difference_choice, p.first_difference_rule), (3, 1));
        assert_eq!(p.identical_outcomes, 6);
        acc.check_shape(2, 2).unwrap();
        let mut broken = acc.clone();
        broken.pairs[0].first_difference_rule += 1;
        assert!(broken
            .check_shape(2, 2)
            .unwrap_err()
            .contains("first_difference_choice + first_difference_rule"));
    }

    /// Who gains a changed winner, by the lead at the end of the turn before the states part.
    #[test]
    fn lead_before_divergence_is_counted() {
        let mut acc = Accumulator::new(2, 3);
        // leaders after turns 0..4: all level, seat 0 alone, seats 0 and 1, seat 2 alone
        let leaders = vec![0b111, 0b001, 0b011, 0b100];
        let game = |seed, totals: &[i64], hashes: &[u64]| GameOutcome {
            leaders: leaders.clone(),
            ..outcome(seed, totals, hashes)
        };
        let a = |seed| game(seed, &[20, 10, 5], &[1, 2, 3, 4]);
        // 1: parts after turn 1 (seat 0 led alone): seat 1 gains → a trailing seat
        acc.add_game(&[a(1), game(1, &[10, 20, 5], &[1, 2, 9, 9])]);
        // 2: parts after turn 3 (seat 2 led alone): seat 2 gains → the leader
        acc.add_game(&[a(2), game(2, &[10, 10, 30], &[1, 2, 3, 4, 9])]);
        // 3: parts after turn 2 (seats 0, 1 level): seat 1 joins the win → tied before
        acc.add_game(&[a(3), game(3, &[20, 20, 5], &[1, 2, 3, 9])]);
        // 4: parts at the set-up: everyone level → tied before
        acc.add_game(&[a(4), game(4, &[5, 10, 20], &[9, 9, 9, 9])]);
        // 5: no change of winner: not counted
        acc.add_game(&[a(5), game(5, &[21, 10, 5], &[1, 9, 9, 9])]);
        let p = &acc.pairs[0];
        assert_eq!(p.winner_changed, 4);
        assert_eq!(
            p.winner_change_lead,
            LeadCounts {
                to_leader: 1,
                to_trailing: 1,
                tied_before: 2
            }
        );
        acc.check_shape(2, 3).unwrap();
        // the counts must add up to the games whose winner changed
        let mut broken = acc.clone();
        broken.pairs[0].winner_change_lead.to_trailing -= 1;
        assert!(broken
            .check_shape(2, 3)
            .unwrap_err()
            .contains("winner_change_lead"));
    }
}
