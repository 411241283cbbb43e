//! The turn as data: a phase cursor ([`Step`]) plus the decision being asked, and the pull
//! API over it. The caller asks [`Game::pending`] — a decision with its options, a draw (the
//! chance node at a turn boundary) or the end — and answers with [`Game::apply`] (or
//! [`Game::draw`] / [`Game::finish_now`]); the game runs on to the next pending point.
//!
//! Turn order (rules.md §1.2): draw (discarding unplaceable tiles) → [tile drawn] → place the
//! tile → [tile placed] → follower → score completed features → [turn scored] → [after
//! scoring] → [turn end] → end of turn. Final scoring: incomplete features and farms →
//! [final scoring] → [final scored]. The bracketed points are [`Hook`]s where the ruleset's
//! expansions act in their registration order (for the bundled ones, rules.md §2.2, §3.2,
//! §4.2: robbers before/after the tile, ingots, robbers rob, gold hand-out, crop circles; at
//! the end gold hand-out and value, then robbers).
//!
//! With the `hand` house rule (N > 1 tiles in hand) the set-up deals N − 1 tiles to each seat
//! in seat order, and a turn boundary draws one tile into the next seat's hand, asks which tile
//! type to play ([`DecisionKind::TILE_PICK`], only when two or more fit) and plays it from the
//! hand: [tile drawn] and the rest of the turn are unchanged. Seats go round in order; when the
//! pack is empty they play their hands down, a seat with nothing left skipped. With N = 1 none
//! of this runs (one branch per turn).
//!
//! An expansion may give the player whose turn ends another tile (`Expansion::another_tile`:
//! a builder's double turn): the coming turn, drawn as usual, is that player's again, and the
//! seat order goes on after it as if it had not been there (`Game::extra_turns` counts such
//! turns; with hands, the same seat draws again).
//!
//! Every decision with at least one option is surfaced (the tile pick excepted: it is asked
//! only when there is a choice), forced ones included, whether or not
//! a record is kept; its keyed draw is built from (seed, turn, player, kind, occurrence of that
//! kind for that player in the turn). The play loops with one chooser are in `play.rs`.

use crate::engine::decision::{Decision, DecisionKind, TakenDecision};
use crate::engine::event::{Event, EventSink, NoEvents};
use crate::engine::game::{Configured, Game, MAX_HAND, MAX_PLAYERS};
use crate::engine::hooks::{Expansions, Hook, Notice};
use crate::engine::rng::{self, domain};
use crate::engine::step::Step;
use crate::ruleset::{TileIdx, Unplaceable};
use std::sync::Arc;

/// What the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pending {
    /// A player's decision: answer with [`Game::apply`].
    Decision(Decision),
    /// A turn boundary: the next tile comes from chance ([`Game::draw`]), or the caller
    /// gives one ([`Game::begin_turn`]) or ends the game ([`Game::finish_now`]).
    Draw,
    /// The game is over.
    End,
}

impl<X: Expansions> Game<X> {
    /// What the game waits for now.
    pub fn pending(&self) -> Pending {
        if let Some(d) = self.asked {
            return Pending::Decision(d);
        }
        match self.step {
            Step::Over => Pending::End,
            _ => Pending::Draw,
        }
    }

    /// Answer the pending decision with option `choice`, unchecked, and run on to the next
    /// pending point, without events: the fast path for search, policies and the play loops,
    /// whose choosers answer within the options. Outside input goes through the checked
    /// [`Game::apply`] or [`Game::apply_choice`] (`checked.rs`).
    #[inline]
    pub fn apply_unchecked(&mut self, choice: usize) {
        self.apply_unchecked_with(choice, &mut NoEvents);
    }

    /// [`Game::apply_unchecked`], sending the events to `s`. An index out of range is the
    /// caller's bug: debug builds panic, release builds take the last option (as the engine
    /// always did); with no decision pending debug builds panic, release builds do nothing.
    #[inline]
    pub fn apply_unchecked_with<S: EventSink>(&mut self, choice: usize, s: &mut S) {
        debug_assert!(self.asked.is_some(), "apply_unchecked: no decision pending");
        let Some(d) = self.asked.take() else {
            return;
        };
        debug_assert!(
            choice < d.options,
            "option {choice} of a {} decision with {} options",
            d.kind.name(),
            d.options
        );
        let pick = choice.min(d.options.saturating_sub(1));
        if self.record.is_some() {
            let choice = self.choice(d.kind, pick);
            let turn = self.turn;
            if let Some(r) = self.record.as_mut() {
                r.push(TakenDecision {
                    turn,
                    player: d.player,
                    kind: d.kind,
                    choice,
                });
            }
        }
        if self.step == Step::Pick {
            return self.apply_pick(s, pick); // hands only
        }
        self.run(s, Some(pick));
    }

