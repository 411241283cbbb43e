//! The board's grid: cell ids (a packed (x, y) stable for the whole game), the window of
//! cells that holds the tiles and their neighbours (it grows when a tile lands near its edge),
//! and the frontier, the empty cells next to the board with what their neighbours require.
//! Plain data; the board's rules (`board.rs`) read and write it.

/// Coordinates are packed into a cell id as `(y + CELL_OFF) << 12 | (x + CELL_OFF)`: stable
/// for the whole game (frontier entries and placement options keep it), whatever the window.
pub(crate) const CELL_OFF: i32 = 2048;
/// Cell-id step of one row.
pub(crate) const ROW: i32 = 1 << 12;

/// What the board knows about one cell.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cell {
    /// Placed-tile index + 1; 0 = empty.
    pub tile: u16,
    /// Position in `Game::frontier`, `u16::MAX` when not in it.
    pub fpos: u16,
    /// Neighbour-constraint code (see `CompiledTile::fits`); non-zero on the frontier.
    pub code: u8,
    /// The tile here is an open cloister (in `Game::open_cloisters`; the byte was padding).
    pub cloister: bool,
    /// Placed tiles among the 8 cells around (kept for every cell of the window: a tile's
    /// 3 × 3 block lies in it, see [`Window::cover`]).
    pub around: u8,
}

pub(crate) const EMPTY: Cell = Cell {
    tile: 0,
    fpos: u16::MAX,
    code: 0,
    cloister: false,
    around: 0,
};

/// Side of a fresh window (most games of 72 tiles stay inside it).
const FRESH: u32 = 20;
/// Cells added beyond what is needed when the window grows.
const MARGIN: u32 = 8;

/// Empty cells next to the board, in the order they joined (a cell leaving is replaced by the
/// last one): deterministic for a given history. Kept as two parallel arrays so the
/// legal-placement scan reads each cell's placement base and constraint code without
/// unpacking them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Frontier {
    /// `cell << 2`: a placement option is `base | rotation`.
    pub(crate) bases: Vec<u32>,
    /// The cell's neighbour-constraint code (see `CompiledTile::fits`), non-zero.
    pub(crate) codes: Vec<u8>,
}

impl Frontier {
    pub(crate) fn with_capacity(n: usize) -> Frontier {
        Frontier {
            bases: Vec::with_capacity(n),
            codes: Vec::with_capacity(n),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.bases.len()
    }

    pub(crate) fn clear(&mut self) {
        self.bases.clear();
        self.codes.clear();
    }

    /// Appends `cell`; returns its position.
    pub(crate) fn push(&mut self, cell: u32, code: u8) -> u16 {
        let at = self.bases.len() as u16;
        self.bases.push(cell << 2);
        self.codes.push(code);
        at
    }

    /// Entry `k`: (cell, neighbour-constraint code).
    pub(crate) fn entry(&self, k: usize) -> (u32, u8) {
        (self.bases[k] >> 2, self.codes[k])
    }

    /// Removes the cell at `at`; returns the cell moved into its place, if any.
    pub(crate) fn swap_remove(&mut self, at: usize) -> Option<u32> {
        self.bases.swap_remove(at);
        self.codes.swap_remove(at);
        self.bases.get(at).map(|&base| base >> 2)
    }

    /// Whether any frontier cell takes a tile whose fit table is `fits`.
    pub(crate) fn any_fits(&self, fits: &[u8; 256]) -> bool {
        self.codes.iter().any(|&c| fits[c as usize] != 0)
    }

    pub(crate) fn clone_from(&mut self, source: &Frontier) {
        self.bases.clone_from(&source.bases);
        self.codes.clone_from(&source.codes);
    }

    pub(crate) fn bytes(&self) -> usize {
        std::mem::size_of_val(&self.bases[..]) + std::mem::size_of_val(&self.codes[..])
    }
}

/// The part of the board that holds tiles and their neighbours: a small grid that grows
/// when a tile lands near its edge, so storage follows what is on the board.
#[derive(Debug)]
pub(crate) struct Window {
    pub(crate) x0: u32,
    pub(crate) y0: u32,
    pub(crate) w: u32,
    pub(crate) h: u32,
    pub(crate) cells: Vec<Cell>,
}

impl Clone for Window {
    fn clone(&self) -> Window {
        Window {
            cells: self.cells.clone(),
            ..*self
        }
    }

