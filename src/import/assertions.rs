//! The `test.assertions` of a `.jcz` file, checked against a replayed game (`replay --check`).
//!
//! The forms JCloisterZone's client checks (`src/renderer/utils/testing.js`; player names as
//! in `players[]`, matched exactly, else ignoring case; `point` or `points`):
//! - `P has N points`: P's total when the replay ends;
//! - `P scored C for N points`: at least one single scoring event of P in category C gave
//!   exactly N points. Categories: `road`, `city`, `monastery`/`cloister`, `garden` (a
//!   garden scores as a cloister; an abbot taken back scores its cloister or garden),
//!   `field`/`farm`,
//!   `gold` (the final ingot scoring), `robbers`, `castle` (a castle's scoring; a castle still
//!   waiting when the game ends counts as a final scoring of 0, as JCloisterZone scores it:
//!   `castle.incomplete`);
//! - `phase is X`: where the game stands when the save ends. meeplab checks `GameOverPhase`
//!   (the game reached final scoring) and `TilePhase` (the save ends between two turns: the
//!   next player is to place a tile); any other phase is **skipped** (said so, not failed);
//! - `Player can pass` / `Player can't pass`: whether the action the save ends on may be
//!   passed — JCloisterZone's pending action, which a meeplab replay of whole turns does not
//!   hold: **skipped** (said so, not failed).
//!
//! Anything else fails as "cannot read".

use crate::engine::{Category, Event, GameOutcome};
use crate::import::jcz::parts::PARTS;
pub use crate::import::jcz::Scoring;
use serde::Serialize;

/// One assertion and its verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verdict {
    pub assertion: String,
    pub ok: bool,
    /// Read but not checked (a form meeplab cannot check: see the module doc); `ok` is false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub skipped: bool,
    /// What was found (for failures, and for the log).
    pub detail: String,
}

/// Every single scoring of `player` in the event stream, in order: the core's (`Scored`)
/// and the importer parts' ([`JczPart::scorings`](crate::import::jcz::JczPart::scorings)).
pub fn scorings(events: &[Event], player: u8) -> Vec<Scoring> {
    let mut out: Vec<(usize, Scoring)> = events
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match *e {
            Event::Scored {
                turn,
                phase,
                category,
                winners,
                points,
                ..
            } if winners & (1 << player) != 0 => Some((
                i,
                Scoring {
                    category,
                    points,
                    turn: Some(turn),
                    final_scoring: phase == crate::engine::Phase::Final,
                },
            )),
            _ => None,
        })
        .collect();
    for p in PARTS {
        out.extend(p.scorings(events, player));
    }
    // in event order (stable: an event's scorings keep theirs)
    out.sort_by_key(|&(i, _)| i);
    out.into_iter().map(|(_, s)| s).collect()
}

fn category(word: &str) -> Option<Category> {
    match word.to_ascii_lowercase().as_str() {
        "road" | "roads" => Some(Category::ROAD),
        "city" | "cities" => Some(Category::CITY),
        "monastery" | "cloister" | "monasteries" | "cloisters" => Some(Category::CLOISTER),
        "field" | "farm" | "fields" | "farms" => Some(Category::FIELD),
        w => PARTS.iter().find_map(|p| p.category(w)),
    }
}

/// Where the replayed game stands when the save ends (for `phase is X`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndState {
    /// Final scoring is done: JCloisterZone's `GameOverPhase`.
    Over,
    /// Between two turns, the next tile not yet placed: JCloisterZone's `TilePhase`.
    BetweenTurns,
    /// Not known (the replay stopped early, or was cut at a turn).
    Unknown,
}

enum Parsed {
    Phase(String),
    Pass(bool),
    Has {
        player: String,
        points: i64,
    },
    Scored {
        player: String,
        category: Category,
        points: i64,
    },
}

fn parse(line: &str) -> Result<Parsed, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["phase", "is", phase] => return Ok(Parsed::Phase(phase.to_string())),
        ["Player", "can", "pass"] => return Ok(Parsed::Pass(true)),
        ["Player", "can't", "pass"] => return Ok(Parsed::Pass(false)),
        _ => {}
    }
    let points = |w: &[&str]| -> Result<i64, String> {
        match w {
            [n, unit] if matches!(*unit, "points" | "point") => n
                .parse::<i64>()
                .map_err(|_| format!("`{n}` is not a number")),
            _ => Err("expected `N points` at the end".into()),
        }
    };
    if let Some(i) = words.iter().position(|w| *w == "has") {
        if i > 0 && words.len() == i + 3 {
            return Ok(Parsed::Has {
                player: words[..i].join(" "),
                points: points(&words[i + 1..])?,
            });
        }
    }
    if let Some(i) = words.iter().position(|w| *w == "scored") {
        if i > 0 && words.len() == i + 5 && words[i + 2] == "for" {
            let c = category(words[i + 1])
                .ok_or_else(|| format!("unknown category `{}`", words[i + 1]))?;
            return Ok(Parsed::Scored {
                player: words[..i].join(" "),
                category: c,
                points: points(&words[i + 3..])?,
            });
        }
    }
    Err(
        "expected `P has N points`, `P scored C for N points`, `phase is X` or `Player can('t) pass`"
            .into(),
    )
}

