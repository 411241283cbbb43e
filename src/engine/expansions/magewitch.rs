//! Mage & Witch (Mini #5: Hans im Glück 2012, 1st edition; Big Box 6 2017, 2nd edition;
//! rules as Wikicarpedia and the Big Box 4 text give them, `minis.md` §5): two neutral
//! "magic figures", never a player's, on roads and cities.
//!
//! - **The magic step** (after the tile and its ingots, before the follower; JCloisterZone's
//!   `MageAndWitchPhase`): a tile with the magic symbol (the tile mark `magic`) makes its
//!   player put one figure — the mage or the witch, the player's choice — on any open road or
//!   city of the board, not the one the other figure is on, and, when the figure is already
//!   placed, not its own (it moves). A feature the tile just completed is no longer open.
//!   The options are the spots (a road or city segment of any tile) of every such feature,
//!   as JCloisterZone offers them.
//! - **No spot**: when no road or city can take a figure, the player takes one figure off
//!   the board (choosing when both stand; the only one otherwise); it returns with a later
//!   magic tile.
//! - **Never on one feature**: a tile (any tile) joining the mage's and the witch's features
//!   makes its player move one of them at once, before the turn's scoring — the same step,
//!   run without the symbol. Option `magewitch.joined_check`: the rulebook's reading checks
//!   again before the turn's scoring (a piece placed after the follower — a ferry — may join
//!   them); JCloisterZone checks only at the magic step.
//! - **Scoring** (through [`Expansion::feature_points`], so the policies' valuations see it):
//!   a road or city with the mage scores 1 more a tile (pennants add nothing); with the
//!   witch it scores half, rounded up (option `magewitch.witch_rounding`), after an inn's or
//!   cathedral's value (registration order puts Inns & Cathedrals first). At the end both
//!   apply to the unfinished features they stand on (option `magewitch.final_scoring`): an
//!   unfinished inn road or cathedral city, worth 0, is worth 1 a tile with the mage.
//! - **Leaving**: a figure whose feature completes leaves the board once it is scored,
//!   occupied or not (JCloisterZone's `ScoreCompletable`); at the end they stay.
//!
//! Gold (The Gold Mines): the figures change points, not gold — the witch halves no ingot
//! (`minis.md` §6.1); the ingots are placed first (JCloisterZone: gold before magic). The two
//! editions play alike: the 2nd prints a garden on one tile (inert without the Abbot).

use crate::engine::compiled::Compiled;
use crate::engine::decision::{Choice, DecisionKind, DecisionSpec};
use crate::engine::event::{
    BoardChange, Event, EventKind, EventSink, EventSpec, ExpansionEvent, Field,
};
use crate::engine::expansions::ferries::LAKE;
use crate::engine::game::{Game, NIL};
use crate::engine::hooks::{
    counter_of, event_of, kind_of, mark_of, Expansion, Glyph, Heard, Holds, Hook, Notice, Piece,
    Presentation, Valuation,
};
use crate::engine::outcome::{Counter, CounterSpec, GameOutcome};
use crate::engine::scoring::majority;
use crate::engine::spots::mark_spot;
use crate::rule_options::{choice, Area, OptType, OptionDef};
use crate::ruleset::Ruleset;
use crate::tiles::FeatureKind;

/// The options' area (and key prefix).
const AREA: Area = Area::Expansion("magewitch");

/// The tile mark of the magic symbol.
pub const MAGIC: u32 = mark_of::<MageWitch>(0);

/// Which figure to place or move (options: the mage, the witch).
pub const MAGIC_FIGURE: DecisionKind = kind_of::<MageWitch>(0);
/// Where it goes (options: each spot of each open road or city that may take it).
pub const MAGIC_TARGET: DecisionKind = kind_of::<MageWitch>(1);
/// Which figure leaves the board when none can be placed (options: the mage, the witch).
pub const MAGIC_REMOVE: DecisionKind = kind_of::<MageWitch>(2);

/// A figure is put on a spot by the active player (turn, figure, x, y, segment, feature).
pub const MAGIC_PLACED: EventKind = event_of::<MageWitch>(0);
/// A figure leaves its spot (turn, figure, x, y, segment, why: 0 moved, 1 its feature was
/// scored, 2 no spot left for the magic step).
pub const MAGIC_REMOVED: EventKind = event_of::<MageWitch>(1);

/// Features scored complete with the mage on them (held by someone).
pub const MAGE_SCORED: Counter = counter_of::<MageWitch>(0);
/// Features scored complete with the witch on them (held by someone).
pub const WITCH_SCORED: Counter = counter_of::<MageWitch>(1);
/// Magic steps taken (a figure placed or moved).
pub const MOVES: Counter = counter_of::<MageWitch>(2);

/// The mage (index into the figures).
pub const MAGE: usize = 0;
/// The witch.
pub const WITCH: usize = 1;

/// The figures' tag among the pieces of the end-of-turn state hash.
const MAGIC_PIECE: u64 = 70;

/// Why a figure left its spot (the `why` field of [`MAGIC_REMOVED`]).
const MOVED: i64 = 0;
const SCORED: i64 = 1;
const NO_SPOT: i64 = 2;

/// The rules of Mage & Witch in one ruleset (read from its options).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Config {
    /// The witch rounds the half down (a house reading) instead of up.
    witch_down: bool,
    /// The figures change nothing at final scoring.
    final_ignored: bool,
    /// The joined-figures check runs again before the turn's scoring (the rulebook); false:
    /// only at the magic step (JCloisterZone).
    check_before_scoring: bool,
    /// The ruleset has lake tiles (The Ferries): a ferry may complete a road, open a
    /// complete one again or join it to another (read from the tiles by `configure`).
    lake_tiles: bool,
    /// A tile type has a road or city segment past the 64th (read by `configure`): the
    /// step reads the tiles' lists of them instead of their bits.
    wide_tiles: bool,
}

