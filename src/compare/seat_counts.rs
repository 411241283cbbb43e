//! Values kept per per-seat counter (`SeatCounter`: what an expansion counts per seat at the
//! end of a game, declared by its module), for the aggregates and the report: a
//! [`ByCounter`] holds one value per counter and is written, flattened into the struct that
//! holds it, as one entry per counter whose key its [`CounterKey`] makes from the counter's
//! declaration (`ingots`, `ingot_delta`, `mean_ingots`, …), so the files name no expansion
//! here and keep the keys they always had.
//!
//! Read back through serde's flattening, the entries are buffered before they are parsed,
//! and a buffered value cannot be read as a 128-bit integer: a value is read through its
//! [`Flattened::Wire`] form, whose wide sums take any integer that fits 64 bits (a
//! counter's sums over 2⁶⁴ would not read back; counts of pieces held never come near).

use crate::compare::stats::{MeanCi, Moments};
use crate::engine::SeatCounter;
use crate::engine::SeatCounterSpec;
use serde::de::{IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::marker::PhantomData;

/// How a [`ByCounter`]'s entry for a counter is keyed.
pub trait CounterKey {
    /// The key of the entry for the counter `spec` declares, `None` to write no entry.
    fn key(spec: &SeatCounterSpec) -> Option<String>;
}

/// Keyed by the counter's name (`ingots`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Named;
impl CounterKey for Named {
    fn key(spec: &SeatCounterSpec) -> Option<String> {
        Some(spec.name.to_string())
    }
}

/// A paired difference: `{one}_delta` (`ingot_delta`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Delta;
impl CounterKey for Delta {
    fn key(spec: &SeatCounterSpec) -> Option<String> {
        Some(format!("{}_delta", spec.one))
    }
}

/// A mean per seat: `mean_{name}` (`mean_ingots`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mean;
impl CounterKey for Mean {
    fn key(spec: &SeatCounterSpec) -> Option<String> {
        Some(format!("mean_{}", spec.name))
    }
}

/// A mean per game, all seats together: `mean_{name}_total` (`mean_ingots_total`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MeanTotal;
impl CounterKey for MeanTotal {
    fn key(spec: &SeatCounterSpec) -> Option<String> {
        Some(format!("mean_{}_total", spec.name))
    }
}

/// A mean paired difference per seat: `mean_{one}_delta` (`mean_ingot_delta`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MeanDelta;
impl CounterKey for MeanDelta {
    fn key(spec: &SeatCounterSpec) -> Option<String> {
        Some(format!("mean_{}_delta", spec.one))
    }
}

/// The mean points per seat of the scoring category the count is worth at the end:
/// `mean_{category}` (`mean_gold`); no entry for a counter worth no category.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MeanWorth;
impl CounterKey for MeanWorth {
    fn key(spec: &SeatCounterSpec) -> Option<String> {
        spec.worth.map(|c| format!("mean_{c}"))
    }
}

/// Whether a ruleset plays the counter's expansion: `has_{category}` (`has_gold`); no entry
/// for a counter worth no category.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Has;
impl CounterKey for Has {
    fn key(spec: &SeatCounterSpec) -> Option<String> {
        spec.worth.map(|c| format!("has_{c}"))
    }
}

/// One `T` per per-seat counter, by [`SeatCounter::index`] (see the module doc).
pub struct ByCounter<T, K>(pub Vec<T>, PhantomData<K>);

impl<T, K> ByCounter<T, K> {
    /// One value per counter, each `f(counter)`.
    pub fn from_fn(f: impl FnMut(SeatCounter) -> T) -> Self {
        ByCounter(SeatCounter::all().map(f).collect(), PhantomData)
    }

    /// The value of counter `c`.
    pub fn get(&self, c: SeatCounter) -> &T {
        &self.0[c.index()]
    }

    /// The value of counter `c`, to change.
    pub fn get_mut(&mut self, c: SeatCounter) -> &mut T {
        &mut self.0[c.index()]
    }

    /// The values, by counter index.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.0.iter()
    }
}

impl<T, K: CounterKey> ByCounter<T, K> {
    /// Where counter `c`'s value lies in a file, `field_path` naming this field: beside it,
    /// under its own key (`accumulator.pairs[0].ingot_delta`), as it is flattened there.
    pub fn path_of(field_path: &str, c: SeatCounter) -> String {
        let parent = field_path.rsplit_once('.').map_or("", |(p, _)| p);
        let key = K::key(c.spec()).unwrap_or_else(|| c.name().to_string());
        if parent.is_empty() {
            key
        } else {
            format!("{parent}.{key}")
        }
    }

