//! The Messengers scenarios, from the rules' own statements (C1: Wikicarpedia's "The Messages
//! (1st edition)"; C2: Wikicarpedia's "The Messages" and papageek's transcription; the Order
//! of Play's scoring rounds): which figure advances, a dark space in one's own turn draws the
//! top message, the action or 2 points, chains, one message a round, the stack's cycle, each
//! message's action with exact points, final scoring on the sum, ZMG's "alone" rule, and the
//! Robbers combination accepted (played in `scenarios_robbers_messengers`). (The rulebooks'
//! illustrated examples could not be read from the sources at hand; each situation below is
//! one sentence of the rules, scored by hand.)
//!
//! Seats: 0 = RED, 1 = BLUE. Figures are put in place with the test-support setter; points
//! come from real scorings on the board.

use crate::scenario_support;

use meeplab::engine::expansions::messengers::{
    self, MESSAGE_POINTS, MESSENGER_FIGURE, MESSENGER_FOLLOWER, MESSENGER_RESOLVE,
};
use meeplab::engine::{Choice, Decision, Event, Game};
use scenario_support::*;

const RED: u8 = 0;
const BLUE: u8 = 1;

/// `player` advances its messenger (`true`) or its scoring meeple.
fn figure(player: u8, messenger: bool) -> Exp {
    exp(MESSENGER_FIGURE, player, Choice::Flag { yes: messenger })
}

/// `player` carries out the message drawn (`true`) or takes the 2 points.
fn resolve(player: u8, action: bool) -> Exp {
    exp(MESSENGER_RESOLVE, player, Choice::Flag { yes: action })
}

