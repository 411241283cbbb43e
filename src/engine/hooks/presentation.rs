//! What an expansion shows: its presentation hooks ([`Presentation`]; the set's are
//! [`ExpansionsPresentation`](super::ExpansionsPresentation), in `set.rs`) and what they
//! draw with ([`Paint`], [`TileLayer`], [`TileFrame`]; the pieces, [`Piece`](super::Piece),
//! are the seam's, since the set hands them on). The rules and the policies never call
//! them: only the render and report layers do (the SVG board, `play --json`, the sweep's
//! table), through `Game`'s presentation methods (`game_api.rs`: `expansion_pieces`,
//! `expansion_legend`, `expansion_seat_columns`) and the registry's functions
//! (`expansions::tile_art`, `board_legend`, `game_json`, `swept_points`, …). Every item has
//! a default that shows nothing: an expansion with nothing to show writes
//! `impl Presentation for X {}`.

use crate::engine::compiled::Compiled;
use crate::engine::decision::{Choice, Wording};
use crate::engine::game::Game;
use crate::engine::glyph::Glyph;
use crate::engine::hooks::{Holds, Piece};
use crate::engine::outcome::GameOutcome;
use crate::ruleset::Ruleset;
use crate::tiles::TileType;

/// What one expansion shows on the SVG board and in the CLI's output. A supertrait of
/// [`Expansion`](super::Expansion): every registered expansion implements it.
pub trait Presentation: Sized {
    /// Its pieces on the board now (its layer of the SVG board).
    fn board_pieces<X: Holds<Self>>(_g: &Game<X>, _out: &mut Vec<Piece>) {}

    /// The legend of its layer: each glyph it draws and what it means.
    const LEGEND: &'static [(Glyph, &'static str)] = &[];

    /// Columns it adds to the score table under the SVG board, for `seat`: each a header and
    /// the seat's count (goods tokens held, say), the same headers for every seat.
    fn seat_columns<X: Holds<Self>>(_g: &Game<X>, _seat: u8, _out: &mut Vec<(&'static str, i64)>) {}

    // What it adds to the CLI's and the board's output. Each of the items below is asked of
    // every registered expansion, in play or not, in registration order (a module decides
    // from the rules whether it has something to show); those above only of the expansions
    // taking part.

    /// Its scoring categories a sweep's table reports as mean points per seat: (its local
    /// category index, the key in `sweep.json`, the column's head) — the robbers' points.
    const SWEPT_POINTS: &'static [(u8, &'static str, &'static str)] = &[];

    /// Its block of `play --json`, from the rules, the game's events and its outcome, if it
    /// writes one: `(key, value)` (the Gold Mines' ingot accounting under `"gold"`).
    fn game_json(
        _rules: &Ruleset,
        _outcome: &GameOutcome,
        _events: &[crate::engine::event::Event],
    ) -> Option<(&'static str, serde_json::Value)> {
        None
    }

    /// Draws on placed tile `pidx` (of type `tile`) of the SVG board, in `layer`: SVG
    /// appended to `out`; `at` is where the tile lies ([`TileFrame::point`]).
    fn tile_art<X: Holds<Self>>(
        _g: &Game<X>,
        _pidx: usize,
        _tile: &TileType,
        _layer: TileLayer,
        _at: TileFrame,
        _out: &mut String,
    ) {
    }

    /// The height of its band under the SVG board's tiles (the robbers' score track), 0 for
    /// none.
    fn board_band<X: Holds<Self>>(_g: &Game<X>) -> f64 {
        0.0
    }

    /// Draws its band under the SVG board from `top`, `width` wide.
    fn draw_board_band<X: Holds<Self>>(
        _g: &Game<X>,
        _top: f64,
        _width: f64,
        _paint: &Paint,
        _out: &mut String,
    ) {
    }

    /// Its lines in the SVG board's legend for a game of `rules`: each a symbol (SVG in a
    /// 16×12 box at the origin) and its meaning. Asked twice: for the lines before the
    /// river's and for those after it (`after_river`; the order legends always had).
    fn board_legend(
        _rules: &Compiled,
        _after_river: bool,
        _paint: &Paint,
        _out: &mut Vec<(String, String)>,
    ) {
    }

    /// How option `c` of its decision `local` reads in `how`'s place (a report's phrase, a
    /// replay's note, a decision board's legend): `Some(words)` in its own terms (`the robber
    /// to space 5`), `None` for the generic words of `c`'s form, which name the decision by
    /// its `DecisionSpec::doc` where they need to. Asked of the module whose decision it is,
    /// in play or not (a report names the choices of games long over).
    fn choice_words(_local: u8, _c: &Choice, _how: Wording) -> Option<String> {
        None
    }
}

/// How the SVG board paints what the expansions draw there: the seats' colours and names,
/// which the render layer owns.
#[derive(Clone, Copy, Debug)]
pub struct Paint {
    pub seat_colours: &'static [&'static str],
    pub seat_name: fn(u8) -> &'static str,
}

impl Paint {
    /// Seat `p`'s colour.
    pub fn colour(&self, p: u8) -> &'static str {
        self.seat_colours[p as usize % self.seat_colours.len()]
    }
}

/// What an expansion draws on a tile of the SVG board ([`Presentation::tile_art`]), in drawing
/// order, each layer over the one before: the tile's features are drawn first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TileLayer {
    /// A mark over the features at the tile's centre (a crop circle).
    Centre,
    /// A label in a corner (the gold mine's `Au`, the robber tile's `R`).
    Corner,
    /// Pieces lying on the tile (ingots).
    Lying,
}

impl TileLayer {
    /// Every layer, in drawing order.
    pub const ALL: [TileLayer; 3] = [TileLayer::Centre, TileLayer::Corner, TileLayer::Lying];
}

/// Where a tile lies on the SVG board: its top-left corner and its side, in picture units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TileFrame {
    pub origin: (f64, f64),
    pub size: f64,
}

impl TileFrame {
    /// The picture's point at `(x, y)` of the tile, in tile units (0 to 1 from its top-left
    /// corner).
    pub fn point(&self, x: f64, y: f64) -> (f64, f64) {
        (self.origin.0 + x * self.size, self.origin.1 + y * self.size)
    }
}
