//! The union-find under the feature graph: which component each placed segment belongs to.
//!
//! It behaves exactly as `petgraph::unionfind::UnionFind` (path halving in `find_mut`, union
//! by rank, the first argument's root winning a tie), so every root — and with it every
//! feature's segment chain — is the one the engine had with petgraph's. Two things petgraph's
//! type cannot do, measured on the engine's hottest path: [`UnionFind::link`] joins two roots
//! already found and returns the new root (petgraph's `union` finds both again and says only
//! whether it joined, so a join cost three finds more: about 2 % of a random base game), and
//! [`UnionFind::clear`] and `clone_from` reuse the vectors (petgraph allocates two new ones per
//! game and per search copy).

/// Disjoint sets over node ids `0..len`.
#[derive(Debug, Default)]
pub(crate) struct UnionFind {
    parent: Vec<u32>,
    rank: Vec<u8>,
}

impl Clone for UnionFind {
    fn clone(&self) -> UnionFind {
        UnionFind {
            parent: self.parent.clone(),
            rank: self.rank.clone(),
        }
    }

    fn clone_from(&mut self, source: &UnionFind) {
        self.parent.clone_from(&source.parent);
        self.rank.clone_from(&source.rank);
    }
}

impl UnionFind {
    /// No sets yet, room for `n` without reallocating.
    pub(crate) fn with_capacity(n: usize) -> UnionFind {
        UnionFind {
            parent: Vec::with_capacity(n),
            rank: Vec::with_capacity(n),
        }
    }

    /// `n` singleton sets.
    #[cfg(test)]
    pub(crate) fn new(n: usize) -> UnionFind {
        let mut uf = UnionFind::with_capacity(n);
        uf.grow_to(n);
        uf
    }

    /// No sets, keeping the allocation.
    pub(crate) fn clear(&mut self) {
        self.parent.clear();
        self.rank.clear();
    }

    pub(crate) fn len(&self) -> usize {
        self.parent.len()
    }

    /// Adds singleton sets up to `n` ids (nothing when it has as many): one call per placed
    /// tile for all its segments.
    #[inline]
    pub(crate) fn grow_to(&mut self, n: usize) {
        let len = self.parent.len();
        if n > len {
            self.parent.extend(len as u32..n as u32);
            self.rank.resize(n, 0);
        }
    }

    /// The root of `x`'s set, changing nothing. A root and a child of a root take the same
    /// branch (as in [`UnionFind::find_mut`]); deeper nodes go on out of line.
    #[inline]
    pub(crate) fn find(&self, x: u32) -> u32 {
        let parent = self.parent[x as usize];
        let grandparent = self.parent[parent as usize];
        if parent == grandparent {
            return parent;
        }
        self.find_deep(grandparent)
    }

    /// Whether `a` and `b` are in one set, changing nothing, when each is a root or a child
    /// of a root (most nodes): found without a call, so that a caller which mostly returns
    /// keeps no registers for one. `None` when a node is deeper (ask [`UnionFind::find`]).
    #[inline(always)]
    pub(crate) fn same_shallow(&self, a: u32, b: u32) -> Option<bool> {
        let (pa, pb) = (self.parent[a as usize], self.parent[b as usize]);
        let (ga, gb) = (self.parent[pa as usize], self.parent[pb as usize]);
        (pa == ga && pb == gb).then_some(pa == pb)
    }

    /// [`UnionFind::find`] from a node two steps below `x`'s start.
    #[inline(never)]
    fn find_deep(&self, mut x: u32) -> u32 {
        loop {
            let parent = self.parent[x as usize];
            if parent == x {
                return x;
            }
            x = parent;
        }
    }

    /// The root of `x`'s set, compressing the path on the way. A root and a child of a root
    /// (most nodes) take the same branch — whether a node is its own parent is a coin the
    /// branch predictor keeps losing — and longer paths go out of line. Which node is a root
    /// depends only on the unions (by rank), never on how paths are compressed.
    #[inline]
    pub(crate) fn find_mut(&mut self, x: u32) -> u32 {
        let parent = self.parent[x as usize];
        let grandparent = self.parent[parent as usize];
        if parent == grandparent {
            return parent;
        }
        self.find_mut_deep(x)
    }

