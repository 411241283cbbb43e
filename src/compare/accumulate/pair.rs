//! One pair of rulesets' aggregate ([`PairAcc`]): how often their games parted, where, and
//! by what (a choice or a rule event); whose win changed and where the gainer stood before
//! ([`LeadCounts`]); paired score differences and those of the per-seat counts; the example games; the placebo.

use super::winner_set;
use crate::compare::aggregate::{aggregate, at_most, hist_count, Counted, Merge, RunShape};
use crate::compare::paired::PairedWins;
use crate::compare::placebo::PlaceboAcc;
use crate::compare::seat_counts::{ByCounter, Delta};
use crate::compare::stats::Moments;
use crate::engine::state_hash::FirstDifference;
use crate::engine::GameOutcome;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

aggregate! {
    /// Everything accumulated for one pair of rulesets `(a, b)`, `a < b`; differences are
    /// `b − a` per seed. The counts that bound each other are checked by
    /// `check_across`.
    #[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
    pub struct PairAcc {
        pub a: usize => kept,
        pub b: usize => kept,
        pub games: u64 where every_game,
        /// Games whose positions parted: some end-of-turn state (board, followers, scores,
        /// supply, what the expansions hold) differs.
        pub diverged: u64 where at_most_games,
        /// First turn whose end-of-turn state differs → games (diverged games only).
        pub first_divergence: BTreeMap<u32, u64>,
        /// Games whose event streams differ ("play differed"): a superset of the diverged
        /// games but for rules that differ only in the set-up, since the same events can come
        /// in another order and reach the same position.
        #[serde(default)]
        pub play_differed: u64 where at_most_games,
        /// First turn whose events differ → games (play-differed games only).
        #[serde(default)]
        pub first_play_difference: BTreeMap<u32, u64>,
        /// Of the play-differed games: those whose first differing event answered the same
        /// decision of the same player differently (a player's choice)…
        #[serde(default)]
        pub first_difference_choice: u64,
        /// …and those where it was anything else (a rule event).
        #[serde(default)]
        pub first_difference_rule: u64,
        /// Games whose set of winning seats differs.
        pub winner_changed: u64 where at_most_games,
        /// Of the games whose winner changed, by where the gaining seat stood at the end of
        /// the turn before the positions parted (see [`LeadBefore`]).
        #[serde(default)]
        pub winner_change_lead: LeadCounts,
        pub score_delta: Vec<Moments> where each_seat(every_game),
        /// Per per-seat counter (`SeatCounter`), its paired differences `b − a` per seat,
        /// written as `{one}_delta`.
        #[serde(flatten)]
        pub count_delta: ByCounter<Vec<Moments>, Delta> where each_counter(seats_every_game),
        /// Games whose outcomes are identical: every seat's points by category and per-seat
        /// counts, and the winners.
        pub identical_outcomes: u64 where at_most_games,
        /// Per seat: won under A, under B, both or neither (who benefits; McNemar).
        pub seat_wins: Vec<PairedWins> where each_seat(every_game),
        /// Paired score differences `b − a` of every seat: points → seat-games.
        pub score_delta_hist: BTreeMap<i64, u64> where every_seat_game,
        /// Up to [`EXAMPLES`] games whose winner changed, largest swing first (see
        /// [`Example::swing`]); the same whatever the partition of the games.
        pub examples: Vec<Example> => merge_examples,
        /// The same-rules yardstick (all zeros in a run without a placebo).
        #[serde(default)]
        pub placebo: PlaceboAcc,
    }
}

/// A seat's paired wins count every game once, in one of their four cells.
impl Counted for PairedWins {
    const COUNT: &'static str = " (both + a_only + b_only + neither)";
    fn count(&self) -> u64 {
        self.games()
    }
}

impl Merge for PairedWins {
    fn merge_from(&mut self, other: &PairedWins, _path: &str) -> Result<(), String> {
        self.merge(other);
        Ok(())
    }
}

impl Merge for PlaceboAcc {
    fn merge_from(&mut self, other: &PlaceboAcc, path: &str) -> Result<(), String> {
        self.merge(other, path)
    }
}

/// The examples of both sides, the best [`EXAMPLES`] kept.
fn merge_examples(into: &mut Vec<Example>, from: &[Example], _path: &str) -> Result<(), String> {
    into.extend(from.iter().cloned());
    keep_best(into);
    Ok(())
}

