//! From the exact aggregate to the report: means, shares, quartiles and intervals. This is
//! the schema of `report.json`; it holds no wall-clock or machine facts, so it is identical
//! for any thread count and for merged shards.
//!
//! Seats are 0-based here, as in the engine (seat 0 plays first). Paired differences are
//! `b − a` per seed, for the pair's rulesets `a` (earlier on the command line) and `b`.

use super::accumulate::{Accumulator, Example, PairAcc, RulesetAcc};
use super::balance::{balance_summary, BalanceSummary};
use super::decisions::{summarize_pair, DecisionAcc, DecisionSummary};
use super::luck::{luck_summary, LuckSummary};
use super::paired::{score_correlation, win_correlation};
use super::placebo::{
    placebo_summary, verdict, OutcomeCorrelation, PlaceboSummary, BROKEN_PAIRING,
};
use super::power::{min_detectable, MinDetectable};
use super::seat_counts::{ByCounter, Mean, MeanDelta, MeanTotal, MeanWorth};
use super::seeds::BLOCK_SIZE;
use super::skill::{skill_summary, SkillSummary};
use super::spec::{shell_quote, CompareSpec, RulesetInfo};
use super::stats::{
    quartiles, share, wilson, MeanCi, Quartiles, MEAN_INTERVAL, PROPORTION_INTERVAL,
};
use super::verdict::{
    sequence_widths, stopping, verdicts, Negligible, SequenceWidth, Stopping, Verdict,
};
use crate::engine::{Category, Counter, SeatCounter};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Everything needed to reproduce the numbers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reproducibility {
    pub meeplab_version: String,
    pub engine_version: String,
    pub tile_catalogue_hash: String,
    pub ruleset_hashes: Vec<String>,
    pub policy: String,
    pub players: u8,
    pub seed: u64,
    /// Game indices played, `[first, end)`; game `i` plays `seed_derivation` of `(seed, i)`.
    pub game_indices: [u64; 2],
    pub games: u64,
    pub seed_derivation: String,
    pub seed_block_size: u64,
    /// The command that reproduces this report.
    pub command: String,
}

/// Interval types used in this report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IntervalTypes {
    /// For shares (winner changed).
    pub proportions: String,
    /// For means (scores, paired differences).
    pub means: String,
}

/// Per-ruleset results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RulesetSummary {
    pub name: String,
    pub hash: String,
    pub games: u64,
    /// Mean final score per seat, with its interval.
    pub mean_score: Vec<MeanCi>,
    /// Mean points per seat and category (`road`, `city`, …).
    pub mean_by_category: Vec<BTreeMap<String, f64>>,
    /// Share of games each seat is among the winners (ties count for every tied seat).
    pub win_rate: Vec<f64>,
    /// Wilson interval of each seat's win rate.
    pub win_rate_ci: Vec<[f64; 2]>,
    /// Share of games each seat wins alone.
    pub sole_win_rate: Vec<f64>,
    /// Share of games with several winners.
    pub tie_share: f64,
    /// Per per-seat counter (`SeatCounter`) worth a scoring category at the end: that
    /// category's mean points per seat, written as `mean_{category}` (`mean_gold`).
    #[serde(flatten)]
    pub mean_worth: ByCounter<Vec<f64>, MeanWorth>,
    /// Per per-seat counter: its mean at the end, per seat (`mean_{name}`: `mean_ingots`).
    #[serde(flatten)]
    pub mean_counts: ByCounter<Vec<MeanCi>, Mean>,
    /// Per per-seat counter: its mean per game, all seats together (`mean_{name}_total`).
    #[serde(flatten)]
    pub mean_counts_total: ByCounter<f64, MeanTotal>,
    pub mean_followers_placed: Vec<f64>,
    pub game_length: MeanCi,
    pub mean_lead_changes: f64,
    pub mean_tiles_placed: f64,
    pub mean_tiles_discarded: f64,
    /// Mean of each expansion counter per game, by its name (`ingots_on_board`,
    /// `robber_placements`, …; see `Counter`).
    pub mean_counters: BTreeMap<String, f64>,
    /// Final seat totals: `[points, seat-games]`, ascending.
    pub score_histogram: Vec<[i64; 2]>,
}

