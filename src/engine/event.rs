//! Events the engine emits: everything that happens in a game, in order. Reports, replays,
//! logs and divergence detection read these; each has a compact fingerprint that feeds the
//! per-turn running hash.

use crate::engine::follower_kind::FollowerKind;
use crate::engine::outcome::Category;
use crate::ruleset::TileIdx;
use crate::tiles::FeatureKind;
use serde::Serialize;

/// When a scoring happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// A feature completed during play.
    Turn,
    /// Final scoring at the end of the game.
    Final,
}

/// One thing that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// The start tile, before the first turn.
    Start {
        tile: TileIdx,
        x: i32,
        y: i32,
        rot: u8,
    },
    /// A turn begins: the active player drew this tile.
    Drawn {
        turn: u32,
        player: u8,
        tile: TileIdx,
    },
    /// A tile dealt into a player's hand at the set-up (the `hand` house rule).
    Dealt {
        player: u8,
        tile: TileIdx,
    },
    /// The tile the active player plays from its hand this turn (the `hand` house rule; with
    /// a hand of one, the drawn tile is played and this event does not occur).
    Chosen {
        turn: u32,
        player: u8,
        tile: TileIdx,
    },
    /// The drawn tile fits nowhere: removed from the game, or shuffled back.
    Discarded {
        turn: u32,
        tile: TileIdx,
        reshuffled: bool,
    },
    Placed {
        turn: u32,
        player: u8,
        tile: TileIdx,
        x: i32,
        y: i32,
        rot: u8,
    },
    /// A follower of `kind` (written only when not the plain one) put on segment `segment`
    /// of the tile at (x, y).
    FollowerPlaced {
        turn: u32,
        player: u8,
        x: i32,
        y: i32,
        segment: u8,
        feature: FeatureKind,
        #[serde(skip_serializing_if = "FollowerKind::is_plain")]
        kind: FollowerKind,
    },
    /// A follower of `kind` (written only when not the plain one) back to its owner's supply.
    FollowerReturned {
        turn: u32,
        player: u8,
        x: i32,
        y: i32,
        segment: u8,
        #[serde(skip_serializing_if = "FollowerKind::is_plain")]
        kind: FollowerKind,
    },
    /// A feature scored: every player in `winners` (bit per seat) receives `points`.
    Scored {
        turn: u32,
        phase: Phase,
        category: Category,
        feature: FeatureKind,
        /// Tile of the feature's first segment (where to show it).
        x: i32,
        y: i32,
        winners: u8,
        points: i64,
        tiles: u32,
    },
    TurnEnd {
        turn: u32,
    },
    GameEnd {
        turns: u32,
    },
    /// Something an expansion did: its kind and fields are what its module declares
    /// ([`EventSpec`]); written in JSON as the module's event, by name.
    #[serde(untagged)]
    Expansion(ExpansionEvent),
}

