//! Inns & Cathedrals (Hans im Glück 2002, 1st edition; 2015, 2nd edition; rules as
//! Wikicarpedia gives them, JCloisterZone's `Road`/`City` scoring): the large follower, inns
//! and cathedrals.
//!
//! - **The large follower**: one a player; it is placed like a follower and counts as two in
//!   every majority (roads, cities, cloisters, fields). The core deals, offers, weighs and
//!   returns it ([`Expansion::FOLLOWER_KINDS`]).
//! - **Inns** (`road … inn` on a tile segment): a completed road with an inn on any of its
//!   tiles scores one more point a tile (2 a tile under the base game's formula); unfinished
//!   at the end it scores 0.
//! - **Cathedrals** (`city … cathedral`): a completed city with a cathedral scores one more
//!   point a tile and a pennant (3 each); unfinished at the end it scores 0. Two cathedrals in
//!   one city count once.
//!
//! Fields are untouched: an inn or a cathedral changes nothing for farmers (JCloisterZone
//! counts a completed city once, whatever it holds). The expansion brings the pieces for a
//! sixth player; `base.rules` already allows 2–6. Inns printed on other expansions' tiles
//! (the BC&B bazaar roads) count as inns when this expansion takes part, as in JCloisterZone
//! (the `inn` modifier is enabled by the game element, not the tile set).

use crate::engine::compiled::Compiled;
use crate::engine::follower_kind::{FollowerKind, FollowerKindSpec};
use crate::engine::game::Game;
use crate::engine::hooks::{
    follower_kind_of, segment_mark_of, Expansion, Glyph, GlyphArt, Heard, Holds, Hook, Piece,
    Presentation, Valuation,
};
use crate::engine::spots::mark_spot;
use crate::rule_options::{choice, Area, OptType, OptionDef};
use crate::ruleset::Ruleset;
use crate::tiles::FeatureKind;

/// The options' area (and key prefix).
const AREA: Area = Area::Expansion("inns");

/// The large follower.
pub const LARGE_FOLLOWER: FollowerKind = follower_kind_of::<Inns>(0);

/// The segment mark of a road with an inn.
pub const INN: u8 = segment_mark_of::<Inns>(0);
/// The segment mark of a city with a cathedral.
pub const CATHEDRAL: u8 = segment_mark_of::<Inns>(1);

/// The rules of Inns & Cathedrals in one ruleset (read from its options).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Config {
    /// Points a tile an inn adds to a completed road.
    inn_bonus: i64,
    /// Points a tile and a pennant a cathedral adds to a completed city.
    cathedral_bonus: i64,
    /// Whether an unfinished road with an inn or city with a cathedral scores 0 at the end.
    unfinished_zero: bool,
}

impl Config {
    fn of(rules: &Ruleset) -> Option<Config> {
        if !rules.ext_in_play("inns.") {
            return None;
        }
        Some(Config {
            inn_bonus: OPT_INN_BONUS.int_in(rules),
            cathedral_bonus: OPT_CATHEDRAL_BONUS.int_in(rules),
            unfinished_zero: OPT_UNFINISHED.choice_in(rules) != "normal",
        })
    }
}

/// Inns & Cathedrals in one game: only its configuration (the large follower is the core's,
/// the inns and cathedrals are marks of the tiles).
#[derive(Clone, Debug, Default)]
pub struct Inns {
    config: Config,
}

/// The `inns.inn_bonus` option (read through this constant: its key and default are written once).
const OPT_INN_BONUS: OptionDef = OptionDef {
    key: "inns.inn_bonus",
    area: AREA,
    ty: OptType::Int { min: 0, max: 10 },
    default: "1",
    doc: "Points a tile an inn adds to a completed road (1: 2 a tile with the base \
              game's road formula). Setting any inns option puts Inns & Cathedrals in \
              the game (the large follower, inns and cathedrals).",
    sources: "I&C C1 (2002) and C2 (2015) rulebooks (Wikicarpedia): 2 points a tile; \
                  JCloisterZone (tiles + inn)",
    requires: None,
};

/// The `inns.cathedral_bonus` option (read through this constant: its key and default are written once).
const OPT_CATHEDRAL_BONUS: OptionDef = OptionDef {
    key: "inns.cathedral_bonus",
    area: AREA,
    ty: OptType::Int { min: 0, max: 10 },
    default: "1",
    doc: "Points a tile and a pennant a cathedral adds to a completed city (1: 3 each \
              with the base game's city formula).",
    sources: "I&C C1 and C2 rulebooks (Wikicarpedia): 3 points a tile and coat of \
                  arms; JCloisterZone (city + tiles + pennants)",
    requires: None,
};

/// The `inns.unfinished` option (read through this constant: its key and default are written once).
const OPT_UNFINISHED: OptionDef = OptionDef {
    key: "inns.unfinished",
    area: AREA,
    ty: OptType::Choice(&[
        choice(
            "zero",
            "a road with an inn or a city with a cathedral unfinished at the end \
                 scores 0",
        ),
        choice("normal", "it scores as it would without (a house rule)"),
    ]),
    default: "zero",
    doc: "What an unfinished road with an inn or city with a cathedral scores at the \
              end.",
    sources: "I&C C1 and C2 rulebooks (Wikicarpedia), JCloisterZone: zero",
    requires: None,
};

impl Expansion for Inns {
    /// Inns and cathedrals count only with Inns & Cathedrals in play: without it the inn
    /// printed on a BC&B road is inert, so its tile keeps its symmetric turns.
    fn telling_marks(rules: &Ruleset) -> u8 {
        if rules.ext_in_play("inns.") {
            INN | CATHEDRAL
        } else {
            0
        }
    }