/// Per-pair paired results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairSummary {
    pub a: String,
    pub b: String,
    pub a_index: usize,
    pub b_index: usize,
    pub games: u64,
    /// Games whose positions parted: some end-of-turn state (board, followers, scores,
    /// supply, what the expansions hold on tiles and per seat) differs.
    pub diverged: u64,
    pub diverged_share: f64,
    /// Quartiles of the first turn whose end-of-turn state differs, over the diverged games
    /// (`null` if none).
    pub first_divergence_turn: Option<Quartiles>,
    /// `[turn, games]`, ascending (diverged games only).
    pub first_divergence_histogram: Vec<[u64; 2]>,
    /// Games whose events differ at all, in kind or only in order ("play differed").
    #[serde(default)]
    pub play_differed: u64,
    #[serde(default)]
    pub play_differed_share: f64,
    /// Quartiles of the first turn whose events differ (`null` if none).
    #[serde(default)]
    pub first_play_difference_turn: Option<Quartiles>,
    /// Of the play-differed games: the first differing event answered the same decision of
    /// the same player differently (a player's choice)…
    #[serde(default)]
    pub first_difference_choice: u64,
    /// …or was anything else (a rule event: a scoring, an expansion's own step, a decision
    /// asked under one ruleset only).
    #[serde(default)]
    pub first_difference_rule: u64,
    pub winner_changed: u64,
    pub winner_changed_share: f64,
    pub winner_changed_ci: [f64; 2],
    /// Of the games whose winner changed: the seat that gained had led alone at the end of
    /// the turn before the positions parted…
    #[serde(default)]
    pub winner_change_to_leader: u64,
    /// …had trailed the leader…
    #[serde(default)]
    pub winner_change_to_trailing: u64,
    /// …or had shared the lead (every seat does at the set-up).
    #[serde(default)]
    pub winner_change_tied_before: u64,
    /// Mean paired score difference `b − a` per seat, with its interval.
    pub mean_score_delta: Vec<MeanCi>,
    /// Per per-seat counter: its mean paired difference `b − a`, per seat
    /// (`mean_{one}_delta`: `mean_ingot_delta`).
    #[serde(flatten)]
    pub mean_count_delta: ByCounter<Vec<MeanCi>, MeanDelta>,
    /// Games whose outcomes are identical (points by category, per-seat counts, winners).
    pub identical_outcomes: u64,
    /// Every paired outcome is identical: the rule difference never mattered to the result.
    pub all_outcomes_identical: bool,
    /// Who benefits, per seat.
    pub who_benefits: Vec<SeatBenefit>,
    /// `[points, seat-games]` of the paired score differences `b − a`, ascending.
    pub score_delta_histogram: Vec<[i64; 2]>,
    /// Up to three games whose winner changed, largest swing first, each with the command
    /// that replays it side by side.
    pub examples: Vec<ExampleGame>,
    /// How much of the pairing is left: the correlation of the paired outcomes (scores and
    /// win indicators, per seat).
    pub outcome_correlation: OutcomeCorrelation,
    /// The mean score correlation is below [`BROKEN_PAIRING`]: the two games are nearly
    /// independent, so the per-seat win-rate and score shifts are the headline, not the
    /// winner-changed share.
    pub pairing_broken: bool,
    /// The same-rules yardstick (`null` in a run with `--no-placebo`).
    pub placebo: Option<PlaceboSummary>,
    /// The placebo comparison in one sentence a FAQ writer can quote.
    pub placebo_verdict: Option<String>,
    /// The effect on decisions (`null` in a run without decision probes).
    pub decisions: Option<DecisionSummary>,
    /// Per seat: the smallest win-rate shift (percentage points) and mean score shift
    /// (points) these games could detect with 80 % power at two-sided 5 %, from the
    /// observed discordance and spread ([`crate::compare::power`]); `null` where they detect
    /// none (too few games, or no game changed the seat's result). Empty in a run with
    /// `--until`: a power figure for a fixed N does not hold for a run that stopped on its
    /// data (see `sequence_half_width`).
    pub min_detectable: Vec<MinDetectable>,
    /// With `--until`: per seat, the half-widths of the anytime-valid 95 % intervals of its
    /// win rate (percentage points) and score (points) at the seeds played
    /// ([`crate::compare::verdict::sequence_widths`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sequence_half_width: Option<Vec<SequenceWidth>>,
}

/// A game whose winner changed between the pair's rulesets.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExampleGame {
    #[serde(flatten)]
    pub game: Example,
    /// `meeplab trace A B --seed S --players P --policy X`.
    pub trace_command: String,
}

