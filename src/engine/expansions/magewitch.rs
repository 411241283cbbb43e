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
use crate::engine::component::Component;
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
use crate::engine::union_find::UnionFind;
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

/// How many candidates of complete features one magic step notes during its scan (more:
/// the list is filtered again after it).
const CLOSED: usize = 128;

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
    /// Where `figure` goes: asked (the spots in `Game::opt_node`).
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
    /// The magic step's candidates, kept between steps so that a step does not scan the
    /// whole board: the road and city segments of the first `synced` placed tiles, in board
    /// order (placed tile, then segment), less those whose feature can never be open again
    /// and those set aside in `lakes` (see [`Game::magic_spots`]).
    cand: Vec<u32>,
    synced: u32,
    /// The game's count of tiles turned into others (`Game::retypes`) when the candidates
    /// were last brought up to date: a tile turned since (a bridge built on it) has new
    /// segments, and the candidates are found again.
    retypes: u32,
    /// The candidates set aside while their road is complete but holds a lake tile's
    /// segment (a ferry may open it again), in board order: out of `cand`, so that the
    /// step's scan meets only the candidates of open features and those completed since
    /// the last step. Such a road holds a lake's segment for good (joins only grow it, and
    /// a ferry's move splits it only at the links of lake tiles, so the part holding the
    /// candidate keeps the lake's segment at the first link it crossed); the step puts a
    /// candidate back into `cand` once its road is open again.
    lakes: Vec<u32>,
}

impl Default for MageWitch {
    fn default() -> MageWitch {
        MageWitch {
            config: Config::default(),
            at: [NIL; 2],
            step: Step::Idle,
            scored: [0; 2],
            moves: 0,
            cand: Vec::new(),
            synced: 0,
            retypes: 0,
            lakes: Vec::new(),
        }
    }
}

impl Clone for MageWitch {
    fn clone(&self) -> MageWitch {
        MageWitch {
            cand: self.cand.clone(),
            lakes: self.lakes.clone(),
            ..*self
        }
    }

    /// Field by field, so that a search's copy reuses the candidates' buffer.
    fn clone_from(&mut self, source: &MageWitch) {
        let MageWitch {
            config,
            at,
            step,
            scored,
            moves,
            cand,
            synced,
            retypes,
            lakes,
        } = source;
        self.config = *config;
        self.at = *at;
        self.step = *step;
        self.scored = *scored;
        self.moves = *moves;
        self.cand.clone_from(cand);
        self.synced = *synced;
        self.retypes = *retypes;
        self.lakes.clone_from(lakes);
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
        let mut cand = std::mem::take(&mut self.cand);
        let mut lakes = std::mem::take(&mut self.lakes);
        cand.clear();
        lakes.clear();
        *self = MageWitch {
            config: self.config,
            cand,
            lakes,
            ..MageWitch::default()
        };
    }

    fn heap_bytes(&self) -> usize {
        std::mem::size_of_val(self.cand.as_slice()) + std::mem::size_of_val(self.lakes.as_slice())
    }

