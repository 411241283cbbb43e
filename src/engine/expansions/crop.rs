//! Crop Circles (rules.md §4): after a crop-circle tile's scoring and gold, the active player
//! chooses deploy or remove; then every player, from the left neighbour clockwise with the
//! active player last, acts once if it has a follower of the circle's type on the board:
//! deploy one more follower beside one of them (may/must; same segment or any tile of that
//! feature, by option) or return one of them.
//!
//! A follower is any kind of weight above 0 that may stand on the circle's feature type (the
//! plain follower, the large one): "take one of their own followers from their supply" (C1),
//! "deploy a meeple from your supply" (C2), and JCloisterZone's `CornCirclePhase` offers the
//! small and the big follower alike (with the phantom, ringmaster, wagon and mayor meeplab
//! does not have). So a deploy names the kind, and a removal takes back a follower of a kind:
//! a player with a follower and a large follower on one spot chooses which.

use crate::engine::compiled::Compiled;
use crate::engine::decision::{Choice, DecisionKind, DecisionSpec, Wording};
use crate::engine::event::{
    BoardChange, Event, EventKind, EventSink, EventSpec, ExpansionEvent, Field,
};
use crate::engine::follower_kind::FollowerKind;
use crate::engine::game::{Game, NIL};
use crate::engine::hooks::mark_of;
use crate::engine::hooks::{
    counter_of, event_of, kind_of, Expansion, Heard, Holds, Hook, Presentation, Valuation,
};
use crate::engine::outcome::{Counter, CounterSpec, GameOutcome};
use crate::rule_options::{choice, Area, OptType, OptionDef};
use crate::ruleset::{FarmRule, Ruleset};
use crate::tiles::FeatureKind;
use serde::Serialize;

/// The symbol of a crop circle, and so the follower type it acts on (a tile carries it as
/// the mark `crop city`, `crop road` or `crop field`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum CropKind {
    /// Shield: knights (followers in cities).
    City,
    /// Club: thieves (followers on roads).
    Road,
    /// Pitchfork: farmers (followers in fields).
    Field,
}

impl CropKind {
    /// Every kind, in the order of its tile marks.
    pub const ALL: [CropKind; 3] = [CropKind::City, CropKind::Road, CropKind::Field];

    pub fn feature(self) -> FeatureKind {
        match self {
            CropKind::City => FeatureKind::City,
            CropKind::Road => FeatureKind::Road,
            CropKind::Field => FeatureKind::Field,
        }
    }

    pub fn name(self) -> &'static str {
        self.feature().name()
    }

    /// Its bit in a tile's marks.
    pub const fn mark(self) -> u32 {
        mark_of::<CropCircles>(self as u8)
    }

    /// The crop circle a tile with `marks` carries, if any.
    #[inline]
    pub fn of_marks(marks: u32) -> Option<CropKind> {
        if marks & MARKS == 0 {
            return None;
        }
        CropKind::ALL.into_iter().find(|k| marks & k.mark() != 0)
    }
}

/// The bits of the crop-circle marks in a tile's marks.
pub const MARKS: u32 = CropKind::City.mark() | CropKind::Road.mark() | CropKind::Field.mark();

/// The `crop` area of options (read by `meeplab check --list-options` as "crop circles").
const AREA: Area = Area::Expansion("crop");

/// Crop circle deploy: may or must.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum CropDeploy {
    /// Each player may deploy (HiG).
    May,
    /// Each player must deploy when it can (ZMG).
    Must,
}

/// Where a crop-circle follower goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum CropTarget {
    /// On the same segment as one of the player's followers of that type (HiG).
    SameSegment,
    /// On any tile of a feature holding one of the player's followers of that type (ZMG).
    AnyTileOfFeature,
}

/// What the values of `crop.deploy` mean.
const DEPLOY: &[(&str, CropDeploy)] = &[("may", CropDeploy::May), ("must", CropDeploy::Must)];
/// What the values of `crop.target` mean.
const TARGET: &[(&str, CropTarget)] = &[
    ("same_segment", CropTarget::SameSegment),
    ("any_tile_of_feature", CropTarget::AnyTileOfFeature),
];