/// Messages drawn: (player, message number).
fn drawn(events: &[Event]) -> Vec<(u8, i64)> {
    events
        .iter()
        .filter_map(|e| e.of(messengers::MESSAGE_DRAWN).map(|v| (v[1] as u8, v[2])))
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

/// The board of most scenarios: RED's road of five one tile from complete — the junction
/// (-1,0), the start, (1,0) with RED's highwayman, (2,0) — and two of RED's knights in open
/// cities: on (0,-1) (the start's city, 2 tiles) and on (1,-1) (a city of 1 tile). A junction
/// at (3,0) completes the road for 5 points.
fn board(rules: &str) -> Scen {
    let mut s = Scen::new(&load(rules), 2);
    s.play(RED, "BA/RRR", (-1, 0, 0), None);
    s.play(BLUE, "BA/CFc.1", (0, -1, 1), None);
    s.play(RED, "BA/RFr", (1, 0, 0), Some(0));
    s.play(BLUE, "BA/RFr", (2, 0, 0), None);
    s
}

/// The board with RED's two knights (they take RED's next two turns; BLUE plays nothing).
fn board_with_knights(rules: &str) -> Scen {
    let mut s = Scen::new(&load(rules), 2);
    s.play(RED, "BA/RRR", (-1, 0, 0), None);
    s.play(RED, "BA/CFc.1", (0, -1, 1), Some(0));
    s.play(RED, "BA/RFr", (1, 0, 0), Some(0));
    s.play(BLUE, "BA/RFr", (2, 0, 0), None);
    s.play(RED, "BA/C", (1, -1, 0), Some(0));
    s
}

fn complete_the_road(s: &mut Scen, more: &[Exp]) -> Vec<Event> {
    s.play_with(RED, "BA/RRR", (3, 0, 0), None, more)
}

/// Message `n` put on top of the stack, then RED completes the road: its meeple moves, the
/// message drawn is carried out and the messenger moves its points; checks that `n` was the
/// message drawn.
fn carry_out_message(s: &mut Scen, n: u8) {
    s.game.set_message_stack_for_test(stack_with(n));
    let ev = complete_the_road(
        s,
        &[figure(RED, false), resolve(RED, true), figure(RED, true)],
    );
    assert_eq!(drawn(&ev), vec![(RED, i64::from(n))]);
}

/// "Whenever you score points, you must choose to move either your scoring meeple or your
/// messenger": the score is their sum; a move that stops on no dark space draws nothing.
#[test]
fn either_figure_advances_and_the_score_is_their_sum() {
    for (messenger, want) in [(false, [8, 1]), (true, [3, 6])] {
        let mut s = board("messengers-c2");
        s.game.set_figures_for_test(RED, 3, 1);
        let ev = complete_the_road(&mut s, &[figure(RED, messenger)]);
        assert_eq!(s.game.figures(RED), want);
        assert_eq!(s.scores(), vec![9, 0]);
        assert!(drawn(&ev).is_empty());
        assert_eq!(s.asked(MESSENGER_FIGURE).len(), 1);
        assert_eq!(s.asked(MESSENGER_FIGURE)[0].player, RED);
    }
}

/// A figure of the active player stopping on a dark space draws the top message; message 6
/// pays 2 a knight (two knights: 4), and those points move a figure too.
#[test]
fn a_dark_space_draws_message_6_two_points_a_knight() {
    let mut s = board_with_knights("messengers-c2");
    s.game.set_figures_for_test(RED, 2, 0);
    s.game.set_message_stack_for_test(stack_with(6));
    let ev = complete_the_road(
        &mut s,
        &[figure(RED, true), resolve(RED, true), figure(RED, false)],
    );
    assert_eq!(drawn(&ev), vec![(RED, 6)]);
    assert_eq!(
        moved(&ev),
        vec![(RED, true, 0, 5), (RED, false, 2, 6)],
        "the road's 5 onto the messenger (a dark space), the message's 4 onto the meeple"
    );
    assert_eq!(s.scores(), vec![2 + 5 + 4, 0]);
    assert_eq!(s.cat(RED, MESSAGE_POINTS), 4);
    // the knights stay
    assert_eq!(
        s.game
            .followers()
            .iter()
            .filter(|f| f.player == RED)
            .count(),
        2
    );
    // the message went to the bottom of the stack
    assert_eq!(s.game.message_stack()[7], 6);
    assert_eq!(s.game.message_stack()[0], 1);
}

/// The other choice: 2 points instead of the action.
#[test]
fn two_points_instead_of_the_action() {
    let mut s = board_with_knights("messengers-c2");
    s.game.set_figures_for_test(RED, 2, 0);
    s.game.set_message_stack_for_test(stack_with(6));
    let ev = complete_the_road(
        &mut s,
        &[figure(RED, true), resolve(RED, false), figure(RED, false)],
    );
    assert_eq!(drawn(&ev), vec![(RED, 6)]);
    assert_eq!(s.scores(), vec![2 + 5 + 2, 0]);
    assert_eq!(s.cat(RED, MESSAGE_POINTS), 2);
    assert_eq!(s.game.figures(RED), [4, 5]);
}

/// Resolving a message may itself land a figure on a dark space: another message (a chain;
/// Order of Play). Meeple 0 → 5 on the road draws; the 2 points move the messenger 3 → 5:
/// another draw; its 2 points move the meeple 5 → 7: the chain ends.
#[test]
fn a_message_can_chain_into_another() {
    let mut s = board("messengers-c1");
    s.game.set_figures_for_test(RED, 0, 3);
    s.game.set_message_stack_for_test([4, 7, 1, 2, 3, 5, 6, 8]);
    let ev = complete_the_road(
        &mut s,
        &[
            figure(RED, false),
            resolve(RED, false),
            figure(RED, true),
            resolve(RED, false),
            figure(RED, false),
        ],
    );
    assert_eq!(drawn(&ev), vec![(RED, 4), (RED, 7)]);
    assert_eq!(s.scores(), vec![3 + 5 + 2 + 2, 0]);
    assert_eq!(s.game.figures(RED), [7, 5]);
    assert_eq!(s.game.outcome().counters.get(messengers::DRAWN), 2);
    assert_eq!(s.game.message_stack(), [1, 2, 3, 5, 6, 8, 4, 7]);
}

/// Two roads one junction completes: road A — the junction (-1,0), the start, (1,0) with
/// `a`'s highwayman — and road B — the cloister road end at (2,1) with `b`'s highwayman; the
/// junction at (2,0) completes A (4 tiles) and B (2 tiles).
fn two_roads(a: u8, b: u8) -> Scen {
    let mut s = Scen::new(&load("messengers-c2"), 2);
    s.play(a, "BA/RRR", (-1, 0, 0), None);
    s.play(a, "BA/RFr", (1, 0, 0), Some(0));
    s.play(b, "BA/L", (1, 1, 0), None);
    s.play(b, "BA/LR", (2, 1, 2), Some(1));
    s
}

/// "If, during your turn (and only during your turn)": BLUE's figure stopping on 5 in RED's
/// turn draws nothing; RED's stopping on 6 neither.
#[test]
fn only_the_active_player_draws() {
    let mut s = two_roads(RED, BLUE);
    s.game.set_figures_for_test(RED, 2, 0);
    s.game.set_figures_for_test(BLUE, 3, 0);
    let ev = s.play_with(
        RED,
        "BA/RRR",
        (2, 0, 0),
        None,
        &[figure(RED, false), figure(BLUE, false)],
    );
    let mut m = moved(&ev);
    m.sort_unstable();
    assert_eq!(m, vec![(RED, false, 2, 6), (BLUE, false, 3, 5)]);
    assert!(drawn(&ev).is_empty());
    assert_eq!(s.scores(), vec![6, 5]);
    assert!(s.asked(MESSENGER_RESOLVE).is_empty());
}

/// Message 1: RED's smallest road holding one of its highwaymen (3 tiles, not the 4-tile one)
/// scores as at the end, and the highwayman stays.
#[test]
fn message_1_scores_the_smallest_road() {
    let mut s = board("messengers-c2");
    s.play(RED, "BA/RFr", (-2, 0, 0), Some(0)); // the junction's west road
    s.play(BLUE, "BA/RFr", (-3, 0, 0), None); // 3 tiles
    s.play(RED, "BA/RFr", (-1, 1, 1), Some(0)); // its south road
    s.play(BLUE, "BA/RFr", (-1, 2, 1), None);
    s.play(BLUE, "BA/RFr", (-1, 3, 1), None); // 4 tiles
    carry_out_message(&mut s, 1);
    assert_eq!(s.cat(RED, MESSAGE_POINTS), 3);
    assert_eq!(s.scores(), vec![5 + 3, 0]);
    assert_eq!(s.game.figures(RED), [5, 3]);
    assert_eq!(
        s.game
            .followers()
            .iter()
            .filter(|f| f.player == RED)
            .count(),
        2,
        "both highwaymen stay"
    );
}

/// Message 2: the smallest city holding one of RED's knights (1 tile: 1 point, the other's 2).
#[test]
fn message_2_scores_the_smallest_city() {
    let mut s = board_with_knights("messengers-c2");
    carry_out_message(&mut s, 2);
    assert_eq!(s.cat(RED, MESSAGE_POINTS), 1);
    assert_eq!(s.scores(), vec![6, 0]);
}

/// Message 3: the smallest cloister holding one of RED's monks, as at the end (1 + 2
/// neighbours); with none, the action pays nothing.
#[test]
fn message_3_scores_the_smallest_cloister() {
    let mut s = board("messengers-c2");
    s.play(RED, "BA/L", (1, 1, 0), Some(0)); // neighbours (0,0), (1,0), (2,0)
    carry_out_message(&mut s, 3);
    // (3,0) is no neighbour of (1,1): 1 + 3
    assert_eq!(s.cat(RED, MESSAGE_POINTS), 4);
    assert_eq!(s.scores(), vec![9, 0]);
}

/// Message 5: 2 points a pennant in cities holding one of RED's knights.
#[test]
fn message_5_two_points_a_pennant() {
    let mut s = Scen::new(&load("messengers-c2"), 2);
    s.play(RED, "BA/RRR", (-1, 0, 0), None);
    s.play(RED, "BA/Cc+", (0, -1, 2), Some(0)); // a city corner with a pennant, S and E
    s.play(RED, "BA/RFr", (1, 0, 0), Some(0));
    s.play(BLUE, "BA/RFr", (2, 0, 0), None);
    carry_out_message(&mut s, 5);
    assert_eq!(s.cat(RED, MESSAGE_POINTS), 2);
}

/// Message 7: points a farmer (2 by default, 3 with BGG's blurb).
#[test]
fn message_7_points_a_farmer() {
    for (farmer_points, want) in [(None, 4), (Some(3), 6)] {
        let rules = match farmer_points {
            None => load("messengers-c2"),
            Some(n) => load_str(
                "farmers3",
                &format!(
                    "ruleset \"x\"\nextends \"rulesets/messengers-c2.rules\"\n\
                     messengers {{ farmer_points = {n} }}\n"
                ),
            ),
        };
        let mut s = Scen::new(&rules, 2);
        s.play(RED, "BA/RRR", (-1, 0, 0), Some(3)); // a farmer
        s.play(RED, "BA/L", (0, 1, 0), Some(1)); // a farmer
        s.play(RED, "BA/RFr", (1, 0, 0), Some(0));
        s.play(BLUE, "BA/RFr", (2, 0, 0), None);
        carry_out_message(&mut s, 7);
        assert_eq!(s.cat(RED, MESSAGE_POINTS), want);
    }
}

/// Message 8: one of RED's followers is scored as at the end and taken back (the knight in
/// the 2-tile city: 2 points); the other knight stays.
#[test]
fn message_8_scores_a_follower_and_takes_it_back() {
    let mut s = board_with_knights("messengers-c2");
    s.game.set_message_stack_for_test(stack_with(8));
    let before = s.game.followers().len();
    let ev = complete_the_road(
        &mut s,
        &[
            figure(RED, false),
            resolve(RED, true),
            exp(
                MESSENGER_FOLLOWER,
                RED,
                Choice::Spot {
                    at: Some((0, -1, 0)),
                },
            ),
            figure(RED, true),
        ],
    );
    assert_eq!(drawn(&ev), vec![(RED, 8)]);
    let asked = s.asked(MESSENGER_FOLLOWER);
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].options.len(), 2, "two knights left after the road");
    assert_eq!(s.cat(RED, MESSAGE_POINTS), 2);
    // the road's highwayman and the knight went home
    assert_eq!(s.game.followers().len(), before - 2);
    assert_eq!(s.scores(), vec![7, 0]);
}

