//! THE option registry: every rule option the language accepts — key, type, allowed values,
//! default, meaning and sources: the core's in one table here, each expansion's in its own
//! module (`Expansion::OPTIONS`), read together through [`all_options`]. It drives key lookup
//! and typing (unknown key → closest valid keys), validation messages, defaults during
//! resolution and the documentation printed by `meeplab check --list-options`.

use crate::rule_options::choice;
pub use crate::rule_options::{choice_syntax, Area, ArgDef, Choice, OptType, OptionDef};
use crate::ruleset::{Var, MAX_HAND, MAX_PLAYERS};

/// Options left out of a ruleset's option list (and so of its printed form and content hash)
/// while they hold their default: options added after rulesets were published, so that the
/// rulesets that do not use them keep their hashes and printed forms.
pub const QUIET_AT_DEFAULT: &[&str] = &["hand"];

/// The core's options (general and scoring), in documentation order.
pub static OPTIONS: &[OptionDef] = &[
    OptionDef {
        key: "players",
        area: Area::General,
        ty: OptType::Range { min: 1, max: MAX_PLAYERS as i64 },
        default: "2..5",
        doc: "How many players the ruleset supports.",
        sources: "HiG C1 box: 2..5 (5 colours); Big Box editions: 2..6 (6 colours)",
        requires: None,
    },
    OptionDef {
        key: "followers",
        area: Area::General,
        ty: OptType::Int { min: 1, max: 30 },
        default: "7",
        doc: "Followers in each player's supply (the 8th meeple is the score marker).",
        sources: "all editions: 7",
        requires: None,
    },
    OptionDef {
        key: "unplaceable",
        area: Area::General,
        ty: OptType::Choice(&[
            choice("discard", "the tile is removed from the game; draw again"),
            choice("reshuffle", "the tile is shuffled back into the pack; draw again"),
        ]),
        default: "discard",
        doc: "What happens to a drawn tile that fits nowhere.",
        sources: "RGG C1 and C2 order of play: discard; reshuffle is a house variant",
        requires: None,
    },
    OptionDef {
        key: "hand",
        area: Area::General,
        ty: OptType::Int { min: 1, max: MAX_HAND as i64 },
        default: "1",
        doc: "Tiles each player holds (house rule): with N > 1 each player is dealt N - 1 tiles after the start tile, and each turn draws one and plays one of the N; the hand is hidden from the other players. 1 is the printed rule (draw a tile, play it).",
        sources: "all editions: 1; Board Game Arena's \"strategic variant\" (JCloisterZone issue #291): a hand of 2 or 3",
        requires: None,
    },
    OptionDef {
        key: "farms",
        area: Area::Scoring,
        ty: OptType::Choice(&[
            choice("per_field", "3rd rule (2002 on): each field pays its majority `score.farm.city` per completed city it touches"),
            choice("once_per_player", "2nd rule (~2001): per field, but a player is paid for a given city at most once"),
            choice("city_centric", "1st rule (2000): per completed city, the player(s) with most farmers in the fields touching it get `score.farm.city`"),
            choice("off", "no farmers: followers may not be placed in fields"),
        ]),
        default: "per_field",
        doc: "How farms (fields) are scored at the end of the game.",
        sources: "C2/C3 and HiG since 2002: per_field; C1 2000: city_centric (4 pts); C1 ~2001: once_per_player",
        requires: None,
    },
    OptionDef {
        key: "score.farm.city",
        area: Area::Scoring,
        ty: OptType::Expr { vars: &[Var::Cities], none_ok: false },
        default: "3",
        doc: "Points a farm pays per completed city (`cities` is 1 per city).",
        sources: "current: 3; 1st-edition city-centric rule: 4",
        requires: None,
    },
    OptionDef {
        key: "score.road.complete",
        area: Area::Scoring,
        ty: OptType::Expr { vars: &[Var::Tiles], none_ok: false },
        default: "tiles",
        doc: "Points for a completed road.",
        sources: "all editions: 1 per tile",
        requires: None,
    },
    OptionDef {
        key: "score.road.final",
        area: Area::Scoring,
        ty: OptType::Expr { vars: &[Var::Tiles], none_ok: false },
        default: "tiles",
        doc: "Points for an incomplete road at the end of the game.",
        sources: "all editions: 1 per tile",
        requires: None,
    },
    OptionDef {
        key: "score.city.complete",
        area: Area::Scoring,
        ty: OptType::Expr { vars: &[Var::Tiles, Var::Pennants], none_ok: false },
        default: "2 * tiles + 2 * pennants",
        doc: "Points for a completed city.",
        sources: "all editions: 2 per tile + 2 per pennant",
        requires: None,
    },
    OptionDef {
        key: "score.city.small",
        area: Area::Scoring,
        ty: OptType::Expr { vars: &[Var::Tiles, Var::Pennants], none_ok: true },
        default: "none",
        doc: "Points for a completed city of exactly two tiles when they differ from `score.city.complete`; `none` = no special case.",
        sources: "since 2002: none (4 points); C1 before 2002: tiles + pennants (2 points)",
        requires: None,
    },
    OptionDef {
        key: "score.city.final",
        area: Area::Scoring,
        ty: OptType::Expr { vars: &[Var::Tiles, Var::Pennants], none_ok: false },
        default: "tiles + pennants",
        doc: "Points for an incomplete city at the end of the game.",
        sources: "all editions: 1 per tile + 1 per pennant",
        requires: None,
    },
    OptionDef {
        key: "score.cloister.complete",
        area: Area::Scoring,
        ty: OptType::Expr { vars: &[Var::Neighbours], none_ok: false },
        default: "1 + neighbours",
        doc: "Points for a completed cloister (`neighbours` is 8 then).",
        sources: "all editions: 9",
        requires: None,
    },
    OptionDef {
        key: "score.cloister.final",
        area: Area::Scoring,
        ty: OptType::Expr { vars: &[Var::Neighbours], none_ok: false },
        default: "1 + neighbours",
        doc: "Points for an incomplete cloister at the end: its tile plus the tiles around it.",
        sources: "all editions: 1 + neighbours",
        requires: None,
    },
];

