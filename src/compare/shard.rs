//! Merging shard outputs.
//!
//! A shard ([`Shard`], in [`crate::compare::seeds`]) plays the seed blocks `b` with
//! `b % n == k − 1`. Each run writes a [`ShardFile`] (`accumulator.json`): the spec, the shard, and the exact
//! integer aggregate. [`merge_shards`] checks that the files belong to the same run and cover
//! it exactly once, then adds the aggregates — giving exactly the unsharded aggregate.

use super::accumulate::Accumulator;
use super::seeds::Shard;
use super::spec::CompareSpec;
use serde::{Deserialize, Serialize};
use std::fmt;

/// How many missing shards a [`MergeError::Missing`] names before it only counts.
pub const MISSING_LISTED: usize = 10;

/// Version of the `accumulator.json` layout. 2: `diverged` counts state divergence; play
/// differed, its first difference and the lead before divergence were added.
pub const SHARD_FILE_FORMAT: u32 = 2;

/// The content of `accumulator.json`: everything needed to merge and to write the report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardFile {
    pub format: u32,
    pub meeplab_version: String,
    pub spec: CompareSpec,
    pub accumulator: Accumulator,
}

impl ShardFile {
    pub fn new(spec: &CompareSpec, accumulator: Accumulator) -> ShardFile {
        ShardFile {
            format: SHARD_FILE_FORMAT,
            meeplab_version: env!("CARGO_PKG_VERSION").to_string(),
            spec: spec.clone(),
            accumulator,
        }
    }

    /// Checks what merging and reporting rely on, for a file read from disk (which may have
    /// been edited or truncated by hand): a valid spec, and an aggregate whose shape and
    /// counts match it exactly (see [`Accumulator::check_shape`]).
    pub fn check(&self) -> Result<(), String> {
        if self.format != SHARD_FILE_FORMAT {
            return Err(format!(
                "accumulator format {} is not the one this meeplab reads ({SHARD_FILE_FORMAT}); \
                 run the comparison again with this version",
                self.format
            ));
        }
        self.spec
            .validate()
            .map_err(|e| format!("invalid spec: {e}"))?;
        self.accumulator
            .check_shape(self.spec.rulesets.len(), self.spec.players)
    }
}

/// Why shard outputs cannot be merged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MergeError {
    NoInputs,
    /// A field of the run differs between two inputs (`first`, `other` name the inputs).
    SpecMismatch {
        field: &'static str,
        first: String,
        other: String,
        first_value: String,
        other_value: String,
    },
    /// Two inputs cover the same seeds.
    Overlap {
        first: String,
        other: String,
        what: String,
    },
    /// Shards are missing: the inputs do not cover the run. `first` lists the lowest
    /// missing `k` (at most [`MISSING_LISTED`]), `count` how many are missing in all.
    Missing {
        n: u32,
        count: u64,
        first: Vec<u32>,
    },
    /// The input's aggregate does not hold the games its shard should.
    Incomplete {
        input: String,
        expected: u64,
        found: u64,
    },
    /// An input's `accumulator.json` parses but contradicts itself: an invalid spec, or an
    /// aggregate whose shape or counts do not match the spec (`what` says which field).
    Inconsistent {
        input: String,
        what: String,
    },
    /// Adding an input to the others failed: a sum overflows (numbers no run produces).
    Combine {
        input: String,
        message: String,
    },
    /// Reading or parsing an input failed.
    Input {
        input: String,
        message: String,
    },
    /// Writing the merged output failed.
    Output {
        output: String,
        message: String,
    },
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::NoInputs => write!(f, "nothing to merge: no shard directories given"),
            MergeError::SpecMismatch {
                field,
                first,
                other,
                first_value,
                other_value,
            } => write!(
                f,
                "cannot merge {other} with {first}: they are different runs ({field} is \
                 {other_value} in {other} but {first_value} in {first})"
            ),
            MergeError::Overlap { first, other, what } => write!(
                f,
                "cannot merge {other} with {first}: both hold {what}, so their games overlap"
            ),
            MergeError::Missing { n, count, first } => {
                let mut list: Vec<String> = first.iter().map(|k| format!("{k}/{n}")).collect();
                if *count > first.len() as u64 {
                    list.push(format!("… ({count} missing in all)"));
                }
                write!(
                    f,
                    "cannot merge: shard(s) {} missing, the result would not cover every seed",
                    list.join(", ")
                )
            }
            MergeError::Incomplete {
                input,
                expected,
                found,
            } => write!(
                f,
                "cannot merge {input}: it holds {found} games but its shard has {expected} \
                 (interrupted run?)"
            ),
            MergeError::Inconsistent { input, what } => write!(
                f,
                "cannot merge {input}: its accumulator.json is inconsistent: {what}"
            ),
            MergeError::Combine { input, message } => {
                write!(f, "cannot merge {input} with the other inputs: {message}")
            }
            MergeError::Input { input, message } => write!(f, "cannot read {input}: {message}"),
            MergeError::Output { output, message } => {
                write!(f, "cannot write the merged result to {output}: {message}")
            }
        }
    }
}

