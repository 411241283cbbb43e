//! The expansions, each in its own module, and their registration. An expansion owns its
//! state (a type stored in the game and copied with it), its options (read from the ruleset)
//! and its decisions, and acts only at the hooks the core offers (`hooks.rs`): points of the
//! turn where it may ask decisions ([`Hook`]: tile drawn, tile placed, the turn's scoring
//! step closes, after scoring, turn end, final scoring, final scoring done) and notices it
//! hears in passing ([`Notice`]: a scoring step begins, a feature is scored, points are
//! scored). The core turn code names no expansion.
//!
//! A game carries a [`Set`]: every registered expansion's state, plus, for each hook and each
//! notice, the list of those its ruleset uses that act there, in registration order (the
//! order they act in). Dispatch is a `match` over such a list (no boxed trait objects), and
//! the turn skips hooks where nobody acts: copying a game copies the states as plain values.
//!
//! # Adding an expansion
//! 1. Write one module here, say `towers.rs`: a state type (`#[derive(Clone, Default)]`,
//!    its progress through a hook kept as data so the turn can pause at a decision and
//!    resume) and `impl Expansion for Towers`: `HOOKS` and `HEARS` (where it acts),
//!    `used_by` (does the ruleset use it), `reset`, and `on`, `notice`, `outcome` as needed,
//!    plus `seat_state` when it holds something per seat (the end-of-turn state hash that
//!    compare's divergence reads must see it). It reaches its own state through `Holds<Towers>` (`g.ext.state_mut()`), and the board, scores, events and
//!    decisions through the game's crate-visible methods (`emit`, `ask`, `award`, the
//!    option buffers).
//! 2. Register it: `mod towers;` and one line `towers: towers::Towers,` in the `registry!`
//!    list below, placed where it should act relative to the others at a shared hook.
//!
//! Its rule options, events, decision kinds and outcome counters are added where those live
//! (the ruleset, `event.rs`, `decision.rs`, `outcome.rs`).

mod crop;
mod gold;
mod robbers;

use crate::engine::compiled::Compiled;
use crate::engine::event::EventSink;
use crate::engine::game::Game;
use crate::engine::hooks::{Expansion, Expansions, Heard, Holds, Hook, Notice};
use crate::engine::outcome::GameOutcome;

