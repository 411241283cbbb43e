//! What a compare run plays, from the loaded rulesets and the command's settings: the
//! [`CompareSpec`] with the tile catalogue's hash, the luck meter on or off (on by default for
//! searching policies, off with a note where a ruleset's positions cannot be valued) and the
//! decision probes kept only where the rulesets can hold each other's positions. The command
//! line gathers the settings and prints the notes and errors this returns.

use super::skill::SkillSpec;
use super::spec::{CompareSpec, RulesetInfo};
use super::Shard;
use crate::engine::{can_share_positions, Compiled};
use crate::ruleset::Ruleset;
use std::sync::Arc;

/// The settings a compare spec is made from (the command's flags, already parsed).
#[derive(Clone, Debug)]
pub struct SpecSettings {
    pub games: u64,
    pub players: u8,
    pub seed: u64,
    /// The seats' policies as written (`greedy`, `greedy,random`).
    pub policy: String,
    pub shard: Option<Shard>,
    pub threads: Option<usize>,
    /// The command line as typed (kept in `timing.json`).
    pub command_line: String,
    pub placebo: bool,
    /// Decision-probe positions; 0 for none.
    pub positions: u64,
    /// `positions` was asked for, not the default: rulesets that cannot be probed are then an
    /// error rather than a note.
    pub positions_given: bool,
    /// The luck meter on or off; `None` for the default ([`CompareSpec::luck_by_default`]).
    pub luck: Option<bool>,
    pub skill: Option<SkillSpec>,
    /// `--negligible`: the verdicts' negligible sizes.
    pub negligible: super::verdict::Negligible,
    /// `--until`: stop once the answer is known (`None`: play every game).
    pub until: Option<super::verdict::Until>,
}

/// Why no spec could be made: the message, and whether it is a usage error (exit code 2)
/// rather than a failure (1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError {
    pub message: String,
    pub usage: bool,
}

/// Something the run leaves out, to tell the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupNote {
    pub message: String,
    /// Shown even with `--quiet` (it changes what the figures mean).
    pub always: bool,
}

/// The spec of a compare of `rules` (compiled: `compiled`, in the same order) with
/// `settings`, and the notes to show before it runs.
///
/// # Errors
/// A tile catalogue that cannot be encoded; an invalid spec or `--positions` for rulesets
/// that cannot be probed (usage errors).
pub fn compare_spec(
    rules: &[Ruleset],
    compiled: &[Arc<Compiled>],
    settings: &SpecSettings,
) -> Result<(CompareSpec, Vec<SetupNote>), SetupError> {
    let tile_catalogue_hash = catalogue_hash(rules).map_err(|message| SetupError {
        message,
        usage: false,
    })?;
    let mut spec = CompareSpec {
        rulesets: rules.iter().map(RulesetInfo::from_ruleset).collect(),
        games: settings.games,
        players: settings.players,
        seed: settings.seed,
        policy: settings.policy.clone(),
        shard: settings.shard,
        threads: settings.threads,
        command_line: settings.command_line.clone(),
        engine_version: env!("CARGO_PKG_VERSION").to_string(),
        tile_catalogue_hash,
        placebo: settings.placebo,
        positions: settings.positions,
        luck: false,
        skill: settings.skill.clone(),
        negligible: settings.negligible,
        until: settings.until,
    };
    spec.luck = settings.luck.unwrap_or_else(|| spec.luck_by_default());
    spec.validate().map_err(|message| SetupError {
        message,
        usage: true,
    })?;
    let mut notes = Vec::new();
    spec.positions = probe_positions(compiled, settings, &mut notes)?;
    if spec.luck {
        let unvalued: Vec<String> = rules
            .iter()
            .zip(compiled)
            .filter_map(|(r, c)| {
                crate::policy::luck::can_value(c)
                    .err()
                    .map(|e| format!("{}: {e}", r.name))
            })
            .collect();
        if !unvalued.is_empty() {
            notes.push(SetupNote {
                message: format!(
                    "no luck correction: the heuristic cannot value every ruleset's positions \
                     ({}); the figures are the uncorrected ones",
                    unvalued.join("; ")
                ),
                always: true,
            });
            spec.luck = false;
        }
    }
    Ok((spec, notes))
}

/// A stable hash of the tile catalogues the rulesets use.
fn catalogue_hash(rules: &[Ruleset]) -> Result<String, String> {
    let mut text = String::new();
    for r in rules {
        let part = serde_json::to_string(&(&r.tiles, &r.deck))
            .map_err(|e| format!("cannot encode the tile catalogue of {}: {e}", r.name))?;
        text.push_str(&part);
    }
    Ok(format!("{:016x}", crate::engine::rng::hash_str(&text)))
}

/// The decision-probe positions of the run: as given, or the default. Rulesets that cannot
/// hold each other's positions (other expansions, other tiles) cannot be probed: asked for
/// explicitly that is a usage error (before anything is written); by default the probes are
/// left out with a note when no pair can be probed.
fn probe_positions(
    compiled: &[Arc<Compiled>],
    settings: &SpecSettings,
    notes: &mut Vec<SetupNote>,
) -> Result<u64, SetupError> {
    if settings.positions == 0 {
        return Ok(0);
    }
    let mut reasons = Vec::new();
    for (i, a) in compiled.iter().enumerate() {
        for b in &compiled[i + 1..] {
            if let Err(e) = can_share_positions(a, b, settings.players) {
                reasons.push(e.to_string());
            }
        }
    }
    let pairs = compiled.len() * compiled.len().saturating_sub(1) / 2;
    if reasons.is_empty() {
        return Ok(settings.positions);
    }
    if settings.positions_given {
        return Err(SetupError {
            message: format!(
                "--positions {}: the decision probes ask the same position under each \
                 ruleset, and {}; leave --positions out to compare without them",
                settings.positions,
                reasons.join("; ")
            ),
            usage: true,
        });
    }
    if reasons.len() == pairs {
        notes.push(SetupNote {
            message: format!(
                "no decision probes: the rulesets cannot hold the same positions ({})",
                reasons.join("; ")
            ),
            always: false,
        });
        return Ok(0);
    }
    Ok(settings.positions)
}
