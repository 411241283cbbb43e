//! The Robbers (rules.md §3, the 2012 Spanish rulebook in seeds/): robbers stand on spaces of
//! the 50-space score track. When another player's marker leaves a robber's space because of
//! points scored, the robber's owner also scores a share (half, rounded up) and the robber goes
//! home. Robber points are never robbed: robbers beside a marker moving on robber points move
//! along with it. A robber must rob at its first chance; when several markers on its space
//! score in one scoring step, its owner chooses (or the first scored, by option).
//!
//! With an expansion that splits the score over two figures (The Messengers: Robbers C1 and
//! C2 footnote, 5/2013) a robber stands beside either figure of another player: it is placed
//! on a space where any other player's figure stands (the space names the figure), and it
//! robs the first move of a figure leaving that space, as the figure moves
//! (`Notice::FigureMoved`), so the scoring player, who chooses the figure, may dodge it; the
//! points of messages are robbed like any. The figures move one at a time, each its player's
//! decision, so there the first figure to leave the space is robbed (`robbers.victim` does
//! not arise). At final scoring the figures are one again and the robbers follow the score.
//!
//! Here: the expansion's state, options, decisions and events, and the queries on it; the
//! robber round after a robber tile is drawn (placing and moving robbers) in [`round`]; the
//! robberies as markers move during a scoring step in [`robbery`].

use crate::engine::compiled::Compiled;
use crate::engine::decision::{Choice, DecisionKind, DecisionSpec, Wording};
use crate::engine::event::{BoardChange, EventKind, EventSink, EventSpec, Field};
use crate::engine::game::{Game, MAX_PLAYERS, NIL};
use crate::engine::hooks::mark_of;
use crate::engine::hooks::{
    category_of, counter_of, event_of, kind_of, Expansion, Heard, Holds, Hook, Notice,
    Presentation, Valuation,
};
use crate::engine::outcome::{Category, Counter, CounterSpec, GameOutcome};
use crate::rule_options::{choice, Area, OptType, OptionDef};
use crate::ruleset::{Expr, ExtVar, Ruleset, Var};
use serde::Serialize;
use std::sync::Arc;

mod invariants;
mod present;
mod robbery;
mod round;

/// The `robbers` area of options (read by `meeplab check --list-options` as "robbers").
const AREA: Area = Area::Expansion("robbers");

/// The points a robbed marker just scored: the variable of `robbers.share` (within a
/// billion under any formula that does not itself warn).
pub const POINTS_ROBBED: Var = Var::Ext(ExtVar {
    name: "points",
    slot: 0,
    min: -1_000_000_000,
    max: 1_000_000_000,
});

/// The bit of the Robbers symbol (the tile mark `robber`) in a tile's marks.
pub const ROBBER_MARK: u32 = mark_of::<Robbers>(0);

/// Who else places a robber when a robber tile is drawn (rules.md §3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum RobberPlacers {
    /// HiG/Devir 2012, Big Box 6: the active player, then only the next player in turn
    /// order whose robber is still in supply.
    NextWithRobber,
    /// ZMG Big Box 4: the active player, then every other player with a robber in supply.
    AllOthers,
    /// 2025 edition: every player, from the active player clockwise.
    AllFromActive,
}

/// When in the turn robbers are placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum RobberTiming {
    /// After the robber tile is placed, before a follower (C1/C2).
    AfterTile,
    /// Before the robber tile is placed (2025).
    BeforeTile,
}

/// Whom a robber robs when several markers on its space score in one turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum RobberVictim {
    /// The robber's owner chooses (a `Decision`).
    OwnerChooses,
    /// Simply the first marker to score.
    FirstScored,
}