/// The crop-circle rules of a ruleset, read from its options (`crop.deploy`, `crop.target`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct CropRules {
    pub deploy: CropDeploy,
    pub target: CropTarget,
}

impl CropRules {
    /// The crop-circle rules of `rules`, or `None` when its deck holds no crop-circle tile
    /// (the options are in play, each at its default unless set, exactly then).
    pub fn of(rules: &Ruleset) -> Option<CropRules> {
        if !rules.ext_in_play("crop.") {
            return None;
        }
        Some(CropRules {
            deploy: OPT_DEPLOY.mapped_in(rules, DEPLOY),
            target: OPT_TARGET.mapped_in(rules, TARGET),
        })
    }
}

/// Crop-circle bookkeeping for one game.
#[derive(Clone, Debug, Default)]
pub struct CropCircles {
    /// Crop-circle actions taken.
    actions: u32,
    /// Where this turn's action stands.
    turn: CropTurn,
    /// Scratch: one player's followers on the circle's feature type, (node, kind) distinct.
    own: Vec<(u32, FollowerKind)>,
    /// The follower kind of each option of the decision asked (beside `Game::opt_node`).
    opt_kind: Vec<FollowerKind>,
    /// The ruleset's crop-circle rules (read at configure time); `None` when not in play.
    config: Option<CropRules>,
}

/// Crop circle: deploy or remove (options: deploy, remove).
pub const CROP_MODE: DecisionKind = kind_of::<CropCircles>(0);
/// Crop circle: where to deploy, or pass.
pub const CROP_DEPLOY: DecisionKind = kind_of::<CropCircles>(1);
/// Crop circle: which follower to remove.
pub const CROP_REMOVE: DecisionKind = kind_of::<CropCircles>(2);

/// Crop-circle actions (a follower deployed or removed).
pub const ACTIONS: Counter = counter_of::<CropCircles>(0);

/// The fields of a follower added or taken back: (turn, player, x, y, segment).
const SPOT_FIELDS: &[(&str, Field)] = &[
    ("turn", Field::Turn),
    ("player", Field::Seat),
    ("x", Field::Coord),
    ("y", Field::Coord),
    ("segment", Field::Segment),
];

/// The active player's crop-circle choice (turn, player, circle, deploy).
pub const CROP_CHOICE: EventKind = event_of::<CropCircles>(0);
/// A player adds a follower to a feature of the circle's type (turn, player, x, y, segment).
pub const CROP_DEPLOYED: EventKind = event_of::<CropCircles>(1);
/// A player takes back a follower (turn, player, x, y, segment).
pub const CROP_REMOVED: EventKind = event_of::<CropCircles>(2);
/// A player adds no follower (turn, player).
pub const CROP_PASSED: EventKind = event_of::<CropCircles>(3);

/// The `crop.deploy` option (read through this constant: its key and default are written once).
const OPT_DEPLOY: OptionDef = OptionDef {
    key: "crop.deploy",
    area: AREA,
    ty: OptType::Choice(&[
        choice("may", "each player may add a follower"),
        choice("must", "each player must add a follower when it can"),
    ]),
    default: "may",
    doc: "Crop-circle action A: whether adding a follower is optional.",
    sources: "HiG, Wikicarpedia: may; ZMG C2 English: must",
    requires: None,
};

/// The `crop.target` option (read through this constant: its key and default are written once).
const OPT_TARGET: OptionDef = OptionDef {
    key: "crop.target",
    area: AREA,
    ty: OptType::Choice(&[
        choice(
            "same_segment",
            "next to one of the player's followers of that type, on the same tile and segment",
        ),
        choice(
            "any_tile_of_feature",
            "on any tile of a feature holding one of the player's followers of that type",
        ),
    ]),
    default: "same_segment",
    doc: "Crop-circle action A: where the added follower goes.",
    sources: "HiG, JCloisterZone: same_segment; ZMG: any_tile_of_feature",
    requires: None,
};

