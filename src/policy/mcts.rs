//! The `mcts` policy: information-set Monte Carlo tree search (single observer, after Cowling,
//! Powley and Whitehouse 2012).
//!
//! A search answers one decision, seeing only the deciding seat's view ([`SeatView`]). Each
//! iteration takes a determinization of that view with a key of its own
//! ([`SeatView::determinize`]: the tiles the seat cannot see, a multiset, put in an order drawn
//! from the key; with the `hand` house rule the other players' hands are re-dealt from them,
//! the deciding player's own hand kept; the flier's die and the messages not drawn yet drawn
//! anew), then:
//!
//! 1. **selection** walks the tree of the turn's remaining decisions — the tile's placement and
//!    the follower are separate levels, and so are ingots, robbers and crop-circle choices —
//!    by UCB1 from the deciding player's point of view;
//! 2. **progressive widening**: a node with `n` visits may have ⌈√(n+1)⌉ children, taken in
//!    the order the heuristic policy ranks its options (one move ahead, the rest of the turn
//!    greedy, position evaluation), so the search spends its budget on plausible moves first;
//! 3. **playout**: from the new node the game is played on greedily for the rest of the turn
//!    and [`PLAYOUT_TURNS`] more turns (the tiles come from this iteration's determinization);
//! 4. **evaluation**: a finished game gives the final scores, an unfinished one the heuristic's
//!    expected totals (unfinished features by their chance to close, gold in reach, followers);
//!    each player's reward depends on the search's [`MctsStyle`]: by default (`points`) it
//!    blends its own total, `tanh(total / 100)`, with its lead over the best other player,
//!    `tanh(Δ / 30)` (weights 0.75 and 0.25), plus [`WIN_BONUS`] for a winner of a finished
//!    game; `lead` counts the lead alone, `win` only winning;
//! 5. **backpropagation** credits every node on the path with the reward of the player who
//!    chose it.
//!
//! A decision that rolls a die (the flier's flight) is a chance node: each iteration's
//! determinization draws the die anew (`Expansion::resample`), the option is played out from
//! there, and what follows the roll (the landing) is searched when it is asked for real.
//!
//! The move played is the most-visited child of the root, ties by mean reward, then by the
//! heuristic's order. The budget is a number of iterations, never time. Every random draw is
//! keyed by the decision's key (seed, turn, player, decision kind, occurrence) and the
//! iteration number; nothing depends on a shared stream, hash order, the clock or the ruleset's
//! name — so a game is the same on any thread and shard, and a renamed copy of a ruleset plays
//! exactly alike. The search runs under the ruleset it plays (its copy of the game), so two
//! rulesets may lead it to different choices in the same position.

use super::{greedy, heuristic, SpareGame};
use crate::engine::rng;
use crate::engine::{Decision, Game, NoEvents, Pending, SeatView, MAX_PLAYERS};

/// Iterations per decision when `mcts` is given without a budget.
/// With the evaluation's block hazard, the search at 400 iterations was no better than
/// `heuristic` (44 % of 500 games), at 800 it won 63 % and at 1600 72 % (300 games each, with
/// the widening and exploration below, own-points weight 0.65). With the weight at 0.75 (see
/// [`OWN_POINTS_WEIGHT`]) 1000 iterations won 59.1 % of 2000 games and 1400 62.8 %
/// (60.6–64.9 %); 1400 costs 0.75 s a base game on one thread here (`bench base --policy mcts
/// --games 6 --rounds 1`), half the target.
pub const DEFAULT_ITERATIONS: u32 = 1400;

/// Whole turns played greedily after the tree's leaf before the position is evaluated. An
/// even number, so that every player moves as often: against `heuristic` (base, 2 players,
/// own-points weight 0.8, before the block hazard) the search won 44 % with 0, 33 % with 1,
/// 60 % with 2 (100 deals each) and 58 % with 4 (300 deals); with the weight at 0.65, 4 turns
/// won 68 % (300 deals).
const PLAYOUT_TURNS: u32 = 4;

