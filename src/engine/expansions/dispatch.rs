//! The `registry_dispatch!` macro, invoked by `registry!` (see `registry.rs`) with the list
//! of registered expansions: it builds the [`Set`](super::Set) holding every member's state
//! and which members this game's ruleset uses at each hook and notice, and the `match`
//! dispatch of [`Expansions`](crate::engine::hooks::Expansions) over those lists and of the
//! set's valuation and presentation (`ExpansionsValuation`, `ExpansionsPresentation`: each
//! member's `Valuation` and `Presentation`), and the presentation functions asked of every
//! registered member (`tile_art`, `board_legend`, `game_json`…).

/// The places of one hook's dispatch (`Set::run_at`), each in turn: the member at place `$p`
/// of `ACTING` is entered when its bit is in `$left` (and disarmed first when entered
/// afresh); a decision it asks returns its place; after it, `$left` is the later places that
/// run, those armed meanwhile with them (in a second pass, `$repass` non-zero: the later of
/// its places). Places past the members, or whose member lists no hook `$AT`, are left out
/// at compile time.
macro_rules! acting_places {
    ($set:ident, $g:ident, $s:ident, $at:ident, $AT:ident, $h:ident, $answer:ident, $left:ident,
     $repass:ident; $($p:literal)*) => {
        $(
            if $p < ALL.len() && PLACE_HOOKS[$p % ALL.len()] & (1 << $AT) != 0 {
                let bit = 1u32 << $p;
                if $left & bit != 0 {
                    if $answer.is_none() {
                        // entered afresh: an armed member is disarmed
                        $g.ext.runs[$h] &= !(bit & $g.ext.armable[$h]);
                    }
                    if $set::visit::<{ $p % ALL.len() }, _>($g, $s, $at, $answer.take()) {
                        return Some($p);
                    }
                    // the later places, with those armed meanwhile (of a second pass: its
                    // own)
                    let base = if $repass != 0 { $repass } else { $g.ext.runs[$h] };
                    $left = base & !((bit << 1).wrapping_sub(1));
                }
            }
        )*
    };
}

/// The places of a notice's dispatch (`Set::notify_places`): the member at place `$p` of
/// `ACTING` hears `$n`, a notice of kind `$K`, when its bit is in `$left`. Places past the
/// members, or whose member does not hear notices of kind `$K`, are left out at compile time.
macro_rules! hearing_places {
    ($set:ident, $g:ident, $s:ident, $n:ident, $K:ident, $left:ident; $($p:literal)*) => {
        $(
            if $p < ALL.len()
                && PLACE_HEARS[$p % ALL.len()] & (1 << $K) != 0
                && $left & (1u32 << $p) != 0
            {
                $set::hear::<{ $p % ALL.len() }, _>($g, $s, $n);
            }
        )*
    };
}

/// Per place in `ACTING`, a bit per entry of its member's list in `$lists` (one list per
/// member, registration order, of `$item`s: the hooks it lists, the notices it hears), for
/// the dispatch bodies that hold only the places with that bit.
macro_rules! place_bits {
    ($item:ty, $lists:expr) => {{
        let lists: [&[$item]; ALL.len()] = $lists;
        let mut bits = [0u32; ALL.len()];
        let mut place = 0;
        while place < ALL.len() {
            let of = lists[ACTING[place] as usize];
            let mut k = 0;
            while k < of.len() {
                bits[place] |= 1 << of[k] as u32;
                k += 1;
            }
            place += 1;
        }
        bits
    }};
}

