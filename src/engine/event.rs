//! Events the engine emits: everything that happens in a game, in order. Reports, replays,
//! logs and divergence detection read these; each has a compact fingerprint that feeds the
//! per-turn running hash.

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
    FollowerPlaced {
        turn: u32,
        player: u8,
        x: i32,
        y: i32,
        segment: u8,
        feature: FeatureKind,
    },
    FollowerReturned {
        turn: u32,
        player: u8,
        x: i32,
        y: i32,
        segment: u8,
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
    IngotPlaced {
        turn: u32,
        player: u8,
        x: i32,
        y: i32,
    },
    IngotTaken {
        turn: u32,
        player: u8,
        x: i32,
        y: i32,
    },
    /// Ingots taken off the board without an owner (unclaimed, RGG leftovers, end of game).
    IngotsRemoved {
        turn: u32,
        x: i32,
        y: i32,
        count: u32,
    },
    /// Final scoring of collected gold.
    GoldValue {
        player: u8,
        ingots: u32,
        points: i64,
    },
    /// A robber placed on (or moved to) a score-track space.
    RobberPlaced {
        turn: u32,
        player: u8,
        space: u32,
        moved: bool,
    },
    RobberPassed {
        turn: u32,
        player: u8,
    },
    /// `robber`'s owner took `points` from `victim`'s scoring; the robber goes home.
    Robbed {
        turn: u32,
        robber: u8,
        victim: u8,
        points: i64,
    },
    /// A robber moved along with a marker that advanced on robber points.
    RobberCarried {
        turn: u32,
        robber: u8,
        from: u32,
        to: u32,
    },
    /// The active player's crop-circle choice.
    CropChoice {
        turn: u32,
        player: u8,
        circle: FeatureKind,
        deploy: bool,
    },
    CropDeployed {
        turn: u32,
        player: u8,
        x: i32,
        y: i32,
        segment: u8,
    },
    CropRemoved {
        turn: u32,
        player: u8,
        x: i32,
        y: i32,
        segment: u8,
    },
    CropPassed {
        turn: u32,
        player: u8,
    },
    TurnEnd {
        turn: u32,
    },
    GameEnd {
        turns: u32,
    },
}

impl Event {
    /// A compact fingerprint of the event (kind and every field) for running hashes.
    pub fn fingerprint(&self) -> u64 {
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
            Event::FollowerPlaced {
                turn,
                player,
                x,
                y,
                segment,
                feature,
            } => p(&[
                5,
                turn as u64,
                player as u64,
                c(x),
                c(y),
                segment as u64,
                feature as u64,
            ]),
            Event::FollowerReturned {
                turn,
                player,
                x,
                y,
                segment,
            } => p(&[6, turn as u64, player as u64, c(x), c(y), segment as u64]),
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
                category as u64,
                feature as u64,
                c(x),
                c(y),
                winners as u64,
                points as u64,
                tiles as u64,
            ]),
            Event::IngotPlaced { turn, player, x, y } => {
                p(&[8, turn as u64, player as u64, c(x), c(y)])
            }
            Event::IngotTaken { turn, player, x, y } => {
                p(&[9, turn as u64, player as u64, c(x), c(y)])
            }
            Event::IngotsRemoved { turn, x, y, count } => {
                p(&[10, turn as u64, c(x), c(y), count as u64])
            }
            Event::GoldValue {
                player,
                ingots,
                points,
            } => p(&[11, player as u64, ingots as u64, points as u64]),
            Event::RobberPlaced {
                turn,
                player,
                space,
                moved,
            } => p(&[12, turn as u64, player as u64, space as u64, moved as u64]),
            Event::RobberPassed { turn, player } => p(&[13, turn as u64, player as u64]),
            Event::Robbed {
                turn,
                robber,
                victim,
                points,
            } => p(&[14, turn as u64, robber as u64, victim as u64, points as u64]),
            Event::RobberCarried {
                turn,
                robber,
                from,
                to,
            } => p(&[15, turn as u64, robber as u64, from as u64, to as u64]),
            Event::CropChoice {
                turn,
                player,
                circle,
                deploy,
            } => p(&[16, turn as u64, player as u64, circle as u64, deploy as u64]),
            Event::CropDeployed {
                turn,
                player,
                x,
                y,
                segment,
            } => p(&[17, turn as u64, player as u64, c(x), c(y), segment as u64]),
            Event::CropRemoved {
                turn,
                player,
                x,
                y,
                segment,
            } => p(&[18, turn as u64, player as u64, c(x), c(y), segment as u64]),
            Event::CropPassed { turn, player } => p(&[19, turn as u64, player as u64]),
            Event::TurnEnd { turn } => p(&[20, turn as u64]),
            Event::GameEnd { turns } => p(&[21, turns as u64]),
            Event::Dealt { player, tile } => p(&[22, player as u64, tile as u64]),
            Event::Chosen { turn, player, tile } => {
                p(&[23, turn as u64, player as u64, tile as u64])
            }
        }
    }

    /// The turn the event belongs to (0 = set-up; final scoring belongs to the last turn + 1).
    pub fn turn(&self) -> Option<u32> {
        match *self {
            Event::Start { .. } | Event::GoldValue { .. } => None,
            Event::Dealt { .. } => Some(0),
            Event::Drawn { turn, .. }
            | Event::Chosen { turn, .. }
            | Event::Discarded { turn, .. }
            | Event::Placed { turn, .. }
            | Event::FollowerPlaced { turn, .. }
            | Event::FollowerReturned { turn, .. }
            | Event::Scored { turn, .. }
            | Event::IngotPlaced { turn, .. }
            | Event::IngotTaken { turn, .. }
            | Event::IngotsRemoved { turn, .. }
            | Event::RobberPlaced { turn, .. }
            | Event::RobberPassed { turn, .. }
            | Event::Robbed { turn, .. }
            | Event::RobberCarried { turn, .. }
            | Event::CropChoice { turn, .. }
            | Event::CropDeployed { turn, .. }
            | Event::CropRemoved { turn, .. }
            | Event::CropPassed { turn, .. }
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
            Event::IngotPlaced { .. } => "ingot_placed",
            Event::IngotTaken { .. } => "ingot_taken",
            Event::IngotsRemoved { .. } => "ingots_removed",
            Event::GoldValue { .. } => "gold_value",
            Event::RobberPlaced { .. } => "robber_placed",
            Event::RobberPassed { .. } => "robber_passed",
            Event::Robbed { .. } => "robbed",
            Event::RobberCarried { .. } => "robber_carried",
            Event::CropChoice { .. } => "crop_choice",
            Event::CropDeployed { .. } => "crop_deployed",
            Event::CropRemoved { .. } => "crop_removed",
            Event::CropPassed { .. } => "crop_passed",
            Event::TurnEnd { .. } => "turn_end",
            Event::GameEnd { .. } => "game_end",
        }
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
