//! Resolution: reads files (size, encoding and binary checks), follows `extends` (parent
//! first, cycles detected) and `include` (relative to the including file, each file once),
//! applies items in order into a scope, types options through the registry, then builds and
//! validates the one typed [`Ruleset`] — deck from tile sets × multipliers, start tile,
//! defaults for unset options of the expansions in play, content hash.

use super::ast::{DeckItem, Item, OptionStmt, Sp, Text, TilesetDef};
use super::bundled;
use super::codes;
use super::diagnostic::{Diagnostic, Diagnostics, Severity, SourceFile};
use super::lexer::PErr;
use super::parse::{self, parse_file};
use super::print;
use super::registry::{self, closest_first, Area, OptionDef};
use super::typing::{formula_warnings, type_value, Typed};
use super::validate::build_tile;
use crate::ruleset::*;
use crate::tiles::TileType;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::Read;
use std::path::{Path, PathBuf};

/// Largest rule file accepted.
pub const MAX_FILE_BYTES: u64 = 1 << 20;
/// Deepest chain of `extends` / `include`.
const MAX_NESTING: usize = 32;
/// Diagnostics kept per load; the rest are counted in one last E0111. Each keeps a copy of
/// its source line, so a 1 MB one-line file with an error every few bytes would otherwise
/// need that megabyte a hundred thousand times over.
const MAX_DIAGS: usize = 200;
/// Most tiles in a resolved deck, the start tile included (E0509). Real editions have fewer
/// than 200; the engine's board and tile indices are sized from the deck. Every tile type in
/// the deck has at least one copy, so this also bounds the number of tile types.
pub const MAX_DECK_TILES: u64 = 1000;

/// A loaded ruleset and the warnings found on the way.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub ruleset: Ruleset,
    pub warnings: Vec<Diagnostic>,
}

#[derive(Clone, Copy, Debug)]
struct Origin {
    file: usize,
    span: Sp,
}

#[derive(Clone, Debug)]
struct OptVal {
    typed: Typed,
    source: Option<String>,
    origin: Origin,
}

#[derive(Clone, Debug, Default)]
struct Scope {
    name: Option<String>,
    tiles: Vec<(TileType, Origin)>,
    tile_index: HashMap<String, usize>,
    /// Ids of tiles defined with errors (already reported; references to them are not).
    broken: HashSet<String>,
    tilesets: Vec<(TilesetDef, usize)>,
    deck: Vec<(DeckItem, usize)>,
    start: Option<(Text, usize)>,
    options: BTreeMap<String, OptVal>,
    included: HashSet<PathBuf>,
}