/// What the values of `robbers.placers` mean.
const PLACERS: &[(&str, RobberPlacers)] = &[
    ("next_with_robber", RobberPlacers::NextWithRobber),
    ("all_others", RobberPlacers::AllOthers),
    ("all_from_active", RobberPlacers::AllFromActive),
];
/// What the values of `robbers.timing` mean.
const TIMING: &[(&str, RobberTiming)] = &[
    ("after_tile", RobberTiming::AfterTile),
    ("before_tile", RobberTiming::BeforeTile),
];
/// What the values of `robbers.victim` mean.
const VICTIM: &[(&str, RobberVictim)] = &[
    ("owner_chooses", RobberVictim::OwnerChooses),
    ("first_scored", RobberVictim::FirstScored),
];

/// The Robbers' rules of a ruleset, read from its options (`robbers.…`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct RobberRules {
    pub placers: RobberPlacers,
    pub timing: RobberTiming,
    /// The active player may move its robber already on the track.
    pub active_may_move: bool,
    /// Robber's share of the robbed points (reads `points`): `ceil(points / 2)` canonically.
    pub share: Expr,
    /// Robbers also rob points scored in final scoring.
    pub in_final_scoring: bool,
    pub victim: RobberVictim,
    /// Spaces on the score track (50).
    pub track: u32,
}

impl RobberRules {
    /// The Robbers' rules of `rules`, or `None` when its deck holds no robber tile (the
    /// options are in play, each at its default unless set, exactly then).
    pub fn of(rules: &Ruleset) -> Option<RobberRules> {
        if !rules.ext_in_play("robbers.") {
            return None;
        }
        let flag = |o: &OptionDef| match rules.ext.get(o.key) {
            Some(crate::ruleset::ExtValue::Bool(b)) => *b,
            _ => o.default == "true",
        };
        Some(RobberRules {
            placers: OPT_PLACERS.mapped_in(rules, PLACERS),
            timing: OPT_TIMING.mapped_in(rules, TIMING),
            active_may_move: flag(&OPT_ACTIVE_MAY_MOVE),
            share: match rules.ext.get(OPT_SHARE.key) {
                Some(crate::ruleset::ExtValue::Expr(e)) => e.clone(),
                _ => canonical_share(),
            },
            in_final_scoring: flag(&OPT_IN_FINAL_SCORING),
            victim: OPT_VICTIM.mapped_in(rules, VICTIM),
            track: u32::try_from(OPT_TRACK.int_in(rules)).unwrap_or(50),
        })
    }
}

/// The canonical share, `ceil(points / 2)` (the default of `robbers.share`).
fn canonical_share() -> Expr {
    Expr::DivUp(Box::new(Expr::var(POINTS_ROBBED)), Box::new(Expr::num(2)))
}

/// A normal (robbable) scoring in the current step.
#[derive(Clone, Copy, Debug, Default)]
struct Move {
    player: u8,
    points: i64,
    from: u32,
}

/// A robbery owed: `owner`'s robber takes its share of `points` scored by `victim`.
#[derive(Clone, Copy, Debug, Default)]
struct Robbery {
    owner: u8,
    victim: u8,
    points: i64,
}

/// Robber bookkeeping for one game.
#[derive(Clone, Debug, Default)]
pub struct Robbers {
    /// Space of each seat's robber; `None` = in supply.
    pub at: [Option<u32>; MAX_PLAYERS],
    pub placements: u32,
    pub robberies: u32,
    /// No robbing at all (final scoring when robbers sit it out).
    pub suspended: bool,
    in_step: bool,
    /// Where each robber stood when the current scoring step began.
    step_start: [Option<u32>; MAX_PLAYERS],
    step: Vec<Move>,
    /// Points of each victim candidate of the decision being asked.
    candidate_points: Vec<i64>,
    // where a placement round or a step's settling stands (the turn may pause at a decision)
    round: [u8; MAX_PLAYERS],
    round_len: u8,
    round_k: u8,
    owed: [Robbery; MAX_PLAYERS],
    owed_len: u8,
    settle_k: u8,
    /// The ruleset's Robbers rules (read at configure time; shared, not copied, with the
    /// game); `None` when not in play.
    config: Option<Arc<RobberRules>>,
}

