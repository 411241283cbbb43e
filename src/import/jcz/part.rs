//! The importer's seam: what one expansion's part of the importer does, as the
//! [`JczPart`] trait. Each part is registered once, in [`super::parts::PARTS`]; the shared
//! steps (reading the set-up and the messages in `save.rs`, the mapping in `mapping.rs`, the
//! translation in `translate.rs`, the replay in `import/replay`, the test assertions in
//! `import/assertions.rs`) ask every registered part and name none. What a part tracks
//! lives in a slot of its own, by type: its set-up ([`Setup::part`]), its turn and its game
//! in the translation ([`Translator::turn_part_mut`], [`Translator::game_part_mut`], the
//! latter kept in [`Translated::parts`] for the replay).

use super::message::{meeple_pointer, Message, Msg, PartMsg, Pointer};
pub use super::setup::Gardens;
use super::setup::Setup;
use super::translated::Translated;
use super::turn::{Current, Translator};
use super::JczError;
use crate::engine::{
    Category, Choice, Chooser, Decision, DecisionKind, Event, FollowerKind, Game, TakenDecision,
};
use crate::ruleset::{Ruleset, TileIdx};
use crate::tiles::TileType;
use serde::Serialize;
use serde_json::Value;
use std::path::Path;

/// A message of `replay[]` before it is decoded, as a part sees it.
pub struct RawMessage<'a> {
    /// The message's `type` (`PLACE_TOKEN`).
    pub kind: &'a str,
    /// Its `payload` (an empty object when absent).
    pub payload: &'a Value,
    /// An error about this message (its index and type added).
    pub bad: &'a dyn Fn(String) -> JczError,
}

impl RawMessage<'_> {
    /// `payload.token` of a `PLACE_TOKEN` (empty when absent).
    pub fn token(&self) -> &str {
        self.payload
            .get("token")
            .and_then(Value::as_str)
            .unwrap_or("")
    }

    /// `payload.source` of a `RETURN_MEEPLE`.
    pub fn source(&self) -> Option<&str> {
        self.payload.get("source").and_then(Value::as_str)
    }

    /// A meeple pointer `{position, feature, location}` with its `meepleId`; `field` names
    /// it in errors.
    pub fn pointer(
        &self,
        at: &Value,
        meeple: Option<&Value>,
        field: &str,
    ) -> Result<Pointer, JczError> {
        meeple_pointer(at, meeple, field, self.bad)
    }

    /// The pointer of a `RETURN_MEEPLE`: `payload.pointer` `{featurePointer, meepleId}`.
    pub fn return_pointer(&self) -> Result<Pointer, JczError> {
        let p = self
            .payload
            .get("pointer")
            .ok_or_else(|| (self.bad)("payload.pointer is missing".into()))?;
        let fp = p.get("featurePointer").ok_or_else(|| {
            (self.bad)("payload.pointer.featurePointer is missing (JCloisterZone writes {featurePointer: {position, feature, location}, meepleId})".into())
        })?;
        self.pointer(fp, p.get("meepleId"), "payload.pointer.featurePointer")
    }
}

/// What the mapping of a set-up to a ruleset has decided so far.
pub struct Mapping<'a> {
    /// The folder of the bundled rulesets.
    pub dir: &'a Path,
    /// The bundled ruleset the mapped one extends (`base.rules`, …).
    pub parent: &'static str,
    /// The deck's entries (`base x1`, `bcb x1`, …), in order.
    pub deck: Vec<String>,
}

/// One expansion's part of the importer. Every method has a default that does nothing, so
/// a part implements what its expansion needs. The registered parts are asked in the order
/// of [`super::parts::PARTS`] (the order of the mapped ruleset's lines and of the label).
pub trait JczPart: Sync {
    /// The part's name (`"gold"`), for messages.
    fn name(&self) -> &'static str;

