//! The grammar: nom parsers from text to [`ast::File`], collecting syntax errors and
//! recovering at the next top-level item (never per line, so one stray character gives one
//! error, not a cascade).
//!
//! ```text
//! file     := item*
//! item     := "ruleset" STRING | "extends" STRING | "include" STRING | "start" NAME
//!           | "tile" NAME "{" tileprop* "}" | "tileset" NAME "{" (NAME ["x" INT] [","])* "}"
//!           | "deck" ["+="] "{" (NAME ["x" INT] ["only" "[" NAME ("," NAME)* "]"] [","])* "}"
//!           | option
//! option   := KEY "=" value ["source" STRING] | KEY ["source" STRING] "{" option* "}"
//! tileprop := "jcz" NAME | "edges" WORD | "city" SIDE+ ["pennant" | "pennants" INT]
//!           | "road" SIDE+ | "field" HALF+ ["->" SIDE+] | "cloister" | "gold" | "robber"
//!           | "crop" ("city"|"road"|"field") | "decor" IDENT ("," IDENT)*
//! value    := sum ; sum := product (("+"|"-") product)* ; product := unary (("*"|"/") unary)*
//! unary    := "-" unary | atom
//! atom     := INT [".." [INT]] | STRING | "(" sum ")" | IDENT ["(" args ")" ["{" rows "}"]]
//! ```
//!
//! Limits on one value: at most [`MAX_OPERANDS`] operands (E0112), nesting at most 64 deep
//! (E0110), numbers within ±[`MAX_LITERAL`] (E0105).

use super::ast::*;
use super::codes;
use super::lexer::*;
use crate::tiles::{CropKind, HalfEdge, Side};
use nom::combinator::opt;
use nom::Parser;

/// Deepest nesting of parentheses / unary minus / call arguments in one value.
const MAX_DEPTH: u32 = 64;
/// Most operands in one value (E0112): every number, name, string, range and call counts,
/// nested ones included, and a unary minus counts one more (its implicit `0`). Together with
/// [`MAX_DEPTH`] this bounds the depth of the expression tree (`a + b + c …` nests to the
/// left) to a few hundred levels, which typing, printing, evaluating and dropping walk
/// recursively.
pub const MAX_OPERANDS: u32 = 256;
/// Largest magnitude of a number in a value (E0105).
pub const MAX_LITERAL: i64 = 1_000_000_000;
/// Errors collected per file before giving up.
const MAX_ERRORS: usize = 50;

/// The top-level keywords (everything else at the top level is an option).
pub const ITEM_KEYWORDS: [&str; 7] = [
    "ruleset", "extends", "include", "tile", "tileset", "deck", "start",
];

/// Tile property keywords, for "unknown property" help.
pub const TILE_PROPS: [&str; 10] = [
    "jcz", "edges", "city", "road", "field", "cloister", "gold", "robber", "crop", "decor",
];

fn sp(a: usize, b: usize) -> Sp {
    Sp::new(a, b)
}

fn off(i: Span<'_>) -> usize {
    i.location_offset()
}

fn fail<T>(e: PErr) -> PResult<'static, T> {
    Err(nom::Err::Failure(e))
}

/// Make an error from `p` a hard failure "expected WHAT".
fn expect<'a, T>(
    mut p: impl FnMut(Span<'a>) -> PResult<'a, T>,
    what: &'static str,
) -> impl FnMut(Span<'a>) -> PResult<'a, T> {
    move |i: Span<'a>| match p(i) {
        Ok(x) => Ok(x),
        Err(nom::Err::Error(_)) | Err(nom::Err::Incomplete(_)) => {
            Err(nom::Err::Failure(PErr::expected(i, what)))
        }
        Err(e) => Err(e),
    }
}

fn text_of(s: Span<'_>) -> Text {
    Text {
        text: s.fragment().to_string(),
        span: sp(
            s.location_offset(),
            s.location_offset() + s.fragment().len(),
        ),
    }
}