/// Where the seat that gained from a changed winner stood before the games parted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeadBefore {
    /// It led alone.
    Leader,
    /// It trailed the leader(s).
    Trailing,
    /// It shared the lead (at the set-up every seat does).
    Tied,
}

aggregate! {
    /// Games whose winner changed, by [`LeadBefore`].
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
    pub struct LeadCounts {
        pub to_leader: u64,
        pub to_trailing: u64,
        pub tied_before: u64,
    }
}

impl LeadCounts {
    pub fn push(&mut self, l: LeadBefore) {
        match l {
            LeadBefore::Leader => self.to_leader += 1,
            LeadBefore::Trailing => self.to_trailing += 1,
            LeadBefore::Tied => self.tied_before += 1,
        }
    }

    /// Every game counted (`None` on overflow).
    pub fn total(&self) -> Option<u64> {
        self.to_leader
            .checked_add(self.to_trailing)?
            .checked_add(self.tied_before)
    }
}

/// Where the gaining seat of a changed winner stood (by `a`'s leaders) at the end of the turn
/// before the two games `parted` (their state divergence; the event-level one if the states
/// never differ). The
/// gaining seats are those that win under `b` only, or, when none does (a tie resolved),
/// `b`'s winners; if any of them led alone it counts for the leader, if any shared the lead
/// it counts as tied, else for a trailing seat.
pub fn lead_before(a: &GameOutcome, parted: Option<u32>, wa: &[u8], wb: &[u8]) -> LeadBefore {
    let bits = |w: &[u8]| {
        w.iter()
            .fold(0u8, |m, &s| m | 1u8.checked_shl(s as u32).unwrap_or(0))
    };
    let (ma, mb) = (bits(wa), bits(wb));
    let gainers = if mb & !ma != 0 { mb & !ma } else { mb };
    let leaders = match parted {
        Some(t) if t > 0 => a.leaders_at(t - 1),
        _ => None,
    };
    let Some(leaders) = leaders else {
        return LeadBefore::Tied; // parted at the set-up, or nothing recorded: all level
    };
    match (gainers & leaders != 0, leaders.count_ones() == 1) {
        (true, true) => LeadBefore::Leader,
        (true, false) => LeadBefore::Tied,
        (false, _) => LeadBefore::Trailing,
    }
}

/// Example games kept per pair.
pub const EXAMPLES: usize = 3;

/// A game whose winner changed, to show in the report.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Example {
    pub seed: u64,
    /// Points that changed hands: Σ over seats of |score under b − score under a|.
    pub swing: i64,
    /// First turn whose running event hash differs (0 = set-up).
    pub first_difference_turn: Option<u32>,
    /// First turn whose end-of-turn state differs (0 = set-up).
    #[serde(default)]
    pub first_state_divergence_turn: Option<u32>,
    pub scores_a: Vec<i64>,
    pub scores_b: Vec<i64>,
    pub winners_a: Vec<u8>,
    pub winners_b: Vec<u8>,
}

impl Example {
    /// Order of preference: larger swing first, then smaller seed.
    fn rank(&self) -> (std::cmp::Reverse<i64>, u64) {
        (std::cmp::Reverse(self.swing), self.seed)
    }
}

/// Keep the best [`EXAMPLES`] of `list` (sorted by [`Example::rank`]).
fn keep_best(list: &mut Vec<Example>) {
    list.sort_by_key(Example::rank);
    list.dedup_by_key(|e| e.seed);
    list.truncate(EXAMPLES);
}