impl Config {
    fn of(rules: &Ruleset) -> Option<Config> {
        if !rules.ext_in_play("magewitch.") {
            return None;
        }
        Some(Config {
            witch_down: rules.ext_choice("magewitch.witch_rounding") == Some("down"),
            final_ignored: rules.ext_choice("magewitch.final_scoring") == Some("ignored"),
            check_before_scoring: rules.ext_choice("magewitch.joined_check") != Some("magic_step"),
            lake_tiles: false,
            wide_tiles: false,
        })
    }
}

/// The `magewitch.witch_rounding` option (read through this constant: its key and default are written once).
const OPT_WITCH_ROUNDING: OptionDef = OptionDef {
    key: "magewitch.witch_rounding",
    area: AREA,
    ty: OptType::Choice(&[
        choice("up", "half the points, rounded up"),
        choice("down", "half the points, rounded down (a house reading)"),
    ]),
    default: "up",
    doc: "What a road or city with the witch scores. Setting any magewitch option \
          puts Mage & Witch in the game (the magic tiles' step, the two figures).",
    sources: "Mage & Witch C1 (2012) and C2 (Big Box 6, 2017) rules (Wikicarpedia), \
              Big Box 4 text; JCloisterZone (points - points/2): up",
    requires: None,
};

/// The `magewitch.final_scoring` option (read through this constant: its key and default are written once).
const OPT_FINAL_SCORING: OptionDef = OptionDef {
    key: "magewitch.final_scoring",
    area: AREA,
    ty: OptType::Choice(&[
        choice(
            "applies",
            "the figures change the unfinished features they stand on at the end",
        ),
        choice(
            "ignored",
            "only completed features feel them (the 2012 text speaks of completed \
             features only)",
        ),
    ]),
    default: "applies",
    doc: "Whether the mage and the witch count at final scoring.",
    sources: "Big Box 4 text (marked as new), C2 rules (Wikicarpedia footnote on inns \
              and cathedrals), JCloisterZone: applies; the 2012 C1 booklet's wording: \
              ignored (unconfirmed)",
    requires: None,
};

/// The `magewitch.joined_check` option (read through this constant: its key and default are written once).
const OPT_JOINED_CHECK: OptionDef = OptionDef {
    key: "magewitch.joined_check",
    area: AREA,
    ty: OptType::Choice(&[
        choice(
            "before_scoring",
            "at the magic step and again before the turn's scoring (a piece placed \
             after the follower may join the figures)",
        ),
        choice("magic_step", "only at the magic step, before the follower"),
    ]),
    default: "before_scoring",
    doc: "When a tile joining the mage's and the witch's features makes its player \
          move one of them.",
    sources: "C2 rules (Wikicarpedia; papageek's summary): at once, before any \
              scoring; JCloisterZone (MageAndWitchPhase): magic_step",
    requires: None,
};

/// Where the magic step stands (the turn may pause at its decisions).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Step {
    #[default]
    Idle,
    /// Which figure: asked.
    Figure,
    /// Where `figure` goes: asked (the spots in `MageWitch::spots`).
    Target { figure: u8 },
    /// Which figure leaves: asked.
    Remove,
}

/// Mage & Witch in one game: where the two figures stand and where the magic step is.
#[derive(Debug)]
pub struct MageWitch {
    config: Config,
    /// The node (a road or city segment of a placed tile) each figure stands on, `NIL` off
    /// the board: `[mage, witch]`.
    at: [u32; 2],
    step: Step,
    scored: [u32; 2],
    moves: u32,
    /// The magic step's candidates, kept between steps so that a step does not look at
    /// every segment of the board: a bit per node, set for the road and city segments of
    /// the first `synced` placed tiles whose feature was open at the last step (those set
    /// aside in `aside` apart; see [`Game::magic_spots`]). A bit's position is the node's
    /// id, so the set bits are in board order (placed tile, then segment).
    live: Vec<u64>,
    synced: u32,
    /// The game's count of tiles turned into others (`Game::retypes`) when the candidates
    /// were last brought up to date: a tile turned since (a bridge built on it) has new
    /// segments, and the candidates are found again.
    retypes: u32,
    /// The candidates set aside while their road is complete but holds a lake tile's
    /// segment (a ferry may open it again), a bit per node as `live`; `naside` of them.
    /// Such a road holds a lake's segment for good (joins only grow it, and a ferry's move
    /// splits it only at the links of lake tiles, so the part holding the candidate keeps
    /// the lake's segment at the first link it crossed); the step puts a candidate back
    /// into `live` once its road is open again.
    aside: Vec<u64>,
    naside: u32,
    /// The road and city segments of the lake tiles among the first `synced` placed tiles
    /// (The Ferries), in board order: only through them can a feature be completed, opened
    /// again or joined to a scored one other than by a placed tile (a ferry's link or
    /// move), so the step looks at them every time.
    lake_segs: Vec<u32>,
    /// The roots of the roads and cities scored complete since the last step (the
    /// `FeatureScored` notices): the step drops their candidates by them instead of looking
    /// at every candidate added since (see [`Game::magic_spots`]).
    completed: Vec<u32>,
    /// The spots of the magic step under way (see [`Game::magic_spots`]).
    spots: Spots,
}

/// The spots of a magic step: a bit per node, with the count of those before each word, so
/// that option `i` is found in a few steps (a step's decision takes one option; writing
/// them all out cost a quarter of the step).
#[derive(Clone, Debug, Default)]
struct Spots {
    bits: Vec<u64>,
    /// Per word of `bits`, how many spots the words before it hold.
    before: Vec<u32>,
    count: u32,
}

impl Spots {
    /// Counts the spots of `bits` (written by the caller).
    fn count_them(&mut self) {
        self.before.clear();
        let mut count = 0;
        for &w in &self.bits {
            self.before.push(count);
            if w != 0 {
                count += w.count_ones();
            }
        }
        self.count = count;
    }

    /// Spot `i` (below `count`): its node.
    fn get(&self, i: usize) -> u32 {
        debug_assert!(i < self.count as usize, "spot {i} of {}", self.count);
        let i = i as u32;
        // the last word with no more than `i` spots before it holds spot `i`
        let k = self.before.partition_point(|&b| b <= i) - 1;
        let mut w = self.bits[k];
        for _ in self.before[k]..i {
            w &= w - 1;
        }
        ((k as u32) << 6) | w.trailing_zeros()
    }

