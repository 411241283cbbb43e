//! The same-rules yardstick of a coupled pair: what chance alone would give.
//!
//! Beside each pair A vs B a placebo A′ (and B′) is played: the same ruleset and seed, the
//! same deal and choices up to the turn where the pair's play first differed, and from that
//! turn on **the chance the pair does not share redrawn**: always the players' own keyed
//! draws, salted ([`crate::policy::salted`]: random moves, tie-breaks, a search's
//! determinizations), and, when the two rulesets deal the seed differently
//! ([`crate::play::deals_differ`]: other tiles, other counts, a renamed id), the deal too —
//! the tiles still unseen at that turn put in a new keyed order
//! ([`crate::engine::Game::redraw_pack`], key [`crate::play::redeal_key`]). A seed whose
//! pair never played differently needs no placebo game: its placebo is the game itself.
//!
//! From the four games come two comparisons that both redraw chance from the same turn: **luck alone** (A against A′, B against B′) and **the rule with the luck redrawn**
//! (A against B′, A′ against B). The rule's **excess** is the second minus the first, per
//! seed, with a paired interval: what the rule does beyond sending the game another way.
//!
//! *Why the deal too.* Two rulesets whose decks differ (other tiles, another edition's tile
//! set, even one renamed tile id: the deck order is keyed by the ids) part at the first draw
//! that differs, and from there A and B′ differ by a new deal as well as new player luck.
//! Were only the players' luck redrawn, A vs A′ would keep A's deal while A vs B′ changes it,
//! and the deal's luck would be counted as the rule's effect (under a relabelled-deck null
//! the excess excluded 0 in 13 % of runs for the winner, 28.5 % for the scores). With the
//! deal redrawn on both sides, B′'s remaining pack and A′'s are each a fresh keyed order of
//! the tiles then unseen: under any rule that changes only the deal, A vs B′ and A vs A′
//! have the same distribution and the excess is 0 in expectation.
//!
//! *Why not the deal of rulesets with the same deck.* Their pair shares its deal (the coupled
//! deck), so the chance it does not share is the players' alone, and that is what the
//! yardstick redraws: the excess stays unbiased and keeps its power. Redrawing the shared
//! deal too would be valid but drown the rule: HiG against RGG Gold Mines (one deck), 300
//! seeds, luck alone rose from 17.7 % to 25.5 % at `greedy` and from 28.5 % to 48.7 % at
//! `heuristic` (near two independent games), and the heuristic's excess fell from
//! +9.8 pp [+5.5, +14.2] to +0.5 pp [−3.4, +4.4].
//!
//! Matching the luck on both sides is what makes the yardstick fair at every level. The
//! plain rule pair (A against B, the same keys) shares its luck: for `random` and `greedy`
//! players it stays coupled after the games part, so its winner-changed share is smaller
//! than any luck-redrawn share, and comparing it with the placebo alone would make every rule
//! look harmless; for search players every pair parts at once and the three shares come
//! close. A renamed copy of a ruleset never parts, so every figure is the same and the
//! excess is exactly 0.
//!
//! Everything here is an integer aggregate merged by addition (exact over shards, threads and
//! resumes); [`placebo_summary`] turns it into shares, means and paired intervals.

use super::accumulate::winner_set;
use super::paired::{score_correlation, win_correlation, PairedWins};
use super::stats::{share, wilson, MeanCi, Moments};
use crate::engine::GameOutcome;
use serde::{Deserialize, Serialize};

/// The salt of the placebo games' keys (any fixed non-zero word; it is part of the method,
/// so every run, shard and resume uses the same).
pub const PLACEBO_SALT: u64 = 0x504C_4143_4542_4F31;

/// The placebo side of a pair: `0` is A vs A′, `1` is B vs B′.
pub const SIDES: usize = 2;