/// Where to place (or move) a robber on the score track, or pass.
pub const ROBBER_PLACE: DecisionKind = kind_of::<Robbers>(0);
/// Which scoring marker a robber robs when several could be.
pub const ROBBER_VICTIM: DecisionKind = kind_of::<Robbers>(1);

/// Points robbed from other players' scorings.
pub const ROBBERS: Category = category_of::<Robbers>(0);
/// Robbers placed (or moved) on the score track.
pub const PLACEMENTS: Counter = counter_of::<Robbers>(0);
/// Robberies.
pub const ROBBERIES: Counter = counter_of::<Robbers>(1);

/// A robber is placed on (or moved to) a score-track space (turn, player, space, moved).
pub const ROBBER_PLACED: EventKind = event_of::<Robbers>(0);
/// A player places no robber (turn, player).
pub const ROBBER_PASSED: EventKind = event_of::<Robbers>(1);
/// A robber's owner takes points from a victim's scoring; the robber goes home (turn,
/// robber, victim, points).
pub const ROBBED: EventKind = event_of::<Robbers>(2);
/// A robber moves along with a marker that advanced on robber points (turn, robber, from,
/// to).
pub const ROBBER_CARRIED: EventKind = event_of::<Robbers>(3);

/// The `robbers.placers` option (read through this constant: its key and default are written once).
const OPT_PLACERS: OptionDef = OptionDef {
        key: "robbers.placers",
        area: AREA,
        ty: OptType::Choice(&[
            choice("next_with_robber", "the active player, then only the next player in turn order whose robber is in supply"),
            choice("all_others", "the active player, then every other player with a robber in supply"),
            choice("all_from_active", "every player, from the active player clockwise"),
        ]),
        default: "next_with_robber",
        doc: "Who places a robber when a robber tile is drawn.",
        sources: "HiG/Devir 2012, Big Box 6: next_with_robber; ZMG Big Box 4: all_others; 2025 (C3.1): all_from_active",
        requires: None,
};

/// The `robbers.timing` option (read through this constant: its key and default are written once).
const OPT_TIMING: OptionDef = OptionDef {
    key: "robbers.timing",
    area: AREA,
    ty: OptType::Choice(&[
        choice(
            "after_tile",
            "after the robber tile is placed, before the follower",
        ),
        choice("before_tile", "before the robber tile is placed"),
    ]),
    default: "after_tile",
    doc: "When in the turn robbers are placed.",
    sources: "C1/C2: after_tile; 2025 (C3.1): before_tile",
    requires: None,
};

/// The `robbers.active_may_move` option (read through this constant: its key and default are written once).
const OPT_ACTIVE_MAY_MOVE: OptionDef = OptionDef {
    key: "robbers.active_may_move",
    area: AREA,
    ty: OptType::Bool,
    default: "true",
    doc: "The active player may move its robber already on the score track.",
    sources: "HiG 2012: true; papageek's C2 reading: false",
    requires: None,
};

/// The `robbers.share` option (read through this constant: its key and default are written once).
const OPT_SHARE: OptionDef = OptionDef {
    key: "robbers.share",
    area: AREA,
    ty: OptType::Expr {
        vars: &[POINTS_ROBBED],
        none_ok: false,
    },
    default: "ceil(points / 2)",
    doc: "The robber owner's share of the points the robbed marker scored.",
    sources: "all editions: half, rounded up",
    requires: None,
};

/// The `robbers.in_final_scoring` option (read through this constant: its key and default are written once).
const OPT_IN_FINAL_SCORING: OptionDef = OptionDef {
    key: "robbers.in_final_scoring",
    area: AREA,
    ty: OptType::Bool,
    default: "true",
    doc: "Robbers also rob points scored in final scoring.",
    sources: "Wikicarpedia C1 has a final-scoring section with examples (wording unread): true",
    requires: None,
};

