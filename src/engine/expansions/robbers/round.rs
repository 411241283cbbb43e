//! The robber round: a robber tile was drawn, and the players the ruleset names, in turn,
//! place a robber on a space of the score track or move one they have there (or pass).

use super::{RobberPlacers, Robbers, ROBBER_PASSED, ROBBER_PLACE, ROBBER_PLACED};
use crate::engine::event::{Event, EventSink, ExpansionEvent};
use crate::engine::game::{Game, MAX_PLAYERS, NIL};
use crate::engine::hooks::Holds;

impl<X: Holds<Robbers>> Game<X> {
    /// A robber tile was drawn: the players the ruleset names will place or move robbers
    /// (see [`Game::robber_round`]).
    pub(crate) fn robber_round_begin(&mut self) {
        let Some(placers) = self.ext.state().config.as_ref().map(|r| r.placers) else {
            self.ext.state_mut().round_len = 0;
            self.ext.state_mut().round_k = 0;
            return;
        };
        let n = self.players;
        let active = self.active;
        let mut order: [u8; MAX_PLAYERS] = [0; MAX_PLAYERS];
        let mut len = 0;
        order[len] = active;
        len += 1;
        for k in 1..n {
            let p = (active + k) % n;
            let in_supply = self.ext.state_mut().at[p as usize].is_none();
            match placers {
                RobberPlacers::NextWithRobber => {
                    if in_supply {
                        order[len] = p;
                        len += 1;
                        break;
                    }
                }
                RobberPlacers::AllOthers => {
                    if in_supply {
                        order[len] = p;
                        len += 1;
                    }
                }
                RobberPlacers::AllFromActive => {
                    order[len] = p;
                    len += 1;
                }
            }
        }
        self.ext.state_mut().round = order;
        self.ext.state_mut().round_len = len as u8;
        self.ext.state_mut().round_k = 0;
    }

    /// The placement round, resumable: `choice` answers the robber decision last asked.
    /// Returns true when it asked a decision (the turn pauses), false when the round is over.
    pub(crate) fn robber_round<S: EventSink>(&mut self, s: &mut S, choice: Option<usize>) -> bool {
        let active_may_move = self
            .ext
            .state()
            .config
            .as_ref()
            .is_some_and(|r| r.active_may_move);
        let n = self.players;
        let active = self.active;
        if let Some(i) = choice {
            let r = self.ext.state_mut();
            let p = r.round[r.round_k as usize];
            self.ext.state_mut().round_k += 1;
            let current = self.ext.state_mut().at[p as usize];
            let space = self.opt_space[i];
            if space == NIL {
                self.emit(
                    s,
                    Event::Expansion(ExpansionEvent::new(
                        ROBBER_PASSED,
                        &[self.turn as i64, p as i64],
                    )),
                );
            } else {
                self.ext.state_mut().at[p as usize] = Some(space);
                self.ext.state_mut().placements += 1;
                self.emit(
                    s,
                    Event::Expansion(ExpansionEvent::new(
                        ROBBER_PLACED,
                        &[
                            self.turn as i64,
                            p as i64,
                            space as i64,
                            (current.is_some()) as i64,
                        ],
                    )),
                );
            }
        }
        while self.ext.state().round_k < self.ext.state().round_len {
            let r = self.ext.state_mut();
            let p = r.round[r.round_k as usize];
            let current = self.ext.state_mut().at[p as usize];
            if current.is_some() && !(p == active && active_may_move) {
                self.ext.state_mut().round_k += 1;
                continue;
            }
            // spaces holding at least one other player's marker (either scoring figure with
            // the Messengers: the space names the figure the robber stands beside)
            self.opt_space.clear();
            self.opt_space.push(NIL);
            let mut spaces: [u32; 2 * MAX_PLAYERS] = [0; 2 * MAX_PLAYERS];
            let mut len = 0;
            for q in 0..n {
                if q == p {
                    continue;
                }
                let (figs, k) = self.figure_spaces(q);
                for &sp in &figs[..k] {
                    if Some(sp) != current {
                        spaces[len] = sp;
                        len += 1;
                    }
                }
            }
            let spaces = &mut spaces[..len];
            spaces.sort_unstable();
            let mut last = None;
            for &sp in spaces.iter() {
                if last != Some(sp) {
                    self.opt_space.push(sp);
                    last = Some(sp);
                }
            }
            let k = self.opt_space.len();
            self.ask(ROBBER_PLACE, p, k);
            return true;
        }
        false
    }
}
