//! Invariants of a game in progress, checkable after every move: what the fuzz target
//! `play_random` and the property tests (`tests/it/engine_properties.rs`) assert of every
//! position a game passes through, under any bundled ruleset.
//!
//! - followers are conserved: on the board + in supply = the ruleset's followers per seat;
//! - tiles are conserved (shuffled packs): placed + discarded + in the pack + in hands (+ the
//!   tile being played, drawn and not placed yet) = the pack, the start tile included;
//! - no score ever falls (robbers take nothing from the robbed) and each seat's score is the
//!   sum of its points by category;
//! - a pending decision has at least one option, as many as its option buffer holds, and is
//!   asked of a seat in the game;
//! - each expansion taking part keeps its own invariants (`Expansion::check_invariants`: its
//!   pieces conserved, its figures where they may stand);
//! - at the end, each seat's total is the sum of its categories and the winners hold the
//!   highest total.
//!
//! [`Invariants::check`] checks one position against the previous one; [`play_checked`]
//! plays a whole game through the checked move path ([`Game::apply`]), checking after every
//! draw and every move.

use crate::engine::decision::Decision;
use crate::engine::event::NoEvents;
use crate::engine::expansions::Set;
use crate::engine::game::{DrawSource, MAX_PLAYERS};
use crate::engine::hooks::{Expansions, Hook};
use crate::engine::outcome::Category;
use crate::engine::outcome::GameOutcome;
use crate::engine::step::Step;
use crate::engine::turn::Pending;
use crate::engine::Game;
use std::fmt;

/// An invariant that does not hold, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation(pub String);

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Violation {}

fn fail<T>(what: String) -> Result<T, Violation> {
    Err(Violation(what))
}

/// The invariants of one game, with what a check needs of the previous position (the scores).
#[derive(Clone, Debug)]
pub struct Invariants {
    scores: [i64; MAX_PLAYERS],
    checks: u64,
}

impl Invariants {
    /// Watch `game` from the position it is in now.
    pub fn new(game: &Game) -> Self {
        let mut scores = [0; MAX_PLAYERS];
        scores[..game.scores().len()].copy_from_slice(game.scores());
        Invariants { scores, checks: 0 }
    }

    /// Positions checked so far.
    pub fn checks(&self) -> u64 {
        self.checks
    }