/// The `robbers.victim` option (read through this constant: its key and default are written once).
const OPT_VICTIM: OptionDef = OptionDef {
    key: "robbers.victim",
    area: AREA,
    ty: OptType::Choice(&[
        choice(
            "owner_chooses",
            "the robber's owner chooses which scoring marker to rob",
        ),
        choice("first_scored", "the first marker to score is robbed"),
    ]),
    default: "owner_chooses",
    doc: "Whom a robber robs when several markers on its space score in one step.",
    sources: "Complete Annotated Rules, BGG description: owner_chooses",
    requires: None,
};

/// The `robbers.track` option (read through this constant: its key and default are written once).
const OPT_TRACK: OptionDef = OptionDef {
    key: "robbers.track",
    area: AREA,
    ty: OptType::Int { min: 10, max: 1000 },
    default: "50",
    doc: "Spaces on the score track.",
    sources: "all editions: 50",
    requires: None,
};

impl Expansion for Robbers {
    /// Its rule options (documented by `meeplab check --list-options`; in play, each at its
    /// default unless set, when the deck holds its tiles; the module reads them into its
    /// typed rules at configure time).
    const OPTIONS: &'static [OptionDef] = &[
        OPT_PLACERS,
        OPT_TIMING,
        OPT_ACTIVE_MAY_MOVE,
        OPT_SHARE,
        OPT_IN_FINAL_SCORING,
        OPT_VICTIM,
        OPT_TRACK,
    ];
    const TITLE: &'static str = "robbers";
    const PLAYED_WITH_TILES: Option<&'static str> = Some("robber");
    const TILE_MARKS: &'static [(&'static str, &'static str)] = &[(
        "robber",
        "the Robbers symbol: drawing (or placing) the tile starts a robber round",
    )];
    /// Before the gold where both act (placing a robber comes before the ingots when a tile
    /// is placed): the order the two had before priorities were declared.
    const PRIORITY: i8 = -1;
    const HOOKS: &'static [Hook] = &[
        Hook::TileDrawn,
        Hook::TilePlaced,
        Hook::TurnScored,
        Hook::FinalScored,
    ];
    /// A round of robber moves is due only on a robber tile's turn, and a scoring step's
    /// robberies are settled only after one began (`Game::robber_step_begin`).
    const ARMED: &'static [(Hook, u32)] = &[
        (Hook::TileDrawn, ROBBER_MARK),
        (Hook::TilePlaced, ROBBER_MARK),
        (Hook::TurnScored, 0),
    ];
    const HEARS: &'static [Heard] = &[
        Heard::ScoringBegins,
        Heard::FinalScoringBegins,
        Heard::PointsScored,
        Heard::FigureMoved,
    ];
    const DECISIONS: &'static [DecisionSpec] = &[
        DecisionSpec {
            name: "robber_place",
            key_code: 4,
            doc: "where to place (or move) a robber on the score track, or pass",
        },
        DecisionSpec {
            name: "robber_victim",
            key_code: 5,
            doc: "which scoring marker a robber robs when several could be",
        },
    ];
    const CATEGORIES: &'static [&'static str] = &["robbers"];
    const COUNTERS: &'static [CounterSpec] = &[
        CounterSpec {
            name: "robber_placements",
            doc: "robbers placed",
        },
        CounterSpec {
            name: "robberies",
            doc: "robberies",
        },
    ];
    const EVENTS: &'static [EventSpec] = &[
        EventSpec {
            name: "robber_placed",
            key_code: 12,
            fields: &[
                ("turn", Field::Turn),
                ("player", Field::Seat),
                ("space", Field::Count),
                ("moved", Field::Flag),
            ],
            narrate: |e, names| {
                let seat = names.seat;
                let v = e.values;
                let verb = if v[3] != 0 { "moves" } else { "places" };
                let who = seat(v[1] as u8);
                Some(format!("         {who} {verb} a robber on space {}", v[2]))
            },
            board: BoardChange::None,
        },
        EventSpec {
            name: "robber_passed",
            key_code: 13,
            fields: &[("turn", Field::Turn), ("player", Field::Seat)],
            narrate: |e, names| {
                let seat = names.seat;
                Some(format!(
                    "         {} places no robber",
                    seat(e.values[1] as u8)
                ))
            },
            board: BoardChange::None,
        },
        EventSpec {
            name: "robbed",
            key_code: 14,
            fields: &[
                ("turn", Field::Turn),
                ("robber", Field::Seat),
                ("victim", Field::Seat),
                ("points", Field::Points),
            ],
            narrate: |e, names| {
                let seat = names.seat;
                let v = e.values;
                let (robber, victim) = (seat(v[1] as u8), seat(v[2] as u8));
                Some(format!(
                    "         {robber}'s robber takes {} from {victim}'s scoring",
                    v[3]
                ))
            },
            board: BoardChange::None,
        },
        EventSpec {
            name: "robber_carried",
            key_code: 15,
            fields: &[
                ("turn", Field::Turn),
                ("robber", Field::Seat),
                ("from", Field::Count),
                ("to", Field::Count),
            ],
            narrate: |e, names| {
                let seat = names.seat;
                let v = e.values;
                let robber = seat(v[1] as u8);
                Some(format!(
                    "         {robber}'s robber moves along from space {} to {}",
                    v[2], v[3]
                ))
            },
            board: BoardChange::None,
        },
    ];

    fn choice<X: Holds<Self>>(g: &Game<X>, local: u8, i: usize) -> Choice {
        if local == 0 {
            let s = g.opt_space[i];
            Choice::Track {
                space: (s != NIL).then_some(s),
            }
        } else {
            Choice::Seat {
                player: g.opt_player[i],
            }
        }
    }

    fn option_count<X: Holds<Self>>(g: &Game<X>, local: u8) -> usize {
        if local == 0 {
            g.opt_space.len()
        } else {
            g.opt_player.len()
        }
    }

    fn used_by(rules: &Compiled) -> bool {
        rules.rules.ext_in_play("robbers.")
    }

    fn configure<X: Holds<Self>>(g: &mut Game<X>) {
        g.ext.state_mut().config = RobberRules::of(&g.rules.rules).map(Arc::new);
    }

    fn reset(&mut self) {
        self.at = [None; MAX_PLAYERS];
        self.placements = 0;
        self.robberies = 0;
        self.suspended = false;
        self.in_step = false;
        self.step_start = [None; MAX_PLAYERS];
        self.step.clear();
    }

    fn check_invariants<X: Holds<Self>>(g: &Game<X>) -> Result<(), String> {
        invariants::check(g)
    }

    fn cannot_hold(from: &Compiled, to: &Compiled) -> Option<String> {
        invariants::cannot_hold(from, to)
    }

    fn heap_bytes(&self) -> usize {
        std::mem::size_of_val(&self.step[..]) + std::mem::size_of_val(&self.candidate_points[..])
    }

    fn seat_state(&self, seat: usize) -> u64 {
        // the space + 1; 0 = in supply
        self.at
            .get(seat)
            .copied()
            .flatten()
            .map_or(0, |s| s as u64 + 1)
    }

    fn outcome(&self, out: &mut GameOutcome) {
        out.counters.add(PLACEMENTS, self.placements);
        out.counters.add(ROBBERIES, self.robberies);
    }

    // the common case (nothing to do) is checked here; the work is out of line
    #[inline]
    /// The round comes at the tile drawn or at the tile placed (`robbers.timing`), never at
    /// both.
    fn idle_at(rules: &Compiled, at: Hook) -> bool {
        let timing = RobberRules::of(&rules.rules).map(|r| r.timing);
        match at {
            Hook::TileDrawn => timing != Some(RobberTiming::BeforeTile),
            Hook::TilePlaced => timing != Some(RobberTiming::AfterTile),
            _ => false,
        }
    }

    // (inlined into the dispatch: a round or a settling is out of line)
    #[inline]
    fn on<X: Holds<Self>, S: EventSink>(
        g: &mut Game<X>,
        s: &mut S,
        at: Hook,
        answer: Option<usize>,
    ) -> bool {
        if answer.is_none() {
            let begins = match at {
                Hook::TileDrawn => g.robber_round_due(RobberTiming::BeforeTile),
                Hook::TilePlaced => g.robber_round_due(RobberTiming::AfterTile),
                Hook::TurnScored => g.robber_settle_begin(),
                Hook::FinalScored => g.robbers_in_final() && g.robber_settle_begin(),
                _ => false,
            };
            if !begins {
                return false;
            }
        }
        g.robbers_act(s, at, answer)
    }

    fn notice<X: Holds<Self>, S: EventSink>(g: &mut Game<X>, s: &mut S, n: Notice) {
        match n {
            Notice::ScoringBegins => g.robber_step_begin(),
            Notice::FinalScoringBegins => {
                if g.robbers_in_final() {
                    g.robber_step_begin();
                } else {
                    g.ext.state_mut().suspended = true;
                }
            }
            Notice::PointsScored {
                player,
                before,
                points,
                robbable,
            } => {
                // with the score split over figures, the figure's move comes later
                if X::scoring_figures(g, player).is_none() {
                    g.on_marker_moved(s, player, before, points, robbable, true);
                }
            }
            Notice::FigureMoved {
                player,
                before,
                points,
                robbable,
                ..
            } => g.on_marker_moved(s, player, before, points, robbable, false),
            Notice::TilePlaced | Notice::FeatureScored { .. } | Notice::AreaScored { .. } => {}
        }
    }
}

