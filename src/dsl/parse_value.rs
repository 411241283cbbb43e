//! The value grammar: option values and scoring formulas — sums, products, unary minus,
//! integers and ranges, strings, names, calls with (named) arguments and step tables — with
//! the limits on one value: at most [`MAX_OPERANDS`] operands (E0112), nesting at most
//! [`MAX_DEPTH`] deep (E0110), numbers within ±[`MAX_LITERAL`] (E0105). The items around
//! values are [`super::parse`]'s.
//!
//! ```text
//! value    := sum ; sum := product (("+"|"-") product)* ; product := unary (("*"|"/") unary)*
//! unary    := "-" unary | atom
//! atom     := INT [".." [INT]] | STRING | "(" sum ")" | IDENT ["(" args ")" ["{" rows "}"]]
//! ```

use super::ast::*;
use super::codes;
use super::lexer::*;
use super::parse::{expect, fail, off, sp, text_of};
use nom::combinator::opt;
use nom::Parser;

/// Deepest nesting of parentheses / unary minus / call arguments in one value.
pub const MAX_DEPTH: u32 = 64;
/// Most operands in one value (E0112): every number, name, string, range and call counts,
/// nested ones included, and a unary minus counts one more (its implicit `0`). Together with
/// [`MAX_DEPTH`] this bounds the depth of the expression tree (`a + b + c …` nests to the
/// left) to a few hundred levels, which typing, printing, evaluating and dropping walk
/// recursively.
pub const MAX_OPERANDS: u32 = 256;
/// Largest magnitude of a number in a value (E0105).
pub const MAX_LITERAL: i64 = 1_000_000_000;

/// A value (see the grammar above). `depth` bounds nesting; the whole value may have at
/// most [`MAX_OPERANDS`] operands (E0112).
pub fn value(i: Span<'_>, depth: u32) -> PResult<'_, Value> {
    let mut n = 0;
    let (j, v) = sum(i, depth, &mut n)?;
    if n > MAX_OPERANDS {
        // the whole expression was read (without building its tree past the limit), so the
        // span covers all of it and recovery starts after it
        let (start, end) = (v.span.start, off(j));
        let mut e = PErr::new(
            &codes::EXPRESSION_TOO_LONG,
            start,
            end,
            format!("expression too long: {n} operands, more than {MAX_OPERANDS}"),
        )
        .with_help(format!(
            "a value may have at most {MAX_OPERANDS} operands (numbers, names and calls, \
             nested ones included); simplify it, e.g. `tiles + 1 + 1` is `tiles + 2`"
        ));
        e.resume = Some(end);
        return fail(e);
    }
    Ok((j, v))
}

/// Has the value being parsed used up its operands? Past the limit the parser still reads
/// the expression to its end but builds no more tree.
fn over(n: &u32) -> bool {
    *n > MAX_OPERANDS
}

fn sum<'a>(i: Span<'a>, depth: u32, n: &mut u32) -> PResult<'a, Value> {
    let (mut i, mut lhs) = product(i, depth, n)?;
    loop {
        let j = skip_ws(i);
        let op = match j.fragment().chars().next() {
            Some('+') if !j.fragment().starts_with("+=") => BinOp::Add,
            Some('-') if !j.fragment().starts_with("->") => BinOp::Sub,
            _ => return Ok((i, lhs)),
        };
        let (k, _) = nom::Input::take_split(&j, 1);
        let (k, rhs) = product(k, depth, n)?;
        if !over(n) {
            let span = lhs.span.to(rhs.span);
            lhs = Value {
                kind: ValueKind::Bin(op, Box::new(lhs), Box::new(rhs)),
                span,
            };
        }
        i = k;
    }
}

fn product<'a>(i: Span<'a>, depth: u32, n: &mut u32) -> PResult<'a, Value> {
    let (mut i, mut lhs) = unary(i, depth, n)?;
    loop {
        let j = skip_ws(i);
        let op = match j.fragment().chars().next() {
            Some('*') => BinOp::Mul,
            Some('/') => BinOp::Div,
            _ => return Ok((i, lhs)),
        };
        let (k, _) = nom::Input::take_split(&j, 1);
        let (k, rhs) = unary(k, depth, n)?;
        if !over(n) {
            let span = lhs.span.to(rhs.span);
            lhs = Value {
                kind: ValueKind::Bin(op, Box::new(lhs), Box::new(rhs)),
                span,
            };
        }
        i = k;
    }
}

pub(super) fn too_deep(i: Span<'_>) -> PErr {
    let at = off(i);
    PErr::new(
        &codes::NESTED_TOO_DEEPLY,
        at,
        at + 1,
        format!("value nested more than {MAX_DEPTH} levels deep"),
    )
}