    /// The spots' nodes, in board order.
    fn nodes(&self) -> impl Iterator<Item = u32> + '_ {
        self.bits.iter().enumerate().flat_map(|(k, &w)| {
            let base = (k as u32) << 6;
            std::iter::successors((w != 0).then_some(w), |&w| {
                let rest = w & (w - 1);
                (rest != 0).then_some(rest)
            })
            .map(move |w| base | w.trailing_zeros())
        })
    }

    /// No spots (a new game's).
    fn clear(&mut self) {
        self.bits.clear();
        self.before.clear();
        self.count = 0;
    }

    /// Field by field, reusing the buffers.
    fn copy_from(&mut self, source: &Spots) {
        self.bits.clone_from(&source.bits);
        self.before.clone_from(&source.before);
        self.count = source.count;
    }
}

impl Default for MageWitch {
    fn default() -> MageWitch {
        MageWitch {
            config: Config::default(),
            at: [NIL; 2],
            step: Step::Idle,
            scored: [0; 2],
            moves: 0,
            live: Vec::new(),
            synced: 0,
            retypes: 0,
            aside: Vec::new(),
            naside: 0,
            lake_segs: Vec::new(),
            completed: Vec::new(),
            spots: Spots::default(),
        }
    }
}

impl Clone for MageWitch {
    fn clone(&self) -> MageWitch {
        MageWitch {
            live: self.live.clone(),
            aside: self.aside.clone(),
            lake_segs: self.lake_segs.clone(),
            completed: self.completed.clone(),
            spots: self.spots.clone(),
            ..*self
        }
    }

    /// Field by field, so that a search's copy reuses the candidates' buffers.
    fn clone_from(&mut self, source: &MageWitch) {
        let MageWitch {
            config,
            at,
            step,
            scored,
            moves,
            live,
            synced,
            retypes,
            aside,
            naside,
            lake_segs,
            completed,
            spots,
        } = source;
        self.config = *config;
        self.at = *at;
        self.step = *step;
        self.scored = *scored;
        self.moves = *moves;
        self.live.clone_from(live);
        self.synced = *synced;
        self.retypes = *retypes;
        self.aside.clone_from(aside);
        self.naside = *naside;
        self.lake_segs.clone_from(lake_segs);
        self.completed.clone_from(completed);
        self.spots.copy_from(spots);
    }
}

/// A figure's name.
fn figure_name(f: i64) -> &'static str {
    if f == MAGE as i64 {
        "mage"
    } else {
        "witch"
    }
}

