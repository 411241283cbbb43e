//! Game seeds and seed blocks.
//!
//! Game `i` (0-based) of a compare run with master seed `S` plays seed
//! `game_seed(S, i)`: the `(i + 1)`-th output of a SplitMix64 generator started at state `S`
//! (state advanced by the golden-ratio increment `0x9E37_79B9_7F4A_7C15`, then the SplitMix64
//! finaliser). This is stable across versions, platforms and thread counts: it is part of the
//! reproducibility key.
//!
//! Games are grouped into blocks of [`BLOCK_SIZE`] consecutive indices; `--shard k/n` plays
//! the blocks `b` with `b % n == k - 1`, so shards are balanced and each shard's games are a
//! deterministic, disjoint subset ([`Shard`]).

use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::Range;
use std::str::FromStr;

/// Games per seed block (the unit of sharding and of parallel batches).
pub const BLOCK_SIZE: u64 = 1000;

const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The SplitMix64 output function (Steele, Lea, Flood 2014).
pub fn splitmix64_mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of game `index` in a run with master seed `master`.
pub fn game_seed(master: u64, index: u64) -> u64 {
    splitmix64_mix(master.wrapping_add(index.wrapping_add(1).wrapping_mul(GAMMA)))
}

/// Number of seed blocks in a run of `games` games.
pub fn block_count(games: u64) -> u64 {
    games.div_ceil(BLOCK_SIZE)
}

/// The game indices of block `b` in a run of `games` games.
pub fn block_range(b: u64, games: u64) -> Range<u64> {
    let start = b.saturating_mul(BLOCK_SIZE).min(games);
    start..start.saturating_add(BLOCK_SIZE).min(games)
}

/// The most shards a run can be split into (each shard is at least one seed block; a
/// cluster of 100,000 tasks is beyond any real use, and the bound keeps merge bookkeeping
/// small).
pub const MAX_SHARDS: u32 = 100_000;

/// Shard `k` of `n`, `1 ≤ k ≤ n ≤` [`MAX_SHARDS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Shard {
    pub k: u32,
    pub n: u32,
}

impl Shard {
    pub fn new(k: u32, n: u32) -> Result<Shard, String> {
        if n == 0 || k == 0 || k > n {
            return Err(format!(
                "invalid shard {k}/{n}: expected k/n with 1 ≤ k ≤ n"
            ));
        }
        if n > MAX_SHARDS {
            return Err(format!(
                "invalid shard {k}/{n}: at most {MAX_SHARDS} shards (n ≤ {MAX_SHARDS})"
            ));
        }
        Ok(Shard { k, n })
    }

    /// Whether this shard plays seed block `b`.
    pub fn owns_block(&self, b: u64) -> bool {
        b % self.n as u64 == (self.k - 1) as u64
    }

    /// Number of games this shard plays in a run of `games` games: the total length of
    /// [`Shard::block_ranges`], in constant time (a shard file may claim any `games`).
    pub fn games(self, games: u64) -> u64 {
        let (k, n) = (self.k.max(1) as u64, self.n.max(1) as u64);
        let blocks = block_count(games);
        if k > blocks {
            return 0;
        }
        // Blocks k − 1, k − 1 + n, … below `blocks`; only the run's last block can be short.
        let owned = (blocks - k) / n + 1;
        let last = k - 1 + (owned - 1) * n;
        let short = if last == blocks - 1 {
            (BLOCK_SIZE - games % BLOCK_SIZE) % BLOCK_SIZE
        } else {
            0
        };
        // In u128: `owned · BLOCK_SIZE` may pass u64::MAX when `games` is close to it.
        (owned as u128 * BLOCK_SIZE as u128 - short as u128) as u64
    }

    /// The game-index ranges this shard plays in a run of `games` games, in order.
    pub fn block_ranges(self, games: u64) -> impl Iterator<Item = Range<u64>> {
        let step = self.n.max(1) as usize;
        (self.k.max(1) as u64 - 1..block_count(games))
            .step_by(step)
            .map(move |b| block_range(b, games))
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("invalid shard {s:?}: expected k/n, e.g. 2/8"))?;
        let num = |x: &str| {
            x.trim()
                .parse::<u32>()
                .map_err(|_| format!("invalid shard {s:?}: expected k/n, e.g. 2/8"))
        };
        Shard::new(num(k)?, num(n)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_stable() {
        // SplitMix64 reference: state 0 → first output 0xE220A8397B1DCDAF.
        assert_eq!(game_seed(0, 0), 0xE220_A839_7B1D_CDAF);
        assert_ne!(game_seed(0, 1), game_seed(0, 0));
        assert_ne!(game_seed(1, 0), game_seed(0, 0));
    }

    #[test]
    fn blocks_cover_the_range() {
        assert_eq!(block_count(0), 0);
        assert_eq!(block_count(1000), 1);
        assert_eq!(block_count(1001), 2);
        assert_eq!(block_range(1, 1500), 1000..1500);
        assert_eq!(block_range(0, 10), 0..10);
    }
}
