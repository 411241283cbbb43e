//! Robberies during a scoring step: when a marker leaves a robber's space because of points
//! scored, the robber's owner scores a share and the robber goes home; several victims in
//! one step are settled when the step ends (the owner's choice or the first scored), and a
//! robber carried along by robber points waits for the next step.

use super::RobberVictim;
use super::{Move, Robbers, Robbery, ROBBED, ROBBER_CARRIED, ROBBER_VICTIM};
use crate::engine::event::{Event, EventSink, ExpansionEvent};
use crate::engine::game::{Game, MAX_PLAYERS};
use crate::engine::hooks::{Holds, Hook};
use crate::ruleset::Vars;

impl<X: Holds<Robbers>> Game<X> {
    /// A scoring step (the turn's completed features, or final scoring) begins.
    pub(crate) fn robber_step_begin(&mut self) {
        self.ext.state_mut().in_step = true;
        self.ext.arm(Hook::TurnScored);
        let r = self.ext.state_mut();
        r.step_start = r.at;
        self.ext.state_mut().step.clear();
    }

    /// `player`'s marker (or one of its scoring figures) advanced from `before` by `points`.
    /// `may_defer`: a marker's move in a scoring step may wait for the step's end (the
    /// owner's choice of victim); a figure's move is settled at once (each is its own
    /// decision, in order).
    pub(crate) fn on_marker_moved<S: EventSink>(
        &mut self,
        s: &mut S,
        player: u8,
        before: i64,
        points: i64,
        robbable: bool,
        may_defer: bool,
    ) {
        if self.ext.state_mut().suspended {
            return;
        }
        let from = self.space_of(before);
        let to = self.space_of(before + points);
        if !robbable {
            // robber points: robbers beside this marker move along with it
            for o in 0..self.players {
                if o != player && self.ext.state_mut().at[o as usize] == Some(from) && from != to {
                    self.ext.state_mut().at[o as usize] = Some(to);
                    self.emit(
                        s,
                        Event::Expansion(ExpansionEvent::new(
                            ROBBER_CARRIED,
                            &[self.turn as i64, o as i64, from as i64, to as i64],
                        )),
                    );
                }
            }
            return;
        }
        if points <= 0 {
            return;
        }
        let defer = may_defer
            && self.ext.state_mut().in_step
            && self
                .ext
                .state()
                .config
                .as_ref()
                .is_some_and(|r| r.victim == RobberVictim::OwnerChooses);
        if defer {
            self.ext.state_mut().step.push(Move {
                player,
                points,
                from,
            });
            return;
        }
        let mut owed = [Robbery::default(); MAX_PLAYERS];
        let mut len = 0;
        for o in 0..self.players {
            if o != player && self.ext.state_mut().at[o as usize] == Some(from) {
                owed[len] = Robbery {
                    owner: o,
                    victim: player,
                    points,
                };
                len += 1;
            }
        }
        self.rob_all(s, &owed[..len]);
    }

    /// The step ends: each robber with candidates robs one (its owner's choice when several).
    /// Sets up [`Game::robber_settle`]; false when nothing is owed.
    #[inline]
    pub(crate) fn robber_settle_begin(&mut self) -> bool {
        if !self.ext.state_mut().in_step {
            return false;
        }
        self.ext.state_mut().in_step = false;
        if self.ext.state_mut().step.is_empty() {
            return false;
        }
        self.ext.state_mut().owed_len = 0;
        self.ext.state_mut().settle_k = 0;
        true
    }