    /// The tile pick's answer (hands only), then the turn runs on: out of line, so that
    /// [`Game::apply_unchecked_with`] stays as small as it was.
    #[inline(never)]
    fn apply_pick<S: EventSink>(&mut self, s: &mut S, pick: usize) {
        if self.pick_step(s, Some(pick)) {
            self.run(s, None);
        }
    }

    /// Ask a decision of `player` among `options` (already in the option buffers): the turn
    /// pauses until [`Game::apply`].
    pub(crate) fn ask(&mut self, kind: DecisionKind, player: u8, options: usize) {
        let occ = &mut self.occurrences[kind.index()][player as usize];
        let n = *occ;
        *occ = occ.wrapping_add(1);
        // the (turn, player) part of the key, kept while a turn asks the same player again
        if (self.turn_key.0, self.turn_key.1) != (self.turn, player) {
            let turn = rng::key(self.key_seed ^ domain::DECISION, self.turn as u64);
            self.turn_key = (self.turn, player, rng::key(turn, player as u64));
        }
        if self.divergence_records {
            self.tracker.asked(kind, player, options, self.hash);
        }
        let key = rng::key(rng::key(self.turn_key.2, kind.key_code()), n as u64);
        self.asked = Some(Decision {
            kind,
            player,
            options,
            key,
        });
    }

    /// Place the start tile (once; later calls do nothing).
    pub fn setup<S: EventSink>(&mut self, s: &mut S) {
        if self.step != Step::Setup {
            return;
        }
        let start = self.rules.rules.start;
        let cell = self.cell_index(0, 0);
        self.place_tile(start, cell, 0);
        self.emit(
            s,
            Event::Start {
                tile: start,
                x: 0,
                y: 0,
                rot: 0,
            },
        );
        if self.hand_size > 1 {
            self.deal(s);
        }
        if self.ext.any_taking_part() {
            self.configure_expansions();
        }
        X::set_up(self);
        self.close_turn_records();
        self.step = Step::Boundary;
    }

    /// The expansions read the ruleset's options (`Expansion::configure`): on a game reused
    /// under the same rules (`Game::reset`), their states as the first set-up left them are
    /// copied instead (after `reset` they are those of a new game but for what `configure`
    /// writes, so the copy is what reading the options again would give). Out of line: a
    /// plain game (no expansion taking part) only tests a flag.
    #[inline(never)]
    fn configure_expansions(&mut self) {
        if let Some(c) = &self.configured {
            if Arc::ptr_eq(&c.rules, &self.rules) {
                self.ext.clone_from(&c.ext);
                self.bare_marks = c.bare_marks;
                return;
            }
        }
        X::configure(self);
        self.configured = Some(Arc::new(Configured {
            rules: self.rules.clone(),
            ext: self.ext.clone(),
            bare_marks: self.bare_marks,
        }));
    }

    /// At a turn boundary, draw the next placeable tile (discarding or reshuffling tiles that
    /// fit nowhere) and run the turn to its first decision. False, changing nothing but the
    /// discards, when the pack is empty: then [`Game::finish_now`] ends the game.
    pub fn draw<S: EventSink>(&mut self, s: &mut S) -> bool {
        self.setup(s);
        if self.step != Step::Boundary {
            return false;
        }
        if self.ext.grants_tiles() {
            self.grant_another_tile();
        }
        if self.hand_size > 1 {
            return self.draw_hand(s);
        }
        let active = self.seat_of_next_draw();
        // the coming turn's player, before its placements are computed (an expansion may
        // offer more to a player who holds its pieces); the last turn's again when none
        // begins (final scoring goes round from it)
        let last = self.active;
        self.active = active;
        if self.ext.supplies_tiles() && self.draw_supplied(s, active) {
            return true;
        }
        let Some(tile) = self.draw_placeable(s) else {
            self.active = last;
            return false;
        };
        self.start_turn(s, tile, active);
        true
    }

    /// The seat a tile drawn from the pack now goes to (a hand of one): the seat order, the
    /// turns an expansion gave on top of it left out (a builder's second tile). A pending
    /// extra tile is granted by [`Game::draw`] itself.
    pub fn seat_of_next_draw(&self) -> u8 {
        (self.turn.wrapping_sub(self.extra_turns) % self.players as u32) as u8
    }

