//! How a piece looks on the SVG board: the plain follower, a drawing its module declares, or
//! a lettered token. The engine's pieces and every expansion's declare one; `render::board_svg`
//! draws them.

/// How an expansion's piece looks on the SVG board (`render::board_svg` draws it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Glyph {
    /// The plain follower (a disc; a flat one on a field).
    Follower,
    /// A drawing its module declares (a keep, a bridge, a pig…).
    Drawn(&'static GlyphArt),
    /// A round token marked with `letter`, in `colour`; `hollow` once it is spent (a goods
    /// symbol whose tokens are handed out, say). The same in every seat's hands.
    Token {
        letter: char,
        colour: &'static str,
        hollow: bool,
    },
}

impl Glyph {
    /// Whether it is drawn in its owner's seat colour (a seat's piece) rather than in its
    /// own colours (a mark of the tiles).
    pub fn in_seat_colour(self) -> bool {
        match self {
            Glyph::Follower => true,
            Glyph::Drawn(art) => art.in_seat_colour,
            Glyph::Token { .. } => false,
        }
    }
}

/// A piece's drawing, declared by the module whose piece it is: SVG centred on the origin,
/// about 16 units across, `{colour}` standing for its fill (the owner's seat colour, a
/// light fill for a mark of the tiles, or "none": hollow).
#[derive(Debug, PartialEq)]
pub struct GlyphArt {
    /// The SVG elements, with `{colour}` where the fill goes.
    pub svg: &'static str,
    /// Whether it is drawn in its owner's seat colour (a seat's piece) rather than in a
    /// light fill (a mark of the tiles: an inn).
    pub in_seat_colour: bool,
}

impl GlyphArt {
    /// The drawing filled with `colour`.
    pub fn draw(&self, colour: &str) -> String {
        self.svg.replace("{colour}", colour)
    }
}