/// The placebo of one pair, accumulated over seeds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlaceboAcc {
    /// Seeds counted (every seed of the run).
    pub games: u64,
    /// Seeds whose rule pair played differently, for which A′ and B′ were played.
    pub played: u64,
    /// Per side: seeds whose placebo positions parted (some end-of-turn state differs).
    pub diverged: [u64; SIDES],
    /// Per side: seeds whose set of winners differs between the game and its placebo.
    pub winner_changed: [u64; SIDES],
    /// Per seed, Σ over seats of |score under B − score under A| (the rule pair).
    pub rule_abs_delta: Moments,
    /// Per side and seed, Σ over seats of |score of the placebo − score of the game|.
    pub abs_delta: [Moments; SIDES],
    /// Per side: seeds whose winner differs between the rule pair with the luck redrawn on
    /// one side — A against B′ (side 0), A′ against B (side 1)…
    pub rule_luck_winner_changed: [u64; SIDES],
    /// …and per seed their Σ over seats of |score difference|.
    pub rule_luck_abs_delta: [Moments; SIDES],
    /// Per seed: `[A≠B′] + [A′≠B] − [A≠A′] − [B≠B′]` (winners), twice the rule's excess
    /// over chance (an integer, so it sums exactly).
    pub excess_winner_changed: Moments,
    /// Per seed: `Σ|B′−A| + Σ|B−A′| − Σ|A′−A| − Σ|B′−B|` (scores, summed over seats), twice
    /// the excess of the summed absolute score differences.
    pub excess_abs_delta: Moments,
    /// Per side and seat: the placebo's final totals…
    pub totals: [Vec<Moments>; SIDES],
    /// …its paired difference `placebo − game`…
    pub score_delta: [Vec<Moments>; SIDES],
    /// …and the paired win table (game = "A", placebo = "B").
    pub seat_wins: [Vec<PairedWins>; SIDES],
}

/// Σ over seats of |y − x|.
fn abs_delta(x: &GameOutcome, y: &GameOutcome) -> i128 {
    x.seats
        .iter()
        .zip(&y.seats)
        .map(|(p, q)| (q.total as i128 - p.total as i128).abs())
        .sum()
}

impl PlaceboAcc {
    /// An empty aggregate for games of `players` seats.
    pub fn new(players: u8) -> PlaceboAcc {
        let seats = players as usize;
        PlaceboAcc {
            totals: std::array::from_fn(|_| vec![Moments::default(); seats]),
            score_delta: std::array::from_fn(|_| vec![Moments::default(); seats]),
            seat_wins: std::array::from_fn(|_| vec![PairedWins::default(); seats]),
            ..PlaceboAcc::default()
        }
    }

    /// Adds one seed: the rule pair's games `a` and `b`, and their placebos `[a′, b′]` (`None`
    /// when the rule pair played identically: then each placebo is its game).
    pub fn add(&mut self, a: &GameOutcome, b: &GameOutcome, placebo: Option<&[GameOutcome; 2]>) {
        if self.games == 0 {
            *self = PlaceboAcc::new(a.seats.len().min(u8::MAX as usize) as u8);
        }
        self.games += 1;
        self.rule_abs_delta.push_wide(abs_delta(a, b));
        if placebo.is_some() {
            self.played += 1;
        }
        let [a2, b2] = placebo.map_or([a, b], |[x, y]| [x, y]);
        let changed = |x: &GameOutcome, y: &GameOutcome| i128::from(winner_set(x) != winner_set(y));
        // the rule with the luck redrawn: A against B′, A′ against B (a pair that never
        // parted has nothing redrawn: its crossings are the luck-alone comparisons, no change)
        let mut excess_changed = 0i128;
        let mut excess_abs = 0i128;
        for (side, (x, y)) in [(a, b2), (a2, b)].into_iter().enumerate() {
            if placebo.is_none() {
                self.rule_luck_abs_delta[side].push(0);
                continue;
            }
            let c = changed(x, y);
            self.rule_luck_winner_changed[side] += c as u64;
            excess_changed += c;
            let d = abs_delta(x, y);
            self.rule_luck_abs_delta[side].push_wide(d);
            excess_abs += d;
        }
        // the luck alone: A against A′, B against B′
        for (side, (game, other)) in [(a, a2), (b, b2)].into_iter().enumerate() {
            let (wg, wp) = (winner_set(game), winner_set(other));
            if wg != wp {
                self.winner_changed[side] += 1;
                excess_changed -= 1;
            }
            if game.first_state_divergence(other).is_some() {
                self.diverged[side] += 1;
            }
            let d = abs_delta(game, other);
            excess_abs -= d;
            self.abs_delta[side].push_wide(d);
            for (s, (x, y)) in game.seats.iter().zip(&other.seats).enumerate() {
                if let Some(m) = self.totals[side].get_mut(s) {
                    m.push(y.total);
                }
                if let Some(m) = self.score_delta[side].get_mut(s) {
                    m.push_wide(y.total as i128 - x.total as i128);
                }
                if let Some(w) = self.seat_wins[side].get_mut(s) {
                    w.push(wg.contains(&(s as u8)), wp.contains(&(s as u8)));
                }
            }
        }
        self.excess_winner_changed.push_wide(excess_changed);
        self.excess_abs_delta.push_wide(excess_abs);
    }