/// Score differences are squashed by `tanh(Δ / SQUASH)`.
const SQUASH: f64 = 30.0;

/// Share of the reward that comes from the player's own points (`tanh(total / 100)`) rather
/// than its lead. A search that only counts its lead fights over every feature and both
/// players score less; one that mostly counts its own points builds more but wins less
/// against a player that fights. Experts score about 84 (anchors.md): they build as much as
/// they fight. With the cell-by-cell closing chances and four playout turns (base, 2 players,
/// before the block hazard): 0.5 won 68 % against `heuristic` (300 deals) at 75.8 points per
/// player in self-play, 0.65 68 % at 81.2, 0.7 60 % at 81.5, 0.8 58 %. With the block hazard,
/// under `goldmines-hig-2012` (self-play, 200 iterations, 300 deals) 0.65 handed out 11.6 of the
/// 16 ingots at 116.9 points per player and 0.75 12.0 at 122.6; in the base game, at 1000
/// iterations, 0.75 won 59.1 % against `heuristic` where 0.65 won 61.3 % (2000 games each),
/// which the budget makes up ([`DEFAULT_ITERATIONS`]). The win bonus of a finished game keeps
/// the search playing to win.
const OWN_POINTS_WEIGHT: f64 = 0.75;

/// Own points are squashed by `tanh(total / OWN_POINTS_SCALE)`.
const OWN_POINTS_SCALE: f64 = 100.0;

/// Added to the reward of each winner of a finished game.
const WIN_BONUS: f64 = 0.5;

/// UCB1's exploration constant, for rewards that span about −1 to 1.5. The heuristic's order
/// is a strong prior, so the search widens slowly ([`WIDENING`]) and explores little: against
/// `heuristic` (400 iterations, 500 games) 0.7 with 2√n children won 44 %, 0.35 with √n 54 %;
/// at 800 iterations 51 % and 63 % (300 games).
const EXPLORATION: f64 = 0.35;

/// A node with `n` visits may have ⌈WIDENING · √(n + 1)⌉ children.
const WIDENING: f64 = 1.0;

/// Domain tag of the search's determinization keys.
const DOMAIN: u64 = 0x4D43_5453;

/// The key (under the search's) of the determinization the root's options are ranked on; the
/// iterations use their number, below 2³².
const ROOT: u64 = u64::MAX;

/// What a search plays for: how a playout's end is turned into each player's reward. Part of
/// the policy spec (`mcts:N:STYLE`), so a study can check that its answer does not hinge on
/// the players' style. Δ is a player's total minus the best other player's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub enum MctsStyle {
    /// Points first (the default, `mcts` and `mcts:N`): `0.25·tanh(Δ/30) + 0.75·tanh(total/100)`
    /// plus [`WIN_BONUS`] for a winner of a finished game (see [`OWN_POINTS_WEIGHT`]).
    #[default]
    Points,
    /// The lead alone, as experts play: `tanh(Δ/30)` plus [`WIN_BONUS`] for a winner of a
    /// finished game.
    Lead,
    /// Winning only: 1 for a winner of a finished game, 0 for the others; a playout that ends
    /// before the game does scores the lead's win chance `(1 + tanh(Δ/30)) / 2`.
    Win,
}

impl MctsStyle {
    /// Every style, the default first.
    pub const ALL: [MctsStyle; 3] = [MctsStyle::Points, MctsStyle::Lead, MctsStyle::Win];

