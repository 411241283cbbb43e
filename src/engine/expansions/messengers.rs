//! The Messengers (Mini #2; the 1st edition's "The Messages" or "Dispatches"; Hans im Glück
//! 2012, reissued in Big Box 6, 2017), both editions (rules as Wikicarpedia's C1 and C2
//! pages and papageek's C2 transcription give them; `shared/rules/minis.md` §3).
//!
//! - **Two scoring figures.** Each player has the scoring meeple and the messenger (C1: the
//!   woman follower) on the score track, both on 0 at the start; the player's score is the
//!   sum of the two. *Whenever* a player scores points, that player chooses which one of the
//!   two advances by the full amount: the decision `messenger_figure` (no = the scoring
//!   meeple, yes = the messenger), asked of the scorer, for every award, in the order the
//!   core paid them.
//! - **Messages.** When, during the active player's own turn, one of that player's figures
//!   stops on a dark space (0, 5, 10, …), the player draws the top message once that round of
//!   scoring is over (at most one per round: Wikicarpedia's Order of Play) and either carries
//!   out its action or takes 2 points (`messenger_resolve`: no = 2 points, yes = the action);
//!   the message goes to the bottom of the stack, so the order repeats every 8 draws. The
//!   points a message brings are a new round: its own figure choice, perhaps another message
//!   (chains).
//! - **The eight messages** (C1 and C2 share them): 1–3 score the player's smallest road,
//!   city or cloister holding one of its followers as at the end of the game, the followers
//!   stay (an unfinished inn road or cathedral city is worth 0: the core's rescoring);
//!   4 another tile (a whole turn of the same player after this one, as a builder's second
//!   tile: tile, follower, scoring); 5 two points a pennant in the cities holding one of its
//!   knights; 6 two points a knight; 7 points a farmer (`messengers.farmer_points`); 8 score
//!   one of its followers (`messenger_follower`) as at the end of the game and take it back.
//! - **The stack's order** is a keyed draw from the game seed (never a shared stream), so two
//!   rulesets with the Messengers on the same seed draw the messages alike.
//! - **Final scoring**: each player's two figures are added into one and no message is drawn.
//!
//! How the turn asks: the core pays points through `award`, and a notice cannot ask, so the
//! module hears every award (`Notice::PointsScored`) and queues it; at the hooks after the
//! scoring (`TurnScored`, `AfterScoring`, `TurnEnd`, where it acts last) it asks, award by
//! award, which figure advances, then draws the message when one is due. No core change.
//!
//! **With The Robbers** the rulebooks agree (Robbers C1 and C2 footnote, 5/2013): a robber
//! stands beside either figure and robs only the move of a figure leaving its space, so the
//! scoring player may dodge it with the other. The module tells the robbers each move
//! (`Notice::FigureMoved`, after the `figure_moved` event) and answers where the figures
//! stand (`Expansion::scoring_figures`), so the robbers rob the first move off their space,
//! messages' points included. Robber points are a score like any other here: by default the
//! robber's owner chooses the figure they move (`messengers.robber_points_choose_figure`)
//! and, in its own turn, a dark space they reach draws a message
//! (`messengers.robber_points_can_trigger_message`); both are open questions of the rules
//! (`shared/rules/minis.md` §6.2, §8 item 5), the literal reading the default. See
//! `docs/src/rules/messengers.md`.

use crate::engine::compiled::Compiled;
use crate::engine::decision::{Choice, DecisionKind, DecisionSpec};
use crate::engine::event::Field;
use crate::engine::event::{BoardChange, Event, EventKind, EventSink, EventSpec, ExpansionEvent};
use crate::engine::game::{Game, MAX_PLAYERS, NIL};
use crate::engine::hooks::{
    category_of, counter_of, event_of, kind_of, Expansion, Heard, Holds, Hook, Notice,
    Presentation, Valuation,
};
use crate::engine::outcome::{Category, Counter, CounterSpec, GameOutcome};
use crate::engine::rng;
use crate::rule_options::{Area, OptType, OptionDef};
use crate::ruleset::{FarmRule, Ruleset, Vars};
use crate::tiles::FeatureKind;

/// The options' area (and key prefix).
const AREA: Area = Area::Expansion("messengers");

/// The domain of the message stack's keyed order (apart from the deck's and the decisions').
const STACK_DOMAIN: u64 = 0x4D45_5353; // "MESS"

/// How many messages there are.
pub const MESSAGES: usize = 8;

/// The messages, by number − 1 (their names in events and narration).
pub const MESSAGE_NAMES: [&str; MESSAGES] = [
    "smallest road",
    "smallest city",
    "smallest cloister",
    "another tile",
    "points per pennant",
    "points per knight",
    "points per farmer",
    "score a follower and take it back",
];

