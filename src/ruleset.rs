//! The resolved, typed ruleset the engine reads: tile catalogue and deck, scoring formulas,
//! and each expansion's options. No strings are consulted on hot paths; names and sources
//! are kept only for reports and `meeplab diff`.
//!
//! A `Ruleset` is produced by the rule language (`dsl`) after `extends`/`include` resolution
//! and validation (the bundled ones live in `rulesets/`).

use crate::tiles::TileType;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;

/// The most seats a game can have: the rule language refuses `players` ranges above it and
/// every command refuses `--players` above it (the engine's seat arrays have this size).
pub const MAX_PLAYERS: u8 = 6;

/// The largest hand of tiles a ruleset may give each player (the `hand` option).
pub const MAX_HAND: u8 = 4;

/// Index of a tile type in [`Ruleset::tiles`].
pub type TileIdx = u16;

/// A named quantity a scoring formula may read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Var {
    /// Distinct tiles of the feature.
    Tiles,
    /// Pennants in a city.
    Pennants,
    /// Tiles around a cloister (0..=8), the cloister's own tile not included.
    Neighbours,
    /// Completed cities a field touches (farm scoring).
    Cities,
    /// A variable an expansion declares for the formulas of its own options (the ingots a
    /// player holds, in the Gold Mines' value): see [`ExtVar`].
    Ext(ExtVar),
}

/// A variable an expansion declares for its own options' formulas, as a `const` in its
/// module (`Var::Ext(ExtVar { name: "ingots", slot: 0, min: 0, max: 2_000 })`) listed in
/// those options' `OptType::Expr { vars }`; it evaluates to `Vars::ext[slot]`, which the
/// module fills ([`Vars::with`]). Slots are the expansion's own: an option reads only its
/// expansion's variables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct ExtVar {
    pub name: &'static str,
    /// Its index in [`Vars::ext`] (below [`EXT_VARS`]).
    pub slot: u8,
    /// The values it can take in a game, generously (the rule language's overflow and
    /// division warnings).
    pub min: i64,
    pub max: i64,
}

/// The most variables one expansion declares ([`Vars::ext`]).
pub const EXT_VARS: usize = 2;

impl Var {
    /// The core's variables.
    pub const CORE: [Var; 4] = [Var::Tiles, Var::Pennants, Var::Neighbours, Var::Cities];

    pub fn name(self) -> &'static str {
        match self {
            Var::Tiles => "tiles",
            Var::Pennants => "pennants",
            Var::Neighbours => "neighbours",
            Var::Cities => "cities",
            Var::Ext(e) => e.name,
        }
    }

    /// The variable named `s`: one of the core's, or of `declared` (an option's variables).
    pub fn parse(s: &str, declared: &[Var]) -> Option<Var> {
        Var::CORE
            .iter()
            .chain(declared)
            .copied()
            .find(|v| v.name() == s)
    }
}

/// A step table: the value of the first row whose range holds the input.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Table {
    /// `(low, high inclusive or open, value)`, sorted by `low`, non-overlapping.
    pub rows: Vec<(i64, Option<i64>, i64)>,
}

impl Table {
    /// The value for `x`; 0 when no row holds it.
    pub fn lookup(&self, x: i64) -> i64 {
        for &(lo, hi, v) in &self.rows {
            if x >= lo && hi.is_none_or(|h| x <= h) {
                return v;
            }
        }
        0
    }
}

/// A small integer arithmetic expression over [`Var`]s. Arithmetic saturates, division rounds
/// toward −∞, and a division by zero (or one that overflows) yields 0, so evaluation never
/// fails.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Expr {
    Num(i64),
    Var(Var),
    Add(Box<Expr>, Box<Expr>),
    Sub(Box<Expr>, Box<Expr>),
    Mul(Box<Expr>, Box<Expr>),
    Div(Box<Expr>, Box<Expr>),
    /// Division rounding up: `ceil(a / b)`.
    DivUp(Box<Expr>, Box<Expr>),
    Min(Box<Expr>, Box<Expr>),
    Max(Box<Expr>, Box<Expr>),
    /// `table(expr) { lo..hi: value, … }`
    Table(Box<Expr>, Table),
}

/// Values for the variables an expression reads; unused ones may stay 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Vars {
    pub tiles: i64,
    pub pennants: i64,
    pub neighbours: i64,
    pub cities: i64,
    /// The values of an expansion's variables, by [`ExtVar::slot`].
    pub ext: [i64; EXT_VARS],
}

impl Vars {
    fn get(&self, v: Var) -> i64 {
        match v {
            Var::Tiles => self.tiles,
            Var::Pennants => self.pennants,
            Var::Neighbours => self.neighbours,
            Var::Cities => self.cities,
            Var::Ext(e) => self.ext.get(e.slot as usize).copied().unwrap_or(0),
        }
    }

    /// These values with `v` set to `x`.
    pub fn with(mut self, v: Var, x: i64) -> Vars {
        match v {
            Var::Tiles => self.tiles = x,
            Var::Pennants => self.pennants = x,
            Var::Neighbours => self.neighbours = x,
            Var::Cities => self.cities = x,
            Var::Ext(e) => {
                if let Some(slot) = self.ext.get_mut(e.slot as usize) {
                    *slot = x;
                }
            }
        }
        self
    }
}

