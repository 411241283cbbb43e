//! The board: placing tiles on the grid (`grid.rs`: cells, the window, the frontier) where,
//! for every empty cell next to the board, the edge kinds its neighbours require are kept (2
//! bits per side) — so a placement check is one masked compare — the legal placements, and
//! the feature graph that joins segments across tile borders: a union-find (`union_find.rs`)
//! over the placed segments, with per-component facts at each root.

use crate::engine::compiled::NONE;
use crate::engine::game::{Game, PlacedTile, SegNode, MAX_PLAYERS, NIL};
use crate::engine::hooks::Expansions;
use crate::ruleset::TileIdx;
use crate::tiles::{EdgeKind, FeatureKind, HalfEdge, Side};

use crate::engine::grid::ROW;
pub(crate) use crate::engine::grid::{Frontier, Window, CELL_OFF};

/// Offsets of the eight tiles around a tile, clockwise from north: N, NE, E, SE, S, SW, W, NW.
pub const AROUND: [(i32, i32); 8] = [
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

/// Members of each set of rotations (a table: no software popcount in the scan). A fit table
/// holds 4-bit sets; the tables have 256 entries so that a `u8` indexes them without a bounds
/// check or a mask, and an entry above 15 reads as its low four bits.
const COUNT_OF: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i as u32 & 15).count_ones() as u8;
        i += 1;
    }
    t
};
// `legal_placements` relies on it: an entry never adds more than the four slots it writes
const _: () = {
    let mut i = 0;
    while i < 256 {
        assert!(COUNT_OF[i] <= 4);
        i += 1;
    }
};

/// For each set of rotations (its low four bits), its members in ascending order (padding
/// repeats the last).
const ROTATIONS_OF: [[u32; 4]; 256] = {
    let mut t = [[0u32; 4]; 256];
    let mut i = 0;
    while i < 256 {
        let bits = i & 15;
        let mut k = 0;
        let mut q = 0;
        while q < 4 {
            if bits & (1 << q) != 0 {
                t[i][k] = q as u32;
                k += 1;
            }
            q += 1;
        }
        while k < 4 {
            t[i][k] = if k > 0 { t[i][k - 1] } else { 0 };
            k += 1;
        }
        i += 1;
    }
    t
};

/// A placement option is `cell << 2 | rotation` (26 bits) with an expansion's tag above.
const TAG_SHIFT: u32 = 26;
const TAG_MASK: u32 = !0 << TAG_SHIFT;

/// Union-find sets made at a time (see `place_tile`).
const UF_BATCH: usize = 64;

impl<X: Expansions> Game<X> {
    #[inline]
    pub(crate) fn cell_index(&self, x: i32, y: i32) -> u32 {
        ((y + CELL_OFF) * ROW + (x + CELL_OFF)) as u32
    }

    #[inline]
    pub(crate) fn cell_xy(&self, cell: u32) -> (i32, i32) {
        let c = cell as i32;
        ((c & 0xFFF) - CELL_OFF, (c >> 12) - CELL_OFF)
    }

    /// Whether (x, y) lies inside the grid with room for its neighbours.
    pub fn in_bounds(&self, x: i32, y: i32) -> bool {
        x.unsigned_abs() < self.limit as u32 && y.unsigned_abs() < self.limit as u32
    }

    /// Index (into `placed_tiles`) of the tile at (x, y).
    pub fn tile_at(&self, x: i32, y: i32) -> Option<usize> {
        if !self.in_bounds(x, y) {
            return None;
        }
        let v = self.board.get(self.cell_index(x, y)).tile;
        (v != 0).then(|| v as usize - 1)
    }

    /// The step from a cell to its neighbour across `side` (N = 0, clockwise).
    #[inline]
    pub(crate) fn side_step(side: usize) -> i32 {
        [-ROW, 1, ROW, -1][side]
    }