    /// Reuses this window's cells (a search copies positions many times).
    fn clone_from(&mut self, source: &Window) {
        let Window {
            x0,
            y0,
            w,
            h,
            cells,
        } = source;
        (self.x0, self.y0, self.w, self.h) = (*x0, *y0, *w, *h);
        self.cells.clone_from(cells);
    }
}

impl Window {
    pub(crate) fn new() -> Window {
        let mut w = Window {
            x0: 0,
            y0: 0,
            w: 0,
            h: 0,
            cells: Vec::new(),
        };
        w.reset();
        w
    }

    /// Back to an empty window around (0, 0), keeping the allocation.
    pub(crate) fn reset(&mut self) {
        let half = FRESH / 2;
        self.x0 = CELL_OFF as u32 - half;
        self.y0 = CELL_OFF as u32 - half;
        self.w = FRESH;
        self.h = FRESH;
        self.cells.clear();
        self.cells.resize((FRESH * FRESH) as usize, EMPTY);
    }

    #[inline]
    pub(crate) fn slot(&self, cell: u32) -> Option<usize> {
        let dx = (cell & 0xFFF).wrapping_sub(self.x0);
        let dy = (cell >> 12).wrapping_sub(self.y0);
        (dx < self.w && dy < self.h).then(|| (dy * self.w + dx) as usize)
    }

    #[inline]
    pub(crate) fn get(&self, cell: u32) -> Cell {
        match self.slot(cell) {
            Some(i) => self.cells[i],
            None => EMPTY,
        }
    }

    /// The cell, which [`Window::cover`] made sure lies in the window.
    #[inline]
    pub(crate) fn at(&mut self, cell: u32) -> &mut Cell {
        let i = self.slot(cell).expect("cell inside the board window");
        &mut self.cells[i]
    }

    /// Grow the window (if needed) so `cell` and its four neighbours lie inside.
    pub(crate) fn cover(&mut self, cell: u32) {
        let (cx, cy) = (cell & 0xFFF, cell >> 12);
        let (lx, hx, ly, hy) = (cx - 1, cx + 1, cy - 1, cy + 1);
        if lx >= self.x0 && ly >= self.y0 && hx < self.x0 + self.w && hy < self.y0 + self.h {
            return;
        }
        let nx0 = if lx < self.x0 { lx - MARGIN } else { self.x0 };
        let ny0 = if ly < self.y0 { ly - MARGIN } else { self.y0 };
        let nx1 = if hx >= self.x0 + self.w {
            hx + 1 + MARGIN
        } else {
            self.x0 + self.w
        };
        let ny1 = if hy >= self.y0 + self.h {
            hy + 1 + MARGIN
        } else {
            self.y0 + self.h
        };
        let (nw, nh) = (nx1 - nx0, ny1 - ny0);
        let mut cells = vec![EMPTY; (nw * nh) as usize];
        for y in 0..self.h {
            let from = (y * self.w) as usize;
            let to = ((y + self.y0 - ny0) * nw + (self.x0 - nx0)) as usize;
            cells[to..to + self.w as usize]
                .copy_from_slice(&self.cells[from..from + self.w as usize]);
        }
        *self = Window {
            x0: nx0,
            y0: ny0,
            w: nw,
            h: nh,
            cells,
        };
    }

    /// Slot of `cell`, which [`Window::cover`] made sure lies in the window with its four
    /// neighbours (their slots are this one ± 1 and ± [`Window::stride`]).
    #[inline]
    pub(crate) fn covered_slot(&self, cell: u32) -> usize {
        self.slot(cell).expect("cell inside the board window")
    }

    #[inline]
    pub(crate) fn stride(&self) -> isize {
        self.w as isize
    }