impl Expansion for CropCircles {
    /// Its rule options (documented by `meeplab check --list-options`; in play, each at its
    /// default unless set, when the deck holds its tiles; the module reads them into its
    /// typed rules at configure time).
    const OPTIONS: &'static [OptionDef] = &[OPT_DEPLOY, OPT_TARGET];
    const TITLE: &'static str = "crop circles";
    const PLAYED_WITH_TILES: Option<&'static str> = Some("crop-circle");
    /// In the order of [`CropKind::ALL`].
    const TILE_MARKS: &'static [(&'static str, &'static str)] = &[
        (
            "crop city",
            "a crop circle with a shield: the action moves knights",
        ),
        (
            "crop road",
            "a crop circle with a club: the action moves thieves",
        ),
        (
            "crop field",
            "a crop circle with a pitchfork: the action moves farmers",
        ),
    ];
    const MARK_KEYWORDS: &'static [(&'static str, &'static str)] = &[("crop", "crop-circle kind")];
    const HOOKS: &'static [Hook] = &[Hook::AfterScoring];
    /// Only a turn whose tile bears a crop circle acts.
    const ARMED: &'static [(Hook, u32)] = &[(Hook::AfterScoring, MARKS)];
    const HEARS: &'static [Heard] = &[];
    const DECISIONS: &'static [DecisionSpec] = &[
        DecisionSpec {
            name: "crop_mode",
            key_code: 6,
            doc: "crop circle: deploy or remove",
        },
        DecisionSpec {
            name: "crop_deploy",
            key_code: 7,
            doc: "crop circle: where to deploy, or pass",
        },
        DecisionSpec {
            name: "crop_remove",
            key_code: 8,
            doc: "crop circle: which follower to remove",
        },
    ];
    const COUNTERS: &'static [CounterSpec] = &[CounterSpec {
        name: "crop_circle_actions",
        doc: "crop-circle actions",
    }];
    const EVENTS: &'static [EventSpec] = &[
        EventSpec {
            name: "crop_choice",
            key_code: 16,
            fields: &[
                ("turn", Field::Turn),
                ("player", Field::Seat),
                ("circle", Field::Feature),
                ("deploy", Field::Flag),
            ],
            narrate: |e, names| {
                let seat = names.seat;
                let v = e.values;
                let circle = FeatureKind::from_index(v[2] as usize);
                let what = if v[3] != 0 { "deploy" } else { "remove" };
                let who = seat(v[1] as u8);
                Some(format!(
                    "         crop circle ({circle}): {who} chooses {what}"
                ))
            },
            board: BoardChange::None,
        },
        EventSpec {
            name: "crop_deployed",
            key_code: 17,
            fields: SPOT_FIELDS,
            narrate: |e, names| {
                let seat = names.seat;
                let v = e.values;
                let who = seat(v[1] as u8);
                Some(format!(
                    "         {who} adds a follower at ({},{})",
                    v[2], v[3]
                ))
            },
            board: BoardChange::None,
        },
        EventSpec {
            name: "crop_removed",
            key_code: 18,
            fields: SPOT_FIELDS,
            narrate: |e, names| {
                let seat = names.seat;
                let v = e.values;
                let who = seat(v[1] as u8);
                Some(format!(
                    "         {who} takes back its follower at ({},{})",
                    v[2], v[3]
                ))
            },
            board: BoardChange::None,
        },
        EventSpec {
            name: "crop_passed",
            key_code: 19,
            fields: &[("turn", Field::Turn), ("player", Field::Seat)],
            narrate: |e, names| {
                let seat = names.seat;
                Some(format!(
                    "         {} adds no follower",
                    seat(e.values[1] as u8)
                ))
            },
            board: BoardChange::None,
        },
    ];

    fn choice<X: Holds<Self>>(g: &Game<X>, local: u8, i: usize) -> Choice {
        if local == 0 {
            return Choice::Flag { yes: i == 0 };
        }
        let n = g.opt_node[i];
        match g.ext.state().opt_kind.get(i) {
            Some(&kind) if n != NIL && !kind.is_plain() => Choice::SpotOf {
                at: g.node_spot(n),
                kind,
            },
            _ => Choice::Spot {
                at: (n != NIL).then(|| g.node_spot(n)),
            },
        }
    }

    fn option_count<X: Holds<Self>>(g: &Game<X>, local: u8) -> usize {
        if local == 0 {
            2
        } else {
            g.opt_node.len()
        }
    }

    fn used_by(rules: &Compiled) -> bool {
        rules.rules.ext_in_play("crop.")
    }

    fn configure<X: Holds<Self>>(g: &mut Game<X>) {
        g.ext.state_mut().config = CropRules::of(&g.rules.rules);
    }

    fn reset(&mut self) {
        self.actions = 0;
    }

    fn heap_bytes(&self) -> usize {
        std::mem::size_of_val(&self.own[..]) + std::mem::size_of_val(&self.opt_kind[..])
    }

    fn outcome(&self, out: &mut GameOutcome) {
        out.counters.add(ACTIONS, self.actions);
    }

    // (inlined into the dispatch: most turns test a tile mark)
    #[inline]
    fn on<X: Holds<Self>, S: EventSink>(
        g: &mut Game<X>,
        s: &mut S,
        at: Hook,
        answer: Option<usize>,
    ) -> bool {
        debug_assert_eq!(at, Hook::AfterScoring);
        match answer {
            None => match CropKind::of_marks(g.rules.tiles[g.current as usize].marks) {
                Some(kind) => g.crop_begin(kind),
                None => false,
            },
            Some(_) => g.crop(s, answer),
        }
    }
}