    /// Check the position `game` is in now (after a draw or a move) against the last one
    /// checked.
    pub fn check(&mut self, game: &Game) -> Result<(), Violation> {
        self.checks += 1;
        let at = format!("turn {}", game.turn());
        let r = &game.rules().rules;
        let players = game.players();

        for f in game.followers() {
            if f.player >= players {
                return fail(format!(
                    "{at}: a follower of seat {} is on the board",
                    f.player
                ));
            }
        }
        // every kind of follower in play is conserved: on the board + in supply = dealt
        for kind in game.follower_kinds() {
            let dealt = if kind.is_plain() {
                r.followers as usize
            } else {
                game.follower_supply_dealt(kind) as usize
            };
            for p in 0..players {
                let on_board = game
                    .followers()
                    .iter()
                    .filter(|f| f.player == p && f.kind == kind)
                    .count();
                let supply = game.supply_of(p, kind) as usize;
                if on_board + supply != dealt {
                    let what = if kind.is_plain() {
                        "followers".to_string()
                    } else {
                        format!("{kind}s")
                    };
                    return fail(format!(
                        "{at}: seat {p} has {on_board} {what} on the board and {supply} in \
                         supply, not {dealt}"
                    ));
                }
            }
        }
        // the kinds each seat holds are those in its supply
        for p in 0..crate::engine::MAX_PLAYERS as u8 {
            let (kept, counted) = (game.held[p as usize], game.held_now(p));
            if kept != counted {
                return fail(format!(
                    "{at}: seat {p} is kept holding the kinds {kept:#b}, its supply holds \
                     {counted:#b}"
                ));
            }
        }
        // each occupied feature's majority counts are its followers' weights, its piece count
        // their number
        let mut held: Vec<(u32, [u8; crate::engine::MAX_PLAYERS], u8)> = Vec::new();
        for f in game.followers() {
            let root = game.feature_of(f.node);
            let i = match held.iter().position(|h| h.0 == root) {
                Some(i) => i,
                None => {
                    held.push((root, [0; crate::engine::MAX_PLAYERS], 0));
                    held.len() - 1
                }
            };
            held[i].1[f.player as usize] += f.kind.weight();
            held[i].2 += 1;
        }
        for (root, weights, n) in held {
            let c = game.feature(root);
            if c.followers != weights || c.nfollowers != n {
                return fail(format!(
                    "{at}: the feature at node {root} counts {:?} ({} pieces), its followers \
                     {weights:?} ({n})",
                    c.followers, c.nfollowers
                ));
            }
        }
        // each feature's marks are those of its segments
        for node in 0..game.nodes.len() as u32 {
            let root = game.feature_of(node);
            let sn = game.nodes[node as usize];
            let tile = game.placed[sn.tile as usize].tile;
            // (a tile that may become a derived type holds nodes for its extra segments)
            if root != node || sn.seg as usize >= game.rules.tiles[tile as usize].segments.len() {
                continue;
            }
            let (kept, walked) = (
                game.comps[root as usize].marks,
                game.feature_marks_walked(root),
            );
            if kept != walked {
                return fail(format!(
                    "{at}: the feature at node {root} keeps the segment marks {kept:#b}, its \
                     segments hold {walked:#b}"
                ));
            }
        }
        if let Some(f) = game
            .followers()
            .iter()
            .find(|f| !game.follower_kinds().any(|k| k == f.kind))
        {
            return fail(format!(
                "{at}: a {} of seat {} is on the board, a kind not in play",
                f.kind, f.player
            ));
        }

        if matches!(game.draws, DrawSource::Shuffled) {
            let hands: usize = (0..players).map(|p| game.hand(p).len()).sum();
            // the tile of the turn is out of the pack (and the hand) until it is placed
            let in_play = usize::from(matches!(
                game.step,
                Step::Place | Step::Hook(Hook::TileDrawn)
            ));
            let placed = game.placed_tiles().len();
            let discarded = game.discarded as usize;
            let held = game.ext.tiles_held();
            let seen = placed + discarded + game.remaining() + hands + in_play + held;
            // before set-up the start tile is in no pile
            let start = usize::from(game.step == Step::Setup);
            if seen + start != r.total_tiles() {
                return fail(format!(
                    "{at}: tiles placed {placed} + discarded {discarded} + in the pack {} + in \
                     hands {hands} + in play {in_play} + held by expansions {held} ≠ the pack \
                     of {}",
                    game.remaining(),
                    r.total_tiles()
                ));
            }
        }

        for (p, &total) in game.scores().iter().enumerate() {
            let by = game.by_category(p as u8);
            // points paid between seats (a bazaar's) may fall; the rest never does
            let now = total
                - Category::ALL
                    .iter()
                    .filter(|&&c| Set::may_fall(c))
                    .map(|&c| by.get(c))
                    .sum::<i64>();
            let before = self.scores[p];
            if now < before {
                return fail(format!(
                    "{at}: seat {p}'s score fell from {before} to {now}"
                ));
            }
            let sum = by.total();
            if total != sum {
                return fail(format!(
                    "{at}: seat {p}'s score {total} is not the sum of its categories {sum}"
                ));
            }
            self.scores[p] = now;
        }
        game.board
            .check_counts()
            .map_err(|e| Violation(format!("{at}: {e}")))?;
        // each node's kind is its segment's on the tile as it now is
        for t in game.placed_tiles() {
            let segments = &game.rules.tiles[t.tile as usize].segments;
            for (i, seg) in segments.iter().enumerate() {
                let kind = game.nodes[t.node0 as usize + i].kind;
                if kind != seg.kind {
                    return fail(format!(
                        "{at}: node {} notes a {kind}, its segment is a {}",
                        t.node0 as usize + i,
                        seg.kind
                    ));
                }
            }
        }
        Set::check_invariants(game).map_err(|e| Violation(format!("{at}: {e}")))?;

        if let Pending::Decision(d) = game.pending() {
            check_decision(game, &d).map_err(|Violation(w)| Violation(format!("{at}: {w}")))?;
        }
        Ok(())
    }
}

/// A pending decision is well formed: at least one option, as many as its buffer holds, asked
/// of a seat in the game.
fn check_decision(game: &Game, d: &Decision) -> Result<(), Violation> {
    let kind = d.kind.name();
    if d.options == 0 {
        return fail(format!("a {kind} decision with no option"));
    }
    let held = game.option_count(d.kind);
    if held != d.options {
        return fail(format!(
            "a {kind} decision of {} options, its buffer holds {held}",
            d.options
        ));
    }
    if d.player >= game.players() {
        return fail(format!("a {kind} decision asked of seat {}", d.player));
    }
    Ok(())
}

