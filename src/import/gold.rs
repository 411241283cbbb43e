//! Gold Mines in JCloisterZone saves: the set `goldmines`, the element `gold` (ingots on its
//! tiles), `PLACE_TOKEN GOLD` (the second ingot when there is a choice). The importer's set-up,
//! mapping and messages ask it through [`PART`].
//!
//! # The mapping
//! - `gold` on → the mapped ruleset extends `goldmines-autopick.rules` (JCloisterZone hands
//!   out gold by its automatic most-contested-first pick), the highest-priority parent.
//! - `goldmines xN` in the deck; without the `gold` element its tiles are written without
//!   their symbol ([`plain_tiles`]): plain tiles of the same layout, as JCloisterZone plays
//!   them.

use crate::engine::expansions::gold::{
    GOLD, GOLD_VALUE, INGOT_PICK, INGOT_PLACE, INGOT_PLACED, INGOT_TAKEN,
};
use crate::engine::{Category, Choice, DecisionKind, Event, TakenDecision};
use crate::import::jcz::part::{quoted, scorings_of, JczPart, Mapping, RawMessage, Scoring};
use crate::import::jcz::{Current, JczError, Message, Msg, PartMsg, Setup, Step, Translator};
use std::path::Path;

/// `PLACE_TOKEN GOLD`: the tile of the second ingot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoldMsg {
    pub x: i32,
    pub y: i32,
}

/// The tiles of `goldmines` (JCloisterZone's ids).
pub const GOLDMINES: &[(&str, u32)] = &[
    ("GO/LRr", 1),
    ("GO/LCc", 1),
    ("GO/LCcRr", 1),
    ("GO/LRrRr", 1),
    ("GO/RrRr", 1),
    ("GO/CcRr", 1),
    ("GO/CRcr", 1),
    ("GO/RRrr.X", 1),
];

/// Gold Mines' part of a save's set-up.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoldSetup {
    /// Copies of the `goldmines` set.
    pub copies: u32,
    /// The `gold` element (on only with the set's tiles).
    pub gold: bool,
}

/// The importer part of Gold Mines.
pub struct GoldPart;

/// Its registration (in [`crate::import::jcz::parts`]).
pub static PART: GoldPart = GoldPart;

impl JczPart for GoldPart {
    fn name(&self) -> &'static str {
        "gold"
    }
    fn sets(&self) -> &'static [&'static str] {
        &["goldmines"]
    }
    fn set_tiles(&self, set: &str) -> Option<&'static [(&'static str, u32)]> {
        (set == "goldmines").then_some(GOLDMINES)
    }
    fn read_set(&self, _set: &str, copies: u32, s: &mut Setup) -> Result<(), JczError> {
        s.part_mut::<GoldSetup>().copies = copies;
        Ok(())
    }
    fn elements(&self) -> &'static [&'static str] {
        &["gold"]
    }
    fn read_element(
        &self,
        _name: &str,
        _v: &serde_json::Value,
        s: &mut Setup,
    ) -> Result<(), JczError> {
        s.part_mut::<GoldSetup>().gold = true;
        Ok(())
    }
    fn settle(&self, s: &mut Setup) -> Result<(), JczError> {
        // the element without its tiles changes nothing
        let g = s.part_mut::<GoldSetup>();
        g.gold &= g.copies > 0;
        Ok(())
    }
    fn messages(&self) -> &'static [&'static str] {
        &["PLACE_TOKEN GOLD"]
    }
    fn parse_message(&self, m: &RawMessage) -> Option<Result<Msg, JczError>> {
        if m.kind != "PLACE_TOKEN" || m.token() != "GOLD" {
            return None;
        }
        Some(
            crate::import::jcz::message::position(m.payload.get("pointer"))
                .map(|(x, y)| Msg::Part(PartMsg::new("PLACE_TOKEN", GoldMsg { x, y })))
                .ok_or_else(|| (m.bad)("payload.pointer must be [x, y]".into())),
        )
    }
    fn translate(
        &self,
        t: &mut Translator,
        at: &Current,
        _m: &Message,
        msg: &PartMsg,
    ) -> Option<Result<(), JczError>> {
        let &GoldMsg { x, y } = msg.get::<GoldMsg>()?;
        Some(ingot(t, at, x, y))
    }
    fn effect_seen(&self, d: &TakenDecision, events: &[Event]) -> Option<bool> {
        let (
            INGOT_PLACE | INGOT_PICK,
            Choice::Token {
                at: Some((x, y, _)),
            },
        ) = (d.kind, d.choice)
        else {
            return None;
        };
        Some(events.iter().filter(|e| e.turn() == Some(d.turn)).any(|e| {
            let v = e.of(INGOT_PLACED).or_else(|| e.of(INGOT_TAKEN));
            v.is_some_and(|v| (v[2], v[3]) == (x as i64, y as i64))
        }))
    }
    fn unasked_why(&self, d: &TakenDecision) -> Option<String> {
        (d.kind == INGOT_PLACE).then(|| "no ingot goes there".into())
    }
    fn decision_words(&self, kind: DecisionKind) -> Option<&'static str> {
        (kind == INGOT_PLACE).then_some("the second ingot's tile")
    }
    fn category(&self, word: &str) -> Option<Category> {
        (word.eq_ignore_ascii_case("gold")).then_some(GOLD)
    }
    fn scorings(&self, events: &[Event], player: u8) -> Vec<(usize, Scoring)> {
        // the final ingot scoring
        scorings_of(events, player, GOLD_VALUE, [0, 2], GOLD, true)
    }
    fn label_absent(&self, s: &Setup) -> String {
        let g = s.part::<GoldSetup>();
        if g.copies > 0 && !g.gold {
            ", no gold".into()
        } else {
            String::new()
        }
    }
    fn parent(&self, s: &Setup) -> Option<(u8, &'static str)> {
        s.part::<GoldSetup>()
            .gold
            .then_some((3, "goldmines-autopick.rules"))
    }
    fn ruleset_lines(&self, s: &Setup, m: &mut Mapping) -> Result<String, String> {
        let g = s.part::<GoldSetup>();
        symbol_tiles(
            g.copies,
            "tiles/goldmines-c1.tiles",
            "goldmines-c1",
            g.gold,
            m,
        )
    }
}