    /// When an expansion gives the last turn's player another tile now (a builder's double
    /// turn), the coming turn is that player's again, the seat order going on after it as if
    /// it had not been there (with hands: the same seat draws and picks). Out of line: asked
    /// only when an expansion taking part may give one. (An empty pack ends the game as
    /// usual: the extra tile is a tile of the pack.)
    #[inline(never)]
    fn grant_another_tile(&mut self) {
        if self.turn == 0 {
            return;
        }
        let player = self.active;
        if !X::another_tile(self, player) {
            return;
        }
        if self.hand_size > 1 {
            self.next_seat = player;
        } else {
            self.extra_turns += 1;
        }
    }

    /// A turn with a tile an expansion gives (one bought at a bazaar): `active`'s, or, when
    /// the pack is out and such tiles still wait (after one that fit nowhere), the next
    /// seat's that has one. False when no such turn begins (the turn draws from the pack).
    #[inline(never)]
    fn draw_supplied<S: EventSink>(&mut self, s: &mut S, active: u8) -> bool {
        if self.supplied_turn(s, active) {
            return true;
        }
        if self.remaining() == 0 && self.ext.tiles_held() > 0 {
            for k in 1..self.players {
                let next = (active + k) % self.players;
                self.active = next;
                if self.supplied_turn(s, next) {
                    return true;
                }
            }
        }
        false
    }

    /// A turn with the tile an expansion gives `active` (one bought at a bazaar), if it
    /// gives one that fits; one that fits nowhere goes by the ruleset's unplaceable rule
    /// and the turn draws from the pack as usual (false).
    #[inline(never)]
    fn supplied_turn<S: EventSink>(&mut self, s: &mut S, active: u8) -> bool {
        let Some(tile) = X::next_tile(self, active) else {
            return false;
        };
        self.legal_placements(tile);
        if self.n_place == 0 {
            self.set_aside(s, tile, &mut 0);
            return false;
        }
        self.start_turn(s, tile, active);
        true
    }

    /// At a turn boundary, a turn with a given tile and active player, outside the pack
    /// (rulebook scenarios, foreign records). Fails, changing nothing, when the tile fits
    /// nowhere.
    pub fn begin_turn<S: EventSink>(
        &mut self,
        tile: TileIdx,
        player: u8,
        s: &mut S,
    ) -> Result<(), String> {
        self.setup(s);
        if self.step != Step::Boundary {
            return Err("a turn is under way or the game is over".into());
        }
        if tile as usize >= self.rules.tiles.len() {
            return Err(format!("no tile type #{tile}"));
        }
        if self.placed.len() >= self.room {
            return Err(format!("the board is full ({} tiles)", self.room));
        }
        self.active = player % self.players;
        self.legal_placements(tile);
        if self.n_place == 0 {
            return Err(format!(
                "{} fits nowhere on the board",
                self.rules.rules.tiles[tile as usize].id
            ));
        }
        self.start_turn(s, tile, player % self.players);
        Ok(())
    }

    /// At a turn boundary, end the game: final scoring, run to its first decision or the end.
    pub fn finish_now<S: EventSink>(&mut self, s: &mut S) {
        self.setup(s);
        if self.step != Step::Boundary {
            return;
        }
        self.turn += 1;
        self.occurrences = [[0; MAX_PLAYERS]; DecisionKind::COUNT];
        self.final_scoring(s);
        self.step = self.enter(Hook::FinalScoring);
        self.run(s, None);
    }

    /// A drawn tile that fits nowhere goes by the ruleset's rule: shuffled back into the pack
    /// at a keyed place (while the pack has tiles and fewer than it holds were put back this
    /// turn: `reshuffles` counts them), or discarded.
    fn set_aside<S: EventSink>(&mut self, s: &mut S, tile: TileIdx, reshuffles: &mut usize) {
        let remaining = self.remaining();
        let reshuffle = self.rules.rules.unplaceable == Unplaceable::Reshuffle
            && remaining > 0
            && *reshuffles < remaining;
        self.emit(
            s,
            Event::Discarded {
                turn: self.turn + 1,
                tile,
                reshuffled: reshuffle,
            },
        );
        if reshuffle {
            *reshuffles += 1;
            let k = rng::key(
                rng::key(self.seed ^ domain::RESHUFFLE, self.turn as u64),
                *reshuffles as u64,
            );
            let at = self.deck_pos + 1 + rng::index(k, remaining);
            self.deck.insert(at.min(self.deck.len()), tile);
        } else {
            self.discarded += 1;
        }
    }