/// Which figure advances for an award (no = the scoring meeple, yes = the messenger).
pub const MESSENGER_FIGURE: DecisionKind = kind_of::<Messengers>(0);
/// A message drawn: its action (yes) or the 2 points (no).
pub const MESSENGER_RESOLVE: DecisionKind = kind_of::<Messengers>(1);
/// Message 8: which of the player's followers is scored and taken back.
pub const MESSENGER_FOLLOWER: DecisionKind = kind_of::<Messengers>(2);

/// Points messages bring (their actions and the 2-point alternative).
pub const MESSAGE_POINTS: Category = category_of::<Messengers>(0);
/// Messages drawn.
pub const DRAWN: Counter = counter_of::<Messengers>(0);
/// Messages whose action was carried out.
pub const ACTIONS: Counter = counter_of::<Messengers>(1);

/// A figure advanced (turn, player, figure: 0 meeple / 1 messenger, from, to).
pub const FIGURE_MOVED: EventKind = event_of::<Messengers>(0);
/// A message is drawn (turn, player, message number).
pub const MESSAGE_DRAWN: EventKind = event_of::<Messengers>(1);
/// A message is resolved (turn, player, message number, action, points it paid now).
pub const MESSAGE_RESOLVED: EventKind = event_of::<Messengers>(2);

/// The rules of the Messengers in one ruleset (read from its options).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Config {
    /// Points instead of a message's action.
    alt_points: i64,
    /// Points a pennant (message 5), a knight (6), a farmer (7).
    pennant_points: i64,
    knight_points: i64,
    farmer_points: i64,
    /// A dark space draws only when no other player's figure stands on it (ZMG English).
    alone: bool,
    /// Spaces on the score track (for `alone`: figures a lap apart share a space).
    track: i64,
    /// Messages a turn draws at most (a guard the rules do not state).
    chain_limit: u8,
    /// Robber points: the owner chooses the figure they move (else the scoring meeple).
    robber_choose: bool,
    /// Robber points landing the active player's figure on a dark space draw a message.
    robber_draws: bool,
}

impl Config {
    fn of(rules: &Ruleset) -> Config {
        let int = |k: &str, d: i64| rules.ext_int(k).unwrap_or(d);
        let flag = |k: &str, d: bool| match rules.ext.get(k) {
            Some(crate::ruleset::ExtValue::Bool(b)) => *b,
            _ => d,
        };
        Config {
            alt_points: int("messengers.alt_points", 2),
            pennant_points: int("messengers.pennant_points", 2),
            knight_points: int("messengers.knight_points", 2),
            farmer_points: int("messengers.farmer_points", 2),
            alone: matches!(
                rules.ext.get("messengers.alone"),
                Some(crate::ruleset::ExtValue::Bool(true))
            ),
            track: int("messengers.track", 50).max(1),
            chain_limit: int("messengers.chain_limit", 8).clamp(1, 255) as u8,
            robber_choose: flag("messengers.robber_points_choose_figure", true),
            robber_draws: flag("messengers.robber_points_can_trigger_message", true),
        }
    }
}

/// Where the module stands at a hook (the turn may pause at its decisions).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Phase {
    /// Nothing under way.
    #[default]
    Idle,
    /// Asking, award by award, which figure advances.
    Figures,
    /// A message is drawn: action or points.
    Resolve,
    /// Message 8: which follower.
    Follower,
}

/// The Messengers in one game.
#[derive(Clone, Debug, Default)]
pub struct Messengers {
    config: Config,
    /// Each seat's figures on the track: [scoring meeple, messenger].
    pos: [[i64; 2]; MAX_PLAYERS],
    /// Awards heard and not yet moved: (player, points, robbable), in the order they were
    /// paid (not robbable: robber points).
    pending: Vec<(u8, i64, bool)>,
    /// The award of `pending` asked now.
    k: usize,
    phase: Phase,
    /// The active player stopped on a dark space in this round.
    dark: bool,
    /// The stack's order (message numbers − 1) and the index of its top.
    stack: [u8; MESSAGES],
    top: u8,
    /// The message being resolved (its number − 1).
    drawn: u8,
    /// Messages drawn this turn (against `chain_limit`), and the turn they count for.
    drawn_in_turn: u8,
    drawn_turn: (u32, u8),
    /// Seats owed another tile (message 4).
    extra: [bool; MAX_PLAYERS],
    /// Final scoring has begun: the figures are one, awards go straight to it.
    final_scoring: bool,
    drawn_count: u32,
    actions: u32,
}

