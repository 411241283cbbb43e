//! The exact, mergeable aggregate of a compare run.
//!
//! Only integers are accumulated (counts, sums, sums of squares, histograms), and merging is
//! field-wise addition, so the aggregate of any partition of the games — by thread, by
//! chunk, by `--shard` — is identical to the aggregate of the whole. Floats are computed once,
//! at the end ([`crate::compare::summary`]).

use super::aggregate::{aggregate, at_most, hist_count, Counted, Merge, RunShape};
use super::balance::BalanceAcc;
use super::decisions::{DecisionAcc, PairProbe};
use super::luck::LuckAcc;
use super::paired::PairedWins;
use super::placebo::PlaceboAcc;
use super::skill::{SkillAcc, SkillSeed};
use super::stats::Moments;
use crate::engine::state_hash::FirstDifference;
use crate::engine::{Category, Counter, Counters, GameOutcome};
use crate::policy::luck::Luck;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Σ of each expansion counter over the games, by [`Counter::index`]; written as a map
/// name → sum (a counter missing from a file is 0; an unknown name is an error).
#[derive(Clone, Debug, Default)]
pub struct CounterSums(pub Vec<u128>);

/// Equal when every counter's sum is (a sum never touched is 0).
impl PartialEq for CounterSums {
    fn eq(&self, other: &CounterSums) -> bool {
        Counter::all().all(|c| self.get(c) == other.get(c))
    }
}

impl Eq for CounterSums {}

impl CounterSums {
    /// The sum of counter `c`.
    pub fn get(&self, c: Counter) -> u128 {
        self.0.get(c.index()).copied().unwrap_or(0)
    }

    /// One slot per counter.
    fn sized(&mut self) {
        self.0.resize(Counter::COUNT, 0);
    }

    /// Add one game's counters.
    fn add(&mut self, game: &Counters) {
        if self.0.len() != Counter::COUNT {
            self.sized();
        }
        for (sum, &n) in self.0.iter_mut().zip(&game.0) {
            *sum += n as u128;
        }
    }
}

impl Serialize for CounterSums {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(Counter::COUNT))?;
        for c in Counter::all() {
            m.serialize_entry(c.name(), &self.get(c))?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for CounterSums {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let named = BTreeMap::<String, u128>::deserialize(d)?;
        let mut out = CounterSums(vec![0; Counter::COUNT]);
        for (name, n) in named {
            let c = Counter::from_name(&name)
                .ok_or_else(|| serde::de::Error::custom(format!("unknown counter `{name}`")))?;
            out.0[c.index()] = n;
        }
        Ok(out)
    }
}

impl Merge for CounterSums {
    fn merge_from(&mut self, other: &CounterSums, path: &str) -> Result<(), String> {
        self.sized();
        for c in Counter::all() {
            let from = other.get(c);
            self.0[c.index()].merge_from(&from, &format!("{path}.{}", c.name()))?;
        }
        Ok(())
    }
}

aggregate! {
    /// One seat under one ruleset.
    #[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
    pub struct SeatAcc {
        pub total: Moments where every_game,
        /// Σ points per category, indexed by [`Category::index`].
        pub by_category: [i128; Category::COUNT],
        /// Games the seat was among the winners (ties count for every tied seat).
        pub wins: u64 where at_most_games,
        /// Games the seat won alone (at most its wins: `check_across`).
        pub sole_wins: u64,
        pub ingots: Moments where every_game,
        pub followers_placed: u128,
    }
}

aggregate! {
    /// Everything accumulated for one ruleset.
    #[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
    pub struct RulesetAcc {
        pub games: u64 where every_game,
        pub seats: Vec<SeatAcc> where each_seat(fields),
        /// Games with more than one winner.
        pub ties: u64 where at_most_games,
        pub turns: Moments where every_game,
        pub lead_changes: Moments where every_game,
        pub tiles_placed: u128,
        pub tiles_discarded: u128,
        /// Σ of each expansion counter (see [`Counter`]), written by name.
        pub counters: CounterSums,
        /// Final totals of all seats: points → number of seat-games.
        pub totals_hist: BTreeMap<i64, u64> where every_seat_game,
    }
}

