//! From per-deal tallies to the ladder's figures: win rates with Wilson intervals, means with
//! Student t intervals over deals (the library's [`crate::compare::stats`]), and Elo ratings
//! with bootstrap intervals ([`super::elo`]).

use super::elo::{self, PairCount};
use super::run::{DealTally, Held};
use super::schedule::Schedule;
use super::{LadderSpec, RulesetRef};
use crate::compare::seat_counts::{ByCounter, CounterKey, Has, Mean};
use crate::compare::stats::{self, MeanCi, Moments, MEAN_INTERVAL, PROPORTION_INTERVAL};
use crate::engine::{SeatCounter, SeatCounterSpec};
use crate::policy::spec::PolicySpec;
use serde::{Deserialize, Serialize};

/// The ladder's results: what `ladder.json` holds and the printed table shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LadderReport {
    /// The command that reproduces these results (any `--threads`, any `--out`).
    pub command: String,
    pub ruleset: RulesetRef,
    pub players: u8,
    pub deals: u64,
    pub seed: u64,
    pub games_per_deal: usize,
    pub games: u64,
    pub methods: Methods,
    pub policies: Vec<PolicySummary>,
    pub pairs: Vec<PairSummary>,
    /// Per per-seat counter: what all players hold at the end, per game (`None` when its
    /// expansion is not in play); `{name}_per_game` (`ingots_per_game`).
    #[serde(flatten)]
    pub held_per_game: ByCounter<Option<MeanCi>, PerGame>,
    /// Per per-seat counter that declares a rest ([`crate::engine::RestSpec`]): what no
    /// player holds when the game ended, per game (ingots still on tiles, removed unscored:
    /// with the ingots held, where the gold of the tiles placed went); `{key}_per_game`
    /// (`ingots_left_per_game`).
    #[serde(flatten)]
    pub rest_per_game: ByCounter<Option<MeanCi>, RestPerGame>,
}

/// A mean per game of all seats together: `{name}_per_game` (`ingots_per_game`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PerGame;
impl CounterKey for PerGame {
    fn key(spec: &SeatCounterSpec) -> Option<String> {
        Some(format!("{}_per_game", spec.name))
    }
}

/// A mean per game of what no seat holds: `{rest.key}_per_game` (`ingots_left_per_game`); no
/// entry for a counter without a rest.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RestPerGame;
impl CounterKey for RestPerGame {
    fn key(spec: &SeatCounterSpec) -> Option<String> {
        spec.rest.map(|r| format!("{}_per_game", r.key))
    }
}

/// How each figure is computed, in words, for readers of the JSON and the report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Methods {
    pub format: String,
    pub win_rate: String,
    pub means: String,
    pub elo: String,
}

/// One policy over all its games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PolicySummary {
    /// Unique label (`greedy`, `greedy#2` for a repeat).
    pub label: String,
    pub spec: PolicySpec,
    /// Seats it held, over all games.
    pub seat_games: u64,
    /// Points per game.
    pub mean_score: MeanCi,
    /// Per per-seat counter: what it held at the end per game (`None` when its expansion is
    /// not in play); `mean_{name}` (`mean_ingots`).
    #[serde(flatten)]
    pub mean_held: ByCounter<Option<MeanCi>, Mean>,
    /// Elo, the first policy = 0.
    pub elo: f64,
    /// 95 % interval of the Elo (bootstrap over deals); `None` = unbounded on that side
    /// (the policy won or lost every comparison with another; see [`PairSummary::sweep`]).
    pub elo_ci: [Option<f64>; 2],
}

/// One pair of policies: `first` against `second` (in the order given).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairSummary {
    pub first: String,
    pub second: String,
    /// Comparisons (games with two players).
    pub comparisons: u64,
    /// Comparisons `first` finished ahead, level, behind.
    pub wins: u64,
    pub ties: u64,
    pub losses: u64,
    /// `first`'s share, ties counting half, with its 95 % Wilson interval.
    pub win_rate: f64,
    pub win_rate_ci: [f64; 2],
    /// Points per comparison of each side and their paired difference (`first − second`).
    pub mean_score_first: MeanCi,
    pub mean_score_second: MeanCi,
    pub mean_score_difference: MeanCi,
    /// Per per-seat counter: what all players hold per compared game (`None` when its
    /// expansion is not in play); `{name}_per_game` (`ingots_per_game`).
    #[serde(flatten)]
    pub held_per_game: ByCounter<Option<MeanCi>, PerGame>,
    /// One side won every comparison: the Elo gap is bounded only from below by the data.
    pub sweep: bool,
}

