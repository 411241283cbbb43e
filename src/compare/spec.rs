//! What a compare run is: the rulesets (as report metadata, not the typed rules), the number
//! of games, players, master seed, policy, optional shard and thread count, and the
//! reproducibility facts the CLI supplies (command line, engine version, tile-catalogue hash).

use super::seeds::Shard;
use super::skill::SkillSpec;
use super::verdict::{Negligible, Until};
use crate::ruleset::{Ruleset, MAX_PLAYERS};

use super::seat_counts::{ByCounter, Has};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One option of a ruleset as reports show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OptionInfo {
    pub value: String,
    /// The `source:` tag (HiG, RGG, ZMG, house, a URL), if any.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub source: Option<String>,
}

/// A ruleset as reports describe it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesetInfo {
    pub name: String,
    pub file: Option<String>,
    /// Content hash of the resolved ruleset (equal rules, equal hash).
    pub hash: String,
    /// Per per-seat counter (`SeatCounter`): whether its expansion is in play (its chart and
    /// columns are meaningful), written as `has_{category}` (`has_gold`).
    #[serde(flatten)]
    pub counts_in_play: ByCounter<bool, Has>,
    /// Every option with its value and source, by key.
    pub options: BTreeMap<String, OptionInfo>,
}

impl RulesetInfo {
    pub fn from_ruleset(r: &Ruleset) -> RulesetInfo {
        RulesetInfo {
            name: r.name.clone(),
            file: r.file.clone(),
            hash: r.hash.clone(),
            counts_in_play: ByCounter::from_fn(|c| (c.spec().used_by)(r)),
            options: r
                .options
                .iter()
                .map(|(k, o)| {
                    (
                        k.clone(),
                        OptionInfo {
                            value: o.value.clone(),
                            source: o.source.clone(),
                        },
                    )
                })
                .collect(),
        }
    }

    /// Distinct option sources, sorted (for "rulesets and their sources").
    pub fn sources(&self) -> Vec<&str> {
        let mut s: Vec<&str> = self
            .options
            .values()
            .filter_map(|o| o.source.as_deref())
            .collect();
        s.sort_unstable();
        s.dedup();
        s
    }
}

/// The most games one run may ask for.
pub const MAX_GAMES: u64 = 1_000_000_000_000;
/// The most worker threads one run may ask for.
pub const MAX_THREADS: usize = 512;

/// A compare run. Every seed is played under every ruleset (paired observations).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompareSpec {
    pub rulesets: Vec<RulesetInfo>,
    pub games: u64,
    pub players: u8,
    /// Master seed; game `i` plays [`crate::compare::seeds::game_seed`]`(seed, i)`.
    pub seed: u64,
    pub policy: String,
    /// `--shard k/n`: play only this shard's seed blocks.
    pub shard: Option<Shard>,
    /// Worker threads; `None` for rayon's default. Never changes results.
    pub threads: Option<usize>,
    /// The command line as typed (kept in `timing.json`, not in `report.json`).
    pub command_line: String,
    pub engine_version: String,
    pub tile_catalogue_hash: String,
    /// Play the same-rules placebo beside every pair ([`crate::compare::placebo`]).
    #[serde(default)]
    pub placebo: bool,
    /// Decision probes: position `p` in game `p` for `p < positions`
    /// ([`crate::compare::decisions`]); 0 for none.
    #[serde(default)]
    pub positions: u64,
    /// Measure every game's tile luck and report luck-corrected shifts
    /// ([`crate::compare::luck`]).
    #[serde(default)]
    pub luck: bool,
    /// `--skill STRONG,WEAK`: also play every seed in duplicate, strong against weak
    /// ([`crate::compare::skill`]).
    #[serde(default)]
    pub skill: Option<SkillSpec>,
    /// The negligible sizes of the verdicts (`--negligible`; [`super::verdict`]).
    #[serde(default)]
    pub negligible: Negligible,
    /// `--until`: stop before `games` (the cap) once the answer is known
    /// ([`super::verdict::settled`]).
    #[serde(default)]
    pub until: Option<Until>,
}

