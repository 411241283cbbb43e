//! The Abbot and gardens (the 2nd-edition base game, Hans im Glück 2014; Big Box 6, 2017;
//! rules as Wikicarpedia's "The Abbot" page gives them, `docs/src/rules/abbot.md`):
//!
//! - **Gardens** are printed on 8 of the 72 C2 base tiles (and on some C2 tiles of other
//!   expansions). A tile with the `garden` mark carries its garden as its cloister segment
//!   (`cloister garden` in the tile language), so it is scored exactly like a cloister: 9 when
//!   its 8 neighbours are placed, at the end 1 + its neighbours (the ruleset's cloister
//!   formulas). Only the abbot may stand on a garden ([`Expansion::may_stand`]).
//! - **The abbot**: a follower kind, one a player, of weight 1, placed like a follower on a
//!   cloister or a garden of the tile just placed (the core offers it).
//! - **Taking the abbot back**: at the start of the figure step (`Hook::TilePlaced`), a player
//!   whose abbot stands on a cloister or garden that is not complete may take it back instead
//!   of placing any figure ([`Game::take_figure_action`]); its cloister or garden scores as
//!   final scoring would score it, to its owner. An abbot on a feature the tile just placed
//!   completed is not offered (ruling 11/2020): the turn's scoring scores it.
//! - **Final scoring**: an abbot still out scores like a follower on an unfinished cloister
//!   (the core does it).
//!
//! Gardens are not cloisters for bonuses meant for monasteries (clarification 6/2024); no
//! expansion meeplab plays has such a bonus (the Messages' smallest-monastery message, Hills &
//! Sheep's vineyards would): [`is_garden`] is how one would tell them apart. Everything else
//! that reads a completed or scored cloister reads a garden the same way, as JCloisterZone's
//! `Monastic` does (a garden claims gold around it; it pays a castle in its vicinity).
//! Garden tiles in a deck without the Abbot are refused (E0603): there the garden would be a
//! plain cloister. The C2 game without the Abbot is `base.rules` (the same tile layouts).

use crate::engine::compiled::Compiled;
use crate::engine::decision::{Choice, DecisionKind, DecisionSpec};
use crate::engine::event::Event;
use crate::engine::event::{BoardChange, EventKind, EventSink, EventSpec, ExpansionEvent, Field};
use crate::engine::follower_kind::{FollowerKind, FollowerKindSpec};
use crate::engine::game::{Game, NIL};
use crate::engine::hooks::{
    category_of, counter_of, event_of, follower_kind_of, kind_of, mark_of, Conflict, ConflictAbout,
    Expansion, Glyph, GlyphArt, Heard, Holds, Hook, Piece, Presentation, Valuation,
};
use crate::engine::outcome::{Category, Counter, CounterSpec, GameOutcome};
use crate::rule_options::{choice, Area, OptType, OptionDef};
use crate::ruleset::Ruleset;
use crate::tiles::FeatureKind;

/// The options' area (and key prefix).
const AREA: Area = Area::Expansion("abbot");

/// The abbot.
pub const ABBOT: FollowerKind = follower_kind_of::<Abbot>(0);
/// The tile mark of a tile whose cloister segment is a garden.
pub const GARDEN: u32 = mark_of::<Abbot>(0);
/// Take an abbot back (options: keep it, then each abbot of the active player that may
/// come back, as `Choice::Spot` of where it stands).
pub const ABBOT_RETURN: DecisionKind = kind_of::<Abbot>(0);
/// Points scored by taking the abbot back.
pub const ABBOT_POINTS: Category = category_of::<Abbot>(0);
/// Abbots taken back.
pub const RETURNS: Counter = counter_of::<Abbot>(0);
/// An abbot is taken back and its cloister or garden scored (turn, player, x, y, points).
pub const ABBOT_RETURNED: EventKind = event_of::<Abbot>(0);

/// The most abbots a player may have (`abbot.supply`).
const MAX_ABBOTS: usize = 4;

