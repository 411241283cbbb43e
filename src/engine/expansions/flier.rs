//! The Flying Machines (mini expansion #1, "The Flier"; Hans im Glück 2012, 1st edition; Big
//! Box 6 2017, 2nd edition), as `shared/rules/minis.md` §2 gives it from the rulebooks
//! (Wikicarpedia `The_Flier_(1st_edition)`, `The_Flier`, their footnotes) and JCloisterZone
//! (`FlierCapability`, `AbstractActionPhase.handleDeployFlier`).
//!
//! - **The tiles** (`tiles/flier.tiles`): eight land tiles, each with a flying machine whose
//!   arrow points along an edge (tile mark `flier_w`: west at the tile's rotation 0) or
//!   towards a corner (`flier_nw`: north-west). The arrow turns with the tile, so each of a
//!   flier tile's four turns is its own placement ([`Expansion::oriented_marks`]).
//! - **Flying** ([`FLY`], at `Hook::TilePlaced`): instead of a follower on the tile just
//!   placed, the player may put a follower on its flying machine. Which kinds may fly: every
//!   follower that weighs in majorities and needs no follower of its owner's beside it (the
//!   plain follower, the large follower; never a builder or a pig), or with
//!   `flier.who = meeples` the plain and large followers only. Flying takes the turn's figure
//!   action ([`Game::take_figure_action`]): no other follower is placed this turn. A
//!   figure action already spent (an abbot taken back, `abbot_return`, asked first) leaves
//!   no flight to offer: the Abbot's footnote counts a flight as the figure action that the
//!   return replaces (Wikicarpedia, The Abbot, 12/2014; `shared/rules/minis.md` §8
//!   "Flier and Abbot"), and JCloisterZone offers none either.
//! - **The die**: faces 1, 1, 2, 2, 3, 3, so 1–3 uniformly. A chance event drawn from a key,
//!   a function of the game seed, the turn and this module's code ([`die_key`]), never a
//!   shared stream: two rulesets playing one seed roll alike on a turn both fly. A search's
//!   determinization draws the dice to come anew ([`Expansion::resample`]); a replay forces
//!   the save's roll ([`Game::force_flier_roll`]).
//! - **Landing** ([`LAND`], at `Hook::BeforeScoring`): the follower flies that many squares
//!   in the arrow's direction (a diagonal step changes both coordinates). On the tile there
//!   it may join any road, city or cloister that is not complete — one the tile just placed
//!   completed counts as complete (2012 ruling) — even an occupied one, never a field, and
//!   only where its kind may stand ([`Game::may_stand`]: another module's restrictions). With
//!   no tile there, or no such feature, it goes back to its owner's supply (a crash). The
//!   landing is mandatory when a spot exists under `flier.landing = must` (the 1st edition's
//!   text, JCloisterZone 5.x); the 2nd edition's text says the follower "may be placed", so
//!   under `may` (the default) the player may also take it back.
//!
//! The 2nd edition prints a garden on one tile (JCloisterZone's `FL/F.dG`); gardens matter
//! only with the Abbot, so it plays as `FL/F.d` here (the importer reads it so).

use crate::engine::compiled::Compiled;
use crate::engine::decision::{Choice, DecisionKind, DecisionSpec};
use crate::engine::event::{
    BoardChange, Event, EventKind, EventSink, EventSpec, ExpansionEvent, Field,
};
use crate::engine::follower_kind::FollowerKind;
use crate::engine::game::{Game, NIL};
use crate::engine::hooks::{
    counter_of, event_of, kind_of, mark_of, Expansion, Glyph, Heard, Holds, Hook, Piece,
    Presentation, Valuation,
};
use crate::engine::outcome::{Counter, CounterSpec, GameOutcome};
use crate::engine::rng;
use crate::rule_options::{choice, Area, OptType, OptionDef};
use crate::ruleset::Ruleset;
use crate::tiles::FeatureKind;

/// The options' area (and key prefix).
const AREA: Area = Area::Expansion("flier");

