//! The seam between the core game and the expansions: the points of a turn where an
//! expansion acts ([`Hook`], which may ask decisions; [`Notice`], which may not), what one
//! expansion implements ([`Expansion`]) and what the set of them offers the core
//! ([`Expansions`]). The core (`game.rs`, `turn.rs`, `scoring.rs`, `board.rs`) only calls
//! these; the expansions themselves and their registration live in `expansions/`.

use crate::engine::compiled::Compiled;
use crate::engine::decision::{Choice, DecisionKind, DecisionSpec};
use crate::engine::event::{EventKind, EventSink, EventSpec};
use crate::engine::follower_kind::{FollowerKind, FollowerKindSpec};
use crate::engine::game::Game;
pub use crate::engine::glyph::{Glyph, GlyphArt};
use crate::engine::outcome::{
    Category, Counter, CounterSpec, GameOutcome, SeatCounter, SeatCounterSpec,
};
pub use crate::engine::step::Hook;
use crate::ruleset::{Ruleset, TileIdx};
use crate::tiles::TileType;

/// Something the core tells the expansions in passing; no decision may be asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notice {
    /// A scoring step begins: the turn's completed features (only when there are some).
    ScoringBegins,
    /// Final scoring begins (before the incomplete features).
    FinalScoringBegins,
    /// A feature (union-find root) is scored, `complete` or at the end; `winners` holds its
    /// majority (a bit per seat, 0 = unoccupied). Sent before its points are paid.
    FeatureScored {
        root: u32,
        winners: u8,
        complete: bool,
        /// What the feature is worth (to each winner; paid only when there is one).
        points: i64,
    },
    /// `player`'s score went from `before` up by `points`; `robbable` is false for points an
    /// expansion itself pays out (robber shares).
    PointsScored {
        player: u8,
        before: i64,
        points: i64,
        robbable: bool,
    },
    /// An expansion that splits a player's score over two scoring figures (the Messengers)
    /// moved `player`'s `figure` (0 the scoring meeple, 1 the second figure) from `before`
    /// on the track up by `points`, for points already paid (`PointsScored`); `robbable` as
    /// there. How the robbers learn which figure left which space.
    FigureMoved {
        player: u8,
        figure: u8,
        before: i64,
        points: i64,
        robbable: bool,
    },
    /// An expansion scored an area that is not one feature (a token and the squares around): the
    /// first `len` of `tiles` (indices into [`Game::placed_tiles`]); `winners` (a bit per
    /// seat) scored it, `complete` as in `FeatureScored`. How one expansion tells the
    /// others without reaching into their state (the gold hand-out hears it as a claim).
    AreaScored {
        winners: u8,
        complete: bool,
        tiles: [u32; 8],
        len: u8,
    },
}

/// Which [`Notice`] (what an expansion declares it hears).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heard {
    ScoringBegins,
    FinalScoringBegins,
    FeatureScored,
    PointsScored,
    FigureMoved,
    Area,
}

impl Heard {
    /// How many kinds of notice there are (the last one's index + 1: keep `Area` last).
    pub const COUNT: usize = Heard::Area as usize + 1;
}

impl Notice {
    /// Which notice this is.
    #[inline]
    pub fn kind(&self) -> Heard {
        match self {
            Notice::ScoringBegins => Heard::ScoringBegins,
            Notice::FinalScoringBegins => Heard::FinalScoringBegins,
            Notice::FeatureScored { .. } => Heard::FeatureScored,
            Notice::PointsScored { .. } => Heard::PointsScored,
            Notice::FigureMoved { .. } => Heard::FigureMoved,
            Notice::AreaScored { .. } => Heard::Area,
        }
    }
}

/// One piece of an expansion on the board: where (in tile units: tile (x, y) spans x..x+1
/// and y..y+1, so a piece between two tiles sits on their shared edge), how it looks, whose it
/// is, and its tooltip.
#[derive(Clone, Debug, PartialEq)]
pub struct Piece {
    pub x: f64,
    pub y: f64,
    pub glyph: Glyph,
    pub owner: Option<u8>,
    pub note: String,
}

