//! The grammar: nom parsers from text to [`ast::File`](super::ast::File), collecting syntax errors and
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
//! tileprop := "jcz" NAME | "edges" WORD | "city" SIDE+ ["pennant" | "pennants" INT] SMARK*
//!           | "road" SIDE+ SMARK* | "field" (HALF+ ["->" SIDE+] | "->" SIDE+) | "cloister"
//!           | "decor" IDENT ("," IDENT)* | MARK | KEYWORD IDENT
//! (MARK: an expansion's tile mark, SMARK: its segment mark, e.g. `road W E inn`; KEYWORD
//! IDENT: its mark written as a keyword and an argument, `crop city`)
//! value    := sum ; sum := product (("+"|"-") product)* ; product := unary (("*"|"/") unary)*
//! unary    := "-" unary | atom
//! atom     := INT [".." [INT]] | STRING | "(" sum ")" | IDENT ["(" args ")" ["{" rows "}"]]
//! ```
//!
//! Values (`value` above) are parsed by [`super::parse_value`], with their limits.

use super::ast::*;
use super::codes;
use super::lexer::*;
use super::parse_value::{too_deep, value};
use crate::tiles::{HalfEdge, Side};
use nom::combinator::opt;
use nom::Parser;

/// Errors collected per file before giving up.
const MAX_ERRORS: usize = 50;

/// The top-level keywords (everything else at the top level is an option).
pub const ITEM_KEYWORDS: [&str; 7] = [
    "ruleset", "extends", "include", "tile", "tileset", "deck", "start",
];

/// The core's tile property keywords, for "unknown property" help (the expansions' marks
/// are listed after them, `decor` last: [`tile_props`]).
pub const TILE_PROPS: [&str; 7] = ["jcz", "edges", "city", "road", "field", "cloister", "decor"];

/// Every tile property keyword: the core's, then the expansions' tile marks (a mark written
/// as a keyword and an argument by its keyword), then `decor`.
fn tile_props() -> Vec<&'static str> {
    let (core, decor) = TILE_PROPS.split_at(TILE_PROPS.len() - 1);
    let mut out: Vec<&'static str> = core.to_vec();
    for (name, _) in crate::engine::expansions::TILE_MARKS.iter() {
        let word = name.split(' ').next().unwrap_or(name);
        if !out.contains(&word) {
            out.push(word);
        }
    }
    out.extend_from_slice(decor);
    out
}

pub(super) fn sp(a: usize, b: usize) -> Sp {
    Sp::new(a, b)
}

pub(super) fn off(i: Span<'_>) -> usize {
    i.location_offset()
}

pub(super) fn fail<T>(e: PErr) -> PResult<'static, T> {
    Err(nom::Err::Failure(e))
}

/// Make an error from `p` a hard failure "expected WHAT".
pub(super) fn expect<'a, T>(
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

pub(super) fn text_of(s: Span<'_>) -> Text {
    Text {
        text: s.fragment().to_string(),
        span: sp(
            s.location_offset(),
            s.location_offset() + s.fragment().len(),
        ),
    }
}