/// The rules of the Abbot in one ruleset (read from its options).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Config {
    /// Abbots per player.
    supply: u8,
    /// `abbot.return_completed = allowed`: an abbot on a feature the tile just placed
    /// completed may be taken back too.
    return_completed: bool,
    /// `abbot.after_return = special_figures`: taking the abbot back leaves the figures of
    /// weight 0 (a builder, a pig) to place; otherwise nothing else is placed.
    special_after_return: bool,
}

impl Config {
    fn of(rules: &Ruleset) -> Option<Config> {
        if !rules.ext_in_play("abbot.") {
            return None;
        }
        Some(Config {
            supply: OPT_SUPPLY.int_in(rules) as u8,
            return_completed: OPT_RETURN_COMPLETED.choice_in(rules) == "allowed",
            special_after_return: OPT_AFTER_RETURN.choice_in(rules) == "special_figures",
        })
    }
}

/// The `abbot.supply` option (read through this constant: its key and default are written once).
const OPT_SUPPLY: OptionDef = OptionDef {
    key: "abbot.supply",
    area: AREA,
    ty: OptType::Int {
        min: 0,
        max: MAX_ABBOTS as i64,
    },
    default: "1",
    doc: "Abbots per player. Setting any abbot option puts the Abbot in the game: the \
              abbot, and the gardens of the tiles marked `garden`.",
    sources: "C2 base rulebook (HiG 2014) and Big Box 6 (Wikicarpedia, The Abbot): \
                  one abbot a player; JCloisterZone element `abbot: 1`",
    requires: None,
};

/// The `abbot.return_completed` option (read through this constant: its key and default are written once).
const OPT_RETURN_COMPLETED: OptionDef = OptionDef {
    key: "abbot.return_completed",
    area: AREA,
    ty: OptType::Choice(&[
        choice(
            "forbidden",
            "an abbot on a cloister or garden the tile just placed completed is not \
                 taken back: the turn's scoring scores it",
        ),
        choice(
            "allowed",
            "it may be taken back too (scored as it stands, with the figure action)",
        ),
    ]),
    default: "forbidden",
    doc: "Whether an abbot on a feature completed this turn may be taken back.",
    sources: "HiG ruling 11/2020 (Wikicarpedia, The Abbot, note 14; JCloisterZone's \
                  AbbotCapability drops the return then): forbidden; the C2 rule text \
                  alone sets no limit: allowed",
    requires: None,
};

/// The `abbot.after_return` option (read through this constant: its key and default are written once).
const OPT_AFTER_RETURN: OptionDef = OptionDef {
    key: "abbot.after_return",
    area: AREA,
    ty: OptType::Choice(&[
        choice(
            "nothing",
            "taking the abbot back is the turn's whole figure action",
        ),
        choice(
            "special_figures",
            "a builder or pig may still be placed (only followers are replaced)",
        ),
    ]),
    default: "nothing",
    doc: "What else a player who takes the abbot back may place that turn.",
    sources: "Wikicarpedia, The Abbot (clarification 12/2014, updated 3/2015 and \
                  9/2018): no other figure; JCloisterZone (the return ends the action \
                  phase): nothing; the rule text alone (\"instead of placing a meeple\"): \
                  special_figures",
    requires: None,
};

/// The Abbot in one game.
#[derive(Clone, Debug, Default)]
pub struct Abbot {
    config: Config,
    /// The abbots the return decision offers now (their nodes), after "keep".
    offered: [u32; MAX_ABBOTS],
    n_offered: u8,
    /// The turn an abbot was last taken back in (0: never), with `special_after_return`.
    returned_turn: u32,
    /// Abbots taken back this game.
    returns: u32,
}

/// Whether the feature `root` is a garden (a cloister segment of a tile with the `garden`
/// mark), for rules that treat gardens otherwise than cloisters (a monastery's bonus).
pub fn is_garden<X: Holds<Abbot>>(g: &Game<X>, root: u32) -> bool {
    on_garden(g, root)
}

/// Whether `node` is the garden of its tile.
#[inline]
fn on_garden<X: Holds<Abbot>>(g: &Game<X>, node: u32) -> bool {
    // (the node's own kind first: most segments are no cloister, and the tile type's
    // record is then not read)
    let n = g.nodes[node as usize];
    n.kind == FeatureKind::Cloister
        && g.rules().tiles[g.placed[n.tile as usize].tile as usize].marks & GARDEN != 0
}

