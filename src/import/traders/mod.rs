//! Traders & Builders in JCloisterZone saves: the tile sets `traders-and-builders:1`/`:2`, the
//! elements `traders` (the goods), `builder` and `pig`, and the meeples `P.builder.N` and
//! `P.pig.N` of `DEPLOY_MEEPLE`.
//! Its importer part, [`PART`], is registered in [`crate::import::jcz::parts`]; the
//! translation's handlers delegate here.
//!
//! # The mapping
//! - The sets add `include "tiles/traders.tiles"` and `traders xN` to the deck (the 2nd
//!   edition's `TB/CcRR.wG` and `TB/CcR.cG`, printed with a garden, are meeplab's `TB/CcRR.w`
//!   and `TB/CcR.c`: gardens are inert without the Abbot).
//! - Any of `traders` (with the tiles), `builder`, `pig` → a `traders { goods_points,
//!   pig_bonus, builders, pigs }` block (the elements' counts; 0 when absent): the goods are worth 10 with the `traders` element, 0 without it (the
//!   tokens are still taken, as nothing in JCloisterZone shows them then); `pig-herd` is
//!   River II's and changes nothing without its tiles. Builders and pigs are meeplab's
//!   follower kinds of the module; a save places them with `DEPLOY_MEEPLE` and its meeple id.
//!
//! # The translation
//! - A builder's double turn is the same player's next `PLACE_TILE`, out of the seat order
//!   ([`double_turn`]): accepted with the `builder` element, once in a row.

use crate::engine::FollowerKind;
use crate::import::jcz::part::{element_count, Gardens, JczPart, Mapping};
use crate::import::jcz::quoted;
use crate::import::jcz::{JczError, Setup, Translator};
use std::path::Path;

/// The 1st edition's tiles (JCloisterZone's `traders-and-builders:1`), one of each, in the
/// set's order (JCloisterZone's pack follows it).
pub const TB_1: &[(&str, u32)] = &[
    ("TB/Cc.g", 1),
    ("TB/Cc.w", 1),
    ("TB/CCc.c", 1),
    ("TB/CCc.w", 1),
    ("TB/Ccc.g", 1),
    ("TB/CcCC.c", 1),
    ("TB/CcRR!.c", 1),
    ("TB/CcRR.w", 1),
    ("TB/CcRC.c", 1),
    ("TB/CcRC.g", 1),
    ("TB/CcR.c", 1),
    ("TB/CcR!.w", 1),
    ("TB/CccR.w", 1),
    ("TB/CcCc.w", 1),
    ("TB/CFc.w", 1),
    ("TB/CR", 1),
    ("TB/CRc.g", 1),
    ("TB/CRc.w", 1),
    ("TB/CRcR.w", 1),
    ("TB/LRRR", 1),
    ("TB/RCc.g", 1),
    ("TB/RCc!.g", 1),
    ("TB/RRC", 1),
    ("TB/RRrr", 1),
];

/// The 2nd edition's: `TB/CcRR.w` and `TB/CcR.c` printed with a garden.
pub const TB_2: &[(&str, u32)] = &[
    ("TB/Cc.g", 1),
    ("TB/Cc.w", 1),
    ("TB/CCc.c", 1),
    ("TB/CCc.w", 1),
    ("TB/Ccc.g", 1),
    ("TB/CcCC.c", 1),
    ("TB/CcRR!.c", 1),
    ("TB/CcRR.wG", 1),
    ("TB/CcRC.c", 1),
    ("TB/CcRC.g", 1),
    ("TB/CcR.cG", 1),
    ("TB/CcR!.w", 1),
    ("TB/CccR.w", 1),
    ("TB/CcCc.w", 1),
    ("TB/CFc.w", 1),
    ("TB/CR", 1),
    ("TB/CRc.g", 1),
    ("TB/CRc.w", 1),
    ("TB/CRcR.w", 1),
    ("TB/LRRR", 1),
    ("TB/RCc.g", 1),
    ("TB/RCc!.g", 1),
    ("TB/RRC", 1),
    ("TB/RRrr", 1),
];

/// The 2nd edition's tiles printed with a garden, and meeplab's plain twins of them.
pub const GARDEN_TWINS: [(&str, &str); 2] =
    [("TB/CcRR.wG", "TB/CcRR.w"), ("TB/CcR.cG", "TB/CcR.c")];

/// The set names.
pub const SETS: [&str; 2] = ["traders-and-builders:1", "traders-and-builders:2"];

/// Traders & Builders' part of a save's set-up.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TradersSetup {
    /// Copies of the T&B tiles (`:1` and `:2` together).
    pub copies: u32,
    /// The `traders` element: goods tokens and their majorities.
    pub goods: bool,
    /// The `builder` element.
    pub builder: bool,
    /// The `pig` element.
    pub pig: bool,
    /// Builders and pigs a player has (the elements' counts; 1 when not a number).
    pub builders: u8,
    pub pigs: u8,
    /// The `pig-herd` element (River II's pig-herd scores; see `import::river`).
    pub pig_herd: bool,
}