    /// The style's name in a policy spec (`mcts:N:NAME`).
    pub fn name(self) -> &'static str {
        match self {
            MctsStyle::Points => "points",
            MctsStyle::Lead => "lead",
            MctsStyle::Win => "win",
        }
    }

    /// The style named `name`, if any.
    pub fn from_name(name: &str) -> Option<MctsStyle> {
        MctsStyle::ALL.into_iter().find(|s| s.name() == name)
    }

    /// A player's reward from its lead `delta` over the best other player and its (expected)
    /// `total`; `won` is `Some(whether it won)` for a finished game, `None` for a playout that
    /// stopped before the end.
    fn reward(self, delta: f64, total: f64, won: Option<bool>) -> f64 {
        let lead = || (delta / SQUASH).tanh();
        let bonus = if won == Some(true) { WIN_BONUS } else { 0.0 };
        match (self, won) {
            // an unfinished game adds no bonus (today's expression, kept exactly)
            (MctsStyle::Points, None) => blend(delta, total),
            (MctsStyle::Points, Some(_)) => blend(delta, total) + bonus,
            (MctsStyle::Lead, None) => lead(),
            (MctsStyle::Lead, Some(_)) => lead() + bonus,
            (MctsStyle::Win, None) => 0.5 * (1.0 + lead()),
            (MctsStyle::Win, Some(w)) => f64::from(u8::from(w)),
        }
    }
}

/// One position in the tree: the state after its path of options from the root.
#[derive(Clone, Copy, Debug)]
struct Node {
    /// The option of the parent's decision that leads here.
    option: u16,
    /// The player who chose that option (the node's value is from that player's view).
    chooser: u8,
    visits: u32,
    reward: f64,
    /// Children, one per option in the heuristic's order, reserved when the node is expanded:
    /// `first .. first + options`; the first `open` of them are in the tree so far.
    first: u32,
    open: u16,
    /// Options of the decision at this node (0 before expansion, at a turn boundary or the end).
    options: u16,
}

impl Node {
    fn new(option: u16, chooser: u8) -> Node {
        Node {
            option,
            chooser,
            visits: 0,
            reward: 0.0,
            first: 0,
            open: 0,
            options: 0,
        }
    }

    fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.reward / self.visits as f64
        }
    }
}

/// The search's scratch space, kept between decisions: a warm search copies the position into
/// its spare games, allocating only the union-find's two vectors per copy.
#[derive(Clone, Debug, Default)]
pub(crate) struct Search {
    nodes: Vec<Node>,
    path: Vec<u32>,
    ranked: Vec<(i64, u16)>,
    greedy: Vec<i64>,
    scratch: heuristic::Scratch,
    /// The iterations' copies of the position.
    spare: SpareGame,
    /// What the search in progress plays for.
    style: MctsStyle,
}

impl Search {
    /// The option to take at decision `d` with `iterations` iterations, playing for `style`.
    pub(crate) fn choose(
        &mut self,
        view: &SeatView,
        d: &Decision,
        iterations: u32,
        style: MctsStyle,
    ) -> usize {
        if d.options <= 1 {
            return 0;
        }
        self.style = style;
        self.nodes.clear();
        self.nodes.push(Node::new(0, d.player));
        let base = rng::key(d.key, DOMAIN);
        let root = self.spare.determinized(view, rng::key(base, ROOT));
        self.expand(0, &root, d);
        self.spare.put(root);
        for i in 0..iterations {
            let mut g = self.spare.determinized(view, rng::key(base, i as u64));
            self.iterate(&mut g);
            self.spare.put(g);
        }
        self.best_root_child()
    }

    /// After a search ([`Search::choose`] with two options or more): the mean reward of the
    /// root's child for `option`, from the deciding player's view; `None` when that option
    /// was never visited.
    pub(crate) fn root_mean(&self, option: usize) -> Option<f64> {
        let root = self.nodes.first()?;
        (root.first..root.first + root.open as u32)
            .filter_map(|c| self.nodes.get(c as usize))
            .find(|c| c.option as usize == option && c.visits > 0)
            .map(Node::mean)
    }

