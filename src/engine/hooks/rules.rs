//! One expansion's rules ([`Expansion`]): its state, what it declares (options, decisions,
//! events, categories, counters, marks, follower kinds) and what it does at the core's hooks
//! and notices, where it places, scores, checks its invariants and writes its outcome. All a
//! game's play depends on is here; what the policies make of an expansion is its
//! [`Valuation`] and what it shows its [`Presentation`], its supertraits.

use crate::engine::compiled::Compiled;
use crate::engine::decision::{Choice, DecisionSpec};
use crate::engine::event::{EventSink, EventSpec};
use crate::engine::follower_kind::{FollowerKind, FollowerKindSpec};
use crate::engine::game::Game;
use crate::engine::hooks::{Conflict, Heard, Holds, Hook, Notice, Presentation, Valuation};
use crate::engine::outcome::{CounterSpec, GameOutcome, SeatCounterSpec};
use crate::ruleset::{Ruleset, TileIdx};
use crate::tiles::TileType;

/// One expansion's rules: its state (this type, stored in the game and copied with it) and
/// what it does at the hooks. Every method has a default that does nothing. What the
/// policies make of it is its [`Valuation`], what it shows its [`Presentation`].
pub trait Expansion: Clone + Default + Valuation + Presentation {
    /// The hooks it acts at ([`Expansion::on`] is called only there).
    const HOOKS: &'static [Hook];
    /// The hooks among [`Expansion::HOOKS`] where [`Expansion::on`] acts only once armed,
    /// each with the tile marks that arm it there: a turn whose tile bears one of them arms
    /// it when the tile is drawn, and the expansion arms itself with [`Holds::arm`] when
    /// something happens that it will act on there (points to carry, a claim to hand out).
    /// The dispatch disarms it as it enters its `on` there afresh, and skips its `on` while
    /// it is disarmed, so such an `on` must do nothing at all then, not even write its state:
    /// arming is a promise that nothing is missed, arming too often only costs time. (Speed
    /// only, for the hooks most turns pass without work: a turn skips a hook where every
    /// member is disarmed.)
    const ARMED: &'static [(Hook, u32)] = &[];
    /// The hooks among [`Expansion::ARMED`] that a turn also arms when its player has a
    /// figure of one of the expansion's own follower kinds out of its supply, each with that
    /// kind's index in [`Expansion::FOLLOWER_KINDS`]: armed when the turn begins, as a tile
    /// mark arms (the player holds fewer of the kind than
    /// [`Expansion::follower_supply`] deals). Such an `on` must do nothing there on a turn
    /// whose player had none of the kind out when the turn began (the abbot: only a player
    /// with an abbot on the board may take it back).
    const ARMED_BY_FIGURE: &'static [(Hook, u8)] = &[];
    /// The hooks among [`Expansion::ARMED`] that a change of the board's features after a
    /// tile's placement arms: a placed tile turned into another ([`Game::retype_tile`]: a
    /// bridge), two segments linked inside a tile or components rebuilt (a ferry's move).
    /// Such an `on` may then rely on the features changing only when a tile is placed or
    /// when one of these arms it. An edit made at the hook by a member acting after it (a
    /// ferry's link before scoring) makes it act again there before the hook is left; its
    /// own `on` must then edit no feature.
    const ARMED_BY_EDIT: &'static [Hook] = &[];
    /// Whether, under `rules`, it never acts at `at`, one of its [`Expansion::HOOKS`] (an
    /// option puts its action at another: the robbers' round before or after the tile is
    /// placed): `on` is then not called there.
    fn idle_at(_rules: &Compiled, _at: Hook) -> bool {
        false
    }
    /// The notices it hears ([`Expansion::notice`] is called only for those).
    const HEARS: &'static [Heard];
    /// The decisions it asks, by local index (its `DecisionKind`s are
    /// [`Registered::FIRST_DECISION`](super::Registered::FIRST_DECISION) + that index; see
    /// [`kind_of`](super::kind_of)).
    const DECISIONS: &'static [DecisionSpec] = &[];
    /// The events it emits, by local index (see [`event_of`](super::event_of)).
    const EVENTS: &'static [EventSpec] = &[];
    /// Its scoring categories, by local index (see [`category_of`](super::category_of)).
    const CATEGORIES: &'static [&'static str] = &[];
    /// The counters it keeps per game, by local index (see [`counter_of`](super::counter_of)).
    const COUNTERS: &'static [CounterSpec] = &[];
    /// The counts it reports per seat at the end of a game, by local index (see
    /// [`seat_counter_of`](super::seat_counter_of)): written by [`Expansion::outcome`] into
    /// each seat's result.
    const SEAT_COUNTERS: &'static [SeatCounterSpec] = &[];
    /// The marks it reads on tiles (name, meaning): a tile definition writes the name as a
    /// property (`bazaar`); the tile carries a bit per mark ([`mark_of`](super::mark_of)).
    const TILE_MARKS: &'static [(&'static str, &'static str)] = &[];
    /// The kinds of follower it adds beside the plain one (see [`FollowerKindSpec`]: name,
    /// supply per player, weight in a majority, the features it may stand on, whether it
    /// needs its owner's follower already there); its kinds are
    /// [`follower_kind_of::<Self>(i)`](super::follower_kind_of). When it takes part, each
    /// player gets the supply at the start, and the core's follower decision offers, for
    /// each segment of the new tile in order, the plain follower and then each kind in play
    /// that may stand there (`Choice::Follower { segment, kind }`); a majority is the sum
    /// of the weights, and every kind goes home with the feature it stands on. The core
    /// does it all: the expansion only declares the kinds (and reads them where its own
    /// rules care).
    const FOLLOWER_KINDS: &'static [FollowerKindSpec] = &[];
    /// The marks it reads on tile segments (name, the kind of segment it marks, meaning): a
    /// tile definition writes the name after a segment's sides (`road W E inn`,
    /// `city N E S W cathedral`); the compiled segment carries a bit per mark
    /// ([`segment_mark_of`](super::segment_mark_of)), and a feature holds the marks of its
    /// segments ([`Game::feature_marks`]).
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

    /// Its segment marks (bits of [`segment_mark_of`](super::segment_mark_of)) that make a
    /// tile's turns differ under `rules`: a tile whose turns look alike but for such a mark
    /// offers each turn (a goods symbol on one of two cities). Marks of an expansion not in
    /// play are inert and tell nothing apart. Asked when the ruleset is compiled.
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
    /// ([`Game::keep_placements_at`], [`Game::drop_placements_at`]; without added ones,
    /// [`Game::set_placements_at`] makes the list of a few cells anew). Called after
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

    /// Whether [`Expansion::may_stand`] may refuse a spot on the placed tile at `pidx` (index
    /// into the placed tiles) this turn: when not, the follower step does not ask it for
    /// that tile's spots. Asked once a follower step, only when the expansion declares
    /// [`Expansion::RESTRICTS_SPOTS`]; true (ask for every spot) unless overridden.
    fn may_refuse_on<X: Holds<Self>>(_g: &Game<X>, _pidx: usize) -> bool {
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
}