/// `PLACE_TOKEN GOLD`: the second ingot, before the follower action.
fn ingot(t: &mut Translator, at: &Current, x: i32, y: i32) -> Result<(), JczError> {
    match t.step() {
        Step::Main => {
            if t.follower_done() {
                return Err(at.err("an ingot after the follower action"));
            }
            t.check_active(at)?;
            t.record_active(
                at,
                INGOT_PLACE,
                Choice::Token {
                    at: Some((x, y, 0)),
                },
            );
            Ok(())
        }
        Step::After { pending: None, .. } => Err(at.err("an ingot during the crop-circle step")),
        _ => Err(t.out_of_order(at)),
    }
}

/// The lines of a tile file whose tiles carry a symbol (gold, a crop circle): included when
/// its element is on, else written out as [`plain_tiles`]; its deck entry pushed.
pub(crate) fn symbol_tiles(
    copies: u32,
    file: &str,
    set: &str,
    symbol_on: bool,
    m: &mut Mapping,
) -> Result<String, String> {
    if copies == 0 {
        return Ok(String::new());
    }
    let mut t = String::new();
    if symbol_on {
        t.push_str(&format!("include {}\n", quoted(&m.dir.join(file))));
    } else {
        t.push_str(&format!(
            "# {set} without its symbol: the JCloisterZone element is absent\n"
        ));
        t.push_str(&plain_tiles(m.dir, file, set)?);
    }
    m.deck.push(format!("{set} x{copies}"));
    Ok(t)
}

/// The tiles of a bundled tile file as rule-language text without their gold and crop
/// symbols: plain tiles of the same layout, under the same names and tile set name.
pub(crate) fn plain_tiles(dir: &Path, file: &str, set: &str) -> Result<String, String> {
    let probe = format!(
        "ruleset \"probe\"\nextends {}\ninclude {}\ndeck += {{ {set} x1 }}\n",
        quoted(&dir.join("base.rules")),
        quoted(&dir.join(file))
    );
    let loaded = crate::dsl::load_ruleset_str("<jcz tiles>", &probe).map_err(|d| {
        format!(
            "the bundled tiles {file} do not load (bundled rulesets in {}):\n{d}",
            dir.display()
        )
    })?;
    let base = crate::dsl::load_ruleset_str(
        "<jcz base>",
        &format!(
            "ruleset \"probe\"\nextends {}\n",
            quoted(&dir.join("base.rules"))
        ),
    )
    .map_err(|d| format!("base.rules does not load:\n{d}"))?;
    let mut out = String::new();
    let mut names = Vec::new();
    for t in &loaded.ruleset.tiles {
        if base.ruleset.tile_index(&t.id).is_some() {
            continue;
        }
        let mut plain = t.clone();
        plain.marks &= !crate::engine::expansions::gold::GOLD_MARK;
        plain.marks &= !crate::engine::expansions::crop::MARKS;
        crate::dsl::print::tile(&mut out, &plain);
        let n = loaded
            .ruleset
            .deck
            .iter()
            .find(|d| loaded.ruleset.tiles[d.tile as usize].id == t.id)
            .map_or(1, |d| d.count);
        names.push(format!("{} x{n}", crate::dsl::print::name(&t.id)));
    }
    out.push_str(&format!("tileset {set} {{\n  {}\n}}\n", names.join(", ")));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_assertions_word_is_the_ingot_scoring() {
        assert_eq!(PART.category("gold"), Some(GOLD));
        assert_eq!(PART.category("Gold"), Some(GOLD));
        assert_eq!(PART.category("golden"), None);
    }
}
