//! The policy ladder: how strong is each player policy, measured against the others in
//! duplicate format (`meeplab ladder`).
//!
//! # Format
//! Every **deal** (a game seed: the tile order) is played several times, so luck of the draw
//! cancels out and each policy sits in every seat:
//!
//! * The policies are grouped into **tables** of `P` (the number of players) **slots**: every
//!   `P`-element combination of the `N` policies, in lexicographic order. With two players
//!   that is a round robin — every pair of policies; with `N = P` it is one table of all. With
//!   fewer policies than seats (`N < P`) there is one table whose slot `k` holds policy
//!   `k mod N` (`greedy random` at 4 players: greedy, random, greedy, random).
//! * Each table plays the deal once per **rotation** `r = 0..P`: seat `s` holds slot
//!   `(s + r) mod P`. Each slot visits each seat once per deal.
//!
//! So a deal is `tables × P` games: 2 for two policies at 2 players, 6 for three policies at
//! 2 players, 3 for three policies at 3 players. Runs refuse more than
//! [`schedule::MAX_GAMES_PER_DEAL`] games per deal.
//!
//! # What is compared
//! In each game every two seats held by **different** policies make one **comparison**: the
//! one with more points is ahead; equal points are a tie and count half a win for each. With
//! two players a comparison is the game itself (ahead = winner). Per pair of policies the
//! report gives the share of comparisons won (ties half) with a 95 % Wilson score interval
//! (it treats comparisons as independent; the rotations of one deal are not quite), each
//! side's mean score and the mean score difference with 95 % Student t intervals over deals
//! (the deal is the unit, so the difference is paired by deal), and the mean ingots awarded
//! per game in the compared games when the ruleset has gold. Per policy: the mean score and
//! ingots held per game (t intervals over deals) and an Elo rating.
//!
//! # Elo
//! Bradley–Terry strengths fitted by maximum likelihood (Hunter's 2004 MM iteration) to all
//! comparisons, ties counting half a win each way, with one virtual tie added to every pair
//! (so a clean sweep still gives a finite rating); Elo = 400·log10 of the strength ratio,
//! anchored at the **first policy listed = 0**. The 95 % interval is the 2.5–97.5 percentile
//! range of [`elo::BOOTSTRAP_REPLICATES`] refits on deals resampled with replacement, the
//! resampling drawn from keyed randomness (master seed, replicate, draw), so it is the same on
//! every run and thread count. When one policy won every comparison against another, the data
//! bound the gap between them from below only (and every resample is a sweep too): the
//! winner's interval is then open above and the loser's open below, and where one of them is
//! the anchor the other's finite end is the gap at the Wilson bound of the winner's share.
//! The report flags such pairs.
//!
//! # Determinism
//! Deal `d` plays seed [`crate::compare::seeds::game_seed`]`(seed, d)` in every game of the
//! deal; policies draw from the engine's decision keys. Deals are played in parallel and
//! reduced in deal order, so the results are identical for any `--threads`.
//!
//! Flow: [`LadderSpec`] → [`run::play_deals`] (one [`run::DealTally`] per deal) →
//! [`summary::summarize`] → [`crate::report::ladder`] (the report layer writes the printed
//! table, `ladder.json`, `ladder.md` and the charts).

pub mod elo;
pub mod run;
pub mod schedule;
pub mod summary;

pub use run::{play_deals, play_seated, DealTally};
pub use schedule::Schedule;
pub use summary::{summarize, LadderReport};

use crate::policy::spec::PolicySpec;
use serde::{Deserialize, Serialize};

/// What a ladder run plays.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LadderSpec {
    /// The policies in the order given; the first is the Elo anchor.
    pub policies: Vec<PolicySpec>,
    /// Ruleset name, file and content hash, for the report.
    pub ruleset: RulesetRef,
    pub players: u8,
    /// Deals (seeds); each is played `Schedule::games_per_deal` times.
    pub deals: u64,
    /// Master seed.
    pub seed: u64,
}