/// Fly a follower from the machine of the tile just placed, or not (options: no flight, then
/// each kind that may fly and its owner holds).
pub const FLY: DecisionKind = kind_of::<Flier>(0);
/// Where the flown follower lands (options: the spots of the landing tile; first "back to
/// supply" under `flier.landing = may`).
pub const LAND: DecisionKind = kind_of::<Flier>(1);

/// A follower takes off (turn, player, x, y of the machine, die, kind).
pub const FLIGHT: EventKind = event_of::<Flier>(0);
/// The flown follower lands (turn, player, x, y, segment).
pub const LANDED: EventKind = event_of::<Flier>(1);
/// The flown follower finds no tile or no spot and goes back to supply (turn, player, x, y).
pub const CRASHED: EventKind = event_of::<Flier>(2);
/// The player takes the flown follower back although it could land (turn, player).
pub const DECLINED: EventKind = event_of::<Flier>(3);

/// Flights taken.
pub const FLIGHTS: Counter = counter_of::<Flier>(0);
/// Flights that landed.
pub const LANDINGS: Counter = counter_of::<Flier>(1);
/// Flights that found nowhere to land.
pub const CRASHES: Counter = counter_of::<Flier>(2);

/// The tile mark of a flying machine whose arrow points west at rotation 0 (along an edge).
pub const MACHINE_W: u32 = mark_of::<Flier>(0);
/// The tile mark of a flying machine whose arrow points north-west at rotation 0 (a corner).
pub const MACHINE_NW: u32 = mark_of::<Flier>(1);

/// The key code of the die (mixed into its key; the range 60–69 is this module's).
const DIE_CODE: u64 = 65;
/// Domain tag of the die's keys ("FLY").
const DIE_DOMAIN: u64 = 0x0046_4C59;

/// The eight directions, clockwise from north (as `board::AROUND`).
const DIRECTIONS: [(i32, i32); 8] = [
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];
/// Direction names, clockwise from north.
const DIRECTION_NAMES: [&str; 8] = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];

/// The rules of the Flying Machines in one ruleset (read from its options).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Config {
    in_play: bool,
    /// The flown follower must land where it can (`flier.landing = must`).
    must_land: bool,
    /// Only the plain and the large follower may fly (`flier.who = meeples`).
    meeples_only: bool,
}

impl Config {
    fn of(rules: &Ruleset) -> Config {
        Config {
            in_play: rules.ext_in_play("flier."),
            must_land: OPT_LANDING.choice_in(rules) == "must",
            meeples_only: OPT_WHO.choice_in(rules) == "meeples",
        }
    }
}

/// Where this turn's flight stands (the turn may pause at its decisions).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Stage {
    /// No flight under way.
    #[default]
    Idle,
    /// [`FLY`] is asked.
    Offered,
    /// A follower of `kind` flies to the placed tile `target` (where it has a spot): the
    /// landing is asked at `Hook::BeforeScoring`.
    Flying { kind: FollowerKind, target: u32 },
    /// [`LAND`] is asked.
    Landing { kind: FollowerKind },
}

/// The Flying Machines in one game.
#[derive(Clone, Debug, Default)]
pub struct Flier {
    config: Config,
    stage: Stage,
    /// The kinds [`FLY`] offers after "no flight" (the first `nkinds`).
    kinds: [FollowerKind; 4],
    nkinds: u8,
    /// The next flight's die, forced (a replay's save); 0 = roll.
    forced: u8,
    /// Mixed into the die's key: 0 in the game itself, a search's key in a determinized copy.
    salt: u64,
    flights: u32,
    landings: u32,
    crashes: u32,
}

/// The arrow of a placed tile turned `rot` with the marks `marks`: an index into
/// [`DIRECTIONS`], or `None` without a flying machine.
pub fn arrow(marks: u32, rot: u8) -> Option<usize> {
    let base = if marks & MACHINE_W != 0 {
        6
    } else if marks & MACHINE_NW != 0 {
        7
    } else {
        return None;
    };
    Some((base + 2 * (rot as usize & 3)) % 8)
}

/// The key of turn `turn`'s die in a game of seed `seed` (`salt` 0 outside a search).
pub fn die_key(seed: u64, turn: u32, salt: u64) -> u64 {
    let k = rng::key(rng::key(seed ^ DIE_DOMAIN, turn as u64), DIE_CODE);
    if salt == 0 {
        k
    } else {
        rng::key(k, salt)
    }
}