/// Whether the cloister or garden at (x, y) is surrounded.
fn surrounded<X: Holds<Abbot>>(g: &Game<X>, node: u32) -> bool {
    let (x, y, _) = g.node_spot(node);
    g.neighbours(x, y) == 8
}

/// What the abbot on `node` is worth where it stands now, and what it is expected to be
/// worth if it stays (its empty neighbours filled at a rate that falls with the pack), for
/// the value hints.
fn stay_and_now<X: Holds<Abbot>>(g: &Game<X>, node: u32) -> (i64, i64) {
    let (x, y, _) = g.node_spot(node);
    let n = g.neighbours(x, y) as i64;
    let left = g.remaining() as i64;
    // each empty neighbour filled with a chance of up to 2/3, less once under 24 tiles
    let fill = (8 - n) * 2 * left.min(24) / (3 * 24);
    (1 + n + fill, 1 + n)
}

impl<X: Holds<Abbot>> Game<X> {
    /// Offer the active player's abbots that may come back; true when the decision is asked.
    #[inline]
    fn abbot_offers(&mut self) -> bool {
        let player = self.active();
        if self.supply_of(player, ABBOT) >= self.ext.state().config.supply {
            return false; // every abbot of the player is in its supply
        }
        self.abbot_offers_out(player)
    }

    /// [`Game::abbot_offers`] when `player` has an abbot out: out of line, so that the hook's
    /// entry stays a test or two (inlined into the dispatch).
    #[inline(never)]
    fn abbot_offers_out(&mut self, player: u8) -> bool {
        let allowed = self.ext.state().config.return_completed;
        let mut offered = [NIL; MAX_ABBOTS];
        let mut n = 0;
        for f in self.followers() {
            if f.kind != ABBOT || f.player != player || n == MAX_ABBOTS {
                continue;
            }
            if self.seg_kind(f.node) == FeatureKind::Cloister
                && (allowed || !surrounded(self, f.node))
            {
                offered[n] = f.node;
                n += 1;
            }
        }
        let st = self.ext.state_mut();
        (st.offered, st.n_offered) = (offered, n as u8);
        if n == 0 {
            return false;
        }
        self.ask(ABBOT_RETURN, player, 1 + n);
        true
    }

    /// Take back the abbot offered as option `i` (1-based) and score its cloister or garden
    /// as final scoring would, to its owner.
    fn abbot_return<S: EventSink>(&mut self, s: &mut S, i: usize) {
        let node = self.ext.state().offered[i - 1];
        let player = self.active();
        let root = self.root(node);
        let (points, _) = self.feature_points(root, false);
        let (x, y, _) = self.node_spot(node);
        let turn = self.turn();
        self.emit(
            s,
            Event::Expansion(ExpansionEvent::new(
                ABBOT_RETURNED,
                &[turn as i64, player as i64, x as i64, y as i64, points],
            )),
        );
        if let Some(k) = self
            .followers()
            .iter()
            .position(|f| f.node == node && f.kind == ABBOT && f.player == player)
        {
            self.return_follower(s, k);
        }
        self.award(s, player, ABBOT_POINTS, points, true);
        let st = self.ext.state_mut();
        st.returns += 1;
        if st.config.special_after_return {
            st.returned_turn = turn;
        } else {
            self.take_figure_action();
        }
    }
}

