//! The dummy expansion (the Scouts, `engine::expansions::dummy` and `import::dummy`, built by
//! `cargo test` through the `test-dummy` feature): what an expansion adds through its module
//! and the registration lines only reaches the rest of meeplab. Its option (`dummy.scouts`)
//! is read by the rule language; its decision (send a scout, a yes/no flag) is asked at the
//! figure step and, taken, replaces the follower; the scout stands on another tile than the
//! one placed; its value hint guides the greedy policy; its event is in the turn log; its
//! counter is in compare's report; its glyph is on the SVG board; its JCloisterZone element
//! (`dummy-scouts`) sets the option in the mapped ruleset. "Adding an expansion" in
//! `src/engine/expansions/mod.rs` is what this test does.
//!
//! Seats: 0 = ALICE, 1 = BOB. The start tile BA/RCr is at (0,0) rot 0 (city cap N, road W–E,
//! a field S); a cloister BA/L south of it, at (0,1), has only fields around its cloister, so
//! the scout's spot is on the start tile: its city (segment order), which is open.

use crate::cli_support;
use crate::scenario_support::*;

use meeplab::engine::expansions::dummy::{SCOUTS, SCOUT_LANDED, SEND_SCOUT};
use meeplab::engine::{Choice, Compiled, DecisionKind, Event, FollowerKind};
use meeplab::render::board_svg::board_svg;
use meeplab::render::narrate;
use std::path::Path;
use std::sync::Arc;

const ALICE: u8 = 0;
const BOB: u8 = 1;

/// The base game with `scouts` scouts a game (the dummy's option set).
fn with_scouts(scouts: u32) -> Arc<Compiled> {
    load_str(
        "scouts",
        &format!(
            "ruleset \"Base with scouts (test)\"\nextends \"rulesets/base.rules\"\n\
             dummy.scouts = {scouts}  source \"test\"\n"
        ),
    )
}

fn send(player: u8, yes: bool) -> Exp {
    exp(SEND_SCOUT, player, Choice::Flag { yes })
}

/// Where the turn's followers were placed: (player, x, y, kind).
fn placed(events: &[Event]) -> Vec<(u8, i32, i32, FollowerKind)> {
    events
        .iter()
        .filter_map(|e| match *e {
            Event::FollowerPlaced {
                player, x, y, kind, ..
            } => Some((player, x, y, kind)),
            _ => None,
        })
        .collect()
}

/// Without the option the dummy takes no part: the base game asks no scout.
#[test]
fn without_its_option_the_dummy_takes_no_part() {
    let mut s = Scen::new(&load("base"), 2);
    s.play(ALICE, "BA/L", (0, 1, 0), None);
    assert!(s.asked(SEND_SCOUT).is_empty());
    assert_eq!(s.game.outcome().counters.get(SCOUTS), 0);
}

/// The option: its key, type and default are the rule language's, its value reaches the game.
#[test]
fn its_option_is_read_by_the_rule_language() {
    let rules = with_scouts(3);
    assert_eq!(rules.rules.ext_int("dummy.scouts"), Some(3));
    let bad = meeplab::dsl::load_ruleset_str(
        "bad",
        "ruleset \"x\"\nextends \"rulesets/base.rules\"\ndummy.scouts = 12\n",
    );
    assert!(bad.is_err(), "12 is outside 0..9");
}

/// The decision is asked at the figure step (no, yes); taken, the scout stands on another
/// tile than the one placed, no follower decision follows, the event is in the log, the
/// counter counts it and the board draws its glyph.
#[test]
fn a_scout_is_sent_to_another_tile_instead_of_the_follower() {
    let mut s = Scen::new(&with_scouts(1), 2);
    let supply = s.game.supply(ALICE);
    let ev = s.play_only(ALICE, "BA/L", (0, 1, 0), &[send(ALICE, true)]);
    let asked = s.asked(SEND_SCOUT);
    assert_eq!(asked.len(), 1);
    assert_eq!(
        asked[0].options,
        vec![Choice::Flag { yes: false }, Choice::Flag { yes: true }]
    );
    assert!(
        s.asked(DecisionKind::FOLLOWER).is_empty(),
        "the figure action is taken"
    );
    // a follower on the start tile (0,0), not on the cloister placed at (0,1)
    assert_eq!(placed(&ev), vec![(ALICE, 0, 0, FollowerKind::PLAIN)]);
    assert_eq!(s.game.supply(ALICE), supply - 1);
    let landed: Vec<_> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Expansion(x) if x.kind == SCOUT_LANDED => {
                Some(x.values[..x.spec().fields.len()].to_vec())
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        landed,
        vec![vec![1, 0, 0, 0, 0]],
        "turn 1, Alice, (0,0), segment 0"
    );
    let log = narrate::log(&s.game.rules().rules, &s.events);
    assert!(log.contains("sends a scout to (0,0)"), "{log}");
    assert_eq!(s.game.outcome().counters.get(SCOUTS), 1);
    let svg = board_svg(&s.game, "scouts");
    assert!(svg.contains("<title>scout landing</title>"), "{svg}");
    assert!(svg.contains("#8e24aa"), "the glyph's colour");
    assert!(
        svg.contains("scout landing (the test-only dummy expansion)"),
        "the legend"
    );
    // the one scout of the game is spent: Bob is not asked
    s.play(BOB, "BA/L", (-1, 1, 0), None);
    assert_eq!(s.asked(SEND_SCOUT).len(), 1);
}

