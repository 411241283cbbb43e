//! Shared support for the rulebook scenario tests: load a ruleset, play scripted turns
//! (tile, place, follower and any other expected choices), and read back the events.
//!
//! The game records its decisions (`enable_record`), so the engine asks the chooser even
//! when a decision has a single option: every decision is logged, and an expected choice is
//! always consumed. A turn fails if an expected choice is not legal or is never asked.

#![allow(dead_code)]

use meeplab::engine::{
    compile, Category, Choice, Chooser, Compiled, Decision, DecisionKind, Event, FollowerKind,
    Game, Phase,
};
use meeplab::ruleset::TileIdx;
use std::path::Path;
use std::sync::Arc;

/// Every bundled ruleset (`rulesets/*.rules`), by file name, in name order.
pub fn bundled_rulesets() -> Vec<(String, Arc<Compiled>)> {
    let mut files: Vec<_> = std::fs::read_dir("rulesets")
        .expect("rulesets/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "rules"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|path| {
            let loaded = meeplab::dsl::load_ruleset(path)
                .unwrap_or_else(|d| panic!("{}: {d}", path.display()));
            let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned());
            (stem.unwrap_or_default(), compile(&loaded.ruleset))
        })
        .collect()
}

/// A bundled ruleset, `rulesets/{name}.rules`.
pub fn load(name: &str) -> Arc<Compiled> {
    let path = format!("rulesets/{name}.rules");
    let loaded =
        meeplab::dsl::load_ruleset(Path::new(&path)).unwrap_or_else(|d| panic!("{path}: {d}"));
    compile(&loaded.ruleset)
}

/// A ruleset written inline (usually `extends "rulesets/…"` plus an override).
pub fn load_str(name: &str, text: &str) -> Arc<Compiled> {
    let loaded =
        meeplab::dsl::load_ruleset_str(name, text).unwrap_or_else(|d| panic!("{name}: {d}"));
    compile(&loaded.ruleset)
}

/// A choice the script expects: of `kind`, by `player` (any player when `None`).
#[derive(Clone, Copy, Debug)]
pub struct Exp {
    pub kind: DecisionKind,
    pub player: Option<u8>,
    pub choice: Choice,
}

pub fn exp(kind: DecisionKind, player: u8, choice: Choice) -> Exp {
    Exp {
        kind,
        player: Some(player),
        choice,
    }
}

/// `player` takes an ingot from (x, y).
pub fn pick(player: u8, x: i32, y: i32) -> Exp {
    exp(
        meeplab::engine::expansions::gold::INGOT_PICK,
        player,
        Choice::Token {
            at: Some((x, y, 0)),
        },
    )
}

/// `player` puts its second ingot on (x, y).
pub fn ingot_to(player: u8, x: i32, y: i32) -> Exp {
    exp(
        meeplab::engine::expansions::gold::INGOT_PLACE,
        player,
        Choice::Token {
            at: Some((x, y, 0)),
        },
    )
}

/// `player` puts (or moves) its robber on `space`, or passes.
pub fn robber(player: u8, space: Option<u32>) -> Exp {
    exp(
        meeplab::engine::expansions::robbers::ROBBER_PLACE,
        player,
        Choice::Track { space },
    )
}

/// A decision the engine asked, with every option in semantic form.
#[derive(Clone, Debug)]
pub struct Asked {
    pub turn: u32,
    pub player: u8,
    pub kind: DecisionKind,
    pub options: Vec<Choice>,
    pub picked: Choice,
}

struct Script<'a> {
    queue: Vec<Exp>,
    log: &'a mut Vec<Asked>,
}

impl Chooser for Script<'_> {
    fn choose(&mut self, game: &Game, d: &Decision) -> usize {
        let options: Vec<Choice> = (0..d.options).map(|i| game.choice(d.kind, i)).collect();
        let pos = self
            .queue
            .iter()
            .position(|e| e.kind == d.kind && e.player.is_none_or(|p| p == d.player));
        let i = match pos {
            Some(k) => {
                let e = self.queue.remove(k);
                options
                    .iter()
                    .position(|o| *o == e.choice)
                    .unwrap_or_else(|| {
                        panic!(
                            "turn {}: player {} expected {:?} {:?}, not among the options {:?}",
                            game.turn(),
                            d.player,
                            d.kind,
                            e.choice,
                            options
                        )
                    })
            }
            None => 0,
        };
        self.log.push(Asked {
            turn: game.turn(),
            player: d.player,
            kind: d.kind,
            options: options.clone(),
            picked: options[i],
        });
        i
    }
}

