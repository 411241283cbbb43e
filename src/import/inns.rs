//! Inns & Cathedrals in JCloisterZone saves: the tile sets `inns-and-cathedrals:1`/`:2`, the
//! elements `big-follower`, `inn` and `cathedral`, and the large follower in `DEPLOY_MEEPLE`
//! (`meepleId` `P.big.1`). Its importer part, [`PART`], is registered in [`crate::import::jcz::parts`];
//! the translation's handlers delegate here.
//!
//! # The mapping
//! - The sets add `include "tiles/inns.tiles"` and `inns xN` to the deck (the 2nd edition's
//!   `IC/CCCCG` and `IC/RFr.iG`, printed with a garden, are meeplab's `IC/CCCC` and `IC/RFr.i`:
//!   gardens are inert without the Abbot, as for `basic:2`).
//! - The elements `big-follower` (1), `inn` and `cathedral` → `inns { inn_bonus = 1,
//!   cathedral_bonus = 1, unfinished = zero }` (JCloisterZone's road `tiles + inn`, city
//!   `… + cathedral`, 0 unfinished). meeplab plays the three together: a save with some of
//!   them only, another number of big followers, or the tiles without the elements, is refused
//!   with a clear error. The elements also make the inns of the BC&B bazaar roads count, as
//!   in JCloisterZone.
//! - A `DEPLOY_MEEPLE` whose `meepleId` is `P.big.1` is the large follower
//!   (`Choice::Follower { kind: large_follower }`).

use crate::engine::FollowerKind;
use crate::import::jcz::part::{element_count, Gardens, JczPart, Mapping};
use crate::import::jcz::JczError;
use crate::import::jcz::Setup;

/// The tiles of `inns-and-cathedrals:1`.
pub const INNS_1: &[(&str, u32)] = &[
    ("IC/Cccc.c", 2),
    ("IC/LRFR", 1),
    ("IC/CCCC", 1),
    ("IC/CCC", 1),
    ("IC/CRCR", 1),
    ("IC/CCc+", 1),
    ("IC/C!", 1),
    ("IC/CFR", 1),
    ("IC/CcR", 1),
    ("IC/CRcR+", 1),
    ("IC/RCc.i", 1),
    ("IC/RrC.i", 1),
    ("IC/CcRr+.i", 1),
    ("IC/RRR.i", 1),
    ("IC/RFr.i", 1),
    ("IC/Rr.i", 1),
    ("IC/RrRr", 1),
];

/// The tiles of `inns-and-cathedrals:2`: two printed with a garden.
pub const INNS_2: &[(&str, u32)] = &[
    ("IC/Cccc.c", 2),
    ("IC/LRFR", 1),
    ("IC/CCCCG", 1),
    ("IC/CCC", 1),
    ("IC/CRCR", 1),
    ("IC/CCc+", 1),
    ("IC/C!", 1),
    ("IC/CFR", 1),
    ("IC/CcR", 1),
    ("IC/CRcR+", 1),
    ("IC/RCc.i", 1),
    ("IC/RrC.i", 1),
    ("IC/CcRr+.i", 1),
    ("IC/RRR.i", 1),
    ("IC/RFr.iG", 1),
    ("IC/Rr.i", 1),
    ("IC/RrRr", 1),
];

/// The 2nd edition's tiles printed with a garden, and meeplab's plain twins of them.
pub const GARDEN_TWINS: [(&str, &str); 2] = [("IC/CCCCG", "IC/CCCC"), ("IC/RFr.iG", "IC/RFr.i")];

/// The plain twin of a 2nd-edition I&C tile printed with a garden; `None` for other ids.
pub fn plain_twin(id: &str) -> Option<&'static str> {
    GARDEN_TWINS.iter().find(|(g, _)| *g == id).map(|(_, p)| *p)
}

/// The set names.
pub const SETS: [&str; 2] = ["inns-and-cathedrals:1", "inns-and-cathedrals:2"];

/// Inns & Cathedrals' part of a save's set-up.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InnsSetup {
    /// Copies of the I&C tiles (`:1` and `:2` together).
    pub copies: u32,
    /// The `big-follower` element's count (0 when absent).
    pub big_followers: u32,
    /// The `inn` element.
    pub inn: bool,
    /// The `cathedral` element.
    pub cathedral: bool,
}

impl InnsSetup {
    /// Whether the save plays Inns & Cathedrals' rules (its elements).
    pub fn in_play(&self) -> bool {
        self.big_followers > 0 || self.inn || self.cathedral
    }

    /// The set-up meeplab can play: the three elements together (one big follower each), and
    /// the tiles only with them.
    pub fn check(&self) -> Result<(), JczError> {
        if !self.in_play() {
            if self.copies > 0 {
                return Err(JczError::new(
                    "setup: the Inns & Cathedrals tiles without the big-follower, inn and cathedral elements are not supported (meeplab plays them together)",
                ));
            }
            return Ok(());
        }
        if self.big_followers != 1 || !self.inn || !self.cathedral {
            return Err(JczError::new(format!(
                "setup.elements: Inns & Cathedrals in part (big-follower = {}, inn = {}, cathedral = {}) is not supported: meeplab plays one big follower, inns and cathedrals together",
                self.big_followers, self.inn, self.cathedral
            )));
        }
        Ok(())
    }
}

