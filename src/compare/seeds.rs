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
//! deterministic, disjoint subset.

use std::ops::Range;

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