impl Expansion for MageWitch {
    const HOOKS: &'static [Hook] = &[Hook::TilePlaced, Hook::BeforeScoring];
    /// The magic step is due on a tile with the symbol, or when the figures' features are
    /// joined, which needs both on the board (they come onto it only in its own steps) and
    /// on features of one kind (a road never joins a city): a visit that finds them so arms
    /// the next tile's check. Before scoring they are
    /// joined only when the step at the tile placed left them so (which arms that check)
    /// or when the features changed since ([`Expansion::ARMED_BY_EDIT`]: a ferry, a
    /// bridge).
    const ARMED: &'static [(Hook, u32)] = &[(Hook::TilePlaced, MAGIC), (Hook::BeforeScoring, 0)];
    const ARMED_BY_EDIT: &'static [Hook] = &[Hook::BeforeScoring];
    const HEARS: &'static [Heard] = &[Heard::FeatureScored];
    const TILE_MARKS: &'static [(&'static str, &'static str)] = &[(
        "magic",
        "the magic symbol: its player places or moves the mage or the witch",
    )];
    const RESCORES: bool = true;
    const DECISIONS: &'static [DecisionSpec] = &[
        DecisionSpec {
            name: "magic_figure",
            key_code: 70,
            doc: "the magic step: place or move the mage (yes) or the witch (no)",
        },
        DecisionSpec {
            name: "magic_target",
            key_code: 71,
            doc: "the magic step: the spot (a road or city segment of any tile) the figure goes to",
        },
        DecisionSpec {
            name: "magic_remove",
            key_code: 72,
            doc: "no road or city can take a magic figure: take the mage (yes) or the witch \
                  (no) off the board",
        },
    ];
    const EVENTS: &'static [EventSpec] = &[
        EventSpec {
            name: "magic_placed",
            key_code: 73,
            fields: &[
                ("turn", Field::Turn),
                ("figure", Field::Count),
                ("x", Field::Coord),
                ("y", Field::Coord),
                ("segment", Field::Segment),
                ("feature", Field::Feature),
            ],
            narrate: |e, _| {
                let v = e.values;
                let feature = FeatureKind::from_index(v[5] as usize);
                Some(format!(
                    "         the {} goes to the {feature} at ({},{})",
                    figure_name(v[1] as i64),
                    v[2],
                    v[3]
                ))
            },
            board: BoardChange::Adds {
                tag: MAGIC_PIECE,
                owner: Some(1),
                x: 2,
                y: 3,
            },
        },
        EventSpec {
            name: "magic_removed",
            key_code: 74,
            fields: &[
                ("turn", Field::Turn),
                ("figure", Field::Count),
                ("x", Field::Coord),
                ("y", Field::Coord),
                ("segment", Field::Segment),
                ("why", Field::Count),
            ],
            narrate: |e, _| {
                let v = e.values;
                let why = match v[5] as i64 {
                    MOVED => return None,
                    SCORED => "its feature is complete",
                    _ => "no road or city can take it",
                };
                Some(format!(
                    "         the {} leaves ({},{}): {why}",
                    figure_name(v[1] as i64),
                    v[2],
                    v[3]
                ))
            },
            board: BoardChange::Removes {
                tag: MAGIC_PIECE,
                owner: Some(1),
                x: 2,
                y: 3,
                times: None,
            },
        },
    ];
    const COUNTERS: &'static [CounterSpec] = &[
        CounterSpec {
            name: "mage_scored",
            doc: "completed features scored with the mage",
        },
        CounterSpec {
            name: "witch_scored",
            doc: "completed features scored with the witch",
        },
        CounterSpec {
            name: "magic_moves",
            doc: "magic figures placed or moved",
        },
    ];
    const OPTIONS: &'static [OptionDef] =
        &[OPT_WITCH_ROUNDING, OPT_FINAL_SCORING, OPT_JOINED_CHECK];

    fn used_by(rules: &Compiled) -> bool {
        Config::of(&rules.rules).is_some()
    }

    /// The check before scoring is JCloisterZone's option away.
    fn idle_at(rules: &Compiled, at: Hook) -> bool {
        at == Hook::BeforeScoring
            && Config::of(&rules.rules).is_some_and(|c| !c.check_before_scoring)
    }

    fn reset(&mut self) {
        let mut live = std::mem::take(&mut self.live);
        let mut aside = std::mem::take(&mut self.aside);
        let mut lake_segs = std::mem::take(&mut self.lake_segs);
        let mut completed = std::mem::take(&mut self.completed);
        let mut spots = std::mem::take(&mut self.spots);
        live.clear();
        aside.clear();
        lake_segs.clear();
        completed.clear();
        spots.clear();
        *self = MageWitch {
            config: self.config,
            live,
            aside,
            lake_segs,
            completed,
            spots,
            ..MageWitch::default()
        };
    }

    fn heap_bytes(&self) -> usize {
        std::mem::size_of_val(self.live.as_slice())
            + std::mem::size_of_val(self.aside.as_slice())
            + std::mem::size_of_val(self.lake_segs.as_slice())
            + std::mem::size_of_val(self.completed.as_slice())
            + std::mem::size_of_val(self.spots.bits.as_slice())
            + std::mem::size_of_val(self.spots.before.as_slice())
    }

    fn configure<X: Holds<Self>>(g: &mut Game<X>) {
        let mut config = Config::of(&g.rules().rules).unwrap_or_default();
        config.lake_tiles = g.rules().tiles.iter().any(|t| t.marks & LAKE != 0);
        config.wide_tiles = g
            .rules()
            .tiles
            .iter()
            .any(|t| t.closable.last() >= Some(&64));
        g.ext.state_mut().config = config;
    }

    fn outcome(&self, out: &mut GameOutcome) {
        out.counters.add(MAGE_SCORED, self.scored[MAGE]);
        out.counters.add(WITCH_SCORED, self.scored[WITCH]);
        out.counters.add(MOVES, self.moves);
    }

    fn check_invariants<X: Holds<Self>>(g: &Game<X>) -> Result<(), String> {
        for (f, &n) in g.ext.state().at.iter().enumerate() {
            if n == NIL {
                continue;
            }
            if n as usize >= g.nodes.len() {
                return Err(format!(
                    "the {} stands on node {n}, off the board",
                    figure_name(f as i64)
                ));
            }
            let kind = g.seg_kind(n);
            if !matches!(kind, FeatureKind::Road | FeatureKind::City) {
                return Err(format!("the {} stands on a {kind}", figure_name(f as i64)));
            }
        }
        g.check_magic_candidates()
    }

    fn feature_points<X: Holds<Self>>(
        g: &Game<X>,
        root: u32,
        kind: FeatureKind,
        complete: bool,
        tiles: u32,
        _pennants: u32,
        points: i64,
    ) -> i64 {
        if !matches!(kind, FeatureKind::Road | FeatureKind::City) {
            return points;
        }
        let st = g.ext.state();
        if !complete && st.config.final_ignored {
            return points;
        }
        let mut p = points;
        if st.at[MAGE] != NIL && g.feature_of(st.at[MAGE]) == root {
            p += tiles as i64;
        }
        if st.at[WITCH] != NIL && g.feature_of(st.at[WITCH]) == root {
            p = witch_half(p, st.config.witch_down);
        }
        p
    }

    // (inlined into the dispatch: the step's work is out of line)
    #[inline(always)]
    fn on<X: Holds<Self>, S: EventSink>(
        g: &mut Game<X>,
        s: &mut S,
        at: Hook,
        answer: Option<usize>,
    ) -> bool {
        match answer {
            None => {
                // (the cheap test first: the joined test finds two roots; each call here a
                // tail call, so that the entry keeps no registers)
                let magic = match at {
                    Hook::TilePlaced => g.rules.tiles[g.current as usize].marks & MAGIC != 0,
                    _ if g.ext.state().config.check_before_scoring => false,
                    _ => return false,
                };
                match (magic, g.magic_joined()) {
                    (true, _) | (false, Some(true)) => g.magic_step(s, at, None),
                    (false, Some(false)) => false,
                    (false, None) => g.magic_step_if_joined(s, at),
                }
            }
            Some(i) => g.magic_step(s, at, Some(i)),
        }
    }

    fn notice<X: Holds<Self>, S: EventSink>(g: &mut Game<X>, s: &mut S, n: Notice) {
        let Notice::FeatureScored {
            root,
            winners,
            complete: true,
            ..
        } = n
        else {
            return;
        };
        if matches!(
            g.comps[root as usize].kind,
            FeatureKind::Road | FeatureKind::City
        ) {
            g.ext.state_mut().completed.push(root);
        }
        for f in [MAGE, WITCH] {
            let node = g.ext.state().at[f];
            if node != NIL && g.feature_of(node) == root {
                if winners != 0 {
                    g.ext.state_mut().scored[f] += 1;
                }
                g.magic_take_off(s, f, SCORED);
            }
        }
    }

    fn choice<X: Holds<Self>>(g: &Game<X>, local: u8, i: usize) -> Choice {
        match local {
            1 => Choice::Spot {
                at: Some(g.node_spot(g.ext.state().spots.get(i))),
            },
            _ => Choice::Flag { yes: i == MAGE },
        }
    }

    fn option_count<X: Holds<Self>>(g: &Game<X>, local: u8) -> usize {
        match local {
            1 => g.ext.state().spots.count as usize,
            _ => 2,
        }
    }
}

