//! Perft for Carcassonne: legal-move counts at fixed positions of every bundled ruleset,
//! checked against `tests/golden/perft.txt` (as chess engines check move generation with
//! perft counts).
//!
//! A perft game is (ruleset, seed, players) played from its seed by the keyed chooser (each
//! decision answered with option `key % options`, the engine's own keyed draw: no policy
//! code). The file's header explains its lines; each names a position of such a game (a turn,
//! the final scoring, or the whole game) and the option counts of the decisions asked there.
//! `perft_matches_the_golden_file` replays every game the file names and compares its lines
//! one by one, printing the first that differs.
//!
//! The games: seeds 1, 2 and 3 with 2, 3 and 4 players for every bundled ruleset (turns 1,
//! 6, 21 and 51, the final scoring and the whole game), and for each decision kind the
//! ruleset can ask that these never ask, the first seed (4 players, from 4 on) whose game asks
//! it (the turn it is first asked, and the whole game). `every_kind_a_ruleset_can_ask_is_counted`
//! holds the file to that.
//!
//! Rewrite the file (after a deliberate change to move generation, or for a new bundled
//! ruleset) with `MEEPLAB_WRITE_PERFT=1 cargo test --test it perft::`.
//!
//! The counts are also checked independently of the engine's move generation: the first
//! tile's placements against a brute force over the cells around the start tile, its four
//! turns and the edges (equal-looking turns counted once), and its follower spots against the
//! tile's features.

use crate::scenario_support;

use meeplab::engine::expansions::gold::{GoldPick, GoldRules, GoldSplit};
use meeplab::engine::expansions::robbers::{RobberRules, RobberVictim as Victim};
use meeplab::engine::{compile, Compiled, DecisionKind, Game, NoEvents, Pending};
use meeplab::ruleset::{FarmRule, Ruleset};
use meeplab::tiles::{EdgeKind, FeatureKind};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::Arc;

const PERFT: &str = "tests/golden/perft.txt";
/// The turns whose decisions the base games list.
const TURNS: [u32; 4] = [1, 6, 21, 51];
/// Seeds tried, from 4 on, for a decision kind the base games never ask.
const SEARCH: u64 = 3_000;

const HEADER: &str = "\
# meeplab perft: legal-move counts along fixed games of every bundled ruleset.
# Written by `MEEPLAB_WRITE_PERFT=1 cargo test --test it perft::`; checked by `cargo test --test it perft::`.
#
# A game is `RULESET sSEED pPLAYERS`, played from its seed by the keyed chooser: every
# decision takes option `key % options` (the decision's keyed draw), so the counts depend on
# the rules and the engine's move generation only. Each line is one position of a game:
#
#   RULESET sSEED pPLAYERS tN TILE: KIND=OPTIONS ...
#       the decisions asked during turn N, in the order asked, each with its number of
#       options; TILE is the id of the tile played that turn. KIND is a decision kind's
#       name: placement (distinct placements: cells x turns, equal-looking turns once),
#       follower (spots + 1 for none), ingot_place, ingot_pick, robber_place (spaces + 1 for
#       pass), robber_victim, crop_mode, crop_deploy, crop_remove, tile_pick.
#   RULESET sSEED pPLAYERS end: KIND=OPTIONS ...
#       the decisions asked during final scoring (`-` when none).
#   RULESET sSEED pPLAYERS all: turns=T KIND=ASKED/SUM ...
#       the whole game: turns played, and per decision kind asked, how many times and the
#       sum of their options.
#
# Base games: seeds 1, 2, 3 with 2, 3, 4 players, turns 1, 6, 21, 51. Then, for a kind the
# ruleset can ask that the base games never ask, the first 4-player game from seed 4 on that
# asks it: the turn it is first asked (or `end`), and the whole game.
";

/// Every bundled ruleset by file name.
fn bundled() -> Vec<(String, Arc<Compiled>)> {
    scenario_support::bundled_rulesets()
}

