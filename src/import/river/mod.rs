//! The River and The River II in JCloisterZone saves: the tile sets `river/1` and `river/2`
//! (with their editions `:1`, `:2`; a bare name takes the edition of the `garden` element, as
//! JCloisterZone's client does), the spring `RI/s` as the start tile, and the mapping onto
//! the bundled river tiles. Its importer part, [`PART`], is registered in
//! [`crate::import::jcz::parts`]; the translation's handlers delegate here.
//!
//! # The mapping
//! - `river/1` adds `include "tiles/river.tiles"` and `river x1`; `river/2` adds both river
//!   tile files and `river2 x1`; both together add `river-course x1, river2 x1` (one spring,
//!   River I's lake removed, as JCloisterZone's `river/2` set does); the start is `RI/s`.
//! - `river { u_turn = lookahead, volcano = plain }`: JCloisterZone's `RiverCapability` rule
//!   (the cells ahead of each open end free), and River II's volcano lake as a plain lake
//!   (JCloisterZone gives it no rule without The Princess & the Dragon).
//! - The `river` element is required with river tiles (`check_element`).
//! - The 2nd editions' garden tiles `RI.1/IIG` and `RI.2/IIG` read as `RI.1/II` and `RI.2/II`
//!   (gardens are inert without the Abbot).
//!
//! # Draws
//! JCloisterZone draws the river from tile groups (`river-fork`, `river`, `river-lake`, then
//! the rest): [`tile_group`] names each tile's, and `import::draws` reproduces the groups'
//! order (`Pack::new`, `Pack::placed`).

use crate::import::abbot::AbbotSetup;
use crate::import::jcz::part::{Gardens, JczPart, Mapping};
use crate::import::jcz::Message;
use crate::import::jcz::{quoted, JczError, Setup};
use crate::import::traders::TradersSetup;
use std::path::Path;

/// The River's tiles, 1st edition (JCloisterZone's `river/1:1`).
pub const RIVER_1_1: &[(&str, u32)] = &[
    ("RI/s", 1),
    ("RI.1/I.e", 1),
    ("RI.1/CICI", 1),
    ("RI.1/CIRI", 1),
    ("RI.1/LIRI", 1),
    ("RI.1/RIrI", 1),
    ("RI.1/IFI", 2),
    ("RI.1/CcII", 1),
    ("RI.1/RrII", 1),
    ("RI.1/II", 2),
];

/// The 2nd edition's (`river/1:2`): one RI.1/II printed with a garden.
pub const RIVER_1_2: &[(&str, u32)] = &[
    ("RI/s", 1),
    ("RI.1/I.e", 1),
    ("RI.1/CICI", 1),
    ("RI.1/CIRI", 1),
    ("RI.1/LIRI", 1),
    ("RI.1/RIrI", 1),
    ("RI.1/IFI", 2),
    ("RI.1/CcII", 1),
    ("RI.1/RrII", 1),
    ("RI.1/II", 1),
    ("RI.1/IIG", 1),
];

/// The River II's (`river/2:1`).
pub const RIVER_2_1: &[(&str, u32)] = &[
    ("RI/s", 1),
    ("RI.2/IFC", 1),
    ("RI.2/I.v", 1),
    ("RI.2/III", 1),
    ("RI.2/CIcI", 1),
    ("RI.2/LIFI", 1),
    ("RI.2/RIrI", 1),
    ("RI.2/CIRI", 1),
    ("RI.2/II", 1),
    ("RI.2/CcII+", 1),
    ("RI.2/II+", 1),
    ("RI.2/RrII", 1),
];

/// The River II's 2nd edition (`river/2:2`): RI.2/II printed with a garden.
pub const RIVER_2_2: &[(&str, u32)] = &[
    ("RI/s", 1),
    ("RI.2/IFC", 1),
    ("RI.2/I.v", 1),
    ("RI.2/III", 1),
    ("RI.2/CIcI", 1),
    ("RI.2/LIFI", 1),
    ("RI.2/RIrI", 1),
    ("RI.2/CIRI", 1),
    ("RI.2/IIG", 1),
    ("RI.2/CcII+", 1),
    ("RI.2/II+", 1),
    ("RI.2/RrII", 1),
];