/// The die (1–3) of a key.
pub fn die_of(key: u64) -> u8 {
    rng::index(key, 3) as u8 + 1
}

fn event(kind: EventKind, values: &[i64]) -> Event {
    Event::Expansion(ExpansionEvent::new(kind, values))
}

/// The `flier.landing` option (read through this constant: its key and default are written once).
const OPT_LANDING: OptionDef = OptionDef {
    key: "flier.landing",
    area: AREA,
    ty: OptType::Choice(&[
        choice(
            "may",
            "the flown follower may land on a spot of the landing tile, or go back to supply",
        ),
        choice(
            "must",
            "it must land when the landing tile has a spot for it",
        ),
    ]),
    default: "may",
    doc: "After a flight, whether landing is mandatory when a spot exists. Setting any \
              flier option puts the Flying Machines in the game.",
    sources: "Flier C1 (2012) text: must if possible; C2 (Big Box 6) text: may be placed; \
                  JCloisterZone 5.x (since 065bca3b, test placement-is-mandatory) and the \
                  C3 text: must",
    requires: None,
};

/// The `flier.who` option (read through this constant: its key and default are written once).
const OPT_WHO: OptionDef =     OptionDef {
        key: "flier.who",
        area: AREA,
        ty: OptType::Choice(&[
            choice("any_follower", "any follower may fly (a builder or pig never: they are no followers); it lands only where its kind may stand"),
            choice("meeples", "only the plain and the large follower may fly"),
        ]),
        default: "any_follower",
        doc: "Which figures may fly.",
        sources: "Flier C2 footnotes (Wikicarpedia, 2/2013, 3/2015): any follower; \
                  JCloisterZone: every follower, no special figure; C3.1 text (2025): the \
                  standard and large meeple",
        requires: None,
    };

