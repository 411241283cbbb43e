//! Playing a ladder: every deal's games (in parallel across deals), each folded at once into
//! a small per-deal tally of comparisons, scores and what the seats hold at the end (the
//! expansions' per-seat counters, ingots under Gold Mines). Tallies come back in deal order
//! (rayon's indexed collect), so everything computed from them is the same for any thread
//! count.
//!
//! [`play_seated`] is the only place that drives the engine: one game with one policy per
//! seat, dispatched on the deciding player.

use super::schedule::{seat_pairs, Schedule};
use crate::compare::seeds::game_seed;
use crate::engine::{
    Chooser, Compiled, Counter, Decision, Game, GameOutcome, NoEvents, SeatCounter,
};
use crate::policy::Policy;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// One pair of policies `(i, j)` in one deal, summed over its comparisons.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairTally {
    /// Comparisons `i` finished ahead of `j`, level with it, behind it.
    pub wins: u32,
    pub ties: u32,
    pub losses: u32,
    /// Points of `i` and of `j`, summed over the comparisons.
    pub score_first: i64,
    pub score_second: i64,
    /// Per per-seat counter: what all seats hold at the end of each compared game, summed
    /// over comparisons.
    pub held: Held,
}

/// One sum per per-seat counter ([`SeatCounter::index`]).
pub type Held = [i64; SeatCounter::COUNT];

/// One policy in one deal, summed over the seats it held.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PolicyTally {
    pub score: i64,
    /// Per per-seat counter: what it held at the end.
    pub held: Held,
}

/// Everything the report needs from one deal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DealTally {
    /// Indexed like [`Schedule::pairs`].
    pub pairs: Vec<PairTally>,
    /// Indexed by policy.
    pub policies: Vec<PolicyTally>,
    /// Per per-seat counter: what all seats hold at the end, summed over the deal's games.
    pub held: Held,
    /// Per per-seat counter: what no seat holds at the end (its [`crate::engine::RestSpec`]'s
    /// per-game counter, 0 without one), summed over the deal's games.
    pub rest: Held,
}

/// Per per-seat counter: the per-game counter of what no seat holds at the end, if declared.
fn rest_counters() -> [Option<Counter>; SeatCounter::COUNT] {
    let mut out = [None; SeatCounter::COUNT];
    for c in SeatCounter::all() {
        out[c.index()] = c.spec().rest.and_then(|r| Counter::from_name(r.counter));
    }
    out
}

impl DealTally {
    pub fn new(schedule: &Schedule) -> DealTally {
        DealTally {
            pairs: vec![PairTally::default(); schedule.pairs.len()],
            policies: vec![PolicyTally::default(); schedule.policies],
            held: Held::default(),
            rest: Held::default(),
        }
    }

    /// Folds one game in: `seats[s]` is the policy index at seat `s`.
    pub fn add_game(&mut self, schedule: &Schedule, seats: &[usize], outcome: &GameOutcome) {
        let mut held = Held::default();
        for seat in &outcome.seats {
            for c in SeatCounter::all() {
                held[c.index()] += seat.counts.get(c) as i64;
            }
        }
        for (i, rest) in rest_counters().into_iter().enumerate() {
            self.held[i] += held[i];
            if let Some(r) = rest {
                self.rest[i] += outcome.counters.get(r) as i64;
            }
        }
        for (&policy, seat) in seats.iter().zip(&outcome.seats) {
            let t = &mut self.policies[policy];
            t.score += seat.total;
            for c in SeatCounter::all() {
                t.held[c.index()] += seat.counts.get(c) as i64;
            }
        }
        for (a, b) in seat_pairs(seats.len()) {
            let Some(k) = schedule.pair_index(seats[a], seats[b]) else {
                continue;
            };
            // Orient the comparison as (first policy of the pair, second).
            let (first, second) = if seats[a] < seats[b] { (a, b) } else { (b, a) };
            let (x, y) = (outcome.seats[first].total, outcome.seats[second].total);
            let p = &mut self.pairs[k];
            match x.cmp(&y) {
                std::cmp::Ordering::Greater => p.wins += 1,
                std::cmp::Ordering::Equal => p.ties += 1,
                std::cmp::Ordering::Less => p.losses += 1,
            }
            p.score_first += x;
            p.score_second += y;
            for (sum, h) in p.held.iter_mut().zip(held) {
                *sum += h;
            }
        }
    }
}

/// Asks each seat's policy for the decisions of that seat.
struct SeatedChooser<'a> {
    seats: &'a mut [Policy],
}