impl Expansion for Abbot {
    const HOOKS: &'static [Hook] = &[Hook::TilePlaced];
    /// Only a player with an abbot on the board is offered its return: armed by the turn's
    /// player having one out.
    const ARMED: &'static [(Hook, u32)] = &[(Hook::TilePlaced, 0)];
    const ARMED_BY_FIGURE: &'static [(Hook, u8)] = &[(Hook::TilePlaced, 0)];
    const HEARS: &'static [Heard] = &[];
    const DECISIONS: &'static [DecisionSpec] = &[DecisionSpec {
        name: "abbot_return",
        key_code: 50,
        doc: "take an abbot back instead of placing a figure, scoring its cloister or garden \
              as it stands (options: keep it, then each abbot that may come back)",
    }];
    const EVENTS: &'static [EventSpec] = &[EventSpec {
        name: "abbot_returned",
        key_code: 51,
        fields: &[
            ("turn", Field::Turn),
            ("player", Field::Seat),
            ("x", Field::Coord),
            ("y", Field::Coord),
            ("points", Field::Points),
        ],
        narrate: |e, names| {
            let v = e.values;
            Some(format!(
                "         {} takes the abbot back from ({},{}): {} points",
                (names.seat)(v[1] as u8),
                v[2],
                v[3],
                v[4]
            ))
        },
        // the core's follower-returned event takes the piece off the board
        board: BoardChange::None,
    }];
    const CATEGORIES: &'static [&'static str] = &["abbot"];
    const COUNTERS: &'static [CounterSpec] = &[CounterSpec {
        name: "abbot_returns",
        doc: "abbots taken back (their cloister or garden scored as it stood)",
    }];
    const TILE_MARKS: &'static [(&'static str, &'static str)] = &[(
        "garden",
        "the tile's cloister segment is a garden: scored like a cloister, only the abbot \
         stands there (the C2 tiles; write `cloister garden`)",
    )];
    const FOLLOWER_KINDS: &'static [FollowerKindSpec] = &[FollowerKindSpec {
        name: "abbot",
        key_code: 52,
        doc: "the abbot of the 2nd-edition base game: one a player, stands on a cloister or a \
              garden, may be taken back instead of placing a figure",
        supply: 1,
        weight: 1,
        stands_on: FollowerKindSpec::on(&[FeatureKind::Cloister]),
        needs_own: false,
        open_only: false,
        glyph: Glyph::Drawn(&ABBOT_ART),
    }];
    const RESTRICTS_SPOTS: bool = true;
    const OPTIONS: &'static [OptionDef] = &[OPT_SUPPLY, OPT_RETURN_COMPLETED, OPT_AFTER_RETURN];

    fn used_by(rules: &Compiled) -> bool {
        Config::of(&rules.rules).is_some()
    }

    fn reset(&mut self) {
        *self = Abbot::default();
    }

    fn configure<X: Holds<Self>>(g: &mut Game<X>) {
        if let Some(config) = Config::of(&g.rules().rules) {
            g.ext.state_mut().config = config;
        }
    }

    fn follower_supply(rules: &Compiled, _local: u8) -> u8 {
        Config::of(&rules.rules).map_or(1, |c| c.supply)
    }

    #[inline]
    fn on<X: Holds<Self>, S: EventSink>(
        g: &mut Game<X>,
        s: &mut S,
        at: Hook,
        answer: Option<usize>,
    ) -> bool {
        if at != Hook::TilePlaced {
            return false;
        }
        match answer {
            None => g.abbot_offers(),
            Some(0) => false,
            Some(i) => {
                g.abbot_return(s, i);
                false
            }
        }
    }

    /// Only the abbot stands on a garden; after an abbot came back under `special_figures`,
    /// no follower of weight 1 or more is placed that turn.
    fn may_stand<X: Holds<Self>>(g: &Game<X>, node: u32, kind: FollowerKind) -> bool {
        if on_garden(g, node) {
            return kind == ABBOT;
        }
        let st = g.ext.state();
        !(st.returned_turn == g.turn() && st.returned_turn != 0 && kind.weight() > 0)
    }

    /// A spot of the tile just placed is refused only on its garden or after an abbot came
    /// back this turn (see `may_stand`).
    fn may_refuse_on<X: Holds<Self>>(g: &Game<X>, pidx: usize) -> bool {
        let st = g.ext.state();
        g.rules().tiles[g.placed[pidx].tile as usize].marks & GARDEN != 0
            || (st.returned_turn == g.turn() && st.returned_turn != 0)
    }

    fn choice<X: Holds<Self>>(g: &Game<X>, _local: u8, i: usize) -> Choice {
        if i == 0 {
            return Choice::Spot { at: None };
        }
        Choice::Spot {
            at: Some(g.node_spot(g.ext.state().offered[i - 1])),
        }
    }

    fn option_count<X: Holds<Self>>(g: &Game<X>, _local: u8) -> usize {
        1 + g.ext.state().n_offered as usize
    }

    fn conflict(rules: &Ruleset) -> Option<Conflict> {
        let gardens = rules
            .deck
            .iter()
            .map(|d| &rules.tiles[d.tile as usize])
            .filter(|t| t.marks & GARDEN != 0);
        for t in gardens {
            if !t.has_cloister() {
                return Some(Conflict {
                    text: format!(
                        "tile {} has the `garden` mark but no cloister segment: write \
                         `cloister garden`",
                        t.id
                    ),
                    about: ConflictAbout::Deck,
                });
            }
            if !rules.ext_in_play("abbot.") {
                return Some(Conflict {
                    text: format!(
                        "tile {} has a garden, but the Abbot is not in the game (set an \
                         `abbot` option): its garden would be a cloister for every follower; \
                         without the Abbot play the plain tiles (base.rules)",
                        t.id
                    ),
                    about: ConflictAbout::Deck,
                });
            }
        }
        None
    }

    fn check_invariants<X: Holds<Self>>(g: &Game<X>) -> Result<(), String> {
        for f in g.followers() {
            if f.kind == ABBOT && g.seg_kind(f.node) != FeatureKind::Cloister {
                let (x, y, s) = g.node_spot(f.node);
                return Err(format!(
                    "an abbot stands on segment {s} of ({x},{y}), not a cloister or garden"
                ));
            }
            if f.kind != ABBOT && on_garden(g, f.node) {
                let (x, y, _) = g.node_spot(f.node);
                return Err(format!("a {} stands on the garden of ({x},{y})", f.kind));
            }
        }
        Ok(())
    }

    fn outcome(&self, out: &mut GameOutcome) {
        out.counters.add(RETURNS, self.returns);
    }
}

