//! `meeplab calibrate`: does the tool hold its error rates on this ruleset? A ruleset is
//! compared, K times on fresh seeds, with a **null copy** of itself — a copy the rule cannot
//! matter to — and each verdict's observed false-positive rate (the share of runs that call
//! it "a difference") is reported with its Wilson interval. At 5 % per verdict, a rate well
//! above 5 % means the yardstick credits chance to the rule.
//!
//! The nulls ([`Null`]): `relabel-deck` renames one tile id (the most numerous tile), so the
//! keyed deck reshuffles and nothing else changes; `reorder-segments` lists one tile's
//! segments in reverse order (the same tile, another index per segment); `players-luck` plays
//! the same rules with the players' own keys salted from the first turn (the engine side of
//! that is the caller's [`super::run::SeedPlayer`]). This module makes the copies and tallies
//! the verdicts; the runs are the caller's.

use super::verdict::{Class, Question, Verdict};
use crate::ruleset::Ruleset;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The null copy a calibration compares a ruleset with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Null {
    RelabelDeck,
    ReorderSegments,
    PlayersLuck,
}

impl Null {
    pub const ALL: [Null; 3] = [Null::RelabelDeck, Null::ReorderSegments, Null::PlayersLuck];

    pub fn name(self) -> &'static str {
        match self {
            Null::RelabelDeck => "relabel-deck",
            Null::ReorderSegments => "reorder-segments",
            Null::PlayersLuck => "players-luck",
        }
    }
}

impl fmt::Display for Null {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Null {
    type Err = String;
    fn from_str(s: &str) -> Result<Null, String> {
        Null::ALL
            .into_iter()
            .find(|n| n.name() == s)
            .ok_or_else(|| {
                format!("unknown null `{s}`: relabel-deck, reorder-segments or players-luck")
            })
    }
}

/// The deck tile with the most copies (the first such in the deck's order), other than the
/// start tile's type when another exists.
fn most_numerous(r: &Ruleset, min_features: usize) -> Option<usize> {
    let mut best: Option<(usize, u16)> = None;
    for e in &r.deck {
        let i = e.tile as usize;
        let Some(t) = r.tiles.get(i) else { continue };
        if t.features.len() < min_features || (e.tile == r.start && r.deck.len() > 1) {
            continue;
        }
        if best.is_none_or(|(_, c)| e.count > c) {
            best = Some((i, e.count));
        }
    }
    best.map(|(i, _)| i)
}

/// The null copy of `r`, with what was changed in words; an error when the ruleset has no
/// tile to change.
pub fn null_copy(r: &Ruleset, null: Null) -> Result<(Ruleset, String), String> {
    let mut copy = r.clone();
    copy.name = format!("{} ({null} null)", r.name);
    copy.file = None;
    copy.hash = format!("{}+{null}", r.hash);
    let what = match null {
        Null::RelabelDeck => {
            let i = most_numerous(r, 0).ok_or("the ruleset has no deck tile to rename")?;
            let old = copy.tiles[i].id.clone();
            let mut new = format!("{old}~relabelled");
            while copy.tiles.iter().any(|t| t.id == new) {
                new.push('~');
            }
            copy.tiles[i].id = new.clone();
            format!("tile `{old}` renamed `{new}` (the deck reshuffles)")
        }
        Null::ReorderSegments => {
            let i = most_numerous(r, 2)
                .ok_or("the ruleset has no deck tile with two segments or more to reorder")?;
            let t = &mut copy.tiles[i];
            let n = t.features.len();
            t.features.reverse();
            for f in &mut t.features {
                for c in &mut f.cities {
                    *c = (n - 1 - *c as usize) as u8;
                }
            }
            format!(
                "the {n} segments of tile `{}` listed in reverse order",
                t.id
            )
        }
        Null::PlayersLuck => {
            "the same rules, the players' own keys salted from the first turn".to_string()
        }
    };
    Ok((copy, what))
}

/// The questions a calibration tallies, in its table's order.
pub const QUESTIONS: [Question; 4] = [
    Question::WhoWins,
    Question::WinRate,
    Question::Score,
    Question::Decisions,
];

/// One question's tally over the runs.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    pub question: String,
    /// Runs in which the question had a verdict.
    pub runs: u64,
    /// Runs in which it (for the seat questions: some seat) was called a difference.
    pub false_positives: u64,
    pub negligible: u64,
    pub cannot_tell: u64,
    pub false_positive_rate: f64,
    /// 95 % Wilson interval of the rate.
    pub false_positive_ci: [f64; 2],
}

/// Adds one run's verdicts to `tallies` (one per [`QUESTIONS`] entry, plus "any headline").
pub fn tally(tallies: &mut [Tally; 5], verdicts: &[Verdict]) {
    let mut any_run = false;
    let mut any_fp = false;
    for (t, q) in tallies.iter_mut().zip(QUESTIONS) {
        t.question = q.name().to_string();
        let vs: Vec<&Verdict> = verdicts.iter().filter(|v| v.question == q).collect();
        if vs.is_empty() {
            continue;
        }
        t.runs += 1;
        let fp = vs.iter().any(|v| v.class == Class::Difference);
        if fp {
            t.false_positives += 1;
        } else if vs.iter().all(|v| v.class == Class::Negligible) {
            t.negligible += 1;
        } else {
            t.cannot_tell += 1;
        }
        if q != Question::Decisions {
            any_run = true;
            any_fp |= fp;
        }
    }
    let any = &mut tallies[4];
    any.question = "any headline verdict".to_string();
    if any_run {
        any.runs += 1;
        if any_fp {
            any.false_positives += 1;
        } else {
            any.cannot_tell += 1;
        }
    }
}

/// Fills the rates and intervals of `tallies`.
pub fn finish(tallies: &mut [Tally]) {
    for t in tallies {
        t.false_positive_rate = super::stats::share(t.false_positives, t.runs);
        t.false_positive_ci = super::stats::wilson(t.false_positives, t.runs);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn null_names_round_trip() {
        for n in Null::ALL {
            assert_eq!(n.name().parse::<Null>(), Ok(n));
        }
        assert!("shuffle".parse::<Null>().is_err());
    }
}
