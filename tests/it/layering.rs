//! The layers of `src/`, checked: no file-level import circle, and the top-level modules used
//! only downwards along the layer DAG that ARCHITECTURE.md ("Layers") states.
//!
//! The graph is read from the source text (std only, no parser crate): each crate's module
//! tree is followed from its root (`src/lib.rs`; `src/main.rs` with `cli/`) through its
//! `mod NAME;` lines, and each file gets an edge to every file that defines an item it names
//! through a `crate::…` path or a name brought in by `use crate::…` (a `use` of a module
//! counts where the module's items are named through it). Paths written from the file's own
//! place (`super::…`, `self::…`, a child module's name) are not followed: a module and its
//! private helper modules may name each other (`gold/mod.rs` calls `present::tile_art`,
//! `gold/present.rs` reads `super::Gold`), so a circle within one module's own files is not
//! counted; only circles through `crate::` paths are. A re-export (`pub use x::Item` in a
//! `mod.rs`) is a facade, not a use: a path through it leads to the file that defines the
//! item. Comments, strings and `#[cfg(test)]` items are left out: unit
//! tests may build their fixtures from any layer (a dsl test loads rulesets, an engine test
//! plays a policy), and they are compiled into no layer of the library.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The top-level modules of the library, bottom layer first. A module may use the modules
/// of the layers below its own, never one of its own layer or above (ARCHITECTURE.md,
/// "Layers"). The CLI (`src/main.rs`, `src/cli/`) is a crate of its own above all of them.
const LAYERS: &[&[&str]] = &[
    &["tiles"],
    &["ruleset"],
    // the option declarations' types (`Var` of the typed rules)
    &["rule_options"],
    // the rules of play; its expansion registry declares the options the rule language reads
    &["engine"],
    // the rule language (text → AST → Ruleset); who chooses
    &["dsl", "policy"],
    &["play", "render"],
    // `files` knows neither compare nor report; a game record replays through play
    &["record", "files"],
    &["import", "compare"],
    &["sweep", "ladder"],
    &["report"],
];

/// The file-level circles known and not broken yet, each as the files it may hold at most:
/// a circle within one of these passes (it may shrink: then shorten the list), any other
/// fails. Empty since the engine's core was cut apart (ARCHITECTURE.md, "Layers"); keep it so.
const KNOWN_CIRCLES: &[&[&str]] = &[];

fn src_dir() -> PathBuf {
    Path::new(option_env!("CARGO_MANIFEST_DIR").unwrap_or(".")).join("src")
}

// ---------------------------------------------------------------------------------------
// Text → tokens (comments, strings and char literals dropped)

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Ident(String),
    /// `::`
    Path,
    Punct(char),
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn tokenize(text: &str) -> Vec<Tok> {
    let c: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && c.get(i + 1) == Some(&'/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && c.get(i + 1) == Some(&'*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if ch == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
        } else if (ch == 'r' || ch == 'b')
            && (i == 0 || !is_ident_char(c[i - 1]))
            && raw_string_len(&c[i..]).is_some()
        {
            i += raw_string_len(&c[i..]).unwrap_or(1);
        } else if ch == '\'' {
            if c.get(i + 1) == Some(&'\\') {
                i += 2;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if c.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                // a lifetime or a label
                i += 1;
            }
        } else if is_ident_char(ch) {
            let start = i;
            while i < c.len() && is_ident_char(c[i]) {
                i += 1;
            }
            out.push(Tok::Ident(c[start..i].iter().collect()));
        } else if ch == ':' && c.get(i + 1) == Some(&':') {
            out.push(Tok::Path);
            i += 2;
        } else {
            out.push(Tok::Punct(ch));
            i += 1;
        }
    }
    out
}

