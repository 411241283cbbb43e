//! Copies of a game. `Clone` copies the whole position; `clone_from` does the same into a game
//! kept for the purpose, reusing its vectors, so a search that copies the position once per
//! iteration allocates little once warm: only the robbers' and crop circles' vectors while a
//! step of theirs is under way (derived copies). [`Game::copy_position_from`] copies the
//! position without the divergence records, for a search's scratch copies that only need to
//! play on.
//!
//! Every field is named (in `clone`'s struct literal and in `copy_from`'s destructuring), so a
//! field added to `Game` without being copied here does not compile.

use crate::engine::game::Game;
use crate::engine::hooks::Expansions;

impl<X: Clone> Clone for Game<X> {
    fn clone(&self) -> Self {
        Game {
            rules: self.rules.clone(),
            seed: self.seed,
            key_seed: self.key_seed,
            players: self.players,
            limit: self.limit,
            room: self.room,
            board: self.board.clone(),
            frontier: self.frontier.clone(),
            open_cloisters: self.open_cloisters.clone(),
            placed: self.placed.clone(),
            uf: self.uf.clone(),
            comps: self.comps.clone(),
            nodes: self.nodes.clone(),
            stamp: self.stamp.clone(),
            stamp_gen: self.stamp_gen,
            followers: self.followers.clone(),
            supply: self.supply,
            kind_supply: self.kind_supply,
            held: self.held,
            score: self.score,
            by_cat: self.by_cat,
            followers_placed: self.followers_placed,
            deck: self.deck.clone(),
            // scratch of the shuffle, empty between calls
            deck_keys: Vec::new(),
            deck_pos: self.deck_pos,
            discarded: self.discarded,
            draws: self.draws.clone(),
            hand_size: self.hand_size,
            hands: self.hands,
            hand_len: self.hand_len,
            next_seat: self.next_seat,
            extra_turns: self.extra_turns,
            bare_marks: self.bare_marks,
            turn: self.turn,
            active: self.active,
            current: self.current,
            last_placed: self.last_placed,
            place_tag: self.place_tag,
            figure_action_taken: self.figure_action_taken,
            touched: self.touched,
            filled_near: self.filled_near,
            retypes: self.retypes,
            occurrences: self.occurrences,
            step: self.step,
            hook_member: self.hook_member,
            asked: self.asked,
            turn_key: self.turn_key,
            opt_place: self.opt_place.clone(),
            n_place: self.n_place,
            opt_follow: self.opt_follow.clone(),
            opt_tile: self.opt_tile.clone(),
            opt_space: self.opt_space.clone(),
            opt_player: self.opt_player.clone(),
            opt_node: self.opt_node.clone(),
            opt_pick: self.opt_pick,
            n_pick: self.n_pick,
            completed: self.completed.clone(),
            ext: self.ext.clone(),
            divergence_records: self.divergence_records,
            hash: self.hash,
            turn_hashes: self.turn_hashes.clone(),
            tracker: self.tracker.clone(),
            lead: self.lead,
            lead_changes: self.lead_changes,
            record: self.record.clone(),
            // a cache of the set-up (not the position): a copy reads the options anew
            configured: None,
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.copy_from(source, true);
    }
}

impl<X: Clone> Game<X> {
    /// `clone_from`, with or without the divergence records (without them this copy stops
    /// keeping records, see [`Game::keep_divergence_records`]).
    fn copy_from(&mut self, source: &Self, records: bool) {
        let Game {
            rules,
            seed,
            key_seed,
            players,
            limit,
            room,
            board,
            frontier,
            open_cloisters,
            placed,
            uf,
            comps,
            nodes,
            stamp,
            stamp_gen,
            followers,
            supply,
            kind_supply,
            held,
            score,
            by_cat,
            followers_placed,
            deck,
            deck_keys: _,
            deck_pos,
            discarded,
            draws,
            hand_size,
            hands,
            hand_len,
            next_seat,
            extra_turns,
            bare_marks,
            turn,
            active,
            current,
            last_placed,
            place_tag,
            figure_action_taken,
            touched,
            filled_near,
            retypes,
            occurrences,
            step,
            hook_member,
            asked,
            turn_key,
            opt_place,
            n_place,
            opt_follow,
            opt_tile,
            opt_space,
            opt_player,
            opt_node,
            opt_pick,
            n_pick,
            completed,
            ext,
            divergence_records,
            hash,
            turn_hashes,
            tracker,
            lead,
            lead_changes,
            record,
            // a cache of the set-up keyed by its rules (not the position): this copy's stays
            configured: _,
        } = source;
        // the same rules (the usual case) leave the shared reference count alone
        if !std::sync::Arc::ptr_eq(&self.rules, rules) {
            self.rules = rules.clone();
        }
        (self.seed, self.players, self.limit, self.room) = (*seed, *players, *limit, *room);
        self.key_seed = *key_seed;
        self.board.clone_from(board);
        self.frontier.clone_from(frontier);
        self.open_cloisters.clone_from(open_cloisters);
        self.placed.clone_from(placed);
        self.uf.clone_from(uf);
        self.comps.clone_from(comps);
        self.nodes.clone_from(nodes);
        self.stamp.clone_from(stamp);
        self.stamp_gen = *stamp_gen;
        self.followers.clone_from(followers);
        (self.supply, self.score) = (*supply, *score);
        (self.kind_supply, self.held) = (*kind_supply, *held);
        (self.by_cat, self.followers_placed) = (*by_cat, *followers_placed);
        self.deck.clone_from(deck);
        (self.deck_pos, self.discarded) = (*deck_pos, *discarded);
        self.draws.clone_from(draws);
        (self.hand_size, self.hands, self.hand_len) = (*hand_size, *hands, *hand_len);
        self.next_seat = *next_seat;
        self.extra_turns = *extra_turns;
        self.bare_marks = *bare_marks;
        (self.turn, self.active, self.current) = (*turn, *active, *current);
        (self.last_placed, self.occurrences) = (*last_placed, *occurrences);
        (self.place_tag, self.touched) = (*place_tag, *touched);
        (self.filled_near, self.retypes) = (*filled_near, *retypes);
        self.figure_action_taken = *figure_action_taken;
        (self.step, self.hook_member, self.asked, self.turn_key) =
            (*step, *hook_member, *asked, *turn_key);
        self.opt_place.clone_from(opt_place);
        self.n_place = *n_place;
        self.opt_follow.clone_from(opt_follow);
        self.opt_tile.clone_from(opt_tile);
        self.opt_space.clone_from(opt_space);
        self.opt_player.clone_from(opt_player);
        self.opt_node.clone_from(opt_node);
        (self.opt_pick, self.n_pick) = (*opt_pick, *n_pick);
        self.completed.clone_from(completed);
        self.ext.clone_from(ext);
        self.hash = *hash;
        (self.lead, self.lead_changes) = (*lead, *lead_changes);
        self.record.clone_from(record);
        self.divergence_records = *divergence_records && records;
        if records {
            self.turn_hashes.clone_from(turn_hashes);
            self.tracker.clone_from(tracker);
        } else {
            self.turn_hashes.clear();
            self.tracker.clear();
        }
    }
}

impl<X: Expansions> Game<X> {
    /// Make this game a copy of `source`'s position, reusing this game's allocations, without
    /// the divergence records (this copy keeps none from then on): plays on exactly as
    /// `source` would, for a search's scratch copies.
    pub fn copy_position_from(&mut self, source: &Self) {
        self.copy_from(source, false);
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::event::NoEvents;
    use crate::engine::{compile, Chooser, Decision, Game, GameOutcome, Pending};
    use std::path::Path;

    /// The option the decision's key picks.
    fn keyed(d: &Decision) -> usize {
        (d.key % d.options as u64) as usize
    }

    /// Every decision by its key.
    struct Keyed;

    impl Chooser for Keyed {
        fn choose(&mut self, _g: &Game, d: &Decision) -> usize {
            keyed(d)
        }
    }

    /// Plays `g` on to the end with the keyed option everywhere; the outcome.
    fn finish(mut g: Game) -> GameOutcome {
        g.play(&mut Keyed, &mut NoEvents)
    }

    /// A game of `ruleset` stopped part-way (after `turns` turns, at a decision).
    fn part_way(ruleset: &str, seed: u64, turns: u32) -> Game {
        let path = format!("rulesets/{ruleset}.rules");
        let loaded = crate::dsl::load_ruleset(Path::new(&path)).unwrap_or_else(|d| panic!("{d}"));
        let mut g = Game::new(compile(&loaded.ruleset), seed, 3);
        g.setup(&mut NoEvents);
        while g.turn() < turns {
            match g.pending() {
                Pending::Decision(d) => g.apply_unchecked(keyed(&d)),
                Pending::Draw => assert!(g.draw(&mut NoEvents)),
                Pending::End => unreachable!("the game ended before turn {turns}"),
            }
        }
        g
    }

    #[test]
    fn clone_from_into_another_game_plays_on_identically() {
        for ruleset in ["base", "goldmines-hig-2012", "robbers-2012", "cropcircles"] {
            let source = part_way(ruleset, 7, 30);
            // a target that played another game, further on (bigger board, other vectors)
            let mut target = part_way(ruleset, 8, 50);
            target.clone_from(&source);
            let a = finish(source.clone());
            let b = finish(target);
            assert_eq!(a, b, "{ruleset}");
            assert!(!a.turn_hashes.is_empty());
        }
    }

    #[test]
    fn a_position_copy_plays_the_same_game_without_records() {
        for ruleset in ["base", "goldmines-hig-2012", "robbers-2012", "cropcircles"] {
            let source = part_way(ruleset, 11, 25);
            let mut copy = part_way(ruleset, 12, 40);
            copy.copy_position_from(&source);
            let full = finish(source.clone());
            let bare = finish(copy);
            assert_eq!(full.seats, bare.seats, "{ruleset}");
            assert_eq!(full.winners, bare.winners, "{ruleset}");
            assert_eq!(full.lead_changes, bare.lead_changes, "{ruleset}");
            assert!(bare.turn_hashes.is_empty() && bare.state_hashes.is_empty());
            assert!(bare.choice_marks.is_empty() && bare.leaders.is_empty());
        }
    }

    /// Copies made at every decision of a game (mid-turn, with ingots to place or hand out,
    /// a robber step or a crop circle pending), into a game that has played elsewhere, finish
    /// exactly as the game itself does.
    #[test]
    fn a_copy_at_any_decision_finishes_as_the_game_does() {
        for ruleset in [
            "goldmines-hig-2012",
            "goldmines-rgg",
            "robbers-2012",
            "cropcircles",
        ] {
            /// At every decision: copy the game (whole and position only, by turns) and play
            /// the copy out; then the keyed option.
            struct CopyEach {
                spare: Game,
                whole: GameOutcome,
                copies: u32,
                ruleset: &'static str,
            }
            impl Chooser for CopyEach {
                fn choose(&mut self, g: &Game, d: &Decision) -> usize {
                    let ruleset = self.ruleset;
                    if self.copies.is_multiple_of(2) {
                        self.spare.clone_from(g);
                        assert_eq!(finish(self.spare.clone()), self.whole, "{ruleset}");
                    } else {
                        self.spare.copy_position_from(g);
                        let end = finish(self.spare.clone());
                        assert_eq!(end.seats, self.whole.seats, "{ruleset}");
                        assert_eq!(end.turns, self.whole.turns, "{ruleset}");
                    }
                    self.copies += 1;
                    keyed(d)
                }
            }
            let mut g = part_way(ruleset, 3, 0);
            let mut each = CopyEach {
                whole: finish(g.clone()),
                spare: part_way(ruleset, 4, 20),
                copies: 0,
                ruleset,
            };
            g.play(&mut each, &mut NoEvents);
            assert!(each.copies > 100, "{ruleset}: {} decisions", each.copies);
        }
    }

    /// A gold game copied into by a base game keeps no gold: the expansions the source does
    /// not use go back to their defaults.
    #[test]
    fn a_copy_from_other_rules_keeps_nothing_of_the_expansions_it_lacks() {
        let base = finish(part_way("base", 5, 10));
        let mut target = part_way("goldmines-hig-2012", 6, 70);
        assert!(target.ingots_on_board() + target.ingots_held(0) + target.ingots_held(1) > 0);
        target.clone_from(&part_way("base", 5, 10));
        assert_eq!(target.ingots_on_board(), 0);
        let end = finish(target);
        assert_eq!(end, base);
        assert!(end.seats.iter().all(|s| s.counts == Default::default()));
    }
}
