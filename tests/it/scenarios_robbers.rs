//! The Robbers scenarios: the two worked examples of the Spanish HiG/Devir rulebook
//! (seeds/002), then who places a robber under each edition's wording, moving one's own
//! robber, where a robber may stand, two markers scoring on one space, the 50-space track
//! and robbers at final scoring.
//!
//! Seats: 0 = RED, 1 = BLUE, 2 = YELLOW, 3 = GREEN (the rulebook's turn order). Score
//! markers and robbers are put in place with the test-support setters; points come from
//! real scorings on the board.

use crate::scenario_support;

use meeplab::engine::expansions::robbers;
use meeplab::engine::{Choice, DecisionKind, Event};
use scenario_support::*;

const RED: u8 = 0;
const BLUE: u8 = 1;
const YELLOW: u8 = 2;
const GREEN: u8 = 3;

fn robbed(events: &[Event]) -> Vec<(u8, u8, i64)> {
    events
        .iter()
        .filter_map(|e| {
            e.of(robbers::ROBBED)
                .map(|v| (v[1] as u8, v[2] as u8, v[3]))
        })
        .collect()
}

fn carried(events: &[Event]) -> Vec<(u8, u32, u32)> {
    events
        .iter()
        .filter_map(|e| {
            e.of(robbers::ROBBER_CARRIED)
                .map(|v| (v[1] as u8, v[2] as u32, v[3] as u32))
        })
        .collect()
}

fn placed_robbers(events: &[Event]) -> Vec<(u8, u32, bool)> {
    events
        .iter()
        .filter_map(|e| {
            e.of(robbers::ROBBER_PLACED)
                .map(|v| (v[1] as u8, v[2] as u32, v[3] != 0))
        })
        .collect()
}

fn set_scores(s: &mut Scen, scores: &[i64]) {
    for (p, &v) in scores.iter().enumerate() {
        s.game.set_score_for_test(p as u8, v);
    }
}

/// A 5-tile road for RED, one tile from complete: junction (-1,0), start, (1,0) [RED's
/// thief], (2,0); a junction at (3,0) completes it for 5 points.
fn red_road_of_five(rules: &str, players: u8) -> Scen {
    let mut s = Scen::new(&load(rules), players);
    s.play(RED, "BA/RRR", (-1, 0, 0), None);
    s.play(RED, "BA/RFr", (1, 0, 0), Some(0));
    s.play(RED, "BA/RFr", (2, 0, 0), None);
    s
}

/// Example 1: RED scores 5 while BLUE's robber stands on RED's space: BLUE also scores 3
/// (half, rounded up) and its robber goes home. YELLOW's robber, on BLUE's space, is not
/// paid for those robber points: it moves along with BLUE's marker.
fn example_1() -> (Scen, Vec<Event>) {
    let mut s = red_road_of_five("robbers-2012", 4);
    set_scores(&mut s, &[10, 12, 0, 30]);
    s.game.set_robber_for_test(BLUE, Some(10));
    s.game.set_robber_for_test(YELLOW, Some(12));
    let ev = s.play(RED, "BA/RRR", (3, 0, 0), None);
    (s, ev)
}

#[test]
fn example_1_blue_robs_red_yellow_moves_along() {
    let (s, ev) = example_1();
    assert_eq!(robbed(&ev), vec![(BLUE, RED, 3)]);
    assert_eq!(carried(&ev), vec![(YELLOW, 12, 15)]);
    assert_eq!(s.scores(), vec![15, 15, 0, 30]);
    assert_eq!(
        s.cat(BLUE, meeplab::engine::expansions::robbers::ROBBERS),
        3
    );
    assert_eq!(
        s.cat(YELLOW, meeplab::engine::expansions::robbers::ROBBERS),
        0
    );
    assert_eq!(s.game.robbers(), &[None, None, Some(15), None]);
}

/// …then YELLOW's robber, now on a space with both RED's and BLUE's markers, robs
/// whichever of them scores next: here BLUE.
#[test]
fn example_1_then_yellow_robs_blue_next() {
    let (mut s, _) = example_1();
    let ev = s.play(BLUE, "BA/C", (0, -1, 2), Some(0)); // BLUE's 2-tile city: 4
    assert_eq!(robbed(&ev), vec![(YELLOW, BLUE, 2)]);
    assert_eq!(s.scores(), vec![15, 19, 2, 30]);
    assert_eq!(s.game.robbers(), &[None, None, None, None]);
}

