//! Tokens of the rule language as nom parsers over located spans: whitespace and `#`
//! comments, identifiers, names (tile ids, tile-set names), strings with escapes, integers
//! and punctuation — plus the parse error type every parser in `dsl::parse` shares.

use super::codes::{self, Code};
use nom::bytes::complete::{tag, take_while, take_while1};
use nom::character::complete::{char, digit1, multispace1, satisfy};
use nom::combinator::{opt, recognize, verify};
use nom::error::{ErrorKind, ParseError};
use nom::multi::many0_count;
use nom::sequence::{pair, preceded};
use nom::{IResult, Input, Parser};
use nom_locate::LocatedSpan;

/// Input of every parser: the file text with its byte offset tracked.
pub type Span<'a> = LocatedSpan<&'a str>;
/// Result of every parser.
pub type PResult<'a, T> = IResult<Span<'a>, T, PErr>;

/// A syntax error: code, byte range, message and optional help.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PErr {
    pub code: &'static Code,
    pub start: usize,
    pub end: usize,
    /// The message; empty for nom's own failures, whose message is "unexpected" and what
    /// the file holds at `start` ([`unexpected`]), written when the error is shown
    /// (`SourceFile::from_perr`): every alternative that fails while a file parses is such an
    /// error, and nearly all of them are dropped (loading `bigbox6.rules` formatted about
    /// 30,000 of them, half the load's instructions).
    pub msg: String,
    pub help: Option<String>,
    /// Where recovery looks for the end of the failed item, when the parser read the
    /// offending construct to its end (e.g. a whole over-long expression); `start` otherwise.
    pub resume: Option<usize>,
}

impl PErr {
    pub fn new(code: &'static Code, start: usize, end: usize, msg: impl Into<String>) -> PErr {
        PErr {
            code,
            start,
            end,
            msg: msg.into(),
            help: None,
            resume: None,
        }
    }

    pub fn with_help(mut self, help: impl Into<String>) -> PErr {
        self.help = Some(help.into());
        self
    }

    /// "expected WHAT, found …" at the next non-blank position of `i`.
    pub fn expected(i: Span<'_>, what: &str) -> PErr {
        let j = skip_ws(i);
        let (len, found) = describe(j);
        let at = j.location_offset();
        let e = PErr::new(
            &codes::UNEXPECTED_TOKEN,
            at,
            at + len,
            format!("expected {what}, found {found}"),
        );
        if j.fragment()[..len].is_ascii() {
            e
        } else {
            e.with_help(ASCII_HELP)
        }
    }
}

impl<'a> ParseError<Span<'a>> for PErr {
    fn from_error_kind(input: Span<'a>, _kind: ErrorKind) -> Self {
        let at = input.location_offset();
        let len = token_len(input.fragment());
        PErr::new(&codes::UNEXPECTED_TOKEN, at, at + len, String::new())
    }

    fn append(_input: Span<'a>, _kind: ErrorKind, other: Self) -> Self {
        other
    }
}

/// Byte length and a human description of what starts at `i`.
pub fn describe(i: Span<'_>) -> (usize, String) {
    let s = *i.fragment();
    let len = token_len(s);
    let found = match s.chars().next() {
        None => "end of file".to_string(),
        Some('\n') | Some('\r') => "end of line".to_string(),
        Some('"') => "a string".to_string(),
        Some(c) if c.is_control() => format!("control character U+{:04X}", c as u32),
        Some(_) => format!("`{}`", &s[..len]),
    };
    (len, found)
}

/// The message of a nom failure at the start of `s` (see `PErr::msg`).
pub fn unexpected(s: &str) -> String {
    format!("unexpected {}", describe(Span::new(s)).1)
}

/// Byte length of what [`describe`] names at the start of `s`: a word (up to 40
/// characters), else one character.
fn token_len(s: &str) -> usize {
    let mut chars = s.chars();
    match chars.next() {
        None => 0,
        Some(c) if c.is_alphanumeric() || c == '_' => s
            .chars()
            .take_while(|c| c.is_alphanumeric() || "_./+-!".contains(*c))
            .take(40)
            .map(char::len_utf8)
            .sum(),
        Some(c) => c.len_utf8(),
    }
}

/// A `#` comment up to the end of its line (`\n`, `\r\n` or a lone `\r`).
fn comment(i: Span<'_>) -> PResult<'_, Span<'_>> {
    recognize(preceded(char('#'), take_while(|c| c != '\n' && c != '\r'))).parse_complete(i)
}