    /// Ranks the options of decision `d` (pending in `g`) and reserves a child of node `n`
    /// for each, best first.
    fn expand(&mut self, n: u32, g: &Game, d: &Decision) {
        let supply = heuristic::Supply::for_viewer(g, d.player);
        self.ranked.clear();
        for i in 0..d.options.min(u16::MAX as usize) {
            let v = heuristic::try_option(g, i, d.player, &supply, &mut self.scratch);
            self.ranked.push((-v, i as u16));
        }
        // best first; equal values keep the engine's option order (no hash, no clock)
        self.ranked.sort_unstable();
        let first = self.nodes.len() as u32;
        self.nodes
            .extend(self.ranked.iter().map(|&(_, i)| Node::new(i, d.player)));
        let node = &mut self.nodes[n as usize];
        node.first = first;
        node.options = self.ranked.len() as u16;
    }

    /// One iteration on the determinized copy `g`.
    fn iterate(&mut self, g: &mut Game) {
        self.path.clear();
        let mut n = 0u32;
        self.path.push(n);
        // a turn boundary or the end is a leaf
        while let Pending::Decision(d) = g.pending() {
            let node = self.nodes[n as usize];
            if node.options == 0 {
                // first visit of a decision node: rank its options, then play out
                self.expand(n, g, &d);
                break;
            }
            let allowed = widening(node.visits).min(node.options as u32) as u16;
            let child = if node.open < allowed {
                // widen: the next option in the heuristic's order enters the tree
                self.nodes[n as usize].open += 1;
                node.first + node.open as u32
            } else {
                self.select(n)
            };
            let option = self.nodes[child as usize].option as usize;
            // an option that rolls a die (the flier's) is a chance node: this iteration's
            // determinization drew the roll, so what follows differs between iterations and
            // is played out, not kept in the tree
            let chance = g.chance_outcomes(d.kind, option) > 0;
            g.apply_unchecked(option);
            n = child;
            self.path.push(n);
            if chance || self.nodes[n as usize].visits == 0 {
                break; // a new node (or a roll): play out from here
            }
        }
        let reward = self.playout(g);
        for &k in &self.path {
            let node = &mut self.nodes[k as usize];
            node.visits += 1;
            node.reward += reward[node.chooser as usize];
        }
    }

    /// The child of `n` with the best UCB1 value for the player deciding at `n`.
    fn select(&self, n: u32) -> u32 {
        let node = self.nodes[n as usize];
        let ln = (node.visits.max(1) as f64).ln();
        let mut best = (f64::NEG_INFINITY, node.first);
        for c in node.first..node.first + node.open as u32 {
            let child = &self.nodes[c as usize];
            let ucb = if child.visits == 0 {
                f64::INFINITY
            } else {
                child.mean() + EXPLORATION * (ln / child.visits as f64).sqrt()
            };
            if ucb > best.0 {
                best = (ucb, c);
            }
        }
        best.1
    }

    /// Plays `g` on greedily to the end of the turn and [`PLAYOUT_TURNS`] more, and returns
    /// every player's reward.
    fn playout(&mut self, g: &mut Game) -> [f64; MAX_PLAYERS] {
        let mut turns = 0;
        loop {
            match g.pending() {
                Pending::Decision(d) => {
                    let pick = greedy::choose(&SeatView::new(g, d.player), &d, &mut self.greedy);
                    g.apply_unchecked(pick);
                }
                Pending::Draw => {
                    if turns == PLAYOUT_TURNS {
                        break;
                    }
                    turns += 1;
                    if !g.draw(&mut NoEvents) {
                        g.finish_now(&mut NoEvents);
                    }
                }
                Pending::End => break,
            }
        }
        let players = g.players();
        let mut reward = [0.0; MAX_PLAYERS];
        if g.is_finished() {
            let mut total = [0.0; MAX_PLAYERS];
            for (t, &s) in total.iter_mut().zip(g.scores()) {
                *t = s as f64;
            }
            let best = total[..players as usize]
                .iter()
                .copied()
                .fold(f64::NEG_INFINITY, f64::max);
            for q in 0..players {
                let delta = heuristic::relative(&total, players, q);
                let won = total[q as usize] == best;
                reward[q as usize] = self.style.reward(delta, total[q as usize], Some(won));
            }
        } else {
            let supply = heuristic::Supply::of(g);
            let total = heuristic::totals(g, &supply, &mut self.scratch);
            for q in 0..players {
                let delta = heuristic::relative(&total, players, q);
                reward[q as usize] = self.style.reward(delta, total[q as usize], None);
            }
        }
        reward
    }