impl Valuation for MageWitch {
    /// What the move brings `player` (see [`figure_effect`]): the figure's effect on its
    /// new feature minus its effect where it stood. The figure: the better of its best spot
    /// and the other's. Removing: what the figure's leaving brings.
    fn value_hint<X: Holds<Self>>(g: &Game<X>, local: u8, i: usize, player: u8) -> i64 {
        let st = g.ext.state();
        match local {
            0 => {
                let here = figure_effect(g, i, st.at[i], player);
                let best = st
                    .spots
                    .nodes()
                    .map(|n| figure_effect(g, i, n, player))
                    .max()
                    .unwrap_or(0);
                best - here
            }
            1 => {
                let f = match st.step {
                    Step::Target { figure } => figure as usize,
                    _ => MAGE,
                };
                let node = st.spots.get(i);
                figure_effect(g, f, node, player) - figure_effect(g, f, st.at[f], player)
            }
            _ => -figure_effect(g, i, st.at[i], player),
        }
    }
}

impl Presentation for MageWitch {
    /// The figures beside their segments, as round tokens: M purple, W orange.
    fn board_pieces<X: Holds<Self>>(g: &Game<X>, out: &mut Vec<Piece>) {
        for (f, &n) in g.ext.state().at.iter().enumerate() {
            if n == NIL {
                continue;
            }
            let node = g.segment_node(n);
            let t = g.placed_tiles()[node.tile as usize];
            let (x, y) = mark_spot(g.rules(), &t, node.seg, 0.3, -0.2);
            out.push(Piece {
                x,
                y,
                glyph: FIGURE_GLYPHS[f],
                owner: None,
                note: format!(
                    "the {} on the {} at ({},{})",
                    figure_name(f as i64),
                    g.seg_kind(n),
                    t.x,
                    t.y
                ),
            });
        }
    }

    const LEGEND: &'static [(Glyph, &'static str)] = &[
        (FIGURE_GLYPHS[MAGE], "the mage (Mage & Witch): +1 a tile"),
        (
            FIGURE_GLYPHS[WITCH],
            "the witch (Mage & Witch): half the points",
        ),
    ];
}

/// The figures' glyphs: a purple M, an orange W (the figures' colours).
const FIGURE_GLYPHS: [Glyph; 2] = [
    Glyph::Token {
        letter: 'M',
        colour: "#7b3f9e",
        hollow: false,
    },
    Glyph::Token {
        letter: 'W',
        colour: "#e8781e",
        hollow: false,
    },
];

/// What the witch leaves of `points`: half, rounded up (or down).
fn witch_half(points: i64, down: bool) -> i64 {
    if down {
        points.div_euclid(2)
    } else {
        points - points.div_euclid(2)
    }
}

/// Whether bit `n` of the bitset `bits` is set.
#[inline]
fn bit(bits: &[u64], n: u32) -> bool {
    bits[(n >> 6) as usize] >> (n & 63) & 1 != 0
}

/// What figure `f` on the feature of `node` (`NIL`: off the board, 0) does for `player`:
/// the points it adds to (the mage) or takes from (the witch) each holder of the feature's
/// majority, counted for `player` when it holds it and against it for the best-placed other
/// holder — the mage helps the holders, the witch hurts them. The feature is valued as if
/// completed now.
fn figure_effect<X: Holds<MageWitch>>(g: &Game<X>, f: usize, node: u32, player: u8) -> i64 {
    if node == NIL {
        return 0;
    }
    let root = g.feature_of(node);
    let c = g.feature(root);
    let winners = majority(&c.followers);
    if winners == 0 {
        return 0;
    }
    let tiles = g.feature_tile_count(root);
    let delta = if f == MAGE {
        tiles as i64
    } else {
        // the ruleset's value (with the mage when he is there), half of it gone
        let st = g.ext.state();
        let mut v = g.road_city_points(c.kind, true, tiles, c.pennants);
        if st.at[MAGE] != NIL && g.feature_of(st.at[MAGE]) == root {
            v += tiles as i64;
        }
        -(v - witch_half(v, st.config.witch_down))
    };
    let mine = winners & (1 << player) != 0;
    let others = winners & !(1 << player) != 0;
    match (mine, others) {
        (true, false) => delta,
        (true, true) => 0,
        (false, true) => -delta,
        (false, false) => 0,
    }
}

impl<X: Holds<MageWitch>> Game<X> {
    /// Where figure `f` (0 the mage, 1 the witch) stands: the (x, y, segment) of its spot.
    pub fn magic_figure_spot(&self, f: usize) -> Option<(i32, i32, u8)> {
        let n = *self.ext.state().at.get(f)?;
        (n != NIL).then(|| self.node_spot(n))
    }

    /// Test support (rulebook scenarios): put figure `f` on the spot `node` (`NIL`: off).
    #[doc(hidden)]
    pub fn set_magic_figure_for_test(&mut self, f: usize, node: u32) {
        self.ext.state_mut().at[f] = node;
        // (a figure put down outside its steps: the checks it may need armed, see `ARMED`)
        self.ext.arm(Hook::TilePlaced);
        self.ext.arm(Hook::BeforeScoring);
    }

    /// The feature (root) figure `f` stands on.
    fn magic_feature(&self, f: usize) -> Option<u32> {
        let n = self.ext.state().at[f];
        (n != NIL).then(|| self.feature_of(n))
    }

    /// Whether both figures stand on one feature (asked twice a tile; the read-only find:
    /// no path halving), when their nodes are roots or children of roots (most turns):
    /// `None` when a root lies deeper (see [`Game::magic_step_if_joined`]). While both
    /// stand on features of one kind, it arms the next tile's check (see `ARMED`: a tile
    /// may join them).
    #[inline(always)]
    fn magic_joined(&mut self) -> Option<bool> {
        let [m, w] = self.ext.state().at;
        if !self.magic_joinable(m, w) {
            return Some(false);
        }
        self.ext.arm(Hook::TilePlaced);
        self.uf.same_shallow(m, w)
    }