/// …or RED, if RED scores first.
#[test]
fn example_1_then_yellow_robs_red_next() {
    let (mut s, _) = example_1();
    let ev = s.play(RED, "BA/C", (0, -1, 2), Some(0));
    assert_eq!(robbed(&ev), vec![(YELLOW, RED, 2)]);
    assert_eq!(s.scores(), vec![19, 15, 2, 30]);
}

/// Example 2: BLUE scores 4 with RED's and GREEN's robbers on its space: RED and GREEN
/// score 2 each and both robbers go home.
#[test]
fn example_2_two_robbers_on_one_marker() {
    let mut s = Scen::new(&load("robbers-2012"), 4);
    set_scores(&mut s, &[20, 7, 0, 30]);
    s.game.set_robber_for_test(RED, Some(7));
    s.game.set_robber_for_test(GREEN, Some(7));
    let ev = s.play(BLUE, "BA/C", (0, -1, 2), Some(0));
    let mut r = robbed(&ev);
    r.sort();
    assert_eq!(r, vec![(RED, BLUE, 2), (GREEN, BLUE, 2)]);
    assert_eq!(s.scores(), vec![22, 11, 0, 32]);
    assert_eq!(s.game.robbers(), &[None, None, None, None]);
}

/// The rulebook's placement example: RED draws a robber tile and places its robber; BLUE's
/// and YELLOW's robbers are already on the track, so GREEN (the next with a robber in
/// supply) may place too — nobody else. Placement is after the tile, before the follower.
#[test]
fn placement_2012_next_player_with_robber() {
    let mut s = Scen::new(&load("robbers-2012"), 4);
    set_scores(&mut s, &[5, 10, 15, 20]);
    s.game.set_robber_for_test(BLUE, Some(5));
    s.game.set_robber_for_test(YELLOW, Some(10));
    let ev = s.play_with(
        RED,
        "RO/RFr",
        (1, 0, 0),
        None,
        &[robber(RED, Some(20)), robber(GREEN, Some(5))],
    );
    let asked = s.asked(meeplab::engine::expansions::robbers::ROBBER_PLACE);
    let who: Vec<u8> = asked.iter().map(|a| a.player).collect();
    assert_eq!(who, vec![RED, GREEN]);
    let sp = |v: &[Option<u32>]| -> Vec<Choice> {
        v.iter().map(|&space| Choice::Track { space }).collect()
    };
    assert_eq!(asked[0].options, sp(&[None, Some(10), Some(15), Some(20)]));
    assert_eq!(asked[1].options, sp(&[None, Some(5), Some(10), Some(15)]));
    assert_eq!(
        placed_robbers(&ev),
        vec![(RED, 20, false), (GREEN, 5, false)]
    );
    let order: Vec<DecisionKind> = s.log.iter().map(|a| a.kind).collect();
    assert_eq!(
        order,
        vec![
            DecisionKind::PLACEMENT,
            meeplab::engine::expansions::robbers::ROBBER_PLACE,
            meeplab::engine::expansions::robbers::ROBBER_PLACE,
            DecisionKind::FOLLOWER
        ]
    );
}

/// Only BLUE's robber out: HiG 2012 lets YELLOW (the next with a robber) place after RED,
/// and no one else; the Z-Man wording lets every other player with a robber place.
#[test]
fn placement_2012_vs_zmg() {
    for (name, want) in [
        ("robbers-2012", vec![RED, YELLOW]),
        ("robbers-zmg", vec![RED, YELLOW, GREEN]),
    ] {
        let mut s = Scen::new(&load(name), 4);
        set_scores(&mut s, &[5, 10, 15, 20]);
        s.game.set_robber_for_test(BLUE, Some(5));
        s.play(RED, "RO/RFr", (1, 0, 0), None);
        let who: Vec<u8> = s
            .asked(meeplab::engine::expansions::robbers::ROBBER_PLACE)
            .iter()
            .map(|a| a.player)
            .collect();
        assert_eq!(who, want, "{name}");
    }
    // nobody's robber out: 2012 → RED and BLUE only
    let mut s = Scen::new(&load("robbers-2012"), 4);
    set_scores(&mut s, &[5, 10, 15, 20]);
    s.play(RED, "RO/RFr", (1, 0, 0), None);
    let who: Vec<u8> = s
        .asked(meeplab::engine::expansions::robbers::ROBBER_PLACE)
        .iter()
        .map(|a| a.player)
        .collect();
    assert_eq!(who, vec![RED, BLUE]);
}