/// One seat's gain from ruleset `a` to `b`: win rates under each, the paired difference with
/// Newcombe's interval, and McNemar's exact test on the games it won under one only.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatBenefit {
    pub win_rate_a: f64,
    pub win_rate_b: f64,
    /// `win_rate_b − win_rate_a`.
    pub win_rate_difference: f64,
    pub win_rate_difference_ci: [f64; 2],
    /// Games won under A only, under B only.
    pub won_a_only: u64,
    pub won_b_only: u64,
    pub mcnemar_p: f64,
}

impl PairSummary {
    /// Share of games whose positions were identical at the end of each of the first
    /// `turn + 1` turns (set-up = turn 0).
    pub fn identical_through(&self, turn: u64) -> f64 {
        let diverged_by: u64 = self
            .first_divergence_histogram
            .iter()
            .filter(|[t, _]| *t <= turn)
            .map(|[_, c]| c)
            .sum();
        1.0 - share(diverged_by, self.games)
    }
}

/// The content of `report.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub rulesets: Vec<RulesetInfo>,
    pub games: u64,
    pub players: u8,
    pub seed: u64,
    pub policy: String,
    pub intervals: IntervalTypes,
    pub per_ruleset: Vec<RulesetSummary>,
    pub pairs: Vec<PairSummary>,
    /// Balance figures per ruleset and their paired differences per pair
    /// ([`crate::compare::balance`]); `null` for an accumulator written before they existed.
    #[serde(default)]
    pub balance: Option<BalanceSummary>,
    pub reproducibility: Reproducibility,
    /// Problems with the numbers themselves (sums that overflowed), for the reader.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// Luck-corrected shifts, with the luck meter on ([`super::luck`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub luck: Option<LuckSummary>,
    /// Skill depth per ruleset, with `--skill` ([`super::skill`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skill_depth: Option<SkillSummary>,
    /// The answer in one paragraph a FAQ writer can paste ([`super::headline`]).
    #[serde(default)]
    pub headline: String,
    /// Per pair and question: the verdict class, estimate, interval, margin, adjusted or not
    /// ([`super::verdict`]).
    #[serde(default)]
    pub verdicts: Vec<Verdict>,
    /// The negligible sizes the verdicts used (`--negligible`).
    #[serde(default)]
    pub negligible: Negligible,
    /// With `--until`: why and when the run stopped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopping: Option<Stopping>,
}

impl Report {
    /// Whether any ruleset plays the expansion that keeps per-seat counter `c`.
    pub fn counts_in_play(&self, c: SeatCounter) -> bool {
        self.rulesets.iter().any(|r| *r.counts_in_play.get(c))
    }

    /// Display labels of the rulesets (names, made unique).
    pub fn labels(&self) -> Vec<String> {
        super::spec::unique_labels(self.rulesets.iter().map(|r| r.name.as_str()))
    }
}

fn ruleset_summary(info: &RulesetInfo, label: &str, acc: &RulesetAcc) -> RulesetSummary {
    let n = acc.games;
    let per_game = |x: u128| if n == 0 { 0.0 } else { x as f64 / n as f64 };
    let per_game_signed = |x: i128| if n == 0 { 0.0 } else { x as f64 / n as f64 };
    RulesetSummary {
        name: label.to_string(),
        hash: info.hash.clone(),
        games: n,
        mean_score: acc.seats.iter().map(|s| s.total.mean_ci()).collect(),
        mean_by_category: acc
            .seats
            .iter()
            .map(|s| {
                Category::ALL
                    .iter()
                    .map(|c| {
                        (
                            c.name().to_string(),
                            per_game_signed(s.by_category[c.index()]),
                        )
                    })
                    .collect()
            })
            .collect(),
        win_rate: acc.seats.iter().map(|s| share(s.wins, n)).collect(),
        win_rate_ci: acc.seats.iter().map(|s| wilson(s.wins, n)).collect(),
        sole_win_rate: acc.seats.iter().map(|s| share(s.sole_wins, n)).collect(),
        tie_share: share(acc.ties, n),
        mean_worth: ByCounter::from_fn(|c| {
            let worth = c.spec().worth.and_then(Category::from_name);
            acc.seats
                .iter()
                .map(|s| worth.map_or(0.0, |w| per_game_signed(s.by_category[w.index()])))
                .collect()
        }),
        mean_counts: ByCounter::from_fn(|c| {
            acc.seats
                .iter()
                .map(|s| s.counts.get(c).mean_ci())
                .collect()
        }),
        mean_counts_total: ByCounter::from_fn(|c| {
            per_game_signed(acc.seats.iter().map(|s| s.counts.get(c).sum).sum())
        }),
        mean_followers_placed: acc
            .seats
            .iter()
            .map(|s| per_game(s.followers_placed))
            .collect(),
        game_length: acc.turns.mean_ci(),
        mean_lead_changes: acc.lead_changes.mean(),
        mean_tiles_placed: per_game(acc.tiles_placed),
        mean_tiles_discarded: per_game(acc.tiles_discarded),
        mean_counters: Counter::all()
            .map(|c| (c.name().to_string(), per_game(acc.counters.get(c))))
            .collect(),
        score_histogram: acc
            .totals_hist
            .iter()
            .map(|(&p, &c)| [p, c as i64])
            .collect(),
    }
}

