//! Kinds of follower: the core's one (the plain follower, whose supply is the ruleset's
//! `followers`) and those the expansions declare (`Expansion::FOLLOWER_KINDS`: a large
//! follower that counts twice, a piece that counts for nothing but rides with a feature…).
//! A kind says how many each player gets, what it weighs in a majority, which features it may
//! stand on, whether it may only join a feature its owner already holds or one still open,
//! and how the SVG board draws it. The table of
//! kinds (the core's first, then each registered expansion's) is built in `expansions/mod.rs`;
//! this file holds the types and the core's entry.

use crate::engine::glyph::Glyph;
use crate::tiles::FeatureKind;
use serde::{Deserialize, Serialize};

/// A kind of follower: an index into the table of kinds (0 = the plain follower, then each
/// registered expansion's, in registration order). Written by name in records and JSON, and
/// left out there when plain, so records of games without other kinds read as before.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct FollowerKind(pub(crate) u8);

/// What a module declares about one kind of follower.
#[derive(Clone, Copy, Debug)]
pub struct FollowerKindSpec {
    /// Its name in records, JSON and the turn log (`snake_case`, unique; "follower" is the
    /// core's).
    pub name: &'static str,
    /// What it mixes into the fingerprints of its events and the board's state hash (unique;
    /// 0 is the plain follower's, which mixes nothing in, so games without other kinds hash
    /// as before).
    pub key_code: u8,
    /// One line on what it is and does.
    pub doc: &'static str,
    /// How many each player has at the start (for the plain follower: the ruleset's
    /// `followers`, this field unused).
    pub supply: u8,
    /// What it counts for in a majority (a feature goes to the seats with the greatest sum of
    /// weights; a piece of weight 0 never wins a feature but goes home with it when it is
    /// scored).
    pub weight: u8,
    /// The features it may stand on: a bit per `FeatureKind` discriminant (see
    /// [`FollowerKindSpec::on`]).
    pub stands_on: u8,
    /// Whether it may only join a feature where its owner already has a follower of weight
    /// greater than 0 (a builder, a pig); if not, only an unoccupied feature, as a follower.
    pub needs_own: bool,
    /// Whether it may stand only on a road or city still open: not on one the tile just
    /// placed completed (a builder: JCloisterZone's `Builder` refuses a completed feature,
    /// where the piece would only go home at once).
    pub open_only: bool,
    /// How it looks on the SVG board and in its legend, in its owner's seat colour (the
    /// plain follower keeps its disc, flat on a field).
    pub glyph: Glyph,
}

impl FollowerKindSpec {
    /// The bits of `kinds` for [`FollowerKindSpec::stands_on`].
    pub const fn on(kinds: &[FeatureKind]) -> u8 {
        let mut bits = 0u8;
        let mut i = 0;
        while i < kinds.len() {
            bits |= 1 << kinds[i] as u8;
            i += 1;
        }
        bits
    }

    /// Whether it may stand on a feature of `kind`.
    #[inline]
    pub fn may_stand_on(&self, kind: FeatureKind) -> bool {
        self.stands_on & (1 << kind as u8) != 0
    }
}

/// The core's kinds: the plain follower (kind 0).
pub const CORE_FOLLOWER_KINDS: [FollowerKindSpec; 1] = [FollowerKindSpec {
    name: "follower",
    key_code: 0,
    doc: "the plain follower: counts as one in a majority, stands on any feature",
    supply: 0,
    weight: 1,
    stands_on: FollowerKindSpec::on(&FeatureKind::ALL),
    needs_own: false,
    open_only: false,
    glyph: Glyph::Follower,
}];

impl FollowerKind {
    /// The plain follower.
    pub const PLAIN: FollowerKind = FollowerKind(0);

    /// Whether it is the plain follower.
    #[inline]
    pub fn is_plain(&self) -> bool {
        self.0 == 0
    }

    /// Its index in `0..FollowerKind::COUNT`.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// What it weighs in a majority.
    #[inline]
    pub fn weight(self) -> u8 {
        self.spec().weight
    }
}

impl std::fmt::Debug for FollowerKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::fmt::Display for FollowerKind {
    /// Its name in words (`large_follower` → "large follower").
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, word) in self.name().split('_').enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            f.write_str(word)?;
        }
        Ok(())
    }
}

impl Serialize for FollowerKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for FollowerKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        FollowerKind::from_name(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown follower kind `{name}`")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plain_follower_is_kind_0_and_stands_anywhere() {
        let plain = FollowerKind::PLAIN;
        assert!(plain.is_plain());
        assert_eq!((plain.name(), plain.weight()), ("follower", 1));
        for kind in FeatureKind::ALL {
            assert!(plain.spec().may_stand_on(kind));
        }
        assert_eq!(FollowerKind::from_name("follower"), Some(plain));
        assert_eq!(FollowerKind::from_name("no such piece"), None);
        assert_eq!(
            serde_json::to_string(&plain).unwrap_or_default(),
            "\"follower\""
        );
    }

    #[test]
    fn the_plain_kind_is_left_out_of_records_and_events() {
        use crate::engine::{Choice, Event};
        let c = Choice::Follower {
            segment: Some(2),
            kind: FollowerKind::PLAIN,
        };
        let json = serde_json::to_string(&c).unwrap_or_default();
        assert_eq!(json, r#"{"choice":"follower","segment":2}"#);
        // a record written before the kinds reads as the plain follower
        let read: Choice = serde_json::from_str(&json).unwrap_or(Choice::Flag { yes: false });
        assert_eq!(read, c);
        let e = Event::FollowerPlaced {
            turn: 3,
            player: 1,
            x: 0,
            y: -1,
            segment: 2,
            feature: FeatureKind::Road,
            kind: FollowerKind::PLAIN,
        };
        let json = serde_json::to_string(&e).unwrap_or_default();
        assert!(!json.contains("kind"), "{json}");
    }

    #[test]
    fn a_mask_holds_the_kinds_it_names() {
        let road_city = FollowerKindSpec {
            stands_on: FollowerKindSpec::on(&[FeatureKind::Road, FeatureKind::City]),
            ..CORE_FOLLOWER_KINDS[0]
        };
        assert!(road_city.may_stand_on(FeatureKind::Road));
        assert!(road_city.may_stand_on(FeatureKind::City));
        assert!(!road_city.may_stand_on(FeatureKind::Field));
        assert!(!road_city.may_stand_on(FeatureKind::Cloister));
    }
}