    /// Adds another aggregate of the same pair (disjoint seeds). Errors name the field that
    /// overflowed, under `path`.
    pub fn merge(&mut self, o: &PlaceboAcc, path: &str) -> Result<(), String> {
        use super::aggregate::{add, add_moments};
        if o.games == 0 {
            return Ok(());
        }
        if self.games == 0 {
            *self = o.clone();
            return Ok(());
        }
        add(&mut self.games, o.games, || format!("{path}.games"))?;
        add(&mut self.played, o.played, || format!("{path}.played"))?;
        for side in 0..SIDES {
            add(&mut self.diverged[side], o.diverged[side], || {
                format!("{path}.diverged[{side}]")
            })?;
            add(
                &mut self.winner_changed[side],
                o.winner_changed[side],
                || format!("{path}.winner_changed[{side}]"),
            )?;
            add_moments(&mut self.abs_delta[side], &o.abs_delta[side], || {
                format!("{path}.abs_delta[{side}]")
            })?;
            add(
                &mut self.rule_luck_winner_changed[side],
                o.rule_luck_winner_changed[side],
                || format!("{path}.rule_luck_winner_changed[{side}]"),
            )?;
            add_moments(
                &mut self.rule_luck_abs_delta[side],
                &o.rule_luck_abs_delta[side],
                || format!("{path}.rule_luck_abs_delta[{side}]"),
            )?;
            for (name, into, from) in [
                ("totals", &mut self.totals[side], &o.totals[side]),
                (
                    "score_delta",
                    &mut self.score_delta[side],
                    &o.score_delta[side],
                ),
            ] {
                for (s, (x, y)) in into.iter_mut().zip(from).enumerate() {
                    add_moments(x, y, || format!("{path}.{name}[{side}][{s}]"))?;
                }
            }
            for (x, y) in self.seat_wins[side].iter_mut().zip(&o.seat_wins[side]) {
                x.merge(y);
            }
        }
        add_moments(&mut self.rule_abs_delta, &o.rule_abs_delta, || {
            format!("{path}.rule_abs_delta")
        })?;
        add_moments(
            &mut self.excess_winner_changed,
            &o.excess_winner_changed,
            || format!("{path}.excess_winner_changed"),
        )?;
        add_moments(&mut self.excess_abs_delta, &o.excess_abs_delta, || {
            format!("{path}.excess_abs_delta")
        })
    }

    /// Checks the counts against the pair's `games` and `players` (what [`PlaceboAcc::add`]
    /// guarantees). An aggregate of a run without a placebo is all zeros and passes.
    pub fn check(&self, games: u64, players: u8, path: &str) -> Result<(), String> {
        if self.games == 0 && self.played == 0 {
            return Ok(()); // no placebo in this run (or no game yet)
        }
        if self.games != games {
            return Err(format!(
                "{path}.games is {} but the pair has {games} games",
                self.games
            ));
        }
        if self.played > games {
            return Err(format!("{path}.played is more than the games ({games})"));
        }
        let seats = players as usize;
        for side in 0..SIDES {
            for (name, count) in [
                ("diverged", self.diverged[side]),
                ("winner_changed", self.winner_changed[side]),
                (
                    "rule_luck_winner_changed",
                    self.rule_luck_winner_changed[side],
                ),
            ] {
                if count > self.played {
                    return Err(format!(
                        "{path}.{name}[{side}] is {count}, more than the seeds played ({})",
                        self.played
                    ));
                }
            }
            let lens = [
                self.totals[side].len(),
                self.score_delta[side].len(),
                self.seat_wins[side].len(),
            ];
            if lens.iter().any(|&l| l != seats) {
                return Err(format!(
                    "{path}: side {side} has per-seat lists of lengths {lens:?}, not {seats}"
                ));
            }
            let counts = self.totals[side]
                .iter()
                .chain(&self.score_delta[side])
                .map(|m| m.n)
                .chain(self.seat_wins[side].iter().map(PairedWins::games))
                .chain([self.abs_delta[side].n, self.rule_luck_abs_delta[side].n]);
            for n in counts {
                if n != games {
                    return Err(format!(
                        "{path}: side {side} counts {n} games, not the pair's {games}"
                    ));
                }
            }
        }
        for (name, m) in [
            ("rule_abs_delta", &self.rule_abs_delta),
            ("excess_winner_changed", &self.excess_winner_changed),
            ("excess_abs_delta", &self.excess_abs_delta),
        ] {
            if m.n != games {
                return Err(format!(
                    "{path}.{name}.n is {} but the pair has {games} games",
                    m.n
                ));
            }
        }
        Ok(())
    }
}