/// The spring: the start tile of a river game.
pub const SPRING: &str = "RI/s";

/// The river's part of a save's set-up.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RiverSetup {
    /// `river/1` is in play (any edition).
    pub river1: bool,
    /// `river/2` is in play (any edition).
    pub river2: bool,
    /// The `river` element: JCloisterZone's `RiverCapability` (draw groups, placement rule).
    pub element: bool,
}

impl RiverSetup {
    /// Whether a river set is in play.
    pub fn on(&self) -> bool {
        self.river1 || self.river2
    }
}

/// The tiles of a river set name, or `None` for another name.
pub fn set_tiles(name: &str) -> Option<&'static [(&'static str, u32)]> {
    match name {
        "river/1:1" => Some(RIVER_1_1),
        "river/1:2" => Some(RIVER_1_2),
        "river/2:1" => Some(RIVER_2_1),
        "river/2:2" => Some(RIVER_2_2),
        _ => None,
    }
}

/// Whether `name` is a river set (`river/1`, `river/2`, with or without an edition).
pub fn is_set(name: &str) -> bool {
    matches!(
        name,
        "river/1" | "river/1:1" | "river/1:2" | "river/2" | "river/2:1" | "river/2:2"
    )
}

/// Read river set `name` with `n` copies into `s`: one copy only.
pub fn read_set(name: &str, n: u32, s: &mut RiverSetup) -> Result<(), JczError> {
    if n != 1 {
        return Err(JczError::new(format!(
            "setup.sets.{name} = {n}: one copy of a river set is supported"
        )));
    }
    if name.starts_with("river/1") {
        s.river1 = true;
    } else {
        s.river2 = true;
    }
    Ok(())
}

/// Give bare river set names (`river/1`) the edition of the `garden` element (`:2` with it),
/// as JCloisterZone's client does.
pub fn settle_editions(sets: &mut [(String, u32)], garden: bool) {
    for (name, _) in sets.iter_mut() {
        if name == "river/1" || name == "river/2" {
            name.push_str(if garden { ":2" } else { ":1" });
        }
    }
}

/// The start tile of the set-up: the spring with a river, else `None`.
pub fn start_tile(s: &RiverSetup) -> Option<&'static str> {
    s.on().then_some(SPRING)
}

/// River tiles are played with JCloisterZone's river rules only: a save with river tiles
/// but without the `river` element (JCloisterZone then plays them as land tiles, in no
/// prelude, with no river rule) is refused.
pub fn check_element(s: &RiverSetup) -> Result<(), JczError> {
    if s.on() && !s.element {
        return Err(JczError::new(
            "setup: river tiles without the `river` element are not supported (JCloisterZone then plays them without its river rules: no prelude, no placement rule; its client always adds the element with a river set)",
        ));
    }
    Ok(())
}

/// River II's pig-herd (`pig_herd` field mark of `RI.2/II+`) counts in meeplab when Traders &
/// Builders is in play, in JCloisterZone when the `pig-herd` element is on: a River II save
/// where the two differ is refused.
pub fn check_pig_herd(s: &RiverSetup, traders: bool, element: bool) -> Result<(), JczError> {
    if s.river2 && traders != element {
        return Err(JczError::new(format!(
            "setup: River II with{} Traders & Builders and with{} the `pig-herd` element is not supported (meeplab scores the pig-herd of RI.2/II+ exactly when Traders & Builders is in play; JCloisterZone when the element is on)",
            if traders { "" } else { "out" },
            if element { "" } else { "out" },
        )));
    }
    Ok(())
}

/// The JCloisterZone tile group of a tile id (the `group` of its `river.xml`): `river-spring`,
/// `river-fork`, `river-lake`, `river` for the other river tiles, else `default`.
pub fn tile_group(id: &str) -> &'static str {
    match id {
        SPRING => "river-spring",
        "RI.2/III" => "river-fork",
        "RI.1/I.e" | "RI.2/I.v" => "river-lake",
        _ if id.starts_with("RI.") => "river",
        _ => "default",
    }
}