/// The command that shows game `seed` of `spec` under rulesets `a` and `b` side by side.
fn trace_command(spec: &CompareSpec, a: usize, b: usize, seed: u64) -> String {
    let file = |i: usize| {
        spec.rulesets
            .get(i)
            .map(|r| shell_quote(r.file.as_deref().unwrap_or(&r.name)))
            .unwrap_or_default()
    };
    format!(
        "meeplab trace {} {} --seed {seed} --players {} --policy {}",
        file(a),
        file(b),
        spec.players,
        shell_quote(&spec.policy)
    )
}

fn pair_summary(
    spec: &CompareSpec,
    labels: &[String],
    acc: &PairAcc,
    rulesets: &[RulesetAcc],
    decisions: &DecisionAcc,
) -> PairSummary {
    // Indices are checked against the spec when an accumulator is read
    // ([`Accumulator::check_shape`]); should one be out of range all the same, it is shown.
    let label = |i: usize| labels.get(i).cloned().unwrap_or_else(|| format!("#{i}"));
    let totals = |r: usize| -> Vec<super::stats::Moments> {
        rulesets
            .get(r)
            .map(|x| x.seats.iter().map(|s| s.total).collect())
            .unwrap_or_default()
    };
    let (totals_a, totals_b) = (totals(acc.a), totals(acc.b));
    let outcome_correlation = OutcomeCorrelation::new(
        (0..acc.score_delta.len())
            .map(|s| score_correlation(totals_a.get(s)?, totals_b.get(s)?, &acc.score_delta[s]))
            .collect(),
        acc.seat_wins.iter().map(win_correlation).collect(),
    );
    let pairing_broken = outcome_correlation
        .mean_score
        .is_some_and(|r| r < BROKEN_PAIRING);
    let placebo = placebo_summary(&acc.placebo, spec.players, [&totals_a, &totals_b]);
    let placebo_verdict = placebo.as_ref().map(verdict);
    let decisions = decisions
        .pairs
        .iter()
        .find(|d| (d.a, d.b) == (acc.a, acc.b))
        .map(summarize_pair);
    PairSummary {
        min_detectable: if spec.until.is_some() {
            Vec::new()
        } else {
            min_detectable(acc)
        },
        sequence_half_width: sequence_widths(spec, acc),
        decisions,
        outcome_correlation,
        pairing_broken,
        placebo,
        placebo_verdict,
        a: label(acc.a),
        b: label(acc.b),
        a_index: acc.a,
        b_index: acc.b,
        games: acc.games,
        diverged: acc.diverged,
        diverged_share: share(acc.diverged, acc.games),
        first_divergence_turn: quartiles(&acc.first_divergence),
        first_divergence_histogram: acc
            .first_divergence
            .iter()
            .map(|(&t, &c)| [t as u64, c])
            .collect(),
        play_differed: acc.play_differed,
        play_differed_share: share(acc.play_differed, acc.games),
        first_play_difference_turn: quartiles(&acc.first_play_difference),
        first_difference_choice: acc.first_difference_choice,
        first_difference_rule: acc.first_difference_rule,
        winner_changed: acc.winner_changed,
        winner_changed_share: share(acc.winner_changed, acc.games),
        winner_changed_ci: wilson(acc.winner_changed, acc.games),
        winner_change_to_leader: acc.winner_change_lead.to_leader,
        winner_change_to_trailing: acc.winner_change_lead.to_trailing,
        winner_change_tied_before: acc.winner_change_lead.tied_before,
        mean_score_delta: acc.score_delta.iter().map(|m| m.mean_ci()).collect(),
        mean_count_delta: ByCounter::from_fn(|c| {
            acc.count_delta.get(c).iter().map(|m| m.mean_ci()).collect()
        }),
        identical_outcomes: acc.identical_outcomes,
        all_outcomes_identical: acc.games > 0 && acc.identical_outcomes == acc.games,
        who_benefits: acc
            .seat_wins
            .iter()
            .map(|w| SeatBenefit {
                win_rate_a: share(w.both + w.a_only, w.games()),
                win_rate_b: share(w.both + w.b_only, w.games()),
                win_rate_difference: w.difference(),
                win_rate_difference_ci: w.difference_ci(),
                won_a_only: w.a_only,
                won_b_only: w.b_only,
                mcnemar_p: w.mcnemar_p(),
            })
            .collect(),
        score_delta_histogram: acc
            .score_delta_hist
            .iter()
            .map(|(&k, &v)| [k, v as i64])
            .collect(),
        examples: acc
            .examples
            .iter()
            .map(|e| ExampleGame {
                game: e.clone(),
                trace_command: trace_command(spec, acc.a, acc.b, e.seed),
            })
            .collect(),
    }
}