/// 2025 edition: before the tile is placed, every player from the active one clockwise.
#[test]
fn placement_2025_everyone_from_active_before_the_tile() {
    let mut s = Scen::new(&load("robbers-2025"), 4);
    set_scores(&mut s, &[5, 10, 15, 20]);
    let ev = s.play_with(
        BLUE,
        "RO/RFr",
        (1, 0, 0),
        None,
        &[
            robber(BLUE, Some(5)),
            robber(YELLOW, Some(10)),
            robber(GREEN, None),
            robber(RED, Some(20)),
        ],
    );
    let order: Vec<(DecisionKind, u8)> = s.log.iter().map(|a| (a.kind, a.player)).collect();
    assert_eq!(
        order,
        vec![
            (meeplab::engine::expansions::robbers::ROBBER_PLACE, BLUE),
            (meeplab::engine::expansions::robbers::ROBBER_PLACE, YELLOW),
            (meeplab::engine::expansions::robbers::ROBBER_PLACE, GREEN),
            (meeplab::engine::expansions::robbers::ROBBER_PLACE, RED),
            (DecisionKind::PLACEMENT, BLUE),
            (DecisionKind::FOLLOWER, BLUE),
        ]
    );
    assert_eq!(
        placed_robbers(&ev),
        vec![(BLUE, 5, false), (YELLOW, 10, false), (RED, 20, false)]
    );
    assert_eq!(s.game.robbers(), &[Some(20), Some(5), Some(10), None]);
}

/// The active player whose robber is on the track may move it.
#[test]
fn active_player_moves_own_robber() {
    let mut s = Scen::new(&load("robbers-2012"), 4);
    set_scores(&mut s, &[5, 10, 15, 20]);
    s.game.set_robber_for_test(RED, Some(10));
    s.game.set_robber_for_test(BLUE, Some(5));
    s.game.set_robber_for_test(YELLOW, Some(5));
    s.game.set_robber_for_test(GREEN, Some(5));
    let ev = s.play_with(RED, "RO/RFr", (1, 0, 0), None, &[robber(RED, Some(15))]);
    assert_eq!(placed_robbers(&ev), vec![(RED, 15, true)]);
    assert_eq!(s.game.robbers()[RED as usize], Some(15));
    assert_eq!(
        s.asked(meeplab::engine::expansions::robbers::ROBBER_PLACE)
            .len(),
        1
    );
}

/// A robber only goes on a space holding another player's marker: never on a space with
/// only its owner's marker or no marker, but on a shared one.
#[test]
fn robber_only_beside_another_players_marker() {
    let mut s = Scen::new(&load("robbers-2012"), 4);
    set_scores(&mut s, &[7, 5, 15, 15]);
    s.play(RED, "RO/RFr", (1, 0, 0), None);
    let asked = s.asked(meeplab::engine::expansions::robbers::ROBBER_PLACE);
    let opts: Vec<Choice> = asked[0].options.clone();
    assert_eq!(
        opts,
        vec![
            Choice::Track { space: None },
            Choice::Track { space: Some(5) },
            Choice::Track { space: Some(15) }
        ]
    );
    // BLUE shares a space with RED: that space is allowed for BLUE
    let mut s = Scen::new(&load("robbers-2012"), 4);
    set_scores(&mut s, &[5, 5, 15, 20]);
    s.play(YELLOW, "RO/RFr", (1, 0, 0), None);
    let opts = s.asked(meeplab::engine::expansions::robbers::ROBBER_PLACE)[0]
        .options
        .clone();
    assert!(opts.contains(&Choice::Track { space: Some(5) }));
    assert!(!opts.contains(&Choice::Track { space: Some(15) }));
}