fn seat(players: &[String], name: &str) -> Option<u8> {
    players
        .iter()
        .position(|p| p == name)
        .or_else(|| players.iter().position(|p| p.eq_ignore_ascii_case(name)))
        .map(|i| i as u8)
}

/// What `phase is PHASE` finds at `end`: (holds, detail), or `None` when meeplab cannot
/// tell (skipped).
fn phase_verdict(phase: &str, end: EndState) -> Option<(bool, String)> {
    let now = match end {
        EndState::Over => "GameOverPhase",
        EndState::BetweenTurns => "TilePhase",
        EndState::Unknown => return None,
    };
    matches!(phase, "GameOverPhase" | "TilePhase")
        .then(|| (phase == now, format!("the replay ends in {now}")))
}

/// Check every assertion against the replay's outcome and events, and where it ends.
pub fn check(
    assertions: &[String],
    players: &[String],
    outcome: &GameOutcome,
    events: &[Event],
    end: EndState,
) -> Vec<Verdict> {
    assertions
        .iter()
        .map(|a| {
            let mut skipped = false;
            let (ok, detail) = match parse(a) {
                Err(e) => (false, format!("cannot read: {e}")),
                Ok(Parsed::Phase(phase)) => phase_verdict(&phase, end).unwrap_or_else(|| {
                    skipped = true;
                    (
                        false,
                        format!(
                            "skipped: meeplab checks `phase is TilePhase` and `phase is GameOverPhase` of a replay that ends between turns or at the end, not `{phase}` here"
                        ),
                    )
                }),
                Ok(Parsed::Pass(can)) => {
                    skipped = true;
                    (
                        false,
                        format!(
                            "skipped: whether JCloisterZone's pending action may be passed ({}) is not part of a meeplab replay",
                            if can { "can" } else { "can't" }
                        ),
                    )
                }
                Ok(Parsed::Has { player, points }) => match seat(players, &player) {
                    None => (false, format!("no player named `{player}`")),
                    Some(p) => {
                        let total = outcome.seats.get(p as usize).map_or(0, |s| s.total);
                        (total == points, format!("{player} has {total} points"))
                    }
                },
                Ok(Parsed::Scored {
                    player,
                    category,
                    points,
                }) => match seat(players, &player) {
                    None => (false, format!("no player named `{player}`")),
                    Some(p) => {
                        let got: Vec<i64> = scorings(events, p)
                            .iter()
                            .filter(|s| s.category == category)
                            .map(|s| s.points)
                            .collect();
                        let ok = got.contains(&points);
                        let detail = if got.is_empty() {
                            format!("{player} never scored {}", category.name())
                        } else {
                            let list: Vec<String> = got.iter().map(|n| n.to_string()).collect();
                            format!(
                                "{player}'s {} scorings: {}",
                                category.name(),
                                list.join(", ")
                            )
                        };
                        (ok, detail)
                    }
                },
            };
            Verdict {
                assertion: a.clone(),
                ok,
                skipped,
                detail,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_forms() {
        assert!(matches!(
            parse("Alice has 9 points"),
            Ok(Parsed::Has { points: 9, .. })
        ));
        assert!(matches!(
            parse("Bob scored road for 1 points"),
            Ok(Parsed::Scored {
                category: Category::ROAD,
                points: 1,
                ..
            })
        ));
        assert!(matches!(
            parse("Ann Lee scored monastery for 9 points"),
            Ok(Parsed::Scored { ref player, category: Category::CLOISTER, .. }) if player == "Ann Lee"
        ));
        assert!(
            matches!(parse("phase is TilePhase"), Ok(Parsed::Phase(ref p)) if p == "TilePhase")
        );
        assert!(matches!(
            parse("Player can't pass"),
            Ok(Parsed::Pass(false))
        ));
        assert!(matches!(parse("Player can pass"), Ok(Parsed::Pass(true))));
        assert!(matches!(
            parse("Alice has -2 points"),
            Ok(Parsed::Has { points: -2, .. })
        ));
        assert!(parse("Alice wins").is_err());
        assert!(parse("Alice scored lava for 3 points").is_err());
    }

    #[test]
    fn phases_are_checked_where_known_and_skipped_elsewhere() {
        let names = vec!["Alice".to_string()];
        let out = GameOutcome::default();
        let lines: Vec<String> = [
            "phase is TilePhase",
            "phase is GameOverPhase",
            "phase is ActionPhase",
            "Player can't pass",
        ]
        .map(String::from)
        .to_vec();
        let v = check(&lines, &names, &out, &[], EndState::BetweenTurns);
        assert_eq!(
            v.iter().map(|v| (v.ok, v.skipped)).collect::<Vec<_>>(),
            [(true, false), (false, false), (false, true), (false, true)]
        );
        let v = check(&lines, &names, &out, &[], EndState::Over);
        assert_eq!((v[0].ok, v[1].ok), (false, true));
        let v = check(&lines, &names, &out, &[], EndState::Unknown);
        assert!(v[0].skipped && v[1].skipped);
    }
}