/// The placebo of one pair as the report shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlaceboSummary {
    /// How the placebo was made, in words.
    pub method: String,
    /// Seeds whose rule pair played differently, each played twice more (A′ and B′).
    pub games_played: u64,
    /// Share of seeds whose winner changed with the rule and the luck redrawn (A vs B′ and
    /// A′ vs B, averaged).
    pub rule_luck_winner_changed_share: f64,
    /// Mean |score difference| per seat with the rule and the luck redrawn.
    pub rule_luck_mean_abs_score_delta: f64,
    /// Share of seeds whose winner changed in the placebo, the mean of A vs A′ and B vs B′…
    pub winner_changed_share: f64,
    /// …and of each side.
    pub winner_changed_share_by_side: [f64; 2],
    /// Wilson intervals of each side's share.
    pub winner_changed_ci_by_side: [[f64; 2]; 2],
    /// Share of seeds whose placebo positions parted (mean of the two sides).
    pub diverged_share: f64,
    /// Mean |score difference| per seat: the rule pair's…
    pub rule_mean_abs_score_delta: MeanCi,
    /// …and the placebo's (mean of the two sides).
    pub mean_abs_score_delta: f64,
    /// The rule-with-luck winner-changed share minus the placebo's, with its paired interval
    /// over seeds (shares as fractions).
    pub excess_winner_changed: MeanCi,
    /// The rule-with-luck mean |score difference| per seat minus the placebo's, paired over
    /// seeds.
    pub excess_mean_abs_score_delta: MeanCi,
    /// Correlation of the game with its placebo: scores per seat and win indicators per seat
    /// (the mean of the two sides; `None` where a side has no variance).
    pub outcome_correlation: OutcomeCorrelation,
}

/// The correlation of paired outcomes, per seat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OutcomeCorrelation {
    /// Pearson ρ of the paired final scores, per seat.
    pub scores: Vec<Option<f64>>,
    /// Phi (Pearson ρ of the 0/1 win indicators), per seat.
    pub wins: Vec<Option<f64>>,
    /// The mean of the per-seat score correlations (`None` if none is defined).
    pub mean_score: Option<f64>,
}

impl OutcomeCorrelation {
    pub fn new(scores: Vec<Option<f64>>, wins: Vec<Option<f64>>) -> OutcomeCorrelation {
        let mean_score = mean_defined(scores.clone());
        OutcomeCorrelation {
            scores,
            wins,
            mean_score,
        }
    }
}

/// Below this mean score correlation the pairing has broken: the two games are nearly
/// independent, so "the winner changed" mostly counts games that went another way, and the
/// reports headline the per-seat shifts instead.
pub const BROKEN_PAIRING: f64 = 0.5;

/// Scales a mean-with-interval by `k` (the doubled integer units back to shares or points).
fn scaled(m: MeanCi, k: f64) -> MeanCi {
    MeanCi {
        mean: m.mean * k,
        sd: m.sd.map(|s| s * k.abs()),
        ci: m.ci.map(|[lo, hi]| {
            let (x, y) = (lo * k, hi * k);
            [x.min(y), x.max(y)]
        }),
    }
}