impl Expansion for Flier {
    const HOOKS: &'static [Hook] = &[Hook::TilePlaced, Hook::BeforeScoring];
    /// A flight is offered only on a tile with a flying machine, and a landing only after a
    /// flight.
    const ARMED: &'static [(Hook, u32)] = &[
        (Hook::TilePlaced, MACHINE_W | MACHINE_NW),
        (Hook::BeforeScoring, 0),
    ];
    const HEARS: &'static [Heard] = &[];
    const OPTIONS: &'static [OptionDef] = &[OPT_LANDING, OPT_WHO];
    const DECISIONS: &'static [DecisionSpec] = &[
        DecisionSpec {
            name: "flier_fly",
            key_code: 60,
            doc:
                "the flying machine of the tile just placed: no flight, or fly a follower of a kind",
        },
        DecisionSpec {
            name: "flier_land",
            key_code: 61,
            doc: "where the flown follower lands (or, when landing is optional, back to supply)",
        },
    ];
    const EVENTS: &'static [EventSpec] = &[
        EventSpec {
            name: "flier_flight",
            key_code: 62,
            fields: &[
                ("turn", Field::Turn),
                ("player", Field::Seat),
                ("x", Field::Coord),
                ("y", Field::Coord),
                ("die", Field::Count),
                ("kind", Field::Count),
            ],
            narrate: |e, names| {
                let v = e.values;
                let kind = FollowerKind::all()
                    .find(|k| k.index() == v[5] as usize)
                    .unwrap_or(FollowerKind::PLAIN);
                Some(format!(
                    "         {} flies a {kind} from ({},{}): the die shows {}",
                    (names.seat)(v[1] as u8),
                    v[2],
                    v[3],
                    v[4]
                ))
            },
            board: BoardChange::None,
        },
        EventSpec {
            name: "flier_landed",
            key_code: 63,
            fields: &[
                ("turn", Field::Turn),
                ("player", Field::Seat),
                ("x", Field::Coord),
                ("y", Field::Coord),
                ("segment", Field::Segment),
            ],
            narrate: |e, names| {
                let v = e.values;
                Some(format!(
                    "         {} lands at ({},{})",
                    (names.seat)(v[1] as u8),
                    v[2],
                    v[3]
                ))
            },
            board: BoardChange::None,
        },
        EventSpec {
            name: "flier_crashed",
            key_code: 64,
            fields: &[
                ("turn", Field::Turn),
                ("player", Field::Seat),
                ("x", Field::Coord),
                ("y", Field::Coord),
            ],
            narrate: |e, names| {
                let v = e.values;
                Some(format!(
                    "         {} finds nowhere to land at ({},{}): the follower goes back to supply",
                    (names.seat)(v[1] as u8),
                    v[2],
                    v[3]
                ))
            },
            board: BoardChange::None,
        },
        EventSpec {
            name: "flier_declined",
            key_code: 66,
            fields: &[("turn", Field::Turn), ("player", Field::Seat)],
            narrate: |e, names| {
                Some(format!(
                    "         {} takes the flown follower back instead of landing",
                    (names.seat)(e.values[1] as u8)
                ))
            },
            board: BoardChange::None,
        },
    ];
    const COUNTERS: &'static [CounterSpec] = &[
        CounterSpec {
            name: "flier_flights",
            doc: "followers flown from a flying machine",
        },
        CounterSpec {
            name: "flier_landings",
            doc: "flown followers that landed",
        },
        CounterSpec {
            name: "flier_crashes",
            doc: "flown followers that found no tile or no spot and went back to supply",
        },
    ];
    const TILE_MARKS: &'static [(&'static str, &'static str)] = &[
        (
            "flier_w",
            "a flying machine, its arrow along the west edge at rotation 0 (turns with the tile)",
        ),
        (
            "flier_nw",
            "a flying machine, its arrow towards the north-west corner at rotation 0 (turns with the tile)",
        ),
    ];
    fn used_by(rules: &Compiled) -> bool {
        rules.rules.ext_in_play("flier.")
    }

    fn oriented_marks(rules: &Ruleset) -> u32 {
        if rules.ext_in_play("flier.") {
            MACHINE_W | MACHINE_NW
        } else {
            0
        }
    }

    fn configure<X: Holds<Self>>(g: &mut Game<X>) {
        let config = Config::of(&g.rules.rules);
        g.ext.state_mut().config = config;
    }

    fn reset(&mut self) {
        let config = self.config;
        *self = Flier {
            config,
            ..Flier::default()
        };
    }

    /// A flight rolls the die: three outcomes.
    fn chance_outcomes<X: Holds<Self>>(_g: &Game<X>, local: u8, i: usize) -> u8 {
        if local == 0 && i > 0 {
            3
        } else {
            0
        }
    }

    fn force_outcome<X: Holds<Self>>(g: &mut Game<X>, local: u8, k: u8) {
        if local == 0 {
            g.force_flier_roll(k + 1);
        }
    }

    fn resample<X: Holds<Self>>(g: &mut Game<X>, key: u64) {
        // never 0: 0 is the game's own draw
        g.ext.state_mut().salt = key | 1;
    }

    fn outcome(&self, out: &mut GameOutcome) {
        out.counters.add(FLIGHTS, self.flights);
        out.counters.add(LANDINGS, self.landings);
        out.counters.add(CRASHES, self.crashes);
    }

    // (inlined into the dispatch: the entry is a test or two, the work out of line)
    #[inline]
    fn on<X: Holds<Self>, S: EventSink>(
        g: &mut Game<X>,
        s: &mut S,
        at: Hook,
        answer: Option<usize>,
    ) -> bool {
        match at {
            // (a tile without a flying machine: what `flier_offer` does with it, inline)
            Hook::TilePlaced
                if answer.is_none() && {
                    let t = g.placed[g.last_placed];
                    arrow(g.rules.tiles[t.tile as usize].marks, t.rot).is_none()
                } =>
            {
                g.ext.state_mut().stage = Stage::Idle;
                false
            }
            Hook::TilePlaced => g.flier_offer(s, answer),
            // (no flight under way: nothing to land; `flier_land` would say the same)
            Hook::BeforeScoring
                if answer.is_none() && !matches!(g.ext.state().stage, Stage::Flying { .. }) =>
            {
                false
            }
            Hook::BeforeScoring => g.flier_land(s, answer),
            _ => false,
        }
    }

    fn choice<X: Holds<Self>>(g: &Game<X>, local: u8, i: usize) -> Choice {
        if local == 0 {
            if i == 0 {
                return Choice::Token { at: None };
            }
            let t = g.placed[g.last_placed];
            let kind = g.ext.state().kinds[i - 1];
            return Choice::Token {
                at: Some((t.x, t.y, kind.0)),
            };
        }
        let n = g.opt_node[i];
        Choice::Spot {
            at: (n != NIL).then(|| g.node_spot(n)),
        }
    }

    fn option_count<X: Holds<Self>>(g: &Game<X>, local: u8) -> usize {
        if local == 0 {
            1 + g.ext.state().nkinds as usize
        } else {
            g.opt_node.len()
        }
    }
}