    /// The sides of its tile (board orientation, a bit per side, N = bit 0) that the segment
    /// of node `node` reaches.
    #[inline]
    pub(crate) fn node_sides(&self, node: u32) -> u8 {
        let sn = self.nodes[node as usize];
        let t = self.placed[sn.tile as usize];
        self.rules.tiles[t.tile as usize].rotations[t.rot as usize].seg_sides[sn.seg as usize]
    }

    /// Clear everything the last game touched.
    pub(crate) fn clear_board(&mut self) {
        self.board.reset();
        self.placed.clear();
        self.frontier.clear();
        self.open_cloisters.clear();
        self.uf.clear();
        self.comps.clear();
        self.nodes.clear();
        self.stamp.clear();
        self.stamp_gen = 0;
    }

    /// Fill `opt_place` with every legal (cell, rotation) for `tile`: cells in frontier
    /// order, rotations ascending, symmetric rotations once.
    // inlined into the draw, the hot path (it has other callers: a hand's tile, a given tile)
    #[inline(always)]
    pub(crate) fn legal_placements(&mut self, tile: TileIdx) {
        // Branch-free: every frontier cell writes four slots and advances by the number of
        // rotations that fit (random fits would otherwise mispredict a branch per cell).
        let cells = self.frontier.len();
        let need = 4 * cells + 4;
        if self.opt_place.len() < need {
            self.opt_place.resize(need, 0);
        }
        let fits = self.rules.fits(tile);
        let buf = &mut self.opt_place[..need];
        let (bases, codes) = (&self.frontier.bases[..cells], &self.frontier.codes[..cells]);
        let mut n = 0usize;
        for (&base, &code) in bases.iter().zip(codes) {
            // a u8 indexes the 256-entry tables: no bounds checks, no masking
            let bits = fits[code as usize] as usize;
            let r = ROTATIONS_OF[bits];
            debug_assert!(n + 4 <= buf.len());
            // SAFETY: after k entries n ≤ 4k (each adds at most 4, checked at compile time
            // for every entry of COUNT_OF), so n + 4 ≤ 4 · cells + 4 = buf.len(). Unchecked
            // because this scan is the engine's hottest loop: the checked store cost 4 % of a
            // random base game's instructions (callgrind).
            let slot = unsafe { buf.get_unchecked_mut(n..n + 4) };
            slot.copy_from_slice(&[base | r[0], base | r[1], base | r[2], base | r[3]]);
            n += COUNT_OF[bits] as usize;
        }
        self.n_place = n;
        if self.ext.adjusts_placement() {
            X::adjust_placements(self, tile);
        }
    }

    /// Keep only the placement options on the cells `at` (at most 8) for which `keep(game,
    /// x, y, rotation)` holds, in their order (a filter that allows a few cells only: a river
    /// tile continues the river); the others are dropped without a look at their cell's
    /// coordinates.
    pub(crate) fn keep_placements_at(
        &mut self,
        at: &[(i32, i32)],
        mut keep: impl FnMut(&Self, i32, i32, u8) -> bool,
    ) {
        let mut cells = [NIL; 8];
        let mut n = 0;
        for &(x, y) in at {
            if n < cells.len() && self.in_bounds(x, y) {
                cells[n] = self.cell_index(x, y);
                n += 1;
            }
        }
        let mut w = 0usize;
        for i in 0..self.n_place {
            let v = self.opt_place[i];
            let (cell, rot) = self.placement_option(i);
            if !cells[..n].contains(&cell) {
                continue;
            }
            let (x, y) = self.cell_xy(cell);
            if keep(self, x, y, rot) {
                self.opt_place[w] = v;
                w += 1;
            }
        }
        self.n_place = w;
    }