/// Every option: the core's (`OPTIONS`), then those each registered expansion declares in
/// its module (`Expansion::OPTIONS`), in registration order.
pub fn all_options() -> impl Iterator<Item = &'static OptionDef> {
    OPTIONS.iter().chain(
        crate::engine::expansions::OPTIONS
            .iter()
            .flat_map(|d| d.iter()),
    )
}

/// An area's name in the documentation and in messages: an expansion's declared title
/// (`Expansion::TITLE`), else its name.
pub fn area_title(a: Area) -> &'static str {
    match a {
        Area::Expansion(name) => crate::engine::expansions::area(name).map_or(name, |i| i.title),
        other => other.name(),
    }
}

/// For an expansion's area that its tiles bring into play (`Expansion::PLAYED_WITH_TILES`):
/// the word for its tiles and the bits of their marks.
pub fn played_with_tiles(a: Area) -> Option<(&'static str, u32)> {
    let Area::Expansion(name) = a else {
        return None;
    };
    let info = crate::engine::expansions::area(name)?;
    Some((info.tiles?, info.marks))
}

/// The registry entry for `key`.
pub fn lookup(key: &str) -> Option<&'static OptionDef> {
    all_options().find(|o| o.key == key)
}

/// `candidates` sorted by edit distance to `word` (closest first; ties keep their order).
pub fn closest_first<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut v: Vec<(f64, usize, &str)> = candidates
        .enumerate()
        .map(|(k, c)| (1.0 - strsim::normalized_damerau_levenshtein(word, c), k, c))
        .collect();
    v.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    v.into_iter().map(|(_, _, c)| c.to_string()).collect()
}

/// The documentation of every option (for `meeplab check --list-options`).
pub fn document() -> String {
    let mut out = String::from(
        "Rule options (set as `key = value [source \"…\"]`, or grouped by area: \
         `area { key = value }`).\n\
         Options of an expansion apply only when the deck holds its tiles.\n",
    );
    let mut area = None;
    for o in all_options() {
        if area != Some(o.area) {
            area = Some(o.area);
            out.push_str(&format!("\n== {} ==\n", area_title(o.area)));
        }
        out.push_str(&format!("\n{}\n", o.key));
        out.push_str(&format!("    {}\n", o.doc));
        out.push_str(&format!("    type:    {}\n", o.ty.describe()));
        if let OptType::Choice(cs) = &o.ty {
            for c in cs.iter() {
                out.push_str(&format!("      {:<36} {}\n", choice_syntax(c), c.doc));
                for a in c.args {
                    out.push_str(&format!(
                        "      {:<36} {} (default {})\n",
                        format!("  {}:", a.name),
                        a.doc,
                        a.values[0]
                    ));
                }
            }
        }
        out.push_str(&format!("    default: {}\n", o.default));
        out.push_str(&format!("    sources: {}\n", o.sources));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_unique_and_suggestions_rank() {
        let all: Vec<_> = all_options().collect();
        for (k, o) in all.iter().enumerate() {
            assert!(all[..k].iter().all(|p| p.key != o.key), "{}", o.key);
        }
        let s = closest_first("gold.splt", all_options().map(|o| o.key));
        assert_eq!(s[0], "gold.split");
    }
}