impl Valuation for Flier {
    /// A flight: the expected gain over the die of the best landing at each distance (a
    /// crash brings nothing); no flight: the best spot for a follower on the tile just
    /// placed, by the same measure. A landing spot: its gain ([`spot_gain`]).
    fn value_hint<X: Holds<Self>>(g: &Game<X>, local: u8, i: usize, player: u8) -> i64 {
        if local == 1 {
            let n = g.opt_node[i];
            let kind = match g.ext.state().stage {
                Stage::Landing { kind } => kind,
                _ => FollowerKind::PLAIN,
            };
            return if n == NIL {
                0
            } else {
                spot_gain(g, n, kind, player)
            };
        }
        let t = g.placed[g.last_placed];
        if i == 0 {
            // the best free spot on the tile itself (fields aside)
            let tile = &g.rules.tiles[t.tile as usize];
            return (0..tile.segments.len())
                .filter(|&k| tile.segments[k].kind != FeatureKind::Field)
                .map(|k| t.node0 + k as u32)
                .filter(|&n| g.feature(g.feature_of(n)).nfollowers == 0)
                .map(|n| feature_worth(g, n))
                .max()
                .unwrap_or(0);
        }
        let kind = g.ext.state().kinds[i - 1];
        flight_value(g, kind, player)
    }
}

impl Presentation for Flier {
    const LEGEND: &'static [(Glyph, &'static str)] = &[(
        MACHINE_GLYPH,
        "a flying machine, drawn towards the square its arrow points to",
    )];

    fn board_pieces<X: Holds<Self>>(g: &Game<X>, out: &mut Vec<Piece>) {
        machine_pieces(g, out);
    }
}

/// How the flying machine looks on the SVG board (spent: usable only when its tile is
/// placed).
const MACHINE_GLYPH: Glyph = Glyph::Token {
    letter: 'F',
    colour: "#5b7f2a",
    hollow: true,
};

/// What a feature (by a node of it) is worth to a follower joining it now: half of what it
/// would score at the end as it stands (roads a point a tile, cities two a tile and a
/// pennant, cloisters one and one per neighbour), at least 1.
fn feature_worth<X: Holds<Flier>>(g: &Game<X>, node: u32) -> i64 {
    let root = g.feature_of(node);
    let c = g.feature(root);
    let worth = match c.kind {
        FeatureKind::Road => g.feature_tile_count(root) as i64,
        FeatureKind::City => 2 * (g.feature_tile_count(root) + c.pennants) as i64,
        FeatureKind::Cloister => {
            let (x, y, _) = g.node_spot(node);
            1 + g.neighbours(x, y) as i64
        }
        FeatureKind::Field => 0,
    };
    (worth / 2).max(1)
}

/// What a follower of `kind` landing on `node` brings `player`: the feature's worth if that
/// makes `player` a winner of it who was not, plus half of it for each other player it
/// takes out of the majority.
fn spot_gain<X: Holds<Flier>>(g: &Game<X>, node: u32, kind: FollowerKind, player: u8) -> i64 {
    let c = g.feature(g.feature_of(node));
    let worth = feature_worth(g, node);
    let p = player as usize;
    let before = c.followers;
    let mut after = before;
    after[p] += kind.weight();
    let top = |f: &[u8]| f.iter().copied().max().unwrap_or(0);
    let (b, a) = (top(&before), top(&after));
    let mut gain = 0;
    if a > 0 && after[p] == a && !(b > 0 && before[p] == b) {
        gain += worth;
    }
    for q in 0..g.players as usize {
        if q != p && before[q] == b && b > 0 && after[q] < a {
            gain += worth / 2;
        }
    }
    gain
}