/// The length of a raw or byte string starting here (`r"…"`, `r#"…"#`, `b"…"`, `br#"…"#`).
fn raw_string_len(c: &[char]) -> Option<usize> {
    let mut i = 0;
    if c.get(i) == Some(&'b') {
        i += 1;
    }
    let raw = c.get(i) == Some(&'r');
    if raw {
        i += 1;
    }
    if !raw && i == 0 {
        return None;
    }
    let mut hashes = 0;
    while raw && c.get(i) == Some(&'#') {
        hashes += 1;
        i += 1;
    }
    if c.get(i) != Some(&'"') {
        return None;
    }
    i += 1;
    while i < c.len() {
        if c[i] == '\\' && !raw {
            i += 2;
            continue;
        }
        if c[i] == '"' && (0..hashes).all(|h| c.get(i + 1 + h) == Some(&'#')) {
            return Some(i + 1 + hashes);
        }
        i += 1;
    }
    Some(c.len())
}

/// The tokens without `#[cfg(test)]` items; the names of `#[cfg(test)] mod NAME;` files.
fn strip_cfg_test(toks: Vec<Tok>) -> (Vec<Tok>, Vec<String>) {
    let is = |t: &Tok, s: &str| matches!(t, Tok::Ident(x) if x == s);
    let mut out = Vec::with_capacity(toks.len());
    let mut test_mods = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let cfg_test = toks.len() > i + 6
            && toks[i] == Tok::Punct('#')
            && toks[i + 1] == Tok::Punct('[')
            && is(&toks[i + 2], "cfg")
            && toks[i + 3] == Tok::Punct('(')
            && is(&toks[i + 4], "test")
            && toks[i + 5] == Tok::Punct(')')
            && toks[i + 6] == Tok::Punct(']');
        if !cfg_test {
            out.push(toks[i].clone());
            i += 1;
            continue;
        }
        i += 7;
        // the item: up to a `;` outside brackets, or to the `}` closing its first `{`
        let mut depth = 0i32;
        let start = i;
        while i < toks.len() {
            match toks[i] {
                Tok::Punct('{') | Tok::Punct('(') | Tok::Punct('[') => depth += 1,
                Tok::Punct('}') | Tok::Punct(')') | Tok::Punct(']') => {
                    depth -= 1;
                    if depth == 0 && toks[i] == Tok::Punct('}') {
                        i += 1;
                        break;
                    }
                }
                Tok::Punct(';') if depth == 0 => {
                    if let Some(p) = toks[start..i].iter().position(|t| is(t, "mod")) {
                        if let Some(Tok::Ident(name)) = toks.get(start + p + 1) {
                            test_mods.push(name.clone());
                        }
                    }
                    i += 1;
                    break;
                }
                _ => {}
            }
            i += 1;
        }
    }
    (out, test_mods)
}

// ---------------------------------------------------------------------------------------
// One file: its child modules, its items, its re-exports, its uses

#[derive(Default)]
struct FileInfo {
    /// `mod NAME;` (a child file).
    child_mods: Vec<String>,
    /// Names of items defined here (fn, struct, enum, trait, type, const, static, union,
    /// macro_rules!, inline mod).
    items: BTreeSet<String>,
    /// `pub use` leaves: name → path as written (relative to this module).
    reexports: BTreeMap<String, Vec<String>>,
    /// Glob re-exports `pub use path::*`.
    reexport_globs: Vec<Vec<String>>,
    /// Every `use` leaf: name → path as written.
    uses: BTreeMap<String, Vec<String>>,
    /// `use path::*` (not pub).
    use_globs: Vec<Vec<String>>,
    /// Paths named in code (two or more segments, or one after `crate`/`super`/`self`).
    paths: Vec<Vec<String>>,
}

