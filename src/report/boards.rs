//! The boards of a report's example games: for every example (a seed whose winner changed),
//! the board under each ruleset of the pair at the end of the turn of the first difference,
//! drawn by [`crate::render::board_svg`] and written next to `report.md` as
//! `example-<A>-<B>-seed-<seed>-<ruleset key>.svg`.
//!
//! The example positions of the decision probes are drawn too
//! ([`write_decision_boards`]): the position with the choice under each ruleset of the pair
//! marked, as `decision-<A>-<B>-position-<p>.svg`.
//!
//! The games are replayed from their seeds with the run's seat policies (the report's
//! `policy` text), so the boards depend only on the report and the rulesets: a merged run
//! draws exactly the boards of the unsharded one.

use super::chart::{key, shorten};
use crate::compare::Report;
use crate::engine::Compiled;
use crate::files::atomic::write_atomic;
use crate::play::{play_turns, Seats};
use crate::policy::spec::SeatPolicies;
use crate::render::board_svg::board_svg_highlighted;
use std::fmt;
use std::io;
use std::path::Path;
use std::sync::Arc;

/// The compiled rulesets of a run, in the report's order: what drawing its example boards
/// needs besides the report.
#[derive(Clone)]
pub struct ExampleRules(Vec<Arc<Compiled>>);

impl ExampleRules {
    pub fn new(rules: Vec<Arc<Compiled>>) -> ExampleRules {
        ExampleRules(rules)
    }

    fn hashes(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|c| c.rules.hash.as_str())
    }
}

impl PartialEq for ExampleRules {
    fn eq(&self, other: &Self) -> bool {
        self.hashes().eq(other.hashes())
    }
}

impl Eq for ExampleRules {}

impl fmt::Debug for ExampleRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.0.iter().map(|c| &c.rules.name))
            .finish()
    }
}

/// The two boards of one example game, as file names in the report's folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExampleBoards {
    /// Index of the pair in `report.pairs`.
    pub pair: usize,
    pub seed: u64,
    /// The turn drawn (its end).
    pub turn: u32,
    /// The board under the pair's ruleset `a`, then `b`.
    pub files: [String; 2],
}

/// The file name of the board of game `seed` of pair `a` vs `b` under ruleset `side`.
pub fn board_file(a: usize, b: usize, seed: u64, side: usize) -> String {
    format!(
        "example-{}-{}-seed-{seed}-{}.svg",
        key(a),
        key(b),
        key(side)
    )
}

/// The board of one example position of the decision probes, as a file name in the report's
/// folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecisionBoard {
    /// Index of the pair in `report.pairs`.
    pub pair: usize,
    /// The probed position (its game index).
    pub position: u64,
    pub file: String,
}

/// The file name of the board of probed position `position` of pair `a` vs `b`.
pub fn decision_board_file(a: usize, b: usize, position: u64) -> String {
    format!("decision-{}-{}-position-{position}.svg", key(a), key(b))
}

/// The seat policies of `report` (its `policy` text).
fn report_seats(report: &Report) -> io::Result<Seats> {
    report
        .policy
        .parse::<SeatPolicies>()
        .map_err(|e| e.to_string())
        .and_then(|p| Seats::for_players(&p, report.players).map_err(|e| e.to_string()))
        .map_err(|e| invalid(format!("policy {}: {e}", report.policy)))
}