/// Declares the registered expansions (field name: state type, in acting order) and builds
/// the [`Set`] and its dispatch from that one list.
macro_rules! registry {
    ($($field:ident: $ty:ty),* $(,)?) => {
        /// A registered expansion.
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        enum Member {
            $($field),*
        }

        const ALL: [Member; [$(Member::$field),*].len()] = [$(Member::$field),*];
        // `Set::used` has a bit per member
        const _: () = assert!(ALL.len() <= 8);

        /// Every registered expansion's state, and which of them this game's ruleset uses
        /// at each hook and notice.
        pub struct Set {
            /// A bit per member (registration order): taking part in this game.
            used: u8,
            /// Per hook: the expansions taking part that act there, in acting order (the
            /// first `hooked_len[hook]`).
            hooked: [[Member; ALL.len()]; Hook::COUNT],
            hooked_len: [u8; Hook::COUNT],
            /// Per notice: the expansions taking part that hear it.
            hearing: [[Member; ALL.len()]; Heard::COUNT],
            hearing_len: [u8; Heard::COUNT],
            $($field: $ty),*
        }

        impl Expansions for Set {
            fn for_rules(rules: &Compiled) -> Self {
                let mut set = Set {
                    used: 0,
                    hooked: [ALL; Hook::COUNT],
                    hooked_len: [0; Hook::COUNT],
                    hearing: [ALL; Heard::COUNT],
                    hearing_len: [0; Heard::COUNT],
                    $($field: <$ty>::default()),*
                };
                for m in ALL {
                    let (used, hooks, hears) = match m {
                        $(Member::$field => (
                            <$ty as Expansion>::used_by(rules),
                            <$ty as Expansion>::HOOKS,
                            <$ty as Expansion>::HEARS,
                        )),*
                    };
                    if !used {
                        continue;
                    }
                    set.used |= 1 << m as u8;
                    for &h in hooks {
                        let len = &mut set.hooked_len[h as usize];
                        set.hooked[h as usize][*len as usize] = m;
                        *len += 1;
                    }
                    for &h in hears {
                        let len = &mut set.hearing_len[h as usize];
                        set.hearing[h as usize][*len as usize] = m;
                        *len += 1;
                    }
                }
                set
            }

            fn reset(&mut self) {
                $(self.$field.reset();)*
            }

            fn taking_part(&self) -> Vec<&'static str> {
                ALL.iter()
                    .filter(|&&m| self.used & (1 << m as u8) != 0)
                    .map(|&m| match m {
                        $(Member::$field => stringify!($field)),*
                    })
                    .collect()
            }

            fn heap_bytes(&self) -> usize {
                0 $(+ self.$field.heap_bytes())*
            }

            #[inline]
            fn acts_at(&self, at: Hook) -> bool {
                self.hooked_len[at as usize] > 0
            }

            fn outcome(&self, out: &mut GameOutcome) {
                $(self.$field.outcome(out);)*
            }

            fn seat_state(&self, seat: usize) -> u64 {
                // each member's word turned by its own amount, so two never cancel
                0u64 $(.wrapping_add(
                    self.$field.seat_state(seat).rotate_left(16 * Member::$field as u32),
                ))*
            }

            #[inline]
            fn run<S: EventSink>(
                g: &mut Game<Self>,
                s: &mut S,
                at: Hook,
                from: u8,
                mut answer: Option<usize>,
            ) -> Option<u8> {
                let mut k = from;
                while k < g.ext.hooked_len[at as usize] {
                    let asked = match g.ext.hooked[at as usize][k as usize] {
                        $(Member::$field => <$ty as Expansion>::on(g, s, at, answer.take())),*
                    };
                    if asked {
                        return Some(k);
                    }
                    k += 1;
                }
                None
            }

            #[inline]
            fn notify<S: EventSink>(g: &mut Game<Self>, s: &mut S, n: Notice) {
                let heard = n.kind() as usize;
                for k in 0..g.ext.hearing_len[heard] {
                    match g.ext.hearing[heard][k as usize] {
                        $(Member::$field => <$ty as Expansion>::notice(g, s, n)),*
                    }
                }
            }
        }

        /// A copy carries the states of the expansions taking part; the others are unused
        /// and stay at their defaults (nothing to copy).
        impl Clone for Set {
            fn clone(&self) -> Self {
                Set {
                    used: self.used,
                    hooked: self.hooked,
                    hooked_len: self.hooked_len,
                    hearing: self.hearing,
                    hearing_len: self.hearing_len,
                    $($field: if self.used & (1 << Member::$field as u8) != 0 {
                        self.$field.clone()
                    } else {
                        <$ty>::default()
                    }),*
                }
            }

            /// Reuses this set's vectors (a search copies positions many times). Members the
            /// source does not use go back to their defaults, as in `clone`.
            fn clone_from(&mut self, source: &Self) {
                let was = self.used;
                self.used = source.used;
                self.hooked = source.hooked;
                self.hooked_len = source.hooked_len;
                self.hearing = source.hearing;
                self.hearing_len = source.hearing_len;
                $(if source.used & (1 << Member::$field as u8) != 0 {
                    self.$field.clone_from(&source.$field);
                } else if was & (1 << Member::$field as u8) != 0 {
                    self.$field = <$ty>::default();
                })*
            }
        }

        $(
            impl Holds<$ty> for Set {
                #[inline]
                fn state(&self) -> &$ty {
                    &self.$field
                }
                #[inline]
                fn state_mut(&mut self) -> &mut $ty {
                    &mut self.$field
                }
            }
        )*
    };
}

registry! {
    robbers: robbers::Robbers,
    gold: gold::Gold,
    crop: crop::CropCircles,
}

#[cfg(test)]
mod tests {
    use crate::engine::{compile, Game};
    use std::path::Path;

    #[test]
    fn a_copy_carries_the_states_of_the_expansions_taking_part() {
        let loaded = crate::dsl::load_ruleset(Path::new("rulesets/robbers-2012.rules"))
            .unwrap_or_else(|d| panic!("{d}"));
        let mut g = Game::new(compile(&loaded.ruleset), 1, 3);
        g.set_robber_for_test(1, Some(7));
        assert_eq!(g.clone().robbers(), &[None, Some(7), None]);
        // gold takes no part under this ruleset: its state is not copied
        g.set_ingots_held_for_test(0, 5);
        assert_eq!((g.ingots_held(0), g.clone().ingots_held(0)), (5, 0));
    }
}
