//! The Robbers with the Messengers (`shared/rules/minis.md` §6.2; the Robbers' footnote of
//! 5/2013 in both editions; the Complete Annotated Rules' robber examples): a robber stands
//! beside either scoring figure of another player and robs the first move of a figure leaving
//! its space, half rounded up; the scoring player chooses the figure, so may dodge; two
//! scorings in one turn: the first movement is robbed; a message's points are robbed like any;
//! robber points move a figure of the robber's owner (its choice, or the meeple by option) and,
//! in its own turn, may draw a message (or not, by option). Exact scores by hand.
//!
//! Seats: 0 = RED, 1 = BLUE. Figures and robbers are put in place with the test-support
//! setters; points come from real scorings on the board.

use crate::scenario_support;

use meeplab::engine::expansions::messengers::{self, MESSENGER_FIGURE, MESSENGER_RESOLVE};
use meeplab::engine::expansions::robbers::{self, ROBBERS, ROBBER_PLACE};
use meeplab::engine::{Choice, Compiled, Event};
use scenario_support::*;
use std::sync::Arc;

const RED: u8 = 0;
const BLUE: u8 = 1;

/// The Robbers (HiG 2012) and the Messengers together, with `more` option lines.
fn rules(more: &str) -> Arc<Compiled> {
    let text = format!(
        "ruleset \"robbers and messengers\"\nextends \"rulesets/robbers-2012.rules\"\n\
         messengers {{ alt_points = 2 {more} }}\n"
    );
    load_str("robbers-messengers", &text)
}

/// `player` advances its messenger (`true`) or its scoring meeple.
fn figure(player: u8, messenger: bool) -> Exp {
    exp(MESSENGER_FIGURE, player, Choice::Flag { yes: messenger })
}

/// `player` carries out the message drawn (`true`) or takes the 2 points.
fn resolve(player: u8, action: bool) -> Exp {
    exp(MESSENGER_RESOLVE, player, Choice::Flag { yes: action })
}

/// Robberies: (robber's owner, victim, points).
fn robbed(events: &[Event]) -> Vec<(u8, u8, i64)> {
    events
        .iter()
        .filter_map(|e| {
            e.of(robbers::ROBBED)
                .map(|v| (v[1] as u8, v[2] as u8, v[3]))
        })
        .collect()
}

/// Robbers carried along by robber points: (robber's owner, from, to).
fn carried(events: &[Event]) -> Vec<(u8, u32, u32)> {
    events
        .iter()
        .filter_map(|e| {
            e.of(robbers::ROBBER_CARRIED)
                .map(|v| (v[1] as u8, v[2] as u32, v[3] as u32))
        })
        .collect()
}

/// Figures moved: (player, messenger, from, to).
fn moved(events: &[Event]) -> Vec<(u8, bool, i64, i64)> {
    events
        .iter()
        .filter_map(|e| {
            e.of(messengers::FIGURE_MOVED)
                .map(|v| (v[1] as u8, v[2] != 0, v[3], v[4]))
        })
        .collect()
}

/// Messages drawn: (player, message number).
fn drawn(events: &[Event]) -> Vec<(u8, i64)> {
    events
        .iter()
        .filter_map(|e| e.of(messengers::MESSAGE_DRAWN).map(|v| (v[1] as u8, v[2])))
        .collect()
}

/// The stack with message `top` first, then the others in number order.
fn stack_with(top: u8) -> [u8; 8] {
    let mut out = [top; 8];
    let mut k = 1;
    for m in 1..=8u8 {
        if m != top {
            out[k] = m;
            k += 1;
        }
    }
    out
}

/// A road of five one tile from complete — the junction (-1,0), the start, (1,0) with
/// `owner`'s highwayman, (2,0); a junction at (3,0) completes it for 5 points.
fn road_of_five(r: &Arc<Compiled>, owner: u8) -> Scen {
    let mut s = Scen::new(r, 2);
    s.play(RED, "BA/RRR", (-1, 0, 0), None);
    s.play(owner, "BA/RFr", (1, 0, 0), Some(0));
    s.play(BLUE, "BA/RFr", (2, 0, 0), None);
    s
}

/// RED completes the road of five at (3,0), with `more` choices.
fn complete(s: &mut Scen, more: &[Exp]) -> Vec<Event> {
    s.play_with(RED, "BA/RRR", (3, 0, 0), None, more)
}

/// The combination is a ruleset now (it was refused with E0603).
#[test]
fn robbers_with_messengers_is_a_ruleset() {
    let r = rules("");
    assert!(meeplab::engine::expansions::robbers::RobberRules::of(&r.rules).is_some());
    assert!(r.rules.ext_in_play("messengers."));
}