/// A mean over deals of per-deal sums of `per_deal` observations, as a mean per
/// observation: the interval scales with it (the deal stays the sampling unit).
fn per_observation(m: &Moments, per_deal: u32) -> MeanCi {
    let ci = m.mean_ci();
    let k = f64::from(per_deal.max(1));
    MeanCi {
        mean: ci.mean / k,
        sd: ci.sd.map(|sd| sd / k),
        ci: ci.ci.map(|[lo, hi]| [lo / k, hi / k]),
    }
}

/// The 95 % Wilson score interval for a share of `half_points / 2` successes in `n`: the
/// formula of [`stats::wilson`], which takes whole successes only, here with ties counting
/// half (so the count may end in .5).
pub fn wilson_half_points(half_points: u64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let z = stats::Z_975;
    let nf = n as f64;
    let p = half_points as f64 / (2.0 * nf);
    let z2 = z * z;
    let denom = 1.0 + z2 / nf;
    let centre = (p + z2 / (2.0 * nf)) / denom;
    let half = z / denom * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt();
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

/// Opens the Elo intervals the data do not bound. Policy `i`'s Elo (against the anchor,
/// policy 0) is unbounded above when some group of policies holding `i` but not the anchor
/// won every comparison with the rest: then the policies that took points (a win or a tie)
/// from `i`, those that took points from them, and so on, never reach the anchor. Likewise
/// below. The bootstrap cannot see this (every resample is such a sweep too, and the one
/// virtual tie per pair sets the value), so that end becomes `None`; when the anchor itself
/// was swept by `i` (or swept `i`), the finite end is the gap at the Wilson bound of the
/// winner's share.
fn open_unbounded_ends(policies: &mut [PolicySummary], schedule: &Schedule, pairs: &[PairSummary]) {
    let n = policies.len();
    // took[a][b]: a took at least half a point from b.
    let mut took = vec![vec![false; n]; n];
    for (&(i, j), p) in schedule.pairs.iter().zip(pairs) {
        took[i][j] = p.wins + p.ties > 0;
        took[j][i] = p.losses + p.ties > 0;
    }
    // Whether the anchor is reached from `start` following `edge(from, to)`.
    let reaches_anchor = |start: usize, edge: &dyn Fn(usize, usize) -> bool| {
        let mut seen = vec![false; n];
        let mut stack = vec![start];
        seen[start] = true;
        while let Some(s) = stack.pop() {
            for (c, seen_c) in seen.iter_mut().enumerate() {
                if !*seen_c && edge(s, c) {
                    *seen_c = true;
                    stack.push(c);
                }
            }
        }
        seen[0]
    };
    let anchor_gap = |i: usize| {
        let k = schedule.pair_index(0, i)?;
        let p = &pairs[k];
        p.sweep
            .then(|| elo::elo_of_share(wilson_half_points(2 * p.comparisons, p.comparisons)[0]))
    };
    for i in 1..n {
        if !reaches_anchor(i, &|s, c| took[c][s]) {
            policies[i].elo_ci[1] = None;
            if let Some(gap) = anchor_gap(i).filter(|_| took[i][0]) {
                policies[i].elo_ci[0] = Some(gap);
            }
        }
        if !reaches_anchor(i, &|s, c| took[s][c]) {
            policies[i].elo_ci[0] = None;
            if let Some(gap) = anchor_gap(i).filter(|_| took[0][i]) {
                policies[i].elo_ci[1] = Some(-gap);
            }
        }
    }
}

/// The command line that reproduces `spec` (without `--threads`, `--out`, `--json`).
pub fn command(spec: &LadderSpec) -> String {
    let policies: Vec<String> = spec.policies.iter().map(|p| p.to_string()).collect();
    let ruleset = spec.ruleset.file.as_deref().unwrap_or(&spec.ruleset.name);
    format!(
        "meeplab ladder {} --ruleset {} --games {} --players {} --seed {}",
        policies.join(" "),
        ruleset,
        spec.deals,
        spec.players,
        spec.seed
    )
}

/// Per per-seat counter in play, the mean of `of(deal)[counter]` over deals, per observation
/// (`None` for a counter not in play).
fn held_means<K>(
    in_play: &ByCounter<bool, Has>,
    deals: &[DealTally],
    of: &dyn Fn(&DealTally) -> Held,
    per_deal: u32,
) -> ByCounter<Option<MeanCi>, K> {
    ByCounter::from_fn(|c| {
        in_play.get(c).then(|| {
            let mut m = Moments::default();
            for d in deals {
                m.push(of(d)[c.index()]);
            }
            per_observation(&m, per_deal)
        })
    })
}

/// The report of a ladder from its deals' tallies (in deal order).
pub fn summarize(spec: &LadderSpec, schedule: &Schedule, deals: &[DealTally]) -> LadderReport {
    let labels = spec.labels();
    let in_play = &spec.ruleset.counts_in_play;
    let n_deals = deals.len() as u64;

    let half_points: Vec<Vec<u32>> = deals
        .iter()
        .map(|d| d.pairs.iter().map(|p| 2 * p.wins + p.ties).collect())
        .collect();
    let mut totals = vec![PairCount::default(); schedule.pairs.len()];
    for (k, t) in totals.iter_mut().enumerate() {
        t.half_points = half_points.iter().map(|d| d[k] as u64).sum();
        t.comparisons = schedule.comparisons_per_deal[k] as u64 * n_deals;
    }
    let elo = elo::fit(schedule.policies, &schedule.pairs, &totals);
    let elo_ci = elo::bootstrap(
        schedule.policies,
        &schedule.pairs,
        &schedule.comparisons_per_deal,
        &half_points,
        spec.seed,
    );

    let policies = (0..schedule.policies)
        .map(|i| {
            let per_deal = schedule.seat_games_per_deal[i];
            let mut score = Moments::default();
            for d in deals {
                score.push(d.policies[i].score);
            }
            PolicySummary {
                label: labels[i].clone(),
                spec: spec.policies[i],
                seat_games: per_deal as u64 * n_deals,
                mean_score: per_observation(&score, per_deal),
                mean_held: held_means(in_play, deals, &|d| d.policies[i].held, per_deal),
                elo: elo[i],
                elo_ci: elo_ci[i].map(Some),
            }
        })
        .collect();

    let pairs: Vec<PairSummary> = schedule
        .pairs
        .iter()
        .enumerate()
        .map(|(k, &(i, j))| {
            let per_deal = schedule.comparisons_per_deal[k];
            let (mut wins, mut ties, mut losses) = (0u64, 0u64, 0u64);
            let mut first = Moments::default();
            let mut second = Moments::default();
            let mut difference = Moments::default();
            for d in deals {
                let p = &d.pairs[k];
                wins += p.wins as u64;
                ties += p.ties as u64;
                losses += p.losses as u64;
                first.push(p.score_first);
                second.push(p.score_second);
                difference.push(p.score_first - p.score_second);
            }
            let comparisons = totals[k].comparisons;
            PairSummary {
                first: labels[i].clone(),
                second: labels[j].clone(),
                comparisons,
                wins,
                ties,
                losses,
                win_rate: stats::share(2 * wins + ties, 2 * comparisons),
                win_rate_ci: wilson_half_points(2 * wins + ties, comparisons),
                mean_score_first: per_observation(&first, per_deal),
                mean_score_second: per_observation(&second, per_deal),
                mean_score_difference: per_observation(&difference, per_deal),
                held_per_game: held_means(in_play, deals, &|d| d.pairs[k].held, per_deal),
                sweep: comparisons > 0 && (wins == comparisons || losses == comparisons),
            }
        })
        .collect();

    let mut policies: Vec<PolicySummary> = policies;
    open_unbounded_ends(&mut policies, schedule, &pairs);

    let games = schedule.games_per_deal() as u32;
    let held_per_game = held_means(in_play, deals, &|d| d.held, games);
    let mut rest_per_game = held_means(in_play, deals, &|d| d.rest, games);
    for c in SeatCounter::all() {
        if c.spec().rest.is_none() {
            *rest_per_game.get_mut(c) = None;
        }
    }

    LadderReport {
        command: command(spec),
        ruleset: spec.ruleset.clone(),
        players: spec.players,
        deals: n_deals,
        seed: spec.seed,
        games_per_deal: schedule.games_per_deal(),
        games: n_deals * schedule.games_per_deal() as u64,
        methods: Methods {
            format: format!(
                "duplicate: each deal (seed) is played at every table of {} policies, once per \
                 seat rotation, so every policy sits in every seat; {} games per deal",
                spec.players,
                schedule.games_per_deal()
            ),
            win_rate: format!(
                "share of comparisons (two seats of different policies in one game) won, ties \
                 counting half; {PROPORTION_INTERVAL} over comparisons"
            ),
            means: format!(
                "per game (score{}) or per comparison (pairs); {MEAN_INTERVAL} over deals, so \
                 score differences are paired by deal",
                SeatCounter::all()
                    .map(|c| format!(", {}", c.name()))
                    .collect::<String>()
            ),
            elo: elo::METHOD.to_string(),
        },
        policies,
        pairs,
        held_per_game,
        rest_per_game,
    }
}

#[cfg(test)]
mod tests {
    use super::super::run::{PairTally, PolicyTally};
    use super::*;
    use crate::engine::expansions::gold;

    /// `n` of gold's ingots, the rest 0.
    fn ingots(n: i64) -> Held {
        let mut h = Held::default();
        h[gold::INGOTS.index()] = n;
        h
    }

    #[test]
    fn wilson_with_half_points_matches_the_library_on_whole_counts() {
        for (s, n) in [(0, 10), (10, 100), (37, 40), (40, 40), (0, 0)] {
            assert_eq!(wilson_half_points(2 * s, n), stats::wilson(s, n), "{s}/{n}");
        }
        // 3.5 of 10 lies between 3 and 4 of 10.
        let [lo, hi] = wilson_half_points(7, 10);
        let [lo3, hi3] = stats::wilson(3, 10);
        let [lo4, hi4] = stats::wilson(4, 10);
        assert!(lo3 < lo && lo < lo4 && hi3 < hi && hi < hi4);
    }

    fn spec(players: u8, gold: bool) -> LadderSpec {
        LadderSpec {
            policies: vec![PolicySpec::Random, PolicySpec::Greedy],
            ruleset: RulesetRef {
                name: "Base".into(),
                file: Some("rulesets/base.rules".into()),
                hash: "0".into(),
                counts_in_play: ByCounter::from_fn(|c| gold && c == gold::INGOTS),
            },
            players,
            deals: 3,
            seed: 5,
        }
    }

    /// A deal of two games in which `first` and `second` are the first policy's and the
    /// second's points in each game.
    fn deal(first: [i64; 2], second: [i64; 2]) -> DealTally {
        let mut pair = PairTally::default();
        for g in 0..2 {
            match first[g].cmp(&second[g]) {
                std::cmp::Ordering::Greater => pair.wins += 1,
                std::cmp::Ordering::Equal => pair.ties += 1,
                std::cmp::Ordering::Less => pair.losses += 1,
            }
        }
        pair.score_first = first.iter().sum();
        pair.score_second = second.iter().sum();
        pair.held = ingots(4);
        DealTally {
            pairs: vec![pair],
            policies: vec![
                PolicyTally {
                    score: pair.score_first,
                    held: ingots(1),
                },
                PolicyTally {
                    score: pair.score_second,
                    held: ingots(3),
                },
            ],
            held: ingots(4),
            rest: ingots(6),
        }
    }

    #[test]
    fn figures_are_per_game_with_intervals_over_deals() {
        let s = spec(2, true);
        let schedule = s.validate().unwrap();
        let deals = [
            deal([10, 20], [30, 20]),
            deal([40, 0], [10, 10]),
            deal([5, 5], [25, 15]),
        ];
        let r = summarize(&s, &schedule, &deals);
        assert_eq!((r.games, r.games_per_deal), (6, 2));
        let p = &r.pairs[0];
        assert_eq!((p.comparisons, p.wins, p.ties, p.losses), (6, 1, 1, 4));
        assert!((p.win_rate - 1.5 / 6.0).abs() < 1e-12);
        assert_eq!(p.win_rate_ci, wilson_half_points(3, 6));
        // Per deal, first − second summed: −20, 20, −30 → per game −10, 10, −15; mean −5.
        assert!((p.mean_score_difference.mean + 5.0).abs() < 1e-12);
        let [lo, hi] = p.mean_score_difference.ci.unwrap();
        let mut m = Moments::default();
        for x in [-20, 20, -30] {
            m.push(x);
        }
        let [mlo, mhi] = m.mean_ci().ci.unwrap();
        assert!((lo - mlo / 2.0).abs() < 1e-12 && (hi - mhi / 2.0).abs() < 1e-12);
        assert!((r.policies[0].mean_score.mean - 80.0 / 6.0).abs() < 1e-12);
        fn mean<K>(m: &ByCounter<Option<MeanCi>, K>) -> f64 {
            m.get(gold::INGOTS).unwrap().mean
        }
        assert_eq!(mean(&r.policies[1].mean_held), 1.5);
        assert_eq!(mean(&p.held_per_game), 2.0);
        assert_eq!(mean(&r.held_per_game), 2.0);
        assert_eq!(mean(&r.rest_per_game), 3.0);
        assert!(!p.sweep);
        assert_eq!(r.policies[0].elo, 0.0);
        assert!(r.policies[1].elo > 0.0);
        assert_eq!(
            r.command,
            "meeplab ladder random greedy --ruleset rulesets/base.rules --games 3 \
             --players 2 --seed 5"
        );
        // Without gold, no ingot figures.
        let r = summarize(&spec(2, false), &schedule, &deals);
        fn none<K>(m: &ByCounter<Option<MeanCi>, K>) -> bool {
            m.iter().all(Option::is_none)
        }
        assert!(none(&r.held_per_game) && none(&r.policies[0].mean_held));
        assert!(none(&r.rest_per_game));
    }

    #[test]
    fn a_sweep_is_flagged() {
        let s = spec(2, false);
        let schedule = s.validate().unwrap();
        let deals = [deal([1, 2], [3, 4]), deal([0, 0], [9, 9])];
        let r = summarize(&s, &schedule, &deals);
        assert!(r.pairs[0].sweep);
        assert_eq!(r.pairs[0].win_rate, 0.0);
        // The winner's Elo is open above; below, the gap at the Wilson bound of 4 of 4.
        let gap = elo::elo_of_share(stats::wilson(4, 4)[0]);
        assert_eq!(r.policies[1].elo_ci, [Some(gap), None]);
        assert!(r.policies[1].elo > gap);
        assert_eq!(r.policies[0].elo_ci, [Some(0.0), Some(0.0)]);
    }

    #[test]
    fn only_the_ends_the_data_leave_open_are_open() {
        // Three policies: 0 and 1 split their games, 2 beats both every time.
        let mut s = spec(2, false);
        s.policies.push(PolicySpec::Greedy);
        let schedule = s.validate().unwrap();
        let pair = |wins, losses, first, second| PairTally {
            wins,
            losses,
            score_first: first,
            score_second: second,
            ..Default::default()
        };
        let deals: Vec<DealTally> = (0..20)
            .map(|d| DealTally {
                pairs: vec![
                    if d % 2 == 0 {
                        pair(2, 0, 40, 30)
                    } else {
                        pair(0, 2, 30, 40)
                    },
                    pair(0, 2, 30, 90),
                    pair(0, 2, 35, 90),
                ],
                policies: vec![PolicyTally::default(); 3],
                held: Held::default(),
                rest: Held::default(),
            })
            .collect();
        let r = summarize(&s, &schedule, &deals);
        assert!(!r.pairs[0].sweep && r.pairs[1].sweep && r.pairs[2].sweep);
        let [lo, hi] = r.policies[1].elo_ci;
        assert!(lo.is_some_and(|x| x < 0.0) && hi.is_some_and(|x| x > 0.0));
        let gap = elo::elo_of_share(stats::wilson(40, 40)[0]);
        assert_eq!(r.policies[2].elo_ci, [Some(gap), None]);
    }
}
