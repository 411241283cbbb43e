//! Balance figures per ruleset, and their paired differences between rulesets.
//!
//! Each game (one [`GameOutcome`]) gives five figures:
//!
//! * **first-seat win**: 1 when seat 0 (who plays first) is among the winners, else 0. Ties
//!   count for every tied seat, as the accumulator's win counts do. A ruleset's
//!   **first-seat advantage** is its first-seat win share minus `1 / players`, in percentage
//!   points (ties lift every seat's share a little, so read it beside the tie share).
//! * **tie**: 1 when the game has more than one winner.
//! * **lead changes** (in play): how often the sole leader changed during play, by the running
//!   score after each turn ([`GameOutcome::lead_changes`]). Final scoring is not counted (a
//!   winner that only final scoring put ahead changes no lead here), unlike decided-at below;
//!   the label says "in play" wherever the figure is printed.
//! * **decided-at turn**: the leaders are recorded at points `0..L` ([`GameOutcome::leaders`]:
//!   0 = the set-up, `t` = the end of turn `t`, the last point, `L − 1`, the end of final
//!   scoring). The game is decided at the first point `t` such that at `t` and every later
//!   point the leading seats include at least one eventual winner. At the set-up every seat
//!   leads, so 0 means the winners never trailed; `L − 1` means only final scoring put them
//!   ahead. Its **share** is `t / (L − 1)` (0 for a lone set-up record), kept per game in
//!   millionths (rounded half up) so that it sums as an integer. Games without leader
//!   records (records switched off), or whose last record leads with no winner (records cut
//!   short), are left out of these two figures and counted apart.
//! * **score spread**: the highest final total minus the lowest.
//!
//! Per ruleset each figure is accumulated over the seeds (counts for the 0/1 figures,
//! [`Moments`] for the others). Per pair of rulesets `(a, b)` — the accumulator's pairs, in its
//! order — each figure's per-seed difference `b − a` is accumulated as integer [`Moments`]:
//! the same seed is played under both rulesets, so the luck of the tiles largely cancels in
//! the difference and its paired t interval is far narrower than the two rulesets' separate
//! intervals would suggest; it is also the direction the rest of `compare` reports ("the later
//! ruleset relative to the earlier one"). The decided-at difference counts the seeds with
//! records under both rulesets.
//!
//! Everything is an integer and merging is addition, so the aggregate of any partition of the
//! seeds (threads, shards, resumes) is the aggregate of the whole; [`balance_summary`] turns
//! it into shares, means and intervals.

use super::accumulate::winner_set;
use super::aggregate::{add, add_moments};
use super::stats::{share, wilson, MeanCi, Moments};
use crate::engine::GameOutcome;
use serde::{Deserialize, Serialize};

/// The unit of the decided-at share per game: millionths.
pub const SHARE_UNIT: i64 = 1_000_000;

/// One game's balance figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameBalance {
    pub first_seat_win: bool,
    pub tie: bool,
    pub lead_changes: u32,
    /// The decided-at point and its share in millionths (`None` without usable records).
    pub decided: Option<(u32, i64)>,
    pub spread: i128,
}

/// The point from which the eventual winners lead for good (see the module doc), with its
/// share of the game in millionths; `None` without leader records or winners, or when the
/// last record's leaders include no winner.
pub fn decided_at(o: &GameOutcome) -> Option<(u32, i64)> {
    let winners = winner_set(o)
        .iter()
        .fold(0u8, |m, &s| m | 1u8.checked_shl(s as u32).unwrap_or(0));
    if winners == 0 || o.leaders.last().is_none_or(|&l| l & winners == 0) {
        return None;
    }
    let mut t = o.leaders.len();
    while t > 0 && o.leaders[t - 1] & winners != 0 {
        t -= 1;
    }
    let last = (o.leaders.len() - 1) as i128;
    let share = if last == 0 {
        0
    } else {
        // t / last in millionths, rounded half up
        ((2 * t as i128 * SHARE_UNIT as i128 + last) / (2 * last)) as i64
    };
    Some((t as u32, share))
}

/// The balance figures of one game.
pub fn game_balance(o: &GameOutcome) -> GameBalance {
    let winners = winner_set(o);
    let totals = o.seats.iter().map(|s| s.total as i128);
    let spread = match (totals.clone().max(), totals.min()) {
        (Some(hi), Some(lo)) => hi - lo,
        _ => 0,
    };
    GameBalance {
        first_seat_win: winners.contains(&0),
        tie: winners.len() > 1,
        lead_changes: o.lead_changes,
        decided: decided_at(o),
        spread,
    }
}