impl Event {
    /// A compact fingerprint of the event (kind and every field), its segments by their index
    /// in the tile's list: for an event on its own. The game's running hashes name segments
    /// by their place on the tile ([`Event::fingerprint_placed`]).
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint_placed(|_, _, segment| u64::from(segment))
    }

    /// A compact fingerprint of the event (kind and every field) for running hashes, with
    /// each segment (of the tile at x, y) mixed in as `place(x, y, segment)`: what the
    /// divergence records use, with [`crate::engine::Game::segment_place`], so that two
    /// rulesets listing a tile's segments in another order fingerprint a follower on the
    /// same physical segment alike.
    pub fn fingerprint_placed(&self, place: impl Fn(i32, i32, u8) -> u64) -> u64 {
        /// Cheap multiply-rotate absorption of each field, one strong mix at the end.
        #[inline]
        fn p(parts: &[u64]) -> u64 {
            let mut h = 0x243F_6A88_85A3_08D3u64;
            for &x in parts {
                h = (h ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
            }
            crate::engine::rng::mix64(h)
        }
        let c = |x: i32| x as u32 as u64;
        match *self {
            Event::Start { tile, x, y, rot } => p(&[1, tile as u64, c(x), c(y), rot as u64]),
            Event::Drawn { turn, player, tile } => p(&[2, turn as u64, player as u64, tile as u64]),
            Event::Discarded {
                turn,
                tile,
                reshuffled,
            } => p(&[3, turn as u64, tile as u64, reshuffled as u64]),
            Event::Placed {
                turn,
                player,
                tile,
                x,
                y,
                rot,
            } => p(&[
                4,
                turn as u64,
                player as u64,
                tile as u64,
                c(x),
                c(y),
                rot as u64,
            ]),
            // a kind other than the plain follower mixes in its code (the plain one nothing:
            // fingerprints from before the kinds stay as they were)
            Event::FollowerPlaced {
                turn,
                player,
                x,
                y,
                segment,
                feature,
                kind,
            } => {
                let parts = [
                    5,
                    turn as u64,
                    player as u64,
                    c(x),
                    c(y),
                    place(x, y, segment),
                    feature as u64,
                    kind.spec().key_code as u64,
                ];
                p(&parts[..if kind.is_plain() { 7 } else { 8 }])
            }
            Event::FollowerReturned {
                turn,
                player,
                x,
                y,
                segment,
                kind,
            } => {
                let parts = [
                    6,
                    turn as u64,
                    player as u64,
                    c(x),
                    c(y),
                    place(x, y, segment),
                    kind.spec().key_code as u64,
                ];
                p(&parts[..if kind.is_plain() { 6 } else { 7 }])
            }
            Event::Scored {
                turn,
                phase,
                category,
                feature,
                x,
                y,
                winners,
                points,
                tiles,
            } => p(&[
                7,
                turn as u64,
                phase as u64,
                category.index() as u64,
                feature as u64,
                c(x),
                c(y),
                winners as u64,
                points as u64,
                tiles as u64,
            ]),
            Event::TurnEnd { turn } => p(&[20, turn as u64]),
            Event::GameEnd { turns } => p(&[21, turns as u64]),
            Event::Dealt { player, tile } => p(&[22, player as u64, tile as u64]),
            Event::Chosen { turn, player, tile } => {
                p(&[23, turn as u64, player as u64, tile as u64])
            }
            Event::Expansion(ref e) => {
                let spec = e.spec();
                let mut parts = [0u64; 1 + MAX_FIELDS];
                parts[0] = spec.key_code;
                // a segment field is of the tile at the event's coordinates (its first two)
                let mut coords = [0i32; 2];
                let mut seen = 0;
                for (k, &(_, field)) in spec.fields.iter().enumerate() {
                    parts[1 + k] = match field {
                        Field::Segment => {
                            place(coords[0], coords[1], e.values[k].clamp(0, 255) as u8)
                        }
                        _ => field.hashed(e.values[k] as i64),
                    };
                    if field == Field::Coord && seen < 2 {
                        coords[seen] = e.values[k];
                        seen += 1;
                    }
                }
                p(&parts[..1 + spec.fields.len()])
            }
        }
    }

    /// The turn the event belongs to (0 = set-up; final scoring belongs to the last turn + 1).
    pub fn turn(&self) -> Option<u32> {
        match *self {
            Event::Start { .. } => None,
            Event::Expansion(ref e) => e.turn(),
            Event::Dealt { .. } => Some(0),
            Event::Drawn { turn, .. }
            | Event::Chosen { turn, .. }
            | Event::Discarded { turn, .. }
            | Event::Placed { turn, .. }
            | Event::FollowerPlaced { turn, .. }
            | Event::FollowerReturned { turn, .. }
            | Event::Scored { turn, .. }
            | Event::TurnEnd { turn } => Some(turn),
            Event::GameEnd { turns } => Some(turns),
        }
    }

    /// Short name of the event kind.
    pub fn kind(&self) -> &'static str {
        match self {
            Event::Start { .. } => "start",
            Event::Drawn { .. } => "drawn",
            Event::Dealt { .. } => "dealt",
            Event::Chosen { .. } => "chosen",
            Event::Discarded { .. } => "discarded",
            Event::Placed { .. } => "placed",
            Event::FollowerPlaced { .. } => "follower_placed",
            Event::FollowerReturned { .. } => "follower_returned",
            Event::Scored { .. } => "scored",
            Event::TurnEnd { .. } => "turn_end",
            Event::GameEnd { .. } => "game_end",
            Event::Expansion(e) => e.spec().name,
        }
    }
}

/// Most fields an expansion's event has.
pub const MAX_FIELDS: usize = 6;

/// The type of one field of an expansion's event: how it is written in JSON and mixed into
/// the event's fingerprint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// The turn (a number; when it is the first field, it is the event's turn).
    Turn,
    /// A seat (a number).
    Seat,
    /// A board coordinate (a signed number).
    Coord,
    /// A count or a space (a number).
    Count,
    /// A segment of the tile at the event's coordinates (its index in the tile's list, as a
    /// number); the running hashes name it by its place on the tile.
    Segment,
    /// Points (a signed number).
    Points,
    /// `true` or `false`.
    Flag,
    /// A feature kind (stored as its discriminant).
    Feature,
}

impl Field {
    /// What the fingerprint mixes in for `v` (as the events written out before the seam
    /// did: coordinates as 32 bits, the rest as 64).
    #[inline]
    fn hashed(self, v: i64) -> u64 {
        match self {
            Field::Coord => v as i32 as u32 as u64,
            _ => v as u64,
        }
    }
}