    /// What [`Game::keep_placements_at`] leaves of the placement scan's list for `tile`, made
    /// from the cells `at` (at most 8) alone, without a walk of the list: each of those cells
    /// that is on the frontier, in frontier order, with the rotations of `tile` the scan
    /// found there (a set of 4 bits, symmetric rotations once) passed to `keep(game, x, y,
    /// rotations)`, which returns those it keeps; they go into the list in ascending order,
    /// as the scan wrote them. Sound only while the list is the scan's alone: no expansion
    /// added placements ([`Game::push_placement`]) and none removed any yet.
    pub(crate) fn set_placements_at(
        &mut self,
        tile: TileIdx,
        at: &[(i32, i32)],
        mut keep: impl FnMut(&Self, i32, i32, u8) -> u8,
    ) {
        let fits = self.rules.fits(tile);
        // (frontier position << 40 | rotations that fit << 32 | cell), in frontier order
        let mut cells = [0u64; 8];
        let mut n = 0;
        for &(x, y) in at {
            if n == cells.len() || !self.in_bounds(x, y) {
                continue;
            }
            let cell = self.cell_index(x, y);
            let c = self.board.get(cell);
            let bits = fits[c.code as usize] & 15;
            if c.tile != 0 || c.fpos == u16::MAX || bits == 0 {
                continue; // no option there
            }
            let key = u64::from(c.fpos) << 40 | u64::from(bits) << 32 | u64::from(cell);
            if cells[..n].contains(&key) {
                continue;
            }
            // insertion in frontier order (a cell's position is its own)
            let mut k = n;
            while k > 0 && cells[k - 1] > key {
                cells[k] = cells[k - 1];
                k -= 1;
            }
            cells[k] = key;
            n += 1;
        }
        if self.opt_place.len() < 4 * n {
            self.opt_place.resize(4 * n, 0);
        }
        let mut w = 0usize;
        for &key in &cells[..n] {
            let (cell, bits) = (key as u32, (key >> 32) as u8 & 15);
            let (x, y) = self.cell_xy(cell);
            let kept = keep(self, x, y, bits) & bits;
            for &rot in &ROTATIONS_OF[kept as usize][..COUNT_OF[kept as usize] as usize] {
                self.opt_place[w] = cell << 2 | rot;
                w += 1;
            }
        }
        self.n_place = w;
    }

    /// Drop the placement options of `tile` on the cells `at` (an expansion's placement
    /// filter that refuses whole cells), the others kept in their order. A cell where no
    /// rotation of the tile fits has no option: when none of `at` has one, nothing is read.
    pub(crate) fn drop_placements_at(&mut self, tile: TileIdx, at: &[(i32, i32)]) {
        let fits = self.rules.fits(tile);
        let mut cells = [0u32; 8];
        let mut n = 0;
        for &(x, y) in at {
            if n < cells.len() && self.in_bounds(x, y) {
                let cell = self.cell_index(x, y);
                let c = self.board.get(cell);
                if c.tile == 0 && fits[c.code as usize] != 0 {
                    cells[n] = cell;
                    n += 1;
                }
            }
        }
        if n == 0 {
            return;
        }
        let mut w = 0usize;
        for i in 0..self.n_place {
            let v = self.opt_place[i];
            if !cells[..n].contains(&((v & !TAG_MASK) >> 2)) {
                self.opt_place[w] = v;
                w += 1;
            }
        }
        self.n_place = w;
    }

    /// Add a placement option an expansion makes legal (see
    /// `Expansion::extra_placements`), with its `tag` (1 to 63) for
    /// [`Game::placement_tag`].
    pub(crate) fn push_placement(&mut self, x: i32, y: i32, rot: u8, tag: u8) {
        debug_assert!((1..64).contains(&tag));
        let v = self.cell_index(x, y) << 2 | (rot as u32 & 3) | (tag as u32) << TAG_SHIFT;
        if self.opt_place.len() <= self.n_place {
            self.opt_place.resize(self.n_place + 4, 0);
        }
        self.opt_place[self.n_place] = v;
        self.n_place += 1;
    }

    /// The tag of placement option `i`: 0 when its edges allow it, else what the expansion
    /// that added it gave ([`Game::push_placement`]).
    #[inline]
    pub(crate) fn placement_tag(&self, i: usize) -> u8 {
        (self.opt_place[i] >> TAG_SHIFT) as u8
    }

