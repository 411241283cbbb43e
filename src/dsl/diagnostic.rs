//! Diagnostics: one error or warning with a stable code, its file, line, column and byte
//! span, the source line, a message and a help line; and their rustc-style rendering
//! (`error[E0201]: …`, ` --> file:line:col`, the line with carets, `help: …`) by
//! `annotate-snippets`. `Display` is plain text; [`Diagnostics::render`] can add colour (the
//! command line decides when, from `--color`, `NO_COLOR` and whether stderr is a terminal).

use super::codes::Code;
use super::lexer::PErr;
use annotate_snippets::{AnnotationKind, Group, Level, Origin, Renderer, Snippet};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Severity {
    Error,
    Warning,
}

/// One problem found in a rule file.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Stable code: `E0xxx` for errors, `W0xxx` for warnings.
    pub code: &'static str,
    pub message: String,
    /// File as given (or as reached through `extends`/`include`).
    pub file: String,
    /// 1-based line and column (column counted in characters).
    pub line: usize,
    pub col: usize,
    /// Byte range in the file.
    pub span: std::ops::Range<usize>,
    /// The text of the line the span starts on, up to [`LINE_TAIL`] bytes past the span's
    /// start (empty when there is no source).
    pub source_line: String,
    pub help: Option<String>,
    /// Extra notes, e.g. where a duplicate was first defined.
    pub notes: Vec<String>,
}

/// A source file, for turning byte spans into lines and columns.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
}

/// Bytes of a line a diagnostic keeps past its span's start: a longer line is cut there (the
/// rendering shows a line's text around the caret only, so what is cut is never shown; a
/// 900 KB line with 200 errors would otherwise be copied, scanned and rendered 200 times).
pub const LINE_TAIL: usize = 2048;

impl SourceFile {
    /// 1-based (line, column) of byte `at`, and the text of that line, up to [`LINE_TAIL`]
    /// bytes past `at`. Lines end at `\n`, `\r\n` or a lone `\r`; the column counts
    /// characters (not bytes), and a byte-order mark opening the file is not one of them.
    pub fn locate(&self, at: usize) -> (usize, usize, String) {
        let text = self.text.as_str();
        let at = floor_char_boundary(text, at.min(text.len()));
        let bytes = text.as_bytes();
        let mut line = 1;
        let mut line_start = 0;
        for (k, &b) in bytes[..at].iter().enumerate() {
            let breaks = b == b'\n' || (b == b'\r' && bytes.get(k + 1) != Some(&b'\n'));
            if breaks {
                line += 1;
                line_start = k + 1;
            }
        }
        if line_start == 0 && text.starts_with('\u{FEFF}') {
            line_start = '\u{FEFF}'.len_utf8().min(at);
        }
        let col = text[line_start..at].chars().count() + 1;
        let limit = floor_char_boundary(text, at.saturating_add(LINE_TAIL).min(text.len()));
        let line_end = bytes[line_start..limit]
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')
            .map_or(limit, |k| line_start + k);
        (line, col, text[line_start..line_end].to_string())
    }

    pub fn diag(
        &self,
        severity: Severity,
        code: &'static Code,
        start: usize,
        end: usize,
        message: impl Into<String>,
    ) -> Diagnostic {
        let (line, col, source_line) = self.locate(start);
        Diagnostic {
            severity,
            code: code.id,
            message: message.into(),
            file: self.name.clone(),
            line,
            col,
            span: start..end.max(start),
            source_line,
            help: None,
            notes: Vec::new(),
        }
    }

    pub fn error(
        &self,
        code: &'static Code,
        start: usize,
        end: usize,
        message: impl Into<String>,
    ) -> Diagnostic {
        self.diag(Severity::Error, code, start, end, message)
    }

    pub fn from_perr(&self, e: &PErr) -> Diagnostic {
        let msg = if e.msg.is_empty() {
            super::lexer::unexpected(self.text.get(e.start..).unwrap_or(""))
        } else {
            e.msg.clone()
        };
        let mut d = self.error(e.code, e.start, e.end, msg);
        d.help = e.help.clone();
        d
    }
}

impl Diagnostic {
    /// A diagnostic about a file as a whole (unreadable, too large, …).
    pub fn whole_file(code: &'static Code, file: &str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            code: code.id,
            message: message.into(),
            file: file.to_string(),
            line: 1,
            col: 1,
            span: 0..0,
            source_line: String::new(),
            help: None,
            notes: Vec::new(),
        }
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// `file:line:col`
    pub fn location(&self) -> String {
        format!("{}:{}:{}", self.file, self.line, self.col)
    }
}