/// The decision kinds a ruleset can ask, from its options.
fn kinds_asked_by(r: &Ruleset) -> Vec<DecisionKind> {
    let k = |name: &str| DecisionKind::from_name(name).expect("a decision kind");
    let (placement, follower) = (DecisionKind::PLACEMENT, DecisionKind::FOLLOWER);
    let mut kinds = vec![placement, follower];
    if let Some(g) = GoldRules::of(r) {
        if g.ingots_per_tile >= 2 {
            kinds.push(k("ingot_place"));
        }
        let picks = match g.split {
            GoldSplit::Draft { pick } => pick == GoldPick::Player,
            GoldSplit::OnePerFeature { .. } => true,
        };
        if picks {
            kinds.push(k("ingot_pick"));
        }
    }
    if let Some(rb) = RobberRules::of(r) {
        kinds.push(k("robber_place"));
        // (with the Messengers the figures move one at a time, so the victim decision is
        // asked only at final scoring: rarely)
        if rb.victim == Victim::OwnerChooses && !r.ext_in_play("messengers.") {
            kinds.push(k("robber_victim"));
        }
    }
    if r.ext_in_play("crop.") {
        kinds.extend([k("crop_mode"), k("crop_deploy"), k("crop_remove")]);
    }
    if r.hand > 1 {
        kinds.push(DecisionKind::TILE_PICK);
    }
    if r.ext_in_play("castles.") {
        kinds.push(k("castle_build"));
    }
    if r.ext_in_play("bridges.") {
        kinds.push(k("bridge"));
    }
    if r.ext_in_play("bazaars.") {
        kinds.extend([k("bazaar_select"), k("bazaar_bid"), k("bazaar_buy")]);
    }
    // (`magic_remove` needs a board without an open road or city: not in these games)
    if r.ext_in_play("magewitch.") {
        kinds.extend([k("magic_figure"), k("magic_target")]);
    }
    if r.ext_in_play("flier.") {
        kinds.extend([k("flier_fly"), k("flier_land")]);
    }
    if r.ext_in_play("ferries.") {
        kinds.extend([k("ferry_place"), k("ferry_move")]);
    }
    if r.ext_in_play("messengers.") {
        // (`messenger_follower` is asked only when message 8 is drawn and carried out: no
        // perft game reaches it; scenarios_messengers tests it)
        kinds.extend([k("messenger_figure"), k("messenger_resolve")]);
    }
    if r.ext_in_play("abbot.") && r.ext_int("abbot.supply") != Some(0) {
        kinds.push(k("abbot_return"));
    }
    kinds
}

/// Kinds `r` can ask that its perft games may not reach: `magic_remove` needs a board
/// without an open road or city, `messenger_follower` message 8 drawn and carried out (the
/// long `bigbox6` games reach it, the messengers' own rulesets do not), `robber_victim` with
/// the Messengers two markers scoring off a robber's space at final scoring; all are tested
/// by their scenario tests.
fn kinds_rarely_asked_by(r: &Ruleset) -> Vec<DecisionKind> {
    let k = |name: &str| DecisionKind::from_name(name).expect("a declared kind");
    let mut kinds = Vec::new();
    if r.ext_in_play("magewitch.") {
        kinds.push(k("magic_remove"));
    }
    if r.ext_in_play("messengers.") {
        kinds.push(k("messenger_follower"));
        if RobberRules::of(r).is_some_and(|rb| rb.victim == Victim::OwnerChooses) {
            kinds.push(k("robber_victim"));
        }
    }
    kinds
}

/// One game played by the keyed chooser: per turn the tile played and the decisions asked,
/// the final scoring's decisions, and the turns played.
struct Played {
    turns: BTreeMap<u32, (String, Vec<(DecisionKind, usize)>)>,
    end: Vec<(DecisionKind, usize)>,
    played: u32,
}

fn play(rules: &Arc<Compiled>, seed: u64, players: u8) -> Played {
    let mut g = Game::new(rules.clone(), seed, players);
    g.setup(&mut NoEvents);
    let mut turns: BTreeMap<u32, (String, Vec<(DecisionKind, usize)>)> = BTreeMap::new();
    let mut end = Vec::new();
    let mut finishing = false;
    loop {
        match g.pending() {
            Pending::Decision(d) => {
                let asked = (d.kind, d.options);
                if finishing {
                    end.push(asked);
                } else {
                    let turn = turns.entry(g.turn()).or_default();
                    if d.kind == DecisionKind::PLACEMENT {
                        turn.0 = rules.rules.tiles[g.current_tile() as usize].id.clone();
                    }
                    turn.1.push(asked);
                }
                let i = (d.key % d.options as u64) as usize;
                g.apply(i).expect("a keyed option is in range");
            }
            Pending::Draw => {
                if !g.draw(&mut NoEvents) {
                    finishing = true;
                    g.finish_now(&mut NoEvents);
                }
            }
            Pending::End => break,
        }
    }
    Played {
        turns,
        end,
        played: g.outcome().turns,
    }
}

fn list(asked: &[(DecisionKind, usize)]) -> String {
    if asked.is_empty() {
        return " -".into();
    }
    asked
        .iter()
        .map(|(k, n)| format!(" {}={n}", k.name()))
        .collect()
}

