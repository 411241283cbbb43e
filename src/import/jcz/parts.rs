//! The importer's registration list: every expansion's part of the importer, once. The
//! shared steps (`save.rs`, `mapping.rs`) ask these parts, in this order, and name none; the
//! order is that of the mapped ruleset's lines, the deck's entries and the set-up's label
//! (gold and crop circles last; the Abbot swaps in the garden tiles of the other parts' sets
//! after every part's lines, so its place in the list does not matter for them).
//! Adding an expansion's importer part is a file under `src/import/` implementing
//! [`JczPart`](super::part::JczPart) and one line here.

use super::part::JczPart;

/// The registered importer parts.
pub static PARTS: &[&dyn JczPart] = &[
    &crate::import::castles::PART,
    &crate::import::bcb::PART,
    &crate::import::inns::PART,
    &crate::import::traders::PART,
    &crate::import::river::PART,
    &crate::import::abbot::PART,
    &crate::import::magewitch::PART,
    &crate::import::flier::PART,
    &crate::import::ferries::PART,
    &crate::import::gold::PART,
    &crate::import::crop::PART,
    &crate::import::robbers::PART,
    #[cfg(feature = "test-dummy")]
    &crate::import::dummy::PART,
];

#[cfg(test)]
mod tests {
    use super::PARTS;
    use std::collections::BTreeMap;

    /// A set, element, message or figure is read by one part at most, and by none when the
    /// core reads it (the shared steps would give it to the first in the list).
    #[test]
    fn no_two_parts_claim_the_same_key() {
        let mut seen: BTreeMap<String, &str> = BTreeMap::new();
        for core in [
            "set basic:1",
            "set basic:2",
            "element small-follower",
            "element farmers",
            "message PLACE_TILE",
            "message DEPLOY_MEEPLE",
            "message PASS",
            "message COMMIT",
            "figure small",
        ] {
            seen.insert(core.to_string(), "the core");
        }
        for p in PARTS {
            let keys = p
                .sets()
                .iter()
                .map(|s| format!("set {s}"))
                .chain(p.elements().iter().map(|e| format!("element {e}")))
                .chain(p.messages().iter().map(|m| format!("message {m}")))
                .chain(p.meeple_kinds().iter().map(|k| format!("figure {k}")));
            for k in keys {
                if let Some(other) = seen.insert(k.clone(), p.name()) {
                    panic!("{k}: read by {other} and by {}", p.name());
                }
            }
        }
        assert!(seen.len() > 40, "{seen:?}");
        // every part is named once
        let mut names: Vec<&str> = PARTS.iter().map(|p| p.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), PARTS.len());
    }
}