impl Valuation for CropCircles {
    /// The mode: `player`'s followers of the circle's type minus the most any other player
    /// has (deploy when ahead, remove when behind). A spot: deploying anywhere beats passing
    /// (1 + the feature's tiles, times the follower's weight); removing prefers the follower
    /// on the fewest tiles.
    fn value_hint<X: Holds<Self>>(g: &Game<X>, local: u8, i: usize, player: u8) -> i64 {
        if local == 0 {
            return crop_mode_value(g, i == 0, player);
        }
        let node = g.opt_node[i];
        if node == NIL {
            return 0;
        }
        let tiles = g.feature_tile_count(g.feature_of(node)) as i64;
        if local == 2 {
            -tiles
        } else {
            let weight = g.ext.state().opt_kind.get(i).map_or(1, |k| k.weight());
            (1 + tiles) * weight as i64
        }
    }
}

impl Presentation for CropCircles {
    /// `crop_mode`'s options (`Choice::Flag`: yes = deploy) in words; the spots take the
    /// generic ones.
    fn choice_words(local: u8, c: &Choice, how: Wording) -> Option<String> {
        let (0, Choice::Flag { yes }) = (local, *c) else {
            return None;
        };
        let mode = if yes { "deploy" } else { "remove" };
        Some(match how {
            Wording::Note => mode.into(),
            Wording::Phrase | Wording::Legend { .. } => format!("crop circle: {mode}"),
        })
    }

    fn tile_art<X: Holds<Self>>(
        _g: &Game<X>,
        _pidx: usize,
        tile: &crate::tiles::TileType,
        layer: crate::engine::hooks::TileLayer,
        at: crate::engine::hooks::TileFrame,
        out: &mut String,
    ) {
        present_tile_art(tile, layer, at, out);
    }

    fn board_legend(
        rules: &Compiled,
        after_river: bool,
        _paint: &crate::engine::hooks::Paint,
        out: &mut Vec<(String, String)>,
    ) {
        present_legend(rules, after_river, out);
    }
}

