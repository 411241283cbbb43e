//! Loading rule files: reading a file or in-memory text (size, binary and UTF-8 checks),
//! following an `extends`/`include` reference (relative to the referring file, or to a
//! bundled file; depth and cycle checks), and the [`Loader`] that keeps the files read and
//! the diagnostics found (at most [`MAX_DIAGS`], the rest counted).

use super::ast::{Sp, Text};
use super::bundled;
use super::codes;
use super::diagnostic::{Diagnostic, SourceFile};
use super::lexer::PErr;
use super::scope::Origin;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Largest rule file accepted.
pub const MAX_FILE_BYTES: u64 = 1 << 20;
/// Deepest chain of `extends` / `include`.
const MAX_NESTING: usize = 32;
/// Diagnostics kept per load; the rest are counted in one last E0111. Each keeps a copy of
/// its source line, so a 1 MB one-line file with an error every few bytes would otherwise
/// need that megabyte a hundred thousand times over.
pub(super) const MAX_DIAGS: usize = 200;

/// The files of one load and the diagnostics found in them.
pub(super) struct Loader {
    pub(super) files: Vec<SourceFile>,
    /// Path of each file (None for in-memory text: references resolve from the current dir).
    pub(super) paths: Vec<Option<PathBuf>>,
    pub(super) diags: Vec<Diagnostic>,
    /// Diagnostics not kept (beyond MAX_DIAGS).
    pub(super) dropped: usize,
    /// What `err_at` hands out once MAX_DIAGS are kept.
    pub(super) scratch: Diagnostic,
    /// Canonical paths of the files being resolved (extends/include chain).
    pub(super) stack: Vec<PathBuf>,
    pub(super) allow_files: bool,
}

/// Where a file reference in `from` points: relative to the including file's directory, or
/// to the current directory for in-memory text.
fn joined(from: Option<&Path>, rel: &str) -> PathBuf {
    match from.and_then(|p| p.parent()) {
        Some(dir) => dir.join(rel),
        None => PathBuf::from(rel),
    }
}

impl Loader {
    pub(super) fn new(allow_files: bool) -> Loader {
        Loader {
            files: Vec::new(),
            paths: Vec::new(),
            diags: Vec::new(),
            dropped: 0,
            scratch: Diagnostic::whole_file(&codes::TOO_MANY_ERRORS, "", ""),
            stack: Vec::new(),
            allow_files,
        }
    }

    /// Are MAX_DIAGS kept already? Then further diagnostics are only counted (and not
    /// built: locating a span copies its line).
    pub(super) fn full(&self) -> bool {
        self.diags.len() >= MAX_DIAGS
    }

    /// Keep `d`, unless MAX_DIAGS are kept already.
    pub(super) fn push(&mut self, d: Diagnostic) {
        if self.full() {
            self.dropped += 1;
        } else {
            self.diags.push(d);
        }
    }

    /// Keep a syntax or type error found in file `id`.
    pub(super) fn push_perr(&mut self, id: usize, e: &PErr) {
        if self.full() {
            self.dropped += 1;
        } else {
            let d = self.files[id].from_perr(e);
            self.diags.push(d);
        }
    }

    pub(super) fn has_errors(&self) -> bool {
        self.diags.iter().any(|d| d.is_error())
    }

    pub(super) fn err_at(
        &mut self,
        o: Origin,
        code: &'static codes::Code,
        msg: impl Into<String>,
    ) -> &mut Diagnostic {
        if self.full() {
            self.dropped += 1;
            self.scratch = Diagnostic::whole_file(code, "", "");
            return &mut self.scratch;
        }
        let d = self.files[o.file].error(code, o.span.start, o.span.end, msg);
        self.diags.push(d);
        let n = self.diags.len() - 1;
        &mut self.diags[n]
    }

    /// `file:line:col` of `o`, for a note (empty once MAX_DIAGS are kept).
    pub(super) fn loc(&self, o: Origin) -> String {
        if self.full() {
            return String::new();
        }
        let (l, c, _) = self.files[o.file].locate(o.span.start);
        format!("{}:{l}:{c}", self.files[o.file].name)
    }

    /// Add in-memory text as a file; checks for binary content.
    pub(super) fn add_text(&mut self, name: &str, text: String) -> Option<usize> {
        if text.len() as u64 > MAX_FILE_BYTES {
            let d = Diagnostic::whole_file(
                &codes::FILE_TOO_LARGE,
                name,
                format!("`{name}` is too large ({} bytes)", text.len()),
            )
            .with_help(format!("rule files are limited to {MAX_FILE_BYTES} bytes"));
            self.push(d);
            return None;
        }
        if let Some(k) = text.find('\0') {
            let src = SourceFile {
                name: name.to_string(),
                text: String::new(),
            };
            let mut d = src.error(
                &codes::BINARY_FILE,
                0,
                0,
                "this looks like a binary file, not a rule file",
            );
            d.help = Some(format!("it contains a NUL byte at offset {k}"));
            self.push(d);
            return None;
        }
        self.files.push(SourceFile {
            name: name.to_string(),
            text,
        });
        self.paths.push(None);
        Some(self.files.len() - 1)
    }