/// One ruleset's balance, accumulated over seeds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesetBalance {
    pub games: u64,
    /// Games seat 0 was among the winners.
    pub first_seat_wins: u64,
    /// Games with more than one winner.
    pub ties: u64,
    pub lead_changes: Moments,
    /// The decided-at point, over the games with usable leader records (`n` of them).
    pub decided_at: Moments,
    /// Its share of the game, in millionths.
    pub decided_share: Moments,
    pub spread: Moments,
}

/// One pair's paired differences `b − a` per seed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairBalance {
    pub a: usize,
    pub b: usize,
    /// −1, 0 or 1 per seed.
    pub first_seat_win: Moments,
    /// −1, 0 or 1 per seed.
    pub tie: Moments,
    pub lead_changes: Moments,
    /// Over the seeds with usable records under both rulesets.
    pub decided_at: Moments,
    /// In millionths, over the same seeds.
    pub decided_share: Moments,
    pub spread: Moments,
}

/// The balance aggregate of a run. Empty (`games == 0`, no lists) in an accumulator written
/// before it existed: then it stays empty for the rest of that run, so it either covers every
/// seed of the accumulator or none.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BalanceAcc {
    /// Seeds counted.
    pub games: u64,
    pub rulesets: Vec<RulesetBalance>,
    /// All pairs `a < b`, in lexicographic order (as [`super::Accumulator::pairs`]).
    pub pairs: Vec<PairBalance>,
}

impl BalanceAcc {
    /// An empty aggregate for `rulesets` rulesets.
    pub fn new(rulesets: usize) -> BalanceAcc {
        BalanceAcc {
            games: 0,
            rulesets: vec![RulesetBalance::default(); rulesets],
            pairs: (0..rulesets)
                .flat_map(|a| (a + 1..rulesets).map(move |b| (a, b)))
                .map(|(a, b)| PairBalance {
                    a,
                    b,
                    ..PairBalance::default()
                })
                .collect(),
        }
    }

    /// Adds one seed: `outcomes[r]` is the game under ruleset `r`.
    pub fn add(&mut self, outcomes: &[GameOutcome]) {
        if self.games == 0 && self.rulesets.len() != outcomes.len() {
            *self = BalanceAcc::new(outcomes.len());
        }
        self.games += 1;
        let figures: Vec<GameBalance> = outcomes.iter().map(game_balance).collect();
        for (acc, g) in self.rulesets.iter_mut().zip(&figures) {
            acc.games += 1;
            acc.first_seat_wins += u64::from(g.first_seat_win);
            acc.ties += u64::from(g.tie);
            acc.lead_changes.push(g.lead_changes.into());
            if let Some((t, share)) = g.decided {
                acc.decided_at.push(t.into());
                acc.decided_share.push(share);
            }
            acc.spread.push_wide(g.spread);
        }
        for pair in &mut self.pairs {
            let (Some(x), Some(y)) = (figures.get(pair.a), figures.get(pair.b)) else {
                continue;
            };
            let bit = |v: bool| i128::from(v);
            pair.first_seat_win
                .push_wide(bit(y.first_seat_win) - bit(x.first_seat_win));
            pair.tie.push_wide(bit(y.tie) - bit(x.tie));
            pair.lead_changes
                .push_wide(i128::from(y.lead_changes) - i128::from(x.lead_changes));
            if let (Some((ta, sa)), Some((tb, sb))) = (x.decided, y.decided) {
                pair.decided_at.push_wide(i128::from(tb) - i128::from(ta));
                pair.decided_share
                    .push_wide(i128::from(sb) - i128::from(sa));
            }
            pair.spread.push_wide(y.spread - x.spread);
        }
    }