/// A short label of the set-up's I&C part (the sets are named by the caller).
pub fn label(s: &InnsSetup) -> String {
    if s.in_play() && s.copies == 0 {
        " + inns, cathedrals, big follower".to_string()
    } else {
        String::new()
    }
}

/// The rule-language lines of the I&C part; the tile set joins `deck`.
pub fn ruleset_lines(s: &InnsSetup, dir: &std::path::Path, deck: &mut Vec<String>) -> String {
    let mut t = String::new();
    if !s.in_play() {
        return t;
    }
    if s.copies > 0 {
        t.push_str(&format!(
            "include {}\n",
            crate::import::jcz::quoted(&dir.join("tiles/inns.tiles"))
        ));
        deck.push(format!("inns x{}", s.copies));
    }
    t.push_str("inns source \"JCloisterZone big-follower, inn and cathedral elements\" {\n");
    t.push_str("  inn_bonus = 1\n  cathedral_bonus = 1\n  unfinished = zero\n}\n");
    t
}

/// The kind of follower a `meepleId` of the kind `kind` (`small`, `big`) is, and how many a
/// player has (`followers` small ones; the big one when the set-up deals it); `None` when it
/// is not one meeplab plays.
pub fn meeple_kind(
    kind: &str,
    followers: u8,
    big: u32,
) -> Option<(crate::engine::FollowerKind, u8)> {
    match kind {
        "small" => Some((crate::engine::FollowerKind::PLAIN, followers)),
        "big" if big > 0 => Some((crate::engine::expansions::inns::LARGE_FOLLOWER, big as u8)),
        _ => None,
    }
}

/// The importer part of Inns & Cathedrals.
pub struct InnsPart;

/// Its registration (in [`crate::import::jcz::parts`]).
pub static PART: InnsPart = InnsPart;

impl JczPart for InnsPart {
    fn name(&self) -> &'static str {
        "inns and cathedrals"
    }
    fn sets(&self) -> &'static [&'static str] {
        &SETS
    }
    fn read_set(&self, _set: &str, copies: u32, s: &mut Setup) -> Result<(), JczError> {
        s.part_mut::<InnsSetup>().copies += copies;
        Ok(())
    }
    fn elements(&self) -> &'static [&'static str] {
        &["big-follower", "inn", "cathedral"]
    }
    fn read_element(
        &self,
        name: &str,
        v: &serde_json::Value,
        s: &mut Setup,
    ) -> Result<(), JczError> {
        let i = s.part_mut::<InnsSetup>();
        match name {
            "big-follower" => i.big_followers = element_count(v).unwrap_or(0) as u32,
            "inn" => i.inn = true,
            _ => i.cathedral = true,
        }
        Ok(())
    }
    fn settle(&self, s: &mut Setup) -> Result<(), JczError> {
        s.part::<InnsSetup>().check()
    }
    fn label(&self, s: &Setup) -> String {
        label(&s.part::<InnsSetup>())
    }
    fn ruleset_lines(&self, s: &Setup, m: &mut Mapping) -> Result<String, String> {
        Ok(ruleset_lines(&s.part::<InnsSetup>(), m.dir, &mut m.deck))
    }
    fn gardens(&self) -> &'static [Gardens] {
        &[Gardens {
            set: "inns-and-cathedrals:2",
            plain_set: "inns",
            file: "tiles/abbot-inns.tiles",
            garden_set: "inns-gardens",
            tiles: &["IC/CCCCG", "IC/RFr.iG"],
        }]
    }
    fn plain_twin(&self, id: &str) -> Option<&'static str> {
        plain_twin(id)
    }
    fn set_tiles(&self, set: &str) -> Option<&'static [(&'static str, u32)]> {
        match set {
            "inns-and-cathedrals:1" => Some(INNS_1),
            "inns-and-cathedrals:2" => Some(INNS_2),
            _ => None,
        }
    }
    fn meeple_kinds(&self) -> &'static [&'static str] {
        &["big"]
    }
    fn meeple(&self, s: &Setup, kind: &str) -> Option<(FollowerKind, u8, &'static str)> {
        let big = s.part::<InnsSetup>().big_followers;
        (kind == "big")
            .then(|| meeple_kind(kind, s.followers, big))
            .flatten()
            .map(|(k, n)| (k, n, "big followers"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_editions_hold_eighteen_tiles_of_seventeen_types() {
        for set in [INNS_1, INNS_2] {
            assert_eq!(set.len(), 17);
            assert_eq!(set.iter().map(|e| e.1).sum::<u32>(), 18);
        }
        assert_eq!(crate::import::jcz::plain_twin("IC/CCCCG"), "IC/CCCC");
        assert_eq!(crate::import::jcz::plain_twin("IC/RFr.iG"), "IC/RFr.i");
    }

    #[test]
    fn the_three_elements_go_together() {
        let all = InnsSetup {
            copies: 1,
            big_followers: 1,
            inn: true,
            cathedral: true,
        };
        assert!(all.check().is_ok());
        let tiles_only = InnsSetup {
            copies: 1,
            ..InnsSetup::default()
        };
        assert!(tiles_only.check().is_err());
        let no_big = InnsSetup {
            big_followers: 0,
            ..all.clone()
        };
        assert!(no_big.check().is_err());
        assert!(InnsSetup::default().check().is_ok());
    }
}
