//! Tests that a policy sees only what its seat may know: in two games that differ only in
//! hidden information (the pack's order, the other seats' hands, the seed, the flier's die, the
//! messages not drawn yet), every policy makes the same choice.

use super::test_support::rules;
use super::{MctsStyle, Policy, PolicyKind};
use crate::engine::view::hidden_twin;
use crate::engine::{Chooser, Decision, Game, NoEvents, Pending};

/// Plays with `kind` in every seat and, at every `every`-th decision with a choice, asks a
/// fresh policy of the same kind the same decision in a twin of the game that differs in what
/// the deciding seat cannot see only.
struct Twins {
    kind: PolicyKind,
    every: usize,
    seen: usize,
    compared: usize,
    /// Decisions at which the twins' packs differed, and at which a chooser that peeks (the
    /// next tile's type picks the option) chose otherwise in the twin: the test would catch it.
    packs_differ: usize,
    peek_caught: usize,
}

/// A cheat: the option the next tile of the pack points at.
fn peek(g: &Game, d: &Decision) -> usize {
    g.unseen().first().map_or(0, |&t| t as usize % d.options)
}

impl Chooser for Twins {
    fn choose(&mut self, game: &Game, d: &Decision) -> usize {
        self.seen += 1;
        let i = Policy::new(self.kind).choose(game, d);
        if d.options > 1 && self.seen.is_multiple_of(self.every) {
            let twin = hidden_twin(game, d.player, self.seen as u64);
            let Pending::Decision(td) = twin.pending() else {
                panic!("the twin asks the same decision")
            };
            assert_eq!(td, *d, "the same decision, the same key");
            let j = Policy::new(self.kind).choose(&twin, &td);
            assert_eq!(
                i,
                j,
                "{} chose otherwise in a twin that differs in hidden information only: {} \
                 turn {} {:?}",
                self.kind,
                game.rules().rules.name,
                game.turn(),
                d.kind
            );
            self.compared += 1;
            self.packs_differ += usize::from(twin.unseen() != game.unseen());
            self.peek_caught += usize::from(peek(game, d) != peek(&twin, &td));
        }
        i
    }
}

#[test]
fn a_policy_cannot_tell_games_apart_that_differ_in_hidden_information_only() {
    let cases = [
        ("base", 2),
        ("bcb-c2", 3),
        ("flier-c2", 2),
        ("messengers-c2", 2),
        ("house-hand3", 3),
    ];
    for (kind, every) in [
        (PolicyKind::Random, 1),
        (PolicyKind::Greedy, 1),
        (PolicyKind::Heuristic, 2),
        (PolicyKind::Mcts(12, MctsStyle::Points), 9),
    ] {
        for (k, (ruleset, players)) in cases.into_iter().enumerate() {
            let mut t = Twins {
                kind,
                every,
                seen: 0,
                compared: 0,
                packs_differ: 0,
                peek_caught: 0,
            };
            let r = rules(format!("rulesets/{ruleset}.rules"));
            Game::new(r, 60 + k as u64, players).play(&mut t, &mut NoEvents);
            assert!(t.compared > 5, "{kind} {ruleset}: {} compared", t.compared);
            assert!(
                t.packs_differ * 2 > t.compared,
                "{kind} {ruleset}: the twins' packs differ"
            );
            assert!(
                t.peek_caught > 0,
                "{kind} {ruleset}: a peek would be caught"
            );
        }
    }
}