aggregate! {
    /// Everything accumulated for one pair of rulesets `(a, b)`, `a < b`; differences are
    /// `b − a` per seed. The counts that bound each other are checked by
    /// `check_across`.
    #[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
    pub struct PairAcc {
        pub a: usize => kept,
        pub b: usize => kept,
        pub games: u64 where every_game,
        /// Games whose positions parted: some end-of-turn state (board, followers, ingots,
        /// scores, robbers, supply) differs.
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
        pub ingot_delta: Vec<Moments> where each_seat(every_game),
        /// Games whose outcomes are identical: every seat's points by category and ingots,
        /// and the winners.
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
                    ingot_delta: vec![Moments::default(); seats],
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
            pair.games += 1;
            if let Some(placebo) = placebo {
                pair.placebo.add(a, b, placebo[p].as_ref());
            }
            let state_divergence = a.first_state_divergence(b);
            if let Some(t) = state_divergence {
                pair.diverged += 1;
                *pair.first_divergence.entry(t).or_default() += 1;
            }
            let play_difference = a.first_divergence(b);
            if let Some(t) = play_difference {
                pair.play_differed += 1;
                *pair.first_play_difference.entry(t).or_default() += 1;
                match a.first_event_difference(b) {
                    Some(FirstDifference::Choice) => pair.first_difference_choice += 1,
                    // a collision of the marks' 24 bits, or a rule event
                    _ => pair.first_difference_rule += 1,
                }
            }
            let (wa, wb) = (winner_set(a), winner_set(b));
            if wa != wb {
                pair.winner_changed += 1;
                pair.winner_change_lead.push(lead_before(
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
                let worth = pair.examples.len() < EXAMPLES
                    || pair
                        .examples
                        .last()
                        .is_some_and(|last| (std::cmp::Reverse(swing), a.seed) < last.rank());
                if worth {
                    pair.examples.push(Example {
                        seed: a.seed,
                        swing,
                        first_difference_turn: play_difference,
                        first_state_divergence_turn: state_divergence,
                        scores_a: a.seats.iter().map(|x| x.total).collect(),
                        scores_b: b.seats.iter().map(|x| x.total).collect(),
                        winners_a: wa.clone(),
                        winners_b: wb.clone(),
                    });
                    keep_best(&mut pair.examples);
                }
            }
            let same = wa == wb
                && a.seats.iter().zip(&b.seats).all(|(x, y)| {
                    x.total == y.total && x.by_category == y.by_category && x.ingots == y.ingots
                });
            if same {
                pair.identical_outcomes += 1;
            }
            for (s, (sa, sb)) in a.seats.iter().zip(&b.seats).enumerate() {
                let delta = sb.total as i128 - sa.total as i128;
                pair.score_delta[s].push_wide(delta);
                pair.ingot_delta[s].push(sb.ingots as i64 - sa.ingots as i64);
                let key = delta.clamp(i64::MIN as i128, i64::MAX as i128) as i64;
                *pair.score_delta_hist.entry(key).or_default() += 1;
                pair.seat_wins[s].push(wa.contains(&(s as u8)), wb.contains(&(s as u8)));
            }
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

impl SeatAcc {
    /// The rule between this seat's counts that the field list cannot state: its sole wins
    /// are some of its wins.
    fn check_across(&self, path: &str) -> Result<(), String> {
        at_most(
            &format!("{path}.sole_wins"),
            self.sole_wins,
            self.wins,
            "its wins",
        )
    }
}

impl RulesetAcc {
    fn add(&mut self, o: &GameOutcome) {
        self.games += 1;
        let winners = winner_set(o);
        if winners.len() > 1 {
            self.ties += 1;
        }
        for &w in &winners {
            if let Some(seat) = self.seats.get_mut(w as usize) {
                seat.wins += 1;
                if winners.len() == 1 {
                    seat.sole_wins += 1;
                }
            }
        }
        for (seat, r) in self.seats.iter_mut().zip(&o.seats) {
            seat.total.push(r.total);
            for (sum, &points) in seat.by_category.iter_mut().zip(&r.by_category.0) {
                *sum += points as i128;
            }
            seat.ingots.push(r.ingots as i64);
            seat.followers_placed += r.followers_placed as u128;
            *self.totals_hist.entry(r.total).or_default() += 1;
        }
        self.turns.push(o.turns as i64);
        self.lead_changes.push(o.lead_changes as i64);
        self.tiles_placed += o.tiles_placed as u128;
        self.tiles_discarded += o.tiles_discarded as u128;
        self.counters.add(&o.counters);
    }
}

impl PairAcc {
    /// The rules between this pair's counts that the field list cannot state: the
    /// histograms of first differences count the games that differed, the first differences
    /// are a choice or a rule event, the lead counts cover the changed winners, the examples
    /// are among them, and the placebo's own.
    fn check_across(&self, run: &RunShape, path: &str) -> Result<(), String> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::SeatResult;

    fn outcome(seed: u64, totals: &[i64], hashes: &[u64]) -> GameOutcome {
        let max = *totals.iter().max().unwrap();
        GameOutcome {
            seed,
            seats: totals
                .iter()
                .map(|&t| SeatResult {
                    total: t,
                    ingots: t as u32 % 3,
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
