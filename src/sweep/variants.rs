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

/// How the generated files (in `out/rulesets/`) name the base in `extends`, so that they
/// travel: a bundled ruleset (or a file on disk with the bundled file's very text, as inside
/// the checkout) by its bundled name (`robbers-2012.rules`, found from any folder); any other
/// file by its path relative to the generated files' folder; an absolute path only where no
/// relative one exists (another drive).
///
/// Returns that reference and the one to load the text with now: the same, or the base's
/// absolute path (a text loaded from memory resolves a relative `extends` from the current
/// folder, and the generated files' folder does not exist yet).
pub fn base_reference(arg: &str, out: &Path) -> (String, String) {
    let located = dsl::locate(arg);
    if let Some(name) = bundled_name(&located) {
        return (name.clone(), name);
    }
    let (Ok(base), Ok(folder)) = (
        std::fs::canonicalize(&located),
        std::path::absolute(out.join(RULES_FOLDER)),
    ) else {
        let shown = located.display().to_string();
        return (shown.clone(), shown);
    };
    // the output folder may not exist yet: resolve the part of it that does
    let folder = canonical_prefix(&dsl::bundled::normalize(&folder));
    let absolute = base.display().to_string();
    (
        relative_path(&folder, &base).unwrap_or_else(|| absolute.clone()),
        absolute,
    )
}

/// The bundled name (relative to `rulesets/`, `/`-separated) of `located`: a bundled file, or
/// a file on disk whose text is the bundled file's of the same name.
fn bundled_name(located: &Path) -> Option<String> {
    let virtual_path = if dsl::bundled::is_bundled(located) {
        located.to_path_buf()
    } else {
        let found = dsl::bundled::find(located.file_name()?.to_str()?)?;
        let disk = std::fs::read_to_string(located).ok()?;
        (dsl::bundled::read(&found)? == disk).then_some(found)?
    };
    let rel = dsl::bundled::normalize(&virtual_path);
    let rel = rel
        .strip_prefix(dsl::bundled::PREFIX)
        .ok()?
        .strip_prefix("rulesets")
        .ok()?;
    Some(rel.to_str()?.replace('\\', "/"))
}

/// `path` with its longest existing prefix canonicalized (symbolic links resolved) and the
/// rest appended as written.
fn canonical_prefix(path: &Path) -> std::path::PathBuf {
    let mut rest = Vec::new();
    let mut head = path;
    loop {
        if let Ok(c) = std::fs::canonicalize(head) {
            return rest.iter().rev().fold(c, |acc, part| acc.join(part));
        }
        match (head.parent(), head.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                head = parent;
            }
            _ => return path.to_path_buf(),
        }
    }
}

/// `to` relative to the folder `from` (both absolute), `/`-separated; `None` when they share
/// no root.
fn relative_path(from: &Path, to: &Path) -> Option<String> {
    use std::path::Component;
    let a: Vec<Component> = from.components().collect();
    let b: Vec<Component> = to.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    if common == 0 || !matches!(a.first(), Some(Component::RootDir | Component::Prefix(_))) {
        return None;
    }
    let mut parts: Vec<String> = vec!["..".to_string(); a.len() - common];
    for c in &b[common..] {
        parts.push(c.as_os_str().to_str()?.to_string());
    }
    Some(parts.join("/"))
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
    let (travelling, now) = base_reference(base_arg, out);
    let variants = match plan(specs, &base.name, &travelling) {
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
        // the written file names the base so that it travels; loaded now, by its absolute path
        let text = v.text.replacen(
            &format!("\nextends {}\n", super::quoted(&travelling)),
            &format!("\nextends {}\n", super::quoted(&now)),
            1,
        );
        match dsl::load_ruleset_str(&shown.display().to_string(), &text) {
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