impl Chooser for SeatedChooser<'_> {
    #[inline]
    fn choose(&mut self, game: &Game, d: &Decision) -> usize {
        self.seats[d.player as usize].choose(game, d)
    }
}

/// Plays one complete game of `seed` on `game` (reset first, its allocations reused) with
/// `seats[s]` deciding for seat `s`.
pub fn play_seated(game: &mut Game, seed: u64, players: u8, seats: &mut [Policy]) -> GameOutcome {
    game.reset(seed, players);
    game.play(&mut SeatedChooser { seats }, &mut NoEvents)
}

/// Plays deal `deal` (all its games, in schedule order) and tallies it. Each game gets fresh
/// copies of the policies, so nothing carries over from game to game.
fn play_deal(
    game: &mut Game,
    schedule: &Schedule,
    policies: &[Policy],
    seed: u64,
    deal: u64,
) -> DealTally {
    let players = schedule.players;
    let deal_seed = game_seed(seed, deal);
    let mut tally = DealTally::new(schedule);
    let mut seats = vec![0; players as usize];
    for g in 0..schedule.games_per_deal() {
        schedule.seating(g, &mut seats);
        let mut seated: Vec<Policy> = seats.iter().map(|&p| policies[p].clone()).collect();
        let outcome = play_seated(game, deal_seed, players, &mut seated);
        tally.add_game(schedule, &seats, &outcome);
    }
    tally
}

/// Plays deals `0..deals` of master seed `seed` under `rules`, `policies[i]` playing policy
/// `i` of `schedule`, in parallel on the current rayon pool. `progress` receives the number of
/// deals finished so far after each deal (from the worker threads). The tallies come back in
/// deal order and do not depend on the thread count.
pub fn play_deals(
    rules: &Arc<Compiled>,
    schedule: &Schedule,
    policies: &[Policy],
    deals: u64,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Vec<DealTally> {
    let done = AtomicU64::new(0);
    (0..deals)
        .into_par_iter()
        .map_init(
            || {
                // a ladder reads scores only
                let mut game = Game::new(rules.clone(), seed, schedule.players);
                game.keep_divergence_records(false);
                game
            },
            |game, deal| {
                let tally = play_deal(game, schedule, policies, seed, deal);
                progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                tally
            },
        )
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::expansions::gold;
    use crate::engine::SeatResult;

    /// `n` of gold's ingots, the rest 0.
    fn ingots(n: i64) -> Held {
        let mut h = Held::default();
        h[gold::INGOTS.index()] = n;
        h
    }

    fn outcome(totals: &[i64], ingots: &[u32]) -> GameOutcome {
        GameOutcome {
            seats: totals
                .iter()
                .zip(ingots)
                .map(|(&total, &ingots)| {
                    let mut seat = SeatResult {
                        total,
                        ..Default::default()
                    };
                    seat.counts.set(gold::INGOTS, ingots);
                    seat
                })
                .collect(),
            ..Default::default()
        }
    }

    #[test]
    fn a_game_is_folded_into_oriented_comparisons() {
        let s = Schedule::new(3, 2).unwrap();
        let mut t = DealTally::new(&s);
        // Policy 2 in seat 0 beats policy 0 in seat 1: a loss for pair (0, 2).
        t.add_game(&s, &[2, 0], &outcome(&[30, 20], &[1, 2]));
        t.add_game(&s, &[0, 2], &outcome(&[25, 25], &[0, 0]));
        let p = t.pairs[s.pair_index(0, 2).unwrap()];
        assert_eq!((p.wins, p.ties, p.losses), (0, 1, 1));
        assert_eq!((p.score_first, p.score_second, p.held), (45, 55, ingots(3)));
        assert_eq!(
            t.policies[0],
            PolicyTally {
                score: 45,
                held: ingots(2)
            }
        );
        assert_eq!(
            t.policies[2],
            PolicyTally {
                score: 55,
                held: ingots(1)
            }
        );
        assert_eq!(t.pairs[0], PairTally::default());
        assert_eq!(t.held, ingots(3));
    }

    #[test]
    fn seats_of_one_policy_are_not_compared() {
        let s = Schedule::new(2, 3).unwrap();
        let mut t = DealTally::new(&s);
        // Seats 0 and 2 both hold policy 0: two comparisons with seat 1, none between them.
        t.add_game(&s, &[0, 1, 0], &outcome(&[10, 5, 3], &[0, 0, 0]));
        let p = t.pairs[0];
        assert_eq!((p.wins, p.ties, p.losses), (1, 0, 1));
        assert_eq!((p.score_first, p.score_second), (13, 10));
        assert_eq!(t.policies[0].score, 13);
    }
}
