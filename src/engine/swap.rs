//! The same position under other rules: [`Game::with_rules`] copies a game onto another
//! compiled ruleset when both can hold its position — the same tile catalogue, the same pack
//! and start tile, the same hand size (the `hand` house rule), the same follower supplies (of
//! every kind), the same expansions taking part (so the same state layout), each content
//! with the other rules (`Expansion::cannot_hold`), and a player count the other ruleset
//! allows. [`Incompatible`] says in words why not.
//!
//! The copy keeps the position as data (board, features, scores, deck, expansion states, the
//! turn's cursor); the expansions' options are read anew from the new rules
//! ([`crate::engine::Expansion::configure`]). Swapped at a turn boundary, the next turn runs wholly under the new rules.
//! Swapped mid-turn, the part of the turn already played, and the options of the decision
//! pending, were computed under the old rules: a caller that needs the decision the new
//! rules would ask swaps at the boundary and replays the turn's earlier decisions (as
//! `compare::decisions` does).

use crate::engine::compiled::Compiled;
use crate::engine::follower_kind::FollowerKind;
use crate::engine::game::Game;
use crate::engine::hooks::Expansions;
use crate::tiles::TileType;
use std::fmt;
use std::sync::Arc;

/// Why two rulesets cannot hold the same position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Incompatible(pub String);