    /// Adds another aggregate of the same run (disjoint seeds). Errors name the overflowing
    /// field under `path`.
    pub fn merge(&mut self, o: &BalanceAcc, path: &str) -> Result<(), String> {
        if o.games == 0 {
            return Ok(());
        }
        if self.games == 0 {
            *self = o.clone();
            return Ok(());
        }
        add(&mut self.games, o.games, || format!("{path}.games"))?;
        for (r, (x, y)) in self.rulesets.iter_mut().zip(&o.rulesets).enumerate() {
            let p = format!("{path}.rulesets[{r}]");
            add(&mut x.games, y.games, || format!("{p}.games"))?;
            add(&mut x.first_seat_wins, y.first_seat_wins, || {
                format!("{p}.first_seat_wins")
            })?;
            add(&mut x.ties, y.ties, || format!("{p}.ties"))?;
            for (name, into, from) in [
                ("lead_changes", &mut x.lead_changes, &y.lead_changes),
                ("decided_at", &mut x.decided_at, &y.decided_at),
                ("decided_share", &mut x.decided_share, &y.decided_share),
                ("spread", &mut x.spread, &y.spread),
            ] {
                add_moments(into, from, || format!("{p}.{name}"))?;
            }
        }
        for (i, (x, y)) in self.pairs.iter_mut().zip(&o.pairs).enumerate() {
            let p = format!("{path}.pairs[{i}]");
            for (name, into, from) in [
                ("first_seat_win", &mut x.first_seat_win, &y.first_seat_win),
                ("tie", &mut x.tie, &y.tie),
                ("lead_changes", &mut x.lead_changes, &y.lead_changes),
                ("decided_at", &mut x.decided_at, &y.decided_at),
                ("decided_share", &mut x.decided_share, &y.decided_share),
                ("spread", &mut x.spread, &y.spread),
            ] {
                add_moments(into, from, || format!("{p}.{name}"))?;
            }
        }
        Ok(())
    }

    /// Checks the shape and counts against a run of `rulesets` rulesets and `games` seeds (what
    /// [`BalanceAcc::add`] guarantees). An empty aggregate passes whatever `games` is (a run
    /// resumed from an accumulator written before the balance figures existed).
    pub fn check(&self, rulesets: usize, games: u64, path: &str) -> Result<(), String> {
        if self.games == 0 {
            let counted = self.rulesets.iter().any(|r| r.games != 0)
                || self.pairs.iter().any(|p| p.first_seat_win.n != 0);
            return if counted {
                Err(format!("{path} counts games but {path}.games is 0"))
            } else {
                Ok(())
            };
        }
        if self.games != games {
            return Err(format!(
                "{path}.games is {} but accumulator.games is {games}",
                self.games
            ));
        }
        if self.rulesets.len() != rulesets {
            return Err(format!(
                "{path}.rulesets has length {} but the spec has {rulesets} rulesets",
                self.rulesets.len()
            ));
        }
        let mut expected = (0..rulesets).flat_map(|a| (a + 1..rulesets).map(move |b| (a, b)));
        for (i, p) in self.pairs.iter().enumerate() {
            if expected.next() != Some((p.a, p.b)) {
                return Err(format!(
                    "{path}.pairs[{i}] is the pair ({}, {}), out of order",
                    p.a, p.b
                ));
            }
        }
        if expected.next().is_some() {
            return Err(format!(
                "{path}.pairs has length {}, too short for {rulesets} rulesets",
                self.pairs.len()
            ));
        }
        let exact = |name: String, n: u64| {
            if n == games {
                Ok(())
            } else {
                Err(format!("{name} is {n} but the run has {games} games"))
            }
        };
        let at_most = |name: String, n: u64, bound: u64| {
            if n <= bound {
                Ok(())
            } else {
                Err(format!("{name} is {n}, more than {bound}"))
            }
        };
        for (r, x) in self.rulesets.iter().enumerate() {
            let p = format!("{path}.rulesets[{r}]");
            exact(format!("{p}.games"), x.games)?;
            exact(format!("{p}.lead_changes.n"), x.lead_changes.n)?;
            exact(format!("{p}.spread.n"), x.spread.n)?;
            at_most(format!("{p}.first_seat_wins"), x.first_seat_wins, games)?;
            at_most(format!("{p}.ties"), x.ties, games)?;
            at_most(format!("{p}.decided_at.n"), x.decided_at.n, games)?;
            if x.decided_share.n != x.decided_at.n {
                return Err(format!("{p}.decided_share.n is not {p}.decided_at.n"));
            }
        }
        for (i, x) in self.pairs.iter().enumerate() {
            let p = format!("{path}.pairs[{i}]");
            exact(format!("{p}.first_seat_win.n"), x.first_seat_win.n)?;
            exact(format!("{p}.tie.n"), x.tie.n)?;
            exact(format!("{p}.lead_changes.n"), x.lead_changes.n)?;
            exact(format!("{p}.spread.n"), x.spread.n)?;
            at_most(format!("{p}.decided_at.n"), x.decided_at.n, games)?;
            if x.decided_share.n != x.decided_at.n {
                return Err(format!("{p}.decided_share.n is not {p}.decided_at.n"));
            }
        }
        Ok(())
    }
}

