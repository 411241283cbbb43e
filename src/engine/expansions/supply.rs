//! A supply of tokens per player that depends on the number of players: one count with up to
//! four players, another with five or six (Bridges, Castles & Bazaars deals its castles and its
//! bridges so). Read from an expansion's `AREA.supply` and `AREA.supply_5_6` options.

use crate::ruleset::Ruleset;

/// Tokens a player gets, with up to four players and with five or six.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Supply {
    few: u8,
    many: u8,
}

impl Supply {
    /// The options `{area}.supply` and `{area}.supply_5_6` of `rules` (their defaults when
    /// unset).
    pub fn read(rules: &Ruleset, area: &str, few: u8, many: u8) -> Supply {
        let int = |key: &str, default: u8| {
            rules
                .ext_int(&format!("{area}.{key}"))
                .map_or(default, |v| v.clamp(0, 255) as u8)
        };
        Supply {
            few: int("supply", few),
            many: int("supply_5_6", many),
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
