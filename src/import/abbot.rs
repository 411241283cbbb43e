//! The Abbot and gardens in JCloisterZone saves: the elements `abbot` and `garden`, the
//! `basic:2` garden tiles (`BA/…G`), the abbot's `meepleId` `P.abbot.1`, its deployment on a
//! `Garden` or `Monastery`, and `RETURN_MEEPLE` with `source: ABBOT_RETURN`.
//! Its importer part, [`PART`], is registered in [`crate::import::jcz::parts`]; the
//! translation's handlers delegate here.
//!
//! # The mapping
//! - `abbot` (its count: abbots a player) → `abbot { supply = N, return_completed =
//!   forbidden, after_return = nothing }` (JCloisterZone's `AbbotCapability` offers no return
//!   on a completed feature; the return ends its action phase), and `include
//!   "tiles/abbot.tiles"`.
//! - `abbot` with `garden`: the `basic:2` copies are the tile set `base-c2` (its garden tiles
//!   under their own ids, gardens live), and the 2nd editions the other parts declare
//!   ([`JczPart::gardens`]: BC&B, I&C, T&B, The River, The River II, The Flying Machines,
//!   Mage & Witch; `…:2`, all their copies) play their garden tiles too
//!   (`tiles/abbot-*.tiles`, the tile sets `…-gardens`; swapped in after every part's lines,
//!   [`JczPart::ruleset_lines_after`]); without `garden`, or `garden` without `abbot`, the garden
//!   tiles are their plain twins (JCloisterZone's small and big followers refuse a garden, so
//!   without the abbot nobody stands there). Both rivers together keep their plain twins.
//!
//! # The translation
//! - `DEPLOY_MEEPLE` of `P.abbot.1` on a `Garden` or a `Monastery` (location `I`) → the core's
//!   follower decision, `Choice::Follower { kind: abbot }` on the tile's cloister segment.
//! - `RETURN_MEEPLE` `{featurePointer, meepleId: P.abbot.1}`, `source: ABBOT_RETURN`, in the
//!   turn's main step (before `COMMIT`, instead of a `DEPLOY_MEEPLE` or `PASS`) →
//!   `abbot_return` with `Choice::Spot` of the abbot's segment. A turn the save does not
//!   take the abbot back in keeps it: the replay answers the engine's `abbot_return`
//!   offers the save does not record with "keep".

use crate::engine::expansions::abbot::{ABBOT, ABBOT_RETURN, ABBOT_RETURNED};
use crate::engine::{Category, Choice, Decision, Event, FollowerKind, Game, TakenDecision};
use crate::import::jcz::part::{
    element_count, scorings_of, Gardens, JczPart, Mapping, RawMessage, Scoring,
};
use crate::import::jcz::{
    Current, JczError, Message, Msg, PartMsg, Pointer, Setup, Step, Translated, Translator,
    TurnAnswers,
};

/// `RETURN_MEEPLE` with `source: ABBOT_RETURN`: the abbot taken back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AbbotReturnMsg(pub Pointer);

/// The Abbot's part of a save's set-up.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AbbotSetup {
    /// The `abbot` element's count (0 when absent).
    pub abbots: u32,
    /// The `garden` element.
    pub garden: bool,
}

/// The `basic:2` tiles printed with a garden (meeplab's `tiles/abbot.tiles` under the same
/// ids).
pub const GARDEN_TILES: [&str; 8] = [
    "BA/CcG", "BA/Cc+G", "BA/CccG", "BA/CG", "BA/CFCG", "BA/CCG", "BA/RrG", "BA/RFrG",
];

impl AbbotSetup {
    /// Whether the gardens are live: the abbot with the `garden` element.
    pub fn gardens_live(&self) -> bool {
        self.abbots > 0 && self.garden
    }
}

/// Whether the set-up plays set `set` (exactly that edition) with live gardens.
fn live(s: &crate::import::jcz::Setup, set: &str) -> bool {
    s.part::<AbbotSetup>().gardens_live() && s.sets.iter().any(|(name, _)| name == set)
}