impl Expansion for Messengers {
    const OPTIONS: &'static [OptionDef] = &[
        OptionDef {
            key: "messengers.alt_points",
            area: AREA,
            ty: OptType::Int { min: 0, max: 20 },
            default: "2",
            doc: "Points a player takes instead of carrying out a message's action. Setting \
                  any messengers option puts The Messengers in the game (the second scoring \
                  figure and the message stack).",
            sources: "C1 (Wikicarpedia 1st edition: the seal on the tile) and C2 (Wikicarpedia, \
                      papageek): 2",
            requires: None,
        },
        OptionDef {
            key: "messengers.pennant_points",
            area: AREA,
            ty: OptType::Int { min: 0, max: 20 },
            default: "2",
            doc: "Message 5: points a pennant in the cities holding one of the player's knights.",
            sources: "C2 (papageek's transcription): 2 per coat of arms; BGG: 2 per banner",
            requires: None,
        },
        OptionDef {
            key: "messengers.knight_points",
            area: AREA,
            ty: OptType::Int { min: 0, max: 20 },
            default: "2",
            doc: "Message 6: points a knight of the player (followers in cities).",
            sources: "C2 (papageek): 2 per knight; BGG: 2 per knight",
            requires: None,
        },
        OptionDef {
            key: "messengers.farmer_points",
            area: AREA,
            ty: OptType::Int { min: 0, max: 20 },
            default: "2",
            doc: "Message 7: points a farmer of the player.",
            sources: "the tile's wording was not read: 2 by the other per-piece messages; the \
                      BGG publisher blurb says 3 per farmer (set 3 to follow it)",
            requires: None,
        },
        OptionDef {
            key: "messengers.alone",
            area: AREA,
            ty: OptType::Bool,
            default: "false",
            doc: "A figure stopping on a dark space draws a message only when no other \
                  player's figure stands on that space.",
            sources: "HiG C1 and C2: false; ZMG's English texts: true (Wikicarpedia C2 test \
                      page footnote, Order of Play)",
            requires: None,
        },
        OptionDef {
            key: "messengers.track",
            area: AREA,
            ty: OptType::Int { min: 10, max: 1000 },
            default: "50",
            doc: "Spaces on the score track (figures a lap apart share a space: `alone`).",
            sources: "all editions: 50",
            requires: None,
        },
        OptionDef {
            key: "messengers.chain_limit",
            area: AREA,
            ty: OptType::Int { min: 1, max: 64 },
            default: "8",
            doc: "Messages one turn draws at most: a guard the rules do not state (a chain \
                  rarely reaches 3), so that no policy can chain without end.",
            sources: "meeplab (the stack holds 8 messages)",
            requires: None,
        },
        OptionDef {
            key: "messengers.robber_points_choose_figure",
            area: AREA,
            ty: OptType::Bool,
            default: "true",
            doc: "With The Robbers: the points a robber takes move a figure of its owner, \
                  who chooses which (true), or always the scoring meeple (false).",
            sources: "[U] no rules text rules on it (minis.md §6.2, §8 item 5); true is the \
                      literal reading of the Messengers' 'every time a player scores points, \
                      that player chooses the figure'; false reads robber points as outside \
                      the Messengers' scoring",
            requires: None,
        },
        OptionDef {
            key: "messengers.robber_points_can_trigger_message",
            area: AREA,
            ty: OptType::Bool,
            default: "true",
            doc: "With The Robbers: robber points that stop a figure of the active player on \
                  a dark space in its own turn draw a message (true), or never do (false).",
            sources: "[U] no rules text rules on it (minis.md §6.2, §8 item 5); true is the \
                      literal reading (a figure stopping on a dark space in the player's turn \
                      draws; the Robbers exempt robber points only from robbers); false \
                      reads robber points as 'rogue points' outside every trigger",
            requires: None,
        },
    ];
    /// Last at each hook it shares: it moves the figures for every award the others paid.
    const PRIORITY: i8 = 100;
    const HOOKS: &'static [Hook] = &[Hook::TurnScored, Hook::AfterScoring, Hook::TurnEnd];
    /// Points to carry arm the figures' moves (most turns score nothing).
    const ARMED: &'static [(Hook, u32)] = &[
        (Hook::TurnScored, 0),
        (Hook::AfterScoring, 0),
        (Hook::TurnEnd, 0),
    ];
    const SPLITS_SCORE: bool = true;
    const HEARS: &'static [Heard] = &[Heard::FinalScoringBegins, Heard::PointsScored];
    const DECISIONS: &'static [DecisionSpec] = &[
        DecisionSpec {
            name: "messenger_figure",
            key_code: 90,
            doc: "which scoring figure advances for points scored: no = the scoring meeple, \
                  yes = the messenger",
        },
        DecisionSpec {
            name: "messenger_resolve",
            key_code: 91,
            doc: "a message drawn: no = take the 2 points, yes = carry out its action",
        },
        DecisionSpec {
            name: "messenger_follower",
            key_code: 92,
            doc: "message 8: which of the player's followers is scored and taken back",
        },
    ];
    const CATEGORIES: &'static [&'static str] = &["messages"];
    const COUNTERS: &'static [CounterSpec] = &[
        CounterSpec {
            name: "messages_drawn",
            doc: "messages drawn",
        },
        CounterSpec {
            name: "message_actions",
            doc: "messages whose action was carried out",
        },
    ];
    const EVENTS: &'static [EventSpec] = &[
        EventSpec {
            name: "figure_moved",
            key_code: 93,
            fields: &[
                ("turn", Field::Turn),
                ("player", Field::Seat),
                ("messenger", Field::Flag),
                ("from", Field::Count),
                ("to", Field::Count),
            ],
            narrate: |e, names| {
                let v = e.values;
                let who = (names.seat)(v[1] as u8);
                let figure = if v[2] != 0 {
                    "messenger"
                } else {
                    "scoring meeple"
                };
                let dark = if v[4] % 5 == 0 { " (a dark space)" } else { "" };
                Some(format!(
                    "         {who}'s {figure} moves from {} to {}{dark}",
                    v[3], v[4]
                ))
            },
            board: BoardChange::None,
        },
        EventSpec {
            name: "message_drawn",
            key_code: 94,
            fields: &[
                ("turn", Field::Turn),
                ("player", Field::Seat),
                ("message", Field::Count),
            ],
            narrate: |e, names| {
                let v = e.values;
                let who = (names.seat)(v[1] as u8);
                let n = v[2].clamp(1, MESSAGES as i32) as usize;
                Some(format!(
                    "         {who} draws message {n} ({})",
                    MESSAGE_NAMES[n - 1]
                ))
            },
            board: BoardChange::None,
        },
        EventSpec {
            name: "message_resolved",
            key_code: 95,
            fields: &[
                ("turn", Field::Turn),
                ("player", Field::Seat),
                ("message", Field::Count),
                ("action", Field::Flag),
                ("points", Field::Points),
            ],
            narrate: |e, names| {
                let v = e.values;
                let who = (names.seat)(v[1] as u8);
                if v[3] == 0 {
                    return Some(format!("         {who} takes {} points instead", v[4]));
                }
                let n = v[2].clamp(1, MESSAGES as i32) as usize;
                Some(match n {
                    4 => format!("         {who} will place another tile"),
                    _ => format!(
                        "         {who} carries out message {n} ({}): {} points",
                        MESSAGE_NAMES[n - 1],
                        v[4]
                    ),
                })
            },
            board: BoardChange::None,
        },
    ];

    fn used_by(rules: &Compiled) -> bool {
        rules.rules.ext_in_play("messengers.")
    }

    /// The two figures, until final scoring makes them one.
    fn scoring_figures<X: Holds<Self>>(g: &Game<X>, player: u8) -> Option<[i64; 2]> {
        let m = g.ext.state();
        (!m.final_scoring).then(|| m.pos.get(player as usize).copied().unwrap_or_default())
    }

    fn configure<X: Holds<Self>>(g: &mut Game<X>) {
        let c = Config::of(&g.rules.rules);
        g.ext.state_mut().config = c;
    }

    fn set_up<X: Holds<Self>>(g: &mut Game<X>) {
        let seed = g.seed;
        let m = g.ext.state_mut();
        m.stack = stack_order(seed);
        m.top = 0;
    }

    /// The messages not drawn yet lie face down: a seat's determinized copy
    /// (`engine/view.rs`) draws their order anew — sorted, then shuffled by `key`, so the copy
    /// does not depend on the true order. The ones drawn keep their places (the order repeats
    /// every eight draws, so after eight nothing is hidden).
    fn resample<X: Holds<Self>>(g: &mut Game<X>, key: u64) {
        let m = g.ext.state_mut();
        let hidden = MESSAGES - (m.drawn_count as usize).min(MESSAGES);
        let top = m.top as usize;
        let at = move |j: usize| (top + j) % MESSAGES;
        let mut left = [0u8; MESSAGES];
        for (j, l) in left.iter_mut().enumerate().take(hidden) {
            *l = m.stack[at(j)];
        }
        let left = &mut left[..hidden];
        left.sort_unstable();
        for i in (1..hidden).rev() {
            let j = rng::index(rng::key(key ^ STACK_DOMAIN, i as u64), i + 1);
            left.swap(i, j);
        }
        for (j, &l) in left.iter().enumerate() {
            m.stack[at(j)] = l;
        }
    }

    fn reset(&mut self) {
        self.pos = [[0; 2]; MAX_PLAYERS];
        self.pending.clear();
        self.k = 0;
        self.phase = Phase::Idle;
        self.dark = false;
        self.top = 0;
        self.drawn = 0;
        self.drawn_turn = (0, 0);
        self.drawn_in_turn = 0;
        self.extra = [false; MAX_PLAYERS];
        self.final_scoring = false;
        self.drawn_count = 0;
        self.actions = 0;
    }

    fn heap_bytes(&self) -> usize {
        std::mem::size_of_val(&self.pending[..])
    }

    fn outcome(&self, out: &mut GameOutcome) {
        out.counters.add(DRAWN, self.drawn_count);
        out.counters.add(ACTIONS, self.actions);
    }

    fn seat_state(&self, seat: usize) -> u64 {
        let Some(p) = self.pos.get(seat) else {
            return 0;
        };
        // the messenger's place (the meeple's follows from the score), a message owed, and
        // (on seat 0) the stack's top
        let top = if seat == 0 {
            (self.top as u64) << 40
        } else {
            0
        };
        (p[1] as u64 & 0xFFFF_FFFF) << 1 | self.extra[seat] as u64 | top
    }

    fn check_invariants<X: Holds<Self>>(g: &Game<X>) -> Result<(), String> {
        let m = g.ext.state();
        for p in 0..g.players {
            // the awards of the round before `k` are moved already
            let pending: i64 = m.pending[m.k.min(m.pending.len())..]
                .iter()
                .filter(|a| a.0 == p)
                .map(|a| a.1)
                .sum();
            let figures = m.pos[p as usize][0] + m.pos[p as usize][1];
            if figures + pending != g.score[p as usize] {
                return Err(format!(
                    "messengers: seat {p}'s figures ({} + {}) and awards waiting ({pending}) \
                     do not add up to its score {} ({:?}, award {} of {:?})",
                    m.pos[p as usize][0],
                    m.pos[p as usize][1],
                    g.score[p as usize],
                    m.phase,
                    m.k,
                    m.pending
                ));
            }
        }
        let mut seen = [false; MESSAGES];
        for &x in &m.stack {
            if x as usize >= MESSAGES || std::mem::replace(&mut seen[x as usize], true) {
                return Err(format!(
                    "messengers: the stack {:?} is not the 8 messages",
                    m.stack
                ));
            }
        }
        Ok(())
    }

    fn choice<X: Holds<Self>>(g: &Game<X>, local: u8, i: usize) -> Choice {
        match local {
            2 => Choice::Spot {
                at: g.opt_node.get(i).map(|&n| g.node_spot(n)),
            },
            _ => Choice::Flag { yes: i == 1 },
        }
    }

    fn option_count<X: Holds<Self>>(g: &Game<X>, local: u8) -> usize {
        match local {
            2 => g.opt_node.len(),
            _ => 2,
        }
    }

    const GRANTS_TILES: bool = true;

    fn another_tile<X: Holds<Self>>(g: &mut Game<X>, player: u8) -> bool {
        let owed = &mut g.ext.state_mut().extra[player as usize];
        std::mem::replace(owed, false)
    }

    fn notice<X: Holds<Self>, S: EventSink>(g: &mut Game<X>, _s: &mut S, n: Notice) {
        match n {
            Notice::FinalScoringBegins => {
                // the two figures become one (the meeple on the sum); no messages now
                let m = g.ext.state_mut();
                m.final_scoring = true;
                for p in 0..MAX_PLAYERS {
                    m.pos[p][0] += m.pos[p][1];
                    m.pos[p][1] = 0;
                }
                for (p, pts, _) in std::mem::take(&mut m.pending) {
                    m.pos[p as usize][0] += pts;
                }
                m.phase = Phase::Idle;
            }
            Notice::PointsScored {
                player,
                points,
                robbable,
                ..
            } => {
                let m = g.ext.state_mut();
                if m.final_scoring || points < 0 {
                    // final scoring, and points paid away (a bazaar bid): the meeple
                    m.pos[player as usize][0] += points;
                } else {
                    m.pending.push((player, points, robbable));
                    // the first of its hooks still to come this turn moves the figures for
                    // them (it moves every pending one; its own run, under way, moves
                    // those it scores itself)
                    if m.phase == Phase::Idle {
                        let next = match g.hook_now() {
                            Some(h @ (Hook::AfterScoring | Hook::TurnEnd)) => h,
                            _ => Hook::TurnScored,
                        };
                        g.ext.arm(next);
                    }
                }
            }
            _ => {}
        }
    }

    fn on<X: Holds<Self>, S: EventSink>(
        g: &mut Game<X>,
        s: &mut S,
        _at: Hook,
        answer: Option<usize>,
    ) -> bool {
        if answer.is_none() {
            let m = g.ext.state_mut();
            if m.pending.is_empty() || m.final_scoring {
                return false;
            }
            m.phase = Phase::Figures;
            m.k = 0;
            m.dark = false;
        }
        g.messengers_run(s, answer)
    }
}