    /// [`ByCounter::path_of`], the type taken from `_v`.
    pub fn path_of_value(_v: &Self, field_path: &str, c: SeatCounter) -> String {
        Self::path_of(field_path, c)
    }
}

impl<T: Default, K> Default for ByCounter<T, K> {
    fn default() -> Self {
        Self::from_fn(|_| T::default())
    }
}

impl<T: Clone, K> Clone for ByCounter<T, K> {
    fn clone(&self) -> Self {
        ByCounter(self.0.clone(), PhantomData)
    }
}

impl<T: fmt::Debug, K> fmt::Debug for ByCounter<T, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(SeatCounter::all().map(|c| c.name()).zip(&self.0))
            .finish()
    }
}

impl<T: PartialEq, K> PartialEq for ByCounter<T, K> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl<T: Eq, K> Eq for ByCounter<T, K> {}

impl<T: Serialize, K: CounterKey> Serialize for ByCounter<T, K> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        for (c, v) in SeatCounter::all().zip(&self.0) {
            if let Some(key) = K::key(c.spec()) {
                m.serialize_entry(&key, v)?;
            }
        }
        m.end()
    }
}

impl<'de, T: Flattened<'de>, K: CounterKey> Deserialize<'de> for ByCounter<T, K> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Entries<T, K>(PhantomData<(T, K)>);
        impl<'de, T: Flattened<'de>, K: CounterKey> Visitor<'de> for Entries<T, K> {
            type Value = ByCounter<T, K>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("entries per per-seat counter")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Self::Value, A::Error> {
                let keys: Vec<Option<String>> =
                    SeatCounter::all().map(|c| K::key(c.spec())).collect();
                let mut out = ByCounter::<T, K>::default();
                while let Some(key) = m.next_key::<String>()? {
                    match keys.iter().position(|k| k.as_deref() == Some(key.as_str())) {
                        Some(i) => out.0[i] = T::from_wire(m.next_value::<T::Wire>()?),
                        // another field of the struct it is flattened into
                        None => {
                            m.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(out)
            }
        }
        d.deserialize_map(Entries(PhantomData))
    }
}

/// A value a [`ByCounter`] holds, read through `Wire` (see the module doc).
pub trait Flattened<'de>: Default + Sized {
    /// What is read before it becomes the value.
    type Wire: Deserialize<'de>;
    /// The value read.
    fn from_wire(w: Self::Wire) -> Self;
}

/// Values read as they are (no wide integers in them).
macro_rules! read_as_is {
    ($($t:ty),*) => {$(
        impl Flattened<'_> for $t {
            type Wire = $t;
            fn from_wire(w: $t) -> $t {
                w
            }
        }
    )*};
}
read_as_is!(bool, f64, Vec<f64>, Vec<MeanCi>, Option<MeanCi>);

impl Flattened<'_> for Moments {
    type Wire = MomentsWire;
    fn from_wire(w: MomentsWire) -> Moments {
        w.into()
    }
}

impl Flattened<'_> for Vec<Moments> {
    type Wire = Vec<MomentsWire>;
    fn from_wire(w: Vec<MomentsWire>) -> Vec<Moments> {
        w.into_iter().map(Moments::from).collect()
    }
}

/// [`Moments`] as read from a buffered entry: its sums as [`Wide`].
#[derive(Deserialize)]
pub struct MomentsWire {
    n: u64,
    sum: Wide,
    sum_sq: Wide,
    #[serde(default)]
    overflow: bool,
}

impl From<MomentsWire> for Moments {
    fn from(w: MomentsWire) -> Moments {
        Moments {
            n: w.n,
            sum: w.sum.0,
            sum_sq: w.sum_sq.0.max(0) as u128,
            overflow: w.overflow,
        }
    }
}

/// An integer read from whatever integer form the buffer holds.
pub struct Wide(i128);

impl<'de> Deserialize<'de> for Wide {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Int;
        impl Visitor<'_> for Int {
            type Value = Wide;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an integer")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Wide, E> {
                Ok(Wide(v.into()))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Wide, E> {
                Ok(Wide(v.into()))
            }
            fn visit_i128<E: serde::de::Error>(self, v: i128) -> Result<Wide, E> {
                Ok(Wide(v))
            }
            fn visit_u128<E: serde::de::Error>(self, v: u128) -> Result<Wide, E> {
                i128::try_from(v)
                    .map(Wide)
                    .map_err(|_| E::custom("a sum over 2^127"))
            }
        }
        d.deserialize_any(Int)
    }
}