    /// Calls `f(x, y, rotation)` for every legal placement of `tile` now, in the order
    /// [`DecisionKind::PLACEMENT`] would offer them (read-only: for valuing a tile of a hand
    /// before it is chosen).
    ///
    /// [`DecisionKind::PLACEMENT`]: crate::engine::DecisionKind::PLACEMENT
    pub fn each_placement(&self, tile: TileIdx, mut f: impl FnMut(i32, i32, u8)) {
        if tile as usize >= self.rules.tiles.len() {
            return;
        }
        let fits = self.rules.fits(tile);
        for (&base, &code) in self.frontier.bases.iter().zip(&self.frontier.codes) {
            let bits = fits[code as usize] as usize;
            let r = ROTATIONS_OF[bits];
            for &v in &r[..COUNT_OF[bits] as usize] {
                let v = base | v;
                let (x, y) = self.cell_xy(v >> 2);
                f(x, y, (v & 3) as u8);
            }
        }
    }

    /// Whether `tile` fits anywhere on the board now.
    pub fn fits_anywhere(&self, tile: TileIdx) -> bool {
        if tile as usize >= self.rules.tiles.len() {
            return false;
        }
        self.frontier.any_fits(self.rules.fits(tile))
    }

    /// Placement option `i` as (cell, rotation).
    #[inline]
    pub(crate) fn placement_option(&self, i: usize) -> (u32, u8) {
        debug_assert!(i < self.n_place);
        let v = self.opt_place[i] & !TAG_MASK;
        (v >> 2, (v & 3) as u8)
    }

    /// Whether `tile` at rotation `rot` may be placed at (x, y).
    pub fn placement_legal(&self, tile: TileIdx, x: i32, y: i32, rot: u8) -> bool {
        if !self.in_bounds(x, y) {
            return false;
        }
        let c = self.board.get(self.cell_index(x, y));
        if c.tile != 0 || c.code == 0 {
            return false;
        }
        let Some(t) = self.rules.tiles.get(tile as usize) else {
            return false;
        };
        crate::engine::compiled::rotation_fits(t.rotations[rot as usize & 3].sig, c.code)
    }