impl Valuation for Messengers {
    /// The figure: what a message is expected to bring (the mean of the 8, each at the better
    /// of its action and the 2 points) when the move stops on a dark space and draws, else 0,
    /// less what other players' robbers beside the figure would take (so greedy dodges).
    /// The message: the 2 points, or what the action pays now (another tile: 4, a guess at a
    /// tile and a follower's worth). The follower: what scoring it pays now.
    fn value_hint<X: Holds<Self>>(g: &Game<X>, local: u8, i: usize, player: u8) -> i64 {
        match local {
            0 => g.figure_hint(i == 1, player),
            1 => {
                let m = g.ext.state();
                if i == 0 {
                    m.config.alt_points
                } else {
                    g.message_value(m.drawn, g.active)
                }
            }
            _ => g
                .opt_node
                .get(i)
                .map_or(0, |&n| g.follower_worth(n, player)),
        }
    }
}

impl Presentation for Messengers {
    fn seat_columns<X: Holds<Self>>(g: &Game<X>, seat: u8, out: &mut Vec<(&'static str, i64)>) {
        let p = g.figures(seat);
        out.push(("meeple", p[0]));
        out.push(("messenger", p[1]));
    }
}

/// The message stack's order for a game seed: the 8 messages sorted by a key of each.
pub fn stack_order(seed: u64) -> [u8; MESSAGES] {
    let base = rng::key(seed ^ STACK_DOMAIN, 0);
    let mut keyed: [(u64, u8); MESSAGES] = [(0, 0); MESSAGES];
    for (i, k) in keyed.iter_mut().enumerate() {
        *k = (rng::key(base, i as u64 + 1), i as u8);
    }
    keyed.sort_unstable();
    let mut out = [0u8; MESSAGES];
    for (o, k) in out.iter_mut().zip(keyed) {
        *o = k.1;
    }
    out
}

impl<X: Holds<Messengers>> Game<X> {
    /// `player`'s two figures: [scoring meeple, messenger] (their sum and the awards not yet
    /// moved make the score).
    pub fn figures(&self, player: u8) -> [i64; 2] {
        self.ext
            .state()
            .pos
            .get(player as usize)
            .copied()
            .unwrap_or_default()
    }