impl Played {
    /// The line of position `at` (`tN`, `end` or `all`) of game `game`.
    fn line(&self, game: &str, at: &str) -> Option<String> {
        match at {
            "end" => Some(format!("{game} end:{}", list(&self.end))),
            "all" => {
                let mut per = [(0usize, 0usize); DecisionKind::COUNT];
                for asked in self.turns.values().map(|t| &t.1).chain([&self.end]) {
                    for &(k, n) in asked {
                        per[k.index()].0 += 1;
                        per[k.index()].1 += n;
                    }
                }
                let mut s = format!("{game} all: turns={}", self.played);
                for k in all_kinds() {
                    let (asked, sum) = per[k.index()];
                    if asked > 0 {
                        let _ = write!(s, " {}={asked}/{sum}", k.name());
                    }
                }
                Some(s)
            }
            _ => {
                let n: u32 = at.strip_prefix('t')?.parse().ok()?;
                let (tile, asked) = self.turns.get(&n)?;
                Some(format!("{game} {at} {tile}:{}", list(asked)))
            }
        }
    }

    fn asks(&self, kind: DecisionKind) -> Option<String> {
        if let Some((n, _)) = self
            .turns
            .iter()
            .find(|(_, t)| t.1.iter().any(|&(k, _)| k == kind))
        {
            return Some(format!("t{n}"));
        }
        self.end
            .iter()
            .any(|&(k, _)| k == kind)
            .then(|| "end".into())
    }
}

/// Every decision kind, in the order the file lists them: the kinds the file was written
/// with, then any declared since (by index).
fn all_kinds() -> Vec<DecisionKind> {
    const FIRST: [&str; 10] = [
        "placement",
        "follower",
        "ingot_place",
        "ingot_pick",
        "robber_place",
        "robber_victim",
        "crop_mode",
        "crop_deploy",
        "crop_remove",
        "tile_pick",
    ];
    let mut kinds: Vec<DecisionKind> = FIRST
        .iter()
        .map(|n| DecisionKind::from_name(n).expect("a decision kind"))
        .collect();
    kinds.extend(DecisionKind::all().filter(|k| !FIRST.contains(&k.name())));
    kinds
}

fn base_games() -> impl Iterator<Item = (u64, u8)> {
    (1..=3u64).flat_map(|seed| (2..=4u8).map(move |players| (seed, players)))
}

/// The whole file, computed.
fn write_all() -> String {
    let mut out = String::from(HEADER);
    for (name, rules) in bundled() {
        let mut seen = Vec::new();
        for (seed, players) in base_games() {
            let game = format!("{name} s{seed} p{players}");
            let p = play(&rules, seed, players);
            for t in TURNS {
                if let Some(l) = p.line(&game, &format!("t{t}")) {
                    out += &l;
                    out.push('\n');
                }
            }
            for at in ["end", "all"] {
                out += &p.line(&game, at).unwrap_or_default();
                out.push('\n');
            }
            seen.extend(all_kinds().into_iter().filter(|&k| p.asks(k).is_some()));
        }
        for kind in kinds_asked_by(&rules.rules) {
            if seen.contains(&kind) {
                continue;
            }
            let found = (4..4 + SEARCH).find_map(|seed| {
                let p = play(&rules, seed, 4);
                p.asks(kind).map(|at| (seed, p, at))
            });
            let Some((seed, p, at)) = found else {
                panic!(
                    "{name}: no game of seeds 4..{} asks {}",
                    4 + SEARCH,
                    kind.name()
                );
            };
            let game = format!("{name} s{seed} p4");
            for at in [at.as_str(), "all"] {
                out += &p.line(&game, at).unwrap_or_default();
                out.push('\n');
            }
            seen.extend(all_kinds().into_iter().filter(|&k| p.asks(k).is_some()));
        }
    }
    out
}

/// (ruleset, seed, players, position) of a line of the file.
fn parse(line: &str) -> Option<(&str, u64, u8, &str)> {
    let head = line.split(':').next()?;
    let mut w = head.split_whitespace();
    let name = w.next()?;
    let seed = w.next()?.strip_prefix('s')?.parse().ok()?;
    let players = w.next()?.strip_prefix('p')?.parse().ok()?;
    let at = w.next()?;
    Some((name, seed, players, at))
}