    /// Put `tile` on `cell` turned `rot` quarter turns; joins its segments to the neighbours'.
    /// Returns its index in `placed`.
    pub(crate) fn place_tile(&mut self, tile: TileIdx, cell: u32, rot: u8) -> usize {
        let (x, y) = self.cell_xy(cell);
        let pidx = self.placed.len();
        let node0 = self.comps.len() as u32;
        self.placed.push(PlacedTile {
            tile,
            rot,
            x,
            y,
            node0,
            cloister_done: false,
        });
        self.stamp.push(0);
        self.board.cover(cell);
        let slot = self.board.covered_slot(cell);
        let stride = self.board.stride();
        let here = &mut self.board.cells[slot];
        here.tile = pidx as u16 + 1;
        let at = here.fpos;
        if at != u16::MAX {
            here.fpos = u16::MAX;
            if let Some(moved) = self.frontier.swap_remove(at as usize) {
                self.board.at(moved).fpos = at;
            }
        }

        // segments → nodes (field borrows only: no reference count on the shared rules)
        let ct = &self.rules.tiles[tile as usize];
        let rotation = ct.rotations[rot as usize];
        // the tile's features as it brings them, copied whole; their nodes then number on
        // from `node0`
        self.comps.extend_from_slice(&ct.fresh);
        for c in &mut self.comps[node0 as usize..] {
            c.head += node0;
            c.tail += node0;
        }
        self.nodes
            .extend(ct.fresh.iter().enumerate().map(|(i, c)| SegNode {
                tile: pidx as u16,
                seg: i as u8,
                kind: c.kind,
                next: NIL,
            }));
        // a singleton set per segment, made in batches (sets for a few tiles at once: one per
        // segment, or all the game could need at once, cost more instructions or state bytes)
        if self.uf.len() < self.comps.len() {
            self.uf.grow_to(self.comps.len() + UF_BATCH);
        }

        if ct.cloister != NONE {
            self.open_cloisters.push(pidx as u32);
            self.board.cells[slot].cloister = true;
        }
        self.filled_near = self.board.count_placed(slot);

        // neighbours
        for s in 0..4usize {
            let ncell = (cell as i32 + Self::side_step(s)) as u32;
            let opp = (s + 2) & 3;
            let kind = (rotation.sig >> (2 * s)) & 3;
            let step = [-stride, 1, stride, -1][s];
            let nc = &mut self.board.cells[(slot as isize + step) as usize];
            let nv = nc.tile;
            if nv == 0 {
                let code = nc.code | ((kind + 1) << (2 * opp));
                nc.code = code;
                let at = nc.fpos;
                if at == u16::MAX {
                    nc.fpos = self.frontier.push(ncell, code);
                } else {
                    self.frontier.codes[at as usize] = code;
                }
                continue;
            }
            let nb = self.placed[nv as usize - 1];
            let nrot = self.rules.tiles[nb.tile as usize].rotations[nb.rot as usize];
            if kind == EdgeKind::City as u8 || kind == EdgeKind::Road as u8 {
                let a = rotation.side_seg[s];
                let b = nrot.side_seg[opp];
                if a != NONE && b != NONE {
                    self.join(node0 + a as u32, nb.node0 + b as u32, true);
                }
            }
            if kind != EdgeKind::City as u8 {
                for k in 0..2 {
                    let h = HalfEdge::from_index(2 * s + k);
                    let a = rotation.half_seg[h.index()];
                    let b = nrot.half_seg[h.across().index()];
                    if a != NONE && b != NONE {
                        self.join(node0 + a as u32, nb.node0 + b as u32, false);
                    }
                }
            }
        }
        pidx
    }

    /// Turn the placed tile `pidx` into `to`, a type derived from its own (see
    /// `Expansion::derive_tiles`: a bridge adds a road). The added segments take the nodes
    /// the tile held for them; an edge that changed kind joins the neighbour's segment
    /// across it, or changes what the empty cell there requires.
    pub(crate) fn retype_tile(&mut self, pidx: usize, to: TileIdx) {
        let t = self.placed[pidx];
        let old = self.rules.tiles[t.tile as usize].rotations[t.rot as usize];
        let from_n = self.rules.tiles[t.tile as usize].segments.len();
        self.placed[pidx].tile = to;
        self.retypes += 1;
        self.ext.wake_for_edit();
        // the marks a kept segment gains under the new type reach its feature
        for i in 0..from_n {
            let gained = self.rules.tiles[to as usize].segments[i].marks
                & !self.rules.tiles[t.tile as usize].segments[i].marks;
            if gained != 0 {
                let r = self.uf.find_mut(t.node0 + i as u32);
                self.comps[r as usize].marks |= gained;
            }
        }
        let ct = &self.rules.tiles[to as usize];
        let new = ct.rotations[t.rot as usize];
        for i in from_n..ct.segments.len() {
            let mut c = ct.fresh[i];
            c.head += t.node0;
            c.tail += t.node0;
            self.nodes[(t.node0 as usize) + i].kind = c.kind;
            self.comps[(t.node0 as usize) + i] = c;
        }
        let cell = self.cell_index(t.x, t.y);
        for s in 0..4usize {
            let kind = (new.sig >> (2 * s)) & 3;
            if kind == (old.sig >> (2 * s)) & 3 {
                continue;
            }
            let opp = (s + 2) & 3;
            let ncell = (cell as i32 + Self::side_step(s)) as u32;
            let nv = self.board.get(ncell).tile;
            if nv == 0 {
                let nc = self.board.at(ncell);
                let code = (nc.code & !(3 << (2 * opp))) | ((kind + 1) << (2 * opp));
                nc.code = code;
                let at = nc.fpos;
                if at != u16::MAX {
                    self.frontier.codes[at as usize] = code;
                }
                continue;
            }
            let nb = self.placed[nv as usize - 1];
            let nrot = self.rules.tiles[nb.tile as usize].rotations[nb.rot as usize];
            let (a, b) = (new.side_seg[s], nrot.side_seg[opp]);
            if a != NONE && b != NONE {
                self.join(t.node0 + a as u32, nb.node0 + b as u32, true);
            }
        }
    }

