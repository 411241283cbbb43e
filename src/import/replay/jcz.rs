//! Replaying a translated `.jcz` save turn by turn under its own ruleset or another one
//! (see [`JczMode`]): JCloisterZone's draws reproduced, tiles that fit nowhere discarded as
//! JCloisterZone does, castles answered from the save, and the end of the game decided.

use super::diagnosing::{effect_seen, seat, unasked_why, Diagnosing};
use super::Run;
use crate::engine::hooks::Expansions;
use crate::engine::script::describe;
use crate::engine::{
    Choice, Compiled, DecisionKind, Game, NoEvents, OnIllegal, Scripted, TakenDecision,
};
use crate::import::draws::{DrawError, DrawPlan, Pack};
use crate::import::jcz::parts::PARTS;
use crate::import::jcz::{tile_of_jcz, JczError, Translated, TurnToPlay};
use crate::policy::{Policy, PolicyKind};
use crate::record::Replayed;
use crate::ruleset::{Ruleset, TileIdx};
use std::sync::Arc;

/// Which replay of a save: under its own (mapped) ruleset, or under another one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JczMode {
    /// The save's own ruleset: every disagreement is an error naming the message, the
    /// tiles are checked against JCloisterZone's draws, and the end of the game is decided
    /// from them. With `OnIllegal::Policy`, what the save does not settle is filled in by
    /// the policy instead, with a warning.
    Own,
    /// Another ruleset: the same tiles and decisions; `record_over` (from the own replay)
    /// says whether the game ended in the record.
    Other { record_over: bool },
}

/// The next tile JCloisterZone gives `player`: drawn tiles that fit nowhere are discarded
/// (returned too). `Ok(None)`: the pack is exhausted.
fn next_placeable(
    pack: &mut Pack,
    game: &Game,
    rules: &Ruleset,
    player: u8,
) -> Result<(Option<String>, Vec<String>), DrawError> {
    let mut discarded = Vec::new();
    while let Some(id) = pack.draw()? {
        let fits = tile_of_jcz(rules, &id).is_some_and(|t| offered_anywhere(game, t, player));
        if fits {
            return Ok((Some(id), discarded));
        }
        discarded.push(id);
    }
    Ok((None, discarded))
}