impl PairAcc {
    /// Adds one seed: `a` and `b` are its games under the pair's rulesets; `placebo` is
    /// `None` in a run without a placebo, else the pair's A′ and B′ (`None` when the pair
    /// played identically).
    pub(super) fn add(
        &mut self,
        a: &GameOutcome,
        b: &GameOutcome,
        placebo: Option<Option<&[GameOutcome; 2]>>,
    ) {
        self.games += 1;
        if let Some(placebo) = placebo {
            self.placebo.add(a, b, placebo);
        }
        let state_divergence = a.first_state_divergence(b);
        if let Some(t) = state_divergence {
            self.diverged += 1;
            *self.first_divergence.entry(t).or_default() += 1;
        }
        let play_difference = a.first_divergence(b);
        if let Some(t) = play_difference {
            self.play_differed += 1;
            *self.first_play_difference.entry(t).or_default() += 1;
            match a.first_event_difference(b) {
                Some(FirstDifference::Choice) => self.first_difference_choice += 1,
                // a collision of the marks' 24 bits, or a rule event
                _ => self.first_difference_rule += 1,
            }
        }
        let (wa, wb) = (winner_set(a), winner_set(b));
        if wa != wb {
            self.winner_changed += 1;
            self.winner_change_lead.push(lead_before(
                a,
                state_divergence.or(play_difference),
                &wa,
                &wb,
            ));
            let swing = a
                .seats
                .iter()
                .zip(&b.seats)
                .map(|(x, y)| y.total.saturating_sub(x.total).saturating_abs())
                .fold(0i64, i64::saturating_add);
            let worth = self.examples.len() < EXAMPLES
                || self
                    .examples
                    .last()
                    .is_some_and(|last| (std::cmp::Reverse(swing), a.seed) < last.rank());
            if worth {
                self.examples.push(Example {
                    seed: a.seed,
                    swing,
                    first_difference_turn: play_difference,
                    first_state_divergence_turn: state_divergence,
                    scores_a: a.seats.iter().map(|x| x.total).collect(),
                    scores_b: b.seats.iter().map(|x| x.total).collect(),
                    winners_a: wa.clone(),
                    winners_b: wb.clone(),
                });
                keep_best(&mut self.examples);
            }
        }
        let same = wa == wb
            && a.seats.iter().zip(&b.seats).all(|(x, y)| {
                x.total == y.total && x.by_category == y.by_category && x.counts == y.counts
            });
        if same {
            self.identical_outcomes += 1;
        }
        for (s, (sa, sb)) in a.seats.iter().zip(&b.seats).enumerate() {
            let delta = sb.total as i128 - sa.total as i128;
            self.score_delta[s].push_wide(delta);
            for (d, (&na, &nb)) in self
                .count_delta
                .0
                .iter_mut()
                .zip(sa.counts.0.iter().zip(&sb.counts.0))
            {
                d[s].push(nb as i64 - na as i64);
            }
            let key = delta.clamp(i64::MIN as i128, i64::MAX as i128) as i64;
            *self.score_delta_hist.entry(key).or_default() += 1;
            self.seat_wins[s].push(wa.contains(&(s as u8)), wb.contains(&(s as u8)));
        }
    }

    /// The rules between this pair's counts that the field list cannot state: the
    /// histograms of first differences count the games that differed, the first differences
    /// are a choice or a rule event, the lead counts cover the changed winners, the examples
    /// are among them, and the placebo's own.
    pub(super) fn check_across(&self, run: &RunShape, path: &str) -> Result<(), String> {
        for (name, hist, total, of) in [
            (
                "first_divergence",
                &self.first_divergence,
                self.diverged,
                "diverged",
            ),
            (
                "first_play_difference",
                &self.first_play_difference,
                self.play_differed,
                "play_differed",
            ),
        ] {
            let hist =
                hist_count(hist).ok_or_else(|| format!("{path}.{name}: the counts overflow"))?;
            if hist != total {
                return Err(format!(
                    "{path}.{name} counts {hist} games but {path}.{of} is {total}"
                ));
            }
        }
        let kinds = self
            .first_difference_choice
            .checked_add(self.first_difference_rule);
        if kinds != Some(self.play_differed) {
            return Err(format!(
                "{path}.first_difference_choice + first_difference_rule is not \
                 {path}.play_differed ({})",
                self.play_differed
            ));
        }
        if self.winner_change_lead.total() != Some(self.winner_changed) {
            return Err(format!(
                "{path}.winner_change_lead counts are not {path}.winner_changed ({})",
                self.winner_changed
            ));
        }
        at_most(
            &format!("{path}.examples (length)"),
            self.examples.len() as u64,
            self.winner_changed.min(EXAMPLES as u64),
            "the games whose winner changed, or 3",
        )?;
        self.placebo
            .check(run.games, run.players, &format!("{path}.placebo"))
    }
}
