//! The set of expansions a game carries, as the core sees it: [`Expansions`] (what the
//! core's turn, scoring, placement scan and invariants call: the members' rules, in acting
//! order), [`ExpansionsValuation`] (what the policies ask of the members taking part) and
//! [`ExpansionsPresentation`] (what the render layer asks), its supertraits, and [`Holds`],
//! how an expansion finds its own state in the set. One type implements them all: the
//! registry's `Set` (`expansions/dispatch.rs`).

use crate::engine::compiled::Compiled;
use crate::engine::decision::{Choice, DecisionKind, Wording};
use crate::engine::event::EventSink;
use crate::engine::follower_kind::FollowerKind;
use crate::engine::game::Game;
use crate::engine::glyph::Glyph;
use crate::engine::hooks::{Hook, Notice, Piece};
use crate::engine::outcome::{Category, GameOutcome};
use crate::ruleset::TileIdx;

/// The set of expansions a game carries (see `expansions/mod.rs`), as the core sees it: its
/// rules here, what the policies and the presentation ask of it in [`ExpansionsValuation`]
/// and [`ExpansionsPresentation`].
pub trait Expansions: Clone + Sized + ExpansionsValuation + ExpansionsPresentation {
    /// The states for a game under `rules` (which expansions take part, in which order).
    fn for_rules(rules: &Compiled) -> Self;
    /// Forget the last game, keeping allocations.
    fn reset(&mut self);
    /// The names of the expansions taking part, in registration order (what a position's
    /// state holds besides the core: two rulesets with the same list can hold it alike).
    fn taking_part(&self) -> Vec<&'static str>;
    /// Whether any expansion takes part (a plain game's set-up reads no options).
    fn any_taking_part(&self) -> bool;
    /// Heap bytes the states hold.
    fn heap_bytes(&self) -> usize;
    /// Tiles the expansions taking part hold (see
    /// [`Expansion::tiles_held`](super::Expansion::tiles_held)).
    fn tiles_held(&self) -> usize;
    /// Whether points of category `c` may be negative (see
    /// [`Expansion::TRANSFERS`](super::Expansion::TRANSFERS)).
    fn may_fall(c: Category) -> bool;
    /// The follower kinds in play, a bit per [`FollowerKind`] index: the plain follower's
    /// (bit 0, always) and those the expansions taking part declare.
    fn follower_kinds(&self) -> u32;
    /// Whether an expansion taking part changes what features are worth.
    fn rescores(&self) -> bool;
    /// What feature `root` is worth after the expansions taking part have their say (see
    /// [`Expansion::feature_points`](super::Expansion::feature_points)), in registration order.
    #[allow(clippy::too_many_arguments)]
    fn feature_points(
        g: &Game<Self>,
        root: u32,
        kind: crate::tiles::FeatureKind,
        complete: bool,
        tiles: u32,
        pennants: u32,
        points: i64,
    ) -> i64;
    /// Check the invariants of every expansion taking part (see
    /// [`Expansion::check_invariants`](super::Expansion::check_invariants)).
    fn check_invariants(g: &Game<Self>) -> Result<(), String>;
    /// Whether any expansion taking part acts at `at` the next time the turn comes to it
    /// (the turn skips the hook if not): one acting there at every visit, or one armed there
    /// (see [`Expansion::ARMED`](super::Expansion::ARMED)).
    fn acts_at(&self, at: Hook) -> bool;
    /// Whether an expansion taking part is armed by the marks of a turn's tile or by the
    /// figures its player has out (see [`Expansion::ARMED`](super::Expansion::ARMED),
    /// [`Expansion::ARMED_BY_FIGURE`](super::Expansion::ARMED_BY_FIGURE)).
    fn wakes_by_turn(&self) -> bool;
    /// A turn begins with a tile of tile marks `marks`, its player holding `held` of each
    /// follower kind: arm the expansions those marks arm, and those armed by a kind the
    /// player has out of its supply.
    fn wake_for_turn(
        &mut self,
        marks: u32,
        held: &[u8; crate::engine::follower_kind::FollowerKind::COUNT],
    );
    /// The board's features changed after a tile's placement: arm the expansions such a
    /// change arms (see [`Expansion::ARMED_BY_EDIT`](super::Expansion::ARMED_BY_EDIT)).
    fn wake_for_edit(&mut self);
    /// Whether an expansion taking part hears the tile-placed notice.
    fn hears_placement(&self) -> bool;
    /// Whether an expansion taking part adds placements (see
    /// [`Expansion::extra_placements`](super::Expansion::extra_placements)).
    fn extends_placement(&self) -> bool;
    /// Add the placements of `tile` the expansions taking part make legal.
    fn extra_placements(g: &mut Game<Self>, tile: TileIdx);
    /// Whether an expansion taking part adds or forbids placements (the placement scan
    /// then calls [`Expansions::adjust_placements`]).
    fn adjusts_placement(&self) -> bool;
    /// Whether an expansion taking part forbids placements (see
    /// [`Expansion::restrict_placements`](super::Expansion::restrict_placements)).
    fn restricts_placement(&self) -> bool;
    /// Add the placements of `tile` the expansions taking part make legal, then remove
    /// those they forbid.
    fn adjust_placements(g: &mut Game<Self>, tile: TileIdx);
    /// Whether an expansion taking part forbids follower spots (see
    /// [`Expansion::may_stand`](super::Expansion::may_stand)).
    fn restricts_spots(&self) -> bool;
    /// Whether every expansion taking part lets a follower of `kind` stand on `node`.
    fn may_stand(g: &Game<Self>, node: u32, kind: FollowerKind) -> bool;
    /// Whether an expansion taking part may refuse a spot on the placed tile at `pidx` this
    /// turn (see [`Expansion::may_refuse_on`](super::Expansion::may_refuse_on)).
    fn may_refuse_on(g: &Game<Self>, pidx: usize) -> bool;
    /// Let the expansions taking part draw their coming chance events anew from `key` (see
    /// [`Expansion::resample`](super::Expansion::resample)).
    fn resample(g: &mut Game<Self>, key: u64);
    /// Whether an expansion taking part changes features away from the tile just placed
    /// (see [`Expansion::touched_tile`](super::Expansion::touched_tile)).
    fn touches_tiles(&self) -> bool;
    /// The `k`-th tile the expansions taking part changed this turn, in registration order
    /// (see [`Expansion::touched_tile`](super::Expansion::touched_tile)).
    fn touched_tile(g: &Game<Self>, k: usize) -> Option<u32>;
    /// Whether an expansion taking part orders the pack (see
    /// [`Expansion::order_deck`](super::Expansion::order_deck)).
    fn orders_deck(&self) -> bool;
    /// Let the expansions taking part order the freshly shuffled pack.
    fn order_deck(g: &mut Game<Self>);
    /// Whether an expansion taking part may give a turn its tile.
    fn supplies_tiles(&self) -> bool;
    /// The tile an expansion gives `player`'s coming turn, if any (see
    /// [`Expansion::next_tile`](super::Expansion::next_tile)).
    fn next_tile(g: &mut Game<Self>, player: u8) -> Option<TileIdx>;
    /// Write the expansions' parts of the outcome.
    fn outcome(&self, out: &mut GameOutcome);
    /// What the expansions hold for `seat` now, as one word (see
    /// [`Expansion::seat_state`](super::Expansion::seat_state)).
    fn seat_state(&self, seat: usize) -> u64;
    /// Run hook `at` from the `from`-th taking part (`answer`: the option chosen for that
    /// one's decision). `Some(k)` when the `k`-th asked a decision, `None` when all are done.
    fn run<S: EventSink>(
        g: &mut Game<Self>,
        s: &mut S,
        at: Hook,
        from: u8,
        answer: Option<usize>,
    ) -> Option<u8>;
    /// Tell every expansion taking part.
    fn notify<S: EventSink>(g: &mut Game<Self>, s: &mut S, n: Notice);
    /// The options of every expansion taking part read anew (see
    /// [`Expansion::configure`](super::Expansion::configure)).
    fn configure(g: &mut Game<Self>);
    /// The set-up of every expansion taking part (see
    /// [`Expansion::set_up`](super::Expansion::set_up)).
    fn set_up(g: &mut Game<Self>);
    /// The expansions' bonus for a completed city next to a field (see
    /// [`Expansion::farm_city_bonus`](super::Expansion::farm_city_bonus)), summed over
    /// those taking part.
    fn farm_city_bonus(g: &Game<Self>, root: u32) -> i64;
    /// Option `i` of expansion decision `kind`, now asked (see
    /// [`Expansion::choice`](super::Expansion::choice)).
    fn choice(g: &Game<Self>, kind: DecisionKind, i: usize) -> Choice;
    /// How many options expansion decision `kind`, now asked, has.
    fn option_count(g: &Game<Self>, kind: DecisionKind) -> usize;
    /// The equally likely outcomes option `i` of expansion decision `kind` draws (see
    /// [`Expansion::chance_outcomes`](super::Expansion::chance_outcomes)).
    fn chance_outcomes(g: &Game<Self>, kind: DecisionKind, i: usize) -> u8;
    /// Force outcome `k` of the chance event expansion decision `kind` brings (see
    /// [`Expansion::force_outcome`](super::Expansion::force_outcome)).
    fn force_outcome(g: &mut Game<Self>, kind: DecisionKind, k: u8);
    /// Whether an expansion taking part may give a player another tile in a turn.
    fn grants_tiles(&self) -> bool;
    /// Whether an expansion gives `player` another tile now (see
    /// [`Expansion::another_tile`](super::Expansion::another_tile)): the first that says yes.
    fn another_tile(g: &mut Game<Self>, player: u8) -> bool;
    /// The expansions' per-city bonus for `player`, a winner of field `root` (see
    /// [`Expansion::farm_winner_bonus`](super::Expansion::farm_winner_bonus)), summed over
    /// those taking part.
    fn farm_winner_bonus(g: &Game<Self>, root: u32, player: u8) -> i64;
    /// Why a position under `from` cannot be held under `to`, asked of the expansions
    /// `from` uses (see [`Expansion::cannot_hold`](super::Expansion::cannot_hold)); the
    /// first reason in registration order.
    fn cannot_hold(from: &Compiled, to: &Compiled) -> Option<String>;
    /// How many of follower kind `kind` (not the plain one) each player gets under `rules`
    /// (see [`Expansion::follower_supply`](super::Expansion::follower_supply)).
    fn follower_supply(rules: &Compiled, kind: FollowerKind) -> u8;
    /// Where `player`'s scoring figures stand, when an expansion taking part splits the
    /// score (see [`Expansion::scoring_figures`](super::Expansion::scoring_figures)): the
    /// first that answers.
    fn scoring_figures(g: &Game<Self>, player: u8) -> Option<[i64; 2]>;
}