    /// The message stack from its top (message numbers, 1–8).
    pub fn message_stack(&self) -> [u8; MESSAGES] {
        let m = self.ext.state();
        let mut out = [0u8; MESSAGES];
        for (j, o) in out.iter_mut().enumerate() {
            *o = m.stack[(m.top as usize + j) % MESSAGES] + 1;
        }
        out
    }

    /// Test support (rulebook scenarios): put `player`'s figures at `meeple` and `messenger`
    /// and its score at their sum.
    #[doc(hidden)]
    pub fn set_figures_for_test(&mut self, player: u8, meeple: i64, messenger: i64) {
        self.ext.state_mut().pos[player as usize] = [meeple, messenger];
        self.score[player as usize] = meeple + messenger;
    }

    /// Test support (rulebook scenarios): stack the messages in this order from the top
    /// (message numbers 1–8, each once).
    #[doc(hidden)]
    pub fn set_message_stack_for_test(&mut self, order: [u8; MESSAGES]) {
        let m = self.ext.state_mut();
        for (s, o) in m.stack.iter_mut().zip(order) {
            *s = o.saturating_sub(1);
        }
        m.top = 0;
    }

    /// Whether a figure of `player` at `to` draws a message (during `player`'s turn).
    fn draws_at(&self, player: u8, to: i64) -> bool {
        let m = self.ext.state();
        if player != self.active || to.rem_euclid(5) != 0 {
            return false;
        }
        if !m.config.alone {
            return true;
        }
        let t = m.config.track;
        !(0..self.players).filter(|&q| q != player).any(|q| {
            m.pos[q as usize]
                .iter()
                .any(|&f| (f - to).rem_euclid(t) == 0)
        })
    }

