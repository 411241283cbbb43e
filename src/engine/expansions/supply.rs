//! A supply of tokens per player that depends on the number of players: one count with up to
//! four players, another with five or six (Bridges, Castles & Bazaars deals its castles and its
//! bridges so). Read from two of an expansion's options (`AREA.supply`, `AREA.supply_5_6`).

use crate::rule_options::OptionDef;
use crate::ruleset::Ruleset;

/// Tokens a player gets, with up to four players and with five or six.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Supply {
    few: u8,
    many: u8,
}

impl Supply {
    /// Options `few` (up to four players) and `many` (five or six) of `rules`, their
    /// declared defaults when unset.
    pub fn read(rules: &Ruleset, few: &OptionDef, many: &OptionDef) -> Supply {
        let int = |o: &OptionDef| o.int_in(rules).clamp(0, 255) as u8;
        Supply {
            few: int(few),
            many: int(many),
        }
    }

    /// What each of `players` players gets.
    pub fn for_players(self, players: u8) -> u8 {
        if players <= 4 {
            self.few
        } else {
            self.many
        }
    }
}