#[test]
fn perft_matches_the_golden_file() {
    if std::env::var("MEEPLAB_WRITE_PERFT").is_ok_and(|v| v == "1") {
        std::fs::write(PERFT, write_all()).expect("write the perft file");
        return;
    }
    let text = std::fs::read_to_string(PERFT)
        .unwrap_or_else(|e| panic!("{PERFT}: {e} (write it with MEEPLAB_WRITE_PERFT=1)"));
    let rules: BTreeMap<String, Arc<Compiled>> = bundled().into_iter().collect();
    let mut games: BTreeMap<(String, u64, u8), Played> = BTreeMap::new();
    let mut checked = 0;
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let (name, seed, players, at) =
            parse(line).unwrap_or_else(|| panic!("{PERFT}:{}: unreadable: {line}", n + 1));
        let r = rules
            .get(name)
            .unwrap_or_else(|| panic!("{PERFT}:{}: no bundled ruleset {name}", n + 1));
        let p = games
            .entry((name.to_string(), seed, players))
            .or_insert_with(|| play(r, seed, players));
        let now = p
            .line(&format!("{name} s{seed} p{players}"), at)
            .unwrap_or_else(|| format!("(no position {at} in this game)"));
        assert_eq!(
            now,
            line,
            "{PERFT}:{}: the first line that differs (now left, file right); \
             rewrite with MEEPLAB_WRITE_PERFT=1 only after a deliberate change",
            n + 1
        );
        checked += 1;
    }
    // every bundled ruleset's base games are in the file
    for name in rules.keys() {
        for (seed, players) in base_games() {
            let head = format!("{name} s{seed} p{players} all:");
            assert!(
                text.lines().any(|l| l.starts_with(&head)),
                "{PERFT}: no perft of {name} s{seed} p{players} (a new ruleset? rewrite with \
                 MEEPLAB_WRITE_PERFT=1)"
            );
        }
    }
    assert!(checked > 0);
}

#[test]
fn every_kind_a_ruleset_can_ask_is_counted() {
    let text = std::fs::read_to_string(PERFT).expect("the perft file");
    for (name, rules) in bundled() {
        let prefix = format!("{name} ");
        let lines: Vec<&str> = text.lines().filter(|l| l.starts_with(&prefix)).collect();
        for kind in kinds_asked_by(&rules.rules) {
            let word = format!(" {}=", kind.name());
            assert!(
                lines.iter().any(|l| l.contains(&word)),
                "{PERFT}: {name} can ask {} but no line counts it",
                kind.name()
            );
        }
        // and no kind it cannot ask (those these games may or may not reach aside)
        for kind in all_kinds() {
            if !kinds_asked_by(&rules.rules).contains(&kind)
                && !kinds_rarely_asked_by(&rules.rules).contains(&kind)
            {
                let word = format!(" {}=", kind.name());
                assert!(
                    !lines.iter().any(|l| l.contains(&word)),
                    "{name} asks {}",
                    kind.name()
                );
            }
        }
    }
}

/// The edge a tile shows on board side `side` (0 N, 1 E, 2 S, 3 W) after `q` clockwise
/// quarter turns: the edge that was on side `side - q`.
fn edge_after(t: &meeplab::tiles::TileType, q: u8, side: usize) -> meeplab::tiles::EdgeKind {
    t.edges[(side + 4 - q as usize) % 4]
}

