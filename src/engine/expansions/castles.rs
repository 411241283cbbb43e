//! Castles, from Bridges, Castles & Bazaars (`docs/src/rules/bcb.md` §5, §11): when a tile
//! completes a small city — exactly two single-edge city caps on two tiles — holding exactly
//! one follower, that follower's owner may build a castle on it instead of scoring it (a
//! castle token from the supply: 3 a player with 2–4 players, 2 with 5–6). The castle's
//! vicinity is six squares: its two tiles and the two squares on each side across its axis.
//! In a later turn, the first road, city or cloister completed in the vicinity (a cloister
//! counts when its own tile is there; an unoccupied feature counts too) pays the castle's owner
//! what that feature is worth — the highest when several complete at once (JCloisterZone) — and
//! the castle's follower goes home; a castle that scores counts as a completed feature for the
//! castles around it (a chain). A castle still waiting at the end scores nothing; to farmers it
//! is worth one more than a completed city. With the Gold Mines, a castle that scores claims
//! the gold on its vicinity (official clarification 6/2013), as one more claim of the turn's
//! hand-out (heard by the gold through the seam).

use crate::engine::compiled::Compiled;
use crate::engine::decision::{Choice, DecisionKind, DecisionSpec};
use crate::engine::event::{
    BoardChange, Event, EventKind, EventSink, EventSpec, ExpansionEvent, Field,
};
use crate::engine::expansions::supply::Supply;
use crate::engine::game::{Game, MAX_PLAYERS, NIL};
use crate::engine::hooks::{
    category_of, counter_of, event_of, kind_of, mark_of, Expansion, Glyph, GlyphArt, Heard, Holds,
    Hook, Notice, Piece, Presentation, Valuation,
};
use crate::engine::outcome::{Category, Counter, CounterSpec, GameOutcome};
use crate::rule_options::{choice, Area, OptType, OptionDef};
use crate::ruleset::Ruleset;
use crate::tiles::FeatureKind;

/// The options' area (and key prefix).
const AREA: Area = Area::Expansion("castles");

/// The tile mark of a city that may not become a castle.
pub const NO_CASTLE: u32 = mark_of::<Castles>(0);

/// Build a castle instead of scoring the small city just completed (options: score the
/// city, build a castle).
pub const CASTLE_BUILD: DecisionKind = kind_of::<Castles>(0);

/// Points castles scored.
pub const CASTLE: Category = category_of::<Castles>(0);
/// Castles built.
pub const BUILT: Counter = counter_of::<Castles>(0);
/// Castles that scored.
pub const SCORED: Counter = counter_of::<Castles>(1);

/// A castle is built (turn, player, x, y, x2, y2: its two tiles).
pub const CASTLE_BUILT: EventKind = event_of::<Castles>(0);
/// A castle scores (turn, player, x, y: its first tile, points).
pub const CASTLE_SCORED: EventKind = event_of::<Castles>(1);

/// The castle's tag among the pieces of the end-of-turn state hash.
const CASTLE_PIECE: u64 = 5;

/// The rules of castles in one ruleset (read from its options).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Config {
    /// Castle tokens per player.
    supply: Supply,
    /// What a castle is worth to farmers beyond a completed city.
    farm_bonus: i64,
    /// Whether a scoring castle claims the gold on its vicinity.
    gold: bool,
    /// `castles.chain = direct_first`: a castle a feature completed this turn reached scores
    /// that feature, and only a castle none reached takes a chained castle's points.
    direct_first: bool,
}

impl Config {
    fn of(rules: &Ruleset) -> Option<Config> {
        if !rules.ext_in_play("castles.") {
            return None;
        }
        Some(Config {
            supply: Supply::read(rules, &OPT_SUPPLY, &OPT_SUPPLY_5_6),
            farm_bonus: OPT_FARM_BONUS.int_in(rules),
            gold: OPT_GOLD.choice_in(rules) != "none",
            direct_first: OPT_CHAIN.choice_in(rules) == "direct_first",
        })
    }
}