impl Expr {
    pub fn num(n: i64) -> Expr {
        Expr::Num(n)
    }
    pub fn var(v: Var) -> Expr {
        Expr::Var(v)
    }
    pub fn sum(a: Expr, b: Expr) -> Expr {
        Expr::Add(Box::new(a), Box::new(b))
    }
    pub fn product(a: Expr, b: Expr) -> Expr {
        Expr::Mul(Box::new(a), Box::new(b))
    }
    /// `k * v`
    pub fn times(k: i64, v: Var) -> Expr {
        Expr::product(Expr::Num(k), Expr::Var(v))
    }

    pub fn eval(&self, vars: &Vars) -> i64 {
        match self {
            Expr::Num(n) => *n,
            Expr::Var(v) => vars.get(*v),
            Expr::Add(a, b) => a.eval(vars).saturating_add(b.eval(vars)),
            Expr::Sub(a, b) => a.eval(vars).saturating_sub(b.eval(vars)),
            Expr::Mul(a, b) => a.eval(vars).saturating_mul(b.eval(vars)),
            Expr::Div(a, b) => a.eval(vars).checked_div_euclid(b.eval(vars)).unwrap_or(0),
            Expr::DivUp(a, b) => {
                // ceil(n / d) = −floor(−n / d); every step checked
                let (n, d) = (a.eval(vars), b.eval(vars));
                n.checked_neg()
                    .and_then(|m| m.checked_div_euclid(d))
                    .and_then(i64::checked_neg)
                    .unwrap_or(0)
            }
            Expr::Min(a, b) => a.eval(vars).min(b.eval(vars)),
            Expr::Max(a, b) => a.eval(vars).max(b.eval(vars)),
            Expr::Table(x, t) => t.lookup(x.eval(vars)),
        }
    }

    /// Variables this expression reads (for validation: a city formula may not read
    /// `pennants`, …).
    pub fn vars(&self, out: &mut Vec<Var>) {
        match self {
            Expr::Num(_) => {}
            Expr::Var(v) => {
                if !out.contains(v) {
                    out.push(*v)
                }
            }
            Expr::Add(a, b)
            | Expr::Sub(a, b)
            | Expr::Mul(a, b)
            | Expr::Div(a, b)
            | Expr::DivUp(a, b)
            | Expr::Min(a, b)
            | Expr::Max(a, b) => {
                a.vars(out);
                b.vars(out);
            }
            Expr::Table(x, _) => x.vars(out),
        }
    }
}

impl fmt::Display for Expr {
    /// Prints in the rule language's own syntax (fully parenthesised where needed).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn bin(f: &mut fmt::Formatter<'_>, a: &Expr, op: &str, b: &Expr) -> fmt::Result {
            write!(f, "({a} {op} {b})")
        }
        match self {
            Expr::Num(n) => write!(f, "{n}"),
            Expr::Var(v) => f.write_str(v.name()),
            Expr::Add(a, b) => bin(f, a, "+", b),
            Expr::Sub(a, b) => bin(f, a, "-", b),
            Expr::Mul(a, b) => bin(f, a, "*", b),
            Expr::Div(a, b) => bin(f, a, "/", b),
            Expr::DivUp(a, b) => write!(f, "ceil({a} / {b})"),
            Expr::Min(a, b) => write!(f, "min({a}, {b})"),
            Expr::Max(a, b) => write!(f, "max({a}, {b})"),
            Expr::Table(x, t) => {
                write!(f, "table({x}) {{ ")?;
                for (i, (lo, hi, v)) in t.rows.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    match hi {
                        Some(h) => write!(f, "{lo}..{h}: {v}")?,
                        None => write!(f, "{lo}..: {v}")?,
                    }
                }
                f.write_str(" }")
            }
        }
    }
}

/// How farms are scored at the end (rules.md §1.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum FarmRule {
    /// 3rd edition (2002 on): each field pays its majority `farm_city` per adjacent completed city.
    PerField,
    /// 2nd edition (~2001): as `PerField`, but a player is paid for a given city at most once.
    OncePerPlayer,
    /// 1st edition (2000): per completed city, the player(s) with most farmers in all fields
    /// touching it get `farm_city` points.
    CityCentric,
    /// No farmers at all: followers may not be placed in fields.
    Off,
}

/// What happens to a drawn tile that fits nowhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Unplaceable {
    /// Removed from the game; draw again (canonical).
    Discard,
    /// Shuffled back into the remaining pack; draw again.
    Reshuffle,
}

/// Scoring formulas of the base game.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Scoring {
    pub road_complete: Expr,
    pub road_final: Expr,
    pub city_complete: Expr,
    /// Completed city of exactly two tiles, when it differs (pre-2002: `tiles + pennants`).
    pub city_small_complete: Option<Expr>,
    pub city_final: Expr,
    pub cloister_complete: Expr,
    pub cloister_final: Expr,
    pub farm: FarmRule,
    /// Points a farm pays per completed city (reads `cities` = 1 per city; 3 or 4).
    pub farm_city: Expr,
}

