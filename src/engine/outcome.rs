//! What one finished game reports: per-seat scores by category and the expansions' per-seat
//! counts, winners, length, and
//! for divergence detection without storing events: the per-turn running hashes of its event
//! stream, its order-independent end-of-turn state hashes, the leading seats per turn and a
//! mark per real choice (see [`crate::engine::state_hash`]). This is the contract between the
//! engine and `compare`/`report`.

use serde::{Deserialize, Serialize};

/// A scoring category: the core's four ([`Category::ROAD`] … [`Category::FIELD`]), then
/// each registered expansion's, as its module declares them (`Expansion::CATEGORIES`; the
/// table, [`Category::COUNT`], [`Category::ALL`] and the names are built in
/// `expansions/mod.rs`). Report order is index order; written by name in JSON.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Category(pub(crate) u8);

/// The core's categories, in [`Category`] order.
pub const CORE_CATEGORIES: [&str; 4] = ["road", "city", "cloister", "field"];

impl Category {
    pub const ROAD: Category = Category(0);
    pub const CITY: Category = Category(1);
    pub const CLOISTER: Category = Category(2);
    pub const FIELD: Category = Category(3);

    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl std::fmt::Debug for Category {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Category {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Category {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Category::from_name(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown scoring category `{name}`")))
    }
}

/// A counter an expansion keeps per game (robber placements, tokens built…), declared by
/// its module (`Expansion::COUNTERS`): compare adds them up and reports them by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Counter(pub(crate) u8);

/// What a module declares about one counter.
#[derive(Clone, Copy, Debug)]
pub struct CounterSpec {
    /// Its name in reports, `games.csv` and JSON (`snake_case`, unique).
    pub name: &'static str,
    /// What it counts, per game (a report's words).
    pub doc: &'static str,
}

impl Counter {
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The counters of one game, by [`Counter::index`]; written as a map name → count.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counters(pub Vec<u32>);

impl Counters {
    /// The value of counter `c` (0 when not kept).
    #[inline]
    pub fn get(&self, c: Counter) -> u32 {
        self.0.get(c.index()).copied().unwrap_or(0)
    }

    /// Add `n` to counter `c`.
    pub fn add(&mut self, c: Counter, n: u32) {
        if self.0.len() <= c.index() {
            self.0.resize(Counter::COUNT, 0);
        }
        self.0[c.index()] += n;
    }
}

impl Serialize for Counters {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(Counter::COUNT))?;
        for c in Counter::all() {
            m.serialize_entry(c.name(), &self.get(c))?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for Counters {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let named = std::collections::BTreeMap::<String, u32>::deserialize(d)?;
        let mut out = Counters(vec![0; Counter::COUNT]);
        for (name, n) in named {
            let c = Counter::from_name(&name)
                .ok_or_else(|| serde::de::Error::custom(format!("unknown counter `{name}`")))?;
            out.0[c.index()] = n;
        }
        Ok(out)
    }
}

/// A count an expansion keeps per seat and reports at the end of a game (what a seat holds
/// then), declared by its module (`Expansion::SEAT_COUNTERS`): written into each
/// [`SeatResult`] under its name; compare, the ladder and the reports average it per seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SeatCounter(pub(crate) u8);

/// What a module declares about one per-seat counter.
#[derive(Clone, Copy, Debug)]
pub struct SeatCounterSpec {
    /// Its name (`snake_case`, plural, unique): its key in a seat's JSON, its `games.csv`
    /// column `seat{s}_{name}`, its column in the turn log's and the board's score tables.
    pub name: &'static str,
    /// One of what it counts (`ingot`): the paired difference's key `{one}_delta`.
    pub one: &'static str,
    /// What it counts, per seat (a report's words).
    pub doc: &'static str,
    /// The scoring category the count is worth points in at the end, if any (the report
    /// writes that category's mean per seat beside the count's: `mean_{category}`).
    pub worth: Option<&'static str>,
    /// The title of its chart in a compare report (its mean per seat and ruleset).
    pub chart: &'static str,
    /// Whether a ruleset plays the expansion that counts it (reports show its columns and
    /// chart then); written in a report's ruleset description as `has_{worth}`.
    pub used_by: fn(&crate::ruleset::Ruleset) -> bool,
    /// What a seat holds, in the ladder's words (`ingots held`): the head of its per-policy
    /// column, `{held} [95 % t]`, and of the line for all seats, `{held} by all players per
    /// game`.
    pub held: &'static str,
    /// What of it no seat holds when the game ends, if the ladder reports that beside it.
    pub rest: Option<RestSpec>,
}

/// The part of what a per-seat counter counts that no seat holds at the end (ingots left on
/// the tiles), kept by a per-game counter, as the ladder reports it: one line per game.
#[derive(Clone, Copy, Debug)]
pub struct RestSpec {
    /// The per-game counter that keeps it ([`CounterSpec::name`]).
    pub counter: &'static str,
    /// The key of its mean per game in `ladder.json`: `{key}_per_game`.
    pub key: &'static str,
    /// Its line's words in the ladder's report (lowercase; capitalised in Markdown).
    pub words: &'static str,
}

impl SeatCounter {
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
/// The per-seat counts of one seat, by [`SeatCounter::index`]; written as entries name →
/// count of the seat's record (a count missing from a record is 0, an unknown name is an
/// error).
pub struct SeatCounts(pub [u32; SeatCounter::COUNT]);

impl SeatCounts {
    /// The value of counter `c`.
    #[inline]
    pub fn get(&self, c: SeatCounter) -> u32 {
        self.0[c.index()]
    }

    /// Set counter `c` to `n`.
    pub fn set(&mut self, c: SeatCounter, n: u32) {
        self.0[c.index()] = n;
    }
}

impl Serialize for SeatCounts {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(SeatCounter::COUNT))?;
        for c in SeatCounter::all() {
            m.serialize_entry(c.name(), &self.get(c))?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for SeatCounts {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let named = std::collections::BTreeMap::<String, u32>::deserialize(d)?;
        let mut out = SeatCounts::default();
        for (name, n) in named {
            let c = SeatCounter::from_name(&name).ok_or_else(|| {
                serde::de::Error::custom(format!("unknown per-seat counter `{name}`"))
            })?;
            out.0[c.index()] = n;
        }
        Ok(out)
    }
}

/// Points per category, indexed by [`Category::index`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ByCategory(pub [i64; Category::COUNT]);

impl ByCategory {
    pub fn get(&self, c: Category) -> i64 {
        self.0[c.index()]
    }
    pub fn add(&mut self, c: Category, points: i64) {
        self.0[c.index()] = self.0[c.index()].saturating_add(points);
    }
    pub fn total(&self) -> i64 {
        self.0.iter().fold(0i64, |a, &b| a.saturating_add(b))
    }
}

/// One seat's result. Seat 0 plays first.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatResult {
    pub total: i64,
    pub by_category: ByCategory,
    /// The expansions' per-seat counts at the end (see [`SeatCounterSpec`]), written as the
    /// seat's entries name → count, here between its points and its followers.
    #[serde(flatten)]
    pub counts: SeatCounts,
    /// Followers placed during the game (tile placement and crop circles).
    pub followers_placed: u32,
}

/// Summary of one complete game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameOutcome {
    pub seed: u64,
    pub seats: Vec<SeatResult>,
    /// Seats with the highest total (several on a tie).
    pub winners: Vec<u8>,
    /// Tiles on the board at the end, the start tile included.
    pub tiles_placed: u32,
    pub tiles_discarded: u32,
    /// Turns played (one per tile drawn and placed).
    pub turns: u32,
    /// How often the sole leader changed during play (by running score after each turn);
    /// final scoring is not counted (reports label it "lead changes in play").
    pub lead_changes: u32,
    /// The expansions' counters (see [`CounterSpec`]).
    #[serde(default)]
    pub counters: Counters,
    /// Running hash of the event stream after each turn; index 0 is the set-up (start tile),
    /// index `t` the end of turn `t`, the last entry the end of final scoring. Two games whose
    /// hashes agree up to `t` played identically up to `t`.
    pub turn_hashes: Vec<u64>,
    /// Order-independent hash of the position (board, followers, scores, supply, and what the
    /// expansions hold on the board and per seat) at the same points as `turn_hashes`: two
    /// games that reach the same position by events in another order agree here.
    #[serde(default)]
    pub state_hashes: Vec<u64>,
    /// Leading seats (bit `p` for seat `p`, all tied seats) at the same points.
    #[serde(default)]
    pub leaders: Vec<u8>,
    /// One mark per real choice (a decision with two options or more): whether two games'
    /// first differing event was a player's choice ([`GameOutcome::first_event_difference`]).
    #[serde(default)]
    pub choice_marks: Vec<u64>,
}

impl GameOutcome {
    /// The first turn at which `self` and `other` differ, or `None` when identical.
    /// The first turn at which `self` and `other` played differently (their event streams
    /// differ), or `None` when they played identically.
    pub fn first_divergence(&self, other: &GameOutcome) -> Option<u32> {
        first_difference(&self.turn_hashes, &other.turn_hashes)
    }

    /// The first turn at whose end the position of `self` and `other` differs, or `None` when
    /// every end-of-turn position agrees.
    pub fn first_state_divergence(&self, other: &GameOutcome) -> Option<u32> {
        first_difference(&self.state_hashes, &other.state_hashes)
    }

    /// The leading seats (bit per seat) at the end of turn `t` (0 = set-up), if recorded.
    pub fn leaders_at(&self, t: u32) -> Option<u8> {
        self.leaders.get(t as usize).copied()
    }
}

/// The first index at which two sequences differ (a shorter one differs where it ends).
fn first_difference(a: &[u64], b: &[u64]) -> Option<u32> {
    match a.iter().zip(b).position(|(x, y)| x != y) {
        Some(t) => Some(t as u32),
        None if a.len() != b.len() => Some(a.len().min(b.len()) as u32),
        None => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divergence_is_the_first_differing_turn() {
        let a = GameOutcome {
            turn_hashes: vec![1, 2, 3, 4],
            ..Default::default()
        };
        let mut b = a.clone();
        assert_eq!(a.first_divergence(&b), None);
        b.turn_hashes[2] = 9;
        assert_eq!(a.first_divergence(&b), Some(2));
        b.turn_hashes = vec![1, 2, 3];
        assert_eq!(a.first_divergence(&b), Some(3));
        // state divergence reads the state hashes only
        assert_eq!(a.first_state_divergence(&b), None);
        b.state_hashes = vec![5];
        assert_eq!(a.first_state_divergence(&b), Some(0));
    }
}
