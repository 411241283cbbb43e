//! Diagnostics: one error or warning with a stable code, its file, line, column and byte
//! span, the source line, a message and a help line; and their rustc-style rendering
//! (`error[E0201]: …`, ` --> file:line:col`, the line with a caret, `help: …`). Rendering is
//! plain text (no colour), so `NO_COLOR` and non-terminals need no special case.

use super::lexer::PErr;
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
    /// The text of the line the span starts on (empty when there is no source).
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

impl SourceFile {
    /// 1-based (line, column) of byte `at`, and the text of that line.
    pub fn locate(&self, at: usize) -> (usize, usize, String) {
        let at = at.min(self.text.len());
        let at = (0..=at)
            .rev()
            .find(|k| self.text.is_char_boundary(*k))
            .unwrap_or(0);
        let before = &self.text[..at];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |k| k + 1);
        let col = self.text[line_start..at].chars().count() + 1;
        let line_end = self.text[line_start..]
            .find('\n')
            .map_or(self.text.len(), |k| line_start + k);
        let src = self.text[line_start..line_end]
            .trim_end_matches('\r')
            .to_string();
        (line, col, src)
    }

    pub fn diag(
        &self,
        severity: Severity,
        code: &'static str,
        start: usize,
        end: usize,
        message: impl Into<String>,
    ) -> Diagnostic {
        let (line, col, source_line) = self.locate(start);
        Diagnostic {
            severity,
            code,
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
        code: &'static str,
        start: usize,
        end: usize,
        message: impl Into<String>,
    ) -> Diagnostic {
        self.diag(Severity::Error, code, start, end, message)
    }

    pub fn from_perr(&self, e: &PErr) -> Diagnostic {
        let mut d = self.error(e.code, e.start, e.end, e.msg.clone());
        d.help = e.help.clone();
        d
    }
}

impl Diagnostic {
    /// A diagnostic about a file as a whole (unreadable, too large, …).
    pub fn whole_file(code: &'static str, file: &str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            code,
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

/// Characters of a source line shown under a diagnostic; longer lines are cut around the
/// caret.
const SHOWN_LINE: usize = 120;

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        writeln!(f, "{sev}[{}]: {}", self.code, self.message)?;
        let num = self.line.to_string();
        let pad = " ".repeat(num.len());
        writeln!(f, "{pad}--> {}", self.location())?;
        if !self.source_line.is_empty() || self.span.end > self.span.start {
            let chars: Vec<char> = self
                .source_line
                .chars()
                .map(|c| if c == '\t' { ' ' } else { c })
                .collect();
            let width = chars.len();
            let start = self.col.saturating_sub(1).min(width);
            // a long line is shown as a window around the caret, with … where it is cut
            let (lo, hi) = if width <= SHOWN_LINE {
                (0, width)
            } else {
                let lo = start.saturating_sub(SHOWN_LINE / 3).min(width - SHOWN_LINE);
                (lo, lo + SHOWN_LINE)
            };
            let before = if lo > 0 { "…" } else { "" };
            let after = if hi < width { "…" } else { "" };
            let shown: String = chars[lo..hi].iter().collect();
            writeln!(f, "{pad} |")?;
            writeln!(f, "{num} | {before}{shown}{after}")?;
            // caret under the span, clipped to the end of its first line and the window
            let span_chars = self.span.len().max(1);
            let len = span_chars.min(hi.saturating_sub(start).max(1));
            let indent = start - lo + before.chars().count();
            writeln!(f, "{pad} | {}{}", " ".repeat(indent), "^".repeat(len))?;
        }
        for n in &self.notes {
            writeln!(f, "{pad} = note: {n}")?;
        }
        if let Some(h) = &self.help {
            writeln!(f, "{pad} = help: {h}")?;
        }
        Ok(())
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

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, d) in self.items.iter().enumerate() {
            if k > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        let n = self.errors().count();
        let w = self.items.len() - n;
        if n > 0 {
            writeln!(f)?;
            write!(f, "{n} error{}", if n == 1 { "" } else { "s" })?;
            if w > 0 {
                write!(f, ", {w} warning{}", if w == 1 { "" } else { "s" })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

#[cfg(test)]
mod window_tests {
    use super::*;

    #[test]
    fn long_lines_are_cut_around_the_caret() {
        let mut d = Diagnostic::whole_file("E0112", "x.rules", "expression too long");
        d.source_line = "a".repeat(5000) + "BAD" + &"b".repeat(5000);
        d.col = 5001;
        d.span = 5000..5003;
        let text = d.to_string();
        let lines: Vec<&str> = text.lines().collect();
        let shown = lines[3];
        let caret = lines[4];
        assert!(shown.chars().count() < 140, "{shown}");
        assert!(shown.contains("BAD") && shown.contains('…'));
        let at = shown.find("BAD").map(|b| shown[..b].chars().count());
        let caret_at = caret.find('^').map(|b| caret[..b].chars().count());
        assert_eq!(at, caret_at, "caret under the span:\n{text}");
        assert!(caret.ends_with("^^^"));
    }
}