/// "A robber may be placed beside either scoring figure": RED's robber tile offers the spaces
/// of both BLUE's figures (meeple 4, messenger 9); then BLUE (the next player with a robber
/// in supply) those of RED's (meeple 12, messenger 0).
#[test]
fn a_robber_may_stand_beside_either_figure() {
    let r = rules("");
    let mut s = Scen::new(&r, 2);
    s.game.set_figures_for_test(RED, 12, 0);
    s.game.set_figures_for_test(BLUE, 4, 9);
    s.play_with(
        RED,
        "RO/RFr",
        (1, 0, 0),
        None,
        &[robber(RED, Some(9)), robber(BLUE, Some(0))],
    );
    let asked = s.asked(ROBBER_PLACE);
    let spaces = |v: &[Option<u32>]| -> Vec<Choice> {
        v.iter().map(|&space| Choice::Track { space }).collect()
    };
    assert_eq!(asked.len(), 2);
    assert_eq!(asked[0].player, RED);
    assert_eq!(asked[0].options, spaces(&[None, Some(4), Some(9)]));
    assert_eq!(asked[1].player, BLUE);
    assert_eq!(asked[1].options, spaces(&[None, Some(0), Some(12)]));
    assert_eq!(s.game.robbers(), &[Some(9), Some(0)]);
}

/// BLUE's robber beside RED's messenger (11); RED's road scores 5 and RED moves the
/// messenger 11 → 16: BLUE takes 3 (half of 5, rounded up), its robber goes home, and BLUE
/// chooses the figure its robber points move (the meeple, 0 → 3; not BLUE's turn: no message).
#[test]
fn a_robber_beside_the_messenger_robs_its_move() {
    let r = rules("");
    let mut s = road_of_five(&r, RED);
    s.game.set_figures_for_test(RED, 3, 11);
    s.game.set_robber_for_test(BLUE, Some(11));
    let ev = complete(&mut s, &[figure(RED, true), figure(BLUE, false)]);
    assert_eq!(robbed(&ev), vec![(BLUE, RED, 3)]);
    assert_eq!(
        moved(&ev),
        vec![(RED, true, 11, 16), (BLUE, false, 0, 3)],
        "RED's messenger, then BLUE's meeple on the robber points"
    );
    assert_eq!(s.scores(), vec![19, 3]);
    assert_eq!(s.cat(BLUE, ROBBERS), 3);
    assert_eq!(s.game.figures(RED), [3, 16]);
    assert_eq!(s.game.figures(BLUE), [3, 0]);
    assert_eq!(s.game.robbers(), &[None, None]);
    let asked = s.asked(MESSENGER_FIGURE);
    let who: Vec<u8> = asked.iter().map(|a| a.player).collect();
    assert_eq!(
        who,
        vec![RED, BLUE],
        "the robber's owner chooses its figure"
    );
    assert!(drawn(&ev).is_empty());
}

/// RED dodging: BLUE's robber beside RED's messenger (12), RED moves the scoring meeple
/// (3 → 8) instead; nothing is robbed and the robber stays beside the messenger for its next
/// move: a 2-tile city on the messenger (4: 12 → 16) is robbed 2.
#[test]
fn the_scoring_player_dodges_with_the_other_figure() {
    let r = rules("");
    let mut s = road_of_five(&r, RED);
    s.game.set_figures_for_test(RED, 3, 12);
    s.game.set_robber_for_test(BLUE, Some(12));
    let ev = complete(&mut s, &[figure(RED, false)]);
    assert!(robbed(&ev).is_empty());
    assert_eq!(moved(&ev), vec![(RED, false, 3, 8)]);
    assert_eq!(s.scores(), vec![20, 0]);
    assert_eq!(s.game.robbers(), &[None, Some(12)]);
    let ev = s.play_with(RED, "BA/C", (0, -1, 2), Some(0), &[figure(RED, true)]);
    assert_eq!(robbed(&ev), vec![(BLUE, RED, 2)]);
    assert_eq!(s.scores(), vec![24, 2]);
    assert_eq!(s.game.figures(RED), [8, 16]);
    assert_eq!(s.game.robbers(), &[None, None]);
}