/// RED's city (6) and BLUE's road (4) complete in one turn; RED and BLUE stand on the same
/// space as GREEN's robber, so GREEN's owner chooses whom to rob (once).
fn two_markers_position(rules: &str) -> Scen {
    let mut s = Scen::new(&load(rules), 3);
    s.play(RED, "BA/Cc.1", (0, -1, 2), Some(0)); // city S+E, RED knight
    s.play(BLUE, "BA/RRR", (-1, 0, 0), Some(0)); // BLUE thief
    s.play(BLUE, "BA/Rr", (1, 0, 1), None);
    set_scores(&mut s, &[10, 10, 0]);
    s.game.set_robber_for_test(2, Some(10));
    s
}

#[test]
fn two_markers_scoring_on_the_robbers_space_owner_chooses() {
    let g = 2u8; // the third seat robs
    for (victim, share) in [(BLUE, 2), (RED, 3)] {
        let mut s = two_markers_position("robbers-2012");
        let ev = s.play_with(
            RED,
            "BA/CRRR",
            (1, -1, 3),
            None,
            &[exp(
                meeplab::engine::expansions::robbers::ROBBER_VICTIM,
                g,
                Choice::Seat { player: victim },
            )],
        );
        assert_eq!(robbed(&ev), vec![(g, victim, share)]);
        assert_eq!(s.scores(), vec![16, 14, share]);
        let asked = s.asked(meeplab::engine::expansions::robbers::ROBBER_VICTIM);
        assert_eq!(
            asked[0].options,
            vec![Choice::Seat { player: RED }, Choice::Seat { player: BLUE }]
        );
    }
    // with `victim = first_scored` the first scoring (RED's city) is robbed
    let rules = load_str(
        "first",
        "ruleset \"x\"\nextends \"rulesets/robbers-2012.rules\"\nrobbers.victim = first_scored\n",
    );
    let mut t = Scen::new(&rules, 3);
    t.play(RED, "BA/Cc.1", (0, -1, 2), Some(0));
    t.play(BLUE, "BA/RRR", (-1, 0, 0), Some(0));
    t.play(BLUE, "BA/Rr", (1, 0, 1), None);
    set_scores(&mut t, &[10, 10, 0]);
    t.game.set_robber_for_test(2, Some(10));
    let ev = t.play(RED, "BA/CRRR", (1, -1, 3), None);
    assert_eq!(robbed(&ev), vec![(g, RED, 3)]);
    assert!(t
        .asked(meeplab::engine::expansions::robbers::ROBBER_VICTIM)
        .is_empty());
    assert_eq!(t.scores(), vec![16, 14, 3]);
}

/// The track has 50 spaces: 48 + 5 lands on space 3; robbers and carried robbers wrap too.
#[test]
fn fifty_space_wrap_around() {
    let mut s = red_road_of_five("robbers-2012", 3);
    set_scores(&mut s, &[48, 49, 0]);
    s.game.set_robber_for_test(BLUE, Some(48));
    s.game.set_robber_for_test(YELLOW, Some(49));
    let ev = s.play(RED, "BA/RRR", (3, 0, 0), None);
    assert_eq!(robbed(&ev), vec![(BLUE, RED, 3)]);
    assert_eq!(carried(&ev), vec![(YELLOW, 49, 2)]);
    assert_eq!(s.scores(), vec![53, 52, 0]);
    assert_eq!(s.game.marker_space(RED), 3);
    assert_eq!(s.game.marker_space(BLUE), 2);
    // BLUE may now put its robber on space 3 (RED's marker) or 0 (YELLOW's)
    s.play(BLUE, "RO/RFr", (4, 0, 0), None);
    let opts = s.asked(meeplab::engine::expansions::robbers::ROBBER_PLACE)[0]
        .options
        .clone();
    assert_eq!(
        opts,
        vec![
            Choice::Track { space: None },
            Choice::Track { space: Some(0) },
            Choice::Track { space: Some(3) }
        ]
    );
}

