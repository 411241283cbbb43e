//! The Scouts, a dummy expansion that exists only for the tests (built with the cargo feature
//! `test-dummy`, which `cargo test` turns on and `cargo build --release` does not). It follows
//! no rulebook: it is the worked example of "Adding an expansion" in `mod.rs`, and
//! `tests/it/dummy_expansion.rs` checks that everything it declares reaches the rest of
//! meeplab through this module and the registration lines only.
//!
//! - **An option**: `dummy.scouts` (0–9, default 1), how many scouts may be sent in a game;
//!   setting it puts the Scouts in the game. Without it the module takes no part.
//! - **A decision** ([`SEND_SCOUT`], at `Hook::TilePlaced`, a yes/no `Choice::Flag`): instead
//!   of the turn's follower, the player may send a scout ([`Game::take_figure_action`]).
//!   Asked when scouts are left, the player holds a plain follower, and a tile beside the one
//!   just placed (N, E, S, W) has a free road or city that is not complete.
//! - **A follower spot on another tile**: the scout is a plain follower put with
//!   [`Game::deploy`] on the first such spot (neighbours in the order N, E, S, W, segments in
//!   tile order), where [`Game::may_stand`] lets it stand.
//! - **An event** ([`SCOUT_LANDED`]) when the scout lands, with its line in the turn log.
//! - **A counter** ([`SCOUTS`]): scouts sent in the game, summed by compare's reports.
//! - **A glyph**: its own drawing, a flag ([`SCOUT_ART`]), on the tile of the last scout's
//!   landing, in the SVG board's layer and legend.
//! - **A JCloisterZone element**: `dummy-scouts` in a save's `setup.elements` sets the option
//!   (`import/dummy.rs`).

use crate::engine::compiled::Compiled;
use crate::engine::decision::{Choice, DecisionKind, DecisionSpec};
use crate::engine::event::{
    BoardChange, Event, EventKind, EventSink, EventSpec, ExpansionEvent, Field,
};
use crate::engine::follower_kind::FollowerKind;
use crate::engine::game::{Game, NIL};
use crate::engine::hooks::{
    counter_of, event_of, kind_of, Expansion, Glyph, GlyphArt, Heard, Holds, Hook, Piece,
    Presentation, Valuation,
};
use crate::engine::outcome::{Counter, CounterSpec, GameOutcome};
use crate::rule_options::{Area, OptType, OptionDef};
use crate::ruleset::Ruleset;
use crate::tiles::FeatureKind;

/// Send a scout instead of the turn's follower (`Choice::Flag`: no, yes).
pub const SEND_SCOUT: DecisionKind = kind_of::<Dummy>(0);
/// A scout landed (turn, player, x, y, segment).
pub const SCOUT_LANDED: EventKind = event_of::<Dummy>(0);
/// Scouts sent in the game.
pub const SCOUTS: Counter = counter_of::<Dummy>(0);

/// The `dummy.scouts` option (read through this constant: its key and default are written
/// once).
pub const OPT_SCOUTS: OptionDef = OptionDef {
    key: "dummy.scouts",
    area: Area::Expansion("dummy"),
    ty: OptType::Int { min: 0, max: 9 },
    default: "1",
    doc: "Scouts that may be sent in a game (the test-only dummy expansion). Setting it puts \
          the Scouts in the game.",
    sources: "none: a dummy for the tests; JCloisterZone element `dummy-scouts` (a made-up \
              name)",
    requires: None,
};

/// How the last scout's landing looks on the SVG board: a flag (the module's own drawing).
pub const SCOUT_ART: GlyphArt = GlyphArt {
    svg: r##"<path d="M-4 8 v-16 l10 4.5 l-10 4.5" fill="{colour}" stroke="#8e24aa" stroke-width="1.5"/>"##,
    in_seat_colour: false,
};

/// The glyph of the last scout's landing.
const SCOUT_GLYPH: Glyph = Glyph::Drawn(&SCOUT_ART);

/// The neighbours of a tile, in the order scouts look at them (N, E, S, W; y grows south).
const AROUND: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];

/// The Scouts in one game.
#[derive(Clone, Debug)]
pub struct Dummy {
    /// Scouts a game (`dummy.scouts`).
    allowed: u32,
    /// Scouts sent so far.
    sent: u32,
    /// Where the scout asked about would land (a node), or `NIL`.
    target: u32,
    /// The tile of the last landing.
    last: Option<(i32, i32)>,
}

impl Default for Dummy {
    fn default() -> Dummy {
        Dummy {
            allowed: 0,
            sent: 0,
            target: NIL,
            last: None,
        }
    }
}

/// Whether `rules` put the Scouts in the game.
fn in_play(rules: &Ruleset) -> bool {
    rules.ext_in_play("dummy.")
}