    /// Draw until a tile fits; leaves its legal placements in `opt_place`. `None` when the
    /// pack is empty.
    fn draw_placeable<S: EventSink>(&mut self, s: &mut S) -> Option<TileIdx> {
        let mut reshuffles = 0usize;
        if self.placed.len() >= self.room {
            return None; // the board is full (a pack larger than MAX_TILES)
        }
        loop {
            let tile = *self.deck.get(self.deck_pos)?;
            self.deck_pos += 1;
            self.legal_placements(tile);
            if self.n_place > 0 {
                return Some(tile);
            }
            self.set_aside(s, tile, &mut reshuffles);
        }
    }

    /// The set-up's deal (hands of two or more): one tile at a time to each seat in seat
    /// order, until each holds `hand - 1` tiles or the pack runs out.
    #[inline(never)]
    fn deal<S: EventSink>(&mut self, s: &mut S) {
        for _ in 1..self.hand_size {
            for player in 0..self.players {
                let Some(&tile) = self.deck.get(self.deck_pos) else {
                    return;
                };
                self.deck_pos += 1;
                let p = player as usize;
                self.hands[p][self.hand_len[p] as usize] = tile;
                self.hand_len[p] += 1;
                self.emit(s, Event::Dealt { player, tile });
            }
        }
    }

    /// The next tile of the pack into `player`'s hand (with a `Drawn` event of the coming
    /// turn); false when the pack is empty or the hand full.
    fn draw_into_hand<S: EventSink>(&mut self, s: &mut S, player: u8) -> bool {
        let p = player as usize;
        if self.hand_len[p] as usize >= MAX_HAND {
            return false;
        }
        let Some(&tile) = self.deck.get(self.deck_pos) else {
            return false;
        };
        self.deck_pos += 1;
        self.hands[p][self.hand_len[p] as usize] = tile;
        self.hand_len[p] += 1;
        self.emit(
            s,
            Event::Drawn {
                turn: self.turn + 1,
                player,
                tile,
            },
        );
        true
    }

    /// Whether `tile` may be placed now: its edges fit somewhere, or an expansion makes a
    /// placement legal for the active player (a tile that fits only with a bridge). The
    /// second leaves that tile's placements in `opt_place`.
    fn playable(&mut self, tile: TileIdx) -> bool {
        if !self.ext.restricts_placement() && self.fits_anywhere(tile) {
            return true;
        }
        if !self.ext.adjusts_placement() {
            return false;
        }
        self.legal_placements(tile);
        self.n_place > 0
    }

    /// The distinct tile types of `player`'s hand (the active player's) that may be placed
    /// somewhere (`playable`), in tile-type order, into `opt_pick`; their number.
    fn pick_options(&mut self, player: u8) -> usize {
        let p = player as usize;
        let mut n = 0usize;
        for k in 0..self.hand_len[p] as usize {
            let tile = self.hands[p][k];
            if self.opt_pick[..n].contains(&tile) || !self.playable(tile) {
                continue;
            }
            // insertion in tile-type order
            let mut at = n;
            while at > 0 && self.opt_pick[at - 1] > tile {
                self.opt_pick[at] = self.opt_pick[at - 1];
                at -= 1;
            }
            self.opt_pick[at] = tile;
            n += 1;
        }
        self.n_pick = n as u8;
        n
    }

