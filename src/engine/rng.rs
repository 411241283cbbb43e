//! Deterministic keyed randomness: every random draw in a game is a pure function of the game
//! seed and a key (tile id and copy for the deck; turn, player and decision kind for choices),
//! so two rulesets playing the same seed draw shared tiles and make equal choices alike.

/// One round of the splitmix64 finaliser: a fast, well-mixed 64-bit permutation.
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Combine a running key with one more word.
#[inline]
pub fn key(acc: u64, word: u64) -> u64 {
    mix64(acc ^ word.wrapping_mul(0xD6E8_FEB8_6659_FD93))
}

/// Stable 64-bit FNV-1a hash of a string (tile ids; the `fnv` crate, as the rulesets'
/// content hash).
pub fn hash_str(s: &str) -> u64 {
    use std::hash::Hasher;
    let mut h = fnv::FnvHasher::default();
    h.write(s.as_bytes());
    h.finish()
}

/// A uniform index in `0..n` from a 64-bit key (n > 0); multiply-shift, no modulo bias worth
/// speaking of at these sizes.
#[inline]
pub fn index(k: u64, n: usize) -> usize {
    ((k as u128 * n as u128) >> 64) as usize
}

/// Domain tags so different uses of the same seed never share a stream.
pub mod domain {
    pub const DECK: u64 = 0x4445_434B;
    pub const DECISION: u64 = 0x4445_4349;
    pub const RESHUFFLE: u64 = 0x5245_5348;
    pub const GAME_SEED: u64 = 0x5345_4544;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_is_in_range_and_spread() {
        let mut counts = [0u32; 5];
        for i in 0..5000u64 {
            counts[index(key(7, i), 5)] += 1;
        }
        assert!(
            counts.iter().all(|&c| (900..1100).contains(&c)),
            "{counts:?}"
        );
    }

    #[test]
    fn string_hash_is_stable() {
        assert_eq!(hash_str(""), 0xcbf2_9ce4_8422_2325);
        assert_ne!(hash_str("BA/RCr"), hash_str("BA/RCr+"));
    }
}
