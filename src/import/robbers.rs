//! Robbers in JCloisterZone saves' test assertions: `P scored robbers for N points` (a
//! robber's scoring). JCloisterZone has no robbers of meeplab's; this importer part only
//! reads what the assertions name, registered in [`crate::import::jcz::parts`].

use crate::engine::expansions::robbers::{ROBBED, ROBBERS};
use crate::engine::{Category, Event};
use crate::import::jcz::part::{scorings_of, JczPart, Scoring};

/// The importer part of the Robbers.
pub struct RobbersPart;

/// Its registration (in [`crate::import::jcz::parts`]).
pub static PART: RobbersPart = RobbersPart;

impl JczPart for RobbersPart {
    fn name(&self) -> &'static str {
        "robbers"
    }
    fn category(&self, word: &str) -> Option<Category> {
        matches!(word.to_ascii_lowercase().as_str(), "robbers" | "robber").then_some(ROBBERS)
    }
    fn scorings(&self, events: &[Event], player: u8) -> Vec<(usize, Scoring)> {
        scorings_of(events, player, ROBBED, [1, 3], ROBBERS, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_assertions_words_are_its_category() {
        assert_eq!(PART.category("Robbers"), Some(ROBBERS));
        assert_eq!(PART.category("robber"), Some(ROBBERS));
        assert_eq!(PART.category("gold"), None);
    }
}
