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

/// One option in semantic form. The expansions' decisions use the generic forms after
/// `Follower` (a spot, a tile type, yes or no, a token on a tile, an amount, a space of the
/// score track, a seat); what one means in a decision, and how it reads, is its module's
/// (`DecisionSpec::doc`, `Presentation::choice_words`). Records written before these forms were
/// generic still load (`WireChoice`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "choice", rename_all = "snake_case", from = "WireChoice")]
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
    /// 0 north–south, 1 west–east; 0 where it has one), or `None` = none.
    Token {
        at: Option<(i32, i32, u8)>,
    },
    /// A number its module names (a bid), or `None` = pass.
    Amount {
        n: Option<u32>,
    },
    /// A space of the score track, where its module puts a piece, or `None` = pass.
    Track {
        space: Option<u32>,
    },
    /// A seat its module asks about (whom an action targets).
    Seat {
        player: u8,
    },
}

/// How a [`Choice`] may be written: its forms today, and the forms that records and reports
/// written before the expansions' choices were generic used (each read as the generic form
/// that means the same).
#[derive(Deserialize)]
#[serde(tag = "choice", rename_all = "snake_case")]
enum WireChoice {
    Place {
        x: i32,
        y: i32,
        rot: u8,
    },
    Follower {
        segment: Option<u8>,
        #[serde(default)]
        kind: FollowerKind,
    },
    Spot {
        at: Option<(i32, i32, u8)>,
    },
    SpotOf {
        at: (i32, i32, u8),
        kind: FollowerKind,
    },
    Tile {
        tile: u16,
    },
    Flag {
        yes: bool,
    },
    Token {
        at: Option<(i32, i32, u8)>,
    },
    Amount {
        n: Option<u32>,
    },
    Track {
        space: Option<u32>,
    },
    Seat {
        player: u8,
    },
    /// Older form: a tile at (x, y), now a token there (way 0).
    Ingot {
        x: i32,
        y: i32,
    },
    /// Older form: a space of the score track.
    Robber {
        space: Option<u32>,
    },
    /// Older form: a seat.
    Victim {
        player: u8,
    },
    /// Older form: yes or no.
    CropMode {
        deploy: bool,
    },
}

impl From<WireChoice> for Choice {
    fn from(w: WireChoice) -> Choice {
        match w {
            WireChoice::Place { x, y, rot } => Choice::Place { x, y, rot },
            WireChoice::Follower { segment, kind } => Choice::Follower { segment, kind },
            WireChoice::Spot { at } => Choice::Spot { at },
            WireChoice::SpotOf { at, kind } => Choice::SpotOf { at, kind },
            WireChoice::Tile { tile } => Choice::Tile { tile },
            WireChoice::Flag { yes } => Choice::Flag { yes },
            WireChoice::Token { at } => Choice::Token { at },
            WireChoice::Amount { n } => Choice::Amount { n },
            WireChoice::Track { space } | WireChoice::Robber { space } => Choice::Track { space },
            WireChoice::Seat { player } | WireChoice::Victim { player } => Choice::Seat { player },
            WireChoice::Ingot { x, y } => Choice::Token {
                at: Some((x, y, 0)),
            },
            WireChoice::CropMode { deploy } => Choice::Flag { yes: deploy },
        }
    }
}