/// Parse a use tree starting at `toks[*i]`, appending (path, alias) leaves.
fn use_tree(toks: &[Tok], i: &mut usize, prefix: &[String], out: &mut Vec<(Vec<String>, String)>) {
    let mut path = prefix.to_vec();
    loop {
        match toks.get(*i) {
            Some(Tok::Path) => *i += 1,
            Some(Tok::Ident(s)) => {
                path.push(s.clone());
                *i += 1;
                match toks.get(*i) {
                    Some(Tok::Path) => {
                        *i += 1;
                        continue;
                    }
                    Some(Tok::Ident(a)) if a == "as" => {
                        *i += 1;
                        if let Some(Tok::Ident(alias)) = toks.get(*i) {
                            *i += 1;
                            let mut p = path.clone();
                            if p.last().map(String::as_str) == Some("self") {
                                p.pop();
                            }
                            out.push((p, alias.clone()));
                        }
                        return;
                    }
                    _ => {
                        let name = path.last().cloned().unwrap_or_default();
                        if name == "self" {
                            path.pop();
                            let n = path.last().cloned().unwrap_or_default();
                            out.push((path, n));
                        } else {
                            out.push((path, name));
                        }
                        return;
                    }
                }
            }
            Some(Tok::Punct('*')) => {
                *i += 1;
                path.push("*".into());
                out.push((path, "*".into()));
                return;
            }
            Some(Tok::Punct('{')) => {
                *i += 1;
                loop {
                    match toks.get(*i) {
                        Some(Tok::Punct('}')) => {
                            *i += 1;
                            return;
                        }
                        Some(Tok::Punct(',')) => *i += 1,
                        None => return,
                        _ => use_tree(toks, i, &path, out),
                    }
                }
            }
            _ => return,
        }
    }
}

const ITEM_KEYWORDS: &[&str] = &[
    "fn", "struct", "enum", "trait", "type", "const", "static", "union", "mod",
];

fn read_file(text: &str) -> FileInfo {
    let (toks, test_mods) = strip_cfg_test(tokenize(text));
    let mut f = FileInfo::default();
    let ident = |t: Option<&Tok>| match t {
        Some(Tok::Ident(s)) => Some(s.clone()),
        _ => None,
    };
    let mut pub_pending = false;
    let mut i = 0;
    while i < toks.len() {
        match &toks[i] {
            Tok::Ident(kw) if kw == "pub" => {
                pub_pending = true;
                i += 1;
                if toks.get(i) == Some(&Tok::Punct('(')) {
                    while i < toks.len() && toks[i] != Tok::Punct(')') {
                        i += 1;
                    }
                    i += 1;
                }
                continue;
            }
            Tok::Ident(kw) if kw == "use" && toks.get(i.wrapping_sub(1)) != Some(&Tok::Path) => {
                i += 1;
                let mut leaves = Vec::new();
                use_tree(&toks, &mut i, &[], &mut leaves);
                for (path, name) in leaves {
                    if name == "*" {
                        let p = path[..path.len() - 1].to_vec();
                        if pub_pending {
                            f.reexport_globs.push(p.clone());
                        }
                        f.use_globs.push(p);
                    } else {
                        if pub_pending {
                            f.reexports.insert(name.clone(), path.clone());
                        }
                        f.uses.insert(name, path);
                    }
                }
                pub_pending = false;
                continue;
            }
            Tok::Ident(kw) if kw == "macro_rules" && toks.get(i + 1) == Some(&Tok::Punct('!')) => {
                if let Some(n) = ident(toks.get(i + 2)) {
                    f.items.insert(n);
                }
            }
            Tok::Ident(kw) if ITEM_KEYWORDS.contains(&kw.as_str()) => {
                if let Some(n) = ident(toks.get(i + 1)) {
                    if kw == "mod" && toks.get(i + 2) == Some(&Tok::Punct(';')) {
                        if !test_mods.contains(&n) {
                            f.child_mods.push(n);
                        }
                    } else {
                        f.items.insert(n);
                    }
                }
            }
            // a path in code: `a::b::c` (not the tail of a longer one)
            Tok::Ident(first)
                if toks.get(i + 1) == Some(&Tok::Path)
                    && toks.get(i.wrapping_sub(1)) != Some(&Tok::Path) =>
            {
                let mut path = vec![first.clone()];
                let mut j = i + 1;
                while toks.get(j) == Some(&Tok::Path) {
                    match toks.get(j + 1) {
                        Some(Tok::Ident(s)) => {
                            path.push(s.clone());
                            j += 2;
                        }
                        _ => break,
                    }
                }
                f.paths.push(path);
                pub_pending = false;
                i = j;
                continue;
            }
            _ => {}
        }
        pub_pending = false;
        i += 1;
    }
    f
}

