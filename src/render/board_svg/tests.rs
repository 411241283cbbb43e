//! Tests of the SVG board: the robbers' score track and robbers, the river and its legend,
//! a base board's grid and legend.

use super::*;
use crate::play::play_turns;
use crate::policy::PolicyKind;
use std::path::Path;

fn rules(name: &str) -> std::sync::Arc<crate::engine::Compiled> {
    let loaded = crate::dsl::load_ruleset(Path::new(&format!("rulesets/{name}.rules")))
        .unwrap_or_else(|d| panic!("{d}"));
    crate::engine::compile(&loaded.ruleset)
}

#[test]
fn a_robbers_board_shows_the_score_track_and_each_robber() {
    let mut game = play_turns(&rules("robbers-2012"), 5, 3, PolicyKind::Greedy, 20);
    game.set_robber_for_test(1, Some(7));
    game.set_robber_for_test(2, None);
    let svg = board_svg(&game, "t");
    assert!(svg.contains("score track (robbers stand on its spaces)"));
    assert!(
        svg.contains("<title>Blue robber on space 7</title>"),
        "{svg}"
    );
    assert!(svg.contains("robbers in supply:") && svg.contains("Yellow"));
    assert!(svg.contains(">robber on the score track<"), "legend entry");
}

#[test]
fn a_river_board_draws_the_river_and_its_legend() {
    let mut g = crate::engine::Game::new(rules("river"), 1, 2);
    g.setup(&mut crate::engine::NoEvents);
    let svg = board_svg(&g, "river");
    assert!(svg.contains(RIVER), "the spring's river is drawn");
    assert!(svg.contains(">river (splits the fields; nobody stands on it)<"));
    let plain = crate::engine::Game::new(rules("base"), 1, 2);
    assert!(!board_svg(&plain, "base").contains(">river ("));
}

#[test]
fn a_base_board_has_a_grid_and_a_legend_without_gold_or_robbers() {
    let game = play_turns(&rules("base"), 5, 2, PolicyKind::Random, 10);
    let svg = board_svg_highlighted(&game, "t", &[(0, 0)]);
    let (minx, maxx) = game
        .placed_tiles()
        .iter()
        .fold((0, 0), |(a, b), t| (a.min(t.x), b.max(t.x)));
    for x in minx..=maxx {
        assert!(
            svg.contains(&format!("text-anchor=\"middle\">{x}</text>")),
            "column {x} numbered"
        );
    }
    assert!(svg.contains(">legend<") && svg.contains(">the tile of the turn shown<"));
    assert!(!svg.contains("score track") && !svg.contains(">gold-mine tile<"));
}