/// One castle on the board.
#[derive(Clone, Copy, Debug)]
struct Castle {
    owner: u8,
    /// The follower's node (it stands on the castle until the castle scores).
    node: u32,
    /// The city's root (complete: it never changes again).
    root: u32,
    /// Its two tiles (placed-tile indices).
    tiles: [u32; 2],
    /// Its vicinity: the two tiles' squares, then the squares beside them.
    cells: [(i32, i32); 6],
    built_turn: u32,
    /// Waiting for its first completion.
    open: bool,
    /// The most a feature completed in its vicinity this turn is worth (−1: none).
    best: i64,
}

impl Castle {
    fn near(&self, x: i32, y: i32) -> bool {
        self.cells.contains(&(x, y))
    }
}

/// Castles of one game.
#[derive(Debug, Default)]
pub struct Castles {
    config: Config,
    /// Castle tokens each seat was dealt, and has left.
    dealt: u8,
    left: [u8; MAX_PLAYERS],
    castles: Vec<Castle>,
    built: u32,
    scored: u32,
    /// This turn's small cities that may become castles: (root, owner, follower node).
    offers: Vec<(u32, u8, u32)>,
    /// The offer being asked.
    offer: usize,
    /// Scratch: a feature's tiles.
    scratch: Vec<u32>,
}

impl Clone for Castles {
    fn clone(&self) -> Castles {
        let mut copy = Castles::default();
        copy.clone_from(self);
        copy
    }

    /// Reuses this state's vectors (a search copies positions many times).
    fn clone_from(&mut self, source: &Castles) {
        let Castles {
            config,
            dealt,
            left,
            castles,
            built,
            scored,
            offers,
            offer,
            scratch: _,
        } = source;
        (self.config, self.dealt, self.left) = (*config, *dealt, *left);
        self.castles.clone_from(castles);
        (self.built, self.scored) = (*built, *scored);
        self.offers.clone_from(offers);
        self.offer = *offer;
        // `scratch` holds nothing between calls
    }
}

/// The `castles.supply` option (read through this constant: its key and default are written once).
const OPT_SUPPLY: OptionDef = OptionDef {
    key: "castles.supply",
    area: AREA,
    ty: OptType::Int { min: 0, max: 12 },
    default: "3",
    doc: "Castle tokens per player with 2–4 players (setting any castles option \
              puts castles in the game).",
    sources: "BC&B C1 and C2 rulebooks, JCloisterZone: 3",
    requires: None,
};

/// The `castles.supply_5_6` option (read through this constant: its key and default are written once).
const OPT_SUPPLY_5_6: OptionDef = OptionDef {
    key: "castles.supply_5_6",
    area: AREA,
    ty: OptType::Int { min: 0, max: 12 },
    default: "2",
    doc: "Castle tokens per player with 5 or 6 players.",
    sources: "BC&B C1 and C2 rulebooks, JCloisterZone: 2",
    requires: None,
};

/// The `castles.farm_bonus` option (read through this constant: its key and default are written once).
const OPT_FARM_BONUS: OptionDef = OptionDef {
    key: "castles.farm_bonus",
    area: AREA,
    ty: OptType::Int { min: -10, max: 10 },
    default: "1",
    doc: "What a castle next to a field is worth to its farmers beyond a completed \
              city (with 3 a city: 1 makes a castle 4).",
    sources: "JCloisterZone (pointsPerCity + 1), fandom wiki: 4 for a castle; \
                  the C2 wording was not read",
    requires: None,
};

/// The `castles.gold` option (read through this constant: its key and default are written once).
const OPT_GOLD: OptionDef = OptionDef {
    key: "castles.gold",
    area: AREA,
    ty: OptType::Choice(&[
        choice(
            "vicinity",
            "a castle that scores claims the ingots on its 6-tile vicinity",
        ),
        choice("none", "castles claim no gold"),
    ]),
    default: "vicinity",
    doc: "With the Gold Mines: the gold a castle claims when it scores.",
    sources: "HiG official clarification 6/2013 (Gold Mines FAQ), JCloisterZone: \
                  vicinity",
    requires: Some(Area::Expansion("gold")),
};