impl std::error::Error for MergeError {}

/// Checks that `inputs` (named by `names`, e.g. their directories) are the shards of one run,
/// each exactly once, and returns the merged file (shard `None`, spec of the first input).
/// Inputs may come in any order; the result does not depend on it.
pub fn merge_shards(inputs: &[(String, ShardFile)]) -> Result<ShardFile, MergeError> {
    let (first_name, first) = inputs.first().ok_or(MergeError::NoInputs)?;
    for (name, file) in inputs {
        file.check().map_err(|what| MergeError::Inconsistent {
            input: name.clone(),
            what,
        })?;
    }
    let a = &first.spec;
    for (name, file) in &inputs[1..] {
        let b = &file.spec;
        let mismatch = |field: &'static str, x: String, y: String| MergeError::SpecMismatch {
            field,
            first: first_name.clone(),
            other: name.clone(),
            first_value: x,
            other_value: y,
        };
        let (hashes_a, hashes_b) = (a.ruleset_hashes(), b.ruleset_hashes());
        if hashes_a != hashes_b {
            return Err(mismatch("the ruleset hash list", hashes_a, hashes_b));
        }
        if a.games != b.games {
            return Err(mismatch("games", a.games.to_string(), b.games.to_string()));
        }
        if a.players != b.players {
            return Err(mismatch(
                "players",
                a.players.to_string(),
                b.players.to_string(),
            ));
        }
        if a.seed != b.seed {
            return Err(mismatch("seed", a.seed.to_string(), b.seed.to_string()));
        }
        if a.policy != b.policy {
            return Err(mismatch("policy", a.policy.clone(), b.policy.clone()));
        }
        if a.positions != b.positions {
            return Err(mismatch(
                "--positions",
                a.positions.to_string(),
                b.positions.to_string(),
            ));
        }
        if a.placebo != b.placebo {
            let on = |p: bool| if p { "with" } else { "without (--no-placebo)" }.to_string();
            return Err(mismatch("the placebo", on(a.placebo), on(b.placebo)));
        }
        if a.luck != b.luck {
            let on = |l: bool| if l { "--luck" } else { "--no-luck" }.to_string();
            return Err(mismatch("the luck meter", on(a.luck), on(b.luck)));
        }
        if a.skill != b.skill {
            let s = |x: &Option<super::skill::SkillSpec>| {
                x.as_ref().map_or("no --skill".into(), |x| {
                    format!("--skill {},{}", x.strong, x.weak)
                })
            };
            return Err(mismatch("the skill study", s(&a.skill), s(&b.skill)));
        }
        if a.engine_version != b.engine_version {
            return Err(mismatch(
                "the engine version",
                a.engine_version.clone(),
                b.engine_version.clone(),
            ));
        }
        if a.tile_catalogue_hash != b.tile_catalogue_hash {
            return Err(mismatch(
                "the tile-catalogue hash",
                a.tile_catalogue_hash.clone(),
                b.tile_catalogue_hash.clone(),
            ));
        }
        if first.format != file.format {
            return Err(mismatch(
                "the accumulator format",
                first.format.to_string(),
                file.format.to_string(),
            ));
        }
    }

    // Coverage: either one unsharded input, or every k of one n exactly once.
    let describe = |s: Option<Shard>| match s {
        Some(s) => format!("shard {s}"),
        None => "the whole (unsharded) run".to_string(),
    };
    let mut seen: Vec<(Option<Shard>, &String)> = Vec::new();
    for (name, file) in inputs {
        let s = file.spec.shard;
        for &(t, other_name) in &seen {
            let overlap = match (s, t) {
                (Some(x), Some(y)) => x.n != y.n || x.k == y.k,
                _ => true,
            };
            if overlap {
                let what = if s == t {
                    describe(s)
                } else {
                    format!("{} and {}", describe(t), describe(s))
                };
                return Err(MergeError::Overlap {
                    first: other_name.clone(),
                    other: name.clone(),
                    what,
                });
            }
        }
        let expected = match s {
            Some(s) => s.games(a.games),
            None => a.games,
        };
        if file.accumulator.games != expected {
            return Err(MergeError::Incomplete {
                input: name.clone(),
                expected,
                found: file.accumulator.games,
            });
        }
        seen.push((s, name));
    }
    if let Some(Some(s)) = seen.first().map(|x| x.0) {
        // Inputs are pairwise distinct shards of one n (checked above), so sorting their k
        // finds the gaps without a list of all n.
        let mut present: Vec<u32> = seen.iter().filter_map(|x| x.0.map(|t| t.k)).collect();
        present.sort_unstable();
        let count = s.n as u64 - present.len() as u64;
        if count > 0 {
            let first: Vec<u32> = (1..=s.n)
                .filter(|k| present.binary_search(k).is_err())
                .take(MISSING_LISTED)
                .collect();
            return Err(MergeError::Missing {
                n: s.n,
                count,
                first,
            });
        }
    }

    let mut merged = first.clone();
    merged.spec.shard = None;
    merged.spec.threads = None;
    for (name, file) in &inputs[1..] {
        merged
            .accumulator
            .merge(&file.accumulator)
            .map_err(|message| MergeError::Combine {
                input: name.clone(),
                message,
            })?;
    }
    Ok(merged)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_partition_blocks() {
        let s: Shard = "2/3".parse().unwrap();
        assert_eq!(s, Shard { k: 2, n: 3 });
        assert!("0/3".parse::<Shard>().is_err());
        assert!("4/3".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
        assert_eq!(
            "5/4294967295".parse::<Shard>().unwrap_err(),
            "invalid shard 5/4294967295: at most 100000 shards (n ≤ 100000)"
        );
        let games = 4500;
        let mut all: Vec<u64> = (1..=3)
            .flat_map(|k| Shard { k, n: 3 }.block_ranges(games))
            .flatten()
            .collect();
        all.sort_unstable();
        assert_eq!(all, (0..games).collect::<Vec<_>>());
        let r: Vec<_> = Shard { k: 2, n: 3 }.block_ranges(games).collect();
        assert_eq!(r, vec![1000..2000, 4000..4500]);
    }

    #[test]
    fn shard_game_counts_match_their_block_ranges() {
        for games in [1, 999, 1000, 1001, 2500, 4500, 7000, 12_345] {
            for n in 1..=9 {
                for k in 1..=n {
                    let s = Shard { k, n };
                    let by_ranges: u64 = s.block_ranges(games).map(|r| r.end - r.start).sum();
                    assert_eq!(s.games(games), by_ranges, "shard {s} of {games} games");
                }
            }
        }
        // Constant time, no overflow, however many games a file claims.
        let all: u64 = (1..=3).map(|k| Shard { k, n: 3 }.games(u64::MAX)).sum();
        assert_eq!(all, u64::MAX);
    }
}