/// A finished game's outcome adds up: each seat's total is the sum of its categories, the
/// winners are the seats with the highest total, and (shuffled packs) every tile of the pack
/// was placed or discarded.
pub fn check_outcome(game: &Game, outcome: &GameOutcome) -> Result<(), Violation> {
    let max = outcome.seats.iter().map(|s| s.total).max().unwrap_or(0);
    for (p, s) in outcome.seats.iter().enumerate() {
        if s.total != s.by_category.total() {
            return fail(format!(
                "seat {p}'s total {} is not the sum of its categories {}",
                s.total,
                s.by_category.total()
            ));
        }
        if (s.total == max) != outcome.winners.contains(&(p as u8)) {
            return fail(format!(
                "seat {p} with {} of a best {max}: winners {:?}",
                s.total, outcome.winners
            ));
        }
    }
    if matches!(game.draws, DrawSource::Shuffled) {
        let total = game.rules().rules.total_tiles() as u32;
        let hands: usize = (0..game.players()).map(|p| game.hand(p).len()).sum();
        if outcome.tiles_placed + outcome.tiles_discarded != total || hands != 0 {
            return fail(format!(
                "at the end {} tiles placed + {} discarded ≠ the pack of {total} ({hands} in \
                 hands)",
                outcome.tiles_placed, outcome.tiles_discarded
            ));
        }
    }
    Ok(())
}

/// Play `game` to its end from wherever it stands, answering each decision with option
/// `pick(game, decision) % options` through the checked [`Game::apply`], and checking the
/// invariants after the set-up, every draw and every move, and the outcome at the end.
pub fn play_checked(
    game: &mut Game,
    mut pick: impl FnMut(&Game, &Decision) -> usize,
) -> Result<GameOutcome, Violation> {
    game.setup(&mut NoEvents);
    let mut inv = Invariants::new(game);
    inv.check(game)?;
    loop {
        match game.pending() {
            Pending::Decision(d) => {
                let i = pick(game, &d) % d.options.max(1);
                game.apply(i)
                    .map_err(|e| Violation(format!("turn {}: {e}", game.turn())))?;
            }
            Pending::Draw => {
                if !game.draw(&mut NoEvents) {
                    game.finish_now(&mut NoEvents);
                }
            }
            Pending::End => break,
        }
        inv.check(game)?;
    }
    let outcome = game.outcome();
    check_outcome(game, &outcome)?;
    Ok(outcome)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::compile;
    use std::path::Path;

    fn game(name: &str, seed: u64, players: u8) -> Game {
        let path = format!("rulesets/{name}.rules");
        let loaded = crate::dsl::load_ruleset(Path::new(&path)).unwrap_or_else(|d| panic!("{d}"));
        Game::new(compile(&loaded.ruleset), seed, players)
    }

    #[test]
    fn a_keyed_game_keeps_every_invariant_and_plays_as_the_drive_loop() {
        for name in ["base", "goldmines-hig-2012", "robbers-2025", "house-hand3"] {
            let mut g = game(name, 7, 3);
            let keyed = |_: &Game, d: &Decision| (d.key % d.options as u64) as usize;
            let checked = play_checked(&mut g, keyed).unwrap_or_else(|v| panic!("{name}: {v}"));
            struct Keyed;
            impl crate::engine::Chooser for Keyed {
                fn choose(&mut self, _: &Game, d: &Decision) -> usize {
                    (d.key % d.options as u64) as usize
                }
            }
            let mut h = game(name, 7, 3);
            assert_eq!(checked, h.play(&mut Keyed, &mut NoEvents), "{name}");
        }
    }

    #[test]
    fn a_broken_position_is_reported() {
        let mut g = game("base", 2, 2);
        g.setup(&mut NoEvents);
        let mut inv = Invariants::new(&g);
        inv.check(&g).expect("the set-up is sound");
        g.supply[1] -= 1;
        let v = inv.check(&g).unwrap_err();
        assert!(v.0.contains("seat 1"), "{v}");
        g.supply[1] += 1;
        inv.check(&g).expect("sound again");
        // a feature whose majority count is not its followers' weights
        let node = g.placed_tiles()[0].node0;
        g.deploy(&mut NoEvents, 0, node, crate::engine::FollowerKind::PLAIN);
        inv.check(&g)
            .expect("a follower on the start tile is sound");
        let root = g.feature_of(node);
        g.comps[root as usize].followers[0] += 1;
        let v = inv.check(&g).unwrap_err();
        assert!(v.0.contains("counts"), "{v}");
        g.comps[root as usize].followers[0] -= 1;
        // the kinds a seat is kept holding, against its supply
        g.held[1] ^= 1;
        let v = inv.check(&g).unwrap_err();
        assert!(v.0.contains("holding the kinds"), "{v}");
        g.held[1] ^= 1;
        // a feature's marks, against its segments'
        g.comps[root as usize].marks ^= 1;
        let v = inv.check(&g).unwrap_err();
        assert!(v.0.contains("segment marks"), "{v}");
        g.comps[root as usize].marks ^= 1;
        inv.check(&g).expect("sound again");
        g.score[0] = -1;
        g.by_cat[0].add(crate::engine::Category::ROAD, -1);
        let v = inv.check(&g).unwrap_err();
        assert!(v.0.contains("fell"), "{v}");
    }
}