/// The report's view of `acc`; `game_totals[side][seat]` are the moments of the games' own
/// totals (A's and B's, from the ruleset aggregates), for the placebo's correlation.
/// `None` for a run without a placebo.
pub fn placebo_summary(
    acc: &PlaceboAcc,
    players: u8,
    game_totals: [&[Moments]; 2],
) -> Option<PlaceboSummary> {
    if acc.games == 0 {
        return None;
    }
    let n = acc.games;
    let seats = f64::from(players.max(1));
    let side_share = |side: usize| share(acc.winner_changed[side], n);
    let mean2 = |f: &dyn Fn(usize) -> f64| (f(0) + f(1)) / 2.0;
    let per_seat_abs = |m: &Moments| m.mean() / seats;
    let correlation = |s: usize| {
        let score = mean_defined(
            (0..SIDES)
                .map(|side| {
                    score_correlation(
                        game_totals[side].get(s)?,
                        acc.totals[side].get(s)?,
                        acc.score_delta[side].get(s)?,
                    )
                })
                .collect(),
        );
        let wins = mean_defined(
            (0..SIDES)
                .map(|side| win_correlation(acc.seat_wins[side].get(s)?))
                .collect(),
        );
        (score, wins)
    };
    let (scores, wins): (Vec<_>, Vec<_>) = (0..players as usize).map(correlation).unzip();
    Some(PlaceboSummary {
        method: "A′, B′: the same ruleset, the players' own keys salted (and the unseen tiles \
                 redrawn by a keyed reshuffle where the two rulesets deal the seed \
                 differently) from the turn the pair's play first differed; luck alone = A vs A′ and B vs B′, the rule \
                 with the luck redrawn = A vs B′ and A′ vs B (each averaged); excess = the \
                 second minus the first, paired over seeds"
            .to_string(),
        games_played: acc.played,
        rule_luck_winner_changed_share: mean2(&|side| share(acc.rule_luck_winner_changed[side], n)),
        rule_luck_mean_abs_score_delta: mean2(&|side| per_seat_abs(&acc.rule_luck_abs_delta[side])),
        winner_changed_share: mean2(&side_share),
        winner_changed_share_by_side: [side_share(0), side_share(1)],
        winner_changed_ci_by_side: [
            wilson(acc.winner_changed[0], n),
            wilson(acc.winner_changed[1], n),
        ],
        diverged_share: mean2(&|side| share(acc.diverged[side], n)),
        rule_mean_abs_score_delta: scaled(acc.rule_abs_delta.mean_ci(), 1.0 / seats),
        mean_abs_score_delta: mean2(&|side| per_seat_abs(&acc.abs_delta[side])),
        excess_winner_changed: scaled(acc.excess_winner_changed.mean_ci(), 0.5),
        excess_mean_abs_score_delta: scaled(acc.excess_abs_delta.mean_ci(), 0.5 / seats),
        outcome_correlation: OutcomeCorrelation::new(scores, wins),
    })
}