/// A UTF-8 byte-order mark at the very start of a file, which editors on Windows add.
fn bom(i: Span<'_>) -> PResult<'_, Span<'_>> {
    verify(tag("\u{FEFF}"), |s: &Span<'_>| s.location_offset() == 0).parse_complete(i)
}

/// Whitespace and comments (possibly none); a byte-order mark opening the file counts as
/// whitespace.
pub fn ws(i: Span<'_>) -> PResult<'_, ()> {
    let (i, _) = many0_count(nom::branch::alt((multispace1, comment, bom))).parse_complete(i)?;
    Ok((i, ()))
}

/// `i` after whitespace and comments; never fails.
pub fn skip_ws(i: Span<'_>) -> Span<'_> {
    match ws(i) {
        Ok((j, ())) => j,
        Err(_) => i,
    }
}

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "_./+-!".contains(c)
}

/// A bare name character set: what tile ids and tile-set names may use unquoted.
pub fn is_bare_name(s: &str) -> bool {
    let mut cs = s.chars();
    matches!(cs.next(), Some(c) if c.is_ascii_alphanumeric() || c == '_') && cs.all(is_name_char)
}

/// Help for a word with non-ASCII letters where the language wants an identifier.
const ASCII_HELP: &str =
    "keys, values and properties use the letters A-Z and a-z, digits and `_`; \
                          other text goes in a \"string\"";

/// A hard error (E0101) when the word at `i` (letters of any script, digits, `_` and the
/// characters of `extra`) is not ASCII: one clear error for `pér_fïéld` instead of an
/// identifier `p` followed by an unexpected `ér_fïéld`.
fn reject_non_ascii<'a>(i: Span<'a>, extra: &str) -> Result<(), nom::Err<PErr>> {
    let text = *i.fragment();
    let len: usize = text
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || extra.contains(*c))
        .map(char::len_utf8)
        .sum();
    let word = &text[..len];
    if word.is_ascii() {
        return Ok(());
    }
    let at = i.location_offset();
    Err(nom::Err::Failure(
        PErr::new(
            &codes::UNEXPECTED_TOKEN,
            at,
            at + len,
            format!("`{word}` is not an identifier: identifiers are ASCII"),
        )
        .with_help(ASCII_HELP),
    ))
}

/// An identifier `[A-Za-z_][A-Za-z0-9_]*` after optional whitespace; a word with
/// non-ASCII letters is a hard error (E0101).
pub fn ident(i: Span<'_>) -> PResult<'_, Span<'_>> {
    let i = skip_ws(i);
    reject_non_ascii(i, "")?;
    recognize(pair(satisfy(is_ident_start), take_while(is_ident_char))).parse_complete(i)
}

/// The identifier `kw` exactly (not a prefix of a longer word).
pub fn keyword<'a>(kw: &'static str) -> impl Fn(Span<'a>) -> PResult<'a, Span<'a>> {
    move |i: Span<'a>| verify(ident, |s: &Span<'_>| *s.fragment() == kw).parse_complete(i)
}

/// A dotted option key `gold.split`, after optional whitespace.
pub fn dotted(i: Span<'_>) -> PResult<'_, Span<'_>> {
    let i = skip_ws(i);
    reject_non_ascii(i, ".")?;
    recognize(pair(
        satisfy(is_ident_start),
        take_while(|c: char| is_ident_char(c) || c == '.'),
    ))
    .parse_complete(i)
}

/// A name (tile id, tile-set name): bare `BA/Cc+`, `goldmines-c1`, or a quoted string.
pub fn name(i: Span<'_>) -> PResult<'_, (String, usize, usize)> {
    let i = skip_ws(i);
    if i.fragment().starts_with('"') {
        let start = i.location_offset();
        let (j, s) = string(i)?;
        return Ok((j, (s, start, j.location_offset())));
    }
    let (j, s) = recognize(pair(
        satisfy(|c| c.is_ascii_alphanumeric() || c == '_'),
        take_while(is_name_char),
    ))
    .parse_complete(i)?;
    Ok((
        j,
        (
            s.fragment().to_string(),
            s.location_offset(),
            j.location_offset(),
        ),
    ))
}

/// The punctuation `c` after optional whitespace.
pub fn sym<'a>(c: char) -> impl Fn(Span<'a>) -> PResult<'a, char> {
    move |i: Span<'a>| {
        let i = skip_ws(i);
        char(c).parse_complete(i)
    }
}

/// The punctuation `s` (several characters) after optional whitespace.
pub fn syms<'a>(s: &'static str) -> impl Fn(Span<'a>) -> PResult<'a, Span<'a>> {
    move |i: Span<'a>| {
        let i = skip_ws(i);
        tag(s).parse_complete(i)
    }
}