/// One ruleset's balance as the report shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RulesetBalanceSummary {
    pub name: String,
    pub games: u64,
    /// Share of games seat 0 is among the winners, with its Wilson interval.
    pub first_seat_win_share: f64,
    pub first_seat_win_ci: [f64; 2],
    /// `first_seat_win_share − 1 / players`, in percentage points.
    pub first_seat_advantage_pp: f64,
    /// Share of games with several winners, with its Wilson interval.
    pub tie_share: f64,
    pub tie_ci: [f64; 2],
    pub lead_changes: MeanCi,
    /// Games with usable leader records (those the decided-at figures average over).
    pub decided_games: u64,
    /// The point from which the eventual winners lead for good (0 = set-up, t = end of turn
    /// t, turns + 1 = final scoring).
    pub decided_at_turn: MeanCi,
    /// The same as a share of the game (0 = the winners never trailed, 1 = only final scoring
    /// put them ahead).
    pub decided_at_share: MeanCi,
    /// Highest final total minus the lowest.
    pub score_spread: MeanCi,
}

/// One figure of a pair: each ruleset's mean and the paired difference `b − a` per seed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairedFigure {
    pub a: f64,
    pub b: f64,
    /// Mean of the per-seed differences `b − a`, 95 % Student t interval.
    pub difference: MeanCi,
}

/// One pair's balance as the report shows it; every difference is `b − a`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairBalanceSummary {
    pub a: String,
    pub b: String,
    pub a_index: usize,
    pub b_index: usize,
    pub games: u64,
    /// In percentage points.
    pub first_seat_advantage_pp: PairedFigure,
    /// As a fraction.
    pub tie_share: PairedFigure,
    pub lead_changes: PairedFigure,
    /// Seeds with usable leader records under both rulesets (the decided-at differences'
    /// sample; `a` and `b` are each ruleset's own mean).
    pub decided_games: u64,
    pub decided_at_turn: PairedFigure,
    /// As a fraction.
    pub decided_at_share: PairedFigure,
    pub score_spread: PairedFigure,
}

/// The `balance` part of `report.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BalanceSummary {
    /// The definitions, in words.
    pub method: String,
    pub per_ruleset: Vec<RulesetBalanceSummary>,
    pub pairs: Vec<PairBalanceSummary>,
}

