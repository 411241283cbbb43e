//! What one finished game reports: per-seat scores by category, ingots, winners, length and
//! the per-turn running hashes of its event stream (for divergence detection without
//! storing events). This is the contract between the engine and `compare`/`report`.

use serde::{Deserialize, Serialize};

/// Scoring categories, in report order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Category {
    Road,
    City,
    Cloister,
    Field,
    Gold,
    Robbers,
}

impl Category {
    pub const ALL: [Category; 6] = [
        Category::Road,
        Category::City,
        Category::Cloister,
        Category::Field,
        Category::Gold,
        Category::Robbers,
    ];
    pub const COUNT: usize = 6;

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Category::Road => "road",
            Category::City => "city",
            Category::Cloister => "cloister",
            Category::Field => "field",
            Category::Gold => "gold",
            Category::Robbers => "robbers",
        }
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
    /// Ingots held at the end.
    pub ingots: u32,
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
    /// How often the sole leader changed during play (by running score after each turn).
    pub lead_changes: u32,
    /// Ingots still on tiles when the game ended (removed before final scoring).
    pub ingots_on_board: u32,
    pub robber_placements: u32,
    pub robberies: u32,
    pub crop_circle_actions: u32,
    /// Running hash of the event stream after each turn; index 0 is the set-up (start tile),
    /// index `t` the end of turn `t`, the last entry the end of final scoring. Two games whose
    /// hashes agree up to `t` played identically up to `t`.
    pub turn_hashes: Vec<u64>,
}

impl GameOutcome {
    /// The first turn at which `self` and `other` differ, or `None` when identical.
    pub fn first_divergence(&self, other: &GameOutcome) -> Option<u32> {
        let n = self.turn_hashes.len().min(other.turn_hashes.len());
        for t in 0..n {
            if self.turn_hashes[t] != other.turn_hashes[t] {
                return Some(t as u32);
            }
        }
        if self.turn_hashes.len() != other.turn_hashes.len() {
            Some(n as u32)
        } else {
            None
        }
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
    }
}