/// Two of RED's roads completed by one junction at (2,0): road A (the junction (-1,0), the
/// start, (1,0): 4 tiles with the junction) and road B (the cloister road end at (2,1): 2
/// tiles). The core pays road B first, then road A. The robber takes half of the first
/// movement of the figure on its space only (the Complete Annotated Rules' example: which
/// scoring comes first decides the share).
fn two_roads(r: &Arc<Compiled>) -> Scen {
    let mut s = Scen::new(r, 2);
    s.play(RED, "BA/RRR", (-1, 0, 0), None);
    s.play(RED, "BA/RFr", (1, 0, 0), Some(0));
    s.play(BLUE, "BA/L", (1, 1, 0), None);
    s.play(RED, "BA/LR", (2, 1, 2), Some(1));
    s
}

/// On [`two_roads`] with RED's meeple on 7, its messenger on 2 and BLUE's robber on 7, RED
/// places the junction; `figures` answers which figure moves for road B, then road A (true:
/// the messenger).
fn close_two_roads(s: &mut Scen, figures: [bool; 2]) -> Vec<Event> {
    s.game.set_figures_for_test(RED, 7, 2);
    s.game.set_robber_for_test(BLUE, Some(7));
    s.play_with(
        RED,
        "BA/RRR",
        (2, 0, 0),
        None,
        &[figure(RED, figures[0]), figure(RED, figures[1])],
    )
}

/// Both roads on the meeple (7): the first paid (road B, 2: 7 → 9) is robbed (1); the second
/// (road A, 4: 9 → 13) no longer starts on the robber's space, and the robber is home.
#[test]
fn two_scorings_in_a_turn_the_first_movement_is_robbed() {
    let r = rules("");
    let mut s = two_roads(&r);
    let ev = close_two_roads(&mut s, [false, false]);
    assert_eq!(
        moved(&ev)
            .iter()
            .filter(|m| m.0 == RED)
            .copied()
            .collect::<Vec<_>>(),
        vec![(RED, false, 7, 9), (RED, false, 9, 13)]
    );
    assert_eq!(robbed(&ev), vec![(BLUE, RED, 1)]);
    assert_eq!(s.scores(), vec![15, 1]);
    assert_eq!(s.game.robbers(), &[None, None]);
}

/// Road B on the messenger (2 → 4), road A on the meeple (7 → 11): the meeple's first
/// movement is now the 4-point road, so the robber takes 2.
#[test]
fn two_scorings_the_first_movement_of_the_figure_on_the_space() {
    let r = rules("");
    let mut s = two_roads(&r);
    let ev = close_two_roads(&mut s, [true, false]);
    assert_eq!(robbed(&ev), vec![(BLUE, RED, 2)]);
    assert_eq!(s.scores(), vec![15, 2]);
    assert_eq!(s.game.figures(RED), [11, 4]);
}

/// The board of the message scenarios: RED's road of five and two of RED's knights in open
/// cities (message 6 pays 2 a knight: 4).
fn board_with_knights(r: &Arc<Compiled>) -> Scen {
    let mut s = Scen::new(r, 2);
    s.play(RED, "BA/RRR", (-1, 0, 0), None);
    s.play(RED, "BA/CFc.1", (0, -1, 1), Some(0));
    s.play(RED, "BA/RFr", (1, 0, 0), Some(0));
    s.play(BLUE, "BA/RFr", (2, 0, 0), None);
    s.play(RED, "BA/C", (1, -1, 0), Some(0));
    s
}

/// A message's points are a scoring like any: the road's 5 on RED's messenger (0 → 5, a dark
/// space) draws message 6, whose 4 points RED moves on the meeple (2 → 6), beside BLUE's
/// robber: BLUE takes 2. Taking the 2 points instead: robbed 1.
#[test]
fn a_messages_points_are_robbed() {
    for (action, paid, share) in [(true, 4, 2), (false, 2, 1)] {
        let r = rules("");
        let mut s = board_with_knights(&r);
        s.game.set_figures_for_test(RED, 2, 0);
        s.game.set_robber_for_test(BLUE, Some(2));
        s.game.set_message_stack_for_test(stack_with(6));
        let ev = complete(
            &mut s,
            &[figure(RED, true), resolve(RED, action), figure(RED, false)],
        );
        assert_eq!(drawn(&ev), vec![(RED, 6)]);
        assert_eq!(robbed(&ev), vec![(BLUE, RED, share)], "action {action}");
        assert_eq!(s.scores(), vec![2 + 5 + paid, share]);
        assert_eq!(s.game.figures(RED), [2 + paid, 5]);
        assert_eq!(s.cat(BLUE, ROBBERS), share);
    }
}