impl Diagnostic {
    /// The rustc-style picture of this diagnostic (`annotate-snippets`, the renderer rustc
    /// uses): title with code, ` --> file:line:col`, the source line with carets counted in
    /// characters, then notes and help. `styled` adds ANSI colours (for a terminal).
    pub fn render(&self, styled: bool) -> String {
        renderer(styled).render(&[self.group()])
    }

    fn group(&self) -> Group<'_> {
        let level = match self.severity {
            Severity::Error => Level::ERROR,
            Severity::Warning => Level::WARNING,
        };
        let title = level.primary_title(self.message.as_str()).id(self.code);
        let line = self.source_line.as_str();
        let group = if line.is_empty() && self.span.is_empty() {
            title.element(
                Origin::path(self.file.as_str())
                    .line(self.line)
                    .char_column(self.col),
            )
        } else {
            // the span's start as a byte in the line (from the column, which counts
            // characters), clipped to the end of the line
            let start = line
                .char_indices()
                .nth(self.col.saturating_sub(1))
                .map_or(line.len(), |(b, _)| b);
            let end = (start + self.span.len()).min(line.len()).max(start);
            title.element(
                Snippet::source(line)
                    .line_start(self.line)
                    .path(self.file.as_str())
                    .annotation(AnnotationKind::Primary.span(start..end)),
            )
        };
        let group = group.elements(self.notes.iter().map(|n| Level::NOTE.message(n.as_str())));
        let group = match &self.help {
            Some(h) => group.element(Level::HELP.message(h.as_str())),
            None => group,
        };
        group.element(Level::NOTE.message(Code::explain_hint(self.code)))
    }
}

/// The last character boundary of `text` at or before byte `at` (`at` ≤ `text.len()`).
fn floor_char_boundary(text: &str, at: usize) -> usize {
    (0..=at)
        .rev()
        .find(|&k| text.is_char_boundary(k))
        .unwrap_or(0)
}

/// The diagnostic renderer: plain text, or with colours for a terminal.
fn renderer(styled: bool) -> Renderer {
    if styled {
        Renderer::styled()
    } else {
        Renderer::plain()
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.render(false))
    }
}

/// Every problem found in one load: errors and warnings, in the order found.
#[derive(Clone, Debug, Default)]
pub struct Diagnostics {
    items: Vec<Diagnostic>,
}

impl Diagnostics {
    pub fn new(items: Vec<Diagnostic>) -> Diagnostics {
        Diagnostics { items }
    }

    pub fn items(&self) -> &[Diagnostic] {
        &self.items
    }

    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.items.iter().filter(|d| d.is_error())
    }

    pub fn has_errors(&self) -> bool {
        self.items.iter().any(|d| d.is_error())
    }

    /// Codes of all items, in order (handy in tests).
    pub fn codes(&self) -> Vec<&'static str> {
        self.items.iter().map(|d| d.code).collect()
    }
}

impl Diagnostics {
    /// Every item rendered (see [`Diagnostic::render`]), a blank line between them, then
    /// the count of errors and warnings.
    pub fn render(&self, styled: bool) -> String {
        let mut out = String::new();
        for (k, d) in self.items.iter().enumerate() {
            if k > 0 {
                out.push('\n');
            }
            out.push_str(&d.render(styled));
            out.push('\n');
        }
        let n = self.errors().count();
        let w = self.items.len() - n;
        if n > 0 {
            out.push('\n');
            out.push_str(&format!("{n} error{}", if n == 1 { "" } else { "s" }));
            if w > 0 {
                out.push_str(&format!(", {w} warning{}", if w == 1 { "" } else { "s" }));
            }
            out.push('\n');
        }
        out
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(false))
    }
}

impl std::error::Error for Diagnostics {}

#[cfg(test)]
mod render_tests {
    use super::*;
    use crate::dsl::load_ruleset_str_isolated;

    fn errors(text: &str) -> Diagnostics {
        match load_ruleset_str_isolated("t.rules", text) {
            Ok(_) => panic!("expected errors"),
            Err(d) => d,
        }
    }

