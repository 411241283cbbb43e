//! House-rule tuning: `meeplab sweep` plays one ruleset per value of an option (or per
//! combination of values of several options) on top of a base ruleset, on the same coupled
//! seeds, and says which value changes the game least or most and which brings the seats
//! closest to even.
//!
//! Each variant is exactly the house-rule file a player would write — the base, `extends`ed,
//! plus one line per varied option — so it goes through the rule language's own parser and
//! diagnostics, and is written to the output folder as an ordinary `.rules` file.
//!
//! Flow: [`VarySpec`] (from `--vary KEY=V1,V2` or a sweep file) → [`plan`] (the
//! combinations, each with its ruleset text) → [`variants::load_variants`] (each through the
//! rule language; the rulesets to compare and the [`SweepPlan`]) → a `compare` of base +
//! variants ([`crate::compare::session`]) → [`summary::summarize`] (each variant against the
//! base, from the compare [`crate::compare::Report`]) → `report::sweep` writers.
//!
//! Values are separated by commas outside parentheses, braces, brackets and quotes, so
//! `--vary 'gold.value=max(ingots, 2),2 * ingots'` has two values. A sweep file is TOML:
//!
//! ```toml
//! base = "robbers-2012"
//! players = 4
//! [vary]
//! "robbers.share" = ["ceil(points / 3)", "ceil(points / 2)", "ceil(2 * points / 3)"]
//! ```

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub mod summary;
pub mod variants;

pub use summary::{summarize, SweepRow, SweepSummary};
pub use variants::{load_variants, LoadedVariants};

/// Most rulesets a sweep generates (values, or combinations of values).
pub const MAX_VARIANTS: usize = 12;

/// One option and the values it takes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VarySpec {
    pub key: String,
    pub values: Vec<String>,
}

/// Split `text` at commas outside `()`, `{}`, `[]` and double quotes.
pub fn split_values(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut quoted = false;
    let mut escaped = false;
    let mut cur = String::new();
    for c in text.chars() {
        if quoted {
            cur.push(c);
            match (escaped, c) {
                (false, '\\') => escaped = true,
                (false, '"') => quoted = false,
                _ => escaped = false,
            }
            continue;
        }
        match c {
            '"' => quoted = true,
            '(' | '{' | '[' => depth += 1,
            ')' | '}' | ']' => depth -= 1,
            ',' if depth <= 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    out.push(cur.trim().to_string());
    out
}

/// Parse one `--vary KEY=V1,V2,...` argument.
pub fn parse_vary(arg: &str) -> Result<VarySpec, String> {
    let Some((key, values)) = arg.split_once('=') else {
        return Err(format!(
            "`--vary {arg}`: expected OPTION=VALUE1,VALUE2,… (e.g. `gold.value=2 * ingots,3 * ingots`)"
        ));
    };
    let key = key.trim().to_string();
    if key.is_empty() {
        return Err(format!("`--vary {arg}`: no option name before `=`"));
    }
    let values = split_values(values);
    check_values(&key, &values)?;
    Ok(VarySpec { key, values })
}

fn check_values(key: &str, values: &[String]) -> Result<(), String> {
    if values.iter().all(|v| v.is_empty()) {
        return Err(format!("`{key}`: the list of values is empty"));
    }
    if let Some(k) = values.iter().position(|v| v.is_empty()) {
        return Err(format!("`{key}`: value {} is empty", k + 1));
    }
    for (i, v) in values.iter().enumerate() {
        if values[..i].contains(v) {
            return Err(format!("`{key}`: the value `{v}` is given twice"));
        }
    }
    Ok(())
}

/// A sweep kept in a file (TOML): the base, the options and values, and compare's settings.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SweepFile {
    pub base: Option<String>,
    #[serde(default)]
    pub vary: BTreeMap<String, Vec<String>>,
    pub games: Option<u64>,
    pub players: Option<u8>,
    pub seed: Option<u64>,
    pub policy: Option<String>,
}

impl SweepFile {
    /// Parse a sweep file's text; errors name the line and what was wrong.
    pub fn parse(text: &str) -> Result<SweepFile, String> {
        let file: SweepFile = toml::from_str(text).map_err(|e| e.to_string())?;
        for (key, values) in &file.vary {
            check_values(key, values)?;
        }
        Ok(file)
    }

    /// The `[vary]` table as specs, in key order.
    pub fn specs(&self) -> Vec<VarySpec> {
        self.vary
            .iter()
            .map(|(key, values)| VarySpec {
                key: key.clone(),
                values: values.clone(),
            })
            .collect()
    }
}

/// One generated ruleset: the settings it adds to the base, a label, a file name and text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Variant {
    /// `(option, value)` in the order the options were given.
    pub settings: Vec<(String, String)>,
    /// `robbers.share = ceil(points / 3)`; `a = 1, b = 2` for combinations.
    pub label: String,
    /// File name in the output folder (`rulesets/…`).
    pub file_name: String,
    /// The house-rule file.
    pub text: String,
}

