//! A save's set-up as read: the core (the sets with their copies, the base set's copies, the
//! follower count, farmers, the 2-point small city) and each importer part's own state,
//! kept by its type ([`PartStates`]), so that the core names no expansion.

use std::any::Any;
use std::borrow::Cow;
use std::fmt;

/// The game set-up of a save.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setup {
    /// The JCloisterZone sets with their copies, as in `setup.sets` (`basic:1`, …).
    pub sets: Vec<(String, u32)>,
    /// Copies of the base set (`basic:1` and `basic:2` together).
    pub basic: u32,
    pub followers: u8,
    pub farmers: bool,
    /// `tiny-city-scoring: "2"`.
    pub tiny_city_2: bool,
    /// What each importer part read (its sets, elements and rules).
    pub parts: PartStates,
    /// The 2nd-edition garden sets every registered part declares ([`super::part::JczPart::gardens`]),
    /// gathered by the set-up reader so that the Abbot's part need not read the parts' list.
    pub gardens: Vec<&'static Gardens>,
}

/// A 2nd-edition set printed with garden tiles (`inns-and-cathedrals:2`): with the Abbot and
/// live gardens, its deck entry's plain tile set becomes the one with the garden tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gardens {
    /// The set-up's set of that edition (`inns-and-cathedrals:2`).
    pub set: &'static str,
    /// The tile set of the part's deck entry (`inns`, of `inns x1`).
    pub plain_set: &'static str,
    /// The bundled file with the garden tiles (`tiles/abbot-inns.tiles`).
    pub file: &'static str,
    /// Its tile set with the garden tiles in place of their plain twins (`inns-gardens`).
    pub garden_set: &'static str,
    /// The set's garden tiles (JCloisterZone ids, meeplab's ids in `file`).
    pub tiles: &'static [&'static str],
}

impl Setup {
    /// A part's state (its default when the part read nothing).
    pub fn part<T: PartState + Clone + Default>(&self) -> Cow<'_, T> {
        self.parts.get::<T>()
    }

    /// A part's state to change (created at its default).
    pub fn part_mut<T: PartState + Default>(&mut self) -> &mut T {
        self.parts.get_mut::<T>()
    }

    /// The set-up with a part's state set.
    pub fn with<T: PartState + Default>(mut self, state: T) -> Setup {
        *self.part_mut::<T>() = state;
        self
    }
}

/// A part's value (its state in the set-up, its message in the log): any plain value,
/// cloned, compared and printed with what holds it.
pub trait PartState: Any + fmt::Debug + Send + Sync {
    fn clone_box(&self) -> Box<dyn PartState>;
    fn eq_dyn(&self, other: &dyn PartState) -> bool;
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<T: Any + fmt::Debug + Clone + PartialEq + Send + Sync> PartState for T {
    fn clone_box(&self) -> Box<dyn PartState> {
        Box::new(self.clone())
    }
    fn eq_dyn(&self, other: &dyn PartState) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// One part's state, with the test whether it is its type's default (a part that read
/// nothing).
struct Entry {
    value: Box<dyn PartState>,
    is_default: fn(&dyn PartState) -> bool,
}

impl fmt::Debug for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.value.fmt(f)
    }
}

/// The parts' states, one per type.
#[derive(Debug, Default)]
pub struct PartStates(Vec<Entry>);

impl PartStates {
    fn find<T: Any>(&self) -> Option<&T> {
        self.0
            .iter()
            .find_map(|e| e.value.as_ref().as_any().downcast_ref::<T>())
    }

    /// A part's state (its default when absent).
    pub fn get<T: PartState + Clone + Default>(&self) -> Cow<'_, T> {
        match self.find::<T>() {
            Some(t) => Cow::Borrowed(t),
            None => Cow::Owned(T::default()),
        }
    }

    /// A part's state to change (created at its default).
    pub fn get_mut<T: PartState + Default>(&mut self) -> &mut T {
        let i = match self
            .0
            .iter()
            .position(|e| e.value.as_ref().as_any().is::<T>())
        {
            Some(i) => i,
            None => {
                self.0.push(Entry {
                    value: Box::new(T::default()),
                    is_default: |v| {
                        v.as_any()
                            .downcast_ref::<T>()
                            .is_some_and(|t| t.eq_dyn(&T::default()))
                    },
                });
                self.0.len() - 1
            }
        };
        match self.0[i].value.as_mut().as_any_mut().downcast_mut::<T>() {
            Some(t) => t,
            None => unreachable!("the state at {i} is a {}", std::any::type_name::<T>()),
        }
    }
}

impl Clone for PartStates {
    fn clone(&self) -> PartStates {
        PartStates(
            self.0
                .iter()
                .map(|e| Entry {
                    value: e.value.as_ref().clone_box(),
                    is_default: e.is_default,
                })
                .collect(),
        )
    }
}

/// Equal when every state equals the other's of its type, an absent state counting as its
/// default.
impl PartialEq for PartStates {
    fn eq(&self, other: &PartStates) -> bool {
        let covered = |a: &PartStates, b: &PartStates| {
            a.0.iter().all(|e| {
                let x = e.value.as_ref();
                let same = |y: &&Entry| y.value.as_ref().as_any().type_id() == x.as_any().type_id();
                match b.0.iter().find(same) {
                    Some(y) => x.eq_dyn(y.value.as_ref()),
                    None => (e.is_default)(x),
                }
            })
        };
        covered(self, other) && covered(other, self)
    }
}

impl Eq for PartStates {}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, Default, PartialEq, Eq)]
    struct A {
        n: u32,
    }
    #[derive(Clone, Debug, Default, PartialEq, Eq)]
    struct B(bool);

    #[test]
    fn states_are_kept_by_type() {
        let mut s = Setup::default();
        assert_eq!(s.part::<A>().n, 0);
        s.part_mut::<A>().n = 3;
        s.part_mut::<B>().0 = true;
        s.part_mut::<A>().n += 1;
        assert_eq!(s.part::<A>().n, 4);
        assert!(s.part::<B>().0);
        let t = s.clone();
        assert_eq!(s, t);
        let u = Setup::default().with(B(true)).with(A { n: 4 });
        assert_eq!(s, u);
        // an absent state is its default
        assert_eq!(Setup::default(), Setup::default().with(A::default()));
        assert_ne!(Setup::default(), Setup::default().with(B(true)));
    }
}