/// Robber points are never robbed: RED's robber beside BLUE's meeple (0) moves along when
/// BLUE's robber points move that meeple (0 → 3), and waits there.
#[test]
fn a_robber_moves_along_with_a_figure_moved_by_robber_points() {
    let r = rules("");
    let mut s = road_of_five(&r, RED);
    s.game.set_figures_for_test(RED, 3, 11);
    s.game.set_figures_for_test(BLUE, 0, 1);
    s.game.set_robber_for_test(BLUE, Some(11));
    s.game.set_robber_for_test(RED, Some(0));
    let ev = complete(&mut s, &[figure(RED, true), figure(BLUE, false)]);
    assert_eq!(robbed(&ev), vec![(BLUE, RED, 3)]);
    assert_eq!(carried(&ev), vec![(RED, 0, 3)]);
    assert_eq!(s.scores(), vec![19, 4]);
    assert_eq!(s.game.robbers(), &[Some(3), None]);
}

/// `messengers.robber_points_choose_figure = false`: robber points always move the owner's
/// scoring meeple, and no figure decision is asked of it.
#[test]
fn option_robber_points_move_the_meeple() {
    let r = rules("robber_points_choose_figure = false");
    let mut s = road_of_five(&r, RED);
    s.game.set_figures_for_test(RED, 3, 11);
    s.game.set_figures_for_test(BLUE, 1, 6);
    s.game.set_robber_for_test(BLUE, Some(11));
    let ev = complete(&mut s, &[figure(RED, true)]);
    assert_eq!(robbed(&ev), vec![(BLUE, RED, 3)]);
    assert_eq!(moved(&ev), vec![(RED, true, 11, 16), (BLUE, false, 1, 4)]);
    let who: Vec<u8> = s.asked(MESSENGER_FIGURE).iter().map(|a| a.player).collect();
    assert_eq!(who, vec![RED]);
    assert_eq!(s.scores(), vec![19, 10]);
    // the default asks BLUE, who may take the messenger (6 → 9)
    let r = rules("");
    let mut s = road_of_five(&r, RED);
    s.game.set_figures_for_test(RED, 3, 11);
    s.game.set_figures_for_test(BLUE, 1, 6);
    s.game.set_robber_for_test(BLUE, Some(11));
    let ev = complete(&mut s, &[figure(RED, true), figure(BLUE, true)]);
    assert_eq!(moved(&ev), vec![(RED, true, 11, 16), (BLUE, true, 6, 9)]);
    assert_eq!(s.game.figures(BLUE), [1, 9]);
}

/// In RED's own turn RED completes BLUE's road (5): RED's robber beside BLUE's meeple takes
/// 3, and RED's meeple moves 2 → 5, a dark space: by default that draws a message (RED takes
/// the 2 points: meeple 5 → 7); with `robber_points_can_trigger_message = false` it does not.
#[test]
fn option_robber_points_draw_a_message() {
    for (draws, more) in [
        (true, ""),
        (false, "robber_points_can_trigger_message = false"),
    ] {
        let r = rules(more);
        let mut s = road_of_five(&r, BLUE);
        s.game.set_figures_for_test(RED, 2, 1);
        s.game.set_figures_for_test(BLUE, 4, 0);
        s.game.set_robber_for_test(RED, Some(4));
        s.game.set_message_stack_for_test(stack_with(6));
        let mut script = vec![figure(BLUE, false), figure(RED, false)];
        if draws {
            script.extend([resolve(RED, false), figure(RED, false)]);
        }
        let ev = complete(&mut s, &script);
        assert_eq!(robbed(&ev), vec![(RED, BLUE, 3)], "{more}");
        if draws {
            assert_eq!(drawn(&ev), vec![(RED, 6)]);
            assert_eq!(s.scores(), vec![3 + 3 + 2, 9]);
            assert_eq!(s.game.figures(RED), [7, 1]);
        } else {
            assert!(drawn(&ev).is_empty(), "{more}");
            assert!(s.asked(MESSENGER_RESOLVE).is_empty());
            assert_eq!(s.scores(), vec![3 + 3, 9]);
            assert_eq!(s.game.figures(RED), [5, 1]);
        }
    }
}

/// Final scoring: the two figures become one (the meeple on the sum), and robbers still on
/// the track rob a final-scoring move off their space as without the Messengers
/// (`robbers.in_final_scoring`): BLUE's robber beside RED's sum (3 + 11 = 14) takes half of
/// RED's unfinished road (4 tiles: 4 → 2).
#[test]
fn final_scoring_robs_the_combined_figure() {
    let r = rules("");
    let mut s = Scen::new(&r, 2);
    s.play(RED, "BA/RRR", (-1, 0, 0), None);
    s.play(RED, "BA/RFr", (1, 0, 0), Some(0));
    s.play(BLUE, "BA/RFr", (2, 0, 0), None);
    s.game.set_figures_for_test(RED, 3, 11);
    s.game.set_robber_for_test(BLUE, Some(14));
    let ev = s.finish(&[]);
    assert_eq!(robbed(&ev), vec![(BLUE, RED, 2)]);
    assert_eq!(s.scores(), vec![18, 2]);
}