/// The meeplab id of a tile JCloisterZone names `id`: a garden tile itself when the gardens
/// of its set are live, else `plain` (the importer's plain twin).
pub fn tile_id<'a>(
    s: &crate::import::jcz::Setup,
    id: &'a str,
    plain: fn(&'a str) -> &'a str,
) -> &'a str {
    if garden_live(s, id) {
        id
    } else {
        plain(id)
    }
}

/// Whether JCloisterZone's tile `id` is a garden tile whose gardens are live in the set-up.
fn garden_live(s: &crate::import::jcz::Setup, id: &str) -> bool {
    (live(s, "basic:2") && GARDEN_TILES.contains(&id))
        || s.gardens
            .iter()
            .any(|g| g.tiles.contains(&id) && live(s, g.set))
}

/// A short label of the set-up's Abbot part.
pub fn label(s: &AbbotSetup) -> String {
    match (s.abbots, s.garden) {
        (0, _) => String::new(),
        (_, true) => " + abbot, gardens".to_string(),
        (_, false) => " + abbot".to_string(),
    }
}

/// The rule-language lines of the Abbot part: `tiles/abbot.tiles`, the abbot's options and,
/// with live gardens, the `basic:2` copies of the base set (`basic2` of the `deck` entry
/// `base xN`, its first) as `base-c2`. The other sets' garden tiles: [`garden_lines`].
pub fn ruleset_lines(
    s: &AbbotSetup,
    sets: &[(String, u32)],
    dir: &std::path::Path,
    deck: &mut [String],
) -> String {
    let mut t = String::new();
    if s.abbots == 0 {
        return t;
    }
    t.push_str(&format!(
        "include {}\n",
        crate::import::jcz::quoted(&dir.join("tiles/abbot.tiles"))
    ));
    let basic2: u32 = sets
        .iter()
        .filter(|(name, _)| name == "basic:2")
        .map(|(_, n)| n)
        .sum();
    let basic: u32 = sets
        .iter()
        .filter(|(name, _)| name.starts_with("basic:"))
        .map(|(_, n)| n)
        .sum();
    if s.garden && basic2 > 0 {
        if let Some(first) = deck.first_mut() {
            *first = if basic > basic2 {
                format!("base x{}, base-c2 x{basic2}", basic - basic2)
            } else {
                format!("base-c2 x{basic2}")
            };
        }
    }
    t.push_str("abbot source \"JCloisterZone abbot element (AbbotCapability)\" {\n");
    t.push_str(&format!(
        "  supply = {}\n  return_completed = forbidden\n  after_return = nothing\n}}\n",
        s.abbots
    ));
    t
}

/// The Abbot's lines after every other part's: with live gardens, the deck entry of another
/// set's 2nd edition (all its copies; not with both editions) becomes its tile set with the
/// garden tiles, whose file is included (after the set's own tiles).
pub fn garden_lines(
    s: &AbbotSetup,
    sets: &[(String, u32)],
    gardens: &[&Gardens],
    dir: &std::path::Path,
    deck: &mut [String],
) -> String {
    let mut t = String::new();
    if !s.gardens_live() {
        return t;
    }
    for g in gardens {
        // all copies of the set of the 2nd edition (the entry counts every edition's copies)
        let first = g.set.rsplit_once(':').map_or(g.set, |(name, _)| name);
        let editions = sets.iter().filter(|(n, _)| n.starts_with(first)).count();
        if editions != 1 || !sets.iter().any(|(n, _)| n == g.set) {
            continue;
        }
        let prefix = format!("{} x", g.plain_set);
        if let Some(entry) = deck.iter_mut().find(|e| e.starts_with(&prefix)) {
            *entry = format!("{} x{}", g.garden_set, &entry[prefix.len()..]);
            t.push_str(&format!(
                "include {}\n",
                crate::import::jcz::quoted(&dir.join(g.file))
            ));
        }
    }
    t
}

/// The kind of follower a `meepleId` of the kind `kind` is, and how many a player has, when
/// it is the abbot and the set-up deals it.
pub fn meeple_kind(s: &AbbotSetup, kind: &str) -> Option<(FollowerKind, u8)> {
    (kind == "abbot" && s.abbots > 0).then_some((ABBOT, s.abbots as u8))
}

