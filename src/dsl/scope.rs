//! The scope of a ruleset: what its files say, item by item, before it is checked as a
//! whole — the ruleset's name, its tiles (each checked on its own), tile sets, deck items,
//! start tile and typed options, each with where it was written. A ruleset's `extends` is
//! resolved first (its scope is the starting point), then its items apply in order, an
//! `include` applying the included file's items in place.

use super::ast::{DeckItem, Item, OptionStmt, Sp, Text, TilesetDef};
use super::codes;
use super::diagnostic::{Diagnostic, Severity, SourceFile};
use super::load::Loader;
use super::parse::parse_file;
use super::registry::{self, closest_first};
use super::typing::{formula_warnings, type_value, Typed};
use super::validate::build_tile;
use crate::tiles::TileType;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::PathBuf;

/// Where something was written: a file of the load and a span in it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Origin {
    pub(super) file: usize,
    pub(super) span: Sp,
}

#[derive(Clone, Debug)]
pub(super) struct OptVal {
    pub(super) typed: Typed,
    pub(super) source: Option<String>,
    pub(super) origin: Origin,
}

#[derive(Clone, Debug, Default)]
pub(super) struct Scope {
    pub(super) name: Option<String>,
    pub(super) tiles: Vec<(TileType, Origin)>,
    pub(super) tile_index: HashMap<String, usize>,
    /// Ids of tiles defined with errors (already reported; references to them are not).
    pub(super) broken: HashSet<String>,
    pub(super) tilesets: Vec<(TilesetDef, usize)>,
    pub(super) deck: Vec<(DeckItem, usize)>,
    pub(super) start: Option<(Text, usize)>,
    pub(super) options: BTreeMap<String, OptVal>,
    pub(super) included: HashSet<PathBuf>,
}

impl Loader {
    /// Resolve the ruleset in file `id` (its `extends` first) into a scope.
    pub(super) fn ruleset_scope(&mut self, id: usize) -> Scope {
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

    pub(super) fn apply(
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

    pub(super) fn option(
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
}