/// See [`CropCircles::value_hint`].
fn crop_mode_value<X: Holds<CropCircles>>(g: &Game<X>, deploy: bool, player: u8) -> i64 {
    let Some(kind) = CropKind::of_marks(g.rules.tiles[g.current_tile() as usize].marks) else {
        return 0;
    };
    let mut count = [0i64; crate::engine::game::MAX_PLAYERS];
    for f in &g.followers {
        if g.seg_kind(f.node) == kind.feature() && !g.comps[g.root_of(f.node) as usize].done {
            count[f.player as usize] += 1;
        }
    }
    let mine = count[player as usize];
    let others = (0..g.players as usize)
        .filter(|&q| q != player as usize)
        .map(|q| count[q])
        .max()
        .unwrap_or(0);
    if deploy {
        mine - others
    } else {
        others - mine
    }
}

impl<X: Holds<CropCircles>> Game<X> {
    /// `player`'s followers on a feature of `kind`: (node, follower kind), distinct, in the
    /// order they were placed. A builder or a pig (weight 0) is a special figure, not a
    /// follower: the circle neither counts nor removes it (JCloisterZone acts on its
    /// `Follower`s only).
    fn own_nodes(&self, player: u8, kind: CropKind, out: &mut Vec<(u32, FollowerKind)>) {
        out.clear();
        for f in &self.followers {
            // a follower on a feature already done (one another expansion turned into a
            // token) is no longer on a road, city or field of the board
            // (seat and feature kind in one branch: each alone is a coin toss)
            if (f.player == player) & (self.seg_kind(f.node) == kind.feature())
                && f.kind.weight() > 0
                && !self.comps[self.root_of(f.node) as usize].done
                && !out.contains(&(f.node, f.kind))
            {
                out.push((f.node, f.kind));
            }
        }
    }

    /// A crop-circle tile was placed: true when the action happens (the active player is
    /// asked deploy or remove; see [`Game::crop`]).
    // (out of line, as `crop`: `on` is entered every turn and mostly returns)
    #[inline(never)]
    pub(crate) fn crop_begin(&mut self, kind: CropKind) -> bool {
        if self.ext.state().config.is_none() {
            return false;
        }
        if kind == CropKind::Field && self.rules.rules.scoring.farm == FarmRule::Off {
            return false;
        }
        if self.followers.is_empty() {
            // nobody could act: JCloisterZone skips the step, and no score can change
            return false;
        }
        self.ext.state_mut().actions += 1;
        self.ext.state_mut().turn = CropTurn {
            kind,
            deploy: false,
            mode_chosen: false,
            k: 1,
        };
        self.ask(CROP_MODE, self.active, 2);
        true
    }