struct Loader {
    files: Vec<SourceFile>,
    /// Path of each file (None for in-memory text: references resolve from the current dir).
    paths: Vec<Option<PathBuf>>,
    diags: Vec<Diagnostic>,
    /// Diagnostics not kept (beyond MAX_DIAGS).
    dropped: usize,
    /// What `err_at` hands out once MAX_DIAGS are kept.
    scratch: Diagnostic,
    /// Canonical paths of the files being resolved (extends/include chain).
    stack: Vec<PathBuf>,
    allow_files: bool,
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
    fn new(allow_files: bool) -> Loader {
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
    fn full(&self) -> bool {
        self.diags.len() >= MAX_DIAGS
    }

    /// Keep `d`, unless MAX_DIAGS are kept already.
    fn push(&mut self, d: Diagnostic) {
        if self.full() {
            self.dropped += 1;
        } else {
            self.diags.push(d);
        }
    }

    /// Keep a syntax or type error found in file `id`.
    fn push_perr(&mut self, id: usize, e: &PErr) {
        if self.full() {
            self.dropped += 1;
        } else {
            let d = self.files[id].from_perr(e);
            self.diags.push(d);
        }
    }

    fn has_errors(&self) -> bool {
        self.diags.iter().any(|d| d.is_error())
    }

    fn err_at(
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
    fn loc(&self, o: Origin) -> String {
        if self.full() {
            return String::new();
        }
        let (l, c, _) = self.files[o.file].locate(o.span.start);
        format!("{}:{l}:{c}", self.files[o.file].name)
    }

    /// Add in-memory text as a file; checks for binary content.
    fn add_text(&mut self, name: &str, text: String) -> Option<usize> {
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
    fn read(&mut self, path: &Path, at: Option<Origin>) -> Option<usize> {
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
    fn load_ref(
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

    /// Resolve the ruleset in file `id` (its `extends` first) into a scope.
    fn ruleset_scope(&mut self, id: usize) -> Scope {
        let (ast, errs) = parse_file(&self.files[id].text);
        for e in &errs {
            self.push_perr(id, e);
        }
        let mut scope = Scope::default();
        let mut extends = ast.items.iter().filter_map(|it| match it {
            Item::Extends { path, span } => Some((path, *span)),
            _ => None,
        });
        if let Some((path, span)) = extends.next() {
            if let Some((pid, canon)) = self.load_ref(id, path, span, "extends") {
                self.stack.push(canon);
                scope = self.ruleset_scope(pid);
                self.stack.pop();
            }
        }
        for (_, span) in extends {
            self.err_at(
                Origin { file: id, span },
                &codes::MISPLACED_ITEM,
                "a ruleset extends at most one other ruleset",
            )
            .help = Some("use `include` to pull in more tiles or options".into());
        }
        scope.name = None;
        let mut named = false;
        self.apply(id, &ast.items, &mut scope, false, &mut named);
        if !named && errs.is_empty() {
            let d = Diagnostic {
                help: Some("start the file with `ruleset \"My rules\"`".into()),
                ..self.files[id].error(&codes::MISSING_NAME, 0, 0, "missing ruleset name")
            };
            self.push(d);
        }
        scope
    }

    fn apply(
        &mut self,
        id: usize,
        items: &[Item],
        scope: &mut Scope,
        included: bool,
        named: &mut bool,
    ) {
        let mut keys_here: HashMap<String, Sp> = HashMap::new();
        for it in items {
            match it {
                Item::Ruleset { name, span } => {
                    let o = Origin {
                        file: id,
                        span: *span,
                    };
                    if included {
                        self.err_at(o, &codes::MISPLACED_ITEM, "`ruleset` is not allowed in an included file")
                            .help = Some("an included file adds tiles, tile sets and options; use `extends` to build on a ruleset".into());
                    } else if *named {
                        self.err_at(o, &codes::MISPLACED_ITEM, "the ruleset is named twice");
                    } else {
                        *named = true;
                        scope.name = Some(name.text.clone());
                    }
                }
                Item::Extends { span, .. } => {
                    if included {
                        self.err_at(
                            Origin {
                                file: id,
                                span: *span,
                            },
                            &codes::MISPLACED_ITEM,
                            "`extends` is not allowed in an included file",
                        );
                    }
                }
                Item::Include { path, span } => {
                    if let Some((fid, canon)) = self.load_ref(id, path, *span, "include") {
                        if scope.included.insert(canon.clone()) {
                            let (ast, errs) = parse_file(&self.files[fid].text);
                            for e in &errs {
                                self.push_perr(fid, e);
                            }
                            self.stack.push(canon);
                            self.apply(fid, &ast.items, scope, true, named);
                            self.stack.pop();
                        }
                    }
                }
                Item::Tile(def) => {
                    let mut out = Vec::new();
                    // once MAX_DIAGS are kept, check against an empty text: the
                    // diagnostics are dropped anyway, and locating them costs
                    let quiet = SourceFile {
                        name: String::new(),
                        text: String::new(),
                    };
                    let src = if self.full() { &quiet } else { &self.files[id] };
                    let t = build_tile(def, src, &mut out);
                    for d in out {
                        self.push(d);
                    }
                    let o = Origin {
                        file: id,
                        span: def.id.span,
                    };
                    if let Some(&k) = scope.tile_index.get(&def.id.text) {
                        let first = self.loc(scope.tiles[k].1);
                        self.err_at(
                            o,
                            &codes::DUPLICATE_TILE,
                            format!("duplicate tile id `{}`", def.id.text),
                        )
                        .notes
                        .push(format!("first defined at {first}"));
                    } else if let Some(t) = t {
                        scope.tile_index.insert(t.id.clone(), scope.tiles.len());
                        scope.tiles.push((t, o));
                    } else {
                        scope.broken.insert(def.id.text.clone());
                    }
                }
                Item::Tileset(def) => {
                    if let Some((first, fid)) = scope
                        .tilesets
                        .iter()
                        .find(|(s, _)| s.name.text == def.name.text)
                    {
                        let first = self.loc(Origin {
                            file: *fid,
                            span: first.name.span,
                        });
                        self.err_at(
                            Origin {
                                file: id,
                                span: def.name.span,
                            },
                            &codes::DUPLICATE_TILE_SET,
                            format!("duplicate tile set `{}`", def.name.text),
                        )
                        .notes
                        .push(format!("first defined at {first}"));
                    } else {
                        scope.tilesets.push((def.clone(), id));
                    }
                }
                Item::Deck {
                    append, entries, ..
                } => {
                    if !append {
                        scope.deck.clear();
                    }
                    scope.deck.extend(entries.iter().map(|e| (e.clone(), id)));
                }
                Item::Start { id: t, .. } => scope.start = Some((t.clone(), id)),
                Item::Option(stmt) => self.option(id, stmt, scope, &mut keys_here),
            }
        }
    }

    fn option(
        &mut self,
        id: usize,
        stmt: &OptionStmt,
        scope: &mut Scope,
        keys_here: &mut HashMap<String, Sp>,
    ) {
        let o = Origin {
            file: id,
            span: stmt.key_span,
        };
        let Some(def) = registry::lookup(&stmt.key) else {
            let keys = closest_first(&stmt.key, registry::all_options().map(|o| o.key));
            let shown: Vec<String> = keys.iter().take(8).map(|k| format!("`{k}`")).collect();
            let more = if keys.len() > 8 {
                ", … (see `meeplab check --list-options`)"
            } else {
                ""
            };
            self.err_at(
                o,
                &codes::UNKNOWN_OPTION,
                format!("unknown option `{}`", stmt.key),
            )
            .help = Some(format!(
                "valid keys, closest first: {}{more}",
                shown.join(", ")
            ));
            return;
        };
        if let Some(first) = keys_here.get(&stmt.key) {
            let first = self.loc(Origin {
                file: id,
                span: *first,
            });
            self.err_at(
                o,
                &codes::SET_TWICE,
                format!("`{}` is set twice in this file", stmt.key),
            )
            .notes
            .push(format!("first set at {first}"));
            return;
        }
        keys_here.insert(stmt.key.clone(), stmt.key_span);
        match type_value(def, &stmt.value) {
            Ok(typed) => {
                for w in formula_warnings(def, &stmt.value) {
                    let mut d =
                        self.files[id].diag(Severity::Warning, w.code, w.start, w.end, w.msg);
                    d.help = w.help;
                    self.push(d);
                }
                scope.options.insert(
                    def.key.to_string(),
                    OptVal {
                        typed,
                        source: stmt.source.as_ref().map(|s| s.text.clone()),
                        origin: o,
                    },
                );
            }
            Err(errs) => {
                for e in &errs {
                    self.push_perr(id, e);
                }
            }
        }
    }

    /// Build the typed ruleset from the top-level scope.
    fn build(&mut self, scope: Scope, top: usize, file: Option<String>) -> Option<Ruleset> {
        let errors_before = self.has_errors();
        // tile sets: tiles exist, counts positive, no duplicates
        let mut sets: HashMap<String, Vec<(String, u64)>> = HashMap::new();
        for (def, fid) in &scope.tilesets {
            let mut entries: Vec<(String, u64)> = Vec::new();
            let mut seen: HashSet<&str> = HashSet::new();
            for e in &def.entries {
                let o = Origin {
                    file: *fid,
                    span: e.id.span,
                };
                if scope.broken.contains(&e.id.text) {
                    continue;
                }
                if !scope.tile_index.contains_key(&e.id.text) {
                    let help = self.tile_suggestions(&scope, &e.id.text);
                    self.err_at(
                        o,
                        &codes::UNKNOWN_TILE,
                        format!(
                            "unknown tile `{}` in tile set `{}`",
                            e.id.text, def.name.text
                        ),
                    )
                    .help = help;
                    continue;
                }
                if e.count.0 <= 0 {
                    self.err_at(
                        Origin {
                            file: *fid,
                            span: e.count.1,
                        },
                        &codes::COUNT_NOT_POSITIVE,
                        format!("count must be positive, found {}", e.count.0),
                    );
                    continue;
                }
                if !seen.insert(&e.id.text) {
                    self.err_at(
                        o,
                        &codes::TILE_TWICE_IN_SET,
                        format!(
                            "tile `{}` listed twice in tile set `{}`",
                            e.id.text, def.name.text
                        ),
                    );
                    continue;
                }
                entries.push((e.id.text.clone(), e.count.0 as u64));
            }
            sets.insert(def.name.text.clone(), entries);
        }
        // deck
        let mut counts: Vec<(String, u64)> = Vec::new();
        let mut count_of: HashMap<String, usize> = HashMap::new();
        let mut total: u64 = 0;
        // the deck item that took the total over MAX_DECK_TILES (later items are still
        // checked, but no longer counted)
        let mut too_big: Option<(Origin, u64)> = None;
        for (item, fid) in &scope.deck {
            let o = Origin {
                file: *fid,
                span: item.set.span,
            };
            let Some(entries) = sets.get(&item.set.text) else {
                if self.full() {
                    self.dropped += 1;
                    continue;
                }
                let names = closest_first(
                    &item.set.text,
                    scope.tilesets.iter().map(|(s, _)| s.name.text.as_str()),
                );
                let help = if names.is_empty() {
                    "no tile sets are defined; include a .tiles file".to_string()
                } else {
                    format!("tile sets: {}", names.join(", "))
                };
                self.err_at(
                    o,
                    &codes::UNKNOWN_TILE_SET,
                    format!("unknown tile set `{}`", item.set.text),
                )
                .help = Some(help);
                continue;
            };
            if item.mult.0 <= 0 {
                self.err_at(
                    Origin {
                        file: *fid,
                        span: item.mult.1,
                    },
                    &codes::COUNT_NOT_POSITIVE,
                    format!("multiplier must be positive, found {}", item.mult.0),
                );
                continue;
            }
            let chosen: Vec<&(String, u64)> = match &item.only {
                None => entries.iter().collect(),
                Some(only) => {
                    // the named tiles, in the set's order
                    let pos: HashMap<&str, usize> = entries
                        .iter()
                        .enumerate()
                        .map(|(k, (id, _))| (id.as_str(), k))
                        .collect();
                    let mut picked: Vec<usize> = Vec::new();
                    for t in only {
                        match pos.get(t.text.as_str()) {
                            Some(&k) => picked.push(k),
                            None => {
                                let help = if self.full() {
                                    String::new()
                                } else {
                                    format!(
                                        "tiles of `{}`: {}",
                                        item.set.text,
                                        closest_first(
                                            &t.text,
                                            entries.iter().map(|(i, _)| i.as_str())
                                        )
                                        .join(", ")
                                    )
                                };
                                self.err_at(
                                    Origin {
                                        file: *fid,
                                        span: t.span,
                                    },
                                    &codes::UNKNOWN_TILE,
                                    format!(
                                        "tile `{}` is not in tile set `{}`",
                                        t.text, item.set.text
                                    ),
                                )
                                .help = Some(help);
                            }
                        }
                    }
                    picked.sort_unstable();
                    picked.dedup();
                    picked.into_iter().map(|k| &entries[k]).collect()
                }
            };
            if too_big.is_some() {
                continue;
            }
            for (id, n) in chosen {
                let add = n.saturating_mul(item.mult.0 as u64);
                total = total.saturating_add(add);
                match count_of.get(id) {
                    Some(&k) => counts[k].1 = counts[k].1.saturating_add(add),
                    None => {
                        count_of.insert(id.clone(), counts.len());
                        counts.push((id.clone(), add));
                    }
                }
            }
            if total > MAX_DECK_TILES {
                let o = Origin {
                    file: *fid,
                    span: item.span,
                };
                too_big = Some((o, total));
            }
        }
        let mut too_many_copies = false;
        for (id, n) in &counts {
            if *n > u64::from(u16::MAX) {
                too_many_copies = true;
                let o = scope.tiles[scope.tile_index[id]].1;
                self.err_at(
                    o,
                    &codes::TOO_MANY_COPIES,
                    format!(
                        "{n} copies of tile `{id}` is too many (at most {})",
                        u16::MAX
                    ),
                );
            }
        }
        if let Some((o, total)) = too_big.filter(|_| !too_many_copies) {
            self.err_at(
                o,
                &codes::DECK_TOO_LARGE,
                format!("the deck has more than {MAX_DECK_TILES} tiles: {total} with this item"),
            )
            .help = Some(format!(
                "a deck may hold at most {MAX_DECK_TILES} tiles, the start tile included \
                 (real editions have fewer than 200); lower this multiplier or the counts"
            ));
        }
        let top_o = Origin {
            file: top,
            span: Sp::new(0, 0),
        };
        if counts.is_empty() && !self.has_errors() {
            self.err_at(top_o, &codes::EMPTY_DECK, "the deck is empty").help =
                Some("add e.g. `include \"tiles/base.tiles\"` and `deck { base x1 }`, or extend a bundled ruleset".into());
        }
        let start = match &scope.start {
            None => {
                if !errors_before {
                    self.err_at(top_o, &codes::EMPTY_DECK, "no start tile").help =
                        Some("add e.g. `start BA/RCr`".into());
                }
                None
            }
            Some((t, fid)) => {
                let o = Origin {
                    file: *fid,
                    span: t.span,
                };
                if !scope.tile_index.contains_key(&t.text) {
                    let help = self.tile_suggestions(&scope, &t.text);
                    self.err_at(
                        o,
                        &codes::UNKNOWN_TILE,
                        format!("unknown start tile `{}`", t.text),
                    )
                    .help = help;
                    None
                } else if let Some(k) = counts.iter().position(|(id, _)| *id == t.text) {
                    Some(k)
                } else if self.has_errors() {
                    None // the deck is incomplete: do not guess
                } else {
                    self.err_at(
                        o,
                        &codes::START_NOT_IN_DECK,
                        format!("start tile `{}` is not in the deck", t.text),
                    )
                    .help = Some(
                        "the start tile is one copy of a deck tile; add its tile set to the deck"
                            .into(),
                    );
                    None
                }
            }
        };
        // options: typed values, defaults for the areas in play
        let tiles: Vec<TileType> = counts
            .iter()
            .map(|(id, _)| scope.tiles[scope.tile_index[id]].0.clone())
            .collect();
        let in_play = |a: Area| match a {
            Area::General | Area::Scoring => true,
            Area::Gold => tiles.iter().any(|t| t.gold),
            Area::Robbers => tiles.iter().any(|t| t.robber),
            Area::Crop => tiles.iter().any(|t| t.crop.is_some()),
            // an expansion with its own options is in play when any of them is set
            Area::Expansion(_) => scope
                .options
                .keys()
                .any(|k| registry::lookup(k).is_some_and(|d| d.area == a)),
        };
        let mut values: HashMap<&'static str, Typed> = HashMap::new();
        let mut options = BTreeMap::new();
        for def in registry::all_options() {
            let set = scope.options.get(def.key);
            if !in_play(def.area) {
                if let Some(v) = set {
                    let what = match def.area {
                        Area::Gold => "gold-mine",
                        Area::Robbers => "robber",
                        _ => "crop-circle",
                    };
                    let mut d = self.files[v.origin.file].diag(
                        Severity::Warning,
                        &codes::EXPANSION_NOT_IN_DECK,
                        v.origin.span.start,
                        v.origin.span.end,
                        format!(
                            "`{}` is set, but the deck has no {what} tiles, so it has no effect",
                            def.key
                        ),
                    );
                    d.help = Some(format!(
                        "add the {} tiles to the deck, or remove this option",
                        def.area.name()
                    ));
                    self.push(d);
                    options.insert(def.key.to_string(), self.setting(v));
                }
                continue;
            }
            if let (Some(v), Some(needed)) = (set, def.requires) {
                if !in_play(needed) {
                    let mut d = self.files[v.origin.file].diag(
                        Severity::Warning,
                        &codes::AREA_NOT_IN_PLAY,
                        v.origin.span.start,
                        v.origin.span.end,
                        format!(
                            "`{}` only acts with {}, which this ruleset does not play, so it \
                             has no effect",
                            def.key,
                            needed.name()
                        ),
                    );
                    d.help = Some(format!(
                        "add the {} to the ruleset, or remove this option",
                        needed.name()
                    ));
                    self.push(d);
                }
            }
            let typed = match set {
                Some(v) => {
                    options.insert(def.key.to_string(), self.setting(v));
                    v.typed.clone()
                }
                None if registry::QUIET_AT_DEFAULT.contains(&def.key) => default_of(def)?,
                None => {
                    let t = default_of(def)?;
                    options.insert(
                        def.key.to_string(),
                        OptionSetting {
                            value: t.text(),
                            source: None,
                            file: None,
                        },
                    );
                    t
                }
            };
            values.insert(def.key, typed);
        }
        if self.has_errors() {
            return None;
        }
        let start = start?;
        // in range after E0507 and E0509; checked anyway rather than wrapped
        let deck = counts
            .iter()
            .enumerate()
            .map(|(k, (_, n))| {
                Some(DeckEntry {
                    tile: TileIdx::try_from(k).ok()?,
                    count: u16::try_from(*n).ok()?,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        let start = TileIdx::try_from(start).ok()?;
        let mut rs = assemble(&values, tiles, deck, start)?;
        // a deal that empties the pack: every tile goes into hands before the first turn
        let pack = rs.total_tiles().saturating_sub(1);
        let dealt = rs.max_players as usize * (rs.hand as usize).saturating_sub(1);
        if let (Some(v), true) = (scope.options.get("hand"), rs.hand > 1 && dealt >= pack) {
            let mut d = self.files[v.origin.file].diag(
                Severity::Warning,
                &codes::HAND_EMPTIES_PACK,
                v.origin.span.start,
                v.origin.span.end,
                format!(
                    "a hand of {} for {} players deals {dealt} tiles, but the pack holds only {pack}",
                    rs.hand, rs.max_players
                ),
            );
            d.help = Some(
                "the players would draw nothing and only play their dealt hands down; use a \
                 smaller hand or a larger deck"
                    .into(),
            );
            self.push(d);
        }
        rs.name = scope.name.clone().unwrap_or_default();
        rs.file = file;
        rs.options = options;
        rs.hash = print::fnv1a_hex(&print::canonical(&rs));
        Some(rs)
    }

    fn setting(&self, v: &OptVal) -> OptionSetting {
        OptionSetting {
            value: v.typed.text(),
            source: v.source.clone(),
            file: Some(self.files[v.origin.file].name.clone()),
        }
    }

    fn tile_suggestions(&self, scope: &Scope, id: &str) -> Option<String> {
        if self.full() {
            return None; // the diagnostic is dropped: skip the search
        }
        let near: Vec<String> = closest_first(id, scope.tiles.iter().map(|(t, _)| t.id.as_str()))
            .into_iter()
            .take(5)
            .collect();
        if near.is_empty() {
            Some("no tiles are defined; include a .tiles file".into())
        } else {
            Some(format!("closest tile ids: {}", near.join(", ")))
        }
    }
}

/// The registry default of `def`, typed.
fn default_of(def: &OptionDef) -> Option<Typed> {
    let (v, errs) = parse_value_text(def.default);
    if !errs.is_empty() {
        return None;
    }
    type_value(def, &v?).ok()
}

/// Parse a standalone value (registry defaults).
fn parse_value_text(text: &str) -> (Option<super::ast::Value>, Vec<super::lexer::PErr>) {
    let (f, errs) = parse_file(&format!("x = {text}"));
    match f.items.into_iter().next() {
        Some(Item::Option(o)) => (Some(o.value), errs),
        _ => (None, errs),
    }
}

fn choice(
    values: &HashMap<&'static str, Typed>,
    key: &str,
) -> Option<(&'static str, Vec<(&'static str, &'static str)>)> {
    match values.get(key)? {
        Typed::Choice { name, args } => Some((name, args.clone())),
        _ => None,
    }
}

fn arg(args: &[(&'static str, &'static str)], k: &str) -> &'static str {
    args.iter().find(|(a, _)| *a == k).map_or("", |(_, v)| *v)
}

fn expr(values: &HashMap<&'static str, Typed>, key: &str) -> Option<Expr> {
    match values.get(key)? {
        Typed::Expr(e) => Some(e.clone()),
        _ => None,
    }
}

fn int(values: &HashMap<&'static str, Typed>, key: &str) -> Option<i64> {
    match values.get(key)? {
        Typed::Int(n) => Some(*n),
        _ => None,
    }
}

fn boolean(values: &HashMap<&'static str, Typed>, key: &str) -> Option<bool> {
    match values.get(key)? {
        Typed::Bool(b) => Some(*b),
        _ => None,
    }
}

/// Map typed option values onto the engine's [`Ruleset`] fields.
fn assemble(
    v: &HashMap<&'static str, Typed>,
    tiles: Vec<TileType>,
    deck: Vec<DeckEntry>,
    start: TileIdx,
) -> Option<Ruleset> {
    let (min_players, max_players) = match v.get("players")? {
        Typed::Range(a, b) => (u8::try_from(*a).ok()?, u8::try_from(*b).ok()?),
        _ => return None,
    };
    let unplaceable = match choice(v, "unplaceable")?.0 {
        "reshuffle" => Unplaceable::Reshuffle,
        _ => Unplaceable::Discard,
    };
    let farm = match choice(v, "farms")?.0 {
        "once_per_player" => FarmRule::OncePerPlayer,
        "city_centric" => FarmRule::CityCentric,
        "off" => FarmRule::Off,
        _ => FarmRule::PerField,
    };
    let scoring = Scoring {
        road_complete: expr(v, "score.road.complete")?,
        road_final: expr(v, "score.road.final")?,
        city_complete: expr(v, "score.city.complete")?,
        city_small_complete: match v.get("score.city.small")? {
            Typed::Expr(e) => Some(e.clone()),
            _ => None,
        },
        city_final: expr(v, "score.city.final")?,
        cloister_complete: expr(v, "score.cloister.complete")?,
        cloister_final: expr(v, "score.cloister.final")?,
        farm,
        farm_city: expr(v, "score.farm.city")?,
    };
    let gold = if v.contains_key("gold.split") {
        let (split, args) = choice(v, "gold.split")?;
        let split = match split {
            "one_per_feature" => GoldSplit::OnePerFeature {
                leftover: if arg(&args, "leftover") == "removed" {
                    GoldLeftover::Removed
                } else {
                    GoldLeftover::Stay
                },
            },
            _ => GoldSplit::Draft {
                pick: if arg(&args, "pick") == "most_contested" {
                    GoldPick::MostContested
                } else {
                    GoldPick::Player
                },
            },
        };
        Some(GoldRules {
            ingots_per_tile: u8::try_from(int(v, "gold.ingots")?).ok()?,
            neighbourhood: if choice(v, "gold.neighbourhood")?.0 == "four" {
                GoldNeighbourhood::Four
            } else {
                GoldNeighbourhood::Eight
            },
            split,
            unclaimed: if choice(v, "gold.unclaimed")?.0 == "removed" {
                UnclaimedGold::Removed
            } else {
                UnclaimedGold::Stays
            },
            at_end: if choice(v, "gold.at_end")?.0 == "award_incomplete" {
                GoldAtEnd::AwardIncomplete
            } else {
                GoldAtEnd::Discard
            },
            value: expr(v, "gold.value")?,
        })
    } else {
        None
    };
    let robbers = if v.contains_key("robbers.placers") {
        Some(RobberRules {
            placers: match choice(v, "robbers.placers")?.0 {
                "all_others" => RobberPlacers::AllOthers,
                "all_from_active" => RobberPlacers::AllFromActive,
                _ => RobberPlacers::NextWithRobber,
            },
            timing: if choice(v, "robbers.timing")?.0 == "before_tile" {
                RobberTiming::BeforeTile
            } else {
                RobberTiming::AfterTile
            },
            active_may_move: boolean(v, "robbers.active_may_move")?,
            share: expr(v, "robbers.share")?,
            in_final_scoring: boolean(v, "robbers.in_final_scoring")?,
            victim: if choice(v, "robbers.victim")?.0 == "first_scored" {
                RobberVictim::FirstScored
            } else {
                RobberVictim::OwnerChooses
            },
            track: u32::try_from(int(v, "robbers.track")?).ok()?,
        })
    } else {
        None
    };
    let crop = if v.contains_key("crop.deploy") {
        Some(CropRules {
            deploy: if choice(v, "crop.deploy")?.0 == "must" {
                CropDeploy::Must
            } else {
                CropDeploy::May
            },
            target: if choice(v, "crop.target")?.0 == "any_tile_of_feature" {
                CropTarget::AnyTileOfFeature
            } else {
                CropTarget::SameSegment
            },
        })
    } else {
        None
    };
    Some(Ruleset {
        name: String::new(),
        file: None,
        hash: String::new(),
        min_players,
        max_players,
        followers: u8::try_from(int(v, "followers")?).ok()?,
        hand: u8::try_from(int(v, "hand")?).ok()?,
        tiles,
        deck,
        start,
        unplaceable,
        scoring,
        gold,
        robbers,
        crop,
        options: BTreeMap::new(),
        ext: v
            .iter()
            .filter(|(k, _)| {
                matches!(
                    registry::lookup(k).map(|d| d.area),
                    Some(Area::Expansion(_))
                )
            })
            .map(|(&k, t)| {
                let value = match t.clone() {
                    Typed::Int(n) => ExtValue::Int(n),
                    Typed::Range(a, b) => ExtValue::Range(a, b),
                    Typed::Bool(b) => ExtValue::Bool(b),
                    Typed::Choice { name, args } => ExtValue::Choice(name, args),
                    Typed::Expr(e) => ExtValue::Expr(e),
                    Typed::NoExpr => ExtValue::None,
                };
                (k.to_string(), value)
            })
            .collect(),
    })
}

/// Order diagnostics by file (in the order files first reported) and position.
fn sort(diags: &mut [Diagnostic]) {
    let mut order: Vec<String> = Vec::new();
    for d in diags.iter() {
        if !order.contains(&d.file) {
            order.push(d.file.clone());
        }
    }
    diags.sort_by_key(|d| (order.iter().position(|f| *f == d.file), d.span.start));
}

fn finish(mut l: Loader, top: Option<usize>, file: Option<String>) -> Result<Loaded, Diagnostics> {
    let rs = match top {
        Some(id) => {
            let scope = l.ruleset_scope(id);
            l.build(scope, id, file)
        }
        None => None,
    };
    sort(&mut l.diags);
    if l.dropped > 0 {
        let name = top.map_or("", |id| l.files[id].name.as_str());
        let d = Diagnostic::whole_file(
            &codes::TOO_MANY_ERRORS,
            name,
            format!(
                "too many errors: {} more not shown (at most {MAX_DIAGS} are)",
                l.dropped
            ),
        )
        .with_help("fix the errors shown and check again");
        l.diags.push(d);
    }
    match rs {
        Some(ruleset) if !l.has_errors() => Ok(Loaded {
            ruleset,
            warnings: l.diags,
        }),
        _ => {
            if !l.has_errors() {
                l.diags.push(Diagnostic::whole_file(
                    &codes::INTERNAL,
                    "<internal>",
                    "internal error: the ruleset could not be assembled",
                ));
            }
            Err(Diagnostics::new(l.diags))
        }
    }
}

/// Load and resolve the ruleset in `path`.
pub fn load_ruleset(path: &Path) -> Result<Loaded, Diagnostics> {
    let mut l = Loader::new(true);
    let canon = canonical(path);
    let top = l.read(path, None);
    l.stack.push(canon);
    finish(l, top, Some(path.display().to_string()))
}

/// Load and resolve in-memory text named `name` (used in diagnostics). `extends` and
/// `include` paths are relative to the current directory.
pub fn load_ruleset_str(name: &str, text: &str) -> Result<Loaded, Diagnostics> {
    let mut l = Loader::new(true);
    let top = l.add_text(name, text.to_string());
    finish(l, top, None)
}

/// As [`load_ruleset_str`], but any `extends` or `include` is an error (E0304): for
/// fuzzing and untrusted text.
pub fn load_ruleset_str_isolated(name: &str, text: &str) -> Result<Loaded, Diagnostics> {
    let mut l = Loader::new(false);
    let top = l.add_text(name, text.to_string());
    finish(l, top, None)
}

/// The item keywords, re-exported for documentation.
pub fn item_keywords() -> &'static [&'static str] {
    &parse::ITEM_KEYWORDS
}

/// The path that identifies a file in the `extends`/`include` chain (cycle detection).
fn canonical(path: &Path) -> PathBuf {
    if bundled::is_bundled(path) {
        bundled::normalize(path)
    } else {
        std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
    }
}