/// A game being built up turn by turn from a script.
pub struct Scen {
    pub game: Game,
    pub events: Vec<Event>,
    pub log: Vec<Asked>,
}

impl Scen {
    /// A new game of `players` seats with the start tile placed.
    pub fn new(rules: &Arc<Compiled>, players: u8) -> Scen {
        let mut game = Game::new(rules.clone(), 1, players);
        game.enable_record();
        let mut events = Vec::new();
        game.setup(&mut events);
        Scen {
            game,
            events,
            log: Vec::new(),
        }
    }

    pub fn tile(&self, id: &str) -> TileIdx {
        self.game
            .rules()
            .rules
            .tile_index(id)
            .unwrap_or_else(|| panic!("no tile {id} in this ruleset"))
    }

    /// One turn: `player` places `id` at (x, y) turned `rot` and a follower on `follower`
    /// (a segment index of the tile, or none). Returns the turn's events.
    pub fn play(
        &mut self,
        player: u8,
        id: &str,
        (x, y, rot): (i32, i32, u8),
        follower: Option<u8>,
    ) -> Vec<Event> {
        self.play_with(player, id, (x, y, rot), follower, &[])
    }

    /// As [`Scen::play`], with more expected choices (ingots, robbers, crop circles…).
    pub fn play_with(
        &mut self,
        player: u8,
        id: &str,
        (x, y, rot): (i32, i32, u8),
        follower: Option<u8>,
        more: &[Exp],
    ) -> Vec<Event> {
        let queue = turn_choices(player, (x, y, rot), follower, more);
        self.play_queue(player, id, (x, y, rot), queue)
    }

    /// One turn of `player`'s: tile `id` at (x, y) turned `rot` with the expected choices
    /// `queue`.
    fn play_queue(
        &mut self,
        player: u8,
        id: &str,
        (x, y, rot): (i32, i32, u8),
        queue: Vec<Exp>,
    ) -> Vec<Event> {
        let tile = self.tile(id);
        let start = self.events.len();
        let mut script = Script {
            queue,
            log: &mut self.log,
        };
        self.game
            .play_tile(tile, player, &mut script, &mut self.events)
            .unwrap_or_else(|e| panic!("turn with {id}: {e}"));
        assert!(
            script.queue.is_empty(),
            "turn with {id} at ({x},{y}) rot {rot}: expected choices never asked: {:?}",
            script.queue
        );
        self.events[start..].to_vec()
    }

    /// One turn from the pack (or the tile an expansion gives, e.g. one bought at a bazaar):
    /// the turn draws as a game does, `player` must be the one whose turn it is, and places
    /// the tile drawn at (x, y) turned `rot`, with a follower on `follower` and any more
    /// expected choices. Returns the turn's events (its `Drawn` says which tile came).
    pub fn play_drawn(
        &mut self,
        player: u8,
        (x, y, rot): (i32, i32, u8),
        follower: Option<u8>,
        more: &[Exp],
    ) -> Vec<Event> {
        let queue = turn_choices(player, (x, y, rot), follower, more);
        let start = self.events.len();
        assert!(self.game.draw(&mut self.events), "nothing left to draw");
        assert_eq!(self.game.active(), player, "whose turn it is");
        let mut script = Script {
            queue,
            log: &mut self.log,
        };
        self.game.play_decisions(&mut script, &mut self.events);
        assert!(
            script.queue.is_empty(),
            "drawn turn at ({x},{y}) rot {rot}: expected choices never asked: {:?}",
            script.queue
        );
        self.events[start..].to_vec()
    }

    /// Final scoring, with any expected choices. Returns its events.
    pub fn finish(&mut self, more: &[Exp]) -> Vec<Event> {
        let start = self.events.len();
        let mut script = Script {
            queue: more.to_vec(),
            log: &mut self.log,
        };
        self.game.finish(&mut script, &mut self.events);
        assert!(
            script.queue.is_empty(),
            "final scoring: expected choices never asked: {:?}",
            script.queue
        );
        self.events[start..].to_vec()
    }