impl Valuation for Robbers {
    /// A space: the score of the best-scoring other marker on it (−1 to pass or when none).
    /// A victim: the points it scored this step.
    fn value_hint<X: Holds<Self>>(g: &Game<X>, local: u8, i: usize, player: u8) -> i64 {
        if local == 1 {
            return g.victim_points(i);
        }
        let space = g.opt_space[i];
        if space == NIL {
            return -1;
        }
        (0..g.players)
            .filter(|&q| {
                let (spaces, n) = g.figure_spaces(q);
                q != player && spaces[..n].contains(&space)
            })
            .map(|q| g.score[q as usize])
            .max()
            .unwrap_or(-1)
    }

    /// The shares of the other players' robbers beside the figure's space.
    fn toll<X: Holds<Self>>(g: &Game<X>, player: u8, from: i64, points: i64) -> i64 {
        let r = g.ext.state();
        let Some(rules) = r.config.as_deref() else {
            return 0;
        };
        if r.suspended || points <= 0 {
            return 0;
        }
        let space = g.space_of(from);
        let robbers = (0..g.players)
            .filter(|&o| o != player && r.at[o as usize] == Some(space))
            .count() as i64;
        if robbers == 0 {
            return 0;
        }
        robbers
            * rules
                .share
                .eval(&crate::ruleset::Vars::default().with(POINTS_ROBBED, points))
    }
}