/// The report's view of `acc` for `players` seats, rulesets named by `labels`; `None` when the
/// aggregate is empty (no game, or an accumulator written before the balance figures).
pub fn balance_summary(acc: &BalanceAcc, players: u8, labels: &[String]) -> Option<BalanceSummary> {
    if acc.games == 0 {
        return None;
    }
    let label = |i: usize| labels.get(i).cloned().unwrap_or_else(|| format!("#{i}"));
    let fair = 1.0 / f64::from(players.max(1));
    let per_share = 1.0 / SHARE_UNIT as f64;
    let per_ruleset: Vec<RulesetBalanceSummary> = acc
        .rulesets
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let first = share(r.first_seat_wins, r.games);
            RulesetBalanceSummary {
                name: label(i),
                games: r.games,
                first_seat_win_share: first,
                first_seat_win_ci: wilson(r.first_seat_wins, r.games),
                first_seat_advantage_pp: 100.0 * (first - fair),
                tie_share: share(r.ties, r.games),
                tie_ci: wilson(r.ties, r.games),
                lead_changes: r.lead_changes.mean_ci(),
                decided_games: r.decided_at.n,
                decided_at_turn: r.decided_at.mean_ci(),
                decided_at_share: r.decided_share.mean_ci().scaled(per_share),
                score_spread: r.spread.mean_ci(),
            }
        })
        .collect();
    let pairs = acc
        .pairs
        .iter()
        .filter_map(|p| {
            let (x, y) = (per_ruleset.get(p.a)?, per_ruleset.get(p.b)?);
            let fig = |a: f64, b: f64, d: MeanCi| PairedFigure {
                a,
                b,
                difference: d,
            };
            Some(PairBalanceSummary {
                a: label(p.a),
                b: label(p.b),
                a_index: p.a,
                b_index: p.b,
                games: p.first_seat_win.n,
                first_seat_advantage_pp: fig(
                    x.first_seat_advantage_pp,
                    y.first_seat_advantage_pp,
                    p.first_seat_win.mean_ci().scaled(100.0),
                ),
                tie_share: fig(x.tie_share, y.tie_share, p.tie.mean_ci()),
                lead_changes: fig(
                    x.lead_changes.mean,
                    y.lead_changes.mean,
                    p.lead_changes.mean_ci(),
                ),
                decided_games: p.decided_at.n,
                decided_at_turn: fig(
                    x.decided_at_turn.mean,
                    y.decided_at_turn.mean,
                    p.decided_at.mean_ci(),
                ),
                decided_at_share: fig(
                    x.decided_at_share.mean,
                    y.decided_at_share.mean,
                    p.decided_share.mean_ci().scaled(per_share),
                ),
                score_spread: fig(x.score_spread.mean, y.score_spread.mean, p.spread.mean_ci()),
            })
        })
        .collect();
    Some(BalanceSummary {
        method: "per game: first-seat win = seat 1 (seat 0 here) among the winners, ties \
                 counting for every tied seat, its advantage = win share − 1/players in \
                 percentage points; tie = several winners; lead changes in play = changes of the \
                 sole leader by the running score after each turn, final scoring not counted \
                 (decided-at counts it); decided-at = the first point (0 = set-up, t = end of turn t, the last \
                 = final scoring) from which every recorded point's leaders include a winner, \
                 and its share of the last point (games without leader records left out); \
                 score spread = highest − lowest final total. Differences are later − earlier \
                 ruleset per seed, mean with a paired 95 % Student t interval"
            .to_string(),
        per_ruleset,
        pairs,
    })
}

impl PairBalanceSummary {
    /// The figures in report order: name, unit, the figure.
    pub fn figures(&self) -> [(&'static str, Unit, &PairedFigure); 6] {
        [
            (
                "first-seat advantage",
                Unit::Pp,
                &self.first_seat_advantage_pp,
            ),
            ("ties", Unit::Share, &self.tie_share),
            ("lead changes in play", Unit::Count, &self.lead_changes),
            ("decided at turn", Unit::Count, &self.decided_at_turn),
            (
                "decided at (share of game)",
                Unit::Share,
                &self.decided_at_share,
            ),
            ("score spread", Unit::Count, &self.score_spread),
        ]
    }
}

/// How a balance figure is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Already in percentage points.
    Pp,
    /// A fraction, printed in percent (differences in percentage points).
    Share,
    /// A plain number.
    Count,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(totals: &[i64], leaders: &[u8], lead_changes: u32) -> GameOutcome {
        GameOutcome {
            turns: leaders.len().saturating_sub(2) as u32,
            lead_changes,
            leaders: leaders.to_vec(),
            ..crate::compare::outcome_with_totals(totals)
        }
    }

    #[test]
    fn first_seat_tie_and_spread() {
        let g = game_balance(&game(&[30, 12, 25], &[], 2));
        assert!(g.first_seat_win && !g.tie);
        assert_eq!((g.lead_changes, g.spread), (2, 18));
        assert_eq!(g.decided, None, "no leader records");
        // a tie counts for every tied seat, seat 0 included
        let g = game_balance(&game(&[30, 30, 25], &[], 0));
        assert!(g.first_seat_win && g.tie);
        let g = game_balance(&game(&[10, 30, 30], &[], 0));
        assert!(!g.first_seat_win && g.tie);
        assert_eq!(g.spread, 20);
    }