/// Message 4: another tile: RED's turn comes again before BLUE's.
#[test]
fn message_4_another_tile() {
    struct First;
    impl meeplab::engine::Chooser for First {
        fn choose(&mut self, _: &Game, _: &Decision) -> usize {
            0
        }
    }
    let mut s = board("messengers-c2");
    s.game.set_message_stack_for_test(stack_with(4));
    let ev = complete_the_road(&mut s, &[figure(RED, false), resolve(RED, true)]);
    assert_eq!(drawn(&ev), vec![(RED, 4)]);
    assert_eq!(s.scores(), vec![5, 0]);
    let mut events = Vec::new();
    assert!(s.game.draw(&mut events));
    assert_eq!(s.game.active(), RED, "RED places another tile");
    s.game.play_decisions(&mut First, &mut events);
    assert!(s.game.draw(&mut events));
    assert_eq!(s.game.active(), BLUE, "then the seat order goes on");
}

/// At most one message a round (Order of Play): both of RED's awards of one tile stop on dark
/// spaces (2 onto the messenger 3 → 5, 4 onto the meeple 1 → 5), one message is drawn.
#[test]
fn one_message_a_round() {
    let mut s = two_roads(RED, RED);
    s.game.set_figures_for_test(RED, 1, 3);
    s.game.set_message_stack_for_test(stack_with(6));
    let ev = s.play_with(
        RED,
        "BA/RRR",
        (2, 0, 0),
        None,
        &[
            // the tile's features in the order it completes them: road B's 2, road A's 4
            figure(RED, true),
            figure(RED, false),
            resolve(RED, false),
        ],
    );
    let mut m = moved(&ev);
    m.truncate(2);
    m.sort_unstable();
    assert_eq!(m, vec![(RED, false, 1, 5), (RED, true, 3, 5)]);
    assert_eq!(drawn(&ev), vec![(RED, 6)]);
    assert_eq!(s.scores(), vec![4 + 4 + 2 + 2, 0]);
}