// ---------------------------------------------------------------------------------------
// Crates, resolution, the graph

/// One crate's files: module path (`["import", "jcz", "save"]`) → (file, what it holds).
struct Tree {
    files: BTreeMap<Vec<String>, (PathBuf, FileInfo)>,
}

fn load_crate(root: &Path) -> Tree {
    let mut files = BTreeMap::new();
    let mut todo = vec![(Vec::<String>::new(), root.to_path_buf())];
    while let Some((module, path)) = todo.pop() {
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let info = read_file(&text);
        let dir = if module.is_empty() || path.file_name().is_some_and(|n| n == "mod.rs") {
            path.parent().map(Path::to_path_buf).unwrap_or_default()
        } else {
            path.with_extension("")
        };
        for child in &info.child_mods {
            let a = dir.join(format!("{child}.rs"));
            let b = dir.join(child).join("mod.rs");
            let file = if a.exists() {
                a
            } else if b.exists() {
                b
            } else {
                panic!("{}: mod {child}: no file", path.display())
            };
            let mut m = module.clone();
            m.push(child.clone());
            todo.push((m, file));
        }
        files.insert(module, (path, info));
    }
    Tree { files }
}

impl Tree {
    /// A path as written in module `here` made absolute (None: an external crate, a
    /// primitive, a local name).
    fn absolute(&self, here: &[String], path: &[String], info: &FileInfo) -> Option<Vec<String>> {
        self.absolute_at(here, path, info, 0)
    }

    fn absolute_at(
        &self,
        here: &[String],
        path: &[String],
        info: &FileInfo,
        depth: usize,
    ) -> Option<Vec<String>> {
        let first = path.first()?;
        if depth > 8 {
            return None;
        }
        let mut base: Vec<String> = match first.as_str() {
            "crate" => return Some(path[1..].to_vec()),
            "self" => here.to_vec(),
            "super" => {
                let mut b = here.to_vec();
                let mut k = 0;
                while path.get(k).map(String::as_str) == Some("super") {
                    b.pop()?;
                    k += 1;
                }
                b.extend(path[k..].iter().cloned());
                return Some(b);
            }
            _ => {
                let mut child = here.to_vec();
                child.push(first.clone());
                if self.files.contains_key(&child) {
                    child.extend(path[1..].iter().cloned());
                    return Some(child);
                }
                let used = info.uses.get(first)?;
                if used.len() == 1 {
                    // `use name;` of a crate: nothing of ours
                    return None;
                }
                let mut abs = self.absolute_at(here, used, info, depth + 1)?;
                abs.extend(path[1..].iter().cloned());
                return Some(abs);
            }
        };
        base.extend(path[1..].iter().cloned());
        Some(base)
    }

    /// Whether a path is written from the crate's root: `crate::…`, or through a name a
    /// `use crate::…` brought in.
    fn crate_path(&self, path: &[String], info: &FileInfo) -> bool {
        match path.first().map(String::as_str) {
            Some("crate") => true,
            Some(first) => info
                .uses
                .get(first)
                .is_some_and(|u| u.len() > 1 && u[0] == "crate"),
            None => false,
        }
    }

    /// The file that defines what an absolute path names (through re-exports).
    fn resolve(&self, abs: &[String], depth: usize) -> Option<Vec<String>> {
        if depth > 16 {
            return None;
        }
        let k = (0..=abs.len())
            .rev()
            .find(|&k| self.files.contains_key(&abs[..k]))?;
        let module = abs[..k].to_vec();
        let Some(name) = abs.get(k) else {
            return Some(module);
        };
        let (_, info) = &self.files[&module];
        if info.items.contains(name) {
            return Some(module);
        }
        if let Some(target) = info.reexports.get(name) {
            let mut t = self.absolute(&module, target, info)?;
            t.extend(abs[k + 1..].iter().cloned());
            return self.resolve(&t, depth + 1);
        }
        for g in &info.reexport_globs {
            if let Some(mut t) = self.absolute(&module, g, info) {
                t.push(name.clone());
                if let Some(r) = self.resolve(&t, depth + 1) {
                    if r != t[..t.len() - 1] || self.files[&r].1.items.contains(name) {
                        return Some(r);
                    }
                }
            }
        }
        Some(module)
    }

