//! The importer's registration list: every expansion's part of the importer, once. The
//! shared steps (`save.rs`, `mapping.rs`) ask these parts, in this order, and name none; the
//! order is that of the mapped ruleset's lines, the deck's entries and the set-up's label
//! (the Abbot after the sets whose garden tiles it turns on; gold and crop circles last).
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
];
