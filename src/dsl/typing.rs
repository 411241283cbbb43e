//! Typing of option values: turns a written [`ast::Value`] into a [`Typed`] value according
//! to the option's registry type (integers, ranges, booleans, choices with arguments,
//! scoring expressions and lookup tables), reporting every type error with its span.

#[cfg(test)]
use super::ast::Item;
use super::ast::{BinOp, Value, ValueKind};
use super::codes;
use super::lexer::PErr;
use super::registry::{choice_syntax, closest_first, Choice, OptType, OptionDef};
use crate::ruleset::{Expr, Table, Var};

/// A typed option value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Typed {
    Int(i64),
    Range(i64, i64),
    Bool(bool),
    Choice {
        name: &'static str,
        args: Vec<(&'static str, &'static str)>,
    },
    Expr(Expr),
    /// `none` for an expression option that allows it.
    NoExpr,
}

impl Typed {
    /// Canonical text in the rule language (what `diff` compares and `print` writes).
    pub fn text(&self) -> String {
        match self {
            Typed::Int(n) => n.to_string(),
            Typed::Range(a, b) => format!("{a}..{b}"),
            Typed::Bool(b) => b.to_string(),
            Typed::Choice { name, args } => {
                if args.is_empty() {
                    name.to_string()
                } else {
                    let a: Vec<String> = args.iter().map(|(k, v)| format!("{k}: {v}")).collect();
                    format!("{name}({})", a.join(", "))
                }
            }
            Typed::Expr(e) => super::print::expr(e),
            Typed::NoExpr => "none".to_string(),
        }
    }
}

fn found(v: &Value) -> String {
    match &v.kind {
        ValueKind::Int(n) => format!("the integer {n}"),
        ValueKind::Str(_) => "a string".into(),
        ValueKind::Ident(s) => format!("`{s}`"),
        ValueKind::Range(..) => "a range".into(),
        ValueKind::Call { name, .. } => format!("`{}(…)`", name.text),
        ValueKind::Bin(..) | ValueKind::Neg(_) => "an expression".into(),
    }
}

fn mismatch(def: &OptionDef, v: &Value) -> PErr {
    PErr::new(
        &codes::TYPE_MISMATCH,
        v.span.start,
        v.span.end,
        format!(
            "`{}` expects {}, found {}",
            def.key,
            def.ty.describe(),
            found(v)
        ),
    )
}

fn out_of_range(def: &OptionDef, v: &Value, what: String) -> PErr {
    PErr::new(&codes::OUT_OF_RANGE, v.span.start, v.span.end, what).with_help(format!(
        "`{}` takes {}",
        def.key,
        def.ty.describe()
    ))
}

/// Type `v` as a value of option `def`.
pub fn type_value(def: &OptionDef, v: &Value) -> Result<Typed, Vec<PErr>> {
    match &def.ty {
        OptType::Int { min, max } => match v.kind {
            ValueKind::Int(n) if n >= *min && n <= *max => Ok(Typed::Int(n)),
            ValueKind::Int(n) => Err(vec![out_of_range(
                def,
                v,
                format!("{n} is out of range for `{}`", def.key),
            )]),
            _ => Err(vec![mismatch(def, v)]),
        },
        OptType::Range { min, max } => {
            let (lo, hi) = match v.kind {
                ValueKind::Int(n) => (n, n),
                ValueKind::Range(lo, Some(hi)) => (lo, hi),
                ValueKind::Range(_, None) => {
                    return Err(vec![PErr::new(
                        &codes::TYPE_MISMATCH,
                        v.span.start,
                        v.span.end,
                        format!("`{}` needs an upper bound", def.key),
                    )
                    .with_help(format!("write e.g. `{}`", def.default))])
                }
                _ => return Err(vec![mismatch(def, v)]),
            };
            if lo > hi {
                return Err(vec![out_of_range(
                    def,
                    v,
                    format!("empty range {lo}..{hi}"),
                )]);
            }
            if lo < *min || hi > *max {
                return Err(vec![out_of_range(
                    def,
                    v,
                    format!("{lo}..{hi} is out of range for `{}`", def.key),
                )]);
            }
            Ok(Typed::Range(lo, hi))
        }
        OptType::Bool => match &v.kind {
            ValueKind::Ident(s) if s == "true" => Ok(Typed::Bool(true)),
            ValueKind::Ident(s) if s == "false" => Ok(Typed::Bool(false)),
            _ => Err(vec![mismatch(def, v)]),
        },
        OptType::Choice(cs) => type_choice(def, cs, v),
        OptType::Expr { vars, none_ok } => {
            if let ValueKind::Ident(s) = &v.kind {
                if s == "none" {
                    return if *none_ok {
                        Ok(Typed::NoExpr)
                    } else {
                        Err(vec![mismatch(def, v)])
                    };
                }
            }
            let mut errs = Vec::new();
            let e = to_expr(def, vars, v, &mut errs);
            if errs.is_empty() {
                Ok(Typed::Expr(e))
            } else {
                Err(errs)
            }
        }
    }
}