/// The ruleset a ladder is played under.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesetRef {
    pub name: String,
    pub file: Option<String>,
    pub hash: String,
    /// Whether the ruleset has Gold Mines (ingots are reported).
    pub has_gold: bool,
}

impl RulesetRef {
    pub fn from_ruleset(r: &crate::ruleset::Ruleset) -> RulesetRef {
        RulesetRef {
            name: r.name.clone(),
            file: r.file.clone(),
            hash: r.hash.clone(),
            has_gold: r.ext_in_play("gold."),
        }
    }
}

impl LadderSpec {
    /// Unique display labels: the spec text, with `#2`, `#3`… on repeats (`greedy`,
    /// `greedy#2`), so a policy can be measured against itself.
    pub fn labels(&self) -> Vec<String> {
        let mut labels = Vec::with_capacity(self.policies.len());
        for (i, p) in self.policies.iter().enumerate() {
            let repeat = self.policies[..i].iter().filter(|q| *q == p).count();
            labels.push(if repeat == 0 {
                p.to_string()
            } else {
                format!("{p}#{}", repeat + 1)
            });
        }
        labels
    }

    /// Checks the counts: two or more policies, a player count the engine plays, at least one
    /// deal, and a schedule of at most [`schedule::MAX_GAMES_PER_DEAL`] games per deal.
    pub fn validate(&self) -> Result<Schedule, String> {
        if self.policies.len() < 2 {
            return Err(format!(
                "a ladder needs two or more policies, got {}",
                self.policies.len()
            ));
        }
        if self.players < 2 || self.players as usize > crate::engine::MAX_PLAYERS {
            return Err(format!(
                "players must be 2 to {}, not {}",
                crate::engine::MAX_PLAYERS,
                self.players
            ));
        }
        if self.deals == 0 {
            return Err("a ladder needs at least one deal (--games 1 or more)".to_string());
        }
        Schedule::new(self.policies.len(), self.players)
    }
}

/// Plays the ladder `spec` under `rules` on `threads` worker threads (default: all cores) and
/// summarizes it; `progress` receives the deals finished so far. The report is the same for
/// any thread count.
///
/// # Errors
/// An invalid spec, a policy this build cannot play, or a thread pool that will not start.
pub fn run_ladder(
    spec: &LadderSpec,
    rules: &std::sync::Arc<crate::engine::Compiled>,
    threads: Option<usize>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<LadderReport, String> {
    let schedule = spec.validate()?;
    let policies: Vec<_> = spec.policies.iter().map(|p| p.build()).collect();
    let work = || {
        let deals = play_deals(rules, &schedule, &policies, spec.deals, spec.seed, progress);
        summarize(spec, &schedule, &deals)
    };
    match threads {
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map_err(|e| format!("cannot start {n} worker threads: {e}"))
            .map(|pool| pool.install(work)),
        None => Ok(work()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(policies: &str, players: u8) -> LadderSpec {
        LadderSpec {
            policies: policies
                .split(' ')
                .map(|p| p.parse().expect("policy"))
                .collect(),
            ruleset: RulesetRef {
                name: "t".into(),
                file: None,
                hash: "0".into(),
                has_gold: false,
            },
            players,
            deals: 1,
            seed: 1,
        }
    }

    #[test]
    fn repeated_policies_get_numbered_labels() {
        assert_eq!(
            spec("greedy random greedy greedy", 2).labels(),
            ["greedy", "random", "greedy#2", "greedy#3"]
        );
    }

    #[test]
    fn validation_names_the_problem() {
        assert!(spec("greedy", 2)
            .validate()
            .unwrap_err()
            .contains("two or more"));
        assert!(spec("greedy random", 1)
            .validate()
            .unwrap_err()
            .contains("not 1"));
        let mut s = spec("greedy random", 2);
        s.deals = 0;
        assert!(s.validate().unwrap_err().contains("at least one deal"));
        assert_eq!(
            spec("greedy random", 2)
                .validate()
                .unwrap()
                .games_per_deal(),
            2
        );
    }
}