/// Draws the example positions of every pair's decision probes into `dir`: the host game is
/// replayed to the probed decision ([`crate::compare::decisions::play_capturing`]) and the
/// position drawn with the choice under each ruleset of the pair marked. A position that no
/// longer rebuilds (never for a report of these rulesets) is left out.
///
/// # Errors
/// As [`write_boards`].
pub fn write_decision_boards(
    dir: &Path,
    report: &Report,
    rules: &ExampleRules,
) -> io::Result<Vec<DecisionBoard>> {
    use crate::compare::decisions::{play_capturing, ProbeTarget};
    use crate::render::decision_svg::decision_svg;
    check_rules(report, rules)?;
    let seats = report_seats(report)?;
    let mut out = Vec::new();
    for (pi, p) in report.pairs.iter().enumerate() {
        let Some(d) = &p.decisions else {
            continue;
        };
        for e in &d.examples {
            let Some(target) = ProbeTarget::new(e.position, e.seed, &rules.0) else {
                continue;
            };
            let (_, caught) = play_capturing(
                &rules.0[target.host],
                e.seed,
                report.players,
                seats,
                &target,
                None,
            );
            let Ok((game, _)) = caught.and_then(|c| c.position_under(&rules.0[target.host])) else {
                continue;
            };
            let title = format!(
                "position {} (game {}, turn {}, {}): {} vs {}",
                e.position,
                e.position,
                e.turn,
                e.kind.name(),
                key(p.a_index),
                key(p.b_index)
            );
            let svg = decision_svg(
                &game,
                &title,
                (&format!("choice under {}", key(p.a_index)), e.choice_a),
                (&format!("choice under {}", key(p.b_index)), e.choice_b),
            );
            let name = decision_board_file(p.a_index, p.b_index, e.position);
            write_atomic(&dir.join(&name), svg.as_bytes())?;
            out.push(DecisionBoard {
                pair: pi,
                position: e.position,
                file: name,
            });
        }
    }
    Ok(out)
}

/// Checks that `rules` are the report's rulesets (by content hash).
fn check_rules(report: &Report, rules: &ExampleRules) -> io::Result<()> {
    if rules
        .hashes()
        .eq(report.rulesets.iter().map(|r| r.hash.as_str()))
    {
        Ok(())
    } else {
        Err(invalid(
            "the rulesets given for the example boards are not the report's".into(),
        ))
    }
}

fn invalid(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, msg)
}

/// Draws the boards of every example game of `report` into `dir`; returns them in the order
/// of the pairs and their examples.
///
/// # Errors
/// `rules` are not the report's rulesets (by content hash), the report's policy does not
/// parse, or a file cannot be written.
pub fn write_boards(
    dir: &Path,
    report: &Report,
    rules: &ExampleRules,
) -> io::Result<Vec<ExampleBoards>> {
    check_rules(report, rules)?;
    let seats = report_seats(report)?;
    let labels = report.labels();
    let mut out = Vec::new();
    for (pi, p) in report.pairs.iter().enumerate() {
        for e in &p.examples {
            let seed = e.game.seed;
            // the boards at the end of the first turn whose positions differ (the state
            // divergence); an example's winner changed, so its games differ — should the turn
            // be missing, the boards at the end are drawn
            let turn = e
                .game
                .first_state_divergence_turn
                .or(e.game.first_difference_turn)
                .unwrap_or(u32::MAX);
            let mut files = [String::new(), String::new()];
            for (slot, side) in [p.a_index, p.b_index].into_iter().enumerate() {
                let game = play_turns(&rules.0[side], seed, report.players, seats, turn);
                let mark: Vec<(i32, i32)> = game
                    .placed_tiles()
                    .last()
                    .map(|t| (t.x, t.y))
                    .into_iter()
                    .collect();
                let label = labels.get(side).map_or("?", String::as_str);
                // the whole name: the board wraps a long title
                let title = format!(
                    "{}, end of turn {}: {}",
                    key(side),
                    game.turn(),
                    shorten(label, 140)
                );
                let name = board_file(p.a_index, p.b_index, seed, side);
                let svg = board_svg_highlighted(&game, &title, &mark);
                write_atomic(&dir.join(&name), svg.as_bytes())?;
                files[slot] = name;
            }
            out.push(ExampleBoards {
                pair: pi,
                seed,
                turn: if turn == u32::MAX { 0 } else { turn },
                files,
            });
        }
    }
    Ok(out)
}