/// The expected gain of flying a follower of `kind` from the tile just placed: over the
/// three faces, the best landing there (0 for a crash), rounded.
fn flight_value<X: Holds<Flier>>(g: &Game<X>, kind: FollowerKind, player: u8) -> i64 {
    let t = g.placed[g.last_placed];
    let Some(dir) = arrow(g.rules.tiles[t.tile as usize].marks, t.rot) else {
        return 0;
    };
    let mut sum = 0;
    for die in 1..=3 {
        let (x, y) = (t.x + DIRECTIONS[dir].0 * die, t.y + DIRECTIONS[dir].1 * die);
        let Some(pidx) = g.tile_at(x, y) else {
            continue;
        };
        let best = landing_nodes(g, pidx, kind)
            .map(|n| spot_gain(g, n, kind, player))
            .max()
            .unwrap_or(0);
        sum += best;
    }
    (sum + 1) / 3
}

/// The nodes of placed tile `pidx` where a flown follower of `kind` may land: its roads,
/// cities and cloisters that are not complete (nor done), occupied or not, where the kind
/// may stand.
fn landing_nodes<X: Holds<Flier>>(
    g: &Game<X>,
    pidx: usize,
    kind: FollowerKind,
) -> impl Iterator<Item = u32> + '_ {
    let t = g.placed[pidx];
    let tile = &g.rules.tiles[t.tile as usize];
    let spec = kind.spec();
    (0..tile.segments.len()).filter_map(move |k| {
        let fk = tile.segments[k].kind;
        let node = t.node0 + k as u32;
        let c = g.feature(g.feature_of(node));
        let open = match fk {
            FeatureKind::Field => false,
            FeatureKind::Cloister => !t.cloister_done && g.neighbours(t.x, t.y) < 8,
            FeatureKind::City | FeatureKind::Road => c.open != 0,
        };
        (open && !c.done && spec.may_stand_on(fk) && g.may_stand(node, kind)).then_some(node)
    })
}

impl<X: Holds<Flier>> Game<X> {
    /// Force the die of the next flight (a replay: the save's roll, 1–3); it is used once.
    pub fn force_flier_roll(&mut self, die: u8) {
        self.ext.state_mut().forced = die.clamp(1, 3);
    }

    /// Whether a follower of `kind` may fly under this game's rules.
    fn may_fly(&self, kind: FollowerKind) -> bool {
        if kind.is_plain() {
            return true;
        }
        let spec = kind.spec();
        if spec.weight == 0 || spec.needs_own {
            return false;
        }
        !self.ext.state().config.meeples_only || spec.name == "large_follower"
    }

