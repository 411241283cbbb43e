//! How exact aggregates add up and what their counts must agree with, declared once per field.
//!
//! An aggregate (a [`crate::compare::accumulate::RulesetAcc`], a pair's, a seat's) is declared
//! with [`aggregate!`]: its field list is the struct, and from it the macro generates
//! [`Merge`] (field-wise checked addition, an overflow naming the field as a path into
//! `accumulator.json`) and `check_fields` (each field's count rule, see below). A new field is
//! written once, in the list, plus the line in the aggregate's `add` that takes it from a game.
//!
//! A field may say how it merges and what it counts:
//!
//! ```text
//! pub a: usize => kept,                    // not added: the identity of the aggregate
//! pub examples: Vec<Example> => keep_best, // merged by the named function
//! pub turns: Moments where every_game,     // one value per game of the run (`n` for Moments)
//! pub ties: u64 where at_most_games,       // at most one per game
//! pub totals_hist: .. where every_seat_game, // the histogram counts games × players
//! pub seats: Vec<SeatAcc> where each_seat(fields), // one per seat, each checked in turn
//! pub score_delta: Vec<Moments> where each_seat(every_game),
//! pub counts: ByCounter<Moments, Named> where each_counter(every_game), // per per-seat counter
//! ```
//!
//! The serialized form is the struct's own (serde), so `accumulator.json`, checkpoints and
//! shard merges do not depend on this module.

use super::stats::Moments;
use std::collections::BTreeMap;

/// Integers that aggregates add up.
pub(super) trait CheckedAdd: Copy {
    fn checked(self, other: Self) -> Option<Self>;
}

macro_rules! checked_add {
    ($($t:ty),*) => {$(
        impl CheckedAdd for $t {
            fn checked(self, other: Self) -> Option<Self> {
                self.checked_add(other)
            }
        }
    )*};
}
checked_add!(u64, u128, i128);

/// `*into += from`, or an error naming the field (`path()`) when the sum overflows.
pub(super) fn add<T: CheckedAdd>(
    into: &mut T,
    from: T,
    path: impl FnOnce() -> String,
) -> Result<(), String> {
    *into = into
        .checked(from)
        .ok_or_else(|| format!("{} overflows when the inputs are added", path()))?;
    Ok(())
}

/// Pools `from` into `into`, or an error naming the field when a sum overflows; moments
/// already inexact pool with saturation (the flag carries the problem to the report).
pub(super) fn add_moments(
    into: &mut Moments,
    from: &Moments,
    path: impl Fn() -> String,
) -> Result<(), String> {
    if into.overflow || from.overflow {
        into.merge(from);
        return Ok(());
    }
    add(&mut into.n, from.n, || format!("{}.n", path()))?;
    add(&mut into.sum, from.sum, || format!("{}.sum", path()))?;
    add(&mut into.sum_sq, from.sum_sq, || {
        format!("{}.sum_sq", path())
    })
}

/// Adding the aggregate of other games (disjoint seeds) of the same run, field by field;
/// `path` names `self` in `accumulator.json` for the error of an overflowing sum.
pub(super) trait Merge {
    fn merge_from(&mut self, other: &Self, path: &str) -> Result<(), String>;
}

impl<T: CheckedAdd> Merge for T {
    fn merge_from(&mut self, other: &T, path: &str) -> Result<(), String> {
        add(self, *other, || path.to_string())
    }
}

impl Merge for Moments {
    fn merge_from(&mut self, other: &Moments, path: &str) -> Result<(), String> {
        add_moments(self, other, || path.to_string())
    }
}

/// A histogram (value → count): the counts of each value add up.
impl<K: Ord + Copy + std::fmt::Display> Merge for BTreeMap<K, u64> {
    fn merge_from(&mut self, other: &Self, path: &str) -> Result<(), String> {
        for (&k, &c) in other {
            add(self.entry(k).or_default(), c, || format!("{path}[{k}]"))?;
        }
        Ok(())
    }
}

/// Element by element (the lengths are checked before merging: `check_fields`).
impl<T: Merge> Merge for Vec<T> {
    fn merge_from(&mut self, other: &Self, path: &str) -> Result<(), String> {
        for (i, (x, y)) in self.iter_mut().zip(other).enumerate() {
            x.merge_from(y, &format!("{path}[{i}]"))?;
        }
        Ok(())
    }
}

/// Counter by counter, each at its own key beside the field (the values are flattened into
/// the struct that holds them).
impl<T: Merge, K: super::seat_counts::CounterKey> Merge for super::seat_counts::ByCounter<T, K> {
    fn merge_from(&mut self, other: &Self, path: &str) -> Result<(), String> {
        for c in crate::engine::SeatCounter::all() {
            self.get_mut(c)
                .merge_from(other.get(c), &Self::path_of(path, c))?;
        }
        Ok(())
    }
}

impl<T: Merge, const N: usize> Merge for [T; N] {
    fn merge_from(&mut self, other: &Self, path: &str) -> Result<(), String> {
        for (i, (x, y)) in self.iter_mut().zip(other).enumerate() {
            x.merge_from(y, &format!("{path}[{i}]"))?;
        }
        Ok(())
    }
}

/// What the counts of a run's aggregate must agree with.
#[derive(Clone, Copy, Debug)]
pub(super) struct RunShape {
    /// Seeds of the run (`accumulator.games`).
    pub games: u64,
    pub players: u8,
    /// `games × players` (checked not to overflow).
    pub seat_games: u64,
}

/// A field that counts games: a count, or the `n` of moments.
pub(super) trait Counted {
    /// What the path of the field gains to name the count (`.n` for moments).
    const COUNT: &'static str = "";
    fn count(&self) -> u64;
}