/// The first spot beside the tile just placed where a scout may stand: a free road or city
/// that is not complete, on a neighbour (N, E, S, W), in segment order.
fn scout_spot<X: Holds<Dummy>>(g: &Game<X>) -> Option<u32> {
    let t = g.placed[g.last_placed];
    for (dx, dy) in AROUND {
        let Some(p) = g.tile_at(t.x + dx, t.y + dy) else {
            continue;
        };
        let n = g.placed[p];
        let tile = &g.rules.tiles[n.tile as usize];
        for (k, seg) in tile.segments.iter().enumerate() {
            if !matches!(seg.kind, FeatureKind::Road | FeatureKind::City) {
                continue;
            }
            let node = n.node0 + k as u32;
            let c = g.feature(g.feature_of(node));
            if c.open != 0 && !c.done && c.nfollowers == 0 && g.may_stand(node, FollowerKind::PLAIN)
            {
                return Some(node);
            }
        }
    }
    None
}

impl<X: Holds<Dummy>> Game<X> {
    /// `Hook::TilePlaced`: offer a scout, then send it.
    fn scout<S: EventSink>(&mut self, s: &mut S, answer: Option<usize>) -> bool {
        let player = self.active();
        match answer {
            None => {
                let st = self.ext.state();
                if st.sent >= st.allowed || self.supply(player) == 0 {
                    return false;
                }
                let Some(node) = scout_spot(self) else {
                    return false;
                };
                self.ext.state_mut().target = node;
                self.ask(SEND_SCOUT, player, 2);
                true
            }
            Some(1) => {
                let node = self.ext.state().target;
                self.take_figure_action();
                self.deploy(s, player, node, FollowerKind::PLAIN);
                let (x, y, segment) = self.node_spot(node);
                let st = self.ext.state_mut();
                st.sent += 1;
                st.target = NIL;
                st.last = Some((x, y));
                let turn = self.turn() as i64;
                self.emit(
                    s,
                    Event::Expansion(ExpansionEvent::new(
                        SCOUT_LANDED,
                        &[turn, player as i64, x as i64, y as i64, segment as i64],
                    )),
                );
                false
            }
            Some(_) => {
                self.ext.state_mut().target = NIL;
                false
            }
        }
    }
}

impl Expansion for Dummy {
    const HOOKS: &'static [Hook] = &[Hook::TilePlaced];
    const HEARS: &'static [Heard] = &[];
    const OPTIONS: &'static [OptionDef] = &[OPT_SCOUTS];
    const DECISIONS: &'static [DecisionSpec] = &[DecisionSpec {
        name: "dummy_send_scout",
        key_code: 120,
        doc: "send a scout to a free road or city beside the tile just placed instead of \
              placing a follower (the test-only dummy expansion; options: no, yes)",
    }];
    const EVENTS: &'static [EventSpec] = &[EventSpec {
        name: "dummy_scout_landed",
        key_code: 121,
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
                "         {} sends a scout to ({},{})",
                (names.seat)(v[1] as u8),
                v[2],
                v[3]
            ))
        },
        // the core's follower-placed event puts the follower on the board
        board: BoardChange::None,
    }];
    const COUNTERS: &'static [CounterSpec] = &[CounterSpec {
        name: "dummy_scouts",
        doc: "scouts sent (the test-only dummy expansion)",
    }];
    fn used_by(rules: &Compiled) -> bool {
        in_play(&rules.rules)
    }

    fn reset(&mut self) {
        let allowed = self.allowed;
        *self = Dummy {
            allowed,
            ..Dummy::default()
        };
    }

    fn configure<X: Holds<Self>>(g: &mut Game<X>) {
        let allowed = if in_play(&g.rules().rules) {
            OPT_SCOUTS.int_in(&g.rules().rules) as u32
        } else {
            0
        };
        g.ext.state_mut().allowed = allowed;
    }

    fn on<X: Holds<Self>, S: EventSink>(
        g: &mut Game<X>,
        s: &mut S,
        at: Hook,
        answer: Option<usize>,
    ) -> bool {
        at == Hook::TilePlaced && g.scout(s, answer)
    }

    fn choice<X: Holds<Self>>(_g: &Game<X>, _local: u8, i: usize) -> Choice {
        Choice::Flag { yes: i == 1 }
    }

    fn option_count<X: Holds<Self>>(_g: &Game<X>, _local: u8) -> usize {
        2
    }

    fn outcome(&self, out: &mut GameOutcome) {
        out.counters.add(SCOUTS, self.sent);
    }
}

impl Valuation for Dummy {
    /// A scout is worth a follower on a feature: 1; keeping the follower, 0.
    fn value_hint<X: Holds<Self>>(_g: &Game<X>, _local: u8, i: usize, _player: u8) -> i64 {
        i as i64
    }
}

impl Presentation for Dummy {
    const LEGEND: &'static [(Glyph, &'static str)] =
        &[(SCOUT_GLYPH, "scout landing (the test-only dummy expansion)")];

    fn board_pieces<X: Holds<Self>>(g: &Game<X>, out: &mut Vec<Piece>) {
        if let Some((x, y)) = g.ext.state().last {
            out.push(Piece {
                x: x as f64 + 0.8,
                y: y as f64 + 0.2,
                glyph: SCOUT_GLYPH,
                owner: None,
                note: "scout landing".into(),
            });
        }
    }
}
