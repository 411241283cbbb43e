//! Play loops with one [`Chooser`]: a whole game, a turn, a given tile or the final scoring,
//! each a small loop over the pull API (`turn.rs`). A chooser answers with an index below the
//! decision's options: the loops take the unchecked fast path ([`Game::apply_unchecked_with`];
//! debug builds assert the range), and outside input is looked up by meaning first (the
//! [`crate::engine::Scripted`] chooser goes through [`Game::option_of`]).

use crate::engine::decision::Chooser;
use crate::engine::event::EventSink;
use crate::engine::outcome::GameOutcome;
use crate::engine::turn::Pending;
use crate::engine::Game;
use crate::ruleset::TileIdx;

impl Game {
    /// Answer the decisions asked with `c` until the next draw (the turn boundary) or the
    /// end.
    pub fn play_decisions<C: Chooser, S: EventSink>(&mut self, c: &mut C, s: &mut S) {
        while let Some(d) = self.asked {
            let i = c.choose(self, &d);
            self.apply_unchecked_with(i, s);
        }
    }

    /// Play the game to its end from wherever it stands; `c` makes every decision, `s`
    /// receives every event.
    pub fn play<C: Chooser, S: EventSink>(&mut self, c: &mut C, s: &mut S) -> GameOutcome {
        self.setup(s);
        loop {
            match self.pending() {
                Pending::Decision(d) => {
                    let i = c.choose(self, &d);
                    self.apply_unchecked_with(i, s);
                }
                Pending::Draw => {
                    if !self.draw(s) {
                        self.finish_now(s);
                    }
                }
                Pending::End => return self.outcome(),
            }
        }
    }

    /// One full turn from the pack. Returns false when there was nothing left to draw.
    pub fn play_turn<C: Chooser, S: EventSink>(&mut self, c: &mut C, s: &mut S) -> bool {
        if !self.draw(s) {
            return false;
        }
        self.play_decisions(c, s);
        true
    }

    /// A whole turn with a given tile and active player (see [`Game::begin_turn`]).
    pub fn play_tile<C: Chooser, S: EventSink>(
        &mut self,
        tile: TileIdx,
        player: u8,
        c: &mut C,
        s: &mut S,
    ) -> Result<(), String> {
        self.begin_turn(tile, player, s)?;
        self.play_decisions(c, s);
        Ok(())
    }

    /// Final scoring: incomplete features, farms, gold; robbers if the rules say so.
    pub fn finish<C: Chooser, S: EventSink>(&mut self, c: &mut C, s: &mut S) {
        self.finish_now(s);
        self.play_decisions(c, s);
    }
}