/// The `castles.chain` option (read through this constant: its key and default are written once).
const OPT_CHAIN: OptionDef = OptionDef {
    key: "castles.chain",
    area: AREA,
    ty: OptType::Choice(&[
        choice(
            "highest",
            "a castle scores the most that reaches it this turn: a feature completed \
                 in its vicinity or a castle there that scores",
        ),
        choice(
            "direct_first",
            "a castle a completed feature reaches scores the highest such feature; \
                 only a castle none reaches takes the points of a castle that scores",
        ),
    ]),
    default: "highest",
    doc: "When a feature completed in a castle's vicinity and a castle scoring beside \
              it reach the castle in the same turn: which pays it.",
    sources: "bcb.md §5.3 (the rulebooks: the first completion; several at once, the \
                  highest): highest; JCloisterZone `CastleCapability.scoreCastles` (the \
                  completed features first, then the chain): direct_first",
    requires: None,
};

impl Expansion for Castles {
    const HOOKS: &'static [Hook] = &[Hook::BeforeScoring, Hook::TurnScored];
    const HEARS: &'static [Heard] = &[Heard::ScoringBegins, Heard::FeatureScored];
    /// Before the robbers at the end of the scoring step: a castle's points are part of the
    /// step (robbable).
    const PRIORITY: i8 = -2;
    const DECISIONS: &'static [DecisionSpec] = &[DecisionSpec {
        name: "castle_build",
        key_code: 10,
        doc: "build a castle instead of scoring the small city (no: score it, yes: build)",
    }];
    const CATEGORIES: &'static [&'static str] = &["castle"];
    const TILE_MARKS: &'static [(&'static str, &'static str)] = &[(
        "no_castle",
        "its city may not become a castle (JCloisterZone's castle-base=\"false\")",
    )];
    const COUNTERS: &'static [CounterSpec] = &[
        CounterSpec {
            name: "castles_built",
            doc: "castles built",
        },
        CounterSpec {
            name: "castles_scored",
            doc: "castles scored",
        },
    ];
    const EVENTS: &'static [EventSpec] = &[
        EventSpec {
            name: "castle_built",
            key_code: 24,
            fields: &[
                ("turn", Field::Turn),
                ("player", Field::Seat),
                ("x", Field::Coord),
                ("y", Field::Coord),
                ("x2", Field::Coord),
                ("y2", Field::Coord),
            ],
            narrate: |e, names| {
                let seat = names.seat;
                let v = e.values;
                let who = seat(v[1] as u8);
                Some(format!(
                    "         {who} builds a castle on ({},{})–({},{})",
                    v[2], v[3], v[4], v[5]
                ))
            },
            board: BoardChange::Adds {
                tag: CASTLE_PIECE,
                owner: Some(1),
                x: 2,
                y: 3,
            },
        },
        EventSpec {
            name: "castle_scored",
            key_code: 25,
            fields: &[
                ("turn", Field::Turn),
                ("player", Field::Seat),
                ("x", Field::Coord),
                ("y", Field::Coord),
                ("points", Field::Points),
            ],
            narrate: |e, names| {
                let seat = names.seat;
                let v = e.values;
                let who = seat(v[1] as u8);
                Some(format!(
                    "         {who}'s castle at ({},{}) scores {}",
                    v[2], v[3], v[4]
                ))
            },
            board: BoardChange::None,
        },
    ];
    const OPTIONS: &'static [OptionDef] = &[
        OPT_SUPPLY,
        OPT_SUPPLY_5_6,
        OPT_FARM_BONUS,
        OPT_GOLD,
        OPT_CHAIN,
    ];

    fn used_by(rules: &Compiled) -> bool {
        Config::of(&rules.rules).is_some()
    }

    fn reset(&mut self) {
        self.config = Config::default();
        self.dealt = 0;
        self.left = [0; MAX_PLAYERS];
        self.castles.clear();
        (self.built, self.scored) = (0, 0);
        self.offers.clear();
        self.offer = 0;
    }

    fn heap_bytes(&self) -> usize {
        std::mem::size_of_val(self.castles.as_slice())
            + std::mem::size_of_val(self.offers.as_slice())
            + std::mem::size_of_val(self.scratch.as_slice())
    }

    fn outcome(&self, out: &mut GameOutcome) {
        out.counters.add(BUILT, self.built);
        out.counters.add(SCORED, self.scored);
    }

    /// The castles the seat has built (not the tokens left: a game without castles holds
    /// the same position until the first castle, so divergence against it starts there).
    fn seat_state(&self, seat: usize) -> u64 {
        self.left
            .get(seat)
            .map_or(0, |&n| self.dealt.saturating_sub(n) as u64)
    }

    fn configure<X: Holds<Self>>(g: &mut Game<X>) {
        if let Some(config) = Config::of(&g.rules.rules) {
            g.ext.state_mut().config = config;
        }
    }

    fn set_up<X: Holds<Self>>(g: &mut Game<X>) {
        g.castles_begin();
    }

    fn on<X: Holds<Self>, S: EventSink>(
        g: &mut Game<X>,
        s: &mut S,
        at: Hook,
        answer: Option<usize>,
    ) -> bool {
        match at {
            Hook::BeforeScoring => g.castle_offers(s, answer),
            Hook::TurnScored => {
                g.score_castles(s);
                false
            }
            _ => false,
        }
    }

    fn notice<X: Holds<Self>, S: EventSink>(g: &mut Game<X>, _s: &mut S, n: Notice) {
        match n {
            Notice::ScoringBegins => {
                for c in &mut g.ext.state_mut().castles {
                    c.best = -1;
                }
            }
            Notice::FeatureScored {
                root,
                complete: true,
                points,
                ..
            } => g.castle_candidate(root, points),
            _ => {}
        }
    }

    fn farm_city_bonus<X: Holds<Self>>(g: &Game<X>, root: u32) -> i64 {
        let c = g.ext.state();
        if c.castles.iter().any(|k| k.root == root) {
            c.config.farm_bonus
        } else {
            0
        }
    }

    fn choice<X: Holds<Self>>(_g: &Game<X>, _local: u8, i: usize) -> Choice {
        Choice::Flag { yes: i == 1 }
    }

    fn option_count<X: Holds<Self>>(_g: &Game<X>, _local: u8) -> usize {
        2
    }
}