    #[test]
    fn decided_at_is_where_the_winners_lead_for_good() {
        // points: set-up, turns 1–4, final scoring; seat 1 wins
        let g = game(&[10, 20], &[0b11, 0b01, 0b10, 0b01, 0b10, 0b10], 3);
        // seat 1 leads from turn 4 on (point 4 of 5)
        assert_eq!(decided_at(&g), Some((4, 800_000)));
        // the winner never trailed: decided at the set-up
        let g = game(&[10, 20], &[0b11, 0b10, 0b11, 0b10, 0b10], 0);
        assert_eq!(decided_at(&g), Some((0, 0)));
        // only final scoring put the winner ahead
        let g = game(&[10, 20], &[0b11, 0b01, 0b01, 0b10], 1);
        assert_eq!(decided_at(&g), Some((3, 1_000_000)));
        // a tie: either winner among the leaders is enough
        let g = game(&[20, 20, 5], &[0b111, 0b100, 0b001, 0b010, 0b011], 3);
        assert_eq!(decided_at(&g), Some((2, 500_000)));
        // rounding half up: 1/3 → 333 333, 2/3 → 666 667
        let g = game(&[10, 20], &[0b11, 0b01, 0b10, 0b10], 0);
        assert_eq!(decided_at(&g), Some((2, 666_667)));
        // a lone set-up record
        let g = game(&[10, 20], &[0b11], 0);
        assert_eq!(decided_at(&g), Some((0, 0)));
        // records cut short (the last leaders include no winner) and no records: left out
        assert_eq!(decided_at(&game(&[10, 20], &[0b11, 0b01], 0)), None);
        assert_eq!(decided_at(&game(&[10, 20], &[], 0)), None);
    }

    fn seeds() -> Vec<[GameOutcome; 3]> {
        (0..14i64)
            .map(|i| {
                // set-up, two turns, then final scoring (its leaders are the winners)
                let g = |totals: &[i64], records: bool, lead_changes: u32| {
                    let best = *totals.iter().max().unwrap();
                    let winners = (0..totals.len())
                        .filter(|&s| totals[s] == best)
                        .fold(0u8, |m, s| m | 1 << s);
                    let leaders = [0b111, 1 << (i % 3), 0b011, winners];
                    game(
                        totals,
                        if records { &leaders[..] } else { &[] },
                        lead_changes,
                    )
                };
                let a = g(&[i % 5 + 10, 12, 7], true, (i % 4) as u32);
                let b = g(&[i % 3 + 11, 12, i % 7 + 6], true, (i % 3) as u32);
                // every third seed without records under the third ruleset
                let c = g(&[12, i % 4 + 10, 9], i % 3 != 0, 1);
                [a, b, c]
            })
            .collect()
    }

    #[test]
    fn merging_partitions_equals_adding_in_sequence() {
        let all = seeds();
        let mut whole = BalanceAcc::new(3);
        let (mut x, mut y, mut z) = (
            BalanceAcc::new(3),
            BalanceAcc::default(),
            BalanceAcc::new(3),
        );
        for (i, g) in all.iter().enumerate() {
            whole.add(g);
            match i % 3 {
                0 => x.add(g),
                1 => y.add(g),
                _ => z.add(g),
            }
        }
        z.merge(&x, "b").unwrap();
        z.merge(&y, "b").unwrap();
        assert_eq!(z, whole);
        let mut other_order = BalanceAcc::default();
        for part in [&y, &x] {
            other_order.merge(part, "b").unwrap();
        }
        other_order
            .merge(
                &{
                    let mut r = BalanceAcc::new(3);
                    for g in all.iter().skip(2).step_by(3) {
                        r.add(g);
                    }
                    r
                },
                "b",
            )
            .unwrap();
        assert_eq!(other_order, whole);
        whole.check(3, 14, "b").unwrap();
        assert!(whole.check(3, 15, "b").is_err());
        assert!(whole.check(2, 14, "b").is_err());
        BalanceAcc::default().check(3, 14, "b").unwrap();
        let back: BalanceAcc =
            serde_json::from_str(&serde_json::to_string(&whole).unwrap()).unwrap();
        assert_eq!(back, whole);
        let mut broken = whole.clone();
        broken.pairs[1].decided_share.n -= 1;
        assert!(broken
            .check(3, 14, "b")
            .unwrap_err()
            .contains("decided_share"));
        let mut huge = whole.clone();
        huge.rulesets[0].ties = u64::MAX;
        assert!(huge
            .clone()
            .merge(&huge, "b")
            .unwrap_err()
            .contains("rulesets[0].ties"));
    }

