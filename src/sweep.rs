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
//! combinations, each with its ruleset text) → a `compare` of base + variants → [`summarize`]
//! (each variant against the base, from the compare [`Report`]) → `report::sweep` writers.
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

use crate::compare::stats::MeanCi;
use crate::compare::Report;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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

impl SweepPlan {
    /// The sweep's summary from the comparison's report.
    pub fn summarize(&self, report: &Report) -> SweepSummary {
        summarize(report, &self.variants, &self.positions, &self.keys)
    }
}

/// One variant against the base, from the compare report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SweepRow {
    pub label: String,
    pub settings: Vec<(String, String)>,
    /// The rules file (for a value equal to the base's: the base itself).
    pub file: String,
    /// This value is the base's own: the reference row.
    pub is_base: bool,
    pub winner_changed_share: f64,
    pub winner_changed_ci: [f64; 2],
    /// Mean paired score difference (variant − base) per seat.
    pub score_delta: Vec<MeanCi>,
    pub win_rate: Vec<f64>,
    pub win_rate_ci: Vec<[f64; 2]>,
    pub tie_share: f64,
    /// The seat whose win rate is farthest from even (1 / players), and that distance.
    pub least_even_seat: usize,
    pub seat_imbalance: f64,
    pub game_length: MeanCi,
    pub mean_ingots_total: f64,
    /// Mean robber points per seat.
    pub robber_points: Vec<f64>,
}

/// The sweep's result: a row per value (the base's own value first when it is one of them),
/// and the verdicts in words.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SweepSummary {
    pub base: String,
    pub varied: Vec<String>,
    pub games: u64,
    pub players: u8,
    pub policy: String,
    pub seed: u64,
    pub rows: Vec<SweepRow>,
    pub verdicts: Vec<String>,
}

/// Where each variant's results stand in the compare report: `Some(k)` = ruleset `k` of the
/// run (the base is ruleset 0); a value equal to the base's is the base itself.
pub fn summarize(
    report: &Report,
    variants: &[Variant],
    positions: &[usize],
    varied: &[String],
) -> SweepSummary {
    let players = report.players as usize;
    let rows: Vec<SweepRow> = variants
        .iter()
        .zip(positions)
        .map(|(v, &k)| row(report, v, k, players))
        .collect();
    let verdicts = verdicts(&rows, players);
    SweepSummary {
        base: report
            .rulesets
            .first()
            .map(|r| r.name.clone())
            .unwrap_or_default(),
        varied: varied.to_vec(),
        games: report.games,
        players: report.players,
        policy: report.policy.clone(),
        seed: report.seed,
        rows,
        verdicts,
    }
}

fn row(report: &Report, v: &Variant, k: usize, players: usize) -> SweepRow {
    let rs = &report.per_ruleset[k];
    let pair = report
        .pairs
        .iter()
        .find(|p| p.a_index == 0 && p.b_index == k);
    let zero = MeanCi {
        mean: 0.0,
        sd: Some(0.0),
        ci: Some([0.0, 0.0]),
    };
    let even = 1.0 / players.max(1) as f64;
    let (least_even_seat, seat_imbalance) = rs
        .win_rate
        .iter()
        .enumerate()
        .map(|(s, w)| (s, (w - even).abs()))
        .fold((0, -1.0), |best, x| if x.1 > best.1 { x } else { best });
    SweepRow {
        label: v.label.clone(),
        settings: v.settings.clone(),
        file: report.rulesets[k].file.clone().unwrap_or_default(),
        is_base: k == 0,
        winner_changed_share: pair.map_or(0.0, |p| p.winner_changed_share),
        winner_changed_ci: pair.map_or([0.0, 0.0], |p| p.winner_changed_ci),
        score_delta: pair.map_or_else(|| vec![zero; players], |p| p.mean_score_delta.clone()),
        win_rate: rs.win_rate.clone(),
        win_rate_ci: rs.win_rate_ci.clone(),
        tie_share: rs.tie_share,
        least_even_seat,
        seat_imbalance: seat_imbalance.max(0.0),
        game_length: rs.game_length,
        mean_ingots_total: rs.mean_ingots_total,
        robber_points: rs
            .mean_by_category
            .iter()
            .map(|m| m.get("robbers").copied().unwrap_or(0.0))
            .collect(),
    }
}

/// Intervals overlap: the data can't tell the two apart.
fn overlap(a: [f64; 2], b: [f64; 2]) -> bool {
    a[0] <= b[1] && b[0] <= a[1]
}

fn pct(x: f64) -> String {
    format!("{:.1} %", 100.0 * x)
}

fn pct_ci(ci: [f64; 2]) -> String {
    format!("{:.1}–{:.1} %", 100.0 * ci[0], 100.0 * ci[1])
}

/// Names of the rows `idx`, quoted, joined with commas and "and".
fn names(rows: &[SweepRow], idx: &[usize]) -> String {
    let n: Vec<String> = idx
        .iter()
        .map(|&i| format!("`{}`", rows[i].label))
        .collect();
    match n.len() {
        0 => String::new(),
        1 => n[0].clone(),
        _ => format!("{} and {}", n[..n.len() - 1].join(", "), n[n.len() - 1]),
    }
}