/// How one option was set, for `meeplab diff` and reports.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OptionSetting {
    /// The value as written in the rule language.
    pub value: String,
    /// `source:` tag, if any (HiG, RGG, ZMG, house, a URL).
    pub source: Option<String>,
    /// File that set it (after inheritance).
    pub file: Option<String>,
}

/// One entry of the deck: a tile type and how many copies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct DeckEntry {
    pub tile: TileIdx,
    pub count: u16,
}

/// A complete, validated ruleset.
#[derive(Clone, Debug, Serialize)]
pub struct Ruleset {
    pub name: String,
    /// File it was loaded from, if any.
    pub file: Option<String>,
    /// Stable content hash (hex) of the resolved ruleset: equal rules, equal hash, whatever
    /// the file names or ruleset name.
    pub hash: String,
    pub min_players: u8,
    pub max_players: u8,
    pub followers: u8,
    /// All tile types the deck and start tile use.
    pub tiles: Vec<TileType>,
    /// Copies per tile type; the start tile's copy is included here and taken out.
    pub deck: Vec<DeckEntry>,
    pub start: TileIdx,
    pub unplaceable: Unplaceable,
    /// Tiles each player holds (the `hand` house rule, 1..=[`MAX_HAND`]): 1 is the printed
    /// rule (draw a tile and play it); with N > 1 each player holds N - 1 tiles between turns,
    /// draws one and chooses which of the N to play (Board Game Arena's "strategic variant",
    /// JCloisterZone issue #291).
    pub hand: u8,
    pub scoring: Scoring,
    /// Every option key with its value and provenance (`scoring.farm`, `gold.split`, …).
    pub options: BTreeMap<String, OptionSetting>,
    /// The typed values of the options of expansions that declare them in their own module
    /// (`Area::Expansion`), by key, for the expansions in play (those the ruleset sets an
    /// option of); each module reads its own.
    pub ext: BTreeMap<String, ExtValue>,
}

/// A typed value of an expansion-declared option (see [`Ruleset::ext`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum ExtValue {
    Int(i64),
    Range(i64, i64),
    Bool(bool),
    /// A choice: its name and its arguments (name, value).
    Choice(&'static str, Vec<(&'static str, &'static str)>),
    Expr(Expr),
    /// `none`, for an expression option that allows it.
    None,
}

impl Ruleset {
    /// Whether the ruleset sets any option starting with `prefix` (an expansion's block,
    /// `towers.`): that expansion is in play.
    pub fn ext_in_play(&self, prefix: &str) -> bool {
        self.ext.keys().any(|k| k.starts_with(prefix))
    }

    /// The integer value of expansion option `key`.
    pub fn ext_int(&self, key: &str) -> Option<i64> {
        match self.ext.get(key)? {
            ExtValue::Int(n) => Some(*n),
            _ => None,
        }
    }

    /// The chosen name of expansion choice option `key`.
    pub fn ext_choice(&self, key: &str) -> Option<&'static str> {
        match self.ext.get(key)? {
            ExtValue::Choice(name, _) => Some(name),
            _ => None,
        }
    }
}

impl Ruleset {
    /// Total tiles including the start tile.
    pub fn total_tiles(&self) -> usize {
        self.deck.iter().map(|d| d.count as usize).sum()
    }

    pub fn tile_index(&self, id: &str) -> Option<TileIdx> {
        self.tiles
            .iter()
            .position(|t| t.id == id)
            .map(|i| i as TileIdx)
    }

    pub fn tile_by_jcz(&self, jcz: &str) -> Option<TileIdx> {
        self.tiles
            .iter()
            .position(|t| t.jcz_id.as_deref() == Some(jcz))
            .map(|i| i as TileIdx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_rounds_and_never_panics() {
        const POINTS: Var = Var::Ext(ExtVar {
            name: "points",
            slot: 1,
            min: -1_000,
            max: 1_000,
        });
        let half_up = Expr::DivUp(Box::new(Expr::var(POINTS)), Box::new(Expr::num(2)));
        let v = |p| Vars::default().with(POINTS, p);
        assert_eq!(half_up.eval(&v(5)), 3);
        assert_eq!(half_up.eval(&v(4)), 2);
        let by_zero = Expr::Div(Box::new(Expr::num(5)), Box::new(Expr::num(0)));
        assert_eq!(by_zero.eval(&v(0)), 0);
        let overflow = Expr::Div(Box::new(Expr::num(i64::MIN)), Box::new(Expr::num(-1)));
        assert_eq!(overflow.eval(&v(0)), 0);
        let up_overflow = Expr::DivUp(Box::new(Expr::num(i64::MIN)), Box::new(Expr::num(2)));
        assert_eq!(up_overflow.eval(&v(0)), 0);
        let big = Expr::product(Expr::num(i64::MAX), Expr::num(3));
        assert_eq!(big.eval(&v(0)), i64::MAX);
    }
}
