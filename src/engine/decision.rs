//! Decisions: every choice a player makes, with its legal options in a canonical order, and
//! the [`Chooser`] trait policies implement. Options have a semantic form ([`Choice`]) so a
//! record can be replayed under another ruleset by meaning, not by index.

use crate::engine::follower_kind::FollowerKind;
use serde::{Deserialize, Serialize};

/// A kind of choice the engine asks for: the core's ([`DecisionKind::PLACEMENT`],
/// [`DecisionKind::FOLLOWER`], [`DecisionKind::TILE_PICK`]) and then each registered
/// expansion's, as its module declares them ([`DecisionSpec`]; the table, its count and the
/// names are built from those declarations in `expansions/mod.rs`). Written by name
/// (`snake_case`) in records and JSON.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DecisionKind(pub(crate) u8);

/// What a module declares about one kind of decision it asks.
#[derive(Clone, Copy, Debug)]
pub struct DecisionSpec {
    /// Its name in reports, records and JSON (`snake_case`, unique).
    pub name: &'static str,
    /// What it mixes into the decision's random key and the choice marks (unique; the
    /// kinds that existed before the seam keep the number they had, so games stay the same).
    pub key_code: u8,
    /// One line on what is decided (and its options' order).
    pub doc: &'static str,
}

/// The core's decisions, in [`DecisionKind`] order.
pub const CORE_DECISIONS: [DecisionSpec; 3] = [
    DecisionSpec {
        name: "placement",
        key_code: 0,
        doc: "where and how to place the drawn tile",
    },
    DecisionSpec {
        name: "follower",
        key_code: 1,
        doc: "which segment of the new tile gets a follower (and of which kind, when an \
              expansion adds kinds), or none",
    },
    DecisionSpec {
        name: "tile_pick",
        key_code: 9,
        doc: "which tile of the hand to play (the `hand` house rule, asked when the hand \
              holds two or more distinct tile types that fit; options in tile-type order)",
    },
];

impl DecisionKind {
    /// Where and how to place the drawn tile.
    pub const PLACEMENT: DecisionKind = DecisionKind(0);
    /// Which segment of the new tile gets a follower, or none.
    pub const FOLLOWER: DecisionKind = DecisionKind(1);
    /// Which tile of the hand to play (the `hand` house rule).
    pub const TILE_PICK: DecisionKind = DecisionKind(2);

    /// Its index in `0..DecisionKind::COUNT` (core kinds first, then the expansions' in
    /// registration order).
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl std::fmt::Debug for DecisionKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for DecisionKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for DecisionKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        DecisionKind::from_name(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown decision kind `{name}`")))
    }
}

/// A decision being asked: who decides, what kind, how many options, and the keyed random
/// draw that policies use (derived from seed, turn, player, kind and the occurrence of that
/// kind for that player in the turn).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    pub kind: DecisionKind,
    pub player: u8,
    pub options: usize,
    pub key: u64,
}

/// One option in semantic form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "choice", rename_all = "snake_case")]
pub enum Choice {
    Place {
        x: i32,
        y: i32,
        rot: u8,
    },
    /// `segment: None` = no follower; `kind`: which kind of follower (written only when not
    /// the plain one, so records of games without other kinds read as before).
    Follower {
        segment: Option<u8>,
        #[serde(default, skip_serializing_if = "FollowerKind::is_plain")]
        kind: FollowerKind,
    },
    /// A tile at (x, y): where an ingot goes, or is taken from.
    Ingot {
        x: i32,
        y: i32,
    },
    /// `space: None` = pass.
    Robber {
        space: Option<u32>,
    },
    Victim {
        player: u8,
    },
    CropMode {
        deploy: bool,
    },
    /// A follower position (x, y, segment), or `None` = pass.
    Spot {
        at: Option<(i32, i32, u8)>,
    },
    /// A follower of `kind`, not the plain one, from supply to the position (x, y, segment)
    /// off the tile just placed, or taken back from there (a crop circle's large follower);
    /// the plain follower's is [`Choice::Spot`].
    SpotOf {
        at: (i32, i32, u8),
        kind: FollowerKind,
    },
    /// A tile type of the hand to play (an index into the ruleset's tiles).
    Tile {
        tile: u16,
    },
    /// Yes or no, for an expansion's decision whose module says what is offered (its
    /// `DecisionSpec::doc`; e.g. turn a feature into a token instead of scoring it).
    Flag {
        yes: bool,
    },
    /// An expansion's token on the tile at (x, y), in its module's variant `n` (a bridge:
    /// 0 north–south, 1 west–east), or `None` = none.
    Token {
        at: Option<(i32, i32, u8)>,
    },
    /// A number its module names (a bid), or `None` = pass.
    Amount {
        n: Option<u32>,
    },
}

/// A choice in words, without the position (reports name the decision beside it).
impl std::fmt::Display for Choice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Choice::Place { x, y, rot } => {
                write!(f, "place at ({x}, {y}), turned {}°", u32::from(rot) * 90)
            }
            Choice::Follower {
                segment: Some(s),
                kind,
            } => write!(f, "a {kind} on segment {s}"),
            Choice::Follower { segment: None, .. } => f.write_str("no follower"),
            Choice::Ingot { x, y } => write!(f, "the ingot of the tile at ({x}, {y})"),
            Choice::Robber { space: Some(n) } => write!(f, "the robber to space {n}"),
            Choice::Robber { space: None } => f.write_str("no robber move"),
            Choice::Victim { player } => write!(f, "rob seat {}", u32::from(player) + 1),
            Choice::CropMode { deploy: true } => f.write_str("crop circle: deploy"),
            Choice::CropMode { deploy: false } => f.write_str("crop circle: remove"),
            Choice::Spot {
                at: Some((x, y, s)),
            } => write!(f, "the spot on segment {s} of the tile at ({x}, {y})"),
            Choice::Spot { at: None } => f.write_str("pass"),
            Choice::SpotOf {
                at: (x, y, s),
                kind,
            } => {
                write!(f, "a {kind} on segment {s} of the tile at ({x}, {y})")
            }
            Choice::Tile { tile } => write!(f, "play tile type #{tile} from the hand"),
            Choice::Flag { yes: true } => f.write_str("yes"),
            Choice::Flag { yes: false } => f.write_str("no"),
            Choice::Token {
                at: Some((x, y, n)),
            } => {
                write!(f, "a token on the tile at ({x}, {y}), way {n}")
            }
            Choice::Token { at: None } => f.write_str("no token"),
            Choice::Amount { n: Some(n) } => write!(f, "{n}"),
            Choice::Amount { n: None } => f.write_str("pass"),
        }
    }
}

/// Something that picks an option for a decision. `game` gives read access to the position
/// and the options (`Game::choice`).
pub trait Chooser {
    fn choose(&mut self, game: &crate::engine::Game, d: &Decision) -> usize;
}

/// A borrowed chooser chooses as the chooser it borrows (so a wrapper can hold `&mut C`).
impl<C: Chooser + ?Sized> Chooser for &mut C {
    #[inline]
    fn choose(&mut self, game: &crate::engine::Game, d: &Decision) -> usize {
        (**self).choose(game, d)
    }
}

/// A decision taken, as a game record stores it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TakenDecision {
    pub turn: u32,
    pub player: u8,
    pub kind: DecisionKind,
    pub choice: Choice,
}