    /// The crop-circle action, resumable: `choice` answers the decision last asked (the mode,
    /// then each player's spot). Returns true when it asked a decision, false when done.
    #[inline(never)]
    pub(crate) fn crop<S: EventSink>(&mut self, s: &mut S, choice: Option<usize>) -> bool {
        let Some((may_pass, target)) = self
            .ext
            .state()
            .config
            .map(|r| (r.deploy == CropDeploy::May, r.target))
        else {
            return false;
        };
        let active = self.active;
        let n = self.players;
        let kind = self.ext.state_mut().turn.kind;
        if let Some(i) = choice {
            if !self.ext.state_mut().turn.mode_chosen {
                self.ext.state_mut().turn.mode_chosen = true;
                self.ext.state_mut().turn.deploy = i == 0;
                self.emit(
                    s,
                    Event::Expansion(ExpansionEvent::new(
                        CROP_CHOICE,
                        &[
                            self.turn as i64,
                            active as i64,
                            (kind.feature()) as i64,
                            (i == 0) as i64,
                        ],
                    )),
                );
            } else {
                let p = (active + self.ext.state_mut().turn.k) % n;
                self.ext.state_mut().turn.k += 1;
                let node = self.opt_node[i];
                let fkind = self.ext.state().opt_kind[i];
                if self.ext.state_mut().turn.deploy {
                    if node == NIL {
                        self.emit(
                            s,
                            Event::Expansion(ExpansionEvent::new(
                                CROP_PASSED,
                                &[self.turn as i64, p as i64],
                            )),
                        );
                    } else {
                        self.deploy(s, p, node, fkind);
                        let (x, y, segment) = self.node_spot(node);
                        self.emit(
                            s,
                            Event::Expansion(ExpansionEvent::new(
                                CROP_DEPLOYED,
                                &[
                                    self.turn as i64,
                                    p as i64,
                                    x as i64,
                                    y as i64,
                                    segment as i64,
                                ],
                            )),
                        );
                    }
                } else {
                    if let Some(fi) = self
                        .followers
                        .iter()
                        .position(|f| f.player == p && f.node == node && f.kind == fkind)
                    {
                        self.return_follower(s, fi);
                    }
                    let (x, y, segment) = self.node_spot(node);
                    self.emit(
                        s,
                        Event::Expansion(ExpansionEvent::new(
                            CROP_REMOVED,
                            &[
                                self.turn as i64,
                                p as i64,
                                x as i64,
                                y as i64,
                                segment as i64,
                            ],
                        )),
                    );
                }
            }
        }
        let mut own = std::mem::take(&mut self.ext.state_mut().own);
        let mut kinds = std::mem::take(&mut self.ext.state_mut().opt_kind);
        let mut asked = false;
        while self.ext.state_mut().turn.k <= n {
            let p = (active + self.ext.state_mut().turn.k) % n;
            self.own_nodes(p, kind, &mut own);
            if own.is_empty() {
                self.ext.state_mut().turn.k += 1;
                continue;
            }
            self.opt_node.clear();
            kinds.clear();
            if self.ext.state_mut().turn.deploy {
                // the kinds of follower `p` may add: weight above 0, standing on the
                // circle's feature type, one in supply (the plain one first, then kind order)
                let mut held = [FollowerKind::PLAIN; 8];
                let mut nheld = 0;
                for k in self.follower_kinds() {
                    if k.weight() > 0
                        && k.spec().may_stand_on(kind.feature())
                        && self.supply_of(p, k) > 0
                        && nheld < held.len()
                    {
                        held[nheld] = k;
                        nheld += 1;
                    }
                }
                if nheld == 0 {
                    self.ext.state_mut().turn.k += 1;
                    continue;
                }
                if may_pass {
                    self.opt_node.push(NIL);
                    kinds.push(FollowerKind::PLAIN);
                }
                // the spots first, then each spot once per kind held (the spots dropped)
                let before = self.opt_node.len();
                match target {
                    CropTarget::SameSegment => {
                        for &(node, _) in &own {
                            if !self.opt_node[before..].contains(&node) {
                                self.opt_node.push(node);
                            }
                        }
                    }
                    CropTarget::AnyTileOfFeature => {
                        for &(node, _) in &own {
                            let r = self.root(node);
                            let mut m = self.comps[r as usize].head;
                            while m != NIL {
                                if !self.opt_node[before..].contains(&m) {
                                    self.opt_node.push(m);
                                }
                                m = self.nodes[m as usize].next;
                            }
                        }
                    }
                }
                let spots = self.opt_node.len() - before;
                for j in 0..spots {
                    let node = self.opt_node[before + j];
                    for &k in &held[..nheld] {
                        self.opt_node.push(node);
                        kinds.push(k);
                    }
                }
                self.opt_node.drain(before..before + spots);
                let count = self.opt_node.len();
                self.ext.state_mut().opt_kind = std::mem::take(&mut kinds);
                self.ask(CROP_DEPLOY, p, count);
            } else {
                for &(node, k) in &own {
                    self.opt_node.push(node);
                    kinds.push(k);
                }
                let count = self.opt_node.len();
                self.ext.state_mut().opt_kind = std::mem::take(&mut kinds);
                self.ask(CROP_REMOVE, p, count);
            }
            asked = true;
            break;
        }
        if !asked {
            self.ext.state_mut().opt_kind = kinds;
        }
        self.ext.state_mut().own = own;
        asked
    }
}