    /// The keys of `setup.sets` it reads (`goldmines`).
    fn sets(&self) -> &'static [&'static str] {
        &[]
    }

    /// Read `copies` (1–4) of one of its [`sets`](JczPart::sets).
    fn read_set(&self, _set: &str, _copies: u32, _s: &mut Setup) -> Result<(), JczError> {
        Ok(())
    }

    /// The keys of `setup.elements` it reads (`gold`).
    fn elements(&self) -> &'static [&'static str] {
        &[]
    }

    /// Read one of its [`elements`](JczPart::elements) (present, not `null`: JCloisterZone
    /// switches an element on by its presence).
    fn read_element(&self, _name: &str, _value: &Value, _s: &mut Setup) -> Result<(), JczError> {
        Ok(())
    }

    /// Read a `setup.rules` entry when it is one of its own (`None`: not its own).
    fn read_rule(
        &self,
        _name: &str,
        _value: &Value,
        _s: &mut Setup,
    ) -> Option<Result<(), JczError>> {
        None
    }

    /// After the sets and elements: what they imply together (an element without its tiles
    /// changes nothing), and the checks of its set-up.
    fn settle(&self, _s: &mut Setup) -> Result<(), JczError> {
        Ok(())
    }

    /// The start tile, when its sets replace the standard one.
    fn start_tile(&self, _s: &Setup) -> Option<&'static str> {
        None
    }

    /// The messages it reads, as `TYPE` or `TYPE TOKEN` (for the docs and errors).
    fn messages(&self) -> &'static [&'static str] {
        &[]
    }

    /// Decode a message when it is one of its own (`None`: not its own).
    fn parse_message(&self, _m: &RawMessage) -> Option<Result<Msg, JczError>> {
        None
    }

    /// After the whole save is read: what the message log tells the set-up, and the checks
    /// of the whole game.
    fn finish(
        &self,
        _s: &mut Setup,
        _messages: &[super::message::Message],
    ) -> Result<(), JczError> {
        Ok(())
    }

    /// What it adds to the set-up's label after the sets (`" + castles"`).
    fn label(&self, _s: &Setup) -> String {
        String::new()
    }

    /// What the label says when its tiles are in and its element is not (`", no gold"`),
    /// after the farmers.
    fn label_absent(&self, _s: &Setup) -> String {
        String::new()
    }

    /// The bundled ruleset the mapping extends when it decides it, with its priority (the
    /// highest wins; `base.rules` without any).
    fn parent(&self, _s: &Setup) -> Option<(u8, &'static str)> {
        None
    }

    /// Its lines of the mapped ruleset (options, included tiles), pushing its deck entries.
    fn ruleset_lines(&self, _s: &Setup, _m: &mut Mapping) -> Result<String, String> {
        Ok(String::new())
    }

    /// After every part's [`ruleset_lines`](JczPart::ruleset_lines): its lines that rewrite
    /// the others' deck entries (the Abbot swapping in the garden tiles of their sets).
    fn ruleset_lines_after(&self, _s: &Setup, _m: &mut Mapping) -> Result<String, String> {
        Ok(String::new())
    }

    /// The 2nd-edition printings of its sets with garden tiles, which the Abbot's mapping
    /// plays with live gardens.
    fn gardens(&self) -> &'static [Gardens] {
        &[]
    }

    /// The plain twin of one of its tile ids printed with a garden (`None`: not its own).
    fn plain_twin(&self, _id: &str) -> Option<&'static str> {
        None
    }

    /// The tiles of one of its sets as JCloisterZone's pack holds them (id, copies), for
    /// reproducing its draws (`None`: not its own).
    fn set_tiles(&self, _set: &str) -> Option<&'static [(&'static str, u32)]> {
        None
    }

    /// Whether its set-up makes JCloisterZone draw the pack in groups (the river first).
    fn draws_in_groups(&self, _s: &Setup) -> bool {
        false
    }

    // The translation of the message log (`translate.rs` asks these, in the list's order).

    /// Translate one of its own messages ([`Msg::Part`]; `None`: not its own): check where
    /// the turn is and record what it decides.
    fn translate(
        &self,
        _t: &mut Translator,
        _at: &Current,
        _m: &Message,
        _msg: &PartMsg,
    ) -> Option<Result<(), JczError>> {
        None
    }

    /// Take a core message (`DEPLOY_MEEPLE`, `PASS`, `COMMIT`) before the core's handler,
    /// when it is the part's where the turn is (a `PASS` declining a castle, a landing after
    /// a flight); `None`: not its own.
    fn intercept(
        &self,
        _t: &mut Translator,
        _at: &Current,
        _msg: &Msg,
    ) -> Option<Result<(), JczError>> {
        None
    }

    /// The meeplab id of a placed tile's JCloisterZone id when it decides it (a garden tile
    /// that is itself with live gardens); `None`: the plain twin.
    fn tile_id<'a>(&self, _s: &Setup, _id: &'a str) -> Option<&'a str> {
        None
    }

    /// What an unknown tile id of its own says (`None`: not its own).
    fn unknown_tile(&self, _s: &Setup, _id: &str) -> Option<String> {
        None
    }

    /// Whether a `PLACE_TILE` by `player` out of the seat order is a turn its rules give (a
    /// builder's double turn); asked at every `PLACE_TILE` (`last`: the last turn's player,
    /// `expected`: the seat whose turn it would be).
    fn extra_turn(
        &self,
        _t: &mut Translator,
        _last: Option<u8>,
        _player: u8,
        _expected: u8,
    ) -> bool {
        false
    }

    /// After a `PLACE_TILE` is read (its draw and placement recorded).
    fn on_place(&self, _t: &mut Translator, _at: &Current) -> Result<(), JczError> {
        Ok(())
    }

    /// Before the turn's follower action that the core takes (`DEPLOY_MEEPLE`, `PASS`): its
    /// checks, and what it records first.
    fn before_follower(&self, _t: &mut Translator, _at: &Current) -> Result<(), JczError> {
        Ok(())
    }

    /// After a `PASS` the core took as the turn's follower action.
    fn after_pass(&self, _t: &mut Translator, _at: &Current) -> Result<(), JczError> {
        Ok(())
    }

    /// The segment a pointer names on a tile when the core's reading finds none (a bridge).
    fn segment(&self, _tile: &TileType, _p: &Pointer) -> Option<u8> {
        None
    }

    /// At the end of the log: what its track of the game leaves open, and its checks.
    fn finish_translation(&self, _out: &mut Translated, _last: usize) -> Result<(), JczError> {
        Ok(())
    }

    // The replay of a translated save (`import/replay` asks these) and the save's test
    // assertions (`import/assertions.rs`).

    /// Whether recorded turn `k` (its index in [`Translated::draws`]) draws its tile from
    /// JCloisterZone's pack (`false`: a tile bought at a bazaar).
    fn draws_tile(&self, _tr: &Translated, _k: usize) -> bool {
        true
    }

    /// JCloisterZone's draws right after recorded turn `k` that are the part's (an
    /// auction's tiles), checked against what the save plays: `Err((message, text))`.
    fn draw_after_turn(
        &self,
        _pack: &mut dyn PackDraws,
        _tr: &Translated,
        _k: usize,
    ) -> Result<(), (usize, String)> {
        Ok(())
    }

    /// A recorded decision of its own as `rules` reads it (a tile named by id); `None`: as
    /// recorded.
    fn for_rules(
        &self,
        _tr: &Translated,
        _rules: &Ruleset,
        _d: &TakenDecision,
    ) -> Option<TakenDecision> {
        None
    }

    /// Before recorded turn `k` is played: what the save decided that the engine draws
    /// (the flier's die).
    fn before_turn(&self, _tr: &Translated, _k: usize, _game: &mut Game) {}

    /// Play recorded turn `k` when the part plays it (a bazaar's pack, a bought tile);
    /// `None`: the core plays the tile.
    fn play_turn(
        &self,
        _game: &mut Game,
        _turn: TurnToPlay,
        _c: &mut dyn Chooser,
        _events: &mut Vec<Event>,
    ) -> Option<Result<(), String>> {
        None
    }

    /// What it answers in recorded turn `k` that the script cannot: the offers the save
    /// does not record one by one (castles, crop-circle passes without a player, abbots
    /// kept); `None`: nothing.
    fn answers(
        &self,
        _tr: &Translated,
        _k: usize,
        _script: &[TakenDecision],
    ) -> Option<Box<dyn TurnAnswers>> {
        None
    }

    /// Why a recorded choice of one of its decisions is not legal now (`None`: not its own,
    /// or no better words than the script's).
    fn explain(&self, _game: &Game, _d: &Decision, _recorded: &Choice) -> Option<String> {
        None
    }

    /// Whether an unasked recorded decision of its own had its effect in the turn's
    /// `events` (the engine took the only option without asking); `None`: not its own.
    fn effect_seen(&self, _d: &TakenDecision, _events: &[Event]) -> Option<bool> {
        None
    }

    /// Why the engine never asked for a recorded decision of its own (`None`: not its own).
    fn unasked_why(&self, _d: &TakenDecision) -> Option<String> {
        None
    }

    /// A decision kind of its own in words (`the second ingot's tile`), for errors.
    fn decision_words(&self, _kind: DecisionKind) -> Option<&'static str> {
        None
    }

    /// The scoring category a test assertion's word names when it is its own (`gold`).
    fn category(&self, _word: &str) -> Option<Category> {
        None
    }

    /// The single scorings of `player` its events make, with the index of the event each
    /// comes from (`P scored C for N points`).
    fn scorings(&self, _events: &[Event], _player: u8) -> Vec<(usize, Scoring)> {
        Vec::new()
    }

    /// The kinds of `meepleId` (`P.KIND.N`) of its figures (`big`), for errors.
    fn meeple_kinds(&self) -> &'static [&'static str] {
        &[]
    }

    /// A figure of its own by the kind of its `meepleId` (`P.KIND.N`), when the set-up deals
    /// it: the kind of follower, how many a player has, and their name in errors.
    fn meeple(&self, _s: &Setup, _kind: &str) -> Option<(FollowerKind, u8, &'static str)> {
        None
    }
}