impl fmt::Display for Incompatible {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Incompatible {}

/// The facts of a tile type the engine reads (decorations and import ids left out).
fn same_tile(a: &TileType, b: &TileType) -> bool {
    a.id == b.id && a.edges == b.edges && a.features == b.features && a.marks == b.marks
}

/// Whether a game of `players` seats under `from` can be held by `to`: `Ok`, or the first
/// reason it cannot (naming both rulesets). The expansions are compared by the states a game
/// carries (`X::for_rules`), so a new expansion needs no line here.
pub fn can_hold<X: Expansions>(
    from: &Compiled,
    to: &Compiled,
    players: u8,
) -> Result<(), Incompatible> {
    let (a, b) = (&from.rules, &to.rules);
    let (na, nb) = (a.name.as_str(), b.name.as_str());
    let no = |text: String| Err(Incompatible(text));
    let (ea, eb) = (
        X::for_rules(from).taking_part(),
        X::for_rules(to).taking_part(),
    );
    if let Some(x) = ea.iter().find(|x| !eb.contains(x)) {
        return no(format!("{nb} has no {x} expansion, which {na} plays with"));
    }
    if let Some(x) = eb.iter().find(|x| !ea.contains(x)) {
        return no(format!("{na} has no {x} expansion, which {nb} plays with"));
    }
    if a.tiles.len() != b.tiles.len() {
        return no(format!(
            "the tile catalogues differ: {na} has {} tile types, {nb} {}",
            a.tiles.len(),
            b.tiles.len()
        ));
    }
    if let Some((ta, tb)) = a.tiles.iter().zip(&b.tiles).find(|(x, y)| !same_tile(x, y)) {
        return no(format!(
            "the tile catalogues differ: {na} has {} where {nb} has {}",
            ta.id, tb.id
        ));
    }
    if a.deck != b.deck || a.start != b.start {
        return no(format!(
            "the packs differ: {na} holds {} tiles, {nb} {}{}",
            a.total_tiles(),
            b.total_tiles(),
            if a.total_tiles() == b.total_tiles() {
                " (other tiles or another start tile)"
            } else {
                ""
            }
        ));
    }
    if a.hand != b.hand {
        return no(format!(
            "the hand sizes differ: {} tile(s) in hand in {na}, {} in {nb} (a position's hands \
             cannot change size)",
            a.hand, b.hand
        ));
    }
    if a.followers != b.followers {
        return no(format!(
            "the follower supplies differ: {} in {na}, {} in {nb}",
            a.followers, b.followers
        ));
    }
    let kinds = X::for_rules(from).follower_kinds();
    for kind in FollowerKind::all().filter(|k| !k.is_plain() && kinds & (1 << k.index()) != 0) {
        let (sa, sb) = (X::follower_supply(from, kind), X::follower_supply(to, kind));
        if sa != sb {
            return no(format!(
                "the {} supplies differ: {sa} in {na}, {sb} in {nb}",
                kind.spec().name
            ));
        }
    }
    // what the expansions' states depend on (the robbers' score track)
    if let Some(why) = X::cannot_hold(from, to) {
        return no(why);
    }
    if !(b.min_players..=b.max_players).contains(&players) {
        return no(format!(
            "{nb} is for {}–{} players, not {players}",
            b.min_players, b.max_players
        ));
    }
    Ok(())
}

impl<X: Expansions> Game<X> {
    /// This position under `rules` (see the module doc), or why `rules` cannot hold it.
    pub fn with_rules(&self, rules: Arc<Compiled>) -> Result<Game<X>, Incompatible> {
        can_hold::<X>(&self.rules, &rules, self.players)?;
        let mut g = self.clone();
        g.rules = rules;
        X::configure(&mut g);
        Ok(g)
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::{compile, Compiled, Game, NoEvents, Pending};
    use std::path::Path;
    use std::sync::Arc;

    fn load(name: &str) -> crate::ruleset::Ruleset {
        let path = format!("rulesets/{name}.rules");
        crate::dsl::load_ruleset(Path::new(&path))
            .unwrap_or_else(|d| panic!("{d}"))
            .ruleset
    }

    /// A game of `rules` after `turns` turns with the keyed option, stopped at a decision
    /// `extra` decisions into the next turn (or at the boundary).
    fn part_way(rules: &Arc<Compiled>, seed: u64, turns: u32, extra: usize) -> Game {
        let mut g = Game::new(rules.clone(), seed, 3);
        g.setup(&mut NoEvents);
        let mut into = 0;
        loop {
            match g.pending() {
                Pending::Decision(d) => {
                    if g.turn() > turns {
                        if into == extra {
                            return g;
                        }
                        into += 1;
                    }
                    g.apply_unchecked((d.key % d.options as u64) as usize);
                }
                Pending::Draw if g.turn() == turns && extra == 0 => return g,
                Pending::Draw => assert!(g.draw(&mut NoEvents)),
                Pending::End => return g,
            }
        }
    }

    fn finish(mut g: Game) -> crate::engine::GameOutcome {
        struct Keyed;
        impl crate::engine::Chooser for Keyed {
            fn choose(&mut self, _g: &Game, d: &crate::engine::Decision) -> usize {
                (d.key % d.options as u64) as usize
            }
        }
        g.play(&mut Keyed, &mut NoEvents)
    }

    #[test]
    fn a_renamed_copy_holds_every_position_and_plays_on_alike() {
        let hig = load("goldmines-hig-2012");
        let mut renamed = hig.clone();
        renamed.name = "renamed".into();
        let (a, b) = (compile(&hig), compile(&renamed));
        for (seed, turns, extra) in [(1, 0, 0), (2, 10, 1), (3, 30, 2), (4, 50, 0), (5, 60, 3)] {
            let g = part_way(&a, seed, turns, extra);
            let h = g.with_rules(b.clone()).expect("a renamed copy holds it");
            assert_eq!(h.rules().rules.name, "renamed");
            assert_eq!(g.pending(), h.pending(), "seed {seed}");
            if let Pending::Decision(d) = g.pending() {
                for i in 0..d.options {
                    assert_eq!(g.choice(d.kind, i), h.choice(d.kind, i));
                }
            }
            assert_eq!(finish(g), finish(h), "seed {seed}");
        }
    }

    /// Why `g` cannot go onto `rules`.
    fn refusal(g: &Game, rules: Arc<Compiled>) -> String {
        match g.with_rules(rules) {
            Ok(_) => panic!("the swap was allowed"),
            Err(no) => no.to_string(),
        }
    }

    #[test]
    fn other_expansions_packs_or_seats_are_refused_in_words() {
        let (base, hig, rgg) = (
            load("base"),
            load("goldmines-hig-2012"),
            load("goldmines-rgg"),
        );
        let (cb, ch, cr) = (compile(&base), compile(&hig), compile(&rgg));
        let g = part_way(&ch, 1, 5, 0);
        assert!(
            g.with_rules(cr.clone()).is_ok(),
            "HiG and RGG hold the same positions"
        );
        let no = refusal(&g, cb.clone());
        assert!(no.contains("has no gold expansion"), "{no}");
        assert!(no.contains(&base.name), "{no}");
        let at_base = part_way(&cb, 1, 5, 0);
        let no = refusal(&at_base, ch);
        assert!(no.contains("has no gold expansion"), "{no}");
        let mut fewer = base.clone();
        fewer.followers -= 1;
        let no = refusal(&at_base, compile(&fewer));
        assert!(no.contains("follower supplies differ"), "{no}");
        let mut two = base.clone();
        two.max_players = 2;
        let no = refusal(&at_base, compile(&two));
        assert!(no.contains("not 3"), "{no}");
        let mut bigger = base.clone();
        bigger.deck[0].count += 1;
        let no = refusal(&at_base, compile(&bigger));
        assert!(no.starts_with("the packs differ"), "{no}");
    }

    fn load_path(path: &str) -> crate::ruleset::Ruleset {
        crate::dsl::load_ruleset(Path::new(path))
            .unwrap_or_else(|d| panic!("{d}"))
            .ruleset
    }

    /// The options an expansion keeps in its state are read from the rules the position moved
    /// onto: a game swapped onto the house rule before its first draw plays exactly as a game
    /// dealt under the house rule, and unlike the rulebook's game.
    #[test]
    fn a_swapped_position_plays_under_the_new_options() {
        let rulebook = compile(&load("inns-c2"));
        let house = compile(&load_path(
            "examples/variants/inns-c2-unfinished-count.rules",
        ));
        let mut differs = 0;
        for seed in 1..=4 {
            let at_start = part_way(&rulebook, seed, 0, 0);
            let swapped = at_start.with_rules(house.clone()).expect("same position");
            let dealt_under_house = part_way(&house, seed, 0, 0);
            let (a, b) = (finish(swapped), finish(dealt_under_house));
            assert_eq!(a, b, "seed {seed}");
            differs += usize::from(a != finish(at_start));
        }
        assert!(differs > 0, "the house rule never changed a keyed game");
    }

    #[test]
    fn other_follower_kind_supplies_are_refused() {
        let with = compile(&load("traders-c2"));
        let without = compile(&load_path("examples/variants/traders-c2-no-builder.rules"));
        let no = refusal(&part_way(&with, 1, 5, 0), without);
        assert!(no.contains("the builder supplies differ: 1 in"), "{no}");
    }
}