/// The plain twin of a river tile printed with a garden; other ids unchanged.
pub fn plain_twin(id: &str) -> &str {
    match id {
        "RI.1/IIG" => "RI.1/II",
        "RI.2/IIG" => "RI.2/II",
        other => other,
    }
}

/// The error for a tile id of the river's (`RI…`) that this game's river sets lack.
pub fn unknown_tile_text(id: &str, s: &Setup) -> String {
    let known: Vec<&str> = [RIVER_1_2, RIVER_2_2]
        .iter()
        .flat_map(|l| l.iter().map(|t| t.0))
        .chain(["RI.1/II", "RI.2/II"])
        .collect();
    if known.contains(&id) {
        format!(
            "river tile `{id}` is not in this game's river sets ({})",
            label(&s.part::<RiverSetup>()).trim_start_matches(" + ")
        )
    } else {
        format!(
            "unknown river tile id `{id}`: meeplab knows The River (river/1) and The River II (river/2) tiles: {}",
            known.join(", ")
        )
    }
}

/// The set-up label's river part (` + river I`…), empty without a river.
pub fn label(s: &RiverSetup) -> String {
    match (s.river1, s.river2) {
        (true, true) => " + river I and II".into(),
        (true, false) => " + river I".into(),
        (false, true) => " + river II".into(),
        _ => String::new(),
    }
}

/// The mapped ruleset's river lines (includes, the start, the rule against U-turns), adding
/// its tile sets to `deck`.
pub fn ruleset_lines(s: &RiverSetup, dir: &Path, deck: &mut Vec<String>) -> String {
    if !s.on() {
        return String::new();
    }
    let mut t = format!("include {}\n", quoted(&dir.join("tiles/river.tiles")));
    if s.river2 {
        t.push_str(&format!(
            "include {}\n",
            quoted(&dir.join("tiles/river2.tiles"))
        ));
    }
    match (s.river1, s.river2) {
        (true, true) => deck.extend(["river-course x1".into(), "river2 x1".into()]),
        (true, false) => deck.push("river x1".into()),
        _ => deck.push("river2 x1".into()),
    }
    t.push_str(&format!("start {SPRING}\n"));
    t.push_str(
        "river source \"JCloisterZone RiverCapability\" {\n  u_turn = lookahead\n  volcano = plain\n}\n",
    );
    t
}

/// The importer part of The River and The River II.
pub struct RiverPart;

/// Its registration (in [`crate::import::jcz::parts`]).
pub static PART: RiverPart = RiverPart;