    /// Edges: file → (file it uses, the path that names it).
    fn edges(&self) -> BTreeMap<Vec<String>, BTreeMap<Vec<String>, String>> {
        let mut edges: BTreeMap<Vec<String>, BTreeMap<Vec<String>, String>> = BTreeMap::new();
        for (module, (_, info)) in &self.files {
            let out = edges.entry(module.clone()).or_default();
            let mut named: Vec<Vec<String>> = Vec::new();
            for path in info.uses.values() {
                named.push(path.clone());
            }
            for g in &info.use_globs {
                named.push(g.clone());
            }
            named.extend(info.paths.iter().cloned());
            for path in named {
                if !self.crate_path(&path, info) {
                    continue;
                }
                let Some(abs) = self.absolute(module, &path, info) else {
                    continue;
                };
                // a `use` of a module counts where its items are named
                if self.files.contains_key(&abs) && info.uses.values().any(|u| *u == path) {
                    continue;
                }
                if let Some(target) = self.resolve(&abs, 0) {
                    if target != *module {
                        out.entry(target).or_insert_with(|| path.join("::"));
                    }
                }
            }
        }
        edges
    }
}

fn file_name(tree: &Tree, m: &[String]) -> String {
    let src = src_dir();
    let p = &tree.files[m].0;
    p.strip_prefix(&src).unwrap_or(p).display().to_string()
}

/// Strongly connected components with more than one file (Tarjan).
fn cycles(edges: &BTreeMap<Vec<String>, BTreeMap<Vec<String>, String>>) -> Vec<Vec<Vec<String>>> {
    let nodes: Vec<&Vec<String>> = edges.keys().collect();
    let index_of: BTreeMap<&Vec<String>, usize> =
        nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let adj: Vec<Vec<usize>> = nodes
        .iter()
        .map(|n| {
            edges[*n]
                .keys()
                .filter_map(|t| index_of.get(t).copied())
                .collect()
        })
        .collect();
    let n = nodes.len();
    let (mut index, mut low, mut on) = (vec![usize::MAX; n], vec![0; n], vec![false; n]);
    let (mut stack, mut next, mut out) = (Vec::new(), 0, Vec::new());
    // iterative Tarjan
    for s in 0..n {
        if index[s] != usize::MAX {
            continue;
        }
        let mut call: Vec<(usize, usize)> = vec![(s, 0)];
        index[s] = next;
        low[s] = next;
        next += 1;
        stack.push(s);
        on[s] = true;
        while let Some(&mut (v, ref mut k)) = call.last_mut() {
            if *k < adj[v].len() {
                let w = adj[v][*k];
                *k += 1;
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on[w] = true;
                    call.push((w, 0));
                } else if on[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                call.pop();
                if let Some(&(u, _)) = call.last() {
                    low[u] = low[u].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut comp = Vec::new();
                    while let Some(w) = stack.pop() {
                        on[w] = false;
                        comp.push(nodes[w].clone());
                        if w == v {
                            break;
                        }
                    }
                    if comp.len() > 1 {
                        comp.sort();
                        out.push(comp);
                    }
                }
            }
        }
    }
    out.sort();
    out
}

