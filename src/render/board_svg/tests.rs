//! Tests of the SVG board: the robbers' score track and robbers, the expansions' legend lines
//! around the river's, the river and its legend,
//! a base board's grid and legend, and the Big Box's pieces (each kind of follower in its
//! glyph, goods, inns and cathedrals) with their legend lines and the goods held.

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

/// The expansions' legend lines (`Presentation::board_legend`) keep the order the legend always
/// had: the gold's and the robbers' before the river's line, the crop circle's after it.
#[test]
fn the_expansions_legend_lines_sit_around_the_river_line() {
    let game = play_turns(&rules("bigbox6"), 1, 2, PolicyKind::Greedy, 6);
    let svg = board_svg(&game, "t");
    let at = |text: &str| {
        svg.find(&format!(">{text}<"))
            .unwrap_or_else(|| panic!("no legend line {text}"))
    };
    let order = [
        at("gold-mine tile"),
        at("ingot on the tile"),
        at("ingot left on the tile at the end"),
        at("robber tile"),
        at("robber on the score track"),
        at("river (splits the fields; nobody stands on it)"),
        at("crop circle"),
    ];
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
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

/// A Big Box position (3 players, greedy, 38 turns) with a large follower, a builder and a
/// pig on the board, goods both in open and in completed cities, an inn and a cathedral.
fn bigbox_position() -> crate::engine::Game {
    play_turns(&rules("bigbox"), 2, 3, PolicyKind::Greedy, 38)
}

#[test]
fn each_kind_of_follower_has_its_own_glyph_tooltip_and_legend_line() {
    use crate::engine::expansions::inns::LARGE_FOLLOWER;
    use crate::engine::expansions::traders::{BUILDER, PIG};
    let game = bigbox_position();
    let svg = board_svg(&game, "bigbox");
    for kind in [LARGE_FOLLOWER, BUILDER, PIG] {
        let on_board: Vec<_> = game.followers().iter().filter(|f| f.kind == kind).collect();
        assert!(
            !on_board.is_empty(),
            "the position has a {kind} on the board"
        );
        for f in on_board {
            let colour = SEAT_COLOURS[f.player as usize];
            let drawn = glyph(kind.spec().glyph, colour);
            assert!(svg.contains(&drawn), "{kind} drawn in its owner's colour");
            let tooltip = format!("<title>{}'s {kind} on a ", seat_name(f.player));
            assert!(svg.contains(&tooltip), "{tooltip}");
        }
    }
    // the builder and the pig weigh alike but look different, and unlike a follower's disc
    let (builder, pig) = (BUILDER.spec().glyph, PIG.spec().glyph);
    assert_ne!(builder, pig);
    assert_ne!(glyph(builder, SEAT_COLOURS[0]), glyph(pig, SEAT_COLOURS[0]));
    for g in [builder, pig, LARGE_FOLLOWER.spec().glyph] {
        assert_ne!(g, Glyph::Follower);
    }
    for line in [
        ">large follower (weighs 2 in a majority)<",
        ">builder (weighs nothing in a majority)<",
        ">pig (weighs nothing in a majority)<",
    ] {
        assert!(svg.contains(line), "legend line {line}");
    }
}

#[test]
fn the_legend_names_only_the_kinds_of_follower_dealt() {
    let inns = crate::engine::Game::new(rules("inns-c2"), 1, 2);
    let svg = board_svg(&inns, "inns");
    assert!(svg.contains(">large follower (weighs 2 in a majority)<"));
    assert!(!svg.contains(">builder (") && !svg.contains(">pig ("));
    let no_builder =
        crate::dsl::load_ruleset(Path::new("examples/variants/traders-c2-no-builder.rules"))
            .unwrap_or_else(|d| panic!("{d}"));
    let game = crate::engine::Game::new(crate::engine::compile(&no_builder.ruleset), 1, 2);
    let svg = board_svg(&game, "no builder");
    assert!(svg.contains(">pig (weighs nothing in a majority)<"));
    assert!(!svg.contains(">builder (") && !svg.contains(">large follower ("));
    let base = board_svg(&crate::engine::Game::new(rules("base"), 1, 2), "base");
    assert!(!base.contains("weighs") && !base.contains(">wine in a city"));
}

#[test]
fn goods_show_on_their_cities_hollow_once_handed_out_and_held_in_the_table() {
    let game = bigbox_position();
    let svg = board_svg(&game, "bigbox");
    let goods: Vec<_> = game
        .expansion_pieces()
        .into_iter()
        .filter(|p| matches!(p.glyph, Glyph::Token { .. }))
        .collect();
    // one symbol a goods-marked city segment of the placed tiles
    use crate::engine::expansions::traders::Traders;
    use crate::engine::hooks::segment_mark_of;
    let goods_marks = (0..3).fold(0, |m, i| m | segment_mark_of::<Traders>(i));
    let marked: usize = game
        .placed_tiles()
        .iter()
        .map(|t| {
            game.rules().tiles[t.tile as usize]
                .segments
                .iter()
                .filter(|s| s.kind == FeatureKind::City && s.marks & goods_marks != 0)
                .count()
        })
        .sum();
    assert!(marked > 0);
    assert_eq!(goods.len(), marked);
    let hollow = goods
        .iter()
        .filter(|p| matches!(p.glyph, Glyph::Token { hollow: true, .. }))
        .count();
    assert!(
        hollow > 0 && hollow < goods.len(),
        "open and completed cities"
    );
    for p in &goods {
        assert!(svg.contains(&glyph(p.glyph, "none")));
        assert!(svg.contains(&format!("<title>{}</title>", escape(&p.note))));
    }
    let letters: Vec<char> = ["W", "G", "C"]
        .iter()
        .filter_map(|l| l.chars().next())
        .collect();
    for (good, letter) in ["wine", "grain", "cloth"].iter().zip(letters) {
        assert!(svg.contains(&format!(">{good} in a city (Traders &amp; Builders)<")));
        assert!(
            svg.contains(&format!(">{letter}</text>")),
            "{good} marked {letter}"
        );
    }
    assert!(svg.contains(">goods of a completed city (handed out)<"));
    // the goods each seat holds, after the points in the score table
    let header = svg
        .lines()
        .find(|l| l.contains("font-weight=\"bold\" font-family=\"monospace\""))
        .unwrap_or_default();
    assert!(header.contains("wine  grain  cloth  total"), "{header}");
    let taken: i64 = (0..3u8)
        .flat_map(|p| game.expansion_seat_columns(p))
        .map(|(_, n)| n)
        .sum();
    assert_eq!(
        taken as usize, hollow,
        "a token per symbol of a completed city"
    );
    for p in 0..3u8 {
        let mut row = String::new();
        for (name, n) in game.expansion_seat_columns(p) {
            row += &format!("  {n:>w$}", w = name.len().max(4));
        }
        row += &format!("  {:>5}", game.scores()[p as usize]);
        let line = svg
            .lines()
            .find(|l| l.contains(&format!(">{:<8}", seat_name(p))))
            .unwrap_or_default();
        assert!(line.contains(&format!("{row}</text>")), "{line} ~ {row}");
    }
}

#[test]
fn inns_and_cathedrals_stand_beside_their_road_or_city_and_are_in_the_legend() {
    use crate::engine::spots::mark_spot;
    let game = bigbox_position();
    let svg = board_svg(&game, "bigbox");
    let pieces = game.expansion_pieces();
    for (g, text) in [
        (
            Glyph::Drawn(&crate::engine::expansions::inns::INN_ART),
            ">inn (Inns &amp; Cathedrals)<",
        ),
        (
            Glyph::Drawn(&crate::engine::expansions::inns::CATHEDRAL_ART),
            ">cathedral (Inns &amp; Cathedrals)<",
        ),
    ] {
        let at: Vec<_> = pieces.iter().filter(|p| p.glyph == g).collect();
        assert!(!at.is_empty(), "{g:?} on the board");
        assert!(svg.contains(text), "legend {text}");
        // filled alike on the board and in the legend
        assert!(svg.contains(&format!(
            "<g transform=\"translate(8 6) scale(0.6)\">{}</g>",
            glyph(g, MARK_FILL)
        )));
        for p in at {
            assert!(svg.contains(&glyph(g, MARK_FILL)));
            // inside its tile, clear of the tile's edges
            let (fx, fy) = (p.x - p.x.floor(), p.y - p.y.floor());
            assert!(
                (0.1..0.9).contains(&fx) && (0.1..0.9).contains(&fy),
                "{p:?}"
            );
        }
    }
    // a road on the west edge: its mark 0.36 in from the edge, 0.22 to one side of its middle
    let rules = rules("inns-c2");
    let (tile, seg) = rules
        .tiles
        .iter()
        .enumerate()
        .find_map(|(i, t)| {
            let seg = (0..t.segments.len()).find(|&k| t.rotations[0].seg_sides[k] == 0b1000)?;
            Some((i, seg))
        })
        .unwrap_or_default();
    let placed = crate::engine::PlacedTile {
        tile: tile as _,
        rot: 0,
        x: 2,
        y: -1,
        node0: 0,
        cloister_done: false,
    };
    let (x, y) = mark_spot(&rules, &placed, seg as u8, 0.36, 0.22);
    assert!((x - 2.36).abs() < 1e-9, "{x}");
    assert!(
        [-0.72, -0.28].iter().any(|&want| (y - want).abs() < 1e-9),
        "{y}"
    );
}

#[test]
fn the_big_box_draws_its_river_with_its_legend_line() {
    let game = bigbox_position();
    let svg = board_svg(&game, "bigbox");
    assert!(svg.contains(&format!("stroke=\"{RIVER}\" stroke-width=\"9\"")));
    assert!(svg.contains(">river (splits the fields; nobody stands on it)<"));
}

#[test]
fn the_marks_of_inns_cathedrals_and_goods_stand_clear_of_where_followers_go() {
    // whole Big Box games: every mark on a tile a fifth of a tile or more from each spot a
    // follower or farmer of that tile is drawn on, and off its roads
    for seed in 1..=4 {
        let game = play_turns(&rules("bigbox"), seed, 4, PolicyKind::Greedy, 200);
        marks_stand_clear(&game);
    }
}

/// Every expansion mark on `game`'s board a fifth of a tile or more from each follower's
/// spot on its tile, and clear of its roads.
fn marks_stand_clear(game: &crate::engine::Game) {
    let pieces = game.expansion_pieces();
    assert!(pieces.len() > 20, "inns, cathedrals and goods on the board");
    for p in &pieces {
        let (x, y) = (p.x.floor() as i32, p.y.floor() as i32);
        let Some(pidx) = game.tile_at(x, y) else {
            panic!("{p:?} off the tiles");
        };
        let t = game.placed_tiles()[pidx];
        let tt = &game.rules().rules.tiles[t.tile as usize];
        for f in &tt.features {
            let (ux, uy) = follower_spot(
                f.kind,
                rotate_side_mask(f.sides, t.rot),
                rotate_half_mask(f.halves, t.rot),
            );
            let d = ((p.x - x as f64 - ux).powi(2) + (p.y - y as f64 - uy).powi(2)).sqrt();
            assert!(
                d >= 0.2,
                "{} at {d:.2} from a {} spot on {}",
                p.note,
                f.kind,
                tt.id
            );
            // and off the roads as drawn
            let mut road = Vec::new();
            if f.kind == FeatureKind::Road {
                crate::engine::spots::road_points(rotate_side_mask(f.sides, t.rot), &mut road);
            }
            for (rx, ry) in road {
                let d = ((p.x - x as f64 - rx).powi(2) + (p.y - y as f64 - ry).powi(2)).sqrt();
                assert!(d >= 0.14, "{} at {d:.2} from a road on {}", p.note, tt.id);
            }
        }
    }
}

/// A title longer than the board is wide is wrapped, never cut (issue 43: "… 1st edition
/// (20…").
#[test]
fn a_long_title_is_wrapped_whole() {
    let game = play_turns(&rules("base"), 5, 2, PolicyKind::Random, 3);
    let title =
        "A, end of turn 21: Gold Mines — Hans im Glück, 1st edition (2012), with a longer name";
    let svg = board_svg(&game, title);
    assert!(!svg.contains('…'), "{svg}");
    let lines: Vec<&str> = svg
        .lines()
        .filter(|l| {
            l.starts_with("<text x=\"20\" y=\"17\"") || l.starts_with("<text x=\"20\" y=\"35\"")
        })
        .collect();
    assert_eq!(lines.len(), 2, "{svg}");
    let text: Vec<&str> = lines
        .iter()
        .map(|l| l.split('>').nth(1).unwrap().trim_end_matches("</text"))
        .collect();
    assert_eq!(text.join(" "), title.replace('&', "&amp;"));
    let short = board_svg(&game, "B, end of turn 3: base");
    assert!(short.contains(r#"<text x="20" y="24" font-size="16">B, end of turn 3: base</text>"#));
}