    /// [`UnionFind::find_mut`] for a node two or more steps below its root: each node visited
    /// skips to its grandparent (path halving, as petgraph).
    #[inline(never)]
    fn find_mut_deep(&mut self, mut x: u32) -> u32 {
        let mut parent = self.parent[x as usize];
        while parent != x {
            let grandparent = self.parent[parent as usize];
            self.parent[x as usize] = grandparent;
            x = parent;
            parent = grandparent;
        }
        x
    }

    /// Makes `x` a singleton again. Only sound when every member of `x`'s set is made one
    /// too (no node outside the set points into it): a component rebuilt from the board.
    #[inline]
    pub(crate) fn reset(&mut self, x: u32) {
        self.parent[x as usize] = x;
        self.rank[x as usize] = 0;
    }

    /// Joins the sets of the distinct roots `a` and `b` by rank (`a` wins a tie); returns the
    /// root of the joined set.
    #[inline]
    pub(crate) fn link(&mut self, a: u32, b: u32) -> u32 {
        debug_assert!(a != b && self.parent[a as usize] == a && self.parent[b as usize] == b);
        let (ra, rb) = (self.rank[a as usize], self.rank[b as usize]);
        // selects, not branches: which rank is higher is a coin toss
        let a_wins = ra >= rb;
        let (root, child) = if a_wins { (a, b) } else { (b, a) };
        self.parent[child as usize] = root;
        // a tie makes `a` the root one rank higher (when `b` wins the ranks differ)
        self.rank[a as usize] += u8::from(ra == rb);
        root
    }
}

#[cfg(test)]
mod tests {
    use super::UnionFind;
    use proptest::prelude::*;

    proptest! {
        /// Same roots as petgraph's union-find after any sequence of joins and finds (the
        /// engine's segment chains depend on which node is the root), and the same answer
        /// to whether two nodes are in one set.
        #[test]
        fn roots_as_petgraph(n in 1usize..40, ops in prop::collection::vec((0u32..40, 0u32..40, any::<bool>()), 0..120)) {
            let mut ours = UnionFind::new(n);
            let mut theirs = petgraph::unionfind::UnionFind::<u32>::new(n);
            for (a, b, find_only) in ops {
                let (a, b) = (a % n as u32, b % n as u32);
                if find_only {
                    prop_assert_eq!(ours.find_mut(a), theirs.find_mut(a));
                    continue;
                }
                let (ra, rb) = (ours.find_mut(a), ours.find_mut(b));
                prop_assert_eq!((ra, rb), (theirs.find_mut(a), theirs.find_mut(b)));
                if ra != rb {
                    let root = ours.link(ra, rb);
                    theirs.union(ra, rb);
                    prop_assert_eq!(root, theirs.find_mut(ra));
                }
                for x in 0..n as u32 {
                    prop_assert_eq!(ours.find(x), theirs.find(x));
                    let deep = |y: u32| {
                        let p = ours.parent[y as usize];
                        ours.parent[p as usize] != p
                    };
                    match ours.same_shallow(x, a) {
                        Some(same) => prop_assert_eq!(same, theirs.equiv(x, a)),
                        None => prop_assert!(deep(x) || deep(a)),
                    }
                }
            }
        }
    }

    #[test]
    fn reset_and_clone_from_reuse() {
        let mut uf = UnionFind::new(4);
        let r = uf.link(0, 1);
        assert_eq!((r, uf.find(1)), (0, 0));
        let mut copy = UnionFind::new(1);
        copy.clone_from(&uf);
        assert_eq!((copy.len(), copy.find(1)), (4, 0));
        uf.clear();
        uf.grow_to(3);
        assert_eq!((uf.len(), uf.find(1)), (3, 1));
        uf.grow_to(2);
        assert_eq!(uf.len(), 3);
    }
}
