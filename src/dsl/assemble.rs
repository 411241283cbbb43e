//! Assembling the [`Ruleset`]: the typed option values, one per option of the registry,
//! mapped onto the engine's fields. Each choice option's values map onto its enum through a
//! table ([`ChoiceTable`]) looked up without a fallback: a value the table lacks is no
//! ruleset (the load fails with an internal error) rather than silently the default, and a
//! test checks that every table names exactly the values the registry lists.

use super::registry::{self, Area};
use super::typing::Typed;
use crate::ruleset::*;
use crate::tiles::TileType;
use std::collections::{BTreeMap, HashMap};

/// A choice option's (or a choice argument's) values in the language and what they mean.
type ChoiceTable<T> = &'static [(&'static str, T)];

const UNPLACEABLE: ChoiceTable<Unplaceable> = &[
    ("discard", Unplaceable::Discard),
    ("reshuffle", Unplaceable::Reshuffle),
];
const FARMS: ChoiceTable<FarmRule> = &[
    ("per_field", FarmRule::PerField),
    ("once_per_player", FarmRule::OncePerPlayer),
    ("city_centric", FarmRule::CityCentric),
    ("off", FarmRule::Off),
];
/// The meaning of `name` in `table`; `None` for a name the table lacks (never a default).
fn lookup<T: Copy>(table: ChoiceTable<T>, name: &str) -> Option<T> {
    table.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// The typed option values of a ruleset, by key.
type Values = HashMap<&'static str, Typed>;

/// The value of choice option `key` and its arguments.
fn choice(values: &Values, key: &str) -> Option<(&'static str, Vec<(&'static str, &'static str)>)> {
    match values.get(key)? {
        Typed::Choice { name, args } => Some((name, args.clone())),
        _ => None,
    }
}

/// The value of choice option `key`, looked up in `table`.
fn choice_in<T: Copy>(values: &Values, key: &str, table: ChoiceTable<T>) -> Option<T> {
    lookup(table, choice(values, key)?.0)
}

fn expr(values: &Values, key: &str) -> Option<Expr> {
    match values.get(key)? {
        Typed::Expr(e) => Some(e.clone()),
        _ => None,
    }
}

fn int(values: &Values, key: &str) -> Option<i64> {
    match values.get(key)? {
        Typed::Int(n) => Some(*n),
        _ => None,
    }
}

/// Map typed option values onto the engine's [`Ruleset`] fields. `None` when a value is
/// missing or not one the tables know (a registry and table out of step: a bug).
pub(super) fn assemble(
    v: &Values,
    tiles: Vec<TileType>,
    deck: Vec<DeckEntry>,
    start: TileIdx,
) -> Option<Ruleset> {
    let (min_players, max_players) = match v.get("players")? {
        Typed::Range(a, b) => (u8::try_from(*a).ok()?, u8::try_from(*b).ok()?),
        _ => return None,
    };
    Some(Ruleset {
        name: String::new(),
        file: None,
        hash: String::new(),
        min_players,
        max_players,
        followers: u8::try_from(int(v, "followers")?).ok()?,
        hand: u8::try_from(int(v, "hand")?).ok()?,
        tiles,
        deck,
        start,
        unplaceable: choice_in(v, "unplaceable", UNPLACEABLE)?,
        scoring: scoring(v)?,
        options: BTreeMap::new(),
        ext: expansion_values(v),
    })
}

fn scoring(v: &Values) -> Option<Scoring> {
    Some(Scoring {
        road_complete: expr(v, "score.road.complete")?,
        road_final: expr(v, "score.road.final")?,
        city_complete: expr(v, "score.city.complete")?,
        city_small_complete: match v.get("score.city.small")? {
            Typed::Expr(e) => Some(e.clone()),
            _ => None,
        },
        city_final: expr(v, "score.city.final")?,
        cloister_complete: expr(v, "score.cloister.complete")?,
        cloister_final: expr(v, "score.cloister.final")?,
        farm: choice_in(v, "farms", FARMS)?,
        farm_city: expr(v, "score.farm.city")?,
    })
}

/// The options of the expansions declared in their own modules, passed on as they are
/// typed (each expansion reads its own).
fn expansion_values(v: &Values) -> BTreeMap<String, ExtValue> {
    v.iter()
        .filter(|(k, _)| {
            matches!(
                registry::lookup(k).map(|d| d.area),
                Some(Area::Expansion(_))
            )
        })
        .map(|(&k, t)| {
            let value = match t.clone() {
                Typed::Int(n) => ExtValue::Int(n),
                Typed::Range(a, b) => ExtValue::Range(a, b),
                Typed::Bool(b) => ExtValue::Bool(b),
                Typed::Choice { name, args } => ExtValue::Choice(name, args),
                Typed::Expr(e) => ExtValue::Expr(e),
                Typed::NoExpr => ExtValue::None,
            };
            (k.to_string(), value)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dsl::registry::{Choice, OptType};

    fn names<T>(table: ChoiceTable<T>) -> Vec<&'static str> {
        table.iter().map(|(n, _)| *n).collect()
    }

    /// The registry's choices of option `key`.
    fn registry_choices(key: &str) -> &'static [Choice] {
        match registry::lookup(key).map(|d| &d.ty) {
            Some(OptType::Choice(cs)) => cs,
            other => panic!("`{key}` is no choice option: {other:?}"),
        }
    }

    fn registry_values(key: &str) -> Vec<&'static str> {
        registry_choices(key).iter().map(|c| c.name).collect()
    }

    /// A value misspelt in the registry (or here) would make a ruleset fail to assemble
    /// instead of silently taking another value: every table names exactly the registry's
    /// values, in its order.
    #[test]
    fn every_choice_table_names_exactly_the_registry_values() {
        assert_eq!(names(UNPLACEABLE), registry_values("unplaceable"));
        assert_eq!(names(FARMS), registry_values("farms"));
    }

    /// Every choice option of the core has a table above (the expansions read their options
    /// themselves, in their modules).
    #[test]
    fn every_core_choice_option_is_mapped() {
        let mapped = ["unplaceable", "farms"];
        for def in registry::all_options() {
            if matches!(def.ty, OptType::Choice(_)) && !matches!(def.area, Area::Expansion(_)) {
                assert!(mapped.contains(&def.key), "`{}` has no table", def.key);
            }
        }
    }

    #[test]
    fn an_unknown_value_is_no_value() {
        assert_eq!(lookup(FARMS, "per_feld"), None);
        assert_eq!(lookup(FARMS, "off"), Some(FarmRule::Off));
    }
}