/// Robbers at final scoring: on by default in robbers-2012, off by option.
#[test]
fn robbers_in_final_scoring_option() {
    let off = load_str(
        "no-final",
        "ruleset \"x\"\nextends \"rulesets/robbers-2012.rules\"\nrobbers.in_final_scoring = false\n",
    );
    for (rules, share) in [(load("robbers-2012"), 1), (off, 0)] {
        let mut s = Scen::new(&rules, 2);
        s.play(RED, "BA/RFr", (1, 0, 0), Some(0)); // RED's road, 2 tiles, incomplete
        set_scores(&mut s, &[10, 0]);
        s.game.set_robber_for_test(BLUE, Some(10));
        let ev = s.finish(&[]);
        assert_eq!(s.scores(), vec![12, share]);
        if share > 0 {
            assert_eq!(robbed(&ev), vec![(BLUE, RED, 1)]);
            assert_eq!(s.game.robbers()[BLUE as usize], None);
        } else {
            assert!(robbed(&ev).is_empty());
            assert_eq!(s.game.robbers()[BLUE as usize], Some(10));
        }
    }
}

/// The Robbers rulebook: "si hay varios ladrones en una casilla cuando una ficha puntúa,
/// todos los ladrones reciben la mitad". Every robbery owed in a scoring step is settled
/// before robber points move any marker, under both victim rules.
fn both_victim_rules() -> Vec<(&'static str, std::sync::Arc<meeplab::engine::Compiled>)> {
    vec![
        ("owner_chooses", load("robbers-2012")),
        (
            "first_scored",
            load_str(
                "first",
                "ruleset \"x\"\nextends \"rulesets/robbers-2012.rules\"\nrobbers.victim = first_scored\n",
            ),
        ),
    ]
}

/// The opening of an ordinary game: every marker on 0; RED draws a robber tile and puts its
/// robber on 0, BLUE (next with a robber in supply) too; YELLOW completes a 2-tile city for
/// 4 points. RED and BLUE both score 2 — the paid robbers' owners stand on the robbed space,
/// and paying RED first must not carry BLUE's robber away.
#[test]
fn every_robber_on_the_space_is_paid_owners_on_that_space() {
    for (name, rules) in both_victim_rules() {
        let mut s = Scen::new(&rules, 4);
        s.play_with(
            RED,
            "RO/RFr",
            (1, 0, 0),
            None,
            &[robber(RED, Some(0)), robber(BLUE, Some(0))],
        );
        assert_eq!(
            s.game.robbers(),
            &[Some(0), Some(0), None, None],
            "{name}: both robbers placed on 0"
        );
        let ev = s.play(YELLOW, "BA/C", (0, -1, 2), Some(0));
        let mut r = robbed(&ev);
        r.sort();
        assert_eq!(r, vec![(RED, YELLOW, 2), (BLUE, YELLOW, 2)], "{name}");
        assert_eq!(
            carried(&ev),
            vec![],
            "{name}: a paid robber is never carried"
        );
        assert_eq!(s.scores(), vec![2, 2, 4, 0], "{name}");
        assert_eq!(
            s.cat(BLUE, meeplab::engine::expansions::robbers::ROBBERS),
            2,
            "{name}"
        );
        assert_eq!(s.game.robbers(), &[None, None, None, None], "{name}");
    }
}

/// Two robbers on YELLOW's space 10; RED's marker stands elsewhere (3, beside GREEN's robber),
/// BLUE's on 10. YELLOW scores 4: RED and BLUE get 2 each; RED's robber points carry GREEN's
/// robber (not paid in this step) from 3 to 5.
#[test]
fn every_robber_on_the_space_is_paid_unpaid_robbers_carried() {
    for (name, rules) in both_victim_rules() {
        let mut s = Scen::new(&rules, 4);
        set_scores(&mut s, &[3, 10, 10, 7]);
        s.game.set_robber_for_test(RED, Some(10));
        s.game.set_robber_for_test(BLUE, Some(10));
        s.game.set_robber_for_test(GREEN, Some(3));
        let ev = s.play(YELLOW, "BA/C", (0, -1, 2), Some(0));
        let mut r = robbed(&ev);
        r.sort();
        assert_eq!(r, vec![(RED, YELLOW, 2), (BLUE, YELLOW, 2)], "{name}");
        assert_eq!(carried(&ev), vec![(GREEN, 3, 5)], "{name}");
        assert_eq!(s.scores(), vec![5, 12, 14, 7], "{name}");
        assert_eq!(s.game.robbers(), &[None, None, None, Some(5)], "{name}");
    }
}