/// A decimal integer with an optional leading `-`, after optional whitespace. Literals
/// outside `i64` are a hard error (E0105).
pub fn integer(i: Span<'_>) -> PResult<'_, (i64, usize, usize)> {
    let i = skip_ws(i);
    let (j, text) = recognize(pair(opt(char('-')), digit1)).parse_complete(i)?;
    let (start, end) = (text.location_offset(), j.location_offset());
    match text.fragment().parse::<i64>() {
        Ok(n) => Ok((j, (n, start, end))),
        Err(_) => Err(nom::Err::Failure(
            PErr::new(
                &codes::NUMBER_OUT_OF_RANGE,
                start,
                end,
                "number out of range",
            )
            .with_help(format!(
                "numbers must lie within {}..={}",
                i64::MIN,
                i64::MAX
            )),
        )),
    }
}

/// A double-quoted string with escapes `\\ \" \n \t \r \0 \u{…}`. Strings end on the same
/// line; an unterminated string (E0102) or a bad escape (E0104) is a hard error.
pub fn string(i: Span<'_>) -> PResult<'_, String> {
    let i = skip_ws(i);
    let start = i.location_offset();
    let (body, _) = char('"').parse_complete(i)?;
    let text = *body.fragment();
    let mut out = String::new();
    let mut chars = text.char_indices();
    while let Some((k, c)) = chars.next() {
        match c {
            '"' => {
                let (rest, _) = body.take_split(k + 1);
                return Ok((rest, out));
            }
            '\n' | '\r' => break,
            '\\' => {
                let esc_at = start + 1 + k;
                let bad = |len: usize, what: String| {
                    nom::Err::Failure(
                        PErr::new(&codes::BAD_ESCAPE, esc_at, esc_at + len, what).with_help(
                            "valid escapes: \\\\ \\\" \\n \\t \\r \\0 \\u{hex}".to_string(),
                        ),
                    )
                };
                match chars.next() {
                    Some((_, '\\')) => out.push('\\'),
                    Some((_, '"')) => out.push('"'),
                    Some((_, 'n')) => out.push('\n'),
                    Some((_, 't')) => out.push('\t'),
                    Some((_, 'r')) => out.push('\r'),
                    Some((_, '0')) => out.push('\0'),
                    Some((_, 'u')) => {
                        let rest = &text[k + 2..];
                        let close = rest.find('}').filter(|_| rest.starts_with('{'));
                        let Some(close) = close else {
                            return Err(bad(
                                2,
                                "invalid unicode escape: expected `\\u{hex}`".into(),
                            ));
                        };
                        let hex = &rest[1..close];
                        let ch = u32::from_str_radix(hex, 16).ok().and_then(char::from_u32);
                        let Some(ch) = ch.filter(|_| !hex.is_empty() && hex.len() <= 6) else {
                            return Err(bad(
                                close + 3,
                                format!("invalid unicode escape `\\u{{{hex}}}`"),
                            ));
                        };
                        out.push(ch);
                        // skip `{hex}`
                        for _ in 0..close + 1 {
                            chars.next();
                        }
                    }
                    Some((_, other)) => {
                        return Err(bad(
                            1 + other.len_utf8(),
                            format!("unknown escape `\\{other}`"),
                        ))
                    }
                    None => break,
                }
            }
            c => out.push(c),
        }
    }
    let line_end = text.find(['\n', '\r']).unwrap_or(text.len());
    Err(nom::Err::Failure(
        PErr::new(
            &codes::UNTERMINATED_STRING,
            start,
            start + 1 + line_end,
            "unterminated string",
        )
        .with_help("close the string with `\"` on the same line"),
    ))
}

/// At least one character of `pred`, after optional whitespace (used for edge strings).
pub fn word<'a>(pred: fn(char) -> bool) -> impl Fn(Span<'a>) -> PResult<'a, Span<'a>> {
    move |i: Span<'a>| {
        let i = skip_ws(i);
        take_while1(pred).parse_complete(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_and_escapes() {
        let (_, s) = string(Span::new(r#""a\"b\\c\u{e9}""#)).unwrap();
        assert_eq!(s, "a\"b\\cé");
        let e = string(Span::new("\"abc\nx")).unwrap_err();
        match e {
            nom::Err::Failure(e) => assert_eq!((e.code.id, e.start, e.end), ("E0102", 0, 4)),
            _ => panic!("expected failure"),
        }
        match string(Span::new(r#""a\q""#)).unwrap_err() {
            nom::Err::Failure(e) => assert_eq!((e.code.id, e.start), ("E0104", 2)),
            _ => panic!("expected failure"),
        }
    }

    #[test]
    fn names_idents_numbers() {
        let (_, (n, a, b)) = name(Span::new("  BA/Cc+ x2")).unwrap();
        assert_eq!((n.as_str(), a, b), ("BA/Cc+", 2, 8));
        let (_, (v, _, _)) = integer(Span::new(" -42")).unwrap();
        assert_eq!(v, -42);
        assert!(matches!(
            integer(Span::new("99999999999999999999")),
            Err(nom::Err::Failure(PErr {
                code: &codes::NUMBER_OUT_OF_RANGE,
                ..
            }))
        ));
        assert!(keyword("tile")(Span::new("tiles")).is_err());
        assert!(keyword("tile")(Span::new(" # c\n tile X")).is_ok());
    }
}