fn name_text(i: Span<'_>) -> PResult<'_, Text> {
    let (i, (text, a, b)) = name(i)?;
    Ok((
        i,
        Text {
            text,
            span: sp(a, b),
        },
    ))
}

fn string_text(i: Span<'_>) -> PResult<'_, Text> {
    let a = off(skip_ws(i));
    let (j, text) = string(i)?;
    Ok((
        j,
        Text {
            text,
            span: sp(a, off(j)),
        },
    ))
}

/// Parse a whole file. Always returns the items it could read and every syntax error.
pub fn parse_file(text: &str) -> (File, Vec<PErr>) {
    let mut items = Vec::new();
    let mut errors = Vec::new();
    let mut i = Span::new(text);
    loop {
        i = skip_ws(i);
        if i.fragment().is_empty() {
            break;
        }
        if errors.len() >= MAX_ERRORS {
            let at = off(i);
            errors.push(PErr::new(
                &codes::TOO_MANY_ERRORS,
                at,
                at,
                format!("too many errors ({MAX_ERRORS}); the rest of the file was not checked"),
            ));
            break;
        }
        let start = off(i);
        match item(i) {
            Ok((rest, mut its)) => {
                items.append(&mut its);
                i = rest;
            }
            Err(nom::Err::Error(e)) | Err(nom::Err::Failure(e)) => {
                let (next, unclosed) = recover(text, start, e.resume.unwrap_or(e.start));
                match unclosed {
                    Some(brace) if e.start >= text.len() || next <= e.start => {
                        errors.push(
                            PErr::new(
                                &codes::UNTERMINATED_BLOCK,
                                brace,
                                brace + 1,
                                "unterminated block: this `{` is never closed",
                            )
                            .with_help("add the missing `}`"),
                        );
                    }
                    Some(brace) => {
                        errors.push(e);
                        errors.push(
                            PErr::new(
                                &codes::UNTERMINATED_BLOCK,
                                brace,
                                brace + 1,
                                "unterminated block: this `{` is never closed",
                            )
                            .with_help("add the missing `}`"),
                        );
                    }
                    None => errors.push(e),
                }
                let next = next.max(start + 1).min(text.len());
                let next = (next..=text.len())
                    .find(|k| text.is_char_boundary(*k))
                    .unwrap_or(text.len());
                i = Span::new(text);
                let (rest, _) = nom::Input::take_split(&i, next);
                i = rest;
            }
            Err(nom::Err::Incomplete(_)) => break,
        }
    }
    (File { items }, errors)
}

/// Where the item that starts at `start` ends: after its closing `}` at depth 0, or at the
/// first newline at depth 0 at or after `err` (whichever comes first after the item's
/// start). Also reports an unclosed `{` when the scan hits the end of the file, or a line
/// starting in column 1 with a top-level keyword while a block is still open.
fn recover(text: &str, start: usize, err: usize) -> (usize, Option<usize>) {
    let b = text.as_bytes();
    let mut k = start;
    let mut open: Vec<usize> = Vec::new();
    while k < b.len() {
        match b[k] {
            b'#' => {
                while k < b.len() && b[k] != b'\n' && b[k] != b'\r' {
                    k += 1;
                }
                continue;
            }
            b'"' => {
                k += 1;
                while k < b.len() && b[k] != b'"' && b[k] != b'\n' && b[k] != b'\r' {
                    if b[k] == b'\\' {
                        k += 1;
                    }
                    k += 1;
                }
                if k < b.len() && b[k] == b'"' {
                    k += 1;
                }
                continue;
            }
            b'{' => {
                open.push(k);
            }
            b'}' => {
                if open.pop().is_none() {
                    // a stray `}`: skip it
                    return (k + 1, None);
                }
                if open.is_empty() && k + 1 > err {
                    return (k + 1, None);
                }
            }
            // a line ends at `\n`, `\r\n` or a lone `\r` (classic Mac files)
            b'\n' | b'\r' => {
                if open.is_empty() && k >= err {
                    return (k + 1, None);
                }
                if !open.is_empty() && line_starts_item(&text[k + 1..]) {
                    return (k + 1, open.first().copied());
                }
            }
            _ => {}
        }
        k += 1;
    }
    (b.len(), open.first().copied())
}

/// Does this line start (in column 1) with a top-level keyword followed by a space?
fn line_starts_item(line: &str) -> bool {
    ITEM_KEYWORDS.iter().any(|kw| {
        line.strip_prefix(kw)
            .is_some_and(|r| r.starts_with(' ') || r.starts_with('\t'))
    })
}

/// One top-level item (an option block may give several items).
fn one(j: Span<'_>, it: Item) -> PResult<'_, Vec<Item>> {
    Ok((j, vec![it]))
}

fn item(i: Span<'_>) -> PResult<'_, Vec<Item>> {
    let i = skip_ws(i);
    let start = off(i);
    let (j, word) = match ident(i) {
        Ok(x) => x,
        Err(_) => {
            let e = PErr::expected(i, "a top-level item (ruleset, extends, include, tile, tileset, deck, start or an option)");
            return fail(e);
        }
    };
    match *word.fragment() {
        "ruleset" => {
            let (j, name) = expect(string_text, "the ruleset name as a string")(j)?;
            one(
                j,
                Item::Ruleset {
                    name,
                    span: sp(start, off(j)),
                },
            )
        }
        "extends" => {
            let (j, path) = expect(string_text, "a file path as a string")(j)?;
            one(
                j,
                Item::Extends {
                    path,
                    span: sp(start, off(j)),
                },
            )
        }
        "include" => {
            let (j, path) = expect(string_text, "a file path as a string")(j)?;
            one(
                j,
                Item::Include {
                    path,
                    span: sp(start, off(j)),
                },
            )
        }
        "start" => {
            let (j, id) = expect(name_text, "a tile id")(j)?;
            one(
                j,
                Item::Start {
                    id,
                    span: sp(start, off(j)),
                },
            )
        }
        "tile" => {
            let (j, t) = tile_body(j, start)?;
            one(j, Item::Tile(t))
        }
        "tileset" => {
            let (j, t) = tileset_body(j, start)?;
            one(j, Item::Tileset(t))
        }
        "deck" => {
            let (j, d) = deck_body(j, start)?;
            one(j, d)
        }
        _ => {
            let mut out = Vec::new();
            let (j, ()) = option(i, "", None, &mut out)?;
            Ok((j, out))
        }
    }
}

fn tile_body(i: Span<'_>, start: usize) -> PResult<'_, TileDef> {
    let (i, id) = expect(name_text, "a tile id")(i)?;
    let (mut i, _) = expect(sym('{'), "`{` to open the tile")(i)?;
    let mut props = Vec::new();
    loop {
        if let Ok((j, _)) = sym('}')(i) {
            return Ok((
                j,
                TileDef {
                    id,
                    props,
                    span: sp(start, off(j)),
                },
            ));
        }
        let (j, p) = tile_prop(i)?;
        props.push(p);
        i = j;
    }
}

fn side(i: Span<'_>) -> PResult<'_, SideRef> {
    let (j, w) = ident(i)?;
    match Side::parse(w.fragment()) {
        Some(s) => Ok((j, (s, text_of(w).span))),
        None => Err(nom::Err::Error(PErr::expected(i, "a side"))),
    }
}

fn sides(i: Span<'_>) -> PResult<'_, Vec<SideRef>> {
    let (i, first) = expect(side, "a side (N, E, S or W)")(i)?;
    let (i, mut rest) = nom::multi::many0(side).parse_complete(i)?;
    rest.insert(0, first);
    Ok((i, rest))
}

fn half(i: Span<'_>) -> PResult<'_, (HalfEdge, Sp)> {
    let (j, w) = ident(i)?;
    match HalfEdge::parse(w.fragment()) {
        Some(h) => Ok((j, (h, text_of(w).span))),
        None => Err(nom::Err::Error(PErr::expected(i, "a half-edge"))),
    }
}

fn tile_prop(i: Span<'_>) -> PResult<'_, TileProp> {
    let (j, w) = match ident(i) {
        Ok(x) => x,
        Err(_) => return fail(PErr::expected(i, "a tile property or `}`")),
    };
    let start = off(w);
    let end = |j: Span<'_>| sp(start, off(j));
    match *w.fragment() {
        "jcz" => {
            let (j, t) = expect(name_text, "the JCloisterZone tile id")(j)?;
            Ok((j, TileProp::Jcz(t)))
        }
        "edges" => {
            let (j, t) = expect(
                word(|c| c.is_ascii_alphanumeric()),
                "the four edges, e.g. `CRFR`",
            )(j)?;
            Ok((j, TileProp::Edges(text_of(t))))
        }
        "city" => {
            let (j, s) = sides(j)?;
            let (j, pennants) = if let Ok((k, p)) = keyword("pennant")(j) {
                (k, (1, text_of(p).span))
            } else if let Ok((k, _)) = keyword("pennants")(j) {
                let (k, (n, a, b)) = expect(integer, "the number of pennants")(k)?;
                (k, (n, sp(a, b)))
            } else {
                (j, (0, sp(off(j), off(j))))
            };
            Ok((
                j,
                TileProp::City {
                    sides: s,
                    pennants,
                    span: end(j),
                },
            ))
        }
        "road" => {
            let (j, s) = sides(j)?;
            Ok((
                j,
                TileProp::Road {
                    sides: s,
                    span: end(j),
                },
            ))
        }
        "field" => {
            let (j, first) = expect(half, "a half-edge (NL NR EL ER SL SR WL WR)")(j)?;
            let (j, mut halves) = nom::multi::many0(half).parse_complete(j)?;
            halves.insert(0, first);
            let (j, cities) = match syms("->")(j) {
                Ok((k, _)) => sides(k)?,
                Err(_) => (j, Vec::new()),
            };
            Ok((
                j,
                TileProp::Field {
                    halves,
                    cities,
                    span: end(j),
                },
            ))
        }
        "cloister" => Ok((j, TileProp::Cloister(end(j)))),
        "gold" => Ok((j, TileProp::Gold(end(j)))),
        "robber" => Ok((j, TileProp::Robber(end(j)))),
        "crop" => {
            let (k, kind) = expect(ident, "the crop-circle kind: city, road or field")(j)?;
            let kind_v = match *kind.fragment() {
                "city" => CropKind::City,
                "road" => CropKind::Road,
                "field" => CropKind::Field,
                _ => {
                    let t = text_of(kind);
                    return fail(
                        PErr::new(
                            &codes::UNEXPECTED_TOKEN,
                            t.span.start,
                            t.span.end,
                            format!("unknown crop-circle kind `{}`", t.text),
                        )
                        .with_help("expected one of: city, road, field"),
                    );
                }
            };
            Ok((k, TileProp::Crop(kind_v, end(k))))
        }
        "decor" => {
            let (mut k, first) = expect(ident, "a decoration name, e.g. `cows`")(j)?;
            let mut names = vec![text_of(first)];
            while let Ok((k2, _)) = sym(',')(k) {
                let (k3, n) = expect(ident, "a decoration name")(k2)?;
                names.push(text_of(n));
                k = k3;
            }
            Ok((k, TileProp::Decor(names, end(k))))
        }
        other => {
            let t = text_of(w);
            let mut e = PErr::new(
                &codes::UNEXPECTED_TOKEN,
                t.span.start,
                t.span.end,
                format!("unknown tile property `{other}`"),
            );
            e.help = Some(format!(
                "valid properties: {}",
                super::registry::closest_first(other, TILE_PROPS.iter().copied()).join(", ")
            ));
            fail(e)
        }
    }
}

fn count_suffix(i: Span<'_>) -> PResult<'_, Option<(i64, Sp)>> {
    let j = skip_ws(i);
    if j.fragment().starts_with('x')
        && j.fragment()[1..].starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == ' ')
    {
        let (k, _) = nom::character::complete::char('x').parse_complete(j)?;
        let (k, (n, a, b)) = expect(integer, "a count after `x`")(k)?;
        return Ok((k, Some((n, sp(a, b)))));
    }
    Ok((i, None))
}

fn tileset_body(i: Span<'_>, start: usize) -> PResult<'_, TilesetDef> {
    let (i, set_name) = expect(name_text, "a tile-set name")(i)?;
    let (mut i, _) = expect(sym('{'), "`{` to open the tile set")(i)?;
    let mut entries = Vec::new();
    loop {
        if let Ok((j, _)) = sym('}')(i) {
            return Ok((
                j,
                TilesetDef {
                    name: set_name,
                    entries,
                    span: sp(start, off(j)),
                },
            ));
        }
        let (j, id) = expect(name_text, "a tile id and count (`BA/L x4`) or `}`")(i)?;
        let (j, count) = count_suffix(j)?;
        let count = count.unwrap_or((1, id.span));
        entries.push(TilesetEntry { id, count });
        let (j, _) = opt(sym(',')).parse_complete(j)?;
        i = j;
    }
}

fn deck_body(i: Span<'_>, start: usize) -> PResult<'_, Item> {
    let (i, append) = opt(syms("+=")).parse_complete(i)?;
    let (mut i, _) = expect(sym('{'), "`{` to open the deck")(i)?;
    let mut entries = Vec::new();
    loop {
        if let Ok((j, _)) = sym('}')(i) {
            return Ok((
                j,
                Item::Deck {
                    append: append.is_some(),
                    entries,
                    span: sp(start, off(j)),
                },
            ));
        }
        let (j, set) = expect(name_text, "a tile-set name (`base x1`) or `}`")(i)?;
        let e_start = set.span.start;
        let (j, mult) = count_suffix(j)?;
        let mult = mult.unwrap_or((1, set.span));
        let (j, only) = match keyword("only")(j) {
            Ok((k, _)) => {
                let (k, _) = expect(sym('['), "`[` to open the list of tile ids")(k)?;
                let (k, ids) =
                    nom::multi::separated_list1(sym(','), name_text).parse_complete(k)?;
                let (k, _) = expect(sym(']'), "`,` or `]`")(k)?;
                (k, Some(ids))
            }
            Err(_) => (j, None),
        };
        entries.push(DeckItem {
            set,
            mult,
            only,
            span: sp(e_start, off(j)),
        });
        let (j, _) = opt(sym(',')).parse_complete(j)?;
        i = j;
    }
}

/// `key = value [source "…"]` or `key [source "…"] { … }`; pushes statements to `out`.
fn option<'a>(
    i: Span<'a>,
    prefix: &str,
    block_source: Option<&Text>,
    out: &mut Vec<Item>,
) -> PResult<'a, ()> {
    if prefix.matches('.').count() >= 8 {
        return fail(too_deep(skip_ws(i)));
    }
    let (j, key) = match dotted(i) {
        Ok(x) => x,
        Err(_) => return fail(PErr::expected(i, "an option key")),
    };
    let key_t = text_of(key);
    if key_t.text.ends_with('.') || key_t.text.contains("..") {
        return fail(PErr::new(
            &codes::UNEXPECTED_TOKEN,
            key_t.span.start,
            key_t.span.end,
            format!("malformed option key `{}`", key_t.text),
        ));
    }
    let full = if prefix.is_empty() {
        key_t.text.clone()
    } else {
        format!("{prefix}.{}", key_t.text)
    };
    if let Ok((j, _)) = sym('=')(j) {
        let (j, value) = value(j, 0)?;
        let (j, src) = source_tag(j)?;
        let source = src.or_else(|| block_source.cloned());
        out.push(Item::Option(OptionStmt {
            key: full,
            key_span: key_t.span,
            value,
            source,
            span: sp(key_t.span.start, off(j)),
        }));
        return Ok((j, ()));
    }
    let (j, src) = source_tag(j)?;
    let source = src.or_else(|| block_source.cloned());
    let (mut j, _) = match sym('{')(j) {
        Ok(x) => x,
        Err(_) => return fail(PErr::expected(j, "`=` or `{` after the option key")),
    };
    loop {
        if let Ok((k, _)) = sym('}')(j) {
            return Ok((k, ()));
        }
        let (k, ()) = match option(j, &full, source.as_ref(), out) {
            Ok(x) => x,
            Err(nom::Err::Failure(e)) if e.msg.starts_with("expected an option key") => {
                return fail(PErr::expected(j, "an option key or `}`"))
            }
            Err(e) => return Err(e),
        };
        j = k;
    }
}

fn source_tag(i: Span<'_>) -> PResult<'_, Option<Text>> {
    match keyword("source")(i) {
        Ok((j, _)) => {
            let (j, t) = expect(string_text, "the source as a string, e.g. \"HiG 2012\"")(j)?;
            Ok((j, Some(t)))
        }
        Err(_) => Ok((i, None)),
    }
}

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

fn too_deep(i: Span<'_>) -> PErr {
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

    fn ok(text: &str) -> File {
        let (f, errs) = parse_file(text);
        assert!(errs.is_empty(), "{errs:?}");
        f
    }

    #[test]
    fn parses_items() {
        let f = ok(r#"
ruleset "x"   # comment
extends "base.rules"
tile BA/RCr { jcz "BA/RCr" edges CRFR city N road W E field EL WR -> N field ER SL SR WL }
tileset base { BA/RCr x4, BA/L x4 }
deck { base x1 crop-circles-2 only [CC.2/CFR] }
start BA/RCr
gold source "HiG" { split = draft(pick: player)  value = ingots * table(ingots) { 1..3: 1, 10..: 4 } }
score.city.complete = 2 * tiles + 2 * pennants source "house"
players = 2..6
"#);
        assert_eq!(f.items.len(), 10);
        match &f.items[6] {
            Item::Option(o) => {
                assert_eq!(o.key, "gold.split");
                assert_eq!(o.source.as_ref().map(|s| s.text.as_str()), Some("HiG"));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn recovers_at_next_item() {
        let (f, errs) =
            parse_file("followers = 7 ?\nplayers = 2..5\ntile X { edges FFFF bogus }\nstart X\n");
        assert_eq!(errs.len(), 2, "{errs:?}");
        assert_eq!(f.items.len(), 3);
    }

    #[test]
    fn unterminated_block() {
        let (_, errs) = parse_file("tile X {\n edges FFFF\n");
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert_eq!((errs[0].code.id, errs[0].start), ("E0103", 7));
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