    /// The figure decision's hint (see [`Messengers::value_hint`]).
    fn figure_hint(&self, messenger: bool, player: u8) -> i64 {
        let m = self.ext.state();
        let Some(&(p, points, robbable)) = m.pending.get(m.k) else {
            return 0;
        };
        if p != player || m.phase != Phase::Figures {
            return 0;
        }
        let from = m.pos[p as usize][messenger as usize];
        // what robbers beside the figure would take (none without the Robbers)
        let toll = if robbable {
            X::toll(self, p, from, points)
        } else {
            0
        };
        let to = from + points;
        if m.dark || !self.draws_at(p, to) || !(robbable || m.config.robber_draws) {
            return -toll;
        }
        let sum: i64 = (0..MESSAGES as u8)
            .map(|k| self.message_value(k, p).max(m.config.alt_points))
            .sum();
        sum / MESSAGES as i64 - toll
    }

    /// The final-scoring worth of feature `root` (a road, city or cloister), with the
    /// expansions' rescoring (an unfinished inn road: 0).
    fn final_worth(&self, root: u32) -> i64 {
        let comp = &self.comps[root as usize];
        match comp.kind {
            FeatureKind::Cloister => {
                let (x, y, _) = self.node_spot(root);
                let n = self.neighbours(x, y);
                let vars = Vars {
                    tiles: n as i64 + 1,
                    neighbours: n as i64,
                    ..Vars::default()
                };
                let points = self.rules.rules.scoring.cloister_final.eval(&vars);
                self.rescored(root, FeatureKind::Cloister, false, n + 1, 0, points)
            }
            FeatureKind::Road | FeatureKind::City => {
                let tiles = self.feature_tile_count(root);
                let points = self.road_city_points(comp.kind, false, tiles, comp.pennants);
                self.rescored(root, comp.kind, false, tiles, comp.pennants, points)
            }
            FeatureKind::Field => {
                if self.rules.rules.scoring.farm == FarmRule::Off {
                    return 0;
                }
                let per_city = self.rules.rules.scoring.farm_city.eval(&Vars {
                    cities: 1,
                    ..Vars::default()
                });
                per_city * self.completed_cities_around(root) as i64
            }
        }
    }