impl Valuation for Castles {
    /// A waiting castle: the points of the most valuable unfinished feature in its vicinity
    /// as if completed now (at least 4, about an average completion), times the chance that
    /// something there completes in time: the share of the pack left (a dozen tiles or more:
    /// 0.9; the castle scores in most games). Its follower comes home with it (counted by
    /// the core only for features, not castles): one follower's worth, 2 points, with the
    /// same chance.
    fn expected_points<X: Holds<Self>>(g: &Game<X>, out: &mut [f64]) {
        let left = g.remaining() as f64;
        let chance = 0.9 * (left / 12.0).min(1.0);
        for c in g.ext.state().castles.iter().filter(|c| c.open) {
            let v = best_in_vicinity(g, &c.cells).max(4) as f64;
            if let Some(t) = out.get_mut(c.owner as usize) {
                *t += chance * (v + 2.0);
            }
        }
    }

    /// Scoring the small city: what it is worth now. Building: what the most valuable
    /// unfinished road, city or cloister in the vicinity would be worth if it were completed
    /// now (the castle takes the first completion; an empty vicinity is worth nothing yet).
    fn value_hint<X: Holds<Self>>(g: &Game<X>, _local: u8, i: usize, _player: u8) -> i64 {
        let c = g.ext.state();
        let Some(&(root, _, _)) = c.offers.get(c.offer) else {
            return 0;
        };
        if i == 0 {
            // the small city, scored now: two tiles
            let pennants = g.comps[root as usize].pennants;
            return g.road_city_points(FeatureKind::City, true, 2, pennants);
        }
        let [a, b] = city_tiles(g, root).map(|t| (g.placed[t as usize].x, g.placed[t as usize].y));
        best_in_vicinity(g, &vicinity(a, b))
    }
}