/// Final scoring: the two figures are added into one and no message is drawn.
#[test]
fn final_scoring_adds_the_figures_and_draws_nothing() {
    let mut s = board_with_knights("messengers-c2");
    s.game.set_figures_for_test(RED, 3, 2);
    let ev = s.finish(&[]);
    assert!(drawn(&ev).is_empty());
    assert!(s.asked(MESSENGER_FIGURE).is_empty());
    // the road (4 tiles) and the two cities (2 and 1)
    assert_eq!(s.scores()[RED as usize], 5 + 4 + 2 + 1);
    assert_eq!(s.game.figures(RED), [12, 0]);
}

/// ZMG's English text: a figure must stand alone on the dark space to draw.
#[test]
fn zmg_alone_rule() {
    let rules = load_str(
        "alone",
        "ruleset \"x\"\nextends \"rulesets/messengers-c2.rules\"\nmessengers { alone = true }\n",
    );
    for (blue_at, draws) in [(5, false), (55, false), (4, true)] {
        let mut s = Scen::new(&rules, 2);
        s.play(RED, "BA/RRR", (-1, 0, 0), None);
        s.play(RED, "BA/RFr", (1, 0, 0), Some(0));
        s.play(BLUE, "BA/RFr", (2, 0, 0), None);
        s.game.set_figures_for_test(BLUE, blue_at, 0);
        let more = if draws {
            vec![figure(RED, false), resolve(RED, false)]
        } else {
            vec![figure(RED, false)]
        };
        let ev = complete_the_road(&mut s, &more);
        assert_eq!(drawn(&ev).len(), draws as usize, "BLUE on {blue_at}");
    }
}

/// The stack's order is a keyed draw from the seed: the 8 messages, and other seeds other
/// orders.
#[test]
fn the_stack_is_keyed_by_the_seed() {
    let a = messengers::stack_order(1);
    let mut sorted = a;
    sorted.sort_unstable();
    assert_eq!(sorted, [0, 1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(a, messengers::stack_order(1));
    assert!((2..20).any(|seed| messengers::stack_order(seed) != a));
}

/// The Robbers with the Messengers: playable (they were refused, E0603, before the robbers
/// read the figures; `scenarios_robbers_messengers` plays them).
#[test]
fn robbers_with_messengers_loads() {
    let text =
        "ruleset \"x\"\nextends \"rulesets/robbers-2012.rules\"\nmessengers { alt_points = 2 }\n";
    let loaded = meeplab::dsl::load_ruleset_str("robbers-messengers", text);
    assert!(loaded.is_ok(), "robbers and messengers: {:?}", loaded.err());
}