    /// Read a file (size, binary and UTF-8 checks). `at` is where it was referenced from.
    pub(super) fn read(&mut self, path: &Path, at: Option<Origin>) -> Option<usize> {
        let name = path.display().to_string();
        let fail =
            |me: &mut Loader, code: &'static codes::Code, msg: String, help: Option<String>| {
                let mut d = match at {
                    Some(o) => me.files[o.file].error(code, o.span.start, o.span.end, msg),
                    None => Diagnostic::whole_file(code, &name, msg),
                };
                d.help = help;
                me.push(d);
                None
            };
        if bundled::is_bundled(path) {
            return match bundled::read(path) {
                Some(text) => {
                    self.files.push(SourceFile {
                        name,
                        text: text.to_string(),
                    });
                    self.paths.push(Some(path.to_path_buf()));
                    Some(self.files.len() - 1)
                }
                None => fail(
                    self,
                    &codes::CANNOT_READ,
                    format!("cannot read `{name}`: no such bundled file"),
                    None,
                ),
            };
        }
        let meta = match std::fs::metadata(path) {
            Ok(m) => m,
            Err(e) if at.is_none() && e.kind() == std::io::ErrorKind::NotFound => {
                let help = format!(
                    "bundled rulesets, usable by name from any folder: {}",
                    bundled::ruleset_names().join(", ")
                );
                return fail(
                    self,
                    &codes::CANNOT_READ,
                    format!("cannot read `{name}`: {e}"),
                    Some(help),
                );
            }
            Err(e) => {
                return fail(
                    self,
                    &codes::CANNOT_READ,
                    format!("cannot read `{name}`: {e}"),
                    None,
                )
            }
        };
        if !meta.is_file() {
            return fail(
                self,
                &codes::CANNOT_READ,
                format!("cannot read `{name}`: not a regular file"),
                None,
            );
        }
        if meta.len() > MAX_FILE_BYTES {
            return fail(
                self,
                &codes::FILE_TOO_LARGE,
                format!("`{name}` is too large ({} bytes)", meta.len()),
                Some(format!(
                    "rule files are limited to {} bytes",
                    MAX_FILE_BYTES
                )),
            );
        }
        let mut bytes = Vec::new();
        let read = std::fs::File::open(path)
            .and_then(|f| f.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes));
        if let Err(e) = read {
            return fail(
                self,
                &codes::CANNOT_READ,
                format!("cannot read `{name}`: {e}"),
                None,
            );
        }
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return fail(
                self,
                &codes::FILE_TOO_LARGE,
                format!("`{name}` is too large"),
                Some(format!(
                    "rule files are limited to {} bytes",
                    MAX_FILE_BYTES
                )),
            );
        }
        if let Some(k) = bytes.iter().position(|b| *b == 0) {
            return fail(
                self,
                &codes::BINARY_FILE,
                format!("`{name}` looks like a binary file, not a rule file"),
                Some(format!("it contains a NUL byte at offset {k}")),
            );
        }
        match String::from_utf8(bytes) {
            Ok(text) => {
                self.files.push(SourceFile { name, text });
                self.paths.push(Some(path.to_path_buf()));
                Some(self.files.len() - 1)
            }
            Err(e) => {
                let bad = e.utf8_error().valid_up_to();
                let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
                // lossy replacement keeps the prefix intact, so `bad` is still the offset
                let src = SourceFile { name, text };
                let mut d = src.error(&codes::NOT_UTF8, bad, bad + 1, "file is not valid UTF-8");
                d.help = Some(format!(
                    "invalid byte at offset {bad}; save the file as UTF-8"
                ));
                self.push(d);
                None
            }
        }
    }

    /// Load the file `rel` referenced from file `from` at `at`: path, cycle and depth checks.
    pub(super) fn load_ref(
        &mut self,
        from: usize,
        rel: &Text,
        at: Sp,
        what: &str,
    ) -> Option<(usize, PathBuf)> {
        let o = Origin {
            file: from,
            span: at,
        };
        if !self.allow_files {
            self.err_at(
                o,
                &codes::NO_FILE_ACCESS,
                format!("`{what}` is not allowed here: this text was loaded without file access"),
            );
            return None;
        }
        if self.stack.len() >= MAX_NESTING {
            self.err_at(
                o,
                &codes::INCLUDE_CYCLE,
                format!("`{what}` nested more than {MAX_NESTING} files deep"),
            );
            return None;
        }
        let mut path = joined(self.paths[from].as_deref(), &rel.text);
        if !bundled::is_bundled(&path) && !path.exists() {
            // a reference to a bundled file from a file elsewhere (`extends "base.rules"`)
            if let Some(b) = bundled::find(&rel.text) {
                path = b;
            }
        }
        let canon = canonical(&path);
        if let Some(k) = self.stack.iter().position(|p| *p == canon) {
            let chain: Vec<String> = self.stack[k..]
                .iter()
                .map(|p| {
                    p.file_name().map_or_else(
                        || p.display().to_string(),
                        |n| n.to_string_lossy().into_owned(),
                    )
                })
                .collect();
            let d = self.err_at(
                o,
                &codes::INCLUDE_CYCLE,
                format!("cycle in `{what}`: `{}` is already being loaded", rel.text),
            );
            d.help = Some(format!("the chain is {} → {}", chain.join(" → "), rel.text));
            return None;
        }
        let id = self.read(&path, Some(o))?;
        Some((id, canon))
    }
}

/// The path that identifies a file in the `extends`/`include` chain (cycle detection).
pub(super) fn canonical(path: &Path) -> PathBuf {
    if bundled::is_bundled(path) {
        bundled::normalize(path)
    } else {
        std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
    }
}