/// JCloisterZone's pack as the replay reproduces it, as a part draws from it.
pub trait PackDraws {
    /// Draw with `random` from now on.
    fn set_random(&mut self, random: f64);
    /// The next tile (`Ok(None)`: the pack is exhausted).
    fn draw_next(&mut self) -> Result<Option<String>, String>;
}

/// A recorded turn to play: its index in [`Translated::draws`], the tile, the player.
#[derive(Clone, Copy)]
pub struct TurnToPlay<'t> {
    pub tr: &'t Translated,
    pub k: usize,
    pub tile: TileIdx,
    pub player: u8,
}

/// What a part answers in a replayed turn of a save, and what it checks after it.
pub trait TurnAnswers {
    /// The option for decision `d` (`None`: the script's answer).
    fn answer(&mut self, game: &Game, d: &Decision) -> Option<usize>;

    /// After the turn: what the save did that the engine never offered. Under the save's
    /// own ruleset (`strict`) an error naming the message; else the decisions left unused.
    fn after_turn(
        &mut self,
        _game: &Game,
        _tr: &Translated,
        _strict: bool,
    ) -> Result<Vec<TakenDecision>, JczError> {
        Ok(Vec::new())
    }
}

/// A single scoring of one player, as a test assertion reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Scoring {
    pub category: Category,
    pub points: i64,
    /// The turn (`None`: final scoring).
    pub turn: Option<u32>,
    pub final_scoring: bool,
}