/// The [`Set`](super::Set) of the members' states and its dispatch; `registry!` invokes it.
macro_rules! registry_dispatch {
    ($($field:ident: $ty:ty),* $(,)?) => {
        /// A bit per member (registration order) that values holdings for the heuristic
        /// (`Valuation::VALUES_HOLDINGS`): at most one.
        const VALUING: u32 = 0 $(| if <$ty as Valuation>::VALUES_HOLDINGS {
            1 << Member::$field as u32
        } else {
            0
        })*;
        const _: () = assert!(VALUING.count_ones() <= 1, "two expansions value holdings");

        /// The members in acting order: by declared priority (`Expansion::PRIORITY`), then
        /// registration order (a stable sort at compile time): each hook's and notice's bits
        /// in `Set` are places in it.
        const ACTING: [Member; ALL.len()] = {
            let priority = [$(<$ty as Expansion>::PRIORITY),*];
            let mut order = ALL;
            let mut i = 1;
            while i < order.len() {
                let mut j = i;
                while j > 0 && priority[order[j - 1] as usize] > priority[order[j] as usize] {
                    let m = order[j - 1];
                    order[j - 1] = order[j];
                    order[j] = m;
                    j -= 1;
                }
                i += 1;
            }
            order
        };

        /// Each member's declared priority, in registration order (for the test of
        /// [`ACTING`]).
        #[cfg(test)]
        const PRIORITIES: [i8; ALL.len()] = [$(<$ty as Expansion>::PRIORITY),*];

        /// Per place in [`ACTING`], the notices its member hears (`Expansion::HEARS`, a bit
        /// per kind): a notice's dispatch holds the entries of those places only.
        const PLACE_HEARS: [u32; ALL.len()] =
            place_bits!(Heard, [$(<$ty as Expansion>::HEARS),*]);

        /// Per place in [`ACTING`], the hooks its member lists (`Expansion::HOOKS`, a bit
        /// per hook): a hook's dispatch holds the entries of those places only.
        const PLACE_HOOKS: [u32; ALL.len()] =
            place_bits!(Hook, [$(<$ty as Expansion>::HOOKS),*]);

        /// The hooks where a registered member is armed by an edit
        /// (`Expansion::ARMED_BY_EDIT`), a bit per hook: only their dispatch keeps the
        /// edits made during a visit for a second pass (see `Set::run_at`).
        const EDIT_HOOKS: u32 = {
            let mut bits = 0u32;
            let per_place = place_bits!(Hook, [$(<$ty as Expansion>::ARMED_BY_EDIT),*]);
            let mut place = 0;
            while place < per_place.len() {
                bits |= per_place[place];
                place += 1;
            }
            bits
        };

        /// Every registered expansion's state, and which of them this game's ruleset uses
        /// at each hook and notice.
        pub struct Set {
            /// A bit per member (registration order): taking part in this game.
            used: u32,
            /// Per hook: a bit per place in `ACTING`, set for the expansions taking part that
            /// act there.
            hooked: [u32; Hook::COUNT],
            /// Per hook: the places of `hooked` whose entry is called the next time the turn
            /// comes there: those acting at every visit, and those armed there
            /// (`Expansion::ARMED`).
            runs: [u32; Hook::COUNT],
            /// Per hook: the places of `hooked` that act there only once armed.
            armable: [u32; Hook::COUNT],
            /// A member's place in `ACTING` as a bit (registration order; 0 when not taking
            /// part).
            place_bit: [u32; ALL.len()],
            /// The tile marks that arm a member at a hook: (marks, hook, place bit).
            wakers: [(u32, u8, u32); MAX_WAKERS],
            n_wakers: u8,
            /// Every tile mark of `wakers`.
            wake_marks: u32,
            /// The follower kinds that arm a member at a hook when the turn's player has one
            /// out of its supply: (kind, how many each player is dealt, hook, place bit).
            figure_wakers: [(u8, u8, u8, u32); MAX_FIGURE_WAKERS],
            n_figure_wakers: u8,
            /// Whether a turn's start arms a member (by its tile's marks or its player's
            /// figures).
            turn_wakes: bool,
            /// Per hook: the places a change of the board's features after a placement arms
            /// (`Expansion::ARMED_BY_EDIT`).
            edit_wake: [u32; Hook::COUNT],
            /// Per hook: the places of `edit_wake` an edit woke since the hook's visit began
            /// (those passed already run again before it is left, see `run_at`).
            edited: [u32; Hook::COUNT],
            /// Per hook: the places of that second pass while it waits for an answer (0 when
            /// none does).
            repass: [u32; Hook::COUNT],
            /// Per notice: a bit per place in `ACTING`, set for the expansions taking part that
            /// hear it.
            hearing: [u32; Heard::COUNT],
            /// Whether one taking part adds placements, or gives turns their tile.
            extends: bool,
            supplies: bool,
            /// Whether one taking part may give a player another tile in a turn.
            grants: bool,
            /// A bit per follower kind in play: the plain follower's and those of the
            /// expansions taking part.
            follower_kinds: u32,
            /// Whether one taking part changes what features are worth.
            rescores: bool,
            /// Whether one taking part forbids placements, or orders the pack.
            restricts: bool,
            orders: bool,
            /// Whether one taking part forbids follower spots.
            spots: bool,
            $($field: $ty),*
        }

        /// The tile types the expansions derive from `rules`' (see
        /// [`Expansion::derive_tiles`]), in registration order.
        /// The segment marks that tell a tile's turns apart under `rules`
        /// (each expansion's [`Expansion::telling_marks`]).
        pub fn telling_marks(rules: &crate::ruleset::Ruleset) -> u8 {
            0 $(| <$ty as Expansion>::telling_marks(rules))*
        }

        /// The tile marks whose tiles have four distinct turns under `rules` (each
        /// expansion's [`Expansion::oriented_marks`]).
        pub fn oriented_marks(rules: &crate::ruleset::Ruleset) -> u32 {
            0 $(| <$ty as Expansion>::oriented_marks(rules))*
        }

        pub fn derived_tiles(
            rules: &crate::ruleset::Ruleset,
        ) -> Vec<(crate::ruleset::TileIdx, u8, crate::tiles::TileType)> {
            let mut out = Vec::new();
            $(out.extend(<$ty as Expansion>::derive_tiles(rules));)*
            out
        }

        /// The scoring categories a sweep's table reports as mean points per seat
        /// ([`Presentation::SWEPT_POINTS`]): (category, key in `sweep.json`, column head), in
        /// registration order.
        pub fn swept_points() -> Vec<(Category, &'static str, &'static str)> {
            let mut out = Vec::new();
            $(for &(local, key, head) in <$ty as Presentation>::SWEPT_POINTS {
                out.push((Category(<$ty as Registered>::FIRST_CATEGORY + local), key, head));
            })*
            out
        }

        /// Every registered expansion's block of `play --json`
        /// ([`Presentation::game_json`]), in registration order.
        pub fn game_json(
            rules: &crate::ruleset::Ruleset,
            outcome: &GameOutcome,
            events: &[crate::engine::event::Event],
        ) -> Vec<(&'static str, serde_json::Value)> {
            let mut out = Vec::new();
            $(out.extend(<$ty as Presentation>::game_json(rules, outcome, events));)*
            out
        }

        /// Every registered expansion's drawing on placed tile `pidx` of the SVG board, layer
        /// by layer, in registration order within a layer ([`Presentation::tile_art`]).
        pub fn tile_art(
            g: &Game<Set>,
            pidx: usize,
            tile: &crate::tiles::TileType,
            at: crate::engine::hooks::TileFrame,
            out: &mut String,
        ) {
            for layer in crate::engine::hooks::TileLayer::ALL {
                $(<$ty as Presentation>::tile_art(g, pidx, tile, layer, at, out);)*
            }
        }

        /// The height of the expansions' bands under the SVG board ([`Presentation::board_band`]).
        pub fn board_bands_height(g: &Game<Set>) -> f64 {
            0.0 $(+ <$ty as Presentation>::board_band(g))*
        }

        /// Draws the expansions' bands under the SVG board from `top`, one under the other in
        /// registration order.
        pub fn draw_board_bands(
            g: &Game<Set>,
            top: f64,
            width: f64,
            paint: &crate::engine::hooks::Paint,
            out: &mut String,
        ) {
            let mut y = top;
            $(
                let h = <$ty as Presentation>::board_band(g);
                if h > 0.0 {
                    <$ty as Presentation>::draw_board_band(g, y, width, paint, out);
                    y += h;
                }
            )*
            let _ = y;
        }

        /// The expansions' lines in the SVG board's legend, before the river's line or after
        /// it ([`Presentation::board_legend`]), in registration order.
        pub fn board_legend(
            rules: &Compiled,
            after_river: bool,
            paint: &crate::engine::hooks::Paint,
        ) -> Vec<(String, String)> {
            let mut out = Vec::new();
            $(<$ty as Presentation>::board_legend(rules, after_river, paint, &mut out);)*
            out
        }

        /// The most (hook, tile marks) pairs that arm members (`Expansion::ARMED`).
        const MAX_WAKERS: usize = 8;

        /// The most (hook, follower kind) pairs that arm members (`Expansion::ARMED_BY_FIGURE`).
        const MAX_FIGURE_WAKERS: usize = 4;
        const _: () = assert!(
            0 $(+ <$ty as Expansion>::ARMED_BY_FIGURE.len())* <= MAX_FIGURE_WAKERS,
            "more follower kinds arm members than Set::figure_wakers holds: raise MAX_FIGURE_WAKERS"
        );

        /// The (hook, tile marks) pairs of `armed` with marks.
        const fn marked(armed: &[(Hook, u32)]) -> usize {
            let mut n = 0;
            let mut i = 0;
            while i < armed.len() {
                if armed[i].1 != 0 {
                    n += 1;
                }
                i += 1;
            }
            n
        }
        // every registered member's marked pairs fit, whatever the rules: `hook_up` never
        // runs out of room
        const _: () = assert!(
            0 $(+ marked(<$ty as Expansion>::ARMED))* <= MAX_WAKERS,
            "more tile marks arm members than Set::wakers holds: raise MAX_WAKERS"
        );

        impl Set {
            /// Which places act at each hook under `rules` (`hooked`), which of them only once
            /// armed (`armable`, `wakers`), each member's place bit; every member armed.
            fn hook_up(&mut self, rules: &Compiled) {
                self.hooked = [0; Hook::COUNT];
                self.armable = [0; Hook::COUNT];
                self.place_bit = [0; ALL.len()];
                self.n_wakers = 0;
                self.wake_marks = 0;
                self.n_figure_wakers = 0;
                self.edit_wake = [0; Hook::COUNT];
                for place in 0..ALL.len() {
                    let m = ACTING[place];
                    if self.used & (1 << m as u32) == 0 {
                        continue;
                    }
                    let bit = 1u32 << place;
                    self.place_bit[m as usize] = bit;
                    let (hooks, armed, by_figure, first_kind, by_edit) = match m {
                        $(Member::$field => (
                            <$ty as Expansion>::HOOKS,
                            <$ty as Expansion>::ARMED,
                            <$ty as Expansion>::ARMED_BY_FIGURE,
                            <$ty as Registered>::FIRST_FOLLOWER_KIND,
                            <$ty as Expansion>::ARMED_BY_EDIT,
                        )),*
                    };
                    for &h in hooks {
                        if !Set::idle_at(m, rules, h) {
                            self.hooked[h as usize] |= bit;
                        }
                    }
                    for &(h, marks) in armed {
                        if self.hooked[h as usize] & bit == 0 {
                            continue;
                        }
                        self.armable[h as usize] |= bit;
                        if marks != 0 {
                            // (room checked at compile time, see `MAX_WAKERS`)
                            let k = self.n_wakers as usize;
                            self.wakers[k] = (marks, h as u8, bit);
                            self.n_wakers += 1;
                            self.wake_marks |= marks;
                        }
                    }
                    for &(h, local) in by_figure {
                        if self.armable[h as usize] & bit == 0 {
                            continue; // (not one of its armed hooks under these rules)
                        }
                        let kind = FollowerKind(first_kind + local);
                        let dealt = <Set as Expansions>::follower_supply(rules, kind);
                        // (room checked at compile time, see `MAX_FIGURE_WAKERS`)
                        let k = self.n_figure_wakers as usize;
                        self.figure_wakers[k] = (kind.index() as u8, dealt, h as u8, bit);
                        self.n_figure_wakers += 1;
                    }
                    for &h in by_edit {
                        self.edit_wake[h as usize] |= self.armable[h as usize] & bit;
                    }
                }
                self.turn_wakes = self.wake_marks != 0 || self.n_figure_wakers != 0;
                self.runs = self.hooked;
            }

            /// Whether some member here acts only once armed (`Expansion::ARMED`).
            #[cfg(test)]
            pub(crate) fn arms(&self) -> bool {
                self.armable.iter().any(|&a| a != 0)
            }

            /// The members taking part that act at `at` only once armed, and how: by tile
            /// marks (`marks`), by the turn's player's figures (`figure`), by a change of the
            /// board's features (`edit`), or only by themselves (`self`).
            #[cfg(test)]
            pub(crate) fn armed_at(&self, at: Hook) -> Vec<(&'static str, &'static str)> {
                let h = at as usize;
                let mut out = Vec::new();
                for (place, m) in ACTING.into_iter().enumerate() {
                    let bit = 1u32 << place;
                    if self.armable[h] & bit == 0 {
                        continue;
                    }
                    let name = match m {
                        $(Member::$field => stringify!($field)),*
                    };
                    let by_marks = self.wakers[..self.n_wakers as usize]
                        .iter()
                        .any(|&(_, wh, b)| wh as usize == h && b == bit);
                    let by_figure = self.figure_wakers[..self.n_figure_wakers as usize]
                        .iter()
                        .any(|&(_, _, wh, b)| wh as usize == h && b == bit);
                    for (on, how) in [
                        (by_marks, "marks"),
                        (by_figure, "figure"),
                        (self.edit_wake[h] & bit != 0, "edit"),
                    ] {
                        if on {
                            out.push((name, how));
                        }
                    }
                    if !(by_marks || by_figure || self.edit_wake[h] & bit != 0) {
                        out.push((name, "self"));
                    }
                }
                out
            }

            /// The members taking part that act at `at` only once armed and are armed now.
            #[cfg(test)]
            pub(crate) fn armed_now(&self, at: Hook) -> Vec<&'static str> {
                let h = at as usize;
                ACTING
                    .into_iter()
                    .enumerate()
                    .filter(|&(place, _)| self.armable[h] & self.runs[h] & (1 << place) != 0)
                    .map(|(_, m)| match m {
                        $(Member::$field => stringify!($field)),*
                    })
                    .collect()
            }

            /// Every member that acts only once armed disarmed (as after a visit).
            #[cfg(test)]
            pub(crate) fn disarm_all(&mut self) {
                for h in 0..Hook::COUNT {
                    self.runs[h] &= !self.armable[h];
                }
            }

            /// Every member acts at every visit of its hooks from now on, as if always armed
            /// (a check that arming misses nothing).
            #[cfg(test)]
            pub(crate) fn never_disarm(&mut self) {
                self.armable = [0; Hook::COUNT];
                self.runs = self.hooked;
            }

            /// Arm the members the tile marks `marks` arm (some of `wake_marks`).
            #[inline(never)]
            fn wake_members(&mut self, marks: u32) {
                for &(m, h, bit) in &self.wakers[..self.n_wakers as usize] {
                    if marks & m != 0 {
                        self.runs[h as usize] |= bit;
                    }
                }
            }

            /// Arm the members armed by a kind of follower the turn's player, holding
            /// `held` of each kind, has out of its supply.
            #[inline]
            fn wake_by_figures(&mut self, held: &[u8; FollowerKind::COUNT]) {
                for &(kind, dealt, h, bit) in &self.figure_wakers[..self.n_figure_wakers as usize] {
                    if held[kind as usize] < dealt {
                        self.runs[h as usize] |= bit;
                    }
                }
            }
        }

        impl Expansions for Set {
            fn for_rules(rules: &Compiled) -> Self {
                let mut set = Set {
                    used: 0,
                    hooked: [0; Hook::COUNT],
                    runs: [0; Hook::COUNT],
                    armable: [0; Hook::COUNT],
                    place_bit: [0; ALL.len()],
                    wakers: [(0, 0, 0); MAX_WAKERS],
                    n_wakers: 0,
                    wake_marks: 0,
                    figure_wakers: [(0, 0, 0, 0); MAX_FIGURE_WAKERS],
                    n_figure_wakers: 0,
                    turn_wakes: false,
                    edit_wake: [0; Hook::COUNT],
                    edited: [0; Hook::COUNT],
                    repass: [0; Hook::COUNT],
                    hearing: [0; Heard::COUNT],
                    extends: false,
                    supplies: false,
                    grants: false,
                    follower_kinds: 1,
                    rescores: false,
                    restricts: false,
                    orders: false,
                    spots: false,
                    $($field: <$ty>::default()),*
                };
                for (place, m) in ACTING.into_iter().enumerate() {
                    let (used, hears) = match m {
                        $(Member::$field => (
                            <$ty as Expansion>::used_by(rules),
                            <$ty as Expansion>::HEARS,
                        )),*
                    };
                    if !used {
                        continue;
                    }
                    set.used |= 1 << m as u32;
                    let (extends, supplies) = match m {
                        $(Member::$field => (
                            <$ty as Expansion>::EXTENDS_PLACEMENT,
                            <$ty as Expansion>::SUPPLIES_TILES,
                        )),*
                    };
                    set.extends |= extends;
                    set.supplies |= supplies;
                    set.rescores |= match m {
                        $(Member::$field => <$ty as Expansion>::RESCORES),*
                    };
                    set.grants |= match m {
                        $(Member::$field => <$ty as Expansion>::GRANTS_TILES),*
                    };
                    let (first, kinds) = match m {
                        $(Member::$field => (
                            <$ty as Registered>::FIRST_FOLLOWER_KIND,
                            <$ty as Expansion>::FOLLOWER_KINDS.len(),
                        )),*
                    };
                    for k in 0..kinds {
                        set.follower_kinds |= 1 << (first as usize + k);
                    }
                    let (restricts, orders) = match m {
                        $(Member::$field => (
                            <$ty as Expansion>::RESTRICTS_PLACEMENT,
                            <$ty as Expansion>::ORDERS_DECK,
                        )),*
                    };
                    set.restricts |= restricts;
                    set.orders |= orders;
                    set.spots |= match m {
                        $(Member::$field => <$ty as Expansion>::RESTRICTS_SPOTS),*
                    };
                    for &h in hears {
                        set.hearing[h as usize] |= 1 << place;
                    }
                }
                set.hook_up(rules);
                set
            }

            fn reset(&mut self) {
                $(self.$field.reset();)*
                self.runs = self.hooked;
            }

            fn taking_part(&self) -> Vec<&'static str> {
                ALL.iter()
                    .filter(|&&m| self.used & (1 << m as u32) != 0)
                    .map(|&m| match m {
                        $(Member::$field => stringify!($field)),*
                    })
                    .collect()
            }

            #[inline]
            fn any_taking_part(&self) -> bool {
                self.used != 0
            }

            fn heap_bytes(&self) -> usize {
                0 $(+ self.$field.heap_bytes())*
            }

            fn tiles_held(&self) -> usize {
                0 $(+ self.$field.tiles_held())*
            }

            fn may_fall(c: Category) -> bool {
                $(if <$ty as Expansion>::TRANSFERS
                    .iter()
                    .any(|&k| <$ty as Registered>::FIRST_CATEGORY + k == c.0)
                {
                    return true;
                })*
                false
            }

            fn check_invariants(g: &Game<Self>) -> Result<(), String> {
                $(if g.ext.used & (1 << Member::$field as u32) != 0 {
                    <$ty as Expansion>::check_invariants(g)
                        .map_err(|e| format!("{}: {e}", stringify!($field)))?;
                })*
                Ok(())
            }

            #[inline]
            fn acts_at(&self, at: Hook) -> bool {
                self.runs[at as usize] != 0
            }

            #[inline]
            fn wakes_by_turn(&self) -> bool {
                self.turn_wakes
            }

            #[inline]
            fn hears_placement(&self) -> bool {
                self.hearing[Heard::TilePlaced as usize] != 0
            }

            fn wake_for_edit(&mut self) {
                for h in 0..Hook::COUNT {
                    self.runs[h] |= self.edit_wake[h];
                    self.edited[h] |= self.edit_wake[h];
                }
            }

            #[inline]
            fn wake_for_turn(&mut self, marks: u32, held: &[u8; FollowerKind::COUNT]) {
                if marks & self.wake_marks != 0 {
                    self.wake_members(marks);
                }
                if self.n_figure_wakers != 0 {
                    self.wake_by_figures(held);
                }
            }

            #[inline]
            fn extends_placement(&self) -> bool {
                self.extends
            }

            #[inline(never)]
            fn extra_placements(g: &mut Game<Self>, tile: crate::ruleset::TileIdx) {
                $(if g.ext.used & (1 << Member::$field as u32) != 0
                    && <$ty as Expansion>::EXTENDS_PLACEMENT
                {
                    <$ty as Expansion>::extra_placements(g, tile);
                })*
            }

            #[inline]
            fn adjusts_placement(&self) -> bool {
                self.extends | self.restricts
            }

            #[inline]
            fn restricts_placement(&self) -> bool {
                self.restricts
            }

            // (inlined into the placement scan, behind its test: the members' thin entries
            // keep a tile with nothing to adjust a few instructions)
            #[inline]
            fn adjust_placements(g: &mut Game<Self>, tile: crate::ruleset::TileIdx) {
                if g.ext.extends {
                    Self::extra_placements(g, tile);
                }
                $(if g.ext.used & (1 << Member::$field as u32) != 0
                    && <$ty as Expansion>::RESTRICTS_PLACEMENT
                {
                    <$ty as Expansion>::restrict_placements(g, tile);
                })*
            }

            #[inline]
            fn restricts_spots(&self) -> bool {
                self.spots
            }

            #[inline(never)]
            fn may_stand(
                g: &Game<Self>,
                node: u32,
                kind: crate::engine::follower_kind::FollowerKind,
            ) -> bool {
                $(if g.ext.used & (1 << Member::$field as u32) != 0
                    && <$ty as Expansion>::RESTRICTS_SPOTS
                    && !<$ty as Expansion>::may_stand(g, node, kind)
                {
                    return false;
                })*
                true
            }

            #[inline]
            fn may_refuse_on(g: &Game<Self>, pidx: usize) -> bool {
                $(if g.ext.used & (1 << Member::$field as u32) != 0
                    && <$ty as Expansion>::RESTRICTS_SPOTS
                    && <$ty as Expansion>::may_refuse_on(g, pidx)
                {
                    return true;
                })*
                false
            }

            #[inline]
            fn touches_tiles(&self) -> bool {
                false $(|| (self.used & (1 << Member::$field as u32) != 0
                    && <$ty as Expansion>::TOUCHES_TILES))*
            }

            fn touched_tile(g: &Game<Self>, mut k: usize) -> Option<u32> {
                $(if g.ext.used & (1 << Member::$field as u32) != 0
                    && <$ty as Expansion>::TOUCHES_TILES
                {
                    let mut i = 0;
                    while let Some(t) = <$ty as Expansion>::touched_tile(g, i) {
                        if k == 0 {
                            return Some(t);
                        }
                        k -= 1;
                        i += 1;
                    }
                })*
                None
            }

            #[inline]
            fn orders_deck(&self) -> bool {
                self.orders
            }

            fn resample(g: &mut Game<Self>, key: u64) {
                $(if g.ext.used & (1 << Member::$field as u32) != 0 {
                    <$ty as Expansion>::resample(g, key);
                })*
            }

            #[inline(never)]
            fn order_deck(g: &mut Game<Self>) {
                $(if g.ext.used & (1 << Member::$field as u32) != 0
                    && <$ty as Expansion>::ORDERS_DECK
                {
                    <$ty as Expansion>::order_deck(g);
                })*
            }

            #[inline]
            fn supplies_tiles(&self) -> bool {
                self.supplies
            }

            #[inline]
            fn follower_kinds(&self) -> u32 {
                self.follower_kinds
            }

            #[inline]
            fn rescores(&self) -> bool {
                self.rescores
            }

            #[inline(never)]
            fn feature_points(
                g: &Game<Self>,
                root: u32,
                kind: crate::tiles::FeatureKind,
                complete: bool,
                tiles: u32,
                pennants: u32,
                mut points: i64,
            ) -> i64 {
                $(if g.ext.used & (1 << Member::$field as u32) != 0
                    && <$ty as Expansion>::RESCORES
                {
                    points = <$ty as Expansion>::feature_points(
                        g, root, kind, complete, tiles, pennants, points,
                    );
                })*
                points
            }

            #[inline(never)]
            fn next_tile(g: &mut Game<Self>, player: u8) -> Option<crate::ruleset::TileIdx> {
                $(if g.ext.used & (1 << Member::$field as u32) != 0
                    && <$ty as Expansion>::SUPPLIES_TILES
                {
                    if let Some(t) = <$ty as Expansion>::next_tile(g, player) {
                        return Some(t);
                    }
                })*
                None
            }

            fn outcome(&self, out: &mut GameOutcome) {
                $(self.$field.outcome(out);)*
            }

            fn seat_state(&self, seat: usize) -> u64 {
                // each member's word turned by its own amount, so two never cancel; members
                // not taking part hold nothing
                let mut word = 0u64;
                if self.used == 0 {
                    return word;
                }
                $(if self.used & (1 << Member::$field as u32) != 0 {
                    word = word.wrapping_add(
                        self.$field.seat_state(seat).rotate_left(16 * Member::$field as u32),
                    );
                })*
                word
            }

            // out of line: the turn calls it only at a hook where an expansion acts, and
            // inlined into the turn's loop it made every turn of a plain game dearer; one
            // body per hook, where the members' entries inlined into it keep only that hook's
            // arm (a body for every hook set up the addresses of all of them at each call)
            #[inline(never)]
            fn run<S: EventSink>(
                g: &mut Game<Self>,
                s: &mut S,
                at: Hook,
                from: u8,
                answer: Option<usize>,
            ) -> Option<u8> {
                match at {
                    Hook::TileDrawn => Set::run_at::<{ Hook::TileDrawn as u8 }, S>(g, s, from, answer),
                    Hook::TilePlaced => Set::run_at::<{ Hook::TilePlaced as u8 }, S>(g, s, from, answer),
                    Hook::BeforeScoring => {
                        Set::run_at::<{ Hook::BeforeScoring as u8 }, S>(g, s, from, answer)
                    }
                    Hook::TurnScored => Set::run_at::<{ Hook::TurnScored as u8 }, S>(g, s, from, answer),
                    Hook::AfterScoring => {
                        Set::run_at::<{ Hook::AfterScoring as u8 }, S>(g, s, from, answer)
                    }
                    Hook::TurnEnd => Set::run_at::<{ Hook::TurnEnd as u8 }, S>(g, s, from, answer),
                    Hook::FinalScoring => {
                        Set::run_at::<{ Hook::FinalScoring as u8 }, S>(g, s, from, answer)
                    }
                    Hook::FinalScored => Set::run_at::<{ Hook::FinalScored as u8 }, S>(g, s, from, answer),
                }
            }

            // (always inlined: a caller whose notice is known calls that kind's body)
            #[inline(always)]
            fn notify<S: EventSink>(g: &mut Game<Self>, s: &mut S, n: Notice) {
                // (a bit per place in `ACTING`: the members in acting order)
                let left = g.ext.hearing[n.kind() as usize];
                if left != 0 {
                    Set::notify_kind(g, s, n, left);
                }
            }

            fn configure(g: &mut Game<Self>) {
                $(if g.ext.used & (1 << Member::$field as u32) != 0 {
                    <$ty as Expansion>::configure(g);
                })*
                // the hooks where a member is idle follow the rules' options (a position
                // moved onto other rules keeps its members)
                let rules = g.rules.clone();
                g.ext.hook_up(&rules);
            }

            fn set_up(g: &mut Game<Self>) {
                $(if g.ext.used & (1 << Member::$field as u32) != 0 {
                    <$ty as Expansion>::set_up(g);
                })*
            }

            fn farm_city_bonus(g: &Game<Self>, root: u32) -> i64 {
                let mut bonus = 0;
                $(if g.ext.used & (1 << Member::$field as u32) != 0 {
                    bonus += <$ty as Expansion>::farm_city_bonus(g, root);
                })*
                bonus
            }

            fn choice(g: &Game<Self>, kind: DecisionKind, i: usize) -> Choice {
                match Set::asker(kind) {
                    $((Member::$field, local) => <$ty as Expansion>::choice(g, local, i)),*
                }
            }

            fn option_count(g: &Game<Self>, kind: DecisionKind) -> usize {
                match Set::asker(kind) {
                    $((Member::$field, local) => <$ty as Expansion>::option_count(g, local)),*
                }
            }

            fn chance_outcomes(g: &Game<Self>, kind: DecisionKind, i: usize) -> u8 {
                match Set::asker(kind) {
                    $((Member::$field, local) => {
                        <$ty as Expansion>::chance_outcomes(g, local, i)
                    }),*
                }
            }

            fn force_outcome(g: &mut Game<Self>, kind: DecisionKind, k: u8) {
                match Set::asker(kind) {
                    $((Member::$field, local) => {
                        <$ty as Expansion>::force_outcome(g, local, k)
                    }),*
                }
            }

            #[inline]
            fn grants_tiles(&self) -> bool {
                self.grants
            }

            #[inline(never)]
            fn another_tile(g: &mut Game<Self>, player: u8) -> bool {
                $(if g.ext.used & (1 << Member::$field as u32) != 0
                    && <$ty as Expansion>::GRANTS_TILES
                    && <$ty as Expansion>::another_tile(g, player)
                {
                    return true;
                })*
                false
            }

            fn cannot_hold(from: &Compiled, to: &Compiled) -> Option<String> {
                $(if <$ty as Expansion>::used_by(from) {
                    if let Some(why) = <$ty as Expansion>::cannot_hold(from, to) {
                        return Some(why);
                    }
                })*
                None
            }

            fn follower_supply(rules: &Compiled, kind: FollowerKind) -> u8 {
                let k = kind.index() as u8;
                $(if k >= <$ty as Registered>::FIRST_FOLLOWER_KIND
                    && ((k - <$ty as Registered>::FIRST_FOLLOWER_KIND) as usize)
                        < <$ty as Expansion>::FOLLOWER_KINDS.len()
                {
                    return <$ty as Expansion>::follower_supply(
                        rules,
                        k - <$ty as Registered>::FIRST_FOLLOWER_KIND,
                    );
                })*
                kind.spec().supply
            }

            fn farm_winner_bonus(g: &Game<Self>, root: u32, player: u8) -> i64 {
                let mut bonus = 0;
                $(if g.ext.used & (1 << Member::$field as u32) != 0 {
                    bonus += <$ty as Expansion>::farm_winner_bonus(g, root, player);
                })*
                bonus
            }

            fn scoring_figures(g: &Game<Self>, player: u8) -> Option<[i64; 2]> {
                $(if <$ty as Expansion>::SPLITS_SCORE
                    && g.ext.used & (1 << Member::$field as u32) != 0
                {
                    if let Some(f) = <$ty as Expansion>::scoring_figures(g, player) {
                        return Some(f);
                    }
                })*
                None
            }
        }

        impl ExpansionsValuation for Set {
            fn values_holdings(&self) -> bool {
                self.used & VALUING != 0
            }

            fn counts_unseen(g: &Game<Self>, tile: crate::ruleset::TileIdx) -> bool {
                $(if <$ty as Valuation>::VALUES_HOLDINGS
                    && g.ext.used & (1 << Member::$field as u32) != 0
                {
                    return <$ty as Valuation>::counts_unseen(g, tile);
                })*
                false
            }

            fn value_holdings(g: &Game<Self>, unseen: u32, held: &mut [f64], rate: &mut [f64]) {
                $(if <$ty as Valuation>::VALUES_HOLDINGS
                    && g.ext.used & (1 << Member::$field as u32) != 0
                {
                    <$ty as Valuation>::value_holdings(g, unseen, held, rate);
                })*
            }

            fn feature_share(
                g: &Game<Self>,
                root: u32,
                kind: crate::tiles::FeatureKind,
                closes: f64,
                winners: u8,
                tiles: &mut Vec<u32>,
            ) -> f64 {
                $(if <$ty as Valuation>::VALUES_HOLDINGS
                    && g.ext.used & (1 << Member::$field as u32) != 0
                {
                    return <$ty as Valuation>::feature_share(g, root, kind, closes, winners, tiles);
                })*
                0.0
            }

            fn expected_points(g: &Game<Self>, out: &mut [f64]) {
                $(if g.ext.used & (1 << Member::$field as u32) != 0 {
                    <$ty as Valuation>::expected_points(g, out);
                })*
            }

            fn value_hint(g: &Game<Self>, kind: DecisionKind, i: usize, player: u8) -> i64 {
                match Set::asker(kind) {
                    $((Member::$field, local) => {
                        <$ty as Valuation>::value_hint(g, local, i, player)
                    }),*
                }
            }

            fn value_hints(
                g: &Game<Self>,
                kind: DecisionKind,
                options: usize,
                player: u8,
                out: &mut Vec<i64>,
            ) {
                match Set::asker(kind) {
                    $((Member::$field, local) => {
                        <$ty as Valuation>::value_hints(g, local, options, player, out)
                    }),*
                }
            }

            fn follower_kind_value(
                g: &Game<Self>,
                kind: FollowerKind,
                node: u32,
                player: u8,
            ) -> i64 {
                let k = kind.index() as u8;
                $(if k >= <$ty as Registered>::FIRST_FOLLOWER_KIND
                    && ((k - <$ty as Registered>::FIRST_FOLLOWER_KIND) as usize)
                        < <$ty as Expansion>::FOLLOWER_KINDS.len()
                {
                    return <$ty as Valuation>::follower_kind_value(
                        g,
                        k - <$ty as Registered>::FIRST_FOLLOWER_KIND,
                        node,
                        player,
                    );
                })*
                0
            }

            fn toll(g: &Game<Self>, player: u8, from: i64, points: i64) -> i64 {
                let mut toll = 0;
                $(if g.ext.used & (1 << Member::$field as u32) != 0 {
                    toll += <$ty as Valuation>::toll(g, player, from, points);
                })*
                toll
            }
        }

        impl ExpansionsPresentation for Set {
            fn choice_words(kind: DecisionKind, c: &Choice, how: Wording) -> Option<String> {
                match Set::asker(kind) {
                    $((Member::$field, local) => <$ty as Presentation>::choice_words(local, c, how)),*
                }
            }

            fn board_pieces(g: &Game<Self>, out: &mut Vec<Piece>) {
                $(if g.ext.used & (1 << Member::$field as u32) != 0 {
                    <$ty as Presentation>::board_pieces(g, out);
                })*
            }

            fn legend(&self) -> Vec<(Glyph, &'static str)> {
                let mut v = Vec::new();
                $(if self.used & (1 << Member::$field as u32) != 0 {
                    v.extend_from_slice(<$ty as Presentation>::LEGEND);
                })*
                v
            }

            fn seat_columns(g: &Game<Self>, seat: u8, out: &mut Vec<(&'static str, i64)>) {
                $(if g.ext.used & (1 << Member::$field as u32) != 0 {
                    <$ty as Presentation>::seat_columns(g, seat, out);
                })*
            }

        }

        impl Set {
            /// The members acting at hook `AT` (a [`Hook`]'s index) from place `from` on,
            /// in acting order, until one asks a decision (its place). Inlined into `run`'s
            /// arm for `AT` (out of line, each arm's own call made a plain game's turn loop
            /// dearer).
            #[inline(always)]
            #[allow(unused_assignments)] // (the last place's `left`)
            fn run_at<const AT: u8, S: EventSink>(
                g: &mut Game<Self>,
                s: &mut S,
                from: u8,
                mut answer: Option<usize>,
            ) -> Option<u8> {
                const HOOKS: [Hook; Hook::COUNT] = [
                    Hook::TileDrawn,
                    Hook::TilePlaced,
                    Hook::BeforeScoring,
                    Hook::TurnScored,
                    Hook::AfterScoring,
                    Hook::TurnEnd,
                    Hook::FinalScoring,
                    Hook::FinalScored,
                ];
                let at = HOOKS[AT as usize];
                let h = at as usize;
                // the members acting here from place `from` on (a bit per place in `ACTING`),
                // the one answered first
                let from = u32::from(from & 31);
                // A member an edit woke after its place was passed (a ferry's link that
                // joins the magic figures, at the hook where they are checked) runs again
                // before the hook is left: a second pass over the places an edit woke
                // (`repass`, kept while one of them waits for an answer). Their own steps
                // edit no feature (`Expansion::ARMED_BY_EDIT`), so a third never runs.
                // (a hook where no member is armed by an edit keeps no such bookkeeping:
                // `repass` stays 0 there, known at compile time)
                let edits = EDIT_HOOKS & (1 << AT) != 0;
                let mut repass = if edits && answer.is_some() { g.ext.repass[h] } else { 0 };
                if edits && answer.is_none() {
                    g.ext.edited[h] = 0;
                    g.ext.repass[h] = 0;
                }
                let mut left = if repass != 0 { repass } else { g.ext.runs[h] };
                left &= u32::MAX << from;
                if answer.is_some() {
                    left |= 1 << from;
                }
                // Each place in turn, its member's entry called directly: a place whose
                // member lists no `AT` among its hooks holds no code here, and no jump goes
                // through a table of members (12,200 instructions fewer a random `bigbox6`
                // game than the `match` on each place; no change by the clock).
                loop {
                    acting_places!(Set, g, s, at, AT, h, answer, left, repass;
                        0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15
                        16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31);
                    if !edits {
                        return None;
                    }
                    if repass != 0 {
                        g.ext.repass[h] = 0;
                        return None;
                    }
                    repass = g.ext.edited[h];
                    if repass == 0 {
                        return None;
                    }
                    g.ext.edited[h] = 0;
                    g.ext.repass[h] = repass;
                    left = repass;
                }
            }

            /// The members at the places `left` hear notice `n`: one body per kind of
            /// notice (see `run`), each holding the entries of the members hearing it. (Inlined
            /// into `notify`, so that a caller whose notice is known calls its body directly:
            /// each body saves only the registers its own members need.)
            #[inline(always)]
            fn notify_kind<S: EventSink>(g: &mut Game<Self>, s: &mut S, n: Notice, left: u32) {
                match n.kind() {
                    Heard::TilePlaced => {
                        Set::notify_places::<{ Heard::TilePlaced as u8 }, S>(g, s, n, left)
                    }
                    Heard::ScoringBegins => {
                        Set::notify_places::<{ Heard::ScoringBegins as u8 }, S>(g, s, n, left)
                    }
                    Heard::FinalScoringBegins => Set::notify_places::<
                        { Heard::FinalScoringBegins as u8 },
                        S,
                    >(g, s, n, left),
                    Heard::FeatureScored => {
                        Set::notify_places::<{ Heard::FeatureScored as u8 }, S>(g, s, n, left)
                    }
                    Heard::PointsScored => {
                        Set::notify_places::<{ Heard::PointsScored as u8 }, S>(g, s, n, left)
                    }
                    Heard::FigureMoved => {
                        Set::notify_places::<{ Heard::FigureMoved as u8 }, S>(g, s, n, left)
                    }
                    Heard::Area => Set::notify_places::<{ Heard::Area as u8 }, S>(g, s, n, left),
                }
            }

            /// The members at the places `left` hear notice `n` of kind `K` (a [`Heard`]'s
            /// index), in acting order, each called directly (see `run_at`); places whose
            /// member does not hear it hold no code.
            #[inline(never)]
            fn notify_places<const K: u8, S: EventSink>(
                g: &mut Game<Self>,
                s: &mut S,
                n: Notice,
                left: u32,
            ) {
                hearing_places!(Set, g, s, n, K, left;
                    0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15
                    16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31);
            }

            /// The notice entry of the member at place `P` of [`ACTING`] (see `visit`).
            #[inline(always)]
            fn hear<const P: usize, S: EventSink>(g: &mut Game<Self>, s: &mut S, n: Notice) {
                match ACTING[P % ALL.len()] {
                    $(Member::$field => <$ty as Expansion>::notice(g, s, n)),*
                }
            }

            /// The entry of the member at place `P` of [`ACTING`] (its `on`), the `match`
            /// made at compile time (`P` past the members: the first's, never called).
            #[inline(always)]
            fn visit<const P: usize, S: EventSink>(
                g: &mut Game<Self>,
                s: &mut S,
                at: Hook,
                answer: Option<usize>,
            ) -> bool {
                match ACTING[P % ALL.len()] {
                    $(Member::$field => <$ty as Expansion>::on(g, s, at, answer)),*
                }
            }

            /// Whether member `m` never acts at `at` under `rules` ([`Expansion::idle_at`]).
            fn idle_at(m: Member, rules: &Compiled, at: Hook) -> bool {
                match m {
                    $(Member::$field => <$ty as Expansion>::idle_at(rules, at)),*
                }
            }

            /// The member asking expansion decision `kind`, and its local index there.
            fn asker(kind: DecisionKind) -> (Member, u8) {
                let k = kind.0;
                $(if k >= <$ty as Registered>::FIRST_DECISION
                    && ((k - <$ty as Registered>::FIRST_DECISION) as usize)
                        < <$ty as Expansion>::DECISIONS.len()
                {
                    return (Member::$field, k - <$ty as Registered>::FIRST_DECISION);
                })*
                unreachable!("decision kind #{k} is no expansion's")
            }
        }

        /// A copy carries the states of the expansions taking part; the others are unused
        /// and stay at their defaults (nothing to copy).
        impl Clone for Set {
            fn clone(&self) -> Self {
                Set {
                    used: self.used,
                    hooked: self.hooked,
                    runs: self.runs,
                    armable: self.armable,
                    place_bit: self.place_bit,
                    wakers: self.wakers,
                    n_wakers: self.n_wakers,
                    wake_marks: self.wake_marks,
                    figure_wakers: self.figure_wakers,
                    n_figure_wakers: self.n_figure_wakers,
                    turn_wakes: self.turn_wakes,
                    edit_wake: self.edit_wake,
                    edited: self.edited,
                    repass: self.repass,
                    hearing: self.hearing,
                    extends: self.extends,
                    supplies: self.supplies,
                    grants: self.grants,
                    follower_kinds: self.follower_kinds,
                    rescores: self.rescores,
                    restricts: self.restricts,
                    orders: self.orders,
                    spots: self.spots,
                    $($field: if self.used & (1 << Member::$field as u32) != 0 {
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
                self.runs = source.runs;
                self.armable = source.armable;
                self.place_bit = source.place_bit;
                self.wakers = source.wakers;
                self.n_wakers = source.n_wakers;
                self.wake_marks = source.wake_marks;
                self.figure_wakers = source.figure_wakers;
                self.n_figure_wakers = source.n_figure_wakers;
                self.turn_wakes = source.turn_wakes;
                self.edit_wake = source.edit_wake;
                self.edited = source.edited;
                self.repass = source.repass;
                self.hearing = source.hearing;
                self.extends = source.extends;
                self.supplies = source.supplies;
                self.grants = source.grants;
                self.follower_kinds = source.follower_kinds;
                self.rescores = source.rescores;
                self.restricts = source.restricts;
                self.orders = source.orders;
                self.spots = source.spots;
                $(if source.used & (1 << Member::$field as u32) != 0 {
                    self.$field.clone_from(&source.$field);
                } else if was & (1 << Member::$field as u32) != 0 {
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
                #[inline]
                fn arm(&mut self, at: Hook) {
                    let h = at as usize;
                    self.runs[h] |= self.place_bit[Member::$field as usize] & self.armable[h];
                }
            }
        )*
    };
}