/// A set of expansions that holds the state `T` (how an expansion finds its own state).
pub trait Holds<T>: Expansions {
    fn state(&self) -> &T;
    fn state_mut(&mut self) -> &mut T;
    /// Arm `T` at hook `at`, one of its [`Expansion::ARMED`](super::Expansion::ARMED) hooks:
    /// its `on` is called there the next time the turn comes to it.
    fn arm(&mut self, at: Hook);
}

/// What the set of expansions offers the policies (a supertrait of
/// [`Expansions`]): each member's [`Valuation`](super::Valuation), asked of those taking part.
pub trait ExpansionsValuation: Sized {
    /// What the pieces of the expansions taking part are expected to bring each seat (see
    /// [`Valuation::expected_points`](super::Valuation::expected_points)).
    fn expected_points(g: &Game<Self>, out: &mut [f64]);
    /// Whether the expansion taking part that values holdings does (see
    /// [`Valuation::VALUES_HOLDINGS`](super::Valuation::VALUES_HOLDINGS)).
    fn values_holdings(&self) -> bool;
    /// Whether tile `tile` counts for the valuing expansion (see
    /// [`Valuation::counts_unseen`](super::Valuation::counts_unseen)).
    fn counts_unseen(g: &Game<Self>, tile: TileIdx) -> bool;
    /// See [`Valuation::value_holdings`](super::Valuation::value_holdings).
    fn value_holdings(g: &Game<Self>, unseen: u32, held: &mut [f64], rate: &mut [f64]);
    /// See [`Valuation::feature_share`](super::Valuation::feature_share).
    fn feature_share(
        g: &Game<Self>,
        root: u32,
        kind: crate::tiles::FeatureKind,
        closes: f64,
        winners: u8,
        tiles: &mut Vec<u32>,
    ) -> f64;
    /// The value hint for option `i` of expansion decision `kind` (see
    /// [`Valuation::value_hint`](super::Valuation::value_hint)).
    fn value_hint(g: &Game<Self>, kind: DecisionKind, i: usize, player: u8) -> i64;
    /// The value hints of options `0..options` of expansion decision `kind`, appended to
    /// `out` (see [`Valuation::value_hints`](super::Valuation::value_hints)).
    fn value_hints(
        g: &Game<Self>,
        kind: DecisionKind,
        options: usize,
        player: u8,
        out: &mut Vec<i64>,
    );
    /// What a follower option of kind `kind` (not the plain one) on `node` brings `player`
    /// (see [`Valuation::follower_kind_value`](super::Valuation::follower_kind_value)).
    fn follower_kind_value(g: &Game<Self>, kind: FollowerKind, node: u32, player: u8) -> i64;
    /// What the expansions taking part would take from a move of `player`'s figure (see
    /// [`Valuation::toll`](super::Valuation::toll)), summed.
    fn toll(g: &Game<Self>, player: u8, from: i64, points: i64) -> i64;
}

/// What the set of expansions shows (a supertrait of [`Expansions`]):
/// each member's [`Presentation`](super::Presentation), asked of those taking part.
pub trait ExpansionsPresentation: Sized {
    /// The pieces of the expansions taking part (their layers of the SVG board).
    fn board_pieces(g: &Game<Self>, out: &mut Vec<Piece>);
    /// The legend entries of the expansions taking part.
    fn legend(&self) -> Vec<(Glyph, &'static str)>;
    /// The score-table columns of the expansions taking part for `seat` (see
    /// [`Presentation::seat_columns`](super::Presentation::seat_columns)), in registration
    /// order.
    fn seat_columns(g: &Game<Self>, seat: u8, out: &mut Vec<(&'static str, i64)>);
    /// How option `c` of expansion decision `kind` reads in `how`'s place, in the words of
    /// the module that asks it (see
    /// [`Presentation::choice_words`](super::Presentation::choice_words)).
    fn choice_words(kind: DecisionKind, c: &Choice, how: Wording) -> Option<String>;
}