    /// Join two segments touching across a border; `closes` = a city/road edge that stops
    /// being open on both sides.
    fn join(&mut self, a: u32, b: u32, closes: bool) {
        let ra = self.uf.find_mut(a);
        let rb = self.uf.find_mut(b);
        if ra == rb {
            if closes {
                self.comps[ra as usize].open -= 2;
            }
            return;
        }
        let r = self.uf.link(ra, rb);
        let o = if r == ra { rb } else { ra };
        let other = self.comps[o as usize];
        let tail = self.comps[r as usize].tail;
        self.nodes[tail as usize].next = other.head;
        let root = &mut self.comps[r as usize];
        root.tail = other.tail;
        root.open += other.open - if closes { 2 } else { 0 };
        root.pennants += other.pennants;
        root.nfollowers += other.nfollowers;
        root.marks |= other.marks;
        for p in 0..MAX_PLAYERS {
            root.followers[p] += other.followers[p];
        }
        root.done |= other.done;
    }

    /// Join the components of two segments an expansion connects inside a tile (two road
    /// ends its piece links across the tile): no border is closed by it.
    pub(crate) fn link_segments(&mut self, a: u32, b: u32) {
        self.ext.wake_for_edit();
        self.join(a, b, false);
    }

    /// Split and rebuild the road or city components holding `seeds` from the board (an expansion
    /// took away a link it had made with `link_segments`). Every node of those components becomes a
    /// singleton with its segment's fresh facts, then is joined again across each tile border it
    /// shares with another of them (once per border) and through `links` (pairs of nodes an
    /// expansion joins inside a tile, those with both nodes among them), and the followers standing
    /// on them are counted again. A rebuilt component is not `done`: the caller's scoring decides
    /// anew. `nodes` is scratch space. Costs a walk of the components' segments; games that never
    /// call it pay nothing. The links and the followers to restore are found by the old roots
    /// before the split, the followers' scan stopping once it has as many as the components
    /// counted.
    pub(crate) fn rebuild_components(
        &mut self,
        seeds: &[u32],
        links: &[(u32, u32)],
        nodes: &mut Vec<u32>,
    ) {
        self.ext.wake_for_edit();
        nodes.clear();
        let mut roots: [u32; 8] = [NIL; 8];
        let mut nroots = 0;
        for &s in seeds {
            let r = self.uf.find_mut(s);
            if roots[..nroots].contains(&r) {
                continue;
            }
            debug_assert!(nroots < roots.len());
            roots[nroots] = r;
            nroots += 1;
            let mut n = self.comps[r as usize].head;
            while n != NIL {
                nodes.push(n);
                n = self.nodes[n as usize].next;
            }
        }
        nodes.sort_unstable();
        let split = nodes.len();
        // before the split, by the components' roots: the links to join again (a bit per
        // link) and the followers to count again (their indices, after the nodes)
        let held = |uf: &mut crate::engine::union_find::UnionFind, n: u32| {
            roots[..nroots].contains(&uf.find_mut(n))
        };
        // (a bit per link: the callers join a few at most)
        assert!(links.len() <= 64, "rebuild_components: more than 64 links");
        let mut relink = 0u64;
        for (i, &(a, b)) in links.iter().enumerate() {
            if held(&mut self.uf, a) && held(&mut self.uf, b) {
                relink |= 1 << i;
            }
        }
        // (as many as the components count: the scan stops at the last)
        let mut left: u32 = roots[..nroots]
            .iter()
            .map(|&r| u32::from(self.comps[r as usize].nfollowers))
            .sum();
        for i in 0..self.followers.len() {
            if left == 0 {
                break;
            }
            if held(&mut self.uf, self.followers[i].node) {
                nodes.push(i as u32);
                left -= 1;
            }
        }
        // each node made a singleton, then joined across its borders with the nodes before
        // it (ascending: a border's earlier tile holds the smaller node, made a singleton
        // already); the joins touch no node after it, so this is the order of a split
        // made whole first
        for k in 0..split {
            let n = nodes[k];
            let node = self.nodes[n as usize];
            let t = self.placed[node.tile as usize];
            let ct = &self.rules.tiles[t.tile as usize];
            let mut c = ct.fresh[node.seg as usize];
            c.head = n;
            c.tail = n;
            c.done = false;
            self.comps[n as usize] = c;
            self.nodes[n as usize].next = NIL;
            self.uf.reset(n);
            let sides = ct.rotations[t.rot as usize].seg_sides[node.seg as usize];
            if sides == 0 {
                continue;
            }
            let cell = self.cell_index(t.x, t.y);
            for s in 0..4usize {
                if sides & (1 << s) == 0 {
                    continue;
                }
                let nv = self
                    .board
                    .get((cell as i32 + Self::side_step(s)) as u32)
                    .tile;
                // each border once: from the tile placed later
                if nv == 0 || (nv as usize - 1) > node.tile as usize {
                    continue;
                }
                let nb = self.placed[nv as usize - 1];
                let nrot = &self.rules.tiles[nb.tile as usize].rotations[nb.rot as usize];
                let b = nrot.side_seg[(s + 2) & 3];
                if b == crate::engine::compiled::NONE {
                    continue;
                }
                let m = nb.node0 + b as u32;
                if nodes[..k].binary_search(&m).is_ok() {
                    self.join(n, m, true);
                }
            }
        }
        for (i, &(a, b)) in links.iter().enumerate() {
            if relink >> i & 1 != 0 {
                self.join(a, b, false);
            }
        }
        for &i in &nodes[split..] {
            let f = self.followers[i as usize];
            let r = self.uf.find_mut(f.node);
            let comp = &mut self.comps[r as usize];
            comp.followers[f.player as usize] += f.kind.weight();
            comp.nfollowers += 1;
        }
        nodes.truncate(split);
    }

