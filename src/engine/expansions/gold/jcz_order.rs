//! JCloisterZone's automatic pick between equally contested gold tiles: the iteration order
//! of its claim map, a `java.util.HashMap` keyed by tile position. Replaying a .jcz game
//! needs the same pick, so the order is reproduced here.

/// The bucket of tile (x, y) in a `java.util.HashMap` of `capacity` keyed by JCloisterZone's
/// `Position` (hash `(x << 16) ^ y`, spread `h ^ (h >>> 16)`): the map's iteration order,
/// which decides JCloisterZone's automatic pick between equally contested tiles.
pub(crate) fn jcz_bucket(x: i32, y: i32, capacity: u32) -> u32 {
    let h = (x.wrapping_shl(16) ^ y) as u32;
    (h ^ (h >> 16)) & (capacity - 1)
}

/// JCloisterZone's automatic pick among `(x, y, claimants)` candidates (in claim order): the
/// tile claimed by the most players; among equals, the first in its claim map's iteration
/// order (bucket, then claim order).
pub(crate) fn most_contested(
    cands: impl IntoIterator<Item = (i32, i32, u32)>,
    capacity: u32,
) -> usize {
    let mut best = 0;
    let mut best_key = (0u32, u32::MAX);
    for (i, (x, y, claimants)) in cands.into_iter().enumerate() {
        let key = (claimants, u32::MAX - jcz_bucket(x, y, capacity));
        if key > best_key {
            best = i;
            best_key = key;
        }
    }
    best
}

/// The capacity a `java.util.HashMap` grows to holding `n` keys (16, doubled while more than
/// three quarters full).
pub(super) fn java_map_capacity(n: usize) -> u32 {
    let mut cap = 16u32;
    while n as u32 > cap / 4 * 3 {
        cap *= 2;
    }
    cap
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_hash_map_order_of_positions() {
        // h = (x << 16) ^ y as a Java int, spread h ^ (h >>> 16), masked by capacity − 1
        assert_eq!(jcz_bucket(0, 0, 16), 0);
        assert_eq!(jcz_bucket(1, 0, 16), 1); // 0x10000 → spread 0x10001
        assert_eq!(jcz_bucket(0, 1, 16), 1);
        assert_eq!(jcz_bucket(1, -1, 16), 1); // 0xFFFEFFFF → 0xFFFE0001
        assert_eq!(jcz_bucket(0, -1, 16), 0); // 0xFFFFFFFF → 0xFFFF0000
        assert_eq!(jcz_bucket(-1, 0, 16), 15); // 0xFFFF0000 → 0xFFFFFFFF
    }

    #[test]
    fn the_automatic_pick_takes_the_most_contested_tile_then_hash_map_order() {
        // more claimants win whatever the order
        assert_eq!(most_contested([(0, 0, 1), (5, 5, 2)], 16), 1);
        // equal claimants: the lower bucket first ((-1,0) is bucket 15, (1,0) bucket 1)
        assert_eq!(most_contested([(-1, 0, 2), (1, 0, 2)], 16), 1);
        // equal claimants and bucket ((1,0) and (0,1) are both bucket 1): claim order
        assert_eq!(most_contested([(1, 0, 2), (0, 1, 2)], 16), 0);
        assert_eq!(most_contested([(0, 1, 2), (1, 0, 2)], 16), 0);
    }

    #[test]
    fn java_hash_map_grows_past_three_quarters() {
        assert_eq!(java_map_capacity(0), 16);
        assert_eq!(java_map_capacity(12), 16);
        assert_eq!(java_map_capacity(13), 32);
        assert_eq!(java_map_capacity(25), 64);
    }
}
