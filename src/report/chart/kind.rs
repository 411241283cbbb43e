//! Which charts a compare report has ([`ChartKind`], [`charts_for`]), their file names and
//! their three-line headers: what the chart shows; the rulesets (keyed A, B, C… as in its
//! legend and axis labels); and N, players, policy and the interval type.

use super::kit::{key, shorten};
use crate::compare::stats::{MEAN_INTERVAL, PROPORTION_INTERVAL};
use crate::compare::Report;
use crate::engine::SeatCounter;

/// The charts meeplab draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChartKind {
    /// The headline: the rule's effect beside the chance yardstick, with the verdicts
    /// ([`super::verdict`]).
    Verdicts,
    Scores,
    IdenticalByTurn,
    ScoreDelta,
    ScoreDeltaHistogram,
    WinnerChanged,
    WinRates,
    /// A per-seat counter's mean per seat and ruleset (ingots held at the end).
    SeatCount(SeatCounter),
    /// Per-seat win-rate shift between the pair's rulesets (who benefits).
    WinShift,
    /// Per-seat score shift, raw beside luck-corrected ([`crate::compare::luck`]).
    LuckCorrected,
    /// The strong policy's win rate against the weak one under each ruleset
    /// ([`crate::compare::skill`]).
    SkillDepth,
}

impl ChartKind {
    /// File name without extension.
    pub fn stem(self) -> &'static str {
        match self {
            ChartKind::Verdicts => "verdicts",
            ChartKind::Scores => "scores",
            ChartKind::IdenticalByTurn => "identical_by_turn",
            ChartKind::ScoreDelta => "score_delta",
            ChartKind::ScoreDeltaHistogram => "score_delta_histogram",
            ChartKind::WinnerChanged => "winner_changed",
            ChartKind::WinRates => "win_rates",
            ChartKind::SeatCount(c) => c.name(),
            ChartKind::WinShift => "win_shift",
            ChartKind::LuckCorrected => "luck_corrected",
            ChartKind::SkillDepth => "skill_depth",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            ChartKind::Verdicts => "The rule's effect beside chance, in percentage points",
            ChartKind::Scores => "Final score distribution (all seats)",
            ChartKind::IdenticalByTurn => "Share of games still identical, by turn",
            ChartKind::ScoreDelta => "Mean paired score difference per seat",
            ChartKind::ScoreDeltaHistogram => {
                "Distribution of paired score differences (all seats)"
            }
            ChartKind::WinnerChanged => "How often the rule difference changes the winner",
            ChartKind::WinRates => "Seat win rates",
            ChartKind::SeatCount(c) => c.spec().chart,
            ChartKind::WinShift => "Per-seat win-rate shift, later − earlier ruleset",
            ChartKind::LuckCorrected => {
                "Per-seat score shift, later − earlier ruleset: raw and with the tile luck taken out"
            }
            ChartKind::SkillDepth => "Skill depth: the strong policy's win rate under each ruleset",
        }
    }

    fn interval(self) -> &'static str {
        match self {
            ChartKind::Scores | ChartKind::IdenticalByTurn | ChartKind::ScoreDeltaHistogram => {
                "no intervals (observed shares)"
            }
            ChartKind::ScoreDelta | ChartKind::SeatCount(_) => MEAN_INTERVAL,
            ChartKind::WinnerChanged | ChartKind::WinRates => PROPORTION_INTERVAL,
            ChartKind::WinShift => "95 % Newcombe interval (paired shares)",
            ChartKind::Verdicts => "95 % intervals; shaded: the negligible size",
            ChartKind::LuckCorrected | ChartKind::SkillDepth => MEAN_INTERVAL,
        }
    }
}

/// The charts for `report`: all of them, a per-seat counter's only when its expansion is in
/// play (the ingots' with gold). The
/// first is the headline: the verdicts chart (the rule's effect beside chance) when the
/// report has verdicts; then the winner-changed share while the pairing holds, the per-seat
/// win-rate and score shifts once it has broken (the paired games nearly independent).
pub fn charts_for(report: &Report) -> Vec<ChartKind> {
    let mut v = if report.pairs.iter().any(|p| p.pairing_broken) {
        vec![
            ChartKind::WinShift,
            ChartKind::ScoreDelta,
            ChartKind::WinnerChanged,
            ChartKind::IdenticalByTurn,
        ]
    } else {
        vec![
            ChartKind::WinnerChanged,
            ChartKind::IdenticalByTurn,
            ChartKind::ScoreDelta,
            ChartKind::WinShift,
        ]
    };
    if !report.verdicts.is_empty() {
        v.insert(0, ChartKind::Verdicts);
    }
    v.extend([
        ChartKind::ScoreDeltaHistogram,
        ChartKind::WinRates,
        ChartKind::Scores,
    ]);
    v.extend(
        SeatCounter::all()
            .filter(|&c| report.counts_in_play(c))
            .map(ChartKind::SeatCount),
    );
    if report.luck.is_some() {
        v.push(ChartKind::LuckCorrected);
    }
    if report.skill_depth.is_some() {
        v.push(ChartKind::SkillDepth);
    }
    v
}

/// A chart written to the output directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChartFile {
    pub kind: ChartKind,
    /// File names relative to the output directory (SVG first when both).
    pub files: Vec<String>,
}

/// The header lines of `kind` for `report`.
pub fn header_lines(kind: ChartKind, report: &Report) -> [String; 3] {
    let names: Vec<String> = report
        .labels()
        .iter()
        .enumerate()
        .map(|(i, l)| format!("{} = {}", key(i), shorten(l, 60)))
        .collect();
    [
        kind.title().to_string(),
        format!("Rulesets: {}", names.join(" · ")),
        format!(
            "N = {} games · {} players · policy {} · {}",
            report.games,
            report.players,
            report.policy,
            kind.interval()
        ),
    ]
}