    #[test]
    fn summary_gives_means_and_paired_differences() {
        let mut acc = BalanceAcc::new(3);
        for g in seeds() {
            acc.add(&g);
        }
        let labels = ["A", "B", "C"].map(String::from);
        let s = balance_summary(&acc, 3, &labels).unwrap();
        assert_eq!(s.per_ruleset.len(), 3);
        assert_eq!(s.pairs.len(), 3);
        let a = &s.per_ruleset[0];
        // seat 0 wins under A when i % 5 + 10 ≥ 12: i % 5 ∈ {2, 3, 4} → 8 of 14 (ties: i % 5 = 2)
        assert_eq!(acc.rulesets[0].first_seat_wins, 8);
        assert_eq!(acc.rulesets[0].ties, 3);
        assert!((a.first_seat_advantage_pp - 100.0 * (8.0 / 14.0 - 1.0 / 3.0)).abs() < 1e-9);
        assert_eq!(s.per_ruleset[2].decided_games, 9);
        let p = &s.pairs[0];
        assert_eq!((p.a.as_str(), p.b.as_str(), p.games), ("A", "B", 14));
        // the paired difference of means is the difference of the rulesets' means
        for (_, _, f) in p.figures() {
            assert!((f.difference.mean - (f.b - f.a)).abs() < 1e-9, "{f:?}");
            let [lo, hi] = f.difference.ci.unwrap();
            assert!(lo <= f.difference.mean && f.difference.mean <= hi);
        }
        // A vs C: decided-at only over the seeds with records under both
        assert_eq!(s.pairs[1].decided_games, 9);
        assert!(balance_summary(&BalanceAcc::default(), 3, &labels).is_none());
    }
}

#[cfg(test)]
mod accumulator_tests {
    use super::*;
    use crate::compare::Accumulator;

    fn game(seed: u64, totals: &[i64]) -> GameOutcome {
        let base = crate::compare::outcome_with_totals(totals);
        let mask = base.winners.iter().fold(0u8, |m, &s| m | 1 << s);
        GameOutcome {
            seed,
            turns: 2,
            turn_hashes: vec![1, seed, 3, 4],
            state_hashes: vec![1, seed, 3, 4],
            leaders: vec![0b11, 0b01, 0b10, mask],
            lead_changes: (seed % 3) as u32,
            ..base
        }
    }

    fn seeds() -> Vec<[GameOutcome; 2]> {
        (0..20u64)
            .map(|i| {
                let t = i as i64;
                [game(i, &[t % 7 + 5, 8]), game(i, &[t % 5 + 6, 8])]
            })
            .collect()
    }

    #[test]
    fn the_accumulator_merges_the_balance_exactly() {
        let mut whole = Accumulator::new(2, 2);
        let mut parts = [Accumulator::new(2, 2), Accumulator::new(2, 2)];
        for (i, g) in seeds().iter().enumerate() {
            whole.add_game(g);
            parts[i % 2].add_game(g);
        }
        let [mut x, y] = parts;
        x.merge(&y).unwrap();
        assert_eq!(x.balance, whole.balance);
        assert_eq!(whole.balance.games, 20);
        whole.check_shape(2, 2).unwrap();
        let mut broken = whole.clone();
        broken.balance.rulesets[1].games += 1;
        assert!(broken
            .check_shape(2, 2)
            .unwrap_err()
            .contains("accumulator.balance.rulesets[1].games"));
    }

    /// An accumulator written before the balance figures loads without them and stays
    /// without them when resumed or merged, rather than covering only some seeds.
    #[test]
    fn an_old_accumulator_stays_without_balance() {
        let all = seeds();
        let mut old = Accumulator::new(2, 2);
        for g in &all[..5] {
            old.add_game(g);
        }
        let mut json: serde_json::Value = serde_json::to_value(&old).unwrap();
        json.as_object_mut().unwrap().remove("balance");
        let mut resumed: Accumulator = serde_json::from_value(json).unwrap();
        assert_eq!(resumed.balance, BalanceAcc::default());
        resumed.check_shape(2, 2).unwrap();
        for g in &all[5..10] {
            resumed.add_game(g);
        }
        assert_eq!(resumed.balance.games, 0);
        resumed.check_shape(2, 2).unwrap();
        let mut fresh = Accumulator::new(2, 2);
        for g in &all[10..] {
            fresh.add_game(g);
        }
        let mut merged = fresh.clone();
        merged.merge(&resumed).unwrap();
        assert_eq!(merged.balance, BalanceAcc::default());
        merged.check_shape(2, 2).unwrap();
        resumed.merge(&fresh).unwrap();
        assert_eq!(resumed.balance, BalanceAcc::default());
        assert!(balance_summary(&resumed.balance, 2, &[]).is_none());
    }
}
