//! The `registry!` macro that `mod.rs` invokes once with the list of registered expansions:
//! from that one list it generates the tables of what the members declare (decision kinds,
//! events, scoring categories, counters, tile and segment marks, follower kinds, rule
//! options, in `registry_tables!`), with the compile-time checks that no name or code is used
//! twice (`no_clash!`, `same_name`), and the [`Set`](super::Set) of their states with the
//! dispatch of every hook and notice, and of what the policies and the presentation ask of
//! the members (`registry_dispatch!`, in `dispatch.rs`: `Expansions`, `ExpansionsValuation`,
//! `ExpansionsPresentation`). The tables read only the members' rules (`Expansion`). The
//! expanded code names its items through `mod.rs`'s imports.

use crate::engine::event::EventSpec;
use crate::engine::outcome::{CounterSpec, SeatCounterSpec};

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
/// Fills the per-seat counter table while it is built (never left in it).
pub(super) const PLACEHOLDER_SEAT_COUNTER: SeatCounterSpec = SeatCounterSpec {
    name: "",
    one: "",
    doc: "",
    worth: None,
    chart: "",
    used_by: |_| false,
    held: "",
    rest: None,
};

/// The bits of `len` tile marks from bit `first` on.
pub(super) const fn mark_bits(first: u8, len: usize) -> u32 {
    if len == 0 {
        0
    } else {
        (((1u64 << len) - 1) << first) as u32
    }
}

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

        registry_tables! { $($field: $ty),* }
        registry_dispatch! { $($field: $ty),* }
    };
}

/// The tables of what the members declare (decision kinds, events, categories, counters,
/// tile and segment marks, follower kinds, rule options), their compile-time checks, and
/// where each member's entries start (`kind_of`, `event_of`, …); `registry!` invokes it.
macro_rules! registry_tables {
    ($($field:ident: $ty:ty),* $(,)?) => {
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
        const NO_SEAT_COUNTERS: [SeatCounterSpec; 0] = [];
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
        pub(crate) const FOLLOWER_KINDS: [FollowerKindSpec; CORE_FOLLOWER_KINDS.len() $(+ <$ty as Expansion>::FOLLOWER_KINDS.len())*] =
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
        pub fn conflicts(rules: &crate::ruleset::Ruleset) -> Vec<crate::engine::hooks::Conflict> {
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

        /// Every member's area of options, in registration order (see
        /// `crate::rule_options::AreaInfo`).
        pub const AREAS: [crate::rule_options::AreaInfo; ALL.len()] = [$(
            crate::rule_options::AreaInfo {
                name: stringify!($field),
                title: if <$ty as Expansion>::TITLE.is_empty() {
                    stringify!($field)
                } else {
                    <$ty as Expansion>::TITLE
                },
                tiles: <$ty as Expansion>::PLAYED_WITH_TILES,
                marks: registry::mark_bits(<$ty as Registered>::FIRST_MARK, <$ty as Expansion>::TILE_MARKS.len()),
            }
        ),*];

        /// The area of the member registered as `name`.
        pub fn area(name: &str) -> Option<&'static crate::rule_options::AreaInfo> {
            AREAS.iter().find(|a| a.name == name)
        }

        /// What the argument of tile-mark keyword `word` is (`crop` → `crop-circle kind`),
        /// if a member writes marks as a keyword and an argument (`Expansion::MARK_KEYWORDS`).
        pub fn mark_keyword(word: &str) -> Option<&'static str> {
            [$(<$ty as Expansion>::MARK_KEYWORDS),*]
                .into_iter()
                .flatten()
                .find(|k| k.0 == word)
                .map(|k| k.1)
        }

        /// Every counter, each member's in order (see [`CounterSpec`]).
        const COUNTERS: [CounterSpec; 0 $(+ <$ty as Expansion>::COUNTERS.len())*] =
            table!(CounterSpec, PLACEHOLDER_COUNTER, NO_COUNTERS, COUNTERS);
        /// Every per-seat counter, each member's in order (see [`SeatCounterSpec`]).
        const SEAT_COUNTERS: [SeatCounterSpec; 0 $(+ <$ty as Expansion>::SEAT_COUNTERS.len())*] =
            table!(SeatCounterSpec, PLACEHOLDER_SEAT_COUNTER, NO_SEAT_COUNTERS, SEAT_COUNTERS);

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
        const _: () = assert!(
            no_clash!(&SEAT_COUNTERS, |a, b| same_name(a.name, b.name)),
            "two per-seat counters share a name"
        );
        const _: () = assert!(SEAT_COUNTERS.len() <= 32, "more than 32 per-seat counters");
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
        const SEAT_COUNTER_LENS: [usize; ALL.len()] = [$(<$ty as Expansion>::SEAT_COUNTERS.len()),*];
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
                const FIRST_SEAT_COUNTER: u8 = first_of(0, &SEAT_COUNTER_LENS, Member::$field as usize);
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

            /// How option `c` of this decision reads in `how`'s place, in its module's words
            /// (`Presentation::choice_words`); `None` for the core's decisions and where the
            /// module leaves it to the generic words of `c`'s form.
            pub fn words(self, c: &Choice, how: Wording) -> Option<String> {
                if self.index() < CORE_DECISIONS.len() {
                    return None;
                }
                <Set as ExpansionsPresentation>::choice_words(self, c, how)
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

        impl SeatCounter {
            /// How many per-seat counters there are (from the declarations).
            pub const COUNT: usize = SEAT_COUNTERS.len();

            /// What its module declares about it.
            pub fn spec(self) -> &'static SeatCounterSpec {
                &SEAT_COUNTERS[self.0 as usize]
            }

            /// Its name in a seat's record, `games.csv` and the reports.
            pub fn name(self) -> &'static str {
                self.spec().name
            }

            /// The per-seat counter named `name`, if any.
            pub fn from_name(name: &str) -> Option<SeatCounter> {
                SEAT_COUNTERS.iter().position(|c| c.name == name).map(|i| SeatCounter(i as u8))
            }

            /// Every per-seat counter, in index order.
            pub fn all() -> impl Iterator<Item = SeatCounter> {
                (0..SEAT_COUNTERS.len() as u8).map(SeatCounter)
            }
        }
    };
}