    /// Sides of the empty cell (x, y) with a tile next to them, a bit per side (N = bit 0,
    /// clockwise): read from the cell's neighbour constraint, no lookups. 0 for a cell away
    /// from the board or one holding a tile.
    pub fn occupied_sides(&self, x: i32, y: i32) -> u8 {
        if !self.in_bounds(x, y) {
            return 0;
        }
        let c = self.board.get(self.cell_index(x, y));
        if c.tile != 0 {
            return 0;
        }
        // two bits per side, non-zero where a neighbour's edge constrains it
        (0..4).fold(0, |m, s| m | (((c.code >> (2 * s)) & 3 != 0) as u8) << s)
    }

    /// Tiles around (x, y), of 8.
    pub fn neighbours(&self, x: i32, y: i32) -> u32 {
        if !self.in_bounds(x, y) {
            return 0;
        }
        self.board.occupied_around(self.cell_index(x, y))
    }

    /// Placed-tile indices of the 8 (or 4) tiles around placed tile `pidx`, in the order
    /// N, NE, E, SE, S, SW, W, NW.
    pub(crate) fn around(&self, pidx: usize, diagonals: bool, out: &mut Vec<u32>) {
        out.clear();
        let t = self.placed[pidx];
        if self
            .board
            .tiles_around(self.cell_index(t.x, t.y), diagonals, out)
        {
            return;
        }
        let dirs: &[(i32, i32)] = if diagonals {
            &AROUND
        } else {
            &[(0, -1), (1, 0), (0, 1), (-1, 0)]
        };
        for &(dx, dy) in dirs {
            if let Some(i) = self.tile_at(t.x.saturating_add(dx), t.y.saturating_add(dy)) {
                out.push(i as u32);
            }
        }
    }

