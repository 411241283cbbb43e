//! What the policies make of an expansion: its valuation hooks ([`Valuation`]; the set's
//! are [`ExpansionsValuation`](super::ExpansionsValuation), in `set.rs`). The rules never call
//! them: a game plays the same whatever
//! they answer. The `greedy` policy, the heuristic's evaluation and rollouts ask them through
//! `Game`'s valuation methods (`game_api.rs`: `value_hint`, `expected_points`, …), and so do
//! an expansion's own hints (a messenger's hint asks the robbers' [`Valuation::toll`]). Every
//! item has a default with no opinion: an expansion that leaves valuation to the core writes
//! `impl Valuation for X {}`.

use crate::engine::game::Game;
use crate::engine::hooks::Holds;
use crate::ruleset::TileIdx;

/// How the policies value what one expansion adds: its decisions' options, its pieces, what
/// its seats hold. A supertrait of [`Expansion`](super::Expansion): every registered
/// expansion implements it, most with nothing but the value hints of their decisions.
pub trait Valuation: Sized {
    /// What its pieces on the board are expected to bring each seat by the end, in points
    /// (added to `out`, indexed by seat): the heuristic's evaluation adds it to what the
    /// core's features are worth. Pieces whose points the core already counts add nothing.
    fn expected_points<X: Holds<Self>>(_g: &Game<X>, _out: &mut [f64]) {}

    /// Whether the heuristic values what its seats hold and may take from features
    /// ([`Valuation::counts_unseen`], [`Valuation::value_holdings`],
    /// [`Valuation::feature_share`]): a unit (an ingot) worth a rate per seat. At most one
    /// registered expansion may say so (the registry checks it), so the rate is its own.
    const VALUES_HOLDINGS: bool = false;

    /// Whether an unseen tile brings more of what it values ([`Valuation::value_holdings`]
    /// gets how many of the tiles hidden from the evaluating seat do): a gold tile.
    fn counts_unseen<X: Holds<Self>>(_g: &Game<X>, _tile: TileIdx) -> bool {
        false
    }

    /// The heuristic's evaluation of a game not finished, before its features: with
    /// `unseen` tiles still to come that [`Valuation::counts_unseen`], write per seat what
    /// its holdings are worth (`held`, points, added to its expected total) and what one
    /// more unit taken from a feature is worth to it (`rate`, points).
    fn value_holdings<X: Holds<Self>>(
        _g: &Game<X>,
        _unseen: u32,
        _held: &mut [f64],
        _rate: &mut [f64],
    ) {
    }

    /// The units one of the `winners` (a bit per seat) of the unfinished feature `root` of
    /// `kind` expects to take from it, given `closes`, its chance to close before the end
    /// (`tiles`: scratch space); each winner gains that times its `rate`.
    fn feature_share<X: Holds<Self>>(
        _g: &Game<X>,
        _root: u32,
        _kind: crate::tiles::FeatureKind,
        _closes: f64,
        _winners: u8,
        _tiles: &mut Vec<u32>,
    ) -> f64 {
        0.0
    }

    /// Its value hint for option `i` of its decision `local`, now asked of `player`: what
    /// the option brings `player` now, in points or a rank (higher is better; the `greedy`
    /// policy takes the best, the heuristic's rollouts too). 0 when it has no opinion.
    fn value_hint<X: Holds<Self>>(_g: &Game<X>, _local: u8, _i: usize, _player: u8) -> i64 {
        0
    }

    /// The value hints of options `0..options` of its decision `local`, now asked of
    /// `player`, appended to `out`: exactly [`Valuation::value_hint`] of each. A module whose
    /// decisions have many options (a bid) computes what they share once.
    fn value_hints<X: Holds<Self>>(
        g: &Game<X>,
        local: u8,
        options: usize,
        player: u8,
        out: &mut Vec<i64>,
    ) {
        out.extend((0..options).map(|i| Self::value_hint(g, local, i, player)));
    }

    /// What placing its follower kind `local` on `node` (a segment of the tile just placed)
    /// brings `player`, in points, as the policies value a follower option of that kind (the
    /// plain follower's value is the core's). 0 when it has no opinion.
    fn follower_kind_value<X: Holds<Self>>(
        _g: &Game<X>,
        _local: u8,
        _node: u32,
        _player: u8,
    ) -> i64 {
        0
    }

    /// What other players would take (robbers beside it) if `player`'s scoring figure at
    /// `from` on the track moved on by `points` robbable points now; 0 when nothing. Asked by
    /// the policies' hints of an expansion that lets a player choose the figure (the
    /// Messengers), so that a greedy player dodges.
    fn toll<X: Holds<Self>>(_g: &Game<X>, _player: u8, _from: i64, _points: i64) -> i64 {
        0
    }
}