/// Where a crop-circle action stands (the turn may pause at its decisions).
#[derive(Clone, Copy, Debug)]
struct CropTurn {
    pub kind: CropKind,
    pub deploy: bool,
    /// The active player's deploy/remove is taken.
    pub mode_chosen: bool,
    /// Next player to act, as an offset from the active player (1..=players).
    pub k: u8,
}

impl Default for CropTurn {
    fn default() -> Self {
        CropTurn {
            kind: CropKind::City,
            deploy: false,
            mode_chosen: false,
            k: 0,
        }
    }
}

// What the crop circles add to the SVG board (`Presentation::tile_art`, `board_legend`).

/// A crop circle at the centre of its tile, over the features, with its kind's name.
fn present_tile_art(
    tile: &crate::tiles::TileType,
    layer: crate::engine::hooks::TileLayer,
    at: crate::engine::hooks::TileFrame,
    out: &mut String,
) {
    use std::fmt::Write;
    let Some(kind) = CropKind::of_marks(tile.marks) else {
        return;
    };
    if layer != crate::engine::hooks::TileLayer::Centre {
        return;
    }
    let (x, y) = at.point(0.5, 0.5);
    let _ = writeln!(
        out,
        r##"<circle cx="{x}" cy="{y}" r="{}" fill="#e8d27a" stroke="#8a7a2a"/><text x="{x}" y="{}" font-size="9" text-anchor="middle">{}</text>"##,
        at.size * 0.16,
        y + 3.0,
        kind.name()
    );
}

/// The legend's line for a crop circle, when the rules have crop-circle tiles (after the
/// river's line).
fn present_legend(rules: &Compiled, after_river: bool, out: &mut Vec<(String, String)>) {
    if after_river && rules.rules.tiles.iter().any(|t| t.marks & MARKS != 0) {
        out.push((
            r##"<circle cx="8" cy="6" r="6" fill="#e8d27a" stroke="#8a7a2a"/>"##.to_string(),
            "crop circle".to_string(),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::CropKind;

    /// Every value of a choice option has its meaning (never silently the first).
    #[test]
    fn every_choice_value_is_mapped() {
        assert!(super::OPT_DEPLOY.names_exactly(None, super::DEPLOY));
        assert!(super::OPT_TARGET.names_exactly(None, super::TARGET));
    }
    use crate::engine::{compile, Event, Game};
    use crate::tiles::FeatureKind;
    use std::path::Path;

    fn game() -> Game {
        let loaded = crate::dsl::load_ruleset(Path::new("rulesets/cropcircles.rules"))
            .unwrap_or_else(|d| panic!("{d}"));
        let mut g = Game::new(compile(&loaded.ruleset), 1, 2);
        g.setup(&mut Vec::new());
        g
    }

    /// The action, every decision answered with its first option.
    fn act(g: &mut Game, events: &mut Vec<Event>, kind: CropKind) {
        if g.crop_begin(kind) {
            while g.crop(events, Some(0)) {}
        }
    }

    fn choices(events: &[Event]) -> usize {
        events
            .iter()
            .filter(|e| e.of(super::CROP_CHOICE).is_some())
            .count()
    }

    /// With no follower on the board nobody can act: the step is skipped (as JCloisterZone
    /// does); with one, the active player chooses.
    #[test]
    fn the_step_is_skipped_only_when_no_follower_is_on_the_board() {
        let mut g = game();
        let mut events = Vec::new();
        act(&mut g, &mut events, CropKind::Road);
        assert_eq!((choices(&events), g.ext.crop.actions), (0, 0));

        let mut g = game();
        let start = g.placed_tiles()[0];
        let road = (0..4u32)
            .find(|&i| g.seg_kind(start.node0 + i) == FeatureKind::Road)
            .expect("the start tile has a road");
        let mut events = Vec::new();
        g.deploy(
            &mut events,
            1,
            start.node0 + road,
            crate::engine::FollowerKind::PLAIN,
        );
        // a city circle: seat 1 has no knight, but the active player must still choose
        act(&mut g, &mut events, CropKind::City);
        assert_eq!((choices(&events), g.ext.crop.actions), (1, 1));
    }
}