impl Presentation for Castles {
    const LEGEND: &'static [(Glyph, &'static str)] = &[(
        Glyph::Drawn(&KEEP_ART),
        "castle (owner's colour; hollow once it has scored)",
    )];

    fn board_pieces<X: Holds<Self>>(g: &Game<X>, out: &mut Vec<Piece>) {
        for c in &g.ext.state().castles {
            let (a, b) = (c.cells[0], c.cells[1]);
            out.push(Piece {
                x: (a.0 + b.0) as f64 / 2.0 + 0.5,
                y: (a.1 + b.1) as f64 / 2.0 + 0.5,
                glyph: Glyph::Drawn(&KEEP_ART),
                owner: c.open.then_some(c.owner),
                note: format!(
                    "castle of seat {} on ({},{})–({},{}){}",
                    c.owner + 1,
                    a.0,
                    a.1,
                    b.0,
                    b.1,
                    if c.open { ", waiting" } else { ", scored" }
                ),
            });
        }
    }
}

/// The two tiles (placed-tile indices) of small city `root`: its two segments' (the caller
/// has checked it is one, see `Game::small_city`).
fn city_tiles<X>(g: &Game<X>, root: u32) -> [u32; 2] {
    let first = g.comps[root as usize].head;
    let second = g.nodes[first as usize].next;
    [first, second].map(|n| g.nodes[n as usize].tile as u32)
}

/// What the most valuable unfinished road, city or cloister on the squares `cells` would be
/// worth if it were completed now (a city 2 a tile, a road 1, a cloister 1 + its neighbours;
/// a rough measure, for the value hints).
fn best_in_vicinity<X: Holds<Castles>>(g: &Game<X>, cells: &[(i32, i32)]) -> i64 {
    let mut best = 0;
    for &(x, y) in cells {
        let Some(pidx) = g.tile_at(x, y) else {
            continue;
        };
        let t = g.placed[pidx];
        for k in 0..g.rules.tiles[t.tile as usize].segments.len() {
            let r = g.root_of(t.node0 + k as u32);
            let f = &g.comps[r as usize];
            if f.done || f.kind == FeatureKind::Field {
                continue;
            }
            let size = match f.kind {
                FeatureKind::Cloister => g.neighbours(x, y) as i64 + 1,
                FeatureKind::City => 2 * g.feature_tile_count(r) as i64 + 2,
                _ => g.feature_tile_count(r) as i64 + 1,
            };
            best = best.max(size);
        }
    }
    best
}

/// The six squares of a castle on the squares `a` and `b` (neighbours): those two, then the
/// two beside each across the castle's axis.
fn vicinity(a: (i32, i32), b: (i32, i32)) -> [(i32, i32); 6] {
    if a.0 == b.0 {
        // stacked north–south: the west and east neighbours
        [
            a,
            b,
            (a.0 - 1, a.1),
            (a.0 + 1, a.1),
            (b.0 - 1, b.1),
            (b.0 + 1, b.1),
        ]
    } else {
        [
            a,
            b,
            (a.0, a.1 - 1),
            (a.0, a.1 + 1),
            (b.0, b.1 - 1),
            (b.0, b.1 + 1),
        ]
    }
}

impl<X: Holds<Castles>> Game<X> {
    /// Castles of this game: (owner, first tile's square, waiting to score).
    pub fn castles(&self) -> Vec<(u8, (i32, i32), bool)> {
        let c = self.ext.state();
        c.castles
            .iter()
            .map(|k| (k.owner, k.cells[0], k.open))
            .collect()
    }

    /// Castle tokens `player` has left.
    pub fn castles_left(&self, player: u8) -> u8 {
        self.ext.state().left[player as usize]
    }

    /// The set-up: every seat's tokens.
    fn castles_begin(&mut self) {
        let players = self.players;
        let c = self.ext.state_mut();
        let n = c.config.supply.for_players(players);
        c.dealt = n;
        c.left = [n; MAX_PLAYERS];
    }