    #[test]
    fn long_lines_are_cut_around_the_caret() {
        let mut d = Diagnostic::whole_file(
            &super::super::codes::EXPRESSION_TOO_LONG,
            "x.rules",
            "expression too long",
        );
        d.source_line = "a".repeat(5000) + "BAD" + &"b".repeat(5000);
        d.col = 5001;
        d.span = 5000..5003;
        let text = d.to_string();
        let lines: Vec<&str> = text.lines().collect();
        let shown = lines[3];
        let caret = lines[4];
        assert!(shown.chars().count() < 160, "{shown}");
        assert!(shown.contains("BAD") && shown.contains("..."), "{shown}");
        let at = shown.find("BAD").map(|b| shown[..b].chars().count());
        let caret_at = caret.find('^').map(|b| caret[..b].chars().count());
        assert_eq!(at, caret_at, "caret under the span:\n{text}");
        assert!(caret.trim_end().ends_with("^^^"), "{caret}");
    }

    /// A line cut [`LINE_TAIL`] bytes past the span renders as the whole line does, and the
    /// cut keeps whole characters.
    #[test]
    fn a_cut_line_renders_as_the_whole_line() {
        let line = format!("tileset t {{ {} }}", "X x1, ".repeat(2000));
        let text = format!("ruleset \"t\"\n{line}\nstart A\n");
        let file = SourceFile {
            name: "x.rules".into(),
            text,
        };
        // the first, the 101st and the 1501st `X` of the line
        let start = "ruleset \"t\"\n".len();
        for k in [0, 100, 1500] {
            let at = start + "tileset t { ".len() + 6 * k;
            let d = file.error(
                &super::super::codes::UNKNOWN_TILE,
                at,
                at + 1,
                "unknown tile",
            );
            assert_eq!((d.line, d.col), (2, at - start + 1));
            assert_eq!(d.source_line.len(), at - start + LINE_TAIL);
            assert!(line.starts_with(&d.source_line));
            let mut whole = d.clone();
            whole.source_line = line.clone();
            assert_eq!(d.to_string(), whole.to_string(), "at {at}");
        }
        // a cut inside a character moves back to its start
        let wide = SourceFile {
            name: "x.rules".into(),
            text: "a".to_string() + &"é".repeat(LINE_TAIL),
        };
        let (_, col, kept) = wide.locate(0);
        assert_eq!(col, 1);
        assert_eq!(kept.len(), LINE_TAIL - 1);
        let (_, col, _) = wide.locate(2);
        assert_eq!(col, 2, "inside the first é: its start");
    }

    #[test]
    fn carets_count_characters_not_bytes() {
        let d = errors("ruleset \"t\"\nfarms = pér_fïéld\n");
        assert_eq!(d.codes(), vec!["E0101"], "{d}");
        let text = d.to_string();
        let line = text.lines().find(|l| l.contains('^')).unwrap_or_default();
        assert_eq!(
            line.matches('^').count(),
            "pér_fïéld".chars().count(),
            "{text}"
        );
        let item = &d.items()[0];
        assert_eq!((item.line, item.col), (2, 9));
        assert!(item.help.as_deref().unwrap_or("").contains("A-Z"), "{text}");
    }

    #[test]
    fn a_non_ascii_key_is_one_error() {
        let d = errors("ruleset \"t\"\npér_fïéld = 3\nfollowers = 7\n");
        assert_eq!(d.codes(), vec!["E0101"], "{d}");
        assert_eq!(d.items()[0].span.len(), "pér_fïéld".len());
    }

    #[test]
    fn a_byte_order_mark_is_accepted_and_not_counted() {
        let d = errors("\u{FEFF}ruleset \"t\" folowers = 3\n");
        assert_eq!(d.codes(), vec!["E0201"], "{d}");
        assert_eq!((d.items()[0].line, d.items()[0].col), (1, 13), "{d}");
    }

    #[test]
    fn cr_only_and_crlf_line_endings_give_the_right_line() {
        for nl in ["\r", "\r\n", "\n"] {
            let text = format!("ruleset \"t\"{nl}# note{nl}followers = 7{nl}folowers = 3{nl}");
            let d = errors(&text);
            assert_eq!(d.codes(), vec!["E0201"], "{nl:?}: {d}");
            let item = &d.items()[0];
            assert_eq!((item.line, item.col), (4, 1), "{nl:?}: {d}");
            assert_eq!(item.source_line, "folowers = 3");
        }
    }

    #[test]
    fn styled_rendering_has_colours_and_plain_has_none() {
        let d = errors("ruleset \"t\"\nfolowers = 3\n");
        assert!(d.render(true).contains('\x1b'));
        assert!(!d.render(false).contains('\x1b'));
        assert_eq!(d.render(false), d.to_string());
    }
}