pub(super) fn name_text(i: Span<'_>) -> PResult<'_, Text> {
    let (i, (text, a, b)) = name(i)?;
    Ok((
        i,
        Text {
            text,
            span: sp(a, b),
        },
    ))
}

pub(super) fn string_text(i: Span<'_>) -> PResult<'_, Text> {
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

/// The expansions' segment marks written after a segment's sides (`inn`, `cathedral`).
fn segment_marks(i: Span<'_>) -> PResult<'_, Vec<Text>> {
    marks_where(i, |_| true)
}

/// The field marks written after a field's half-edges and cities (`pig_herd`): only marks of
/// fields, so that another segment's mark after a field stays a stray word (E0101).
fn field_marks(i: Span<'_>) -> PResult<'_, Vec<Text>> {
    marks_where(i, |k| k == crate::tiles::FeatureKind::Field)
}

fn marks_where(
    i: Span<'_>,
    keep: impl Fn(crate::tiles::FeatureKind) -> bool,
) -> PResult<'_, Vec<Text>> {
    nom::multi::many0(|i| {
        let (j, w) = ident(i)?;
        match crate::engine::expansions::segment_mark(w.fragment()) {
            Some((_, kind)) if keep(kind) => Ok((j, text_of(w))),
            _ => Err(nom::Err::Error(PErr::expected(i, "a segment mark"))),
        }
    })
    .parse_complete(i)
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
            let (j, marks) = segment_marks(j)?;
            Ok((
                j,
                TileProp::City {
                    sides: s,
                    pennants,
                    marks,
                    span: end(j),
                },
            ))
        }
        "road" => {
            let (j, s) = sides(j)?;
            let (j, marks) = segment_marks(j)?;
            Ok((
                j,
                TileProp::Road {
                    sides: s,
                    marks,
                    span: end(j),
                },
            ))
        }
        "field" => {
            // a field enclosed on the tile, reaching no edge, names only its cities
            // (`field -> N E S W`)
            let (j, halves) = match syms("->")(j) {
                Ok(_) => (j, Vec::new()),
                Err(_) => {
                    let (j, first) = expect(half, "a half-edge (NL NR EL ER SL SR WL WR)")(j)?;
                    let (j, mut halves) = nom::multi::many0(half).parse_complete(j)?;
                    halves.insert(0, first);
                    (j, halves)
                }
            };
            let (j, cities) = match syms("->")(j) {
                Ok((k, _)) => sides(k)?,
                Err(_) => (j, Vec::new()),
            };
            let (j, marks) = field_marks(j)?;
            Ok((
                j,
                TileProp::Field {
                    halves,
                    cities,
                    marks,
                    span: end(j),
                },
            ))
        }
        "cloister" => Ok((j, TileProp::Cloister(end(j)))),
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
        other if crate::engine::expansions::tile_mark(other).is_some() => {
            Ok((j, TileProp::Mark(text_of(w))))
        }
        other if crate::engine::expansions::mark_keyword(other).is_some() => {
            let what = crate::engine::expansions::mark_keyword(other).unwrap_or_default();
            // the arguments its marks take, in their declared order
            let args: Vec<&str> = crate::engine::expansions::TILE_MARKS
                .iter()
                .filter_map(|m| m.0.strip_prefix(other)?.strip_prefix(' '))
                .collect();
            let (k, arg) = match ident(j) {
                Ok(x) => x,
                Err(nom::Err::Error(_)) | Err(nom::Err::Incomplete(_)) => {
                    let listed = match args.split_last() {
                        Some((last, rest)) if !rest.is_empty() => {
                            format!("{} or {last}", rest.join(", "))
                        }
                        _ => args.join(", "),
                    };
                    return fail(PErr::expected(j, &format!("the {what}: {listed}")));
                }
                Err(e) => return Err(e),
            };
            let name = format!("{other} {}", arg.fragment());
            if crate::engine::expansions::tile_mark(&name).is_none() {
                let t = text_of(arg);
                return fail(
                    PErr::new(
                        &codes::UNEXPECTED_TOKEN,
                        t.span.start,
                        t.span.end,
                        format!("unknown {what} `{}`", t.text),
                    )
                    .with_help(format!("expected one of: {}", args.join(", "))),
                );
            }
            Ok((
                k,
                TileProp::Mark(Text {
                    text: name,
                    span: end(k),
                }),
            ))
        }
        other => {
            let t = text_of(w);
            if let Some((_, kind)) = crate::engine::expansions::segment_mark(other) {
                let kind = kind.name();
                let e = PErr::new(
                    &codes::UNEXPECTED_TOKEN,
                    t.span.start,
                    t.span.end,
                    format!("`{other}` marks a {kind} segment, not a tile"),
                )
                .with_help(format!(
                    "write it after the {kind}'s sides, e.g. `{kind} W E {other}`"
                ));
                return fail(e);
            }
            let mut e = PErr::new(
                &codes::UNEXPECTED_TOKEN,
                t.span.start,
                t.span.end,
                format!("unknown tile property `{other}`"),
            );
            e.help = Some(format!(
                "valid properties: {}",
                super::registry::closest_first(other, tile_props().into_iter()).join(", ")
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
}