    /// Whether figures on `m` and `w` (`NIL`: off the board) may come to share a feature:
    /// both stand, on segments of one kind (kinds never change, and a road never joins a
    /// city).
    #[inline(always)]
    fn magic_joinable(&self, m: u32, w: u32) -> bool {
        m != NIL && w != NIL && self.nodes[m as usize].kind == self.nodes[w as usize].kind
    }

    /// The magic step at `at`: begun (`answer` `None`) or answered. Then, with both figures
    /// standing on features of one kind, the next tile's check is armed, and at the tile
    /// placed, with them still on one feature, the check before scoring (see `ARMED`). True
    /// when it asked.
    #[inline(never)]
    fn magic_step<S: EventSink>(&mut self, s: &mut S, at: Hook, answer: Option<usize>) -> bool {
        let asked = match answer {
            None => self.magic_begin(s),
            Some(i) => self.magic_answer(s, i),
        };
        let [m, w] = self.ext.state().at;
        if self.magic_joinable(m, w) {
            self.ext.arm(Hook::TilePlaced);
            if at == Hook::TilePlaced && self.uf.find(m) == self.uf.find(w) {
                self.ext.arm(Hook::BeforeScoring);
            }
        }
        asked
    }

    /// The magic step at `at` when both figures stand on one feature (their roots found
    /// however deep). True when it asked.
    #[inline(never)]
    fn magic_step_if_joined<S: EventSink>(&mut self, s: &mut S, at: Hook) -> bool {
        let [m, w] = self.ext.state().at;
        self.uf.find(m) == self.uf.find(w) && self.magic_step(s, at, None)
    }

    /// Begin the magic step: the spots into `MageWitch::spots`, then ask which figure — or,
    /// with no spot, take one off (asking which when both stand). True when it asked.
    // (out of line, as `magic_answer`: the entry is inlined into the dispatch, entered twice
    // a turn, and mostly returns)
    #[inline(never)]
    fn magic_begin<S: EventSink>(&mut self, s: &mut S) -> bool {
        self.magic_spots();
        let player = self.active;
        if self.ext.state().spots.count > 0 {
            self.ext.state_mut().step = Step::Figure;
            self.ask(MAGIC_FIGURE, player, 2);
            return true;
        }
        // (which figures stand: asked only when no spot is left)
        let [m, w] = self.ext.state().at;
        match (m != NIL, w != NIL) {
            (true, true) => {
                self.ext.state_mut().step = Step::Remove;
                self.ask(MAGIC_REMOVE, player, 2);
                true
            }
            (true, false) => {
                self.magic_take_off(s, MAGE, NO_SPOT);
                false
            }
            (false, true) => {
                self.magic_take_off(s, WITCH, NO_SPOT);
                false
            }
            (false, false) => false,
        }
    }

    /// The magic step's spots into `MageWitch::spots`: every road or city segment of the
    /// board, in board order (placed tile, then segment), whose feature is open, not yet
    /// scored, and holds neither figure.
    ///
    /// The candidates (`MageWitch::live`, a bit per node) are kept between steps: the
    /// segments of the tiles placed since the last step are added, and the segments of a
    /// feature found complete are dropped for good when nothing can open that feature
    /// again. A complete feature grows no more tiles; only the ferries join or split
    /// complete roads (a ferry's link, or its move), and only roads holding a lake's road
    /// end; so a complete city, and a complete road without a lake's segment, stay
    /// complete. A complete road with a lake's segment is set aside (`MageWitch::aside`)
    /// until a ferry opens it again. A feature completes when a tile placed closes its last
    /// open side, so it holds a segment of a tile placed since the last step, or when a
    /// ferry moves, so it holds a lake tile's segment: only those candidates are looked at
    /// for it. A tile placed in a turn has its completed roads and cities scored in that
    /// turn (`MageWitch::completed` keeps their roots from the notices): of the tiles placed
    /// since the last step, only the turn's own tile, not scored yet, has its candidates
    /// looked at (every new one when the candidates are found afresh, or when the last
    /// tile placed is not the turn's). A scored feature is open again only through a
    /// ferry's link, so it too holds a lake tile's segment. A tile turned into another (a
    /// bridge built on it: new segments) makes the step find every candidate again.
    fn magic_spots(&mut self) {
        let (mf, wf) = (
            self.magic_feature(MAGE).unwrap_or(NIL),
            self.magic_feature(WITCH).unwrap_or(NIL),
        );
        let st = self.ext.state_mut();
        let (lake_tiles, st_wide) = (st.config.lake_tiles, st.config.wide_tiles);
        let mut live = std::mem::take(&mut st.live);
        let mut aside = std::mem::take(&mut st.aside);
        let mut lake_segs = std::mem::take(&mut st.lake_segs);
        let mut completed = std::mem::take(&mut st.completed);
        let mut spots = std::mem::take(&mut st.spots);
        let spot_bits = &mut spots.bits;
        let mut naside = st.naside;
        let mut synced = st.synced as usize;
        if synced > self.placed.len() || st.retypes != self.retypes {
            // a tile turned into another since: every candidate found again
            live.clear();
            aside.clear();
            lake_segs.clear();
            naside = 0;
            synced = 0;
        }
        // (a word more than the nodes need: a tile's bits may run over into it)
        let words = self.nodes.len().div_ceil(64) + 1;
        if live.len() < words {
            live.resize(words, 0);
            aside.resize(words, 0);
        }
        let from = self
            .placed
            .get(synced)
            .map_or(self.nodes.len(), |t| t.node0 as usize);
        // the road and city segments of the tiles placed since: each tile's bits shifted to
        // its first node (those of its type as it is now: a tile that may be turned into
        // another holds nodes for the segments it would gain)
        // (the slices read once: the loops' writes to the bits might otherwise alias them)
        let (tiles, comps, uf) = (&self.rules.tiles[..], &self.comps[..], &self.uf);
        for t in &self.placed[synced..] {
            let ct = &tiles[t.tile as usize];
            if st_wide {
                for &k in &ct.closable {
                    let node = t.node0 + k as u32;
                    live[(node >> 6) as usize] |= 1 << (node & 63);
                }
            } else {
                let (k, shift) = ((t.node0 >> 6) as usize, t.node0 & 63);
                live[k] |= ct.closable_bits << shift;
                live[k + 1] |= (ct.closable_bits >> 1) >> (63 - shift);
            }
            if lake_tiles && ct.marks & LAKE != 0 {
                lake_segs.extend(ct.closable.iter().map(|&k| t.node0 + k as u32));
            }
        }
        if naside > 0 {
            naside = self.reopened_lakes(&mut live, &mut aside, naside);
        }
        // the features the new tiles completed: those scored since the last step by their
        // roots, then those of the turn's tile (not scored yet) by its candidates; when the
        // candidates are found afresh (or a tile came otherwise than by a turn), by every
        // new candidate
        let mut scan = from;
        if synced > 0 && self.last_placed + 1 == self.placed.len() {
            for &r in &completed {
                let r = uf.find(r);
                if comps[r as usize].open == 0 {
                    naside += self.drop_feature(r, &mut live, &mut aside);
                }
            }
            scan = scan.max(self.placed[self.last_placed].node0 as usize);
        }
        completed.clear();
        // (a candidate's word read again after a drop: the drop may take out candidates
        // after it)
        for k in scan >> 6..words {
            let mut w = live[k];
            if k == scan >> 6 {
                w &= u64::MAX << (scan & 63);
            }
            while w != 0 {
                let node = ((k as u32) << 6) | w.trailing_zeros();
                w &= w - 1;
                let r = uf.find(node);
                if comps[r as usize].open == 0 {
                    naside += self.drop_feature(r, &mut live, &mut aside);
                    w &= live[k];
                }
            }
        }
        // the features a ferry completed, and the open ones scored already (joined to a
        // scored road by a ferry's link; a few at most, looked for again past 8)
        let mut scored = [NIL; 8];
        let mut nscored = 0;
        for &node in &lake_segs {
            if bit(&live, node) {
                let r = uf.find(node);
                let c = &comps[r as usize];
                if c.open == 0 {
                    naside += self.drop_feature(r, &mut live, &mut aside);
                } else if c.done && !scored[..nscored.min(8)].contains(&r) {
                    if nscored < 8 {
                        scored[nscored] = r;
                    }
                    nscored += 1;
                }
            }
        }
        // the spots: the candidates less the segments of those and of the figures' features
        spot_bits.clear();
        spot_bits.extend_from_slice(&live);
        let spot_bits = &mut spot_bits[..];
        for r in [mf, wf] {
            if r != NIL && self.comps[r as usize].open > 0 {
                self.clear_feature(r, spot_bits);
            }
        }
        for &r in &scored[..nscored.min(8)] {
            self.clear_feature(r, spot_bits);
        }
        if nscored > 8 {
            for &node in &lake_segs {
                if bit(&live, node) {
                    let r = self.uf.find(node);
                    if self.comps[r as usize].done {
                        self.clear_feature(r, spot_bits);
                    }
                }
            }
        }
        spots.count_them();
        let st = self.ext.state_mut();
        st.live = live;
        st.aside = aside;
        st.naside = naside;
        st.lake_segs = lake_segs;
        st.completed = completed;
        st.spots = spots;
        st.synced = self.placed.len() as u32;
        st.retypes = self.retypes;
    }