    /// Root of the component holding `node`.
    #[inline]
    pub(crate) fn root(&mut self, node: u32) -> u32 {
        self.uf.find_mut(node)
    }

    /// Root without path compression (read-only access).
    #[inline]
    pub(crate) fn root_of(&self, node: u32) -> u32 {
        self.uf.find(node)
    }

    /// Calls `f` with each distinct placed-tile index of the component rooted at `root`, in
    /// chain order (a tile touching the feature twice comes once).
    fn for_each_component_tile(&mut self, root: u32, mut f: impl FnMut(u32)) {
        self.stamp_gen = self.stamp_gen.wrapping_add(1);
        if self.stamp_gen == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.stamp_gen = 1;
        }
        let gen = self.stamp_gen;
        let mut n = self.comps[root as usize].head;
        while n != NIL {
            let t = self.nodes[n as usize].tile as usize;
            if self.stamp[t] != gen {
                self.stamp[t] = gen;
                f(t as u32);
            }
            n = self.nodes[n as usize].next;
        }
    }

    /// The empty cells a feature still needs, each once with its neighbour-constraint code
    /// (see `CompiledTile::fits`): for a city or road the cells its open edges face, for a
    /// cloister the empty cells around it. What a policy reads to tell which unseen tiles
    /// could finish the feature.
    pub(crate) fn open_cells(&self, root: u32, out: &mut Vec<(u32, u8)>) {
        out.clear();
        let mut add = |g: &Self, cell: u32| {
            let c = g.board.get(cell);
            if c.tile == 0 && !out.iter().any(|&(have, _)| have == cell) {
                out.push((cell, c.code));
            }
        };
        let comp = &self.comps[root as usize];
        if comp.kind == FeatureKind::Cloister {
            let t = self.placed[self.nodes[comp.head as usize].tile as usize];
            for &(dx, dy) in &AROUND {
                add(self, self.cell_index(t.x + dx, t.y + dy));
            }
            return;
        }
        let mut n = comp.head;
        while n != NIL {
            let node = self.nodes[n as usize];
            let t = self.placed[node.tile as usize];
            let sides = self.rules.tiles[t.tile as usize].rotations[t.rot as usize].seg_sides
                [node.seg as usize];
            let cell = self.cell_index(t.x, t.y);
            for s in 0..4 {
                if sides & (1 << s) != 0 {
                    add(self, (cell as i32 + Self::side_step(s)) as u32);
                }
            }
            n = node.next;
        }
    }

    /// Distinct tiles of the component rooted at `root` (a tile touching it twice counts once).
    pub(crate) fn component_tiles(&mut self, root: u32) -> u32 {
        let mut count = 0;
        self.for_each_component_tile(root, |_| count += 1);
        count
    }

    /// Placed-tile indices of the component's distinct tiles, in chain order (for the few
    /// tiles of one feature a scan of `out` is cheaper than the stamps, and needs no `&mut`).
    pub(crate) fn component_tile_list(&self, root: u32, out: &mut Vec<u32>) {
        out.clear();
        let mut n = self.comps[root as usize].head;
        while n != NIL {
            let t = self.nodes[n as usize].tile as u32;
            if !out.contains(&t) {
                out.push(t);
            }
            n = self.nodes[n as usize].next;
        }
    }

    /// Side of a placed tile's edge, in board orientation, for drawing.
    pub fn edge_kind(&self, pidx: usize, side: Side) -> EdgeKind {
        let t = self.placed[pidx];
        let sig = self.rules.tiles[t.tile as usize].rotations[t.rot as usize].sig;
        match (sig >> (2 * side.index())) & 3 {
            1 => EdgeKind::Road,
            2 => EdgeKind::City,
            _ => EdgeKind::Field,
        }
    }
}