    /// `Hook::TilePlaced`: offer a flight (the tile has a flying machine, the player a
    /// follower that may fly), then take it.
    #[inline(never)]
    fn flier_offer<S: EventSink>(&mut self, s: &mut S, answer: Option<usize>) -> bool {
        let Some(i) = answer else {
            self.ext.state_mut().stage = Stage::Idle;
            if self.figure_action_taken() {
                // the turn's figure action is spent (an abbot taken back): no flight
                return false;
            }
            let t = self.placed[self.last_placed];
            if arrow(self.rules.tiles[t.tile as usize].marks, t.rot).is_none() {
                return false;
            }
            let player = self.active;
            let mut kinds = [FollowerKind::PLAIN; 4];
            let mut n = 0;
            for k in self.follower_kinds() {
                if n < kinds.len() && self.may_fly(k) && self.supply_of(player, k) > 0 {
                    kinds[n] = k;
                    n += 1;
                }
            }
            if n == 0 {
                return false;
            }
            let st = self.ext.state_mut();
            st.kinds = kinds;
            st.nkinds = n as u8;
            st.stage = Stage::Offered;
            self.ask(FLY, player, 1 + n);
            return true;
        };
        self.ext.state_mut().stage = Stage::Idle;
        if i == 0 {
            return false;
        }
        let kind = self.ext.state().kinds[i - 1];
        self.take_figure_action();
        let t = self.placed[self.last_placed];
        let dir = arrow(self.rules.tiles[t.tile as usize].marks, t.rot).unwrap_or(6);
        let forced = self.ext.state().forced;
        let die = if forced != 0 {
            forced
        } else {
            die_of(die_key(self.seed, self.turn, self.ext.state().salt))
        };
        let st = self.ext.state_mut();
        st.forced = 0;
        st.flights += 1;
        let (x, y) = (
            t.x + DIRECTIONS[dir].0 * die as i32,
            t.y + DIRECTIONS[dir].1 * die as i32,
        );
        let player = self.active;
        let turn = self.turn as i64;
        self.emit(
            s,
            event(
                FLIGHT,
                &[
                    turn,
                    player as i64,
                    t.x as i64,
                    t.y as i64,
                    die as i64,
                    kind.index() as i64,
                ],
            ),
        );
        let target = self
            .tile_at(x, y)
            .filter(|&p| landing_nodes(self, p, kind).next().is_some());
        match target {
            Some(p) => {
                self.ext.state_mut().stage = Stage::Flying {
                    kind,
                    target: p as u32,
                };
                self.ext.arm(Hook::BeforeScoring);
            }
            None => {
                self.ext.state_mut().crashes += 1;
                self.emit(
                    s,
                    event(CRASHED, &[turn, player as i64, x as i64, y as i64]),
                );
            }
        }
        false
    }

    /// `Hook::BeforeScoring`: ask where the flown follower lands, then land it (or, under
    /// `flier.landing = may`, take it back).
    #[inline(never)]
    fn flier_land<S: EventSink>(&mut self, s: &mut S, answer: Option<usize>) -> bool {
        let player = self.active;
        let turn = self.turn as i64;
        match (answer, self.ext.state().stage) {
            (None, Stage::Flying { kind, target }) => {
                let must = self.ext.state().config.must_land;
                let mut opts = std::mem::take(&mut self.opt_node);
                opts.clear();
                if !must {
                    opts.push(NIL);
                }
                opts.extend(landing_nodes(self, target as usize, kind));
                let n = opts.len();
                self.opt_node = opts;
                self.ext.state_mut().stage = Stage::Landing { kind };
                self.ask(LAND, player, n);
                true
            }
            (Some(i), Stage::Landing { kind }) => {
                self.ext.state_mut().stage = Stage::Idle;
                let node = self.opt_node[i];
                if node == NIL {
                    self.emit(s, event(DECLINED, &[turn, player as i64]));
                    return false;
                }
                self.deploy(s, player, node, kind);
                self.ext.state_mut().landings += 1;
                let (x, y, segment) = self.node_spot(node);
                self.emit(
                    s,
                    event(
                        LANDED,
                        &[turn, player as i64, x as i64, y as i64, segment as i64],
                    ),
                );
                false
            }
            _ => false,
        }
    }

    /// The flying machines on the board (for the SVG layer): (x, y, arrow direction name).
    fn flier_machines(&self) -> impl Iterator<Item = (i32, i32, usize)> + '_ {
        self.placed.iter().filter_map(|t| {
            arrow(self.rules.tiles[t.tile as usize].marks, t.rot).map(|d| (t.x, t.y, d))
        })
    }
}

/// The SVG layer: each machine's token, set off from its tile's centre towards its arrow.
pub(crate) fn machine_pieces<X: Holds<Flier>>(g: &Game<X>, out: &mut Vec<Piece>) {
    for (x, y, d) in g.flier_machines() {
        let (dx, dy) = DIRECTIONS[d];
        out.push(Piece {
            x: x as f64 + 0.5 + 0.3 * dx as f64,
            y: y as f64 + 0.5 + 0.3 * dy as f64,
            glyph: MACHINE_GLYPH,
            owner: None,
            note: format!("flying machine, arrow {}", DIRECTION_NAMES[d]),
        });
    }
}
