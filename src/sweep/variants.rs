//! A sweep's variants through the rule language: each generated house-rule file is loaded
//! like one a player wrote (warnings kept, errors reported by the value that caused them), a
//! value equal to the base's own is played as the reference instead of a copy, and the
//! result is the rulesets to compare (the base first) with the [`SweepPlan`] that says where
//! each variant stands. The command line prints the messages and runs the compare.

use super::{plan, SweepPlan, VarySpec};
use crate::dsl;
use crate::files::names::RULES_FOLDER;
use crate::ruleset::Ruleset;
use std::path::Path;

/// Why a sweep cannot run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantsError {
    /// The specs make no plan (nothing varied, an option twice, too many combinations): a
    /// usage error, the sentence says why.
    Plan(String),
    /// A variant does not load; the messages hold its diagnostics.
    Invalid,
    /// Every value is the base's own: there is nothing to compare (a usage error).
    NothingToCompare,
}

/// The variants loaded: what to tell the user (warnings, notes and errors, in order, each
/// ready to print) and the rulesets and plan, or why the sweep cannot run.
pub struct LoadedVariants {
    pub messages: Vec<String>,
    pub outcome: Result<(Vec<Ruleset>, SweepPlan), VariantsError>,
}

/// How the generated files name the base in `extends`: the bundled file's virtual path, or
/// the base's absolute path on disk.
pub fn base_reference(arg: &str) -> String {
    let located = dsl::locate(arg);
    if dsl::bundled::is_bundled(&located) {
        return located.display().to_string();
    }
    std::fs::canonicalize(&located)
        .unwrap_or(located)
        .display()
        .to_string()
}

/// Whether `variant` gives every varied option the value `base` has.
fn same_as_base(variant: &Ruleset, base: &Ruleset, keys: &[String]) -> bool {
    keys.iter()
        .all(|k| variant.options.get(k).map(|o| &o.value) == base.options.get(k).map(|o| &o.value))
}

/// Plans the sweep of `specs` on `base` (given on the command line as `base_arg`) into the
/// output folder `out`, and loads every variant. All problems are reported before anything
/// runs; an unknown option is reported once (by its first value), not once per value.
pub fn load_variants(
    specs: &[VarySpec],
    base: &Ruleset,
    base_arg: &str,
    out: &Path,
) -> LoadedVariants {
    let mut messages = Vec::new();
    let variants = match plan(specs, &base.name, &base_reference(base_arg)) {
        Ok(v) => v,
        Err(e) => {
            return LoadedVariants {
                messages,
                outcome: Err(VariantsError::Plan(e)),
            }
        }
    };
    let keys: Vec<String> = specs.iter().map(|s| s.key.clone()).collect();
    let unknown: Vec<&str> = keys
        .iter()
        .filter(|k| dsl::registry::lookup(k).is_none())
        .map(String::as_str)
        .collect();
    let mut rules = vec![base.clone()];
    let mut positions = Vec::with_capacity(variants.len());
    let mut failed = false;
    let mut reported: Vec<&str> = Vec::new();
    for v in &variants {
        if let Some(k) = v
            .settings
            .iter()
            .map(|(k, _)| k.as_str())
            .find(|k| unknown.contains(k))
        {
            if reported.contains(&k) {
                continue;
            }
            reported.push(k);
        }
        let shown = out.join(RULES_FOLDER).join(&v.file_name);
        match dsl::load_ruleset_str(&shown.display().to_string(), &v.text) {
            Ok(loaded) => {
                for w in &loaded.warnings {
                    messages.push(w.to_string());
                }
                let mut r = loaded.ruleset;
                if same_as_base(&r, base, &keys) {
                    messages.push(format!(
                        "note: `{}` is the base's own value: played as the reference",
                        v.label
                    ));
                    positions.push(0);
                    continue;
                }
                // relative to the output folder, so sharded and whole sweeps report alike (the
                // example games' trace commands for generated rulesets run from that folder)
                r.file = Some(format!("{RULES_FOLDER}/{}", v.file_name));
                positions.push(rules.len());
                rules.push(r);
            }
            Err(d) => {
                messages.push(format!("error: --vary {}:\n{d}", v.label));
                failed = true;
            }
        }
    }
    let outcome = if failed {
        Err(VariantsError::Invalid)
    } else if rules.len() < 2 {
        Err(VariantsError::NothingToCompare)
    } else {
        // the rules files of the rows, relative to the output folder
        let files: Vec<String> = variants
            .iter()
            .zip(&positions)
            .map(|(v, &k)| {
                if k == 0 {
                    base.file.clone().unwrap_or_else(|| base_arg.to_string())
                } else {
                    format!("{RULES_FOLDER}/{}", v.file_name)
                }
            })
            .collect();
        let plan = SweepPlan {
            keys,
            variants,
            positions,
            files,
        };
        Ok((rules, plan))
    };
    LoadedVariants { messages, outcome }
}
