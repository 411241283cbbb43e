//! The `registry!` macro that `mod.rs` invokes once with the list of registered expansions:
//! from that one list it generates the [`Set`](super::Set) of their states, the dispatch of
//! every hook and notice, and the tables of what the members declare (decision kinds, events,
//! scoring categories, counters, tile and segment marks, follower kinds, rule options), with
//! the compile-time checks that no name or code is used twice (`no_clash!`, `same_name`).
//! The expansion names its item paths at the invocation (`mod.rs`'s imports).

use crate::engine::event::EventSpec;
use crate::engine::outcome::CounterSpec;

/// Fills the event table while it is built (never left in it).
pub(super) const PLACEHOLDER_EVENT: EventSpec = EventSpec {
    name: "",
    key_code: 0,
    fields: &[],
    narrate: |_, _: &crate::engine::event::Names| None,
    board: crate::engine::event::BoardChange::None,
};

/// Fills the counter table while it is built (never left in it).
pub(super) const PLACEHOLDER_COUNTER: CounterSpec = CounterSpec { name: "", doc: "" };

/// Whether two names are the same (a `const` comparison).
pub(super) const fn same_name(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether no two entries of table `$t` clash by `$clash(a, b)` (a `const` double loop: a
/// clash found at compile time fails the build).
macro_rules! no_clash {
    ($t:expr, |$a:ident, $b:ident| $clash:expr) => {{
        let t = $t;
        let mut ok = true;
        let mut i = 0;
        while i < t.len() {
            let mut j = i + 1;
            while j < t.len() {
                let ($a, $b) = (&t[i], &t[j]);
                if $clash {
                    ok = false;
                }
                j += 1;
            }
            i += 1;
        }
        ok
    }};
}

/// Declares the registered expansions (field name: state type; the order of their decision
/// kinds, events, categories and counters in reports) and builds the [`Set`], its dispatch
/// and the tables of what they declare from that one list.
macro_rules! registry {
    ($($field:ident: $ty:ty),* $(,)?) => {
        /// A registered expansion.
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
        enum Member {
            $($field),*
        }

        const ALL: [Member; [$(Member::$field),*].len()] = [$(Member::$field),*];
        // `Set::used` has a bit per member
        const _: () = assert!(ALL.len() <= 32);

        /// Where member `m`'s entries start in a table of `core` entries followed by each
        /// member's `lens` entries.
        const fn first_of(core: usize, lens: &[usize], m: usize) -> u8 {
            let mut k = core;
            let mut i = 0;
            while i < m {
                k += lens[i];
                i += 1;
            }
            k as u8
        }

        /// A table: the core's entries, then each member's declared ones (`$decl`), in
        /// registration order; `$fill` fills the slots while it is built.
        macro_rules! table {
            ($t:ty, $fill:expr, $core:expr, $decl:ident) => {{
                const N: usize = $core.len() $(+ <$ty as Expansion>::$decl.len())*;
                let mut t: [$t; N] = [$fill; N];
                let mut k = 0;
                while k < $core.len() {
                    t[k] = $core[k];
                    k += 1;
                }
                $({
                    let d = <$ty as Expansion>::$decl;
                    let mut j = 0;
                    while j < d.len() {
                        t[k] = d[j];
                        k += 1;
                        j += 1;
                    }
                })*
                t
            }};
        }

        const NO_EVENTS: [EventSpec; 0] = [];
        const NO_COUNTERS: [CounterSpec; 0] = [];
        const NO_MARKS: [(&str, &str); 0] = [];
        const NO_SEGMENT_MARKS: [(&str, crate::tiles::FeatureKind, &str); 0] = [];

        /// Every decision kind: the core's, then each member's (see [`DecisionKind`]).
        const DECISIONS: [DecisionSpec; CORE_DECISIONS.len() $(+ <$ty as Expansion>::DECISIONS.len())*] =
            table!(DecisionSpec, CORE_DECISIONS[0], CORE_DECISIONS, DECISIONS);
        /// Every expansion event kind, each member's in order (see [`EventSpec`]).
        const EVENTS: [EventSpec; 0 $(+ <$ty as Expansion>::EVENTS.len())*] =
            table!(EventSpec, PLACEHOLDER_EVENT, NO_EVENTS, EVENTS);
        /// Every scoring category: the core's, then each member's (see [`Category`]).
        const CATEGORIES: [&str; CORE_CATEGORIES.len() $(+ <$ty as Expansion>::CATEGORIES.len())*] =
            table!(&str, "", CORE_CATEGORIES, CATEGORIES);
        /// Every tile mark (name, meaning), each member's in order (see
        /// `Expansion::TILE_MARKS`): a tile's marks hold a bit per entry.
        pub const TILE_MARKS: [(&str, &str); 0 $(+ <$ty as Expansion>::TILE_MARKS.len())*] =
            table!((&str, &str), ("", ""), NO_MARKS, TILE_MARKS);
        const _: () = assert!(TILE_MARKS.len() <= 32, "more tile marks than a tile has bits");
        const _: () = assert!(
            no_clash!(&TILE_MARKS, |a, b| same_name(a.0, b.0)),
            "two tile marks share a name"
        );

        /// Every kind of follower: the core's plain follower, then each member's (see
        /// [`FollowerKind`]).
        const FOLLOWER_KINDS: [FollowerKindSpec; CORE_FOLLOWER_KINDS.len() $(+ <$ty as Expansion>::FOLLOWER_KINDS.len())*] =
            table!(FollowerKindSpec, CORE_FOLLOWER_KINDS[0], CORE_FOLLOWER_KINDS, FOLLOWER_KINDS);
        // `Set::follower_kinds` has a bit per kind
        const _: () = assert!(FOLLOWER_KINDS.len() <= 32, "more follower kinds than a mask has bits");
        const _: () = assert!(
            no_clash!(&FOLLOWER_KINDS, |a, b| a.key_code == b.key_code || same_name(a.name, b.name)),
            "two follower kinds share a name or key code"
        );

        /// Every segment mark (name, the kind of segment, meaning), each member's in order
        /// (see `Expansion::SEGMENT_MARKS`): a segment's marks hold a bit per entry.
        pub const SEGMENT_MARKS: [(&str, crate::tiles::FeatureKind, &str); 0 $(+ <$ty as Expansion>::SEGMENT_MARKS.len())*] =
            table!((&str, crate::tiles::FeatureKind, &str), ("", crate::tiles::FeatureKind::Road, ""), NO_SEGMENT_MARKS, SEGMENT_MARKS);
        const _: () = assert!(SEGMENT_MARKS.len() <= 8, "more segment marks than a segment has bits");
        const _: () = assert!(
            no_clash!(&SEGMENT_MARKS, |a, b| same_name(a.0, b.0)),
            "two segment marks share a name"
        );

        /// The bit index and segment kind of the segment mark named `name`, if an expansion
        /// declares it.
        pub fn segment_mark(name: &str) -> Option<(u8, crate::tiles::FeatureKind)> {
            SEGMENT_MARKS.iter().position(|m| m.0 == name).map(|i| (i as u8, SEGMENT_MARKS[i].1))
        }

        /// The conflicts the registered expansions find in `rules` (see
        /// `Expansion::conflict`), each in words, in registration order.
        pub fn conflicts(rules: &crate::ruleset::Ruleset) -> Vec<String> {
            let mut out = Vec::new();
            $(if let Some(c) = <$ty as Expansion>::conflict(rules) {
                out.push(c);
            })*
            out
        }

        /// The bit index of the tile mark named `name`, if an expansion declares it.
        pub fn tile_mark(name: &str) -> Option<u8> {
            TILE_MARKS.iter().position(|m| m.0 == name).map(|i| i as u8)
        }

        /// Every counter, each member's in order (see [`CounterSpec`]).
        const COUNTERS: [CounterSpec; 0 $(+ <$ty as Expansion>::COUNTERS.len())*] =
            table!(CounterSpec, PLACEHOLDER_COUNTER, NO_COUNTERS, COUNTERS);

        const _: () = assert!(
            no_clash!(&DECISIONS, |a, b| a.key_code == b.key_code || same_name(a.name, b.name)),
            "two decisions share a name or key code"
        );
        const _: () = assert!(
            no_clash!(&EVENTS, |a, b| a.key_code == b.key_code || same_name(a.name, b.name)),
            "two events share a name or key code"
        );
        const _: () = {
            let mut i = 0;
            while i < EVENTS.len() {
                assert!(EVENTS[i].fields.len() <= crate::engine::event::MAX_FIELDS, "an event has too many fields");
                i += 1;
            }
        };
        const _: () = assert!(
            no_clash!(&CATEGORIES, |a, b| same_name(a, b)),
            "two scoring categories share a name"
        );
        const _: () = assert!(
            no_clash!(&COUNTERS, |a, b| same_name(a.name, b.name)),
            "two counters share a name"
        );
        const _: () = assert!(DECISIONS.len() <= u8::MAX as usize && EVENTS.len() <= u8::MAX as usize);
        const _: () = assert!(CATEGORIES.len() <= u8::MAX as usize && COUNTERS.len() <= u8::MAX as usize);

        /// Every member's rule options (see `Expansion::OPTIONS`), in registration order.
        pub const OPTIONS: [&[crate::rule_options::OptionDef]; ALL.len()] =
            [$(<$ty as Expansion>::OPTIONS),*];

        /// How many entries each member declares, per table, in registration order.
        const DECISION_LENS: [usize; ALL.len()] = [$(<$ty as Expansion>::DECISIONS.len()),*];
        const EVENT_LENS: [usize; ALL.len()] = [$(<$ty as Expansion>::EVENTS.len()),*];
        const CATEGORY_LENS: [usize; ALL.len()] = [$(<$ty as Expansion>::CATEGORIES.len()),*];
        const COUNTER_LENS: [usize; ALL.len()] = [$(<$ty as Expansion>::COUNTERS.len()),*];
        const MARK_LENS: [usize; ALL.len()] = [$(<$ty as Expansion>::TILE_MARKS.len()),*];
        const FOLLOWER_KIND_LENS: [usize; ALL.len()] = [$(<$ty as Expansion>::FOLLOWER_KINDS.len()),*];
        const SEGMENT_MARK_LENS: [usize; ALL.len()] = [$(<$ty as Expansion>::SEGMENT_MARKS.len()),*];

        $(
            impl Registered for $ty {
                const FIRST_DECISION: u8 =
                    first_of(CORE_DECISIONS.len(), &DECISION_LENS, Member::$field as usize);
                const FIRST_EVENT: u8 = first_of(0, &EVENT_LENS, Member::$field as usize);
                const FIRST_CATEGORY: u8 =
                    first_of(CORE_CATEGORIES.len(), &CATEGORY_LENS, Member::$field as usize);
                const FIRST_COUNTER: u8 = first_of(0, &COUNTER_LENS, Member::$field as usize);
                const FIRST_MARK: u8 = first_of(0, &MARK_LENS, Member::$field as usize);
                const FIRST_SEGMENT_MARK: u8 = first_of(0, &SEGMENT_MARK_LENS, Member::$field as usize);
                const FIRST_FOLLOWER_KIND: u8 = first_of(
                    CORE_FOLLOWER_KINDS.len(),
                    &FOLLOWER_KIND_LENS,
                    Member::$field as usize,
                );
            }
        )*

        impl ExpansionEvent {
            /// What its module declares about its kind.
            pub fn spec(&self) -> &'static EventSpec {
                &EVENTS[self.kind.0 as usize]
            }

            /// Its line in the turn log (`seat` names a seat), or `None` for bookkeeping.
            pub fn narrate(&self, names: &crate::engine::event::Names) -> Option<String> {
                (self.spec().narrate)(self, names)
            }
        }

        impl DecisionKind {
            /// How many kinds of decision there are (from the declarations).
            pub const COUNT: usize = DECISIONS.len();

            /// What its module declares about it.
            pub fn spec(self) -> &'static DecisionSpec {
                &DECISIONS[self.0 as usize]
            }

            /// Its name in reports and JSON (`snake_case`).
            pub fn name(self) -> &'static str {
                self.spec().name
            }

            /// What it mixes into its decisions' random keys.
            #[inline]
            pub(crate) fn key_code(self) -> u64 {
                DECISIONS[self.0 as usize].key_code as u64
            }

            /// The kind named `name`, if any.
            pub fn from_name(name: &str) -> Option<DecisionKind> {
                DECISIONS.iter().position(|d| d.name == name).map(|i| DecisionKind(i as u8))
            }

            /// Every kind, in index order.
            pub fn all() -> impl Iterator<Item = DecisionKind> {
                (0..DECISIONS.len() as u8).map(DecisionKind)
            }
        }

        impl FollowerKind {
            /// How many kinds of follower there are (from the declarations).
            pub const COUNT: usize = FOLLOWER_KINDS.len();

            /// What its module declares about it.
            #[inline]
            pub fn spec(self) -> &'static FollowerKindSpec {
                &FOLLOWER_KINDS[self.0 as usize]
            }

            /// Its name in records and JSON (`snake_case`).
            pub fn name(self) -> &'static str {
                self.spec().name
            }

            /// The kind named `name`, if any.
            pub fn from_name(name: &str) -> Option<FollowerKind> {
                FOLLOWER_KINDS.iter().position(|k| k.name == name).map(|i| FollowerKind(i as u8))
            }

            /// Every kind, in index order.
            pub fn all() -> impl Iterator<Item = FollowerKind> {
                (0..FOLLOWER_KINDS.len() as u8).map(FollowerKind)
            }
        }

        impl Category {
            /// How many scoring categories there are (from the declarations).
            pub const COUNT: usize = CATEGORIES.len();
            /// Every category, in report order.
            pub const ALL: [Category; CATEGORIES.len()] = {
                let mut t = [Category(0); CATEGORIES.len()];
                let mut i = 0;
                while i < t.len() {
                    t[i] = Category(i as u8);
                    i += 1;
                }
                t
            };

            /// Its name in reports and JSON (lowercase).
            pub fn name(self) -> &'static str {
                CATEGORIES[self.0 as usize]
            }

            /// The category named `name`, if any.
            pub fn from_name(name: &str) -> Option<Category> {
                CATEGORIES.iter().position(|&c| c == name).map(|i| Category(i as u8))
            }
        }

        impl Counter {
            /// How many counters there are (from the declarations).
            pub const COUNT: usize = COUNTERS.len();

            /// What its module declares about it.
            pub fn spec(self) -> &'static CounterSpec {
                &COUNTERS[self.0 as usize]
            }

            /// Its name in reports, `games.csv` and JSON.
            pub fn name(self) -> &'static str {
                self.spec().name
            }

            /// The counter named `name`, if any.
            pub fn from_name(name: &str) -> Option<Counter> {
                COUNTERS.iter().position(|c| c.name == name).map(|i| Counter(i as u8))
            }

            /// Every counter, in index order.
            pub fn all() -> impl Iterator<Item = Counter> {
                (0..COUNTERS.len() as u8).map(Counter)
            }
        }

        /// Every registered expansion's state, and which of them this game's ruleset uses
        /// at each hook and notice.
        pub struct Set {
            /// A bit per member (registration order): taking part in this game.
            used: u32,
            /// Per hook: the expansions taking part that act there, in acting order (the
            /// first `hooked_len[hook]`).
            hooked: [[Member; ALL.len()]; Hook::COUNT],
            hooked_len: [u8; Hook::COUNT],
            /// Per notice: the expansions taking part that hear it.
            hearing: [[Member; ALL.len()]; Heard::COUNT],
            hearing_len: [u8; Heard::COUNT],
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
            /// `extends | restricts`: the one flag the placement scan tests.
            adjusts: bool,
            $($field: $ty),*
        }

        /// The tile types the expansions derive from `rules`' (see
        /// [`Expansion::derive_tiles`]), in registration order.
        pub fn derived_tiles(
            rules: &crate::ruleset::Ruleset,
        ) -> Vec<(crate::ruleset::TileIdx, u8, crate::tiles::TileType)> {
            let mut out = Vec::new();
            $(out.extend(<$ty as Expansion>::derive_tiles(rules));)*
            out
        }

        impl Expansions for Set {
            fn for_rules(rules: &Compiled) -> Self {
                let mut set = Set {
                    used: 0,
                    hooked: [ALL; Hook::COUNT],
                    hooked_len: [0; Hook::COUNT],
                    hearing: [ALL; Heard::COUNT],
                    hearing_len: [0; Heard::COUNT],
                    extends: false,
                    supplies: false,
                    grants: false,
                    follower_kinds: 1,
                    rescores: false,
                    restricts: false,
                    orders: false,
                    adjusts: false,
                    $($field: <$ty>::default()),*
                };
                // acting order: by declared priority, then registration order
                let mut order = ALL;
                order.sort_by_key(|&m| {
                    let priority = match m {
                        $(Member::$field => <$ty as Expansion>::PRIORITY),*
                    };
                    (priority, m as u8)
                });
                for m in order {
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
                    set.adjusts = set.extends | set.restricts;
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
                    .filter(|&&m| self.used & (1 << m as u32) != 0)
                    .map(|&m| match m {
                        $(Member::$field => stringify!($field)),*
                    })
                    .collect()
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
                self.hooked_len[at as usize] > 0
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
                self.adjusts
            }

            #[inline]
            fn restricts_placement(&self) -> bool {
                self.restricts
            }

            #[inline(never)]
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
            fn orders_deck(&self) -> bool {
                self.orders
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
            // inlined into the turn's loop it made every turn of a plain game dearer
            #[inline(never)]
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

            fn set_up(g: &mut Game<Self>) {
                $(if g.ext.used & (1 << Member::$field as u32) != 0 {
                    <$ty as Expansion>::set_up(g);
                })*
            }

            fn expected_points(g: &Game<Self>, out: &mut [f64]) {
                $(if g.ext.used & (1 << Member::$field as u32) != 0 {
                    <$ty as Expansion>::expected_points(g, out);
                })*
            }

            fn board_pieces(g: &Game<Self>, out: &mut Vec<Piece>) {
                $(if g.ext.used & (1 << Member::$field as u32) != 0 {
                    <$ty as Expansion>::board_pieces(g, out);
                })*
            }

            fn legend(&self) -> Vec<(Glyph, &'static str)> {
                let mut v = Vec::new();
                $(if self.used & (1 << Member::$field as u32) != 0 {
                    v.extend_from_slice(<$ty as Expansion>::LEGEND);
                })*
                v
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

            fn value_hint(g: &Game<Self>, kind: DecisionKind, i: usize, player: u8) -> i64 {
                match Set::asker(kind) {
                    $((Member::$field, local) => {
                        <$ty as Expansion>::value_hint(g, local, i, player)
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
                    return <$ty as Expansion>::follower_kind_value(
                        g,
                        k - <$ty as Registered>::FIRST_FOLLOWER_KIND,
                        node,
                        player,
                    );
                })*
                0
            }

            fn farm_winner_bonus(g: &Game<Self>, root: u32, player: u8) -> i64 {
                let mut bonus = 0;
                $(if g.ext.used & (1 << Member::$field as u32) != 0 {
                    bonus += <$ty as Expansion>::farm_winner_bonus(g, root, player);
                })*
                bonus
            }
        }

        impl Set {
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
                    hooked_len: self.hooked_len,
                    hearing: self.hearing,
                    hearing_len: self.hearing_len,
                    extends: self.extends,
                    supplies: self.supplies,
                    grants: self.grants,
                    follower_kinds: self.follower_kinds,
                    rescores: self.rescores,
                    restricts: self.restricts,
                    orders: self.orders,
                    adjusts: self.adjusts,
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
                self.hooked_len = source.hooked_len;
                self.hearing = source.hearing;
                self.hearing_len = source.hearing_len;
                self.extends = source.extends;
                self.supplies = source.supplies;
                self.grants = source.grants;
                self.follower_kinds = source.follower_kinds;
                self.rescores = source.rescores;
                self.restricts = source.restricts;
                self.orders = source.orders;
                self.adjusts = source.adjusts;
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
            }
        )*
    };
}