/// One expansion: its state (this type, stored in the game and copied with it) and what it
/// does at the hooks. Every method has a default that does nothing.
pub trait Expansion: Clone + Default {
    /// The hooks it acts at ([`Expansion::on`] is called only there).
    const HOOKS: &'static [Hook];
    /// Whether, under `rules`, it never acts at `at`, one of its [`Expansion::HOOKS`] (an
    /// option puts its action at another: the robbers' round before or after the tile is
    /// placed): `on` is then not called there.
    fn idle_at(_rules: &Compiled, _at: Hook) -> bool {
        false
    }
    /// The notices it hears ([`Expansion::notice`] is called only for those).
    const HEARS: &'static [Heard];
    /// The decisions it asks, by local index (its `DecisionKind`s are
    /// [`Registered::FIRST_DECISION`] + that index; see [`kind_of`]).
    const DECISIONS: &'static [DecisionSpec] = &[];
    /// The events it emits, by local index (see [`event_of`]).
    const EVENTS: &'static [EventSpec] = &[];
    /// Its scoring categories, by local index (see [`category_of`]).
    const CATEGORIES: &'static [&'static str] = &[];
    /// The counters it keeps per game, by local index (see [`counter_of`]).
    const COUNTERS: &'static [CounterSpec] = &[];
    /// The counts it reports per seat at the end of a game, by local index (see
    /// [`seat_counter_of`]): written by [`Expansion::outcome`] into each seat's result.
    const SEAT_COUNTERS: &'static [SeatCounterSpec] = &[];
    /// The marks it reads on tiles (name, meaning): a tile definition writes the name as a
    /// property (`bazaar`); the tile carries a bit per mark ([`mark_of`]).
    const TILE_MARKS: &'static [(&'static str, &'static str)] = &[];
    /// The kinds of follower it adds beside the plain one (see [`FollowerKindSpec`]: name,
    /// supply per player, weight in a majority, the features it may stand on, whether it
    /// needs its owner's follower already there); its kinds are
    /// [`follower_kind_of::<Self>(i)`](follower_kind_of). When it takes part, each player
    /// gets the supply at the start, and the core's follower decision offers, for each
    /// segment of the new tile in order, the plain follower and then each kind in play that
    /// may stand there (`Choice::Follower { segment, kind }`); a majority is the sum of the
    /// weights, and every kind goes home with the feature it stands on. The core does it all:
    /// the expansion only declares the kinds (and reads them where its own rules care).
    const FOLLOWER_KINDS: &'static [FollowerKindSpec] = &[];
    /// The marks it reads on tile segments (name, the kind of segment it marks, meaning): a
    /// tile definition writes the name after a segment's sides (`road W E inn`,
    /// `city N E S W cathedral`); the compiled segment carries a bit per mark
    /// ([`segment_mark_of`]), and a feature holds the marks of its segments
    /// ([`Game::feature_marks`]).
    const SEGMENT_MARKS: &'static [(&'static str, crate::tiles::FeatureKind, &'static str)] = &[];

    /// Whether it changes what a road, city or cloister is worth
    /// ([`Expansion::feature_points`]).
    const RESCORES: bool = false;

    /// What the feature `root` of `kind`, of `tiles` tiles and `pennants` pennants, is worth
    /// — `complete`, or at the end — given `points`, what the ruleset's formulas (and the
    /// expansions before it) make it worth: an inn on a road doubles it, a cathedral in an
    /// unfinished city makes it 0. Asked when the core scores a feature, and by the policies'
    /// valuations (with the tiles the feature would have), so it reads the board only through
    /// `root`; never for fields.
    fn feature_points<X: Holds<Self>>(
        _g: &Game<X>,
        _root: u32,
        _kind: crate::tiles::FeatureKind,
        _complete: bool,
        _tiles: u32,
        _pennants: u32,
        points: i64,
    ) -> i64 {
        points
    }
    /// Its rule options (keys `name.…`, area `Area::Expansion(name)`): the rule language
    /// reads them with the core's; their values reach the game in `Ruleset::ext`.
    const OPTIONS: &'static [crate::rule_options::OptionDef] = &[];
    /// Its name in the option documentation and in messages (`crop circles`), when it is not
    /// its registered name.
    const TITLE: &'static str = "";
    /// `Some(the word for its tiles in messages: "crop-circle")` when its tiles bring it into
    /// play: a deck holding a tile with one of its [`Expansion::TILE_MARKS`] plays it, each
    /// of its options at its default unless set, and an option of it set without such a
    /// tile is warned about (W0101). `None`: a ruleset that sets one of its options plays it.
    const PLAYED_WITH_TILES: Option<&'static str> = None;
    /// Its tile marks written as a keyword and an argument (`crop city`: the mark named
    /// `crop city` in [`Expansion::TILE_MARKS`]): (the keyword, what its argument is, for
    /// messages: `crop-circle kind`). A tile carries at most one mark of a keyword.
    const MARK_KEYWORDS: &'static [(&'static str, &'static str)] = &[];
    /// Where it acts at a hook that several expansions of a game act at: lower first
    /// (equal: registration order).
    const PRIORITY: i8 = 0;

    /// Whether a ruleset uses this expansion (only those take part in a game).
    fn used_by(rules: &Compiled) -> bool;

    /// Tile types it derives from the ruleset's, never in the pack, that a placed tile may
    /// become in play (a tile with a bridge): `(the tile type it changes, a tag of the
    /// expansion's choosing, the changed type)`. A derived type keeps its base's segments, in
    /// order, and its fields' half-edges; it may add segments after them and turn field edges
    /// into road or city edges ([`Game::retype_tile`]). Asked when the ruleset is compiled.
    fn derive_tiles(_rules: &Ruleset) -> Vec<(TileIdx, u8, TileType)> {
        Vec::new()
    }

    /// Its segment marks (bits of [`segment_mark_of`]) that make a tile's turns differ under
    /// `rules`: a tile whose turns look alike but for such a mark offers each turn (a goods
    /// symbol on one of two cities). Marks of an expansion not in play are inert and tell
    /// nothing apart. Asked when the ruleset is compiled.
    fn telling_marks(_rules: &Ruleset) -> u8 {
        0
    }

    /// Whether it adds placements the edges alone do not allow
    /// ([`Expansion::extra_placements`]).
    const EXTENDS_PLACEMENT: bool = false;

    /// Add to `tile`'s placement options (those its edges allow are already there) the ones
    /// this expansion makes legal, each with a tag it reads back once the tile is placed
    /// ([`Game::push_placement`], [`Game::placement_tag`]).
    fn extra_placements<X: Holds<Self>>(_g: &mut Game<X>, _tile: TileIdx) {}

    /// Whether it may give a turn its tile instead of the pack ([`Expansion::next_tile`]).
    const SUPPLIES_TILES: bool = false;

    /// The tile `player`'s coming turn plays instead of drawing one (a tile bought at a
    /// bazaar), taken from the expansion's state; `None` to draw as usual.
    fn next_tile<X: Holds<Self>>(_g: &mut Game<X>, _player: u8) -> Option<TileIdx> {
        None
    }

    /// Whether it forbids placements the edges allow ([`Expansion::restrict_placements`]).
    /// Games whose expansions restrict nothing never call it: the placement scan stays as
    /// it is.
    const RESTRICTS_PLACEMENT: bool = false;

    /// Remove from `tile`'s placement options (those its edges allow, and those other
    /// expansions added) the ones this expansion forbids, keeping the others in order
    /// ([`Game::keep_placements_at`], [`Game::drop_placements_at`]). Called after
    /// [`Expansion::extra_placements`].
    fn restrict_placements<X: Holds<Self>>(_g: &mut Game<X>, _tile: TileIdx) {}

    /// Whether it forbids follower spots the kinds' own specs allow
    /// ([`Expansion::may_stand`]): a garden takes the abbot only.
    const RESTRICTS_SPOTS: bool = false;

    /// Whether a follower of `kind` may stand on `node` (a segment of a placed tile, its
    /// feature otherwise open to that kind by the core's rules and the kind's spec). Asked
    /// for each spot of the follower decision, and by expansions that deploy elsewhere
    /// ([`Game::may_stand`]), only when the expansion declares [`Expansion::RESTRICTS_SPOTS`].
    fn may_stand<X: Holds<Self>>(_g: &Game<X>, _node: u32, _kind: FollowerKind) -> bool {
        true
    }

    /// Its tile marks whose tiles have four distinct turns whatever their edges and
    /// segments (a flying machine's arrow turns with the tile): the placement scan then
    /// offers each turn of such a tile. Asked when the ruleset is compiled.
    fn oriented_marks(_rules: &Ruleset) -> u32 {
        0
    }

    /// Draw its chance events still to come anew from `key`: a search's determinization
    /// (`Game::determinize`) calls it on a copy, so that the copy does not know a die the
    /// real game has not rolled yet. The real game never calls it.
    fn resample<X: Holds<Self>>(_g: &mut Game<X>, _key: u64) {}

    /// Whether it changes features away from the tile just placed during a turn
    /// ([`Expansion::touched_tile`]): the turn's scoring then looks for completed roads
    /// and cities on those tiles too.
    const TOUCHES_TILES: bool = false;

    /// The `k`-th placed tile (an index into [`Game::placed_tiles`]) other than the tile just
    /// placed whose roads or cities it changed this turn (a ferry moved on a lake), `None`
    /// past the last. The turn's scoring adds the completed roads and cities on them, after
    /// those of the tile placed. Asked only when it declares [`Expansion::TOUCHES_TILES`].
    fn touched_tile<X: Holds<Self>>(_g: &Game<X>, _k: usize) -> Option<u32> {
        None
    }

    /// Whether it orders the pack after the keyed shuffle ([`Expansion::order_deck`]).
    const ORDERS_DECK: bool = false;

    /// Reorder the unseen tiles of the pack (`Game::deck[deck_pos..]`, drawn from the front):
    /// a prelude of tiles played first (the river). Called once the keyed shuffle has made
    /// the pack, and after a search's determinization shuffled the unseen tiles (so sampled
    /// worlds keep the prelude). It must only permute those tiles and read nothing but the
    /// tiles and their order, so draws stay a function of the seed and the keys. Not called
    /// for forced draws (replays).
    fn order_deck<X: Holds<Self>>(_g: &mut Game<X>) {}

    /// Forget the last game, keeping allocations.
    fn reset(&mut self);

    /// Tiles of the pack it holds outside the pack, the board and the hands (tiles turned up
    /// at a bazaar, bought and not played yet): the tile count's invariant adds them.
    fn tiles_held(&self) -> usize {
        0
    }

    /// Its scoring categories (local indices) whose points may be negative (points paid from
    /// one seat to another): the invariant that no score falls leaves them out.
    const TRANSFERS: &'static [u8] = &[];

    /// Check its own invariants in the position `g` (pieces conserved…): a violation in
    /// words. Called by `engine::invariants` after every move.
    fn check_invariants<X: Holds<Self>>(_g: &Game<X>) -> Result<(), String> {
        Ok(())
    }

    /// Heap bytes the state holds (what a copy of the game copies besides the value).
    fn heap_bytes(&self) -> usize {
        0
    }

    /// Write this expansion's part of the outcome (counters, per-seat values).
    fn outcome(&self, _out: &mut GameOutcome) {}

    /// What this expansion holds for `seat` now (ingots, a robber's space…), as one word for
    /// the end-of-turn state hash; 0 when nothing.
    fn seat_state(&self, _seat: usize) -> u64 {
        0
    }

    /// Read this expansion's options from the game's ruleset into its state. Called before
    /// [`Expansion::set_up`], and again when a position moves onto other rules
    /// ([`Game::with_rules`]), so an option always takes its value from the rules the game is
    /// played under; only the options go here, never the position (supplies dealt, pieces).
    fn configure<X: Holds<Self>>(_g: &mut Game<X>) {}

    /// The game is set up (the start tile placed, hands dealt, [`Expansion::configure`] run):
    /// deal what the expansion gives each seat at the start (a supply of tokens). No decision
    /// may be asked.
    fn set_up<X: Holds<Self>>(_g: &mut Game<X>) {}

    /// Act at `at`: `answer` is `None` on entering the hook, else the option chosen for the
    /// decision this expansion asked last. True when it asked a decision (the turn pauses).
    fn on<X: Holds<Self>, S: EventSink>(
        _g: &mut Game<X>,
        _s: &mut S,
        _at: Hook,
        _answer: Option<usize>,
    ) -> bool {
        false
    }

    /// Hear a notice.
    fn notice<X: Holds<Self>, S: EventSink>(_g: &mut Game<X>, _s: &mut S, _n: Notice) {}

    /// What its pieces on the board are expected to bring each seat by the end, in points
    /// (added to `out`, indexed by seat): the heuristic's evaluation adds it to what the
    /// core's features are worth. Pieces whose points the core already counts add nothing.
    fn expected_points<X: Holds<Self>>(_g: &Game<X>, _out: &mut [f64]) {}

    /// Whether the heuristic values what its seats hold and may take from features
    /// ([`Expansion::counts_unseen`], [`Expansion::value_holdings`],
    /// [`Expansion::feature_share`]): a unit (an ingot) worth a rate per seat. At most one
    /// registered expansion may say so (the registry checks it), so the rate is its own.
    const VALUES_HOLDINGS: bool = false;

    /// Whether an unseen tile brings more of what it values ([`Expansion::value_holdings`]
    /// gets how many of the tiles hidden from the evaluating seat do): a gold tile.
    fn counts_unseen<X: Holds<Self>>(_g: &Game<X>, _tile: TileIdx) -> bool {
        false
    }

    /// The heuristic's evaluation of a game not finished, before its features: with
    /// `unseen` tiles still to come that [`Expansion::counts_unseen`], write per seat what
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

    /// Its pieces on the board now (its layer of the SVG board).
    fn board_pieces<X: Holds<Self>>(_g: &Game<X>, _out: &mut Vec<Piece>) {}

    /// The legend of its layer: each glyph it draws and what it means.
    const LEGEND: &'static [(Glyph, &'static str)] = &[];

    /// What a completed city (`root`) next to a field is worth to the field's farmers beyond
    /// the ruleset's points per city (a token built on it: one more, say); 0 when it has no
    /// say. Asked at
    /// final scoring only.
    fn farm_city_bonus<X: Holds<Self>>(_g: &Game<X>, _root: u32) -> i64 {
        0
    }

    /// Option `i` of its decision `local` (an index into [`Expansion::DECISIONS`]) now
    /// asked, in semantic form.
    fn choice<X: Holds<Self>>(_g: &Game<X>, local: u8, _i: usize) -> Choice {
        unreachable!(
            "{} asks no decision #{local}",
            std::any::type_name::<Self>()
        )
    }

    /// How many options its decision `local`, now asked, has.
    fn option_count<X: Holds<Self>>(_g: &Game<X>, _local: u8) -> usize {
        0
    }

    /// Its value hint for option `i` of its decision `local`, now asked of `player`: what
    /// the option brings `player` now, in points or a rank (higher is better; the `greedy`
    /// policy takes the best, the heuristic's rollouts too). 0 when it has no opinion.
    fn value_hint<X: Holds<Self>>(_g: &Game<X>, _local: u8, _i: usize, _player: u8) -> i64 {
        0
    }

    /// The value hints of options `0..options` of its decision `local`, now asked of
    /// `player`, appended to `out`: exactly [`Expansion::value_hint`] of each. A module whose
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

    /// How many equally likely outcomes option `i` of its decision `local`, now asked, draws
    /// at once (a die: 3), 0 when none. A policy that tries the option on a copy tries each
    /// outcome ([`Expansion::force_outcome`]) and averages, instead of reading the real draw.
    fn chance_outcomes<X: Holds<Self>>(_g: &Game<X>, _local: u8, _i: usize) -> u8 {
        0
    }

    /// Make the next draw of the chance event its decision `local` brings outcome `k`
    /// (`0..chance_outcomes`): on a copy a policy tries.
    fn force_outcome<X: Holds<Self>>(_g: &mut Game<X>, _local: u8, _k: u8) {}

    /// Whether it may give a player another tile in the same turn
    /// ([`Expansion::another_tile`]).
    const GRANTS_TILES: bool = false;

    /// At the end of `player`'s turn: whether that player takes another tile now (a
    /// builder's double turn). When an expansion says yes, the coming turn is `player`'s
    /// again, drawn from the pack as usual, and the seat order goes on after it as if that
    /// turn had not been there. The expansion keeps count itself (at most one extra tile a
    /// turn: say no for the extra turn).
    fn another_tile<X: Holds<Self>>(_g: &mut Game<X>, _player: u8) -> bool {
        false
    }

    /// What a field's farmers of seat `player`, a winner of the field `root`, score per
    /// completed city beyond everyone's share (a pig: 1 more); 0 when it has no say. Asked at
    /// final scoring only, for each winner of each field.
    fn farm_winner_bonus<X: Holds<Self>>(_g: &Game<X>, _root: u32, _player: u8) -> i64 {
        0
    }

    /// How many of its follower kind `local` (an index into [`Expansion::FOLLOWER_KINDS`])
    /// each player gets under `rules`: the kind's declared supply unless a rule option says
    /// otherwise (JCloisterZone's `pig: 2`).
    fn follower_supply(_rules: &Compiled, local: u8) -> u8 {
        Self::FOLLOWER_KINDS
            .get(local as usize)
            .map_or(0, |k| k.supply)
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

    /// Why a position of a game under `from` that this expansion takes part in cannot be held
    /// under `to` (which it takes part in too), in words naming both rulesets: a rule its
    /// state depends on differs (the length of the robbers' score track). `None` when it can;
    /// asked by `Game::with_rules` after the core's checks.
    fn cannot_hold(_from: &Compiled, _to: &Compiled) -> Option<String> {
        None
    }

    /// A combination of rules in `rules` that this expansion cannot play, or that its rules
    /// forbid or leave undefined (the river's tiles behind a start tile that is no river
    /// tile…), naming the conflict; `None` when it has nothing against the ruleset. Asked of
    /// every registered expansion when the rule language builds a ruleset: a conflict is
    /// error E0603, pointed at the statement it is about.
    fn conflict(_rules: &Ruleset) -> Option<Conflict> {
        None
    }

    /// Whether it splits a player's score over scoring figures of its own
    /// ([`Expansion::scoring_figures`]).
    const SPLITS_SCORE: bool = false;

    /// Where `player`'s two scoring figures stand on the score track now (their sum and
    /// the points not yet moved make the score), when this expansion splits the score (the
    /// Messengers); `None` when the score is one marker (also once the figures are one
    /// again, at final scoring). Asked by expansions that read the track (the robbers),
    /// only of those that declare [`Expansion::SPLITS_SCORE`].
    fn scoring_figures<X: Holds<Self>>(_g: &Game<X>, _player: u8) -> Option<[i64; 2]> {
        None
    }

    /// What other players would take (robbers beside it) if `player`'s scoring figure at
    /// `from` on the track moved on by `points` robbable points now; 0 when nothing. Asked by
    /// the policies' hints of an expansion that lets a player choose the figure (the
    /// Messengers), so that a greedy player dodges.
    fn toll<X: Holds<Self>>(_g: &Game<X>, _player: u8, _from: i64, _points: i64) -> i64 {
        0
    }

    /// Columns it adds to the score table under the SVG board, for `seat`: each a header and
    /// the seat's count (goods tokens held, say), the same headers for every seat.
    fn seat_columns<X: Holds<Self>>(_g: &Game<X>, _seat: u8, _out: &mut Vec<(&'static str, i64)>) {}

    // Presentation: what it adds to the CLI's and the board's output. Each is asked of every
    // registered expansion, in play or not, in registration order (a module decides from
    // the rules whether it has something to show).

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

/// What an expansion draws on a tile of the SVG board ([`Expansion::tile_art`]), in drawing
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

/// Rules an expansion cannot play together ([`Expansion::conflict`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// What is wrong, in words naming the expansion and the conflict.
    pub text: String,
    /// The statement the diagnostic points at.
    pub about: ConflictAbout,
}

/// The statement of a ruleset a [`Conflict`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConflictAbout {
    /// The `start` tile.
    Start,
    /// The deck (its last item).
    Deck,
}

/// Where the registry put an expansion (implemented by `expansions/mod.rs` for each member).
pub trait Registered {
    /// Its first decision kind (the core's come first, then each member's in order).
    const FIRST_DECISION: u8;
    /// Its first event kind (each member's in order).
    const FIRST_EVENT: u8;
    /// Its first scoring category (the core's first, then each member's in order).
    const FIRST_CATEGORY: u8;
    /// Its first counter (each member's in order).
    const FIRST_COUNTER: u8;
    /// Its first per-seat counter (each member's in order).
    const FIRST_SEAT_COUNTER: u8;
    /// Its first tile mark (each member's in order).
    const FIRST_MARK: u8;
    /// Its first follower kind (the core's plain follower first, then each member's in
    /// order).
    const FIRST_FOLLOWER_KIND: u8;
    /// Its first segment mark (each member's in order).
    const FIRST_SEGMENT_MARK: u8;
}

/// The decision kind of expansion `T`'s decision `local` (an index into its
/// [`Expansion::DECISIONS`]).
pub const fn kind_of<T: Registered>(local: u8) -> DecisionKind {
    DecisionKind(T::FIRST_DECISION + local)
}

/// The event kind of expansion `T`'s event `local` (an index into its
/// [`Expansion::EVENTS`]).
pub const fn event_of<T: Registered>(local: u8) -> EventKind {
    EventKind(T::FIRST_EVENT + local)
}

/// Expansion `T`'s scoring category `local` (an index into its [`Expansion::CATEGORIES`]).
pub const fn category_of<T: Registered>(local: u8) -> Category {
    Category(T::FIRST_CATEGORY + local)
}

/// Expansion `T`'s counter `local` (an index into its [`Expansion::COUNTERS`]).
pub const fn counter_of<T: Registered>(local: u8) -> Counter {
    Counter(T::FIRST_COUNTER + local)
}

/// Expansion `T`'s per-seat counter `local` (an index into its
/// [`Expansion::SEAT_COUNTERS`]).
pub const fn seat_counter_of<T: Registered>(local: u8) -> SeatCounter {
    SeatCounter(T::FIRST_SEAT_COUNTER + local)
}

/// The bit of expansion `T`'s tile mark `local` (an index into its
/// [`Expansion::TILE_MARKS`]) in a tile's marks.
pub const fn mark_of<T: Registered>(local: u8) -> u32 {
    1 << (T::FIRST_MARK + local)
}

/// Expansion `T`'s follower kind `local` (an index into its
/// [`Expansion::FOLLOWER_KINDS`]).
pub const fn follower_kind_of<T: Registered>(local: u8) -> FollowerKind {
    FollowerKind(T::FIRST_FOLLOWER_KIND + local)
}

/// The bit of expansion `T`'s segment mark `local` (an index into its
/// [`Expansion::SEGMENT_MARKS`]) in a segment's marks.
pub const fn segment_mark_of<T: Registered>(local: u8) -> u8 {
    1 << (T::FIRST_SEGMENT_MARK + local)
}

/// The set of expansions a game carries (see `expansions/mod.rs`), as the core sees it.
pub trait Expansions: Clone + Sized {
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
    /// Tiles the expansions taking part hold (see [`Expansion::tiles_held`]).
    fn tiles_held(&self) -> usize;
    /// Whether points of category `c` may be negative (see [`Expansion::TRANSFERS`]).
    fn may_fall(c: Category) -> bool;
    /// The follower kinds in play, a bit per [`FollowerKind`] index: the plain follower's
    /// (bit 0, always) and those the expansions taking part declare.
    fn follower_kinds(&self) -> u32;
    /// Whether an expansion taking part changes what features are worth.
    fn rescores(&self) -> bool;
    /// What feature `root` is worth after the expansions taking part have their say (see
    /// [`Expansion::feature_points`]), in registration order.
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
    /// [`Expansion::check_invariants`]).
    fn check_invariants(g: &Game<Self>) -> Result<(), String>;
    /// Whether any expansion taking part acts at `at` (the turn skips the hook if not).
    fn acts_at(&self, at: Hook) -> bool;
    /// Whether an expansion taking part adds placements (see
    /// [`Expansion::extra_placements`]).
    fn extends_placement(&self) -> bool;
    /// Add the placements of `tile` the expansions taking part make legal.
    fn extra_placements(g: &mut Game<Self>, tile: TileIdx);
    /// Whether an expansion taking part adds or forbids placements (the placement scan
    /// then calls [`Expansions::adjust_placements`]).
    fn adjusts_placement(&self) -> bool;
    /// Whether an expansion taking part forbids placements (see
    /// [`Expansion::restrict_placements`]).
    fn restricts_placement(&self) -> bool;
    /// Add the placements of `tile` the expansions taking part make legal, then remove
    /// those they forbid.
    fn adjust_placements(g: &mut Game<Self>, tile: TileIdx);
    /// Whether an expansion taking part forbids follower spots (see
    /// [`Expansion::may_stand`]).
    fn restricts_spots(&self) -> bool;
    /// Whether every expansion taking part lets a follower of `kind` stand on `node`.
    fn may_stand(g: &Game<Self>, node: u32, kind: FollowerKind) -> bool;
    /// Let the expansions taking part draw their coming chance events anew from `key` (see
    /// [`Expansion::resample`]).
    fn resample(g: &mut Game<Self>, key: u64);
    /// Whether an expansion taking part changes features away from the tile just placed
    /// (see [`Expansion::touched_tile`]).
    fn touches_tiles(&self) -> bool;
    /// The `k`-th tile the expansions taking part changed this turn, in registration order
    /// (see [`Expansion::touched_tile`]).
    fn touched_tile(g: &Game<Self>, k: usize) -> Option<u32>;
    /// Whether an expansion taking part orders the pack (see [`Expansion::order_deck`]).
    fn orders_deck(&self) -> bool;
    /// Let the expansions taking part order the freshly shuffled pack.
    fn order_deck(g: &mut Game<Self>);
    /// Whether an expansion taking part may give a turn its tile.
    fn supplies_tiles(&self) -> bool;
    /// The tile an expansion gives `player`'s coming turn, if any (see
    /// [`Expansion::next_tile`]).
    fn next_tile(g: &mut Game<Self>, player: u8) -> Option<TileIdx>;
    /// Write the expansions' parts of the outcome.
    fn outcome(&self, out: &mut GameOutcome);
    /// What the expansions hold for `seat` now, as one word (see [`Expansion::seat_state`]).
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
    /// The options of every expansion taking part read anew (see [`Expansion::configure`]).
    fn configure(g: &mut Game<Self>);
    /// The set-up of every expansion taking part (see [`Expansion::set_up`]).
    fn set_up(g: &mut Game<Self>);
    /// What the pieces of the expansions taking part are expected to bring each seat (see
    /// [`Expansion::expected_points`]).
    fn expected_points(g: &Game<Self>, out: &mut [f64]);
    /// Whether the expansion taking part that values holdings does (see
    /// [`Expansion::VALUES_HOLDINGS`]).
    fn values_holdings(&self) -> bool;
    /// Whether tile `tile` counts for the valuing expansion (see
    /// [`Expansion::counts_unseen`]).
    fn counts_unseen(g: &Game<Self>, tile: TileIdx) -> bool;
    /// See [`Expansion::value_holdings`].
    fn value_holdings(g: &Game<Self>, unseen: u32, held: &mut [f64], rate: &mut [f64]);
    /// See [`Expansion::feature_share`].
    fn feature_share(
        g: &Game<Self>,
        root: u32,
        kind: crate::tiles::FeatureKind,
        closes: f64,
        winners: u8,
        tiles: &mut Vec<u32>,
    ) -> f64;
    /// The pieces of the expansions taking part (their layers of the SVG board).
    fn board_pieces(g: &Game<Self>, out: &mut Vec<Piece>);
    /// The legend entries of the expansions taking part.
    fn legend(&self) -> Vec<(Glyph, &'static str)>;
    /// The expansions' bonus for a completed city next to a field (see
    /// [`Expansion::farm_city_bonus`]), summed over those taking part.
    fn farm_city_bonus(g: &Game<Self>, root: u32) -> i64;
    /// Option `i` of expansion decision `kind`, now asked (see [`Expansion::choice`]).
    fn choice(g: &Game<Self>, kind: DecisionKind, i: usize) -> Choice;
    /// How many options expansion decision `kind`, now asked, has.
    fn option_count(g: &Game<Self>, kind: DecisionKind) -> usize;
    /// The value hint for option `i` of expansion decision `kind` (see
    /// [`Expansion::value_hint`]).
    fn value_hint(g: &Game<Self>, kind: DecisionKind, i: usize, player: u8) -> i64;
    /// The value hints of options `0..options` of expansion decision `kind`, appended to
    /// `out` (see [`Expansion::value_hints`]).
    fn value_hints(
        g: &Game<Self>,
        kind: DecisionKind,
        options: usize,
        player: u8,
        out: &mut Vec<i64>,
    );
    /// The equally likely outcomes option `i` of expansion decision `kind` draws (see
    /// [`Expansion::chance_outcomes`]).
    fn chance_outcomes(g: &Game<Self>, kind: DecisionKind, i: usize) -> u8;
    /// Force outcome `k` of the chance event expansion decision `kind` brings (see
    /// [`Expansion::force_outcome`]).
    fn force_outcome(g: &mut Game<Self>, kind: DecisionKind, k: u8);
    /// Whether an expansion taking part may give a player another tile in a turn.
    fn grants_tiles(&self) -> bool;
    /// Whether an expansion gives `player` another tile now (see
    /// [`Expansion::another_tile`]): the first that says yes.
    fn another_tile(g: &mut Game<Self>, player: u8) -> bool;
    /// The expansions' per-city bonus for `player`, a winner of field `root` (see
    /// [`Expansion::farm_winner_bonus`]), summed over those taking part.
    fn farm_winner_bonus(g: &Game<Self>, root: u32, player: u8) -> i64;
    /// Why a position under `from` cannot be held under `to`, asked of the expansions `from`
    /// uses (see [`Expansion::cannot_hold`]); the first reason in registration order.
    fn cannot_hold(from: &Compiled, to: &Compiled) -> Option<String>;
    /// How many of follower kind `kind` (not the plain one) each player gets under `rules`
    /// (see [`Expansion::follower_supply`]).
    fn follower_supply(rules: &Compiled, kind: FollowerKind) -> u8;
    /// What a follower option of kind `kind` (not the plain one) on `node` brings `player`
    /// (see [`Expansion::follower_kind_value`]).
    fn follower_kind_value(g: &Game<Self>, kind: FollowerKind, node: u32, player: u8) -> i64;
    /// Where `player`'s scoring figures stand, when an expansion taking part splits the
    /// score (see [`Expansion::scoring_figures`]): the first that answers.
    fn scoring_figures(g: &Game<Self>, player: u8) -> Option<[i64; 2]>;
    /// What the expansions taking part would take from a move of `player`'s figure (see
    /// [`Expansion::toll`]), summed.
    fn toll(g: &Game<Self>, player: u8, from: i64, points: i64) -> i64;
    /// The score-table columns of the expansions taking part for `seat` (see
    /// [`Expansion::seat_columns`]), in registration order.
    fn seat_columns(g: &Game<Self>, seat: u8, out: &mut Vec<(&'static str, i64)>);
}

/// A set of expansions that holds the state `T` (how an expansion finds its own state).
pub trait Holds<T>: Expansions {
    fn state(&self) -> &T;
    fn state_mut(&mut self) -> &mut T;
}
