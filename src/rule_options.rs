//! The types of rule-option declarations: what an option is (key, area, type, default,
//! meaning, sources). The rule language's registry (`dsl::registry`) holds the core's
//! options; each expansion module declares its own (`Expansion::OPTIONS`) with the same
//! types, and the language reads both.

use crate::ruleset::Var;

/// Which part of the game an option belongs to. An expansion's options apply only when it is
/// in play: when the deck holds its tiles, for one its tiles bring in
/// (`Expansion::PLAYED_WITH_TILES`), else when the ruleset sets one of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Area {
    General,
    Scoring,
    /// An expansion that declares its options in its own module (`Expansion::OPTIONS`):
    /// its name. Its options are in play when a ruleset sets any of them.
    Expansion(&'static str),
}

impl Area {
    pub fn name(self) -> &'static str {
        match self {
            Area::General => "general",
            Area::Scoring => "scoring",
            Area::Expansion(name) => name,
        }
    }
}

/// What the registry knows of an expansion's area of options (see `Expansion::TITLE`,
/// `Expansion::PLAYED_WITH_TILES`): one per registered expansion.
#[derive(Clone, Copy, Debug)]
pub struct AreaInfo {
    /// Its registered name, the name of its [`Area::Expansion`].
    pub name: &'static str,
    /// Its name in the option documentation and messages (`crop circles`).
    pub title: &'static str,
    /// The word for its tiles in messages (`crop-circle`), when a deck holding one of its
    /// marked tiles puts it in play; `None` when a ruleset setting one of its options does.
    pub tiles: Option<&'static str>,
    /// The bits of its tile marks (see `TileType::marks`).
    pub marks: u32,
}

/// One named argument of a choice, e.g. `pick` of `draft(pick: player)`. The first value is
/// the default.
#[derive(Debug)]
pub struct ArgDef {
    pub name: &'static str,
    pub values: &'static [&'static str],
    pub doc: &'static str,
}

/// One allowed value of a choice option.
#[derive(Debug)]
pub struct Choice {
    pub name: &'static str,
    pub doc: &'static str,
    pub args: &'static [ArgDef],
}

/// The type of an option's value.
#[derive(Debug)]
pub enum OptType {
    /// An integer within `min..=max`.
    Int {
        min: i64,
        max: i64,
    },
    /// `lo..hi` within `min..=max` (a single integer means `n..n`).
    Range {
        min: i64,
        max: i64,
    },
    Bool,
    Choice(&'static [Choice]),
    /// An arithmetic expression over `vars`; `none_ok` also allows `none`.
    Expr {
        vars: &'static [Var],
        none_ok: bool,
    },
}

impl OptType {
    /// Short type description for messages and docs.
    pub fn describe(&self) -> String {
        match self {
            OptType::Int { min, max } => format!("integer {min}..{max}"),
            OptType::Range { min, max } => format!("range within {min}..{max}, e.g. `2..5`"),
            OptType::Bool => "true or false".to_string(),
            OptType::Choice(cs) => format!(
                "one of: {}",
                cs.iter().map(choice_syntax).collect::<Vec<_>>().join(" | ")
            ),
            OptType::Expr { vars, none_ok } => {
                let vs: Vec<&str> = vars.iter().map(|v| v.name()).collect();
                let base = if vs.is_empty() {
                    "expression (numbers only)".to_string()
                } else {
                    format!("expression over {}", vs.join(", "))
                };
                if *none_ok {
                    format!("{base}, or `none`")
                } else {
                    base
                }
            }
        }
    }
}

/// `draft(pick: player|most_contested)`
pub fn choice_syntax(c: &Choice) -> String {
    if c.args.is_empty() {
        c.name.to_string()
    } else {
        let args: Vec<String> = c
            .args
            .iter()
            .map(|a| format!("{}: {}", a.name, a.values.join("|")))
            .collect();
        format!("{}({})", c.name, args.join(", "))
    }
}

/// One option of the registry.
#[derive(Debug)]
pub struct OptionDef {
    pub key: &'static str,
    pub area: Area,
    pub ty: OptType,
    /// Default, written in the rule language (parsed like any value).
    pub default: &'static str,
    pub doc: &'static str,
    /// Who uses which value (free text for the docs).
    pub sources: &'static str,
    /// The area it only acts with, when not its own (an option that matters only beside
    /// another expansion): set without that area in play, it is a warning (W0103).
    pub requires: Option<Area>,
}

/// Typed reads of an expansion's option: a module declares each option once, as a `const`
/// `OptionDef` listed in its `OPTIONS` table, and reads it through that same constant, so the
/// key and the default are written in one place (`CHAIN.choice_in(rules)`).
impl OptionDef {
    /// This integer option's value in `rules`: as set there, else its declared default (an
    /// `Int` option's default is an integer literal: `every_int_default_is_an_integer`).
    pub fn int_in(&self, rules: &crate::ruleset::Ruleset) -> i64 {
        rules
            .ext_int(self.key)
            .unwrap_or_else(|| self.default_int())
    }

    /// Its default as an integer (0 for an option whose default is not one).
    pub fn default_int(&self) -> i64 {
        self.default.trim().parse().unwrap_or(0)
    }

    /// This choice option's chosen name in `rules`: as set there, else its declared
    /// default's name (without its arguments: `draft` of `draft(pick: player)`).
    pub fn choice_in(&self, rules: &crate::ruleset::Ruleset) -> &'static str {
        rules
            .ext_choice(self.key)
            .unwrap_or_else(|| self.default_choice())
    }

    /// This choice option's value in `rules` (as [`OptionDef::choice_in`]) mapped through
    /// `table`, the module's meaning of each of its values (the first entry for a value the
    /// table lacks: [`OptionDef::names_exactly`] checks, in the module's tests, that it
    /// lacks none).
    pub fn mapped_in<T: Copy>(&self, rules: &crate::ruleset::Ruleset, table: &[(&str, T)]) -> T {
        let name = self.choice_in(rules);
        table.iter().find(|e| e.0 == name).unwrap_or(&table[0]).1
    }

    /// Whether `table` names exactly this choice option's values, in order (or, with `arg`,
    /// the values of argument `arg.1` of its choice `arg.0`).
    pub fn names_exactly<T>(&self, arg: Option<(&str, &str)>, table: &[(&str, T)]) -> bool {
        let names: Vec<&str> = table.iter().map(|e| e.0).collect();
        let OptType::Choice(cs) = &self.ty else {
            return false;
        };
        match arg {
            None => cs.iter().map(|c| c.name).eq(names.iter().copied()),
            Some((choice, arg)) => cs
                .iter()
                .find(|c| c.name == choice)
                .and_then(|c| c.args.iter().find(|a| a.name == arg))
                .is_some_and(|a| a.values == names.as_slice()),
        }
    }

    /// Its default's choice name (without arguments).
    pub fn default_choice(&self) -> &'static str {
        let d: &'static str = self.default;
        d.split('(').next().unwrap_or(d).trim()
    }
}

pub const fn choice(name: &'static str, doc: &'static str) -> Choice {
    Choice {
        name,
        doc,
        args: &[],
    }
}