    /// A turn boundary with hands: the next seat in order that has a tile to play draws one
    /// into its hand (if the pack is not empty) and, when two or more tile types of its hand
    /// fit, is asked which to play (else the one that fits is played). When no tile of its
    /// hand fits, every one goes by the ruleset's unplaceable rule (discarded, or shuffled
    /// back while the pack has tiles) and as many are drawn again. A seat with nothing left
    /// to play is skipped; false when pack and hands are empty (the game ends).
    #[inline(never)]
    fn draw_hand<S: EventSink>(&mut self, s: &mut S) -> bool {
        if self.placed.len() >= self.room {
            return false; // the board is full (a pack larger than MAX_TILES)
        }
        let n = self.players.max(1);
        let mut reshuffles = 0usize;
        // seats tried in a row without a tile to play
        let mut skipped = 0u8;
        // the last turn's player, kept when no turn begins (final scoring goes round from it)
        let last = self.active;
        loop {
            let seat = self.next_seat % n;
            let p = seat as usize;
            // a tile an expansion gives the seat (one bought at a bazaar) is its turn's tile,
            // played instead of one from the hand, which stays as it is
            self.active = seat;
            if self.ext.supplies_tiles() && self.supplied_turn(s, seat) {
                self.next_seat = (seat + 1) % n;
                return true;
            }
            if self.hand_len[p] == 0 && self.remaining() == 0 {
                self.next_seat = (seat + 1) % n;
                skipped += 1;
                if skipped >= n {
                    self.active = last;
                    return false;
                }
                continue;
            }
            self.draw_into_hand(s, seat);
            while self.pick_options(seat) == 0 {
                // nothing in the hand fits: all of it goes, as many are drawn again
                let k = self.hand_len[p] as usize;
                for j in 0..k {
                    let tile = self.hands[p][j];
                    self.set_aside(s, tile, &mut reshuffles);
                }
                self.hand_len[p] = 0;
                for _ in 0..k {
                    if !self.draw_into_hand(s, seat) {
                        break;
                    }
                }
                if self.hand_len[p] == 0 {
                    break;
                }
            }
            if self.n_pick == 0 {
                // the seat's hand is gone and the pack is empty: the next seat
                continue;
            }
            self.next_seat = (seat + 1) % n;
            self.turn += 1;
            self.touched = crate::engine::game::NIL;
            self.figure_action_taken = false;
            self.occurrences = [[0; MAX_PLAYERS]; DecisionKind::COUNT];
            self.active = seat;
            self.step = Step::Pick;
            if self.pick_step(s, None) {
                self.run(s, None);
            }
            return true;
        }
    }

    /// The tile pick step (hands only): asks which tile to play when two or more fit and no
    /// answer is given (false), else plays the answer, or the only one, from the hand.
    #[inline(never)]
    fn pick_step<S: EventSink>(&mut self, s: &mut S, choice: Option<usize>) -> bool {
        let i = match choice {
            Some(i) => i,
            None if self.n_pick > 1 => {
                self.ask(DecisionKind::TILE_PICK, self.active, self.n_pick as usize);
                return false;
            }
            None => 0,
        };
        let tile = self.opt_pick[i.min(MAX_HAND - 1)];
        self.play_from_hand(s, tile);
        true
    }

    /// Play `tile` from the active player's hand: out of the hand, its placements computed,
    /// the turn runs on from the tile drawn hook.
    #[inline(never)]
    fn play_from_hand<S: EventSink>(&mut self, s: &mut S, tile: TileIdx) {
        let p = self.active as usize;
        let len = self.hand_len[p] as usize;
        if let Some(k) = self.hands[p][..len].iter().position(|&t| t == tile) {
            self.hands[p].copy_within(k + 1..len, k);
            self.hand_len[p] -= 1;
        }
        self.current = tile;
        self.wake_expansions(tile);
        self.legal_placements(tile);
        self.emit(
            s,
            Event::Chosen {
                turn: self.turn,
                player: self.active,
                tile,
            },
        );
        self.step = self.enter(Hook::TileDrawn);
    }

    /// Begin the turn of `active` with `tile` (its placements in `opt_place`). Inlined: a
    /// call of its own cost a plain game's draw more than its body.
    #[inline(always)]
    fn start_turn<S: EventSink>(&mut self, s: &mut S, tile: TileIdx, active: u8) {
        self.turn += 1;
        self.touched = crate::engine::game::NIL;
        self.figure_action_taken = false;
        self.occurrences = [[0; MAX_PLAYERS]; DecisionKind::COUNT];
        self.active = active;
        self.current = tile;
        self.wake_expansions(tile);
        self.emit(
            s,
            Event::Drawn {
                turn: self.turn,
                player: active,
                tile,
            },
        );
        // decisions asked at this hook use their own option buffers: `opt_place` still
        // holds this tile's placements
        self.step = self.enter(Hook::TileDrawn);
        self.run(s, None);
    }

    /// The turn's tile is `tile`: the expansions its marks arm, and those armed by the
    /// figures the active player has out, are armed for this turn's hooks (see
    /// `Expansion::ARMED`, `Expansion::ARMED_BY_FIGURE`). Inlined: a plain game pays one
    /// test a turn.
    #[inline(always)]
    fn wake_expansions(&mut self, tile: TileIdx) {
        if self.ext.wakes_by_turn() {
            let marks = self.rules.tiles[tile as usize].marks;
            self.ext
                .wake_for_turn(marks, &self.kind_supply[self.active as usize]);
        }
    }