/// The decision of a `RETURN_MEEPLE` with `source: ABBOT_RETURN`: `player` takes back the
/// abbot on segment `spot` (x, y, segment) in turn `turn`.
pub fn return_decision(turn: u32, player: u8, spot: (i32, i32, u8)) -> TakenDecision {
    TakenDecision {
        turn,
        player,
        kind: ABBOT_RETURN,
        choice: Choice::Spot { at: Some(spot) },
    }
}

/// `RETURN_MEEPLE` with `source: ABBOT_RETURN`: the active player takes an abbot back
/// instead of the turn's follower action.
fn abbot_return(t: &mut Translator, at: &Current, p: &Pointer) -> Result<(), JczError> {
    if t.step() != Step::Main {
        return Err(t.out_of_order(at));
    }
    t.check_active(at)?;
    if t.follower_done() || !is_abbot(&p.meeple) {
        return Err(
            at.err("an abbot return is the turn's follower action: one a turn, of an abbot")
        );
    }
    t.set_followed();
    let spot = t.segment_at(at, p)?;
    let d = return_decision(t.turn(), t.active(), spot);
    t.record(at, d);
    Ok(())
}

/// The abbots of a `.jcz` turn: the players with a recorded abbot return; the others keep
/// their abbots (no message records keeping one), which the replay answers.
struct AbbotsKept {
    named: Vec<u8>,
}

impl TurnAnswers for AbbotsKept {
    fn answer(&mut self, game: &Game, d: &Decision) -> Option<usize> {
        if d.kind != ABBOT_RETURN || self.named.contains(&d.player) {
            return None;
        }
        game.option_of(&Choice::Spot { at: None }).ok()
    }
}

/// Whether a `meepleId` is an abbot.
pub fn is_abbot(meeple: &str) -> bool {
    meeple.split('.').nth(1) == Some("abbot")
}

/// The plain twins of the `basic:2` garden tiles (JCloisterZone's ids, meeplab's base tiles).
const BASE_TWINS: [(&str, &str); 8] = [
    ("BA/CcG", "BA/Cc.1"),
    ("BA/Cc+G", "BA/Cc+"),
    ("BA/CccG", "BA/Ccc"),
    ("BA/CG", "BA/C"),
    ("BA/CFCG", "BA/CFC.2"),
    ("BA/CCG", "BA/CC.2"),
    ("BA/RrG", "BA/Rr"),
    ("BA/RFrG", "BA/RFr"),
];

/// The importer part of the Abbot and gardens.
pub struct AbbotPart;

/// Its registration (in [`crate::import::jcz::parts`]).
pub static PART: AbbotPart = AbbotPart;