/// The scorings of `player` that events of `kind` record (for [`JczPart::scorings`]), with
/// the event's index: the seat in field `seat`, the points in field `points`, in category
/// `category`; during the game at the turn in field 0, or, `final_scoring`, at the end.
pub(crate) fn scorings_of(
    events: &[Event],
    player: u8,
    kind: crate::engine::event::EventKind,
    [seat, points]: [usize; 2],
    category: Category,
    final_scoring: bool,
) -> Vec<(usize, Scoring)> {
    events
        .iter()
        .enumerate()
        .filter_map(|(i, e)| {
            let v = e.of(kind).filter(|v| v[seat] == player as i64)?;
            Some((
                i,
                Scoring {
                    category,
                    points: v[points],
                    turn: (!final_scoring).then_some(v[0] as u32),
                    final_scoring,
                },
            ))
        })
        .collect()
}

/// A path as a rule-language string literal (`"` and `\\` escaped), for the mapped
/// ruleset's `extends` and `include` lines (the parts' lines too).
pub(crate) fn quoted(p: &Path) -> String {
    let s = p.display().to_string();
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A count as JCloisterZone reads it (`Integer.parseInt(value.toString().split("\\.")[0])`).
pub fn element_count(v: &Value) -> Option<i64> {
    let s = match v {
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.clone(),
        _ => return None,
    };
    s.split('.').next()?.parse::<i64>().ok()
}