fn unary<'a>(i: Span<'a>, depth: u32, n: &mut u32) -> PResult<'a, Value> {
    if depth > MAX_DEPTH {
        return fail(too_deep(i));
    }
    let j = skip_ws(i);
    let f = *j.fragment();
    if f.starts_with('-') && !f[1..].starts_with(|c: char| c.is_ascii_digit()) {
        let start = off(j);
        // `-x` is printed back as `0 - x`: count the implicit 0, so a printed ruleset
        // never has more operands than the text it came from
        *n = n.saturating_add(1);
        let (k, _) = nom::Input::take_split(&j, 1);
        let (k, inner) = unary(k, depth + 1, n)?;
        let span = sp(start, inner.span.end);
        return Ok((
            k,
            Value {
                kind: ValueKind::Neg(Box::new(inner)),
                span,
            },
        ));
    }
    atom(j, depth, n)
}

/// An integer in a value (formula, range, option value, table row): at most
/// [`MAX_LITERAL`] in magnitude (E0105).
fn literal(i: Span<'_>) -> PResult<'_, (i64, usize, usize)> {
    let help = || format!("numbers in values must lie within -{MAX_LITERAL}..={MAX_LITERAL}");
    match integer(i) {
        Ok((_, (v, a, b))) if v.unsigned_abs() > MAX_LITERAL.unsigned_abs() => fail(
            PErr::new(&codes::NUMBER_OUT_OF_RANGE, a, b, "number out of range").with_help(help()),
        ),
        Err(nom::Err::Failure(e)) if e.code == &codes::NUMBER_OUT_OF_RANGE => {
            fail(e.with_help(help()))
        }
        r => r,
    }
}

fn atom<'a>(i: Span<'a>, depth: u32, n: &mut u32) -> PResult<'a, Value> {
    let i = skip_ws(i);
    let start = off(i);
    let f = *i.fragment();
    if f.starts_with('(') {
        let (j, _) = sym('(')(i)?;
        let (j, inner) = sum(j, depth + 1, n)?;
        let (j, _) = expect(sym(')'), "`)`")(j)?;
        return Ok((
            j,
            Value {
                kind: inner.kind,
                span: sp(start, off(j)),
            },
        ));
    }
    *n = n.saturating_add(1);
    if f.starts_with('"') {
        let (j, s) = string(i)?;
        return Ok((
            j,
            Value {
                kind: ValueKind::Str(s),
                span: sp(start, off(j)),
            },
        ));
    }
    if f.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
        let (j, (v, _, _)) = literal(i)?;
        if let Ok((k, _)) = syms("..")(j) {
            let (k, hi) = opt(literal).parse_complete(k)?;
            return Ok((
                k,
                Value {
                    kind: ValueKind::Range(v, hi.map(|h| h.0)),
                    span: sp(start, off(k)),
                },
            ));
        }
        return Ok((
            j,
            Value {
                kind: ValueKind::Int(v),
                span: sp(start, off(j)),
            },
        ));
    }
    let (j, w) = match ident(i) {
        Ok(x) => x,
        Err(_) => return fail(PErr::expected(i, "a value")),
    };
    let name = text_of(w);
    if !skip_ws(j).fragment().starts_with('(') {
        return Ok((
            j,
            Value {
                kind: ValueKind::Ident(name.text),
                span: name.span,
            },
        ));
    }
    let (mut j, _) = sym('(')(j)?;
    let mut args = Vec::new();
    if let Ok((k, _)) = sym(')')(j) {
        j = k;
    } else {
        loop {
            if depth + 1 > MAX_DEPTH {
                return fail(too_deep(j));
            }
            let (k, arg_name) = match arg_label(j) {
                Ok((k, label)) => (k, Some(label)),
                Err(nom::Err::Failure(e)) => return Err(nom::Err::Failure(e)),
                Err(_) => (j, None),
            };
            let (k, v) = sum(k, depth + 1, n)?;
            if !over(n) {
                args.push(Arg {
                    name: arg_name,
                    value: v,
                });
            }
            if let Ok((k2, _)) = sym(',')(k) {
                j = k2;
                continue;
            }
            let (k, _) = expect(sym(')'), "`,` or `)`")(k)?;
            j = k;
            break;
        }
    }
    let rows = if name.text == "table" {
        let (k, _) = expect(
            sym('{'),
            "`{` to open the table rows, e.g. `{ 1..3: 1, 4..: 2 }`",
        )(j)?;
        let (k, rows) = table_rows(k)?;
        j = k;
        Some(rows)
    } else {
        None
    };
    Ok((
        j,
        Value {
            kind: ValueKind::Call { name, args, rows },
            span: sp(start, off(j)),
        },
    ))
}

