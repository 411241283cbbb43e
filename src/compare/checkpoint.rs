//! What a compare's checkpoint holds and whether it continues a given run: the content of
//! `checkpoint.json` ([`Checkpoint`]: the spec, the exact aggregate of every game before
//! `next_game` and how many bytes of `games.csv.part` belong to those games), and the checks
//! `--resume` makes before playing on. Where the checkpoint lives and how it is written (the
//! hidden `.NAME.checkpoint/` folder, atomic rewrites, the partial `games.csv`) is the run's
//! business ([`super::session`]).

use super::accumulate::Accumulator;
use super::run::Start;
use super::shard::ShardFile;
use super::spec::CompareSpec;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Version of the `checkpoint.json` layout (2: the accumulator of format 2).
pub const CHECKPOINT_FORMAT: u32 = 2;

/// `checkpoint.json`.
#[derive(Serialize, Deserialize)]
pub struct Checkpoint {
    format: u32,
    /// The spec and the aggregate of every game before `next_game`.
    run: ShardFile,
    next_game: u64,
    /// Bytes of `games.csv.part` that belong to those games.
    pub csv_bytes: u64,
}

impl Checkpoint {
    /// The checkpoint of `spec` with `accumulator` holding every game before `next_game`.
    pub fn new(
        spec: &CompareSpec,
        accumulator: Accumulator,
        next_game: u64,
        csv_bytes: u64,
    ) -> Checkpoint {
        Checkpoint {
            format: CHECKPOINT_FORMAT,
            run: ShardFile::new(spec, accumulator),
            next_game,
            csv_bytes,
        }
    }

    /// Whether this checkpoint (read from the folder `at`) can continue the run of `spec`: its
    /// format is this meeplab's, its aggregate agrees with its spec, and the spec is the same
    /// run's (threads and the command line aside). The error is a sentence.
    pub fn check_resumes(&self, spec: &CompareSpec, at: &Path) -> Result<(), String> {
        if self.format != CHECKPOINT_FORMAT {
            return Err(format!(
                "the checkpoint in {} has format {}, this meeplab writes {CHECKPOINT_FORMAT}",
                at.display(),
                self.format
            ));
        }
        self.run
            .check()
            .map_err(|e| format!("the checkpoint is inconsistent: {e}"))?;
        if let Some((field, theirs, ours)) = spec_difference(&self.run.spec, spec) {
            return Err(format!(
                "the checkpoint in {} is of another run: {field} is {theirs} there but \
                 {ours} here",
                at.display()
            ));
        }
        Ok(())
    }

    /// The spec the continued run plays: the one it started with (its command line is the
    /// one reported), with this run's thread count, the only thing that may change.
    pub fn run_spec(&self, spec: &CompareSpec) -> CompareSpec {
        let mut run_spec = self.run.spec.clone();
        run_spec.threads = spec.threads;
        run_spec
    }

    /// Where the continued run starts: the checkpoint's aggregate and next game.
    pub fn start(self) -> Start {
        Start {
            accumulator: self.run.accumulator,
            next_game: self.next_game,
        }
    }
}

/// The first field in which two specs describe different runs (threads and the command
/// line do not count), as `(field, checkpoint's value, this run's value)`.
pub fn spec_difference(a: &CompareSpec, b: &CompareSpec) -> Option<(&'static str, String, String)> {
    let shard = |s: &CompareSpec| s.shard.map(|x| x.to_string()).unwrap_or("none".into());
    let fields = [
        ("the ruleset hashes", a.ruleset_hashes(), b.ruleset_hashes()),
        ("--games", a.games.to_string(), b.games.to_string()),
        ("--players", a.players.to_string(), b.players.to_string()),
        ("--seed", a.seed.to_string(), b.seed.to_string()),
        ("--policy", a.policy.clone(), b.policy.clone()),
        ("--shard", shard(a), shard(b)),
        (
            "--positions",
            a.positions.to_string(),
            b.positions.to_string(),
        ),
        (
            "--no-placebo",
            (!a.placebo).to_string(),
            (!b.placebo).to_string(),
        ),
        ("--luck", a.luck.to_string(), b.luck.to_string()),
        (
            "--skill",
            a.skill
                .as_ref()
                .map_or("none".into(), |x| format!("{},{}", x.strong, x.weak)),
            b.skill
                .as_ref()
                .map_or("none".into(), |x| format!("{},{}", x.strong, x.weak)),
        ),
        (
            "--negligible",
            a.negligible.to_string(),
            b.negligible.to_string(),
        ),
        (
            "--until",
            a.until.map_or("none".into(), |u| u.to_string()),
            b.until.map_or("none".into(), |u| u.to_string()),
        ),
        (
            "the engine version",
            a.engine_version.clone(),
            b.engine_version.clone(),
        ),
        (
            "the tile catalogue",
            a.tile_catalogue_hash.clone(),
            b.tile_catalogue_hash.clone(),
        ),
    ];
    fields.into_iter().find(|(_, x, y)| x != y)
}