    /// Takes the candidates of the complete feature rooted at `root` out of `live`: into
    /// `aside` when it is a road holding a lake tile's segment (a ferry may open it again),
    /// for good otherwise. Returns how many it set aside.
    #[inline(never)]
    fn drop_feature(&self, root: u32, live: &mut [u64], aside: &mut [u64]) -> u32 {
        let c = &self.comps[root as usize];
        let lake = self.ext.state().config.lake_tiles
            && c.kind == FeatureKind::Road
            && self.holds_lake_end(root);
        let mut added = 0;
        let mut n = c.head;
        while n != NIL {
            let (k, b) = ((n >> 6) as usize, 1u64 << (n & 63));
            live[k] &= !b;
            if lake && aside[k] & b == 0 {
                aside[k] |= b;
                added += 1;
            }
            n = self.nodes[n as usize].next;
        }
        added
    }

    /// Clears the bits of the segments of the feature rooted at `root` in `bits`.
    #[inline(never)]
    fn clear_feature(&self, root: u32, bits: &mut [u64]) {
        let mut n = self.comps[root as usize].head;
        while n != NIL {
            bits[(n >> 6) as usize] &= !(1u64 << (n & 63));
            n = self.nodes[n as usize].next;
        }
    }

    /// Puts back into `live` the candidates set aside in `aside` (`naside` of them) whose
    /// road a ferry opened again. Returns how many stay aside.
    #[inline(never)]
    fn reopened_lakes(&self, live: &mut [u64], aside: &mut [u64], mut naside: u32) -> u32 {
        for k in 0..aside.len() {
            let mut w = aside[k];
            while w != 0 {
                let b = w & w.wrapping_neg();
                w &= w - 1;
                let node = ((k as u32) << 6) | b.trailing_zeros();
                if self.comps[self.uf.find(node) as usize].open > 0 {
                    aside[k] &= !b;
                    live[k] |= b;
                    naside -= 1;
                }
            }
        }
        naside
    }