    /// Settling the step, resumable: `choice` answers the victim decision last asked. Returns
    /// true when it asked a decision, false once every robbery owed is paid.
    pub(crate) fn robber_settle<S: EventSink>(&mut self, s: &mut S, choice: Option<usize>) -> bool {
        let n = self.players;
        if let Some(i) = choice {
            let o = (self.active + self.ext.state_mut().settle_k) % n;
            let victim = self.opt_player[i];
            let r = self.ext.state_mut();
            r.owed[r.owed_len as usize] = Robbery {
                owner: o,
                victim,
                points: r.candidate_points[i],
            };
            self.ext.state_mut().owed_len += 1;
            self.ext.state_mut().settle_k += 1;
        }
        // every robbery owed in this step is settled before robber points move any marker
        while self.ext.state_mut().settle_k < n {
            let o = (self.active + self.ext.state_mut().settle_k) % n;
            let Some(space) = self.ext.state_mut().at[o as usize] else {
                self.ext.state_mut().settle_k += 1;
                continue;
            };
            if self.ext.state_mut().step_start[o as usize] != Some(space) {
                // carried along by robber points during this step: it waits for the next
                // scoring of a marker leaving its new space
                self.ext.state_mut().settle_k += 1;
                continue;
            }
            // first movement of each other marker that left this space
            let mut cands: [Move; MAX_PLAYERS] = [Move::default(); MAX_PLAYERS];
            let mut count = 0;
            for m in &self.ext.state_mut().step {
                if m.player != o
                    && m.from == space
                    && !cands[..count].iter().any(|c| c.player == m.player)
                {
                    cands[count] = *m;
                    count += 1;
                }
            }
            match count {
                0 => {}
                1 => {
                    let r = self.ext.state_mut();
                    r.owed[r.owed_len as usize] = Robbery {
                        owner: o,
                        victim: cands[0].player,
                        points: cands[0].points,
                    };
                    self.ext.state_mut().owed_len += 1;
                }
                count => {
                    self.opt_player.clear();
                    self.opt_player
                        .extend(cands[..count].iter().map(|c| c.player));
                    self.ext.state_mut().candidate_points.clear();
                    self.ext
                        .state_mut()
                        .candidate_points
                        .extend(cands[..count].iter().map(|c| c.points));
                    self.ask(ROBBER_VICTIM, o, count);
                    return true;
                }
            }
            self.ext.state_mut().settle_k += 1;
        }
        let (owed, owed_len) = (self.ext.state().owed, self.ext.state().owed_len);
        self.rob_all(s, &owed[..owed_len as usize]);
        self.ext.state_mut().step.clear();
        false
    }

    /// Settle robberies owed at one moment: every robber that robs goes home first, then each
    /// owner scores its share (in `owed` order). Robber points move markers, and robbers beside
    /// a moving marker move along with it; a robber being paid is no longer on the track, so it
    /// is never carried away from its own robbery ("todos los ladrones reciben la mitad").
    fn rob_all<S: EventSink>(&mut self, s: &mut S, owed: &[Robbery]) {
        for r in owed {
            self.ext.state_mut().at[r.owner as usize] = None;
        }
        for r in owed {
            let share = self.ext.state().config.as_ref().map_or(0, |rules| {
                rules
                    .share
                    .eval(&Vars::default().with(super::POINTS_ROBBED, r.points))
            });
            self.ext.state_mut().robberies += 1;
            self.emit(
                s,
                Event::Expansion(ExpansionEvent::new(
                    ROBBED,
                    &[self.turn as i64, r.owner as i64, r.victim as i64, share],
                )),
            );
            self.award(
                s,
                r.owner,
                crate::engine::expansions::robbers::ROBBERS,
                share,
                false,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::{compile, Category, Event, Game};
    use std::path::Path;

    fn four_player_game() -> Game {
        let loaded = crate::dsl::load_ruleset(Path::new("rulesets/robbers-2012.rules"))
            .unwrap_or_else(|d| panic!("{d}"));
        let mut g = Game::new(compile(&loaded.ruleset), 1, 4);
        // the set-up reads the robbers' options (`Expansion::configure`)
        g.setup(&mut Vec::new());
        g
    }

    /// "Robbers don't rob robber points": a robber carried along by a robbery in a scoring
    /// step stands beside markers that already moved; it waits for the next step.
    #[test]
    fn a_robber_carried_during_a_step_waits_for_the_next() {
        let mut g = four_player_game();
        let (a, b, c, d) = (0u8, 1u8, 2u8, 3u8);
        g.score[..4].copy_from_slice(&[10, 20, 0, 23]);
        g.ext.robbers.at[b as usize] = Some(10); // beside A
        g.ext.robbers.at[c as usize] = Some(20); // beside B
        let mut events: Vec<Event> = Vec::new();
        g.robber_step_begin();
        g.award(&mut events, a, Category::CITY, 6, true); // A 10 → 16
        g.award(&mut events, d, Category::ROAD, 6, true); // D 23 → 29
        if g.robber_settle_begin() {
            assert!(!g.robber_settle(&mut events, None), "no choice to make");
        }
        assert_eq!(g.score[b as usize], 23, "B robs half of A's 6");
        assert_eq!(g.ext.robbers.at[b as usize], None);
        assert_eq!(
            g.ext.robbers.at[c as usize],
            Some(23),
            "C's robber moved along with B"
        );
        assert_eq!(
            g.score[c as usize], 0,
            "D had left 23 before C's robber came"
        );
        // next step: B scores from 23, where C's robber now waits
        g.robber_step_begin();
        g.award(&mut events, b, Category::CITY, 4, true);
        if g.robber_settle_begin() {
            assert!(!g.robber_settle(&mut events, None), "no choice to make");
        }
        assert_eq!(g.score[c as usize], 2);
        assert_eq!(g.ext.robbers.at[c as usize], None);
    }
}