/// Each circle: its files (relative to `src/`) and a description with its edges.
fn describe_cycles(tree: &Tree) -> Vec<(Vec<String>, String)> {
    let edges = tree.edges();
    cycles(&edges)
        .into_iter()
        .map(|comp| {
            let files: Vec<String> = comp.iter().map(|m| file_name(tree, m)).collect();
            let set: BTreeSet<&Vec<String>> = comp.iter().collect();
            let mut s = format!(
                "circle of {} files: {}",
                comp.len(),
                comp.iter()
                    .map(|m| file_name(tree, m))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            for a in &comp {
                for (b, why) in &edges[a] {
                    if set.contains(b) {
                        s.push_str(&format!(
                            "\n    {} -> {} ({why})",
                            file_name(tree, a),
                            file_name(tree, b)
                        ));
                    }
                }
            }
            (files, s)
        })
        .collect()
}

#[test]
fn no_file_level_import_circle() {
    let src = src_dir();
    let mut found = Vec::new();
    for root in ["lib.rs", "main.rs"] {
        let tree = load_crate(&src.join(root));
        assert!(tree.files.len() > 1, "{root}: no modules found");
        for (files, text) in describe_cycles(&tree) {
            let known = KNOWN_CIRCLES
                .iter()
                .any(|k| files.iter().all(|f| k.contains(&f.as_str())));
            if !known {
                found.push(text);
            }
        }
    }
    assert!(
        found.is_empty(),
        "{} file-level import circle(s) in src/:\n{}",
        found.len(),
        found.join("\n")
    );
}

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

#[test]
fn top_level_modules_use_only_lower_layers() {
    let tree = load_crate(&src_dir().join("lib.rs"));
    let mut bad = Vec::new();
    for (a, targets) in tree.edges() {
        let Some(top_a) = a.first() else { continue };
        let Some(la) = layer_of(top_a) else {
            bad.push(format!(
                "{}: top-level module `{top_a}` is in no layer",
                file_name(&tree, &a)
            ));
            continue;
        };
        for (b, why) in targets {
            let Some(top_b) = b.first() else { continue };
            if top_a == top_b {
                continue;
            }
            if layer_of(top_b).is_none_or(|lb| lb >= la) {
                bad.push(format!(
                    "{} uses {} ({why}): `{top_a}` may not use `{top_b}`",
                    file_name(&tree, &a),
                    file_name(&tree, &b)
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} use(s) against the layers:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// The checker itself: a circle and a layer breach it must find, in text it is handed.
#[test]
fn the_checker_finds_a_planted_circle() {
    let dir = std::env::temp_dir().join(format!("meeplab-layering-{}", std::process::id()));
    let write = |p: &str, t: &str| {
        let path = dir.join(p);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        std::fs::write(path, t).expect("write");
    };
    write("lib.rs", "pub mod a;\npub mod b;\npub mod c;\n");
    write(
        "a/mod.rs",
        "mod x;\npub use x::X;\npub fn fa() { crate::b::fb(); }\n",
    );
    write(
        "a/x.rs",
        "pub struct X; // crate::c::Nope\nconst S: &str = \"crate::c::C\";\n",
    );
    write(
        "b.rs",
        "use crate::c::{C as Cee, self};\npub fn fb() { let _ = Cee; c::g(); }\n",
    );
    write(
        "c.rs",
        "pub struct C;\npub fn g() { let _ = crate::a::X; }\n#[cfg(test)]\nmod tests { use crate::b::fb; }\n",
    );
    let tree = load_crate(&dir.join("lib.rs"));
    let found: Vec<String> = describe_cycles(&tree).into_iter().map(|c| c.1).collect();
    // b → c (C, g), c → a/x.rs (X through a's re-export); a/x.rs names c only in a comment
    // and a string, and c's test module is left out: no circle
    assert!(found.is_empty(), "{found:?}");
    write("a/x.rs", "pub struct X;\npub fn h() { crate::b::fb(); }\n");
    let tree = load_crate(&dir.join("lib.rs"));
    let found: Vec<String> = describe_cycles(&tree).into_iter().map(|c| c.1).collect();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("circle of 3 files"), "{found:?}");
    for f in ["a/x.rs", "b.rs", "c.rs"] {
        assert!(found[0].contains(f), "{found:?}");
    }
    std::fs::remove_dir_all(&dir).expect("the temporary folder removed");
}