/// The first tile's placements: brute force over the four cells around the start tile (at
/// (0, 0), not turned) and four turns, edges matched by hand, turns that look alike counted
/// once; and its follower spots: one per feature (fields only with farmers) plus none.
#[test]
fn first_moves_match_a_brute_force() {
    // (dx, dy, side of the new tile facing the start tile); y grows southward
    const CELLS: [(i32, i32, usize); 4] = [(0, -1, 2), (1, 0, 3), (0, 1, 0), (-1, 0, 1)];
    for (name, rules) in bundled() {
        let r = &rules.rules;
        let start = &r.tiles[r.start as usize];
        for seed in 1..=3u64 {
            let mut g = Game::new(rules.clone(), seed, 2);
            g.setup(&mut NoEvents);
            assert!(g.draw(&mut NoEvents));
            // on to the first placement (robbers before the tile, a tile pick)
            let d = loop {
                let Pending::Decision(d) = g.pending() else {
                    panic!("{name}: no placement asked")
                };
                if d.kind == DecisionKind::PLACEMENT {
                    break d;
                }
                g.apply(0).expect("option 0");
            };
            let tile = &r.tiles[g.current_tile() as usize];
            let mut brute = 0;
            let mut spots = Vec::new();
            // with bridges, a turn whose field faces the start tile's road fits with a bridge
            // on the new tile when the side opposite is a field too (the start tile, a city
            // cap north, takes no bridge)
            let bridges = r.ext_in_play("bridges.");
            // a river tile continues the river: its river edge faces the start tile's
            let river = tile.river_sides() != 0;
            let fits = |q: u8, facing: usize| {
                let (mine, theirs) = (edge_after(tile, q, facing), start.edges[(facing + 2) % 4]);
                (mine == theirs && (!river || mine == EdgeKind::River))
                    || (bridges
                        && mine == EdgeKind::Field
                        && theirs == EdgeKind::Road
                        && edge_after(tile, q, (facing + 2) % 4) == EdgeKind::Field)
            };
            for (dx, dy, facing) in CELLS {
                let mut looks: Vec<_> = Vec::new();
                for q in 0..4u8 {
                    if !fits(q, facing) {
                        continue;
                    }
                    let look = tile.rotation_key(q, meeplab::engine::expansions::telling_marks(r));
                    // a flying machine's arrow turns with the tile: every turn is its own
                    let oriented = tile.marks & meeplab::engine::expansions::oriented_marks(r) != 0;
                    if oriented || !looks.contains(&look) {
                        looks.push(look);
                        spots.push((dx, dy, q));
                    }
                }
                brute += looks.len();
            }
            assert_eq!(d.options, brute, "{name} seed {seed}: {}", tile.id);
            // every brute-force placement is among the engine's (by meaning): equal-looking
            // turns fit alike, and both take the first of them
            for &(x, y, rot) in &spots {
                let c = meeplab::engine::Choice::Place { x, y, rot };
                assert!(g.option_of(&c).is_ok(), "{name} seed {seed}: {c}");
            }
            g.apply(0).expect("a placement");
            // the follower: nobody has one on the board yet, so every feature is free
            let Pending::Decision(f) = g.pending() else {
                panic!("{name}: no decision after the placement")
            };
            if f.kind != DecisionKind::FOLLOWER {
                continue; // gold or robbers come first; the follower is checked elsewhere
            }
            let farmers = r.scoring.farm != FarmRule::Off;
            // each free spot once per kind of follower in play that may stand there (a kind
            // that needs its owner's follower there never can yet)
            // (and where the expansions let it: a garden takes the abbot only)
            let node0 = g.placed_tiles().last().map_or(0, |t| t.node0);
            let kinds = |feature: FeatureKind, node: u32| {
                g.follower_kinds()
                    .filter(|k| {
                        let spec = k.spec();
                        g.supply_of(f.player, *k) > 0
                            && !spec.needs_own
                            && spec.may_stand_on(feature)
                            && g.may_stand(node, *k)
                    })
                    .count()
            };
            let free: usize = tile
                .features
                .iter()
                .enumerate()
                .filter(|(_, x)| farmers || x.kind != FeatureKind::Field)
                .map(|(i, x)| kinds(x.kind, node0 + i as u32))
                .sum();
            assert_eq!(f.options, 1 + free, "{name} seed {seed}: {}", tile.id);
        }
    }
}

/// Counts worked out by hand from the base game's tiles. The start tile is D: city N, road
/// E, field S, road W. A straight road U (road W–E) fits east and west of it unturned (its
/// turn by 180° looks alike: one placement each) and south unturned (a field faces the start
/// tile's field); north it would have to show a city: 3 placements,
/// and 4 follower options (the road, its two fields, none). A city cap E (city N) fits north
/// turned 180° (city to city) and south turned 90°, 180° or 270° (field to field), nowhere
/// east or west (a road would have to meet a field): 4 placements.
#[test]
fn first_tile_counts_worked_out_by_hand() {
    use meeplab::tiles::EdgeKind::{City, Field, Road};
    let loaded = meeplab::dsl::load_ruleset(Path::new("rulesets/base.rules"))
        .unwrap_or_else(|d| panic!("{d}"));
    let rules = compile(&loaded.ruleset);
    let r = &rules.rules;
    assert_eq!(r.tiles[r.start as usize].edges, [City, Road, Field, Road]);
    let find = |edges, features: usize| {
        let t = r
            .tiles
            .iter()
            .position(|t| t.edges == edges && t.features.len() == features);
        t.expect("the tile is in the base game") as u16
    };
    let road = find([Field, Road, Field, Road], 3);
    let cap = find([City, Field, Field, Field], 2);
    for (tile, placements, followers) in [(road, 3, 4), (cap, 4, 3)] {
        let mut g = Game::new(rules.clone(), 1, 2);
        g.begin_turn(tile, 0, &mut NoEvents).expect("it fits");
        let Pending::Decision(d) = g.pending() else {
            panic!("a placement is asked")
        };
        assert_eq!((d.kind, d.options), (DecisionKind::PLACEMENT, placements));
        g.apply(0).expect("a placement");
        let Pending::Decision(f) = g.pending() else {
            panic!("a follower is asked")
        };
        assert_eq!((f.kind, f.options), (DecisionKind::FOLLOWER, followers));
    }
}