/// Every combination of the specs' values (the first option varies slowest), each as the
/// house-rule file that sets it on top of `base_ref` (how `extends` names the base).
pub fn plan(specs: &[VarySpec], base_name: &str, base_ref: &str) -> Result<Vec<Variant>, String> {
    if specs.is_empty() {
        return Err("nothing to vary: give at least one --vary OPTION=V1,V2,… or a sweep file with a [vary] table".into());
    }
    for (i, s) in specs.iter().enumerate() {
        if specs[..i].iter().any(|o| o.key == s.key) {
            return Err(format!("`{}` is varied twice", s.key));
        }
    }
    let total = specs
        .iter()
        .try_fold(1usize, |n, s| n.checked_mul(s.values.len()))
        .unwrap_or(usize::MAX);
    if total > MAX_VARIANTS {
        let sizes: Vec<String> = specs.iter().map(|s| s.values.len().to_string()).collect();
        return Err(format!(
            "{} combinations ({}) — a sweep plays at most {MAX_VARIANTS}; vary fewer values or split the sweep",
            total,
            sizes.join(" × ")
        ));
    }
    let mut out = Vec::with_capacity(total);
    for n in 0..total {
        let mut rest = n;
        let mut settings = Vec::with_capacity(specs.len());
        for s in specs.iter().rev() {
            settings.push((s.key.clone(), s.values[rest % s.values.len()].clone()));
            rest /= s.values.len();
        }
        settings.reverse();
        let label = settings
            .iter()
            .map(|(k, v)| format!("{k} = {v}"))
            .collect::<Vec<_>>()
            .join(", ");
        let text = variant_text(base_name, base_ref, &settings, &label);
        out.push(Variant {
            file_name: format!("value-{:02}.rules", n + 1),
            settings,
            label,
            text,
        });
    }
    Ok(out)
}

/// A string literal of the rule language.
fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn variant_text(
    base_name: &str,
    base_ref: &str,
    settings: &[(String, String)],
    label: &str,
) -> String {
    let mut t = format!(
        "# Generated by `meeplab sweep`: {base_name}, with {label}.\n\
         # Copy it as a house rule: it is an ordinary ruleset file.\n\
         ruleset {}\nextends {}\n\n",
        quoted(&format!("{base_name} — {label}")),
        quoted(base_ref)
    );
    for (k, v) in settings {
        t.push_str(&format!("{k} = {v}  source \"house (meeplab sweep)\"\n"));
    }
    t
}

/// What a sweep plays: the varied options, the variants and, per variant, its ruleset in the
/// comparison (0 = the base, for a value equal to the base's) and its rules file (relative
/// to the output folder, or the base's own). Kept in the output folder (`sweep-plan.json`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SweepPlan {
    pub keys: Vec<String>,
    pub variants: Vec<Variant>,
    pub positions: Vec<usize>,
    pub files: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_split_at_top_level_commas_only() {
        assert_eq!(
            split_values("ceil(points / 3),ceil(points / 2), max(a, b)"),
            vec!["ceil(points / 3)", "ceil(points / 2)", "max(a, b)"]
        );
        assert_eq!(
            split_values("table(ingots) { 1..3: 1, 4..: 2 },\"a,b\""),
            vec!["table(ingots) { 1..3: 1, 4..: 2 }", "\"a,b\""]
        );
        assert_eq!(split_values("x"), vec!["x"]);
    }

    #[test]
    fn bad_vary_arguments_are_refused() {
        assert!(parse_vary("gold.value").is_err());
        assert!(parse_vary("=1,2").is_err());
        assert!(parse_vary("gold.value=").unwrap_err().contains("empty"));
        assert!(parse_vary("gold.value=1,,2")
            .unwrap_err()
            .contains("value 2 is empty"));
        assert!(parse_vary("gold.value=1,1").unwrap_err().contains("twice"));
        let v = parse_vary("robbers.share=ceil(points / 3),ceil(points / 2)").unwrap();
        assert_eq!(v.key, "robbers.share");
        assert_eq!(v.values.len(), 2);
    }

    #[test]
    fn combinations_are_capped_and_ordered() {
        let a = VarySpec {
            key: "a".into(),
            values: vec!["1".into(), "2".into()],
        };
        let b = VarySpec {
            key: "b".into(),
            values: vec!["x".into(), "y".into(), "z".into()],
        };
        let p = plan(&[a.clone(), b.clone()], "Base", "base.rules").unwrap();
        let labels: Vec<&str> = p.iter().map(|v| v.label.as_str()).collect();
        assert_eq!(
            labels,
            vec![
                "a = 1, b = x",
                "a = 1, b = y",
                "a = 1, b = z",
                "a = 2, b = x",
                "a = 2, b = y",
                "a = 2, b = z"
            ]
        );
        assert!(p[0].text.contains("extends \"base.rules\""));
        assert!(p[0]
            .text
            .contains("a = 1  source \"house (meeplab sweep)\""));
        let many = VarySpec {
            key: "c".into(),
            values: (0..3).map(|i| i.to_string()).collect(),
        };
        let e = plan(&[a, b, many], "Base", "base.rules").unwrap_err();
        assert!(e.contains("18 combinations (2 × 3 × 3)"), "{e}");
        assert!(plan(&[], "Base", "b").is_err());
    }

    #[test]
    fn sweep_files_parse_and_refuse_unknown_keys() {
        let f = SweepFile::parse(
            "base = \"robbers-2012\"\nplayers = 4\n[vary]\n\"robbers.share\" = [\"ceil(points / 3)\", \"ceil(points / 2)\"]\n",
        )
        .unwrap();
        assert_eq!(f.base.as_deref(), Some("robbers-2012"));
        assert_eq!(f.specs()[0].values.len(), 2);
        assert!(SweepFile::parse("bsae = \"x\"\n").is_err());
        assert!(SweepFile::parse("[vary]\n\"a\" = []\n").is_err());
    }
}