/// Replay a translated `.jcz` under `rules` (see [`JczMode`]). `stop_after`: stop (without
/// final scoring) after that turn.
///
/// Each recorded turn gets its own script, renumbered to the turn the engine is at, so a
/// tile another ruleset does not know (or that fits nowhere there) shifts nothing after it.
pub fn replay_jcz(
    rules: &Arc<Compiled>,
    tr: &Translated,
    players: u8,
    on_illegal: OnIllegal,
    fallback: PolicyKind,
    mode: JczMode,
    stop_after: Option<u32>,
) -> Result<Run, JczError> {
    if rules.rules.hand > 1 {
        return Err(JczError::new(format!(
            "{} plays with a hand of {} tiles (the `hand` house rule); JCloisterZone saves \
             have no hands (each player draws a tile and plays it), so they replay only under \
             rulesets with `hand = 1`",
            rules.rules.name, rules.rules.hand
        )));
    }
    let strict = mode == JczMode::Own;
    let lenient = on_illegal == OnIllegal::Policy;
    let r = &rules.rules;
    let room = rules.rules.total_tiles().max(tr.draws.len() + 1);
    let mut game = Game::with_room_for(rules.clone(), 0, players, room);
    let mut events = Vec::new();
    let mut notes = Vec::new();
    let mut warnings = Vec::new();
    let mut unused: Vec<TakenDecision> = Vec::new();
    let mut unknown = Vec::new();
    let mut problems = Vec::new();
    let mut unrecorded = 0;
    let last_message = tr.draws.last().map_or(0, |d| d.message);
    let reaches_end = stop_after.is_none_or(|s| s as usize >= tr.draws.len());
    if strict && reaches_end {
        if let Some((index, why)) = &tr.open_turn {
            if !lenient {
                return Err(JczError {
                    message: Some(*index),
                    kind: None,
                    text: format!("{why}; meeplab replays whole turns and will not guess the rest (--on-illegal policy lets the {fallback} policy finish it)"),
                });
            }
            warnings.push(format!(
                "replay message {index}: {why}; the {fallback} policy finishes the turn"
            ));
        }
    }
    // JCloisterZone's pack, reproduced (own ruleset only); None once it cannot be followed
    let mut pack = strict.then(|| Pack::new(&tr.plan));
    let mut discarded: Vec<String> = Vec::new();
    let lose_pack = |pack: &mut Option<Pack>,
                     message: usize,
                     text: String,
                     warnings: &mut Vec<String>|
     -> Result<(), JczError> {
        if !lenient {
            return Err(JczError {
                message: Some(message),
                kind: Some("PLACE_TILE".into()),
                text: format!("{text} (--on-illegal policy replays the placed tiles anyway)"),
            });
        }
        warnings.push(format!(
            "replay message {message}: {text}; the draws are not checked from here, and the end of the game is decided from the tiles left"
        ));
        *pack = None;
        Ok(())
    };
    game.setup(&mut events);
    let mut halted = false;
    let mut stopped = false;
    for (k, draw) in tr.draws.iter().enumerate() {
        if stop_after.is_some_and(|s| game.turn() >= s) {
            stopped = true;
            break;
        }
        // a tile bought at a bazaar is not drawn (JCloisterZone drew it for the auction)
        if let Some(p) = pack
            .as_mut()
            .filter(|_| PARTS.iter().all(|part| part.draws_tile(tr, k)))
        {
            if let Some(rv) = draw.random_before {
                p.set_random(rv);
            }
            let drawn = next_placeable(p, &game, r, draw.player);
            let n = p.draws;
            match drawn {
                Ok((got, gone)) => {
                    for id in gone {
                        notes.push(format!(
                            "JCloisterZone drew {id} before turn {} and discarded it: it fits nowhere",
                            k + 1
                        ));
                        discarded.push(id);
                    }
                    match got {
                        Some(id) if id == draw.jcz_id => {}
                        Some(id) => lose_pack(
                            &mut pack,
                            draw.message,
                            format!(
                                "JCloisterZone draws {id} for turn {} ({}), but the save places {}",
                                k + 1,
                                draw_source(&tr.plan, n),
                                draw.jcz_id
                            ),
                            &mut warnings,
                        )?,
                        None => lose_pack(
                            &mut pack,
                            draw.message,
                            format!(
                                "a tile placed after the end of the pack (turn {}): JCloisterZone's game is over",
                                k + 1
                            ),
                            &mut warnings,
                        )?,
                    }
                }
                Err(DrawError::NoRandom) => {
                    notes.push(format!(
                        "the draws are not checked from turn {}: {}",
                        k + 1,
                        DrawError::NoRandom
                    ));
                    pack = None;
                }
                Err(e) => lose_pack(&mut pack, draw.message, e.to_string(), &mut warnings)?,
            }
        }
        if let Some(p) = pack.as_mut() {
            p.placed(&draw.jcz_id);
        }
        let Some(tile) = r.tile_index(&draw.id) else {
            notes.push(format!(
                "recorded turn {}: this ruleset has no tile {}; left out",
                k + 1,
                draw.id
            ));
            unknown.push(draw.id.clone());
            continue;
        };
        if strict && !offered_at(&game, tile, draw.player, draw.x, draw.y, draw.rot) {
            let why = if game.tile_at(draw.x, draw.y).is_some() {
                "the place already holds a tile"
            } else if !touches(&game, draw.x, draw.y) {
                "it touches no tile on the board"
            } else if !game.placement_legal(tile, draw.x, draw.y, draw.rot) {
                "its edges do not match the neighbouring tiles"
            } else {
                "the placement rules of the ruleset's expansions forbid it there"
            };
            return Err(JczError {
                message: Some(draw.message),
                kind: Some("PLACE_TILE".into()),
                text: format!(
                    "illegal placement of {} at ({},{}) turned {}°: {why}",
                    draw.id,
                    draw.x,
                    draw.y,
                    draw.rot as u32 * 90
                ),
            });
        }
        let turn = game.turn() + 1;
        let recorded: Vec<usize> = (0..tr.decisions.len())
            .filter(|&i| tr.decisions[i].turn == k as u32 + 1)
            .collect();
        let script: Vec<TakenDecision> = recorded
            .iter()
            .map(|&i| {
                let d = &tr.decisions[i];
                TakenDecision {
                    turn,
                    ..PARTS
                        .iter()
                        .find_map(|p| p.for_rules(tr, r, d))
                        .unwrap_or_else(|| d.clone())
                }
            })
            .collect();
        let origin = |d: &TakenDecision| {
            script
                .iter()
                .position(|x| x == d)
                .map(|j| tr.origins[recorded[j]])
        };
        let mut chooser = Diagnosing::for_turn(
            Scripted::new(script.clone(), Policy::new(fallback), on_illegal),
            tr,
            k,
            &script,
        );
        for p in PARTS {
            p.before_turn(tr, k, &mut game);
        }
        let turn_to_play = TurnToPlay {
            tr,
            k,
            tile,
            player: draw.player,
        };
        let played = PARTS
            .iter()
            .find_map(|p| p.play_turn(&mut game, turn_to_play, &mut chooser, &mut events));
        let played = match played {
            Some(played) => played,
            None => game.play_tile(tile, draw.player, &mut chooser, &mut events),
        };
        if let Err(e) = played {
            if strict {
                return Err(JczError {
                    message: Some(draw.message),
                    kind: Some("PLACE_TILE".into()),
                    text: e,
                });
            }
            notes.push(format!(
                "recorded turn {}: {e}; the tile is left out",
                k + 1
            ));
            continue;
        }
        unrecorded += chooser.script.unrecorded;
        if let Some(p) = chooser.script.problems.first() {
            if strict {
                let d = TakenDecision {
                    turn: p.turn,
                    player: p.player,
                    kind: p.kind,
                    choice: p.recorded,
                };
                return Err(JczError {
                    message: origin(&d),
                    kind: None,
                    text: format!("illegal {}: {}", describe(p.kind, &p.recorded), p.why),
                });
            }
        }
        if strict {
            if let Some(&(kind, player, options)) = chooser.unrecorded.first() {
                let text = format!(
                    "turn {}: the rules ask {} for {} ({options} options), which the save does not record — the save and its mapped rules disagree",
                    k + 1,
                    tr.names
                        .get(player as usize)
                        .map_or(seat(player), String::as_str),
                    kind_words(kind)
                );
                if !lenient {
                    return Err(JczError {
                        message: Some(draw.message),
                        kind: Some("PLACE_TILE".into()),
                        text: format!(
                            "{text} (--on-illegal policy lets the {fallback} policy decide)"
                        ),
                    });
                }
                warnings.push(format!(
                    "replay message {}: {text}; the {fallback} policy decided",
                    draw.message
                ));
            }
        }
        problems.extend(chooser.script.problems.iter().cloned());
        // the parts' draws after this turn (an auction's tiles), from JCloisterZone's pack
        if let Some((message, text)) = pack.as_mut().and_then(|p| {
            PARTS
                .iter()
                .find_map(|part| part.draw_after_turn(&mut *p, tr, k).err())
        }) {
            lose_pack(&mut pack, message, text, &mut warnings)?;
        }
        // what the save does that the engine did not offer, as the parts find it
        for a in &mut chooser.answers {
            unused.extend(a.after_turn(&game, tr, strict)?);
        }
        for d in chooser.script.unused() {
            if effect_seen(d, &events) {
                continue;
            }
            if strict {
                return Err(JczError {
                    message: origin(d),
                    kind: None,
                    text: format!(
                        "{} was not possible: {}",
                        describe(d.kind, &d.choice),
                        unasked_why(d)
                    ),
                });
            }
            unused.push(d.clone());
        }
        if chooser.script.halted() {
            halted = true;
            break;
        }
    }
    let record_over = match mode {
        JczMode::Other { record_over } => record_over,
        JczMode::Own if stopped || halted => false,
        JczMode::Own if tr.open_turn.is_some() => false,
        JczMode::Own => {
            let mut over = None;
            if let Some(p) = pack.as_mut() {
                if let Some(rv) = tr.random_after {
                    p.set_random(rv);
                }
                match next_placeable(p, &game, r, game.seat_of_next_draw()) {
                    Ok((next, gone)) => {
                        for id in gone {
                            notes.push(format!(
                                "JCloisterZone drew {id} after the last turn and discarded it: it fits nowhere"
                            ));
                            discarded.push(id);
                        }
                        if let Some(id) = &next {
                            notes.push(format!(
                                "the save stops before the pack is empty: JCloisterZone's next draw is {id}"
                            ));
                        }
                        over = Some(next.is_none());
                    }
                    Err(e) => notes.push(format!(
                        "the end of the game is decided from the tiles left: {e}"
                    )),
                }
            }
            match over {
                Some(o) => o,
                None => over_from_contents(tr, &game, r, &discarded, lenient, last_message).map(
                    |(o, w)| {
                        warnings.extend(w);
                        o
                    },
                )?,
            }
        }
    };
    let finished = !halted && !stopped && record_over;
    if finished {
        let mut chooser = Scripted::new(Vec::new(), Policy::new(fallback), on_illegal);
        game.finish(&mut chooser, &mut events);
        unrecorded += chooser.unrecorded;
    }
    Ok(Run {
        replayed: Replayed {
            outcome: game.outcome(),
            events,
            problems,
            unrecorded,
            unknown_tiles: unknown,
            halted,
            finished,
            game,
        },
        unused,
        notes,
        warnings,
        record_over,
    })
}