impl Presentation for Robbers {
    fn choice_words(_local: u8, c: &Choice, how: Wording) -> Option<String> {
        present::choice_words(c, how)
    }

    const SWEPT_POINTS: &'static [(u8, &'static str, &'static str)] =
        &[(0, "robber_points", "robber points / seat")];
    fn tile_art<X: Holds<Self>>(
        _g: &Game<X>,
        _pidx: usize,
        tile: &crate::tiles::TileType,
        layer: crate::engine::hooks::TileLayer,
        at: crate::engine::hooks::TileFrame,
        out: &mut String,
    ) {
        present::tile_art(tile, layer, at, out);
    }

    fn board_band<X: Holds<Self>>(g: &Game<X>) -> f64 {
        present::board_band(g)
    }

    fn draw_board_band<X: Holds<Self>>(
        g: &Game<X>,
        top: f64,
        width: f64,
        paint: &crate::engine::hooks::Paint,
        out: &mut String,
    ) {
        present::draw_board_band(g, top, width, paint, out);
    }

    fn board_legend(
        rules: &Compiled,
        after_river: bool,
        paint: &crate::engine::hooks::Paint,
        out: &mut Vec<(String, String)>,
    ) {
        present::board_legend(rules, after_river, paint, out);
    }
}

impl<X: Holds<Robbers>> Game<X> {
    /// Robber positions (score-track space) per seat, `None` = in supply.
    pub fn robbers(&self) -> &[Option<u32>] {
        &self.ext.state().at[..self.players as usize]
    }