/// A kind of expansion event (see [`EventSpec`]; the table is built from the modules'
/// declarations in `expansions/mod.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EventKind(pub(crate) u8);

/// How an event changes the pieces on the board (the end-of-turn state hash keeps a
/// multiset of them): `tag` names the kind of piece, `x`/`y` index the fields with its
/// place, `owner` the field with its owner, if any.
#[derive(Clone, Copy, Debug)]
pub enum BoardChange {
    /// The event changes no piece on the board.
    None,
    /// A piece is added.
    Adds {
        tag: u64,
        owner: Option<u8>,
        x: u8,
        y: u8,
    },
    /// A piece is removed (`times`: the field with how many, when several).
    Removes {
        tag: u64,
        owner: Option<u8>,
        x: u8,
        y: u8,
        times: Option<u8>,
    },
}

/// How an expansion's event reads in the turn log: its line given the names of seats and
/// tile types (`None` for bookkeeping).
pub type Narrate = fn(&ExpansionEvent, names: &Names) -> Option<String>;

/// What an event's line may name: seats and tile types.
pub struct Names<'a> {
    pub seat: fn(u8) -> &'static str,
    pub tile: &'a dyn Fn(u16) -> String,
}

/// What a module declares about one kind of event it emits.
#[derive(Clone, Copy, Debug)]
pub struct EventSpec {
    /// Its name in JSON and logs (`snake_case`, unique).
    pub name: &'static str,
    /// Mixed first into its fingerprint (unique among events; those that existed before the
    /// seam keep their number).
    pub key_code: u64,
    /// Its fields, in order (at most [`MAX_FIELDS`]).
    pub fields: &'static [(&'static str, Field)],
    /// Its line in the turn log (`seat` names a seat), or `None` for bookkeeping.
    pub narrate: Narrate,
    /// How it changes the pieces on the board.
    pub board: BoardChange,
}

/// An event of an expansion: its kind and its field values (the first `spec().fields.len()`),
/// as its module declared them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExpansionEvent {
    pub kind: EventKind,
    /// 32 bits a field: an event stays as small as the core's (they are built per move).
    pub values: [i32; MAX_FIELDS],
}

impl ExpansionEvent {
    /// An event of `kind` with these field values, in declaration order (each within 32
    /// bits: turns, seats, coordinates, counts and points all are).
    #[inline]
    pub fn new(kind: EventKind, fields: &[i64]) -> ExpansionEvent {
        let mut values = [0; MAX_FIELDS];
        for (v, &f) in values.iter_mut().zip(fields) {
            *v = f as i32;
        }
        ExpansionEvent { kind, values }
    }

    /// Its fields of `kind`, or `None` when it is another kind.
    #[inline]
    pub fn of(&self, kind: EventKind) -> Option<[i64; MAX_FIELDS]> {
        (self.kind == kind).then(|| self.values.map(i64::from))
    }

    /// Its turn, when its first field is one.
    pub fn turn(&self) -> Option<u32> {
        match self.spec().fields.first() {
            Some((_, Field::Turn)) => Some(self.values[0] as u32),
            _ => None,
        }
    }
}

impl Event {
    /// The expansion event of `kind`'s fields, or `None` for any other event.
    #[inline]
    pub fn of(&self, kind: EventKind) -> Option<[i64; MAX_FIELDS]> {
        match self {
            Event::Expansion(e) => e.of(kind),
            _ => None,
        }
    }
}

impl Serialize for ExpansionEvent {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let spec = self.spec();
        let mut m = s.serialize_map(Some(1 + spec.fields.len()))?;
        m.serialize_entry("event", spec.name)?;
        for (k, &(name, field)) in spec.fields.iter().enumerate() {
            let v = self.values[k];
            match field {
                Field::Flag => m.serialize_entry(name, &(v != 0))?,
                Field::Feature => m.serialize_entry(name, &FeatureKind::from_index(v as usize))?,
                _ => m.serialize_entry(name, &v)?,
            }
        }
        m.end()
    }
}

/// Receives events as they happen. The fast path uses [`NoEvents`]; logs and replays collect.
pub trait EventSink {
    /// Whether this sink wants events at all (lets the engine skip building them).
    const WANTS: bool = true;
    fn event(&mut self, e: &Event);
}

/// Discards events (benchmarks, bulk comparisons: the running hash is still kept).
pub struct NoEvents;

impl EventSink for NoEvents {
    const WANTS: bool = false;
    fn event(&mut self, _e: &Event) {}
}

impl EventSink for Vec<Event> {
    fn event(&mut self, e: &Event) {
        self.push(e.clone());
    }
}
