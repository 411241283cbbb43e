//! The first place two replays' event streams differ, with each side's event as JSON (tile
//! indices replaced by tile ids, which differ between rulesets) and as text.

use crate::engine::Event;
use crate::ruleset::Ruleset;
use serde_json::Value;

/// The first place two replays' event streams differ.
#[derive(Clone, Debug)]
pub struct Divergence {
    /// Index into both event lists.
    pub index: usize,
    /// The turn it happened in (`None`: set-up or final gold).
    pub turn: Option<u32>,
    pub a: Option<Value>,
    pub b: Option<Value>,
    pub a_text: String,
    pub b_text: String,
}

/// An event as JSON with tile indices replaced by tile ids (indices differ between rulesets).
pub fn event_json(rules: &Ruleset, e: &Event) -> Value {
    let mut v = serde_json::to_value(e).unwrap_or(Value::Null);
    if let Some(t) = v.get_mut("tile") {
        if let Some(i) = t.as_u64() {
            if let Some(tt) = rules.tiles.get(i as usize) {
                *t = Value::String(tt.id.clone());
            }
        }
    }
    v
}

fn event_text(rules: &Ruleset, e: &Event) -> String {
    crate::render::narrate::describe(rules, e)
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|| e.kind().replace('_', " "))
}

/// Compare two event streams (tiles by id); `None` when they are identical.
pub fn first_divergence(
    ra: &Ruleset,
    a: &[Event],
    rb: &Ruleset,
    b: &[Event],
) -> Option<Divergence> {
    let n = a.len().max(b.len());
    for i in 0..n {
        let ja = a.get(i).map(|e| event_json(ra, e));
        let jb = b.get(i).map(|e| event_json(rb, e));
        if ja != jb {
            let turn = a.get(i).or(b.get(i)).and_then(Event::turn);
            return Some(Divergence {
                index: i,
                turn,
                a_text: a
                    .get(i)
                    .map_or("(no more events)".into(), |e| event_text(ra, e)),
                b_text: b
                    .get(i)
                    .map_or("(no more events)".into(), |e| event_text(rb, e)),
                a: ja,
                b: jb,
            });
        }
    }
    None
}