    /// Robbers take part in final scoring.
    fn robbers_in_final(&self) -> bool {
        self.ext
            .state()
            .config
            .as_ref()
            .is_some_and(|r| r.in_final_scoring)
    }

    /// The tile just drawn or placed is a robber tile and the round happens at `timing`.
    #[inline]
    fn robber_round_due(&self, timing: RobberTiming) -> bool {
        self.rules.tiles[self.current as usize].marks & ROBBER_MARK != 0
            && self.ext.state().config.as_ref().map(|r| r.timing) == Some(timing)
    }

    /// Robbers act at `at` (a round is due, or a step has robberies to settle): set up a
    /// round on entering, then run it or the settling. True when a decision is asked.
    #[inline(never)]
    fn robbers_act<S: EventSink>(&mut self, s: &mut S, at: Hook, answer: Option<usize>) -> bool {
        match at {
            Hook::TileDrawn | Hook::TilePlaced => {
                if answer.is_none() {
                    self.robber_round_begin();
                }
                self.robber_round(s, answer)
            }
            _ => self.robber_settle(s, answer),
        }
    }

    fn track(&self) -> u32 {
        self.ext
            .state()
            .config
            .as_ref()
            .map_or(50, |r| r.track.max(1))
    }

    /// Space of a score of `points`.
    fn space_of(&self, points: i64) -> u32 {
        points.rem_euclid(self.track() as i64) as u32
    }

    /// Score-track space of `player`'s marker.
    pub fn marker_space(&self, player: u8) -> u32 {
        self.space_of(self.score[player as usize])
    }

    /// Score-track spaces of `player`'s scoring figures, and how many: its marker's, or
    /// the two figures' when an expansion splits the score (the Messengers).
    pub fn figure_spaces(&self, player: u8) -> ([u32; 2], usize) {
        match X::scoring_figures(self, player) {
            Some(f) => ([self.space_of(f[0]), self.space_of(f[1])], 2),
            None => ([self.marker_space(player), 0], 1),
        }
    }

    /// Test support (rulebook scenarios): put `player`'s score, and so its marker, at
    /// `points` without scoring anything.
    #[doc(hidden)]
    pub fn set_score_for_test(&mut self, player: u8, points: i64) {
        self.score[player as usize] = points;
    }

    /// Test support (rulebook scenarios): put `player`'s robber on score-track `space`, or
    /// back in its supply with `None`.
    #[doc(hidden)]
    pub fn set_robber_for_test(&mut self, player: u8, space: Option<u32>) {
        self.ext.state_mut().at[player as usize] = space;
    }

    /// Points scored by victim candidate `i` of the decision being asked.
    pub fn victim_points(&self, i: usize) -> i64 {
        self.ext
            .state()
            .candidate_points
            .get(i)
            .copied()
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    /// Every value of a choice option has its meaning (never silently the first).
    #[test]
    fn every_choice_value_is_mapped() {
        assert!(super::OPT_PLACERS.names_exactly(None, super::PLACERS));
        assert!(super::OPT_TIMING.names_exactly(None, super::TIMING));
        assert!(super::OPT_VICTIM.names_exactly(None, super::VICTIM));
    }
}