    /// What scoring the feature under the follower on `node` pays now (message 8).
    fn follower_worth(&self, node: u32, _player: u8) -> i64 {
        self.final_worth(self.root_of(node))
    }

    /// Whether follower `f` stands on an open feature of the board (not one another
    /// expansion closed: a castle).
    fn on_open_feature(&self, node: u32) -> bool {
        !self.comps[self.root_of(node) as usize].done
    }

    /// What message `k` (number − 1) pays `player` now if carried out (another tile: 4).
    fn message_value(&self, k: u8, player: u8) -> i64 {
        let c = self.ext.state().config;
        let own = || {
            self.followers
                .iter()
                .filter(move |f| f.player == player && self.on_open_feature(f.node))
        };
        match k {
            0..=2 => {
                let kind =
                    [FeatureKind::Road, FeatureKind::City, FeatureKind::Cloister][k as usize];
                own()
                    .filter(|f| self.seg_kind(f.node) == kind)
                    .map(|f| self.final_worth(self.root_of(f.node)))
                    .min()
                    .unwrap_or(0)
            }
            3 => 4,
            4 => {
                let mut roots = [NIL; 64];
                let mut len = 0;
                let mut pennants = 0i64;
                for f in own().filter(|f| self.seg_kind(f.node) == FeatureKind::City) {
                    let r = self.root_of(f.node);
                    if !roots[..len].contains(&r) && len < roots.len() {
                        roots[len] = r;
                        len += 1;
                        pennants += self.comps[r as usize].pennants as i64;
                    }
                }
                pennants * c.pennant_points
            }
            5 => {
                own()
                    .filter(|f| self.seg_kind(f.node) == FeatureKind::City)
                    .count() as i64
                    * c.knight_points
            }
            6 => {
                own()
                    .filter(|f| self.seg_kind(f.node) == FeatureKind::Field)
                    .count() as i64
                    * c.farmer_points
            }
            _ => own()
                .map(|f| self.follower_worth(f.node, player))
                .max()
                .unwrap_or(0),
        }
    }

    /// Move award `k` of the round onto figure `messenger`.
    fn move_figure<S: EventSink>(&mut self, s: &mut S, messenger: bool) {
        let m = self.ext.state();
        let (p, points, robbable) = m.pending[m.k];
        let from = m.pos[p as usize][messenger as usize];
        let to = from + points;
        let draws = self.draws_at(p, to) && (robbable || m.config.robber_draws);
        let m = self.ext.state_mut();
        m.pos[p as usize][messenger as usize] = to;
        m.k += 1;
        m.dark |= draws;
        let turn = self.turn as i64;
        self.emit(
            s,
            Event::Expansion(ExpansionEvent::new(
                FIGURE_MOVED,
                &[turn, p as i64, messenger as i64, from, to],
            )),
        );
        // the robbers beside the figure's space (none heard without them)
        X::notify(
            self,
            s,
            Notice::FigureMoved {
                player: p,
                figure: messenger as u8,
                before: from,
                points,
                robbable,
            },
        );
    }