    /// The most-visited child of the root (ties by mean reward, then the heuristic's order).
    fn best_root_child(&self) -> usize {
        let root = self.nodes[0];
        let mut best = root.first;
        for c in root.first + 1..root.first + root.open.max(1) as u32 {
            let (a, b) = (&self.nodes[c as usize], &self.nodes[best as usize]);
            if (a.visits, a.mean()) > (b.visits, b.mean()) {
                best = c;
            }
        }
        self.nodes[best as usize].option as usize
    }
}

/// The `points` style's reward from a player's lead `delta` over the best other player and its
/// own expected `total`: mostly its own points, partly its lead (see [`OWN_POINTS_WEIGHT`]).
fn blend(delta: f64, total: f64) -> f64 {
    (1.0 - OWN_POINTS_WEIGHT) * (delta / SQUASH).tanh()
        + OWN_POINTS_WEIGHT * (total / OWN_POINTS_SCALE).tanh()
}

/// Children a node with `visits` visits may have: ⌈[`WIDENING`] · √(visits + 1)⌉.
fn widening(visits: u32) -> u32 {
    (WIDENING * ((visits + 1) as f64).sqrt()).ceil() as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::test_support::{bundled, plays_legally, rules};
    use crate::policy::{Policy, PolicyKind};
    use std::path::Path;

    #[test]
    fn legal_choices_only_in_every_bundled_ruleset() {
        for (k, path) in bundled().iter().enumerate() {
            plays_legally(
                PolicyKind::Mcts(6, MctsStyle::Points),
                path,
                k as u64,
                2 + (k % 3) as u8,
            );
        }
    }

    #[test]
    fn same_seed_same_game_and_the_budget_matters() {
        let r = rules(Path::new("rulesets/base.rules"));
        let play = |seed, iterations| {
            let mut g = Game::new(r.clone(), seed, 2);
            g.enable_record();
            let out = g.play(
                &mut Policy::new(PolicyKind::Mcts(iterations, MctsStyle::Points)),
                &mut NoEvents,
            );
            (out, g.take_record())
        };
        let a = play(3, 10);
        assert_eq!(a, play(3, 10), "same seed, same budget: the same game");
        assert_ne!(a.1, play(3, 40).1, "another budget searches otherwise");
        assert_ne!(a.1, play(4, 10).1, "another seed, another game");
    }

    /// Totals of both seats of one two-player game in which every seat plays `kind`.
    fn totals(ruleset: &str, seed: u64, kind: PolicyKind) -> Vec<i64> {
        let r = rules(Path::new(ruleset));
        let mut g = Game::new(r, seed, 2);
        let out = g.play(&mut Policy::new(kind), &mut NoEvents);
        out.seats.iter().map(|s| s.total).collect()
    }

    #[test]
    fn the_default_style_plays_as_before_styles_existed() {
        // `meeplab play RULESET --seed S --policy mcts:30` of commit cf83de8, before the style
        // was part of the spec: base seed 3 ended 91–97, goldmines-hig-2012 seed 11 67–158
        // (the whole JSON output was checked byte for byte when the style was added). Since
        // the search determinizes from the seat's view (issue 41: the unseen tiles as a
        // multiset, no longer the pack's true order shuffled), the same games end 81–112 and
        // 73–104; `mcts:30` (the default style) and `mcts:30:points` still play alike.
        let points = |n| PolicyKind::Mcts(n, MctsStyle::Points);
        assert_eq!(totals("rulesets/base.rules", 3, points(30)), [81, 112]);
        assert_eq!(
            totals("rulesets/goldmines-hig-2012.rules", 11, points(30)),
            [73, 104]
        );
        assert_eq!(MctsStyle::default(), MctsStyle::Points);
    }

    #[test]
    fn lead_and_win_play_otherwise_than_points_and_legally() {
        let r = rules(Path::new("rulesets/base.rules"));
        let record = |style| {
            let mut g = Game::new(r.clone(), 5, 2);
            g.enable_record();
            g.play(&mut Policy::new(PolicyKind::Mcts(50, style)), &mut NoEvents);
            g.take_record()
        };
        let points = record(MctsStyle::Points);
        assert_ne!(points, record(MctsStyle::Lead), "lead plays otherwise");
        assert_ne!(points, record(MctsStyle::Win), "win plays otherwise");
        assert_eq!(
            record(MctsStyle::Lead),
            record(MctsStyle::Lead),
            "and alike twice"
        );
        for (k, style) in [MctsStyle::Lead, MctsStyle::Win].into_iter().enumerate() {
            let path = Path::new("rulesets/goldmines-hig-2012.rules");
            plays_legally(PolicyKind::Mcts(6, style), path, 20 + k as u64, 3);
        }
    }

    #[test]
    fn each_style_rewards_what_it_plays_for() {
        // ahead by 30 with 60 points, in a finished game won, lost, and unfinished
        let (d, t) = (30.0, 60.0);
        let lead = (1.0f64).tanh();
        let p = MctsStyle::Points;
        assert_eq!(p.reward(d, t, None), blend(d, t));
        assert_eq!(p.reward(d, t, Some(true)), blend(d, t) + WIN_BONUS);
        assert_eq!(p.reward(d, t, Some(false)), blend(d, t));
        assert_eq!(MctsStyle::Lead.reward(d, t, None), lead);
        assert_eq!(
            MctsStyle::Lead.reward(d, 999.0, None),
            lead,
            "points do not count"
        );
        assert_eq!(MctsStyle::Lead.reward(d, t, Some(true)), lead + WIN_BONUS);
        assert_eq!(MctsStyle::Win.reward(d, t, Some(true)), 1.0);
        assert_eq!(MctsStyle::Win.reward(-d, t, Some(false)), 0.0);
        assert_eq!(MctsStyle::Win.reward(0.0, t, None), 0.5);
        assert!(MctsStyle::Win.reward(d, t, None) > 0.5);
    }

    #[test]
    fn the_search_leaves_the_position_untouched() {
        let r = rules(Path::new("rulesets/goldmines-hig-2012.rules"));
        let mut g = Game::new(r, 9, 3);
        g.setup(&mut NoEvents);
        assert!(g.draw(&mut NoEvents));
        let Pending::Decision(d) = g.pending() else {
            panic!("a placement is pending")
        };
        let before = (g.unseen().to_vec(), g.state_bytes(), g.outcome());
        let mut search = Search::default();
        let pick = search.choose(&SeatView::new(&g, d.player), &d, 30, MctsStyle::Points);
        assert!(pick < d.options);
        assert_eq!(before, (g.unseen().to_vec(), g.state_bytes(), g.outcome()));
        // the root's children were all ranked, and the visits add up to the budget
        let root = search.nodes[0];
        assert_eq!(root.options as usize, d.options);
        assert_eq!(root.visits, 30);
        let children: u32 = (root.first..root.first + root.open as u32)
            .map(|c| search.nodes[c as usize].visits)
            .sum();
        assert_eq!(children, 30);
    }

    #[test]
    fn widening_grows_with_the_square_root() {
        assert_eq!(widening(0), 1);
        assert_eq!(widening(3), 2);
        assert_eq!(widening(8), 3);
        assert_eq!(widening(99), 10);
    }
}