/// The verdicts in words; ties whenever intervals overlap.
fn verdicts(rows: &[SweepRow], players: usize) -> Vec<String> {
    let mut out = Vec::new();
    let changed: Vec<usize> = (0..rows.len()).filter(|&i| !rows[i].is_base).collect();
    if !changed.is_empty() {
        let by = |f: &dyn Fn(&SweepRow) -> f64| -> (usize, usize) {
            let mut lo = changed[0];
            let mut hi = changed[0];
            for &i in &changed {
                if f(&rows[i]) < f(&rows[lo]) {
                    lo = i;
                }
                if f(&rows[i]) > f(&rows[hi]) {
                    hi = i;
                }
            }
            (lo, hi)
        };
        let (least, most) = by(&|r| r.winner_changed_share);
        let tied_least: Vec<usize> = changed
            .iter()
            .copied()
            .filter(|&i| overlap(rows[i].winner_changed_ci, rows[least].winner_changed_ci))
            .collect();
        if changed.len() == 1 {
            out.push(format!(
                "{} changes the winner of {} of games against the base (95 % Wilson {}).",
                names(rows, &[least]),
                pct(rows[least].winner_changed_share),
                pct_ci(rows[least].winner_changed_ci)
            ));
        } else if tied_least.len() == changed.len() {
            out.push(format!(
                "The values change the winner about equally often against the base: every interval overlaps ({}–{}).",
                pct(rows[least].winner_changed_share),
                pct(rows[most].winner_changed_share)
            ));
        } else {
            out.push(format!(
                "Least change from the base: {} (winner changed in {}, 95 % {}){}.",
                names(rows, &[least]),
                pct(rows[least].winner_changed_share),
                pct_ci(rows[least].winner_changed_ci),
                if tied_least.len() > 1 {
                    format!(
                        "; tied within the intervals with {}",
                        names(
                            rows,
                            &tied_least
                                .iter()
                                .copied()
                                .filter(|&i| i != least)
                                .collect::<Vec<_>>()
                        )
                    )
                } else {
                    String::new()
                }
            ));
            let tied_most: Vec<usize> = changed
                .iter()
                .copied()
                .filter(|&i| {
                    i != most && overlap(rows[i].winner_changed_ci, rows[most].winner_changed_ci)
                })
                .collect();
            out.push(format!(
                "Most change: {} (winner changed in {}, 95 % {}){}.",
                names(rows, &[most]),
                pct(rows[most].winner_changed_share),
                pct_ci(rows[most].winner_changed_ci),
                if tied_most.is_empty() {
                    String::new()
                } else {
                    format!(
                        "; tied within the intervals with {}",
                        names(rows, &tied_most)
                    )
                }
            ));
        }
    }
    // seat balance: the seat farthest from even, with its interval
    let dist = |r: &SweepRow| -> [f64; 2] {
        let even = 1.0 / players.max(1) as f64;
        let ci = r
            .win_rate_ci
            .get(r.least_even_seat)
            .copied()
            .unwrap_or([0.0, 1.0]);
        // distance from even over the interval: 0 when the interval contains even
        let lo = if ci[0] <= even && even <= ci[1] {
            0.0
        } else {
            (ci[0] - even).abs().min((ci[1] - even).abs())
        };
        let hi = (ci[0] - even).abs().max((ci[1] - even).abs());
        [lo, hi]
    };
    if rows.len() > 1 {
        let best = (0..rows.len())
            .min_by(|&a, &b| rows[a].seat_imbalance.total_cmp(&rows[b].seat_imbalance))
            .unwrap_or(0);
        let tied: Vec<usize> = (0..rows.len())
            .filter(|&i| i != best && overlap(dist(&rows[i]), dist(&rows[best])))
            .collect();
        let r = &rows[best];
        let s = r.least_even_seat;
        let seat_line = format!(
            "seat {} wins {} (95 % {}; even is {})",
            s + 1,
            pct(r.win_rate[s]),
            pct_ci(r.win_rate_ci[s]),
            pct(1.0 / players.max(1) as f64)
        );
        if tied.len() + 1 == rows.len() {
            out.push(format!(
                "Seat balance: no value is clearly more even than another — the seats' win rates overlap across all values (the most even, {}: {seat_line}).",
                names(rows, &[best])
            ));
        } else {
            out.push(format!(
                "Closest to even seats: {} — its least even {seat_line}{}.",
                names(rows, &[best]),
                if tied.is_empty() {
                    String::new()
                } else {
                    format!("; tied within the intervals with {}", names(rows, &tied))
                }
            ));
        }
    }
    out
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

    #[test]
    fn overlapping_intervals_are_ties() {
        assert!(overlap([0.1, 0.3], [0.25, 0.4]));
        assert!(!overlap([0.1, 0.2], [0.25, 0.4]));
    }
}