    /// The module's work at a hook, resumable: `answer` answers the decision it asked last.
    /// True when it asked one. (Out of line: `on` is entered three times a turn and mostly
    /// returns at once.)
    #[inline(never)]
    fn messengers_run<S: EventSink>(&mut self, s: &mut S, mut answer: Option<usize>) -> bool {
        loop {
            match self.ext.state().phase {
                Phase::Idle => return false,
                Phase::Figures => {
                    if let Some(i) = answer.take() {
                        self.move_figure(s, i == 1);
                    }
                    let m = self.ext.state();
                    if let Some(&(p, _, robbable)) = m.pending.get(m.k) {
                        if !robbable && !m.config.robber_choose {
                            // robber points on the scoring meeple, by option
                            self.move_figure(s, false);
                            continue;
                        }
                        self.ask(MESSENGER_FIGURE, p, 2);
                        return true;
                    }
                    // the round is over: a message when one is due
                    let turn = (self.turn, self.active);
                    let m = self.ext.state_mut();
                    m.pending.clear();
                    m.k = 0;
                    if m.drawn_turn != turn {
                        m.drawn_turn = turn;
                        m.drawn_in_turn = 0;
                    }
                    if !m.dark || m.drawn_in_turn >= m.config.chain_limit {
                        m.phase = Phase::Idle;
                        return false;
                    }
                    m.dark = false;
                    m.drawn_in_turn += 1;
                    m.drawn = m.stack[m.top as usize];
                    m.top = (m.top + 1) % MESSAGES as u8;
                    m.drawn_count += 1;
                    m.phase = Phase::Resolve;
                    let n = m.drawn as i64 + 1;
                    let ev = [self.turn as i64, self.active as i64, n];
                    self.emit(s, Event::Expansion(ExpansionEvent::new(MESSAGE_DRAWN, &ev)));
                    self.ask(MESSENGER_RESOLVE, self.active, 2);
                    return true;
                }
                Phase::Resolve => {
                    let action = answer.take() == Some(1);
                    if self.resolve(s, action) {
                        return true;
                    }
                    self.ext.state_mut().phase = Phase::Figures;
                }
                Phase::Follower => {
                    let i = answer.take().unwrap_or(0);
                    let node = self.opt_node.get(i).copied().unwrap_or(NIL);
                    let points = self.score_and_return(s, node);
                    self.resolved(s, true, points);
                    self.ext.state_mut().phase = Phase::Figures;
                }
            }
        }
    }

    /// Carry out the drawn message (`action`) or take the points; true when it asked which
    /// follower (message 8).
    fn resolve<S: EventSink>(&mut self, s: &mut S, action: bool) -> bool {
        let p = self.active;
        let m = self.ext.state();
        let (k, alt) = (m.drawn, m.config.alt_points);
        if !action {
            self.award(s, p, MESSAGE_POINTS, alt, true);
            self.resolved(s, false, alt);
            return false;
        }
        self.ext.state_mut().actions += 1;
        match k {
            3 => {
                self.ext.state_mut().extra[p as usize] = true;
                self.resolved(s, true, 0);
                false
            }
            7 => {
                self.opt_node.clear();
                for i in 0..self.followers.len() {
                    let f = self.followers[i];
                    if f.player == p && self.on_open_feature(f.node) {
                        self.opt_node.push(f.node);
                    }
                }
                if self.opt_node.is_empty() {
                    self.resolved(s, true, 0);
                    return false;
                }
                self.ext.state_mut().phase = Phase::Follower;
                let n = self.opt_node.len();
                self.ask(MESSENGER_FOLLOWER, p, n);
                true
            }
            _ => {
                let points = self.message_value(k, p);
                self.award(s, p, MESSAGE_POINTS, points, true);
                self.resolved(s, true, points);
                false
            }
        }
    }

    /// The event of a resolved message.
    fn resolved<S: EventSink>(&mut self, s: &mut S, action: bool, points: i64) {
        let n = self.ext.state().drawn as i64 + 1;
        let ev = [
            self.turn as i64,
            self.active as i64,
            n,
            action as i64,
            points,
        ];
        self.emit(
            s,
            Event::Expansion(ExpansionEvent::new(MESSAGE_RESOLVED, &ev)),
        );
    }

    /// Message 8: score the feature under the active player's follower on `node` for that
    /// player as at the end, and take the follower back. The points paid.
    fn score_and_return<S: EventSink>(&mut self, s: &mut S, node: u32) -> i64 {
        let p = self.active;
        let Some(i) = self
            .followers
            .iter()
            .position(|f| f.player == p && f.node == node)
        else {
            return 0;
        };
        let points = self.follower_worth(node, p);
        self.award(s, p, MESSAGE_POINTS, points, true);
        self.return_follower(s, i);
        points
    }
}