    /// A tile was placed on `slot` (covered, its open cloister already flagged): each of the
    /// 8 cells around counts it. Returns a bit per cell of its 3 × 3 block (row by row from
    /// the north-west: bit `3 · row + column`, the tile's own bit 4) whose open cloister now
    /// has all 8 neighbours.
    #[inline]
    pub(crate) fn count_placed(&mut self, slot: usize) -> u16 {
        let w = self.w as usize;
        let mut filled = 0u16;
        // (the block as 3 rows of 3: one bounds check a row, the cells unrolled)
        let block = &mut self.cells[slot - w - 1..slot + w + 2];
        for r in 0..3 {
            let row: &mut [Cell; 3] = (&mut block[r * w..r * w + 3])
                .try_into()
                .expect("a row of the block holds 3 cells");
            for (c, cell) in row.iter_mut().enumerate() {
                cell.around += 1;
                // (a branch: a cell's eighth neighbour comes once, so it is nearly never taken)
                if cell.around == 8 && cell.cloister {
                    filled |= 1 << (3 * r + c);
                }
            }
        }
        // the tile is not its own neighbour: its count stays, and its cloister is complete
        // when it filled a hole
        let here = &mut self.cells[slot];
        here.around -= 1;
        (filled & !(1 << 4)) | u16::from(here.cloister & (here.around == 8)) << 4
    }

    /// Every cell's count of placed tiles around it against a count made afresh (an
    /// invariant check).
    pub(crate) fn check_counts(&self) -> Result<(), String> {
        for dy in 0..self.h {
            for dx in 0..self.w {
                let cell = ((self.y0 + dy) << 12) | (self.x0 + dx);
                let kept = self.cells[(dy * self.w + dx) as usize].around as u32;
                let counted = self.count_around(cell);
                if kept != counted {
                    return Err(format!(
                        "cell ({}, {}) counts {kept} tiles around it, {counted} are",
                        (cell & 0xFFF) as i32 - CELL_OFF,
                        (cell >> 12) as i32 - CELL_OFF,
                    ));
                }
            }
        }
        Ok(())
    }

    /// Occupied cells among the 8 around `cell` (kept in each cell: [`Window::count_placed`]).
    #[inline]
    pub(crate) fn occupied_around(&self, cell: u32) -> u32 {
        self.get(cell).around as u32
    }

    /// Occupied cells among the 8 around `cell`, counted.
    fn count_around(&self, cell: u32) -> u32 {
        let dx = (cell & 0xFFF).wrapping_sub(self.x0);
        let dy = (cell >> 12).wrapping_sub(self.y0);
        if dx >= 1 && dy >= 1 && dx + 1 < self.w && dy + 1 < self.h {
            let w = self.w as usize;
            let i = (dy * self.w + dx) as usize;
            let rows = [
                &self.cells[i - w - 1..i - w + 2],
                &self.cells[i - 1..i + 2],
                &self.cells[i + w - 1..i + w + 2],
            ];
            let all: u32 = rows
                .iter()
                .flat_map(|r| r.iter())
                .map(|c| (c.tile != 0) as u32)
                .sum();
            return all - (self.cells[i].tile != 0) as u32;
        }
        let w = ROW;
        let c = cell as i32;
        [-w - 1, -w, -w + 1, -1, 1, w - 1, w, w + 1]
            .iter()
            .map(|&d| (self.get((c + d) as u32).tile != 0) as u32)
            .sum()
    }

    /// Placed-tile indices of the tiles around `cell` (in [`AROUND`] order, or N, E, S, W),
    /// read straight from the window's rows; false, adding nothing, when the 3 × 3 block
    /// around `cell` is not inside the window (never for a placed tile: `cover` made room for
    /// it).
    pub(crate) fn tiles_around(&self, cell: u32, diagonals: bool, out: &mut Vec<u32>) -> bool {
        let dx = (cell & 0xFFF).wrapping_sub(self.x0);
        let dy = (cell >> 12).wrapping_sub(self.y0);
        if !(dx >= 1 && dy >= 1 && dx + 1 < self.w && dy + 1 < self.h) {
            return false;
        }
        let (i, w) = ((dy * self.w + dx) as usize, self.w as usize);
        let eight = [
            i - w,
            i - w + 1,
            i + 1,
            i + w + 1,
            i + w,
            i + w - 1,
            i - 1,
            i - w - 1,
        ];
        let four = [i - w, i + 1, i + w, i - 1];
        let slots: &[usize] = if diagonals { &eight } else { &four };
        for &slot in slots {
            let v = self.cells[slot].tile;
            if v != 0 {
                out.push(v as u32 - 1);
            }
        }
        true
    }

    /// Bytes of board storage in use.
    pub(crate) fn bytes(&self) -> usize {
        self.cells.len() * std::mem::size_of::<Cell>()
    }
}