/// The mean of the defined values (`None` if none is).
fn mean_defined(values: Vec<Option<f64>>) -> Option<f64> {
    let v: Vec<f64> = values.into_iter().flatten().collect();
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

/// One sentence a FAQ writer can quote: does the rule change who wins more often than
/// chance does (the players' own luck, and the deal where the decks differ), once it is
/// redrawn on both sides from the same turn?
pub fn verdict(p: &PlaceboSummary) -> String {
    let pct = |x: f64| format!("{:.1} %", 100.0 * x);
    let shares = format!(
        "{} with the rule and the luck redrawn, {} with the luck alone",
        pct(p.rule_luck_winner_changed_share),
        pct(p.winner_changed_share)
    );
    // no interval, or one of zero width (every seed's excess alike): too little data
    let Some([lo, hi]) = p.excess_winner_changed.interval().bounds() else {
        return format!("the winner changes in {shares} (too little data for an interval)");
    };
    // one decimal, or two where a bound would read as 0.0
    let decimals = if (100.0 * lo).abs() < 0.05 || (100.0 * hi).abs() < 0.05 {
        2
    } else {
        1
    };
    let pp = |x: f64| format!("{:+.decimals$}", 100.0 * x + 0.0);
    let range = format!(
        "excess {} pp, 95 % {} to {}",
        pp(p.excess_winner_changed.mean),
        pp(lo),
        pp(hi)
    );
    if lo <= 0.0 && hi >= 0.0 {
        // an interval straddling 0 says neither "more" nor "no more": it cannot tell
        return format!(
            "cannot tell whether this rule changes who wins more often than reshuffling the \
             players' own luck does ({shares}; {range})"
        );
    }
    let how = if lo > 0.0 {
        "more often than"
    } else {
        "less often than"
    };
    format!("this rule changes who wins {how} redrawing the luck does ({shares}; {range})")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(seed: u64, scores: &[i64], hashes: &[u64]) -> GameOutcome {
        GameOutcome {
            seed,
            turn_hashes: hashes.to_vec(),
            state_hashes: hashes.to_vec(),
            ..crate::compare::outcome_with_totals(scores)
        }
    }

    #[test]
    fn identical_rule_pair_needs_no_placebo_and_has_no_excess() {
        let mut acc = PlaceboAcc::new(2);
        let a = game(1, &[10, 5], &[1, 2, 3]);
        acc.add(&a, &a.clone(), None);
        acc.check(1, 2, "p").unwrap();
        assert_eq!(acc.played, 0);
        assert_eq!(acc.winner_changed, [0, 0]);
        assert_eq!(acc.excess_winner_changed.sum, 0);
        assert_eq!(acc.excess_abs_delta.sum, 0);
    }

    /// Seeds whose excess is all alike (here: no pair parted) give a zero-width t interval;
    /// the verdict says there is too little data instead of quoting `+0.00 to +0.00`.
    #[test]
    fn a_verdict_without_spread_says_too_little_data() {
        let mut acc = PlaceboAcc::new(2);
        for seed in 0..5 {
            let a = game(seed, &[10, 5], &[1, 2, 3]);
            acc.add(&a, &a.clone(), None);
        }
        let totals = [vec![Moments::default(); 2], vec![Moments::default(); 2]];
        let s = placebo_summary(&acc, 2, [&totals[0], &totals[1]]).unwrap();
        assert_eq!(s.excess_winner_changed.ci, Some([0.0, 0.0]));
        let v = verdict(&s);
        assert!(v.contains("too little data"), "{v}");
        assert!(!v.contains("95 %"), "{v}");
    }

    #[test]
    fn excess_is_rule_minus_mean_of_placebos() {
        let mut acc = PlaceboAcc::new(2);
        let a = game(1, &[10, 5], &[1, 2, 3]);
        let b = game(1, &[4, 12], &[1, 2, 4]); // winner changed, |Δ| = 6 + 7
        let a2 = game(1, &[6, 9], &[1, 2, 5]); // placebo of A: winner changed, |Δ| = 8
        let b2 = game(1, &[4, 12], &[1, 2, 4]); // placebo of B: identical
        acc.add(&a, &b, Some(&[a2, b2]));
        acc.check(1, 2, "p").unwrap();
        assert_eq!(acc.played, 1);
        assert_eq!(acc.winner_changed, [1, 0]);
        assert_eq!(acc.diverged, [1, 0]);
        // A vs B′: changed (|Δ| 6 + 7); A′ vs B: not (|Δ| 2 + 3); A vs A′: changed (|Δ| 4 + 4);
        // B vs B′: not (0)
        assert_eq!(acc.rule_luck_winner_changed, [1, 0]);
        assert_eq!(acc.excess_winner_changed.sum, 1 - 1);
        assert_eq!(acc.excess_abs_delta.sum, 13 + 5 - 8);
        let totals = [vec![Moments::default(); 2], vec![Moments::default(); 2]];
        let s = placebo_summary(&acc, 2, [&totals[0], &totals[1]]).unwrap();
        assert_eq!(s.winner_changed_share, 0.5);
        assert_eq!(s.rule_luck_winner_changed_share, 0.5);
        assert_eq!(s.excess_winner_changed.mean, 0.0);
        assert_eq!(s.excess_mean_abs_score_delta.mean, 10.0 / 4.0);
        assert_eq!(s.rule_luck_mean_abs_score_delta, 18.0 / 4.0);
        assert_eq!(s.rule_mean_abs_score_delta.mean, 6.5);
        assert_eq!(s.mean_abs_score_delta, 2.0);
    }

    #[test]
    fn merging_partitions_gives_the_whole() {
        let games: Vec<_> = (0..12u64)
            .map(|i| {
                let a = game(i, &[(i * 7 % 11) as i64, (i * 3 % 13) as i64], &[1, i]);
                let b = game(i, &[(i * 5 % 11) as i64, (i * 3 % 13) as i64], &[1, i + 1]);
                let p = (i % 3 != 0).then(|| {
                    [
                        game(i, &[(i % 4) as i64, 2], &[1, i + 2]),
                        game(i, &[(i * 5 % 11) as i64, (i % 5) as i64], &[1, i + 1]),
                    ]
                });
                (a, b, p)
            })
            .collect();
        let mut whole = PlaceboAcc::new(2);
        let (mut x, mut y) = (PlaceboAcc::new(2), PlaceboAcc::new(2));
        for (i, (a, b, p)) in games.iter().enumerate() {
            whole.add(a, b, p.as_ref());
            if i % 2 == 0 { &mut x } else { &mut y }.add(a, b, p.as_ref());
        }
        x.merge(&y, "p").unwrap();
        assert_eq!(x, whole);
        whole.check(12, 2, "p").unwrap();
        assert!(whole.check(13, 2, "p").is_err());
    }
}