    /// The kept candidates against the board (see [`Game::magic_spots`]): every road or
    /// city segment of an open feature among them or set aside (unless a tile was turned
    /// since, when the next step finds them all again), those set aside complete roads
    /// holding a lake's segment, the lake tiles' segments noted, and the spots of a magic
    /// step under way those of a scan of the whole board.
    fn check_magic_candidates(&self) -> Result<(), String> {
        let st = self.ext.state();
        let synced = st.synced as usize;
        let retyped = synced > self.placed.len() || st.retypes != self.retypes;
        let words = st.live.len();
        if st.aside.len() != words {
            return Err("the magic step's candidate sets differ in length".into());
        }
        if !retyped {
            let mut lake_segs = Vec::new();
            for t in &self.placed[..synced] {
                let ct = &self.rules.tiles[t.tile as usize];
                for &k in &ct.closable {
                    let node = t.node0 + k as u32;
                    if st.config.lake_tiles && ct.marks & LAKE != 0 {
                        lake_segs.push(node);
                    }
                    let open = self.comps[self.root_of(node) as usize].open > 0;
                    let kept = (node as usize) < words * 64
                        && (bit(&st.live, node) || bit(&st.aside, node));
                    if open && !kept {
                        let (x, y, seg) = self.node_spot(node);
                        return Err(format!(
                            "segment {seg} at ({x},{y}) is open but no magic candidate"
                        ));
                    }
                }
            }
            if lake_segs != st.lake_segs {
                return Err("the magic step's lake segments are not those of the board".into());
            }
        }
        let mut naside = 0;
        for (k, &w) in st.aside.iter().enumerate() {
            let mut w = w;
            while w != 0 {
                let node = ((k as u32) << 6) | w.trailing_zeros();
                w &= w - 1;
                naside += 1;
                let root = self.root_of(node);
                if bit(&st.live, node)
                    || self.comps[root as usize].kind != FeatureKind::Road
                    || !self.holds_lake_end(root)
                {
                    let (x, y, seg) = self.node_spot(node);
                    return Err(format!(
                        "segment {seg} at ({x},{y}) is set aside as a lake road's, but is a \
                         magic candidate too or its feature is no road holding a lake's segment"
                    ));
                }
            }
        }
        if naside != st.naside {
            return Err(format!(
                "the magic step counts {} candidates set aside, holds {naside}",
                st.naside
            ));
        }
        if matches!(st.step, Step::Figure | Step::Target { .. }) {
            let (mf, wf) = (self.magic_feature(MAGE), self.magic_feature(WITCH));
            let mut scan = Vec::new();
            for t in &self.placed {
                for &k in &self.rules.tiles[t.tile as usize].closable {
                    let node = t.node0 + k as u32;
                    let r = self.root_of(node);
                    let c = &self.comps[r as usize];
                    if c.open > 0 && !c.done && Some(r) != mf && Some(r) != wf {
                        scan.push(node);
                    }
                }
            }
            let spots: Vec<u32> = st.spots.nodes().collect();
            let listed: Vec<u32> = (0..st.spots.count as usize)
                .map(|i| st.spots.get(i))
                .collect();
            if scan != spots || spots != listed {
                return Err(format!(
                    "the magic step offers {} spots ({} by index), a scan of the board {}",
                    spots.len(),
                    listed.len(),
                    scan.len()
                ));
            }
        }
        Ok(())
    }

    /// Whether the feature rooted at `root` holds a segment of a lake tile (The Ferries):
    /// a ferry may join it to another road.
    #[inline(never)]
    fn holds_lake_end(&self, root: u32) -> bool {
        let mut n = self.comps[root as usize].head;
        while n != NIL {
            let node = self.nodes[n as usize];
            let t = self.placed[node.tile as usize];
            if self.rules.tiles[t.tile as usize].marks & LAKE != 0 {
                return true;
            }
            n = node.next;
        }
        false
    }

    /// The answer to the magic step's decision last asked. True when it asked another.
    #[inline(never)]
    fn magic_answer<S: EventSink>(&mut self, s: &mut S, i: usize) -> bool {
        let player = self.active;
        match self.ext.state().step {
            Step::Figure => {
                self.ext.state_mut().step = Step::Target { figure: i as u8 };
                let n = self.ext.state().spots.count as usize;
                self.ask(MAGIC_TARGET, player, n);
                true
            }
            Step::Target { figure } => {
                let f = figure as usize;
                let node = self.ext.state().spots.get(i);
                if self.ext.state().at[f] != NIL {
                    self.magic_take_off(s, f, MOVED);
                }
                self.ext.state_mut().at[f] = node;
                self.ext.state_mut().moves += 1;
                self.ext.state_mut().step = Step::Idle;
                let (x, y, seg) = self.node_spot(node);
                let kind = self.seg_kind(node);
                self.emit(
                    s,
                    Event::Expansion(ExpansionEvent::new(
                        MAGIC_PLACED,
                        &[
                            self.turn as i64,
                            f as i64,
                            x as i64,
                            y as i64,
                            seg as i64,
                            kind as i64,
                        ],
                    )),
                );
                false
            }
            Step::Remove => {
                self.ext.state_mut().step = Step::Idle;
                self.magic_take_off(s, i, NO_SPOT);
                false
            }
            Step::Idle => false,
        }
    }

    /// Figure `f` leaves the board (`why`: see [`MAGIC_REMOVED`]).
    fn magic_take_off<S: EventSink>(&mut self, s: &mut S, f: usize, why: i64) {
        let node = self.ext.state().at[f];
        if node == NIL {
            return;
        }
        self.ext.state_mut().at[f] = NIL;
        let (x, y, seg) = self.node_spot(node);
        self.emit(
            s,
            Event::Expansion(ExpansionEvent::new(
                MAGIC_REMOVED,
                &[
                    self.turn as i64,
                    f as i64,
                    x as i64,
                    y as i64,
                    seg as i64,
                    why,
                ],
            )),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::Spots;

    /// A spot found by index is the one a walk of the bits meets at that place, over empty
    /// words, full words and a word's last bit.
    #[test]
    fn spots_by_index_are_the_bits_in_order() {
        let mut spots = Spots {
            bits: vec![0b1011, 0, u64::MAX, 1 << 63, 0, 0b110],
            ..Spots::default()
        };
        spots.count_them();
        let walked: Vec<u32> = spots.nodes().collect();
        let mut expected = vec![0, 1, 3];
        expected.extend(128..192);
        expected.extend([255, 321, 322]);
        assert_eq!(walked, expected);
        assert_eq!(spots.count as usize, expected.len());
        let by_index: Vec<u32> = (0..expected.len()).map(|i| spots.get(i)).collect();
        assert_eq!(by_index, expected);
        let mut copy = Spots::default();
        copy.copy_from(&spots);
        assert_eq!((copy.count, copy.get(67)), (spots.count, 255));
        copy.clear();
        assert_eq!((copy.count, copy.nodes().count()), (0, 0));
    }
}
