//! One ruleset's aggregate ([`RulesetAcc`]): its seats' totals, points by category, wins and
//! per-seat counts ([`SeatAcc`]), ties, game length, lead changes, tiles, the expansion counters
//! ([`CounterSums`]) and the histogram of final totals.

use super::winner_set;
use crate::compare::aggregate::{aggregate, at_most, Merge};
use crate::compare::seat_counts::{ByCounter, Named};
use crate::compare::stats::Moments;
use crate::engine::{Category, Counter, Counters, GameOutcome};
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
        /// Each per-seat counter's values (`SeatCounter`), written by its name.
        #[serde(flatten)]
        pub counts: ByCounter<Moments, Named> where each_counter(every_game),
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

impl SeatAcc {
    /// The rule between this seat's counts that the field list cannot state: its sole wins
    /// are some of its wins.
    pub(super) fn check_across(&self, path: &str) -> Result<(), String> {
        at_most(
            &format!("{path}.sole_wins"),
            self.sole_wins,
            self.wins,
            "its wins",
        )
    }
}

impl RulesetAcc {
    pub(super) fn add(&mut self, o: &GameOutcome) {
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
            for (m, &n) in seat.counts.0.iter_mut().zip(&r.counts.0) {
                m.push(n as i64);
            }
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
