//! Human-facing renderings of one game: a readable turn log (`narrate`) and a picture of the
//! board as SVG (`board_svg`), and a probed decision's two choices drawn on its board
//! (`decision_svg`). Pure functions from events and game state to text.

pub mod board_svg;
pub mod decision_svg;
pub mod narrate;

/// Seat names in turn order (the colours of the box).
pub const SEAT_NAMES: [&str; 6] = ["Red", "Blue", "Yellow", "Green", "Black", "Grey"];

/// Seat colours for pictures.
pub const SEAT_COLOURS: [&str; 6] = [
    "#d62728", "#1f5fbf", "#e6c000", "#2ca02c", "#222222", "#9a9a9a",
];

/// The name of seat `p`.
pub fn seat_name(p: u8) -> &'static str {
    SEAT_NAMES.get(p as usize).copied().unwrap_or("?")
}