/// Its valuation reaches the policies: the decision's value hint (its `Valuation`: 0 to keep
/// the follower, 1 to send a scout) is what `Game::value_hint` answers, and the greedy player,
/// who takes the best hint, sends the game's one scout the first time it is asked.
#[test]
fn its_value_hint_reaches_the_greedy_policy() {
    use meeplab::engine::Chooser;
    struct Watch {
        greedy: meeplab::policy::Policy,
        asked: Vec<(Vec<i64>, usize)>,
    }
    impl Chooser for Watch {
        fn choose(&mut self, game: &meeplab::engine::Game, d: &meeplab::engine::Decision) -> usize {
            let i = self.greedy.choose(game, d);
            if d.kind == SEND_SCOUT {
                let hints = (0..d.options)
                    .map(|k| game.value_hint(d.kind, k, d.player))
                    .collect();
                self.asked.push((hints, i));
            }
            i
        }
    }
    for seed in 1..=3 {
        let mut watch = Watch {
            greedy: meeplab::policy::Policy::new(meeplab::policy::PolicyKind::Greedy),
            asked: Vec::new(),
        };
        let mut game = meeplab::engine::Game::new(with_scouts(1), seed, 2);
        let out = game.play(&mut watch, &mut meeplab::engine::NoEvents);
        assert_eq!(
            watch.asked,
            vec![(vec![0, 1], 1)],
            "seed {seed}: asked once, sent"
        );
        assert_eq!(out.counters.get(SCOUTS), 1, "seed {seed}");
    }
}

/// Declined, the turn goes on to the follower decision as usual.
#[test]
fn a_scout_declined_leaves_the_follower_step() {
    let mut s = Scen::new(&with_scouts(1), 2);
    let ev = s.play_with(ALICE, "BA/L", (0, 1, 0), Some(0), &[send(ALICE, false)]);
    assert_eq!(placed(&ev), vec![(ALICE, 0, 1, FollowerKind::PLAIN)]);
    assert_eq!(s.game.outcome().counters.get(SCOUTS), 0);
    assert!(!narrate::log(&s.game.rules().rules, &s.events).contains("scout"));
}

/// The counter reaches compare's report: `report.json`'s means and `report.md`'s table of
/// the expansions' counters.
#[test]
fn its_counter_is_in_compares_report() {
    let dir = tempfile::tempdir().expect("tempdir");
    let rules = dir.path().join("scouts.rules");
    let base = format!("{}/rulesets/base.rules", env!("CARGO_MANIFEST_DIR"));
    std::fs::write(
        &rules,
        format!(
            "ruleset \"Base with scouts (test)\"\nextends \"{base}\"\n\
             dummy.scouts = 2  source \"test\"\n"
        ),
    )
    .expect("write the ruleset");
    let out = dir.path().join("out");
    let o = cli_support::meeplab(&[
        "compare",
        &base,
        rules.to_str().expect("utf-8 path"),
        "--games",
        "20",
        "--out",
        out.to_str().expect("utf-8 path"),
    ]);
    let (_, err) = cli_support::text(&o);
    assert!(o.status.success(), "{err}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).expect("json"))
            .expect("report.json is JSON");
    let mean = |i: usize| json["per_ruleset"][i]["mean_counters"]["dummy_scouts"].as_f64();
    assert_eq!(mean(0), Some(0.0));
    let m = mean(1).expect("the counter in report.json");
    assert!(m > 0.0 && m <= 2.0, "{m}");
    let md = std::fs::read_to_string(out.join("report.md")).expect("report.md");
    assert!(
        md.contains("scouts sent (the test-only dummy expansion)"),
        "{md}"
    );
}

/// A JCloisterZone save written by hand (the structure the importer reads: set-up with sets,
/// elements, rules and the start tile; players; a message log), with the made-up element
/// `dummy-scouts`.
fn save(elements: &str) -> String {
    format!(
        r#"{{
  "appVersion": "5.9.0",
  "gameId": "dummy",
  "name": "scouts",
  "initialRandom": 0.0,
  "setup": {{
    "sets": {{ "basic:1": 1 }},
    "elements": {{ "small-follower": 7, "farmers": true{elements} }},
    "rules": {{}},
    "start": [{{ "tile": "BA/RCr", "x": 0, "y": 0, "rotation": 0 }}]
  }},
  "players": [{{ "name": "Alice", "slot": 0 }}, {{ "name": "Bob", "slot": 1 }}],
  "replay": []
}}"#
    )
}

/// Parse a hand-written save and map its set-up to the rule-language text.
fn mapped(elements: &str) -> Result<(String, String), String> {
    let v = meeplab::import::jcz::parse_json(&save(elements)).map_err(|e| e.text)?;
    let g = meeplab::import::jcz::parse(&v).map_err(|e| e.text)?;
    let text = meeplab::import::jcz::ruleset_text(&g.setup, Path::new("rulesets"))?;
    let ruleset = meeplab::import::jcz::load_ruleset(&g.setup, Path::new("rulesets"))?;
    let scouts = ruleset.ext_int("dummy.scouts").map(|n| n.to_string());
    Ok((text, scouts.unwrap_or_default()))
}

/// The element sets the option in the mapped ruleset; without it nothing changes; a count
/// out of range is refused.
#[test]
fn its_jcloisterzone_element_sets_the_option() {
    let (text, scouts) = mapped(r#", "dummy-scouts": 2"#).unwrap_or_else(|e| panic!("{e}"));
    assert!(text.contains("dummy.scouts = 2"), "{text}");
    assert!(text.contains("+ 2 scouts"), "the label: {text}");
    assert_eq!(scouts, "2");
    let (text, scouts) = mapped("").unwrap_or_else(|e| panic!("{e}"));
    assert!(!text.contains("dummy"), "{text}");
    assert_eq!(scouts, "");
    let err = mapped(r#", "dummy-scouts": "many""#).expect_err("not a count");
    assert!(err.contains("dummy-scouts"), "{err}");
}