/// Where JCloisterZone's draw number `n` (1-based) comes from.
fn draw_source(plan: &DrawPlan, n: u32) -> String {
    if (n as usize) <= plan.forced.len() {
        format!("gameAnnotations.drawOrder[{}]", n.saturating_sub(1))
    } else {
        "from the save's random values".into()
    }
}

fn kind_words(k: DecisionKind) -> &'static str {
    match k {
        DecisionKind::FOLLOWER => "a follower placement",
        DecisionKind::TILE_PICK => "the tile to play from the hand",
        _ => PARTS
            .iter()
            .find_map(|p| p.decision_words(k))
            .unwrap_or("a decision"),
    }
}

/// The end of the game from the tiles left in the sets, when JCloisterZone's draws cannot
/// be reproduced: over when none is left or none of them fits (JCloisterZone discards them
/// all), or when the draw limit is reached. Tiles left that still fit make it undecidable
/// (in progress, or discarded earlier?): an error, or with `lenient` a warning and "in
/// progress".
fn over_from_contents(
    tr: &Translated,
    game: &Game,
    rules: &Ruleset,
    discarded: &[String],
    lenient: bool,
    last_message: usize,
) -> Result<(bool, Vec<String>), JczError> {
    if let Some(l) = tr.plan.limit {
        if tr.draws.len() + discarded.len() >= l as usize {
            return Ok((true, Vec::new()));
        }
    }
    let mut left = tr.left_in_pack.clone();
    for id in discarded {
        if let Some(t) = tile_of_jcz(rules, id) {
            if let Some(i) = left.iter().position(|&x| x == t) {
                left.remove(i);
            }
        }
    }
    let fitting: Vec<&str> = left
        .iter()
        .filter(|&&t| offered_anywhere(game, t, game.seat_of_next_draw()))
        .map(|&t| rules.tiles[t as usize].id.as_str())
        .collect();
    if fitting.is_empty() {
        return Ok((true, Vec::new()));
    }
    let mut names = fitting.clone();
    names.dedup();
    let text = format!(
        "cannot tell whether the game is over: {} tile(s) of the sets were never placed and fit the board ({}), and without JCloisterZone's random values meeplab cannot tell whether they were discarded earlier or are still in the pack",
        fitting.len(),
        names.join(", ")
    );
    if !lenient {
        return Err(JczError {
            message: Some(last_message),
            kind: None,
            text: format!("{text} (--on-illegal policy treats the game as in progress)"),
        });
    }
    Ok((
        false,
        vec![format!("{text}; treated as in progress (no final scoring)")],
    ))
}