impl TradersSetup {
    /// Whether the expansion takes part in the mapped ruleset.
    pub fn in_play(&self) -> bool {
        self.builder || self.pig || (self.goods && self.copies > 0)
    }

    /// Read element `name` (present: on) with its `count` (`pig: 2`), if it is one of the
    /// expansion's; false if not.
    pub fn element(&mut self, name: &str, count: Option<i64>) -> bool {
        let n = count.map_or(1, |n| n.clamp(1, 9) as u8);
        match name {
            "traders" => self.goods = true,
            "builder" => (self.builder, self.builders) = (true, n),
            "pig" => (self.pig, self.pigs) = (true, n),
            // River II's pig herds (checked against the river's tiles in `import::river`)
            "pig-herd" => self.pig_herd = true,
            _ => return false,
        }
        true
    }
}

/// The plain twin of a 2nd-edition T&B tile printed with a garden; `None` for other ids.
pub fn plain_twin(id: &str) -> Option<&'static str> {
    GARDEN_TWINS.iter().find(|(g, _)| *g == id).map(|(_, p)| *p)
}

/// The words for a `TB/…` id the game's tile sets do not hold.
pub fn unknown_tile_text(tile: &str, s: &TradersSetup) -> String {
    if s.copies == 0 {
        format!(
            "`{tile}` is a tile of Traders & Builders, but the save's setup.sets has no traders-and-builders:1/:2"
        )
    } else {
        format!(
            "unknown tile id `{tile}`: not a tile of Traders & Builders (JCloisterZone's TB/ ids: {})",
            TB_1.iter()
                .map(|(id, _)| *id)
                .chain(GARDEN_TWINS.iter().map(|(g, _)| *g))
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

/// `+ goods`, `+ builders`, `+ pigs` for the set-up's label.
pub fn label(s: &TradersSetup) -> String {
    let mut out = String::new();
    if s.goods && s.copies > 0 {
        out.push_str(" + goods");
    }
    if s.builder {
        out.push_str(" + builders");
    }
    if s.pig {
        out.push_str(" + pigs");
    }
    out
}

/// The rule-language lines of T&B's tiles and rules; the tiles' deck entry is added to
/// `deck`.
pub fn ruleset_lines(s: &TradersSetup, dir: &Path, deck: &mut Vec<String>) -> String {
    let mut t = String::new();
    if s.copies > 0 {
        t.push_str(&format!(
            "include {}\n",
            quoted(&dir.join("tiles/traders.tiles"))
        ));
        deck.push(format!("traders x{}", s.copies));
    }
    if s.in_play() {
        t.push_str("traders source \"JCloisterZone traders, builder, pig elements\" {\n");
        t.push_str(&format!(
            "  goods_points = {}\n  pig_bonus = 1\n  builders = {}\n  pigs = {}\n}}\n",
            if s.goods { 10 } else { 0 },
            if s.builder { s.builders } else { 0 },
            if s.pig { s.pigs } else { 0 },
        ));
    }
    t
}

/// The follower kind of a JCloisterZone meeple type of the expansion (`builder`, `pig`), and
/// how many a player has under `s`; `None` for other types.
pub fn meeple_kind(s: &TradersSetup, jcz_type: &str) -> Option<(&'static str, u8)> {
    match jcz_type {
        "builder" if s.builder => Some(("builder", s.builders)),
        "pig" if s.pig => Some(("pig", s.pigs)),
        _ => None,
    }
}

/// The follower kind a (checked) meeple id `P.TYPE.N` deploys: the builder or the pig for
/// theirs, else the plain follower.
pub fn follower_kind(meeple: &str) -> crate::engine::FollowerKind {
    use crate::engine::expansions::traders::{BUILDER, PIG};
    match meeple.split('.').nth(1) {
        Some("builder") => BUILDER,
        Some("pig") => PIG,
        _ => crate::engine::FollowerKind::PLAIN,
    }
}

/// Whether a `PLACE_TILE` by `player` is a builder's double turn: the `builder` element is on,
/// the last turn's player (`last`) places again out of the seat order (`expected` is the
/// seat whose turn it would be), and the last turn was not itself one (no chain). `count`
/// holds the double turns read so far and whether the last turn was one; the seat order goes
/// on after it as if it had not been there (JCloisterZone writes the second tile as the same
/// player's next `PLACE_TILE`; the engine replays it with that player).
pub fn double_turn(
    s: &TradersSetup,
    count: &mut (u32, bool),
    last: Option<u8>,
    player: u8,
    expected: u8,
) -> bool {
    let double = s.builder && !count.1 && player != expected && last == Some(player);
    if double {
        count.0 += 1;
    }
    count.1 = double;
    double
}

/// The builders' double turns read so far, and whether the last turn was one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct DoubleTurns((u32, bool));

/// The importer part of Traders & Builders.
pub struct TradersPart;

/// Its registration (in [`crate::import::jcz::parts`]).
pub static PART: TradersPart = TradersPart;

impl JczPart for TradersPart {
    fn name(&self) -> &'static str {
        "traders and builders"
    }
    fn sets(&self) -> &'static [&'static str] {
        &SETS
    }
    fn read_set(&self, _set: &str, copies: u32, s: &mut Setup) -> Result<(), JczError> {
        s.part_mut::<TradersSetup>().copies += copies;
        Ok(())
    }
    fn elements(&self) -> &'static [&'static str] {
        &["traders", "builder", "pig", "pig-herd"]
    }
    fn read_element(
        &self,
        name: &str,
        v: &serde_json::Value,
        s: &mut Setup,
    ) -> Result<(), JczError> {
        s.part_mut::<TradersSetup>().element(name, element_count(v));
        Ok(())
    }
    fn unknown_tile(&self, s: &Setup, id: &str) -> Option<String> {
        id.starts_with("TB/")
            .then(|| unknown_tile_text(id, &s.part::<TradersSetup>()))
    }
    fn extra_turn(&self, t: &mut Translator, last: Option<u8>, player: u8, expected: u8) -> bool {
        let s = t.game().setup.part::<TradersSetup>().into_owned();
        double_turn(
            &s,
            &mut t.game_part_mut::<DoubleTurns>().0,
            last,
            player,
            expected,
        )
    }
    fn label(&self, s: &Setup) -> String {
        label(&s.part::<TradersSetup>())
    }
    fn ruleset_lines(&self, s: &Setup, m: &mut Mapping) -> Result<String, String> {
        Ok(ruleset_lines(&s.part::<TradersSetup>(), m.dir, &mut m.deck))
    }
    fn gardens(&self) -> &'static [Gardens] {
        &[Gardens {
            set: "traders-and-builders:2",
            plain_set: "traders",
            file: "tiles/abbot-traders.tiles",
            garden_set: "traders-gardens",
            tiles: &["TB/CcRR.wG", "TB/CcR.cG"],
        }]
    }
    fn plain_twin(&self, id: &str) -> Option<&'static str> {
        plain_twin(id)
    }
    fn set_tiles(&self, set: &str) -> Option<&'static [(&'static str, u32)]> {
        match set {
            "traders-and-builders:1" => Some(TB_1),
            "traders-and-builders:2" => Some(TB_2),
            _ => None,
        }
    }
    fn meeple_kinds(&self) -> &'static [&'static str] {
        &["builder", "pig"]
    }
    fn meeple(&self, s: &Setup, kind: &str) -> Option<(FollowerKind, u8, &'static str)> {
        meeple_kind(&s.part(), kind)
            .map(|(name, n)| (follower_kind(&format!("0.{kind}.1")), n, name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mapping_adds_tiles_and_rules() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
        let s = TradersSetup {
            copies: 1,
            goods: true,
            builder: true,
            pig: true,
            builders: 1,
            pigs: 1,
            pig_herd: false,
        };
        let mut deck = Vec::new();
        let t = ruleset_lines(&s, &dir, &mut deck);
        assert_eq!(deck, ["traders x1"]);
        assert!(
            t.contains("traders.tiles") && t.contains("goods_points = 10"),
            "{t}"
        );
        assert_eq!(label(&s), " + goods + builders + pigs");
        // a pig alone, without the tiles: the module in play, goods worth nothing
        let pig = TradersSetup {
            pig: true,
            ..TradersSetup::default()
        };
        let mut deck = Vec::new();
        let t = ruleset_lines(&pig, &dir, &mut deck);
        assert!(deck.is_empty() && t.contains("goods_points = 0"), "{t}");
        assert_eq!(plain_twin("TB/CcR.cG"), Some("TB/CcR.c"));
        assert_eq!(plain_twin("TB/CcR.c"), None);
        assert!(unknown_tile_text("TB/XX", &s).contains("TB/RRrr"));
        assert!(unknown_tile_text("TB/CR", &TradersSetup::default()).contains("no traders"));
    }

    #[test]
    fn a_double_turn_is_the_same_player_again_once_with_builders() {
        let on = TradersSetup {
            builder: true,
            ..TradersSetup::default()
        };
        let mut count = (0, false);
        // seat 0 played; seat 0 again instead of seat 1: a double turn
        assert!(double_turn(&on, &mut count, Some(0), 0, 1));
        assert_eq!(count, (1, true));
        // and once more: no chain
        assert!(!double_turn(&on, &mut count, Some(0), 0, 1));
        // seat 1 in order
        let mut count = (1, true);
        assert!(!double_turn(&on, &mut count, Some(0), 1, 1));
        assert_eq!(count, (1, false));
        // without builders, never
        let mut count = (0, false);
        assert!(!double_turn(
            &TradersSetup::default(),
            &mut count,
            Some(0),
            0,
            1
        ));
    }

    #[test]
    fn the_tile_list_matches_the_bundled_tiles() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
        let loaded = crate::dsl::load_ruleset(&dir.join("traders-c2.rules"))
            .unwrap_or_else(|d| panic!("{d}"));
        for &(id, _) in TB_1 {
            assert!(
                loaded
                    .ruleset
                    .tiles
                    .iter()
                    .any(|t| t.jcz_id.as_deref() == Some(id)),
                "{id}"
            );
        }
    }
}