/// Where a choice's words go ([`DecisionKind::words`]): each place has its own phrasing.
#[derive(Clone, Copy, Debug)]
pub enum Wording {
    /// A phrase in a sentence of a report or a message ([`Choice::phrase`]).
    Phrase,
    /// A short note in a replay's problems ([`crate::engine::script::describe`]).
    Note,
    /// A line of a decision board's legend (`render::decision_svg`), seats named by
    /// `seat_name`.
    Legend { seat_name: fn(u8) -> &'static str },
}

impl Choice {
    /// This choice, an option of decision `kind`, as a phrase: its module's words, else the
    /// generic ones (`Display`).
    pub fn phrase(&self, kind: DecisionKind) -> String {
        kind.words(self, Wording::Phrase)
            .unwrap_or_else(|| self.to_string())
    }
}

/// A choice in generic words (its decision's module may have its own: [`Choice::phrase`]),
/// without the position (reports name the decision beside it).
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
            Choice::Track { space: Some(n) } => write!(f, "space {n} of the score track"),
            Choice::Track { space: None } => f.write_str("pass"),
            Choice::Seat { player } => write!(f, "seat {}", u32::from(player) + 1),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Records and reports written before the expansions' choices were generic name them by
    /// the older tags; each line loads as the generic form that means the same, and writes
    /// back in today's form.
    #[test]
    fn old_record_lines_load_as_the_generic_forms() {
        let cases: [(&str, Choice, &str); 6] = [
            (
                r#"{"turn":9,"player":0,"kind":"ingot_place","choice":{"choice":"ingot","x":-1,"y":-2}}"#,
                Choice::Token {
                    at: Some((-1, -2, 0)),
                },
                r#"{"choice":"token","at":[-1,-2,0]}"#,
            ),
            (
                r#"{"turn":2,"player":1,"kind":"robber_place","choice":{"choice":"robber","space":17}}"#,
                Choice::Track { space: Some(17) },
                r#"{"choice":"track","space":17}"#,
            ),
            (
                r#"{"turn":2,"player":0,"kind":"robber_place","choice":{"choice":"robber","space":null}}"#,
                Choice::Track { space: None },
                r#"{"choice":"track","space":null}"#,
            ),
            (
                r#"{"turn":30,"player":2,"kind":"robber_victim","choice":{"choice":"victim","player":1}}"#,
                Choice::Seat { player: 1 },
                r#"{"choice":"seat","player":1}"#,
            ),
            (
                r#"{"turn":1,"player":0,"kind":"crop_mode","choice":{"choice":"crop_mode","deploy":true}}"#,
                Choice::Flag { yes: true },
                r#"{"choice":"flag","yes":true}"#,
            ),
            (
                r#"{"turn":3,"player":1,"kind":"crop_mode","choice":{"choice":"crop_mode","deploy":false}}"#,
                Choice::Flag { yes: false },
                r#"{"choice":"flag","yes":false}"#,
            ),
        ];
        for (line, want, now) in cases {
            let d: TakenDecision =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(d.choice, want, "{line}");
            let written = serde_json::to_string(&d.choice).unwrap_or_default();
            assert_eq!(written, now);
            let again: Choice = serde_json::from_str(&written).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(again, want);
        }
    }

    /// Every form of today writes and reads back as itself (the older tags are read only).
    #[test]
    fn every_form_round_trips() {
        let all = [
            Choice::Place {
                x: -3,
                y: 4,
                rot: 3,
            },
            Choice::Follower {
                segment: Some(2),
                kind: FollowerKind::PLAIN,
            },
            Choice::Follower {
                segment: None,
                kind: FollowerKind::PLAIN,
            },
            Choice::Spot {
                at: Some((1, -1, 4)),
            },
            Choice::Spot { at: None },
            Choice::SpotOf {
                at: (2, 0, 1),
                kind: FollowerKind(1),
            },
            Choice::Tile { tile: 12 },
            Choice::Flag { yes: true },
            Choice::Token {
                at: Some((5, 6, 1)),
            },
            Choice::Token { at: None },
            Choice::Amount { n: Some(7) },
            Choice::Amount { n: None },
            Choice::Track { space: Some(0) },
            Choice::Track { space: None },
            Choice::Seat { player: 4 },
        ];
        for c in all {
            let json = serde_json::to_string(&c).unwrap_or_default();
            let back: Choice =
                serde_json::from_str(&json).unwrap_or_else(|e| panic!("{json}: {e}"));
            assert_eq!(back, c, "{json}");
        }
        let bad = serde_json::from_str::<Choice>(r#"{"choice":"ingot","x":1}"#);
        assert!(bad.is_err(), "a line missing a field is refused");
    }
}