fn arg_label(i: Span<'_>) -> PResult<'_, Text> {
    let (k, n) = ident(i)?;
    let (k, _) = sym(':')(k)?;
    Ok((k, text_of(n)))
}

fn table_rows(mut i: Span<'_>) -> PResult<'_, Vec<TableRow>> {
    let mut rows = Vec::new();
    loop {
        if let Ok((j, _)) = sym('}')(i) {
            return Ok((j, rows));
        }
        let (j, (lo, a, _)) = expect(literal, "a table row `LOW..HIGH: VALUE` or `}`")(i)?;
        let (j, _) = expect(syms(".."), "`..` (rows are `LOW..HIGH: VALUE`)")(j)?;
        let (j, hi) = opt(literal).parse_complete(j)?;
        let (j, _) = expect(sym(':'), "`:`")(j)?;
        let (j, (v, _, _)) = expect(literal, "the row's value (an integer)")(j)?;
        rows.push(TableRow {
            lo,
            hi: hi.map(|h| h.0),
            value: v,
            span: sp(a, off(j)),
        });
        let (j, _) = opt(sym(',')).parse_complete(j)?;
        i = j;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dsl::parse::parse_file;

    fn ok(text: &str) -> File {
        let (f, errs) = parse_file(text);
        assert!(errs.is_empty(), "{errs:?}");
        f
    }

    /// Depth of the value tree (1 for a leaf).
    fn depth(v: &Value) -> usize {
        match &v.kind {
            ValueKind::Bin(_, a, b) => 1 + depth(a).max(depth(b)),
            ValueKind::Neg(a) => 1 + depth(a),
            ValueKind::Call { args, .. } => {
                1 + args.iter().map(|a| depth(&a.value)).max().unwrap_or(0)
            }
            _ => 1,
        }
    }

    #[test]
    fn operand_limit() {
        let chain = |k: usize| format!("tiles{}", " + 1".repeat(k));
        // 256 operands are fine
        let f = ok(&format!("a = {}\n", chain(MAX_OPERANDS as usize - 1)));
        let Item::Option(o) = &f.items[0] else {
            panic!()
        };
        assert_eq!(depth(&o.value), MAX_OPERANDS as usize);
        // 257 are not: one error over the whole expression, and the next item is read
        let long = chain(MAX_OPERANDS as usize);
        let text = format!("a = {long}\nb = 2\n");
        let (f, errs) = parse_file(&text);
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert_eq!(
            (errs[0].code.id, errs[0].start, errs[0].end),
            ("E0112", 4, 4 + long.len())
        );
        assert_eq!(f.items.len(), 1);
        // a unary minus counts its implicit `0`; operands nested in calls and parentheses count
        let negs = format!("a = {}\n", "-x + ".repeat(128).trim_end_matches(" + "));
        assert!(parse_file(&negs).1.is_empty());
        let negs = format!("a = {}x\n", "-x + ".repeat(128));
        assert_eq!(parse_file(&negs).1[0].code.id, "E0112");
        let nested = |k| format!("a = min(({}), max(1, 2))\n", chain(k));
        assert!(parse_file(&nested(251)).1.is_empty());
        assert_eq!(parse_file(&nested(252)).1[0].code.id, "E0112");
    }

    #[test]
    fn long_chains_are_an_error_not_a_crash() {
        // multi-line, products, calls: ~100,000 operands in well under a megabyte
        let text = format!(
            "ruleset \"x\"\nscore {{ road.complete = tiles{} }}\nb = {}\nc = min({})\nd = 1\n",
            " +\n 1".repeat(30_000),
            vec!["2"; 30_000].join(" * "),
            vec!["(1)"; 30_000].join(", "),
        );
        let (f, errs) = parse_file(&text);
        let codes: Vec<&str> = errs.iter().map(|e| e.code.id).collect();
        assert_eq!(codes, ["E0112", "E0112", "E0112"]);
        assert_eq!(f.items.len(), 2); // ruleset and d
    }

    #[test]
    fn literals_in_values_are_bounded() {
        assert!(parse_file(
            "a = 1000000000 * -1000000000\nt = table(x) { -1000000000..1000000000: 1000000000 }\n"
        )
        .1
        .is_empty());
        for text in [
            "a = 1000000001\n",
            "a = -1000000001\n",
            "a = 2..99999999999\n",
            "a = table(x) { 1..2: 1000000001 }\n",
            "a = table(x) { 1..10000000000: 1 }\n",
            "a = 99999999999999999999999\n",
        ] {
            let errs = parse_file(text).1;
            assert_eq!(errs.len(), 1, "{text}");
            assert_eq!(errs[0].code.id, "E0105", "{text}");
            assert!(errs[0].help.as_deref().unwrap().contains("1000000000"));
        }
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let text = format!("a = {}1{}", "(".repeat(10_000), ")".repeat(10_000));
        let (_, errs) = parse_file(&text);
        assert_eq!(errs[0].code.id, "E0110");
    }
}