    pub fn scores(&self) -> Vec<i64> {
        self.game.scores().to_vec()
    }

    pub fn cat(&self, player: u8, c: Category) -> i64 {
        self.game.by_category(player).get(c)
    }

    /// Decisions of `kind` asked so far, in order.
    pub fn asked(&self, kind: DecisionKind) -> Vec<&Asked> {
        self.log.iter().filter(|a| a.kind == kind).collect()
    }

    /// Ingots lying on the tile at (x, y).
    pub fn ingots_at(&self, x: i32, y: i32) -> u32 {
        let pidx = self
            .game
            .tile_at(x, y)
            .unwrap_or_else(|| panic!("no tile at ({x},{y})"));
        self.game.ingots_on_tile(pidx)
    }
}

/// `Scored` events as (phase, category, winners mask, points, tiles).
pub fn scored(events: &[Event]) -> Vec<(Phase, Category, u8, i64, u32)> {
    events
        .iter()
        .filter_map(|e| match *e {
            Event::Scored {
                phase,
                category,
                winners,
                points,
                tiles,
                ..
            } => Some((phase, category, winners, points, tiles)),
            _ => None,
        })
        .collect()
}

/// `IngotTaken` events as (player, x, y), in order.
pub fn taken(events: &[Event]) -> Vec<(u8, i32, i32)> {
    events
        .iter()
        .filter_map(|e| {
            e.of(meeplab::engine::expansions::gold::INGOT_TAKEN)
                .map(|v| (v[1] as u8, v[2] as i32, v[3] as i32))
        })
        .collect()
}

/// Short names of the events, in order (for checking sequences).
pub fn kinds(events: &[Event]) -> Vec<&'static str> {
    events.iter().map(|e| e.kind()).collect()
}

/// The choices of a plain turn: `player` places at (x, y) turned `rot`, puts a follower on
/// `follower` (or none), then `more`.
fn turn_choices(
    player: u8,
    (x, y, rot): (i32, i32, u8),
    follower: Option<u8>,
    more: &[Exp],
) -> Vec<Exp> {
    let mut queue = vec![
        exp(DecisionKind::PLACEMENT, player, Choice::Place { x, y, rot }),
        exp(
            DecisionKind::FOLLOWER,
            player,
            Choice::Follower {
                segment: follower,
                kind: FollowerKind::PLAIN,
            },
        ),
    ];
    queue.extend_from_slice(more);
    queue
}

impl Scen {
    /// One turn: `player` places `id` at (x, y) turned `rot` and a follower of `kind` (an
    /// expansion's: a large follower, a builder, a pig) on `segment`.
    pub fn play_kind(
        &mut self,
        player: u8,
        id: &str,
        at: (i32, i32, u8),
        segment: u8,
        kind: meeplab::engine::FollowerKind,
    ) -> Vec<Event> {
        self.play_kind_with(player, id, at, segment, kind, &[])
    }

    /// As [`Scen::play_kind`], with more expected choices.
    pub fn play_kind_with(
        &mut self,
        player: u8,
        id: &str,
        at: (i32, i32, u8),
        segment: u8,
        kind: meeplab::engine::FollowerKind,
        more: &[Exp],
    ) -> Vec<Event> {
        let mut queue = turn_choices(player, at, Some(segment), more);
        queue[1] = exp(
            DecisionKind::FOLLOWER,
            player,
            Choice::Follower {
                segment: Some(segment),
                kind,
            },
        );
        self.play_queue(player, id, at, queue)
    }
}

impl Scen {
    /// One turn of `player`'s: tile `id` at (x, y) turned `rot` with exactly the expected
    /// choices `more` after the placement (no follower decision expected: a turn whose
    /// figure action an expansion took, such as an abbot taken back).
    pub fn play_only(
        &mut self,
        player: u8,
        id: &str,
        (x, y, rot): (i32, i32, u8),
        more: &[Exp],
    ) -> Vec<Event> {
        let mut queue = vec![exp(
            DecisionKind::PLACEMENT,
            player,
            Choice::Place { x, y, rot },
        )];
        queue.extend_from_slice(more);
        self.play_queue(player, id, (x, y, rot), queue)
    }
}