    fn configure<X: Holds<Self>>(g: &mut Game<X>) {
        g.ext.state_mut().config = Config::of(&g.rules().rules).unwrap_or_default();
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
    #[inline]
    fn on<X: Holds<Self>, S: EventSink>(
        g: &mut Game<X>,
        s: &mut S,
        at: Hook,
        answer: Option<usize>,
    ) -> bool {
        match answer {
            None => {
                // (the cheap test first: `magic_joined` finds two roots)
                let begin = match at {
                    Hook::TilePlaced => {
                        g.rules.tiles[g.current as usize].marks & MAGIC != 0 || g.magic_joined()
                    }
                    _ => g.ext.state().config.check_before_scoring && g.magic_joined(),
                };
                begin && g.magic_step(s, at, None)
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
                at: Some(g.node_spot(g.opt_node[i])),
            },
            _ => Choice::Flag { yes: i == MAGE },
        }
    }

    fn option_count<X: Holds<Self>>(g: &Game<X>, local: u8) -> usize {
        match local {
            1 => g.opt_node.len(),
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
                let best = g
                    .opt_node
                    .iter()
                    .map(|&n| figure_effect(g, i, n, player))
                    .max()
                    .unwrap_or(0);
                best - here
            }
            1 => {
                let f = match st.step {
                    Step::Target { figure } => figure as usize,
                    _ => MAGE,
                };
                figure_effect(g, f, g.opt_node[i], player) - figure_effect(g, f, st.at[f], player)
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

/// The magic step's scan of its candidates `cand` (see [`Game::magic_spots`]): the spots
/// into `spots` (as long as `cand`), those of an open feature not yet scored and holding
/// neither figure (`figures`: their features' roots); the indices of the candidates of
/// complete features into `closed` (the first [`CLOSED`]). Returns how many of each. (A
/// function of its own, given the slices: the loop then keeps its values in registers;
/// its cost is measured in `docs/src/rules/bigbox6.md`, Speed.)
fn scan(
    uf: &UnionFind,
    comps: &[Component],
    cand: &[u32],
    spots: &mut [u32],
    figures: [u32; 2],
    closed: &mut [u32; CLOSED],
) -> (usize, usize) {
    let (mut ns, mut nclosed) = (0, 0);
    // (by index: the index is what `closed` notes, and an `enumerate` cost an instruction
    // more a candidate)
    #[allow(clippy::needless_range_loop)]
    for i in 0..cand.len() {
        let node = cand[i];
        let r = uf.find(node);
        let c = &comps[r as usize];
        if c.open > 0 {
            // (kept without a branch: whether an open feature was scored or holds a figure
            // is a coin the branch predictor keeps losing; `spots` is as long as `cand`)
            spots[ns] = node;
            ns += usize::from(!c.done & (r != figures[0]) & (r != figures[1]));
        } else {
            if nclosed < CLOSED {
                closed[nclosed] = i as u32;
            }
            nclosed += 1;
        }
    }
    (ns, nclosed)
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

    /// Whether both figures stand on one feature (the read-only find: no path halving).
    /// While both stand on features of one kind, it arms the next tile's check (see
    /// `ARMED`: a tile may join them).
    fn magic_joined(&mut self) -> bool {
        let [m, w] = self.ext.state().at;
        if !self.magic_joinable(m, w) {
            return false;
        }
        self.ext.arm(Hook::TilePlaced);
        self.uf.find(m) == self.uf.find(w)
    }

    /// Whether figures on `m` and `w` (`NIL`: off the board) may come to share a feature:
    /// both stand, on segments of one kind (kinds never change, and a road never joins a
    /// city).
    #[inline]
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

    /// Begin the magic step: the spots into `opt_node`, then ask which figure — or, with no
    /// spot, take one off (asking which when both stand). True when it asked.
    // (out of line, as `magic_answer`: `on` is entered twice a turn and mostly returns)
    #[inline(never)]
    fn magic_begin<S: EventSink>(&mut self, s: &mut S) -> bool {
        self.magic_spots();
        let (mf, wf) = (self.magic_feature(MAGE), self.magic_feature(WITCH));
        let player = self.active;
        if !self.opt_node.is_empty() {
            self.ext.state_mut().step = Step::Figure;
            self.ask(MAGIC_FIGURE, player, 2);
            return true;
        }
        match (mf, wf) {
            (Some(_), Some(_)) => {
                self.ext.state_mut().step = Step::Remove;
                self.ask(MAGIC_REMOVE, player, 2);
                true
            }
            (Some(_), None) => {
                self.magic_take_off(s, MAGE, NO_SPOT);
                false
            }
            (None, Some(_)) => {
                self.magic_take_off(s, WITCH, NO_SPOT);
                false
            }
            (None, None) => false,
        }
    }

    /// The magic step's spots into `opt_node`: every road or city segment of the board, in
    /// board order (placed tile, then segment), whose feature is open, not yet scored, and
    /// holds neither figure.
    ///
    /// The candidates are kept between steps: the segments of the tiles placed since the
    /// last step are added, and a segment whose feature is complete is dropped for good
    /// when nothing can open that feature again. A complete feature grows no more tiles;
    /// only the ferries join or split complete roads (a ferry's link, or its move), and
    /// only roads holding a lake's road end; so a complete city, and a complete road
    /// without a lake's segment, stay complete. A complete road with a lake's segment is
    /// set aside (`MageWitch::lakes`) until a ferry opens it again. A tile turned into
    /// another (a bridge built on it: new segments) makes the step find every candidate
    /// again.
    fn magic_spots(&mut self) {
        let (mf, wf) = (
            self.magic_feature(MAGE).unwrap_or(NIL),
            self.magic_feature(WITCH).unwrap_or(NIL),
        );
        let st = self.ext.state_mut();
        let mut cand = std::mem::take(&mut st.cand);
        let mut lakes = std::mem::take(&mut st.lakes);
        let mut synced = st.synced as usize;
        if synced > self.placed.len() || st.retypes != self.retypes {
            // a tile turned into another since: every candidate found again
            cand.clear();
            lakes.clear();
            synced = 0;
        }
        if self.rules.derived.is_empty() {
            // every node from the first new tile's on is a segment of a tile placed since,
            // in board order, its kind kept with it (the tile types' lists are not read)
            // (written without a branch: whether a node is a road or city is a coin toss;
            // each is written at the next place, kept there when it is one)
            let from = self
                .placed
                .get(synced)
                .map_or(self.nodes.len(), |t| t.node0 as usize);
            let mut w = cand.len();
            cand.resize(w + self.nodes.len() - from, 0);
            for (node, n) in self.nodes.iter().enumerate().skip(from) {
                cand[w] = node as u32;
                w += usize::from(matches!(n.kind, FeatureKind::Road | FeatureKind::City));
            }
            cand.truncate(w);
        } else {
            // (a tile type that may be turned into another holds nodes for the segments it
            // would gain: only the tile's own road and city segments count)
            for t in &self.placed[synced..] {
                for &k in &self.rules.tiles[t.tile as usize].closable {
                    cand.push(t.node0 + k as u32);
                }
            }
        }
        if !lakes.is_empty() {
            self.reopened_lakes(&mut cand, &mut lakes);
        }
        // The scan makes no call on its common path, so that its values stay in registers:
        // the roots found without path halving (a node deeper than a grandparent goes out of
        // line), the spots written into a vector of the candidates' length,
        // and the candidates of complete features only noted (the first `CLOSED`), to be
        // kept or dropped after it.
        let n = cand.len();
        let mut spots = std::mem::take(&mut self.opt_node);
        spots.clear();
        spots.resize(n, 0);
        let mut closed = [0u32; CLOSED];
        let (ns, nclosed) = scan(
            &self.uf,
            &self.comps,
            &cand,
            &mut spots,
            [mf, wf],
            &mut closed,
        );
        spots.truncate(ns);
        if nclosed > 0 {
            let closed = &closed[..nclosed.min(CLOSED)];
            self.drop_closed(&mut cand, &mut lakes, closed, nclosed > CLOSED);
        }
        self.opt_node = spots;
        let st = self.ext.state_mut();
        st.cand = cand;
        st.lakes = lakes;
        st.synced = self.placed.len() as u32;
        st.retypes = self.retypes;
    }

    /// Takes the candidates of complete features out of `cand` (those at indices `closed`,
    /// ascending; all of them, looked for again, when `more`): into `lakes` those of a road
    /// holding a lake tile's segment (a ferry may open it again), the others for good.
    #[inline(never)]
    fn drop_closed(&self, cand: &mut Vec<u32>, lakes: &mut Vec<u32>, closed: &[u32], more: bool) {
        let comps = &self.comps[..];
        // (the roads walked, with what the walk found: a road's candidates complete at once)
        let mut walked = [(NIL, false); 8];
        let mut nwalked = 0;
        let mut set_aside = |node: u32, r: u32| {
            if comps[r as usize].kind != FeatureKind::Road {
                return;
            }
            let lake = match walked[..nwalked].iter().find(|w| w.0 == r) {
                Some(&(_, lake)) => lake,
                None => {
                    let lake = self.holds_lake_end(r);
                    if nwalked < walked.len() {
                        walked[nwalked] = (r, lake);
                        nwalked += 1;
                    }
                    lake
                }
            };
            if lake {
                let at = lakes.partition_point(|&l| l < node);
                lakes.insert(at, node);
            }
        };
        if more {
            cand.retain(|&node| {
                let r = self.uf.find(node);
                let open = comps[r as usize].open > 0;
                if !open {
                    set_aside(node, r);
                }
                open
            });
            return;
        }
        // each run of candidates between two taken out moved down at once
        let mut to = closed[0] as usize;
        let mut from = to;
        for &i in closed {
            let i = i as usize;
            let node = cand[i];
            set_aside(node, self.uf.find(node));
            cand.copy_within(from..i, to);
            to += i - from;
            from = i + 1;
        }
        let n = cand.len();
        cand.copy_within(from..n, to);
        cand.truncate(to + n - from);
    }

    /// Puts back into `cand` the candidates set aside in `lakes` whose road a ferry opened
    /// again.
    #[inline(never)]
    fn reopened_lakes(&self, cand: &mut Vec<u32>, lakes: &mut Vec<u32>) {
        lakes.retain(|&node| {
            if self.comps[self.uf.find(node) as usize].open == 0 {
                return true;
            }
            let at = cand.partition_point(|&c| c < node);
            cand.insert(at, node);
            false
        });
    }

    /// The kept candidates against the board (see [`Game::magic_spots`]): in board order,
    /// every road or city segment of an open feature among them (unless a tile was turned
    /// since, when the next step finds them all again), and the spots of a magic step under
    /// way those of a scan of the whole board.
    fn check_magic_candidates(&self) -> Result<(), String> {
        let st = self.ext.state();
        if st.cand.windows(2).any(|w| w[0] >= w[1]) {
            return Err("the magic step's candidates are out of board order".into());
        }
        let synced = st.synced as usize;
        let retyped = synced > self.placed.len() || st.retypes != self.retypes;
        if !retyped {
            for t in &self.placed[..synced] {
                for &k in &self.rules.tiles[t.tile as usize].closable {
                    let node = t.node0 + k as u32;
                    let open = self.comps[self.root_of(node) as usize].open > 0;
                    if open
                        && st.cand.binary_search(&node).is_err()
                        && st.lakes.binary_search(&node).is_err()
                    {
                        let (x, y, seg) = self.node_spot(node);
                        return Err(format!(
                            "segment {seg} at ({x},{y}) is open but no magic candidate"
                        ));
                    }
                }
            }
        }
        if st.lakes.windows(2).any(|w| w[0] >= w[1]) {
            return Err("the magic step's lake roads are out of board order".into());
        }
        for &node in &st.lakes {
            let root = self.root_of(node);
            if st.cand.binary_search(&node).is_ok()
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
            if scan != self.opt_node {
                return Err(format!(
                    "the magic step offers {} spots, a scan of the board {}",
                    self.opt_node.len(),
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
                let n = self.opt_node.len();
                self.ask(MAGIC_TARGET, player, n);
                true
            }
            Step::Target { figure } => {
                let f = figure as usize;
                let node = self.opt_node[i];
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
