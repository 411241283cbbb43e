//! Decisions: every choice a player makes, with its legal options in a canonical order, and
//! the [`Chooser`] trait policies implement. Options have a semantic form ([`Choice`]) so a
//! record can be replayed under another ruleset by meaning, not by index.

use serde::{Deserialize, Serialize};

/// The kinds of choice the engine asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DecisionKind {
    /// Where and how to place the drawn tile.
    Placement,
    /// Which segment of the new tile gets a follower, or none.
    Follower,
    /// Which neighbour tile gets the second ingot.
    IngotPlace,
    /// Which tile to take an ingot from while gold is handed out.
    IngotPick,
    /// Where to place (or move) a robber on the score track, or pass.
    RobberPlace,
    /// Which scoring marker a robber robs when several could be.
    RobberVictim,
    /// Crop circle: deploy or remove.
    CropMode,
    /// Crop circle: where to deploy, or pass.
    CropDeploy,
    /// Crop circle: which follower to remove.
    CropRemove,
    /// Which tile of the hand to play (the `hand` house rule, asked when the hand holds two
    /// or more distinct tile types that fit somewhere; options in tile-type order).
    TilePick,
}

impl DecisionKind {
    pub const COUNT: usize = 10;
    pub fn index(self) -> usize {
        self as usize
    }

    /// Its name in reports and JSON (`snake_case`, as serde writes it).
    pub fn name(self) -> &'static str {
        match self {
            DecisionKind::Placement => "placement",
            DecisionKind::Follower => "follower",
            DecisionKind::IngotPlace => "ingot_place",
            DecisionKind::IngotPick => "ingot_pick",
            DecisionKind::RobberPlace => "robber_place",
            DecisionKind::RobberVictim => "robber_victim",
            DecisionKind::CropMode => "crop_mode",
            DecisionKind::CropDeploy => "crop_deploy",
            DecisionKind::CropRemove => "crop_remove",
            DecisionKind::TilePick => "tile_pick",
        }
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
    /// `segment: None` = no follower.
    Follower {
        segment: Option<u8>,
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
    /// A tile type of the hand to play (an index into the ruleset's tiles).
    Tile {
        tile: u16,
    },
}

/// A choice in words, without the position (reports name the decision beside it).
impl std::fmt::Display for Choice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Choice::Place { x, y, rot } => {
                write!(f, "place at ({x}, {y}), turned {}°", u32::from(rot) * 90)
            }
            Choice::Follower { segment: Some(s) } => write!(f, "a follower on segment {s}"),
            Choice::Follower { segment: None } => f.write_str("no follower"),
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
            Choice::Tile { tile } => write!(f, "play tile type #{tile} from the hand"),
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