impl JczPart for RiverPart {
    fn name(&self) -> &'static str {
        "river"
    }
    fn sets(&self) -> &'static [&'static str] {
        &[
            "river/1",
            "river/1:1",
            "river/1:2",
            "river/2",
            "river/2:1",
            "river/2:2",
        ]
    }
    fn read_set(&self, set: &str, copies: u32, s: &mut Setup) -> Result<(), JczError> {
        read_set(set, copies, s.part_mut::<RiverSetup>())
    }
    fn elements(&self) -> &'static [&'static str] {
        &["river"]
    }
    fn read_element(
        &self,
        _name: &str,
        _v: &serde_json::Value,
        s: &mut Setup,
    ) -> Result<(), JczError> {
        s.part_mut::<RiverSetup>().element = true;
        Ok(())
    }
    fn settle(&self, s: &mut Setup) -> Result<(), JczError> {
        let garden = s.part::<AbbotSetup>().garden;
        settle_editions(&mut s.sets, garden);
        Ok(())
    }
    fn start_tile(&self, s: &Setup) -> Option<&'static str> {
        start_tile(&s.part::<RiverSetup>())
    }
    fn finish(&self, s: &mut Setup, _messages: &[Message]) -> Result<(), JczError> {
        let river = s.part::<RiverSetup>();
        check_element(&river)?;
        let traders = s.part::<TradersSetup>();
        check_pig_herd(&river, traders.in_play(), traders.pig_herd)
    }
    fn draws_in_groups(&self, s: &Setup) -> bool {
        s.part::<RiverSetup>().element
    }
    fn unknown_tile(&self, s: &Setup, id: &str) -> Option<String> {
        id.starts_with("RI").then(|| unknown_tile_text(id, s))
    }
    fn ruleset_lines(&self, s: &Setup, m: &mut Mapping) -> Result<String, String> {
        Ok(ruleset_lines(&s.part::<RiverSetup>(), m.dir, &mut m.deck))
    }
    fn gardens(&self) -> &'static [Gardens] {
        &[
            Gardens {
                set: "river/1:2",
                plain_set: "river",
                file: "tiles/abbot-river.tiles",
                garden_set: "river-gardens",
                tiles: &["RI.1/IIG"],
            },
            Gardens {
                set: "river/2:2",
                plain_set: "river2",
                file: "tiles/abbot-river2.tiles",
                garden_set: "river2-gardens",
                tiles: &["RI.2/IIG"],
            },
        ]
    }
    fn plain_twin(&self, id: &str) -> Option<&'static str> {
        match id {
            "RI.1/IIG" => Some("RI.1/II"),
            "RI.2/IIG" => Some("RI.2/II"),
            _ => None,
        }
    }
    fn set_tiles(&self, set: &str) -> Option<&'static [(&'static str, u32)]> {
        set_tiles(set)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn garden_twins_and_editions() {
        assert_eq!(plain_twin("RI.1/IIG"), "RI.1/II");
        assert_eq!(plain_twin("RI.1/CICI"), "RI.1/CICI");
        let mut sets = vec![("river/1".to_string(), 1), ("basic:2".to_string(), 1)];
        settle_editions(&mut sets, true);
        assert_eq!(sets[0].0, "river/1:2");
        assert_eq!(RIVER_1_1.iter().map(|t| t.1).sum::<u32>(), 12);
        assert_eq!(RIVER_2_2.iter().map(|t| t.1).sum::<u32>(), 12);
    }

    #[test]
    fn tiles_fall_into_jcloisterzones_groups() {
        assert_eq!(tile_group("RI/s"), "river-spring");
        assert_eq!(tile_group("RI.2/III"), "river-fork");
        assert_eq!(tile_group("RI.1/I.e"), "river-lake");
        assert_eq!(tile_group("RI.2/I.v"), "river-lake");
        assert_eq!(tile_group("RI.1/CICI"), "river");
        assert_eq!(tile_group("BA/RCr"), "default");
        let two = RiverSetup {
            river2: true,
            element: true,
            ..RiverSetup::default()
        };
        assert!(check_pig_herd(&two, true, true).is_ok());
        assert!(check_pig_herd(&two, false, false).is_ok());
        assert!(check_pig_herd(&two, true, false).is_err());
        assert!(check_element(&RiverSetup {
            element: false,
            ..two
        })
        .is_err());
    }

    #[test]
    fn unknown_river_ids_say_which_are_known() {
        let s = Setup::default();
        let t = unknown_tile_text("RI.3/X", &s);
        assert!(t.contains("unknown river tile id `RI.3/X`") && t.contains("RI.2/III"));
    }

    #[test]
    fn the_mapping_loads_for_each_combination() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
        for (river1, river2, tiles) in [(true, false, 84), (false, true, 84), (true, true, 94)] {
            let s = RiverSetup {
                river1,
                river2,
                element: true,
            };
            let mut deck = vec!["base x1".to_string()];
            let lines = ruleset_lines(&s, &dir, &mut deck);
            let text = format!(
                "ruleset \"t\"\nextends {}\n{lines}deck {{ {} }}\n",
                quoted(&dir.join("base.rules")),
                deck.join(", ")
            );
            let l = crate::dsl::load_ruleset_str("<t>", &text).unwrap_or_else(|d| panic!("{d}"));
            assert_eq!(l.ruleset.total_tiles(), tiles, "{text}");
            assert_eq!(l.ruleset.tiles[l.ruleset.start as usize].id, SPRING);
            assert_eq!(l.ruleset.ext_choice("river.u_turn"), Some("lookahead"));
            assert_eq!(l.ruleset.ext_choice("river.volcano"), Some("plain"));
        }
    }
}