/// The report of `acc`, played under `spec`. Its `games` is the number of games in `acc`
/// (all of them for a whole or merged run; a shard's share for a shard).
pub fn summarize(spec: &CompareSpec, acc: &Accumulator) -> Report {
    let labels = spec.labels();
    let warnings = overflow_warnings(&labels, acc);
    let verdicts = verdicts(spec, acc);
    let stopping = stopping(spec, acc, &verdicts);
    let mut report = Report {
        headline: String::new(),
        negligible: spec.negligible,
        stopping,
        verdicts,
        warnings,
        luck: luck_summary(&acc.luck),
        skill_depth: spec
            .skill
            .as_ref()
            .and_then(|s| skill_summary(&acc.skill, s)),
        rulesets: spec.rulesets.clone(),
        games: acc.games,
        players: spec.players,
        seed: spec.seed,
        policy: spec.policy.clone(),
        intervals: IntervalTypes {
            proportions: PROPORTION_INTERVAL.to_string(),
            means: MEAN_INTERVAL.to_string(),
        },
        per_ruleset: spec
            .rulesets
            .iter()
            .zip(&acc.rulesets)
            .zip(&labels)
            .map(|((info, r), label)| ruleset_summary(info, label, r))
            .collect(),
        pairs: acc
            .pairs
            .iter()
            .map(|p| pair_summary(spec, &labels, p, &acc.rulesets, &acc.decisions))
            .collect(),
        balance: balance_summary(&acc.balance, spec.players, &labels),
        reproducibility: Reproducibility {
            meeplab_version: env!("CARGO_PKG_VERSION").to_string(),
            engine_version: spec.engine_version.clone(),
            tile_catalogue_hash: spec.tile_catalogue_hash.clone(),
            ruleset_hashes: spec.rulesets.iter().map(|r| r.hash.clone()).collect(),
            policy: spec.policy.clone(),
            players: spec.players,
            seed: spec.seed,
            game_indices: [
                0,
                if spec.until.is_some() {
                    acc.games
                } else {
                    spec.games
                },
            ],
            games: spec.games,
            seed_derivation: "splitmix64: game i plays mix(seed + (i + 1) * 0x9E3779B97F4A7C15)"
                .to_string(),
            seed_block_size: BLOCK_SIZE,
            command: spec.reproduce_command(),
        },
    };
    report.headline = super::headline::paragraph(&report);
    report
}

/// One line per ruleset or pair whose exact sums overflowed (saturated scores).
pub fn overflow_warnings(labels: &[String], acc: &Accumulator) -> Vec<String> {
    let mut out = Vec::new();
    for (label, r) in labels.iter().zip(&acc.rulesets) {
        let seats = r
            .seats
            .iter()
            .any(|s| s.total.overflow || s.counts.iter().any(|m| m.overflow));
        if seats || r.turns.overflow || r.lead_changes.overflow {
            out.push(format!(
                "{label}: the scores are too large to sum exactly (a scoring formula \
                 saturates them); standard deviations and intervals are left out"
            ));
        }
    }
    for p in &acc.pairs {
        let deltas = p.score_delta.iter().chain(p.count_delta.iter().flatten());
        if deltas.clone().any(|m| m.overflow) {
            let name = |i: usize| labels.get(i).map(String::as_str).unwrap_or("?");
            out.push(format!(
                "{} vs {}: the score differences are too large to sum exactly; their \
                 standard deviations and intervals are left out",
                name(p.a),
                name(p.b)
            ));
        }
    }
    out
}