/// Final scoring, three players: RED's sum (3 + 11) and BLUE's (10 + 4) share space 14 with
/// YELLOW's robber, and both score there (RED's open road of 5 tiles: 5; BLUE's cloister with
/// 3 neighbours: 4): YELLOW chooses whom to rob (the figures are one now, so the owner's
/// choice is back) and takes 3 from RED.
#[test]
fn final_scoring_the_robbers_owner_chooses_between_two_figures() {
    const YELLOW: u8 = 2;
    let r = rules("");
    let mut s = Scen::new(&r, 3);
    s.play(RED, "BA/RRR", (-1, 0, 0), None);
    s.play(RED, "BA/RFr", (1, 0, 0), Some(0));
    s.play(YELLOW, "BA/RFr", (2, 0, 0), None);
    s.play(YELLOW, "BA/RFr", (3, 0, 0), None);
    s.play(BLUE, "BA/L", (0, 1, 0), Some(0));
    s.game.set_figures_for_test(RED, 3, 11);
    s.game.set_figures_for_test(BLUE, 10, 4);
    s.game.set_robber_for_test(YELLOW, Some(14));
    let ev = s.finish(&[exp(
        robbers::ROBBER_VICTIM,
        YELLOW,
        Choice::Seat { player: RED },
    )]);
    let asked = s.asked(robbers::ROBBER_VICTIM);
    assert_eq!(asked.len(), 1);
    assert_eq!(
        asked[0].options,
        vec![Choice::Seat { player: RED }, Choice::Seat { player: BLUE }]
    );
    assert_eq!(robbed(&ev), vec![(YELLOW, RED, 3)]);
    assert_eq!(s.scores(), vec![19, 18, 3]);
}

/// A chooser that places RED's junction at (3,0) with no follower and answers each figure
/// decision as the greedy policy does (the best value hint, the first of equals), recording
/// the hints.
struct Dodger {
    hints: Vec<(u8, Vec<i64>)>,
}

impl meeplab::engine::Chooser for Dodger {
    fn choose(&mut self, game: &meeplab::engine::Game, d: &meeplab::engine::Decision) -> usize {
        use meeplab::engine::{DecisionKind, FollowerKind};
        let want = if d.kind == DecisionKind::PLACEMENT {
            Choice::Place { x: 3, y: 0, rot: 0 }
        } else if d.kind == DecisionKind::FOLLOWER {
            Choice::Follower {
                segment: None,
                kind: FollowerKind::PLAIN,
            }
        } else {
            let h: Vec<i64> = (0..d.options)
                .map(|i| game.value_hint(d.kind, i, d.player))
                .collect();
            let best = h.iter().copied().max().unwrap_or(0);
            let i = h.iter().position(|&v| v == best).unwrap_or(0);
            self.hints.push((d.player, h));
            return i;
        };
        (0..d.options)
            .position(|i| game.choice(d.kind, i) == want)
            .unwrap_or_else(|| panic!("{want:?} not offered"))
    }
}

/// The figure decision's hints see the robber: moving the messenger beside BLUE's robber
/// would give BLUE 3, so its hint is −3 and a greedy RED moves the meeple (3 → 8) instead.
/// Without a robber both hints are 0.
#[test]
fn greedy_dodges_a_robber() {
    for (robber, want_hints, want_moved) in [
        (Some(11), vec![0, -3], (RED, false, 3, 8)),
        (None, vec![0, 0], (RED, false, 3, 8)),
        (Some(3), vec![-3, 0], (RED, true, 11, 16)),
    ] {
        let r = rules("");
        let mut s = road_of_five(&r, RED);
        s.game.set_figures_for_test(RED, 3, 11);
        s.game.set_robber_for_test(BLUE, robber);
        let mut chooser = Dodger { hints: Vec::new() };
        let mut events = Vec::new();
        let tile = s.tile("BA/RRR");
        s.game
            .play_tile(tile, RED, &mut chooser, &mut events)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(chooser.hints[0], (RED, want_hints), "robber {robber:?}");
        assert_eq!(moved(&events)[0], want_moved, "robber {robber:?}");
        assert!(robbed(&events).is_empty(), "robber {robber:?}");
        assert_eq!(s.game.scores()[..2], [19, 0]);
    }
}