    /// The small cities the tile just placed completed (exactly two single-edge caps on two
    /// tiles, exactly one follower, its owner with a token left), asked one at a time in
    /// segment order; `answer` builds the castle asked last or not.
    fn castle_offers<S: EventSink>(&mut self, s: &mut S, answer: Option<usize>) -> bool {
        match answer {
            None => {
                self.find_offers();
                self.ext.state_mut().offer = 0;
            }
            Some(i) => {
                let k = self.ext.state().offer;
                if i == 1 {
                    let (root, owner, node) = self.ext.state().offers[k];
                    self.build_castle(s, root, owner, node);
                }
                self.ext.state_mut().offer = k + 1;
            }
        }
        let c = self.ext.state();
        match c.offers.get(c.offer) {
            Some(&(_, owner, _)) => {
                self.ask(CASTLE_BUILD, owner, 2);
                true
            }
            None => false,
        }
    }

    fn find_offers(&mut self) {
        let mut offers = std::mem::take(&mut self.ext.state_mut().offers);
        offers.clear();
        let t = self.placed[self.last_placed];
        for k in 0..self.rules.tiles[t.tile as usize].segments.len() {
            if self.rules.tiles[t.tile as usize].segments[k].kind != FeatureKind::City {
                continue;
            }
            let root = self.root(t.node0 + k as u32);
            let comp = self.comps[root as usize];
            if comp.open != 0 || comp.done || comp.nfollowers != 1 {
                continue;
            }
            if offers.iter().any(|o| o.0 == root) || !self.small_city(root) {
                continue;
            }
            let Some(f) = self.followers.iter().find(|f| self.root_of(f.node) == root) else {
                continue;
            };
            if self.ext.state().left[f.player as usize] > 0 {
                offers.push((root, f.player, f.node));
            }
        }
        self.ext.state_mut().offers = offers;
    }

    /// Exactly two segments, on two tiles, each reaching one side.
    fn small_city(&self, root: u32) -> bool {
        let mut n = self.comps[root as usize].head;
        let mut count = 0;
        let mut tiles = [u16::MAX; 2];
        while n != NIL {
            let node = self.nodes[n as usize];
            if count == 2 {
                return false;
            }
            let tile = self.placed[node.tile as usize].tile;
            let seg = &self.rules.tiles[tile as usize].segments[node.seg as usize];
            if seg.sides.count_ones() != 1 || self.rules.tiles[tile as usize].marks & NO_CASTLE != 0
            {
                return false;
            }
            tiles[count] = node.tile;
            count += 1;
            n = node.next;
        }
        count == 2 && tiles[0] != tiles[1]
    }

    fn build_castle<S: EventSink>(&mut self, s: &mut S, root: u32, owner: u8, node: u32) {
        self.comps[root as usize].done = true; // not scored as a city
        let tiles = city_tiles(self, root);
        let (a, b) = (
            self.placed[tiles[0] as usize],
            self.placed[tiles[1] as usize],
        );
        let castle = Castle {
            owner,
            node,
            root,
            tiles,
            cells: vicinity((a.x, a.y), (b.x, b.y)),
            built_turn: self.turn,
            open: true,
            best: -1,
        };
        let c = self.ext.state_mut();
        c.left[owner as usize] -= 1;
        c.built += 1;
        c.castles.push(castle);
        let turn = self.turn as i64;
        self.emit(
            s,
            Event::Expansion(ExpansionEvent::new(
                CASTLE_BUILT,
                &[
                    turn,
                    owner as i64,
                    a.x as i64,
                    a.y as i64,
                    b.x as i64,
                    b.y as i64,
                ],
            )),
        );
    }