impl JczPart for AbbotPart {
    fn name(&self) -> &'static str {
        "abbot"
    }
    fn elements(&self) -> &'static [&'static str] {
        &["garden", "abbot"]
    }
    fn read_element(
        &self,
        name: &str,
        v: &serde_json::Value,
        s: &mut Setup,
    ) -> Result<(), JczError> {
        let a = s.part_mut::<AbbotSetup>();
        if name == "garden" {
            // gardens only matter with the Abbot
            a.garden = true;
        } else {
            a.abbots = element_count(v)
                .filter(|n| (1..=4).contains(n))
                .ok_or_else(|| {
                    JczError::new(format!(
                        "setup.elements.abbot = {v}: expected 1 to 4 abbots a player"
                    ))
                })? as u32;
        }
        Ok(())
    }
    fn messages(&self) -> &'static [&'static str] {
        &["RETURN_MEEPLE ABBOT_RETURN"]
    }
    fn parse_message(&self, m: &RawMessage) -> Option<Result<Msg, JczError>> {
        (m.kind == "RETURN_MEEPLE" && m.source() == Some("ABBOT_RETURN")).then(|| {
            m.return_pointer().map(|p| {
                let meeple = p.meeple.clone();
                Msg::Part(PartMsg::new("RETURN_MEEPLE", AbbotReturnMsg(p)).moving(&meeple))
            })
        })
    }
    fn translate(
        &self,
        t: &mut Translator,
        at: &Current,
        _m: &Message,
        msg: &PartMsg,
    ) -> Option<Result<(), JczError>> {
        let AbbotReturnMsg(p) = msg.get::<AbbotReturnMsg>()?;
        Some(abbot_return(t, at, p))
    }
    fn answers(
        &self,
        _tr: &Translated,
        _k: usize,
        script: &[TakenDecision],
    ) -> Option<Box<dyn TurnAnswers>> {
        Some(Box::new(AbbotsKept {
            named: script
                .iter()
                .filter(|t| t.kind == ABBOT_RETURN)
                .map(|t| t.player)
                .collect(),
        }))
    }
    fn category(&self, word: &str) -> Option<Category> {
        // a garden scores as a cloister
        matches!(word.to_ascii_lowercase().as_str(), "garden" | "gardens")
            .then_some(Category::CLOISTER)
    }
    fn scorings(&self, events: &[Event], player: u8) -> Vec<(usize, Scoring)> {
        // an abbot taken back scores its cloister or garden
        scorings_of(
            events,
            player,
            ABBOT_RETURNED,
            [1, 4],
            Category::CLOISTER,
            false,
        )
    }
    fn tile_id<'a>(&self, s: &Setup, id: &'a str) -> Option<&'a str> {
        garden_live(s, id).then_some(id)
    }
    fn label(&self, s: &Setup) -> String {
        label(&s.part::<AbbotSetup>())
    }
    fn ruleset_lines(&self, s: &Setup, m: &mut Mapping) -> Result<String, String> {
        Ok(ruleset_lines(
            &s.part::<AbbotSetup>(),
            &s.sets,
            m.dir,
            &mut m.deck,
        ))
    }
    fn ruleset_lines_after(&self, s: &Setup, m: &mut Mapping) -> Result<String, String> {
        Ok(garden_lines(
            &s.part::<AbbotSetup>(),
            &s.sets,
            &s.gardens,
            m.dir,
            &mut m.deck,
        ))
    }
    fn plain_twin(&self, id: &str) -> Option<&'static str> {
        BASE_TWINS.iter().find(|(g, _)| *g == id).map(|(_, p)| *p)
    }
    fn meeple_kinds(&self) -> &'static [&'static str] {
        &["abbot"]
    }
    fn meeple(&self, s: &Setup, kind: &str) -> Option<(FollowerKind, u8, &'static str)> {
        meeple_kind(&s.part(), kind).map(|(k, n)| (k, n, "abbots"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::jcz::{ruleset_text, Setup};
    use std::path::Path;

    fn setup(garden: bool) -> Setup {
        Setup {
            sets: vec![("basic:2".into(), 1)],
            basic: 1,
            followers: 7,
            farmers: true,
            gardens: crate::import::jcz::parts::PARTS
                .iter()
                .flat_map(|p| p.gardens())
                .collect(),
            ..Setup::default()
        }
        .with(AbbotSetup { abbots: 1, garden })
    }

    #[test]
    fn the_abbot_with_gardens_plays_the_c2_tiles() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
        let t = ruleset_text(&setup(true), &dir).unwrap();
        assert!(t.contains("deck { base-c2 x1 }"), "{t}");
        let r = crate::import::jcz::load_ruleset(&setup(true), &dir).unwrap();
        assert_eq!(r.ext_int("abbot.supply"), Some(1));
        assert!(r.tile_by_jcz("BA/RrG").is_some());
        // without the garden element: the plain tiles, the abbot on cloisters only
        let t = ruleset_text(&setup(false), &dir).unwrap();
        assert!(t.contains("deck { base x1 }"), "{t}");
        let plain = crate::import::jcz::plain_twin;
        assert_eq!(tile_id(&setup(false), "BA/RrG", plain), "BA/Rr");
        assert_eq!(tile_id(&setup(true), "BA/RrG", plain), "BA/RrG");
        assert_eq!(tile_id(&setup(true), "BA/Rr", plain), "BA/Rr");
        assert_eq!(tile_id(&setup(true), "IC/RFr.iG", plain), "IC/RFr.i");
        assert_eq!(label(&setup(true).part()), " + abbot, gardens");
    }

    #[test]
    fn the_second_editions_of_other_sets_bring_their_gardens() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
        let mut s = setup(true);
        s.sets.push(("inns-and-cathedrals:2".into(), 1));
        *s.part_mut() = crate::import::inns::InnsSetup {
            copies: 1,
            big_followers: 1,
            inn: true,
            cathedral: true,
        };
        let t = ruleset_text(&s, &dir).unwrap();
        assert!(t.contains("base-c2 x1, inns-gardens x1"), "{t}");
        let r = crate::import::jcz::load_ruleset(&s, &dir).unwrap();
        assert!(r.tile_by_jcz("IC/RFr.iG").is_some());
        let plain = crate::import::jcz::plain_twin;
        assert_eq!(tile_id(&s, "IC/RFr.iG", plain), "IC/RFr.iG");
        // the 1st edition, or no garden element: the plain twins
        s.sets[1].0 = "inns-and-cathedrals:1".into();
        assert!(ruleset_text(&s, &dir).unwrap().contains("inns x1"));
        assert_eq!(tile_id(&s, "IC/RFr.iG", plain), "IC/RFr.i");
    }

    #[test]
    fn every_parts_second_edition_brings_its_gardens() {
        // the flier and Mage & Witch come after the Abbot in the list: their deck entries are
        // swapped after every part's lines
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
        let mut s = setup(true);
        s.sets.push(("flier:2".into(), 1));
        s.sets.push(("mage-and-witch:2".into(), 1));
        *s.part_mut() = crate::import::flier::FlierSetup {
            copies: 1,
            element: true,
        };
        *s.part_mut() = crate::import::magewitch::MageWitchSetup {
            copies: 1,
            mage: true,
            witch: true,
        };
        let t = ruleset_text(&s, &dir).unwrap();
        assert!(
            t.contains("deck { base-c2 x1, magewitch-gardens x1, flier-gardens x1 }"),
            "{t}"
        );
        let r = crate::import::jcz::load_ruleset(&s, &dir).unwrap();
        let plain = crate::import::jcz::plain_twin;
        for (garden, twin) in [("FL/F.dG", "FL/F.d"), ("MW/CCRrG", "MW/CCRr.2")] {
            assert_eq!(tile_id(&s, garden, plain), garden);
            // the one plain copy is the garden tile: the twin is not in the deck, and a draw
            // of the garden tile is the garden tile itself
            assert!(r.tile_by_jcz(twin).is_none(), "{twin}");
            let t = crate::import::jcz::tile_of_jcz(&r, garden).unwrap();
            assert_eq!(r.tiles[t as usize].jcz_id.as_deref(), Some(garden));
        }
        // the 1st editions: the plain twins
        s.sets[1].0 = "flier:1".into();
        s.sets[2].0 = "mage-and-witch:1".into();
        let t = ruleset_text(&s, &dir).unwrap();
        assert!(
            t.contains("deck { base-c2 x1, magewitch x1, flier x1 }"),
            "{t}"
        );
        assert_eq!(tile_id(&s, "FL/F.dG", plain), "FL/F.d");
        let r = crate::import::jcz::load_ruleset(&s, &dir).unwrap();
        let t = crate::import::jcz::tile_of_jcz(&r, "MW/CCRrG").unwrap();
        assert_eq!(r.tiles[t as usize].jcz_id.as_deref(), Some("MW/CCRr.2"));
    }

    #[test]
    fn abbot_meeple_ids() {
        let s = AbbotSetup {
            abbots: 1,
            garden: true,
        };
        assert_eq!(meeple_kind(&s, "abbot"), Some((ABBOT, 1)));
        assert_eq!(meeple_kind(&AbbotSetup::default(), "abbot"), None);
        assert_eq!(meeple_kind(&s, "small"), None);
        assert!(is_abbot("1.abbot.1") && !is_abbot("1.small.1"));
    }
}