/// Whether the engine offers `tile` somewhere to `player`: where its edges fit, with the
/// placements the expansions in play add (one that needs a bridge) or forbid (the river's),
/// as JCloisterZone discards a tile it cannot place.
fn offered_anywhere(game: &Game, tile: TileIdx, player: u8) -> bool {
    if !game.ext.adjusts_placement() {
        return game.fits_anywhere(tile);
    }
    let mut copy = game.clone();
    copy.begin_turn(tile, player, &mut NoEvents).is_ok()
}

/// Whether the engine offers `tile` at (x, y) turned `rot` to `player`: its edges fit there,
/// and the expansions in play allow it (or make it legal: a placement that needs a bridge).
fn offered_at(game: &Game, tile: TileIdx, player: u8, x: i32, y: i32, rot: u8) -> bool {
    if !game.ext.adjusts_placement() {
        return game.placement_legal(tile, x, y, rot);
    }
    let mut copy = game.clone();
    copy.begin_turn(tile, player, &mut NoEvents).is_ok()
        && copy.option_of(&Choice::Place { x, y, rot }).is_ok()
}

fn touches(game: &Game, x: i32, y: i32) -> bool {
    [(0, -1), (1, 0), (0, 1), (-1, 0)].iter().any(|(dx, dy)| {
        game.tile_at(x.saturating_add(*dx), y.saturating_add(*dy))
            .is_some()
    })
}