impl Counted for u64 {
    fn count(&self) -> u64 {
        *self
    }
}

impl Counted for Moments {
    const COUNT: &'static str = ".n";
    fn count(&self) -> u64 {
        self.n
    }
}

/// `where every_game`: the field counts every game of the run once.
/// One value per seat, each counting every game.
pub(super) fn seats_every_game<T: Counted>(
    v: &[T],
    run: &RunShape,
    path: &str,
) -> Result<(), String> {
    one_per_seat(v, run, path)?;
    for (s, x) in v.iter().enumerate() {
        every_game(x, run, &format!("{path}[{s}]"))?;
    }
    Ok(())
}

pub(super) fn every_game<T: Counted>(v: &T, run: &RunShape, path: &str) -> Result<(), String> {
    let (found, games) = (v.count(), run.games);
    if found == games {
        Ok(())
    } else {
        Err(format!(
            "{path}{} is {found} but accumulator.games is {games}",
            T::COUNT
        ))
    }
}

/// `where at_most_games`: the field counts some of the games.
pub(super) fn at_most_games<T: Counted>(v: &T, run: &RunShape, path: &str) -> Result<(), String> {
    at_most(path, v.count(), run.games, "the games")
}

/// `found ≤ bound`, or an error naming the field and what bounds it.
pub(super) fn at_most(path: &str, found: u64, bound: u64, what: &str) -> Result<(), String> {
    if found <= bound {
        Ok(())
    } else {
        Err(format!("{path} is {found}, more than {what} ({bound})"))
    }
}

/// Total count of a histogram; `None` on overflow.
pub(super) fn hist_count<K>(hist: &BTreeMap<K, u64>) -> Option<u64> {
    hist.values().try_fold(0u64, |sum, &c| sum.checked_add(c))
}

/// `where every_seat_game`: a histogram over the seats of every game.
pub(super) fn every_seat_game<K>(
    hist: &BTreeMap<K, u64>,
    run: &RunShape,
    path: &str,
) -> Result<(), String> {
    let found = hist_count(hist).ok_or_else(|| format!("{path}: the counts overflow"))?;
    if found == run.seat_games {
        Ok(())
    } else {
        Err(format!(
            "{path} counts {found} seat-games but {} games of {} players make {}",
            run.games, run.players, run.seat_games
        ))
    }
}

/// `where each_seat(..)`: one entry per seat.
pub(super) fn one_per_seat<T>(v: &[T], run: &RunShape, path: &str) -> Result<(), String> {
    if v.len() == run.players as usize {
        Ok(())
    } else {
        Err(format!(
            "{path} has length {} but the spec has {} players",
            v.len(),
            run.players
        ))
    }
}

/// Declares an aggregate from one field list: the struct itself, its [`Merge`] and its
/// `check_fields(&self, run, path)` (see the module doc for a field's `=> ..` and `where ..`).
macro_rules! aggregate {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $(
                $(#[$field_meta:meta])*
                pub $field:ident : $ty:ty
                $(=> $merge:ident)?
                $(where $rule:ident $(($inner:ident))?)?
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        pub struct $name {
            $( $(#[$field_meta])* pub $field: $ty, )*
        }

        impl $crate::compare::aggregate::Merge for $name {
            fn merge_from(&mut self, other: &Self, path: &str) -> Result<(), String> {
                $( aggregate!(@merge self, other, path, $field $(, $merge)?); )*
                Ok(())
            }
        }

        impl $name {
            /// Checks every field's count rule (declared in its field list), in field order;
            /// the error names the first field that breaks its rule.
            #[allow(unused_variables, dead_code)]
            pub(super) fn check_fields(
                &self,
                run: &$crate::compare::aggregate::RunShape,
                path: &str,
            ) -> Result<(), String> {
                $($(
                    let field = format!("{path}.{}", stringify!($field));
                    aggregate!(@check run, &field, &self.$field, $rule $(($inner))?);
                )?)*
                Ok(())
            }
        }
    };
    (@merge $s:ident, $o:ident, $p:ident, $field:ident) => {
        $crate::compare::aggregate::Merge::merge_from(
            &mut $s.$field,
            &$o.$field,
            &format!("{}.{}", $p, stringify!($field)),
        )?;
    };
    (@merge $s:ident, $o:ident, $p:ident, $field:ident, kept) => {};
    (@merge $s:ident, $o:ident, $p:ident, $field:ident, $f:ident) => {
        $f(&mut $s.$field, &$o.$field, &format!("{}.{}", $p, stringify!($field)))?;
    };
    (@check $run:ident, $path:expr, $v:expr, each_seat($inner:ident)) => {{
        let path: &str = $path;
        $crate::compare::aggregate::one_per_seat($v, $run, path)?;
        for (s, x) in $v.iter().enumerate() {
            aggregate!(@check $run, &format!("{path}[{s}]"), x, $inner);
        }
    }};
    (@check $run:ident, $path:expr, $v:expr, each_counter($inner:ident)) => {{
        let path: &str = $path;
        for c in $crate::engine::SeatCounter::all() {
            let at = $crate::compare::seat_counts::ByCounter::path_of_value($v, path, c);
            aggregate!(@check $run, &at, $v.get(c), $inner);
        }
    }};
    (@check $run:ident, $path:expr, $v:expr, fields) => {
        $v.check_fields($run, $path)?;
    };
    (@check $run:ident, $path:expr, $v:expr, $rule:ident) => {
        $crate::compare::aggregate::$rule($v, $run, $path)?;
    };
}
pub(super) use aggregate;
