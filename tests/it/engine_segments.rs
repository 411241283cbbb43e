//! A segment is what it is on the tile, never its index in the tile's list: a copy of the
//! base game whose tiles list their segments in reverse order plays the same physical game
//! with the same records (no divergence), and where the same index names another segment
//! the records part at that very turn.

use meeplab::compare::decisions::ChoiceId;
use meeplab::engine::FollowerKind;
use meeplab::engine::Pending;
use meeplab::engine::{compile, Choice, Chooser, Compiled, Decision, DecisionKind, Event, Game};
use std::path::Path;
use std::sync::Arc;

fn load(path: &Path) -> Arc<Compiled> {
    let loaded = meeplab::dsl::load_ruleset(path).unwrap_or_else(|d| panic!("{d}"));
    compile(&loaded.ruleset)
}

/// `base.tiles` with the segment lines of every tile in reverse order.
fn reversed_segments(tiles: &str) -> String {
    let is_segment = |l: &str| {
        let t = l.trim_start();
        ["city", "road", "field", "cloister"]
            .iter()
            .any(|k| t == *k || t.starts_with(&format!("{k} ")))
    };
    let mut out = Vec::new();
    let mut block: Vec<&str> = Vec::new();
    for line in tiles.lines() {
        if is_segment(line) {
            block.push(line);
            continue;
        }
        out.extend(block.drain(..).rev());
        out.push(line);
    }
    out.extend(block.drain(..).rev());
    out.join("\n") + "\n"
}

/// The base game and its copy with every tile's segments listed in reverse.
fn base_and_reordered(dir: &Path) -> (Arc<Compiled>, Arc<Compiled>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
    let tiles = std::fs::read_to_string(root.join("tiles/base.tiles")).expect("base.tiles");
    let reordered = reversed_segments(&tiles);
    assert_ne!(tiles, reordered);
    std::fs::create_dir_all(dir.join("tiles")).expect("mkdir");
    std::fs::write(dir.join("tiles/base.tiles"), reordered).expect("write tiles");
    let rules = std::fs::read_to_string(root.join("base.rules")).expect("base.rules");
    let copy = rules.replacen(
        "ruleset \"Carcassonne — base game, current rules\"",
        "ruleset \"The base game, segments listed in reverse\"",
        1,
    );
    std::fs::write(dir.join("reordered.rules"), copy).expect("write rules");
    (
        load(&root.join("base.rules")),
        load(&dir.join("reordered.rules")),
    )
}

/// The place of follower option `i` on the tile just placed (`None` for "no follower").
fn follower_place(g: &Game, i: usize) -> Option<u64> {
    let Choice::Follower {
        segment: Some(s), ..
    } = g.choice(DecisionKind::FOLLOWER, i)
    else {
        return None;
    };
    let t = g.placed_tiles().last().expect("a tile was placed");
    Some(g.segment_place(t.x, t.y, s))
}

/// Placements by key (their options do not depend on the segments' order); a follower on
/// the segment whose place is largest (so the same physical segment under any listing)
/// when the key says so, else none.
struct ByPlace;
impl Chooser for ByPlace {
    fn choose(&mut self, g: &Game, d: &Decision) -> usize {
        if d.kind == DecisionKind::FOLLOWER {
            if d.key.is_multiple_of(3) {
                return 0;
            }
            return (0..d.options)
                .max_by_key(|&i| follower_place(g, i))
                .unwrap_or(0);
        }
        (d.key % d.options as u64) as usize
    }
}

/// The same, but a follower on the option with the same index under any listing (another
/// physical segment when the lists differ).
struct ByIndex;
impl Chooser for ByIndex {
    fn choose(&mut self, _g: &Game, d: &Decision) -> usize {
        if d.kind == DecisionKind::FOLLOWER {
            return if d.key.is_multiple_of(3) {
                0
            } else {
                d.options - 1
            };
        }
        (d.key % d.options as u64) as usize
    }
}

fn play<C: Chooser>(rules: &Arc<Compiled>, seed: u64, c: &mut C) -> (Game, Vec<Event>) {
    let mut g = Game::new(rules.clone(), seed, 2);
    let mut events = Vec::new();
    g.setup(&mut events);
    loop {
        match g.pending() {
            Pending::Decision(d) => {
                let i = c.choose(&g, &d);
                g.apply_with(i, &mut events).expect("a legal option");
            }
            Pending::Draw => {
                if !g.draw(&mut events) {
                    g.finish(c, &mut events);
                }
            }
            Pending::End => return (g, events),
        }
    }
}

/// The turns of the follower events, each with its place (x, y, place on the tile).
fn follower_spots(g: &Game, events: &[Event]) -> Vec<(u32, i32, i32, u64)> {
    events
        .iter()
        .filter_map(|e| match *e {
            Event::FollowerPlaced {
                turn,
                x,
                y,
                segment,
                ..
            } => Some((turn, x, y, g.segment_place(x, y, segment))),
            _ => None,
        })
        .collect()
}

#[test]
fn a_reordered_tile_list_names_every_segment_alike() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (a, b) = base_and_reordered(tmp.path());
    let mut parted_by_index = 0;
    for seed in 0..12u64 {
        // the same physical choices: the same records, no divergence at all
        let (ga, ea) = play(&a, seed, &mut ByPlace);
        let (gb, eb) = play(&b, seed, &mut ByPlace);
        let (oa, ob) = (ga.outcome(), gb.outcome());
        assert_eq!(
            follower_spots(&ga, &ea),
            follower_spots(&gb, &eb),
            "seed {seed}"
        );
        let followers = follower_spots(&ga, &ea).len();
        assert!(followers > 3, "seed {seed}: {followers} followers");
        assert_eq!(oa.turn_hashes, ob.turn_hashes, "seed {seed}: event records");
        assert_eq!(oa.state_hashes, ob.state_hashes, "seed {seed}: positions");
        assert_eq!(oa.choice_marks, ob.choice_marks, "seed {seed}: choices");
        assert_eq!(oa.first_divergence(&ob), None);
        // the decision probes compare a follower choice by its place too: segment s of the
        // last tile under A is segment n − 1 − s under the reversed list, the same choice
        let ids = |g: &Game| {
            let t = g.placed_tiles().last().expect("a tile");
            let n = g.rules().tiles[t.tile as usize].segments.len() as u8;
            (0..n)
                .map(|s| {
                    let c = Choice::Follower {
                        segment: Some(s),
                        kind: FollowerKind::PLAIN,
                    };
                    ChoiceId::of(g, c)
                })
                .collect::<Vec<_>>()
        };
        let (ia, mut ib) = (ids(&ga), ids(&gb));
        ib.reverse();
        assert_eq!(ia, ib, "seed {seed}: the same segments by place");
        // the same index, physically elsewhere: the records part at the first turn whose
        // follower stands on another segment (not later, as an index would have it)
        let (ga, ea) = play(&a, seed, &mut ByIndex);
        let (gb, eb) = play(&b, seed, &mut ByIndex);
        let (sa, sb) = (follower_spots(&ga, &ea), follower_spots(&gb, &eb));
        let first = sa.iter().zip(&sb).find(|(x, y)| x != y).map(|(x, _)| x.0);
        let (oa, ob) = (ga.outcome(), gb.outcome());
        if let Some(turn) = first {
            parted_by_index += 1;
            assert_eq!(oa.first_state_divergence(&ob), Some(turn), "seed {seed}");
            assert_eq!(oa.first_divergence(&ob), Some(turn), "seed {seed}");
        }
    }
    assert!(parted_by_index > 6, "{parted_by_index} of 12 seeds parted");
}