    const HOOKS: &'static [Hook] = &[];
    const HEARS: &'static [Heard] = &[];
    const FOLLOWER_KINDS: &'static [FollowerKindSpec] = &[FollowerKindSpec {
        name: "large_follower",
        key_code: 1,
        doc: "the large follower of Inns & Cathedrals: one a player, counts as two in every \
              majority",
        supply: 1,
        weight: 2,
        stands_on: FollowerKindSpec::on(&FeatureKind::ALL),
        needs_own: false,
        open_only: false,
        glyph: Glyph::Drawn(&LARGE_FOLLOWER_ART),
    }];
    const SEGMENT_MARKS: &'static [(&'static str, FeatureKind, &'static str)] = &[
        (
            "inn",
            FeatureKind::Road,
            "an inn by the road: the completed road scores more, unfinished nothing",
        ),
        (
            "cathedral",
            FeatureKind::City,
            "a cathedral in the city: the completed city scores more, unfinished nothing",
        ),
    ];
    const RESCORES: bool = true;
    const OPTIONS: &'static [OptionDef] = &[OPT_INN_BONUS, OPT_CATHEDRAL_BONUS, OPT_UNFINISHED];

    fn used_by(rules: &Compiled) -> bool {
        Config::of(&rules.rules).is_some()
    }

    fn reset(&mut self) {
        self.config = Config::default();
    }

    fn configure<X: Holds<Self>>(g: &mut Game<X>) {
        let config = Config::of(&g.rules().rules).unwrap_or_default();
        g.ext.state_mut().config = config;
    }

    fn feature_points<X: Holds<Self>>(
        g: &Game<X>,
        root: u32,
        kind: FeatureKind,
        complete: bool,
        tiles: u32,
        pennants: u32,
        points: i64,
    ) -> i64 {
        let mark = match kind {
            FeatureKind::Road => INN,
            FeatureKind::City => CATHEDRAL,
            _ => return points,
        };
        if g.feature_marks(root) & mark == 0 {
            return points;
        }
        let c = g.ext.state().config;
        if !complete {
            return if c.unfinished_zero { 0 } else { points };
        }
        match kind {
            FeatureKind::Road => points + c.inn_bonus * tiles as i64,
            _ => points + c.cathedral_bonus * (tiles + pennants) as i64,
        }
    }
}

impl Valuation for Inns {}

impl Presentation for Inns {
    /// The inns and cathedrals on the board, for the SVG board: each beside its road or in
    /// its city, a third of a tile in from the feature's first edge and a fifth clockwise
    /// along it (clear of a follower there, of farmers beside a road, and of a pennant).
    fn board_pieces<X: Holds<Self>>(g: &Game<X>, out: &mut Vec<Piece>) {
        for t in g.placed_tiles() {
            for (k, s) in g.rules().tiles[t.tile as usize].segments.iter().enumerate() {
                let (glyph, note) = if s.marks & INN != 0 {
                    (
                        Glyph::Drawn(&INN_ART),
                        "an inn: the completed road scores more, unfinished 0",
                    )
                } else if s.marks & CATHEDRAL != 0 {
                    (
                        Glyph::Drawn(&CATHEDRAL_ART),
                        "a cathedral: the completed city scores more, unfinished 0",
                    )
                } else {
                    continue;
                };
                let (x, y) = mark_spot(g.rules(), t, k as u8, 0.36, 0.22);
                out.push(Piece {
                    x,
                    y,
                    glyph,
                    owner: None,
                    note: note.to_string(),
                });
            }
        }
    }

    const LEGEND: &'static [(Glyph, &'static str)] = &[
        (Glyph::Drawn(&INN_ART), "inn (Inns & Cathedrals)"),
        (
            Glyph::Drawn(&CATHEDRAL_ART),
            "cathedral (Inns & Cathedrals)",
        ),
    ];
}

/// An inn (a house), beside a road: a mark of the tiles, in a light fill.
pub const INN_ART: GlyphArt = GlyphArt {
    svg: r##"<path d="M-6 6 v-7 l6 -5 l6 5 v7 z" fill="{colour}" stroke="#7a4a12" stroke-width="1.5"/>"##,
    in_seat_colour: false,
};

/// A cathedral (a spire), in a city: a mark of the tiles, in a light fill.
pub const CATHEDRAL_ART: GlyphArt = GlyphArt {
    svg: r##"<path d="M-6 7 v-8 h4 v-5 l2 -3 l2 3 v5 h4 v8 z" fill="{colour}" stroke="#3a2a6a" stroke-width="1.5"/>"##,
    in_seat_colour: false,
};

/// The large follower: a meeple (about 16 units wide and 17 tall, scaled up), larger than a
/// follower's disc.
pub const LARGE_FOLLOWER_ART: GlyphArt = GlyphArt {
    svg: r#"<path transform="scale(1.25)" d="M-2.2 -3.5 L-7 -2.4 Q-8.6 -1.4 -7.4 0.3 L-3.4 1.4 L-6.4 8 L-1.4 8 L0 4.6 L1.4 8 L6.4 8 L3.4 1.4 L7.4 0.3 Q8.6 -1.4 7 -2.4 L2.2 -3.5 A3.2 3.2 0 1 0 -2.2 -3.5 Z" fill="{colour}" stroke="white" stroke-width="0.8"/>"#,
    in_seat_colour: true,
};