impl Valuation for Abbot {
    /// Keeping: what the abbots offered are expected to be worth if they stay (each empty
    /// neighbour filled with a chance that falls once the pack runs low). Taking one back:
    /// its points now, the others' expected worth, and 2 for the abbot back in hand (it can
    /// go on the next cloister or garden).
    fn value_hint<X: Holds<Self>>(g: &Game<X>, _local: u8, i: usize, _player: u8) -> i64 {
        let st = g.ext.state();
        let nodes = &st.offered[..st.n_offered as usize];
        let stay: i64 = nodes.iter().map(|&n| stay_and_now(g, n).0).sum();
        if i == 0 {
            return stay;
        }
        let (kept, now) = stay_and_now(g, nodes[i - 1]);
        stay - kept + now + 2
    }
}

impl Presentation for Abbot {
    /// The gardens on the board (a green token in the tile's lower left quarter, clear of a
    /// figure on the garden itself).
    fn board_pieces<X: Holds<Self>>(g: &Game<X>, out: &mut Vec<Piece>) {
        for t in g.placed_tiles() {
            if g.rules().tiles[t.tile as usize].marks & GARDEN == 0 {
                continue;
            }
            out.push(Piece {
                x: t.x as f64 + 0.27,
                y: t.y as f64 + 0.73,
                glyph: GARDEN_GLYPH,
                owner: None,
                note: "a garden: scored like a cloister, only the abbot stands there".into(),
            });
        }
    }

    const LEGEND: &'static [(Glyph, &'static str)] = &[(
        GARDEN_GLYPH,
        "garden (the Abbot): only the abbot stands there",
    )];
}

/// How a garden looks on the SVG board.
const GARDEN_GLYPH: Glyph = Glyph::Token {
    letter: 'G',
    colour: "#2e7d32",
    hollow: false,
};

/// The abbot: a hooded, robed figure.
pub const ABBOT_ART: GlyphArt = GlyphArt {
    svg: r#"<path d="M-5.5 8 L-3.2 -2.5 Q-3.6 -8.5 0 -9 Q3.6 -8.5 3.2 -2.5 L5.5 8 Z" fill="{colour}" stroke="white"/><circle cy="-4.6" r="1.7" fill="white"/>"#,
    in_seat_colour: true,
};