    /// The tile-placed notice (out of line: a game whose expansions do not hear it pays a
    /// test a turn).
    #[inline(never)]
    fn notify_placed<S: EventSink>(&mut self, s: &mut S) {
        X::notify(self, s, Notice::TilePlaced);
    }

    /// The step after hook `at`.
    fn after(at: Hook) -> Step {
        match at {
            Hook::TileDrawn => Step::Place,
            Hook::TilePlaced => Step::Follower,
            Hook::BeforeScoring => Step::Score,
            Hook::TurnScored => Step::Hook(Hook::AfterScoring),
            Hook::AfterScoring => Step::Hook(Hook::TurnEnd),
            Hook::TurnEnd => Step::TurnEnd,
            Hook::FinalScoring => Step::Hook(Hook::FinalScored),
            Hook::FinalScored => Step::GameEnd,
        }
    }

    /// The step that enters hook `at`, skipping hooks where no expansion acts.
    #[inline]
    fn enter(&self, mut at: Hook) -> Step {
        loop {
            if self.ext.acts_at(at) {
                return Step::Hook(at);
            }
            match Self::after(at) {
                Step::Hook(next) => at = next,
                step => return step,
            }
        }
    }

    /// Run from the cursor until a decision is asked, the turn ends or the game ends;
    /// `choice` answers the decision the cursor's step asked.
    fn run<S: EventSink>(&mut self, s: &mut S, mut choice: Option<usize>) {
        loop {
            if self.asked.is_some() {
                return; // a step's set-up asked a decision
            }
            match self.step {
                // the tile pick is answered in `apply_unchecked_with` (kept out of this loop)
                Step::Setup | Step::Boundary | Step::Over | Step::Pick => return,
                Step::Hook(at) => {
                    if let Some(k) = X::run(self, s, at, self.hook_member, choice.take()) {
                        self.hook_member = k;
                        return;
                    }
                    self.hook_member = 0;
                    self.step = match Self::after(at) {
                        Step::Hook(next) => self.enter(next),
                        step => step,
                    };
                }
                Step::Place => {
                    let Some(i) = choice.take() else {
                        self.ask(DecisionKind::PLACEMENT, self.active, self.n_place);
                        return;
                    };
                    let (cell, rot) = self.placement_option(i);
                    self.place_tag = self.placement_tag(i);
                    let (x, y) = self.cell_xy(cell);
                    let tile = self.current;
                    let pidx = self.place_tile(tile, cell, rot);
                    self.last_placed = pidx;
                    self.emit(
                        s,
                        Event::Placed {
                            turn: self.turn,
                            player: self.active,
                            tile,
                            x,
                            y,
                            rot,
                        },
                    );
                    if self.ext.hears_placement() {
                        self.notify_placed(s);
                    }
                    self.step = self.enter(Hook::TilePlaced);
                }
                Step::Follower => {
                    if self.figure_action_taken {
                        // an expansion's action took the place of the follower
                        self.step = self.enter(Hook::BeforeScoring);
                        continue;
                    }
                    let Some(i) = choice.take() else {
                        self.follower_options(self.last_placed, self.active);
                        let n = self.opt_follow.len();
                        self.ask(DecisionKind::FOLLOWER, self.active, n);
                        return;
                    };
                    let (seg, kind) = self.follower_option_of(i);
                    if seg != crate::engine::compiled::NONE {
                        let node = self.placed[self.last_placed].node0 + seg as u32;
                        self.deploy(s, self.active, node, kind);
                    }
                    self.step = self.enter(Hook::BeforeScoring);
                }
                Step::Score => {
                    self.score_completed(s, self.last_placed);
                    self.step = self.enter(Hook::TurnScored);
                }
                Step::TurnEnd => {
                    self.emit(s, Event::TurnEnd { turn: self.turn });
                    let leaders = self.close_turn_records();
                    self.track_lead(leaders);
                    self.step = Step::Boundary;
                    return;
                }
                Step::GameEnd => {
                    self.end_game(s);
                    return;
                }
            }
        }
    }

    fn end_game<S: EventSink>(&mut self, s: &mut S) {
        self.step = Step::Over;
        self.emit(
            s,
            Event::GameEnd {
                turns: self.turn - 1,
            },
        );
        self.close_turn_records();
    }
}

#[cfg(test)]
mod hand_tests;