    /// A feature completed this turn: the castles waiting since an earlier turn with one of
    /// its tiles in their vicinity (a cloister: its own tile) note what it is worth.
    fn castle_candidate(&mut self, root: u32, points: i64) {
        let turn = self.turn;
        if !self
            .ext
            .state()
            .castles
            .iter()
            .any(|c| c.open && c.built_turn < turn)
        {
            return;
        }
        let mut tiles = std::mem::take(&mut self.ext.state_mut().scratch);
        tiles.clear();
        let comp = self.comps[root as usize];
        if comp.kind == FeatureKind::Cloister {
            tiles.push(self.nodes[root as usize].tile as u32);
        } else {
            self.component_tile_list(root, &mut tiles);
        }
        let placed = &self.placed;
        for c in &mut self.ext.state_mut().castles {
            if c.open
                && c.built_turn < turn
                && tiles.iter().any(|&t| {
                    let p = placed[t as usize];
                    c.near(p.x, p.y)
                })
            {
                c.best = c.best.max(points);
            }
        }
        self.ext.state_mut().scratch = tiles;
    }

    /// The castles a feature completed this turn reached score (the highest such feature),
    /// then, round after round, the waiting castles whose vicinity holds a tile of a castle
    /// that just scored (a chain: the same points).
    fn score_castles<S: EventSink>(&mut self, s: &mut S) {
        // the castles a completed feature reached directly (`direct_first` keeps their points)
        let direct: u64 = if self.ext.state().config.direct_first {
            self.ext
                .state()
                .castles
                .iter()
                .enumerate()
                .filter(|(_, c)| c.open && c.best >= 0)
                .fold(0, |m, (i, _)| m | 1u64 << (i & 63))
        } else {
            0
        };
        loop {
            let Some(k) = self
                .ext
                .state()
                .castles
                .iter()
                .position(|c| c.open && c.best >= 0)
            else {
                return;
            };
            let castle = self.ext.state().castles[k];
            let points = castle.best;
            {
                let c = self.ext.state_mut();
                c.castles[k].open = false;
                c.scored += 1;
            }
            // the chain: waiting castles (built before this turn) around this one's tiles
            let turn = self.turn;
            let (a, b) = (
                self.placed[castle.tiles[0] as usize],
                self.placed[castle.tiles[1] as usize],
            );
            for (i, c) in self.ext.state_mut().castles.iter_mut().enumerate() {
                if c.open
                    && c.built_turn < turn
                    && direct & (1u64 << (i & 63)) == 0
                    && (c.near(a.x, a.y) || c.near(b.x, b.y))
                {
                    c.best = c.best.max(points);
                }
            }
            self.emit(
                s,
                Event::Expansion(ExpansionEvent::new(
                    CASTLE_SCORED,
                    &[
                        turn as i64,
                        castle.owner as i64,
                        a.x as i64,
                        a.y as i64,
                        points,
                    ],
                )),
            );
            self.award(s, castle.owner, CASTLE, points, true);
            if let Some(i) = self.followers.iter().position(|f| f.node == castle.node) {
                self.return_follower(s, i);
            }
            if self.ext.state().config.gold {
                let mut tiles = [0u32; 8];
                let mut len = 0;
                for &(x, y) in &castle.cells {
                    if let Some(pidx) = self.tile_at(x, y) {
                        tiles[len] = pidx as u32;
                        len += 1;
                    }
                }
                X::notify(
                    self,
                    s,
                    Notice::AreaScored {
                        winners: 1 << castle.owner,
                        complete: true,
                        tiles,
                        len: len as u8,
                    },
                );
            }
        }
    }
}

/// A keep (battlements), in the owner's colour.
pub const KEEP_ART: GlyphArt = GlyphArt {
    svg: r##"<path d="M-10 8 v-12 h4 v4 h4 v-4 h4 v4 h4 v-4 h4 v12 z" fill="{colour}" stroke="#222" stroke-width="1.2"/>"##,
    in_seat_colour: true,
};

#[cfg(test)]
mod tests {
    use super::vicinity;

    #[test]
    fn the_vicinity_lies_across_the_castle() {
        // stacked north–south: west and east of both
        assert_eq!(
            vicinity((0, 0), (0, -1)),
            [(0, 0), (0, -1), (-1, 0), (1, 0), (-1, -1), (1, -1)]
        );
        // side by side: north and south of both
        assert_eq!(
            vicinity((0, 0), (1, 0)),
            [(0, 0), (1, 0), (0, -1), (0, 1), (1, -1), (1, 1)]
        );
    }
}