fn type_choice(def: &OptionDef, cs: &'static [Choice], v: &Value) -> Result<Typed, Vec<PErr>> {
    let (name, args, name_span) = match &v.kind {
        ValueKind::Ident(s) => (s.as_str(), &[][..], v.span),
        ValueKind::Call {
            name,
            args,
            rows: None,
        } => (name.text.as_str(), &args[..], name.span),
        _ => return Err(vec![mismatch(def, v)]),
    };
    let Some(c) = cs.iter().find(|c| c.name == name) else {
        let names = closest_first(name, cs.iter().map(|c| c.name));
        let full: Vec<String> = names
            .iter()
            .filter_map(|n| cs.iter().find(|c| c.name == n.as_str()))
            .map(choice_syntax)
            .collect();
        return Err(vec![PErr::new(
            &codes::UNKNOWN_CHOICE,
            name_span.start,
            name_span.end,
            format!("`{name}` is not a value of `{}`", def.key),
        )
        .with_help(format!("expected one of: {}", full.join(", ")))]);
    };
    let mut errs = Vec::new();
    let mut out: Vec<(&'static str, &'static str)> = Vec::new();
    for a in args {
        let Some(label) = &a.name else {
            errs.push(
                PErr::new(
                    &codes::BAD_CALL,
                    a.value.span.start,
                    a.value.span.end,
                    "arguments of a choice must be named",
                )
                .with_help(format!("write {}", choice_syntax(c))),
            );
            continue;
        };
        let Some(ad) = c.args.iter().find(|d| d.name == label.text) else {
            let help = if c.args.is_empty() {
                format!("`{}` takes no arguments", c.name)
            } else {
                format!(
                    "arguments of `{}`: {}",
                    c.name,
                    closest_first(&label.text, c.args.iter().map(|d| d.name)).join(", ")
                )
            };
            errs.push(
                PErr::new(
                    &codes::BAD_CALL,
                    label.span.start,
                    label.span.end,
                    format!("unknown argument `{}`", label.text),
                )
                .with_help(help),
            );
            continue;
        };
        if out.iter().any(|(k, _)| *k == ad.name) {
            errs.push(PErr::new(
                &codes::BAD_CALL,
                label.span.start,
                label.span.end,
                format!("argument `{}` given twice", ad.name),
            ));
            continue;
        }
        let val = match &a.value.kind {
            ValueKind::Ident(s) => ad.values.iter().find(|x| **x == s.as_str()).copied(),
            _ => None,
        };
        match val {
            Some(x) => out.push((ad.name, x)),
            None => errs.push(
                PErr::new(
                    &codes::UNKNOWN_CHOICE,
                    a.value.span.start,
                    a.value.span.end,
                    format!("invalid value for `{}`", ad.name),
                )
                .with_help(format!("expected one of: {}", ad.values.join(", "))),
            ),
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    // canonical: every argument, in declaration order, defaults filled in
    let args = c
        .args
        .iter()
        .map(|d| {
            (
                d.name,
                out.iter()
                    .find(|(k, _)| *k == d.name)
                    .map_or(d.values[0], |(_, v)| *v),
            )
        })
        .collect();
    Ok(Typed::Choice { name: c.name, args })
}

/// Convert a value to an expression over `vars`, collecting errors.
pub fn to_expr(def: &OptionDef, vars: &[Var], v: &Value, errs: &mut Vec<PErr>) -> Expr {
    let bad = |errs: &mut Vec<PErr>, e: PErr| {
        errs.push(e);
        Expr::Num(0)
    };
    match &v.kind {
        ValueKind::Int(n) => Expr::Num(*n),
        ValueKind::Ident(s) => match Var::parse(s, vars).filter(|x| vars.contains(x)) {
            Some(x) => Expr::Var(x),
            None => {
                let names: Vec<&str> = vars.iter().map(|x| x.name()).collect();
                let help = if names.is_empty() {
                    format!("`{}` reads no variables: write a number", def.key)
                } else {
                    format!(
                        "`{}` may read: {}",
                        def.key,
                        closest_first(s, names.into_iter()).join(", ")
                    )
                };
                bad(
                    errs,
                    PErr::new(
                        &codes::UNKNOWN_VARIABLE,
                        v.span.start,
                        v.span.end,
                        format!("unknown variable `{s}` in `{}`", def.key),
                    )
                    .with_help(help),
                )
            }
        },
        ValueKind::Bin(op, a, b) => {
            let (a, b) = (to_expr(def, vars, a, errs), to_expr(def, vars, b, errs));
            let (a, b) = (Box::new(a), Box::new(b));
            match op {
                BinOp::Add => Expr::Add(a, b),
                BinOp::Sub => Expr::Sub(a, b),
                BinOp::Mul => Expr::Mul(a, b),
                BinOp::Div => Expr::Div(a, b),
            }
        }
        ValueKind::Neg(a) => match to_expr(def, vars, a, errs) {
            Expr::Num(n) if n != i64::MIN => Expr::Num(-n),
            e => Expr::Sub(Box::new(Expr::Num(0)), Box::new(e)),
        },
        ValueKind::Call { name, args, rows } => {
            let positional: Vec<&Value> = args.iter().map(|a| &a.value).collect();
            if let Some(a) = args.iter().find_map(|a| a.name.as_ref()) {
                return bad(
                    errs,
                    PErr::new(
                        &codes::BAD_CALL,
                        a.span.start,
                        a.span.end,
                        "function arguments are not named",
                    ),
                );
            }
            let arity = |n: usize, errs: &mut Vec<PErr>| {
                if positional.len() != n {
                    errs.push(PErr::new(
                        &codes::BAD_CALL,
                        v.span.start,
                        v.span.end,
                        format!(
                            "`{}` takes {n} argument{}, found {}",
                            name.text,
                            if n == 1 { "" } else { "s" },
                            positional.len()
                        ),
                    ));
                    false
                } else {
                    true
                }
            };
            match name.text.as_str() {
                "min" | "max" => {
                    if !arity(2, errs) {
                        return Expr::Num(0);
                    }
                    let a = Box::new(to_expr(def, vars, positional[0], errs));
                    let b = Box::new(to_expr(def, vars, positional[1], errs));
                    if name.text == "min" {
                        Expr::Min(a, b)
                    } else {
                        Expr::Max(a, b)
                    }
                }
                "ceil" => {
                    if !arity(1, errs) {
                        return Expr::Num(0);
                    }
                    match &positional[0].kind {
                        ValueKind::Bin(BinOp::Div, a, b) => Expr::DivUp(
                            Box::new(to_expr(def, vars, a, errs)),
                            Box::new(to_expr(def, vars, b, errs)),
                        ),
                        _ => bad(
                            errs,
                            PErr::new(
                                &codes::BAD_CALL,
                                positional[0].span.start,
                                positional[0].span.end,
                                "`ceil` takes a division",
                            )
                            .with_help("write e.g. `ceil(points / 2)`"),
                        ),
                    }
                }
                "table" => {
                    if !arity(1, errs) {
                        return Expr::Num(0);
                    }
                    let x = to_expr(def, vars, positional[0], errs);
                    let rows = rows.as_deref().unwrap_or(&[]);
                    let mut t = Table { rows: Vec::new() };
                    for r in rows {
                        if let Some(h) = r.hi {
                            if h < r.lo {
                                errs.push(PErr::new(
                                    &codes::BAD_TABLE,
                                    r.span.start,
                                    r.span.end,
                                    format!("empty table row {}..{h}", r.lo),
                                ));
                                continue;
                            }
                        }
                        if let Some(&(plo, phi, _)) = t.rows.last() {
                            let ok = phi.is_some_and(|h| h < r.lo) && plo < r.lo;
                            if !ok {
                                errs.push(
                                    PErr::new(&codes::BAD_TABLE, r.span.start, r.span.end, "table rows overlap or are out of order")
                                        .with_help("rows must be sorted by their low bound and must not overlap; only the last row may be open (`10..`)"),
                                );
                                continue;
                            }
                        }
                        t.rows.push((r.lo, r.hi, r.value));
                    }
                    if rows.is_empty() {
                        errs.push(PErr::new(
                            &codes::BAD_TABLE,
                            v.span.start,
                            v.span.end,
                            "a table needs at least one row",
                        ));
                    }
                    Expr::Table(Box::new(x), t)
                }
                other => {
                    let help = format!(
                        "functions: {}",
                        closest_first(other, ["ceil", "min", "max", "table"].into_iter())
                            .join(", ")
                    );
                    bad(
                        errs,
                        PErr::new(
                            &codes::BAD_CALL,
                            name.span.start,
                            name.span.end,
                            format!("unknown function `{other}`"),
                        )
                        .with_help(help),
                    )
                }
            }
        }
        ValueKind::Str(_) | ValueKind::Range(..) => bad(errs, mismatch(def, v)),
    }
}

/// The values a variable can take in a game, generously: a deck holds at most 2,000 tiles
/// (the engine's board limit), a cloister has 8 neighbours; an expansion's variable declares
/// its own bounds.
fn var_bounds(v: Var) -> (i128, i128) {
    const DECK: i128 = 2_000;
    match v {
        Var::Neighbours => (0, 8),
        Var::Tiles | Var::Pennants | Var::Cities => (0, DECK),
        Var::Ext(e) => (e.min as i128, e.max as i128),
    }
}

/// The variables an expression option may read.
fn declared_vars(def: &OptionDef) -> &'static [Var] {
    match def.ty {
        OptType::Expr { vars, .. } => vars,
        _ => &[],
    }
}

/// Warnings about a scoring formula that type-checked: a division whose divisor is (or can
/// be) zero — the engine then scores 0 — and arithmetic that can leave the 64-bit range —
/// the engine then saturates, and the statistics of such scores cannot be exact. Bounds are
/// computed by interval arithmetic over [`var_bounds`]. Codes: `W0201` division by zero,
/// `W0202` overflow. Values of other types get no warnings.
pub fn formula_warnings(def: &OptionDef, v: &Value) -> Vec<PErr> {
    let mut out = Vec::new();
    if matches!(def.ty, OptType::Expr { .. }) {
        bounds(def, v, &mut out);
    }
    out
}

/// The range of `v` (saturating at the `i128` limits), pushing warnings on the way.
fn bounds(def: &OptionDef, v: &Value, out: &mut Vec<PErr>) -> (i128, i128) {
    let range = match &v.kind {
        ValueKind::Int(n) => (*n as i128, *n as i128),
        ValueKind::Ident(s) => Var::parse(s, declared_vars(def))
            .map(var_bounds)
            .unwrap_or((0, 0)),
        ValueKind::Neg(a) => {
            let (lo, hi) = bounds(def, a, out);
            (hi.saturating_neg(), lo.saturating_neg())
        }
        ValueKind::Bin(op, a, b) => {
            let (x, y) = (bounds(def, a, out), bounds(def, b, out));
            match op {
                BinOp::Add => (x.0.saturating_add(y.0), x.1.saturating_add(y.1)),
                BinOp::Sub => (x.0.saturating_sub(y.1), x.1.saturating_sub(y.0)),
                BinOp::Mul => corners(x, y, i128::saturating_mul),
                BinOp::Div => division(def, b, x, y, out),
            }
        }
        ValueKind::Call { name, args, rows } => {
            let arg = |i: usize, out: &mut Vec<PErr>| {
                args.get(i)
                    .map(|a| bounds(def, &a.value, out))
                    .unwrap_or((0, 0))
            };
            match name.text.as_str() {
                "min" => {
                    let (x, y) = (arg(0, out), arg(1, out));
                    (x.0.min(y.0), x.1.min(y.1))
                }
                "max" => {
                    let (x, y) = (arg(0, out), arg(1, out));
                    (x.0.max(y.0), x.1.max(y.1))
                }
                "table" => {
                    arg(0, out);
                    // a value outside every row scores 0
                    rows.iter().flatten().fold((0, 0), |(lo, hi), r| {
                        (lo.min(r.value as i128), hi.max(r.value as i128))
                    })
                }
                // `ceil(a / b)`: the division inside warns
                _ => {
                    let (lo, hi) = arg(0, out);
                    (lo.saturating_sub(1), hi.saturating_add(1))
                }
            }
        }
        ValueKind::Str(_) | ValueKind::Range(..) => (0, 0),
    };
    let fits = |x: i128| i64::try_from(x).is_ok();
    let already = out.iter().any(|w| w.code == &codes::FORMULA_OVERFLOW);
    let fits_both = fits(range.0) && fits(range.1);
    if !already && !fits_both {
        out.push(
            PErr::new(
                &codes::FORMULA_OVERFLOW,
                v.span.start,
                v.span.end,
                format!(
                    "this part of `{}` can pass the 64-bit range ({}..{}), where scores saturate",
                    def.key,
                    show(range.0),
                    show(range.1)
                ),
            )
            .with_help("statistics of saturated scores cannot be exact; use smaller numbers"),
        );
    }
    range
}

/// The range of `a / b` for `a` in `x` and `b` in `y`; warns when `b` can be 0.
fn division(
    def: &OptionDef,
    divisor: &Value,
    x: (i128, i128),
    y: (i128, i128),
    out: &mut Vec<PErr>,
) -> (i128, i128) {
    if y.0 <= 0 && 0 <= y.1 {
        let (msg, help) = if y == (0, 0) {
            (
                format!(
                    "`{}` divides by zero: this division always gives 0",
                    def.key
                ),
                "write the divisor you meant",
            )
        } else {
            (
                format!(
                    "the divisor in `{}` can be zero ({}..{}); the division then gives 0",
                    def.key,
                    show(y.0),
                    show(y.1)
                ),
                "guard the divisor, e.g. `max(1, …)`",
            )
        };
        out.push(
            PErr::new(
                &codes::DIVISION_BY_ZERO,
                divisor.span.start,
                divisor.span.end,
                msg,
            )
            .with_help(help),
        );
        // |a / b| ≤ |a| for any non-zero integer b, and 0 when b = 0
        let m =
            x.0.unsigned_abs()
                .max(x.1.unsigned_abs())
                .min(i128::MAX as u128) as i128;
        return (-m, m);
    }
    corners(x, y, |a, b| a / b)
}

/// Smallest and largest of `f` over the corners of two ranges (exact for `*` and for `/` by
/// a range without zero).
fn corners(x: (i128, i128), y: (i128, i128), f: impl Fn(i128, i128) -> i128) -> (i128, i128) {
    let c = [f(x.0, y.0), f(x.0, y.1), f(x.1, y.0), f(x.1, y.1)];
    (
        c.iter().copied().min().unwrap_or(0),
        c.iter().copied().max().unwrap_or(0),
    )
}

fn show(x: i128) -> String {
    if x <= i128::MIN / 2 {
        "−∞".into()
    } else if x >= i128::MAX / 2 {
        "∞".into()
    } else {
        x.to_string()
    }
}

#[cfg(test)]
mod formula_tests {
    use super::*;
    use crate::dsl::registry::all_options;

    fn warnings(key: &str, text: &str) -> Vec<(&'static str, String)> {
        let def = all_options().find(|d| d.key == key).expect("option");
        let src = format!("{key} = {text}\n");
        let (file, errs) = crate::dsl::parse::parse_file(&src);
        assert!(errs.is_empty(), "{errs:?}");
        let value = file
            .items
            .iter()
            .find_map(|i| match i {
                Item::Option(s) => Some(s.value.clone()),
                _ => None,
            })
            .expect("a setting");
        formula_warnings(def, &value)
            .into_iter()
            .map(|w| (w.code.id, w.msg))
            .collect()
    }

    #[test]
    fn division_by_zero_and_overflow_are_warned() {
        let w = warnings("score.road.complete", "tiles / 0");
        assert_eq!(w.len(), 1, "{w:?}");
        assert_eq!(w[0].0, "W0201");
        assert!(w[0].1.contains("divides by zero"), "{w:?}");
        let w = warnings("score.road.complete", "10 / (tiles - 1)");
        assert_eq!(w[0].0, "W0201");
        assert!(w[0].1.contains("can be zero (-1..1999)"), "{w:?}");
        let w = warnings("score.road.complete", "1000000000 * 1000000000 * tiles");
        assert_eq!(w.len(), 1, "{w:?}");
        assert_eq!(w[0].0, "W0202");
        // ordinary formulas are quiet
        assert!(warnings("score.road.complete", "tiles").is_empty());
        assert!(warnings("score.city.complete", "2 * tiles + 2 * pennants").is_empty());
        assert!(warnings("score.road.complete", "ceil(tiles / 2)").is_empty());
    }
}