impl CompareSpec {
    /// The rulesets' hashes, in order, joined by `, ` (how a checkpoint or a shard names the
    /// rules it was played under).
    pub fn ruleset_hashes(&self) -> String {
        self.rulesets
            .iter()
            .map(|r| r.hash.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Checks what the driver relies on.
    pub fn validate(&self) -> Result<(), String> {
        if self.rulesets.len() < 2 {
            return Err("compare needs at least two rulesets".into());
        }
        if self.games == 0 {
            return Err("--games must be at least 1".into());
        }
        if self.games > MAX_GAMES {
            return Err(format!(
                "--games {} is more than {MAX_GAMES} (a trillion games would take years)",
                self.games
            ));
        }
        if self.players == 0 || self.players > MAX_PLAYERS {
            return Err(format!(
                "--players {} is out of range: a game has 1 to {MAX_PLAYERS} players",
                self.players
            ));
        }
        match self.threads {
            Some(0) => return Err("--threads must be at least 1".into()),
            Some(n) if n > MAX_THREADS => {
                return Err(format!(
                    "--threads {n} is more than {MAX_THREADS}; more threads than cores only \
                     slow a run down (leave it out to use every core)"
                ))
            }
            _ => {}
        }
        if let Some(s) = self.shard {
            Shard::new(s.k, s.n)?;
        }
        if let Some(until) = self.until {
            if let Some(s) = self.shard {
                return Err(format!(
                    "--until {until} with --shard {s}: a run that stops when the answer is known \
                     must see its seeds in order; run it unsharded (or shard a fixed --games run)"
                ));
            }
            super::verdict::check_until(until, self.games)?;
        }
        if self.positions > self.games {
            return Err(format!(
                "--positions {} is more than the {} games: each probed position is taken from \
                 its own game (give at most --positions {})",
                self.positions, self.games, self.games
            ));
        }
        Ok(())
    }

    /// Whether `compare` meters the luck unless told (`--luck`/`--no-luck`): when some seat,
    /// or the skill study, plays a policy whose games cost more than the meter (`heuristic`,
    /// `mcts`).
    pub fn luck_by_default(&self) -> bool {
        use crate::policy::spec::{PolicySpec, SeatPolicies};
        use crate::policy::PolicyKind;
        let searching = |k: PolicyKind| matches!(k, PolicyKind::Heuristic | PolicyKind::Mcts(..));
        let seats = self
            .policy
            .parse::<SeatPolicies>()
            .ok()
            .and_then(|p| p.kinds(self.players).ok())
            .unwrap_or_default();
        let skill = self.skill.iter().flat_map(|s| [&s.strong, &s.weak]);
        seats.into_iter().any(searching)
            || skill
                .filter_map(|t| t.parse::<PolicySpec>().ok())
                .any(|p| searching(p.kind()))
    }

    /// Games this run plays (all, or its shard's share).
    pub fn games_in_run(&self) -> u64 {
        match self.shard {
            Some(s) => s.games(self.games),
            None => self.games,
        }
    }

    /// Display labels of the rulesets: their names, made unique with ` (2)`, ` (3)`…
    pub fn labels(&self) -> Vec<String> {
        unique_labels(self.rulesets.iter().map(|r| r.name.as_str()))
    }

    /// The command that reproduces the (unsharded) result, from the spec alone.
    pub fn reproduce_command(&self) -> String {
        let mut cmd = String::from("meeplab compare");
        for r in &self.rulesets {
            cmd.push(' ');
            cmd.push_str(&shell_quote(r.file.as_deref().unwrap_or(&r.name)));
        }
        cmd.push_str(&format!(
            " --games {} --players {} --seed {}",
            self.games, self.players, self.seed
        ));
        if !self.placebo {
            cmd.push_str(" --no-placebo");
        }
        if self.positions > 0 {
            cmd.push_str(&format!(" --positions {}", self.positions));
        }
        if self.luck != self.luck_by_default() {
            cmd.push_str(if self.luck { " --luck" } else { " --no-luck" });
        }
        if self.negligible != Negligible::default() {
            cmd.push_str(&format!(" --negligible {}", self.negligible));
        }
        if let Some(u) = self.until {
            cmd.push_str(&format!(" --until {}", shell_quote(&u.to_string())));
        }
        if let Some(s) = &self.skill {
            cmd.push_str(&format!(
                " --skill {}",
                shell_quote(&format!("{},{}", s.strong, s.weak))
            ));
        }
        // last, so that a multi-level run's command appends its other levels
        cmd.push_str(&format!(" --policy {}", shell_quote(&self.policy)));
        cmd
    }
}

/// Names made unique by suffixing ` (2)`, ` (3)`, … to repeats.
pub fn unique_labels<'a>(names: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for n in names {
        let mut label = n.to_string();
        let mut k = 2;
        while out.contains(&label) {
            label = format!("{n} ({k})");
            k += 1;
        }
        out.push(label);
    }
    out
}

/// Quotes `s` for a POSIX shell when it holds anything but safe characters.
pub fn shell_quote(s: &str) -> String {
    let safe = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=,+@%".contains(c));
    if safe {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_unique_and_commands_quoted() {
        assert_eq!(
            unique_labels(["a", "b", "a", "a"].into_iter()),
            ["a", "b", "a (2)", "a (3)"]
        );
        assert_eq!(shell_quote("rulesets/base.rules"), "rulesets/base.rules");
        assert_eq!(shell_quote("it's here"), "'it'\\''s here'");
    }
}
